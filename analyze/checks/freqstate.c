// SPDX-License-Identifier: MIT
/*
 * analyze/checks/freqstate.c - what the frequency checks share (freqstate.h): the
 * grace of an expected bound, the judgement of a key into FAIL and UNDECIDED
 * windows and intervals, and schedutil's view of a policy read from the
 * replay (events.md §4, schedutil.md S2, S3, S15, S16, S18, S26).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/checks/freqstate.h"
#include "analyze/read/alias.h"
#include "analyze/replay/signals.h"

/* ns per µs: rate_limit_us and tick_us to trace time. */
#define NSEC_PER_USEC	1000ULL
/* schedutil's kthread is named "sugov:<first CPU of the policy>" (S26). */
#define SUGOV_PREFIX	"sugov:"

/* ---- bounds with grace ---- */

static unsigned int lenient_khz(enum an_fq_side side)
{
	return side == AN_FQ_LOWER ? AN_FQ_NO_FLOOR_KHZ : AN_FQ_NO_CEILING_KHZ;
}

/* Does @a let the kernel do strictly more than @b? */
static bool is_looser(enum an_fq_side side, unsigned int a, unsigned int b)
{
	return side == AN_FQ_LOWER ? a < b : a > b;
}

/**
 * an_fq_bound_init() - a bound that accepts everything and remembers nothing
 * @b: the bound
 * @side: which way it binds
 */
void an_fq_bound_init(struct an_fq_bound *b, enum an_fq_side side)
{
	memset(b, 0, sizeof(*b));
	b->side = side;
	b->cur_khz = lenient_khz(side);
}

/**
 * an_fq_bound_forget() - the expectation became unknown: accept everything
 * @b: the bound
 *
 * The next an_fq_bound_set() starts from "anything goes", so the kernel gets
 * the whole grace to reach it.
 */
void an_fq_bound_forget(struct an_fq_bound *b)
{
	an_fq_bound_init(b, b->side);
}

/**
 * an_fq_bound_set() - the expectation changed to @khz now
 * @b: the bound
 * @khz: the new expectation
 *
 * A looser expectation binds at once. A stricter one binds once the grace of
 * the current one has run out: the current one is kept, waiting for the next
 * scheduler event of the policy (an_fq_bound_chance()). Expectations that are
 * no looser than a later one can never be the bound in force and go.
 */
void an_fq_bound_set(struct an_fq_bound *b, unsigned int khz)
{
	unsigned int prev = b->cur_khz;

	if (khz == prev)
		return;
	b->cur_khz = khz;
	while (b->nr && !is_looser(b->side, b->old[b->nr - 1].khz, khz))
		b->nr--;
	if (!is_looser(b->side, prev, khz))
		return;
	if (b->nr == AN_FQ_MAX_PENDING) {
		/* cannot happen with OPP values; keep the looser one, longer */
		b->old[b->nr - 1].stage = AN_FQ_WAIT_EVENT;
		return;
	}
	b->old[b->nr++] = (struct an_fq_old){ .khz = prev, .stage = AN_FQ_WAIT_EVENT };
}

/**
 * an_fq_bound_now() - the bound in force
 * @b: the bound
 *
 * Return: the loosest expectation still within its grace, else the current.
 */
unsigned int an_fq_bound_now(const struct an_fq_bound *b)
{
	return b->nr ? b->old[0].khz : b->cur_khz;
}

/* Stage 2 to 3: the chance at @s_ns ends the grace one tail later. */
static void take_chance(struct an_fq_old *o, uint64_t s_ns, const struct an_fq_times *g)
{
	o->stage = AN_FQ_DROP_AT;
	o->ts_ns = s_ns + g->tail_ns;
}

/**
 * an_fq_bound_elapse() - time passed from the previous event to @now_ns
 * (call before the model takes the event at @now_ns)
 * @b: the bound
 * @now_ns: the event's time
 * @was_busy: a CPU of the policy ran a task since the previous event
 * @g: the policy's grace
 *
 * A busy policy ticks: a due tick is the scheduler event (stage 1 ends
 * there), and a due evaluation chance is taken where it falls (stage 2).
 */
void an_fq_bound_elapse(struct an_fq_bound *b, uint64_t now_ns, bool was_busy,
			const struct an_fq_times *g)
{
	if (!was_busy)
		return;
	for (unsigned int i = 0; i < b->nr; i++) {
		struct an_fq_old *o = &b->old[i];

		if (o->stage == AN_FQ_WAIT_EVENT && o->is_tick && o->ts_ns < now_ns) {
			o->stage = AN_FQ_WAIT_CHANCE;
			o->ts_ns += g->rl_ns;
		}
		if (o->stage == AN_FQ_WAIT_CHANCE && o->ts_ns < now_ns)
			take_chance(o, o->ts_ns, g);
	}
}

/**
 * an_fq_bound_restart() - the kernel applies now what the expectations of
 * @b follow (a group write reaching a task long after the model took it):
 * each older expectation waits for an evaluation again
 * @b: the bound
 */
void an_fq_bound_restart(struct an_fq_bound *b)
{
	for (unsigned int i = 0; i < b->nr; i++) {
		b->old[i].stage = AN_FQ_WAIT_EVENT;
		b->old[i].is_tick = false;
		b->old[i].ts_ns = 0;
	}
}

/**
 * an_fq_bound_step() - what the event at @now_ns did to the grace (call
 * after the model took it, and after an_fq_bound_set())
 * @b: the bound
 * @now_ns: the event's time
 * @is_eval: it is a scheduler event of a CPU of the policy (stage 1 ends)
 * @is_busy: a CPU of the policy runs a task after it (its tick is due by
 *	     @now_ns + tick; an idle policy has no tick)
 * @g: the policy's grace
 */
