// SPDX-License-Identifier: MIT
/*
 * analyze/replay/tasks.c - pid -> task table of the replay (replay.h, tasks.h).
 * Memory: one allocation per full task and a bucket array of about as many
 * pointers; 4 bytes a packed task (pidmap.h: at most 16 MB for all the pids
 * Linux can give), and each distinct state, name and pair of them once.
 * sched_process_free and pid reuse give entries back.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/intern.h"
#include "lib/malloc.h"
#include "analyze/replay/pidmap.h"
#include "analyze/replay/tasks.h"

#define MIN_BUCKETS	64

/* What packed tasks share: the numbers of a state and of a name. */
struct kind {
	uint32_t state;
	uint32_t comm;
};

struct an_tasks {
	struct an_task **bucket;
	size_t nr_buckets;	/* a power of two */
	size_t nr;		/* full tasks */
	struct an_pidmap packed;	/* pid -> number of its kind + 1 */
	struct an_intern states;	/* struct an_task, per-task fields zeroed */
	struct an_intern comms;		/* char[AN_COMM_LEN], zero-padded */
	struct an_intern kinds;		/* struct kind */
	uint32_t gen;		/* tidies so far */
	size_t tidy_min;
	size_t tidy_at;		/* full tasks that make the next tidy pack */
	int err;
};

static size_t slot_of(int pid, size_t nr)
{
	/* Knuth's multiplicative hash; pids are dense small integers */
	return ((unsigned int)pid * 2654435761u) & (nr - 1);
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
	an_pidmap_init(&ts->packed);
	an_intern_init(&ts->states, sizeof(struct an_task));
	an_intern_init(&ts->comms, AN_COMM_LEN);
	an_intern_init(&ts->kinds, sizeof(struct kind));
	an_tasks_set_tidy_min(ts, 0);
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
	an_pidmap_release(&ts->packed);
	an_intern_release(&ts->states);
	an_intern_release(&ts->comms);
	an_intern_release(&ts->kinds);
	free(ts);
}

/* ---- full tasks ---- */

static struct an_task *full_find(const struct an_tasks *ts, int pid)
{
	for (struct an_task *t = ts->bucket[slot_of(pid, ts->nr_buckets)]; t; t = t->hash_next)
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
			size_t s = slot_of(t->mt.pid, ts->nr_buckets);

			t->hash_next = b[s];
			b[s] = t;
			t = next;
		}
	}
	free(old);
}

/* Link @t (its pid set) into the full tasks. */
static void full_link(struct an_tasks *ts, struct an_task *t)
{
	size_t s;

	if (ts->nr + 1 > ts->nr_buckets)
		rehash(ts);
	s = slot_of(t->mt.pid, ts->nr_buckets);
	t->hash_next = ts->bucket[s];
	ts->bucket[s] = t;
	t->tidy_gen = ts->gen;
	ts->nr++;
}

/* Unlink the full task @pid; return it (the caller frees it) or NULL. */
static struct an_task *full_unlink(struct an_tasks *ts, int pid)
{
	struct an_task **pp = &ts->bucket[slot_of(pid, ts->nr_buckets)];

	for (; *pp; pp = &(*pp)->hash_next) {
		struct an_task *t = *pp;

		if (t->mt.pid == pid) {
			*pp = t->hash_next;
			ts->nr--;
			return t;
		}
	}
	return NULL;
}

/* ---- packed tasks ---- */

/*
 * @se with its padding zeroed: the model returns clamp values by value, and
 * a struct copy leaves the padding as it was, which would make equal states
 * differ as bytes. A field added to struct model_se belongs here as well
 * (the UCVAL_TIDY=1 comparisons of test_cli show one that is missing).
 */
static void se_clean(struct model_se *se)
{
	struct model_se c;

	memset(&c, 0, sizeof(c));
	c.value = se->value;
	c.slot = se->slot;
	c.user_defined = se->user_defined;
	memcpy(se, &c, sizeof(c));
}

