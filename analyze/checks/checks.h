/* SPDX-License-Identifier: MIT */
/*
 * analyze/checks/checks.h - the checks the analysis attaches to a replay: the
 * attach function of each (one file each, analyze/checks/check_<id>.c) and
 * the table an_checks_builtin[] (checks.c) that lists them. Adding a check:
 * write its file, declare its attach function here, add its row to checks.c.
 * Nothing in the replay changes.
 */
#ifndef UCVAL_ANALYZE_CHECKS_CHECKS_H
#define UCVAL_ANALYZE_CHECKS_CHECKS_H

#include "analyze/checks/check.h"
#include "lib/diag.h"
#include "analyze/replay/replay.h"

/**
 * struct an_check_desc - one check the analysis can attach
 * @id: its check id
 * @attach: allocate the check's state and register its observers with
 *	    an_replay_add_observer(); its windows and counters go to @res
 *	    (borrowed for the replay's life). Return 0 or a negative code
 *	    (with @d)
 */
struct an_check_desc {
	enum an_check_id id;
	int (*attach)(struct an_replay *r, struct an_results *res, struct an_diag *d);
};

/* The checks the analysis attaches, in this order (checks.c). */
extern const struct an_check_desc an_checks_builtin[];
extern const unsigned int an_checks_nr_builtin;

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
