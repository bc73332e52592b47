// SPDX-License-Identifier: MIT
/*
 * lib/optnum.c - whole-number option values: strtoull() with the checks it
 * leaves out (a sign, leading space, trailing text, overflow, the range).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "lib/optnum.h"

int an_optnum_parse(const char *cmd, const char *what, const char *s, unsigned long long min,
		    unsigned long long max, unsigned long long *out)
{
	unsigned long long v = 0;
	char *end = NULL;

	errno = 0;
	if (s && *s >= '0' && *s <= '9')
		v = strtoull(s, &end, 10);
	if (!end || errno || *end || v < min || v > max) {
		fprintf(stderr, "ucval %s: %s expects a whole number from %llu to %llu, got '%s'\n",
			cmd, what, min, max, s ? s : "");
		return -1;
	}
	*out = v;
	return 0;
}
