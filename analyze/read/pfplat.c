// SPDX-License-Identifier: MIT
/*
 * analyze/read/pfplat.c - CpuInfo, SystemInfo and FtraceStats of Perfetto
 * traces (pfplat.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/malloc.h"
#include "lib/pbwire.h"
#include "analyze/read/pfplat.h"
#include "analyze/read/pfschema.h"

/* Insert @khz into the ascending set of @c, when there is room. */
static void add_freq(struct an_pfplat_cpu *c, unsigned int khz)
{
	unsigned int i = 0;

	while (i < c->nr_freqs && c->freqs_khz[i] < khz)
		i++;
	if (!khz || (i < c->nr_freqs && c->freqs_khz[i] == khz) ||
	    c->nr_freqs == AN_MARKER_MAX_FREQS)
		return;
	memmove(&c->freqs_khz[i + 1], &c->freqs_khz[i],
		(c->nr_freqs - i) * sizeof(c->freqs_khz[0]));
	c->freqs_khz[i] = khz;
	c->nr_freqs++;
}

static int read_cpu(const struct an_pb *parent, const struct an_pb_field *pf,
		    struct an_pfplat_cpu *c)
{
	struct an_pb pb;
	struct an_pb_field x;
	int rc;

	an_pb_sub(&pb, parent, pf);
	while ((rc = an_pb_next(&pb, &x)) > 0) {
		if (x.number == AN_PF_CPU_FREQUENCIES) {
			struct an_pb_packed it;
			uint64_t v;

			if (an_pb_packed_init(&it, &x, AN_PB_VARINT))
				continue;
			while ((rc = an_pb_packed_next(&it, &v)) > 0)
				add_freq(c, v > 0xffffffffu ? 0 : (unsigned int)v);
			if (rc < 0)
				return rc;
		} else if (x.number == AN_PF_CPU_CAPACITY && x.wire == AN_PB_VARINT) {
			c->capacity = x.value > 1024 ? 0 : (unsigned int)x.value;
		}
	}
	return rc;
}

int an_pfplat_cpu_info(struct an_pfplat *p, const uint8_t *data, size_t len)
{
	struct an_pb pb;
	struct an_pb_field x;
	unsigned int n = 0;
	int rc;

	if (p->has_cpu_info)
		return 0;
	an_pb_init(&pb, data, len);
	while ((rc = an_pb_next(&pb, &x)) > 0)
		n += x.number == AN_PF_CPUINFO_CPUS && x.wire == AN_PB_LEN;
	if (rc < 0)
		return rc;
	if (n > AN_PFPLAT_MAX_CPUS)
		n = AN_PFPLAT_MAX_CPUS;
	p->cpu = n ? an_calloc(n, sizeof(*p->cpu)) : NULL;
	if (n && !p->cpu)
		return -ENOMEM;
	p->has_cpu_info = true;
	an_pb_init(&pb, data, len);
	while (p->nr_cpus < n && (rc = an_pb_next(&pb, &x)) > 0) {
		if (x.number != AN_PF_CPUINFO_CPUS || x.wire != AN_PB_LEN)
			continue;
		rc = read_cpu(&pb, &x, &p->cpu[p->nr_cpus++]);
		if (rc < 0)
			return rc;
	}
	return rc < 0 ? rc : 0;
}

int an_pfplat_system_info(struct an_pfplat *p, const uint8_t *data, size_t len)
{
	struct an_pb pb, sub;
	struct an_pb_field x, y;
	int rc;

	an_pb_init(&pb, data, len);
	while ((rc = an_pb_next(&pb, &x)) > 0) {
		if (x.number == 8 && x.wire == AN_PB_VARINT) {	/* num_cpus */
			p->sys_cpus = x.value > AN_PFPLAT_MAX_CPUS ? 0 : (unsigned int)x.value;
			continue;
		}
		if (x.number != AN_PF_SYSINFO_UTSNAME || x.wire != AN_PB_LEN)
			continue;
		an_pb_sub(&sub, &pb, &x);
		while ((rc = an_pb_next(&sub, &y)) > 0) {
			if (y.number != AN_PF_UTSNAME_RELEASE || y.wire != AN_PB_LEN)
				continue;
			snprintf(p->release, sizeof(p->release), "%.*s",
				 (int)strnlen((const char *)y.data, y.len < sizeof(p->release) ?
					      y.len : sizeof(p->release) - 1),
				 (const char *)y.data);
		}
		if (rc < 0)
			return rc;
	}
	return rc < 0 ? rc : 0;
}

