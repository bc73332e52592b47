// SPDX-License-Identifier: MIT
/*
 * Mainline uclamp (5.3 -> 6.x) as uclamp-mainline.md describes it: fixed
 * buckets, max aggregation with a per-bucket local max, idle MAX retention,
 * system defaults as caps and task groups. Every era difference keys off
 * cfg.kver, so one trace replays against the release that produced it; the
 * cgroup file text lives in mainline_cgroup.c. MR9 (6.12+ delayed dequeue)
 * is the caller's job: a sched_delayed task is not model_dequeue()d until
 * its real dequeue.
 */
#include <errno.h>
#include <limits.h>
#include <string.h>

#include "mainline.h"
#include "mainline_cgroup.h"
#include "rq.h"
#include "variant.h"

/* Releases where behaviour changes (uclamp-mainline.md §1). */
#define KV_CGROUP	MODEL_KVER(5, 4, 0)	/* MT2, MT5, MA9: task groups */
#define KV_CG_ONLINE	MODEL_KVER(5, 6, 0)	/* MT5: new groups computed at css_online */
#define KV_RQ_NONE	MODEL_KVER(5, 8, 0)	/* MB4: rq values start at none() */
#define KV_KEY		MODEL_KVER(5, 9, 0)	/* MR2 static key, MA8 rt_default, MA7 */
#define KV_RESET	MODEL_KVER(5, 11, 0)	/* MA2, MA4: -1 resets a clamp */
#define KV_CAP		MODEL_KVER(5, 13, 0)	/* MB1: bucket index capped */
#define KV_PROTECT	MODEL_KVER(5, 14, 0)	/* MT2 clamp(), MR5 both ids */
#define KV_REINC	MODEL_KVER(5, 15, 0)	/* MR5: IDLE cleared on re-account */
#define KV_RQ_IDLE	MODEL_KVER(5, 17, 0)	/* MB4: rq flags start IDLE */

/* uclamp_se.value is a bits_per(SCHED_CAPACITY_SCALE) = 11-bit field. */
#define SE_VALUE_MASK	0x7ffu
/* UCLAMP_FLAG_IDLE: bit 0 of rq->uclamp_flags (MR4). */
#define FLAG_IDLE	0x1
/* sched_copy_attr() refuses sizes above PAGE_SIZE (4 KiB pages assumed). */
#define ATTR_SIZE_MAX	4096u
/* (u32)-1 in sched_util_{min,max}: reset the clamp (MA2, MA4, 5.11+). */
#define RESET_VALUE	0xffffffffu
#define FLAGS_CLAMP	(MODEL_ML_FLAG_UTIL_CLAMP_MIN | MODEL_ML_FLAG_UTIL_CLAMP_MAX)
#define ALL_IDS		((1u << MODEL_UCLAMP_CNT) - 1)

/* sysctl_write() indexes sys->sysctl[] with clamp ids for the two defaults. */
_Static_assert(MODEL_SYSCTL_UTIL_MIN == (int)MODEL_UCLAMP_MIN &&
	       MODEL_SYSCTL_UTIL_MAX == (int)MODEL_UCLAMP_MAX, "sysctl order");

static const unsigned long long id_flag[MODEL_UCLAMP_CNT] = {
	MODEL_ML_FLAG_UTIL_CLAMP_MIN, MODEL_ML_FLAG_UTIL_CLAMP_MAX,
};

static bool since(const struct model_sys *sys, unsigned int kver)
{
	return sys->cfg.kver >= kver;
}

/* MA1: a kernel without CONFIG_UCLAMP_TASK has no clamps at all. */
static bool has_uclamp(const struct model_sys *sys)
{
	return !sys->cfg.no_uclamp_task;
}

static bool has_tg(const struct model_sys *sys)
{
	return has_uclamp(sys) && sys->cfg.task_group && since(sys, KV_CGROUP);
}

/* MR2: 5.3-5.8 count always; 5.9+ only once the static key is on. */
static bool is_counting(const struct model_sys *sys)
{
	return has_uclamp(sys) && (!since(sys, KV_KEY) || sys->is_uclamp_used);
}