void an_fq_bound_step(struct an_fq_bound *b, uint64_t now_ns, bool is_eval, bool is_busy,
		      const struct an_fq_times *g)
{
	for (unsigned int i = 0; i < b->nr; i++) {
		struct an_fq_old *o = &b->old[i];

		if (o->stage == AN_FQ_WAIT_EVENT && is_eval) {
			o->stage = AN_FQ_WAIT_CHANCE;
			o->ts_ns = now_ns + g->rl_ns;
		} else if (o->stage == AN_FQ_WAIT_EVENT) {
			if (is_busy && !o->is_tick)
				o->ts_ns = now_ns + g->tick_ns;
			o->is_tick = is_busy;
		}
		if (o->stage == AN_FQ_WAIT_CHANCE && (is_eval || is_busy) && o->ts_ns <= now_ns)
			take_chance(o, now_ns, g);
	}
}

/**
 * an_fq_bound_next_drop() - when the oldest expectation's grace ends, if before
 * @before_ns
 * @b: the bound
 * @before_ns: exclusive limit
 * @ts_ns: the end of its grace
 *
 * Return: true when the oldest one's grace ends before @before_ns.
 */
bool an_fq_bound_next_drop(const struct an_fq_bound *b, uint64_t before_ns, uint64_t *ts_ns)
{
	if (!b->nr || b->old[0].stage != AN_FQ_DROP_AT || b->old[0].ts_ns >= before_ns)
		return false;
	*ts_ns = b->old[0].ts_ns;
	return true;
}

/**
 * an_fq_bound_drop() - the graces ending at or before @upto_ns ended: those
 * expectations no longer bind
 * @b: the bound
 * @upto_ns: the instant (an_fq_bound_next_drop()); expectations whose grace
 *	     ends at the same instant go together, so no bound is in force for
 *	     no time at all
 */
void an_fq_bound_drop(struct an_fq_bound *b, uint64_t upto_ns)
{
	unsigned int n = 0;

	while (n < b->nr && b->old[n].stage == AN_FQ_DROP_AT && b->old[n].ts_ns <= upto_ns)
		n++;
	b->nr -= n;
	memmove(&b->old[0], &b->old[n], b->nr * sizeof(b->old[0]));
}

/* ---- judging a key ---- */

static void account(struct an_fq_key *k, uint64_t ts_ns, struct an_fq_tally *tally)
{
	uint64_t d;

	if (!k->has_state || !tally)
		return;
	d = ts_ns > k->since_ns ? ts_ns - k->since_ns : 0;
	if (!k->is_decidable) {
		tally->undecided_ns += d;
	} else if (k->is_ok) {
		tally->n_ok++;
		tally->ok_ns += d;
	} else {
		tally->n_bad++;
		tally->bad_ns += d;
	}
}

/**
 * an_fq_cover_rt() - rule coverage: MS2 into a chain when it decided
 * @r: replay
 * @p: the policy judged
 * @ex: the chain of its bound or prediction
 *
 * Mainline with the static key on: an RT task queued on a CPU of @p does
 * not force the highest frequency, its boost comes through the rq
 * UCLAMP_MIN (MS2). The model's chain shows MS2 only when the key is off.
 */
void an_fq_cover_rt(const struct an_replay *r, const struct an_freq_policy *p,
		    struct model_su_explain *ex)
{
	struct model_su_cpu_in in;

	if (r->variant != MODEL_MAINLINE || !r->sys.is_uclamp_used || !p->su.feat.has_uclamp)
		return;
	for (unsigned int c = 0; c < p->su.nr_cpus; c++) {
		an_fq_cpu_in(r, p->su.cpu[c], &in);
		if (in.is_rt_runnable) {
			model_su_explain_add(ex, "MS2", "RT runnable, key on", 1, 1, 0);
			return;
		}
	}
}

/* Rule coverage: the decidable interval of @k ends at @ts_ns. */
static void cover_end(struct an_results *res, struct an_fq_key *k, uint64_t ts_ns)
{
	if (!k->has_state || !k->is_decidable || !k->cov.nr)
		return;
	an_cover_set_time(res, k->cov_check, &k->cov, ts_ns > k->since_ns ? ts_ns - k->since_ns : 0);
	k->cov.nr = 0;
}

/*
 * Whether the limits of @cpu's policy decided the OPP of chain @ex: its raw
 * target (S9) resolves (S10) to another OPP within the whole table than
 * within the policy's min and max (S27).
 */
static bool is_limits_decided(const struct an_replay *r, int cpu,
			      const struct model_su_explain *ex)
{
	const struct an_freq_policy *p = an_replay_cpu_policy(r, cpu);
	struct model_su_policy open;
	unsigned int raw = 0;
	bool has_raw = false;

	if (!p || !p->su.nr_opps)
		return false;
	/* limits at the table's ends: the two policies below are one */
	if (p->su.min_khz == p->su.opp_khz[0] &&
	    p->su.max_khz == p->su.opp_khz[p->su.nr_opps - 1])
		return false;
	for (unsigned int i = 0; i < ex->nr && i < MODEL_SU_EXPLAIN_MAX; i++)
		if (ex->step[i].rule && !strcmp(ex->step[i].rule, "S9")) {
			raw = (unsigned int)ex->step[i].value[0];
			has_raw = true;
		}
	if (!has_raw)
		return false;
	open = p->su;
	open.min_khz = open.opp_khz[0];
	open.max_khz = open.opp_khz[open.nr_opps - 1];
	return model_su_resolve(&open, raw) != model_su_resolve(&p->su, raw);
}

/* Rule coverage: a decidable interval of @k begins, judged by @j. */
static void cover_begin(const struct an_replay *r, struct an_results *res, struct an_fq_key *k,
			const struct an_fq_judgement *j)
{
	struct model_su_explain ex;

	k->cov_check = j->check;
	k->cov.nr = 0;
	an_cover_set_add(res, r->variant, &k->cov, j->rule);
	if (j->chain) {
		ex.nr = 0;
		ex.is_truncated = false;
		if (j->chain(r, j->explain_ctx, j->cpu, &ex)) {
			an_cover_set_chain(res, r->variant, &k->cov, &ex);
			if (is_limits_decided(r, j->cpu, &ex))
				an_cover_set_add(res, r->variant, &k->cov, "S27");
		}
	}
	an_cover_set_add(res, r->variant, &k->cov, j->hold_rule);
	an_cover_set_count(res, j->check, &k->cov);
}

