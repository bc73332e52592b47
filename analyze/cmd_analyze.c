// SPDX-License-Identifier: MIT
/*
 * `ucval analyze`: replay traces against the model, print a verdict table per
 * trace, and store traces, verdicts and windows in SQLite (events.md §4, §5).
 * Each trace is analyzed first and written afterwards in one short
 * transaction, so `-j N` workers share a database without waiting on each
 * other's reading, and an unreadable trace leaves no row. With several
 * traces, a worker's writes run in a thread of their own (struct writer)
 * while it analyzes the next trace.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "analyze/analyze.h"
#include "analyze/store/db.h"
#include "analyze/store/series.h"
#include "analyze/read/reader.h"
#include "lib/sha256.h"
#include "analyze/store/winbuf.h"
#include "lib/json.h"
#include "lib/modelopt.h"
#include "lib/optnum.h"
#include "ucval.h"

static const char analyze_usage[] =
	"usage: ucval analyze [options] TRACE...\n"
	"\n"
	"Replay each TRACE (trace.dat v6 or v7, plain or compressed; ftrace text or\n"
	"systrace HTML; detected from the content) against the reference model and\n"
	"report, per check, whether the kernel agreed with it: PASS, FAIL or\n"
	"UNDECIDED, with every window of disagreement.\n"
	"\n"
	"  --db FILE        also store traces, verdicts and windows in this SQLite\n"
	"                   database (created if needed; one transaction per trace;\n"
	"                   re-analyzing a trace with the same options replaces it),\n"
	"                   with explanations, tasks, CPUs, policies, clamp and\n"
	"                   frequency intervals (in chunks of 256, read through\n"
	"                   views), residency and requests (schema 3, README\n"
	"                   \"Querying the database\"; an older file is upgraded)\n"
	"  --json FILE      write the results as JSON ('-': standard output)\n"
	"  --model M        v3 or mainline (default: the platform marker, else the\n"
	"                   kernel release: before 5.3 v3, else mainline)\n"
	"  --fidelity F     v3: intent (default) or seed\n"
	"  --groups N       v3 clamp groups or mainline buckets (default: the\n"
	"                   platform marker, else 5)\n"
	"  --kernel REL     kernel release whose rules apply (default: the trace's)\n"
	"  --grace-us N     grace window of the frequency checks in microseconds\n"
	"                   (default: the policy's rate limit plus one tick)\n"
	"  --early-us N     how long before the trace event that shows why the\n"
	"                   kernel may act on it (schedutil runs inside enqueue and\n"
	"                   dequeue) and how much short of the rate limit a change\n"
	"                   may come (rq clock against event time); default 100,\n"
	"                   more under emulation\n"
	"  --checks LIST    run only these checks (comma-separated check ids)\n"
	"  --platform FILE  platform description for traces without ucval markers\n"
	"                   (ucval format or LISA platform.json)\n"
	"  --strict         exit 1 instead of 3 when undecided windows may hide a\n"
	"                   failure\n"
	"  -j N             analyze N traces at once (default 1); with --db, each\n"
	"                   worker writes a trace while it reads its next one, and\n"
	"                   a worker's only trace streams its rows in as it is read\n"
	"                   when the database is free (the write lock is then held\n"
	"                   for the whole analysis)\n"
	"  -q, --quiet      no table on standard output\n"
	"  -h, --help       this text\n"
	"\n"
	"checks: rq_clamp task_effective request_result freq_below_min_clamp\n"
	"        freq_above_max_clamp freq_prediction groups_exhausted trace_integrity\n"
	"lost events: trace_integrity FAIL; the other checks UNDECIDED where the\n"
	"replay cannot know the runqueues or the frequency; losses a trace.dat's\n"
	"buffer statistics count but no page places: UNDECIDED throughout, unless\n"
	"the buffer had been read before the file was saved (README)\n"
	"exit status: 0 every check PASS or UNDECIDED for lack of input, 1 a check\n"
	"failed, 2 bad usage or an unreadable trace, 3 undecided windows may hide a\n"
	"failure (1 with --strict)\n"
	"environment: UCVAL_DAT=library reads trace.dat with libtracecmd's own\n"
	"records (the reference, slower), UCVAL_DAT=kbuffer with libtraceevent's\n"
	"page parser for every page; the results are the same (README \"Speed\")\n";

/* Most FAIL windows printed per check in the terminal table. */
#define SHOW_WINDOWS	5
/* Largest -j: beyond the cores, workers only contend. */
#define MAX_JOBS	64
/* Events between two progress lines on a terminal. */
#define PROGRESS_EVERY	1000000
/* Room for the canonical option string that identifies an analysis. */
#define OPTIONS_LEN	512

enum {
	OPT_DB = 256, OPT_JSON, OPT_GRACE, OPT_EARLY, OPT_CHECKS, OPT_PLATFORM, OPT_STRICT,
};