/* rt_task(): RT priority, which in 6.1 includes SCHED_DEADLINE (prio -1). */
static bool is_rt_task(enum model_class cls)
{
	return cls == MODEL_CLASS_RT || cls == MODEL_CLASS_DL;
}

/* bits_per(n): bits needed to store n (at least 1). */
static unsigned int bits_per(unsigned int n)
{
	unsigned int bits = 1;

	while (bits < sizeof(n) * CHAR_BIT && (n >> bits))
		bits++;
	return bits;
}

/**
 * model_mainline_bucket_delta() - width of one bucket, UCLAMP_BUCKET_DELTA
 * @buckets: CONFIG_UCLAMP_BUCKETS_COUNT
 *
 * Implements MB1: DIV_ROUND_CLOSEST(1024, @buckets), 205 for 5 buckets.
 *
 * Return: the width, 0 for 0 buckets.
 */
unsigned int model_mainline_bucket_delta(unsigned int buckets)
{
	if (!buckets)
		return 0;
	return (MODEL_SCALE + buckets / 2) / buckets;
}

/**
 * model_mainline_bucket_id() - bucket a clamp value is counted in
 * @buckets: CONFIG_UCLAMP_BUCKETS_COUNT
 * @kver: release, MODEL_KVER()
 * @value: clamp value (any u32: 5.11+ accepts some out-of-range values)
 *
 * Implements MB1: value / delta, capped at @buckets - 1 from 5.13. Before,
 * an index of @buckets (or more) is returned as the kernel stores it: in a
 * bits_per(@buckets)-bit field.
 *
 * Return: the bucket index.
 */
unsigned int model_mainline_bucket_id(unsigned int buckets, unsigned int kver,
				      unsigned int value)
{
	unsigned int delta = model_mainline_bucket_delta(buckets);
	unsigned int bits = bits_per(buckets);
	unsigned int id;

	if (!delta)
		return 0;
	id = value / delta;
	if (kver >= KV_CAP && id > buckets - 1)
		id = buckets - 1;
	if (bits < sizeof(id) * CHAR_BIT)
		id &= (1u << bits) - 1;
	return id;
}

/* uclamp_se_set(): the value field keeps 11 bits, the bucket the full value (MB1, MB3). */
static void se_set(const struct model_sys *sys, struct model_se *se, unsigned int value,
		   bool user_defined)
{
	se->value = (int)(value & SE_VALUE_MASK);
	se->slot = (int)model_mainline_bucket_id(sys->cfg.groups, sys->cfg.kver, value);
	se->user_defined = user_defined;
}

static unsigned int rt_default(const struct model_sys *sys)
{
	if (!since(sys, KV_KEY))
		return MODEL_SCALE;
	return sys->sysctl[MODEL_SYSCTL_UTIL_MIN_RT_DEFAULT];
}

/* MT4: a request nobody set: none(), but the RT default for an RT task's MIN. */
static unsigned int req_default(const struct model_sys *sys, enum model_class cls, int id)
{
	if (id == MODEL_UCLAMP_MIN && is_rt_task(cls))
		return rt_default(sys);
	return (unsigned int)model_none(id);
}

/*
 * MT4, MA8: a write of the RT default syncs the MIN request of every RT task
 * that has no user-defined one. The model cannot reach tasks that are not
 * queued, so the sync is applied when the request is read: a task whose
 * requests were last set before the latest write (rt_gen) follows it.
 */
static struct model_se req_get(const struct model_sys *sys, const struct model_task *t, int id)
{
	struct model_se se = t->req[id];

	if (id == MODEL_UCLAMP_MIN && !se.user_defined && is_rt_task(t->cls) &&
	    since(sys, KV_KEY) && t->rt_gen != sys->rt_gen)
		se_set(sys, &se, sys->sysctl[MODEL_SYSCTL_UTIL_MIN_RT_DEFAULT], false);
	return se;
}

/* Store the synced request before the task's requests or class change. */
static void req_settle(const struct model_sys *sys, struct model_task *t)
{
	t->req[MODEL_UCLAMP_MIN] = req_get(sys, t, MODEL_UCLAMP_MIN);
	t->rt_gen = sys->rt_gen;
}

