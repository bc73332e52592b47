// SPDX-License-Identifier: MIT
/*
 * analyze/jsonout.c - the --json document of `ucval analyze` (jsonout.h),
 * through lib/json: a trace's object is a part written at the depth it
 * takes in the document (an element of the top object's "traces" array).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze/evlist.h"
#include "analyze/jsonout.h"
#include "lib/json.h"
#include "lib/outfile.h"
#include "lib/stdout.h"
#include "lib/utf8.h"

/* Room for a part's path: the directory and an eight-digit index. */
#define PART_PATH_LEN	4096
/* Bytes copied at a time from a part into the document. */
#define COPY_LEN	8192

/*
 * A trace's object is one line but for its arrays, each starting a line
 * one column past the object's brace, and their elements one column further.
 */
#define TRACE_DEPTH	2	/* the top object, its "traces" array */
#define ARRAY_COL	5
#define ITEM_COL	6

int an_jsonout_begin(char dir[AN_JSONOUT_DIR_LEN])
{
	snprintf(dir, AN_JSONOUT_DIR_LEN, "/tmp/ucval-json-XXXXXX");
	if (!mkdtemp(dir)) {
		fprintf(stderr, "ucval analyze: cannot create a temporary directory: %s\n",
			strerror(errno));
		return -1;
	}
	return 0;
}

static void part_path(char *buf, size_t len, const char *dir, int index)
{
	snprintf(buf, len, "%s/%08d", dir, index);
}

FILE *an_jsonout_part_open(const char *dir, int index)
{
	char path[PART_PATH_LEN];
	FILE *f;

	part_path(path, sizeof(path), dir, index);
	f = fopen(path, "w");
	if (!f)
		fprintf(stderr, "ucval analyze: cannot write '%s': %s\n", path, strerror(errno));
	return f;
}

int an_jsonout_part_close(FILE *part, const char *trace)
{
	int err = 0;

	errno = 0;
	if (fflush(part) || ferror(part))
		err = errno ? -errno : -EIO;
	if (fclose(part) && !err)
		err = errno ? -errno : -EIO;
	if (err) {
		fputs("ucval analyze: cannot write the JSON of '", stderr);
		an_utf8_fputs(stderr, trace, 0);
		fprintf(stderr, "': %s\n", strerror(-err));
	}
	return err;
}

/* An expected or observed value: its text when it has one, else the number. */
static void value(struct rep_json *j, const char *key, long long v, const char *text)
{
	if (text[0])
		rep_json_str(j, key, text);
	else
		rep_json_int(j, key, v);
}

static int window(void *ctx, const struct an_window *w)
{
	struct rep_json *j = ctx;

	rep_json_break(j, ITEM_COL);
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
	value(j, "expected", w->expected, w->expected_text);
	value(j, "observed", w->observed, w->observed_text);
	rep_json_str(j, "rule", w->rule);
	rep_json_str(j, "message", w->message);
	rep_json_end(j);
	return 0;
}

