// SPDX-License-Identifier: MIT
/*
 * lib/utf8.c and lib/diag.c: UTF-8 decoding (RFC 3629), names escaped for a
 * terminal (control characters, bytes that are not UTF-8), an escaped text
 * cut to a buffer, and diagnostics that quote a path or a trace line.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/diag.h"
#include "lib/utf8.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

struct decode_case {
	const char *what;
	const char *in;
	size_t len;			/* 0: not valid UTF-8 */
	uint32_t cp;
};

static const struct decode_case decode_cases[] = {
	{ "ASCII", "a", 1, 'a' },
	{ "ESC is valid UTF-8", "\x1b", 1, 0x1b },
	{ "2 bytes", "\xc3\xa9", 2, 0xe9 },
	{ "lowest of 2", "\xc2\x80", 2, 0x80 },
	{ "3 bytes", "\xe2\x82\xac", 3, 0x20ac },
	{ "lowest of 3", "\xe0\xa0\x80", 3, 0x800 },
	{ "last before the surrogates", "\xed\x9f\xbf", 3, 0xd7ff },
	{ "first after the surrogates", "\xee\x80\x80", 3, 0xe000 },
	{ "4 bytes", "\xf0\x9f\x98\x80", 4, 0x1f600 },
	{ "highest", "\xf4\x8f\xbf\xbf", 4, 0x10ffff },
	{ "NUL", "", 0, 0 },
	{ "continuation byte", "\x80", 0, 0 },
	{ "0xc0 overlong", "\xc0\x80", 0, 0 },
	{ "0xc1 overlong", "\xc1\xbf", 0, 0 },
	{ "overlong of 3", "\xe0\x9f\xbf", 0, 0 },
	{ "overlong of 4", "\xf0\x8f\xbf\xbf", 0, 0 },
	{ "surrogate first", "\xed\xa0\x80", 0, 0 },
	{ "surrogate last", "\xed\xbf\xbf", 0, 0 },
	{ "above U+10FFFF", "\xf4\x90\x80\x80", 0, 0 },
	{ "0xf5", "\xf5\x80\x80\x80", 0, 0 },
	{ "0xff", "\xff", 0, 0 },
	{ "cut by the end", "\xe2\x82", 0, 0 },
	{ "cut by ASCII", "\xe2\x82z", 0, 0 },
};

static void test_decode(void **state)
{
	size_t nr_bad = 0;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(decode_cases); i++) {
		const struct decode_case *c = &decode_cases[i];
		uint32_t cp = 0;
		size_t len = an_utf8_decode(c->in, &cp);

		if (len != c->len || (len && cp != c->cp)) {
			print_error("case %zu (%s): length %zu U+%04X, want %zu U+%04X\n", i,
				    c->what, len, (unsigned int)cp, c->len, (unsigned int)c->cp);
			nr_bad++;
		}
	}
	if (nr_bad)
		fail_msg("%zu of %zu cases failed", nr_bad, ARRAY_SIZE(decode_cases));
}

struct escape_case {
	const char *what;
	const char *in;
	unsigned int flags;
	size_t size;			/* buffer size; 0: large enough */
	const char *want;
	size_t want_len;		/* of the whole escaped text */
};

static const struct escape_case escape_cases[] = {
	{ "plain", "kworker/0:1", 0, 0, "kworker/0:1", 11 },
	{ "UTF-8 kept", "caf\xc3\xa9 \xf0\x9f\x98\x80", 0, 0, "caf\xc3\xa9 \xf0\x9f\x98\x80", 10 },
	{ "clear screen", "\x1b[2J", 0, 0, "\\x1b[2J", 7 },
	{ "window title", "\x1b]0;x\x07", 0, 0, "\\x1b]0;x\\x07", 12 },
	{ "tab newline return", "\t\n\r", 0, 0, "\\t\\n\\r", 6 },
	{ "newline kept", "a\nb\tc", AN_UTF8_KEEP_NL, 0, "a\nb\\tc", 6 },
	{ "DEL", "\x7f", 0, 0, "\\x7f", 4 },
	{ "C1 as a character", "\xc2\x9b\xc2\x80", 0, 0, "\\u009b\\u0080", 12 },
	{ "U+00A0 kept", "\xc2\xa0", 0, 0, "\xc2\xa0", 2 },
	{ "a C1 byte alone", "\x9b", 0, 0, "\\x9b", 4 },
	{ "0xff", "a\xff", 0, 0, "a\\xff", 5 },
	{ "overlong", "\xc0\xaf", 0, 0, "\\xc0\\xaf", 8 },
	{ "surrogate", "\xed\xa0\x80", 0, 0, "\\xed\\xa0\\x80", 12 },
	{ "cut sequence", "\xe2\x82" "a", 0, 0, "\\xe2\\x82a", 9 },
	{ "backslash", "\\x1b", 0, 0, "\\\\x1b", 5 },
	{ "NULL", NULL, 0, 0, "", 0 },
	{ "cut before an escape", "ab\x1b", 0, 5, "ab", 6 },
	{ "cut before a character", "a\xc3\xa9", 0, 3, "a", 3 },
	{ "exactly fits", "a\xc3\xa9", 0, 4, "a\xc3\xa9", 3 },
	{ "nothing fits", "\x1b", 0, 1, "", 4 },
};

