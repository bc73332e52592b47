// SPDX-License-Identifier: MIT
/*
 * tests/test_an_freq.c - the frequency checks (analyze/checks/freqstate.c,
 * check_freq_below_min_clamp.c, check_freq_above_max_clamp.c,
 * check_freq_prediction.c).
 *
 * Rows are small ftrace text traces replayed event by event through
 * an_replay_event(); each names the rule it covers and states the verdict
 * and every FAIL window of its check, derived by hand in the row's comment.
 * Platform A of schedutil.md §9 throughout: OPPs 500/1000/1500/2000 MHz,
 * F = 2000000, capacity 1024, tick 4000 us. The public Juno trace comes
 * last, with its freq_prediction figures.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analyze.h"
#include "analyze/checks/freqstate.h"
#include "lib/malloc.h"
#include "analyze/read/reader.h"
#include "an_testutil.h"
#include "an_replaytest.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define TEXT_LEN 2048

/* Event lines: "<comm>-<pid> [cpu] <s.us>: <event>: <fields>". */
#define MARK(ts, text) "ucval-1 [000] " ts ": tracing_mark_write: ucval: " text "\n"
#define SW(cpu, ts, prev, pprio, pstate, next, nprio)					\
	"x-1 [00" #cpu "] " ts ": sched_switch: prev_comm=t" #prev " prev_pid=" #prev	\
	" prev_prio=" #pprio " prev_state=" pstate " ==> next_comm=t" #next		\
	" next_pid=" #next " next_prio=" #nprio "\n"
#define WAKE(cpu, ts, pid, prio)							\
	"x-1 [00" #cpu "] " ts ": sched_wakeup: comm=t" #pid " pid=" #pid " prio=" #prio	\
	" target_cpu=00" #cpu "\n"
#define FREQ(cpu, ts, khz) \
	"x-1 [00" #cpu "] " ts ": cpu_frequency: state=" #khz " cpu_id=" #cpu "\n"
#define PELT(cpu, ts, util) \
	"x-1 [00" #cpu "] " ts ": sched_pelt_cfs: cpu=" #cpu " path=/ util=" #util "\n"
/* schedutil_util with the evaluation's rq clock (patch 0003) */
#define SUTIL(cpu, ts, util, clock) "x-1 [00" #cpu "] " ts ": schedutil_util: cpu=" #cpu	\
	" util_cfs=" #util " util_rt=0 util_clamp=" #util " util_max=1024 time=" #clock "\n"
#define UCFS(cpu, ts, min, max)							\
	"x-1 [00" #cpu "] " ts ": uclamp_util_cfs: cpu=" #cpu " util_avg=1 uclamp_avg=1"	\
	" uclamp_min=" #min " uclamp_max=" #max "\n"
#define IDLE(cpu, ts) "x-1 [00" #cpu "] " ts ": cpu_idle: state=1 cpu_id=" #cpu "\n"
#define IDLEX(cpu, ts) "x-1 [00" #cpu "] " ts ": cpu_idle: state=4294967295 cpu_id=" #cpu "\n"
/* sugov:0 (pid 50, DL as 5.x shows it) switching on CPU 0. */
#define SUGOV_IN(ts) "x-1 [000] " ts ": sched_switch: prev_comm=swapper/0 prev_pid=0 "	\
	"prev_prio=120 prev_state=R ==> next_comm=sugov:0 next_pid=50 next_prio=-1\n"
#define SUGOV_OUT(ts, st) "sugov:0-50 [000] " ts ": sched_switch: prev_comm=sugov:0 "	\
	"prev_pid=50 prev_prio=-1 prev_state=" st " ==> next_comm=swapper/0 next_pid=0 "	\
	"next_prio=120\n"
#define SUGOV_FREQ(ts, khz) "sugov:0-50 [000] " ts ": cpu_frequency: state=" #khz " cpu_id=0\n"

#define OPPS "capacity=1024 freqs=500000,1000000,1500000,2000000"
#define PLAT(cpus, what) MARK("9.000000", "platform cpus=" #cpus " " what " groups=5 tick_us=4000")
#define CPU(n, pol, rl) MARK("9.00001" #n, "cpu cpu=" #n " policy=" #pol " " OPPS " rate_limit_us=" #rl)
#define ML61 PLAT(1, "model=mainline kernel=6.1.0") CPU(0, 0, 1000)
#define ML510(rl) PLAT(1, "model=mainline kernel=5.10.0") CPU(0, 0, rl)
#define V3 PLAT(1, "model=v3 scale=1024") CPU(0, 0, 1000)
#define TASK(pid, what) MARK("9.1", "task pid=" #pid " comm=t" #pid " " what)

/* "cpu:start-end expected>observed rule" of each FAIL window of @check, ";"-joined. */
static void render(const struct an_test_windows *c, enum an_check_id check, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (unsigned int i = 0; i < c->nr && n < len; i++) {
		const struct an_window *w = &c->w[i];

		if (!w->is_fail || w->check != check)
			continue;
		n += (size_t)snprintf(buf + n, len - n, "%s%d:%llu-%llu %lld>%lld %s",
				      n ? ";" : "", w->cpu, (unsigned long long)w->ts_start_ns,
				      (unsigned long long)w->ts_end_ns, w->expected, w->observed,
				      w->rule);
	}
}

/* ---- grace of one bound (freqstate.c) ---- */

/* One step of a bound script: set+step at t, or query the bound at t. */
struct bstep {
	char op;		/* 's' set (then step), 'q' query */
	uint64_t t;
	unsigned int khz;	/* 's': new expectation; 'q': expected bound */
	bool is_eval;		/* 's': a scheduler event of the policy */
	bool is_busy;		/* 's': a CPU runs a task after it */
};

static const struct bound_case {
	const char *rule;
	const char *name;
	enum an_fq_side side;
	struct bstep step[8];
} bound_cases[] = {
	/* rl 1000, tail 4000, tick 4000 (units: µs below, ns in the code) */
	{ "events.md §4", "a looser floor binds at once", AN_FQ_LOWER, {
		{ 's', 0, 1500, true, true }, { 'q', 6000, 1500, false, false },
		{ 's', 7000, 500, true, true }, { 'q', 7000, 500, false, false } } },
	{ "events.md §4", "a stricter floor binds after event + rl + tick", AN_FQ_LOWER, {
		{ 's', 0, 1000, true, true }, { 'q', 4999, 0, false, false }, { 'q', 5000, 0, false, false },
		{ 'q', 5001, 1000, false, false } } },
	{ "S2", "a request on a busy CPU: its tick is the scheduler event", AN_FQ_LOWER, {
		{ 's', 0, 1000, false, true }, { 'q', 9000, 0, false, false }, { 'q', 9001, 1000, false, false } } },
	{ "S3", "an idle policy waits for an event after the rate limit", AN_FQ_LOWER, {
		{ 's', 0, 1000, true, false }, { 's', 500, 1000, true, false },
		{ 'q', 50000, 0, false, false }, { 's', 50000, 1000, true, false }, { 'q', 54000, 0, false, false },
		{ 'q', 54001, 1000, false, false } } },
	{ "events.md §4", "the loosest floor within its grace binds", AN_FQ_LOWER, {
		{ 's', 0, 500, true, true }, { 'q', 5001, 500, false, false },
		{ 's', 6000, 2000, true, true }, { 's', 8000, 1000, true, true },
		{ 'q', 11001, 1000, false, false }, { 'q', 13001, 1000, false, false } } },
	{ "events.md §4", "a ceiling mirrors it", AN_FQ_UPPER, {
		{ 's', 0, 1000, true, true }, { 'q', 5000, AN_FQ_NO_CEILING_KHZ, false, false },
		{ 'q', 5001, 1000, false, false }, { 's', 6000, 2000, false, true }, { 'q', 6000, 2000, false, false } } },
};

/*
 * Whether an_fq_bound_step() at @t leaves @b as it is, whatever the event
 * (scheduler event or not, busy policy or not).
 */
static bool is_step_noop(const struct an_fq_bound *b, uint64_t t, const struct an_fq_times *g)
{
	for (int k = 0; k < 4; k++) {
		struct an_fq_bound x;

		memcpy(&x, b, sizeof(x));
		an_fq_bound_step(&x, t, k & 1, k & 2, g);
		if (memcmp(&x, b, sizeof(x)))
			return false;
	}
	return true;
}

/*
 * Each case of bound_cases, and at every step: when an_fq_bound_is_due()
 * says time alone changes nothing before t (the checks then skip the
 * policy), the elapse and the drops indeed leave the bound as it was; when
 * an_fq_bound_quiet_until() is after t (freq_below_min_clamp then skips a
 * quiet policy's pass), a grace step at t leaves it too, for any event.
 */
static void test_bound(void **state)
{
	static const struct an_fq_times g = { 1000000, 4000000, 4000000 };
	unsigned int nr_due = 0, nr_idle = 0, nr_quiet = 0, nr_loud = 0;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(bound_cases); i++) {
		const struct bound_case *c = &bound_cases[i];
		struct an_fq_bound b;
		bool is_busy = false;

		an_fq_bound_init(&b, c->side);
		for (size_t k = 0; k < ARRAY_SIZE(c->step) && c->step[k].op; k++) {
			const struct bstep *s = &c->step[k];
			uint64_t t = s->t * 1000, when;
			bool is_due = an_fq_bound_is_due(&b, t);
			struct an_fq_bound was;

			memcpy(&was, &b, sizeof(b));
			an_fq_bound_elapse(&b, t, is_busy, &g);
			while (an_fq_bound_next_drop(&b, t, &when))
				an_fq_bound_drop(&b, when);
			if (!is_due && memcmp(&was, &b, sizeof(b)))
				fail_msg("%s (%s) step %zu: not due, yet time changed the bound",
					 c->name, c->rule, k);
			nr_due += is_due;
			nr_idle += !is_due && b.nr;
			if (s->op == 'q') {
				if (an_fq_bound_now(&b) != s->khz)
					fail_msg("%s (%s) step %zu: bound %u want %u", c->name,
						 c->rule, k, an_fq_bound_now(&b), s->khz);
				continue;
			}
			an_fq_bound_set(&b, s->khz);
			if (t < an_fq_bound_quiet_until(&b) && !is_step_noop(&b, t, &g))
				fail_msg("%s (%s) step %zu: quiet, yet a step changed the bound",
					 c->name, c->rule, k);
			nr_quiet += b.nr && t < an_fq_bound_quiet_until(&b);
			nr_loud += !is_step_noop(&b, t, &g);
			an_fq_bound_step(&b, t, s->is_eval, s->is_busy, &g);
			is_busy = s->is_busy;
			/* the next instant: quiet until the first evaluation chance */
			if (t + 1 < an_fq_bound_quiet_until(&b) && !is_step_noop(&b, t + 1, &g))
				fail_msg("%s (%s) step %zu: quiet at t + 1 ns, yet a step changed "
					 "the bound", c->name, c->rule, k);
			nr_quiet += b.nr && t + 1 < an_fq_bound_quiet_until(&b);
		}
	}
	/* both answers were asked, the second with expectations waiting */
	assert_true(nr_due >= 3);
	assert_true(nr_idle >= 1);
	/* quiet with expectations waiting, and steps that did change a bound */
	assert_true(nr_quiet >= 2);
	assert_true(nr_loud >= 3);
}

