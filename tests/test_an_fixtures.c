// SPDX-License-Identifier: MIT
/*
 * Every fixture in traces/: analyze <name>.txt (<name>.html for systrace
 * HTML) and compare with <name>.expect, written by hand from the spec beside
 * it. An .expect lists the verdicts of
 * the checks it is about and ALL their FAIL windows:
 *
 *   options --model v3 --groups 2
 *   verdict <check_id> <PASS|FAIL|UNDECIDED>
 *   window <check_id> cpu=<n|-> pid=<n|-> start=<ns> end=<ns> expected=<v> observed=<v> rule=<ID>
 *   undecided <check_id> cpu=... (as a window line)
 *   undecided none
 *
 * UNDECIDED windows are compared only where an .expect has `undecided`
 * lines: then they list ALL the UNDECIDED windows of its checks (`undecided
 * none`: there is none).
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze/analyze.h"
#include "analyze/read/reader.h"
#include "analyze/store/winbuf.h"
#include "lib/modelopt.h"

#define MAX_EXPECT	64
#define LINE_LEN	512

struct expect {
	char options[LINE_LEN];
	struct {
		enum an_check_id check;
		enum an_verdict verdict;
	} verdict[AN_CHECK__COUNT];
	int nr_verdicts;
	char window[MAX_EXPECT][LINE_LEN];	/* canonical text of each window */
	int nr_windows;
	bool is_matched[MAX_EXPECT];
	bool has_undecided;			/* UNDECIDED windows are listed too */
};

static const char *fixture_dir(void)
{
	const char *d = getenv("UCVAL_TRACES");

	return d ? d : "traces";
}

/* The canonical text of a window, as an .expect writes it. */
static void window_text(const struct an_window *w, char *buf, size_t len)
{
	char cpu[16], pid[16], ex[32], ob[32];

	snprintf(cpu, sizeof(cpu), w->cpu >= 0 ? "%d" : "-", w->cpu);
	snprintf(pid, sizeof(pid), w->pid >= 0 ? "%d" : "-", w->pid);
	if (w->expected_text[0])
		snprintf(ex, sizeof(ex), "%s", w->expected_text);
	else
		snprintf(ex, sizeof(ex), "%lld", w->expected);
	if (w->observed_text[0])
		snprintf(ob, sizeof(ob), "%s", w->observed_text);
	else
		snprintf(ob, sizeof(ob), "%lld", w->observed);
	snprintf(buf, len,
		 "%s %s cpu=%s pid=%s start=%llu end=%llu expected=%s observed=%s rule=%s",
		 w->is_fail ? "window" : "undecided", an_check_name(w->check), cpu, pid,
		 (unsigned long long)w->ts_start_ns, (unsigned long long)w->ts_end_ns, ex, ob,
		 w->rule ? w->rule : "");
}

static void squeeze(char *s)
{
	char *o = s;
	bool is_space = false;

	for (char *p = s; *p; p++) {
		if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') {
			is_space = o != s;
			continue;
		}
		if (is_space)
			*o++ = ' ';
		is_space = false;
		*o++ = *p;
	}
	*o = '\0';
}

