// SPDX-License-Identifier: MIT
/*
 * The v3 seed series' clamp groups (uclamp-v3.md): a few system-wide slots map
 * clamp values to per-CPU task counts, max-aggregated at enqueue and dequeue.
 * fidelity=seed replays the series' code, defects included (§8); fidelity=intent
 * its design. Enqueue/dequeue cost O(slots); the slow paths (setattr, sysctl,
 * cgroup writes) O(slots + CPUs + queued tasks), each applied whole (VG9). No
 * path here kicks cpufreq (VR13): schedutil reads the aggregate when it runs.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <string.h>

#include "rq.h"
#include "v3.h"
#include "v3_cgroup.h"
#include "variant.h"

/* Units of the p14 percent ABI (VA1, VP1). */
#define PCT_SCALE		100
/* to_pct() is exact on multiples of 256 and rounds up elsewhere (VP2). */
#define PCT_EXACT_MASK		0xffU
/* SCHED_FLAG_SUGOV: kernel-internal, yet the 4.19 flag check lets it in (VA3). */
#define FLAG_SUGOV		0x10000000ULL
#define FLAG_CLAMP		(MODEL_V3_FLAG_UTIL_CLAMP_MIN | MODEL_V3_FLAG_UTIL_CLAMP_MAX)
/* Bytes of sched_attr that include sched_util_min (VA1, VA6). */
#define ATTR_SIZE_UTIL_MIN	52

static const enum model_clamp_id clamp_ids[MODEL_UCLAMP_CNT] = {
	MODEL_UCLAMP_MIN, MODEL_UCLAMP_MAX,		/* MIN first (VR4) */
};

/**
 * model_v3_from_pct() - percent to internal units, as p14's scale_from_percent()
 * @pct: percent; above 100 only through VQ1 (the kernel warns, we compute)
 *
 * Implements VP1 (uclamp-v3.md): floor(1024 * pct / 100).
 */
unsigned int model_v3_from_pct(unsigned int pct)
{
	return (unsigned int)((unsigned long long)MODEL_SCALE * pct / PCT_SCALE);
}

/**
 * model_v3_to_pct() - internal units to percent, as p14's scale_to_percent()
 * @value: internal clamp value
 *
 * Implements VP2 (uclamp-v3.md): floor(100 * v / 1024) + (v % 256 != 0); the
 * seed's second condition, ~(value & 0x700), is always true.
 */
unsigned int model_v3_to_pct(unsigned int value)
{
	unsigned int up = (value & PCT_EXACT_MASK) != 0;

	return (unsigned int)((unsigned long long)PCT_SCALE * value / MODEL_SCALE) + up;
}

static bool is_seed(const struct model_sys *sys)
{
	return sys->cfg.fidelity == MODEL_SEED;
}

static bool is_pct(const struct model_sys *sys)
{
	return sys->cfg.abi_scale == PCT_SCALE;
}

static int last_slot(const struct model_sys *sys)
{
	return (int)sys->cfg.groups;
}

static int from_abi(const struct model_sys *sys, unsigned int v)
{
	return (int)(is_pct(sys) ? model_v3_from_pct(v) : v);
}

static unsigned int to_abi(const struct model_sys *sys, int v)
{
	return is_pct(sys) ? model_v3_to_pct((unsigned int)v) : (unsigned int)v;
}

/*
 * The value find() looks up for a request in ABI units. p14 scales the value
 * it attaches but not the one setattr and the sysctl handler pass to
 * uclamp_group_find(), so a seed kernel searches slots for the raw percent.
 */
static int find_key(const struct model_sys *sys, unsigned int v)
{
	return is_seed(sys) && is_pct(sys) ? (int)v : from_abi(sys, v);
}

/* VG4 init / VG5 reset of a slot: the table entry and every CPU mirror (VG1). */
static void slot_set(struct model_sys *sys, int id, int s, int value)
{
	struct model_slot *sl = &sys->slot[id][s];

	sl->value = value;
	sl->se_count = 0;
	sl->nr_counted = 0;
	for (unsigned int c = 0; c < sys->cfg.nr_cpus; c++) {
		sys->cpu[c].bucket[id][s].value = value;
		sys->cpu[c].bucket[id][s].tasks = 0;
	}
}