/* ---- the checks on small traces ---- */

static const struct row {
	const char *rule;
	const char *name;
	struct an_replay_opts opts;
	enum an_check_id check;
	const char *text;
	enum an_verdict verdict;
	const char *windows;	/* render() of its FAIL windows */
	unsigned int min_undecided;
	int is_hiding;		/* -1: not checked */
} rows[] = {
	/* a asks min 512: floor (F*(512+128)/1024 = 1250000) 1500000 while a runs;
	 * switch at 10.001 + 1 ms + 4 ms: binds from 10.006 */
	{ "MS1", "floor reached within the grace", { 0 }, AN_CHECK_FREQ_BELOW_MIN_CLAMP,
	  ML61 TASK(100, "util_min=512") FREQ(0, "10.000100", 500000)
	  SW(0, "10.001000", 0, 120, "R", 100, 120) FREQ(0, "10.004000", 1500000)
	  SW(0, "10.010000", 100, 120, "S", 0, 120),
	  AN_PASS, "", 1, 0 },
	{ "MS1", "floor violated beyond the grace", { 0 }, AN_CHECK_FREQ_BELOW_MIN_CLAMP,
	  ML61 TASK(100, "util_min=512") FREQ(0, "10.000100", 500000)
	  SW(0, "10.001000", 0, 120, "R", 100, 120) FREQ(0, "10.008000", 1500000)
	  SW(0, "10.010000", 100, 120, "S", 0, 120),
	  AN_FAIL, "0:10006000000-10008000000 1500000>500000 MS1", 1, 0 },
	{ "events.md §4", "below the floor for less than the grace", { 0 },
	  AN_CHECK_FREQ_BELOW_MIN_CLAMP,
	  ML61 TASK(100, "util_min=512") FREQ(0, "10.000100", 500000)
	  SW(0, "10.001000", 0, 120, "R", 100, 120) FREQ(0, "10.005999", 1500000)
	  SW(0, "10.010000", 100, 120, "S", 0, 120),
	  AN_PASS, "", 1, 0 },
	{ "events.md §4", "floor reached at the very end of the grace", { 0 },
	  AN_CHECK_FREQ_BELOW_MIN_CLAMP,
	  ML61 TASK(100, "util_min=512") FREQ(0, "10.000100", 500000)
	  SW(0, "10.001000", 0, 120, "R", 100, 120) FREQ(0, "10.006000", 1500000)
	  SW(0, "10.010000", 100, 120, "S", 0, 120),
	  AN_PASS, "", 1, 0 },
	/* 6.8+: no headroom on the clamp, F*512/1024 = 1000000 is the floor */
	{ "MS5", "6.8 floor without headroom", { 0 }, AN_CHECK_FREQ_BELOW_MIN_CLAMP,
	  PLAT(1, "model=mainline kernel=6.8.0") CPU(0, 0, 1000) TASK(100, "util_min=512")
	  FREQ(0, "10.000100", 1000000) SW(0, "10.001000", 0, 120, "R", 100, 120)
	  SW(0, "10.010000", 100, 120, "S", 0, 120),
	  AN_PASS, "", 0, -1 },
	{ "MS1", "6.1 floor with headroom", { 0 }, AN_CHECK_FREQ_BELOW_MIN_CLAMP,
	  ML61 TASK(100, "util_min=512") FREQ(0, "10.000100", 1000000)
	  SW(0, "10.001000", 0, 120, "R", 100, 120) SW(0, "10.010000", 100, 120, "S", 0, 120),
	  AN_FAIL, "0:10006000000-10010000000 1500000>1000000 MS1", 0, -1 },
	/* a request while a runs: its tick (by 10.006) starts the grace: 10.011 */
	{ "S2", "request on a running task, no traced event", { 0 },
	  AN_CHECK_FREQ_BELOW_MIN_CLAMP,
	  ML61 TASK(100, "util_min=0") FREQ(0, "10.000100", 500000)
	  SW(0, "10.001000", 0, 120, "R", 100, 120)
	  MARK("10.002000", "setattr pid=100 util_min=512 flags=0x20 ret=0")
	  SW(0, "10.020000", 100, 120, "S", 0, 120),
	  AN_FAIL, "0:10011000000-10020000000 1500000>500000 MS1", 0, -1 },
	/* CPU 0 never switches: its runqueue stays unknown */
	{ "events.md §4", "unknown runqueue: UNDECIDED", { 0 }, AN_CHECK_FREQ_BELOW_MIN_CLAMP,
	  ML61 TASK(100, "util_min=512") FREQ(0, "10.000100", 500000)
	  WAKE(0, "10.001000", 100, 120) FREQ(0, "10.008000", 1000000) IDLE(0, "10.010000"),
	  AN_UNDECIDED, "", 1, 0 },
	/* lost events forget CPU 0: the doubt may hide a failure */
	{ "EV-LOST", "lost events: UNDECIDED windows hide", { 0 }, AN_CHECK_FREQ_BELOW_MIN_CLAMP,
	  ML61 TASK(100, "util_min=512") FREQ(0, "10.000100", 1500000)
	  SW(0, "10.001000", 0, 120, "R", 100, 120) "CPU:0 [LOST 3 EVENTS]\n"
	  FREQ(0, "10.008000", 500000) SW(0, "10.020000", 100, 120, "S", 0, 120),
	  AN_PASS, "", 1, 1 },
	/* the loss may have hidden a raise to 1500000 (found by ucval synth
	 * --fault lost-events): the frequency is unknown until the next
	 * cpu_frequency, and the grace end at 10.006 lies in the lost window
	 * (10.001-10.010): no FAIL, UNDECIDED windows that may hide one. (a
	 * stays queued while b runs: its floor holds until 10.060.) */
	{ "EV-LOST", "a stale frequency after lost events is not trusted", { 0 },
	  AN_CHECK_FREQ_BELOW_MIN_CLAMP,
	  ML61 TASK(100, "util_min=512") FREQ(0, "10.000100", 500000)
	  SW(0, "10.001000", 0, 120, "R", 100, 120) "CPU:0 [LOST 1 EVENTS]\n"
	  WAKE(0, "10.010000", 200, 120) SW(0, "10.011000", 100, 120, "R+", 200, 120)
	  SW(0, "10.040000", 200, 120, "S", 100, 120) SW(0, "10.060000", 100, 120, "S", 0, 120),
	  AN_PASS, "", 1, 1 },
	{ "MS1", "... which the same trace without the loss fails", { 0 },
	  AN_CHECK_FREQ_BELOW_MIN_CLAMP,
	  ML61 TASK(100, "util_min=512") FREQ(0, "10.000100", 500000)
	  SW(0, "10.001000", 0, 120, "R", 100, 120)
	  WAKE(0, "10.010000", 200, 120) SW(0, "10.011000", 100, 120, "R+", 200, 120)
	  SW(0, "10.040000", 200, 120, "S", 100, 120) SW(0, "10.060000", 100, 120, "S", 0, 120),
	  AN_FAIL, "0:10006000000-10060000000 1500000>500000 MS1", 0, -1 },
	/* the S15 row below with a loss between the two changes: the interval
	 * between them is not measured */
	{ "EV-LOST", "no rate-limit verdict across lost events", { 0 }, AN_CHECK_FREQ_PREDICTION,
	  ML510(10000) FREQ(0, "10.000100", 500000) SW(0, "10.001000", 0, 120, "R", 100, 120)
	  PELT(0, "10.001100", 300) FREQ(0, "10.003000", 1000000) PELT(0, "10.004000", 500)
	  "CPU:0 [LOST 2 EVENTS]\n" FREQ(0, "10.005000", 1500000)
	  SW(0, "10.030000", 100, 120, "S", 0, 120),
	  AN_PASS, "", 1, 1 },
	/* a (CPU 0) and b (CPU 1) ask max 300, one policy: (F+F/4)*300/1024 =
	 * 732421 -> 1000000; b's CPU keeps MAX 300 once idle (VR11) */
	{ "VR11", "ceiling with idle-retained MAX on a shared policy", { 0 },
	  AN_CHECK_FREQ_ABOVE_MAX_CLAMP,
	  PLAT(2, "model=v3 scale=1024") CPU(0, 0, 1000) CPU(1, 0, 1000)
	  TASK(100, "util_max=300") TASK(200, "util_max=300") FREQ(0, "10.000100", 2000000)
	  SW(1, "10.001000", 0, 120, "R", 200, 120) SW(1, "10.001500", 200, 120, "S", 0, 120)
	  SW(0, "10.002000", 0, 120, "R", 100, 120) FREQ(0, "10.012000", 1000000)
	  IDLE(0, "10.020000"),
	  AN_FAIL, "0:10007000000-10012000000 1000000>2000000 VS1", 1, 0 },
	{ "MR4", "the same in mainline 6.1", { 0 }, AN_CHECK_FREQ_ABOVE_MAX_CLAMP,
	  PLAT(2, "model=mainline kernel=6.1.0") CPU(0, 0, 1000) CPU(1, 0, 1000)
	  TASK(100, "util_max=300") TASK(200, "util_max=300") FREQ(0, "10.000100", 2000000)
	  SW(1, "10.001000", 0, 120, "R", 200, 120) SW(1, "10.001500", 200, 120, "S", 0, 120)
	  SW(0, "10.002000", 0, 120, "R", 100, 120) FREQ(0, "10.012000", 1000000)
	  IDLE(0, "10.020000"),
	  AN_FAIL, "0:10007000000-10012000000 1000000>2000000 MS1", 1, 0 },
	/* r (RT, max 300) queued from 10.0015: seed returns the capacity (VS1.2) */
	{ "VS1.2", "RT runnable: no ceiling (v3 seed)", { .fidelity = MODEL_SEED },
	  AN_CHECK_FREQ_ABOVE_MAX_CLAMP,
	  V3 TASK(100, "util_max=300") TASK(300, "util_max=300") FREQ(0, "10.000100", 1000000)
	  SW(0, "10.001000", 0, 120, "R", 100, 120) WAKE(0, "10.001500", 300, 49)
	  FREQ(0, "10.002000", 2000000) SW(0, "10.003000", 100, 120, "R+", 300, 49)
	  SW(0, "10.020000", 300, 49, "S", 0, 120) FREQ(0, "10.020000", 1000000),
	  AN_PASS, "", 0, -1 },
	{ "VQ12", "RT runnable: clamped like CFS (v3 intent)", { 0 },
	  AN_CHECK_FREQ_ABOVE_MAX_CLAMP,
	  V3 TASK(100, "util_max=300") TASK(300, "util_max=300") FREQ(0, "10.000100", 1000000)
	  SW(0, "10.001000", 0, 120, "R", 100, 120) WAKE(0, "10.001500", 300, 49)
	  FREQ(0, "10.002000", 2000000) SW(0, "10.003000", 100, 120, "R+", 300, 49)
	  SW(0, "10.020000", 300, 49, "S", 0, 120) FREQ(0, "10.020000", 1000000),
	  AN_FAIL, "0:10006000000-10020000000 1000000>2000000 VS1", 0, -1 },
	/* a runs at 2000000 from 10.001; its max drops to 300 at 10.002 (ceiling
	 * (F+F/4)*300/1024 = 732421 -> 1000000, binding from the tick by 10.006 +
	 * 1 ms + 4 ms = 10.011). a stays busy: S18 may hold 2000000 unless the rq
	 * is capped (MS6), which only a util sample of this busy stretch shows. */
	{ "S18", "busy hold: no util signal, the hold is granted", { 0 },
	  AN_CHECK_FREQ_ABOVE_MAX_CLAMP,
	  ML61 TASK(100, "util_max=1024") FREQ(0, "10.000100", 2000000)
	  SW(0, "10.001000", 0, 120, "R", 100, 120)
	  MARK("10.002000", "setattr pid=100 util_max=300 flags=0x40 ret=0")
	  SW(0, "10.020000", 100, 120, "S", 0, 120),
	  AN_PASS, "", 0, -1 },
	{ "MS6", "capped rq (util 900 >= max 300): no busy hold", { 0 },
	  AN_CHECK_FREQ_ABOVE_MAX_CLAMP,
	  ML61 TASK(100, "util_max=1024") FREQ(0, "10.000100", 2000000)
	  SW(0, "10.001000", 0, 120, "R", 100, 120) PELT(0, "10.001100", 900)
	  MARK("10.002000", "setattr pid=100 util_max=300 flags=0x40 ret=0")
	  SW(0, "10.020000", 100, 120, "S", 0, 120),
	  AN_FAIL, "0:10011000000-10020000000 1000000>2000000 MS1", 0, -1 },
	{ "MS6", "util 200 below max 300: not capped, the hold is granted", { 0 },
	  AN_CHECK_FREQ_ABOVE_MAX_CLAMP,
	  ML61 TASK(100, "util_max=1024") FREQ(0, "10.000100", 2000000)
	  SW(0, "10.001000", 0, 120, "R", 100, 120) PELT(0, "10.001100", 200)
	  MARK("10.002000", "setattr pid=100 util_max=300 flags=0x40 ret=0")
	  SW(0, "10.020000", 100, 120, "S", 0, 120),
	  AN_PASS, "", 0, -1 },
	{ "MS6", "a util sample from before the busy stretch is not used", { 0 },
	  AN_CHECK_FREQ_ABOVE_MAX_CLAMP,
	  ML61 TASK(100, "util_max=1024") FREQ(0, "10.000100", 2000000)
	  PELT(0, "10.000500", 900) SW(0, "10.001000", 0, 120, "R", 100, 120)
	  MARK("10.002000", "setattr pid=100 util_max=300 flags=0x40 ret=0")
	  SW(0, "10.020000", 100, 120, "S", 0, 120),
	  AN_PASS, "", 0, -1 },
	{ "S18", "5.10 has no MS6: the hold is granted though capped", { 0 },
	  AN_CHECK_FREQ_ABOVE_MAX_CLAMP,
	  ML510(1000) TASK(100, "util_max=1024") FREQ(0, "10.000100", 2000000)
	  SW(0, "10.001000", 0, 120, "R", 100, 120) PELT(0, "10.001100", 900)
	  MARK("10.002000", "setattr pid=100 util_max=300 flags=0x40 ret=0")
	  SW(0, "10.020000", 100, 120, "S", 0, 120),
	  AN_PASS, "", 0, -1 },
	/* a (max 300) runs: ceiling 1000000 from 10.006. schedutil runs inside
	 * the enqueue of b (no clamp) and raises to 2000000 14 us before the
	 * sched_wakeup that shows b: the kernel's move precedes the event that
	 * explains it, by less than MODEL_SU_EARLY_NS (100 us): no mismatch */
	{ "events.md §4", "the kernel acts on an enqueue before its sched_wakeup", { 0 },
	  AN_CHECK_FREQ_ABOVE_MAX_CLAMP,
	  ML61 TASK(100, "util_max=300") TASK(200, "util_max=1024") FREQ(0, "10.000100", 1000000)
	  SW(0, "10.001000", 0, 120, "R", 100, 120) FREQ(0, "10.010000", 2000000)
	  WAKE(0, "10.010014", 200, 120) SW(0, "10.020000", 100, 120, "S", 200, 120)
	  SW(0, "10.030000", 200, 120, "S", 0, 120),
	  AN_PASS, "", 0, -1 },
	/* the kernel raises to 2000000 10 us before the ceiling's grace ends
	 * (10.006): the window would open at that end, not at the move; b's
	 * sched_wakeup 14 us after the move ends it (make check-kernel, 8 us
	 * windows on the good kernel) */
	{ "events.md §4", "the kernel's early move, then a grace end, then the enqueue", { 0 },
	  AN_CHECK_FREQ_ABOVE_MAX_CLAMP,
	  ML61 TASK(100, "util_max=300") TASK(200, "util_max=1024") FREQ(0, "10.000100", 1000000)
	  SW(0, "10.001000", 0, 120, "R", 100, 120) FREQ(0, "10.005990", 2000000)
	  WAKE(0, "10.006004", 200, 120) SW(0, "10.020000", 100, 120, "S", 200, 120)
	  SW(0, "10.030000", 200, 120, "S", 0, 120),
	  AN_PASS, "", 0, -1 },
	/* the same move 150 us before b shows: no enqueue takes that long */
	{ "MS1", "a move the trace explains only 150 us later", { 0 },
	  AN_CHECK_FREQ_ABOVE_MAX_CLAMP,
	  ML61 TASK(100, "util_max=300") TASK(200, "util_max=1024") FREQ(0, "10.000100", 1000000)
	  SW(0, "10.001000", 0, 120, "R", 100, 120) FREQ(0, "10.010000", 2000000)
	  WAKE(0, "10.010150", 200, 120) SW(0, "10.020000", 100, 120, "S", 200, 120)
	  SW(0, "10.030000", 200, 120, "S", 0, 120),
	  AN_FAIL, "0:10010000000-10010150000 1000000>2000000 MS1", 0, -1 },
	/* 100 (max 100) runs at util_cfs 600 + util_rt 40: prediction 500000.
	 * schedutil, inside the enqueue of 200 (no clamp), takes 640 (S5):
	 * 1562500, OPP 2000000, and moves 40 us before the sched_wakeup; a PELT
	 * update of the CFS root (600) comes between. It carries no RT part:
	 * the RT utilization the trace last showed stays (events.md §4), so the
	 * wakeup predicts 2000000 and the early move is accepted; taken as 0,
	 * 600 would predict 1500000 and fail the kernel's 2000000 once the
	 * grace ends (10.014). */
	{ "S5", "a CFS PELT update keeps the RT utilization last shown", { 0 },
	  AN_CHECK_FREQ_PREDICTION,
	  ML61 TASK(100, "util_max=100") TASK(200, "util_max=1024")
	  FREQ(0, "10.000100", 500000) SW(0, "10.001000", 0, 120, "R", 100, 120)
	  "x-1 [000] 10.005000: schedutil_util: cpu=0 util_cfs=600 util_rt=40"
	  " util_clamp=100 util_max=1024 time=10005000000\n"
	  "x-1 [000] 10.010000: schedutil_util: cpu=0 util_cfs=600 util_rt=40"
	  " util_clamp=640 util_max=1024 time=10010000000\n"
	  FREQ(0, "10.010010", 2000000) PELT(0, "10.010020", 600) WAKE(0, "10.010050", 200, 120)
	  SW(0, "10.020000", 100, 120, "R", 200, 120) SW(0, "10.030000", 200, 120, "S", 0, 120),
	  AN_PASS, "", 0, -1 },
	/* 100 (min 800) runs on CPU 0 at util 300: prediction 2000000. It
	 * sleeps; __schedule() dequeues it and schedutil, on the empty rq (MIN
	 * 0, MAX retained 1024: MR4), chooses 1000000 at 10.010000; the
	 * new-idle balance then pulls 200 (min 600) from CPU 1, which the trace
	 * shows before the switch. The state between is judged at the switch:
	 * the move is 100 us early, then 1500000 comes within the new
	 * prediction's grace. Replayed in trace order alone, the kernel never
	 * saw an empty rq and 10.010000-10.012000 would fail. */
	{ "S10", "schedutil chose at a sleeper's dequeue, before a new-idle pull", { 0 },
	  AN_CHECK_FREQ_PREDICTION,
	  PLAT(2, "model=mainline kernel=6.1.0") CPU(0, 0, 1000) CPU(1, 1, 1000)
	  TASK(100, "util_min=800") TASK(200, "util_min=600")
	  FREQ(0, "10.000100", 2000000) FREQ(1, "10.000100", 2000000)
	  SW(0, "10.001000", 0, 120, "R", 100, 120) SW(1, "10.001000", 0, 120, "R", 300, 120)
	  PELT(0, "10.001100", 300) PELT(1, "10.001100", 1000) WAKE(1, "10.002000", 200, 120)
	  FREQ(0, "10.010000", 1000000)
	  "x-1 [000] 10.010050: sched_migrate_task: comm=t200 pid=200 prio=120 orig_cpu=1"
	  " dest_cpu=0\n"
	  SW(0, "10.010100", 100, 120, "S", 200, 120) FREQ(0, "10.012000", 1500000)
	  SW(0, "10.020000", 200, 120, "S", 0, 120),
	  AN_PASS, "", 0, -1 },
	/* the same under --early-us 200 (emulation: the host deschedules a vCPU
	 * between the dequeue and its event) */
	{ "MS1", "--early-us 200 accepts the 150 us move", { .early_us = 200 },
	  AN_CHECK_FREQ_ABOVE_MAX_CLAMP,
	  ML61 TASK(100, "util_max=300") TASK(200, "util_max=1024") FREQ(0, "10.000100", 1000000)
	  SW(0, "10.001000", 0, 120, "R", 100, 120) FREQ(0, "10.010000", 2000000)
	  WAKE(0, "10.010150", 200, 120) SW(0, "10.020000", 100, 120, "S", 200, 120)
	  SW(0, "10.030000", 200, 120, "S", 0, 120),
	  AN_PASS, "", 0, -1 },
	/* a DL task queued lifts the ceiling (S24); sugov:0 does not */
	{ "S24", "DL runnable: no ceiling", { 0 }, AN_CHECK_FREQ_ABOVE_MAX_CLAMP,
	  ML61 TASK(100, "util_max=300") FREQ(0, "10.000100", 1000000)
	  SW(0, "10.001000", 0, 120, "R", 100, 120) SW(0, "10.001500", 100, 120, "R+", 400, -1)
	  FREQ(0, "10.002000", 2000000) SW(0, "10.020000", 400, -1, "S", 0, 120),
	  AN_PASS, "", 0, -1 },
	{ "S24", "sugov:N is no DL load", { 0 }, AN_CHECK_FREQ_ABOVE_MAX_CLAMP,
	  ML61 TASK(100, "util_max=300") FREQ(0, "10.000100", 1000000)
	  SW(0, "10.001000", 0, 120, "R", 100, 120)
	  "t100-100 [000] 10.001500: sched_switch: prev_comm=t100 prev_pid=100 prev_prio=120 "
	  "prev_state=R+ ==> next_comm=sugov:0 next_pid=50 next_prio=-1\n"
	  SUGOV_FREQ("10.002000", 2000000) SUGOV_OUT("10.020000", "S"),
	  AN_FAIL, "0:10006000000-10020000000 1000000>2000000 MS1", 0, -1 },
	/* util 300 -> 1000000, util 100 -> 500000 (S9 old form, 5.10); a keeps
	 * running: S18 may keep 1000000 on a 1-CPU policy */
	{ "S18", "busy hold accepted", { 0 }, AN_CHECK_FREQ_PREDICTION,
	  ML510(1000) FREQ(0, "10.000100", 1000000) SW(0, "10.001000", 0, 120, "R", 100, 120)
	  PELT(0, "10.001100", 300) PELT(0, "10.010000", 100)
	  SW(0, "10.020000", 100, 120, "S", 0, 120) FREQ(0, "10.020000", 500000),
	  AN_PASS, "", 1, 0 },
	/* util 900 -> 2000000 (5.10); policy 0's max drops to 1000000 at 10.005
	 * while a keeps running: the next evaluation is a forced update (S17,
	 * S27) that the busy hold skips (S18, 5.3+), so 2000000 cannot be held */
#define LIMITS(ts, min, max) "x-1 [000] " ts ": cpu_frequency_limits: min_freq=" #min	\
	" max_freq=" #max " cpu_id=0\n"
	{ "S17", "a limits change ends the busy hold", { 0 }, AN_CHECK_FREQ_PREDICTION,
	  ML510(1000) FREQ(0, "10.000100", 2000000) SW(0, "10.001000", 0, 120, "R", 100, 120)
	  PELT(0, "10.001100", 900) LIMITS("10.005000", 500000, 1000000)
	  PELT(0, "10.006000", 900) SW(0, "10.040000", 100, 120, "S", 0, 120),
	  AN_FAIL, "0:10011000000-10040000000 1000000>2000000 S10", 1, 0 },
	{ "S17", "... the new max reached within the grace", { 0 }, AN_CHECK_FREQ_PREDICTION,
	  ML510(1000) FREQ(0, "10.000100", 2000000) SW(0, "10.001000", 0, 120, "R", 100, 120)
	  PELT(0, "10.001100", 900) LIMITS("10.005000", 500000, 1000000)
	  PELT(0, "10.006000", 900) FREQ(0, "10.006000", 1000000)
	  SW(0, "10.040000", 100, 120, "S", 0, 120),
	  AN_PASS, "", 1, 0 },
#undef LIMITS
	/* a sleeps at 10.010 and runs again 50 us later: the kernel may not
	 * have counted so short an idle for S18 (NO_HZ idle_calls), the hold
	 * goes on */
	{ "S18", "an idle of 50 us may not end the busy stretch", { 0 }, AN_CHECK_FREQ_PREDICTION,
	  ML510(1000) FREQ(0, "10.000100", 1000000) SW(0, "10.001000", 0, 120, "R", 100, 120)
	  PELT(0, "10.001100", 300) SW(0, "10.010000", 100, 120, "S", 0, 120)
	  PELT(0, "10.010020", 100) WAKE(0, "10.010040", 100, 120)
	  SW(0, "10.010050", 0, 120, "R", 100, 120) SW(0, "10.030000", 100, 120, "S", 0, 120)
	  FREQ(0, "10.030000", 500000),
	  AN_PASS, "", 1, 0 },
	/* 2 ms of idle, half a tick: the idle loop of 6.1.192 without a cpuidle
	 * driver stops the tick (and counts) only once a tick fired in idle;
	 * the util 100 of 10.011 (S9: 500000), evaluated in idle, may be held */
	{ "S18", "an idle of 2 ms may not end it, the hold applies in idle", { 0 },
	  AN_CHECK_FREQ_PREDICTION,
	  ML510(1000) FREQ(0, "10.000100", 1000000) SW(0, "10.001000", 0, 120, "R", 100, 120)
	  PELT(0, "10.001100", 300) SW(0, "10.010000", 100, 120, "S", 0, 120)
	  PELT(0, "10.011000", 100) WAKE(0, "10.011990", 100, 120)
	  SW(0, "10.012000", 0, 120, "R", 100, 120) SW(0, "10.030000", 100, 120, "S", 0, 120)
	  FREQ(0, "10.030000", 500000),
	  AN_PASS, "", 1, 0 },
	/* 9 ms of idle spans two ticks (4 ms): counted for certain; the wakeup
	 * at 10.01899 is the first evaluation after it, 500000 binds from
	 * there + 1 ms + 4 ms */
	{ "S18", "an idle of two ticks ends it", { 0 }, AN_CHECK_FREQ_PREDICTION,
	  ML510(1000) FREQ(0, "10.000100", 1000000) SW(0, "10.001000", 0, 120, "R", 100, 120)
	  PELT(0, "10.001100", 300) SW(0, "10.010000", 100, 120, "S", 0, 120)
	  PELT(0, "10.011000", 100) WAKE(0, "10.018990", 100, 120)
	  SW(0, "10.019000", 0, 120, "R", 100, 120) SW(0, "10.030000", 100, 120, "S", 0, 120)
	  FREQ(0, "10.030000", 500000),
	  AN_FAIL, "0:10023990000-10030000000 500000>1000000 S10", 1, 0 },
	/* with cpu_idle events: 12 ms of idle in which the idle loop never went
	 * round again; no tick fired in it (an emulated CPU can sleep through
	 * it; make check-kernel, loaded host), NO_HZ did not count it */
	{ "S18", "cpu_idle: an idle the loop did not go round in may not end it", { 0 },
	  AN_CHECK_FREQ_PREDICTION,
	  ML510(1000) FREQ(0, "10.000100", 1000000) SW(0, "10.001000", 0, 120, "R", 100, 120)
	  PELT(0, "10.001100", 300) SW(0, "10.010000", 100, 120, "S", 0, 120)
	  IDLE(0, "10.010010") PELT(0, "10.021000", 100) IDLEX(0, "10.021990")
	  WAKE(0, "10.021995", 100, 120) SW(0, "10.022000", 0, 120, "R", 100, 120)
	  SW(0, "10.040000", 100, 120, "S", 0, 120) FREQ(0, "10.040000", 500000),
	  AN_PASS, "", 1, 0 },
	/* the same with the loop going round 9 ms in (two ticks): counted; the
	 * util 100 of 10.021 binds from there + 1 ms + 4 ms */
	{ "S18", "cpu_idle: the loop going round two ticks in ends it", { 0 },
	  AN_CHECK_FREQ_PREDICTION,
	  ML510(1000) FREQ(0, "10.000100", 1000000) SW(0, "10.001000", 0, 120, "R", 100, 120)
	  PELT(0, "10.001100", 300) SW(0, "10.010000", 100, 120, "S", 0, 120)
	  IDLE(0, "10.010010") IDLEX(0, "10.018990") IDLE(0, "10.019000")
	  PELT(0, "10.021000", 100) IDLEX(0, "10.021990")
	  WAKE(0, "10.021995", 100, 120) SW(0, "10.022000", 0, 120, "R", 100, 120)
	  SW(0, "10.040000", 100, 120, "S", 0, 120) FREQ(0, "10.040000", 500000),
	  AN_FAIL, "0:10026000000-10040000000 500000>1000000 S10", 1, 0 },
	/* the same idle, but the util 100 of CPU 0 comes from CPU 1, twice (a
	 * nohz balance updating its blocked load; make check-kernel, probes
	 * kernel: counted as evaluations, 500000 bound from 10.034):
	 * schedutil drops an update from outside the policy, so the wakeup at
	 * 10.059995 is the first evaluation, and 500000 binds from 10.064995 */
	{ "S2", "a util sample logged outside the policy is no evaluation", { 0 },
	  AN_CHECK_FREQ_PREDICTION,
	  PLAT(2, "model=mainline kernel=5.10.0") CPU(0, 0, 1000) CPU(1, 1, 1000)
	  FREQ(0, "10.000100", 1000000) SW(0, "10.001000", 0, 120, "R", 100, 120)
	  PELT(0, "10.001100", 300) SW(0, "10.010000", 100, 120, "S", 0, 120)
	  IDLE(0, "10.010010") IDLEX(0, "10.018990") IDLE(0, "10.019000")
	  "x-1 [001] 10.021000: sched_pelt_cfs: cpu=0 path=/ util=100\n"
	  "x-1 [001] 10.030000: sched_pelt_cfs: cpu=0 path=/ util=100\n"
	  IDLEX(0, "10.059990") WAKE(0, "10.059995", 100, 120)
	  SW(0, "10.060000", 0, 120, "R", 100, 120) FREQ(0, "10.062000", 500000)
	  SW(0, "10.080000", 100, 120, "S", 0, 120),
	  AN_PASS, "", 1, 0 },
	/* going round 1 ms in: the wakeup may not have been the tick */
	{ "S18", "cpu_idle: going round 1 ms in may not end it", { 0 },
	  AN_CHECK_FREQ_PREDICTION,
	  ML510(1000) FREQ(0, "10.000100", 1000000) SW(0, "10.001000", 0, 120, "R", 100, 120)
	  PELT(0, "10.001100", 300) SW(0, "10.010000", 100, 120, "S", 0, 120)
	  IDLE(0, "10.010010") IDLEX(0, "10.010990") IDLE(0, "10.011000")
	  PELT(0, "10.021000", 100) IDLEX(0, "10.021990")
	  WAKE(0, "10.021995", 100, 120) SW(0, "10.022000", 0, 120, "R", 100, 120)
	  SW(0, "10.040000", 100, 120, "S", 0, 120) FREQ(0, "10.040000", 500000),
	  AN_PASS, "", 1, 0 },
	/* /a's max goes 307 -> 1024 at 10.010 (the model takes the write at its
	 * first uclamp_tg): a (min 800, in /a/c) gets floor 2000000. The
	 * kernel's walk reaches a at 10.014 (its uclamp_task_eff shows the new
	 * effective min), and the emulated CPU then runs 46 ms without an
	 * evaluation; the first one sets 2000000 (make check-kernel). The grace
	 * starts again where the kernel applies the change, and with
	 * schedutil_util events no tick is assumed between evaluations */
	{ "MS1", "a group write applied late, then no evaluation for 46 ms", { 0 },
	  AN_CHECK_FREQ_BELOW_MIN_CLAMP,
	  ML61 MARK("9.2", "cgroup path=/a util_max=307")
	  MARK("9.3", "task pid=100 comm=t100 util_min=800 cgroup=/a/c")
	  FREQ(0, "10.000100", 1000000) SW(0, "10.001000", 0, 120, "R", 100, 120)
	  SUTIL(0, "10.001200", 300, 1000000)
	  "x-1 [000] 10.010000: uclamp_tg: path=/a clamp_id=1 value=1024 effective=1024\n"
	  SUTIL(0, "10.011000", 300, 11000000)
	  "x-1 [000] 10.013900: uclamp_tg: path=/a/c clamp_id=1 value=1024 effective=1024\n"
	  "x-1 [000] 10.014000: uclamp_task_eff: pid=100 comm=t100 clamp_id=0 value=800 effective=800 bucket_id=3\n"
	  SUTIL(0, "10.060000", 300, 60000000) FREQ(0, "10.060010", 2000000)
	  SW(0, "10.070000", 100, 120, "S", 0, 120),
	  AN_PASS, "", 0, -1 },
	/* the rows below: /a's max at 307, a (pid 100, min 800, in /a/c) runs on
	 * CPU 0 at 1000000 kHz, its effective min shown as 307 */
#define WALK_A_C \
	ML61 MARK("9.2", "cgroup path=/a util_max=307") \
	MARK("9.3", "task pid=100 comm=t100 util_min=800 cgroup=/a/c") \
	FREQ(0, "10.000100", 1000000) SW(0, "10.001000", 0, 120, "R", 100, 120) \
	"x-1 [000] 10.001100: uclamp_task_eff: pid=100 comm=t100 clamp_id=0 value=800 effective=307 bucket_id=1\n"
	/* the walk reaches a only at 10.0165, after the kernel evaluated with
	 * the old clamp at 10.011, 10.013 and 10.016 (the grace, 1 ms to the
	 * chance at 10.013 and 4 ms more, would end at 10.017): the kernel
	 * applies the change at a's uclamp_task_eff, whose effective min moves
	 * from 307 to 800, and the grace starts again there. */
	{ "MS1", "the grace starts again where the kernel applies the change", { 0 },
	  AN_CHECK_FREQ_BELOW_MIN_CLAMP,
	  WALK_A_C
	  SUTIL(0, "10.001200", 300, 1000000)
	  "x-1 [000] 10.010000: uclamp_tg: path=/a clamp_id=1 value=1024 effective=1024\n"
	  SUTIL(0, "10.011000", 300, 11000000) SUTIL(0, "10.013000", 300, 13000000)
	  SUTIL(0, "10.016000", 300, 16000000)
	  "x-1 [000] 10.016400: uclamp_tg: path=/a/c clamp_id=1 value=1024 effective=1024\n"
	  "x-1 [000] 10.016500: uclamp_task_eff: pid=100 comm=t100 clamp_id=0 value=800 effective=800 bucket_id=3\n"
	  SUTIL(0, "10.018500", 300, 18500000) FREQ(0, "10.018600", 2000000)
	  SW(0, "10.030000", 100, 120, "S", 0, 120),
	  AN_PASS, "", 0, -1 },
	/* the same walk slower than the whole grace: it reaches /a/c only at
	 * 10.030, the kernel evaluating with the old clamp until then. While
	 * the walk has yet to reach a task queued on the CPU, its graces wait */
	{ "MS1", "a walk slower than the grace: the grace waits for it", { 0 },
	  AN_CHECK_FREQ_BELOW_MIN_CLAMP,
	  WALK_A_C
	  SUTIL(0, "10.001200", 300, 1000000)
	  "x-1 [000] 10.010000: uclamp_tg: path=/a clamp_id=1 value=1024 effective=1024\n"
	  SUTIL(0, "10.011000", 300, 11000000) SUTIL(0, "10.016000", 300, 16000000)
	  SUTIL(0, "10.021000", 300, 21000000) SUTIL(0, "10.026000", 300, 26000000)
	  "x-1 [000] 10.030000: uclamp_tg: path=/a/c clamp_id=1 value=1024 effective=1024\n"
	  "x-1 [000] 10.030100: uclamp_task_eff: pid=100 comm=t100 clamp_id=0 value=800 effective=800 bucket_id=3\n"
	  SUTIL(0, "10.032000", 300, 32000000) FREQ(0, "10.032100", 2000000)
	  SW(0, "10.040000", 100, 120, "S", 0, 120),
	  AN_PASS, "", 0, -1 },
	/* ... but once the writer shows an event no walk makes, the walk is
	 * over: a kernel still at 1000000 after the grace fails */
	{ "MS1", "a walk ended by the writer's other event: the grace runs", { 0 },
	  AN_CHECK_FREQ_BELOW_MIN_CLAMP,
	  WALK_A_C
	  SUTIL(0, "10.001200", 300, 1000000)
	  "x-1 [000] 10.010000: uclamp_tg: path=/a clamp_id=1 value=1024 effective=1024\n"
	  "x-1 [000] 10.010500: tracing_mark_write: ucval: cgroup path=/a util_max=1024\n"
	  SUTIL(0, "10.011000", 300, 11000000) SUTIL(0, "10.016000", 300, 16000000)
	  SUTIL(0, "10.021000", 300, 21000000) SUTIL(0, "10.026000", 300, 26000000)
	  FREQ(0, "10.032100", 2000000) SW(0, "10.040000", 100, 120, "S", 0, 120),
	  AN_FAIL, "0:10020000000-10032100000 2000000>1000000 MS1", 0, -1 },
	/* a CPU whose evaluations the trace shows is not counted busy: the
	 * older, lower floor's evaluation chance (10.001 + 1 ms) is taken at
	 * its next evaluation, the schedutil_util at 10.002 sharp, and the
	 * floor binds from 10.002 + 4 ms. That event touches nothing the floor
	 * reads, and no time step is due before it: a policy whose floors were
	 * all still must still step their grace there */
	{ "MS1", "a still floor takes its evaluation chance at a util event", { 0 },
	  AN_CHECK_FREQ_BELOW_MIN_CLAMP,
	  ML61 TASK(100, "util_min=512") FREQ(0, "10.000100", 500000)
	  SUTIL(0, "10.000500", 0, 500000) SW(0, "10.001000", 0, 120, "R", 100, 120)
	  SUTIL(0, "10.002000", 300, 2000000) SW(0, "10.010000", 100, 120, "S", 0, 120),
	  AN_FAIL, "0:10006000000-10010000000 1500000>500000 MS1", 0, -1 },
	/* without schedutil_util a busy CPU is evaluated at each tick (4 ms):
	 * from a's uclamp_task_eff at 10.014, 2000000 is due by 10.018 + 1 ms
	 * + 4 ms */
	{ "MS1", "without schedutil_util the tick binds", { 0 },
	  AN_CHECK_FREQ_BELOW_MIN_CLAMP,
	  WALK_A_C
	  "x-1 [000] 10.010000: uclamp_tg: path=/a clamp_id=1 value=1024 effective=1024\n"
	  "x-1 [000] 10.013900: uclamp_tg: path=/a/c clamp_id=1 value=1024 effective=1024\n"
	  "x-1 [000] 10.014000: uclamp_task_eff: pid=100 comm=t100 clamp_id=0 value=800 effective=800 bucket_id=3\n"
	  FREQ(0, "10.060010", 2000000) SW(0, "10.070000", 100, 120, "S", 0, 120),
	  AN_FAIL, "0:10023000000-10060010000 2000000>1000000 MS1", 0, -1 },
#undef WALK_A_C
	/* b ran before the trace showed a switch: the kernel may hold the
	 * 1000000 it set then, though the first util (100) predicts 500000
	 * (seen: make check-kernel, trace start) */
	{ "S18", "a stretch begun before the trace may hold the observed frequency", { 0 },
	  AN_CHECK_FREQ_PREDICTION,
	  ML510(1000) FREQ(0, "10.000100", 1000000) SW(0, "10.001000", 200, 120, "R", 100, 120)
	  PELT(0, "10.001100", 100) SW(0, "10.030000", 100, 120, "S", 0, 120)
	  FREQ(0, "10.030000", 500000),
	  AN_PASS, "", 1, 0 },
	/* the same after two ticks of idle: nothing to hold */
	{ "S18", "after a counted idle the first util binds", { 0 }, AN_CHECK_FREQ_PREDICTION,
	  ML510(1000) FREQ(0, "10.000100", 1000000) SW(0, "10.001000", 200, 120, "S", 0, 120)
	  WAKE(0, "10.010990", 100, 120) SW(0, "10.011000", 0, 120, "R", 100, 120)
	  PELT(0, "10.011100", 100) SW(0, "10.030000", 100, 120, "S", 0, 120)
	  FREQ(0, "10.030000", 500000),
	  AN_FAIL, "0:10016100000-10030000000 500000>1000000 S10", 1, 0 },
	/* CPU 1 (idle, util 0) shares the policy: no hold; 500000 binds from
	 * 10.010 + 1 ms + 4 ms */
	{ "S18", "no busy hold on a shared policy", { 0 }, AN_CHECK_FREQ_PREDICTION,
	  PLAT(2, "model=mainline kernel=5.10.0") CPU(0, 0, 1000) CPU(1, 0, 1000)
	  FREQ(0, "10.000100", 1000000) SW(1, "10.000500", 0, 120, "R", 200, 120)
	  SW(1, "10.000600", 200, 120, "S", 0, 120) PELT(1, "10.000700", 0)
	  SW(0, "10.001000", 0, 120, "R", 100, 120)
	  PELT(0, "10.001100", 300) PELT(0, "10.010000", 100)
	  SW(0, "10.020000", 100, 120, "S", 0, 120) FREQ(0, "10.020000", 500000),
	  AN_FAIL, "0:10015000000-10020000000 500000>1000000 S10", 1, 0 },
	/* rate limit 10 ms: 1000000 at 10.003, 1500000 (util 500) at 10.005 */
	{ "S15", "change earlier than the rate limit", { 0 }, AN_CHECK_FREQ_PREDICTION,
	  ML510(10000) FREQ(0, "10.000100", 500000) SW(0, "10.001000", 0, 120, "R", 100, 120)
	  PELT(0, "10.001100", 300) FREQ(0, "10.003000", 1000000) PELT(0, "10.004000", 500)
	  FREQ(0, "10.005000", 1500000) SW(0, "10.030000", 100, 120, "S", 0, 120),
	  AN_FAIL, "0:10005000000-10013000000 1000000>1500000 S15", 1, 0 },
	/* rate limit 1 ms: the kernel measures it on the rq clock between its
	 * decisions; events 994 us apart are within MODEL_SU_EARLY_NS of it */
	{ "S15", "a change 6 us short of the rate limit is no violation", { 0 },
	  AN_CHECK_FREQ_PREDICTION,
	  ML510(1000) FREQ(0, "10.000100", 500000) SW(0, "10.001000", 0, 120, "R", 100, 120)
	  PELT(0, "10.001100", 300) FREQ(0, "10.003000", 1000000) PELT(0, "10.003900", 500)
	  FREQ(0, "10.003994", 1500000) SW(0, "10.030000", 100, 120, "S", 0, 120),
	  AN_PASS, "", 1, 0 },
	{ "S15", "a change 150 us short of it is one", { 0 }, AN_CHECK_FREQ_PREDICTION,
	  ML510(1000) FREQ(0, "10.000100", 500000) SW(0, "10.001000", 0, 120, "R", 100, 120)
	  PELT(0, "10.001100", 300) FREQ(0, "10.003000", 1000000) PELT(0, "10.003800", 500)
	  FREQ(0, "10.003850", 1500000) SW(0, "10.030000", 100, 120, "S", 0, 120),
	  AN_FAIL, "0:10003850000-10004000000 1000000>1500000 S15", 1, 0 },
	/* schedutil_util gives the rq clock of each decision: the rate limit is
	 * measured on it. Events 417 us apart, decisions 1000 us apart on the
	 * rq clock (a stale clock at the first; make check-kernel, loaded host) */
	{ "S15", "measured on the rq clock: events 417 us apart are fine", { 0 },
	  AN_CHECK_FREQ_PREDICTION,
	  ML510(1000) FREQ(0, "10.000100", 500000) SW(0, "10.001000", 0, 120, "R", 100, 120)
	  SUTIL(0, "10.002990", 300, 7000000) FREQ(0, "10.003000", 1000000)
	  SUTIL(0, "10.003400", 500, 8000000) FREQ(0, "10.003417", 1500000)
	  SW(0, "10.030000", 100, 120, "S", 0, 120),
	  AN_PASS, "", 1, 0 },
	/* events 1200 us apart, decisions 900 us apart on the rq clock: the
	 * kernel broke its own limit; no --early-us allowance applies */
	{ "S15", "measured on the rq clock: 900 us is a violation", { .early_us = 500 },
	  AN_CHECK_FREQ_PREDICTION,
	  ML510(1000) FREQ(0, "10.000100", 500000) SW(0, "10.001000", 0, 120, "R", 100, 120)
	  SUTIL(0, "10.002990", 300, 7000000) FREQ(0, "10.003000", 1000000)
	  SUTIL(0, "10.004190", 500, 7900000) FREQ(0, "10.004200", 1500000)
	  SW(0, "10.030000", 100, 120, "S", 0, 120),
	  AN_FAIL, "0:10004200000-10004300000 1000000>1500000 S15", 1, 0 },
	{ "S15", "--early-us 200: 150 us short is none", { .early_us = 200 }, AN_CHECK_FREQ_PREDICTION,
	  ML510(1000) FREQ(0, "10.000100", 500000) SW(0, "10.001000", 0, 120, "R", 100, 120)
	  PELT(0, "10.001100", 300) FREQ(0, "10.003000", 1000000) PELT(0, "10.003800", 500)
	  FREQ(0, "10.003850", 1500000) SW(0, "10.030000", 100, 120, "S", 0, 120),
	  AN_PASS, "", 1, 0 },
	{ "S17", "a limits change allows the next change at once", { 0 },
	  AN_CHECK_FREQ_PREDICTION,
	  ML510(10000) FREQ(0, "10.000100", 500000) SW(0, "10.001000", 0, 120, "R", 100, 120)
	  PELT(0, "10.001100", 300) FREQ(0, "10.003000", 1000000) PELT(0, "10.004000", 500)
	  "x-1 [000] 10.004500: cpu_frequency_limits: min_freq=500000 max_freq=2000000 cpu_id=0\n"
	  FREQ(0, "10.005000", 1500000) SW(0, "10.030000", 100, 120, "S", 0, 120),
	  AN_PASS, "", 1, 0 },
	/* rate limit 2 ms; sugov:0 runs from 10.001 (emits at 10.004 after a D
	 * wait), again from 10.0041 (emits at 10.0042): 3.1 ms between the runs */
	{ "S26", "kthread latency is not held against the rate limit", { 0 },
	  AN_CHECK_FREQ_PREDICTION,
	  ML510(2000) FREQ(0, "10.000100", 500000) PELT(0, "10.000200", 600)
	  SUGOV_IN("10.001000") SUGOV_OUT("10.001100", "D") SUGOV_IN("10.003900")
	  SUGOV_FREQ("10.004000", 1500000) SUGOV_OUT("10.004050", "S") PELT(0, "10.004080", 900)
	  SUGOV_IN("10.004100") SUGOV_FREQ("10.004200", 2000000) SUGOV_OUT("10.004300", "S")
	  IDLE(0, "10.010000"),
	  AN_PASS, "", 1, 0 },
	/* the policy comes with a cpu marker after the first events: the util
	 * sample taken before it still counts (600 -> 1464843 -> 1500000) */
	{ "S10", "a util sample from before the policy exists", { 0 }, AN_CHECK_FREQ_PREDICTION,
	  PLAT(1, "model=mainline kernel=5.10.0") PELT(0, "10.000050", 600)
	  MARK("10.000080", "cpu cpu=0 policy=0 " OPPS " rate_limit_us=1000")
	  FREQ(0, "10.000100", 1500000) SW(0, "10.001000", 0, 120, "R", 100, 120)
	  IDLE(0, "10.010000"),
	  AN_PASS, "", 0, -1 },
	{ "S15", "the same changes from a fast switch", { 0 }, AN_CHECK_FREQ_PREDICTION,
	  ML510(2000) FREQ(0, "10.000100", 500000) PELT(0, "10.000200", 600)
	  SW(0, "10.001000", 0, 120, "R", 100, 120) FREQ(0, "10.004000", 1500000)
	  PELT(0, "10.004080", 900) FREQ(0, "10.004200", 2000000) IDLE(0, "10.010000"),
	  AN_FAIL, "0:10004200000-10006000000 1500000>2000000 S15", 1, 0 },
	/* 4.14 shared policy: CPU 1's util 900 (10.0007) is stale after a tick
	 * (S12): from 10.010 only CPU 0's util 100 counts (500000) */
	{ "S12", "4.11-4.17: a stale CPU is left out", { 0 }, AN_CHECK_FREQ_PREDICTION,
	  PLAT(2, "model=mainline kernel=4.14.0") CPU(0, 0, 1000) CPU(1, 0, 1000)
	  FREQ(0, "10.000100", 2000000) SW(1, "10.000500", 0, 120, "R", 200, 120)
	  SW(1, "10.000600", 200, 120, "S", 0, 120) PELT(1, "10.000700", 900)
	  SW(0, "10.001000", 0, 120, "R", 100, 120) PELT(0, "10.001100", 100)
	  PELT(0, "10.010000", 100) FREQ(0, "10.012000", 500000)
	  SW(0, "10.020000", 100, 120, "S", 0, 120),
	  AN_PASS, "", 1, 0 },
	{ "S13", "4.19: every CPU counts", { .model = AN_MODEL_MAINLINE, .kernel = "4.19.0" },
	  AN_CHECK_FREQ_PREDICTION,
	  PLAT(2, "model=mainline kernel=4.14.0") CPU(0, 0, 1000) CPU(1, 0, 1000)
	  FREQ(0, "10.000100", 2000000) SW(1, "10.000500", 0, 120, "R", 200, 120)
	  SW(1, "10.000600", 200, 120, "S", 0, 120) PELT(1, "10.000700", 900)
	  SW(0, "10.001000", 0, 120, "R", 100, 120) PELT(0, "10.001100", 100)
	  PELT(0, "10.010000", 100) FREQ(0, "10.012000", 500000)
	  SW(0, "10.020000", 100, 120, "S", 0, 120),
	  AN_FAIL, "0:10012000000-10020000000 2000000>500000 S10", 1, 0 },
};

