// SPDX-License-Identifier: MIT
/*
 * cmocka tests of the mainline model (model/mainline.c, uclamp-mainline.md):
 * one table or scenario per rule ID, each row naming its rule, then a
 * property test: 1,000,000 random operations on 6.1 (5 and 20 buckets),
 * each followed by a check of every CPU against a brute-force count of its
 * queued tasks and a shadow of the bucket local maxima (MB2, MR4); plus
 * 150,000 operations in older eras that check bucket counts only.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#define KV(a, b)	MODEL_KVER(a, b, 0)
#define MIN_ID		MODEL_UCLAMP_MIN
#define MAX_ID		MODEL_UCLAMP_MAX
#define F_MIN		MODEL_ML_FLAG_UTIL_CLAMP_MIN
#define F_MAX		MODEL_ML_FLAG_UTIL_CLAMP_MAX
#define F_KEEP		(MODEL_ML_FLAG_KEEP_POLICY | MODEL_ML_FLAG_KEEP_PARAMS)
#define RESET		0xffffffffu	/* (u32)-1: reset a clamp (MA2, 5.11+) */
#define UNSET		(-2)		/* a table's "no request" */
#define SMALL_CPUS	2
#define SMALL_TASKS	8
#define SMALL_GROUPS	4
#define TEXT_LEN	32
#define BOTH_IDS	((1u << MIN_ID) | (1u << MAX_ID))

struct env {
	struct model_sys sys;
	struct model_cpu cpu[SMALL_CPUS];
	struct model_task t[SMALL_TASKS];
	struct model_tg g[SMALL_GROUPS];
};

/* Boot: groups g[0], g[1] under root, tasks t[i] fair in root, pid 100 + i. */
static void boot(struct env *e, unsigned int kver, unsigned int buckets, bool task_group)
{
	struct model_config cfg;

	memset(e, 0, sizeof(*e));
	model_config_default(&cfg, MODEL_MAINLINE, SMALL_CPUS);
	cfg.kver = kver;
	cfg.groups = buckets;
	cfg.task_group = task_group;
	assert_int_equal(model_init(&e->sys, &cfg, e->cpu), 0);
	for (int i = 0; i < SMALL_TASKS; i++)
		model_task_init(&e->sys, &e->t[i], 100 + i, MODEL_CLASS_FAIR);
	for (int i = 0; i < 2; i++)
		assert_int_equal(model_tg_init(&e->sys, &e->g[i], NULL), 0);
}

static int set_clamp(struct env *e, int i, unsigned long long flags, unsigned int min,
		     unsigned int max)
{
	struct model_attr a = {
		.size = MODEL_SCHED_ATTR_SIZE_VER1, .flags = flags | F_KEEP,
		.policy = -1, .util_min = min, .util_max = max,
	};

	return model_setattr(&e->sys, &e->t[i], &a);
}

static int eff(const struct env *e, int i, int id)
{
	return model_task_eff(&e->sys, &e->t[i], (enum model_clamp_id)id, NULL);
}

static unsigned int bucket_tasks(const struct env *e, int cpu, int id)
{
	unsigned int n = 0;

	for (int s = 0; s < MODEL_MAX_SLOTS; s++)
		n += e->sys.cpu[cpu].bucket[id][s].tasks;
	return n;
}

/* ---- MB1 ---- */

static void test_mb1_bucket_id(void **state)
{
	static const struct {
		const char *rule;
		unsigned int buckets, kver, value, want;
	} cases[] = {
		{ "MB1", 5, KV(6, 1), 0, 0 },
		{ "MB1", 5, KV(6, 1), 204, 0 },
		{ "MB1", 5, KV(6, 1), 205, 1 },
		{ "MB1", 5, KV(6, 1), 409, 1 },
		{ "MB1", 5, KV(6, 1), 410, 2 },
		{ "MB1", 5, KV(6, 1), 614, 2 },
		{ "MB1", 5, KV(6, 1), 615, 3 },
		{ "MB1", 5, KV(6, 1), 819, 3 },
		{ "MB1", 5, KV(6, 1), 820, 4 },
		{ "MB1", 5, KV(6, 1), 1024, 4 },
		{ "MB1", 5, KV(5, 4), 1024, 4 },	/* 5 buckets never overflow */
		{ "MB1", 10, KV(6, 1), 101, 0 },
		{ "MB1", 10, KV(6, 1), 102, 1 },
		{ "MB1", 10, KV(6, 1), 1019, 9 },
		{ "MB1", 10, KV(6, 1), 1020, 9 },	/* capped from 5.13 */
		{ "MB1", 10, KV(5, 12), 1020, 10 },	/* index B before */
		{ "MB1", 10, KV(5, 12), 1024, 10 },
		{ "MB1", 20, KV(6, 1), 50, 0 },
		{ "MB1", 20, KV(6, 1), 51, 1 },
		{ "MB1", 20, KV(6, 1), 1019, 19 },
		{ "MB1", 20, KV(6, 1), 1024, 19 },
		{ "MB1", 20, KV(5, 13), 1024, 19 },
		{ "MB1", 20, KV(5, 12), 1020, 20 },
		{ "MB1", 20, KV(5, 10), 1024, 20 },
		{ "MB1", 7, KV(5, 10), 1024, 7 },
		{ "MB1", 7, KV(6, 1), 1024, 6 },
		/* 5.11/5.12 accept huge values: the index is stored in bits_per(B) bits */
		{ "MB1", 5, KV(5, 12), 0xfffffffeu, 3 },
		{ "MB1", 5, KV(5, 13), 0xfffffffeu, 4 },
		{ "MB1", 20, KV(5, 12), 0xfffffffeu, 4 },
	};
	static const struct {
		unsigned int buckets, want;
	} deltas[] = { { 5, 205 }, { 10, 102 }, { 20, 51 }, { 7, 146 }, { 16, 64 } };

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		unsigned int got = model_mainline_bucket_id(cases[i].buckets, cases[i].kver,
							    cases[i].value);

		if (got != cases[i].want)
			fail_msg("case %zu (%s): B=%u value %u: got %u want %u", i, cases[i].rule,
				 cases[i].buckets, cases[i].value, got, cases[i].want);
	}
	for (size_t i = 0; i < ARRAY_SIZE(deltas); i++) {
		unsigned int got = model_mainline_bucket_delta(deltas[i].buckets);

		if (got != deltas[i].want)
			fail_msg("delta %zu (MB1): got %u want %u", i, got, deltas[i].want);
	}
}

/*
 * MB1 before 5.13: index B is counted but never rescanned. With the pre-5.15
 * IDLE leak (MR5) a rescan can miss a queued task of bucket B; MIN in
 * bucket B overwrites rq MAX in the kernel: undefined.
 */
static void test_mb1_out_of_bounds(void **state)
{
	struct env e;

	(void)state;
	boot(&e, KV(5, 10), 20, true);
	model_task_move_tg(&e.sys, &e.t[0], &e.g[0]);
	assert_int_equal(set_clamp(&e, 1, F_MAX, 0, 300), 0);	/* key on */
	model_enqueue(&e.sys, &e.t[0], 0);			/* MAX 1024 -> slot 20 */
	assert_int_equal(e.cpu[0].bucket[MAX_ID][20].tasks, 1);
	assert_int_equal(model_rq_value(&e.sys, 0, MAX_ID), 1024);
	assert_false(e.sys.is_undefined);
	/* MR5: re-account of the lone task leaves IDLE set (5.4-5.14) */
	assert_int_equal(model_tg_write(&e.sys, &e.g[0], MAX_ID, "99.9"), 0);
	assert_int_equal(e.t[0].acc_slot[MAX_ID], 20);
	assert_int_equal(model_rq_value(&e.sys, 0, MAX_ID), 1023);
	assert_true(model_rq_is_idle(&e.sys, 0));
	model_enqueue(&e.sys, &e.t[1], 0);			/* IDLE: overwrites */
	assert_int_equal(model_rq_value(&e.sys, 0, MAX_ID), 300);
	model_dequeue(&e.sys, &e.t[1]);
	/* MB1: the rescan stops at bucket 19: t0 (1023, bucket 20) is not seen */
	assert_int_equal(model_rq_value(&e.sys, 0, MAX_ID), 300);
	assert_true(model_rq_is_idle(&e.sys, 0));
	assert_int_equal(e.cpu[0].bucket[MAX_ID][20].tasks, 1);
	model_dequeue(&e.sys, &e.t[0]);
	assert_int_equal(e.cpu[0].bucket[MAX_ID][20].tasks, 0);
	/* MB1: an RT task's MIN 1024 lands on rq MAX's storage: undefined */
	model_task_init(&e.sys, &e.t[2], 102, MODEL_CLASS_RT);
	model_enqueue(&e.sys, &e.t[2], 0);
	assert_int_equal(e.cpu[0].bucket[MIN_ID][20].tasks, 1);
	assert_true(e.sys.is_undefined);
}

/* ---- rq scenarios (MB2, MB4, MR3, MR4, MR5, MR6) ---- */

enum sc_op { SC_ENQ, SC_DEQ, SC_CLAMP, SC_MOVE, SC_TG_MIN, SC_TG_MAX };

struct sc_step {
	enum sc_op op;
	int task;
	unsigned int min, max;		/* SC_CLAMP values */
	const char *pct;		/* SC_TG_* text, written to g[0] */
	int want_min, want_max, want_idle;	/* CPU 0 after the step */
};

struct scenario {
	const char *rule;
	unsigned int kver, buckets;
	const struct sc_step *steps;
	size_t n;
};

#define SCENARIO(r, k, b, s)	{ r, k, b, s, ARRAY_SIZE(s) }

static void run_scenario(const struct scenario *sc)
{
	struct env e;

	boot(&e, sc->kver, sc->buckets, true);
	for (size_t i = 0; i < sc->n; i++) {
		const struct sc_step *s = &sc->steps[i];
		int ret = 0, got_min, got_max, got_idle;

		switch (s->op) {
		case SC_ENQ:
			model_enqueue(&e.sys, &e.t[s->task], 0);
			break;
		case SC_DEQ:
			model_dequeue(&e.sys, &e.t[s->task]);
			break;
		case SC_CLAMP:
			ret = set_clamp(&e, s->task, F_MIN | F_MAX, s->min, s->max);
			break;
		case SC_MOVE:
			model_task_move_tg(&e.sys, &e.t[s->task], &e.g[0]);
			break;
		case SC_TG_MIN:
		case SC_TG_MAX:
			ret = model_tg_write(&e.sys, &e.g[0], s->op == SC_TG_MIN ? MIN_ID : MAX_ID,
					     s->pct);
			break;
		}
		got_min = model_rq_value(&e.sys, 0, MIN_ID);
		got_max = model_rq_value(&e.sys, 0, MAX_ID);
		got_idle = model_rq_is_idle(&e.sys, 0);
		if (ret || got_min != s->want_min || got_max != s->want_max ||
		    got_idle != s->want_idle)
			fail_msg("%s (kver %#x) step %zu: ret %d, got min %d max %d idle %d, want %d %d %d",
				 sc->rule, sc->kver, i, ret, got_min, got_max, got_idle,
				 s->want_min, s->want_max, s->want_idle);
	}
}

#define CLAMP(t, lo, hi, wmin, wmax, wi)	{ SC_CLAMP, t, lo, hi, NULL, wmin, wmax, wi }
#define ENQ(t, wmin, wmax, wi)			{ SC_ENQ, t, 0, 0, NULL, wmin, wmax, wi }
#define DEQ(t, wmin, wmax, wi)			{ SC_DEQ, t, 0, 0, NULL, wmin, wmax, wi }
#define MOVE(t, wmin, wmax, wi)			{ SC_MOVE, t, 0, 0, NULL, wmin, wmax, wi }
#define TGMIN(p, wmin, wmax, wi)		{ SC_TG_MIN, 0, 0, 0, p, wmin, wmax, wi }
#define TGMAX(p, wmin, wmax, wi)		{ SC_TG_MAX, 0, 0, 0, p, wmin, wmax, wi }

/* MB2: the bucket keeps its local max while tasks remain (over-boost). */
static const struct sc_step mb2[] = {
	CLAMP(0, 300, 1024, 0, 1024, 1), ENQ(0, 300, 1024, 0),
	CLAMP(1, 250, 1024, 300, 1024, 0), ENQ(1, 300, 1024, 0),
	DEQ(0, 300, 1024, 0),		/* 250 left in bucket 1, value stays 300 */
	DEQ(1, 0, 1024, 1),
	ENQ(1, 250, 1024, 0),		/* first task of an empty bucket resets it */
};

