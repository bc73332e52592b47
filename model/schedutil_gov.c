// SPDX-License-Identifier: MIT
/*
 * schedutil's governor state across evaluations (schedutil.md S11, S15–S22,
 * S25–S27): one call per cpufreq_update_util() callback, limits changes and
 * the slow-path kthread. The caller replays a trace's scheduler events as
 * callbacks; the model says whether frequency was re-evaluated, what was
 * committed and which CPUs get a cpu_frequency event.
 */
#include <errno.h>
#include <string.h>

#include "schedutil.h"

/* ns per µs: rate_limit_us and tick_us to the rq clock's unit (S15, S20). */
#define NSEC_PER_USEC		1000ULL

static bool is_legacy(const struct model_su_policy *p)
{
	return p->feat.forced_form == MODEL_SU_FORCED_LEGACY;
}

/**
 * model_su_gov_start() - governor start state (S19)
 * @p: the policy
 * @g: filled in
 *
 * next_freq 0 (4.18+) or UINT_MAX (4.11–4.17), cache 0, last update time 0,
 * no forced update except on 5.9+ for NEED_UPDATE_LIMITS drivers.
 */
void model_su_gov_start(const struct model_su_policy *p, struct model_su_gov *g)
{
	memset(g, 0, sizeof(*g));
	if (is_legacy(p))
		g->next_freq_khz = MODEL_SU_FREQ_INVALID;
	if (p->feat.forced_form >= MODEL_SU_FORCED_CALL && p->is_need_update_limits)
		g->is_need_freq_update = true;
}

/* First boost of a request and the boost maximum, in the form's units. */
static unsigned int boost_start(const struct model_su_policy *p)
{
	if (p->feat.iowait_form == MODEL_SU_IOWAIT_CAP)
		return MODEL_SU_IOWAIT_BOOST_MIN;
	return p->min_khz;
}

/* S21 ceiling of a doubling; v3 clamps it first (VS3, VQ5 by fidelity). */
static unsigned int boost_ceiling(const struct model_su_policy *p,
				  const struct model_su_cpu_in *in)
{
	unsigned int bmax = p->max_freq_khz;

	if (p->feat.iowait_form == MODEL_SU_IOWAIT_CAP)
		return MODEL_SCALE;
	if (p->variant != MODEL_V3)
		return bmax;
	if (p->fidelity == MODEL_SEED)
		return model_clamp_util(MODEL_V3, bmax,
					in->is_rq_idle ? 0 : (int)in->rq_min, (int)in->rq_max);
	return (unsigned int)((unsigned long long)bmax * in->rq_max / MODEL_SCALE);
}

/* sugov_iowait_reset(): a tick without callbacks restarts the boost (S20). */
static bool iowait_reset(const struct model_su_policy *p, struct model_su_gov_cpu *c,
			 unsigned long long time_ns, bool is_set)
{
	long long delta = (long long)(time_ns - c->last_update_ns);

	if (delta <= (long long)(p->tick_us * NSEC_PER_USEC))
		return false;
	c->iowait_boost = is_set ? boost_start(p) : 0;
	c->is_iowait_pending = is_set;
	return true;
}

/* Boost bookkeeping of every callback (S20, S21, S22, VS3). */
static void iowait_request(const struct model_su_policy *p, struct model_su_gov_cpu *c,
			   unsigned long long time_ns, unsigned int flags,
			   const struct model_su_cpu_in *in)
{
	bool is_set = flags & MODEL_SU_FLAG_IOWAIT;
	unsigned int ceiling;

	if (p->feat.iowait_form == MODEL_SU_IOWAIT_LEGACY) {
		long long delta = (long long)(time_ns - c->last_update_ns);

		if (is_set)
			c->iowait_boost = p->max_freq_khz;
		else if (c->iowait_boost && delta > (long long)(p->tick_us * NSEC_PER_USEC))
			c->iowait_boost = 0;
		return;
	}
	if (c->iowait_boost && iowait_reset(p, c, time_ns, is_set))
		return;
	if (!is_set || c->is_iowait_pending)
		return;
	c->is_iowait_pending = true;
	if (!c->iowait_boost) {
		c->iowait_boost = boost_start(p);
		return;
	}
	ceiling = boost_ceiling(p, in);
	c->iowait_boost <<= 1;
	if (c->iowait_boost > ceiling)
		c->iowait_boost = ceiling;
}