static void test_rows(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		const struct row *w = &rows[i];
		struct an_test_windows c = { .is_fail_only = true };
		const struct an_check_stats *s;
		struct an_results res;
		struct an_replay *r;
		char got[TEXT_LEN];

		an_results_init(&res, an_test_sink, &c);
		r = an_test_replay_text(w->text, &w->opts, &res, true);
		s = &res.stats[w->check];
		render(&c, w->check, got, sizeof(got));
		if (an_check_verdict(s) != w->verdict || strcmp(got, w->windows) ||
		    s->n_undecided < w->min_undecided ||
		    (w->is_hiding >= 0 && s->is_hiding != (bool)w->is_hiding))
			fail_msg("row %zu (%s): %s: %s checked=%llu undecided=%llu hiding=%d "
				 "windows '%s', want %s '%s'", i, w->rule, w->name,
				 an_verdict_name(an_check_verdict(s)),
				 (unsigned long long)s->n_checked,
				 (unsigned long long)s->n_undecided, s->is_hiding, got,
				 an_verdict_name(w->verdict), w->windows);
		an_replay_free(r);
	}
}

/* Inputs missing: the whole check is UNDECIDED, with the reason. */
static void test_no_input(void **state)
{
	static const struct {
		const char *rule;
		enum an_check_id check;
		const char *text;
		const char *reason;
	} cases[] = {
		{ "events.md §4", AN_CHECK_FREQ_PREDICTION,
		  ML510(1000) FREQ(0, "10.000100", 500000) SW(0, "10.001000", 0, 120, "R", 100, 120),
		  "no input: needs a util signal" },
		{ "events.md §4", AN_CHECK_FREQ_BELOW_MIN_CLAMP,
		  ML61 TASK(100, "util_min=512") SW(0, "10.001000", 0, 120, "R", 100, 120),
		  "no input: needs cpu_frequency events" },
		{ "events.md §3", AN_CHECK_FREQ_ABOVE_MAX_CLAMP,
		  PLAT(1, "model=mainline kernel=6.1.0") TASK(100, "util_max=300")
		  FREQ(0, "10.000100", 500000) SW(0, "10.001000", 0, 120, "R", 100, 120),
		  "no input: no cpufreq policy with an OPP table" },
		{ "events.md §4", AN_CHECK_FREQ_BELOW_MIN_CLAMP,
		  PLAT(1, "kernel=6.1.0") CPU(0, 0, 1000) FREQ(0, "10.000100", 500000)
		  SW(0, "10.001000", 0, 120, "R", 100, 120),
		  "no input: no clamp known" },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct an_check_stats *s;
		struct an_results res;
		struct an_replay *r;

		an_results_init(&res, NULL, NULL);
		r = an_test_replay_text(cases[i].text, NULL, &res, true);
		s = &res.stats[cases[i].check];
		if (s->has_input || an_check_verdict(s) != AN_UNDECIDED || !s->reason ||
		    strncmp(s->reason, cases[i].reason, strlen(cases[i].reason)))
			fail_msg("case %zu (%s): %s has_input=%d reason '%s'", i, cases[i].rule,
				 an_check_name(cases[i].check), s->has_input,
				 s->reason ? s->reason : "");
		an_replay_free(r);
	}
}

