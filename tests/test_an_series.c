// SPDX-License-Identifier: MIT
/*
 * analyze/store/series.c and the schema 2 tables: what a trace looked like over
 * time (clamp and frequency intervals, requests, tasks, CPUs, policies),
 * the explanation chain of a FAIL window, and the database built from it by
 * `ucval analyze --db`: residency, views, the queries docs/database.md documents.
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
#include <sys/wait.h>
#include <unistd.h>

#include <sqlite3.h>

#include "analyze/analyze.h"
#include "analyze/store/series.h"
#include "analyze/store/winbuf.h"
#include "an_testutil.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

struct run {
	struct an_series s;
	struct an_results res;
	struct an_summary sum;
	struct an_winbuf wins;
};

/* Analyze the trace @path with a series recorded. */
static void run_path(struct run *u, const char *path, const struct an_replay_opts *ro)
{
	struct an_analyze_opts opts = { 0 };
	char line[512];
	struct an_diag d;

	if (ro)
		opts.replay = *ro;
	an_series_init(&u->s);
	an_winbuf_init(&u->wins);
	an_results_init(&u->res, an_winbuf_sink, &u->wins);
	u->res.series = &u->s;
	if (an_analyze_path(path, &opts, &u->res, &u->sum, &d)) {
		an_diag_format(&d, line, sizeof(line));
		fail_msg("%s: %s", path, line);
	}
	assert_int_equal(u->s.err, 0);
}

/* Analyze the project fixture traces/@name with a series recorded. */
static void run_fixture(struct run *u, const char *name, const struct an_replay_opts *ro)
{
	char path[4200];

	snprintf(path, sizeof(path), "%s/traces/%s", an_test_root(), name);
	run_path(u, path, ro);
}

static void run_free(struct run *u)
{
	an_series_release(&u->s);
	an_winbuf_release(&u->wins);
}

struct render {
	enum an_series_kind kind;
	char *buf;
	size_t len, at;
	long long last[2];
	bool has_last;
};

/* "start_us:min/max" (clamp) or "start_us:obs/exp" when the pair changes. */
static int render_one(void *ctx, const struct an_series_rec *rec)
{
	struct render *c = ctx;
	int i0 = rec->kind == AN_SER_CLAMP ? AN_SER_CL_MIN : AN_SER_FQ_OBS;
	int i1 = rec->kind == AN_SER_CLAMP ? AN_SER_CL_MAX : AN_SER_FQ_EXP;
	long long a = rec->has & AN_SER_HAS(i0) ? rec->v[i0] : -1;
	long long b = rec->has & AN_SER_HAS(i1) ? rec->v[i1] : -1;
	int n;

	if (rec->kind != c->kind)
		return 0;
	if (rec->kind == AN_SER_FREQ && c->has_last && c->last[0] == a && c->last[1] == b)
		return 0;
	c->last[0] = a;
	c->last[1] = b;
	c->has_last = true;
	n = snprintf(c->buf + c->at, c->len - c->at, "%s%llu:%lld/%lld", c->at ? ";" : "",
		     (unsigned long long)(rec->ts_start_ns / 1000), a, b);
	assert_true(n > 0 && (size_t)n < c->len - c->at);
	c->at += (size_t)n;
	return 0;
}

static void render(struct an_series *s, enum an_series_kind kind, char *buf, size_t len)
{
	struct render c = { .kind = kind, .buf = buf, .len = len };

	buf[0] = '\0';
	assert_int_equal(an_series_for_each(s, render_one, &c), 0);
}

/*
 * uclamp-v3.md VR4, VR5, VR11: the model's rq values of CPU 1 in
 * traces/rq_clamp-fail.txt, interval by interval (the fixture's comments
 * give the story): known at 10.001000 after a (256/512) left, b (max 768)
 * wakes, a wakes, b sleeps, a leaves (512 retained), b wakes.
 */
