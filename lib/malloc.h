/* SPDX-License-Identifier: MIT */
/*
 * lib/malloc.h - allocation wrappers of analyze/ with fault injection, so
 * tests can make the Nth allocation fail (STYLE.md §6, SQLite's OOM tests).
 */
#ifndef UCVAL_LIB_MALLOC_H
#define UCVAL_LIB_MALLOC_H

#include <stddef.h>

/**
 * an_malloc() - malloc() that a test can make fail
 * @size: bytes
 *
 * Return: memory to free with free(), or NULL with errno = ENOMEM.
 */
void *an_malloc(size_t size);

/**
 * an_calloc() - calloc() that a test can make fail
 * @nmemb: elements
 * @size: bytes each
 *
 * Return: zeroed memory to free with free(), or NULL with errno = ENOMEM.
 */
void *an_calloc(size_t nmemb, size_t size);

/**
 * an_realloc() - realloc() that a test can make fail
 * @ptr: old block, may be NULL
 * @size: new size
 *
 * Return: the new block (free() it), or NULL with @ptr untouched.
 */
void *an_realloc(void *ptr, size_t size);

/**
 * an_malloc_fail_at() - make the @n-th next allocation fail (test hook)
 * @n: 1 for the very next one, 0 to stop failing
 *
 * The only global state of analyze/; tests call it, programs never do.
 */
void an_malloc_fail_at(unsigned long n);

#endif /* UCVAL_LIB_MALLOC_H */
