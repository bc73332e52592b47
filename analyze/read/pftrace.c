// SPDX-License-Identifier: MIT
/*
 * analyze/read/pftrace.c - Perfetto trace reader: the packet stream, the
 * bundle index, sequences, and the merge of the CPUs by timestamp
 * (pftrace.h). Bundles decode in pfbundle.c, generic events in
 * pfgeneric.c, the platform and the statistics in pfplat.c.
 */
#define _GNU_SOURCE	/* pread() with 64-bit offsets */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/malloc.h"
#include "lib/pbwire.h"
#include "lib/vec.h"
#include "analyze/read/alias.h"
#include "analyze/read/marker.h"
#include "analyze/read/pfbundle.h"
#include "analyze/read/pfgeneric.h"
#include "analyze/read/pfplat.h"
#include "analyze/read/pfschema.h"
#include "analyze/read/pftrace.h"

#define MAX_SEQS	65536	/* packet sequences told apart; more share one */
#define HEAD_LEN	20	/* a tag and a length: two varints */

/* One bundle of the index: where it is and when it starts. */
struct pf_index {
	uint64_t off;		/* of the bundle's bytes in the file */
	uint32_t len;
	uint32_t gen;		/* its sequence's generation (descriptors) */
	uint64_t first_ts;
	bool is_lost;		/* lost_events, or an empty bundle before it had it */
};

/* One CPU's bundles and the one being read. */
struct pf_stream {
	size_t *bundles;	/* indexes into an_pftrace.idx, by first_ts */
	size_t nr_bundles;
	size_t alloc_bundles;
	size_t next_bundle;
	uint8_t *buf;		/* the current bundle's bytes */
	size_t alloc_buf;
	struct an_pfbundle b;
	size_t next_rec;
	bool is_refill;		/* the current bundle is done: load the next first */
	bool is_lost;		/* give a LOST_EVENTS before the next event */
	uint32_t gen;
	uint64_t off;
	struct an_pfbundle_prev prev;
};

struct pf_seq {
	uint32_t id;
	uint32_t gen;
};

struct an_pftrace {
	int fd;
	uint64_t size;
	struct an_reader_info *info;
	struct pf_index *idx;
	size_t nr_idx;
	size_t alloc_idx;
	struct pf_stream *cpu;
	unsigned int nr_cpus;
	struct pf_seq *seq;
	size_t nr_seq;
	size_t alloc_seq;
	uint32_t nr_gens;
	bool pending_lost[AN_PFPLAT_MAX_CPUS];	/* index pass: an empty lost bundle */
	struct an_pfgen gen;
	struct an_pfplat plat;
	struct an_pfbundle scratch;		/* index pass */
	uint8_t *pkt;
	size_t alloc_pkt;
	/* the merge */
	bool is_started;
	uint64_t first_ts;
	unsigned int markers_sent;
	unsigned int losses_sent;
	unsigned long long nr_records;
	char marker[AN_PFPLAT_MARKER_LEN];
};

/* ---- detection ---- */

/*
 * The field at @p, which runs past the probe's bytes (a first packet larger
 * than the probe, its ftrace bundle most often): a length-delimited field
 * whose length ends inside the @left bytes its packet has from @p.
 */
static bool cut_field_fits(const uint8_t *p, const uint8_t *end, uint64_t left)
{
	const uint8_t *start = p;
	uint64_t tag, flen;

	if (an_pb_varint(&p, end, &tag) || (tag & 7) != AN_PB_LEN || !(tag >> 3) ||
	    (tag >> 3) > AN_PB_FIELD_MAX || an_pb_varint(&p, end, &flen))
		return false;
	return flen <= left - (uint64_t)(p - start);
}

bool an_pftrace_probe(const void *buf, size_t len)
{
	const uint8_t *p = buf, *end = p + len;
	struct an_pb pb;
	struct an_pb_field f;
	uint64_t plen;
	size_t have;
	int rc, nr = 0;

	if (len < 4 || p[0] != 0x0a)
		return false;
	p++;
	if (an_pb_varint(&p, end, &plen) || plen < 2 || plen > AN_PFTRACE_PACKET_MAX)
		return false;
	have = (size_t)(end - p) < plen ? (size_t)(end - p) : (size_t)plen;
	an_pb_init(&pb, p, have);
	while ((rc = an_pb_next(&pb, &f)) > 0)
		nr++;
	if (have == plen)	/* the whole packet: it decodes, the next one starts */
		return rc == 0 && nr && (p + have == end || p[have] == 0x0a);
	if (rc == AN_PB_E_LEN)	/* a field the probe cuts: it must end in the packet */
		return cut_field_fits(p + an_pb_offset(&pb), end, plen - an_pb_offset(&pb));
	return nr > 0 && (rc == 0 || rc == AN_PB_E_VARINT);
}

