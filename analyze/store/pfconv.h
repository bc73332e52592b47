/* SPDX-License-Identifier: MIT */
/*
 * analyze/store/pfconv.h - a stored trace's events again, as Perfetto ftrace
 * bundles (analyze/read/pfenc.h): what `ucval report --format perfetto`
 * writes beside its findings for a trace that was not a Perfetto trace.
 * The report reads the database only; this is its one way to the trace.
 */
#ifndef UCVAL_ANALYZE_STORE_PFCONV_H
#define UCVAL_ANALYZE_STORE_PFCONV_H

#include "analyze/read/pfenc.h"
#include "lib/diag.h"

/**
 * an_pfconv_events() - read the trace @path and hand each event to @enc
 * @path: the trace (any format the readers know)
 * @enc: where the events go (borrowed)
 * @d: diagnostic on failure, naming the file and the record
 *
 * Lines or records a reader skips (garbage, a bad value) are skipped here
 * too, as `ucval analyze` skipped them.
 *
 * Return: 0, or the reader's final error.
 */
int an_pfconv_events(const char *path, struct an_pfenc *enc, struct an_diag *d);

#endif /* UCVAL_ANALYZE_STORE_PFCONV_H */
