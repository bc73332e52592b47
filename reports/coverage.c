// SPDX-License-Identifier: MIT
/*
 * reports/coverage.c - the rules of a trace's variant that decided nothing
 * (coverage.h).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "reports/coverage.h"
#include "reports/fmt.h"

/* A trace analyzed before schema 4, in a file upgraded since. */
#define NOT_RECORDED	"not recorded for this trace (analyzed before database schema 4)"

/* Room for the list of a variant's rules, "MB1 MB2 ...". */
#define LIST_LEN	(MODEL_RULES_NR * 6)

static const struct rep_col cover_cols[] = {
	{ "check", false }, { "rule", false }, { "times", true }, { "decided ms", true },
	{ "meaning", false },
};

int rep_coverage_variant(const char *model, enum model_variant *out)
{
	if (!model)
		return -1;
	if (!strncmp(model, "v3", 2)) {
		*out = MODEL_V3;
		return 0;
	}
	if (!strncmp(model, "mainline", 8)) {
		*out = MODEL_MAINLINE;
		return 0;
	}
	return -1;
}

static bool is_counted(const struct rep_trace *t, const char *id)
{
	for (size_t i = 0; i < t->nr_coverage; i++)
		if (t->coverage[i].rule && !strcmp(t->coverage[i].rule, id) &&
		    t->coverage[i].times > 0)
			return true;
	return false;
}

size_t rep_coverage_missing(const struct rep_trace *t, enum model_variant variant, int *rows,
			    size_t max, size_t *nr_rules)
{
	size_t n = 0;

	*nr_rules = 0;
	for (int i = 0; i < MODEL_RULES_NR; i++) {
		if (!model_rule_in_variant(i, variant))
			continue;
		(*nr_rules)++;
		if (!is_counted(t, model_rules[i].id) && n < max)
			rows[n++] = i;
	}
	return n;
}

/*
 * Whether @t's coverage was recorded: the table exists, and the trace has
 * rows or no check with model rules compared anything (a trace analyzed
 * before schema 4 in a file upgraded since has no rows despite its checks).
 */
static bool is_recorded(const struct rep_rdb *db, const struct rep_trace *t)
{
	if (!rep_rdb_has(db, REP_T_RULE_COVERAGE))
		return false;
	if (t->nr_coverage)
		return true;
	for (size_t i = 0; i < t->nr_verdicts; i++)
		if (t->verdicts[i].n_checked && t->verdicts[i].check_id &&
		    strcmp(t->verdicts[i].check_id, "trace_integrity"))
			return false;
	return true;
}

static const char *meaning_of(const char *rule)
{
	int row = model_rule_index(rule);

	return row < 0 ? "" : model_rules[row].meaning;
}

static void missing_list(const struct rep_trace *t, enum model_variant variant, char *buf,
			 size_t len, size_t *nr, size_t *nr_rules)
{
	int rows[MODEL_RULES_NR];
	size_t at = 0;

	*nr = rep_coverage_missing(t, variant, rows, MODEL_RULES_NR, nr_rules);
	buf[0] = '\0';
	for (size_t i = 0; i < *nr && at + 8 < len; i++) {
		int n = snprintf(buf + at, len - at, "%s%s", i ? " " : "", model_rules[rows[i]].id);

		if (n > 0)
			at += (size_t)n;
	}
}

/**
 * rep_coverage_section() - the report's "rule coverage" section of @t
 * @doc: where, in which style
 * @db: the database (whether it has the table)
 * @t: the trace, loaded
 *
 * A table (check, rule, times, decided ms, meaning) of the rules that
 * decided values a check compared, then the variant's rules that decided
 * none.
 *
 * Return: 0 or -ENOMEM.
 */
int rep_coverage_section(struct rep_doc *doc, const struct rep_rdb *db,
			 const struct rep_trace *t)
{
	char list[LIST_LEN], ms[REP_FMT_LEN];
	enum model_variant variant;
	size_t nr, nr_rules;
	struct rep_table tab;
	int err = 0;

	rep_doc_heading(doc, 2, "rule coverage (rules that decided a compared value)");
	if (!rep_rdb_has(db, REP_T_RULE_COVERAGE)) {
		rep_doc_para(doc, "%s", rep_rdb_missing(db));
		return 0;
	}
	if (!is_recorded(db, t)) {
		rep_doc_para(doc, "%s", NOT_RECORDED);
		return 0;
	}
	if (!t->nr_coverage) {
		rep_doc_para(doc, "no rule decided a compared value");
	} else {
		rep_table_init(&tab, cover_cols, sizeof(cover_cols) / sizeof(cover_cols[0]));
		for (size_t i = 0; i < t->nr_coverage; i++) {
			const struct rep_coverage *c = &t->coverage[i];

			rep_table_cell(&tab, "%s", rep_fmt_or(c->check_id, "-"));
			rep_table_cell(&tab, "%s", rep_fmt_or(c->rule, "-"));
			rep_table_cell(&tab, "%" PRId64, c->times);
			rep_table_cell(&tab, "%s", rep_fmt_ms(ms, c->decided_ns));
			rep_table_cell(&tab, "%s", meaning_of(c->rule));
		}
		err = rep_doc_table(doc, &tab);
		rep_table_free(&tab);
	}
	if (err || rep_coverage_variant(t->model, &variant))
		return err;
	missing_list(t, variant, list, sizeof(list), &nr, &nr_rules);
	rep_doc_para(doc, "not exercised: %zu of the %zu rules of %s and schedutil%s%s", nr,
		     nr_rules, variant == MODEL_V3 ? "v3" : "mainline", nr ? ": " : "", list);
	return 0;
}

/**
 * rep_coverage_json() - the keys "rule_coverage" and "rules_not_exercised"
 * of @t's object
 * @j: the writer, inside the trace's object
 * @db: the database
 * @t: the trace, loaded
 *
 * Both are null when the trace's coverage was not recorded (no
 * rule_coverage table, or a trace analyzed before it); the second also when
 * the trace's model names no variant.
 */
void rep_coverage_json(struct rep_json *j, const struct rep_rdb *db, const struct rep_trace *t)
{
	int rows[MODEL_RULES_NR];
	enum model_variant variant;
	size_t nr, nr_rules;

	if (!is_recorded(db, t)) {
		rep_json_null(j, "rule_coverage");
		rep_json_null(j, "rules_not_exercised");
		return;
	}
	rep_json_arr(j, "rule_coverage", false);
	for (size_t i = 0; i < t->nr_coverage; i++) {
		const struct rep_coverage *c = &t->coverage[i];

		rep_json_obj(j, NULL, true);
		rep_json_str(j, "check_id", c->check_id);
		rep_json_str(j, "rule", c->rule);
		rep_json_int(j, "times", c->times);
		rep_json_int(j, "decided_ns", c->decided_ns);
		rep_json_end(j);
	}
	rep_json_end(j);
	if (rep_coverage_variant(t->model, &variant)) {
		rep_json_null(j, "rules_not_exercised");
		return;
	}
	nr = rep_coverage_missing(t, variant, rows, MODEL_RULES_NR, &nr_rules);
	rep_json_arr(j, "rules_not_exercised", true);
	for (size_t i = 0; i < nr; i++)
		rep_json_str(j, NULL, model_rules[rows[i]].id);
	rep_json_end(j);
}
