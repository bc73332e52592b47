// SPDX-License-Identifier: MIT
/*
 * Fleet reports as a user meets them: synthetic traces of a clean and a
 * faulty build (ucval synth, several seeds), analyzed with --tag into two
 * shards, merged, then `report --group-by build` and `report --compare
 * build=clean,faulty`: the rates, intervals and p-values of hand-computed
 * values, the verdict and exit status, and every usage error (exit 2).
 * Runs the built binary ($UCVAL).
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/an_testutil.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define MAX_ARGS	32
#define OUT_MAX		(64 * 1024)
/* Seeds per build: 4 failed of 4 against 0 of 4 gives Fisher p = 2/70. */
#define SEEDS		4

static char dir[] = "/tmp/ucval-fleet-XXXXXX";
static char db[96];

struct run {
	int status;
	char out[OUT_MAX];
	char err[OUT_MAX];
};

static void run_ucval(const char *const *args, struct run *r)
{
	r->status = an_test_run_ucval(args, NULL, r->out, sizeof(r->out), r->err, sizeof(r->err));
}

/* SEEDS traces of one build into the shard @shard, tagged build=@build. */
static void build_shard(const char *build, const char *fault, const char *shard)
{
	static struct run r;
	char trace[SEEDS][96], seed[16];
	const char *analyze[MAX_ARGS + 1] = { "analyze", "-q", "--db", shard, "--tag", NULL };
	char tag[64];
	size_t n = 5;

	snprintf(tag, sizeof(tag), "build=%s", build);
	analyze[n++] = tag;
	for (int s = 0; s < SEEDS; s++) {
		const char *synth[] = { "synth", "-q", "-o", trace[s], "--seed", seed, "--events",
					"2000", fault ? "--fault" : NULL, fault, NULL };

		snprintf(trace[s], sizeof(trace[s]), "%s/%s%d.txt", dir, build, s + 1);
		snprintf(seed, sizeof(seed), "%d", s + 1);
		run_ucval(synth, &r);
		assert_int_equal(r.status, 0);
		analyze[n++] = trace[s];
	}
	analyze[n] = NULL;
	run_ucval(analyze, &r);
	assert_int_equal(r.status, fault ? 1 : 0);
}

static int setup(void **state)
{
	static struct run r;
	char clean[96], faulty[96], other[96];
	const char *merge[] = { "merge", "-q", db, clean, faulty, other, NULL };
	const char *lone[] = { "analyze", "-q", "--db", other, "traces/rq_clamp-pass.txt", NULL };

	(void)state;
	if (!mkdtemp(dir))
		return -1;
	snprintf(db, sizeof(db), "%s/fleet.db", dir);
	snprintf(clean, sizeof(clean), "%s/clean.db", dir);
	snprintf(faulty, sizeof(faulty), "%s/faulty.db", dir);
	snprintf(other, sizeof(other), "%s/other.db", dir);
	build_shard("clean", NULL, clean);
	build_shard("faulty", "rq-max-stale", faulty);
	run_ucval(lone, &r);		/* a trace without label build */
	run_ucval(merge, &r);
	return r.status;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) ? -1 : 0;
}

/* One report a row: its exit status and what its stdout must say. */
struct fleet_case {
	const char *what;
	const char *args[8];		/* after "report", before DB */
	int status;
	const char *out_has[4];
};

static const struct fleet_case fleet_cases[] = {
	{ "group-by json", { "--group-by", "build", "--format", "json" }, 0,
	  { "\"n_unlabelled\": 1",
	    /* Wilson 4/4 and 0/4 at 95 %: 0.510109..1, 0..0.489891 */
	    "{\"check_id\": \"rq_clamp\", \"n_fail\": 4, \"n_pass\": 0, \"n_undecided\": 0, "
	    "\"fail_rate\": 1.000000, \"ci95_lo\": 0.510109, \"ci95_hi\": 1.000000",
	    "{\"check_id\": \"rq_clamp\", \"n_fail\": 0, \"n_pass\": 4, \"n_undecided\": 0, "
	    "\"fail_rate\": 0.000000, \"ci95_lo\": 0.000000, \"ci95_hi\": 0.489891",
	    "\"rule\": \"MR4\"" } },
	{ "group-by text", { "--group-by", "build" }, 0,
	  { "-- build=faulty: 4 traces", "rq_clamp                   4     4        4        "
	    "100.0  51.0..100.0", "Rules that fail most:", "Longest windows:" } },
	{ "group-by md", { "--group-by", "build", "--format", "md" }, 0,
	  { "### build=clean: 4 traces", "| rq_clamp | 4 | 0 | 4 | 0.0 | 0.0..49.0 | 0 | 0.00 |" } },
	/* Fisher 0 4 / 4 0: p = 2/70; Newcombe 4/4 - 0/4 from 0.2 (python3: 30.72 pp) */
	{ "compare worse", { "--compare", "build=clean,faulty" }, 1,
	  { "+30.7..+100.0", "0.02857  worse", "no evidence" } },
	{ "compare better", { "--compare", "build=faulty,clean" }, 0,
	  { "-100.0..-30.7", "0.02857  better" } },
	{ "compare alpha", { "--compare", "build=clean,faulty", "--alpha", "0.01" }, 0,
	  { "+11.8..+100.0", "0.02857  no evidence", "at 99 %" } },
	{ "compare json", { "--compare", "build=clean,faulty", "--format", "json" }, 1,
	  { "\"check_id\": \"rq_clamp\", \"n_fail_a\": 0, \"n_decided_a\": 4, \"n_fail_b\": 4, "
	    "\"n_decided_b\": 4", "\"p\": 0.028571, \"verdict\": \"worse\"" } },
	{ "group-by html", { "--group-by", "build", "--format", "html" }, 0,
	  { "<!DOCTYPE html>", "<h3>build=faulty: 4 traces", "<td>MR4</td>", "</html>" } },
	{ "compare html", { "--compare", "build=clean,faulty", "--format", "html" }, 1,
	  { "<td>worse</td>", "<td class=\"num\">0.02857</td>", "</html>" } },
	{ "compare junit", { "--compare", "build=clean,faulty", "--format", "junit" }, 1,
	  { "<testcase classname=\"build=faulty\" name=\"rq_clamp\">",
	    "<failure message=\"worse: 4 of 4 traces failed against 0 of 4 (clean), Fisher p = "
	    "0.02857 &lt; 0.05\" type=\"worse\"/>",
	    "<testcase classname=\"build=faulty\" name=\"task_effective\"/>",
	    "tests=\"8\" failures=\"1\"" } },
	{ "by kernel", { "--group-by", "kernel", "--format", "json" }, 0,
	  /* synth says its release; the fixture of the lone trace does not */
	  { "\"group_by\": \"kernel\"", "\"n_unlabelled\": 1", "\"n_traces\": 8" } },
};

