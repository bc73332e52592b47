// SPDX-License-Identifier: MIT
/*
 * Unit and property tests of the v3 model (model/v3.c, uclamp-v3.md). Each
 * table row names the rule it covers; the property test replays 1,000,000
 * random operations (UCVAL_PROP_OPS overrides the count) and checks every
 * CPU's incremental aggregate against a brute-force one after each of them.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define NR_CPUS		4		/* unit tests */
#define PROP_CPUS	8		/* property test */
#define PROP_TASKS	256
#define PROP_TGS	7
#define PROP_OPS	1000000UL
/* how often the property test recounts every slot reference */
#define PROP_SLOT_CHECK_EVERY	4096
#define PCT		100		/* p14 ABI */
#define GROUPS		MODEL_DEFAULT_GROUPS
#define NV		MODEL_NV
#define MIN		MODEL_UCLAMP_MIN
#define MAX		MODEL_UCLAMP_MAX
#define F_MIN		MODEL_V3_FLAG_UTIL_CLAMP_MIN
#define F_MAX		MODEL_V3_FLAG_UTIL_CLAMP_MAX
#define F_BOTH		(F_MIN | F_MAX)
#define INTENT		MODEL_INTENT
#define SEED		MODEL_SEED
#define SYS_MIN		MODEL_SYSCTL_UTIL_MIN
#define SYS_MAX		MODEL_SYSCTL_UTIL_MAX

/* Compare one value of table row @i; a failure names the row, rule and field. */
#define expect_eq(i, rule, got, want) do {					\
	long long got_ = (long long)(got), want_ = (long long)(want);		\
	if (got_ != want_)							\
		fail_msg("case %zu (%s): %s: got %lld want %lld",		\
			 (size_t)(i), (rule), #got, got_, want_);		\
} while (0)

static struct model_sys sys;
static struct model_cpu cpus[PROP_CPUS];
static struct model_task tasks[PROP_TASKS];
static struct model_tg tgs[PROP_TGS];

static void boot_cfg(enum model_fidelity fid, unsigned int groups, bool task_group,
		     unsigned int abi, unsigned int nr_cpus)
{
	struct model_config cfg;

	model_config_default(&cfg, MODEL_V3, nr_cpus);
	cfg.fidelity = fid;
	cfg.groups = groups;
	cfg.task_group = task_group;
	cfg.abi_scale = abi;
	assert_int_equal(model_init(&sys, &cfg, cpus), 0);
}

static void boot(enum model_fidelity fid)
{
	boot_cfg(fid, GROUPS, true, PCT, NR_CPUS);
}

static struct model_task *task(int i, enum model_class cls)
{
	model_task_init(&sys, &tasks[i], 1000 + i, cls);
	return &tasks[i];
}

static struct model_tg *group(int i, struct model_tg *parent)
{
	assert_int_equal(model_tg_init(&sys, &tgs[i], parent), 0);
	return &tgs[i];
}

static int req(struct model_task *t, unsigned long long flags, unsigned int min,
	       unsigned int max)
{
	struct model_attr a = { MODEL_SCHED_ATTR_SIZE_VER1, flags, -1, min, max };

	return model_setattr(&sys, t, &a);
}

static int eff(const struct model_task *t, int id)
{
	return model_task_eff(&sys, t, id, NULL);
}

static int tgw(struct model_tg *g, int id, unsigned int v)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "%u", v);
	return model_tg_write(&sys, g, id, buf);
}

static int nr_used(int id)
{
	int n = 0;

	for (unsigned int s = 0; s <= sys.cfg.groups; s++)
		n += sys.slot[id][s].value != NV;
	return n;
}

/* ---- VP: percent conversion ---- */

static void test_vp_pct(void **state)
{
	static const struct pct_case {
		const char *rule;
		bool to_pct;
		unsigned int in, want;
	} cases[] = {
		{ "VP1", false, 0, 0 }, { "VP1", false, 1, 10 }, { "VP1", false, 5, 51 },
		{ "VP1", false, 10, 102 }, { "VP1", false, 20, 204 }, { "VP1", false, 25, 256 },
		{ "VP1", false, 33, 337 }, { "VP1", false, 50, 512 }, { "VP1", false, 75, 768 },
		{ "VP1", false, 80, 819 }, { "VP1", false, 99, 1013 }, { "VP1", false, 100, 1024 },
		{ "VP1", false, 200, 2048 },
		{ "VP2", true, 205, 21 }, { "VP2", true, 300, 30 }, { "VP2", true, 513, 51 },
		{ "VP2", true, 1000, 98 }, { "VP2", true, 1023, 100 }, { "VP2", true, 0, 0 },
		{ "VP2", true, 256, 25 }, { "VP2", true, 512, 50 }, { "VP2", true, 768, 75 },
		{ "VP2", true, 1024, 100 }, { "VP2", true, 1, 1 }, { "VP2", true, 10485, 1024 },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct pct_case *c = &cases[i];
		unsigned int got = c->to_pct ? model_v3_to_pct(c->in) : model_v3_from_pct(c->in);

		expect_eq(i, c->rule, got, c->want);
	}
	for (unsigned int p = 0; p <= PCT; p++)
		expect_eq(p, "VP2", model_v3_to_pct(model_v3_from_pct(p)), p);
}

/* ---- VR1, VG6, VT6, VT8, VP3: boot ---- */

static void test_boot(void **state)
{
	static const struct boot_case {
		const char *rule;
		enum model_fidelity fid;
		bool task_group;
		unsigned int abi;
		int slot0[2];			/* slot 0 value per id */
		unsigned int refs0[2];		/* its se_count */
		unsigned int sysctl_max;
	} cases[] = {
		{ "VG6", INTENT, true, PCT, { 0, 1024 }, { 2, 2 }, 100 },	/* root + default */
		{ "VQ8", SEED, true, PCT, { 0, 1024 }, { 1, 1 }, 100 },		/* root only */
		{ "VQ3", INTENT, false, PCT, { 0, 1024 }, { 1, 1 }, 100 },
		{ "VQ3", SEED, false, PCT, { NV, NV }, { 0, 0 }, 100 },
		{ "VP3", INTENT, true, MODEL_SCALE, { 0, 1024 }, { 2, 2 }, 1024 },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct boot_case *c = &cases[i];

		boot_cfg(c->fid, GROUPS, c->task_group, c->abi, NR_CPUS);
		expect_eq(i, "VP3", sys.sysctl[SYS_MIN], 0);
		expect_eq(i, "VP3", sys.sysctl[SYS_MAX], c->sysctl_max);
		expect_eq(i, c->rule, sys.is_undefined, false);
		for (int id = 0; id < 2; id++) {
			expect_eq(i, c->rule, sys.slot[id][0].value, c->slot0[id]);
			expect_eq(i, c->rule, sys.slot[id][0].se_count, c->refs0[id]);
			expect_eq(i, "VG1", nr_used(id), c->slot0[id] != NV);
			expect_eq(i, "VT8", sys.dflt[id].slot, 0);
			expect_eq(i, "VT6", sys.root_tg.req[id].value, 1024);
			expect_eq(i, "VT6", sys.root_tg.eff[id].slot, 0);
			for (int c2 = 0; c2 < NR_CPUS; c2++) {
				expect_eq(i, "VR1", cpus[c2].value[id], NV);
				expect_eq(i, "VG1", cpus[c2].bucket[id][0].value, c->slot0[id]);
				expect_eq(i, "VR7", model_rq_value(&sys, c2, id), model_none(id));
			}
		}
		expect_eq(i, "VR1", model_rq_is_idle(&sys, 0), false);
	}
}

/* ---- VA2, VA3, VA4, VA4b, VQ1, VQ11, VA1: sched_setattr ---- */

static void test_setattr_flags(void **state)
{
	static const struct flag_case {
		const char *rule;
		unsigned long long flags;
		int policy, want;
	} cases[] = {
		{ "VA2", 0x08, -1, -EINVAL },		/* p01's UTIL_CLAMP is gone */
		{ "VA2", 0x40, -1, -EINVAL },		/* mainline UTIL_CLAMP_MAX */
		{ "VA2", 0x80, -1, -EINVAL },
		{ "VA2", F_MIN, -1, 0 },
		{ "VA2", F_MAX, -1, 0 },
		{ "VA2", MODEL_V3_FLAG_ALL, -1, 0 },
		{ "VA3", 0x10000000, -1, 0 },		/* SCHED_FLAG_SUGOV passes 4.19's check */
		{ "VA3", F_BOTH, 4, -EINVAL },		/* no policy 4 */
		{ "VA3", F_BOTH, 7, -EINVAL },
		{ "VA3", F_BOTH, -2, -EINVAL },
		{ "VA3", 0x48, MODEL_SCHED_FIFO, -EINVAL },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct flag_case *c = &cases[i];
		struct model_attr a = { MODEL_SCHED_ATTR_SIZE_VER1, c->flags, c->policy, 30, 60 };
		struct model_task *t;

		boot(INTENT);
		t = task(0, MODEL_CLASS_FAIR);
		expect_eq(i, c->rule, model_setattr(&sys, t, &a), c->want);
		if (c->want)	/* VG9: a failed call changes nothing */
			expect_eq(i, c->rule, t->req[MIN].slot, NV);
		expect_eq(i, c->rule, t->cls, MODEL_CLASS_FAIR);
	}
}

