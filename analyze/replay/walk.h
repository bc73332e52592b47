/* SPDX-License-Identifier: MIT */
/*
 * analyze/replay/walk.h - a task-group write in progress, as the kernel walks it
 * (mainline MT5/MR5, cpu_util_update_eff(); v3 VT7/VR10).
 *
 * A write to a group's cpu.uclamp.{min,max} makes the kernel walk the
 * written group's subtree top down: each group's effective clamps are
 * updated (its uclamp_tg event), then its queued tasks are re-accounted.
 * The model takes the whole write at the first uclamp_tg. Until the walk
 * reaches a group, the kernel still holds that group's old values: a task
 * enqueued there meanwhile gets them, and a task that leaves its CPU then
 * leaves with them. The replay follows the walk (an_replay.walk) from the
 * first uclamp_tg until the writing CPU shows an event that cannot be part
 * of the walk nor of an interrupt during it.
 */
#ifndef UCVAL_ANALYZE_REPLAY_WALK_H
#define UCVAL_ANALYZE_REPLAY_WALK_H

#include <stdbool.h>

#include "analyze/read/event.h"
#include "model/model.h"

#define AN_WALK_MAX_GROUPS	64	/* groups of one subtree followed */

/**
 * struct an_walk - a group write in progress
 * @is_open: a walk is in progress
 * @cpu: the writer's CPU
 * @last: the group of the latest uclamp_tg
 * @nr: groups in @g
 * @g: the written subtree, depth first as the walk visits it: each group,
 *     its effective clamps before the write, whether the walk reached it
 */
struct an_walk {
	bool is_open;
	int cpu;
	const struct model_tg *last;
	unsigned int nr;
	struct {
		struct model_tg *tg;
		struct model_se eff[MODEL_UCLAMP_CNT];
		bool is_reached;
	} g[AN_WALK_MAX_GROUPS];
};

struct an_tgroups;

/**
 * an_walk_track() - a walk starts, reaches a group, or ends at @ev
 * @w: the walk
 * @g: the replay's task groups (a written group is created if new)
 * @sys: the model, before @ev is given to it
 * @ev: the event
 */
void an_walk_track(struct an_walk *w, struct an_tgroups *g, struct model_sys *sys,
		   const struct an_event *ev);

/**
 * an_walk_is_pending() - whether the walk in progress has yet to reach
 * @mt's group
 * @w: the walk
 * @mt: the task
 *
 * Return: true or false (no walk in progress, or a group outside it).
 */
bool an_walk_is_pending(const struct an_walk *w, const struct model_task *mt);

/**
 * an_walk_old_eff() - @mt's effective clamp @id with its group's values from
 * before the write in progress
 * @sys: the model
 * @w: the walk
 * @mt: the task (its group's values, and its counted slot, are set aside
 *	and back)
 * @id: clamp id
 * @is_unreached: only when the walk has not reached the task's group yet
 * @out: the value
 *
 * Return: true when @out was set: a walk is open and the task's group is in
 * its subtree (and not reached, with @is_unreached).
 */
bool an_walk_old_eff(const struct model_sys *sys, const struct an_walk *w,
		     struct model_task *mt, enum model_clamp_id id, bool is_unreached, int *out);

#endif
