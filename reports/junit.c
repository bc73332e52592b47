// SPDX-License-Identifier: MIT
/*
 * reports/junit.c - `ucval report --format junit`. A FAIL verdict is a
 * <failure> whose text lists the longest mismatch windows; an UNDECIDED one
 * is <skipped> with its reason: CI shows it, and it fails nothing.
 */
#include <inttypes.h>
#include <string.h>

#include "reports/fmt.h"
#include "reports/junit.h"
#include "reports/xml.h"

struct counts {
	int64_t tests, failures, skipped;
};

static bool is_verdict(const struct rep_verdict *v, const char *word)
{
	return v->verdict && !strcmp(v->verdict, word);
}

static struct counts count(const struct rep_trace *t)
{
	struct counts c = { .tests = (int64_t)t->nr_verdicts };

	for (size_t i = 0; i < t->nr_verdicts; i++) {
		c.failures += is_verdict(&t->verdicts[i], "FAIL");
		c.skipped += is_verdict(&t->verdicts[i], "UNDECIDED");
	}
	return c;
}

static void attr(FILE *out, const char *name, const char *value)
{
	fprintf(out, " %s=\"", name);
	rep_xml_text(out, value ? value : "");
	fputc('"', out);
}

static void property(FILE *out, const char *name, const char *value)
{
	fputs("      <property", out);
	attr(out, "name", name);
	attr(out, "value", value);
	fputs("/>\n", out);
}

static void properties(FILE *out, const struct rep_trace *t)
{
	char buf[REP_FMT_LEN];

	fputs("    <properties>\n", out);
	snprintf(buf, sizeof(buf), "%" PRId64, t->trace_id);
	property(out, "trace_id", buf);
	property(out, "format", t->format);
	property(out, "kernel", t->kernel);
	property(out, "model", t->model);
	snprintf(buf, sizeof(buf), "%" PRId64, t->n_events);
	property(out, "n_events", buf);
	property(out, "duration_s", rep_fmt_rel_s(buf, t->t_end_ns, t->t_start_ns));
	property(out, "analyzed_at", t->analyzed_at);
	property(out, "options", t->options);
	property(out, "sha256", t->sha256);
	fputs("    </properties>\n", out);
}

/* The failure text: the longest windows of the check, explanations indented. */
static void failure(FILE *out, const struct rep_sel *sel, const struct rep_trace *t,
		    const struct rep_verdict *v)
{
	char line[REP_FMT_LINE_LEN], msg[REP_FMT_LINE_LEN];
	size_t shown = 0;

	snprintf(msg, sizeof(msg), "%" PRId64 " mismatch windows; %" PRId64 " of %" PRId64
		 " decisions failed", v->n_windows, v->n_failed, v->n_checked);
	fputs("      <failure", out);
	attr(out, "message", msg);
	attr(out, "type", "FAIL");
	fputs(">", out);
	for (size_t i = 0; i < t->nr_windows && (!sel->top || shown < sel->top); i++) {
		const struct rep_window *w = &t->windows[i];

		if (strcmp(w->check_id, v->check_id))
			continue;
		fprintf(out, "%s#%zu ", shown ? "" : "\n", shown + 1);
		shown++;
		rep_xml_text(out, rep_fmt_window(line, t, w));
		fputc('\n', out);
		for (const char *p = w->explain; p && *p;) {
			size_t len = strcspn(p, "\n");

			snprintf(line, sizeof(line), "    %.*s\n", (int)len, p);
			rep_xml_text(out, line);
			p += len + (p[len] == '\n');
		}
	}
	if (v->n_windows > (int64_t)shown)
		fprintf(out, "(%" PRId64 " more windows in the database)\n",
			v->n_windows - (int64_t)shown);
	fputs("      </failure>\n", out);
}

static void testcase(FILE *out, const struct rep_sel *sel, const struct rep_trace *t,
		     const struct rep_verdict *v)
{
	fputs("    <testcase", out);
	attr(out, "classname", t->path);
	attr(out, "name", v->check_id);
	if (is_verdict(v, "FAIL")) {
		fputs(">\n", out);
		failure(out, sel, t, v);
		fputs("    </testcase>\n", out);
	} else if (is_verdict(v, "UNDECIDED")) {
		fputs(">\n      <skipped", out);
		attr(out, "message", v->reason ? v->reason : "undecided");
		fputs("/>\n    </testcase>\n", out);
	} else {
		fputs("/>\n", out);
	}
}

static void suite(FILE *out, const struct rep_sel *sel, const struct rep_trace *t)
{
	struct counts c = count(t);
	char id[REP_FMT_LEN];

	snprintf(id, sizeof(id), "%" PRId64, t->trace_id);
	fputs("  <testsuite", out);
	attr(out, "name", t->path);
	attr(out, "id", id);
	fprintf(out, " tests=\"%" PRId64 "\" failures=\"%" PRId64 "\" skipped=\"%" PRId64
		"\" errors=\"0\">\n", c.tests, c.failures, c.skipped);
	properties(out, t);
	for (size_t i = 0; i < t->nr_verdicts; i++)
		testcase(out, sel, t, &t->verdicts[i]);
	fputs("  </testsuite>\n", out);
}

/**
 * rep_junit_write() - the verdicts of the selected traces as JUnit XML
 * @out: the stream
 * @sel: the traces, loaded; sel->top windows are listed per failure
 *
 * Return: 0.
 */
int rep_junit_write(FILE *out, const struct rep_sel *sel)
{
	struct counts all = { 0 };

	for (size_t i = 0; i < sel->nr; i++) {
		struct counts c = count(sel->traces[i]);

		all.tests += c.tests;
		all.failures += c.failures;
		all.skipped += c.skipped;
	}
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", out);
	fprintf(out, "<testsuites name=\"ucval\" tests=\"%" PRId64 "\" failures=\"%" PRId64
		"\" skipped=\"%" PRId64 "\" errors=\"0\">\n", all.tests, all.failures, all.skipped);
	for (size_t i = 0; i < sel->nr; i++)
		suite(out, sel, sel->traces[i]);
	fputs("</testsuites>\n", out);
	return 0;
}
