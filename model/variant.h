/* SPDX-License-Identifier: MIT */
/*
 * model/variant.h - what a variant of the model implements: v3.c
 * uclamp-v3.md, mainline.c uclamp-mainline.md. model.c picks the table at
 * model_init() and dispatches to it; rq.c owns the queued lists and class
 * counts and calls the variant's accounting through sys->ops; a variant owns
 * clamp state and accounting.
 */
#ifndef UCVAL_MODEL_VARIANT_H
#define UCVAL_MODEL_VARIANT_H

#include <stdbool.h>
#include <stddef.h>

#include "types.h"

struct model_ops {
	/* boot state: root group, slots/defaults, per-CPU rq values (VG6, MB4) */
	void (*init)(struct model_sys *sys);
	/* a new task's requests (VT4, MT4); t is zeroed, pid/cls/tg/cpu/acc set */
	void (*task_init)(struct model_sys *sys, struct model_task *t);
	/* tg is zeroed and already linked under tg->parent (VT5, MT5) */
	int (*tg_init)(struct model_sys *sys, struct model_tg *tg);
	/* may call model_task_set_class() for attr->policy (MA5, VA5) */
	int (*setattr)(struct model_sys *sys, struct model_task *t,
		       const struct model_attr *attr);
	int (*getattr)(const struct model_sys *sys, const struct model_task *t,
		       unsigned int *util_min, unsigned int *util_max);
	int (*sysctl_write)(struct model_sys *sys, enum model_sysctl which, long long value);
	int (*tg_write)(struct model_sys *sys, struct model_tg *tg, enum model_clamp_id id,
			const char *buf);
	int (*tg_read)(const struct model_sys *sys, const struct model_tg *tg,
		       enum model_clamp_id id, bool effective, char *buf, size_t len);
	/* child was model_task_init()ed with the parent's class and group (VT4, MA7) */
	void (*fork)(struct model_sys *sys, const struct model_task *parent,
		     struct model_task *child);
	/* the task is gone: not queued any more (VG8) */
	void (*exit)(struct model_sys *sys, struct model_task *t);
	/* the class changed while the task was not queued (MT4 RT default) */
	void (*class_changed)(struct model_sys *sys, struct model_task *t,
			      enum model_class old_cls);
	/* clamp accounting of a fair/RT task on enqueue/dequeue (VR4/VR5, MR3/MR4) */
	void (*enqueue)(struct model_sys *sys, struct model_task *t, int cpu);
	void (*dequeue)(struct model_sys *sys, struct model_task *t);
	/* effective value and its slot/bucket (VT1/VT2, MT3) */
	int (*task_eff)(const struct model_sys *sys, const struct model_task *t,
			enum model_clamp_id id, int *slot);
};

/* The two tables: only model_init() refers to them. */
extern const struct model_ops model_v3_ops;
extern const struct model_ops model_mainline_ops;

#endif /* UCVAL_MODEL_VARIANT_H */
