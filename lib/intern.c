// SPDX-License-Identifier: MIT
/*
 * lib/intern.c - fixed-size values stored once (intern.h). The index is
 * open addressing with linear probing, kept at most half full.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/intern.h"
#include "lib/malloc.h"

#define MIN_SLOTS	64
#define MIN_VALUES	16

void an_intern_init(struct an_intern *in, size_t size)
{
	memset(in, 0, sizeof(*in));
	in->size = size;
}

/* FNV-1a over the bytes, folded for a power-of-two index. */
static size_t hash_of(const unsigned char *p, size_t len)
{
	uint64_t h = 14695981039346656037ull;

	for (size_t i = 0; i < len; i++)
		h = (h ^ p[i]) * 1099511628211ull;
	return (size_t)(h ^ (h >> 32));
}

static int grow_index(struct an_intern *in)
{
	size_t n = in->nr_slots ? in->nr_slots * 2 : MIN_SLOTS;
	uint32_t *s = an_calloc(n, sizeof(*s));

	if (!s)
		return -ENOMEM;
	for (size_t id = 0; id < in->nr; id++) {
		size_t at = hash_of(in->val + id * in->size, in->size) & (n - 1);

		while (s[at])
			at = (at + 1) & (n - 1);
		s[at] = (uint32_t)id + 1;
	}
	free(in->slot);
	in->slot = s;
	in->nr_slots = n;
	return 0;
}

/* Twice the room for values (new values are few once a trace is going). */
static int grow_values(struct an_intern *in)
{
	size_t n = in->alloc ? in->alloc * 2 : MIN_VALUES;
	void *v;

	if (n > SIZE_MAX / in->size)
		return -ENOMEM;
	v = an_realloc(in->val, n * in->size);
	if (!v)
		return -ENOMEM;
	in->val = v;
	in->alloc = n;
	return 0;
}

int an_intern_put(struct an_intern *in, const void *val, uint32_t *id)
{
	size_t at;

	if (in->nr_slots) {
		for (at = hash_of(val, in->size) & (in->nr_slots - 1); in->slot[at];
		     at = (at + 1) & (in->nr_slots - 1))
			if (!memcmp(in->val + (size_t)(in->slot[at] - 1) * in->size, val, in->size)) {
				*id = in->slot[at] - 1;
				return 0;
			}
	}
	if (in->nr >= UINT32_MAX - 1)
		return -ENOMEM;
	if ((in->nr + 1) * 2 > in->nr_slots && grow_index(in))
		return -ENOMEM;
	if (in->nr == in->alloc && grow_values(in))
		return -ENOMEM;
	memcpy(in->val + in->nr * in->size, val, in->size);
	for (at = hash_of(val, in->size) & (in->nr_slots - 1); in->slot[at];
	     at = (at + 1) & (in->nr_slots - 1))
		;
	in->slot[at] = (uint32_t)++in->nr;
	*id = (uint32_t)(in->nr - 1);
	return 0;
}

size_t an_intern_bytes(const struct an_intern *in)
{
	return in->alloc * in->size + in->nr_slots * sizeof(*in->slot);
}

void an_intern_release(struct an_intern *in)
{
	free(in->val);
	free(in->slot);
	an_intern_init(in, in->size);
}
