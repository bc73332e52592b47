// SPDX-License-Identifier: MIT
/*
 * analyze/read/dat/datfile.c - bounded reads of a trace.dat (see datfile.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event-parse.h>

#include "analyze/read/dat/datfile.h"
#include "analyze/read/dat/tcmd_private.h"
#include "lib/malloc.h"

#define DATFILE_COMPRESS_HDR 8		/* compressed size u32, raw size u32 */
#define DATFILE_TAG_MAX 16		/* longest fixed tag read */

/**
 * an_datfile_num() - number of @n bytes (1..8) at @p in the file's byte order
 * @f: file
 * @p: bytes
 * @n: their count
 *
 * Return: the value.
 */
uint64_t an_datfile_num(const struct an_datfile *f, const unsigned char *p, unsigned int n)
{
	return an_datfile_num_order(f->is_big, p, n);
}

uint64_t an_datfile_num_order(bool is_big, const unsigned char *p, unsigned int n)
{
	uint64_t v = 0;

	for (unsigned int i = 0; i < n; i++)
		v |= (uint64_t)p[is_big ? n - 1 - i : i] << (8 * i);
	return v;
}

/**
 * an_datfile_corrupt() - fail with AN_E_CORRUPT at file offset @off
 * @f: file
 * @off: offset of the problem
 * @what: reason
 *
 * Return: AN_E_CORRUPT.
 */
int an_datfile_corrupt(struct an_datfile *f, uint64_t off, const char *what)
{
	f->d->offset = (long long)(off > INT64_MAX ? INT64_MAX : off);
	return an_diag_fail(f->d, AN_E_CORRUPT, "%s", what);
}

/**
 * an_datfile_need() - check that [@off, @off + @n) lies inside the file
 * @f: file
 * @off: start
 * @n: length
 * @what: reason if not
 *
 * Return: 0 or AN_E_CORRUPT.
 */
int an_datfile_need(struct an_datfile *f, uint64_t off, uint64_t n, const char *what)
{
	if (off > f->size || n > f->size - off)
		return an_datfile_corrupt(f, off, what);
	return 0;
}

/**
 * an_datfile_pread() - read @n bytes at file offset @off
 * @f: file
 * @off: offset
 * @buf: destination
 * @n: length
 * @what: reason if they are not all there
 *
 * Return: 0, a negative errno or AN_E_CORRUPT.
 */
int an_datfile_pread(struct an_datfile *f, uint64_t off, void *buf, size_t n,
		     const char *what)
{
	int err = an_datfile_need(f, off, n, what);
	ssize_t got;

	if (err)
		return err;
	got = pread(f->fd, buf, n, (off_t)off);
	if (got < 0)
		return an_diag_fail(f->d, -errno, "read error: %s", strerror(errno));
	if ((size_t)got != n)
		return an_datfile_corrupt(f, off, what);
	return 0;
}

/* File offset to report for the cursor: exact in the file, the section start in memory. */
static uint64_t cursor_pos(const struct an_datfile *f)
{
	return f->cur.mem ? f->cur.base : f->cur.off;
}

/**
 * an_datfile_skip() - move the cursor over @n bytes that must exist
 * @f: file
 * @n: length
 * @what: reason if they do not
 *
 * Return: 0 or AN_E_CORRUPT.
 */
int an_datfile_skip(struct an_datfile *f, uint64_t n, const char *what)
{
	if (f->cur.off > f->cur.limit || n > f->cur.limit - f->cur.off)
		return an_datfile_corrupt(f, cursor_pos(f), what);
	f->cur.off += n;
	return 0;
}

/**
 * an_datfile_rd() - read @n bytes at the cursor and move it
 * @f: file
 * @buf: destination
 * @n: length
 * @what: reason if they are not all there
 *
 * Return: 0, a negative errno or AN_E_CORRUPT.
 */
int an_datfile_rd(struct an_datfile *f, void *buf, size_t n, const char *what)
{
	uint64_t at = f->cur.off;
	int err = an_datfile_skip(f, n, what);

	if (err)
		return err;
	if (f->cur.mem) {
		memcpy(buf, f->cur.mem + at, n);
		return 0;
	}
	err = an_datfile_pread(f, at, buf, n, what);
	if (err)
		f->cur.off = at;
	return err;
}

/**
 * an_datfile_rd_num() - read an @n-byte number at the cursor
 * @f: file
 * @n: 1..8
 * @v: the value
 * @what: reason if it is not there
 *
 * Return: 0, a negative errno or AN_E_CORRUPT.
 */
int an_datfile_rd_num(struct an_datfile *f, unsigned int n, uint64_t *v, const char *what)
{
	unsigned char b[8];
	int err = an_datfile_rd(f, b, n, what);

	if (!err)
		*v = an_datfile_num(f, b, n);
	return err;
}

