// SPDX-License-Identifier: MIT
/*
 * analyze/replay/walk.c - a task-group write in progress (walk.h).
 */
#include <string.h>

#include "analyze/replay/tgroups.h"
#include "analyze/replay/walk.h"

static int walk_find(const struct an_walk *w, const struct model_tg *tg)
{
	for (unsigned int i = 0; i < w->nr; i++)
		if (w->g[i].tg == tg)
			return (int)i;
	return -1;
}

/* Snapshot @tg's subtree, depth first, as the walk will visit it. */
static void walk_start(struct an_walk *w, struct model_tg *tg, int cpu)
{
	struct model_tg *top = tg, *g = tg;

	w->is_open = true;
	w->cpu = cpu;
	w->nr = 0;
	while (g && w->nr < AN_WALK_MAX_GROUPS) {
		w->g[w->nr].tg = g;
		memcpy(w->g[w->nr].eff, g->eff, sizeof(g->eff));
		w->g[w->nr].is_reached = false;
		w->nr++;
		if (g->child) {
			g = g->child;
			continue;
		}
		while (g != top && !g->sibling)
			g = g->parent;
		g = g == top ? NULL : g->sibling;
	}
}

/*
 * Events the writing CPU may show while it walks: the walk's own, and an
 * interrupt's there (a tick or timer evaluates schedutil, may switch the
 * frequency, and wakes tasks: sched_waking, then the enqueue).
 */
static bool is_walk_event(enum an_event_type type)
{
	switch (type) {
	case AN_EV_UCLAMP_TG:
	case AN_EV_UCLAMP_TASK_EFF:
	case AN_EV_UCLAMP_UTIL_SE:
	case AN_EV_UCLAMP_UTIL_CFS:
	case AN_EV_SCHED_UTIL:
	case AN_EV_SCHED_PELT_CFS:
	case AN_EV_SUGOV_UTIL_UPDATE:
	case AN_EV_CPU_FREQUENCY:
	case AN_EV_SCHED_PELT_SE:
	case AN_EV_SCHED_UTIL_EST_CFS:
	case AN_EV_SCHED_UTIL_EST_SE:
	case AN_EV_SCHED_CPU_CAPACITY:
	case AN_EV_SCHED_QUEUE_TASK:	/* inside the enqueue of a wakeup */
	case AN_EV_SCHED_TASK_UCLAMP:
	case AN_EV_SCHED_WAKING:
		return true;
	default:
		return an_event_is_enqueue(type);
	}
}

void an_walk_track(struct an_walk *w, struct an_tgroups *g, struct model_sys *sys,
		   const struct an_event *ev)
{
	struct model_tg *tg;
	int i;

	if (ev->type != AN_EV_UCLAMP_TG) {
		if (w->is_open && ev->cpu == w->cpu && !is_walk_event(ev->type))
			w->is_open = false;
		return;
	}
	if (an_tgroups_get(g, sys, ev->tg.path, &tg) || !tg->parent)
		return;
	i = w->is_open && ev->cpu == w->cpu ? walk_find(w, tg) : -1;
	/* the top again, not as the next clamp id of the same group: a new write */
	if (i < 0 || (i == 0 && w->last != tg)) {
		walk_start(w, tg, ev->cpu);
		i = 0;
	}
	w->g[i].is_reached = true;
	w->last = tg;
}

bool an_walk_is_pending(const struct an_walk *w, const struct model_task *mt)
{
	int i = w->is_open ? walk_find(w, mt->tg) : -1;

	return i >= 0 && !w->g[i].is_reached;
}

bool an_walk_old_eff(const struct model_sys *sys, const struct an_walk *w,
		     struct model_task *mt, enum model_clamp_id id, bool is_unreached, int *out)
{
	struct model_se now[MODEL_UCLAMP_CNT];
	int i = w->is_open ? walk_find(w, mt->tg) : -1;
	int slot = mt->acc_slot[id];

	if (i < 0 || (is_unreached && w->g[i].is_reached))
		return false;
	/* computed, as at an enqueue: not the value a counted task holds */
	memcpy(now, mt->tg->eff, sizeof(now));
	memcpy(mt->tg->eff, w->g[i].eff, sizeof(now));
	mt->acc_slot[id] = MODEL_NV;
	*out = model_task_eff(sys, mt, id, NULL);
	mt->acc_slot[id] = slot;
	memcpy(mt->tg->eff, now, sizeof(now));
	return true;
}
