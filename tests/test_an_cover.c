// SPDX-License-Identifier: MIT
/*
 * tests/test_an_cover.c - rule coverage: the rule table of model/rules.c
 * against the rule IDs the specs define (../shared/spec), the counts an
 * analysis of the fixture traces takes (analyze/checks/cover.h), and the
 * report's section built from them.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <ctype.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analyze/analyze.h"
#include "analyze/checks/cover.h"
#include "model/rules.h"
#include "an_testutil.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define ID_LEN	8

/* --- the table against the specs ------------------------------------------- */

struct spec_file {
	const char *name;
	unsigned int variants;
};


static const struct spec_file spec_files[] = {
	{ "uclamp-v3.md", MODEL_RULE_V3 },
	{ "uclamp-mainline.md", MODEL_RULE_MAINLINE },
	{ "schedutil.md", MODEL_RULE_BOTH },
};

/*
 * The rule ID a spec line defines, or false: "- **VR4 count..." (a rule's
 * bullet) or "| VQ1 | ..." (a row of the defects table). An ID is one or
 * two capitals, digits and at most one lower-case suffix ("VA4b").
 */
static bool spec_line_id(const char *line, char id[ID_LEN])
{
	const char *p;
	size_t n = 0;

	if (!strncmp(line, "- **", 4))
		p = line + 4;
	else if (!strncmp(line, "| ", 2))
		p = line + 2;
	else
		return false;
	while (isupper((unsigned char)p[n]) && n < 2)
		n++;
	if (!n || !isdigit((unsigned char)p[n]))
		return false;
	while (isdigit((unsigned char)p[n]) && n < ID_LEN - 2)
		n++;
	if (islower((unsigned char)p[n]) && !isalpha((unsigned char)p[n + 1]))
		n++;
	if (p[n] != ' ' && p[n] != '*')
		return false;
	if (line[0] == '|' && strncmp(p + n, " |", 2))
		return false;
	memcpy(id, p, n);
	id[n] = '\0';
	return true;
}

static void test_spec_line_id(void **state)
{
	static const struct {
		const char *line;
		const char *id;		/* NULL: no ID */
	} cases[] = {
		{ "- **VR4 count(p, cpu, id)** [p03]: s = eff", "VR4" },
		{ "- **VA4b return value** [p02]", "VA4b" },
		{ "- **VP1** [p14] `from_pct(p)`", "VP1" },
		{ "- **S10 resolve** (`cpufreq`)", "S10" },
		{ "| VQ12 | a runnable RT task |", "VQ12" },
		{ "- **[R]** = not in the seeds", NULL },
		{ "- **Fidelity**: rules state", NULL },
		{ "| 5.3 | core: buckets |", NULL },
		{ "| topic | v3 | mainline |", NULL },
		{ "M1→§0, M2→MB1, M3→MB2", NULL },
		{ "- **cpu_frequency / cpu_frequency_limits**: only", NULL },
	};
	char id[ID_LEN];

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		bool is_id = spec_line_id(cases[i].line, id);

		if (is_id != (cases[i].id != NULL) || (is_id && strcmp(id, cases[i].id)))
			fail_msg("case %zu: '%s' gave %s", i, cases[i].line, is_id ? id : "none");
	}
}

/* Every ID @f defines is a row of the table of that spec, and the other way round. */
static void check_spec(const char *dir, const struct spec_file *f)
{
	char path[PATH_MAX], line[4096], id[ID_LEN];
	bool seen[MODEL_RULES_NR] = { false };
	size_t nr_spec = 0;
	FILE *in;

	an_test_fmt(path, sizeof(path), "%s/%s", dir, f->name);
	in = fopen(path, "r");
	if (!in)
		fail_msg("%s: cannot read", path);
	while (fgets(line, sizeof(line), in)) {
		int row;

		if (!spec_line_id(line, id))
			continue;
		row = model_rule_index(id);
		if (row < 0)
			fail_msg("%s defines %s, which model/rules.c lacks", f->name, id);
		if (strcmp(model_rules[row].spec, f->name) || model_rules[row].variants != f->variants)
			fail_msg("%s: model/rules.c gives %s to %s (variants %#x)", f->name, id,
				 model_rules[row].spec, model_rules[row].variants);
		if (seen[row])
			fail_msg("%s defines %s twice", f->name, id);
		seen[row] = true;
		nr_spec++;
	}
	fclose(in);
	for (int i = 0; i < MODEL_RULES_NR; i++)
		if (!strcmp(model_rules[i].spec, f->name) && !seen[i])
			fail_msg("model/rules.c has %s, which %s does not define", model_rules[i].id,
				 f->name);
	printf("# %s: %zu rules, as in model/rules.c\n", f->name, nr_spec);
}

