// SPDX-License-Identifier: MIT
/*
 * reports/rdb.c - reading a results database (events.md §5, schema v2) into
 * struct rep_trace. Read-only: a report never changes the file, and may run
 * while `ucval analyze -j N` appends to it (WAL, busy timeout).
 *
 * Workload: up to thousands of traces, each with up to hundreds of thousands
 * of windows; a text report needs only the longest few per check, so the
 * limit is applied in SQL, not after reading everything.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <sqlite3.h>

#include "analyze/store/db.h"
#include "lib/malloc.h"
#include "lib/vec.h"
#include "reports/rdb.h"

/* How long a report waits for a writer's transaction to end. */
#define BUSY_TIMEOUT_MS		AN_DB_BUSY_TIMEOUT_MS
/* Room for the window query with its optional v2 expressions. */
#define SQL_LEN			1024

static const char *const v2_table_name[REP_T__COUNT] = {
	[REP_T_TASKS] = "tasks",
	[REP_T_POLICIES] = "policies",
	[REP_T_CPUS] = "cpus",
	[REP_T_CLAMP_INTERVALS] = "clamp_intervals",
	[REP_T_FREQ_INTERVALS] = "freq_intervals",
	[REP_T_FREQ_RESIDENCY] = "freq_residency",
	[REP_T_TASK_REQUESTS] = "task_requests",
	[REP_T_RULE_COVERAGE] = "rule_coverage",
};

/* The v1 tables a file must have to be a ucval results database. */
static const char *const v1_tables[] = { "traces", "verdicts", "mismatches", "undecided" };

/**
 * rep_rdb_fail() - fill @d with SQLite's reason for the failed call
 * @db: the database
 * @d: the diagnostic
 * @doing: what failed, e.g. "cannot read the verdicts"
 *
 * Return: AN_E_DB.
 */
int rep_rdb_fail(const struct rep_rdb *db, struct an_diag *d, const char *doing)
{
	return an_diag_fail(d, AN_E_DB, "%s: %s", doing,
			    db->conn ? sqlite3_errmsg(db->conn) : "no connection");
}

static int prepare(struct rep_rdb *db, const char *sql, sqlite3_stmt **st, struct an_diag *d)
{
	if (sqlite3_prepare_v2(db->conn, sql, -1, st, NULL) == SQLITE_OK)
		return 0;
	*st = NULL;
	return rep_rdb_fail(db, d, "cannot query the database");
}

/* Column @i as a string copied into the arena; NULL stays NULL. */
static const char *col_str(struct rep_rdb *db, sqlite3_stmt *st, int i)
{
	const char *s = (const char *)sqlite3_column_text(st, i);
	char *copy;

	if (!s)
		return NULL;
	copy = rep_arena_strdup(&db->arena, s);
	if (!copy)
		db->is_oom = true;
	return copy;
}

/**
 * rep_rdb_col_int() - an integer column of the current row
 * @st: the statement, on a row
 * @col: 0-based column
 * @if_null: what a NULL reads as
 *
 * Return: the value.
 */
int64_t rep_rdb_col_int(sqlite3_stmt *st, int col, int64_t if_null)
{
	if (sqlite3_column_type(st, col) == SQLITE_NULL)
		return if_null;
	return sqlite3_column_int64(st, col);
}

#define col_int rep_rdb_col_int

static struct rep_value col_value(struct rep_rdb *db, sqlite3_stmt *st, int i)
{
	struct rep_value v = { .text = col_str(db, st, i) };

	if (sqlite3_column_type(st, i) == SQLITE_INTEGER) {
		v.is_int = true;
		v.v = sqlite3_column_int64(st, i);
	}
	return v;
}

/*
 * End of a row loop: SQLITE_DONE is success, anything else is SQLite's error,
 * and an arena failure on the way is -ENOMEM.
 */
static int finish(struct rep_rdb *db, sqlite3_stmt *st, int rc, struct an_diag *d,
		  const char *doing)
{
	int err = 0;

	if (db->is_oom)
		err = an_diag_fail(d, -ENOMEM, "%s: out of memory", doing);
	else if (rc != SQLITE_DONE)
		err = rep_rdb_fail(db, d, doing);
	sqlite3_finalize(st);
	return err;
}

/*
 * Run @sql with ?1 = @p1 and ?2 = @p2 (where the statement has them),
 * calling @fn on each row. @doing names the step in a failure message.
 */
