// SPDX-License-Identifier: MIT
/*
 * Tests of model/schedutil*.c against schedutil.md (S1–S28, every row of the
 * §9 worked examples), uclamp-v3.md VS1–VS3/VQ5/VQ12, uclamp-mainline.md
 * MS1–MS6 and events.md §4 (floor, ceiling). Each table row names its rule.
 *
 * Not modelled, so not tested here: S2 (which scheduler events call the hook:
 * the trace replay decides when to call model_su_gov_update()), S3 (remote
 * callbacks: a trace never shows them) and S28 (cpu_frequency events from
 * other sources: trace-only). S25/S26 are modelled as "which CPUs get an
 * event" (enum model_su_emit).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <string.h>

#include "model/schedutil.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define KV(a, b)	MODEL_KVER(a, b, 0)
#define ML		MODEL_MAINLINE
#define V3		MODEL_V3
/* An origin far from governor start: the first evaluation passes the gate. */
#define T0		1000000000ULL
#define MS		1000000ULL

#define EXPECT(i, rule, what, got, want) do {					\
	unsigned long long got_ = (got), want_ = (want);			\
	if (got_ != want_)							\
		fail_msg("row %u (%s): %s: got %llu want %llu",			\
			 (unsigned int)(i), (rule), (what), got_, want_);	\
} while (0)

/* Platform A and B of schedutil.md §9. */
static const unsigned int opps_a[] = { 500000, 1000000, 1500000, 2000000 };
static const unsigned int opps_b[] = { 500000, 850000, 1100000, 1400000 };

static void mk_policy(struct model_su_policy *p, unsigned int kver,
		      enum model_variant v, const unsigned int *opps,
		      unsigned int nr_opps, unsigned int nr_cpus)
{
	unsigned int i;

	model_su_policy_init(p, kver, v);
	assert_int_equal(model_su_policy_set_opps(p, opps, nr_opps), 0);
	p->nr_cpus = nr_cpus;
	for (i = 0; i < nr_cpus; i++)
		p->cpu[i] = (int)i;
	assert_int_equal(model_su_policy_check(p, NULL), 0);
}

static void mk_a(struct model_su_policy *p, unsigned int kver, enum model_variant v)
{
	mk_policy(p, kver, v, opps_a, ARRAY_SIZE(opps_a), 2);
}

static void mk_b(struct model_su_policy *p, unsigned int kver, enum model_variant v)
{
	mk_policy(p, kver, v, opps_b, ARRAY_SIZE(opps_b), 1);
}

static struct model_su_cpu_in cin(unsigned int util_cfs)
{
	struct model_su_cpu_in c;

	memset(&c, 0, sizeof(c));
	c.util_cfs = util_cfs;
	c.rq_max = MODEL_SCALE;
	c.is_uclamp_used = true;
	return c;
}

/* ---- S1: policy description and validation ---- */

static void test_s1_policy_defaults(void **state)
{
	struct model_su_policy p;
	unsigned int big[MODEL_SU_MAX_OPPS + 1] = { 0 };

	(void)state;
	mk_a(&p, KV(6, 1), ML);
	assert_int_equal(p.max_freq_khz, 2000000);
	assert_int_equal(p.min_khz, 500000);
	assert_int_equal(p.max_khz, 2000000);
	assert_int_equal(p.capacity, MODEL_SCALE);
	assert_int_equal(p.rate_limit_us, MODEL_SU_DEFAULT_RATE_LIMIT_US);
	assert_int_equal(p.tick_us, MODEL_SU_DEFAULT_TICK_US);
	assert_true(p.is_invariant && p.is_fast_switch && p.is_nohz);
	assert_int_equal(model_su_policy_set_opps(&p, big, ARRAY_SIZE(big)), -EINVAL);
}

static const struct check_case {
	const char *rule;
	const char *what;
	unsigned int kver;
	unsigned int opp0, opp1;	/* first two OPPs */
	unsigned int max_freq, min, max, capacity, nr_cpus;
	int cpu0, cpu1;
	enum model_su_reason reason;
	int index;
} check_cases[] = {
	{ "S1", "valid", KV(6, 1), 500, 900, 900, 500, 900, 1024, 2, 0, 1, MODEL_SU_E_OK, -1 },
	{ "S1", "release before 4.11", KV(4, 9), 500, 900, 900, 500, 900, 1024, 2, 0, 1, MODEL_SU_E_KVER, -1 },
	{ "S1", "OPP of 0", KV(6, 1), 0, 900, 900, 500, 900, 1024, 2, 0, 1, MODEL_SU_E_OPP_ZERO, 0 },
	{ "S1", "OPPs equal", KV(6, 1), 900, 900, 900, 500, 900, 1024, 2, 0, 1, MODEL_SU_E_OPP_ORDER, 1 },
	{ "S1", "OPPs descending", KV(6, 1), 900, 500, 900, 500, 900, 1024, 2, 0, 1, MODEL_SU_E_OPP_ORDER, 1 },
	{ "S1", "max_freq 0", KV(6, 1), 500, 900, 0, 500, 900, 1024, 2, 0, 1, MODEL_SU_E_MAX_FREQ, -1 },
	{ "S27", "min above max", KV(6, 1), 500, 900, 900, 901, 900, 1024, 2, 0, 1, MODEL_SU_E_LIMITS, -1 },
	{ "S27", "max 0", KV(6, 1), 500, 900, 900, 0, 0, 1024, 2, 0, 1, MODEL_SU_E_LIMITS, -1 },
	{ "S1", "capacity 0", KV(6, 1), 500, 900, 900, 500, 900, 0, 2, 0, 1, MODEL_SU_E_CAPACITY, -1 },
	{ "S1", "capacity 1025", KV(6, 1), 500, 900, 900, 500, 900, 1025, 2, 0, 1, MODEL_SU_E_CAPACITY, -1 },
	{ "S1", "no CPUs", KV(6, 1), 500, 900, 900, 500, 900, 1024, 0, 0, 1, MODEL_SU_E_NO_CPUS, -1 },
	{ "S1", "repeated CPU", KV(6, 1), 500, 900, 900, 500, 900, 1024, 2, 3, 3, MODEL_SU_E_CPU_ID, 1 },
	{ "S1", "negative CPU", KV(6, 1), 500, 900, 900, 500, 900, 1024, 2, -1, 3, MODEL_SU_E_CPU_ID, 0 },
	{ "S1", "too many CPUs", KV(6, 1), 500, 900, 900, 500, 900, 1024, MODEL_SU_MAX_CPUS + 1, 0, 1, MODEL_SU_E_TOO_MANY, -1 },
};

static void test_s1_policy_check(void **state)
{
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(check_cases); i++) {
		const struct check_case *c = &check_cases[i];
		struct model_su_policy p;
		struct model_su_diag d = { MODEL_SU_E_CNT, -7 };
		int ret;

		model_su_policy_init(&p, c->kver, ML);
		p.nr_opps = 2;
		p.opp_khz[0] = c->opp0;
		p.opp_khz[1] = c->opp1;
		p.max_freq_khz = c->max_freq;
		p.min_khz = c->min;
		p.max_khz = c->max;
		p.capacity = c->capacity;
		p.nr_cpus = c->nr_cpus;
		p.cpu[0] = c->cpu0;
		p.cpu[1] = c->cpu1;
		ret = model_su_policy_check(&p, &d);
		EXPECT(i, c->rule, c->what, (unsigned int)d.reason, c->reason);
		EXPECT(i, c->rule, "index", (unsigned int)(d.index + 1), (unsigned int)(c->index + 1));
		EXPECT(i, c->rule, "ret", (unsigned int)-ret,
		       c->reason == MODEL_SU_E_OK ? 0 : EINVAL);
	}
}

static void test_s1_cpu_check(void **state)
{
	struct model_su_policy p;
	struct model_su_cpu_in in[2] = { cin(100), cin(200) };
	struct model_su_eval ev;
	struct model_su_diag d;
	unsigned int r;

	(void)state;
	mk_a(&p, KV(6, 1), ML);
	assert_int_equal(model_su_cpu_check(&p, in, 2, &d), 0);
	in[1].util_rt = 1025;
	assert_int_equal(model_su_cpu_check(&p, in, 2, &d), -EINVAL);
	assert_int_equal(d.reason, MODEL_SU_E_UTIL);
	assert_int_equal(d.index, 1);
	assert_int_equal(model_su_expected(&p, in, &ev, NULL), -EINVAL);
	in[1] = cin(200);
	in[0].rq_max = 1025;
	assert_int_equal(model_su_cpu_check(&p, in, 2, &d), -EINVAL);
	assert_int_equal(d.reason, MODEL_SU_E_CLAMP);
	assert_int_equal(d.index, 0);
	assert_int_equal(model_su_cpu_check(&p, in, 3, &d), -EINVAL);
	assert_int_equal(d.reason, MODEL_SU_E_CPU_IDX);
	/* a little CPU: utilization above its capacity is rejected */
	in[0] = cin(600);
	p.capacity = 512;
	assert_int_equal(model_su_cpu_check(&p, in, 1, &d), -EINVAL);
	assert_int_equal(d.reason, MODEL_SU_E_UTIL);
	for (r = 0; r < MODEL_SU_E_CNT; r++)
		assert_non_null(model_su_reason_str((enum model_su_reason)r));
	assert_string_equal(model_su_reason_str(MODEL_SU_E_CNT), "unknown reason");
	assert_string_equal(model_su_reason_str(MODEL_SU_E_OPP_ORDER),
			    "OPPs not in strictly ascending order");
}

/* ---- release features (schedutil.md §0 eras) ---- */

static const struct feat_case {
	const char *rule;
	unsigned int kver;
	enum model_variant v;
	enum model_su_util_form util;
	enum model_su_target_form target;
	enum model_su_iowait_form iowait;
	enum model_su_forced_form forced;
	enum model_su_event_form event;
} feat_cases[] = {
	{ "S4", KV(4, 11), ML, MODEL_SU_UTIL_LEGACY, MODEL_SU_TARGET_OLD, MODEL_SU_IOWAIT_LEGACY, MODEL_SU_FORCED_LEGACY, MODEL_SU_EVENT_ALWAYS },
	{ "S25", KV(4, 17), ML, MODEL_SU_UTIL_LEGACY, MODEL_SU_TARGET_OLD, MODEL_SU_IOWAIT_LEGACY, MODEL_SU_FORCED_LEGACY, MODEL_SU_EVENT_EVAL_CPU },
	{ "VS4", KV(4, 19), V3, MODEL_SU_UTIL_SUM, MODEL_SU_TARGET_OLD, MODEL_SU_IOWAIT_KHZ, MODEL_SU_FORCED_ONCE, MODEL_SU_EVENT_EVAL_CPU },
	{ "S5", KV(4, 19), ML, MODEL_SU_UTIL_SUM, MODEL_SU_TARGET_OLD, MODEL_SU_IOWAIT_KHZ, MODEL_SU_FORCED_ONCE, MODEL_SU_EVENT_EVAL_CPU },
	{ "S6", KV(5, 10), ML, MODEL_SU_UTIL_SUM, MODEL_SU_TARGET_OLD, MODEL_SU_IOWAIT_CAP, MODEL_SU_FORCED_CALL, MODEL_SU_EVENT_POLICY },
	{ "S9", KV(6, 1), ML, MODEL_SU_UTIL_SUM, MODEL_SU_TARGET_PERF, MODEL_SU_IOWAIT_CAP, MODEL_SU_FORCED_CALL, MODEL_SU_EVENT_POLICY },
	{ "S7", KV(6, 8), ML, MODEL_SU_UTIL_PERF, MODEL_SU_TARGET_REF, MODEL_SU_IOWAIT_CAP, MODEL_SU_FORCED_CALL, MODEL_SU_EVENT_POLICY },
	{ "S17", KV(6, 15), ML, MODEL_SU_UTIL_PERF, MODEL_SU_TARGET_REF, MODEL_SU_IOWAIT_CAP, MODEL_SU_FORCED_FIXED, MODEL_SU_EVENT_POLICY },
};

