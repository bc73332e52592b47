// SPDX-License-Identifier: MIT
/*
 * ucval: main() and the command table (STYLE.md §1). Standard output is
 * checked once a command is done (lib/stdout.h), whatever the command.
 */
#include <stdio.h>
#include <string.h>

#include "lib/stdout.h"
#include "ucval.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const struct ucval_cmd commands[] = {
	{ "analyze", cmd_analyze, "replay traces against the model; verdicts, windows, SQLite" },
	{ "collect", cmd_collect, "record sched, cpufreq and uclamp events into a trace.dat" },
	{ "merge", cmd_merge, "combine the databases of many machines into one" },
	{ "model", cmd_model, "what-if: expected frequency and rq clamps from the reference model" },
	{ "report", cmd_report, "text, markdown, HTML, JSON, JUnit or Perfetto reports from a database" },
	{ "synth", cmd_synth, "write a synthetic trace decided by the model, clean or with a fault" },
};

static void usage(FILE *out)
{
	fputs("usage: ucval [--help | --version] <command> [<args>]\n"
	      "\n"
	      "Check, from traces, whether a kernel's utilization clamping (uclamp)\n"
	      "and schedutil behave as specified.\n"
	      "\n"
	      "commands:\n", out);
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fputs("\n'ucval <command> --help' describes a command.\n"
	      "exit status: 0 ok, 1 a check failed, 2 bad usage or input, 3 undecided\n", out);
}

/*
 * What a command whose output did not all reach standard output returns:
 * 2, whatever its result was, since that result is lost.
 */
static int finish(const char *cmd, int status)
{
	return an_stdout_close(cmd) ? UCVAL_EXIT_USAGE : status;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return finish(NULL, UCVAL_EXIT_USAGE);
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return finish(NULL, UCVAL_EXIT_OK);
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		printf("ucval %s\n", UCVAL_VERSION);
		return finish(NULL, UCVAL_EXIT_OK);
	}
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(argv[1], commands[i].name))
			return finish(commands[i].name, commands[i].fn(argc - 1, argv + 1));
	fprintf(stderr, "ucval: '%s' is not a command\n\n", argv[1]);
	usage(stderr);
	return finish(NULL, UCVAL_EXIT_USAGE);
}
