// SPDX-License-Identifier: MIT
/*
 * `ucval synth`: write a synthetic trace whose clamps and frequencies come
 * from the reference model (collect/synth/synth.h), clean or with one kernel bug,
 * and the truth file saying where that bug shows.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collect/synth/synth.h"
#include "lib/modelopt.h"
#include "lib/optnum.h"
#include "ucval.h"

static const char synth_usage[] =
	"usage: ucval synth -o FILE [options]\n"
	"\n"
	"Write a synthetic trace: CPUs in cpufreq policies (platform and cpu markers),\n"
	"tasks that run, sleep, fork, exit and migrate, their clamp requests, task\n"
	"groups and system defaults, the rq clamps and utilization the kernel would\n"
	"show (uclamp_util_cfs, uclamp_task_eff), and the frequencies schedutil\n"
	"chooses, all decided by the reference model. The clean trace passes every\n"
	"check of 'ucval analyze'; --fault makes the synthetic kernel misbehave.\n"
	"The same options give the same bytes.\n"
	"\n"
	"  -o, --output FILE  trace to write (required)\n"
	"  --format F         dat (trace.dat v6), text (ftrace text) or pftrace\n"
	"                     (Perfetto: ftrace event bundles per CPU); default:\n"
	"                     text when FILE ends in .txt, pftrace in .pftrace or\n"
	"                     .perfetto-trace, else dat\n"
	"  --seed N           seed of every random choice (default 1)\n"
	"  --events N         events to write (default 100000)\n"
	"  --cpus N           CPUs (default 4, at most 256)\n"
	"  --policies N       cpufreq policies, CPUs split evenly (default 2)\n"
	"  --tasks N          most tasks alive at once (default 3 per CPU); a quarter\n"
	"                     of them are forked and exit\n"
	"  --model M          v3 or mainline (default mainline: 6.1 rules)\n"
	"  --fault KIND       the kernel bug to inject (--fault list shows them)\n"
	"  --truth FILE       write where the fault shows: one window per line,\n"
	"                     'check_id cpu ts_start_ns ts_end_ns rule', and a sixth\n"
	"                     word 'may' when a checker's grace may hide it\n"
	"  -q, --quiet        no summary\n"
	"  -h, --help         this text\n"
	"\n"
	"exit status: 0 written, 2 bad usage or the file cannot be written\n";

enum { OPT_FORMAT = 256, OPT_SEED, OPT_EVENTS, OPT_CPUS, OPT_POLICIES, OPT_TASKS, OPT_FAULT,
       OPT_TRUTH };

static const struct option synth_options[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "events", required_argument, NULL, OPT_EVENTS },
	{ "cpus", required_argument, NULL, OPT_CPUS },
	{ "policies", required_argument, NULL, OPT_POLICIES },
	{ "tasks", required_argument, NULL, OPT_TASKS },
	AN_MODELOPT_OPTION_MODEL,
	{ "fault", required_argument, NULL, OPT_FAULT },
	{ "truth", required_argument, NULL, OPT_TRUTH },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static void list_faults(void)
{
	for (int f = 1; f < COL_SYNTH_FAULT__COUNT; f++)
		printf("%-18s %s (%s)\n", col_synth_fault_name(f), col_synth_fault_text(f),
		       col_synth_fault_checks(f));
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && !strcmp(s + n - k, suffix);
}

/* 0 to run, 1 done (help, list), -1 bad usage. */
static int parse_format(const char *s, enum col_synth_format *out)
{
	static const struct {
		const char *name;
		enum col_synth_format format;
	} formats[] = {
		{ "dat", COL_SYNTH_DAT },
		{ "text", COL_SYNTH_TEXT },
		{ "pftrace", COL_SYNTH_PFTRACE },
	};

	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
		if (!strcmp(s, formats[i].name)) {
			*out = formats[i].format;
			return 0;
		}
	}
	fprintf(stderr, "ucval synth: --format expects dat, text or pftrace, got '%s'\n", s);
	return -1;
}

