// SPDX-License-Identifier: MIT
/*
 * reports/jsonrep.c - `ucval report --format json`. Keys keep the column
 * names of the database (events.md §5), in a fixed order; absent values are
 * null, never left out, so a consumer can rely on every key being there.
 */
#include "reports/coverage.h"
#include "reports/jsonrep.h"

/**
 * rep_jsonrep_value() - an expected/observed value: number, word or null
 * @j: the writer
 * @key: its key
 * @v: the value
 */
void rep_jsonrep_value(struct rep_json *j, const char *key, const struct rep_value *v)
{
	if (v->is_int)
		rep_json_int(j, key, v->v);
	else
		rep_json_str(j, key, v->text);
}

static void int_or_null(struct rep_json *j, const char *key, int v)
{
	if (v < 0)
		rep_json_null(j, key);
	else
		rep_json_int(j, key, v);
}

static void verdicts(struct rep_json *j, const struct rep_trace *t)
{
	rep_json_arr(j, "verdicts", false);
	for (size_t i = 0; i < t->nr_verdicts; i++) {
		const struct rep_verdict *v = &t->verdicts[i];

		rep_json_obj(j, NULL, true);
		rep_json_str(j, "check_id", v->check_id);
		rep_json_str(j, "verdict", v->verdict);
		rep_json_int(j, "n_checked", v->n_checked);
		rep_json_int(j, "n_failed", v->n_failed);
		rep_json_int(j, "n_undecided", v->n_undecided);
		rep_json_int(j, "n_windows", v->n_windows);
		rep_json_int(j, "fail_ns", v->fail_ns);
		rep_json_str(j, "reason", v->reason);
		rep_json_end(j);
	}
	rep_json_end(j);
}

/* @is_mismatch: the window has expected, observed and explain columns. */
static void windows(struct rep_json *j, const char *key, const struct rep_window *w,
		    size_t nr, bool is_mismatch)
{
	rep_json_arr(j, key, false);
	for (size_t i = 0; i < nr; i++, w++) {
		rep_json_obj(j, NULL, true);
		rep_json_str(j, "check_id", w->check_id);
		int_or_null(j, "cpu", w->cpu);
		int_or_null(j, "pid", w->pid);
		rep_json_str(j, "comm", w->comm);
		rep_json_int(j, "ts_start_ns", w->ts_start_ns);
		rep_json_int(j, "ts_end_ns", w->ts_end_ns);
		rep_json_int(j, "duration_ns", w->ts_end_ns - w->ts_start_ns);
		if (is_mismatch) {
			rep_jsonrep_value(j, "expected", &w->expected);
			rep_jsonrep_value(j, "observed", &w->observed);
		}
		rep_json_str(j, "rule", w->rule);
		rep_json_str(j, "message", w->message);
		if (is_mismatch)
			rep_json_str(j, "explain", w->explain);
		rep_json_end(j);
	}
	rep_json_end(j);
}

static void residency(struct rep_json *j, const struct rep_sel *sel, const struct rep_trace *t)
{
	if (!rep_rdb_has(sel->db, REP_T_FREQ_RESIDENCY)) {
		rep_json_null(j, "residency");
		return;
	}
	rep_json_arr(j, "residency", false);
	for (size_t i = 0; i < t->nr_residency; i++) {
		const struct rep_residency *r = &t->residency[i];

		rep_json_obj(j, NULL, true);
		rep_json_int(j, "policy", r->policy);
		rep_json_int(j, "khz", r->khz);
		rep_json_int(j, "observed_ns", r->observed_ns);
		rep_json_int(j, "expected_ns", r->expected_ns);
		rep_json_real(j, "observed_share", r->observed_share);
		rep_json_real(j, "expected_share", r->expected_share);
		rep_json_end(j);
	}
	rep_json_end(j);
}

static void trace(struct rep_json *j, const struct rep_sel *sel, const struct rep_trace *t)
{
	rep_json_obj(j, NULL, false);
	rep_json_int(j, "trace_id", t->trace_id);
	rep_json_str(j, "path", t->path);
	rep_json_str(j, "format", t->format);
	rep_json_str(j, "sha256", t->sha256);
	rep_json_int(j, "n_events", t->n_events);
	rep_json_int(j, "t_start_ns", t->t_start_ns);
	rep_json_int(j, "t_end_ns", t->t_end_ns);
	rep_json_int(j, "duration_ns", t->t_end_ns - t->t_start_ns);
	rep_json_str(j, "model", t->model);
	rep_json_str(j, "kernel", t->kernel);
	rep_json_str(j, "analyzed_at", t->analyzed_at);
	rep_json_str(j, "options", t->options);
	verdicts(j, t);
	windows(j, "mismatches", t->windows, t->nr_windows, true);
	windows(j, "undecided", t->undecided, t->nr_undecided, false);
	residency(j, sel, t);
	rep_coverage_json(j, sel->db, t);
	rep_json_end(j);
}

/**
 * rep_jsonrep_write() - the selected traces as one JSON document
 * @out: the stream
 * @sel: the traces, loaded (with undecided windows, if they are wanted)
 *
 * Return: 0.
 */
int rep_jsonrep_write(FILE *out, const struct rep_sel *sel)
{
	struct rep_json j;

	rep_json_init(&j, out);
	rep_json_obj(&j, NULL, false);
	rep_json_int(&j, "report_layout", REP_JSON_LAYOUT);
	rep_json_int(&j, "schema_version", sel->db->schema_version);
	rep_json_arr(&j, "traces", false);
	for (size_t i = 0; i < sel->nr; i++)
		trace(&j, sel, sel->traces[i]);
	rep_json_end(&j);
	rep_json_end(&j);
	return 0;
}
