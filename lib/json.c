// SPDX-License-Identifier: MIT
/*
 * lib/json.c - JSON string escaping (RFC 8259 §7, §8.1) and the writer of
 * lib/json.h. Trace paths and comms may hold any byte: see rep_json_string()
 * for what a string becomes.
 */
#include "lib/json.h"
#include "lib/utf8.h"

/* U+FFFD REPLACEMENT CHARACTER, in UTF-8. */
#define REPLACEMENT	"\xef\xbf\xbd"

/* One character of a string: valid UTF-8 in, valid JSON text out. */
static size_t put_char(FILE *out, const char *s)
{
	unsigned char c = (unsigned char)*s;
	uint32_t cp;
	size_t n;

	if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
		putc(c, out);
		return 1;
	}
	n = an_utf8_decode(s, &cp);
	if (!n) {
		fputs(REPLACEMENT, out);
		return 1;
	}
	switch (cp) {
	case '"': fputs("\\\"", out); break;
	case '\\': fputs("\\\\", out); break;
	case '\n': fputs("\\n", out); break;
	case '\t': fputs("\\t", out); break;
	case '\r': fputs("\\r", out); break;
	default:
		if (an_utf8_is_control(cp))
			fprintf(out, "\\u%04x", (unsigned int)cp);
		else
			fwrite(s, 1, n, out);
	}
	return n;
}

/**
 * rep_json_string() - write @s as a JSON string, quotes included
 * @out: the stream
 * @s: the text; NULL is written as null
 *
 * The string written is always valid UTF-8 (RFC 8259 §8.1): each byte of
 * @s that is not part of a valid UTF-8 sequence becomes U+FFFD. Control
 * characters (C0, DEL, C1) are written as escapes, quote and backslash too.
 */
void rep_json_string(FILE *out, const char *s)
{
	if (!s) {
		fputs("null", out);
		return;
	}
	fputc('"', out);
	for (const char *p = s; *p;)
		p += put_char(out, p);
	fputc('"', out);
}

/* Digits after the point of real numbers: shares to a millionth. */
#define REAL_DIGITS	6
/* Spaces per indentation level. */
#define INDENT		2

/**
 * rep_json_init() - start a document on @out
 * @j: the writer
 * @out: the stream
 */
void rep_json_init(struct rep_json *j, FILE *out)
{
	rep_json_init_part(j, out, 0);
}

/**
 * rep_json_init_part() - start one value of a document written elsewhere
 * @j: the writer
 * @out: the stream
 * @depth: containers the document has open where the value goes (1 for a
 *	   member of the top object); nested lines are indented for it
 *
 * The value is written without what surrounds it in the document: no
 * separator or line break before it, no '\n' after it. The document's own
 * writer places it with rep_json_raw(). Depth 0 is rep_json_init().
 */
void rep_json_init_part(struct rep_json *j, FILE *out, int depth)
{
	*j = (struct rep_json){ .out = out, .depth = depth, .base = depth, .break_col = -1 };
}

/* Separator, line break and key before the next member of the open container. */
static void member(struct rep_json *j, const char *key)
{
	int d = j->depth <= REP_JSON_MAX_DEPTH ? j->depth : REP_JSON_MAX_DEPTH;

	if (j->nr_items[d]++)
		fputc(',', j->out);
	if (j->break_col >= 0)
		fprintf(j->out, "\n%*s", j->break_col, "");
	else if (j->inline_from && j->depth >= j->inline_from)
		fputs(j->nr_items[d] > 1 ? " " : "", j->out);
	else if (j->depth > j->base)
		fprintf(j->out, "\n%*s", j->depth * INDENT, "");
	j->break_col = -1;
	if (key) {
		rep_json_string(j->out, key);
		fputs(": ", j->out);
	}
}

static void open_container(struct rep_json *j, const char *key, bool is_inline, char bracket)
{
	member(j, key);
	fputc(bracket, j->out);
	j->depth++;
	if (j->depth <= REP_JSON_MAX_DEPTH) {
		j->nr_items[j->depth] = 0;
		j->is_arr[j->depth] = bracket == '[';
	}
	if (is_inline && !j->inline_from)
		j->inline_from = j->depth;
}

