/* SPDX-License-Identifier: MIT */
/*
 * lib/vec.h - the one growth policy of analyze/'s (ptr, nr, alloc) arrays
 * (STYLE.md §4, git's ALLOC_GROW without the die()).
 */
#ifndef UCVAL_LIB_VEC_H
#define UCVAL_LIB_VEC_H

#include <stddef.h>

/**
 * an_vec_grow() - make room for @need elements
 * @ptr: address of the array pointer (NULL at first)
 * @alloc: address of its capacity in elements
 * @need: elements wanted
 * @elem_size: size of one element
 *
 * New elements are zeroed. On failure the array is left as it was.
 *
 * Return: 0 or -ENOMEM (also when the size would overflow).
 */
int an_vec_grow(void **ptr, size_t *alloc, size_t need, size_t elem_size);

/* AN_VEC_GROW(items, nr + 1, alloc); items[nr++] = x; */
#define AN_VEC_GROW(ptr, need, alloc) \
	an_vec_grow((void **)&(ptr), &(alloc), (need), sizeof(*(ptr)))

#endif /* UCVAL_LIB_VEC_H */