/* ---- the index pass ---- */

static int read_at(struct an_pftrace *t, uint64_t off, void *buf, size_t len,
		   struct an_diag *d)
{
	size_t got = 0;

	while (got < len) {
		ssize_t n = pread(t->fd, (char *)buf + got, len - got, (off_t)(off + got));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return an_diag_fail(d, -errno, "read at offset %llu: %s",
					    (unsigned long long)(off + got), strerror(errno));
		if (n == 0) {
			d->offset = (long long)(off + got);
			return an_diag_fail(d, AN_E_CORRUPT, "the file ends inside a packet");
		}
		got += (size_t)n;
	}
	return 0;
}

/* An error at file offset @off (the diagnostic shows it): @fmt with @what. */
static int fail_at(struct an_diag *d, uint64_t off, const char *fmt, const char *what)
{
	d->offset = (long long)off;
	return an_diag_fail(d, AN_E_CORRUPT, fmt, what);
}

/* The generation of packets of sequence @id; a new one when it clears its state. */
static uint32_t seq_gen(struct an_pftrace *t, uint32_t id, bool is_cleared)
{
	struct pf_seq *s = NULL;

	for (size_t i = 0; i < t->nr_seq && !s; i++)
		if (t->seq[i].id == id)
			s = &t->seq[i];
	if (!s) {
		if (t->nr_seq == MAX_SEQS || AN_VEC_GROW(t->seq, t->nr_seq + 1, t->alloc_seq))
			return 0;
		s = &t->seq[t->nr_seq++];
		s->id = id;
		s->gen = ++t->nr_gens;
	} else if (is_cleared) {
		s->gen = ++t->nr_gens;
	}
	return s->gen;
}

static struct pf_stream *stream_of(struct an_pftrace *t, int cpu)
{
	if ((unsigned int)cpu >= t->nr_cpus) {
		struct pf_stream *c = an_realloc(t->cpu, ((size_t)cpu + 1) * sizeof(*c));

		if (!c)
			return NULL;
		memset(&c[t->nr_cpus], 0, ((size_t)cpu + 1 - t->nr_cpus) * sizeof(*c));
		for (unsigned int i = t->nr_cpus; i <= (unsigned int)cpu; i++) {
			c[i].prev.pid = -1;
			c[i].prev.prio = AN_PRIO_NONE;
		}
		t->cpu = c;
		t->nr_cpus = (unsigned int)cpu + 1;
	}
	return &t->cpu[cpu];
}

/* Bundle @f of the packet at file offset @base: its descriptors, then its entry. */
static int index_bundle(struct an_pftrace *t, const struct an_pb *pkt,
			const struct an_pb_field *f, uint64_t base, uint32_t gen,
			struct an_diag *d)
{
	struct an_pfbundle *b = &t->scratch;
	struct pf_stream *s;
	struct an_pb pb;
	struct an_pb_field x;
	int rc, err;

	an_pb_sub(&pb, pkt, f);
	while ((rc = an_pb_next(&pb, &x)) > 0)
		if (x.number == AN_PF_BUNDLE_GENERIC_DESC && x.wire == AN_PB_LEN &&
		    an_pfgen_add(&t->gen, gen, x.data, x.len))
			return an_diag_fail(d, -ENOMEM, "out of memory");
	err = an_pfbundle_load(b, f->data, f->len, d);
	if (err) {
		if (d->offset >= 0)
			d->offset += (long long)(base + (uint64_t)(f->data - pkt->base));
		return err;
	}
	if (b->cpu < 0)
		return 0;		/* a bundle without its CPU: nothing to place */
	if (!b->nr_rec) {
		t->pending_lost[b->cpu] |= b->is_lost;
		return 0;
	}
	s = stream_of(t, b->cpu);
	if (!s || AN_VEC_GROW(t->idx, t->nr_idx + 1, t->alloc_idx) ||
	    AN_VEC_GROW(s->bundles, s->nr_bundles + 1, s->alloc_bundles))
		return an_diag_fail(d, -ENOMEM, "out of memory");
	t->idx[t->nr_idx] = (struct pf_index){
		.off = base + (uint64_t)(f->data - pkt->base), .len = (uint32_t)f->len,
		.gen = gen, .first_ts = b->rec[0].ts,
		.is_lost = b->is_lost || t->pending_lost[b->cpu],
	};
	t->pending_lost[b->cpu] = false;
	s->bundles[s->nr_bundles++] = t->nr_idx++;
	return 0;
}