/* MB4: rq values at boot and the first counted task, per era. */
static const struct sc_step mb4_5_7[] = {
	ENQ(0, 0, 1024, 0),		/* no key: counted, MAX 0 -> 1024 */
	DEQ(0, 0, 1024, 1),
	CLAMP(1, 0, 300, 0, 1024, 1), ENQ(1, 0, 300, 0),
};
static const struct sc_step mb4_5_7_capped[] = {
	CLAMP(1, 0, 300, 0, 0, 0), ENQ(1, 0, 300, 0),	/* init 0: max wins */
};
static const struct sc_step mb4_5_10[] = {
	CLAMP(0, 0, 300, 0, 1024, 0), ENQ(0, 0, 1024, 0),	/* capped first task: 1024 kept */
	DEQ(0, 0, 1024, 0),		/* 300 < 1024: no rescan, no IDLE */
	ENQ(1, 0, 1024, 0), DEQ(1, 0, 1024, 1),
	ENQ(0, 0, 300, 0),		/* after a real idle it is right */
};
static const struct sc_step mb4_5_17[] = {
	CLAMP(0, 0, 300, 0, 1024, 1), ENQ(0, 0, 300, 0),	/* IDLE at boot */
};

/* MR3: after idle the first task overwrites; then values only rise. */
static const struct sc_step mr3[] = {
	CLAMP(0, 100, 900, 0, 1024, 1), ENQ(0, 100, 900, 0),
	DEQ(0, 0, 900, 1),
	CLAMP(1, 50, 300, 0, 900, 1), ENQ(1, 50, 300, 0),	/* lower than retained 900 */
	CLAMP(2, 150, 800, 50, 300, 0), ENQ(2, 150, 800, 0),
};

/* MR4: rescan only when the emptied bucket was on top; idle keeps the departing value. */
static const struct sc_step mr4[] = {
	CLAMP(0, 0, 700, 0, 1024, 1), ENQ(0, 0, 700, 0),
	CLAMP(1, 0, 650, 0, 700, 0), ENQ(1, 0, 700, 0),
	DEQ(0, 0, 700, 0),
	DEQ(1, 0, 650, 1),		/* departing 650, not the bucket's 700 */
	CLAMP(2, 500, 1024, 0, 650, 1), ENQ(2, 500, 1024, 0),
	CLAMP(3, 100, 1024, 500, 1024, 0), ENQ(3, 500, 1024, 0),
	CLAMP(4, 300, 1024, 500, 1024, 0), ENQ(4, 500, 1024, 0),
	DEQ(4, 500, 1024, 0),		/* bucket 1 emptied below the top: no rescan */
	DEQ(2, 100, 1024, 0),		/* top emptied: highest non-empty bucket */
	DEQ(3, 0, 1024, 1),
};

/* MR5: re-account of a lone task: 5.14 leaves IDLE set, MIN then leaks. */
static const struct sc_step mr5_5_14[] = {
	MOVE(0, 0, 1024, 0), CLAMP(0, 500, 1024, 0, 1024, 0), ENQ(0, 500, 1024, 0),
	TGMAX("80", 500, 819, 1),
	ENQ(1, 0, 1024, 0),		/* IDLE: t1 overwrites MIN though t0 is counted */
};
static const struct sc_step mr5_5_15[] = {
	MOVE(0, 0, 1024, 0), CLAMP(0, 500, 1024, 0, 1024, 0), ENQ(0, 500, 1024, 0),
	TGMAX("80", 500, 819, 0),
	ENQ(1, 500, 1024, 0),
};
/* MR5: before 5.14 only the changed id is re-accounted (stale MIN kept). */
static const struct sc_step mr5_5_13[] = {
	TGMIN("50", 0, 1024, 0), MOVE(0, 0, 1024, 0), MOVE(1, 0, 1024, 0),
	CLAMP(0, 300, 1024, 0, 1024, 0), CLAMP(1, 350, 1024, 0, 1024, 0),
	ENQ(0, 300, 1024, 0), ENQ(1, 350, 1024, 0), DEQ(1, 350, 1024, 0),
	TGMAX("90", 350, 922, 1),	/* MAX only; IDLE leaks (MR5 < 5.15) */
};
static const struct sc_step mr5_5_14_both[] = {
	MOVE(0, 0, 1024, 0), MOVE(1, 0, 1024, 0),
	CLAMP(0, 300, 1024, 0, 1024, 0), CLAMP(1, 350, 1024, 0, 1024, 0),
	ENQ(0, 300, 1024, 0), ENQ(1, 350, 1024, 0), DEQ(1, 350, 1024, 0),
	TGMAX("90", 300, 922, 1),	/* MIN re-accounted too: stale 350 gone */
};

/* MR6: a clamp change of a queued task shows at once. */
static const struct sc_step mr6[] = {
	ENQ(0, 0, 1024, 1),		/* key off (5.9+): not counted, rq stays at boot */
	CLAMP(0, 600, 1024, 600, 1024, 0),	/* key on, re-enqueued: counted now */
	CLAMP(0, 100, 700, 100, 700, 0),
	CLAMP(0, 100, 1024, 100, 1024, 0),
};

static void test_scenarios(void **state)
{
	static const struct scenario scs[] = {
		SCENARIO("MB2", KV(6, 1), 5, mb2),
		SCENARIO("MB4", KV(5, 7), 5, mb4_5_7),
		SCENARIO("MB4", KV(5, 3), 5, mb4_5_7_capped),
		SCENARIO("MB4", KV(5, 10), 5, mb4_5_10),
		SCENARIO("MB4", KV(5, 17), 5, mb4_5_17),
		SCENARIO("MR3", KV(6, 1), 5, mr3),
		SCENARIO("MR4", KV(6, 1), 5, mr4),
		SCENARIO("MR5", KV(5, 14), 5, mr5_5_14),
		SCENARIO("MR5", KV(5, 15), 5, mr5_5_15),
		SCENARIO("MR5", KV(5, 13), 5, mr5_5_13),
		SCENARIO("MR5", KV(5, 14), 5, mr5_5_14_both),
		SCENARIO("MR6", KV(6, 1), 5, mr6),
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(scs); i++)
		run_scenario(&scs[i]);
}

/* MB3: per-task request/effective state; any number of distinct values. */
static void test_mb3_no_capacity_limit(void **state)
{
	struct env e;
	struct model_task many[64];
	int top = 0;

	(void)state;
	boot(&e, KV(6, 1), 5, true);
	for (int i = 0; i < (int)ARRAY_SIZE(many); i++) {
		struct model_attr a = {
			.size = MODEL_SCHED_ATTR_SIZE_VER1, .flags = F_MIN | F_KEEP,
			.policy = -1, .util_min = (unsigned int)(i * 16),
		};
		int slot = -1;

		model_task_init(&e.sys, &many[i], 1000 + i, MODEL_CLASS_FAIR);
		if (model_setattr(&e.sys, &many[i], &a))
			fail_msg("task %d (MB3): distinct value %u refused", i, a.util_min);
		model_enqueue(&e.sys, &many[i], 0);
		if (model_task_eff(&e.sys, &many[i], MIN_ID, &slot) != i * 16 ||
		    slot != (int)model_mainline_bucket_id(5, KV(6, 1), (unsigned int)(i * 16)) ||
		    !many[i].req[MIN_ID].user_defined)
			fail_msg("task %d (MB3): eff %d slot %d", i,
				 model_task_eff(&e.sys, &many[i], MIN_ID, NULL), slot);
		top = i * 16;
	}
	assert_int_equal(model_rq_value(&e.sys, 0, MIN_ID), top);
	assert_int_equal(bucket_tasks(&e, 0, MIN_ID), ARRAY_SIZE(many));
	for (size_t i = 0; i < ARRAY_SIZE(many); i++)
		model_dequeue(&e.sys, &many[i]);
	assert_int_equal(bucket_tasks(&e, 0, MIN_ID) + bucket_tasks(&e, 0, MAX_ID), 0);
}

/* MB4: rq state right after boot. */
static void test_mb4_rq_init(void **state)
{
	static const struct {
		const char *rule;
		unsigned int kver;
		int min, max, idle;
	} cases[] = {
		{ "MB4", KV(5, 3), 0, 0, 0 }, { "MB4", KV(5, 7), 0, 0, 0 },
		{ "MB4", KV(5, 8), 0, 1024, 0 }, { "MB4", KV(5, 16), 0, 1024, 0 },
		{ "MB4", KV(5, 17), 0, 1024, 1 }, { "MB4", KV(6, 1), 0, 1024, 1 },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct env e;
		int min, max, idle;

		boot(&e, cases[i].kver, 5, true);
		min = model_rq_value(&e.sys, 1, MIN_ID);
		max = model_rq_value(&e.sys, 1, MAX_ID);
		idle = model_rq_is_idle(&e.sys, 1);
		if (min != cases[i].min || max != cases[i].max || idle != cases[i].idle)
			fail_msg("case %zu (%s): got %d/%d/%d want %d/%d/%d", i, cases[i].rule,
				 min, max, idle, cases[i].min, cases[i].max, cases[i].idle);
	}
}

/* ---- MR ---- */

/* MR1: only fair and RT tasks are counted. */
static void test_mr1_classes(void **state)
{
	static const struct {
		const char *rule;
		enum model_class cls;
		unsigned int want_tasks;
		int want_min;
	} cases[] = {
		{ "MR1", MODEL_CLASS_FAIR, 1, 0 }, { "MR1", MODEL_CLASS_RT, 1, 1024 },
		{ "MR1", MODEL_CLASS_DL, 0, 0 }, { "MR1", MODEL_CLASS_OTHER, 0, 0 },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct env e;

		boot(&e, KV(6, 1), 5, true);
		assert_int_equal(model_sysctl_write(&e.sys, MODEL_SYSCTL_UTIL_MIN, 1000), 0);
		assert_int_equal(model_sysctl_write(&e.sys, MODEL_SYSCTL_UTIL_MIN, 1024), 0);
		model_task_init(&e.sys, &e.t[0], 100, cases[i].cls);
		model_enqueue(&e.sys, &e.t[0], 0);
		if (bucket_tasks(&e, 0, MIN_ID) != cases[i].want_tasks ||
		    model_rq_value(&e.sys, 0, MIN_ID) != cases[i].want_min)
			fail_msg("case %zu (%s): tasks %u min %d", i, cases[i].rule,
				 bucket_tasks(&e, 0, MIN_ID), model_rq_value(&e.sys, 0, MIN_ID));
	}
}