static void test_setattr_values(void **state)
{
	static const struct set_case {
		const char *rule;
		enum model_fidelity fid;
		unsigned int abi;
		unsigned int pre_flags, pre_min, pre_max;	/* an earlier request */
		unsigned int flags, min, max;
		int want, want_min, want_max;			/* return, requests after */
	} cases[] = {
		{ "VA4", INTENT, PCT, 0, 0, 0, F_BOTH, 20, 80, 0, 204, 819 },
		{ "VA4", INTENT, PCT, 0, 0, 0, F_BOTH, 80, 20, -EINVAL, 0, 1024 },
		{ "VA4", INTENT, PCT, 0, 0, 0, F_BOTH, 20, 101, -EINVAL, 0, 1024 },
		{ "VA4", INTENT, PCT, 0, 0, 0, F_BOTH, 50, 50, 0, 512, 512 },
		{ "VA4", INTENT, PCT, F_MAX, 0, 50, F_MIN, 50, 0, 0, 512, 512 },
		{ "VA4", INTENT, PCT, F_MAX, 0, 50, F_MIN, 51, 0, -EINVAL, 0, 512 },
		{ "VA4", INTENT, PCT, F_MIN, 50, 0, F_MAX, 0, 49, -EINVAL, 512, 1024 },
		{ "VA4", INTENT, PCT, F_MIN, 50, 0, F_MAX, 0, 60, 0, 512, 614 },
		{ "VA4", INTENT, PCT, 0, 0, 0, F_MIN, 0, 0, 0, 0, 1024 },
		{ "VA4", INTENT, PCT, 0, 0, 0, F_MAX, 0, 0, 0, 0, 0 },
		{ "VA4", INTENT, PCT, 0, 0, 0, F_MAX, 0, 100, 0, 0, 1024 },
		{ "VQ1", INTENT, PCT, 0, 0, 0, F_MIN, 200, 0, -EINVAL, 0, 1024 },
		{ "VA4b", SEED, PCT, 0, 0, 0, F_BOTH, 20, 80, 1, 204, 819 },
		{ "VA4b", SEED, PCT, 0, 0, 0, F_MIN, 0, 0, 0, 0, 1024 },
		{ "VA4", SEED, PCT, 0, 0, 0, F_BOTH, 20, 101, -EINVAL, 0, 1024 },
		{ "VQ1", SEED, PCT, 0, 0, 0, F_MIN, 200, 0, 1, 2048, 1024 },
		{ "VQ1", SEED, PCT, 0, 0, 0, F_MIN, 1024, 0, 1, 10485, 1024 },
		{ "VQ1", SEED, PCT, 0, 0, 0, F_MIN, 1025, 0, -EINVAL, 0, 1024 },
		{ "VQ1", SEED, PCT, F_MIN, 50, 0, F_MAX, 0, 60, -EINVAL, 512, 1024 },
		{ "VQ1", SEED, PCT, F_MIN, 50, 0, F_MAX, 0, 100, -EINVAL, 512, 1024 },
		/* p14 looks up the raw percent: 100 does not match slot 0's 1024 */
		{ "VA4b", SEED, PCT, 0, 0, 0, F_MAX, 0, 100, 1, 0, 1024 },
		{ "VA1", INTENT, MODEL_SCALE, 0, 0, 0, F_BOTH, 200, 800, 0, 200, 800 },
		{ "VA4", INTENT, MODEL_SCALE, 0, 0, 0, F_MAX, 0, 1025, -EINVAL, 0, 1024 },
		{ "VA4b", SEED, MODEL_SCALE, 0, 0, 0, F_MIN, 1024, 0, 1, 1024, 1024 },
		{ "VA4b", SEED, MODEL_SCALE, 0, 0, 0, F_MAX, 0, 1024, 0, 0, 1024 },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct set_case *c = &cases[i];
		struct model_task *t;

		boot_cfg(c->fid, GROUPS, true, c->abi, NR_CPUS);
		t = task(0, MODEL_CLASS_FAIR);
		if (c->pre_flags && req(t, c->pre_flags, c->pre_min, c->pre_max) < 0)
			fail_msg("case %zu (%s): earlier request failed", i, c->rule);
		expect_eq(i, c->rule, req(t, c->flags, c->min, c->max), c->want);
		expect_eq(i, c->rule, t->req[MIN].value, c->want_min);
		expect_eq(i, c->rule, t->req[MAX].value, c->want_max);
	}
}

/* VA4, VG7, VG9: both ids or none; MIN is found before MAX is checked. */
static void test_setattr_atomic(void **state)
{
	struct model_task *t;

	(void)state;
	boot_cfg(INTENT, 1, true, PCT, NR_CPUS);
	assert_int_equal(req(task(1, MODEL_CLASS_FAIR), F_MAX, 0, 50), 0);	/* MAX full */
	t = task(0, MODEL_CLASS_FAIR);
	expect_eq(0, "VA4", req(t, F_BOTH, 30, 60), -ENOSPC);
	expect_eq(0, "VG9", t->req[MIN].slot, NV);
	expect_eq(0, "VG9", nr_used(MIN), 1);
	expect_eq(0, "VA4", req(t, F_BOTH, 30, 50), 0);
	/* MIN's ENOSPC comes before MAX's range check */
	assert_int_equal(req(task(2, MODEL_CLASS_FAIR), F_MIN, 30, 0), 0);
	expect_eq(1, "VA4", req(t, F_BOTH, 40, 101), -ENOSPC);
	expect_eq(1, "VA4", req(t, F_BOTH, 30, 101), -EINVAL);
}

/* VA4b/VQ11 and VA5: the policy part runs after the clamps, or not at all. */
static void test_setattr_policy(void **state)
{
	static const struct pol_case {
		const char *rule;
		enum model_fidelity fid;
		unsigned int min;
		int want;
		enum model_class want_cls;
	} cases[] = {
		{ "VQ11", SEED, 20, 1, MODEL_CLASS_FAIR },	/* slot 1: policy skipped */
		{ "VQ11", SEED, 0, 0, MODEL_CLASS_RT },		/* slot 0: applied */
		{ "VQ11", INTENT, 20, 0, MODEL_CLASS_RT },
		{ "VA5", INTENT, 0, 0, MODEL_CLASS_RT },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct pol_case *c = &cases[i];
		struct model_attr a = { MODEL_SCHED_ATTR_SIZE_VER1, F_MIN | MODEL_FLAG_RESET_ON_FORK,
					MODEL_SCHED_FIFO, c->min, 0 };
		struct model_task *t;

		boot(c->fid);
		t = task(0, MODEL_CLASS_FAIR);
		model_enqueue(&sys, t, 1);
		expect_eq(i, c->rule, model_setattr(&sys, t, &a), c->want);
		expect_eq(i, c->rule, t->cls, c->want_cls);
		expect_eq(i, c->rule, t->req[MIN].value, model_v3_from_pct(c->min));
		expect_eq(i, c->rule, model_rq_value(&sys, 1, MIN), model_v3_from_pct(c->min));
		expect_eq(i, "VR2", sys.cpu[1].nr_rt, c->want_cls == MODEL_CLASS_RT);
	}
}

/* VA6/VQ2: short sched_attr; VA7: no CONFIG_UCLAMP_TASK. */
static void test_setattr_size(void **state)
{
	static const struct size_case {
		const char *rule;
		enum model_fidelity fid;
		unsigned int size, flags, min, max;
		int want, want_min, want_max;
	} cases[] = {
		{ "VQ2", SEED, 48, F_BOTH, 30, 60, 1, 0, 0 },	/* fields read as 0 */
		{ "VQ2", INTENT, 48, F_BOTH, 30, 60, -EINVAL, 0, 1024 },
		{ "VA6", SEED, 52, F_BOTH, 30, 60, -EINVAL, 0, 1024 },	/* min 30 > max 0 */
		{ "VA6", SEED, 52, F_MIN, 30, 60, 1, 307, 1024 },
		{ "VA6", SEED, 47, F_BOTH, 0, 0, -E2BIG, 0, 1024 },
		{ "VA6", INTENT, 0, 0, 0, 0, 0, 0, 1024 },	/* size 0 is VER0 */
		{ "VA6", INTENT, 56, F_BOTH, 30, 60, 0, 307, 614 },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct size_case *c = &cases[i];
		struct model_attr a = { c->size, c->flags, -1, c->min, c->max };
		struct model_task *t;

		boot(c->fid);
		t = task(0, MODEL_CLASS_FAIR);
		expect_eq(i, c->rule, model_setattr(&sys, t, &a), c->want);
		expect_eq(i, c->rule, t->req[MIN].value, c->want_min);
		expect_eq(i, c->rule, t->req[MAX].value, c->want_max);
	}
}

