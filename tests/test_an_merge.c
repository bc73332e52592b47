// SPDX-License-Identifier: MIT
/*
 * `ucval merge` as a user meets it: shards analyzed apart and merged equal,
 * table by table and row by row (trace ids aside), the database analyzed
 * from all the traces at once; merging again changes nothing; bad shards are
 * refused with exit 2 and leave the output byte for byte as it was; a kill
 * leaves it as it was or complete. Runs the built binary ($UCVAL).
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <glob.h>
#include <stdbool.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define MAX_ARGS	128

extern char **environ;

static char dir[] = "/tmp/ucval-merge-XXXXXX";
static glob_t fixtures;

static pid_t spawn_ucval(const char *const *args, const char *err_path)
{
	const char *bin = getenv("UCVAL");
	char *argv[MAX_ARGS + 2];
	posix_spawn_file_actions_t fa;
	size_t n = 0;
	pid_t pid;

	assert_non_null(bin);
	argv[n++] = (char *)bin;
	for (; args[n - 1] && n <= MAX_ARGS; n++)
		argv[n] = (char *)args[n - 1];
	argv[n] = NULL;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, err_path, O_WRONLY | O_CREAT |
					 O_TRUNC, 0600);
	assert_int_equal(posix_spawn(&pid, bin, &fa, NULL, argv, environ), 0);
	posix_spawn_file_actions_destroy(&fa);
	return pid;
}

/* Run ucval with @args; its stderr into @err (may be NULL). Return: exit status. */
static int run(const char *const *args, char *err, size_t len)
{
	char path[96];
	int wst;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/stderr", dir);
	assert_int_equal(waitpid(spawn_ucval(args, path), &wst, 0) > 0, 1);
	if (err) {
		f = fopen(path, "r");
		assert_non_null(f);
		n = fread(err, 1, len - 1, f);
		err[n] = '\0';
		fclose(f);
	}
	return WIFEXITED(wst) ? WEXITSTATUS(wst) : 128 + WTERMSIG(wst);
}

/* analyze --db @db --tag build=@build, fixtures [@first, @last) */
static void analyze(const char *db, const char *build, size_t first, size_t last)
{
	const char *args[MAX_ARGS + 1] = { "analyze", "-q", "--db", db, "--tag", build };
	size_t n = 6;
	int status;

	for (size_t i = first; i < last && n < MAX_ARGS; i++)
		args[n++] = fixtures.gl_pathv[i];
	args[n] = NULL;
	status = run(args, NULL, 0);
	assert_true(status == 0 || status == 1 || status == 3);
}

