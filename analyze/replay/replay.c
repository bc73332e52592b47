// SPDX-License-Identifier: MIT
/*
 * analyze/replay/replay.c - the replay (replay.h): model start, observers,
 * and the order of each event: inspect (sched.c), observers before, apply
 * (sched.c, requests.c, signals.c), observers after. The state and its
 * primitives are in state.c.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/malloc.h"
#include "analyze/replay/replay.h"
#include "analyze/replay/requests.h"
#include "analyze/replay/sched.h"
#include "analyze/replay/tasks.h"
#include "analyze/replay/signals.h"
#include "analyze/replay/tgroups.h"
#include "lib/vec.h"

/* First mainline release with uclamp (uclamp-mainline.md §1). */
#define KVER_MAINLINE	MODEL_KVER(5, 3, 0)

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
	r->early_ns = r->opts.early_us ? (uint64_t)r->opts.early_us * 1000 : MODEL_SU_EARLY_NS;
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
	    AN_VEC_GROW(r->calls[1], r->nr_calls[1] + 1, r->alloc_calls[1]) ||
	    AN_VEC_GROW(r->calls[2], r->nr_calls[2] + 1, r->alloc_calls[2])) {
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
				.only = after ? obs->only : obs->only & AN_OBS_ONLY_POLICY,
				.types = (obs->only & AN_OBS_ONLY_POLICY ? 0 : AN_EV_BIT(obs->type)) |
					 obs->types,
			};
	if (obs->event && (obs->also & AN_OBS_ALSO_SLEEPER_OUT))
		r->calls[2][r->nr_calls[2]++] = (struct an_obs_call){
			.event = obs->event, .ctx = obs->ctx,
		};
	return 0;
}

int an_replay_new(const struct an_replay_opts *opts, const int *shared_err,
		  struct an_replay **out, struct an_diag *d)
{
	struct an_replay *r = an_calloc(1, sizeof(*r));
	int err = -ENOMEM;

	*out = NULL;
	if (!r)
		return an_diag_fail(d, -ENOMEM, "out of memory");
	if (opts)
		r->opts = *opts;
	r->shared_err = shared_err;
	if (r->opts.kernel)
		snprintf(r->kernel_opt, sizeof(r->kernel_opt), "%s", r->opts.kernel);
	if (r->opts.trace_kernel)
		snprintf(r->kernel_trace, sizeof(r->kernel_trace), "%s", r->opts.trace_kernel);
	an_platform_init_zeroed(&r->plat);	/* r is calloc()ed */
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
	an_tasks_set_tidy_min(r->tasks, r->opts.tasks_tidy_min);
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
	if ((c->only & AN_OBS_ONLY_POLICY) && r->nr_policies)
		return true;
	return (unsigned int)ev->type < AN_EV__COUNT && (c->types & AN_EV_BIT(ev->type));
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
	return an_replay_observers_err(r);
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

	if ((unsigned int)ev->type < AN_EV__COUNT)
		r->ev_seen |= AN_EV_BIT(ev->type);
	if (!r->is_started) {
		if (ev->type == AN_EV_UNKNOWN || ev->type == AN_EV_SCHED_WAKING)
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
	bool was_used;
	int err;

	an_tasks_tidy(r->tasks);	/* no task pointer is held between events */
	r->ev = ev;
	an_replay_step_clear(r);
	r->step.ts_ns = ev->ts_ns;
	if (ev->ts_ns > r->now_ns)
		r->now_ns = ev->ts_ns;
	an_sched_inspect(r, ev);
	an_walk_track(&r->walk, r->tgroups, &r->sys, ev);
	err = notify(r, ev, false);
	if (err)
		goto out;
	was_used = r->sys.is_uclamp_used;
	err = an_sched_apply(r, ev);
	if (!err)
		err = an_signals_apply(r, ev);
	r->step.is_key_changed = r->sys.is_uclamp_used != was_used;
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
	if (!err && an_tasks_error(r->tasks))	/* a packed task could not be unpacked */
		err = an_diag_fail(d, -ENOMEM, "replay: out of memory");
out:
	r->ev = NULL;
	return err;
}

int an_replay_finish(struct an_replay *r, uint64_t end_ns)
{
	int err;

	r->end_ns = end_ns;
	r->is_finished = true;
	r->phase++;
	for (size_t i = 0; i < r->nr_obs; i++)
		if (r->obs[i].finish)
			r->obs[i].finish(r->obs[i].ctx, r, end_ns);
	err = an_replay_observers_err(r);
	return err ? err : an_tasks_error(r->tasks);
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
	free(r->calls[2]);
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
