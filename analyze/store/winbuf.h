/* SPDX-License-Identifier: MIT */
/*
 * analyze/store/winbuf.h - the windows of one trace, kept until its database
 * transaction. A trace is analyzed first and written in one short
 * transaction afterwards, so `-j N` writers do not hold the database while
 * they read; windows beyond a few thousand spill to an unlinked temporary
 * file, so memory stays bounded whatever the trace shows.
 */
#ifndef UCVAL_ANALYZE_STORE_WINBUF_H
#define UCVAL_ANALYZE_STORE_WINBUF_H

#include "analyze/checks/check.h"
#include "analyze/store/recbuf.h"

/* Windows kept in memory before spilling to the temporary file. */
#define AN_WINBUF_MEM	AN_RECBUF_MEM

struct an_winbuf {
	struct an_recbuf recs;		/* struct an_window records */
	struct an_recbuf texts;		/* their explanations, in the same order */
	size_t nr_fail;			/* FAIL windows added */
	size_t nr_undecided;		/* UNDECIDED windows added */
};

void an_winbuf_init(struct an_winbuf *b);
int an_winbuf_add(struct an_winbuf *b, const struct an_window *w);
int an_winbuf_sink(void *ctx, const struct an_window *w);
int an_winbuf_for_each(struct an_winbuf *b, int (*fn)(void *ctx, const struct an_window *w),
		       void *ctx);
void an_winbuf_release(struct an_winbuf *b);

#endif /* UCVAL_ANALYZE_STORE_WINBUF_H */
