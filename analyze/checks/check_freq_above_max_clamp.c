// SPDX-License-Identifier: MIT
/*
 * analyze/checks/check_freq_above_max_clamp.c - check freq_above_max_clamp
 * (events.md §4).
 *
 * A policy's frequency must not stay above the ceiling the rq clamps of all
 * its CPUs allow: model_su_ceiling(), the largest per-CPU utilization bound
 * (each CPU's utilization taken at its capacity, clamped by its rq clamps,
 * idle-retained UCLAMP_MAX included, VR11/MR4) through S9 and S10 within the
 * policy limits. No ceiling while an RT task the variant does not clamp
 * (S23, VS1.2 seed, MS2) or a DL task other than sugov:N (S24) is queued on
 * one of its CPUs. Busy hold (S18, single-CPU policies): while the CPU has
 * not been idle, schedutil may keep a frequency it committed earlier in that
 * busy stretch, at most the highest ceiling of the stretch, which is then the
 * ceiling — except on a capped rq (MS6, 6.x mainline: rq MAX < 1024 and
 * util_cfs + util_rt >= rq MAX), which the check can only know from a util
 * signal: when the trace has one and its latest sample, taken within the
 * current busy stretch, reaches the rq MAX, the hold is not granted. Without
 * a util signal the hold is always granted (the bound must hold whatever
 * the utilization). A new, lower ceiling binds only after the grace of
 * freqstate.h; a higher one at once.
 *
 * Keys are policies (cpu = the policy's first CPU, pid -1). One n_checked is
 * one interval in which the ceiling in force and the observed frequency stay
 * the same and can both be judged. UNDECIDED: a CPU of the policy with an
 * unknown runqueue or inside an integrity window, or no frequency observed
 * yet. Rule of a window: VS1 (v3), MS1 (mainline 5.3–6.7), MS5 (6.8+).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/checks/checks.h"
#include "analyze/checks/freqstate.h"
#include "lib/malloc.h"
#include "analyze/checks/explain.h"

#define CHECK	AN_CHECK_FREQ_ABOVE_MAX_CLAMP

struct ceil_policy {
	struct an_fq_bound bound;
	struct an_fq_key key;
	uint64_t seq;			/* an_fq_policy_seq() at the last judge_policy() */
	bool was_busy;			/* a CPU ran a task since the last event */
	struct an_fq_stretch stretch;	/* S18: the highest ceiling of the busy stretch */
	/* the last ceiling computed, for its inputs (see floor_of() of freq_below) */
	struct an_fq_memo last;		/* the last ceiling (ceiling_of()) */
};

/* The latest util signal sample of a CPU (MS6). */
struct ceil_util {
	bool has_util;
	unsigned int util;		/* util_cfs + util_rt */
	uint64_t ts_ns;
};

struct ceil_check {
	struct an_results *res;
	struct ceil_policy *pol;	/* per policy index (at most nr_cpus) */
	struct ceil_util *util;		/* per CPU */
	unsigned int nr_slots;
	bool has_uclamp_event;
};

static AN_NOINLINE int setup(struct ceil_check *k, const struct an_replay *r)
{
	k->pol = an_calloc(r->nr_cpus, sizeof(*k->pol));
	k->util = an_calloc(r->nr_cpus, sizeof(*k->util));
	if (!k->pol || !k->util) {
		free(k->pol);
		free(k->util);
		k->pol = NULL;
		k->util = NULL;
		return -ENOMEM;
	}
	k->nr_slots = r->nr_cpus;
	for (unsigned int i = 0; i < k->nr_slots; i++)
		an_fq_bound_init(&k->pol[i].bound, AN_FQ_UPPER);
	return 0;
}

/*
 * The model's chain behind a policy's ceiling (MS1/VS1, MR4/VR11, S8-S10),
 * and the busy hold when it lifts it (S18).
 */
static void explain(const struct an_replay *r, const void *ctx, char *buf, size_t size)
{
	const struct ceil_policy *cp = ctx;
	const struct an_freq_policy *p = NULL;
	struct model_su_cpu_in in[MODEL_SU_MAX_CPUS];
	struct model_su_explain ex = { 0 };
	struct model_su_bound b;
	size_t at;

	buf[0] = '\0';
	for (unsigned int i = 0; i < r->nr_policies && !p; i++)
		if (r->policy[i].su.cpu[0] == cp->key.fail.w.cpu)
			p = &r->policy[i];
	if (!p)
		return;
	for (unsigned int c = 0; c < p->su.nr_cpus; c++)
		an_fq_cpu_in(r, p->su.cpu[c], &in[c]);
	if (model_su_ceiling(&p->su, in, &b, &ex))
		return;
	at = rep_explain_format(buf, size, &ex, "");
	if (cp->stretch.is_open && b.is_bounded && cp->stretch.max_khz > b.freq_khz)
		an_explain_line(buf, size, &at, "S18", "busy hold: stretch's highest",
				cp->stretch.max_khz);
}

