/* SPDX-License-Identifier: MIT */
/*
 * analyze/read/pfbundle.h - one FtraceEventBundle of a Perfetto trace: its
 * events (typed, generic, and the compact_sched arrays) put in time order,
 * then decoded one at a time into canonical events.
 *
 * compact_sched's sched_switch has no prev_pid, prev_comm nor prev_prio:
 * the previous task is the last one switched in on that CPU, which the
 * caller tracks across bundles (struct an_pfbundle_prev). Before the CPU's
 * first switch, and after a loss, it is unknown: prev_pid -1, which every
 * consumer of sched_switch takes as no task (only pids > 0 are tasks).
 * Its sched_waking has no common pid either: the waker is that same task.
 */
#ifndef UCVAL_ANALYZE_READ_PFBUNDLE_H
#define UCVAL_ANALYZE_READ_PFBUNDLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/diag.h"
#include "lib/pbwire.h"
#include "analyze/read/event.h"
#include "analyze/read/pfgeneric.h"

/* Where an event of a bundle comes from. */
enum an_pfrec_kind {
	AN_PFREC_EVENT,		/* a FtraceEvent */
	AN_PFREC_SWITCH,	/* compact_sched switch_* entry */
	AN_PFREC_WAKING,	/* compact_sched waking_* entry */
};

/**
 * struct an_pfrec - one event of a bundle, not yet decoded
 * @ts: its timestamp
 * @seq: its place in the bundle's encoding (orders equal timestamps)
 * @kind: where it comes from
 * @data: AN_PFREC_EVENT: the FtraceEvent bytes; compact: the comm
 * @len: their length
 * @pid: compact: next_pid / the woken pid
 * @prio: compact: next_prio / the woken prio
 * @target_cpu: compact waking: target_cpu
 * @prev_state: compact switch: prev_state
 * @ev_pid: AN_PFREC_EVENT: its pid field (0 when absent)
 * @body: AN_PFREC_EVENT: its first length-delimited field, the event's own
 *        message (number 0: none), found as the bundle is loaded
 */
struct an_pfrec {
	uint64_t ts;
	uint32_t seq;
	enum an_pfrec_kind kind;
	const uint8_t *data;
	size_t len;
	int32_t pid;
	int32_t prio;
	int32_t target_cpu;
	int64_t prev_state;
	uint64_t ev_pid;
	struct an_pb_field body;
};

/**
 * struct an_pfbundle_prev - the last task switched in on a CPU
 * @pid: its pid, -1 unknown
 * @prio: its prio
 * @comm: its name
 */
struct an_pfbundle_prev {
	int pid;
	int prio;
	char comm[AN_COMM_LEN];
};

/**
 * struct an_pfbundle - the events of one bundle, in time order
 * @cpu: its CPU, -1 when the bundle has none
 * @is_lost: the kernel overwrote events before this bundle (lost_events)
 * @rec: the events, sorted by (ts, seq)
 * @nr_rec: their number
 * @alloc_rec: room in @rec
 * @comm: compact_sched's intern table (borrowed strings)
 * @comm_len: their lengths
 * @nr_comm: entries
 * @alloc_comm: room in @comm
 * @alloc_comm_len: room in @comm_len
 *
 * Everything points into the bundle's bytes, the caller's, which must
 * outlive it.
 */
struct an_pfbundle {
	int cpu;
	bool is_lost;
	struct an_pfrec *rec;
	size_t nr_rec;
	size_t alloc_rec;
	const uint8_t **comm;
	uint32_t *comm_len;
	size_t nr_comm;
	size_t alloc_comm;
	size_t alloc_comm_len;
};

/**
 * an_pfbundle_load() - read a bundle's events into @b, in time order
 * @b: bundle, zeroed or reused (its arrays are kept)
 * @data: the FtraceEventBundle bytes, borrowed
 * @len: their length
 * @d: diagnostic on failure (its offset is set relative to @data)
 *
 * Return: 0, -ENOMEM or AN_E_CORRUPT (malformed wire data, compact arrays
 * of unequal lengths, a comm index outside the intern table).
 */
int an_pfbundle_load(struct an_pfbundle *b, const uint8_t *data, size_t len, struct an_diag *d);

/**
 * an_pfbundle_decode() - decode event @r of @b into @ev
 * @b: bundle
 * @r: one of its events
 * @g: generic events' store
 * @gen: generation of the bundle's sequence (its descriptors)
 * @prev: the CPU's last task switched in, updated by switches
 * @ev: event to fill (ts_ns, cpu, pid, type, name, fields)
 * @d: diagnostic on error
 *
 * Return: 1 with an event, 0 for a FtraceEvent without any event in it (skip
 * it), or a negative code (recoverable ones per an_error_is_recoverable()).
 */
int an_pfbundle_decode(const struct an_pfbundle *b, const struct an_pfrec *r, struct an_pfgen *g,
		       uint32_t gen, struct an_pfbundle_prev *prev, struct an_event *ev,
		       struct an_diag *d);

/**
 * an_pfbundle_release() - free the arrays of @b
 * @b: bundle
 */
void an_pfbundle_release(struct an_pfbundle *b);

#endif /* UCVAL_ANALYZE_READ_PFBUNDLE_H */
