/* SPDX-License-Identifier: MIT */
/*
 * analyze/checks/freqstate.h - what the three frequency checks share (events.md §4:
 * freq_below_min_clamp, freq_above_max_clamp, freq_prediction): the grace
 * window of an expected frequency, the judgement of one key (FAIL, UNDECIDED,
 * intervals), and the schedutil inputs of a policy read from the replay.
 *
 * Grace (events.md §4, schedutil.md S2, S3, S15, S16): an expectation that
 * changed at time c binds the kernel only once (1) a scheduler event of the
 * policy happened at or after c (time e: schedutil runs only on scheduler
 * events; a traced one, or the tick of a CPU that stays busy, at the latest
 * one tick after c or after it became busy), (2) the rate limit passed after
 * e and the kernel had a chance to evaluate again: a CPU of the policy was
 * busy (its tick evaluates) or had a traced scheduler event at or after
 * e + rate limit (time s), and (3) one tick more passed for that evaluation
 * and for the sugov:N kthread (S26): the expectation binds from s + tick.
 * On a busy policy with a traced event at c this is the spec's "rate limit +
 * one tick from the first scheduler event"; an idle policy (NO_HZ: no tick,
 * no evaluation) is not held to it until it is evaluated again.
 * While an older expectation is still within its grace, the kernel may still
 * follow it: the bound in force is the most lenient of the expectations
 * whose grace has not run out, and the current one.
 */
#ifndef UCVAL_ANALYZE_CHECKS_FREQSTATE_H
#define UCVAL_ANALYZE_CHECKS_FREQSTATE_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "analyze/checks/check.h"
#include "analyze/checks/cover.h"
#include "analyze/replay/replay.h"

/* No lower bound (floor of an idle CPU, unknown expectation). */
#define AN_FQ_NO_FLOOR_KHZ	0u
/* No upper bound (no ceiling: RT/DL runnable, unknown expectation). */
#define AN_FQ_NO_CEILING_KHZ	UINT_MAX
/* Expectations one bound keeps: they are OPPs, strictly ordered (+ lenient). */
#define AN_FQ_MAX_PENDING	(MODEL_SU_MAX_OPPS + 2)

/* Which way a bound binds the observed frequency. */
enum an_fq_side {
	AN_FQ_LOWER,		/* observed >= bound (floor, prediction low end) */
	AN_FQ_UPPER,		/* observed <= bound (ceiling, prediction high end) */
};

/* Where an older expectation is in its grace. */
enum an_fq_stage {
	AN_FQ_WAIT_EVENT,	/* no scheduler event of the policy since it ended;
				 * ts_ns: latest tick while busy (is_tick) */
	AN_FQ_WAIT_CHANCE,	/* waits for an evaluation chance at or after ts_ns */
	AN_FQ_DROP_AT,		/* stops binding the kernel's leeway at ts_ns */
};

/**
 * struct an_fq_old - an expectation that was replaced but may still be followed
 * @khz: its frequency
 * @stage: grace stage
 * @is_tick: WAIT_EVENT: a CPU of the policy is busy, its tick is due by @ts_ns
 * @ts_ns: WAIT_EVENT: that tick; WAIT_CHANCE: earliest evaluation chance
 *	   (e + rate limit); DROP_AT: end of its grace (s + tick)
 */
struct an_fq_old {
	unsigned int khz;
	enum an_fq_stage stage;
	bool is_tick;
	uint64_t ts_ns;
};

/**
 * struct an_fq_times - the grace of a policy, in parts (an_fq_grace())
 * @rl_ns: rate limit part
 * @tail_ns: tick part after the evaluation chance
 * @tick_ns: the scheduler tick (a busy CPU is evaluated at least this often)
 */
struct an_fq_times {
	uint64_t rl_ns;
	uint64_t tail_ns;
	uint64_t tick_ns;
};

/**
 * struct an_fq_bound - an expected bound as a function of time, with grace
 * @side: lower or upper bound
 * @cur_khz: the current expectation
 * @nr: older expectations still within their grace, @old[0] the oldest
 * @old: them; each is more lenient than the ones after it and than @cur_khz,
 *	 so the bound in force is @old[0] (or @cur_khz when none)
 */
struct an_fq_bound {
	enum an_fq_side side;
	unsigned int cur_khz;
	unsigned int nr;
	struct an_fq_old old[AN_FQ_MAX_PENDING];
};