/* Rule coverage: the model's chain behind the ceiling of the policy of @cpu. */
static bool chain(const struct an_replay *r, const void *ctx, int cpu,
		  struct model_su_explain *ex)
{
	const struct an_freq_policy *p = NULL;
	struct model_su_cpu_in in[MODEL_SU_MAX_CPUS];
	struct model_su_bound b;

	(void)ctx;
	for (unsigned int i = 0; i < r->nr_policies && !p; i++)
		if (r->policy[i].su.cpu[0] == cpu)
			p = &r->policy[i];
	if (!p)
		return false;
	for (unsigned int c = 0; c < p->su.nr_cpus; c++)
		an_fq_cpu_in(r, p->su.cpu[c], &in[c]);
	if (model_su_ceiling(&p->su, in, &b, ex))
		return false;
	an_fq_cover_rt(r, p, ex);
	return true;
}

static void drop_until(struct an_replay *r, struct an_results *res,
		       const struct an_freq_policy *p, struct ceil_policy *cp, uint64_t before_ns)
{
	uint64_t t;

	while (an_fq_bound_next_drop(&cp->bound, before_ns, &t)) {
		struct an_fq_judgement j = {
			.check = CHECK, .cpu = p->su.cpu[0], .ts_ns = t, .is_decidable = true,
			.obs_khz = cp->key.obs_khz, .lo_khz = AN_FQ_NO_FLOOR_KHZ,
			.rule = an_fq_coupling_rule(r, p), .what = "ceiling",
			.explain = explain, .explain_ctx = cp, .chain = chain, .is_drop = true,
		};

		an_fq_bound_drop(&cp->bound, t);
		j.hi_khz = an_fq_bound_now(&cp->bound);
		if (!cp->key.has_state || !cp->key.is_decidable)
			continue;
		/* an integrity window learnt since (lost events) covers this instant */
		for (unsigned int c = 0; c < p->su.nr_cpus && j.is_decidable; c++)
			if (an_fq_cpu_undecidable(r, p->su.cpu[c], t, &j.is_hiding, &j.why))
				j.is_decidable = false;
		an_fq_key_judge(r, res, &cp->key, &j, NULL);
	}
}

static AN_NOINLINE void before(struct an_replay *r, struct ceil_check *k, uint64_t now)
{
	for (unsigned int i = 0; i < r->nr_policies; i++) {
		const struct an_freq_policy *p = &r->policy[i];
		struct ceil_policy *cp = &k->pol[i];
		struct an_fq_times g;

		if (!an_fq_policy_usable(p) || !an_fq_bound_is_due(&cp->bound, now))
			continue;
		an_fq_grace(r, p, &g);
		an_fq_bound_elapse(&cp->bound, now, cp->was_busy, &g);
		drop_until(r, k->res, p, cp, now);
	}
}

/* The ceiling now, or false with @j's reason when it cannot be computed. */
static bool ceiling_of(const struct an_replay *r, const struct an_freq_policy *p,
		       struct ceil_policy *cp, struct an_fq_judgement *j, unsigned int *khz)
{
	struct model_su_cpu_in in[MODEL_SU_MAX_CPUS];
	struct model_su_bound b;
	unsigned int kept[2];

	for (unsigned int c = 0; c < p->su.nr_cpus; c++) {
		if (an_fq_cpu_undecidable(r, p->su.cpu[c], j->ts_ns, &j->is_hiding, &j->why))
			return false;
		an_fq_cpu_in(r, p->su.cpu[c], &in[c]);
	}
	/* model_su_ceiling() depends on the policy and the inputs alone */
	if (!r->opts.is_fq_full && an_fq_memo_get(&cp->last, p, in, p->su.nr_cpus, kept)) {
		*khz = kept[0];
		return true;
	}
	if (model_su_ceiling(&p->su, in, &b, NULL)) {
		j->why = "the schedutil model refused the inputs";
		return false;
	}
	*khz = b.is_bounded ? b.freq_khz : AN_FQ_NO_CEILING_KHZ;
	an_fq_memo_put(&cp->last, p, in, p->su.nr_cpus, (const unsigned int[2]){ *khz, 0 });
	return true;
}

