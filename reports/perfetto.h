/* SPDX-License-Identifier: MIT */
/*
 * reports/perfetto.h - `ucval report --format perfetto`: one analyzed trace
 * as a Perfetto trace with ucval's findings on tracks of their own, to open
 * in ui.perfetto.dev beside the kernel's events (docs/report.md).
 *
 * A Perfetto trace is copied byte for byte and the findings appended as
 * more packets; any other trace is read again (analyze/store/pfconv.h) and
 * written as ftrace bundles with the findings. Either way the trace must
 * still be the one analyzed: same path, same sha256.
 */
#ifndef UCVAL_REPORTS_PERFETTO_H
#define UCVAL_REPORTS_PERFETTO_H

#include <stdint.h>
#include <stdio.h>

#include "lib/diag.h"
#include "reports/rdb.h"

/* trusted_packet_sequence_id of the findings ("ucva"). */
#define REP_PERFETTO_SEQ_ID	0x75637661u
/* First track uuid of the findings; the others count up from it. */
#define REP_PERFETTO_UUID_BASE	0x7563766100000000ull

/**
 * rep_perfetto_write() - write trace @t and its findings to @out
 * @out: the output stream (binary)
 * @db: the database @t is in (for its frequency intervals)
 * @t: the trace, loaded by rep_rdb_load() with every mismatch window
 *     (top 0) and the undecided ones
 * @d: diagnostic on failure: a missing or changed trace, a read error
 *
 * Return: 0, -ENOENT (no trace at its path), -ESTALE (not the bytes
 * analyzed), or another negative errno or AN_E_* code.
 */
int rep_perfetto_write(FILE *out, struct rep_rdb *db, struct rep_trace *t, struct an_diag *d);

#endif /* UCVAL_REPORTS_PERFETTO_H */
