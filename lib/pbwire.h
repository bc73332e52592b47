/* SPDX-License-Identifier: MIT */
/*
 * lib/pbwire.h - a small protobuf wire-format decoder: varints, zigzag,
 * fixed32/64, length-delimited fields, groups, packed repeated fields,
 * every read bounds-checked against the buffer it walks.
 *
 * Hand-written rather than libprotobuf-c, for two reasons. The layout of a
 * Perfetto trace's dense generic events is only known at run time (a
 * DescriptorProto inside the trace), which generated code cannot describe.
 * And a trace is decoded in place as it streams: a field is a pointer and
 * a length into the caller's buffer, never an allocated message, so a
 * bundle of thousands of events costs no allocation at all.
 *
 * No allocation, no global state; the buffer is the caller's and must
 * outlive the cursor and every field taken from it.
 */
#ifndef UCVAL_LIB_PBWIRE_H
#define UCVAL_LIB_PBWIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Wire types (the low 3 bits of a tag). */
enum an_pb_wire {
	AN_PB_VARINT = 0,
	AN_PB_I64 = 1,		/* fixed64, sfixed64, double */
	AN_PB_LEN = 2,		/* string, bytes, message, packed repeated */
	AN_PB_SGROUP = 3,	/* a group, returned whole (its body in data/len) */
	AN_PB_EGROUP = 4,
	AN_PB_I32 = 5,		/* fixed32, sfixed32, float */
};

/* Decoding errors (negative, distinct from errno values). */
enum an_pb_err {
	AN_PB_E_VARINT = -1001,	/* a varint the buffer cuts, or longer than 10 bytes */
	AN_PB_E_LEN = -1002,	/* a length or fixed value past the end of the buffer */
	AN_PB_E_WIRE = -1003,	/* wire type 6 or 7, or an end-group without a start */
	AN_PB_E_GROUP = -1004,	/* a group without its end, or nested too deep */
	AN_PB_E_FIELD = -1005,	/* field number 0 or above 2^29 - 1 */
};

/* The largest field number (2^29 - 1); larger ones are AN_PB_E_FIELD. */
#define AN_PB_FIELD_MAX		((1u << 29) - 1)

/* Groups nested deeper than this are refused (AN_PB_E_GROUP). */
#define AN_PB_MAX_GROUP_DEPTH	32

/**
 * struct an_pb - a cursor over one message's bytes
 * @p: next byte to read
 * @end: one past the last byte
 * @base: where offsets are counted from (the start of the outermost buffer)
 */
struct an_pb {
	const uint8_t *p;
	const uint8_t *end;
	const uint8_t *base;
};

/**
 * struct an_pb_field - one field as an_pb_next() found it
 * @number: field number
 * @wire: wire type
 * @value: the value of AN_PB_VARINT, AN_PB_I64, AN_PB_I32 (raw bits)
 * @data: the bytes of AN_PB_LEN (and a group's body), borrowed from the buffer
 * @len: their number
 * @offset: of the field's tag, from the cursor's base
 */
struct an_pb_field {
	uint32_t number;
	enum an_pb_wire wire;
	uint64_t value;
	const uint8_t *data;
	size_t len;
	size_t offset;
};

/**
 * an_pb_init() - a cursor over @len bytes at @buf
 * @pb: cursor
 * @buf: the message, borrowed
 * @len: its length
 */
void an_pb_init(struct an_pb *pb, const void *buf, size_t len);

/**
 * an_pb_sub() - a cursor over the body of length-delimited field @f
 * @pb: cursor to set
 * @parent: the cursor @f came from (its base is kept, for offsets)
 * @f: an AN_PB_LEN field
 */
void an_pb_sub(struct an_pb *pb, const struct an_pb *parent, const struct an_pb_field *f);

/**
 * an_pb_next() - the next field of the message
 * @pb: cursor, moved past the field
 * @f: the field
 *
 * A group is skipped whole and returned as one AN_PB_SGROUP field.
 *
 * Return: 1 with a field, 0 at the end of the message, or an enum
 * an_pb_err (the cursor then stays on the bad field).
 */
int an_pb_next(struct an_pb *pb, struct an_pb_field *f);

/**
 * an_pb_offset() - where the cursor is, from its base
 * @pb: cursor
 */
size_t an_pb_offset(const struct an_pb *pb);

/**
 * an_pb_varint() - decode one varint
 * @p: read position, moved past the varint on success
 * @end: end of the buffer
 * @v: the value
 *
 * Return: 0 or AN_PB_E_VARINT.
 */
int an_pb_varint(const uint8_t **p, const uint8_t *end, uint64_t *v);

/**
 * an_pb_zigzag() - the signed value of a sint32/sint64 varint
 * @v: varint as read
 */
static inline int64_t an_pb_zigzag(uint64_t v)
{
	return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

/**
 * struct an_pb_packed - an iterator over the values of a repeated scalar
 * @p: next element
 * @end: end of the packed run
 * @elem: wire type of the elements (AN_PB_VARINT, AN_PB_I32, AN_PB_I64)
 * @single: the one value of a non-packed occurrence
 * @has_single: @single not yet returned
 */
struct an_pb_packed {
	const uint8_t *p;
	const uint8_t *end;
	enum an_pb_wire elem;
	uint64_t single;
	bool has_single;
};

/**
 * an_pb_packed_init() - iterate over the values of one occurrence of a
 * repeated scalar field: a packed run (AN_PB_LEN) or one plain value
 * @it: iterator
 * @f: the field
 * @elem: the wire type of its elements
 *
 * Return: 0, or AN_PB_E_WIRE when @f is neither form of @elem.
 */
int an_pb_packed_init(struct an_pb_packed *it, const struct an_pb_field *f,
		      enum an_pb_wire elem);

/**
 * an_pb_packed_next() - the next value
 * @it: iterator
 * @v: the value (raw bits for fixed elements)
 *
 * Return: 1 with a value, 0 at the end, or AN_PB_E_VARINT / AN_PB_E_LEN
 * when the run ends inside an element.
 */
int an_pb_packed_next(struct an_pb_packed *it, uint64_t *v);

/**
 * an_pb_strerror() - what an enum an_pb_err means, in words
 * @err: the code
 *
 * Return: a static string.
 */
const char *an_pb_strerror(int err);

#endif /* UCVAL_LIB_PBWIRE_H */
