// SPDX-License-Identifier: MIT
/*
 * analyze/stream.c - records to the database while the replay runs
 * (stream.h): a ring of AN_STREAM_CHUNKS chunks between the replay's
 * thread, which fills them, and a writer thread, which inserts them.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

#include "analyze/stream.h"

struct stream_chunk {
	struct an_series_rec rec[AN_STREAM_CHUNK];
	size_t len;
};

struct an_stream {
	struct an_db *db;
	struct stream_chunk *chunk[AN_STREAM_CHUNKS];
	pthread_mutex_t lock;
	pthread_cond_t cond;
	pthread_t tid;
	uint64_t published;	/* chunks handed to the thread, ever */
	uint64_t consumed;	/* chunks it has written, ever */
	bool is_done;		/* no chunk will follow */
	int err;		/* the thread's first failure, with @d */
	struct an_diag d;
};

static void *stream_thread(void *arg)
{
	struct an_stream *s = arg;

	for (;;) {
		struct stream_chunk *c;

		pthread_mutex_lock(&s->lock);
		while (s->consumed == s->published && !s->is_done)
			pthread_cond_wait(&s->cond, &s->lock);
		if (s->consumed == s->published) {
			pthread_mutex_unlock(&s->lock);
			return NULL;
		}
		c = s->chunk[s->consumed % AN_STREAM_CHUNKS];
		pthread_mutex_unlock(&s->lock);
		/* after a failure, chunks are only taken: the replay must not wait */
		for (size_t i = 0; i < c->len && !s->err; i++)
			s->err = an_db_series_put(s->db, &c->rec[i], &s->d);
		pthread_mutex_lock(&s->lock);
		s->consumed++;
		pthread_cond_broadcast(&s->cond);
		pthread_mutex_unlock(&s->lock);
	}
}

/* Hand the chunk being filled to the thread; wait until the next one is free. */
static void publish(struct an_stream *s)
{
	pthread_mutex_lock(&s->lock);
	s->published++;
	pthread_cond_broadcast(&s->cond);
	while (s->published - s->consumed >= AN_STREAM_CHUNKS)
		pthread_cond_wait(&s->cond, &s->lock);
	pthread_mutex_unlock(&s->lock);
	s->chunk[s->published % AN_STREAM_CHUNKS]->len = 0;
}

int an_stream_sink(void *ctx, const struct an_series_rec *rec)
{
	struct an_stream *s = ctx;
	struct stream_chunk *c = s->chunk[s->published % AN_STREAM_CHUNKS];

	c->rec[c->len++] = *rec;
	if (c->len == AN_STREAM_CHUNK)
		publish(s);
	return 0;
}

static void stream_free(struct an_stream *s)
{
	for (int i = 0; i < AN_STREAM_CHUNKS; i++)
		free(s->chunk[i]);
	free(s);
}

struct an_stream *an_stream_start(struct an_db **db, const char *db_path, const char *path,
				  const char *options)
{
	struct an_stream *s = calloc(1, sizeof(*s));
	struct an_diag d;
	int64_t id;

	an_diag_clear(&d);
	if (!s)
		return NULL;
	for (int i = 0; i < AN_STREAM_CHUNKS; i++) {
		s->chunk[i] = malloc(sizeof(*s->chunk[i]));
		if (!s->chunk[i])
			goto out_free;
		s->chunk[i]->len = 0;
	}
	if (!*db && an_db_open(db, db_path, &d))
		goto out_free;
	if (an_db_trace_open(*db, path, options, &id, &d))
		goto out_free;
	s->db = *db;
	an_diag_clear(&s->d);
	pthread_mutex_init(&s->lock, NULL);
	pthread_cond_init(&s->cond, NULL);
	if (pthread_create(&s->tid, NULL, stream_thread, s)) {
		pthread_cond_destroy(&s->cond);
		pthread_mutex_destroy(&s->lock);
		an_db_trace_abort(*db);
		goto out_free;
	}
	return s;
out_free:
	stream_free(s);
	return NULL;
}

int an_stream_stop(struct an_stream *s, struct an_diag *d)
{
	int err;

	pthread_mutex_lock(&s->lock);
	if (s->chunk[s->published % AN_STREAM_CHUNKS]->len)
		s->published++;
	s->is_done = true;
	pthread_cond_broadcast(&s->cond);
	pthread_mutex_unlock(&s->lock);
	pthread_join(s->tid, NULL);
	pthread_cond_destroy(&s->cond);
	pthread_mutex_destroy(&s->lock);
	err = s->err;
	if (err)
		*d = s->d;
	stream_free(s);
	return err;
}