static void test_no_uclamp_task(void **state)
{
	struct model_config cfg;
	struct model_attr a = { MODEL_SCHED_ATTR_SIZE_VER1, 0, MODEL_SCHED_RR, 0, 0 };
	struct model_task *t;
	unsigned int lo = 1, hi = 1;

	(void)state;
	model_config_default(&cfg, MODEL_V3, NR_CPUS);
	cfg.no_uclamp_task = true;
	assert_int_equal(model_init(&sys, &cfg, cpus), 0);
	t = task(0, MODEL_CLASS_FAIR);
	expect_eq(0, "VA7", req(t, F_MIN, 10, 0), -EINVAL);
	expect_eq(0, "VA7", model_setattr(&sys, t, &a), 0);
	expect_eq(0, "VA7", t->cls, MODEL_CLASS_RT);
	model_enqueue(&sys, t, 0);
	expect_eq(0, "VA7", sys.cpu[0].value[MAX], NV);
	expect_eq(0, "VA7", model_getattr(&sys, t, &lo, &hi), 0);
	expect_eq(0, "VA7", lo + hi, 0);
	expect_eq(0, "VA7", model_sysctl_write(&sys, SYS_MIN, 10), -ENOENT);
	model_dequeue(&sys, t);
}

/* The p14 lookup of the raw percent: each request takes a new slot (seed). */
static void test_seed_find_key(void **state)
{
	unsigned int lo, hi;

	(void)state;
	boot(SEED);
	assert_int_equal(req(task(0, MODEL_CLASS_FAIR), F_MIN, 50, 0), 1);
	assert_int_equal(req(task(1, MODEL_CLASS_FAIR), F_MIN, 50, 0), 2);
	expect_eq(0, "VA4", sys.slot[MIN][2].value, 512);
	/* 5 % sits in a slot of value 51; a 51 % request then matches it */
	assert_int_equal(req(task(2, MODEL_CLASS_FAIR), F_MIN, 5, 0), 3);
	assert_int_equal(req(task(3, MODEL_CLASS_FAIR), F_MIN, 51, 0), 3);
	expect_eq(1, "VA4", tasks[3].req[MIN].value, 522);
	expect_eq(1, "VT2", eff(&tasks[3], MIN), 51);
	assert_int_equal(model_getattr(&sys, &tasks[3], &lo, &hi), 0);
	expect_eq(1, "VA8", lo, 5);
	/* a task re-requesting its own value moves to a new slot */
	assert_int_equal(req(&tasks[0], F_MIN, 50, 0), 4);
	expect_eq(2, "VG5", sys.slot[MIN][1].value, NV);
	/* intent looks up the scaled value */
	boot(INTENT);
	assert_int_equal(req(task(0, MODEL_CLASS_FAIR), F_MIN, 50, 0), 0);
	assert_int_equal(req(task(1, MODEL_CLASS_FAIR), F_MIN, 50, 0), 0);
	expect_eq(3, "VG3", nr_used(MIN), 2);
}

/* ---- VA8: getattr reports effective values ---- */

static void test_getattr(void **state)
{
	struct model_tg *g;
	struct model_task *t, *dl;
	unsigned int lo, hi;

	(void)state;
	boot(INTENT);
	g = group(0, NULL);
	assert_int_equal(tgw(g, MAX, 50), 0);
	assert_int_equal(tgw(g, MIN, 50), 0);	/* VT6: a new child allows MIN 0 */
	t = task(0, MODEL_CLASS_FAIR);
	model_task_move_tg(&sys, t, g);
	assert_int_equal(req(t, F_BOTH, 33, 80), 0);
	assert_int_equal(model_getattr(&sys, t, &lo, &hi), 0);
	expect_eq(0, "VA8", lo, 33);
	expect_eq(0, "VA8", hi, 50);		/* the group's, not the request */
	dl = task(1, MODEL_CLASS_DL);
	assert_int_equal(req(dl, F_MAX, 0, 20), 0);
	assert_int_equal(model_getattr(&sys, dl, &lo, &hi), 0);
	expect_eq(1, "VA8", hi, 20);
	/* a queued task reports the slot it is counted in (VT1 a) */
	t = task(2, MODEL_CLASS_FAIR);
	model_enqueue(&sys, t, 0);
	assert_int_equal(model_sysctl_write(&sys, SYS_MIN, 20), 0);
	assert_int_equal(model_getattr(&sys, t, &lo, &hi), 0);
	expect_eq(2, "VA8", lo, 0);
	model_dequeue(&sys, t);
	assert_int_equal(model_getattr(&sys, t, &lo, &hi), 0);
	expect_eq(3, "VA8", lo, 20);
}

/* ---- VP4, VQ4, VQ8, VQ10: sysctl writes ---- */

static void test_sysctl(void **state)
{
	static const struct sysctl_case {
		const char *rule;
		enum model_fidelity fid;
		unsigned int abi;
		enum model_sysctl which;
		long long value;
		int want;
		unsigned int vis_min, vis_max;	/* what reads show after */
		int dflt_min, dflt_max;		/* internal defaults after */
		bool is_undefined;
	} cases[] = {
		{ "VP4", INTENT, PCT, SYS_MIN, 20, 0, 20, 100, 204, 1024, false },
		{ "VP4", INTENT, PCT, SYS_MAX, 50, 0, 0, 50, 0, 512, false },
		{ "VP4", INTENT, PCT, SYS_MAX, 0, 0, 0, 0, 0, 0, false },
		{ "VP4", INTENT, PCT, SYS_MIN, 0, 0, 0, 100, 0, 1024, false },
		{ "VQ4", INTENT, PCT, SYS_MIN, 101, -EINVAL, 0, 100, 0, 1024, false },
		{ "VQ4", INTENT, PCT, SYS_MAX, 101, -EINVAL, 0, 100, 0, 1024, false },
		{ "VP4", INTENT, PCT, SYS_MAX, -1, -EINVAL, 0, 100, 0, 1024, false },
		{ "VP4", INTENT, PCT, SYS_MIN, -1, -EINVAL, 0, 100, 0, 1024, false },
		{ "VP4", INTENT, PCT, SYS_MIN, 1LL << 31, -EINVAL, 0, 100, 0, 1024, false },
		{ "VP4", INTENT, PCT, MODEL_SYSCTL_UTIL_MIN_RT_DEFAULT, 0, -ENOENT, 0, 100, 0, 1024, false },
		{ "VQ4", SEED, PCT, SYS_MIN, 101, 0, 0, 100, 0, 1024, false },
		{ "VQ4", SEED, PCT, SYS_MAX, -1, 0, 0, 100, 0, 1024, false },
		{ "VP4", SEED, PCT, SYS_MIN, -(1LL << 31) - 1, -EINVAL, 0, 100, 0, 1024, false },
		{ "VQ10", SEED, PCT, SYS_MIN, 20, 1, 0, 100, 204, 1024, true },
		{ "VQ8", SEED, PCT, SYS_MIN, 0, 0, 0, 100, 0, 1024, false },
		/* seed looks up 0 (slot 0 of MIN holds 0): no VQ10, but VQ8 */
		{ "VQ8", SEED, PCT, SYS_MAX, 0, 1, 0, 100, 0, 0, true },
		{ "VP3", INTENT, MODEL_SCALE, SYS_MIN, 200, 0, 200, 1024, 200, 1024, false },
		{ "VP4", INTENT, MODEL_SCALE, SYS_MAX, 1025, -EINVAL, 0, 1024, 0, 1024, false },
		{ "VQ4", SEED, MODEL_SCALE, SYS_MAX, 1025, 0, 0, 1024, 0, 1024, false },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct sysctl_case *c = &cases[i];

		boot_cfg(c->fid, GROUPS, true, c->abi, NR_CPUS);
		expect_eq(i, c->rule, model_sysctl_write(&sys, c->which, c->value), c->want);
		expect_eq(i, c->rule, sys.sysctl[SYS_MIN], c->vis_min);
		expect_eq(i, c->rule, sys.sysctl[SYS_MAX], c->vis_max);
		expect_eq(i, c->rule, eff(task(0, MODEL_CLASS_FAIR), MIN), c->dflt_min);
		expect_eq(i, c->rule, eff(&tasks[0], MAX), c->dflt_max);
		expect_eq(i, c->rule, sys.is_undefined, c->is_undefined);
	}
}

static void test_sysctl_enospc(void **state)
{
	(void)state;
	boot_cfg(INTENT, 1, true, PCT, NR_CPUS);
	assert_int_equal(req(task(0, MODEL_CLASS_FAIR), F_MIN, 30, 0), 0);
	expect_eq(0, "VG7", model_sysctl_write(&sys, SYS_MIN, 20), -ENOSPC);
	expect_eq(0, "VP4", sys.sysctl[SYS_MIN], 0);
	expect_eq(0, "VP4", sys.dflt[MIN].slot, 0);
	expect_eq(1, "VP4", model_sysctl_write(&sys, SYS_MIN, 30), 0);	/* shares slot 1 */
	expect_eq(1, "VP4", sys.slot[MIN][1].se_count, 2);
	expect_eq(1, "VP4", sys.slot[MIN][0].se_count, 1);		/* root keeps slot 0 */
}

