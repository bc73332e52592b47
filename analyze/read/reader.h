/* SPDX-License-Identifier: MIT */
/*
 * analyze/read/reader.h - open any supported trace and stream canonical events.
 *
 * The format is detected from the content, never the file name (spec/events.md
 * §1): trace.dat v6/v7 (compressed or not), ftrace text (trace, trace_pipe,
 * trace-cmd report) and systrace/atrace HTML. Memory stays bounded by CPUs and
 * event formats, not by the number of events.
 *
 * The input is any file but a directory: a regular file, a pipe, a FIFO,
 * process substitution, a device. It is read once, in order, by one byte
 * source (source.h) that also hands every byte to a tap (the trace's
 * hash); detection reads the first bytes from it and the format reader
 * goes on from there. trace.dat from anything but a regular file is read
 * through a temporary copy (an_source_spool()).
 */
#ifndef UCVAL_ANALYZE_READ_READER_H
#define UCVAL_ANALYZE_READ_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/diag.h"
#include "analyze/read/event.h"
#include "analyze/read/readinfo.h"
#include "analyze/read/source.h"

struct an_reader;

/**
 * an_reader_detect() - guess the format of a trace from its first bytes
 * @buf: the first bytes of the file
 * @len: how many (a few KiB are enough; fewer if the file is shorter)
 *
 * Return: the format, AN_FORMAT_UNKNOWN when it is none of them.
 */
enum an_format an_reader_detect(const void *buf, size_t len);

/**
 * an_reader_open() - open a trace of any supported format
 * @path: the input (file, pipe, FIFO, device)
 * @out: the new reader, to be freed with an_reader_close()
 * @d: diagnostic on failure
 *
 * Return: 0, a negative errno (cannot open/read; -EFBIG: a trace.dat that is
 * no regular file beyond the spool limit), AN_E_EMPTY, AN_E_FORMAT,
 * AN_E_CORRUPT (trace.dat whose structure does not fit the file) or
 * AN_E_LIBRARY (libtracecmd refused the file).
 */
int an_reader_open(const char *path, struct an_reader **out, struct an_diag *d);

/**
 * an_reader_open_tap() - an_reader_open() that shows every byte to @tap
 * @path: the input
 * @tap: who also sees the bytes as they are read (struct an_source_tap;
 *	 copied), NULL for nobody
 * @out: the new reader, to be freed with an_reader_close()
 * @d: diagnostic on failure
 *
 * Once an_reader_next() returned 0 (the end), the bytes @tap saw, with the
 * rest it was handed, are the whole input as the reader read it.
 *
 * Return: as an_reader_open().
 */
int an_reader_open_tap(const char *path, const struct an_source_tap *tap,
		       struct an_reader **out, struct an_diag *d);

/**
 * an_reader_open_stream() - read ftrace text or systrace HTML from a stream
 * @fp: stream, borrowed (the caller closes it after an_reader_close())
 * @name: name for diagnostics
 * @out: the new reader, to be freed with an_reader_close()
 * @d: diagnostic on failure
 *
 * trace.dat needs a file: use an_reader_open() for it (it takes pipes
 * too). This one serves in-memory streams (fmemopen).
 *
 * Return: as an_reader_open().
 */
int an_reader_open_stream(FILE *fp, const char *name, struct an_reader **out,
			  struct an_diag *d);

/**
 * an_reader_next() - decode the next event
 * @r: reader
 * @ev: event to fill; borrowed pointers in it live until the next call
 * @d: diagnostic on error, naming file, line or record, event and field
 *
 * Events come in timestamp order for trace.dat (per-CPU buffers merged) and
 * in file order for text. A LOST_EVENTS event precedes the first event after
 * the loss. Events ucval does not use come as AN_EV_UNKNOWN with their name.
 *
 * Return: 1 with an event, 0 at the end, or a negative code. When
 * an_error_is_recoverable() says so, that line or record was skipped (a
 * garbage line, a known event without a required field, a bad value, a
 * malformed marker, a last text line the end of the file cuts) and the
 * caller may call again; other codes are final. The end of a trace in which
 * no event decoded is AN_E_FORMAT, not 0: nothing of it could be read.
 */
int an_reader_next(struct an_reader *r, struct an_event *ev, struct an_diag *d);

/**
 * an_reader_info() - metadata and counters of @r
 * @r: reader
 *
 * Return: a pointer into @r, valid until an_reader_close().
 */
const struct an_reader_info *an_reader_info(const struct an_reader *r);

/**
 * an_reader_close() - free a reader
 * @r: reader from an_reader_open(), may be NULL
 *
 * Closes the input and removes a temporary copy of it.
 */
void an_reader_close(struct an_reader *r);

/**
 * an_reader_set_quiet() - silence libtracecmd and libtraceevent
 * @is_quiet: true for no library output at all
 *
 * The libraries print warnings on stderr by default; this sets their global
 * log level, so call it once from main() (STYLE.md §8), or from a fuzzer.
 */
void an_reader_set_quiet(bool is_quiet);

/**
 * an_reader_set_dat_reader() - how every trace.dat is read from now on
 * @how: AN_DAT_PAGES (the default), AN_DAT_KBUFFER or AN_DAT_LIBTRACECMD
 *
 * All three give the same records in the same order; the default is the
 * fastest, libtracecmd's the reference. Compressed files and files whose
 * timestamps libtracecmd moves are always read by libtracecmd. A
 * process-wide choice: call it from main() or a test, before readers open.
 */
void an_reader_set_dat_reader(enum an_dat_reader how);

/**
 * an_reader_set_spool_max() - largest trace.dat read from a non-regular file
 * @bytes: the limit of its temporary copy; 0 for AN_SOURCE_SPOOL_MAX (4 GiB)
 *
 * A process-wide choice, as an_reader_set_dat_reader() (tests lower it).
 */
void an_reader_set_spool_max(uint64_t bytes);

#endif /* UCVAL_ANALYZE_READ_READER_H */
