// SPDX-License-Identifier: MIT
/*
 * analyze/checks/check.c - check names, verdicts, and the coalescing of
 * disagreements into windows (events.md §4, §5).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/checks/check.h"

static const char *const check_names[AN_CHECK__COUNT] = {
#define AN_CHECK_NAME(name, id) [AN_CHECK_##name] = id,
	AN_CHECKS(AN_CHECK_NAME)
#undef AN_CHECK_NAME
};

/* Why a check had nothing to compare: its "needs" column of events.md §4. */
static const char *const check_needs[AN_CHECK__COUNT] = {
	[AN_CHECK_RQ_CLAMP] = "no input: needs uclamp_util_cfs or uclamp_util_se events",
	[AN_CHECK_TASK_EFFECTIVE] = "no input: needs uclamp_task_eff events",
	[AN_CHECK_REQUEST_RESULT] = "no input: needs setattr markers or uclamp_request events",
	[AN_CHECK_FREQ_BELOW_MIN_CLAMP] = "no input: needs cpu_frequency events and clamps",
	[AN_CHECK_FREQ_ABOVE_MAX_CLAMP] = "no input: needs cpu_frequency events and clamps",
	[AN_CHECK_FREQ_PREDICTION] = "no input: needs cpu_frequency events and a util signal",
	[AN_CHECK_GROUPS_EXHAUSTED] = "no input: needs clamp requests (model v3)",
	[AN_CHECK_TRACE_INTEGRITY] = "no input: the trace has no events",
};

/**
 * an_check_name() - the check_id of @check as events.md §4 spells it
 * @check: the check
 *
 * Return: a static string; "?" for a value outside the list.
 */
const char *an_check_name(enum an_check_id check)
{
	if ((unsigned int)check >= AN_CHECK__COUNT)
		return "?";
	return check_names[check];
}

/**
 * an_check_is_enabled() - whether a set of checks holds @id
 * @checks: AN_CHECK_BIT() of each check of the set; 0 means all
 * @id: the check
 *
 * Return: true or false.
 */
bool an_check_is_enabled(uint32_t checks, enum an_check_id id)
{
	return !checks || (checks & AN_CHECK_BIT(id));
}

/**
 * an_check_from_name() - the check whose check_id is @name
 * @name: "rq_clamp", ...
 * @out: the check
 *
 * Return: 0, or -ENOENT for a name that is no check.
 */
int an_check_from_name(const char *name, enum an_check_id *out)
{
	for (int i = 0; i < AN_CHECK__COUNT; i++) {
		if (!strcmp(name, check_names[i])) {
			*out = (enum an_check_id)i;
			return 0;
		}
	}
	return -ENOENT;
}

/**
 * an_check_verdict() - the verdict of one check over one trace
 * @s: its counters
 *
 * FAIL with any FAIL window; PASS when the check had its inputs and compared
 * at least one observation; UNDECIDED otherwise (events.md §4: a check whose
 * inputs are not in the trace is never PASS).
 *
 * Return: the verdict.
 */
enum an_verdict an_check_verdict(const struct an_check_stats *s)
{
	if (s->n_failed)
		return AN_FAIL;
	if (s->has_input && s->n_checked)
		return AN_PASS;
	return AN_UNDECIDED;
}

/**
 * an_verdict_name() - "PASS", "FAIL" or "UNDECIDED"
 * @v: the verdict
 *
 * Return: a static string.
 */
const char *an_verdict_name(enum an_verdict v)
{
	switch (v) {
	case AN_PASS:
		return "PASS";
	case AN_FAIL:
		return "FAIL";
	case AN_UNDECIDED:
		break;
	}
	return "UNDECIDED";
}

/**
 * an_results_finish() - give every UNDECIDED check a reason
 * @res: the results of a finished analysis
 *
 * A check without input says what it needs; one with input that compared
 * nothing says so. Reasons a check set itself are kept.
 */
void an_results_finish(struct an_results *res)
{
	for (int i = 0; i < AN_CHECK__COUNT; i++) {
		struct an_check_stats *s = &res->stats[i];

		if (s->reason || an_check_verdict(s) != AN_UNDECIDED)
			continue;
		s->reason = s->has_input ? "no observation could be compared with the model" :
					   check_needs[i];
	}
}

/**
 * an_results_init() - empty results that send windows to @sink
 * @res: the results
 * @sink: receives each closed window; may be NULL (windows are only counted)
 * @ctx: passed to @sink
 */
void an_results_init(struct an_results *res, an_window_sink_fn sink, void *ctx)
{
	memset(res, 0, sizeof(*res));
	res->sink = sink;
	res->sink_ctx = ctx;
}

static void emit(struct an_results *res, const struct an_window *w)
{
	struct an_check_stats *s = &res->stats[w->check];
	int err;

	if (w->is_fail)
		s->n_failed++;
	else
		s->n_undecided++;
	if (!res->sink || res->err)
		return;
	err = res->sink(res->sink_ctx, w);
	if (err)
		res->err = err;
}

/* Open a window of kind @is_fail at @obs, or extend the open one of that kind. */
static void track(struct an_results *res, struct an_win_track *t,
		  const struct an_window *obs, bool is_fail)
{
	if (t->is_open && t->w.is_fail != is_fail)
		an_win_close(res, t, obs->ts_start_ns);
	if (!t->is_open) {
		t->w = *obs;
		t->w.is_fail = is_fail;
		t->w.ts_end_ns = obs->ts_start_ns;
		t->w.n_events = 1;
		t->is_open = true;
		return;
	}
	if (obs->ts_start_ns > t->w.ts_end_ns)
		t->w.ts_end_ns = obs->ts_start_ns;
	t->w.n_events++;
}

