// SPDX-License-Identifier: MIT
/*
 * analyze/replay/replay.c - the replay: model start, platform and policies, rq
 * change tracking, observers (replay.h). Scheduler events and trace
 * integrity are in sched.c, requests and markers in requests.c.
 *
 * Per event: (1) the integrity problems it reveals are found against the
 * state before it; (2) observers see it before the model; (3) the model
 * takes it; (4) observers see it after. So a check can compare an
 * observation with the model at that very instant, either side of it.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/checks/freqstate.h"
#include "lib/malloc.h"
#include "analyze/replay/replay_int.h"
#include "analyze/store/series.h"
#include "analyze/replay/tasks.h"
#include "analyze/replay/tgroups.h"
#include "lib/vec.h"

/* First mainline release with uclamp (uclamp-mainline.md §1). */
#define KVER_MAINLINE	MODEL_KVER(5, 3, 0)

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

bool an_replay_is_enabled(const struct an_replay *r, enum an_check_id id)
{
	return !r->opts.checks || (r->opts.checks & AN_CHECK_BIT(id));
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

/* ---- UNDECIDED windows ---- */

void an_replay_doubt(struct an_replay *r, struct an_win_track *t,
		     const struct an_window *obs, bool is_hiding)
{
	if (is_hiding)
		r->res->stats[obs->check].is_hiding = true;
	an_win_doubt(r->res, t, obs);
}

void an_replay_doubt_close(struct an_replay *r, struct an_win_track *t, uint64_t ts_ns)
{
	an_win_close(r->res, t, ts_ns);
}

/* ---- step flags and rq change tracking ---- */

static void mark_dirty(struct an_replay *r, int cpu)
{
	struct an_cpu *c = &r->cpu[cpu];

	if (!c->is_eval && !c->is_clamp_changed)
		r->dirty[r->nr_dirty++] = cpu;
}

static void clear_step(struct an_replay *r)
{
	for (unsigned int i = 0; i < r->nr_dirty; i++) {
		r->cpu[r->dirty[i]].is_eval = false;
		r->cpu[r->dirty[i]].is_clamp_changed = false;
	}
	r->nr_dirty = 0;
	memset(&r->step, 0, offsetof(struct an_replay_step, issues));
	r->step.limits_policy = -1;
	r->step.applied_cpu = -1;
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

void an_replay_touch(struct an_replay *r, int cpu, enum an_rq_op op)
{
	struct an_cpu *c = &r->cpu[cpu];
	uint64_t ts = r->step.ts_ns;
	int v[MODEL_UCLAMP_CNT];

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

/* ---- platform, policies, start ---- */

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

/**
 * an_replay_policy_changed() - a policy's description changed: validate it
 * again (its OPPs, limits, capacity, CPUs; not its current frequency)
 * @r: replay
 * @p: the policy
 *
 * Checks read p->is_usable at every event instead of validating each time,
 * and may keep what they computed from @p while p->gen stays (a new value
 * for every change of any policy of @r, also across a rebuild).
 */
void an_replay_policy_changed(struct an_replay *r, struct an_freq_policy *p)
{
	p->is_usable = p->has_opps && !model_su_policy_check(&p->su, NULL);
	p->gen = ++r->policy_gen;
}

static const char *release_of(const struct an_replay *r)
{
	if (r->kernel_opt[0])
		return r->kernel_opt;
	if (r->plat.kernel[0])
		return r->plat.kernel;
	return r->kernel_trace;
}

static int start(struct an_replay *r, struct an_diag *d)
{
	const char *release = release_of(r);
	struct model_config cfg;
	unsigned int kver = 0, nr;
	bool has_kver = release[0] && !model_kver_parse(release, &kver);
	enum model_variant variant = MODEL_MAINLINE;
	int err;

	r->model_source = "default";
	if (r->opts.model != AN_MODEL_UNKNOWN) {
		variant = r->opts.model == AN_MODEL_V3 ? MODEL_V3 : MODEL_MAINLINE;
		r->model_source = "option";
	} else if (r->plat.model != AN_MODEL_UNKNOWN) {
		variant = r->plat.model == AN_MODEL_V3 ? MODEL_V3 : MODEL_MAINLINE;
		r->model_source = "platform marker";
	} else if (has_kver) {
		variant = kver < KVER_MAINLINE ? MODEL_V3 : MODEL_MAINLINE;
		r->model_source = "kernel release";
	}
	nr = r->opts.nr_cpus;
	if (r->plat.nr_cpus > nr)
		nr = r->plat.nr_cpus;
	if (r->plat.nr_listed > nr)
		nr = r->plat.nr_listed;
	if (r->max_cpu_seen > nr)
		nr = r->max_cpu_seen;
	if (!nr) {
		nr = AN_REPLAY_DEFAULT_CPUS;
		an_replay_note(r, "number of CPUs unknown: %u assumed", nr);
	}
	if (nr > AN_REPLAY_MAX_CPUS)
		nr = AN_REPLAY_MAX_CPUS;
	model_config_default(&cfg, variant, nr);
	cfg.fidelity = r->opts.fidelity;
	cfg.task_group = r->plat.task_group;
	if (r->opts.groups)
		cfg.groups = r->opts.groups;
	else if (r->plat.groups)
		cfg.groups = r->plat.groups;
	if (variant == MODEL_V3) {
		cfg.abi_scale = r->plat.scale;
	} else {
		if (r->plat.scale != MODEL_SCALE)
			an_replay_note(r, "mainline clamp values are in 1024 units: scale=%u ignored",
				       r->plat.scale);
		if (has_kver && kver >= KVER_MAINLINE)
			cfg.kver = kver;
	}
	r->kver = has_kver ? kver : cfg.kver;
	err = model_config_check(&cfg);
	if (err)
		return an_diag_fail(d, AN_E_VALUE, "bad model configuration: %s, %u %s, "
				    "scale %u, kernel '%s'",
				    variant == MODEL_V3 ? "v3" : "mainline", cfg.groups,
				    variant == MODEL_V3 ? "groups" : "buckets", cfg.abi_scale,
				    release);
	r->mcpu = an_calloc(nr, sizeof(*r->mcpu));
	r->cpu = an_calloc(nr, sizeof(*r->cpu));
	r->dirty = an_calloc(nr, sizeof(*r->dirty));
	r->policy = an_calloc(nr, sizeof(*r->policy));
	r->fq_in = an_calloc(nr, sizeof(*r->fq_in));
	r->fq_pol = an_calloc(nr, sizeof(*r->fq_pol));
	if (!r->mcpu || !r->cpu || !r->dirty || !r->policy || !r->fq_in || !r->fq_pol)
		return an_diag_fail(d, -ENOMEM, "out of memory");
	err = model_init(&r->sys, &cfg, r->mcpu);
	if (err)
		return an_diag_fail(d, AN_E_VALUE, "model refused its configuration");
	r->variant = variant;
	r->nr_cpus = nr;
	r->grace_ns = (uint64_t)r->opts.grace_us * 1000;
	r->early_ns = r->opts.early_us ? (uint64_t)r->opts.early_us * 1000 : AN_FQ_EARLY_NS;
	r->is_started = true;
	for (unsigned int cpu = 0; cpu < nr; cpu++) {
		r->cpu[cpu].curr_pid = -1;
		for (int id = 0; id < MODEL_UCLAMP_CNT; id++)
			r->cpu[cpu].rq_now[id] = r->cpu[cpu].rq_before[id] =
				model_rq_value(&r->sys, (int)cpu, (enum model_clamp_id)id);
	}
	an_replay_sync_policies(r);
	if (r->plat.has_sysctl)
		an_requests_sysctl(r, r->plat.sysctl);
	if (!r->plat.has_sysctl)
		an_replay_note(r, "system default clamps taken as the kernel's defaults");
	return 0;
}

/* ---- public entry points ---- */

int an_replay_add_observer(struct an_replay *r, const struct an_observer *obs)
{
	if (AN_VEC_GROW(r->obs, r->nr_obs + 1, r->alloc_obs) ||
	    AN_VEC_GROW(r->calls[0], r->nr_calls[0] + 1, r->alloc_calls[0]) ||
	    AN_VEC_GROW(r->calls[1], r->nr_calls[1] + 1, r->alloc_calls[1])) {
		if (obs->free)
			obs->free(obs->ctx);
		return -ENOMEM;
	}
	r->obs[r->nr_obs++] = *obs;
	/* notify() walks only the observers of its phase */
	for (int after = 0; after < 2; after++)
		if (obs->event && !(obs->skip & (after ? AN_OBS_NO_AFTER : AN_OBS_NO_BEFORE)))
			r->calls[after][r->nr_calls[after]++] = (struct an_obs_call){
				.event = obs->event, .ctx = obs->ctx,
				.only = after ? obs->only : 0, .type = obs->type,
			};
	return 0;
}

int an_replay_new(const struct an_replay_opts *opts, struct an_results *res,
		  struct an_replay **out, struct an_diag *d)
{
	struct an_replay *r = an_calloc(1, sizeof(*r));
	int err = -ENOMEM;

	*out = NULL;
	if (!r)
		return an_diag_fail(d, -ENOMEM, "out of memory");
	if (opts)
		r->opts = *opts;
	r->res = res;
	if (r->opts.kernel)
		snprintf(r->kernel_opt, sizeof(r->kernel_opt), "%s", r->opts.kernel);
	if (r->opts.trace_kernel)
		snprintf(r->kernel_trace, sizeof(r->kernel_trace), "%s", r->opts.trace_kernel);
	an_platform_init(&r->plat);
	if (r->opts.platform) {
		r->plat = *r->opts.platform;
	} else if (r->opts.platform_path) {
		err = an_platform_load(&r->plat, r->opts.platform_path, d);
		if (err)
			goto out_free;
	}
	r->opts.kernel = r->opts.trace_kernel = r->opts.platform_path = NULL;
	r->opts.platform = NULL;
	if (an_tasks_new(&r->tasks) || an_tgroups_new(&r->tgroups)) {
		err = an_diag_fail(d, -ENOMEM, "out of memory");
		goto out_free;
	}
	for (unsigned int i = 0; i < an_checks_nr_builtin; i++) {
		if (!an_replay_is_enabled(r, an_checks_builtin[i].id))
			continue;
		err = an_checks_builtin[i].attach(r, d);
		if (err)
			goto out_free;
	}
	/* last, so that it sees each event after every check did */
	if (res->series && an_series_attach(r, res->series)) {
		err = an_diag_fail(d, -ENOMEM, "out of memory");
		goto out_free;
	}
	*out = r;
	return 0;

out_free:
	an_replay_free(r);
	return err;
}

/* The event is one an observer with an_observer.only acts on. */
static bool is_wanted(const struct an_replay *r, const struct an_event *ev,
		      const struct an_obs_call *c)
{
	if (c->only & AN_OBS_ONLY_REQUEST)
		return r->step.has_req;
	return ev->type == c->type;
}

static int notify(struct an_replay *r, const struct an_event *ev, bool after)
{
	const struct an_obs_call *c = r->calls[after];
	size_t n = r->nr_calls[after];

	r->phase++;
	for (size_t i = 0; i < n; i++) {
		int err;

		if (c[i].only && !is_wanted(r, ev, &c[i]))
			continue;
		err = c[i].event(c[i].ctx, r, ev, after);
		if (err)
			return err;
	}
	return r->res->err;
}

static bool is_setup_marker(const struct an_event *ev)
{
	enum an_marker_kind k = ev->print.marker.kind;

	return ev->type == AN_EV_PRINT &&
	       (k == AN_MARKER_PLATFORM || k == AN_MARKER_CPU || k == AN_MARKER_SYSCTL);
}

static void note_cpu(struct an_replay *r, int cpu)
{
	if (cpu >= 0 && cpu < AN_REPLAY_MAX_CPUS && (unsigned int)cpu + 1 > r->max_cpu_seen)
		r->max_cpu_seen = (unsigned int)cpu + 1;
}

static int replay_one(struct an_replay *r, const struct an_event *ev, struct an_diag *d);

int an_replay_event(struct an_replay *r, const struct an_event *ev, struct an_diag *d)
{
	int err;

	if (!r->is_started) {
		if (ev->type == AN_EV_UNKNOWN)
			return 0;
		if (is_setup_marker(ev)) {
			an_platform_apply_marker(&r->plat, &ev->print.marker);
			return 0;
		}
		/*
		 * Losses of anywhere in the trace come before its first event,
		 * maybe before the platform markers: they wait for the start.
		 */
		if (ev->type == AN_EV_LOST_EVENTS && ev->lost.is_unplaced) {
			if (AN_VEC_GROW(r->unplaced, r->nr_unplaced + 1, r->alloc_unplaced))
				return an_diag_fail(d, -ENOMEM, "out of memory");
			r->unplaced[r->nr_unplaced++] = *ev;
			return 0;
		}
		note_cpu(r, ev->cpu);
		err = start(r, d);
		for (size_t i = 0; !err && i < r->nr_unplaced; i++) {
			r->unplaced[i].ts_ns = ev->ts_ns;
			err = replay_one(r, &r->unplaced[i], d);
		}
		if (err)
			return err;
	}
	return replay_one(r, ev, d);
}

static int replay_one(struct an_replay *r, const struct an_event *ev, struct an_diag *d)
{
	struct an_cpu *c;
	int err;

	r->ev = ev;
	clear_step(r);
	r->step.ts_ns = ev->ts_ns;
	if (ev->ts_ns > r->now_ns)
		r->now_ns = ev->ts_ns;
	an_sched_inspect(r, ev);
	an_walk_track(&r->walk, r->tgroups, &r->sys, ev);
	err = notify(r, ev, false);
	if (err)
		goto out;
	err = an_sched_apply(r, ev);
	if (err) {
		an_diag_fail(d, err, "replay: out of memory");
		goto out;
	}
	c = an_replay_cpu(r, ev->cpu);
	if (c) {
		if (!c->is_seen || ev->ts_ns > c->last_ts_ns)
			c->last_ts_ns = ev->ts_ns;
		c->is_seen = true;
	}
	err = notify(r, ev, true);
out:
	r->ev = NULL;
	return err;
}

int an_replay_finish(struct an_replay *r, uint64_t end_ns)
{
	r->end_ns = end_ns;
	r->is_finished = true;
	r->phase++;
	for (size_t i = 0; i < r->nr_obs; i++)
		if (r->obs[i].finish)
			r->obs[i].finish(r->obs[i].ctx, r, end_ns);
	return r->res->err;
}

void an_replay_free(struct an_replay *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nr_obs; i++)
		if (r->obs[i].free)
			r->obs[i].free(r->obs[i].ctx);
	free(r->obs);
	free(r->calls[0]);
	free(r->calls[1]);
	an_tasks_free(r->tasks);
	an_tgroups_free(r->tgroups);
	free(r->mcpu);
	free(r->cpu);
	free(r->dirty);
	free(r->policy);
	free(r->fq_in);
	free(r->fq_pol);
	free(r->unplaced);
	free(r);
}
