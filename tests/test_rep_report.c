// SPDX-License-Identifier: MIT
/*
 * `ucval report` (reports/): golden text, md, json and junit reports of a
 * database that `ucval analyze --db` writes from traces/ fixtures; JSON
 * parsed, JUnit checked against tests/junit.xsd, HTML checked as XML and as
 * HTML; schema 2 sections from a database built here; bounded HTML for a
 * million intervals; every input error gives exit status 2.
 *
 * UCVAL_GOLDEN_UPDATE=1 (`make golden-update`) rewrites tests/golden/.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "reports/doc.h"
#include "reports/fmt.h"
#include "lib/outfile.h"
#include "reports/tseries.h"
#include "reports/xml.h"
#include "tests/an_testutil.h"
#include "tests/rep_testdb.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define MAX_ARGS	16
/* Enough for any error message; reports go to files. */
#define ERR_MAX		4096
/* The fixed clock of the golden database (analyze's UCVAL_NOW). */
#define GOLDEN_NOW	REP_TEST_NOW
/* Largest HTML accepted for the million-interval database. */
#define HTML_MAX_BYTES	(4 * 1024 * 1024)

/* The fixtures of the golden database, in trace_id order. */
static const char *const golden_traces[] = {
	"traces/freq_below_min_clamp-fail.txt",
	"traces/rq_clamp-fail.txt",
	"traces/request_result-fail.txt",
	"traces/freq_prediction-pass.txt",
};

struct run {
	int status;
	char err[ERR_MAX];
};

/* Per-test scratch directory, removed at teardown. */
struct scratch {
	char dir[64];
	char db[128];
};

static char *path_in(const struct scratch *s, const char *name)
{
	static char buf[4][256];	/* a few paths live at once in one call */
	static int next;
	char *p = buf[next++ % 4];

	snprintf(p, sizeof(buf[0]), "%s/%s", s->dir, name);
	return p;
}

/* Run $UCVAL @args (NULL-terminated); stdout to @out_path (or /dev/null). */
static void run_ucval(const char *const *args, const char *out_path, struct run *r)
{
	const struct an_test_spawn o = { .out_file = out_path ? out_path : "/dev/null" };

	r->status = an_test_run_ucval(args, &o, NULL, 0, r->err, sizeof(r->err));
}

static char *slurp_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	if (buf)
		buf[n] = '\0';
	if (len)
		*len = (size_t)n;
	fclose(f);
	return buf;
}

static bool have_tool(const char *cmd)
{
	char sh[256];

	snprintf(sh, sizeof(sh), "command -v %s >/dev/null 2>&1", cmd);
	return system(sh) == 0;
}

static int scratch_setup(void **state)
{
	struct scratch *s = calloc(1, sizeof(*s));

	assert_non_null(s);
	assert_int_equal(chdir(an_test_root()), 0);
	snprintf(s->dir, sizeof(s->dir), "/tmp/ucval-rep-XXXXXX");
	assert_non_null(mkdtemp(s->dir));
	snprintf(s->db, sizeof(s->db), "%s/r.db", s->dir);
	*state = s;
	return 0;
}

static int scratch_teardown(void **state)
{
	struct scratch *s = *state;
	char cmd[128];

	if (getenv("UCVAL_TEST_KEEP")) {	/* for looking at the outputs */
		printf("# kept %s\n", s->dir);
		free(s);
		return 0;
	}
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", s->dir);
	if (system(cmd))
		fprintf(stderr, "# could not remove %s\n", s->dir);
	free(s);
	return 0;
}

/* --- the golden database: `ucval analyze --db` over traces/ fixtures ----- */

static void make_golden_db(const struct scratch *s)
{
	const char *args[MAX_ARGS] = { "analyze", "-q", "--db", s->db };
	struct run r;
	size_t n = 4;

	for (size_t i = 0; i < ARRAY_SIZE(golden_traces); i++)
		args[n++] = golden_traces[i];
	args[n] = NULL;
	setenv("UCVAL_NOW", GOLDEN_NOW, 1);
	run_ucval(args, NULL, &r);
	unsetenv("UCVAL_NOW");
	if (r.status != 1)	/* the FAIL fixtures make analyze exit 1 */
		fail_msg("analyze: exit %d: %s", r.status, r.err);
}

struct golden_case {
	const char *file;		/* in tests/golden/ */
	const char *args[MAX_ARGS];	/* after "report"; "DB" is the database */
};

static const struct golden_case golden_cases[] = {
	{ "all.txt", { "DB" } },
	{ "freq.md", { "DB", "--trace", "traces/freq_below_min_clamp-fail.txt", "--format", "md" } },
	{ "all.md", { "DB", "--format", "md", "--top", "1" } },
	{ "all.json", { "DB", "--format", "json" } },
	{ "all.xml", { "DB", "--format", "junit" } },
	{ "diff.txt", { "--diff", "DB", "freq_prediction-pass.txt", "1" } },
	{ "diff.json", { "--diff", "DB", "4", "1", "--format", "json" } },
};

/* Run one golden case into @out; "DB" in the args becomes the database. */
static void run_report(const struct scratch *s, const char *const *case_args, const char *out,
		       struct run *r)
{
	const char *args[MAX_ARGS + 4] = { "report", "-o", out };
	size_t n = 3;

	for (size_t i = 0; case_args[i]; i++)
		args[n++] = strcmp(case_args[i], "DB") ? case_args[i] : s->db;
	args[n] = NULL;
	run_ucval(args, NULL, r);
}

static void compare_golden(const char *golden, const char *got)
{
	char cmd[PATH_MAX + 512];
	char *want = slurp_file(golden, NULL), *have = slurp_file(got, NULL);

	assert_non_null(have);
	if (getenv("UCVAL_GOLDEN_UPDATE")) {
		snprintf(cmd, sizeof(cmd), "cp '%s' '%s'", got, golden);
		assert_int_equal(system(cmd), 0);
		printf("# updated %s\n", golden);
	} else if (!want || strcmp(want, have)) {
		snprintf(cmd, sizeof(cmd), "diff -u '%s' '%s' | head -60", golden, got);
		if (system(cmd))
			fprintf(stderr, "# diff failed\n");
		fail_msg("%s differs from the report (make golden-update after review)", golden);
	}
	free(want);
	free(have);
}

/* Two outputs that must be the same (no golden file involved). */
static void compare_files(const char *want_path, const char *got_path)
{
	char cmd[2 * PATH_MAX + 64];
	char *want = slurp_file(want_path, NULL), *have = slurp_file(got_path, NULL);

	assert_non_null(want);
	assert_non_null(have);
	if (strcmp(want, have)) {
		snprintf(cmd, sizeof(cmd), "diff -u '%s' '%s' | head -40", want_path, got_path);
		if (system(cmd))
			fprintf(stderr, "# diff failed\n");
		fail_msg("%s differs from %s", got_path, want_path);
	}
	free(want);
	free(have);
}

/* Each case's report compared with (or, to update, written to) its golden file. */
static void check_golden(const struct scratch *s, const struct golden_case *cases, size_t nr)
{
	char golden[PATH_MAX + 64];

	for (size_t i = 0; i < nr; i++) {
		const struct golden_case *c = &cases[i];
		const char *out = path_in(s, c->file);
		struct run r;

		run_report(s, c->args, out, &r);
		if (r.status)
			fail_msg("case %zu (%s): exit %d: %s", i, c->file, r.status, r.err);
		snprintf(golden, sizeof(golden), "%s/tests/golden/%s", an_test_root(), c->file);
		compare_golden(golden, out);
	}
}

