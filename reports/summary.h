/* SPDX-License-Identifier: MIT */
/*
 * reports/summary.h - the summary of a results database: per trace a header,
 * the verdict table, the longest mismatch windows per check with their
 * explanation chains, and the frequency residency. Written through
 * reports/doc.h, so the same content comes out as text, markdown or HTML.
 */
#ifndef UCVAL_REPORTS_SUMMARY_H
#define UCVAL_REPORTS_SUMMARY_H

#include <stdio.h>

#include "reports/doc.h"
#include "reports/rdb.h"

/* What a report covers: some traces of one database, loaded. */
struct rep_sel {
	struct rep_rdb *db;
	struct rep_trace *const *traces;
	size_t nr;
	unsigned int top;		/* windows shown per check; 0: all loaded */
};

int rep_summary_write(FILE *out, const struct rep_sel *sel, enum rep_style style);
int rep_summary_overview(struct rep_doc *doc, const struct rep_sel *sel);
int rep_summary_trace(struct rep_doc *doc, const struct rep_sel *sel, const struct rep_trace *t);

#endif /* UCVAL_REPORTS_SUMMARY_H */
