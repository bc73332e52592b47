// SPDX-License-Identifier: MIT
/*
 * tests/fuzz/fuzz_text.c - libFuzzer target for the ftrace text and systrace
 * HTML reader (analyze/read/text.c, analyze/read/textline.c) through the public reader
 * API, as a stream: detection, line splitting, every line form.
 */
#define _GNU_SOURCE	/* memfd_create() in fuzz_common.h */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "analyze/read/reader.h"
#include "tests/fuzz/fuzz_common.h"

/* Stop a run after this many results; inputs are small, this is a backstop. */
#define FUZZ_MAX_RESULTS 100000

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *fp = fmemopen((void *)data, size, "r");
	struct an_reader *r;
	struct an_event ev;
	struct an_diag d;
	int rc;

	if (!fp)
		return 0;
	if (an_reader_open_stream(fp, "fuzz.txt", &r, &d) == 0) {
		for (int n = 0; n < FUZZ_MAX_RESULTS; n++) {
			rc = an_reader_next(r, &ev, &d);
			if (rc == 0 || (rc < 0 && !an_error_is_recoverable(rc)))
				break;
			if (rc > 0 && !ev.name)
				__builtin_trap();	/* every event has a name */
		}
		an_reader_close(r);
	}
	fclose(fp);
	return 0;
}