/* MT2 uclamp_tg_restrict(): root and autogroup tasks keep their request. */
static struct model_se tg_restrict(const struct model_sys *sys, const struct model_task *t,
				   int id)
{
	struct model_se req = req_get(sys, t, id);
	const struct model_tg *tg = t->tg;
	int value;

	if (!has_tg(sys) || !tg || !tg->parent || tg->is_autogroup)
		return req;
	if (!since(sys, KV_PROTECT)) {
		/* MT2 5.4-5.13: the group value is a limit, and the default of unset ids */
		if (req.value > tg->eff[id].value || !req.user_defined)
			return tg->eff[id];
		return req;
	}
	/* MT2 5.14+: clamp(req, tg_min, tg_max), user_defined ignored */
	value = req.value;
	if (value < tg->eff[MODEL_UCLAMP_MIN].value)
		value = tg->eff[MODEL_UCLAMP_MIN].value;
	if (value > tg->eff[MODEL_UCLAMP_MAX].value)
		value = tg->eff[MODEL_UCLAMP_MAX].value;
	se_set(sys, &req, (unsigned int)value, false);
	return req;
}

/* MT1 uclamp_eff_get(): the system default caps every task. */
static struct model_se eff_get(const struct model_sys *sys, const struct model_task *t, int id)
{
	struct model_se se = tg_restrict(sys, t, id);

	if (se.value > sys->dflt[id].value)
		return sys->dflt[id];
	return se;
}

/*
 * MB1 before 5.13: bucket index B is one past the array. MAX's bucket B
 * overlays rq->uclamp_flags, whose bit 0 (IDLE) is bit 0 of that bucket's
 * value; MIN's bucket B overlays rq MAX's value (not modelled: undefined).
 */
static bool is_flags_alias(const struct model_sys *sys, int id, int slot)
{
	return id == MODEL_UCLAMP_MAX && slot == (int)sys->cfg.groups;
}

static int bucket_value(const struct model_sys *sys, const struct model_cpu *rq, int id,
			int slot)
{
	int value = rq->bucket[id][slot].value;

	if (is_flags_alias(sys, id, slot))
		value = (value & ~FLAG_IDLE) | (rq->is_idle ? FLAG_IDLE : 0);
	return value;
}

static void set_bucket_value(const struct model_sys *sys, struct model_cpu *rq, int id,
			     int slot, int value)
{
	rq->bucket[id][slot].value = value;
	if (is_flags_alias(sys, id, slot))
		rq->is_idle = value & FLAG_IDLE;
}

/* MR4 uclamp_rq_max_value(): the top non-empty bucket below B, or idle. */
static int rq_max_value(const struct model_sys *sys, struct model_cpu *rq, int id,
			int departing)
{
	for (int slot = (int)sys->cfg.groups - 1; slot >= 0; slot--) {
		if (rq->bucket[id][slot].tasks)
			return bucket_value(sys, rq, id, slot);
	}
	/* MR4: idle MAX retains the departing task's value; MIN drops to 0 */
	if (id == MODEL_UCLAMP_MAX) {
		rq->is_idle = true;
		return departing;
	}
	return model_none(MODEL_UCLAMP_MIN);
}

/* MR3 uclamp_rq_inc_id(): count @t's effective value on its CPU. */
static void count(struct model_sys *sys, struct model_task *t, int id)
{
	struct model_cpu *rq = &sys->cpu[t->cpu];
	struct model_se eff = eff_get(sys, t, id);
	struct model_bucket *bucket = &rq->bucket[id][eff.slot];

	/* MT3: back-annotate the effective value; active */
	t->nr_counts++;
	t->acc_slot[id] = eff.slot;
	t->acc_value[id] = eff.value;
	if (eff.slot > (int)sys->cfg.groups ||
	    (eff.slot == (int)sys->cfg.groups && id == MODEL_UCLAMP_MIN))
		sys->is_undefined = true;	/* MB1: out of bounds, rq fields overwritten */
	bucket->tasks++;
	if (rq->is_idle)
		rq->value[id] = eff.value;	/* MR3: first task after idle overwrites */
	/* MB2: local max, reset by the first task of an empty bucket */
	if (bucket->tasks == 1 || eff.value > bucket_value(sys, rq, id, eff.slot))
		set_bucket_value(sys, rq, id, eff.slot, eff.value);
	if (eff.value > rq->value[id])
		rq->value[id] = eff.value;
}