void an_fq_bound_init(struct an_fq_bound *b, enum an_fq_side side);
void an_fq_bound_forget(struct an_fq_bound *b);
void an_fq_bound_set(struct an_fq_bound *b, unsigned int khz);
unsigned int an_fq_bound_now(const struct an_fq_bound *b);
void an_fq_bound_elapse(struct an_fq_bound *b, uint64_t now_ns, bool was_busy,
			const struct an_fq_times *g);
void an_fq_bound_step(struct an_fq_bound *b, uint64_t now_ns, bool is_eval, bool is_busy,
		      const struct an_fq_times *g);
void an_fq_bound_restart(struct an_fq_bound *b);
bool an_fq_bound_next_drop(const struct an_fq_bound *b, uint64_t before_ns, uint64_t *ts_ns);

/*
 * No older expectation waits: an_fq_bound_elapse(), an_fq_bound_step() and
 * the drops have nothing to do, so a check may skip them (and the grace).
 */
static inline bool an_fq_bound_is_settled(const struct an_fq_bound *b)
{
	return !b->nr;
}
void an_fq_bound_drop(struct an_fq_bound *b, uint64_t upto_ns);

/*
 * The first instant an_fq_bound_step() may change @b at: 0 while an older
 * expectation waits for a scheduler event (any event may end that wait),
 * else the earliest evaluation chance waited for (UINT64_MAX: none). At an
 * event before it the step changes nothing, whatever the event.
 */
static inline uint64_t an_fq_bound_quiet_until(const struct an_fq_bound *b)
{
	uint64_t until = UINT64_MAX;

	for (unsigned int i = 0; i < b->nr; i++) {
		if (b->old[i].stage == AN_FQ_WAIT_EVENT)
			return 0;
		if (b->old[i].stage == AN_FQ_WAIT_CHANCE && b->old[i].ts_ns < until)
			until = b->old[i].ts_ns;
	}
	return until;
}

/*
 * an_fq_bound_due() is the earliest instant after which time alone may
 * change @b: an older expectation's tick, evaluation chance or grace end
 * (UINT64_MAX: none). an_fq_bound_is_due() says whether that is before
 * @now_ns; when not, an_fq_bound_elapse() and the drops before @now_ns
 * have nothing to do.
 */
static inline uint64_t an_fq_bound_due(const struct an_fq_bound *b)
{
	uint64_t due = UINT64_MAX;

	for (unsigned int i = 0; i < b->nr; i++)
		if (b->old[i].ts_ns < due &&
		    (b->old[i].stage != AN_FQ_WAIT_EVENT || b->old[i].is_tick))
			due = b->old[i].ts_ns;
	return due;
}

static inline bool an_fq_bound_is_due(const struct an_fq_bound *b, uint64_t now_ns)
{
	return an_fq_bound_due(b) < now_ns;
}

/**
 * struct an_fq_tally - intervals one key was judged over (accuracy figures)
 * @n_ok: decidable intervals whose observed frequency was accepted
 * @n_bad: decidable intervals whose observed frequency was not
 * @ok_ns: their total duration
 * @bad_ns: likewise
 * @undecided_ns: time the key could not be judged
 */
struct an_fq_tally {
	uint64_t n_ok;
	uint64_t n_bad;
	uint64_t ok_ns;
	uint64_t bad_ns;
	uint64_t undecided_ns;
};

/**
 * struct an_fq_key - the judgement state of one key (check, cpu)
 * @fail: its FAIL window
 * @doubt: its UNDECIDED window
 * @has_state: an interval is open
 * @is_decidable: the open interval could be judged
 * @is_ok: its observed frequency was accepted
 * @obs_khz: observed frequency of the open interval
 * @lo_khz: accepted range of the open interval (@lo_khz..@hi_khz)
 * @hi_khz: likewise
 * @since_ns: start of the open interval
 * @why: reason of the open UNDECIDED window (a new reason starts a new one)
 */
