// SPDX-License-Identifier: MIT
/*
 * analyze/checks/check_trace_integrity.c - check trace_integrity (events.md §4).
 *
 * The replay finds the problems (sched.c, an_sched_inspect()) because it
 * must react to them: lost events make it forget every runqueue, a timestamp
 * going back makes its CPU UNDECIDED up to the latest earlier timestamp. This
 * check only reports each problem as one FAIL window:
 *
 *  EV-LOST   the trace lost events on a CPU: from that CPU's previous event
 *	      to the event after the loss; expected 0, observed the count
 *	      (0 when the trace does not say)
 *  EV-TIME   an event older than an earlier one of the same CPU stream:
 *	      window [its ts, the latest ts], expected the latest ts,
 *	      observed its ts
 *  EV-SWITCH sched_switch from a task that is not the one the replay has
 *	      running there: window from the switch that made the replay's task
 *	      run to this switch, pid = prev_pid, expected the replay's pid,
 *	      observed prev_pid (the replay then forgets every runqueue)
 *  EV-TASK   a task shown on one CPU (switch, wakeup target, migrate
 *	      origin) while the replay holds it queued on another: window at
 *	      that instant, expected the replay's CPU, observed the event's.
 *	      Not when the capture records no sched_migrate_task and the task
 *	      was only queued there (not running): that is a migration the
 *	      capture did not record (AN_INTEG_UNRECORDED), no failure: an
 *	      UNDECIDED window from the task's last event on the former CPU
 *	      to this one, which hides nothing (the other checks say where
 *	      they could not judge because of it)
 *  EV-LOST   also: a trace.dat's buffer statistics count lost events that
 *	      none of the CPU's pages places in time (struct an_ev_lost):
 *	      window from the first event to the end of the trace, observed
 *	      the count; the replay keeps every CPU UNDECIDED throughout
 *
 * Whether a capture records sched_migrate_task is known for certain only
 * when its own list of events lacks it (a trace.dat's formats, a text's
 * "# enabled events:"); otherwise from the events seen: one seen, it does.
 * A move seen before the first sched_migrate_task is held (struct
 * integ_check.held) until one comes, then it is the EV-TASK FAIL it would
 * have been, or until the end, then it is UNDECIDED. MAX_HELD moves without
 * a single sched_migrate_task settle it: the held ones and the next are
 * UNDECIDED at once, memory stays bounded.
 *
 * n_checked counts the events examined; the check has input as soon as the
 * trace has one event.
 *
 * events.md §5 wants one row per contiguous window of disagreement: an
 * EV-SWITCH window that starts where the CPU's previous one ended, with the
 * same pid and values, extends it (a kernel whose trace never shows a CPU's
 * switches out of idle gives one window, not one per switch; seen on this
 * project's build machine, make bench).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "analyze/checks/checks.h"
#include "lib/malloc.h"
#include "lib/vec.h"

#define MAX_HELD	256

struct integ_check {
	struct an_results *res;
	struct an_win_track *sw;	/* per CPU: the open EV-SWITCH window */
	unsigned int nr_cpus;
	struct an_win_track *all;	/* EV-LOST windows open to the end */
	size_t nr_all, alloc_all;
	struct an_integrity_issue *held;	/* unrecorded moves not judged yet */
	size_t nr_held, alloc_held;
	bool is_settled;		/* MAX_HELD moves: sched_migrate_task not recorded */
};

static const char *const rules[] = {
	[AN_INTEG_LOST] = "EV-LOST",
	[AN_INTEG_TIME] = "EV-TIME",
	[AN_INTEG_SWITCH] = "EV-SWITCH",
	[AN_INTEG_ELSEWHERE] = "EV-TASK",
	[AN_INTEG_UNPLACED] = "EV-LOST",
	[AN_INTEG_UNRECORDED] = "EV-TASK",
	[AN_INTEG_BEYOND] = "EV-LOST",
};

static const char *const messages[] = {
	[AN_INTEG_LOST] = "the trace lost events on this cpu",
	[AN_INTEG_TIME] = "timestamp before an earlier event of this cpu",
	[AN_INTEG_SWITCH] = "switch from a task the replay does not have running here",
	[AN_INTEG_ELSEWHERE] = "task shown on a cpu other than the one it is queued on",
	[AN_INTEG_UNPLACED] = "the trace lost events on this cpu that no page places in time",
	[AN_INTEG_UNRECORDED] = ("task moved here from the cpu it was queued on: a migration "
				 "this capture did not record (no sched_migrate_task)"),
	[AN_INTEG_BEYOND] = ("events of this cpu not replayed from here: it is beyond the "
			     "cpus the trace declared or its first lines showed"),
};

