/* SPDX-License-Identifier: MIT */
/*
 * reports/svg.h - the inline SVG plots of the HTML report: per CPU a
 * frequency timeline with its rq clamp band and mismatch windows, per
 * policy the residency per OPP, per task the clamp requests over time.
 */
#ifndef UCVAL_REPORTS_SVG_H
#define UCVAL_REPORTS_SVG_H

#include <stdio.h>

#include "reports/plotdata.h"
#include "reports/rdb.h"

/* Width of the data area in pixels: one time bucket per pixel column. */
#define REP_SVG_PLOT_W	1100

void rep_svg_cpu(FILE *out, const struct rep_plots *p, const struct rep_cpu_plot *c);
void rep_svg_residency(FILE *out, const struct rep_trace *t, int policy);
void rep_svg_requests(FILE *out, const struct rep_plots *p);

#endif /* UCVAL_REPORTS_SVG_H */
