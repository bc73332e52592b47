// SPDX-License-Identifier: MIT
/*
 * schedutil's pure computations (schedutil.md S1, S4–S10, S12–S14, S20–S24):
 * per-CPU utilization for frequency with the clamp coupling of each variant
 * (uclamp-v3.md VS1–VS3, uclamp-mainline.md MS1–MS5), the raw target, OPP
 * resolution, the clamp floor and ceiling (events.md §4) and input checks.
 * Arithmetic is the kernel's (64-bit, truncating) so results match bit for bit.
 */
#include <errno.h>
#include <limits.h>
#include <string.h>

#include "schedutil.h"

/* Releases where a rule changed (schedutil.md, uclamp-mainline.md §1). */
#define KVER_FIRST		MODEL_KVER(4, 11, 0)	/* oldest modelled (Juno trace) */
#define KVER_BUSY_HOLD		MODEL_KVER(4, 12, 0)	/* S18 */
#define KVER_RATE_CAP		MODEL_KVER(4, 14, 0)	/* S15: 10 ms cap */
#define KVER_EVENT_CHANGES	MODEL_KVER(4, 15, 0)	/* S25: changes only (≈) */
#define KVER_LEGACY_DL		MODEL_KVER(4, 16, 0)	/* S4: bw_dl added (≈) */
#define KVER_SUM		MODEL_KVER(4, 18, 0)	/* S5 */
#define KVER_DL_FORCED		MODEL_KVER(4, 19, 0)	/* S17 ignore_dl_rate_limit */
#define KVER_IOWAIT_CAP		MODEL_KVER(5, 1, 0)	/* S20 (≈) */
#define KVER_UCLAMP		MODEL_KVER(5, 3, 0)	/* MS1; S25 per-policy events */
#define KVER_UCLAMP_KEY		MODEL_KVER(5, 9, 0)	/* MR2 static key */
#define KVER_FORCED_CALL	MODEL_KVER(5, 9, 0)	/* CPUFREQ_NEED_UPDATE_LIMITS */
#define KVER_HOLD_SAMPLED	MODEL_KVER(5, 12, 0)	/* S18 hold after next_f (≈) */
#define KVER_HOLD_RESTORE	MODEL_KVER(5, 15, 0)	/* S18 cache restored (≈) */
#define KVER_LIMITS_SNAPPED	MODEL_KVER(5, 16, 0)	/* S10 */
#define KVER_UCLAMP_CAPPED	MODEL_KVER(5, 18, 0)	/* MS4, MS6 */
#define KVER_PERF_TARGET	MODEL_KVER(6, 0, 0)	/* S9 perf form (≈) */
#define KVER_SHARED_MAX		MODEL_KVER(6, 2, 0)	/* S14 (≈) */
#define KVER_PERF_UTIL		MODEL_KVER(6, 8, 0)	/* S7, S8 */
#define KVER_RATE_LATENCY	MODEL_KVER(6, 10, 0)	/* S15: L + L/2 (≈) */
#define KVER_FORCED_FLAGGED	MODEL_KVER(6, 14, 0)	/* S17, 8e461a1cb43d (≈) */
#define KVER_FORCED_FIXED	MODEL_KVER(6, 15, 0)	/* S17, cfde542df7dd (≈) */

/* S15: LATENCY_MULTIPLIER, and the caps of the default rate limit (µs). */
#define RATE_LATENCY_MULT	1000
#define RATE_CAP_US		10000
#define RATE_CAP_68_US		2000

/* Largest value a kernel clamp can hold (uclamp-v3.md §0). */
#define CLAMP_MAX		MODEL_SCALE
/* SCHED_CAPACITY_SHIFT: MODEL_SCALE == 1 << CAPACITY_SHIFT (S20 boost scaling). */
#define CAPACITY_SHIFT		10

#define _SU(name, text) text,
static const char *const reason_text[] = { MODEL_SU_REASONS };
#undef _SU

static unsigned long long min_ull(unsigned long long a, unsigned long long b)
{
	return a < b ? a : b;
}

static unsigned long long max_ull(unsigned long long a, unsigned long long b)
{
	return a > b ? a : b;
}

/**
 * model_su_explain_add() - append one step to an explanation
 * @ex: the explanation, or NULL when the caller wants none
 * @rule: spec rule ID (static string)
 * @label: short static text
 * @nr_values: 1 or 2
 * @v0: first value
 * @v1: second value (ignored when @nr_values is 1)
 *
 * Steps beyond MODEL_SU_EXPLAIN_MAX are dropped and @ex->is_truncated is set.
 */
void model_su_explain_add(struct model_su_explain *ex, const char *rule,
			  const char *label, unsigned int nr_values,
			  unsigned long long v0, unsigned long long v1)
{
	struct model_su_step *s;

	if (!ex)
		return;
	if (ex->nr >= MODEL_SU_EXPLAIN_MAX) {
		ex->is_truncated = true;
		return;
	}
	s = &ex->step[ex->nr++];
	s->rule = rule;
	s->label = label;
	s->nr_values = nr_values;
	s->value[0] = v0;
	s->value[1] = nr_values > 1 ? v1 : 0;
}

