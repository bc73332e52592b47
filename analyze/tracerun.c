// SPDX-License-Identifier: MIT
/*
 * analyze/tracerun.c - one trace's analysis for `ucval analyze`: the
 * analysis with its hash beside it, then the trace's model label and exit
 * status (events.md §4).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/tracerun.h"
#include "lib/exit.h"

struct an_tracerun *an_tracerun_new(const char *path, bool has_series)
{
	struct an_tracerun *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->path = path;
	an_winbuf_init(&t->wins);
	an_results_init(&t->res, an_winbuf_sink, &t->wins);
	an_series_init(&t->series);
	if (has_series)
		t->res.series = &t->series;
	return t;
}

/* The file's sha256, computed beside the analysis (hash_thread()). */
struct hash_job {
	const char *path;
	char *hex;
	struct an_diag d;
	int err;
};

static void *hash_thread(void *arg)
{
	struct hash_job *h = arg;

	h->err = an_sha256_file(h->path, h->hex, &h->d);
	return NULL;
}

int an_tracerun_analyze(struct an_tracerun *t, const struct an_analyze_opts *an,
			struct an_diag *d)
{
	struct hash_job h = { .path = t->path, .hex = t->sha256 };
	pthread_t tid;
	bool is_threaded;
	int err;

	an_diag_clear(&h.d);
	is_threaded = !pthread_create(&tid, NULL, hash_thread, &h);
	if (!is_threaded)
		hash_thread(&h);
	err = an_analyze_path(t->path, an, &t->res, &t->sum, d);
	if (is_threaded)
		pthread_join(tid, NULL);
	if (h.err) {
		*d = h.d;
		return h.err;
	}
	return err;
}

static int status(const struct an_tracerun *t, bool is_strict)
{
	bool is_hiding = false;

	for (int i = 0; i < AN_CHECK__COUNT; i++) {
		const struct an_check_stats *s = &t->res.stats[i];

		if (an_check_verdict(s) == AN_FAIL)
			return UCVAL_EXIT_FAIL;
		if (s->is_hiding)
			is_hiding = true;
	}
	if (is_hiding)
		return is_strict ? UCVAL_EXIT_FAIL : UCVAL_EXIT_UNDECIDED;
	return UCVAL_EXIT_OK;
}

void an_tracerun_conclude(struct an_tracerun *t, enum model_fidelity fidelity, bool is_strict)
{
	snprintf(t->model, sizeof(t->model), "%s%s", t->sum.model ? t->sum.model : "?",
		 t->sum.model && !strcmp(t->sum.model, "v3") ?
		 (fidelity == MODEL_SEED ? "/seed" : "/intent") : "");
	t->status = status(t, is_strict);
}

void an_tracerun_free(struct an_tracerun *t)
{
	if (!t)
		return;
	an_winbuf_release(&t->wins);
	an_series_release(&t->series);
	free(t);
}
