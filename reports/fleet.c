// SPDX-License-Identifier: MIT
/*
 * reports/fleet.c - the fleet reports (fleet.h). A check's failure rate is
 * the share of the group's decided traces (verdict PASS or FAIL) that
 * failed; UNDECIDED traces are counted but decide nothing.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "lib/json.h"
#include "reports/fleet.h"
#include "reports/fmt.h"
#include "reports/html.h"
#include "reports/stats.h"
#include "reports/xml.h"

#define PERCENT		100.0
#define NS_PER_HOUR	3.6e12
/* Checks of a comparison: the builtin checks are eight. */
#define MAX_CHECKS	64

static const struct rep_col check_cols[] = {
	{ "check", false }, { "traces", true }, { "FAIL", true }, { "decided", true },
	{ "fail rate %", true }, { "95 % CI", true }, { "windows", true }, { "windows/h", true },
};

static const struct rep_col rule_cols[] = {
	{ "check", false }, { "rule", false }, { "windows", true }, { "failing ms", true },
};

static const struct rep_col window_cols[] = {
	{ "trace", false }, { "check", false }, { "cpu", true }, { "rule", false },
	{ "start s", true }, { "duration ms", true },
};

static const struct rep_col cmp_cols[] = {
	{ "check", false }, { "A FAIL/decided", true }, { "A %", true }, { "B FAIL/decided", true },
	{ "B %", true }, { "B - A pp", true }, { "CI pp", false }, { "Fisher p", true },
	{ "verdict", false },
};

static int64_t decided(const struct rep_fleet_check *c)
{
	return c ? c->n_fail + c->n_pass : 0;
}

static double rate(const struct rep_fleet_check *c)
{
	return decided(c) ? (double)c->n_fail / (double)decided(c) : 0;
}

static double per_hour(int64_t n, int64_t span_ns)
{
	return span_ns > 0 ? (double)n * NS_PER_HOUR / (double)span_ns : 0;
}

/* ---- --group-by ---- */

static void group_checks(struct rep_doc *doc, const struct rep_fleet_group *g, struct rep_table *t)
{
	rep_table_init(t, check_cols, sizeof(check_cols) / sizeof(check_cols[0]));
	for (size_t i = 0; i < g->nr_checks; i++) {
		const struct rep_fleet_check *c = &g->checks[i];
		struct rep_interval w = rep_stats_wilson(c->n_fail, decided(c), REP_STATS_Z95);

		rep_table_cell(t, "%s", c->check_id);
		rep_table_cell(t, "%" PRId64, c->n_fail + c->n_pass + c->n_undecided);
		rep_table_cell(t, "%" PRId64, c->n_fail);
		rep_table_cell(t, "%" PRId64, decided(c));
		if (decided(c)) {
			rep_table_cell(t, "%.1f", rate(c) * PERCENT);
			rep_table_cell(t, "%.1f..%.1f", w.lo * PERCENT, w.hi * PERCENT);
		} else {
			rep_table_cell(t, "-");
			rep_table_cell(t, "-");
		}
		rep_table_cell(t, "%" PRId64, c->n_windows);
		rep_table_cell(t, "%.2f", per_hour(c->n_windows, g->span_ns));
	}
	rep_doc_table(doc, t);
	rep_table_free(t);
}

static void group_rules(struct rep_doc *doc, const struct rep_fleet_group *g, struct rep_table *t)
{
	char ms[REP_FMT_LEN];

	if (!g->nr_rules) {
		rep_doc_para(doc, "No mismatch window.");
		return;
	}
	rep_doc_para(doc, "Rules that fail most:");
	rep_table_init(t, rule_cols, sizeof(rule_cols) / sizeof(rule_cols[0]));
	for (size_t i = 0; i < g->nr_rules; i++) {
		rep_table_cell(t, "%s", g->rules[i].check_id);
		rep_table_cell(t, "%s", rep_fmt_or(g->rules[i].rule, "-"));
		rep_table_cell(t, "%" PRId64, g->rules[i].n_windows);
		rep_table_cell(t, "%s", rep_fmt_ms(ms, g->rules[i].fail_ns));
	}
	rep_doc_table(doc, t);
	rep_table_free(t);
}

static void group_windows(struct rep_doc *doc, const struct rep_fleet_group *g,
			  struct rep_table *t)
{
	char ms[REP_FMT_LEN], cpu[REP_FMT_LEN], st[REP_FMT_LEN];

