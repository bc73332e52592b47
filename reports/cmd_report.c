// SPDX-License-Identifier: MIT
/*
 * `ucval report`: reports from the results database of `ucval analyze --db`
 * (text, markdown, HTML, JSON, JUnit) and the difference between two traces.
 * It reads the database only; traces are never parsed again.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reports/diff.h"
#include "reports/fleet.h"
#include "reports/html.h"
#include "reports/jsonrep.h"
#include "reports/junit.h"
#include "reports/perfetto.h"
#include "lib/outfile.h"
#include "reports/rdb.h"
#include "reports/summary.h"
#include "lib/optnum.h"
#include "lib/stdout.h"
#include "lib/utf8.h"
#include "ucval.h"

static const char report_usage[] =
	"usage: ucval report [options] DB\n"
	"       ucval report --diff [options] DB A B\n"
	"\n"
	"Report what 'ucval analyze --db DB' stored: per trace its header, the\n"
	"verdict of each check, the longest mismatch windows per check (CPU, task,\n"
	"start relative to the trace and in raw ns, duration, expected and observed\n"
	"values, spec rule, message, the model's explanation chain) and the\n"
	"frequency residency. The traces themselves are not read again.\n"
	"\n"
	"  --trace ID|PATH   only this trace: its trace_id, or its path as analyze\n"
	"                    stored it (or the path's last components)\n"
	"  --format F        text (default), md (GitHub markdown, for a PR comment),\n"
	"                    html (one self-contained file with plots per CPU),\n"
	"                    json (everything, for other tools), junit (a test\n"
	"                    suite per trace, a test case per check) or perfetto\n"
	"                    (one trace for ui.perfetto.dev: its events with the\n"
	"                    findings as tracks: a slice per mismatch or undecided\n"
	"                    window, counters of the observed, expected, floor and\n"
	"                    ceiling frequency per policy; the trace is read again\n"
	"                    and must be unchanged; needs -o FILE)\n"
	"  -o, --output FILE write FILE instead of standard output; a regular file\n"
	"                    is written beside it and renamed when complete (its\n"
	"                    mode and owner kept, a symlink followed); a device,\n"
	"                    a FIFO or /dev/stdout is written in place; never the\n"
	"                    database itself, nor the trace (perfetto)\n"
	"  --top N           mismatch windows shown per check (default 5, 0: all);\n"
	"                    json lists every window unless --top is given\n"
	"  --diff            compare trace B with trace A (ids or paths): checks\n"
	"                    whose verdict changed, mismatch windows per check,\n"
	"                    residency shift per policy and OPP in percentage\n"
	"                    points (formats text, md, json)\n"
	"  --group-by LABEL  per value of the label (`analyze --tag`): its traces,\n"
	"                    per check the failure rate (traces with FAIL / decided\n"
	"                    traces) with its 95 % Wilson interval, mismatch windows\n"
	"                    per hour of trace, the rules that fail most, the\n"
	"                    longest windows (--top of each; formats text, md,\n"
	"                    html, json)\n"
	"  --compare LABEL=A,B  per check the failure rates of groups A and B, the\n"
	"                    difference B - A with Newcombe's hybrid score interval,\n"
	"                    Fisher's exact p and a verdict: worse, better (p <\n"
	"                    alpha) or no evidence; exit 1 when a check is worse\n"
	"                    (formats text, md, html, json; junit: a test case per\n"
	"                    check, failed when worse)\n"
	"  --alpha P         threshold of --compare, 0 < P < 0.5 (default 0.05)\n"
	"  -h, --help        this text\n"
	"\n"
	"Databases of schema 1 (before ucval recorded tasks, policies, intervals\n"
	"and residency) are read too: those sections say \"not recorded\". Schema 2\n"
	"(intervals one row each) and 3 (in chunks, through views) read alike.\n"
	"\n"
	"exit status: 0 report written; 1 --compare found a check worse in B; 2\n"
	"bad usage or input: no such file, not a ucval database, no label, a\n"
	"group no trace has, a database written by a newer ucval, no traces in it, an\n"
	"unknown or ambiguous trace, an output that cannot be written; perfetto:\n"
	"more than one trace without --trace, the trace missing or changed since\n"
	"its analysis\n";

/* Mismatch windows per check unless --top says otherwise. */
#define DEFAULT_TOP	5
/* Largest --top: more is "all" anyway. */
#define MAX_TOP		1000000