struct an_fq_key {
	struct an_win_track fail;
	struct an_win_track doubt;
	bool has_state;
	bool is_decidable;
	bool is_ok;
	unsigned int obs_khz;
	unsigned int lo_khz;
	unsigned int hi_khz;
	uint64_t since_ns;
	const char *why;
	bool is_fail_by_move;		/* the open FAIL began by the kernel's move ... */
	uint64_t fail_move_ns;		/* ... made then ... */
	int fail_move_cpu;		/* ... by that CPU */
	bool has_move;			/* the kernel's latest move (cpu_frequency) ... */
	uint64_t move_ns;		/* ... at */
	int move_cpu;			/* ... on the CPU that emitted it */
	enum an_check_id cov_check;	/* rule coverage: the check ... */
	struct an_cover_set cov;	/* ... and the rules of the decidable interval */
};

/**
 * struct an_fq_judgement - one key at one instant
 * @check: the check
 * @cpu: key CPU (the CPU, or the policy's first CPU)
 * @ts_ns: the instant
 * @is_decidable: the key can be judged
 * @is_hiding: an undecidable key may hide a failure (integrity, lost events)
 * @why: static text saying why it cannot be judged
 * @obs_khz: observed frequency of the policy
 * @lo_khz: lowest accepted frequency (AN_FQ_NO_FLOOR_KHZ: none)
 * @hi_khz: highest accepted frequency (AN_FQ_NO_CEILING_KHZ: none)
 * @rule: rule ID a FAIL window cites
 * @what: "floor", "ceiling" or "prediction", for the message
 * @explain: fills a new FAIL window's explanation chain (struct
 *	     an_window.explain), or NULL; called only when a window opens
 * @explain_ctx: its context
 * @chain: fills the model's explanation chain behind the range (its rules
 *	   are counted as rule coverage at each decidable interval), or NULL;
 *	   called with @explain_ctx and @cpu
 * @hold_rule: rule coverage: the rule that moved the range off the chain's
 *	       value (S18 busy hold, MS6 its exception), or NULL
 * @is_drop: the instant is a grace end (an older expectation stops binding),
 *	     not an event
 */
struct an_fq_judgement {
	enum an_check_id check;
	int cpu;
	uint64_t ts_ns;
	bool is_decidable;
	bool is_hiding;
	const char *why;
	unsigned int obs_khz;
	unsigned int lo_khz;
	unsigned int hi_khz;
	const char *rule;
	const char *what;
	void (*explain)(const struct an_replay *r, const void *ctx, char *buf, size_t size);
	const void *explain_ctx;
	bool (*chain)(const struct an_replay *r, const void *ctx, int cpu,
		      struct model_su_explain *ex);
	const char *hold_rule;
	bool is_drop;
};

void an_fq_cover_rt(const struct an_replay *r, const struct an_freq_policy *p,
		    struct model_su_explain *ex);
void an_fq_key_change(struct an_replay *r, struct an_results *res, struct an_fq_key *k,
		      const struct an_fq_judgement *j, struct an_fq_tally *tally);

/**
 * an_fq_key_judge() - the state of a key from @j->ts_ns on
 * @r: replay
 * @res: where windows and counters go
 * @k: the key
 * @j: the judgement
 * @tally: intervals are accounted here when they end; may be NULL
 *
 * Most judgements repeat the key's state (same observed frequency, same
 * range or same reason): they change nothing and return here, inline. The
 * others go to an_fq_key_change().
 */
static inline void an_fq_key_judge(struct an_replay *r, struct an_results *res,
				   struct an_fq_key *k, const struct an_fq_judgement *j,
				   struct an_fq_tally *tally)
{
	if (k->has_state && k->obs_khz == j->obs_khz && k->is_decidable == j->is_decidable &&
	    (j->is_decidable ? k->lo_khz == j->lo_khz && k->hi_khz == j->hi_khz :
			       k->why == j->why))
		return;
	an_fq_key_change(r, res, k, j, tally);
}
void an_fq_key_close(struct an_results *res, struct an_fq_key *k, uint64_t end_ns,
		     struct an_fq_tally *tally);

/**
 * struct an_fq_memo - the last result of a model computation over a policy,
 * kept with what it depended on: the policy's generation, its current
 * frequency and @n CPU inputs (compared byte for byte: an_fq_cpu_in() zeroes
 * the padding, so equal bytes are equal inputs)
 * @has: a result is kept
 * @gen: an_freq_policy.gen then
 * @cur_khz: an_fq_cur_key() then (S8 reference when not invariant)
 * @n: inputs in @in
 * @in: the inputs
 * @khz: the result (one or two frequencies)
 */
