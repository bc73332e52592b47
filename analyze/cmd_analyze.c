// SPDX-License-Identifier: MIT
/*
 * `ucval analyze`: replay traces against the model, print a verdict table per
 * trace, and store traces, verdicts and windows in SQLite (events.md §4, §5).
 * This file parses the options and sets the process up; analyze/run.h runs
 * the workers, analyze/jsonout.h puts the --json document together.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/jsonout.h"
#include "analyze/read/reader.h"
#include "analyze/run.h"
#include "analyze/store/db.h"
#include "lib/modelopt.h"
#include "lib/outfile.h"
#include "lib/optnum.h"
#include "lib/utf8.h"
#include "ucval.h"

static const char analyze_usage[] =
	"usage: ucval analyze [options] TRACE...\n"
	"\n"
	"Replay each TRACE (trace.dat v6 or v7, plain or compressed; ftrace text,\n"
	"systrace HTML or a Perfetto trace; detected from the content) against the\n"
	"reference model and report, per check, whether the kernel agreed with it:\n"
	"PASS, FAIL or UNDECIDED, with every window of disagreement.\n"
	"\n"
	"  --db FILE        also store traces, verdicts and windows in this SQLite\n"
	"                   database (created if needed; one transaction per trace;\n"
	"                   re-analyzing a trace with the same options replaces it),\n"
	"                   with explanations, tasks, CPUs, policies, clamp and\n"
	"                   frequency intervals (in chunks of 256, read through\n"
	"                   views), residency and requests (schema 3,\n"
	"                   docs/database.md; an older file is upgraded)\n"
	"  --json FILE      write the results as JSON ('-': standard output); a\n"
	"                   regular FILE is replaced once the document is whole\n"
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
	"  --tag KEY=VALUE  label every TRACE in the database (repeatable; KEY is\n"
	"                   [a-z0-9_]+, VALUE non-empty text); the trace's kernel\n"
	"                   release is label `kernel` unless given; not part of a\n"
	"                   trace's identity: a re-analysis replaces the labels\n"
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
	"the buffer had been read before the file was saved (docs/analyze.md)\n"
	"exit status: 0 every check PASS or UNDECIDED for lack of input, 1 a check\n"
	"failed, 2 bad usage, an unreadable trace or an output (table, JSON,\n"
	"database) that cannot be written, 3 undecided windows may hide a failure\n"
	"(1 with --strict)\n"
	"environment: UCVAL_DAT=library reads trace.dat with libtracecmd's own\n"
	"records (the reference, slower), UCVAL_DAT=kbuffer with libtraceevent's\n"
	"page parser for every page; the results are the same\n"
	"(docs/performance.md)\n";

/* Room for the canonical option string that identifies an analysis. */
#define OPTIONS_LEN	512
/* Most --tag options one run takes. */
#define MAX_TAGS	32