/* Boost of one evaluation past the gate; decays it when not re-requested. */
static unsigned int iowait_apply(const struct model_su_policy *p, struct model_su_gov_cpu *c,
				 unsigned long long time_ns)
{
	unsigned int boost = c->iowait_boost;

	if (p->feat.iowait_form == MODEL_SU_IOWAIT_LEGACY) {
		c->iowait_boost >>= 1;	/* S22: each application halves */
		return boost;
	}
	if (!boost || iowait_reset(p, c, time_ns, false))
		return 0;
	if (!c->is_iowait_pending) {
		c->iowait_boost >>= 1;
		if (c->iowait_boost < boost_start(p)) {
			c->iowait_boost = 0;
			return 0;
		}
	}
	c->is_iowait_pending = false;
	return c->iowait_boost;
}

/* tick_nohz_get_idle_calls_cpu() unchanged since the last sample (S18)? */
static bool sample_busy(struct model_su_gov_cpu *c, const struct model_su_cpu_in *in)
{
	bool is_busy = c->has_idle_calls && c->saved_idle_calls == in->idle_calls;

	c->has_idle_calls = true;
	c->saved_idle_calls = in->idle_calls;
	return is_busy;
}

/* MS6 uclamp_rq_is_capped(): the rq is held below its utilization. */
static bool rq_capped(const struct model_su_policy *p, const struct model_su_cpu_in *in)
{
	if (!p->feat.is_hold_skipped_capped ||
	    (p->feat.is_uclamp_keyed && !in->is_uclamp_used))
		return false;
	return in->rq_max != MODEL_SCALE &&
	       (unsigned long long)in->util_cfs + in->util_rt >= in->rq_max;
}

/* The gate (S15, S16, S17). */
static bool should_update(const struct model_su_policy *p, struct model_su_gov *g,
			  unsigned long long time_ns, struct model_su_result *res,
			  struct model_su_explain *ex)
{
	long long delta = (long long)(time_ns - g->last_freq_update_ns);
	long long delay = (long long)(p->rate_limit_us * NSEC_PER_USEC);

	if (is_legacy(p) && !p->is_fast_switch && g->is_work_in_progress) {
		model_su_explain_add(ex, "S16", "kthread request pending", 1, 1, 0);
		return false;
	}
	if (g->is_limits_changed) {
		g->is_limits_changed = false;
		if (is_legacy(p))
			g->next_freq_khz = MODEL_SU_FREQ_INVALID;
		else if (p->feat.forced_form == MODEL_SU_FORCED_FLAGGED)
			g->is_need_freq_update = p->is_need_update_limits;
		else
			g->is_need_freq_update = true;
		res->is_forced = true;
		model_su_explain_add(ex, "S17", "forced update", 1, 1, 0);
		return true;
	}
	if (delta >= delay)
		return true;
	model_su_explain_add(ex, "S15", "gated: ns since update, delay ns", 2,
			     (unsigned long long)(delta < 0 ? 0 : delta),
			     (unsigned long long)delay);
	return false;
}

/* Utilization of CPU @i at this evaluation, with @boost applied. */
static void cpu_util_at(const struct model_su_policy *p, const struct model_su_cpu_in *in,
			unsigned int boost, bool is_rt, bool is_dl,
			struct model_su_util *u, struct model_su_explain *ex)
{
	struct model_su_cpu_in c = *in;

