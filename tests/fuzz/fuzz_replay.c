// SPDX-License-Identifier: MIT
/*
 * tests/fuzz/fuzz_replay.c - libFuzzer target for the replay: the model and
 * every check (analyze/replay/replay.c, sched.c, requests.c, check_*.c, model/)
 * on whatever events a trace gives, in any order, with any values. The
 * first byte picks options (the model, v3 fidelity, a grace, a CPU count);
 * the rest is the trace: a trace.dat when it starts with the magic
 * (written to a memfd, opened by path as ucval does), else ftrace text.
 *
 * Besides the sanitizers: the replay fails only on a model configuration
 * that cannot be (a platform marker's, AN_E_VALUE with a reason); every
 * window it closes names a check, ends no earlier than it starts, and a FAIL
 * window cites a rule.
 */
#define _GNU_SOURCE	/* memfd_create() */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "analyze/analyze.h"
#include "analyze/read/dat/datcheck.h"
#include "analyze/read/reader.h"
#include "tests/fuzz/fuzz_common.h"

/* Events replayed at most; inputs are small, this is a backstop. */
#define FUZZ_MAX_EVENTS 20000

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int sink(void *ctx, const struct an_window *w)
{
	(void)ctx;
	if ((unsigned int)w->check >= AN_CHECK__COUNT || w->ts_end_ns < w->ts_start_ns ||
	    (w->is_fail && !w->rule) || !memchr(w->message, '\0', sizeof(w->message)))
		__builtin_trap();
	return 0;
}

static void options(uint8_t b, struct an_replay_opts *o)
{
	static const enum an_model models[] = { AN_MODEL_UNKNOWN, AN_MODEL_V3, AN_MODEL_MAINLINE,
						AN_MODEL_UNKNOWN };
	static const unsigned int grace_us[] = { 0, 0, 1, 20000 };

	memset(o, 0, sizeof(*o));
	o->model = models[b & 3];
	o->fidelity = (b >> 2) & 1 ? MODEL_SEED : MODEL_INTENT;
	o->grace_us = grace_us[(b >> 3) & 3];
	o->nr_cpus = (b >> 5) & 7;
}

/*
 * A reader over @data: a trace.dat through a memfd (*@fd), else text
 * through a memory stream (*@fp). False when the reader refuses it.
 */
static bool open_trace(const uint8_t *data, size_t size, int *fd, FILE **fp,
		       struct an_reader **rd)
{
	struct an_diag d;

	if (an_datcheck_is_magic(data, size))
		return fuzz_open_dat(data, size, fd, rd) == 0;
	*fp = fmemopen((void *)data, size, "r");
	return *fp && an_reader_open_stream(*fp, "fuzz.txt", rd, &d) == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct an_replay_opts o;
	struct an_replay *r;
	struct an_reader *rd = NULL;
	struct an_results res;
	struct an_event ev;
	struct an_diag d;
	uint64_t last = 0;
	FILE *fp = NULL;
	int rc, err = 0, n = 0, fd = -1;

	if (size < 2)
		return 0;	/* options and at least one byte of trace */
	options(data[0], &o);
	if (!open_trace(data + 1, size - 1, &fd, &fp, &rd))
		goto out_close;
	an_results_init(&res, sink, NULL);
	if (an_analyze_replay_new(&o, &res, &r, &d))
		__builtin_trap();	/* no platform file: only memory can fail */
	while (n++ < FUZZ_MAX_EVENTS) {
		rc = an_reader_next(rd, &ev, &d);
		if (rc == 0 || (rc < 0 && !an_error_is_recoverable(rc)))
			break;
		if (rc < 0)
			continue;
		err = an_replay_event(r, &ev, &d);
		if (err)
			break;
		last = ev.ts_ns > last ? ev.ts_ns : last;
	}
	if (err) {
		/* a model the platform marker describes that cannot be (exit 2) */
		if (err != AN_E_VALUE || !d.message[0])
			__builtin_trap();
	} else {
		if (an_replay_finish(r, last))
			__builtin_trap();
		an_results_finish(&res);
	}
	an_replay_free(r);
	an_reader_close(rd);
out_close:
	if (fp)
		fclose(fp);
	if (fd >= 0)
		close(fd);
	return 0;
}