/* MR2: what turns the static key on, per era. */
static void test_mr2_static_key(void **state)
{
	enum { ACT_NONE, ACT_SETATTR, ACT_SETATTR_BAD, ACT_SYSCTL_SAME, ACT_SYSCTL,
	       ACT_RT_SYSCTL, ACT_CGROUP, ACT_CGROUP_BAD, ACT_SHOWN };
	static const struct {
		const char *rule;
		unsigned int kver;
		int act;
		bool want_used, want_counted;
	} cases[] = {
		{ "MR2", KV(5, 8), ACT_NONE, false, true },	/* no key: always counting */
		{ "MR2", KV(5, 9), ACT_NONE, false, false },
		{ "MR2", KV(6, 1), ACT_SETATTR, true, true },
		{ "MR2", KV(6, 1), ACT_SETATTR_BAD, false, false },
		{ "MR2", KV(6, 1), ACT_SYSCTL_SAME, false, false },
		{ "MR2", KV(6, 1), ACT_SYSCTL, true, true },
		{ "MR2", KV(6, 1), ACT_RT_SYSCTL, true, true },
		{ "MR2", KV(6, 1), ACT_CGROUP, true, true },
		{ "MR2", KV(6, 1), ACT_CGROUP_BAD, false, false },
		/* the trace shows t0 counted (model_task_shown_counted()) */
		{ "MR2", KV(5, 8), ACT_SHOWN, false, true },
		{ "MR2", KV(6, 1), ACT_SHOWN, true, true },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct env e;

		boot(&e, cases[i].kver, 5, true);
		model_enqueue(&e.sys, &e.t[0], 0);	/* queued before any use */
		switch (cases[i].act) {
		case ACT_SETATTR:
			assert_int_equal(set_clamp(&e, 1, F_MAX, 0, 500), 0);
			break;
		case ACT_SETATTR_BAD:
			assert_int_equal(set_clamp(&e, 1, F_MAX, 0, 2000), -EINVAL);
			break;
		case ACT_SYSCTL_SAME:
			assert_int_equal(model_sysctl_write(&e.sys, MODEL_SYSCTL_UTIL_MAX, 1024), 0);
			break;
		case ACT_SYSCTL:
			assert_int_equal(model_sysctl_write(&e.sys, MODEL_SYSCTL_UTIL_MIN, 900), 0);
			break;
		case ACT_RT_SYSCTL:
			assert_int_equal(model_sysctl_write(&e.sys,
							    MODEL_SYSCTL_UTIL_MIN_RT_DEFAULT, 10), 0);
			break;
		case ACT_CGROUP:
			assert_int_equal(model_tg_write(&e.sys, &e.g[0], MAX_ID, "max"), 0);
			break;
		case ACT_CGROUP_BAD:
			assert_int_equal(model_tg_write(&e.sys, &e.g[0], MAX_ID, "x"), -EINVAL);
			break;
		case ACT_SHOWN:
			model_task_shown_counted(&e.sys, &e.t[0]);
			/* t0, queued before, is counted now: its enqueue was */
			if (e.t[0].acc_slot[MIN_ID] == MODEL_NV || bucket_tasks(&e, 0, MIN_ID) != 1)
				fail_msg("case %zu (%s): t0 not counted", i, cases[i].rule);
			break;
		}
		model_enqueue(&e.sys, &e.t[2], 0);
		if (e.sys.is_uclamp_used != cases[i].want_used ||
		    (e.t[2].acc_slot[MIN_ID] != MODEL_NV) != cases[i].want_counted)
			fail_msg("case %zu (%s): used %d counted %d", i, cases[i].rule,
				 e.sys.is_uclamp_used, e.t[2].acc_slot[MIN_ID] != MODEL_NV);
		/* MR2: t0 was queued before the key: its dequeue is ignored */
		model_dequeue(&e.sys, &e.t[0]);
		model_dequeue(&e.sys, &e.t[2]);
		if (bucket_tasks(&e, 0, MIN_ID) || bucket_tasks(&e, 0, MAX_ID))
			fail_msg("case %zu (%s): buckets not empty", i, cases[i].rule);
	}
}

/* MR7: default changes are lazy without task groups; the RT default always is. */
static void test_mr7_lazy_defaults(void **state)
{
	struct env e;

	(void)state;
	boot(&e, KV(6, 1), 5, false);
	assert_int_equal(model_sysctl_write(&e.sys, MODEL_SYSCTL_UTIL_MIN, 0), 0);
	assert_int_equal(set_clamp(&e, 0, F_MAX, 0, 800), 0);
	model_enqueue(&e.sys, &e.t[0], 0);
	assert_int_equal(model_sysctl_write(&e.sys, MODEL_SYSCTL_UTIL_MAX, 500), 0);
	assert_int_equal(model_rq_value(&e.sys, 0, MAX_ID), 800);	/* MR7: lazy */
	model_dequeue(&e.sys, &e.t[0]);
	model_enqueue(&e.sys, &e.t[0], 0);
	assert_int_equal(model_rq_value(&e.sys, 0, MAX_ID), 500);

	boot(&e, KV(6, 1), 5, true);
	assert_int_equal(model_sysctl_write(&e.sys, MODEL_SYSCTL_UTIL_MIN, 0), 0);
	assert_int_equal(set_clamp(&e, 0, F_MAX, 0, 800), 0);
	model_enqueue(&e.sys, &e.t[0], 0);
	assert_int_equal(model_sysctl_write(&e.sys, MODEL_SYSCTL_UTIL_MAX, 500), 0);
	assert_int_equal(model_rq_value(&e.sys, 0, MAX_ID), 500);	/* MR7: root re-account */
	assert_int_equal(model_sysctl_write(&e.sys, MODEL_SYSCTL_UTIL_MIN, 1024), -EINVAL);
	assert_int_equal(model_sysctl_write(&e.sys, MODEL_SYSCTL_UTIL_MAX, 1024), 0);
	assert_int_equal(model_sysctl_write(&e.sys, MODEL_SYSCTL_UTIL_MIN, 1024), 0);
	model_task_init(&e.sys, &e.t[1], 101, MODEL_CLASS_RT);
	model_enqueue(&e.sys, &e.t[1], 1);
	assert_int_equal(model_sysctl_write(&e.sys, MODEL_SYSCTL_UTIL_MIN_RT_DEFAULT, 200), 0);
	assert_int_equal(model_rq_value(&e.sys, 1, MIN_ID), 1024);	/* MR7: RT lazy */
	model_dequeue(&e.sys, &e.t[1]);
	model_enqueue(&e.sys, &e.t[1], 1);
	assert_int_equal(model_rq_value(&e.sys, 1, MIN_ID), 200);
}

/* MR8: what an idle rq reports; MR9: the model dequeues when told to. */
static void test_mr8_mr9_read(void **state)
{
	struct env e;

	(void)state;
	boot(&e, KV(6, 1), 5, true);
	assert_int_equal(set_clamp(&e, 0, F_MIN | F_MAX, 300, 600), 0);
	model_enqueue(&e.sys, &e.t[0], 0);
	model_dequeue(&e.sys, &e.t[0]);
	assert_int_equal(model_rq_value(&e.sys, 0, MIN_ID), 0);	/* MR8 */
	assert_int_equal(model_rq_value(&e.sys, 0, MAX_ID), 600);	/* MR8 retained */
	assert_true(model_rq_is_idle(&e.sys, 0));
	assert_int_equal(model_rq_clamp_util(&e.sys, 0, 900), 600);
	/* MR9: a sched_delayed task stays counted until the caller dequeues it */
	model_enqueue(&e.sys, &e.t[0], 0);
	assert_int_equal(model_rq_value(&e.sys, 0, MIN_ID), 300);
	assert_int_equal(e.t[0].acc_value[MIN_ID], 300);
}

/* ---- MT ---- */

/* MT1: the system default caps every task, root group included. */
static void test_mt1_default_cap(void **state)
{
	struct env e;
	int slot;

	(void)state;
	boot(&e, KV(6, 1), 5, true);
	assert_int_equal(model_sysctl_write(&e.sys, MODEL_SYSCTL_UTIL_MIN, 500), 0);
	assert_int_equal(model_sysctl_write(&e.sys, MODEL_SYSCTL_UTIL_MAX, 600), 0);
	assert_int_equal(set_clamp(&e, 0, F_MIN, 900, 0), 0);
	assert_int_equal(model_task_eff(&e.sys, &e.t[0], MIN_ID, &slot), 500);
	assert_int_equal(slot, 2);
	assert_int_equal(eff(&e, 0, MAX_ID), 600);
	assert_int_equal(model_sysctl_write(&e.sys, MODEL_SYSCTL_UTIL_MIN, 100), 0);
	assert_int_equal(eff(&e, 0, MIN_ID), 100);
	model_task_move_tg(&e.sys, &e.t[0], &e.g[0]);
	assert_int_equal(eff(&e, 0, MIN_ID), 100);	/* a group does not lift the cap */
	assert_int_equal(eff(&e, 1, MIN_ID), 0);
}

/* MT6: effective min above effective max; the rq then clamps to its MIN (MS1). */
static void test_mt6_inversion(void **state)
{
	struct env e;

	(void)state;
	/* 5.4-5.13: an unset min takes the group min, a user max is kept */
	boot(&e, KV(5, 13), 5, true);
	assert_int_equal(model_tg_write(&e.sys, &e.g[0], MIN_ID, "50"), 0);
	model_task_move_tg(&e.sys, &e.t[0], &e.g[0]);
	assert_int_equal(set_clamp(&e, 0, F_MAX, 0, 300), 0);
	model_enqueue(&e.sys, &e.t[1], 0);	/* MB4: idle once, so the rq follows */
	model_dequeue(&e.sys, &e.t[1]);
	model_enqueue(&e.sys, &e.t[0], 0);
	assert_int_equal(model_rq_value(&e.sys, 0, MIN_ID), 512);
	assert_int_equal(model_rq_value(&e.sys, 0, MAX_ID), 300);
	assert_int_equal(model_rq_clamp_util(&e.sys, 0, 100), 512);
	assert_int_equal(model_rq_clamp_util(&e.sys, 0, 900), 512);
	/* 5.14+: clamp() raises the max: no inversion */
	boot(&e, KV(5, 14), 5, true);
	assert_int_equal(model_tg_write(&e.sys, &e.g[0], MIN_ID, "50"), 0);
	model_task_move_tg(&e.sys, &e.t[0], &e.g[0]);
	assert_int_equal(set_clamp(&e, 0, F_MAX, 0, 300), 0);
	assert_int_equal(eff(&e, 0, MIN_ID), 512);
	assert_int_equal(eff(&e, 0, MAX_ID), 512);
	/* any era: a class change to RT resets an unset min above a user max */
	boot(&e, KV(6, 1), 5, true);
	assert_int_equal(set_clamp(&e, 0, F_MAX, 0, 300), 0);
	model_task_set_class(&e.sys, &e.t[0], MODEL_CLASS_RT);
	assert_int_equal(eff(&e, 0, MIN_ID), 1024);
	assert_int_equal(eff(&e, 0, MAX_ID), 300);
}

/* MT2: uclamp_tg_restrict() per era. */
static void test_mt2_tg_restrict(void **state)
{
	enum { IN_ROOT, IN_GROUP, IN_AUTO };
	static const struct {
		const char *rule;
		unsigned int kver;
		bool task_group;
		int where;
		const char *tg_min, *tg_max;
		enum model_class cls;
		int req_min, req_max;		/* UNSET: no request */
		int want_min, want_max;
	} cases[] = {
		{ "MT2", KV(5, 13), true, IN_GROUP, "20", NULL, MODEL_CLASS_FAIR, UNSET, UNSET, 205, 1024 },
		{ "MT2", KV(5, 13), true, IN_GROUP, "20", NULL, MODEL_CLASS_FAIR, 0, UNSET, 0, 1024 },
		{ "MT2", KV(5, 13), true, IN_GROUP, "20", NULL, MODEL_CLASS_FAIR, 500, UNSET, 205, 1024 },
		{ "MT2", KV(5, 13), true, IN_GROUP, "20", NULL, MODEL_CLASS_RT, UNSET, UNSET, 205, 1024 },
		{ "MT2", KV(5, 13), true, IN_GROUP, NULL, NULL, MODEL_CLASS_FAIR, 800, UNSET, 0, 1024 },
		{ "MT2", KV(5, 13), true, IN_GROUP, NULL, "50", MODEL_CLASS_FAIR, UNSET, 800, 0, 512 },
		{ "MT2", KV(5, 13), true, IN_GROUP, NULL, "50", MODEL_CLASS_FAIR, UNSET, 300, 0, 300 },
		{ "MT2", KV(5, 4), true, IN_GROUP, "20", NULL, MODEL_CLASS_FAIR, UNSET, UNSET, 205, 1024 },
		{ "MT2", KV(5, 14), true, IN_GROUP, "20", NULL, MODEL_CLASS_FAIR, UNSET, UNSET, 205, 1024 },
		{ "MT2", KV(5, 14), true, IN_GROUP, "20", NULL, MODEL_CLASS_FAIR, 0, UNSET, 205, 1024 },
		{ "MT2", KV(5, 14), true, IN_GROUP, "20", NULL, MODEL_CLASS_FAIR, 500, UNSET, 500, 1024 },
		{ "MT2", KV(5, 14), true, IN_GROUP, "20", NULL, MODEL_CLASS_RT, UNSET, UNSET, 1024, 1024 },
		{ "MT2", KV(6, 1), true, IN_GROUP, NULL, "50", MODEL_CLASS_FAIR, 800, UNSET, 512, 512 },
		{ "MT2", KV(6, 1), true, IN_GROUP, NULL, "50", MODEL_CLASS_FAIR, UNSET, 800, 0, 512 },
		{ "MT2", KV(6, 1), true, IN_GROUP, NULL, NULL, MODEL_CLASS_FAIR, 800, UNSET, 800, 1024 },
		{ "MT2", KV(6, 1), true, IN_ROOT, "20", "50", MODEL_CLASS_FAIR, 800, UNSET, 800, 1024 },
		{ "MT2", KV(6, 1), true, IN_AUTO, NULL, NULL, MODEL_CLASS_FAIR, 800, UNSET, 800, 1024 },
		{ "MT2", KV(5, 13), true, IN_AUTO, NULL, NULL, MODEL_CLASS_FAIR, 800, UNSET, 800, 1024 },
		{ "MT2", KV(6, 1), false, IN_GROUP, NULL, NULL, MODEL_CLASS_FAIR, 800, 900, 800, 900 },
		{ "MT2", KV(5, 3), true, IN_GROUP, NULL, NULL, MODEL_CLASS_FAIR, 800, 900, 800, 900 },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct env e;
		unsigned long long flags = 0;
		int min, max;

		boot(&e, cases[i].kver, 5, cases[i].task_group);
		if (cases[i].tg_min)
			assert_int_equal(model_tg_write(&e.sys, &e.g[0], MIN_ID, cases[i].tg_min), 0);
		if (cases[i].tg_max)
			assert_int_equal(model_tg_write(&e.sys, &e.g[0], MAX_ID, cases[i].tg_max), 0);
		/* an autogroup's own values must be ignored: poison them */
		e.g[1].is_autogroup = true;
		e.g[1].eff[MIN_ID].value = 0;
		e.g[1].eff[MAX_ID].value = 100;
		model_task_init(&e.sys, &e.t[0], 100, cases[i].cls);
		if (cases[i].where != IN_ROOT)
			model_task_move_tg(&e.sys, &e.t[0],
					   &e.g[cases[i].where == IN_GROUP ? 0 : 1]);
		if (cases[i].req_min != UNSET)
			flags |= F_MIN;
		if (cases[i].req_max != UNSET)
			flags |= F_MAX;
		if (flags)
			assert_int_equal(set_clamp(&e, 0, flags, (unsigned int)cases[i].req_min,
						   (unsigned int)cases[i].req_max), 0);
		min = eff(&e, 0, MIN_ID);
		max = eff(&e, 0, MAX_ID);
		if (min != cases[i].want_min || max != cases[i].want_max)
			fail_msg("case %zu (%s, kver %#x): got %d/%d want %d/%d", i, cases[i].rule,
				 cases[i].kver, min, max, cases[i].want_min, cases[i].want_max);
	}
}

