// SPDX-License-Identifier: MIT
/*
 * collect/synth/synthtimer.c - the clock of `ucval synth`: seeded random numbers
 * (one stream for the workload, one for the faults, so a faulty trace keeps
 * its clean twin's workload) and the timers, a min-heap on (time, id) with
 * one slot per task, CPU, policy and periodic action, so the next step is
 * found in O(log timers) whatever the trace length.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>

#include "collect/synth/synthtimer.h"

/* ---- random numbers ---- */

/* The multipliers and shifts are those of the published splitmix64 and
 * xorshift64* generators: fast, and the same sequence everywhere. */

static uint64_t splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/**
 * sy_rng_seed() - seed one stream of random numbers
 * @r: the stream
 * @seed: the user's seed
 * @stream: which stream (the workload and the faults draw separately)
 */
void sy_rng_seed(struct sy_rng *r, uint64_t seed, uint64_t stream)
{
	uint64_t x = seed ^ (stream * 0xd1b54a32d192ed03ULL);

	r->s = splitmix(&x);
	if (!r->s)
		r->s = 1;	/* xorshift's one forbidden state */
}

/**
 * sy_rng_next() - 64 random bits (xorshift64*)
 * @r: the stream
 *
 * Return: the next number.
 */
uint64_t sy_rng_next(struct sy_rng *r)
{
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return r->s * 0x2545f4914f6cdd1dULL;
}

/**
 * sy_rng_range() - a number in [@lo, @hi]
 * @r: the stream
 * @lo: smallest
 * @hi: largest, >= @lo
 *
 * Return: the number.
 */
uint64_t sy_rng_range(struct sy_rng *r, uint64_t lo, uint64_t hi)
{
	return lo + sy_rng_next(r) % (hi - lo + 1);
}

/**
 * sy_rng_chance() - true with probability @num / @den
 * @r: the stream
 * @num: numerator
 * @den: denominator, > 0
 *
 * Return: true or false.
 */
bool sy_rng_chance(struct sy_rng *r, unsigned int num, unsigned int den)
{
	return sy_rng_next(r) % den < num;
}

/* ---- timers ---- */

static bool before(const struct sy_heap *h, unsigned int a, unsigned int b)
{
	const uint64_t *t = h->time;

	return t[a] < t[b] || (t[a] == t[b] && a < b);
}

static void heap_swap(struct sy_heap *h, unsigned int i, unsigned int j)
{
	unsigned int a = h->heap[i], b = h->heap[j];

	h->heap[i] = b;
	h->heap[j] = a;
	h->pos[b] = i;
	h->pos[a] = j;
}

static void heap_up(struct sy_heap *h, unsigned int i)
{
	while (i && before(h, h->heap[i], h->heap[(i - 1) / 2])) {
		heap_swap(h, i, (i - 1) / 2);
		i = (i - 1) / 2;
	}
}

static void heap_down(struct sy_heap *h, unsigned int i)
{
	for (;;) {
		unsigned int l = 2 * i + 1, r = l + 1, m = i;

		if (l < h->nr && before(h, h->heap[l], h->heap[m]))
			m = l;
		if (r < h->nr && before(h, h->heap[r], h->heap[m]))
			m = r;
		if (m == i)
			return;
		heap_swap(h, i, m);
		i = m;
	}
}

/**
 * sy_timers_init() - @nr timers, none set
 * @h: the heap, zeroed
 * @nr: timer ids 0..@nr - 1
 *
 * Return: 0 or -ENOMEM (then sy_timers_free() frees what was allocated).
 */
int sy_timers_init(struct sy_heap *h, unsigned int nr)
{
	h->heap = calloc(nr, sizeof(*h->heap));
	h->pos = malloc(nr * sizeof(*h->pos));
	h->time = malloc(nr * sizeof(*h->time));
	h->nr = 0;
	if (!h->heap || !h->pos || !h->time)
		return -ENOMEM;
	for (unsigned int i = 0; i < nr; i++) {
		h->pos[i] = UINT_MAX;
		h->time[i] = SY_NEVER;
	}
	return 0;
}

/**
 * sy_timers_free() - free the arrays of @h
 * @h: the heap
 */
void sy_timers_free(struct sy_heap *h)
{
	free(h->heap);
	free(h->pos);
	free(h->time);
	h->heap = h->pos = NULL;
	h->time = NULL;
	h->nr = 0;
}

/**
 * sy_timer_clear() - disarm timer @id
 * @h: the timers
 * @id: timer id
 */
void sy_timer_clear(struct sy_heap *h, unsigned int id)
{
	unsigned int i = h->pos[id];

	if (i == UINT_MAX)
		return;
	h->nr--;
	if (i != h->nr) {
		heap_swap(h, i, h->nr);
		heap_down(h, i);
		heap_up(h, i);
	}
	h->pos[id] = UINT_MAX;
	h->time[id] = SY_NEVER;
}

/**
 * sy_timer_set() - (re)arm timer @id at @t_ns
 * @h: the timers
 * @id: timer id
 * @t_ns: when it fires
 */
void sy_timer_set(struct sy_heap *h, unsigned int id, uint64_t t_ns)
{
	sy_timer_clear(h, id);
	h->time[id] = t_ns;
	h->heap[h->nr] = id;
	h->pos[id] = h->nr++;
	heap_up(h, h->nr - 1);
}

/**
 * sy_timer_is_set() - whether timer @id is armed
 * @h: the timers
 * @id: timer id
 *
 * Return: true when it is.
 */
bool sy_timer_is_set(const struct sy_heap *h, unsigned int id)
{
	return h->pos[id] != UINT_MAX;
}

/**
 * sy_timer_pop() - disarm the next timer to fire
 * @h: the timers
 * @id: its id
 * @t_ns: its time
 *
 * Return: false when no timer is set.
 */
bool sy_timer_pop(struct sy_heap *h, unsigned int *id, uint64_t *t_ns)
{
	if (!h->nr)
		return false;
	*id = h->heap[0];
	*t_ns = h->time[*id];
	sy_timer_clear(h, *id);
	return true;
}
