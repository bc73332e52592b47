/* SPDX-License-Identifier: MIT */
/*
 * analyze/read/pftrace.h - Perfetto trace reader (protobuf TracePackets of
 * ftrace bundles; internal, use reader.h).
 *
 * Streaming in two passes over the file, never all of it in memory: the
 * first reads packet by packet and keeps an index of the ftrace bundles
 * (file offset, CPU, first timestamp), the platform (CpuInfo, SystemInfo),
 * the buffer statistics (FtraceStats) and the generic events' descriptors;
 * the second merges the CPUs by timestamp, one bundle of each CPU in memory
 * at a time, as the trace.dat reader merges its per-CPU buffers. A packet
 * is at most AN_PFTRACE_PACKET_MAX bytes.
 */
#ifndef UCVAL_ANALYZE_READ_PFTRACE_H
#define UCVAL_ANALYZE_READ_PFTRACE_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/diag.h"
#include "analyze/read/event.h"
#include "analyze/read/readinfo.h"

/* Largest TracePacket read: 64 MiB (Perfetto writes bundles of a few KiB). */
#define AN_PFTRACE_PACKET_MAX	(64u << 20)

struct an_pftrace;

/**
 * an_pftrace_probe() - whether @buf starts like a Perfetto trace
 * @buf: the first bytes of a file
 * @len: their number
 *
 * A Trace's first field is packet (field 1, length-delimited: 0x0a), a
 * varint length, then a TracePacket whose fields decode; its bytes in @buf
 * are all checked, and the next packet's tag when @buf holds it.
 *
 * Return: true or false.
 */
bool an_pftrace_probe(const void *buf, size_t len);

/**
 * an_pftrace_open() - open Perfetto trace @path and index it
 * @path: a regular file (reader.c spools other inputs)
 * @info: reader metadata to fill (format name, CPUs, release), borrowed
 * @out: the new reader, freed with an_pftrace_close()
 * @d: diagnostic on failure: offset and what was expected there
 *
 * Return: 0, a negative errno, or AN_E_CORRUPT (the packet stream does not
 * decode, a packet is larger than AN_PFTRACE_PACKET_MAX, the file ends
 * inside a packet).
 */
int an_pftrace_open(const char *path, struct an_reader_info *info, struct an_pftrace **out,
		    struct an_diag *d);

/**
 * an_pftrace_next() - the next event, all CPUs merged by timestamp
 * @t: reader
 * @ev: event to fill; its name and print text live until the next call
 * @d: diagnostic on error (record, CPU and file offset of its bundle)
 *
 * First the CPUs of CpuInfo as `ucval: cpu` markers, then the losses the
 * buffer statistics count (unplaced), then the events; a bundle flagged
 * lost_events is preceded by a LOST_EVENTS of its CPU without a count.
 *
 * Return: 1, 0 at the end, or a negative code.
 */
int an_pftrace_next(struct an_pftrace *t, struct an_event *ev, struct an_diag *d);

/**
 * an_pftrace_close() - free @t and close its file
 * @t: reader, may be NULL
 */
void an_pftrace_close(struct an_pftrace *t);

#endif /* UCVAL_ANALYZE_READ_PFTRACE_H */