/*
 * A uclamp event seen while the trace has no policy yet (the cpu marker
 * comes later) is an input of the clamp checks all the same (events.md §4).
 */
static void test_input_before_policy(void **state)
{
	static const char text[] =
		PLAT(1, "kernel=6.1.0") UCFS(0, "10.000050", 512, 1024)
		MARK("10.000080", "cpu cpu=0 policy=0 " OPPS " rate_limit_us=1000")
		FREQ(0, "10.000100", 1500000) SW(0, "10.001000", 0, 120, "R", 100, 120);
	static const enum an_check_id checks[] = {
		AN_CHECK_FREQ_BELOW_MIN_CLAMP, AN_CHECK_FREQ_ABOVE_MAX_CLAMP,
	};
	struct an_results res;
	struct an_replay *r;

	(void)state;
	an_results_init(&res, NULL, NULL);
	r = an_test_replay_text(text, NULL, &res, true);
	for (size_t i = 0; i < ARRAY_SIZE(checks); i++) {
		const struct an_check_stats *s = &res.stats[checks[i]];

		if (!s->has_input)
			fail_msg("%s: no input ('%s'), want the uclamp event counted",
				 an_check_name(checks[i]), s->reason ? s->reason : "");
	}
	an_replay_free(r);
}

/* The figures of the S26 row: what each counter means, on numbers. */
static void test_figures(void **state)
{
	struct an_freq_figures f;
	struct an_results res;
	struct an_replay *r;
	struct an_replay_opts only = { .checks = AN_CHECK_BIT(AN_CHECK_FREQ_BELOW_MIN_CLAMP) };
	const struct row *w = NULL;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(rows) && !w; i++)
		if (!strcmp(rows[i].rule, "S26"))
			w = &rows[i];
	assert_non_null(w);
	an_results_init(&res, NULL, NULL);
	r = an_test_replay_text(w->text, NULL, &res, true);
	assert_int_equal(an_freq_prediction_figures(r, &f), 0);
	/* CPU 0 is known from sugov's switch at 10.001: first prediction util
	 * 600 -> 1464843 -> 1500000 (no change), then util 900 -> 2197265 ->
	 * 2000000: one predicted change, reached at 10.0042; two observed
	 * changes, both within the accepted range; one judged against the rate
	 * limit (the first has no previous change) */
	assert_int_equal(f.n_predicted, 1);
	assert_int_equal(f.n_predicted_reached, 1);
	assert_int_equal(f.n_observed, 2);
	assert_int_equal(f.n_observed_matched, 2);
	assert_int_equal(f.n_rate_checked, 1);
	assert_int_equal(f.n_rate_violations, 0);
	assert_int_equal(f.n_rate_on_clock, 0);
	assert_int_equal(f.n_mismatched, 0);
	assert_int_equal(f.mismatched_ns, 0);
	assert_int_equal(f.n_intervals, f.n_matched);
	/* judged from 10.001 to the end (10.01) */
	assert_int_equal(f.matched_ns, 10010000000ULL - 10001000000ULL);
	an_replay_free(r);

	an_results_init(&res, NULL, NULL);
	r = an_test_replay_text(w->text, &only, &res, true);
	assert_int_equal(an_freq_prediction_figures(r, &f), -ENOENT);
	assert_int_equal(f.n_intervals, 0);
	an_replay_free(r);

	/* S15 on the rq clock: the second change is judged on schedutil_util's
	 * time; the summary note says so in full (it was cut at 120 bytes) */
	w = NULL;
	for (size_t i = 0; i < ARRAY_SIZE(rows) && !w; i++)
		if (!strcmp(rows[i].name, "measured on the rq clock: events 417 us apart are fine"))
			w = &rows[i];
	assert_non_null(w);
	an_results_init(&res, NULL, NULL);
	r = an_test_replay_text(w->text, NULL, &res, true);
	assert_int_equal(an_freq_prediction_figures(r, &f), 0);
	assert_int_equal(f.n_rate_checked, 1);
	assert_int_equal(f.n_rate_on_clock, 1);
	assert_int_equal(f.n_rate_violations, 0);
	{
		bool is_found = false;

		for (unsigned int i = 0; i < r->nr_notes; i++)
			if (strstr(r->notes[i], "1 changes judged against the rate limit "
						"(1 on the rq clock), 0 too early"))
				is_found = true;
		assert_true(is_found);
	}
	an_replay_free(r);
}

