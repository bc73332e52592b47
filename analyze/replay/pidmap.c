// SPDX-License-Identifier: MIT
/*
 * analyze/replay/pidmap.c - pid -> value map of the packed tasks (pidmap.h).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "lib/malloc.h"
#include "analyze/replay/pidmap.h"

#define MIN_SLOTS	64

void an_pidmap_init(struct an_pidmap *m)
{
	memset(m, 0, sizeof(*m));
}

void an_pidmap_release(struct an_pidmap *m)
{
	if (m->page)
		for (size_t i = 0; i < AN_PIDMAP_PAGES; i++)
			free(m->page[i]);
	free(m->page);
	free(m->nr_used);
	free(m->slot);
	an_pidmap_init(m);
}

static bool is_paged(int pid)
{
	return pid >= 0 && pid < AN_PIDMAP_LIMIT;
}

/* ---- other pids: the hash ---- */

static size_t home_of(int pid, size_t nr_slots)
{
	/* Knuth's multiplicative hash */
	return ((unsigned int)pid * 2654435761u) & (nr_slots - 1);
}

static struct an_pidmap_slot *hash_find(const struct an_pidmap *m, int pid)
{
	if (!m->nr_slots)
		return NULL;
	for (size_t at = home_of(pid, m->nr_slots); m->slot[at].val;
	     at = (at + 1) & (m->nr_slots - 1))
		if (m->slot[at].pid == pid)
			return &m->slot[at];
	return NULL;
}

static void hash_insert(struct an_pidmap_slot *slots, size_t nr_slots, int pid, uint32_t val)
{
	size_t at = home_of(pid, nr_slots);

	while (slots[at].val)
		at = (at + 1) & (nr_slots - 1);
	slots[at] = (struct an_pidmap_slot){ pid, val };
}

/* Room for one more pid in the hash. */
static int hash_reserve(struct an_pidmap *m)
{
	size_t n = m->nr_slots ? m->nr_slots * 2 : MIN_SLOTS;
	struct an_pidmap_slot *slots;

	if ((m->nr_hashed + 1) * 4 <= m->nr_slots * 3)
		return 0;
	slots = an_calloc(n, sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	for (size_t i = 0; i < m->nr_slots; i++)
		if (m->slot[i].val)
			hash_insert(slots, n, m->slot[i].pid, m->slot[i].val);
	free(m->slot);
	m->slot = slots;
	m->nr_slots = n;
	return 0;
}

/* Empty slot @s, moving back the entries after it that probed past it. */
static void hash_delete(struct an_pidmap *m, struct an_pidmap_slot *s)
{
	size_t mask = m->nr_slots - 1, hole = (size_t)(s - m->slot);

	for (size_t at = (hole + 1) & mask; m->slot[at].val; at = (at + 1) & mask) {
		size_t home = home_of(m->slot[at].pid, m->nr_slots);

		/* it stays when its home lies cyclically in (hole, at] */
		if (((at - home) & mask) < ((at - hole) & mask))
			continue;
		m->slot[hole] = m->slot[at];
		hole = at;
	}
	m->slot[hole].val = 0;
	m->nr_hashed--;
}

static int hash_set(struct an_pidmap *m, int pid, uint32_t val)
{
	struct an_pidmap_slot *s = hash_find(m, pid);

	if (s) {
		s->val = val;
		return 0;
	}
	if (hash_reserve(m))
		return -ENOMEM;
	hash_insert(m->slot, m->nr_slots, pid, val);
	m->nr_hashed++;
	m->nr++;
	return 0;
}

/* ---- pids below AN_PIDMAP_LIMIT: the pages ---- */

static int page_set(struct an_pidmap *m, int pid, uint32_t val)
{
	size_t p = (size_t)pid / AN_PIDMAP_PAGE, i = (size_t)pid % AN_PIDMAP_PAGE;

	if (!m->page) {
		m->page = an_calloc(AN_PIDMAP_PAGES, sizeof(*m->page));
		m->nr_used = an_calloc(AN_PIDMAP_PAGES, sizeof(*m->nr_used));
		if (!m->page || !m->nr_used) {
			free(m->page);
			free(m->nr_used);
			m->page = NULL;
			m->nr_used = NULL;
			return -ENOMEM;
		}
	}
	if (!m->page[p]) {
		m->page[p] = an_calloc(AN_PIDMAP_PAGE, sizeof(*m->page[p]));
		if (!m->page[p])
			return -ENOMEM;
		m->nr_pages++;
	}
	if (!m->page[p][i]) {
		m->nr_used[p]++;
		m->nr++;
	}
	m->page[p][i] = val;
	return 0;
}

static void page_del(struct an_pidmap *m, int pid)
{
	size_t p = (size_t)pid / AN_PIDMAP_PAGE, i = (size_t)pid % AN_PIDMAP_PAGE;

	if (!m->page || !m->page[p] || !m->page[p][i])
		return;
	m->page[p][i] = 0;
	m->nr--;
	if (--m->nr_used[p])
		return;
	free(m->page[p]);
	m->page[p] = NULL;
	m->nr_pages--;
}

/* ---- the map ---- */

uint32_t an_pidmap_get(const struct an_pidmap *m, int pid)
{
	const struct an_pidmap_slot *s;

	if (is_paged(pid)) {
		const uint32_t *pg = m->page ? m->page[pid / AN_PIDMAP_PAGE] : NULL;

		return pg ? pg[pid % AN_PIDMAP_PAGE] : 0;
	}
	s = hash_find(m, pid);
	return s ? s->val : 0;
}

int an_pidmap_set(struct an_pidmap *m, int pid, uint32_t val)
{
	return is_paged(pid) ? page_set(m, pid, val) : hash_set(m, pid, val);
}

void an_pidmap_del(struct an_pidmap *m, int pid)
{
	struct an_pidmap_slot *s;

	if (is_paged(pid)) {
		page_del(m, pid);
		return;
	}
	s = hash_find(m, pid);
	if (s) {
		hash_delete(m, s);
		m->nr--;
	}
}

size_t an_pidmap_bytes(const struct an_pidmap *m)
{
	return (m->page ? AN_PIDMAP_PAGES * (sizeof(*m->page) + sizeof(*m->nr_used)) : 0) +
	       m->nr_pages * AN_PIDMAP_PAGE * sizeof(uint32_t) +
	       m->nr_slots * sizeof(*m->slot);
}
