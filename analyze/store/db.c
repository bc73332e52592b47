// SPDX-License-Identifier: MIT
/*
 * analyze/store/db.c - SQLite storage of traces, verdicts and windows (events.md §5).
 *
 * Workload: thousands of traces, each a few dozen verdicts and up to many
 * thousand windows, written by `-j N` processes into one file. So: WAL mode,
 * a busy timeout, one IMMEDIATE transaction per trace, prepared statements
 * reused for every row.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "analyze/store/chunk.h"
#include "analyze/store/db.h"
#include "lib/malloc.h"
#include "analyze/store/series.h"
#include "lib/vec.h"

/*
 * The contract columns (events.md §5) come first in each table and keep their
 * names; the rest is ucval's own. `options` is part of a trace's identity:
 * the same file analyzed with other options is another row.
 */
static const char schema_sql[] =
	"CREATE TABLE IF NOT EXISTS traces("
	" trace_id INTEGER PRIMARY KEY,"
	" path TEXT NOT NULL,"
	" format TEXT NOT NULL,"
	" sha256 TEXT NOT NULL,"
	" n_events INTEGER NOT NULL,"
	" t_start_ns INTEGER,"
	" t_end_ns INTEGER,"
	" model TEXT NOT NULL,"
	" analyzed_at TEXT NOT NULL,"
	" options TEXT NOT NULL DEFAULT '',"
	" kernel TEXT,"
	" events_not_recorded TEXT,"
	" UNIQUE(sha256, options));"
	"CREATE TABLE IF NOT EXISTS verdicts("
	" trace_id INTEGER NOT NULL REFERENCES traces(trace_id) ON DELETE CASCADE,"
	" check_id TEXT NOT NULL,"
	" verdict TEXT NOT NULL CHECK(verdict IN ('PASS', 'FAIL', 'UNDECIDED')),"
	" n_checked INTEGER NOT NULL,"
	" n_failed INTEGER NOT NULL,"
	" n_undecided INTEGER NOT NULL,"
	" reason TEXT,"
	" PRIMARY KEY(trace_id, check_id));"
	"CREATE TABLE IF NOT EXISTS mismatches("
	" trace_id INTEGER NOT NULL REFERENCES traces(trace_id) ON DELETE CASCADE,"
	" check_id TEXT NOT NULL,"
	" cpu INTEGER,"
	" pid INTEGER,"
	" ts_start_ns INTEGER NOT NULL,"
	" ts_end_ns INTEGER NOT NULL,"
	" expected,"
	" observed,"
	" rule TEXT NOT NULL,"
	" message TEXT,"
	" explain TEXT);"
	"CREATE INDEX IF NOT EXISTS mismatches_by_check ON mismatches(check_id, trace_id);"
	"CREATE INDEX IF NOT EXISTS mismatches_by_trace ON mismatches(trace_id, check_id, ts_start_ns);"
	"CREATE TABLE IF NOT EXISTS undecided("
	" trace_id INTEGER NOT NULL REFERENCES traces(trace_id) ON DELETE CASCADE,"
	" check_id TEXT NOT NULL,"
	" cpu INTEGER,"
	" pid INTEGER,"
	" ts_start_ns INTEGER NOT NULL,"
	" ts_end_ns INTEGER NOT NULL,"
	" rule TEXT,"
	" message TEXT);"
	"CREATE INDEX IF NOT EXISTS undecided_by_trace ON undecided(trace_id, check_id);";

/*
 * Schema 3: the intervals in chunks. A dense trace has about one interval
 * every three events, and one SQLite row each, with its index, cost the
 * writer 2 us of CPU: more than the rest of the analysis. A chunk
 * row holds up to DB_CHUNK intervals of one CPU (frequency: of one policy,
 * its first CPU) as a JSON array of [start, end, values...], start and end
 * relative to ts_first_ns, the earliest start; ts_last_ns is the latest end,
 * so a time range finds its chunks through the index. The views
 * clamp_intervals and freq_intervals (schema2_sql) give back the rows
 * schema 2 stored, with the same columns.
 */
#define DB_CHUNK	256
#define DB_STR(x)	#x
#define DB_XSTR(x)	DB_STR(x)

static const char chunks_sql[] =
	"CREATE TABLE IF NOT EXISTS clamp_interval_chunks("
	" trace_id INTEGER NOT NULL REFERENCES traces(trace_id) ON DELETE CASCADE,"
	" cpu INTEGER NOT NULL,"
	" ts_first_ns INTEGER NOT NULL,"
	" ts_last_ns INTEGER NOT NULL,"
	" n INTEGER NOT NULL,"
	" intervals TEXT NOT NULL);"
	"CREATE INDEX IF NOT EXISTS clamp_interval_chunks_by_cpu"
	" ON clamp_interval_chunks(trace_id, cpu, ts_first_ns);"
	"CREATE TABLE IF NOT EXISTS freq_interval_chunks("
	" trace_id INTEGER NOT NULL REFERENCES traces(trace_id) ON DELETE CASCADE,"
	" policy INTEGER NOT NULL,"
	" cpu INTEGER NOT NULL,"
	" ts_first_ns INTEGER NOT NULL,"
	" ts_last_ns INTEGER NOT NULL,"
	" n INTEGER NOT NULL,"
	" intervals TEXT NOT NULL);"
	"CREATE INDEX IF NOT EXISTS freq_interval_chunks_by_policy"
	" ON freq_interval_chunks(trace_id, policy, ts_first_ns);";

/*
 * A schema 2 file: its interval tables become chunks, in the same
 * transaction as the rest of the upgrade.
 */
static const char upgrade_v2_sql[] =
	"INSERT INTO clamp_interval_chunks(trace_id, cpu, ts_first_ns, ts_last_ns, n, intervals)"
	" SELECT trace_id, cpu, f, max(ts_end_ns), count(*), json_group_array(json_array("
	"  ts_start_ns - f, ts_end_ns - f, uclamp_min, uclamp_max))"
	" FROM (SELECT *, min(ts_start_ns) OVER (PARTITION BY trace_id, cpu, k) AS f"
	"  FROM (SELECT *, (row_number() OVER (PARTITION BY trace_id, cpu"
	"   ORDER BY ts_start_ns) - 1) / " DB_XSTR(DB_CHUNK) " AS k FROM clamp_intervals))"
	" GROUP BY trace_id, cpu, k;"
	"DROP TABLE clamp_intervals;"
	"INSERT INTO freq_interval_chunks(trace_id, policy, cpu, ts_first_ns, ts_last_ns, n,"
	" intervals)"
	" SELECT trace_id, policy, cpu, f, max(ts_end_ns), count(*), json_group_array(json_array("
	"  ts_start_ns - f, ts_end_ns - f, observed_khz, expected_khz, accepted_lo_khz,"
	"  accepted_hi_khz, is_ok))"
	" FROM (SELECT *, min(ts_start_ns) OVER (PARTITION BY trace_id, policy, cpu, k) AS f"
	"  FROM (SELECT *, (row_number() OVER (PARTITION BY trace_id, policy, cpu"
	"   ORDER BY ts_start_ns) - 1) / " DB_XSTR(DB_CHUNK) " AS k FROM freq_intervals))"
	" GROUP BY trace_id, policy, cpu, k;"
	"DROP TABLE freq_intervals;";

/*
 * Schema 2: the values behind the verdicts (analyze/store/series.h) and views for
 * the common questions. A schema 1 file gets the column and the tables when
 * a ucval that knows 2 opens it; its old traces simply have no rows there.
 */
