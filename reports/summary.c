// SPDX-License-Identifier: MIT
/*
 * reports/summary.c - what a report says about a results database, for the
 * text, markdown and HTML styles alike (the look is reports/doc.c's). The
 * cells come from reports/fmt.c, so every format shows the same values.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "reports/coverage.h"
#include "reports/fmt.h"
#include "reports/summary.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
/* Percent and percentage points of a share in 0..1. */
#define PERCENT		100.0

static const struct rep_col header_cols[] = { { "field", false }, { "value", false } };

static const struct rep_col verdict_cols[] = {
	{ "check", false }, { "verdict", false }, { "checked", true }, { "failed", true },
	{ "undecided", true }, { "windows", true }, { "reason", false },
};

static const struct rep_col window_cols[] = {
	{ "#", true }, { "cpu", true }, { "task", false }, { "start s", true },
	{ "start ns", true }, { "duration ms", true }, { "expected", true },
	{ "observed", true }, { "rule", false }, { "message", false },
};

static const struct rep_col residency_cols[] = {
	{ "policy", true }, { "kHz", true }, { "observed %", true }, { "expected %", true },
	{ "shift pp", true }, { "observed ms", true }, { "expected ms", true },
};

static const struct rep_col check_sum_cols[] = {
	{ "check", false }, { "traces", true }, { "PASS", true }, { "FAIL", true },
	{ "UNDECIDED", true }, { "windows", true }, { "failing ms", true },
};

static const struct rep_col trace_sum_cols[] = {
	{ "id", true }, { "path", false }, { "model", false }, { "FAIL", true },
	{ "UNDECIDED", true }, { "windows", true },
};

static int header(struct rep_doc *doc, const struct rep_trace *t)
{
	char dur[REP_FMT_LEN];
	struct rep_table tab;
	int err;

	rep_table_init(&tab, header_cols, ARRAY_SIZE(header_cols));
	tab.is_kv = true;
	rep_table_cell(&tab, "format");
	rep_table_cell(&tab, "%s", rep_fmt_or(t->format, "-"));
	rep_table_cell(&tab, "kernel");
	rep_table_cell(&tab, "%s", rep_fmt_or(t->kernel, "unknown"));
	rep_table_cell(&tab, "model");
	rep_table_cell(&tab, "%s", rep_fmt_or(t->model, "-"));
	rep_table_cell(&tab, "events");
	rep_table_cell(&tab, "%" PRId64, t->n_events);
	rep_table_cell(&tab, "duration");
	rep_table_cell(&tab, "%s s (%" PRId64 " to %" PRId64 " ns)",
		       rep_fmt_rel_s(dur, t->t_end_ns, t->t_start_ns), t->t_start_ns, t->t_end_ns);
	rep_table_cell(&tab, "analyzed");
	rep_table_cell(&tab, "%s", rep_fmt_or(t->analyzed_at, "-"));
	rep_table_cell(&tab, "options");
	rep_table_cell(&tab, "%s", rep_fmt_or(t->options, "-"));
	rep_table_cell(&tab, "sha256");
	rep_table_cell(&tab, "%s", rep_fmt_or(t->sha256, "-"));
	err = rep_doc_table(doc, &tab);
	rep_table_free(&tab);
	return err;
}

static int verdicts(struct rep_doc *doc, const struct rep_trace *t)
{
	struct rep_table tab;
	int err;

	if (!t->nr_verdicts) {
		rep_doc_para(doc, "no verdicts stored for this trace");
		return 0;
	}
	rep_table_init(&tab, verdict_cols, ARRAY_SIZE(verdict_cols));
	for (size_t i = 0; i < t->nr_verdicts; i++) {
		const struct rep_verdict *v = &t->verdicts[i];

		rep_table_cell(&tab, "%s", rep_fmt_or(v->check_id, "-"));
		rep_table_cell(&tab, "%s", rep_fmt_or(v->verdict, "-"));
		rep_table_cell(&tab, "%" PRId64, v->n_checked);
		rep_table_cell(&tab, "%" PRId64, v->n_failed);
		rep_table_cell(&tab, "%" PRId64, v->n_undecided);
		rep_table_cell(&tab, "%" PRId64, v->n_windows);
		rep_table_cell(&tab, "%s", rep_fmt_or(v->reason, ""));
	}
	err = rep_doc_table(doc, &tab);
	rep_table_free(&tab);
	return err;
}

