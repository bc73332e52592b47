/* SPDX-License-Identifier: MIT */
/*
 * reports/junit.h - verdicts as JUnit XML for CI systems: a test suite per
 * trace, a test case per check (tests/junit.xsd describes what is written).
 */
#ifndef UCVAL_REPORTS_JUNIT_H
#define UCVAL_REPORTS_JUNIT_H

#include <stdio.h>

#include "reports/summary.h"

int rep_junit_write(FILE *out, const struct rep_sel *sel);

#endif /* UCVAL_REPORTS_JUNIT_H */