static const struct option analyze_options[] = {
	{ "db", required_argument, NULL, OPT_DB },
	{ "json", required_argument, NULL, OPT_JSON },
	AN_MODELOPT_OPTION_MODEL,
	AN_MODELOPT_OPTION_FIDELITY,
	AN_MODELOPT_OPTION_GROUPS,
	AN_MODELOPT_OPTION_KERNEL,
	{ "grace-us", required_argument, NULL, OPT_GRACE },
	{ "early-us", required_argument, NULL, OPT_EARLY },
	{ "checks", required_argument, NULL, OPT_CHECKS },
	{ "platform", required_argument, NULL, OPT_PLATFORM },
	{ "strict", no_argument, NULL, OPT_STRICT },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

struct cmd_opts {
	const char *db_path;
	const char *json_path;
	const char *checks_text;
	bool is_strict;
	bool is_quiet;
	unsigned long jobs;
	struct an_analyze_opts an;
	char options[OPTIONS_LEN];	/* canonical text: the analysis' identity */
	char **traces;
	int nr_traces;
};

static int parse_checks(const char *list, uint32_t *mask)
{
	char name[32];
	const char *s = list;

	*mask = 0;
	for (;;) {
		size_t len = strcspn(s, ",");
		enum an_check_id id;

		if (len == 0 || len >= sizeof(name))
			goto bad;
		memcpy(name, s, len);
		name[len] = '\0';
		if (an_check_from_name(name, &id))
			goto bad;
		*mask |= AN_CHECK_BIT(id);
		if (!s[len])
			return 0;
		s += len + 1;
	}
bad:
	fprintf(stderr, "ucval analyze: --checks expects check ids separated by commas "
		"(rq_clamp, task_effective, request_result, freq_below_min_clamp, "
		"freq_above_max_clamp, freq_prediction, groups_exhausted, trace_integrity), "
		"got '%s'\n", list);
	return -1;
}

static int parse_opts(int argc, char **argv, struct cmd_opts *o)
{
	struct an_replay_opts *r = &o->an.replay;
	struct an_modelopt mo = { 0 };
	unsigned long long v;
	int c;

	o->jobs = 1;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "hqj:", analyze_options, NULL)) != -1) {
		int shared = an_modelopt_parse(&mo, "analyze", c, optarg);

		if (shared < 0)
			return -1;
		if (!shared)
			continue;
		switch (c) {
		case OPT_DB:
			o->db_path = optarg;
			break;
		case OPT_JSON:
			o->json_path = optarg;
			break;
		case OPT_GRACE:
			/* an hour is far beyond any rate limit */
			if (an_optnum_parse("analyze", "--grace-us", optarg, 1, 3600ULL * 1000000ULL, &v))
				return -1;
			r->grace_us = (unsigned int)v;
			break;
		case OPT_EARLY:
			/* beyond a second it is no longer "before the event" */
			if (an_optnum_parse("analyze", "--early-us", optarg, 1, 1000000ULL, &v))
				return -1;
			r->early_us = (unsigned int)v;
			break;
		case OPT_CHECKS:
			if (parse_checks(optarg, &r->checks))
				return -1;
			o->checks_text = optarg;
			break;
		case OPT_PLATFORM:
			r->platform_path = optarg;
			break;
		case OPT_STRICT:
			o->is_strict = true;
			break;
		case 'j':
			if (an_optnum_parse("analyze", "-j", optarg, 1, MAX_JOBS, &v))
				return -1;
			o->jobs = (unsigned long)v;
			break;
		case 'q':
			o->is_quiet = true;
			break;
		case 'h':
			fputs(analyze_usage, stdout);
			return 1;
		default:
			fprintf(stderr, "ucval analyze: unknown option '%s'\n\n%s",
				argv[optind - 1], analyze_usage);
			return -1;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "ucval analyze: no TRACE given\n\n%s", analyze_usage);
		return -1;
	}
	o->traces = argv + optind;
	o->nr_traces = argc - optind;
	if (mo.has_variant)
		r->model = mo.variant == MODEL_V3 ? AN_MODEL_V3 : AN_MODEL_MAINLINE;
	r->fidelity = mo.fidelity;
	r->kernel = mo.kernel;
	r->groups = mo.groups;
	if (r->model == AN_MODEL_MAINLINE && r->groups &&
	    (r->groups < MODEL_ML_MIN_BUCKETS || r->groups > MODEL_ML_MAX_BUCKETS)) {
		fprintf(stderr, "ucval analyze: --groups with --model mainline expects %d to %d "
			"buckets, got %u\n", MODEL_ML_MIN_BUCKETS, MODEL_ML_MAX_BUCKETS, r->groups);
		return -1;
	}
	snprintf(o->options, sizeof(o->options),
		 "model=%s fidelity=%s groups=%u kernel=%s grace_us=%u checks=%s platform=%s",
		 r->model == AN_MODEL_V3 ? "v3" : r->model == AN_MODEL_MAINLINE ? "mainline" : "auto",
		 r->fidelity == MODEL_SEED ? "seed" : "intent", r->groups,
		 r->kernel ? r->kernel : "auto", r->grace_us,
		 o->checks_text ? o->checks_text : "all",
		 r->platform_path ? r->platform_path : "none");
	if (r->early_us) {	/* only when given: older databases compare equal */
		size_t n = strlen(o->options);

		snprintf(o->options + n, sizeof(o->options) - n, " early_us=%u", r->early_us);
	}
	return 0;
}

/* What one trace gave: the inputs of its database rows, table and JSON. */
struct trace_run {
	const char *path;
	char sha256[AN_SHA256_HEX_LEN + 1];
	struct an_results res;
	struct an_summary sum;
	struct an_winbuf wins;
	struct an_series series;	/* recorded only for --db */
	char model[24];
	int status;		/* this trace's exit status */
	bool is_streamed;	/* its transaction is open, its series written */
};