static const char schema2_sql[] =
	"CREATE TABLE IF NOT EXISTS tasks("
	" trace_id INTEGER NOT NULL REFERENCES traces(trace_id) ON DELETE CASCADE,"
	" pid INTEGER NOT NULL,"
	" comm TEXT,"
	" first_ns INTEGER,"
	" last_ns INTEGER,"
	" n_runs INTEGER NOT NULL DEFAULT 0,"
	" PRIMARY KEY(trace_id, pid));"
	"CREATE TABLE IF NOT EXISTS policies("
	" trace_id INTEGER NOT NULL REFERENCES traces(trace_id) ON DELETE CASCADE,"
	" policy INTEGER NOT NULL,"
	" cpus TEXT NOT NULL,"
	" opps_khz TEXT,"
	" min_khz INTEGER,"
	" max_khz INTEGER,"
	" rate_limit_us INTEGER,"
	" PRIMARY KEY(trace_id, policy));"
	"CREATE TABLE IF NOT EXISTS cpus("
	" trace_id INTEGER NOT NULL REFERENCES traces(trace_id) ON DELETE CASCADE,"
	" cpu INTEGER NOT NULL,"
	" policy INTEGER,"
	" capacity INTEGER,"
	" known_ns INTEGER,"
	" PRIMARY KEY(trace_id, cpu));"
	/* the model's rq values while the runqueue is known; a gap: unknown */
	"CREATE VIEW IF NOT EXISTS clamp_intervals(trace_id, cpu, ts_start_ns, ts_end_ns,"
	" uclamp_min, uclamp_max) AS"
	" SELECT c.trace_id, c.cpu, c.ts_first_ns + json_extract(j.value, '$[0]'),"
	"  c.ts_first_ns + json_extract(j.value, '$[1]'),"
	"  json_extract(j.value, '$[2]'), json_extract(j.value, '$[3]')"
	" FROM clamp_interval_chunks c, json_each(c.intervals) j;"
	"CREATE VIEW IF NOT EXISTS freq_intervals(trace_id, policy, cpu, ts_start_ns, ts_end_ns,"
	" observed_khz, expected_khz, accepted_lo_khz, accepted_hi_khz, is_ok) AS"
	" SELECT c.trace_id, c.policy, c.cpu, c.ts_first_ns + json_extract(j.value, '$[0]'),"
	"  c.ts_first_ns + json_extract(j.value, '$[1]'),"
	"  json_extract(j.value, '$[2]'), json_extract(j.value, '$[3]'),"
	"  json_extract(j.value, '$[4]'), json_extract(j.value, '$[5]'),"
	"  json_extract(j.value, '$[6]')"
	" FROM freq_interval_chunks c, json_each(c.intervals) j;"
	"CREATE TABLE IF NOT EXISTS freq_residency("
	" trace_id INTEGER NOT NULL REFERENCES traces(trace_id) ON DELETE CASCADE,"
	" policy INTEGER NOT NULL,"
	" khz INTEGER NOT NULL,"
	" observed_ns INTEGER NOT NULL,"
	" expected_ns INTEGER NOT NULL,"
	" PRIMARY KEY(trace_id, policy, khz));"
	"CREATE TABLE IF NOT EXISTS task_requests("
	" trace_id INTEGER NOT NULL REFERENCES traces(trace_id) ON DELETE CASCADE,"
	" ts_ns INTEGER NOT NULL,"
	" pid INTEGER NOT NULL,"
	" flags INTEGER,"
	" util_min INTEGER,"
	" util_max INTEGER,"
	" ret INTEGER,"
	" model_ret INTEGER);"
	"CREATE INDEX IF NOT EXISTS task_requests_by_trace ON task_requests(trace_id, pid, ts_ns);"
	"CREATE INDEX IF NOT EXISTS traces_by_path ON traces(path);"
	"CREATE INDEX IF NOT EXISTS verdicts_by_check ON verdicts(check_id, verdict);"
	"CREATE INDEX IF NOT EXISTS freq_residency_by_policy ON freq_residency(policy, khz);"
	"CREATE INDEX IF NOT EXISTS cpus_by_cpu ON cpus(cpu, policy);"
	/* per check across traces: how many traces pass, fail, doubt; windows and time */
	"CREATE VIEW IF NOT EXISTS v_check_summary AS"
	" SELECT v.check_id,"
	"  COUNT(*) AS n_traces,"
	"  SUM(v.verdict = 'PASS') AS n_pass,"
	"  SUM(v.verdict = 'FAIL') AS n_fail,"
	"  SUM(v.verdict = 'UNDECIDED') AS n_undecided,"
	"  SUM(v.n_failed) AS n_windows,"
	"  COALESCE((SELECT SUM(m.ts_end_ns - m.ts_start_ns) FROM mismatches m"
	"   WHERE m.check_id = v.check_id), 0) AS fail_ns"
	" FROM verdicts v GROUP BY v.check_id;"
	/* every FAIL window with its trace path, task name and duration */
	"CREATE VIEW IF NOT EXISTS v_mismatch_detail AS"
	" SELECT m.trace_id, t.path, m.check_id, m.cpu, m.pid, k.comm,"
	"  m.ts_start_ns, m.ts_end_ns, m.ts_end_ns - m.ts_start_ns AS duration_ns,"
	"  m.expected, m.observed, m.rule, m.message, m.explain"
	" FROM mismatches m JOIN traces t USING(trace_id)"
	" LEFT JOIN tasks k ON k.trace_id = m.trace_id AND k.pid = m.pid;"
	/* tasks most often involved in FAIL windows */
	"CREATE VIEW IF NOT EXISTS v_task_mismatches AS"
	" SELECT m.trace_id, t.path, m.pid, k.comm, COUNT(*) AS n_windows,"
	"  SUM(m.ts_end_ns - m.ts_start_ns) AS fail_ns"
	" FROM mismatches m JOIN traces t USING(trace_id)"
	" LEFT JOIN tasks k ON k.trace_id = m.trace_id AND k.pid = m.pid"
	" WHERE m.pid IS NOT NULL GROUP BY m.trace_id, m.pid;"
	/* time per OPP, observed and expected, with shares of the judged time */
	"CREATE VIEW IF NOT EXISTS v_residency AS"
	" SELECT r.trace_id, t.path, r.policy, r.khz, r.observed_ns, r.expected_ns,"
	"  CAST(r.observed_ns AS REAL) / NULLIF((SELECT SUM(x.observed_ns) FROM freq_residency x"
	"   WHERE x.trace_id = r.trace_id AND x.policy = r.policy), 0) AS observed_share,"
	"  CAST(r.expected_ns AS REAL) / NULLIF((SELECT SUM(x.expected_ns) FROM freq_residency x"
	"   WHERE x.trace_id = r.trace_id AND x.policy = r.policy), 0) AS expected_share"
	" FROM freq_residency r JOIN traces t USING(trace_id);";

/*
 * Schema 4: rule coverage, per trace, check and spec rule: how often the
 * rule decided an expected value the check compared with the kernel, and
 * the trace time those comparisons cover. Only rules that decided
 * something have a row. A schema 3 file gets the table when opened.
 */
static const char schema4_sql[] =
	"CREATE TABLE IF NOT EXISTS rule_coverage("
	" trace_id INTEGER NOT NULL REFERENCES traces(trace_id) ON DELETE CASCADE,"
	" check_id TEXT NOT NULL,"
	" rule TEXT NOT NULL,"
	" times INTEGER NOT NULL,"
	" decided_ns INTEGER NOT NULL,"
	" PRIMARY KEY(trace_id, check_id, rule));";

/*
 * Schema 4 too: labels of a trace (`ucval analyze --tag key=value`, `kernel`
 * from the trace unless given), for grouping and comparing traces in
 * reports. Not part of a trace's identity: a re-analysis replaces them.
 */
static const char labels_sql[] =
	"CREATE TABLE IF NOT EXISTS trace_labels("
	" trace_id INTEGER NOT NULL REFERENCES traces(trace_id) ON DELETE CASCADE,"
	" key TEXT NOT NULL,"
	" value TEXT NOT NULL,"
	" PRIMARY KEY(trace_id, key));"
	"CREATE INDEX IF NOT EXISTS trace_labels_by_key ON trace_labels(key, value);";

enum stmt_id {
	ST_FIND_TRACE,
	ST_DELETE_TRACE,
	ST_INSERT_TRACE,
	ST_UPDATE_TRACE,
	ST_INSERT_VERDICT,
	ST_INSERT_MISMATCH,
	ST_INSERT_UNDECIDED,
	ST_INSERT_TASK,
	ST_INSERT_CPU,
	ST_INSERT_POLICY,
	ST_INSERT_CLAMP_CHUNK,
	ST_INSERT_FREQ_CHUNK,
	ST_INSERT_REQUEST,
	ST_INSERT_RESIDENCY,
	ST_INSERT_COVERAGE,
	ST_INSERT_LABEL,
	ST_COUNT,
};

