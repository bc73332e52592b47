// SPDX-License-Identifier: MIT
/*
 * `ucval merge OUT.db SHARD.db...`: combine the results databases of many
 * machines into one (analyze/store/merge.h, docs/fleets.md).
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "analyze/store/db.h"
#include "analyze/store/merge.h"
#include "lib/utf8.h"
#include "ucval.h"

static const char merge_usage[] =
	"usage: ucval merge [options] OUT.db SHARD.db...\n"
	"\n"
	"Combine the results databases of `ucval analyze --db` (shards, from any\n"
	"number of machines) into OUT.db, created if needed. Every table of a\n"
	"trace is carried, labels included; a trace with the same sha256 and\n"
	"options as one already there replaces it, as analyze does, so merging\n"
	"again changes nothing. OUT.db is written as a temporary file beside it\n"
	"and renamed at the end: interrupted, it is left as it was. No ucval may\n"
	"be writing OUT.db meanwhile. The shards are only read.\n"
	"\n"
	"  -q, --quiet   no summary line on standard error\n"
	"  -h, --help    this text\n"
	"\n"
	"exit status: 0 merged; 2 bad usage, a shard of another schema version,\n"
	"a file that is not a ucval results database, or an output that cannot\n"
	"be written (docs/fleets.md)\n";

static const struct option merge_options[] = {
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/**
 * cmd_merge() - `ucval merge`
 * @argc: arguments from "merge" on
 * @argv: the arguments
 *
 * Return: 0 merged, 2 otherwise (the output as it was).
 */
int cmd_merge(int argc, char **argv)
{
	struct an_merge_stats st;
	struct an_diag d;
	char line[1024];
	bool is_quiet = false;
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "hq", merge_options, NULL)) != -1) {
		switch (c) {
		case 'q':
			is_quiet = true;
			break;
		case 'h':
			fputs(merge_usage, stdout);
			return UCVAL_EXIT_OK;
		default:
			fputs("ucval merge: unknown option '", stderr);
			an_utf8_fputs(stderr, argv[optind - 1], 0);
			fprintf(stderr, "'\n\n%s", merge_usage);
			return UCVAL_EXIT_USAGE;
		}
	}
	if (argc - optind < 2) {
		fprintf(stderr, "ucval merge: expects OUT.db and at least one SHARD.db\n\n%s",
			merge_usage);
		return UCVAL_EXIT_USAGE;
	}
	an_db_setup_process();
	if (an_merge(argv[optind], argv + optind + 1, argc - optind - 1, &st, &d)) {
		an_diag_format(&d, line, sizeof(line));
		fprintf(stderr, "ucval merge: %s\n", line);
		return UCVAL_EXIT_USAGE;
	}
	if (!is_quiet)
		fprintf(stderr, "ucval merge: %llu traces from %d shards (%llu replaced one "
			"already there), %llu rows\n", (unsigned long long)st.nr_traces,
			argc - optind - 1, (unsigned long long)st.nr_replaced,
			(unsigned long long)st.nr_rows);
	return UCVAL_EXIT_OK;
}
