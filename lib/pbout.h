/* SPDX-License-Identifier: MIT */
/*
 * lib/pbout.h - a protocol buffer encoder (the wire format of
 * protobuf.dev/programming-guides/encoding): fields appended to a growing
 * buffer, nested messages opened and closed like brackets. The length of a
 * nested message is written once it is closed, as the shortest varint, so
 * the bytes are those protoc would write for the same fields in the same
 * order.
 *
 * Errors are sticky: after a failed allocation every call does nothing and
 * an_pbout_error() says -ENOMEM, so a writer checks once at the end.
 */
#ifndef UCVAL_LIB_PBOUT_H
#define UCVAL_LIB_PBOUT_H

#include <stddef.h>
#include <stdint.h>

/* Nested messages open at once, at most. */
#define AN_PBOUT_MAX_DEPTH	16

/**
 * struct an_pbout - an encoder and its buffer
 * @buf: the bytes so far, owned by the encoder (an_pbout_release() frees it)
 * @len: bytes used in @buf
 * @alloc: bytes allocated
 * @open: offsets in @buf of the open messages' bodies, outermost first
 * @depth: messages open
 * @err: 0, or the first error (-ENOMEM, -EOVERFLOW for too deep a nesting)
 *
 * Zero-initialised it is an empty encoder.
 */
struct an_pbout {
	unsigned char *buf;
	size_t len, alloc;
	size_t open[AN_PBOUT_MAX_DEPTH];
	unsigned int depth;
	int err;
};

/* Wire types (the low three bits of a tag). */
enum an_pbout_wire {
	AN_PB_VARINT = 0,
	AN_PB_FIXED64 = 1,
	AN_PB_LEN = 2,
	AN_PB_FIXED32 = 5,
};

/**
 * an_pbout_reset() - drop the bytes, keep the buffer for reuse
 * @b: the encoder; its error is cleared too
 */
void an_pbout_reset(struct an_pbout *b);

/**
 * an_pbout_release() - free the buffer
 * @b: the encoder, empty and reusable afterwards
 */
void an_pbout_release(struct an_pbout *b);

/**
 * an_pbout_error() - the first error since the last reset
 * @b: the encoder
 *
 * Return: 0, -ENOMEM, or -EOVERFLOW (more than AN_PBOUT_MAX_DEPTH nested
 * messages, or a message closed that was never opened).
 */
int an_pbout_error(const struct an_pbout *b);

/**
 * an_pbout_varint() - field @field as a varint: uint32, uint64, bool, enum
 * @b: the encoder
 * @field: field number (1 .. 2^29 - 1)
 * @v: the value
 */
void an_pbout_varint(struct an_pbout *b, uint32_t field, uint64_t v);

/**
 * an_pbout_int() - a signed int32 or int64 field (two's complement varint:
 * a negative value takes ten bytes, as protobuf encodes it)
 * @b: the encoder
 * @field: field number
 * @v: the value
 */
void an_pbout_int(struct an_pbout *b, uint32_t field, int64_t v);

/**
 * an_pbout_sint() - a sint32 or sint64 field (zigzag varint)
 * @b: the encoder
 * @field: field number
 * @v: the value
 */
void an_pbout_sint(struct an_pbout *b, uint32_t field, int64_t v);

/**
 * an_pbout_fixed64() - a fixed64 or sfixed64 field (8 bytes little endian)
 * @b: the encoder
 * @field: field number
 * @v: the value
 */
void an_pbout_fixed64(struct an_pbout *b, uint32_t field, uint64_t v);

/**
 * an_pbout_fixed32() - a fixed32 or sfixed32 field (4 bytes little endian)
 * @b: the encoder
 * @field: field number
 * @v: the value
 */
void an_pbout_fixed32(struct an_pbout *b, uint32_t field, uint32_t v);

/**
 * an_pbout_double() - a double field (IEEE 754, 8 bytes little endian)
 * @b: the encoder
 * @field: field number
 * @v: the value
 */
void an_pbout_double(struct an_pbout *b, uint32_t field, double v);

/**
 * an_pbout_bytes() - a bytes field, or a message encoded elsewhere
 * @b: the encoder
 * @field: field number
 * @data: the bytes, copied (borrowed for the call; may be NULL when @len is 0)
 * @len: how many
 */
void an_pbout_bytes(struct an_pbout *b, uint32_t field, const void *data, size_t len);

/**
 * an_pbout_string() - a string field
 * @b: the encoder
 * @field: field number
 * @s: NUL-terminated text, copied without the NUL (borrowed for the call)
 */
void an_pbout_string(struct an_pbout *b, uint32_t field, const char *s);

/**
 * an_pbout_header() - the tag and length of a length-delimited field whose
 * @len bytes the caller writes itself (after these, or elsewhere: a packet
 * streamed out of another buffer)
 * @b: the encoder
 * @field: field number
 * @len: the bytes that follow
 */
void an_pbout_header(struct an_pbout *b, uint32_t field, size_t len);

/**
 * an_pbout_raw() - bytes appended as they are (an encoded stream of fields)
 * @b: the encoder
 * @data: the bytes, copied (borrowed for the call)
 * @len: how many
 */
void an_pbout_raw(struct an_pbout *b, const void *data, size_t len);

/**
 * an_pbout_begin() - open a nested message as field @field
 * @b: the encoder
 * @field: field number
 *
 * Fields until the matching an_pbout_end() go into the nested message.
 */
void an_pbout_begin(struct an_pbout *b, uint32_t field);

/**
 * an_pbout_end() - close the innermost open message and write its length
 * @b: the encoder
 */
void an_pbout_end(struct an_pbout *b);

#endif /* UCVAL_LIB_PBOUT_H */
