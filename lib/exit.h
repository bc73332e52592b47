/* SPDX-License-Identifier: MIT */
/*
 * lib/exit.h - the exit statuses of every ucval command (events.md §4), for
 * the commands and for the code that decides a status on their behalf
 * (analyze/run.c, analyze/tracerun.c).
 */
#ifndef UCVAL_LIB_EXIT_H
#define UCVAL_LIB_EXIT_H

enum ucval_exit {
	UCVAL_EXIT_OK = 0,		/* every check PASS or UNDECIDED for lack of input */
	UCVAL_EXIT_FAIL = 1,		/* at least one FAIL */
	UCVAL_EXIT_USAGE = 2,		/* bad usage or unreadable input */
	UCVAL_EXIT_UNDECIDED = 3,	/* only UNDECIDED windows that hide a possible failure */
};

#endif /* UCVAL_LIB_EXIT_H */
