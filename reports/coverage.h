/* SPDX-License-Identifier: MIT */
/*
 * reports/coverage.h - rule coverage of a trace as the reports show it: the
 * variant of its model and which of the variant's rules (model/rules.h)
 * decided no compared value.
 */
#ifndef UCVAL_REPORTS_COVERAGE_H
#define UCVAL_REPORTS_COVERAGE_H

#include <stddef.h>

#include "lib/json.h"
#include "model/rules.h"
#include "reports/doc.h"
#include "reports/rdb.h"

/**
 * rep_coverage_variant() - the variant of a trace's `model` column
 * @model: "v3/intent", "mainline", ... or NULL
 * @out: the variant
 *
 * Return: 0, or -1 when @model names no variant.
 */
int rep_coverage_variant(const char *model, enum model_variant *out);

/**
 * rep_coverage_missing() - the variant's rules no check of @t counted
 * @t: a loaded trace
 * @variant: its variant
 * @rows: receives rows of model_rules[], in table order (caller's array)
 * @max: room in @rows (MODEL_RULES_NR is always enough)
 * @nr_rules: set to the number of the variant's rules
 *
 * Return: the number of rows written.
 */
size_t rep_coverage_missing(const struct rep_trace *t, enum model_variant variant, int *rows,
			    size_t max, size_t *nr_rules);

int rep_coverage_section(struct rep_doc *doc, const struct rep_rdb *db,
			 const struct rep_trace *t);
void rep_coverage_json(struct rep_json *j, const struct rep_rdb *db, const struct rep_trace *t);

#endif /* UCVAL_REPORTS_COVERAGE_H */