static const char *const stmt_sql[ST_COUNT] = {
	[ST_FIND_TRACE] = "SELECT trace_id FROM traces WHERE sha256 = ?1 AND options = ?2",
	[ST_DELETE_TRACE] = "DELETE FROM traces WHERE trace_id = ?1",
	[ST_INSERT_TRACE] =
		"INSERT INTO traces(path, format, sha256, n_events, t_start_ns, t_end_ns,"
		" model, analyzed_at, options, kernel, events_not_recorded)"
		" VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
	[ST_UPDATE_TRACE] =
		"UPDATE traces SET path = ?2, format = ?3, sha256 = ?4, n_events = ?5,"
		" t_start_ns = ?6, t_end_ns = ?7, model = ?8, analyzed_at = ?9, options = ?10,"
		" kernel = ?11, events_not_recorded = ?12 WHERE trace_id = ?1",
	[ST_INSERT_VERDICT] =
		"INSERT INTO verdicts(trace_id, check_id, verdict, n_checked, n_failed,"
		" n_undecided, reason) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7)",
	[ST_INSERT_MISMATCH] =
		"INSERT INTO mismatches(trace_id, check_id, cpu, pid, ts_start_ns, ts_end_ns,"
		" expected, observed, rule, message, explain)"
		" VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
	[ST_INSERT_UNDECIDED] =
		"INSERT INTO undecided(trace_id, check_id, cpu, pid, ts_start_ns, ts_end_ns,"
		" rule, message) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
	/* a pid's row written out early meets its later one: an_series_task_merge() */
	[ST_INSERT_TASK] =
		"INSERT INTO tasks(trace_id, pid, comm, first_ns, last_ns, n_runs)"
		" VALUES(?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT(trace_id, pid) DO UPDATE SET"
		" comm = coalesce(excluded.comm, comm), first_ns = min(first_ns, excluded.first_ns),"
		" last_ns = max(last_ns, excluded.last_ns), n_runs = n_runs + excluded.n_runs",
	[ST_INSERT_CPU] =
		"INSERT INTO cpus(trace_id, cpu, policy, capacity, known_ns) VALUES(?1, ?2, ?3, ?4, ?5)",
	[ST_INSERT_POLICY] =
		"INSERT INTO policies(trace_id, policy, cpus, opps_khz, min_khz, max_khz, rate_limit_us)"
		" VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7)",
	[ST_INSERT_CLAMP_CHUNK] =
		"INSERT INTO clamp_interval_chunks(trace_id, cpu, ts_first_ns, ts_last_ns, n,"
		" intervals) VALUES(?1, ?2, ?3, ?4, ?5, ?6)",
	[ST_INSERT_FREQ_CHUNK] =
		"INSERT INTO freq_interval_chunks(trace_id, policy, cpu, ts_first_ns, ts_last_ns, n,"
		" intervals) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7)",
	[ST_INSERT_REQUEST] =
		"INSERT INTO task_requests(trace_id, ts_ns, pid, flags, util_min, util_max, ret,"
		" model_ret) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
	[ST_INSERT_RESIDENCY] =
		"INSERT INTO freq_residency(trace_id, policy, khz, observed_ns, expected_ns)"
		" VALUES(?1, ?2, ?3, ?4, ?5)",
	[ST_INSERT_COVERAGE] =
		"INSERT INTO rule_coverage(trace_id, check_id, rule, times, decided_ns)"
		" VALUES(?1, ?2, ?3, ?4, ?5)",
	[ST_INSERT_LABEL] =
		"INSERT INTO trace_labels(trace_id, key, value) VALUES(?1, ?2, ?3)",
};

/*
 * freq_residency while the frequency intervals go by: per policy and OPP,
 * the time observed there and the time expected there, over the judged time
 * only (is_ok and expected_khz known), so both columns cover the same span.
 * An open-addressing table: few keys (policies times OPPs), any number of
 * intervals. It used to be an INSERT ... SELECT over freq_intervals, which
 * cost about 30 % of the whole database write.
 */
struct residency_slot {
	int policy;
	long long khz;
	long long observed_ns;
	long long expected_ns;
	bool is_used;
};

struct residency {
	struct residency_slot *slot;
	size_t size;		/* a power of two, 0 before the first key */
	size_t nr;
};

static void residency_clear(struct residency *r)
{
	free(r->slot);
	memset(r, 0, sizeof(*r));
}

/*
 * The intervals of one CPU (frequency: of one policy, by its first CPU) not
 * yet written: a chunk row when DB_CHUNK of them are here, or at the
 * trace's end (chunks_put_all()).
 */
struct chunk {
	unsigned int n;
	struct an_series_rec rec[DB_CHUNK];
};

/* The text of a full chunk: its intervals within brackets (analyze/store/chunk.h) */
#define DB_TEXT_SIZE	(DB_CHUNK * AN_CHUNK_REC_TEXT + 2)

/* CPUs whose CPU ids an interval may have (analyze/replay/replay.h has as many). */
#define DB_MAX_CPUS	4096

/* The open chunks of one kind, by CPU: allocated on a CPU's first interval. */
struct chunks {
	struct chunk **of_cpu;
	size_t alloc;
};

struct an_db {
	sqlite3 *conn;
	sqlite3_stmt *stmt[ST_COUNT];
	int64_t trace_id;		/* of the open transaction, 0 when none */
	struct residency res;		/* of the open trace's frequency intervals */
	struct chunks clamp;		/* of the open trace */
	struct chunks freq;
	char *text;			/* a chunk's JSON, DB_TEXT_SIZE bytes */
	char *path;
	uint64_t busy_since_ns;		/* when the current wait for the lock began */
};

static int chunks_put_all(struct an_db *db, struct an_diag *d);
static void chunks_clear(struct an_db *db, bool is_free);

static int db_fail(struct an_db *db, struct an_diag *d, const char *doing)
{
	return an_diag_fail(d, AN_E_DB, "%s: %s", doing,
			    db && db->conn ? sqlite3_errmsg(db->conn) : "no connection");
}

static int exec(struct an_db *db, const char *sql, struct an_diag *d)
{
	char *msg = NULL;

	if (sqlite3_exec(db->conn, sql, NULL, NULL, &msg) == SQLITE_OK)
		return 0;
	an_diag_fail(d, AN_E_DB, "%s", msg ? msg : sqlite3_errmsg(db->conn));
	sqlite3_free(msg);
	return AN_E_DB;
}

static int read_user_version(struct an_db *db, int *version, struct an_diag *d)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db->conn, "PRAGMA user_version", -1, &st, NULL) != SQLITE_OK)
		return db_fail(db, d, "cannot read the schema version");
	rc = sqlite3_step(st);
	*version = rc == SQLITE_ROW ? sqlite3_column_int(st, 0) : 0;
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : db_fail(db, d, "cannot read the schema version");
}

/*
 * Every table a ucval database has held, in any schema version (the
 * interval tables of schema 2 are views since 3). test_an_db checks that a
 * new database has no other.
 */
static const char *const own_tables[] = {
	"traces", "verdicts", "mismatches", "undecided", "clamp_interval_chunks",
	"freq_interval_chunks", "tasks", "policies", "cpus", "freq_residency",
	"task_requests", "clamp_intervals", "freq_intervals", "rule_coverage",
	"trace_labels",
};

/**
 * an_db_is_own_table() - whether some ucval schema has a table @name
 * @name: a table name
 *
 * Return: true for the tables of own_tables[].
 */
bool an_db_is_own_table(const char *name)
{
	for (size_t i = 0; i < sizeof(own_tables) / sizeof(own_tables[0]); i++)
		if (!strcmp(name, own_tables[i]))
			return true;
	return false;
}

/*
 * Before anything is written: a file with tables of somebody else's is not
 * a results database, and one of a newer ucval is not ours to change (not
 * even its journal mode).
 */
