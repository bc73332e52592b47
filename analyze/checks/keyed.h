/* SPDX-License-Identifier: MIT */
/*
 * analyze/checks/keyed.h - the lifecycle of a check whose windows are keyed
 * by task (request_result, task_effective, groups_exhausted): a table of its
 * open windows (wintab.h), every window closed at the trace's end, the table
 * freed with the replay.
 */
#ifndef UCVAL_ANALYZE_CHECKS_KEYED_H
#define UCVAL_ANALYZE_CHECKS_KEYED_H

#include <stdint.h>

#include "analyze/checks/check.h"
#include "analyze/replay/replay.h"
#include "analyze/checks/wintab.h"

/**
 * struct an_keyed - the state of a check keyed by task: the context its
 * observer's callbacks get
 * @res: where its windows and counters go (borrowed)
 * @open: its open windows by key (FAIL and UNDECIDED), owned
 * @finish: the check's own finish, run before the windows close, or NULL
 */
struct an_keyed {
	struct an_results *res;
	struct an_wintab *open;
	void (*finish)(void *ctx, struct an_replay *r, uint64_t end_ns);
};

/**
 * an_keyed_attach() - attach a check whose windows are keyed by task
 * @r: replay
 * @res: where the check's windows and counters go, borrowed for @r's life
 * @obs: the check's observer (copied): its name, event, skip, only and type
 *	 are kept; its finish, if any, is called with the struct an_keyed
 *	 before every open window (fail, then doubt) closes at the trace's end.
 *	 Its ctx and free are ignored: the context is a new struct an_keyed,
 *	 freed with its table by an_replay_free().
 * @d: diagnostic on failure
 *
 * Return: 0 or -ENOMEM.
 */
int an_keyed_attach(struct an_replay *r, struct an_results *res, const struct an_observer *obs,
		    struct an_diag *d);

#endif /* UCVAL_ANALYZE_CHECKS_KEYED_H */
