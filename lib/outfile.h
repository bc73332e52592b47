/* SPDX-License-Identifier: MIT */
/*
 * lib/outfile.h - an output file that appears whole or not at all, and that
 * never replaces what is at its path by something else: a regular file is
 * written beside the target and renamed over it once complete (mode and
 * owner kept), a symbolic link is followed, and a device, a FIFO or
 * standard output is written in place (lib/outfile.c).
 */
#ifndef UCVAL_LIB_OUTFILE_H
#define UCVAL_LIB_OUTFILE_H

#include <stdbool.h>
#include <stdio.h>

#include "lib/diag.h"

/* Room for the target path and the temporary one beside it. */
#define REP_OUTFILE_PATH_LEN	4096

/**
 * struct rep_outfile - an output being written
 * @fp: where to write (standard output when the target is "-")
 * @path: the target as given, "-" for standard output
 * @real: the target with its symbolic links followed
 * @tmp: the temporary file, "" when written in place
 * @is_direct: written in place (device, FIFO, socket, standard output)
 *
 * Writers may use fileno(@fp) with write(2) instead of stdio, as long as
 * they do not mix the two.
 */
struct rep_outfile {
	FILE *fp;
	const char *path;
	char real[REP_OUTFILE_PATH_LEN];
	char tmp[REP_OUTFILE_PATH_LEN];
	bool is_direct;
};

int rep_outfile_open(struct rep_outfile *o, const char *path, struct an_diag *d);
int rep_outfile_commit(struct rep_outfile *o, struct an_diag *d);
void rep_outfile_abort(struct rep_outfile *o);
bool rep_outfile_is_same(const char *path, const char *other);

#endif /* UCVAL_LIB_OUTFILE_H */
