/* SPDX-License-Identifier: MIT */
/*
 * lib/intern.h - a set of fixed-size byte strings, each stored once and
 * named by a small number: many records that share a few distinct values
 * keep 4 bytes each instead of the value (analyze/replay/tasks.c packs idle
 * tasks so). Values are compared as bytes, padding included.
 */
#ifndef UCVAL_LIB_INTERN_H
#define UCVAL_LIB_INTERN_H

#include <stddef.h>
#include <stdint.h>

/*
 * @size: bytes of a value; @val: the values, @nr of them (@alloc room);
 * @slot: open-addressing index of @val (id + 1, 0 empty), @nr_slots of them
 * (a power of two, at least twice @nr). Private but for an_intern_get().
 */
struct an_intern {
	size_t size;
	unsigned char *val;
	size_t nr, alloc;
	uint32_t *slot;
	size_t nr_slots;
};

/**
 * an_intern_init() - an empty set of values of @size bytes
 * @in: the set
 * @size: bytes of each value (> 0)
 */
void an_intern_init(struct an_intern *in, size_t size);

/**
 * an_intern_put() - the number of @val, stored first if new
 * @in: the set
 * @val: @in->size bytes, copied
 * @id: its number, for an_intern_get()
 *
 * Return: 0, or -ENOMEM (also past UINT32_MAX - 1 values).
 */
int an_intern_put(struct an_intern *in, const void *val, uint32_t *id);

/**
 * an_intern_get() - the value numbered @id
 * @in: the set
 * @id: a number an_intern_put() gave
 *
 * Return: its bytes, borrowed until the next an_intern_put() or release.
 */
static inline const void *an_intern_get(const struct an_intern *in, uint32_t id)
{
	return in->val + (size_t)id * in->size;
}

/**
 * an_intern_bytes() - memory @in holds, for tests and measures
 * @in: the set
 *
 * Return: bytes allocated for its values and their index.
 */
size_t an_intern_bytes(const struct an_intern *in);

/**
 * an_intern_release() - free every value; @in is empty (same size) afterwards
 * @in: the set
 */
void an_intern_release(struct an_intern *in);

#endif /* UCVAL_LIB_INTERN_H */
