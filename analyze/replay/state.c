// SPDX-License-Identifier: MIT
/*
 * analyze/replay/state.c - the replay's state (state.h): lookups, the step
 * of the current event, rq change tracking, cpufreq policies, tasks.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "analyze/replay/state.h"
#include "analyze/replay/tasks.h"

void an_replay_note(struct an_replay *r, const char *fmt, ...)
{
	char buf[AN_REPLAY_NOTE_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	for (unsigned int i = 0; i < r->nr_notes; i++)
		if (!strcmp(r->notes[i], buf))
			return;
	if (r->nr_notes < AN_REPLAY_MAX_NOTES)
		memcpy(r->notes[r->nr_notes++], buf, sizeof(buf));
}

/* ---- lookups ---- */

struct an_task *an_replay_task(const struct an_replay *r, int pid)
{
	return pid > 0 ? an_tasks_find(r->tasks, pid) : NULL;
}

struct an_freq_policy *an_replay_cpu_policy(const struct an_replay *r, int cpu)
{
	const struct an_cpu *c = an_replay_cpu(r, cpu);

	if (!c || c->policy < 0 || (unsigned int)c->policy >= r->nr_policies)
		return NULL;
	return &r->policy[c->policy];
}

int an_replay_rq_before(const struct an_replay *r, int cpu, enum model_clamp_id id,
			uint64_t ts_ns)
{
	const struct an_cpu *c = &r->cpu[cpu];

	return c->group_ts_ns == ts_ns ? c->rq_before[id] : c->rq_now[id];
}

uint64_t an_replay_tick_ns(const struct an_replay *r)
{
	return (uint64_t)(r->plat.tick_us ? r->plat.tick_us : MODEL_SU_DEFAULT_TICK_US) * 1000;
}

uint64_t an_replay_grace_ns(const struct an_replay *r, const struct an_freq_policy *policy)
{
	unsigned int rate = MODEL_SU_DEFAULT_RATE_LIMIT_US;

	if (r->opts.grace_us)
		return (uint64_t)r->opts.grace_us * 1000;
	if (policy && policy->has_rate_limit)
		rate = policy->su.rate_limit_us;
	return (uint64_t)rate * 1000 + an_replay_tick_ns(r);
}

/* ---- step flags and rq change tracking ---- */

static void mark_dirty(struct an_replay *r, int cpu)
{
	struct an_cpu *c = &r->cpu[cpu];

	if (!c->is_eval && !c->is_clamp_changed)
		r->dirty[r->nr_dirty++] = cpu;
}

void an_replay_step_clear(struct an_replay *r)
{
	for (unsigned int i = 0; i < r->nr_dirty; i++) {
		r->cpu[r->dirty[i]].is_eval = false;
		r->cpu[r->dirty[i]].is_clamp_changed = false;
	}
	r->nr_dirty = 0;
	memset(&r->step, 0, offsetof(struct an_replay_step, issues));
	r->step.limits_policy = -1;
	r->step.applied_cpu = -1;
	r->step.fork_req_model = -1;
}

void an_replay_eval(struct an_replay *r, int cpu)
{
	struct an_cpu *c = an_replay_cpu(r, cpu);

	if (!c || c->is_eval)
		return;
	mark_dirty(r, cpu);
	c->is_eval = true;
	c->last_eval_ns = r->step.ts_ns;
	if (r->step.nr_eval < 2)
		r->step.eval_cpu[r->step.nr_eval++] = cpu;
}

int an_replay_sleeper_out(struct an_replay *r)
{
	const struct an_obs_call *c = r->calls[2];
	int err = 0;

	r->step.is_sleeper_out = true;
	r->phase++;
	for (size_t i = 0; !err && i < r->nr_calls[2]; i++)
		err = c[i].event(c[i].ctx, r, r->ev, true);
	r->step.is_sleeper_out = false;
	return err ? err : an_replay_observers_err(r);
}

void an_replay_rq_touched(struct an_replay *r, int cpu)
{
	r->cpu[cpu].touch_seq++;
}

void an_replay_touch(struct an_replay *r, int cpu, enum an_rq_op op)
{
	struct an_cpu *c = &r->cpu[cpu];
	uint64_t ts = r->step.ts_ns;
	int v[MODEL_UCLAMP_CNT];

	an_replay_rq_touched(r, cpu);
	for (int id = 0; id < MODEL_UCLAMP_CNT; id++)
		v[id] = model_rq_value(&r->sys, cpu, (enum model_clamp_id)id);
	if (v[0] == c->rq_now[0] && v[1] == c->rq_now[1])
		return;
	if (c->group_ts_ns != ts) {
		memcpy(c->rq_before, c->rq_now, sizeof(c->rq_before));
		c->group_ts_ns = ts;
	}
	memcpy(c->rq_now, v, sizeof(v));
	c->last_op = op;
	c->clamp_changed_ns = ts;
	if (!c->is_clamp_changed) {
		mark_dirty(r, cpu);
		c->is_clamp_changed = true;
		r->step.nr_clamp_changed++;
	}
}

void an_replay_touch_all(struct an_replay *r, enum an_rq_op op)
{
	for (unsigned int c = 0; c < r->nr_cpus; c++)
		an_replay_touch(r, (int)c, op);
}

/* ---- cpufreq policies ---- */

