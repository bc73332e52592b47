// SPDX-License-Identifier: MIT
/*
 * analyze/console.c - the terminal table of `ucval analyze` (table.h):
 * timestamps in seconds with microseconds, as ftrace prints them. Every
 * text that comes from a trace (its path, comms and cgroup paths in
 * messages, notes) is escaped as lib/utf8.h says, so a name cannot send
 * the terminal an escape sequence.
 */
#include <errno.h>
#include <stdio.h>

#include "analyze/console.h"
#include "analyze/evlist.h"
#include "lib/utf8.h"

static void print_ts(FILE *out, uint64_t ns)
{
	fprintf(out, "%llu.%06llu", (unsigned long long)(ns / 1000000000ULL),
		(unsigned long long)(ns % 1000000000ULL / 1000ULL));
}

static void print_value(FILE *out, long long v, const char *text)
{
	if (text[0])
		an_utf8_fputs(out, text, 0);
	else
		fprintf(out, "%lld", v);
}

struct show_ctx {
	FILE *out;
	unsigned int shown[AN_CHECK__COUNT];
};

static int show_window(void *ctx, const struct an_window *w)
{
	struct show_ctx *c = ctx;

	if (!w->is_fail || c->shown[w->check]++ >= AN_TABLE_SHOW_WINDOWS)
		return 0;
	fprintf(c->out, "  FAIL %s", an_check_name(w->check));
	if (w->cpu >= 0)
		fprintf(c->out, " cpu %d", w->cpu);
	if (w->pid >= 0)
		fprintf(c->out, " pid %d", w->pid);
	fputs(" at ", c->out);
	print_ts(c->out, w->ts_start_ns);
	fputs("..", c->out);
	print_ts(c->out, w->ts_end_ns);
	fputs(": expected ", c->out);
	print_value(c->out, w->expected, w->expected_text);
	fputs(", observed ", c->out);
	print_value(c->out, w->observed, w->observed_text);
	fputs(" (", c->out);
	an_utf8_fputs(c->out, w->rule, 0);
	fputc(')', c->out);
	if (w->message[0]) {
		fputs(": ", c->out);
		an_utf8_fputs(c->out, w->message, 0);
	}
	fputc('\n', c->out);
	return 0;
}

static void print_summary(FILE *out, const struct an_tracerun *t)
{
	const struct an_summary *s = &t->sum;

	an_utf8_fputs(out, t->path, 0);
	fprintf(out, ": %s, %llu events", s->format, (unsigned long long)s->n_events);
	if (s->has_events) {
		fputs(", ", out);
		print_ts(out, s->t_end_ns - s->t_start_ns);
		fputs(" s", out);
	}
	fputs(", model ", out);
	an_utf8_fputs(out, t->model, 0);
	fprintf(out, " (%s), %u CPUs known of %u\n",
		s->model_source ? s->model_source : "default", s->nr_cpus_known, s->nr_cpus_model);
}

/*
 * The events the trace recorded, and those the replay follows that it did
 * not (docs/analyze.md, "What a capture did not record").
 */
static void print_events(FILE *out, const struct an_summary *s)
{
	char names[AN_EVLIST_NAMES_LEN];
	const char *list = an_evlist_list_name(s);
	unsigned int n;

	if (!s->has_events)
		return;
	an_evlist_names(s, AN_EVLIST_RECORDED, names, sizeof(names));
	fprintf(out, "  events recorded: %s\n", names);
	n = an_evlist_names(s, AN_EVLIST_MISSING, names, sizeof(names));
	if (!n)
		return;
	fprintf(out, "  events not recorded: %s (none seen", names);
	if (!list && !strcmp(s->format, "perfetto"))
		fputs("; the trace config's list of events is not read", out);
	else if (!list)
		fputs("; ftrace text lists no enabled events", out);
	else if (an_evlist_names(s, AN_EVLIST_UNLISTED, names, sizeof(names)) == n)
		fprintf(out, ", not in the %s", list);
	else if (names[0])
		fprintf(out, "; not in the %s: %s", list, names);
	else
		fprintf(out, "; all in the %s", list);
	fputs(")\n", out);
}

static void print_verdicts(FILE *out, const struct an_tracerun *t)
{
	fprintf(out, "  %-22s %-9s %9s %7s %9s\n", "check", "verdict", "checked", "failed",
		"undecided");
	for (int i = 0; i < AN_CHECK__COUNT; i++) {
		const struct an_check_stats *c = &t->res.stats[i];

		fprintf(out, "  %-22s %-9s %9llu %7llu %9llu", an_check_name(i),
			an_verdict_name(an_check_verdict(c)), (unsigned long long)c->n_checked,
			(unsigned long long)c->n_failed, (unsigned long long)c->n_undecided);
		if (c->reason && an_check_verdict(c) == AN_UNDECIDED) {
			fputs("  ", out);
			an_utf8_fputs(out, c->reason, 0);
		}
		fputc('\n', out);
	}
}

int an_console_print(FILE *out, struct an_tracerun *t)
{
	const struct an_summary *s = &t->sum;
	struct show_ctx sc = { .out = out };

	print_summary(out, t);
	print_events(out, s);
	print_verdicts(out, t);
	an_winbuf_for_each(&t->wins, show_window, &sc);
	for (int i = 0; i < AN_CHECK__COUNT; i++)
		if (sc.shown[i] > AN_TABLE_SHOW_WINDOWS)
			fprintf(out, "  (%s: %u more FAIL windows)\n", an_check_name(i),
				sc.shown[i] - AN_TABLE_SHOW_WINDOWS);
	/* first_error is an_diag_format()'s line, escaped already */
	if (s->n_errors)
		fprintf(out, "  skipped %llu undecodable lines or records; first: %s\n",
			(unsigned long long)s->n_errors, s->first_error);
	for (unsigned int i = 0; i < s->nr_notes; i++) {
		fputs("  note: ", out);
		an_utf8_fputs(out, s->notes[i], 0);
		fputc('\n', out);
	}
	return ferror(out) ? -EIO : 0;
}
