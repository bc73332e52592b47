/* SPDX-License-Identifier: MIT */
/*
 * model/mainline_cgroup.h - the text of the mainline cgroup files
 * cpu.uclamp.{min,max} (uclamp-mainline.md MA10, MA11), and the text a user
 * writes into a group clamp file of either variant; mainline_cgroup.c
 * implements them.
 */
#ifndef UCVAL_MODEL_MAINLINE_CGROUP_H
#define UCVAL_MODEL_MAINLINE_CGROUP_H

#include <stddef.h>

#include "types.h"

/* Parse a cpu.uclamp.{min,max} write: 0, -EINVAL or -ERANGE (MA10). */
int model_mainline_cgroup_parse(unsigned int kver, const char *buf, unsigned int *pct100,
				unsigned int *util);
/* Text of a cpu.uclamp.{min,max} read, "max" or "%llu.%02u" (MA11). */
int model_mainline_cgroup_format(unsigned int util, unsigned int pct100, char *buf,
				 size_t len);
/* Text written into a group clamp file for a value: v3 the value, mainline a percent. */
int model_tg_text(enum model_variant variant, unsigned int value, char *buf, size_t len);

#endif /* UCVAL_MODEL_MAINLINE_CGROUP_H */
