// SPDX-License-Identifier: MIT
/*
 * The variant-agnostic face of the model: configuration, boot, tasks and
 * groups, the reads, and dispatch to v3.c or mainline.c through their ops
 * tables (variant.h). Queue changes go through rq.c.
 */
#include <errno.h>
#include <string.h>

#include "model.h"
#include "variant.h"

/* The first mainline release with uclamp (uclamp-mainline.md §1). */
#define KVER_MAINLINE_FIRST	MODEL_KVER(5, 3, 0)
/* Mainline era used when nothing else is known: Debian 12's kernel. */
#define KVER_MAINLINE_DEFAULT	MODEL_KVER(6, 1, 0)
/* Largest field of a release MODEL_KVER() can hold. */
#define KVER_FIELD_MAX		255

/**
 * model_config_default() - fill @cfg with the Kconfig defaults of @variant
 * @cfg: the configuration to fill
 * @variant: MODEL_V3 or MODEL_MAINLINE
 * @nr_cpus: CPUs of the system
 *
 * v3: 5 groups (VG1), TASK_GROUP, percent ABI (VA1), fidelity intent.
 * mainline: 5 buckets (MB1), TASK_GROUP, release 6.1.
 */
void model_config_default(struct model_config *cfg, enum model_variant variant,
			  unsigned int nr_cpus)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->variant = variant;
	cfg->fidelity = MODEL_INTENT;
	cfg->groups = MODEL_DEFAULT_GROUPS;
	cfg->task_group = true;
	cfg->nr_cpus = nr_cpus;
	if (variant == MODEL_V3) {
		cfg->kver = MODEL_KVER_V3;
		cfg->abi_scale = 100;
	} else {
		cfg->kver = KVER_MAINLINE_DEFAULT;
		cfg->abi_scale = MODEL_SCALE;
	}
}

/**
 * model_config_check() - validate a configuration
 * @cfg: the configuration
 *
 * Return: 0, or -EINVAL when the group/bucket count is outside the Kconfig
 * range of the variant (VG1: 0..32; MB1: 5..20), there is no CPU, the ABI
 * scale is neither 100 nor 1024 (v3) or not 1024 (mainline), or a mainline
 * release predates uclamp (5.3).
 */
int model_config_check(const struct model_config *cfg)
{
	if (cfg->nr_cpus == 0)
		return -EINVAL;
	switch (cfg->variant) {
	case MODEL_V3:
		if (cfg->groups > MODEL_V3_MAX_GROUPS)
			return -EINVAL;
		if (cfg->abi_scale != 100 && cfg->abi_scale != MODEL_SCALE)
			return -EINVAL;
		return 0;
	case MODEL_MAINLINE:
		if (cfg->groups < MODEL_ML_MIN_BUCKETS || cfg->groups > MODEL_ML_MAX_BUCKETS)
			return -EINVAL;
		if (cfg->abi_scale != MODEL_SCALE || cfg->kver < KVER_MAINLINE_FIRST)
			return -EINVAL;
		return 0;
	}
	return -EINVAL;
}

static const char *parse_kver_field(const char *s, unsigned int *out)
{
	unsigned int v = 0;

	if (*s < '0' || *s > '9')
		return NULL;
	while (*s >= '0' && *s <= '9') {
		v = v * 10 + (unsigned int)(*s - '0');
		if (v > KVER_FIELD_MAX)
			return NULL;
		s++;
	}
	*out = v;
	return s;
}

/**
 * model_kver_parse() - parse a kernel release string
 * @release: "6.1.0-13-amd64", "4.11.0-rc6", "5.4" ... (uname -r)
 * @kver: MODEL_KVER() of its first two or three numbers
 *
 * Return: 0, or -EINVAL when it does not start with "A.B".
 */
int model_kver_parse(const char *release, unsigned int *kver)
{
	unsigned int a, b, c = 0;
	const char *s = release;

	if (!s)
		return -EINVAL;
	s = parse_kver_field(s, &a);
	if (!s || *s != '.')
		return -EINVAL;
	s = parse_kver_field(s + 1, &b);
	if (!s)
		return -EINVAL;
	if (*s == '.' && s[1] >= '0' && s[1] <= '9') {
		s = parse_kver_field(s + 1, &c);
		if (!s)
			c = KVER_FIELD_MAX;	/* 4.19.300 and the like: stable, same era */
	}
	*kver = MODEL_KVER(a, b, c);
	return 0;
}