static void test_golden(void **state)
{
	const struct scratch *s = *state;

	make_golden_db(s);
	check_golden(s, golden_cases, ARRAY_SIZE(golden_cases));
}

/* The JSON outputs parse; the JUnit output follows tests/junit.xsd. */
static void test_machine_formats(void **state)
{
	const struct scratch *s = *state;
	static const char *const json_files[] = { "all.json", "diff.json" };
	char cmd[PATH_MAX + 512];

	make_golden_db(s);
	for (size_t i = 0; i < ARRAY_SIZE(golden_cases); i++) {
		struct run r;

		run_report(s, golden_cases[i].args, path_in(s, golden_cases[i].file), &r);
		assert_int_equal(r.status, 0);
	}
	if (!have_tool("python3")) {
		printf("# skip: python3 absent, JSON not parsed\n");
	} else {
		for (size_t i = 0; i < ARRAY_SIZE(json_files); i++) {
			snprintf(cmd, sizeof(cmd), "python3 -c 'import json,sys; json.load(sys.stdin)'"
				 " < '%s'", path_in(s, json_files[i]));
			if (system(cmd))
				fail_msg("%s is not valid JSON", json_files[i]);
		}
	}
	if (!have_tool("xmllint")) {
		printf("# skip: xmllint absent (Debian libxml2-utils), JUnit not validated\n");
		skip();
	}
	snprintf(cmd, sizeof(cmd), "xmllint --noout --schema '%s/tests/junit.xsd' '%s'",
		 an_test_root(), path_in(s, "all.xml"));
	if (system(cmd))
		fail_msg("all.xml does not follow tests/junit.xsd");
}

/* --- input errors --------------------------------------------------------- */

struct error_case {
	const char *what;
	const char *db;			/* scratch file name, or an absolute path */
	const char *args[6];		/* after DB */
	const char *err_has[2];
};

static const struct error_case error_cases[] = {
	{ "empty database", "empty.db", { NULL }, { "holds no traces", "ucval analyze --db" } },
	{ "unknown trace id", "r.db", { "--trace", "999" }, { "no trace '999'", "ids 1 to 4" } },
	{ "unknown trace path", "r.db", { "--trace", "traces/nope.txt" }, { "no trace 'traces/nope.txt'" } },
	{ "ambiguous path", "twice.db", { "--trace", "traces/rq_clamp-fail.txt" },
	  { "'traces/rq_clamp-fail.txt' is ambiguous", "trace ids 1, 2: give the id" } },
	{ "unknown option", "r.db", { "--frob" }, { "unknown option '--frob'" } },
	{ "newer schema", "newer.db", { NULL }, { "schema version 99 is newer", "use a newer ucval" } },
	{ "not a database", "text.db", { NULL }, { "text.db", "file is not a database" } },
	{ "zero bytes", "zero.db", { NULL }, { "not a ucval results database: no table 'traces'" } },
	{ "missing file", "/nonexistent/r.db", { NULL }, { "No such file or directory" } },
	{ "a directory", "/tmp", { NULL }, { "not a regular file" } },
	{ "bad format", "r.db", { "--format", "pdf" }, { "--format expects text, md, html" } },
	{ "bad top", "r.db", { "--top", "-1" }, { "--top expects a whole number" } },
	{ "diff html", "r.db", { "--diff", "1", "2", "--format", "html" }, { "--diff writes text" } },
	{ "diff one trace", "r.db", { "--diff", "1" }, { "--diff expects DB A B" } },
	{ "unwritable output", "r.db", { "-o", "/nonexistent/dir/out.txt" },
	  { "cannot write report '/nonexistent/dir/out.txt'" } },
	{ "chunk of 3 numbers", "chunk.db", { "--format", "html" },
	  { "chunk.db', trace 1: clamp_interval_chunks: a row of key 1: not intervals of 4"
	    " numbers at byte 7" } },
};