/* MR4 uclamp_rq_dec_id(): release @t's bucket; rescan only if it was on top. */
static void uncount(struct model_sys *sys, struct model_task *t, int id)
{
	int slot = t->acc_slot[id], value = t->acc_value[id];
	struct model_cpu *rq;
	struct model_bucket *bucket;

	if (slot == MODEL_NV)
		return;			/* MR2: queued before the key was on */
	rq = &sys->cpu[t->cpu];
	bucket = &rq->bucket[id][slot];
	if (bucket->tasks)		/* the kernel warns when it is already 0 */
		bucket->tasks--;
	t->acc_slot[id] = MODEL_NV;
	t->acc_value[id] = MODEL_NV;
	if (bucket->tasks)
		return;			/* MB2: not lowered while tasks remain */
	if (bucket_value(sys, rq, id, slot) >= rq->value[id])
		rq->value[id] = rq_max_value(sys, rq, id, value);
}

/* MR5 uclamp_update_active(): uncount + count the ids in @ids. */
static void reaccount(struct model_sys *sys, struct model_task *t, unsigned int ids)
{
	for (int id = 0; id < MODEL_UCLAMP_CNT; id++) {
		if (!(ids & (1u << id)) || t->acc_slot[id] == MODEL_NV)
			continue;
		uncount(sys, t, id);
		count(sys, t, id);
		/* MR5 5.15+: a transient empty rq must not leave IDLE set */
		if (since(sys, KV_REINC) && id == MODEL_UCLAMP_MAX)
			sys->cpu[t->cpu].is_idle = false;
	}
}

/* The cgroup of a task: autogroups live in the root cgroup (MT2). */
static const struct model_tg *task_css(const struct model_sys *sys, const struct model_task *t)
{
	if (!t->tg || t->tg->is_autogroup)
		return &sys->root_tg;
	return t->tg;
}

/*
 * MT5/MR5 uclamp_update_active_tasks(): re-account the queued tasks of @tg.
 * Order: CPUs ascending, then each CPU's queued list (newest first).
 */
static void reaccount_group(struct model_sys *sys, const struct model_tg *tg,
			    unsigned int changed)
{
	/* MR5: before 5.14 only the changed ids; then both (clamp() couples them) */
	unsigned int ids = since(sys, KV_PROTECT) ? ALL_IDS : changed;

	for (unsigned int c = 0; c < sys->cfg.nr_cpus; c++) {
		struct model_node *pos;

		model_list_for_each(pos, &sys->cpu[c].queued) {
			struct model_task *t = model_container_of(pos, struct model_task, rq_node);

			if (task_css(sys, t) == tg && model_class_counted(t->cls))
				reaccount(sys, t, ids);
		}
	}
}

/* MT5: eff = min(req, parent eff) per id, then eff_min <= eff_max. */
static unsigned int update_tg(const struct model_sys *sys, struct model_tg *tg)
{
	int eff[MODEL_UCLAMP_CNT];
	unsigned int changed = 0;

	for (int id = 0; id < MODEL_UCLAMP_CNT; id++) {
		eff[id] = tg->req[id].value;
		if (tg->parent && eff[id] > tg->parent->eff[id].value)
			eff[id] = tg->parent->eff[id].value;
	}
	if (eff[MODEL_UCLAMP_MIN] > eff[MODEL_UCLAMP_MAX])
		eff[MODEL_UCLAMP_MIN] = eff[MODEL_UCLAMP_MAX];
	for (int id = 0; id < MODEL_UCLAMP_CNT; id++) {
		if (eff[id] == tg->eff[id].value)
			continue;
		tg->eff[id].value = eff[id];
		tg->eff[id].slot = (int)model_mainline_bucket_id(sys->cfg.groups, sys->cfg.kver,
								 (unsigned int)eff[id]);
		changed |= 1u << id;
	}
	return changed;
}

/* Children in the cgroup tree: autogroups are not cgroups. */
static struct model_tg *css_next(struct model_tg *tg)
{
	while (tg && tg->is_autogroup)
		tg = tg->sibling;
	return tg;
}