static int parse_opts(int argc, char **argv, struct col_synth_opts *o, bool *is_quiet)
{
	struct an_modelopt mo = { 0 };
	bool has_format = false;
	unsigned long long v;
	int c;

	col_synth_defaults(o);
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "o:qh", synth_options, NULL)) != -1) {
		int shared = an_modelopt_parse(&mo, "synth", c, optarg);

		if (shared < 0)
			return -1;
		if (!shared)
			continue;
		switch (c) {
		case 'o':
			o->out_path = optarg;
			break;
		case OPT_FORMAT:
			if (parse_format(optarg, &o->format))
				return -1;
			has_format = true;
			break;
		case OPT_SEED:
			if (an_optnum_parse("synth", "--seed", optarg, 0, UINT64_MAX, &v))
				return -1;
			o->seed = v;
			break;
		case OPT_EVENTS:
			if (an_optnum_parse("synth", "--events", optarg, 0, UINT64_MAX, &v))
				return -1;
			o->nr_events = v;
			break;
		case OPT_CPUS:
			if (an_optnum_parse("synth", "--cpus", optarg, 0, COL_SYNTH_MAX_CPUS, &v))
				return -1;
			o->nr_cpus = (unsigned int)v;
			break;
		case OPT_POLICIES:
			if (an_optnum_parse("synth", "--policies", optarg, 0, COL_SYNTH_MAX_CPUS, &v))
				return -1;
			o->nr_policies = (unsigned int)v;
			break;
		case OPT_TASKS:
			if (an_optnum_parse("synth", "--tasks", optarg, 0, COL_SYNTH_MAX_TASKS, &v))
				return -1;
			o->nr_tasks = (unsigned int)v;
			break;
		case OPT_FAULT:
			if (!strcmp(optarg, "list")) {
				list_faults();
				return 1;
			}
			if (col_synth_fault_parse(optarg, &o->fault)) {
				fprintf(stderr, "ucval synth: unknown fault '%s'; 'ucval synth --fault "
					"list' shows them\n", optarg);
				return -1;
			}
			break;
		case OPT_TRUTH:
			o->truth_path = optarg;
			break;
		case 'q':
			*is_quiet = true;
			break;
		case 'h':
			fputs(synth_usage, stdout);
			return 1;
		default:
			fprintf(stderr, "ucval synth: unknown option or missing value '%s'\n\n%s",
				argv[optind - 1], synth_usage);
			return -1;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "ucval synth: unexpected argument '%s'\n\n%s", argv[optind],
			synth_usage);
		return -1;
	}
	if (!o->out_path) {
		fprintf(stderr, "ucval synth: no output file (-o FILE)\n\n%s", synth_usage);
		return -1;
	}
	if (mo.has_variant)
		o->variant = mo.variant;
	if (!has_format && ends_with(o->out_path, ".txt"))
		o->format = COL_SYNTH_TEXT;
	if (!has_format && (ends_with(o->out_path, ".pftrace") ||
			    ends_with(o->out_path, ".perfetto-trace")))
		o->format = COL_SYNTH_PFTRACE;
	return 0;
}

int cmd_synth(int argc, char **argv)
{
	struct col_synth_opts o;
	struct col_synth_stats st = { 0 };	/* gcc -flto cannot see it filled */
	struct an_diag d;
	bool is_quiet = false;
	char line[1024];
	int rc = parse_opts(argc, argv, &o, &is_quiet);

	if (rc)
		return rc > 0 ? UCVAL_EXIT_OK : UCVAL_EXIT_USAGE;
	an_diag_clear(&d);
	if (col_synth_check(&o, &d)) {
		fprintf(stderr, "ucval synth: %s\n", d.message);
		return UCVAL_EXIT_USAGE;
	}
	if (col_synth_run(&o, &st, &d)) {
		an_diag_format(&d, line, sizeof(line));
		fprintf(stderr, "ucval synth: %s\n", line);
		return UCVAL_EXIT_USAGE;
	}
	if (!is_quiet) {
		fprintf(stderr, "ucval synth: wrote '%s': %llu events, %llu tasks, %.6f s of trace",
			o.out_path, (unsigned long long)st.nr_events,
			(unsigned long long)st.nr_tasks_seen,
			(double)(st.t_end_ns - st.t_start_ns) / 1e9);
		if (o.fault != COL_SYNTH_FAULT_NONE)
			fprintf(stderr, "; fault %s: %llu windows a checker must find, %llu it may",
				col_synth_fault_name(o.fault), (unsigned long long)st.nr_truth,
				(unsigned long long)st.nr_truth_may);
		if (st.nr_dropped)
			fprintf(stderr, ", %llu events dropped", (unsigned long long)st.nr_dropped);
		fputc('\n', stderr);
	}
	return UCVAL_EXIT_OK;
}
