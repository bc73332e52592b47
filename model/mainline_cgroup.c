// SPDX-License-Identifier: MIT
/*
 * The text of mainline's cpu.uclamp.{min,max} files (uclamp-mainline.md
 * MA10, MA11): the kernel's own parser, quirks included, since a validator
 * must accept exactly what the kernel accepted.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "mainline_cgroup.h"

/* Negative percents fail with ERANGE from 5.6 (b562d1406499). */
#define KV_CG_ERANGE	MODEL_KVER(5, 6, 0)
/* Percent with UCLAMP_PERCENT_SHIFT = 2 decimals. */
#define PCT_DECIMALS	2
#define PCT_UNIT	100u			/* 1.00 % in hundredths */
#define PCT_SCALE	10000u			/* 100.00 % in hundredths */
#define CAPACITY_SHIFT	10			/* SCHED_CAPACITY_SHIFT: 1024 */
#define DECIMAL_BASE	10u
/* Digits of the largest u64, the type the kernel prints the percent with. */
#define U64_DIGITS	20
/* The text for 1024, written and read. */
#define MAX_TEXT	"max"
#define MAX_TEXT_LEN	(sizeof(MAX_TEXT) - 1)
/* The kernel's ctype table counts Latin-1 NBSP as a blank. */
#define LATIN1_NBSP	0xa0

