/* SPDX-License-Identifier: MIT */
/*
 * The subcommands of the ucval binary and the exit codes they return
 * (events.md §4). Each command lives in cmd_<name>.c in the directory that
 * owns it, parses its options, calls the library and prints.
 */
#ifndef UCVAL_H
#define UCVAL_H

enum ucval_exit {
	UCVAL_EXIT_OK = 0,		/* every check PASS or UNDECIDED for lack of input */
	UCVAL_EXIT_FAIL = 1,		/* at least one FAIL */
	UCVAL_EXIT_USAGE = 2,		/* bad usage or unreadable input */
	UCVAL_EXIT_UNDECIDED = 3,	/* only UNDECIDED windows that hide a possible failure */
};

struct ucval_cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;		/* one line for `ucval --help` */
};

int ucval_parse_num(const char *cmd, const char *what, const char *s, unsigned long long min,
		    unsigned long long max, unsigned long long *out);

int cmd_analyze(int argc, char **argv);
int cmd_collect(int argc, char **argv);
int cmd_model(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_synth(int argc, char **argv);

#endif /* UCVAL_H */