	if (!g->nr_windows)
		return;
	rep_doc_para(doc, "Longest windows:");
	rep_table_init(t, window_cols, sizeof(window_cols) / sizeof(window_cols[0]));
	for (size_t i = 0; i < g->nr_windows; i++) {
		const struct rep_fleet_window *w = &g->windows[i];

		rep_table_cell(t, "%s", w->path);
		rep_table_cell(t, "%s", w->check_id);
		rep_table_cell(t, "%s", rep_fmt_cpu(cpu, w->cpu));
		rep_table_cell(t, "%s", rep_fmt_or(w->rule, "-"));
		rep_table_cell(t, "%s", rep_fmt_rel_s(st, w->start_ns, 0));
		rep_table_cell(t, "%s", rep_fmt_ms(ms, w->dur_ns));
	}
	rep_doc_table(doc, t);
	rep_table_free(t);
}

static void group_traces(struct rep_doc *doc, const struct rep_fleet_group *g, unsigned int top)
{
	size_t shown = top && g->nr_paths > top ? top : g->nr_paths;
	char list[1024];
	size_t n = 0;

	list[0] = '\0';
	for (size_t i = 0; i < shown && n < sizeof(list); i++)
		n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%s", i ? ", " : "",
				      g->paths[i]);
	if (shown < (size_t)g->nr_traces)
		rep_doc_para(doc, "Traces: %s and %zu more", list, (size_t)g->nr_traces - shown);
	else
		rep_doc_para(doc, "Traces: %s", list);
}

static void groups_text(FILE *out, const struct rep_fleet *f, const struct rep_fleet_out *o)
{
	struct rep_doc doc = { .out = out, .style = o->style };
	struct rep_table t;

	rep_doc_heading(&doc, 1, "Traces by %s: %zu groups", f->label, f->nr_groups);
	if (f->nr_unlabelled)
		rep_doc_para(&doc, "%" PRId64 " traces without label %s are in no group.",
			     f->nr_unlabelled, f->label);
	rep_doc_para(&doc, "fail rate: traces with FAIL / decided traces (PASS or FAIL), with "
		     "its 95 %% Wilson score interval; windows/h: mismatch windows per hour of "
		     "trace.");
	for (size_t i = 0; i < f->nr_groups; i++) {
		const struct rep_fleet_group *g = &f->groups[i];

		rep_doc_heading(&doc, 2, "%s=%s: %" PRId64 " traces, %.3f h", f->label, g->value,
				g->nr_traces, (double)g->span_ns / NS_PER_HOUR);
		group_traces(&doc, g, o->top);
		group_checks(&doc, g, &t);
		group_rules(&doc, g, &t);
		group_windows(&doc, g, &t);
	}
}

static void json_group(struct rep_json *j, const struct rep_fleet_group *g)
{
	rep_json_obj(j, NULL, false);
	rep_json_str(j, "value", g->value);
	rep_json_int(j, "n_traces", g->nr_traces);
	rep_json_int(j, "duration_ns", g->span_ns);
	rep_json_arr(j, "traces", false);
	for (size_t i = 0; i < g->nr_paths; i++)
		rep_json_str(j, NULL, g->paths[i]);
	rep_json_end(j);
	rep_json_arr(j, "checks", false);
	for (size_t i = 0; i < g->nr_checks; i++) {
		const struct rep_fleet_check *c = &g->checks[i];
		struct rep_interval w = rep_stats_wilson(c->n_fail, decided(c), REP_STATS_Z95);

		rep_json_obj(j, NULL, true);
		rep_json_str(j, "check_id", c->check_id);
		rep_json_int(j, "n_fail", c->n_fail);
		rep_json_int(j, "n_pass", c->n_pass);
		rep_json_int(j, "n_undecided", c->n_undecided);
		if (decided(c)) {
			rep_json_real(j, "fail_rate", rate(c));
			rep_json_real(j, "ci95_lo", w.lo);
			rep_json_real(j, "ci95_hi", w.hi);
		} else {
			rep_json_null(j, "fail_rate");
			rep_json_null(j, "ci95_lo");
			rep_json_null(j, "ci95_hi");
		}
		rep_json_int(j, "n_windows", c->n_windows);
		rep_json_real(j, "windows_per_hour", per_hour(c->n_windows, g->span_ns));
		rep_json_end(j);
	}
	rep_json_end(j);
	rep_json_arr(j, "top_rules", false);
	for (size_t i = 0; i < g->nr_rules; i++) {
		rep_json_obj(j, NULL, true);
		rep_json_str(j, "check_id", g->rules[i].check_id);
		rep_json_str(j, "rule", g->rules[i].rule);
		rep_json_int(j, "n_windows", g->rules[i].n_windows);
		rep_json_int(j, "fail_ns", g->rules[i].fail_ns);
		rep_json_end(j);
	}
	rep_json_end(j);
	rep_json_arr(j, "longest_windows", false);
	for (size_t i = 0; i < g->nr_windows; i++) {
		const struct rep_fleet_window *w = &g->windows[i];

		rep_json_obj(j, NULL, true);
		rep_json_str(j, "path", w->path);
		rep_json_str(j, "check_id", w->check_id);
		if (w->cpu < 0)
			rep_json_null(j, "cpu");
		else
			rep_json_int(j, "cpu", w->cpu);
		rep_json_str(j, "rule", w->rule);
		rep_json_int(j, "start_ns", w->start_ns);
		rep_json_int(j, "duration_ns", w->dur_ns);
		rep_json_end(j);
	}
	rep_json_end(j);
	rep_json_end(j);
}