/**
 * model_su_features_init() - release-dependent behaviour of schedutil
 * @feat: filled in
 * @kver: MODEL_KVER() of the kernel
 * @variant: v3 (the 4.19-based series, VS1–VS4) or mainline
 *
 * Each flag names the rule it switches (schedutil.md §0 eras, MS milestones).
 * Releases marked (≈) in the spec are best estimates; a caller describing a
 * stable kernel with backports may override single flags afterwards.
 */
void model_su_features_init(struct model_su_features *feat, unsigned int kver,
			    enum model_variant variant)
{
	bool is_ml = variant == MODEL_MAINLINE;

	memset(feat, 0, sizeof(*feat));
	if (kver >= KVER_PERF_UTIL && is_ml)
		feat->util_form = MODEL_SU_UTIL_PERF;
	else if (kver >= KVER_SUM || !is_ml)
		feat->util_form = MODEL_SU_UTIL_SUM;
	else
		feat->util_form = MODEL_SU_UTIL_LEGACY;

	if (!is_ml || kver < KVER_PERF_TARGET)
		feat->target_form = MODEL_SU_TARGET_OLD;
	else if (kver < KVER_PERF_UTIL)
		feat->target_form = MODEL_SU_TARGET_PERF;
	else
		feat->target_form = MODEL_SU_TARGET_REF;

	if (feat->util_form == MODEL_SU_UTIL_LEGACY)
		feat->iowait_form = MODEL_SU_IOWAIT_LEGACY;
	else if (!is_ml || kver < KVER_IOWAIT_CAP)
		feat->iowait_form = MODEL_SU_IOWAIT_KHZ;
	else
		feat->iowait_form = MODEL_SU_IOWAIT_CAP;

	if (kver < KVER_SUM)
		feat->forced_form = MODEL_SU_FORCED_LEGACY;
	else if (kver < KVER_FORCED_CALL)
		feat->forced_form = MODEL_SU_FORCED_ONCE;
	else if (kver < KVER_FORCED_FLAGGED)
		feat->forced_form = MODEL_SU_FORCED_CALL;
	else if (kver < KVER_FORCED_FIXED)
		feat->forced_form = MODEL_SU_FORCED_FLAGGED;
	else
		feat->forced_form = MODEL_SU_FORCED_FIXED;

	if (kver < KVER_EVENT_CHANGES)
		feat->event_form = MODEL_SU_EVENT_ALWAYS;
	else if (kver < KVER_UCLAMP)
		feat->event_form = MODEL_SU_EVENT_EVAL_CPU;
	else
		feat->event_form = MODEL_SU_EVENT_POLICY;

	feat->has_uclamp = !is_ml || kver >= KVER_UCLAMP;
	feat->is_uclamp_keyed = is_ml && kver >= KVER_UCLAMP_KEY;
	feat->is_legacy_dl = kver >= KVER_LEGACY_DL && kver < KVER_SUM;
	feat->has_busy_hold = kver >= KVER_BUSY_HOLD;
	feat->is_hold_after_forced_check = kver >= KVER_UCLAMP && kver < KVER_HOLD_SAMPLED;
	feat->is_hold_decided_late = kver >= KVER_HOLD_SAMPLED;
	feat->is_hold_skipped_capped = is_ml && kver >= KVER_UCLAMP_CAPPED;
	feat->is_hold_cache_restored = kver >= KVER_HOLD_RESTORE;
	feat->is_dl_forced = kver >= KVER_DL_FORCED;
	feat->is_limits_snapped = kver >= KVER_LIMITS_SNAPPED;
	feat->is_iowait_clamped = is_ml && kver >= KVER_UCLAMP_CAPPED;
	feat->is_shared_max = kver >= KVER_SHARED_MAX;
}

/**
 * model_su_policy_init() - a policy with the defaults of a release
 * @p: filled in; the caller then sets OPPs (model_su_policy_set_opps()) and CPUs
 * @kver: MODEL_KVER() of the kernel
 * @variant: v3 or mainline
 *
 * Defaults (S1, S15, events.md §3): capacity 1024, frequency-invariant, fast
 * switch, NO_HZ, rate limit 1000 µs, tick 4000 µs, v3 fidelity intent.
 */
void model_su_policy_init(struct model_su_policy *p, unsigned int kver,
			  enum model_variant variant)
{
	memset(p, 0, sizeof(*p));
	p->kver = kver;
	p->variant = variant;
	p->fidelity = MODEL_INTENT;
	p->capacity = MODEL_SCALE;
	p->rate_limit_us = MODEL_SU_DEFAULT_RATE_LIMIT_US;
	p->tick_us = MODEL_SU_DEFAULT_TICK_US;
	p->is_invariant = true;
	p->is_fast_switch = true;
	p->is_nohz = true;
	model_su_features_init(&p->feat, kver, variant);
}

/**
 * model_su_policy_set_opps() - copy an OPP table; limits become its range (S1)
 * @p: the policy
 * @opp_khz: ascending frequencies
 * @nr: how many (0: a driver without table, S10)
 *
 * Sets cpuinfo max_freq, min, max and cur to the table's range (cur = max).
 * Return: 0, or -EINVAL for more than MODEL_SU_MAX_OPPS entries.
 */
