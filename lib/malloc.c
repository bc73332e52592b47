// SPDX-License-Identifier: MIT
/*
 * lib/malloc.c - allocation wrappers with fault injection (see malloc.h).
 */
#include <errno.h>
#include <stdlib.h>

#include "lib/malloc.h"

/* Countdown to the failing allocation; 0 = never fail. Test-only state. */
static unsigned long fail_countdown;

static int should_fail(void)
{
	if (!fail_countdown)
		return 0;
	if (--fail_countdown)
		return 0;
	errno = ENOMEM;
	return 1;
}

/**
 * an_malloc_fail_at() - make the @n-th next allocation fail (test hook)
 * @n: 1 for the very next one, 0 to stop failing
 */
void an_malloc_fail_at(unsigned long n)
{
	fail_countdown = n;
}

/**
 * an_malloc() - malloc() that a test can make fail
 * @size: bytes
 *
 * Return: memory to free with free(), or NULL with errno = ENOMEM.
 */
void *an_malloc(size_t size)
{
	return should_fail() ? NULL : malloc(size);
}

/**
 * an_calloc() - calloc() that a test can make fail
 * @nmemb: elements
 * @size: bytes each
 *
 * Return: zeroed memory to free with free(), or NULL with errno = ENOMEM.
 */
void *an_calloc(size_t nmemb, size_t size)
{
	return should_fail() ? NULL : calloc(nmemb, size);
}

/**
 * an_realloc() - realloc() that a test can make fail
 * @ptr: old block, may be NULL
 * @size: new size
 *
 * Return: the new block (free() it), or NULL with @ptr untouched.
 */
void *an_realloc(void *ptr, size_t size)
{
	return should_fail() ? NULL : realloc(ptr, size);
}
