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
 *	      that instant, expected the replay's CPU, observed the event's
 *  EV-LOST   also: a trace.dat's buffer statistics count lost events that
 *	      none of the CPU's pages places in time (struct an_ev_lost):
 *	      window from the first event to the end of the trace, observed
 *	      the count; the replay keeps every CPU UNDECIDED throughout
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

struct integ_check {
	struct an_results *res;
	struct an_win_track *sw;	/* per CPU: the open EV-SWITCH window */
	unsigned int nr_cpus;
	struct an_win_track *all;	/* EV-LOST windows open to the end */
	size_t nr_all, alloc_all;
};

static const char *const rules[] = {
	[AN_INTEG_LOST] = "EV-LOST",
	[AN_INTEG_TIME] = "EV-TIME",
	[AN_INTEG_SWITCH] = "EV-SWITCH",
	[AN_INTEG_ELSEWHERE] = "EV-TASK",
	[AN_INTEG_UNPLACED] = "EV-LOST",
};

static const char *const messages[] = {
	[AN_INTEG_LOST] = "the trace lost events on this cpu",
	[AN_INTEG_TIME] = "timestamp before an earlier event of this cpu",
	[AN_INTEG_SWITCH] = "switch from a task the replay does not have running here",
	[AN_INTEG_ELSEWHERE] = "task shown on a cpu other than the one it is queued on",
	[AN_INTEG_UNPLACED] = "the trace lost events on this cpu that no page places in time",
};

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
	for (unsigned int i = 0; i < r->step.nr_issues; i++) {
		const struct an_integrity_issue *is = &r->step.issues[i];
		bool is_switch = is->kind == AN_INTEG_SWITCH && is->cpu >= 0 &&
				 (unsigned int)is->cpu < k->nr_cpus;
		struct an_win_track one = { 0 };
		struct an_win_track *t = is_switch ? &k->sw[is->cpu] : &one;
		struct an_window w = {
			.check = AN_CHECK_TRACE_INTEGRITY,
			.cpu = is->cpu,
			.pid = is->pid,
			.ts_start_ns = is->start_ns,
			.expected = is->expected,
			.observed = is->observed,
			.rule = rules[is->kind],
		};

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
	free(k);
}

/**
 * an_check_trace_integrity_attach() - attach check trace_integrity
 * @r: replay
 * @res: where its windows and counters go, borrowed for @r's life
 * @d: diagnostic on failure
 *
 * Reports the replay's integrity problems (events.md §4; rules EV-LOST,
 * EV-TIME, EV-SWITCH, EV-TASK, see the file comment).
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
