// SPDX-License-Identifier: MIT
/*
 * analyze/store/winbuf.c: windows come back in order and intact, in memory and
 * past the spill threshold, with their explanations (every 5th window has
 * one); counters split FAIL and UNDECIDED.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "analyze/store/winbuf.h"

struct walk {
	size_t seen;
	size_t stop_at;			/* stop the walk here (0: never) */
};

static void make_window(struct an_window *w, size_t i)
{
	static char text[AN_WINDOW_EXPLAIN_LEN];

	memset(w, 0, sizeof(*w));
	if (i % 5 == 0) {
		snprintf(text, sizeof(text), "S9    raw target kHz %zu\nS10   resolved OPP %zu\n",
			 i, i * 2);
		w->explain = text;
	}
	w->check = (enum an_check_id)(i % AN_CHECK__COUNT);
	w->is_fail = i % 3 != 0;
	w->cpu = (int)(i % 8);
	w->pid = (int)i;
	w->ts_start_ns = 1000 * i;
	w->ts_end_ns = 1000 * i + 500;
	w->expected = (long long)i;
	w->observed = -(long long)i;
	w->rule = "VR5";
	snprintf(w->message, sizeof(w->message), "window %zu", i);
}

static int check_one(void *ctx, const struct an_window *w)
{
	struct walk *k = ctx;
	struct an_window want;

	make_window(&want, k->seen);
	if (w->check != want.check || w->is_fail != want.is_fail || w->cpu != want.cpu ||
	    w->pid != want.pid || w->ts_start_ns != want.ts_start_ns ||
	    w->ts_end_ns != want.ts_end_ns || w->expected != want.expected ||
	    w->observed != want.observed || strcmp(w->rule, want.rule) ||
	    strcmp(w->message, want.message) || !w->explain != !want.explain ||
	    (w->explain && strcmp(w->explain, want.explain)))
		fail_msg("window %zu differs (pid %d, message '%s')", k->seen, w->pid, w->message);
	k->seen++;
	return k->stop_at && k->seen == k->stop_at ? 7 : 0;
}

static void test_roundtrip(void **state)
{
	static const size_t counts[] = { 0, 1, AN_WINBUF_MEM, AN_WINBUF_MEM + 1, 3 * AN_WINBUF_MEM + 5 };

	(void)state;
	for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
		struct an_winbuf b;
		struct an_window w;
		struct walk k = { 0, 0 };
		size_t fails = 0;

		an_winbuf_init(&b);
		for (size_t i = 0; i < counts[c]; i++) {
			make_window(&w, i);
			fails += w.is_fail;
			assert_int_equal(an_winbuf_sink(&b, &w), 0);
		}
		assert_int_equal(an_winbuf_for_each(&b, check_one, &k), 0);
		if (k.seen != counts[c])
			fail_msg("case %zu: saw %zu windows want %zu", c, k.seen, counts[c]);
		assert_int_equal(b.nr_fail, fails);
		assert_int_equal(b.nr_undecided, counts[c] - fails);
		/* a second walk sees the same */
		k.seen = 0;
		assert_int_equal(an_winbuf_for_each(&b, check_one, &k), 0);
		assert_int_equal(k.seen, counts[c]);
		an_winbuf_release(&b);
	}
}

/* A callback's non-zero return stops the walk and comes back. */
static void test_stop(void **state)
{
	struct an_winbuf b;
	struct an_window w;
	struct walk k = { 0, AN_WINBUF_MEM + 2 };

	(void)state;
	an_winbuf_init(&b);
	for (size_t i = 0; i < AN_WINBUF_MEM + 10; i++) {
		make_window(&w, i);
		assert_int_equal(an_winbuf_add(&b, &w), 0);
	}
	assert_int_equal(an_winbuf_for_each(&b, check_one, &k), 7);
	assert_int_equal(k.seen, AN_WINBUF_MEM + 2);
	an_winbuf_release(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_stop),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
