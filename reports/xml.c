// SPDX-License-Identifier: MIT
/*
 * reports/xml.c - XML 1.0 escaping (§2.2 characters, §2.4 markup). Trace
 * paths and comms are bytes, not text: bytes that are not UTF-8, characters
 * XML 1.0 forbids (C0 controls but tab, newline and carriage return;
 * U+FFFE, U+FFFF) and those it discourages and HTML rejects (DEL, the C1
 * controls, the other noncharacters) become U+FFFD instead of breaking the
 * document.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/utf8.h"
#include "reports/xml.h"

/* The replacement character, written where a byte cannot be kept. */
#define REPLACEMENT	"\xef\xbf\xbd"

/* XML 1.0 Char, less the discouraged controls and noncharacters (§2.2). */
static bool is_xml_char(uint32_t cp)
{
	if (cp == '\t' || cp == '\n' || cp == '\r')
		return true;
	if (an_utf8_is_control(cp))
		return false;
	/* noncharacters: U+FDD0..U+FDEF and the last two of every plane */
	return !(cp >= 0xfdd0 && cp <= 0xfdef) && (cp & 0xfffe) != 0xfffe;
}

/**
 * rep_xml_text() - write @s escaped for element content and attribute values
 * @out: the stream
 * @s: the text; NULL writes nothing
 */
void rep_xml_text(FILE *out, const char *s)
{
	const char *p = s;

	while (p && *p) {
		uint32_t cp;
		size_t n;

		switch (*p) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&#39;", out); break;
		default:
			n = an_utf8_decode(p, &cp);
			if (!n || !is_xml_char(cp)) {
				fputs(REPLACEMENT, out);
				p += n ? n : 1;
				continue;
			}
			fwrite(p, 1, n, out);
			p += n;
			continue;
		}
		p++;
	}
}
