// SPDX-License-Identifier: MIT
/*
 * analyze/winbuf.c - windows of one trace: the first AN_WINBUF_MEM in
 * memory, the rest in an unlinked temporary file of fixed-size records.
 * struct an_window holds no pointer but @rule, which always points to a
 * static string, so a record is the struct itself within one process.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/winbuf.h"

/**
 * an_winbuf_init() - an empty buffer
 * @b: the buffer
 */
void an_winbuf_init(struct an_winbuf *b)
{
	memset(b, 0, sizeof(*b));
}

/**
 * an_winbuf_add() - keep one window
 * @b: the buffer
 * @w: the window (copied)
 *
 * Return: 0, -ENOMEM, or -EIO when the temporary file cannot be written.
 */
int an_winbuf_add(struct an_winbuf *b, const struct an_window *w)
{
	if (!b->mem) {
		b->mem = malloc(AN_WINBUF_MEM * sizeof(*b->mem));
		if (!b->mem)
			return -ENOMEM;
	}
	if (w->is_fail)
		b->nr_fail++;
	else
		b->nr_undecided++;
	if (b->nr_mem < AN_WINBUF_MEM) {
		b->mem[b->nr_mem++] = *w;
		return 0;
	}
	if (!b->spill) {
		b->spill = tmpfile();
		if (!b->spill)
			return -errno;
	}
	if (fwrite(w, sizeof(*w), 1, b->spill) != 1)
		return -EIO;
	b->nr_spilled++;
	return 0;
}

/**
 * an_winbuf_sink() - an_window_sink_fn that adds to the buffer in @ctx
 * @ctx: a struct an_winbuf
 * @w: the window
 *
 * Return: as an_winbuf_add().
 */
int an_winbuf_sink(void *ctx, const struct an_window *w)
{
	return an_winbuf_add(ctx, w);
}

/**
 * an_winbuf_for_each() - call @fn on every window, in the order added
 * @b: the buffer
 * @fn: the callback; a non-zero return stops the walk
 * @ctx: passed to @fn
 *
 * Return: 0, the first non-zero return of @fn, or -EIO.
 */
int an_winbuf_for_each(struct an_winbuf *b, int (*fn)(void *ctx, const struct an_window *w),
		       void *ctx)
{
	struct an_window w;
	int err;

	for (size_t i = 0; i < b->nr_mem; i++) {
		err = fn(ctx, &b->mem[i]);
		if (err)
			return err;
	}
	if (!b->spill)
		return 0;
	if (fflush(b->spill) || fseek(b->spill, 0, SEEK_SET))
		return -EIO;
	for (size_t i = 0; i < b->nr_spilled; i++) {
		if (fread(&w, sizeof(w), 1, b->spill) != 1)
			return -EIO;
		err = fn(ctx, &w);
		if (err)
			return err;
	}
	return fseek(b->spill, 0, SEEK_END) ? -EIO : 0;
}

/**
 * an_winbuf_release() - free the memory and the temporary file of @b
 * @b: the buffer; empty afterwards
 */
void an_winbuf_release(struct an_winbuf *b)
{
	free(b->mem);
	if (b->spill)
		fclose(b->spill);
	an_winbuf_init(b);
}
