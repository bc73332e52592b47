/* SPDX-License-Identifier: MIT */
/*
 * analyze/read/marker.h - ucval markers written to trace_marker (spec/events.md §3).
 *
 * One marker per print event: "ucval: <kind> key=value ...". Values are typed
 * per kind; a key that is absent stays absent (its bit in @present is clear),
 * nothing is invented. rt-app's "rtapp_attrs: event=uclamp ..." is a setattr.
 */
#ifndef UCVAL_ANALYZE_READ_MARKER_H
#define UCVAL_ANALYZE_READ_MARKER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/diag.h"

/* Shared with event.h: sizes of task names and cgroup paths, NUL included. */
#define AN_COMM_LEN		16	/* TASK_COMM_LEN of the kernel */
#define AN_PATH_LEN		256	/* cgroup paths; a longer one is an error */
#define AN_MARKER_STR_LEN	80	/* kernel release, governor name */
#define AN_MARKER_MAX_FREQS	64	/* OPPs of one policy; real SoCs have < 30 */

enum an_marker_kind {
	AN_MARKER_NONE = 0,	/* not a marker, or a kind ucval does not know */
	AN_MARKER_PLATFORM,
	AN_MARKER_CPU,
	AN_MARKER_SYSCTL,
	AN_MARKER_TASK,
	AN_MARKER_CGROUP,
	AN_MARKER_SETATTR,
};

enum an_model {
	AN_MODEL_UNKNOWN = 0,
	AN_MODEL_V3,		/* the uclamp v3 series (uclamp-v3.md) */
	AN_MODEL_MAINLINE,	/* mainline uclamp (uclamp-mainline.md) */
};

/* Scheduling policies, with the kernel's SCHED_* numbers. */
enum an_policy {
	AN_POLICY_NORMAL = 0,
	AN_POLICY_FIFO = 1,
	AN_POLICY_RR = 2,
	AN_POLICY_BATCH = 3,
	AN_POLICY_IDLE = 5,
	AN_POLICY_DEADLINE = 6,
};

/* Value types of marker keys. */
enum an_marker_type {
	AN_MT_U32,	/* decimal, 0..UINT32_MAX */
	AN_MT_I32,	/* decimal, may be negative (ret) */
	AN_MT_BOOL,	/* 0 or 1 */
	AN_MT_FLAGS,	/* 64-bit word, decimal or 0x hex */
	AN_MT_STR,	/* percent-decoded, < AN_MARKER_STR_LEN */
	AN_MT_COMM,	/* percent-decoded, < AN_COMM_LEN */
	AN_MT_PATH,	/* percent-decoded, < AN_PATH_LEN */
	AN_MT_FREQS,	/* comma separated kHz, strictly ascending */
	AN_MT_MODEL,	/* v3, mainline */
	AN_MT_POLICY,	/* SCHED_NORMAL ... SCHED_DEADLINE */
};

/*
 * AN_MARKER_KEYS - the marker grammar: X(id, kind, key, type, member).
 * Adding a key is one row here (and its member in struct an_marker).
 */
#define AN_MARKER_KEYS(X)							\
	X(PLATFORM_CPUS,	PLATFORM, "cpus",	U32,	platform.cpus)		\
	X(PLATFORM_MODEL,	PLATFORM, "model",	MODEL,	platform.model)		\
	X(PLATFORM_TASK_GROUP,	PLATFORM, "task_group",	BOOL,	platform.task_group)	\
	X(PLATFORM_INVARIANT,	PLATFORM, "invariant",	BOOL,	platform.invariant)	\
	X(PLATFORM_GROUPS,	PLATFORM, "groups",	U32,	platform.groups)	\
	X(PLATFORM_SCALE,	PLATFORM, "scale",	U32,	platform.scale)		\
	X(PLATFORM_TICK_US,	PLATFORM, "tick_us",	U32,	platform.tick_us)	\
	X(PLATFORM_KERNEL,	PLATFORM, "kernel",	STR,	platform.kernel)	\
	X(CPU_CPU,		CPU,	  "cpu",	U32,	cpu.cpu)		\
	X(CPU_POLICY,		CPU,	  "policy",	U32,	cpu.policy)		\
	X(CPU_CAPACITY,		CPU,	  "capacity",	U32,	cpu.capacity)		\
	X(CPU_FREQS,		CPU,	  "freqs",	FREQS,	cpu.freqs_khz)		\
	X(CPU_MIN,		CPU,	  "min",	U32,	cpu.min_khz)		\
	X(CPU_MAX,		CPU,	  "max",	U32,	cpu.max_khz)		\
	X(CPU_CUR,		CPU,	  "cur",	U32,	cpu.cur_khz)		\
	X(CPU_RATE_LIMIT_US,	CPU,	  "rate_limit_us", U32,	cpu.rate_limit_us)	\
	X(CPU_GOVERNOR,		CPU,	  "governor",	STR,	cpu.governor)		\
	X(SYSCTL_UTIL_MIN,	SYSCTL,	  "util_min",	U32,	sysctl.util_min)	\
	X(SYSCTL_UTIL_MAX,	SYSCTL,	  "util_max",	U32,	sysctl.util_max)	\
	X(SYSCTL_UTIL_MIN_RT,	SYSCTL,	  "util_min_rt_default", U32, sysctl.util_min_rt_default) \
	X(TASK_PID,		TASK,	  "pid",	U32,	task.pid)		\
	X(TASK_COMM,		TASK,	  "comm",	COMM,	task.comm)		\
	X(TASK_UTIL_MIN,	TASK,	  "util_min",	U32,	task.util_min)		\
	X(TASK_UTIL_MAX,	TASK,	  "util_max",	U32,	task.util_max)		\
	X(TASK_CGROUP,		TASK,	  "cgroup",	PATH,	task.cgroup)		\
	X(TASK_POLICY,		TASK,	  "policy",	POLICY,	task.policy)		\
	X(TASK_RESET_ON_FORK,	TASK,	  "reset_on_fork", BOOL, task.reset_on_fork)	\
	X(CGROUP_PATH,		CGROUP,	  "path",	PATH,	cgroup.path)		\
	X(CGROUP_UTIL_MIN,	CGROUP,	  "util_min",	U32,	cgroup.util_min)	\
	X(CGROUP_UTIL_MAX,	CGROUP,	  "util_max",	U32,	cgroup.util_max)	\
	X(SETATTR_PID,		SETATTR,  "pid",	U32,	setattr.pid)		\
	X(SETATTR_UTIL_MIN,	SETATTR,  "util_min",	U32,	setattr.util_min)	\
	X(SETATTR_UTIL_MAX,	SETATTR,  "util_max",	U32,	setattr.util_max)	\
	X(SETATTR_FLAGS,	SETATTR,  "flags",	FLAGS,	setattr.flags)		\
	X(SETATTR_RET,		SETATTR,  "ret",	I32,	setattr.ret)

