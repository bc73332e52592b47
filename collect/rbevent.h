/* SPDX-License-Identifier: MIT */
/*
 * collect/rbevent.h - one event entry of a kernel ring-buffer page, as the
 * page writers of collect/pagebuf.c (probe records) and
 * collect/synth/synthout.c (synthesized traces) encode it: a time extend
 * when the delta does not fit the entry header, then the header (type_len
 * and time_delta), then the length word of a record too long for type_len.
 * The page around the entries (timestamp, commit word, missed count) is
 * each writer's own.
 */
#ifndef UCVAL_COLLECT_RBEVENT_H
#define UCVAL_COLLECT_RBEVENT_H

#include <stdint.h>
#include <string.h>

#define COL_RB_PAGE_HDR		16u	/* u64 timestamp, u64 commit */
#define COL_RB_LOST_LEN		8u	/* missed count stored after the data */
#define COL_RB_REC_MAX_SMALL	112u	/* data bytes type_len can express (28 * 4) */
#define COL_RB_TIME_EXTEND	30u	/* entry type: upper bits of a delta */
#define COL_RB_DELTA_BITS	27u	/* time_delta bits of an entry header */

/* Bytes of the time extend a delta of @delta needs before its entry: 0 or 8. */
static inline unsigned int col_rb_extend_len(uint64_t delta)
{
	return delta >> COL_RB_DELTA_BITS ? 8 : 0;
}

/* Bytes of the entry header of @data record bytes (a multiple of 4): 4 or 8. */
static inline unsigned int col_rb_header_len(unsigned int data)
{
	return data > COL_RB_REC_MAX_SMALL ? 8 : 4;
}

static inline void col_rb_put32(unsigned char *dst, uint32_t v)
{
	memcpy(dst, &v, 4);
}

/**
 * col_rb_put_header() - the time extend (when needed) and entry header of
 * a record at @dst
 * @dst: where they go; col_rb_extend_len() + col_rb_header_len() bytes
 * @delta: time since the previous entry of the page (0 for the first)
 * @data: the record's bytes, a multiple of 4
 *
 * Return: the bytes written; the record follows them.
 */
static inline unsigned int col_rb_put_header(unsigned char *dst, uint64_t delta,
					     unsigned int data)
{
	unsigned int at = 0;

	if (col_rb_extend_len(delta)) {
		col_rb_put32(dst, COL_RB_TIME_EXTEND |
			     (uint32_t)((delta & ((1u << COL_RB_DELTA_BITS) - 1)) << 5));
		col_rb_put32(dst + 4, (uint32_t)(delta >> COL_RB_DELTA_BITS));
		delta = 0;
		at = 8;
	}
	if (data > COL_RB_REC_MAX_SMALL) {
		col_rb_put32(dst + at, (uint32_t)(delta << 5));	/* type_len 0: length follows */
		col_rb_put32(dst + at + 4, data + 4);
		return at + 8;
	}
	col_rb_put32(dst + at, data / 4 | (uint32_t)(delta << 5));
	return at + 4;
}

#endif /* UCVAL_COLLECT_RBEVENT_H */
