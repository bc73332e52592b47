/* SPDX-License-Identifier: MIT */
/*
 * reports/plotdata.h - what the HTML plots of one trace show, read from the
 * v2 tables and reduced to time buckets while reading (reports/tseries.h):
 * per policy the observed and expected frequency, per CPU the rq clamp band
 * and the mismatch windows, per task the clamp requests. Memory and output
 * size depend on the bucket count, not on the trace's length.
 */
#ifndef UCVAL_REPORTS_PLOTDATA_H
#define UCVAL_REPORTS_PLOTDATA_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/diag.h"
#include "reports/arena.h"
#include "reports/rdb.h"
#include "reports/tseries.h"

/**
 * struct rep_policy_plot - one cpufreq policy
 * @policy: its number
 * @cpus: its CPU list as stored ("0,1,2,3"), NULL when unknown
 * @opps_khz: its OPPs, ascending; @nr_opps 0 when unknown
 * @min_khz: scaling limits, -1 when unknown
 * @max_khz: scaling limits, -1 when unknown
 * @first_cpu: the CPU freq_intervals names it by, -1 when none
 * @observed: observed kHz (freq_intervals.observed_khz)
 * @expected: the model's kHz (freq_intervals.expected_khz)
 * @accepted_lo: the lowest frequency the checks accepted, grace included
 *		 (freq_intervals.accepted_lo_khz: freq_prediction's range,
 *		 or the floor of freq_below_min_clamp)
 * @accepted_hi: the highest likewise (or the ceiling of freq_above_max_clamp)
 */
struct rep_policy_plot {
	int policy;
	const char *cpus;
	int64_t *opps_khz;
	size_t nr_opps;
	int64_t min_khz, max_khz;
	int first_cpu;
	struct rep_tseries observed, expected, accepted_lo, accepted_hi;
};

/**
 * struct rep_cpu_plot - one CPU
 * @cpu: its number
 * @policy: index in rep_plots.policies, -1 when none
 * @capacity: from `cpus`, -1 when unknown
 * @clamp_min: rq UCLAMP_MIN (0..1024) where the model knew the runqueue
 * @clamp_max: rq UCLAMP_MAX likewise
 * @marks: buckets that overlap a mismatch window of this CPU (value 1)
 */
struct rep_cpu_plot {
	int cpu;
	int policy;
	int64_t capacity;
	struct rep_tseries clamp_min, clamp_max, marks;
};

/**
 * struct rep_task_lane - the clamp requests of one task
 * @pid: the task
 * @comm: its name, NULL when unknown
 * @nr_requests: rows of task_requests
 * @lo: requested util_min (NULL read as 0)
 * @hi: requested util_max (NULL read as 1024)
 * @bad: requests whose kernel result differs from the model's (value 1)
 */
struct rep_task_lane {
	int pid;
	const char *comm;
	int64_t nr_requests;
	struct rep_tseries lo, hi, bad;
};

/**
 * struct rep_plots - the plot data of one trace
 * @nr_buckets: time buckets of every series
 * @t0_ns: the time axis (the trace's first and last timestamps)
 * @t1_ns: the time axis
 * @policies: by policy number
 * @cpus: by CPU number
 * @lanes: the tasks with the most requests, most first
 * @nr_tasks: tasks with requests in all (some may have no lane)
 * @arena: the strings
 */
struct rep_plots {
	unsigned int nr_buckets;
	int64_t t0_ns, t1_ns;
	struct rep_policy_plot *policies;
	size_t nr_policies, alloc_policies;
	struct rep_cpu_plot *cpus;
	size_t nr_cpus, alloc_cpus;
	struct rep_task_lane *lanes;
	size_t nr_lanes, alloc_lanes;
	int64_t nr_tasks;
	struct rep_arena arena;
	char bad_chunk[128];	/* why a chunk of intervals was refused */
};

int rep_plots_load(struct rep_rdb *db, const struct rep_trace *t, unsigned int nr_buckets,
		   unsigned int max_lanes, struct rep_plots **out, struct an_diag *d);
void rep_plots_free(struct rep_plots *p);
int64_t rep_plots_top_khz(const struct rep_policy_plot *pol);

#endif /* UCVAL_REPORTS_PLOTDATA_H */
