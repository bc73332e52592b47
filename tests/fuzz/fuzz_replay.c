/*
 * tests/fuzz/fuzz_replay.c - libFuzzer target for the replay: the model and
 * every check (analyze/replay.c, sched.c, requests.c, check_*.c, model/)
 * on whatever events an ftrace text trace gives, in any order, with any
 * values. The first byte picks options (the model, v3 fidelity, a grace,
 * a CPU count); the rest is the trace, read by the text reader.
 *
 * Besides the sanitizers: the replay fails only on a model configuration
 * that cannot be (a platform marker's, AN_E_VALUE with a reason); every
 * window it closes names a check, ends no earlier than it starts, and a FAIL
 * window cites a rule.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "analyze/reader.h"
#include "analyze/replay.h"
#include "tests/fuzz/fuzz_quiet.h"

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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct an_replay_opts o;
	struct an_replay *r;
	struct an_reader *rd;
	struct an_results res;
	struct an_event ev;
	struct an_diag d;
	uint64_t last = 0;
	FILE *fp;
	int rc, err = 0, n = 0;

	if (size < 2)
		return 0;	/* options and at least one byte of trace */
	options(data[0], &o);
	fp = fmemopen((void *)(data + 1), size - 1, "r");
	if (!fp)
		return 0;
	if (an_reader_open_stream(fp, "fuzz.txt", &rd, &d)) {
		fclose(fp);
		return 0;
	}
	an_results_init(&res, sink, NULL);
	if (an_replay_new(&o, &res, &r, &d))
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
	fclose(fp);
	return 0;
}
