/* SPDX-License-Identifier: MIT */
/*
 * collect/synth/synthemit.h - how `ucval synth` writes an event (synthemit.c):
 * each at a microsecond of its own, recorded by a CPU in the context of its
 * running task, through the lost-events fault (synthtruth.h) to the output
 * (synthout.h), counted in the generator's statistics.
 */
#ifndef UCVAL_COLLECT_SYNTH_SYNTHEMIT_H
#define UCVAL_COLLECT_SYNTH_SYNTHEMIT_H

#include <stdbool.h>

#include "collect/synth/synthev.h"
#include "collect/synth/synthstate.h"

/**
 * sy_ctx() - fill the recording context of @ev: @cpu and its running task
 * @s: generator
 * @cpu: the CPU whose buffer records the event
 * @ev: the event
 */
void sy_ctx(const struct synth *s, unsigned int cpu, struct col_so_ev *ev);

/**
 * sy_emit() - write @ev at the next microsecond
 * @s: generator
 * @ev: the event, its context filled
 *
 * Return: true when it was written (s->last_ns is its time); false when the
 * lost-events fault dropped it or the trace has all its events.
 */
bool sy_emit(struct synth *s, struct col_so_ev *ev);

/**
 * sy_print() - write a trace_marker line from CPU 0 (the controlling task)
 * @s: generator
 * @fmt: printf format of the text
 *
 * Return: true when it was written (s->last_ns is its time).
 */
bool sy_print(struct synth *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif /* UCVAL_COLLECT_SYNTH_SYNTHEMIT_H */