int model_su_policy_set_opps(struct model_su_policy *p, const unsigned int *opp_khz,
			     unsigned int nr)
{
	if (nr > MODEL_SU_MAX_OPPS)
		return -EINVAL;
	p->nr_opps = nr;
	if (nr)
		memcpy(p->opp_khz, opp_khz, nr * sizeof(*opp_khz));
	if (nr) {
		p->max_freq_khz = opp_khz[nr - 1];
		p->min_khz = opp_khz[0];
		p->max_khz = opp_khz[nr - 1];
		p->cur_khz = opp_khz[nr - 1];
	}
	return 0;
}

static int diag_set(struct model_su_diag *diag, enum model_su_reason reason, int index)
{
	if (diag) {
		diag->reason = reason;
		diag->index = index;
	}
	return reason == MODEL_SU_E_OK ? 0 : -EINVAL;
}

/**
 * model_su_policy_check() - validate a policy description (S1)
 * @p: the policy
 * @diag: filled with the first problem found and its OPP or CPU index; may be NULL
 *
 * OPPs non-zero and strictly ascending, cpuinfo max non-zero, min <= max with
 * max non-zero, capacity in 1..1024, 1..MODEL_SU_MAX_CPUS distinct CPU ids.
 * Return: 0 or -EINVAL.
 */
int model_su_policy_check(const struct model_su_policy *p, struct model_su_diag *diag)
{
	unsigned int i, j;

	if (p->kver < KVER_FIRST)
		return diag_set(diag, MODEL_SU_E_KVER, -1);
	if (p->nr_opps > MODEL_SU_MAX_OPPS || p->nr_cpus > MODEL_SU_MAX_CPUS)
		return diag_set(diag, MODEL_SU_E_TOO_MANY, -1);
	for (i = 0; i < p->nr_opps; i++) {
		if (!p->opp_khz[i])
			return diag_set(diag, MODEL_SU_E_OPP_ZERO, (int)i);
		if (i && p->opp_khz[i] <= p->opp_khz[i - 1])
			return diag_set(diag, MODEL_SU_E_OPP_ORDER, (int)i);
	}
	if (!p->max_freq_khz)
		return diag_set(diag, MODEL_SU_E_MAX_FREQ, -1);
	if (!p->max_khz || p->min_khz > p->max_khz)
		return diag_set(diag, MODEL_SU_E_LIMITS, -1);
	if (!p->capacity || p->capacity > MODEL_SCALE)
		return diag_set(diag, MODEL_SU_E_CAPACITY, -1);
	if (!p->nr_cpus)
		return diag_set(diag, MODEL_SU_E_NO_CPUS, -1);
	for (i = 0; i < p->nr_cpus; i++) {
		if (p->cpu[i] < 0)
			return diag_set(diag, MODEL_SU_E_CPU_ID, (int)i);
		for (j = 0; j < i; j++)
			if (p->cpu[j] == p->cpu[i])
				return diag_set(diag, MODEL_SU_E_CPU_ID, (int)i);
	}
	return diag_set(diag, MODEL_SU_E_OK, -1);
}

/**
 * model_su_cpu_check() - validate per-CPU inputs against a policy (S4–S7)
 * @p: the policy (already valid)
 * @in: inputs, one per CPU of the policy
 * @nr: entries in @in (at most p->nr_cpus)
 * @diag: first problem and its CPU index; may be NULL
 *
 * Every utilization (cfs, rt, dl, bw_dl, irq) at most the capacity, clamp
 * values at most 1024. Return: 0 or -EINVAL.
 */
int model_su_cpu_check(const struct model_su_policy *p, const struct model_su_cpu_in *in,
		       unsigned int nr, struct model_su_diag *diag)
{
	unsigned int i;

	if (nr > p->nr_cpus)
		return diag_set(diag, MODEL_SU_E_CPU_IDX, (int)nr);
	for (i = 0; i < nr; i++) {
		const struct model_su_cpu_in *c = &in[i];

		if (c->util_cfs > p->capacity || c->util_rt > p->capacity ||
		    c->util_dl > p->capacity || c->bw_dl > p->capacity ||
		    c->irq > p->capacity)
			return diag_set(diag, MODEL_SU_E_UTIL, (int)i);
		if (c->rq_min > CLAMP_MAX || c->rq_max > CLAMP_MAX)
			return diag_set(diag, MODEL_SU_E_CLAMP, (int)i);
	}
	return diag_set(diag, MODEL_SU_E_OK, -1);
}

/**
 * model_su_reason_str() - text of a validation reason
 * @reason: from struct model_su_diag
 */
const char *model_su_reason_str(enum model_su_reason reason)
{
	if ((unsigned int)reason >= MODEL_SU_E_CNT)
		return "unknown reason";
	return reason_text[reason];
}

/**
 * model_su_default_rate_limit_us() - the driver's default rate limit (S15)
 * @kver: MODEL_KVER() of the kernel
 * @transition_delay_us: the driver's transition_delay_us, 0 if unset
 * @latency_us: cpuinfo.transition_latency in µs (L)
 *
 * transition_delay_us wins; else 4.11–4.13: 1000·L; 4.14–6.7: min(1000·L,
 * 10000); 6.8–≈6.9: min(1000·L, 2000), or L when L > 2000; ≈6.10+: L + L/2.
 * L = 0 gives 1000 everywhere. (A later stable fix capping the ≈6.10 form at
 * 10000 µs is not applied.)
 */