/*
 * MS6: the rq of @p's CPU is capped (rq MAX < 1024 and util >= rq MAX) by
 * the latest util sample, if that was taken within the busy stretch; the
 * utilization of a CPU that stayed busy does not fall back below the cap.
 */
static bool is_capped(const struct an_replay *r, const struct an_freq_policy *p,
		      const struct ceil_check *k, const struct ceil_policy *cp)
{
	int cpu = p->su.cpu[0];
	const struct ceil_util *u = &k->util[cpu];
	unsigned int rq_max = (unsigned int)model_rq_value(&r->sys, cpu, MODEL_UCLAMP_MAX);

	return p->su.feat.is_hold_skipped_capped &&
	       (!p->su.feat.is_uclamp_keyed || r->sys.is_uclamp_used) &&
	       rq_max < MODEL_SCALE && u->has_util && u->ts_ns >= cp->stretch.since_ns &&
	       u->util >= rq_max;
}

/* S18: the highest ceiling of the current busy stretch of a 1-CPU policy. */
static unsigned int held(const struct an_replay *r, const struct an_freq_policy *p,
			 const struct ceil_check *k, struct ceil_policy *cp, unsigned int khz,
			 const char **rule)
{
	if (!an_fq_stretch_update(&cp->stretch, r, p, khz))
		return khz;
	if (is_capped(r, p, k, cp)) {
		if (cp->stretch.max_khz > khz)
			*rule = "MS6";	/* the cap, not the hold, decided */
		return khz;
	}
	if (cp->stretch.max_khz > khz)
		*rule = "S18";
	return cp->stretch.max_khz;
}

static void judge_policy(struct an_replay *r, const struct an_freq_policy *p,
			 const struct ceil_check *k, struct ceil_policy *cp)
{
	uint64_t now = r->step.ts_ns;
	struct an_fq_times g;
	struct an_fq_judgement j = {
		.check = CHECK, .cpu = p->su.cpu[0], .ts_ns = now,
		.rule = an_fq_coupling_rule(r, p), .what = "ceiling",
		.explain = explain, .explain_ctx = cp, .chain = chain,
	};
	bool is_busy = an_fq_policy_busy(r, p);
	unsigned int khz;

	cp->seq = an_fq_policy_seq(r, p);
	if (!ceiling_of(r, p, cp, &j, &khz)) {
		an_fq_bound_forget(&cp->bound);
		an_fq_stretch_end(&cp->stretch, r, p);
	} else {
		if (an_fq_policy_applied(r, p))
			an_fq_bound_restart(&cp->bound);
		an_fq_bound_set(&cp->bound, held(r, p, k, cp, khz, &j.hold_rule));
		if (!an_fq_bound_is_settled(&cp->bound)) {
			an_fq_grace(r, p, &g);
			an_fq_bound_step(&cp->bound, now, an_fq_policy_evaluated(r, p), is_busy,
					 &g);
		}
		j.hi_khz = an_fq_bound_now(&cp->bound);
		j.is_decidable = an_fq_policy_observed(r, p, &j.obs_khz);
		j.why = "no frequency observed yet";
		an_fq_obs_doubt(r, p, &j);
	}
	an_fq_key_judge(r, k->res, &cp->key, &j, NULL);
	cp->was_busy = is_busy;
}

static void take_util(const struct an_replay *r, struct ceil_check *k, const struct an_event *ev)
{
	unsigned int cfs, rt;
	int cpu;

	if (an_fq_util_sample(r, ev, &cpu, &cfs, &rt) && an_replay_cpu(r, cpu))
		k->util[cpu] = (struct ceil_util){
			.has_util = true, .util = cfs + rt, .ts_ns = ev->ts_ns,
		};
}

/*
 * Whether judging @p now can only repeat its last judgement, the grace of
 * its bound aside: the event is local, nothing touched its CPUs since
 * (an_fq_policy_seq()), the event applied no clamp change there, its key
 * was decidable with the observed frequency and the bound in force, the
 * memo holds the ceiling for the same policy generation and reference
 * frequency (S8), and no busy hold applies (S18).
 */
static bool is_still(const struct an_replay *r, const struct an_freq_policy *p,
		     const struct ceil_policy *cp)
{
	unsigned int obs;

	if (!cp->key.has_state || !cp->key.is_decidable || an_fq_policy_applied(r, p) ||
	    cp->key.hi_khz != an_fq_bound_now(&cp->bound) || !an_fq_memo_is_valid(&cp->last, p) ||
	    an_fq_may_hold(r, p) || !an_fq_policy_observed(r, p, &obs) || obs != cp->key.obs_khz)
		return false;
	return cp->seq == an_fq_policy_seq(r, p);
}

