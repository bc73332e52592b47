// SPDX-License-Identifier: MIT
/*
 * lib/outfile.c - output files that never clobber what is at their path.
 *
 * A regular file (or none yet) is written to a temporary file beside it,
 * flushed, synced and renamed over it (atomic within one file system), with
 * the old file's mode and owner: a failure or a crash leaves the previous
 * file, never a half-written one. A symbolic link is followed, so the link
 * stays and its target is replaced. Anything else at the path (a device, a
 * FIFO, a socket, standard output under any of its names) is written in
 * place, since renaming over it would replace the node instead of feeding it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/outfile.h"

/* Permissions of a new file before the umask, as for fopen(path, "w"). */
#define REPORT_MODE	0666
#define MAX_LINKS	40	/* symbolic links followed, as the kernel's ELOOP */

/* @path is the same file as the process's standard output. */
static bool is_stdout(const struct stat *st)
{
	struct stat out;

	return !fstat(STDOUT_FILENO, &out) && out.st_dev == st->st_dev &&
	       out.st_ino == st->st_ino;
}

/*
 * Follow the symbolic links of @path into @real, without requiring the last
 * target to exist (a dangling link names the file to create).
 */
static int resolve(const char *path, char *real, size_t len)
{
	char link[PATH_MAX], next[PATH_MAX];
	struct stat st;

	if (snprintf(real, len, "%s", path) >= (int)len)
		return -ENAMETOOLONG;
	for (int i = 0; i < MAX_LINKS; i++) {
		const char *slash;
		ssize_t n;

		if (lstat(real, &st) || !S_ISLNK(st.st_mode))
			return 0;
		n = readlink(real, link, sizeof(link) - 1);
		if (n < 0)
			return -errno;
		link[n] = '\0';
		slash = strrchr(real, '/');
		if (link[0] == '/' || !slash)
			snprintf(next, sizeof(next), "%s", link);
		else if (snprintf(next, sizeof(next), "%.*s%s", (int)(slash - real + 1), real,
				  link) >= (int)sizeof(next))
			return -ENAMETOOLONG;
		if (snprintf(real, len, "%s", next) >= (int)len)
			return -ENAMETOOLONG;
	}
	return -ELOOP;
}

/* Write in place: a device, a FIFO, a socket, standard output. */
static int open_direct(struct rep_outfile *o, const char *path, struct an_diag *d)
{
	int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);

	if (fd < 0)
		return an_diag_fail(d, -errno, "cannot open for writing: %s", strerror(errno));
	o->fp = fdopen(fd, "w");
	if (!o->fp) {
		int err = -errno;

		close(fd);
		return an_diag_fail(d, err, "%s", strerror(-err));
	}
	o->is_direct = true;
	return 0;
}

