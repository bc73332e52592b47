/* SPDX-License-Identifier: MIT */
/*
 * collect/recmeta.h - gather what a trace.dat needs besides the pages
 * (headers, formats, saved_cmdlines, options) from tracefs, and write it.
 */
#ifndef UCVAL_COLLECT_RECMETA_H
#define UCVAL_COLLECT_RECMETA_H

#include "lib/diag.h"
#include "collect/datwrite.h"
#include "collect/events.h"

struct tracefs_instance;

/**
 * struct col_recmeta_src - a finished recording; all borrowed
 * @inst: the instance recorded
 * @events: the events enabled in it (their formats are stored)
 * @page_size: ring-buffer page size
 * @nr_cpus: CPUs
 * @cpu_fds: per CPU, the file of its raw pages
 * @extra_system: formats of events not from tracefs (the instances'), or NULL
 * @instances: named instances written beside the top one, or NULL
 * @nr_instances: how many
 */
struct col_recmeta_src {
	struct tracefs_instance *inst;
	const struct col_events *events;
	unsigned int page_size;
	unsigned int nr_cpus;
	const int *cpu_fds;
	const struct col_dat_system *extra_system;
	const struct col_dat_instance *instances;
	unsigned int nr_instances;
};

/**
 * col_recmeta_write() - write @src as a trace.dat v6 at @path
 * @src: the recording
 * @path: output file
 * @d: diagnostic on failure
 *
 * Return: 0 or a negative errno (tracefs unreadable, or col_datwrite_file()).
 */
int col_recmeta_write(const struct col_recmeta_src *src, const char *path, struct an_diag *d);

#endif /* UCVAL_COLLECT_RECMETA_H */