enum rep_format { FMT_TEXT, FMT_MD, FMT_HTML, FMT_JSON, FMT_JUNIT, FMT_PERFETTO };

static const char *const format_name[] = {
	[FMT_TEXT] = "text", [FMT_MD] = "md", [FMT_HTML] = "html", [FMT_JSON] = "json",
	[FMT_JUNIT] = "junit", [FMT_PERFETTO] = "perfetto",
};

enum { OPT_TRACE = 256, OPT_FORMAT, OPT_TOP, OPT_DIFF, OPT_GROUP_BY, OPT_COMPARE, OPT_ALPHA };

static const struct option report_options[] = {
	{ "trace", required_argument, NULL, OPT_TRACE },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "output", required_argument, NULL, 'o' },
	{ "top", required_argument, NULL, OPT_TOP },
	{ "diff", no_argument, NULL, OPT_DIFF },
	{ "group-by", required_argument, NULL, OPT_GROUP_BY },
	{ "compare", required_argument, NULL, OPT_COMPARE },
	{ "alpha", required_argument, NULL, OPT_ALPHA },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

struct cmd_opts {
	const char *db_path;
	const char *trace;
	const char *output;
	const char *diff[2];
	enum rep_format format;
	unsigned int top;
	bool has_top;
	bool is_diff;
	const char *label;		/* --group-by, or --compare's LABEL */
	const char *group_by;
	char cmp_buf[256];		/* --compare's argument, split in place */
	const char *cmp[2];		/* --compare's A and B, NULL without */
	double alpha;
};

/* @fmt has one %s, for @arg: an argument shown escaped (lib/utf8.h). */
static int usage_error(const char *fmt, const char *arg)
{
	char shown[PATH_MAX];

	an_utf8_escape(shown, sizeof(shown), arg, 0);
	fputs("ucval report: ", stderr);
	fprintf(stderr, fmt, shown);
	fprintf(stderr, "\n\n%s", report_usage);
	return UCVAL_EXIT_USAGE;
}

static int parse_format(const char *s, enum rep_format *out)
{
	for (size_t i = 0; i < sizeof(format_name) / sizeof(format_name[0]); i++) {
		if (!strcmp(s, format_name[i])) {
			*out = (enum rep_format)i;
			return 0;
		}
	}
	return usage_error("--format expects text, md, html, json, junit or perfetto, not '%s'", s);
}

static int parse_top(const char *s, struct cmd_opts *o)
{
	unsigned long long v;

	if (an_optnum_parse("report", "--top", s, 0, MAX_TOP, &v)) {
		fprintf(stderr, "\n%s", report_usage);
		return UCVAL_EXIT_USAGE;
	}
	o->top = (unsigned int)v;
	o->has_top = true;
	return 0;
}

static bool is_label_key(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_'))
			return false;
	return true;
}

/* --compare LABEL=A,B: A and B non-empty and different. */
static int parse_compare(const char *arg, struct cmd_opts *o)
{
	char *eq, *comma;

	if (strlen(arg) >= sizeof(o->cmp_buf))
		return usage_error("--compare '%s' is too long", arg);
	strcpy(o->cmp_buf, arg);
	eq = strchr(o->cmp_buf, '=');
	comma = eq ? strrchr(eq + 1, ',') : NULL;
	if (!eq || !comma)
		return usage_error("--compare expects LABEL=A,B, not '%s'", arg);
	*eq = *comma = '\0';
	if (!is_label_key(o->cmp_buf) || !eq[1] || !comma[1] || !strcmp(eq + 1, comma + 1))
		return usage_error("--compare expects LABEL=A,B (LABEL of a-z, 0-9 and _; A and B "
				   "two different values), not '%s'", arg);
	o->cmp[0] = eq + 1;
	o->cmp[1] = comma + 1;
	return 0;
}