/*
 * MT5 cpu_util_update_eff(): walk the subtree of @top pre-order, skip the
 * subtree of a group whose effective values did not change, re-account the
 * queued tasks of the groups that changed.
 */
static void update_eff(struct model_sys *sys, struct model_tg *top)
{
	struct model_tg *pos = top;

	while (pos) {
		unsigned int changed = update_tg(sys, pos);
		struct model_tg *next = NULL;

		if (changed) {
			reaccount_group(sys, pos, changed);
			next = css_next(pos->child);
		}
		if (next) {
			pos = next;
			continue;
		}
		while (pos != top && !css_next(pos->sibling))
			pos = pos->parent;
		pos = pos == top ? NULL : css_next(pos->sibling);
	}
}

/* ---- ops: boot, tasks, groups ---- */

/* MB4 rq init, MT1/MT5 defaults: uclamp_default and the root group allow 1024. */
static void init(struct model_sys *sys)
{
	for (int id = 0; id < MODEL_UCLAMP_CNT; id++) {
		se_set(sys, &sys->dflt[id], MODEL_SCALE, false);
		sys->root_tg.req[id] = sys->dflt[id];
		sys->root_tg.eff[id] = sys->dflt[id];
	}
	for (int i = 0; i < MODEL_SYSCTL_CNT; i++)
		sys->sysctl[i] = MODEL_SCALE;
	for (unsigned int c = 0; c < sys->cfg.nr_cpus; c++) {
		struct model_cpu *rq = &sys->cpu[c];

		/* MB4: 5.3-5.7 memset to 0; 5.8+ none(); IDLE from 5.17 */
		rq->value[MODEL_UCLAMP_MIN] = model_none(MODEL_UCLAMP_MIN);
		rq->value[MODEL_UCLAMP_MAX] = since(sys, KV_RQ_NONE) ?
					      model_none(MODEL_UCLAMP_MAX) : 0;
		rq->is_idle = since(sys, KV_RQ_IDLE);
	}
}

static void task_init(struct model_sys *sys, struct model_task *t)
{
	for (int id = 0; id < MODEL_UCLAMP_CNT; id++)
		se_set(sys, &t->req[id], req_default(sys, t->cls, id), false);	/* MT4 */
	t->rt_gen = sys->rt_gen;
}

/* MT5: req none(), eff copied from the parent, recomputed at online (5.6+). */
static int tg_init(struct model_sys *sys, struct model_tg *tg)
{
	for (int id = 0; id < MODEL_UCLAMP_CNT; id++) {
		se_set(sys, &tg->req[id], (unsigned int)model_none(id), false);
		tg->eff[id] = tg->parent->eff[id];
	}
	if (has_tg(sys) && since(sys, KV_CG_ONLINE))
		update_eff(sys, tg);
	return 0;
}

/* MA7 uclamp_fork(), sched_fork(), uclamp_post_fork(). */
static void fork_task(struct model_sys *sys, const struct model_task *parent,
		      struct model_task *child)
{
	for (int id = 0; id < MODEL_UCLAMP_CNT; id++)
		child->req[id] = req_get(sys, parent, id);
	child->rt_gen = sys->rt_gen;
	if (parent->reset_on_fork) {
		for (int id = 0; id < MODEL_UCLAMP_CNT; id++)
			se_set(sys, &child->req[id], (unsigned int)model_none(id), false);
		/* sched_fork() demotes RT and DL children and clears the flag */
		if (is_rt_task(child->cls))
			child->cls = MODEL_CLASS_FAIR;
	}
	child->reset_on_fork = false;
	if (since(sys, KV_KEY) && is_rt_task(child->cls) &&
	    !child->req[MODEL_UCLAMP_MIN].user_defined)
		se_set(sys, &child->req[MODEL_UCLAMP_MIN], rt_default(sys), false);
}

/* Mainline keeps no per-task references besides the rq buckets. */
static void exit_task(struct model_sys *sys, struct model_task *t)
{
	(void)sys;
	(void)t;
}

/* MT4: a policy change resets every request the user did not set. */
static void class_changed(struct model_sys *sys, struct model_task *t,
			  enum model_class old_cls)
{
	(void)old_cls;
	t->rt_gen = sys->rt_gen;
	for (int id = 0; id < MODEL_UCLAMP_CNT; id++) {
		if (!t->req[id].user_defined)
			se_set(sys, &t->req[id], req_default(sys, t->cls, id), false);
	}
}

