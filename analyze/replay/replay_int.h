/* SPDX-License-Identifier: MIT */
/*
 * analyze/replay/replay_int.h - what replay.c, sched.c and requests.c share; not
 * for checks (they use replay.h).
 */
#ifndef UCVAL_ANALYZE_REPLAY_REPLAY_INT_H
#define UCVAL_ANALYZE_REPLAY_REPLAY_INT_H

#include "analyze/replay/replay.h"

/**
 * an_replay_touch() - note that the model's rq clamps of @cpu may have
 * changed by @op at the current event's time
 * @r: replay
 * @cpu: CPU id in the model
 * @op: what changed them
 *
 * Updates rq_now, rq_before/group_ts_ns, last_op, clamp_changed_ns and the
 * step's is_clamp_changed flags when a value differs.
 */
void an_replay_touch(struct an_replay *r, int cpu, enum an_rq_op op);

/**
 * an_replay_touch_all() - an_replay_touch() for every CPU
 * @r: replay
 * @op: what changed them
 */
void an_replay_touch_all(struct an_replay *r, enum an_rq_op op);

/**
 * an_replay_eval() - mark a schedutil evaluation point of @cpu at the
 * current event (an_cpu.is_eval, last_eval_ns, an_replay_step.eval_cpu)
 * @r: replay
 * @cpu: CPU id; ignored outside the model
 */
void an_replay_eval(struct an_replay *r, int cpu);

/**
 * an_replay_sync_policies() - rebuild the cpufreq policies from r->plat
 * @r: replay (started)
 *
 * Keeps what the trace taught: limits are stored back into r->plat by
 * cpu_frequency_limits, observed frequencies stay in the CPUs.
 */
void an_replay_sync_policies(struct an_replay *r);

/**
 * an_sched_inspect() - the integrity problems @ev reveals, against the
 * state before it (r->step.issues); a backwards timestamp also extends the
 * CPU's undecided_until_ns
 * @r: replay (started)
 * @ev: the event
 */
void an_sched_inspect(struct an_replay *r, const struct an_event *ev);

/**
 * an_sched_apply() - give @ev to the model: scheduler events, frequency and
 * limits, markers (requests through an_requests_apply()), lost events
 * @r: replay (started)
 * @ev: the event
 *
 * Return: 0 or -ENOMEM.
 */
int an_sched_apply(struct an_replay *r, const struct an_event *ev);

/**
 * an_sched_late_order() - an observation of @cpu's rq clamps may show that
 * the tasks woken during its new-idle balance were enqueued after the
 * sleeper's dequeue (an_cpu.late); if so the replay reorders them
 * @r: replay (started)
 * @cpu: the CPU observed
 * @obs: its observed rq uclamp_min, uclamp_max
 */
void an_sched_late_order(struct an_replay *r, int cpu, const int obs[MODEL_UCLAMP_CNT]);

/**
 * an_sched_task_get() - the task @pid, created when unknown
 * @r: replay
 * @pid: pid (> 0)
 * @comm: comm from the event, "" or NULL when none
 * @prio: prio from the event, AN_PRIO_NONE when none; a class change is
 *	  applied to the model (model_task_set_class)
 *
 * Return: the task, or NULL with errno ENOMEM.
 */
struct an_task *an_sched_task_get(struct an_replay *r, int pid, const char *comm, int prio);

/**
 * an_requests_apply() - apply a request-type event to the model
 * @r: replay (started)
 * @ev: a PRINT (sysctl, task, cgroup, setattr markers), UCLAMP_REQUEST,
 *	UCLAMP_TG or UCLAMP_TASK_EFF event; other events are ignored
 *
 * Return: 0 or -ENOMEM.
 */
int an_requests_apply(struct an_replay *r, const struct an_event *ev);

/**
 * an_requests_sysctl() - write system defaults into the model (VP4, MA8)
 * @r: replay (started)
 * @val: util_min, util_max, util_min_rt_default in abi units, -1 to leave
 *
 * Writes in an order that never inverts min and max on the way.
 */
void an_requests_sysctl(struct an_replay *r, const long long val[3]);

#endif /* UCVAL_ANALYZE_REPLAY_REPLAY_INT_H */
