// SPDX-License-Identifier: MIT
/*
 * collect/synth/synthtimer.c - the clock of `ucval synth`: seeded random numbers
 * (one stream for the workload, one for the faults, so a faulty trace keeps
 * its clean twin's workload) and the timers, a min-heap on (time, id) with
 * one slot per task, CPU, policy and periodic action, so the next step is
 * found in O(log timers) whatever the trace length.
 */
#include <limits.h>

#include "collect/synth/synth_int.h"

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

static bool before(const struct synth *s, unsigned int a, unsigned int b)
{
	const uint64_t *t = s->timers.time;

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

static void heap_up(struct synth *s, unsigned int i)
{
	struct sy_heap *h = &s->timers;

	while (i && before(s, h->heap[i], h->heap[(i - 1) / 2])) {
		heap_swap(h, i, (i - 1) / 2);
		i = (i - 1) / 2;
	}
}

static void heap_down(struct synth *s, unsigned int i)
{
	struct sy_heap *h = &s->timers;

	for (;;) {
		unsigned int l = 2 * i + 1, r = l + 1, m = i;

		if (l < h->nr && before(s, h->heap[l], h->heap[m]))
			m = l;
		if (r < h->nr && before(s, h->heap[r], h->heap[m]))
			m = r;
		if (m == i)
			return;
		heap_swap(h, i, m);
		i = m;
	}
}

/**
 * sy_timer_clear() - disarm timer @id
 * @s: generator
 * @id: timer id (sy_t_*())
 */
void sy_timer_clear(struct synth *s, unsigned int id)
{
	struct sy_heap *h = &s->timers;
	unsigned int i = h->pos[id];

	if (i == UINT_MAX)
		return;
	h->nr--;
	if (i != h->nr) {
		heap_swap(h, i, h->nr);
		heap_down(s, i);
		heap_up(s, i);
	}
	h->pos[id] = UINT_MAX;
	h->time[id] = SY_NEVER;
}

/**
 * sy_timer_set() - (re)arm timer @id at @t_ns
 * @s: generator
 * @id: timer id
 * @t_ns: when it fires
 */
void sy_timer_set(struct synth *s, unsigned int id, uint64_t t_ns)
{
	struct sy_heap *h = &s->timers;

	sy_timer_clear(s, id);
	h->time[id] = t_ns;
	h->heap[h->nr] = id;
	h->pos[id] = h->nr++;
	heap_up(s, h->nr - 1);
}