static int parse_alpha(const char *arg, struct cmd_opts *o)
{
	char *end;

	errno = 0;
	o->alpha = strtod(arg, &end);
	if (errno || end == arg || *end || !(o->alpha > 0 && o->alpha < 0.5))
		return usage_error("--alpha expects a number above 0 and below 0.5, not '%s'", arg);
	return 0;
}

static int parse_option(int c, struct cmd_opts *o)
{
	switch (c) {
	case OPT_TRACE:
		o->trace = optarg;
		return 0;
	case OPT_FORMAT:
		return parse_format(optarg, &o->format);
	case 'o':
		o->output = optarg;
		return 0;
	case OPT_TOP:
		return parse_top(optarg, o);
	case OPT_DIFF:
		o->is_diff = true;
		return 0;
	case OPT_GROUP_BY:
		if (!is_label_key(optarg))
			return usage_error("--group-by expects a label (a-z, 0-9 and _), not '%s'",
					   optarg);
		o->group_by = optarg;
		return 0;
	case OPT_COMPARE:
		return parse_compare(optarg, o);
	case OPT_ALPHA:
		return parse_alpha(optarg, o);
	case 'h':
		fputs(report_usage, stdout);
		return -1;
	default:
		return usage_error("%s", "unknown option or missing argument");
	}
}

/* --group-by and --compare: with what they go, in which formats. */
static int check_fleet(struct cmd_opts *o)
{
	const char *what = o->cmp[0] ? "--compare" : "--group-by";

	if (o->alpha >= 0 && !o->cmp[0])
		return usage_error("%s", "--alpha goes with --compare");
	if (o->alpha < 0)
		o->alpha = REP_FLEET_ALPHA;
	if (o->group_by && o->cmp[0])
		return usage_error("%s", "--group-by and --compare do not go together");
	o->label = o->cmp[0] ? o->cmp_buf : o->group_by;
	if (!o->label)
		return 0;
	if (o->is_diff || o->trace)
		return usage_error("%s do not go with --diff or --trace", what);
	if ((o->format == FMT_JUNIT && !o->cmp[0]) || o->format == FMT_PERFETTO) {
		fprintf(stderr, "ucval report: %s writes %s, not %s\n\n%s", what,
			o->cmp[0] ? "text, md, html, json or junit" :
			"text, md, html or json (junit: --compare only)",
			format_name[o->format], report_usage);
		return UCVAL_EXIT_USAGE;
	}
	return 0;
}

/* Options, then DB (and A B with --diff). Return: 0, an exit status, or -1 (help). */
static int parse_args(int argc, char **argv, struct cmd_opts *o)
{
	int c, err, want;

	*o = (struct cmd_opts){ .format = FMT_TEXT, .top = DEFAULT_TOP, .alpha = -1 };
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "o:h", report_options, NULL)) != -1) {
		if (c == '?')
			return usage_error("unknown option '%s'", argv[optind - 1]);
		err = parse_option(c, o);
		if (err)
			return err;
	}
	want = o->is_diff ? 3 : 1;
	if (argc - optind != want)
		return usage_error("%s", o->is_diff ? "--diff expects DB A B" :
				   "expects one database, DB");
	o->db_path = argv[optind];
	if (o->output && rep_outfile_is_same(o->output, o->db_path))
		return usage_error("-o '%s' is the database itself", o->output);
	if (o->is_diff) {
		o->diff[0] = argv[optind + 1];
		o->diff[1] = argv[optind + 2];
		if (o->trace)
			return usage_error("%s", "--trace and --diff do not go together");
		if (o->format == FMT_HTML || o->format == FMT_JUNIT || o->format == FMT_PERFETTO)
			return usage_error("--diff writes text, md or json, not %s",
					   format_name[o->format]);
	}
	err = check_fleet(o);
	if (err)
		return err;
	if (o->format == FMT_PERFETTO && !o->output)
		return usage_error("%s", "--format perfetto writes a binary trace: give -o FILE");
	return 0;
}

