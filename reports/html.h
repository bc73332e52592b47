/* SPDX-License-Identifier: MIT */
/*
 * reports/html.h - the report as one self-contained HTML file: the summary
 * tables of reports/summary.c plus inline SVG plots (reports/svg.c), inline
 * CSS, no script and no external reference.
 */
#ifndef UCVAL_REPORTS_HTML_H
#define UCVAL_REPORTS_HTML_H

#include <stdio.h>

#include "lib/diag.h"
#include "reports/summary.h"

int rep_html_write(FILE *out, const struct rep_sel *sel, struct an_diag *d);
void rep_html_page_open(FILE *out);
void rep_html_page_close(FILE *out);

#endif /* UCVAL_REPORTS_HTML_H */
