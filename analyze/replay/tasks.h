/* SPDX-License-Identifier: MIT */
/*
 * analyze/replay/tasks.h - the replay's task table: pid -> struct an_task.
 *
 * Chained hash whose size follows the number of live tasks, never the number
 * of events. Each task is its own allocation, so the model's intrusive lists
 * (struct model_task.rq_node) stay valid while the table grows.
 */
#ifndef UCVAL_ANALYZE_REPLAY_TASKS_H
#define UCVAL_ANALYZE_REPLAY_TASKS_H

#include <stddef.h>

#include "analyze/replay/replay.h"

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
 * an_tasks_find() - the task with @pid
 * @ts: table
 * @pid: pid
 *
 * Return: the task or NULL, borrowed.
 */
struct an_task *an_tasks_find(const struct an_tasks *ts, int pid);

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
 * an_tasks_count() - live tasks in @ts
 * @ts: table
 *
 * Return: their number.
 */
size_t an_tasks_count(const struct an_tasks *ts);

/**
 * an_tasks_for_each() - call @fn on every task, in no particular order
 * @ts: table
 * @fn: callback; it must not add or remove tasks
 * @ctx: passed to @fn
 */
void an_tasks_for_each(struct an_tasks *ts, void (*fn)(struct an_task *t, void *ctx),
		       void *ctx);

#endif /* UCVAL_ANALYZE_REPLAY_TASKS_H */
