// SPDX-License-Identifier: MIT
/*
 * lib/sha256.c: FIPS 180-4 test vectors, split updates, and a file.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/sha256.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const struct sha_case {
	const char *msg;
	size_t repeat;			/* msg is hashed this many times */
	const char *want;
} cases[] = {
	{ "", 1, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
	{ "abc", 1, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
	/* 56 bytes: the length no longer fits the first block */
	{ "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 1,
	  "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1" },
	{ "a", 1000000, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0" },
};

/* Each vector with the CPU's SHA instructions (when it has them) and without. */
static void test_vectors(void **state)
{
	(void)state;
	for (int portable = 0; portable < 2; portable++) {
		for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
			struct an_sha256 s;
			char hex[AN_SHA256_HEX_LEN + 1];

			an_sha256_init(&s);
			if (portable)
				s.is_ni = false;
			for (size_t r = 0; r < cases[i].repeat; r++)
				an_sha256_update(&s, cases[i].msg, strlen(cases[i].msg));
			an_sha256_final(&s, hex);
			if (strcmp(hex, cases[i].want))
				fail_msg("case %zu (%s): got %s want %s", i,
					 portable ? "portable" : "native", hex, cases[i].want);
		}
	}
}

/*
 * Both compressions agree on every length from 0 to 1100 bytes and on
 * updates cut anywhere (whole blocks are hashed in place, the rest through
 * the buffer).
 */
static void test_native_matches_portable(void **state)
{
	static uint8_t data[1100];
	uint32_t x = 12345;
	struct an_sha256 probe;

	(void)state;
	an_sha256_init(&probe);
	print_message("# SHA instructions: %s\n", probe.is_ni ? "used" : "absent, portable only");
	for (size_t i = 0; i < sizeof(data); i++) {
		x = x * 1103515245u + 12345u;
		data[i] = (uint8_t)(x >> 16);
	}
	for (size_t len = 0; len <= sizeof(data); len++) {
		char a[AN_SHA256_HEX_LEN + 1], b[AN_SHA256_HEX_LEN + 1];
		struct an_sha256 sa, sb;
		size_t cut = len * 7 / 13;

		an_sha256_init(&sa);
		an_sha256_update(&sa, data, cut);
		an_sha256_update(&sa, data + cut, len - cut);
		an_sha256_final(&sa, a);
		an_sha256_init(&sb);
		sb.is_ni = false;
		an_sha256_update(&sb, data, len);
		an_sha256_final(&sb, b);
		if (strcmp(a, b))
			fail_msg("length %zu cut at %zu: %s against %s", len, cut, a, b);
	}
}

/* Byte-by-byte updates give the digest of one update. */
static void test_split(void **state)
{
	const char *msg = cases[2].msg;
	struct an_sha256 s;
	char hex[AN_SHA256_HEX_LEN + 1];

	(void)state;
	an_sha256_init(&s);
	for (size_t i = 0; msg[i]; i++)
		an_sha256_update(&s, msg + i, 1);
	an_sha256_final(&s, hex);
	assert_string_equal(hex, cases[2].want);
}

static void test_file(void **state)
{
	char path[] = "/tmp/ucval-sha-XXXXXX";
	char hex[AN_SHA256_HEX_LEN + 1];
	struct an_diag d;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "abc", 3), 3);
	close(fd);
	assert_int_equal(an_sha256_file(path, hex, &d), 0);
	assert_string_equal(hex, cases[1].want);
	unlink(path);
	assert_int_equal(an_sha256_file(path, hex, &d), -ENOENT);
	assert_string_equal(d.file, path);
}

/*
 * Only a regular file has an end to stop at: /dev/zero is refused at once
 * (regression: it was read forever). A hang meets alarm() and fails.
 */
static void test_file_endless(void **state)
{
	char hex[AN_SHA256_HEX_LEN + 1];
	struct an_diag d;

	(void)state;
	alarm(60);
	assert_int_equal(an_sha256_file("/dev/zero", hex, &d), -EINVAL);
	assert_string_equal(d.file, "/dev/zero");
	assert_int_equal(an_sha256_file("/", hex, &d), -EISDIR);
	alarm(0);
}

/* A range of a file: the digest of those bytes; a file shorter than the range fails. */
static void test_range(void **state)
{
	char path[] = "/tmp/ucval-sha-XXXXXX";
	char hex[AN_SHA256_HEX_LEN + 1];
	struct an_sha256 s;
	struct an_diag d;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	unlink(path);
	assert_int_equal(write(fd, "xxabcyy", 7), 7);
	an_sha256_init(&s);
	an_diag_clear(&d);
	assert_int_equal(an_sha256_range(&s, fd, 2, 5, &d), 0);
	an_sha256_final(&s, hex);
	assert_string_equal(hex, cases[1].want);
	an_sha256_init(&s);
	assert_int_equal(an_sha256_range(&s, fd, 2, 9, &d), -EIO);
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vectors),
		cmocka_unit_test(test_native_matches_portable),
		cmocka_unit_test(test_split),
		cmocka_unit_test(test_file),
		cmocka_unit_test(test_file_endless),
		cmocka_unit_test(test_range),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
