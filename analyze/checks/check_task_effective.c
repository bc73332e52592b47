// SPDX-License-Identifier: MIT
/*
 * analyze/checks/check_task_effective.c - check task_effective (events.md §4).
 *
 * uclamp_task_eff shows a task's own request (value) and its effective
 * clamp (effective, capacity units); MediaTek's sched_task_uclamp both
 * clamps' requests and effective values, its sched_queue_task the effective
 * values a task is enqueued or dequeued with. The replay first takes the request
 * from the event when the model holds another one (requests.c), so this
 * check judges the effective value alone: the request restricted by the
 * task group and the system default, v3 VT1/VT2 (rule VT1), mainline
 * MT1/MT2 (rule MT1), as model_task_eff() computes it after the event.
 *
 *  - equal: n_checked; an open FAIL window of (pid, clamp id) ends;
 *  - different, and the task's request and group are known
 *    (an_task_is_clamp_known()): FAIL window keyed by (pid, clamp id),
 *    cpu -1, expected the model's value, observed the kernel's;
 *  - different otherwise, or the request could not be given to the model,
 *    or v3 seed state is undefined: UNDECIDED window (may hide a failure).
 * The event's group_id/bucket_id is not compared: slot numbers depend on
 * allocations made before the trace began. The event's request (value) is
 * compared only where the model derived it itself: at a forked child's
 * first showing (MA7); a difference is a FAIL of that event alone.
 *
 * A group write in progress (mainline MT5/MR5, the kernel's
 * cpu_util_update_eff()): the kernel walks the written group's subtree top
 * down, updating each group's effective clamps (the uclamp_tg event of that
 * group) and then its tasks. A task enqueued meanwhile in a group the walk
 * has not reached yet gets the group's old values, while the model applied
 * the whole write at the first uclamp_tg. So while the replay follows the
 * walk (walk.h), a task of a group not yet reached agrees with either value.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "analyze/checks/checks.h"
#include "analyze/checks/cover.h"
#include "analyze/checks/keyed.h"
#include "analyze/replay/tgroups.h"
#include "analyze/checks/wintab.h"

/*
 * Why the model holds @mt's effective value of @id: the task's request, its
 * group's effective value (the group restricts, v3 VT5/VT7, mainline MT5),
 * the system default (VT8, MT1), the result (VT1, MT1).
 */
static void explain(const struct an_replay *r, const struct model_task *mt,
		    enum model_clamp_id id, char *buf, size_t size)
{
	bool is_v3 = r->variant == MODEL_V3;
	const char *path = an_tgroups_path(r->tgroups, mt->tg);
	char label[64];
	size_t at = 0;

	buf[0] = '\0';
	an_explain_line(buf, size, &at, is_v3 ? "VT1" : "MT1",
		     id == MODEL_UCLAMP_MIN ? "request util_min" : "request util_max",
		     mt->req[id].value);
	snprintf(label, sizeof(label), "group %.20s effective", path ? path : "?");
	an_explain_line(buf, size, &at, is_v3 ? "VT7" : "MT5", label, mt->tg->eff[id].value);
	an_explain_line(buf, size, &at, is_v3 ? "VT8" : "MT1", "system default",
		     r->sys.dflt[id].value);
	an_explain_line(buf, size, &at, is_v3 ? "VT1" : "MT1", "effective",
		     model_task_eff(&r->sys, mt, id, NULL));
}

/*
 * Rule coverage of one compared effective value @id of @mt: the effective
 * value rule; for a task in a group other than the root, the group's
 * effective values (v3 VT7, mainline MT5) and, mainline, its restriction
 * (MT2); mainline, the RT default of a MIN the task did not request (MT4),
 * the request a fork gave it, unchanged since (MA7),
 * the value the task was counted with while it is (MT3), an effective min
 * above the max (MT6); a sysctl write's default that decided the value (MA8:
 * the system default capping it, or a changed RT default).
 */
static void cover(struct an_keyed *k, const struct an_replay *r, const struct model_task *mt,
		  int id)
{
	bool is_v3 = r->variant == MODEL_V3;
	bool is_grouped = mt->tg && mt->tg != &r->sys.root_tg && !mt->tg->is_autogroup;

	an_cover_count(k->res, AN_CHECK_TASK_EFFECTIVE, r->variant, is_v3 ? "VT1" : "MT1");
	if (is_grouped)
		an_cover_count(k->res, AN_CHECK_TASK_EFFECTIVE, r->variant, is_v3 ? "VT7" : "MT5");
	if (is_v3)
		return;
	if (is_grouped)
		an_cover_count(k->res, AN_CHECK_TASK_EFFECTIVE, r->variant, "MT2");
	if (mt->cls == MODEL_CLASS_RT && id == MODEL_UCLAMP_MIN && !mt->req[id].user_defined) {
		an_cover_count(k->res, AN_CHECK_TASK_EFFECTIVE, r->variant, "MT4");
		if (r->sys.sysctl[MODEL_SYSCTL_UTIL_MIN_RT_DEFAULT] != MODEL_SCALE)
			an_cover_count(k->res, AN_CHECK_TASK_EFFECTIVE, r->variant, "MA8");
	}
	if (r->sys.dflt[id].value < MODEL_SCALE &&
	    model_task_eff(&r->sys, mt, (enum model_clamp_id)id, NULL) == r->sys.dflt[id].value)
		an_cover_count(k->res, AN_CHECK_TASK_EFFECTIVE, r->variant, "MA8");
	if (an_task_of(mt)->is_req_forked[id])
		an_cover_count(k->res, AN_CHECK_TASK_EFFECTIVE, r->variant, "MA7");
	if (mt->acc_slot[id] != MODEL_NV)	/* counted: the back-annotated value */
		an_cover_count(k->res, AN_CHECK_TASK_EFFECTIVE, r->variant, "MT3");
	if (model_task_eff(&r->sys, mt, MODEL_UCLAMP_MIN, NULL) >
	    model_task_eff(&r->sys, mt, MODEL_UCLAMP_MAX, NULL))
		an_cover_count(k->res, AN_CHECK_TASK_EFFECTIVE, r->variant, "MT6");
}

