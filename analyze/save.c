// SPDX-License-Identifier: MIT
/*
 * analyze/save.c - one analyzed trace into the database (save.h): the
 * run's verdicts and windows become rows of analyze/store/db.h.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analyze/evlist.h"
#include "analyze/save.h"

/* Room for an ISO 8601 UTC time, "2024-01-01T00:00:00Z". */
#define WHEN_LEN	32

static void now_iso8601(char *buf, size_t len)
{
	const char *fixed = getenv("UCVAL_NOW");	/* tests pin the clock */
	time_t t = time(NULL);
	struct tm tm;

	if (fixed && *fixed) {
		snprintf(buf, len, "%s", fixed);
		return;
	}
	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

struct db_ctx {
	struct an_db *db;
	struct an_diag *d;
};

static int db_window(void *ctx, const struct an_window *w)
{
	struct db_ctx *c = ctx;
	struct an_db_window row = {
		.check_id = an_check_name(w->check), .cpu = w->cpu, .pid = w->pid,
		.ts_start_ns = (int64_t)w->ts_start_ns, .ts_end_ns = (int64_t)w->ts_end_ns,
		.expected = w->expected, .observed = w->observed,
		.expected_text = w->expected_text[0] ? w->expected_text : NULL,
		.observed_text = w->observed_text[0] ? w->observed_text : NULL,
		.rule = w->rule ? w->rule : "", .message = w->message,
		.explain = w->explain,
	};

	if (w->is_fail)
		return an_db_mismatch_add(c->db, &row, c->d);
	return an_db_undecided_add(c->db, &row, c->d);
}

static int add_verdicts(struct an_db *db, const struct an_tracerun *t, struct an_diag *d)
{
	int err = 0;

	for (int i = 0; i < AN_CHECK__COUNT && !err; i++) {
		const struct an_check_stats *s = &t->res.stats[i];
		struct an_db_verdict v = {
			.check_id = an_check_name(i),
			.verdict = an_verdict_name(an_check_verdict(s)),
			.n_checked = s->n_checked, .n_failed = s->n_failed,
			.n_undecided = s->n_undecided, .reason = s->reason,
		};

		err = an_db_verdict_add(db, &v, d);
	}
	return err;
}

/* Rule coverage: a row per check and rule that decided something. */
static int add_coverage(struct an_db *db, const struct an_tracerun *t, struct an_diag *d)
{
	int err = 0;

	for (int i = 0; i < AN_CHECK__COUNT && !err; i++) {
		for (int r = 0; r < MODEL_RULES_NR && !err; r++) {
			const struct an_rule_cov *c = &t->res.cover[i][r];
			struct an_db_coverage row = {
				.check_id = an_check_name(i), .rule = model_rules[r].id,
				.times = c->times, .decided_ns = c->decided_ns,
			};

			if (c->times)
				err = an_db_coverage_add(db, &row, d);
		}
	}
	return err;
}

/* @labels, and the trace's kernel release as `kernel` unless a label says it */
static int add_labels(struct an_db *db, const struct an_db_label *labels, size_t nr_labels,
		      const struct an_tracerun *t, struct an_diag *d)
{
	bool has_kernel = false;
	int err = 0;

	for (size_t i = 0; i < nr_labels && !err; i++) {
		has_kernel |= !strcmp(labels[i].key, "kernel");
		err = an_db_label_add(db, labels[i].key, labels[i].value, d);
	}
	if (!err && !has_kernel && t->sum.kernel[0])
		err = an_db_label_add(db, "kernel", t->sum.kernel, d);
	return err;
}

int an_save_trace(struct an_db *db, const char *options, const struct an_db_label *labels,
		  size_t nr_labels, struct an_tracerun *t, struct an_diag *d)
{
	char when[WHEN_LEN], missing[AN_EVLIST_NAMES_LEN];
	struct an_db_trace row = {
		.path = t->path, .format = t->sum.format, .sha256 = t->sha256,
		.n_events = t->sum.n_events, .t_start_ns = (int64_t)t->sum.t_start_ns,
		.t_end_ns = (int64_t)t->sum.t_end_ns, .model = t->model, .options = options,
		.kernel = t->sum.kernel[0] ? t->sum.kernel : NULL, .analyzed_at = when,
		.events_not_recorded = missing,
	};
	struct db_ctx ctx = { db, d };
	int64_t id;
	int err;

	now_iso8601(when, sizeof(when));
	an_evlist_names(&t->sum, AN_EVLIST_MISSING, missing, sizeof(missing));
	err = t->is_streamed ? 0 : an_db_trace_begin(db, &row, &id, d);
	if (err)
		return err;
	err = add_verdicts(db, t, d);
	if (!err)
		err = add_coverage(db, t, d);
	if (!err)
		err = an_winbuf_for_each(&t->wins, db_window, &ctx);
	if (!err)
		err = an_db_series_add(db, &t->series, d);
	if (!err && t->is_streamed)
		err = an_db_trace_set(db, &row, d);
	if (!err)
		err = add_labels(db, labels, nr_labels, t, d);
	if (err) {
		an_db_trace_abort(db);
		return err;
	}
	return an_db_trace_commit(db, d);
}
