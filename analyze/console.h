/* SPDX-License-Identifier: MIT */
/*
 * analyze/console.h - the terminal table of `ucval analyze`: per trace, a
 * summary line, the verdict of each check, the first FAIL windows and the
 * analysis' notes.
 */
#ifndef UCVAL_ANALYZE_CONSOLE_H
#define UCVAL_ANALYZE_CONSOLE_H

#include <stdio.h>

#include "analyze/tracerun.h"

/* Most FAIL windows printed per check; the others are counted. */
#define AN_TABLE_SHOW_WINDOWS	5

/**
 * an_console_print() - print the table of an analyzed trace
 * @out: the stream
 * @t: a run an_tracerun_conclude() finished; its windows are read again
 *     (hence not const), nothing else changes
 *
 * Return: 0, or -EIO when @out's error flag is set (the table is not whole).
 */
int an_console_print(FILE *out, struct an_tracerun *t);

#endif /* UCVAL_ANALYZE_CONSOLE_H */
