/* SPDX-License-Identifier: MIT */
/*
 * model/rq.h - the per-CPU runqueues of the model: which task is queued on
 * which CPU, the class counts, and the variant's clamp accounting at every
 * enqueue and dequeue (through sys->ops). The variants change queues only
 * through these functions; model.c builds the rest of the API on them.
 */
#ifndef UCVAL_MODEL_RQ_H
#define UCVAL_MODEL_RQ_H

#include <stdbool.h>

#include "types.h"

/* True for the classes whose tasks are counted in the rq clamps (VR3, MR1). */
static inline bool model_class_counted(enum model_class cls)
{
	return cls == MODEL_CLASS_FAIR || cls == MODEL_CLASS_RT;
}

/* @t, not queued, becomes queued on @cpu (VR2/VR4, MR1/MR3). */
void model_enqueue(struct model_sys *sys, struct model_task *t, int cpu);
/* @t, queued, leaves its CPU's queue (VR2/VR5, MR1/MR4). */
void model_dequeue(struct model_sys *sys, struct model_task *t);
/* A queued task moves to @dest_cpu: dequeue, then enqueue (VR2, MR1). */
void model_migrate(struct model_sys *sys, struct model_task *t, int dest_cpu);
/* A queued task dequeued and enqueued again on its CPU (MR4, MR3, MR6). */
void model_requeue(struct model_sys *sys, struct model_task *t);
/* A policy change to @cls; a queued task is dequeued around it (VR2, MT4). */
void model_task_set_class(struct model_sys *sys, struct model_task *t, enum model_class cls);

#endif /* UCVAL_MODEL_RQ_H */