/* A temporary file beside @o->real, with @old's mode and owner when it exists. */
static int open_tmp(struct rep_outfile *o, const struct stat *old, struct an_diag *d)
{
	const char *slash = strrchr(o->real, '/');
	mode_t mask;
	int fd;

	if (snprintf(o->tmp, sizeof(o->tmp), "%.*s.%s.XXXXXX", slash ? (int)(slash - o->real + 1) : 0,
		     o->real, slash ? slash + 1 : o->real) >= (int)sizeof(o->tmp))
		return an_diag_fail(d, -ENAMETOOLONG, "path too long");
	fd = mkostemp(o->tmp, O_CLOEXEC);
	if (fd < 0) {
		o->tmp[0] = '\0';
		return an_diag_fail(d, -errno, "cannot create a temporary file: %s",
				    strerror(errno));
	}
	if (old) {
		/* the owner first: chown clears set-id bits that fchmod then restores */
		if (fchown(fd, old->st_uid, old->st_gid) && (old->st_uid != geteuid() ||
							      old->st_gid != getegid())) {
			/* cannot give the file back to its owner: write it in place */
			close(fd);
			unlink(o->tmp);
			o->tmp[0] = '\0';
			return open_direct(o, o->real, d);
		}
		fchmod(fd, old->st_mode & 07777);
	} else {
		mask = umask(0);
		umask(mask);
		fchmod(fd, REPORT_MODE & ~mask);
	}
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
 * rep_outfile_open() - start writing the output @path
 * @o: the output, ended by rep_outfile_commit() or rep_outfile_abort()
 * @path: the target; "-" or NULL is standard output
 * @d: filled on failure
 *
 * Return: 0 or a negative errno (directory not writable, path too long,
 * too many links).
 */
int rep_outfile_open(struct rep_outfile *o, const char *path, struct an_diag *d)
{
	struct stat st;
	int err;

	*o = (struct rep_outfile){ .fp = stdout, .path = path ? path : "-" };
	if (!strcmp(o->path, "-"))
		return 0;
	/* the caller may name the action first ("write report") */
	an_diag_set_file(d, d && d->file[0] ? d->what : "write", path);
	if (!stat(path, &st)) {
		if (S_ISDIR(st.st_mode))
			return an_diag_fail(d, -EISDIR, "is a directory");
		if (is_stdout(&st)) {
			o->fp = stdout;
			o->is_direct = true;
			return 0;
		}
		/* by the path given: /dev/fd/N and /proc links open, not resolve */
		if (!S_ISREG(st.st_mode))
			return open_direct(o, path, d);
	} else if (errno != ENOENT) {
		return an_diag_fail(d, -errno, "%s", strerror(errno));
	}
	err = resolve(path, o->real, sizeof(o->real));
	if (err)
		return an_diag_fail(d, err, "%s", strerror(-err));
	if (stat(o->real, &st))
		return open_tmp(o, NULL, d);	/* a new file, or a dangling link's target */
	return open_tmp(o, &st, d);
}

/* Flush and close a file written in place; stdout is flushed, not closed. */
static int commit_direct(struct rep_outfile *o)
{
	int err = 0;

	errno = 0;
	if (fflush(o->fp) || ferror(o->fp))
		err = -(errno ? errno : EIO);
	if (o->fp != stdout && fclose(o->fp) && !err)
		err = -(errno ? errno : EIO);
	o->fp = NULL;
	return err;
}

/**
 * rep_outfile_commit() - finish the output: flush it and move it in place
 * @o: the output
 * @d: filled on failure (a temporary file is then removed)
 *
 * Return: 0 or a negative errno (disk full, rename failed, a write error of
 * standard output or a device).
 */
int rep_outfile_commit(struct rep_outfile *o, struct an_diag *d)
{
	int err = 0;

	if (!o->tmp[0]) {
		err = commit_direct(o);
		return err ? an_diag_fail(d, err, "%s", strerror(-err)) : 0;
	}
	errno = 0;
	if (fflush(o->fp) || ferror(o->fp) || fsync(fileno(o->fp)))
		err = -(errno ? errno : EIO);
	if (fclose(o->fp) && !err)
		err = -errno;
	o->fp = NULL;
	if (!err && rename(o->tmp, o->real))
		err = -errno;
	if (err) {
		rep_outfile_abort(o);
		return an_diag_fail(d, err, "%s", strerror(-err));
	}
	o->tmp[0] = '\0';
	return 0;
}

/**
 * rep_outfile_abort() - drop an output being written; a regular target is
 * untouched (what was already written to a device or FIFO stays written)
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

/**
 * rep_outfile_is_same() - whether @path names the same file as @other
 * @path: an output path ("-" is never the same)
 * @other: an input path
 *
 * Return: true when both exist and are one file (links followed).
 */
bool rep_outfile_is_same(const char *path, const char *other)
{
	struct stat a, b;

	if (!path || !other || !strcmp(path, "-") || stat(path, &a) || stat(other, &b))
		return false;
	return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}