/**
 * model_init() - boot a model
 * @sys: the system state to initialize (caller storage)
 * @cfg: a configuration model_config_check() accepts
 * @cpus: cfg->nr_cpus CPUs (caller storage, owned by @sys until it is dropped)
 *
 * Return: 0 or -EINVAL for a bad configuration.
 */
int model_init(struct model_sys *sys, const struct model_config *cfg,
	       struct model_cpu *cpus)
{
	int err = model_config_check(cfg);

	if (err)
		return err;
	memset(sys, 0, sizeof(*sys));
	sys->cfg = *cfg;
	sys->ops = cfg->variant == MODEL_V3 ? &model_v3_ops : &model_mainline_ops;
	sys->cpu = cpus;
	memset(cpus, 0, sizeof(*cpus) * cfg->nr_cpus);
	for (unsigned int c = 0; c < cfg->nr_cpus; c++)
		model_list_init(&cpus[c].queued);
	sys->ops->init(sys);
	return 0;
}

/**
 * model_task_init() - a task the model has never seen (or a new one)
 * @sys: the system
 * @t: caller storage for the task; fully overwritten
 * @pid: its pid
 * @cls: its class
 *
 * The task is in the root group, not queued, with the variant's default
 * requests (VT4, MT4).
 */
void model_task_init(struct model_sys *sys, struct model_task *t, int pid,
		     enum model_class cls)
{
	memset(t, 0, sizeof(*t));
	t->pid = pid;
	t->cls = cls;
	t->tg = &sys->root_tg;
	t->cpu = -1;
	for (int id = 0; id < MODEL_UCLAMP_CNT; id++) {
		t->acc_slot[id] = MODEL_NV;
		t->acc_value[id] = MODEL_NV;
	}
	model_list_init(&t->rq_node);
	sys->ops->task_init(sys, t);
}

/**
 * model_tg_init() - create a task group under @parent (VT5, MT5)
 * @sys: the system
 * @tg: caller storage for the group
 * @parent: its parent, NULL for a child of the root group
 *
 * Return: 0 or a negative errno of the variant.
 */
int model_tg_init(struct model_sys *sys, struct model_tg *tg, struct model_tg *parent)
{
	memset(tg, 0, sizeof(*tg));
	tg->parent = parent ? parent : &sys->root_tg;
	tg->sibling = tg->parent->child;
	tg->parent->child = tg;
	return sys->ops->tg_init(sys, tg);
}

int model_setattr(struct model_sys *sys, struct model_task *t,
		  const struct model_attr *attr)
{
	return sys->ops->setattr(sys, t, attr);
}

int model_getattr(const struct model_sys *sys, const struct model_task *t,
		  unsigned int *util_min, unsigned int *util_max)
{
	return sys->ops->getattr(sys, t, util_min, util_max);
}

int model_sysctl_write(struct model_sys *sys, enum model_sysctl which, long long value)
{
	if ((unsigned int)which >= MODEL_SYSCTL_CNT)
		return -EINVAL;
	return sys->ops->sysctl_write(sys, which, value);
}

int model_tg_write(struct model_sys *sys, struct model_tg *tg, enum model_clamp_id id,
		   const char *buf)
{
	if ((unsigned int)id >= MODEL_UCLAMP_CNT || !tg->parent)
		return -EINVAL;
	return sys->ops->tg_write(sys, tg, id, buf);
}

int model_tg_read(const struct model_sys *sys, const struct model_tg *tg,
		  enum model_clamp_id id, bool effective, char *buf, size_t len)
{
	if ((unsigned int)id >= MODEL_UCLAMP_CNT)
		return -EINVAL;
	return sys->ops->tg_read(sys, tg, id, effective, buf, len);
}

/**
 * model_task_fork() - a new task forked from @parent (VT4, MA7)
 * @sys: the system
 * @parent: the forking task
 * @child: caller storage for the child, not queued afterwards
 * @child_pid: the child's pid
 */
void model_task_fork(struct model_sys *sys, const struct model_task *parent,
		     struct model_task *child, int child_pid)
{
	model_task_init(sys, child, child_pid, parent->cls);
	child->tg = parent->tg;
	sys->ops->fork(sys, parent, child);
}

/**
 * model_task_exit() - the task is gone for good (VG8)
 * @sys: the system
 * @t: the task; dequeued first if it is still queued
 *
 * Call it at the task's final switch (prev_state X, Z or I after its exit)
 * or at sched_process_free, whichever comes first.
 */
