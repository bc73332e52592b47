// SPDX-License-Identifier: MIT
/*
 * analyze/run.c - the workers of `ucval analyze` (run.h): per trace, its
 * analysis (analyze/tracerun.h, streamed to the database when it can be,
 * analyze/stream.h), then its rows, table and JSON part, written by the
 * worker or by its writer thread.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analyze/console.h"
#include "analyze/jsonout.h"
#include "analyze/run.h"
#include "analyze/save.h"
#include "analyze/store/db.h"
#include "analyze/stream.h"
#include "analyze/tracerun.h"
#include "lib/exit.h"
#include "lib/stdout.h"
#include "lib/utf8.h"

/* Events between two progress lines on a terminal. */
#define PROGRESS_EVERY	1000000
/* Room for a diagnostic rendered as one line. */
#define DIAG_LINE_LEN	1024

/* Worst of two statuses: unreadable input, then failure, then doubt. */
static int worse(int a, int b)
{
	static const int rank[] = {
		[UCVAL_EXIT_OK] = 0, [UCVAL_EXIT_UNDECIDED] = 1, [UCVAL_EXIT_FAIL] = 2,
		[UCVAL_EXIT_USAGE] = 3,
	};

	return rank[a] >= rank[b] ? a : b;
}

static void progress(void *ctx, uint64_t n)
{
	fputc('\r', stderr);
	an_utf8_fputs(stderr, ctx, 0);
	fprintf(stderr, ": %llu events", (unsigned long long)n);
}

/* "ucval analyze: 'PATH': WHAT", the path escaped for the terminal. */
static void path_error(const char *path, const char *what)
{
	fputs("ucval analyze: '", stderr);
	an_utf8_fputs(stderr, path, 0);
	fprintf(stderr, "': %s\n", what);
}

/*
 * One trace of a worker, from its analysis to its output: @t with what the
 * analysis gave (or @err and @d when it failed), and where its table and
 * JSON object go. Table lines gather in @buf and reach standard output whole.
 * Allocated: @out writes @buf and @len back until it is closed, wherever the
 * job has gone meanwhile.
 */
struct job {
	const char *path;	/* the trace, for messages */
	struct an_tracerun *t;
	int err;
	struct an_diag d;
	FILE *out;		/* memory stream on @buf; NULL with --quiet */
	char *buf;
	size_t len;
	FILE *json;		/* this trace's JSON object; NULL without --json */
};

/* What an_analyze_opts.on_open needs to start a stream. */
struct stream_start_ctx {
	const struct an_run_opts *o;
	struct an_db **db;
	struct an_tracerun *t;
	struct an_stream *s;
};

/*
 * The trace opened: start its stream. Not before, so that an unreadable
 * trace does not even create the database file.
 */
static void stream_on_open(void *ctx)
{
	struct stream_start_ctx *c = ctx;

	c->s = an_stream_start(c->db, c->o->db_path, c->t->path, c->o->options);
	if (c->s) {
		c->t->series.sink = an_stream_sink;
		c->t->series.sink_ctx = c->s;
	}
}

/* The replay is over: end @t's stream; on failure, roll its transaction back. */
static void stream_end(struct stream_start_ctx *sc, struct job *j)
{
	struct an_diag sd;
	int err = an_stream_stop(sc->s, &sd);

	if (!j->err && err) {
		j->err = err;
		j->d = sd;
	}
	sc->t->series.sink = NULL;
	sc->t->is_streamed = !j->err;
	if (j->err)
		an_db_trace_abort(*sc->db);
}

/* CPUs this process may run on (its affinity), at least 1. */
static int nr_usable_cpus(void)
{
	cpu_set_t set;
	long n;

	if (!sched_getaffinity(0, sizeof(set), &set) && CPU_COUNT(&set) > 0)
		return CPU_COUNT(&set);
	n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (int)n : 1;
}

/* Workers an_run_all() starts: -j, at most one a trace. */
static int nr_workers(const struct an_run_opts *o)
{
	return (int)o->jobs < o->nr_traces ? (int)o->jobs : o->nr_traces;
}

/*
 * Whether each worker keeps the replay on its reading thread: when there
 * are at least as many workers as CPUs, every CPU already has a trace to
 * analyze, and a second thread per trace only adds its hand-over (four
 * 1 M-event synthetic traces, -j 2 on 2 CPUs: 1.75 s with the timed
 * choice, 1.55 s without threads; the results are the same either way).
 */
static bool is_workers_fill_cpus(const struct an_run_opts *o)
{
	int nr = nr_workers(o);

	return nr > 1 && nr >= nr_usable_cpus();
}

/* The analysis options of one trace: @o's, with the hooks of this run. */
static struct an_analyze_opts trace_opts(const struct an_run_opts *o, const char *path,
					 struct stream_start_ctx *sc)
{
	struct an_analyze_opts an = o->an;

