/* SPDX-License-Identifier: MIT */
/*
 * collect/events.h - which tracefs events ucval records (spec/events.md §2):
 * every event the analyzer's alias table knows, plus the user's -e events,
 * and what the analysis cannot decide without each missing one.
 */
#ifndef UCVAL_COLLECT_EVENTS_H
#define UCVAL_COLLECT_EVENTS_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/diag.h"
#include "analyze/read/event.h"

/**
 * struct col_event - one tracefs event to record
 * @system: its system ("sched")
 * @name: its name ("sched_switch")
 */
struct col_event {
	char *system;
	char *name;
};

/**
 * struct col_events - the events chosen on this kernel
 * @ev: events to enable, sorted by system
 * @nr: how many
 * @alloc: allocated rows
 * @missing: canonical types no event of this kernel provides
 * @nr_missing: how many
 */
struct col_events {
	struct col_event *ev;
	unsigned int nr;
	size_t alloc;
	enum an_event_type missing[AN_EV__COUNT];
	unsigned int nr_missing;
};

/**
 * col_events_find() - choose the events to record from a tracefs directory
 * @tracing_dir: tracefs mount point, NULL for the default one
 * @extra: "system:event" or "event" names the user added (-e), may be NULL
 * @nr_extra: how many
 * @out: result, to be released with col_events_free()
 * @d: diagnostic on failure (an unknown -e event names it)
 *
 * Return: 0, -ENOENT for an -e event this kernel does not have, -ENOMEM, or
 * -ENODEV when the events directory cannot be listed.
 */
int col_events_find(const char *tracing_dir, const char *const *extra,
		    unsigned int nr_extra, struct col_events *out, struct an_diag *d);

/**
 * col_events_free() - release what col_events_find() allocated
 * @ev: the set, may be NULL; it is zeroed
 */
void col_events_free(struct col_events *ev);

/**
 * col_events_why() - what the analysis cannot decide without @type
 * @type: a canonical type listed in col_events.missing
 *
 * Return: a static sentence, lower case, without a full stop.
 */
const char *col_events_why(enum an_event_type type);

#endif /* UCVAL_COLLECT_EVENTS_H */
