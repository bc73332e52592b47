/* SPDX-License-Identifier: MIT */
/*
 * reports/xml.h - text escaped for XML and HTML (JUnit, the HTML report and
 * its inline SVG), so that any path or comm keeps the output well-formed.
 */
#ifndef UCVAL_REPORTS_XML_H
#define UCVAL_REPORTS_XML_H

#include <stdio.h>

void rep_xml_text(FILE *out, const char *s);

#endif /* UCVAL_REPORTS_XML_H */