/* ---- VG: clamp groups ---- */

static void test_groups_find_attach(void **state)
{
	struct model_task *a, *b, *c;

	(void)state;
	boot(INTENT);
	a = task(0, MODEL_CLASS_FAIR);
	b = task(1, MODEL_CLASS_FAIR);
	c = task(2, MODEL_CLASS_FAIR);
	assert_int_equal(req(a, F_MIN, 10, 0), 0);
	assert_int_equal(req(b, F_MIN, 20, 0), 0);
	expect_eq(0, "VG3", b->req[MIN].slot, 2);
	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		expect_eq(cpu, "VG4", cpus[cpu].bucket[MIN][2].value, 204);
	assert_int_equal(req(c, F_MIN, 10, 0), 0);
	expect_eq(1, "VG3", c->req[MIN].slot, 1);	/* existing value reused */
	expect_eq(1, "VG2", sys.slot[MIN][1].se_count, 2);
	assert_int_equal(req(c, F_MIN, 10, 0), 0);	/* re-attach: net no-op */
	expect_eq(2, "VG4", sys.slot[MIN][1].se_count, 2);
	assert_int_equal(req(a, F_MIN, 0, 0), 0);
	assert_int_equal(req(c, F_MIN, 0, 0), 0);
	expect_eq(3, "VG5", sys.slot[MIN][1].value, NV);
	expect_eq(3, "VG5", sys.slot[MIN][1].se_count, 0);
	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		expect_eq(cpu, "VG5", cpus[cpu].bucket[MIN][1].value, NV);
	assert_int_equal(req(a, F_MIN, 40, 0), 0);
	expect_eq(4, "VG3", a->req[MIN].slot, 1);	/* first free slot */
	/* VG2: being queued holds no reference */
	model_enqueue(&sys, a, 0);
	expect_eq(5, "VG2", sys.slot[MIN][1].se_count, 1);
	expect_eq(5, "VG1", cpus[0].bucket[MIN][1].tasks, 1);
	model_dequeue(&sys, a);
}

static void test_groups_capacity(void **state)
{
	static const struct cap_case {
		const char *rule;
		enum model_fidelity fid;
		bool task_group;
		unsigned int groups;
		int children;		/* groups created under root first */
		int id;
		int want_fit;		/* distinct new values before ENOSPC */
	} cases[] = {
		{ "VG7", INTENT, true, 5, 0, MIN, 5 },
		{ "VG7", INTENT, true, 5, 0, MAX, 5 },
		{ "VG6", SEED, true, 5, 2, MIN, 4 },	/* children of root hold MIN 1024 */
		{ "VG6", SEED, true, 5, 2, MAX, 5 },
		{ "VQ6", INTENT, true, 5, 2, MIN, 5 },
		{ "VG6", SEED, false, 5, 0, MIN, 6 },	/* slot 0 free: N + 1 */
		{ "VQ3", INTENT, false, 5, 0, MIN, 5 },
		{ "VG7", INTENT, true, 0, 0, MIN, 0 },
		{ "VG7", INTENT, true, 1, 0, MAX, 1 },
		{ "VG6", SEED, true, 1, 1, MIN, 0 },
		{ "VG7", INTENT, true, MODEL_V3_MAX_GROUPS, 0, MIN, MODEL_V3_MAX_GROUPS },
		{ "VG7", SEED, true, MODEL_V3_MAX_GROUPS, 0, MAX, MODEL_V3_MAX_GROUPS },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct cap_case *c = &cases[i];
		int n = 0, ret;

		boot_cfg(c->fid, c->groups, c->task_group, MODEL_SCALE, NR_CPUS);
		for (int g = 0; g < c->children; g++)
			group(g, NULL);
		for (;; n++) {
			unsigned int v = c->id == MIN ? 1 + n : 1000 - n;

			ret = req(task(n, MODEL_CLASS_FAIR), c->id == MIN ? F_MIN : F_MAX, v, v);
			if (ret < 0)
				break;
		}
		expect_eq(i, c->rule, ret, -ENOSPC);
		expect_eq(i, c->rule, n, c->want_fit);
		if (n)		/* a value already present still fits */
			expect_eq(i, c->rule, req(task(n, MODEL_CLASS_FAIR),
						  c->id == MIN ? F_MIN : F_MAX,
						  c->id == MIN ? 1 : 1000, c->id == MIN ? 1 : 1000) >= 0, 1);
	}
}

static void test_groups_exit(void **state)
{
	static const struct exit_case {
		const char *rule;
		enum model_fidelity fid;
		int want_value, want_ret;	/* slot 1 after the exit, next request */
	} cases[] = {
		{ "VG8", INTENT, NV, 0 },
		{ "VG8", SEED, 307, -ENOSPC },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct exit_case *c = &cases[i];
		struct model_task *t;

		boot_cfg(c->fid, 1, true, MODEL_SCALE, NR_CPUS);
		t = task(0, MODEL_CLASS_FAIR);
		assert_int_equal(req(t, F_MIN, 307, 0), 1 - (c->fid == INTENT));
		model_enqueue(&sys, t, 2);
		model_task_exit(&sys, t);
		expect_eq(i, c->rule, t->cpu, -1);
		expect_eq(i, c->rule, sys.slot[MIN][1].value, c->want_value);
		expect_eq(i, c->rule, cpus[2].bucket[MIN][1].tasks, 0);
		expect_eq(i, c->rule, req(task(1, MODEL_CLASS_FAIR), F_MIN, 500, 0), c->want_ret);
	}
}

/* ---- VR: per-CPU aggregation ---- */

enum step_op { ENQ, DEQ, MIGRATE };

static void test_rq_accounting(void **state)
{
	/* tasks: 0 = 20/50 %, 1 = 60/100 %, 2 = no request, 3 = 10/30 % */
	static const struct rq_step {
		const char *rule;
		enum step_op op;
		int task, cpu;
		int want_min, want_max;
		bool is_idle;
	} steps[] = {
		{ "VR4", ENQ, 0, 0, 204, 512, false },
		{ "VR4", ENQ, 3, 0, 204, 512, false },
		{ "VR6", DEQ, 0, 0, 102, 307, false },		/* rescan */
		{ "VR11", DEQ, 3, 0, NV, 307, true },
		{ "VR4", ENQ, 3, 0, 102, 307, false },
		{ "VR11", DEQ, 3, 0, NV, 307, true },
		{ "VR4", ENQ, 0, 0, 204, 512, false },
		{ "VR4", ENQ, 1, 0, 614, 1024, false },
		{ "VR5", DEQ, 1, 0, 204, 512, false },
		{ "VR4", ENQ, 2, 0, 204, 1024, false },
		{ "VR5", DEQ, 0, 0, 0, 1024, false },
		{ "VR11", DEQ, 2, 0, NV, 1024, true },
		{ "VR4", ENQ, 3, 0, 102, 307, false },		/* overwrites the higher 1024 */
		{ "VR2", MIGRATE, 3, 1, 102, 307, false },
		{ "VR2", ENQ, 0, 0, 204, 512, false },		/* CPU 0 after its idle */
	};
	static const unsigned int clamps[][2] = { { 20, 50 }, { 60, 100 }, { 0, 0 }, { 10, 30 } };

	(void)state;
	boot(INTENT);
	for (size_t k = 0; k < ARRAY_SIZE(clamps); k++) {
		struct model_task *t = task((int)k, k == 1 ? MODEL_CLASS_RT : MODEL_CLASS_FAIR);

		if (clamps[k][1])
			assert_int_equal(req(t, F_BOTH, clamps[k][0], clamps[k][1]), 0);
	}
	for (size_t i = 0; i < ARRAY_SIZE(steps); i++) {
		const struct rq_step *s = &steps[i];
		struct model_task *t = &tasks[s->task];

		if (s->op == ENQ)
			model_enqueue(&sys, t, s->cpu);
		else if (s->op == DEQ)
			model_dequeue(&sys, t);
		else
			model_migrate(&sys, t, s->cpu);
		expect_eq(i, s->rule, cpus[s->cpu].value[MIN], s->want_min);
		expect_eq(i, s->rule, cpus[s->cpu].value[MAX], s->want_max);
		expect_eq(i, s->rule, cpus[s->cpu].is_idle, s->is_idle);
	}
	/* task 3 migrated to CPU 1 took its clamps along */
	expect_eq(0, "VR2", model_rq_value(&sys, 1, MAX), 307);
	expect_eq(0, "VR7", model_rq_value(&sys, 3, MIN), 0);
}

