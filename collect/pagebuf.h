/* SPDX-License-Identifier: MIT */
/*
 * collect/pagebuf.h - per-CPU ring-buffer pages built from records in
 * userspace (the kernel's page layout: u64 timestamp, 8-byte commit word,
 * type_len/time_delta entries, time extends for long gaps, a stored missed
 * count), each CPU's pages in an unlinked temporary file, for
 * col_datwrite_file(). The BPF probes' records go through it.
 */
#ifndef UCVAL_COLLECT_PAGEBUF_H
#define UCVAL_COLLECT_PAGEBUF_H

#include <stdint.h>

#include "lib/diag.h"

struct col_pagebuf;

/**
 * col_pagebuf_open() - pages for @nr_cpus CPUs
 * @nr_cpus: CPUs
 * @page_size: ring-buffer page size (4096 on most kernels), a power of two
 * @tmpdir: directory of the temporary files, NULL for $TMPDIR or /tmp
 * @out: the new buffer, freed with col_pagebuf_close()
 * @d: diagnostic on failure
 *
 * Return: 0, -EINVAL or a negative errno.
 */
int col_pagebuf_open(unsigned int nr_cpus, unsigned int page_size, const char *tmpdir,
		     struct col_pagebuf **out, struct an_diag *d);

/**
 * col_pagebuf_add() - append one record to @cpu's pages
 * @b: buffer
 * @cpu: CPU, below nr_cpus
 * @ts: timestamp in ns; one earlier than the CPU's last is written at the
 *	last (the pages cannot go back) and counted
 * @rec: record bytes, common header included; borrowed
 * @len: their number, at most a page's data less 16 bytes
 *
 * Return: 0, -EINVAL, or the negative errno of a failed write.
 */
int col_pagebuf_add(struct col_pagebuf *b, unsigned int cpu, uint64_t ts, const void *rec,
		    unsigned int len);

/**
 * col_pagebuf_lost() - @count records of @cpu were lost before its next one
 * @b: buffer
 * @cpu: CPU
 * @count: how many; the next record of @cpu starts a page that says so
 *	   (missed-events flag and stored count): trace readers report the
 *	   loss right before that record
 */
void col_pagebuf_lost(struct col_pagebuf *b, unsigned int cpu, uint64_t count);

/**
 * col_pagebuf_finish() - write every CPU's last page
 * @b: buffer
 * @fds: set to per-CPU files of whole pages (-1: no page), owned by @b
 *
 * Return: 0 or the negative errno of a failed write. Lost records with no
 * record after them are written on an empty page of their own.
 */
int col_pagebuf_finish(struct col_pagebuf *b, const int **fds);

/**
 * col_pagebuf_back() - records written at an earlier CPU's later timestamp
 * @b: buffer
 *
 * Return: their count.
 */
uint64_t col_pagebuf_back(const struct col_pagebuf *b);

/**
 * col_pagebuf_close() - free @b and its files
 * @b: buffer, may be NULL
 */
void col_pagebuf_close(struct col_pagebuf *b);

#endif /* UCVAL_COLLECT_PAGEBUF_H */
