// SPDX-License-Identifier: MIT
/*
 * reports/fmt.c - the textual form of report fields. Times are integer
 * nanoseconds on the trace's own clock (events.md §5); reports show them
 * relative to the trace's first event, in seconds with microsecond digits,
 * next to the raw value. Integer arithmetic only: no rounding surprises.
 */
#include <inttypes.h>
#include <stdio.h>

#include "reports/fmt.h"

#define NS_PER_S	1000000000LL
#define NS_PER_MS	1000000LL
#define NS_PER_US	1000LL

/* "-1.500000" from -1500000000 ns: sign, whole units, @digits of the rest. */
static const char *fixed(char buf[REP_FMT_LEN], int64_t ns, int64_t unit, int64_t step,
			 int digits)
{
	uint64_t mag = ns < 0 ? -(uint64_t)ns : (uint64_t)ns;

	snprintf(buf, REP_FMT_LEN, "%s%" PRIu64 ".%0*" PRIu64, ns < 0 ? "-" : "",
		 mag / (uint64_t)unit, digits, mag % (uint64_t)unit / (uint64_t)step);
	return buf;
}

/**
 * rep_fmt_rel_s() - @ts_ns - @t0_ns in seconds with six decimals
 * @buf: output
 * @ts_ns: the time
 * @t0_ns: the trace's start
 *
 * Return: @buf, e.g. "0.006000" (truncated to the microsecond).
 */
const char *rep_fmt_rel_s(char buf[REP_FMT_LEN], int64_t ts_ns, int64_t t0_ns)
{
	return fixed(buf, ts_ns - t0_ns, NS_PER_S, NS_PER_US, 6);
}

/**
 * rep_fmt_ms() - a duration in milliseconds with three decimals
 * @buf: output
 * @dur_ns: the duration
 *
 * Return: @buf, e.g. "3.000".
 */
const char *rep_fmt_ms(char buf[REP_FMT_LEN], int64_t dur_ns)
{
	return fixed(buf, dur_ns, NS_PER_MS, NS_PER_US, 3);
}

/**
 * rep_fmt_task() - "123 (comm)", "123", or "-" without a task
 * @buf: output
 * @pid: the pid, negative for none
 * @comm: its name, NULL when unknown
 *
 * Return: @buf.
 */
const char *rep_fmt_task(char buf[REP_FMT_LEN], int pid, const char *comm)
{
	if (pid < 0)
		snprintf(buf, REP_FMT_LEN, "-");
	else if (comm)
		snprintf(buf, REP_FMT_LEN, "%d (%s)", pid, comm);
	else
		snprintf(buf, REP_FMT_LEN, "%d", pid);
	return buf;
}

/**
 * rep_fmt_cpu() - the CPU number, or "-" without one
 * @buf: output
 * @cpu: the CPU, negative for none
 *
 * Return: @buf.
 */
const char *rep_fmt_cpu(char buf[REP_FMT_LEN], int cpu)
{
	if (cpu < 0)
		snprintf(buf, REP_FMT_LEN, "-");
	else
		snprintf(buf, REP_FMT_LEN, "%d", cpu);
	return buf;
}

/**
 * rep_fmt_value() - an expected or observed value as stored, "-" for NULL
 * @v: the value
 *
 * Return: a string owned by @v, or a static "-".
 */
const char *rep_fmt_value(const struct rep_value *v)
{
	return v->text ? v->text : "-";
}

/**
 * rep_fmt_or() - @s, or @if_null when @s is NULL
 * @s: a column's text
 * @if_null: what to show instead
 *
 * Return: one of the two.
 */
const char *rep_fmt_or(const char *s, const char *if_null)
{
	return s ? s : if_null;
}

/**
 * rep_fmt_window() - a mismatch window on one line
 * @buf: output
 * @t: its trace (for the start time)
 * @w: the window
 *
 * Return: @buf, e.g. "cpu 0, task 100 (app), at 0.006000 s (20006000000 ns)
 * for 3.000 ms: expected 1500000, observed 1000000 (MS1): message".
 */
const char *rep_fmt_window(char buf[REP_FMT_LINE_LEN], const struct rep_trace *t,
			   const struct rep_window *w)
{
	char cpu[REP_FMT_LEN], task[REP_FMT_LEN], at[REP_FMT_LEN], dur[REP_FMT_LEN];

	snprintf(buf, REP_FMT_LINE_LEN,
		 "cpu %s, task %s, at %s s (%" PRId64 " ns) for %s ms: expected %s, observed %s"
		 " (%s): %s", rep_fmt_cpu(cpu, w->cpu), rep_fmt_task(task, w->pid, w->comm),
		 rep_fmt_rel_s(at, w->ts_start_ns, t->t_start_ns), w->ts_start_ns,
		 rep_fmt_ms(dur, w->ts_end_ns - w->ts_start_ns), rep_fmt_value(&w->expected),
		 rep_fmt_value(&w->observed), rep_fmt_or(w->rule, "-"),
		 rep_fmt_or(w->message, ""));
	return buf;
}