static void test_features(void **state)
{
	struct model_su_features f;
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(feat_cases); i++) {
		const struct feat_case *c = &feat_cases[i];

		model_su_features_init(&f, c->kver, c->v);
		EXPECT(i, c->rule, "util form", f.util_form, c->util);
		EXPECT(i, c->rule, "target form", f.target_form, c->target);
		EXPECT(i, c->rule, "iowait form", f.iowait_form, c->iowait);
		EXPECT(i, c->rule, "forced form", f.forced_form, c->forced);
		EXPECT(i, c->rule, "event form", f.event_form, c->event);
	}
	model_su_features_init(&f, KV(4, 19), ML);
	assert_false(f.has_uclamp);
	model_su_features_init(&f, KV(4, 19), V3);
	assert_true(f.has_uclamp && !f.is_uclamp_keyed && !f.is_iowait_clamped);
	model_su_features_init(&f, KV(5, 15), ML);
	assert_false(f.is_limits_snapped);
	model_su_features_init(&f, KV(5, 16), ML);
	assert_true(f.is_limits_snapped);
}

/* ---- S9 + S10: platform A table, both forms, every row ---- */

static const struct a_row {
	unsigned int util;
	unsigned int old_raw, old_opp, perf_raw, perf_opp;
} a_rows[] = {
	{ 0, 0, 500000, 0, 500000 },
	{ 100, 244140, 500000, 244140, 500000 },
	{ 300, 732421, 1000000, 732421, 1000000 },
	{ 409, 998535, 1000000, 998046, 1000000 },
	{ 410, 1000976, 1500000, 1000000, 1000000 },
	{ 512, 1250000, 1500000, 1250000, 1500000 },
	{ 614, 1499023, 1500000, 1498046, 1500000 },
	{ 615, 1501464, 2000000, 1500000, 1500000 },
	{ 700, 1708984, 2000000, 1708984, 2000000 },
	{ 820, 2001953, 2000000, 2001953, 2000000 },
};

static void test_s9_platform_a(void **state)
{
	struct model_su_policy old, perf;
	struct model_su_eval ev;
	unsigned int i;

	(void)state;
	mk_a(&old, KV(5, 10), ML);
	mk_a(&perf, KV(6, 1), ML);
	for (i = 0; i < ARRAY_SIZE(a_rows); i++) {
		const struct a_row *r = &a_rows[i];
		struct model_su_cpu_in in[2] = { cin(r->util), cin(0) };

		EXPECT(i, "S9", "old raw", model_su_raw_khz(&old, r->util, 1024), r->old_raw);
		EXPECT(i, "S9", "perf raw", model_su_raw_khz(&perf, r->util, 1024), r->perf_raw);
		assert_int_equal(model_su_expected(&old, in, &ev, NULL), 0);
		EXPECT(i, "S9", "old expected raw", ev.raw_khz, r->old_raw);
		EXPECT(i, "S10", "old OPP", ev.freq_khz, r->old_opp);
		assert_int_equal(model_su_expected(&perf, in, &ev, NULL), 0);
		EXPECT(i, "S9", "perf expected raw", ev.raw_khz, r->perf_raw);
		EXPECT(i, "S10", "perf OPP", ev.freq_khz, r->perf_opp);
	}
}

/* ---- S10: every OPP boundary, both platforms ---- */

static void test_s10_opp_boundaries(void **state)
{
	struct model_su_policy p;
	unsigned int plat, i;

	(void)state;
	for (plat = 0; plat < 2; plat++) {
		const unsigned int *o = plat ? opps_b : opps_a;

		if (plat)
			mk_b(&p, KV(6, 1), ML);
		else
			mk_a(&p, KV(6, 1), ML);
		p.min_khz = 1;	/* let targets below the lowest OPP through */
		for (i = 0; i < 4; i++) {
			EXPECT(i, "S10", "exactly an OPP", model_su_resolve(&p, o[i]), o[i]);
			EXPECT(i, "S10", "just below an OPP", model_su_resolve(&p, o[i] - 1), o[i]);
			if (i < 3)
				EXPECT(i, "S10", "just above an OPP",
				       model_su_resolve(&p, o[i] + 1), o[i + 1]);
		}
		EXPECT(plat, "S10", "0 kHz", model_su_resolve(&p, 0), o[0]);
		EXPECT(plat, "S10", "above the table", model_su_resolve(&p, o[3] + 1), o[3]);
		EXPECT(plat, "S10", "far above", model_su_resolve(&p, 0xffffffffu), o[3]);
	}
	/* no table: the clamped raw value */
	p.nr_opps = 0;
	EXPECT(0, "S10", "no table", model_su_resolve(&p, 777777), 777777);
	EXPECT(0, "S10", "no table, clamped", model_su_resolve(&p, 9999999), 1400000);
}

/* S10: 5.16+ snapped limits against a max between OPPs. */
static const struct snap_case {
	const char *rule;
	unsigned int kver, min, max, util;
	unsigned int want;
} snap_cases[] = {
	{ "S10", KV(5, 10), 500000, 1200000, 1024, 1400000 },	/* OPP just above max */
	{ "S10", KV(5, 16), 500000, 1200000, 1024, 1100000 },	/* snapped: inside */
	{ "S10", KV(5, 10), 600000, 1400000, 0, 850000 },
	{ "S10", KV(5, 16), 600000, 1400000, 0, 850000 },
	{ "S10", KV(5, 16), 1200000, 1300000, 0, 1100000 },	/* no OPP inside */
	{ "S10", KV(5, 16), 100000, 400000, 1024, 500000 },	/* below the table */
};

static void test_s10_snapped_limits(void **state)
{
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(snap_cases); i++) {
		const struct snap_case *c = &snap_cases[i];
		struct model_su_policy p;
		struct model_su_cpu_in in = cin(c->util);
		struct model_su_eval ev;

		mk_b(&p, c->kver, ML);
		p.min_khz = c->min;
		p.max_khz = c->max;
		assert_int_equal(model_su_expected(&p, &in, &ev, NULL), 0);
		EXPECT(i, c->rule, "OPP", ev.freq_khz, c->want);
	}
}

/* ---- S4–S7, VS1, MS1–MS5: per-CPU util, clamps on platform A ---- */

static const struct util_case {
	const char *rule;
	unsigned int kver;
	enum model_variant v;
	enum model_fidelity fid;
	bool is_sched_class;
	unsigned int cfs, rt, dl, bw_dl, irq, rq_min, rq_max;
	bool is_rt, is_dl, is_used;
	unsigned int want_util, want_raw, want_opp;
} util_cases[] = {
	/* §9 clamps on platform A, v3/5.x old form and 6.8+ */
	{ "VR8", KV(4, 19), V3, MODEL_INTENT, 0, 100, 0, 0, 0, 0, 512, 1024, 0, 0, 1, 512, 1250000, 1500000 },
	{ "MS1", KV(5, 10), ML, MODEL_INTENT, 0, 100, 0, 0, 0, 0, 512, 1024, 0, 0, 1, 512, 1250000, 1500000 },
	{ "MS5", KV(6, 8), ML, MODEL_INTENT, 0, 100, 0, 0, 0, 0, 512, 1024, 0, 0, 1, 512, 1000000, 1000000 },
	{ "VR8", KV(4, 19), V3, MODEL_INTENT, 0, 900, 0, 0, 0, 0, 0, 296, 0, 0, 1, 296, 722656, 1000000 },
	{ "MS5", KV(6, 8), ML, MODEL_INTENT, 0, 900, 0, 0, 0, 0, 0, 296, 0, 0, 1, 296, 578125, 1000000 },
	/* RT queued: 4.19 v3 seed goes to max; intent clamps it (VQ12) */
	{ "VS1", KV(4, 19), V3, MODEL_SEED, 0, 100, 0, 0, 0, 0, 0, 296, 1, 0, 1, 1024, 2500000, 2000000 },
	{ "VQ12", KV(4, 19), V3, MODEL_INTENT, 0, 100, 0, 0, 0, 0, 0, 1024, 1, 0, 1, 1024, 2500000, 2000000 },
	{ "VQ12", KV(4, 19), V3, MODEL_INTENT, 0, 100, 0, 0, 0, 0, 0, 296, 1, 0, 1, 296, 722656, 1000000 },
	{ "S5", KV(4, 19), ML, MODEL_INTENT, 0, 100, 0, 0, 0, 0, 0, 296, 1, 0, 1, 1024, 2500000, 2000000 },
	/* mainline, uclamp used: RT default min 1024, or rt_default 0 */
	{ "MS2", KV(5, 10), ML, MODEL_INTENT, 0, 0, 0, 0, 0, 0, 1024, 1024, 1, 0, 1, 1024, 2500000, 2000000 },
	{ "MS2", KV(5, 10), ML, MODEL_INTENT, 0, 300, 0, 0, 0, 0, 0, 1024, 1, 0, 1, 300, 732421, 1000000 },
	{ "MS2", KV(5, 10), ML, MODEL_INTENT, 0, 300, 0, 0, 0, 0, 0, 1024, 1, 0, 0, 1024, 2500000, 2000000 },
	{ "MS2", KV(5, 5), ML, MODEL_INTENT, 0, 300, 0, 0, 0, 0, 0, 1024, 1, 0, 0, 300, 732421, 1000000 },
	{ "S7", KV(6, 8), ML, MODEL_INTENT, 0, 300, 0, 0, 0, 0, 0, 1024, 1, 0, 0, 1024, 2000000, 2000000 },
	{ "S7", KV(6, 8), ML, MODEL_INTENT, 0, 300, 0, 0, 0, 0, 0, 1024, 1, 0, 1, 375, 732421, 1000000 },
	/* irq 100, cfs 400, dl 100, bw_dl 100 (4.19): 360 + 100 + 100 */
	{ "S5", KV(4, 19), ML, MODEL_INTENT, 0, 400, 0, 100, 100, 100, 0, 1024, 0, 0, 1, 560, 1367187, 1500000 },
	{ "S24", KV(4, 19), V3, MODEL_INTENT, 0, 400, 0, 100, 100, 100, 0, 1024, 0, 0, 1, 560, 1367187, 1500000 },
	/* saturations */
	{ "S5", KV(4, 19), ML, MODEL_INTENT, 0, 100, 0, 0, 0, 1024, 0, 1024, 0, 0, 1, 1024, 2500000, 2000000 },
	{ "S5", KV(5, 10), ML, MODEL_INTENT, 0, 700, 0, 324, 0, 0, 0, 1024, 0, 0, 1, 1024, 2500000, 2000000 },
	{ "S6", KV(5, 10), ML, MODEL_INTENT, 0, 700, 0, 300, 0, 0, 0, 296, 0, 0, 1, 296, 722656, 1000000 },
	{ "S7", KV(6, 8), ML, MODEL_INTENT, 0, 100, 0, 0, 0, 1024, 0, 296, 0, 0, 1, 1024, 2000000, 2000000 },
	/* DL bandwidth: added after irq (5.x), a floor without headroom (6.8+) */
	{ "S24", KV(5, 10), ML, MODEL_INTENT, 0, 0, 0, 0, 512, 0, 0, 1024, 0, 1, 1, 512, 1250000, 1500000 },
	{ "S24", KV(6, 8), ML, MODEL_INTENT, 0, 0, 0, 0, 512, 0, 0, 1024, 0, 1, 1, 512, 1000000, 1000000 },
	{ "S7", KV(6, 8), ML, MODEL_INTENT, 0, 300, 100, 200, 0, 0, 0, 1024, 0, 0, 1, 750, 1464843, 1500000 },
	/* RT utilization decays after RT tasks leave and still counts (S23) */
	{ "S23", KV(4, 19), V3, MODEL_INTENT, 0, 100, 300, 0, 0, 0, 0, 1024, 0, 0, 1, 400, 976562, 1000000 },
	/* UCLAMP_SCHED_CLASS: clamp(cfs) + clamp(rt) vs clamp(cfs + rt) (VS1.4) */
	{ "VS1", KV(4, 19), V3, MODEL_INTENT, 1, 300, 200, 0, 0, 0, 400, 1024, 0, 0, 1, 800, 1953125, 2000000 },
	{ "VS1", KV(4, 19), V3, MODEL_INTENT, 0, 300, 200, 0, 0, 0, 400, 1024, 0, 0, 1, 500, 1220703, 1500000 },
	{ "VS1", KV(4, 19), V3, MODEL_INTENT, 1, 300, 0, 0, 0, 0, 400, 1024, 0, 0, 1, 400, 976562, 1000000 },
	{ "VS1", KV(4, 19), V3, MODEL_INTENT, 0, 0, 0, 0, 0, 0, 400, 1024, 0, 0, 1, 400, 976562, 1000000 },
	{ "VS1", KV(4, 19), V3, MODEL_INTENT, 1, 0, 0, 0, 0, 0, 400, 1024, 0, 0, 1, 0, 0, 500000 },
	/* no clamps before mainline 5.3, none while the key is off (MR2) */
	{ "S5", KV(4, 19), ML, MODEL_INTENT, 0, 100, 0, 0, 0, 0, 512, 1024, 0, 0, 1, 100, 244140, 500000 },
	{ "MS1", KV(5, 10), ML, MODEL_INTENT, 0, 100, 0, 0, 0, 0, 512, 1024, 0, 0, 0, 100, 244140, 500000 },
	/* 4.11–4.17: cfs only; RT/DL callbacks select cpuinfo max (S4) */
	{ "S4", KV(4, 11), ML, MODEL_INTENT, 0, 300, 200, 0, 300, 0, 0, 1024, 0, 0, 1, 300, 732421, 1000000 },
	{ "S4", KV(4, 16), ML, MODEL_INTENT, 0, 300, 200, 0, 300, 0, 0, 1024, 0, 0, 1, 600, 1464843, 1500000 },
	{ "S4", KV(4, 11), ML, MODEL_INTENT, 0, 0, 0, 0, 0, 0, 0, 1024, 1, 0, 1, 1024, 2000000, 2000000 },
	{ "S4", KV(4, 14), ML, MODEL_INTENT, 0, 0, 0, 0, 0, 0, 0, 1024, 0, 1, 1, 1024, 2000000, 2000000 },
};

