/* SPDX-License-Identifier: MIT */
/*
 * reports/doc.h - the building blocks of a report (headings, paragraphs,
 * tables, preformatted text) written in one of three styles. The text, md
 * and HTML reports say the same things through the same calls.
 */
#ifndef UCVAL_REPORTS_DOC_H
#define UCVAL_REPORTS_DOC_H

#include <stdbool.h>
#include <stdio.h>

#include "reports/table.h"

enum rep_style {
	REP_STYLE_TEXT,		/* aligned plain text for a terminal */
	REP_STYLE_MD,		/* GitHub-flavoured markdown (PR comments) */
	REP_STYLE_HTML,		/* XHTML-compatible body markup */
};

/**
 * struct rep_doc - where and how blocks are written
 * @out: the stream
 * @style: the look
 * @has_output: a block was written (blocks are separated by a blank line)
 */
struct rep_doc {
	FILE *out;
	enum rep_style style;
	bool has_output;
};

void rep_doc_heading(struct rep_doc *doc, int level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void rep_doc_para(struct rep_doc *doc, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int rep_doc_table(struct rep_doc *doc, const struct rep_table *t);
void rep_doc_pre(struct rep_doc *doc, const char *text);
void rep_doc_escaped(const struct rep_doc *doc, const char *s);

#endif /* UCVAL_REPORTS_DOC_H */