	c.iowait_boost = boost;
	if (is_legacy(p)) {
		c.is_rt_runnable = is_rt;
		c.is_dl_runnable = is_dl;
	}
	model_su_cpu_util(p, &c, u, ex);
}

/* S12 (4.11–4.17 shared): stored utils; stale CPUs drop out, RT/DL forces max. */
static void legacy_shared(const struct model_su_policy *p, struct model_su_gov *g,
			  const struct model_su_cpu_in *in, unsigned long long time_ns,
			  struct model_su_util *best, unsigned int *best_idx,
			  struct model_su_explain *ex)
{
	unsigned long long tick = p->tick_us * NSEC_PER_USEC;
	unsigned long long ref = p->feat.is_legacy_stale_now ? time_ns : g->last_freq_update_ns;
	unsigned int j, flags, boost[MODEL_SU_MAX_CPUS] = { 0 };
	struct model_su_cpu_in stored;
	struct model_su_util u;

	/* the kernel starts from util 0 of max 1: what no fresh CPU beats */
	*best = (struct model_su_util){ .util = 0, .scale = 1 };
	for (j = 0; j < p->nr_cpus; j++) {
		struct model_su_gov_cpu *c = &g->cpu[j];

		stored = in[j];

		if ((long long)(ref - c->last_update_ns) > (long long)tick) {
			c->iowait_boost = 0;
			c->is_iowait_pending = false;
			continue;
		}
		stored.util_cfs = c->legacy_util;
		stored.bw_dl = 0;
		boost[j] = iowait_apply(p, c, time_ns);
		cpu_util_at(p, &stored, boost[j], c->legacy_flags & MODEL_SU_FLAG_RT,
			    c->legacy_flags & MODEL_SU_FLAG_DL, &u, NULL);
		if (u.is_max_freq) {
			*best = u;
			*best_idx = j;
			break;
		}
		if (u.util * best->scale > best->util * u.scale) {
			*best = u;
			*best_idx = j;
		}
	}
	model_su_explain_add(ex, "S12", "deciding cpu", 1,
			     (unsigned long long)p->cpu[*best_idx], 0);
	stored = in[*best_idx];
	stored.util_cfs = g->cpu[*best_idx].legacy_util;
	stored.bw_dl = 0;
	flags = g->cpu[*best_idx].legacy_flags;
	cpu_util_at(p, &stored, boost[*best_idx], flags & MODEL_SU_FLAG_RT,
		    flags & MODEL_SU_FLAG_DL, &u, ex);
}

/* S13/S14 (4.18+ shared) or the single CPU: every util recomputed now. */
static void fresh_utils(const struct model_su_policy *p, struct model_su_gov *g,
			const struct model_su_cpu_in *in, unsigned long long time_ns,
			struct model_su_util *best, unsigned int *best_idx,
			struct model_su_explain *ex)
{
	unsigned int j, boost[MODEL_SU_MAX_CPUS] = { 0 };
	struct model_su_util u;

	best->util = 0;
	best->scale = 1;
	for (j = 0; j < p->nr_cpus; j++) {
		boost[j] = iowait_apply(p, &g->cpu[j], time_ns);
		g->cpu[j].bw_dl = in[j].bw_dl;
		cpu_util_at(p, &in[j], boost[j], false, false, &u, NULL);
		if (!j || u.util * best->scale > best->util * u.scale) {
			*best = u;
			*best_idx = j;
		}
	}
	if (p->nr_cpus > 1)
		model_su_explain_add(ex, p->feat.is_shared_max ? "S14" : "S13", "deciding cpu",
				     1, (unsigned long long)p->cpu[*best_idx], 0);
	cpu_util_at(p, &in[*best_idx], boost[*best_idx], false, false, &u, ex);
}

/* get_next_freq(): raw target, cache (S11), resolution (S10). */
static unsigned int next_freq(const struct model_su_policy *p, struct model_su_gov *g,
			      const struct model_su_util *u, struct model_su_result *res,
			      struct model_su_explain *ex)
{
	bool is_hit;

