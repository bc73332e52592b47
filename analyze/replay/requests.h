/* SPDX-License-Identifier: MIT */
/*
 * analyze/replay/requests.h - clamp requests of the replay (requests.c): the
 * sysctl, task, cgroup and setattr markers, uclamp_request, uclamp_tg and
 * uclamp_task_eff, given to the model.
 */
#ifndef UCVAL_ANALYZE_REPLAY_REQUESTS_H
#define UCVAL_ANALYZE_REPLAY_REQUESTS_H

#include "analyze/read/event.h"
#include "analyze/replay/state.h"

/**
 * an_requests_apply() - apply a request-type event to the model
 * @r: replay (started)
 * @ev: a PRINT (sysctl, task, cgroup, setattr markers), UCLAMP_REQUEST,
 *	UCLAMP_TG or UCLAMP_TASK_EFF event; other events are ignored
 *
 * Return: 0 or -ENOMEM.
 */
int an_requests_apply(struct an_replay *r, const struct an_event *ev);

/**
 * an_requests_sysctl() - write system defaults into the model (VP4, MA8)
 * @r: replay (started)
 * @val: util_min, util_max, util_min_rt_default in abi units, -1 to leave
 *
 * Writes in an order that never inverts min and max on the way.
 */
void an_requests_sysctl(struct an_replay *r, const long long val[3]);

#endif /* UCVAL_ANALYZE_REPLAY_REQUESTS_H */
