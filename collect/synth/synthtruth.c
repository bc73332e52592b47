// SPDX-License-Identifier: MIT
/*
 * collect/synth/synthtruth.c - where a fault of `ucval synth` becomes visible: the
 * truth file, one line per window, "check_id cpu ts_start_ns ts_end_ns rule"
 * (cpu -1 when the check has no CPU key), and the lost-events fault.
 *
 * Observation faults (rq_clamp, task_effective, request_result,
 * groups_exhausted) are visible exactly where an observation differs from the
 * model, up to the next one that agrees. Frequency faults are visible where
 * the kernel's frequency F is beyond the model's expectation E (a floor, a
 * ceiling, a prediction), but a checker gives the kernel a grace period
 * after E changes (events.md §4): a window is one a checker must report only
 * when F stays beyond every E of the last grace period at some instant while
 * the policy is busy (its tick evaluates). Other windows get a sixth word,
 * "may": a checker may report them or not. No window is kept per event: open
 * windows are per CPU, policy or task.
 */
#include <errno.h>
#include <limits.h>
#include <string.h>

#include "collect/synth/synthmodel.h"
#include "collect/synth/synthout.h"
#include "collect/synth/synthtruth.h"
#include "model/schedutil.h"

/* Longest run of events the lost-events fault drops, and the gap between two
 * losses (each the events of one CPU, reported by its next page). */
#define LOSS_MIN_DROP		2
#define LOSS_MAX_DROP		12
#define LOSS_GAP_MIN_US		40000
#define LOSS_GAP_MAX_US		160000

/**
 * sy_truth_window() - write one truth window
 * @s: generator
 * @check: check id (events.md §4)
 * @cpu: key CPU, -1 none
 * @start_ns: first instant the fault shows
 * @end_ns: last one
 * @rule: the spec rule a checker cites
 * @is_may: a checker may miss it (shorter than its grace)
 */
void sy_truth_window(struct synth *s, const char *check, int cpu, uint64_t start_ns,
		     uint64_t end_ns, const char *rule, bool is_may)
{
	if (is_may)
		s->st.nr_truth_may++;
	else
		s->st.nr_truth++;
	if (!s->truth)
		return;
	if (fprintf(s->truth, "%s %d %llu %llu %s%s\n", check, cpu, (unsigned long long)start_ns,
		    (unsigned long long)end_ns, rule, is_may ? " may" : "") < 0)
		s->err = -EIO;
}

static bool is_v3(const struct synth *s)
{
	return s->o->variant == MODEL_V3;
}

/**
 * sy_truth_rq() - a uclamp_util_cfs of @cpu was written at @ts
 * @s: generator
 * @cpu: its CPU
 * @ts: its time
 * @is_differ: the kernel's rq clamps in it differ from the model's
 */
void sy_truth_rq(struct synth *s, unsigned int cpu, uint64_t ts, bool is_differ)
{
	struct sy_cpu *c = &s->cpu[cpu];
	const char *rule;

	if (!c->is_known)
		return;		/* a checker cannot judge a CPU it does not know yet */
	if (is_differ && !c->has_rq_win) {
		c->has_rq_win = true;
		c->rq_win_ns = ts;
	} else if (!is_differ && c->has_rq_win) {
		if (s->o->fault == COL_SYNTH_FAULT_RQ_MAX_STALE)
			rule = is_v3(s) ? "VR5" : "MR4";
		else
			rule = is_v3(s) ? "VR11" : "MR4";
		sy_truth_window(s, "rq_clamp", (int)cpu, c->rq_win_ns, ts, rule, false);
		c->has_rq_win = false;
	}
}

/**
 * sy_truth_request() - a setattr marker for @t was written at @ts
 * @s: generator
 * @t: the target task
 * @ts: its time
 * @kernel_ret: what the synthetic kernel answered
 * @model_ret: what the model answered
 *
 * request_result: from a disagreement to the next agreement for that pid;
 * groups_exhausted (v3): from a success the model refuses with ENOSPC to
 * the next request of that pid that is not one.
 */
