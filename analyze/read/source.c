// SPDX-License-Identifier: MIT
/*
 * analyze/read/source.c - the bytes of one input, read once and in order
 * through a stdio stream (fopencookie()), each run handed to the tap as it
 * is read; a trace.dat that is no regular file spooled into an unlinked
 * temporary file (source.h).
 */
#define _GNU_SOURCE	/* fopencookie(), O_TMPFILE, mkostemp() */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analyze/read/source.h"
#include "lib/malloc.h"

/* Bytes copied per read while spooling. */
#define SPOOL_CHUNK	(1 << 16)
/* Room for "/proc/self/fd/N". */
#define FD_PATH_LEN	32

struct an_source {
	int fd;
	bool is_file;		/* regular: it can be opened again */
	bool is_handed;		/* the tap reads the rest itself */
	bool is_over;		/* a read went past @budget */
	FILE *fp;		/* the cookie stream on @fd */
	uint64_t offset;	/* bytes read from @fd, all seen by the tap */
	uint64_t budget;	/* reads stop there (an_source_set_budget()) */
	int read_errno;		/* of the last failed read(), 0: none */
	struct an_source_tap tap;
	int spool_fd;		/* the temporary copy, -1: none */
	char spool_path[FD_PATH_LEN];
};

static uint64_t spool_max = AN_SOURCE_SPOOL_MAX;

/* A failure of the input itself: "cannot read 'PATH': REASON". */
static int fail_errno(struct an_diag *d, int err)
{
	d->what = "read";
	d->offset = -1;
	return an_diag_fail(d, -err, "%s", strerror(err));
}

static ssize_t cookie_read(void *cookie, char *buf, size_t size)
{
	struct an_source *s = cookie;
	ssize_t n;

	if (s->offset >= s->budget) {
		s->is_over = true;
		errno = EFBIG;
		return -1;
	}
	if (size > s->budget - s->offset)
		size = (size_t)(s->budget - s->offset);
	do
		n = read(s->fd, buf, size);
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		s->read_errno = errno;
		return -1;
	}
	s->offset += (uint64_t)n;
	if (n && s->tap.bytes && !s->is_handed)
		s->tap.bytes(s->tap.ctx, buf, (size_t)n);
	return n;
}

int an_source_open(const char *path, const struct an_source_tap *tap, struct an_source **out,
		   struct an_diag *d)
{
	static const cookie_io_functions_t io = { .read = cookie_read };
	struct an_source *s = an_calloc(1, sizeof(*s));
	struct stat st;
	int err;

	*out = NULL;
	if (!s)
		return an_diag_fail(d, -ENOMEM, "out of memory");
	s->spool_fd = -1;
	s->budget = UINT64_MAX;
	if (tap)
		s->tap = *tap;
	s->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (s->fd < 0) {
		err = fail_errno(d, errno);
		goto fail;
	}
	if (fstat(s->fd, &st)) {
		err = fail_errno(d, errno);
		goto fail;
	}
	if (S_ISDIR(st.st_mode)) {
		err = fail_errno(d, EISDIR);
		goto fail;
	}
	s->is_file = S_ISREG(st.st_mode);
	s->fp = fopencookie(s, "r", io);
	if (!s->fp) {
		err = an_diag_fail(d, -ENOMEM, "out of memory");
		goto fail;
	}
	*out = s;
	return 0;

fail:
	an_source_close(s);
	return err;
}

FILE *an_source_stream(const struct an_source *s)
{
	return s->fp;
}

bool an_source_is_file(const struct an_source *s)
{
	return s->is_file;
}

int an_source_hand_rest(struct an_source *s, struct an_diag *d)
{
	struct stat st;
	uint64_t to;
	int fd;

	if (!s->tap.rest)
		return 0;
	if (fstat(s->fd, &st))
		return fail_errno(d, errno);
	fd = fcntl(s->fd, F_DUPFD_CLOEXEC, 0);
	if (fd < 0)
		return fail_errno(d, errno);
	to = (uint64_t)st.st_size > s->offset ? (uint64_t)st.st_size : s->offset;
	s->is_handed = true;
	s->tap.rest(s->tap.ctx, fd, s->offset, to);
	return 0;
}

/* An unlinked file in $TMPDIR or /tmp: gone with its last descriptor. */
static int spool_create(struct an_diag *d)
{
	const char *dir = getenv("TMPDIR");
	char tmpl[PATH_MAX];
	int fd, err;

	if (!dir || !*dir)
		dir = "/tmp";
	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd < 0 && (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL)) {
		/* a file system without O_TMPFILE: a named file, unlinked at once */
		snprintf(tmpl, sizeof(tmpl), "%s/ucval-spool-XXXXXX", dir);
		fd = mkostemp(tmpl, O_CLOEXEC);
		if (fd >= 0)
			unlink(tmpl);
	}
	if (fd >= 0)
		return fd;
	err = errno;
	d->offset = -1;
	return an_diag_fail(d, -err, "a trace.dat that is not a regular file is copied to a "
			    "temporary file in %s (TMPDIR): %s", dir, strerror(err));
}

static int write_all(int fd, const char *p, size_t len, struct an_diag *d)
{
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int err = errno;

			d->offset = -1;
			return an_diag_fail(d, -err, "writing its temporary copy: %s",
					    strerror(err));
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static int too_big(struct an_diag *d)
{
	d->offset = -1;
	return an_diag_fail(d, -EFBIG, "a trace.dat that is not a regular file is read through "
			    "a temporary copy of at most %llu bytes: save it to a file and "
			    "analyze that", (unsigned long long)spool_max);
}

/* The rest of the stream after @len bytes into @fd, at most spool_max in all. */
static int spool_copy(struct an_source *s, int fd, size_t len, struct an_diag *d)
{
	char *buf = an_malloc(SPOOL_CHUNK);
	uint64_t total = len;
	size_t n;
	int err = 0;

	if (!buf)
		return an_diag_fail(d, -ENOMEM, "out of memory");
	while (!err && (n = fread(buf, 1, SPOOL_CHUNK, s->fp)) > 0) {
		total += n;
		err = total > spool_max ? too_big(d) : write_all(fd, buf, n, d);
	}
	if (!err && ferror(s->fp))
		err = fail_errno(d, s->read_errno ? s->read_errno : EIO);
	free(buf);
	return err;
}

int an_source_spool(struct an_source *s, const void *head, size_t len, const char **path,
		    struct an_diag *d)
{
	int fd = spool_create(d), err;

	if (fd < 0)
		return fd;
	s->spool_fd = fd;
	err = len > spool_max ? too_big(d) : write_all(fd, head, len, d);
	if (!err)
		err = spool_copy(s, fd, len, d);
	if (err)
		return err;
	snprintf(s->spool_path, sizeof(s->spool_path), "/proc/self/fd/%d", fd);
	*path = s->spool_path;
	return 0;
}

void an_source_set_budget(struct an_source *s, uint64_t end)
{
	s->budget = end;
}

bool an_source_is_over(const struct an_source *s)
{
	return s->is_over;
}

uint64_t an_source_offset(const struct an_source *s)
{
	return s->offset;
}

void an_source_close(struct an_source *s)
{
	if (!s)
		return;
	if (s->fp)
		fclose(s->fp);
	if (s->fd >= 0)
		close(s->fd);
	if (s->spool_fd >= 0)
		close(s->spool_fd);
	free(s);
}

void an_source_set_spool_max(uint64_t bytes)
{
	spool_max = bytes ? bytes : AN_SOURCE_SPOOL_MAX;
}
