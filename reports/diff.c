// SPDX-License-Identifier: MIT
/*
 * reports/diff.c - `ucval report --diff DB A B`. The comparison is computed
 * once into rows (checks, residency) and written as text, markdown or JSON.
 * A check or an OPP present in one trace only counts as absent (verdict
 * null, 0 windows, 0 % residency) in the other.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reports/diff.h"
#include "reports/fmt.h"
#include "lib/json.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
/* Percent and percentage points of a share in 0..1. */
#define PERCENT		100.0

struct diff_check {
	const char *check_id;
	const struct rep_verdict *v[2];		/* A, B; NULL when absent */
};

struct diff_res {
	int policy;
	int64_t khz;
	const struct rep_residency *r[2];	/* A, B; NULL when absent */
	bool has_policy[2];			/* the trace has rows for the policy */
};

struct diff {
	struct diff_check *checks;
	size_t nr_checks;
	struct diff_res *res;
	size_t nr_res;
};

static const struct rep_col pair_cols[] = { { "side", false }, { "trace", false } };

static const struct rep_col verdict_cols[] = {
	{ "check", false }, { "A", false }, { "B", false },
};

static const struct rep_col window_cols[] = {
	{ "check", false }, { "windows A", true }, { "windows B", true }, { "change", true },
	{ "failing ms A", true }, { "failing ms B", true },
};

static const struct rep_col res_cols[] = {
	{ "policy", true }, { "kHz", true }, { "observed A %", true }, { "observed B %", true },
	{ "shift pp", true }, { "expected A %", true }, { "expected B %", true },
	{ "expected shift pp", true },
};

static void add_checks(struct diff *df, const struct rep_trace *t, int side)
{
	for (size_t i = 0; i < t->nr_verdicts; i++) {
		const struct rep_verdict *v = &t->verdicts[i];
		size_t k;

		if (!v->check_id)
			continue;
		for (k = 0; k < df->nr_checks; k++)
			if (!strcmp(df->checks[k].check_id, v->check_id))
				break;
		if (k == df->nr_checks)
			df->checks[df->nr_checks++].check_id = v->check_id;
		df->checks[k].v[side] = v;
	}
}

static bool has_policy(const struct rep_trace *t, int policy)
{
	for (size_t i = 0; i < t->nr_residency; i++)
		if (t->residency[i].policy == policy)
			return true;
	return false;
}

/* Residency rows are sorted by (policy, khz) in each trace: merge them. */
static void add_residency(struct diff *df, const struct rep_trace *a, const struct rep_trace *b)
{
	size_t i = 0, j = 0;

	while (i < a->nr_residency || j < b->nr_residency) {
		const struct rep_residency *ra = i < a->nr_residency ? &a->residency[i] : NULL;
		const struct rep_residency *rb = j < b->nr_residency ? &b->residency[j] : NULL;
		struct diff_res *row = &df->res[df->nr_res++];
		int cmp = !ra ? 1 : !rb ? -1 :
			  ra->policy != rb->policy ? (ra->policy < rb->policy ? -1 : 1) :
			  ra->khz != rb->khz ? (ra->khz < rb->khz ? -1 : 1) : 0;

		row->r[0] = cmp <= 0 ? ra : NULL;
		row->r[1] = cmp >= 0 ? rb : NULL;
		row->policy = cmp <= 0 ? ra->policy : rb->policy;
		row->khz = cmp <= 0 ? ra->khz : rb->khz;
		i += cmp <= 0;
		j += cmp >= 0;
	}
	for (size_t k = 0; k < df->nr_res; k++) {
		df->res[k].has_policy[0] = has_policy(a, df->res[k].policy);
		df->res[k].has_policy[1] = has_policy(b, df->res[k].policy);
	}
}

static int diff_build(struct diff *df, const struct rep_diff_pair *p)
{
	*df = (struct diff){ 0 };
	df->checks = calloc(p->a->nr_verdicts + p->b->nr_verdicts + 1, sizeof(*df->checks));
	df->res = calloc(p->a->nr_residency + p->b->nr_residency + 1, sizeof(*df->res));
	if (!df->checks || !df->res) {
		free(df->checks);
		free(df->res);
		return -ENOMEM;
	}
	add_checks(df, p->a, 0);
	add_checks(df, p->b, 1);
	add_residency(df, p->a, p->b);
	return 0;
}

static void diff_free(struct diff *df)
{
	free(df->checks);
	free(df->res);
}

static const char *verdict_of(const struct rep_verdict *v)
{
	return v && v->verdict ? v->verdict : "-";
}