void sy_truth_request(struct synth *s, struct sy_task *t, uint64_t ts, int kernel_ret,
		      int model_ret)
{
	bool is_agree = (kernel_ret >= 0 && model_ret >= 0) || kernel_ret == model_ret;
	bool is_overflow = kernel_ret >= 0 && model_ret == -ENOSPC;

	if (!is_agree && !t->has_req_win) {
		t->has_req_win = true;
		t->req_win_ns = ts;
	} else if (is_agree && t->has_req_win) {
		sy_truth_window(s, "request_result", -1, t->req_win_ns, ts,
				is_v3(s) ? (s->o->fault == COL_SYNTH_FAULT_GROUPS_OVERFLOW ?
					    "VG7" : "VA4") : "MA2", false);
		t->has_req_win = false;
	}
	if (!is_v3(s))
		return;
	if (is_overflow && !t->has_grp_win) {
		t->has_grp_win = true;
		t->grp_win_ns = ts;
	} else if (!is_overflow && t->has_grp_win) {
		sy_truth_window(s, "groups_exhausted", -1, t->grp_win_ns, ts, "VG7", false);
		t->has_grp_win = false;
	}
}

/**
 * sy_truth_eff() - a uclamp_task_eff of @t for clamp @id was written at @ts
 * @s: generator
 * @t: the task
 * @id: clamp id
 * @ts: its time
 * @is_differ: the effective value in it differs from the model's
 */
void sy_truth_eff(struct synth *s, struct sy_task *t, int id, uint64_t ts, bool is_differ)
{
	if (is_differ && !t->has_eff_win[id]) {
		t->has_eff_win[id] = true;
		t->eff_win_ns[id] = ts;
	} else if (!is_differ && t->has_eff_win[id]) {
		sy_truth_window(s, "task_effective", -1, t->eff_win_ns[id], ts,
				is_v3(s) ? "VT1" : "MT1", false);
		t->has_eff_win[id] = false;
	}
}

/**
 * sy_truth_task_gone() - @t exited: its windows end (a checker keeps them
 * open to the trace end, which overlaps)
 * @s: generator
 * @t: the task
 * @ts: its exit
 */
void sy_truth_task_gone(struct synth *s, struct sy_task *t, uint64_t ts)
{
	if (t->has_req_win)
		sy_truth_window(s, "request_result", -1, t->req_win_ns, ts,
				is_v3(s) ? "VA4" : "MA2", false);
	if (t->has_grp_win)
		sy_truth_window(s, "groups_exhausted", -1, t->grp_win_ns, ts, "VG7", false);
	for (int id = 0; id < MODEL_UCLAMP_CNT; id++)
		if (t->has_eff_win[id])
			sy_truth_window(s, "task_effective", -1, t->eff_win_ns[id], ts,
					is_v3(s) ? "VT1" : "MT1", false);
	t->has_req_win = t->has_grp_win = false;
	t->has_eff_win[0] = t->has_eff_win[1] = false;
}

static void doubt_end(struct synth *s, unsigned int cpu, uint64_t ts);

/* ---- frequency faults ---- */

static bool is_freq_fault(const struct synth *s)
{
	return s->o->fault == COL_SYNTH_FAULT_SUGOV_IGNORES_MIN ||
	       s->o->fault == COL_SYNTH_FAULT_SUGOV_IGNORES_MAX;
}

static void fkey_init(struct sy_fkey *k, bool is_upper, const char *check, const char *rule,
		      int cpu)
{
	memset(k, 0, sizeof(*k));
	k->is_upper = is_upper;
	k->is_tracked = true;
	k->check = check;
	k->rule = rule;
	k->cpu = cpu;
}