/* VG3: the first slot holding @key, else the first free one, else -ENOSPC. */
static int find(const struct model_sys *sys, int id, int key)
{
	int free_slot = MODEL_NV;

	for (int s = 0; s <= last_slot(sys); s++) {
		int v = sys->slot[id][s].value;

		if (v == MODEL_NV) {
			if (free_slot == MODEL_NV)
				free_slot = s;
			continue;
		}
		if (v == key)
			return s;
	}
	return free_slot != MODEL_NV ? free_slot : -ENOSPC;
}

/* VG4 first half: holder @se (VG2) references slot @s with value @v, no release yet. */
static void get_slot(struct model_sys *sys, int id, int s, struct model_se *se, int v)
{
	if (sys->slot[id][s].value == MODEL_NV)
		slot_set(sys, id, s, v);
	sys->slot[id][s].se_count++;
	se->value = v;
	se->slot = s;
}

/*
 * VG5: drop one reference. Intent keeps a slot that tasks still count in
 * (a sysctl change is lazy, VR12) until its last counted task leaves.
 */
static void put_slot(struct model_sys *sys, int id, int s)
{
	struct model_slot *sl;

	if (s == MODEL_NV)
		return;
	sl = &sys->slot[id][s];
	if (sl->se_count == 0)
		sl->se_count = 1;	/* debug kernels warn and treat it as 1 */
	if (--sl->se_count)
		return;
	if (!is_seed(sys) && sl->nr_counted)
		return;
	slot_set(sys, id, s, MODEL_NV);
}

/* VT8/VQ13: the system default only stands in for a missing request. */
static bool in_default(const struct model_sys *sys, const struct model_task *t, int id)
{
	return t->req[id].slot == MODEL_NV &&
	       (!sys->cfg.task_group || t->tg == &sys->root_tg);
}

/* VT1 (b)-(d): the slot a task would be counted in now. */
static int task_slot(const struct model_sys *sys, const struct model_task *t, int id)
{
	const struct model_se *req = &t->req[id];
	const struct model_se *eff;

	if (in_default(sys, t, id))
		return sys->dflt[id].slot;
	if (!sys->cfg.task_group)
		return req->slot;
	/* a group limits boosts and caps: the smaller wins, MIN may exceed MAX (VT3) */
	eff = &t->tg->eff[id];
	if (req->slot == MODEL_NV || req->value > eff->value)
		return eff->slot;
	return req->slot;
}

/* VT1 (a): a counted task reports the slot it is counted in. */
static int eff_slot(const struct model_sys *sys, const struct model_task *t, int id)
{
	if (t->acc_slot[id] != MODEL_NV)
		return t->acc_slot[id];
	return task_slot(sys, t, id);
}

/* VT2: the slot's value, none(id) when there is no valid one. */
static int slot_value(const struct model_sys *sys, int id, int s)
{
	int v = s == MODEL_NV ? MODEL_NV : sys->slot[id][s].value;

	return v == MODEL_NV ? model_none(id) : v;
}

/* VR6: max over the active slots; none left: MIN invalid, MAX keeps @last. */
static void rescan(const struct model_sys *sys, struct model_cpu *rq, int id, int last)
{
	int max = MODEL_NV;

	for (int s = 0; s <= last_slot(sys); s++) {
		const struct model_bucket *b = &rq->bucket[id][s];

		if (!b->tasks || b->value <= max)
			continue;
		max = b->value;
		if (max >= MODEL_SCALE)
			break;
	}
	if (max == MODEL_NV && id == MODEL_UCLAMP_MAX) {
		rq->is_idle = true;	/* VR11 */
		max = last;
	}
	rq->value[id] = max;
}

/* VR4: count @t on @cpu for @id. */
static void count(struct model_sys *sys, struct model_task *t, int cpu, int id)
{
	struct model_cpu *rq = &sys->cpu[cpu];
	int s = task_slot(sys, t, id);
	int v;

	if (s == MODEL_NV)
		return;
	/* VQ3: without TASK_GROUP the seed's default points at a slot 0 it never set up */
	if (is_seed(sys) && !sys->cfg.task_group && in_default(sys, t, id) &&
	    !sys->dflt[id].user_defined)
		sys->is_undefined = true;
	rq->bucket[id][s].tasks++;
	sys->slot[id][s].nr_counted++;
	v = sys->slot[id][s].value;
	t->nr_counts++;
	t->acc_slot[id] = s;
	t->acc_value[id] = v;
	if (rq->is_idle) {
		/* VR11: idle exit overwrites, MIN then MAX; MAX clears the flag */
		rq->value[id] = v;
		if (id == MODEL_UCLAMP_MAX)
			rq->is_idle = false;
	} else if (rq->value[id] < v) {
		rq->value[id] = v;
	}
}

