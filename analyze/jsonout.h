/* SPDX-License-Identifier: MIT */
/*
 * analyze/jsonout.h - the --json document of `ucval analyze`, written in
 * parts: each worker, possibly another process, writes each of its traces'
 * objects to a file of its own in a temporary directory, and the document
 * is put together from them in trace order once every worker is done.
 * Messages go to stderr, prefixed "ucval analyze:", as the command's own.
 */
#ifndef UCVAL_ANALYZE_JSONOUT_H
#define UCVAL_ANALYZE_JSONOUT_H

#include <stdio.h>

#include "analyze/tracerun.h"
#include "lib/diag.h"

/* Room for the parts' directory name, "/tmp/ucval-json-XXXXXX". */
#define AN_JSONOUT_DIR_LEN	32

/**
 * an_jsonout_begin() - create the directory of the parts
 * @dir: filled with its name
 *
 * Return: 0, or -1 after printing why on stderr.
 */
int an_jsonout_begin(char dir[AN_JSONOUT_DIR_LEN]);

/**
 * an_jsonout_part_open() - open the part of trace @index for writing
 * @dir: the parts' directory
 * @index: the trace's place among the command's traces
 *
 * Return: the stream, closed by the caller with an_jsonout_part_close()
 * once an_jsonout_trace() wrote it; NULL after printing why on stderr.
 */
FILE *an_jsonout_part_open(const char *dir, int index);

/**
 * an_jsonout_part_close() - finish a part: flush it, check it, close it
 * @part: the stream of an_jsonout_part_open(), closed in any case
 * @trace: the trace's path, for the message
 *
 * Return: 0, or a negative errno after printing on stderr that the
 * trace's JSON could not be written (the document would lack it).
 */
int an_jsonout_part_close(FILE *part, const char *trace);

/**
 * an_jsonout_trace() - write one trace's object
 * @out: its part
 * @t: the run; its windows are read again (hence not const)
 * @err: why the trace could not be analyzed or stored, or NULL; the object
 *	 then holds the path, the status and this error alone
 */
void an_jsonout_trace(FILE *out, struct an_tracerun *t, const struct an_diag *err);

/**
 * an_jsonout_finish() - write the document from its parts, remove them
 * @dir: the parts' directory, removed as well
 * @path: the document, "-" for standard output
 * @version: the ucval version it names
 * @options: the analysis' canonical option text
 * @nr_parts: the traces, parts 0 to @nr_parts - 1 (one missing leaves its
 *	      place empty)
 *
 * A regular file appears whole or not at all, a device or standard output
 * is written in place (lib/outfile.h); a write error of either is checked.
 *
 * Return: 0, or -1 after printing why on stderr ("ucval analyze: cannot
 * write standard output: ..." for "-").
 */
int an_jsonout_finish(const char *dir, const char *path, const char *version,
		      const char *options, int nr_parts);

#endif /* UCVAL_ANALYZE_JSONOUT_H */
