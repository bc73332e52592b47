/* SPDX-License-Identifier: MIT */
/*
 * analyze/read/pfplat.h - what a Perfetto trace says of its machine and of
 * its buffers, outside the events: CpuInfo (each CPU's OPPs and capacity),
 * SystemInfo (the kernel release, the CPU count) and FtraceStats (each
 * CPU's overrun counter at the start and at the end of the trace).
 *
 * The CPUs become `ucval: cpu` markers (spec/events.md §3) the reader gives
 * before the trace's first event, so the capture's own markers, which come
 * after them, win; the overruns become losses no bundle places, as a
 * trace.dat's buffer statistics.
 */
#ifndef UCVAL_ANALYZE_READ_PFPLAT_H
#define UCVAL_ANALYZE_READ_PFPLAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analyze/read/marker.h"

/* CPUs whose data is kept (CpuInfo entries, FtraceStats CPUs). */
#define AN_PFPLAT_MAX_CPUS	1024
/* Room for one marker: "ucval: cpu cpu=N capacity=N freqs=" and the OPPs. */
#define AN_PFPLAT_MARKER_LEN	(48 + 11 * AN_MARKER_MAX_FREQS)

/**
 * struct an_pfplat_cpu - one CPU of CpuInfo
 * @capacity: 0 when the trace does not say
 * @nr_freqs: OPPs in @freqs_khz, ascending, without repeats
 * @freqs_khz: the OPPs
 */
struct an_pfplat_cpu {
	unsigned int capacity;
	unsigned int nr_freqs;
	unsigned int freqs_khz[AN_MARKER_MAX_FREQS];
};

/**
 * struct an_pfplat - the platform and buffer statistics of a trace
 * @nr_cpus: CpuInfo entries (the first CpuInfo packet only)
 * @has_cpu_info: a CpuInfo was read
 * @cpu: the CPUs, @nr_cpus of them (allocated by an_pfplat_cpu_info())
 * @sys_cpus: SystemInfo num_cpus, 0 when absent
 * @release: SystemInfo utsname release, "" when absent
 * @overrun: per CPU, [0] at the start, [1] at the end of the trace
 * @has_overrun: per CPU, which of the two phases were read (bits 1, 2)
 * @nr_stat_cpus: highest CPU in FtraceStats + 1
 */
struct an_pfplat {
	unsigned int nr_cpus;
	bool has_cpu_info;
	struct an_pfplat_cpu *cpu;
	unsigned int sys_cpus;
	char release[80];
	uint64_t overrun[AN_PFPLAT_MAX_CPUS][2];
	uint8_t has_overrun[AN_PFPLAT_MAX_CPUS];
	unsigned int nr_stat_cpus;
};

/**
 * an_pfplat_cpu_info() - read a CpuInfo message
 * @p: platform
 * @data: the message, borrowed for the call
 * @len: its length
 *
 * A second CpuInfo is ignored. Return: 0, -ENOMEM, or an an_pb_err code.
 */
int an_pfplat_cpu_info(struct an_pfplat *p, const uint8_t *data, size_t len);

/**
 * an_pfplat_system_info() - read a SystemInfo message
 * @p: platform
 * @data: the message
 * @len: its length
 *
 * Return: 0, or an an_pb_err code.
 */
int an_pfplat_system_info(struct an_pfplat *p, const uint8_t *data, size_t len);

/**
 * an_pfplat_stats() - read a FtraceStats message
 * @p: platform
 * @data: the message
 * @len: its length
 *
 * Return: 0, or an an_pb_err code.
 */
int an_pfplat_stats(struct an_pfplat *p, const uint8_t *data, size_t len);

/**
 * an_pfplat_lost() - events the buffer of @cpu overwrote during the trace
 * @p: platform
 * @cpu: CPU
 *
 * Return: the end overrun minus the start one (the end one alone when the
 * start is missing), 0 when the trace has no statistics for @cpu.
 */
uint64_t an_pfplat_lost(const struct an_pfplat *p, unsigned int cpu);

/**
 * an_pfplat_marker() - the `ucval: cpu` marker of CPU @cpu
 * @p: platform
 * @cpu: CPU, < @p->nr_cpus
 * @buf: AN_PFPLAT_MARKER_LEN bytes
 *
 * Return: the marker's length, 0 when CpuInfo says nothing of @cpu.
 */
size_t an_pfplat_marker(const struct an_pfplat *p, unsigned int cpu, char *buf);

/**
 * an_pfplat_release() - free what @p holds
 * @p: platform
 */
void an_pfplat_release(struct an_pfplat *p);

#endif /* UCVAL_ANALYZE_READ_PFPLAT_H */
