/* SPDX-License-Identifier: MIT */
/*
 * analyze/store/db.h - the results database of `ucval analyze` (events.md §5).
 *
 * One SQLite file holds many traces. Each trace is written in one
 * transaction (an_db_trace_begin() .. an_db_trace_commit()): a crash in the
 * middle leaves earlier traces intact and no half-written one. Re-analyzing a
 * trace with the same sha256 and options replaces its rows.
 *
 * A trace's transaction may also open before its analysis ends
 * (an_db_trace_open() .. an_db_trace_set() .. an_db_trace_commit()), so that
 * its intervals stream in (an_db_series_put()) while the trace is read.
 */
#ifndef UCVAL_ANALYZE_STORE_DB_H
#define UCVAL_ANALYZE_STORE_DB_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/diag.h"

/* Schema version in PRAGMA user_version; a newer file is refused (AN_E_SCHEMA). */
#define AN_DB_SCHEMA_VERSION	4
/*
 * How long a writer waits for another (`-j N`, or another process) to
 * finish its trace. A trace that streams its rows in holds the lock for its
 * whole analysis (an_db_trace_open()), minutes for a long trace: waiting
 * that long beats failing with "database is locked".
 */
#define AN_DB_BUSY_TIMEOUT_MS	(15 * 60 * 1000)

struct an_db;
struct an_series;
struct an_series_rec;

/**
 * struct an_db_trace - one row of `traces`
 * @path: the trace file as given
 * @format: "trace.dat", "ftrace-text", "systrace-html" or "perfetto"
 * @sha256: hex digest of the file's bytes
 * @n_events: records read
 * @t_start_ns: first timestamp, the trace's own clock
 * @t_end_ns: last timestamp
 * @model: "v3" or "mainline" (with fidelity, e.g. "v3/intent")
 * @options: canonical text of the analysis options (part of the identity)
 * @kernel: release string, NULL when unknown
 * @analyzed_at: ISO 8601 UTC time; injectable for deterministic tests
 * @events_not_recorded: the scheduler events the replay follows that the
 *			 trace has none of, space separated (analyze/evlist.h),
 *			 "" when it has them all; NULL when not said
 */
struct an_db_trace {
	const char *path;
	const char *format;
	const char *sha256;
	uint64_t n_events;
	int64_t t_start_ns;
	int64_t t_end_ns;
	const char *model;
	const char *options;
	const char *kernel;
	const char *analyzed_at;
	const char *events_not_recorded;
};

/* One row of `verdicts`: verdict is "PASS", "FAIL" or "UNDECIDED". */
struct an_db_verdict {
	const char *check_id;
	const char *verdict;
	uint64_t n_checked;
	uint64_t n_failed;
	uint64_t n_undecided;
	const char *reason;		/* why UNDECIDED (missing input ...), or NULL */
};

/*
 * One row of `mismatches` (or of `undecided` windows). A negative cpu or pid
 * is stored as NULL. expected/observed are stored as integers unless the
 * *_text member is set (e.g. "EINVAL").
 */
struct an_db_window {
	const char *check_id;
	int cpu;
	int pid;
	int64_t ts_start_ns;
	int64_t ts_end_ns;
	long long expected;
	long long observed;
	const char *expected_text;
	const char *observed_text;
	const char *rule;
	const char *message;
	const char *explain;		/* the model's explanation chain, or NULL */
};

/* One row of `rule_coverage` (schema 4): rule coverage of one check (analyze/checks/cover.h). */
struct an_db_coverage {
	const char *check_id;
	const char *rule;
	uint64_t times;			/* comparisons whose expected value the rule decided */
	uint64_t decided_ns;		/* trace time they cover */
};

/*
 * A label of a trace (table trace_labels): `ucval analyze --tag key=value`.
 * Both strings are borrowed.
 */
struct an_db_label {
	const char *key;
	const char *value;
};

void an_db_setup_process(void);
bool an_db_is_own_table(const char *name);
int an_db_open(struct an_db **out, const char *path, struct an_diag *d);
void an_db_close(struct an_db *db);
int an_db_trace_begin(struct an_db *db, const struct an_db_trace *t, int64_t *trace_id,
		      struct an_diag *d);
int an_db_trace_open(struct an_db *db, const char *path, const char *options,
		     int64_t *trace_id, struct an_diag *d);
int an_db_trace_set(struct an_db *db, const struct an_db_trace *t, struct an_diag *d);
int an_db_series_put(struct an_db *db, const struct an_series_rec *rec, struct an_diag *d);
int an_db_verdict_add(struct an_db *db, const struct an_db_verdict *v, struct an_diag *d);
int an_db_mismatch_add(struct an_db *db, const struct an_db_window *w, struct an_diag *d);
int an_db_undecided_add(struct an_db *db, const struct an_db_window *w, struct an_diag *d);
int an_db_coverage_add(struct an_db *db, const struct an_db_coverage *c, struct an_diag *d);
int an_db_series_add(struct an_db *db, struct an_series *s, struct an_diag *d);
int an_db_label_add(struct an_db *db, const char *key, const char *value, struct an_diag *d);
int an_db_trace_commit(struct an_db *db, struct an_diag *d);
void an_db_trace_abort(struct an_db *db);

#endif /* UCVAL_ANALYZE_STORE_DB_H */
