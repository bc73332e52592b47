/* SPDX-License-Identifier: MIT */
/*
 * collect/pagesort.h - records held until they can go onto the pages in
 * time order, CPU by CPU. The BPF ring buffer gives the probes' records in
 * the order they were reserved, not the order of their timestamps: a
 * program interrupted between its reservation and its timestamp comes
 * before the interrupt's records yet is stamped after them.
 */
#ifndef UCVAL_COLLECT_PAGESORT_H
#define UCVAL_COLLECT_PAGESORT_H

#include <stddef.h>
#include <stdint.h>

#include "collect/pagebuf.h"

/* The largest record held. */
#define COL_PAGESORT_REC_MAX	128

struct col_pagesort_rec {
	uint64_t ts;
	unsigned int cpu;
	unsigned int len;
	size_t seq;		/* its place among those added: ties keep it */
	unsigned char rec[COL_PAGESORT_REC_MAX];
};

/* The records held; zero-initialized is empty. */
struct col_pagesort {
	struct col_pagesort_rec *recs;
	size_t nr, alloc;
};

/**
 * col_pagesort_add() - hold a record
 * @s: the records held
 * @cpu: its CPU
 * @ts: its timestamp
 * @rec: the record (copied)
 * @len: its length, at most COL_PAGESORT_REC_MAX
 *
 * Return: 0, -EINVAL (too long) or -ENOMEM.
 */
int col_pagesort_add(struct col_pagesort *s, unsigned int cpu, uint64_t ts, const void *rec,
		     unsigned int len);

/**
 * col_pagesort_flush() - the records held onto @pages, each CPU's in time
 * order (equal timestamps in the order added); none is held after
 * @s: the records held
 * @pages: where they go (col_pagebuf_add())
 * @nr_written: incremented for each record written
 *
 * A record older than one an earlier flush wrote for its CPU still goes
 * after it (col_pagebuf_add() stamps it with the later time).
 *
 * Return: 0 or col_pagebuf_add()'s error (the records not written are
 * dropped).
 */
int col_pagesort_flush(struct col_pagesort *s, struct col_pagebuf *pages, uint64_t *nr_written);

/**
 * col_pagesort_release() - free what @s holds
 * @s: the records held; empty after
 */
void col_pagesort_release(struct col_pagesort *s);

#endif /* UCVAL_COLLECT_PAGESORT_H */