/* Does @f break bound @e (a floor, or a ceiling when upper)? */
static bool beyond(const struct sy_fkey *k, unsigned int f, unsigned int e)
{
	return k->is_upper ? f > e : f < e;
}

/* Is @a a stricter bound than @b? */
static bool stricter(const struct sy_fkey *k, unsigned int a, unsigned int b)
{
	return k->is_upper ? a < b : a > b;
}

/* The most lenient expectation still within a grace period. */
static unsigned int loosest(const struct sy_fkey *k)
{
	return k->nr ? k->pend[0].khz : k->cur;
}

/*
 * Bring @k to @ts with @e its new expectation and @f the kernel's frequency.
 * @sure_from: from this instant on the policy has been busy, known to a
 * checker, long enough that an expectation's grace ends within @grace_ns
 * (SY_NEVER: not so); @old_sure_from: the same before this update.
 */
static void fkey_update(struct synth *s, struct sy_fkey *k, uint64_t ts, unsigned int e,
			unsigned int f, uint64_t old_sure_from, uint64_t sure_from,
			uint64_t grace_ns)
{
	/* time passed with the old state: expectations ran out of grace */
	while (k->nr && k->pend[0].expire_ns <= ts) {
		uint64_t at = k->pend[0].expire_ns;

		k->nr--;
		memmove(&k->pend[0], &k->pend[1], k->nr * sizeof(k->pend[0]));
		if (k->is_div && at >= old_sure_from && beyond(k, k->last_f, loosest(k))) {
			k->is_certain = true;
			k->is_cert_by_freq = false;
		}
	}
	if (!k->has_cur) {
		k->cur = e;
		k->has_cur = true;
	} else if (e != k->cur) {
		if (stricter(k, e, k->cur) && k->nr < SY_FKEY_MAX_PEND)
			k->pend[k->nr++] = (typeof(k->pend[0])){ k->cur, ts + grace_ns };
		while (k->nr && !stricter(k, e, k->pend[k->nr - 1].khz))
			k->nr--;
		k->cur = e;
	}
	if (beyond(k, f, e) && !k->is_div) {
		k->is_div = true;
		k->div_start_ns = ts;
		k->is_certain = false;
		k->is_cert_by_freq = false;
		k->is_div_by_freq = f != k->last_f;
	} else if (!beyond(k, f, e) && k->is_div) {
		/*
		 * A checker may take a short disagreement begun by the kernel's
		 * move for a reaction to an enqueue or dequeue the trace shows
		 * only after it (MODEL_SU_EARLY_NS, measured from other
		 * events than these keys are updated at: twice that here);
		 * the same when the move made a disagreement certain that was
		 * within its grace until then.
		 */
		bool is_early = (k->is_div_by_freq &&
				 ts - k->div_start_ns <= 2 * MODEL_SU_EARLY_NS) ||
				(k->is_cert_by_freq && ts - k->cert_ns <= 2 * MODEL_SU_EARLY_NS);

		k->is_div = false;
		sy_truth_window(s, k->check, k->cpu, k->div_start_ns, ts, k->rule,
				!k->is_certain || is_early);
	}
	if (k->is_div && ts >= sure_from && beyond(k, f, loosest(k))) {
		if (!k->is_certain) {
			k->is_cert_by_freq = f != k->last_f;
			k->cert_ns = ts;
		}
		k->is_certain = true;
	}
	k->last_f = f;
}

/**
 * sy_truth_freq_init() - the keys of the frequency faults
 * @s: generator
 */