static void test_clamp_intervals(void **state)
{
	static const struct {
		unsigned long long start_us, end_us;
		int min, max;
	} want[] = {
		{ 10001000, 10002000, 0, 512 },
		{ 10002000, 10003000, 0, 768 },
		{ 10003000, 10004000, 256, 768 },
		{ 10004000, 10005000, 256, 512 },
		{ 10005000, 10006000, 0, 512 },
		{ 10006000, 10006100, 0, 768 },
	};
	struct run u;
	size_t i = 0;

	(void)state;
	run_fixture(&u, "rq_clamp-fail.txt", NULL);
	assert_int_equal(u.s.nr_clamp, ARRAY_SIZE(want));
	for (size_t k = 0; k < u.s.recs.nr_mem; k++) {
		const struct an_series_rec *rec = (const void *)(u.s.recs.mem + k * u.s.recs.size);

		if (rec->kind != AN_SER_CLAMP)
			continue;
		assert_int_equal(rec->cpu, 1);
		assert_int_equal(rec->ts_start_ns, want[i].start_us * 1000);
		assert_int_equal(rec->ts_end_ns, want[i].end_us * 1000);
		assert_int_equal(rec->v[AN_SER_CL_MIN], want[i].min);
		assert_int_equal(rec->v[AN_SER_CL_MAX], want[i].max);
		i++;
	}
	assert_int_equal(i, ARRAY_SIZE(want));
	/* CPU 1 became known at its first switch; CPU 0 never was */
	assert_true(u.s.nr_cpus >= 2);
	assert_true(u.s.cpu[1].was_known);
	assert_int_equal(u.s.cpu[1].known_ns, 10001000000ULL);
	assert_false(u.s.cpu[0].was_known);
	/* tasks: a (pid 100) switched in once, b (pid 200) once */
	assert_int_equal(u.s.nr_tasks, 2);
	assert_int_equal(u.s.task[0].pid, 100);
	assert_string_equal(u.s.task[0].comm, "a");
	assert_int_equal(u.s.task[0].n_runs, 1);
	assert_int_equal(u.s.task[0].first_ns, 10001000000ULL);
	assert_int_equal(u.s.task[0].last_ns, 10005000000ULL);
	assert_int_equal(u.s.task[1].pid, 200);
	assert_int_equal(u.s.task[1].n_runs, 1);
	run_free(&u);
}

struct find_win {
	const char *rule;
	char explain[AN_WINDOW_EXPLAIN_LEN];
};

static int find_win(void *ctx, const struct an_window *w)
{
	struct find_win *f = ctx;

	if (w->is_fail && w->rule && !strcmp(w->rule, f->rule))
		snprintf(f->explain, sizeof(f->explain), "%s", w->explain ? w->explain : "");
	return 0;
}

/*
 * The explanation chain of an rq_clamp FAIL window: what made the model's
 * value (VR4: a count, VR11: idle retention) and each counted task's
 * effective value (VT2).
 */
static void test_explain_rq(void **state)
{
	static const struct {
		const char *rule;
		const char *explain;
	} rows[] = {
		{ "VR4", "VR4   rq min after an enqueue      256\n"
			 "VT2   pid 100 (a) effective        256\n"
			 "VT2   pid 200 (b) effective        0\n" },
		{ "VR11", "VR11  rq max retained, idle        512\n" },
	};
	struct run u;

	(void)state;
	run_fixture(&u, "rq_clamp-fail.txt", NULL);
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		struct find_win f = { .rule = rows[i].rule };

		an_winbuf_for_each(&u.wins, find_win, &f);
		assert_string_equal(f.explain, rows[i].explain);
	}
	run_free(&u);
}

/*
 * The chains of the other checks' FAIL fixtures: the floor (MS1: rq MIN 512
 * on 6.1 -> 1.25 x 2000000 x 512 / 1024 = 1250000 -> OPP 1500000), the
 * ceiling of a shared policy (v3: CPU 0's utilization taken at the capacity,
 * clamped to MAX 300: (F + F/4) x 300 / 1024 = 732421 -> 1000000), a
 * prediction (util 700: 1.25 x 2000000 x 700 / 1024 = 1708984 -> 2000000), and a
 * task's effective value (its request 300 restricted by the system default
 * 200, MT1).
 */
