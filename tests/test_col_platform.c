// SPDX-License-Identifier: MIT
/*
 * tests/test_col_platform.c - the platform snapshot markers on fake sysfs,
 * procfs and cgroup trees: a CPU with cpufreq and capacity, one without,
 * uclamp sysctls, a cgroup with clamps in a path with a space; then empty
 * trees, where every optional key must be absent. Each line must parse with
 * the analyzer's marker parser. No root needed.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analyze/read/marker.h"
#include "collect/snapshot.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define MAX_LINES 64

static char root[256];

struct lines {
	char text[MAX_LINES][COL_MARKER_LEN];
	unsigned int nr;
};

static int collect_line(void *ctx, const char *line)
{
	struct lines *l = ctx;

	if (l->nr == MAX_LINES)
		return -ENOSPC;
	snprintf(l->text[l->nr++], COL_MARKER_LEN, "%s", line);
	return 0;
}

static void put(const char *rel, const char *text)
{
	char path[512], cmd[600];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", path);
	assert_int_equal(system(cmd), 0);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
}

static int setup(void **state)
{
	char from[512], to[512];

	(void)state;
	snprintf(root, sizeof(root), "%s/ucval-platform-XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(root))
		return -1;
	put("sys/devices/system/cpu/cpu0/cpu_capacity", "446\n");
	put("sys/devices/system/cpu/cpufreq/policy0/scaling_available_frequencies",
	    "1400000 500000 850000 1100000 \n");
	put("sys/devices/system/cpu/cpufreq/policy0/scaling_min_freq", "500000\n");
	put("sys/devices/system/cpu/cpufreq/policy0/scaling_max_freq", "1400000\n");
	put("sys/devices/system/cpu/cpufreq/policy0/scaling_cur_freq", "850000\n");
	put("sys/devices/system/cpu/cpufreq/policy0/scaling_governor", "schedutil\n");
	put("sys/devices/system/cpu/cpufreq/policy0/schedutil/rate_limit_us", "2000\n");
	snprintf(from, sizeof(from), "%s/sys/devices/system/cpu/cpu0/cpufreq", root);
	snprintf(to, sizeof(to), "../cpufreq/policy0");
	if (symlink(to, from))
		return -1;
	put("proc/sys/kernel/sched_util_clamp_min", "1024\n");
	put("proc/sys/kernel/sched_util_clamp_max", "1024\n");
	put("proc/sys/kernel/sched_util_clamp_min_rt_default", "512\n");
	put("cgroup/a b/cpu.uclamp.min", "12.50\n");
	put("cgroup/a b/cpu.uclamp.max", "max\n");
	put("cgroup/c/cpu.weight", "100\n");
	put("empty/.keep", "");
	return 0;
}

static int teardown(void **state)
{
	char cmd[600];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd);
}

static void snapshot(const char *sys, const char *proc, const char *cg, struct lines *out)
{
	char s[512], p[512], c[512];
	struct col_snapshot_roots r = { s, p, c };
	struct an_diag d;

	snprintf(s, sizeof(s), "%s/%s", root, sys);
	snprintf(p, sizeof(p), "%s/%s", root, proc);
	snprintf(c, sizeof(c), "%s/%s", root, cg);
	out->nr = 0;
	assert_int_equal(col_snapshot_take(&r, collect_line, out, &d), 0);
	for (unsigned int i = 0; i < out->nr; i++) {
		struct an_marker m;

		if (an_marker_parse(out->text[i], strlen(out->text[i]), 1, &m, &d) != 1)
			fail_msg("line %u does not parse: '%s'", i, out->text[i]);
	}
}

static const char *find(const struct lines *l, const char *prefix)
{
	for (unsigned int i = 0; i < l->nr; i++)
		if (!strncmp(l->text[i], prefix, strlen(prefix)))
			return l->text[i];
	return NULL;
}

static const struct want {
	const char *prefix;	/* identifies the line */
	const char *line;	/* the whole line, NULL: absent */
} full[] = {
	{ "ucval: cpu cpu=0", "ucval: cpu cpu=0 policy=0 capacity=446 "
	  "freqs=500000,850000,1100000,1400000 min=500000 max=1400000 cur=850000 "
	  "rate_limit_us=2000 governor=schedutil" },
	{ "ucval: cpu cpu=1", "ucval: cpu cpu=1" },
	{ "ucval: sysctl", "ucval: sysctl util_min=1024 util_max=1024 util_min_rt_default=512" },
	{ "ucval: cgroup path=/a%20b", "ucval: cgroup path=/a%20b util_min=128 util_max=1024" },
	{ "ucval: cgroup path=/c", NULL },
	{ "ucval: cgroup path=/ ", NULL },
}, empty[] = {
	{ "ucval: cpu cpu=0", "ucval: cpu cpu=0" },
	{ "ucval: sysctl", NULL },
	{ "ucval: cgroup", NULL },
};