struct an_fq_memo {
	bool has;
	uint64_t gen;
	unsigned int cur_khz;
	unsigned int n;
	struct model_su_cpu_in in[2 * MODEL_SU_MAX_CPUS];
	unsigned int khz[2];
};

/*
 * What the model's answers take of a policy's current frequency, for the
 * keys of the memos and bands: S8's reference F when not invariant; nothing
 * when invariant (F is then the maximum or reference frequency, ref_freq()
 * in model/schedutil.c), so a frequency change keeps them.
 */
static inline unsigned int an_fq_cur_key(const struct an_freq_policy *p)
{
	return p->su.is_invariant ? 0 : p->su.cur_khz;
}

/* Whether @m holds a result for @p's parameters (generation, an_fq_cur_key()). */
static inline bool an_fq_memo_is_valid(const struct an_fq_memo *m, const struct an_freq_policy *p)
{
	return m->has && m->gen == p->gen && m->cur_khz == an_fq_cur_key(p);
}

bool an_fq_memo_get(const struct an_fq_memo *m, const struct an_freq_policy *p,
		    const struct model_su_cpu_in *in, unsigned int n, unsigned int khz[2]);
void an_fq_memo_put(struct an_fq_memo *m, const struct an_freq_policy *p,
		    const struct model_su_cpu_in *in, unsigned int n, const unsigned int khz[2]);

/**
 * struct an_fq_band - schedutil's expected OPP of a policy (model_su_expected())
 * kept with the utilization band inside which it cannot change
 * @has: an answer is kept
 * @gen: an_freq_policy.gen then (its parameters: OPPs, limits, capacity)
 * @cur_khz: an_fq_cur_key() then (S8 reference when not invariant)
 * @n: CPUs in @in and @raw
 * @lo_khz: the band: while the largest of @raw stays in [@lo_khz, @hi_khz],
 *	    the answer is @khz (S10 is a step function of the raw target,
 *	    model_su_resolve_band())
 * @hi_khz: likewise
 * @khz: the answer
 * @raw: each CPU's raw target alone (model_su_cpu_raw()), for @in
 * @in: the inputs @raw was computed from (an_fq_cpu_in() bytes, util set)
 *
 * Between two changes of a policy's parameters, rq clamps or RT/DL presence
 * the answer is a step function of the CPUs' utilization (S9, S10, S13,
 * S14): a util event costs one CPU's raw target and a comparison; only a
 * band exit (a new OPP) or a new parameter costs a resolution, and only a
 * new parameter a full model_su_expected().
 */
struct an_fq_band {
	bool has;
	uint64_t gen;
	unsigned int cur_khz;
	unsigned int n;
	unsigned int lo_khz;
	unsigned int hi_khz;
	unsigned int khz;
	unsigned int raw[MODEL_SU_MAX_CPUS];
	struct model_su_cpu_in in[MODEL_SU_MAX_CPUS];
};

/* Whether @b holds an answer for @p's parameters; then @b->in are its inputs. */
static inline bool an_fq_band_is_valid(const struct an_fq_band *b, const struct an_freq_policy *p)
{
	return b->has && b->gen == p->gen && b->cur_khz == an_fq_cur_key(p) &&
	       b->n == p->su.nr_cpus;
}

int an_fq_band_expected(const struct an_replay *r, struct an_fq_band *b,
			const struct an_freq_policy *p, const struct model_su_cpu_in *in,
			uint32_t same, unsigned int *khz);

/*
 * The events a frequency check acts on while the replay has no cpufreq
 * policy (an_observer AN_OBS_ONLY_POLICY): the uclamp events it notes
 * (an_fq_is_uclamp_event()) and the util samples it keeps for when a
 * policy comes (an_fq_util_sample()). A recording without cpufreq spends
 * no call on the others.
 */
#define AN_FQ_NO_POLICY_TYPES							\
	(AN_EV_BIT(AN_EV_UCLAMP_UTIL_CFS) | AN_EV_BIT(AN_EV_UCLAMP_UTIL_SE) |	\
	 AN_EV_BIT(AN_EV_UCLAMP_TASK_EFF) | AN_EV_BIT(AN_EV_SCHED_QUEUE_TASK) |	\
	 AN_EV_BIT(AN_EV_SCHED_TASK_UCLAMP) | AN_EV_BIT(AN_EV_SCHED_PELT_CFS) |	\
	 AN_EV_BIT(AN_EV_SCHED_UTIL_EST_CFS) | AN_EV_BIT(AN_EV_SCHED_UTIL))

