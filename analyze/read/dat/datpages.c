// SPDX-License-Identifier: MIT
/*
 * analyze/read/dat/datpages.c - a trace.dat's CPU data, page by page (see datpages.h).
 *
 * Why: tracecmd_read_next_data() allocates and frees a record per event and
 * peeks every CPU through several calls each time; on a 4 M-event recording
 * that was as much as the whole replay. Here each CPU keeps one record, read
 * in place from a chunk of its pages.
 *
 * The page and event encoding is libtraceevent's kbuffer's business, set up
 * as libtracecmd sets it (the file header's long size and byte order, the
 * old format where the header_page says so). This file finds pages, checks
 * that a page's data length fits the page before anything reads it, and that
 * a CPU's records go forward in the file. For the common file (little
 * endian, 8-byte longs, read on a little-endian host) it walks the events of
 * a page itself, the way kbuffer walks them (struct walk): about a fifth of
 * the instructions of kbuffer's six calls an event. An absolute time stamp
 * event, whose reading changed between kbuffer versions, hands the page to
 * kbuffer.
 *
 * Compressed CPU data (v7: a table of chunks, each "u32 zsize, u32 size,
 * data" of whole pages) is inflated a chunk at a time with libtracecmd's
 * decompressor. Its pages are numbered as libtracecmd numbers them: in a
 * space of their own, the first CPU from one page in, each next CPU from
 * the page after the previous one's end; record offsets and diagnostics
 * use those numbers, as the library's do.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <kbuffer.h>

#include "analyze/read/dat/datfile.h"
#include "analyze/read/dat/datpages.h"
#include "analyze/read/dat/tcmd_private.h"
#include "lib/malloc.h"

#define CHUNK_MAX	(1u << 20)	/* bytes one CPU reads at once, at most */
#define CHUNK_ALL	(8u << 20)	/* the chunks of all CPUs, about */
/*
 * kbuffer and the walk read a page's lost-events count just after its data,
 * and an event's length word after its header, which for a full page is up
 * to 8 bytes past the page: zeroed bytes there, not the next page.
 */
#define SLACK		8


/*
 * A page being walked as kbuffer walks it: @curr is the event header,
 * @index its data, @next the following header, all from @data; an event
 * exists while @curr < @size.
 */
struct walk {
	const unsigned char *data;	/* after the page header */
	unsigned int size;		/* data bytes (commit) */
	unsigned int curr, index, next;
	unsigned long long ts;		/* of the current event */
	int lost;			/* lost events before the page, -1: some, unknown */
	bool is_back;			/* an event's successor is not after it: stop */
};

/* One CPU's data. */
struct dp_cpu {
	struct kbuffer *kbuf;
	int cpu;			/* its number */
	unsigned char *buf;		/* a chunk of its pages, then SLACK zeroes */
	size_t buf_cap;			/* bytes of pages buf holds at most */
	uint64_t buf_off;		/* file offset of buf[0] (compressed: page number) */
	size_t buf_len;			/* page bytes in buf */
	uint64_t page_off;		/* file offset of the page kbuf holds */
	uint64_t next_off;		/* next page to load */
	uint64_t end;			/* end of the CPU's data */
	bool has_rec;			/* @rec is the CPU's next record */
	bool has_last;			/* @last_off is set */
	bool is_back;			/* @rec is not after @last_off: refused when its turn comes */
	uint64_t last_off;		/* file offset of the last record handed out */
	struct tep_record rec;
	const unsigned char *page;	/* the page loaded, NULL before the first */
	bool use_kbuf;			/* kbuffer walks it (else @w) */
	struct walk w;
	bool is_z;			/* compressed: offsets above are page numbers */
	uint64_t z_next;		/* file offset of the next chunk's header */
	uint64_t z_left;		/* chunks not inflated yet */
};

struct an_datpages {
	int fd;
	uint64_t file_size;
	unsigned int page_size;
	unsigned int hdr;		/* page header bytes: timestamp, commit word */
	unsigned int long_size;		/* of the commit word */
	bool is_big;
	size_t chunk;			/* bytes a refill reads, whole pages */
	bool can_walk;			/* struct walk reads this file's pages */
	struct dp_cpu *cpu;
	size_t nr_cpu;
	struct dp_cpu *taken;		/* handed out last: step past it next time */
	bool is_started;
	struct tracecmd_compression *comp;	/* inflates chunks, NULL when plain */
};