static bool is_same(const struct an_fq_key *k, const struct an_fq_judgement *j)
{
	if (!k->has_state || k->is_decidable != j->is_decidable)
		return false;
	if (!j->is_decidable)
		return k->why == j->why;
	return (k->obs_khz == j->obs_khz && k->lo_khz == j->lo_khz &&
				    k->hi_khz == j->hi_khz);
}

/*
 * The event being replayed, at @ts, shows an enqueue or a dequeue on @cpu,
 * the CPU that emitted the kernel's frequency change: schedutil ran there.
 */
static bool is_enqueue_or_dequeue(const struct an_replay *r, uint64_t ts, int cpu)
{
	return r->ev && r->ev->ts_ns == ts && r->ev->cpu == cpu &&
	       (r->ev->type == AN_EV_SCHED_SWITCH || an_event_is_enqueue(r->ev->type));
}

/* A bound check's key changes at @ts: its bound goes to the frequency sink. */
static void sink_bound(struct an_results *res, const struct an_replay *r,
		       const struct an_fq_judgement *j, uint64_t ts)
{
	bool is_floor = j->check == AN_CHECK_FREQ_BELOW_MIN_CLAMP;

	if (j->check == AN_CHECK_FREQ_PREDICTION || !res->freq_sink.bound)
		return;
	res->freq_sink.bound(res->freq_sink.ctx, r, j->cpu, is_floor, ts, j->is_decidable,
			     j->obs_khz, is_floor ? j->lo_khz : j->hi_khz);
}

/**
 * an_fq_key_change() - an_fq_key_judge() when the judgement may change the key
 * @r: replay
 * @res: where windows and counters go
 * @k: the key
 * @j: the judgement
 * @tally: intervals are accounted here when they end; may be NULL
 *
 * A key is judged once per interval in which its observed frequency, its
 * accepted range and its decidability stay the same: each decidable interval
 * is one n_checked. A disagreeing interval opens (or extends) the key's FAIL
 * window at its start; an agreeing one ends it there. An undecidable one ends
 * the FAIL window and opens (or extends) the UNDECIDED one.
 */
void an_fq_key_change(struct an_replay *r, struct an_results *res, struct an_fq_key *k,
		      const struct an_fq_judgement *j, struct an_fq_tally *tally)
{
	uint64_t ts = j->ts_ns;
	struct an_window w;	/* only where a window is made: 280 bytes to clear */
	bool is_obs_moved, is_range_moved;

	if (k->has_state && j->obs_khz != k->obs_khz && r->ev && r->ev->ts_ns == ts) {
		k->has_move = true;
		k->move_ns = ts;
		k->move_cpu = r->ev->cpu;
	}
	if (is_same(k, j))
		return;
	if (k->has_state && ts < k->since_ns)
		ts = k->since_ns;
	sink_bound(res, r, j, ts);
	/* the kernel moved while the accepted range stayed, or the reverse */
	is_obs_moved = k->has_state && k->is_decidable && j->is_decidable &&
		       j->obs_khz != k->obs_khz && j->lo_khz == k->lo_khz && j->hi_khz == k->hi_khz;
	is_range_moved = k->has_state && k->is_decidable && j->is_decidable &&
			 j->obs_khz == k->obs_khz && (j->lo_khz != k->lo_khz || j->hi_khz != k->hi_khz);
	account(k, ts, tally);
	cover_end(res, k, ts);
	k->has_state = true;
	k->since_ns = ts;
	k->is_decidable = j->is_decidable;
	k->obs_khz = j->obs_khz;
	k->lo_khz = j->lo_khz;
	k->hi_khz = j->hi_khz;
	k->is_ok = j->obs_khz >= j->lo_khz && j->obs_khz <= j->hi_khz;
	if (!j->is_decidable) {
		an_win_close(res, &k->fail, ts);
		if (k->doubt.is_open && k->why != j->why)
			an_win_close(res, &k->doubt, ts);
		k->why = j->why;
		w = (struct an_window){
			.check = j->check, .cpu = j->cpu, .pid = -1, .rule = "", .ts_start_ns = ts,
		};
		snprintf(w.message, sizeof(w.message), "cpu %d: %s not judged: %s", j->cpu,
			 j->what, j->why ? j->why : "inputs unknown");
		an_win_doubt_hiding(res, &k->doubt, &w, j->is_hiding);
		return;
	}
	an_win_close(res, &k->doubt, ts);
	res->stats[j->check].n_checked++;
	cover_begin(r, res, k, j);
	if (k->is_ok) {
		/*
		 * The kernel acted on an enqueue or dequeue before the trace
		 * showed it: schedutil runs inside enqueue_task()/dequeue_task(),
		 * before the sched_wakeup or sched_switch that reports them. A
		 * disagreement begun by the kernel's move (at it, or when an
		 * older expectation's grace ended just after it) and ended,
		 * within r->early_ns (--early-us) of the move, by the change
		 * the trace then shows is none.
		 */
		if (k->fail.is_open && k->is_fail_by_move && is_range_moved &&
		    is_enqueue_or_dequeue(r, ts, k->fail_move_cpu) &&
		    ts - k->fail_move_ns <= r->early_ns)
			an_win_discard(&k->fail);
		an_win_agree(res, &k->fail, ts);
		return;
	}
	w = (struct an_window){
		.check = j->check, .cpu = j->cpu, .pid = -1, .rule = j->rule, .ts_start_ns = ts,
		.observed = j->obs_khz,
		.expected = j->obs_khz < j->lo_khz ? j->lo_khz : j->hi_khz,
	};
	if (!k->fail.is_open) {
		k->is_fail_by_move = k->has_move && ts - k->move_ns <= r->early_ns &&
				     (is_obs_moved || j->is_drop);
		k->fail_move_ns = k->move_ns;
		k->fail_move_cpu = k->move_cpu;
	}
	snprintf(w.message, sizeof(w.message), "cpu %d: frequency %u kHz %s the %s %lld kHz",
		 j->cpu, j->obs_khz, j->obs_khz < j->lo_khz ? "below" : "above", j->what,
		 w.expected);
	an_win_observe(res, &k->fail, &w);
	if (j->explain && k->fail.w.n_events == 1) {
		char text[AN_WINDOW_EXPLAIN_LEN];

		j->explain(r, j->explain_ctx, text, sizeof(text));
		an_win_set_explain(&k->fail, text);
	}
}

