/* SPDX-License-Identifier: MIT */
/*
 * collect/synth/synthsched.h - the synthetic scheduler of `ucval synth`
 * (synthsched.c): the tasks, their runqueues and life, and the userspace
 * side (clamp requests, task groups, system defaults), each change made on
 * the reference model and written as events (synthemit.h). The driver
 * (synth.c) calls these; the synthetic schedutil is the driver's.
 */
#ifndef UCVAL_COLLECT_SYNTH_SYNTHSCHED_H
#define UCVAL_COLLECT_SYNTH_SYNTHSCHED_H

#include "collect/synth/synthstate.h"

/**
 * sy_sched_start() - create the task groups' values and the long-lived tasks
 * (no event is written)
 * @s: generator
 */
void sy_sched_start(struct synth *s);

/**
 * sy_sched_kernel() - the kernel release the synthetic trace claims
 * @s: generator
 *
 * Return: a static string: 4.19.0 for the v3 model, 6.1.0 for mainline.
 */
const char *sy_sched_kernel(const struct synth *s);

/**
 * sy_sched_markers() - the first step's markers: platform, task groups and
 * the long-lived tasks with their first requests
 * @s: generator
 */
void sy_sched_markers(struct synth *s);

/**
 * sy_sched_first() - the rest of the first step, after the first
 * frequencies: one task switched in on each CPU, the timers
 * @s: generator
 */
void sy_sched_first(struct synth *s);

/**
 * sy_sched_timer() - fire a scheduler or userspace timer
 * @s: generator
 * @id: the timer (task, slice, tick or global)
 */
void sy_sched_timer(struct synth *s, unsigned int id);

#endif /* UCVAL_COLLECT_SYNTH_SYNTHSCHED_H */
