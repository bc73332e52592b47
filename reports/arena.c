// SPDX-License-Identifier: MIT
/*
 * reports/arena.c - bump allocation from chunks; nothing is freed before the
 * whole arena is. A report holds thousands of short strings (paths, check
 * ids, messages) that all live as long as the database handle.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/malloc.h"
#include "reports/arena.h"

/* Bytes of one chunk: a few hundred window messages, one malloc. */
#define CHUNK_SIZE	(64 * 1024)
/* Every allocation is aligned for any scalar type. */
#define ALIGN		16

struct rep_arena_chunk {
	struct rep_arena_chunk *next;
	size_t used;
	size_t size;
	_Alignas(ALIGN) unsigned char data[];
};

/**
 * rep_arena_alloc() - @size bytes that live until rep_arena_free()
 * @a: the arena
 * @size: bytes wanted; larger than a chunk gets a chunk of its own
 *
 * Return: zeroed memory that must not be freed, or NULL with errno = ENOMEM.
 */
void *rep_arena_alloc(struct rep_arena *a, size_t size)
{
	struct rep_arena_chunk *c = a->head;
	size_t need = (size + ALIGN - 1) & ~(size_t)(ALIGN - 1);

	if (need < size || need > SIZE_MAX - sizeof(*c) - CHUNK_SIZE) {
		errno = ENOMEM;
		return NULL;
	}
	if (!c || c->size - c->used < need) {
		size_t cap = need > CHUNK_SIZE ? need : CHUNK_SIZE;

		c = an_malloc(sizeof(*c) + cap);
		if (!c)
			return NULL;
		c->size = cap;
		c->used = 0;
		c->next = a->head;
		a->head = c;
	}
	c->used += need;
	return memset(c->data + c->used - need, 0, need);
}

/**
 * rep_arena_strdup() - copy @s into @a
 * @a: the arena
 * @s: the string; NULL gives NULL
 *
 * Return: the copy (not to be freed), or NULL with errno = ENOMEM when @s
 * was not NULL.
 */
char *rep_arena_strdup(struct rep_arena *a, const char *s)
{
	size_t len;
	char *p;

	if (!s)
		return NULL;
	len = strlen(s);
	p = rep_arena_alloc(a, len + 1);
	if (p)
		memcpy(p, s, len + 1);
	return p;
}

/**
 * rep_arena_free() - free every allocation of @a at once
 * @a: the arena; left empty and reusable
 */
void rep_arena_free(struct rep_arena *a)
{
	while (a->head) {
		struct rep_arena_chunk *next = a->head->next;

		free(a->head);
		a->head = next;
	}
}
