/* SPDX-License-Identifier: MIT */
/*
 * Reference model of utilization clamping: clamp groups (v3 seed series,
 * uclamp-v3.md) and buckets (mainline, uclamp-mainline.md), chosen at run time.
 * Pure C: no I/O, no allocation. Every object (tasks, task groups, CPUs) lives
 * in storage the caller owns; the model only links and updates it, so one
 * event costs O(groups) and memory grows with tasks and CPUs, never events.
 *
 * This header is the whole public API: the types (types.h, list.h), the
 * queues (rq.h), each variant's own functions (v3.h, v3_cgroup.h, mainline.h,
 * mainline_cgroup.h) and, below, the functions of model.c.
 */
#ifndef UCVAL_MODEL_H
#define UCVAL_MODEL_H

#include <stdbool.h>
#include <stddef.h>

#include "list.h"
#include "mainline.h"
#include "mainline_cgroup.h"
#include "rq.h"
#include "types.h"
#include "v3.h"
#include "v3_cgroup.h"

/* Configuration with every Kconfig default of the variant (v3: 5 groups, percent
 * ABI, TASK_GROUP on; mainline: 5 buckets, 6.1). */
void model_config_default(struct model_config *cfg, enum model_variant variant,
			  unsigned int nr_cpus);
/* 0 or -EINVAL when a count or the release is out of range for the variant. */
int model_config_check(const struct model_config *cfg);
/* Parse a release string ("6.1.0-13-amd64", "4.19.0-rc6+") into MODEL_KVER. */
int model_kver_parse(const char *release, unsigned int *kver);

int model_init(struct model_sys *sys, const struct model_config *cfg,
	       struct model_cpu *cpus);

void model_task_init(struct model_sys *sys, struct model_task *t, int pid,
		     enum model_class cls);
int model_tg_init(struct model_sys *sys, struct model_tg *tg, struct model_tg *parent);

/* Requests */
int model_setattr(struct model_sys *sys, struct model_task *t,
		  const struct model_attr *attr);
int model_getattr(const struct model_sys *sys, const struct model_task *t,
		  unsigned int *util_min, unsigned int *util_max);
int model_sysctl_write(struct model_sys *sys, enum model_sysctl which, long long value);
int model_tg_write(struct model_sys *sys, struct model_tg *tg, enum model_clamp_id id,
		   const char *buf);
int model_tg_read(const struct model_sys *sys, const struct model_tg *tg,
		  enum model_clamp_id id, bool effective, char *buf, size_t len);
void model_task_fork(struct model_sys *sys, const struct model_task *parent,
		     struct model_task *child, int child_pid);
void model_task_exit(struct model_sys *sys, struct model_task *t);
void model_task_move_tg(struct model_sys *sys, struct model_task *t, struct model_tg *tg);
void model_task_shown_counted(struct model_sys *sys, struct model_task *t);

/* Runqueues: model_enqueue(), model_dequeue(), model_migrate() and
 * model_task_set_class() are in rq.h. */

/* Reads */
int model_rq_value(const struct model_sys *sys, int cpu, enum model_clamp_id id);
bool model_rq_is_idle(const struct model_sys *sys, int cpu);
int model_task_eff(const struct model_sys *sys, const struct model_task *t,
		   enum model_clamp_id id, int *slot);
unsigned int model_rq_clamp_util(const struct model_sys *sys, int cpu, unsigned int util);
unsigned int model_clamp_util(enum model_variant variant, unsigned int util,
			      int rq_min, int rq_max);

#endif /* UCVAL_MODEL_H */
