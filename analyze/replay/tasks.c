// SPDX-License-Identifier: MIT
/*
 * analyze/replay/tasks.c - pid -> task hash of the replay (replay.h, tasks.h).
 * Memory: one allocation per live task and a bucket array of about as many
 * pointers; sched_process_free and pid reuse give entries back.
 */
#include <errno.h>
#include <stdlib.h>

#include "lib/malloc.h"
#include "analyze/replay/tasks.h"

#define MIN_BUCKETS	64

struct an_tasks {
	struct an_task **bucket;
	size_t nr_buckets;	/* a power of two */
	size_t nr;
};

static size_t slot_of(const struct an_tasks *ts, int pid)
{
	/* Knuth's multiplicative hash; pids are dense small integers */
	return ((unsigned int)pid * 2654435761u) & (ts->nr_buckets - 1);
}

int an_tasks_new(struct an_tasks **out)
{
	struct an_tasks *ts = an_calloc(1, sizeof(*ts));

	if (!ts)
		return -ENOMEM;
	ts->bucket = an_calloc(MIN_BUCKETS, sizeof(*ts->bucket));
	if (!ts->bucket) {
		free(ts);
		return -ENOMEM;
	}
	ts->nr_buckets = MIN_BUCKETS;
	*out = ts;
	return 0;
}

void an_tasks_free(struct an_tasks *ts)
{
	if (!ts)
		return;
	for (size_t i = 0; i < ts->nr_buckets; i++) {
		struct an_task *t = ts->bucket[i];

		while (t) {
			struct an_task *next = t->hash_next;

			free(t);
			t = next;
		}
	}
	free(ts->bucket);
	free(ts);
}

struct an_task *an_tasks_find(const struct an_tasks *ts, int pid)
{
	for (struct an_task *t = ts->bucket[slot_of(ts, pid)]; t; t = t->hash_next)
		if (t->mt.pid == pid)
			return t;
	return NULL;
}

/* Double the buckets; on allocation failure keep the longer chains. */
static void rehash(struct an_tasks *ts)
{
	size_t old_nr = ts->nr_buckets;
	struct an_task **old = ts->bucket;
	struct an_task **b = an_calloc(old_nr * 2, sizeof(*b));

	if (!b)
		return;
	ts->bucket = b;
	ts->nr_buckets = old_nr * 2;
	for (size_t i = 0; i < old_nr; i++) {
		struct an_task *t = old[i];

		while (t) {
			struct an_task *next = t->hash_next;
			size_t s = slot_of(ts, t->mt.pid);

			t->hash_next = b[s];
			b[s] = t;
			t = next;
		}
	}
	free(old);
}

struct an_task *an_tasks_add(struct an_tasks *ts, int pid)
{
	struct an_task *t = an_calloc(1, sizeof(*t));
	size_t s;

	if (!t)
		return NULL;
	if (ts->nr + 1 > ts->nr_buckets)
		rehash(ts);
	t->mt.pid = pid;
	s = slot_of(ts, pid);
	t->hash_next = ts->bucket[s];
	ts->bucket[s] = t;
	ts->nr++;
	return t;
}

void an_tasks_remove(struct an_tasks *ts, int pid)
{
	struct an_task **pp = &ts->bucket[slot_of(ts, pid)];

	for (; *pp; pp = &(*pp)->hash_next) {
		struct an_task *t = *pp;

		if (t->mt.pid == pid) {
			*pp = t->hash_next;
			ts->nr--;
			free(t);
			return;
		}
	}
}

size_t an_tasks_count(const struct an_tasks *ts)
{
	return ts->nr;
}

void an_tasks_for_each(struct an_tasks *ts, void (*fn)(struct an_task *t, void *ctx),
		       void *ctx)
{
	for (size_t i = 0; i < ts->nr_buckets; i++)
		for (struct an_task *t = ts->bucket[i]; t; t = t->hash_next)
			fn(t, ctx);
}
