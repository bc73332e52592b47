// SPDX-License-Identifier: MIT
/*
 * collect/pagesort.c - records held until they go onto the pages in time
 * order, CPU by CPU (see pagesort.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "collect/pagesort.h"
#include "lib/vec.h"

int col_pagesort_add(struct col_pagesort *s, unsigned int cpu, uint64_t ts, const void *rec,
		     unsigned int len)
{
	struct col_pagesort_rec *r;

	if (len > COL_PAGESORT_REC_MAX)
		return -EINVAL;
	if (AN_VEC_GROW(s->recs, s->nr + 1, s->alloc))
		return -ENOMEM;
	r = &s->recs[s->nr];
	r->ts = ts;
	r->cpu = cpu;
	r->len = len;
	r->seq = s->nr++;
	memcpy(r->rec, rec, len);
	return 0;
}

static int by_cpu_ts(const void *a, const void *b)
{
	const struct col_pagesort_rec *x = a, *y = b;

	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

int col_pagesort_flush(struct col_pagesort *s, struct col_pagebuf *pages, uint64_t *nr_written)
{
	int err = 0;

	if (!s->nr)
		return 0;	/* nothing held: recs may be NULL, which qsort() may not take */
	qsort(s->recs, s->nr, sizeof(*s->recs), by_cpu_ts);
	for (size_t i = 0; i < s->nr && !err; i++) {
		const struct col_pagesort_rec *r = &s->recs[i];

		err = col_pagebuf_add(pages, r->cpu, r->ts, r->rec, r->len);
		if (!err)
			(*nr_written)++;
	}
	s->nr = 0;
	return err;
}

void col_pagesort_release(struct col_pagesort *s)
{
	free(s->recs);
	*s = (struct col_pagesort){ 0 };
}
