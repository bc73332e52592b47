// SPDX-License-Identifier: MIT
/*
 * analyze/checks/wintab.c - open windows keyed by task (wintab.h): a chained hash
 * with a fixed bucket array; entries exist only while a window is open.
 */
#include <errno.h>
#include <stdlib.h>

#include "lib/malloc.h"
#include "analyze/checks/wintab.h"

#define NR_BUCKETS	256

struct an_wintab {
	struct an_wintab_ent *bucket[NR_BUCKETS];
};

static unsigned int slot_of(uint64_t key)
{
	return (unsigned int)((key * UINT64_C(0x9E3779B97F4A7C15)) >> 56);
}

int an_wintab_new(struct an_wintab **out)
{
	*out = an_calloc(1, sizeof(**out));
	return *out ? 0 : -ENOMEM;
}

void an_wintab_free(struct an_wintab *t)
{
	if (!t)
		return;
	for (unsigned int i = 0; i < NR_BUCKETS; i++) {
		struct an_wintab_ent *e = t->bucket[i];

		while (e) {
			struct an_wintab_ent *next = e->next;

			an_win_release(&e->fail);	/* a window never closed (errors) */
			free(e);
			e = next;
		}
	}
	free(t);
}

struct an_wintab_ent *an_wintab_get(struct an_wintab *t, uint64_t key, bool is_create)
{
	unsigned int s = slot_of(key);
	struct an_wintab_ent *e;

	for (e = t->bucket[s]; e; e = e->next)
		if (e->key == key)
			return e;
	if (!is_create)
		return NULL;
	e = an_calloc(1, sizeof(*e));
	if (!e)
		return NULL;
	e->key = key;
	e->next = t->bucket[s];
	t->bucket[s] = e;
	return e;
}

void an_wintab_put(struct an_wintab *t, struct an_wintab_ent *e)
{
	struct an_wintab_ent **pp;

	if (e->fail.is_open || e->doubt.is_open)
		return;
	for (pp = &t->bucket[slot_of(e->key)]; *pp; pp = &(*pp)->next) {
		if (*pp == e) {
			*pp = e->next;
			free(e);
			return;
		}
	}
}

void an_wintab_for_each(struct an_wintab *t, void (*fn)(struct an_wintab_ent *e, void *ctx),
			void *ctx)
{
	for (unsigned int i = 0; i < NR_BUCKETS; i++)
		for (struct an_wintab_ent *e = t->bucket[i]; e; e = e->next)
			fn(e, ctx);
}