static void test_explain_checks(void **state)
{
	static const struct {
		const char *fixture;
		const char *rule;
		const char *explain;
	} rows[] = {
		{ "freq_below_min_clamp-fail.txt", "MS1",
		  "MS1   floor util (rq min after inversion) 512\n"
		  "S9    raw target kHz               1250000\n"
		  "S10   floor OPP kHz                1500000\n" },
		{ "freq_above_max_clamp-fail.txt", "VS1",
		  "S13   ceiling cpu                  0\n"
		  "S5    util_cfs+util_rt             1024\n"
		  "VR8   clamped util                 300\n"
		  "S24   irq-scaled + bw_dl           300\n"
		  "S9    raw target kHz               732421\n"
		  "S10   ceiling OPP kHz              1000000\n" },
		/* its S10 window opens when a grace ends (the drop path) */
		{ "freq_prediction-fail.txt", "S10",
		  "S6    util_cfs+util_rt             700\n"
		  "S24   irq-scaled + bw_dl           700\n"
		  "S9    raw target kHz               1708984\n"
		  "S10   resolved OPP kHz             2000000\n" },
		{ "task_effective-fail.txt", "MT1",
		  "MT1   request util_max             300\n"
		  "MT5   group / effective            200\n"
		  "MT1   system default               200\n"
		  "MT1   effective                    200\n" },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		struct find_win f = { .rule = rows[i].rule };
		struct run u;

		run_fixture(&u, rows[i].fixture, NULL);
		an_winbuf_for_each(&u.wins, find_win, &f);
		if (strcmp(f.explain, rows[i].explain))
			fail_msg("%s: explanation\n%s\nwant\n%s", rows[i].fixture, f.explain,
				 rows[i].explain);
		run_free(&u);
	}
}

/*
 * schedutil.md S9/S10 on 5.10 (F = 1.25 × 2000000 × util / 1024): util 100
 * → 244140 → OPP 500000; util 300 → 732421 → 1000000. The observed
 * frequency follows 2 ms later (traces/freq_prediction-pass.txt).
 */
static void test_freq_intervals(void **state)
{
	char buf[512];
	struct run u;

	(void)state;
	run_fixture(&u, "freq_prediction-pass.txt", NULL);
	render(&u.s, AN_SER_FREQ, buf, sizeof(buf));
	assert_string_equal(buf, "50001000:500000/-1;50001100:500000/500000;"
			    "50002000:500000/1000000;50004000:1000000/1000000;"
			    "50010000:1000000/500000;50015000:500000/500000");
	assert_int_equal(u.s.nr_policies, 1);
	assert_int_equal(u.s.policy[0].nr_opps, 4);
	assert_int_equal(u.s.policy[0].opp_khz[3], 2000000);
	assert_int_equal(u.s.policy[0].rate_limit_us, 1000);
	run_free(&u);
}

struct policy_render {
	int policy;
	char *buf;
	size_t len, at;
};

static int render_policy_one(void *ctx, const struct an_series_rec *rec)
{
	struct policy_render *c = ctx;
	int n;

	if (rec->kind != AN_SER_FREQ || rec->policy != c->policy)
		return 0;
	n = snprintf(c->buf + c->at, c->len - c->at, "%s%llu-%llu:%d:%lld/%lld", c->at ? ";" : "",
		     (unsigned long long)(rec->ts_start_ns / 1000),
		     (unsigned long long)(rec->ts_end_ns / 1000), rec->cpu,
		     rec->has & AN_SER_HAS(AN_SER_FQ_OBS) ? rec->v[AN_SER_FQ_OBS] : -1,
		     rec->has & AN_SER_HAS(AN_SER_FQ_EXP) ? rec->v[AN_SER_FQ_EXP] : -1);
	assert_true(n > 0 && (size_t)n < c->len - c->at);
	c->at += (size_t)n;
	return 0;
}

/* The frequency rows of policy id @policy: "start_us-end_us:cpu:obs/exp;..." */
static void render_policy(struct an_series *s, int policy, char *buf, size_t len)
{
	struct policy_render c = { .policy = policy, .buf = buf, .len = len };

	buf[0] = '\0';
	assert_int_equal(an_series_for_each(s, render_policy_one, &c), 0);
}

/*
 * A cpu marker moves CPU 0 out of policy 0 into a new policy 7 at 50.003000
 * and nothing else changes: the same observed and predicted frequency. The
 * policies are rebuilt (the first slot is now policy 7, with CPU 0; policy
 * 0 keeps CPU 1), so policy 0's row of CPU 0 must end there and policy 7
 * start its own: a row that repeats its values is kept only while the
 * policy stays the one it was composed for (record_freq(): the policy
 * generation; update(): the row's policy and CPU). Until this test, the
 * row went on as policy 0 to the end, beside the new policy 0 row, and
 * policy 7 had none.
 */