/* judge_policy() for a policy that is_still(): only the grace moves on. */
static void step_still(const struct an_replay *r, const struct an_freq_policy *p,
		       struct ceil_policy *cp)
{
	bool is_busy = an_fq_policy_busy(r, p);
	struct an_fq_times g;

	an_fq_stretch_end(&cp->stretch, r, p);	/* as held() does without a hold */
	if (!an_fq_bound_is_settled(&cp->bound)) {
		an_fq_grace(r, p, &g);
		an_fq_bound_step(&cp->bound, r->step.ts_ns, an_fq_policy_evaluated(r, p), is_busy,
				 &g);
	}
	cp->was_busy = is_busy;
}

static AN_NOINLINE void after(struct an_replay *r, struct ceil_check *k, const struct an_event *ev)
{
	bool is_local = an_fq_is_local(r, ev);

	for (unsigned int i = 0; i < r->nr_policies && i < k->nr_slots; i++) {
		const struct an_freq_policy *p = &r->policy[i];
		struct ceil_policy *cp = &k->pol[i];

		if (r->step.is_limits_changed &&
		    (r->step.limits_policy < 0 || r->step.limits_policy == (int)i))
			an_fq_stretch_limits(&cp->stretch, p);
		if (!an_fq_policy_usable(p) || !an_fq_policy_touched(r, p, ev))
			continue;
		if (is_local && is_still(r, p, cp)) {
			step_still(r, p, cp);
			continue;
		}
		judge_policy(r, p, k, cp);
	}
}

static int on_event(void *ctx, struct an_replay *r, const struct an_event *ev, bool is_after)
{
	struct ceil_check *k = ctx;

	if (!k->pol && setup(k, r))
		return -ENOMEM;
	if (!is_after) {
		if (r->nr_policies)
			before(r, k, ev->ts_ns);
		return 0;
	}
	if (an_fq_is_uclamp_event(ev))
		k->has_uclamp_event = true;
	take_util(r, k, ev);
	if (r->nr_policies)	/* else no cpufreq: nothing to judge */
		after(r, k, ev);
	return 0;
}

static void on_finish(void *ctx, struct an_replay *r, uint64_t end_ns)
{
	struct ceil_check *k = ctx;

	/* not called yet (no policy, no util or uclamp event): an empty check */
	if (!k->pol && (!r->is_started || setup(k, r)))
		return;
	for (unsigned int i = 0; i < r->nr_policies && i < k->nr_slots; i++)
		if (an_fq_policy_usable(&r->policy[i]))
			drop_until(r, k->res, &r->policy[i], &k->pol[i], end_ns);
	for (unsigned int i = 0; i < k->nr_slots; i++)
		an_fq_key_close(k->res, &k->pol[i].key, end_ns, NULL);
	an_fq_set_input(r, k->res, CHECK, k->has_uclamp_event || an_fq_has_clamps(r),
			"no input: no clamp known (no request, uclamp event or platform model)");
}

static void on_free(void *ctx)
{
	struct ceil_check *k = ctx;

	free(k->pol);
	free(k->util);
	free(k);
}

/**
 * an_check_freq_above_max_clamp_attach() - attach check freq_above_max_clamp
 * @r: replay
 * @res: where its windows and counters go, borrowed for @r's life
 * @d: diagnostic on failure
 *
 * Compares each policy's frequency with the ceiling of its CPUs' rq clamps
 * (events.md §4; uclamp-v3.md VS1, VR11, uclamp-mainline.md MS1, MS2, MS5,
 * MS6, MR4, schedutil.md S10, S18, S23, S24), after the grace of freqstate.h.
 *
 * Return: 0 or -ENOMEM.
 */
int an_check_freq_above_max_clamp_attach(struct an_replay *r, struct an_results *res,
					 struct an_diag *d)
{
	struct ceil_check *k = an_calloc(1, sizeof(*k));
	struct an_observer obs = {
		.name = "freq_above_max_clamp", .event = on_event, .finish = on_finish,
		.free = on_free, .ctx = k,
		.also = AN_OBS_ALSO_SLEEPER_OUT,	/* the kernel may choose there */
		.only = AN_OBS_ONLY_POLICY, .types = AN_FQ_NO_POLICY_TYPES,
	};

	if (!k)
		return an_diag_fail(d, -ENOMEM, "out of memory");
	k->res = res;
	return an_replay_add_observer(r, &obs);
}
