// SPDX-License-Identifier: MIT
/*
 * tests/fuzz/fuzz_pftrace.c - libFuzzer target for the Perfetto trace reader
 * (lib/pbwire.c, analyze/read/pftrace.c, pfbundle.c, pfgeneric.c,
 * pfplat.c). The input is written to a memfd and opened by path, as ucval
 * opens files; whatever the detection makes of it is read to its end.
 */
#define _GNU_SOURCE	/* memfd_create() */
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>

#include "analyze/read/reader.h"
#include "tests/fuzz/fuzz_common.h"

/* Stop a run after this many results; inputs are small, this is a backstop. */
#define FUZZ_MAX_RESULTS 100000

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct an_reader *r;
	struct an_event ev;
	struct an_diag d;
	int rc, fd;

	rc = fuzz_open_dat(data, size, &fd, &r);
	if (rc == 0) {
		for (int n = 0; n < FUZZ_MAX_RESULTS; n++) {
			rc = an_reader_next(r, &ev, &d);
			if (rc == 0 || (rc < 0 && !an_error_is_recoverable(rc)))
				break;
		}
		an_reader_close(r);
	}
	if (fd >= 0)
		close(fd);
	return 0;
}
