/* SPDX-License-Identifier: MIT */
/*
 * model/types.h - the constants of the model and the objects it works on:
 * configuration, tasks, task groups, CPUs and the system they form. Every
 * object lives in storage the caller owns.
 */
#ifndef UCVAL_MODEL_TYPES_H
#define UCVAL_MODEL_TYPES_H

#include <stdbool.h>

#include "list.h"

/* Capacity scale: clamp values and utilization are in [0, MODEL_SCALE]. */
#define MODEL_SCALE		1024
/* UCLAMP_NOT_VALID: a free slot, an unset request, an uncounted task. */
#define MODEL_NV		(-1)
/* Slots per clamp id: v3 group 0 + CONFIG_UCLAMP_GROUPS_COUNT <= 32 (VG1). */
#define MODEL_V3_MAX_GROUPS	32
/* Mainline UCLAMP_BUCKETS_COUNT range (MB1). */
#define MODEL_ML_MIN_BUCKETS	5
#define MODEL_ML_MAX_BUCKETS	20
/* Storage per id: the larger of 33 v3 slots and 20 buckets + 1 (pre-5.13 index B, MB1). */
#define MODEL_MAX_SLOTS		(MODEL_V3_MAX_GROUPS + 1)
/* Defaults of the two Kconfig counts (VG1, MB1). */
#define MODEL_DEFAULT_GROUPS	5

/* Kernel release as one comparable number: MODEL_KVER(5, 14, 0). */
#define MODEL_KVER(a, b, c)	(((a) << 16) + ((b) << 8) + (c))
/* The v3 series is based on tip/sched/core of Aug 2018, ~v4.19 (uclamp-v3.md §0). */
#define MODEL_KVER_V3		MODEL_KVER(4, 19, 0)

/* sched_attr sizes (VA1, MA1). */
#define MODEL_SCHED_ATTR_SIZE_VER0	48
#define MODEL_SCHED_ATTR_SIZE_VER1	56

/* sched_flags common to both variants (VA2, MA1). */
#define MODEL_FLAG_RESET_ON_FORK	0x01
#define MODEL_FLAG_RECLAIM		0x02
#define MODEL_FLAG_DL_OVERRUN		0x04
/* v3 (VA2) */
#define MODEL_V3_FLAG_UTIL_CLAMP_MIN	0x10
#define MODEL_V3_FLAG_UTIL_CLAMP_MAX	0x20
#define MODEL_V3_FLAG_ALL		0x37
/* mainline (MA1) */
#define MODEL_ML_FLAG_KEEP_POLICY	0x08
#define MODEL_ML_FLAG_KEEP_PARAMS	0x10
#define MODEL_ML_FLAG_UTIL_CLAMP_MIN	0x20
#define MODEL_ML_FLAG_UTIL_CLAMP_MAX	0x40
#define MODEL_ML_FLAG_ALL		0x7f

enum model_clamp_id {
	MODEL_UCLAMP_MIN = 0,
	MODEL_UCLAMP_MAX = 1,
	MODEL_UCLAMP_CNT = 2,
};

enum model_variant {
	MODEL_V3,
	MODEL_MAINLINE,
};

/* v3 only (uclamp-v3.md §0): the series' design, or its code defects included. */
enum model_fidelity {
	MODEL_INTENT,
	MODEL_SEED,
};

/* Scheduling class of a task, from its policy or its trace prio (uclamp-v3.md §9). */
enum model_class {
	MODEL_CLASS_FAIR,	/* SCHED_NORMAL, SCHED_BATCH, SCHED_IDLE: prio 100..139 */
	MODEL_CLASS_RT,		/* SCHED_FIFO, SCHED_RR: prio 0..99 */
	MODEL_CLASS_DL,		/* SCHED_DEADLINE: prio -1 */
	MODEL_CLASS_OTHER,	/* stop and idle tasks: never counted (VR3, MR1) */
};

/* Linux scheduling policies, as in sched_attr.sched_policy. */
enum model_policy {
	MODEL_SCHED_NORMAL = 0,
	MODEL_SCHED_FIFO = 1,
	MODEL_SCHED_RR = 2,
	MODEL_SCHED_BATCH = 3,
	MODEL_SCHED_IDLE = 5,
	MODEL_SCHED_DEADLINE = 6,
};

struct model_config {
	enum model_variant variant;
	enum model_fidelity fidelity;	/* v3 only; MODEL_INTENT by default */
	/* v3: CONFIG_UCLAMP_GROUPS_COUNT (0..32); mainline: buckets (5..20) */
	unsigned int groups;
	bool task_group;		/* CONFIG_UCLAMP_TASK_GROUP */
	/* release picking the mainline era (milestones, uclamp-mainline.md §1);
	 * MODEL_KVER_V3 for v3 */
	unsigned int kver;
	/* units of sched_attr, sysctl and cgroup values: v3 100 (percent ABI of p14)
	 * or 1024 (before p14); mainline always 1024 (events.md §3 `scale`) */
	unsigned int abi_scale;
	bool sched_class;		/* v3 feature UCLAMP_SCHED_CLASS (VS1.4), off by default */
	/* v3: kernel built without CONFIG_UCLAMP_TASK (VA7); false (uclamp on) by
	 * default, so zeroed configurations keep working */
	bool no_uclamp_task;
	unsigned int nr_cpus;
};