static void read_expect(const char *path, struct expect *e)
{
	FILE *f = fopen(path, "r");
	char line[LINE_LEN], a[64], b[64];
	int n = 0;

	memset(e, 0, sizeof(*e));
	if (!f)
		fail_msg("cannot open '%s': %s", path, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		n++;
		squeeze(line);
		if (!line[0] || line[0] == '#')
			continue;
		if (!strncmp(line, "options ", 8)) {
			snprintf(e->options, sizeof(e->options), "%s", line + 8);
		} else if (!strncmp(line, "verdict ", 8)) {
			enum an_check_id id = AN_CHECK__COUNT;

			if (sscanf(line + 8, "%63s %63s", a, b) != 2 || an_check_from_name(a, &id))
				fail_msg("%s:%d: bad verdict line '%s'", path, n, line);
			e->verdict[e->nr_verdicts].check = id;
			e->verdict[e->nr_verdicts].verdict = !strcmp(b, "PASS") ? AN_PASS :
							     !strcmp(b, "FAIL") ? AN_FAIL : AN_UNDECIDED;
			if (strcmp(b, "PASS") && strcmp(b, "FAIL") && strcmp(b, "UNDECIDED"))
				fail_msg("%s:%d: bad verdict '%s'", path, n, b);
			e->nr_verdicts++;
		} else if (!strcmp(line, "undecided none")) {
			e->has_undecided = true;
		} else if (!strncmp(line, "window ", 7) || !strncmp(line, "undecided ", 10)) {
			e->has_undecided |= line[0] == 'u';
			if (e->nr_windows == MAX_EXPECT)
				fail_msg("%s:%d: more than %d windows", path, n, MAX_EXPECT);
			snprintf(e->window[e->nr_windows++], LINE_LEN, "%s", line);
		} else {
			fail_msg("%s:%d: unknown line '%s'", path, n, line);
		}
	}
	fclose(f);
}

/* The shared model options, by the name an `options` line gives them. */
static const struct {
	const char *name;
	int code;
} modelopts[] = {
	{ "--model", AN_MODELOPT_MODEL }, { "--fidelity", AN_MODELOPT_FIDELITY },
	{ "--groups", AN_MODELOPT_GROUPS }, { "--kernel", AN_MODELOPT_KERNEL },
};

static int modelopt_code(const char *name)
{
	for (size_t i = 0; i < sizeof(modelopts) / sizeof(modelopts[0]); i++)
		if (!strcmp(name, modelopts[i].name))
			return modelopts[i].code;
	return 0;
}

/*
 * The `options` line: the subset of `ucval analyze` options fixtures use,
 * the model options read by the parser `ucval analyze` uses.
 */
static void apply_options(const char *path, char *text, struct an_replay_opts *r)
{
	char *save = NULL, *tok = strtok_r(text, " ", &save);
	struct an_modelopt mo = { 0 };

	while (tok) {
		char *arg = strtok_r(NULL, " ", &save);
		int code = modelopt_code(tok);

		if (!arg)
			fail_msg("%s: option '%s' without a value", path, tok);
		if (code && an_modelopt_parse(&mo, "analyze", code, arg))
			fail_msg("%s: bad value '%s' of option '%s'", path, arg, tok);
		else if (!code && !strcmp(tok, "--grace-us"))
			r->grace_us = (unsigned int)strtoul(arg, NULL, 10);
		else if (!code)
			fail_msg("%s: option '%s' is not supported in fixtures", path, tok);
		tok = strtok_r(NULL, " ", &save);
	}
	if (mo.has_variant)
		r->model = mo.variant == MODEL_V3 ? AN_MODEL_V3 : AN_MODEL_MAINLINE;
	r->fidelity = mo.fidelity;
	if (mo.has_groups)
		r->groups = mo.groups;
	if (mo.kernel)
		r->kernel = mo.kernel;
}

struct collect {
	struct expect *e;
	const char *name;
	int nr_unexpected;
	char first_unexpected[LINE_LEN];
};

static bool is_listed(const struct expect *e, enum an_check_id check)
{
	for (int i = 0; i < e->nr_verdicts; i++)
		if (e->verdict[i].check == check)
			return true;
	return false;
}

static int collect_window(void *ctx, const struct an_window *w)
{
	struct collect *c = ctx;
	char text[LINE_LEN];

	if ((!w->is_fail && !c->e->has_undecided) || !is_listed(c->e, w->check))
		return 0;
	window_text(w, text, sizeof(text));
	for (int i = 0; i < c->e->nr_windows; i++) {
		if (!c->e->is_matched[i] && !strcmp(c->e->window[i], text)) {
			c->e->is_matched[i] = true;
			return 0;
		}
	}
	if (!c->nr_unexpected++)
		snprintf(c->first_unexpected, sizeof(c->first_unexpected), "%s", text);
	return 0;
}