static void test_freq_policy_redefined(void **state)
{
	static const char text[] =
		"# tracer: nop\n"
		"ucval-1 [000] .... 50.000000: tracing_mark_write: ucval: platform cpus=2 "
		"model=mainline kernel=5.10.0 groups=5 tick_us=4000\n"
		"ucval-1 [000] .... 50.000010: tracing_mark_write: ucval: cpu cpu=0 policy=0 "
		"capacity=1024 freqs=500000,1000000,1500000,2000000 rate_limit_us=1000\n"
		"ucval-1 [000] .... 50.000020: tracing_mark_write: ucval: cpu cpu=1 policy=0 "
		"capacity=1024 freqs=500000,1000000,1500000,2000000 rate_limit_us=1000\n"
		"<idle>-0 [000] d..2 50.000100: cpu_frequency: state=500000 cpu_id=0\n"
		"<idle>-0 [000] d..2 50.000200: cpu_frequency: state=500000 cpu_id=1\n"
		"<idle>-0 [000] d..3 50.001000: sched_switch: prev_comm=swapper/0 prev_pid=0 "
		"prev_prio=120 prev_state=R ==> next_comm=a next_pid=100 next_prio=120\n"
		"a-100 [000] d..2 50.001100: sched_pelt_cfs: cpu=0 path=/ util=100\n"
		"<idle>-0 [001] d..3 50.001150: sched_switch: prev_comm=swapper/1 prev_pid=0 "
		"prev_prio=120 prev_state=R ==> next_comm=b next_pid=200 next_prio=120\n"
		"b-200 [001] d..2 50.001200: sched_pelt_cfs: cpu=1 path=/ util=0\n"
		"ucval-1 [001] .... 50.003000: tracing_mark_write: ucval: cpu cpu=0 policy=7\n"
		"a-100 [000] d..2 50.005000: sched_pelt_cfs: cpu=0 path=/ util=100\n"
		"a-100 [000] d..3 50.010000: sched_switch: prev_comm=a prev_pid=100 prev_prio=120 "
		"prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n";
	char path[] = "/tmp/ucval-series-XXXXXX", buf[512];
	struct run u;
	int fd;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, sizeof(text) - 1), (ssize_t)(sizeof(text) - 1));
	close(fd);
	run_path(&u, path, NULL);
	unlink(path);
	render_policy(&u.s, 0, buf, sizeof(buf));
	assert_string_equal(buf, "50000200-50001200:0:500000/-1;50001200-50003000:0:500000/500000;"
			    "50003000-50010000:1:500000/500000");
	render_policy(&u.s, 7, buf, sizeof(buf));
	assert_string_equal(buf, "50003000-50010000:0:500000/500000");
	run_free(&u);
}

/*
 * Without a util signal freq_prediction cannot judge: accepted_lo/hi are the
 * bounds of freq_below_min_clamp (the floor, MS1: a's MIN 512 asks
 * 1.25 x 2000000 x 512 / 1024 = 1250000 -> 1500000, binding after the grace
 * as traces/freq_below_min_clamp-fail.expect derives) and of
 * freq_above_max_clamp (rq MAX 1024: the highest OPP, binding from 20.006
 * like the floor; none while a sleeps). -1: NULL.
 */
