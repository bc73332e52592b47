/* SPDX-License-Identifier: MIT */
/*
 * analyze/evlist.h - which events a trace recorded, in words, for its
 * summary (the table, the JSON document, the database's traces row).
 *
 * An event type counts as recorded once the trace showed one event of it:
 * ftrace text has no list of the events that were enabled. A type the
 * capture's own list lacks (a trace.dat's saved event formats, a text's
 * "# enabled events:" header) was not recorded, for certain.
 */
#ifndef UCVAL_ANALYZE_EVLIST_H
#define UCVAL_ANALYZE_EVLIST_H

#include <stddef.h>

#include "analyze/analyze.h"

/*
 * The scheduler events whose absence changes what the replay can tell
 * (docs/analyze.md, "What a capture did not record"): the summary names
 * those a trace lacks.
 */
#define AN_EVLIST_FOLLOWED						\
	(AN_EV_BIT(AN_EV_SCHED_SWITCH) | AN_EV_BIT(AN_EV_SCHED_WAKEUP) |	\
	 AN_EV_BIT(AN_EV_SCHED_WAKEUP_NEW) | AN_EV_BIT(AN_EV_SCHED_MIGRATE_TASK) | \
	 AN_EV_BIT(AN_EV_SCHED_PROCESS_FORK) | AN_EV_BIT(AN_EV_SCHED_PROCESS_EXIT) | \
	 AN_EV_BIT(AN_EV_SCHED_PROCESS_FREE) | AN_EV_BIT(AN_EV_CPU_IDLE))

/* Room for every canonical event name, space separated. */
#define AN_EVLIST_NAMES_LEN	640

/* Which event types an_evlist_names() names. */
enum an_evlist_which {
	AN_EVLIST_RECORDED,	/* every type with at least one event */
	AN_EVLIST_MISSING,	/* the followed types without any */
	AN_EVLIST_UNLISTED,	/* of those, the ones the capture's list lacks */
};

/**
 * an_evlist_has() - whether a trace's summary puts @type in @which
 * @s: the summary
 * @which: the set
 * @type: a canonical event type
 *
 * Return: true or false.
 */
bool an_evlist_has(const struct an_summary *s, enum an_evlist_which which,
		   enum an_event_type type);

/**
 * an_evlist_names() - the canonical names of the event types of @which
 * @s: the trace's summary
 * @which: the set
 * @buf: receives the names, space separated, in the order of
 *	 AN_EVENT_TYPES ("" when none)
 * @len: its room (> 0); names that do not fit are left out
 *
 * Return: how many names it wrote.
 */
unsigned int an_evlist_names(const struct an_summary *s, enum an_evlist_which which, char *buf,
			     size_t len);

/**
 * an_evlist_evidence() - what tells a trace's recorded events, in words
 * @s: the trace's summary
 *
 * Return: a static string: "events seen" (ftrace text: no list),
 * "events seen, saved event formats" (trace.dat), "events seen, enabled
 * events header" (a text's "# enabled events:").
 */
const char *an_evlist_evidence(const struct an_summary *s);

/**
 * an_evlist_list_name() - the capture's own list of events, in words
 * @s: the trace's summary
 *
 * Return: a static string, "saved event formats" or "enabled events", or
 * NULL when the capture has no list.
 */
const char *an_evlist_list_name(const struct an_summary *s);

#endif /* UCVAL_ANALYZE_EVLIST_H */
