/* SPDX-License-Identifier: MIT */
/*
 * collect/synth/synthtimer.h - the clock of `ucval synth` (synthtimer.c):
 * seeded random numbers and a min-heap of timers on (time, id). Both know
 * nothing of the generator: its state (synthstate.h) holds them and says
 * which timer id is what.
 */
#ifndef UCVAL_COLLECT_SYNTH_SYNTHTIMER_H
#define UCVAL_COLLECT_SYNTH_SYNTHTIMER_H

#include <stdbool.h>
#include <stdint.h>

/* The time of a timer that is not set, and "never" wherever a time may be. */
#define SY_NEVER		UINT64_MAX

/* Deterministic random numbers (splitmix64 seeding, xorshift64* draws). */
struct sy_rng {
	uint64_t s;
};

/**
 * sy_rng_seed() - seed one stream of random numbers
 * @r: the stream
 * @seed: the user's seed
 * @stream: which stream (the workload and the faults draw separately)
 */
void sy_rng_seed(struct sy_rng *r, uint64_t seed, uint64_t stream);

/**
 * sy_rng_next() - 64 random bits (xorshift64*)
 * @r: the stream
 *
 * Return: the next number.
 */
uint64_t sy_rng_next(struct sy_rng *r);

/**
 * sy_rng_range() - a number in [@lo, @hi], uniform
 * @r: the stream
 * @lo: smallest
 * @hi: largest, >= @lo
 *
 * Return: the number.
 */
uint64_t sy_rng_range(struct sy_rng *r, uint64_t lo, uint64_t hi);

/**
 * sy_rng_chance() - true with probability @num / @den
 * @r: the stream
 * @num: numerator
 * @den: denominator, > 0
 *
 * Return: true or false.
 */
bool sy_rng_chance(struct sy_rng *r, unsigned int num, unsigned int den);

/**
 * struct sy_heap - timers 0..nr-1, each set or not
 * @heap: the ids of the set timers, a min-heap on (time, id)
 * @pos: id -> index in @heap, UINT_MAX when not set
 * @time: id -> when it fires, SY_NEVER when not set
 * @nr: set timers
 *
 * The arrays belong to the heap: sy_timers_init() allocates them,
 * sy_timers_free() frees them.
 */
struct sy_heap {
	unsigned int *heap;
	unsigned int *pos;
	uint64_t *time;
	unsigned int nr;
};

/**
 * sy_timers_init() - @nr timers, none set
 * @h: the heap, zeroed
 * @nr: timer ids 0..@nr - 1
 *
 * Return: 0 or -ENOMEM (then sy_timers_free() frees what was allocated).
 */
int sy_timers_init(struct sy_heap *h, unsigned int nr);

/**
 * sy_timers_free() - free the arrays of @h
 * @h: the heap
 */
void sy_timers_free(struct sy_heap *h);

/**
 * sy_timer_set() - (re)arm timer @id at @t_ns
 * @h: the timers
 * @id: timer id
 * @t_ns: when it fires
 */
void sy_timer_set(struct sy_heap *h, unsigned int id, uint64_t t_ns);

/**
 * sy_timer_clear() - disarm timer @id
 * @h: the timers
 * @id: timer id
 */
void sy_timer_clear(struct sy_heap *h, unsigned int id);

/**
 * sy_timer_is_set() - whether timer @id is armed
 * @h: the timers
 * @id: timer id
 *
 * Return: true when it is.
 */
bool sy_timer_is_set(const struct sy_heap *h, unsigned int id);

/**
 * sy_timer_pop() - disarm the next timer to fire: the earliest, the
 * smallest id among equal times
 * @h: the timers
 * @id: its id
 * @t_ns: its time
 *
 * Return: false when no timer is set.
 */
bool sy_timer_pop(struct sy_heap *h, unsigned int *id, uint64_t *t_ns);

#endif /* UCVAL_COLLECT_SYNTH_SYNTHTIMER_H */