static void test_freq_bounds(void **state)
{
	static const long long want[][6] = {
		/* start_us - 20 s, end_us - 20 s, observed, lo, hi, is_ok */
		{ 100, 4000, 500000, -1, -1, -1 },
		{ 4000, 6000, 1000000, -1, -1, -1 },
		{ 6000, 9000, 1000000, 1500000, 2000000, 0 },	/* FAIL window 1 */
		{ 9000, 12000, 1500000, 1500000, 2000000, 1 },
		{ 12000, 13000, 1500000, -1, 2000000, 1 },	/* a sleeps: no floor */
		{ 13000, 24000, 500000, -1, 2000000, 1 },
		{ 24000, 25000, 1500000, -1, 2000000, 1 },	/* floor in its grace */
		{ 25000, 30000, 1500000, 1500000, 2000000, 1 },
		{ 30000, 32000, 1000000, 1500000, 2000000, 0 },	/* FAIL window 2 */
		{ 32000, 40000, 1000000, -1, 2000000, 1 },
	};
	struct run u;
	size_t i = 0;

	(void)state;
	run_fixture(&u, "freq_below_min_clamp-fail.txt", NULL);
	assert_int_equal(u.s.nr_freq, ARRAY_SIZE(want));
	for (size_t k = 0; k < u.s.recs.nr_mem; k++) {
		const struct an_series_rec *rec = (const void *)(u.s.recs.mem + k * u.s.recs.size);
		static const int col[] = { AN_SER_FQ_OBS, AN_SER_FQ_LO, AN_SER_FQ_HI, AN_SER_FQ_OK };
		long long got[6];

		if (rec->kind != AN_SER_FREQ)
			continue;
		assert_false(rec->has & AN_SER_HAS(AN_SER_FQ_EXP));
		got[0] = (long long)(rec->ts_start_ns / 1000) - 20000000;
		got[1] = (long long)(rec->ts_end_ns / 1000) - 20000000;
		for (int v = 0; v < 4; v++)
			got[2 + v] = rec->has & AN_SER_HAS(col[v]) ? rec->v[col[v]] : -1;
		for (int v = 0; v < 6; v++)
			if (got[v] != want[i][v])
				fail_msg("freq interval %zu column %d: got %lld want %lld", i, v,
					 got[v], want[i][v]);
		i++;
	}
	run_free(&u);
}

/* Requests with the kernel's and the model's results (uclamp-v3.md VA4, VG7). */
static void test_requests(void **state)
{
	static const long long want[][7] = {
		/* ts_us, pid, flags, min, max, ret, model_ret (-1000: NULL) */
		{ 30000100, 100, 0x30, 20, 50, 0, 0 },
		{ 30000200, 100, 0x10, 60, -1000, 0, -22 },
		{ 30000300, 200, 0x20, -1000, 30, 0, 0 },
		{ 30000400, 300, 0x20, -1000, 40, -28, -28 },
		{ 30000500, 300, 0x10, 10, -1000, -1, -1000 },	/* EPERM: not applied */
	};
	struct an_replay_opts ro = { .model = AN_MODEL_V3, .groups = 2 };
	struct run u;
	size_t i = 0;

	(void)state;
	run_fixture(&u, "request_result-fail.txt", &ro);
	assert_int_equal(u.s.nr_requests, ARRAY_SIZE(want));
	for (size_t k = 0; k < u.s.recs.nr_mem; k++) {
		const struct an_series_rec *rec = (const void *)(u.s.recs.mem + k * u.s.recs.size);
		long long got[7];

		if (rec->kind != AN_SER_REQUEST)
			continue;
		got[0] = (long long)(rec->ts_start_ns / 1000);
		got[1] = rec->pid;
		for (int v = 0; v < 5; v++)
			got[2 + v] = rec->has & AN_SER_HAS(v) ? rec->v[v] : -1000;
		for (int v = 0; v < 7; v++)
			if (got[v] != want[i][v])
				fail_msg("request %zu column %d: got %lld want %lld", i, v, got[v],
					 want[i][v]);
		i++;
	}
	run_free(&u);
}

#define ROWS_PIDS	10000

static int add_task_rec(void *ctx, const struct an_series_rec *rec)
{
	struct an_series_task *row = ctx;
	struct an_series_task t = { .pid = rec->pid, .first_ns = rec->ts_start_ns,
				    .last_ns = rec->ts_end_ns, .n_runs = rec->task.n_runs };

	if (rec->kind != AN_SER_TASK)
		return 0;
	assert_true(rec->pid >= 2 && rec->pid < ROWS_PIDS + 2);
	memcpy(t.comm, rec->task.comm, sizeof(t.comm));
	if (row[rec->pid - 2].pid)
		an_series_task_merge(&row[rec->pid - 2], &t);
	else
		row[rec->pid - 2] = t;
	return 0;
}

/*
 * The `tasks` rows of ROWS_PIDS pids that each run once and exit, with no
 * sched_process_free: the rows of the pids not seen for a while go out as
 * AN_SER_TASK records, so the rows in memory stay few; merged (as the
 * database does) with the rows kept, every pid has its one row.
 */
