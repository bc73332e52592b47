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
 * Per-check lifecycles: a check is a struct an_check_desc (check id and an
 * attach function) listed in an_checks_builtin[] (analyze/checks/checks.c). For
 * each enabled check, an_replay_new() calls attach(), which allocates the
 * check's context and registers one or more observers.
 */
#ifndef UCVAL_ANALYZE_REPLAY_REPLAY_H
#define UCVAL_ANALYZE_REPLAY_REPLAY_H

#include <stdbool.h>
#include <stdint.h>

#include "analyze/checks/check.h"
#include "lib/diag.h"
#include "analyze/read/event.h"
#include "analyze/replay/state.h"

/* Bit of an_replay_opts.checks for a check. */
#define AN_CHECK_BIT(id)	(UINT32_C(1) << (id))
#define AN_CHECKS_ALL		((UINT32_C(1) << AN_CHECK__COUNT) - 1)

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
 *	  events of type @type; 0: every event
 * @type: with AN_OBS_ONLY_TYPE
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
};

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

/**
 * struct an_check_desc - one check the replay can attach
 * @id: its check id
 * @attach: allocate the check's state and register its observers with
 *	    an_replay_add_observer(); its windows and counters go to @res
 *	    (borrowed for the replay's life). Return 0 or a negative code
 *	    (with @d)
 */
struct an_check_desc {
	enum an_check_id id;
	int (*attach)(struct an_replay *r, struct an_results *res, struct an_diag *d);
};

/* The checks an_replay_new() attaches, in this order (analyze/checks/checks.c). */
extern const struct an_check_desc an_checks_builtin[];
extern const unsigned int an_checks_nr_builtin;

/**
 * an_replay_new() - a replay ready for the first event
 * @opts: options, copied (may be NULL for all defaults)
 * @res: results that receive windows and counters (an_results_init() done by
 *	 the caller), borrowed for the replay's life
 * @out: the new replay, to be freed with an_replay_free()
 * @d: diagnostic on failure (platform file: file, line, reason)
 *
 * Reads the platform file if any and attaches the enabled checks of
 * an_checks_builtin[].
 *
 * Return: 0, -ENOMEM, -EINVAL (bad option), or the platform loader's code.
 */
int an_replay_new(const struct an_replay_opts *opts, struct an_results *res,
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
 * configuration, with @d), or an observer's or the window sink's error.
 */
int an_replay_event(struct an_replay *r, const struct an_event *ev, struct an_diag *d);

/**
 * an_replay_finish() - the trace ended
 * @r: replay
 * @end_ns: last timestamp of the trace
 *
 * Calls every observer's finish; they close their windows at @end_ns.
 *
 * Return: 0 or the first error of the window sink (res->err).
 */
int an_replay_finish(struct an_replay *r, uint64_t end_ns);

/**
 * an_replay_free() - free a replay and its observers' contexts
 * @r: replay, may be NULL
 */
void an_replay_free(struct an_replay *r);

/**
 * an_replay_is_enabled() - whether check @id was enabled by the options
 * @r: replay
 * @id: check
 *
 * Return: true or false.
 */
bool an_replay_is_enabled(const struct an_replay *r, enum an_check_id id);

#endif /* UCVAL_ANALYZE_REPLAY_REPLAY_H */
