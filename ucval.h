/* SPDX-License-Identifier: MIT */
/*
 * The subcommands of the ucval binary and the exit codes they return
 * (events.md §4). Each command lives in cmd_<name>.c in the directory that
 * owns it, parses its options, calls the library and prints. The exit codes
 * are in lib/exit.h, for the code that decides a status on a command's behalf.
 */
#ifndef UCVAL_H
#define UCVAL_H

#include "lib/exit.h"

struct ucval_cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;		/* one line for `ucval --help` */
};

int cmd_analyze(int argc, char **argv);
int cmd_collect(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_model(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_synth(int argc, char **argv);

#endif /* UCVAL_H */
