/* SPDX-License-Identifier: MIT */
/*
 * lib/json.h - the few JSON writing helpers ucval needs (no parser, no
 * tree): strings escaped per RFC 8259, and a writer that puts members in the
 * order they are written (a stable key order), indented, with small objects
 * (one window, one verdict) on one line each. A line may be broken at a
 * chosen member of a one-line container, and a document may be written in
 * parts (a value written apart, by another process, and copied in whole).
 *
 * Strings are bytes (a comm or a path may hold any byte but NUL), JSON text
 * is UTF-8 (RFC 8259 §8.1). Valid UTF-8 is written unchanged; each byte
 * that is not part of a valid sequence (overlong forms, surrogates ED A0..BF,
 * sequences cut short, 0xf5..0xff, stray continuation bytes) becomes
 * U+FFFD, one per byte, as Go's encoding/json does. That loses the byte's
 * value, but every strict parser reads the document; the lossless
 * alternatives are not JSON (raw bytes) or not valid Unicode (lone
 * surrogates, Python's surrogateescape, which strict parsers refuse), and
 * \u00HH would claim the byte was the character U+00HH. The database keeps
 * the bytes as they were. Control characters (C0, DEL, C1) are escaped as
 * \n, \t, \r or \u00HH, so no string carries a raw control character.
 */
#ifndef UCVAL_LIB_JSON_H
#define UCVAL_LIB_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* Deepest nesting the writer indents (ucval's documents use 5 levels). */
#define REP_JSON_MAX_DEPTH	16

/**
 * struct rep_json - a JSON document being written, members in call order
 * @out: the stream
 * @depth: open containers
 * @nr_items: members written in each open container
 * @is_arr: whether each open container is an array
 * @inline_from: depth of the outermost container written on one line, 0 none
 * @base: depth of the value written (0 a whole document, more for a part)
 * @break_col: column the next member starts at on a new line, -1 none
 */
struct rep_json {
	FILE *out;
	int depth;
	unsigned long nr_items[REP_JSON_MAX_DEPTH + 1];
	bool is_arr[REP_JSON_MAX_DEPTH + 1];
	int inline_from;
	int base;
	int break_col;
};

/**
 * rep_json_string() - write @s as a JSON string, quotes included
 * @out: the stream
 * @s: the text, any bytes; NULL is written as null
 */
void rep_json_string(FILE *out, const char *s);
void rep_json_init(struct rep_json *j, FILE *out);
void rep_json_init_part(struct rep_json *j, FILE *out, int depth);
void rep_json_obj(struct rep_json *j, const char *key, bool is_inline);
void rep_json_arr(struct rep_json *j, const char *key, bool is_inline);
void rep_json_end(struct rep_json *j);
void rep_json_str(struct rep_json *j, const char *key, const char *s);
void rep_json_int(struct rep_json *j, const char *key, int64_t v);
void rep_json_uint(struct rep_json *j, const char *key, uint64_t v);
void rep_json_real(struct rep_json *j, const char *key, double v);
void rep_json_null(struct rep_json *j, const char *key);
void rep_json_bool(struct rep_json *j, const char *key, bool v);
void rep_json_raw(struct rep_json *j, const char *key);
void rep_json_break(struct rep_json *j, int col);

#endif /* UCVAL_LIB_JSON_H */