/* VR5: uncount @t from its CPU for @id. */
static void uncount(struct model_sys *sys, struct model_task *t, int id)
{
	struct model_cpu *rq = &sys->cpu[t->cpu];
	struct model_slot *sl;
	struct model_bucket *b;
	int s = t->acc_slot[id];

	if (s == MODEL_NV)
		return;
	b = &rq->bucket[id][s];
	if (b->tasks == 0)
		b->tasks = 1;		/* debug kernels warn and treat it as 1 */
	b->tasks--;
	t->acc_slot[id] = MODEL_NV;
	t->acc_value[id] = MODEL_NV;
	if (!b->tasks && b->value >= rq->value[id])
		rescan(sys, rq, id, b->value);
	sl = &sys->slot[id][s];
	if (sl->nr_counted)
		sl->nr_counted--;
	/* intent: the last counted task of a slot without holders frees it (VR12) */
	if (!is_seed(sys) && !sl->nr_counted && !sl->se_count && sl->value != MODEL_NV)
		slot_set(sys, id, s, MODEL_NV);
}

/* VR9: a counted task is recounted so the aggregate sees its new slot. */
static void redo(struct model_sys *sys, struct model_task *t, int id)
{
	int cpu = t->cpu;

	if (t->acc_slot[id] == MODEL_NV)
		return;
	uncount(sys, t, id);
	count(sys, t, cpu, id);
}

static void init(struct model_sys *sys)
{
	for (int id = 0; id < MODEL_UCLAMP_CNT; id++) {
		for (int s = 0; s < MODEL_MAX_SLOTS; s++)
			slot_set(sys, id, s, MODEL_NV);
		for (unsigned int c = 0; c < sys->cfg.nr_cpus; c++)
			sys->cpu[c].value[id] = MODEL_NV;	/* VR1 */
		/* VT6: the root requests 1024 for both ids, in slot 0 */
		sys->root_tg.req[id] = (struct model_se){ MODEL_SCALE, 0, false };
		sys->root_tg.eff[id] = sys->root_tg.req[id];
		/* VT8: the default holder points at slot 0; user_defined = owns a ref */
		sys->dflt[id] = (struct model_se){ model_none(id), 0, false };
	}
	sys->sysctl[MODEL_SYSCTL_UTIL_MIN] = 0;			/* VP3 */
	sys->sysctl[MODEL_SYSCTL_UTIL_MAX] = sys->cfg.abi_scale;
	if (sys->cfg.no_uclamp_task)
		return;
	for (int id = 0; id < MODEL_UCLAMP_CNT; id++) {
		if (sys->cfg.task_group) {
			slot_set(sys, id, 0, model_none(id));	/* VG6 */
			sys->slot[id][0].se_count = 1;
		} else if (!is_seed(sys)) {
			slot_set(sys, id, 0, model_none(id));	/* VQ3 intent */
		}
		if (!is_seed(sys)) {
			sys->slot[id][0].se_count++;		/* VQ8 intent */
			sys->dflt[id].user_defined = true;
		}
	}
}

/* VT4: no request, nothing inherited; RESET_ON_FORK changes nothing here. */
static void task_init(struct model_sys *sys, struct model_task *t)
{
	(void)sys;
	for (int id = 0; id < MODEL_UCLAMP_CNT; id++)
		t->req[id] = (struct model_se){ model_none(id), MODEL_NV, false };
}

static void fork_task(struct model_sys *sys, const struct model_task *parent,
		      struct model_task *child)
{
	(void)sys;
	(void)parent;
	(void)child;		/* VT4: model_task_init() already gave the defaults */
}

/* VG8: intent drops a dead task's references, the seed leaks them. */
static void exit_task(struct model_sys *sys, struct model_task *t)
{
	if (is_seed(sys))
		return;
	for (int id = 0; id < MODEL_UCLAMP_CNT; id++) {
		put_slot(sys, id, t->req[id].slot);
		t->req[id].slot = MODEL_NV;
	}
}

