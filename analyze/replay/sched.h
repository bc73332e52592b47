/* SPDX-License-Identifier: MIT */
/*
 * analyze/replay/sched.h - the replay's scheduler events and trace integrity
 * (sched.c): what an event reveals before the model takes it, and the model
 * taking it. Requests and markers go on to requests.h.
 */
#ifndef UCVAL_ANALYZE_REPLAY_SCHED_H
#define UCVAL_ANALYZE_REPLAY_SCHED_H

#include "analyze/read/event.h"
#include "analyze/replay/state.h"

/**
 * an_sched_inspect() - the integrity problems @ev reveals, against the
 * state before it (r->step.issues); a backwards timestamp also extends the
 * CPU's undecided_until_ns
 * @r: replay (started)
 * @ev: the event
 */
void an_sched_inspect(struct an_replay *r, const struct an_event *ev);

/**
 * an_sched_apply() - give @ev to the model: scheduler events, frequency and
 * limits, markers (requests through an_requests_apply()), lost events
 * @r: replay (started)
 * @ev: the event
 *
 * Return: 0 or -ENOMEM.
 */
int an_sched_apply(struct an_replay *r, const struct an_event *ev);

#endif /* UCVAL_ANALYZE_REPLAY_SCHED_H */
