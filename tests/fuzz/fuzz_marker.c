// SPDX-License-Identifier: MIT
/*
 * tests/fuzz/fuzz_marker.c - libFuzzer target for the marker parser
 * (analyze/read/marker.c). The input is one print event's text.
 */
#include <stddef.h>
#include <stdint.h>

#include "analyze/read/marker.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct an_marker m;
	struct an_diag d;

	an_diag_clear(&d);
	if (an_marker_parse((const char *)data, size, 1234, &m, &d) == 1 &&
	    m.kind == AN_MARKER_NONE)
		__builtin_trap();	/* a marker always has a kind */
	return 0;
}