static int trace_status(const struct trace_run *t, bool is_strict)
{
	bool is_hiding = false;

	for (int i = 0; i < AN_CHECK__COUNT; i++) {
		const struct an_check_stats *s = &t->res.stats[i];

		if (an_check_verdict(s) == AN_FAIL)
			return UCVAL_EXIT_FAIL;
		if (s->is_hiding)
			is_hiding = true;
	}
	if (is_hiding)
		return is_strict ? UCVAL_EXIT_FAIL : UCVAL_EXIT_UNDECIDED;
	return UCVAL_EXIT_OK;
}

/* Worst of two statuses: unreadable input, then failure, then doubt. */
static int worse(int a, int b)
{
	static const int rank[] = {
		[UCVAL_EXIT_OK] = 0, [UCVAL_EXIT_UNDECIDED] = 1, [UCVAL_EXIT_FAIL] = 2,
		[UCVAL_EXIT_USAGE] = 3,
	};

	return rank[a] >= rank[b] ? a : b;
}

static void now_iso8601(char *buf, size_t len)
{
	const char *fixed = getenv("UCVAL_NOW");	/* tests pin the clock */
	time_t t = time(NULL);
	struct tm tm;

	if (fixed && *fixed) {
		snprintf(buf, len, "%s", fixed);
		return;
	}
	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* Store one trace: rows appear all at once or not at all. */
struct db_ctx {
	struct an_db *db;
	struct an_diag *d;
};

static int db_window(void *ctx, const struct an_window *w)
{
	struct db_ctx *c = ctx;
	struct an_db_window row = {
		.check_id = an_check_name(w->check), .cpu = w->cpu, .pid = w->pid,
		.ts_start_ns = (int64_t)w->ts_start_ns, .ts_end_ns = (int64_t)w->ts_end_ns,
		.expected = w->expected, .observed = w->observed,
		.expected_text = w->expected_text[0] ? w->expected_text : NULL,
		.observed_text = w->observed_text[0] ? w->observed_text : NULL,
		.rule = w->rule ? w->rule : "", .message = w->message,
		.explain = w->explain,
	};

	if (w->is_fail)
		return an_db_mismatch_add(c->db, &row, c->d);
	return an_db_undecided_add(c->db, &row, c->d);
}

static int store_trace(struct an_db *db, const struct cmd_opts *o, struct trace_run *t,
		       struct an_diag *d)
{
	char when[32];
	struct an_db_trace row = {
		.path = t->path, .format = t->sum.format, .sha256 = t->sha256,
		.n_events = t->sum.n_events, .t_start_ns = (int64_t)t->sum.t_start_ns,
		.t_end_ns = (int64_t)t->sum.t_end_ns, .model = t->model, .options = o->options,
		.kernel = t->sum.kernel[0] ? t->sum.kernel : NULL, .analyzed_at = when,
	};
	struct db_ctx ctx = { db, d };
	int64_t id;
	int err;

	now_iso8601(when, sizeof(when));
	err = t->is_streamed ? 0 : an_db_trace_begin(db, &row, &id, d);
	if (err)
		return err;
	for (int i = 0; i < AN_CHECK__COUNT && !err; i++) {
		const struct an_check_stats *s = &t->res.stats[i];
		struct an_db_verdict v = {
			.check_id = an_check_name(i),
			.verdict = an_verdict_name(an_check_verdict(s)),
			.n_checked = s->n_checked, .n_failed = s->n_failed,
			.n_undecided = s->n_undecided, .reason = s->reason,
		};

		err = an_db_verdict_add(db, &v, d);
	}
	if (!err)
		err = an_winbuf_for_each(&t->wins, db_window, &ctx);
	if (!err)
		err = an_db_series_add(db, &t->series, d);
	if (!err && t->is_streamed)
		err = an_db_trace_set(db, &row, d);
	if (err) {
		an_db_trace_abort(db);
		return err;
	}
	return an_db_trace_commit(db, d);
}

static void print_ts(FILE *out, uint64_t ns)
{
	fprintf(out, "%llu.%06llu", (unsigned long long)(ns / 1000000000ULL),
		(unsigned long long)(ns % 1000000000ULL / 1000ULL));
}

static void print_value(FILE *out, long long v, const char *text)
{
	if (text[0])
		fputs(text, out);
	else
		fprintf(out, "%lld", v);
}

struct show_ctx {
	FILE *out;
	unsigned int shown[AN_CHECK__COUNT];
};

static int show_window(void *ctx, const struct an_window *w)
{
	struct show_ctx *c = ctx;

	if (!w->is_fail || c->shown[w->check]++ >= SHOW_WINDOWS)
		return 0;
	fprintf(c->out, "  FAIL %s", an_check_name(w->check));
	if (w->cpu >= 0)
		fprintf(c->out, " cpu %d", w->cpu);
	if (w->pid >= 0)
		fprintf(c->out, " pid %d", w->pid);
	fputs(" at ", c->out);
	print_ts(c->out, w->ts_start_ns);
	fputs("..", c->out);
	print_ts(c->out, w->ts_end_ns);
	fputs(": expected ", c->out);
	print_value(c->out, w->expected, w->expected_text);
	fputs(", observed ", c->out);
	print_value(c->out, w->observed, w->observed_text);
	fprintf(c->out, " (%s)", w->rule ? w->rule : "");
	if (w->message[0])
		fprintf(c->out, ": %s", w->message);
	fputc('\n', c->out);
	return 0;
}

static void print_table(FILE *out, struct trace_run *t)
{
	const struct an_summary *s = &t->sum;
	struct show_ctx sc = { .out = out };

	fprintf(out, "%s: %s, %llu events", t->path, s->format, (unsigned long long)s->n_events);
	if (s->has_events) {
		fputs(", ", out);
		print_ts(out, s->t_end_ns - s->t_start_ns);
		fputs(" s", out);
	}
	fprintf(out, ", model %s (%s), %u CPUs known of %u\n", t->model,
		s->model_source ? s->model_source : "default", s->nr_cpus_known, s->nr_cpus_model);
	fprintf(out, "  %-22s %-9s %9s %7s %9s\n", "check", "verdict", "checked", "failed",
		"undecided");
	for (int i = 0; i < AN_CHECK__COUNT; i++) {
		const struct an_check_stats *c = &t->res.stats[i];

		fprintf(out, "  %-22s %-9s %9llu %7llu %9llu", an_check_name(i),
			an_verdict_name(an_check_verdict(c)), (unsigned long long)c->n_checked,
			(unsigned long long)c->n_failed, (unsigned long long)c->n_undecided);
		if (c->reason && an_check_verdict(c) == AN_UNDECIDED)
			fprintf(out, "  %s", c->reason);
		fputc('\n', out);
	}
	an_winbuf_for_each(&t->wins, show_window, &sc);
	for (int i = 0; i < AN_CHECK__COUNT; i++)
		if (sc.shown[i] > SHOW_WINDOWS)
			fprintf(out, "  (%s: %u more FAIL windows)\n", an_check_name(i),
				sc.shown[i] - SHOW_WINDOWS);
	if (s->n_errors)
		fprintf(out, "  skipped %llu undecodable lines or records; first: %s\n",
			(unsigned long long)s->n_errors, s->first_error);
	for (unsigned int i = 0; i < s->nr_notes; i++)
		fprintf(out, "  note: %s\n", s->notes[i]);
}

/*
 * A trace's object is written apart (a worker may be another process) as a
 * part of the document write_json() writes: an element of its "traces"
 * array. It is one line but for its arrays, each starting a line one column
 * past the object's brace, and their elements one column further.
 */
#define JSON_TRACE_DEPTH	2	/* the top object, its "traces" array */
#define JSON_ARRAY_COL		5
#define JSON_ITEM_COL		6

/* An expected or observed value: its text when it has one, else the number. */
static void json_value(struct rep_json *j, const char *key, long long v, const char *text)
{
	if (text[0])
		rep_json_str(j, key, text);
	else
		rep_json_int(j, key, v);
}

static int json_window(void *ctx, const struct an_window *w)
{
	struct rep_json *j = ctx;

	rep_json_break(j, JSON_ITEM_COL);
	rep_json_obj(j, NULL, true);
	rep_json_str(j, "check_id", an_check_name(w->check));
	rep_json_str(j, "verdict", w->is_fail ? "FAIL" : "UNDECIDED");
	if (w->cpu >= 0)
		rep_json_int(j, "cpu", w->cpu);
	else
		rep_json_null(j, "cpu");
	if (w->pid >= 0)
		rep_json_int(j, "pid", w->pid);
	else
		rep_json_null(j, "pid");
	rep_json_uint(j, "ts_start_ns", w->ts_start_ns);
	rep_json_uint(j, "ts_end_ns", w->ts_end_ns);
	json_value(j, "expected", w->expected, w->expected_text);
	json_value(j, "observed", w->observed, w->observed_text);
	rep_json_str(j, "rule", w->rule);
	rep_json_str(j, "message", w->message);
	rep_json_end(j);
	return 0;
}

static void json_verdicts(struct rep_json *j, const struct trace_run *t)
{
	rep_json_break(j, JSON_ARRAY_COL);
	rep_json_arr(j, "verdicts", true);
	for (int i = 0; i < AN_CHECK__COUNT; i++) {
		const struct an_check_stats *s = &t->res.stats[i];

		rep_json_break(j, JSON_ITEM_COL);
		rep_json_obj(j, NULL, true);
		rep_json_str(j, "check_id", an_check_name(i));
		rep_json_str(j, "verdict", an_verdict_name(an_check_verdict(s)));
		rep_json_uint(j, "n_checked", s->n_checked);
		rep_json_uint(j, "n_failed", s->n_failed);
		rep_json_uint(j, "n_undecided", s->n_undecided);
		rep_json_str(j, "reason", s->reason);
		rep_json_end(j);
	}
	rep_json_end(j);
}

/* One trace as a JSON object (an element of the top-level "traces" array). */
static void json_trace(FILE *out, struct trace_run *t, const struct an_diag *err_diag)
{
	struct rep_json j;

	rep_json_init_part(&j, out, JSON_TRACE_DEPTH);
	rep_json_obj(&j, NULL, true);
	rep_json_str(&j, "path", t->path);
	rep_json_int(&j, "status", t->status);
	if (err_diag) {
		char line[1024];

		an_diag_format(err_diag, line, sizeof(line));
		rep_json_str(&j, "error", line);
		rep_json_end(&j);
		return;
	}
	rep_json_str(&j, "sha256", t->sha256);
	rep_json_str(&j, "format", t->sum.format);
	rep_json_uint(&j, "n_events", t->sum.n_events);
	rep_json_uint(&j, "t_start_ns", t->sum.t_start_ns);
	rep_json_uint(&j, "t_end_ns", t->sum.t_end_ns);
	rep_json_str(&j, "model", t->model);
	rep_json_str(&j, "kernel", t->sum.kernel[0] ? t->sum.kernel : NULL);
	json_verdicts(&j, t);
	rep_json_break(&j, JSON_ARRAY_COL);
	rep_json_arr(&j, "windows", true);
	an_winbuf_for_each(&t->wins, json_window, &j);
	rep_json_end(&j);
	rep_json_break(&j, JSON_ARRAY_COL);
	rep_json_arr(&j, "notes", true);
	for (unsigned int i = 0; i < t->sum.nr_notes; i++)
		rep_json_str(&j, NULL, t->sum.notes[i]);
	rep_json_end(&j);
	rep_json_end(&j);
}

static void progress(void *ctx, uint64_t n)
{
	fprintf(stderr, "\r%s: %llu events", (const char *)ctx, (unsigned long long)n);
}

/*
 * Analyze one trace: hash, replay, store, print. The table and the JSON
 * object are written to @out / @json in one piece each.
 */
/* The file's sha256, computed beside the analysis (hash_thread()). */
struct hash_job {
	const char *path;
	char *hex;
	struct an_diag d;
	int err;
};

static void *hash_thread(void *arg)
{
	struct hash_job *h = arg;

	h->err = an_sha256_file(h->path, h->hex, &h->d);
	return NULL;
}

/*
 * Analyze @path into @t while another thread hashes it: the hash reads the
 * file once more (from the page cache) and need not wait for the replay. A
 * hashing error wins: it is the plainer message (the file cannot be read).
 */
static int analyze_and_hash(const char *path, struct an_analyze_opts *an, struct trace_run *t,
			    struct an_diag *d)
{
	struct hash_job h = { .path = path, .hex = t->sha256 };
	pthread_t tid;
	bool is_threaded;
	int err;

	an_diag_clear(&h.d);
	is_threaded = !pthread_create(&tid, NULL, hash_thread, &h);
	if (!is_threaded)
		hash_thread(&h);
	err = an_analyze_path(path, an, &t->res, &t->sum, d);
	if (is_threaded)
		pthread_join(tid, NULL);
	if (h.err) {
		*d = h.d;
		return h.err;
	}
	return err;
}

/*
 * One trace of a worker, from its analysis to its output: @t with what the
 * analysis gave (or @err and @d when it failed), and where its table and
 * JSON object go. Table lines gather in @buf and reach standard output whole.
 * Allocated: @out writes @buf and @len back until it is closed, wherever the
 * job has gone meanwhile.
 */
struct job {
	struct trace_run *t;
	int err;
	struct an_diag d;
	FILE *out;		/* memory stream on @buf; NULL with --quiet */
	char *buf;
	size_t len;
	FILE *json;		/* this trace's JSON object; NULL without --json */
};

/*
 * Streaming (--db with one trace, the database free when it starts): the
 * trace's transaction opens before the analysis (an_db_trace_open()), and a
 * thread inserts the intervals and requests the replay records while the
 * replay still runs, instead of all of them after it. They pass in chunks;
 * the replay waits when STREAM_CHUNKS are in flight, so memory stays
 * bounded whatever the writer's pace. The verdicts, windows and the trace's
 * row follow in store_trace(), in the same transaction: a failed analysis
 * or a kill still leaves nothing. Another writer of the same database waits
 * (busy timeout) for the whole analysis instead of the write alone.
 */
#define STREAM_CHUNK	4096	/* records a chunk */
#define STREAM_CHUNKS	8	/* chunks in flight */

struct stream_chunk {
	struct an_series_rec rec[STREAM_CHUNK];
	size_t len;
};

struct stream {
	struct an_db *db;
	struct stream_chunk *chunk[STREAM_CHUNKS];
	pthread_mutex_t lock;
	pthread_cond_t cond;
	pthread_t tid;
	uint64_t published;	/* chunks handed to the thread, ever */
	uint64_t consumed;	/* chunks it has written, ever */
	bool is_done;		/* no chunk will follow */
	int err;		/* the thread's first failure, with @d */
	struct an_diag d;
};

static void *stream_thread(void *arg)
{
	struct stream *s = arg;

	for (;;) {
		struct stream_chunk *c;

		pthread_mutex_lock(&s->lock);
		while (s->consumed == s->published && !s->is_done)
			pthread_cond_wait(&s->cond, &s->lock);
		if (s->consumed == s->published) {
			pthread_mutex_unlock(&s->lock);
			return NULL;
		}
		c = s->chunk[s->consumed % STREAM_CHUNKS];
		pthread_mutex_unlock(&s->lock);
		/* after a failure, chunks are only taken: the replay must not wait */
		for (size_t i = 0; i < c->len && !s->err; i++)
			s->err = an_db_series_put(s->db, &c->rec[i], &s->d);
		pthread_mutex_lock(&s->lock);
		s->consumed++;
		pthread_cond_broadcast(&s->cond);
		pthread_mutex_unlock(&s->lock);
	}
}

/* Hand the chunk being filled to the thread; wait until the next one is free. */
static void stream_publish(struct stream *s)
{
	pthread_mutex_lock(&s->lock);
	s->published++;
	pthread_cond_broadcast(&s->cond);
	while (s->published - s->consumed >= STREAM_CHUNKS)
		pthread_cond_wait(&s->cond, &s->lock);
	pthread_mutex_unlock(&s->lock);
	s->chunk[s->published % STREAM_CHUNKS]->len = 0;
}

/* an_series.sink: runs on the replay's thread. */
static int stream_sink(void *ctx, const struct an_series_rec *rec)
{
	struct stream *s = ctx;
	struct stream_chunk *c = s->chunk[s->published % STREAM_CHUNKS];

	c->rec[c->len++] = *rec;
	if (c->len == STREAM_CHUNK)
		stream_publish(s);
	return 0;
}

static void stream_free(struct stream *s)
{
	for (int i = 0; i < STREAM_CHUNKS; i++)
		free(s->chunk[i]);
	free(s);
}

/*
 * Open @path's transaction in *@db (opened here when needed) and start the
 * thread. NULL when the trace is written afterwards instead: the database
 * is busy or cannot be opened (finish_trace() then says why), or no memory
 * or thread is to be had.
 */
static struct stream *stream_start(struct cmd_opts *o, const char *path, struct an_db **db)
{
	struct stream *s = calloc(1, sizeof(*s));
	struct an_diag d;
	int64_t id;

	an_diag_clear(&d);
	if (!s)
		return NULL;
	for (int i = 0; i < STREAM_CHUNKS; i++) {
		s->chunk[i] = malloc(sizeof(*s->chunk[i]));
		if (!s->chunk[i])
			goto out_free;
		s->chunk[i]->len = 0;
	}
	if (!*db && an_db_open(db, o->db_path, &d))
		goto out_free;
	if (an_db_trace_open(*db, path, o->options, &id, &d))
		goto out_free;
	s->db = *db;
	an_diag_clear(&s->d);
	pthread_mutex_init(&s->lock, NULL);
	pthread_cond_init(&s->cond, NULL);
	if (pthread_create(&s->tid, NULL, stream_thread, s)) {
		pthread_cond_destroy(&s->cond);
		pthread_mutex_destroy(&s->lock);
		an_db_trace_abort(*db);
		goto out_free;
	}
	return s;
out_free:
	stream_free(s);
	return NULL;
}

/*
 * The replay is over: hand the last chunk, wait for the thread, free @s.
 * Return: 0, or the thread's failure with @d filled.
 */
static int stream_stop(struct stream *s, struct an_diag *d)
{
	int err;

	pthread_mutex_lock(&s->lock);
	if (s->chunk[s->published % STREAM_CHUNKS]->len)
		s->published++;
	s->is_done = true;
	pthread_cond_broadcast(&s->cond);
	pthread_mutex_unlock(&s->lock);
	pthread_join(s->tid, NULL);
	pthread_cond_destroy(&s->cond);
	pthread_mutex_destroy(&s->lock);
	err = s->err;
	if (err)
		*d = s->d;
	stream_free(s);
	return err;
}

/* What an_analyze_opts.on_open needs to start a stream. */
struct stream_start_ctx {
	struct cmd_opts *o;
	const char *path;
	struct an_db **db;
	struct trace_run *t;
	struct stream *s;
};

/*
 * The trace opened: start its stream. Not before, so that an unreadable
 * trace does not even create the database file.
 */
static void stream_on_open(void *ctx)
{
	struct stream_start_ctx *c = ctx;

	c->s = stream_start(c->o, c->path, c->db);
	if (c->s) {
		c->t->series.sink = stream_sink;
		c->t->series.sink_ctx = c->s;
	}
}

/*
 * Analyze one trace into @j (j->t NULL: out of memory, j->err set). With
 * @db (--db, the worker's only trace), its rows stream in as it is read
 * when the database is free (struct stream).
 */
static void analyze_trace(struct cmd_opts *o, const char *path, struct job *j,
			  struct an_db **db)
{
	struct trace_run *t = calloc(1, sizeof(*t));
	struct an_analyze_opts an = o->an;
	struct stream_start_ctx sc = { o, path, db, t, NULL };
	struct an_diag sd;
	int err;

	an_diag_clear(&j->d);
	j->t = t;
	if (!t) {
		j->err = an_diag_fail(&j->d, -ENOMEM, "'%s': out of memory", path);
		return;
	}
	t->path = path;
	an_winbuf_init(&t->wins);
	an_results_init(&t->res, an_winbuf_sink, &t->wins);
	an_series_init(&t->series);
	if (o->db_path)
		t->res.series = &t->series;
	if (db) {
		an.on_open = stream_on_open;
		an.on_open_ctx = &sc;
	}
	/* tests: UCVAL_FEED=thread or none instead of the timed choice */
	if (getenv("UCVAL_FEED"))
		an.feed = !strcmp(getenv("UCVAL_FEED"), "thread") ? AN_FEED_THREAD :
			  !strcmp(getenv("UCVAL_FEED"), "none") ? AN_FEED_NONE : AN_FEED_AUTO;
	if (isatty(STDERR_FILENO)) {
		an.progress = progress;
		an.progress_ctx = (void *)path;
		an.progress_every = PROGRESS_EVERY;
	}
	j->err = analyze_and_hash(path, &an, t, &j->d);
	if (an.progress && t->sum.n_events >= PROGRESS_EVERY)
		fputc('\n', stderr);
	if (sc.s) {
		err = stream_stop(sc.s, &sd);
		if (!j->err && err) {
			j->err = err;
			j->d = sd;
		}
		t->series.sink = NULL;
		t->is_streamed = !j->err;
		if (j->err)
			an_db_trace_abort(*db);
	}
	if (j->err)
		return;
	snprintf(t->model, sizeof(t->model), "%s%s", t->sum.model ? t->sum.model : "?",
		 t->sum.model && !strcmp(t->sum.model, "v3") ?
		 (o->an.replay.fidelity == MODEL_SEED ? "/seed" : "/intent") : "");
	t->status = trace_status(t, o->is_strict);
}

/*
 * Store an analyzed trace (--db), print its table and JSON, flush them and
 * free the job. Return: its exit status; 2 when its analysis or its store
 * failed.
 */
static int finish_trace(struct cmd_opts *o, struct an_db **db, struct job *j)
{
	struct trace_run *t = j->t;
	char line[1024];
	int err = j->err, status;

	if (!err && o->db_path) {
		if (!*db)
			err = an_db_open(db, o->db_path, &j->d);
		if (!err)
			err = store_trace(*db, o, t, &j->d);
	}
	if (err) {
		an_diag_format(&j->d, line, sizeof(line));
		fprintf(stderr, "ucval analyze: %s\n", line);
		status = UCVAL_EXIT_USAGE;
		if (t)
			t->status = status;
		if (j->json && t)
			json_trace(j->json, t, &j->d);
	} else {
		status = t->status;
		if (j->out)
			print_table(j->out, t);
		if (j->json)
			json_trace(j->json, t, NULL);
	}
	if (j->json)
		fclose(j->json);
	if (j->out) {
		fclose(j->out);
		fwrite(j->buf, 1, j->len, stdout);
		fflush(stdout);
		free(j->buf);
	}
	if (t) {
		an_winbuf_release(&t->wins);
		an_series_release(&t->series);
		free(t);
	}
	free(j);
	return status;
}

/*
 * A worker's database side (--db with more than one trace): a thread that
 * runs finish_trace() on trace i while the worker analyzes trace i + 1. The
 * write then overlaps the next reading instead of following it, and a
 * worker whose write waits for another -j worker's transaction goes on
 * analyzing meanwhile. At most one trace waits: submit() blocks until the
 * thread has taken the one before.
 */
struct writer {
	struct cmd_opts *o;
	struct an_db *db;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	pthread_t tid;
	struct job *job;	/* waits for the thread; NULL: none */
	bool is_done;		/* no more jobs */
	int status;		/* worst so far */
};

static void *writer_thread(void *arg)
{
	struct writer *w = arg;
	struct job *j;
	int status;

	for (;;) {
		pthread_mutex_lock(&w->lock);
		while (!w->job && !w->is_done)
			pthread_cond_wait(&w->cond, &w->lock);
		j = w->job;
		if (!j) {
			pthread_mutex_unlock(&w->lock);
			return NULL;
		}
		w->job = NULL;
		pthread_cond_broadcast(&w->cond);
		pthread_mutex_unlock(&w->lock);
		status = finish_trace(w->o, &w->db, j);

		pthread_mutex_lock(&w->lock);
		w->status = worse(w->status, status);
		pthread_mutex_unlock(&w->lock);
	}
}

static void writer_submit(struct writer *w, struct job *j)
{
	pthread_mutex_lock(&w->lock);
	while (w->job)
		pthread_cond_wait(&w->cond, &w->lock);
	w->job = j;
	pthread_cond_broadcast(&w->cond);
	pthread_mutex_unlock(&w->lock);
}

/* Wait for the thread to finish every job; return the worst status. */
static int writer_stop(struct writer *w)
{
	pthread_mutex_lock(&w->lock);
	w->is_done = true;
	pthread_cond_broadcast(&w->cond);
	pthread_mutex_unlock(&w->lock);
	pthread_join(w->tid, NULL);
	pthread_cond_destroy(&w->cond);
	pthread_mutex_destroy(&w->lock);
	an_db_close(w->db);
	return w->status;
}

/*
 * One worker: traces @first, @first + @step, ... Its table output and JSON
 * objects go to per-trace buffers flushed whole, so parallel workers never
 * interleave lines. JSON objects land in @json_dir/<index>.
 */
static int run_worker(struct cmd_opts *o, int first, int step, const char *json_dir)
{
	struct writer w = { .o = o, .status = UCVAL_EXIT_OK };
	bool has_writer = false;
	struct an_db *db = NULL;
	int status = UCVAL_EXIT_OK;

	if (o->db_path && first + step < o->nr_traces) {
		pthread_mutex_init(&w.lock, NULL);
		pthread_cond_init(&w.cond, NULL);
		has_writer = !pthread_create(&w.tid, NULL, writer_thread, &w);
		if (!has_writer) {
			pthread_cond_destroy(&w.cond);
			pthread_mutex_destroy(&w.lock);
		}
	}
	for (int i = first; i < o->nr_traces; i += step) {
		struct job *j = calloc(1, sizeof(*j));
		char path[4096];

		if (!j) {
			fprintf(stderr, "ucval analyze: '%s': out of memory\n", o->traces[i]);
			status = UCVAL_EXIT_USAGE;
			continue;
		}
		if (!o->is_quiet)
			j->out = open_memstream(&j->buf, &j->len);
		if (json_dir) {
			snprintf(path, sizeof(path), "%s/%08d", json_dir, i);
			j->json = fopen(path, "w");
			if (!j->json) {
				fprintf(stderr, "ucval analyze: cannot write '%s': %s\n", path,
					strerror(errno));
				status = UCVAL_EXIT_USAGE;
			}
		}
		/* one trace: nothing to overlap its write with but its own reading */
		analyze_trace(o, o->traces[i], j,
			      o->db_path && first + step >= o->nr_traces ? &db : NULL);
		if (has_writer)
			writer_submit(&w, j);
		else
			status = worse(status, finish_trace(o, &db, j));
	}
	if (has_writer)
		status = worse(status, writer_stop(&w));
	an_db_close(db);
	return status;
}

static int write_json(const struct cmd_opts *o, const char *dir)
{
	FILE *out = strcmp(o->json_path, "-") ? fopen(o->json_path, "w") : stdout;
	char path[4096], buf[8192];
	struct rep_json j;
	size_t n;

	if (!out) {
		fprintf(stderr, "ucval analyze: cannot write '%s': %s\n", o->json_path,
			strerror(errno));
		return -1;
	}
	rep_json_init(&j, out);
	rep_json_obj(&j, NULL, false);
	rep_json_str(&j, "ucval_version", UCVAL_VERSION);
	rep_json_str(&j, "options", o->options);
	rep_json_arr(&j, "traces", false);
	for (int i = 0; i < o->nr_traces; i++) {
		FILE *part;

		snprintf(path, sizeof(path), "%s/%08d", dir, i);
		part = fopen(path, "r");
		rep_json_raw(&j, NULL);
		if (part) {
			while ((n = fread(buf, 1, sizeof(buf), part)) > 0)
				fwrite(buf, 1, n, out);
			fclose(part);
		}
		unlink(path);
	}
	rep_json_end(&j);
	rep_json_end(&j);
	if (out != stdout && fclose(out)) {
		fprintf(stderr, "ucval analyze: cannot write '%s'\n", o->json_path);
		return -1;
	}
	return 0;
}

/* Run @o->jobs workers (forked when more than one) and combine their status. */
static int run_all(struct cmd_opts *o, const char *json_dir)
{
	int nr = (int)o->jobs < o->nr_traces ? (int)o->jobs : o->nr_traces;
	int status = UCVAL_EXIT_OK, wst;
	pid_t pids[MAX_JOBS];

	if (nr <= 1)
		return run_worker(o, 0, 1, json_dir);
	fflush(NULL);
	for (int k = 0; k < nr; k++) {
		pids[k] = fork();
		if (pids[k] < 0) {
			fprintf(stderr, "ucval analyze: cannot start worker: %s\n", strerror(errno));
			nr = k;
			status = UCVAL_EXIT_USAGE;
			break;
		}
		if (pids[k] == 0)
			_exit(run_worker(o, k, nr, json_dir));
	}
	for (int k = 0; k < nr; k++) {
		if (waitpid(pids[k], &wst, 0) < 0 || !WIFEXITED(wst) || WEXITSTATUS(wst) > 3) {
			fprintf(stderr, "ucval analyze: worker %d did not finish\n", k);
			status = UCVAL_EXIT_USAGE;
			continue;
		}
		status = worse(status, WEXITSTATUS(wst));
	}
	return status;
}

/**
 * cmd_analyze() - `ucval analyze`
 * @argc: arguments from "analyze" on
 * @argv: the arguments
 *
 * Return: the exit status of events.md §4 (0, 1, 2, 3), the worst over the
 * traces: an unreadable trace (2) before a failure (1) before doubt (3).
 */
int cmd_analyze(int argc, char **argv)
{
	struct cmd_opts o;
	char json_dir[] = "/tmp/ucval-json-XXXXXX";
	int status, err;

	memset(&o, 0, sizeof(o));
	err = parse_opts(argc, argv, &o);
	if (err)
		return err > 0 ? UCVAL_EXIT_OK : UCVAL_EXIT_USAGE;
	an_reader_set_quiet(true);
	if (o.db_path)
		an_db_setup_process();	/* one thread so far */
	/* UCVAL_DAT=library or kbuffer: another trace.dat reader (README "Speed") */
	if (getenv("UCVAL_DAT"))
		an_reader_set_dat_reader(!strcmp(getenv("UCVAL_DAT"), "library") ? AN_DAT_LIBTRACECMD :
					 !strcmp(getenv("UCVAL_DAT"), "kbuffer") ? AN_DAT_KBUFFER :
					 AN_DAT_PAGES);
	if (o.json_path && !mkdtemp(json_dir)) {
		fprintf(stderr, "ucval analyze: cannot create a temporary directory: %s\n",
			strerror(errno));
		return UCVAL_EXIT_USAGE;
	}
	status = run_all(&o, o.json_path ? json_dir : NULL);
	if (o.json_path) {
		if (write_json(&o, json_dir))
			status = UCVAL_EXIT_USAGE;
		rmdir(json_dir);
	}
	return status;
}
