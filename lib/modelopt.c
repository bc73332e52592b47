// SPDX-License-Identifier: MIT
/*
 * lib/modelopt.c - the parser of the shared model options
 * (lib/modelopt.h): names to model/ enums, releases through
 * model_kver_parse(), counts through an_optnum_parse().
 */
#include <stdio.h>
#include <string.h>

#include "lib/modelopt.h"
#include "lib/optnum.h"

static int parse_variant(struct an_modelopt *m, const char *cmd, const char *arg)
{
	if (!strcmp(arg, "v3")) {
		m->variant = MODEL_V3;
	} else if (!strcmp(arg, "mainline")) {
		m->variant = MODEL_MAINLINE;
	} else {
		fprintf(stderr, "ucval %s: --model expects v3 or mainline, got '%s'\n", cmd, arg);
		return -1;
	}
	m->has_variant = true;
	return 0;
}

static int parse_fidelity(struct an_modelopt *m, const char *cmd, const char *arg)
{
	if (!strcmp(arg, "intent")) {
		m->fidelity = MODEL_INTENT;
	} else if (!strcmp(arg, "seed")) {
		m->fidelity = MODEL_SEED;
	} else {
		fprintf(stderr, "ucval %s: --fidelity expects intent or seed, got '%s'\n", cmd, arg);
		return -1;
	}
	return 0;
}

static int parse_kernel(struct an_modelopt *m, const char *cmd, const char *arg)
{
	unsigned int kver;

	if (m->is_uclamp_mainline) {
		if (model_kver_parse(arg, &kver) || kver < AN_MODELOPT_KVER_UCLAMP) {
			fprintf(stderr, "ucval %s: --kernel expects a mainline release with "
				"uclamp (%u.%u or later), got '%s'\n", cmd,
				AN_MODELOPT_KVER_UCLAMP >> 16, (AN_MODELOPT_KVER_UCLAMP >> 8) & 0xff, arg);
			return -1;
		}
	} else if (model_kver_parse(arg, &kver)) {
		fprintf(stderr, "ucval %s: --kernel expects a release such as 6.1 or "
			"4.19.0-rc6, got '%s'\n", cmd, arg);
		return -1;
	}
	m->kernel = arg;
	m->kver = kver;
	return 0;
}

static int parse_groups(struct an_modelopt *m, const char *cmd, const char *arg)
{
	unsigned long long v;

	if (an_optnum_parse(cmd, "--groups", arg, 0, MODEL_V3_MAX_GROUPS, &v))
		return -1;
	m->groups = (unsigned int)v;
	m->has_groups = true;
	return 0;
}

int an_modelopt_parse(struct an_modelopt *m, const char *cmd, int code, const char *arg)
{
	switch (code) {
	case AN_MODELOPT_MODEL:
		return parse_variant(m, cmd, arg);
	case AN_MODELOPT_FIDELITY:
		return parse_fidelity(m, cmd, arg);
	case AN_MODELOPT_KERNEL:
		return parse_kernel(m, cmd, arg);
	case AN_MODELOPT_GROUPS:
		return parse_groups(m, cmd, arg);
	default:
		return 1;
	}
}