static void window_row(struct rep_table *tab, const struct rep_trace *t,
		       const struct rep_window *w, size_t rank)
{
	char buf[REP_FMT_LEN];

	rep_table_cell(tab, "%zu", rank);
	rep_table_cell(tab, "%s", rep_fmt_cpu(buf, w->cpu));
	rep_table_cell(tab, "%s", rep_fmt_task(buf, w->pid, w->comm));
	rep_table_cell(tab, "%s", rep_fmt_rel_s(buf, w->ts_start_ns, t->t_start_ns));
	rep_table_cell(tab, "%" PRId64, w->ts_start_ns);
	rep_table_cell(tab, "%s", rep_fmt_ms(buf, w->ts_end_ns - w->ts_start_ns));
	rep_table_cell(tab, "%s", rep_fmt_value(&w->expected));
	rep_table_cell(tab, "%s", rep_fmt_value(&w->observed));
	rep_table_cell(tab, "%s", rep_fmt_or(w->rule, "-"));
	rep_table_cell(tab, "%s", rep_fmt_or(w->message, ""));
}

/* The windows of check @v (contiguous in t->windows), at most @top. */
static int check_windows(struct rep_doc *doc, const struct rep_trace *t,
			 const struct rep_verdict *v, unsigned int top)
{
	struct rep_table tab;
	size_t shown = 0;
	int err;

	rep_table_init(&tab, window_cols, ARRAY_SIZE(window_cols));
	for (size_t i = 0; i < t->nr_windows && (!top || shown < top); i++)
		if (!strcmp(t->windows[i].check_id, v->check_id))
			window_row(&tab, t, &t->windows[i], ++shown);
	rep_doc_heading(doc, 2, "%s: %zu of %" PRId64 " mismatch windows, longest first",
			v->check_id, shown, v->n_windows);
	err = rep_doc_table(doc, &tab);
	rep_table_free(&tab);
	shown = 0;
	for (size_t i = 0; !err && i < t->nr_windows && (!top || shown < top); i++) {
		const struct rep_window *w = &t->windows[i];

		if (strcmp(w->check_id, v->check_id))
			continue;
		shown++;
		if (!w->explain)
			continue;
		rep_doc_para(doc, "#%zu explanation (rule, step, value):", shown);
		rep_doc_pre(doc, w->explain);
	}
	return err;
}

static int windows(struct rep_doc *doc, const struct rep_sel *sel, const struct rep_trace *t)
{
	int err = 0;

	if (!t->nr_windows) {
		rep_doc_para(doc, "no mismatch windows");
		return 0;
	}
	for (size_t i = 0; !err && i < t->nr_verdicts; i++)
		if (t->verdicts[i].n_windows && t->verdicts[i].check_id)
			err = check_windows(doc, t, &t->verdicts[i], sel->top);
	return err;
}

static int residency(struct rep_doc *doc, const struct rep_sel *sel, const struct rep_trace *t)
{
	char obs[REP_FMT_LEN], exp[REP_FMT_LEN];
	struct rep_table tab;
	int err;

	rep_doc_heading(doc, 2, "frequency residency (decidable time)");
	if (!rep_rdb_has(sel->db, REP_T_FREQ_RESIDENCY)) {
		rep_doc_para(doc, "%s", rep_rdb_missing(sel->db));
		return 0;
	}
	if (!t->nr_residency) {
		rep_doc_para(doc, "none recorded for this trace");
		return 0;
	}
	rep_table_init(&tab, residency_cols, ARRAY_SIZE(residency_cols));
	for (size_t i = 0; i < t->nr_residency; i++) {
		const struct rep_residency *r = &t->residency[i];

		rep_table_cell(&tab, "%d", r->policy);
		rep_table_cell(&tab, "%" PRId64, r->khz);
		rep_table_cell(&tab, "%.1f", r->observed_share * PERCENT);
		rep_table_cell(&tab, "%.1f", r->expected_share * PERCENT);
		rep_table_cell(&tab, "%+.1f", (r->observed_share - r->expected_share) * PERCENT);
		rep_table_cell(&tab, "%s", rep_fmt_ms(obs, r->observed_ns));
		rep_table_cell(&tab, "%s", rep_fmt_ms(exp, r->expected_ns));
	}
	err = rep_doc_table(doc, &tab);
	rep_table_free(&tab);
	return err;
}

/**
 * rep_summary_trace() - everything the report says about one trace
 * @doc: where, in which style
 * @sel: the selection (database, window limit)
 * @t: the trace, loaded with rep_rdb_load()
 *
 * Return: 0 or -ENOMEM.
 */
int rep_summary_trace(struct rep_doc *doc, const struct rep_sel *sel, const struct rep_trace *t)
{
	int err;

	rep_doc_heading(doc, 1, "trace %" PRId64 ": %s", t->trace_id, rep_fmt_or(t->path, "-"));
	err = header(doc, t);
	if (!err)
		err = verdicts(doc, t);
	if (!err)
		err = windows(doc, sel, t);
	if (!err)
		err = residency(doc, sel, t);
	if (!err)
		err = rep_coverage_section(doc, sel->db, t);
	return err;
}

/* Index of @check in the summary table being built, adding a row if new. */
static size_t check_slot(const char **ids, size_t *nr, const char *check)
{
	for (size_t i = 0; i < *nr; i++)
		if (!strcmp(ids[i], check))
			return i;
	ids[*nr] = check;
	return (*nr)++;
}

