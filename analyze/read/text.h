/* SPDX-License-Identifier: MIT */
/*
 * analyze/read/text.h - ftrace text and systrace HTML reader (internal; use
 * reader.h). Streaming: one line buffer, memory independent of trace size.
 * HTML is today's (text in <script class="trace-data"> blocks) or the legacy
 * one (text in a JavaScript string, lines ending in a literal "\n\").
 */
#ifndef UCVAL_ANALYZE_READ_TEXT_H
#define UCVAL_ANALYZE_READ_TEXT_H

#include <stdbool.h>
#include <stdio.h>

#include "lib/diag.h"
#include "analyze/read/event.h"
#include "analyze/read/readinfo.h"

/* Longest line kept; a longer one is reported as garbage and skipped. */
#define AN_TEXT_LINE_MAX (64 * 1024)

struct an_text;

/**
 * an_text_open() - start reading ftrace text or systrace HTML from @fp
 * @fp: stream positioned at the start of the file, borrowed
 * @scan: another stream of the same file, borrowed, for the first pass
 *	  below; @fp itself when it can seek (it is then rewound to where
 *	  @head ends); NULL when the input can be read only once (a pipe)
 * @is_html: true to read only the trace text of the HTML
 * @info: reader metadata to update (nr_cpus from "#P:N"/"cpus=N" or from
 *	  the lines), borrowed
 * @head: bytes already read from @fp (format detection), read first
 * @head_len: their number, at most AN_TEXT_LINE_MAX
 * @out: the new reader, freed with an_text_close()
 * @d: diagnostic on failure
 *
 * With @scan and no CPU-count header before the first event, a first pass
 * over @scan reads the file to the end and sets info->nr_cpus to the highest
 * CPU the lines name plus one: the count is known before the first event.
 * @fp itself is read once. Without @scan the count stays 0.
 *
 * Return: 0, -ENOMEM or a negative errno (the first pass failed to read).
 */
int an_text_open(FILE *fp, FILE *scan, bool is_html, struct an_reader_info *info,
		 const void *head, size_t head_len, struct an_text **out,
		 struct an_diag *d);

/**
 * an_text_next() - decode the next event (see an_reader_next())
 * @t: reader
 * @ev: event to fill
 * @d: diagnostic; its line is set on every error
 *
 * Garbage lines (not a comment, header, event or LOST line) are returned as
 * the recoverable AN_E_SYNTAX with their line number and skipped: a trace with
 * stray lines (tool output mixed in) stays readable and the caller counts
 * them. So is a last line without its newline, whatever it holds: the file
 * was cut inside it, its values are not to be trusted. A file that holds no
 * ftrace line at all is refused earlier, by format detection.
 *
 * Return: 1, 0 at the end, or a negative code.
 */
int an_text_next(struct an_text *t, struct an_event *ev, struct an_diag *d);

/**
 * an_text_close() - free @t (not its stream)
 * @t: reader, may be NULL
 */
void an_text_close(struct an_text *t);

/**
 * an_text_probe() - whether @buf looks like ftrace text
 * @buf: first bytes of a file
 * @len: their number
 *
 * Return: true when a line of @buf is an ftrace event line, a LOST line or a
 * known text header ("# tracer:", "cpus=N"), and @buf has no NUL byte.
 */
bool an_text_probe(const char *buf, size_t len);

#endif /* UCVAL_ANALYZE_READ_TEXT_H */
