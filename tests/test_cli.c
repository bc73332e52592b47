// SPDX-License-Identifier: MIT
/*
 * The ucval command line as a user meets it: help, version, unknown commands
 * and options, and `ucval model` answers and errors. Runs the built binary
 * ($UCVAL) and checks exit status and output, one table row per case.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sqlite3.h>

#include "tests/an_testutil.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define MAX_ARGS	24
/* Enough for any help text or model answer. */
#define OUT_MAX		(64 * 1024)

struct run {
	int status;
	char out[OUT_MAX];
	char err[OUT_MAX];
};

/*
 * Run $UCVAL with @args (NULL-terminated), capturing stderr, and stdout
 * unless @out_dev names a device to open as stdout instead (/dev/full).
 */
static void run_ucval_to(const char *const *args, const char *out_dev, struct run *r)
{
	const struct an_test_spawn o = { .out_file = out_dev };

	r->status = an_test_run_ucval(args, &o, r->out, sizeof(r->out), r->err, sizeof(r->err));
}

static void run_ucval(const char *const *args, struct run *r)
{
	run_ucval_to(args, NULL, r);
}

struct cli_case {
	const char *what;
	const char *args[MAX_ARGS + 1];
	int status;
	const char *out_has[4];		/* substrings stdout must contain */
	const char *err_has[2];		/* substrings stderr must contain */
};

