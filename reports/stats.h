/* SPDX-License-Identifier: MIT */
/*
 * reports/stats.h - the statistics of fleet reports: a failure rate's
 * confidence interval (Wilson score), the difference of two rates
 * (Newcombe's hybrid score interval) and Fisher's exact test of a 2x2
 * table. Pure functions; no allocation.
 */
#ifndef UCVAL_REPORTS_STATS_H
#define UCVAL_REPORTS_STATS_H

#include <stdint.h>

/* An interval [lo, hi]. */
struct rep_interval {
	double lo;
	double hi;
};

/* z of a two-sided 95 % interval. */
#define REP_STATS_Z95	1.959963984540054

double rep_stats_z(double alpha);
struct rep_interval rep_stats_wilson(int64_t k, int64_t n, double z);
struct rep_interval rep_stats_newcombe(int64_t k1, int64_t n1, int64_t k2, int64_t n2, double z);
double rep_stats_fisher(int64_t a, int64_t b, int64_t c, int64_t d);

#endif /* UCVAL_REPORTS_STATS_H */