static void make_error_dbs(const struct scratch *s)
{
	struct an_diag d;
	struct an_db *db;
	sqlite3 *c;
	FILE *f;

	an_diag_clear(&d);
	assert_int_equal(an_db_open(&db, path_in(s, "empty.db"), &d), 0);
	an_db_close(db);
	assert_int_equal(sqlite3_open(path_in(s, "newer.db"), &c), SQLITE_OK);
	assert_int_equal(sqlite3_exec(c, "CREATE TABLE traces(x); PRAGMA user_version = 99",
				      NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(c);
	f = fopen(path_in(s, "text.db"), "w");
	assert_non_null(f);
	fputs("# tracer: nop\nthis is a trace, not a database, and long enough to be read\n", f);
	for (int i = 0; i < 20; i++)
		fputs("          <idle>-0     [000] d..2  100.000000: sched_switch: ...\n", f);
	fclose(f);
	f = fopen(path_in(s, "zero.db"), "w");
	assert_non_null(f);
	fclose(f);
	/* the same trace under two option sets: two rows with one path */
	for (int i = 0; i < 2; i++) {
		const char *args[] = { "analyze", "-q", "--db", path_in(s, "twice.db"), "--grace-us",
				       i ? "5" : "7", "traces/rq_clamp-fail.txt", NULL };
		struct run r;

		run_ucval(args, NULL, &r);
		assert_int_equal(r.status, 1);
	}
	/* a chunk of intervals changed by hand: an interval short of one number */
	{
		const char *args[] = { "analyze", "-q", "--db", path_in(s, "chunk.db"),
				       "traces/rq_clamp-fail.txt", NULL };
		struct run r;

		run_ucval(args, NULL, &r);
		assert_int_equal(r.status, 1);
		assert_int_equal(sqlite3_open(path_in(s, "chunk.db"), &c), SQLITE_OK);
		assert_int_equal(sqlite3_exec(c, "UPDATE clamp_interval_chunks SET intervals ="
					      " '[[0,1,2]]' WHERE cpu = 1", NULL, NULL, NULL),
				 SQLITE_OK);
		sqlite3_close(c);
	}
}

static void test_errors(void **state)
{
	const struct scratch *s = *state;

	make_golden_db(s);
	make_error_dbs(s);
	for (size_t i = 0; i < ARRAY_SIZE(error_cases); i++) {
		const struct error_case *c = &error_cases[i];
		const char *args[MAX_ARGS] = { "report" };
		size_t n = 1;
		struct run r;

		args[n++] = c->db[0] == '/' ? c->db : path_in(s, c->db);
		for (size_t k = 0; k < ARRAY_SIZE(c->args) && c->args[k]; k++)
			args[n++] = c->args[k];
		args[n] = NULL;
		run_ucval(args, NULL, &r);
		if (r.status != 2)
			fail_msg("case %zu (%s): exit %d, want 2: %s", i, c->what, r.status, r.err);
		for (size_t k = 0; k < ARRAY_SIZE(c->err_has) && c->err_has[k]; k++)
			if (!strstr(r.err, c->err_has[k]))
				fail_msg("case %zu (%s): stderr lacks '%s': %s", i, c->what,
					 c->err_has[k], r.err);
	}
}

/* --- schema 2 sections, from a database built here ------------------------ */

static const struct golden_case v2_golden_cases[] = {
	{ "v2.txt", { "DB" } },
	{ "v2.md", { "DB", "--format", "md" } },
	{ "v2.json", { "DB", "--format", "json" } },
	{ "v2-diff.txt", { "--diff", "DB", "1", "1" } },
};

/*
 * What the rule coverage section says of a trace analyzed before schema 4
 * in a file upgraded since (the schema 2 file says "not recorded (database
 * schema 2)" there).
 */
#define UPGRADED_COVERAGE "not recorded for this trace (analyzed before database schema 4)"

/*
 * The schema 2 file, then the same upgraded to schema 4 (intervals in
 * chunks, read through views; an empty rule_coverage): the same reports but
 * for the schema number and the rule coverage section.
 */
static void test_v2_golden(void **state)
{
	struct scratch *s = *state;
	char cmd[3 * PATH_MAX + 128];

	make_v2_db(s->db);
	check_golden(s, v2_golden_cases, ARRAY_SIZE(v2_golden_cases));
	upgrade_db(s->db);
	for (size_t i = 0; i < ARRAY_SIZE(v2_golden_cases); i++) {
		const char *out = path_in(s, v2_golden_cases[i].file);
		struct run r;
		char was[PATH_MAX];

		snprintf(was, sizeof(was), "%s.v2", out);
		snprintf(cmd, sizeof(cmd), "sed 's/not recorded (database schema 2)/" UPGRADED_COVERAGE
			 "/; s/database schema 2/database schema 4/;"
			 " s/\"schema_version\": 2/\"schema_version\": 4/' '%s' > '%s'", out, was);
		assert_int_equal(system(cmd), 0);
		run_report(s, v2_golden_cases[i].args, out, &r);
		if (r.status)
			fail_msg("case %zu upgraded: exit %d: %s", i, r.status, r.err);
		compare_files(was, out);
	}
}

/* --- HTML ------------------------------------------------------------------ */

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

/* Well-formed XML, and HTML whose only complaints are tags HTML 4 lacks. */
static void check_markup(const char *path)
{
	char cmd[PATH_MAX + 256];

	if (!have_tool("xmllint")) {
		printf("# skip: xmllint absent (Debian libxml2-utils), HTML not checked\n");
		return;
	}
	snprintf(cmd, sizeof(cmd), "xmllint --noout '%s'", path);
	if (system(cmd))
		fail_msg("%s is not well-formed XML", path);
	snprintf(cmd, sizeof(cmd), "xmllint --html --noout '%s' 2>&1 | grep 'parser error'"
		 " | grep -v 'Tag [a-z]* invalid'", path);
	if (!system(cmd))
		fail_msg("%s: xmllint --html reports the errors above", path);
}

struct html_case {
	const char *what;
	const char *needle;
	size_t times;			/* exact number of occurrences */
};

static const struct html_case v2_html_cases[] = {
	{ "no URL of any kind", "://", 0 },
	{ "no script", "<script", 0 },
	{ "no external reference", "href=", 0 },
	{ "two CPU plots, residency, requests", "<svg ", 4 },
	{ "one mismatch band per window run, cpu 0", "class=\"mismatch\" x=", 2 },
	{ "clamp band on both CPUs", "<path class=\"band\"", 2 },
	{ "accepted range (lo and hi) on both CPUs", "<path class=\"accepted\" d=\"M", 4 },
	{ "comm escaped", "200 (&lt;bg&gt; &amp; worker)", 2 },
	{ "request the kernel and model disagree on", "class=\"req-bad\"", 1 },
	{ "requests of pid 100", "class=\"req\" ", 2 },
	{ "explanation chain", "S10   resolved OPP kHz      1500000", 2 },
	{ "right-hand util axis", "rq uclamp (util)", 2 },
	{ "FAIL verdicts coloured", "class=\"v-FAIL\"", 2 },
};

static void check_html_cases(const char *html, const struct html_case *cases, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		if (count(html, cases[i].needle) != cases[i].times)
			fail_msg("case %zu (%s): '%s' %zu times, want %zu", i, cases[i].what,
				 cases[i].needle, count(html, cases[i].needle), cases[i].times);
}

/*
 * The schema 2 file, then upgraded to schema 4: the plots read the chunks
 * themselves (analyze/store/chunk.c) and must draw what the rows drew, the same
 * HTML but for the schema number.
 */
static void test_v2_html(void **state)
{
	struct scratch *s = *state;
	const char *out = path_in(s, "v2.html");
	const char *args[] = { "report", s->db, "--format", "html", "-o", out, NULL };
	char was[PATH_MAX], cmd[2 * PATH_MAX + 64];
	struct run r;
	char *html;

	make_v2_db(s->db);
	snprintf(was, sizeof(was), "%s.v2", out);
	for (int is_upgraded = 0; is_upgraded < 2; is_upgraded++) {
		if (is_upgraded)
			upgrade_db(s->db);
		run_ucval(args, NULL, &r);
		if (r.status)
			fail_msg("exit %d: %s", r.status, r.err);
		html = slurp_file(out, NULL);
		assert_non_null(html);
		check_html_cases(html, v2_html_cases, ARRAY_SIZE(v2_html_cases));
		free(html);
		check_markup(out);
		if (!is_upgraded) {
			snprintf(cmd, sizeof(cmd), "sed 's/not recorded (database schema 2)/"
				 UPGRADED_COVERAGE "/; s/schema 2/schema 4/' '%s' > '%s'", out, was);
			assert_int_equal(system(cmd), 0);
		}
	}
	compare_files(was, out);
}

/* --- schema 1: the v2 sections say what is missing ------------------------- */

struct v1_case {
	const char *format;
	const char *needle;
};

static const struct v1_case v1_cases[] = {
	{ "text", "  not recorded (database schema 1)" },
	{ "text", "1    1  -     0.000020   1020000        0.030       256         0  VR4   min" },
	{ "md", "not recorded (database schema 1)" },
	{ "html", "frequency and clamp intervals: not recorded (database schema 1)" },
	{ "json", "\"residency\": null" },
	{ "json", "\"explain\": null" },
	{ "junit", "#1 cpu 1, task -, at 0.000020 s (1020000 ns) for 0.030 ms: expected 256,"
		   " observed 0 (VR4): min" },
};

static void test_schema1(void **state)
{
	struct scratch *s = *state;
	const char *out = path_in(s, "v1.out");
	sqlite3 *c;

	assert_int_equal(sqlite3_open(s->db, &c), SQLITE_OK);
	exec_sql(c, v1_ddl);
	sqlite3_close(c);
	for (size_t i = 0; i < ARRAY_SIZE(v1_cases); i++) {
		const char *args[] = { "report", s->db, "--format", v1_cases[i].format, "-o", out,
				       NULL };
		struct run r;
		char *text;

		run_ucval(args, NULL, &r);
		if (r.status)
			fail_msg("case %zu (%s): exit %d: %s", i, v1_cases[i].format, r.status, r.err);
		text = slurp_file(out, NULL);
		assert_non_null(text);
		if (!strstr(text, v1_cases[i].needle))
			fail_msg("case %zu (%s): no '%s' in:\n%s", i, v1_cases[i].format,
				 v1_cases[i].needle, text);
		free(text);
	}
}

/* --- names of any byte: fixtures written here, every output checked ------ */

/* A comm with OSC 0 (window title), ED (clear screen), byte 0xff, markdown. */
#define EVIL_COMM	"\x1b]0;T\x07\x1b[2J\xff|*"
/* The same as every text output shows it (lib/utf8.h). */
#define EVIL_COMM_SHOWN	"\\x1b]0;T\\x07\\x1b[2J\\xff|*"
/* A trace file name of the same kind. */
#define EVIL_FILE	"ti-\xff\x1b[2J.txt"
#define EVIL_FILE_SHOWN	"ti-\\xff\\x1b[2J.txt"
/* A name that closes a code fence and starts a heading (percent-encoded). */
#define FENCE_NAME	"%0A```%0A#%20injected"

struct sub {
	const char *from, *to;		/* every occurrence, in order */
};

struct name_fixture {
	const char *file;		/* in the scratch directory */
	const char *base;		/* the traces/ fixture it is made from */
	struct sub subs[4];
	const char *extra;		/* a line appended, or NULL */
};

static const struct name_fixture name_fixtures[] = {
	/* pid 100's comm in the sched events; a line the reader skips */
	{ EVIL_FILE, "traces/trace_integrity-fail.txt",
	  { { "comm=a ", "comm=" EVIL_COMM " " }, { " a-100 ", " " EVIL_COMM "-100 " } },
	  "garbage \x1b]0;L\x07\xff line\n" },
	/* pid 200's comm from its task marker only: the rq explanation shows it */
	{ "comm.txt", "traces/rq_clamp-fail.txt",
	  { { "task pid=200 comm=b ", "task pid=200 comm=" FENCE_NAME " " },
	    { "prev_comm=b ", "" }, { "next_comm=b ", "" }, { "comm=b ", "" } }, NULL },
	/* a cgroup path: the task_effective explanation shows it */
	{ "cgroup.txt", "traces/task_effective-fail.txt",
	  { { "/app", "/a" FENCE_NAME },
	    { "comm=b util_max=300", "comm=b util_max=300 cgroup=/a" FENCE_NAME } }, NULL },
};

/* @s with every @from replaced by @to, to free(). */
static char *replace_all(const char *s, const char *from, const char *to)
{
	size_t nf = strlen(from), nt = strlen(to), n = 0;
	char *out, *o;

	for (const char *p = s; (p = strstr(p, from)); p += nf)
		n++;
	out = o = malloc(strlen(s) + n * nt + 1);
	assert_non_null(out);
	for (const char *p = s, *hit; ; p = hit + nf) {
		hit = strstr(p, from);
		if (!hit) {
			strcpy(o, p);
			break;
		}
		memcpy(o, p, (size_t)(hit - p));
		o += hit - p;
		memcpy(o, to, nt);
		o += nt;
	}
	return out;
}

static void write_name_fixture(const struct scratch *s, const struct name_fixture *fx)
{
	char *text = slurp_file(fx->base, NULL);
	FILE *f;

	assert_non_null(text);
	for (size_t i = 0; i < ARRAY_SIZE(fx->subs) && fx->subs[i].from; i++) {
		char *next = replace_all(text, fx->subs[i].from, fx->subs[i].to);

		if (!strcmp(next, text))
			fail_msg("%s: no '%s' in %s", fx->file, fx->subs[i].from, fx->base);
		free(text);
		text = next;
	}
	f = fopen(path_in(s, fx->file), "w");
	assert_non_null(f);
	fputs(text, f);
	if (fx->extra)
		fputs(fx->extra, f);
	fclose(f);
	free(text);
}

/* Length of the well-formed UTF-8 sequence at @p (Unicode Table 3-7), 0 if none. */
static size_t well_formed(const unsigned char *p, size_t left)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3, lo = p[0] == 0xe0 ? 0xa0 : 0x80, hi = p[0] == 0xed ? 0x9f : 0xbf;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4, lo = p[0] == 0xf0 ? 0x90 : 0x80, hi = p[0] == 0xf4 ? 0x8f : 0xbf;
	else
		return 0;
	if (left < n || p[1] < lo || p[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

/* @text is UTF-8 and holds no control character (C0 but '\n', DEL, C1). */
static bool is_clean(const char *what, const char *text, size_t len)
{
	const unsigned char *p = (const unsigned char *)text;

	for (size_t i = 0; i < len;) {
		size_t n = well_formed(p + i, len - i);

		if (!n) {
			print_error("%s: byte %zu (0x%02x) is not UTF-8\n", what, i, p[i]);
			return false;
		}
		if ((p[i] < 0x20 && p[i] != '\n') || p[i] == 0x7f ||
		    (p[i] == 0xc2 && p[i + 1] < 0xa0)) {
			print_error("%s: control character at byte %zu\n", what, i);
			return false;
		}
		i += n;
	}
	return true;
}

static size_t leading(const char *line, char c)
{
	size_t n = 0;

	while (line[n] == c)
		n++;
	return n;
}

/* Table rows of one width ending in '|', fences closed, no injected heading. */
static bool is_md_intact(const char *what, const char *md)
{
	size_t fence = 0, cols = 0, nr_fenced = 0;

	for (const char *line = md; *line;) {
		size_t len = strcspn(line, "\n"), ticks = leading(line, '`');

		if (fence) {
			if (ticks >= fence && ticks == len)
				fence = 0;
			nr_fenced += !strncmp(line, "# injected", 10);
		} else if (ticks >= 3) {
			fence = ticks;
		} else if (!strncmp(line, "# injected", 10)) {
			print_error("%s: a name made a heading: %.*s\n", what, (int)len, line);
			return false;
		} else if (line[0] == '|') {
			size_t pipes = 0;

			for (size_t i = 0; i < len; i++) {
				if (line[i] == '\\')
					i++;	/* the escaped character is text */
				else
					pipes += line[i] == '|';
			}
			if (line[len - 1] != '|' || (cols && pipes != cols)) {
				print_error("%s: table row broken: %.*s\n", what, (int)len, line);
				return false;
			}
			cols = pipes;
		} else {
			cols = 0;
		}
		line += len + (line[len] == '\n');
	}
	if (fence)
		print_error("%s: a fence of %zu backticks is never closed\n", what, fence);
	else if (nr_fenced != 2)
		print_error("%s: %zu explanations show the fence name, want 2\n", what, nr_fenced);
	return !fence && nr_fenced == 2;
}

/* The JSON parses (RFC 8259 requires UTF-8: python3 reads it strictly). */
static bool is_json(const char *what, const char *path)
{
	char cmd[PATH_MAX + 128];

	if (!have_tool("python3")) {
		printf("# skip: python3 absent, %s not parsed\n", path);
		return true;
	}
	snprintf(cmd, sizeof(cmd), "python3 -m json.tool '%s' > /dev/null", path);
	if (!system(cmd))
		return true;
	print_error("%s: python3 -m json.tool rejects it\n", what);
	return false;
}

enum name_check { NC_TEXT, NC_MD, NC_JSON, NC_XML };

/* What a case checks: the file OUT, what ucval printed, or analyze's --json file. */
enum name_src { NC_OUT, NC_STDOUT, NC_STDERR, NC_JSON_FILE };

struct name_case {
	const char *what;
	const char *args[10];		/* after "ucval", none: check only; DB, OUT, JSON, F0..F2 */
	int status;
	enum name_src checked;
	enum name_check check;
	const char *needle[2];		/* must appear, when not NULL */
};

static const struct name_case name_cases[] = {
	{ "analyze table", { "analyze", "--db", "DB", "--json", "JSON", "F0", "F1", "F2" }, 1,
	  NC_STDOUT, NC_TEXT, { EVIL_FILE_SHOWN ": ftrace-text", "'garbage \\x1b]0;L\\x07\\xff line'" } },
	{ "analyze --json", { NULL }, 0, NC_JSON_FILE, NC_JSON,
	  { "\"path\": \"", "ti-\xef\xbf\xbd\\u001b[2J.txt\"" } },
	{ "analyze diagnostic", { "analyze", "nope-\x1b[2J\xff.txt" }, 2, NC_STDERR, NC_TEXT,
	  { "cannot read 'nope-\\x1b[2J\\xff.txt'" } },
	{ "report text", { "report", "DB", "-o", "OUT" }, 0, NC_OUT, NC_TEXT,
	  { "100 (" EVIL_COMM_SHOWN ")", "/" EVIL_FILE_SHOWN } },
	{ "report md", { "report", "DB", "--format", "md", "-o", "OUT" }, 0, NC_OUT, NC_MD,
	  { "/ti-\\\\xff\\\\x1b\\[2J.txt",
	    "100 (\\\\x1b\\]0;T\\\\x07\\\\x1b\\[2J\\\\xff\\|\\*)" } },
	{ "report json", { "report", "DB", "--format", "json", "-o", "OUT" }, 0, NC_OUT, NC_JSON,
	  { "\"comm\": \"\\u001b]0;T\\u0007\\u001b[2J\xef\xbf\xbd|*\"" } },
	{ "report junit", { "report", "DB", "--format", "junit", "-o", "OUT" }, 0, NC_OUT, NC_XML,
	  { "ti-\xef\xbf\xbd\xef\xbf\xbd[2J.txt" } },
	{ "report html", { "report", "DB", "--format", "html", "-o", "OUT" }, 0, NC_OUT, NC_XML,
	  { "100 (\xef\xbf\xbd]0;T\xef\xbf\xbd\xef\xbf\xbd[2J\xef\xbf\xbd|*)" } },
	{ "report --diff", { "report", "--diff", "DB", "1", "2", "-o", "OUT" }, 0, NC_OUT, NC_TEXT,
	  { "/" EVIL_FILE_SHOWN } },
	{ "report --diff md", { "report", "--diff", "DB", "1", "2", "--format", "md", "-o", "OUT" },
	  0, NC_OUT, NC_TEXT, { "/ti-\\\\xff\\\\x1b\\[2J.txt" } },
	{ "report --diff json", { "report", "--diff", "DB", "1", "2", "--format", "json", "-o",
				   "OUT" }, 0, NC_OUT, NC_JSON, { "ti-\xef\xbf\xbd\\u001b[2J.txt" } },
};

/* Whether the output of case @c passes; what fails is printed. */
static bool is_name_output_ok(const struct name_case *c, const char *path, const char *text,
			      size_t len)
{
	bool is_ok = is_clean(c->what, text, len);

	for (size_t k = 0; k < ARRAY_SIZE(c->needle) && c->needle[k]; k++) {
		if (!strstr(text, c->needle[k])) {
			print_error("%s: no '%s' in:\n%s\n", c->what, c->needle[k], text);
			is_ok = false;
		}
	}
	if (c->check == NC_MD)
		is_ok = is_md_intact(c->what, text) && is_ok;
	else if (c->check == NC_JSON)
		is_ok = is_json(c->what, path) && is_ok;
	else if (c->check == NC_XML)
		check_markup(path);
	return is_ok;
}

/* An argument of a case as ucval gets it. */
static const char *name_arg(const struct scratch *s, const char *a, const char *out)
{
	if (!strcmp(a, "DB"))
		return s->db;
	if (!strcmp(a, "OUT"))
		return out;
	if (!strcmp(a, "JSON"))
		return path_in(s, "analyze.json");
	if (a[0] == 'F' && a[1] >= '0' && a[1] < '0' + (int)ARRAY_SIZE(name_fixtures) && !a[2])
		return path_in(s, name_fixtures[a[1] - '0'].file);
	return a;
}

/* Run case @c, if it runs ucval; the file to check is then @out. */
static void run_name_case(const struct scratch *s, const struct name_case *c, char *out,
			  size_t size)
{
	const char *args[MAX_ARGS] = { NULL };
	struct run r;
	size_t n = 0;

	for (size_t k = 0; k < ARRAY_SIZE(c->args) && c->args[k]; k++)
		args[n++] = name_arg(s, c->args[k], out);
	if (n) {
		run_ucval(args, c->checked == NC_STDOUT ? out : NULL, &r);
		if (r.status != c->status)
			fail_msg("%s: exit %d, want %d: %s", c->what, r.status, c->status, r.err);
	}
	if (c->checked == NC_STDERR) {
		FILE *f = fopen(out, "w");

		assert_non_null(f);
		fputs(r.err, f);
		fclose(f);
	} else if (c->checked == NC_JSON_FILE) {
		snprintf(out, size, "%s", path_in(s, "analyze.json"));
	}
}

/*
 * Comms, file and cgroup paths and skipped lines of any bytes: every output
 * is UTF-8 without a control character, JSON parses, XML is well-formed,
 * and a name cannot close a markdown fence or break a table row.
 */
static void test_names(void **state)
{
	const struct scratch *s = *state;
	size_t nr_bad = 0;

	for (size_t i = 0; i < ARRAY_SIZE(name_fixtures); i++)
		write_name_fixture(s, &name_fixtures[i]);
	for (size_t i = 0; i < ARRAY_SIZE(name_cases); i++) {
		const struct name_case *c = &name_cases[i];
		char out[PATH_MAX];
		size_t len;
		char *text;

		snprintf(out, sizeof(out), "%s/name-%zu.out", s->dir, i);
		run_name_case(s, c, out, sizeof(out));
		text = slurp_file(out, &len);
		assert_non_null(text);
		if (!is_name_output_ok(c, out, text, len)) {
			print_error("case %zu (%s) failed\n", i, c->what);
			nr_bad++;
		}
		free(text);
	}
	if (nr_bad)
		fail_msg("%zu of %zu cases failed", nr_bad, ARRAY_SIZE(name_cases));
}

/* --- a 10-minute trace of 8 CPUs: the HTML stays small --------------------- */

static void test_big_html(void **state)
{
	struct scratch *s = *state;
	const char *out = path_in(s, "big.html");
	const char *args[] = { "report", s->db, "--format", "html", "-o", out, NULL };
	struct run r;
	size_t len;
	char *html;

	make_big_db(s->db);
	run_ucval(args, NULL, &r);
	if (r.status)
		fail_msg("exit %d: %s", r.status, r.err);
	html = slurp_file(out, &len);
	assert_non_null(html);
	printf("# %d freq + %d clamp intervals, %d requests, %d windows: HTML %zu bytes\n",
	       BIG_FREQ_ROWS, BIG_CLAMP_ROWS, BIG_REQUESTS, BIG_WINDOWS, len);
	if (len > HTML_MAX_BYTES)
		fail_msg("HTML of %zu bytes, want at most %d", len, HTML_MAX_BYTES);
	if (count(html, "<figcaption>cpu ") != BIG_CPUS)
		fail_msg("%zu CPU plots, want %d", count(html, "<figcaption>cpu "), BIG_CPUS);
	if (!strstr(html, "the 24 tasks with the most requests of 40"))
		fail_msg("the requests plot does not say it shows 24 tasks of 40");
	free(html);
	check_markup(out);
}

/* --- library pieces, in process -------------------------------------------- */

struct series_case {
	const char *what;
	int64_t iv[4][3];		/* start, end, value; end < start ends the list */
	unsigned int bucket;		/* bucket looked at, of 10 over [0, 100) */
	uint64_t n;
	int64_t lo, hi, last;
};

static const struct series_case series_cases[] = {
	{ "empty bucket", { { 0, 5, 7 }, { 0, -1 } }, 3, 0, 0, 0, 0 },
	{ "one interval over three buckets", { { 5, 35, 7 }, { 0, -1 } }, 2, 1, 7, 7, 7 },
	{ "end is exclusive", { { 5, 30, 7 }, { 0, -1 } }, 3, 0, 0, 0, 0 },
	{ "min, max and last within a bucket", { { 40, 42, 9 }, { 42, 44, 3 }, { 44, 50, 5 },
						 { 0, -1 } }, 4, 3, 3, 9, 5 },
	{ "last by start time, not by arrival", { { 44, 50, 5 }, { 40, 44, 9 }, { 0, -1 } },
	  4, 2, 5, 9, 5 },
	{ "point at a bucket edge", { { 60, 60, 4 }, { 0, -1 } }, 6, 1, 4, 4, 4 },
	{ "before the axis is dropped", { { -20, -10, 4 }, { 0, -1 } }, 0, 0, 0, 0, 0 },
	{ "overlapping the start is clipped", { { -20, 5, 4 }, { 0, -1 } }, 0, 1, 4, 4, 4 },
	{ "after the axis lands in no bucket", { { 101, 120, 4 }, { 0, -1 } }, 9, 0, 0, 0, 0 },
	{ "up to the end", { { 95, 100, 6 }, { 0, -1 } }, 9, 1, 6, 6, 6 },
};

static void test_series(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(series_cases); i++) {
		const struct series_case *c = &series_cases[i];
		struct rep_tseries s;
		const struct rep_bucket *b;

		assert_int_equal(rep_tseries_init(&s, 10, 0, 100), 0);
		for (size_t k = 0; k < 4 && c->iv[k][1] >= c->iv[k][0]; k++)
			rep_tseries_add(&s, c->iv[k][0], c->iv[k][1], c->iv[k][2]);
		b = &s.b[c->bucket];
		if (b->n != c->n || (c->n && (b->lo != c->lo || b->hi != c->hi || b->last != c->last)))
			fail_msg("case %zu (%s): n %llu lo %lld hi %lld last %lld", i, c->what,
				 (unsigned long long)b->n, (long long)b->lo, (long long)b->hi,
				 (long long)b->last);
		rep_tseries_free(&s);
	}
}

struct escape_case {
	const char *what;
	enum rep_style style;
	const char *in;
	const char *want;
};

static const struct escape_case escape_cases[] = {
	{ "xml markup", REP_STYLE_HTML, "a<b>&\"c'", "a&lt;b&gt;&amp;&quot;c&#39;" },
	{ "xml control", REP_STYLE_HTML, "a\x01z\tq", "a\xef\xbf\xbdz\tq" },
	{ "xml utf-8 kept", REP_STYLE_HTML, "caf\xc3\xa9 \xe2\x82\xac", "caf\xc3\xa9 \xe2\x82\xac" },
	{ "xml bad byte", REP_STYLE_HTML, "a\xffz", "a\xef\xbf\xbdz" },
	{ "xml cut sequence", REP_STYLE_HTML, "a\xe2\x82", "a\xef\xbf\xbd\xef\xbf\xbd" },
	{ "xml overlong", REP_STYLE_HTML, "\xc0\xaf", "\xef\xbf\xbd\xef\xbf\xbd" },
	{ "xml surrogate", REP_STYLE_HTML, "\xed\xa0\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd" },
	{ "xml U+FFFE U+FFFF", REP_STYLE_HTML, "a\xef\xbf\xbe\xef\xbf\xbfz",
	  "a\xef\xbf\xbd\xef\xbf\xbdz" },
	{ "xml DEL", REP_STYLE_HTML, "a\x7fz", "a\xef\xbf\xbdz" },
	{ "xml C1 NEL and CSI", REP_STYLE_HTML, "a\xc2\x85\xc2\x9b" "2J",
	  "a\xef\xbf\xbd\xef\xbf\xbd" "2J" },
	{ "xml ESC sequence", REP_STYLE_HTML, "\x1b[2J", "\xef\xbf\xbd[2J" },
	{ "xml U+00A0 kept", REP_STYLE_HTML, "\xc2\xa0", "\xc2\xa0" },
	{ "md table", REP_STYLE_MD, "a|b*c`d", "a\\|b\\*c\\`d" },
	{ "md html", REP_STYLE_MD, "<idle> & x", "&lt;idle&gt; &amp; x" },
	{ "md newline", REP_STYLE_MD, "a\nb", "a\\\\nb" },
	{ "md carriage return", REP_STYLE_MD, "a\r|b", "a\\\\r\\|b" },
	{ "md fence and heading", REP_STYLE_MD, "\n```\n# injected",
	  "\\\\n\\`\\`\\`\\\\n# injected" },
	{ "md ESC", REP_STYLE_MD, "\x1b[2J", "\\\\x1b\\[2J" },
	{ "md bad byte", REP_STYLE_MD, "a\xff", "a\\\\xff" },
	{ "md utf-8 kept", REP_STYLE_MD, "caf\xc3\xa9", "caf\xc3\xa9" },
	{ "text as is", REP_STYLE_TEXT, "<a|b>", "<a|b>" },
	{ "text utf-8 kept", REP_STYLE_TEXT, "caf\xc3\xa9 \xe2\x82\xac", "caf\xc3\xa9 \xe2\x82\xac" },
	{ "text clear screen", REP_STYLE_TEXT, "\x1b[2J", "\\x1b[2J" },
	{ "text window title", REP_STYLE_TEXT, "\x1b]0;pwned\x07", "\\x1b]0;pwned\\x07" },
	{ "text tab newline return", REP_STYLE_TEXT, "a\tb\nc\rd", "a\\tb\\nc\\rd" },
	{ "text DEL", REP_STYLE_TEXT, "a\x7f", "a\\x7f" },
	{ "text C1 CSI", REP_STYLE_TEXT, "\xc2\x9b" "2J", "\\u009b2J" },
	{ "text bad byte", REP_STYLE_TEXT, "app\xff", "app\\xff" },
	{ "text C1 byte alone", REP_STYLE_TEXT, "\x9b" "2J", "\\x9b2J" },
	{ "text overlong", REP_STYLE_TEXT, "\xc0\xaf", "\\xc0\\xaf" },
	{ "text surrogate", REP_STYLE_TEXT, "\xed\xa0\x80", "\\xed\\xa0\\x80" },
	{ "text cut sequence", REP_STYLE_TEXT, "\xe2\x82", "\\xe2\\x82" },
	{ "text backslash", REP_STYLE_TEXT, "\\x1b", "\\\\x1b" },
};

static void test_escape(void **state)
{
	size_t nr_bad = 0;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(escape_cases); i++) {
		const struct escape_case *c = &escape_cases[i];
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);
		struct rep_doc doc = { .out = f, .style = c->style };

		assert_non_null(f);
		rep_doc_escaped(&doc, c->in);
		fclose(f);
		if (strcmp(buf, c->want)) {
			print_error("case %zu (%s): got '%s' want '%s'\n", i, c->what, buf,
				    c->want);
			nr_bad++;
		}
		free(buf);
	}
	if (nr_bad)
		fail_msg("%zu of %zu cases failed", nr_bad, ARRAY_SIZE(escape_cases));
}

/* A block: preformatted text, or a field/value table of two rows. */
struct block_case {
	const char *what;
	enum rep_style style;
	const char *pre;		/* rep_doc_pre()'s text; NULL: the table */
	const char *cells[4];		/* the table, row by row */
	const char *want;
};

static const struct block_case block_cases[] = {
	{ "md fence", REP_STYLE_MD, "MS1   floor util 512\n", { NULL },
	  "```\nMS1   floor util 512\n```\n" },
	{ "md fence closed by a comm", REP_STYLE_MD, "VT2   pid 200 (b\n```\n# x) effective 0\n",
	  { NULL }, "````\nVT2   pid 200 (b\n```\n# x) effective 0\n````\n" },
	{ "md fence longer than any run", REP_STYLE_MD, "group /a````b\n", { NULL },
	  "`````\ngroup /a````b\n`````\n" },
	{ "md fence: ESC and tab escaped", REP_STYLE_MD, "a\x1b[2J\tb", { NULL },
	  "```\na\\x1b[2J\\tb\n```\n" },
	{ "text lines: controls escaped", REP_STYLE_TEXT, "a\x1b]0;t\x07\nb\xff\n", { NULL },
	  "    a\\x1b]0;t\\x07\n    b\\xff\n" },
	{ "md fence of nothing", REP_STYLE_MD, "", { NULL }, "```\n\n```\n" },
	{ "text lines: the last one ended", REP_STYLE_TEXT, "a\n\nb", { NULL },
	  "    a\n    \n    b\n" },
	{ "html pre", REP_STYLE_HTML, "a\x1b\n", { NULL }, "<pre>a\xef\xbf\xbd\n</pre>\n" },
	{ "text table: escaped width", REP_STYLE_TEXT, NULL, { "comm", "\x1b[2J", "x", "y" },
	  "  comm  \\x1b[2J\n  x     y\n" },
	{ "text table: tab", REP_STYLE_TEXT, NULL, { "a\tb", "1", "x", "2" },
	  "  a\\tb  1\n  x     2\n" },
	{ "md table: newline and pipe", REP_STYLE_MD, NULL, { "comm", "b\n|x", "x", "y" },
	  "| field | value |\n|---|---|\n| comm | b\\\\n\\|x |\n| x | y |\n" },
};

/* Blocks whose text is a name: escaped, and a fence no name can close. */
static void test_blocks(void **state)
{
	static const struct rep_col cols[] = { { "field", false }, { "value", false } };
	size_t nr_bad = 0;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(block_cases); i++) {
		const struct block_case *c = &block_cases[i];
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);
		struct rep_doc doc = { .out = f, .style = c->style };
		struct rep_table tab;

		assert_non_null(f);
		if (c->pre) {
			rep_doc_pre(&doc, c->pre);
		} else {
			rep_table_init(&tab, cols, ARRAY_SIZE(cols));
			tab.is_kv = true;
			for (size_t k = 0; k < ARRAY_SIZE(c->cells); k++)
				rep_table_cell(&tab, "%s", c->cells[k]);
			assert_int_equal(rep_doc_table(&doc, &tab), 0);
			rep_table_free(&tab);
		}
		fclose(f);
		if (strcmp(buf, c->want)) {
			print_error("case %zu (%s): got\n%swant\n%s", i, c->what, buf, c->want);
			nr_bad++;
		}
		free(buf);
	}
	if (nr_bad)
		fail_msg("%zu of %zu cases failed", nr_bad, ARRAY_SIZE(block_cases));
}

