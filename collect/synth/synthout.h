/* SPDX-License-Identifier: MIT */
/*
 * collect/synth/synthout.h - where `ucval synth` writes its events: ftrace text
 * lines, or ring-buffer pages per CPU turned into a trace.dat v6 by
 * collect/datwrite.c. One event at a time, nothing kept per event.
 */
#ifndef UCVAL_COLLECT_SYNTH_SYNTHOUT_H
#define UCVAL_COLLECT_SYNTH_SYNTHOUT_H

#include <stdint.h>

#include "lib/diag.h"
#include "collect/synth/synth.h"

/* The events synth writes (events.md §2 names). */
enum col_so_type {
	COL_SO_SWITCH,
	COL_SO_WAKEUP,
	COL_SO_WAKEUP_NEW,
	COL_SO_MIGRATE,
	COL_SO_FORK,
	COL_SO_EXIT,
	COL_SO_FREE,
	COL_SO_FREQ,
	COL_SO_PRINT,
	COL_SO_UTIL_CFS,
	COL_SO_TASK_EFF,
	COL_SO__COUNT
};

/* prev_state bits of sched_switch as kernels since 4.14 record them. */
#define COL_SO_STATE_RUNNING	0x000	/* R */
#define COL_SO_STATE_SLEEP	0x001	/* S */
#define COL_SO_STATE_DISK	0x002	/* D */
#define COL_SO_STATE_DEAD	0x010	/* X */
#define COL_SO_STATE_PREEMPT	0x100	/* "+": preempted while runnable */

/**
 * struct col_so_ev - one event; strings are borrowed for the call
 * @type: which
 * @cpu: CPU whose buffer records it
 * @pid: common_pid, the task running there (0: idle)
 * @comm: its comm ("<idle>" for pid 0)
 * @sw: COL_SO_SWITCH fields
 * @task: WAKEUP, WAKEUP_NEW, MIGRATE (@arg0 target or orig, @arg1 dest),
 *	  EXIT, FREE
 * @fork: COL_SO_FORK fields
 * @freq: COL_SO_FREQ fields
 * @text: COL_SO_PRINT text, without the newline
 * @util: COL_SO_UTIL_CFS fields
 * @eff: COL_SO_TASK_EFF fields (@slot: the clamp group, v3, or bucket, mainline)
 */
struct col_so_ev {
	enum col_so_type type;
	unsigned int cpu;
	int pid;
	const char *comm;
	union {
		struct {
			const char *prev_comm;
			int prev_pid;
			int prev_prio;
			unsigned int prev_state;
			const char *next_comm;
			int next_pid;
			int next_prio;
		} sw;
		struct {
			const char *comm;
			int pid;
			int prio;
			int arg0;
			int arg1;
		} task;
		struct {
			const char *parent_comm;
			int parent_pid;
			const char *child_comm;
			int child_pid;
		} fork;
		struct {
			unsigned int khz;
			unsigned int cpu_id;
		} freq;
		const char *text;
		struct {
			unsigned int cpu;
			unsigned int util_avg;
			unsigned int uclamp_avg;
			unsigned int uclamp_min;
			unsigned int uclamp_max;
		} util;
		struct {
			const char *comm;
			int pid;
			int clamp_id;
			unsigned int value;
			unsigned int effective;
			int slot;
		} eff;
	};
};

struct col_synthout;

/**
 * col_synthout_open() - start writing @path
 * @out: the writer, released by col_synthout_close() or col_synthout_free()
 * @path: final path; text goes to a temporary file next to it, trace.dat
 *	  pages to unlinked per-CPU files next to it
 * @format: text or trace.dat
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
 * next event); trace.dat: the CPU's next page carries the missed count.
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

/* ---- trace.dat metadata (synthfmt.c) ---- */

/**
 * struct col_synthfmt_system - formats of one event system
 * @name: system name
 * @formats: format texts
 * @nr: how many
 */
struct col_synthfmt_system {
	const char *name;
	const char *const *formats;
	unsigned int nr;
};

extern const char col_synthfmt_header_page[];
extern const char col_synthfmt_header_event[];
extern const char col_synthfmt_print[];
extern const struct col_synthfmt_system col_synthfmt_systems[];
extern const unsigned int col_synthfmt_nr_systems;

/* Event ids the formats declare, per enum col_so_type (COL_SO_PRINT: ftrace print). */
extern const unsigned short col_synthfmt_id[COL_SO__COUNT];

#endif /* UCVAL_COLLECT_SYNTH_SYNTHOUT_H */
