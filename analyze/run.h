/* SPDX-License-Identifier: MIT */
/*
 * analyze/run.h - the runs of `ucval analyze`: its traces shared among -j
 * worker processes, each analyzing its traces one after the other and
 * writing each (database rows, table, JSON part) as soon as it is done.
 *
 * Each trace is analyzed first and written afterwards in one short
 * transaction, so `-j N` workers share a database without waiting on each
 * other's reading, and an unreadable trace leaves no row. With several
 * traces, a worker's writes run in a thread of their own while it analyzes
 * the next trace; a worker's only trace streams its rows in while it is
 * read (analyze/stream.h). Messages go to stderr, prefixed "ucval
 * analyze:", as the command's own; tables go to stdout, a trace's whole.
 */
#ifndef UCVAL_ANALYZE_RUN_H
#define UCVAL_ANALYZE_RUN_H

#include <stdbool.h>

#include "analyze/analyze.h"
#include "analyze/store/db.h"

/* Largest -j: beyond the cores, workers only contend. */
#define AN_RUN_MAX_JOBS	64

/**
 * struct an_run_opts - what `ucval analyze` was asked to do
 * @db_path: --db, or NULL
 * @is_strict: undecided windows that may hide a failure count as one
 * @is_quiet: no table on standard output
 * @jobs: worker processes (1 to AN_RUN_MAX_JOBS)
 * @an: the analysis options, the same for every trace
 * @options: the analysis' canonical option text (its identity in the
 *	     database and the JSON); borrowed
 * @labels: the labels of every trace (--tag), borrowed
 * @nr_labels: how many
 * @traces: the trace paths; borrowed (argv)
 * @nr_traces: how many
 */
struct an_run_opts {
	const char *db_path;
	bool is_strict;
	bool is_quiet;
	unsigned long jobs;
	struct an_analyze_opts an;
	const char *options;
	const struct an_db_label *labels;
	size_t nr_labels;
	char **traces;
	int nr_traces;
};

/**
 * an_run_all() - analyze and write every trace
 * @o: the options
 * @json_dir: the JSON parts' directory (analyze/jsonout.h), NULL without
 *	      --json
 *
 * Forks @o->jobs workers when more than one (and more than one trace);
 * a worker takes traces i, i + jobs, ... An unreadable trace is reported
 * and the others go on.
 *
 * Return: the exit status of events.md §4, the worst over the traces: an
 * unreadable trace (2) before a failure (1) before doubt (3).
 */
int an_run_all(const struct an_run_opts *o, const char *json_dir);

#endif /* UCVAL_ANALYZE_RUN_H */
