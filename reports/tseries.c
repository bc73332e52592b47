// SPDX-License-Identifier: MIT
/*
 * reports/tseries.c - time bucketing of intervals for the HTML plots. Rows
 * arrive in any order (the database returns them unsorted to save a sort
 * of millions of rows): "last" is chosen by start time, not arrival.
 */
#include <errno.h>
#include <stdlib.h>

#include "lib/malloc.h"
#include "reports/tseries.h"

/**
 * rep_tseries_init() - an empty series of @nr buckets over [@t0_ns, @t1_ns]
 * @s: the series, freed with rep_tseries_free()
 * @nr: buckets, at least 1
 * @t0_ns: start of the time axis
 * @t1_ns: its end; an empty or inverted range becomes 1 ns long
 *
 * Return: 0 or -ENOMEM.
 */
int rep_tseries_init(struct rep_tseries *s, unsigned int nr, int64_t t0_ns, int64_t t1_ns)
{
	*s = (struct rep_tseries){ .nr = nr ? nr : 1, .t0_ns = t0_ns,
				  .t1_ns = t1_ns > t0_ns ? t1_ns : t0_ns + 1 };
	s->b = an_calloc(s->nr, sizeof(*s->b));
	return s->b ? 0 : -ENOMEM;
}

/**
 * rep_tseries_bucket() - the bucket holding time @ts_ns
 * @s: the series
 * @ts_ns: a time; times outside the axis give the first or last bucket
 *
 * Return: 0 .. nr - 1.
 */
unsigned int rep_tseries_bucket(const struct rep_tseries *s, int64_t ts_ns)
{
	__int128 off = (__int128)ts_ns - s->t0_ns;
	__int128 i;

	if (off <= 0)
		return 0;
	i = off * s->nr / ((__int128)s->t1_ns - s->t0_ns);
	return i >= s->nr ? s->nr - 1 : (unsigned int)i;
}

static void touch(struct rep_bucket *b, int64_t start_ns, int64_t value)
{
	if (!b->n++) {
		*b = (struct rep_bucket){ .lo = value, .hi = value, .last = value,
					  .last_ts = start_ns, .n = 1 };
		return;
	}
	if (value < b->lo)
		b->lo = value;
	if (value > b->hi)
		b->hi = value;
	if (start_ns >= b->last_ts) {
		b->last_ts = start_ns;
		b->last = value;
	}
}

/**
 * rep_tseries_add() - record @value over [@start_ns, @end_ns)
 * @s: the series
 * @start_ns: start; an interval entirely outside the axis is dropped
 * @end_ns: end; equal to @start_ns for a point
 * @value: the value
 *
 * Every bucket the interval overlaps is touched: at most nr per call.
 */
void rep_tseries_add(struct rep_tseries *s, int64_t start_ns, int64_t end_ns, int64_t value)
{
	unsigned int first, last;

	if (end_ns < start_ns || end_ns < s->t0_ns || start_ns > s->t1_ns)
		return;
	first = rep_tseries_bucket(s, start_ns);
	last = end_ns > start_ns ? rep_tseries_bucket(s, end_ns - 1) : first;
	for (unsigned int i = first; i <= last; i++)
		touch(&s->b[i], start_ns, value);
}

/**
 * rep_tseries_free() - free the buckets of @s
 * @s: the series; may be all zeroes
 */
void rep_tseries_free(struct rep_tseries *s)
{
	free(s->b);
	s->b = NULL;
}
