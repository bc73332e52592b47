// SPDX-License-Identifier: MIT
/*
 * analyze/checks/check_request_result.c - check request_result (events.md §4).
 *
 * A setattr marker with ret=, or uclamp_request with a ret field, tells what
 * the kernel answered to a clamp request; the model answers the same request
 * (model_setattr(), v3 VA3-VA7/VG7, mainline MA1-MA2). They agree when both
 * succeed (0, or on a v3 seed kernel a positive slot index, VA4b: any
 * value >= 0 is a success) or both fail with the same errno.
 *
 *  - the kernel's error is one the model cannot decide (EPERM, ESRCH,
 *    EBUSY, ...: permissions and policy parameters the trace does not show):
 *    UNDECIDED, one window per request, the model is not given the request;
 *  - v3 seed state undefined (VQ3/VQ7/VQ8): UNDECIDED;
 *  - the kernel answers EOPNOTSUPP where the model does not (MA1): the
 *    kernel was built without CONFIG_UCLAMP_TASK (or the v3 series'
 *    Kconfig), which answers so before any validation and which the
 *    trace does not show: UNDECIDED, not FAIL — a kernel without uclamp
 *    is not a uclamp kernel that misbehaves;
 *  - agreement: n_checked; the open FAIL window of that pid ends;
 *  - disagreement: FAIL window keyed by the target pid, cpu -1, expected the
 *    model's answer, observed the kernel's (as text: "0", "EINVAL", "3"),
 *    rule VG7 when either is ENOSPC, else VA4 (v3); MA1 when either is
 *    EOPNOTSUPP, else MA2 (mainline).
 * The model keeps its own answer: after a disagreement its state follows
 * the model, not the kernel (the later checks may disagree too).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "analyze/checks/checks.h"
#include "analyze/checks/cover.h"
#include "analyze/checks/keyed.h"
#include "analyze/checks/wintab.h"

/* "0", "EINVAL", a positive slot index, or "-N" for others. */
static void ret_text(int ret, char buf[AN_WINDOW_VALUE_LEN])
{
	static const struct { int err; const char *name; } names[] = {
		{ EINVAL, "EINVAL" }, { ERANGE, "ERANGE" }, { ENOSPC, "ENOSPC" },
		{ EPERM, "EPERM" }, { ESRCH, "ESRCH" }, { EOPNOTSUPP, "EOPNOTSUPP" },
		{ E2BIG, "E2BIG" }, { EBUSY, "EBUSY" }, { EFAULT, "EFAULT" },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (ret == -names[i].err) {
			snprintf(buf, AN_WINDOW_VALUE_LEN, "%s", names[i].name);
			return;
		}
	}
	snprintf(buf, AN_WINDOW_VALUE_LEN, "%d", ret);
}

static const char *rule_of(const struct an_replay *r, int a, int b)
{
	if (r->variant == MODEL_V3)
		return a == -ENOSPC || b == -ENOSPC ? "VG7" : "VA4";
	return a == -EOPNOTSUPP || b == -EOPNOTSUPP ? "MA1" : "MA2";
}

static int on_event(void *ctx, struct an_replay *r, const struct an_event *ev, bool after)
{
	struct an_keyed *k = ctx;
	const struct an_replay_req *q = &r->step.req;
	struct an_wintab_ent *ent;
	struct an_window w;	/* made only for a request */
	bool is_agree;

	if (!after || !r->step.has_req)
		return 0;
	w = (struct an_window){
		.check = AN_CHECK_REQUEST_RESULT, .cpu = -1, .pid = q->pid,
		.ts_start_ns = ev->ts_ns, .expected = q->model_ret, .observed = q->ret,
	};
	k->res->stats[AN_CHECK_REQUEST_RESULT].has_input = true;
	w.rule = rule_of(r, q->model_ret, q->ret);
	ret_text(q->ret, w.observed_text);
	if (q->ret == -EOPNOTSUPP && q->model_ret != -EOPNOTSUPP && q->is_applied &&
	    !r->sys.is_undefined) {
		ret_text(q->model_ret, w.expected_text);
		snprintf(w.message, sizeof(w.message),
			 "request for pid %d: kernel EOPNOTSUPP: built without uclamp?",
			 q->pid);
		w.rule = "MA1";
		w.ts_end_ns = ev->ts_ns;
		w.n_events = 1;
		k->res->stats[AN_CHECK_REQUEST_RESULT].is_hiding = true;
		an_win_undecided(k->res, &w);
		an_replay_note(r, "request_result: the kernel answers EOPNOTSUPP to "
			       "clamp requests: built without CONFIG_UCLAMP_TASK?");
		return 0;
	}
	if (!q->is_applied || r->sys.is_undefined) {
		snprintf(w.expected_text, sizeof(w.expected_text), "?");
		snprintf(w.message, sizeof(w.message),
			 "request for pid %d: kernel %s, which the model cannot decide",
			 q->pid, w.observed_text);
		w.rule = r->variant == MODEL_V3 ? "VA3" : "MA3";
		w.ts_end_ns = ev->ts_ns;
		w.n_events = 1;
		k->res->stats[AN_CHECK_REQUEST_RESULT].is_hiding = true;
		an_win_undecided(k->res, &w);
		return 0;
	}
	ent = an_wintab_get(k->open, (uint64_t)q->pid, true);
	if (!ent)
		return -ENOMEM;
	k->res->stats[AN_CHECK_REQUEST_RESULT].n_checked++;
	an_cover_count(k->res, AN_CHECK_REQUEST_RESULT, r->variant, w.rule);
	is_agree = (q->ret >= 0 && q->model_ret >= 0) || q->ret == q->model_ret;
	if (is_agree) {
		an_win_agree(k->res, &ent->fail, ev->ts_ns);
	} else {
		ret_text(q->model_ret, w.expected_text);
		snprintf(w.message, sizeof(w.message), "request for pid %d: kernel %s, model %s",
			 q->pid, w.observed_text, w.expected_text);
		an_win_observe(k->res, &ent->fail, &w);
	}
	an_wintab_put(k->open, ent);
	return 0;
}

/**
 * an_check_request_result_attach() - attach check request_result
 * @r: replay
 * @res: where its windows and counters go, borrowed for @r's life
 * @d: diagnostic on failure
 *
 * Compares the kernel's answers to clamp requests with the model's
 * (uclamp-v3.md VA4/VA4b/VG7, uclamp-mainline.md MA1/MA2); see the file
 * comment.
 *
 * Return: 0 or -ENOMEM.
 */
int an_check_request_result_attach(struct an_replay *r, struct an_results *res,
				   struct an_diag *d)
{
	static const struct an_observer obs = {
		.name = "request_result", .event = on_event,
		/* on_event() acts after the model, on requests only */
		.skip = AN_OBS_NO_BEFORE, .only = AN_OBS_ONLY_REQUEST,
	};

	return an_keyed_attach(r, res, &obs, d);
}