	res->raw_khz = model_su_raw_khz(p, u->util, u->scale);
	model_su_explain_add(ex, "S9", "raw target kHz", 1, res->raw_khz, 0);
	if (is_legacy(p))
		is_hit = res->raw_khz == g->cached_raw_khz &&
			 g->next_freq_khz != MODEL_SU_FREQ_INVALID;
	else
		is_hit = res->raw_khz == g->cached_raw_khz && !g->is_need_freq_update;
	if (is_hit) {
		res->is_cached = true;
		res->resolved_khz = g->next_freq_khz;
		model_su_explain_add(ex, "S11", "cache hit: next_freq kHz", 1,
				     g->next_freq_khz, 0);
		return g->next_freq_khz;
	}
	if (p->feat.forced_form == MODEL_SU_FORCED_ONCE)
		g->is_need_freq_update = false;
	g->cached_raw_khz = res->raw_khz;
	res->resolved_khz = model_su_resolve(p, res->raw_khz);
	model_su_explain_add(ex, "S10", "resolved OPP kHz", 1, res->resolved_khz, 0);
	return res->resolved_khz;
}

/* sugov_update_next_freq() (S17, S19): is @f a new request for the driver? */
static bool update_next_freq(const struct model_su_policy *p, struct model_su_gov *g,
			     unsigned long long time_ns, unsigned int f)
{
	bool is_equal = g->next_freq_khz == f;

	switch (p->feat.forced_form) {
	case MODEL_SU_FORCED_LEGACY:
	case MODEL_SU_FORCED_ONCE:
		if (is_equal)
			return false;
		break;
	case MODEL_SU_FORCED_CALL:
		if (g->is_need_freq_update)
			g->is_need_freq_update = p->is_need_update_limits;
		else if (is_equal)
			return false;
		break;
	case MODEL_SU_FORCED_FLAGGED:
		if (g->is_need_freq_update)
			g->is_need_freq_update = false;
		else if (is_equal)
			return false;
		break;
	case MODEL_SU_FORCED_FIXED:
		if (g->is_need_freq_update) {
			g->is_need_freq_update = false;
			if (is_equal && !p->is_need_update_limits)
				return false;
		} else if (is_equal) {
			return false;
		}
		break;
	}
	g->next_freq_khz = f;
	g->last_freq_update_ns = time_ns;
	return true;
}

/* Hand a committed request to the driver (S25) or the kthread (S26). */
static void apply(struct model_su_policy *p, struct model_su_gov *g, unsigned int cpu_idx,
		  struct model_su_result *res)
{
	res->is_committed = true;
	if (!p->is_fast_switch) {
		res->freq_khz = g->next_freq_khz;
		if (!g->is_work_in_progress) {
			g->is_work_in_progress = true;
			res->emit = MODEL_SU_EMIT_DEFERRED;
		}
		return;
	}
	p->cur_khz = model_su_resolve(p, g->next_freq_khz);
	res->freq_khz = p->cur_khz;
	res->emit = p->feat.event_form == MODEL_SU_EVENT_POLICY ?
		    MODEL_SU_EMIT_POLICY : MODEL_SU_EMIT_EVAL_CPU;
	res->emit_cpu = p->cpu[cpu_idx];
}