/* ---- the public Juno trace (4.11, schedutil slow path) ---- */

/* Reader -> replay -> finish, as an_analyze_path() does, keeping the replay. */
static struct an_replay *replay_juno(unsigned int grace_us, struct an_results *res,
				     struct an_test_windows *c)
{
	char path[4096], plat[4096];
	struct an_replay_opts o = { .grace_us = grace_us, .nr_cpus = 6 };
	struct an_reader *rd;
	struct an_replay *r;
	struct an_event ev;
	struct an_diag d;
	uint64_t last = 0;
	int err;

	if (!an_test_trace("juno-r0-schedutil-sched_load.dat", path, sizeof(path)) ||
	    !an_test_trace("juno-r0-schedutil-sched_load.platform.json", plat, sizeof(plat)))
		return NULL;
	o.platform_path = plat;
	o.trace_kernel = "4.11.0-rc6";
	an_results_init(res, an_test_sink, c);
	assert_int_equal(an_reader_open(path, &rd, &d), 0);
	assert_int_equal(an_analyze_replay_new(&o, res, &r, &d), 0);
	while ((err = an_reader_next(rd, &ev, &d)) == 1) {
		assert_int_equal(an_replay_event(r, &ev, &d), 0);
		last = ev.ts_ns > last ? ev.ts_ns : last;
	}
	assert_int_equal(err, 0);
	assert_int_equal(an_replay_finish(r, last), 0);
	an_results_finish(res);
	an_reader_close(rd);
	return r;
}