static const struct cli_case cases[] = {
	{ "help", { "--help" }, 0, { "usage: ucval", "model" }, { NULL } },
	{ "version", { "--version" }, 0, { "ucval 0." }, { NULL } },
	{ "no command", { NULL }, 2, { NULL }, { "usage: ucval" } },
	{ "unknown command", { "frobnicate" }, 2, { NULL }, { "'frobnicate' is not a command" } },
	{ "model help", { "model", "--help" }, 0, { "ucval model freq", "ucval model rq" }, { NULL } },
	{ "model unknown", { "model", "bogus" }, 2, { NULL }, { "'bogus' is not a model command" } },
	{ "rq help", { "model", "rq", "--help" }, 0, { "MIN:MAX[:CLASS]" }, { NULL } },
	{ "rq no task", { "model", "rq" }, 2, { NULL }, { "no TASK given" } },
	{ "rq bad task", { "model", "rq", "12x:4" }, 2, { NULL }, { "task '12x:4' is not MIN:MAX" } },
	{ "rq over scale", { "model", "rq", "0:1025" }, 2, { NULL }, { "is not MIN:MAX" } },
	{ "rq bad class", { "model", "rq", "0:100:idle" }, 2, { NULL }, { "CLASS: fair, rt or dl" } },
	{ "rq bad option", { "model", "rq", "--bogus", "1:2" }, 2, { NULL }, { "unknown option '--bogus'" } },
	{ "rq bad groups", { "model", "rq", "--groups", "33", "1:2" }, 2, { NULL },
	  { "--groups expects a whole number from 0 to 32, got '33'" } },
	{ "rq bad buckets", { "model", "rq", "--buckets", "4", "1:2" }, 2, { NULL },
	  { "--buckets expects a whole number from 5 to 20, got '4'" } },
	{ "rq old kernel", { "model", "rq", "--kernel", "4.19", "1:2" }, 2, { NULL },
	  { "mainline release with uclamp" } },
	{ "rq bad util", { "model", "rq", "--util", "-3", "1:2" }, 2, { NULL },
	  { "--util expects a whole number" } },
	/* '-' is "no request" (rq --help): a TASK may start with it, anywhere */
	{ "rq no min", { "model", "rq", "-:300" }, 0,
	  { "1    -..300      fair  | 0        0..300      | 0        0..300" }, { NULL } },
	{ "rq no max", { "model", "rq", "200:-" }, 0,
	  { "1    200..-      fair  | 0        200..1024   | 0        200..1024" }, { NULL } },
	{ "rq no request rt", { "model", "rq", "-:-:rt" }, 0,
	  { "1    -..-        rt    | 0        0..1024     | 0        1024..1024" }, { NULL } },
	{ "rq no min dl", { "model", "rq", "-:300:dl" }, 0,
	  { "1    -..300      dl    | 0        0..300      | EINVAL   1024..1024" }, { NULL } },
	{ "rq no min among options", { "model", "rq", "--util", "300", "-:300", "200:-",
				       "--groups", "1", "-:-:fair" }, 0,
	  { "1    -..300      fair", "2    200..-      fair", "3    -..-        fair",
	    "v3 (1 groups, intent)" }, { NULL } },
	{ "rq tasks after --", { "model", "rq", "--", "-:300", "200:-" }, 0,
	  { "1    -..300      fair", "2    200..-      fair" }, { NULL } },
	{ "rq no min after --", { "model", "rq", "--", "-:300", "--util" }, 2, { NULL },
	  { "task '--util' is not MIN:MAX" } },
	{ "rq no min bad max", { "model", "rq", "-:x" }, 2, { NULL },
	  { "task '-:x' is not MIN:MAX" } },
	{ "rq lone dash", { "model", "rq", "-" }, 2, { NULL }, { "task '-' is not MIN:MAX" } },
	{ "rq bad short option", { "model", "rq", "-x", "1:2" }, 2, { NULL },
	  { "unknown option '-x'" } },
	{ "analyze help", { "analyze", "--help" }, 0, { "usage: ucval analyze", "--db FILE" },
	  { NULL } },
	{ "analyze no trace", { "analyze" }, 2, { NULL }, { "no TRACE given" } },
	{ "analyze bad option", { "analyze", "--frob", "x" }, 2, { NULL },
	  { "unknown option '--frob'" } },
	{ "analyze bad check", { "analyze", "--checks", "rq_clamp,nope", "x" }, 2, { NULL },
	  { "--checks expects check ids", "got 'rq_clamp,nope'" } },
	{ "analyze bad model", { "analyze", "--model", "v4", "x" }, 2, { NULL },
	  { "--model expects v3 or mainline" } },
	{ "analyze bad jobs", { "analyze", "-j", "0", "x" }, 2, { NULL },
	  { "-j expects a whole number from 1 to 64, got '0'" } },
	/* one number parser for every command (an_optnum_parse(), lib/optnum.c) */
	{ "analyze grace with a suffix", { "analyze", "--grace-us", "5ms", "x" }, 2, { NULL },
	  { "ucval analyze: --grace-us expects a whole number from 1 to 3600000000, got '5ms'" } },
	{ "analyze early allowance of 0", { "analyze", "--early-us", "0", "x" }, 2, { NULL },
	  { "ucval analyze: --early-us expects a whole number from 1 to 1000000, got '0'" } },
	{ "synth negative seed", { "synth", "--seed", "-1", "-o", "/dev/null" }, 2, { NULL },
	  { "ucval synth: --seed expects a whole number from 0 to 18446744073709551615, got '-1'" } },
	{ "synth seed beyond 64 bits", { "synth", "--seed", "18446744073709551616", "-o", "/dev/null" },
	  2, { NULL }, { "--seed expects a whole number", "got '18446744073709551616'" } },
	{ "collect bad buffer", { "collect", "-b", "0", "true" }, 2, { NULL },
	  { "ucval collect: --buffer expects a whole number from 1 to 2147483647, got '0'" } },
	{ "collect clamp with a space", { "collect", "--uclamp-min", " 5", "true" }, 2, { NULL },
	  { "ucval collect: --uclamp-min expects a whole number from 0 to 4294967295, got ' 5'" } },
	{ "report bad top", { "report", "--top", "+3", "x.db" }, 2, { NULL },
	  { "ucval report: --top expects a whole number from 0 to 1000000, got '+3'" } },
	{ "analyze missing file", { "analyze", "/nonexistent/t.dat" }, 2, { NULL },
	  { "cannot read '/nonexistent/t.dat': No such file or directory" } },
	{ "analyze garbage", { "analyze", "tests/data/garbage.txt" }, 2, { NULL },
	  { "'tests/data/garbage.txt'", "not ftrace text, systrace HTML or trace.dat" } },
	{ "analyze empty", { "analyze", "tests/data/empty.txt" }, 2, { NULL },
	  { "'tests/data/empty.txt': empty file" } },
	{ "analyze unwritable json", { "analyze", "-q", "--json", "/nonexistent/r.json",
				       "traces/rq_clamp-pass.txt" }, 2, { NULL },
	  { "cannot write '/nonexistent/r.json'", "No such file or directory" } },
	{ "analyze unwritable db", { "analyze", "--db", "/proc/ucval.db", "traces/rq_clamp-pass.txt" },
	  2, { NULL }, { "cannot open database '/proc/ucval.db'" } },
	/* the rq_clamp fixtures: exit 1 with the two windows of the .expect, exit 0 */
	{ "analyze fail fixture", { "analyze", "traces/rq_clamp-fail.txt" }, 1,
	  { "rq_clamp               FAIL", "FAIL rq_clamp cpu 1 at 10.003050..10.004100: expected 256, observed 0 (VR4)",
	    "expected 512, observed 1024 (VR11)" }, { NULL } },
	{ "analyze pass fixture", { "analyze", "traces/rq_clamp-pass.txt" }, 0,
	  { "rq_clamp               PASS", "trace_integrity        PASS" }, { NULL } },
	{ "analyze quiet", { "analyze", "-q", "traces/rq_clamp-fail.txt" }, 1, { NULL }, { NULL } },
	/* VR4 max aggregation; MT4 RT default min 1024 rejects max 300 (MA2): MR3 boosts
	 * the mainline rq to 1024; VR8 / MS1 clamp util 300; VR11 retains the last MAX */
	{ "rq mixed", { "model", "rq", "--util", "300", "200:800", "512:none", "none:300:rt" }, 0,
	  { "UCLAMP_MIN (VR4/MR3)   512                        1024",
	    "util 300 clamped       512                        1024",
	    "UCLAMP_MAX retained    300                        1024",
	    "3    -..300      rt    | 0        0..300      | EINVAL   1024..1024" }, { NULL } },
	/* VG7: one group besides group 0: the second distinct MIN gets ENOSPC */
	{ "rq v3 enospc", { "model", "rq", "--groups", "1", "100:1024", "200:1024", "100:none" },
	  0, { "2    200..1024   fair  | ENOSPC   0..1024     | 0        200..1024",
	       "UCLAMP_MIN (VR4/MR3)   100                        200" }, { NULL } },
	/* VA4 / MA2: min above max is EINVAL in both */
	{ "rq inverted request", { "model", "rq", "700:600" }, 0,
	  { "1    700..600    fair  | EINVAL   0..1024     | EINVAL   0..1024" }, { NULL } },
	/* schedutil.md §9 platform B: util 300, rq min 512 -> 875000 -> 1100000 (<= 6.7) */
	{ "freq B min 512", { "model", "freq", "--freqs", "500000,850000,1100000,1400000",
			      "--util", "300", "--uclamp-min", "512" }, 0,
	  { "expected frequency: 1100000 kHz", "875000", "MS1", "S10" }, { NULL } },
	/* same on 6.8+: no headroom on the clamp (MS5) -> 700000 -> 850000 */
	{ "freq B min 512 6.8", { "model", "freq", "--freqs", "500000,850000,1100000,1400000",
				  "--util", "300", "--uclamp-min", "512", "--kernel", "6.8" }, 0,
	  { "expected frequency: 850000 kHz", "700000", "MS5" }, { NULL } },
	/* v3 inversion: max wins (VR8): min 700 max 300 util 600 -> 300 -> 850000 */
	{ "freq B v3 inversion", { "model", "freq", "--freqs", "500000,850000,1100000,1400000",
				   "--util", "600", "--uclamp-min", "700", "--uclamp-max", "300",
				   "--model", "v3" }, 0,
	  { "expected frequency: 850000 kHz", "VR8", "512695" }, { NULL } },
	/* mainline 5.x inversion: min wins (MS1) -> 700 -> 1400000 */
	{ "freq B ml inversion", { "model", "freq", "--freqs", "500000,850000,1100000,1400000",
				   "--util", "600", "--uclamp-min", "700", "--uclamp-max", "300",
				   "--kernel", "5.10" }, 0,
	  { "expected frequency: 1400000 kHz" }, { NULL } },
	/* policy max 1100000: util 900 -> 1538085 -> 1100000 */
	{ "freq B limited", { "model", "freq", "--freqs", "500000,850000,1100000,1400000",
			      "--util", "900", "--max", "1100000" }, 0,
	  { "expected frequency: 1100000 kHz", "1538085" }, { NULL } },
	{ "freq help", { "model", "freq", "--help" }, 0, { "--uclamp-min" }, { NULL } },
	{ "freq missing", { "model", "freq", "--util", "3" }, 2, { NULL },
	  { "--freqs and --util are required" } },
	{ "freq non-numeric", { "model", "freq", "--freqs", "500000,abc", "--util", "3" }, 2,
	  { NULL }, { "--freqs expects", "got '500000,abc'" } },
	{ "freq unsorted", { "model", "freq", "--freqs", "500000,850000,800000", "--util", "3" },
	  2, { NULL }, { "OPPs not in strictly ascending order (OPP #3)" } },
	{ "freq zero opp", { "model", "freq", "--freqs", "0,850000", "--util", "3" },
	  2, { NULL }, { "OPP of 0 kHz (OPP #1)" } },
	{ "freq util > capacity", { "model", "freq", "--freqs", "500000", "--util", "300",
				    "--capacity", "200" }, 2, { NULL },
	  { "utilization above capacity (CPU 0)" } },
	{ "freq util > scale", { "model", "freq", "--freqs", "500000", "--util", "1025" }, 2,
	  { NULL }, { "--util expects" } },
	{ "freq list size", { "model", "freq", "--freqs", "500000", "--util", "3,4",
			      "--uclamp-min", "1,2,3" }, 2, { NULL },
	  { "--uclamp-min has 3 values for 2 CPUs" } },
	{ "freq bad model", { "model", "freq", "--freqs", "500000", "--util", "3", "--model",
			      "v4" }, 2, { NULL }, { "--model expects v3 or mainline" } },
	{ "freq limits inverted", { "model", "freq", "--freqs", "500000,850000", "--util", "3",
				    "--min", "850000", "--max", "500000" }, 2, { NULL },
	  { "policy min above max" } },
	{ "freq stray arg", { "model", "freq", "--freqs", "500000", "--util", "3", "extra" }, 2,
	  { NULL }, { "unexpected argument 'extra'" } },
	/* --tag KEY=VALUE: checked before any trace is read */
	{ "tag no =", { "analyze", "-q", "--tag", "build", "traces/rq_clamp-pass.txt" }, 2,
	  { NULL }, { "--tag expects KEY=VALUE" } },
	{ "tag upper key", { "analyze", "-q", "--tag", "Build=a", "traces/rq_clamp-pass.txt" }, 2,
	  { NULL }, { "got 'Build=a'" } },
	{ "tag empty key", { "analyze", "-q", "--tag", "=a", "traces/rq_clamp-pass.txt" }, 2,
	  { NULL }, { "--tag expects KEY=VALUE" } },
	{ "tag empty value", { "analyze", "-q", "--tag", "b=", "traces/rq_clamp-pass.txt" }, 2,
	  { NULL }, { "got 'b='" } },
	{ "tag control", { "analyze", "-q", "--tag", "b=x\ty", "traces/rq_clamp-pass.txt" }, 2,
	  { NULL }, { "got 'b=x\\ty'" } },
	{ "tag bad utf8", { "analyze", "-q", "--tag", "b=\xc3", "traces/rq_clamp-pass.txt" }, 2,
	  { NULL }, { "--tag expects KEY=VALUE" } },
	{ "tag twice", { "analyze", "-q", "--tag", "b=1", "--tag", "b=2",
			 "traces/rq_clamp-pass.txt" }, 2, { NULL }, { "--tag b given twice" } },
	{ "tag ok", { "analyze", "-q", "--tag", "site=Z\xc3\xbcrich lab", "--tag", "a_1=x=y",
		      "traces/rq_clamp-pass.txt" }, 0, { NULL }, { NULL } },
};