static void test_escape(void **state)
{
	size_t nr_bad = 0;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(escape_cases); i++) {
		const struct escape_case *c = &escape_cases[i];
		char buf[64];
		size_t size = c->size ? c->size : sizeof(buf);
		size_t len;
		char *streamed = NULL;
		size_t streamed_len = 0;
		FILE *f = open_memstream(&streamed, &streamed_len);

		memset(buf, 'X', sizeof(buf));
		len = an_utf8_escape(buf, size, c->in, c->flags);
		if (len != c->want_len || strcmp(buf, c->want)) {
			print_error("case %zu (%s): got '%s' (%zu), want '%s' (%zu)\n", i, c->what,
				    buf, len, c->want, c->want_len);
			nr_bad++;
		}
		assert_non_null(f);
		an_utf8_fputs(f, c->in, c->flags);
		fclose(f);
		if (!c->size && strcmp(streamed, c->want)) {
			print_error("case %zu (%s): an_utf8_fputs() wrote '%s'\n", i, c->what,
				    streamed);
			nr_bad++;
		}
		free(streamed);
	}
	if (nr_bad)
		fail_msg("%zu failures in %zu cases", nr_bad, ARRAY_SIZE(escape_cases));
}

struct diag_case {
	const char *what;
	const char *file;
	unsigned long long line;
	const char *event;
	const char *message;
	size_t size;			/* buffer size; 0: large enough */
	const char *want;
};

static const struct diag_case diag_cases[] = {
	{ "plain", "a.txt", 3, "", "not an ftrace line: 'x'", 0,
	  "cannot read 'a.txt': line 3: not an ftrace line: 'x'" },
	{ "file name with ESC and 0xff", "t-\x1b[2J\xff.txt", 0, "", "No such file", 0,
	  "cannot read 't-\\x1b[2J\\xff.txt': No such file" },
	{ "skipped line with OSC 0", "a.txt", 7, "", "not an ftrace line: '\x1b]0;pwned\x07'", 0,
	  "cannot read 'a.txt': line 7: not an ftrace line: '\\x1b]0;pwned\\x07'" },
	{ "event name", "a.txt", 2, "ev\x1b", "missing field", 0,
	  "cannot read 'a.txt': line 2: ev\\x1b: missing field" },
	{ "UTF-8 kept", "caf\xc3\xa9.txt", 0, "", "empty file", 0,
	  "cannot read 'caf\xc3\xa9.txt': empty file" },
	{ "cut inside a character", "\xc3\xa9\xc3\xa9", 0, "", "empty file", 16,
	  "cannot read '\xc3\xa9" },
	{ "cut inside an escape", "\x1b\x1b", 0, "", "empty file", 18,
	  "cannot read '\\x1b" },
};

/* Diagnostics quote paths and lines escaped, and stay UTF-8 when cut. */
static void test_diag(void **state)
{
	size_t nr_bad = 0;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(diag_cases); i++) {
		const struct diag_case *c = &diag_cases[i];
		char buf[256], full[256];
		struct an_diag d;
		int len;

		an_diag_clear(&d);
		an_diag_set_file(&d, "read", c->file);
		d.line = c->line;
		an_diag_set_name(d.event, c->event, strlen(c->event));
		an_diag_fail(&d, AN_E_SYNTAX, "%s", c->message);
		len = an_diag_format(&d, buf, c->size ? c->size : sizeof(buf));
		if (strcmp(buf, c->want)) {
			print_error("case %zu (%s): got '%s' want '%s'\n", i, c->what, buf,
				    c->want);
			nr_bad++;
		}
		/* the length is the whole line's, as snprintf() says it */
		assert_int_equal(len, an_diag_format(&d, full, sizeof(full)));
		assert_int_equal((size_t)len, strlen(full));
	}
	if (nr_bad)
		fail_msg("%zu of %zu cases failed", nr_bad, ARRAY_SIZE(diag_cases));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decode),
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_diag),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