/* VR3: only fair and RT tasks count; VR8: the max wins an inversion. */
static void test_rq_classes_clamp(void **state)
{
	struct model_task *dl, *rt;

	(void)state;
	boot(INTENT);
	dl = task(0, MODEL_CLASS_DL);
	rt = task(1, MODEL_CLASS_RT);
	assert_int_equal(req(dl, F_BOTH, 90, 90), 0);
	assert_int_equal(req(rt, F_BOTH, 60, 80), 0);
	model_enqueue(&sys, dl, 0);
	expect_eq(0, "VR3", cpus[0].value[MIN], NV);
	expect_eq(0, "VR3", dl->acc_slot[MIN], NV);
	model_enqueue(&sys, rt, 0);
	expect_eq(1, "VR3", cpus[0].value[MIN], 614);
	model_task_set_class(&sys, rt, MODEL_CLASS_DL);
	expect_eq(2, "VR3", cpus[0].value[MIN], NV);
	expect_eq(2, "VR11", cpus[0].value[MAX], 819);
	expect_eq(3, "VR8", model_clamp_util(MODEL_V3, 100, 600, 300), 300);
	expect_eq(4, "VR8", model_clamp_util(MODEL_V3, 900, 200, 300), 300);
	expect_eq(5, "VR8", model_clamp_util(MODEL_V3, 100, 200, 300), 200);
	expect_eq(6, "VR8", model_rq_clamp_util(&sys, 0, 900), 819);
	model_dequeue(&sys, rt);
	model_dequeue(&sys, dl);
}

/* VR9: a queued task's new request shows at once, only for changed ids. */
static void test_rq_queued_change(void **state)
{
	struct model_task *t, *idle;

	(void)state;
	boot(INTENT);
	t = task(0, MODEL_CLASS_FAIR);
	model_enqueue(&sys, t, 0);
	assert_int_equal(req(t, F_MAX, 0, 30), 0);
	expect_eq(0, "VR9", cpus[0].value[MAX], 307);
	expect_eq(0, "VR9", cpus[0].is_idle, false);
	expect_eq(0, "VR9", cpus[0].bucket[MIN][0].tasks, 1);
	assert_int_equal(req(t, F_BOTH, 50, 60), 0);
	expect_eq(1, "VR9", cpus[0].value[MIN], 512);
	expect_eq(1, "VR9", cpus[0].value[MAX], 614);
	expect_eq(1, "VR9", cpus[0].bucket[MAX][1].tasks, 0);	/* 30 % left */
	idle = task(1, MODEL_CLASS_FAIR);			/* not queued: lazy */
	assert_int_equal(req(idle, F_MAX, 0, 90), 0);
	expect_eq(2, "VR9", cpus[0].value[MAX], 614);
	model_dequeue(&sys, t);
}

/* VR10: a group write recounts the queued tasks whose slot changed. */
static void test_rq_tg_change(void **state)
{
	static const struct tg_step {
		const char *rule;
		int tg;
		unsigned int max;
		int want[3];		/* MAX of CPUs 0..2 */
	} steps[] = {
		{ "VR10", 0, 30, { 307, 307, 1024 } },
		{ "VR10", 1, 10, { 307, 102, 1024 } },
		{ "VR10", 0, 5, { 51, 51, 1024 } },	/* task 2's own 20 % is capped too */
		{ "VR10", 0, 100, { 1024, 102, 1024 } },
	};
	struct model_tg *g, *h;

	(void)state;
	boot(INTENT);
	g = group(0, NULL);
	h = group(1, g);
	for (int k = 0; k < 4; k++) {
		struct model_task *t = task(k, MODEL_CLASS_FAIR);

		model_task_move_tg(&sys, t, k == 3 ? &sys.root_tg : k == 1 ? h : g);
		model_enqueue(&sys, t, k == 2 ? 0 : k == 3 ? 2 : k);
	}
	assert_int_equal(req(&tasks[2], F_MAX, 0, 20), 0);
	for (size_t i = 0; i < ARRAY_SIZE(steps); i++) {
		const struct tg_step *s = &steps[i];

		expect_eq(i, s->rule, tgw(&tgs[s->tg], MAX, s->max), 0);
		for (int c = 0; c < 3; c++)
			expect_eq(i, s->rule, model_rq_value(&sys, c, MAX), s->want[c]);
	}
	expect_eq(0, "VR10", tasks[2].acc_slot[MAX], tasks[2].req[MAX].slot);
	for (int k = 0; k < 4; k++)
		model_dequeue(&sys, &tasks[k]);
}

/* VR12: sysctl changes are lazy; intent keeps a still-counted slot alive. */
static void test_rq_lazy_default(void **state)
{
	struct model_task *t;

	(void)state;
	boot(INTENT);
	t = task(0, MODEL_CLASS_FAIR);
	model_enqueue(&sys, t, 0);
	assert_int_equal(model_sysctl_write(&sys, SYS_MIN, 20), 0);
	expect_eq(0, "VR12", cpus[0].value[MIN], 0);
	model_dequeue(&sys, t);
	model_enqueue(&sys, t, 0);
	expect_eq(1, "VR12", cpus[0].value[MIN], 204);
	assert_int_equal(model_sysctl_write(&sys, SYS_MIN, 30), 0);
	expect_eq(2, "VR12", sys.slot[MIN][1].value, 204);	/* no holder, still counted */
	expect_eq(2, "VR12", sys.slot[MIN][1].se_count, 0);
	expect_eq(2, "VR12", sys.slot[MIN][2].value, 307);
	model_dequeue(&sys, t);
	expect_eq(3, "VR12", sys.slot[MIN][1].value, NV);
	model_enqueue(&sys, t, 0);
	expect_eq(3, "VR12", cpus[0].value[MIN], 307);
	/* a group write leaves a root-group task with an old default alone */
	assert_int_equal(model_sysctl_write(&sys, SYS_MIN, 40), 0);
	assert_int_equal(tgw(group(0, NULL), MIN, 50), 0);
	expect_eq(4, "VR12", cpus[0].value[MIN], 307);
	/* a cgroup move re-enqueues: immediate */
	model_task_move_tg(&sys, t, &tgs[0]);
	expect_eq(5, "VR12", cpus[0].value[MIN], 512);
	model_dequeue(&sys, t);
}

/* ---- VT: effective values ---- */

static void test_task_eff(void **state)
{
	static const struct eff_case {
		const char *rule;
		bool task_group, in_group;
		int tg_min, tg_max;		/* group writes (percent), -1: none */
		int sys_min, sys_max;		/* sysctl writes, -1: none */
		unsigned int flags, min, max;	/* the task's request */
		int want_min, want_max;
	} cases[] = {
		{ "VT1", true, false, -1, -1, -1, -1, 0, 0, 0, 0, 1024 },
		{ "VT8", true, false, -1, -1, 20, 50, 0, 0, 0, 204, 512 },
		{ "VT8", true, false, -1, -1, 20, 50, F_BOTH, 10, 90, 102, 921 },
		{ "VT3", true, false, -1, -1, -1, 50, F_MIN, 80, 0, 819, 512 },
		{ "VT1", true, true, -1, 50, -1, -1, F_MAX, 0, 80, 0, 512 },
		{ "VT1", true, true, -1, 50, -1, -1, F_MAX, 0, 20, 0, 204 },
		{ "VT1", true, true, 30, -1, -1, -1, F_MIN, 50, 0, 307, 1024 },
		{ "VT1", true, true, 30, -1, -1, -1, F_MIN, 10, 0, 102, 1024 },
		{ "VT1", true, true, 30, -1, 50, -1, 0, 0, 0, 307, 1024 },
		/* VT6: in a new child of root a MIN request gets the group's 0 */
		{ "VT6", true, true, -1, 40, -1, -1, F_MIN, 60, 0, 0, 409 },
		{ "VT8", true, true, -1, -1, 20, -1, 0, 0, 0, 0, 1024 },	/* not root */
		{ "VT8", false, true, -1, -1, 20, 50, 0, 0, 0, 204, 512 },
		{ "VT8", false, true, -1, -1, 20, 50, F_MAX, 0, 80, 204, 819 },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct eff_case *c = &cases[i];
		struct model_task *t;
		int slot;

		boot_cfg(INTENT, GROUPS, c->task_group, PCT, NR_CPUS);
		t = task(0, MODEL_CLASS_FAIR);
		if (c->in_group) {
			struct model_tg *g = group(0, NULL);

			model_task_move_tg(&sys, t, g);
			if (c->tg_min >= 0)
				assert_int_equal(tgw(g, MIN, (unsigned int)c->tg_min), 0);
			if (c->tg_max >= 0)
				assert_int_equal(tgw(g, MAX, (unsigned int)c->tg_max), 0);
		}
		if (c->sys_max >= 0)
			assert_int_equal(model_sysctl_write(&sys, SYS_MAX, c->sys_max), 0);
		if (c->sys_min >= 0)
			assert_int_equal(model_sysctl_write(&sys, SYS_MIN, c->sys_min), 0);
		if (c->flags)
			assert_int_equal(req(t, c->flags, c->min, c->max), 0);
		expect_eq(i, c->rule, model_task_eff(&sys, t, MIN, &slot), c->want_min);
		expect_eq(i, c->rule, sys.slot[MIN][slot].value, c->want_min);
		expect_eq(i, c->rule, eff(t, MAX), c->want_max);
		model_enqueue(&sys, t, 1);
		expect_eq(i, "VT2", model_rq_value(&sys, 1, MIN), c->want_min);
		expect_eq(i, "VT2", model_rq_value(&sys, 1, MAX), c->want_max);
		model_dequeue(&sys, t);
	}
}

