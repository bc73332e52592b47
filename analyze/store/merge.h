/* SPDX-License-Identifier: MIT */
/*
 * analyze/store/merge.h - combine results databases (`ucval merge`): the
 * traces of many shards, each analyzed on its own machine, into one file.
 *
 * Every table with a trace_id column is carried, found from the schema, so
 * a table added later is merged without a change here. A trace with the
 * same sha256 and options as one already there replaces it, as `ucval
 * analyze --db` does: merging twice gives the same database. The output is
 * written into a temporary file beside it and renamed over it at the end:
 * a kill leaves it as it was, or complete.
 */
#ifndef UCVAL_ANALYZE_STORE_MERGE_H
#define UCVAL_ANALYZE_STORE_MERGE_H

#include <stdint.h>

#include "lib/diag.h"

/**
 * struct an_merge_stats - what a merge did
 * @nr_traces: traces copied from the shards
 * @nr_replaced: of them, how many replaced a trace already there (same
 *		 sha256 and options, in the output or an earlier shard)
 * @nr_rows: rows copied, traces included
 */
struct an_merge_stats {
	uint64_t nr_traces;
	uint64_t nr_replaced;
	uint64_t nr_rows;
};

/**
 * an_merge() - merge @shards into the database @out
 * @out: the output; created when missing, else its traces are kept
 * @shards: the shard paths, borrowed; read only
 * @nr_shards: how many (at least one)
 * @st: filled with what was done
 * @d: filled on failure
 *
 * Each shard is checked before anything is written: a shard of another
 * schema version, a file that is not a ucval results database, or @out
 * itself is refused. Memory does not grow with the shards' sizes: rows go
 * from file to file inside SQLite (INSERT ... SELECT, one trace at a time).
 *
 * Return: 0, AN_E_SCHEMA (schema version), AN_E_DB (not a results
 * database, unwritable output ...), -ENOMEM or another negative errno.
 * On failure @out is as it was.
 */
int an_merge(const char *out, char *const *shards, int nr_shards, struct an_merge_stats *st,
	     struct an_diag *d);

#endif /* UCVAL_ANALYZE_STORE_MERGE_H */
