// SPDX-License-Identifier: MIT
/*
 * analyze/replay/signals.c - what the out-of-tree scheduler events tell the
 * replay besides runqueues (signals.h).
 *
 * util_est: from 4.17 schedutil takes a CPU's CFS utilization as
 * max(util_avg, util_est.enqueued) of the root runqueue ("sched/cpufreq/
 * schedutil: Use util_est for OPP selection"; from 6.8 util_est is one
 * value), so a trace's root util_avg (sched_pelt_cfs, uclamp_util_cfs)
 * underestimates it while tasks' estimates are larger. The last
 * sched_util_est_cfs of path "/" of each CPU is kept here for
 * an_signals_util_cfs(). util_est.enqueued changes at enqueues and dequeues
 * of the root, where schedutil is evaluated anyway (S2).
 *
 * Capacity: schedutil's capacity is arch_scale_cpu_capacity(), which
 * sched_cpu_capacity shows as capacity_orig; it fills the capacity of a
 * platform CPU the platform leaves without one. The event's capacity (what
 * RT, DL and irq pressure leave to CFS) is not schedutil's and is not used.
 *
 * MediaTek's sched_task_uclamp shows a task's requests: they go to the model
 * as uclamp_task_eff's do (requests.c).
 */
#include <string.h>

#include "analyze/read/alias.h"
#include "analyze/replay/requests.h"
#include "analyze/replay/signals.h"

/* First release whose schedutil takes util_est (a07630b8b2c1, 4.17). */
#define KVER_UTIL_EST	MODEL_KVER(4, 17, 0)

bool an_signals_has_util_est(const struct an_replay *r)
{
	return r->variant == MODEL_V3 || r->kver >= KVER_UTIL_EST;
}

unsigned int an_signals_util_cfs(const struct an_replay *r, int cpu, unsigned int util_avg)
{
	const struct an_cpu *c = an_replay_cpu(r, cpu);

	if (!c || !c->has_util_est || !an_signals_has_util_est(r) || c->util_est <= util_avg)
		return util_avg;
	return c->util_est;
}

static void on_util_est(struct an_replay *r, const struct an_ev_util_est *u)
{
	struct an_cpu *c = an_replay_cpu(r, u->cpu);

	if (!c || strcmp(u->path, "/"))
		return;
	c->has_util_est = true;
	c->util_est = u->enqueued;
	an_replay_eval(r, u->cpu);
}

static void on_capacity(struct an_replay *r, const struct an_event *ev)
{
	const struct an_ev_capacity *k = &ev->capacity;
	int bit = an_alias_field_index(AN_EV_SCHED_CPU_CAPACITY, "capacity_orig", 13);
	struct an_platform_cpu *pc;

	if (bit < 0 || !(ev->present & (UINT32_C(1) << bit)) || !k->capacity_orig ||
	    k->capacity_orig > MODEL_SCALE || k->cpu < 0 ||
	    (unsigned int)k->cpu >= r->plat.nr_listed || (unsigned int)k->cpu >= r->nr_cpus)
		return;
	pc = &r->plat.cpu[k->cpu];
	if (!pc->is_listed || pc->capacity)
		return;
	pc->capacity = k->capacity_orig;
	an_replay_note(r, "capacity of CPUs the platform leaves without one taken from "
		       "sched_cpu_capacity capacity_orig");
	an_replay_sync_policies(r);
	r->step.is_limits_changed = true;
}

int an_signals_apply(struct an_replay *r, const struct an_event *ev)
{
	switch (ev->type) {
	case AN_EV_SCHED_UTIL_EST_CFS:
		on_util_est(r, &ev->util_est);
		return 0;
	case AN_EV_SCHED_CPU_CAPACITY:
		on_capacity(r, ev);
		return 0;
	case AN_EV_SCHED_UTIL:
		if (an_replay_cpu(r, ev->sched_util.cpu))
			r->cpu[ev->sched_util.cpu].util_rt = ev->sched_util.util_rt;
		return 0;
	case AN_EV_SCHED_TASK_UCLAMP:
		return an_requests_apply(r, ev);
	default:
		return 0;
	}
}
