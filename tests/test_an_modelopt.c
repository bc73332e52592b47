// SPDX-License-Identifier: MIT
/*
 * lib/modelopt.c: the shared model options' values, accepted and refused,
 * and the codes left to the command. The messages are test_cli.c's.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "lib/modelopt.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const struct opt_case {
	int code;
	const char *arg;
	bool is_uclamp_mainline;
	int ret;
	struct an_modelopt want;	/* is_uclamp_mainline and kernel not compared */
} cases[] = {
	{ AN_MODELOPT_MODEL, "v3", false, 0, { .has_variant = true, .variant = MODEL_V3 } },
	{ AN_MODELOPT_MODEL, "mainline", false, 0,
	  { .has_variant = true, .variant = MODEL_MAINLINE } },
	{ AN_MODELOPT_MODEL, "v4", false, -1, { 0 } },
	{ AN_MODELOPT_MODEL, "", false, -1, { 0 } },
	{ AN_MODELOPT_FIDELITY, "seed", false, 0, { .fidelity = MODEL_SEED } },
	{ AN_MODELOPT_FIDELITY, "intent", false, 0, { .fidelity = MODEL_INTENT } },
	{ AN_MODELOPT_FIDELITY, "Seed", false, -1, { 0 } },
	{ AN_MODELOPT_KERNEL, "4.19", false, 0, { .kver = MODEL_KVER(4, 19, 0) } },
	{ AN_MODELOPT_KERNEL, "6.1.0-rc6", false, 0, { .kver = MODEL_KVER(6, 1, 0) } },
	{ AN_MODELOPT_KERNEL, "abc", false, -1, { 0 } },
	/* `model rq`: a mainline release with uclamp (uclamp-mainline.md §1) */
	{ AN_MODELOPT_KERNEL, "4.19", true, -1, { 0 } },
	{ AN_MODELOPT_KERNEL, "5.3", true, 0, { .kver = MODEL_KVER(5, 3, 0) } },
	{ AN_MODELOPT_GROUPS, "0", false, 0, { .has_groups = true, .groups = 0 } },
	{ AN_MODELOPT_GROUPS, "32", false, 0, { .has_groups = true, .groups = 32 } },
	{ AN_MODELOPT_GROUPS, "33", false, -1, { 0 } },
	{ AN_MODELOPT_GROUPS, "-1", false, -1, { 0 } },
	/* the command's own options and getopt_long()'s '?' */
	{ 256, "x", false, 1, { 0 } },
	{ '?', NULL, false, 1, { 0 } },
};

static void test_values(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct opt_case *c = &cases[i];
		struct an_modelopt m = { .is_uclamp_mainline = c->is_uclamp_mainline };
		int ret = an_modelopt_parse(&m, "test", c->code, c->arg);

		if (ret != c->ret)
			fail_msg("case %zu (%d '%s'): returned %d want %d", i, c->code,
				 c->arg ? c->arg : "", ret, c->ret);
		if (m.has_variant != c->want.has_variant || m.variant != c->want.variant ||
		    m.fidelity != c->want.fidelity || m.kver != c->want.kver ||
		    m.has_groups != c->want.has_groups || m.groups != c->want.groups)
			fail_msg("case %zu (%d '%s'): wrong values", i, c->code,
				 c->arg ? c->arg : "");
		if (m.kernel != (c->code == AN_MODELOPT_KERNEL && !ret ? c->arg : NULL))
			fail_msg("case %zu: --kernel text not kept", i);
	}
}

/* A later option overrides an earlier one; a refused value changes nothing. */
static void test_sequence(void **state)
{
	struct an_modelopt m = { 0 };

	(void)state;
	assert_int_equal(an_modelopt_parse(&m, "test", AN_MODELOPT_MODEL, "v3"), 0);
	assert_int_equal(an_modelopt_parse(&m, "test", AN_MODELOPT_MODEL, "mainline"), 0);
	assert_int_equal(an_modelopt_parse(&m, "test", AN_MODELOPT_MODEL, "v4"), -1);
	assert_int_equal(m.variant, MODEL_MAINLINE);
	assert_int_equal(an_modelopt_parse(&m, "test", AN_MODELOPT_GROUPS, "3"), 0);
	assert_int_equal(an_modelopt_parse(&m, "test", AN_MODELOPT_GROUPS, "99"), -1);
	assert_int_equal(m.groups, 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_sequence),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