static int print_diag(const struct an_diag *d)
{
	char line[AN_DIAG_FILE_LEN + AN_DIAG_MSG_LEN + 64];

	an_diag_format(d, line, sizeof(line));
	fprintf(stderr, "ucval report: %s\n", line);
	return UCVAL_EXIT_USAGE;
}

/* Write the report through the atomic output; 0 or an exit status. */
static int write_out(const struct cmd_opts *o, const struct rep_sel *sel,
		     const struct rep_diff_pair *pair, const struct rep_fleet *fleet,
		     bool *is_worse)
{
	struct rep_fleet_out fo = {
		.style = o->format == FMT_MD ? REP_STYLE_MD : o->format == FMT_HTML ?
			 REP_STYLE_HTML : REP_STYLE_TEXT,
		.is_json = o->format == FMT_JSON, .is_junit = o->format == FMT_JUNIT,
		.top = o->top,
	};
	struct rep_outfile out;
	struct an_diag d;
	bool is_stdout;
	int err;

	an_diag_clear(&d);
	an_diag_set_file(&d, "write report", o->output);
	if (rep_outfile_open(&out, o->output, &d))
		return print_diag(&d);
	if (fleet && o->cmp[0])
		err = rep_fleet_compare_write(out.fp, fleet, o->cmp[0], o->cmp[1], o->alpha, &fo,
					      is_worse);
	else if (fleet)
		err = rep_fleet_groups_write(out.fp, fleet, &fo);
	else if (pair)
		err = o->format == FMT_JSON ? rep_diff_json(out.fp, sel->db, pair) :
		      rep_diff_text(out.fp, sel->db, pair, o->format == FMT_MD ?
				    REP_STYLE_MD : REP_STYLE_TEXT);
	else if (o->format == FMT_TEXT || o->format == FMT_MD)
		err = rep_summary_write(out.fp, sel, o->format == FMT_MD ? REP_STYLE_MD :
				     REP_STYLE_TEXT);
	else if (o->format == FMT_HTML)
		err = rep_html_write(out.fp, sel, &d);
	else if (o->format == FMT_JSON)
		err = rep_jsonrep_write(out.fp, sel);
	else if (o->format == FMT_PERFETTO)
		err = rep_perfetto_write(out.fp, sel->db, sel->traces[0], &d);
	else
		err = rep_junit_write(out.fp, sel);
	if (err) {
		rep_outfile_abort(&out);
		if (!d.err)
			an_diag_fail(&d, err, "%s", an_error_str(err));
		return print_diag(&d);
	}
	/* standard output, also under another name: said once with its other failures */
	is_stdout = out.fp == stdout;
	if (!rep_outfile_commit(&out, &d))
		return UCVAL_EXIT_OK;
	if (is_stdout) {
		an_stdout_fail("report", d.err);
		return UCVAL_EXIT_USAGE;
	}
	return print_diag(&d);
}

/* The traces the report covers, loaded. */
static int select_traces(const struct cmd_opts *o, struct rep_rdb *db, struct rep_trace **sel,
			 size_t *nr, struct an_diag *d)
{
	const char *const *names = o->is_diff ? o->diff : &o->trace;
	size_t want = o->is_diff ? 2 : o->trace ? 1 : 0;
	bool is_all = o->format == FMT_PERFETTO || (o->format == FMT_JSON && !o->has_top);
	struct rep_load_opts lo = {
		.top = is_all ? 0 : o->top,
		.with_undecided = o->format == FMT_JSON || o->format == FMT_PERFETTO,
	};
	int err;

	*nr = 0;
	for (size_t i = 0; i < want; i++) {
		err = rep_rdb_find(db, names[i], &sel[(*nr)++], d);
		if (err)
			return err;
	}
	for (size_t i = 0; !want && i < db->nr_traces; i++)
		sel[(*nr)++] = &db->traces[i];
	for (size_t i = 0; i < *nr; i++) {
		err = rep_rdb_load(db, sel[i], &lo, d);
		if (err)
			return err;
	}
	return 0;
}

