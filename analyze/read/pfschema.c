// SPDX-License-Identifier: MIT
/*
 * analyze/read/pfschema.c - the typed ftrace events of Perfetto's
 * FtraceEvent ucval knows: field numbers of protos/perfetto/trace/ftrace/
 * (sched.proto, power.proto, print.proto), kernel field names of the alias
 * table. Fields ucval uses nowhere (ip, success, tgid, running, load) are
 * left out: the reader skips them as unknown fields.
 */
#include <pthread.h>
#include <string.h>

#include "analyze/read/alias.h"
#include "analyze/read/pfschema.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const struct an_pf_field print_f[] = {
	{ 2, "buf", AN_PF_STRING },
};

static const struct an_pf_field switch_f[] = {
	{ 1, "prev_comm", AN_PF_STRING },
	{ 2, "prev_pid", AN_PF_INT32 },
	{ 3, "prev_prio", AN_PF_INT32 },
	{ 4, "prev_state", AN_PF_INT64 },
	{ 5, "next_comm", AN_PF_STRING },
	{ 6, "next_pid", AN_PF_INT32 },
	{ 7, "next_prio", AN_PF_INT32 },
};

/* sched_wakeup, sched_waking, sched_wakeup_new: one layout */
static const struct an_pf_field wakeup_f[] = {
	{ 1, "comm", AN_PF_STRING },
	{ 2, "pid", AN_PF_INT32 },
	{ 3, "prio", AN_PF_INT32 },
	{ 5, "target_cpu", AN_PF_INT32 },
};

static const struct an_pf_field freq_f[] = {
	{ 1, "state", AN_PF_UINT32 },
	{ 2, "cpu_id", AN_PF_UINT32 },
};

static const struct an_pf_field limits_f[] = {
	{ 1, "min_freq", AN_PF_UINT32 },
	{ 2, "max_freq", AN_PF_UINT32 },
	{ 3, "cpu_id", AN_PF_UINT32 },
};

static const struct an_pf_field idle_f[] = {
	{ 1, "state", AN_PF_UINT32 },
	{ 2, "cpu_id", AN_PF_UINT32 },
};

static const struct an_pf_field exit_f[] = {
	{ 1, "comm", AN_PF_STRING },
	{ 2, "pid", AN_PF_INT32 },
	{ 4, "prio", AN_PF_INT32 },
};

static const struct an_pf_field fork_f[] = {
	{ 1, "parent_comm", AN_PF_STRING },
	{ 2, "parent_pid", AN_PF_INT32 },
	{ 3, "child_comm", AN_PF_STRING },
	{ 4, "child_pid", AN_PF_INT32 },
};

static const struct an_pf_field free_f[] = {
	{ 1, "comm", AN_PF_STRING },
	{ 2, "pid", AN_PF_INT32 },
	{ 3, "prio", AN_PF_INT32 },
};

static const struct an_pf_field migrate_f[] = {
	{ 1, "comm", AN_PF_STRING },
	{ 2, "pid", AN_PF_INT32 },
	{ 3, "prio", AN_PF_INT32 },
	{ 4, "orig_cpu", AN_PF_INT32 },
	{ 5, "dest_cpu", AN_PF_INT32 },
};

/* Pixel vendor events: no canonical type uses them (counted by name) */
static const struct an_pf_field cpu_util_cfs_f[] = {
	{ 2, "capacity", AN_PF_UINT64 },
	{ 3, "capacity_orig", AN_PF_UINT64 },
	{ 4, "cpu", AN_PF_UINT32 },
	{ 6, "cpu_util", AN_PF_UINT64 },
};

static const struct an_pf_field task_attr_f[] = {
	{ 1, "pid", AN_PF_INT32 },
	{ 2, "cpu_affinity", AN_PF_UINT64 },
	{ 3, "task_util", AN_PF_UINT64 },
	{ 4, "uclamp_min", AN_PF_UINT64 },
	{ 5, "vruntime", AN_PF_UINT64 },
};

#define EV(id, name, type, f) { id, name, AN_EV_##type, f, ARRAY_SIZE(f) }

/* Ascending by id (an_pfschema_by_id() searches it in halves). */
static const struct an_pf_event events[] = {
	EV(3,	"print",		PRINT,			print_f),
	EV(4,	"sched_switch",		SCHED_SWITCH,		switch_f),
	EV(11,	"cpu_frequency",	CPU_FREQUENCY,		freq_f),
	EV(12,	"cpu_frequency_limits",	CPU_FREQUENCY_LIMITS,	limits_f),
	EV(13,	"cpu_idle",		CPU_IDLE,		idle_f),
	EV(17,	"sched_wakeup",		SCHED_WAKEUP,		wakeup_f),
	EV(20,	"sched_waking",		SCHED_WAKING,		wakeup_f),
	EV(114,	"sched_wakeup_new",	SCHED_WAKEUP_NEW,	wakeup_f),
	EV(238,	"sched_process_exit",	SCHED_PROCESS_EXIT,	exit_f),
	EV(239,	"sched_process_fork",	SCHED_PROCESS_FORK,	fork_f),
	EV(240,	"sched_process_free",	SCHED_PROCESS_FREE,	free_f),
	EV(421,	"sched_cpu_util_cfs",	UNKNOWN,		cpu_util_cfs_f),
	EV(491,	"sched_migrate_task",	SCHED_MIGRATE_TASK,	migrate_f),
	EV(540,	"sched_wakeup_task_attr", UNKNOWN,		task_attr_f),
};

const struct an_pf_event *an_pfschema_by_id(uint32_t id)
{
	size_t lo = 0, hi = ARRAY_SIZE(events);

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (events[mid].id == id)
			return &events[mid];
		if (events[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const struct an_pf_event *an_pfschema_by_name(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(events); i++)
		if (!strcmp(events[i].name, name))
			return &events[i];
	return NULL;
}

const struct an_pf_field *an_pfschema_field(const struct an_pf_event *e, uint32_t number)
{
	for (unsigned int i = 0; i < e->nr_fields; i++)
		if (e->fields[i].number == number)
			return &e->fields[i];
	return NULL;
}

/* The widest event of the table has this many fields. */
#define MAX_FIELDS	8

/*
 * Each field's row in the alias table of its event's type, looked up by
 * name once for the process instead of at every field of every event.
 */
static signed char alias_ix[ARRAY_SIZE(events)][MAX_FIELDS];
static pthread_once_t alias_once = PTHREAD_ONCE_INIT;

static void alias_init(void)
{
	for (size_t e = 0; e < ARRAY_SIZE(events); e++)
		for (unsigned int i = 0; i < events[e].nr_fields && i < MAX_FIELDS; i++) {
			const char *name = events[e].fields[i].name;

			alias_ix[e][i] = (signed char)an_alias_field_index(events[e].type, name,
									   strlen(name));
		}
}

int an_pfschema_alias(const struct an_pf_event *e, const struct an_pf_field *f)
{
	size_t ei = (size_t)(e - events), fi = (size_t)(f - e->fields);

	if (ei >= ARRAY_SIZE(events) || fi >= MAX_FIELDS)
		return an_alias_field_index(e->type, f->name, strlen(f->name));
	pthread_once(&alias_once, alias_init);
	return alias_ix[ei][fi];
}

const struct an_pf_event *an_pfschema_at(unsigned int i)
{
	return i < ARRAY_SIZE(events) ? &events[i] : NULL;
}
