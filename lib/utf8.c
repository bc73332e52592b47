// SPDX-License-Identifier: MIT
/*
 * lib/utf8.c - UTF-8 decoding (RFC 3629, Unicode §3.9 Table 3-7) and the
 * terminal escaping of lib/utf8.h.
 */
#include <string.h>

#include "lib/utf8.h"

/* Smallest code point of a sequence of 2, 3 and 4 bytes (shorter is overlong). */
static const uint32_t min_cp[5] = { 0, 0, 0x80, 0x800, 0x10000 };

size_t an_utf8_decode(const char *s, uint32_t *cp)
{
	const unsigned char *p = (const unsigned char *)s;
	uint32_t v;
	size_t n;

	if (p[0] < 0x80) {
		n = p[0] != 0;
		v = p[0];
	} else if (p[0] >= 0xc2 && p[0] <= 0xdf) {
		n = 2, v = p[0] & 0x1f;
	} else if (p[0] >= 0xe0 && p[0] <= 0xef) {
		n = 3, v = p[0] & 0x0f;
	} else if (p[0] >= 0xf0 && p[0] <= 0xf4) {
		n = 4, v = p[0] & 0x07;
	} else {
		return 0;
	}
	/* a NUL is not a continuation byte: the loop stops at the string's end */
	for (size_t i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		v = v << 6 | (p[i] & 0x3f);
	}
	if (n > 1 && (v < min_cp[n] || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff)))
		return 0;
	if (cp)
		*cp = v;
	return n;
}

bool an_utf8_is_control(uint32_t cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f);
}

size_t an_utf8_escape_unit(const char *s, unsigned int flags, char unit[AN_UTF8_UNIT_MAX])
{
	static const char hex[] = "0123456789abcdef";
	unsigned char byte = (unsigned char)s[0];
	uint32_t cp = 0;
	size_t n = an_utf8_decode(s, &cp);

	if (!n) {
		snprintf(unit, AN_UTF8_UNIT_MAX, "\\x%c%c", hex[byte >> 4], hex[byte & 0xf]);
		return 1;
	}
	if (cp == '\\' || (an_utf8_is_control(cp) && !(cp == '\n' && (flags & AN_UTF8_KEEP_NL)))) {
		switch (cp) {
		case '\\': strcpy(unit, "\\\\"); break;
		case '\t': strcpy(unit, "\\t"); break;
		case '\n': strcpy(unit, "\\n"); break;
		case '\r': strcpy(unit, "\\r"); break;
		default:
			snprintf(unit, AN_UTF8_UNIT_MAX, "\\%s%c%c", cp < 0x80 ? "x" : "u00",
				 hex[cp >> 4], hex[cp & 0xf]);
		}
		return n;
	}
	memcpy(unit, s, n);
	unit[n] = '\0';
	return n;
}

size_t an_utf8_escape(char *buf, size_t size, const char *s, unsigned int flags)
{
	char unit[AN_UTF8_UNIT_MAX];
	size_t len = 0;
	bool is_cut = false;

	if (size)
		buf[0] = '\0';
	for (const char *p = s ? s : ""; *p;) {
		size_t n;

		p += an_utf8_escape_unit(p, flags, unit);
		n = strlen(unit);
		if (!is_cut && len + n < size)
			memcpy(buf + len, unit, n + 1);
		else
			is_cut = true;
		len += n;
	}
	return len;
}

void an_utf8_fputs(FILE *out, const char *s, unsigned int flags)
{
	char unit[AN_UTF8_UNIT_MAX];

	for (const char *p = s ? s : ""; *p;) {
		p += an_utf8_escape_unit(p, flags, unit);
		fputs(unit, out);
	}
}
