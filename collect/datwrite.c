// SPDX-License-Identifier: MIT
/*
 * collect/datwrite.c - the trace.dat v6 writer (trace-cmd.dat.v6(5)). The
 * layout is written in one forward pass: the per-CPU sizes are known before
 * the flyrecord table, since the raw pages are already in files.
 * Numbers are in host byte order, which the initial format declares.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "collect/datwrite.h"
#include "lib/outfile.h"

#define DAT_MAGIC	"\x17\x08\x44tracing"	/* magic bytes + "tracing" */
#define DAT_MAGIC_LEN	10
#define DAT_VERSION	"6"
#define DAT_TAG_LEN	10			/* "options  \0", "flyrecord\0" */
#define OUT_BUF_SIZE	(256u << 10)		/* write batching; pages are 4 KiB */
#define DAT_PAGE_MIN	1024			/* smallest ring-buffer page a kernel uses */
#define DAT_PAGE_MAX	(1u << 20)		/* largest sub-buffer (buffer_subbuf_size_kb) */

struct out {
	bool is_count;		/* count the bytes only (the layout pass) */
	int fd;
	uint64_t off;		/* bytes written so far (file offset) */
	size_t n;		/* bytes waiting in buf */
	int err;		/* first error, sticky */
	char *buf;
};

