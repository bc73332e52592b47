/* SPDX-License-Identifier: MIT */
/*
 * analyze/store/chunk.h - the text of a chunk of intervals (schema 3, db.c): a
 * JSON array of intervals, each an array of integers or null,
 * [[start, end, v0, v1, ...], ...], start and end relative to the chunk's
 * ts_first_ns. Written here for the database, read here for the report;
 * the views of db.c read the same text with SQLite's json_each.
 */
#ifndef UCVAL_ANALYZE_STORE_CHUNK_H
#define UCVAL_ANALYZE_STORE_CHUNK_H

#include <stdbool.h>
#include <stddef.h>

/* Numbers an interval holds at most: start, end and up to five values. */
#define AN_CHUNK_MAX_NUMS	7
/* Longest text of one interval: a bracket, the numbers with signs and commas. */
#define AN_CHUNK_NUM_TEXT	21	/* "-9223372036854775808" and its comma */
#define AN_CHUNK_REC_TEXT	(3 + AN_CHUNK_MAX_NUMS * AN_CHUNK_NUM_TEXT)

size_t an_chunk_put(char *buf, bool is_first, const long long *num, unsigned int has,
		    unsigned int nr);

/**
 * struct an_chunk_reader - where an_chunk_next() is in a chunk's text
 * @p: next byte
 * @end: end of the text
 * @text: its start (for the offset of an error)
 * @is_started: the opening bracket was read
 * @is_done: the closing one too
 */
struct an_chunk_reader {
	const char *p;
	const char *end;
	const char *text;
	bool is_started;
	bool is_done;
};

void an_chunk_begin(struct an_chunk_reader *c, const char *text, size_t len);
int an_chunk_next(struct an_chunk_reader *c, long long *num, unsigned int *has,
		  unsigned int nr);
size_t an_chunk_offset(const struct an_chunk_reader *c);

#endif /* UCVAL_ANALYZE_STORE_CHUNK_H */
