// SPDX-License-Identifier: MIT
/*
 * The text of the v3 cgroup files cpu.util.{min,max} (uclamp-v3.md VA9-VA11):
 * cgroup's write_u64 parser, kstrtoull(buf, 0), and its "%llu" read, so that a
 * validator accepts exactly what the kernel accepted.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>

#include "v3_cgroup.h"

/* kstrtoull(buf, 0) radix detection. */
#define RADIX_OCT		8
#define RADIX_DEC		10
#define RADIX_HEX		16
/* Decimal digits of the largest unsigned int a read prints. */
#define UINT_DIGITS		10

static bool digit_value(char c, unsigned int *d)
{
	if (c >= '0' && c <= '9')
		*d = (unsigned int)(c - '0');
	else if (c >= 'a' && c <= 'f')
		*d = (unsigned int)(c - 'a') + RADIX_DEC;
	else if (c >= 'A' && c <= 'F')
		*d = (unsigned int)(c - 'A') + RADIX_DEC;
	else
		return false;
	return true;
}

/**
 * model_v3_cgroup_parse() - parse a write to cpu.util.{min,max}
 * @buf: what was written, NUL-terminated
 * @value: the number, set only on success
 *
 * Implements the parsing step of VA10: kstrtoull(buf, 0) as cgroup's
 * write_u64 calls it. An optional '+', then "0x" for hex, a leading 0 for
 * octal, else decimal; one trailing newline. There is no '-': a negative is
 * -EINVAL, not a huge number.
 *
 * Return: 0, -EINVAL for no digits or trailing text, -ERANGE beyond u64.
 */
int model_v3_cgroup_parse(const char *buf, unsigned long long *value)
{
	unsigned int radix = RADIX_DEC, d;
	unsigned long long v = 0;
	bool is_overflow = false;
	const char *s = buf, *start;

	if (!s)
		return -EINVAL;
	if (*s == '+')
		s++;
	if (s[0] == '0') {
		radix = RADIX_OCT;
		if ((s[1] == 'x' || s[1] == 'X') && digit_value(s[2], &d)) {
			radix = RADIX_HEX;
			s += 2;
		}
	}
	for (start = s; digit_value(*s, &d) && d < radix; s++) {
		if (v > (ULLONG_MAX - d) / radix)
			is_overflow = true;
		v = v * radix + d;
	}
	if (is_overflow)
		return -ERANGE;
	if (s == start)
		return -EINVAL;
	if (*s == '\n')
		s++;
	if (*s)
		return -EINVAL;
	*value = v;
	return 0;
}

/**
 * model_v3_cgroup_format() - text of a read of cpu.util.{min,max}
 * @value: the value in ABI units (percent from p14, VA11)
 * @buf: output, NUL-terminated, without the kernel's trailing newline
 * @len: size of @buf
 *
 * Implements the printing step of VA11: "%llu".
 *
 * Return: characters written (without the NUL), -EINVAL for no buffer, or
 * -ENOSPC when @len is too small.
 */
int model_v3_cgroup_format(unsigned int value, char *buf, size_t len)
{
	char digits[UINT_DIGITS];
	size_t n = 0, i = 0;

	if (!buf)
		return -EINVAL;
	do {
		digits[n++] = (char)('0' + value % RADIX_DEC);
		value /= RADIX_DEC;
	} while (value);
	if (len < n + 1)
		return -ENOSPC;
	while (n)
		buf[i++] = digits[--n];
	buf[i] = '\0';
	return (int)i;
}
