// SPDX-License-Identifier: MIT
/*
 * analyze/analyze.c - one trace through the reader, the replay and the
 * checks (analyze.h).
 */
#include <errno.h>
#include <stddef.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/read/alias.h"
#include "analyze/analyze.h"
#include "analyze/checks/checks.h"
#include "analyze/read/reader.h"
#include "analyze/store/series.h"
#include "lib/vec.h"

#define PROGRESS_EVERY	1000000

static void fill_replay(struct an_summary *sum, const struct an_replay *r)
{
	if (!r)
		return;
	sum->nr_cpus_model = r->nr_cpus;
	sum->nr_cpus_known = r->nr_known_cpus;
	if (r->is_started) {
		sum->model = r->variant == MODEL_V3 ? "v3" : "mainline";
		sum->model_source = r->model_source;
		sum->groups = r->sys.cfg.groups;
		sum->kver = r->kver;
	}
	if (r->plat.kernel[0] && !sum->kernel[0])
		snprintf(sum->kernel, sizeof(sum->kernel), "%s", r->plat.kernel);
	sum->nr_policies = r->nr_policies;
	sum->nr_tasks = r->nr_tasks_seen;
	sum->nr_switches = r->nr_switches;
	sum->nr_lost_reports = r->nr_lost_reports;
	sum->nr_lost_events = r->nr_lost_events;
	sum->nr_resets = r->nr_resets;
	sum->nr_learnt = r->nr_learnt;
	sum->nr_requests = r->nr_requests;
	sum->nr_unrecorded = r->nr_unrecorded;
	memcpy(sum->notes, r->notes, sizeof(sum->notes));
	sum->nr_notes = r->nr_notes;
}

static bool any_freq_check(const struct an_replay *r)
{
	return an_check_is_enabled(r->opts.checks, AN_CHECK_FREQ_BELOW_MIN_CLAMP) ||
	       an_check_is_enabled(r->opts.checks, AN_CHECK_FREQ_ABOVE_MAX_CLAMP) ||
	       an_check_is_enabled(r->opts.checks, AN_CHECK_FREQ_PREDICTION);
}

int an_analyze_replay_new(const struct an_replay_opts *opts, struct an_results *res,
			  struct an_replay **out, struct an_diag *d)
{
	uint32_t checks = opts ? opts->checks : 0;
	struct an_replay *r;
	int err = an_replay_new(opts, &res->err, &r, d);

	*out = NULL;
	if (err)
		return err;
	for (unsigned int i = 0; i < an_checks_nr_builtin; i++) {
		if (!an_check_is_enabled(checks, an_checks_builtin[i].id))
			continue;
		err = an_checks_builtin[i].attach(r, res, d);
		if (err)
			goto out_free;
	}
	/* last, so that it sees each event after every check did */
	if (res->series) {
		if (an_series_attach(r, res->series)) {
			err = an_diag_fail(d, -ENOMEM, "out of memory");
			goto out_free;
		}
		res->freq_sink = an_series_freq_sink(res->series);
	}
	*out = r;
	return 0;

out_free:
	an_replay_free(r);
	return err;
}

/*
 * The replay runs on a thread of its own while the calling thread reads
 * (struct feed): the reader decodes events into batches that the replay
 * takes in order, so reading (libtracecmd or the text parser, and the
 * decoding) overlaps the model and the checks. The reader keeps the
 * calling thread; the replay moves (see FEED_PROBE for when).
 * Each event comes with what the replay needs of it: the reader's return,
 * its diagnostic, the CPU count the reader knew then, and copies of the
 * text name and the print text, which the reader lends only until its next
 * call. The replay sees the sequence the plain loop gives; without a
 * thread, feed_next() is that loop.
 *
 * What crosses between the two CPUs is kept small: the reader decodes into
 * its own event and diagnostic and hands over the event's header and its
 * type's member of the union only (an_alias_type().size, usually a cache
 * line or two of its 448 bytes), the diagnostic only with an error.
 */
#define FEED_BATCH	1024	/* events a batch */
#define FEED_BATCHES	4	/* batches in flight: the reader waits beyond */
#define FEED_LINE	64	/* cache line */

struct feed_slot {
	int ret;		/* of an_reader_next() */
	int nr_cpus;		/* an_reader_info.nr_cpus after it */
	uint64_t ev_unlisted;	/* unlisted_of() after it */
	size_t size;		/* bytes of @ev handed over */
	struct an_diag *ed;	/* ret < 0: the diagnostic */
	char *name;		/* copies the event points to */
	size_t name_size;
	char *text;
	size_t text_size;
	_Alignas(FEED_LINE) unsigned char ev[sizeof(struct an_event)];
};

