/* SPDX-License-Identifier: MIT */
/*
 * lib/optnum.h - the one parser of whole-number option values, shared by
 * every command so that each says the same thing about a bad number.
 */
#ifndef UCVAL_LIB_OPTNUM_H
#define UCVAL_LIB_OPTNUM_H

/**
 * an_optnum_parse() - a whole decimal number option within [@min, @max]
 * @cmd: the command, for the message ("analyze", "model rq")
 * @what: the option, for the message ("--grace-us")
 * @s: its text: digits only (no sign, no space, no suffix)
 * @min: smallest accepted value
 * @max: largest accepted value
 * @out: the value
 *
 * Return: 0, or -1 after printing on stderr what was expected and what was
 * given ("ucval analyze: -j expects a whole number from 1 to 64, got '0'").
 */
int an_optnum_parse(const char *cmd, const char *what, const char *s, unsigned long long min,
		    unsigned long long max, unsigned long long *out);

#endif /* UCVAL_LIB_OPTNUM_H */