struct check_sum {
	int64_t traces, pass, fail, undecided, windows, fail_ns;
};

static void count_verdict(struct check_sum *s, const struct rep_verdict *v)
{
	s->traces++;
	s->pass += v->verdict && !strcmp(v->verdict, "PASS");
	s->fail += v->verdict && !strcmp(v->verdict, "FAIL");
	s->undecided += v->verdict && !strcmp(v->verdict, "UNDECIDED");
	s->windows += v->n_windows;
	s->fail_ns += v->fail_ns;
}

/* Per check over all selected traces, in the order checks first appear. */
static int check_summary(struct rep_doc *doc, const struct rep_sel *sel)
{
	size_t cap = 0, nr = 0;
	const char **ids;
	struct check_sum *sum;
	struct rep_table tab;
	char ms[REP_FMT_LEN];
	int err = -ENOMEM;

	for (size_t i = 0; i < sel->nr; i++)
		cap += sel->traces[i]->nr_verdicts;
	ids = calloc(cap + 1, sizeof(*ids));
	sum = calloc(cap + 1, sizeof(*sum));
	if (!ids || !sum)
		goto out_free;
	for (size_t i = 0; i < sel->nr; i++)
		for (size_t j = 0; j < sel->traces[i]->nr_verdicts; j++) {
			const struct rep_verdict *v = &sel->traces[i]->verdicts[j];

			if (v->check_id)
				count_verdict(&sum[check_slot(ids, &nr, v->check_id)], v);
		}
	rep_table_init(&tab, check_sum_cols, ARRAY_SIZE(check_sum_cols));
	for (size_t i = 0; i < nr; i++) {
		rep_table_cell(&tab, "%s", ids[i]);
		rep_table_cell(&tab, "%" PRId64, sum[i].traces);
		rep_table_cell(&tab, "%" PRId64, sum[i].pass);
		rep_table_cell(&tab, "%" PRId64, sum[i].fail);
		rep_table_cell(&tab, "%" PRId64, sum[i].undecided);
		rep_table_cell(&tab, "%" PRId64, sum[i].windows);
		rep_table_cell(&tab, "%s", rep_fmt_ms(ms, sum[i].fail_ns));
	}
	rep_doc_heading(doc, 1, "checks over %zu traces", sel->nr);
	err = rep_doc_table(doc, &tab);
	rep_table_free(&tab);
out_free:
	free(ids);
	free(sum);
	return err;
}

static int trace_summary(struct rep_doc *doc, const struct rep_sel *sel)
{
	struct rep_table tab;
	int err;

	rep_table_init(&tab, trace_sum_cols, ARRAY_SIZE(trace_sum_cols));
	for (size_t i = 0; i < sel->nr; i++) {
		const struct rep_trace *t = sel->traces[i];
		struct check_sum s = { 0 };

		for (size_t j = 0; j < t->nr_verdicts; j++)
			count_verdict(&s, &t->verdicts[j]);
		rep_table_cell(&tab, "%" PRId64, t->trace_id);
		rep_table_cell(&tab, "%s", rep_fmt_or(t->path, "-"));
		rep_table_cell(&tab, "%s", rep_fmt_or(t->model, "-"));
		rep_table_cell(&tab, "%" PRId64, s.fail);
		rep_table_cell(&tab, "%" PRId64, s.undecided);
		rep_table_cell(&tab, "%" PRId64, s.windows);
	}
	rep_doc_heading(doc, 1, "traces");
	err = rep_doc_table(doc, &tab);
	rep_table_free(&tab);
	return err;
}

/**
 * rep_summary_overview() - the title and, for several traces, the summaries
 * @doc: where, in which style
 * @sel: the selected traces, loaded
 *
 * Return: 0 or -ENOMEM.
 */
int rep_summary_overview(struct rep_doc *doc, const struct rep_sel *sel)
{
	int err;

	rep_doc_heading(doc, 0, "ucval report: %zu trace%s, database schema %d", sel->nr,
			sel->nr == 1 ? "" : "s", sel->db->schema_version);
	if (sel->nr < 2)
		return 0;
	err = check_summary(doc, sel);
	if (!err)
		err = trace_summary(doc, sel);
	return err;
}

/**
 * rep_summary_write() - the whole report as text or markdown
 * @out: the stream
 * @sel: the selected traces, loaded
 * @style: REP_STYLE_TEXT or REP_STYLE_MD
 *
 * Return: 0 or -ENOMEM.
 */
int rep_summary_write(FILE *out, const struct rep_sel *sel, enum rep_style style)
{
	struct rep_doc doc = { .out = out, .style = style };
	int err = rep_summary_overview(&doc, sel);

	for (size_t i = 0; !err && i < sel->nr; i++)
		err = rep_summary_trace(&doc, sel, sel->traces[i]);
	return err;
}
