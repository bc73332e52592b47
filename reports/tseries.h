/* SPDX-License-Identifier: MIT */
/*
 * reports/tseries.h - a time series reduced to a fixed number of time
 * buckets, each keeping the minimum, the maximum and the last value. A plot drawn from it has the same size for a second of trace or an
 * hour, and still shows every excursion (a spike shorter than a bucket
 * widens that bucket's min..max).
 */
#ifndef UCVAL_REPORTS_TSERIES_H
#define UCVAL_REPORTS_TSERIES_H

#include <stdbool.h>
#include <stdint.h>

/**
 * struct rep_bucket - what a series did during one bucket of time
 * @lo: smallest value
 * @hi: largest value
 * @last: value of the interval that started last (in force at the right edge)
 * @last_ts: start of that interval
 * @n: intervals or points that touched the bucket; 0 means no data
 */
struct rep_bucket {
	int64_t lo, hi;
	int64_t last;
	int64_t last_ts;
	uint64_t n;
};

/**
 * struct rep_tseries - @nr buckets of equal length over [t0_ns, t1_ns]
 * @b: the buckets
 * @nr: how many
 * @t0_ns: start of the first bucket
 * @t1_ns: end of the last bucket (> t0_ns)
 */
struct rep_tseries {
	struct rep_bucket *b;
	unsigned int nr;
	int64_t t0_ns, t1_ns;
};

int rep_tseries_init(struct rep_tseries *s, unsigned int nr, int64_t t0_ns, int64_t t1_ns);
void rep_tseries_add(struct rep_tseries *s, int64_t start_ns, int64_t end_ns, int64_t value);
unsigned int rep_tseries_bucket(const struct rep_tseries *s, int64_t ts_ns);
void rep_tseries_free(struct rep_tseries *s);

#endif /* UCVAL_REPORTS_TSERIES_H */
