/* SPDX-License-Identifier: MIT */
/*
 * analyze/read/source.h - the bytes of one input, read once, in order, by
 * the one reader of a trace (reader.c), and handed as they are read to a
 * tap (the trace's hash, analyze/tracerun.c).
 *
 * Any input is accepted: a regular file, a pipe, a FIFO, a character
 * device, process substitution (/dev/fd/N). Only a regular file is read
 * twice: trace.dat's readers (libtracecmd) read it out of order, so the tap
 * reads its rest itself (struct an_source_tap, @rest). A trace.dat that is
 * not a regular file is copied into an unlinked temporary file while it is
 * read (an_source_spool()), at most an_source_set_spool_max() bytes.
 */
#ifndef UCVAL_ANALYZE_READ_SOURCE_H
#define UCVAL_ANALYZE_READ_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/diag.h"

/* Largest trace.dat read from a pipe (spooled to a temporary file): 4 GiB. */
#define AN_SOURCE_SPOOL_MAX	(4ULL << 30)

/**
 * struct an_source_tap - who else sees the bytes of an input (its hash)
 * @bytes: called with each run of bytes read from the input, in order and
 *	   without gap, on the reading thread; @buf is lent for the call only
 * @rest: called at most once, after the last @bytes: bytes [@from, @to) of
 *	  the regular file @fd will not be read in order (trace.dat), the tap
 *	  reads them itself; @fd is the tap's, to close() (it stays valid
 *	  after an_source_close())
 * @ctx: their context
 *
 * The bytes the tap saw (with @rest's) are the input as the reader read it,
 * once the reader reached its end; when the reader failed they are a prefix.
 */
struct an_source_tap {
	void (*bytes)(void *ctx, const void *buf, size_t len);
	void (*rest)(void *ctx, int fd, uint64_t from, uint64_t to);
	void *ctx;
};

struct an_source;

/**
 * an_source_open() - open @path for reading once, in order
 * @path: the input; any kind of file but a directory
 * @tap: who also sees the bytes, copied; NULL for nobody
 * @out: the new source, to be freed with an_source_close()
 * @d: diagnostic on failure (action "read", as for any input error)
 *
 * Return: 0 or a negative errno.
 */
int an_source_open(const char *path, const struct an_source_tap *tap, struct an_source **out,
		   struct an_diag *d);

/**
 * an_source_stream() - a stdio stream on @s's bytes, each read through the tap
 * @s: the source
 *
 * Return: the stream, owned by @s (closed by an_source_close()).
 */
FILE *an_source_stream(const struct an_source *s);

/**
 * an_source_is_file() - whether @s is a regular file (it can be opened again)
 * @s: the source
 *
 * Return: true for a regular file.
 */
bool an_source_is_file(const struct an_source *s);

/**
 * an_source_hand_rest() - the tap reads the rest of the regular file itself
 * @s: a source an_source_is_file() says is a regular file
 *
 * For a reader that opens the file again and reads it out of order: the tap
 * gets, through its @rest, the bytes from what the stream has read so far
 * to the file's size now. Nothing happens without a tap.
 *
 * Return: 0 or a negative errno (no descriptor left to hand over).
 */
int an_source_hand_rest(struct an_source *s, struct an_diag *d);

/**
 * an_source_spool() - copy the whole input into an unlinked temporary file
 * @s: the source, not a regular file
 * @head: bytes already taken from an_source_stream(), written first
 * @len: their number
 * @path: set to a path that opens the copy ("/proc/self/fd/N"), valid
 *	  until an_source_close()
 * @d: diagnostic on failure
 *
 * The copy goes into $TMPDIR (default /tmp), and stops with -EFBIG beyond
 * the spool limit (an_source_set_spool_max()). Every byte goes through the
 * tap as it is read.
 *
 * Return: 0 or a negative errno.
 */
int an_source_spool(struct an_source *s, const void *head, size_t len, const char **path,
		    struct an_diag *d);

/**
 * an_source_set_budget() - stop reading past byte @end of the input
 * @s: the source
 * @end: reads that would go past it fail (an_source_is_over() says why);
 *	 UINT64_MAX (the start): no end
 *
 * The reader of an input that may never end (a pipe, a device) moves @end
 * forward as the input proves to be a trace.
 */
void an_source_set_budget(struct an_source *s, uint64_t end);

/**
 * an_source_is_over() - whether a read failed for want of budget
 * @s: the source
 *
 * Return: true once a read would have gone past an_source_set_budget().
 */
bool an_source_is_over(const struct an_source *s);

/**
 * an_source_offset() - bytes read from the input so far
 * @s: the source
 *
 * Return: their number (read ahead of the stream's reader included).
 */
uint64_t an_source_offset(const struct an_source *s);

/**
 * an_source_close() - close @s, its stream and its temporary file
 * @s: the source, may be NULL
 */
void an_source_close(struct an_source *s);

/**
 * an_source_set_spool_max() - largest input an_source_spool() copies
 * @bytes: the limit; 0 for AN_SOURCE_SPOOL_MAX
 *
 * A process-wide setting (tests lower it), read when a spool starts.
 */
void an_source_set_spool_max(uint64_t bytes);

#endif /* UCVAL_ANALYZE_READ_SOURCE_H */
