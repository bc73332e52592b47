// SPDX-License-Identifier: MIT
/*
 * analyze/tracerun.c - one trace's analysis for `ucval analyze`: the
 * analysis with the hash of what it read beside it, then the trace's model
 * label and exit status (events.md §4).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/*
 * The trace's sha256, of the bytes its reader reads (struct an_source_tap),
 * computed on a thread of its own. The reader copies each run of bytes
 * into a ring of blocks the thread hashes; it waits only when every block
 * waits to be hashed. A trace.dat file's rest (read out of order by its
 * reader) the thread reads itself. It stops when the analysis failed.
 */
#define HASH_BLOCK	(64 * 1024)
#define HASH_BLOCKS	4
/* Bytes of a file hashed between two looks at the stop flag. */
#define HASH_SLICE	(1 << 20)

struct hasher {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	pthread_t tid;
	bool is_threaded;	/* false: the reader hashes as it reads */
	uint8_t *ring;		/* HASH_BLOCKS blocks of HASH_BLOCK bytes */
	size_t len[HASH_BLOCKS];	/* bytes in each handed block */
	unsigned long head;	/* blocks handed to the thread */
	unsigned long tail;	/* blocks it hashed */
	size_t fill;		/* bytes in block head, the reader's own */
	int fd;			/* a file's rest to hash, -1: none */
	uint64_t from, to;
	bool is_done;		/* the reader is done */
	bool is_stopped;	/* the analysis failed: no hash wanted */
	struct an_sha256 sha;
	struct an_diag d;
	int err;
};

/* Bytes [@from, @to) of @fd into the hash; under no lock. */
static void hash_file(struct hasher *h, int fd, uint64_t from, uint64_t to)
{
	bool is_stopped = false;

	while (from < to && !is_stopped && !h->err) {
		uint64_t n = to - from < HASH_SLICE ? to - from : HASH_SLICE;

		h->err = an_sha256_range(&h->sha, fd, from, from + n, &h->d);
		from += n;
		if (h->is_threaded) {
			pthread_mutex_lock(&h->lock);
			is_stopped = h->is_stopped;
			pthread_mutex_unlock(&h->lock);
		}
	}
	close(fd);
}

static void *hash_thread(void *arg)
{
	struct hasher *h = arg;

	pthread_mutex_lock(&h->lock);
	for (;;) {
		while (h->head == h->tail && h->fd < 0 && !h->is_done && !h->is_stopped)
			pthread_cond_wait(&h->cond, &h->lock);
		if (h->is_stopped)
			break;
		if (h->head != h->tail) {
			unsigned int b = h->tail % HASH_BLOCKS;
			size_t len = h->len[b];

			pthread_mutex_unlock(&h->lock);
			an_sha256_update(&h->sha, h->ring + (size_t)b * HASH_BLOCK, len);
			pthread_mutex_lock(&h->lock);
			h->tail++;
			pthread_cond_broadcast(&h->cond);
		} else if (h->fd >= 0) {
			int fd = h->fd;
			uint64_t from = h->from, to = h->to;

			h->fd = -1;
			pthread_mutex_unlock(&h->lock);
			hash_file(h, fd, from, to);
			pthread_mutex_lock(&h->lock);
		} else {
			break;
		}
	}
	pthread_mutex_unlock(&h->lock);
	return NULL;
}

/* Hand block head (its @fill bytes) to the thread; wait for a free block. */
static void hand_block(struct hasher *h)
{
	pthread_mutex_lock(&h->lock);
	h->len[h->head % HASH_BLOCKS] = h->fill;
	h->head++;
	h->fill = 0;
	pthread_cond_broadcast(&h->cond);
	while (h->head - h->tail >= HASH_BLOCKS)
		pthread_cond_wait(&h->cond, &h->lock);
	pthread_mutex_unlock(&h->lock);
}

/* struct an_source_tap.bytes: on the reader's thread. */
static void tap_bytes(void *ctx, const void *buf, size_t len)
{
	struct hasher *h = ctx;
	const uint8_t *p = buf;

	if (!h->is_threaded) {
		an_sha256_update(&h->sha, buf, len);
		return;
	}
	while (len) {
		size_t take = HASH_BLOCK - h->fill < len ? HASH_BLOCK - h->fill : len;

		memcpy(h->ring + (size_t)(h->head % HASH_BLOCKS) * HASH_BLOCK + h->fill, p, take);
		h->fill += take;
		p += take;
		len -= take;
		if (h->fill == HASH_BLOCK)
			hand_block(h);
	}
}

/* struct an_source_tap.rest: after the bytes before it. */
static void tap_rest(void *ctx, int fd, uint64_t from, uint64_t to)
{
	struct hasher *h = ctx;

	if (!h->is_threaded) {
		hash_file(h, fd, from, to);
		return;
	}
	if (h->fill)
		hand_block(h);
	pthread_mutex_lock(&h->lock);
	h->fd = fd;
	h->from = from;
	h->to = to;
	pthread_cond_broadcast(&h->cond);
	pthread_mutex_unlock(&h->lock);
}

/* Start @h for @path: a thread when one can be had, else hashing inline. */
static void hasher_start(struct hasher *h, const char *path)
{
	*h = (struct hasher){ .fd = -1 };
	an_sha256_init(&h->sha);
	an_diag_clear(&h->d);
	an_diag_set_file(&h->d, "read", path);
	h->ring = malloc((size_t)HASH_BLOCKS * HASH_BLOCK);
	if (!h->ring)
		return;
	pthread_mutex_init(&h->lock, NULL);
	pthread_cond_init(&h->cond, NULL);
	h->is_threaded = !pthread_create(&h->tid, NULL, hash_thread, h);
	if (h->is_threaded)
		return;
	pthread_cond_destroy(&h->cond);
	pthread_mutex_destroy(&h->lock);
	free(h->ring);
	h->ring = NULL;
}

/* The reader is done (@is_read: to its end): stop the thread, keep the hash. */
static void hasher_stop(struct hasher *h, bool is_read)
{
	if (h->is_threaded) {
		if (is_read && h->fill)
			hand_block(h);
		pthread_mutex_lock(&h->lock);
		h->is_done = true;
		h->is_stopped = !is_read;
		pthread_cond_broadcast(&h->cond);
		pthread_mutex_unlock(&h->lock);
		pthread_join(h->tid, NULL);
		pthread_cond_destroy(&h->cond);
		pthread_mutex_destroy(&h->lock);
		free(h->ring);
	}
	if (h->fd >= 0)
		close(h->fd);
}

int an_tracerun_analyze(struct an_tracerun *t, const struct an_analyze_opts *an,
			struct an_diag *d)
{
	struct an_analyze_opts opts = *an;
	struct an_source_tap tap;
	struct hasher h;
	int err;

	hasher_start(&h, t->path);
	tap = (struct an_source_tap){ .bytes = tap_bytes, .rest = tap_rest, .ctx = &h };
	opts.tap = &tap;
	err = an_analyze_path(t->path, &opts, &t->res, &t->sum, d);
	hasher_stop(&h, !err);
	if (err)
		return err;
	if (h.err) {
		*d = h.d;
		return h.err;
	}
	an_sha256_final(&h.sha, t->sha256);
	return 0;
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