/* One trace, and not the output: a Perfetto trace holds one capture. */
static int check_perfetto(const struct cmd_opts *o, const struct rep_sel *sel)
{
	if (sel->nr != 1) {
		fprintf(stderr, "ucval report: --format perfetto writes one trace; the database "
			"holds %zu: choose one with --trace\n", sel->nr);
		return UCVAL_EXIT_USAGE;
	}
	if (sel->traces[0]->path && rep_outfile_is_same(o->output, sel->traces[0]->path))
		return usage_error("-o '%s' is the analyzed trace itself", o->output);
	return 0;
}

/* --group-by, --compare: the groups, then the report; exit 1 when B is worse. */
static int report_fleet(const struct cmd_opts *o, struct rep_rdb *db, struct an_diag *d)
{
	struct rep_sel sel = { .db = db };
	struct rep_fleet f;
	/* every trace is listed by --group-by's json only */
	bool all_paths = o->format == FMT_JSON && !o->cmp[0];
	bool is_worse = false;
	int status;

	if (rep_fleetdb_load(db, o->label, o->top, all_paths, &f, d)) {
		rep_fleetdb_free(&f);
		return print_diag(d);
	}
	for (int i = 0; o->cmp[0] && i < 2; i++) {
		if (!rep_fleetdb_find(&f, o->cmp[i])) {
			char shown[PATH_MAX];

			an_utf8_escape(shown, sizeof(shown), o->cmp[i], 0);
			fprintf(stderr, "ucval report: no trace has the label %s=%s\n", o->label,
				shown);
			rep_fleetdb_free(&f);
			return UCVAL_EXIT_USAGE;
		}
	}
	status = write_out(o, &sel, NULL, &f, &is_worse);
	rep_fleetdb_free(&f);
	return !status && is_worse ? UCVAL_EXIT_FAIL : status;
}

static int report(const struct cmd_opts *o, struct rep_rdb *db, struct an_diag *d)
{
	struct rep_trace **traces = calloc(db->nr_traces + 2, sizeof(*traces));
	struct rep_sel sel = { .db = db, .traces = traces, .top = o->top };
	struct rep_diff_pair pair;
	int status;

	if (!traces) {
		an_diag_fail(d, -ENOMEM, "out of memory");
		return print_diag(d);
	}
	if (select_traces(o, db, traces, &sel.nr, d)) {
		status = print_diag(d);
	} else if (o->format == FMT_PERFETTO) {
		status = check_perfetto(o, &sel);
		if (!status)
			status = write_out(o, &sel, NULL, NULL, NULL);
	} else if (o->is_diff) {
		pair = (struct rep_diff_pair){ .a = traces[0], .b = traces[1] };
		status = write_out(o, &sel, &pair, NULL, NULL);
	} else {
		status = write_out(o, &sel, NULL, NULL, NULL);
	}
	free(traces);
	return status;
}

/**
 * cmd_report() - `ucval report`
 * @argc: argument count, argv[0] being "report"
 * @argv: the arguments
 *
 * Return: an exit status: 0 written, 1 --compare found a check worse, 2 bad
 * usage or input.
 */
int cmd_report(int argc, char **argv)
{
	struct cmd_opts o;
	struct rep_rdb *db;
	struct an_diag d;
	int status = parse_args(argc, argv, &o);

	if (status)
		return status < 0 ? UCVAL_EXIT_OK : status;
	an_diag_clear(&d);
	if (rep_rdb_open(&db, o.db_path, !o.label, &d))
		return print_diag(&d);
	if (db->is_empty) {
		char shown[PATH_MAX];

		an_utf8_escape(shown, sizeof(shown), o.db_path, 0);
		fprintf(stderr, "ucval report: '%s' holds no traces: store some with"
			" 'ucval analyze --db %s TRACE...'\n", shown, shown);
		status = UCVAL_EXIT_USAGE;
	} else if (o.label) {
		status = report_fleet(&o, db, &d);
	} else {
		status = report(&o, db, &d);
	}
	rep_rdb_free(db);
	return status;
}
