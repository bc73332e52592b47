// SPDX-License-Identifier: MIT
/*
 * analyze/checks/check_freq_below_min_clamp.c - check freq_below_min_clamp
 * (events.md §4).
 *
 * While a CPU runs a task, its policy's frequency must not stay below the
 * floor its rq UCLAMP_MIN guarantees: model_su_floor(), the lowest OPP >=
 * 1.25 * F * m / capacity (F per S8, 6.8+ without headroom, MS5), m the rq
 * MIN after the variant's inversion rule (v3 VR8: min(rq min, rq max);
 * mainline MS1: rq min), within the policy limits (S10). An idle CPU (or one
 * running nothing the trace shows) sets no floor. A new, higher floor binds
 * the kernel only after the grace of freqstate.h; a lower one at once.
 *
 * Keys are CPUs: a window (cpu, pid -1) says CPU cpu ran below its floor.
 * One n_checked is one interval in which the CPU's floor in force and its
 * policy's observed frequency stay the same and can both be judged.
 * UNDECIDED: the CPU's runqueue unknown, an integrity window, or no
 * frequency observed yet for its policy. Rule of a window: VS1 (v3), MS1
 * (mainline 5.3–6.7), MS5 (6.8+).
 */
#include <errno.h>
#include <string.h>
#include <stdlib.h>

#include "analyze/checks/checks.h"
#include "analyze/checks/freqstate.h"
#include "lib/malloc.h"
#include "analyze/checks/explain.h"

#define CHECK	AN_CHECK_FREQ_BELOW_MIN_CLAMP

struct floor_cpu {
	struct an_fq_bound bound;
	struct an_fq_key key;
	uint64_t seq;			/* an_fq_cpu_seq() at the last judge_cpu() */
	/* the last floor computed, for its inputs: rq clamps change seldom */
	struct an_fq_memo last;		/* the last floor (floor_of()) */
};

/*
 * A policy whose floors are all quiet: at its last pass every CPU's key was
 * decidable with the bound in force and the observed frequency @obs_khz, for
 * the CPUs' inputs then (@seq, @gen, @cur_khz), and no grace step could
 * change a bound before @until_ns (an_fq_bound_quiet_until()). While all of
 * that holds, a pass would find every CPU still (is_still()) and step no
 * grace: a util event, which touches no CPU, costs a few comparisons.
 */
struct floor_pol {
	bool was_busy;		/* busy since the last event */
	bool is_quiet;
	unsigned int obs_khz;
	unsigned int cur_khz;	/* an_fq_cur_key() */
	uint64_t gen;		/* an_freq_policy.gen */
	uint64_t seq;		/* an_fq_policy_seq() */
	uint64_t until_ns;
	uint64_t due_ns;	/* policy_due() then; 0: not known */
};

struct floor_check {
	struct an_results *res;
	struct floor_cpu *cpu;
	struct floor_pol *pol;	/* per policy index */
	unsigned int nr_cpus;
	bool has_uclamp_event;
};

static AN_NOINLINE int setup(struct floor_check *k, const struct an_replay *r)
{
	k->cpu = an_calloc(r->nr_cpus, sizeof(*k->cpu));
	k->pol = an_calloc(r->nr_cpus, sizeof(*k->pol));
	if (!k->cpu || !k->pol) {
		free(k->cpu);
		free(k->pol);
		k->cpu = NULL;
		k->pol = NULL;
		return -ENOMEM;
	}
	k->nr_cpus = r->nr_cpus;
	for (unsigned int c = 0; c < k->nr_cpus; c++)
		an_fq_bound_init(&k->cpu[c].bound, AN_FQ_LOWER);
	return 0;
}

struct explain_ctx {
	const struct an_freq_policy *p;
	int cpu;
};

/* The model's chain behind the floor of a CPU (MS1/VS1, S8-S10). */
static void explain(const struct an_replay *r, const void *ctx, char *buf, size_t size)
{
	const struct explain_ctx *c = ctx;
	struct model_su_explain ex = { 0 };
	struct model_su_cpu_in in;
	struct model_su_bound b;

	buf[0] = '\0';
	an_fq_cpu_in(r, c->cpu, &in);
	if (!model_su_floor(&c->p->su, &in, &b, &ex))
		rep_explain_format(buf, size, &ex, "");
}

/* Rule coverage: the model's chain behind the floor of a CPU. */
static bool chain(const struct an_replay *r, const void *ctx, int cpu,
		  struct model_su_explain *ex)
{
	const struct explain_ctx *c = ctx;
	struct model_su_cpu_in in;
	struct model_su_bound b;