/* ---- the policy as the replay shows it ---- */

bool an_fq_policy_usable(const struct an_freq_policy *p);
void an_fq_pol_fill(const struct an_replay *r, const struct an_freq_policy *p);
void an_fq_touched_fill(const struct an_replay *r, const struct an_freq_policy *p,
			const struct an_event *ev);
void an_fq_cpu_in_fill(const struct an_replay *r, int cpu);

/*
 * The policy-wide answers of this observer call (r->phase): the three
 * frequency checks ask the same ones, and the replay's state cannot change
 * within a call. Inline: they are asked several times an event.
 */
static inline const struct an_fq_pol_memo *an_fq_pol(const struct an_replay *r,
						     const struct an_freq_policy *p)
{
	const struct an_fq_pol_memo *m = &r->fq_pol[p - r->policy];

	if (!r->phase || m->phase != r->phase)
		an_fq_pol_fill(r, p);
	return m;
}

/**
 * an_fq_policy_observed() - the policy's observed frequency
 * @r: replay
 * @p: the policy
 * @khz: the latest cpu_frequency (or devlib marker) of any of its CPUs
 *
 * A policy has one clock (S1): the kthread (S26) and 5.3+ fast switches
 * (S25) report it once per CPU, older fast switches for one CPU only.
 *
 * Return: false while none of its CPUs has reported a frequency.
 */
static inline bool an_fq_policy_observed(const struct an_replay *r,
					 const struct an_freq_policy *p, unsigned int *khz)
{
	const struct an_fq_pol_memo *m = an_fq_pol(r, p);

	if (m->has_obs)
		*khz = m->obs_khz;
	return m->has_obs;
}

/**
 * an_fq_policy_busy() - whether a CPU of the policy runs a task (its tick runs)
 * and the grace must count on that tick
 * @r: replay
 * @p: the policy
 *
 * A CPU whose evaluations the trace shows (an_cpu.has_eval_events) is not
 * counted: each of its evaluations is an event, and an emulated CPU can go
 * 40 ms without a tick (make check-kernel, a host deschedules vCPUs).
 *
 * Return: true when a CPU whose runqueue is known runs a task other than
 * idle and its evaluations are not in the trace.
 */
static inline bool an_fq_policy_busy(const struct an_replay *r, const struct an_freq_policy *p)
{
	return an_fq_pol(r, p)->is_busy;
}

/**
 * an_fq_policy_evaluated() - whether the current event is a scheduler event
 * of a CPU of the policy (S2; call after the model)
 * @r: replay
 * @p: the policy
 *
 * Return: true or false.
 */
static inline bool an_fq_policy_evaluated(const struct an_replay *r,
					  const struct an_freq_policy *p)
{
	return an_fq_pol(r, p)->is_evaluated;
}

/**
 * an_fq_policy_touched() - whether the current event may change what the
 * frequency checks compute for the policy (call after the model)
 * @r: replay
 * @p: the policy
 * @ev: the event
 *
 * Scheduler and util events touch the CPUs they evaluate or whose rq clamps
 * they change, cpu_frequency its CPU; anything else (markers, requests,
 * limits, exits, lost events) touches every policy.
 *
 * Return: true or false.
 */
static inline bool an_fq_policy_touched(const struct an_replay *r,
					const struct an_freq_policy *p,
					const struct an_event *ev)
{
	const struct an_fq_pol_memo *m = &r->fq_pol[p - r->policy];

	if (!r->phase || m->touched_phase != r->phase)
		an_fq_touched_fill(r, p, ev);
	return m->is_touched;
}

/**
 * an_fq_cpu_in() - what schedutil sees of @cpu, utilization aside (S4–S7)
 * @r: replay (started; @cpu in the model)
 * @cpu: CPU id
 * @in: filled: the model's rq clamps (model_rq_value(), IDLE flag), whether
 *	an RT task or a DL task other than sugov:N is queued, the mainline
 *	static key; utilizations, irq, bw_dl and iowait are 0 (events.md §4:
 *	what a trace cannot show is taken as 0)
 *
 * The three frequency checks ask for the same CPUs in one observer call:
 * kept in r->fq_in for the call.
 */