void sy_truth_freq_init(struct synth *s)
{
	const char *coupling = is_v3(s) ? "VS1" : "MS1";
	bool is_min = s->o->fault == COL_SYNTH_FAULT_SUGOV_IGNORES_MIN;

	if (!is_freq_fault(s))
		return;
	for (unsigned int pi = 0; pi < s->o->nr_policies; pi++) {
		struct sy_policy *p = &s->pol[pi];

		fkey_init(&p->pred, !is_min, "freq_prediction", "S10", (int)p->first);
		if (!is_min)
			fkey_init(&p->ceil, true, "freq_above_max_clamp", coupling, (int)p->first);
		for (unsigned int i = 0; is_min && i < p->nr; i++)
			fkey_init(&s->cpu[p->first + i].floor, false, "freq_below_min_clamp",
				  coupling, (int)(p->first + i));
	}
}

/**
 * sy_truth_freq() - bring the frequency keys to @ts (after each step and
 * each frequency change)
 * @s: generator
 * @ts: the time of the last event written
 *
 * On a one-CPU policy schedutil may hold a higher frequency while the CPU
 * stays busy (S18), which a checker accepts: there a ceiling window is
 * never one a checker must report.
 */
void sy_truth_freq(struct synth *s, uint64_t ts)
{
	if (!is_freq_fault(s) || !s->st.nr_events)
		return;
	for (unsigned int pi = 0; pi < s->o->nr_policies; pi++) {
		struct sy_policy *p = &s->pol[pi];
		unsigned int pred, ceil, floor[MODEL_SU_MAX_CPUS];
		uint64_t old_sure = SY_NEVER, sure = SY_NEVER;
		bool is_busy = false, is_known = true;

		for (unsigned int i = 0; i < p->nr; i++) {
			is_busy |= s->cpu[p->first + i].curr != NULL;
			is_known &= s->cpu[p->first + i].is_known;
		}
		if (p->is_busy && is_known)
			old_sure = p->busy_since_ns + p->grace_ns;
		if (is_busy && !p->is_busy)
			p->busy_since_ns = ts;
		p->is_busy = is_busy;
		if (is_busy && is_known)
			sure = p->busy_since_ns + p->grace_ns;
		sy_model_expected(s, p, &pred, &ceil, floor);
		if (s->o->fault == COL_SYNTH_FAULT_SUGOV_IGNORES_MAX && p->nr == 1)
			old_sure = sure = SY_NEVER;
		fkey_update(s, &p->pred, ts, pred, p->cur_khz, old_sure, sure, p->grace_ns);
		if (s->o->fault == COL_SYNTH_FAULT_SUGOV_IGNORES_MAX) {
			fkey_update(s, &p->ceil, ts, ceil, p->cur_khz, old_sure, sure, p->grace_ns);
			continue;
		}
		for (unsigned int i = 0; i < p->nr; i++)
			fkey_update(s, &s->cpu[p->first + i].floor, ts, floor[i], p->cur_khz,
				    old_sure, sure, p->grace_ns);
	}
}

static void fkey_finish(struct synth *s, struct sy_fkey *k, uint64_t end_ns)
{
	if (k->is_tracked && k->is_div)
		sy_truth_window(s, k->check, k->cpu, k->div_start_ns, end_ns, k->rule,
				!k->is_certain);
	k->is_div = false;
}

/**
 * sy_truth_finish() - the trace ended: write the windows still open
 * @s: generator
 */
void sy_truth_finish(struct synth *s)
{
	uint64_t end = s->st.t_end_ns;

	sy_truth_freq(s, end);
	for (unsigned int i = 0; i < s->nr_tasks; i++)
		if (s->task[i].state != SY_FREE)
			sy_truth_task_gone(s, &s->task[i], end);
	for (unsigned int c = 0; c < s->o->nr_cpus; c++) {
		struct sy_cpu *cpu = &s->cpu[c];

		if (cpu->is_doubt)
			doubt_end(s, c, end);
		if (cpu->has_rq_win)
			sy_truth_rq(s, c, end, false);
		fkey_finish(s, &cpu->floor, end);
	}
	for (unsigned int p = 0; p < s->o->nr_policies; p++) {
		fkey_finish(s, &s->pol[p].pred, end);
		fkey_finish(s, &s->pol[p].ceil, end);
		if (s->pol[p].is_stale) {
			s->loss_cpu = -1;
			sy_loss_freq_written(s, &s->pol[p], end);
		}
	}
}

