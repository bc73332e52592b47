/* SPDX-License-Identifier: MIT */
/*
 * analyze/read/dat/tracedat.h - trace.dat reader over libtracecmd (internal; use
 * reader.h).
 */
#ifndef UCVAL_ANALYZE_READ_DAT_TRACEDAT_H
#define UCVAL_ANALYZE_READ_DAT_TRACEDAT_H

#include "lib/diag.h"
#include "analyze/read/event.h"
#include "analyze/read/readinfo.h"

struct an_tracedat;

/**
 * an_tracedat_open() - open trace.dat @path (v6 or v7, compressed or not)
 * @path: file
 * @info: reader metadata to fill (version, compression, CPUs, release), borrowed
 * @out: the new reader, freed with an_tracedat_close()
 * @d: diagnostic on failure
 *
 * The file structure is checked first (datcheck.c), then handed to
 * libtracecmd without plugins.
 *
 * Return: 0, a negative errno, AN_E_CORRUPT, AN_E_FORMAT or AN_E_LIBRARY.
 */
int an_tracedat_open(const char *path, struct an_reader_info *info,
		     struct an_tracedat **out, struct an_diag *d);

/**
 * an_tracedat_next() - decode the next record, all CPUs merged by timestamp
 * @t: reader
 * @ev: event to fill; its name and print text live until the next call
 * @d: diagnostic; record index and CPU are set on every error
 *
 * Fields are found by name once per event format and cached by event id.
 * A record the ring buffer flagged with missed events is preceded by a
 * LOST_EVENTS event.
 *
 * Return: 1, 0 at the end, or a negative code (recoverable ones skip the
 * record).
 */
int an_tracedat_next(struct an_tracedat *t, struct an_event *ev, struct an_diag *d);

/**
 * an_tracedat_set_reader() - how every trace.dat is read from now on
 * @how: AN_DAT_PAGES (the default), AN_DAT_KBUFFER or AN_DAT_LIBTRACECMD
 *
 * A process-wide choice, made through an_reader_set_dat_reader() (reader.h)
 * before readers open.
 */
void an_tracedat_set_reader(enum an_dat_reader how);

/**
 * an_tracedat_close() - free @t and its libtracecmd handle
 * @t: reader, may be NULL
 */
void an_tracedat_close(struct an_tracedat *t);

#endif /* UCVAL_ANALYZE_READ_DAT_TRACEDAT_H */