static void test_cli_table(void **state)
{
	static struct run r;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct cli_case *c = &cases[i];

		run_ucval(c->args, &r);
		if (r.status != c->status)
			fail_msg("case %zu (%s): exit %d want %d\nstdout: %s\nstderr: %s", i,
				 c->what, r.status, c->status, r.out, r.err);
		for (size_t k = 0; k < ARRAY_SIZE(c->out_has) && c->out_has[k]; k++)
			if (!strstr(r.out, c->out_has[k]))
				fail_msg("case %zu (%s): stdout lacks '%s':\n%s", i, c->what,
					 c->out_has[k], r.out);
		for (size_t k = 0; k < ARRAY_SIZE(c->err_has) && c->err_has[k]; k++)
			if (!strstr(r.err, c->err_has[k]))
				fail_msg("case %zu (%s): stderr lacks '%s':\n%s", i, c->what,
					 c->err_has[k], r.err);
		/* usage errors go to stderr only: stdout stays clean for pipes */
		if (c->status == 2 && r.out[0])
			fail_msg("case %zu (%s): wrote to stdout on error: %s", i, c->what, r.out);
	}
}

static long long db_count(const char *path, const char *sql)
{
	sqlite3 *c;
	sqlite3_stmt *st;
	long long v = -1;

	assert_int_equal(sqlite3_open_v2(path, &c, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	if (sqlite3_prepare_v2(c, sql, -1, &st, NULL) != SQLITE_OK)
		fail_msg("'%s': %s", sql, sqlite3_errmsg(c));
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(c);
	return v;
}

/* No row of any table with a trace_id belongs to a trace that is gone. */
static void orphans(const char *path)
{
	sqlite3 *c;
	sqlite3_stmt *st;

	assert_int_equal(sqlite3_open_v2(path, &c, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(c, "SELECT m.name FROM sqlite_master m,"
					    " pragma_table_info(m.name) c WHERE m.type = 'table'"
					    " AND c.name = 'trace_id' AND m.name != 'traces'",
					    -1, &st, NULL), SQLITE_OK);
	while (sqlite3_step(st) == SQLITE_ROW) {
		char sql[256];
		long long n;

		snprintf(sql, sizeof(sql), "SELECT count(*) FROM %s WHERE trace_id NOT IN"
			 " (SELECT trace_id FROM traces)", (const char *)sqlite3_column_text(st, 0));
		n = db_count(path, sql);
		if (n)
			fail_msg("%s: %lld rows of replaced traces", sqlite3_column_text(st, 0), n);
	}
	sqlite3_finalize(st);
	sqlite3_close(c);
}

/*
 * --db: every fixture once, then again with -j 2: the same rows (replaced,
 * never duplicated, events.md §5), and the windows of rq_clamp-fail.expect.
 */
static void test_analyze_db(void **state)
{
	static struct run r;
	char dir[] = "/tmp/ucval-cli-db-XXXXXX", db[64], json[64], cmd[128];
	const char *args[] = { "analyze", "-q", "--db", db, "--json", json,
			       "traces/rq_clamp-fail.txt", "traces/rq_clamp-pass.txt",
			       "traces/task_effective-fail.txt", "traces/groups_exhausted-pass.txt",
			       "traces/freq_prediction-pass.txt", NULL };
	const char *jargs[] = { "analyze", "-q", "-j", "2", "--db", db, "traces/rq_clamp-fail.txt",
				"traces/rq_clamp-pass.txt", "traces/task_effective-fail.txt",
				"traces/groups_exhausted-pass.txt", "traces/freq_prediction-pass.txt",
				NULL };
	FILE *f;
	char buf[8192];
	size_t n;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(db, sizeof(db), "%s/r.db", dir);
	snprintf(json, sizeof(json), "%s/r.json", dir);
	run_ucval(args, &r);
	assert_int_equal(r.status, 1);
	assert_int_equal(db_count(db, "SELECT count(*) FROM traces"), 5);
	assert_int_equal(db_count(db, "SELECT count(*) FROM verdicts"), 5 * 8);
	assert_int_equal(db_count(db, "SELECT count(*) FROM verdicts WHERE verdict = 'FAIL'"), 2);
	assert_int_equal(db_count(db, "SELECT count(*) FROM mismatches WHERE check_id = 'rq_clamp'"), 2);
	assert_int_equal(db_count(db, "SELECT expected FROM mismatches WHERE check_id = 'rq_clamp' "
				  "AND rule = 'VR11'"), 512);
	assert_int_equal(db_count(db, "SELECT ts_start_ns FROM mismatches WHERE rule = 'VR4'"),
			 10003050000LL);
	f = fopen(json, "r");
	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	assert_non_null(strstr(buf, "\"check_id\": \"rq_clamp\", \"verdict\": \"FAIL\""));
	assert_non_null(strstr(buf, "\"ts_start_ns\": 10003050000"));

	run_ucval(jargs, &r);
	assert_int_equal(r.status, 1);
	assert_int_equal(db_count(db, "SELECT count(*) FROM traces"), 5);
	assert_int_equal(db_count(db, "SELECT count(*) FROM mismatches"),
			 db_count(db, "SELECT sum(n_failed) FROM verdicts"));
	/* the replaced analyses left no row behind in any table of a trace */
	assert_int_equal(db_count(db, "SELECT count(*) FROM sqlite_master m, pragma_table_info(m.name) c"
				  " WHERE m.type = 'table' AND c.name = 'trace_id' AND m.name != 'traces'"), 12);
	orphans(db);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

/* What `analyze --tag` stores, one case a row: the labels of a trace, as "k=v;" in key order. */
struct tag_case {
	const char *what;
	const char *args[8];		/* between "--db DB" and the trace */
	const char *trace;
	const char *labels;
};

static const struct tag_case tag_cases[] = {
	{ "kernel from the trace", { NULL }, "traces/cpu_capacity-pass.txt", "kernel=6.1.0;" },
	{ "tags and kernel", { "--tag", "build=clean", "--tag", "site=lab 2" },
	  "traces/cpu_capacity-pass.txt", "build=clean;kernel=6.1.0;site=lab 2;" },
	/* a re-analysis with other tags replaces the labels, not the trace */
	{ "tags replaced", { "--tag", "build=faulty" }, "traces/cpu_capacity-pass.txt",
	  "build=faulty;kernel=6.1.0;" },
	{ "kernel given wins", { "--tag", "kernel=6.6-android" }, "traces/cpu_capacity-pass.txt",
	  "kernel=6.6-android;" },
	{ "value with =", { "--tag", "cmd=a=b" }, "traces/freq_prediction-fail.txt",
	  "cmd=a=b;kernel=5.10.0;" },
};

static void label_text(const char *db, const char *trace, char *buf, size_t len)
{
	sqlite3 *c;
	sqlite3_stmt *st;
	size_t n = 0;

	buf[0] = '\0';
	assert_int_equal(sqlite3_open_v2(db, &c, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(c, "SELECT l.key, l.value FROM trace_labels l"
					    " JOIN traces t USING (trace_id) WHERE t.path = ?1"
					    " ORDER BY l.key", -1, &st, NULL), SQLITE_OK);
	sqlite3_bind_text(st, 1, trace, -1, SQLITE_STATIC);
	while (sqlite3_step(st) == SQLITE_ROW && n < len)
		n += (size_t)snprintf(buf + n, len - n, "%s=%s;", sqlite3_column_text(st, 0),
				      sqlite3_column_text(st, 1));
	sqlite3_finalize(st);
	sqlite3_close(c);
}

static void test_analyze_tags(void **state)
{
	static struct run r;
	char dir[] = "/tmp/ucval-cli-tag-XXXXXX", db[64], got[256], cmd[128];

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(db, sizeof(db), "%s/r.db", dir);
	for (size_t i = 0; i < ARRAY_SIZE(tag_cases); i++) {
		const struct tag_case *c = &tag_cases[i];
		const char *args[MAX_ARGS + 1] = { "analyze", "-q", "--db", db };
		size_t n = 4;

		for (size_t k = 0; c->args[k]; k++)
			args[n++] = c->args[k];
		args[n++] = c->trace;
		run_ucval(args, &r);
		if (r.status != 0 && r.status != 1)
			fail_msg("case %zu (%s): exit %d:\n%s", i, c->what, r.status, r.err);
		label_text(db, c->trace, got, sizeof(got));
		if (strcmp(got, c->labels))
			fail_msg("case %zu (%s): labels '%s', want '%s'", i, c->what, got, c->labels);
	}
	assert_int_equal(db_count(db, "SELECT count(*) FROM traces"), 2);
	orphans(db);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

/* A temporary @dir holding @bad, a file that is no trace, and the path @db. */
static void make_bad_dir(char *dir, char db[64], char bad[64])
{
	char cmd[256];

	assert_non_null(mkdtemp(dir));
	snprintf(db, 64, "%s/r.db", dir);
	snprintf(bad, 64, "%s/bad.txt", dir);
	snprintf(cmd, sizeof(cmd), "printf 'not a trace\\n' > '%s'", bad);
	assert_int_equal(system(cmd), 0);
}

/*
 * --db with several traces: a worker's writes run in a thread of their own
 * while it analyzes the next trace (analyze/run.c, struct writer). Every
 * table still reaches stdout whole, once and in argument order, an
 * unreadable trace in the middle is reported and skipped, and the others
 * are all stored. Regression: a job's table buffer was once a stack copy
 * that the next trace reused, and tables went missing.
 */
static void test_analyze_db_writer(void **state)
{
	static struct run r;
	static const char *const paths[] = {
		"traces/rq_clamp-fail.txt", "traces/rq_clamp-pass.txt",
		"traces/task_effective-fail.txt", "traces/groups_exhausted-pass.txt",
		"traces/freq_prediction-pass.txt", "traces/request_result-pass.txt",
	};
	char dir[] = "/tmp/ucval-cli-wr-XXXXXX", db[64], bad[64], cmd[128], want[128];
	const char *args[16] = { "analyze", "--db", db };
	int n = 3;
	const char *at;

	(void)state;
	make_bad_dir(dir, db, bad);
	for (size_t i = 0; i < ARRAY_SIZE(paths); i++) {
		args[n++] = paths[i];
		if (i == 2)
			args[n++] = bad;
	}
	args[n] = NULL;
	run_ucval(args, &r);
	assert_int_equal(r.status, 2);
	snprintf(want, sizeof(want), "'%s'", bad);
	assert_non_null(strstr(r.err, want));
	assert_int_equal(db_count(db, "SELECT count(*) FROM traces"), ARRAY_SIZE(paths));
	at = r.out;
	for (size_t i = 0; i < ARRAY_SIZE(paths); i++) {
		const char *hit;

		snprintf(want, sizeof(want), "%s: ", paths[i]);
		hit = strstr(at, want);
		if (!hit)
			fail_msg("table %zu (%s) missing or out of order:\n%s", i, paths[i], r.out);
		at = hit + strlen(want);
		if (strstr(at, want))
			fail_msg("table %zu (%s) printed twice:\n%s", i, paths[i], r.out);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

/*
 * `ucval analyze --json - @trace` under each value of the environment
 * variable @var (NULL: unset): the same exit status and output as under the
 * first. Return: that exit status.
 */
static int same_output(const char *trace, const char *var, const char *const *values, size_t n)
{
	static struct run ref, other;
	const char *args[] = { "analyze", "--json", "-", trace, NULL };

	for (size_t k = 0; k < n; k++) {
		struct run *r = k ? &other : &ref;

		if (values[k])
			setenv(var, values[k], 1);
		else
			unsetenv(var);
		run_ucval(args, r);
		unsetenv(var);
		if (k && (ref.status != other.status || strcmp(ref.out, other.out) ||
			  strcmp(ref.err, other.err)))
			fail_msg("%s: %s=%s exit %d, %s=%s exit %d; outputs differ", trace, var,
				 values[0] ? values[0] : "", ref.status, var, values[k], other.status);
	}
	assert_non_null(strstr(ref.out, "\"verdicts\""));
	return ref.status;
}

/*
 * The replay on a thread of its own while the reader reads (analyze.c,
 * struct feed; UCVAL_FEED=thread forces it, =none forbids it) gives what
 * the plain loop gives, byte for byte: events with print text and lent
 * names (text, systrace), skipped lines, lost events, a trace.dat.
 */
static void test_analyze_feed(void **state)
{
	static const char *const feed[] = { "none", "thread" };
	char dir[] = "/tmp/ucval-cli-feed-XXXXXX", dat[64], txt[64], bad[64], cmd[512];
	char html[4096];
	const char *shared = getenv("UCVAL_SHARED");
	const char *traces[] = {
		"traces/freq_prediction-pass.txt", "traces/rq_clamp-fail.txt",
		"traces/trace_integrity-fail.txt", html, dat, txt, bad,
	};

	(void)state;
	snprintf(html, sizeof(html), "%s/traces/android-systrace-small.html",
		 shared && *shared ? shared : "../shared");
	assert_non_null(mkdtemp(dir));
	snprintf(dat, sizeof(dat), "%s/lost.dat", dir);
	snprintf(txt, sizeof(txt), "%s/synth.txt", dir);
	snprintf(bad, sizeof(bad), "%s/bad.txt", dir);
	snprintf(cmd, sizeof(cmd), "'%s' synth -q -o '%s' --events 20000 --fault lost-events &&"
		 " '%s' synth -q -o '%s' --events 5000 --seed 3 &&"
		 " { cat traces/freq_prediction-pass.txt; echo 'not an ftrace line';"
		 " tail -n 3 traces/freq_prediction-pass.txt; } > '%s'",
		 getenv("UCVAL"), dat, getenv("UCVAL"), txt, bad);
	assert_int_equal(system(cmd), 0);
	for (size_t i = 0; i < ARRAY_SIZE(traces); i++) {
		if (access(traces[i], R_OK)) {
			print_message("skipped %s: not there\n", traces[i]);
			continue;
		}
		assert_true(same_output(traces[i], "UCVAL_FEED", feed, ARRAY_SIZE(feed)) <= 3);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

/*
 * UCVAL_DAT picks the trace.dat reader (docs/performance.md): pages walked by
 * ucval (the default), every page through kbuffer, or libtracecmd's own
 * records. The output is the same, for the Juno trace and a synthetic one
 * with lost events; only when a bad page is found differs.
 */
static void test_analyze_dat_reader(void **state)
{
	static const char *const how[] = { NULL, "kbuffer", "library" };
	static const struct { const char *how, *want; } bad[] = {
		{ NULL, "cannot read" }, { "kbuffer", "cannot read" }, { "library", "cannot open" },
	};
	static struct run r;
	char dir[] = "/tmp/ucval-cli-dat-XXXXXX", dat[64], juno[4096], cmd[512];
	const char *shared = getenv("UCVAL_SHARED");
	const char *traces[] = { juno, dat };
	const char *args[] = { "analyze", "tests/fuzz/regressions/tracedat-v6-short-cpu-range.dat",
			       NULL };

	(void)state;
	snprintf(juno, sizeof(juno), "%s/traces/juno-r0-schedutil-sched_load.dat",
		 shared && *shared ? shared : "../shared");
	assert_non_null(mkdtemp(dir));
	snprintf(dat, sizeof(dat), "%s/lost.dat", dir);
	snprintf(cmd, sizeof(cmd), "'%s' synth -q -o '%s' --events 20000 --fault lost-events",
		 getenv("UCVAL"), dat);
	assert_int_equal(system(cmd), 0);
	for (size_t i = 0; i < ARRAY_SIZE(traces); i++) {
		if (access(traces[i], R_OK)) {
			print_message("skipped %s: not there\n", traces[i]);
			continue;
		}
		assert_true(same_output(traces[i], "UCVAL_DAT", how, ARRAY_SIZE(how)) <= 3);
	}
	/*
	 * The switch is real: a page whose data length exceeds it is found at
	 * open by libtracecmd's path (every page is checked first), while
	 * reading by the others.
	 */
	for (size_t h = 0; h < ARRAY_SIZE(bad); h++) {
		if (bad[h].how)
			setenv("UCVAL_DAT", bad[h].how, 1);
		run_ucval(args, &r);
		unsetenv("UCVAL_DAT");
		assert_int_equal(r.status, 2);
		if (!strstr(r.err, bad[h].want) || !strstr(r.err, "ring-buffer page larger than a page"))
			fail_msg("UCVAL_DAT=%s: '%s' wanted in: %s", bad[h].how ? bad[h].how : "",
				 bad[h].want, r.err);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

/*
 * A capture without sched_migrate_task (LISA's text dump of a Juno r2) whose
 * tasks move between CPUs: no trace_integrity FAIL, exit 0 or 3, and the
 * summary says the capture did not record sched_migrate_task.
 */
static void test_analyze_no_migrate(void **state)
{
	static struct run r;
	char path[4096];
	const char *shared = getenv("UCVAL_SHARED");
	const char *args[] = { "analyze", "--json", "-", path, NULL };
	const char *table[] = { "analyze", path, NULL };
	const char *missing;

	(void)state;
	snprintf(path, sizeof(path), "%s/traces/juno-r2-no-migrate.trace.txt",
		 shared && *shared ? shared : "../shared");
	if (access(path, R_OK)) {
		print_message("skip: %s not found (set UCVAL_SHARED)\n", path);
		skip();
	}
	run_ucval(args, &r);
	if (r.status != 0 && r.status != 3)
		fail_msg("exit %d: %s", r.status, r.err);
	assert_non_null(strstr(r.out, "\"check_id\": \"trace_integrity\", \"verdict\": \"PASS\""));
	assert_null(strstr(r.out, "\"verdict\": \"FAIL\""));
	missing = strstr(r.out, "\"not_recorded\": [");
	assert_non_null(missing);
	assert_non_null(strstr(missing, "\"sched_migrate_task\""));
	assert_true(strstr(missing, "\"sched_migrate_task\"") < strstr(missing, "]"));
	run_ucval(table, &r);
	assert_true(r.status == 0 || r.status == 3);
	assert_non_null(strstr(r.out, "  events not recorded: "));
	assert_non_null(strstr(strstr(r.out, "  events not recorded: "), "sched_migrate_task"));
}

/*
 * @path: a text trace of @n pids that exit without sched_process_free
 * (mode 'x') or only wake, run and sleep (mode 's'), each once, under one
 * of five names: the tasks a tidy packs and the `tasks` rows it writes out.
 */
static void write_pids(const char *path, int n, char mode)
{
	FILE *f = fopen(path, "w");
	unsigned long long us = 0;
	char ts[5][32];

	assert_non_null(f);
	fprintf(f, "# tracer: nop\n#\ncpus=2\n");
	fprintf(f, "<idle>-0 [000] 1.000000: sched_switch: prev_comm=swapper/0 prev_pid=0"
		" prev_prio=120 prev_state=R ==> next_comm=init next_pid=1 next_prio=120\n");
	for (int i = 0; i < n; i++) {
		int pid = 2 + i;
		char c[16];

		snprintf(c, sizeof(c), "p%d", i % 5);
		for (int k = 0; k < 5; k++, us++)
			snprintf(ts[k], sizeof(ts[k]), "%llu.%06llu", 2 + us / 1000000, us % 1000000);
		if (mode == 'x')
			fprintf(f, "init-1 [000] %s: sched_process_fork: comm=init pid=1"
				" child_comm=init child_pid=%d\n", ts[0], pid);
		fprintf(f, "init-1 [000] %s: sched_wakeup%s: comm=%s pid=%d prio=120"
			" target_cpu=001\n", ts[1], mode == 'x' ? "_new" : "", c, pid);
		fprintf(f, "<idle>-0 [001] %s: sched_switch: prev_comm=swapper/1 prev_pid=0"
			" prev_prio=120 prev_state=R ==> next_comm=%s next_pid=%d next_prio=120\n",
			ts[2], c, pid);
		if (mode == 'x')
			fprintf(f, "%s-%d [001] %s: sched_process_exit: comm=%s pid=%d prio=120\n",
				c, pid, ts[3], c, pid);
		fprintf(f, "%s-%d [001] %s: sched_switch: prev_comm=%s prev_pid=%d prev_prio=120"
			" prev_state=%s ==> next_comm=swapper/1 next_pid=0 next_prio=120\n",
			c, pid, ts[4], c, pid, mode == 'x' ? "X" : "S");
	}
	assert_int_equal(fclose(f), 0);
}

/* Every row of every table of @db but the time of the analysis, in order. */
static char *db_rows(const char *db)
{
	sqlite3 *c;
	sqlite3_stmt *st, *rows;
	char *out = NULL, sql[2048];
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	assert_non_null(f);
	assert_int_equal(sqlite3_open_v2(db, &c, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(c, "SELECT m.name, group_concat('quote(' || p.name || ')',"
					    " '||'',''||') FROM sqlite_master m, pragma_table_info(m.name) p"
					    " WHERE m.type = 'table' AND p.name != 'analyzed_at'"
					    " GROUP BY m.name ORDER BY m.name", -1, &st, NULL), SQLITE_OK);
	while (sqlite3_step(st) == SQLITE_ROW) {
		snprintf(sql, sizeof(sql), "SELECT %s FROM %s ORDER BY 1",
			 (const char *)sqlite3_column_text(st, 1),
			 (const char *)sqlite3_column_text(st, 0));
		assert_int_equal(sqlite3_prepare_v2(c, sql, -1, &rows, NULL), SQLITE_OK);
		fprintf(f, "%s\n", (const char *)sqlite3_column_text(st, 0));
		while (sqlite3_step(rows) == SQLITE_ROW)
			fprintf(f, "%s\n", (const char *)sqlite3_column_text(rows, 0));
		sqlite3_finalize(rows);
	}
	sqlite3_finalize(st);
	sqlite3_close(c);
	fclose(f);
	return out;
}

/*
 * Packing idle tasks (analyze/replay/tasks.h) and writing out idle `tasks`
 * rows (analyze/store/series.h) change nothing: the JSON and every row of
 * the database are those of an analysis that never packs (UCVAL_TIDY of a
 * billion), by default (4096 tasks) and when both happen before every event
 * (UCVAL_TIDY=1): fixtures, synthetic traces with forks, requests, lost
 * events and v3 groups, and 6000 pids that no event frees.
 */
static void test_analyze_tidy(void **state)
{
	static const char *const tidy[] = { "1000000000", NULL, "1" };
	char dir[] = "/tmp/ucval-cli-tidy-XXXXXX", cmd[1024], db[64];
	char trace[6][64];
	const char *fixtures[] = {
		"traces/rq_clamp-fail.txt", "traces/task_effective-fail.txt",
		"traces/request_result-fail.txt", "traces/groups_exhausted-fail.txt",
		"traces/freq_prediction-fail.txt", "traces/trace_integrity-fail.txt",
	};
	const char *args[] = { "analyze", "-q", "--db", db, NULL, NULL };
	static struct run r;

	(void)state;
	assert_non_null(mkdtemp(dir));
	for (int i = 0; i < 6; i++)
		snprintf(trace[i], sizeof(trace[i]), "%s/t%d.txt", dir, i);
	snprintf(db, sizeof(db), "%s/t.db", dir);
	snprintf(cmd, sizeof(cmd), "'%1$s' synth -q -o '%2$s' --events 20000 --tasks 40 &&"
		 " '%1$s' synth -q -o '%3$s' --events 20000 --fault accept-invalid --seed 2 &&"
		 " '%1$s' synth -q -o '%4$s' --events 20000 --fault lost-events --seed 3 &&"
		 " '%1$s' synth -q -o '%5$s' --events 20000 --model v3 --fault groups-overflow",
		 getenv("UCVAL"), trace[0], trace[1], trace[2], trace[3]);
	assert_int_equal(system(cmd), 0);
	write_pids(trace[4], 6000, 'x');
	write_pids(trace[5], 6000, 's');
	for (size_t i = 0; i < ARRAY_SIZE(fixtures); i++)
		same_output(fixtures[i], "UCVAL_TIDY", tidy, ARRAY_SIZE(tidy));
	for (int i = 0; i < 6; i++) {
		char *want = NULL;

		same_output(trace[i], "UCVAL_TIDY", tidy, ARRAY_SIZE(tidy));
		args[4] = trace[i];
		for (size_t k = 0; k < ARRAY_SIZE(tidy); k++) {
			char *got;

			unlink(db);
			if (tidy[k])
				setenv("UCVAL_TIDY", tidy[k], 1);
			run_ucval(args, &r);
			unsetenv("UCVAL_TIDY");
			assert_true(r.status <= 3);
			got = db_rows(db);
			if (!want)
				want = got;
			else if (strcmp(want, got))
				fail_msg("%s: UCVAL_TIDY=%s: other database rows", trace[i],
					 tidy[k] ? tidy[k] : "");
			if (got != want)
				free(got);
		}
		assert_non_null(strstr(want, "\ntasks\n"));
		free(want);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

/*
 * The frequency checks' shortcuts (analyze/checks/freqstate.h: the util band
 * of freq_prediction, the memos of the floor and the ceiling, the floor's
 * quiet policies, the judgements left out) give what asking the model at
 * every judgement gives (UCVAL_FQ_FULL=1), byte for byte: the JSON of
 * every fixture and of synthetic traces of both models, 1 to 4 policies
 * and the frequency faults, and the database rows of one.
 */
static void test_analyze_fq_full(void **state)
{
	static const char *const full[] = { NULL, "1" };
	static const char *const synth[] = {
		"--events 40000 --cpus 8",
		"--events 30000 --model v3 --cpus 6 --policies 3 --seed 3",
		"--events 20000 --cpus 2 --policies 1 --seed 4",
		"--events 30000 --fault sugov-ignores-min --seed 5",
		"--events 30000 --fault sugov-ignores-max --model v3 --seed 6",
		"--events 30000 --fault rate-limit --seed 7",
		"--events 30000 --fault lost-events --cpus 8 --policies 4 --seed 8",
	};
	char dir[] = "/tmp/ucval-cli-fqfull-XXXXXX", cmd[1024], db[64], trace[64];
	const char *args[] = { "analyze", "-q", "--db", db, trace, NULL };
	static struct run r;
	char *rows[2];
	glob_t g;

	(void)state;
	assert_int_equal(glob("traces/*.txt", 0, NULL, &g), 0);
	assert_int_equal(glob("traces/*.html", GLOB_APPEND, NULL, &g), 0);
	assert_true(g.gl_pathc > 30);
	for (size_t i = 0; i < g.gl_pathc; i++)
		same_output(g.gl_pathv[i], "UCVAL_FQ_FULL", full, ARRAY_SIZE(full));
	globfree(&g);
	assert_non_null(mkdtemp(dir));
	snprintf(trace, sizeof(trace), "%s/t.dat", dir);
	snprintf(db, sizeof(db), "%s/t.db", dir);
	for (size_t i = 0; i < ARRAY_SIZE(synth); i++) {
		snprintf(cmd, sizeof(cmd), "'%s' synth -q -o '%s' %s", getenv("UCVAL"), trace,
			 synth[i]);
		assert_int_equal(system(cmd), 0);
		same_output(trace, "UCVAL_FQ_FULL", full, ARRAY_SIZE(full));
	}
	for (size_t k = 0; k < ARRAY_SIZE(full); k++) {
		unlink(db);
		if (full[k])
			setenv("UCVAL_FQ_FULL", full[k], 1);
		run_ucval(args, &r);
		unsetenv("UCVAL_FQ_FULL");
		assert_true(r.status <= 3);
		rows[k] = db_rows(db);
	}
	assert_non_null(strstr(rows[0], "\nfreq_interval_chunks\n"));
	if (strcmp(rows[0], rows[1]))
		fail_msg("%s: UCVAL_FQ_FULL=1: other database rows", trace);
	free(rows[0]);
	free(rows[1]);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

/*
 * An unreadable trace leaves no database behind, not even an empty one: a
 * trace's rows may stream in as it is read (struct stream), but the
 * database is opened only once the trace has opened.
 */
static void test_analyze_db_unreadable(void **state)
{
	static struct run r;
	char dir[] = "/tmp/ucval-cli-bad-XXXXXX", db[64], bad[64], cmd[256];
	const char *args[] = { "analyze", "--db", db, bad, NULL };

	(void)state;
	make_bad_dir(dir, db, bad);
	run_ucval(args, &r);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "bad.txt"));
	assert_int_not_equal(access(db, F_OK), 0);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

/*
 * Every output to a full device: exit 2 (whatever the verdict was, since it
 * is lost) and a line naming the output, for each command and option that
 * writes. Standard output is /dev/full, but a plain file when a case names
 * /dev/full itself. "@DB" stands for a database of the rq_clamp fixtures.
 */
static const struct werr_case {
	const char *what;
	const char *args[MAX_ARGS + 1];
	const char *err_has;
} werr_cases[] = {
#define NOSPC	"cannot write standard output: No space left on device"
	{ "help", { "--help" }, "ucval: " NOSPC },
	{ "version", { "--version" }, "ucval: " NOSPC },
	{ "analyze help", { "analyze", "--help" }, "ucval analyze: " NOSPC },
	{ "analyze table, FAIL", { "analyze", "traces/rq_clamp-fail.txt" }, "ucval analyze: " NOSPC },
	{ "analyze table, PASS", { "analyze", "traces/rq_clamp-pass.txt" }, "ucval analyze: " NOSPC },
	{ "analyze table, UNDECIDED", { "analyze", "traces/request_result-pass.txt" },
	  "ucval analyze: " NOSPC },
	{ "analyze table, two traces", { "analyze", "traces/rq_clamp-fail.txt",
					 "traces/rq_clamp-pass.txt" }, "ucval analyze: " NOSPC },
	{ "analyze table, -j 2", { "analyze", "-j", "2", "traces/rq_clamp-fail.txt",
				   "traces/rq_clamp-pass.txt" }, "ucval analyze: " NOSPC },
	{ "analyze table, --db", { "analyze", "--db", "@DB", "traces/rq_clamp-fail.txt" },
	  "ucval analyze: " NOSPC },
	{ "analyze --json -", { "analyze", "-q", "--json", "-", "traces/rq_clamp-fail.txt" },
	  "ucval analyze: " NOSPC },
	{ "analyze --json - -j 2", { "analyze", "-q", "-j", "2", "--json", "-",
				     "traces/rq_clamp-fail.txt", "traces/rq_clamp-pass.txt" },
	  "ucval analyze: " NOSPC },
	{ "analyze --json FILE", { "analyze", "-q", "--json", "/dev/full",
				   "traces/rq_clamp-pass.txt" },
	  "ucval analyze: cannot write '/dev/full': No space left on device" },
	{ "analyze --json FILE, stdout", { "analyze", "-q", "--json", "/dev/stdout",
					   "traces/rq_clamp-pass.txt" }, "ucval analyze: " NOSPC },
	{ "model help", { "model", "--help" }, "ucval model: " NOSPC },
	{ "model freq help", { "model", "freq", "--help" }, "ucval model: " NOSPC },
	{ "model freq", { "model", "freq", "--freqs", "500000,850000", "--util", "300" },
	  "ucval model: " NOSPC },
	{ "model rq help", { "model", "rq", "--help" }, "ucval model: " NOSPC },
	{ "model rq", { "model", "rq", "200:800", "-:300" }, "ucval model: " NOSPC },
	{ "report help", { "report", "--help" }, "ucval report: " NOSPC },
	{ "report text", { "report", "@DB" }, "ucval report: " NOSPC },
	{ "report md", { "report", "--format", "md", "@DB" }, "ucval report: " NOSPC },
	{ "report html", { "report", "--format", "html", "@DB" }, "ucval report: " NOSPC },
	{ "report json", { "report", "--format", "json", "@DB" }, "ucval report: " NOSPC },
	{ "report junit", { "report", "--format", "junit", "@DB" }, "ucval report: " NOSPC },
	{ "report -o -", { "report", "-o", "-", "@DB" }, "ucval report: " NOSPC },
	{ "report --diff", { "report", "--diff", "@DB", "traces/rq_clamp-fail.txt",
				     "traces/rq_clamp-pass.txt" }, "ucval report: " NOSPC },
	{ "report -o FILE", { "report", "-o", "/dev/full", "@DB" },
	  "ucval report: cannot write report '/dev/full': No space left on device" },
	{ "report -o stdout", { "report", "-o", "/dev/stdout", "@DB" }, "ucval report: " NOSPC },
	{ "collect help", { "collect", "--help" }, "ucval collect: " NOSPC },
	{ "synth help", { "synth", "--help" }, "ucval synth: " NOSPC },
	{ "synth fault list", { "synth", "--fault", "list" }, "ucval synth: " NOSPC },
	{ "synth trace.dat to stdout", { "synth", "-q", "--events", "100", "-o", "-" },
	  "No space left on device" },
#undef NOSPC
};

static void test_write_errors(void **state)
{
	static struct run r;
	char dir[] = "/tmp/ucval-cli-werr-XXXXXX", db[64], cmd[128];
	const char *mk[] = { "analyze", "-q", "--db", db, "traces/rq_clamp-fail.txt",
			     "traces/rq_clamp-pass.txt", NULL };
	struct stat st;

	(void)state;
	if (stat("/dev/full", &st) || !S_ISCHR(st.st_mode)) {
		print_message("skipped: /dev/full is not a character device here\n");
		skip();
	}
	assert_non_null(mkdtemp(dir));
	snprintf(db, sizeof(db), "%s/r.db", dir);
	run_ucval(mk, &r);
	assert_int_equal(r.status, 1);
	for (size_t i = 0; i < ARRAY_SIZE(werr_cases); i++) {
		const struct werr_case *c = &werr_cases[i];
		const char *args[MAX_ARGS + 1];
		bool is_path = false;
		size_t n;

		for (n = 0; c->args[n]; n++) {
			args[n] = strcmp(c->args[n], "@DB") ? c->args[n] : db;
			is_path |= !strcmp(c->args[n], "/dev/full");
		}
		args[n] = NULL;
		run_ucval_to(args, is_path ? NULL : "/dev/full", &r);
		if (r.status != 2 || !strstr(r.err, c->err_has))
			fail_msg("case %zu (%s): exit %d want 2, stderr wants '%s':\n%s", i,
				 c->what, r.status, c->err_has, r.err);
		/* one process, one line: said once, however many writes failed */
		if (strchr(r.err, '\n') != r.err + strlen(r.err) - 1 && !strstr(c->what, "-j"))
			fail_msg("case %zu (%s): more than one line:\n%s", i, c->what, r.err);
	}
	/* /dev/full is still the device: no output replaced it by a file */
	assert_int_equal(stat("/dev/full", &st), 0);
	assert_true(S_ISCHR(st.st_mode));
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

/*
 * A text from a pipe without a CPU-count header: the CPUs of its first 8 KiB
 * are modelled. A CPU beyond them later makes every later judgement
 * UNDECIDED (exit 3, an EV-LOST UNDECIDED window); the same text as a file
 * is read twice and models that CPU (exit 0).
 */
static void test_pipe_cpu_beyond(void **state)
{
	char dir[] = "/tmp/ucval-cli-beyond-XXXXXX", txt[64], json[64], cmd[512];
	FILE *fp;
	int st;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(txt, sizeof(txt), "%s/t.txt", dir);
	snprintf(json, sizeof(json), "%s/r.json", dir);
	fp = fopen(txt, "w");
	assert_non_null(fp);
	fputs("# tracer: nop\n", fp);
	for (int i = 0; i < 200; i++)	/* over 8 KiB of CPU 0 */
		fprintf(fp, "a-10 [000] 1.%06d: sched_wakeup: comm=a pid=%d prio=120 "
			"target_cpu=000\n", i * 1000, 100 + i % 3);
	fputs("b-11 [003] 1.300000: sched_switch: prev_comm=b prev_pid=11 prev_prio=120 "
	      "prev_state=S ==> next_comm=c next_pid=12 next_prio=120\n", fp);
	assert_int_equal(fclose(fp), 0);
	snprintf(cmd, sizeof(cmd), "cat '%s' | '%s' analyze -q --json '%s' /dev/stdin", txt,
		 getenv("UCVAL"), json);
	st = system(cmd);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 3);
	snprintf(cmd, sizeof(cmd), "grep -q '\"rule\": \"EV-LOST\", \"message\": \"events "
		 "of this cpu not replayed' '%s'", json);
	assert_int_equal(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "'%s' analyze -q '%s'", getenv("UCVAL"), txt);
	st = system(cmd);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

/* An output naming an input (a link to it too) is refused; the input stays as it was. */
static void test_output_is_input(void **state)
{
	static struct run r;
	char dir[] = "/tmp/ucval-cli-same-XXXXXX", in[64], link[64], cmd[256];
	const char *const opts[] = { "--json", "--db" };

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(in, sizeof(in), "%s/t.txt", dir);
	snprintf(link, sizeof(link), "%s/link.txt", dir);
	snprintf(cmd, sizeof(cmd), "cp traces/rq_clamp-fail.txt '%s' && ln -s t.txt '%s'", in, link);
	assert_int_equal(system(cmd), 0);
	for (size_t i = 0; i < 2 * ARRAY_SIZE(opts); i++) {
		const char *out = i < ARRAY_SIZE(opts) ? in : link;
		const char *args[] = { "analyze", "-q", opts[i % ARRAY_SIZE(opts)], out,
				       "traces/rq_clamp-pass.txt", in, NULL };

		run_ucval(args, &r);
		if (r.status != 2 || !strstr(r.err, "is also a TRACE given"))
			fail_msg("case %zu (%s %s): exit %d want 2:\n%s", i, args[2], out,
				 r.status, r.err);
		snprintf(cmd, sizeof(cmd), "cmp -s traces/rq_clamp-fail.txt '%s'", in);
		if (system(cmd))
			fail_msg("case %zu (%s %s): the input was changed", i, args[2], out);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cli_table),
		cmocka_unit_test(test_analyze_db),
		cmocka_unit_test(test_analyze_db_writer),
		cmocka_unit_test(test_analyze_tags),
		cmocka_unit_test(test_analyze_feed),
		cmocka_unit_test(test_analyze_dat_reader),
		cmocka_unit_test(test_analyze_no_migrate),
		cmocka_unit_test(test_analyze_db_unreadable),
		cmocka_unit_test(test_write_errors),
		cmocka_unit_test(test_output_is_input),
		cmocka_unit_test(test_pipe_cpu_beyond),
		cmocka_unit_test(test_analyze_tidy),
		cmocka_unit_test(test_analyze_fq_full),
	};

	if (!getenv("UCVAL")) {
		fprintf(stderr, "test_cli: UCVAL (path of the ucval binary) is not set\n");
		return 1;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