/* The window of a disagreement (FAIL or UNDECIDED) of @pid's @id at @ev. */
static void make_window(struct an_window *w, const struct an_replay *r,
			const struct an_event *ev, int pid, int id, unsigned int observed,
			int expected)
{
	*w = (struct an_window){
		.check = AN_CHECK_TASK_EFFECTIVE, .cpu = -1, .pid = pid,
		.ts_start_ns = ev->ts_ns, .rule = r->variant == MODEL_V3 ? "VT1" : "MT1",
		.expected = expected, .observed = observed,
	};
	snprintf(w->message, sizeof(w->message), "effective uclamp_%s of pid %d: kernel %u, model %d",
		 id == MODEL_UCLAMP_MIN ? "min" : "max", pid, observed, expected);
}

/*
 * The kernel's own request of @pid's clamp @id, at the task's first
 * showing, contradicted the one the model derived at its fork (MA7:
 * inherited, or none() with reset_on_fork): a FAIL of this event alone.
 * The replay has taken the kernel's request by now, so the effective
 * values that follow are judged on it.
 */
static void fork_req_fail(struct an_keyed *k, const struct an_replay *r,
			  const struct an_event *ev, int pid, int id)
{
	unsigned int observed = r->step.fork_req_kernel;
	struct an_win_track tr = { 0 };
	struct an_window w = {
		.check = AN_CHECK_TASK_EFFECTIVE, .cpu = -1, .pid = pid,
		.ts_start_ns = ev->ts_ns, .rule = "MA7",
		.expected = r->step.fork_req_model, .observed = observed,
	};
	char text[AN_WINDOW_EXPLAIN_LEN];
	size_t at = 0;

	k->res->stats[AN_CHECK_TASK_EFFECTIVE].n_checked++;
	an_cover_count(k->res, AN_CHECK_TASK_EFFECTIVE, r->variant, "MA7");
	snprintf(w.message, sizeof(w.message),
		 "request uclamp_%s of pid %d after its fork: kernel %u, model %d",
		 id == MODEL_UCLAMP_MIN ? "min" : "max", pid, observed, r->step.fork_req_model);
	text[0] = '\0';
	an_explain_line(text, sizeof(text), &at, "MA7", "request after fork",
			r->step.fork_req_model);
	an_win_observe(k->res, &tr, &w);
	an_win_set_explain(&tr, text);
	an_win_close(k->res, &tr, ev->ts_ns);
}

/* Judge the kernel's effective value @observed of @pid's clamp @id. */
static int judge(struct an_keyed *k, struct an_replay *r, const struct an_event *ev, int pid,
		 int id, unsigned int observed)
{
	struct an_wintab_ent *ent;
	struct an_task *t;
	int expected, old;
	struct an_window w;	/* made only for a disagreement */

	if (pid <= 0 || (id != MODEL_UCLAMP_MIN && id != MODEL_UCLAMP_MAX))
		return 0;
	k->res->stats[AN_CHECK_TASK_EFFECTIVE].has_input = true;
	t = an_replay_task(r, pid);
	if (t && r->step.fork_req_model >= 0 && r->step.fork_req_id == id)
		fork_req_fail(k, r, ev, pid, id);
	ent = an_wintab_get(k->open, (uint64_t)pid * 2 + (uint64_t)id, true);
	if (!ent)
		return -ENOMEM;
	expected = t ? model_task_eff(&r->sys, &t->mt, (enum model_clamp_id)id, NULL) : -1;
	if (!t || t->mt.is_dead || r->sys.is_undefined) {
		make_window(&w, r, ev, pid, id, observed, expected);
		an_win_doubt_hiding(k->res, &ent->doubt, &w, true);
	} else if (expected == (int)observed ||
		   (an_walk_old_eff(&r->sys, &r->walk, &t->mt, (enum model_clamp_id)id, true,
				    &old) &&
		    old == (int)observed)) {
		k->res->stats[AN_CHECK_TASK_EFFECTIVE].n_checked++;
		cover(k, r, &t->mt, id);
		an_win_agree(k->res, &ent->fail, ev->ts_ns);
		an_win_close(k->res, &ent->doubt, ev->ts_ns);
	} else if (an_task_is_clamp_known(t) && !(r->step.is_learnt && r->step.learn_ret < 0)) {
		k->res->stats[AN_CHECK_TASK_EFFECTIVE].n_checked++;
		cover(k, r, &t->mt, id);
		an_win_close(k->res, &ent->doubt, ev->ts_ns);
		make_window(&w, r, ev, pid, id, observed, expected);
		an_win_observe(k->res, &ent->fail, &w);
		if (ent->fail.w.n_events == 1) {
			char text[AN_WINDOW_EXPLAIN_LEN];

			explain(r, &t->mt, (enum model_clamp_id)id, text, sizeof(text));
			an_win_set_explain(&ent->fail, text);
		}
	} else {
		make_window(&w, r, ev, pid, id, observed, expected);
		an_win_doubt_hiding(k->res, &ent->doubt, &w, true);
	}
	an_wintab_put(k->open, ent);
	return 0;
}