/* ---- lost events ---- */

/**
 * sy_loss_arm() - start dropping events of one CPU (fault lost-events)
 * @s: generator
 *
 * CPU 0 records the markers, so losses hit the others when there are.
 */
void sy_loss_arm(struct synth *s)
{
	unsigned int n = s->o->nr_cpus;

	if (s->loss_cpu < 0) {
		s->loss_cpu = n > 1 ? (int)sy_rng_range(&s->frng, 1, n - 1) : 0;
		s->loss_min = (unsigned int)sy_rng_range(&s->frng, LOSS_MIN_DROP, LOSS_MAX_DROP);
		s->loss_dropped = 0;
	}
	sy_timer_set(&s->timers, sy_t_global(s, SY_T_LOSS),
		     s->now_ns + sy_rng_range(&s->frng, LOSS_GAP_MIN_US, LOSS_GAP_MAX_US) *
				 SY_NS_PER_US);
}

/* Events whose loss would hide what a checker cannot learn again later. */
static bool is_droppable(enum col_so_type type)
{
	return type != COL_SO_PRINT && type != COL_SO_FORK && type != COL_SO_EXIT &&
	       type != COL_SO_FREE;
}

/*
 * Whether a replay that forgets every runqueue now can know them again: it
 * learns a CPU's runqueue at its next switch from the task switched out and
 * the one switched in, and enqueues them afresh. That holds when no task
 * waits anywhere (a waiting task would be learnt in another order than the
 * kernel counted it, and a mainline bucket keeps the largest value it held
 * while busy, MB2), and when every queued task is counted with its current
 * effective clamps and the rq values are their maximum.
 */
static bool is_learnable(const struct synth *s)
{
	for (unsigned int c = 0; c < s->o->nr_cpus; c++)
		if (s->cpu[c].nr_wait)
			return false;
	for (unsigned int c = 0; c < s->o->nr_cpus; c++) {
		int top[MODEL_UCLAMP_CNT] = { -1, -1 };
		const struct model_node *n;

		model_list_for_each(n, &s->mcpu[c].queued) {
			const struct model_task *mt =
				model_container_of(n, struct model_task, rq_node);

			for (int id = 0; id < MODEL_UCLAMP_CNT; id++) {
				int eff = model_task_eff(&s->sys, mt, (enum model_clamp_id)id, NULL);

				/* counted with an older value (MT3): unknowable again */
				if (mt->acc_value[id] != eff)
					return false;
				if (eff > top[id])
					top[id] = eff;
			}
		}
		/* a bucket keeps the largest value it held while busy (MB2) */
		for (int id = 0; id < MODEL_UCLAMP_CNT && top[0] >= 0; id++)
			if (model_rq_value(&s->sys, (int)c, (enum model_clamp_id)id) != top[id])
				return false;
	}
	return true;
}

/**
 * sy_loss_freq_written() - every cpu_frequency of a change of @p was written
 * @s: generator
 * @p: the policy
 * @ts: time of the first one
 *
 * A change of @p lost before shows in the trace only now: a checker that
 * trusts the frequency the trace shows sees it stale from the lost change
 * to this one, and this change closer than the rate limit to the lost one.
 * Those are "may" windows of rule EV-LOST for the three frequency checks
 * (events.md §4 wants them UNDECIDED).
 */
void sy_loss_freq_written(struct synth *s, struct sy_policy *p, uint64_t ts)
{
	static const char *const checks[] = {
		"freq_below_min_clamp", "freq_above_max_clamp", "freq_prediction",
	};
	uint64_t end = ts + p->su.rate_limit_us * SY_NS_PER_US;

	if (!p->is_stale || s->loss_cpu >= 0)
		return;
	for (unsigned int i = 0; i < sizeof(checks) / sizeof(checks[0]); i++)
		sy_truth_window(s, checks[i], -1, p->stale_ns, end, "EV-LOST", true);
	p->is_stale = false;
}