enum {
	OPT_DB = 256, OPT_JSON, OPT_GRACE, OPT_EARLY, OPT_CHECKS, OPT_PLATFORM, OPT_STRICT,
	OPT_TAG,
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
	{ "tag", required_argument, NULL, OPT_TAG },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* The run's options, and what parsing needs beside them. */
struct cmd_opts {
	struct an_run_opts run;
	const char *json_path;
	const char *checks_text;
	char options[OPTIONS_LEN];	/* canonical text: the analysis' identity */
	struct an_db_label tags[MAX_TAGS];	/* into argv's strings */
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

static bool is_tag_key(const char *s, size_t len)
{
	if (!len)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
			return false;
	return true;
}

/* A label's value: non-empty UTF-8 without control characters. */
static bool is_tag_value(const char *s)
{
	if (!*s)
		return false;
	while (*s) {
		uint32_t cp;
		size_t n = an_utf8_decode(s, &cp);

		if (!n || an_utf8_is_control(cp))
			return false;
		s += n;
	}
	return true;
}

/* --tag KEY=VALUE: split in place (argv is ours) and added to @o's labels. */
static int parse_tag(struct cmd_opts *o, char *arg)
{
	char *eq = strchr(arg, '=');

	if (!eq || !is_tag_key(arg, (size_t)(eq - arg)) || !is_tag_value(eq + 1)) {
		fputs("ucval analyze: --tag expects KEY=VALUE, KEY of a-z, 0-9 and _, VALUE "
		      "non-empty UTF-8 text without control characters, got '", stderr);
		an_utf8_fputs(stderr, arg, 0);
		fputs("'\n", stderr);
		return -1;
	}
	*eq = '\0';
	for (size_t i = 0; i < o->run.nr_labels; i++) {
		if (!strcmp(o->tags[i].key, arg)) {
			fprintf(stderr, "ucval analyze: --tag %s given twice\n", arg);
			return -1;
		}
	}
	if (o->run.nr_labels >= MAX_TAGS) {
		fprintf(stderr, "ucval analyze: at most %d --tag options\n", MAX_TAGS);
		return -1;
	}
	o->tags[o->run.nr_labels].key = arg;
	o->tags[o->run.nr_labels++].value = eq + 1;
	return 0;
}

/* An output (--json, --db) naming one of the inputs: refused before anything is read. */
static bool output_is_input(const struct cmd_opts *o)
{
	const char *const outs[] = { o->json_path, o->run.db_path };
	const char *const names[] = { "--json", "--db" };

	for (size_t i = 0; i < sizeof(outs) / sizeof(outs[0]); i++) {
		for (int t = 0; outs[i] && t < o->run.nr_traces; t++) {
			if (!rep_outfile_is_same(outs[i], o->run.traces[t]))
				continue;
			fprintf(stderr, "ucval analyze: %s ", names[i]);
			an_utf8_fputs(stderr, outs[i], 0);
			fputs(" is also a TRACE given; it would be overwritten\n", stderr);
			return true;
		}
	}
	return false;
}

static int parse_opts(int argc, char **argv, struct cmd_opts *o)
{
	struct an_replay_opts *r = &o->run.an.replay;
	struct an_modelopt mo = { 0 };
	unsigned long long v;
	int c;

	o->run.jobs = 1;
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
			o->run.db_path = optarg;
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
			o->run.is_strict = true;
			break;
		case OPT_TAG:
			if (parse_tag(o, optarg))
				return -1;
			break;
		case 'j':
			if (an_optnum_parse("analyze", "-j", optarg, 1, AN_RUN_MAX_JOBS, &v))
				return -1;
			o->run.jobs = (unsigned long)v;
			break;
		case 'q':
			o->run.is_quiet = true;
			break;
		case 'h':
			fputs(analyze_usage, stdout);
			return 1;
		default:
			fputs("ucval analyze: unknown option '", stderr);
			an_utf8_fputs(stderr, argv[optind - 1], 0);
			fprintf(stderr, "'\n\n%s", analyze_usage);
			return -1;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "ucval analyze: no TRACE given\n\n%s", analyze_usage);
		return -1;
	}
	o->run.traces = argv + optind;
	o->run.nr_traces = argc - optind;
	if (output_is_input(o))
		return -1;
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
	o->run.options = o->options;
	o->run.labels = o->tags;
	return 0;
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
	char json_dir[AN_JSONOUT_DIR_LEN];
	int status, err;

	memset(&o, 0, sizeof(o));
	err = parse_opts(argc, argv, &o);
	if (err)
		return err > 0 ? UCVAL_EXIT_OK : UCVAL_EXIT_USAGE;
	an_reader_set_quiet(true);
	if (o.run.db_path)
		an_db_setup_process();	/* one thread so far */
	/* UCVAL_DAT=library or kbuffer: another trace.dat reader (docs/performance.md) */
	if (getenv("UCVAL_DAT"))
		an_reader_set_dat_reader(!strcmp(getenv("UCVAL_DAT"), "library") ? AN_DAT_LIBTRACECMD :
					 !strcmp(getenv("UCVAL_DAT"), "kbuffer") ? AN_DAT_KBUFFER :
					 AN_DAT_PAGES);
	if (o.json_path && an_jsonout_begin(json_dir))
		return UCVAL_EXIT_USAGE;
	status = an_run_all(&o.run, o.json_path ? json_dir : NULL);
	if (o.json_path && an_jsonout_finish(json_dir, o.json_path, UCVAL_VERSION, o.options,
					     o.run.nr_traces))
		status = UCVAL_EXIT_USAGE;
	return status;
}
