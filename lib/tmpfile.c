// SPDX-License-Identifier: MIT
/*
 * lib/tmpfile.c - unlinked temporary files (lib/tmpfile.h).
 */
#define _GNU_SOURCE	/* O_TMPFILE, mkostemp(), asprintf() */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "lib/tmpfile.h"

int an_tmpfile(const char *dir, const char *stem)
{
	char *path = NULL;
	int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);

	if (fd >= 0)
		return fd;
	/* file systems without O_TMPFILE: create, then unlink at once */
	if (asprintf(&path, "%s/%s.XXXXXX", dir, stem) < 0)
		return -ENOMEM;
	fd = mkostemp(path, O_CLOEXEC);
	if (fd < 0)
		fd = -errno;
	else
		unlink(path);
	free(path);
	return fd;
}