static inline void an_fq_cpu_in(const struct an_replay *r, int cpu, struct model_su_cpu_in *in)
{
	const struct an_fq_in_memo *m = &r->fq_in[cpu];

	if (!r->phase || m->phase != r->phase)
		an_fq_cpu_in_fill(r, cpu);
	memcpy(in, &m->in, sizeof(*in));
}

bool an_fq_cpu_walk_pending(const struct an_replay *r, int cpu);

/**
 * an_fq_is_local() - an_replay_is_local(), and shortcuts are allowed: never
 * with UCVAL_FQ_FULL, which judges everything as the reference the
 * shortcuts are compared with
 * @r: replay
 * @ev: the event
 *
 * An event that is not local touches every policy (an_fq_policy_touched()),
 * or leaves the model undefined for good (v3): each check judges in full
 * then. A check that keeps the touch_seq of the CPUs behind a full judgement
 * knows, at a local event, whether their inputs are still those
 * (an_fq_cpu_seq()): if so, and the bound and observed frequency are too,
 * a new judgement can only repeat it, and the check may leave it out.
 *
 * Return: true or false.
 */
static inline bool an_fq_is_local(const struct an_replay *r, const struct an_event *ev)
{
	return an_replay_is_local(r, ev) && !r->opts.is_fq_full;
}

/* The touch_seq of @cpu (an_fq_is_local()). */
static inline uint64_t an_fq_cpu_seq(const struct an_replay *r, int cpu)
{
	return r->cpu[cpu].touch_seq;
}

/* The sum of the touch_seq of @p's CPUs: it moves when one of them does. */
static inline uint64_t an_fq_policy_seq(const struct an_replay *r, const struct an_freq_policy *p)
{
	uint64_t sum = 0;

	for (unsigned int c = 0; c < p->su.nr_cpus; c++)
		sum += r->cpu[p->su.cpu[c]].touch_seq;
	return sum;
}

/**
 * an_fq_cpu_applied() - whether the kernel applies now, or has yet to apply,
 * a clamp change the model took for @cpu's runqueue: the current event shows
 * it applied (an_replay_step.applied_cpu), or a group write in progress
 * (walk.h) has yet to reach the group of a task queued there
 * (an_fq_cpu_walk_pending()). Either way the graces of what follows from it
 * start again (an_fq_bound_restart()).
 * @r: replay
 * @cpu: the CPU
 *
 * Return: true or false.
 */
static inline bool an_fq_cpu_applied(const struct an_replay *r, int cpu)
{
	if (r->step.applied_cpu >= 0 && cpu == r->step.applied_cpu)
		return true;
	return r->walk.is_open && an_fq_cpu_walk_pending(r, cpu);
}
bool an_fq_policy_applied(const struct an_replay *r, const struct an_freq_policy *p);
void an_fq_cpu_why_undecidable(const struct an_replay *r, int cpu, uint64_t ts_ns,
			       bool *is_hiding, const char **why);

/**
 * an_fq_cpu_undecidable() - whether checks cannot judge @cpu at @ts_ns, and why
 * @r: replay
 * @cpu: CPU id
 * @ts_ns: the instant
 * @is_hiding: set when the doubt may hide a failure (an_fq_cpu_why_undecidable())
 * @why: static reason
 *
 * Return: true when an_replay_is_decidable() says no.
 */
static inline bool an_fq_cpu_undecidable(const struct an_replay *r, int cpu, uint64_t ts_ns,
					 bool *is_hiding, const char **why)
{
	if (an_replay_is_decidable(r, cpu, ts_ns))
		return false;
	an_fq_cpu_why_undecidable(r, cpu, ts_ns, is_hiding, why);
	return true;
}
void an_fq_grace(const struct an_replay *r, const struct an_freq_policy *p,
		 struct an_fq_times *g);
bool an_fq_is_sugov(const char *comm);
struct an_freq_policy *an_fq_sugov_policy(const struct an_replay *r, const char *comm);
bool an_fq_has_clamps(const struct an_replay *r);
bool an_fq_may_hold(const struct an_replay *r, const struct an_freq_policy *p);

