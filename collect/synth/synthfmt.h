/* SPDX-License-Identifier: MIT */
/*
 * collect/synth/synthfmt.h - the tracefs metadata of a synthetic trace.dat
 * (synthfmt.c): ring-buffer page and entry headers, the ftrace print format
 * and the format of every event synth writes, for synthout.c. Static data,
 * owned by synthfmt.c.
 */
#ifndef UCVAL_COLLECT_SYNTH_SYNTHFMT_H
#define UCVAL_COLLECT_SYNTH_SYNTHFMT_H

#include "collect/synth/synthev.h"

/**
 * struct col_synthfmt_system - formats of one event system
 * @name: system name
 * @formats: format texts
 * @nr: how many
 */
struct col_synthfmt_system {
	const char *name;
	const char *const *formats;
	unsigned int nr;
};

extern const char col_synthfmt_header_page[];
extern const char col_synthfmt_header_event[];
extern const char col_synthfmt_print[];
extern const struct col_synthfmt_system col_synthfmt_systems[];
extern const unsigned int col_synthfmt_nr_systems;

/* Event ids the formats declare, per enum col_so_type (COL_SO_PRINT: ftrace print). */
extern const unsigned short col_synthfmt_id[COL_SO__COUNT];

#endif /* UCVAL_COLLECT_SYNTH_SYNTHFMT_H */
