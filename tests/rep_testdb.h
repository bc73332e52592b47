/* SPDX-License-Identifier: MIT */
/*
 * tests/rep_testdb.h - results databases built by hand for the report tests:
 * a schema 2 file with every table filled with known values, one as ucval's
 * schema 1 wrote it, and a 10-minute, 8-CPU one with a million intervals,
 * upgraded to schema 3 (intervals in chunks) as ucval does on opening it.
 * Include after cmocka.h; the helpers fail the test on any SQLite error.
 */
#ifndef UCVAL_TESTS_REP_TESTDB_H
#define UCVAL_TESTS_REP_TESTDB_H

#include <sqlite3.h>

#include "analyze/store/db.h"

/* The clock every database built here says it was analyzed at. */
#define REP_TEST_NOW	"2026-01-01T00:00:00Z"

/*
 * The v2 tables as schema-v2 defines them (no-ops once analyze creates
 * them), after the schema 3 intervals and the schema 4 rule coverage are
 * dropped: the file is schema 2.
 */
static const char v2_ddl[] =
	"DROP TABLE rule_coverage;"
	"DROP VIEW clamp_intervals; DROP VIEW freq_intervals;"
	"DROP TABLE clamp_interval_chunks; DROP TABLE freq_interval_chunks;"
	"PRAGMA user_version = 2;"
	"CREATE TABLE IF NOT EXISTS tasks(trace_id INTEGER NOT NULL, pid INTEGER NOT NULL,"
	" comm TEXT, first_ns INTEGER, last_ns INTEGER, n_runs INTEGER NOT NULL DEFAULT 0,"
	" PRIMARY KEY(trace_id, pid));"
	"CREATE TABLE IF NOT EXISTS policies(trace_id INTEGER NOT NULL, policy INTEGER NOT NULL,"
	" cpus TEXT NOT NULL, opps_khz TEXT, min_khz INTEGER, max_khz INTEGER,"
	" rate_limit_us INTEGER, PRIMARY KEY(trace_id, policy));"
	"CREATE TABLE IF NOT EXISTS cpus(trace_id INTEGER NOT NULL, cpu INTEGER NOT NULL,"
	" policy INTEGER, capacity INTEGER, known_ns INTEGER, PRIMARY KEY(trace_id, cpu));"
	"CREATE TABLE IF NOT EXISTS clamp_intervals(trace_id INTEGER NOT NULL, cpu INTEGER NOT NULL,"
	" ts_start_ns INTEGER NOT NULL, ts_end_ns INTEGER NOT NULL, uclamp_min INTEGER,"
	" uclamp_max INTEGER);"
	"CREATE TABLE IF NOT EXISTS freq_intervals(trace_id INTEGER NOT NULL, policy INTEGER NOT NULL,"
	" cpu INTEGER NOT NULL, ts_start_ns INTEGER NOT NULL, ts_end_ns INTEGER NOT NULL,"
	" observed_khz INTEGER, expected_khz INTEGER, accepted_lo_khz INTEGER,"
	" accepted_hi_khz INTEGER, is_ok INTEGER);"
	"CREATE TABLE IF NOT EXISTS freq_residency(trace_id INTEGER NOT NULL, policy INTEGER NOT NULL,"
	" khz INTEGER NOT NULL, observed_ns INTEGER NOT NULL, expected_ns INTEGER NOT NULL,"
	" PRIMARY KEY(trace_id, policy, khz));"
	"CREATE TABLE IF NOT EXISTS task_requests(trace_id INTEGER NOT NULL, ts_ns INTEGER NOT NULL,"
	" pid INTEGER NOT NULL, flags INTEGER, util_min INTEGER, util_max INTEGER, ret INTEGER,"
	" model_ret INTEGER);";

/* Trace 1 of a synthetic database: 40 ms from t = 1 s, written by analyze/store/db.c. */
#define SYN_T0	1000000000LL
#define SYN_MS	1000000LL

static void syn_window(struct an_db *db, const struct an_db_window *w)
{
	struct an_diag d;

	an_diag_clear(&d);
	assert_int_equal(an_db_mismatch_add(db, w, &d), 0);
}

