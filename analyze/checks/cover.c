// SPDX-License-Identifier: MIT
/*
 * analyze/checks/cover.c - rule coverage counters (cover.h).
 */
#include <stdint.h>

#include "analyze/checks/cover.h"

/* model_rule_index() of @rule, remembered by the string's address. */
static int index_of(struct an_results *res, const char *rule)
{
	/* Fibonacci hashing: literals lie a few bytes apart */
	size_t slot = (size_t)(((uint64_t)(uintptr_t)rule * UINT64_C(0x9e3779b97f4a7c15)) >> 32) &
		      (AN_COVER_MEMO - 1);

	if (res->cover_memo[slot].id != rule) {
		res->cover_memo[slot].id = rule;
		res->cover_memo[slot].row = model_rule_index(rule);
	}
	return res->cover_memo[slot].row;
}

/* The row of @rule if the spec defines it for @variant, else -1 (counted foreign). */
static int row_of(struct an_results *res, enum model_variant variant, const char *rule)
{
	int row;

	if (!rule || !rule[0])
		return -1;
	row = index_of(res, rule);
	if (!model_rule_in_variant(row, variant)) {
		res->n_cover_foreign++;
		return -1;
	}
	return row;
}

/**
 * an_cover_count() - one comparison of @check whose expected value @rule decided
 * @res: the results
 * @check: the check that compared
 * @variant: the model's variant: @rule must be one of its rules
 * @rule: the rule ID; NULL or "" counts nothing
 *
 * Return: the rule's row (for an_cover_time()), or -1 when not counted.
 */
int an_cover_count(struct an_results *res, enum an_check_id check,
		   enum model_variant variant, const char *rule)
{
	int row = row_of(res, variant, rule);

	if (row >= 0)
		res->cover[check][row].times++;
	return row;
}

/**
 * an_cover_time() - add @ns of covered trace time to row @row of @check
 * @res: the results
 * @check: the check
 * @row: from an_cover_count(); negative adds nothing
 * @ns: the time
 */
void an_cover_time(struct an_results *res, enum an_check_id check, int row, uint64_t ns)
{
	if (row >= 0 && row < MODEL_RULES_NR)
		res->cover[check][row].decided_ns += ns;
}

/**
 * an_cover_set_add() - add @rule to @set once
 * @res: the results (foreign rules are counted there)
 * @variant: the model's variant
 * @set: the set
 * @rule: the rule ID; NULL or "" adds nothing
 */
void an_cover_set_add(struct an_results *res, enum model_variant variant,
		      struct an_cover_set *set, const char *rule)
{
	int row = row_of(res, variant, rule);

	if (row < 0)
		return;
	for (unsigned int i = 0; i < set->nr; i++)
		if (set->row[i] == row)
			return;
	if (set->nr < AN_COVER_MAX)
		set->row[set->nr++] = (short)row;
}

/**
 * an_cover_set_chain() - add every rule of a model explanation chain to @set
 * @res: the results
 * @variant: the model's variant
 * @set: the set
 * @ex: the chain model_su_*() returned
 */
void an_cover_set_chain(struct an_results *res, enum model_variant variant,
			struct an_cover_set *set, const struct model_su_explain *ex)
{
	for (unsigned int i = 0; i < ex->nr && i < MODEL_SU_EXPLAIN_MAX; i++)
		an_cover_set_add(res, variant, set, ex->step[i].rule);
}

/**
 * an_cover_set_count() - one comparison of @check decided by the rules of @set
 * @res: the results
 * @check: the check
 * @set: the rules
 */
void an_cover_set_count(struct an_results *res, enum an_check_id check,
			const struct an_cover_set *set)
{
	for (unsigned int i = 0; i < set->nr; i++)
		res->cover[check][set->row[i]].times++;
}

/**
 * an_cover_set_time() - add @ns of covered trace time to each rule of @set
 * @res: the results
 * @check: the check
 * @set: the rules
 * @ns: the time
 */
void an_cover_set_time(struct an_results *res, enum an_check_id check,
		       const struct an_cover_set *set, uint64_t ns)
{
	for (unsigned int i = 0; i < set->nr; i++)
		res->cover[check][set->row[i]].decided_ns += ns;
}