void an_replay_sync_policies(struct an_replay *r)
{
	unsigned int n = r->plat.nr_listed < r->nr_cpus ? r->plat.nr_listed : r->nr_cpus;

	r->nr_policies = 0;
	/* the trace may show more CPUs than a platform can list */
	for (unsigned int cpu = 0; cpu < r->nr_cpus; cpu++) {
		struct an_cpu *c = &r->cpu[cpu];

		c->policy = -1;
		c->has_capacity = cpu < n && r->plat.cpu[cpu].capacity;
		c->capacity = c->has_capacity ? r->plat.cpu[cpu].capacity : MODEL_SCALE;
	}
	for (unsigned int cpu = 0; cpu < n; cpu++) {
		const struct an_platform_cpu *pc = &r->plat.cpu[cpu];
		struct an_freq_policy *p = NULL;

		if (!pc->is_listed || pc->policy < 0)
			continue;
		for (unsigned int i = 0; i < r->nr_policies; i++)
			if (r->policy[i].id == pc->policy)
				p = &r->policy[i];
		if (!p) {
			p = &r->policy[r->nr_policies++];
			memset(p, 0, sizeof(*p));
			p->id = pc->policy;
			model_su_policy_init(&p->su, r->kver, r->variant);
			p->su.fidelity = r->sys.cfg.fidelity;
			p->su.is_invariant = r->plat.invariant;
			if (r->plat.tick_us)
				p->su.tick_us = r->plat.tick_us;
			p->su.capacity = r->cpu[cpu].capacity;
		}
		if (pc->nr_freqs && !p->has_opps &&
		    !model_su_policy_set_opps(&p->su, pc->freqs_khz, pc->nr_freqs))
			p->has_opps = true;
		if (pc->min_khz && pc->max_khz && !p->has_limits) {
			p->su.min_khz = pc->min_khz;
			p->su.max_khz = pc->max_khz;
			p->has_limits = true;
		}
		if (pc->rate_limit_us && !p->has_rate_limit) {
			p->su.rate_limit_us = pc->rate_limit_us;
			p->has_rate_limit = true;
		}
		if (p->su.nr_cpus < MODEL_SU_MAX_CPUS)
			p->su.cpu[p->su.nr_cpus++] = (int)cpu;
		r->cpu[cpu].policy = (int)(p - r->policy);
	}
	for (unsigned int i = 0; i < r->nr_policies; i++) {
		struct an_freq_policy *p = &r->policy[i];

		for (unsigned int k = 0; k < p->su.nr_cpus; k++) {
			const struct an_cpu *c = &r->cpu[p->su.cpu[k]];

			if (c->freq_khz)
				p->su.cur_khz = c->freq_khz;
			else if (r->plat.cpu[p->su.cpu[k]].cur_khz)
				p->su.cur_khz = r->plat.cpu[p->su.cpu[k]].cur_khz;
		}
		an_replay_policy_changed(r, p);
	}
}

void an_replay_policy_changed(struct an_replay *r, struct an_freq_policy *p)
{
	p->is_usable = p->has_opps && !model_su_policy_check(&p->su, NULL);
	p->gen = ++r->policy_gen;
}

/* ---- tasks ---- */

/*
 * The class of a task from its trace prio (uclamp-v3.md §9): 0..99 RT,
 * 100..139 fair, -1 DL. sugov:N is a DL kthread whatever it shows; the
 * stop task (migration/N, prio 0) is no RT task and is never counted (VR3).
 */
static enum model_class class_of(int prio, const char *comm, enum model_class dflt)
{
	if (comm && an_comm_has_prefix(comm, "sugov:"))
		return MODEL_CLASS_DL;
	if (prio == AN_PRIO_NONE)
		return dflt;
	if (prio < 0)
		return MODEL_CLASS_DL;
	if (prio < 100)
		return comm && prio == 0 && an_comm_has_prefix(comm, "migration/") ?
		       MODEL_CLASS_OTHER : MODEL_CLASS_RT;
	return MODEL_CLASS_FAIR;
}

struct an_task *an_replay_task_new(struct an_replay *r, int pid)
{
	struct an_task *t = an_tasks_add(r->tasks, pid);

	if (!t)
		return NULL;
	t->prio = AN_PRIO_NONE;
	t->last_cpu = -1;
	t->eff_seen[MODEL_UCLAMP_MIN] = t->eff_seen[MODEL_UCLAMP_MAX] = -1;
	/* without CONFIG_UCLAMP_TASK_GROUP the group changes nothing */
	t->is_tg_known = !r->sys.cfg.task_group;
	r->nr_tasks_seen++;
	r->nr_tasks_live = an_tasks_count(r->tasks);
	return t;
}

struct an_task *an_replay_task_get(struct an_replay *r, int pid, const char *comm, int prio)
{
	struct an_task *t = an_tasks_find(r->tasks, pid);
	enum model_class cls;

	if (!t) {
		t = an_replay_task_new(r, pid);
		if (!t)
			return NULL;
		model_task_init(&r->sys, &t->mt, pid, class_of(prio, comm, MODEL_CLASS_FAIR));
		t->prio = prio;
		an_comm_set(t->comm, comm);
		return t;
	}
	/* a queued DL task named sugov:N or not counts as DL or not (S24) */
	if (an_comm_set(t->comm, comm) && t->mt.cls == MODEL_CLASS_DL && t->mt.cpu >= 0)
		an_replay_rq_touched(r, t->mt.cpu);
	if (prio == AN_PRIO_NONE || t->mt.is_dead)
		return t;
	t->prio = prio;
	cls = class_of(prio, t->comm, t->mt.cls);
	if (cls != t->mt.cls) {
		int cpu = t->mt.cpu;

		model_task_set_class(&r->sys, &t->mt, cls);
		if (cpu >= 0)
			an_replay_touch(r, cpu, AN_RQ_OP_REQUEST);
	}
	return t;
}