/* MR1/MR3: enqueue_task() counts both ids, then clears IDLE. */
static void enqueue(struct model_sys *sys, struct model_task *t, int cpu)
{
	if (!is_counting(sys))
		return;
	for (int id = 0; id < MODEL_UCLAMP_CNT; id++)
		count(sys, t, id);
	sys->cpu[cpu].is_idle = false;
}

/* MR1/MR4: dequeue_task() uncounts (MR9: the caller delays delayed dequeues). */
static void dequeue(struct model_sys *sys, struct model_task *t)
{
	if (!is_counting(sys))
		return;
	for (int id = 0; id < MODEL_UCLAMP_CNT; id++)
		uncount(sys, t, id);
}

/* MT3 uclamp_eff_value(): the counted value while active, else MT1. */
static int task_eff(const struct model_sys *sys, const struct model_task *t,
		    enum model_clamp_id id, int *slot)
{
	struct model_se se;

	if ((unsigned int)id >= MODEL_UCLAMP_CNT)
		return -EINVAL;
	if (t->acc_slot[id] != MODEL_NV) {
		se.value = t->acc_value[id];
		se.slot = t->acc_slot[id];
	} else {
		se = eff_get(sys, t, id);
	}
	if (slot)
		*slot = se.slot;
	return se.value;
}

/* ---- ops: sched_setattr / sched_getattr (MA1-MA6) ---- */

static int policy_class(int policy, enum model_class *cls)
{
	switch (policy) {
	case MODEL_SCHED_NORMAL:
	case MODEL_SCHED_BATCH:
	case MODEL_SCHED_IDLE:
		*cls = MODEL_CLASS_FAIR;
		return 0;
	case MODEL_SCHED_FIFO:
	case MODEL_SCHED_RR:
		*cls = MODEL_CLASS_RT;
		return 0;
	case MODEL_SCHED_DEADLINE:
		*cls = MODEL_CLASS_DL;
		return 0;
	}
	return -EINVAL;
}

/* MA2 uclamp_validate(), against the task's current requests. */
static int validate(const struct model_sys *sys, const struct model_task *t,
		    const struct model_attr *attr)
{
	unsigned int given[MODEL_UCLAMP_CNT] = { attr->util_min, attr->util_max };
	int cur[MODEL_UCLAMP_CNT];

	for (int id = 0; id < MODEL_UCLAMP_CNT; id++)
		cur[id] = req_get(sys, t, id).value;
	if (!since(sys, KV_RESET)) {
		/* 5.3-5.10: unsigned bounds, -1 is just too large */
		unsigned int lo = (unsigned int)cur[MODEL_UCLAMP_MIN];
		unsigned int hi = (unsigned int)cur[MODEL_UCLAMP_MAX];

		if (attr->flags & MODEL_ML_FLAG_UTIL_CLAMP_MIN)
			lo = given[MODEL_UCLAMP_MIN];
		if (attr->flags & MODEL_ML_FLAG_UTIL_CLAMP_MAX)
			hi = given[MODEL_UCLAMP_MAX];
		return lo > hi || hi > MODEL_SCALE ? -EINVAL : 0;
	}
	/*
	 * 5.11+: the kernel tests "int v + 1 > 1025" with a signed int, so -1
	 * passes and so does every value from 0x7fffffff up (kept, 11 bits).
	 */
	for (int id = 0; id < MODEL_UCLAMP_CNT; id++) {
		if (!(attr->flags & id_flag[id]))
			continue;
		cur[id] = (int)given[id];
		if ((int)(given[id] + 1u) > MODEL_SCALE + 1)
			return -EINVAL;
	}
	if (cur[MODEL_UCLAMP_MIN] != -1 && cur[MODEL_UCLAMP_MAX] != -1 &&
	    cur[MODEL_UCLAMP_MIN] > cur[MODEL_UCLAMP_MAX])
		return -EINVAL;
	return 0;
}

