// SPDX-License-Identifier: MIT
/*
 * lib/pbout.c: the protocol buffer encoder. Small values are checked byte
 * by byte against the wire format; a trace of every kind of field ucval
 * writes must be the exact bytes protoc encodes from the same text, and
 * decode with protoc to that text (skipped without protoc).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/malloc.h"
#include "lib/pbout.h"

#define PROTO		"proto/perfetto.proto"
#define MSG		"ucval.perfetto.Trace"

static void expect_bytes(const struct an_pbout *b, const char *want, size_t len)
{
	assert_int_equal(an_pbout_error(b), 0);
	assert_int_equal(b->len, len);
	assert_memory_equal(b->buf, want, len);
}

static void test_scalars(void **state)
{
	struct an_pbout b = { 0 };

	(void)state;
	an_pbout_varint(&b, 1, 150);
	expect_bytes(&b, "\x08\x96\x01", 3);
	an_pbout_reset(&b);
	an_pbout_varint(&b, 16, 1);		/* two-byte tag */
	expect_bytes(&b, "\x80\x01\x01", 3);
	an_pbout_reset(&b);
	an_pbout_int(&b, 1, -1);		/* ten bytes */
	expect_bytes(&b, "\x08\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 11);
	an_pbout_reset(&b);
	an_pbout_sint(&b, 1, -1);
	an_pbout_sint(&b, 1, 1);
	an_pbout_sint(&b, 1, INT64_MIN);
	expect_bytes(&b, "\x08\x01\x08\x02\x08\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 15);
	an_pbout_reset(&b);
	an_pbout_fixed32(&b, 2, 0x01020304);
	an_pbout_fixed64(&b, 1, 0x0102030405060708ull);
	expect_bytes(&b, "\x15\x04\x03\x02\x01\x09\x08\x07\x06\x05\x04\x03\x02\x01", 14);
	an_pbout_reset(&b);
	an_pbout_double(&b, 1, 1.0);
	expect_bytes(&b, "\x09\x00\x00\x00\x00\x00\x00\xf0\x3f", 9);
	an_pbout_reset(&b);
	an_pbout_string(&b, 2, "hi");
	an_pbout_bytes(&b, 3, NULL, 0);
	expect_bytes(&b, "\x12\x02hi\x1a\x00", 6);
	an_pbout_release(&b);
}

/* Nested lengths of one, two and three bytes, shortest varints each. */
static void test_nested_lengths(void **state)
{
	static char body[20000];
	struct an_pbout b = { 0 };

	(void)state;
	memset(body, 'x', sizeof(body));
	an_pbout_begin(&b, 1);
	an_pbout_end(&b);
	expect_bytes(&b, "\x0a\x00", 2);
	an_pbout_reset(&b);
	an_pbout_begin(&b, 1);
	an_pbout_begin(&b, 2);
	an_pbout_bytes(&b, 3, body, 200);
	an_pbout_end(&b);
	an_pbout_end(&b);
	/* inner 203 bytes (2-byte length), outer 1 + 2 + 203 = 206 */
	assert_int_equal(b.len, 3 + 3 + 203);
	assert_memory_equal(b.buf, "\x0a\xce\x01\x12\xcb\x01\x1a\xc8\x01", 9);
	an_pbout_reset(&b);
	an_pbout_begin(&b, 1);
	an_pbout_bytes(&b, 2, body, sizeof(body));
	an_pbout_end(&b);
	/* 20000 = 0xa0 0x9c 0x01; 1 + 3 + 20000 = 20004 = 0xa4 0x9c 0x01 */
	assert_int_equal(b.len, 4 + 4 + sizeof(body));
	assert_memory_equal(b.buf, "\x0a\xa4\x9c\x01\x12\xa0\x9c\x01xx", 10);
	an_pbout_release(&b);
}

static void test_errors(void **state)
{
	struct an_pbout b = { 0 };

	(void)state;
	an_pbout_end(&b);
	assert_int_equal(an_pbout_error(&b), -EOVERFLOW);
	an_pbout_reset(&b);
	for (int i = 0; i <= AN_PBOUT_MAX_DEPTH; i++)
		an_pbout_begin(&b, 1);
	assert_int_equal(an_pbout_error(&b), -EOVERFLOW);
	an_pbout_release(&b);

	an_malloc_fail_at(1);
	an_pbout_varint(&b, 1, 1);
	an_malloc_fail_at(0);
	assert_int_equal(an_pbout_error(&b), -ENOMEM);
	an_pbout_string(&b, 2, "ignored after the error");
	assert_int_equal(b.len, 0);
	an_pbout_release(&b);
	assert_int_equal(an_pbout_error(&b), 0);
}

/* Packets of each field kind ucval's writers use. */
static void encode_trace(struct an_pbout *b, const char *big)
{
	an_pbout_begin(b, 1);				/* packet */
	an_pbout_varint(b, 10, 7);			/* trusted_packet_sequence_id */
	an_pbout_varint(b, 13, 1);			/* sequence_flags */
	an_pbout_begin(b, 60);				/* track_descriptor */
	an_pbout_varint(b, 1, 1ull << 40);
	an_pbout_string(b, 2, "ucval");
	an_pbout_end(b);
	an_pbout_end(b);

	an_pbout_begin(b, 1);
	an_pbout_varint(b, 8, 10003050000ull);		/* timestamp */
	an_pbout_varint(b, 10, 7);
	an_pbout_begin(b, 11);				/* track_event, fields in number order */
	an_pbout_begin(b, 4);
	an_pbout_int(b, 4, -256);
	an_pbout_string(b, 10, "expected");
	an_pbout_end(b);
	an_pbout_begin(b, 4);
	an_pbout_varint(b, 3, UINT64_MAX);
	an_pbout_string(b, 10, "observed");
	an_pbout_end(b);
	an_pbout_begin(b, 4);
	an_pbout_string(b, 6, big);
	an_pbout_string(b, 10, "explain");
	an_pbout_end(b);
	an_pbout_begin(b, 4);
	an_pbout_double(b, 5, 0.25);
	an_pbout_string(b, 10, "share");
	an_pbout_end(b);
	an_pbout_varint(b, 9, 1);			/* TYPE_SLICE_BEGIN */
	an_pbout_varint(b, 11, 42);
	an_pbout_string(b, 23, "rq_clamp VR4");
	an_pbout_end(b);
	an_pbout_end(b);

	an_pbout_begin(b, 1);
	an_pbout_varint(b, 8, 5);
	an_pbout_begin(b, 11);
	an_pbout_varint(b, 9, 4);			/* TYPE_COUNTER */
	an_pbout_int(b, 30, -3);
	an_pbout_end(b);
	an_pbout_end(b);
}

/* protoc prints fields in number order: encode_trace() writes them so. */
static const char trace_head[] =
	"packet {\n"
	"  trusted_packet_sequence_id: 7\n"
	"  sequence_flags: 1\n"
	"  track_descriptor {\n"
	"    uuid: 1099511627776\n"
	"    name: \"ucval\"\n"
	"  }\n"
	"}\n"
	"packet {\n"
	"  timestamp: 10003050000\n"
	"  trusted_packet_sequence_id: 7\n"
	"  track_event {\n"
	"    debug_annotations {\n"
	"      int_value: -256\n"
	"      name: \"expected\"\n"
	"    }\n"
	"    debug_annotations {\n"
	"      uint_value: 18446744073709551615\n"
	"      name: \"observed\"\n"
	"    }\n"
	"    debug_annotations {\n"
	"      string_value: \"";
static const char trace_tail[] =
	"\"\n"
	"      name: \"explain\"\n"
	"    }\n"
	"    debug_annotations {\n"
	"      double_value: 0.25\n"
	"      name: \"share\"\n"
	"    }\n"
	"    type: TYPE_SLICE_BEGIN\n"
	"    track_uuid: 42\n"
	"    name: \"rq_clamp VR4\"\n"
	"  }\n"
	"}\n"
	"packet {\n"
	"  timestamp: 5\n"
	"  track_event {\n"
	"    type: TYPE_COUNTER\n"
	"    counter_value: -3\n"
	"  }\n"
	"}\n";

static bool has_protoc(void)
{
	return system("command -v protoc >/dev/null 2>&1") == 0 && access(PROTO, R_OK) == 0;
}

static char *slurp(FILE *f, size_t *len)
{
	size_t alloc = 1 << 16, n = 0, r;
	char *p = malloc(alloc);

	assert_non_null(p);
	while ((r = fread(p + n, 1, alloc - n - 1, f)) > 0) {
		n += r;
		if (alloc - n < 2) {
			alloc *= 2;
			p = realloc(p, alloc);
			assert_non_null(p);
		}
	}
	p[n] = '\0';
	*len = n;
	return p;
}

/* protoc with @args, @in on its standard input; its output, malloc'd. */
static char *run_protoc(const char *args, const void *in, size_t in_len, size_t *out_len)
{
	char tmp[] = "/tmp/ucval-pbout-XXXXXX", cmd[512];
	int fd = mkstemp(tmp);
	FILE *p;
	char *out;

	assert_true(fd >= 0);
	assert_int_equal(write(fd, in, in_len), (ssize_t)in_len);
	close(fd);
	snprintf(cmd, sizeof(cmd), "protoc %s --proto_path=. " PROTO " < %s", args, tmp);
	p = popen(cmd, "r");
	assert_non_null(p);
	out = slurp(p, out_len);
	assert_int_equal(pclose(p), 0);
	unlink(tmp);
	return out;
}

static void test_against_protoc(void **state)
{
	static char big[300];
	struct an_pbout b = { 0 };
	char *text, *want, *bytes;
	size_t len, want_len;

	(void)state;
	if (!has_protoc()) {
		print_message("protoc or " PROTO " not found: skipped\n");
		skip();
	}
	memset(big, 'e', sizeof(big) - 1);
	encode_trace(&b, big);
	assert_int_equal(an_pbout_error(&b), 0);
	want_len = strlen(trace_head) + strlen(big) + strlen(trace_tail);
	want = malloc(want_len + 1);
	assert_non_null(want);
	snprintf(want, want_len + 1, "%s%s%s", trace_head, big, trace_tail);

	text = run_protoc("--decode=" MSG, b.buf, b.len, &len);
	assert_string_equal(text, want);
	bytes = run_protoc("--encode=" MSG, want, want_len, &len);
	assert_int_equal(len, b.len);
	assert_memory_equal(bytes, b.buf, len);
	free(bytes);
	free(text);
	free(want);
	an_pbout_release(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scalars),
		cmocka_unit_test(test_nested_lengths),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_against_protoc),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