	(void)cpu;
	an_fq_cpu_in(r, c->cpu, &in);
	if (model_su_floor(&c->p->su, &in, &b, ex))
		return false;
	if (in.is_rt_runnable)
		an_fq_cover_rt(r, c->p, ex);
	return true;
}

/* Judge @fc at @ts_ns with its bound in force, the key's observation kept. */
static void rejudge(struct an_replay *r, struct floor_check *k, const struct an_freq_policy *p,
		    int cpu, uint64_t ts_ns)
{
	struct floor_cpu *fc = &k->cpu[cpu];
	struct explain_ctx ec = { p, cpu };
	struct an_fq_judgement j = {
		.check = CHECK, .cpu = cpu, .ts_ns = ts_ns, .is_decidable = true,
		.obs_khz = fc->key.obs_khz, .lo_khz = an_fq_bound_now(&fc->bound),
		.hi_khz = AN_FQ_NO_CEILING_KHZ, .rule = an_fq_coupling_rule(r, p),
		.what = "floor", .explain = explain, .explain_ctx = &ec, .chain = chain, .is_drop = true,
	};

	if (!fc->key.has_state || !fc->key.is_decidable)
		return;
	/* an integrity window learnt since (lost events) covers this instant */
	if (an_fq_cpu_undecidable(r, cpu, ts_ns, &j.is_hiding, &j.why))
		j.is_decidable = false;
	an_fq_key_judge(r, k->res, &fc->key, &j, NULL);
}

/* Grace ends before @before_ns, in time order per CPU. */
static void drop_until(struct an_replay *r, struct floor_check *k, const struct an_freq_policy *p,
		       uint64_t before_ns)
{
	for (unsigned int i = 0; i < p->su.nr_cpus; i++) {
		int cpu = p->su.cpu[i];
		struct floor_cpu *fc = &k->cpu[cpu];
		uint64_t t;

		while (an_fq_bound_next_drop(&fc->bound, before_ns, &t)) {
			an_fq_bound_drop(&fc->bound, t);
			rejudge(r, k, p, cpu, t);
		}
	}
}

/* The earliest instant after which time alone may change the bound of a CPU of @p. */
static uint64_t policy_due(const struct floor_check *k, const struct an_freq_policy *p)
{
	uint64_t due = UINT64_MAX;

	for (unsigned int c = 0; c < p->su.nr_cpus; c++) {
		uint64_t t = an_fq_bound_due(&k->cpu[p->su.cpu[c]].bound);

		if (t < due)
			due = t;
	}
	return due;
}

static AN_NOINLINE void before(struct an_replay *r, struct floor_check *k, uint64_t now)
{
	for (unsigned int i = 0; i < r->nr_policies; i++) {
		const struct an_freq_policy *p = &r->policy[i];
		struct an_fq_times g;

		/* due_ns: as the last pass or step left the bounds (struct floor_pol) */
		if (k->pol[i].due_ns >= now || !an_fq_policy_usable(p))
			continue;
		k->pol[i].due_ns = policy_due(k, p);
		if (k->pol[i].due_ns >= now)
			continue;
		an_fq_grace(r, p, &g);
		for (unsigned int c = 0; c < p->su.nr_cpus; c++)
			an_fq_bound_elapse(&k->cpu[p->su.cpu[c]].bound, now, k->pol[i].was_busy, &g);
		drop_until(r, k, p, now);
		k->pol[i].is_quiet = false;	/* bounds and keys moved: pass again */
		k->pol[i].due_ns = policy_due(k, p);
	}
}

/*
 * The floor of @cpu now: 0 while it runs no task. model_su_floor() depends
 * on the policy and the CPU's inputs alone (an_fq_cpu_in() zeroes the
 * padding, so equal bytes are equal inputs): the last result is kept.
 */
static int floor_of(const struct an_replay *r, const struct an_freq_policy *p, int cpu,
		    struct floor_cpu *fc, unsigned int *khz)
{
	struct model_su_cpu_in in;
	struct model_su_bound b;
	unsigned int kept[2];

	*khz = AN_FQ_NO_FLOOR_KHZ;
	if (r->cpu[cpu].curr_pid <= 0)
		return 0;
	an_fq_cpu_in(r, cpu, &in);
	if (!r->opts.is_fq_full && an_fq_memo_get(&fc->last, p, &in, 1, kept)) {
		*khz = kept[0];
		return 0;
	}
	if (model_su_floor(&p->su, &in, &b, NULL))
		return -EINVAL;
	*khz = b.freq_khz;
	an_fq_memo_put(&fc->last, p, &in, 1, (const unsigned int[2]){ b.freq_khz, 0 });
	return 0;
}