static void syn_v1_part(const char *path)
{
	static const struct an_db_verdict verdicts[] = {
		{ "rq_clamp", "PASS", 4, 0, 0, NULL },
		{ "request_result", "FAIL", 3, 1, 0, NULL },
		{ "freq_below_min_clamp", "FAIL", 10, 2, 1, NULL },
		{ "task_effective", "UNDECIDED", 0, 0, 0, "no input: needs uclamp_task_eff events" },
	};
	struct an_db_trace t = {
		.path = "synthetic/v2-sections.txt", .format = "ftrace-text", .sha256 = "00ff",
		.n_events = 100, .t_start_ns = SYN_T0, .t_end_ns = SYN_T0 + 40 * SYN_MS,
		.model = "mainline", .options = "", .kernel = "6.1.0", .analyzed_at = REP_TEST_NOW,
	};
	struct an_diag d;
	struct an_db *db;
	int64_t id;

	an_diag_clear(&d);
	assert_int_equal(an_db_open(&db, path, &d), 0);
	assert_int_equal(an_db_trace_begin(db, &t, &id, &d), 0);
	for (size_t i = 0; i < sizeof(verdicts) / sizeof(verdicts[0]); i++)
		assert_int_equal(an_db_verdict_add(db, &verdicts[i], &d), 0);
	syn_window(db, &(struct an_db_window){ "freq_below_min_clamp", 0, 100, SYN_T0 + 6 * SYN_MS,
		   SYN_T0 + 9 * SYN_MS, 1500000, 1000000, NULL, NULL, "MS1", "below the floor", NULL });
	syn_window(db, &(struct an_db_window){ "freq_below_min_clamp", 0, 100, SYN_T0 + 30 * SYN_MS,
		   SYN_T0 + 32 * SYN_MS, 1500000, 1000000, NULL, NULL, "MS1", "below | floor", NULL });
	syn_window(db, &(struct an_db_window){ "request_result", -1, 200, SYN_T0 + 16 * SYN_MS,
		   SYN_T0 + 16 * SYN_MS, 0, 0, "EINVAL", NULL, "MA2", "kernel 0, model EINVAL", NULL });
	assert_int_equal(an_db_trace_commit(db, &d), 0);
	an_db_close(db);
}

static void exec_sql(sqlite3 *c, const char *sql)
{
	char *msg = NULL;

	if (sqlite3_exec(c, sql, NULL, NULL, &msg) != SQLITE_OK)
		fail_msg("sql '%.60s...': %s", sql, msg ? msg : "?");
}

