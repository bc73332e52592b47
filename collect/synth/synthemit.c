/* SPDX-License-Identifier: MIT */
/*
 * collect/synth/synthemit.c - the writing of events of `ucval synth`
 * (synthemit.h). Every event takes a microsecond of its own, so all readers
 * order the trace the same way, and the trace ends at exactly the number of
 * events asked for.
 */
#include <stdarg.h>
#include <stdio.h>

#include "collect/synth/synthemit.h"
#include "collect/synth/synthout.h"
#include "collect/synth/synthtruth.h"

/**
 * sy_ctx() - fill the recording context of @ev: @cpu and its running task
 * @s: generator
 * @cpu: the CPU whose buffer records the event
 * @ev: the event
 */
void sy_ctx(const struct synth *s, unsigned int cpu, struct col_so_ev *ev)
{
	const struct sy_task *t = s->cpu[cpu].curr;

	ev->cpu = cpu;
	ev->pid = t ? t->pid : 0;
	ev->comm = t ? t->comm : "<idle>";
}

/**
 * sy_emit() - write @ev at the next microsecond
 * @s: generator
 * @ev: the event, its context filled
 *
 * Every event takes a microsecond of its own, also one the lost-events
 * fault drops, so a faulty trace keeps its twin's timing.
 *
 * Return: true when it was written (s->last_ns is its time).
 */
bool sy_emit(struct synth *s, struct col_so_ev *ev)
{
	uint64_t ts;

	if (s->is_done)
		return false;
	ts = s->now_ns;
	s->now_ns += SY_NS_PER_US;
	if (sy_loss_filter(s, ev, ts)) {
		s->st.nr_dropped++;
		return false;
	}
	col_synthout_event(s->out, ts, ev);
	if (!s->st.nr_events)
		s->st.t_start_ns = ts;
	s->st.nr_events++;
	s->st.t_end_ns = ts;
	s->last_ns = ts;
	s->cpu[ev->cpu].last_ts = ts;
	if (s->st.nr_events >= s->o->nr_events)
		s->is_done = true;
	return true;
}

/**
 * sy_print() - write a trace_marker line from CPU 0 (the controlling task)
 * @s: generator
 * @fmt: printf format of the text
 *
 * Return: true when it was written (s->last_ns is its time).
 */
bool sy_print(struct synth *s, const char *fmt, ...)
{
	char text[400];
	struct col_so_ev ev = { .type = COL_SO_PRINT, .text = text };
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	sy_ctx(s, 0, &ev);
	return sy_emit(s, &ev);
}
