// SPDX-License-Identifier: MIT
/*
 * lib/json.c: the writer's layouts (indented, one line, a line broken at
 * chosen members), numbers, escaping, a document written in parts, and
 * strings of any bytes written as valid UTF-8 without control characters.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/json.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static void indented(struct rep_json *j)
{
	rep_json_obj(j, NULL, false);
	rep_json_str(j, "a", "x\"y\n");
	rep_json_arr(j, "b", false);
	rep_json_int(j, NULL, -3);
	rep_json_null(j, NULL);
	rep_json_end(j);
	rep_json_arr(j, "empty", false);
	rep_json_end(j);
	rep_json_end(j);
}

static void one_line(struct rep_json *j)
{
	rep_json_obj(j, NULL, false);
	rep_json_obj(j, "w", true);
	rep_json_uint(j, "u", UINT64_MAX);
	rep_json_bool(j, "t", true);
	rep_json_real(j, "r", 0.5);
	rep_json_str(j, "n", NULL);
	rep_json_end(j);
	rep_json_end(j);
}

/* A one-line object whose array starts a line, and each of its elements. */
static void broken(struct rep_json *j)
{
	rep_json_obj(j, NULL, true);
	rep_json_int(j, "a", 1);
	rep_json_break(j, 1);
	rep_json_arr(j, "l", true);
	for (int i = 0; i < 2; i++) {
		rep_json_break(j, 2);
		rep_json_obj(j, NULL, true);
		rep_json_int(j, "i", i);
		rep_json_int(j, "k", 7);
		rep_json_end(j);
	}
	rep_json_end(j);
	rep_json_int(j, "z", 2);
	rep_json_end(j);
}

/* A part written at depth 2, as an element of the document's array. */
static void part(struct rep_json *j)
{
	rep_json_obj(j, NULL, false);
	rep_json_int(j, "p", 1);
	rep_json_end(j);
}

static const struct json_case {
	const char *what;
	void (*write)(struct rep_json *j);
	int depth;			/* rep_json_init_part()'s, 0 a document */
	const char *want;
} cases[] = {
	{ "indented", indented, 0,
	  "{\n  \"a\": \"x\\\"y\\n\",\n  \"b\": [\n    -3,\n    null\n  ],\n  \"empty\": []\n}\n" },
	{ "one line", one_line, 0,
	  "{\n  \"w\": {\"u\": 18446744073709551615, \"t\": true, \"r\": 0.500000, \"n\": null}\n}\n" },
	{ "broken line", broken, 0,
	  "{\"a\": 1,\n \"l\": [\n  {\"i\": 0, \"k\": 7},\n  {\"i\": 1, \"k\": 7}], \"z\": 2}\n" },
	{ "part", part, 2, "{\n      \"p\": 1\n    }" },
};

static char *write_case(const struct json_case *c)
{
	struct rep_json j;
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	assert_non_null(out);
	rep_json_init_part(&j, out, c->depth);
	c->write(&j);
	fclose(out);
	return buf;
}

static void test_layouts(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char *got = write_case(&cases[i]);

		if (strcmp(got, cases[i].want))
			fail_msg("case %zu (%s): got\n%s\nwant\n%s", i, cases[i].what, got,
				 cases[i].want);
		free(got);
	}
}

/* A document holding parts written apart: as if written in one go. */
static void test_parts(void **state)
{
	static const struct json_case elem = { "part", part, 2, NULL };
	struct rep_json j;
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(out);
	rep_json_init(&j, out);
	rep_json_obj(&j, NULL, false);
	rep_json_arr(&j, "l", false);
	for (int i = 0; i < 2; i++) {
		char *p = write_case(&elem);

		rep_json_raw(&j, NULL);
		fputs(p, out);
		free(p);
	}
	rep_json_end(&j);
	rep_json_end(&j);
	fclose(out);
	assert_string_equal(buf, "{\n  \"l\": [\n    {\n      \"p\": 1\n    },\n"
			    "    {\n      \"p\": 1\n    }\n  ]\n}\n");
	free(buf);
}

/* U+FFFD in UTF-8, as the writer puts it for a byte that is not UTF-8. */
#define FFFD	"\xef\xbf\xbd"

struct string_case {
	const char *what;
	const char *in;			/* a comm or a path, any bytes */
	const char *want;		/* the JSON string, quotes included */
};

static const struct string_case string_cases[] = {
	{ "ascii", "sh", "\"sh\"" },
	{ "quote and backslash", "a\"b\\c", "\"a\\\"b\\\\c\"" },
	{ "2, 3 and 4 byte UTF-8 kept", "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80",
	  "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"" },
	{ "highest code point kept", "\xf4\x8f\xbf\xbf", "\"\xf4\x8f\xbf\xbf\"" },
	{ "U+FFFE is valid JSON", "\xef\xbf\xbe", "\"\xef\xbf\xbe\"" },
	{ "comm of byte 0xff", "app\xff", "\"app" FFFD "\"" },
	{ "stray continuation byte", "a\x80z", "\"a" FFFD "z\"" },
	{ "0xc0 0xc1 0xf5 never UTF-8", "\xc1\xbf\xf5", "\"" FFFD FFFD FFFD "\"" },
	{ "overlong '/'", "\xc0\xaf", "\"" FFFD FFFD "\"" },
	{ "overlong 3 bytes", "\xe0\x80\xaf", "\"" FFFD FFFD FFFD "\"" },
	{ "overlong 4 bytes", "\xf0\x8f\xbf\xbf", "\"" FFFD FFFD FFFD FFFD "\"" },
	{ "surrogate ED A0 80", "\xed\xa0\x80", "\"" FFFD FFFD FFFD "\"" },
	{ "surrogate ED BF BF", "\xed\xbf\xbf", "\"" FFFD FFFD FFFD "\"" },
	{ "above U+10FFFF", "\xf4\x90\x80\x80", "\"" FFFD FFFD FFFD FFFD "\"" },
	{ "cut at the end", "a\xe2\x82", "\"a" FFFD FFFD "\"" },
	{ "cut by ASCII", "\xf0\x9f\x98z", "\"" FFFD FFFD FFFD "z\"" },
	{ "C0 escaped", "\x1b[2J\x07\x01", "\"\\u001b[2J\\u0007\\u0001\"" },
	{ "newline tab return", "a\nb\tc\rd", "\"a\\nb\\tc\\rd\"" },
	{ "DEL escaped", "a\x7f", "\"a\\u007f\"" },
	{ "C1 CSI escaped", "\xc2\x9b" "2J\xc2\x80\xc2\x9f", "\"\\u009b2J\\u0080\\u009f\"" },
	{ "U+00A0 kept", "\xc2\xa0", "\"\xc2\xa0\"" },
};

/* Any bytes in, valid UTF-8 out: bad bytes become U+FFFD, controls escapes. */
static void test_strings(void **state)
{
	size_t nr_bad = 0;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(string_cases); i++) {
		const struct string_case *c = &string_cases[i];
		char *buf = NULL;
		size_t len = 0;
		FILE *out = open_memstream(&buf, &len);

		assert_non_null(out);
		rep_json_string(out, c->in);
		fclose(out);
		if (strcmp(buf, c->want)) {
			print_error("case %zu (%s): got %s want %s\n", i, c->what, buf, c->want);
			nr_bad++;
		}
		free(buf);
	}
	if (nr_bad)
		fail_msg("%zu of %zu cases failed", nr_bad, ARRAY_SIZE(string_cases));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layouts),
		cmocka_unit_test(test_parts),
		cmocka_unit_test(test_strings),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