static int query(struct rep_rdb *db, const char *sql, int64_t p1, int64_t p2, rep_rdb_row_fn fn,
		 void *ctx, const char *doing, struct an_diag *d)
{
	sqlite3_stmt *st;
	int err = prepare(db, sql, &st, d);
	int rc;

	if (err)
		return err;
	if (sqlite3_bind_parameter_count(st) >= 1)
		sqlite3_bind_int64(st, 1, p1);
	if (sqlite3_bind_parameter_count(st) >= 2)
		sqlite3_bind_int64(st, 2, p2);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		err = fn(ctx, st);
		if (err) {
			sqlite3_finalize(st);
			return an_diag_fail(d, err, "%s: %s", doing, an_error_str(err));
		}
	}
	return finish(db, st, rc, d, doing);
}

/* Whether a one-value query of @sql bound to @name returns a row. */
static int query_exists(struct rep_rdb *db, const char *sql, const char *name, bool *exists,
			struct an_diag *d)
{
	sqlite3_stmt *st;
	int err = prepare(db, sql, &st, d);
	int rc;

	if (err)
		return err;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	*exists = rc == SQLITE_ROW;
	return finish(db, st, rc == SQLITE_ROW ? SQLITE_DONE : rc, d,
		      "cannot read the schema");
}

static int read_user_version(struct rep_rdb *db, struct an_diag *d)
{
	sqlite3_stmt *st;
	int err = prepare(db, "PRAGMA user_version", &st, d);
	int rc;

	if (err)
		return err;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		db->schema_version = sqlite3_column_int(st, 0);
	return finish(db, st, rc == SQLITE_ROW ? SQLITE_DONE : rc, d,
		      "cannot read the schema version");
}

/* Which tables and columns this file has: v1 ones are required, v2 optional. */
static int read_schema(struct rep_rdb *db, struct an_diag *d)
{
	static const char table_sql[] =
		"SELECT 1 FROM sqlite_master WHERE type IN ('table', 'view') AND name = ?1";
	static const char explain_sql[] =
		"SELECT 1 FROM pragma_table_info('mismatches') WHERE name = ?1";
	bool exists;
	int err;

	for (size_t i = 0; i < sizeof(v1_tables) / sizeof(v1_tables[0]); i++) {
		err = query_exists(db, table_sql, v1_tables[i], &exists, d);
		if (err)
			return err;
		if (!exists)
			return an_diag_fail(d, AN_E_DB,
					    "not a ucval results database: no table '%s'",
					    v1_tables[i]);
	}
	for (int t = 0; t < REP_T__COUNT; t++) {
		err = query_exists(db, table_sql, v2_table_name[t], &db->has_table[t], d);
		if (err)
			return err;
	}
	return query_exists(db, explain_sql, "explain", &db->has_explain, d);
}

static int trace_row(void *ctx, sqlite3_stmt *st)
{
	struct rep_rdb *db = ctx;
	struct rep_trace *t;

	if (AN_VEC_GROW(db->traces, db->nr_traces + 1, db->alloc_traces))
		return -ENOMEM;
	t = &db->traces[db->nr_traces++];
	t->trace_id = sqlite3_column_int64(st, 0);
	t->path = col_str(db, st, 1);
	t->format = col_str(db, st, 2);
	t->sha256 = col_str(db, st, 3);
	t->n_events = col_int(st, 4, 0);
	t->t_start_ns = col_int(st, 5, 0);
	t->t_end_ns = col_int(st, 6, t->t_start_ns);
	t->model = col_str(db, st, 7);
	t->analyzed_at = col_str(db, st, 8);
	t->options = col_str(db, st, 9);
	t->kernel = col_str(db, st, 10);
	return 0;
}

/* Whether the file holds a trace at all, without reading any. */
static int read_is_empty(struct rep_rdb *db, struct an_diag *d)
{
	sqlite3_stmt *st;
	int err = prepare(db, "SELECT 1 FROM traces LIMIT 1", &st, d);
	int rc;

	if (err)
		return err;
	rc = sqlite3_step(st);
	db->is_empty = rc != SQLITE_ROW;
	return finish(db, st, rc == SQLITE_ROW ? SQLITE_DONE : rc, d, "cannot read the traces");
}