static uint32_t rd4(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static uint64_t rd8(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/*
 * Move @w to its next data event, past time extends and padding, adding
 * every delta to the timestamp (kbuffer's next_event()).
 * Return: 0, or 1 at an absolute time stamp event (left to kbuffer).
 */
static int walk_step(struct walk *w)
{
	for (;;) {
		const unsigned char *ev;
		unsigned int type, rptr;
		unsigned long long delta;
		uint32_t hdr, length;

		w->curr = w->next;
		if (w->next >= w->size)
			return 0;
		ev = w->data + w->curr;
		hdr = rd4(ev);
		type = hdr & 0x1f;
		delta = hdr >> 5;
		/*
		 * kbuffer computes the lengths in int; in 32-bit unsigned
		 * arithmetic the bits are the same and a damaged length cannot
		 * overflow (a fuzzed 0x80000000 did).
		 */
		switch (type) {
		case KBUFFER_TYPE_PADDING:
			length = rd4(ev + 4);
			rptr = w->curr + 4;
			break;
		case KBUFFER_TYPE_TIME_EXTEND:
			delta += (unsigned long long)rd4(ev + 4) << TS_SHIFT;
			length = 0;
			rptr = w->curr + 8;
			break;
		case KBUFFER_TYPE_TIME_STAMP:
			return 1;
		case 0:
			length = (rd4(ev + 4) - 4 + 3) & ~UINT32_C(3);
			rptr = w->curr + 8;
			break;
		default:
			length = type * 4;
			rptr = w->curr + 4;
			break;
		}
		w->ts += delta;
		w->index = rptr;
		w->next = rptr + length;
		if (w->next <= w->curr) {	/* a damaged length: kbuffer loops */
			w->is_back = true;
			return 0;
		}
		if (type < KBUFFER_TYPE_PADDING)
			return 0;
	}
}

/* Start walking @page (kbuffer_load_subbuffer()); 1 as walk_step(). */
static int walk_load(struct walk *w, const unsigned char *page, unsigned int hdr)
{
	uint64_t flags = rd8(page + 8);

	w->ts = rd8(page);
	w->data = page + hdr;
	w->size = (unsigned int)flags & AN_DATCHECK_COMMIT_MASK;
	w->lost = !(flags & AN_DATCHECK_MISSED_EVENTS) ? 0 :
		  (flags & AN_DATCHECK_MISSED_STORED) ? (int)rd8(w->data + w->size) : -1;
	w->curr = w->index = w->next = 0;
	w->is_back = false;
	return walk_step(w);
}

/*
 * Hand @c's page to kbuffer from where the walk stopped (@at, an absolute
 * time stamp): kbuffer reads it again from the start and skips the data
 * events before @at. The CPU stays with kbuffer. A page kbuffer would walk
 * for ever stays with the walk, which reports it.
 */
static void to_kbuffer(struct an_datpages *p, struct dp_cpu *c, unsigned int at)
{
	unsigned long long ts;

	if (!an_datcheck_page_walks(c->page, p->page_size, p->long_size, p->is_big)) {
		c->w.is_back = true;
		return;
	}
	c->use_kbuf = true;
	kbuffer_load_subbuffer(c->kbuf, (void *)c->page);
	while (kbuffer_read_event(c->kbuf, &ts) &&
	       (unsigned int)kbuffer_curr_offset(c->kbuf) - p->hdr < at)
		kbuffer_next_event(c->kbuf, NULL);
}

/* Read @len bytes at @off into @buf: all of them, or a diagnostic. */
static int read_at(struct an_datpages *p, unsigned char *buf, size_t len, uint64_t off,
		   struct an_diag *d)
{
	size_t got = 0;

	while (got < len) {
		ssize_t n = pread(p->fd, buf + got, len - got, (off_t)(off + got));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return an_diag_fail(d, -errno, "reading CPU data at offset %llu: %s",
					    (unsigned long long)(off + got), strerror(errno));
		if (!n)
			return an_diag_fail(d, AN_E_CORRUPT,
					    "CPU data ends at offset %llu, before its page "
					    "(the file changed?)", (unsigned long long)(off + got));
		got += (size_t)n;
	}
	return 0;
}

/*
 * Inflate @c's next chunk that has pages into c->buf, from c->next_off on.
 * datcheck.c found the table inside the file, and each chunk whole pages of
 * at most AN_DATCHECK_CHUNK_MAX (else the file is not read here).
 *
 * Return: 1, 0 when no chunk is left, or a negative code.
 */
static int inflate_next(struct an_datpages *p, struct dp_cpu *c, struct an_diag *d)
{
	while (c->z_left) {
		unsigned char hdr[8];
		uint64_t at = c->z_next, raw;
		int err = read_at(p, hdr, sizeof(hdr), at, d);

		if (err)
			return err;
		raw = an_datfile_num_order(p->is_big, hdr + 4, 4);
		c->z_left--;
		c->z_next = at + sizeof(hdr) + an_datfile_num_order(p->is_big, hdr, 4);
		if (!raw)
			continue;
		/* the decompressor reads the block at the descriptor's position */
		if (raw > AN_DATCHECK_CHUNK_MAX || lseek(p->fd, (off_t)at, SEEK_SET) < 0 ||
		    tracecmd_uncompress_block(p->comp) < 0 ||
		    tracecmd_compress_buffer_read(p->comp, (char *)c->buf, (int)raw) != (int)raw) {
			d->offset = (long long)at;
			return an_diag_fail(d, AN_E_CORRUPT, "compressed CPU data chunk does "
					    "not inflate to its size");
		}
		memset(c->buf + raw, 0, SLACK);
		c->buf_off = c->next_off;
		c->buf_len = (size_t)raw;
		return 1;
	}
	return 0;
}

/*
 * Bytes of @size's pages one CPU reads at once: a chunk, or less when the
 * CPU has fewer pages (a small trace of many CPUs then takes kilobytes,
 * not a chunk per CPU).
 */
static size_t cpu_chunk(const struct an_datpages *p, uint64_t size)
{
	uint64_t pages = size / p->page_size + (size % p->page_size != 0);

	if (!pages)
		pages = 1;
	return pages * p->page_size < p->chunk ? (size_t)(pages * p->page_size) : p->chunk;
}

/*
 * Load @c's next page into its kbuffer. Like libtracecmd, the last page of
 * a range that does not end on a page boundary is read whole.
 *
 * Return: 1, 0 when the CPU has no more pages, or a negative code.
 */
static int load_page(struct an_datpages *p, struct dp_cpu *c, struct an_diag *d)
{
	uint64_t off = c->next_off, size;
	const unsigned char *page;
	int err;

	if (off >= c->end)
		return 0;
	if (c->is_z) {
		if (off >= c->buf_off + c->buf_len) {
			err = inflate_next(p, c, d);
			if (err <= 0)
				return err;
		}
	} else if (off < c->buf_off || off + p->page_size > c->buf_off + c->buf_len) {
		uint64_t want = c->end - off, len;

		want = (want + p->page_size - 1) / p->page_size * p->page_size;
		if (want > c->buf_cap)
			want = c->buf_cap;
		/* a page cut by the end of the file reads as zeroes past it */
		len = off < p->file_size ? p->file_size - off : 0;
		if (len > want)
			len = want;
		c->buf_off = off;
		c->buf_len = 0;
		err = read_at(p, c->buf, (size_t)len, off, d);
		if (err)
			return err;
		memset(c->buf + len, 0, (size_t)(want - len) + SLACK);
		c->buf_len = (size_t)want;
	}
	page = c->buf + (off - c->buf_off);
	size = an_datfile_num_order(p->is_big, page + 8, p->long_size) &
	       AN_DATCHECK_COMMIT_MASK;	/* the commit word, after the u64 timestamp */
	if (size > p->page_size - p->hdr) {
		/* worded as datcheck.c words it for the library path */
		d->offset = (long long)off;
		return an_diag_fail(d, AN_E_CORRUPT, "ring-buffer page larger than a page");
	}
	if (c->use_kbuf && !an_datcheck_page_walks(page, p->page_size, p->long_size, p->is_big)) {
		d->offset = (long long)off;
		return an_diag_fail(d, AN_E_CORRUPT, "ring-buffer page with an event whose "
				    "length points back (kbuffer would walk it for ever)");
	}
	c->page_off = off;
	c->next_off = off + p->page_size;
	c->page = page;
	if (c->use_kbuf)
		kbuffer_load_subbuffer(c->kbuf, (void *)page);
	else if (walk_load(&c->w, page, p->hdr))
		to_kbuffer(p, c, c->w.curr);
	return 1;
}

/*
 * @c's record at its kbuffer's position, loading pages past empty ones.
 * Return: 1, 0 when the CPU has no more, or a negative code.
 */
static int peek(struct an_datpages *p, struct dp_cpu *c, struct an_diag *d)
{
	struct tep_record *r = &c->rec;

	c->has_rec = false;
	for (;;) {
		unsigned long long ts;
		void *data;
		int err;

		if (!c->page) {
			data = NULL;
		} else if (!c->use_kbuf) {
			const struct walk *w = &c->w;

			if (w->is_back) {
				d->offset = (long long)c->page_off;
				return an_diag_fail(d, AN_E_CORRUPT, "ring-buffer page with an event "
						    "whose length points back (kbuffer would walk "
						    "it for ever)");
			}
			data = w->curr < w->size ? (void *)(w->data + w->index) : NULL;
			if (data) {
				/* what kbuffer's accessors would answer */
				r->ts = w->ts;
				r->size = (int)(w->next - w->index);
				r->record_size = (int)(w->next - w->curr);
				r->offset = c->page_off + p->hdr + w->curr;
				r->missed_events = w->curr ? 0 : w->lost;
			}
		} else {
			data = kbuffer_read_event(c->kbuf, &ts);
			if (data) {
				r->ts = ts;
				r->size = kbuffer_event_size(c->kbuf);
				r->record_size = kbuffer_curr_size(c->kbuf);
				r->offset = c->page_off +
					    (unsigned long long)kbuffer_curr_offset(c->kbuf);
				r->missed_events = kbuffer_missed_events(c->kbuf);
			}
		}
		if (data) {
			r->data = data;
			r->cpu = c->cpu;
			c->is_back = c->has_last && r->offset <= c->last_off;
			c->has_rec = true;
			return 1;
		}
		err = load_page(p, c, d);
		if (err <= 0)
			return err;
	}
}

/*
 * Set @c up for the compressed CPU data @r: its chunk table, the page
 * numbers libtracecmd gives it from *@z_page on, and the decompressor.
 */
static int start_chunks(struct an_datpages *p, struct dp_cpu *c,
			const struct an_datcheck_range *r, const struct an_datcheck *chk,
			struct tep_handle *tep, uint64_t *z_page, struct an_diag *d)
{
	unsigned char count[4];
	int err = read_at(p, count, sizeof(count), r->off, d);

	if (err)
		return err;
	c->is_z = true;
	c->z_left = an_datfile_num_order(p->is_big, count, 4);
	c->z_next = r->off + sizeof(count);
	c->next_off = c->buf_off = *z_page;
	c->end = *z_page + r->raw_size;
	*z_page = (c->end + p->page_size - 1) / p->page_size * p->page_size;
	if (!p->comp)
		p->comp = tracecmd_compress_alloc(chk->comp_name, chk->comp_version, p->fd, tep,
						  NULL);
	return p->comp ? 0 : an_diag_fail(d, -ENOMEM, "cannot start the decompressor '%s'",
					  chk->comp_name);
}

int an_datpages_open(const char *path, const struct an_datcheck *chk, struct tep_handle *tep,
		     bool may_walk, struct an_datpages **out, struct an_diag *d)
{
	struct an_datpages *p;
	uint64_t z_page;	/* libtracecmd's number of the next compressed CPU's first page */
	size_t chunk;
	int err;

	*out = NULL;
	p = an_calloc(1, sizeof(*p));
	if (!p)
		return an_diag_fail(d, -ENOMEM, "out of memory");
	p->fd = -1;
	p->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (p->fd < 0) {
		err = an_diag_fail(d, -errno, "%s", strerror(errno));
		goto fail;
	}
	posix_fadvise(p->fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	p->file_size = chk->file_size;
	p->page_size = chk->page_size;
	p->long_size = chk->long_size;
	p->hdr = 8 + chk->long_size;
	p->is_big = chk->is_big_endian;
	p->can_walk = !p->is_big && p->long_size == 8 && !tep_is_local_bigendian(tep) &&
		      !tep_is_old_format(tep) && may_walk;
	chunk = chk->nr_ranges ? CHUNK_ALL / chk->nr_ranges : CHUNK_MAX;
	if (chunk > CHUNK_MAX)
		chunk = CHUNK_MAX;
	chunk -= chunk % p->page_size;
	p->chunk = chunk ? chunk : p->page_size;
	z_page = p->page_size;
	p->cpu = an_calloc(chk->nr_ranges ? chk->nr_ranges : 1, sizeof(*p->cpu));
	if (!p->cpu) {
		err = an_diag_fail(d, -ENOMEM, "out of memory");
		goto fail;
	}
	for (size_t i = 0; i < chk->nr_ranges; i++) {
		const struct an_datcheck_range *r = &chk->ranges[i];
		struct dp_cpu *c = &p->cpu[p->nr_cpu++];

		c->cpu = r->cpu;
		c->next_off = r->off;
		c->end = r->off + r->size;
		c->kbuf = an_datcheck_kbuffer(chk);
		c->buf_cap = r->is_compressed ? chk->max_chunk : cpu_chunk(p, r->size);
		c->buf = an_malloc(c->buf_cap + SLACK);
		if (!c->kbuf || !c->buf) {
			err = an_diag_fail(d, -ENOMEM, "out of memory");
			goto fail;
		}
		if (r->is_compressed) {
			err = start_chunks(p, c, r, chk, tep, &z_page, d);
			if (err)
				goto fail;
		}
		if (tep_is_old_format(tep))
			kbuffer_set_old_format(c->kbuf);
		c->use_kbuf = !p->can_walk;
	}
	*out = p;
	return 0;

fail:
	an_datpages_close(p);
	return err;
}

int an_datpages_next(struct an_datpages *p, struct tep_record **rec, struct an_diag *d)
{
	struct dp_cpu *best = NULL;
	int err;

	if (p->taken) {
		struct dp_cpu *c = p->taken;

		p->taken = NULL;
		c->has_last = true;
		c->last_off = c->rec.offset;
		if (c->use_kbuf)
			kbuffer_next_event(c->kbuf, NULL);
		else if (walk_step(&c->w))
			to_kbuffer(p, c, c->w.curr);
		err = peek(p, c, d);
		if (err < 0)
			return err;
	} else if (!p->is_started) {
		p->is_started = true;
		for (size_t i = 0; i < p->nr_cpu; i++) {
			err = peek(p, &p->cpu[i], d);
			if (err < 0)
				return err;
		}
	}
	/* as libtracecmd: the earliest, the first CPU slot on a tie */
	for (size_t i = 0; i < p->nr_cpu; i++) {
		struct dp_cpu *c = &p->cpu[i];

		if (c->has_rec && (!best || c->rec.ts < best->rec.ts))
			best = c;
	}
	if (!best)
		return 0;
	if (best->is_back)
		return an_diag_fail(d, AN_E_CORRUPT,
				    "event at offset %llu does not follow the one at %llu "
				    "(a bad event length)", best->rec.offset,
				    (unsigned long long)best->last_off);
	p->taken = best;
	*rec = &best->rec;
	return 1;
}

void an_datpages_close(struct an_datpages *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->nr_cpu; i++) {
		if (p->cpu[i].kbuf)
			kbuffer_free(p->cpu[i].kbuf);
		free(p->cpu[i].buf);
	}
	free(p->cpu);
	tracecmd_compress_destroy(p->comp);
	if (p->fd >= 0)
		close(p->fd);
	free(p);
}
