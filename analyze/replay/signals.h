/* SPDX-License-Identifier: MIT */
/*
 * analyze/replay/signals.h - what the out-of-tree scheduler events tell the
 * replay besides runqueues and requests (signals.c): the root runqueue's
 * estimated utilization, a CPU's RT utilization and capacity, a task's
 * clamps (MediaTek).
 */
#ifndef UCVAL_ANALYZE_REPLAY_SIGNALS_H
#define UCVAL_ANALYZE_REPLAY_SIGNALS_H

#include "analyze/read/event.h"
#include "analyze/replay/state.h"

/**
 * an_signals_apply() - give @ev to the replay when it is one of the events
 * of this file: sched_util_est_cfs of the root (schedutil's util_est input),
 * schedutil_util (its util_rt, an_cpu.util_rt),
 * sched_cpu_capacity (capacity_orig where the platform gives none),
 * sched_task_uclamp (the task's requests, through requests.h)
 * @r: replay (started), after an_sched_apply() took @ev
 * @ev: the event; others are left alone
 *
 * Return: 0 or -ENOMEM.
 */
int an_signals_apply(struct an_replay *r, const struct an_event *ev);

/**
 * an_signals_util_cfs() - the root CFS utilization schedutil takes on @cpu,
 * from a util_avg the trace shows: max(util_avg, util_est) on releases with
 * util_est (4.17+; the v3 series is 4.19-based) once a sched_util_est_cfs of
 * the root was seen, else @util_avg
 * @r: replay
 * @cpu: CPU id
 * @util_avg: the root runqueue's util_avg
 *
 * Return: the utilization.
 */
unsigned int an_signals_util_cfs(const struct an_replay *r, int cpu, unsigned int util_avg);

/**
 * an_signals_has_util_est() - whether the release of @r feeds util_est to
 * schedutil (4.17+)
 * @r: replay (started)
 *
 * Return: true or false.
 */
bool an_signals_has_util_est(const struct an_replay *r);

#endif /* UCVAL_ANALYZE_REPLAY_SIGNALS_H */
