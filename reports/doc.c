// SPDX-License-Identifier: MIT
/*
 * reports/doc.c - rendering of report blocks as text, GitHub markdown
 * (https://github.github.com/gfm/ tables and fences) or HTML. Each block is
 * one call, so a report's content is written once for all three styles.
 *
 * Names in a report (comms, paths) may hold any byte. Text shows them as
 * lib/utf8.h escapes them for a terminal; markdown shows that same text,
 * escaped again for markdown, so a name can neither run a terminal escape
 * sequence nor end a table cell, a line or a fence; HTML as reports/xml.c
 * writes it.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "lib/utf8.h"
#include "reports/doc.h"
#include "reports/xml.h"

/* Text style: indentation of everything under a level-1 heading. */
#define TEXT_INDENT	"  "
/* Text style: spaces between two table columns. */
#define TEXT_GAP	2
/* Preformatted text is indented one step more than the blocks around it. */
#define TEXT_PRE_INDENT	"    "

static void separate(struct rep_doc *doc)
{
	if (doc->has_output && doc->style != REP_STYLE_HTML)
		fputc('\n', doc->out);
	doc->has_output = true;
}

/* Markdown: characters that would start markup inside a table or a line. */
static void md_char(FILE *out, char c)
{
	switch (c) {
	case '|': case '\\': case '`': case '*': case '[': case ']':
		fputc('\\', out);
		fputc(c, out);
		break;
	case '<': fputs("&lt;", out); break;
	case '>': fputs("&gt;", out); break;
	case '&': fputs("&amp;", out); break;
	default: fputc(c, out);
	}
}

/*
 * Markdown: the text form of @s (control characters and newlines escaped,
 * so the line or table row goes on), its markup characters escaped.
 */
static void md_escaped(FILE *out, const char *s)
{
	char unit[AN_UTF8_UNIT_MAX];

	while (*s) {
		s += an_utf8_escape_unit(s, 0, unit);
		for (const char *u = unit; *u; u++)
			md_char(out, *u);
	}
}

/**
 * rep_doc_escaped() - write @s so that the style shows it as plain text
 * @doc: the document
 * @s: the text
 */
void rep_doc_escaped(const struct rep_doc *doc, const char *s)
{
	switch (doc->style) {
	case REP_STYLE_TEXT:
		an_utf8_fputs(doc->out, s, 0);
		break;
	case REP_STYLE_MD:
		md_escaped(doc->out, s);
		break;
	case REP_STYLE_HTML:
		rep_xml_text(doc->out, s);
		break;
	}
}

/* A block of one escaped line between @open and @close (markup or indentation). */
static void line_block(struct rep_doc *doc, const char *open, const char *close,
		       const char *fmt, va_list ap)
{
	char *s;

	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	separate(doc);
	fputs(open, doc->out);
	rep_doc_escaped(doc, s ? s : fmt);
	fprintf(doc->out, "%s\n", close);
	free(s);
}

/**
 * rep_doc_heading() - a heading
 * @doc: the document
 * @level: 0 the document title, 1 a trace, 2 a section of a trace
 * @fmt: printf format of the heading text
 */
void rep_doc_heading(struct rep_doc *doc, int level, const char *fmt, ...)
{
	static const char *const text_mark[] = { "", "== ", TEXT_INDENT "-- " };
	char open[16], close[16] = "";
	va_list ap;

	level = level < 0 ? 0 : level > 2 ? 2 : level;
	if (doc->style == REP_STYLE_TEXT)
		snprintf(open, sizeof(open), "%s", text_mark[level]);
	else if (doc->style == REP_STYLE_MD)
		snprintf(open, sizeof(open), "%.*s ", level + 1, "###");
	else
		snprintf(open, sizeof(open), "<h%d>", level + 1);
	if (doc->style == REP_STYLE_HTML)
		snprintf(close, sizeof(close), "</h%d>", level + 1);
	va_start(ap, fmt);
	line_block(doc, open, close, fmt, ap);
	va_end(ap);
}