/* MT3: the back-annotated value while counted, else a fresh MT1. */
static void test_mt3_task_eff(void **state)
{
	struct env e;
	int slot;

	(void)state;
	boot(&e, KV(6, 1), 5, false);
	assert_int_equal(model_sysctl_write(&e.sys, MODEL_SYSCTL_UTIL_MIN, 0), 0);
	assert_int_equal(set_clamp(&e, 0, F_MAX, 0, 800), 0);
	model_enqueue(&e.sys, &e.t[0], 0);
	assert_int_equal(model_sysctl_write(&e.sys, MODEL_SYSCTL_UTIL_MAX, 300), 0);
	assert_int_equal(model_task_eff(&e.sys, &e.t[0], MAX_ID, &slot), 800);	/* active */
	assert_int_equal(slot, 3);
	model_dequeue(&e.sys, &e.t[0]);
	assert_int_equal(model_task_eff(&e.sys, &e.t[0], MAX_ID, &slot), 300);	/* fresh */
	assert_int_equal(slot, 1);
	assert_int_equal(model_task_eff(&e.sys, &e.t[0], (enum model_clamp_id)2, NULL), -EINVAL);
}

/* MT4: default requests: RT MIN follows the RT default, per era. */
static void test_mt4_rt_default(void **state)
{
	struct env e;
	unsigned int min, max;
	struct model_attr fifo = {
		.size = MODEL_SCHED_ATTR_SIZE_VER1, .flags = F_MAX, .policy = MODEL_SCHED_FIFO,
		.util_max = 1024,
	};

	(void)state;
	boot(&e, KV(5, 8), 5, true);
	model_task_init(&e.sys, &e.t[0], 100, MODEL_CLASS_RT);
	assert_int_equal(e.t[0].req[MIN_ID].value, 1024);			/* MT4 5.3-5.8 */
	assert_int_equal(model_sysctl_write(&e.sys, MODEL_SYSCTL_UTIL_MIN_RT_DEFAULT, 5),
			 -ENOENT);

	boot(&e, KV(6, 1), 5, true);
	model_task_init(&e.sys, &e.t[0], 100, MODEL_CLASS_RT);		/* not queued */
	assert_int_equal(set_clamp(&e, 1, F_MIN, 700, 0), 0);
	model_task_set_class(&e.sys, &e.t[1], MODEL_CLASS_RT);		/* user-defined */
	assert_int_equal(model_sysctl_write(&e.sys, MODEL_SYSCTL_UTIL_MIN_RT_DEFAULT, 300), 0);
	assert_int_equal(model_getattr(&e.sys, &e.t[0], &min, &max), 0);
	assert_int_equal(min, 300);					/* MT4: synced */
	assert_int_equal(model_getattr(&e.sys, &e.t[1], &min, &max), 0);
	assert_int_equal(min, 700);
	assert_int_equal(model_getattr(&e.sys, &e.t[2], &min, &max), 0);
	assert_int_equal(min, 0);						/* fair */
	model_task_set_class(&e.sys, &e.t[2], MODEL_CLASS_RT);
	assert_int_equal(e.t[2].req[MIN_ID].value, 300);			/* MT4 class change */
	model_task_set_class(&e.sys, &e.t[2], MODEL_CLASS_FAIR);
	assert_int_equal(e.t[2].req[MIN_ID].value, 0);
	/* MT4 5.11+: a setattr with clamp flags does not reset MIN on a class change */
	assert_int_equal(model_setattr(&e.sys, &e.t[3], &fifo), 0);
	assert_int_equal(e.t[3].cls, MODEL_CLASS_RT);
	assert_int_equal(model_getattr(&e.sys, &e.t[3], &min, &max), 0);
	assert_int_equal(min, 0);
	assert_int_equal(model_sysctl_write(&e.sys, MODEL_SYSCTL_UTIL_MIN_RT_DEFAULT, 400), 0);
	assert_int_equal(model_getattr(&e.sys, &e.t[3], &min, &max), 0);
	assert_int_equal(min, 400);					/* next sync fixes it */

	boot(&e, KV(5, 10), 5, true);
	assert_int_equal(model_sysctl_write(&e.sys, MODEL_SYSCTL_UTIL_MIN_RT_DEFAULT, 300), 0);
	assert_int_equal(model_setattr(&e.sys, &e.t[3], &fifo), 0);
	assert_int_equal(model_getattr(&e.sys, &e.t[3], &min, &max), 0);
	assert_int_equal(min, 300);					/* MT4 5.3-5.10 resets */
}

/* MT5: effective values of groups, subtree walk, new groups per era. */
static void test_mt5_groups(void **state)
{
	static const struct {
		const char *rule;
		unsigned int kver;
		int want_new_min;		/* a new group under P: eff min */
	} eras[] = { { "MT5", KV(5, 5), 512 }, { "MT5", KV(5, 6), 0 }, { "MT5", KV(6, 1), 0 } };

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(eras); i++) {
		struct env e;
		struct model_tg *p, *c, *n;

		boot(&e, eras[i].kver, 5, true);
		p = &e.g[0];
		c = &e.g[2];
		n = &e.g[3];
		assert_int_equal(model_tg_init(&e.sys, c, p), 0);
		assert_int_equal(model_tg_write(&e.sys, p, MIN_ID, "60"), 0);
		assert_int_equal(model_tg_write(&e.sys, p, MAX_ID, "50"), 0);
		assert_int_equal(model_tg_write(&e.sys, c, MIN_ID, "90"), 0);
		assert_int_equal(model_tg_write(&e.sys, c, MAX_ID, "80"), 0);
		if (p->eff[MIN_ID].value != 512 || p->eff[MAX_ID].value != 512 ||
		    c->eff[MIN_ID].value != 512 || c->eff[MAX_ID].value != 512)
			fail_msg("era %zu (%s): P %d/%d C %d/%d", i, eras[i].rule,
				 p->eff[MIN_ID].value, p->eff[MAX_ID].value,
				 c->eff[MIN_ID].value, c->eff[MAX_ID].value);
		assert_int_equal(p->req[MIN_ID].value, 614);
		assert_int_equal(model_tg_init(&e.sys, n, p), 0);
		if (n->eff[MIN_ID].value != eras[i].want_new_min || n->eff[MAX_ID].value != 512)
			fail_msg("era %zu (%s): new group %d/%d", i, eras[i].rule,
				 n->eff[MIN_ID].value, n->eff[MAX_ID].value);
	}
}

/* MT5/MR5: a parent's change re-accounts queued tasks of changed descendants only. */
static void test_mt5_reaccount(void **state)
{
	struct env e;

	(void)state;
	boot(&e, KV(6, 1), 5, true);
	assert_int_equal(model_tg_init(&e.sys, &e.g[2], &e.g[0]), 0);
	assert_int_equal(model_tg_write(&e.sys, &e.g[1], MAX_ID, "40"), 0);
	model_task_move_tg(&e.sys, &e.t[0], &e.g[2]);	/* child of g0 */
	model_task_move_tg(&e.sys, &e.t[1], &e.g[1]);	/* sibling */
	model_enqueue(&e.sys, &e.t[0], 0);
	model_enqueue(&e.sys, &e.t[1], 1);
	assert_int_equal(model_rq_value(&e.sys, 0, MAX_ID), 1024);
	assert_int_equal(model_tg_write(&e.sys, &e.g[0], MAX_ID, "30"), 0);
	assert_int_equal(model_rq_value(&e.sys, 0, MAX_ID), 307);	/* MR5 at once */
	assert_int_equal(e.t[0].acc_value[MAX_ID], 307);
	assert_int_equal(model_rq_value(&e.sys, 1, MAX_ID), 410);	/* untouched */
	assert_int_equal(model_tg_write(&e.sys, &e.g[0], MAX_ID, "30.00"), 0);	/* no change */
	assert_int_equal(e.g[2].eff[MAX_ID].value, 307);
}

/* ---- MA ---- */

static int attr_call(unsigned int kver, enum model_class cls, unsigned int size,
		     unsigned long long flags, int policy, unsigned int min, unsigned int max,
		     struct env *e)
{
	struct model_attr a = {
		.size = size, .flags = flags, .policy = policy, .util_min = min, .util_max = max,
	};

	boot(e, kver, 5, true);
	model_task_init(&e->sys, &e->t[0], 100, cls);
	return model_setattr(&e->sys, &e->t[0], &a);
}

/* MA1: sizes, flags, policies. */
static void test_ma1_flags(void **state)
{
	static const struct {
		const char *rule;
		unsigned int size;
		unsigned long long flags;
		int policy;
		enum model_class cls;
		int want;
		enum model_class want_cls;
	} cases[] = {
		{ "MA1", 56, F_MIN, -1, MODEL_CLASS_FAIR, 0, MODEL_CLASS_FAIR },
		{ "MA1", 48, F_MIN, -1, MODEL_CLASS_FAIR, -EINVAL, MODEL_CLASS_FAIR },
		{ "MA1", 0, F_MAX, -1, MODEL_CLASS_FAIR, -EINVAL, MODEL_CLASS_FAIR },
		{ "MA1", 0, 0, MODEL_SCHED_BATCH, MODEL_CLASS_FAIR, 0, MODEL_CLASS_FAIR },
		{ "MA1", 40, 0, MODEL_SCHED_NORMAL, MODEL_CLASS_FAIR, -E2BIG, MODEL_CLASS_FAIR },
		{ "MA1", 8192, 0, MODEL_SCHED_NORMAL, MODEL_CLASS_FAIR, -E2BIG, MODEL_CLASS_FAIR },
		{ "MA1", 56, 0x80, -1, MODEL_CLASS_FAIR, -EINVAL, MODEL_CLASS_FAIR },
		{ "MA1", 56, 0x10000000, -1, MODEL_CLASS_FAIR, -EINVAL, MODEL_CLASS_FAIR },
		{ "MA1", 56, 0, 4, MODEL_CLASS_FAIR, -EINVAL, MODEL_CLASS_FAIR },
		{ "MA1", 56, MODEL_ML_FLAG_KEEP_POLICY | F_MIN, 4, MODEL_CLASS_RT, 0, MODEL_CLASS_RT },
		{ "MA1", 56, F_MIN, MODEL_SCHED_FIFO, MODEL_CLASS_FAIR, 0, MODEL_CLASS_RT },
		{ "MA1", 56, MODEL_ML_FLAG_KEEP_PARAMS | F_MIN, MODEL_SCHED_FIFO, MODEL_CLASS_FAIR,
		  -EINVAL, MODEL_CLASS_FAIR },
		{ "MA1", 56, MODEL_ML_FLAG_KEEP_PARAMS | F_MIN, MODEL_SCHED_RR, MODEL_CLASS_RT,
		  0, MODEL_CLASS_RT },
		{ "MA1", 56, MODEL_ML_FLAG_KEEP_PARAMS | F_MIN, MODEL_SCHED_BATCH, MODEL_CLASS_DL,
		  0, MODEL_CLASS_DL },
		{ "MA1", 56, F_MIN | MODEL_FLAG_RESET_ON_FORK, MODEL_SCHED_DEADLINE, MODEL_CLASS_FAIR,
		  0, MODEL_CLASS_DL },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct env e;
		int got = attr_call(KV(6, 1), cases[i].cls, cases[i].size, cases[i].flags,
				    cases[i].policy, 10, 0, &e);

		if (got != cases[i].want || e.t[0].cls != cases[i].want_cls)
			fail_msg("case %zu (%s): got %d class %d want %d class %d", i,
				 cases[i].rule, got, e.t[0].cls, cases[i].want, cases[i].want_cls);
	}
}