/*
 * A clamp value with where it is accounted:
 * v3: a holder's (value, slot) (VG2, VG4); slot MODEL_NV = not attached.
 * mainline: uclamp_se (value, bucket_id, user_defined) (MB3).
 */
struct model_se {
	int value;
	int slot;
	bool user_defined;
};

struct model_tg {
	struct model_tg *parent;	/* NULL for the root group */
	struct model_tg *child;		/* first child */
	struct model_tg *sibling;	/* next sibling */
	bool is_autogroup;		/* mainline MT2: treated like root */
	struct model_se req[MODEL_UCLAMP_CNT];	/* requested clamps (VT5, MT5) */
	struct model_se eff[MODEL_UCLAMP_CNT];	/* effective clamps (VT7, MT5) */
	/* mainline MA11: requested percent x100 as the user wrote it */
	unsigned int req_pct100[MODEL_UCLAMP_CNT];
};

struct model_task {
	int pid;
	enum model_class cls;
	struct model_tg *tg;			/* never NULL: &sys->root_tg by default */
	struct model_se req[MODEL_UCLAMP_CNT];	/* sched_setattr requests (VT1 b, MB3) */
	bool reset_on_fork;
	bool is_dead;				/* exited (VG8) */
	/* rq state (VR1, MB3) */
	int cpu;				/* CPU it is queued on, -1 when not queued */
	/* v3: acc[id], the slot it is counted in; mainline: bucket of p->uclamp[id]
	 * while active; MODEL_NV when not counted */
	int acc_slot[MODEL_UCLAMP_CNT];
	int acc_value[MODEL_UCLAMP_CNT];	/* value it was counted with (mainline p->uclamp[id].value) */
	unsigned int nr_counts;			/* counts so far, both ids (MR3; a tracer sees each) */
	struct model_node rq_node;		/* in its CPU's queued list */
	/* mainline MT4: sys->rt_gen when req[] was last set; older means the
	 * RT-default sysctl was written since (lazy sync of unset RT MIN requests) */
	unsigned int rt_gen;
};

/* Per-CPU mirror of a v3 slot, or a mainline bucket (VG1, MB2). */
struct model_bucket {
	int value;
	unsigned int tasks;
};

struct model_cpu {
	int value[MODEL_UCLAMP_CNT];	/* rq aggregate (VR1 agg, MB rq value); MODEL_NV = not valid */
	bool is_idle;			/* UCLAMP_FLAG_IDLE (VR6, MR4) */
	struct model_bucket bucket[MODEL_UCLAMP_CNT][MODEL_MAX_SLOTS];
	struct model_node queued;	/* every queued task, all classes */
	unsigned int nr_queued;
	unsigned int nr_rt;		/* queued RT tasks (VS1.2, S23) */
	unsigned int nr_dl;		/* queued DL tasks (S24) */
};

/* v3 system-wide clamp group (VG1). */
struct model_slot {
	int value;			/* MODEL_NV = free */
	unsigned int se_count;
	/* v3: tasks counted in this slot over all CPUs; fidelity=intent keeps a
	 * slot whose last holder left allocated until it drops to 0 (VR12) */
	unsigned int nr_counted;
};

enum model_sysctl {
	MODEL_SYSCTL_UTIL_MIN,		/* v3 sched_uclamp_util_min, mainline sched_util_clamp_min */
	MODEL_SYSCTL_UTIL_MAX,		/* v3 sched_uclamp_util_max, mainline sched_util_clamp_max */
	MODEL_SYSCTL_UTIL_MIN_RT_DEFAULT,	/* mainline 5.9+ only */
	MODEL_SYSCTL_CNT,
};

struct model_ops;

struct model_sys {
	struct model_config cfg;
	const struct model_ops *ops;
	struct model_cpu *cpu;			/* cfg.nr_cpus entries, caller storage */
	struct model_tg root_tg;
	/* v3: the clamp groups (VG1) */
	struct model_slot slot[MODEL_UCLAMP_CNT][MODEL_MAX_SLOTS];
	/* v3: the system-default holder (VT8, VP4); mainline: uclamp_default[] (MT1) */
	struct model_se dflt[MODEL_UCLAMP_CNT];
	/* values a sysctl read shows, in cfg.abi_scale units (VP3, MA8) */
	unsigned int sysctl[MODEL_SYSCTL_CNT];
	bool is_uclamp_used;			/* mainline static key sched_uclamp_used (MR2) */
	unsigned int rt_gen;			/* mainline MT4/MA8: RT-default sysctl changes */
	/* v3 seed fidelity: state the seed code leaves undefined (VQ3, VQ7, VQ8);
	 * a validator must mark what follows UNDECIDED, never guess */
	bool is_undefined;
};

/*
 * sched_setattr() arguments that matter for clamps. util_min/util_max are in
 * cfg.abi_scale units; mainline 5.11+ takes (unsigned int)-1 as "reset".
 */
struct model_attr {
	unsigned int size;		/* sched_attr size: 48 (VER0) or 56 (VER1) */
	unsigned long long flags;	/* sched_flags, decoded with the variant's bits */
	int policy;			/* enum model_policy, or -1: keep the task's */
	unsigned int util_min;
	unsigned int util_max;
};

/* The value of a clamp that does not clamp: 0 for MIN, MODEL_SCALE for MAX. */
static inline int model_none(enum model_clamp_id id)
{
	return id == MODEL_UCLAMP_MIN ? 0 : MODEL_SCALE;
}

#endif /* UCVAL_MODEL_TYPES_H */