/**
 * rep_doc_para() - one line of prose
 * @doc: the document
 * @fmt: printf format of the line
 */
void rep_doc_para(struct rep_doc *doc, const char *fmt, ...)
{
	static const char *const open[] = { TEXT_INDENT, "", "<p>" };
	static const char *const close[] = { "", "", "</p>" };
	va_list ap;

	va_start(ap, fmt);
	line_block(doc, open[doc->style], close[doc->style], fmt, ap);
	va_end(ap);
}

/*
 * Characters a terminal shows for @s escaped (lib/utf8.h): UTF-8
 * continuation bytes take no column.
 */
static size_t text_width(const char *s)
{
	char unit[AN_UTF8_UNIT_MAX];
	size_t n = 0;

	while (*s) {
		s += an_utf8_escape_unit(s, 0, unit);
		for (const char *u = unit; *u; u++)
			n += ((unsigned char)*u & 0xc0) != 0x80;
	}
	return n;
}

/* One row; padding is written only before text, so no line ends in spaces. */
static void text_row(FILE *out, const struct rep_table *t, const size_t *width,
		     const char *const *cell)
{
	size_t pending = 0;

	fputs(TEXT_INDENT, out);
	for (unsigned int c = 0; c < t->nr_cols; c++) {
		size_t pad = width[c] - text_width(cell[c]);

		if (t->cols[c].is_num)
			pending += pad;
		if (*cell[c]) {
			fprintf(out, "%*s", (int)pending, "");
			an_utf8_fputs(out, cell[c], 0);
			pending = 0;
		}
		pending += (t->cols[c].is_num ? 0 : pad) + TEXT_GAP;
	}
	fputc('\n', out);
}

static void text_table(FILE *out, const struct rep_table *t)
{
	size_t rows = rep_table_rows(t);
	size_t *width = calloc(t->nr_cols, sizeof(*width));
	const char **cell = calloc(t->nr_cols, sizeof(*cell));

	if (!width || !cell)
		goto out_free;
	for (unsigned int c = 0; c < t->nr_cols; c++) {
		width[c] = t->is_kv ? 0 : text_width(t->cols[c].name);
		for (size_t r = 0; r < rows; r++) {
			size_t w = text_width(rep_table_at(t, r, c));

			width[c] = w > width[c] ? w : width[c];
		}
	}
	if (!t->is_kv) {
		for (unsigned int c = 0; c < t->nr_cols; c++)
			cell[c] = t->cols[c].name;
		text_row(out, t, width, cell);
	}
	for (size_t r = 0; r < rows; r++) {
		for (unsigned int c = 0; c < t->nr_cols; c++)
			cell[c] = rep_table_at(t, r, c);
		text_row(out, t, width, cell);
	}
out_free:
	free(width);
	free(cell);
}

static void md_table(FILE *out, const struct rep_table *t)
{
	size_t rows = rep_table_rows(t);

	for (unsigned int c = 0; c < t->nr_cols; c++) {
		fputs("| ", out);
		md_escaped(out, t->cols[c].name);
		fputc(' ', out);
	}
	fputs("|\n", out);
	for (unsigned int c = 0; c < t->nr_cols; c++)
		fputs(t->cols[c].is_num ? "|---:" : "|---", out);
	fputs("|\n", out);
	for (size_t r = 0; r < rows; r++) {
		for (unsigned int c = 0; c < t->nr_cols; c++) {
			fputs("| ", out);
			md_escaped(out, rep_table_at(t, r, c));
			fputc(' ', out);
		}
		fputs("|\n", out);
	}
}

/* HTML: a verdict cell gets a class of its own, so CSS can colour it. */
static void html_cell(FILE *out, const char *tag, const struct rep_col *col, const char *s)
{
	bool is_data = !strcmp(tag, "td");

	fprintf(out, "<%s", tag);
	if (is_data && (!strcmp(s, "PASS") || !strcmp(s, "FAIL") || !strcmp(s, "UNDECIDED")))
		fprintf(out, " class=\"v-%s\"", s);
	else if (col->is_num)
		fputs(" class=\"num\"", out);
	fputc('>', out);
	rep_xml_text(out, s);
	fprintf(out, "</%s>", tag);
}