/* MA1: a kernel built without CONFIG_UCLAMP_TASK. */
static void test_ma1_no_uclamp(void **state)
{
	struct env e;
	struct model_config cfg;
	unsigned int min = 1, max = 1;

	(void)state;
	memset(&e, 0, sizeof(e));
	model_config_default(&cfg, MODEL_MAINLINE, SMALL_CPUS);
	cfg.no_uclamp_task = true;
	assert_int_equal(model_init(&e.sys, &cfg, e.cpu), 0);
	model_task_init(&e.sys, &e.t[0], 100, MODEL_CLASS_RT);
	assert_int_equal(model_tg_init(&e.sys, &e.g[0], NULL), 0);
	assert_int_equal(set_clamp(&e, 0, F_MIN, 10, 0), -EOPNOTSUPP);
	assert_int_equal(set_clamp(&e, 0, 0, 0, 0), 0);
	assert_int_equal(model_getattr(&e.sys, &e.t[0], &min, &max), 0);
	assert_int_equal(min + max, 0);
	assert_int_equal(model_sysctl_write(&e.sys, MODEL_SYSCTL_UTIL_MAX, 10), -ENOENT);
	assert_int_equal(model_tg_write(&e.sys, &e.g[0], MIN_ID, "10"), -ENOENT);
	model_enqueue(&e.sys, &e.t[0], 0);
	assert_int_equal(bucket_tasks(&e, 0, MIN_ID), 0);
}

/* MA2: uclamp_validate() per era; MA3: no permission check (own task). */
static void test_ma2_validate(void **state)
{
	static const struct {
		const char *rule;
		unsigned int kver;
		enum model_class cls;
		unsigned long long flags;
		unsigned int min, max;
		int want;
	} cases[] = {
		{ "MA2", KV(5, 10), MODEL_CLASS_FAIR, F_MIN | F_MAX, 1024, 1024, 0 },
		{ "MA2", KV(5, 10), MODEL_CLASS_FAIR, F_MIN, 1025, 0, -EINVAL },
		{ "MA2", KV(5, 10), MODEL_CLASS_FAIR, F_MAX, 0, 1025, -EINVAL },
		{ "MA2", KV(5, 10), MODEL_CLASS_FAIR, F_MIN | F_MAX, 600, 500, -EINVAL },
		{ "MA2", KV(5, 10), MODEL_CLASS_FAIR, F_MIN, RESET, 0, -EINVAL },
		{ "MA2", KV(5, 10), MODEL_CLASS_FAIR, F_MAX, 0, RESET, -EINVAL },
		{ "MA2", KV(5, 10), MODEL_CLASS_FAIR, F_MAX, 0, 512, 0 },
		{ "MA2", KV(5, 10), MODEL_CLASS_RT, F_MAX, 0, 512, -EINVAL },
		{ "MA2", KV(5, 3), MODEL_CLASS_FAIR, F_MIN, 1024, 0, 0 },
		{ "MA2", KV(6, 1), MODEL_CLASS_FAIR, F_MIN, 1025, 0, -EINVAL },
		{ "MA2", KV(6, 1), MODEL_CLASS_FAIR, F_MAX, 0, 1025, -EINVAL },
		{ "MA2", KV(6, 1), MODEL_CLASS_FAIR, F_MIN | F_MAX, 600, 500, -EINVAL },
		{ "MA2", KV(6, 1), MODEL_CLASS_FAIR, F_MIN | F_MAX, 500, 500, 0 },
		{ "MA2", KV(6, 1), MODEL_CLASS_FAIR, F_MIN, RESET, 0, 0 },
		{ "MA2", KV(6, 1), MODEL_CLASS_FAIR, F_MIN | F_MAX, RESET, 0, 0 },
		{ "MA2", KV(6, 1), MODEL_CLASS_FAIR, F_MIN | F_MAX, 900, RESET, 0 },
		{ "MA2", KV(6, 1), MODEL_CLASS_RT, F_MAX, 0, 512, -EINVAL },
		{ "MA2", KV(6, 1), MODEL_CLASS_RT, F_MIN | F_MAX, 100, 512, 0 },
		/* kernel quirk: "int v + 1 > 1025" lets values from 0x7fffffff up pass */
		{ "MA2", KV(6, 1), MODEL_CLASS_FAIR, F_MIN, 0x80000000u, 0, 0 },
		{ "MA2", KV(6, 1), MODEL_CLASS_FAIR, F_MAX, 0, 0x7fffffffu, 0 },
		{ "MA2", KV(6, 1), MODEL_CLASS_FAIR, F_MIN, 0x7ffffffeu, 0, -EINVAL },
		{ "MA3", KV(6, 1), MODEL_CLASS_RT, F_MIN, 0, 0, 0 },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct env e;
		int got = attr_call(cases[i].kver, cases[i].cls, MODEL_SCHED_ATTR_SIZE_VER1,
				    cases[i].flags | F_KEEP, -1, cases[i].min, cases[i].max, &e);

		if (got != cases[i].want)
			fail_msg("case %zu (%s, kver %#x): got %d want %d", i, cases[i].rule,
				 cases[i].kver, got, cases[i].want);
	}
}

/* MA4: what a successful call stores; MA6: getattr reports it. */
static void test_ma4_ma6_apply(void **state)
{
	static const struct {
		const char *rule;
		unsigned int kver;
		enum model_class cls;
		unsigned long long f1;
		unsigned int min1, max1;
		unsigned long long f2;		/* second call, 0: none */
		unsigned int min2, max2;
		unsigned int want_min, want_max;
		bool want_ud_min, want_ud_max;
	} cases[] = {
		{ "MA4", KV(6, 1), MODEL_CLASS_FAIR, F_MIN, 300, 0, F_MIN, RESET, 0, 0, 1024, false, false },
		{ "MA4", KV(6, 1), MODEL_CLASS_RT, F_MIN, 300, 0, F_MIN, RESET, 0, 1024, 1024, false, false },
		{ "MA4", KV(6, 1), MODEL_CLASS_FAIR, F_MIN | F_MAX, 300, 800, F_MAX, 0, RESET, 300, 1024, true, false },
		{ "MA4", KV(6, 1), MODEL_CLASS_FAIR, F_MAX, 0, 800, 0, 0, 0, 0, 800, false, true },
		{ "MA4", KV(5, 10), MODEL_CLASS_FAIR, F_MIN, 300, 0, F_MAX, 0, 800, 300, 800, true, true },
		{ "MA4", KV(5, 10), MODEL_CLASS_RT, F_MIN, 200, 0, F_MAX, 0, 900, 200, 900, true, true },
		/* 5.11+ quirk: 0x80000000 stored in 11 bits = 0, but user-defined */
		{ "MA4", KV(6, 1), MODEL_CLASS_FAIR, F_MIN, 0x80000000u, 0, 0, 0, 0, 0, 1024, true, false },
		{ "MA4", KV(6, 1), MODEL_CLASS_FAIR, F_MIN, 0xfffffffeu, 0, 0, 0, 0, 2046, 1024, true, false },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct env e;
		unsigned int min = 0, max = 0;
		int ret = attr_call(cases[i].kver, cases[i].cls, MODEL_SCHED_ATTR_SIZE_VER1,
				    cases[i].f1 | F_KEEP, -1, cases[i].min1, cases[i].max1, &e);

		if (!ret && cases[i].f2)
			ret = set_clamp(&e, 0, cases[i].f2, cases[i].min2, cases[i].max2);
		if (!ret)
			ret = model_getattr(&e.sys, &e.t[0], &min, &max);
		if (ret || min != cases[i].want_min || max != cases[i].want_max ||
		    e.t[0].req[MIN_ID].user_defined != cases[i].want_ud_min ||
		    e.t[0].req[MAX_ID].user_defined != cases[i].want_ud_max)
			fail_msg("case %zu (%s): ret %d got %u/%u ud %d/%d", i, cases[i].rule, ret,
				 min, max, e.t[0].req[MIN_ID].user_defined,
				 e.t[0].req[MAX_ID].user_defined);
	}
	/* MA4 quirk: 0xfffffffe passes validation, is stored as 2046, capped to 1024 */
	{
		struct env e;
		unsigned int min, max;

		assert_int_equal(attr_call(KV(6, 1), MODEL_CLASS_FAIR, 56, F_MIN | F_KEEP, -1,
					   0xfffffffeu, 0, &e), 0);
		assert_int_equal(eff(&e, 0, MIN_ID), 1024);
		/* MA6: getattr shows the request; the effective value is capped by a group */
		model_task_move_tg(&e.sys, &e.t[1], &e.g[0]);
		assert_int_equal(model_tg_write(&e.sys, &e.g[0], MAX_ID, "50"), 0);
		assert_int_equal(model_getattr(&e.sys, &e.t[1], &min, &max), 0);
		assert_int_equal(max, 1024);
		assert_int_equal(eff(&e, 1, MAX_ID), 512);
	}
}

/*
 * Requests equal field by field: memcmp() would compare the padding a
 * struct assignment need not copy (valgrind: a jump on uninitialised bytes).
 */
static bool se_same(const struct model_se *a, const struct model_se *b)
{
	for (unsigned int id = 0; id < MODEL_UCLAMP_CNT; id++)
		if (a[id].value != b[id].value || a[id].slot != b[id].slot ||
		    a[id].user_defined != b[id].user_defined)
			return false;
	return true;
}

/* MA5: a refused call changes nothing, neither requests nor the rq. */
static void test_ma5_atomic(void **state)
{
	static const struct {
		const char *rule;
		unsigned int size;
		unsigned long long flags;
		int policy;
		unsigned int min, max;
		int want;
	} cases[] = {
		{ "MA5", 56, F_MIN | F_MAX, MODEL_SCHED_FIFO, 600, 500, -EINVAL },
		{ "MA5", 40, F_MIN, MODEL_SCHED_FIFO, 100, 0, -E2BIG },
		{ "MA5", 56, F_MIN | 0x80, MODEL_SCHED_FIFO, 100, 0, -EINVAL },
		{ "MA5", 56, F_MIN | MODEL_FLAG_RESET_ON_FORK, 9, 100, 0, -EINVAL },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct env e;
		struct model_attr a = {
			.size = cases[i].size, .flags = cases[i].flags, .policy = cases[i].policy,
			.util_min = cases[i].min, .util_max = cases[i].max,
		};
		struct model_task before;
		int got;

		boot(&e, KV(6, 1), 5, true);
		assert_int_equal(set_clamp(&e, 0, F_MIN | F_MAX, 200, 700), 0);
		model_enqueue(&e.sys, &e.t[0], 0);
		before = e.t[0];
		got = model_setattr(&e.sys, &e.t[0], &a);
		if (got != cases[i].want || !se_same(before.req, e.t[0].req) ||
		    e.t[0].cls != MODEL_CLASS_FAIR || e.t[0].reset_on_fork ||
		    model_rq_value(&e.sys, 0, MIN_ID) != 200 ||
		    model_rq_value(&e.sys, 0, MAX_ID) != 700)
			fail_msg("case %zu (%s): got %d, state changed", i, cases[i].rule, got);
	}
}

