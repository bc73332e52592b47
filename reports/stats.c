// SPDX-License-Identifier: MIT
/*
 * reports/stats.c - Wilson, Newcombe and Fisher (stats.h).
 *
 * References: E. B. Wilson, "Probable inference, the law of succession, and
 * statistical inference", JASA 1927; R. G. Newcombe, "Interval estimation
 * for the difference between independent proportions: comparison of eleven
 * methods", Statistics in Medicine 1998 (method 10); R. A. Fisher, "The
 * Design of Experiments", 1935 (two-sided: the tables no more likely than
 * the one observed).
 */
#include <math.h>

#include "reports/stats.h"

/*
 * The standard normal quantile of @p (0 < @p < 1): P. J. Acklam's rational
 * approximation (relative error below 1.2e-9), enough for an interval's z.
 */
static double normal_quantile(double p)
{
	static const double a[] = { -3.969683028665376e+01, 2.209460984245205e+02,
		-2.759285104469687e+02, 1.383577518672690e+02, -3.066479806614716e+01,
		2.506628277459239e+00 };
	static const double b[] = { -5.447609879822406e+01, 1.615858368580409e+02,
		-1.556989798598866e+02, 6.680131188771972e+01, -1.328068155288572e+01 };
	static const double c[] = { -7.784894002430293e-03, -3.223964580411365e-01,
		-2.400758277161838e+00, -2.549732539343734e+00, 4.374664141464968e+00,
		2.938163982698783e+00 };
	static const double d[] = { 7.784695709041462e-03, 3.224671290700398e-01,
		2.445134137142996e+00, 3.754408661907416e+00 };
	double q, r;

	if (p < 0.02425) {
		q = sqrt(-2 * log(p));
		return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
		       ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
	}
	if (p > 1 - 0.02425)
		return -normal_quantile(1 - p);
	q = p - 0.5;
	r = q * q;
	return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
	       (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
}

/**
 * rep_stats_z() - z of a two-sided interval at confidence 1 - @alpha
 * @alpha: 0 < @alpha < 1
 *
 * Return: the (1 - @alpha / 2) quantile of the standard normal (1.96 for 0.05).
 */
double rep_stats_z(double alpha)
{
	return normal_quantile(1 - alpha / 2);
}

/**
 * rep_stats_wilson() - Wilson score interval of the proportion @k / @n
 * @k: successes (here: traces that failed), 0 <= @k <= @n
 * @n: trials (decided traces)
 * @z: the normal quantile of the confidence (REP_STATS_Z95)
 *
 * Return: the interval, within [0, 1]; [0, 1] when @n is 0.
 */
struct rep_interval rep_stats_wilson(int64_t k, int64_t n, double z)
{
	double p, den, centre, half;

	if (n <= 0)
		return (struct rep_interval){ 0, 1 };
	p = (double)k / (double)n;
	den = 1 + z * z / (double)n;
	centre = (p + z * z / (2.0 * (double)n)) / den;
	half = z / den * sqrt(p * (1 - p) / (double)n + z * z / (4.0 * (double)n * (double)n));
	return (struct rep_interval){ fmax(0, centre - half), fmin(1, centre + half) };
}

/**
 * rep_stats_newcombe() - interval of @k1 / @n1 - @k2 / @n2
 * @k1: successes of the first sample
 * @n1: its size, > 0
 * @k2: successes of the second
 * @n2: its size, > 0
 * @z: the normal quantile of the confidence
 *
 * Newcombe's hybrid score interval (method 10): the Wilson intervals of the
 * two proportions combined. Return: the interval, within [-1, 1].
 */
struct rep_interval rep_stats_newcombe(int64_t k1, int64_t n1, int64_t k2, int64_t n2, double z)
{
	struct rep_interval w1 = rep_stats_wilson(k1, n1, z), w2 = rep_stats_wilson(k2, n2, z);
	double p1 = n1 > 0 ? (double)k1 / (double)n1 : 0, p2 = n2 > 0 ? (double)k2 / (double)n2 : 0;
	double diff = p1 - p2;

	if (n1 <= 0 || n2 <= 0)
		return (struct rep_interval){ -1, 1 };
	return (struct rep_interval){
		fmax(-1, diff - sqrt((p1 - w1.lo) * (p1 - w1.lo) + (w2.hi - p2) * (w2.hi - p2))),
		fmin(1, diff + sqrt((w1.hi - p1) * (w1.hi - p1) + (p2 - w2.lo) * (p2 - w2.lo))),
	};
}

/* log C(n, k) */
static double log_choose(int64_t n, int64_t k)
{
	return lgamma((double)n + 1) - lgamma((double)k + 1) - lgamma((double)(n - k) + 1);
}

/**
 * rep_stats_fisher() - two-sided p-value of Fisher's exact test
 * @a: row 1, column 1 (e.g. group A failed)
 * @b: row 1, column 2 (group A passed)
 * @c: row 2, column 1 (group B failed)
 * @d: row 2, column 2 (group B passed)
 *
 * The sum of the hypergeometric probabilities, with the margins fixed, of
 * every table no more likely than the one observed (a relative tolerance
 * of 1e-7 keeps ties that rounding would split). Computed in log space
 * (lgamma), so large counts neither overflow nor lose the small terms.
 *
 * Return: p in [0, 1]; 1 for a table with an empty margin.
 */
double rep_stats_fisher(int64_t a, int64_t b, int64_t c, int64_t d)
{
	int64_t row1 = a + b, col1 = a + c, n = a + b + c + d;
	int64_t lo = col1 - (n - row1) > 0 ? col1 - (n - row1) : 0;
	int64_t hi = row1 < col1 ? row1 : col1;
	double base = log_choose(n, col1), observed, p = 0;

	if (a < 0 || b < 0 || c < 0 || d < 0 || !row1 || !col1 || row1 == n || col1 == n)
		return 1;
	observed = log_choose(row1, a) + log_choose(n - row1, col1 - a) - base;
	for (int64_t x = lo; x <= hi; x++) {
		double lp = log_choose(row1, x) + log_choose(n - row1, col1 - x) - base;

		if (lp <= observed + 1e-7)
			p += exp(lp);
	}
	return p < 1 ? p : 1;
}