static int check_foreign(struct an_db *db, struct an_diag *d)
{
	sqlite3_stmt *st;
	int version, rc, err = read_user_version(db, &version, d);

	if (err)
		return err;
	if (version > AN_DB_SCHEMA_VERSION)
		return an_diag_fail(d, AN_E_SCHEMA, "schema version %d, this ucval knows %d",
				    version, AN_DB_SCHEMA_VERSION);
	if (sqlite3_prepare_v2(db->conn, "SELECT name FROM sqlite_master WHERE type = 'table'"
			       " AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name", -1,
			       &st, NULL) != SQLITE_OK)
		return db_fail(db, d, "cannot read the tables");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);

		if (name && !an_db_is_own_table(name)) {
			err = an_diag_fail(d, AN_E_DB, "not a ucval results database: it has a "
					   "table '%.64s' of its own, and ucval writes into no "
					   "other program's database", name);
			break;
		}
	}
	if (!err && rc != SQLITE_DONE)
		err = db_fail(db, d, "cannot read the tables");
	sqlite3_finalize(st);
	return err;
}

/* An existing path must be a regular file: SQLite would put a journal beside a device. */
static int check_path(const char *path, struct an_diag *d)
{
	struct stat sb;

	if (!*path)
		return an_diag_fail(d, AN_E_DB, "empty path (SQLite would use a temporary "
				    "database and the results would be lost)");
	if (stat(path, &sb))
		return errno == ENOENT ? 0 : an_diag_fail(d, -errno, "%s", strerror(errno));
	if (!S_ISREG(sb.st_mode))
		return an_diag_fail(d, AN_E_DB, "not a regular file");
	return 0;
}

/*
 * A column schema 3 gained without a new version: an older file gets it
 * here (an older ucval ignores it, and leaves it NULL in its rows).
 */
static int add_column(struct an_db *db, const char *table, const char *column,
		      const char *type, struct an_diag *d)
{
	char sql[160];
	sqlite3_stmt *st;
	int rc;

	snprintf(sql, sizeof(sql), "SELECT 1 FROM pragma_table_info('%s') WHERE name = '%s'",
		 table, column);
	if (sqlite3_prepare_v2(db->conn, sql, -1, &st, NULL) != SQLITE_OK)
		return db_fail(db, d, "cannot read the schema");
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc == SQLITE_ROW)
		return 0;
	if (rc != SQLITE_DONE)
		return db_fail(db, d, "cannot read the schema");
	snprintf(sql, sizeof(sql), "ALTER TABLE %s ADD COLUMN %s %s", table, column, type);
	return exec(db, sql, d);
}

/*
 * Create the schema, or check that an existing one is ours and not newer.
 * Done inside an IMMEDIATE transaction so that two `-j` writers opening a
 * new file at once do not both create it.
 */
