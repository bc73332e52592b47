// SPDX-License-Identifier: MIT
/*
 * collect/pagebuf.c - ring-buffer pages built in userspace (pagebuf.h). The
 * encoding is the kernel's (kernel/trace/ring_buffer.c), as libtraceevent's
 * kbuffer reads it: a 4-byte entry header of type_len (5 bits: data words,
 * 0 when a length word follows) and time_delta (27 bits), a time-extend
 * entry (type 30) before a larger delta, 8-byte longs of x86_64 and arm64.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "collect/pagebuf.h"
#include "collect/rbevent.h"
#include "lib/tmpfile.h"

#define PAGE_HDR	COL_RB_PAGE_HDR
#define LOST_LEN	COL_RB_LOST_LEN
#define COMMIT_MISSED	(1ULL << 31)	/* events lost before the page */
#define COMMIT_STORED	(1ULL << 30)	/* their count follows the data */

struct pb_cpu {
	int fd;
	unsigned char *page;		/* page_size bytes, data from PAGE_HDR */
	unsigned int used;		/* data bytes */
	bool has_page;
	uint64_t page_ts, prev_ts;
	uint64_t missed;		/* stored in the open page */
	uint64_t pending;		/* for the next page */
	uint64_t nr_pages;
};

struct col_pagebuf {
	unsigned int nr_cpus;
	unsigned int page_size;
	uint64_t nr_back;
	struct pb_cpu *cpu;
	int *fds;
};

int col_pagebuf_open(unsigned int nr_cpus, unsigned int page_size, const char *tmpdir,
		     struct col_pagebuf **out, struct an_diag *d)
{
	struct col_pagebuf *b;

	*out = NULL;
	if (!nr_cpus || page_size < 1024 || (page_size & (page_size - 1)))
		return an_diag_fail(d, -EINVAL, "%u CPUs, page size %u", nr_cpus, page_size);
	if (!tmpdir)
		tmpdir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	b = calloc(1, sizeof(*b));
	if (!b)
		return an_diag_fail(d, -ENOMEM, "out of memory");
	b->nr_cpus = nr_cpus;
	b->page_size = page_size;
	b->cpu = calloc(nr_cpus, sizeof(*b->cpu));
	b->fds = calloc(nr_cpus, sizeof(*b->fds));
	if (!b->cpu || !b->fds) {
		col_pagebuf_close(b);
		return an_diag_fail(d, -ENOMEM, "out of memory");
	}
	for (unsigned int c = 0; c < nr_cpus; c++)
		b->cpu[c].fd = -1;
	for (unsigned int c = 0; c < nr_cpus; c++) {
		b->cpu[c].fd = an_tmpfile(tmpdir, "ucval-probes");
		b->cpu[c].page = malloc(page_size);
		if (b->cpu[c].fd < 0 || !b->cpu[c].page) {
			int err = b->cpu[c].fd < 0 ? b->cpu[c].fd : -ENOMEM;

			col_pagebuf_close(b);
			return an_diag_fail(d, err, "cannot make a temporary file in %s: %s",
					    tmpdir, strerror(-err));
		}
	}
	*out = b;
	return 0;
}

static int write_all(int fd, const void *p, size_t n)
{
	const char *s = p;

	while (n) {
		ssize_t w = write(fd, s, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? -errno : -EIO;
		s += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Close @c's open page: header, data, stored missed count, zeros. */
static int finish_page(struct col_pagebuf *b, struct pb_cpu *c)
{
	uint64_t commit = c->used;
	unsigned int end = PAGE_HDR + c->used;

	if (!c->has_page)
		return 0;
	if (c->missed) {
		commit |= COMMIT_MISSED | COMMIT_STORED;
		memcpy(c->page + end, &c->missed, LOST_LEN);
		end += LOST_LEN;
	}
	memcpy(c->page, &c->page_ts, 8);
	memcpy(c->page + 8, &commit, 8);
	memset(c->page + end, 0, b->page_size - end);
	c->has_page = false;
	c->nr_pages++;
	return write_all(c->fd, c->page, b->page_size);
}

static int new_page(struct col_pagebuf *b, struct pb_cpu *c, uint64_t ts)
{
	int err = finish_page(b, c);

	c->has_page = true;
	c->used = 0;
	c->page_ts = c->prev_ts = ts;
	c->missed = c->pending;
	c->pending = 0;
	return err;
}

int col_pagebuf_add(struct col_pagebuf *b, unsigned int cpu, uint64_t ts, const void *rec,
		    unsigned int len)
{
	struct pb_cpu *c;
	unsigned int data = (len + 3) & ~3u, need, ext = 0, room;
	uint64_t delta = 0;
	int err;

	if (cpu >= b->nr_cpus || !len || len > b->page_size - PAGE_HDR - LOST_LEN - 16)
		return -EINVAL;
	c = &b->cpu[cpu];
	if (c->has_page && ts < c->prev_ts) {
		ts = c->prev_ts;
		b->nr_back++;
	}
	need = col_rb_header_len(data) + data;
	if (c->has_page) {
		delta = ts - c->prev_ts;
		ext = col_rb_extend_len(delta);
	}
	room = b->page_size - PAGE_HDR - (c->missed ? LOST_LEN : 0);
	if (!c->has_page || c->pending || c->used + ext + need > room || (delta >> 59)) {
		err = new_page(b, c, ts);
		if (err)
			return err;
		delta = 0;
	}
	c->used += col_rb_put_header(c->page + PAGE_HDR + c->used, delta, data);
	memcpy(c->page + PAGE_HDR + c->used, rec, len);
	memset(c->page + PAGE_HDR + c->used + len, 0, data - len);
	c->used += data;
	c->prev_ts = ts;
	return 0;
}

void col_pagebuf_lost(struct col_pagebuf *b, unsigned int cpu, uint64_t count)
{
	if (cpu < b->nr_cpus)
		b->cpu[cpu].pending += count;
}

int col_pagebuf_finish(struct col_pagebuf *b, const int **fds)
{
	int err = 0;

	for (unsigned int i = 0; i < b->nr_cpus; i++) {
		struct pb_cpu *c = &b->cpu[i];

		/* losses after the last record: an empty page says so */
		if (!err && c->pending)
			err = new_page(b, c, c->has_page ? c->prev_ts : 0);
		if (!err)
			err = finish_page(b, c);
		b->fds[i] = c->nr_pages ? c->fd : -1;
	}
	*fds = b->fds;
	return err;
}

uint64_t col_pagebuf_back(const struct col_pagebuf *b)
{
	return b->nr_back;
}

void col_pagebuf_close(struct col_pagebuf *b)
{
	if (!b)
		return;
	for (unsigned int i = 0; b->cpu && i < b->nr_cpus; i++) {
		if (b->cpu[i].fd >= 0)
			close(b->cpu[i].fd);
		free(b->cpu[i].page);
	}
	free(b->cpu);
	free(b->fds);
	free(b);
}
