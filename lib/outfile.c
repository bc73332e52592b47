// SPDX-License-Identifier: MIT
/*
 * lib/outfile.c - atomic report files: mkstemp() beside the target,
 * write, flush, fsync, rename() (atomic within one file system). A failure or
 * a crash leaves the previous file, never a half-written one.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/outfile.h"

/* Permissions of a new report before the umask, as for fopen(path, "w"). */
#define REPORT_MODE	0666

/**
 * rep_outfile_open() - start writing the report @path
 * @o: the output, ended by rep_outfile_commit() or rep_outfile_abort()
 * @path: the target file; "-" or NULL is standard output
 * @d: filled on failure
 *
 * Return: 0 or a negative errno (directory not writable, path too long).
 */
int rep_outfile_open(struct rep_outfile *o, const char *path, struct an_diag *d)
{
	const char *slash;
	mode_t mask;
	int fd;

	*o = (struct rep_outfile){ .fp = stdout, .path = path ? path : "-" };
	if (!strcmp(o->path, "-"))
		return 0;
	an_diag_set_file(d, "write report", path);
	slash = strrchr(path, '/');
	if (snprintf(o->tmp, sizeof(o->tmp), "%.*s.%s.XXXXXX", slash ? (int)(slash - path + 1) : 0,
		     path, slash ? slash + 1 : path) >= (int)sizeof(o->tmp))
		return an_diag_fail(d, -ENAMETOOLONG, "path too long");
	fd = mkstemp(o->tmp);
	if (fd < 0) {
		o->tmp[0] = '\0';
		return an_diag_fail(d, -errno, "cannot create a temporary file: %s",
				    strerror(errno));
	}
	mask = umask(0);
	umask(mask);
	fchmod(fd, REPORT_MODE & ~mask);
	o->fp = fdopen(fd, "w");
	if (!o->fp) {
		int err = -errno;

		close(fd);
		rep_outfile_abort(o);
		return an_diag_fail(d, err, "%s", strerror(-err));
	}
	return 0;
}

/**
 * rep_outfile_commit() - finish the report: flush it and move it in place
 * @o: the output
 * @d: filled on failure (the temporary file is then removed)
 *
 * Return: 0 or a negative errno (disk full, rename failed).
 */
int rep_outfile_commit(struct rep_outfile *o, struct an_diag *d)
{
	int err = 0;

	errno = 0;
	if (!o->tmp[0])
		return fflush(o->fp) ? an_diag_fail(d, -errno, "%s", strerror(errno)) : 0;
	if (fflush(o->fp) || ferror(o->fp) || fsync(fileno(o->fp)))
		err = -(errno ? errno : EIO);
	if (fclose(o->fp) && !err)
		err = -errno;
	o->fp = NULL;
	if (!err && rename(o->tmp, o->path))
		err = -errno;
	if (err) {
		rep_outfile_abort(o);
		return an_diag_fail(d, err, "%s", strerror(-err));
	}
	o->tmp[0] = '\0';
	return 0;
}

/**
 * rep_outfile_abort() - drop a report being written; the target is untouched
 * @o: the output (may be already committed or aborted)
 */
void rep_outfile_abort(struct rep_outfile *o)
{
	if (o->fp && o->fp != stdout)
		fclose(o->fp);
	o->fp = NULL;
	if (o->tmp[0])
		unlink(o->tmp);
	o->tmp[0] = '\0';
}
