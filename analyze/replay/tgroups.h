/* SPDX-License-Identifier: MIT */
/*
 * analyze/replay/tgroups.h - the replay's task groups: cgroup path -> model_tg.
 * Groups are few (tens); memory grows with them, never with events.
 */
#ifndef UCVAL_ANALYZE_REPLAY_TGROUPS_H
#define UCVAL_ANALYZE_REPLAY_TGROUPS_H

#include "model/model.h"

struct an_tgroups;

/**
 * an_tgroups_new() - an empty table (the root group is the model's)
 * @out: the table, freed with an_tgroups_free()
 *
 * Return: 0 or -ENOMEM.
 */
int an_tgroups_new(struct an_tgroups **out);

/**
 * an_tgroups_free() - free the table and its groups
 * @g: table, may be NULL
 */
void an_tgroups_free(struct an_tgroups *g);

/**
 * an_tgroups_get() - the group of @path, created with its parents if new
 * @g: table
 * @sys: the model (groups are created with model_tg_init(), VT5/MT5)
 * @path: cgroup path ("/", "/top-app", "top-app/sub/"); "" and "/" are
 *	  the root group
 * @out: the group, borrowed (lives as long as @g)
 *
 * Return: 0, -ENOMEM (the replay is out of memory), -EINVAL (path too
 * long), or -ENOSPC for a group the model cannot create (v3 seed, VG6;
 * the model's own -ENOMEM); then @out is the deepest parent that exists.
 */
int an_tgroups_get(struct an_tgroups *g, struct model_sys *sys, const char *path,
		   struct model_tg **out);

/**
 * an_tgroups_path() - the cgroup path of @tg
 * @g: the groups
 * @tg: a group of @g, or the root group
 *
 * Return: its path ("/" for the root group), borrowed from @g; NULL for a
 * group @g lacks.
 */
const char *an_tgroups_path(const struct an_tgroups *g, const struct model_tg *tg);

#endif /* UCVAL_ANALYZE_REPLAY_TGROUPS_H */
