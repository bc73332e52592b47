// SPDX-License-Identifier: MIT
/*
 * analyze/store/recbuf.c - records in memory, then in a temporary file (recbuf.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/store/recbuf.h"

/**
 * an_recbuf_init() - an empty buffer of @size-byte records
 * @b: the buffer
 * @size: bytes per record
 */
void an_recbuf_init(struct an_recbuf *b, size_t size)
{
	memset(b, 0, sizeof(*b));
	b->size = size;
}

/**
 * an_recbuf_add() - keep one record
 * @b: the buffer
 * @rec: the record (copied)
 *
 * Return: 0, -ENOMEM, or -EIO when the temporary file cannot be written.
 */
int an_recbuf_add(struct an_recbuf *b, const void *rec)
{
	if (!b->mem) {
		b->mem = malloc(AN_RECBUF_MEM * b->size);
		if (!b->mem)
			return -ENOMEM;
	}
	if (b->nr_mem < AN_RECBUF_MEM) {
		memcpy(b->mem + b->nr_mem++ * b->size, rec, b->size);
		return 0;
	}
	if (!b->spill) {
		b->spill = tmpfile();
		if (!b->spill)
			return -errno;
	}
	if (fwrite(rec, b->size, 1, b->spill) != 1)
		return -EIO;
	b->nr_spilled++;
	return 0;
}

/**
 * an_recbuf_for_each() - call @fn on every record, in the order added
 * @b: the buffer
 * @fn: the callback; a non-zero return stops the walk
 * @ctx: passed to @fn
 *
 * Return: 0, the first non-zero return of @fn, -ENOMEM or -EIO.
 */
int an_recbuf_for_each(struct an_recbuf *b, int (*fn)(void *ctx, const void *rec), void *ctx)
{
	unsigned char *rec;
	int err = 0;

	for (size_t i = 0; i < b->nr_mem; i++) {
		err = fn(ctx, b->mem + i * b->size);
		if (err)
			return err;
	}
	if (!b->spill)
		return 0;
	if (fflush(b->spill) || fseek(b->spill, 0, SEEK_SET))
		return -EIO;
	rec = malloc(b->size);
	if (!rec)
		return -ENOMEM;
	for (size_t i = 0; i < b->nr_spilled && !err; i++)
		err = fread(rec, b->size, 1, b->spill) == 1 ? fn(ctx, rec) : -EIO;
	free(rec);
	if (err)
		return err;
	return fseek(b->spill, 0, SEEK_END) ? -EIO : 0;
}

/**
 * an_recbuf_get() - copy record @i into @out
 * @b: the buffer
 * @i: index, in the order added
 * @out: @b->size bytes
 *
 * Return: 0, -ERANGE past the end, or -EIO. Reading a spilled record moves
 * the file position, so do not call it from an an_recbuf_for_each() of @b.
 */
int an_recbuf_get(struct an_recbuf *b, size_t i, void *out)
{
	if (i < b->nr_mem) {
		memcpy(out, b->mem + i * b->size, b->size);
		return 0;
	}
	i -= b->nr_mem;
	if (i >= b->nr_spilled)
		return -ERANGE;
	if (fflush(b->spill) || fseeko(b->spill, (off_t)(i * b->size), SEEK_SET) ||
	    fread(out, b->size, 1, b->spill) != 1 || fseek(b->spill, 0, SEEK_END))
		return -EIO;
	return 0;
}

/**
 * an_recbuf_release() - free the memory and the temporary file of @b
 * @b: the buffer; empty afterwards, same record size
 */
void an_recbuf_release(struct an_recbuf *b)
{
	size_t size = b->size;

	free(b->mem);
	if (b->spill)
		fclose(b->spill);
	an_recbuf_init(b, size);
}