static void test_s4_s7_cpu_util(void **state)
{
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(util_cases); i++) {
		const struct util_case *c = &util_cases[i];
		struct model_su_policy p;
		struct model_su_cpu_in in[2] = { cin(c->cfs), cin(0) };
		struct model_su_eval ev;

		mk_a(&p, c->kver, c->v);
		p.fidelity = c->fid;
		p.is_sched_class = c->is_sched_class;
		in[0].util_rt = c->rt;
		in[0].util_dl = c->dl;
		in[0].bw_dl = c->bw_dl;
		in[0].irq = c->irq;
		in[0].rq_min = c->rq_min;
		in[0].rq_max = c->rq_max;
		in[0].is_rt_runnable = c->is_rt;
		in[0].is_dl_runnable = c->is_dl;
		in[0].is_uclamp_used = c->is_used;
		in[1].is_uclamp_used = c->is_used;
		assert_int_equal(model_su_expected(&p, in, &ev, NULL), 0);
		EXPECT(i, c->rule, "cpu", ev.cpu_idx, 0);
		EXPECT(i, c->rule, "util", ev.util.util, c->want_util);
		EXPECT(i, c->rule, "raw", ev.raw_khz, c->want_raw);
		EXPECT(i, c->rule, "OPP", ev.freq_khz, c->want_opp);
	}
}

/* ---- §9 limits and non-invariant lines (S8, S10, S27) ---- */

static const struct lim_case {
	const char *rule;
	unsigned int kver;
	bool is_invariant;
	unsigned int min, max, cur, util;
	unsigned int want_raw, want_opp;
} lim_cases[] = {
	{ "S27", KV(4, 19), 1, 500000, 1500000, 2000000, 900, 2197265, 1500000 },
	{ "S27", KV(4, 19), 1, 1000000, 2000000, 2000000, 50, 122070, 1000000 },
	{ "S8", KV(4, 19), 0, 500000, 2000000, 1000000, 512, 625000, 1000000 },
	{ "S8", KV(4, 19), 0, 500000, 2000000, 500000, 1024, 625000, 1000000 },
	{ "S8", KV(6, 1), 0, 500000, 2000000, 1000000, 512, 625000, 1000000 },
	/* 6.8+: F = cur + cur/4 and perf has the headroom too */
	{ "S8", KV(6, 8), 0, 500000, 2000000, 1000000, 512, 781250, 1000000 },
	{ "S8", KV(6, 8), 0, 500000, 2000000, 1500000, 1024, 1875000, 2000000 },
};

static void test_s8_limits_noninvariant(void **state)
{
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(lim_cases); i++) {
		const struct lim_case *c = &lim_cases[i];
		struct model_su_policy p;
		struct model_su_cpu_in in[2] = { cin(c->util), cin(0) };
		struct model_su_eval ev;

		mk_a(&p, c->kver, ML);
		p.is_invariant = c->is_invariant;
		p.min_khz = c->min;
		p.max_khz = c->max;
		p.cur_khz = c->cur;
		assert_int_equal(model_su_expected(&p, in, &ev, NULL), 0);
		EXPECT(i, c->rule, "raw", ev.raw_khz, c->want_raw);
		EXPECT(i, c->rule, "OPP", ev.freq_khz, c->want_opp);
	}
}

/* S8: 6.8+ arch reference frequency replaces cpuinfo max. */
static void test_s8_ref_freq(void **state)
{
	struct model_su_policy p;
	struct model_su_cpu_in in[2] = { cin(512), cin(0) };
	struct model_su_eval ev;

	(void)state;
	mk_a(&p, KV(6, 8), ML);
	p.ref_freq_khz = 1600000;
	assert_int_equal(model_su_expected(&p, in, &ev, NULL), 0);
	assert_int_equal(ev.raw_khz, 1000000);	/* 1600000 * 640 / 1024 */
	mk_a(&p, KV(6, 1), ML);
	p.ref_freq_khz = 1600000;		/* ignored before 6.8 */
	assert_int_equal(model_su_expected(&p, in, &ev, NULL), 0);
	assert_int_equal(ev.raw_khz, 1250000);
}

/*
 * An explanation changes nothing but itself: model_su_expected() and
 * model_su_ceiling() (S9, S10, S13) give the same evaluation with and
 * without one. Without, they keep the deciding CPU's utilization from their
 * first pass instead of computing it again; rows: idle CPUs (no CPU above
 * 0/1), a tie, clamps, 6.8+, a 4.14 RT CPU (S4: cpuinfo max), v3 (VS1).
 */
static void test_explain_same_result(void **state)
{
	static const struct {
		unsigned int kver;
		enum model_variant v;
		unsigned int util[2], rq_max[2];
		bool is_rt[2];
	} rows[] = {
		{ KV(6, 1), ML, { 0, 0 }, { 1024, 1024 }, { false, false } },
		{ KV(6, 1), ML, { 300, 300 }, { 1024, 1024 }, { false, false } },
		{ KV(6, 1), ML, { 100, 700 }, { 512, 1024 }, { false, false } },
		{ KV(6, 8), ML, { 700, 100 }, { 1024, 256 }, { false, false } },
		{ KV(4, 14), ML, { 100, 0 }, { 1024, 1024 }, { false, true } },
		{ KV(4, 19), MODEL_V3, { 0, 0 }, { 1024, 1024 }, { false, false } },
		{ KV(4, 19), MODEL_V3, { 900, 200 }, { 300, 1024 }, { true, false } },
	};

	(void)state;
	for (unsigned int i = 0; i < ARRAY_SIZE(rows); i++) {
		struct model_su_policy p;
		struct model_su_cpu_in in[2];
		struct model_su_explain ex = { 0 };
		struct model_su_eval a, b;
		struct model_su_bound c, d;

		mk_a(&p, rows[i].kver, rows[i].v);
		for (int k = 0; k < 2; k++) {
			in[k] = cin(rows[i].util[k]);
			in[k].rq_max = rows[i].rq_max[k];
			in[k].is_rt_runnable = rows[i].is_rt[k];
		}
		assert_int_equal(model_su_expected(&p, in, &a, NULL), 0);
		assert_int_equal(model_su_expected(&p, in, &b, &ex), 0);
		assert_true(ex.nr > 0);
		EXPECT(i, "S13", "deciding cpu", a.cpu_idx, b.cpu_idx);
		EXPECT(i, "S13", "util", a.util.util, b.util.util);
		EXPECT(i, "S13", "scale", a.util.scale, b.util.scale);
		EXPECT(i, "S13", "bw_min", a.util.bw_min, b.util.bw_min);
		EXPECT(i, "S4", "max freq", a.util.is_max_freq, b.util.is_max_freq);
		EXPECT(i, "S9", "raw", a.raw_khz, b.raw_khz);
		EXPECT(i, "S10", "OPP", a.freq_khz, b.freq_khz);
		memset(&ex, 0, sizeof(ex));
		assert_int_equal(model_su_ceiling(&p, in, &c, NULL), 0);
		assert_int_equal(model_su_ceiling(&p, in, &d, &ex), 0);
		EXPECT(i, "S13", "ceiling bounded", c.is_bounded, d.is_bounded);
		EXPECT(i, "S13", "ceiling cpu", c.cpu_idx, d.cpu_idx);
		EXPECT(i, "S13", "ceiling util", c.util, d.util);
		EXPECT(i, "S13", "ceiling scale", c.scale, d.scale);
		EXPECT(i, "S9", "ceiling raw", c.raw_khz, d.raw_khz);
		EXPECT(i, "S10", "ceiling OPP", c.freq_khz, d.freq_khz);
	}
}

/* A small deterministic generator (xorshift32) for the band test. */
static unsigned int band_rand(unsigned int *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 17;
	*x ^= *x << 5;
	return *x;
}

/*
 * The util band (model_su_cpu_raw(), model_su_resolve_band(): what the
 * frequency checks answer from between evaluations) against
 * model_su_expected() on random inputs of every util form, target form and
 * variant: with every CPU plain, the OPP is that of the largest raw target,
 * and every raw target of the band resolves to it (S9, S10, S13, S14).
 */
static void test_s10_band_matches_expected(void **state)
{
	static const struct {
		unsigned int kver;
		enum model_variant v;
	} kinds[] = {
		{ KV(4, 14), ML }, { KV(4, 19), ML }, { KV(5, 4), ML }, { KV(5, 18), ML },
		{ KV(6, 1), ML }, { KV(6, 8), ML }, { KV(6, 12), ML }, { KV(4, 19), V3 },
	};
	unsigned int x = 2463534242u, n_plain = 0;

	(void)state;
	for (unsigned int i = 0; i < 20000; i++) {
		unsigned int k = band_rand(&x) % ARRAY_SIZE(kinds), max = 0, lo, hi, v;
		struct model_su_policy p;
		struct model_su_cpu_in in[4];
		struct model_su_eval e;
		bool is_plain = true, is_one;

		mk_policy(&p, kinds[k].kver, kinds[k].v, band_rand(&x) % 2 ? opps_a : opps_b,
			  4, 1 + band_rand(&x) % 4);
		p.capacity = 256 + band_rand(&x) % 769;
		p.is_invariant = band_rand(&x) % 4 != 0;
		p.cur_khz = p.opp_khz[band_rand(&x) % 4];
		p.is_sched_class = band_rand(&x) % 2;
		p.fidelity = band_rand(&x) % 2 ? MODEL_SEED : MODEL_INTENT;
		if (band_rand(&x) % 3 == 0) {
			p.min_khz = 400000 + band_rand(&x) % 800000;
			p.max_khz = p.min_khz + band_rand(&x) % 1200000;
		}
		for (unsigned int c = 0; c < p.nr_cpus; c++) {
			in[c] = cin(band_rand(&x) % (p.capacity + 1));
			in[c].util_rt = band_rand(&x) % 4 ? 0 : band_rand(&x) % (p.capacity + 1);
			if (in[c].util_cfs + in[c].util_rt > p.capacity)
				in[c].util_rt = p.capacity - in[c].util_cfs;
			in[c].rq_min = band_rand(&x) % (MODEL_SCALE + 1);
			in[c].rq_max = band_rand(&x) % (MODEL_SCALE + 1);
			in[c].is_rq_idle = band_rand(&x) % 5 == 0;
			in[c].is_uclamp_used = band_rand(&x) % 4 != 0;
			in[c].is_rt_runnable = band_rand(&x) % 6 == 0;
			in[c].is_dl_runnable = band_rand(&x) % 9 == 0;
		}
		if (model_su_policy_check(&p, NULL) ||
		    model_su_cpu_check(&p, in, p.nr_cpus, NULL))
			continue;
		assert_int_equal(model_su_expected(&p, in, &e, NULL), 0);
		for (unsigned int c = 0; c < p.nr_cpus; c++) {
			unsigned int raw = model_su_cpu_raw(&p, &in[c], &is_one);

			is_plain &= is_one;
			max = raw > max ? raw : max;
		}
		if (!is_plain)
			continue;
		n_plain++;
		EXPECT(i, "S13", "largest raw target", max, e.raw_khz);
		v = model_su_resolve(&p, max);
		EXPECT(i, "S10", "OPP of the largest raw target", v, e.freq_khz);
		model_su_resolve_band(&p, max, &lo, &hi);
		assert_true(lo <= max && max <= hi);
		EXPECT(i, "S10", "band low end", model_su_resolve(&p, lo), v);
		EXPECT(i, "S10", "band high end", model_su_resolve(&p, hi), v);
		if (lo)
			assert_true(model_su_resolve(&p, lo - 1) <= v);
		if (hi < UINT_MAX)
			assert_true(model_su_resolve(&p, hi + 1) >= v);
		for (unsigned int t = 0; t < 8; t++) {
			unsigned int in_band = lo + band_rand(&x) % (hi - lo + 1 ? hi - lo + 1 : 1);

			EXPECT(i, "S10", "inside the band", model_su_resolve(&p, in_band), v);
		}
	}
	assert_true(n_plain > 5000);
}

