/* SPDX-License-Identifier: MIT */
/*
 * analyze/checks/explain.h - the model's explanation chain as text, for users
 * (`ucval model freq`) and reports (mismatch windows).
 */
#ifndef UCVAL_ANALYZE_CHECKS_EXPLAIN_H
#define UCVAL_ANALYZE_CHECKS_EXPLAIN_H

#include <stddef.h>
#include <stdio.h>

#include "model/schedutil.h"

size_t rep_explain_format(char *buf, size_t size, const struct model_su_explain *ex,
			  const char *indent);
void rep_explain_write(FILE *out, const struct model_su_explain *ex, const char *indent);

#endif /* UCVAL_ANALYZE_CHECKS_EXPLAIN_H */
