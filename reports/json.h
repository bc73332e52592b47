/* SPDX-License-Identifier: MIT */
/*
 * reports/json.h - the few JSON writing helpers ucval needs (no parser, no
 * tree): strings escaped per RFC 8259, written straight to a stream.
 */
#ifndef UCVAL_REPORTS_JSON_H
#define UCVAL_REPORTS_JSON_H

#include <stdio.h>

void rep_json_string(FILE *out, const char *s);

#endif /* UCVAL_REPORTS_JSON_H */