static void class_changed(struct model_sys *sys, struct model_task *t,
			  enum model_class old_cls)
{
	(void)sys;
	(void)t;
	(void)old_cls;		/* v3 has no per-class default */
}

/* VR2, VR4: both ids, MIN first; model.c passes only fair and RT tasks (VR3). */
static void enqueue(struct model_sys *sys, struct model_task *t, int cpu)
{
	if (sys->cfg.no_uclamp_task)
		return;
	for (int i = 0; i < MODEL_UCLAMP_CNT; i++)
		count(sys, t, cpu, clamp_ids[i]);
}

/* VR2, VR5 */
static void dequeue(struct model_sys *sys, struct model_task *t)
{
	for (int i = 0; i < MODEL_UCLAMP_CNT; i++)
		uncount(sys, t, clamp_ids[i]);
}

/* VT1, VT2; model.c reads the aggregate (VR7) and clamps with it (VR8). */
static int task_eff(const struct model_sys *sys, const struct model_task *t,
		    enum model_clamp_id id, int *slot)
{
	int s = sys->cfg.no_uclamp_task ? MODEL_NV : eff_slot(sys, t, id);

	if (slot)
		*slot = s;
	return slot_value(sys, id, s);
}

/* ---- requests: sched_setattr, sysctl, cgroup files ---- */

static bool policy_valid(int policy)
{
	switch (policy) {
	case MODEL_SCHED_NORMAL:
	case MODEL_SCHED_FIFO:
	case MODEL_SCHED_RR:
	case MODEL_SCHED_BATCH:
	case MODEL_SCHED_IDLE:
	case MODEL_SCHED_DEADLINE:
		return true;
	}
	return false;
}

static enum model_class policy_class(int policy)
{
	if (policy == MODEL_SCHED_FIFO || policy == MODEL_SCHED_RR)
		return MODEL_CLASS_RT;
	if (policy == MODEL_SCHED_DEADLINE)
		return MODEL_CLASS_DL;
	return MODEL_CLASS_FAIR;
}

/*
 * VA4 bounds of one id, @v in ABI units. Both flags compare the two new
 * values; one flag compares with the task's stored request, which the seed
 * does in internal units against a percent (VQ1). A stored request is never
 * NV (fork sets 0/1024), so the kernel's NV fallbacks never apply.
 */
static bool clamp_invalid(const struct model_sys *sys, const struct model_task *t,
			  int id, const bool *want, const unsigned int *v)
{
	unsigned int scale = sys->cfg.abi_scale;
	bool both = want[MODEL_UCLAMP_MIN] && want[MODEL_UCLAMP_MAX];
	int other;

	if (id == MODEL_UCLAMP_MIN) {
		if (both)
			return v[id] > v[MODEL_UCLAMP_MAX];
		other = t->req[MODEL_UCLAMP_MAX].value;
		if (is_seed(sys))
			return v[id] > (unsigned int)other;
		return v[id] > scale || from_abi(sys, v[id]) > other;
	}
	if (v[id] > scale)
		return true;
	if (both)
		return v[id] < v[MODEL_UCLAMP_MIN];
	other = t->req[MODEL_UCLAMP_MIN].value;
	if (is_seed(sys))
		return v[id] < (unsigned int)other;
	return from_abi(sys, v[id]) < other;
}

/* VG4 for a task holder: reference, recount if queued (VR9), release. */
static void attach_task(struct model_sys *sys, struct model_task *t, int id, int s, int v)
{
	int old = t->req[id].slot;

	get_slot(sys, id, s, &t->req[id], v);
	t->req[id].user_defined = true;
	redo(sys, t, id);
	put_slot(sys, id, old);
}

/*
 * VA4: check every requested id (MIN first), find their slots, then attach
 * them all or none. Returns the slot found last (VA4b) or a negative errno.
 */
static int set_clamps(struct model_sys *sys, struct model_task *t,
		      unsigned long long flags, const unsigned int *v)
{
	bool want[MODEL_UCLAMP_CNT] = {
		flags & MODEL_V3_FLAG_UTIL_CLAMP_MIN, flags & MODEL_V3_FLAG_UTIL_CLAMP_MAX,
	};
	int slot[MODEL_UCLAMP_CNT];
	int ret = 0;

	for (int id = 0; id < MODEL_UCLAMP_CNT; id++) {
		if (!want[id])
			continue;
		if (clamp_invalid(sys, t, id, want, v))
			return -EINVAL;
		ret = find(sys, id, find_key(sys, v[id]));
		if (ret < 0)
			return ret;	/* VG7 */
		slot[id] = ret;
	}
	for (int id = 0; id < MODEL_UCLAMP_CNT; id++)
		if (want[id])
			attach_task(sys, t, id, slot[id], from_abi(sys, v[id]));
	return ret;
}

