/* SPDX-License-Identifier: MIT */
/*
 * analyze/stream.h - a trace's intervals and requests written to the
 * database while the replay still runs (`ucval analyze --db` with one trace
 * per worker, the database free when it starts).
 *
 * The trace's transaction opens before the analysis (an_db_trace_open()),
 * and a thread inserts the records the replay hands over, instead of all of
 * them after it. They pass in chunks; the replay waits when
 * AN_STREAM_CHUNKS are in flight, so memory stays bounded whatever the
 * writer's pace. The verdicts, windows and the trace's row follow in
 * an_save_trace(), in the same transaction: a failed analysis or a kill
 * still leaves nothing. Another writer of the same database waits (busy
 * timeout) for the whole analysis instead of the write alone.
 */
#ifndef UCVAL_ANALYZE_STREAM_H
#define UCVAL_ANALYZE_STREAM_H

#include "analyze/store/db.h"
#include "analyze/store/series.h"
#include "lib/diag.h"

#define AN_STREAM_CHUNK		4096	/* records a chunk */
#define AN_STREAM_CHUNKS	8	/* chunks in flight */

struct an_stream;

/**
 * an_stream_start() - open @path's transaction and start the thread
 * @db: the database; opened here (at @db_path) when *@db is NULL, then
 *	owned by the caller, who closes it with an_db_close()
 * @db_path: the database file
 * @path: the trace, for its row
 * @options: the analysis' canonical option text, for its row
 *
 * Return: the stream, ended with an_stream_stop(); NULL when the trace is
 * to be written afterwards instead: the database is busy or cannot be
 * opened (writing it later says why), or no memory or thread is to be had.
 */
struct an_stream *an_stream_start(struct an_db **db, const char *db_path, const char *path,
				  const char *options);

/**
 * an_stream_sink() - hand one record to the thread (an_series.sink)
 * @ctx: the stream
 * @rec: the record, copied
 *
 * Runs on the replay's thread; waits while AN_STREAM_CHUNKS chunks are in
 * flight.
 *
 * Return: 0 (a write failure shows in an_stream_stop()).
 */
int an_stream_sink(void *ctx, const struct an_series_rec *rec);

/**
 * an_stream_stop() - the replay is over: hand the last chunk, end the thread
 * @s: the stream, freed
 * @d: the thread's diagnostic on failure
 *
 * The transaction stays open either way: the caller commits it through
 * an_save_trace() or rolls it back with an_db_trace_abort().
 *
 * Return: 0, or the thread's first write failure.
 */
int an_stream_stop(struct an_stream *s, struct an_diag *d);

#endif /* UCVAL_ANALYZE_STREAM_H */
