/* SPDX-License-Identifier: MIT */
/*
 * reports/fleetdb.h - the traces of a results database grouped by the value
 * of one label (table trace_labels, `ucval analyze --tag`): per group its
 * traces, per check how many traces failed, passed and stayed undecided,
 * the rules that failed most and the longest mismatch windows.
 */
#ifndef UCVAL_REPORTS_FLEETDB_H
#define UCVAL_REPORTS_FLEETDB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/diag.h"
#include "reports/arena.h"
#include "reports/rdb.h"

/* Per check in one group: traces by verdict, and mismatch windows. */
struct rep_fleet_check {
	const char *check_id;
	int64_t n_fail;
	int64_t n_pass;
	int64_t n_undecided;
	int64_t n_windows;
};

/* A rule's mismatch windows in one group. */
struct rep_fleet_rule {
	const char *check_id;
	const char *rule;
	int64_t n_windows;
	int64_t fail_ns;
};

/* One of a group's longest windows, with its trace. */
struct rep_fleet_window {
	const char *path;
	const char *check_id;
	const char *rule;
	int cpu;			/* -1 when NULL */
	int64_t start_ns;		/* from the trace's start */
	int64_t dur_ns;
};

/**
 * struct rep_fleet_group - the traces with one value of the label
 * @value: the value
 * @nr_traces: traces in the group
 * @span_ns: their lengths added up (t_end_ns - t_start_ns)
 * @paths: the traces' paths, sorted: all, or the first of them (see
 *	   rep_fleetdb_load())
 * @checks: per check, by check id
 * @rules: the rules with the most windows, at most the load's top
 * @windows: the longest windows, at most the load's top
 */
struct rep_fleet_group {
	const char *value;
	int64_t nr_traces;
	int64_t span_ns;
	const char **paths;
	size_t nr_paths;
	struct rep_fleet_check *checks;
	size_t nr_checks;
	struct rep_fleet_rule *rules;
	size_t nr_rules;
	struct rep_fleet_window *windows;
	size_t nr_windows;
};

/**
 * struct rep_fleet - a database's traces grouped by @label
 * @label: the label's key
 * @groups: by value, sorted
 * @nr_unlabelled: traces without the label (in no group)
 * @arena: every string and array above
 */
struct rep_fleet {
	const char *label;
	struct rep_fleet_group *groups;
	size_t nr_groups;
	int64_t nr_unlabelled;
	struct rep_arena arena;
};

int rep_fleetdb_load(struct rep_rdb *db, const char *label, unsigned int top, bool all_paths,
		     struct rep_fleet *f, struct an_diag *d);
const struct rep_fleet_group *rep_fleetdb_find(const struct rep_fleet *f, const char *value);
const struct rep_fleet_check *rep_fleetdb_check(const struct rep_fleet_group *g,
						const char *check_id);
void rep_fleetdb_free(struct rep_fleet *f);

#endif /* UCVAL_REPORTS_FLEETDB_H */