static int read_traces(struct rep_rdb *db, struct an_diag *d)
{
	return query(db, "SELECT trace_id, path, format, sha256, n_events, t_start_ns, t_end_ns,"
		     " model, analyzed_at, options, kernel FROM traces ORDER BY trace_id", 0, 0,
		     trace_row, db, "cannot read the traces", d);
}

/* "file:" URI of @path with ?immutable=1, its special characters %-escaped. */
static int immutable_uri(const char *path, char *uri, size_t len)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t n = 0;

	n += (size_t)snprintf(uri, len, "file:");
	for (const unsigned char *c = (const unsigned char *)path; *c && n + 4 < len; c++) {
		if (isalnum(*c) || strchr("/._-~", *c)) {
			uri[n++] = (char)*c;
		} else {
			uri[n++] = '%';
			uri[n++] = hex[*c >> 4];
			uri[n++] = hex[*c & 15];
		}
	}
	uri[n] = '\0';
	return snprintf(uri + n, len - n, "?immutable=1") < (int)(len - n) ? 0 : -ENAMETOOLONG;
}

/*
 * A WAL database needs its -shm file even to be read: in a directory the
 * reader may not write, with no -wal file left (every commit is in the main
 * file), the file is opened immutable instead. With a -wal file present
 * SQLite reads it through the existing -shm.
 */
static bool needs_immutable(sqlite3 *conn, const char *path)
{
	char wal[PATH_MAX];
	struct stat sb;
	int rc = sqlite3_exec(conn, "PRAGMA schema_version", NULL, NULL, NULL);

	if ((rc & 0xff) != SQLITE_READONLY && (rc & 0xff) != SQLITE_CANTOPEN)
		return false;
	snprintf(wal, sizeof(wal), "%s-wal", path);
	return stat(wal, &sb) || sb.st_size == 0;
}