unsigned int model_su_default_rate_limit_us(unsigned int kver,
					    unsigned int transition_delay_us,
					    unsigned int latency_us)
{
	unsigned long long l = latency_us;

	if (transition_delay_us)
		return transition_delay_us;
	if (!l)
		return RATE_LATENCY_MULT;
	if (kver >= KVER_RATE_LATENCY)
		return (unsigned int)(l + (l >> 1));
	if (kver >= KVER_PERF_UTIL) {
		if (l > RATE_CAP_68_US)
			return (unsigned int)l;
		return (unsigned int)min_ull(l * RATE_LATENCY_MULT, RATE_CAP_68_US);
	}
	if (kver >= KVER_RATE_CAP)
		return (unsigned int)min_ull(l * RATE_LATENCY_MULT, RATE_CAP_US);
	return (unsigned int)min_ull(l * RATE_LATENCY_MULT, UINT_MAX);
}

/* Are the rq clamps of this CPU applied at all (MS1 static key, MR2)? */
static bool clamps_active(const struct model_su_policy *p, const struct model_su_cpu_in *in)
{
	if (!p->feat.has_uclamp)
		return false;
	return !p->feat.is_uclamp_keyed || in->is_uclamp_used;
}

/* rq UCLAMP_MIN as schedutil reads it: an idle rq reads 0 (VR11, MR8). */
static unsigned int rq_min_read(const struct model_su_cpu_in *in)
{
	return in->is_rq_idle ? 0 : in->rq_min;
}

/* @util through the rq clamps of the variant: VR8 max wins, MS1 min wins. */
static unsigned long long clamp_rq(const struct model_su_policy *p,
				   const struct model_su_cpu_in *in,
				   unsigned long long util)
{
	unsigned int lo = rq_min_read(in), hi = in->rq_max;

	if (!clamps_active(p, in))
		return util;
	if (p->variant == MODEL_MAINLINE && lo >= hi)
		return lo;
	return min_ull(max_ull(util, lo), hi);
}

/* S5 tail: DL saturation, irq scaling, bw_dl, capacity (S24). */
static unsigned long long sum_tail(const struct model_su_policy *p,
				   const struct model_su_cpu_in *in,
				   unsigned long long u, struct model_su_explain *ex)
{
	unsigned long long cap = p->capacity;

	if (u + in->util_dl >= cap) {
		model_su_explain_add(ex, "S5", "util + util_dl saturates", 1, cap, 0);
		return cap;
	}
	u = u * (cap - in->irq) / cap + in->irq;
	u = min_ull(cap, u + in->bw_dl);
	model_su_explain_add(ex, "S24", "irq-scaled + bw_dl", 1, u, 0);
	return u;
}

/* S5 + VS1: the v3 series on its 4.19 base. */
static unsigned long long util_v3(const struct model_su_policy *p,
				  const struct model_su_cpu_in *in,
				  struct model_su_explain *ex)
{
	unsigned long long cap = p->capacity, u;
	bool is_rt_forced = false;

	if (in->is_rt_runnable) {
		if (p->fidelity == MODEL_SEED) {
			model_su_explain_add(ex, "VS1", "RT runnable: capacity", 1, cap, 0);
			return cap;
		}
		is_rt_forced = true;
	}
	if (in->irq >= cap) {
		model_su_explain_add(ex, "S5", "irq saturates", 1, cap, 0);
		return cap;
	}
	if (is_rt_forced) {
		/* VQ12 intent: RT asks for the capacity, clamped like CFS */
		u = clamp_rq(p, in, cap);
		model_su_explain_add(ex, "VQ12", "RT runnable: clamped capacity", 1, u, 0);
	} else if (p->is_sched_class) {
		u = 0;
		if (in->util_cfs)
			u += clamp_rq(p, in, in->util_cfs);
		if (in->util_rt)
			u += clamp_rq(p, in, in->util_rt);
		model_su_explain_add(ex, "VS1", "clamp(cfs) + clamp(rt)", 1, u, 0);
	} else {
		u = (unsigned long long)in->util_cfs + in->util_rt;
		model_su_explain_add(ex, "S5", "util_cfs+util_rt", 1, u, 0);
		u = clamp_rq(p, in, u);
		model_su_explain_add(ex, "VR8", "clamped util", 1, u, 0);
	}
	return sum_tail(p, in, u, ex);
}

/* S5/S6 + MS1–MS3: mainline 4.18–6.7 (no clamps before 5.3). */
static unsigned long long util_sum(const struct model_su_policy *p,
				   const struct model_su_cpu_in *in,
				   struct model_su_explain *ex)
{
	unsigned long long cap = p->capacity, u;
	bool is_clamped = clamps_active(p, in);
	/* S5 is the 4.18/4.19 form, S6 the same sum on 5.x–6.7 */
	const char *rule = p->kver >= MODEL_KVER(5, 0, 0) ? "S6" : "S5";

	if (in->is_rt_runnable && !is_clamped) {
		model_su_explain_add(ex, "MS2", "RT runnable: capacity", 1, cap, 0);
		return cap;
	}
	if (in->irq >= cap) {
		model_su_explain_add(ex, rule, "irq saturates", 1, cap, 0);
		return cap;
	}
	u = (unsigned long long)in->util_cfs + in->util_rt;
	model_su_explain_add(ex, rule, "util_cfs+util_rt", 1, u, 0);
	if (is_clamped) {
		u = clamp_rq(p, in, u);
		model_su_explain_add(ex, "MS1", "clamped util", 1, u, 0);
	}
	return sum_tail(p, in, u, ex);
}