/*
 * VA2-VA7: the base checks in the kernel's order, the clamp block, then the
 * policy part. util_min/util_max beyond attr->size read as 0 (VA6).
 */
static int setattr(struct model_sys *sys, struct model_task *t,
		   const struct model_attr *attr)
{
	unsigned int size = attr->size ? attr->size : MODEL_SCHED_ATTR_SIZE_VER0;
	unsigned long long flags = attr->flags;
	unsigned int v[MODEL_UCLAMP_CNT];
	enum model_class cls;
	int ret;

	if (t->is_dead)
		return -ESRCH;
	if (size < MODEL_SCHED_ATTR_SIZE_VER0)
		return -E2BIG;
	/* VA6/VQ2: the seed never checks the size for clamp flags */
	if ((flags & FLAG_CLAMP) && size < MODEL_SCHED_ATTR_SIZE_VER1 && !is_seed(sys))
		return -EINVAL;
	v[MODEL_UCLAMP_MIN] = size >= ATTR_SIZE_UTIL_MIN ? attr->util_min : 0;
	v[MODEL_UCLAMP_MAX] = size >= MODEL_SCHED_ATTR_SIZE_VER1 ? attr->util_max : 0;
	/* VA3: policy, then flags; -1 keeps the task's policy */
	if (attr->policy != -1 && !policy_valid(attr->policy))
		return -EINVAL;
	if (flags & ~(MODEL_V3_FLAG_ALL | FLAG_SUGOV))
		return -EINVAL;
	if (flags & FLAG_CLAMP) {
		if (sys->cfg.no_uclamp_task)
			return -EINVAL;		/* VA7 */
		ret = set_clamps(sys, t, flags, v);
		if (ret < 0)
			return ret;
		/* VA4b/VQ11: the seed returns a non-zero slot, skipping the policy */
		if (ret > 0 && is_seed(sys))
			return ret;
	}
	if (attr->policy == -1)
		return 0;
	/* VA5: no KEEP_POLICY flag, the given policy always applies */
	t->reset_on_fork = flags & MODEL_FLAG_RESET_ON_FORK;
	cls = policy_class(attr->policy);
	if (cls != t->cls)
		model_task_set_class(sys, t, cls);
	return 0;
}

/* VA8: the effective values (VT1/VT2) in ABI units. */
static int getattr(const struct model_sys *sys, const struct model_task *t,
		   unsigned int *util_min, unsigned int *util_max)
{
	if (t->is_dead)
		return -ESRCH;
	if (sys->cfg.no_uclamp_task) {
		*util_min = 0;
		*util_max = 0;
		return 0;
	}
	*util_min = to_abi(sys, slot_value(sys, MODEL_UCLAMP_MIN, eff_slot(sys, t, MODEL_UCLAMP_MIN)));
	*util_max = to_abi(sys, slot_value(sys, MODEL_UCLAMP_MAX, eff_slot(sys, t, MODEL_UCLAMP_MAX)));
	return 0;
}

/* VG4 for the default holder; no task is recounted (VR12). */
static void attach_default(struct model_sys *sys, int id, int s, int v)
{
	struct model_se *d = &sys->dflt[id];
	int old = d->slot;

	/* VQ8: the seed's first change releases a slot 0 it never referenced */
	if (!d->user_defined)
		sys->is_undefined = true;
	get_slot(sys, id, s, d, v);
	d->user_defined = true;
	put_slot(sys, id, old);
}

/*
 * VP4: one sysctl file written with @value (proc_dointvec range). Invalid
 * pairs are silently undone by the seed (VQ4); a non-zero slot makes the seed
 * undo the visible values while keeping the new defaults (VQ10).
 */
