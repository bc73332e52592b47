/* SPDX-License-Identifier: MIT */
/*
 * analyze/checks/checks.h - the attach functions of the checks (one file each,
 * analyze/check_<id>.c) that an_checks_builtin[] (checks.c) lists. Adding a
 * check: write its file, declare its attach function here, add its row to
 * checks.c. Nothing in replay.c changes.
 */
#ifndef UCVAL_ANALYZE_CHECKS_CHECKS_H
#define UCVAL_ANALYZE_CHECKS_CHECKS_H

#include "analyze/replay/replay.h"

int an_check_rq_clamp_attach(struct an_replay *r, struct an_results *res,
			     struct an_diag *d);
int an_check_task_effective_attach(struct an_replay *r, struct an_results *res,
				   struct an_diag *d);
int an_check_request_result_attach(struct an_replay *r, struct an_results *res,
				   struct an_diag *d);
int an_check_groups_exhausted_attach(struct an_replay *r, struct an_results *res,
				     struct an_diag *d);
int an_check_trace_integrity_attach(struct an_replay *r, struct an_results *res,
				    struct an_diag *d);
int an_check_freq_below_min_clamp_attach(struct an_replay *r, struct an_results *res,
					 struct an_diag *d);
int an_check_freq_above_max_clamp_attach(struct an_replay *r, struct an_results *res,
					 struct an_diag *d);
int an_check_freq_prediction_attach(struct an_replay *r, struct an_results *res,
				    struct an_diag *d);

#endif /* UCVAL_ANALYZE_CHECKS_CHECKS_H */