/* 4.11–4.17 sugov_update_commit(): the time restarts at every evaluation (S16). */
static void legacy_commit(struct model_su_policy *p, struct model_su_gov *g,
			  unsigned int cpu_idx, unsigned long long time_ns, unsigned int f,
			  struct model_su_result *res, struct model_su_explain *ex)
{
	g->last_freq_update_ns = time_ns;
	if (g->next_freq_khz == f) {
		model_su_explain_add(ex, "S19", "unchanged kHz", 1, f, 0);
		if (p->is_fast_switch && p->feat.event_form == MODEL_SU_EVENT_ALWAYS) {
			res->freq_khz = p->cur_khz;
			res->emit = MODEL_SU_EMIT_EVAL_CPU;
			res->emit_cpu = p->cpu[cpu_idx];
		}
		return;
	}
	g->next_freq_khz = f;
	model_su_explain_add(ex, "S19", "committed kHz", 1, f, 0);
	if (p->is_fast_switch) {
		apply(p, g, cpu_idx, res);
		return;
	}
	res->is_committed = true;
	res->freq_khz = f;
	g->is_work_in_progress = true;
	res->emit = MODEL_SU_EMIT_DEFERRED;
}

/* Evaluation past the gate on 4.11–4.17 (S4, S12, S18, S22). */
static void eval_legacy(struct model_su_policy *p, struct model_su_gov *g,
			unsigned int idx, unsigned long long time_ns, unsigned int flags,
			const struct model_su_cpu_in *in, struct model_su_result *res,
			struct model_su_explain *ex)
{
	struct model_su_gov_cpu *c = &g->cpu[idx];
	struct model_su_util u;
	unsigned int f, best_idx = idx;
	bool is_busy = false;

	if (p->nr_cpus == 1 && p->feat.has_busy_hold && p->is_nohz)
		is_busy = sample_busy(c, &in[idx]);
	if (flags & (MODEL_SU_FLAG_RT | MODEL_SU_FLAG_DL)) {
		f = p->max_freq_khz;
		res->raw_khz = f;
		res->resolved_khz = f;
		model_su_explain_add(ex, "S4", "RT/DL callback: cpuinfo max kHz", 1, f, 0);
	} else {
		if (p->nr_cpus == 1)
			cpu_util_at(p, &in[idx], iowait_apply(p, c, time_ns), false, false, &u, ex);
		else
			legacy_shared(p, g, in, time_ns, &u, &best_idx, ex);
		if (u.is_max_freq) {
			f = p->max_freq_khz;
			res->raw_khz = f;
			res->resolved_khz = f;
		} else {
			f = next_freq(p, g, &u, res, ex);
			if (is_busy && f < g->next_freq_khz &&
			    g->next_freq_khz != MODEL_SU_FREQ_INVALID) {
				f = g->next_freq_khz;
				g->cached_raw_khz = 0;
				res->is_held = true;
				model_su_explain_add(ex, "S18", "busy hold keeps kHz", 1, f, 0);
			}
		}
	}
	legacy_commit(p, g, idx, time_ns, f, res, ex);
}

/* Evaluation past the gate on 4.18+ (S5–S14, S18, S19, S20, S21, MS6). */
static void eval_current(struct model_su_policy *p, struct model_su_gov *g,
			 unsigned int idx, unsigned long long time_ns,
			 const struct model_su_cpu_in *in, struct model_su_result *res,
			 struct model_su_explain *ex)
{
	const struct model_su_features *ft = &p->feat;
	bool is_single = p->nr_cpus == 1, can_hold, is_busy = false;
	unsigned int cached = g->cached_raw_khz, f, best_idx = idx;
	struct model_su_util u;