	if (sc->db) {
		an.on_open = stream_on_open;
		an.on_open_ctx = sc;
	}
	/* tests: UCVAL_TIDY=1 packs idle tasks before every event (tasks.h) */
	if (getenv("UCVAL_TIDY"))
		an.replay.tasks_tidy_min = strtoul(getenv("UCVAL_TIDY"), NULL, 10);
	/* tests: UCVAL_FQ_FULL=1 asks the model at every frequency judgement */
	if (getenv("UCVAL_FQ_FULL"))
		an.replay.is_fq_full = strcmp(getenv("UCVAL_FQ_FULL"), "0") != 0;
	if (is_workers_fill_cpus(o))
		an.feed = AN_FEED_NONE;
	/* tests: UCVAL_FEED=thread or none instead of the timed choice */
	if (getenv("UCVAL_FEED"))
		an.feed = !strcmp(getenv("UCVAL_FEED"), "thread") ? AN_FEED_THREAD :
			  !strcmp(getenv("UCVAL_FEED"), "none") ? AN_FEED_NONE : AN_FEED_AUTO;
	if (isatty(STDERR_FILENO)) {
		an.progress = progress;
		an.progress_ctx = (void *)path;
		an.progress_every = PROGRESS_EVERY;
	}
	return an;
}

/*
 * Analyze one trace into @j (j->t NULL: out of memory, j->err set). With
 * @db (--db, the worker's only trace), its rows stream in as it is read
 * when the database is free (analyze/stream.h).
 */
static void analyze_trace(const struct an_run_opts *o, const char *path, struct job *j,
			  struct an_db **db)
{
	struct an_tracerun *t = an_tracerun_new(path, o->db_path != NULL);
	struct stream_start_ctx sc = { o, db, t, NULL };
	struct an_analyze_opts an;

	an_diag_clear(&j->d);
	j->t = t;
	if (!t) {
		j->err = an_diag_fail(&j->d, -ENOMEM, "'%s': out of memory", path);
		return;
	}
	an = trace_opts(o, path, &sc);
	t->series.task_tidy_min = an.replay.tasks_tidy_min;	/* UCVAL_TIDY */
	j->err = an_tracerun_analyze(t, &an, &j->d);
	if (an.progress && t->sum.n_events >= PROGRESS_EVERY)
		fputc('\n', stderr);
	if (sc.s)
		stream_end(&sc, j);
	if (j->err)
		return;
	an_tracerun_conclude(t, o->an.replay.fidelity, o->is_strict);
}

/*
 * Write @j's table and JSON part and flush them; free the job. Return: 0,
 * or -1 when one of them could not be written (said on stderr).
 */
static int output_trace(struct job *j, const struct an_diag *err)
{
	bool is_whole = true;	/* the table, in memory */
	int ret = 0;

	if (j->out && !err && an_console_print(j->out, j->t))
		is_whole = false;
	if (j->json && j->t)
		an_jsonout_trace(j->json, j->t, err);
	if (j->json && an_jsonout_part_close(j->json, j->path))
		ret = -1;
	if (j->out) {
		if (fclose(j->out) || !is_whole) {
			path_error(j->path, "out of memory for its table");
			ret = -1;
		}
		if (j->buf)
			fwrite(j->buf, 1, j->len, stdout);
		if (an_stdout_flush("analyze"))
			ret = -1;
		free(j->buf);
	}
	an_tracerun_free(j->t);
	free(j);
	return ret;
}

/*
 * Store an analyzed trace (--db), print its table and JSON, flush them and
 * free the job. Return: its exit status; 2 when its analysis, its store or
 * its output failed.
 */
static int finish_trace(const struct an_run_opts *o, struct an_db **db, struct job *j)
{
	struct an_tracerun *t = j->t;
	char line[DIAG_LINE_LEN];
	int err = j->err, status;

	if (!err && o->db_path) {
		if (!*db)
			err = an_db_open(db, o->db_path, &j->d);
		if (!err)
			err = an_save_trace(*db, o->options, o->labels, o->nr_labels, t, &j->d);
	}
	if (err) {
		an_diag_format(&j->d, line, sizeof(line));
		fprintf(stderr, "ucval analyze: %s\n", line);
		status = UCVAL_EXIT_USAGE;
		if (t)
			t->status = status;
	} else {
		status = t->status;
	}
	/* a table or JSON that was not written is a lost result */
	if (output_trace(j, err ? &j->d : NULL))
		status = UCVAL_EXIT_USAGE;
	return status;
}

/*
 * A worker's database side (--db with more than one trace): a thread that
 * runs finish_trace() on trace i while the worker analyzes trace i + 1. The
 * write then overlaps the next reading instead of following it, and a
 * worker whose write waits for another -j worker's transaction goes on
 * analyzing meanwhile. At most one trace waits: writer_submit() blocks until
 * the thread has taken the one before.
 */
struct writer {
	const struct an_run_opts *o;
	struct an_db *db;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	pthread_t tid;
	struct job *job;	/* waits for the thread; NULL: none */
	bool is_done;		/* no more jobs */
	int status;		/* worst so far */
};