struct fmt_case {
	const char *what;
	int kind;			/* 0 rel_s, 1 ms, 2 task */
	int64_t a, b;
	const char *comm;
	const char *want;
};

static const struct fmt_case fmt_cases[] = {
	{ "start", 0, 20006000000LL, 20000000000LL, NULL, "0.006000" },
	{ "before the start", 0, 1000, 1500001000, NULL, "-1.500000" },
	{ "truncated to the us", 0, 1999, 0, NULL, "0.000001" },
	{ "duration", 1, 1234567, 0, NULL, "1.234" },
	{ "long duration", 1, 600000000000LL, 0, NULL, "600000.000" },
	{ "no task", 2, -1, 0, "x", "-" },
	{ "task with comm", 2, 42, 0, "sh", "42 (sh)" },
	{ "task without comm", 2, 42, 0, NULL, "42" },
};

static void test_fmt(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(fmt_cases); i++) {
		const struct fmt_case *c = &fmt_cases[i];
		char buf[REP_FMT_LEN];
		const char *got = c->kind == 0 ? rep_fmt_rel_s(buf, c->a, c->b) :
				  c->kind == 1 ? rep_fmt_ms(buf, c->a) :
				  rep_fmt_task(buf, (int)c->a, c->comm);

		if (strcmp(got, c->want))
			fail_msg("case %zu (%s): got '%s' want '%s'", i, c->what, got, c->want);
	}
}

