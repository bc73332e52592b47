/* SPDX-License-Identifier: MIT */
/*
 * reports/jsonrep.h - the results database as one JSON document for other
 * tools: traces, verdicts, every window with all its columns, residency.
 */
#ifndef UCVAL_REPORTS_JSONREP_H
#define UCVAL_REPORTS_JSONREP_H

#include <stdio.h>

#include "lib/json.h"
#include "reports/rdb.h"
#include "reports/summary.h"

/* Version of the document's layout, its first member; bumped on any change. */
#define REP_JSON_LAYOUT	1

int rep_jsonrep_write(FILE *out, const struct rep_sel *sel);
void rep_jsonrep_value(struct rep_json *j, const char *key, const struct rep_value *v);

#endif /* UCVAL_REPORTS_JSONREP_H */
