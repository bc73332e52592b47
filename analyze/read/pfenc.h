/* SPDX-License-Identifier: MIT */
/*
 * analyze/read/pfenc.h - canonical events written as a Perfetto trace:
 * FtraceEventBundle packets per CPU (proto/perfetto_ftrace.proto). The
 * events Perfetto types (sched_switch, sched_wakeup, cpu_frequency,
 * cpu_idle, print, ...) are written typed; every other event as a
 * GenericFtraceEvent with its raw name and its fields under their
 * canonical names (analyze/read/alias.c). Timestamps are kept as they
 * are, on the trace's clock; no ftrace_clock is written.
 *
 * `ucval synth --format pftrace` and `ucval report --format perfetto` of a
 * trace that was not a Perfetto trace write their events through it.
 */
#ifndef UCVAL_ANALYZE_READ_PFENC_H
#define UCVAL_ANALYZE_READ_PFENC_H

#include <stdint.h>
#include <stdio.h>

#include "analyze/read/event.h"
#include "lib/pbout.h"

/* trusted_packet_sequence_id of the ftrace packets ucval writes. */
#define AN_PFENC_SEQ_ID		1u

struct an_pfenc;

/**
 * an_pfenc_open() - start writing ftrace packets to @fp
 * @out: the encoder, freed by an_pfenc_close()
 * @fp: where the packets go, borrowed until an_pfenc_close()
 *
 * Return: 0 or -ENOMEM.
 */
int an_pfenc_open(struct an_pfenc **out, FILE *fp);

/**
 * an_pfenc_event() - add @ev to the bundle of its CPU
 * @e: the encoder
 * @ev: the event (borrowed for the call). AN_EV_UNKNOWN events are left
 *	out (their fields were never decoded); AN_EV_LOST_EVENTS marks the
 *	CPU's next bundle with lost_events.
 *
 * A bundle is written out once it holds AN_PFENC_BUNDLE_BYTES. Errors are
 * kept for an_pfenc_close().
 */
void an_pfenc_event(struct an_pfenc *e, const struct an_event *ev);

/**
 * an_pfenc_system_info() - write a SystemInfo packet now
 * @e: the encoder
 * @release: the kernel release (utsname), NULL when unknown
 * @nr_cpus: CPUs of the system, 0 when unknown
 *
 * Written first, it is also a short first packet: a reader that looks at
 * the first few KiB to tell the format sees a whole packet there.
 */
void an_pfenc_system_info(struct an_pfenc *e, const char *release, unsigned int nr_cpus);

/* Bytes of events a CPU's bundle collects before it is written. */
#define AN_PFENC_BUNDLE_BYTES	(64u * 1024)

/**
 * an_pfenc_packet() - write the packet encoded in @pkt to the same stream
 * @e: the encoder
 * @pkt: one TracePacket's fields (not wrapped as Trace.packet); reset after
 *
 * Lets another writer (the findings) interleave packets with the bundles.
 */
void an_pfenc_packet(struct an_pfenc *e, struct an_pbout *pkt);

/**
 * an_pfenc_flush() - write every CPU's pending bundle now
 * @e: the encoder
 *
 * So that packets written after it follow all the events before it.
 */
void an_pfenc_flush(struct an_pfenc *e);

/**
 * an_pfenc_close() - write the pending bundles and free the encoder
 * @e: the encoder, may be NULL
 *
 * Return: 0, -ENOMEM, or the negative errno of a failed write (the
 * stream's own state, ferror(), is the caller's to check as well).
 */
int an_pfenc_close(struct an_pfenc *e);

/**
 * an_pfenc_write_packet() - write @pkt as one Trace.packet field to @fp
 * @fp: the stream
 * @pkt: one TracePacket's fields; reset after
 * @scratch: an encoder for the field's tag and length (its buffer reused)
 *
 * Return: 0, -ENOMEM or -EIO.
 */
int an_pfenc_write_packet(FILE *fp, struct an_pbout *pkt, struct an_pbout *scratch);

#endif /* UCVAL_ANALYZE_READ_PFENC_H */
