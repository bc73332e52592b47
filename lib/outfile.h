/* SPDX-License-Identifier: MIT */
/*
 * lib/outfile.h - a report file that appears whole or not at all: it is
 * written to a temporary file in the target directory and renamed over the
 * target once complete.
 */
#ifndef UCVAL_LIB_OUTFILE_H
#define UCVAL_LIB_OUTFILE_H

#include <stdio.h>

#include "lib/diag.h"

/* Room for the target path and the temporary one beside it. */
#define REP_OUTFILE_PATH_LEN	4096

/**
 * struct rep_outfile - an output being written
 * @fp: where to write (standard output when the target is "-")
 * @path: the target, "-" for standard output
 * @tmp: the temporary file, "" for standard output
 */
struct rep_outfile {
	FILE *fp;
	const char *path;
	char tmp[REP_OUTFILE_PATH_LEN];
};

int rep_outfile_open(struct rep_outfile *o, const char *path, struct an_diag *d);
int rep_outfile_commit(struct rep_outfile *o, struct an_diag *d);
void rep_outfile_abort(struct rep_outfile *o);

#endif /* UCVAL_LIB_OUTFILE_H */