static int sysctl_write(struct model_sys *sys, enum model_sysctl which, long long value)
{
	unsigned int *cur = sys->sysctl;
	unsigned int old_min = cur[MODEL_SYSCTL_UTIL_MIN];
	unsigned int old_max = cur[MODEL_SYSCTL_UTIL_MAX];
	int id = which == MODEL_SYSCTL_UTIL_MIN ? MODEL_UCLAMP_MIN : MODEL_UCLAMP_MAX;
	int ret;

	if (sys->cfg.no_uclamp_task || which == MODEL_SYSCTL_UTIL_MIN_RT_DEFAULT)
		return -ENOENT;
	if (value < INT_MIN || value > INT_MAX)
		return -EINVAL;
	cur[which] = (unsigned int)(int)value;	/* negatives wrap to huge */
	if (cur[MODEL_SYSCTL_UTIL_MIN] > cur[MODEL_SYSCTL_UTIL_MAX] ||
	    cur[MODEL_SYSCTL_UTIL_MAX] > sys->cfg.abi_scale) {
		ret = is_seed(sys) ? 0 : -EINVAL;
		goto undo;
	}
	if (cur[which] == (which == MODEL_SYSCTL_UTIL_MIN ? old_min : old_max))
		return 0;
	ret = find(sys, id, find_key(sys, cur[which]));
	if (ret < 0)
		goto undo;		/* VG7 */
	attach_default(sys, id, ret, from_abi(sys, cur[which]));
	if (ret == 0 || !is_seed(sys))
		return 0;
undo:
	cur[MODEL_SYSCTL_UTIL_MIN] = old_min;
	cur[MODEL_SYSCTL_UTIL_MAX] = old_max;
	return ret;
}

/*
 * VT5: copy the parent's requests (a ref each, so MAX defaults to 1024, not the
 * docs' 1023: VQ9) and, under fidelity=seed, its effective values; under
 * intent the effective values follow VT7 (VT6); autogroups alike (VT9).
 */
static int tg_init(struct model_sys *sys, struct model_tg *tg)
{
	struct model_tg *parent = tg->parent;
	int value[MODEL_UCLAMP_CNT], slot[MODEL_UCLAMP_CNT];

	for (int id = 0; id < MODEL_UCLAMP_CNT; id++) {
		tg->req[id] = (struct model_se){ model_none(id), MODEL_NV, false };
		tg->eff[id] = tg->req[id];
	}
	if (!sys->cfg.task_group || sys->cfg.no_uclamp_task)
		return 0;
	for (int id = 0; id < MODEL_UCLAMP_CNT; id++) {
		value[id] = parent->req[id].value;
		/* VQ6 intent: the root's MIN 1024 only allows; children start at 0 */
		if (!is_seed(sys) && id == MODEL_UCLAMP_MIN && parent == &sys->root_tg)
			value[id] = 0;
		slot[id] = find(sys, id, value[id]);
		if (slot[id] < 0)
			goto unlink;
	}
	for (int id = 0; id < MODEL_UCLAMP_CNT; id++) {
		get_slot(sys, id, slot[id], &tg->req[id], value[id]);
		tg->eff[id] = parent->eff[id];
		/* VT6 intent: VT7 applies from creation, so root's MIN 1024 only allows */
		if (!is_seed(sys) && tg->req[id].value <= parent->eff[id].value) {
			tg->eff[id].value = tg->req[id].value;
			tg->eff[id].slot = tg->req[id].slot;
		}
	}
	return 0;

unlink:
	/*
	 * Only a seed child of root, whose MIN copies 1024 (VG6), gets here: debug
	 * kernels fail the creation, others index slot -ENOSPC.
	 */
	parent->child = tg->sibling;
	sys->is_undefined = true;
	return -ENOMEM;
}

/* Pre-order successor of @g within the subtree of @top, skipping @g's children. */
static struct model_tg *next_skip(struct model_tg *g, const struct model_tg *top)
{
	for (; g != top; g = g->parent)
		if (g->sibling)
			return g->sibling;
	return NULL;
}

static struct model_tg *next_pre(struct model_tg *g, const struct model_tg *top)
{
	return g->child ? g->child : next_skip(g, top);
}

/* VT7 intent: eff = req if it fits under the parent's eff, else the parent's. */
static void update_eff(struct model_tg *top, int id)
{
	struct model_tg *g = top;

	while (g) {
		const struct model_se *pe = &g->parent->eff[id];
		struct model_se *eff = &g->eff[id];
		const struct model_se *want = &g->req[id];

		if (want->value > pe->value)
			want = pe;
		if (want->value == eff->value && want->slot == eff->slot) {
			g = next_skip(g, top);	/* descendants only follow eff */
			continue;
		}
		eff->value = want->value;
		eff->slot = want->slot;
		g = next_pre(g, top);
	}
}