/* Hidden files in @dir: a temporary report file left behind. */
static size_t stray_files(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		n += e->d_name[0] == '.' && strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

/* An aborted report leaves the old file; a committed one replaces it whole. */
static void test_outfile(void **state)
{
	const struct scratch *s = *state;
	const char *target = path_in(s, "report.txt");
	struct rep_outfile o;
	struct an_diag d;
	struct stat sb;
	mode_t mask = umask(0);
	char *text;
	FILE *f;

	umask(mask);
	an_diag_clear(&d);
	f = fopen(target, "w");
	assert_non_null(f);
	fputs("old\n", f);
	fclose(f);
	assert_int_equal(rep_outfile_open(&o, target, &d), 0);
	fputs("half a rep", o.fp);
	rep_outfile_abort(&o);
	text = slurp_file(target, NULL);
	assert_string_equal(text, "old\n");
	free(text);
	assert_int_equal(stray_files(s->dir), 0);
	assert_int_equal(rep_outfile_open(&o, target, &d), 0);
	fputs("new report\n", o.fp);
	assert_int_equal(rep_outfile_commit(&o, &d), 0);
	text = slurp_file(target, NULL);
	assert_string_equal(text, "new report\n");
	free(text);
	assert_int_equal(stray_files(s->dir), 0);
	assert_int_equal(stat(target, &sb), 0);
	assert_int_equal(sb.st_mode & 0777, 0666 & ~mask);
	assert_int_not_equal(rep_outfile_open(&o, "/nonexistent/dir/r.txt", &d), 0);
	assert_non_null(strstr(d.message, "cannot create a temporary file"));
}

/* What a target kind must stay after a report is written through it. */
enum target_kind { T_NEW, T_REGULAR_0600, T_SYMLINK, T_DANGLING, T_DEVICE_LINK, T_FIFO };

static void make_target(const struct scratch *s, enum target_kind k, const char *t)
{
	FILE *f;

	switch (k) {
	case T_NEW:
		break;
	case T_REGULAR_0600:
		f = fopen(t, "w");
		assert_non_null(f);
		fputs("old\n", f);
		fclose(f);
		assert_int_equal(chmod(t, 0600), 0);
		break;
	case T_SYMLINK:
		f = fopen(path_in(s, "link-target"), "w");
		assert_non_null(f);
		fclose(f);
		/* fall through */
	case T_DANGLING:
		assert_int_equal(symlink("link-target", t), 0);
		break;
	case T_DEVICE_LINK:
		assert_int_equal(symlink("/dev/null", t), 0);
		break;
	case T_FIFO:
		assert_int_equal(mkfifo(t, 0600), 0);
		break;
	}
}

/* The FIFO's reader: a child that copies what it reads to @copy. */
static pid_t fifo_reader(const char *fifo, const char *copy)
{
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (!pid) {
		char buf[4096];
		int in = open(fifo, O_RDONLY), out = open(copy, O_WRONLY | O_CREAT, 0600);
		ssize_t n;

		while (in >= 0 && out >= 0 && (n = read(in, buf, sizeof(buf))) > 0)
			if (write(out, buf, (size_t)n) != n)
				_exit(1);
		_exit(in < 0 || out < 0);
	}
	return pid;
}

/*
 * An output never replaces the node at its path: a regular file keeps its
 * mode, a symlink stays a link to the new content, a device or a FIFO is
 * written in place (mknod's device is /dev/null here, through a link).
 */
static void test_outfile_targets(void **state)
{
	static const struct target_case {
		const char *what;
		enum target_kind kind;
		mode_t want_type;		/* what the path is afterwards (lstat) */
		unsigned int want_mode;		/* 0: not checked */
		const char *content_at;		/* where the report lands, NULL: nowhere */
	} cases[] = {
		{ "new file", T_NEW, S_IFREG, 0, "target" },
		{ "regular 0600", T_REGULAR_0600, S_IFREG, 0600, "target" },
		{ "symlink", T_SYMLINK, S_IFLNK, 0, "link-target" },
		{ "dangling symlink", T_DANGLING, S_IFLNK, 0, "link-target" },
		{ "link to a device", T_DEVICE_LINK, S_IFLNK, 0, NULL },
		{ "FIFO", T_FIFO, S_IFIFO, 0600, "fifo-copy" },
	};
	const struct scratch *s = *state;

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct target_case *c = &cases[i];
		char t[256], cmd[600];
		struct rep_outfile o;
		struct an_diag d;
		struct stat sb;
		pid_t reader = -1;
		char *text;
		int st;

		snprintf(t, sizeof(t), "%s", path_in(s, "target"));
		make_target(s, c->kind, t);
		if (c->kind == T_FIFO)
			reader = fifo_reader(t, path_in(s, "fifo-copy"));
		an_diag_clear(&d);
		assert_int_equal(rep_outfile_open(&o, t, &d), 0);
		fputs("new report\n", o.fp);
		assert_int_equal(rep_outfile_commit(&o, &d), 0);
		if (reader > 0) {
			/* a FIFO replaced by a file leaves its reader waiting: 5 s, then fail */
			for (int ms = 0; ms < 5000 && !waitpid(reader, &st, WNOHANG); ms += 10)
				usleep(10000);
			if (kill(reader, SIGKILL) == 0 && waitpid(reader, &st, 0) == reader &&
			    WIFSIGNALED(st))
				fail_msg("case %zu (%s): the FIFO's reader got no writer", i, c->what);
			assert_int_equal(st, 0);
		}
		assert_int_equal(lstat(t, &sb), 0);
		if ((sb.st_mode & S_IFMT) != c->want_type)
			fail_msg("case %zu (%s): type %o, want %o", i, c->what,
				 sb.st_mode & S_IFMT, c->want_type);
		if (c->want_mode && (sb.st_mode & 07777) != c->want_mode)
			fail_msg("case %zu (%s): mode %o, want %o", i, c->what,
				 sb.st_mode & 07777, c->want_mode);
		if (c->content_at) {
			text = slurp_file(path_in(s, c->content_at), NULL);
			assert_non_null(text);
			assert_string_equal(text, "new report\n");
			free(text);
		}
		assert_int_equal(stat("/dev/null", &sb), 0);
		assert_true(S_ISCHR(sb.st_mode));
		snprintf(cmd, sizeof(cmd), "rm -f '%s' '%s' '%s'", t, path_in(s, "link-target"),
			 path_in(s, "fifo-copy"));
		assert_int_equal(system(cmd), 0);
	}
	assert_int_equal(stray_files(s->dir), 0);
}

