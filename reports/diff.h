/* SPDX-License-Identifier: MIT */
/*
 * reports/diff.h - what changed from one analyzed trace to another (a
 * kernel before and after a patch, two runs of a workload): verdicts,
 * mismatch windows per check, frequency residency per policy and OPP.
 */
#ifndef UCVAL_REPORTS_DIFF_H
#define UCVAL_REPORTS_DIFF_H

#include <stdio.h>

#include "reports/doc.h"
#include "reports/rdb.h"

/* The two traces compared: B against A, both loaded. */
struct rep_diff_pair {
	const struct rep_trace *a;
	const struct rep_trace *b;
};

int rep_diff_text(FILE *out, const struct rep_rdb *db, const struct rep_diff_pair *p,
		  enum rep_style style);
int rep_diff_json(FILE *out, const struct rep_rdb *db, const struct rep_diff_pair *p);

#endif /* UCVAL_REPORTS_DIFF_H */