/* Tasks, two CPUs of one policy, intervals, residency, requests, explain. */
static void make_v2_db(const char *path)
{
	sqlite3 *c;
	sqlite3_stmt *st;
	bool has_explain;

	syn_v1_part(path);
	assert_int_equal(sqlite3_open(path, &c), SQLITE_OK);
	exec_sql(c, v2_ddl);
	assert_int_equal(sqlite3_prepare_v2(c, "SELECT 1 FROM pragma_table_info('mismatches')"
					    " WHERE name = 'explain'", -1, &st, NULL), SQLITE_OK);
	has_explain = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	if (!has_explain)
		exec_sql(c, "ALTER TABLE mismatches ADD COLUMN explain");
	exec_sql(c, "BEGIN;"
		 "UPDATE mismatches SET explain = 'MS1   clamped util          768' || char(10) ||"
		 " 'S10   resolved OPP kHz      1500000' WHERE rule = 'MS1';"
		 "INSERT INTO tasks VALUES(1, 100, 'app', 1000000000, 1040000000, 4);"
		 "INSERT INTO tasks VALUES(1, 200, '<bg> & worker', 1000000000, 1040000000, 2);"
		 "INSERT INTO policies VALUES(1, 0, '0,1', '500000,1000000,1500000,2000000',"
		 " 500000, 2000000, 1000);"
		 "INSERT INTO cpus VALUES(1, 0, 0, 1024, 1000000000);"
		 "INSERT INTO cpus VALUES(1, 1, 0, 1024, NULL);"
		 "INSERT INTO freq_intervals VALUES(1, 0, 0, 1000000000, 1006000000, 1000000, 1000000,"
		 " NULL, NULL, 1), (1, 0, 0, 1006000000, 1009000000, 1000000, 1500000, 1500000, 2000000, 0),"
		 " (1, 0, 0, 1009000000, 1030000000, 1500000, 1500000, NULL, NULL, 1),"
		 " (1, 0, 0, 1030000000, 1032000000, 1000000, 1500000, 1500000, 2000000, 0),"
		 " (1, 0, 0, 1032000000, 1040000000, 2000000, NULL, NULL, NULL, NULL);"
		 "INSERT INTO clamp_intervals VALUES(1, 0, 1000000000, 1005000000, 0, 1024),"
		 " (1, 0, 1005000000, 1020000000, 768, 1024), (1, 0, 1020000000, 1025000000, NULL, NULL),"
		 " (1, 0, 1025000000, 1040000000, 768, 900), (1, 1, 1000000000, 1040000000, 0, 512);"
		 "INSERT INTO freq_residency VALUES(1, 0, 500000, 0, 0), (1, 0, 1000000, 11000000, 0),"
		 " (1, 0, 1500000, 21000000, 32000000), (1, 0, 2000000, 8000000, 0);"
		 "INSERT INTO task_requests VALUES(1, 1001000000, 100, 0, 768, 1024, 0, 0),"
		 " (1, 1015000000, 100, 0, 768, 900, 0, 0), (1, 1016000000, 200, 0, 100, 50, 0, -22);"
		 "COMMIT;");
	sqlite3_close(c);
}

/* The v1 tables as analyze/store/db.c wrote them at schema version 1. */
static const char v1_ddl[] =
	"CREATE TABLE traces(trace_id INTEGER PRIMARY KEY, path TEXT NOT NULL, format TEXT NOT NULL,"
	" sha256 TEXT NOT NULL, n_events INTEGER NOT NULL, t_start_ns INTEGER, t_end_ns INTEGER,"
	" model TEXT NOT NULL, analyzed_at TEXT NOT NULL, options TEXT NOT NULL DEFAULT '',"
	" kernel TEXT, UNIQUE(sha256, options));"
	"CREATE TABLE verdicts(trace_id INTEGER NOT NULL, check_id TEXT NOT NULL, verdict TEXT NOT NULL,"
	" n_checked INTEGER NOT NULL, n_failed INTEGER NOT NULL, n_undecided INTEGER NOT NULL,"
	" reason TEXT, PRIMARY KEY(trace_id, check_id));"
	"CREATE TABLE mismatches(trace_id INTEGER NOT NULL, check_id TEXT NOT NULL, cpu INTEGER,"
	" pid INTEGER, ts_start_ns INTEGER NOT NULL, ts_end_ns INTEGER NOT NULL, expected, observed,"
	" rule TEXT NOT NULL, message TEXT);"
	"CREATE TABLE undecided(trace_id INTEGER NOT NULL, check_id TEXT NOT NULL, cpu INTEGER,"
	" pid INTEGER, ts_start_ns INTEGER NOT NULL, ts_end_ns INTEGER NOT NULL, rule TEXT,"
	" message TEXT);"
	"INSERT INTO traces VALUES(7, 'old.txt', 'ftrace-text', 'aa', 5, 1000000, 2000000, 'v3', 'then', '',"
	" NULL);"
	"INSERT INTO verdicts VALUES(7, 'rq_clamp', 'FAIL', 2, 1, 0, NULL);"
	"INSERT INTO mismatches VALUES(7, 'rq_clamp', 1, NULL, 1020000, 1050000, 256, 0, 'VR4', 'min');"
	"PRAGMA user_version = 1;";

#define BIG_SPAN_NS	(600LL * 1000000000LL)
#define BIG_CPUS	8
#define BIG_FREQ_ROWS	600000		/* over two policies */
#define BIG_CLAMP_ROWS	400000		/* over eight CPUs */
#define BIG_PIDS	40
#define BIG_REQUESTS	20000
#define BIG_WINDOWS	20000