/* Sequence id and whether it cleared its incremental state. */
static int packet_seq(struct an_pb *pb, uint32_t *id, bool *is_cleared)
{
	struct an_pb_field x;
	int rc;

	*id = 0;
	*is_cleared = false;
	while ((rc = an_pb_next(pb, &x)) > 0) {
		if (x.wire != AN_PB_VARINT)
			continue;
		if (x.number == AN_PF_PACKET_SEQ_ID)
			*id = (uint32_t)x.value;
		else if (x.number == AN_PF_PACKET_SEQ_FLAGS)
			*is_cleared |= (x.value & AN_PF_SEQ_CLEARED) != 0;
		else if (x.number == AN_PF_PACKET_STATE_CLEARED)
			*is_cleared |= x.value != 0;
	}
	return rc;
}

static int index_packet(struct an_pftrace *t, const uint8_t *data, size_t len, uint64_t base,
			struct an_diag *d)
{
	struct an_pb pb;
	struct an_pb_field x;
	bool is_cleared;
	uint32_t id, gen;
	int rc, err = 0;

	an_pb_init(&pb, data, len);
	rc = packet_seq(&pb, &id, &is_cleared);	/* on error, @pb is at the bad field */
	if (rc < 0)
		goto bad;
	gen = seq_gen(t, id, is_cleared);
	an_pb_init(&pb, data, len);
	while (!err && (rc = an_pb_next(&pb, &x)) > 0) {
		if (x.wire != AN_PB_LEN)
			continue;
		if (x.number == AN_PF_PACKET_FTRACE_EVENTS)
			err = index_bundle(t, &pb, &x, base, gen, d);
		else if (x.number == AN_PF_PACKET_FTRACE_STATS)
			err = an_pfplat_stats(&t->plat, x.data, x.len);
		else if (x.number == AN_PF_PACKET_SYSTEM_INFO)
			err = an_pfplat_system_info(&t->plat, x.data, x.len);
		else if (x.number == AN_PF_PACKET_CPU_INFO)
			err = an_pfplat_cpu_info(&t->plat, x.data, x.len);
		else if (x.number == AN_PF_PACKET_COMPRESSED || x.number == AN_PF_PACKET_ZSTD)
			return fail_at(d, base + x.offset, "%s", "compressed packets, which ucval "
				       "does not read (traceconv decompress_packets writes the "
				       "trace without them)");
		if (err == -ENOMEM)
			return an_diag_fail(d, err, "out of memory");
		if (err && !d->err)
			return fail_at(d, base + x.offset, "malformed message: %s",
				       an_pb_strerror(err));
	}
	if (err)
		return err;
	if (rc >= 0)
		return 0;
bad:
	return fail_at(d, base + an_pb_offset(&pb), "malformed packet: %s",
		       an_pb_strerror(rc));
}

/* The tag and length of the top-level field at @off; @hlen: their bytes. */
static int read_head(struct an_pftrace *t, uint64_t off, uint32_t *number, uint64_t *len,
		     size_t *hlen, struct an_diag *d)
{
	uint8_t head[HEAD_LEN];
	size_t n = t->size - off < HEAD_LEN ? (size_t)(t->size - off) : HEAD_LEN;
	const uint8_t *p = head;
	uint64_t tag;
	int err = read_at(t, off, head, n, d);

	if (err)
		return err;
	if (an_pb_varint(&p, head + n, &tag))
		return fail_at(d, off, "%s where a packet's tag was expected",
			       "a truncated or overlong varint");
	if ((tag & 7) != AN_PB_LEN)
		return fail_at(d, off, "%s", "a field of wire type other than "
			       "length-delimited where a TracePacket was expected");
	if (an_pb_varint(&p, head + n, len))
		return fail_at(d, off, "%s where a packet's length was expected",
			       "a truncated or overlong varint");
	*number = (uint32_t)(tag >> 3);
	*hlen = (size_t)(p - head);
	return 0;
}