/* VT4: fork inherits no clamp, whatever RESET_ON_FORK says. */
static void test_fork(void **state)
{
	struct model_attr a = { MODEL_SCHED_ATTR_SIZE_VER1,
				F_BOTH | MODEL_FLAG_RESET_ON_FORK, MODEL_SCHED_NORMAL, 40, 60 };
	struct model_task *p, *c;
	struct model_tg *g;

	(void)state;
	boot(INTENT);
	g = group(0, NULL);
	assert_int_equal(tgw(g, MAX, 90), 0);
	p = task(0, MODEL_CLASS_FAIR);
	model_task_move_tg(&sys, p, g);
	assert_int_equal(model_setattr(&sys, p, &a), 0);
	c = &tasks[1];
	model_task_fork(&sys, p, c, 2000);
	expect_eq(0, "VT4", c->req[MIN].slot, NV);
	expect_eq(0, "VT4", c->req[MAX].value, 1024);
	expect_eq(0, "VT4", c->tg == g, true);
	expect_eq(0, "VT4", eff(c, MAX), 921);
	expect_eq(0, "VT4", eff(c, MIN), 0);
	expect_eq(0, "VT4", c->acc_slot[MIN], NV);
}

/* VT5, VT6, VT9, VQ6, VQ9: group creation and what it reads. */
static void test_tg_create(void **state)
{
	static const struct create_case {
		const char *rule;
		enum model_fidelity fid;
		bool is_autogroup;
		unsigned int want_min_read, want_max_read;
		unsigned int want_min_eff;	/* effective MIN read, percent */
		int want_max_write;	/* writing MAX 50 */
	} cases[] = {
		/* seed: the effective MIN is copied from the root's 1024 (VT5) */
		{ "VQ6", SEED, false, 100, 100, 100, -EINVAL },
		/* intent: the root's MIN only allows; VT7 gives the request, 0 */
		{ "VT6", INTENT, false, 0, 100, 0, 0 },
		{ "VT9", SEED, true, 100, 100, 100, -EINVAL },
		{ "VQ9", INTENT, true, 0, 100, 0, 0 },
	};
	static const struct own_case {
		const char *rule;
		enum model_fidelity fid;
		int want;	/* effective MIN of a task requesting MIN 50 % */
	} own[] = {
		{ "VT5", SEED, 512 },	/* under the copied 1024: its request */
		{ "VT6", INTENT, 0 },	/* VT1: 512 > the group's 0 */
	};
	static const struct boost_case {
		const char *rule;
		enum model_fidelity fid;
		int want;
	} boost[] = {
		/* a fresh child of root writes MIN 100: the seed already requests it */
		{ "VQ6", SEED, 0 },
		/* intent: same value as the copied effective, another slot (VT6) */
		{ "VT7", INTENT, 1024 },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct create_case *c = &cases[i];
		struct model_tg *g, *h;
		char buf[8];

		boot(c->fid);
		g = group(0, NULL);
		g->is_autogroup = c->is_autogroup;
		expect_eq(i, "VA11", model_tg_read(&sys, g, MIN, false, buf, sizeof(buf)),
			  (int)strlen(buf));
		expect_eq(i, c->rule, atoi(buf), c->want_min_read);
		model_tg_read(&sys, g, MAX, false, buf, sizeof(buf));
		expect_eq(i, c->rule, atoi(buf), c->want_max_read);
		model_tg_read(&sys, g, MIN, true, buf, sizeof(buf));
		expect_eq(i, c->rule, atoi(buf), c->want_min_eff);
		expect_eq(i, "VT6", g->eff[MIN].slot, 0);
		expect_eq(i, c->rule, tgw(g, MAX, 50), c->want_max_write);
		assert_int_equal(tgw(g, MIN, 30), 0);
		h = group(1, g);
		expect_eq(i, "VT5", h->req[MIN].value, 307);
		expect_eq(i, "VT5", h->req[MIN].slot, g->req[MIN].slot);
		expect_eq(i, "VT5", h->eff[MIN].value, g->eff[MIN].value);
		expect_eq(i, "VT5", sys.slot[MIN][g->req[MIN].slot].se_count, 2);
	}
	for (size_t i = 0; i < ARRAY_SIZE(boost); i++) {
		struct model_task *t;

		boot(boost[i].fid);
		t = task(0, MODEL_CLASS_FAIR);
		model_task_move_tg(&sys, t, group(0, NULL));
		expect_eq(i, boost[i].rule, tgw(&tgs[0], MIN, 100), 0);
		expect_eq(i, boost[i].rule, eff(t, MIN), boost[i].want);
	}
	for (size_t i = 0; i < ARRAY_SIZE(own); i++) {
		struct model_task *t;

		boot(own[i].fid);
		t = task(0, MODEL_CLASS_FAIR);
		model_task_move_tg(&sys, t, group(0, NULL));
		assert_true(req(t, F_MIN, 50, 0) >= 0);	/* seed returns the slot */
		expect_eq(i, own[i].rule, eff(t, MIN), own[i].want);
	}
	/* a seed child of root that finds no MIN slot for 1024 */
	boot_cfg(SEED, 0, true, PCT, NR_CPUS);
	expect_eq(0, "VG6", model_tg_init(&sys, &tgs[0], NULL), -ENOMEM);
	expect_eq(0, "VG6", sys.root_tg.child == NULL, true);
	expect_eq(0, "VG6", sys.is_undefined, true);
}

/* VT7, VQ7: propagation down the subtree. Tree: A { B { C }, D }. */
static void test_tg_propagation(void **state)
{
	static const struct walk_step {
		const char *rule;
		int tg;			/* 0 A, 1 B */
		unsigned int max;
		int want[4];		/* effective MAX of A, B, C, D */
	} steps[] = {
		{ "VT7", 1, 30, { 1024, 307, 307, 1024 } },
		{ "VT7", 0, 50, { 512, 307, 307, 512 } },
		{ "VT7", 0, 20, { 204, 204, 204, 204 } },
		{ "VT7", 0, 100, { 1024, 307, 307, 1024 } },	/* seed: VQ7 */
	};
	static const enum model_fidelity fids[] = { INTENT, SEED };

	(void)state;
	for (size_t f = 0; f < ARRAY_SIZE(fids); f++) {
		struct model_tg *a, *b;

		boot(fids[f]);
		a = group(0, NULL);
		assert_int_equal(tgw(a, MIN, 0), 0);	/* VQ6: children copy MIN 0 */
		b = group(1, a);
		group(2, b);
		group(3, a);
		for (size_t i = 0; i < ARRAY_SIZE(steps); i++) {
			const struct walk_step *s = &steps[i];
			bool is_last = i + 1 == ARRAY_SIZE(steps);

			expect_eq(i, s->rule, tgw(&tgs[s->tg], MAX, s->max), 0);
			for (int g = 0; g < 4; g++) {
				int slot = tgs[g].eff[MAX].slot;

				expect_eq(i, s->rule, tgs[g].eff[MAX].value, s->want[g]);
				if (fids[f] == INTENT || !is_last)
					expect_eq(i, s->rule, sys.slot[MAX][slot].value, s->want[g]);
			}
			expect_eq(i, "VQ7", sys.is_undefined, fids[f] == SEED && is_last);
		}
		/* C's requested MAX stays 100 % whatever its effective value */
		expect_eq(f, "VT7", tgs[2].req[MAX].value, 1024);
	}
}

