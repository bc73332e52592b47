// SPDX-License-Identifier: MIT
/*
 * lib/pbout.c - the protocol buffer encoder (pbout.h). A nested message
 * gets one byte for its length when opened; closing it writes the shortest
 * varint of the length there, moving the body up when that takes more than
 * one byte (rare: most messages ucval writes are short, and a long one is
 * moved once per level).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/malloc.h"
#include "lib/pbout.h"

/* Longest varint of a 64-bit value. */
#define VARINT_MAX	10
/* Smallest buffer: room for a packet of ftrace events without regrowing. */
#define PBOUT_MIN_ALLOC	4096

void an_pbout_reset(struct an_pbout *b)
{
	b->len = 0;
	b->depth = 0;
	b->err = 0;
}

void an_pbout_release(struct an_pbout *b)
{
	free(b->buf);
	*b = (struct an_pbout){ 0 };
}

int an_pbout_error(const struct an_pbout *b)
{
	return b->err;
}

/* Room for @n more bytes; false (and the error set) when there is none. */
static int reserve(struct an_pbout *b, size_t n)
{
	size_t want;
	unsigned char *p;

	if (b->err)
		return -1;
	if (b->alloc - b->len >= n)
		return 0;
	want = b->alloc ? b->alloc : PBOUT_MIN_ALLOC;
	while (want - b->len < n) {
		if (want > SIZE_MAX / 2) {
			b->err = -ENOMEM;
			return -1;
		}
		want *= 2;
	}
	p = an_realloc(b->buf, want);
	if (!p) {
		b->err = -ENOMEM;
		return -1;
	}
	b->buf = p;
	b->alloc = want;
	return 0;
}

static size_t put_varint(unsigned char *p, uint64_t v)
{
	size_t n = 0;

	while (v >= 0x80) {
		p[n++] = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	p[n++] = (unsigned char)v;
	return n;
}

static void varint(struct an_pbout *b, uint64_t v)
{
	if (reserve(b, VARINT_MAX))
		return;
	b->len += put_varint(b->buf + b->len, v);
}

static void tag(struct an_pbout *b, uint32_t field, enum an_pbout_wire wire)
{
	varint(b, (uint64_t)field << 3 | wire);
}

static void put_le(struct an_pbout *b, uint64_t v, size_t n)
{
	if (reserve(b, n))
		return;
	for (size_t i = 0; i < n; i++)
		b->buf[b->len++] = (unsigned char)(v >> (8 * i));
}

void an_pbout_varint(struct an_pbout *b, uint32_t field, uint64_t v)
{
	tag(b, field, AN_PB_VARINT);
	varint(b, v);
}

void an_pbout_int(struct an_pbout *b, uint32_t field, int64_t v)
{
	an_pbout_varint(b, field, (uint64_t)v);
}

void an_pbout_sint(struct an_pbout *b, uint32_t field, int64_t v)
{
	an_pbout_varint(b, field, (uint64_t)v << 1 ^ (uint64_t)(v >> 63));
}

void an_pbout_fixed64(struct an_pbout *b, uint32_t field, uint64_t v)
{
	tag(b, field, AN_PB_FIXED64);
	put_le(b, v, 8);
}

void an_pbout_fixed32(struct an_pbout *b, uint32_t field, uint32_t v)
{
	tag(b, field, AN_PB_FIXED32);
	put_le(b, v, 4);
}

void an_pbout_double(struct an_pbout *b, uint32_t field, double v)
{
	uint64_t bits;

	memcpy(&bits, &v, sizeof(bits));
	an_pbout_fixed64(b, field, bits);
}

void an_pbout_raw(struct an_pbout *b, const void *data, size_t len)
{
	if (!len || reserve(b, len))
		return;
	memcpy(b->buf + b->len, data, len);
	b->len += len;
}

void an_pbout_header(struct an_pbout *b, uint32_t field, size_t len)
{
	tag(b, field, AN_PB_LEN);
	varint(b, len);
}

void an_pbout_bytes(struct an_pbout *b, uint32_t field, const void *data, size_t len)
{
	an_pbout_header(b, field, len);
	an_pbout_raw(b, data, len);
}

void an_pbout_string(struct an_pbout *b, uint32_t field, const char *s)
{
	an_pbout_bytes(b, field, s, strlen(s));
}

void an_pbout_begin(struct an_pbout *b, uint32_t field)
{
	tag(b, field, AN_PB_LEN);
	if (reserve(b, 1))
		return;
	if (b->depth == AN_PBOUT_MAX_DEPTH) {
		b->err = -EOVERFLOW;
		return;
	}
	b->buf[b->len++] = 0;
	b->open[b->depth++] = b->len;
}

void an_pbout_end(struct an_pbout *b)
{
	unsigned char len[VARINT_MAX];
	size_t body, n;

	if (b->err)
		return;
	if (!b->depth) {
		b->err = -EOVERFLOW;
		return;
	}
	body = b->open[--b->depth];
	n = put_varint(len, b->len - body);
	if (n > 1) {
		if (reserve(b, n - 1))
			return;
		memmove(b->buf + body + n - 1, b->buf + body, b->len - body);
		b->len += n - 1;
	}
	memcpy(b->buf + body - 1, len, n);
}