static int index_file(struct an_pftrace *t, struct an_diag *d)
{
	uint64_t off = 0;

	while (off < t->size) {
		uint32_t number = 0;
		uint64_t len = 0;
		size_t hlen = 0;
		int err = read_head(t, off, &number, &len, &hlen, d);

		if (err)
			return err;
		if (len > t->size - off - hlen) {
			d->offset = (long long)off;
			return an_diag_fail(d, AN_E_CORRUPT, "a packet of %llu bytes expected, "
					    "the file ends after %llu", (unsigned long long)len,
					    (unsigned long long)(t->size - off - hlen));
		}
		if (number == AN_PF_TRACE_PACKET) {
			if (len > AN_PFTRACE_PACKET_MAX) {
				d->offset = (long long)off;
				return an_diag_fail(d, AN_E_CORRUPT, "a packet of %llu "
						    "bytes, more than the %u MiB a packet may "
						    "have", (unsigned long long)len,
						    AN_PFTRACE_PACKET_MAX >> 20);
			}
			if (AN_VEC_GROW(t->pkt, len + 1, t->alloc_pkt))
				return an_diag_fail(d, -ENOMEM, "out of memory");
			err = read_at(t, off + hlen, t->pkt, (size_t)len, d);
			if (!err)
				err = index_packet(t, t->pkt, (size_t)len, off + hlen, d);
			if (err)
				return err;
		}
		off += hlen + len;
	}
	return 0;
}

static const struct pf_index *sort_idx;

static int bundle_cmp(const void *pa, const void *pb)
{
	const struct pf_index *a = &sort_idx[*(const size_t *)pa];
	const struct pf_index *b = &sort_idx[*(const size_t *)pb];

	if (a->first_ts != b->first_ts)
		return a->first_ts < b->first_ts ? -1 : 1;
	return a->off < b->off ? -1 : a->off > b->off;
}

/* What the index tells the reader's info. */
static void fill_info(struct an_pftrace *t)
{
	const struct an_pfplat *p = &t->plat;

	t->info->format = AN_FORMAT_PERFETTO;
	t->info->nr_cpus = (int)(p->has_cpu_info && p->nr_cpus ? p->nr_cpus :
				 p->sys_cpus ? p->sys_cpus : t->nr_cpus);
	snprintf(t->info->kernel_release, sizeof(t->info->kernel_release), "%s", p->release);
}

int an_pftrace_open(const char *path, struct an_reader_info *info, struct an_pftrace **out,
		    struct an_diag *d)
{
	struct an_pftrace *t;
	struct stat st;
	int err;

	*out = NULL;
	t = an_calloc(1, sizeof(*t));
	if (!t)
		return an_diag_fail(d, -ENOMEM, "out of memory");
	t->info = info;
	t->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (t->fd < 0 || fstat(t->fd, &st)) {
		err = -errno;
		an_pftrace_close(t);
		return an_diag_fail(d, err, "%s", strerror(-err));
	}
	t->size = (uint64_t)st.st_size;
	err = index_file(t, d);
	if (err) {
		an_pftrace_close(t);
		return err;
	}
	sort_idx = t->idx;
	for (unsigned int c = 0; c < t->nr_cpus; c++)
		if (t->cpu[c].nr_bundles > 1)
			qsort(t->cpu[c].bundles, t->cpu[c].nr_bundles, sizeof(size_t), bundle_cmp);
	free(t->pkt);
	t->pkt = NULL;
	t->alloc_pkt = 0;
	an_pfbundle_release(&t->scratch);
	fill_info(t);
	*out = t;
	return 0;
}

/* ---- the merge ---- */

/* Load @s's next bundle that has events; none left: its b.nr_rec is 0. */
static int refill(struct an_pftrace *t, struct pf_stream *s, struct an_diag *d)
{
	s->is_refill = false;
	s->b.nr_rec = 0;
	s->next_rec = 0;
	while (s->next_bundle < s->nr_bundles) {
		const struct pf_index *x = &t->idx[s->bundles[s->next_bundle++]];
		int err;

		if (AN_VEC_GROW(s->buf, (size_t)x->len + 1, s->alloc_buf))
			return an_diag_fail(d, -ENOMEM, "out of memory");
		err = read_at(t, x->off, s->buf, x->len, d);
		if (!err)
			err = an_pfbundle_load(&s->b, s->buf, x->len, d);
		if (err) {
			d->offset = (long long)x->off;
			return err;
		}
		s->gen = x->gen;
		s->off = x->off;
		s->is_lost |= x->is_lost;
		if (s->b.nr_rec)
			return 0;
	}
	return 0;
}