static void judge_cpu(struct an_replay *r, struct floor_check *k, const struct an_freq_policy *p,
		      int cpu, bool is_eval, bool is_busy, bool has_obs, unsigned int obs)
{
	struct floor_cpu *fc = &k->cpu[cpu];
	uint64_t now = r->step.ts_ns;
	struct an_fq_times g;
	struct explain_ctx ec = { p, cpu };
	struct an_fq_judgement j = {
		.check = CHECK, .cpu = cpu, .ts_ns = now, .obs_khz = obs,
		.hi_khz = AN_FQ_NO_CEILING_KHZ, .rule = an_fq_coupling_rule(r, p),
		.what = "floor", .explain = explain, .explain_ctx = &ec, .chain = chain,
	};
	unsigned int khz;

	fc->seq = an_fq_cpu_seq(r, cpu);
	if (an_fq_cpu_undecidable(r, cpu, now, &j.is_hiding, &j.why)) {
		an_fq_bound_forget(&fc->bound);
	} else if (floor_of(r, p, cpu, fc, &khz)) {
		an_fq_bound_forget(&fc->bound);
		j.why = "the schedutil model refused the inputs";
	} else {
		if (an_fq_cpu_applied(r, cpu))
			an_fq_bound_restart(&fc->bound);
		an_fq_bound_set(&fc->bound, khz);
		if (!an_fq_bound_is_settled(&fc->bound)) {
			an_fq_grace(r, p, &g);
			an_fq_bound_step(&fc->bound, now, is_eval, is_busy, &g);
		}
		j.lo_khz = an_fq_bound_now(&fc->bound);
		j.is_decidable = has_obs;
		j.why = "no frequency observed yet";
		an_fq_obs_doubt(r, p, &j);
	}
	an_fq_key_judge(r, k->res, &fc->key, &j, NULL);
}

/*
 * Whether judging @cpu now can only repeat its last judgement, the grace of
 * its bound aside: the event is local, nothing touched the CPU since
 * (an_fq_cpu_seq()), the event applied no clamp change there, and its key
 * was decidable with the observed frequency @obs and the bound in force.
 * Its floor then is the one kept: none while it runs no task, else the
 * memo's, for the same policy generation and reference frequency (S8).
 * an_fq_bound_step() changes no bound in force, so the key stays as it is.
 */
static bool is_still(const struct an_replay *r, const struct an_freq_policy *p, int cpu,
		     const struct floor_cpu *fc, unsigned int obs)
{
	return fc->seq == an_fq_cpu_seq(r, cpu) && !an_fq_cpu_applied(r, cpu) &&
	       fc->key.has_state && fc->key.is_decidable && fc->key.obs_khz == obs &&
	       fc->key.lo_khz == an_fq_bound_now(&fc->bound) &&
	       (r->cpu[cpu].curr_pid <= 0 || an_fq_memo_is_valid(&fc->last, p));
}

/* judge_cpu() for a CPU that is_still(): only the grace moves on. */
static void step_still(const struct an_replay *r, const struct an_freq_policy *p,
		       struct floor_cpu *fc, bool is_eval, bool is_busy)
{
	struct an_fq_times g;

	if (an_fq_bound_is_settled(&fc->bound))
		return;
	an_fq_grace(r, p, &g);
	an_fq_bound_step(&fc->bound, r->step.ts_ns, is_eval, is_busy, &g);
}

/* Whether a pass over @p's CPUs now can only find them still (struct floor_pol). */
static bool is_quiet(const struct an_replay *r, const struct an_freq_policy *p,
		     const struct floor_pol *fp, unsigned int obs)
{
	return fp->is_quiet && fp->obs_khz == obs && r->step.ts_ns < fp->until_ns &&
	       fp->gen == p->gen && fp->cur_khz == an_fq_cur_key(p) &&
	       fp->seq == an_fq_policy_seq(r, p) && !an_fq_policy_applied(r, p);
}

/*
 * Judge, or step the grace of, each CPU of @p, and note whether they are
 * all quiet now. A CPU still before the pass stays still (the grace step
 * moves no bound in force); a judged one is still when its key is decidable.
 */