	can_hold = is_single && ft->has_busy_hold && p->is_nohz;
	/* 4.18–5.2 sample idleness first; 5.3–5.11 not while a forced update is pending */
	if (can_hold && !ft->is_hold_decided_late && !ft->is_hold_after_forced_check)
		is_busy = sample_busy(&g->cpu[idx], &in[idx]);
	else if (can_hold && ft->is_hold_after_forced_check)
		is_busy = !g->is_need_freq_update && sample_busy(&g->cpu[idx], &in[idx]);
	fresh_utils(p, g, in, time_ns, &u, &best_idx, ex);
	f = next_freq(p, g, &u, res, ex);
	/* ≈5.12+: after next_f; a capped rq (MS6) is not even sampled */
	if (can_hold && ft->is_hold_decided_late)
		is_busy = !rq_capped(p, &in[idx]) && sample_busy(&g->cpu[idx], &in[idx]) &&
			  !g->is_need_freq_update;
	if (is_busy && f < g->next_freq_khz) {
		f = g->next_freq_khz;
		g->cached_raw_khz = ft->is_hold_cache_restored ? cached : 0;
		res->is_held = true;
		model_su_explain_add(ex, "S18", "busy hold keeps kHz", 1, f, 0);
	}
	if (!update_next_freq(p, g, time_ns, f)) {
		model_su_explain_add(ex, "S19", "unchanged kHz", 1, f, 0);
		return;
	}
	model_su_explain_add(ex, "S19", "committed kHz", 1, f, 0);
	apply(p, g, idx, res);
}

/**
 * model_su_gov_update() - one cpufreq_update_util() callback of a CPU (S2)
 * @p: the policy; cur changes when a fast switch happens (S25)
 * @g: governor state (model_su_gov_start() first)
 * @cpu_idx: index into p->cpu[] of the CPU whose runqueue called
 * @time_ns: rq clock of the callback
 * @flags: MODEL_SU_FLAG_* of the callback
 * @in: current inputs of every CPU of the policy, in p->cpu[] order
 * @res: outcome of the callback
 * @ex: explanation (gate, util chain, cache, hold, commit); may be NULL
 *
 * Order as in the kernel: iowait request bookkeeping (S20–S22), DL bandwidth
 * increase (S17), the gate (S15–S17), then the evaluation: per-CPU utils
 * (single CPU, S12 stored utils on 4.11–4.17 shared policies, S13/S14
 * recomputed otherwise), S9, the cache (S11), S10, the busy hold (S18, MS6),
 * the commit (S19) and its application (S25 fast switch, S26 kthread request).
 * Return: 0, or -EINVAL for invalid policy, inputs or @cpu_idx.
 */
int model_su_gov_update(struct model_su_policy *p, struct model_su_gov *g,
			unsigned int cpu_idx, unsigned long long time_ns,
			unsigned int flags, const struct model_su_cpu_in *in,
			struct model_su_result *res, struct model_su_explain *ex)
{
	struct model_su_gov_cpu *c;

	memset(res, 0, sizeof(*res));
	res->emit_cpu = -1;
	if (model_su_policy_check(p, NULL) || cpu_idx >= p->nr_cpus ||
	    model_su_cpu_check(p, in, p->nr_cpus, NULL))
		return -EINVAL;
	c = &g->cpu[cpu_idx];
	if (is_legacy(p)) {
		struct model_su_util u;

		cpu_util_at(p, &in[cpu_idx], 0, false, false, &u, NULL);
		c->legacy_util = (unsigned int)u.util;
		c->legacy_flags = flags;
	}
	iowait_request(p, c, time_ns, flags, &in[cpu_idx]);
	c->last_update_ns = time_ns;
	if (p->feat.is_dl_forced && in[cpu_idx].bw_dl > c->bw_dl) {
		g->is_limits_changed = true;
		model_su_explain_add(ex, "S17", "DL bandwidth increased", 2,
				     c->bw_dl, in[cpu_idx].bw_dl);
	}
	if (!should_update(p, g, time_ns, res, ex)) {
		res->next_freq_khz = g->next_freq_khz;
		return 0;
	}
	res->is_evaluated = true;
	if (is_legacy(p))
		eval_legacy(p, g, cpu_idx, time_ns, flags, in, res, ex);
	else
		eval_current(p, g, cpu_idx, time_ns, in, res, ex);
	res->next_freq_khz = g->next_freq_khz;
	return 0;
}