/* MA4 __setscheduler_uclamp(): t->cls is already the new class. */
static void apply_uclamp(struct model_sys *sys, struct model_task *t,
			 const struct model_attr *attr)
{
	unsigned int given[MODEL_UCLAMP_CNT] = { attr->util_min, attr->util_max };
	bool has_clamp = attr->flags & FLAGS_CLAMP;
	bool has_reset = since(sys, KV_RESET);

	for (int id = 0; id < MODEL_UCLAMP_CNT; id++) {
		struct model_se *se = &t->req[id];
		bool is_given = attr->flags & id_flag[id];
		bool reset;

		if (!has_reset)
			reset = !se->user_defined;
		else
			reset = (!has_clamp && !se->user_defined) ||
				(is_given && given[id] == RESET_VALUE);
		if (reset)
			se_set(sys, se, req_default(sys, t->cls, id), false);
	}
	for (int id = 0; id < MODEL_UCLAMP_CNT; id++) {
		if (!(attr->flags & id_flag[id]))
			continue;
		if (has_reset && given[id] == RESET_VALUE)
			continue;
		se_set(sys, &t->req[id], given[id], true);
	}
}

/*
 * MA1-MA5 sched_setattr() on the caller's own task (MA3: EPERM is not
 * modelled, nor RT priority or DL parameter checks: the model has no
 * parameters). It knows classes, not policies: a call that keeps the class
 * is taken to change something (policy or parameters) unless KEEP_PARAMS.
 */
static int setattr(struct model_sys *sys, struct model_task *t, const struct model_attr *attr)
{
	unsigned long long flags = attr->flags;
	bool has_clamp = flags & FLAGS_CLAMP;
	unsigned int size = attr->size ? attr->size : MODEL_SCHED_ATTR_SIZE_VER0;
	enum model_class cls = t->cls;
	int policy = attr->policy;
	int cpu, err;

	if (t->is_dead)
		return -ESRCH;
	/* MA1 sched_copy_attr() */
	if (size < MODEL_SCHED_ATTR_SIZE_VER0 || size > ATTR_SIZE_MAX)
		return -E2BIG;
	if (has_clamp && size < MODEL_SCHED_ATTR_SIZE_VER1)
		return -EINVAL;
	if (flags & MODEL_ML_FLAG_KEEP_POLICY)
		policy = -1;
	if (policy >= 0 && policy_class(policy, &cls))
		return -EINVAL;
	if (flags & ~(unsigned long long)MODEL_ML_FLAG_ALL)
		return -EINVAL;
	if (flags & MODEL_ML_FLAG_KEEP_PARAMS) {
		/* the kept priority must fit the policy: rt_policy == (prio != 0) */
		if ((cls == MODEL_CLASS_RT) != (t->cls == MODEL_CLASS_RT))
			return -EINVAL;
		cls = t->cls;		/* KEEP_PARAMS also keeps the policy */
	}
	if (has_clamp) {
		if (!has_uclamp(sys))
			return -EOPNOTSUPP;	/* MA1: the uclamp_validate() stub */
		err = validate(sys, t, attr);
		if (err)
			return err;
		sys->is_uclamp_used = true;	/* MR2 */
	}
	if (policy >= 0)
		t->reset_on_fork = flags & MODEL_FLAG_RESET_ON_FORK;
	if (!has_clamp && cls == t->cls && (flags & MODEL_ML_FLAG_KEEP_PARAMS))
		return 0;		/* nothing changes: no dequeue */

	/* MA5/MR6: dequeued, policy and clamps changed together, enqueued */
	cpu = t->cpu;
	if (cpu >= 0)
		model_dequeue(sys, t);
	req_settle(sys, t);
	t->cls = cls;
	apply_uclamp(sys, t, attr);
	if (cpu >= 0)
		model_enqueue(sys, t, cpu);
	return 0;
}

/* MA6: sched_getattr() reports the requests, not the effective values. */
static int getattr(const struct model_sys *sys, const struct model_task *t,
		   unsigned int *util_min, unsigned int *util_max)
{
	if (t->is_dead)
		return -ESRCH;
	if (!has_uclamp(sys)) {
		*util_min = 0;		/* the fields are left zeroed */
		*util_max = 0;
		return 0;
	}
	*util_min = (unsigned int)req_get(sys, t, MODEL_UCLAMP_MIN).value;
	*util_max = (unsigned int)req_get(sys, t, MODEL_UCLAMP_MAX).value;
	return 0;
}