void model_task_exit(struct model_sys *sys, struct model_task *t)
{
	if (t->is_dead)
		return;
	if (t->cpu >= 0)
		model_dequeue(sys, t);
	t->is_dead = true;
	sys->ops->exit(sys, t);
}

/* MR2: mainline 5.9+ has the static key sched_uclamp_used, and it is off. */
static bool is_key_off(const struct model_sys *sys)
{
	return sys->cfg.variant == MODEL_MAINLINE && sys->cfg.kver >= MODEL_KVER(5, 9, 0) &&
	       !sys->is_uclamp_used;
}

/**
 * model_task_shown_counted() - the kernel shows @t counted on its runqueue
 * @sys: the system
 * @t: the task, queued or not
 *
 * Mainline 5.9+ counts nothing while the static key sched_uclamp_used is off
 * (MR2), and the trace does not show when it turns on: a sched_setattr's
 * marker follows the call that turned it on, and tasks enqueued in between
 * were counted. A task shown counted at its enqueue (its effective clamp
 * traced by uclamp_rq_inc_id()) says the key is on: it is turned on here,
 * and @t, if queued and not counted yet, is counted as its enqueue did.
 * Nothing changes for v3 or once the key is on.
 */
void model_task_shown_counted(struct model_sys *sys, struct model_task *t)
{
	if (!is_key_off(sys) || sys->cfg.no_uclamp_task)
		return;
	sys->is_uclamp_used = true;	/* MR2 */
	if (t->cpu >= 0 && model_class_counted(t->cls) && t->acc_slot[MODEL_UCLAMP_MIN] == MODEL_NV)
		model_requeue(sys, t);
}

/**
 * model_task_move_tg() - a task moves to another cgroup (VR12, MT5)
 * @sys: the system
 * @t: the task
 * @tg: the new group
 *
 * The kernel dequeues and enqueues a queued task around the move (VR2, MR1),
 * so its rq accounting follows at once.
 */
void model_task_move_tg(struct model_sys *sys, struct model_task *t, struct model_tg *tg)
{
	int cpu = t->cpu;

	if (cpu >= 0)
		model_dequeue(sys, t);
	t->tg = tg ? tg : &sys->root_tg;
	if (cpu >= 0)
		model_enqueue(sys, t, cpu);
}

/**
 * model_rq_value() - the rq clamp of @cpu as schedutil reads it (VR7, MR8)
 * @sys: the system
 * @cpu: the CPU
 * @id: MODEL_UCLAMP_MIN or MODEL_UCLAMP_MAX
 *
 * Return: the aggregate, or none(id) while it is not valid (v3 boot, VR7).
 */
int model_rq_value(const struct model_sys *sys, int cpu, enum model_clamp_id id)
{
	int v = sys->cpu[cpu].value[id];

	return v == MODEL_NV ? model_none(id) : v;
}

bool model_rq_is_idle(const struct model_sys *sys, int cpu)
{
	return sys->cpu[cpu].is_idle;
}

int model_task_eff(const struct model_sys *sys, const struct model_task *t,
		   enum model_clamp_id id, int *slot)
{
	return sys->ops->task_eff(sys, t, id, slot);
}

/**
 * model_clamp_util() - clamp @util into [@rq_min, @rq_max]
 * @variant: decides the inversion rule
 * @util: utilization
 * @rq_min: UCLAMP_MIN aggregate
 * @rq_max: UCLAMP_MAX aggregate
 *
 * v3 (VR8): min(max(util, min), max), so on inversion the max wins.
 * mainline (MS1): if min >= max the min wins, else clamp().
 */
unsigned int model_clamp_util(enum model_variant variant, unsigned int util,
			      int rq_min, int rq_max)
{
	unsigned int lo = (unsigned int)rq_min, hi = (unsigned int)rq_max;

	if (variant == MODEL_MAINLINE && lo >= hi)
		return lo;
	if (util < lo)
		util = lo;
	if (util > hi)
		util = hi;
	return util;
}

/**
 * model_rq_clamp_util() - @util clamped by the rq clamps of @cpu (VR8, MS1)
 * @sys: the system
 * @cpu: the CPU
 * @util: utilization
 */
unsigned int model_rq_clamp_util(const struct model_sys *sys, int cpu, unsigned int util)
{
	/* MS1: 5.9+ returns util unchanged while the static key is off (MR2) */
	if (is_key_off(sys))
		return util;
	return model_clamp_util(sys->cfg.variant, util,
				model_rq_value(sys, cpu, MODEL_UCLAMP_MIN),
				model_rq_value(sys, cpu, MODEL_UCLAMP_MAX));
}