/* Relation H: the highest OPP <= @khz, or the lowest OPP (S27). */
static unsigned int opp_at_most(const struct model_su_policy *p, unsigned int khz)
{
	unsigned int i;

	if (!p->nr_opps)
		return khz;
	for (i = p->nr_opps; i > 0; i--)
		if (p->opp_khz[i - 1] <= khz)
			return p->opp_khz[i - 1];
	return p->opp_khz[0];
}

/**
 * model_su_gov_limits() - new policy limits (S27)
 * @p: the policy; min, max and (slow path) cur are updated
 * @g: governor state
 * @min_khz: new policy->min as requested (snapped on use on 5.16+, S10)
 * @max_khz: new policy->max
 * @res: the frequency change the slow path applies at once, if any
 *
 * Slow path: cur above max goes to the highest OPP <= max, cur below min to
 * the lowest OPP >= min, with an event per policy CPU. Both paths then mark
 * a forced update (S17): the next callback bypasses the gate.
 * Return: 0, or -EINVAL when @min_khz > @max_khz or @max_khz is 0.
 */
int model_su_gov_limits(struct model_su_policy *p, struct model_su_gov *g,
			unsigned int min_khz, unsigned int max_khz,
			struct model_su_result *res)
{
	unsigned int lo, hi, f;

	memset(res, 0, sizeof(*res));
	res->emit_cpu = -1;
	if (!max_khz || min_khz > max_khz)
		return -EINVAL;
	p->min_khz = min_khz;
	p->max_khz = max_khz;
	model_su_limits_effective(p, &lo, &hi);
	f = p->cur_khz;
	if (!p->is_fast_switch) {
		if (hi < f)
			f = opp_at_most(p, hi);
		else if (lo > f)
			f = model_su_resolve(p, lo);
		if (f != p->cur_khz) {
			p->cur_khz = f;
			res->is_committed = true;
			res->emit = MODEL_SU_EMIT_POLICY;
		}
	}
	res->freq_khz = p->cur_khz;
	res->next_freq_khz = g->next_freq_khz;
	g->is_limits_changed = true;
	return 0;
}

/**
 * model_su_gov_work() - the sugov:N kthread runs (S26)
 * @p: the policy; cur becomes the applied frequency
 * @g: governor state; the pending request is consumed
 * @res: emit is MODEL_SU_EMIT_POLICY when the frequency changed
 *
 * Takes the latest next_freq, resolves it with relation L under the current
 * limits; equal to cur does nothing.
 */
void model_su_gov_work(struct model_su_policy *p, struct model_su_gov *g,
		       struct model_su_result *res)
{
	unsigned int f;

	memset(res, 0, sizeof(*res));
	res->emit_cpu = -1;
	res->next_freq_khz = g->next_freq_khz;
	g->is_work_in_progress = false;
	if (g->next_freq_khz == MODEL_SU_FREQ_INVALID || !g->next_freq_khz)
		return;
	f = model_su_resolve(p, g->next_freq_khz);
	res->freq_khz = f;
	if (f == p->cur_khz)
		return;
	p->cur_khz = f;
	res->is_committed = true;
	res->emit = MODEL_SU_EMIT_POLICY;
}

/**
 * model_su_gov_earliest_change_ns() - when a new frequency may next be set
 * @p: the policy (its rate limit)
 * @g: governor state
 * @now_ns: the current time
 *
 * A pending forced update allows a change at the next callback (S17): @now_ns.
 * Otherwise last_freq_update_time + rate limit (S15, S16: 4.18+ the last
 * commit, 4.11–4.17 the last evaluation), or @now_ns if that is earlier.
 * Checks add a scheduler tick on top: callbacks happen only on events.
 */
unsigned long long model_su_gov_earliest_change_ns(const struct model_su_policy *p,
						   const struct model_su_gov *g,
						   unsigned long long now_ns)
{
	unsigned long long t;

	if (g->is_limits_changed)
		return now_ns;
	t = g->last_freq_update_ns + p->rate_limit_us * NSEC_PER_USEC;
	return t > now_ns ? t : now_ns;
}
