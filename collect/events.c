// SPDX-License-Identifier: MIT
/*
 * collect/events.c - choose the events to record. The analyzer's alias table
 * (analyze/read/alias.c) is the list: whatever name it decodes, including every
 * out-of-tree uclamp event, is recorded when the kernel has it, so the
 * collector and the reader cannot disagree on the vocabulary.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <tracefs.h>

#include "analyze/read/alias.h"
#include "lib/vec.h"
#include "collect/events.h"

/* What each canonical type feeds (spec/events.md §4). */
static const char *const why[AN_EV__COUNT] = {
	[AN_EV_SCHED_SWITCH] = "no runqueue replay: rq_clamp and the frequency checks are undecided",
	[AN_EV_SCHED_WAKEUP] = "enqueues unseen: runnable tasks are known only when they run",
	[AN_EV_SCHED_WAKEUP_NEW] = "first enqueue of new tasks unseen",
	[AN_EV_SCHED_MIGRATE_TASK] = "migrations unseen: runqueues may be wrong after a move",
	[AN_EV_SCHED_PROCESS_FORK] = "fork inheritance of clamps (v3 VT4, mainline MA7) undecidable",
	[AN_EV_SCHED_PROCESS_EXIT] = "task exits unseen: clamp group release points unknown",
	[AN_EV_SCHED_PROCESS_FREE] = "task frees unseen: clamp group release points less precise",
	[AN_EV_CPU_FREQUENCY] = "no observed frequency: freq_below_min_clamp, freq_above_max_clamp "
				"and freq_prediction are undecided",
	[AN_EV_CPU_FREQUENCY_LIMITS] = "policy limit changes unseen: limits only from the snapshot",
	[AN_EV_CPU_IDLE] = "idle periods unseen: idle UCLAMP_MAX retention not delimited",
	[AN_EV_SYS_ENTER_SCHED_SETATTR] = "sched_setattr calls seen only through setattr markers",
	[AN_EV_SYS_EXIT_SCHED_SETATTR] = "sched_setattr results seen only through setattr markers",
	[AN_EV_UCLAMP_UTIL_CFS] = "no observed rq clamps (with uclamp_util_se): rq_clamp undecided",
	[AN_EV_UCLAMP_UTIL_SE] = "no per-task util/clamp samples",
	[AN_EV_UCLAMP_REQUEST] = "kernel-side requests unseen: request_result needs markers",
	[AN_EV_UCLAMP_TG] = "group clamp changes unseen: groups only from the snapshot",
	[AN_EV_UCLAMP_TASK_EFF] = "no effective clamps: task_effective undecided",
	[AN_EV_SCHED_PELT_CFS] = "no PELT signal (with schedutil_util, sugov_util_update): "
				 "freq_prediction undecided",
	[AN_EV_SCHED_UTIL] = "no schedutil util signal",
	[AN_EV_SUGOV_UTIL_UPDATE] = "no sugov util signal",
};

const char *col_events_why(enum an_event_type type)
{
	if ((unsigned int)type < AN_EV__COUNT && why[type])
		return why[type];
	return "not used by the analysis";
}

static int add(struct col_events *ev, const char *system, const char *name)
{
	struct col_event *e;

	for (unsigned int i = 0; i < ev->nr; i++)
		if (!strcmp(ev->ev[i].system, system) && !strcmp(ev->ev[i].name, name))
			return 0;
	if (AN_VEC_GROW(ev->ev, ev->nr + 1, ev->alloc))
		return -ENOMEM;
	e = &ev->ev[ev->nr];
	e->system = strdup(system);
	e->name = strdup(name);
	if (!e->system || !e->name) {
		free(e->system);
		free(e->name);
		return -ENOMEM;
	}
	ev->nr++;
	return 0;
}

/* The user's "system:event" or "event": found in @systems or -ENOENT. */
static int add_extra(struct col_events *ev, const char *dir, char **systems,
		     const char *spec, struct an_diag *d)
{
	const char *colon = strchr(spec, ':');
	const char *name = colon ? colon + 1 : spec;
	size_t sys_len = colon ? (size_t)(colon - spec) : 0;
	int err = 0;
	bool found = false;

	for (unsigned int s = 0; systems[s] && !err; s++) {
		char **events;

		if (colon && (strlen(systems[s]) != sys_len || strncmp(systems[s], spec, sys_len)))
			continue;
		if (!strcmp(systems[s], "ftrace"))
			continue;	/* always on, cannot be enabled */
		events = tracefs_system_events(dir, systems[s]);
		for (unsigned int i = 0; events && events[i] && !err; i++) {
			if (strcmp(events[i], name))
				continue;
			err = add(ev, systems[s], events[i]);
			found = true;
		}
		tracefs_list_free(events);
	}
	if (err)
		return an_diag_fail(d, err, "out of memory");
	if (!found)
		return an_diag_fail(d, -ENOENT, "no event '%s' on this kernel", spec);
	return 0;
}

static int cmp_event(const void *a, const void *b)
{
	const struct col_event *x = a, *y = b;
	int c = strcmp(x->system, y->system);

	return c ? c : strcmp(x->name, y->name);
}

int col_events_find(const char *tracing_dir, const char *const *extra,
		    unsigned int nr_extra, struct col_events *out, struct an_diag *d)
{
	bool seen[AN_EV__COUNT] = { false };
	char **systems;
	int err = 0;

	memset(out, 0, sizeof(*out));
	systems = tracefs_event_systems(tracing_dir);
	if (!systems)
		return an_diag_fail(d, -ENODEV, "cannot list the tracefs event systems");
	for (unsigned int s = 0; systems[s] && !err; s++) {
		char **events;

		if (!strcmp(systems[s], "ftrace"))
			continue;
		events = tracefs_system_events(tracing_dir, systems[s]);
		for (unsigned int i = 0; events && events[i] && !err; i++) {
			enum an_event_type t = an_alias_lookup(events[i], strlen(events[i]));

			if (t == AN_EV_UNKNOWN || t == AN_EV_PRINT)
				continue;
			seen[t] = true;
			err = add(out, systems[s], events[i]);
		}
		tracefs_list_free(events);
	}
	if (err) {
		an_diag_fail(d, err, "out of memory");
		goto out_free;
	}
	for (unsigned int i = 0; i < nr_extra && !err; i++)
		err = add_extra(out, tracing_dir, systems, extra[i], d);
	if (err)
		goto out_free;
	for (unsigned int t = 0; t < AN_EV__COUNT; t++)
		if (why[t] && !seen[t])
			out->missing[out->nr_missing++] = (enum an_event_type)t;
	qsort(out->ev, out->nr, sizeof(*out->ev), cmp_event);
	tracefs_list_free(systems);
	return 0;
out_free:
	tracefs_list_free(systems);
	col_events_free(out);
	return err;
}

void col_events_free(struct col_events *ev)
{
	if (!ev)
		return;
	for (unsigned int i = 0; i < ev->nr; i++) {
		free(ev->ev[i].system);
		free(ev->ev[i].name);
	}
	free(ev->ev);
	memset(ev, 0, sizeof(*ev));
}
