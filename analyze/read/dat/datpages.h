/* SPDX-License-Identifier: MIT */
/*
 * analyze/read/dat/datpages.h - the records of a trace.dat's CPU data, read page by
 * page (internal to tracedat.c).
 *
 * What tracecmd_read_next_data() gives, for the files it suits (plain CPU
 * data, timestamps the library would not move), without a heap record per
 * event: each CPU's pages come in by pread() in chunks, are walked as
 * libtraceevent's kbuffer walks them (or by kbuffer itself), and the CPUs
 * are merged by timestamp as libtracecmd merges them (the lowest CPU slot
 * first on a tie). libtracecmd stays the reference path
 * (an_reader_set_dat_reader(), UCVAL_DAT=library; tests compare them).
 */
#ifndef UCVAL_ANALYZE_READ_DAT_DATPAGES_H
#define UCVAL_ANALYZE_READ_DAT_DATPAGES_H

#include <stdbool.h>

#include <event-parse.h>

#include "analyze/read/dat/datcheck.h"
#include "lib/diag.h"

struct an_datpages;

/**
 * an_datpages_open() - start reading the CPU data of trace.dat @path
 * @path: file
 * @chk: what an_datcheck_run() learnt of it, with chk->use_pages. Borrowed
 *	until an_datpages_close().
 * @tep: its event formats (libtracecmd's), for the page format
 * @may_walk: walk the pages here where the file allows it; false: every page
 *	through kbuffer
 * @out: the new reader
 * @d: diagnostic on failure
 *
 * Return: 0, a negative errno or AN_E_CORRUPT.
 */
int an_datpages_open(const char *path, const struct an_datcheck *chk, struct tep_handle *tep,
		     bool may_walk, struct an_datpages **out, struct an_diag *d);

/**
 * an_datpages_next() - the next record of all CPUs, merged by timestamp
 * @p: reader
 * @rec: set to the record (data, size, ts, cpu, offset, missed_events),
 *	valid until the next call
 * @d: diagnostic on failure (file offset of the bad page)
 *
 * Return: 1, 0 at the end, or a negative code (AN_E_CORRUPT: a page that
 * does not hold what its header says; a negative errno: a failed read).
 */
int an_datpages_next(struct an_datpages *p, struct tep_record **rec, struct an_diag *d);

/**
 * an_datpages_close() - free @p
 * @p: reader, may be NULL
 */
void an_datpages_close(struct an_datpages *p);

#endif /* UCVAL_ANALYZE_READ_DAT_DATPAGES_H */
