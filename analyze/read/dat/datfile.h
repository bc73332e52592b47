/* SPDX-License-Identifier: MIT */
/*
 * analyze/read/dat/datfile.h - bounded reads of a trace.dat for datcheck.c (internal;
 * datpages.c reads its page headers with an_datfile_num_order() and inflates
 * chunks with libtracecmd's decompressor, declared in tcmd_private.h).
 *
 * Every read is checked against the end of what it may touch: the file, or
 * one section of it, loaded (and uncompressed) in memory. A read past it is
 * AN_E_CORRUPT with the offset, never a short read taken for data.
 */
#ifndef UCVAL_ANALYZE_READ_DAT_DATFILE_H
#define UCVAL_ANALYZE_READ_DAT_DATFILE_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/diag.h"

/* libtracecmd's decompressor (tcmd_private.h) and libtraceevent's handle */
struct tep_handle;
struct tracecmd_compression;

#define AN_DATFILE_STR_MAX	256		/* version, compression, system names */
#define AN_DATFILE_SECTION_MAX	(64u << 20)	/* section uncompressed in memory */

/**
 * struct an_datfile_cursor - where sequential reads go
 * @mem: section bytes in memory, NULL to read the file itself
 * @base: file offset of the section (diagnostics)
 * @off: read position (in @mem, or in the file)
 * @limit: end of what may be read (in @mem, or in the file)
 */
struct an_datfile_cursor {
	const unsigned char *mem;
	uint64_t base;
	uint64_t off;
	uint64_t limit;
};

/**
 * struct an_datfile - an open trace.dat under check
 * @fd: the file
 * @size: its size
 * @is_big: file byte order
 * @comp_name: v7 compression algorithm ("none" when not compressed)
 * @comp_version: its version
 * @cur: sequential read cursor
 * @d: diagnostic filled on every failure
 * @comp: the decompressor, made at the first compressed block; with @tep,
 *	  freed by an_datfile_release()
 * @tep: the byte order it reads block headers in
 */
struct an_datfile {
	int fd;
	uint64_t size;
	bool is_big;
	char comp_name[AN_DATFILE_STR_MAX];
	char comp_version[AN_DATFILE_STR_MAX];
	struct an_datfile_cursor cur;
	struct an_diag *d;
	struct tracecmd_compression *comp;
	struct tep_handle *tep;
};

/**
 * an_datfile_release() - free @f's decompressor (the file stays open)
 * @f: file
 */
void an_datfile_release(struct an_datfile *f);

/**
 * an_datfile_num() - number of @n bytes (1..8) at @p in the file's byte order
 * @f: file
 * @p: bytes
 * @n: their count
 *
 * Return: the value.
 */
uint64_t an_datfile_num(const struct an_datfile *f, const unsigned char *p, unsigned int n);

/**
 * an_datfile_num_order() - number of @n bytes (1..8) at @p in a byte order
 * @is_big: big endian
 * @p: bytes
 * @n: their count
 *
 * Return: the value; an_datfile_num() for a file, datpages.c for its pages.
 */
uint64_t an_datfile_num_order(bool is_big, const unsigned char *p, unsigned int n);

/**
 * an_datfile_corrupt() - fail with AN_E_CORRUPT at file offset @off
 * @f: file
 * @off: offset of the problem
 * @what: reason
 *
 * Return: AN_E_CORRUPT.
 */
int an_datfile_corrupt(struct an_datfile *f, uint64_t off, const char *what);

/**
 * an_datfile_need() - check that [@off, @off + @n) lies inside the file
 * @f: file
 * @off: start
 * @n: length
 * @what: reason if not
 *
 * Return: 0 or AN_E_CORRUPT.
 */
int an_datfile_need(struct an_datfile *f, uint64_t off, uint64_t n, const char *what);

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
		     const char *what);

/**
 * an_datfile_rd() - read @n bytes at the cursor and move it
 * @f: file
 * @buf: destination
 * @n: length
 * @what: reason if they are not all there
 *
 * Return: 0, a negative errno or AN_E_CORRUPT.
 */
int an_datfile_rd(struct an_datfile *f, void *buf, size_t n, const char *what);

/**
 * an_datfile_rd_num() - read an @n-byte number at the cursor
 * @f: file
 * @n: 1..8
 * @v: the value
 * @what: reason if it is not there
 *
 * Return: 0, a negative errno or AN_E_CORRUPT.
 */
int an_datfile_rd_num(struct an_datfile *f, unsigned int n, uint64_t *v, const char *what);

/**
 * an_datfile_skip() - move the cursor over @n bytes that must exist
 * @f: file
 * @n: length
 * @what: reason if they do not
 *
 * Return: 0 or AN_E_CORRUPT.
 */
int an_datfile_skip(struct an_datfile *f, uint64_t n, const char *what);

/**
 * an_datfile_rd_str() - read a NUL-terminated string of < AN_DATFILE_STR_MAX bytes
 * @f: file
 * @buf: destination
 * @what: reason if there is no NUL in reach
 *
 * Return: 0, a negative errno or AN_E_CORRUPT.
 */
int an_datfile_rd_str(struct an_datfile *f, char buf[AN_DATFILE_STR_MAX], const char *what);

/**
 * an_datfile_expect() - read @len bytes that must equal @tag
 * @f: file
 * @tag: expected bytes
 * @len: their count (at most 16)
 *
 * Return: 0, a negative errno or AN_E_CORRUPT.
 */
int an_datfile_expect(struct an_datfile *f, const char *tag, size_t len);

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
		    unsigned char **data, uint64_t *len);

#endif /* UCVAL_ANALYZE_READ_DAT_DATFILE_H */