/**
 * rep_json_obj() - open an object
 * @j: the writer
 * @key: its key in the enclosing object, NULL in an array or at the top
 * @is_inline: write it and all it holds on one line
 */
void rep_json_obj(struct rep_json *j, const char *key, bool is_inline)
{
	open_container(j, key, is_inline, '{');
}

/**
 * rep_json_arr() - open an array
 * @j: the writer
 * @key: its key in the enclosing object, NULL in an array or at the top
 * @is_inline: write it and all it holds on one line
 */
void rep_json_arr(struct rep_json *j, const char *key, bool is_inline)
{
	open_container(j, key, is_inline, '[');
}

/**
 * rep_json_end() - close the innermost object or array
 * @j: the writer; closing the top container ends the document with '\n'
 */
void rep_json_end(struct rep_json *j)
{
	static const char close[2] = { '}', ']' };
	int d = j->depth <= REP_JSON_MAX_DEPTH ? j->depth : REP_JSON_MAX_DEPTH;
	bool is_inline = j->inline_from && j->depth >= j->inline_from;
	bool is_arr = j->is_arr[d];

	if (!is_inline && j->nr_items[d])
		fprintf(j->out, "\n%*s", (j->depth - 1) * INDENT, "");
	fputc(close[is_arr], j->out);
	if (j->inline_from == j->depth)
		j->inline_from = 0;
	j->depth--;
	if (!j->depth)
		fputc('\n', j->out);
}

/**
 * rep_json_str() - a string member (null when @s is NULL)
 * @j: the writer
 * @key: its key, NULL in an array
 * @s: the value
 */
void rep_json_str(struct rep_json *j, const char *key, const char *s)
{
	member(j, key);
	rep_json_string(j->out, s);
}

/**
 * rep_json_int() - an integer member
 * @j: the writer
 * @key: its key, NULL in an array
 * @v: the value
 */
void rep_json_int(struct rep_json *j, const char *key, int64_t v)
{
	member(j, key);
	fprintf(j->out, "%lld", (long long)v);
}

/**
 * rep_json_uint() - an unsigned integer member (counts, timestamps)
 * @j: the writer
 * @key: its key, NULL in an array
 * @v: the value
 */
void rep_json_uint(struct rep_json *j, const char *key, uint64_t v)
{
	member(j, key);
	fprintf(j->out, "%llu", (unsigned long long)v);
}

/**
 * rep_json_real() - a number member with REAL_DIGITS decimals
 * @j: the writer
 * @key: its key, NULL in an array
 * @v: the value; NaN and infinities are written as null
 */
void rep_json_real(struct rep_json *j, const char *key, double v)
{
	member(j, key);
	if (v != v || v > 1e300 || v < -1e300)
		fputs("null", j->out);
	else
		fprintf(j->out, "%.*f", REAL_DIGITS, v);
}

/**
 * rep_json_null() - a null member
 * @j: the writer
 * @key: its key, NULL in an array
 */
void rep_json_null(struct rep_json *j, const char *key)
{
	member(j, key);
	fputs("null", j->out);
}

/**
 * rep_json_bool() - a true/false member
 * @j: the writer
 * @key: its key, NULL in an array
 * @v: the value
 */
void rep_json_bool(struct rep_json *j, const char *key, bool v)
{
	member(j, key);
	fputs(v ? "true" : "false", j->out);
}

/**
 * rep_json_raw() - a member whose value the caller writes itself
 * @j: the writer
 * @key: its key, NULL in an array
 *
 * Writes the separator, line break and key; the caller then writes one
 * complete JSON value to @j->out (a part rep_json_init_part() wrote at this
 * depth, copied in).
 */
void rep_json_raw(struct rep_json *j, const char *key)
{
	member(j, key);
}

/**
 * rep_json_break() - start the next member on a new line
 * @j: the writer
 * @col: the column it starts at (spaces before it)
 *
 * For a container written on one line that still shows its larger members
 * one per line; the members after the next one follow on its line.
 */
void rep_json_break(struct rep_json *j, int col)
{
	j->break_col = col;
}