struct early_ctx {
	const struct an_replay *r;
	uint64_t from_ns;
};

/* excuse_early() of one key. */
static void excuse_one(struct an_wintab_ent *ent, void *ctx)
{
	const struct early_ctx *e = ctx;
	const struct an_task *t = an_replay_task(e->r, (int)(ent->key / 2));
	enum model_clamp_id id = (enum model_clamp_id)(ent->key % 2);

	if (t && an_win_is_early(&ent->fail, e->from_ns,
				 model_task_eff(&e->r->sys, &t->mt, id, NULL)))
		an_win_discard(&ent->fail);
}

/*
 * A sysctl write has just reached the model (MA8). The kernel stored the new
 * system default before its root uclamp_tg (or the marker) showed it, and a
 * task woken in between took it: a disagreement begun since the earliest
 * such store (an_replay_step.sysctl_from_ns), with the value the model now
 * gives, is none.
 */
static void excuse_early(struct an_keyed *k, const struct an_replay *r)
{
	struct early_ctx e = { .r = r, .from_ns = r->step.sysctl_from_ns };

	an_wintab_for_each(k->open, excuse_one, &e);
}

/*
 * uclamp_task_eff: one clamp. MediaTek: sched_task_uclamp's pair while the
 * task is counted on a runqueue (active), sched_queue_task's task_min and
 * task_max (p->uclamp[], set at the enqueue).
 */
static int on_event(void *ctx, struct an_replay *r, const struct an_event *ev, bool after)
{
	struct an_keyed *k = ctx;
	int err;

	if (!after)
		return 0;
	if (r->step.is_sysctl_write)
		excuse_early(k, r);
	switch (ev->type) {
	case AN_EV_UCLAMP_TASK_EFF:
		return judge(k, r, ev, ev->task_eff.pid, ev->task_eff.clamp_id,
			     ev->task_eff.effective);
	case AN_EV_SCHED_TASK_UCLAMP:
		if (!ev->task_uclamp.active)
			return 0;
		err = judge(k, r, ev, ev->task_uclamp.pid, MODEL_UCLAMP_MIN,
			    ev->task_uclamp.eff_min);
		return err ? err : judge(k, r, ev, ev->task_uclamp.pid, MODEL_UCLAMP_MAX,
					 ev->task_uclamp.eff_max);
	case AN_EV_SCHED_QUEUE_TASK:
		err = judge(k, r, ev, ev->queue.pid, MODEL_UCLAMP_MIN, ev->queue.task_min);
		return err ? err : judge(k, r, ev, ev->queue.pid, MODEL_UCLAMP_MAX,
					 ev->queue.task_max);
	default:
		return 0;
	}
}

/**
 * an_check_task_effective_attach() - attach check task_effective
 * @r: replay
 * @res: where its windows and counters go, borrowed for @r's life
 * @d: diagnostic on failure
 *
 * Compares uclamp_task_eff (sched_task_uclamp, sched_queue_task) effective
 * values with model_task_eff()
 * (uclamp-v3.md VT1/VT2, uclamp-mainline.md MT1/MT2); see the file comment.
 *
 * Return: 0 or -ENOMEM.
 */
int an_check_task_effective_attach(struct an_replay *r, struct an_results *res,
				   struct an_diag *d)
{
	static const struct an_observer obs = {
		.name = "task_effective", .event = on_event,
		/* on_event() acts after the model, on these events only */
		.skip = AN_OBS_NO_BEFORE, .only = AN_OBS_ONLY_TYPE, .type = AN_EV_UCLAMP_TASK_EFF,
		.types = AN_EV_BIT(AN_EV_SCHED_TASK_UCLAMP) | AN_EV_BIT(AN_EV_SCHED_QUEUE_TASK) |
			 AN_EV_BIT(AN_EV_UCLAMP_TG) | AN_EV_BIT(AN_EV_PRINT),	/* sysctl writes */
	};

	return an_keyed_attach(r, res, &obs, d);
}
