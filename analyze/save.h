/* SPDX-License-Identifier: MIT */
/*
 * analyze/save.h - store one analyzed trace in the database of `ucval
 * analyze --db` (events.md §5): its row, verdicts, windows and series in
 * one transaction, so its rows appear all at once or not at all.
 */
#ifndef UCVAL_ANALYZE_SAVE_H
#define UCVAL_ANALYZE_SAVE_H

#include "analyze/store/db.h"
#include "analyze/tracerun.h"
#include "lib/diag.h"

/**
 * an_save_trace() - write @t's rows and commit them
 * @db: the open database
 * @options: the analysis' canonical option text (the traces.options column)
 * @labels: the trace's labels (`--tag`), borrowed; the trace's kernel
 *	    release is added as label `kernel` unless one is given
 * @nr_labels: how many
 * @t: a run an_tracerun_conclude() finished; when @t->is_streamed its
 *     transaction is already open with its series in (analyze/stream.h)
 * @d: diagnostic on failure
 *
 * The analysis time is the clock's, or $UCVAL_NOW when set (tests pin it).
 * On failure the transaction is rolled back: the trace leaves no row.
 *
 * Return: 0 or the database's error.
 */
int an_save_trace(struct an_db *db, const char *options, const struct an_db_label *labels,
		  size_t nr_labels, struct an_tracerun *t, struct an_diag *d);

#endif /* UCVAL_ANALYZE_SAVE_H */
