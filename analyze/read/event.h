/* SPDX-License-Identifier: MIT */
/*
 * analyze/read/event.h - the canonical trace event the replay consumes.
 *
 * Every reader (trace.dat, ftrace text, systrace HTML) decodes its records by
 * field name through the alias table (alias.c) into this one struct, so the
 * replay never sees a format, an out-of-tree event name or a field order
 * (spec/events.md §2).
 */
#ifndef UCVAL_ANALYZE_READ_EVENT_H
#define UCVAL_ANALYZE_READ_EVENT_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analyze/read/marker.h"

/* X(type, canonical name): every event type the readers produce. */
#define AN_EVENT_TYPES(X)						\
	X(UNKNOWN,		"unknown")				\
	X(SCHED_SWITCH,		"sched_switch")				\
	X(SCHED_WAKEUP,		"sched_wakeup")				\
	X(SCHED_WAKEUP_NEW,	"sched_wakeup_new")			\
	X(SCHED_MIGRATE_TASK,	"sched_migrate_task")			\
	X(SCHED_PROCESS_FORK,	"sched_process_fork")			\
	X(SCHED_PROCESS_EXIT,	"sched_process_exit")			\
	X(SCHED_PROCESS_FREE,	"sched_process_free")			\
	X(CPU_FREQUENCY,	"cpu_frequency")			\
	X(CPU_FREQUENCY_LIMITS,	"cpu_frequency_limits")			\
	X(CPU_IDLE,		"cpu_idle")				\
	X(PRINT,		"print")				\
	X(SYS_ENTER_SCHED_SETATTR, "sys_enter_sched_setattr")		\
	X(SYS_EXIT_SCHED_SETATTR, "sys_exit_sched_setattr")		\
	X(UCLAMP_UTIL_CFS,	"uclamp_util_cfs")			\
	X(UCLAMP_UTIL_SE,	"uclamp_util_se")			\
	X(UCLAMP_REQUEST,	"uclamp_request")			\
	X(UCLAMP_TG,		"uclamp_tg")				\
	X(UCLAMP_TASK_EFF,	"uclamp_task_eff")			\
	X(SCHED_PELT_CFS,	"sched_pelt_cfs")			\
	X(SCHED_UTIL,		"schedutil_util")			\
	X(SUGOV_UTIL_UPDATE,	"sugov_util_update")			\
	X(SCHED_PELT_SE,	"sched_pelt_se")			\
	X(SCHED_UTIL_EST_CFS,	"sched_util_est_cfs")			\
	X(SCHED_UTIL_EST_SE,	"sched_util_est_se")			\
	X(SCHED_CPU_CAPACITY,	"sched_cpu_capacity")			\
	X(SCHED_QUEUE_TASK,	"sched_queue_task")			\
	X(SCHED_TASK_UCLAMP,	"sched_task_uclamp")			\
	X(LOST_EVENTS,		"lost_events")				\
	X(SCHED_WAKING,		"sched_waking")

enum an_event_type {
#define AN_EV_ENUM(type, name) AN_EV_##type,
	AN_EVENT_TYPES(AN_EV_ENUM)
#undef AN_EV_ENUM
	AN_EV__COUNT
};

/* Bit of @type in a set of event types (an_reader_info.ev_listed, ...). */
#define AN_EV_BIT(type)		(UINT64_C(1) << (type))
_Static_assert(AN_EV__COUNT <= 64, "event type sets are 64-bit masks");

#define AN_STATE_LEN	32		/* prev_state letters: "R+", "D|W", ... */
#define AN_PRIO_NONE	INT_MIN		/* prio not in the trace (-1 is a DL task) */
#define AN_IDLE_EXIT	4294967295u	/* cpu_idle state of an idle exit, (u32)-1 */

/* Task fields of sched events; prio tells the class (<100 RT, -1 DL). */
struct an_ev_switch {
	char prev_comm[AN_COMM_LEN];
	int prev_pid;
	int prev_prio;
	char prev_state[AN_STATE_LEN];	/* kernel letters, '+' = preempted */
	char next_comm[AN_COMM_LEN];
	int next_pid;
	int next_prio;
};

struct an_ev_wakeup {			/* SCHED_WAKEUP, SCHED_WAKEUP_NEW, SCHED_WAKING */
	char comm[AN_COMM_LEN];
	int pid;
	int prio;
	int target_cpu;
};

struct an_ev_migrate {
	char comm[AN_COMM_LEN];
	int pid;
	int prio;
	int orig_cpu;
	int dest_cpu;
};

struct an_ev_fork {
	char parent_comm[AN_COMM_LEN];
	int parent_pid;
	char child_comm[AN_COMM_LEN];
	int child_pid;
};

struct an_ev_task {			/* SCHED_PROCESS_EXIT, SCHED_PROCESS_FREE */
	char comm[AN_COMM_LEN];
	int pid;
	int prio;
};

/*
 * CPU_FREQUENCY: cpu_frequency (one CPU), or policy_frequency (the policy's
 * CPUs at once: cpu_id is policy->cpu, @cpus its CPUs 0..63)
 */
