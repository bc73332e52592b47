/* SPDX-License-Identifier: MIT */
/*
 * model/rules.h - the rule IDs of the specs the model implements
 * (../shared/spec/uclamp-v3.md, uclamp-mainline.md, schedutil.md), one row
 * each: the ID, the variants it belongs to and a one-line meaning. Rule
 * coverage (analyze/checks/cover.h) counts by row; reports list a variant's
 * rules from here. Constant data only: no state, no allocation.
 */
#ifndef UCVAL_MODEL_RULES_H
#define UCVAL_MODEL_RULES_H

#include <stdbool.h>

#include "types.h"

/* Rows of model_rules[]: uclamp-v3.md 64, uclamp-mainline.md 36, schedutil.md 28. */
#define MODEL_RULES_NR		128

/* Which variants a rule belongs to (schedutil.md rules: both). */
#define MODEL_RULE_V3		0x1u
#define MODEL_RULE_MAINLINE	0x2u
#define MODEL_RULE_BOTH		(MODEL_RULE_V3 | MODEL_RULE_MAINLINE)

/**
 * struct model_rule - one rule ID of the specs
 * @id: as the spec spells it ("VR4", "MR3", "S10", "VA4b")
 * @spec: the spec file's name ("uclamp-v3.md")
 * @variants: MODEL_RULE_V3, MODEL_RULE_MAINLINE or both
 * @meaning: one line, lower case
 */
struct model_rule {
	const char *id;
	const char *spec;
	unsigned int variants;
	const char *meaning;
};

/* The table: static, in spec order (uclamp-v3.md, uclamp-mainline.md, schedutil.md). */
extern const struct model_rule model_rules[MODEL_RULES_NR];

/**
 * model_rule_index() - the row of @id in model_rules[]
 * @id: a rule ID, or NULL
 *
 * Return: 0..MODEL_RULES_NR-1, or -1 for an ID no spec defines.
 */
int model_rule_index(const char *id);

/**
 * model_rule_in_variant() - whether row @index belongs to @variant
 * @index: a row of model_rules[]
 * @variant: MODEL_V3 or MODEL_MAINLINE
 *
 * Return: true for the variant's uclamp rules and every schedutil rule.
 */
bool model_rule_in_variant(int index, enum model_variant variant);

#endif /* UCVAL_MODEL_RULES_H */
