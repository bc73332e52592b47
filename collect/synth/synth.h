/* SPDX-License-Identifier: MIT */
/*
 * collect/synth/synth.h - `ucval synth`: a synthetic kernel trace whose scheduler,
 * clamp and frequency decisions come from the reference model itself
 * (model/model.h, model/schedutil.h), so the clean trace passes every check
 * of events.md §4; a fault makes the synthetic kernel misbehave in one known
 * way and the truth file says where it shows. Streaming: memory is bounded
 * by tasks and CPUs, never by events.
 */
#ifndef UCVAL_COLLECT_SYNTH_SYNTH_H
#define UCVAL_COLLECT_SYNTH_SYNTH_H

#include "lib/diag.h"
#include "collect/synth/synthopts.h"

/**
 * col_synth_run() - generate the trace (and the truth file)
 * @o: options, checked with col_synth_check()
 * @st: what was generated; may be NULL
 * @d: diagnostic on failure (file, action, reason)
 *
 * Same options, same bytes: the output depends on nothing but @o.
 * Return: 0, -EINVAL, -ENOMEM, or the negative errno of a failed write.
 */
int col_synth_run(const struct col_synth_opts *o, struct col_synth_stats *st,
		  struct an_diag *d);

#endif /* UCVAL_COLLECT_SYNTH_SYNTH_H */