struct an_ev_freq {
	unsigned int freq_khz;
	int cpu_id;
	unsigned long long cpus;	/* bit n: CPU n; 0 when absent (cpu_frequency) */
};

struct an_ev_limits {			/* CPU_FREQUENCY_LIMITS */
	unsigned int min_khz;
	unsigned int max_khz;
	int cpu_id;
};

struct an_ev_idle {			/* CPU_IDLE */
	unsigned int state;		/* AN_IDLE_EXIT on exit */
	int cpu_id;
};

/*
 * PRINT: @text is borrowed from the reader, valid until the next call of
 * an_reader_next(); it has no trailing newline and no "tracing_mark_write: ".
 */
struct an_ev_print {
	const char *text;
	size_t len;
	struct an_marker marker;	/* kind AN_MARKER_NONE: not a marker */
};

struct an_ev_setattr_enter {
	int pid;			/* target; 0 means the caller (common pid) */
	unsigned int flags;		/* the syscall's flags argument */
};

struct an_ev_setattr_exit {
	long long ret;
};

struct an_ev_util_cfs {			/* UCLAMP_UTIL_CFS: rq aggregated clamps */
	int cpu;
	unsigned int util_avg;
	unsigned int uclamp_avg;
	unsigned int uclamp_min;
	unsigned int uclamp_max;
};

struct an_ev_util_se {			/* UCLAMP_UTIL_SE */
	char comm[AN_COMM_LEN];
	int pid;
	int cpu;
	unsigned int util_avg;
	unsigned int uclamp_avg;
	unsigned int uclamp_min;
	unsigned int uclamp_max;
};

struct an_ev_request {			/* UCLAMP_REQUEST */
	char comm[AN_COMM_LEN];
	int pid;
	int clamp_id;			/* 0 UCLAMP_MIN, 1 UCLAMP_MAX */
	unsigned int value;
	int ret;			/* 0 when the trace has no ret */
};

struct an_ev_tg {			/* UCLAMP_TG */
	char path[AN_PATH_LEN];
	int clamp_id;
	unsigned int value;
	unsigned int effective;
};

struct an_ev_task_eff {			/* UCLAMP_TASK_EFF */
	char comm[AN_COMM_LEN];
	int pid;
	int clamp_id;
	unsigned int value;
	unsigned int effective;
	int group_id;			/* group_id or bucket_id, -1 if absent */
};

struct an_ev_pelt_cfs {			/* SCHED_PELT_CFS; path "/" is the root rq */
	int cpu;
	char path[AN_PATH_LEN];
	unsigned int util;
};

struct an_ev_sched_util {		/* SCHED_UTIL (schedutil_util) */
	int cpu;
	unsigned int util_cfs;
	unsigned int util_rt;		/* 0 when absent, see event present bits */
	unsigned int util_clamp;
	unsigned int util_max;
	long long time;			/* rq clock of the evaluation, -1 absent */
};

/*
 * SUGOV_UTIL_UPDATE: a schedutil evaluation of @cpu (sugov_util_update), or
 * of the policy whose first CPU is @cpu (sugov_next_freq: @util is then the
 * policy's, @freq the raw target before the OPP is chosen)
 */
struct an_ev_sugov_util {
	int cpu;
	unsigned int util;
	unsigned int max_cap;		/* max_cap or max */
	unsigned int flags;
	unsigned int freq;		/* kHz, sugov_next_freq only; 0 when absent */
};

struct an_ev_pelt_se {			/* SCHED_PELT_SE: a task's PELT signals */
	int cpu;
	char path[AN_PATH_LEN];		/* its task group */
	char comm[AN_COMM_LEN];
	int pid;
	unsigned int util;		/* util_avg */
};

/*
 * SCHED_UTIL_EST_CFS (a runqueue of @path, "/" the root) and
 * SCHED_UTIL_EST_SE (task @pid): the estimated utilization. Up to 6.7
 * util_est is the pair enqueued/ewma; from 6.8 one value (the "_unified"
 * events' util_est), kept in @enqueued.
 */
struct an_ev_util_est {
	int cpu;
	char path[AN_PATH_LEN];
	char comm[AN_COMM_LEN];		/* _SE only */
	int pid;			/* _SE only */
	unsigned int enqueued;		/* enqueued, or util_est (6.8+) */
	unsigned int ewma;		/* 0 when absent (6.8+) */
	unsigned int util;		/* util_avg, 0 when absent */
};

struct an_ev_capacity {			/* SCHED_CPU_CAPACITY */
	int cpu;
	unsigned int capacity;		/* rq->cpu_capacity: what is left for CFS */
	unsigned int capacity_orig;	/* arch_scale_cpu_capacity(), 0 when absent */
	unsigned int capacity_curr;	/* at the current frequency (LISA), 0 absent */
};

/*
 * SCHED_QUEUE_TASK (MediaTek): task @pid enqueued on (@enqueue 1) or
 * dequeued from (-1) the runqueue of @cpu, from the vendor hook of
 * enqueue_task()/dequeue_task(): after uclamp_rq_inc()/uclamp_rq_dec(), before
 * the class's own enqueue and before the sched event that shows it
 */