/**
 * an_fq_key_close() - the trace ended (or the key went away) at @end_ns
 * @res: where windows go
 * @k: the key
 * @end_ns: last instant
 * @tally: where its last interval is accounted; may be NULL
 */
void an_fq_key_close(struct an_results *res, struct an_fq_key *k, uint64_t end_ns,
		     struct an_fq_tally *tally)
{
	account(k, end_ns, tally);
	cover_end(res, k, end_ns);
	k->has_state = false;
	an_win_close(res, &k->fail, end_ns);
	an_win_close(res, &k->doubt, end_ns);
}

/* ---- the policy as the replay shows it ---- */

/**
 * an_fq_policy_usable() - whether bounds and predictions can be computed
 * @p: the policy, may be NULL
 *
 * Return: true when it has an OPP table and model_su_policy_check() accepts it
 * (checked when the policy changes, an_replay_policy_changed()).
 */
bool an_fq_policy_usable(const struct an_freq_policy *p)
{
	return p && p->is_usable;
}

/**
 * an_fq_memo_get() - the kept result for these inputs
 * @m: the memo
 * @p: the policy
 * @in: the inputs
 * @n: their count
 * @khz: the result, when kept
 *
 * Return: true when @m holds the result for @p as it is and @in.
 */
bool an_fq_memo_get(const struct an_fq_memo *m, const struct an_freq_policy *p,
		    const struct model_su_cpu_in *in, unsigned int n, unsigned int khz[2])
{
	if (!an_fq_memo_is_valid(m, p) || m->n != n || memcmp(m->in, in, n * sizeof(*in)))
		return false;
	khz[0] = m->khz[0];
	khz[1] = m->khz[1];
	return true;
}

/**
 * an_fq_memo_put() - keep a result and what it depended on
 * @m: the memo
 * @p: the policy
 * @in: the inputs (at most 2 * MODEL_SU_MAX_CPUS)
 * @n: their count
 * @khz: the result
 */
void an_fq_memo_put(struct an_fq_memo *m, const struct an_freq_policy *p,
		    const struct model_su_cpu_in *in, unsigned int n, const unsigned int khz[2])
{
	if (n > sizeof(m->in) / sizeof(m->in[0])) {
		m->has = false;
		return;
	}
	m->has = true;
	m->gen = p->gen;
	m->cur_khz = an_fq_cur_key(p);
	m->n = n;
	memcpy(m->in, in, n * sizeof(*in));
	m->khz[0] = khz[0];
	m->khz[1] = khz[1];
}

/*
 * Learn @b's band around @in, whose answer is @khz (model_su_expected()):
 * none when a CPU's utilization is not plain (model_su_cpu_raw()).
 */
static void band_learn(const struct an_replay *r, struct an_fq_band *b,
		       const struct an_freq_policy *p, const struct model_su_cpu_in *in,
		       unsigned int khz)
{
	unsigned int n = p->su.nr_cpus, max = 0;
	bool is_plain;

	b->has = false;
	if (r->opts.is_fq_full || n > MODEL_SU_MAX_CPUS)
		return;
	for (unsigned int c = 0; c < n; c++) {
		b->raw[c] = model_su_cpu_raw(&p->su, &in[c], &is_plain);
		if (!is_plain)
			return;
		max = b->raw[c] > max ? b->raw[c] : max;
	}
	if (model_su_resolve(&p->su, max) != khz)
		return;		/* not the structure the band stands on */
	model_su_resolve_band(&p->su, max, &b->lo_khz, &b->hi_khz);
	memcpy(b->in, in, n * sizeof(*in));
	b->n = n;
	b->gen = p->gen;
	b->cur_khz = an_fq_cur_key(p);
	b->khz = khz;
	b->has = true;
}

/*
 * The largest raw target of @in on @b's policy, bringing @b's CPUs up to
 * @in; false when a changed CPU is refused (model_su_cpu_check()) or not
 * plain: then @b is dropped.
 */
static bool band_raw_max(struct an_fq_band *b, const struct an_freq_policy *p,
			 const struct model_su_cpu_in *in, uint32_t same, unsigned int *max)
{
	bool is_plain;

	*max = 0;
	for (unsigned int c = 0; c < b->n; c++) {
		if (!(same & (UINT32_C(1) << c)) && memcmp(&b->in[c], &in[c], sizeof(in[c]))) {
			if (model_su_cpu_check(&p->su, &in[c], 1, NULL)) {
				b->has = false;
				return false;
			}
			b->raw[c] = model_su_cpu_raw(&p->su, &in[c], &is_plain);
			memcpy(&b->in[c], &in[c], sizeof(in[c]));
			if (!is_plain) {
				b->has = false;
				return false;
			}
		}
		*max = b->raw[c] > *max ? b->raw[c] : *max;
	}
	return true;
}