/* S20 capacity-form boost in capacity units, through MS1 from 5.18 (MS4). */
static unsigned long long boost_cap(const struct model_su_policy *p,
				    const struct model_su_cpu_in *in)
{
	unsigned long long b = ((unsigned long long)in->iowait_boost * p->capacity) >> CAPACITY_SHIFT;

	if (b && p->feat.is_iowait_clamped)
		b = clamp_rq(p, in, b);
	return b;
}

/* S7 + MS5: 6.8+ effective_cpu_util() and sugov_effective_cpu_perf(). */
static void util_perf(const struct model_su_policy *p, const struct model_su_cpu_in *in,
		      struct model_su_util *out, struct model_su_explain *ex)
{
	unsigned long long cap = p->capacity, actual, lo, hi, boost;
	bool is_clamped = clamps_active(p, in);

	if (in->irq >= cap) {
		model_su_explain_add(ex, "S7", "irq saturates", 1, cap, 0);
		out->util = cap;
		out->bw_min = (unsigned int)cap;
		return;
	}
	lo = max_ull((unsigned long long)in->irq + in->bw_dl, is_clamped ? rq_min_read(in) : 0);
	if (!is_clamped && in->is_rt_runnable)
		lo = max_ull(lo, cap);
	hi = min_ull(cap, is_clamped ? in->rq_max : MODEL_SCALE);
	actual = (unsigned long long)in->util_cfs + in->util_rt + in->util_dl;
	if (actual >= cap) {
		actual = cap;
	} else {
		actual = actual * (cap - in->irq) / cap + in->irq;
		actual = min_ull(cap, actual);
	}
	model_su_explain_add(ex, "S7", "actual util", 1, actual, 0);
	boost = boost_cap(p, in);
	if (boost > actual) {
		actual = boost;
		model_su_explain_add(ex, "MS4", "iowait boost", 1, boost, 0);
	}
	model_su_explain_add(ex, "MS5", "min, max", 2, lo, hi);
	out->bw_min = (unsigned int)lo;
	out->util = max_ull(lo, min_ull(MODEL_FREQ_HEADROOM(actual), hi));
	model_su_explain_add(ex, "MS5", "perf", 1, out->util, 0);
}

/* S21/S22: a kHz boost is a ratio boost / cpuinfo max; the larger ratio wins. */
static void apply_khz_boost(const struct model_su_policy *p, const struct model_su_cpu_in *in,
			    struct model_su_util *out, struct model_su_explain *ex)
{
	unsigned long long boost = in->iowait_boost, bmax = p->max_freq_khz;

	if (!boost)
		return;
	if (out->util * bmax < out->scale * boost) {
		out->util = boost;
		out->scale = bmax;
		model_su_explain_add(ex, p->feat.iowait_form == MODEL_SU_IOWAIT_KHZ ?
				     "S21" : "S22", "iowait boost kHz / max kHz", 2, boost, bmax);
	}
}

/**
 * model_su_cpu_util() - one CPU's utilization for frequency selection
 * @p: the policy of the CPU
 * @in: the CPU's inputs; @in->iowait_boost is applied as given
 * @out: the result as a ratio util / scale
 * @ex: explanation steps are appended here; may be NULL
 *
 * Implements S4 (4.11–4.17: min(cfs, cap), + bw_dl from ≈4.16, RT/DL
 * runnable = flagged callback -> cpuinfo max), S5 and VS1 (v3 on 4.19,
 * UCLAMP_SCHED_CLASS both ways, VQ12 by fidelity), S6 with MS1–MS3
 * (mainline), S7 with MS5 (6.8+), and the iowait application of S20–S22
 * with VS3's ratio form and MS4's clamp. S23 and S24 follow from the above.
 */
void model_su_cpu_util(const struct model_su_policy *p, const struct model_su_cpu_in *in,
		       struct model_su_util *out, struct model_su_explain *ex)
{
	unsigned long long cap = p->capacity, b;

	memset(out, 0, sizeof(*out));
	out->scale = cap;
	switch (p->feat.util_form) {
	case MODEL_SU_UTIL_LEGACY:
		if (in->is_rt_runnable || in->is_dl_runnable) {
			model_su_explain_add(ex, "S4", "RT/DL callback: cpuinfo max kHz", 1,
					     p->max_freq_khz, 0);
			out->util = cap;
			out->is_max_freq = true;
			return;
		}
		out->util = in->util_cfs;
		if (p->feat.is_legacy_dl)
			out->util += in->bw_dl;
		out->util = min_ull(out->util, cap);
		model_su_explain_add(ex, "S4", p->feat.is_legacy_dl ? "min(cfs + bw_dl, cap)" :
				     "min(util_cfs, cap)", 1, out->util, 0);
		break;
	case MODEL_SU_UTIL_SUM:
		out->util = p->variant == MODEL_V3 ? util_v3(p, in, ex) : util_sum(p, in, ex);
		break;
	case MODEL_SU_UTIL_PERF:
		util_perf(p, in, out, ex);
		return;
	}
	if (p->feat.iowait_form != MODEL_SU_IOWAIT_CAP) {
		apply_khz_boost(p, in, out, ex);
		return;
	}
	b = boost_cap(p, in);
	if (b > out->util) {
		out->util = b;
		model_su_explain_add(ex, p->feat.is_iowait_clamped ? "MS4" : "S20",
				     "iowait boost", 1, b, 0);
	}
}