static void test_tasks_rows_bounded(void **state)
{
	char path[] = "/tmp/ucval-series-pids-XXXXXX";
	struct an_series_task *row = calloc(ROWS_PIDS, sizeof(*row));
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	struct run u;

	(void)state;
	assert_non_null(row);
	assert_non_null(f);
	fprintf(f, "# tracer: nop\n#\ncpus=2\n");
	for (int i = 0; i < ROWS_PIDS; i++) {
		int pid = 2 + i;
		unsigned int us = 10 * (unsigned int)i;

		fprintf(f, "init-1 [000] 2.%06u: sched_process_fork: comm=init pid=1 child_comm=init"
			" child_pid=%d\n", us, pid);
		fprintf(f, "w-%d [001] 2.%06u: sched_switch: prev_comm=swapper/1 prev_pid=0"
			" prev_prio=120 prev_state=R ==> next_comm=w%d next_pid=%d next_prio=120\n",
			pid, us + 1, i % 3, pid);
		fprintf(f, "w-%d [001] 2.%06u: sched_process_exit: comm=w%d pid=%d prio=120\n",
			pid, us + 2, i % 3, pid);
		fprintf(f, "w-%d [001] 2.%06u: sched_switch: prev_comm=w%d prev_pid=%d prev_prio=120"
			" prev_state=X ==> next_comm=swapper/1 next_pid=0 next_prio=120\n",
			pid, us + 3, i % 3, pid);
	}
	assert_int_equal(fclose(f), 0);
	run_path(&u, path, NULL);
	unlink(path);
	print_message("%zu rows kept, %llu written out\n", u.s.nr_tasks,
		      (unsigned long long)u.s.nr_tasks_out);
	assert_true(u.s.nr_tasks <= 2 * AN_SERIES_TIDY_MIN);
	assert_true(u.s.nr_tasks_out >= ROWS_PIDS - 2 * AN_SERIES_TIDY_MIN);
	assert_int_equal(an_series_for_each(&u.s, add_task_rec, row), 0);
	for (size_t k = 0; k < u.s.nr_tasks; k++) {
		const struct an_series_task *t = &u.s.task[k];

		if (t->pid == 1)
			continue;
		assert_true(t->pid >= 2 && t->pid < ROWS_PIDS + 2);
		if (row[t->pid - 2].pid)
			an_series_task_merge(&row[t->pid - 2], t);
		else
			row[t->pid - 2] = *t;
	}
	for (int i = 0; i < ROWS_PIDS; i++) {
		char comm[16];

		snprintf(comm, sizeof(comm), "w%d", i % 3);
		assert_int_equal(row[i].pid, 2 + i);
		assert_string_equal(row[i].comm, comm);
		assert_int_equal(row[i].n_runs, 1);
		assert_int_equal(row[i].first_ns, 2000000000ull + 10000ull * (unsigned int)i);
		assert_int_equal(row[i].last_ns, row[i].first_ns + 3000);
	}
	run_free(&u);
	free(row);
}

/* ---- the database `ucval analyze --db` writes ---- */

static char db_path[256];

static int db_setup(void **state)
{
	char cmd[8192];
	const char *ucval = getenv("UCVAL");

	(void)state;
	if (!ucval) {
		fprintf(stderr, "UCVAL is not set (run through make check)\n");
		return -1;
	}
	snprintf(db_path, sizeof(db_path), "/tmp/ucval-series-%d.db", (int)getpid());
	unlink(db_path);
	snprintf(cmd, sizeof(cmd),
		 "cd '%s' && UCVAL_NOW=2026-01-01T00:00:00Z '%s' analyze --db '%s' "
		 "traces/*.txt >/dev/null 2>&1",
		 an_test_root(), ucval, db_path);
	return WEXITSTATUS(system(cmd)) == 1 ? 0 : -1;
}

static int db_teardown(void **state)
{
	char wal[300];

	(void)state;
	unlink(db_path);
	snprintf(wal, sizeof(wal), "%s-wal", db_path);
	unlink(wal);
	snprintf(wal, sizeof(wal), "%s-shm", db_path);
	unlink(wal);
	return 0;
}