static void test_juno(void **state)
{
	/*
	 * LITTLE (policy 0: CPUs 0,3,4,5, capacity 447, max 850000) and big
	 * (policy 1: CPUs 1,2, 1024, max 1100000); (F + F/4) * util / cap.
	 * No clamps in the trace: both bounds are UNDECIDED for want of input.
	 * freq_prediction with the spec's default rate limit (1000 us) fails 4
	 * times, each checked by hand against `trace-cmd report`:
	 *  - LITTLE decidable from 203.3357 (CPU 4's first switch), predicting
	 *    450000 (utils <= 33); binding 5 ms later. The kernel stays at
	 *    850000 (set after the RT watchdog/0 at 141.4) until CPU 3's util
	 *    reaches 447 at 215.664 (-> 850000);
	 *  - 450000 again from CPU 3's util 109 at 216.554, binding from
	 *    221.567 (first event after the rate limit, + tick): the kernel
	 *    lowers only after sugov:0 (RT before 4.16, S4) wakes at 225.582;
	 *  - CPU 0's util 290 at 229.209 predicts 700000 (logged by CPU 2,
	 *    migration/2 pushing a task: no evaluation of LITTLE, S2), binding
	 *    5 ms after CPU 0's switch at 229.233 (CPU 0 busy); the kernel
	 *    stays at 450000 until 238.605, when CPU
	 *    0's util (233.347) is stale (S12) and the others are low;
	 *  - big: CPU 2's util 419 (625000) drops to 8 at 245.412 (450000);
	 *    big is idle, so the older predictions' graces all end at 253.346
	 *    (a PELT update of CPU 1 at 249.346 is the first chance after the
	 *    rate limit, + tick); 800000 until sugov:1 wakes at 257.640.
	 * The 3 changes the kernel made (LITTLE 450000 at 227.212, 850000 at
	 * 327.277 after the RT watchdog/4; big 450000 at 259.397) are all as
	 * predicted. Of the 25 changes of the predicted OPP (recounted by an
	 * independent script over the report), the kernel reached 9 before the
	 * prediction moved on. The kernel follows as a rate limit near 20 ms
	 * would let it: with a 20 ms grace nothing fails.
	 */
	static const char *const windows =
		"0:2084208335700-2084215664440 450000>850000 S10;"
		"0:2084221567180-2084225581660 450000>850000 S10;"
		"0:2084234232720-2084238604940 700000>450000 S10;"
		"1:2084253345520-2084257639620 450000>800000 S10";
	struct an_test_windows c = { .is_fail_only = true };
	struct an_freq_figures f;
	struct an_results res;
	struct an_replay *r;
	char got[TEXT_LEN];

	(void)state;
	r = replay_juno(0, &res, &c);
	if (!r)
		skip();
	assert_false(res.stats[AN_CHECK_FREQ_BELOW_MIN_CLAMP].has_input);
	assert_int_equal(an_check_verdict(&res.stats[AN_CHECK_FREQ_BELOW_MIN_CLAMP]),
			 AN_UNDECIDED);
	assert_int_equal(res.stats[AN_CHECK_FREQ_BELOW_MIN_CLAMP].n_failed, 0);
	assert_false(res.stats[AN_CHECK_FREQ_ABOVE_MAX_CLAMP].has_input);
	assert_int_equal(res.stats[AN_CHECK_FREQ_ABOVE_MAX_CLAMP].n_failed, 0);
	assert_true(res.stats[AN_CHECK_FREQ_PREDICTION].has_input);
	assert_int_equal(an_check_verdict(&res.stats[AN_CHECK_FREQ_PREDICTION]), AN_FAIL);
	render(&c, AN_CHECK_FREQ_PREDICTION, got, sizeof(got));
	assert_string_equal(got, windows);
	assert_int_equal(an_freq_prediction_figures(r, &f), 0);
	assert_int_equal(f.n_observed, 3);
	assert_int_equal(f.n_observed_matched, 3);
	assert_int_equal(f.n_predicted, 25);
	assert_int_equal(f.n_predicted_reached, 9);
	assert_int_equal(f.n_rate_checked, 0);	/* no rate limit in platform.json */
	/* 21 judged intervals (its n_checked), one per window mismatched;
	 * their time is exactly the windows' total */
	assert_int_equal(f.n_intervals, 21);
	assert_int_equal(res.stats[AN_CHECK_FREQ_PREDICTION].n_checked, 21);
	assert_int_equal(f.n_mismatched, 4);
	assert_int_equal(f.mismatched_ns, (215664440 - 208335700) + (225581660 - 221567180) +
					  (238604940 - 234232720) + (257639620 - 253345520));
	assert_int_equal(f.n_matched + f.n_mismatched, f.n_intervals);
	an_replay_free(r);

	c.nr = 0;
	r = replay_juno(20000, &res, &c);
	assert_int_equal(an_check_verdict(&res.stats[AN_CHECK_FREQ_PREDICTION]), AN_PASS);
	assert_int_equal(an_freq_prediction_figures(r, &f), 0);
	assert_int_equal(f.n_observed_matched, 3);
	assert_int_equal(f.n_mismatched, 0);
	an_replay_free(r);
}