static void test_table_matches_specs(void **state)
{
	char dir[PATH_MAX];

	(void)state;
	an_test_fmt(dir, sizeof(dir), "%s/spec", an_test_shared());
	if (access(dir, R_OK)) {
		printf("# %s not found (set UCVAL_SHARED)\n", dir);
		skip();
	}
	for (size_t i = 0; i < ARRAY_SIZE(spec_files); i++)
		check_spec(dir, &spec_files[i]);
}

/* The table itself: unique IDs, each found at its row, with a meaning. */
static void test_table(void **state)
{
	(void)state;
	for (int i = 0; i < MODEL_RULES_NR; i++) {
		assert_non_null(model_rules[i].id);
		assert_int_equal(model_rule_index(model_rules[i].id), i);
		assert_true(model_rules[i].meaning && model_rules[i].meaning[0]);
		assert_true(model_rules[i].variants & MODEL_RULE_BOTH);
	}
	assert_int_equal(model_rule_index("VR14"), -1);
	assert_int_equal(model_rule_index("S0"), -1);
	assert_int_equal(model_rule_index("M1"), -1);
	assert_int_equal(model_rule_index(""), -1);
	assert_int_equal(model_rule_index(NULL), -1);
	assert_true(model_rule_in_variant(model_rule_index("VR4"), MODEL_V3));
	assert_false(model_rule_in_variant(model_rule_index("VR4"), MODEL_MAINLINE));
	assert_true(model_rule_in_variant(model_rule_index("S18"), MODEL_MAINLINE));
	assert_true(model_rule_in_variant(model_rule_index("S18"), MODEL_V3));
	assert_false(model_rule_in_variant(-1, MODEL_V3));
}

/* --- counts of the fixtures ------------------------------------------------ */

struct cover_row {
	const char *trace;
	enum an_check_id check;
	const char *rule;
	uint64_t times;
	uint64_t decided_ns;
};

/*
 * rq_clamp-pass (v3): samples at 10.0015 (a left, idle: VR11), 10.002 (b
 * counted: VR4), 10.00305 (a and b: VR4), 10.0041 (b left: VR5), 10.0051
 * (idle: VR11), 10.0061 (b back: VR4); each covers the time since its
 * CPU's value last changed. task_effective-pass (mainline): 5 compared
 * effective values, 3 of tasks in a group (MT5, its restriction MT2), 2
 * capped by the system defaults a sysctl marker wrote (MA8). request_result-pass (v3):
 * 4 requests the model decided, one at the groups' capacity (VG7).
 * freq_prediction-pass (mainline 5.10): 6 predicted intervals over 18.9 ms,
 * one rate-limit comparison over the 11 ms between two changes, two
 * intervals under the busy hold.
 */
static const struct cover_row cover_rows[] = {
	{ "rq_clamp-pass.txt", AN_CHECK_RQ_CLAMP, "VR4", 3, 150000 },
	{ "rq_clamp-pass.txt", AN_CHECK_RQ_CLAMP, "VR5", 1, 100000 },
	{ "rq_clamp-pass.txt", AN_CHECK_RQ_CLAMP, "VR11", 2, 600000 },
	{ "task_effective-pass.txt", AN_CHECK_TASK_EFFECTIVE, "MT1", 5, 0 },
	{ "task_effective-pass.txt", AN_CHECK_TASK_EFFECTIVE, "MT5", 3, 0 },
	{ "task_effective-pass.txt", AN_CHECK_TASK_EFFECTIVE, "MT2", 3, 0 },
	{ "task_effective-pass.txt", AN_CHECK_TASK_EFFECTIVE, "MA8", 2, 0 },
	{ "request_result-pass.txt", AN_CHECK_REQUEST_RESULT, "VA4", 3, 0 },
	{ "request_result-pass.txt", AN_CHECK_REQUEST_RESULT, "VG7", 1, 0 },
	{ "request_result-pass.txt", AN_CHECK_GROUPS_EXHAUSTED, "VG7", 4, 0 },
	{ "freq_prediction-pass.txt", AN_CHECK_FREQ_PREDICTION, "S6", 6, 18900000 },
	{ "freq_prediction-pass.txt", AN_CHECK_FREQ_PREDICTION, "S9", 6, 18900000 },
	{ "freq_prediction-pass.txt", AN_CHECK_FREQ_PREDICTION, "S10", 6, 18900000 },
	{ "freq_prediction-pass.txt", AN_CHECK_FREQ_PREDICTION, "S15", 1, 11000000 },
	{ "freq_prediction-pass.txt", AN_CHECK_FREQ_PREDICTION, "S16", 1, 11000000 },
	{ "freq_prediction-pass.txt", AN_CHECK_FREQ_PREDICTION, "S18", 2, 10000000 },
	{ "freq_prediction-pass.txt", AN_CHECK_FREQ_PREDICTION, "S24", 6, 18900000 },
	{ "freq_prediction-pass.txt", AN_CHECK_FREQ_BELOW_MIN_CLAMP, "MS1", 5, 19000000 },
	{ "freq_prediction-pass.txt", AN_CHECK_FREQ_BELOW_MIN_CLAMP, "S9", 5, 19000000 },
	{ "freq_prediction-pass.txt", AN_CHECK_FREQ_BELOW_MIN_CLAMP, "S10", 5, 19000000 },
};

