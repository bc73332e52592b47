/* SPDX-License-Identifier: MIT */
/*
 * collect/synth/synthout.h - where `ucval synth` writes its events: ftrace text
 * lines, ring-buffer pages per CPU turned into a trace.dat v6 by
 * collect/datwrite.c, or Perfetto ftrace bundles per CPU
 * (analyze/read/pfenc.c). One event at a time, nothing kept per event.
 */
#ifndef UCVAL_COLLECT_SYNTH_SYNTHOUT_H
#define UCVAL_COLLECT_SYNTH_SYNTHOUT_H

#include <stdint.h>

#include "lib/diag.h"
#include "collect/synth/synthev.h"

/* What col_synthout_open() writes (struct col_synth_opts @format). */
enum col_synth_format {
	COL_SYNTH_DAT,		/* trace.dat v6 (collect/datwrite.c) */
	COL_SYNTH_TEXT,		/* ftrace text, as the kernel's trace file */
	COL_SYNTH_PFTRACE,	/* a Perfetto trace of ftrace event bundles */
};

struct col_synthout;

/**
 * col_synthout_open() - start writing @path
 * @out: the writer, released by col_synthout_close() or col_synthout_free()
 * @path: final path; text and Perfetto go to a temporary file next to it,
 *	  trace.dat pages to unlinked per-CPU files next to it
 * @format: text, trace.dat or Perfetto
 * @nr_cpus: CPUs of the trace
 * @cmdlines: "pid comm" lines for the trace.dat header (borrowed until close)
 * @d: diagnostic on failure
 *
 * Return: 0, -ENOMEM, or the negative errno of a failed create.
 */
int col_synthout_open(struct col_synthout **out, const char *path,
		      enum col_synth_format format, unsigned int nr_cpus,
		      const char *cmdlines, struct an_diag *d);

/**
 * col_synthout_platform() - the kernel release, for a format that has a
 * place for it (Perfetto: SystemInfo, written now, before any event)
 * @o: writer, just opened
 * @release: "6.1.0"; borrowed for the call
 */
void col_synthout_platform(struct col_synthout *o, const char *release);

/**
 * col_synthout_event() - write one event at @ts_ns
 * @o: writer
 * @ts_ns: its time; never before the previous event of the same CPU
 * @ev: the event
 *
 * Write errors are kept and reported by col_synthout_close().
 */
void col_synthout_event(struct col_synthout *o, uint64_t ts_ns, const struct col_so_ev *ev);

/**
 * col_synthout_lost() - @count events of @cpu were dropped before its next one
 * @o: writer
 * @cpu: the CPU
 * @count: how many
 *
 * Text: a "CPU:N [LOST M EVENTS]" line now (call it right before the CPU's
 * next event); trace.dat: the CPU's next page carries the missed count;
 * Perfetto: the CPU's next bundle says lost_events (without the count).
 */
void col_synthout_lost(struct col_synthout *o, unsigned int cpu, uint64_t count);

/**
 * col_synthout_close() - finish the file and rename it into place
 * @o: writer, freed in every case
 * @d: diagnostic on failure
 *
 * Return: 0 or the negative errno of the failed write or rename (no file
 * is left behind then).
 */
int col_synthout_close(struct col_synthout *o, struct an_diag *d);

/**
 * col_synthout_free() - abandon the file: temporary files are removed
 * @o: writer, may be NULL
 */
void col_synthout_free(struct col_synthout *o);

#endif /* UCVAL_COLLECT_SYNTH_SYNTHOUT_H */