static void check(const struct lines *l, const struct want *w, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const char *got = find(l, w[i].prefix);

		if (!strcmp(w[i].prefix, "ucval: cpu cpu=1") && sysconf(_SC_NPROCESSORS_CONF) < 2)
			continue;	/* a one-CPU machine has no cpu 1 marker */

		if (!w[i].line && got)
			fail_msg("row %zu: unexpected '%s'", i, got);
		if (w[i].line && (!got || strcmp(got, w[i].line)))
			fail_msg("row %zu: got '%s' want '%s'", i, got ? got : "(none)", w[i].line);
	}
}

static void test_full_tree(void **state)
{
	struct lines *l = calloc(1, sizeof(*l));
	const char *p;

	(void)state;
	assert_non_null(l);
	snapshot("sys", "proc", "cgroup", l);
	check(l, full, ARRAY_SIZE(full));
	p = find(l, "ucval: platform");
	assert_non_null(p);
	assert_non_null(strstr(p, " model=mainline scale=1024 "));
	assert_non_null(strstr(p, " kernel="));
	free(l);
}

static void test_empty_tree_omits(void **state)
{
	struct lines *l = calloc(1, sizeof(*l));
	const char *p;

	(void)state;
	assert_non_null(l);
	snapshot("empty", "empty", "empty", l);
	check(l, empty, ARRAY_SIZE(empty));
	p = find(l, "ucval: platform");
	assert_non_null(p);
	assert_null(strstr(p, "model="));
	assert_null(strstr(p, "scale="));
	free(l);
}

/* A task marker of this process: comm, policy; clamps only with uclamp. */
static void test_task_line(void **state)
{
	char line[COL_MARKER_LEN], want[64];
	struct an_marker m;
	struct an_diag d;

	(void)state;
	assert_int_equal(col_snapshot_task_line(NULL, getpid(), line, sizeof(line)), 0);
	snprintf(want, sizeof(want), "ucval: task pid=%d comm=", (int)getpid());
	assert_int_equal(strncmp(line, want, strlen(want)), 0);
	assert_non_null(strstr(line, " policy=SCHED_NORMAL"));
	if (!col_snapshot_has_uclamp(NULL))
		assert_null(strstr(line, "util_min="));
	assert_int_equal(an_marker_parse(line, strlen(line), 1, &m, &d), 1);
	assert_int_equal(col_snapshot_task_line(NULL, -5, line, sizeof(line)), -ESRCH);
}

/*
 * Regression (real-kernel loop): task markers carried sched_getattr()'s
 * default clamps as requests, so the analyzer took every snapshotted task's
 * clamps as user-defined (inherited by every child, kept across a switch to
 * SCHED_FIFO) and the static key as on from the trace start.
 */
static void test_task_requests(void **state)
{
	static const struct req_case {
		const char *rule;	/* spec rule behind the default */
		unsigned int policy, umin, umax, rt_default;
		bool has_min, has_max;
	} cases[] = {
		{ "MT4", 0, 0, 1024, 1024, false, false },	/* SCHED_NORMAL, no request */
		{ "MT4", 3, 0, 1024, 1024, false, false },	/* SCHED_BATCH */
		{ "MT4", 1, 1024, 1024, 1024, false, false },	/* SCHED_FIFO: RT default min */
		{ "MT4", 2, 512, 1024, 512, false, false },	/* SCHED_RR, lowered RT default */
		{ "MT4", 1, 0, 1024, 1024, true, false },	/* FIFO asked for min 0 */
		{ "MA4", 0, 300, 1024, 1024, true, false },
		{ "MA4", 0, 0, 600, 1024, false, true },
		{ "MA4", 0, 200, 800, 1024, true, true },
		{ "MA4", 0, 1024, 1024, 1024, true, false },	/* fair min 1024 is a request */
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct req_case *c = &cases[i];
		bool has_min = !c->has_min, has_max = !c->has_max;

		col_snapshot_task_requests(c->policy, c->umin, c->umax, c->rt_default,
					   &has_min, &has_max);
		if (has_min != c->has_min || has_max != c->has_max)
			fail_msg("case %zu (%s): policy %u min %u max %u: got %d/%d want %d/%d", i,
				 c->rule, c->policy, c->umin, c->umax, has_min, has_max,
				 c->has_min, c->has_max);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_full_tree),
		cmocka_unit_test(test_empty_tree_omits),
		cmocka_unit_test(test_task_line),
		cmocka_unit_test(test_task_requests),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