/* Traces whose rows above are all their coverage (none other counted). */
static const char *const complete[] = {
	"rq_clamp-pass.txt", "task_effective-pass.txt", "request_result-pass.txt",
};

struct run {
	struct an_results res;
	struct an_summary sum;
};

static void analyze(struct run *u, const char *path)
{
	char line[512];
	struct an_diag d;

	an_results_init(&u->res, NULL, NULL);
	if (an_analyze_path(path, NULL, &u->res, &u->sum, &d)) {
		an_diag_format(&d, line, sizeof(line));
		fail_msg("%s: %s", path, line);
	}
}

static void fixture_path(char *buf, size_t len, const char *name)
{
	an_test_fmt(buf, len, "%s/traces/%s", an_test_root(), name);
}

static bool is_listed(const char *trace, enum an_check_id check, int row)
{
	for (size_t i = 0; i < ARRAY_SIZE(cover_rows); i++)
		if (!strcmp(cover_rows[i].trace, trace) && cover_rows[i].check == check &&
		    model_rule_index(cover_rows[i].rule) == row)
			return true;
	return false;
}

static void test_fixture_counts(void **state)
{
	char path[PATH_MAX];
	struct run *u = malloc(sizeof(*u));

	(void)state;
	assert_non_null(u);
	for (size_t i = 0; i < ARRAY_SIZE(cover_rows); i++) {
		const struct cover_row *c = &cover_rows[i];
		const struct an_rule_cov *got;

		fixture_path(path, sizeof(path), c->trace);
		analyze(u, path);
		got = &u->res.cover[c->check][model_rule_index(c->rule)];
		if (got->times != c->times || got->decided_ns != c->decided_ns)
			fail_msg("%s %s %s: %llu times, %llu ns; want %llu, %llu", c->trace,
				 an_check_name(c->check), c->rule, (unsigned long long)got->times,
				 (unsigned long long)got->decided_ns, (unsigned long long)c->times,
				 (unsigned long long)c->decided_ns);
	}
	for (size_t t = 0; t < ARRAY_SIZE(complete); t++) {
		fixture_path(path, sizeof(path), complete[t]);
		analyze(u, path);
		for (int k = 0; k < AN_CHECK__COUNT; k++)
			for (int r = 0; r < MODEL_RULES_NR; r++)
				if (u->res.cover[k][r].times && !is_listed(complete[t], k, r))
					fail_msg("%s: %s %s counted %llu times, not listed",
						 complete[t], an_check_name(k), model_rules[r].id,
						 (unsigned long long)u->res.cover[k][r].times);
	}
	free(u);
}

/* --- rules the kernel loop's phases exercise -------------------------------- */

#define MK(ts, text) "ucval-1 [000] ....    " ts ": tracing_mark_write: ucval: " text "\n"
#define EV(comm, ts, text) comm " [000] d..2    " ts ": " text "\n"