/* Every allocation failing in turn: -ENOMEM or success, never a crash or leak. */
static void test_out_of_memory(void **state)
{
	char path[PATH_MAX + 64];
	int err = -ENOMEM;
	unsigned long n;

	(void)state;
	snprintf(path, sizeof(path), "%s/traces/freq_prediction-fail.txt", an_test_root());
	for (n = 1; n < 500 && err; n++) {
		struct an_results res;
		struct an_summary sum;
		struct an_diag d;

		an_results_init(&res, NULL, NULL);
		an_malloc_fail_at(n);
		err = an_analyze_path(path, NULL, &res, &sum, &d);
		an_malloc_fail_at(0);
		if (err && err != -ENOMEM)
			fail_msg("allocation %lu: error %d (%s)", n, err, d.message);
	}
	assert_int_equal(err, 0);
}

/*
 * The policy-wide answers (an_fq_policy_observed(), _busy(), _evaluated(),
 * _touched()) are kept for one observer call, since the three frequency
 * checks each ask them (struct an_fq_pol_memo): asked twice in a call they
 * agree, and the next call sees the next event. An observer registered
 * after the checks records them after each event.
 */
struct memo_seen {
	char text[512];
};

static int memo_observer(void *ctx, struct an_replay *r, const struct an_event *ev,
			 bool is_after)
{
	struct memo_seen *m = ctx;
	const struct an_freq_policy *p = &r->policy[0];
	unsigned int khz = 0, again = 0;
	bool has_obs;
	size_t len = strlen(m->text);

	if (!is_after || !r->nr_policies || !an_fq_policy_usable(p))
		return 0;
	has_obs = an_fq_policy_observed(r, p, &khz);
	assert_int_equal(an_fq_policy_observed(r, p, &again), has_obs);
	assert_int_equal(again, khz);
	snprintf(m->text + len, sizeof(m->text) - len, "%s%u/%d%d%d;",
		 has_obs ? "" : "-", khz, an_fq_policy_busy(r, p),
		 an_fq_policy_evaluated(r, p), an_fq_policy_touched(r, p, ev));
	return 0;
}