struct feed_batch {
	unsigned int n;
	struct feed_slot slot[FEED_BATCH];
};

/*
 * Apart by cache lines: what both threads only read, what they share under
 * the lock, the reader's own and the replay's own.
 */
struct feed {
	struct an_reader *rd;
	const struct an_reader_info *info;
	bool is_threaded;
	bool is_name_lent;	/* text formats: the name points into a line */
	pthread_t tid;
	struct feed_batch *batch[FEED_BATCHES];

	/* read without the lock; the lock and @cond serve sleeping only */
	_Alignas(FEED_LINE) _Atomic uint64_t filled;	/* batches handed over, ever */
	_Atomic uint64_t taken;		/* batches the replay is done with, ever */
	_Atomic bool is_stopping;	/* the replay wants no more */
	_Atomic int nr_sleeping;
	pthread_mutex_t lock;
	pthread_cond_t cond;

	_Alignas(FEED_LINE) struct an_event rev;	/* the reader's */
	struct an_diag red;
	struct an_diag nomem;

	_Alignas(FEED_LINE) bool has_batch;	/* the replay reads batch taken % FEED_BATCHES */
	unsigned int at;	/* its next slot */
	struct an_event ev;	/* the replay's: the event it is given */
	struct an_diag ed;	/* without a thread */
};

/* Copy @len bytes of @src into *@buf (grown as needed), NUL-terminated. */
static int keep(char **buf, size_t *size, const char *src, size_t len)
{
	if (AN_VEC_GROW(*buf, len + 1, *size))
		return -ENOMEM;
	memcpy(*buf, src, len);
	(*buf)[len] = '\0';
	return 0;
}

/*
 * @s says "out of memory": in its own diagnostic when it has one from an
 * earlier round (dropping the pointer leaked it), else in the feed's.
 */
static void slot_nomem(struct feed *f, struct feed_slot *s)
{
	s->ret = an_diag_fail(&f->nomem, -ENOMEM, "out of memory");
	if (s->ed && s->ed != &f->nomem)
		*s->ed = f->nomem;
	else
		s->ed = &f->nomem;
}

/*
 * Wait until @is_ready: spin a while first, since a thread that sleeps must
 * be woken from the other CPU (5 M synthetic events: 4.2 s with the spin,
 * 4.2 to 4.4 s without; 1 M: 0.88 s, 0.89 to 0.92 s). Sleeping follows the
 * usual pattern: the sleeper counts itself before it checks, the waker
 * changes its counter before it looks for sleepers (all sequentially
 * consistent), so one of them sees the other.
 */
#define FEED_SPINS	4096

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

static void feed_wait(struct feed *f, bool (*is_ready)(struct feed *f))
{
	for (int i = 0; i < FEED_SPINS; i++) {
		if (is_ready(f))
			return;
		cpu_relax();
	}
	pthread_mutex_lock(&f->lock);
	atomic_fetch_add(&f->nr_sleeping, 1);
	while (!is_ready(f))
		pthread_cond_wait(&f->cond, &f->lock);
	atomic_fetch_sub(&f->nr_sleeping, 1);
	pthread_mutex_unlock(&f->lock);
}

/* After a counter changed: wake the other thread if it sleeps. */
static void feed_wake(struct feed *f)
{
	if (!atomic_load(&f->nr_sleeping))
		return;
	pthread_mutex_lock(&f->lock);
	pthread_cond_broadcast(&f->cond);
	pthread_mutex_unlock(&f->lock);
}

/* The reader may fill a batch, or must stop. */
static bool has_room(struct feed *f)
{
	return atomic_load(&f->filled) - atomic_load(&f->taken) < FEED_BATCHES ||
	       atomic_load(&f->is_stopping);
}

/* The replay has a batch to read. */
static bool has_batch(struct feed *f)
{
	return atomic_load(&f->filled) != atomic_load(&f->taken);
}

/*
 * The event types the capture's own list lacks (an_reader_info.ev_listed):
 * not recorded, for certain (an_replay_opts.ev_unlisted).
 */
static uint64_t unlisted_of(const struct an_reader_info *info)
{
	return info->ev_list == AN_EV_LIST_NONE ? 0 : ~info->ev_listed;
}