/* @tidy_min: an_replay_opts.tasks_tidy_min (1: idle tasks packed before every event) */
static int run_fixture(const char *name, size_t tidy_min)
{
	char trace[512], expect_path[512];
	struct expect *e = calloc(1, sizeof(*e));
	struct an_analyze_opts opts;
	struct an_results res;
	struct an_summary *sum = calloc(1, sizeof(*sum));
	struct an_winbuf wins;
	struct an_diag d;
	struct collect c = { .e = e, .name = name };
	int bad = 0;

	assert_non_null(e);
	assert_non_null(sum);
	snprintf(trace, sizeof(trace), "%s/%s.txt", fixture_dir(), name);
	if (access(trace, F_OK))
		snprintf(trace, sizeof(trace), "%s/%s.html", fixture_dir(), name);
	snprintf(expect_path, sizeof(expect_path), "%s/%s.expect", fixture_dir(), name);
	read_expect(expect_path, e);
	memset(&opts, 0, sizeof(opts));
	apply_options(expect_path, e->options, &opts.replay);
	opts.replay.tasks_tidy_min = tidy_min;
	an_winbuf_init(&wins);
	an_results_init(&res, an_winbuf_sink, &wins);
	if (an_analyze_path(trace, &opts, &res, sum, &d)) {
		char line[1024];

		an_diag_format(&d, line, sizeof(line));
		print_error("%s: analysis failed: %s\n", name, line);
		bad++;
		goto out;
	}
	for (int i = 0; i < e->nr_verdicts; i++) {
		enum an_verdict got = an_check_verdict(&res.stats[e->verdict[i].check]);

		if (got != e->verdict[i].verdict) {
			print_error("%s: %s is %s, expected %s\n", name,
				    an_check_name(e->verdict[i].check), an_verdict_name(got),
				    an_verdict_name(e->verdict[i].verdict));
			bad++;
		}
	}
	an_winbuf_for_each(&wins, collect_window, &c);
	for (int i = 0; i < e->nr_windows; i++) {
		if (!e->is_matched[i]) {
			print_error("%s: missing %s\n", name, e->window[i]);
			bad++;
		}
	}
	if (c.nr_unexpected) {
		print_error("%s: %d unexpected windows, first: %s\n", name, c.nr_unexpected,
			    c.first_unexpected);
		bad++;
	}
out:
	an_winbuf_release(&wins);
	free(sum);
	free(e);
	return bad;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void test_fixtures(void **state)
{
	DIR *dir = opendir(fixture_dir());
	struct dirent *de;
	char *names[256];
	int nr = 0, bad = 0, with_fail = 0, with_pass = 0;

	(void)state;
	if (!dir)
		fail_msg("cannot open '%s': %s", fixture_dir(), strerror(errno));
	while ((de = readdir(dir))) {
		size_t len = strlen(de->d_name);

		if (len > 7 && !strcmp(de->d_name + len - 7, ".expect")) {
			assert_true(nr < 256);
			names[nr++] = strndup(de->d_name, len - 7);
		}
	}
	closedir(dir);
	qsort(names, (size_t)nr, sizeof(names[0]), by_name);
	for (int i = 0; i < nr; i++) {
		/* packing idle tasks changes nothing (analyze/replay/tasks.h) */
		int b = run_fixture(names[i], 0) + run_fixture(names[i], 1);

		print_message("fixture %-36s %s\n", names[i], b ? "MISMATCH" : "ok");
		bad += b;
		with_fail += strstr(names[i], "-fail") != NULL;
		with_pass += strstr(names[i], "-pass") != NULL;
		free(names[i]);
	}
	/* a harness that finds nothing proves nothing */
	assert_true(with_fail > 0 && with_pass > 0);
	if (bad)
		fail_msg("%d differences between fixtures and their .expect", bad);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixtures),
	};

	an_reader_set_quiet(true);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