/* VA9, VA10, VA11: cgroup files. */
static void test_tg_files(void **state)
{
	struct model_tg *g;
	char buf[8];

	static const struct write_case {
		const char *rule;
		unsigned int abi;
		int id;
		const char *buf;
		int want;
		unsigned int want_read;
	} cases[] = {
		{ "VA10", PCT, MAX, "50", 0, 50 },
		{ "VA10", PCT, MAX, "50\n", 0, 50 },
		{ "VA10", PCT, MAX, "+50", 0, 50 },
		{ "VA10", PCT, MAX, "0x32", 0, 50 },
		{ "VA10", PCT, MAX, "0x3a", 0, 58 },
		{ "VA10", PCT, MAX, "0X3A\n", 0, 58 },
		{ "VA10", PCT, MAX, "062", 0, 50 },
		{ "VA10", PCT, MAX, "0", 0, 0 },
		{ "VA10", PCT, MAX, "100", 0, 100 },
		{ "VA10", PCT, MAX, "101", -ERANGE, 100 },
		{ "VA10", PCT, MAX, "99999999999999999999", -ERANGE, 100 },
		{ "VA10", PCT, MAX, "-1", -EINVAL, 100 },	/* kstrtoull takes no '-' */
		{ "VA10", PCT, MAX, "", -EINVAL, 100 },
		{ "VA10", PCT, MAX, " 50", -EINVAL, 100 },
		{ "VA10", PCT, MAX, "5x", -EINVAL, 100 },
		{ "VA10", PCT, MAX, "50\n\n", -EINVAL, 100 },
		{ "VA10", PCT, MAX, "08", -EINVAL, 100 },
		{ "VA10", PCT, MAX, "0x", -EINVAL, 100 },
		{ "VA10", PCT, MIN, "40", 0, 40 },
		{ "VA10", MODEL_SCALE, MAX, "1024", 0, 1024 },
		{ "VA10", MODEL_SCALE, MAX, "1025", -ERANGE, 1024 },
		{ "VA10", MODEL_SCALE, MIN, "300", 0, 300 },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct write_case *c = &cases[i];

		boot_cfg(INTENT, GROUPS, true, c->abi, NR_CPUS);
		g = group(0, NULL);
		expect_eq(i, c->rule, model_tg_write(&sys, g, c->id, c->buf), c->want);
		model_tg_read(&sys, g, c->id, false, buf, sizeof(buf));
		expect_eq(i, "VA11", strtoul(buf, NULL, 10), c->want_read);
	}
	boot_cfg(INTENT, 1, true, PCT, NR_CPUS);
	g = group(0, NULL);
	expect_eq(0, "VA10", tgw(g, MIN, 40), 0);
	expect_eq(1, "VA10", tgw(g, MAX, 30), -EINVAL);		/* below its MIN */
	assert_int_equal(req(task(0, MODEL_CLASS_FAIR), F_MAX, 0, 70), 0);
	expect_eq(2, "VG7", tgw(g, MAX, 60), -ENOSPC);		/* MAX's one slot taken */
	expect_eq(3, "VA10", tgw(g, MAX, 70), 0);		/* shares it */
	expect_eq(4, "VA10", tgw(g, MIN, 80), -EINVAL);		/* above its MAX */
	expect_eq(5, "VA10", tgw(g, MIN, 40), 0);		/* unchanged: no-op */
	expect_eq(5, "VA10", sys.slot[MIN][1].se_count, 1);
	expect_eq(6, "VA11", model_tg_read(&sys, &sys.root_tg, MIN, false, buf, sizeof(buf)), 3);
	expect_eq(6, "VA9", strcmp(buf, "100"), 0);		/* v1 root file */
	expect_eq(7, "VA11", model_tg_read(&sys, g, MAX, true, buf, sizeof(buf)), 2);
	expect_eq(7, "VA11", strcmp(buf, "70"), 0);
	expect_eq(8, "VA11", model_tg_read(&sys, g, MIN, false, buf, 2), -ENOSPC);
	expect_eq(8, "VA11", model_v3_cgroup_format(4294967295U, buf, sizeof(buf)), -ENOSPC);
	expect_eq(8, "VA10", model_v3_cgroup_parse(NULL, &(unsigned long long){ 0 }), -EINVAL);
	expect_eq(9, "VA9", model_tg_write(&sys, &sys.root_tg, MIN, "10"), -EINVAL);
	boot_cfg(INTENT, GROUPS, false, PCT, NR_CPUS);
	g = group(0, NULL);
	expect_eq(10, "VA9", tgw(g, MIN, 10), -ENOENT);
}

/* VQ3, VQ8, VQ13: seed states a model must not guess. */
static void test_seed_undefined(void **state)
{
	struct model_task *t;

	(void)state;
	boot_cfg(SEED, GROUPS, false, PCT, NR_CPUS);
	t = task(0, MODEL_CLASS_FAIR);
	assert_int_equal(req(t, F_BOTH, 10, 90), 0);	/* takes free slot 0 */
	model_enqueue(&sys, t, 0);
	expect_eq(0, "VQ3", sys.is_undefined, false);	/* explicit: fine */
	model_enqueue(&sys, task(1, MODEL_CLASS_FAIR), 1);
	expect_eq(1, "VQ3", sys.is_undefined, true);
	boot_cfg(INTENT, GROUPS, false, PCT, NR_CPUS);
	model_enqueue(&sys, task(1, MODEL_CLASS_FAIR), 1);
	expect_eq(2, "VQ3", sys.is_undefined, false);
	expect_eq(2, "VQ3", cpus[1].value[MAX], 1024);
	/* VQ8: the first default change releases slot 0 under the root */
	boot(SEED);
	assert_int_equal(model_sysctl_write(&sys, SYS_MIN, 0), 0);
	expect_eq(3, "VQ8", sys.is_undefined, false);
	assert_int_equal(model_sysctl_write(&sys, SYS_MAX, 90), 1);
	expect_eq(3, "VQ8", sys.is_undefined, true);
	expect_eq(3, "VQ8", sys.slot[MAX][0].value, NV);	/* the root's slot freed */
	/* tasks counted in a freed slot: mirrors reset under them, no crash */
	boot(SEED);
	t = task(0, MODEL_CLASS_FAIR);
	model_enqueue(&sys, t, 0);
	assert_int_equal(model_sysctl_write(&sys, SYS_MAX, 90), 1);
	expect_eq(4, "VQ8", cpus[0].bucket[MAX][0].tasks, 0);
	model_dequeue(&sys, t);
	expect_eq(4, "VQ8", t->acc_slot[MAX], NV);
	boot_cfg(SEED, GROUPS, false, PCT, NR_CPUS);		/* put of a free slot 0 */
	assert_int_equal(model_sysctl_write(&sys, SYS_MIN, 20), 0);
	expect_eq(5, "VQ8", sys.is_undefined, true);
	expect_eq(5, "VQ8", sys.slot[MIN][0].value, NV);
	/* VQ13: an explicit request of a root-group task is not capped (both) */
	for (int f = 0; f < 2; f++) {
		boot(f ? SEED : INTENT);
		t = task(0, MODEL_CLASS_FAIR);
		assert_true(model_sysctl_write(&sys, SYS_MAX, 20) >= 0);
		assert_true(req(t, F_MAX, 0, 80) >= 0);
		expect_eq(6 + f, "VQ13", eff(t, MAX), 819);
		expect_eq(6 + f, "VT8", eff(task(1, MODEL_CLASS_FAIR), MAX), 204);
	}
}

/* ---- property test: incremental aggregates against brute force ---- */

/* Clamp values the random requests pick from, in percent: 8 > GROUPS, so ENOSPC happens. */
static const unsigned int prop_pct[] = { 0, 10, 25, 33, 50, 75, 90, 100 };

struct prop {
	uint64_t rng;				/* xorshift64 state, fixed seed */
	bool is_stale[PROP_TASKS][MODEL_UCLAMP_CNT];	/* counted before a sysctl change */
	int stale_slot[PROP_TASKS][MODEL_UCLAMP_CNT];	/* ... in this slot, kept (VR12) */
	int last_max[PROP_CPUS];		/* MAX aggregate while last non-empty */
	int next_pid;
};

static uint64_t xorshift64(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *s = x;
}

static unsigned int rnd(struct prop *p, unsigned int n)
{
	return (unsigned int)(xorshift64(&p->rng) % n);
}

static void fresh(struct prop *p, const struct model_task *t)
{
	memset(p->is_stale[t - tasks], 0, sizeof(p->is_stale[0]));
}

/* The spec's VT1 (b)-(d), written again, as an oracle for VR9/VR10. */
static int oracle_slot(const struct model_task *t, int id)
{
	const struct model_se *r = &t->req[id], *e = &t->tg->eff[id];

	if (r->slot == NV && t->tg == &sys.root_tg)
		return sys.dflt[id].slot;
	return r->slot == NV || r->value > e->value ? e->slot : r->slot;
}

static void prop_check_rq(struct prop *p, unsigned long op)
{
	for (int c = 0; c < PROP_CPUS; c++) {
		int want[MODEL_UCLAMP_CNT] = { NV, NV };
		bool is_empty = true, want_idle = false;
		struct model_node *n;

		model_list_for_each(n, &cpus[c].queued) {
			const struct model_task *t = model_container_of(n, struct model_task, rq_node);
			bool is_counted = t->cls == MODEL_CLASS_FAIR || t->cls == MODEL_CLASS_RT;

			for (int id = 0; id < MODEL_UCLAMP_CNT; id++) {
				int s = t->acc_slot[id];

				if ((s != NV) != is_counted)
					fail_msg("op %lu: cpu %d pid %d id %d: acc %d", op, c, t->pid, id, s);
				if (!is_counted)
					continue;
				int want_slot = p->is_stale[t - tasks][id] ?
						p->stale_slot[t - tasks][id] : oracle_slot(t, id);

				if (s != want_slot)
					fail_msg("op %lu: cpu %d pid %d id %d: counted in %d want %d (VR9/VR10/VR12)",
						 op, c, t->pid, id, s, want_slot);
				if (sys.slot[id][s].value > want[id])
					want[id] = sys.slot[id][s].value;
				is_empty = false;
			}
		}
		if (is_empty) {
			want[MAX] = p->last_max[c];	/* VR11 retention */
			want_idle = p->last_max[c] != NV;
		} else {
			p->last_max[c] = want[MAX];
		}
		for (int id = 0; id < MODEL_UCLAMP_CNT; id++)
			if (cpus[c].value[id] != want[id])
				fail_msg("op %lu: cpu %d id %d: incremental %d brute force %d (VR4-VR6)",
					 op, c, id, cpus[c].value[id], want[id]);
		if (cpus[c].is_idle != want_idle)
			fail_msg("op %lu: cpu %d: is_idle %d want %d (VR11)", op, c,
				 cpus[c].is_idle, want_idle);
	}
}

