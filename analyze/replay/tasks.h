/* SPDX-License-Identifier: MIT */
/*
 * analyze/replay/tasks.h - the replay's task table: pid -> struct an_task.
 *
 * A task the replay is working with is full: its own allocation, so the
 * model's intrusive lists (struct model_task.rq_node) stay valid while the
 * table grows, in a chained hash whose size follows those tasks. A task
 * that is not queued and was not looked up since the previous tidy (an
 * idle one: asleep, or dead but not freed) is packed by an_tasks_tidy():
 * the number of its name and the rest of its state, each stored once for
 * all the tasks that share it (lib/intern.h), 4 bytes at its pid in a map
 * of at most 16 MB (pidmap.h). Looking it up unpacks it, identical, so packing never
 * changes what the replay computes; it bounds the memory of traces with
 * millions of short-lived pids that no event frees (docs/performance.md).
 */
#ifndef UCVAL_ANALYZE_REPLAY_TASKS_H
#define UCVAL_ANALYZE_REPLAY_TASKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analyze/read/marker.h"
#include "model/model.h"

/**
 * struct an_task - one task the trace showed
 * @mt: the model's task (pid, class, group, requests, queued CPU mt.cpu,
 *	-1 when not queued in the model). Its address is stable while
 *	the task is queued; an idle task may come back at another address
 *	after an an_tasks_tidy() (tasks are looked up by pid, never kept)
 * @comm: last comm seen
 * @prio: last prio seen, AN_PRIO_NONE when none
 * @known_epoch: the replay knows whether the task is queued (it was woken,
 *		switched, forked or migrated while its CPU was known) when this
 *		is an_replay.nr_resets + 1 (lost events forget every task at
 *		once); 0 for a task only named by a marker or a util event
 * @is_exiting: sched_process_exit seen; the final switch (prev_state X, Z or
 *		I) releases it in the model (VG8)
 * @is_dead: released in the model (model_task_exit); the entry stays until
 *	     sched_process_free or a fork reusing the pid
 * @last_cpu: CPU it last ran or was queued on, -1 unknown (also set by a
 *	      sched_migrate_task of a task that is not queued)
 * @shown_ns: time of the last event that showed it on the CPU it is queued
 *	      on (mt.cpu): its switch in or out there, a wakeup or migration
 *	      to there
 * @is_req_known: its request of each clamp id is known to the replay (a
 *		  task marker, a request, a uclamp_task_eff value, or forked in
 *		  the trace under the variant's fork rule); else the model's
 *		  "no request" is a guess
 * @is_req_forked: mainline: its request of each clamp id is what the fork
 *		   rule gave it (MA7: inherited, or reset by reset_on_fork) and
 *		   nothing has changed it since
 * @is_tg_known: its task group is known (task marker with cgroup, forked
 *		 from a task whose group is known, or the platform says
 *		 task_group=0); else the model's root group is a guess
 * @eff_seen: the effective value of each clamp id the last uclamp_task_eff
 *	      showed, -1 none yet
 * @tidy_gen: private (tasks.c): the tidy it was last looked up after
 * @hash_next: private (tasks.c)
 *
 * an_task_is_clamp_known() says whether both are known: only then can a
 * disagreement about its clamps be a FAIL rather than UNDECIDED.
 */
struct an_task {
	struct model_task mt;
	char comm[AN_COMM_LEN];
	int prio;
	uint32_t tidy_gen;
	uint64_t known_epoch;
	bool is_exiting;
	bool is_dead;
	int last_cpu;
	uint64_t shown_ns;
	bool is_req_known[MODEL_UCLAMP_CNT];
	bool is_req_forked[MODEL_UCLAMP_CNT];
	bool is_tg_known;
	int eff_seen[MODEL_UCLAMP_CNT];
	struct an_task *hash_next;
};

