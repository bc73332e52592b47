/* SPDX-License-Identifier: MIT */
/*
 * analyze/checks/wintab.h - open windows of checks keyed by task (and clamp id).
 * Only keys with an open FAIL or UNDECIDED window have an entry, so memory
 * follows the disagreements in progress, never the events.
 */
#ifndef UCVAL_ANALYZE_CHECKS_WINTAB_H
#define UCVAL_ANALYZE_CHECKS_WINTAB_H

#include <stdbool.h>
#include <stdint.h>

#include "analyze/checks/check.h"

/**
 * struct an_wintab_ent - the windows of one key
 * @key: the key (e.g. pid * 2 + clamp id)
 * @fail: its FAIL window tracker
 * @doubt: its UNDECIDED window tracker
 * @next: private
 */
struct an_wintab_ent {
	uint64_t key;
	struct an_win_track fail;
	struct an_win_track doubt;
	struct an_wintab_ent *next;
};

struct an_wintab;

/**
 * an_wintab_new() - an empty table
 * @out: the table, freed with an_wintab_free()
 *
 * Return: 0 or -ENOMEM.
 */
int an_wintab_new(struct an_wintab **out);

/**
 * an_wintab_free() - free the table and its entries
 * @t: table, may be NULL
 */
void an_wintab_free(struct an_wintab *t);

/**
 * an_wintab_get() - the entry of @key
 * @t: table
 * @key: key
 * @is_create: create a closed entry when there is none
 *
 * Return: the entry (owned by @t, valid until an_wintab_put() drops it),
 * NULL when absent and not created, or NULL with errno ENOMEM.
 */
struct an_wintab_ent *an_wintab_get(struct an_wintab *t, uint64_t key, bool is_create);

/**
 * an_wintab_put() - drop @e if both its windows are closed
 * @t: table
 * @e: entry from an_wintab_get()
 */
void an_wintab_put(struct an_wintab *t, struct an_wintab_ent *e);

/**
 * an_wintab_for_each() - call @fn on every entry (e.g. to close at the end)
 * @t: table
 * @fn: callback; it must not add or drop entries
 * @ctx: passed to @fn
 */
void an_wintab_for_each(struct an_wintab *t, void (*fn)(struct an_wintab_ent *e, void *ctx),
			void *ctx);

#endif /* UCVAL_ANALYZE_CHECKS_WINTAB_H */