/* MA7: fork per era. */
static void test_ma7_fork(void **state)
{
	static const struct {
		const char *rule;
		unsigned int kver;
		enum model_class cls;
		int req_min;			/* parent request, UNSET: none */
		unsigned int pmax;		/* parent max request */
		bool reset_on_fork;
		unsigned int rt_sysctl;		/* written before the fork when != 1024 */
		enum model_class want_cls;
		unsigned int want_min, want_max;
		bool want_ud;
	} cases[] = {
		{ "MA7", KV(6, 1), MODEL_CLASS_FAIR, 300, 700, false, 1024, MODEL_CLASS_FAIR, 300, 700, true },
		{ "MA7", KV(6, 1), MODEL_CLASS_FAIR, 300, 700, true, 1024, MODEL_CLASS_FAIR, 0, 1024, false },
		{ "MA7", KV(6, 1), MODEL_CLASS_RT, 300, 700, true, 1024, MODEL_CLASS_FAIR, 0, 1024, false },
		{ "MA7", KV(6, 1), MODEL_CLASS_RT, UNSET, 1024, false, 200, MODEL_CLASS_RT, 200, 1024, false },
		{ "MA7", KV(6, 1), MODEL_CLASS_RT, 300, 700, false, 200, MODEL_CLASS_RT, 300, 700, true },
		{ "MA7", KV(5, 8), MODEL_CLASS_RT, UNSET, 1024, false, 1024, MODEL_CLASS_RT, 1024, 1024, false },
		{ "MA7", KV(5, 8), MODEL_CLASS_FAIR, 300, 700, false, 1024, MODEL_CLASS_FAIR, 300, 700, true },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct env e;
		struct model_task child;
		unsigned int min, max;

		boot(&e, cases[i].kver, 5, true);
		model_task_init(&e.sys, &e.t[0], 100, cases[i].cls);
		if (cases[i].req_min != UNSET)
			assert_int_equal(set_clamp(&e, 0, F_MIN, (unsigned int)cases[i].req_min, 0), 0);
		assert_int_equal(set_clamp(&e, 0, F_MAX, 0, cases[i].pmax), 0);
		e.t[0].reset_on_fork = cases[i].reset_on_fork;
		model_task_move_tg(&e.sys, &e.t[0], &e.g[0]);
		if (cases[i].rt_sysctl != 1024)
			assert_int_equal(model_sysctl_write(&e.sys, MODEL_SYSCTL_UTIL_MIN_RT_DEFAULT,
							    cases[i].rt_sysctl), 0);
		model_enqueue(&e.sys, &e.t[0], 0);
		model_task_fork(&e.sys, &e.t[0], &child, 200);
		assert_int_equal(model_getattr(&e.sys, &child, &min, &max), 0);
		if (child.cls != cases[i].want_cls || min != cases[i].want_min ||
		    max != cases[i].want_max || child.req[MIN_ID].user_defined != cases[i].want_ud ||
		    child.reset_on_fork || child.tg != &e.g[0] || child.cpu != -1 ||
		    child.acc_slot[MIN_ID] != MODEL_NV)
			fail_msg("case %zu (%s): class %d got %u/%u ud %d", i, cases[i].rule,
				 child.cls, min, max, child.req[MIN_ID].user_defined);
	}
}

/* MA8: sysctl writes per era; a refused write restores all three. */
static void test_ma8_sysctl(void **state)
{
	static const struct {
		const char *rule;
		unsigned int kver;
		enum model_sysctl which;
		long long value;
		int want;
	} cases[] = {
		{ "MA8", KV(6, 1), MODEL_SYSCTL_UTIL_MIN, 512, 0 },
		{ "MA8", KV(6, 1), MODEL_SYSCTL_UTIL_MAX, 1024, 0 },
		{ "MA8", KV(6, 1), MODEL_SYSCTL_UTIL_MAX, 1025, -EINVAL },
		{ "MA8", KV(6, 1), MODEL_SYSCTL_UTIL_MIN, 1025, -EINVAL },
		{ "MA8", KV(6, 1), MODEL_SYSCTL_UTIL_MIN, -1, -EINVAL },
		{ "MA8", KV(6, 1), MODEL_SYSCTL_UTIL_MAX, -1, -EINVAL },
		{ "MA8", KV(6, 1), MODEL_SYSCTL_UTIL_MAX, 1LL << 32, -EINVAL },
		{ "MA8", KV(6, 1), MODEL_SYSCTL_UTIL_MIN_RT_DEFAULT, 0, 0 },
		{ "MA8", KV(6, 1), MODEL_SYSCTL_UTIL_MIN_RT_DEFAULT, 1025, -EINVAL },
		{ "MA8", KV(6, 1), MODEL_SYSCTL_UTIL_MIN_RT_DEFAULT, -5, -EINVAL },
		{ "MA8", KV(5, 9), MODEL_SYSCTL_UTIL_MIN_RT_DEFAULT, 100, 0 },
		{ "MA8", KV(5, 8), MODEL_SYSCTL_UTIL_MIN_RT_DEFAULT, 100, -ENOENT },
		{ "MA8", KV(5, 3), MODEL_SYSCTL_UTIL_MAX, 700, 0 },
		{ "MA8", KV(6, 1), MODEL_SYSCTL_UTIL_MAX, 599, -EINVAL },	/* below the min */
		{ "MA8", KV(5, 3), MODEL_SYSCTL_UTIL_MAX, 2000, -EINVAL },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct env e;
		unsigned int before[MODEL_SYSCTL_CNT];
		int got;

		boot(&e, cases[i].kver, 5, true);
		/* min 600 first, so that a max below it fails too */
		assert_int_equal(model_sysctl_write(&e.sys, MODEL_SYSCTL_UTIL_MIN, 600), 0);
		memcpy(before, e.sys.sysctl, sizeof(before));
		got = model_sysctl_write(&e.sys, cases[i].which, cases[i].value);
		if (got != cases[i].want)
			fail_msg("case %zu (%s): got %d want %d", i, cases[i].rule, got,
				 cases[i].want);
		if (got && memcmp(before, e.sys.sysctl, sizeof(before)))
			fail_msg("case %zu (%s): not restored", i, cases[i].rule);
		if (!got && (e.sys.sysctl[cases[i].which] != (unsigned int)cases[i].value ||
			     (cases[i].which != MODEL_SYSCTL_UTIL_MIN_RT_DEFAULT &&
			      e.sys.dflt[cases[i].which].value != (int)cases[i].value)))
			fail_msg("case %zu (%s): value not stored", i, cases[i].rule);
	}
	{
		struct env e;

		boot(&e, KV(6, 1), 5, true);
		assert_int_equal(model_sysctl_write(&e.sys, MODEL_SYSCTL_UTIL_MIN, 0), 0);
		assert_int_equal(model_sysctl_write(&e.sys, MODEL_SYSCTL_UTIL_MAX, 400), 0);
		assert_int_equal(model_sysctl_write(&e.sys, MODEL_SYSCTL_UTIL_MIN, 500), -EINVAL);
		assert_int_equal(e.sys.root_tg.req[MAX_ID].value, 400);	/* MA8 root follows */
		assert_int_equal(e.sys.root_tg.eff[MAX_ID].value, 400);
		assert_int_equal(e.sys.root_tg.req[MIN_ID].value, 0);
		assert_int_equal(e.sys.dflt[MAX_ID].value, 400);
	}
}

/* MA9: which cgroup files exist. */
static void test_ma9_files(void **state)
{
	static const struct {
		const char *rule;
		unsigned int kver;
		bool task_group, effective, root;
		int want;
		const char *text;
	} cases[] = {
		{ "MA9", KV(6, 1), true, false, false, 4, "0.00" },
		{ "MA9", KV(6, 1), true, true, false, -ENOENT, NULL },
		{ "MA9", KV(6, 1), true, false, true, -ENOENT, NULL },
		{ "MA9", KV(6, 1), false, false, false, -ENOENT, NULL },
		{ "MA9", KV(5, 3), true, false, false, -ENOENT, NULL },
		{ "MA9", KV(5, 4), true, false, false, 4, "0.00" },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct env e;
		char buf[TEXT_LEN] = "";
		int got;

		boot(&e, cases[i].kver, 5, cases[i].task_group);
		got = model_tg_read(&e.sys, cases[i].root ? &e.sys.root_tg : &e.g[0], MIN_ID,
				    cases[i].effective, buf, sizeof(buf));
		if (got != cases[i].want || (cases[i].text && strcmp(buf, cases[i].text)))
			fail_msg("case %zu (%s): got %d '%s'", i, cases[i].rule, got, buf);
	}
	{
		struct env e;
		char buf[TEXT_LEN];

		boot(&e, KV(6, 1), 5, true);
		assert_int_equal(model_tg_read(&e.sys, &e.g[0], MAX_ID, false, buf, sizeof(buf)), 3);
		assert_string_equal(buf, "max");				/* MA9 default */
		assert_int_equal(model_tg_write(&e.sys, &e.sys.root_tg, MAX_ID, "50"), -EINVAL);
		e.g[1].is_autogroup = true;
		assert_int_equal(model_tg_write(&e.sys, &e.g[1], MAX_ID, "50"), -ENOENT);
		boot(&e, KV(5, 3), 5, true);
		assert_int_equal(model_tg_write(&e.sys, &e.g[0], MAX_ID, "50"), -ENOENT);
	}
}

/* MA10: parsing a cgroup write, per era. */
static void test_ma10_parse(void **state)
{
	static const struct {
		const char *rule;
		unsigned int kver;
		const char *in;
		int want;
		unsigned int pct100, util;
	} cases[] = {
		{ "MA10", KV(6, 1), "max", 0, 10000, 1024 },
		{ "MA10", KV(6, 1), " max\n", 0, 10000, 1024 },
		{ "MA10", KV(6, 1), "50", 0, 5000, 512 },
		{ "MA10", KV(6, 1), "50\n", 0, 5000, 512 },
		{ "MA10", KV(6, 1), "33.33", 0, 3333, 341 },
		{ "MA10", KV(6, 1), "99.95", 0, 9995, 1023 },
		{ "MA10", KV(6, 1), "99.99", 0, 9999, 1024 },
		{ "MA10", KV(6, 1), "100", 0, 10000, 1024 },
		{ "MA10", KV(6, 1), "100.00", 0, 10000, 1024 },
		{ "MA10", KV(6, 1), "0", 0, 0, 0 },
		{ "MA10", KV(6, 1), "0.01", 0, 1, 0 },
		{ "MA10", KV(6, 1), "0.1", 0, 10, 1 },
		{ "MA10", KV(6, 1), "20.5", 0, 2050, 210 },
		{ "MA10", KV(6, 1), "12.345", 0, 1235, 126 },	/* extra digits rounded */
		{ "MA10", KV(6, 1), "12.344", 0, 1234, 126 },
		{ "MA10", KV(6, 1), "99.995", 0, 10000, 1024 },
		{ "MA10", KV(6, 1), "5.", 0, 500, 51 },
		{ "MA10", KV(6, 1), "50abc", 0, 5000, 512 },	/* trailing junk ignored */
		{ "MA10", KV(6, 1), "50. 5", 0, 5005, 513 },	/* sscanf skips the blank */
		{ "MA10", KV(6, 1), "-0.5", 0, 50, 5 },		/* -0 is 0 */
		{ "MA10", KV(6, 1), "100.01", -ERANGE, 0, 0 },
		{ "MA10", KV(6, 1), "101", -ERANGE, 0, 0 },
		{ "MA10", KV(6, 1), "-5", -ERANGE, 0, 0 },
		{ "MA10", KV(5, 6), "-1.5", -ERANGE, 0, 0 },
		{ "MA10", KV(6, 1), "50.-5", -EINVAL, 0, 0 },
		{ "MA10", KV(6, 1), "abc", -EINVAL, 0, 0 },
		{ "MA10", KV(6, 1), "", -EINVAL, 0, 0 },
		{ "MA10", KV(6, 1), "  \n", -EINVAL, 0, 0 },
		{ "MA10", KV(6, 1), ".5", -EINVAL, 0, 0 },
		{ "MA10", KV(6, 1), "MAX", -EINVAL, 0, 0 },
		{ "MA10", KV(6, 1), "+5", -EINVAL, 0, 0 },
		/* before 5.6 a negative percent is accepted, with the kernel's u64 wrap */
		{ "MA10", KV(5, 5), "-5", 0, 4294966796u, 3133608088u },
		{ "MA10", KV(5, 4), "-1.5", 0, 4294967246u, 3133608134u },	/* -1 + .5 */
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		unsigned int pct = 0, util = 0;
		int got = model_mainline_cgroup_parse(cases[i].kver, cases[i].in, &pct, &util);

		if (got != cases[i].want ||
		    (!got && (pct != cases[i].pct100 || util != cases[i].util)))
			fail_msg("case %zu (%s) '%s': got %d %u %u want %d %u %u", i, cases[i].rule,
				 cases[i].in, got, pct, util, cases[i].want, cases[i].pct100,
				 cases[i].util);
	}
	assert_int_equal(model_mainline_cgroup_parse(KV(6, 1), NULL, NULL, NULL), -EINVAL);
}