/* Pack the full task @t (not queued) and free it; -ENOMEM leaves it full. */
static int pack(struct an_tasks *ts, struct an_task *t)
{
	struct an_task state;
	char comm[AN_COMM_LEN] = "";
	struct kind k;
	uint32_t id;
	int err;

	/* bytes, padding too: states are compared as bytes (lib/intern.h) */
	memcpy(&state, t, sizeof(state));
	/* what is the task's own, or a place, is not part of the shared state */
	state.mt.pid = 0;
	memset(&state.mt.rq_node, 0, sizeof(state.mt.rq_node));
	memset(state.comm, 0, sizeof(state.comm));
	state.tidy_gen = 0;
	state.hash_next = NULL;
	state.shown_ns = 0;	/* read only while queued; enqueue() sets it first */
	for (int i = 0; i < MODEL_UCLAMP_CNT; i++)
		se_clean(&state.mt.req[i]);
	strncpy(comm, t->comm, sizeof(comm) - 1);
	err = an_intern_put(&ts->states, &state, &k.state);
	if (!err)
		err = an_intern_put(&ts->comms, comm, &k.comm);
	if (!err)
		err = an_intern_put(&ts->kinds, &k, &id);
	if (!err)
		err = an_pidmap_set(&ts->packed, t->mt.pid, id + 1);
	if (err)
		return err;
	free(full_unlink(ts, t->mt.pid));
	return 0;
}

/*
 * The packed task @pid (@id: its value in the map, its kind's number + 1)
 * full again, identical; NULL when out of memory.
 */
static struct an_task *unpack(struct an_tasks *ts, int pid, uint32_t id)
{
	const struct kind *k = an_intern_get(&ts->kinds, id - 1);
	struct an_task *t = an_malloc(sizeof(*t));

	if (!t) {
		if (!ts->err)
			ts->err = -ENOMEM;
		return NULL;
	}
	memcpy(t, an_intern_get(&ts->states, k->state), sizeof(*t));
	memcpy(t->comm, an_intern_get(&ts->comms, k->comm), sizeof(t->comm));
	t->mt.pid = pid;
	model_list_init(&t->mt.rq_node);
	an_pidmap_del(&ts->packed, pid);
	full_link(ts, t);
	return t;
}

/* ---- the table ---- */

struct an_task *an_tasks_find(struct an_tasks *ts, int pid)
{
	struct an_task *t = full_find(ts, pid);
	uint32_t id;

	if (t) {
		t->tidy_gen = ts->gen;
		return t;
	}
	id = an_pidmap_count(&ts->packed) ? an_pidmap_get(&ts->packed, pid) : 0;
	return id ? unpack(ts, pid, id) : NULL;
}

struct an_task *an_tasks_add(struct an_tasks *ts, int pid)
{
	struct an_task *t = an_calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->mt.pid = pid;
	full_link(ts, t);
	return t;
}

void an_tasks_remove(struct an_tasks *ts, int pid)
{
	struct an_task *t = full_unlink(ts, pid);

	if (t)
		free(t);
	else
		an_pidmap_del(&ts->packed, pid);
}

size_t an_tasks_count(const struct an_tasks *ts)
{
	return ts->nr + an_pidmap_count(&ts->packed);
}

size_t an_tasks_count_full(const struct an_tasks *ts)
{
	return ts->nr;
}

size_t an_tasks_bytes(const struct an_tasks *ts)
{
	return ts->nr * sizeof(struct an_task) + ts->nr_buckets * sizeof(*ts->bucket) +
	       an_pidmap_bytes(&ts->packed) + an_intern_bytes(&ts->states) +
	       an_intern_bytes(&ts->comms) + an_intern_bytes(&ts->kinds);
}

void an_tasks_tidy(struct an_tasks *ts)
{
	if (ts->nr < ts->tidy_at)
		return;
	for (size_t i = 0; i < ts->nr_buckets; i++) {
		struct an_task *t = ts->bucket[i];

		while (t) {
			struct an_task *next = t->hash_next;

			if (t->mt.cpu < 0 && t->tidy_gen != ts->gen && pack(ts, t))
				goto out;
			t = next;
		}
	}
out:
	ts->gen++;
	ts->tidy_at = ts->tidy_min == 1 ? 0 :
		      ts->nr * 2 > ts->tidy_min ? ts->nr * 2 : ts->tidy_min;
}

void an_tasks_set_tidy_min(struct an_tasks *ts, size_t min)
{
	ts->tidy_min = min ? min : AN_TASKS_TIDY_MIN;
	ts->tidy_at = ts->tidy_min == 1 ? 0 : ts->tidy_min;
}

int an_tasks_error(struct an_tasks *ts)
{
	int err = ts->err;

	ts->err = 0;
	return err;
}