static void out_flush(struct out *o)
{
	size_t done = 0;

	while (!o->err && done < o->n) {
		ssize_t w = write(o->fd, o->buf + done, o->n - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			o->err = w < 0 ? -errno : -EIO;
		else
			done += (size_t)w;
	}
	o->n = 0;
}

static void out_put(struct out *o, const void *data, size_t len)
{
	const char *p = data;

	if (o->is_count) {
		o->off += len;
		return;
	}
	while (len && !o->err) {
		size_t room = OUT_BUF_SIZE - o->n;
		size_t k = len < room ? len : room;

		memcpy(o->buf + o->n, p, k);
		o->n += k;
		o->off += k;
		p += k;
		len -= k;
		if (o->n == OUT_BUF_SIZE)
			out_flush(o);
	}
}

/* Host byte order: the file declares the host's endianness. */
static void out_u16(struct out *o, uint16_t v) { out_put(o, &v, sizeof(v)); }
static void out_u32(struct out *o, uint32_t v) { out_put(o, &v, sizeof(v)); }
static void out_u64(struct out *o, uint64_t v) { out_put(o, &v, sizeof(v)); }

static void out_zero(struct out *o, uint64_t n)
{
	static const char zeros[4096];

	while (n && !o->err) {
		size_t k = n < sizeof(zeros) ? (size_t)n : sizeof(zeros);

		out_put(o, zeros, k);
		n -= k;
	}
}

/* A blob preceded by its size in @size_bytes (4 or 8). */
static void out_blob(struct out *o, const struct col_dat_blob *b, unsigned int size_bytes)
{
	if (size_bytes == 4)
		out_u32(o, (uint32_t)b->len);
	else
		out_u64(o, b->len);
	out_put(o, b->data, b->len);
}

static bool is_little_endian(void)
{
	const uint16_t one = 1;

	return *(const unsigned char *)&one == 1;
}

static uint64_t round_up(uint64_t v, uint64_t to)
{
	return (v + to - 1) / to * to;
}

static int check_input(const struct col_dat_input *in, struct an_diag *d)
{
	if (in->page_size < DAT_PAGE_MIN || in->page_size > DAT_PAGE_MAX ||
	    (in->page_size & (in->page_size - 1)))
		return an_diag_fail(d, -EINVAL, "page size %u is not a power of two in [%u, %u]",
				    in->page_size, DAT_PAGE_MIN, DAT_PAGE_MAX);
	if (in->long_size != 4 && in->long_size != 8)
		return an_diag_fail(d, -EINVAL, "long size %u is neither 4 nor 8", in->long_size);
	if (!in->header_page.len || !in->header_event.len)
		return an_diag_fail(d, -EINVAL, "header_page or header_event is empty");
	if (in->nr_cpus && !in->cpu_fds)
		return an_diag_fail(d, -EINVAL, "%u CPUs without data files", in->nr_cpus);
	for (unsigned int i = 0; i < in->nr_instances; i++)
		if (!in->instances[i].name || !*in->instances[i].name ||
		    (in->nr_cpus && !in->instances[i].cpu_fds))
			return an_diag_fail(d, -EINVAL, "instance %u without a name or data files", i);
	if (in->kallsyms.len > UINT32_MAX || in->printk.len > UINT32_MAX)
		return an_diag_fail(d, -EINVAL, "kallsyms or printk formats over 4 GiB");
	return 0;
}

/*
 * A BUFFER option (trace-cmd record -B in v6): the file offset of the
 * instance's "flyrecord" tag and CPU table, then its name.
 */
static void write_buffer_option(struct out *o, const char *name, uint64_t at)
{
	size_t len = strlen(name) + 1;

	out_u16(o, COL_DAT_OPT_BUFFER);
	out_u32(o, (uint32_t)(8 + len));
	out_u64(o, at);
	out_put(o, name, len);
}

static void write_headers(struct out *o, const struct col_dat_input *in, const uint64_t *inst_at)
{
	out_put(o, DAT_MAGIC, DAT_MAGIC_LEN);
	out_put(o, DAT_VERSION, sizeof(DAT_VERSION));
	out_put(o, (const char[]){ is_little_endian() ? 0 : 1 }, 1);
	out_put(o, (const char[]){ (char)in->long_size }, 1);
	out_u32(o, in->page_size);
	out_put(o, "header_page", sizeof("header_page"));
	out_blob(o, &in->header_page, 8);
	out_put(o, "header_event", sizeof("header_event"));
	out_blob(o, &in->header_event, 8);
	out_u32(o, in->nr_ftrace);
	for (unsigned int i = 0; i < in->nr_ftrace; i++)
		out_blob(o, &in->ftrace[i], 8);
	out_u32(o, in->nr_systems);
	for (unsigned int s = 0; s < in->nr_systems; s++) {
		const struct col_dat_system *sys = &in->systems[s];

		out_put(o, sys->name, strlen(sys->name) + 1);
		out_u32(o, sys->nr);
		for (unsigned int i = 0; i < sys->nr; i++)
			out_blob(o, &sys->formats[i], 8);
	}
	out_blob(o, &in->kallsyms, 4);
	out_blob(o, &in->printk, 4);
	out_blob(o, &in->cmdlines, 8);
	out_u32(o, in->nr_cpus);
	out_put(o, "options  ", DAT_TAG_LEN);
	for (unsigned int i = 0; i < in->nr_options; i++) {
		out_u16(o, in->options[i].id);
		out_u32(o, in->options[i].len);
		out_put(o, in->options[i].data, in->options[i].len);
	}
	for (unsigned int i = 0; i < in->nr_instances; i++)
		write_buffer_option(o, in->instances[i].name, inst_at ? inst_at[i] : 0);
	out_u16(o, 0);		/* end of options */
	out_put(o, "flyrecord", DAT_TAG_LEN);
}

/* Copy @size bytes of @fd from offset 0, then zeros up to @padded. */
static int copy_cpu(struct out *o, int fd, uint64_t size, uint64_t padded)
{
	uint64_t done = 0;

	while (done < size && !o->err) {
		size_t room = OUT_BUF_SIZE - o->n;
		size_t want = size - done < room ? (size_t)(size - done) : room;
		ssize_t r = pread(fd, o->buf + o->n, want, (off_t)done);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return r < 0 ? -errno : -EIO;	/* the file shrank */
		o->n += (size_t)r;
		o->off += (uint64_t)r;
		done += (uint64_t)r;
		if (o->n == OUT_BUF_SIZE)
			out_flush(o);
	}
	out_zero(o, padded - size);
	return o->err;
}

/*
 * The TRACECLOCK option's text, without its NUL: a v6 file with that option
 * holds the trace clock again right after the flyrecord table, as an 8-byte
 * size and the text. trace-cmd's writer puts it there and libtracecmd reads
 * it there (not in trace-cmd.dat.v6(5)); without it libtracecmd takes the
 * first bytes after the table, padding or page data, for that size.
 */
static const struct col_dat_option *clock_option(const struct col_dat_input *in,
						 uint32_t *len)
{
	for (unsigned int i = 0; i < in->nr_options; i++) {
		const struct col_dat_option *opt = &in->options[i];

		if (opt->id != COL_DAT_OPT_TRACECLOCK)
			continue;
		*len = opt->len;
		while (*len && !((const char *)opt->data)[*len - 1])
			(*len)--;
		return opt;
	}
	return NULL;
}

/* The sizes of @fds' files (0 for -1). */
static int cpu_sizes(const struct col_dat_input *in, const int *fds, uint64_t *size,
		     struct an_diag *d)
{
	for (unsigned int c = 0; c < in->nr_cpus; c++) {
		struct stat st;

		size[c] = 0;
		if (fds[c] < 0)
			continue;
		if (fstat(fds[c], &st))
			return an_diag_fail(d, -errno, "cannot stat the data of cpu %u: %s",
					    c, strerror(errno));
		size[c] = (uint64_t)st.st_size;
	}
	return 0;
}

/*
 * One instance's CPU data from @o->off (after its "flyrecord" tag): the
 * table, the trace clock, then each CPU's pages on a page boundary. In a
 * counting @o only the offsets move.
 */
static int write_flyrecord(struct out *o, const struct col_dat_input *in, const int *fds,
			   const uint64_t *size, struct an_diag *d)
{
	const struct col_dat_option *clock;
	uint32_t clock_len = 0;
	uint64_t at;
	int err;

	clock = clock_option(in, &clock_len);
	at = o->off + (uint64_t)in->nr_cpus * 16 + (clock ? 8 + (uint64_t)clock_len : 0);
	for (unsigned int c = 0; c < in->nr_cpus; c++) {
		uint64_t padded = round_up(size[c], in->page_size);

		at = round_up(at, in->page_size);
		out_u64(o, padded ? at : 0);
		out_u64(o, padded);
		at += padded;
	}
	if (clock) {
		out_u64(o, clock_len);
		out_put(o, clock->data, clock_len);
	}
	for (unsigned int c = 0; c < in->nr_cpus && !o->err; c++) {
		uint64_t padded = round_up(size[c], in->page_size);

		if (!padded)
			continue;
		out_zero(o, round_up(o->off, in->page_size) - o->off);
		if (o->is_count) {
			o->off += padded;
			continue;
		}
		err = copy_cpu(o, fds[c], size[c], padded);
		if (err)
			return an_diag_fail(d, err, "cannot copy the data of cpu %u: %s", c,
					    strerror(-err));
	}
	return 0;
}

/*
 * The top instance's data, then each named instance's: its "flyrecord"
 * tag and its flyrecord (@inst_at gets the tags' offsets when counting).
 */
static int write_data(struct out *o, const struct col_dat_input *in, uint64_t *inst_at,
		      struct an_diag *d)
{
	uint64_t *size = calloc(in->nr_cpus ? in->nr_cpus : 1, sizeof(*size));
	int err;

	if (!size)
		return an_diag_fail(d, -ENOMEM, "out of memory");
	err = cpu_sizes(in, in->cpu_fds, size, d);
	if (!err)
		err = write_flyrecord(o, in, in->cpu_fds, size, d);
	for (unsigned int i = 0; !err && i < in->nr_instances; i++) {
		out_zero(o, round_up(o->off, in->page_size) - o->off);
		if (o->is_count)
			inst_at[i] = o->off;
		out_put(o, "flyrecord", DAT_TAG_LEN);
		err = cpu_sizes(in, in->instances[i].cpu_fds, size, d);
		if (!err)
			err = write_flyrecord(o, in, in->instances[i].cpu_fds, size, d);
	}
	free(size);
	return err;
}

/* Where each instance's data goes: a counting pass over the whole file. */
static int layout(const struct col_dat_input *in, uint64_t *inst_at, struct an_diag *d)
{
	struct out c = { .is_count = true, .fd = -1 };

	write_headers(&c, in, NULL);
	return write_data(&c, in, inst_at, d);
}

int col_datwrite_file(const char *path, const struct col_dat_input *in, struct an_diag *d)
{
	struct out o = { .fd = -1 };
	struct rep_outfile out;
	bool has_reason = false;	/* @d already says why */
	uint64_t *inst_at;
	int err;

	an_diag_set_file(d, "write", path);
	err = check_input(in, d);
	if (err)
		return err;
	inst_at = calloc(in->nr_instances ? in->nr_instances : 1, sizeof(*inst_at));
	o.buf = malloc(OUT_BUF_SIZE);
	if (!o.buf || !inst_at) {
		err = an_diag_fail(d, -ENOMEM, "out of memory");
		goto out_free;
	}
	err = layout(in, inst_at, d);
	if (err)
		goto out_free;
	err = rep_outfile_open(&out, path, d);
	if (err)
		goto out_free;
	o.fd = fileno(out.fp);	/* write(2) only: stdio holds nothing */
	write_headers(&o, in, inst_at);
	err = o.err;
	if (!err) {
		err = write_data(&o, in, NULL, d);
		has_reason = err != 0;
	}
	if (!err)
		out_flush(&o);
	if (!err && o.err)
		err = o.err;
	if (err) {
		rep_outfile_abort(&out);
		if (!has_reason)
			an_diag_fail(d, err, "%s", strerror(-err));
	} else {
		err = rep_outfile_commit(&out, d);
	}
out_free:
	free(o.buf);
	free(inst_at);
	return err;
}