/*
 * struct an_fq_stretch - schedutil's busy hold (S18): while a 1-CPU policy's
 * CPU has not certainly been counted idle, the highest frequency of the
 * stretch so far (an_fq_stretch_update()). Zero-initialized means no stretch.
 */
struct an_fq_stretch {
	bool is_open;
	unsigned int max_khz;
	uint64_t since_ns;		/* first judgement of the stretch */
	bool is_idle;			/* the CPU idles; the stretch may go on */
	uint64_t idle_ns;		/* since when */
	unsigned int idle_seq;		/* which idle period (an_cpu.idle_seq) */
	bool is_fresh;			/* closed by a counted idle: starts anew */
};

bool an_fq_stretch_update(struct an_fq_stretch *s, const struct an_replay *r,
			  const struct an_freq_policy *p, unsigned int khz);
void an_fq_stretch_end(struct an_fq_stretch *s, const struct an_replay *r,
		       const struct an_freq_policy *p);
void an_fq_stretch_limits(struct an_fq_stretch *s, const struct an_freq_policy *p);
const char *an_fq_coupling_rule(const struct an_replay *r, const struct an_freq_policy *p);
void an_fq_obs_lost(const struct an_replay *r, const struct an_freq_policy *p,
		    struct an_fq_judgement *j);

/**
 * an_fq_obs_doubt() - why no frequency is observed, when lost events are why
 * @r: replay
 * @p: the policy
 * @j: a judgement; when undecidable for want of an observed frequency, lost
 *     events may have hidden a cpu_frequency of @p (an_fq_obs_lost())
 */
static inline void an_fq_obs_doubt(const struct an_replay *r, const struct an_freq_policy *p,
				   struct an_fq_judgement *j)
{
	if (!j->is_decidable)
		an_fq_obs_lost(r, p, j);
}
/*
 * A uclamp event (uclamp_util_cfs, uclamp_util_se, uclamp_task_eff,
 * MediaTek's sched_queue_task and sched_task_uclamp): the clamp checks have
 * an input even where no request or platform says so.
 */
static inline bool an_fq_is_uclamp_event(const struct an_event *ev)
{
	return ev->type == AN_EV_UCLAMP_UTIL_CFS || ev->type == AN_EV_UCLAMP_UTIL_SE ||
	       ev->type == AN_EV_UCLAMP_TASK_EFF || ev->type == AN_EV_SCHED_QUEUE_TASK ||
	       ev->type == AN_EV_SCHED_TASK_UCLAMP;
}

bool an_fq_util_sample(const struct an_replay *r, const struct an_event *ev, int *cpu,
		       unsigned int *util_cfs, unsigned int *util_rt);
void an_fq_set_input(struct an_replay *r, struct an_results *res, enum an_check_id check,
		     bool has_signal, const char *no_signal);

/**
 * struct an_freq_figures - accuracy of freq_prediction over one trace
 * @n_intervals: decidable intervals judged (its n_checked, rate limit aside)
 * @n_matched: of which the observed frequency was accepted
 * @n_mismatched: of which it was not
 * @matched_ns: time the observed frequency was accepted
 * @mismatched_ns: time it was not
 * @undecided_ns: time (summed over policies) no judgement was possible
 * @n_observed: observed frequency changes of a policy while it was decidable
 * @n_observed_matched: of which the new frequency was accepted at once
 * @n_predicted: changes of the predicted OPP while decidable
 * @n_predicted_reached: of which the observed frequency reached the new OPP
 *			 before the prediction changed again
 * @n_rate_checked: observed changes judged against a known rate limit
 * @n_rate_violations: of which came earlier than the rate limit allows
 * @n_rate_on_clock: of the judged, those measured on the rq clock
 *		     (schedutil_util time) rather than on event times
 */
struct an_freq_figures {
	uint64_t n_intervals;
	uint64_t n_matched;
	uint64_t n_mismatched;
	uint64_t matched_ns;
	uint64_t mismatched_ns;
	uint64_t undecided_ns;
	uint64_t n_observed;
	uint64_t n_observed_matched;
	uint64_t n_predicted;
	uint64_t n_predicted_reached;
	uint64_t n_rate_checked;
	uint64_t n_rate_violations;
	uint64_t n_rate_on_clock;
};

int an_freq_prediction_figures(const struct an_replay *r, struct an_freq_figures *out);

#endif /* UCVAL_ANALYZE_CHECKS_FREQSTATE_H */