/**
 * an_fq_band_expected() - model_su_expected()'s OPP for @in, from @b when
 * @in stays in its band
 * @r: replay (its options: UCVAL_FQ_FULL keeps no band)
 * @b: the band of @p, updated
 * @p: the policy
 * @in: inputs of every CPU of @p (an_fq_cpu_in() bytes, util set)
 * @same: bit c set when @in[c] is known to be what @b was last given for
 *	  CPU c (its comparison is left out); 0 when not known
 * @khz: the OPP
 *
 * The answer is the model's (model_su_cpu_raw() says why): inside the band,
 * @khz is the kept one; outside it, with the same parameters, the OPP of
 * the largest raw target (S10) and a new band; with new parameters,
 * model_su_expected() and a new band.
 *
 * Return: 0, or -EINVAL when the model refuses @p or @in.
 */
int an_fq_band_expected(const struct an_replay *r, struct an_fq_band *b,
			const struct an_freq_policy *p, const struct model_su_cpu_in *in,
			uint32_t same, unsigned int *khz)
{
	struct model_su_eval e;
	unsigned int max;

	if (an_fq_band_is_valid(b, p) && band_raw_max(b, p, in, same, &max)) {
		if (max >= b->lo_khz && max <= b->hi_khz) {
			*khz = b->khz;
			return 0;
		}
		/* a band exit: the parameters were accepted with @b's answer */
		*khz = model_su_resolve(&p->su, max);
		b->khz = *khz;
		model_su_resolve_band(&p->su, max, &b->lo_khz, &b->hi_khz);
		return 0;
	}
	b->has = false;
	if (model_su_expected(&p->su, in, &e, NULL))
		return -EINVAL;
	*khz = e.freq_khz;
	band_learn(r, b, p, in, e.freq_khz);
	return 0;
}

/**
 * an_fq_cpu_walk_pending() - whether the group write in progress (walk.h)
 * has yet to reach the group of a task queued on @cpu (an_fq_cpu_applied())
 * @r: replay
 * @cpu: the CPU
 *
 * Return: true or false.
 */
bool an_fq_cpu_walk_pending(const struct an_replay *r, int cpu)
{
	const struct model_node *head, *n;

	if (!r->walk.is_open || !an_replay_cpu(r, cpu))
		return false;
	head = &r->mcpu[cpu].queued;
	for (n = head->next; n != head; n = n->next)
		if (an_walk_is_pending(&r->walk, model_container_of(n, struct model_task, rq_node)))
			return true;
	return false;
}

/**
 * an_fq_policy_applied() - an_fq_cpu_applied() for a CPU of the policy
 * @r: replay
 * @p: the policy
 *
 * Return: true or false.
 */
bool an_fq_policy_applied(const struct an_replay *r, const struct an_freq_policy *p)
{
	if (r->step.applied_cpu < 0 && !r->walk.is_open)
		return false;
	for (unsigned int i = 0; i < p->su.nr_cpus; i++)
		if (an_fq_cpu_applied(r, p->su.cpu[i]))
			return true;
	return false;
}

/*
 * Whether @cpu is one of @p's CPUs. A CPU of @p has an_cpu.policy == @p's
 * index; the converse fails only for a CPU beyond MODEL_SU_MAX_CPUS, which
 * su.cpu leaves out.
 */
static bool is_policy_cpu(const struct an_replay *r, const struct an_freq_policy *p, int cpu)
{
	const struct an_cpu *c = an_replay_cpu(r, cpu);

	if (!c || c->policy != (int)(p - r->policy))
		return false;
	for (unsigned int i = 0; i < p->su.nr_cpus; i++)
		if (p->su.cpu[i] == cpu)
			return true;
	return false;
}

/*
 * an_fq_policy_touched() without the memo of an observer call. The CPUs
 * the event evaluated or whose rq clamps it changed are the replay's dirty
 * list (an_cpu.is_eval, is_clamp_changed): one or two, not the policy's.
 */
static bool policy_touched(const struct an_replay *r, const struct an_freq_policy *p,
			   const struct an_event *ev)
{
	if (!an_replay_is_local_type(ev->type) || r->step.nr_issues || r->step.is_reset ||
	    r->step.is_limits_changed)
		return true;
	for (unsigned int i = 0; i < r->nr_dirty; i++)
		if (is_policy_cpu(r, p, r->dirty[i]))
			return true;
	if (ev->type == AN_EV_CPU_FREQUENCY)
		return is_policy_cpu(r, p, ev->freq.cpu_id);
	return ev->type == AN_EV_SCHED_SWITCH && is_policy_cpu(r, p, ev->cpu);
}

/**
 * an_fq_pol_fill() - the policy-wide answers of this observer call
 * (an_fq_pol()), asked of the replay
 * @r: replay
 * @p: the policy
 */
void an_fq_pol_fill(const struct an_replay *r, const struct an_freq_policy *p)
{
	struct an_fq_pol_memo *m = &r->fq_pol[p - r->policy];
	const struct an_cpu *seen = NULL;	/* its latest cpu_frequency */

	m->is_evaluated = false;
	m->is_busy = false;
	for (unsigned int i = 0; i < p->su.nr_cpus; i++) {
		const struct an_cpu *c = an_replay_cpu(r, p->su.cpu[i]);

		if (!c)
			continue;
		m->is_evaluated |= c->is_eval;
		m->is_busy |= c->is_known && c->curr_pid > 0 && !c->has_eval_events;
		if (c->freq_khz && (!seen || c->freq_since_ns >= seen->freq_since_ns))
			seen = c;
	}
	m->has_obs = seen != NULL;
	m->obs_khz = seen ? seen->freq_khz : 0;
	m->phase = r->phase;
}

/**
 * an_fq_touched_fill() - an_fq_policy_touched() of this observer call,
 * asked of the replay
 * @r: replay
 * @p: the policy
 * @ev: the event
 */
void an_fq_touched_fill(const struct an_replay *r, const struct an_freq_policy *p,
			const struct an_event *ev)
{
	struct an_fq_pol_memo *m = &r->fq_pol[p - r->policy];

	m->is_touched = policy_touched(r, p, ev);
	m->touched_phase = r->phase;
}

