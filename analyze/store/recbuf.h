/* SPDX-License-Identifier: MIT */
/*
 * analyze/store/recbuf.h - fixed-size records of one trace, kept until its
 * database transaction: the first AN_RECBUF_MEM in memory, the rest in an
 * unlinked temporary file, so memory stays bounded whatever the trace shows.
 * A record must hold no pointer but to static data (it is written as bytes).
 */
#ifndef UCVAL_ANALYZE_STORE_RECBUF_H
#define UCVAL_ANALYZE_STORE_RECBUF_H

#include <stddef.h>
#include <stdio.h>

/* Records kept in memory before spilling to the temporary file. */
#define AN_RECBUF_MEM	4096

struct an_recbuf {
	size_t size;			/* bytes per record */
	unsigned char *mem;		/* AN_RECBUF_MEM records, allocated on first add */
	size_t nr_mem;
	FILE *spill;			/* tmpfile() holding the rest, NULL until needed */
	size_t nr_spilled;
};

void an_recbuf_init(struct an_recbuf *b, size_t size);
int an_recbuf_add(struct an_recbuf *b, const void *rec);
int an_recbuf_for_each(struct an_recbuf *b, int (*fn)(void *ctx, const void *rec), void *ctx);
int an_recbuf_get(struct an_recbuf *b, size_t i, void *out);
void an_recbuf_release(struct an_recbuf *b);

static inline size_t an_recbuf_count(const struct an_recbuf *b)
{
	return b->nr_mem + b->nr_spilled;
}

#endif /* UCVAL_ANALYZE_STORE_RECBUF_H */
