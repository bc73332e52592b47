/* SPDX-License-Identifier: MIT */
/*
 * analyze/checks/cover.h - rule coverage: per check and rule of the model
 * (model/rules.h), how often the rule decided an expected value that the
 * check then compared with the kernel, and the trace time those
 * comparisons cover. Counted where a check compares (n_checked), never
 * where model code merely runs.
 *
 * What decided_ns covers, by kind of comparison:
 *  - an interval (the frequency checks): its length, from the judgement that
 *    opened it to the next change of the key; the rate limit comparison
 *    (S15, S16): the time between the two changes it compares;
 *  - a sample of a value the model holds over time (rq_clamp): the time from
 *    the model's last change of that value to the sample, clipped at the
 *    key's previous comparison so that no instant counts twice;
 *  - a sample the model decides at that instant (task_effective,
 *    request_result, groups_exhausted): 0.
 */
#ifndef UCVAL_ANALYZE_CHECKS_COVER_H
#define UCVAL_ANALYZE_CHECKS_COVER_H

#include <stdint.h>

#include "analyze/checks/check.h"
#include "model/schedutil.h"

/* Most distinct rules one comparison counts (a chain and the check's rule). */
#define AN_COVER_MAX	(MODEL_SU_EXPLAIN_MAX + 2)

/**
 * struct an_cover_set - the distinct rules behind one comparison
 * @row: rows of model_rules[]
 * @nr: entries of @row
 */
struct an_cover_set {
	short row[AN_COVER_MAX];
	unsigned int nr;
};

int an_cover_count(struct an_results *res, enum an_check_id check,
		   enum model_variant variant, const char *rule);
void an_cover_time(struct an_results *res, enum an_check_id check, int row, uint64_t ns);
void an_cover_set_add(struct an_results *res, enum model_variant variant,
		      struct an_cover_set *set, const char *rule);
void an_cover_set_chain(struct an_results *res, enum model_variant variant,
			struct an_cover_set *set, const struct model_su_explain *ex);
void an_cover_set_count(struct an_results *res, enum an_check_id check,
			const struct an_cover_set *set);
void an_cover_set_time(struct an_results *res, enum an_check_id check,
		       const struct an_cover_set *set, uint64_t ns);

#endif /* UCVAL_ANALYZE_CHECKS_COVER_H */