/* Non-invariant: one OPP step per evaluation (§9). */
static void test_s8_noninvariant_steps(void **state)
{
	static const unsigned int want[] = { 1000000, 1500000, 2000000, 2000000 };
	struct model_su_policy p;
	struct model_su_gov g;
	struct model_su_result res;
	struct model_su_cpu_in in[2] = { cin(1024), cin(0) };
	unsigned int i;

	(void)state;
	mk_a(&p, KV(5, 10), ML);
	p.is_invariant = false;
	p.cur_khz = 500000;
	model_su_gov_start(&p, &g);
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		assert_int_equal(model_su_gov_update(&p, &g, 0, T0 + i * 10 * MS, 0, in,
						     &res, NULL), 0);
		EXPECT(i, "S8", "cur after evaluation", p.cur_khz, want[i]);
	}
}

/* ---- Platform B table: every era, and the max = 1100000 line ---- */

static const struct b_row {
	unsigned int util, rq_min, rq_max;
	unsigned int v3_raw, v3_opp, ml5_raw, ml5_opp, ml60_raw, ml60_opp, ml68_raw, ml68_opp;
} b_rows[] = {
	{ 300, 0, 1024, 512695, 850000, 512695, 850000, 512695, 850000, 512695, 850000 },
	{ 300, 512, 1024, 875000, 1100000, 875000, 1100000, 875000, 1100000, 700000, 850000 },
	{ 900, 0, 400, 683593, 850000, 683593, 850000, 683593, 850000, 546875, 850000 },
	{ 100, 0, 1024, 170898, 500000, 170898, 500000, 170898, 500000, 170898, 500000 },
	{ 820, 0, 1024, 1401367, 1400000, 1401367, 1400000, 1401367, 1400000, 1400000, 1400000 },
	{ 600, 700, 300, 512695, 850000, 1196289, 1400000, 1196289, 1400000, 957031, 1100000 },
};

static void test_platform_b(void **state)
{
	static const struct { const char *rule; unsigned int kver; enum model_variant v; } era[] = {
		{ "VR8", KV(4, 19), V3 }, { "MS1", KV(5, 10), ML },
		{ "S9", KV(6, 1), ML }, { "MS5", KV(6, 8), ML },
	};
	struct model_su_policy p;
	struct model_su_eval ev;
	unsigned int i, e;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(b_rows); i++) {
		const struct b_row *r = &b_rows[i];
		unsigned int want[4][2] = {
			{ r->v3_raw, r->v3_opp }, { r->ml5_raw, r->ml5_opp },
			{ r->ml60_raw, r->ml60_opp }, { r->ml68_raw, r->ml68_opp },
		};

		for (e = 0; e < ARRAY_SIZE(era); e++) {
			struct model_su_cpu_in in = cin(r->util);

			in.rq_min = r->rq_min;
			in.rq_max = r->rq_max;
			mk_b(&p, era[e].kver, era[e].v);
			assert_int_equal(model_su_expected(&p, &in, &ev, NULL), 0);
			EXPECT(i * 10 + e, era[e].rule, "raw", ev.raw_khz, want[e][0]);
			EXPECT(i * 10 + e, era[e].rule, "OPP", ev.freq_khz, want[e][1]);
		}
	}
	/* With max = 1100000: util 900 -> 1538085 -> 1100000 */
	for (e = 0; e < 2; e++) {
		struct model_su_cpu_in in = cin(900);

		mk_b(&p, era[e].kver, era[e].v);
		p.max_khz = 1100000;
		assert_int_equal(model_su_expected(&p, &in, &ev, NULL), 0);
		EXPECT(e, "S27", "raw", ev.raw_khz, 1538085);
		EXPECT(e, "S27", "OPP", ev.freq_khz, 1100000);
	}
}

/* ---- S12–S14: shared policies ---- */

static const struct shared_case {
	const char *rule;
	unsigned int kver;
	enum model_variant v;
	unsigned int util0, util1, rq_max1;
	bool is_idle1;
	unsigned int want_cpu, want_raw, want_opp;
} shared_cases[] = {
	{ "S13", KV(4, 19), V3, 300, 700, 1024, 0, 1, 1708984, 2000000 },
	{ "S13", KV(5, 10), ML, 300, 700, 1024, 0, 1, 1708984, 2000000 },
	{ "S14", KV(6, 8), ML, 300, 700, 1024, 0, 1, 1708984, 2000000 },
	/* cpu1 idle, retained MAX 296, blocked util 700 -> 296; cpu0 300 wins */
	{ "VR11", KV(4, 19), V3, 300, 700, 296, 1, 0, 732421, 1000000 },
	{ "MR4", KV(5, 10), ML, 300, 700, 296, 1, 0, 732421, 1000000 },
	{ "MR4", KV(6, 8), ML, 300, 700, 296, 1, 0, 732421, 1000000 },
	{ "S13", KV(4, 19), V3, 300, 300, 1024, 0, 0, 732421, 1000000 },
};

static void test_s12_s14_shared(void **state)
{
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(shared_cases); i++) {
		const struct shared_case *c = &shared_cases[i];
		struct model_su_policy p;
		struct model_su_cpu_in in[2] = { cin(c->util0), cin(c->util1) };
		struct model_su_eval ev;

		mk_a(&p, c->kver, c->v);
		in[1].rq_max = c->rq_max1;
		in[1].is_rq_idle = c->is_idle1;
		in[1].rq_min = 600;	/* an idle rq reads MIN 0 whatever was stored */
		if (!c->is_idle1)
			in[1].rq_min = 0;
		assert_int_equal(model_su_expected(&p, in, &ev, NULL), 0);
		EXPECT(i, c->rule, "deciding cpu", ev.cpu_idx, c->want_cpu);
		EXPECT(i, c->rule, "raw", ev.raw_khz, c->want_raw);
		EXPECT(i, c->rule, "OPP", ev.freq_khz, c->want_opp);
	}
}

/* S13 ratio: a kHz iowait boost (4.19) competes as boost / cpuinfo max. */
static void test_s13_ratio_khz_boost(void **state)
{
	struct model_su_policy p;
	struct model_su_cpu_in in[2] = { cin(300), cin(0) };
	struct model_su_eval ev;

	(void)state;
	mk_a(&p, KV(4, 19), ML);
	in[1].iowait_boost = 1000000;	/* 0.5 of cpuinfo max beats 300/1024 */
	assert_int_equal(model_su_expected(&p, in, &ev, NULL), 0);
	assert_int_equal(ev.cpu_idx, 1);
	assert_int_equal(ev.util.util, 1000000);
	assert_int_equal(ev.util.scale, 2000000);
	assert_int_equal(ev.raw_khz, 1250000);
	assert_int_equal(ev.freq_khz, 1500000);
}

/* S12 (4.11–4.17): stored utils; stale CPUs are ignored, RT flags force max. */
static void test_s12_legacy_shared(void **state)
{
	struct model_su_policy p;
	struct model_su_gov g;
	struct model_su_result res;
	struct model_su_cpu_in in[2] = { cin(300), cin(700) };

	(void)state;
	mk_a(&p, KV(4, 11), ML);
	p.rate_limit_us = 10000;
	model_su_gov_start(&p, &g);
	assert_int_equal(model_su_gov_update(&p, &g, 1, T0, 0, in, &res, NULL), 0);
	assert_int_equal(res.next_freq_khz, 2000000);
	/* cpu1 updated at the last frequency update: still counts */
	assert_int_equal(model_su_gov_update(&p, &g, 0, T0 + 20 * MS, 0, in, &res, NULL), 0);
	assert_true(res.is_evaluated);
	assert_int_equal(res.next_freq_khz, 2000000);
	/* 4.11: the evaluation restarted the clock; cpu1 is now a tick older */
	assert_int_equal(model_su_gov_update(&p, &g, 0, T0 + 40 * MS, 0, in, &res, NULL), 0);
	assert_int_equal(res.next_freq_khz, 1000000);
	/* counted from now instead, cpu1 drops out one evaluation earlier */
	mk_a(&p, KV(4, 11), ML);
	p.rate_limit_us = 10000;
	p.feat.is_legacy_stale_now = true;
	model_su_gov_start(&p, &g);
	model_su_gov_update(&p, &g, 1, T0, 0, in, &res, NULL);
	model_su_gov_update(&p, &g, 0, T0 + 20 * MS, 0, in, &res, NULL);
	assert_int_equal(res.next_freq_khz, 1000000);
	/* a CPU whose last callback was RT forces cpuinfo max */
	model_su_gov_update(&p, &g, 1, T0 + 29 * MS, MODEL_SU_FLAG_RT, in, &res, NULL);
	assert_false(res.is_evaluated);
	model_su_gov_update(&p, &g, 0, T0 + 31 * MS, 0, in, &res, NULL);
	assert_true(res.is_evaluated);
	assert_int_equal(res.next_freq_khz, 2000000);
}

/* Fill the stack the next call will use with ones (see the test below). */
static __attribute__((noinline)) void dirty_stack(void)
{
	volatile unsigned char junk[16384];

	memset((void *)junk, 0xff, sizeof(junk));
	(void)junk[0];
}

/*
 * S12 (4.11–4.17): while no CPU of a shared policy beats util 0 (all idle,
 * or the busy one stale), the kernel asks util 0 of max 1: the lowest OPP.
 * Regression: the model left the "RT/DL: cpuinfo max" flag of that answer
 * uninitialized, and whatever the stack held could pick cpuinfo max
 * (valgrind: a jump on an uninitialised value). The stack is dirtied
 * before each update, so that the old code picked 2000000 here.
 */
static void test_s12_legacy_shared_idle(void **state)
{
	static const struct {
		unsigned int kver;
		unsigned int util1;		/* cpu1's stored util (cpu0: 0) */
		unsigned int want_khz[3];	/* after each update */
	} rows[] = {
		{ KV(4, 14), 0, { 500000, 500000, 500000 } },	/* both idle */
		/* cpu1 counts until a frequency update a tick after its own */
		{ KV(4, 14), 700, { 2000000, 2000000, 500000 } },
		{ KV(4, 11), 0, { 500000, 500000, 500000 } },
		{ KV(4, 17), 0, { 500000, 500000, 500000 } },
	};
	/* cpu1 at T0, cpu0 20 ms and 40 ms later */
	static const struct { unsigned int cpu, ms; } steps[3] = { { 1, 0 }, { 0, 20 }, { 0, 40 } };

	(void)state;
	for (unsigned int i = 0; i < ARRAY_SIZE(rows); i++) {
		struct model_su_policy p;
		struct model_su_gov g;
		struct model_su_result res;
		struct model_su_cpu_in in[2] = { cin(0), cin(rows[i].util1) };

		mk_a(&p, rows[i].kver, ML);
		p.rate_limit_us = 10000;
		model_su_gov_start(&p, &g);
		for (unsigned int s = 0; s < 3; s++) {
			dirty_stack();
			assert_int_equal(model_su_gov_update(&p, &g, steps[s].cpu,
							     T0 + steps[s].ms * MS, 0, in, &res,
							     NULL), 0);
			EXPECT(i, "S12", "evaluated", res.is_evaluated, true);
			EXPECT(i, "S12", "next kHz", res.next_freq_khz, rows[i].want_khz[s]);
		}
	}
}

