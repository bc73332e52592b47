// SPDX-License-Identifier: MIT
/*
 * model/rq.c - the per-CPU runqueues (see rq.h): every queued task is listed
 * on its CPU and counted by class, but a variant only sees fair and RT tasks
 * for accounting (VR3, MR1); DL and other classes are still listed so
 * schedutil can see them (S23, S24).
 */
#include <assert.h>

#include "rq.h"
#include "variant.h"

/**
 * model_task_set_class() - a policy change (sched_setscheduler, VR2, MT4)
 * @sys: the system
 * @t: the task
 * @cls: its new class
 */
void model_task_set_class(struct model_sys *sys, struct model_task *t, enum model_class cls)
{
	int cpu = t->cpu;
	enum model_class old = t->cls;

	if (cpu >= 0)
		model_dequeue(sys, t);
	t->cls = cls;
	sys->ops->class_changed(sys, t, old);
	if (cpu >= 0)
		model_enqueue(sys, t, cpu);
}

static void count_class(struct model_cpu *rq, enum model_class cls, int delta)
{
	rq->nr_queued += (unsigned int)delta;
	if (cls == MODEL_CLASS_RT)
		rq->nr_rt += (unsigned int)delta;
	else if (cls == MODEL_CLASS_DL)
		rq->nr_dl += (unsigned int)delta;
}

/**
 * model_enqueue() - @t becomes queued on @cpu (VR2/VR4, MR1/MR3)
 * @sys: the system
 * @t: a task that is not queued
 * @cpu: the CPU
 */
void model_enqueue(struct model_sys *sys, struct model_task *t, int cpu)
{
	struct model_cpu *rq = &sys->cpu[cpu];

	assert(t->cpu < 0 && cpu >= 0 && (unsigned int)cpu < sys->cfg.nr_cpus);
	model_list_add(&rq->queued, &t->rq_node);
	count_class(rq, t->cls, 1);
	t->cpu = cpu;
	if (model_class_counted(t->cls))
		sys->ops->enqueue(sys, t, cpu);
}

/**
 * model_dequeue() - @t leaves its CPU's queue (VR2/VR5, MR1/MR4)
 * @sys: the system
 * @t: a queued task
 */
void model_dequeue(struct model_sys *sys, struct model_task *t)
{
	struct model_cpu *rq;

	assert(t->cpu >= 0);
	rq = &sys->cpu[t->cpu];
	if (model_class_counted(t->cls))
		sys->ops->dequeue(sys, t);
	model_list_del(&t->rq_node);
	count_class(rq, t->cls, -1);
	t->cpu = -1;
}

/**
 * model_migrate() - a queued task moves: dequeue on its CPU, enqueue on
 * @dest_cpu (VR2, MR1)
 * @sys: the system
 * @t: a queued task
 * @dest_cpu: where it goes
 */
void model_migrate(struct model_sys *sys, struct model_task *t, int dest_cpu)
{
	model_dequeue(sys, t);
	model_enqueue(sys, t, dest_cpu);
}

/**
 * model_requeue() - a queued task leaves its CPU's queue and comes back:
 * dequeue_task(DEQUEUE_SAVE) and enqueue_task(ENQUEUE_RESTORE) around an
 * attribute or affinity change (MR4, MR3, MR6)
 * @sys: the system
 * @t: a queued task
 *
 * Unlike a re-account (MR5), the enqueue clears the rq's IDLE flag on
 * every release (MR3).
 */
void model_requeue(struct model_sys *sys, struct model_task *t)
{
	int cpu = t->cpu;

	model_dequeue(sys, t);
	model_enqueue(sys, t, cpu);
}