static const struct {
	const char *name;
	const char *text;
	enum an_check_id check;
	const char *rule;
} phase_rows[] = {
	/* pid 100 asks for min 300 and forks 101: its request is the parent's */
	{ "MA7: a child's inherited request decided its effective value",
	  MK("20.000000", "platform cpus=2 model=mainline kernel=6.1.0 groups=5")
	  MK("20.000100", "task pid=100 comm=a util_min=300")
	  EV("a-100", "20.001000", "sched_process_fork: comm=a pid=100 child_comm=a child_pid=101")
	  EV("a-101", "20.002000", "uclamp_task_eff: pid=101 comm=a clamp_id=0 value=300"
	     " effective=300 bucket_id=1"),
	  AN_CHECK_TASK_EFFECTIVE, "MA7" },
	/* policy 0's max drops to 1000000 under util 900 (raw 2197265 kHz) */
	{ "S27: the policy's max decided the predicted frequency",
	  MK("50.000000", "platform cpus=1 model=mainline kernel=5.10.0 groups=5 tick_us=4000")
	  MK("50.000010", "cpu cpu=0 policy=0 capacity=1024 freqs=500000,1000000,1500000,2000000"
	     " rate_limit_us=1000")
	  EV("<idle>-0", "50.000100", "cpu_frequency: state=500000 cpu_id=0")
	  EV("<idle>-0", "50.001000", "sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120"
	     " prev_state=R ==> next_comm=a next_pid=100 next_prio=120")
	  EV("a-100", "50.001100", "sched_pelt_cfs: cpu=0 path=/ util=900")
	  EV("a-100", "50.003000", "cpu_frequency: state=2000000 cpu_id=0")
	  EV("a-100", "50.003500", "cpu_frequency_limits: min_freq=500000 max_freq=1000000 cpu_id=0")
	  EV("a-100", "50.003600", "sched_pelt_cfs: cpu=0 path=/ util=900")
	  EV("a-100", "50.003700", "cpu_frequency: state=1000000 cpu_id=0")
	  EV("a-100", "50.010000", "sched_switch: prev_comm=a prev_pid=100 prev_prio=120"
	     " prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120"),
	  AN_CHECK_FREQ_PREDICTION, "S27" },
	/* ... and the change 0.7 ms after the previous one passed the gate */
	{ "S17: the limits change forced an update inside the rate limit", NULL,
	  AN_CHECK_FREQ_PREDICTION, "S17" },
};

static void test_phase_rules(void **state)
{
	char path[] = "/tmp/test_an_cover-XXXXXX";
	struct run *u = malloc(sizeof(*u));
	const char *text = NULL;

	(void)state;
	assert_non_null(u);
	for (size_t i = 0; i < ARRAY_SIZE(phase_rows); i++) {
		int fd;

		text = phase_rows[i].text ? phase_rows[i].text : text;
		strcpy(path, "/tmp/test_an_cover-XXXXXX");
		fd = mkstemp(path);
		assert_true(fd >= 0);
		assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
		close(fd);
		analyze(u, path);
		unlink(path);
		if (!u->res.cover[phase_rows[i].check][model_rule_index(phase_rows[i].rule)].times)
			fail_msg("%s: %s counted no %s", phase_rows[i].name,
				 an_check_name(phase_rows[i].check), phase_rows[i].rule);
		if (u->res.stats[phase_rows[i].check].n_failed)
			fail_msg("%s: %s failed", phase_rows[i].name,
				 an_check_name(phase_rows[i].check));
	}
	free(u);
}

#undef MK
#undef EV

/*
 * Every fixture: each rule counted is one of the variant's (none foreign),
 * a check that compared nothing counted no rule, and no comparison is
 * counted without a rule of a check that has rules (trace_integrity has none).
 */
static void test_fixtures_in_variant(void **state)
{
	char pattern[PATH_MAX];
	struct run *u = malloc(sizeof(*u));
	glob_t g;

	(void)state;
	assert_non_null(u);
	an_test_fmt(pattern, sizeof(pattern), "%s/traces/*.txt", an_test_root());
	assert_int_equal(glob(pattern, 0, NULL, &g), 0);
	for (size_t i = 0; i < g.gl_pathc; i++) {
		analyze(u, g.gl_pathv[i]);
		if (u->res.n_cover_foreign)
			fail_msg("%s: %llu rules outside the variant", g.gl_pathv[i],
				 (unsigned long long)u->res.n_cover_foreign);
		for (int k = 0; k < AN_CHECK__COUNT; k++) {
			uint64_t times = 0;

			for (int r = 0; r < MODEL_RULES_NR; r++)
				times += u->res.cover[k][r].times;
			if (!u->res.stats[k].n_checked && times)
				fail_msg("%s: %s counted rules without comparing", g.gl_pathv[i],
					 an_check_name(k));
			if (u->res.stats[k].n_checked && !times && k != AN_CHECK_TRACE_INTEGRITY)
				fail_msg("%s: %s compared %llu times, no rule counted",
					 g.gl_pathv[i], an_check_name(k),
					 (unsigned long long)u->res.stats[k].n_checked);
		}
	}
	printf("# %zu fixtures: every counted rule is one of the variant's\n", g.gl_pathc);
	globfree(&g);
	free(u);
}

