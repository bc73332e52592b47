/* SPDX-License-Identifier: MIT */
/*
 * lib/tmpfile.h - unlinked temporary files: data that lives only as long as
 * its descriptor (a recorder's per-CPU pages, until the trace.dat is written).
 */
#ifndef UCVAL_LIB_TMPFILE_H
#define UCVAL_LIB_TMPFILE_H

/**
 * an_tmpfile() - an unlinked file for reading and writing in @dir
 * @dir: the directory
 * @stem: a name's beginning, for file systems without O_TMPFILE, where the
 *	  file is created as "@dir/@stem.XXXXXX" and unlinked at once
 *
 * Return: the descriptor (close-on-exec; the caller closes it), or a
 * negative errno.
 */
int an_tmpfile(const char *dir, const char *stem);

#endif