static long long query_int(sqlite3 *c, const char *sql)
{
	sqlite3_stmt *st;
	long long v = -1;

	if (sqlite3_prepare_v2(c, sql, -1, &st, NULL) != SQLITE_OK)
		fail_msg("'%s': %s", sql, sqlite3_errmsg(c));
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

/* The columns of @table but trace_id, as "x.a, x.b" */
static void columns(sqlite3 *c, const char *table, char *buf, size_t len)
{
	sqlite3_stmt *st;
	size_t n = 0;

	assert_int_equal(sqlite3_prepare_v2(c, "SELECT name FROM pragma_table_info(?1, 'a')"
					    " WHERE name != 'trace_id' ORDER BY cid", -1, &st,
					    NULL), SQLITE_OK);
	sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
	buf[0] = '\0';
	while (sqlite3_step(st) == SQLITE_ROW)
		n += (size_t)snprintf(buf + n, len - n, "%sx.\"%s\"", n ? ", " : "",
				      sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
}

/*
 * Whether every table of databases @a and @b holds the same rows, a row of
 * a trace named by the trace's sha256 and options instead of its trace_id;
 * @why says where they differ.
 */
static bool same_db(const char *a, const char *b, char *why, size_t len)
{
	sqlite3 *c;
	sqlite3_stmt *st;
	char sql[8192], cols[2048], att[160];
	int nr_tables = 0;

	why[0] = '\0';
	assert_int_equal(sqlite3_open_v2(":memory:", &c, SQLITE_OPEN_READWRITE, NULL), SQLITE_OK);
	snprintf(att, sizeof(att), "ATTACH '%s' AS a; ATTACH '%s' AS b", a, b);
	assert_int_equal(sqlite3_exec(c, att, NULL, NULL, NULL), SQLITE_OK);
	if (query_int(c, "SELECT count(*) FROM (SELECT name, type FROM a.sqlite_master"
		      " EXCEPT SELECT name, type FROM b.sqlite_master)"))
		snprintf(why, len, "the schemas differ");
	assert_int_equal(sqlite3_prepare_v2(c, "SELECT name FROM a.sqlite_master WHERE type ="
					    " 'table' ORDER BY name", -1, &st, NULL), SQLITE_OK);
	while (!why[0] && sqlite3_step(st) == SQLITE_ROW) {
		const char *t = (const char *)sqlite3_column_text(st, 0);
		const char *join = strcmp(t, "traces") ? " JOIN %s.traces k USING (trace_id)" : "";
		char from_a[128], from_b[128], key[64];

		columns(c, t, cols, sizeof(cols));
		snprintf(key, sizeof(key), "%s", *join ? "k.sha256, k.options, " : "");
		snprintf(from_a, sizeof(from_a), join, "a");
		snprintf(from_b, sizeof(from_b), join, "b");
		for (int dir_ab = 0; dir_ab < 2 && !why[0]; dir_ab++) {
			snprintf(sql, sizeof(sql), "SELECT count(*) FROM (SELECT %s%s FROM %s.\"%s\" x%s"
				 " EXCEPT SELECT %s%s FROM %s.\"%s\" x%s)", key, cols,
				 dir_ab ? "b" : "a", t, dir_ab ? from_b : from_a, key, cols,
				 dir_ab ? "a" : "b", t, dir_ab ? from_a : from_b);
			if (query_int(c, sql))
				snprintf(why, len, "table %s: rows of %s not in %s", t,
					 dir_ab ? b : a, dir_ab ? a : b);
		}
		snprintf(sql, sizeof(sql), "SELECT (SELECT count(*) FROM a.\"%s\") -"
			 " (SELECT count(*) FROM b.\"%s\")", t, t);
		if (!why[0] && query_int(c, sql))
			snprintf(why, len, "table %s: row counts differ", t);
		nr_tables++;
	}
	sqlite3_finalize(st);
	sqlite3_close(c);
	if (!why[0] && nr_tables < 12)
		snprintf(why, len, "only %d tables", nr_tables);
	return !why[0];
}

static void assert_same_db(const char *a, const char *b)
{
	char why[256];

	if (!same_db(a, b, why, sizeof(why)))
		fail_msg("%s and %s differ: %s", a, b, why);
}

static long long db_int(const char *path, const char *sql)
{
	sqlite3 *c;
	long long v;

	assert_int_equal(sqlite3_open_v2(path, &c, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	v = query_int(c, sql);
	sqlite3_close(c);
	return v;
}

static void path_in(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", dir, name);
}

/* One change a row, made to a copy of the merged database, that same_db() must see. */
static const char *const changes[] = {
	"UPDATE trace_labels SET value = 'y' WHERE rowid = (SELECT max(rowid) FROM trace_labels)",
	"DELETE FROM task_requests WHERE rowid = (SELECT min(rowid) FROM task_requests)",
	"UPDATE mismatches SET explain = NULL WHERE rowid = (SELECT min(rowid) FROM mismatches)",
	"INSERT INTO undecided SELECT * FROM undecided LIMIT 1",	/* a duplicate: counts */
	"UPDATE clamp_interval_chunks SET trace_id = (SELECT max(trace_id) FROM traces)"
	" WHERE rowid = (SELECT min(rowid) FROM clamp_interval_chunks)",
};

/* The comparison is not blind: each change of changes[] is a difference. */
static void check_detects(const char *all, const char *out)
{
	char copy[96], cmd[512], why[256];

	path_in(copy, sizeof(copy), "changed.db");
	for (size_t i = 0; i < ARRAY_SIZE(changes); i++) {
		snprintf(cmd, sizeof(cmd), "cp '%s' '%s' && sqlite3 '%s' \"%s\"", out, copy, copy,
			 changes[i]);
		assert_int_equal(system(cmd), 0);
		if (same_db(all, copy, why, sizeof(why)))
			fail_msg("change %zu not seen: %s", i, changes[i]);
	}
	unlink(copy);
}

/*
 * Three overlapping shards merged in two runs equal one database analyzed
 * from every fixture; merging a shard again changes nothing.
 */
static void test_merge_equals_direct(void **state)
{
	char all[96], s1[96], s2[96], s3[96], out[96], err[1024];
	size_t n = fixtures.gl_pathc, third = n / 3;
	const char *first[] = { "merge", out, s1, s2, NULL };
	const char *second[] = { "merge", "-q", out, s3, NULL };
	const char *again[] = { "merge", out, s2, NULL };

	(void)state;
	path_in(all, sizeof(all), "all.db");
	path_in(s1, sizeof(s1), "s1.db");
	path_in(s2, sizeof(s2), "s2.db");
	path_in(s3, sizeof(s3), "s3.db");
	path_in(out, sizeof(out), "out.db");
	analyze(all, "build=x", 0, n);
	/* overlaps: each trace of [third, third + 3) is in s1 and s2 */
	analyze(s1, "build=x", 0, third + 3);
	analyze(s2, "build=x", third, 2 * third);
	analyze(s3, "build=x", 2 * third - 2, n);
	assert_int_equal(run(first, err, sizeof(err)), 0);
	if (!strstr(err, "(3 replaced one already there)"))
		fail_msg("merge said: %s", err);
	assert_int_equal(run(second, err, sizeof(err)), 0);
	assert_string_equal(err, "");
	assert_int_equal(db_int(out, "SELECT count(*) FROM traces"), (long long)n);
	assert_same_db(all, out);
	assert_same_db(out, all);
	assert_int_equal(run(again, err, sizeof(err)), 0);
	assert_same_db(all, out);
	assert_int_equal(db_int(out, "PRAGMA user_version"), 4);
	assert_int_equal(db_int(out, "SELECT count(*) FROM trace_labels WHERE key = 'build'"),
			 (long long)n);
	check_detects(all, out);
}

/* One bad input a row: exit 2, the reason, and the output byte for byte as it was. */
struct bad_case {
	const char *what;
	const char *setup;	/* shell, in the test's directory, makes bad.db */
	const char *reason;
};

static const struct bad_case bad_cases[] = {
	{ "foreign sqlite", "sqlite3 bad.db 'CREATE TABLE x(a)'",
	  "not a ucval results database: it has a table 'x' of its own" },
	{ "empty sqlite", "sqlite3 bad.db 'PRAGMA user_version = 4'",
	  "no table 'traces'" },
	{ "schema 2", "cp s1.db bad.db && sqlite3 bad.db 'PRAGMA user_version = 2'",
	  "schema version 2, merge takes shards of version 4 only" },
	{ "schema 3 (no rule_coverage)", "cp s1.db bad.db && sqlite3 bad.db 'PRAGMA user_version = 3'",
	  "schema version 3, merge takes shards of version 4 only" },
	{ "schema 5", "cp s1.db bad.db && sqlite3 bad.db 'PRAGMA user_version = 5'",
	  "schema version 5" },
	{ "not sqlite", "printf 'not a database, not at all, no............' > bad.db",
	  "file is not a database" },
	{ "missing", "true", "No such file or directory" },
	{ "a directory", "mkdir bad.db", "not a regular file" },
	{ "the output", "ln -s out.db bad.db", "is the output too" },
};

static void test_merge_refuses(void **state)
{
	char out[96], bad[96], s1[96], cmd[512], err[1024];
	const char *args[] = { "merge", out, s1, bad, NULL };

	(void)state;
	path_in(out, sizeof(out), "out.db");
	path_in(bad, sizeof(bad), "bad.db");
	path_in(s1, sizeof(s1), "s1.db");
	snprintf(cmd, sizeof(cmd), "cp '%s/out.db' '%s/out.before'", dir, dir);
	assert_int_equal(system(cmd), 0);
	for (size_t i = 0; i < ARRAY_SIZE(bad_cases); i++) {
		const struct bad_case *c = &bad_cases[i];
		int status;

		snprintf(cmd, sizeof(cmd), "cd '%s' && rm -rf bad.db && %s", dir, c->setup);
		assert_int_equal(system(cmd), 0);
		status = run(args, err, sizeof(err));
		if (status != 2 || !strstr(err, c->reason))
			fail_msg("case %zu (%s): exit %d, want 2 and '%s':\n%s", i, c->what,
				 status, c->reason, err);
		snprintf(cmd, sizeof(cmd), "cmp -s '%s/out.db' '%s/out.before'", dir, dir);
		if (system(cmd))
			fail_msg("case %zu (%s): the output changed", i, c->what);
	}
	snprintf(cmd, sizeof(cmd), "cd '%s' && rm -rf bad.db && ls | grep -q tmp", dir);
	assert_int_not_equal(system(cmd), 0);	/* grep found no temporary file */
}

/*
 * SIGKILL at arbitrary points of a merge: the output opens, passes
 * integrity_check and holds either the traces it had or all of them.
 */
static void test_merge_kill(void **state)
{
	char out[96], s1[96], s3[96], errp[96], cmd[256];
	const char *args[] = { "merge", "-q", out, s3, NULL };
	long long before, after;
	int inside = 0;

	(void)state;
	path_in(out, sizeof(out), "kill.db");
	path_in(s1, sizeof(s1), "s1.db");
	path_in(s3, sizeof(s3), "s3.db");
	path_in(errp, sizeof(errp), "stderr");
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s'", s1, out);
	assert_int_equal(system(cmd), 0);
	before = db_int(out, "SELECT count(*) FROM traces");
	after = before + db_int(s3, "SELECT count(*) FROM traces");
	srand((unsigned int)time(NULL));
	for (int i = 0; i < 20; i++) {
		pid_t pid = spawn_ucval(args, errp);
		struct timespec ts = { 0, (rand() % 30000) * 1000L };
		long long n;
		int wst;

		nanosleep(&ts, NULL);
		kill(pid, SIGKILL);
		assert_int_equal(waitpid(pid, &wst, 0), pid);
		n = db_int(out, "SELECT count(*) FROM traces");
		if (n != before && n != after)
			fail_msg("kill %d: %lld traces, want %lld or %lld", i, n, before, after);
		assert_int_equal(db_int(out, "SELECT count(*) FROM pragma_integrity_check"
				     " WHERE integrity_check != 'ok'"), 0);
		snprintf(cmd, sizeof(cmd), "cp '%s' '%s'", s1, out);
		if (n == after)
			assert_int_equal(system(cmd), 0);
		/* a temporary file left: the kill came inside the merge */
		snprintf(cmd, sizeof(cmd), "ls '%s' | grep -q 'kill.db.merge-'", dir);
		inside += !system(cmd);
		snprintf(cmd, sizeof(cmd), "rm -f '%s'/kill.db.merge-*", dir);
		assert_int_equal(system(cmd), 0);
	}
	fprintf(stderr, "test_merge_kill: %d of 20 kills came inside a merge\n", inside);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_merge_equals_direct),
		cmocka_unit_test(test_merge_refuses),
		cmocka_unit_test(test_merge_kill),
	};
	char cmd[128];
	int rc;

	if (!getenv("UCVAL")) {
		fprintf(stderr, "test_an_merge: UCVAL (path of the ucval binary) is not set\n");
		return 1;
	}
	setenv("UCVAL_NOW", "2026-01-01T00:00:00Z", 1);
	if (glob("traces/*.txt", 0, NULL, &fixtures) || fixtures.gl_pathc < 9) {
		fprintf(stderr, "test_an_merge: run from the source tree (traces/*.txt)\n");
		return 1;
	}
	if (!mkdtemp(dir))
		return 1;
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		rc = 1;
	globfree(&fixtures);
	return rc;
}
