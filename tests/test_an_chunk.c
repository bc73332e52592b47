// SPDX-License-Identifier: MIT
/*
 * analyze/store/chunk.c: the text of a chunk of intervals (schema 3). What the
 * writer makes the reader gives back exactly (extremes, nulls); text that
 * is not an array of intervals of the expected length is refused with the
 * byte where it went wrong, never read past its end.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/store/chunk.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Write @nr intervals of @n numbers, read them back: the same numbers and nulls. */
static void test_round_trip(void **state)
{
	static const long long nums[] = {
		0, 1, -1, 9, 10, 99, 100, 101, 999, 1000, 123456789, -987654321,
		4294967295LL, 1000000000000000000LL, LLONG_MAX, LLONG_MIN, LLONG_MIN + 1,
	};
	char text[1 + 64 * AN_CHUNK_REC_TEXT + 1];

	(void)state;
	for (unsigned int n = 1; n <= AN_CHUNK_MAX_NUMS; n++) {
		struct an_chunk_reader c;
		size_t at = 0;
		unsigned int k = 0;
		long long got[AN_CHUNK_MAX_NUMS];
		unsigned int has;
		int ret;

		text[at++] = '[';
		for (unsigned int i = 0; i < 64; i++) {
			long long v[AN_CHUNK_MAX_NUMS];

			for (unsigned int j = 0; j < n; j++)
				v[j] = nums[(i * 7 + j) % ARRAY_SIZE(nums)];
			at += an_chunk_put(text + at, !i, v, ~(i % 5 ? 0u : 1u << (i % n)), n);
			assert_true(at < sizeof(text) - 1);
		}
		text[at++] = ']';
		an_chunk_begin(&c, text, at);
		while ((ret = an_chunk_next(&c, got, &has, n)) == 1) {
			unsigned int want_has = (~(k % 5 ? 0u : 1u << (k % n))) & ((1u << n) - 1);

			if ((has & ((1u << n) - 1)) != want_has)
				fail_msg("n %u interval %u: has %#x want %#x", n, k, has, want_has);
			for (unsigned int j = 0; j < n; j++)
				if ((has & 1u << j) && got[j] != nums[(k * 7 + j) % ARRAY_SIZE(nums)])
					fail_msg("n %u interval %u number %u: %lld", n, k, j, got[j]);
			k++;
		}
		assert_int_equal(ret, 0);
		assert_int_equal(k, 64);
		assert_int_equal(an_chunk_next(&c, got, &has, n), 0);	/* stays at the end */
		assert_int_equal(an_chunk_offset(&c), at);
	}
}

/* Text as SQLite may hold it: JSON whitespace is fine, anything else refused. */
static void test_parse(void **state)
{
	static const struct {
		const char *text;
		unsigned int nr;
		int ret;		/* of the last call */
		unsigned int intervals;	/* read before it */
		size_t offset;		/* where the reader stopped */
	} rows[] = {
		{ "[]", 2, 0, 0, 2 },
		{ " [ [ 1 , 2 ] ,\n[3,null]\t] \r\n", 2, 0, 2, 28 },
		{ "[[0,5,null,-7]]", 4, 0, 1, 15 },
		{ "", 2, -EINVAL, 0, 0 },
		{ "[", 2, -EINVAL, 0, 1 },
		{ "[[1,2]", 2, -EINVAL, 1, 6 },
		{ "[[1,2]]x", 2, -EINVAL, 1, 7 },
		{ "[[1,2],]", 2, -EINVAL, 1, 7 },
		{ "[[1,2][3,4]]", 2, -EINVAL, 1, 6 },
		{ "[[1]]", 2, -EINVAL, 0, 3 },
		{ "[[1,2,3]]", 2, -EINVAL, 0, 5 },
		{ "[[1,]]", 2, -EINVAL, 0, 4 },
		{ "[[+1,2]]", 2, -EINVAL, 0, 2 },
		{ "[[01,2]]", 2, -EINVAL, 0, 4 },
		{ "[[-,2]]", 2, -EINVAL, 0, 3 },
		{ "[[1.5,2]]", 2, -EINVAL, 0, 3 },
		{ "[[nul,2]]", 2, -EINVAL, 0, 2 },
		{ "[[\"1\",2]]", 2, -EINVAL, 0, 2 },
		{ "[{\"a\":1}]", 2, -EINVAL, 0, 1 },
		{ "[[9223372036854775807,-9223372036854775808]]", 2, 0, 1, 44 },
		{ "[[9223372036854775808,0]]", 2, -ERANGE, 0, 20 },
		{ "[[-9223372036854775809,0]]", 2, -ERANGE, 0, 21 },
		{ "[[1,2]]", AN_CHUNK_MAX_NUMS + 1, -EINVAL, 0, 0 },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		size_t len = strlen(rows[i].text);
		/* a copy without the terminating NUL: nothing may be read past @len */
		char *copy = malloc(len ? len : 1);
		long long num[AN_CHUNK_MAX_NUMS];
		struct an_chunk_reader c;
		unsigned int has, n = 0;
		int ret;

		assert_non_null(copy);
		memcpy(copy, rows[i].text, len);
		an_chunk_begin(&c, copy, len);
		while ((ret = an_chunk_next(&c, num, &has, rows[i].nr)) == 1)
			n++;
		if (ret != rows[i].ret || n != rows[i].intervals ||
		    an_chunk_offset(&c) != rows[i].offset)
			fail_msg("row %zu '%s': %d after %u intervals at byte %zu, want %d after %u"
				 " at %zu", i, rows[i].text, ret, n, an_chunk_offset(&c), rows[i].ret,
				 rows[i].intervals, rows[i].offset);
		free(copy);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_parse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
