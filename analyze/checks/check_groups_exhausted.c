// SPDX-License-Identifier: MIT
/*
 * analyze/checks/check_groups_exhausted.c - check groups_exhausted (events.md §4).
 *
 * v3 only: a clamp value needs one of CONFIG_UCLAMP_GROUPS_COUNT groups
 * besides group 0 (VG1, VG6); when none is free the request fails with
 * ENOSPC (VG3, VG7), values of dead tasks included (VG8). The check looks at
 * every request with a kernel result (setattr marker with ret, uclamp_request
 * with ret) that the model was given:
 *  - the kernel reported success (ret >= 0) while the model answered ENOSPC:
 *    FAIL window keyed by the target pid, expected "ENOSPC", observed the
 *    kernel's return, rule VG7;
 *  - anything else: n_checked, and that pid's open window ends.
 * Mainline has buckets and never runs out (MB3): the check stays UNDECIDED
 * ("mainline has no clamp groups").
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "analyze/checks/checks.h"
#include "analyze/checks/cover.h"
#include "analyze/checks/keyed.h"
#include "analyze/checks/wintab.h"

static int on_event(void *ctx, struct an_replay *r, const struct an_event *ev, bool after)
{
	struct an_keyed *k = ctx;
	struct an_check_stats *s = &k->res->stats[AN_CHECK_GROUPS_EXHAUSTED];
	const struct an_replay_req *q = &r->step.req;
	struct an_wintab_ent *ent;

	if (!after || r->variant != MODEL_V3)
		return 0;	/* mainline: on_finish() says why nothing is checked */
	if (!r->step.has_req || !q->is_applied || r->sys.is_undefined)
		return 0;
	s->has_input = true;
	s->n_checked++;
	an_cover_count(k->res, AN_CHECK_GROUPS_EXHAUSTED, r->variant, "VG7");
	ent = an_wintab_get(k->open, (uint64_t)q->pid, true);
	if (!ent)
		return -ENOMEM;
	if (q->ret >= 0 && q->model_ret == -ENOSPC) {
		struct an_window w = {
			.check = AN_CHECK_GROUPS_EXHAUSTED, .cpu = -1, .pid = q->pid,
			.ts_start_ns = ev->ts_ns, .expected = -ENOSPC, .observed = q->ret,
			.expected_text = "ENOSPC", .rule = "VG7",
		};

		snprintf(w.observed_text, sizeof(w.observed_text), "%d", q->ret);
		snprintf(w.message, sizeof(w.message),
			 "request for pid %d succeeded while all %u clamp groups are in use",
			 q->pid, r->sys.cfg.groups);
		an_win_observe(k->res, &ent->fail, &w);
	} else {
		an_win_agree(k->res, &ent->fail, ev->ts_ns);
	}
	an_wintab_put(k->open, ent);
	return 0;
}

/* Before the keyed windows close (keyed.c): why mainline checks nothing. */
static void on_finish(void *ctx, struct an_replay *r, uint64_t end_ns)
{
	struct an_keyed *k = ctx;

	(void)end_ns;
	if (r->is_started && r->variant != MODEL_V3)
		k->res->stats[AN_CHECK_GROUPS_EXHAUSTED].reason = "mainline has no clamp groups";
}

/**
 * an_check_groups_exhausted_attach() - attach check groups_exhausted
 * @r: replay
 * @res: where its windows and counters go, borrowed for @r's life
 * @d: diagnostic on failure
 *
 * v3: a request the kernel accepted while the model found no free clamp
 * group (uclamp-v3.md VG1, VG3, VG7); see the file comment.
 *
 * Return: 0 or -ENOMEM.
 */
int an_check_groups_exhausted_attach(struct an_replay *r, struct an_results *res,
				     struct an_diag *d)
{
	static const struct an_observer obs = {
		.name = "groups_exhausted", .event = on_event, .finish = on_finish,
		/* on_event() acts after the model, on requests only */
		.skip = AN_OBS_NO_BEFORE, .only = AN_OBS_ONLY_REQUEST,
	};

	return an_keyed_attach(r, res, &obs, d);
}