/* MA11: reads, directly and after a write. */
/*
 * model_tg_text(): what a user writes for a value, per variant (VA10: the
 * value itself; MA10/MA11: a percent with two decimals, "max" at 1024), and
 * writing it back gives the value (mainline: up to MA10's rounding).
 */
static void test_tg_text(void **state)
{
	static const struct {
		enum model_variant variant;
		unsigned int value;
		size_t len;
		const char *text;
		int want;
	} rows[] = {
		{ MODEL_V3, 0, 8, "0", 1 },
		{ MODEL_V3, 512, 8, "512", 3 },
		{ MODEL_V3, 1024, 8, "1024", 4 },
		{ MODEL_V3, 2000, 8, "1024", 4 },
		{ MODEL_V3, 1024, 4, NULL, -ENOSPC },
		{ MODEL_MAINLINE, 0, 8, "0.00", 4 },
		{ MODEL_MAINLINE, 512, 8, "50.00", 5 },
		{ MODEL_MAINLINE, 341, 8, "33.30", 5 },
		{ MODEL_MAINLINE, 1023, 8, "99.90", 5 },
		{ MODEL_MAINLINE, 1024, 8, "max", 3 },
		{ MODEL_MAINLINE, 512, 5, NULL, -ENOSPC },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		char buf[16] = "";
		int got = model_tg_text(rows[i].variant, rows[i].value, buf, rows[i].len);

		if (got != rows[i].want || (rows[i].text && strcmp(buf, rows[i].text)))
			fail_msg("row %zu: got %d '%s'", i, got, buf);
	}
	assert_int_equal(model_tg_text(MODEL_V3, 1, NULL, 8), -EINVAL);
}

static void test_ma11_format(void **state)
{
	static const struct {
		const char *rule;
		unsigned int util, pct100;
		size_t len;
		int want;
		const char *text;
	} cases[] = {
		{ "MA11", 512, 5000, TEXT_LEN, 5, "50.00" },
		{ "MA11", 341, 3333, TEXT_LEN, 5, "33.33" },
		{ "MA11", 1023, 9995, TEXT_LEN, 5, "99.95" },
		{ "MA11", 1024, 9999, TEXT_LEN, 3, "max" },
		{ "MA11", 0, 0, TEXT_LEN, 4, "0.00" },
		{ "MA11", 0, 5, TEXT_LEN, 4, "0.05" },
		{ "MA11", 210, 2050, TEXT_LEN, 5, "20.50" },
		{ "MA11", 152, 4294966796u, TEXT_LEN, 11, "42949667.96" },
		{ "MA11", 512, 5000, 6, 5, "50.00" },
		{ "MA11", 512, 5000, 5, -ENOSPC, NULL },
		{ "MA11", 1024, 0, 3, -ENOSPC, NULL },
	};
	static const struct {
		const char *rule, *in, *out;
		int util;
	} round[] = {
		{ "MA11", "50", "50.00", 512 }, { "MA11", "33.33", "33.33", 341 },
		{ "MA11", "99.95", "99.95", 1023 }, { "MA11", "99.99", "max", 1024 },
		{ "MA11", "20.5", "20.50", 210 }, { "MA11", "max", "max", 1024 },
		{ "MA11", "0", "0.00", 0 },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char buf[TEXT_LEN] = "";
		int got = model_mainline_cgroup_format(cases[i].util, cases[i].pct100, buf,
						       cases[i].len);

		if (got != cases[i].want || (cases[i].text && strcmp(buf, cases[i].text)))
			fail_msg("case %zu (%s): got %d '%s'", i, cases[i].rule, got, buf);
	}
	for (size_t i = 0; i < ARRAY_SIZE(round); i++) {
		struct env e;
		char buf[TEXT_LEN] = "";

		boot(&e, KV(6, 1), 5, true);
		assert_int_equal(model_tg_write(&e.sys, &e.g[0], MIN_ID, round[i].in), 0);
		model_tg_read(&e.sys, &e.g[0], MIN_ID, false, buf, sizeof(buf));
		if (strcmp(buf, round[i].out) || e.g[0].req[MIN_ID].value != round[i].util)
			fail_msg("round %zu (%s) '%s': read '%s' util %d", i, round[i].rule,
				 round[i].in, buf, e.g[0].req[MIN_ID].value);
	}
}

/* MS1 (model.c): the key off returns util unchanged from 5.9. */
static void test_ms1_key_off(void **state)
{
	static const struct {
		const char *rule;
		unsigned int kver;
		unsigned int want;
	} cases[] = { { "MS1", KV(5, 8), 0 }, { "MS1", KV(5, 9), 700 }, { "MS1", KV(6, 1), 700 } };

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct env e;
		unsigned int got;

		boot(&e, cases[i].kver, 5, true);
		/* rq MIN 0, MAX 0: an inversion, so a clamping kernel returns the min */
		e.sys.cpu[0].value[MAX_ID] = 0;
		got = model_rq_clamp_util(&e.sys, 0, 700);
		if (got != cases[i].want)
			fail_msg("case %zu (%s): got %u want %u", i, cases[i].rule, got,
				 cases[i].want);
	}
}

/* ---- property test ---- */

#define P_CPUS		8
#define P_TASKS		300
#define P_GROUPS	7		/* A, B, A1, A2, B1, C, autogroup */
#define P_STEPS		500000		/* per exact configuration (two of them) */
#define P_STEPS_OLD	50000		/* per older era: bucket counts only */
#define P_SEED		0x9e3779b97f4a7c15ull

struct snap {
	int cpu;
	int slot[MODEL_UCLAMP_CNT], value[MODEL_UCLAMP_CNT];
};

struct shadow {
	unsigned int tasks[MODEL_UCLAMP_CNT][MODEL_MAX_SLOTS];
	int value[MODEL_UCLAMP_CNT][MODEL_MAX_SLOTS];
	int departing;			/* MAX retained when the rq empties (MR4) */
};

struct prop {
	struct model_sys sys;
	struct model_cpu cpu[P_CPUS];
	struct model_task t[P_TASKS];
	struct model_tg g[P_GROUPS];
	struct snap old[P_TASKS];
	int old_eff[P_GROUPS + 1][MODEL_UCLAMP_CNT];
	struct shadow sh[P_CPUS];
	uint64_t rng;
	unsigned int buckets;
	bool is_exact;			/* 5.17+: rq values checked, not only counts */
	int bucket_of[MODEL_SCALE + 1];	/* MB1 for every value, computed once */
	unsigned long step;
	const char *op;			/* the step's operation, for failure messages */
};

static uint64_t rnd(struct prop *p)
{
	/* xorshift64* */
	p->rng ^= p->rng >> 12;
	p->rng ^= p->rng << 25;
	p->rng ^= p->rng >> 27;
	return p->rng * 0x2545f4914f6cdd1dull;
}

static unsigned int below(struct prop *p, unsigned int n)
{
	return (unsigned int)(rnd(p) % n);
}

static struct model_tg *group(struct prop *p, int i)
{
	return i == P_GROUPS ? &p->sys.root_tg : &p->g[i];
}

static void sh_inc(struct shadow *s, int id, int slot, int value)
{
	if (++s->tasks[id][slot] == 1 || value > s->value[id][slot])
		s->value[id][slot] = value;
}

static void sh_dec(struct prop *p, struct shadow *s, int id, int slot, int value)
{
	assert_true(s->tasks[id][slot] > 0);
	s->tasks[id][slot]--;
	if (id != MAX_ID)
		return;
	for (unsigned int b = 0; b < p->buckets; b++)
		if (s->tasks[id][b])
			return;
	s->departing = value;
}

static void take_snaps(struct prop *p)
{
	for (int i = 0; i < P_TASKS; i++) {
		p->old[i].cpu = p->t[i].cpu;
		for (int id = 0; id < MODEL_UCLAMP_CNT; id++) {
			p->old[i].slot[id] = p->t[i].acc_slot[id];
			p->old[i].value[id] = p->t[i].acc_value[id];
		}
	}
	for (int g = 0; g <= P_GROUPS; g++)
		for (int id = 0; id < MODEL_UCLAMP_CNT; id++)
			p->old_eff[g][id] = group(p, g)->eff[id].value;
}

/* MT1/MT2 (5.14+) written again: the value a task must be counted with. */
static int expect_eff(struct prop *p, struct model_task *t, int id)
{
	unsigned int req[MODEL_UCLAMP_CNT];
	int v;

	assert_int_equal(model_getattr(&p->sys, t, &req[0], &req[1]), 0);
	v = (int)req[id];
	if (t->tg != &p->sys.root_tg && !t->tg->is_autogroup) {
		if (v < t->tg->eff[MIN_ID].value)
			v = t->tg->eff[MIN_ID].value;
		if (v > t->tg->eff[MAX_ID].value)
			v = t->tg->eff[MAX_ID].value;
	}
	return v > p->sys.dflt[id].value ? p->sys.dflt[id].value : v;
}

/* Replay one task's uncount (old snapshot) and count (now) for the given ids. */
static void replay_task(struct prop *p, int i, unsigned int ids)
{
	struct model_task *t = &p->t[i];
	const struct snap *o = &p->old[i];

	for (int id = 0; id < MODEL_UCLAMP_CNT; id++) {
		if (!(ids & (1u << id)))
			continue;
		if (o->cpu >= 0 && o->slot[id] != MODEL_NV)
			sh_dec(p, &p->sh[o->cpu], id, o->slot[id], o->value[id]);
		if (t->cpu >= 0 && t->acc_slot[id] != MODEL_NV) {
			sh_inc(&p->sh[t->cpu], id, t->acc_slot[id], t->acc_value[id]);
			if (p->is_exact && t->acc_value[id] != expect_eff(p, t, id))
				fail_msg("step %lu (%s) task %d (MT1/MT2): counted %d want %d", p->step,
					 p->op, i, t->acc_value[id], expect_eff(p, t, id));
		}
	}
}

/* MT5/MR5: re-accounting after a group or default change, in the model's order. */
static void replay_groups(struct prop *p, struct model_tg *tg)
{
	for (; tg; tg = tg->sibling) {
		int gi = tg == &p->sys.root_tg ? P_GROUPS : (int)(tg - p->g);

		if (tg->is_autogroup)
			continue;
		if (tg->eff[MIN_ID].value == p->old_eff[gi][MIN_ID] &&
		    tg->eff[MAX_ID].value == p->old_eff[gi][MAX_ID]) {
			replay_groups(p, tg->child);	/* the written group may be below */
			continue;
		}
		for (int c = 0; c < P_CPUS; c++) {
			struct model_node *pos;

			model_list_for_each(pos, &p->sys.cpu[c].queued) {
				struct model_task *t = model_container_of(pos, struct model_task,
									  rq_node);
				const struct model_tg *css = t->tg->is_autogroup ?
							     &p->sys.root_tg : t->tg;

				if (css == tg && p->old[t - p->t].slot[MIN_ID] != MODEL_NV)
					replay_task(p, (int)(t - p->t), BOTH_IDS);
			}
		}
		replay_groups(p, tg->child);
	}
}

/* MT5 written again: every group's effective values from the requests. */
static void check_groups(struct prop *p, const struct model_tg *tg, const struct model_tg *parent)
{
	for (; tg; tg = tg->sibling) {
		int e[MODEL_UCLAMP_CNT];

		if (tg->is_autogroup)
			continue;
		for (int id = 0; id < MODEL_UCLAMP_CNT; id++) {
			e[id] = tg->req[id].value;
			if (parent && e[id] > parent->eff[id].value)
				e[id] = parent->eff[id].value;
		}
		if (e[MIN_ID] > e[MAX_ID])
			e[MIN_ID] = e[MAX_ID];
		if (tg->eff[MIN_ID].value != e[MIN_ID] || tg->eff[MAX_ID].value != e[MAX_ID])
			fail_msg("step %lu (%s) (MT5): group eff %d/%d want %d/%d", p->step, p->op,
				 tg->eff[MIN_ID].value, tg->eff[MAX_ID].value, e[MIN_ID], e[MAX_ID]);
		check_groups(p, tg->child, tg);
	}
}