/**
 * rep_fleet_groups_write() - `ucval report --group-by LABEL`
 * @out: the stream
 * @f: the loaded groups
 * @o: the format
 *
 * Return: 0.
 */
int rep_fleet_groups_write(FILE *out, const struct rep_fleet *f, const struct rep_fleet_out *o)
{
	struct rep_json j;

	if (!o->is_json) {
		if (o->style == REP_STYLE_HTML)
			rep_html_page_open(out);
		groups_text(out, f, o);
		if (o->style == REP_STYLE_HTML)
			rep_html_page_close(out);
		return 0;
	}
	rep_json_init(&j, out);
	rep_json_obj(&j, NULL, false);
	rep_json_str(&j, "group_by", f->label);
	rep_json_int(&j, "n_unlabelled", f->nr_unlabelled);
	rep_json_arr(&j, "groups", false);
	for (size_t i = 0; i < f->nr_groups; i++)
		json_group(&j, &f->groups[i]);
	rep_json_end(&j);
	rep_json_end(&j);
	return 0;
}

/* ---- --compare ---- */

/* One check compared: B against A. */
struct cmp_row {
	const char *check_id;
	const struct rep_fleet_check *c[2];	/* A, B; NULL when absent */
	struct rep_interval diff;
	double p;
	const char *verdict;
};

static size_t cmp_rows(const struct rep_fleet_group *g[2], double alpha, struct cmp_row *rows)
{
	double z = rep_stats_z(alpha);
	size_t n = 0;

	for (int side = 0; side < 2; side++) {
		for (size_t i = 0; i < g[side]->nr_checks && n < MAX_CHECKS; i++) {
			const char *id = g[side]->checks[i].check_id;
			size_t k;

			for (k = 0; k < n && strcmp(rows[k].check_id, id); k++)
				;
			if (k == n)
				rows[n++] = (struct cmp_row){ .check_id = id };
		}
	}
	for (size_t k = 0; k < n; k++) {
		struct cmp_row *r = &rows[k];
		const struct rep_fleet_check *a, *b;

		a = r->c[0] = rep_fleetdb_check(g[0], r->check_id);
		b = r->c[1] = rep_fleetdb_check(g[1], r->check_id);
		r->diff = rep_stats_newcombe(b ? b->n_fail : 0, decided(b), a ? a->n_fail : 0,
					     decided(a), z);
		r->p = rep_stats_fisher(a ? a->n_fail : 0, a ? a->n_pass : 0, b ? b->n_fail : 0,
					b ? b->n_pass : 0);
		r->verdict = !decided(a) || !decided(b) || r->p >= alpha ? "no evidence" :
			     rate(b) > rate(a) ? "worse" : rate(b) < rate(a) ? "better" :
			     "no evidence";
	}
	return n;
}