/* ---- S11 cache, S19 commit ---- */

static void test_s11_cache(void **state)
{
	struct model_su_policy p;
	struct model_su_gov g;
	struct model_su_result res;
	struct model_su_cpu_in in[2] = { cin(300), cin(0) };

	(void)state;
	mk_a(&p, KV(5, 10), ML);
	model_su_gov_start(&p, &g);
	model_su_gov_update(&p, &g, 0, T0, 0, in, &res, NULL);
	assert_false(res.is_cached);
	assert_int_equal(g.cached_raw_khz, 732421);
	model_su_gov_update(&p, &g, 0, T0 + 2 * MS, 0, in, &res, NULL);
	assert_true(res.is_evaluated && res.is_cached);
	assert_int_equal(res.next_freq_khz, 1000000);
	assert_false(res.is_committed);
	/* a limits change skips the cache once (S17) */
	p.max_khz = 1500000;
	g.is_limits_changed = true;
	model_su_gov_update(&p, &g, 0, T0 + 3 * MS, 0, in, &res, NULL);
	assert_true(res.is_forced);
	assert_false(res.is_cached);
}

static void test_s19_initial_commit(void **state)
{
	struct model_su_policy p;
	struct model_su_gov g;
	struct model_su_result res;
	struct model_su_cpu_in in[2] = { cin(0), cin(0) };

	(void)state;
	/* 4.18+: next_freq and cache start at 0: util 0 commits nothing */
	mk_a(&p, KV(4, 19), ML);
	model_su_gov_start(&p, &g);
	assert_int_equal(g.next_freq_khz, 0);
	model_su_gov_update(&p, &g, 0, T0, 0, in, &res, NULL);
	assert_true(res.is_evaluated && res.is_cached);
	assert_false(res.is_committed);
	assert_int_equal(res.emit, MODEL_SU_EMIT_NONE);
	/* 4.11–4.17: next_freq starts at UINT_MAX: the first evaluation commits */
	mk_a(&p, KV(4, 14), ML);
	model_su_gov_start(&p, &g);
	assert_int_equal(g.next_freq_khz, MODEL_SU_FREQ_INVALID);
	model_su_gov_update(&p, &g, 0, T0, 0, in, &res, NULL);
	assert_true(res.is_committed);
	assert_int_equal(res.next_freq_khz, 500000);
	assert_int_equal(p.cur_khz, 500000);
}

/* ---- S15, S16: rate limit timeline of §9 ---- */

static const struct rate_step {
	unsigned long long t_us;
	unsigned int util;
	bool is_evaluated, is_committed;
	unsigned int next_freq;
} rate_418[] = {
	{ 0, 300, 1, 1, 1000000 },
	{ 4000, 700, 0, 0, 1000000 },
	{ 9999, 700, 0, 0, 1000000 },
	{ 10000, 700, 1, 1, 2000000 },
	{ 12000, 300, 0, 0, 2000000 },
	{ 19999, 300, 0, 0, 2000000 },
	{ 20000, 300, 1, 1, 1000000 },
}, rate_legacy[] = {
	{ 0, 300, 1, 1, 1000000 },
	{ 10000, 300, 1, 0, 1000000 },	/* unchanged, but the clock restarts */
	{ 15000, 700, 0, 0, 1000000 },	/* 4.18+ would evaluate here */
	{ 20000, 700, 1, 1, 2000000 },
}, rate_419_same[] = {
	{ 0, 300, 1, 1, 1000000 },
	{ 10000, 300, 1, 0, 1000000 },
	{ 15000, 700, 1, 1, 2000000 },
};

static void run_rate(const char *rule, unsigned int kver, const struct rate_step *s,
		     unsigned int n, enum model_su_emit emit)
{
	struct model_su_policy p;
	struct model_su_gov g;
	struct model_su_result res;
	unsigned int i;

	mk_a(&p, kver, ML);
	p.rate_limit_us = 10000;
	model_su_gov_start(&p, &g);
	for (i = 0; i < n; i++) {
		struct model_su_cpu_in in[2] = { cin(s[i].util), cin(0) };
		unsigned long long t = T0 + s[i].t_us * 1000;

		assert_int_equal(model_su_gov_update(&p, &g, 0, t, 0, in, &res, NULL), 0);
		EXPECT(i, rule, "evaluated", res.is_evaluated, s[i].is_evaluated);
		EXPECT(i, rule, "committed", res.is_committed, s[i].is_committed);
		EXPECT(i, rule, "next_freq", res.next_freq_khz, s[i].next_freq);
		if (res.is_committed) {
			EXPECT(i, rule, "emit", res.emit, emit);
			EXPECT(i, rule, "earliest change",
			       model_su_gov_earliest_change_ns(&p, &g, t), t + 10 * MS);
		}
	}
}

static void test_s15_s16_rate_limit(void **state)
{
	(void)state;
	run_rate("S16", KV(5, 10), rate_418, ARRAY_SIZE(rate_418), MODEL_SU_EMIT_POLICY);
	run_rate("S16", KV(4, 19), rate_418, ARRAY_SIZE(rate_418), MODEL_SU_EMIT_EVAL_CPU);
	run_rate("S16", KV(4, 14), rate_legacy, ARRAY_SIZE(rate_legacy), MODEL_SU_EMIT_EVAL_CPU);
	run_rate("S16", KV(4, 19), rate_419_same, ARRAY_SIZE(rate_419_same),
		 MODEL_SU_EMIT_EVAL_CPU);
}

/* S15: the gate's explanation and the earliest change. */
static void test_s15_gate_explain(void **state)
{
	struct model_su_policy p;
	struct model_su_gov g;
	struct model_su_result res;
	struct model_su_explain ex = { 0 };
	struct model_su_cpu_in in[2] = { cin(300), cin(0) };

	(void)state;
	mk_a(&p, KV(5, 10), ML);
	p.rate_limit_us = 10000;
	model_su_gov_start(&p, &g);
	assert_int_equal(model_su_gov_earliest_change_ns(&p, &g, T0), T0);
	model_su_gov_update(&p, &g, 0, T0, 0, in, &res, NULL);
	model_su_gov_update(&p, &g, 0, T0 + 4 * MS, 0, in, &res, &ex);
	assert_false(res.is_evaluated);
	assert_int_equal(ex.nr, 1);
	assert_string_equal(ex.step[0].rule, "S15");
	assert_int_equal(ex.step[0].nr_values, 2);
	assert_int_equal(ex.step[0].value[0], 4 * MS);
	assert_int_equal(ex.step[0].value[1], 10 * MS);
	assert_int_equal(model_su_gov_earliest_change_ns(&p, &g, T0 + 4 * MS), T0 + 10 * MS);
	assert_int_equal(model_su_gov_earliest_change_ns(&p, &g, T0 + 30 * MS), T0 + 30 * MS);
}

/* S15: default rate limit from the driver. */
static const struct rl_case {
	const char *rule;
	unsigned int kver, delay_us, latency_us, want;
} rl_cases[] = {
	{ "S15", KV(4, 11), 0, 0, 1000 },
	{ "S15", KV(4, 11), 0, 50, 50000 },
	{ "S15", KV(4, 14), 0, 50, 10000 },
	{ "S15", KV(4, 14), 0, 5, 5000 },
	{ "S15", KV(5, 10), 300, 50, 300 },
	{ "S15", KV(6, 8), 0, 1, 1000 },
	{ "S15", KV(6, 8), 0, 5, 2000 },
	{ "S15", KV(6, 8), 0, 3000, 3000 },
	{ "S15", KV(6, 10), 0, 500, 750 },
	{ "S15", KV(6, 10), 0, 0, 1000 },
};

static void test_s15_default_rate_limit(void **state)
{
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(rl_cases); i++) {
		const struct rl_case *c = &rl_cases[i];

		EXPECT(i, c->rule, "rate_limit_us",
		       model_su_default_rate_limit_us(c->kver, c->delay_us, c->latency_us),
		       c->want);
	}
}

/* S16 (4.11–4.17 slow path): no evaluation while the kthread request is pending. */
static void test_s16_legacy_slow_path(void **state)
{
	struct model_su_policy p;
	struct model_su_gov g;
	struct model_su_result res;
	struct model_su_cpu_in in[2] = { cin(300), cin(0) };

	(void)state;
	mk_a(&p, KV(4, 14), ML);
	p.is_fast_switch = false;
	model_su_gov_start(&p, &g);
	model_su_gov_update(&p, &g, 0, T0, 0, in, &res, NULL);
	assert_int_equal(res.emit, MODEL_SU_EMIT_DEFERRED);
	assert_int_equal(p.cur_khz, 2000000);
	model_su_gov_update(&p, &g, 0, T0 + 20 * MS, 0, in, &res, NULL);
	assert_false(res.is_evaluated);
	model_su_gov_work(&p, &g, &res);
	assert_int_equal(res.emit, MODEL_SU_EMIT_POLICY);
	assert_int_equal(p.cur_khz, 1000000);
	model_su_gov_update(&p, &g, 0, T0 + 40 * MS, 0, in, &res, NULL);
	assert_true(res.is_evaluated);
}

/* ---- S17: forced updates ---- */

static const struct forced_case {
	const char *rule;
	unsigned int kver;
	bool is_flagged;		/* CPUFREQ_NEED_UPDATE_LIMITS driver */
	unsigned int new_min, new_max;
	bool is_committed;
	unsigned int next_freq;
	enum model_su_emit emit;
} forced_cases[] = {
	/* max lowered to 1500000: util 900 keeps raw 2197265 */
	{ "S17", KV(4, 14), 0, 500000, 1500000, 1, 1500000, MODEL_SU_EMIT_EVAL_CPU },
	{ "S17", KV(4, 19), 0, 500000, 1500000, 1, 1500000, MODEL_SU_EMIT_EVAL_CPU },
	{ "S17", KV(5, 10), 0, 500000, 1500000, 1, 1500000, MODEL_SU_EMIT_POLICY },
	{ "S17", KV(6, 14), 0, 500000, 1500000, 0, 2000000, MODEL_SU_EMIT_NONE },
	{ "S17", KV(6, 14), 1, 500000, 1500000, 1, 1500000, MODEL_SU_EMIT_POLICY },
	{ "S17", KV(6, 15), 0, 500000, 1500000, 1, 1500000, MODEL_SU_EMIT_POLICY },
	/* a limits change that leaves the OPP alone */
	{ "S17", KV(4, 19), 0, 1000000, 2000000, 0, 2000000, MODEL_SU_EMIT_NONE },
	{ "S17", KV(5, 10), 0, 1000000, 2000000, 1, 2000000, MODEL_SU_EMIT_POLICY },
	{ "S17", KV(6, 15), 0, 1000000, 2000000, 0, 2000000, MODEL_SU_EMIT_NONE },
	{ "S17", KV(6, 15), 1, 1000000, 2000000, 1, 2000000, MODEL_SU_EMIT_POLICY },
};

static void test_s17_forced(void **state)
{
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(forced_cases); i++) {
		const struct forced_case *c = &forced_cases[i];
		struct model_su_policy p;
		struct model_su_gov g;
		struct model_su_result res;
		struct model_su_cpu_in in[2] = { cin(900), cin(0) };

		mk_a(&p, c->kver, ML);
		p.rate_limit_us = 10000;
		p.is_need_update_limits = c->is_flagged;
		model_su_gov_start(&p, &g);
		model_su_gov_update(&p, &g, 0, T0, 0, in, &res, NULL);
		EXPECT(i, c->rule, "first commit", res.next_freq_khz, 2000000);
		assert_int_equal(model_su_gov_limits(&p, &g, c->new_min, c->new_max, &res), 0);
		EXPECT(i, c->rule, "fast switch: no change yet", res.emit, MODEL_SU_EMIT_NONE);
		EXPECT(i, c->rule, "earliest change", model_su_gov_earliest_change_ns(&p, &g,
		       T0 + MS), T0 + MS);
		model_su_gov_update(&p, &g, 0, T0 + 2 * MS, 0, in, &res, NULL);
		EXPECT(i, c->rule, "evaluated inside the rate limit", res.is_evaluated, 1);
		EXPECT(i, c->rule, "forced", res.is_forced, 1);
		EXPECT(i, c->rule, "committed", res.is_committed, c->is_committed);
		EXPECT(i, c->rule, "next_freq", res.next_freq_khz, c->next_freq);
		EXPECT(i, c->rule, "emit", res.emit, c->emit);
		/* the bypass is used up: the next callback inside the limit is gated */
		model_su_gov_update(&p, &g, 0, T0 + 3 * MS, 0, in, &res, NULL);
		EXPECT(i, c->rule, "gated again", res.is_evaluated, 0);
	}
}

