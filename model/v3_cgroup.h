/* SPDX-License-Identifier: MIT */
/*
 * model/v3_cgroup.h - the text of the v3 cgroup files cpu.util.{min,max}
 * (uclamp-v3.md VA9-VA11), implemented by v3_cgroup.c.
 */
#ifndef UCVAL_MODEL_V3_CGROUP_H
#define UCVAL_MODEL_V3_CGROUP_H

#include <stddef.h>

/* Parse a cpu.util.{min,max} write as kstrtoull(buf, 0): 0, -EINVAL or -ERANGE (VA10). */
int model_v3_cgroup_parse(const char *buf, unsigned long long *value);
/* Text of a cpu.util.{min,max} read, "%u" without newline (VA11). */
int model_v3_cgroup_format(unsigned int value, char *buf, size_t len);

#endif /* UCVAL_MODEL_V3_CGROUP_H */