/* Deterministic pseudo-random numbers (a 64-bit LCG, Knuth's MMIX constants). */
static uint64_t lcg(uint64_t *x)
{
	*x = *x * 6364136223846793005ULL + 1442695040888963407ULL;
	return *x >> 33;
}

static void big_rows(sqlite3 *c, const char *sql, int nr, int kind)
{
	static const int64_t opps[] = { 400000, 800000, 1200000, 1600000, 2000000 };
	sqlite3_stmt *st;
	uint64_t x = (uint64_t)kind;

	assert_int_equal(sqlite3_prepare_v2(c, sql, -1, &st, NULL), SQLITE_OK);
	for (int i = 0; i < nr; i++) {
		int64_t step = BIG_SPAN_NS / (nr / (kind == 0 ? 2 : kind == 1 ? BIG_CPUS : 1));
		int64_t lane = kind == 0 ? i % 2 : kind == 1 ? i % BIG_CPUS : (int)(lcg(&x) % BIG_PIDS);
		int64_t t = SYN_T0 + (i / (kind == 0 ? 2 : kind == 1 ? BIG_CPUS : 1)) * step;

		sqlite3_bind_int64(st, 1, lane * (kind == 0 ? 4 : 1) + (kind == 2 ? 1000 : 0));
		sqlite3_bind_int64(st, 2, t);
		sqlite3_bind_int64(st, 3, t + step);
		sqlite3_bind_int64(st, 4, kind == 1 ? (int64_t)(lcg(&x) % 512) : opps[lcg(&x) % 5]);
		sqlite3_bind_int64(st, 5, kind == 1 ? 512 + (int64_t)(lcg(&x) % 512) :
				   opps[lcg(&x) % 5]);
		assert_int_equal(sqlite3_step(st), SQLITE_DONE);
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
}

/* Open @path as analyze does: a schema 2 file becomes schema 3. */
static void upgrade_db(const char *path)
{
	struct an_diag d;
	struct an_db *db;

	an_diag_clear(&d);
	assert_int_equal(an_db_open(&db, path, &d), 0);
	an_db_close(db);
}

static void make_big_db(const char *path)
{
	sqlite3 *c;

	make_v2_db(path);
	assert_int_equal(sqlite3_open(path, &c), SQLITE_OK);
	exec_sql(c, "BEGIN; DELETE FROM policies; DELETE FROM cpus; DELETE FROM freq_intervals;"
		 " DELETE FROM clamp_intervals; DELETE FROM task_requests;"
		 " UPDATE traces SET t_end_ns = t_start_ns + 600000000000;"
		 " INSERT INTO policies VALUES(1, 0, '0-3', '400000,800000,1200000,1600000,2000000',"
		 " NULL, NULL, NULL), (1, 4, '4,5,6,7', '400000,800000,1200000,1600000,2000000',"
		 " NULL, NULL, NULL);");
	big_rows(c, "INSERT INTO freq_intervals VALUES(1, ?1, ?1, ?2, ?3, ?4, ?5, NULL, NULL, NULL)",
		 BIG_FREQ_ROWS, 0);
	big_rows(c, "INSERT INTO clamp_intervals VALUES(1, ?1, ?2, ?3, ?4, ?5)", BIG_CLAMP_ROWS, 1);
	big_rows(c, "INSERT INTO task_requests VALUES(1, ?2, ?1, 0, ?4 % 1024, 1024, 0,"
		 " CASE WHEN ?2 % 7 = 0 THEN -22 ELSE 0 END)", BIG_REQUESTS, 2);
	big_rows(c, "INSERT INTO mismatches(trace_id, check_id, cpu, pid, ts_start_ns, ts_end_ns,"
		 " expected, observed, rule, message) VALUES(1, 'freq_below_min_clamp', ?1 % 8,"
		 " NULL, ?2, ?2 + 1000000, ?4, ?5, 'MS1', 'synthetic')", BIG_WINDOWS, 2);
	exec_sql(c, "COMMIT");
	sqlite3_close(c);
	upgrade_db(path);
}

#endif /* UCVAL_TESTS_REP_TESTDB_H */