/* S17 5.9–≈6.13: a NEED_UPDATE_LIMITS driver is called at every evaluation. */
static void test_s17_flagged_driver_keeps_calling(void **state)
{
	struct model_su_policy p;
	struct model_su_gov g;
	struct model_su_result res;
	struct model_su_cpu_in in[2] = { cin(900), cin(0) };

	(void)state;
	mk_a(&p, KV(5, 10), ML);
	p.is_need_update_limits = true;
	model_su_gov_start(&p, &g);
	model_su_gov_update(&p, &g, 0, T0, 0, in, &res, NULL);
	assert_true(res.is_committed);
	model_su_gov_update(&p, &g, 0, T0 + 2 * MS, 0, in, &res, NULL);
	assert_true(res.is_committed && !res.is_cached);
	assert_int_equal(res.emit, MODEL_SU_EMIT_POLICY);
	/* 6.15+: only the first evaluation after a limits change calls it */
	mk_a(&p, KV(6, 15), ML);
	p.is_need_update_limits = true;
	model_su_gov_start(&p, &g);
	model_su_gov_update(&p, &g, 0, T0, 0, in, &res, NULL);
	model_su_gov_update(&p, &g, 0, T0 + 2 * MS, 0, in, &res, NULL);
	assert_false(res.is_committed);
}

/* S17: a DL bandwidth increase bypasses the rate limit (4.19+). */
static void test_s17_dl_bandwidth(void **state)
{
	static const struct { unsigned int kver; bool is_evaluated; } rows[] = {
		{ KV(4, 18), 0 }, { KV(4, 19), 1 }, { KV(6, 8), 1 },
	};
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		struct model_su_policy p;
		struct model_su_gov g;
		struct model_su_result res;
		struct model_su_cpu_in in[2] = { cin(300), cin(0) };

		mk_a(&p, rows[i].kver, ML);
		p.rate_limit_us = 10000;
		model_su_gov_start(&p, &g);
		model_su_gov_update(&p, &g, 0, T0, 0, in, &res, NULL);
		in[0].bw_dl = 100;
		in[0].is_dl_runnable = true;
		model_su_gov_update(&p, &g, 0, T0 + MS, 0, in, &res, NULL);
		EXPECT(i, "S17", "evaluated", res.is_evaluated, rows[i].is_evaluated);
		/* the same bandwidth again does not bypass */
		model_su_gov_update(&p, &g, 0, T0 + 2 * MS, 0, in, &res, NULL);
		EXPECT(i, "S17", "no second bypass", res.is_evaluated, 0);
	}
}

/* ---- S18: busy hold, MS6 ---- */

static const struct hold_case {
	const char *rule;
	unsigned int kver;
	unsigned int nr_cpus;
	bool is_forced;			/* limits changed before the 2nd evaluation */
	unsigned int rq_max2, util2;	/* second evaluation */
	bool is_held;
	unsigned int next_freq, cached;
} hold_cases[] = {
	{ "S18", KV(4, 11), 1, 0, 1024, 100, 0, 500000, 170898 },	/* before 4.12 */
	{ "S18", KV(4, 12), 1, 0, 1024, 100, 1, 1400000, 0 },
	{ "S18", KV(4, 19), 1, 0, 1024, 100, 1, 1400000, 0 },
	{ "S18", KV(4, 19), 2, 0, 1024, 100, 0, 500000, 170898 },	/* shared */
	{ "S18", KV(5, 10), 1, 0, 1024, 100, 1, 1400000, 0 },
	{ "S18", KV(5, 10), 1, 1, 1024, 100, 0, 500000, 170898 },	/* forced */
	{ "S18", KV(6, 1), 1, 0, 1024, 100, 1, 1400000, 1538085 },	/* restored */
	{ "S18", KV(6, 15), 1, 1, 1024, 100, 0, 500000, 170898 },
	/* capped rq: rq MAX 512, util 600 >= 512 */
	{ "MS6", KV(5, 17), 1, 0, 512, 600, 1, 1400000, 1538085 },
	{ "MS6", KV(5, 18), 1, 0, 512, 600, 0, 1100000, 875000 },
	{ "MS6", KV(6, 1), 1, 0, 512, 600, 0, 1100000, 875000 },
	{ "MS6", KV(6, 1), 1, 0, 512, 400, 1, 1400000, 1538085 },	/* not capped */
};

static void test_s18_busy_hold(void **state)
{
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(hold_cases); i++) {
		const struct hold_case *c = &hold_cases[i];
		struct model_su_policy p;
		struct model_su_gov g;
		struct model_su_result res;
		struct model_su_cpu_in in[2] = { cin(900), cin(0) };

		mk_policy(&p, c->kver, ML, opps_b, ARRAY_SIZE(opps_b), c->nr_cpus);
		model_su_gov_start(&p, &g);
		in[0].idle_calls = 5;
		model_su_gov_update(&p, &g, 0, T0, 0, in, &res, NULL);
		EXPECT(i, c->rule, "first commit", res.next_freq_khz, 1400000);
		if (c->is_forced)
			model_su_gov_limits(&p, &g, 500000, 1400000, &res);
		in[0].util_cfs = c->util2;
		in[0].rq_max = c->rq_max2;
		model_su_gov_update(&p, &g, 0, T0 + 20 * MS, 0, in, &res, NULL);
		EXPECT(i, c->rule, "held", res.is_held, c->is_held);
		EXPECT(i, c->rule, "next_freq", res.next_freq_khz, c->next_freq);
		EXPECT(i, c->rule, "cache", g.cached_raw_khz, c->cached);
		if (!c->is_held)
			continue;
		/* an idle entry since the last evaluation ends the hold */
		in[0].idle_calls = 6;
		model_su_gov_update(&p, &g, 0, T0 + 40 * MS, 0, in, &res, NULL);
		EXPECT(i, c->rule, "hold ends after idle", res.is_held, 0);
		EXPECT(i, c->rule, "lower after idle", res.next_freq_khz < 1400000, 1);
	}
}

/* S18 needs CONFIG_NO_HZ_COMMON. */
static void test_s18_no_nohz(void **state)
{
	struct model_su_policy p;
	struct model_su_gov g;
	struct model_su_result res;
	struct model_su_cpu_in in = cin(900);

	(void)state;
	mk_b(&p, KV(5, 10), ML);
	p.is_nohz = false;
	model_su_gov_start(&p, &g);
	model_su_gov_update(&p, &g, 0, T0, 0, &in, &res, NULL);
	in.util_cfs = 100;
	model_su_gov_update(&p, &g, 0, T0 + 20 * MS, 0, &in, &res, NULL);
	assert_false(res.is_held);
	assert_int_equal(res.next_freq_khz, 500000);
}

/* ---- S20–S22, VS3, VQ5, MS4: iowait boost sequences ---- */

static const struct io_step {
	unsigned int t_ms;
	bool is_iowait;
	unsigned int boost;		/* boost state after the callback */
	unsigned int raw, next_freq;
} io_cap[] = {			/* §9: HZ 250, rate limit 500 µs, util 0 */
	{ 0, 1, 128, 312500, 500000 },
	{ 1, 1, 256, 625000, 1000000 },
	{ 2, 1, 512, 1250000, 1500000 },
	{ 3, 1, 1024, 2500000, 2000000 },
	{ 4, 0, 512, 1250000, 1500000 },
	{ 5, 0, 256, 625000, 1000000 },
	{ 6, 0, 128, 312500, 500000 },
	{ 7, 0, 0, 0, 500000 },
}, io_gap[] = {			/* a gap > 4 ms resets */
	{ 0, 1, 128, 312500, 500000 },
	{ 1, 1, 256, 625000, 1000000 },
	{ 2, 1, 512, 1250000, 1500000 },
	{ 7, 1, 128, 312500, 500000 },
	{ 12, 0, 0, 0, 500000 },
}, io_clamped[] = {		/* 6.0+ (MS4): rq MAX 512 limits the boost */
	{ 0, 1, 128, 312500, 500000 },
	{ 1, 1, 256, 625000, 1000000 },
	{ 2, 1, 512, 1250000, 1500000 },
	{ 3, 1, 1024, 1250000, 1500000 },
}, io_khz[] = {			/* S21: kHz, from policy min */
	{ 0, 1, 500000, 625000, 1000000 },
	{ 1, 1, 1000000, 1250000, 1500000 },
	{ 2, 1, 2000000, 2500000, 2000000 },
	{ 3, 1, 2000000, 2500000, 2000000 },
	{ 4, 0, 1000000, 1250000, 1500000 },
	{ 5, 0, 500000, 625000, 1000000 },
	{ 6, 0, 0, 0, 500000 },
}, io_v3_seed[] = {		/* VQ5: the ceiling is a clamp of a kHz value */
	{ 0, 1, 500000, 625000, 1000000 },
	{ 1, 1, 1024, 1280, 500000 },
}, io_v3_intent[] = {		/* ceiling = max kHz * rq MAX / 1024 */
	{ 0, 1, 500000, 625000, 1000000 },
	{ 1, 1, 1000000, 1250000, 1500000 },
	{ 2, 1, 1000000, 1250000, 1500000 },
}, io_legacy[] = {		/* S22: cpuinfo max at once, halved per use */
	{ 0, 1, 1000000, 2500000, 2000000 },
	{ 1, 0, 500000, 1250000, 1500000 },
	{ 2, 0, 250000, 625000, 1000000 },
	{ 3, 0, 125000, 312500, 500000 },
	{ 10, 0, 0, 0, 500000 },
};

static void run_io(const char *rule, unsigned int kver, enum model_variant v,
		   enum model_fidelity fid, unsigned int rq_max,
		   const struct io_step *s, unsigned int n)
{
	struct model_su_policy p;
	struct model_su_gov g;
	struct model_su_result res;
	struct model_su_cpu_in in[2] = { cin(0), cin(0) };
	unsigned int i;

	mk_a(&p, kver, v);
	p.fidelity = fid;
	p.rate_limit_us = 500;
	in[0].rq_max = rq_max;
	model_su_gov_start(&p, &g);
	for (i = 0; i < n; i++) {
		unsigned long long t = T0 + s[i].t_ms * MS;

		assert_int_equal(model_su_gov_update(&p, &g, 0, t, s[i].is_iowait ?
						     MODEL_SU_FLAG_IOWAIT : 0, in, &res, NULL), 0);
		EXPECT(i, rule, "boost", g.cpu[0].iowait_boost, s[i].boost);
		if (res.is_evaluated && !res.is_cached)
			EXPECT(i, rule, "raw", res.raw_khz, s[i].raw);
		EXPECT(i, rule, "next_freq", res.next_freq_khz, s[i].next_freq);
	}
}

static void test_s20_s22_iowait(void **state)
{
	(void)state;
	run_io("S20", KV(5, 10), ML, MODEL_INTENT, 1024, io_cap, ARRAY_SIZE(io_cap));
	run_io("S20", KV(6, 1), ML, MODEL_INTENT, 1024, io_cap, ARRAY_SIZE(io_cap));
	run_io("S20", KV(5, 10), ML, MODEL_INTENT, 1024, io_gap, ARRAY_SIZE(io_gap));
	run_io("MS4", KV(6, 1), ML, MODEL_INTENT, 512, io_clamped, ARRAY_SIZE(io_clamped));
	run_io("MS4", KV(5, 18), ML, MODEL_INTENT, 512, io_clamped, ARRAY_SIZE(io_clamped));
	run_io("S21", KV(4, 19), ML, MODEL_INTENT, 1024, io_khz, ARRAY_SIZE(io_khz));
	run_io("VS3", KV(4, 19), V3, MODEL_INTENT, 1024, io_khz, ARRAY_SIZE(io_khz));
	run_io("VQ5", KV(4, 19), V3, MODEL_SEED, 1024, io_v3_seed, ARRAY_SIZE(io_v3_seed));
	run_io("VQ5", KV(4, 19), V3, MODEL_INTENT, 512, io_v3_intent, ARRAY_SIZE(io_v3_intent));
	run_io("S22", KV(4, 11), ML, MODEL_INTENT, 1024, io_legacy, ARRAY_SIZE(io_legacy));
}

