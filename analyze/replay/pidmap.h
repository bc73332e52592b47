/* SPDX-License-Identifier: MIT */
/*
 * analyze/replay/pidmap.h - pid -> non-zero 32-bit value, for the packed
 * tasks of the replay (tasks.c). Linux pids are below PID_MAX_LIMIT (2^22):
 * those go in pages of AN_PIDMAP_PAGE values, allocated when a pid of the
 * page is set and freed when its last one goes, so all of them together
 * never take more than 16 MB however many are set; any other pid (a
 * synthetic or damaged trace) goes in a hash. Lookups are O(1).
 */
#ifndef UCVAL_ANALYZE_REPLAY_PIDMAP_H
#define UCVAL_ANALYZE_REPLAY_PIDMAP_H

#include <stddef.h>
#include <stdint.h>

#define AN_PIDMAP_LIMIT		(1 << 22)	/* PID_MAX_LIMIT of 64-bit Linux */
#define AN_PIDMAP_PAGE		4096		/* pids a page */
#define AN_PIDMAP_PAGES		(AN_PIDMAP_LIMIT / AN_PIDMAP_PAGE)

/* Private but for its size (an_pidmap_init() before use). */
struct an_pidmap_slot {
	int pid;
	uint32_t val;			/* 0: empty */
};

struct an_pidmap {
	uint32_t **page;		/* AN_PIDMAP_PAGES, allocated at the first set */
	uint32_t *nr_used;		/* values set in each page */
	struct an_pidmap_slot *slot;	/* other pids: open addressing, at most 3/4 full */
	size_t nr_slots, nr_hashed;
	size_t nr;			/* values set */
	size_t nr_pages;		/* pages allocated */
};

/**
 * an_pidmap_init() - an empty map
 * @m: the map, released with an_pidmap_release()
 */
void an_pidmap_init(struct an_pidmap *m);

/**
 * an_pidmap_release() - free everything @m holds; it is empty afterwards
 * @m: the map
 */
void an_pidmap_release(struct an_pidmap *m);

/**
 * an_pidmap_get() - the value of @pid
 * @m: the map
 * @pid: any pid
 *
 * Return: its value, 0 when it has none.
 */
uint32_t an_pidmap_get(const struct an_pidmap *m, int pid);

/**
 * an_pidmap_set() - give @pid the value @val
 * @m: the map
 * @pid: any pid
 * @val: non-zero value, replacing the one @pid had
 *
 * Return: 0, or -ENOMEM with @m unchanged.
 */
int an_pidmap_set(struct an_pidmap *m, int pid, uint32_t val);

/**
 * an_pidmap_del() - take @pid's value away, if it has one
 * @m: the map
 * @pid: any pid
 */
void an_pidmap_del(struct an_pidmap *m, int pid);

/**
 * an_pidmap_count() - pids with a value
 * @m: the map
 *
 * Return: their number.
 */
static inline size_t an_pidmap_count(const struct an_pidmap *m)
{
	return m->nr;
}

/**
 * an_pidmap_bytes() - memory @m holds, for tests and measures
 * @m: the map
 *
 * Return: bytes allocated for its pages and its hash.
 */
size_t an_pidmap_bytes(const struct an_pidmap *m);

#endif /* UCVAL_ANALYZE_REPLAY_PIDMAP_H */
