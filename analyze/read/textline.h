/* SPDX-License-Identifier: MIT */
/*
 * analyze/read/textline.h - grammar of one ftrace text line (internal to text.c,
 * exposed for tests and the fuzzer).
 */
#ifndef UCVAL_ANALYZE_READ_TEXTLINE_H
#define UCVAL_ANALYZE_READ_TEXTLINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/diag.h"
#include "analyze/read/event.h"

/* What a line was. */
enum an_textline_kind {
	AN_TEXTLINE_SKIP = 0,	/* blank, comment, header without data */
	AN_TEXTLINE_EVENT,	/* an event, decoded into the event */
	AN_TEXTLINE_LOST,	/* "CPU:N [LOST M EVENTS]" and trace-cmd's forms */
	AN_TEXTLINE_CPUS,	/* a header giving the CPU count */
	AN_TEXTLINE_EVENTS,	/* "# enabled events: sched:sched_switch ..." */
};

/**
 * struct an_textline_extra - data of non-event lines
 * @cpu: CPU of a LOST line
 * @lost: events lost, 0 when the line does not say how many
 * @nr_cpus: CPU count of a CPUS line
 * @ev_listed: canonical types (AN_EV_BIT()) an EVENTS line names
 * @ts_raw: an EVENT line's timestamp is a bare count ("123456789:"), not
 *	    seconds with a fraction: the trace clock does not count ns, and
 *	    ev->ts_ns holds the count
 */
struct an_textline_extra {
	int cpu;
	unsigned long long lost;
	int nr_cpus;
	uint64_t ev_listed;
	bool ts_raw;
};

/**
 * an_textline_parse() - decode one line
 * @line: the line, without its newline, NUL-terminated at @len; it is
 *	  modified (the event name is NUL-terminated in place) and @ev points
 *	  into it
 * @len: its length
 * @ev: event filled for AN_TEXTLINE_EVENT
 * @x: filled for LOST, CPUS and EVENTS lines
 * @d: diagnostic (message, event, field; the caller adds the position)
 *
 * Handles "comm-pid [cpu] flags ts: event: fields" with or without the flags
 * and the "(tgid)" columns, comms with spaces and dashes (the pid follows the
 * last '-' that leaves a valid line), trace-cmd report's "cpu+flags" column
 * (-l), key=value fields, the compact sched_switch/sched_wakeup output of
 * trace-cmd's sched plugin, and the print event of old kernels, whose ip
 * prints as a number in place of the event name ("0: B|pid|name").
 *
 * Return: an enum an_textline_kind, or AN_E_SYNTAX (not an ftrace line),
 * AN_E_FIELD or AN_E_VALUE (a known event with a missing or bad field).
 */
int an_textline_parse(char *line, size_t len, struct an_event *ev,
		      struct an_textline_extra *x, struct an_diag *d);

/**
 * an_textline_cpu() - what a line says of the CPUs, its fields unread
 * @line: the line, need not be NUL-terminated; not modified
 * @len: its length
 * @x: filled for LOST and CPUS lines
 * @cpu: the CPU column of an event line
 * @type: the type of an event line
 *
 * Cheaper than an_textline_parse(), for a pass that only counts CPUs: an
 * event whose fields name CPUs needs an_textline_parse() for them.
 *
 * Return: an enum an_textline_kind, or AN_E_SYNTAX (not an ftrace line).
 */
int an_textline_cpu(const char *line, size_t len, struct an_textline_extra *x,
		    int *cpu, enum an_event_type *type);

/**
 * an_textline_probe() - whether a line is recognisably ftrace text
 * @line: the line, need not be NUL-terminated
 * @len: its length
 *
 * Return: true for an event line, a LOST line, "# tracer:" or "cpus=N".
 */
bool an_textline_probe(const char *line, size_t len);

#endif /* UCVAL_ANALYZE_READ_TEXTLINE_H */