/* `report DB -o DB`: refused before anything is read or written. */
static void test_output_is_input(void **state)
{
	const struct scratch *s = *state;
	const char *run_args[] = { "analyze", "-q", "--db", s->db, "traces/rq_clamp-fail.txt",
				   NULL };
	const char *args[] = { "report", s->db, "-o", s->db, NULL };
	struct stat before, after;
	struct run r;

	run_ucval(run_args, NULL, &r);
	assert_int_equal(r.status, 1);
	assert_int_equal(stat(s->db, &before), 0);
	run_ucval(args, NULL, &r);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "is the database itself"));
	assert_int_equal(stat(s->db, &after), 0);
	assert_int_equal(before.st_ino, after.st_ino);
	assert_int_equal(before.st_size, after.st_size);
}

/*
 * A database in a directory its reader may not write (WAL needs a -shm file
 * beside it): `report` reads it all the same. Run as nobody, so root only.
 */
static void test_readonly_dir(void **state)
{
	const struct scratch *s = *state;
	const char *run_args[] = { "analyze", "-q", "--db", s->db, "traces/rq_clamp-fail.txt",
				   NULL };
	char bin_dir[] = "/tmp/ucval-ro-XXXXXX", cmd[1024];
	struct run r;
	int st;

	if (geteuid()) {
		printf("# skip: needs root to run ucval report as another user\n");
		skip();
	}
	run_ucval(run_args, NULL, &r);
	assert_int_equal(r.status, 1);
	assert_non_null(mkdtemp(bin_dir));
	assert_int_equal(chmod(bin_dir, 0755), 0);
	assert_int_equal(chmod(s->dir, 0755), 0);	/* readable, not writable, by nobody */
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s/ucval' && setpriv --reuid=65534 --regid=65534"
		 " --clear-groups '%s/ucval' report '%s' > '%s/out.txt' 2>&1", getenv("UCVAL"),
		 bin_dir, bin_dir, s->db, bin_dir);
	st = system(cmd);
	snprintf(cmd, sizeof(cmd), "cat '%s/out.txt'; rm -rf '%s'", bin_dir, bin_dir);
	if (st) {
		assert_int_equal(system(cmd), 0);
		fail_msg("ucval report as nobody: status 0x%x", st);
	}
	assert_int_equal(system(cmd), 0);
	assert_int_equal(access(path_in(s, "r.db-shm"), F_OK), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_series),
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_blocks),
		cmocka_unit_test(test_fmt),
		cmocka_unit_test_setup_teardown(test_outfile, scratch_setup, scratch_teardown),
		cmocka_unit_test_setup_teardown(test_outfile_targets, scratch_setup,
						scratch_teardown),
		cmocka_unit_test_setup_teardown(test_output_is_input, scratch_setup,
						scratch_teardown),
		cmocka_unit_test_setup_teardown(test_readonly_dir, scratch_setup,
						scratch_teardown),
		cmocka_unit_test_setup_teardown(test_golden, scratch_setup, scratch_teardown),
		cmocka_unit_test_setup_teardown(test_machine_formats, scratch_setup,
						scratch_teardown),
		cmocka_unit_test_setup_teardown(test_errors, scratch_setup, scratch_teardown),
		cmocka_unit_test_setup_teardown(test_v2_golden, scratch_setup, scratch_teardown),
		cmocka_unit_test_setup_teardown(test_v2_html, scratch_setup, scratch_teardown),
		cmocka_unit_test_setup_teardown(test_schema1, scratch_setup, scratch_teardown),
		cmocka_unit_test_setup_teardown(test_big_html, scratch_setup, scratch_teardown),
		cmocka_unit_test_setup_teardown(test_names, scratch_setup, scratch_teardown),
	};

	if (!getenv("UCVAL")) {
		fprintf(stderr, "test_rep_report: UCVAL (path of the ucval binary) is not set\n");
		return 1;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