/**
 * an_fq_cpu_why_undecidable() - why checks cannot judge @cpu at @ts_ns
 * (an_fq_cpu_undecidable(), once an_replay_is_decidable() said no)
 * @r: replay
 * @cpu: CPU id
 * @ts_ns: the instant
 * @is_hiding: set when the doubt may hide a failure (lost events, integrity
 *	       window, a migration the capture did not record, undefined
 *	       model state); a CPU not known yet since the trace start hides
 *	       nothing
 * @why: static reason
 */
void an_fq_cpu_why_undecidable(const struct an_replay *r, int cpu, uint64_t ts_ns,
			       bool *is_hiding, const char **why)
{
	const struct an_cpu *c = an_replay_cpu(r, cpu);

	*is_hiding = true;
	if (!c) {
		*is_hiding = false;
		*why = "cpu outside the model";
	} else if (r->sys.is_undefined) {
		*why = "model state undefined (v3 seed)";
	} else if (ts_ns <= c->undecided_until_ns) {
		*why = "inside a trace integrity window";
	} else if (c->is_known && ts_ns <= c->unrecorded_until_ns) {
		*why = "a task moved to or from this cpu unrecorded (no sched_migrate_task)";
	} else if (c->is_lost) {
		*why = "runqueue forgotten after lost events";
	} else if (c->is_lost_doubt) {
		*why = "runqueue learnt again after lost events, its counting unknown";
	} else {
		*is_hiding = false;
		*why = "runqueue not known yet";
	}
}

/* The policy's tick in ns (MODEL_SU_DEFAULT_TICK_US when unknown). */
static uint64_t tick_ns_of(const struct an_freq_policy *p)
{
	return (uint64_t)(p->su.tick_us ? p->su.tick_us : MODEL_SU_DEFAULT_TICK_US) * NSEC_PER_USEC;
}

/**
 * an_fq_grace() - the parts of a policy's grace (freqstate.h)
 * @r: replay
 * @p: the policy
 * @g: rl_ns: rate_limit_us (S15; 1000 µs when unknown); tail_ns and tick_ns:
 *     tick_us (4000 µs when unknown)
 *
 * With --grace-us G the rate limit and tail parts are G minus one tick and
 * the tick (all of G when G is shorter than a tick).
 */
void an_fq_grace(const struct an_replay *r, const struct an_freq_policy *p,
		 struct an_fq_times *g)
{
	uint64_t total = an_replay_grace_ns(r, p);

	g->tick_ns = tick_ns_of(p);
	g->tail_ns = g->tick_ns < total ? g->tick_ns : total;
	g->rl_ns = total - g->tail_ns;
}

/**
 * an_fq_is_sugov() - whether @comm is schedutil's kthread "sugov:N" (S26)
 * @comm: task name
 *
 * Return: true or false.
 */
bool an_fq_is_sugov(const char *comm)
{
	return an_comm_has_prefix(comm, SUGOV_PREFIX);
}

/**
 * an_fq_sugov_policy() - the policy whose kthread "sugov:N" is @comm
 * @r: replay
 * @comm: task name
 *
 * Return: the policy of CPU N, or NULL (not a sugov kthread, or no policy).
 */
struct an_freq_policy *an_fq_sugov_policy(const struct an_replay *r, const char *comm)
{
	if (!r->nr_policies || !an_fq_is_sugov(comm))
		return NULL;
	return an_replay_cpu_policy(r, atoi(comm + sizeof(SUGOV_PREFIX) - 1));
}

/* A DL task other than sugov:N is queued on @cpu (S24: sugov never raises). */
static bool dl_runnable(const struct an_replay *r, int cpu)
{
	const struct model_node *head = &r->mcpu[cpu].queued;
	const struct model_node *n;

	if (!r->mcpu[cpu].nr_dl)
		return false;	/* sugov:N is a DL task of the replay */
	model_list_for_each(n, head) {
		const struct model_task *mt = model_container_of(n, struct model_task, rq_node);

		if (mt->cls == MODEL_CLASS_DL && !an_fq_is_sugov(an_task_of(mt)->comm))
			return true;
	}
	return false;
}

/**
 * an_fq_cpu_in_fill() - an_fq_cpu_in() of this observer call, asked of the
 * model (every byte set: the memos compare inputs byte for byte)
 * @r: replay (started; @cpu in the model)
 * @cpu: CPU id
 */
void an_fq_cpu_in_fill(const struct an_replay *r, int cpu)
{
	struct an_fq_in_memo *m = &r->fq_in[cpu];
	struct model_su_cpu_in *in = &m->in;

	memset(in, 0, sizeof(*in));
	in->rq_min = (unsigned int)model_rq_value(&r->sys, cpu, MODEL_UCLAMP_MIN);
	in->rq_max = (unsigned int)model_rq_value(&r->sys, cpu, MODEL_UCLAMP_MAX);
	in->is_rq_idle = model_rq_is_idle(&r->sys, cpu);
	in->is_uclamp_used = r->sys.is_uclamp_used;
	in->is_rt_runnable = r->mcpu[cpu].nr_rt > 0;
	in->is_dl_runnable = dl_runnable(r, cpu);
	m->phase = r->phase;
}

/**
 * an_fq_has_clamps() - whether the replay knows the clamps it feeds the model
 * @r: replay
 *
 * A request, a group or a system default was given to the model, or the
 * platform marker named the uclamp variant (then the defaults are known).
 * uclamp events are counted by the checks themselves.
 *
 * Return: true or false.
 */
bool an_fq_has_clamps(const struct an_replay *r)
{
	return r->nr_requests || r->plat.model != AN_MODEL_UNKNOWN;
}

/**
 * an_fq_may_hold() - whether schedutil's busy hold exists for the policy
 * (S18: single-CPU policies, NO_HZ kernels, 4.12+)
 * @r: replay
 * @p: the policy
 *
 * Return: true or false; whether it applies at an instant also depends on the
 * CPU not having been idle (and on MS6, 5.18+ mainline).
 */