/* Key ids: bit (1 << id) of struct an_marker.present. */
enum an_marker_key {
#define AN_MK_ENUM(id, kind, key, type, member) AN_MK_##id,
	AN_MARKER_KEYS(AN_MK_ENUM)
#undef AN_MK_ENUM
	AN_MK__COUNT
};

/**
 * struct an_marker - one decoded marker
 * @kind: what it describes, AN_MARKER_NONE when the text is not a marker
 * @present: bit (1 << AN_MK_*) set for every key the marker carried
 *
 * Only the member of @kind is meaningful, and in it only the present keys;
 * absent ones are zero. Clamp values are in the platform's scale units.
 */
struct an_marker {
	enum an_marker_kind kind;
	uint64_t present;
	union {
		struct {
			unsigned int cpus;
			enum an_model model;
			bool task_group;
			bool invariant;
			unsigned int groups;
			unsigned int scale;
			unsigned int tick_us;
			char kernel[AN_MARKER_STR_LEN];
		} platform;
		struct {
			unsigned int cpu;
			unsigned int policy;
			unsigned int capacity;
			unsigned int freqs_khz[AN_MARKER_MAX_FREQS];
			unsigned int nr_freqs;
			unsigned int min_khz;
			unsigned int max_khz;
			unsigned int cur_khz;
			unsigned int rate_limit_us;
			char governor[AN_MARKER_STR_LEN];
		} cpu;
		struct {
			unsigned int util_min;
			unsigned int util_max;
			unsigned int util_min_rt_default;
		} sysctl;
		struct {
			unsigned int pid;
			char comm[AN_COMM_LEN];
			unsigned int util_min;
			unsigned int util_max;
			char cgroup[AN_PATH_LEN];
			enum an_policy policy;
			bool reset_on_fork;
		} task;
		struct {
			char path[AN_PATH_LEN];
			unsigned int util_min;
			unsigned int util_max;
		} cgroup;
		struct {
			unsigned int pid;
			unsigned int util_min;
			unsigned int util_max;
			unsigned long long flags;
			int ret;
		} setattr;
	};
};

/**
 * an_marker_has() - whether marker @m carried key @key
 * @m: decoded marker
 * @key: AN_MK_* id
 *
 * Return: true when present.
 */
static inline bool an_marker_has(const struct an_marker *m, enum an_marker_key key)
{
	return m->present & (UINT64_C(1) << key);
}

/**
 * an_marker_parse() - decode one marker line
 * @text: the print event's text (a trailing newline is ignored)
 * @len: its length in bytes
 * @writer_pid: pid of the task that wrote it (rt-app's marker targets it)
 * @m: result; m->kind is AN_MARKER_NONE when 0 is returned
 * @d: diagnostic on error (event and position are left to the caller)
 *
 * Unknown kinds and unknown keys are ignored. Values are percent-decoded
 * where they are strings (%20 for a space in a cgroup path).
 *
 * Return: 1 for a marker, 0 when @text is no ucval marker, AN_E_VALUE or
 * AN_E_SYNTAX (both negative) when a known key has a malformed value.
 */
int an_marker_parse(const char *text, size_t len, int writer_pid,
		    struct an_marker *m, struct an_diag *d);

/**
 * an_marker_key_name() - the key text of @key ("util_min")
 * @key: AN_MK_* id
 *
 * Return: a static string, "?" for an unknown id.
 */
const char *an_marker_key_name(enum an_marker_key key);

/**
 * an_marker_kind_name() - the kind text of @kind ("setattr")
 * @kind: AN_MARKER_* value
 *
 * Return: a static string.
 */
const char *an_marker_kind_name(enum an_marker_kind kind);

#endif /* UCVAL_ANALYZE_READ_MARKER_H */