/* Decode the next event into @s (the reader's thread). */
static void read_one(struct feed *f, struct feed_slot *s)
{
	struct an_event *ev = &f->rev;

	an_diag_clear(&f->red);
	s->ret = an_reader_next(f->rd, ev, &f->red);
	s->nr_cpus = f->info->nr_cpus;
	s->ev_unlisted = unlisted_of(f->info);
	if (s->ret < 0) {
		if (!s->ed)
			s->ed = malloc(sizeof(*s->ed));
		if (!s->ed)
			goto out_nomem;
		*s->ed = f->red;
		return;
	}
	if (!s->ret)
		return;
	if (f->is_name_lent && ev->name) {
		if (keep(&s->name, &s->name_size, ev->name, strlen(ev->name)))
			goto out_nomem;
		ev->name = s->name;
	}
	if (ev->type == AN_EV_PRINT && ev->print.text) {
		if (keep(&s->text, &s->text_size, ev->print.text, ev->print.len))
			goto out_nomem;
		ev->print.text = s->text;
	}
	s->size = offsetof(struct an_event, sw) + an_alias_member_size(ev->type);
	memcpy(s->ev, ev, s->size);
	return;
out_nomem:
	slot_nomem(f, s);
}

/* The reader's loop, on the calling thread, until the end or a stop. */
static void feed_produce(struct feed *f)
{
	bool is_end = false;

	while (!is_end) {
		struct feed_batch *b;

		feed_wait(f, has_room);
		if (atomic_load(&f->is_stopping))
			break;
		b = f->batch[atomic_load(&f->filled) % FEED_BATCHES];
		for (b->n = 0; b->n < FEED_BATCH && !is_end; b->n++) {
			struct feed_slot *s = &b->slot[b->n];

			/* a slot's diagnostic from an earlier round is not this one's */
			if (s->ed == &f->nomem)
				s->ed = NULL;
			read_one(f, s);
			is_end = !s->ret || (s->ret < 0 && !an_error_is_recoverable(s->ret));
		}
		atomic_fetch_add(&f->filled, 1);
		feed_wake(f);
	}
}

/* The replay is done (its end, or an error): the reader stops. */
static void feed_stop(struct feed *f)
{
	atomic_store(&f->is_stopping, true);
	feed_wake(f);
}

/* A feed without a thread: feed_next() reads as it goes. */
static void feed_init(struct feed *f, struct an_reader *rd)
{
	memset(f, 0, sizeof(*f));
	f->rd = rd;
	f->info = an_reader_info(rd);
	f->is_name_lent = f->info->format != AN_FORMAT_TRACEDAT;
}

/*
 * Continue the replay, @fn(@arg), on a thread while the calling thread
 * reads (feed_produce()); false when it stays on the calling thread (no
 * memory, no thread).
 */
static bool feed_start(struct feed *f, void *(*fn)(void *), void *arg)
{
	for (int i = 0; i < FEED_BATCHES; i++) {
		f->batch[i] = calloc(1, sizeof(*f->batch[i]));
		if (!f->batch[i])
			return false;
	}
	pthread_mutex_init(&f->lock, NULL);
	pthread_cond_init(&f->cond, NULL);
	f->is_threaded = true;
	if (!pthread_create(&f->tid, NULL, fn, arg))
		return true;
	f->is_threaded = false;
	pthread_cond_destroy(&f->cond);
	pthread_mutex_destroy(&f->lock);
	return false;
}

/*
 * The next event: the reader's return, with the event in f->ev (ret > 0)
 * or the diagnostic in *@ed (ret < 0), both valid until the next call; and
 * the CPU count and the unlisted event types the reader knew. Not to be
 * called again after an end (0) or an unrecoverable error.
 */
static int feed_next(struct feed *f, const struct an_diag **ed, int *nr_cpus,
		     uint64_t *unlisted)
{
	struct feed_batch *b = f->batch[atomic_load(&f->taken) % FEED_BATCHES];
	struct feed_slot *s;

	if (!f->is_threaded) {
		int ret;

		an_diag_clear(&f->ed);
		ret = an_reader_next(f->rd, &f->ev, &f->ed);
		*ed = &f->ed;
		*nr_cpus = f->info->nr_cpus;
		*unlisted = unlisted_of(f->info);
		return ret;
	}
	if (!f->has_batch || f->at == b->n) {
		if (f->has_batch) {
			atomic_fetch_add(&f->taken, 1);
			feed_wake(f);
		}
		feed_wait(f, has_batch);
		f->has_batch = true;
		f->at = 0;
		b = f->batch[atomic_load(&f->taken) % FEED_BATCHES];
	}
	s = &b->slot[f->at++];
	*ed = s->ed;
	*nr_cpus = s->nr_cpus;
	*unlisted = s->ev_unlisted;
	if (s->ret > 0)
		memcpy(&f->ev, s->ev, s->size);
	return s->ret;
}

