/* SPDX-License-Identifier: MIT */
/*
 * collect/record.h - record into a tracefs instance of its own, streaming
 * each CPU's raw ring-buffer pages to an unlinked temporary file while the
 * recording runs, so its length does not depend on the buffer size.
 */
#ifndef UCVAL_COLLECT_RECORD_H
#define UCVAL_COLLECT_RECORD_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/diag.h"
#include "collect/datwrite.h"
#include "collect/events.h"

#define COL_RECORD_INSTANCE	"ucval"	/* default instance name */
/* where the owner file of each instance lives (collect/record.c) */
#define COL_RECORD_OWNER_DIR	"/run/lock"

/**
 * struct col_record_opts - how to record
 * @instance: instance name, NULL for COL_RECORD_INSTANCE
 * @buffer_kb: per-CPU ring buffer size in KiB, 0 for the instance default
 * @clock: trace clock ("local", "mono", ...), NULL for the instance default
 * @extra: events added with -e ("system:event" or "event")
 * @nr_extra: how many
 * @tmpdir: directory of the per-CPU temporary files, NULL for $TMPDIR or /tmp
 */
struct col_record_opts {
	const char *instance;
	unsigned int buffer_kb;
	const char *clock;
	const char *const *extra;
	unsigned int nr_extra;
	const char *tmpdir;
};

/**
 * struct col_cpu_stat - counters of one CPU (per_cpu/cpuN/stats)
 * @entries: events still in the ring buffer
 * @overrun: events overwritten before they were read (lost)
 * @commit_overrun: events lost while a commit was in progress
 * @dropped: events dropped because the buffer was full (lost)
 * @read_events: events the reader consumed
 * @bytes: raw page bytes written to the CPU's file
 */
struct col_cpu_stat {
	uint64_t entries;
	uint64_t overrun;
	uint64_t commit_overrun;
	uint64_t dropped;
	uint64_t read_events;
	uint64_t bytes;
};

struct col_record;

/**
 * col_record_open() - create the instance, size it and choose the events
 * @opts: options
 * @out: the recorder, to be freed with col_record_close()
 * @d: diagnostic on failure
 *
 * Tracing stays off until col_record_start() and the events until
 * col_record_enable(). The top-level buffer is never touched.
 *
 * An instance of the same name left by a recorder that died (its owner
 * file names it and is no longer locked) is removed first.
 *
 * Return: 0; -ENODEV when tracefs is not mounted; -EACCES when it is not
 * writable (not root); -EBUSY when a live recorder owns the instance;
 * -EEXIST when the instance exists and no ucval recorder created it;
 * -ENOENT for an unknown -e event; or another negative errno.
 */
int col_record_open(const struct col_record_opts *opts, struct col_record **out,
		    struct an_diag *d);

/**
 * col_record_events() - the events chosen and the canonical types missing
 * @rec: recorder
 *
 * Return: a pointer into @rec, valid until col_record_close().
 */
const struct col_events *col_record_events(const struct col_record *rec);

/**
 * col_record_nr_cpus() - CPUs recorded
 * @rec: recorder
 *
 * Return: the count of per-CPU buffers.
 */
unsigned int col_record_nr_cpus(const struct col_record *rec);

/**
 * col_record_start() - turn tracing on in the instance
 * @rec: recorder
 * @d: diagnostic on failure
 *
 * Return: 0 or a negative errno.
 */
int col_record_start(struct col_record *rec, struct an_diag *d);

/**
 * col_record_enable() - enable the chosen events in the instance
 * @rec: recorder
 * @d: diagnostic on failure
 *
 * Separate from col_record_start() so the platform markers can be written
 * first: the analyzer takes its setup from markers before any event.
 *
 * Return: 0 or a negative errno.
 */
int col_record_enable(struct col_record *rec, struct an_diag *d);

/**
 * col_record_marker() - write one line to the instance's trace_marker
 * @rec: recorder, started
 * @line: text without a newline
 *
 * Return: 0 or a negative errno.
 */
int col_record_marker(struct col_record *rec, const char *line);

/**
 * col_record_poll() - wait up to @timeout_ms for data, then save full pages
 * @rec: recorder, started
 * @timeout_ms: longest wait; a signal ends it early (not an error)
 * @d: diagnostic on failure
 *
 * Return: 0 or a negative errno (a temporary file could not be written).
 */
int col_record_poll(struct col_record *rec, int timeout_ms, struct an_diag *d);

/**
 * col_record_halt() - turn tracing off: no event is recorded after it
 * @rec: recorder
 * @d: diagnostic on failure
 *
 * col_record_stop() does it too when not done yet.
 *
 * Return: 0 or a negative errno.
 */
int col_record_halt(struct col_record *rec, struct an_diag *d);

/**
 * col_record_stop() - turn tracing off (col_record_halt()), save what is
 * left, read the counters
 * @rec: recorder
 * @d: diagnostic on failure
 *
 * Return: 0 or a negative errno.
 */
int col_record_stop(struct col_record *rec, struct an_diag *d);

/**
 * col_record_stat() - counters of @cpu
 * @rec: recorder
 * @cpu: CPU index
 * @st: filled; the stats file is read again (progress), bytes are ucval's
 *
 * Return: 0, or a negative errno when the stats file cannot be read.
 */
int col_record_stat(struct col_record *rec, unsigned int cpu, struct col_cpu_stat *st);

/**
 * col_record_lost() - events lost on @cpu as the kernel counts them
 * @st: its counters
 *
 * Return: overrun + commit_overrun + dropped.
 */
uint64_t col_record_lost(const struct col_cpu_stat *st);

/**
 * col_record_write() - write the recording as a trace.dat v6
 * @rec: recorder, stopped
 * @path: output file (replaced atomically)
 * @d: diagnostic on failure
 *
 * The file holds the formats of the recorded events, saved_cmdlines, the
 * options UNAME, TRACECLOCK, CPUCOUNT, VERSION and one CPUSTAT per CPU.
 *
 * Return: 0 or a negative errno.
 */
int col_record_write(struct col_record *rec, const char *path, struct an_diag *d);

/**
 * col_record_add_instance() - write a named instance beside the recording
 * @rec: recorder
 * @sys: the event formats of its records (one system), borrowed until
 *	 col_record_write()
 * @name: instance name, borrowed likewise
 * @cpu_fds: per CPU of @rec, its page file or -1, borrowed likewise
 */
void col_record_add_instance(struct col_record *rec, const struct col_dat_system *sys,
			     const char *name, const int *cpu_fds);

/**
 * col_record_page_size() - ring-buffer page size of the instance
 * @rec: recorder
 *
 * Return: bytes.
 */
unsigned int col_record_page_size(const struct col_record *rec);

/**
 * col_record_buffer_kb() - per-CPU buffer size of the instance
 * @rec: recorder
 *
 * Return: KiB, 0 when tracefs does not say.
 */
unsigned int col_record_buffer_kb(const struct col_record *rec);

/**
 * col_record_close() - remove the instance and free @rec
 * @rec: recorder, may be NULL; its temporary files go with it
 *
 * Return: 0, or a negative errno when the instance could not be removed.
 */
int col_record_close(struct col_record *rec);

#endif /* UCVAL_COLLECT_RECORD_H */
