// SPDX-License-Identifier: MIT
/*
 * lib/vec.c - growth of (ptr, nr, alloc) arrays (see vec.h).
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "lib/malloc.h"
#include "lib/vec.h"

/* Smallest capacity: avoids a reallocation per element for short arrays. */
#define VEC_MIN_ALLOC 16

/**
 * an_vec_grow() - make room for @need elements
 * @ptr: address of the array pointer (NULL at first)
 * @alloc: address of its capacity in elements
 * @need: elements wanted
 * @elem_size: size of one element
 *
 * Return: 0 or -ENOMEM (also when the size would overflow).
 */
int an_vec_grow(void **ptr, size_t *alloc, size_t need, size_t elem_size)
{
	size_t n;
	void *p;

	if (need <= *alloc)
		return 0;
	n = *alloc + *alloc / 2;	/* 1.5x: amortised O(1) appends */
	if (n < need)
		n = need;
	if (n < VEC_MIN_ALLOC)
		n = VEC_MIN_ALLOC;
	if (n > SIZE_MAX / elem_size)
		return -ENOMEM;
	p = an_realloc(*ptr, n * elem_size);
	if (!p)
		return -ENOMEM;
	memset((char *)p + *alloc * elem_size, 0, (n - *alloc) * elem_size);
	*ptr = p;
	*alloc = n;
	return 0;
}