static bool verdict_changed(const struct diff_check *c)
{
	return strcmp(verdict_of(c->v[0]), verdict_of(c->v[1])) != 0;
}

/*
 * Share of one side: an OPP the trace never used is 0, but a policy the
 * trace has no residency for at all is unknown (NaN: "-" or null).
 */
static double share(const struct diff_res *d, int side, bool is_expected)
{
	const struct rep_residency *r = d->r[side];

	if (!d->has_policy[side])
		return NAN;
	return !r ? 0 : is_expected ? r->expected_share : r->observed_share;
}

static void pct_cell(struct rep_table *tab, const char *fmt, double v)
{
	if (isnan(v))
		rep_table_cell(tab, "-");
	else
		rep_table_cell(tab, fmt, v * PERCENT);
}

static void text_verdicts(struct rep_doc *doc, const struct diff *df, struct rep_table *tab)
{
	rep_table_init(tab, verdict_cols, ARRAY_SIZE(verdict_cols));
	for (size_t i = 0; i < df->nr_checks; i++) {
		const struct diff_check *c = &df->checks[i];

		if (!verdict_changed(c))
			continue;
		rep_table_cell(tab, "%s", c->check_id);
		rep_table_cell(tab, "%s", verdict_of(c->v[0]));
		rep_table_cell(tab, "%s", verdict_of(c->v[1]));
	}
	rep_doc_heading(doc, 1, "verdict changes");
	if (!rep_table_rows(tab) && !tab->err)
		rep_doc_para(doc, "no verdict changed (%zu checks)", df->nr_checks);
}

static void text_windows(struct rep_doc *doc, const struct diff *df, struct rep_table *tab)
{
	char ms[2][REP_FMT_LEN];

	rep_table_init(tab, window_cols, ARRAY_SIZE(window_cols));
	for (size_t i = 0; i < df->nr_checks; i++) {
		const struct diff_check *c = &df->checks[i];
		int64_t na = c->v[0] ? c->v[0]->n_windows : 0;
		int64_t nb = c->v[1] ? c->v[1]->n_windows : 0;

		rep_table_cell(tab, "%s", c->check_id);
		rep_table_cell(tab, "%" PRId64, na);
		rep_table_cell(tab, "%" PRId64, nb);
		rep_table_cell(tab, "%+" PRId64, nb - na);
		rep_table_cell(tab, "%s", rep_fmt_ms(ms[0], c->v[0] ? c->v[0]->fail_ns : 0));
		rep_table_cell(tab, "%s", rep_fmt_ms(ms[1], c->v[1] ? c->v[1]->fail_ns : 0));
	}
	rep_doc_heading(doc, 1, "mismatch windows per check");
}

static void text_residency(struct rep_doc *doc, const struct rep_rdb *db, const struct diff *df,
			   struct rep_table *tab)
{
	rep_table_init(tab, res_cols, ARRAY_SIZE(res_cols));
	rep_doc_heading(doc, 1, "residency shift per policy and OPP (B - A)");
	if (!rep_rdb_has(db, REP_T_FREQ_RESIDENCY)) {
		rep_doc_para(doc, "%s", rep_rdb_missing(db));
		return;
	}
	if (!df->nr_res)
		rep_doc_para(doc, "none recorded for either trace");
	for (size_t i = 0; i < df->nr_res; i++) {
		const struct diff_res *r = &df->res[i];

		rep_table_cell(tab, "%d", r->policy);
		rep_table_cell(tab, "%" PRId64, r->khz);
		for (int is_exp = 0; is_exp < 2; is_exp++) {
			double a = share(r, 0, is_exp), b = share(r, 1, is_exp);

			pct_cell(tab, "%.1f", a);
			pct_cell(tab, "%.1f", b);
			pct_cell(tab, "%+.1f", b - a);
		}
	}
}

/* Write @tab when it has rows, then free it. */
static int flush_table(struct rep_doc *doc, struct rep_table *tab)
{
	int err = tab->err;

	if (!err && rep_table_rows(tab))
		err = rep_doc_table(doc, tab);
	rep_table_free(tab);
	return err;
}

/**
 * rep_diff_text() - the comparison of two traces as text or markdown
 * @out: the stream
 * @db: their database
 * @p: the traces, loaded
 * @style: REP_STYLE_TEXT or REP_STYLE_MD
 *
 * Return: 0 or -ENOMEM.
 */
int rep_diff_text(FILE *out, const struct rep_rdb *db, const struct rep_diff_pair *p,
		  enum rep_style style)
{
	struct rep_doc doc = { .out = out, .style = style };
	struct rep_table tab;
	struct diff df;
	int err = diff_build(&df, p);

