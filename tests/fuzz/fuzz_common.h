/* SPDX-License-Identifier: MIT */
/*
 * tests/fuzz/fuzz_common.h - what the targets that read traces share: the
 * libFuzzer start hook (the readers' per-record warnings off: each input
 * would print them) and opening an input as ucval opens a trace.dat.
 * Included by one .c of each target program, after _GNU_SOURCE.
 */
#ifndef UCVAL_TESTS_FUZZ_COMMON_H
#define UCVAL_TESTS_FUZZ_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "analyze/read/reader.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	an_reader_set_quiet(true);
	return 0;
}

/*
 * Open @data (@size bytes) as ucval opens a trace.dat file: written to a
 * memfd, read by its /proc/self/fd path. *@fd gets the memfd, to close
 * after the reader (-1 when none was made).
 * Return: an_reader_open()'s code, or -1 when the memfd could not be made.
 */
static inline int fuzz_open_dat(const uint8_t *data, size_t size, int *fd,
				struct an_reader **r)
{
	struct an_diag d;
	char path[64];

	*fd = memfd_create("fuzz.dat", MFD_CLOEXEC);
	if (*fd < 0 || write(*fd, data, size) != (ssize_t)size)
		return -1;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", *fd);
	return an_reader_open(path, r, &d);
}

#endif /* UCVAL_TESTS_FUZZ_COMMON_H */
