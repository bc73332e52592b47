// SPDX-License-Identifier: MIT
/*
 * analyze/store/winbuf.c - windows of one trace in a record buffer (recbuf.h).
 * struct an_window holds no pointer but @rule, which always points to a
 * static string, and @explain: the rare explanations go to a second buffer
 * of fixed-size texts, in window order, and the stored window's @explain
 * only says whether it has one. So a record is the struct itself within one
 * process.
 */
#include <stdio.h>
#include <string.h>

#include "analyze/store/winbuf.h"

/**
 * an_winbuf_init() - an empty buffer
 * @b: the buffer
 */
void an_winbuf_init(struct an_winbuf *b)
{
	memset(b, 0, sizeof(*b));
	an_recbuf_init(&b->recs, sizeof(struct an_window));
	an_recbuf_init(&b->texts, AN_WINDOW_EXPLAIN_LEN);
}

/* Stored in a window record in place of its explanation: "see texts". */
static const char has_text[] = "";

/**
 * an_winbuf_add() - keep one window
 * @b: the buffer
 * @w: the window (copied)
 *
 * Return: 0, -ENOMEM, or -EIO when the temporary file cannot be written.
 */
int an_winbuf_add(struct an_winbuf *b, const struct an_window *w)
{
	struct an_window rec = *w;
	int err = 0;

	rec.explain = NULL;
	if (w->explain && w->explain[0]) {
		char text[AN_WINDOW_EXPLAIN_LEN] = "";

		snprintf(text, sizeof(text), "%s", w->explain);
		err = an_recbuf_add(&b->texts, text);
		rec.explain = has_text;
	}
	if (!err)
		err = an_recbuf_add(&b->recs, &rec);

	if (err)
		return err;
	if (w->is_fail)
		b->nr_fail++;
	else
		b->nr_undecided++;
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

struct walk {
	int (*fn)(void *ctx, const struct an_window *w);
	void *ctx;
	struct an_winbuf *b;
	size_t nr_texts;		/* explanations read so far */
};

static int walk_one(void *ctx, const void *rec)
{
	struct walk *k = ctx;
	char text[AN_WINDOW_EXPLAIN_LEN];
	struct an_window w;
	int err;

	memcpy(&w, rec, sizeof(w));
	if (w.explain) {
		err = an_recbuf_get(&k->b->texts, k->nr_texts++, text);
		if (err)
			return err;
		w.explain = text;
	}
	return k->fn(k->ctx, &w);
}

/**
 * an_winbuf_for_each() - call @fn on every window, in the order added
 * @b: the buffer
 * @fn: the callback; a non-zero return stops the walk
 * @ctx: passed to @fn
 *
 * Return: 0, the first non-zero return of @fn, -ENOMEM or -EIO.
 */
int an_winbuf_for_each(struct an_winbuf *b, int (*fn)(void *ctx, const struct an_window *w),
		       void *ctx)
{
	struct walk k = { fn, ctx, b, 0 };

	return an_recbuf_for_each(&b->recs, walk_one, &k);
}

/**
 * an_winbuf_release() - free the memory and the temporary file of @b
 * @b: the buffer; empty afterwards
 */
void an_winbuf_release(struct an_winbuf *b)
{
	an_recbuf_release(&b->recs);
	an_recbuf_release(&b->texts);
	an_winbuf_init(b);
}
