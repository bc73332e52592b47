/* SPDX-License-Identifier: MIT */
/*
 * collect/probes.h - the BPF probes of `ucval collect --probes`: on a kernel
 * without uclamp trace events, read rq->uclamp[], p->uclamp[] and PELT
 * through BTF (collect/bpf/ucprobes.bpf.c) and write the canonical events
 * as ring-buffer pages of a second trace.dat instance (COL_PROBEFMT_INSTANCE)
 * on the "mono" trace clock.
 */
#ifndef UCVAL_COLLECT_PROBES_H
#define UCVAL_COLLECT_PROBES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/diag.h"

#define COL_PROBES_CLOCK	"mono"	/* bpf_ktime_get_ns()'s clock in tracefs */

/* --probes */
enum col_probes_mode {
	COL_PROBES_AUTO,	/* on when the kernel allows and lacks uclamp events */
	COL_PROBES_ON,
	COL_PROBES_OFF,
};

/**
 * col_probes_mode_parse() - "auto", "on" or "off"
 * @s: the option's argument
 * @mode: set on success
 *
 * Return: 0, or -EINVAL for another word.
 */
int col_probes_mode_parse(const char *s, enum col_probes_mode *mode);

/**
 * col_probes_check() - whether the running kernel can run the probes
 * @need_uclamp: false to accept a kernel without uclamp (the PELT,
 *		 util_est and capacity probes only)
 * @why: set to the reason they cannot run: one line, no full stop
 * @len: its size
 *
 * Checks, in order: BTF (/sys/kernel/btf/vmlinux), BPF (a raw tracepoint
 * program loads), the uclamp fields (rq->uclamp, task_struct.uclamp_req).
 *
 * Return: true when they can.
 */
bool col_probes_check(bool need_uclamp, char *why, size_t len);

/**
 * struct col_probes_opts - how to run the probes
 * @nr_cpus: CPUs (possible CPUs of the machine)
 * @page_size: ring-buffer page size of the trace.dat
 * @ring_bytes: BPF ring buffer size: rounded up to a power of two
 * @tmpdir: directory of the page files, NULL for $TMPDIR or /tmp
 */
struct col_probes_opts {
	unsigned int nr_cpus;
	unsigned int page_size;
	uint64_t ring_bytes;
	const char *tmpdir;
	unsigned int hold_ms;	/* leave the ring unread this long after attach (tests) */
};

struct col_probes;

/**
 * col_probes_open() - load the probes (col_probes_attach() starts them)
 * @opts: options
 * @out: the probes, freed with col_probes_close()
 * @d: diagnostic on failure (libbpf's reason)
 *
 * Return: 0 or a negative errno.
 */
int col_probes_open(const struct col_probes_opts *opts, struct col_probes **out,
		    struct an_diag *d);

/**
 * col_probes_attach_early() - start the probes on functions and on bare
 * tracepoints
 * @p: probes
 * @d: diagnostic on failure
 *
 * Called after the platform markers (the analysis takes its setup from
 * markers before any event) and before the kernel's events are enabled, so
 * that every schedutil evaluation and PELT update is traced from the
 * kernel's first event on (col_probes_trace_from() drops the earlier ones).
 *
 * Return: 0 or a negative errno.
 */
int col_probes_attach_early(struct col_probes *p, struct an_diag *d);

/**
 * col_probes_trace_from() - keep the probes' records from now on
 * @p: probes
 *
 * Called once the kernel's events are on: a record from before would show
 * a PELT update or schedutil evaluation whose effect the trace cannot
 * show. Records are kept from the start by default.
 */
void col_probes_trace_from(struct col_probes *p);

/**
 * col_probes_trace_until() - keep no record from now on
 * @p: probes
 *
 * Called just after the kernel's events stop (col_record_halt()): the
 * probes go on until col_probes_stop() and would show evaluations whose
 * frequency changes the trace no longer records. Called before it, the
 * trace would end with frequency changes whose evaluations were cut.
 */
void col_probes_trace_until(struct col_probes *p);

/**
 * col_probes_attach() - start the rest of the probes
 * @p: probes
 * @d: diagnostic on failure
 *
 * Called when the kernel events are enabled: the probes on tracepoints
 * that are also kernel events then record after the kernel does. Attaches
 * the early probes too when col_probes_attach_early() was not called.
 *
 * Return: 0 or a negative errno.
 */
int col_probes_attach(struct col_probes *p, struct an_diag *d);

/**
 * col_probes_poll() - move what the ring buffer holds into the pages
 * @p: probes
 * @d: diagnostic on failure
 *
 * Return: 0 or a negative errno (a page file could not be written).
 */
int col_probes_poll(struct col_probes *p, struct an_diag *d);

/**
 * col_probes_stop() - detach, drain the ring buffer, write the last pages
 * @p: probes
 * @fds: set to per-CPU page files (-1: none), owned by @p
 * @d: diagnostic on failure
 *
 * Losses after a CPU's last record go on a page of their own.
 *
 * Return: 0 or a negative errno.
 */
int col_probes_stop(struct col_probes *p, const int **fds, struct an_diag *d);

/**
 * col_probes_have_uclamp() - whether the probes read uclamp values
 * @p: probes
 *
 * Return: false on a kernel without uclamp (UCVAL_PROBES_NO_UCLAMP).
 */
bool col_probes_have_uclamp(const struct col_probes *p);

/**
 * col_probes_without_enqueue() - whether the enqueue/dequeue probes are off
 * @p: probes
 *
 * A kernel without BPF trampolines (fexit) refuses them: uclamp_task_eff,
 * uclamp_util_se of re-enqueues no scheduler event reports, and the hold
 * between a sleeping task's dequeue and its switch are then missing.
 *
 * Return: true when they are.
 */
bool col_probes_without_enqueue(const struct col_probes *p);

/**
 * col_probes_counts() - records written and lost so far
 * @p: probes
 * @events: set to the records written
 * @lost: set to the records the ring buffer had no room for
 */
void col_probes_counts(const struct col_probes *p, uint64_t *events, uint64_t *lost);

/**
 * col_probes_close() - detach and free @p and its page files
 * @p: probes, may be NULL
 */
void col_probes_close(struct col_probes *p);

#endif /* UCVAL_COLLECT_PROBES_H */
