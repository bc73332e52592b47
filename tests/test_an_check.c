// SPDX-License-Identifier: MIT
/*
 * analyze/checks/check.c: check names, verdict rules (events.md §4) and the
 * coalescing of observations into one window per contiguous disagreement
 * (events.md §5).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <string.h>

#include "analyze/checks/check.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define MAX_SEEN	8

struct seen {
	struct an_window w[MAX_SEEN];
	int nr;
};

static int sink(void *ctx, const struct an_window *w)
{
	struct seen *s = ctx;

	assert_true(s->nr < MAX_SEEN);
	s->w[s->nr++] = *w;
	return 0;
}

static void test_names(void **state)
{
	static const char *const ids[] = {
		"rq_clamp", "task_effective", "request_result", "freq_below_min_clamp",
		"freq_above_max_clamp", "freq_prediction", "groups_exhausted", "trace_integrity",
	};
	enum an_check_id id = AN_CHECK__COUNT;

	(void)state;
	assert_int_equal(AN_CHECK__COUNT, ARRAY_SIZE(ids));
	for (size_t i = 0; i < ARRAY_SIZE(ids); i++) {
		assert_string_equal(an_check_name((enum an_check_id)i), ids[i]);
		assert_int_equal(an_check_from_name(ids[i], &id), 0);
		assert_int_equal(id, i);
	}
	assert_int_equal(an_check_from_name("rq-clamp", &id), -ENOENT);
	assert_string_equal(an_check_name(AN_CHECK__COUNT), "?");
}

static const struct verdict_case {
	const char *what;
	struct an_check_stats s;
	enum an_verdict want;
} verdict_cases[] = {
	{ "no input is never PASS", { 0, 0, 0, false, false, NULL }, AN_UNDECIDED },
	{ "input, nothing compared", { 0, 0, 3, true, true, NULL }, AN_UNDECIDED },
	{ "compared, agreed", { 10, 0, 0, true, false, NULL }, AN_PASS },
	{ "compared, some undecided", { 10, 0, 2, true, true, NULL }, AN_PASS },
	{ "one FAIL window", { 10, 1, 0, true, false, NULL }, AN_FAIL },
};

static void test_verdicts(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(verdict_cases); i++) {
		enum an_verdict got = an_check_verdict(&verdict_cases[i].s);

		if (got != verdict_cases[i].want)
			fail_msg("case %zu (%s): got %s want %s", i, verdict_cases[i].what,
				 an_verdict_name(got), an_verdict_name(verdict_cases[i].want));
	}
}

static struct an_window obs(uint64_t ts, long long expected, long long observed)
{
	struct an_window w;

	memset(&w, 0, sizeof(w));
	w.check = AN_CHECK_RQ_CLAMP;
	w.cpu = 1;
	w.pid = -1;
	w.ts_start_ns = ts;
	w.expected = expected;
	w.observed = observed;
	w.rule = "VR5";
	return w;
}

/* Three disagreements in a row are one window; an agreement ends it. */
static void test_coalesce(void **state)
{
	struct an_results res;
	struct an_win_track t;
	struct seen s = { .nr = 0 };
	struct an_window o;

	(void)state;
	memset(&t, 0, sizeof(t));
	an_results_init(&res, sink, &s);
	o = obs(100, 512, 1024);
	an_win_observe(&res, &t, &o);
	o = obs(200, 300, 1024);	/* values change: still the same window */
	an_win_observe(&res, &t, &o);
	o = obs(300, 512, 1024);
	an_win_observe(&res, &t, &o);
	assert_int_equal(s.nr, 0);
	an_win_agree(&res, &t, 450);
	assert_int_equal(s.nr, 1);
	assert_true(s.w[0].is_fail);
	assert_int_equal(s.w[0].ts_start_ns, 100);
	assert_int_equal(s.w[0].ts_end_ns, 450);
	assert_int_equal(s.w[0].expected, 512);	/* the first observation's values */
	assert_int_equal(s.w[0].n_events, 3);
	assert_int_equal(res.stats[AN_CHECK_RQ_CLAMP].n_failed, 1);
	/* agreeing with nothing open emits nothing */
	an_win_agree(&res, &t, 500);
	assert_int_equal(s.nr, 1);
}

/* A doubt after a disagreement closes the FAIL window and opens an UNDECIDED one. */
static void test_fail_then_doubt(void **state)
{
	struct an_results res;
	struct an_win_track t;
	struct seen s = { .nr = 0 };
	struct an_window o;

	(void)state;
	memset(&t, 0, sizeof(t));
	an_results_init(&res, sink, &s);
	o = obs(100, 1, 2);
	an_win_observe(&res, &t, &o);
	o = obs(250, 1, 2);
	an_win_doubt(&res, &t, &o);
	assert_int_equal(s.nr, 1);
	assert_true(s.w[0].is_fail);
	assert_int_equal(s.w[0].ts_end_ns, 250);
	an_win_close(&res, &t, 400);
	assert_int_equal(s.nr, 2);
	assert_false(s.w[1].is_fail);
	assert_int_equal(s.w[1].ts_start_ns, 250);
	assert_int_equal(s.w[1].ts_end_ns, 400);
	assert_int_equal(res.stats[AN_CHECK_RQ_CLAMP].n_failed, 1);
	assert_int_equal(res.stats[AN_CHECK_RQ_CLAMP].n_undecided, 1);
}

/* A sink error stops further sink calls and is kept; counting goes on. */
static int failing_sink(void *ctx, const struct an_window *w)
{
	(void)w;
	++*(int *)ctx;
	return -5;
}

static void test_sink_error(void **state)
{
	struct an_results res;
	struct an_window o = obs(10, 1, 2);
	int calls = 0;

	(void)state;
	an_results_init(&res, failing_sink, &calls);
	an_win_undecided(&res, &o);
	an_win_undecided(&res, &o);
	assert_int_equal(calls, 1);
	assert_int_equal(res.err, -5);
	assert_int_equal(res.stats[AN_CHECK_RQ_CLAMP].n_undecided, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_verdicts),
		cmocka_unit_test(test_coalesce),
		cmocka_unit_test(test_fail_then_doubt),
		cmocka_unit_test(test_sink_error),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