/* The stream whose next event comes first (lowest CPU on a tie), NULL at the end. */
static struct pf_stream *first_stream(struct an_pftrace *t)
{
	struct pf_stream *best = NULL;

	for (unsigned int c = 0; c < t->nr_cpus; c++) {
		struct pf_stream *s = &t->cpu[c];

		if (s->next_rec >= s->b.nr_rec)
			continue;
		if (!best || s->b.rec[s->next_rec].ts < best->b.rec[best->next_rec].ts)
			best = s;
	}
	return best;
}

static int start(struct an_pftrace *t, struct an_diag *d)
{
	struct pf_stream *s;

	t->is_started = true;
	for (unsigned int c = 0; c < t->nr_cpus; c++) {
		int err = refill(t, &t->cpu[c], d);

		if (err)
			return err;
	}
	s = first_stream(t);
	t->first_ts = s ? s->b.rec[s->next_rec].ts : 0;
	return 0;
}

static void lost_event(struct an_event *ev, int cpu, uint64_t ts, unsigned long long count)
{
	memset(ev, 0, sizeof(*ev));
	ev->type = AN_EV_LOST_EVENTS;
	ev->name = "lost_events";
	ev->ts_ns = ts;
	ev->cpu = cpu;
	ev->pid = -1;
	ev->lost.count = count;
}

/* Before the events: CpuInfo's markers, then the unplaced losses. Return: 1, 0. */
static int preamble(struct an_pftrace *t, struct an_event *ev, struct an_diag *d)
{
	while (t->markers_sent < t->plat.nr_cpus) {
		size_t n = an_pfplat_marker(&t->plat, t->markers_sent++, t->marker);

		if (!n)
			continue;
		an_alias_reset(ev, AN_EV_PRINT);
		ev->name = "print";
		ev->ts_ns = t->first_ts;
		ev->cpu = 0;
		ev->pid = 0;
		an_alias_set_str(ev, 0, t->marker, n, d);
		if (an_marker_parse(ev->print.text, ev->print.len, 0, &ev->print.marker, d) < 0)
			continue;	/* cannot happen: the text is ours */
		return 1;
	}
	while (t->losses_sent < t->plat.nr_stat_cpus) {
		unsigned int cpu = t->losses_sent++;
		uint64_t n = an_pfplat_lost(&t->plat, cpu);

		if (!n)
			continue;
		lost_event(ev, (int)cpu, t->first_ts, n);
		ev->lost.is_unplaced = true;
		return 1;
	}
	return 0;
}

int an_pftrace_next(struct an_pftrace *t, struct an_event *ev, struct an_diag *d)
{
	struct pf_stream *s;
	int err;

	if (!t->is_started) {
		err = start(t, d);
		if (err)
			return err;
	}
	if (preamble(t, ev, d))
		return 1;
	for (;;) {
		const struct an_pfrec *r;

		for (unsigned int c = 0; c < t->nr_cpus; c++) {
			if (!t->cpu[c].is_refill)
				continue;
			err = refill(t, &t->cpu[c], d);
			if (err)
				return err;
		}
		s = first_stream(t);
		if (!s)
			return 0;
		r = &s->b.rec[s->next_rec];
		if (s->is_lost) {
			s->is_lost = false;
			s->prev.pid = -1;	/* who ran last is lost with the rest */
			s->prev.prio = AN_PRIO_NONE;
			lost_event(ev, s->b.cpu, r->ts, 0);
			ev->pos = t->nr_records;
			return 1;
		}
		s->next_rec++;
		s->is_refill = s->next_rec == s->b.nr_rec;
		t->nr_records++;
		d->record = t->nr_records;
		d->cpu = s->b.cpu;
		d->offset = (long long)s->off;
		ev->pos = t->nr_records;
		err = an_pfbundle_decode(&s->b, r, &t->gen, s->gen, &s->prev, ev, d);
		if (err)
			return err;
	}
}

void an_pftrace_close(struct an_pftrace *t)
{
	if (!t)
		return;
	if (t->fd >= 0)
		close(t->fd);
	for (unsigned int c = 0; c < t->nr_cpus; c++) {
		free(t->cpu[c].bundles);
		free(t->cpu[c].buf);
		an_pfbundle_release(&t->cpu[c].b);
	}
	free(t->cpu);
	free(t->idx);
	free(t->seq);
	free(t->pkt);
	an_pfbundle_release(&t->scratch);
	an_pfgen_release(&t->gen);
	an_pfplat_release(&t->plat);
	free(t);
}
