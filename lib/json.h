/* SPDX-License-Identifier: MIT */
/*
 * lib/json.h - the few JSON writing helpers ucval needs (no parser, no
 * tree): strings escaped per RFC 8259, and a writer that puts members in the
 * order they are written (a stable key order), indented, with small objects
 * (one window, one verdict) on one line each.
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
 */
struct rep_json {
	FILE *out;
	int depth;
	unsigned long nr_items[REP_JSON_MAX_DEPTH + 1];
	bool is_arr[REP_JSON_MAX_DEPTH + 1];
	int inline_from;
};

void rep_json_string(FILE *out, const char *s);
void rep_json_init(struct rep_json *j, FILE *out);
void rep_json_obj(struct rep_json *j, const char *key, bool is_inline);
void rep_json_arr(struct rep_json *j, const char *key, bool is_inline);
void rep_json_end(struct rep_json *j);
void rep_json_str(struct rep_json *j, const char *key, const char *s);
void rep_json_int(struct rep_json *j, const char *key, int64_t v);
void rep_json_real(struct rep_json *j, const char *key, double v);
void rep_json_null(struct rep_json *j, const char *key);
void rep_json_bool(struct rep_json *j, const char *key, bool v);

#endif /* UCVAL_LIB_JSON_H */