/* Wait for the replay's thread (the reader has stopped) and free the batches. */
static void feed_release(struct feed *f)
{
	if (f->is_threaded) {
		pthread_join(f->tid, NULL);
		pthread_cond_destroy(&f->cond);
		pthread_mutex_destroy(&f->lock);
		f->is_threaded = false;
	}
	for (int i = 0; i < FEED_BATCHES; i++) {
		if (!f->batch[i])
			continue;
		for (int k = 0; k < FEED_BATCH; k++) {
			struct feed_slot *s = &f->batch[i]->slot[k];

			free(s->name);
			free(s->text);
			if (s->ed != &f->nomem)
				free(s->ed);
		}
		free(f->batch[i]);
		f->batch[i] = NULL;
	}
}

/*
 * Whether the replay gets a thread is measured, not guessed: the first
 * FEED_PROBE events are read and replayed on the calling thread, each part
 * timed; a thread follows when the replay took more than FEED_RATIO times
 * the reading. A light replay gains little from the overlap and loses to
 * the hand-over (a 4 M-event recording without frequency checks: 1.1 s on
 * one thread, 1.3 s on two), a heavy one gains (1 M synthetic events with
 * every check busy: 1.1 s, 0.87 s). Either way the events, their order and
 * the results are the same. One event in FEED_SAMPLE is timed: three
 * clock_gettime() calls an event took 29 % of the time of a 50 k-event
 * trace (perf, a KVM guest), and a sample compares the two parts alike.
 */
#define FEED_PROBE	(1u << 17)
#define FEED_SAMPLE	16
#define FEED_RATIO	2

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* The replay's side of an_analyze_path(). */
struct run {
	struct feed *f;
	struct an_replay *r;
	const struct an_analyze_opts *opts;
	struct an_summary *sum;
	const char *path;
	struct an_diag *d;	/* filled when @err */
	uint64_t every;
	int err;
	uint64_t probe_left;	/* events still to time; 0: not probing */
	uint64_t read_ns;	/* of the probe */
	uint64_t replay_ns;
	bool is_probed;		/* the probe ended before the trace */
};

/*
 * Replay the events the feed gives, until the end, an error (u->err,
 * u->d) or the probe's end (u->is_probed).
 */
static void replay_loop(struct run *u)
{
	struct feed *f = u->f;
	struct an_replay *r = u->r;
	struct an_summary *sum = u->sum;

	u->is_probed = false;
	for (;;) {
		const struct an_event *ev = &f->ev;
		const struct an_diag *ed;
		int nr_cpus, err;
		uint64_t unlisted;
		uint64_t t0 = 0, t1 = 0;

		if (u->probe_left) {
			if (!--u->probe_left) {
				u->is_probed = true;
				return;
			}
			if (!(u->probe_left % FEED_SAMPLE))
				t0 = mono_ns();
		}
		err = feed_next(f, &ed, &nr_cpus, &unlisted);
		if (t0) {
			t1 = mono_ns();
			u->read_ns += t1 - t0;
		}
		if (err == 0)
			break;
		if (err < 0) {
			if (!an_error_is_recoverable(err)) {
				*u->d = *ed;
				u->err = err;
				return;
			}
			if (!sum->n_errors++)
				an_diag_format(ed, sum->first_error, sizeof(sum->first_error));
			continue;
		}
		if (!r->is_started && !u->opts->replay.nr_cpus)
			r->opts.nr_cpus = (unsigned int)(nr_cpus > 0 ? nr_cpus : 0);
		if (!r->is_started && !u->opts->replay.ev_unlisted)
			r->opts.ev_unlisted = unlisted;
		if (!sum->has_events || ev->ts_ns < sum->t_start_ns)
			sum->t_start_ns = ev->ts_ns;
		if (!sum->has_events || ev->ts_ns > sum->t_end_ns)
			sum->t_end_ns = ev->ts_ns;
		sum->has_events = true;
		sum->n_events++;
		if ((unsigned int)ev->type < AN_EV__COUNT)
			sum->n_type[ev->type]++;
		err = an_replay_event(r, ev, u->d);
		if (t1)
			u->replay_ns += mono_ns() - t1;
		if (err) {
			an_diag_set_file(u->d, "analyze", u->path);
			u->d->line = ev->pos;
			u->err = err;
			return;
		}
		if (u->opts->progress && !(sum->n_events % u->every))
			u->opts->progress(u->opts->progress_ctx, sum->n_events);
	}
}

static void *replay_thread(void *arg)
{
	struct run *u = arg;

	replay_loop(u);
	feed_stop(u->f);
	return NULL;
}

