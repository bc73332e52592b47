// SPDX-License-Identifier: MIT
/*
 * lib/stdout.c - standard output's write errors (stdout.h): the first
 * failure is remembered, since the stream's error flag keeps no reason and
 * a later flush may have nothing left to fail on.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdio_ext.h>

#include "lib/diag.h"
#include "lib/stdout.h"

static bool is_failed;		/* standard output lost something */
static int first_err;		/* why, a negative errno; 0 unknown */
static bool is_reported;	/* the message is out */

void an_stdout_fail(const char *cmd, int err)
{
	if (!is_failed) {
		is_failed = true;
		first_err = err;
	} else if (!first_err) {
		first_err = err;
	}
	if (is_reported)
		return;
	is_reported = true;
	fprintf(stderr, "ucval%s%s: cannot write standard output%s%s\n", cmd ? " " : "",
		cmd ? cmd : "", first_err ? ": " : "", first_err ? an_error_str(first_err) : "");
}

/* The failure recorded, as a return value. */
static int failure(void)
{
	return first_err ? first_err : -EIO;
}

int an_stdout_flush(const char *cmd)
{
	errno = 0;
	if (!fflush(stdout) && !ferror(stdout) && !is_failed)
		return 0;
	an_stdout_fail(cmd, errno ? -errno : 0);
	return failure();
}

int an_stdout_close(const char *cmd)
{
	bool is_pending = __fpending(stdout) != 0;
	bool was_bad = ferror(stdout) || is_failed;

	errno = 0;
	if (fclose(stdout)) {
		/* closed from the start and never written to: nothing was lost */
		if (errno == EBADF && !is_pending && !was_bad)
			return 0;
		an_stdout_fail(cmd, errno ? -errno : 0);
		return failure();
	}
	if (!was_bad)
		return 0;
	an_stdout_fail(cmd, 0);
	return failure();
}