/* Every reference and every counted task accounted for (VG2, VG4, VG5). */
static void prop_check_slots(unsigned long op)
{
	unsigned int refs[MODEL_UCLAMP_CNT][MODEL_MAX_SLOTS] = { { 0 } };
	unsigned int counted[MODEL_UCLAMP_CNT][MODEL_MAX_SLOTS] = { { 0 } };

	for (int id = 0; id < MODEL_UCLAMP_CNT; id++) {
		refs[id][sys.root_tg.req[id].slot]++;
		refs[id][sys.dflt[id].slot]++;
		for (int g = 0; g < PROP_TGS; g++) {
			refs[id][tgs[g].req[id].slot]++;
			if (sys.slot[id][tgs[g].eff[id].slot].value == NV)
				fail_msg("op %lu: tg %d id %d: effective slot free (VT7)", op, g, id);
		}
		for (int k = 0; k < PROP_TASKS; k++)
			if (tasks[k].req[id].slot != NV)
				refs[id][tasks[k].req[id].slot]++;
		for (int c = 0; c < PROP_CPUS; c++)
			for (int s = 0; s < MODEL_MAX_SLOTS; s++)
				counted[id][s] += cpus[c].bucket[id][s].tasks;
		for (int s = 0; s <= GROUPS; s++) {
			const struct model_slot *sl = &sys.slot[id][s];

			if (sl->se_count != refs[id][s] || sl->nr_counted != counted[id][s])
				fail_msg("op %lu: slot %d:%d: refs %u/%u counted %u/%u (VG4/VG5)", op,
					 id, s, sl->se_count, refs[id][s], sl->nr_counted,
					 counted[id][s]);
			if ((sl->value == NV) != (!sl->se_count && !sl->nr_counted))
				fail_msg("op %lu: slot %d:%d: value %d unused (VG5)", op, id, s,
					 sl->value);
			for (int s2 = 0; s2 < s; s2++)
				if (sl->value != NV && sys.slot[id][s2].value == sl->value)
					fail_msg("op %lu: slots %d and %d both hold %d (VG3)", op,
						 s2, s, sl->value);
		}
	}
}

static void prop_op(struct prop *p)
{
	struct model_task *t = &tasks[rnd(p, PROP_TASKS)];
	unsigned int kind = rnd(p, 100);
	char buf[16];

	if (kind < 25) {			/* wakeup */
		if (t->cpu < 0) {
			model_enqueue(&sys, t, (int)rnd(p, PROP_CPUS));
			fresh(p, t);
		}
	} else if (kind < 45) {			/* sleep */
		if (t->cpu >= 0)
			model_dequeue(&sys, t);
	} else if (kind < 57) {			/* migration */
		if (t->cpu >= 0) {
			model_migrate(&sys, t, (int)rnd(p, PROP_CPUS));
			fresh(p, t);
		}
	} else if (kind < 72) {			/* sched_setattr, clamps only */
		unsigned int flags = F_MIN << rnd(p, 3);	/* MIN, MAX or both */
		unsigned int lo = prop_pct[rnd(p, ARRAY_SIZE(prop_pct))];
		unsigned int hi = prop_pct[rnd(p, ARRAY_SIZE(prop_pct))];

		if (flags > F_MAX)
			flags = F_BOTH;
		if (req(t, flags, lo, hi) == 0)
			for (int id = 0; id < MODEL_UCLAMP_CNT; id++)
				if (flags & (F_MIN << id))
					p->is_stale[t - tasks][id] = false;
	} else if (kind < 82) {			/* cgroup write */
		struct model_tg *g = &tgs[rnd(p, PROP_TGS)];

		snprintf(buf, sizeof(buf), "%u", prop_pct[rnd(p, ARRAY_SIZE(prop_pct))]);
		model_tg_write(&sys, g, (int)rnd(p, MODEL_UCLAMP_CNT), buf);
	} else if (kind < 89) {			/* cgroup move */
		unsigned int g = rnd(p, PROP_TGS + 1);

		model_task_move_tg(&sys, t, g == PROP_TGS ? &sys.root_tg : &tgs[g]);
		fresh(p, t);
	} else if (kind < 94) {			/* sysctl */
		int id = (int)rnd(p, MODEL_UCLAMP_CNT);
		long long v = rnd(p, 16) ? (long long)prop_pct[rnd(p, ARRAY_SIZE(prop_pct))] : -5;

		model_sysctl_write(&sys, id == MIN ? SYS_MIN : SYS_MAX, v);
		for (int k = 0; k < PROP_TASKS; k++) {	/* VR12: counted ones keep their slot */
			if (tasks[k].acc_slot[id] == NV || tasks[k].tg != &sys.root_tg ||
			    p->is_stale[k][id])
				continue;
			p->is_stale[k][id] = true;
			p->stale_slot[k][id] = tasks[k].acc_slot[id];
		}
	} else if (kind < 98) {			/* policy change */
		model_task_set_class(&sys, t, (enum model_class)rnd(p, MODEL_CLASS_OTHER + 1));
		fresh(p, t);
	} else {				/* exit, and a fork reusing the storage */
		model_task_exit(&sys, t);
		model_task_fork(&sys, &tasks[rnd(p, PROP_TASKS)], t, p->next_pid++);
		fresh(p, t);
	}
}

static void test_property(void **state)
{
	static struct prop p;
	const char *env = getenv("UCVAL_PROP_OPS");
	unsigned long nr_ops = env ? strtoul(env, NULL, 10) : PROP_OPS;

	(void)state;
	memset(&p, 0, sizeof(p));
	p.rng = 0x9e3779b97f4a7c15ULL;
	p.next_pid = PROP_TASKS;
	for (int c = 0; c < PROP_CPUS; c++)
		p.last_max[c] = NV;
	boot_cfg(INTENT, GROUPS, true, PCT, PROP_CPUS);
	/* root { 0 { 2 { 4 }, 3 }, 1 { 5 }, 6 } */
	for (int g = 0; g < PROP_TGS; g++) {
		static const int parent[PROP_TGS] = { -1, -1, 0, 0, 2, 1, -1 };

		group(g, parent[g] < 0 ? NULL : &tgs[parent[g]]);
	}
	for (int k = 0; k < PROP_TASKS; k++)
		task(k, k % 8 ? MODEL_CLASS_FAIR : MODEL_CLASS_RT);
	for (unsigned long op = 0; op < nr_ops; op++) {
		prop_op(&p);
		prop_check_rq(&p, op);
		if (op % PROP_SLOT_CHECK_EVERY == 0)
			prop_check_slots(op);
	}
	for (int k = 0; k < PROP_TASKS; k++) {
		if (tasks[k].cpu < 0)
			continue;
		model_dequeue(&sys, &tasks[k]);
		prop_check_rq(&p, nr_ops);
	}
	prop_check_slots(nr_ops);
	for (int c = 0; c < PROP_CPUS; c++) {
		expect_eq(c, "VR5", cpus[c].nr_queued, 0);
		for (int id = 0; id < MODEL_UCLAMP_CNT; id++) {
			expect_eq(c, "VR11", cpus[c].value[id],
				  id == MIN ? NV : p.last_max[c]);
			for (int s = 0; s < MODEL_MAX_SLOTS; s++)
				expect_eq(c, "VR5", cpus[c].bucket[id][s].tasks, 0);
		}
	}
	for (int id = 0; id < MODEL_UCLAMP_CNT; id++)
		for (int s = 0; s < MODEL_MAX_SLOTS; s++)
			expect_eq(s, "VR5", sys.slot[id][s].nr_counted, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vp_pct),
		cmocka_unit_test(test_boot),
		cmocka_unit_test(test_setattr_flags),
		cmocka_unit_test(test_setattr_values),
		cmocka_unit_test(test_setattr_atomic),
		cmocka_unit_test(test_setattr_policy),
		cmocka_unit_test(test_setattr_size),
		cmocka_unit_test(test_no_uclamp_task),
		cmocka_unit_test(test_seed_find_key),
		cmocka_unit_test(test_getattr),
		cmocka_unit_test(test_sysctl),
		cmocka_unit_test(test_sysctl_enospc),
		cmocka_unit_test(test_groups_find_attach),
		cmocka_unit_test(test_groups_capacity),
		cmocka_unit_test(test_groups_exit),
		cmocka_unit_test(test_rq_accounting),
		cmocka_unit_test(test_rq_classes_clamp),
		cmocka_unit_test(test_rq_queued_change),
		cmocka_unit_test(test_rq_tg_change),
		cmocka_unit_test(test_rq_lazy_default),
		cmocka_unit_test(test_task_eff),
		cmocka_unit_test(test_fork),
		cmocka_unit_test(test_tg_create),
		cmocka_unit_test(test_tg_propagation),
		cmocka_unit_test(test_tg_files),
		cmocka_unit_test(test_seed_undefined),
		cmocka_unit_test(test_property),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