static void test_fleet_reports(void **state)
{
	static struct run r;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(fleet_cases); i++) {
		const struct fleet_case *c = &fleet_cases[i];
		const char *args[MAX_ARGS + 1] = { "report" };
		size_t n = 1;

		for (size_t k = 0; c->args[k]; k++)
			args[n++] = c->args[k];
		args[n++] = db;
		run_ucval(args, &r);
		if (r.status != c->status)
			fail_msg("case %zu (%s): exit %d, want %d:\n%s", i, c->what, r.status,
				 c->status, r.err);
		for (size_t k = 0; k < ARRAY_SIZE(c->out_has) && c->out_has[k]; k++)
			if (!strstr(r.out, c->out_has[k]))
				fail_msg("case %zu (%s): stdout lacks '%s':\n%s", i, c->what,
					 c->out_has[k], r.out);
	}
}

/* Each a usage error: exit 2, the reason on stderr, nothing on stdout. */
struct error_case {
	const char *args[8];
	const char *err_has;
};

static const struct error_case error_cases[] = {
	{ { "--group-by", "build", "--format", "perfetto", "-o", "/dev/null" },
	  "--group-by writes text, md, html or json (junit: --compare only), not perfetto" },
	{ { "--group-by", "build", "--format", "junit" }, "(junit: --compare only), not junit" },
	{ { "--compare", "build=clean,faulty", "--format", "perfetto", "-o", "/dev/null" },
	  "--compare writes text, md, html, json or junit, not perfetto" },
	{ { "--group-by", "Build" }, "--group-by expects a label" },
	{ { "--compare", "build=clean" }, "--compare expects LABEL=A,B" },
	{ { "--compare", "build=clean,clean" }, "two different values" },
	{ { "--compare", "build=,faulty" }, "two different values" },
	{ { "--compare", "build=clean,nope" }, "no trace has the label build=nope" },
	{ { "--group-by", "site" }, "no trace has the label 'site'" },
	{ { "--alpha", "0.05", "--group-by", "build" }, "--alpha goes with --compare" },
	{ { "--compare", "build=clean,faulty", "--alpha", "0" }, "--alpha expects a number" },
	{ { "--compare", "build=clean,faulty", "--alpha", "x" }, "--alpha expects a number" },
	{ { "--group-by", "build", "--trace", "1" }, "do not go with --diff or --trace" },
	{ { "--group-by", "build", "--compare", "build=clean,faulty" }, "do not go together" },
};

static void test_fleet_errors(void **state)
{
	static struct run r;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(error_cases); i++) {
		const struct error_case *c = &error_cases[i];
		const char *args[MAX_ARGS + 1] = { "report" };
		size_t n = 1;

		for (size_t k = 0; c->args[k]; k++)
			args[n++] = c->args[k];
		args[n++] = db;
		run_ucval(args, &r);
		if (r.status != 2 || !strstr(r.err, c->err_has) || r.out[0])
			fail_msg("case %zu: exit %d, want 2 and '%s':\n%s%s", i, r.status,
				 c->err_has, r.err, r.out);
	}
}

/* The JUnit of --compare follows tests/junit.xsd, as the per-trace JUnit does. */
static void test_fleet_junit_schema(void **state)
{
	static struct run r;
	const char *args[] = { "report", "--compare", "build=clean,faulty", "--format", "junit",
			       "-o", NULL, db, NULL };
	char xml[128], cmd[512];

	(void)state;
	if (system("command -v xmllint > /dev/null 2>&1")) {
		printf("# skip: xmllint absent (Debian libxml2-utils), JUnit not validated\n");
		skip();
	}
	snprintf(xml, sizeof(xml), "%s/compare.xml", dir);
	args[6] = xml;
	run_ucval(args, &r);
	assert_int_equal(r.status, 1);
	snprintf(cmd, sizeof(cmd), "xmllint --noout --schema tests/junit.xsd '%s' 2>&1", xml);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fleet_reports),
		cmocka_unit_test(test_fleet_errors),
		cmocka_unit_test(test_fleet_junit_schema),
	};

	if (!getenv("UCVAL")) {
		fprintf(stderr, "test_rep_fleet: UCVAL (path of the ucval binary) is not set\n");
		return 1;
	}
	return cmocka_run_group_tests(tests, setup, teardown);
}