/* All rows of @sql, "|" between columns and ";" between rows. */
static void query(const char *sql, char *buf, size_t len)
{
	sqlite3 *c;
	sqlite3_stmt *st;
	size_t at = 0;
	int rc;

	buf[0] = '\0';
	assert_int_equal(sqlite3_open_v2(db_path, &c, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	if (sqlite3_prepare_v2(c, sql, -1, &st, NULL) != SQLITE_OK)
		fail_msg("query '%s': %s", sql, sqlite3_errmsg(c));
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		for (int i = 0; i < sqlite3_column_count(st); i++) {
			const unsigned char *v = sqlite3_column_text(st, i);
			int n = snprintf(buf + at, len - at, "%s%s", i ? "|" : at ? ";" : "",
					 v ? (const char *)v : "NULL");

			assert_true(n >= 0 && (size_t)n < len - at);
			at += (size_t)n;
		}
	}
	assert_int_equal(rc, SQLITE_DONE);
	sqlite3_finalize(st);
	sqlite3_close(c);
}

/*
 * freq_residency over the judged time of traces/freq_prediction-pass.txt:
 * per OPP, observed and expected ns; both columns sum to the same span.
 */
static void test_db_residency(void **state)
{
	char buf[1024];

	(void)state;
	query("SELECT khz, observed_ns, expected_ns FROM v_residency"
	      " WHERE path = 'traces/freq_prediction-pass.txt' ORDER BY khz", buf, sizeof(buf));
	assert_string_equal(buf, "500000|7900000|10900000;1000000|11000000|8000000");
	query("SELECT SUM(observed_ns) = SUM(expected_ns) FROM freq_residency", buf, sizeof(buf));
	assert_string_equal(buf, "1");
	query("SELECT policy, cpus, opps_khz, rate_limit_us FROM policies JOIN traces"
	      " USING(trace_id) WHERE path = 'traces/freq_prediction-pass.txt'", buf, sizeof(buf));
	assert_string_equal(buf, "0|0|500000,1000000,1500000,2000000|1000");
}

/* The views of schema 2 answer what docs/database.md says they answer. */
static void test_db_views(void **state)
{
	static const struct {
		const char *sql;
		const char *want;
	} rows[] = {
		{ "SELECT check_id, n_traces, n_pass, n_fail, n_windows FROM v_check_summary"
		  " WHERE check_id = 'rq_clamp'", "rq_clamp|38|7|4|6" },
		{ "SELECT cpu, rule, duration_ns, explain IS NOT NULL FROM v_mismatch_detail"
		  " WHERE check_id = 'rq_clamp' ORDER BY ts_start_ns",
		  "1|VR4|1050000|1;1|VR4|1050000|1;1|VR11|1000000|1;1|VR11|1000000|1;"
		  "1|VR4|1100000|1;1|MR3|950000|1" },
		{ "SELECT uclamp_min, uclamp_max FROM clamp_intervals JOIN traces USING(trace_id)"
		  " WHERE path = 'traces/rq_clamp-fail.txt' AND cpu = 1"
		  " AND ts_start_ns <= 10003050000 AND ts_end_ns > 10003050000", "256|768" },
		{ "PRAGMA user_version", "4" },
		/* rule coverage (schema 4): the rules behind the compared values */
		{ "SELECT group_concat(check_id || ' ' || rule || ' ' || times || ' ' || decided_ns,"
		  " ', ') FROM (SELECT c.* FROM rule_coverage c JOIN traces USING(trace_id)"
		  " WHERE path = 'traces/rq_clamp-fail.txt' ORDER BY c.rowid)",
		  "rq_clamp VR4 3 150000, rq_clamp VR5 1 100000, rq_clamp VR11 2 600000" },
		/* the followed events each fixture has none of (analyze/evlist.h) */
		{ "SELECT events_not_recorded FROM traces"
		  " WHERE path = 'traces/trace_integrity-migrate-pass.txt'",
		  "sched_wakeup_new sched_process_fork sched_process_exit sched_process_free"
		  " cpu_idle" },
		{ "SELECT events_not_recorded FROM traces"
		  " WHERE path = 'traces/trace_integrity-nomigrate-pass.txt'",
		  "sched_wakeup_new sched_migrate_task sched_process_fork sched_process_exit"
		  " sched_process_free cpu_idle" },
	};
	char buf[1024];

	int nr_wrong = 0;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		query(rows[i].sql, buf, sizeof(buf));
		if (strcmp(buf, rows[i].want) && ++nr_wrong)
			print_error("row %zu: got '%s' want '%s' (%s)\n", i, buf, rows[i].want,
				    rows[i].sql);
	}
	assert_int_equal(nr_wrong, 0);
}

