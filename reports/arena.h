/* SPDX-License-Identifier: MIT */
/*
 * reports/arena.h - one pool for the strings a report reads from the
 * database, dropped in one call (STYLE.md §4, like git's mem_pool).
 */
#ifndef UCVAL_REPORTS_ARENA_H
#define UCVAL_REPORTS_ARENA_H

#include <stddef.h>

struct rep_arena_chunk;

/* An empty arena is all zeroes: `struct rep_arena a = { 0 };`. */
struct rep_arena {
	struct rep_arena_chunk *head;
};

void *rep_arena_alloc(struct rep_arena *a, size_t size);
char *rep_arena_strdup(struct rep_arena *a, const char *s);
void rep_arena_free(struct rep_arena *a);

#endif /* UCVAL_REPORTS_ARENA_H */