/* S8: the reference frequency F of the target formula. */
static unsigned long long ref_freq(const struct model_su_policy *p)
{
	unsigned long long cur = p->cur_khz;

	if (p->is_invariant) {
		if (p->feat.target_form == MODEL_SU_TARGET_REF && p->ref_freq_khz)
			return p->ref_freq_khz;
		return p->max_freq_khz;
	}
	if (p->feat.target_form == MODEL_SU_TARGET_REF)
		return MODEL_FREQ_HEADROOM(cur);
	return cur;
}

/**
 * model_su_raw_khz() - raw target frequency of a utilization ratio (S8, S9)
 * @p: the policy
 * @util: utilization (6.8+: perf, headroom included)
 * @scale: its full scale (capacity, or a kHz boost maximum)
 *
 * Up to ≈5.19 (and v3): (F + F/4)·util/scale; ≈6.0–6.7: F·(util + util/4)/
 * scale; 6.8+: F·util/scale. F per S8. Truncating, as the kernel; the result
 * is stored in 32 bits like the kernel's unsigned int.
 */
unsigned int model_su_raw_khz(const struct model_su_policy *p, unsigned long long util,
			      unsigned long long scale)
{
	unsigned long long f = ref_freq(p);

	if (!scale)
		return 0;
	switch (p->feat.target_form) {
	case MODEL_SU_TARGET_OLD:
		return (unsigned int)(MODEL_FREQ_HEADROOM(f) * util / scale);
	case MODEL_SU_TARGET_PERF:
		return (unsigned int)(f * MODEL_FREQ_HEADROOM(util) / scale);
	case MODEL_SU_TARGET_REF:
		break;
	}
	return (unsigned int)(f * util / scale);
}

/* Lowest OPP >= @khz, or the highest OPP when none is. */
static unsigned int opp_ceil(const struct model_su_policy *p, unsigned int khz)
{
	unsigned int i;

	for (i = 0; i < p->nr_opps; i++)
		if (p->opp_khz[i] >= khz)
			return p->opp_khz[i];
	return p->opp_khz[p->nr_opps - 1];
}

/* Highest OPP <= @khz, or the lowest OPP when none is (relation H). */
static unsigned int opp_floor(const struct model_su_policy *p, unsigned int khz)
{
	unsigned int i;

	for (i = p->nr_opps; i > 0; i--)
		if (p->opp_khz[i - 1] <= khz)
			return p->opp_khz[i - 1];
	return p->opp_khz[0];
}

/**
 * model_su_limits_effective() - the limits resolution works with (S10, S27)
 * @p: the policy
 * @min_khz: effective policy min
 * @max_khz: effective policy max
 *
 * 5.16+ stores limits snapped to OPPs: max to the highest OPP <= max, min to
 * the lowest OPP >= min, then min <= max. Before, they are used as written.
 */
void model_su_limits_effective(const struct model_su_policy *p, unsigned int *min_khz,
			       unsigned int *max_khz)
{
	unsigned int lo = p->min_khz, hi = p->max_khz;

	if (p->feat.is_limits_snapped && p->nr_opps) {
		hi = opp_floor(p, hi);
		lo = opp_ceil(p, lo);
		if (lo > hi)
			lo = hi;
	}
	*min_khz = lo;
	*max_khz = hi;
}

/**
 * model_su_resolve() - cpufreq_driver_resolve_freq() with relation L (S10)
 * @p: the policy (its OPPs and limits)
 * @target_khz: raw target
 *
 * The target is clamped to the (effective) limits, then the lowest OPP >= it
 * is chosen, or the highest OPP when none is. With snapped limits (5.16+) the
 * answer stays inside [min, max]; before, a max between OPPs lets the OPP
 * just above max through. Without a table: the clamped target.
 */
unsigned int model_su_resolve(const struct model_su_policy *p, unsigned int target_khz)
{
	unsigned int lo, hi, t = target_khz;

	model_su_limits_effective(p, &lo, &hi);
	if (t < lo)
		t = lo;
	if (t > hi)
		t = hi;
	if (!p->nr_opps)
		return t;
	return opp_ceil(p, t);
}

/**
 * model_su_resolve_band() - the raw targets that resolve to the same OPP (S10)
 * @p: the policy (its OPPs and limits)
 * @raw_khz: a raw target
 * @lo_khz: lowest raw target of the band
 * @hi_khz: highest raw target of the band
 *
 * S10 is a step function of the raw target: clamping to the limits and
 * taking the lowest OPP >= the result are both non-decreasing, so every raw
 * target in [@lo_khz, @hi_khz] resolves to model_su_resolve(@raw_khz). The
 * band is the OPP's whole step (open ended at the limits) when both ends
 * resolve to that OPP, else @raw_khz alone.
 */
