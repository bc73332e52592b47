// SPDX-License-Identifier: MIT
/*
 * reports/json.c - JSON string escaping (RFC 8259 §7). Trace paths and comms
 * may hold any byte: control characters are escaped, other bytes pass as
 * they are (the caller's text is taken as UTF-8).
 */
#include "reports/json.h"

/**
 * rep_json_string() - write @s as a JSON string, quotes included
 * @out: the stream
 * @s: the text; NULL is written as null
 */
void rep_json_string(FILE *out, const char *s)
{
	if (!s) {
		fputs("null", out);
		return;
	}
	fputc('"', out);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"':
			fputs("\\\"", out);
			break;
		case '\\':
			fputs("\\\\", out);
			break;
		case '\n':
			fputs("\\n", out);
			break;
		case '\t':
			fputs("\\t", out);
			break;
		case '\r':
			fputs("\\r", out);
			break;
		default:
			if (*p < 0x20)
				fprintf(out, "\\u%04x", *p);
			else
				fputc(*p, out);
		}
	}
	fputc('"', out);
}