/*
 * VT7 seed: the reconstructed p09 walk with p10/p11 slot tracking. A relaxed
 * descendant keeps its old effective slot under its new value (VQ7).
 */
static void update_eff_seed(struct model_sys *sys, struct model_tg *top, int id)
{
	struct model_tg *g = top;

	while (g) {
		const struct model_se *pe = &g->parent->eff[id];
		struct model_se *eff = &g->eff[id];
		int value = g->req[id].value, slot = g->req[id].slot;
		bool is_stale = false;

		if (g != top) {
			slot = eff->slot;
			is_stale = true;
		}
		if (eff->value == value && pe->value >= value) {
			g = next_skip(g, top);
			continue;
		}
		if (pe->value < value) {
			value = pe->value;
			slot = pe->slot;
			is_stale = false;
		}
		if (eff->value != value) {
			if (is_stale && slot_value(sys, id, slot) != value)
				sys->is_undefined = true;	/* VQ7 */
			eff->value = value;
			eff->slot = slot;
		}
		g = next_pre(g, top);
	}
}

static bool in_subtree(const struct model_tg *g, const struct model_tg *top)
{
	for (; g; g = g->parent)
		if (g == top)
			return true;
	return false;
}

/* VR10: recount the queued tasks under @top whose slot for @id changed. */
static void reaccount(struct model_sys *sys, const struct model_tg *top, int id)
{
	for (unsigned int c = 0; c < sys->cfg.nr_cpus; c++) {
		struct model_node *n;

		model_list_for_each(n, &sys->cpu[c].queued) {
			struct model_task *t = model_container_of(n, struct model_task, rq_node);

			if (t->acc_slot[id] == MODEL_NV ||
			    task_slot(sys, t, id) == t->acc_slot[id] || !in_subtree(t->tg, top))
				continue;
			redo(sys, t, id);
		}
	}
}

/*
 * VA9, VA10: range, no-op, MIN/MAX order, find, then propagate (VT7), reference
 * (VG4), recount (VR10) and release the old slot last.
 */
static int tg_write(struct model_sys *sys, struct model_tg *tg, enum model_clamp_id id,
		    const char *buf)
{
	unsigned long long in;
	int v, s, old, ret;

	if (!sys->cfg.task_group || sys->cfg.no_uclamp_task)
		return -ENOENT;
	ret = model_v3_cgroup_parse(buf, &in);
	if (ret)
		return ret;
	if (in > sys->cfg.abi_scale)
		return -ERANGE;
	v = from_abi(sys, (unsigned int)in);
	if (tg->req[id].value == v)
		return 0;
	if (id == MODEL_UCLAMP_MIN ? v > tg->req[MODEL_UCLAMP_MAX].value
				   : v < tg->req[MODEL_UCLAMP_MIN].value)
		return -EINVAL;
	s = find(sys, id, v);
	if (s < 0)
		return s;	/* VG7 */
	old = tg->req[id].slot;
	get_slot(sys, id, s, &tg->req[id], v);
	if (is_seed(sys))
		update_eff_seed(sys, tg, id);
	else
		update_eff(tg, id);
	reaccount(sys, tg, id);
	put_slot(sys, id, old);
	return 0;
}

/* VA9, VA11: the requested or effective value as the file shows it. */
static int tg_read(const struct model_sys *sys, const struct model_tg *tg,
		   enum model_clamp_id id, bool effective, char *buf, size_t len)
{
	if (!sys->cfg.task_group || sys->cfg.no_uclamp_task)
		return -ENOENT;
	return model_v3_cgroup_format(to_abi(sys, effective ? tg->eff[id].value
							    : tg->req[id].value),
				      buf, len);
}

const struct model_ops model_v3_ops = {
	.init		= init,
	.task_init	= task_init,
	.tg_init	= tg_init,
	.setattr	= setattr,
	.getattr	= getattr,
	.sysctl_write	= sysctl_write,
	.tg_write	= tg_write,
	.tg_read	= tg_read,
	.fork		= fork_task,
	.exit		= exit_task,
	.class_changed	= class_changed,
	.enqueue	= enqueue,
	.dequeue	= dequeue,
	.task_eff	= task_eff,
};
