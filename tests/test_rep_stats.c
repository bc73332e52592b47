// SPDX-License-Identifier: MIT
/*
 * The statistics of fleet reports (reports/stats.h) against published
 * values: Wilson intervals and Newcombe's difference interval from
 * Newcombe 1998 (Statistics in Medicine 17, Table I and the 56/70 - 48/80
 * example), Fisher's tea-tasting table (The Design of Experiments) and the
 * dieting example of the Wikipedia article on the test; the rest summed by
 * hand from hypergeometric terms (python3, math.lgamma).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>

#include "reports/stats.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

struct wilson_case {
	int64_t k, n;
	double lo, hi;		/* published to 4 decimals, or hand-computed to 6 */
	double tol;
};

static const struct wilson_case wilson_cases[] = {
	{ 81, 263, 0.2553, 0.3662, 5e-5 },	/* Newcombe 1998, Table I */
	{ 15, 148, 0.0624, 0.1605, 5e-5 },
	{ 0, 20, 0.0, 0.1611, 5e-5 },
	{ 1, 29, 0.0061, 0.1718, 5e-5 },
	{ 29, 29, 0.883030, 1.0, 5e-7 },	/* python3 */
	{ 5, 10, 0.236593, 0.763407, 5e-7 },
	{ 0, 0, 0.0, 1.0, 0 },			/* nothing decided: no information */
};

static void test_wilson(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(wilson_cases); i++) {
		const struct wilson_case *c = &wilson_cases[i];
		struct rep_interval w = rep_stats_wilson(c->k, c->n, REP_STATS_Z95);

		if (fabs(w.lo - c->lo) > c->tol || fabs(w.hi - c->hi) > c->tol)
			fail_msg("case %zu (%lld/%lld): [%.6f, %.6f], want [%.6f, %.6f]", i,
				 (long long)c->k, (long long)c->n, w.lo, w.hi, c->lo, c->hi);
	}
}

struct newcombe_case {
	int64_t k1, n1, k2, n2;
	double lo, hi, tol;
};

static const struct newcombe_case newcombe_cases[] = {
	{ 56, 70, 48, 80, 0.0524, 0.3339, 5e-5 },	/* Newcombe 1998, method 10 */
	{ 9, 10, 3, 10, 0.170523, 0.809018, 5e-6 },	/* python3 */
	{ 3, 10, 9, 10, -0.809018, -0.170523, 5e-6 },	/* the same, sides swapped */
};

static void test_newcombe(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(newcombe_cases); i++) {
		const struct newcombe_case *c = &newcombe_cases[i];
		struct rep_interval w = rep_stats_newcombe(c->k1, c->n1, c->k2, c->n2,
							   REP_STATS_Z95);

		if (fabs(w.lo - c->lo) > c->tol || fabs(w.hi - c->hi) > c->tol)
			fail_msg("case %zu: [%.6f, %.6f], want [%.6f, %.6f]", i, w.lo, w.hi,
				 c->lo, c->hi);
	}
}

struct fisher_case {
	int64_t a, b, c, d;
	double p;		/* relative tolerance 1e-6 */
};

static const struct fisher_case fisher_cases[] = {
	{ 3, 1, 1, 3, 0.4857142857 },		/* Fisher's lady tasting tea: 34/70 */
	{ 1, 9, 11, 3, 0.002759456185 },	/* Wikipedia, "Fisher's exact test" */
	{ 0, 10, 5, 5, 0.03250773994 },		/* python3, summed terms */
	{ 7, 3, 2, 8, 0.06977851869 },
	{ 10, 0, 0, 10, 1.082508822e-05 },
	{ 2, 8, 3, 7, 1.0 },
	{ 0, 5, 0, 5, 1.0 },			/* an empty margin */
	{ 3000, 7000, 2900, 7100, 0.1247745492 },	/* large counts: no overflow */
};

static void test_fisher(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(fisher_cases); i++) {
		const struct fisher_case *c = &fisher_cases[i];
		double p = rep_stats_fisher(c->a, c->b, c->c, c->d);
		double tol = 1e-6 * c->p;

		if (fabs(p - c->p) > tol)
			fail_msg("case %zu (%lld %lld %lld %lld): p %.10g, want %.10g", i,
				 (long long)c->a, (long long)c->b, (long long)c->c,
				 (long long)c->d, p, c->p);
	}
}

static void test_z(void **state)
{
	(void)state;
	assert_true(fabs(rep_stats_z(0.05) - 1.959963984540054) < 1e-8);
	assert_true(fabs(rep_stats_z(0.01) - 2.5758293035489) < 1e-8);
	assert_true(fabs(rep_stats_z(0.10) - 1.6448536269514715) < 1e-8);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wilson),
		cmocka_unit_test(test_newcombe),
		cmocka_unit_test(test_fisher),
		cmocka_unit_test(test_z),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