/* The kernel's isspace(): ASCII blanks and Latin-1 NBSP. */
static bool is_space(char c)
{
	unsigned char u = (unsigned char)c;

	return u == ' ' || (u >= '\t' && u <= '\r') || u == LATIN1_NBSP;
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* sscanf("%lld"): skip blanks, optional '-', digits, wrapping like simple_strtoll(). */
static bool scan_ll(const char **p, const char *end, uint64_t *out)
{
	const char *s = *p;
	bool is_neg = false;
	uint64_t v = 0;

	while (s < end && is_space(*s))
		s++;
	if (s < end && *s == '-') {
		is_neg = true;
		s++;
	}
	if (s >= end || !is_digit(*s))
		return false;
	while (s < end && is_digit(*s))
		v = v * DECIMAL_BASE + (uint64_t)(*s++ - '0');
	*out = is_neg ? -v : v;
	*p = s;
	return true;
}

static uint64_t pow10_u64(long n)
{
	uint64_t v = 1;

	while (n-- > 0)
		v *= DECIMAL_BASE;
	return v;
}

/*
 * cgroup_parse_float(buf, 2): sscanf("%lld.%n%lld%n"), extra decimals
 * rounded with DIV_ROUND_CLOSEST_ULL, whose do_div() divides by a u32:
 * 34+ decimals truncate the divisor to 0 (arm64 then yields 0, x86 oopses).
 */
static int parse_float(const char *s, const char *end, int64_t *out)
{
	const char *p = s;
	uint64_t whole, frac = 0, div;
	long fstart = 0, fend = 0, flen;

	if (!scan_ll(&p, end, &whole))
		return -EINVAL;
	if (p < end && *p == '.') {
		p++;
		fstart = p - s;
		if (scan_ll(&p, end, &frac))
			fend = p - s;
	}
	if ((int64_t)frac < 0)
		return -EINVAL;
	flen = fend > fstart ? fend - fstart : 0;
	if (flen < PCT_DECIMALS) {
		frac *= pow10_u64(PCT_DECIMALS - flen);
	} else {
		div = pow10_u64(flen - PCT_DECIMALS);
		frac += div / 2;
		frac = (uint32_t)div ? frac / (uint32_t)div : 0;
	}
	*out = (int64_t)(whole * PCT_UNIT + frac);
	return 0;
}

/**
 * model_mainline_cgroup_parse() - parse a write to cpu.uclamp.{min,max}
 * @kver: release, MODEL_KVER()
 * @buf: the written text
 * @pct100: the percent in hundredths, as the group stores it (u32)
 * @util: the capacity value passed on to the group (before the 11-bit store)
 *
 * Implements MA10: blanks trimmed, "max" is 100.00 % and 1024; else a
 * decimal percent to two decimals (more rounded to closest), then
 * util = DIV_ROUND_CLOSEST(pct100 * 1024, 10000). Kernel quirks kept:
 * trailing junk after the number is ignored, "-0.5" is 0.50 %, and before
 * 5.6 a negative percent is accepted.
 *
 * Return: 0, -EINVAL when no number parses or the decimals are negative,
 * -ERANGE above 100.00 % (or below 0 from 5.6).
 */
int model_mainline_cgroup_parse(unsigned int kver, const char *buf, unsigned int *pct100,
				unsigned int *util)
{
	const char *s = buf, *end;
	int64_t pct;
	uint64_t u;
	int err;

	if (!buf)
		return -EINVAL;
	end = s + strlen(s);
	while (end > s && is_space(end[-1]))
		end--;
	while (s < end && is_space(*s))
		s++;
	if ((size_t)(end - s) == MAX_TEXT_LEN && !memcmp(s, MAX_TEXT, MAX_TEXT_LEN)) {
		*pct100 = PCT_SCALE;
		*util = MODEL_SCALE;
		return 0;
	}
	err = parse_float(s, end, &pct);
	if (err)
		return err;
	if (kver >= KV_CG_ERANGE ? (uint64_t)pct > PCT_SCALE : pct > (int64_t)PCT_SCALE)
		return -ERANGE;
	u = (uint64_t)pct << CAPACITY_SHIFT;
	u = (u + PCT_SCALE / 2) / PCT_SCALE;
	*pct100 = (unsigned int)pct;
	*util = (unsigned int)u;
	return 0;
}

/**
 * model_mainline_cgroup_format() - text of a read of cpu.uclamp.{min,max}
 * @util: the group's requested value
 * @pct100: the percent in hundredths the group stored at its last write
 * @buf: output, NUL-terminated, without the kernel's trailing newline
 * @len: size of @buf
 *
 * Implements MA11: "max" for 1024, else "%llu.%02u" of @pct100.
 *
 * Return: characters written (without the NUL), -EINVAL for no buffer, or
 * -ENOSPC when @len is too small.
 */
int model_mainline_cgroup_format(unsigned int util, unsigned int pct100, char *buf, size_t len)
{
	char tmp[U64_DIGITS + PCT_DECIMALS + 2];
	size_t n = sizeof(tmp);
	unsigned int whole = pct100 / PCT_UNIT, rem = pct100 % PCT_UNIT;

	if (!buf)
		return -EINVAL;
	if (util == MODEL_SCALE) {
		memcpy(tmp, MAX_TEXT, MAX_TEXT_LEN);
		n = MAX_TEXT_LEN;
	} else {
		/* build from the right: two decimals, the point, the integer part */
		tmp[--n] = (char)('0' + rem % DECIMAL_BASE);
		tmp[--n] = (char)('0' + rem / DECIMAL_BASE);
		tmp[--n] = '.';
		do {
			tmp[--n] = (char)('0' + whole % DECIMAL_BASE);
			whole /= DECIMAL_BASE;
		} while (whole);
		memmove(tmp, tmp + n, sizeof(tmp) - n);
		n = sizeof(tmp) - n;
	}
	if (len < n + 1)
		return -ENOSPC;
	memcpy(buf, tmp, n);
	buf[n] = '\0';
	return (int)n;
}

/**
 * model_tg_text() - the text a user writes into a group's clamp file for @value
 * @variant: v3 writes the value itself into cpu.util.{min,max} (VA10);
 *	     mainline a percent with two decimals into cpu.uclamp.{min,max},
 *	     "max" for the full scale (MA10, MA11)
 * @value: the clamp value, 0..MODEL_SCALE (above is taken as MODEL_SCALE)
 * @buf: output, NUL-terminated
 * @len: size of @buf
 *
 * model_tg_write() of this text gives @value back on mainline up to the
 * rounding of MA10, exactly on v3.
 *
 * Return: characters written (without the NUL), -EINVAL for no buffer, or
 * -ENOSPC when @len is too small.
 */
int model_tg_text(enum model_variant variant, unsigned int value, char *buf, size_t len)
{
	char tmp[U64_DIGITS + 1];
	size_t n = sizeof(tmp);

	if (value > MODEL_SCALE)
		value = MODEL_SCALE;
	if (variant == MODEL_MAINLINE)
		return model_mainline_cgroup_format(value, (value * PCT_SCALE + MODEL_SCALE / 2) /
						    MODEL_SCALE, buf, len);
	if (!buf)
		return -EINVAL;
	do {
		tmp[--n] = (char)('0' + value % DECIMAL_BASE);
		value /= DECIMAL_BASE;
	} while (value);
	if (len < sizeof(tmp) - n + 1)
		return -ENOSPC;
	memcpy(buf, tmp + n, sizeof(tmp) - n);
	buf[sizeof(tmp) - n] = '\0';
	return (int)(sizeof(tmp) - n);
}