/* The ```sql blocks of docs/database.md's "Querying the database", in order. */
static int readme_queries(char *text, char **q, int max)
{
	char *sec = strstr(text, "\n## Querying the database\n"), *end, *p;
	int n = 0;

	if (!sec)
		return 0;
	end = strstr(sec + 1, "\n## ");
	if (end)
		*end = '\0';
	for (p = sec; n < max && (p = strstr(p, "```sql\n")); n++) {
		q[n] = p + strlen("```sql\n");
		p = strstr(q[n], "```");
		if (!p)
			return n;
		*p++ = '\0';
	}
	return n;
}

/*
 * Each of the ten queries of docs/database.md runs on the fixtures' database and gives
 * what the fixtures say: e.g. 3: the below-min fixture's 5 ms window;
 * 7: 256/768 on CPU 1 at 10.003050 (rq_clamp-fail.txt); 9: the ENOSPC that
 * the groups_exhausted fixture's kernel did not return.
 */
static void test_readme_queries(void **state)
{
	static const char *const first_row[] = {
		"traces/cpu_capacity-fail.txt|freq_above_max_clamp|FAIL|4|1",
		"rq_clamp|38|7|4|27|6|6150000",
		"traces/freq_below_min_clamp-fail.txt|5.0",
		"0|500000|39.5|36.0",
		"NULL|4|0.5",
		"traces/freq_above_max_clamp-fail.txt|freq_above_max_clamp|0|10000000|VS1|"
		"S13   ceiling cpu                  0\nS5    util_cfs+util_rt             1024\n"
		"VR8   clamped util                 300\nS24   irq-scaled + bw_dl           300\n"
		"S9    raw target kHz               732421\nS10   ceiling OPP kHz              1000000\n",
		"256|768",
		"traces/freq_prediction-fail.txt|22.9",
		"traces/groups_exhausted-fail.txt|40000300000|300|NULL|128|0|-28",
		"freq_prediction|0|28|185.93|cpu 0: prediction not judged: no util signal yet "
		"for a cpu of the policy",
	};
	static char buf[1 << 17];
	char path[4200], *text, *q[16];
	int n, nr_wrong = 0;
	FILE *f;
	long len;

	(void)state;
	snprintf(path, sizeof(path), "%s/docs/database.md", an_test_root());
	f = fopen(path, "r");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	text = calloc(1, (size_t)len + 1);
	assert_non_null(text);
	assert_int_equal(fread(text, 1, (size_t)len, f), (size_t)len);
	fclose(f);
	n = readme_queries(text, q, 16);
	assert_int_equal(n, ARRAY_SIZE(first_row));
	for (int i = 0; i < n; i++) {
		char *semi;

		query(q[i], buf, sizeof(buf));
		semi = strchr(buf, ';');
		if (semi)
			*semi = '\0';
		if (strcmp(buf, first_row[i]) && ++nr_wrong)
			print_error("docs/database.md query %d: first row '%s', want '%s'\n",
				    i + 1, buf, first_row[i]);
	}
	free(text);
	assert_int_equal(nr_wrong, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clamp_intervals),
		cmocka_unit_test(test_explain_rq),
		cmocka_unit_test(test_explain_checks),
		cmocka_unit_test(test_freq_intervals),
		cmocka_unit_test(test_freq_bounds),
		cmocka_unit_test(test_freq_policy_redefined),
		cmocka_unit_test(test_requests),
		cmocka_unit_test(test_tasks_rows_bounded),
	};
	const struct CMUnitTest db_tests[] = {
		cmocka_unit_test(test_db_residency),
		cmocka_unit_test(test_db_views),
		cmocka_unit_test(test_readme_queries),
	};

	return cmocka_run_group_tests(tests, NULL, NULL) |
	       cmocka_run_group_tests(db_tests, db_setup, db_teardown);
}