bool an_fq_may_hold(const struct an_replay *r, const struct an_freq_policy *p)
{
	(void)r;
	return p->su.nr_cpus == 1 && p->su.feat.has_busy_hold && p->su.is_nohz;
}

/*
 * Follow @p's CPU in and out of idle for its stretch @s; true while an idle
 * period S18 has counted for certain goes on or when it has just ended
 * (an_fq_stretch_update()). With cpu_idle events, one in which the idle
 * loop went round again two ticks into it (an_cpu.idle_counted_seq); an
 * emulated CPU can sleep through its tick. Without, one spanning two ticks.
 * An unknown CPU is no idle.
 */
static bool stretch_counted(struct an_fq_stretch *s, const struct an_replay *r,
			    const struct an_freq_policy *p)
{
	uint64_t now = r->step.ts_ns;
	const struct an_cpu *c = &r->cpu[p->su.cpu[0]];
	bool is_counted;

	if (c->has_idle_events)
		is_counted = s->is_idle && s->idle_seq && c->idle_counted_seq == s->idle_seq;
	else
		is_counted = s->is_idle && now - s->idle_ns >= 2 * tick_ns_of(p);
	if (s->is_idle != (c->curr_pid == 0)) {
		s->is_idle = c->curr_pid == 0;
		s->idle_ns = now;
		s->idle_seq = c->idle_seq;
	}
	return is_counted;
}

/**
 * an_fq_stretch_update() - extend the busy stretch of @p by @khz (S18)
 * @s: the policy's stretch
 * @r: replay
 * @p: the policy
 * @khz: the frequency now (ceiling or prediction)
 *
 * The kernel's "busy" is not "no switch to idle" (schedutil.md S18) but "the
 * NO_HZ idle_calls counter of the CPU did not move since the last
 * evaluation" (sugov_cpu_is_busy()). The idle loop counts only when it tries
 * to stop the tick (__tick_nohz_idle_stop_tick()), and it may not: with a
 * cpuidle governor that predicts a short idle (4.17+), with a wakeup pending
 * (can_stop_idle_tick()), and without a cpuidle driver on kernels whose
 * idle loop stops the tick only once a tick has fired in idle
 * (idle_call_stop_or_retain_tick(); Debian 6.1.192 has it). The trace shows
 * none of this, so an idle period ends the stretch only when it must have
 * been counted (stretch_counted(): a tick fired in it and the loop went
 * round again); another may or may not, and the hold stays possible, in
 * idle too (the kernel evaluates from the tick and blocked-load updates
 * there).
 *
 * A stretch that opens for another reason than such an idle (trace start,
 * frequency not computable before) may have begun before the trace showed
 * it: the kernel may hold what it last set, the observed frequency.
 *
 * Return: true with s->max_khz the stretch's highest frequency, @khz
 * included; false (and the stretch ends) when the busy hold cannot apply:
 * the policy may not hold (an_fq_may_hold()) or its CPU idled long enough.
 */
bool an_fq_stretch_update(struct an_fq_stretch *s, const struct an_replay *r,
			  const struct an_freq_policy *p, unsigned int khz)
{
	unsigned int obs;

	if (!an_fq_may_hold(r, p)) {
		an_fq_stretch_end(s, r, p);
		return false;
	}
	if (stretch_counted(s, r, p)) {
		s->is_open = false;	/* the next evaluation may lower */
		s->is_fresh = true;
	}
	if (s->is_idle && !s->is_open)
		return false;
	if (!s->is_open) {
		s->max_khz = khz;
		s->since_ns = r->step.ts_ns;
		if (!s->is_fresh && an_fq_policy_observed(r, p, &obs) && obs > khz)
			s->max_khz = obs;
		s->is_fresh = false;
	} else if (khz > s->max_khz) {
		s->max_khz = khz;
	}
	s->is_open = true;
	return true;
}

/**
 * an_fq_stretch_limits() - the limits of @p changed (S27): from 5.3 the next
 * evaluation is a forced update (S17) that the busy hold (S18) skips, so
 * what the kernel held before cannot be held past it: the stretch starts
 * afresh from the next judgement
 * @s: the policy's stretch
 * @p: the policy
 */
void an_fq_stretch_limits(struct an_fq_stretch *s, const struct an_freq_policy *p)
{
	if (!p->su.feat.is_hold_after_forced_check && !p->su.feat.is_hold_decided_late)
		return;
	s->is_open = false;
	s->is_fresh = true;
}

/**
 * an_fq_stretch_end() - the busy hold cannot be followed now (no prediction
 * or ceiling, or no hold on @p): a later stretch starts from what the
 * kernel last set, unless its CPU is counted idle in between
 * @s: the policy's stretch
 * @r: replay
 * @p: the policy
 */
void an_fq_stretch_end(struct an_fq_stretch *s, const struct an_replay *r,
		       const struct an_freq_policy *p)
{
	s->is_open = false;
	if (stretch_counted(s, r, p))
		s->is_fresh = true;
	else if (!s->is_idle)
		s->is_fresh = false;	/* it may run and set what it likes */
}

/**
 * an_fq_obs_lost() - an_fq_obs_doubt() for an undecidable judgement @j
 * @r: replay
 * @p: the policy
 * @j: undecidable for want of an observed frequency
 *
 * Lost events may have hidden a cpu_frequency of @p (events.md §4: the
 * window is UNDECIDED, and it may hide a failure).
 */
void an_fq_obs_lost(const struct an_replay *r, const struct an_freq_policy *p,
		    struct an_fq_judgement *j)
{
	for (unsigned int i = 0; i < p->su.nr_cpus; i++) {
		const struct an_cpu *c = an_replay_cpu(r, p->su.cpu[i]);

		if (c && c->is_freq_lost) {
			j->why = "frequency unknown after lost events";
			j->is_hiding = true;
			return;
		}
	}
}