static void cmp_text(FILE *out, const struct rep_fleet *f, const struct rep_fleet_group *g[2],
		     const struct cmp_row *rows, size_t n, double alpha,
		     const struct rep_fleet_out *o)
{
	struct rep_doc doc = { .out = out, .style = o->style };
	struct rep_table t;

	rep_doc_heading(&doc, 1, "%s: %s (A, %" PRId64 " traces) against %s (B, %" PRId64
			" traces)", f->label, g[0]->value, g[0]->nr_traces, g[1]->value,
			g[1]->nr_traces);
	rep_doc_para(&doc, "Per check: traces with FAIL / decided traces in each group, the "
		     "difference B - A in percentage points with Newcombe's hybrid score "
		     "interval at %.0f %%, and Fisher's exact two-sided p. worse / better: "
		     "p < %g; otherwise no evidence.", (1 - alpha) * PERCENT, alpha);
	rep_table_init(&t, cmp_cols, sizeof(cmp_cols) / sizeof(cmp_cols[0]));
	for (size_t k = 0; k < n; k++) {
		const struct cmp_row *r = &rows[k];

		rep_table_cell(&t, "%s", r->check_id);
		for (int side = 0; side < 2; side++) {
			rep_table_cell(&t, "%" PRId64 "/%" PRId64, r->c[side] ? r->c[side]->n_fail : 0,
				       decided(r->c[side]));
			if (decided(r->c[side]))
				rep_table_cell(&t, "%.1f", rate(r->c[side]) * PERCENT);
			else
				rep_table_cell(&t, "-");
		}
		rep_table_cell(&t, "%+.1f", (rate(r->c[1]) - rate(r->c[0])) * PERCENT);
		rep_table_cell(&t, "%+.1f..%+.1f", r->diff.lo * PERCENT, r->diff.hi * PERCENT);
		rep_table_cell(&t, "%.4g", r->p);
		rep_table_cell(&t, "%s", r->verdict);
	}
	rep_doc_table(&doc, &t);
	rep_table_free(&t);
}

static void cmp_json(FILE *out, const struct rep_fleet *f, const struct rep_fleet_group *g[2],
		     const struct cmp_row *rows, size_t n, double alpha)
{
	struct rep_json j;

	rep_json_init(&j, out);
	rep_json_obj(&j, NULL, false);
	rep_json_str(&j, "label", f->label);
	rep_json_str(&j, "a", g[0]->value);
	rep_json_str(&j, "b", g[1]->value);
	rep_json_int(&j, "n_traces_a", g[0]->nr_traces);
	rep_json_int(&j, "n_traces_b", g[1]->nr_traces);
	rep_json_real(&j, "alpha", alpha);
	rep_json_arr(&j, "checks", false);
	for (size_t k = 0; k < n; k++) {
		const struct cmp_row *r = &rows[k];

		rep_json_obj(&j, NULL, true);
		rep_json_str(&j, "check_id", r->check_id);
		rep_json_int(&j, "n_fail_a", r->c[0] ? r->c[0]->n_fail : 0);
		rep_json_int(&j, "n_decided_a", decided(r->c[0]));
		rep_json_int(&j, "n_fail_b", r->c[1] ? r->c[1]->n_fail : 0);
		rep_json_int(&j, "n_decided_b", decided(r->c[1]));
		rep_json_real(&j, "rate_a", rate(r->c[0]));
		rep_json_real(&j, "rate_b", rate(r->c[1]));
		rep_json_real(&j, "difference", rate(r->c[1]) - rate(r->c[0]));
		rep_json_real(&j, "ci_lo", r->diff.lo);
		rep_json_real(&j, "ci_hi", r->diff.hi);
		rep_json_real(&j, "p", r->p);
		rep_json_str(&j, "verdict", r->verdict);
		rep_json_end(&j);
	}
	rep_json_end(&j);
	rep_json_end(&j);
}

static void xml_attr(FILE *out, const char *name, const char *value)
{
	fprintf(out, " %s=\"", name);
	rep_xml_text(out, value);
	fputc('"', out);
}

static void junit_property(FILE *out, const char *name, const char *value)
{
	fputs("      <property", out);
	xml_attr(out, "name", name);
	xml_attr(out, "value", value);
	fputs("/>\n", out);
}