	if (err)
		return err;
	rep_doc_heading(&doc, 0, "ucval report --diff: trace %" PRId64 " (A) to trace %" PRId64
			" (B)", p->a->trace_id, p->b->trace_id);
	rep_table_init(&tab, pair_cols, ARRAY_SIZE(pair_cols));
	tab.is_kv = true;
	for (int side = 0; side < 2; side++) {
		const struct rep_trace *t = side ? p->b : p->a;

		rep_table_cell(&tab, "%s", side ? "B" : "A");
		rep_table_cell(&tab, "trace %" PRId64 ": %s, model %s", t->trace_id,
			       rep_fmt_or(t->path, "-"), rep_fmt_or(t->model, "-"));
	}
	err = flush_table(&doc, &tab);
	if (!err)
		text_verdicts(&doc, &df, &tab);
	if (!err)
		err = flush_table(&doc, &tab);
	if (!err) {
		text_windows(&doc, &df, &tab);
		err = flush_table(&doc, &tab);
	}
	if (!err) {
		text_residency(&doc, db, &df, &tab);
		err = flush_table(&doc, &tab);
	}
	diff_free(&df);
	return err;
}

static void json_trace(struct rep_json *j, const char *key, const struct rep_trace *t)
{
	rep_json_obj(j, key, true);
	rep_json_int(j, "trace_id", t->trace_id);
	rep_json_str(j, "path", t->path);
	rep_json_str(j, "model", t->model);
	rep_json_end(j);
}

static void json_checks(struct rep_json *j, const struct diff *df)
{
	rep_json_arr(j, "checks", false);
	for (size_t i = 0; i < df->nr_checks; i++) {
		const struct diff_check *c = &df->checks[i];

		rep_json_obj(j, NULL, true);
		rep_json_str(j, "check_id", c->check_id);
		rep_json_str(j, "verdict_a", c->v[0] ? c->v[0]->verdict : NULL);
		rep_json_str(j, "verdict_b", c->v[1] ? c->v[1]->verdict : NULL);
		rep_json_bool(j, "verdict_changed", verdict_changed(c));
		rep_json_int(j, "windows_a", c->v[0] ? c->v[0]->n_windows : 0);
		rep_json_int(j, "windows_b", c->v[1] ? c->v[1]->n_windows : 0);
		rep_json_int(j, "fail_ns_a", c->v[0] ? c->v[0]->fail_ns : 0);
		rep_json_int(j, "fail_ns_b", c->v[1] ? c->v[1]->fail_ns : 0);
		rep_json_end(j);
	}
	rep_json_end(j);
}

static void json_residency(struct rep_json *j, const struct rep_rdb *db, const struct diff *df)
{
	if (!rep_rdb_has(db, REP_T_FREQ_RESIDENCY)) {
		rep_json_null(j, "residency");
		return;
	}
	rep_json_arr(j, "residency", false);
	for (size_t i = 0; i < df->nr_res; i++) {
		const struct diff_res *r = &df->res[i];

		rep_json_obj(j, NULL, true);
		rep_json_int(j, "policy", r->policy);
		rep_json_int(j, "khz", r->khz);
		rep_json_real(j, "observed_share_a", share(r, 0, false));
		rep_json_real(j, "observed_share_b", share(r, 1, false));
		rep_json_real(j, "observed_shift_pp",
			      (share(r, 1, false) - share(r, 0, false)) * PERCENT);
		rep_json_real(j, "expected_share_a", share(r, 0, true));
		rep_json_real(j, "expected_share_b", share(r, 1, true));
		rep_json_real(j, "expected_shift_pp",
			      (share(r, 1, true) - share(r, 0, true)) * PERCENT);
		rep_json_end(j);
	}
	rep_json_end(j);
}

/**
 * rep_diff_json() - the comparison of two traces as one JSON document
 * @out: the stream
 * @db: their database
 * @p: the traces, loaded
 *
 * Return: 0 or -ENOMEM.
 */
int rep_diff_json(FILE *out, const struct rep_rdb *db, const struct rep_diff_pair *p)
{
	struct rep_json j;
	struct diff df;
	int err = diff_build(&df, p);

	if (err)
		return err;
	rep_json_init(&j, out);
	rep_json_obj(&j, NULL, false);
	rep_json_int(&j, "schema_version", db->schema_version);
	json_trace(&j, "a", p->a);
	json_trace(&j, "b", p->b);
	json_checks(&j, &df);
	json_residency(&j, db, &df);
	rep_json_end(&j);
	diff_free(&df);
	return 0;
}