struct an_ev_queue_task {
	int cpu;
	int pid;
	int enqueue;
	unsigned int cfs_util;		/* max(util_avg, util_est) of the root, before */
	unsigned int rq_min;		/* rq->uclamp[UCLAMP_MIN].value after it */
	unsigned int rq_max;		/* rq->uclamp[UCLAMP_MAX].value after it */
	unsigned int task_min;		/* p->uclamp[]: the task's effective clamps */
	unsigned int task_max;
};

/*
 * SCHED_TASK_UCLAMP (MediaTek): a task's effective clamps (valid while
 * @active: counted on a runqueue) and its requests (@min_req, @max_req,
 * set by the user when @min_ud, @max_ud)
 */
struct an_ev_task_uclamp {
	int pid;
	unsigned int util;		/* max(util_avg, util_est) */
	unsigned int active;		/* 1 when absent */
	unsigned int eff_min;
	unsigned int eff_max;
	unsigned int min_ud;
	unsigned int min_req;
	unsigned int max_ud;
	unsigned int max_req;
};

struct an_ev_lost {			/* LOST_EVENTS, before the event at ts_ns */
	unsigned long long count;	/* 0 when the trace does not say */
	bool is_unplaced;		/* somewhere in the trace, not before ts_ns: the
					 * buffer statistics count them, no page does
					 * (trace.dat; given before the first event) */
};

/**
 * struct an_event - one decoded trace event
 * @type: canonical type, AN_EV_UNKNOWN for events ucval does not use
 * @name: raw event name as in the trace, borrowed, valid until the next
 *	  an_reader_next()
 * @ts_ns: timestamp on the trace's own clock, in ns
 * @cpu: CPU whose buffer held the event (for LOST_EVENTS: the CPU that lost)
 * @pid: common_pid, the task that was running when the event was written
 * @pos: 1-based text line or trace.dat record index, for diagnostics
 * @present: bit i set when field i of the type's alias row was in the record
 *	     (an_alias_field_name() names them); absent optional fields hold
 *	     their defaults
 *
 * Only the union member of @type is meaningful.
 */
struct an_event {
	enum an_event_type type;
	const char *name;
	uint64_t ts_ns;
	int cpu;
	int pid;
	unsigned long long pos;
	uint32_t present;
	union {
		struct an_ev_switch sw;
		struct an_ev_wakeup wakeup;
		struct an_ev_migrate migrate;
		struct an_ev_fork fork;
		struct an_ev_task task;
		struct an_ev_freq freq;
		struct an_ev_limits limits;
		struct an_ev_idle idle;
		struct an_ev_print print;
		struct an_ev_setattr_enter setattr_enter;
		struct an_ev_setattr_exit setattr_exit;
		struct an_ev_util_cfs util_cfs;
		struct an_ev_util_se util_se;
		struct an_ev_request request;
		struct an_ev_tg tg;
		struct an_ev_task_eff task_eff;
		struct an_ev_pelt_cfs pelt_cfs;
		struct an_ev_sched_util sched_util;
		struct an_ev_sugov_util sugov;
		struct an_ev_pelt_se pelt_se;
		struct an_ev_util_est util_est;
		struct an_ev_capacity capacity;
		struct an_ev_queue_task queue;
		struct an_ev_task_uclamp task_uclamp;
		struct an_ev_lost lost;
	};
};

/**
 * an_event_type_name() - canonical name of @type ("sched_pelt_cfs")
 * @type: event type
 *
 * Return: a static string.
 */
const char *an_event_type_name(enum an_event_type type);

/**
 * an_comm_set() - keep the task name @comm in @dst, when given
 * @dst: AN_COMM_LEN bytes, NUL-terminated
 * @comm: the name from an event, "" or NULL when none
 *
 * Compares first: names rarely change, and this runs for most events.
 *
 * Return: true when @dst changed.
 */
bool an_comm_set(char dst[AN_COMM_LEN], const char *comm);

/**
 * an_comm_has_prefix() - whether task name @comm starts with @prefix
 * @comm: NUL-terminated name
 * @prefix: NUL-terminated prefix
 *
 * Inline, byte by byte: most names differ at their first or second byte,
 * and this runs for the names of most sched_switch events.
 *
 * Return: true or false.
 */
static inline bool an_comm_has_prefix(const char *comm, const char *prefix)
{
	for (; *prefix; comm++, prefix++)
		if (*comm != *prefix)
			return false;
	return true;
}

/**
 * an_event_state_is_runnable() - whether a prev_state leaves the task runnable
 * @state: prev_state letters of a sched_switch ("R", "R+", "S", "D|K", ...)
 *
 * Return: true for "R" and "R+" (preempted): the task stays on the runqueue.
 */
bool an_event_state_is_runnable(const char *state);

/**
 * an_event_is_enqueue() - whether events of @type show a task queued on a
 * CPU (sched_wakeup, sched_wakeup_new, sched_migrate_task): the kernel has
 * done the enqueue, and what schedutil did inside it, before the event
 * @type: canonical type
 *
 * Return: true or false.
 */
bool an_event_is_enqueue(enum an_event_type type);

#endif /* UCVAL_ANALYZE_READ_EVENT_H */
