// SPDX-License-Identifier: MIT
/*
 * lib/pbwire.c - the protobuf wire-format decoder (pbwire.h). Every read
 * checks the bytes left first; lengths are compared, never added to
 * pointers before the check.
 */
#include <string.h>

#include "lib/pbwire.h"

#define VARINT_MAX_BYTES	10

void an_pb_init(struct an_pb *pb, const void *buf, size_t len)
{
	pb->p = buf;
	pb->end = pb->p + len;
	pb->base = pb->p;
}

void an_pb_sub(struct an_pb *pb, const struct an_pb *parent, const struct an_pb_field *f)
{
	pb->p = f->data;
	pb->end = f->data + f->len;
	pb->base = parent->base;
}

size_t an_pb_offset(const struct an_pb *pb)
{
	return (size_t)(pb->p - pb->base);
}

int an_pb_varint(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
	const uint8_t *q = *p;
	uint64_t x = 0;

	for (unsigned int i = 0; i < VARINT_MAX_BYTES; i++) {
		if (q >= end)
			return AN_PB_E_VARINT;
		x |= (uint64_t)(*q & 0x7f) << (7 * i);
		if (!(*q++ & 0x80)) {
			*p = q;
			*v = x;
			return 0;
		}
	}
	return AN_PB_E_VARINT;
}

/* an_pb_varint() with the one-byte case (tags, small values) first. */
static inline int varint(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
	if (*p < end && !(**p & 0x80)) {
		*v = **p;
		(*p)++;
		return 0;
	}
	return an_pb_varint(p, end, v);
}

static int read_fixed(const uint8_t **p, const uint8_t *end, unsigned int n, uint64_t *v)
{
	uint64_t x = 0;

	if ((size_t)(end - *p) < n)
		return AN_PB_E_LEN;
	for (unsigned int i = 0; i < n; i++)
		x |= (uint64_t)(*p)[i] << (8 * i);
	*p += n;
	*v = x;
	return 0;
}

static int read_tag(const uint8_t **p, const uint8_t *end, uint32_t *number,
		    enum an_pb_wire *wire)
{
	uint64_t tag;
	int err = varint(p, end, &tag);

	if (err)
		return err;
	if ((tag & 7) > AN_PB_I32)
		return AN_PB_E_WIRE;
	if ((tag >> 3) == 0 || (tag >> 3) > AN_PB_FIELD_MAX)
		return AN_PB_E_FIELD;
	*number = (uint32_t)(tag >> 3);
	*wire = (enum an_pb_wire)(tag & 7);
	return 0;
}

/* One value of @wire at *p, skipped (groups are not: the caller counts them). */
static int skip_value(const uint8_t **p, const uint8_t *end, enum an_pb_wire wire)
{
	uint64_t v;
	int err;

	switch (wire) {
	case AN_PB_VARINT:
		return an_pb_varint(p, end, &v);
	case AN_PB_I64:
		return read_fixed(p, end, 8, &v);
	case AN_PB_I32:
		return read_fixed(p, end, 4, &v);
	case AN_PB_LEN:
		err = an_pb_varint(p, end, &v);
		if (err)
			return err;
		if (v > (uint64_t)(end - *p))
			return AN_PB_E_LEN;
		*p += v;
		return 0;
	default:
		return 0;
	}
}

/* The body of a group whose start tag was read: up to its end tag. */
static int skip_group(const uint8_t **p, const uint8_t *end, uint32_t number,
		      const uint8_t **body_end)
{
	uint32_t stack[AN_PB_MAX_GROUP_DEPTH];
	unsigned int depth = 0;

	stack[depth++] = number;
	while (depth) {
		const uint8_t *tag_at = *p;
		enum an_pb_wire wire;
		uint32_t n;
		int err;

		if (*p >= end)
			return AN_PB_E_GROUP;
		err = read_tag(p, end, &n, &wire);
		if (err)
			return err;
		if (wire == AN_PB_EGROUP) {
			if (stack[--depth] != n)
				return AN_PB_E_GROUP;
			*body_end = tag_at;
			continue;
		}
		if (wire == AN_PB_SGROUP) {
			if (depth == AN_PB_MAX_GROUP_DEPTH)
				return AN_PB_E_GROUP;
			stack[depth++] = n;
			continue;
		}
		err = skip_value(p, end, wire);
		if (err)
			return err;
	}
	return 0;
}

int an_pb_next(struct an_pb *pb, struct an_pb_field *f)
{
	const uint8_t *p = pb->p;
	uint64_t v;
	int err;

	if (p >= pb->end)
		return 0;
	memset(f, 0, sizeof(*f));
	f->offset = (size_t)(p - pb->base);
	err = read_tag(&p, pb->end, &f->number, &f->wire);
	if (err)
		return err;
	switch (f->wire) {
	case AN_PB_VARINT:
		err = varint(&p, pb->end, &f->value);
		break;
	case AN_PB_I64:
		err = read_fixed(&p, pb->end, 8, &f->value);
		break;
	case AN_PB_I32:
		err = read_fixed(&p, pb->end, 4, &f->value);
		break;
	case AN_PB_LEN:
		err = varint(&p, pb->end, &v);
		if (!err && v > (uint64_t)(pb->end - p))
			err = AN_PB_E_LEN;
		if (!err) {
			f->data = p;
			f->len = (size_t)v;
			p += v;
		}
		break;
	case AN_PB_SGROUP: {
		const uint8_t *body_end = p;

		f->data = p;
		err = skip_group(&p, pb->end, f->number, &body_end);
		f->len = (size_t)(body_end - f->data);
		break;
	}
	default:
		err = AN_PB_E_WIRE;	/* an end-group outside a group */
		break;
	}
	if (err)
		return err;
	pb->p = p;
	return 1;
}

int an_pb_packed_init(struct an_pb_packed *it, const struct an_pb_field *f,
		      enum an_pb_wire elem)
{
	memset(it, 0, sizeof(*it));
	it->elem = elem;
	if (f->wire == AN_PB_LEN) {
		it->p = f->data;
		it->end = f->data + f->len;
		return 0;
	}
	if (f->wire != elem)
		return AN_PB_E_WIRE;
	it->single = f->value;
	it->has_single = true;
	return 0;
}

int an_pb_packed_next(struct an_pb_packed *it, uint64_t *v)
{
	int err;

	if (it->has_single) {
		it->has_single = false;
		*v = it->single;
		return 1;
	}
	if (!it->p || it->p >= it->end)
		return 0;
	switch (it->elem) {
	case AN_PB_VARINT:
		err = varint(&it->p, it->end, v);
		break;
	case AN_PB_I64:
		err = read_fixed(&it->p, it->end, 8, v);
		break;
	case AN_PB_I32:
		err = read_fixed(&it->p, it->end, 4, v);
		break;
	default:
		err = AN_PB_E_WIRE;
		break;
	}
	return err ? err : 1;
}

const char *an_pb_strerror(int err)
{
	switch (err) {
	case AN_PB_E_VARINT:
		return "a varint cut short or longer than 10 bytes";
	case AN_PB_E_LEN:
		return "a length past the end of its message";
	case AN_PB_E_WIRE:
		return "an invalid wire type";
	case AN_PB_E_GROUP:
		return "a group without its end, or nested too deep";
	case AN_PB_E_FIELD:
		return "an invalid field number";
	default:
		return "a protobuf decoding error";
	}
}