static inline bool an_task_is_clamp_known(const struct an_task *t)
{
	return t->is_req_known[MODEL_UCLAMP_MIN] && t->is_req_known[MODEL_UCLAMP_MAX] &&
	       t->is_tg_known;
}

/* The an_task of a model task (every model task of the replay is one). */
static inline struct an_task *an_task_of(const struct model_task *mt)
{
	return model_container_of(mt, struct an_task, mt);
}

struct an_tasks;

/* Full tasks above which an_tasks_tidy() packs the idle ones, by default. */
#define AN_TASKS_TIDY_MIN	4096

/**
 * an_tasks_new() - an empty table
 * @out: the table, freed with an_tasks_free()
 *
 * Return: 0 or -ENOMEM.
 */
int an_tasks_new(struct an_tasks **out);

/**
 * an_tasks_free() - free the table and every task still in it
 * @ts: table, may be NULL
 */
void an_tasks_free(struct an_tasks *ts);

/**
 * an_tasks_find() - the task with @pid, unpacked if it was packed
 * @ts: table
 * @pid: pid
 *
 * Unpacking allocates: when that fails the task stays packed, the lookup
 * returns NULL and an_tasks_error() reports -ENOMEM.
 *
 * Return: the task or NULL, borrowed until it is removed or the next
 * an_tasks_tidy().
 */
struct an_task *an_tasks_find(struct an_tasks *ts, int pid);

/**
 * an_tasks_add() - a new zeroed task for @pid, which must not be in @ts
 * @ts: table
 * @pid: pid
 *
 * The caller initialises the model task (model_task_init/fork). The task
 * belongs to the table: an_tasks_remove() or an_tasks_free() frees it.
 *
 * Return: the task, or NULL with errno ENOMEM.
 */
struct an_task *an_tasks_add(struct an_tasks *ts, int pid);

/**
 * an_tasks_remove() - unlink and free the task with @pid, if any
 * @ts: table
 * @pid: pid
 *
 * The caller has taken the task out of the model's lists first.
 */
void an_tasks_remove(struct an_tasks *ts, int pid);

/**
 * an_tasks_count() - tasks in @ts, full and packed
 * @ts: table
 *
 * Return: their number.
 */
size_t an_tasks_count(const struct an_tasks *ts);

/**
 * an_tasks_count_full() - full tasks in @ts (the others are packed)
 * @ts: table
 *
 * Return: their number.
 */
size_t an_tasks_count_full(const struct an_tasks *ts);

/**
 * an_tasks_bytes() - memory @ts holds, allocator overhead aside
 * @ts: table
 *
 * Return: bytes of its full tasks, packed tasks, shared states and indexes.
 */
size_t an_tasks_bytes(const struct an_tasks *ts);

/**
 * an_tasks_tidy() - pack the idle tasks once the full ones are many
 * @ts: table
 *
 * Call it where no task pointer is held (the replay: before each event).
 * When the full tasks reach the threshold (an_tasks_set_tidy_min()), each
 * one that is not queued in the model (mt.cpu < 0) and was not looked up
 * or added since the previous tidy is packed and its memory freed; the
 * next threshold is twice the full tasks left, so the work is amortised.
 * A task that cannot be packed (out of memory) stays full.
 */
void an_tasks_tidy(struct an_tasks *ts);

/**
 * an_tasks_set_tidy_min() - the full tasks above which a tidy packs
 * @ts: table
 * @min: that number; 0: AN_TASKS_TIDY_MIN; 1: every an_tasks_tidy() call
 *	 packs (tests: every idle task is packed and unpacked over and over)
 */
void an_tasks_set_tidy_min(struct an_tasks *ts, size_t min);

/**
 * an_tasks_error() - the first failure to unpack a task, and clear it
 * @ts: table
 *
 * Return: 0 or -ENOMEM.
 */
int an_tasks_error(struct an_tasks *ts);

#endif /* UCVAL_ANALYZE_REPLAY_TASKS_H */
