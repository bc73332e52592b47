/* SPDX-License-Identifier: MIT */
/*
 * analyze/replay/replay.h - replay a trace's events through the reference model.
 *
 * an_replay_event() takes the events one at a time, in time order: (1) the
 * integrity problems an event reveals are found against the state before it
 * (sched.c); (2) the observers see it before the model takes it; (3) the
 * model takes it (sched.c, requests.c); (4) the observers see it after. So an
 * observer can compare an observation with the model at that very instant,
 * either side of it. The state observers read is struct an_replay (state.h).
 *
 * An observer (struct an_observer) is callbacks and a context: the replay
 * knows nothing else of what watches it. Whoever makes a replay attaches
 * them: the analysis (analyze/analyze.c) the enabled checks of
 * analyze/checks/checks.c, then the series of analyze/store/series.c; tests
 * their probes.
 */
#ifndef UCVAL_ANALYZE_REPLAY_REPLAY_H
#define UCVAL_ANALYZE_REPLAY_REPLAY_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/diag.h"
#include "analyze/read/event.h"
#include "analyze/replay/state.h"

/**
 * struct an_observer - a check (or anything else) watching the replay
 * @name: short static name for diagnostics ("rq_clamp")
 * @event: called twice per event: with @after_model false before the model
 *	   takes it, true after. Called for every event the replay is given,
 *	   AN_EV_UNKNOWN and LOST_EVENTS included, once the model has started
 *	   (an_replay.is_started). Return 0, or a negative code that stops
 *	   the analysis (an_replay_event() returns it). May be NULL.
 * @finish: called once by an_replay_finish() with the trace's last
 *	    timestamp: close open windows there. May be NULL.
 * @free: frees @ctx, called by an_replay_free(); may be NULL
 * @ctx: the observer's context
 * @skip: AN_OBS_NO_BEFORE, AN_OBS_NO_AFTER: @event is not called in that
 *	  phase (it would return 0 there at once); 0: both
 * @only: after the model, @event is called only for the events it acts on
 *	  (it would return 0 at once for the others): AN_OBS_ONLY_REQUEST,
 *	  requests with a result (an_replay_step.has_req); AN_OBS_ONLY_TYPE,
 *	  events of type @type; AN_OBS_ONLY_POLICY, while the replay has no
 *	  cpufreq policy (an_replay.nr_policies), events of @types alone, in
 *	  both phases; 0: every event
 * @type: with AN_OBS_ONLY_TYPE
 * @types: with AN_OBS_ONLY_TYPE, more types: AN_EV_BIT() of each, or 0;
 *	   with AN_OBS_ONLY_POLICY, the types wanted without a policy
 * @also: AN_OBS_ALSO_SLEEPER_OUT: @event is also called, after the model,
 *	  inside a sched_switch (an_replay_step.is_sleeper_out); 0: not
 */
struct an_observer {
	const char *name;
	int (*event)(void *ctx, struct an_replay *r, const struct an_event *ev,
		     bool after_model);
	void (*finish)(void *ctx, struct an_replay *r, uint64_t end_ns);
	void (*free)(void *ctx);
	void *ctx;
	unsigned int skip;
	unsigned int only;
	enum an_event_type type;
	uint64_t types;
	unsigned int also;
};

_Static_assert(AN_EV__COUNT <= 64, "an_observer.types holds a bit per event type");

/*
 * For an observer's work beyond its quick tests: kept out of its @event, that
 * function stays small and saves no registers for the events it returns at
 * once (the compiler would otherwise inline that work into it).
 */
#define AN_NOINLINE	__attribute__((noinline))

#define AN_OBS_NO_BEFORE	1u	/* an_observer.skip: not before the model */
#define AN_OBS_NO_AFTER		2u	/* an_observer.skip: not after the model */
#define AN_OBS_ONLY_REQUEST	1u	/* an_observer.only: requests with a result */
#define AN_OBS_ONLY_TYPE	2u	/* an_observer.only: events of an_observer.type */
/* an_observer.only: without a cpufreq policy, events of an_observer.types */
#define AN_OBS_ONLY_POLICY	4u
/*
 * an_observer.also: called once more in a sched_switch whose sleeper left
 * before tasks were pulled in (an_replay_sleeper_out())
 */
#define AN_OBS_ALSO_SLEEPER_OUT	1u

/**
 * an_replay_new() - a replay ready for the first event, without observers
 * @opts: options, copied (may be NULL for all defaults)
 * @shared_err: where the observers record the first error of what they share
 *		(the window sink's, an_results.err), or NULL; borrowed for the
 *		replay's life. A non-zero value there after a round of observer
 *		calls stops the replay: an_replay_event() and an_replay_finish()
 *		return it.
 * @out: the new replay, to be freed with an_replay_free()
 * @d: diagnostic on failure (platform file: file, line, reason)
 *
 * Reads the platform file if any.
 *
 * Return: 0, -ENOMEM, -EINVAL (bad option), or the platform loader's code.
 */
int an_replay_new(const struct an_replay_opts *opts, const int *shared_err,
		  struct an_replay **out, struct an_diag *d);

/**
 * an_replay_add_observer() - register an observer
 * @r: replay
 * @obs: copied; its @free is called with its @ctx by an_replay_free(),
 *	 also when this call fails
 *
 * Observers are called in registration order.
 *
 * Return: 0 or -ENOMEM.
 */
int an_replay_add_observer(struct an_replay *r, const struct an_observer *obs);

/**
 * an_replay_event() - replay one event
 * @r: replay
 * @ev: the event, in the order the reader gives them (time order)
 * @d: diagnostic on failure
 *
 * Return: 0, or a negative code: -ENOMEM, the model could not start (bad
 * configuration, with @d), an observer's error, or the shared one.
 */
int an_replay_event(struct an_replay *r, const struct an_event *ev, struct an_diag *d);

/**
 * an_replay_finish() - the trace ended
 * @r: replay
 * @end_ns: last timestamp of the trace
 *
 * Calls every observer's finish; they close their windows at @end_ns.
 *
 * Return: 0, the shared error of the observers (an_replay_new()), or
 * -ENOMEM when a packed task could not be unpacked for them (tasks.h).
 */
int an_replay_finish(struct an_replay *r, uint64_t end_ns);

/**
 * an_replay_free() - free a replay and its observers' contexts
 * @r: replay, may be NULL
 */
void an_replay_free(struct an_replay *r);

#endif /* UCVAL_ANALYZE_REPLAY_REPLAY_H */