/* ---- ops: sysctls (MA8) ---- */

static int sysctl_write(struct model_sys *sys, enum model_sysctl which, long long value)
{
	unsigned int v[MODEL_SYSCTL_CNT];
	bool is_default_changed = false;

	if (!has_uclamp(sys) ||
	    (which == MODEL_SYSCTL_UTIL_MIN_RT_DEFAULT && !since(sys, KV_KEY)))
		return -ENOENT;		/* no such file (without uclamp, before 5.9) */
	if (value < INT_MIN || value > INT_MAX)
		return -EINVAL;		/* proc_dointvec() overflow */
	memcpy(v, sys->sysctl, sizeof(v));
	v[which] = (unsigned int)(int)value;	/* negatives wrap, then fail below */
	if (v[MODEL_SYSCTL_UTIL_MIN] > v[MODEL_SYSCTL_UTIL_MAX] ||
	    v[MODEL_SYSCTL_UTIL_MAX] > MODEL_SCALE ||
	    v[MODEL_SYSCTL_UTIL_MIN_RT_DEFAULT] > MODEL_SCALE)
		return -EINVAL;		/* all three restored: nothing stored */

	for (int id = 0; id < MODEL_UCLAMP_CNT; id++) {
		if (v[id] == sys->sysctl[id])
			continue;
		se_set(sys, &sys->dflt[id], v[id], false);
		is_default_changed = true;
	}
	if (v[MODEL_SYSCTL_UTIL_MIN_RT_DEFAULT] != sys->sysctl[MODEL_SYSCTL_UTIL_MIN_RT_DEFAULT]) {
		sys->is_uclamp_used = true;
		sys->rt_gen++;		/* MT4: every RT task resyncs, lazily */
	}
	memcpy(sys->sysctl, v, sizeof(v));
	if (!is_default_changed)
		return 0;
	sys->is_uclamp_used = true;	/* MR2 */
	if (has_tg(sys)) {
		/* MR7/MT5 uclamp_update_root_tg(): the root group follows */
		for (int id = 0; id < MODEL_UCLAMP_CNT; id++)
			se_set(sys, &sys->root_tg.req[id], v[id], false);
		update_eff(sys, &sys->root_tg);
	}
	return 0;
}

/* ---- ops: cpu.uclamp.{min,max} (MA9-MA11) ---- */

/* MA9/MA10: only non-root cgroups have the files (and only with TASK_GROUP). */
static int tg_write(struct model_sys *sys, struct model_tg *tg, enum model_clamp_id id,
		    const char *buf)
{
	unsigned int pct100, util;
	int err;

	if (!has_tg(sys) || !tg->parent || tg->is_autogroup)
		return -ENOENT;
	err = model_mainline_cgroup_parse(sys->cfg.kver, buf, &pct100, &util);
	if (err)
		return err;
	sys->is_uclamp_used = true;	/* MR2 */
	se_set(sys, &tg->req[id], util, false);
	tg->req_pct100[id] = pct100;
	update_eff(sys, tg);		/* MT5 */
	return 0;
}

/* MA9/MA11: there are no effective files in mainline. */
static int tg_read(const struct model_sys *sys, const struct model_tg *tg,
		   enum model_clamp_id id, bool effective, char *buf, size_t len)
{
	if (!has_tg(sys) || effective || !tg->parent || tg->is_autogroup)
		return -ENOENT;
	return model_mainline_cgroup_format((unsigned int)tg->req[id].value,
					    tg->req_pct100[id], buf, len);
}

/* The mainline variant (uclamp-mainline.md), picked by model_init(). */
const struct model_ops model_mainline_ops = {
	.init = init,
	.task_init = task_init,
	.tg_init = tg_init,
	.setattr = setattr,
	.getattr = getattr,
	.sysctl_write = sysctl_write,
	.tg_write = tg_write,
	.tg_read = tg_read,
	.fork = fork_task,
	.exit = exit_task,
	.class_changed = class_changed,
	.enqueue = enqueue,
	.dequeue = dequeue,
	.task_eff = task_eff,
};
