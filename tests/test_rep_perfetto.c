// SPDX-License-Identifier: MIT
/*
 * `ucval report --format perfetto` (reports/perfetto.c): fixtures analyzed
 * into a temporary database, reported as Perfetto traces, decoded with
 * protoc against proto/perfetto.proto: their events as ftrace bundles (read
 * back by `ucval analyze`, the same verdicts), a
 * track per check, a slice per mismatch window with its annotations,
 * overlapping windows on lanes of their own, the undecided windows, the
 * frequency counters. A Perfetto input (built by hand in the database, and
 * one analyzed by the Perfetto reader) is copied byte for byte before the
 * findings. A changed or missing trace,
 * -o naming the trace and several traces without --trace exit 2 and write
 * nothing. Skipped without protoc.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sqlite3.h>

#include "analyze/store/db.h"
#include "lib/sha256.h"

#define PROTO		"proto/perfetto.proto"
#define CMD_LEN		4096

struct scratch {
	char dir[64];
};

static char *in_dir(const struct scratch *s, const char *name)
{
	static char buf[8][512];
	static int next;
	char *p = buf[next++ % 8];

	snprintf(p, sizeof(buf[0]), "%s/%s", s->dir, name);
	return p;
}

/* Run a shell command; its exit status. */
static int sh(const char *fmt, ...)
{
	char cmd[CMD_LEN];
	va_list ap;
	int st;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	st = system(cmd);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

static const char *ucval(void)
{
	const char *bin = getenv("UCVAL");

	assert_non_null(bin);
	return bin;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	if (len)
		*len = (size_t)n;
	return buf;
}

/* The protoc text of Perfetto trace @path, malloc'd. */
static char *decode(const struct scratch *s, const char *path)
{
	const char *txt = in_dir(s, "decoded.txt");

	assert_int_equal(sh("protoc --decode=ucval.perfetto.Trace --proto_path=. " PROTO
			    " < '%s' > '%s'", path, txt), 0);
	return slurp(txt, NULL);
}

static size_t count(const char *text, const char *what)
{
	size_t n = 0;

	for (const char *p = text; (p = strstr(p, what)); p += strlen(what))
		n++;
	return n;
}

static void expect_in(const char *text, const char *what)
{
	if (!strstr(text, what))
		fail_msg("the decoded trace has no '%s'", what);
}

static int setup(void **state)
{
	struct scratch *s = calloc(1, sizeof(*s));

	assert_non_null(s);
	snprintf(s->dir, sizeof(s->dir), "/tmp/ucval-pfrep-XXXXXX");
	assert_non_null(mkdtemp(s->dir));
	*state = s;
	return 0;
}

static int teardown(void **state)
{
	struct scratch *s = *state;

	sh("rm -rf '%s'", s->dir);
	free(s);
	return 0;
}

static void need_protoc(void)
{
	if (sh("command -v protoc >/dev/null 2>&1") || access(PROTO, R_OK)) {
		print_message("protoc or " PROTO " not found: skipped\n");
		skip();
	}
}

/* Copy fixture @name into the scratch directory and analyze it into db. */
static const char *analyze_fixture(const struct scratch *s, const char *name)
{
	const char *copy = in_dir(s, name);
	int st;

	assert_int_equal(sh("cp traces/%s '%s'", name, copy), 0);
	st = sh("'%s' analyze -q --db '%s' '%s' >/dev/null 2>&1", ucval(), in_dir(s, "r.db"),
		copy);
	assert_true(st == 0 || st == 1);
	return copy;
}

static int report(const struct scratch *s, const char *trace, const char *out)
{
	return sh("'%s' report '%s' --format perfetto %s%s%s -o '%s' 2>'%s'", ucval(),
		  in_dir(s, "r.db"), trace ? "--trace '" : "", trace ? trace : "",
		  trace ? "'" : "", out, in_dir(s, "err.txt"));
}

static void test_rq_clamp(void **state)
{
	struct scratch *s = *state;
	char out[512], *text;

	need_protoc();
	snprintf(out, sizeof(out), "%s", in_dir(s, "rq.pftrace"));
	analyze_fixture(s, "rq_clamp-fail.txt");
	assert_int_equal(report(s, NULL, out), 0);
	text = decode(s, out);
	/* the events, typed */
	expect_in(text, "ftrace_events {");
	expect_in(text, "sched_switch {");
	expect_in(text, "trusted_packet_sequence_id: 1\n");
	/* the findings' sequence, its state cleared once */
	assert_int_equal(count(text, "sequence_flags: 1\n"), 1);
	expect_in(text, "trusted_packet_sequence_id: 1969452641\n  sequence_flags: 1\n"
		  "  track_descriptor {\n    uuid: 8458734684115828736\n    name: \"ucval\"");
	expect_in(text, "name: \"rq_clamp\"\n    parent_uuid: 8458734684115828736\n"
		  "    description: \"FAIL: 2 of 6 decisions failed, 0 undecided, 2 mismatch windows\"");
	expect_in(text, "name: \"cpu 1\"");
	/* the two windows: begin with annotations, end */
	assert_int_equal(count(text, "type: TYPE_SLICE_BEGIN"), 2);
	assert_int_equal(count(text, "type: TYPE_SLICE_END"), 2);
	expect_in(text, "timestamp: 10003050000\n  trusted_packet_sequence_id: 1969452641\n"
		  "  track_event {\n");
	expect_in(text, "int_value: 256\n      name: \"expected\"");
	expect_in(text, "int_value: 0\n      name: \"observed\"");
	expect_in(text, "string_value: \"VR4\"\n      name: \"rule\"");
	expect_in(text, "string_value: \"rq uclamp_min of cpu 1: kernel 0, model 256\"\n"
		  "      name: \"message\"");
	expect_in(text, "string_value: \"VR4   rq min after an enqueue      256\\n");
	expect_in(text, "name: \"explanation\"");
	expect_in(text, "name: \"rq_clamp VR4\"");
	expect_in(text, "name: \"rq_clamp VR11\"");
	expect_in(text, "timestamp: 10004100000\n  trusted_packet_sequence_id: 1969452641\n"
		  "  track_event {\n    type: TYPE_SLICE_END");
	free(text);
	/* read back, the events give the verdicts the text gave */
	assert_int_equal(sh("for f in '%s' '%s'; do '%s' analyze \"$f\" | grep -E "
			    "'^  [a-z_]+ +(PASS|FAIL|UNDECIDED) ' > \"$f.verdicts\"; done; "
			    "test -s '%s.verdicts' && cmp -s '%s.verdicts' '%s.verdicts'",
			    in_dir(s, "rq_clamp-fail.txt"), out, ucval(),
			    in_dir(s, "rq_clamp-fail.txt"), in_dir(s, "rq_clamp-fail.txt"), out), 0);
}

static void test_counters(void **state)
{
	struct scratch *s = *state;
	char out[512], *text;

	need_protoc();
	snprintf(out, sizeof(out), "%s", in_dir(s, "fp.pftrace"));
	analyze_fixture(s, "freq_prediction-fail.txt");
	assert_int_equal(report(s, NULL, out), 0);
	text = decode(s, out);
	expect_in(text, "cpu_frequency {\n        state: 500000\n        cpu_id: 0\n");
	expect_in(text, "name: \"cpufreq policy 0\"");
	for (const char *const *n = (const char *const[]){ "observed", "expected", "floor",
							 "ceiling", NULL }; *n; n++) {
		char want[128];

		snprintf(want, sizeof(want), "name: \"policy 0 %s\"", *n);
		expect_in(text, want);
	}
	expect_in(text, "counter {\n      unit_name: \"kHz\"\n    }");
	/* observed from the first interval, expected from the second (the db's rows) */
	expect_in(text, "timestamp: 60001000000\n  trusted_packet_sequence_id: 1969452641\n"
		  "  track_event {\n    type: TYPE_COUNTER\n    track_uuid: ");
	expect_in(text, "counter_value: 500000\n");
	expect_in(text, "counter_value: 1000000\n");
	expect_in(text, "counter_value: 2000000\n");
	assert_true(count(text, "type: TYPE_SLICE_BEGIN") >= 1);
	expect_in(text, "name: \"freq_prediction");
	free(text);
}

/* Two traces, no --trace; -o the trace; the trace changed; the trace gone. */
static void test_refusals(void **state)
{
	struct scratch *s = *state;
	char out[512], a[512], *err;

	/* in_dir() strings are reused: keep these two */
	snprintf(out, sizeof(out), "%s", in_dir(s, "no.pftrace"));
	snprintf(a, sizeof(a), "%s", analyze_fixture(s, "rq_clamp-fail.txt"));

	analyze_fixture(s, "freq_prediction-fail.txt");
	assert_int_equal(report(s, NULL, out), 2);
	err = slurp(in_dir(s, "err.txt"), NULL);
	expect_in(err, "choose one with --trace");
	free(err);
	assert_int_equal(report(s, a, a), 2);
	assert_int_equal(sh("cmp -s '%s' traces/rq_clamp-fail.txt", a), 0);

	assert_int_equal(sh("echo '# one more line' >> '%s'", a), 0);
	assert_int_equal(report(s, a, out), 2);
	err = slurp(in_dir(s, "err.txt"), NULL);
	expect_in(err, "not the trace analyzed");
	free(err);
	assert_int_not_equal(access(out, F_OK), 0);

	assert_int_equal(unlink(a), 0);
	assert_int_equal(report(s, a, out), 2);
	err = slurp(in_dir(s, "err.txt"), NULL);
	expect_in(err, "no such file");
	free(err);
	assert_int_not_equal(access(out, F_OK), 0);
}

static void window(struct an_db *db, const char *check, int cpu, int64_t s, int64_t e,
		   bool is_fail)
{
	struct an_db_window w = { check, cpu, 100, s, e, 10, 20, NULL, NULL, "X1",
				  "made by hand", NULL };
	struct an_diag d;

	an_diag_clear(&d);
	if (is_fail)
		assert_int_equal(an_db_mismatch_add(db, &w, &d), 0);
	else
		assert_int_equal(an_db_undecided_add(db, &w, &d), 0);
}

/* A database of one Perfetto trace: overlapping windows, an undecided one. */
static void make_db(const char *db_path, const char *trace, const char *sha)
{
	struct an_db_trace t = {
		.path = trace, .format = "perfetto", .sha256 = sha, .n_events = 1,
		.t_start_ns = 1000, .t_end_ns = 9000, .model = "mainline", .options = "",
		.analyzed_at = "2026-01-01T00:00:00Z",
	};
	static const struct an_db_verdict v = { "rq_clamp", "FAIL", 3, 3, 1, NULL };
	struct an_diag d;
	struct an_db *db;
	sqlite3 *c;
	int64_t id;

	an_diag_clear(&d);
	assert_int_equal(an_db_open(&db, db_path, &d), 0);
	assert_int_equal(an_db_trace_begin(db, &t, &id, &d), 0);
	assert_int_equal(an_db_verdict_add(db, &v, &d), 0);
	window(db, "rq_clamp", 0, 2000, 5000, true);
	window(db, "rq_clamp", 0, 3000, 4000, true);	/* overlaps: a second lane */
	window(db, "rq_clamp", 0, 5000, 6000, true);	/* after the first: its lane */
	window(db, "rq_clamp", 1, 7000, 7500, false);
	assert_int_equal(an_db_trace_commit(db, &d), 0);
	an_db_close(db);
	/* one chunk of policy 0: [1000, 2000) 300 MHz, [2000, 4000) 600 MHz */
	assert_int_equal(sqlite3_open(db_path, &c), SQLITE_OK);
	assert_int_equal(sqlite3_exec(c, "INSERT INTO freq_interval_chunks(trace_id, policy, cpu,"
				      " ts_first_ns, ts_last_ns, n, intervals) VALUES(1, 0, 0, 1000,"
				      " 4000, 2, '[[0,1000,300000,null,null,null,null],"
				      "[1000,3000,600000,600000,100000,900000,1]]')",
				      NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(c);
}

static void test_perfetto_input(void **state)
{
	struct scratch *s = *state;
	char in[512], out[512];
	char sha[AN_SHA256_HEX_LEN + 1], *a, *b, *text;
	size_t a_len, b_len;
	struct an_diag d;

	need_protoc();
	snprintf(in, sizeof(in), "%s", in_dir(s, "in.pftrace"));
	snprintf(out, sizeof(out), "%s", in_dir(s, "out.pftrace"));
	assert_int_equal(sh("'%s' synth -q --events 500 -o '%s'", ucval(), in), 0);
	an_diag_clear(&d);
	assert_int_equal(an_sha256_file(in, sha, &d), 0);
	make_db(in_dir(s, "r.db"), in, sha);
	assert_int_equal(report(s, NULL, out), 0);
	a = slurp(in, &a_len);
	b = slurp(out, &b_len);
	assert_true(b_len > a_len);
	assert_memory_equal(a, b, a_len);	/* the capture as it was */
	text = decode(s, out);
	assert_int_equal(count(text, "type: TYPE_SLICE_BEGIN"), 4);
	expect_in(text, "name: \"cpu 0\"");
	expect_in(text, "name: \"cpu 0 #2\"");
	assert_int_equal(count(text, "name: \"cpu 0"), 2);
	expect_in(text, "name: \"undecided\"");
	expect_in(text, "name: \"rq_clamp cpu 1\"");
	expect_in(text, "int_value: 10\n      name: \"expected\"");
	expect_in(text, "int_value: 20\n      name: \"observed\"");
	expect_in(text, "int_value: 100\n      name: \"pid\"");
	/* observed: 300000 at 1000, 600000 at 2000, none (0) from 4000 */
	expect_in(text, "timestamp: 1000\n");
	expect_in(text, "counter_value: 300000\n");
	expect_in(text, "counter_value: 600000\n");
	expect_in(text, "counter_value: 100000\n");
	expect_in(text, "counter_value: 900000\n");
	expect_in(text, "timestamp: 4000\n");
	free(text);
	free(a);
	free(b);
}

/* A Perfetto trace analyzed by ucval's reader: copied, findings appended. */
static void test_analyzed_pftrace(void **state)
{
	struct scratch *s = *state;
	char in[512], out[512], *a, *b, *text;
	size_t a_len, b_len;
	int st;

	need_protoc();
	snprintf(in, sizeof(in), "%s", in_dir(s, "bad.pftrace"));
	snprintf(out, sizeof(out), "%s", in_dir(s, "bad-findings.pftrace"));
	assert_int_equal(sh("'%s' synth -q --events 8000 --seed 3 --fault sugov-ignores-min"
			    " -o '%s'", ucval(), in), 0);
	st = sh("'%s' analyze -q --db '%s' '%s' >/dev/null 2>&1", ucval(), in_dir(s, "r.db"), in);
	if (st != 1)
		fail_msg("ucval analyze of a Perfetto trace: exit %d, expected 1 (FAIL)", st);
	assert_int_equal(report(s, NULL, out), 0);
	a = slurp(in, &a_len);
	b = slurp(out, &b_len);
	assert_true(b_len > a_len);
	assert_memory_equal(a, b, a_len);
	text = decode(s, out);
	expect_in(text, "name: \"freq_below_min_clamp MS1\"");
	expect_in(text, "name: \"policy 0 observed\"");
	expect_in(text, "name: \"policy 0 floor\"");
	free(text);
	free(a);
	free(b);
	/* the findings are packets a reader of the events skips */
	assert_int_equal(sh("for f in '%s' '%s'; do '%s' analyze \"$f\" | grep -E "
			    "'^  [a-z_]+ +(PASS|FAIL|UNDECIDED) ' > \"$f.verdicts\"; done; "
			    "test -s '%s.verdicts' && cmp -s '%s.verdicts' '%s.verdicts'",
			    in, out, ucval(), in, in, out), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_rq_clamp, setup, teardown),
		cmocka_unit_test_setup_teardown(test_counters, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refusals, setup, teardown),
		cmocka_unit_test_setup_teardown(test_perfetto_input, setup, teardown),
		cmocka_unit_test_setup_teardown(test_analyzed_pftrace, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
