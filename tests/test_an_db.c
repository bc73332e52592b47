// SPDX-License-Identifier: MIT
/*
 * analyze/store/db.c: the SQLite contract of events.md §5 (names of tables and
 * columns), one transaction per trace, replace on re-analysis, refusal of a
 * newer schema, and survival of a SIGKILL in the middle of a trace.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sqlite3.h>

#include "analyze/store/db.h"
#include "analyze/store/series.h"
#include "an_testutil.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

struct tmpdb {
	char dir[64];
	char path[96];
};

static void tmpdb_make(struct tmpdb *t)
{
	snprintf(t->dir, sizeof(t->dir), "/tmp/ucval-db-XXXXXX");
	assert_non_null(mkdtemp(t->dir));
	snprintf(t->path, sizeof(t->path), "%s/r.db", t->dir);
}

static void tmpdb_drop(struct tmpdb *t)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", t->dir);
	assert_int_equal(system(cmd), 0);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* One integer from a query on a fresh connection (what another program sees). */
static long long query_int(const char *path, const char *sql)
{
	sqlite3 *c;
	sqlite3_stmt *st;
	long long v = -1;

	assert_int_equal(sqlite3_open_v2(path, &c, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	if (sqlite3_prepare_v2(c, sql, -1, &st, NULL) != SQLITE_OK)
		fail_msg("query '%s': %s", sql, sqlite3_errmsg(c));
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(c);
	return v;
}

static const struct an_db_trace trace_a = {
	.path = "a.dat", .format = "trace.dat", .sha256 = "aa11", .n_events = 42,
	.t_start_ns = 1000, .t_end_ns = 9000, .model = "mainline", .options = "grace=default",
	.kernel = "6.1.0", .analyzed_at = "2026-12-03T00:00:00Z",
};

static void write_trace(struct an_db *db, const struct an_db_trace *t, int n_windows)
{
	struct an_diag d;
	int64_t id;
	const struct an_db_verdict v = { "rq_clamp", "FAIL", 10, 2, 1, NULL };
	struct an_db_window w = { .check_id = "rq_clamp", .cpu = 1, .pid = -1,
				  .ts_start_ns = 2000, .ts_end_ns = 3000, .expected = 512,
				  .observed = 1024, .rule = "VR5", .message = "not rescanned" };

	assert_int_equal(an_db_trace_begin(db, t, &id, &d), 0);
	assert_true(id > 0);
	assert_int_equal(an_db_verdict_add(db, &v, &d), 0);
	for (int i = 0; i < n_windows; i++)
		assert_int_equal(an_db_mismatch_add(db, &w, &d), 0);
	assert_int_equal(an_db_trace_commit(db, &d), 0);
}

/* Every contract column of events.md §5 exists with its name. */
static void test_contract_columns(void **state)
{
	static const char *const queries[] = {
		"SELECT count(trace_id) + count(path) + count(format) + count(sha256) + "
		"count(n_events) + count(t_start_ns) + count(t_end_ns) + count(model) + "
		"count(analyzed_at) FROM traces",
		"SELECT count(trace_id) + count(check_id) + count(verdict) + count(n_checked) + "
		"count(n_failed) + count(n_undecided) FROM verdicts",
		"SELECT count(trace_id) + count(check_id) + count(cpu) + count(pid) + "
		"count(ts_start_ns) + count(ts_end_ns) + count(expected) + count(observed) + "
		"count(rule) + count(message) FROM mismatches",
	};
	static const long long want[] = { 9, 6, 9 /* pid is NULL */ };
	struct tmpdb t;
	struct an_db *db;
	struct an_diag d;

	(void)state;
	tmpdb_make(&t);
	assert_int_equal(an_db_open(&db, t.path, &d), 0);
	write_trace(db, &trace_a, 1);
	an_db_close(db);
	for (size_t i = 0; i < ARRAY_SIZE(queries); i++) {
		long long got = query_int(t.path, queries[i]);

		if (got != want[i])
			fail_msg("case %zu: got %lld want %lld (%s)", i, got, want[i], queries[i]);
	}
	assert_int_equal(query_int(t.path, "SELECT ts_start_ns FROM mismatches"), 2000);
	assert_int_equal(query_int(t.path, "SELECT expected FROM mismatches"), 512);
	assert_int_equal(query_int(t.path, "SELECT pid IS NULL FROM mismatches"), 1);
	tmpdb_drop(&t);
}

/* Same sha256 + options: replaced, never duplicated; other options: a new row. */
static void test_replace(void **state)
{
	struct an_db_trace other = trace_a;
	struct tmpdb t;
	struct an_db *db;
	struct an_diag d;

	(void)state;
	tmpdb_make(&t);
	assert_int_equal(an_db_open(&db, t.path, &d), 0);
	write_trace(db, &trace_a, 3);
	write_trace(db, &trace_a, 2);
	an_db_close(db);
	assert_int_equal(query_int(t.path, "SELECT count(*) FROM traces"), 1);
	assert_int_equal(query_int(t.path, "SELECT count(*) FROM verdicts"), 1);
	assert_int_equal(query_int(t.path, "SELECT count(*) FROM mismatches"), 2);

	other.options = "grace=500us";
	assert_int_equal(an_db_open(&db, t.path, &d), 0);
	write_trace(db, &other, 1);
	an_db_close(db);
	assert_int_equal(query_int(t.path, "SELECT count(*) FROM traces"), 2);
	assert_int_equal(query_int(t.path, "SELECT count(*) FROM mismatches"), 3);
	tmpdb_drop(&t);
}

/* An aborted trace leaves nothing, an earlier one stays. */
static void test_abort(void **state)
{
	struct an_db_trace b = trace_a;
	struct tmpdb t;
	struct an_db *db;
	struct an_diag d;
	int64_t id;

	(void)state;
	tmpdb_make(&t);
	assert_int_equal(an_db_open(&db, t.path, &d), 0);
	write_trace(db, &trace_a, 1);
	b.sha256 = "bb22";
	assert_int_equal(an_db_trace_begin(db, &b, &id, &d), 0);
	/* a second begin inside a trace is refused */
	assert_int_equal(an_db_trace_begin(db, &b, &id, &d), -EBUSY);
	an_db_trace_abort(db);
	/* rows outside a trace are refused */
	assert_int_equal(an_db_verdict_add(db, &(struct an_db_verdict){ "rq_clamp", "PASS",
					   1, 0, 0, NULL }, &d), -EINVAL);
	an_db_close(db);
	assert_int_equal(query_int(t.path, "SELECT count(*) FROM traces"), 1);
	assert_int_equal(query_int(t.path, "SELECT count(*) FROM mismatches"), 1);
	tmpdb_drop(&t);
}

/* A verdict word outside PASS/FAIL/UNDECIDED is refused by the schema. */
static void test_bad_verdict(void **state)
{
	struct tmpdb t;
	struct an_db *db;
	struct an_diag d;
	int64_t id;

	(void)state;
	tmpdb_make(&t);
	assert_int_equal(an_db_open(&db, t.path, &d), 0);
	assert_int_equal(an_db_trace_begin(db, &trace_a, &id, &d), 0);
	assert_int_equal(an_db_verdict_add(db, &(struct an_db_verdict){ "rq_clamp", "OK",
					   1, 0, 0, NULL }, &d), AN_E_DB);
	assert_non_null(strstr(d.message, "CHECK constraint"));
	an_db_close(db);	/* rolls back */
	assert_int_equal(query_int(t.path, "SELECT count(*) FROM traces"), 0);
	tmpdb_drop(&t);
}

/* A database from a newer schema, or a file that is not one: clear refusal. */
static void test_refuse(void **state)
{
	struct tmpdb t;
	struct an_db *db;
	struct an_diag d;
	sqlite3 *c;
	FILE *f;
	char line[512], want[512];

	(void)state;
	tmpdb_make(&t);
	assert_int_equal(sqlite3_open(t.path, &c), SQLITE_OK);
	assert_int_equal(sqlite3_exec(c, "PRAGMA user_version = 99", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(c);
	/*
	 * What an earlier failure left in @d (a trace's line, record, event)
	 * is not this failure's: an_db_open() starts from a clear diagnostic.
	 * Regression: the refusal read an uninitialized @d (valgrind).
	 */
	memset(&d, 0x5a, sizeof(d));
	d.event[sizeof(d.event) - 1] = '\0';
	assert_int_equal(an_db_open(&db, t.path, &d), AN_E_SCHEMA);
	assert_null(db);
	an_diag_format(&d, line, sizeof(line));
	snprintf(want, sizeof(want), "cannot open database '%s': schema version 99, this ucval knows %d",
		 t.path, AN_DB_SCHEMA_VERSION);
	assert_string_equal(line, want);
	unlink(t.path);

	f = fopen(t.path, "w");
	assert_non_null(f);
	fputs("this is not a database, just some text long enough to have a header\n", f);
	fclose(f);
	assert_int_equal(an_db_open(&db, t.path, &d), AN_E_DB);
	assert_null(db);
	tmpdb_drop(&t);
}

/* The bytes of @path, or NULL; @len gets their count. */
static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;

	if (!f)
		return NULL;
	buf = malloc(1 << 20);
	assert_non_null(buf);
	*len = fread(buf, 1, 1 << 20, f);
	fclose(f);
	return buf;
}

/*
 * Somebody else's database, one of a newer ucval, an empty path, a device:
 * refused before anything in them changes (no ucval table, no WAL switch,
 * no journal beside a device).
 */
static void test_refuse_untouched(void **state)
{
	static const struct untouched_case {
		const char *what;
		const char *setup_sql;	/* NULL: @path is used as it is */
		const char *path;	/* NULL: the scratch file */
		int want;
		const char *msg;
	} cases[] = {
		{ "someone else's", "CREATE TABLE contacts(n)", NULL, AN_E_DB,
		  "has a table 'contacts' of its own" },
		{ "ucval's plus a table", "CREATE TABLE traces(x); CREATE TABLE notes(n)", NULL,
		  AN_E_DB, "has a table 'notes' of its own" },
		{ "newer schema", "CREATE TABLE traces(x); PRAGMA user_version = 7", NULL,
		  AN_E_SCHEMA, "schema version 7" },
		{ "empty path", NULL, "", AN_E_DB, "empty path" },
		{ "a device", NULL, "/dev/null", AN_E_DB, "not a regular file" },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct untouched_case *c = &cases[i];
		const char *path = c->path;
		char *before = NULL, *after, journal[128];
		size_t n_before = 0, n_after;
		struct an_db *db;
		struct an_diag d;
		struct tmpdb t;
		sqlite3 *conn;

		tmpdb_make(&t);
		if (c->setup_sql) {
			path = t.path;
			assert_int_equal(sqlite3_open(path, &conn), SQLITE_OK);
			assert_int_equal(sqlite3_exec(conn, c->setup_sql, NULL, NULL, NULL),
					 SQLITE_OK);
			sqlite3_close(conn);
			before = slurp(path, &n_before);
		}
		if (an_db_open(&db, path, &d) != c->want || !strstr(d.message, c->msg))
			fail_msg("case %zu (%s): '%s'", i, c->what, d.message);
		assert_null(db);
		if (before) {
			after = slurp(path, &n_after);
			assert_int_equal(n_after, n_before);
			assert_memory_equal(after, before, n_before);
			assert_int_equal(query_int(path, "SELECT count(*) FROM sqlite_master"
						   " WHERE name = 'verdicts'"), 0);
			free(after);
			free(before);
		}
		snprintf(journal, sizeof(journal), "%s-journal", path);
		assert_int_not_equal(access(journal, F_OK), 0);
		tmpdb_drop(&t);
	}
}

/* What an_db_open() creates it opens again: its own tables are all known. */
static void test_reopen_own(void **state)
{
	struct an_db *db;
	struct an_diag d;
	struct tmpdb t;

	(void)state;
	tmpdb_make(&t);
	for (int i = 0; i < 2; i++) {
		if (an_db_open(&db, t.path, &d))
			fail_msg("open %d: %s", i, d.message);
		an_db_close(db);
	}
	tmpdb_drop(&t);
}

/* A schema 1 file (no explain, no series tables) is upgraded in place. */
static void test_upgrade_v1(void **state)
{
	static const char *const drop[] = {
		"DROP VIEW v_check_summary", "DROP VIEW v_mismatch_detail",
		"DROP VIEW v_task_mismatches", "DROP VIEW v_residency", "DROP TABLE tasks",
		"DROP TABLE policies", "DROP TABLE cpus", "DROP VIEW clamp_intervals",
		"DROP VIEW freq_intervals", "DROP TABLE clamp_interval_chunks",
		"DROP TABLE freq_interval_chunks", "DROP TABLE freq_residency",
		"DROP TABLE task_requests", "ALTER TABLE mismatches DROP COLUMN explain",
		"ALTER TABLE traces DROP COLUMN events_not_recorded", "PRAGMA user_version = 1",
	};
	struct tmpdb t;
	struct an_db *db;
	struct an_diag d;
	sqlite3 *c;

	(void)state;
	tmpdb_make(&t);
	assert_int_equal(an_db_open(&db, t.path, &d), 0);
	write_trace(db, &trace_a, 2);
	an_db_close(db);
	assert_int_equal(sqlite3_open(t.path, &c), SQLITE_OK);
	for (size_t i = 0; i < ARRAY_SIZE(drop); i++)
		if (sqlite3_exec(c, drop[i], NULL, NULL, NULL) != SQLITE_OK)
			fail_msg("%s: %s", drop[i], sqlite3_errmsg(c));
	sqlite3_close(c);
	assert_int_equal(query_int(t.path, "SELECT count(*) FROM pragma_table_info('mismatches')"
				   " WHERE name = 'explain'"), 0);
	assert_int_equal(an_db_open(&db, t.path, &d), 0);
	an_db_close(db);
	assert_int_equal(query_int(t.path, "PRAGMA user_version"), AN_DB_SCHEMA_VERSION);
	assert_int_equal(query_int(t.path, "SELECT count(*) FROM pragma_table_info('mismatches')"
				   " WHERE name = 'explain'"), 1);
	assert_int_equal(query_int(t.path, "SELECT count(*) FROM pragma_table_info('traces')"
				   " WHERE name = 'events_not_recorded'"), 1);
	assert_int_equal(query_int(t.path, "SELECT count(*) FROM mismatches"), 2);
	assert_int_equal(query_int(t.path, "SELECT count(*) FROM v_mismatch_detail"), 2);
	assert_int_equal(query_int(t.path, "SELECT count(*) FROM freq_residency"), 0);
	tmpdb_drop(&t);
}

/* One trace of the 1000-trace database: 8 CPUs in 2 policies, windows, residency. */
static void write_big_trace(struct an_db *db, int i)
{
	static const char *const checks[] = { "rq_clamp", "freq_below_min_clamp",
					      "freq_prediction" };
	struct an_db_trace row = trace_a;
	struct an_series s;
	struct an_diag d;
	char sha[80], path[32];
	int64_t id;

	snprintf(sha, sizeof(sha), "%064d", i);
	snprintf(path, sizeof(path), "t%04d.dat", i);
	row.sha256 = sha;
	row.path = path;
	an_series_init(&s);
	s.cpu = calloc(8, sizeof(*s.cpu));
	s.policy = calloc(2, sizeof(*s.policy));
	assert_non_null(s.cpu);
	assert_non_null(s.policy);
	s.nr_cpus = 8;
	s.nr_policies = 2;
	for (int p = 0; p < 2; p++) {
		s.policy[p].id = p * 4;
		s.policy[p].nr_cpus = 4;
		for (int c = 0; c < 4; c++) {
			s.policy[p].cpu[c] = p * 4 + c;
			s.cpu[p * 4 + c] = (struct an_series_cpu){ p * 4 + c, p * 4, 1024, true, 0 };
		}
	}
	for (int k = 0; k < 40; k++) {
		struct an_series_rec rec = {
			.kind = AN_SER_FREQ, .cpu = (k % 2) * 4, .policy = (k % 2) * 4, .pid = -1,
			.ts_start_ns = (uint64_t)k * 1000, .ts_end_ns = (uint64_t)k * 1000 + 1000,
			.has = 0x1f, .v = { 500000 + (k % 5) * 100000, 600000, 500000, 900000, 1 },
		};

		assert_int_equal(an_recbuf_add(&s.recs, &rec), 0);
	}
	for (int k = 0; k < 40; k++) {
		struct an_series_rec rec = {
			.kind = AN_SER_CLAMP, .cpu = k % 8, .policy = -1, .pid = -1,
			.ts_start_ns = (uint64_t)k * 1000, .ts_end_ns = (uint64_t)k * 1000 + 1000,
			.has = 0x3, .v = { k, 1024 },
		};

		assert_int_equal(an_recbuf_add(&s.recs, &rec), 0);
	}
	assert_int_equal(an_db_trace_begin(db, &row, &id, &d), 0);
	for (int k = 0; k < 6; k++) {
		struct an_db_window w = {
			.check_id = checks[(i + k) % 3], .cpu = k, .pid = 100 + k,
			.ts_start_ns = k * 100, .ts_end_ns = k * 100 + 50, .rule = "S10",
		};

		assert_int_equal(an_db_mismatch_add(db, &w, &d), 0);
	}
	assert_int_equal(an_db_series_add(db, &s, &d), 0);
	assert_int_equal(an_db_trace_commit(db, &d), 0);
	an_series_release(&s);
}

/* The plan of @sql, its "detail" lines joined with ";". */
static void plan_of(const char *path, const char *sql, char *buf, size_t len)
{
	char eq[1024];
	sqlite3 *c;
	sqlite3_stmt *st;
	size_t at = 0;

	snprintf(eq, sizeof(eq), "EXPLAIN QUERY PLAN %s", sql);
	buf[0] = '\0';
	assert_int_equal(sqlite3_open_v2(path, &c, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	if (sqlite3_prepare_v2(c, eq, -1, &st, NULL) != SQLITE_OK)
		fail_msg("%s: %s", sql, sqlite3_errmsg(c));
	while (sqlite3_step(st) == SQLITE_ROW) {
		int n = snprintf(buf + at, len - at, "%s%s", at ? ";" : "",
				 (const char *)sqlite3_column_text(st, 3));

		assert_true(n > 0 && (size_t)n < len - at);
		at += (size_t)n;
	}
	sqlite3_finalize(st);
	sqlite3_close(c);
}

/*
 * A database of 1000 traces: the questions users ask ("mismatches of check X
 * across all traces", "residency of CPU N") are answered through indexes,
 * never by scanning a table that grows with the traces.
 */
static void test_index_plans(void **state)
{
	static const struct {
		const char *sql;
		const char *must;	/* in the plan */
		long long rows;		/* rows the query returns */
	} rows[] = {
		{ "SELECT trace_id, cpu, ts_start_ns FROM mismatches"
		  " WHERE check_id = 'freq_prediction'", "USING INDEX mismatches_by_check", 2000 },
		{ "SELECT r.trace_id, r.khz, r.observed_ns FROM cpus c JOIN freq_residency r"
		  " ON r.trace_id = c.trace_id AND r.policy = c.policy WHERE c.cpu = 5",
		  "INDEX cpus_by_cpu (cpu=?)", 5000 },
		{ "SELECT khz, observed_ns FROM v_residency WHERE path = 't0500.dat'",
		  "INDEX traces_by_path (path=?)", 10 },
		{ "SELECT * FROM freq_intervals WHERE trace_id = 7 AND policy = 4",
		  "INDEX freq_interval_chunks_by_policy (trace_id=? AND policy=?)", 20 },
		{ "SELECT * FROM clamp_intervals WHERE trace_id = 9 AND cpu = 3",
		  "INDEX clamp_interval_chunks_by_cpu (trace_id=? AND cpu=?)", 5 },
	};
	struct tmpdb t;
	struct an_db *db;
	struct an_diag d;
	char plan[2048 + 1], count[1200];

	(void)state;
	tmpdb_make(&t);
	assert_int_equal(an_db_open(&db, t.path, &d), 0);
	for (int i = 0; i < 1000; i++)
		write_big_trace(db, i);
	an_db_close(db);
	assert_int_equal(query_int(t.path, "SELECT count(*) FROM traces"), 1000);
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		plan_of(t.path, rows[i].sql, plan, sizeof(plan));
		if (!strstr(plan, rows[i].must))
			fail_msg("row %zu: plan '%s' lacks '%s'", i, plan, rows[i].must);
		/* a full scan of a per-trace table would read every trace's rows */
		strcat(plan, ";");	/* "SCAN c;": the whole of c, not "SCAN c USING" */
		if (strstr(plan, "SCAN mismatches") || strstr(plan, "SCAN freq_residency") ||
		    strstr(plan, "SCAN r") || strstr(plan, "SCAN c;") ||
		    strstr(plan, "SCAN c USING") || strstr(plan, "SCAN clamp_interval_chunks") ||
		    strstr(plan, "SCAN freq_interval_chunks"))
			fail_msg("row %zu: plan '%s' scans", i, plan);
		snprintf(count, sizeof(count), "SELECT count(*) FROM (%s)", rows[i].sql);
		assert_int_equal(query_int(t.path, count), rows[i].rows);
	}
	tmpdb_drop(&t);
}

/* The text of one value from a query on a fresh connection ("" for NULL). */
static void query_text(const char *path, const char *sql, char *buf, size_t size)
{
	sqlite3 *c;
	sqlite3_stmt *st;

	buf[0] = '\0';
	assert_int_equal(sqlite3_open_v2(path, &c, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	if (sqlite3_prepare_v2(c, sql, -1, &st, NULL) != SQLITE_OK)
		fail_msg("query '%s': %s", sql, sqlite3_errmsg(c));
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
		snprintf(buf, size, "%s", (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	sqlite3_close(c);
}

/* Every row of both interval views, in one text: equal texts, equal rows. */
#define INTERVAL_ROWS_SQL \
	"SELECT count(*) || ':' || group_concat(x, ';') FROM (" \
	" SELECT 'c' || trace_id || ',' || cpu || ',' || ts_start_ns || ',' || ts_end_ns || ',' ||" \
	" quote(uclamp_min) || ',' || quote(uclamp_max) AS x FROM clamp_intervals" \
	" UNION ALL" \
	" SELECT 'f' || trace_id || ',' || policy || ',' || cpu || ',' || ts_start_ns || ',' ||" \
	" ts_end_ns || ',' || quote(observed_khz) || ',' || quote(expected_khz) || ',' ||" \
	" quote(accepted_lo_khz) || ',' || quote(accepted_hi_khz) || ',' || quote(is_ok) AS x" \
	" FROM freq_intervals ORDER BY x)"

/* The same, built from records: what the views must give back. */
static void rows_text(const struct an_series_rec *rec, size_t nr, int64_t trace_id, char *buf,
		      size_t size)
{
	char **row = calloc(nr, sizeof(*row));
	size_t at;

	assert_non_null(row);
	for (size_t i = 0; i < nr; i++) {
		const struct an_series_rec *r = &rec[i];
		char v[AN_SER_NR_VALUES][24], line[256];
		int nv = r->kind == AN_SER_FREQ ? AN_SER_FQ_OK + 1 : AN_SER_CL_MAX + 1;

		for (int k = 0; k < nv; k++) {
			if (r->has & AN_SER_HAS(k))
				snprintf(v[k], sizeof(v[k]), "%lld", r->v[k]);
			else
				snprintf(v[k], sizeof(v[k]), "NULL");
		}
		if (r->kind == AN_SER_FREQ)
			snprintf(line, sizeof(line), "f%lld,%d,%d,%llu,%llu,%s,%s,%s,%s,%s",
				 (long long)trace_id, r->policy, r->cpu,
				 (unsigned long long)r->ts_start_ns, (unsigned long long)r->ts_end_ns,
				 v[0], v[1], v[2], v[3], v[4]);
		else
			snprintf(line, sizeof(line), "c%lld,%d,%llu,%llu,%s,%s", (long long)trace_id,
				 r->cpu, (unsigned long long)r->ts_start_ns,
				 (unsigned long long)r->ts_end_ns, v[0], v[1]);
		row[i] = strdup(line);
		assert_non_null(row[i]);
	}
	qsort(row, nr, sizeof(*row), cmp_str);
	at = (size_t)snprintf(buf, size, "%zu:", nr);
	for (size_t i = 0; i < nr; i++) {
		at += (size_t)snprintf(buf + at, size - at, "%s%s", i ? ";" : "", row[i]);
		assert_true(at < size);
		free(row[i]);
	}
	free(row);
}

/*
 * The records of test_interval_chunks: 600 contiguous clamp intervals on
 * CPU 0 (three chunks of at most 256), some values NULL; five on CPU 1 out
 * of time order; one on the last CPU with the extremes of the value type;
 * 300 frequency intervals on CPU 2 in policy 2, then 10 after it moved to
 * policy 3 (a chunk keeps one policy).
 */
static size_t chunk_records(struct an_series_rec *rec)
{
	size_t n = 0;

	for (int k = 0; k < 600; k++)
		rec[n++] = (struct an_series_rec){
			.kind = AN_SER_CLAMP, .cpu = 0, .policy = -1, .pid = -1,
			.ts_start_ns = 5000000000ull + (uint64_t)k * 777,
			.ts_end_ns = 5000000000ull + (uint64_t)(k + 1) * 777,
			.has = k % 7 ? 0x3 : 0x2, .v = { k % 1025, 1024 - k % 3 },
		};
	for (int k = 5; k > 0; k--)
		rec[n++] = (struct an_series_rec){
			.kind = AN_SER_CLAMP, .cpu = 1, .policy = -1, .pid = -1,
			.ts_start_ns = (uint64_t)k * 1000, .ts_end_ns = (uint64_t)k * 1000 + 999,
			.has = 0x3, .v = { -k, 0 },
		};
	rec[n++] = (struct an_series_rec){
		.kind = AN_SER_CLAMP, .cpu = 4095, .policy = -1, .pid = -1,
		.ts_start_ns = 1ull << 62, .ts_end_ns = (1ull << 62) + 1,
		.has = 0x3, .v = { LLONG_MIN, LLONG_MAX },
	};
	for (int k = 0; k < 310; k++)
		rec[n++] = (struct an_series_rec){
			.kind = AN_SER_FREQ, .cpu = 2, .policy = k < 300 ? 2 : 3, .pid = -1,
			.ts_start_ns = 7000000000ull + (uint64_t)k * 100000,
			.ts_end_ns = 7000000000ull + (uint64_t)(k + 1) * 100000,
			.has = k % 11 ? 0x1f : 0x01,
			.v = { 500000 + k % 4 * 100000, 600000, 0, 4294967295LL, k % 2 },
		};
	return n;
}

/*
 * Schema 3 stores intervals in chunks (DB_CHUNK = 256 a row, db.c) and the
 * views give back each interval as it was put: values, NULLs, extremes,
 * out-of-order starts; chunks bound their intervals (ts_first_ns ..
 * ts_last_ns); a CPU out of range is refused with its number.
 */
static void test_interval_chunks(void **state)
{
	static const struct {
		const char *sql;
		long long want;
	} rows[] = {
		{ "SELECT count(*) FROM clamp_interval_chunks WHERE cpu = 0", 3 },
		{ "SELECT max(n) FROM clamp_interval_chunks", 256 },
		{ "SELECT sum(n) FROM clamp_interval_chunks", 606 },
		{ "SELECT count(*) FROM freq_interval_chunks WHERE policy = 2", 2 },
		{ "SELECT count(*) FROM freq_interval_chunks WHERE policy = 3", 1 },
		/* starts and ends are relative to the earliest start; the latest end is last */
		{ "SELECT count(*) FROM clamp_interval_chunks c WHERE"
		  " (SELECT min(json_extract(j.value, '$[0]')) FROM json_each(c.intervals) j) != 0"
		  " OR (SELECT max(json_extract(j.value, '$[1]')) FROM json_each(c.intervals) j)"
		  " != c.ts_last_ns - c.ts_first_ns", 0 },
		{ "SELECT count(*) FROM freq_interval_chunks c WHERE"
		  " (SELECT min(json_extract(j.value, '$[0]')) FROM json_each(c.intervals) j) != 0"
		  " OR (SELECT max(json_extract(j.value, '$[1]')) FROM json_each(c.intervals) j)"
		  " != c.ts_last_ns - c.ts_first_ns", 0 },
		{ "SELECT ts_first_ns FROM clamp_interval_chunks WHERE cpu = 1", 1000 },
		{ "SELECT ts_last_ns FROM clamp_interval_chunks WHERE cpu = 1", 5999 },
	};
	struct an_series_rec *rec = calloc(1000, sizeof(*rec));
	struct an_series_rec bad = { .kind = AN_SER_CLAMP, .cpu = 4096, .has = 0 };
	size_t nr, size = 1 << 17;
	char *want = malloc(size), *got = malloc(size), line[512];
	struct an_db_trace row = trace_a;
	struct tmpdb t;
	struct an_db *db;
	struct an_diag d;
	int64_t id;

	(void)state;
	assert_non_null(rec);
	assert_non_null(want);
	assert_non_null(got);
	nr = chunk_records(rec);
	tmpdb_make(&t);
	assert_int_equal(an_db_open(&db, t.path, &d), 0);
	assert_int_equal(an_db_trace_begin(db, &row, &id, &d), 0);
	for (size_t i = 0; i < nr; i++)
		assert_int_equal(an_db_series_put(db, &rec[i], &d), 0);
	assert_int_equal(an_db_series_put(db, &bad, &d), -EINVAL);
	an_diag_format(&d, line, sizeof(line));
	if (!strstr(line, "an interval of CPU 4096 (0 to 4095 expected)"))
		fail_msg("diagnostic '%s'", line);
	assert_int_equal(an_db_trace_commit(db, &d), 0);
	an_db_close(db);
	rows_text(rec, nr, id, want, size);
	query_text(t.path, INTERVAL_ROWS_SQL, got, size);
	if (strcmp(got, want))
		fail_msg("views give\n%.300s...\nwant\n%.300s...", got, want);
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		long long v = query_int(t.path, rows[i].sql);

		if (v != rows[i].want)
			fail_msg("row %zu: %lld, want %lld (%s)", i, v, rows[i].want, rows[i].sql);
	}
	tmpdb_drop(&t);
	free(rec);
	free(want);
	free(got);
}

/*
 * A schema 2 file (intervals one row each, in tables) is upgraded in place:
 * the views give the same rows, in chunks, and the file takes new traces.
 */
static void test_upgrade_v2(void **state)
{
	struct an_series_rec *rec = calloc(1000, sizeof(*rec));
	size_t size = 1 << 17;
	char *before = malloc(size), *after = malloc(size);
	struct an_db_trace row = trace_a;
	struct tmpdb t;
	struct an_db *db;
	struct an_diag d;
	size_t nr;
	int64_t id;
	sqlite3 *c;

	(void)state;
	assert_non_null(rec);
	assert_non_null(before);
	assert_non_null(after);
	nr = chunk_records(rec);
	tmpdb_make(&t);
	assert_int_equal(an_db_open(&db, t.path, &d), 0);
	write_big_trace(db, 1);
	assert_int_equal(an_db_trace_begin(db, &row, &id, &d), 0);
	for (size_t i = 0; i < nr; i++)
		assert_int_equal(an_db_series_put(db, &rec[i], &d), 0);
	assert_int_equal(an_db_trace_commit(db, &d), 0);
	an_db_close(db);
	query_text(t.path, INTERVAL_ROWS_SQL, before, size);
	assert_int_equal(atoi(before), 80 + 916);
	assert_int_equal(sqlite3_open(t.path, &c), SQLITE_OK);
	if (sqlite3_exec(c, AN_TEST_TO_SCHEMA2_SQL, NULL, NULL, NULL) != SQLITE_OK)
		fail_msg("to schema 2: %s", sqlite3_errmsg(c));
	sqlite3_close(c);
	assert_int_equal(query_int(t.path, "SELECT count(*) FROM clamp_intervals"), 40 + 606);

	assert_int_equal(an_db_open(&db, t.path, &d), 0);
	write_big_trace(db, 2);
	an_db_close(db);
	assert_int_equal(query_int(t.path, "PRAGMA user_version"), AN_DB_SCHEMA_VERSION);
	assert_int_equal(query_int(t.path, "SELECT count(*) FROM sqlite_master WHERE type = 'view'"
				   " AND name IN ('clamp_intervals', 'freq_intervals')"), 2);
	assert_int_equal(query_int(t.path, "SELECT count(*) FROM sqlite_master WHERE name IN"
				   " ('clamp_intervals_by_cpu', 'freq_intervals_by_policy')"), 0);
	assert_int_equal(query_int(t.path, "SELECT count(*) FROM clamp_interval_chunks"
				   " WHERE trace_id = 2 AND cpu = 0"), 3);
	assert_int_equal(query_int(t.path, "SELECT max(n) FROM clamp_interval_chunks"), 256);
	query_text(t.path, INTERVAL_ROWS_SQL " WHERE x NOT LIKE '_3,%'", after, size);
	if (strcmp(before, after))
		fail_msg("upgraded views give\n%.300s...\nwant\n%.300s...", after, before);
	assert_int_equal(query_int(t.path, "SELECT count(*) FROM clamp_intervals WHERE trace_id = 3"),
			 40);
	tmpdb_drop(&t);
	free(rec);
	free(before);
	free(after);
}

/*
 * A writer killed with SIGKILL in the middle of a trace: the file opens,
 * passes integrity_check and holds exactly the traces that had committed.
 */
static void test_sigkill(void **state)
{
	struct tmpdb t;
	struct an_db *db;
	struct an_diag d;
	pid_t pid;
	int wst;

	(void)state;
	tmpdb_make(&t);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct an_db_trace b = trace_a;
		int64_t id;

		if (an_db_open(&db, t.path, &d))
			_exit(3);
		write_trace(db, &trace_a, 5);
		b.sha256 = "bb22";
		if (an_db_trace_begin(db, &b, &id, &d))
			_exit(4);
		for (int i = 0; i < 10000; i++) {
			struct an_db_window w = { "rq_clamp", 0, 7, i, i + 1, 1, 2, NULL, NULL,
						  "VR4", NULL, NULL };
			an_db_mismatch_add(db, &w, &d);
		}
		raise(SIGKILL);
		_exit(5);
	}
	assert_int_equal(waitpid(pid, &wst, 0), pid);
	assert_true(WIFSIGNALED(wst) && WTERMSIG(wst) == SIGKILL);
	assert_int_equal(an_db_open(&db, t.path, &d), 0);
	an_db_close(db);
	assert_int_equal(query_int(t.path, "SELECT count(*) FROM traces"), 1);
	assert_int_equal(query_int(t.path, "SELECT count(*) FROM mismatches"), 5);
	{
		sqlite3 *c;
		sqlite3_stmt *st;

		assert_int_equal(sqlite3_open(t.path, &c), SQLITE_OK);
		assert_int_equal(sqlite3_prepare_v2(c, "PRAGMA integrity_check", -1, &st, NULL),
				 SQLITE_OK);
		assert_int_equal(sqlite3_step(st), SQLITE_ROW);
		assert_string_equal((const char *)sqlite3_column_text(st, 0), "ok");
		sqlite3_finalize(st);
		sqlite3_close(c);
	}
	tmpdb_drop(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_contract_columns),
		cmocka_unit_test(test_replace),
		cmocka_unit_test(test_abort),
		cmocka_unit_test(test_bad_verdict),
		cmocka_unit_test(test_refuse),
		cmocka_unit_test(test_refuse_untouched),
		cmocka_unit_test(test_reopen_own),
		cmocka_unit_test(test_sigkill),
		cmocka_unit_test(test_upgrade_v1),
		cmocka_unit_test(test_index_plans),
		cmocka_unit_test(test_interval_chunks),
		cmocka_unit_test(test_upgrade_v2),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
