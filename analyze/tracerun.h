/* SPDX-License-Identifier: MIT */
/*
 * analyze/tracerun.h - what `ucval analyze` learns of one trace: its hash,
 * counters, windows and (for --db) intervals, from which its database rows,
 * its table and its JSON object are written (analyze/save.h, table.h,
 * jsonout.h).
 */
#ifndef UCVAL_ANALYZE_TRACERUN_H
#define UCVAL_ANALYZE_TRACERUN_H

#include <stdbool.h>

#include "analyze/analyze.h"
#include "analyze/store/series.h"
#include "analyze/store/winbuf.h"
#include "lib/diag.h"
#include "lib/sha256.h"

/* Room for the model label: "mainline", "v3/intent", "v3/seed". */
#define AN_TRACERUN_MODEL_LEN	24

/**
 * struct an_tracerun - one trace's analysis
 * @path: the trace as given; borrowed (argv)
 * @sha256: the hash of its bytes as the analysis read them, hex
 * @res: the check counters; windows go to @wins
 * @sum: what the analysis saw and assumed
 * @wins: every window, kept until written
 * @series: intervals and requests, recorded only for --db
 * @model: the model label of the database and JSON ("v3/intent")
 * @status: this trace's exit status (lib/exit.h)
 * @is_streamed: its transaction is open and its series written
 *		 (analyze/stream.h), the rest follows in an_save_trace()
 */
struct an_tracerun {
	const char *path;
	char sha256[AN_SHA256_HEX_LEN + 1];
	struct an_results res;
	struct an_summary sum;
	struct an_winbuf wins;
	struct an_series series;
	char model[AN_TRACERUN_MODEL_LEN];
	int status;
	bool is_streamed;
};

/**
 * an_tracerun_new() - an empty run of @path
 * @path: the trace; borrowed, must outlive the run
 * @has_series: record intervals and requests (for --db)
 *
 * Return: the run, to be freed with an_tracerun_free(); NULL when out of
 * memory.
 */
struct an_tracerun *an_tracerun_new(const char *path, bool has_series);

/**
 * an_tracerun_analyze() - analyze the trace while another thread hashes it
 * @t: the run
 * @an: the analysis options (their tap is this function's)
 * @d: diagnostic on failure
 *
 * The hash is of the bytes the reader reads, handed to a thread of its own
 * as they are read (struct an_source_tap): any input, a pipe included, is
 * read once. Only a trace.dat file, which its reader reads out of order,
 * is read again by the hash thread, from the reader's open file. The hash
 * ends with the reading: an analysis that fails stops it.
 *
 * Return: 0, an_analyze_path()'s error, or the hash's (a trace.dat file
 * that cannot be read again, or changed while it was read).
 */
int an_tracerun_analyze(struct an_tracerun *t, const struct an_analyze_opts *an,
			struct an_diag *d);

/**
 * an_tracerun_conclude() - name the model and decide the exit status
 * @t: a run an_tracerun_analyze() succeeded on
 * @fidelity: the v3 fidelity asked for (part of the v3 label)
 * @is_strict: undecided windows that may hide a failure count as one
 *
 * The status is UCVAL_EXIT_FAIL when a check failed, else
 * UCVAL_EXIT_UNDECIDED (UCVAL_EXIT_FAIL with @is_strict) when a check's
 * undecided windows may hide a failure, else UCVAL_EXIT_OK.
 */
void an_tracerun_conclude(struct an_tracerun *t, enum model_fidelity fidelity, bool is_strict);

/**
 * an_tracerun_free() - free @t, its windows and its series
 * @t: the run, may be NULL
 */
void an_tracerun_free(struct an_tracerun *t);

#endif /* UCVAL_ANALYZE_TRACERUN_H */
