/* SPDX-License-Identifier: MIT */
/*
 * reports/fleet.h - fleet reports: `ucval report --group-by LABEL` (per
 * group of traces, per check the failure rate with its Wilson interval,
 * windows per hour, the rules that fail most, the longest windows) and
 * `--compare LABEL=A,B` (per check both rates, their difference with
 * Newcombe's interval, Fisher's exact p and a verdict), as text, markdown,
 * HTML or JSON, and --compare as JUnit for CI.
 */
#ifndef UCVAL_REPORTS_FLEET_H
#define UCVAL_REPORTS_FLEET_H

#include <stdbool.h>
#include <stdio.h>

#include "reports/doc.h"
#include "reports/fleetdb.h"

/* The default threshold of --compare: a check is worse when p < 0.05. */
#define REP_FLEET_ALPHA	0.05

/**
 * struct rep_fleet_out - how a fleet report is written
 * @style: text, markdown or HTML (a whole page) when not @is_json
 * @is_json: one JSON document
 * @is_junit: JUnit XML (--compare only: a test case per check)
 * @top: traces listed per group in text and markdown (0: all)
 */
struct rep_fleet_out {
	enum rep_style style;
	bool is_json;
	bool is_junit;
	unsigned int top;
};

int rep_fleet_groups_write(FILE *out, const struct rep_fleet *f, const struct rep_fleet_out *o);
int rep_fleet_compare_write(FILE *out, const struct rep_fleet *f, const char *a,
			    const char *b, double alpha, const struct rep_fleet_out *o,
			    bool *is_worse);

#endif /* UCVAL_REPORTS_FLEET_H */
