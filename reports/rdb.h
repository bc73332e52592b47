/* SPDX-License-Identifier: MIT */
/*
 * reports/rdb.h - the results database of `ucval analyze --db` read into
 * structs for the report writers (events.md §5 and schema version 2). The
 * writers never see SQL; the traces are never parsed again.
 *
 * Schema 1 files have no v2 tables: rep_rdb_has() says so and the writers
 * print "not recorded" for those sections.
 */
#ifndef UCVAL_REPORTS_RDB_H
#define UCVAL_REPORTS_RDB_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/diag.h"
#include "reports/arena.h"

struct sqlite3;
struct sqlite3_stmt;

/* Room for "not recorded (database schema N)". */
#define REP_MISSING_LEN	48

/* The tables that schema version 2 adds (and rule_coverage, version 4). */
enum rep_v2_table {
	REP_T_TASKS,
	REP_T_POLICIES,
	REP_T_CPUS,
	REP_T_CLAMP_INTERVALS,
	REP_T_FREQ_INTERVALS,
	REP_T_FREQ_RESIDENCY,
	REP_T_TASK_REQUESTS,
	REP_T_RULE_COVERAGE,
	REP_T__COUNT,
};

/* expected/observed of a window: an integer, a word ("EINVAL") or NULL. */
struct rep_value {
	const char *text;		/* NULL when the column is NULL */
	bool is_int;
	long long v;			/* when is_int */
};

/**
 * struct rep_window - one row of `mismatches` (or of `undecided`)
 * @check_id: the check
 * @cpu: the CPU, -1 when NULL
 * @pid: the task, -1 when NULL
 * @comm: the task's name from `tasks`, NULL when unknown
 * @ts_start_ns: start on the trace's clock
 * @ts_end_ns: end on the trace's clock
 * @expected: the model's value (undecided windows: NULL)
 * @observed: the kernel's value (undecided windows: NULL)
 * @rule: the spec rule ID, NULL when none
 * @message: one line, NULL when none
 * @explain: the model's explanation chain, one step a line; NULL when none
 */
struct rep_window {
	const char *check_id;
	int cpu;
	int pid;
	const char *comm;
	int64_t ts_start_ns;
	int64_t ts_end_ns;
	struct rep_value expected;
	struct rep_value observed;
	const char *rule;
	const char *message;
	const char *explain;
};

/**
 * struct rep_verdict - one row of `verdicts` with its windows counted
 * @check_id: the check
 * @verdict: "PASS", "FAIL" or "UNDECIDED"
 * @n_checked: decisions taken
 * @n_failed: of which failed
 * @n_undecided: of which undecided
 * @reason: why UNDECIDED, NULL when none
 * @n_windows: rows of `mismatches` for this check
 * @fail_ns: their total length
 */
struct rep_verdict {
	const char *check_id;
	const char *verdict;
	int64_t n_checked;
	int64_t n_failed;
	int64_t n_undecided;
	const char *reason;
	int64_t n_windows;
	int64_t fail_ns;
};

/* One row of `freq_residency`, with each share of its policy's total. */
struct rep_residency {
	int policy;
	int64_t khz;
	int64_t observed_ns;
	int64_t expected_ns;
	double observed_share;		/* 0..1 of the policy's observed time */
	double expected_share;
};

/* One row of `rule_coverage`: a rule that decided values @check_id compared. */
struct rep_coverage {
	const char *check_id;
	const char *rule;
	int64_t times;
	int64_t decided_ns;
};

/**
 * struct rep_trace - one row of `traces` and, once loaded, what hangs off it
 * @trace_id .. @kernel: the columns (NULL strings where the column is NULL)
 * @is_loaded: rep_rdb_load() filled the arrays below
 * @verdicts: in the order analyze wrote them (events.md §4 order)
 * @windows: mismatches, grouped by check in verdict order, longest first;
 *           at most rep_load_opts.top per check
 * @undecided: undecided windows in the same order (only when asked for)
 * @residency: by policy, then kHz
 * @coverage: rule_coverage rows, by check (verdict order), then rule
 *	      (model/rules.h order)
 */
struct rep_trace {
	int64_t trace_id;
	const char *path;
	const char *format;
	const char *sha256;
	int64_t n_events;
	int64_t t_start_ns;
	int64_t t_end_ns;
	const char *model;
	const char *analyzed_at;
	const char *options;
	const char *kernel;
	bool is_loaded;
	struct rep_verdict *verdicts;
	size_t nr_verdicts, alloc_verdicts;
	struct rep_window *windows;
	size_t nr_windows, alloc_windows;
	struct rep_window *undecided;
	size_t nr_undecided, alloc_undecided;
	struct rep_residency *residency;
	size_t nr_residency, alloc_residency;
	struct rep_coverage *coverage;
	size_t nr_coverage, alloc_coverage;
};

/* What rep_rdb_load() reads besides verdicts and residency. */
struct rep_load_opts {
	unsigned int top;		/* mismatch windows per check, 0: all */
	bool with_undecided;		/* also the undecided windows (all) */
};

/**
 * struct rep_rdb - an open results database
 * @conn: the SQLite connection, read-only
 * @path: the file as given
 * @schema_version: its PRAGMA user_version
 * @has_table: which v2 tables exist
 * @has_explain: mismatches has the v2 column explain
 * @is_oom: an arena allocation failed while reading rows
 * @missing_text: what a section whose v2 table is absent says
 * @is_empty: the file holds no trace
 * @traces: every trace row, by trace_id (when opened with them)
 * @arena: the strings of all rows
 */
struct rep_rdb {
	struct sqlite3 *conn;
	const char *path;
	int schema_version;
	bool has_table[REP_T__COUNT];
	bool has_explain;
	bool is_oom;
	char missing_text[REP_MISSING_LEN];
	bool is_empty;
	struct rep_trace *traces;
	size_t nr_traces, alloc_traces;
	struct rep_arena arena;
};

int rep_rdb_open(struct rep_rdb **out, const char *path, bool with_traces,
		 struct an_diag *d);
void rep_rdb_free(struct rep_rdb *db);
bool rep_rdb_has(const struct rep_rdb *db, enum rep_v2_table table);
const char *rep_rdb_missing(const struct rep_rdb *db);
int rep_rdb_find(struct rep_rdb *db, const char *spec, struct rep_trace **out,
		 struct an_diag *d);
int rep_rdb_load(struct rep_rdb *db, struct rep_trace *t, const struct rep_load_opts *o,
		 struct an_diag *d);
int rep_rdb_fail(const struct rep_rdb *db, struct an_diag *d, const char *doing);

/* Called for each row of rep_rdb_scan(); a non-zero return stops the scan. */
typedef int (*rep_rdb_row_fn)(void *ctx, struct sqlite3_stmt *st);

int rep_rdb_scan(struct rep_rdb *db, const char *sql, int64_t trace_id, rep_rdb_row_fn fn,
		 void *ctx, struct an_diag *d);
int64_t rep_rdb_col_int(struct sqlite3_stmt *st, int col, int64_t if_null);

#endif /* UCVAL_REPORTS_RDB_H */