static void doubt_end(struct synth *s, unsigned int cpu, uint64_t ts)
{
	static const char *const checks[] = {
		"freq_below_min_clamp", "freq_above_max_clamp", "freq_prediction",
	};
	struct sy_cpu *c = &s->cpu[cpu];

	sy_truth_window(s, "rq_clamp", (int)cpu, c->doubt_ns, ts, "EV-LOST", true);
	for (unsigned int i = 0; i < sizeof(checks) / sizeof(checks[0]); i++)
		sy_truth_window(s, checks[i], -1, c->doubt_ns, ts, "EV-LOST", true);
	c->is_doubt = false;
}

/**
 * sy_loss_enqueue() - a task is about to be queued on @cpu: is a runqueue
 * forgotten at a loss known again?
 * @s: generator
 * @cpu: the CPU
 *
 * Only when the task is queued on an empty runqueue: the rq starts afresh
 * (MR3, VR11) for the kernel and a replay alike. Before, a replay that
 * learnt the tasks at their switches may count them otherwise than the
 * kernel did: in another order, with the values of an older enqueue (MT3),
 * without a bucket's largest value (MB2), or retain another value when the
 * CPU idles (VR11, MR4). Those are "may" windows of rule EV-LOST for
 * rq_clamp and the frequency checks (events.md §4 wants them UNDECIDED).
 */
void sy_loss_enqueue(struct synth *s, unsigned int cpu)
{
	struct sy_cpu *c = &s->cpu[cpu];

	if (c->is_doubt && s->loss_cpu < 0 && s->st.nr_events && !s->mcpu[cpu].nr_queued)
		doubt_end(s, cpu, s->last_ns);
}

/**
 * sy_loss_filter() - whether the lost-events fault drops @ev
 * @s: generator
 * @ev: the event about to be written at @ts
 * @ts: its time
 *
 * The CPU drops its events until it has dropped a few and the runqueues can
 * be learnt again; its next event is then preceded by the loss record. An
 * event that must not be lost (a marker, fork, exit or free) is written
 * after a loss record too, and when the runqueues cannot be learnt yet the
 * CPU goes on dropping after it: a second loss ends that.
 *
 * Return: true to drop it.
 */
bool sy_loss_filter(struct synth *s, const struct col_so_ev *ev, uint64_t ts)
{
	struct sy_cpu *c;

	if (s->loss_cpu < 0 || ev->cpu != (unsigned int)s->loss_cpu)
		return false;
	if (is_droppable(ev->type) && (s->loss_dropped < s->loss_min || !is_learnable(s))) {
		s->loss_dropped++;
		if (ev->type == COL_SO_FREQ) {
			struct sy_policy *p = &s->pol[s->cpu[ev->freq.cpu_id].policy];

			if (!p->is_stale)
				p->stale_ns = ts;
			p->is_stale = true;
		}
		return true;
	}
	if (!s->loss_dropped)
		return false;
	c = &s->cpu[ev->cpu];
	col_synthout_lost(s->out, ev->cpu, s->loss_dropped);
	for (unsigned int i = 0; i < s->o->nr_cpus; i++) {
		struct sy_cpu *d = &s->cpu[i];

		if (!d->is_doubt) {
			d->is_doubt = true;
			d->doubt_ns = ts;
		}
	}
	sy_truth_window(s, "trace_integrity", (int)ev->cpu, c->last_ts ? c->last_ts : ts, ts,
			"EV-LOST", false);
	s->loss_dropped = 0;
	if (!is_droppable(ev->type) && !is_learnable(s))
		s->loss_min = 1;	/* go on: the next loss record restores */
	else
		s->loss_cpu = -1;
	return false;
}