/* MS4: before 5.18 the boost escapes the max clamp. */
static void test_ms4_unclamped_before_518(void **state)
{
	struct model_su_policy p;
	struct model_su_cpu_in in[2] = { cin(0), cin(0) };
	struct model_su_eval ev;

	(void)state;
	mk_a(&p, KV(5, 17), ML);
	in[0].rq_max = 512;
	in[0].iowait_boost = 1024;
	assert_int_equal(model_su_expected(&p, in, &ev, NULL), 0);
	assert_int_equal(ev.raw_khz, 2500000);
	/* 6.8+: the boost raises util before MS5, so the max clamp bounds it */
	mk_a(&p, KV(6, 8), ML);
	assert_int_equal(model_su_expected(&p, in, &ev, NULL), 0);
	assert_int_equal(ev.util.util, 512);
	assert_int_equal(ev.raw_khz, 1000000);
	/* a utilization above the boost is left alone (S20) */
	mk_a(&p, KV(5, 10), ML);
	in[0] = cin(700);
	in[0].iowait_boost = 128;
	assert_int_equal(model_su_expected(&p, in, &ev, NULL), 0);
	assert_int_equal(ev.util.util, 700);
}

/* ---- S25–S27: applying frequencies and limits ---- */

static void test_s26_slow_path(void **state)
{
	struct model_su_policy p;
	struct model_su_gov g;
	struct model_su_result res;
	struct model_su_cpu_in in[2] = { cin(300), cin(0) };

	(void)state;
	mk_a(&p, KV(5, 10), ML);
	p.is_fast_switch = false;
	p.cur_khz = 500000;
	model_su_gov_start(&p, &g);
	model_su_gov_update(&p, &g, 0, T0, 0, in, &res, NULL);
	assert_true(res.is_committed);
	assert_int_equal(res.emit, MODEL_SU_EMIT_DEFERRED);
	assert_int_equal(p.cur_khz, 500000);
	/* a new request while pending only overwrites next_freq */
	in[0].util_cfs = 700;
	model_su_gov_update(&p, &g, 0, T0 + 2 * MS, 0, in, &res, NULL);
	assert_true(res.is_committed);
	assert_int_equal(res.emit, MODEL_SU_EMIT_NONE);
	assert_int_equal(res.next_freq_khz, 2000000);
	model_su_gov_work(&p, &g, &res);
	assert_int_equal(res.emit, MODEL_SU_EMIT_POLICY);
	assert_int_equal(res.freq_khz, 2000000);
	assert_int_equal(p.cur_khz, 2000000);
	/* the kthread resolves under the current limits; equal to cur: nothing */
	p.max_khz = 2000000;
	model_su_gov_work(&p, &g, &res);
	assert_int_equal(res.emit, MODEL_SU_EMIT_NONE);
	p.max_khz = 1500000;
	model_su_gov_work(&p, &g, &res);
	assert_int_equal(res.emit, MODEL_SU_EMIT_POLICY);
	assert_int_equal(p.cur_khz, 1500000);
}

/* S25: which CPUs get events for a fast switch. */
static void test_s25_fast_switch_events(void **state)
{
	static const struct { unsigned int kver; enum model_su_emit emit; bool is_unchanged; } rows[] = {
		{ KV(4, 11), MODEL_SU_EMIT_EVAL_CPU, 1 },
		{ KV(4, 14), MODEL_SU_EMIT_EVAL_CPU, 1 },
		{ KV(4, 17), MODEL_SU_EMIT_EVAL_CPU, 0 },
		{ KV(4, 19), MODEL_SU_EMIT_EVAL_CPU, 0 },
		{ KV(5, 10), MODEL_SU_EMIT_POLICY, 0 },
	};
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		struct model_su_policy p;
		struct model_su_gov g;
		struct model_su_result res;
		struct model_su_cpu_in in[2] = { cin(0), cin(300) };

		mk_a(&p, rows[i].kver, ML);
		p.cpu[0] = 4;
		p.cpu[1] = 5;
		model_su_gov_start(&p, &g);
		model_su_gov_update(&p, &g, 1, T0, 0, in, &res, NULL);
		EXPECT(i, "S25", "emit", res.emit, rows[i].emit);
		EXPECT(i, "S25", "freq", res.freq_khz, 1000000);
		if (rows[i].emit == MODEL_SU_EMIT_EVAL_CPU)
			EXPECT(i, "S25", "evaluating cpu", (unsigned int)res.emit_cpu, 5);
		model_su_gov_update(&p, &g, 1, T0 + 20 * MS, 0, in, &res, NULL);
		EXPECT(i, "S25", "unchanged state emitted", res.emit != MODEL_SU_EMIT_NONE,
		       rows[i].is_unchanged);
	}
}

static const struct s27_case {
	const char *rule;
	unsigned int kver;
	unsigned int cur, min, max;
	unsigned int want_cur;
	enum model_su_emit emit;
} s27_cases[] = {
	{ "S27", KV(5, 10), 1400000, 500000, 1100000, 1100000, MODEL_SU_EMIT_POLICY },
	{ "S27", KV(5, 10), 1400000, 500000, 1200000, 1100000, MODEL_SU_EMIT_POLICY },	/* relation H */
	{ "S27", KV(5, 16), 1400000, 500000, 1200000, 1100000, MODEL_SU_EMIT_POLICY },
	{ "S27", KV(5, 10), 500000, 900000, 1400000, 1100000, MODEL_SU_EMIT_POLICY },
	{ "S27", KV(5, 10), 850000, 500000, 1400000, 850000, MODEL_SU_EMIT_NONE },
	{ "S27", KV(4, 11), 1400000, 500000, 850000, 850000, MODEL_SU_EMIT_POLICY },
};

static void test_s27_limits(void **state)
{
	struct model_su_policy p;
	struct model_su_gov g;
	struct model_su_result res;
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(s27_cases); i++) {
		const struct s27_case *c = &s27_cases[i];

		mk_b(&p, c->kver, ML);
		p.is_fast_switch = false;
		p.cur_khz = c->cur;
		model_su_gov_start(&p, &g);
		assert_int_equal(model_su_gov_limits(&p, &g, c->min, c->max, &res), 0);
		EXPECT(i, c->rule, "cur", p.cur_khz, c->want_cur);
		EXPECT(i, c->rule, "emit", res.emit, c->emit);
		EXPECT(i, c->rule, "forced update pending", g.is_limits_changed, 1);
	}
	mk_b(&p, KV(6, 1), ML);
	model_su_gov_start(&p, &g);
	assert_int_equal(model_su_gov_limits(&p, &g, 900000, 800000, &res), -EINVAL);
	assert_int_equal(model_su_gov_limits(&p, &g, 0, 0, &res), -EINVAL);
	/* fast switch: the frequency moves at the next evaluation */
	assert_int_equal(model_su_gov_limits(&p, &g, 500000, 850000, &res), 0);
	assert_int_equal(res.emit, MODEL_SU_EMIT_NONE);
	assert_int_equal(p.cur_khz, 1400000);
}

/* ---- events.md §4: floor and ceiling ---- */

static const struct floor_case {
	const char *rule;
	unsigned int kver;
	enum model_variant v;
	unsigned int rq_min, rq_max;
	bool is_idle, is_used, is_invariant;
	unsigned int min, max;
	unsigned int want_util, want_raw, want_opp;
} floor_cases[] = {
	{ "VR8", KV(4, 19), V3, 512, 1024, 0, 1, 1, 500000, 2000000, 512, 1250000, 1500000 },
	{ "VR8", KV(4, 19), V3, 700, 300, 0, 1, 1, 500000, 2000000, 300, 732421, 1000000 },
	{ "MS1", KV(5, 10), ML, 700, 300, 0, 1, 1, 500000, 2000000, 700, 1708984, 2000000 },
	{ "S9", KV(6, 1), ML, 512, 1024, 0, 1, 1, 500000, 2000000, 512, 1250000, 1500000 },
	{ "MS5", KV(6, 8), ML, 512, 1024, 0, 1, 1, 500000, 2000000, 512, 1000000, 1000000 },
	{ "MR2", KV(5, 10), ML, 512, 1024, 0, 0, 1, 500000, 2000000, 0, 0, 500000 },
	{ "MR8", KV(5, 10), ML, 512, 1024, 1, 1, 1, 500000, 2000000, 0, 0, 500000 },
	{ "S27", KV(5, 10), ML, 0, 1024, 0, 1, 1, 1000000, 2000000, 0, 0, 1000000 },
	{ "S27", KV(5, 10), ML, 1024, 1024, 0, 1, 1, 500000, 1500000, 1024, 2500000, 1500000 },
	{ "S5", KV(4, 19), ML, 512, 1024, 0, 1, 1, 500000, 2000000, 0, 0, 500000 },
	{ "S8", KV(4, 19), V3, 512, 1024, 0, 1, 0, 500000, 2000000, 512, 625000, 1000000 },
};

static void test_floor(void **state)
{
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(floor_cases); i++) {
		const struct floor_case *c = &floor_cases[i];
		struct model_su_policy p;
		struct model_su_cpu_in in = cin(0);
		struct model_su_bound b;

		mk_a(&p, c->kver, c->v);
		p.is_invariant = c->is_invariant;
		p.cur_khz = 1000000;
		p.min_khz = c->min;
		p.max_khz = c->max;
		in.rq_min = c->rq_min;
		in.rq_max = c->rq_max;
		in.is_rq_idle = c->is_idle;
		in.is_uclamp_used = c->is_used;
		assert_int_equal(model_su_floor(&p, &in, &b, NULL), 0);
		EXPECT(i, c->rule, "bounded", b.is_bounded, 1);
		EXPECT(i, c->rule, "util", b.util, c->want_util);
		EXPECT(i, c->rule, "raw", b.raw_khz, c->want_raw);
		EXPECT(i, c->rule, "OPP", b.freq_khz, c->want_opp);
	}
}

/* The floor is a lower bound: every util from 0 to capacity stays at or above it. */
static void test_floor_is_bound(void **state)
{
	static const unsigned int kv[] = { KV(4, 19), KV(5, 10), KV(6, 1), KV(6, 8) };
	unsigned int k, u, lo, hi;

	(void)state;
	for (k = 0; k < ARRAY_SIZE(kv); k++) {
		for (lo = 0; lo <= 1024; lo += 128) {
			for (hi = 0; hi <= 1024; hi += 256) {
				struct model_su_policy p;
				struct model_su_cpu_in in[2] = { cin(0), cin(0) };
				struct model_su_bound fl, ce;
				struct model_su_eval ev;

				mk_a(&p, kv[k], k ? ML : V3);
				in[0].rq_min = lo;
				in[0].rq_max = hi;
				in[1].rq_max = hi;
				assert_int_equal(model_su_floor(&p, &in[0], &fl, NULL), 0);
				assert_int_equal(model_su_ceiling(&p, in, &ce, NULL), 0);
				for (u = 0; u <= 1024; u += 64) {
					in[0].util_cfs = u;
					model_su_expected(&p, in, &ev, NULL);
					if (ev.freq_khz < fl.freq_khz || ev.freq_khz > ce.freq_khz)
						fail_msg("kver %x min %u max %u util %u: %u outside [%u, %u]",
							 kv[k], lo, hi, u, ev.freq_khz,
							 fl.freq_khz, ce.freq_khz);
				}
			}
		}
	}
}

