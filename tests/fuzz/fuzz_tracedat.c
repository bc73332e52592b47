// SPDX-License-Identifier: MIT
/*
 * tests/fuzz/fuzz_tracedat.c - libFuzzer target for the trace.dat reader
 * (analyze/read/dat/datcheck.c, analyze/read/dat/datpages.c, analyze/read/dat/tracedat.c over
 * libtracecmd). The input is written to a memfd and opened by path, as ucval
 * opens files.
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

/*
 * Each input is read twice: by ucval's page reader (the default, plain or
 * compressed) and by libtracecmd's records (the reference path, which
 * datcheck.c must make safe on its own).
 */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum an_dat_reader how[] = { AN_DAT_PAGES, AN_DAT_LIBTRACECMD };

	for (size_t k = 0; k < sizeof(how) / sizeof(how[0]); k++) {
		struct an_reader *r;
		struct an_event ev;
		struct an_diag d;
		int rc, fd;

		an_reader_set_dat_reader(how[k]);
		rc = fuzz_open_dat(data, size, &fd, &r);
		an_reader_set_dat_reader(AN_DAT_PAGES);
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
	}
	return 0;
}