void model_su_resolve_band(const struct model_su_policy *p, unsigned int raw_khz,
			   unsigned int *lo_khz, unsigned int *hi_khz)
{
	unsigned int v = model_su_resolve(p, raw_khz), lo = raw_khz, hi = raw_khz, i;

	if (p->nr_opps) {	/* v is an OPP: the step of raw targets up to it */
		for (i = 0; i + 1 < p->nr_opps && p->opp_khz[i] < v; i++)
			;
		lo = i ? p->opp_khz[i - 1] + 1 : 0;
		hi = i + 1 < p->nr_opps ? p->opp_khz[i] : UINT_MAX;
	}
	/* the limits clamp the lowest and the highest targets to one OPP */
	if (model_su_resolve(p, 0) == v)
		lo = 0;
	if (model_su_resolve(p, UINT_MAX) == v)
		hi = UINT_MAX;
	if (lo > raw_khz || hi < raw_khz || model_su_resolve(p, lo) != v ||
	    model_su_resolve(p, hi) != v)
		lo = hi = raw_khz;
	*lo_khz = lo;
	*hi_khz = hi;
}

/* Does the ratio a_util/a_scale exceed b_util/b_scale (S13)? */
static bool ratio_above(const struct model_su_util *a, const struct model_su_util *b)
{
	return a->util * b->scale > a->scale * b->util;
}

/**
 * model_su_expected() - the OPP schedutil selects from the CPUs' inputs
 * @p: the policy
 * @in: inputs of every CPU of the policy, in p->cpu[] order
 * @out: deciding CPU, its util, raw target and OPP
 * @ex: explanation (util -> clamp -> raw -> OPP); may be NULL
 *
 * Stateless: no cache, rate limit, busy hold or boost dynamics (those are
 * model_su_gov_update()); every CPU counts as fresh and @in->iowait_boost is
 * applied as given. Implements S4–S10 and, for several CPUs, S12–S14: the
 * largest util/scale ratio wins (S14's max util is the same with the equal
 * capacities S1 requires). A 4.11–4.17 RT/DL CPU selects cpuinfo max (S4).
 * Return: 0, or -EINVAL for an invalid policy or inputs.
 */
int model_su_expected(const struct model_su_policy *p, const struct model_su_cpu_in *in,
		      struct model_su_eval *out, struct model_su_explain *ex)
{
	struct model_su_util u;
	unsigned int i;
	bool is_max = false, is_chosen = false;

	if (model_su_policy_check(p, NULL) || model_su_cpu_check(p, in, p->nr_cpus, NULL))
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	out->util.scale = 1;
	for (i = 0; i < p->nr_cpus; i++) {
		model_su_cpu_util(p, &in[i], &u, NULL);
		if (u.is_max_freq && !is_max) {
			is_max = true;
			out->cpu_idx = i;
			out->util = u;
			is_chosen = true;
		} else if (!is_max && ratio_above(&u, &out->util)) {
			out->cpu_idx = i;
			out->util = u;
			is_chosen = true;
		}
	}
	if (p->nr_cpus > 1)
		model_su_explain_add(ex, p->feat.is_shared_max ? "S14" : "S13",
				     "deciding cpu", 1, (unsigned long long)p->cpu[out->cpu_idx], 0);
	/* again for the explanation; out->util is that CPU's already otherwise */
	if (ex || !is_chosen)
		model_su_cpu_util(p, &in[out->cpu_idx], &out->util, ex);
	if (out->util.is_max_freq)
		out->raw_khz = p->max_freq_khz;
	else
		out->raw_khz = model_su_raw_khz(p, out->util.util, out->util.scale);
	model_su_explain_add(ex, "S9", "raw target kHz", 1, out->raw_khz, 0);
	out->freq_khz = model_su_resolve(p, out->raw_khz);
	model_su_explain_add(ex, "S10", "resolved OPP kHz", 1, out->freq_khz, 0);
	return 0;
}

/**
 * model_su_cpu_raw() - the raw target of one CPU's utilization alone (S4–S9)
 * @p: the policy of the CPU
 * @in: the CPU's inputs (valid: model_su_cpu_check())
 * @is_plain: set when the utilization is a ratio to the policy's capacity
 *	      (not cpuinfo max for a 4.11–4.17 RT/DL callback, S4, nor a kHz
 *	      iowait boost, S21/S22)
 *
 * With every CPU of a policy plain, the ratios share one scale, the largest
 * utilization decides (S13, S14: equal capacities, S1) and S9 is
 * non-decreasing in it: model_su_expected() is model_su_resolve() of the
 * largest model_su_cpu_raw() of the CPUs.
 * Return: the raw target in kHz.
 */
unsigned int model_su_cpu_raw(const struct model_su_policy *p, const struct model_su_cpu_in *in,
			      bool *is_plain)
{
	struct model_su_util u;

	model_su_cpu_util(p, in, &u, NULL);
	*is_plain = !u.is_max_freq && u.scale == p->capacity;
	return model_su_raw_khz(p, u.util, u.scale);
}