static const struct ceil_case {
	const char *rule;
	unsigned int kver;
	enum model_variant v;
	enum model_fidelity fid;
	unsigned int rq_min0, rq_max0, rq_max1;
	bool is_idle1, is_rt0, is_dl1, is_used;
	unsigned int max;
	bool is_bounded;
	unsigned int want_raw, want_opp;
} ceil_cases[] = {
	{ "VR11", KV(4, 19), V3, MODEL_INTENT, 0, 296, 296, 1, 0, 0, 1, 2000000, 1, 722656, 1000000 },
	{ "VR8", KV(4, 19), V3, MODEL_INTENT, 0, 1024, 296, 1, 0, 0, 1, 2000000, 1, 2500000, 2000000 },
	{ "VS1", KV(4, 19), V3, MODEL_SEED, 0, 296, 296, 0, 1, 0, 1, 2000000, 0, 2000000, 2000000 },
	{ "VQ12", KV(4, 19), V3, MODEL_INTENT, 0, 296, 296, 0, 1, 0, 1, 2000000, 1, 722656, 1000000 },
	{ "MS2", KV(5, 10), ML, MODEL_INTENT, 0, 296, 296, 0, 1, 0, 1, 2000000, 1, 722656, 1000000 },
	{ "MS2", KV(5, 10), ML, MODEL_INTENT, 0, 296, 296, 0, 1, 0, 0, 2000000, 0, 2000000, 2000000 },
	{ "S24", KV(5, 10), ML, MODEL_INTENT, 0, 296, 296, 0, 0, 1, 1, 2000000, 0, 2000000, 2000000 },
	{ "MS5", KV(6, 8), ML, MODEL_INTENT, 0, 296, 296, 1, 0, 0, 1, 2000000, 1, 578125, 1000000 },
	{ "S9", KV(6, 1), ML, MODEL_INTENT, 0, 296, 296, 1, 0, 0, 1, 2000000, 1, 722656, 1000000 },
	{ "MS1", KV(5, 10), ML, MODEL_INTENT, 700, 300, 300, 0, 0, 0, 1, 2000000, 1, 1708984, 2000000 },
	{ "VR8", KV(4, 19), V3, MODEL_INTENT, 700, 300, 300, 0, 0, 0, 1, 2000000, 1, 732421, 1000000 },
	{ "S27", KV(5, 10), ML, MODEL_INTENT, 0, 1024, 1024, 0, 0, 0, 1, 1500000, 1, 2500000, 1500000 },
	{ "S23", KV(4, 14), ML, MODEL_INTENT, 0, 1024, 1024, 0, 1, 0, 1, 2000000, 0, 2000000, 2000000 },
};

static void test_ceiling(void **state)
{
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(ceil_cases); i++) {
		const struct ceil_case *c = &ceil_cases[i];
		struct model_su_policy p;
		struct model_su_cpu_in in[2] = { cin(0), cin(0) };
		struct model_su_bound b;

		mk_a(&p, c->kver, c->v);
		p.fidelity = c->fid;
		p.max_khz = c->max;
		in[0].rq_min = c->rq_min0;
		in[0].rq_max = c->rq_max0;
		in[0].is_rt_runnable = c->is_rt0;
		in[1].rq_max = c->rq_max1;
		in[1].is_rq_idle = c->is_idle1;
		in[1].is_dl_runnable = c->is_dl1;
		in[0].is_uclamp_used = in[1].is_uclamp_used = c->is_used;
		assert_int_equal(model_su_ceiling(&p, in, &b, NULL), 0);
		EXPECT(i, c->rule, "bounded", b.is_bounded, c->is_bounded);
		EXPECT(i, c->rule, "raw", b.raw_khz, c->want_raw);
		EXPECT(i, c->rule, "OPP", b.freq_khz, c->want_opp);
	}
}

/* ---- explanations ---- */

static void expect_steps(const struct model_su_explain *ex, const char *const *rule,
			 const unsigned long long *value, unsigned int n)
{
	unsigned int i;

	if (ex->nr != n)
		fail_msg("explanation has %u steps, want %u", ex->nr, n);
	for (i = 0; i < n; i++) {
		if (strcmp(ex->step[i].rule, rule[i]))
			fail_msg("step %u: rule %s want %s", i, ex->step[i].rule, rule[i]);
		EXPECT(i, rule[i], ex->step[i].label, ex->step[i].value[0], value[i]);
		assert_non_null(ex->step[i].label);
	}
}

static void test_explain(void **state)
{
	static const char *const r419[] = { "S5", "VR8", "S24", "S9", "S10" };
	static const unsigned long long v419[] = { 300, 512, 512, 1250000, 1500000 };
	static const char *const r68[] = { "S7", "MS5", "MS5", "S9", "S10" };
	static const unsigned long long v68[] = { 300, 512, 512, 1000000, 1000000 };
	static const char *const rgov[] = { "S5", "VR8", "S24", "S9", "S10", "S19" };
	static const unsigned long long vgov[] = { 300, 512, 512, 1250000, 1500000, 1500000 };
	struct model_su_policy p;
	struct model_su_gov g;
	struct model_su_result res;
	struct model_su_explain ex;
	struct model_su_cpu_in in = cin(300);
	struct model_su_eval ev;
	unsigned int i;

	(void)state;
	in.rq_min = 512;
	mk_policy(&p, KV(4, 19), V3, opps_a, ARRAY_SIZE(opps_a), 1);
	memset(&ex, 0, sizeof(ex));
	assert_int_equal(model_su_expected(&p, &in, &ev, &ex), 0);
	expect_steps(&ex, r419, v419, ARRAY_SIZE(r419));
	assert_string_equal(ex.step[1].label, "clamped util");
	mk_policy(&p, KV(6, 8), ML, opps_a, ARRAY_SIZE(opps_a), 1);
	memset(&ex, 0, sizeof(ex));
	assert_int_equal(model_su_expected(&p, &in, &ev, &ex), 0);
	expect_steps(&ex, r68, v68, ARRAY_SIZE(r68));
	assert_int_equal(ex.step[1].nr_values, 2);
	assert_int_equal(ex.step[1].value[1], 1024);
	mk_policy(&p, KV(4, 19), V3, opps_a, ARRAY_SIZE(opps_a), 1);
	model_su_gov_start(&p, &g);
	memset(&ex, 0, sizeof(ex));
	model_su_gov_update(&p, &g, 0, T0, 0, &in, &res, &ex);
	expect_steps(&ex, rgov, vgov, ARRAY_SIZE(rgov));
	/*
	 * Regression: the mainline sum's first step named itself with an
	 * uninitialized pointer on kernels before 5.0 (S5 is the 4.18/4.19
	 * rule, S6 the 5.x one).
	 */
	in.rq_min = 0;
	mk_policy(&p, KV(4, 19), ML, opps_a, ARRAY_SIZE(opps_a), 1);
	memset(&ex, 0, sizeof(ex));
	assert_int_equal(model_su_expected(&p, &in, &ev, &ex), 0);
	assert_string_equal(ex.step[0].rule, "S5");
	mk_policy(&p, KV(5, 4), ML, opps_a, ARRAY_SIZE(opps_a), 1);
	memset(&ex, 0, sizeof(ex));
	assert_int_equal(model_su_expected(&p, &in, &ev, &ex), 0);
	assert_string_equal(ex.step[0].rule, "S6");
	/* fixed storage: excess steps are dropped and flagged */
	memset(&ex, 0, sizeof(ex));
	for (i = 0; i < MODEL_SU_EXPLAIN_MAX + 3; i++)
		model_su_explain_add(&ex, "S9", "x", 1, i, 0);
	assert_int_equal(ex.nr, MODEL_SU_EXPLAIN_MAX);
	assert_true(ex.is_truncated);
	model_su_explain_add(NULL, "S9", "x", 1, 0, 0);
}

static void test_gov_bad_input(void **state)
{
	struct model_su_policy p;
	struct model_su_gov g;
	struct model_su_result res;
	struct model_su_cpu_in in[2] = { cin(0), cin(0) };
	struct model_su_bound b;

	(void)state;
	mk_a(&p, KV(6, 1), ML);
	model_su_gov_start(&p, &g);
	assert_int_equal(model_su_gov_update(&p, &g, 2, T0, 0, in, &res, NULL), -EINVAL);
	in[0].util_cfs = 2000;
	assert_int_equal(model_su_gov_update(&p, &g, 0, T0, 0, in, &res, NULL), -EINVAL);
	assert_int_equal(model_su_floor(&p, &in[0], &b, NULL), -EINVAL);
	assert_int_equal(model_su_ceiling(&p, in, &b, NULL), -EINVAL);
	in[0].util_cfs = 0;
	p.opp_khz[1] = 1;
	assert_int_equal(model_su_gov_update(&p, &g, 0, T0, 0, in, &res, NULL), -EINVAL);
	assert_int_equal(model_su_floor(&p, &in[0], &b, NULL), -EINVAL);
}

/*
 * VS2: the clamps are the CPU aggregate, applied to cfs + rt only; DL
 * bandwidth and irq are added after clamping and may exceed the max clamp.
 * v3 (4.19): rq max 200, util_cfs 400, bw_dl 300 -> 200 + 300 = 500.
 */
static void test_vs2_dl_not_clamped(void **state)
{
	static const struct {
		unsigned int util_cfs, bw_dl, irq, rq_max;
		unsigned long long want;
	} rows[] = {
		{ 400, 0, 0, 200, 200 },	/* clamped */
		{ 400, 300, 0, 200, 500 },	/* bw_dl on top, unclamped */
		{ 400, 0, 512, 200, 612 },	/* 200 * 512 / 1024 + 512 */
	};
	struct model_su_policy p;
	struct model_su_cpu_in in;
	struct model_su_util u;

	(void)state;
	model_su_policy_init(&p, MODEL_KVER_V3, MODEL_V3);
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		memset(&in, 0, sizeof(in));
		in.util_cfs = rows[i].util_cfs;
		in.bw_dl = rows[i].bw_dl;
		in.irq = rows[i].irq;
		in.rq_max = rows[i].rq_max;
		model_su_cpu_util(&p, &in, &u, NULL);
		if (u.util != rows[i].want)
			fail_msg("case %zu (VS2): got %llu want %llu", i, u.util, rows[i].want);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_s1_policy_defaults),
		cmocka_unit_test(test_vs2_dl_not_clamped),
		cmocka_unit_test(test_s1_policy_check),
		cmocka_unit_test(test_s1_cpu_check),
		cmocka_unit_test(test_features),
		cmocka_unit_test(test_s9_platform_a),
		cmocka_unit_test(test_s10_opp_boundaries),
		cmocka_unit_test(test_s10_snapped_limits),
		cmocka_unit_test(test_s4_s7_cpu_util),
		cmocka_unit_test(test_s8_limits_noninvariant),
		cmocka_unit_test(test_s8_ref_freq),
		cmocka_unit_test(test_explain_same_result),
		cmocka_unit_test(test_s10_band_matches_expected),
		cmocka_unit_test(test_s8_noninvariant_steps),
		cmocka_unit_test(test_platform_b),
		cmocka_unit_test(test_s12_s14_shared),
		cmocka_unit_test(test_s13_ratio_khz_boost),
		cmocka_unit_test(test_s12_legacy_shared),
		cmocka_unit_test(test_s12_legacy_shared_idle),
		cmocka_unit_test(test_s11_cache),
		cmocka_unit_test(test_s19_initial_commit),
		cmocka_unit_test(test_s15_s16_rate_limit),
		cmocka_unit_test(test_s15_gate_explain),
		cmocka_unit_test(test_s15_default_rate_limit),
		cmocka_unit_test(test_s16_legacy_slow_path),
		cmocka_unit_test(test_s17_forced),
		cmocka_unit_test(test_s17_flagged_driver_keeps_calling),
		cmocka_unit_test(test_s17_dl_bandwidth),
		cmocka_unit_test(test_s18_busy_hold),
		cmocka_unit_test(test_s18_no_nohz),
		cmocka_unit_test(test_s20_s22_iowait),
		cmocka_unit_test(test_ms4_unclamped_before_518),
		cmocka_unit_test(test_s26_slow_path),
		cmocka_unit_test(test_s25_fast_switch_events),
		cmocka_unit_test(test_s27_limits),
		cmocka_unit_test(test_floor),
		cmocka_unit_test(test_floor_is_bound),
		cmocka_unit_test(test_ceiling),
		cmocka_unit_test(test_explain),
		cmocka_unit_test(test_gov_bad_input),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
