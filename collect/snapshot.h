/* SPDX-License-Identifier: MIT */
/*
 * collect/snapshot.h - the platform snapshot as `ucval:` marker lines
 * (spec/events.md §3): platform, cpu, sysctl, cgroup and task markers from
 * sysfs, procfs, cgroupfs and sched_getattr(). A value this kernel does not
 * expose is left out of its marker, never guessed.
 */
#ifndef UCVAL_COLLECT_SNAPSHOT_H
#define UCVAL_COLLECT_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "lib/diag.h"

#define COL_MARKER_LEN	1024	/* longest marker line ucval writes */

/* Receives one marker line (no newline); returns 0 or a negative errno. */
typedef int (*col_snapshot_emit_fn)(void *ctx, const char *line);

/**
 * struct col_snapshot_roots - where the snapshot reads; NULL for the real ones
 * @sys: sysfs root ("/sys"), tests point it at a fake tree
 * @proc: procfs root ("/proc")
 * @cgroup: cgroup v2 mount ("/sys/fs/cgroup")
 */
struct col_snapshot_roots {
	const char *sys;
	const char *proc;
	const char *cgroup;
};

/**
 * col_snapshot_take() - emit the platform, cpu, sysctl and cgroup markers
 * @roots: where to read, may be NULL
 * @emit: receives each line
 * @ctx: its context
 * @d: diagnostic on failure
 *
 * Return: 0, or the first error of @emit (negative errno).
 */
int col_snapshot_take(const struct col_snapshot_roots *roots, col_snapshot_emit_fn emit,
			  void *ctx, struct an_diag *d);

/**
 * col_snapshot_tasks() - emit one task marker per thread of the system
 * @roots: where to read, may be NULL
 * @emit: receives each line
 * @ctx: its context
 * @d: diagnostic on failure
 *
 * Return: 0, or the first error of @emit. Threads that exit meanwhile are
 * skipped.
 */
int col_snapshot_tasks(const struct col_snapshot_roots *roots, col_snapshot_emit_fn emit,
		       void *ctx, struct an_diag *d);

/**
 * col_snapshot_task_requests() - which of a task's clamps are requests
 * @policy: its scheduling policy (SCHED_* number)
 * @util_min: sched_getattr()'s sched_util_min
 * @util_max: sched_getattr()'s sched_util_max
 * @rt_default: sched_util_clamp_min_rt_default (1024 when the sysctl is absent)
 * @has_min: set when @util_min goes into the task marker
 * @has_max: set when @util_max goes into the task marker
 *
 * sched_getattr() returns a clamp whether or not anyone asked for it: a task
 * without a request shows its default (min 0, or @rt_default for RT
 * policies; max 1024). A marker key means "requested" (events.md §3), and
 * the model treats a requested clamp as user-defined (kept on fork and on a
 * policy change, uclamp-mainline.md MA7, MT4), so a default value is left
 * out. An explicit request equal to the default is indistinguishable and is
 * left out too.
 */
void col_snapshot_task_requests(unsigned int policy, unsigned int util_min, unsigned int util_max,
				unsigned int rt_default, bool *has_min, bool *has_max);

/**
 * col_snapshot_task_line() - the task marker of one thread
 * @roots: where to read, may be NULL
 * @tid: thread id
 * @buf: output line
 * @len: its size (COL_MARKER_LEN)
 *
 * Return: 0, or -ESRCH when the thread is gone.
 */
int col_snapshot_task_line(const struct col_snapshot_roots *roots, pid_t tid, char *buf,
			   size_t len);

/**
 * col_snapshot_setattr() - request clamps for @pid with sched_setattr()
 * @pid: target task
 * @util_min: requested util_min, or -1 to leave it
 * @util_max: requested util_max, or -1 to leave it
 * @flags: set to the sched_flags word passed to the kernel (for the marker)
 *
 * The policy and its parameters are kept (SCHED_FLAG_KEEP_ALL), as
 * util-linux's uclampset does.
 *
 * Return: 0, or the kernel's negative errno (-EOPNOTSUPP without uclamp).
 */
int col_snapshot_setattr(pid_t pid, long util_min, long util_max, unsigned long long *flags);

/**
 * col_snapshot_has_uclamp() - whether the kernel has per-task uclamp
 * @roots: where to read, may be NULL
 *
 * Return: true when the uclamp sysctls exist (CONFIG_UCLAMP_TASK).
 */
bool col_snapshot_has_uclamp(const struct col_snapshot_roots *roots);

#endif /* UCVAL_COLLECT_SNAPSHOT_H */
