/* SPDX-License-Identifier: MIT */
/*
 * collect/probefmt.h - the event formats of the BPF probes' events, as
 * tracefs would show them: one system, COL_PROBEFMT_SYSTEM, whose events
 * have the canonical names of spec/events.md and ids no kernel gives.
 */
#ifndef UCVAL_COLLECT_PROBEFMT_H
#define UCVAL_COLLECT_PROBEFMT_H

#include "collect/datwrite.h"
#include "collect/probeev.h"

#define COL_PROBEFMT_SYSTEM	"ucval_probes"
#define COL_PROBEFMT_INSTANCE	"probes"	/* the trace.dat instance of their records */
#define COL_PROBEFMT_ID_BASE	65400		/* ids: base + enum col_probe_ev */

/**
 * col_probefmt_system() - the formats of every probe event
 *
 * Return: a static system for col_dat_input.systems.
 */
const struct col_dat_system *col_probefmt_system(void);

/**
 * col_probefmt_name() - the event name of @type
 * @type: enum col_probe_ev
 *
 * Return: a static name, NULL for an unknown @type.
 */
const char *col_probefmt_name(unsigned int type);

/**
 * col_probefmt_size() - bytes of @type's payload (after the common header)
 * @type: enum col_probe_ev
 *
 * Return: the size, 0 for an unknown @type.
 */
unsigned int col_probefmt_size(unsigned int type);

#endif /* UCVAL_COLLECT_PROBEFMT_H */