static void junit_properties(FILE *out, const struct rep_fleet *f,
			     const struct rep_fleet_group *g[2], double alpha)
{
	char buf[64];

	fputs("    <properties>\n", out);
	junit_property(out, "label", f->label);
	junit_property(out, "a", g[0]->value);
	junit_property(out, "b", g[1]->value);
	snprintf(buf, sizeof(buf), "%" PRId64, g[0]->nr_traces);
	junit_property(out, "n_traces_a", buf);
	snprintf(buf, sizeof(buf), "%" PRId64, g[1]->nr_traces);
	junit_property(out, "n_traces_b", buf);
	snprintf(buf, sizeof(buf), "%g", alpha);
	junit_property(out, "alpha", buf);
	fputs("    </properties>\n", out);
}

/*
 * JUnit, for CI: one test suite, a test case per check named after it, a
 * failure where B is worse (better and no evidence pass).
 */
static void cmp_junit(FILE *out, const struct rep_fleet *f, const struct rep_fleet_group *g[2],
		      const struct cmp_row *rows, size_t n, double alpha)
{
	char name[512], msg[512];
	size_t worse = 0;

	for (size_t k = 0; k < n; k++)
		worse += !strcmp(rows[k].verdict, "worse");
	snprintf(name, sizeof(name), "%s: %s against %s", f->label, g[1]->value, g[0]->value);
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", out);
	fprintf(out, "<testsuites name=\"ucval compare\" tests=\"%zu\" failures=\"%zu\" "
		"skipped=\"0\" errors=\"0\">\n  <testsuite", n, worse);
	xml_attr(out, "name", name);
	fprintf(out, " id=\"1\" tests=\"%zu\" failures=\"%zu\" skipped=\"0\" errors=\"0\">\n",
		n, worse);
	junit_properties(out, f, g, alpha);
	for (size_t k = 0; k < n; k++) {
		const struct cmp_row *r = &rows[k];

		snprintf(name, sizeof(name), "%s=%s", f->label, g[1]->value);
		fputs("    <testcase", out);
		xml_attr(out, "classname", name);
		xml_attr(out, "name", r->check_id);
		if (strcmp(r->verdict, "worse")) {
			fputs("/>\n", out);
			continue;
		}
		snprintf(msg, sizeof(msg), "worse: %" PRId64 " of %" PRId64 " traces failed against "
			 "%" PRId64 " of %" PRId64 " (%s), Fisher p = %.4g < %g", r->c[1]->n_fail,
			 decided(r->c[1]), r->c[0]->n_fail, decided(r->c[0]), g[0]->value, r->p,
			 alpha);
		fputs(">\n      <failure", out);
		xml_attr(out, "message", msg);
		xml_attr(out, "type", "worse");
		fputs("/>\n    </testcase>\n", out);
	}
	fputs("  </testsuite>\n</testsuites>\n", out);
}

/**
 * rep_fleet_compare_write() - `ucval report --compare LABEL=A,B`
 * @out: the stream
 * @f: the loaded groups; @a and @b must be among them
 * @a: the value of the reference group
 * @b: the value of the group judged against it
 * @alpha: a check is worse (better) when Fisher's p < @alpha and B's rate
 *	   is higher (lower); the intervals are at 1 - @alpha
 * @o: the format
 * @is_worse: set when a check is worse
 *
 * Return: 0, -ENOENT (@a or @b is no group).
 */
int rep_fleet_compare_write(FILE *out, const struct rep_fleet *f, const char *a,
			    const char *b, double alpha, const struct rep_fleet_out *o,
			    bool *is_worse)
{
	const struct rep_fleet_group *g[2] = { rep_fleetdb_find(f, a), rep_fleetdb_find(f, b) };
	struct cmp_row rows[MAX_CHECKS];
	size_t n;

	*is_worse = false;
	if (!g[0] || !g[1])
		return -ENOENT;
	n = cmp_rows(g, alpha, rows);
	for (size_t k = 0; k < n; k++)
		*is_worse |= !strcmp(rows[k].verdict, "worse");
	if (o->is_json) {
		cmp_json(out, f, g, rows, n, alpha);
		return 0;
	}
	if (o->is_junit) {
		cmp_junit(out, f, g, rows, n, alpha);
		return 0;
	}
	if (o->style == REP_STYLE_HTML)
		rep_html_page_open(out);
	cmp_text(out, f, g, rows, n, alpha, o);
	if (o->style == REP_STYLE_HTML)
		rep_html_page_close(out);
	return 0;
}