int an_analyze_path(const char *path, const struct an_analyze_opts *opts,
		    struct an_results *res, struct an_summary *sum, struct an_diag *d)
{
	static const struct an_analyze_opts none;
	const struct an_reader_info *info;
	struct an_replay_opts ropts;
	struct an_reader *rd = NULL;
	struct an_replay *r = NULL;
	struct feed *f = NULL;
	struct run u;
	uint64_t every;
	int err;

	if (!opts)
		opts = &none;
	memset(sum, 0, sizeof(*sum));
	sum->model = "";
	sum->model_source = "";
	every = opts->progress_every ? opts->progress_every : PROGRESS_EVERY;
	err = an_reader_open_tap(path, opts->tap, &rd, d);
	if (err)
		return err;
	if (opts->on_open)
		opts->on_open(opts->on_open_ctx);
	info = an_reader_info(rd);
	snprintf(sum->format, sizeof(sum->format), "%s", info->format_name);
	sum->file_version = info->file_version;
	snprintf(sum->kernel, sizeof(sum->kernel), "%s", info->kernel_release);
	ropts = opts->replay;
	if (!ropts.trace_kernel)
		ropts.trace_kernel = info->kernel_release;
	err = an_analyze_replay_new(&ropts, res, &r, d);
	if (err)
		goto out_close;
	f = aligned_alloc(FEED_LINE, sizeof(*f));
	if (!f) {
		err = an_diag_fail(d, -ENOMEM, "out of memory");
		goto out_free;
	}
	u = (struct run){ .f = f, .r = r, .opts = opts, .sum = sum, .path = path, .d = d,
			  .every = every };
	feed_init(f, rd);
	if (opts->feed == AN_FEED_AUTO) {
		u.probe_left = FEED_PROBE;
		replay_loop(&u);
	} else {
		u.is_probed = true;
	}
	if (!u.err && u.is_probed) {
		if (opts->feed != AN_FEED_NONE &&
		    (opts->feed == AN_FEED_THREAD || u.replay_ns > FEED_RATIO * u.read_ns) &&
		    feed_start(f, replay_thread, &u)) {
			feed_produce(f);
			feed_release(f);
		} else {
			feed_release(f);
			replay_loop(&u);
		}
	}
	err = u.err;
	if (err)
		goto out_free;
	sum->n_unknown = info->nr_unknown;
	sum->nr_cpus = info->nr_cpus > 0 ? (unsigned int)info->nr_cpus : 0;
	sum->ev_list = info->ev_list;
	sum->ev_listed = info->ev_list == AN_EV_LIST_NONE ? 0 : info->ev_listed;
	if (r->is_started && r->nr_unrecorded &&
	    an_replay_is_unrecorded(r, AN_EV_SCHED_MIGRATE_TASK, NULL))
		an_replay_note(r, "no sched_migrate_task events: %llu task moves between cpus "
			       "taken as migrations the capture did not record; what they "
			       "leave unknown is UNDECIDED", (unsigned long long)r->nr_unrecorded);
	if (r->is_started && sum->n_type[AN_EV_SCHED_SWITCH] &&
	    !sum->n_type[AN_EV_SCHED_WAKEUP] && !sum->n_type[AN_EV_SCHED_WAKEUP_NEW] &&
	    !sum->n_type[AN_EV_SCHED_WAKING])
		an_replay_note(r, "no sched_wakeup events: a task counts as queued only "
			       "from its switch-in");
	if (r->is_started && sum->n_type[AN_EV_SCHED_WAKING] && !sum->n_type[AN_EV_SCHED_WAKEUP])
		an_replay_note(r, "no sched_wakeup events: sched_waking taken as the enqueue "
			       "on its target cpu, which is UNDECIDED until its next event");
	if (r->is_started && any_freq_check(r))
		an_replay_note(r, "irq, DL and RT utilization taken as 0 where the trace "
			       "does not show them");
	if (r->is_started && info->nr_lost_before)
		an_replay_note(r, "%llu overwritten events the buffer statistics count on %u "
			       "CPU(s) are older than this file: its buffer had been read "
			       "before it was saved; they are in no window",
			       info->nr_lost_before, info->nr_cpus_read_before);
	if (r->is_started && info->nr_formats_blanked)
		an_replay_note(r, "%u event print formats ignored (first: %s): libtraceevent "
			       "cannot parse them safely; ucval reads only the fields",
			       info->nr_formats_blanked, info->format_blanked);
	err = an_replay_finish(r, sum->t_end_ns);
	if (err)
		an_diag_fail(d, err, "storing the results failed");
	else
		an_results_finish(res);
out_free:
	free(f);
	fill_replay(sum, r);
	an_replay_free(r);
out_close:
	an_reader_close(rd);
	return err;
}