static int setup_schema(struct an_db *db, struct an_diag *d)
{
	char sql[64];
	int version, err;

	err = exec(db, "BEGIN IMMEDIATE", d);
	if (err)
		return err;
	err = read_user_version(db, &version, d);
	if (err)
		goto out_rollback;
	if (version > AN_DB_SCHEMA_VERSION) {
		err = an_diag_fail(d, AN_E_SCHEMA, "schema version %d, this ucval knows %d",
				   version, AN_DB_SCHEMA_VERSION);
		goto out_rollback;
	}
	err = exec(db, schema_sql, d);
	if (!err && version == 1)
		err = exec(db, "ALTER TABLE mismatches ADD COLUMN explain TEXT", d);
	if (!err)
		err = add_column(db, "traces", "events_not_recorded", "TEXT", d);
	if (!err)
		err = exec(db, chunks_sql, d);
	if (!err && version == 2)
		err = exec(db, upgrade_v2_sql, d);
	if (!err)
		err = exec(db, schema2_sql, d);
	if (!err)
		err = exec(db, schema4_sql, d);
	if (!err)
		err = exec(db, labels_sql, d);
	if (err)
		goto out_rollback;
	snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", AN_DB_SCHEMA_VERSION);
	err = exec(db, sql, d);
	if (err)
		goto out_rollback;
	return exec(db, "COMMIT", d);
out_rollback:
	sqlite3_exec(db->conn, "ROLLBACK", NULL, NULL, NULL);
	return err;
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/*
 * The wait for another writer's transaction (`-j N` into one database):
 * retry every millisecond up to AN_DB_BUSY_TIMEOUT_MS. SQLite's own
 * sqlite3_busy_timeout() sleeps in steps that grow to 100 ms, so a writer
 * went on sleeping up to 100 ms after the lock was free (four 1 M-event
 * traces, -j 2: three waits of about two seconds, slept in 66 steps of
 * 100 ms). A retry costs a lock attempt, a few microseconds.
 */
static int busy_wait(void *ctx, int count)
{
	struct an_db *db = ctx;
	uint64_t now = mono_ns();

	if (!count)
		db->busy_since_ns = now;
	if (now - db->busy_since_ns >= (uint64_t)AN_DB_BUSY_TIMEOUT_MS * 1000000ULL)
		return 0;
	sqlite3_sleep(1);
	return 1;
}

/* Wait for the write lock (busy_wait()), or fail at once with SQLITE_BUSY. */
static void set_busy_wait(struct an_db *db, bool is_waiting)
{
	sqlite3_busy_handler(db->conn, is_waiting ? busy_wait : NULL, db);
}

/*
 * WAL lets `-j N` writers analyze while another commits. Switching a file to
 * WAL needs an exclusive lock, and SQLite answers SQLITE_BUSY there without
 * calling the busy handler when another process is opening the same new file
 * at that moment: retry for as long as the busy timeout allows.
 */
static int set_wal(struct an_db *db, struct an_diag *d)
{
	for (int waited_ms = 0;; waited_ms += 10) {
		int rc = sqlite3_exec(db->conn, "PRAGMA journal_mode = WAL", NULL, NULL, NULL);

		if (rc == SQLITE_OK)
			return 0;
		if ((rc & 0xff) != SQLITE_BUSY || waited_ms >= AN_DB_BUSY_TIMEOUT_MS)
			return db_fail(db, d, "cannot switch to WAL");
		sqlite3_sleep(10);
	}
}

/**
 * an_db_setup_process() - process-wide SQLite settings for writing results:
 * no memory statistics (SQLite then takes a global mutex for every
 * allocation: 7 % of the instructions of an interval's insert, measured)
 *
 * Call while the process has a single thread, before any database is opened.
 * Once SQLite is initialised the setting is refused, harmlessly.
 */
void an_db_setup_process(void)
{
	(void)sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

/**
 * an_db_open() - open or create a results database
 * @out: the handle, to be closed with an_db_close()
 * @path: the file
 * @d: filled on failure
 *
 * Return: 0, -ENOMEM, AN_E_DB (not a database, unwritable ...) or
 * AN_E_SCHEMA (written by a newer ucval).
 */
int an_db_open(struct an_db **out, const char *path, struct an_diag *d)
{
	struct an_db *db;
	int err;

	an_diag_clear(d);
	an_diag_set_file(d, "open database", path);
	*out = NULL;
	db = calloc(1, sizeof(*db));
	if (!db)
		return an_diag_fail(d, -ENOMEM, "out of memory");
	db->path = strdup(path);
	if (!db->path) {
		err = an_diag_fail(d, -ENOMEM, "out of memory");
		goto out_free;
	}
	err = check_path(path, d);
	if (err)
		goto out_free;
	/* one connection per worker, never shared between threads: no mutexes */
	if (sqlite3_open_v2(path, &db->conn, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
			    SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
		err = db_fail(db, d, "cannot open");
		goto out_free;
	}
	set_busy_wait(db, true);
	/*
	 * Off for this writer: it deletes an earlier analysis' rows itself
	 * (delete_previous()), and checking each inserted row's trace_id
	 * against `traces` was a tenth of the write. The schema keeps its
	 * REFERENCES ... ON DELETE CASCADE for anyone who turns them on.
	 */
	err = check_foreign(db, d);
	if (!err)
		err = exec(db, "PRAGMA foreign_keys = OFF", d);
	/* WAL: a commit stays atomic and durable against a crash of ucval; only
	 * a power loss may undo the last traces (never corrupt the file) */
	if (!err)
		err = exec(db, "PRAGMA synchronous = NORMAL", d);
	if (!err)
		err = set_wal(db, d);
	if (!err)
		err = setup_schema(db, d);
	if (err)
		goto out_free;
	for (int i = 0; i < ST_COUNT; i++) {
		if (sqlite3_prepare_v3(db->conn, stmt_sql[i], -1, SQLITE_PREPARE_PERSISTENT,
				       &db->stmt[i], NULL) != SQLITE_OK) {
			err = db_fail(db, d, "cannot prepare a statement");
			goto out_free;
		}
	}
	*out = db;
	return 0;
out_free:
	an_db_close(db);
	return err;
}

/**
 * an_db_close() - close @db; an open trace transaction is rolled back
 * @db: the handle, may be NULL
 */
void an_db_close(struct an_db *db)
{
	if (!db)
		return;
	if (db->trace_id)
		an_db_trace_abort(db);
	chunks_clear(db, true);
	for (int i = 0; i < ST_COUNT; i++)
		sqlite3_finalize(db->stmt[i]);
	sqlite3_close(db->conn);
	free(db->path);
	free(db);
}

static void bind_text_or_null(sqlite3_stmt *st, int col, const char *s)
{
	if (s)
		sqlite3_bind_text(st, col, s, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, col);
}

static void bind_int_or_null(sqlite3_stmt *st, int col, int v)
{
	if (v >= 0)
		sqlite3_bind_int(st, col, v);
	else
		sqlite3_bind_null(st, col);
}

/* Step a prepared statement that returns no row, then reset it for reuse. */
static int step_done(struct an_db *db, enum stmt_id id, struct an_diag *d, const char *doing)
{
	sqlite3_stmt *st = db->stmt[id];
	int rc = sqlite3_step(st);
	int err = rc == SQLITE_DONE ? 0 : db_fail(db, d, doing);

	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return err;
}

/*
 * Every table whose rows belong to a trace (a trace_id column): replacing
 * a trace deletes its rows from each (test_cli checks that no table is
 * left out).
 */
static const char *const child_tables[] = {
	"verdicts", "mismatches", "undecided", "tasks", "policies", "cpus",
	"clamp_interval_chunks", "freq_interval_chunks", "freq_residency", "task_requests",
	"rule_coverage", "trace_labels",
};

static int delete_previous(struct an_db *db, const struct an_db_trace *t, struct an_diag *d)
{
	sqlite3_stmt *st = db->stmt[ST_FIND_TRACE];
	int64_t old = 0;
	int rc;

	sqlite3_bind_text(st, 1, t->sha256, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, t->options ? t->options : "", -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		old = sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return db_fail(db, d, "cannot look up an earlier analysis");
	if (!old)
		return 0;
	for (size_t i = 0; i < sizeof(child_tables) / sizeof(child_tables[0]); i++) {
		char sql[96];
		sqlite3_stmt *del;

		snprintf(sql, sizeof(sql), "DELETE FROM %s WHERE trace_id = ?1", child_tables[i]);
		if (sqlite3_prepare_v2(db->conn, sql, -1, &del, NULL) != SQLITE_OK)
			return db_fail(db, d, "cannot replace an earlier analysis");
		sqlite3_bind_int64(del, 1, old);
		rc = sqlite3_step(del);
		sqlite3_finalize(del);
		if (rc != SQLITE_DONE)
			return db_fail(db, d, "cannot replace an earlier analysis");
	}
	sqlite3_bind_int64(db->stmt[ST_DELETE_TRACE], 1, old);
	return step_done(db, ST_DELETE_TRACE, d, "cannot replace an earlier analysis");
}

static int need_trace(struct an_db *db, struct an_diag *d)
{
	if (db->trace_id)
		return 0;
	return an_diag_fail(d, -EINVAL, "no trace is being written");
}

/* The columns of @t from @col on, in the order of ST_INSERT_TRACE. */
static void bind_trace(sqlite3_stmt *st, int col, const struct an_db_trace *t)
{
	sqlite3_bind_text(st, col++, t->path, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, col++, t->format, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, col++, t->sha256, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, col++, (sqlite3_int64)t->n_events);
	sqlite3_bind_int64(st, col++, t->t_start_ns);
	sqlite3_bind_int64(st, col++, t->t_end_ns);
	sqlite3_bind_text(st, col++, t->model, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, col++, t->analyzed_at, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, col++, t->options ? t->options : "", -1, SQLITE_STATIC);
	bind_text_or_null(st, col++, t->kernel);
	bind_text_or_null(st, col, t->events_not_recorded);
}

/* Insert @t inside the open transaction: it becomes the trace being written. */
static int insert_trace(struct an_db *db, const struct an_db_trace *t, struct an_diag *d)
{
	int err;

	bind_trace(db->stmt[ST_INSERT_TRACE], 1, t);
	err = step_done(db, ST_INSERT_TRACE, d, "cannot insert the trace");
	if (err)
		return err;
	db->trace_id = sqlite3_last_insert_rowid(db->conn);
	return 0;
}

/**
 * an_db_trace_begin() - start writing one trace's results
 * @db: the database
 * @t: the trace row; an earlier row with the same sha256 and options is
 *     replaced (its verdicts and windows too) when the transaction commits
 * @trace_id: the new trace's id
 * @d: filled on failure
 *
 * Opens an IMMEDIATE transaction that an_db_trace_commit() or
 * an_db_trace_abort() ends.
 *
 * Return: 0, -EBUSY if a trace transaction is already open, or AN_E_DB.
 */
int an_db_trace_begin(struct an_db *db, const struct an_db_trace *t, int64_t *trace_id,
		      struct an_diag *d)
{
	int err;

	an_diag_clear(d);
	an_diag_set_file(d, "write database", db->path);
	if (db->trace_id)
		return an_diag_fail(d, -EBUSY, "a trace is already being written");
	err = exec(db, "BEGIN IMMEDIATE", d);
	if (err)
		return err;
	err = delete_previous(db, t, d);
	if (!err)
		err = insert_trace(db, t, d);
	if (err) {
		sqlite3_exec(db->conn, "ROLLBACK", NULL, NULL, NULL);
		return err;
	}
	*trace_id = db->trace_id;
	return 0;
}

/**
 * an_db_trace_open() - start writing a trace whose analysis still runs
 * @db: the database
 * @path: the trace file as given
 * @options: the analysis' options (part of its identity)
 * @trace_id: the new trace's id
 * @d: filled on failure
 *
 * Takes the write lock only when it is free now: a caller that gets -EBUSY
 * analyzes first and writes with an_db_trace_begin() afterwards, as it
 * would have without this call. The trace row holds a placeholder sha256
 * until an_db_trace_set(); no one sees it before the commit.
 *
 * Return: 0, -EBUSY (the database is being written, or a trace is open
 * here), AN_E_DB.
 */
int an_db_trace_open(struct an_db *db, const char *path, const char *options,
		     int64_t *trace_id, struct an_diag *d)
{
	char pending[64];
	struct an_db_trace t = {
		.path = path, .format = "?", .sha256 = pending, .model = "?",
		.options = options, .analyzed_at = "?",
	};
	int rc, err;

	an_diag_clear(d);
	an_diag_set_file(d, "write database", db->path);
	if (db->trace_id)
		return an_diag_fail(d, -EBUSY, "a trace is already being written");
	set_busy_wait(db, false);
	rc = sqlite3_exec(db->conn, "BEGIN IMMEDIATE", NULL, NULL, NULL);
	set_busy_wait(db, true);
	if ((rc & 0xff) == SQLITE_BUSY)
		return an_diag_fail(d, -EBUSY, "another writer holds the database");
	if (rc != SQLITE_OK)
		return db_fail(db, d, "cannot begin a transaction");
	/* unique among concurrent writers: one open trace per handle */
	snprintf(pending, sizeof(pending), "pending:%ld:%p", (long)getpid(), (void *)db);
	err = insert_trace(db, &t, d);
	if (err) {
		sqlite3_exec(db->conn, "ROLLBACK", NULL, NULL, NULL);
		return err;
	}
	*trace_id = db->trace_id;
	return 0;
}

/**
 * an_db_trace_set() - give the trace opened by an_db_trace_open() its row
 * @db: the database, inside an_db_trace_open()
 * @t: the row; an earlier row with the same sha256 and options is replaced
 *     (its verdicts and windows too) when the transaction commits
 * @d: filled on failure
 *
 * Return: 0, -EINVAL outside a trace, AN_E_DB.
 */
int an_db_trace_set(struct an_db *db, const struct an_db_trace *t, struct an_diag *d)
{
	sqlite3_stmt *st = db->stmt[ST_UPDATE_TRACE];
	int err = need_trace(db, d);

	if (!err)
		err = delete_previous(db, t, d);
	if (err)
		return err;
	sqlite3_bind_int64(st, 1, db->trace_id);
	bind_trace(st, 2, t);
	return step_done(db, ST_UPDATE_TRACE, d, "cannot update the trace");
}

/**
 * an_db_verdict_add() - store the verdict of one check for the open trace
 * @db: the database, inside an_db_trace_begin()
 * @v: the verdict
 * @d: filled on failure
 *
 * Return: 0, -EINVAL outside a trace, AN_E_DB (e.g. an unknown verdict word).
 */
int an_db_verdict_add(struct an_db *db, const struct an_db_verdict *v, struct an_diag *d)
{
	sqlite3_stmt *st = db->stmt[ST_INSERT_VERDICT];
	int err = need_trace(db, d);

	if (err)
		return err;
	sqlite3_bind_int64(st, 1, db->trace_id);
	sqlite3_bind_text(st, 2, v->check_id, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, v->verdict, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, (sqlite3_int64)v->n_checked);
	sqlite3_bind_int64(st, 5, (sqlite3_int64)v->n_failed);
	sqlite3_bind_int64(st, 6, (sqlite3_int64)v->n_undecided);
	bind_text_or_null(st, 7, v->reason);
	return step_done(db, ST_INSERT_VERDICT, d, "cannot insert a verdict");
}

/**
 * an_db_coverage_add() - one row of `rule_coverage` for the open trace
 * @db: the database
 * @c: the row (strings borrowed)
 * @d: filled on failure
 *
 * Return: 0, -EINVAL (no trace open) or AN_E_DB.
 */
int an_db_coverage_add(struct an_db *db, const struct an_db_coverage *c, struct an_diag *d)
{
	sqlite3_stmt *st = db->stmt[ST_INSERT_COVERAGE];
	int err = need_trace(db, d);

	if (err)
		return err;
	sqlite3_bind_int64(st, 1, db->trace_id);
	sqlite3_bind_text(st, 2, c->check_id, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, c->rule, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, (sqlite3_int64)c->times);
	sqlite3_bind_int64(st, 5, (sqlite3_int64)c->decided_ns);
	return step_done(db, ST_INSERT_COVERAGE, d, "cannot insert rule coverage");
}

static void bind_value(sqlite3_stmt *st, int col, long long v, const char *text)
{
	if (text)
		sqlite3_bind_text(st, col, text, -1, SQLITE_STATIC);
	else
		sqlite3_bind_int64(st, col, v);
}

/**
 * an_db_mismatch_add() - store one FAIL window of the open trace
 * @db: the database, inside an_db_trace_begin()
 * @w: the window (one contiguous disagreement, events.md §5)
 * @d: filled on failure
 *
 * Return: 0, -EINVAL outside a trace or for an inverted window, AN_E_DB.
 */
int an_db_mismatch_add(struct an_db *db, const struct an_db_window *w, struct an_diag *d)
{
	sqlite3_stmt *st = db->stmt[ST_INSERT_MISMATCH];
	int err = need_trace(db, d);

	if (err)
		return err;
	if (w->ts_end_ns < w->ts_start_ns)
		return an_diag_fail(d, -EINVAL, "%s: window ends before it starts", w->check_id);
	sqlite3_bind_int64(st, 1, db->trace_id);
	sqlite3_bind_text(st, 2, w->check_id, -1, SQLITE_STATIC);
	bind_int_or_null(st, 3, w->cpu);
	bind_int_or_null(st, 4, w->pid);
	sqlite3_bind_int64(st, 5, w->ts_start_ns);
	sqlite3_bind_int64(st, 6, w->ts_end_ns);
	bind_value(st, 7, w->expected, w->expected_text);
	bind_value(st, 8, w->observed, w->observed_text);
	sqlite3_bind_text(st, 9, w->rule, -1, SQLITE_STATIC);
	bind_text_or_null(st, 10, w->message);
	bind_text_or_null(st, 11, w->explain);
	return step_done(db, ST_INSERT_MISMATCH, d, "cannot insert a mismatch");
}

/**
 * an_db_undecided_add() - store one UNDECIDED window of the open trace
 * @db: the database, inside an_db_trace_begin()
 * @w: the window; expected/observed are not stored
 * @d: filled on failure
 *
 * Return: 0, -EINVAL outside a trace or for an inverted window, AN_E_DB.
 */
int an_db_undecided_add(struct an_db *db, const struct an_db_window *w, struct an_diag *d)
{
	sqlite3_stmt *st = db->stmt[ST_INSERT_UNDECIDED];
	int err = need_trace(db, d);

	if (err)
		return err;
	if (w->ts_end_ns < w->ts_start_ns)
		return an_diag_fail(d, -EINVAL, "%s: window ends before it starts", w->check_id);
	sqlite3_bind_int64(st, 1, db->trace_id);
	sqlite3_bind_text(st, 2, w->check_id, -1, SQLITE_STATIC);
	bind_int_or_null(st, 3, w->cpu);
	bind_int_or_null(st, 4, w->pid);
	sqlite3_bind_int64(st, 5, w->ts_start_ns);
	sqlite3_bind_int64(st, 6, w->ts_end_ns);
	bind_text_or_null(st, 7, w->rule);
	bind_text_or_null(st, 8, w->message);
	return step_done(db, ST_INSERT_UNDECIDED, d, "cannot insert an undecided window");
}

/**
 * an_db_label_add() - give the open trace one label
 * @db: the database, inside an_db_trace_begin() (or after an_db_trace_set())
 * @key: the label's name, [a-z0-9_]+ (the caller checks)
 * @value: its value, non-empty
 * @d: filled on failure
 *
 * Return: 0, -EINVAL outside a trace, AN_E_DB (e.g. the key twice).
 */
int an_db_label_add(struct an_db *db, const char *key, const char *value, struct an_diag *d)
{
	sqlite3_stmt *st = db->stmt[ST_INSERT_LABEL];
	int err = need_trace(db, d);

	if (err)
		return err;
	sqlite3_bind_int64(st, 1, db->trace_id);
	sqlite3_bind_text(st, 2, key, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, value, -1, SQLITE_STATIC);
	return step_done(db, ST_INSERT_LABEL, d, "cannot insert a label");
}

/**
 * an_db_trace_commit() - make the open trace's rows durable, all at once
 * @db: the database, inside an_db_trace_begin()
 * @d: filled on failure; the transaction is then rolled back
 *
 * Return: 0, -EINVAL outside a trace, AN_E_DB.
 */
int an_db_trace_commit(struct an_db *db, struct an_diag *d)
{
	int err = need_trace(db, d);

	if (err)
		return err;
	/* intervals an_db_series_add() did not follow */
	err = chunks_put_all(db, d);
	if (!err)
		err = exec(db, "COMMIT", d);
	if (err)
		sqlite3_exec(db->conn, "ROLLBACK", NULL, NULL, NULL);
	db->trace_id = 0;
	residency_clear(&db->res);
	chunks_clear(db, false);
	return err;
}

/**
 * an_db_trace_abort() - drop everything written since an_db_trace_begin()
 * @db: the database
 */
void an_db_trace_abort(struct an_db *db)
{
	if (!db->trace_id)
		return;
	sqlite3_exec(db->conn, "ROLLBACK", NULL, NULL, NULL);
	db->trace_id = 0;
	residency_clear(&db->res);
	chunks_clear(db, false);
}

/* ---- schema 2: the values over time (analyze/store/series.h) ---- */

static void bind_i64_or_null(sqlite3_stmt *st, int col, bool has, long long v)
{
	if (has)
		sqlite3_bind_int64(st, col, v);
	else
		sqlite3_bind_null(st, col);
}

static void bind_series_value(sqlite3_stmt *st, int col, const struct an_series_rec *rec, int i)
{
	bind_i64_or_null(st, col, rec->has & AN_SER_HAS(i), rec->v[i]);
}

static size_t residency_hash(int policy, long long khz, size_t size)
{
	uint64_t h = (uint64_t)khz * 0x9e3779b97f4a7c15ULL ^ (uint64_t)(unsigned int)policy;

	return (size_t)(h ^ h >> 29) & (size - 1);
}

static struct residency_slot *residency_find(struct residency *r, int policy, long long khz)
{
	size_t i = residency_hash(policy, khz, r->size);

	while (r->slot[i].is_used && (r->slot[i].policy != policy || r->slot[i].khz != khz))
		i = (i + 1) & (r->size - 1);
	return &r->slot[i];
}

static int residency_add(struct residency *r, int policy, long long khz, long long observed_ns,
			 long long expected_ns)
{
	struct residency_slot *s;

	if (2 * (r->nr + 1) > r->size) {
		struct residency old = *r;

		r->size = old.size ? 2 * old.size : 64;
		r->slot = an_calloc(r->size, sizeof(*r->slot));
		if (!r->slot) {
			*r = old;
			return -ENOMEM;
		}
		for (size_t i = 0; i < old.size; i++)
			if (old.slot[i].is_used)
				*residency_find(r, old.slot[i].policy, old.slot[i].khz) = old.slot[i];
		free(old.slot);
	}
	s = residency_find(r, policy, khz);
	if (!s->is_used) {
		*s = (struct residency_slot){ .policy = policy, .khz = khz, .is_used = true };
		r->nr++;
	}
	s->observed_ns += observed_ns;
	s->expected_ns += expected_ns;
	return 0;
}

static int residency_rec(struct residency *r, const struct an_series_rec *rec)
{
	long long ns = (long long)(rec->ts_end_ns - rec->ts_start_ns);
	unsigned int judged = AN_SER_HAS(AN_SER_FQ_OK) | AN_SER_HAS(AN_SER_FQ_EXP);
	int err;

	if ((rec->has & judged) != judged)
		return 0;
	/* is_ok is only known with an observed frequency (series.c) */
	if (!(rec->has & AN_SER_HAS(AN_SER_FQ_OBS)))
		return -EINVAL;
	err = residency_add(r, rec->policy, rec->v[AN_SER_FQ_OBS], ns, 0);
	return err ? err : residency_add(r, rec->policy, rec->v[AN_SER_FQ_EXP], 0, ns);
}

static int residency_cmp(const void *a, const void *b)
{
	const struct residency_slot *x = a, *y = b;

	if (x->policy != y->policy)
		return x->policy < y->policy ? -1 : 1;
	return x->khz < y->khz ? -1 : x->khz > y->khz;
}

/* The rows, by policy and frequency. */
static int put_residency(struct an_db *db, struct residency *r, struct an_diag *d)
{
	sqlite3_stmt *st = db->stmt[ST_INSERT_RESIDENCY];
	size_t n = 0;
	int err = 0;

	for (size_t i = 0; i < r->size; i++)
		if (r->slot[i].is_used)
			r->slot[n++] = r->slot[i];
	if (n)
		qsort(r->slot, n, sizeof(*r->slot), residency_cmp);
	for (size_t i = 0; i < n && !err; i++) {
		sqlite3_bind_int64(st, 1, db->trace_id);
		sqlite3_bind_int(st, 2, r->slot[i].policy);
		sqlite3_bind_int64(st, 3, r->slot[i].khz);
		sqlite3_bind_int64(st, 4, r->slot[i].observed_ns);
		sqlite3_bind_int64(st, 5, r->slot[i].expected_ns);
		err = step_done(db, ST_INSERT_RESIDENCY, d, "cannot insert a frequency residency");
	}
	return err;
}

/* ---- the intervals, in chunks (schema 3) ---- */

/* Write @c as one row of its table; it is empty afterwards. */
static int chunk_put(struct an_db *db, struct chunk *c, struct an_diag *d)
{
	const struct an_series_rec *rec = c->rec;
	bool is_freq = rec->kind == AN_SER_FREQ;
	enum stmt_id id = is_freq ? ST_INSERT_FREQ_CHUNK : ST_INSERT_CLAMP_CHUNK;
	unsigned int nr_values = is_freq ? AN_SER_FQ_OK + 1 : AN_SER_CL_MAX + 1;
	sqlite3_stmt *st = db->stmt[id];
	uint64_t first = rec->ts_start_ns, last = rec->ts_end_ns;
	char *p;
	int col = 2;

	if (!db->text) {
		db->text = an_malloc(DB_TEXT_SIZE);
		if (!db->text)
			return an_diag_fail(d, -ENOMEM, "out of memory");
	}
	for (unsigned int i = 1; i < c->n; i++) {
		if (rec[i].ts_start_ns < first)
			first = rec[i].ts_start_ns;
		if (rec[i].ts_end_ns > last)
			last = rec[i].ts_end_ns;
	}
	p = db->text;
	*p++ = '[';
	for (unsigned int i = 0; i < c->n; i++) {
		const struct an_series_rec *r = &rec[i];
		long long num[AN_CHUNK_MAX_NUMS] = {
			(long long)(r->ts_start_ns - first), (long long)(r->ts_end_ns - first),
		};

		memcpy(&num[2], r->v, nr_values * sizeof(num[0]));
		p += an_chunk_put(p, !i, num, 0x3u | r->has << 2, 2 + nr_values);
	}
	*p++ = ']';
	sqlite3_bind_int64(st, 1, db->trace_id);
	if (is_freq)
		sqlite3_bind_int(st, col++, rec->policy);
	sqlite3_bind_int(st, col++, rec->cpu);
	sqlite3_bind_int64(st, col++, (sqlite3_int64)first);
	sqlite3_bind_int64(st, col++, (sqlite3_int64)last);
	sqlite3_bind_int(st, col++, (int)c->n);
	sqlite3_bind_text(st, col, db->text, (int)(p - db->text), SQLITE_STATIC);
	c->n = 0;
	return step_done(db, id, d, is_freq ? "cannot insert frequency intervals" :
				     "cannot insert clamp intervals");
}

/* Keep @rec in the chunk of its CPU; a full chunk is written. */
static int chunk_add(struct an_db *db, struct chunks *cs, const struct an_series_rec *rec,
		     struct an_diag *d)
{
	struct chunk *c;
	int err;

	if (rec->cpu < 0 || rec->cpu >= DB_MAX_CPUS)
		return an_diag_fail(d, -EINVAL, "an interval of CPU %d (0 to %d expected)",
				    rec->cpu, DB_MAX_CPUS - 1);
	if ((size_t)rec->cpu >= cs->alloc &&
	    AN_VEC_GROW(cs->of_cpu, (size_t)rec->cpu + 1, cs->alloc))
		return an_diag_fail(d, -ENOMEM, "out of memory");
	c = cs->of_cpu[rec->cpu];
	if (!c) {
		c = an_malloc(sizeof(*c));
		if (!c)
			return an_diag_fail(d, -ENOMEM, "out of memory");
		c->n = 0;
		cs->of_cpu[rec->cpu] = c;
	} else if (c->n && c->rec[0].policy != rec->policy) {
		/* a CPU that moved to another policy: the chunk keeps one */
		err = chunk_put(db, c, d);
		if (err)
			return err;
	}
	c->rec[c->n++] = *rec;
	return c->n == DB_CHUNK ? chunk_put(db, c, d) : 0;
}

/* Write every chunk not yet written, clamp then frequency, by CPU. */
static int chunks_put_all(struct an_db *db, struct an_diag *d)
{
	struct chunks *kinds[] = { &db->clamp, &db->freq };

	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		for (size_t cpu = 0; cpu < kinds[k]->alloc; cpu++) {
			struct chunk *c = kinds[k]->of_cpu[cpu];
			int err;

			if (!c || !c->n)
				continue;
			err = chunk_put(db, c, d);
			if (err)
				return err;
		}
	}
	return 0;
}

/* Drop the intervals not yet written (@is_free: and the memory). */
static void chunks_clear(struct an_db *db, bool is_free)
{
	struct chunks *kinds[] = { &db->clamp, &db->freq };

	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		struct chunks *cs = kinds[k];

		for (size_t cpu = 0; cpu < cs->alloc; cpu++) {
			if (!cs->of_cpu[cpu])
				continue;
			cs->of_cpu[cpu]->n = 0;
			if (is_free)
				free(cs->of_cpu[cpu]);
		}
		if (is_free) {
			free(cs->of_cpu);
			memset(cs, 0, sizeof(*cs));
		}
	}
	if (is_free) {
		free(db->text);
		db->text = NULL;
	}
}

/* One `tasks` row, merged into the pid's row when there is one already. */
static int put_task(struct an_db *db, int pid, const char *comm, uint64_t first_ns,
		    uint64_t last_ns, uint64_t n_runs, struct an_diag *d)
{
	sqlite3_stmt *st = db->stmt[ST_INSERT_TASK];

	sqlite3_bind_int64(st, 1, db->trace_id);
	sqlite3_bind_int(st, 2, pid);
	bind_text_or_null(st, 3, comm[0] ? comm : NULL);
	sqlite3_bind_int64(st, 4, (sqlite3_int64)first_ns);
	sqlite3_bind_int64(st, 5, (sqlite3_int64)last_ns);
	sqlite3_bind_int64(st, 6, (sqlite3_int64)n_runs);
	return step_done(db, ST_INSERT_TASK, d, "cannot insert a task");
}

struct put_ctx {
	struct an_db *db;
	struct an_diag *d;
};

static int put_rec(void *ctx, const struct an_series_rec *rec)
{
	struct put_ctx *c = ctx;
	struct an_db *db = c->db;
	struct an_diag *d = c->d;
	sqlite3_stmt *st = db->stmt[ST_INSERT_REQUEST];
	int col = 2, err;

	if (rec->kind == AN_SER_REQUEST) {
		sqlite3_bind_int64(st, 1, db->trace_id);
		sqlite3_bind_int64(st, col++, (sqlite3_int64)rec->ts_start_ns);
		sqlite3_bind_int(st, col++, rec->pid);
		for (int i = AN_SER_RQ_FLAGS; i <= AN_SER_RQ_MODEL_RET; i++)
			bind_series_value(st, col++, rec, i);
		return step_done(db, ST_INSERT_REQUEST, d, "cannot insert a task request");
	}
	if (rec->kind == AN_SER_TASK) {
		char comm[AN_COMM_LEN];

		memcpy(comm, rec->task.comm, sizeof(comm));
		comm[sizeof(comm) - 1] = '\0';
		return put_task(db, rec->pid, comm, rec->ts_start_ns, rec->ts_end_ns,
				rec->task.n_runs, d);
	}
	if (rec->kind == AN_SER_CLAMP)
		return chunk_add(db, &db->clamp, rec, d);
	err = residency_rec(&db->res, rec);
	if (err)
		return an_diag_fail(d, err, err == -ENOMEM ? "out of memory" :
				    "a judged frequency interval without an observed frequency");
	return chunk_add(db, &db->freq, rec, d);
}

static int put_tasks(struct an_db *db, const struct an_series *s, struct an_diag *d)
{
	int err = 0;

	for (size_t i = 0; i < s->nr_tasks && !err; i++) {
		const struct an_series_task *t = &s->task[i];

		err = put_task(db, t->pid, t->comm, t->first_ns, t->last_ns, t->n_runs, d);
	}
	return err;
}

static int put_cpus(struct an_db *db, const struct an_series *s, struct an_diag *d)
{
	sqlite3_stmt *st = db->stmt[ST_INSERT_CPU];
	int err = 0;

	for (unsigned int i = 0; i < s->nr_cpus && !err; i++) {
		const struct an_series_cpu *c = &s->cpu[i];

		sqlite3_bind_int64(st, 1, db->trace_id);
		sqlite3_bind_int(st, 2, c->cpu);
		bind_int_or_null(st, 3, c->policy);
		bind_i64_or_null(st, 4, c->capacity, c->capacity);
		bind_i64_or_null(st, 5, c->was_known, (long long)c->known_ns);
		err = step_done(db, ST_INSERT_CPU, d, "cannot insert a cpu");
	}
	return err;
}

/* "a,b,c" of @n unsigned values into @buf; false when it does not fit */
static bool join_list(char *buf, size_t size, const void *vals, bool is_signed, unsigned int n)
{
	size_t at = 0;

	buf[0] = '\0';
	for (unsigned int i = 0; i < n; i++) {
		long long v = is_signed ? (long long)((const int *)vals)[i] :
					  (long long)((const unsigned int *)vals)[i];
		int len = snprintf(buf + at, size - at, "%s%lld", i ? "," : "", v);

		if (len < 0 || (size_t)len >= size - at)
			return false;
		at += (size_t)len;
	}
	return true;
}

static int put_policies(struct an_db *db, const struct an_series *s, struct an_diag *d)
{
	sqlite3_stmt *st = db->stmt[ST_INSERT_POLICY];
	char cpus[MODEL_SU_MAX_CPUS * 12], opps[MODEL_SU_MAX_OPPS * 12];
	int err = 0;

	for (unsigned int i = 0; i < s->nr_policies && !err; i++) {
		const struct an_series_policy *p = &s->policy[i];

		if (!join_list(cpus, sizeof(cpus), p->cpu, true, p->nr_cpus) ||
		    !join_list(opps, sizeof(opps), p->opp_khz, false, p->nr_opps))
			return an_diag_fail(d, -EINVAL, "policy %d: list too long", p->id);
		sqlite3_bind_int64(st, 1, db->trace_id);
		sqlite3_bind_int(st, 2, p->id);
		sqlite3_bind_text(st, 3, cpus, -1, SQLITE_STATIC);
		bind_text_or_null(st, 4, p->nr_opps ? opps : NULL);
		bind_i64_or_null(st, 5, p->max_khz, p->min_khz);
		bind_i64_or_null(st, 6, p->max_khz, p->max_khz);
		bind_i64_or_null(st, 7, p->rate_limit_us, p->rate_limit_us);
		err = step_done(db, ST_INSERT_POLICY, d, "cannot insert a policy");
	}
	return err;
}

/**
 * an_db_series_add() - store what the trace looked like over time
 * @db: the database, inside an_db_trace_begin()
 * @s: the series of the open trace, finished (an_analyze_path() returned)
 * @d: filled on failure
 *
 * Writes cpus, policies, clamp_intervals, freq_intervals, task_requests,
 * the `tasks` rows written out early, then the other tasks rows (merged
 * into those of their pid), then freq_residency computed from the frequency
 * intervals.
 *
 * Return: 0, -EINVAL outside a trace, AN_E_DB, -EIO (the spill file).
 */
int an_db_series_add(struct an_db *db, struct an_series *s, struct an_diag *d)
{
	struct put_ctx ctx = { db, d };
	int err = need_trace(db, d);

	if (!err)
		err = put_cpus(db, s, d);
	if (!err)
		err = put_policies(db, s, d);
	if (!err) {
		err = an_series_for_each(s, put_rec, &ctx);
		if (err && !d->err)
			an_diag_fail(d, err, "cannot read back the recorded intervals");
	}
	/* after the rows written out early (AN_SER_TASK): the later ones merge in */
	if (!err)
		err = put_tasks(db, s, d);
	if (!err)
		err = chunks_put_all(db, d);
	if (!err)
		err = put_residency(db, &db->res, d);
	residency_clear(&db->res);
	return err;
}

/**
 * an_db_series_put() - store one interval or request of the open trace now
 * @db: the database, inside an_db_trace_open() or an_db_trace_begin()
 * @rec: the record (analyze/store/series.h)
 * @d: filled on failure
 *
 * For records streamed while the trace is read (an_series.sink). The
 * residency they make is written by an_db_series_add(), which must follow.
 *
 * Return: 0, -EINVAL outside a trace or for a judged frequency interval
 * without an observed frequency, -ENOMEM, AN_E_DB.
 */
int an_db_series_put(struct an_db *db, const struct an_series_rec *rec, struct an_diag *d)
{
	struct put_ctx ctx = { db, d };
	int err = need_trace(db, d);

	return err ? err : put_rec(&ctx, rec);
}
