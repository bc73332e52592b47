// SPDX-License-Identifier: MIT
/*
 * tests/fuzz/fuzz_platform.c - libFuzzer target for the platform file
 * parser (analyze/read/platform.c: LISA's platform.json and ucval's line format,
 * the text of `ucval analyze --platform FILE`). The input is the file, in a
 * buffer of its exact size so that a read past it is caught.
 *
 * Besides the sanitizers: the return is 0, AN_E_SYNTAX or AN_E_VALUE (the
 * codes an_platform_parse() documents); a failure names the file and says
 * why; what a parse fills stays within its arrays; and the same text parsed
 * twice gives the same bytes (no uninitialized state leaks into the result).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/read/platform.h"

#define NAME	"fuzz.platform"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int parse(struct an_platform *p, const char *text, size_t size, struct an_diag *d)
{
	an_platform_init(p);
	an_diag_clear(d);
	return an_platform_parse(p, text, size, NAME, d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct an_platform a, b;
	struct an_diag da, db;
	char *text = malloc(size ? size : 1);
	int ea, eb;

	if (!text)
		return 0;
	memcpy(text, data, size);
	ea = parse(&a, text, size, &da);
	eb = parse(&b, text, size, &db);
	if (ea != eb || memcmp(&a, &b, sizeof(a)))
		__builtin_trap();
	if (ea && ea != AN_E_SYNTAX && ea != AN_E_VALUE)
		__builtin_trap();
	if (ea && (strcmp(da.file, NAME) || !da.message[0] || da.err != ea ||
		   strcmp(da.message, db.message) || da.line != db.line))
		__builtin_trap();
	if (a.nr_listed > AN_PLATFORM_MAX_CPUS || !memchr(a.kernel, '\0', sizeof(a.kernel)))
		__builtin_trap();
	for (unsigned int c = 0; c < AN_PLATFORM_MAX_CPUS; c++)
		if (a.cpu[c].nr_freqs > AN_MARKER_MAX_FREQS || (a.cpu[c].is_listed && c >= a.nr_listed))
			__builtin_trap();
	free(text);
	return 0;
}
