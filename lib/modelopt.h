/* SPDX-License-Identifier: MIT */
/*
 * lib/modelopt.h - the model options several commands share (--model,
 * --fidelity, --kernel, --groups): one parser, so that `ucval analyze`,
 * `model rq`, `model freq` and `synth` accept the same values and say the
 * same thing about a bad one. Each command lists the ones it takes in its
 * own getopt_long() table and hands every code it reads to
 * an_modelopt_parse() first.
 */
#ifndef UCVAL_LIB_MODELOPT_H
#define UCVAL_LIB_MODELOPT_H

#include <getopt.h>
#include <stdbool.h>

#include "model/model.h"

/* getopt_long() codes of the shared options: above every command's own. */
enum an_modelopt_code {
	AN_MODELOPT_MODEL = 0x1000,
	AN_MODELOPT_FIDELITY,
	AN_MODELOPT_KERNEL,
	AN_MODELOPT_GROUPS,
};

/* Entries of a command's getopt_long() table, one per shared option it takes. */
#define AN_MODELOPT_OPTION_MODEL	{ "model", required_argument, NULL, AN_MODELOPT_MODEL }
#define AN_MODELOPT_OPTION_FIDELITY	{ "fidelity", required_argument, NULL, AN_MODELOPT_FIDELITY }
#define AN_MODELOPT_OPTION_KERNEL	{ "kernel", required_argument, NULL, AN_MODELOPT_KERNEL }
#define AN_MODELOPT_OPTION_GROUPS	{ "groups", required_argument, NULL, AN_MODELOPT_GROUPS }

/* First mainline release with uclamp (uclamp-mainline.md §1). */
#define AN_MODELOPT_KVER_UCLAMP	MODEL_KVER(5, 3, 0)

/**
 * struct an_modelopt - the shared model options a command was given
 * @is_uclamp_mainline: set by the caller before parsing: --kernel must name
 *			a mainline release with uclamp (AN_MODELOPT_KVER_UCLAMP
 *			or later), as `model rq` needs for its mainline half
 * @has_variant: --model was given
 * @variant: its value
 * @fidelity: --fidelity (v3 only); MODEL_INTENT when not given
 * @kernel: --kernel as given, NULL when not given; borrowed from argv
 * @kver: @kernel as MODEL_KVER(), 0 when not given
 * @has_groups: --groups was given
 * @groups: v3 clamp groups (0..MODEL_V3_MAX_GROUPS); `ucval analyze` also
 *	    takes it as mainline buckets and checks that range itself
 *
 * Zero it before parsing: that is "nothing given", fidelity MODEL_INTENT.
 * A later option overrides an earlier one, as getopt_long() users expect.
 */
struct an_modelopt {
	bool is_uclamp_mainline;
	bool has_variant;
	enum model_variant variant;
	enum model_fidelity fidelity;
	const char *kernel;
	unsigned int kver;
	bool has_groups;
	unsigned int groups;
};

/**
 * an_modelopt_parse() - take one option getopt_long() returned, if shared
 * @m: the options so far
 * @cmd: the command, for messages ("analyze", "model rq")
 * @code: what getopt_long() returned
 * @arg: its optarg (only read for a shared option)
 *
 * Messages, for a command @cmd: "ucval @cmd: --model expects v3 or
 * mainline, got 'v4'", "--fidelity expects intent or seed", "--kernel
 * expects a release such as 6.1 or 4.19.0-rc6" (with
 * @m->is_uclamp_mainline: "--kernel expects a mainline release with uclamp
 * (5.3 or later)"), and an_optnum_parse()'s for --groups.
 *
 * Return: 0 when @code was a shared option and @arg is valid; 1 when @code
 * is not a shared option (the command's own, left to the caller); -1 after
 * printing on stderr what was expected and what was given.
 */
int an_modelopt_parse(struct an_modelopt *m, const char *cmd, int code, const char *arg);

#endif /* UCVAL_LIB_MODELOPT_H */
