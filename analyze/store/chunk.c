// SPDX-License-Identifier: MIT
/*
 * analyze/store/chunk.c - write and read the text of a chunk of intervals
 * (chunk.h). The writer is on the database's hot path (a dense trace has an
 * interval every three events): no snprintf(). The reader takes the text
 * as SQLite holds it, which anyone may have changed: it checks every byte
 * and refuses what it does not expect, never reading past @end.
 */
#include <errno.h>
#include <limits.h>
#include <string.h>

#include "analyze/store/chunk.h"

/* @v in decimal at @p: the characters written. Two digits a division. */
static size_t put_ll(char *p, long long v)
{
	static const char pairs[201] =
		"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
		"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
		"8081828384858687888990919293949596979899";
	unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
	char digit[20];
	size_t n = sizeof(digit), len;

	while (u >= 100) {
		unsigned int two = (unsigned int)(u % 100);

		u /= 100;
		n -= 2;
		memcpy(&digit[n], &pairs[2 * two], 2);
	}
	if (u >= 10) {
		n -= 2;
		memcpy(&digit[n], &pairs[2 * u], 2);
	} else {
		digit[--n] = (char)('0' + u);
	}
	len = sizeof(digit) - n + (v < 0);
	if (v < 0)
		*p++ = '-';
	memcpy(p, &digit[n], sizeof(digit) - n);
	return len;
}

/**
 * an_chunk_put() - append one interval to a chunk's text
 * @buf: where it goes: room for AN_CHUNK_REC_TEXT bytes
 * @is_first: the chunk's first interval (no comma before it)
 * @num: its numbers, start and end first
 * @has: bit i set: @num[i] is known, else null
 * @nr: numbers, at most AN_CHUNK_MAX_NUMS
 *
 * The caller writes the chunk's opening '[' before the first interval and
 * its closing ']' after the last.
 *
 * Return: the bytes written.
 */
size_t an_chunk_put(char *buf, bool is_first, const long long *num, unsigned int has,
		    unsigned int nr)
{
	char *p = buf;

	if (!is_first)
		*p++ = ',';
	*p++ = '[';
	for (unsigned int i = 0; i < nr && i < AN_CHUNK_MAX_NUMS; i++) {
		if (i)
			*p++ = ',';
		if (has & (1u << i)) {
			p += put_ll(p, num[i]);
		} else {
			memcpy(p, "null", 4);
			p += 4;
		}
	}
	*p++ = ']';
	return (size_t)(p - buf);
}

/**
 * an_chunk_begin() - start reading a chunk's text
 * @c: the reader
 * @text: the text (need not be NUL-terminated)
 * @len: its length
 */
void an_chunk_begin(struct an_chunk_reader *c, const char *text, size_t len)
{
	c->p = text;
	c->end = text + len;
	c->text = text;
	c->is_started = false;
	c->is_done = false;
}

/* JSON's whitespace */
static void skip_space(struct an_chunk_reader *c)
{
	while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r'))
		c->p++;
}

static bool take(struct an_chunk_reader *c, char ch)
{
	skip_space(c);
	if (c->p >= c->end || *c->p != ch)
		return false;
	c->p++;
	return true;
}

/* An integer (JSON's form: no '+', no leading zero) or null; -EINVAL, -ERANGE. */
static int take_num(struct an_chunk_reader *c, long long *v, bool *is_null)
{
	unsigned long long u = 0, limit = (unsigned long long)LLONG_MAX;
	const char *start;
	bool is_neg = false;

	skip_space(c);
	if (c->end - c->p >= 4 && !memcmp(c->p, "null", 4)) {
		c->p += 4;
		*is_null = true;
		return 0;
	}
	*is_null = false;
	if (c->p < c->end && *c->p == '-') {
		is_neg = true;
		limit++;	/* LLONG_MIN's magnitude */
		c->p++;
	}
	start = c->p;
	while (c->p < c->end && *c->p >= '0' && *c->p <= '9') {
		unsigned int d = (unsigned int)(*c->p - '0');

		if (u > (limit - d) / 10)
			return -ERANGE;
		u = u * 10 + d;
		c->p++;
	}
	if (c->p == start || (*start == '0' && c->p - start > 1))
		return -EINVAL;
	*v = is_neg ? (long long)(0ULL - u) : (long long)u;
	return 0;
}

/**
 * an_chunk_next() - read the next interval of a chunk
 * @c: the reader, from an_chunk_begin()
 * @num: its @nr numbers
 * @has: bit i set: @num[i] is a number, clear: null
 * @nr: numbers an interval must have, at most AN_CHUNK_MAX_NUMS
 *
 * Return: 1 with an interval, 0 at the end of the chunk (nothing but
 * whitespace may follow it), -EINVAL for text that is not such an array
 * (an_chunk_offset() says where), -ERANGE for a number beyond 64 bits.
 */
int an_chunk_next(struct an_chunk_reader *c, long long *num, unsigned int *has,
		  unsigned int nr)
{
	if (nr > AN_CHUNK_MAX_NUMS)
		return -EINVAL;
	if (c->is_done)
		return 0;
	if (!c->is_started) {
		if (!take(c, '['))
			return -EINVAL;
		c->is_started = true;
		if (take(c, ']'))
			goto out_end;
	} else {
		if (take(c, ']'))
			goto out_end;
		if (!take(c, ','))
			return -EINVAL;
	}
	if (!take(c, '['))
		return -EINVAL;
	*has = 0;
	for (unsigned int i = 0; i < nr; i++) {
		bool is_null;
		int err;

		if (i && !take(c, ','))
			return -EINVAL;
		err = take_num(c, &num[i], &is_null);
		if (err)
			return err;
		if (!is_null)
			*has |= 1u << i;
	}
	return take(c, ']') ? 1 : -EINVAL;
out_end:
	skip_space(c);
	if (c->p != c->end)
		return -EINVAL;
	c->is_done = true;
	return 0;
}

/**
 * an_chunk_offset() - the byte of the text the reader stopped at
 * @c: the reader
 *
 * Return: its offset from the text's start.
 */
size_t an_chunk_offset(const struct an_chunk_reader *c)
{
	return (size_t)(c->p - c->text);
}