static void pass(struct an_replay *r, struct floor_check *k, const struct an_freq_policy *p,
		 struct floor_pol *fp, bool is_local, bool is_eval, bool is_busy, bool has_obs,
		 unsigned int obs)
{
	bool is_all = has_obs;
	uint64_t until = UINT64_MAX, due = UINT64_MAX;

	for (unsigned int c = 0; c < p->su.nr_cpus; c++) {
		int cpu = p->su.cpu[c];
		struct floor_cpu *fc = &k->cpu[cpu];

		if (is_local && has_obs && is_still(r, p, cpu, fc, obs)) {
			step_still(r, p, fc, is_eval, is_busy);
		} else {
			judge_cpu(r, k, p, cpu, is_eval, is_busy, has_obs, obs);
			is_all = is_all && fc->key.has_state && fc->key.is_decidable &&
				 (r->cpu[cpu].curr_pid <= 0 || an_fq_memo_is_valid(&fc->last, p));
		}
		if (!an_fq_bound_is_settled(&fc->bound)) {
			uint64_t t = an_fq_bound_quiet_until(&fc->bound);

			if (t < until)
				until = t;
			t = an_fq_bound_due(&fc->bound);
			if (t < due)
				due = t;
		}
	}
	*fp = (struct floor_pol){
		.was_busy = is_busy, .is_quiet = is_all && until > 0, .obs_khz = obs,
		.cur_khz = an_fq_cur_key(p), .gen = p->gen, .seq = an_fq_policy_seq(r, p),
		.until_ns = until, .due_ns = due,
	};
}

static AN_NOINLINE void after(struct an_replay *r, struct floor_check *k, const struct an_event *ev)
{
	bool is_local = an_fq_is_local(r, ev);

	for (unsigned int i = 0; i < r->nr_policies; i++) {
		const struct an_freq_policy *p = &r->policy[i];
		struct floor_pol *fp = &k->pol[i];
		bool is_eval, is_busy, has_obs;
		unsigned int obs = 0;

		if (!an_fq_policy_usable(p) || !an_fq_policy_touched(r, p, ev))
			continue;
		is_eval = an_fq_policy_evaluated(r, p);
		is_busy = an_fq_policy_busy(r, p);
		has_obs = an_fq_policy_observed(r, p, &obs);
		if (is_local && has_obs && is_quiet(r, p, fp, obs))
			fp->was_busy = is_busy;
		else
			pass(r, k, p, fp, is_local, is_eval, is_busy, has_obs, obs);
	}
}

static int on_event(void *ctx, struct an_replay *r, const struct an_event *ev, bool is_after)
{
	struct floor_check *k = ctx;

	if (!k->cpu && setup(k, r))
		return -ENOMEM;
	if (is_after && an_fq_is_uclamp_event(ev))
		k->has_uclamp_event = true;
	if (!r->nr_policies)
		return 0;	/* no policy (no cpufreq): nothing to judge */
	if (is_after)
		after(r, k, ev);
	else
		before(r, k, ev->ts_ns);
	return 0;
}

static void on_finish(void *ctx, struct an_replay *r, uint64_t end_ns)
{
	struct floor_check *k = ctx;

	/* not called yet (no policy, no util or uclamp event): an empty check */
	if (!k->cpu && (!r->is_started || setup(k, r)))
		return;
	for (unsigned int i = 0; i < r->nr_policies; i++)
		if (an_fq_policy_usable(&r->policy[i]))
			drop_until(r, k, &r->policy[i], end_ns);
	for (unsigned int c = 0; c < k->nr_cpus; c++)
		an_fq_key_close(k->res, &k->cpu[c].key, end_ns, NULL);
	an_fq_set_input(r, k->res, CHECK, k->has_uclamp_event || an_fq_has_clamps(r),
			"no input: no clamp known (no request, uclamp event or platform model)");
}

static void on_free(void *ctx)
{
	struct floor_check *k = ctx;

	free(k->cpu);
	free(k->pol);
	free(k);
}

/**
 * an_check_freq_below_min_clamp_attach() - attach check freq_below_min_clamp
 * @r: replay
 * @res: where its windows and counters go, borrowed for @r's life
 * @d: diagnostic on failure
 *
 * Compares each running CPU's policy frequency with the floor of its rq
 * clamps (events.md §4; uclamp-v3.md VS1/VR8, uclamp-mainline.md MS1/MS5,
 * schedutil.md S8–S10), after the grace of freqstate.h.
 *
 * Return: 0 or -ENOMEM.
 */
int an_check_freq_below_min_clamp_attach(struct an_replay *r, struct an_results *res,
					 struct an_diag *d)
{
	struct floor_check *k = an_calloc(1, sizeof(*k));
	struct an_observer obs = {
		.name = "freq_below_min_clamp", .event = on_event, .finish = on_finish,
		.free = on_free, .ctx = k,
		.also = AN_OBS_ALSO_SLEEPER_OUT,	/* the kernel may choose there */
		.only = AN_OBS_ONLY_POLICY, .types = AN_FQ_NO_POLICY_TYPES,
	};

	if (!k)
		return an_diag_fail(d, -ENOMEM, "out of memory");
	k->res = res;
	return an_replay_add_observer(r, &obs);
}