/* A move sched_migrate_task would have shown, in a capture without them. */
static void unrecorded(struct integ_check *k, const struct an_integrity_issue *is)
{
	struct an_window w = {
		.check = AN_CHECK_TRACE_INTEGRITY, .cpu = is->cpu, .pid = is->pid,
		.ts_start_ns = is->start_ns, .ts_end_ns = is->end_ns,
		.expected = is->expected, .observed = is->observed,
		.rule = rules[AN_INTEG_UNRECORDED], .n_events = 1,
	};

	snprintf(w.message, sizeof(w.message), "%s", messages[AN_INTEG_UNRECORDED]);
	an_win_undecided(k->res, &w);
}

/*
 * Events of a CPU beyond the replay's count: an UNDECIDED window (a doubt
 * that may hide a failure) from the first of them to the end.
 */
static int on_beyond(struct integ_check *k, const struct an_integrity_issue *is)
{
	struct an_win_track *t;
	struct an_window w = {
		.check = AN_CHECK_TRACE_INTEGRITY, .cpu = is->cpu, .pid = -1,
		.ts_start_ns = is->start_ns, .ts_end_ns = is->end_ns,
		.expected = is->expected, .observed = is->observed,
		.rule = rules[AN_INTEG_BEYOND],
	};

	if (AN_VEC_GROW(k->all, k->nr_all + 1, k->alloc_all))
		return -ENOMEM;
	t = &k->all[k->nr_all++];
	*t = (struct an_win_track){ 0 };
	snprintf(w.message, sizeof(w.message), "%s", messages[AN_INTEG_BEYOND]);
	an_win_doubt_hiding(k->res, t, &w, true);
	return 0;
}

/* A held move after all: the capture records sched_migrate_task (EV-TASK). */
static void contradiction(struct integ_check *k, const struct an_integrity_issue *is)
{
	struct an_win_track t = { 0 };
	struct an_window w = {
		.check = AN_CHECK_TRACE_INTEGRITY, .cpu = is->cpu, .pid = is->pid,
		.ts_start_ns = is->end_ns, .expected = is->expected, .observed = is->observed,
		.rule = rules[AN_INTEG_ELSEWHERE],
	};

	snprintf(w.message, sizeof(w.message), "%s", messages[AN_INTEG_ELSEWHERE]);
	an_win_observe(k->res, &t, &w);
	an_win_close(k->res, &t, is->end_ns);
}

/* The held moves, judged now: FAIL when @is_fail, else UNDECIDED. */
static void judge_held(struct integ_check *k, bool is_fail)
{
	for (size_t i = 0; i < k->nr_held; i++) {
		if (is_fail)
			contradiction(k, &k->held[i]);
		else
			unrecorded(k, &k->held[i]);
	}
	k->nr_held = 0;
}

/* An unrecorded move: judged now when the capture settles it, else held. */
static int on_unrecorded(struct integ_check *k, const struct an_replay *r,
			 const struct an_integrity_issue *is)
{
	bool is_certain;

	an_replay_is_unrecorded(r, AN_EV_SCHED_MIGRATE_TASK, &is_certain);
	if (is_certain || k->is_settled) {
		unrecorded(k, is);
		return 0;
	}
	if (k->nr_held == MAX_HELD) {
		k->is_settled = true;
		judge_held(k, false);
		unrecorded(k, is);
		return 0;
	}
	if (AN_VEC_GROW(k->held, k->nr_held + 1, k->alloc_held))
		return -ENOMEM;
	k->held[k->nr_held++] = *is;
	return 0;
}

/* @is extends @t's window: same values, starting where it ended. */
static bool is_continued(const struct an_win_track *t, const struct an_integrity_issue *is)
{
	return t->is_open && t->w.ts_end_ns == is->start_ns && t->w.pid == is->pid &&
	       t->w.expected == is->expected && t->w.observed == is->observed;
}