/**
 * an_win_observe() - one observation that disagrees with the model
 * @res: the results
 * @t: the key's window tracker
 * @obs: the disagreement: check, cpu, pid, ts_start_ns (its time), values,
 *	 rule and message
 *
 * Opens a FAIL window at @obs, or extends the open one to @obs's time. A
 * window keeps the values of its first observation: they say how it started.
 * An open UNDECIDED window of the key ends here.
 */
void an_win_observe(struct an_results *res, struct an_win_track *t,
		    const struct an_window *obs)
{
	track(res, t, obs, true);
}

/**
 * an_win_doubt() - one observation the check could not judge
 * @res: the results
 * @t: the key's window tracker
 * @obs: as for an_win_observe()
 *
 * Like an_win_observe() for an UNDECIDED window (counted in n_undecided when
 * it closes).
 */
void an_win_doubt(struct an_results *res, struct an_win_track *t,
		  const struct an_window *obs)
{
	track(res, t, obs, false);
}

/**
 * an_win_doubt_hiding() - an_win_doubt() of a doubt that may hide a failure
 * @res: the results
 * @t: the key's UNDECIDED tracker (separate from its FAIL tracker)
 * @obs: as for an_win_observe()
 * @is_hiding: the doubt may hide a failure: sets the check's
 *	       an_check_stats.is_hiding (exit status 3)
 *
 * Consecutive doubts of one key coalesce into one UNDECIDED window, like
 * an_win_observe() does for FAIL windows; an_win_close() ends it.
 */
void an_win_doubt_hiding(struct an_results *res, struct an_win_track *t,
			 const struct an_window *obs, bool is_hiding)
{
	if (is_hiding)
		res->stats[obs->check].is_hiding = true;
	an_win_doubt(res, t, obs);
}

/**
 * an_win_close() - end the key's open window, if any, at @ts_ns
 * @res: the results
 * @t: the key's window tracker
 * @ts_ns: last instant of the disagreement
 */
void an_win_close(struct an_results *res, struct an_win_track *t, uint64_t ts_ns)
{
	if (!t->is_open)
		return;
	if (ts_ns > t->w.ts_end_ns)
		t->w.ts_end_ns = ts_ns;
	t->is_open = false;
	t->w.explain = t->explain;
	emit(res, &t->w);
	t->w.explain = NULL;
	an_win_release(t);
}

/**
 * an_explain_line() - append one step of an explanation chain to @buf
 * @buf: the chain so far, NUL-terminated
 * @size: its room
 * @at: its length, advanced
 * @rule: the spec rule of the step ("MT1")
 * @label: what the step is ("request util_max")
 * @value: its value
 *
 * One line "RULE  label  value", columns as in analyze/checks/explain.c, so that
 * every check's chain reads alike.
 *
 * Return: false once @buf is full (the line is then cut).
 */
bool an_explain_line(char *buf, size_t size, size_t *at, const char *rule, const char *label,
		     long long value)
{
	int n;

	if (*at >= size)
		return false;
	n = snprintf(buf + *at, size - *at, "%-5s %-28s %lld\n", rule, label, value);
	if (n < 0 || (size_t)n >= size - *at) {
		*at = size - 1;
		return false;
	}
	*at += (size_t)n;
	return true;
}

/**
 * an_win_discard() - forget the key's open window: it was no disagreement
 * @t: the key's window tracker
 *
 * Nothing is reported or counted for it.
 */
void an_win_discard(struct an_win_track *t)
{
	t->is_open = false;
	an_win_release(t);
}

/**
 * an_win_is_early() - whether the key's open FAIL window shows the kernel
 * acting early on a change the model took later
 * @t: the key's window tracker
 * @from_ns: the earliest time the kernel may have acted on the change
 * @now: the model's value since the change
 *
 * Return: true when @t has a FAIL window open that began at or after
 * @from_ns with the kernel's value @now: the caller may an_win_discard() it.
 */
bool an_win_is_early(const struct an_win_track *t, uint64_t from_ns, long long now)
{
	return t->is_open && t->w.is_fail && t->w.ts_start_ns >= from_ns && t->w.observed == now;
}

/**
 * an_win_set_explain() - the explanation chain of the key's open window
 * @t: the key's window tracker, with a window open
 * @text: the chain (copied); "" or NULL for none
 *
 * Without memory the window simply has no explanation.
 */
void an_win_set_explain(struct an_win_track *t, const char *text)
{
	free(t->explain);
	t->explain = text && text[0] && t->is_open ? strdup(text) : NULL;
}

/**
 * an_win_release() - free what @t holds besides its window
 * @t: the tracker
 */
void an_win_release(struct an_win_track *t)
{
	free(t->explain);
	t->explain = NULL;
}

/**
 * an_win_agree() - an observation that agrees with the model
 * @res: the results
 * @t: the key's window tracker
 * @ts_ns: its time: the open window, if any, ends there
 */
void an_win_agree(struct an_results *res, struct an_win_track *t, uint64_t ts_ns)
{
	an_win_close(res, t, ts_ns);
}

/**
 * an_win_undecided() - report one UNDECIDED window as it is
 * @res: the results
 * @w: the window; is_fail is ignored (taken as false)
 */
void an_win_undecided(struct an_results *res, const struct an_window *w)
{
	struct an_window u = *w;

	u.is_fail = false;
	emit(res, &u);
}
