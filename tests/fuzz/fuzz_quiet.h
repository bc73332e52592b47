/*
 * tests/fuzz/fuzz_quiet.h - the libFuzzer start hook of the targets that
 * read traces: the readers' per-record warnings off (each input would print
 * them). Included by one .c of each target program.
 */
#ifndef UCVAL_TESTS_FUZZ_QUIET_H
#define UCVAL_TESTS_FUZZ_QUIET_H

#include "analyze/reader.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	an_reader_set_quiet(true);
	return 0;
}

#endif /* UCVAL_TESTS_FUZZ_QUIET_H */