static void html_table(FILE *out, const struct rep_table *t)
{
	size_t rows = rep_table_rows(t);

	fprintf(out, "<table%s>\n", t->is_kv ? " class=\"kv\"" : "");
	if (!t->is_kv) {
		fputs("<thead><tr>", out);
		for (unsigned int c = 0; c < t->nr_cols; c++)
			html_cell(out, "th", &(struct rep_col){ 0 }, t->cols[c].name);
		fputs("</tr></thead>\n", out);
	}
	fputs("<tbody>\n", out);
	for (size_t r = 0; r < rows; r++) {
		fputs("<tr>", out);
		for (unsigned int c = 0; c < t->nr_cols; c++)
			html_cell(out, t->is_kv && c == 0 ? "th" : "td", &t->cols[c],
				  rep_table_at(t, r, c));
		fputs("</tr>\n", out);
	}
	fputs("</tbody>\n</table>\n", out);
}

/**
 * rep_doc_table() - a table
 * @doc: the document
 * @t: the filled table
 *
 * Return: 0, or t->err when filling the table failed (nothing is written).
 */
int rep_doc_table(struct rep_doc *doc, const struct rep_table *t)
{
	if (t->err)
		return t->err;
	separate(doc);
	if (doc->style == REP_STYLE_TEXT)
		text_table(doc->out, t);
	else if (doc->style == REP_STYLE_MD)
		md_table(doc->out, t);
	else
		html_table(doc->out, t);
	return 0;
}

/* Each line indented, escaped (lib/utf8.h) but for its line break. */
static void text_pre(FILE *out, const char *text)
{
	char unit[AN_UTF8_UNIT_MAX];
	bool is_line_start = true;

	while (*text) {
		text += an_utf8_escape_unit(text, AN_UTF8_KEEP_NL, unit);
		if (is_line_start)
			fputs(TEXT_PRE_INDENT, out);
		fputs(unit, out);
		is_line_start = unit[0] == '\n';
	}
	if (!is_line_start)
		fputc('\n', out);
}

static void md_fence(FILE *out, size_t len)
{
	for (size_t i = 0; i < len; i++)
		fputc('`', out);
	fputc('\n', out);
}

/*
 * Markdown: a fenced code block of the text's lines, escaped as in text.
 * The fence is longer than any run of backticks in the text (CommonMark
 * §4.5: a closing fence is at least as long as the opening one), so no
 * line of the text can close it.
 */
static void md_pre(FILE *out, const char *text)
{
	size_t run = 0, fence = 3, len = strlen(text);

	for (const char *p = text; *p; p++) {
		run = *p == '`' ? run + 1 : 0;
		fence = run >= fence ? run + 1 : fence;
	}
	md_fence(out, fence);
	an_utf8_fputs(out, text, AN_UTF8_KEEP_NL);
	if (!len || text[len - 1] != '\n')
		fputc('\n', out);
	md_fence(out, fence);
}

/**
 * rep_doc_pre() - preformatted lines (an explanation chain), shown as they are
 * @doc: the document
 * @text: the lines, separated by '\n'
 */
void rep_doc_pre(struct rep_doc *doc, const char *text)
{
	/* Text: the lines hang under the paragraph that announces them. */
	if (doc->style != REP_STYLE_TEXT)
		separate(doc);
	switch (doc->style) {
	case REP_STYLE_TEXT:
		text_pre(doc->out, text);
		break;
	case REP_STYLE_MD:
		md_pre(doc->out, text);
		break;
	case REP_STYLE_HTML:
		fputs("<pre>", doc->out);
		rep_xml_text(doc->out, text);
		fputs("</pre>\n", doc->out);
		break;
	}
}
