// SPDX-License-Identifier: MIT
/*
 * reports/xml.c - XML 1.0 escaping (§2.2 characters, §2.4 markup). Trace
 * paths and comms are bytes, not text: control characters XML forbids and
 * bytes that are not UTF-8 become U+FFFD instead of breaking the document.
 */
#include <stdbool.h>
#include <stddef.h>

#include "reports/xml.h"

/* The replacement character, written where a byte cannot be kept. */
#define REPLACEMENT	"\xef\xbf\xbd"

/*
 * Length of the valid UTF-8 sequence at @p (2 to 4), or 0 when it is not one
 * (bad lead or continuation byte, overlong form, surrogate, above U+10FFFF).
 */
static size_t utf8_len(const unsigned char *p)
{
	unsigned int cp;
	size_t n;

	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2, cp = p[0] & 0x1f;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3, cp = p[0] & 0x0f;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4, cp = p[0] & 0x07;
	else
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) || cp > 0x10ffff ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

static bool is_xml_char(unsigned char c)
{
	return c >= 0x20 || c == '\t' || c == '\n' || c == '\r';
}

/**
 * rep_xml_text() - write @s escaped for element content and attribute values
 * @out: the stream
 * @s: the text; NULL writes nothing
 */
void rep_xml_text(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (p && *p) {
		size_t n;

		switch (*p) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&#39;", out); break;
		default:
			if (*p < 0x80) {
				if (is_xml_char(*p))
					fputc(*p, out);
				else
					fputs(REPLACEMENT, out);
				break;
			}
			n = utf8_len(p);
			if (!n) {
				fputs(REPLACEMENT, out);
				break;
			}
			fwrite(p, 1, n, out);
			p += n;
			continue;
		}
		p++;
	}
}