/**
 * an_datfile_rd_str() - read a NUL-terminated string of < AN_DATFILE_STR_MAX bytes
 * @f: file
 * @buf: destination
 * @what: reason if there is no NUL in reach
 *
 * Return: 0, a negative errno or AN_E_CORRUPT.
 */
int an_datfile_rd_str(struct an_datfile *f, char buf[AN_DATFILE_STR_MAX], const char *what)
{
	uint64_t at = f->cur.off, left = f->cur.limit > at ? f->cur.limit - at : 0;
	size_t n = left < AN_DATFILE_STR_MAX ? (size_t)left : AN_DATFILE_STR_MAX;
	char *nul;
	int err = an_datfile_rd(f, buf, n, what);

	if (err)
		return err;
	nul = memchr(buf, '\0', n);
	if (!nul)
		return an_datfile_corrupt(f, f->cur.mem ? f->cur.base : at, what);
	f->cur.off = at + (size_t)(nul - buf) + 1;
	return 0;
}

/**
 * an_datfile_expect() - read @len bytes that must equal @tag
 * @f: file
 * @tag: expected bytes
 * @len: their count (at most 16)
 *
 * Return: 0, a negative errno or AN_E_CORRUPT.
 */
int an_datfile_expect(struct an_datfile *f, const char *tag, size_t len)
{
	char buf[DATFILE_TAG_MAX];
	int err;

	if (len > sizeof(buf))
		return an_datfile_corrupt(f, cursor_pos(f), "tag too long");
	err = an_datfile_rd(f, buf, len, "truncated header");
	if (!err && memcmp(buf, tag, len))
		err = an_datfile_corrupt(f, cursor_pos(f), "unexpected header tag");
	return err;
}

void an_datfile_release(struct an_datfile *f)
{
	tracecmd_compress_destroy(f->comp);
	f->comp = NULL;
	if (f->tep)
		tep_free(f->tep);
	f->tep = NULL;
}

/* Uncompress the block at @off ("u32 zsize, u32 size, data") into @dst. */
static int uncompress(struct an_datfile *f, uint64_t off, unsigned char *dst, uint64_t raw)
{
	if (!f->tep) {
		f->tep = tep_alloc();
		if (!f->tep)
			return an_diag_fail(f->d, -ENOMEM, "out of memory");
		tep_set_file_bigendian(f->tep, f->is_big ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	}
	if (!f->comp)
		f->comp = tracecmd_compress_alloc(f->comp_name, f->comp_version, f->fd, f->tep,
						  NULL);
	if (!f->comp || lseek(f->fd, (off_t)off, SEEK_SET) < 0 ||
	    tracecmd_uncompress_block(f->comp) < 0 ||
	    tracecmd_compress_buffer_read(f->comp, (char *)dst, (int)raw) != (int)raw)
		return an_datfile_corrupt(f, off, "cannot uncompress section");
	return 0;
}

/**
 * an_datfile_load() - read a v7 section's data into memory, uncompressing it
 * @f: file
 * @off: file offset of the data (after the section header)
 * @size: its size in the file
 * @is_compressed: the section header's compression flag
 * @data: the bytes, to free() by the caller
 * @len: their number (at most AN_DATFILE_SECTION_MAX)
 *
 * Return: 0, -ENOMEM or AN_E_CORRUPT.
 */
int an_datfile_load(struct an_datfile *f, uint64_t off, uint64_t size, bool is_compressed,
		    unsigned char **data, uint64_t *len)
{
	unsigned char hdr[DATFILE_COMPRESS_HDR];
	uint64_t raw = size;
	int err;

	*data = NULL;
	err = an_datfile_need(f, off, size, "section larger than the file (truncated?)");
	if (!err && is_compressed) {
		err = an_datfile_pread(f, off, hdr, sizeof(hdr), "truncated compressed section");
		if (!err) {	/* hdr holds nothing read otherwise */
			raw = an_datfile_num(f, hdr + 4, 4);
			if (size < DATFILE_COMPRESS_HDR ||
			    an_datfile_num(f, hdr, 4) > size - DATFILE_COMPRESS_HDR)
				err = an_datfile_corrupt(f, off, "malformed compressed section");
		}
	}
	if (!err && raw > AN_DATFILE_SECTION_MAX)
		err = an_datfile_corrupt(f, off, "section too large");
	if (err)
		return err;
	*data = an_malloc(raw ? (size_t)raw : 1);
	if (!*data)
		return an_diag_fail(f->d, -ENOMEM, "out of memory");
	if (is_compressed)
		err = uncompress(f, off, *data, raw);
	else
		err = an_datfile_pread(f, off, *data, (size_t)raw, "truncated section");
	if (err) {
		free(*data);
		*data = NULL;
		return err;
	}
	*len = raw;
	return 0;
}