static void *writer_thread(void *arg)
{
	struct writer *w = arg;
	struct job *j;
	int status;

	for (;;) {
		pthread_mutex_lock(&w->lock);
		while (!w->job && !w->is_done)
			pthread_cond_wait(&w->cond, &w->lock);
		j = w->job;
		if (!j) {
			pthread_mutex_unlock(&w->lock);
			return NULL;
		}
		w->job = NULL;
		pthread_cond_broadcast(&w->cond);
		pthread_mutex_unlock(&w->lock);
		status = finish_trace(w->o, &w->db, j);

		pthread_mutex_lock(&w->lock);
		w->status = worse(w->status, status);
		pthread_mutex_unlock(&w->lock);
	}
}

/* Start @w's thread; false when there is none to be had (the worker writes). */
static bool writer_start(struct writer *w)
{
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->cond, NULL);
	if (!pthread_create(&w->tid, NULL, writer_thread, w))
		return true;
	pthread_cond_destroy(&w->cond);
	pthread_mutex_destroy(&w->lock);
	return false;
}

static void writer_submit(struct writer *w, struct job *j)
{
	pthread_mutex_lock(&w->lock);
	while (w->job)
		pthread_cond_wait(&w->cond, &w->lock);
	w->job = j;
	pthread_cond_broadcast(&w->cond);
	pthread_mutex_unlock(&w->lock);
}

/* Wait for the thread to finish every job; return the worst status. */
static int writer_stop(struct writer *w)
{
	pthread_mutex_lock(&w->lock);
	w->is_done = true;
	pthread_cond_broadcast(&w->cond);
	pthread_mutex_unlock(&w->lock);
	pthread_join(w->tid, NULL);
	pthread_cond_destroy(&w->cond);
	pthread_mutex_destroy(&w->lock);
	an_db_close(w->db);
	return w->status;
}

/* A job for trace @i, its outputs open; NULL (and *@status 2) when out of memory. */
static struct job *job_new(const struct an_run_opts *o, int i, const char *json_dir,
			   int *status)
{
	struct job *j = calloc(1, sizeof(*j));

	if (!j) {
		path_error(o->traces[i], "out of memory");
		*status = UCVAL_EXIT_USAGE;
		return NULL;
	}
	j->path = o->traces[i];
	if (!o->is_quiet) {
		j->out = open_memstream(&j->buf, &j->len);
		if (!j->out) {
			path_error(o->traces[i], "out of memory for its table");
			*status = UCVAL_EXIT_USAGE;
		}
	}
	if (json_dir) {
		j->json = an_jsonout_part_open(json_dir, i);
		if (!j->json)
			*status = UCVAL_EXIT_USAGE;
	}
	return j;
}

/*
 * One worker: traces @first, @first + @step, ... Its table output and JSON
 * objects go to per-trace buffers flushed whole, so parallel workers never
 * interleave lines. JSON objects land in @json_dir's parts.
 */
static int run_worker(const struct an_run_opts *o, int first, int step, const char *json_dir)
{
	struct writer w = { .o = o, .status = UCVAL_EXIT_OK };
	bool has_writer = false;
	struct an_db *db = NULL;
	int status = UCVAL_EXIT_OK;

	if (o->db_path && first + step < o->nr_traces)
		has_writer = writer_start(&w);
	for (int i = first; i < o->nr_traces; i += step) {
		struct job *j = job_new(o, i, json_dir, &status);

		if (!j)
			continue;
		/* one trace: nothing to overlap its write with but its own reading */
		analyze_trace(o, o->traces[i], j,
			      o->db_path && first + step >= o->nr_traces ? &db : NULL);
		if (has_writer)
			writer_submit(&w, j);
		else
			status = worse(status, finish_trace(o, &db, j));
	}
	if (has_writer)
		status = worse(status, writer_stop(&w));
	an_db_close(db);
	return status;
}

int an_run_all(const struct an_run_opts *o, const char *json_dir)
{
	int nr = nr_workers(o);
	int status = UCVAL_EXIT_OK, wst;
	pid_t pids[AN_RUN_MAX_JOBS];

	if (nr <= 1)
		return run_worker(o, 0, 1, json_dir);
	fflush(NULL);
	for (int k = 0; k < nr; k++) {
		pids[k] = fork();
		if (pids[k] < 0) {
			fprintf(stderr, "ucval analyze: cannot start worker: %s\n", strerror(errno));
			nr = k;
			status = UCVAL_EXIT_USAGE;
			break;
		}
		if (pids[k] == 0)
			_exit(run_worker(o, k, nr, json_dir));
	}
	for (int k = 0; k < nr; k++) {
		if (waitpid(pids[k], &wst, 0) < 0 || !WIFEXITED(wst) || WEXITSTATUS(wst) > 3) {
			fprintf(stderr, "ucval analyze: worker %d did not finish\n", k);
			status = UCVAL_EXIT_USAGE;
			continue;
		}
		status = worse(status, WEXITSTATUS(wst));
	}
	return status;
}