/*
 * Every CPU: brute-force counts, shadow values, rq values, IDLE. Values up
 * to 1024 reach buckets 0..B (B only before 5.13); the drain checks all.
 */
static void check_cpus(struct prop *p)
{
	int nslots = (int)p->buckets + 1;

	for (int c = 0; c < P_CPUS; c++) {
		const struct model_cpu *rq = &p->sys.cpu[c];
		const struct shadow *s = &p->sh[c];
		unsigned int cnt[MODEL_UCLAMP_CNT][MODEL_MAX_SLOTS] = { { 0 } };
		int top[MODEL_UCLAMP_CNT] = { -1, -1 };
		struct model_node *pos;
		bool any = false;

		model_list_for_each(pos, &rq->queued) {
			const struct model_task *t = model_container_of(pos, struct model_task,
									rq_node);

			for (int id = 0; id < MODEL_UCLAMP_CNT; id++) {
				int slot = t->acc_slot[id];

				if (slot == MODEL_NV)
					continue;
				if (slot >= nslots)
					fail_msg("step %lu (%s) cpu %d (MB1): slot %d", p->step, p->op, c, slot);
				cnt[id][slot]++;
				if (t->acc_value[id] > top[id])
					top[id] = t->acc_value[id];
				if (p->is_exact && slot != p->bucket_of[t->acc_value[id]])
					fail_msg("step %lu (%s) cpu %d (MB1): slot %d of value %d", p->step, p->op,
						 c, slot, t->acc_value[id]);
			}
		}
		for (int id = 0; id < MODEL_UCLAMP_CNT; id++) {
			int want = -1;

			for (int b = 0; b < nslots; b++) {
				if (rq->bucket[id][b].tasks != cnt[id][b] || s->tasks[id][b] != cnt[id][b])
					fail_msg("step %lu (%s) cpu %d id %d bucket %d (MR3/MR4): tasks %u shadow %u queued %u",
						 p->step, p->op, c, id, b, rq->bucket[id][b].tasks,
						 s->tasks[id][b], cnt[id][b]);
				if (!p->is_exact)
					continue;
				if (cnt[id][b] && rq->bucket[id][b].value != s->value[id][b])
					fail_msg("step %lu (%s) cpu %d id %d bucket %d (MB2): value %d shadow %d",
						 p->step, p->op, c, id, b, rq->bucket[id][b].value,
						 s->value[id][b]);
				if (cnt[id][b] && s->value[id][b] > want)
					want = s->value[id][b];
			}
			if (!p->is_exact)
				continue;
			if (want < 0)
				want = id == MAX_ID ? s->departing : 0;	/* MR4 idle */
			else
				any = true;
			if (rq->value[id] != want)
				fail_msg("step %lu (%s) cpu %d id %d (MR3/MR4): rq %d want %d", p->step, p->op, c,
					 id, rq->value[id], want);
			/* independent of the shadow: at or above every counted value, same bucket */
			if (top[id] >= 0 && (rq->value[id] < top[id] ||
					     p->bucket_of[rq->value[id]] != p->bucket_of[top[id]]))
				fail_msg("step %lu (%s) cpu %d id %d (MB2): rq %d vs top task %d", p->step, p->op, c,
					 id, rq->value[id], top[id]);
		}
		if (p->is_exact && rq->is_idle == any)
			fail_msg("step %lu (%s) cpu %d (MR3/MR4): idle %d with tasks %d", p->step, p->op, c,
				 rq->is_idle, any);
	}
}

static void random_pct(struct prop *p, char *buf)
{
	unsigned int v = below(p, 10100);	/* a few above 100.00: ERANGE */

	if (!below(p, 8)) {
		strcpy(buf, "max");
		return;
	}
	buf[0] = (char)('0' + v / 1000 % 10);
	buf[1] = (char)('0' + v / 100 % 10);
	buf[2] = '.';
	buf[3] = (char)('0' + v / 10 % 10);
	buf[4] = (char)('0' + v % 10);
	buf[5] = '\0';
	if (v >= 10000)
		strcpy(buf, "100.50");
}

static unsigned int random_value(struct prop *p)
{
	if (!below(p, 16))
		return RESET;
	return below(p, MODEL_SCALE + 1);
}

static void prop_step(struct prop *p)
{
	unsigned int op = below(p, 100);
	int i = (int)below(p, P_TASKS);
	struct model_task *t = &p->t[i];
	char pct[TEXT_LEN];

	take_snaps(p);
	if (op < 30) {
		p->op = "enqueue";
		if (t->cpu < 0) {
			model_enqueue(&p->sys, t, (int)below(p, P_CPUS));
			replay_task(p, i, BOTH_IDS);
		}
	} else if (op < 55) {
		p->op = "dequeue";
		if (t->cpu >= 0) {
			model_dequeue(&p->sys, t);
			replay_task(p, i, BOTH_IDS);
		}
	} else if (op < 65) {
		p->op = "migrate";
		if (t->cpu >= 0) {
			model_migrate(&p->sys, t, (int)below(p, P_CPUS));
			replay_task(p, i, BOTH_IDS);
		}
	} else if (op < 78) {
		unsigned int which = below(p, 3);	/* MIN, MAX or both */
		struct model_attr a = {
			.size = MODEL_SCHED_ATTR_SIZE_VER1,
			.flags = (which == 0 ? F_MIN : which == 1 ? F_MAX : F_MIN | F_MAX) | F_KEEP,
			.policy = -1,
		};

		p->op = "setattr";
		a.util_min = random_value(p);
		a.util_max = random_value(p);
		if (!model_setattr(&p->sys, t, &a))
			replay_task(p, i, BOTH_IDS);
	} else if (op < 85) {
		struct model_tg *tg = &p->g[below(p, P_GROUPS - 1)];	/* not the autogroup */
		enum model_clamp_id id = below(p, 2) ? MIN_ID : MAX_ID;

		p->op = "cgroup write";
		random_pct(p, pct);
		if (!model_tg_write(&p->sys, tg, id, pct)) {
			replay_groups(p, p->sys.root_tg.child);
			if (p->is_exact)
				check_groups(p, p->sys.root_tg.child, &p->sys.root_tg);
		}
	} else if (op < 93) {
		p->op = "task move";
		model_task_move_tg(&p->sys, t, group(p, (int)below(p, P_GROUPS + 1)));
		replay_task(p, i, BOTH_IDS);
	} else if (op < 97) {
		enum model_sysctl which = (enum model_sysctl)below(p, MODEL_SYSCTL_CNT);

		p->op = "sysctl";
		if (!model_sysctl_write(&p->sys, which, (long long)below(p, 1100))) {
			replay_groups(p, &p->sys.root_tg);
			if (p->is_exact)
				check_groups(p, &p->sys.root_tg, NULL);
		}
	} else {
		static const enum model_class cls[] = {
			MODEL_CLASS_FAIR, MODEL_CLASS_RT, MODEL_CLASS_DL,
		};

		p->op = "class change";
		model_task_set_class(&p->sys, t, cls[below(p, ARRAY_SIZE(cls))]);
		replay_task(p, i, BOTH_IDS);
	}
	check_cpus(p);
}

static void prop_run(struct prop *p, unsigned int kver, unsigned int buckets, uint64_t seed,
		     unsigned long steps)
{
	struct model_config cfg;

	memset(p, 0, sizeof(*p));
	model_config_default(&cfg, MODEL_MAINLINE, P_CPUS);
	cfg.kver = kver;
	cfg.groups = buckets;
	p->buckets = buckets;
	p->is_exact = kver >= KV(5, 17);
	for (unsigned int v = 0; v <= MODEL_SCALE; v++)
		p->bucket_of[v] = (int)model_mainline_bucket_id(buckets, kver, v);
	p->rng = seed;
	assert_int_equal(model_init(&p->sys, &cfg, p->cpu), 0);
	/* root: A, B, C, autogroup; A: A1, A2; B: B1 */
	assert_int_equal(model_tg_init(&p->sys, &p->g[0], NULL), 0);
	assert_int_equal(model_tg_init(&p->sys, &p->g[1], NULL), 0);
	assert_int_equal(model_tg_init(&p->sys, &p->g[2], &p->g[0]), 0);
	assert_int_equal(model_tg_init(&p->sys, &p->g[3], &p->g[0]), 0);
	assert_int_equal(model_tg_init(&p->sys, &p->g[4], &p->g[1]), 0);
	assert_int_equal(model_tg_init(&p->sys, &p->g[5], NULL), 0);
	assert_int_equal(model_tg_init(&p->sys, &p->g[6], NULL), 0);
	p->g[6].is_autogroup = true;
	for (int i = 0; i < P_TASKS; i++)
		model_task_init(&p->sys, &p->t[i], 1000 + i,
				i % 10 == 0 ? MODEL_CLASS_RT : MODEL_CLASS_FAIR);
	for (int c = 0; c < P_CPUS; c++)
		p->sh[c].departing = MODEL_SCALE;	/* MB4: boot MAX, IDLE */
	for (p->step = 0; p->step < steps; p->step++)
		prop_step(p);
	/* drain: every bucket count back to zero */
	for (int i = 0; i < P_TASKS; i++) {
		if (p->t[i].cpu < 0)
			continue;
		take_snaps(p);
		p->op = "drain";
		model_dequeue(&p->sys, &p->t[i]);
		replay_task(p, i, BOTH_IDS);
	}
	check_cpus(p);
	for (int c = 0; c < P_CPUS; c++) {
		assert_true(p->sys.cpu[c].is_idle || !p->is_exact);
		assert_int_equal(p->sys.cpu[c].nr_queued, 0);
		for (int id = 0; id < MODEL_UCLAMP_CNT; id++)
			for (int b = 0; b < MODEL_MAX_SLOTS; b++)
				assert_int_equal(p->sys.cpu[c].bucket[id][b].tasks, 0);
	}
	if (p->is_exact)
		assert_false(p->sys.is_undefined);
}

static void test_property(void **state)
{
	static struct prop p;
	/* UCVAL_PROP_OPS caps the steps of each run (make check-valgrind) */
	const char *env = getenv("UCVAL_PROP_OPS");
	unsigned long cap = env ? strtoul(env, NULL, 10) : P_STEPS;
	unsigned long steps = cap < P_STEPS ? cap : P_STEPS;
	unsigned long old = cap < P_STEPS_OLD ? cap : P_STEPS_OLD;

	(void)state;
	prop_run(&p, KV(6, 1), 5, P_SEED, steps);
	prop_run(&p, KV(6, 1), 20, P_SEED + 1, steps);
	/* older eras (MB1 slot B, MB4, MR5 per id): bucket counts and ASan only */
	prop_run(&p, KV(5, 10), 20, P_SEED + 2, old);
	prop_run(&p, KV(5, 4), 10, P_SEED + 3, old);
	prop_run(&p, KV(5, 14), 7, P_SEED + 4, old);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mb1_bucket_id),
		cmocka_unit_test(test_mb1_out_of_bounds),
		cmocka_unit_test(test_scenarios),
		cmocka_unit_test(test_mb3_no_capacity_limit),
		cmocka_unit_test(test_mb4_rq_init),
		cmocka_unit_test(test_mr1_classes),
		cmocka_unit_test(test_mr2_static_key),
		cmocka_unit_test(test_mr7_lazy_defaults),
		cmocka_unit_test(test_mr8_mr9_read),
		cmocka_unit_test(test_mt1_default_cap),
		cmocka_unit_test(test_mt6_inversion),
		cmocka_unit_test(test_mt2_tg_restrict),
		cmocka_unit_test(test_mt3_task_eff),
		cmocka_unit_test(test_mt4_rt_default),
		cmocka_unit_test(test_mt5_groups),
		cmocka_unit_test(test_mt5_reaccount),
		cmocka_unit_test(test_ma1_flags),
		cmocka_unit_test(test_ma1_no_uclamp),
		cmocka_unit_test(test_ma2_validate),
		cmocka_unit_test(test_ma4_ma6_apply),
		cmocka_unit_test(test_ma5_atomic),
		cmocka_unit_test(test_ma7_fork),
		cmocka_unit_test(test_ma8_sysctl),
		cmocka_unit_test(test_ma9_files),
		cmocka_unit_test(test_ma10_parse),
		cmocka_unit_test(test_ma11_format),
		cmocka_unit_test(test_tg_text),
		cmocka_unit_test(test_ms1_key_off),
		cmocka_unit_test(test_property),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