static int on_event(void *ctx, struct an_replay *r, const struct an_event *ev, bool after)
{
	struct integ_check *k = ctx;
	struct an_check_stats *s = &k->res->stats[AN_CHECK_TRACE_INTEGRITY];

	(void)ev;
	if (after)
		return 0;
	if (!k->sw) {	/* the cpu count is known from the first event */
		k->sw = an_calloc(r->nr_cpus ? r->nr_cpus : 1, sizeof(*k->sw));
		if (!k->sw)
			return -ENOMEM;
		k->nr_cpus = r->nr_cpus;
	}
	s->has_input = true;
	s->n_checked++;
	if (k->nr_held && !an_replay_is_unrecorded(r, AN_EV_SCHED_MIGRATE_TASK, NULL))
		judge_held(k, true);
	for (unsigned int i = 0; i < r->step.nr_issues; i++) {
		const struct an_integrity_issue *is = &r->step.issues[i];
		bool is_switch = is->kind == AN_INTEG_SWITCH && is->cpu >= 0 &&
				 (unsigned int)is->cpu < k->nr_cpus;
		struct an_win_track one = { 0 };
		struct an_win_track *t = is_switch ? &k->sw[is->cpu] : &one;
		int err;
		struct an_window w = {
			.check = AN_CHECK_TRACE_INTEGRITY,
			.cpu = is->cpu,
			.pid = is->pid,
			.ts_start_ns = is->start_ns,
			.expected = is->expected,
			.observed = is->observed,
			.rule = rules[is->kind],
		};

		if (is->kind == AN_INTEG_BEYOND) {
			err = on_beyond(k, is);
			if (err)
				return err;
			continue;
		}
		if (is->kind == AN_INTEG_UNRECORDED) {
			err = on_unrecorded(k, r, is);
			if (err)
				return err;
			continue;
		}
		if (is->kind == AN_INTEG_UNPLACED) {
			if (AN_VEC_GROW(k->all, k->nr_all + 1, k->alloc_all))
				return -ENOMEM;
			t = &k->all[k->nr_all++];
			*t = (struct an_win_track){ 0 };
		}
		if (is_switch && is_continued(t, is)) {
			t->w.ts_end_ns = is->end_ns;
			t->w.n_events++;
			continue;
		}
		an_win_close(k->res, t, t->w.ts_end_ns);
		snprintf(w.message, sizeof(w.message), "%s", messages[is->kind]);
		an_win_observe(k->res, t, &w);
		t->w.ts_end_ns = is->end_ns;
		if (!is_switch && is->kind != AN_INTEG_UNPLACED)
			an_win_close(k->res, t, is->end_ns);
	}
	return 0;
}

static void on_finish(void *ctx, struct an_replay *r, uint64_t end_ns)
{
	struct integ_check *k = ctx;

	(void)r;
	judge_held(k, false);
	for (unsigned int c = 0; c < k->nr_cpus; c++)
		an_win_close(k->res, &k->sw[c], k->sw[c].w.ts_end_ns);
	for (size_t i = 0; i < k->nr_all; i++)
		an_win_close(k->res, &k->all[i], end_ns > k->all[i].w.ts_start_ns ?
			     end_ns : k->all[i].w.ts_start_ns);
}

static void on_free(void *ctx)
{
	struct integ_check *k = ctx;

	free(k->sw);
	free(k->all);
	free(k->held);
	free(k);
}

/**
 * an_check_trace_integrity_attach() - attach check trace_integrity
 * @r: replay
 * @res: where its windows and counters go, borrowed for @r's life
 * @d: diagnostic on failure
 *
 * Reports the replay's integrity problems (events.md §4; rules EV-LOST,
 * EV-TIME, EV-SWITCH, EV-TASK, see the file comment), and the migrations a
 * capture without sched_migrate_task did not record as UNDECIDED windows.
 *
 * Return: 0 or -ENOMEM.
 */
int an_check_trace_integrity_attach(struct an_replay *r, struct an_results *res,
				    struct an_diag *d)
{
	struct integ_check *k = an_calloc(1, sizeof(*k));
	struct an_observer obs = {
		.name = "trace_integrity", .event = on_event, .finish = on_finish,
		.skip = AN_OBS_NO_AFTER,	/* on_event() acts in the other phase only */
		.free = on_free,
	};

	if (!k)
		return an_diag_fail(d, -ENOMEM, "out of memory");
	k->res = res;
	obs.ctx = k;
	return an_replay_add_observer(r, &obs);
}