/**
 * model_su_floor() - lowest OPP a CPU's rq UCLAMP_MIN guarantees (events.md §4)
 * @p: the policy
 * @in: the CPU running the task (rq_min, rq_max, is_rq_idle, is_uclamp_used)
 * @out: the bound
 * @ex: explanation; may be NULL
 *
 * m = v3: min(rq_min, rq_max) (VR8 max wins); mainline: rq_min (MS1 min
 * wins); 0 while clamps are inactive (pre-5.3, static key off, 4.11–4.17).
 * Up to 6.7 the clamped util is at least m, at most the capacity, so the raw
 * target is the S9 form of min(m, cap); 6.8+ perf >= min >= m with no
 * headroom (MS5): raw = F·m/cap. F per S8 (cur when not invariant). Then S10.
 * Return: 0, or -EINVAL for an invalid policy or input.
 */
int model_su_floor(const struct model_su_policy *p, const struct model_su_cpu_in *in,
		   struct model_su_bound *out, struct model_su_explain *ex)
{
	unsigned long long m = 0, cap = p->capacity;

	if (model_su_policy_check(p, NULL) || model_su_cpu_check(p, in, 1, NULL))
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	if (clamps_active(p, in)) {
		m = rq_min_read(in);
		if (p->variant == MODEL_V3)
			m = min_ull(m, in->rq_max);
	}
	model_su_explain_add(ex, p->variant == MODEL_V3 ? "VR8" : "MS1",
			     "floor util (rq min after inversion)", 1, m, 0);
	if (p->feat.target_form != MODEL_SU_TARGET_REF)
		m = min_ull(m, cap);
	out->is_bounded = true;
	out->util = m;
	out->scale = cap;
	out->raw_khz = model_su_raw_khz(p, m, cap);
	model_su_explain_add(ex, "S9", "raw target kHz", 1, out->raw_khz, 0);
	out->freq_khz = model_su_resolve(p, out->raw_khz);
	model_su_explain_add(ex, "S10", "floor OPP kHz", 1, out->freq_khz, 0);
	return 0;
}

/* Does an RT task on this CPU escape the clamps (VS1.2 seed, MS2, S4)? */
static bool rt_unclamped(const struct model_su_policy *p, const struct model_su_cpu_in *in)
{
	if (p->feat.util_form == MODEL_SU_UTIL_LEGACY)
		return true;
	if (p->variant == MODEL_V3)
		return p->fidelity == MODEL_SEED;
	return !clamps_active(p, in);
}

/**
 * model_su_ceiling() - highest OPP the rq clamps of a policy allow (events.md §4)
 * @p: the policy
 * @in: inputs of every CPU of the policy (idle CPUs with their retained MAX)
 * @out: the bound; is_bounded false while a DL task, or an RT task the variant
 *	does not clamp, is runnable on any CPU of the policy
 * @ex: explanation; may be NULL
 *
 * The per-CPU utilization is monotonic in util_cfs, so each CPU's bound is
 * model_su_cpu_util() at util_cfs = capacity (irq, DL and iowait inputs as
 * given, 0 when the trace cannot show them); the largest ratio, through S9
 * and S10, is the ceiling. 6.8+ bounds follow MS5 (max clamp without headroom).
 * Return: 0, or -EINVAL for an invalid policy or inputs.
 */
int model_su_ceiling(const struct model_su_policy *p, const struct model_su_cpu_in *in,
		     struct model_su_bound *out, struct model_su_explain *ex)
{
	struct model_su_cpu_in worst;
	struct model_su_util u, best = { .util = 0, .scale = 1 };
	unsigned int i;

	if (model_su_policy_check(p, NULL) || model_su_cpu_check(p, in, p->nr_cpus, NULL))
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	out->is_bounded = true;
	for (i = 0; i < p->nr_cpus; i++) {
		if (in[i].is_dl_runnable ||
		    (in[i].is_rt_runnable && rt_unclamped(p, &in[i]))) {
			model_su_explain_add(ex, in[i].is_dl_runnable ? "S24" : "S23",
					     "no ceiling: runnable on cpu", 1,
					     (unsigned long long)p->cpu[i], 0);
			out->is_bounded = false;
			out->cpu_idx = i;
			break;
		}
		worst = in[i];
		worst.util_cfs = p->capacity;
		worst.util_rt = 0;
		model_su_cpu_util(p, &worst, &u, NULL);
		if (!i || ratio_above(&u, &best)) {
			best = u;
			out->cpu_idx = i;
		}
	}
	if (!out->is_bounded) {
		unsigned int lo, hi;

		model_su_limits_effective(p, &lo, &hi);
		out->raw_khz = hi;
		out->freq_khz = model_su_resolve(p, hi);
		return 0;
	}
	model_su_explain_add(ex, "S13", "ceiling cpu", 1,
			     (unsigned long long)p->cpu[out->cpu_idx], 0);
	if (ex) {	/* again for the explanation; best is that CPU's already */
		worst = in[out->cpu_idx];
		worst.util_cfs = p->capacity;
		worst.util_rt = 0;
		model_su_cpu_util(p, &worst, &best, ex);
	}
	out->util = best.util;
	out->scale = best.scale;
	out->raw_khz = model_su_raw_khz(p, best.util, best.scale);
	model_su_explain_add(ex, "S9", "raw target kHz", 1, out->raw_khz, 0);
	out->freq_khz = model_su_resolve(p, out->raw_khz);
	model_su_explain_add(ex, "S10", "ceiling OPP kHz", 1, out->freq_khz, 0);
	return 0;
}