static void verdicts(struct rep_json *j, const struct an_tracerun *t)
{
	rep_json_break(j, ARRAY_COL);
	rep_json_arr(j, "verdicts", true);
	for (int i = 0; i < AN_CHECK__COUNT; i++) {
		const struct an_check_stats *s = &t->res.stats[i];

		rep_json_break(j, ITEM_COL);
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

/* The names of @which, as an array @key. */
static void event_names(struct rep_json *j, const char *key, const struct an_summary *s,
			enum an_evlist_which which)
{
	rep_json_arr(j, key, true);
	for (int type = 0; type < AN_EV__COUNT; type++)
		if (an_evlist_has(s, which, (enum an_event_type)type))
			rep_json_str(j, NULL, an_event_type_name((enum an_event_type)type));
	rep_json_end(j);
}

/*
 * Which events the trace recorded, which of those the replay follows it
 * lacks, and which of them its own list says were not enabled.
 */
static void events(struct rep_json *j, const struct an_summary *s)
{
	rep_json_break(j, ARRAY_COL);
	rep_json_obj(j, "events", true);
	rep_json_str(j, "evidence", an_evlist_evidence(s));
	event_names(j, "recorded", s, AN_EVLIST_RECORDED);
	event_names(j, "not_recorded", s, AN_EVLIST_MISSING);
	event_names(j, "not_enabled", s, AN_EVLIST_UNLISTED);
	rep_json_end(j);
}

static void notes(struct rep_json *j, const struct an_summary *s)
{
	rep_json_break(j, ARRAY_COL);
	rep_json_arr(j, "notes", true);
	for (unsigned int i = 0; i < s->nr_notes; i++)
		rep_json_str(j, NULL, s->notes[i]);
	rep_json_end(j);
}

/* Rule coverage: per check, the rules that decided compared values (cover.h). */
static void coverage(struct rep_json *j, const struct an_tracerun *t)
{
	rep_json_break(j, ARRAY_COL);
	rep_json_arr(j, "rule_coverage", true);
	for (int i = 0; i < AN_CHECK__COUNT; i++) {
		for (int r = 0; r < MODEL_RULES_NR; r++) {
			const struct an_rule_cov *c = &t->res.cover[i][r];

			if (!c->times)
				continue;
			rep_json_break(j, ITEM_COL);
			rep_json_obj(j, NULL, true);
			rep_json_str(j, "check_id", an_check_name(i));
			rep_json_str(j, "rule", model_rules[r].id);
			rep_json_uint(j, "times", c->times);
			rep_json_uint(j, "decided_ns", c->decided_ns);
			rep_json_end(j);
		}
	}
	rep_json_end(j);
}

void an_jsonout_trace(FILE *out, struct an_tracerun *t, const struct an_diag *err)
{
	struct rep_json j;

	rep_json_init_part(&j, out, TRACE_DEPTH);
	rep_json_obj(&j, NULL, true);
	rep_json_str(&j, "path", t->path);
	rep_json_int(&j, "status", t->status);
	if (err) {
		char line[1024];

		an_diag_format(err, line, sizeof(line));
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
	verdicts(&j, t);
	rep_json_break(&j, ARRAY_COL);
	rep_json_arr(&j, "windows", true);
	an_winbuf_for_each(&t->wins, window, &j);
	rep_json_end(&j);
	events(&j, &t->sum);
	notes(&j, &t->sum);
	coverage(&j, t);
	rep_json_end(&j);
}

/* Copy part @index into the document and remove it. */
static void copy_part(FILE *out, const char *dir, int index)
{
	char path[PART_PATH_LEN], buf[COPY_LEN];
	FILE *part;
	size_t n;

	part_path(path, sizeof(path), dir, index);
	part = fopen(path, "r");
	if (part) {
		while ((n = fread(buf, 1, sizeof(buf), part)) > 0)
			fwrite(buf, 1, n, out);
		fclose(part);
	}
	unlink(path);
}

/*
 * Say why the document could not be written, @is_stdout when it went to
 * standard output (also under another name): said once with its other
 * failures. Return: -1.
 */
static int document_error(bool is_stdout, const struct an_diag *d)
{
	char line[AN_DIAG_FILE_LEN + AN_DIAG_MSG_LEN + 64];

	if (is_stdout) {
		an_stdout_fail("analyze", d->err);
		return -1;
	}
	an_diag_format(d, line, sizeof(line));
	fprintf(stderr, "ucval analyze: %s\n", line);
	return -1;
}

static int write_document(const char *dir, const char *path, const char *version,
			  const char *options, int nr_parts)
{
	struct rep_outfile out;
	struct rep_json j;
	struct an_diag d;
	bool is_stdout;

	an_diag_clear(&d);
	if (rep_outfile_open(&out, path, &d))
		return document_error(false, &d);
	is_stdout = out.fp == stdout;
	rep_json_init(&j, out.fp);
	rep_json_obj(&j, NULL, false);
	rep_json_str(&j, "ucval_version", version);
	rep_json_str(&j, "options", options);
	rep_json_arr(&j, "traces", false);
	for (int i = 0; i < nr_parts; i++) {
		rep_json_raw(&j, NULL);
		copy_part(out.fp, dir, i);
	}
	rep_json_end(&j);
	rep_json_end(&j);
	if (rep_outfile_commit(&out, &d))
		return document_error(is_stdout, &d);
	return 0;
}

int an_jsonout_finish(const char *dir, const char *path, const char *version,
		      const char *options, int nr_parts)
{
	int err = write_document(dir, path, version, options, nr_parts);
	char part[PART_PATH_LEN];

	/* the parts a document that could not be opened left behind */
	for (int i = 0; err && i < nr_parts; i++) {
		part_path(part, sizeof(part), dir, i);
		unlink(part);
	}
	rmdir(dir);
	return err;
}
