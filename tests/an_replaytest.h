/* SPDX-License-Identifier: MIT */
/*
 * tests/an_replaytest.h - replaying a text trace held in a string, and
 * collecting the windows it produces: shared by the analyze/ test programs
 * that drive the replay directly. Include after <cmocka.h>.
 */
#ifndef UCVAL_TESTS_AN_REPLAYTEST_H
#define UCVAL_TESTS_AN_REPLAYTEST_H

#include <stdio.h>
#include <string.h>

#include "analyze/analyze.h"
#include "analyze/read/reader.h"

/* Windows one replay produced; more than it holds fails the test. */
#define AN_TEST_MAX_WINDOWS	32

struct an_test_windows {
	struct an_window w[AN_TEST_MAX_WINDOWS];
	unsigned int nr;
	bool is_fail_only;		/* keep FAIL windows only */
};

/* an_window_sink_fn keeping the windows in a struct an_test_windows. */
static inline int an_test_sink(void *ctx, const struct an_window *w)
{
	struct an_test_windows *c = ctx;

	if (c->is_fail_only && !w->is_fail)
		return 0;
	if (c->nr == AN_TEST_MAX_WINDOWS)
		fail_msg("more than %d windows", AN_TEST_MAX_WINDOWS);
	c->w[c->nr++] = *w;
	return 0;
}

/*
 * Replay @nr_pre events @pre, then @text (an ftrace text trace) event by
 * event through the model; when @is_finish, finish at the latest timestamp
 * and fill the reasons (an_results_finish()). The caller frees the replay.
 */
static inline struct an_replay *an_test_replay_pre(const struct an_event *pre, size_t nr_pre,
						   const char *text,
						   const struct an_replay_opts *opts,
						   struct an_results *res, bool is_finish)
{
	FILE *fp = fmemopen((void *)text, strlen(text), "r");
	struct an_reader *rd;
	struct an_replay *r;
	struct an_diag d;
	struct an_event ev;
	uint64_t last = 0;
	int err;

	assert_non_null(fp);
	assert_int_equal(an_reader_open_stream(fp, "row", &rd, &d), 0);
	assert_int_equal(an_analyze_replay_new(opts, res, &r, &d), 0);
	for (size_t i = 0; i < nr_pre; i++)
		assert_int_equal(an_replay_event(r, &pre[i], &d), 0);
	while ((err = an_reader_next(rd, &ev, &d)) == 1) {
		assert_int_equal(an_replay_event(r, &ev, &d), 0);
		last = ev.ts_ns > last ? ev.ts_ns : last;
	}
	if (err) {
		char buf[512];

		an_diag_format(&d, buf, sizeof(buf));
		fail_msg("reader: %s", buf);
	}
	if (is_finish) {
		assert_int_equal(an_replay_finish(r, last), 0);
		an_results_finish(res);
	}
	an_reader_close(rd);
	fclose(fp);
	return r;
}

/* an_test_replay_pre() without events before @text. */
static inline struct an_replay *an_test_replay_text(const char *text,
						    const struct an_replay_opts *opts,
						    struct an_results *res, bool is_finish)
{
	return an_test_replay_pre(NULL, 0, text, opts, res, is_finish);
}

#endif /* UCVAL_TESTS_AN_REPLAYTEST_H */