/* an_fq_util_sample() but the RT part */
static bool util_cfs_of(const struct an_replay *r, const struct an_event *ev, int *cpu,
			unsigned int *util_cfs)
{
	int util_bit;

	switch (ev->type) {
	case AN_EV_SCHED_PELT_CFS:
		if (strcmp(ev->pelt_cfs.path, "/"))
			return false;
		*cpu = ev->pelt_cfs.cpu;
		*util_cfs = an_signals_util_cfs(r, *cpu, ev->pelt_cfs.util);
		return true;
	case AN_EV_SCHED_UTIL_EST_CFS:
		util_bit = an_alias_field_index(AN_EV_SCHED_UTIL_EST_CFS, "util", 4);
		if (strcmp(ev->util_est.path, "/") || util_bit < 0 ||
		    !(ev->present & (UINT32_C(1) << util_bit)))
			return false;
		*cpu = ev->util_est.cpu;
		*util_cfs = ev->util_est.util;
		if (an_signals_has_util_est(r) && ev->util_est.enqueued > *util_cfs)
			*util_cfs = ev->util_est.enqueued;
		return true;
	case AN_EV_UCLAMP_UTIL_CFS:
		*cpu = ev->util_cfs.cpu;
		*util_cfs = an_signals_util_cfs(r, *cpu, ev->util_cfs.util_avg);
		return true;
	case AN_EV_SCHED_UTIL:
		*cpu = ev->sched_util.cpu;
		*util_cfs = ev->sched_util.util_cfs;
		return true;
	default:
		return false;
	}
}

/**
 * an_fq_util_sample() - the utilization a util-signal event reports
 * @r: replay (its root util_est, signals.h)
 * @ev: any event
 * @cpu: its CPU
 * @util_cfs: the root CFS utilization
 * @util_rt: the RT utilization: schedutil_util's own, else the CPU's last
 *	     one (an_cpu.util_rt, 0 before the trace shows one)
 *
 * The util signals of events.md §4 (freq_prediction's "needs"):
 * sched_pelt_cfs of the root group "/", uclamp_util_cfs (its util_avg) and
 * schedutil_util; and sched_util_est_cfs of "/" with its util. A root
 * util_avg is raised to the CPU's last util_est where the release uses it
 * (an_signals_util_cfs()); schedutil_util is schedutil's own sum. The
 * others carry no RT utilization, which schedutil adds (S5-S7): a PELT
 * update of the CFS root between two evaluations keeps the last one shown.
 *
 * Return: true when @ev is one of them.
 */
bool an_fq_util_sample(const struct an_replay *r, const struct an_event *ev, int *cpu,
		       unsigned int *util_cfs, unsigned int *util_rt)
{
	bool is_sample = util_cfs_of(r, ev, cpu, util_cfs);

	if (is_sample && ev->type == AN_EV_SCHED_UTIL)
		*util_rt = ev->sched_util.util_rt;
	else if (is_sample && an_replay_cpu(r, *cpu))
		*util_rt = r->cpu[*cpu].util_rt;
	else
		*util_rt = 0;
	return is_sample;
}

/**
 * an_fq_coupling_rule() - the rule that couples rq clamps to frequency
 * @r: replay
 * @p: the policy
 *
 * Return: "VS1" (v3), "MS1" (mainline 5.3–6.7), "MS5" (6.8+), "S10" when the
 * kernel has no uclamp (bounds come from the policy limits alone).
 */
const char *an_fq_coupling_rule(const struct an_replay *r, const struct an_freq_policy *p)
{
	if (!p->su.feat.has_uclamp)
		return "S10";
	if (r->variant == MODEL_V3)
		return "VS1";
	return p->su.feat.util_form == MODEL_SU_UTIL_PERF ? "MS5" : "MS1";
}

/**
 * an_fq_set_input() - whether a frequency check had its inputs (events.md §4
 * "needs"), with the reason when not; called by its finish
 * @r: replay (finished)
 * @res: the results holding the check's counters
 * @check: the check
 * @has_signal: its own input was seen (clamps, or a util signal)
 * @no_signal: the reason when @has_signal is false ("no input: ...")
 *
 * Every check needs a cpufreq policy with an OPP table, a cpu_frequency of
 * it and sched_switch events (runqueues). An unknown rate limit is noted.
 */
void an_fq_set_input(struct an_replay *r, struct an_results *res, enum an_check_id check,
		     bool has_signal, const char *no_signal)
{
	struct an_check_stats *s = &res->stats[check];
	bool has_policy = false, has_freq = false;

	for (unsigned int i = 0; i < r->nr_policies; i++) {
		unsigned int khz;

		if (!an_fq_policy_usable(&r->policy[i]))
			continue;
		has_policy = true;
		has_freq |= an_fq_policy_observed(r, &r->policy[i], &khz);
		/* seen, then forgotten at lost events */
		for (unsigned int c = 0; c < r->policy[i].su.nr_cpus; c++) {
			const struct an_cpu *cpu = an_replay_cpu(r, r->policy[i].su.cpu[c]);

			has_freq |= cpu && cpu->is_freq_lost;
		}
		if (!r->policy[i].has_rate_limit)
			an_replay_note(r, "rate limit of cpufreq policy %d unknown: %u us assumed "
				       "for the grace", r->policy[i].id,
				       MODEL_SU_DEFAULT_RATE_LIMIT_US);
	}
	if (has_policy && !r->plat.tick_us)
		an_replay_note(r, "scheduler tick unknown: %u us assumed for the grace",
			       MODEL_SU_DEFAULT_TICK_US);
	s->has_input = has_policy && has_freq && r->nr_switches && has_signal;
	if (!has_policy)
		s->reason = "no input: no cpufreq policy with an OPP table (cpu markers or --platform)";
	else if (!has_freq)
		s->reason = "no input: needs cpu_frequency events";
	else if (!r->nr_switches)
		s->reason = "no input: needs sched_switch events";
	else if (!has_signal)
		s->reason = no_signal;
}