static int read_cpu_stats(const struct an_pb *parent, const struct an_pb_field *pf,
			  struct an_pfplat *p, unsigned int phase)
{
	uint64_t cpu = UINT64_MAX, overrun = 0;
	struct an_pb pb;
	struct an_pb_field x;
	int rc;

	an_pb_sub(&pb, parent, pf);
	while ((rc = an_pb_next(&pb, &x)) > 0) {
		if (x.number == AN_PF_CPUSTATS_CPU && x.wire == AN_PB_VARINT)
			cpu = x.value;
		else if (x.number == AN_PF_CPUSTATS_OVERRUN && x.wire == AN_PB_VARINT)
			overrun = x.value;
	}
	if (rc < 0)
		return rc;
	if (cpu >= AN_PFPLAT_MAX_CPUS)
		return 0;
	p->overrun[cpu][phase - 1] = overrun;
	p->has_overrun[cpu] |= (uint8_t)phase;
	if (cpu + 1 > p->nr_stat_cpus)
		p->nr_stat_cpus = (unsigned int)cpu + 1;
	return 0;
}

int an_pfplat_stats(struct an_pfplat *p, const uint8_t *data, size_t len)
{
	struct an_pb pb;
	struct an_pb_field x;
	uint64_t phase = 0;
	int rc;

	an_pb_init(&pb, data, len);
	while ((rc = an_pb_next(&pb, &x)) > 0)
		if (x.number == AN_PF_STATS_PHASE && x.wire == AN_PB_VARINT)
			phase = x.value;
	if (rc < 0 || (phase != AN_PF_STATS_START && phase != AN_PF_STATS_END))
		return rc < 0 ? rc : 0;
	an_pb_init(&pb, data, len);
	while ((rc = an_pb_next(&pb, &x)) > 0) {
		if (x.number != AN_PF_STATS_CPU_STATS || x.wire != AN_PB_LEN)
			continue;
		rc = read_cpu_stats(&pb, &x, p, (unsigned int)phase);
		if (rc < 0)
			return rc;
	}
	return rc < 0 ? rc : 0;
}

uint64_t an_pfplat_lost(const struct an_pfplat *p, unsigned int cpu)
{
	const uint64_t *o;

	if (cpu >= AN_PFPLAT_MAX_CPUS || !(p->has_overrun[cpu] & AN_PF_STATS_END))
		return 0;
	o = p->overrun[cpu];
	if (!(p->has_overrun[cpu] & AN_PF_STATS_START))
		return o[1];
	return o[1] > o[0] ? o[1] - o[0] : 0;
}

size_t an_pfplat_marker(const struct an_pfplat *p, unsigned int cpu, char *buf)
{
	const struct an_pfplat_cpu *c;
	size_t n;

	if (cpu >= p->nr_cpus)
		return 0;
	c = &p->cpu[cpu];
	if (!c->capacity && !c->nr_freqs)
		return 0;
	n = (size_t)snprintf(buf, AN_PFPLAT_MARKER_LEN, "ucval: cpu cpu=%u", cpu);
	if (c->capacity)
		n += (size_t)snprintf(buf + n, AN_PFPLAT_MARKER_LEN - n, " capacity=%u",
				      c->capacity);
	for (unsigned int i = 0; i < c->nr_freqs; i++)
		n += (size_t)snprintf(buf + n, AN_PFPLAT_MARKER_LEN - n, "%s%u",
				      i ? "," : " freqs=", c->freqs_khz[i]);
	return n;
}

void an_pfplat_release(struct an_pfplat *p)
{
	free(p->cpu);
	p->cpu = NULL;
	p->nr_cpus = 0;
}