/* --- the report shows them ------------------------------------------------- */

/* Run "$UCVAL @args" with stdout to @out; return the exit status. */
static int run_ucval(const char *args, const char *out)
{
	char cmd[3 * PATH_MAX];
	const char *ucval = getenv("UCVAL");
	int st;

	if (!ucval) {
		printf("# UCVAL is not set (run through make check)\n");
		skip();
	}
	an_test_fmt(cmd, sizeof(cmd), "cd '%s' && UCVAL_NOW=2026-01-01T00:00:00Z '%s' %s > '%s'",
		 an_test_root(), ucval, args, out);
	st = system(cmd);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The whole file @path, NUL-terminated (the caller frees it). */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int c;

	assert_non_null(f);
	assert_non_null(m);
	while ((c = fgetc(f)) != EOF)
		fputc(c, m);
	fclose(f);
	assert_int_equal(fclose(m), 0);
	return buf;
}

static void test_report(void **state)
{
	static const char *const lines[] = {
		"  rq_clamp  VR4       3       0.150  count a task: the rq value rises to its value\n",
		"  rq_clamp  VR5       1       0.100  uncount a task\n",
		"  rq_clamp  VR11      2       0.600  idle retention of UCLAMP_MAX\n",
		"  not exercised: 89 of the 92 rules of v3 and schedutil: VA1 VA2 ",
		" VR3 VR6 VR7 ",
	};
	static const char *const json[] = {
		"{\"check_id\": \"rq_clamp\", \"rule\": \"VR11\", \"times\": 2, \"decided_ns\": 600000}",
		"\"rules_not_exercised\": [\"VA1\", ",
	};
	char dir[] = "/tmp/ucval-cover-XXXXXX", args[PATH_MAX], db[PATH_MAX], out[PATH_MAX];
	char *text, *missing;

	(void)state;
	assert_non_null(mkdtemp(dir));
	an_test_fmt(db, sizeof(db), "%s/r.db", dir);
	an_test_fmt(out, sizeof(out), "%s/out", dir);
	an_test_fmt(args, sizeof(args), "analyze -q --db '%s' traces/rq_clamp-pass.txt", db);
	assert_int_equal(run_ucval(args, out), 0);
	an_test_fmt(args, sizeof(args), "report '%s'", db);
	assert_int_equal(run_ucval(args, out), 0);
	text = slurp(out);
	for (size_t i = 0; i < ARRAY_SIZE(lines); i++)
		if (!strstr(text, lines[i]))
			fail_msg("report lacks '%s':\n%s", lines[i], text);
	/* VR4, VR5, VR11 exercised: not in the list */
	missing = strstr(text, "not exercised:");
	assert_non_null(missing);
	*strchrnul(missing, '\n') = '\0';
	assert_null(strstr(missing, " VR4 "));
	assert_null(strstr(missing, " VR5 "));
	assert_null(strstr(missing, " VR11 "));
	free(text);
	an_test_fmt(args, sizeof(args), "report --format json '%s'", db);
	assert_int_equal(run_ucval(args, out), 0);
	text = slurp(out);
	for (size_t i = 0; i < ARRAY_SIZE(json); i++)
		if (!strstr(text, json[i]))
			fail_msg("JSON report lacks '%s':\n%s", json[i], text);
	free(text);
	/* analyze --json carries the same rows */
	assert_int_equal(run_ucval("analyze -q --json - traces/rq_clamp-pass.txt", out), 0);
	text = slurp(out);
	if (!strstr(text, "\"rule_coverage\": [\n      {\"check_id\": \"rq_clamp\", \"rule\": \"VR4\","
		    " \"times\": 3, \"decided_ns\": 150000},"))
		fail_msg("analyze --json lacks the rule coverage:\n%s", text);
	free(text);
	an_test_fmt(args, sizeof(args), "rm -rf '%s'", dir);
	assert_int_equal(system(args), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spec_line_id),
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_table_matches_specs),
		cmocka_unit_test(test_fixture_counts),
		cmocka_unit_test(test_fixtures_in_variant),
		cmocka_unit_test(test_phase_rules),
		cmocka_unit_test(test_report),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