static int open_conn(struct rep_rdb *db, const char *path, struct an_diag *d)
{
	char uri[PATH_MAX * 3 + 32];
	struct stat sb;

	if (stat(path, &sb))
		return an_diag_fail(d, -errno, "%s", strerror(errno));
	if (!S_ISREG(sb.st_mode))
		return an_diag_fail(d, AN_E_DB, "not a regular file");
	if (sqlite3_open_v2(path, &db->conn, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
		return rep_rdb_fail(db, d, "cannot open");
	if (needs_immutable(db->conn, path)) {
		sqlite3_close(db->conn);
		db->conn = NULL;
		if (immutable_uri(path, uri, sizeof(uri)))
			return an_diag_fail(d, -ENAMETOOLONG, "path too long");
		if (sqlite3_open_v2(uri, &db->conn, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI,
				    NULL) != SQLITE_OK)
			return rep_rdb_fail(db, d, "cannot open");
	}
	sqlite3_busy_timeout(db->conn, BUSY_TIMEOUT_MS);
	return 0;
}

/**
 * rep_rdb_open() - open a results database and, if asked, read its trace rows
 * @out: the handle, to be freed with rep_rdb_free()
 * @path: the file
 * @with_traces: read every trace row into @out->traces; the reports over
 *		 groups of traces (reports/fleetdb.c) aggregate in SQL and
 *		 need none, so their memory does not grow with the traces
 * @d: filled on failure
 *
 * A file without traces opens fine (is_empty is set, nr_traces is 0): the
 * caller decides.
 *
 * Return: 0; a negative errno (no such file, -ENOMEM); AN_E_DB (not an SQLite
 * file, not a ucval database); AN_E_SCHEMA (user_version newer than
 * AN_DB_SCHEMA_VERSION).
 */
int rep_rdb_open(struct rep_rdb **out, const char *path, bool with_traces,
		 struct an_diag *d)
{
	struct rep_rdb *db;
	int err;

	an_diag_set_file(d, "read database", path);
	*out = NULL;
	db = an_calloc(1, sizeof(*db));
	if (!db)
		return an_diag_fail(d, -ENOMEM, "out of memory");
	db->path = rep_arena_strdup(&db->arena, path);
	err = db->path ? open_conn(db, path, d) : an_diag_fail(d, -ENOMEM, "out of memory");
	if (!err)
		err = read_user_version(db, d);
	if (!err && db->schema_version > AN_DB_SCHEMA_VERSION)
		err = an_diag_fail(d, AN_E_SCHEMA, "schema version %d is newer than this"
				   " ucval knows (%d): use a newer ucval", db->schema_version,
				   AN_DB_SCHEMA_VERSION);
	if (!err)
		err = read_schema(db, d);
	snprintf(db->missing_text, sizeof(db->missing_text), "not recorded (database schema %d)",
		 db->schema_version);
	if (!err)
		err = read_is_empty(db, d);
	if (!err && with_traces) {
		err = read_traces(db, d);
		db->is_empty = !db->nr_traces;
	}
	if (err) {
		rep_rdb_free(db);
		return err;
	}
	*out = db;
	return 0;
}

static void trace_free(struct rep_trace *t)
{
	free(t->verdicts);
	free(t->windows);
	free(t->undecided);
	free(t->residency);
	free(t->coverage);
}

/**
 * rep_rdb_free() - close @db and free every struct read from it
 * @db: the handle, may be NULL
 */
void rep_rdb_free(struct rep_rdb *db)
{
	if (!db)
		return;
	for (size_t i = 0; i < db->nr_traces; i++)
		trace_free(&db->traces[i]);
	free(db->traces);
	sqlite3_close(db->conn);
	rep_arena_free(&db->arena);
	free(db);
}

/**
 * rep_rdb_has() - whether @db has the v2 table @table
 * @db: the database
 * @table: the table
 *
 * Return: true when the table exists (it may still hold no row for a trace).
 */
bool rep_rdb_has(const struct rep_rdb *db, enum rep_v2_table table)
{
	return db->has_table[table];
}

/**
 * rep_rdb_missing() - what a report says for a section whose table is absent
 * @db: the database
 *
 * Return: a string owned by @db, such as "not recorded (database schema 1)".
 */
const char *rep_rdb_missing(const struct rep_rdb *db)
{
	return db->missing_text;
}

static bool is_number(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

/* Whether @path is @spec or ends with "/" @spec (a user may give less). */
static bool path_matches(const char *path, const char *spec, bool is_exact)
{
	size_t lp = strlen(path), ls = strlen(spec);

	if (is_exact)
		return !strcmp(path, spec);
	return lp > ls && path[lp - ls - 1] == '/' && !strcmp(path + lp - ls, spec);
}

static int find_by_path(struct rep_rdb *db, const char *spec, struct rep_trace **out,
			struct an_diag *d)
{
	for (int pass = 0; pass < 2; pass++) {
		size_t nr = 0, first = 0, second = 0;

		for (size_t i = 0; i < db->nr_traces; i++) {
			if (!db->traces[i].path ||
			    !path_matches(db->traces[i].path, spec, pass == 0))
				continue;
			if (!nr++)
				first = i;
			else if (nr == 2)
				second = i;
		}
		if (nr == 1) {
			*out = &db->traces[first];
			return 0;
		}
		if (nr > 1)
			return an_diag_fail(d, -EINVAL, "trace '%s' is ambiguous: it matches"
					    " trace ids %" PRId64 ", %" PRId64 "%s: give the id",
					    spec, db->traces[first].trace_id,
					    db->traces[second].trace_id, nr > 2 ? " ..." : "");
	}
	return an_diag_fail(d, -ENOENT, "no trace '%s' (%zu traces, ids %" PRId64 " to %"
			    PRId64 ")", spec, db->nr_traces,
			    db->nr_traces ? db->traces[0].trace_id : 0,
			    db->nr_traces ? db->traces[db->nr_traces - 1].trace_id : 0);
}

/**
 * rep_rdb_find() - the trace a user names by id or by path
 * @db: the database
 * @spec: a trace_id, a path as analyze stored it, or its last components
 * @out: the trace, owned by @db
 * @d: filled on failure
 *
 * Return: 0, -ENOENT when no trace matches, -EINVAL when several do.
 */
int rep_rdb_find(struct rep_rdb *db, const char *spec, struct rep_trace **out,
		 struct an_diag *d)
{
	if (is_number(spec)) {
		int64_t id = strtoll(spec, NULL, 10);

		for (size_t i = 0; i < db->nr_traces; i++) {
			if (db->traces[i].trace_id == id) {
				*out = &db->traces[i];
				return 0;
			}
		}
	}
	return find_by_path(db, spec, out, d);
}

/* What the row functions of one trace fill. */
struct load_ctx {
	struct rep_rdb *db;
	struct rep_trace *t;
	bool is_mismatch;
};

static int verdict_row(void *ctx, sqlite3_stmt *st)
{
	struct load_ctx *c = ctx;
	struct rep_trace *t = c->t;
	struct rep_verdict *v;

	if (AN_VEC_GROW(t->verdicts, t->nr_verdicts + 1, t->alloc_verdicts))
		return -ENOMEM;
	v = &t->verdicts[t->nr_verdicts++];
	v->check_id = col_str(c->db, st, 0);
	v->verdict = col_str(c->db, st, 1);
	v->n_checked = col_int(st, 2, 0);
	v->n_failed = col_int(st, 3, 0);
	v->n_undecided = col_int(st, 4, 0);
	v->reason = col_str(c->db, st, 5);
	v->n_windows = col_int(st, 6, 0);
	v->fail_ns = col_int(st, 7, 0);
	return 0;
}

static int load_verdicts(struct load_ctx *c, struct an_diag *d)
{
	return query(c->db, "SELECT v.check_id, v.verdict, v.n_checked, v.n_failed,"
		     " v.n_undecided, v.reason, count(m.ts_start_ns),"
		     " coalesce(sum(m.ts_end_ns - m.ts_start_ns), 0)"
		     " FROM verdicts v LEFT JOIN mismatches m"
		     " ON m.trace_id = v.trace_id AND m.check_id = v.check_id"
		     " WHERE v.trace_id = ?1 GROUP BY v.rowid ORDER BY v.rowid", c->t->trace_id, 0,
		     verdict_row, c, "cannot read the verdicts", d);
}

/*
 * The window query of @table: per check in verdict order, longest first, at
 * most ?2 per check. Columns absent from the table or the schema read NULL.
 */
static void window_sql(const struct rep_rdb *db, bool is_mismatch, char *sql, size_t len)
{
	const char *comm = rep_rdb_has(db, REP_T_TASKS) ?
		"(SELECT k.comm FROM tasks k WHERE k.trace_id = w.trace_id AND k.pid = w.pid)" :
		"NULL";

	snprintf(sql, len,
		 "SELECT check_id, cpu, pid, %s, ts_start_ns, ts_end_ns, %s, rule, message, %s"
		 " FROM (SELECT x.*, row_number() OVER (PARTITION BY x.check_id"
		 " ORDER BY x.ts_end_ns - x.ts_start_ns DESC, x.ts_start_ns, x.rowid) AS rn,"
		 " (SELECT v.rowid FROM verdicts v WHERE v.trace_id = x.trace_id"
		 " AND v.check_id = x.check_id) AS check_order"
		 " FROM %s x WHERE x.trace_id = ?1) AS w"
		 " WHERE rn <= ?2 ORDER BY check_order, check_id, rn",
		 comm, is_mismatch ? "expected, observed" : "NULL, NULL",
		 is_mismatch && db->has_explain ? "explain" : "NULL",
		 is_mismatch ? "mismatches" : "undecided");
}

static int window_row(void *ctx, sqlite3_stmt *st)
{
	struct load_ctx *c = ctx;
	struct rep_trace *t = c->t;
	struct rep_window *w;

	if (c->is_mismatch ? AN_VEC_GROW(t->windows, t->nr_windows + 1, t->alloc_windows) :
	    AN_VEC_GROW(t->undecided, t->nr_undecided + 1, t->alloc_undecided))
		return -ENOMEM;
	w = c->is_mismatch ? &t->windows[t->nr_windows++] : &t->undecided[t->nr_undecided++];
	w->check_id = col_str(c->db, st, 0);
	w->cpu = (int)col_int(st, 1, -1);
	w->pid = (int)col_int(st, 2, -1);
	w->comm = col_str(c->db, st, 3);
	w->ts_start_ns = col_int(st, 4, 0);
	w->ts_end_ns = col_int(st, 5, 0);
	w->expected = col_value(c->db, st, 6);
	w->observed = col_value(c->db, st, 7);
	w->rule = col_str(c->db, st, 8);
	w->message = col_str(c->db, st, 9);
	w->explain = col_str(c->db, st, 10);
	return 0;
}

static int load_windows(struct load_ctx *c, bool is_mismatch, unsigned int top,
			struct an_diag *d)
{
	char sql[SQL_LEN];

	c->is_mismatch = is_mismatch;
	window_sql(c->db, is_mismatch, sql, sizeof(sql));
	return query(c->db, sql, c->t->trace_id, top ? (int64_t)top : INT64_MAX, window_row, c,
		     "cannot read the windows", d);
}

/* Each row's share of its policy's total, observed and expected. */
static void residency_shares(struct rep_trace *t)
{
	size_t i = 0;

	while (i < t->nr_residency) {
		int policy = t->residency[i].policy;
		int64_t obs = 0, exp = 0;
		size_t end;

		for (end = i; end < t->nr_residency && t->residency[end].policy == policy; end++) {
			obs += t->residency[end].observed_ns;
			exp += t->residency[end].expected_ns;
		}
		for (; i < end; i++) {
			struct rep_residency *r = &t->residency[i];

			r->observed_share = obs ? (double)r->observed_ns / (double)obs : 0;
			r->expected_share = exp ? (double)r->expected_ns / (double)exp : 0;
		}
	}
}

static int residency_row(void *ctx, sqlite3_stmt *st)
{
	struct rep_trace *t = ((struct load_ctx *)ctx)->t;
	struct rep_residency *r;

	if (AN_VEC_GROW(t->residency, t->nr_residency + 1, t->alloc_residency))
		return -ENOMEM;
	r = &t->residency[t->nr_residency++];
	r->policy = (int)col_int(st, 0, -1);
	r->khz = col_int(st, 1, 0);
	r->observed_ns = col_int(st, 2, 0);
	r->expected_ns = col_int(st, 3, 0);
	return 0;
}

static int load_residency(struct load_ctx *c, struct an_diag *d)
{
	int err;

	if (!rep_rdb_has(c->db, REP_T_FREQ_RESIDENCY))
		return 0;
	err = query(c->db, "SELECT policy, khz, observed_ns, expected_ns FROM freq_residency"
		    " WHERE trace_id = ?1 ORDER BY policy, khz", c->t->trace_id, 0, residency_row,
		    c, "cannot read the frequency residency", d);
	residency_shares(c->t);
	return err;
}

static int coverage_row(void *ctx, sqlite3_stmt *st)
{
	struct load_ctx *c = ctx;
	struct rep_trace *t = c->t;
	struct rep_coverage *r;

	if (AN_VEC_GROW(t->coverage, t->nr_coverage + 1, t->alloc_coverage))
		return -ENOMEM;
	r = &t->coverage[t->nr_coverage++];
	r->check_id = col_str(c->db, st, 0);
	r->rule = col_str(c->db, st, 1);
	r->times = col_int(st, 2, 0);
	r->decided_ns = col_int(st, 3, 0);
	return 0;
}

static int load_coverage(struct load_ctx *c, struct an_diag *d)
{
	if (!rep_rdb_has(c->db, REP_T_RULE_COVERAGE))
		return 0;
	return query(c->db, "SELECT check_id, rule, times, decided_ns FROM rule_coverage"
		     " WHERE trace_id = ?1 ORDER BY rowid", c->t->trace_id, 0, coverage_row, c,
		     "cannot read the rule coverage", d);
}

/**
 * rep_rdb_load() - read a trace's verdicts, windows and residency
 * @db: the database
 * @t: one of db->traces; loading it again is a no-op
 * @o: how many windows
 * @d: filled on failure
 *
 * Return: 0, -ENOMEM or AN_E_DB.
 */
int rep_rdb_load(struct rep_rdb *db, struct rep_trace *t, const struct rep_load_opts *o,
		 struct an_diag *d)
{
	struct load_ctx c = { .db = db, .t = t };
	int err;

	if (t->is_loaded)
		return 0;
	err = load_verdicts(&c, d);
	if (!err)
		err = load_windows(&c, true, o->top, d);
	if (!err && o->with_undecided)
		err = load_windows(&c, false, 0, d);
	if (!err)
		err = load_residency(&c, d);
	if (!err)
		err = load_coverage(&c, d);
	t->is_loaded = !err;
	return err;
}

/**
 * rep_rdb_scan() - run @sql with ?1 bound to @trace_id, calling @fn per row
 * @db: the database
 * @sql: one SELECT
 * @trace_id: the value of ?1
 * @fn: called with @ctx and the statement on each row
 * @ctx: passed to @fn
 * @d: filled on failure
 *
 * Return: 0, AN_E_DB, or what @fn returned to stop the scan (-ENOMEM).
 */
int rep_rdb_scan(struct rep_rdb *db, const char *sql, int64_t trace_id, rep_rdb_row_fn fn,
		 void *ctx, struct an_diag *d)
{
	return query(db, sql, trace_id, 0, fn, ctx, "cannot read the plot data", d);
}