static void test_policy_memo(void **state)
{
	static const char text[] = ML61
		FREQ(0, "10.000100", 500000) SW(0, "10.001000", 0, 120, "R", 100, 120)
		FREQ(0, "10.002000", 1000000) PELT(0, "10.002500", 300)
		SW(0, "10.003000", 100, 120, "S", 0, 120);
	FILE *fp = fmemopen((void *)text, strlen(text), "r");
	struct memo_seen seen = { "" };
	struct an_observer obs = { .name = "memo", .event = memo_observer, .ctx = &seen };
	struct an_results res;
	struct an_reader *rd;
	struct an_replay *r;
	struct an_diag d;
	struct an_event ev;

	(void)state;
	assert_non_null(fp);
	an_results_init(&res, NULL, NULL);
	assert_int_equal(an_reader_open_stream(fp, "memo", &rd, &d), 0);
	assert_int_equal(an_analyze_replay_new(NULL, &res, &r, &d), 0);
	assert_int_equal(an_replay_add_observer(r, &obs), 0);
	while (an_reader_next(rd, &ev, &d) == 1)
		assert_int_equal(an_replay_event(r, &ev, &d), 0);
	/* observed kHz / busy, evaluated, touched after each frequency-era event */
	assert_string_equal(seen.text, "500000/001;500000/111;1000000/101;1000000/111;1000000/011;");
	an_replay_free(r);
	an_reader_close(rd);
	fclose(fp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bound),
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_policy_memo),
		cmocka_unit_test(test_no_input),
		cmocka_unit_test(test_input_before_policy),
		cmocka_unit_test(test_figures),
		cmocka_unit_test(test_juno),
		cmocka_unit_test(test_out_of_memory),
	};

	an_reader_set_quiet(true);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
