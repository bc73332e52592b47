// SPDX-License-Identifier: MIT
/*
 * analyze/checks/explain.c - a struct model_su_explain one step a line: the rule
 * ID, what the step computed, and its value(s).
 */
#include <stdio.h>

#include "analyze/checks/explain.h"

/* Width of the label column: the longest label of schedutil.c fits. */
#define LABEL_WIDTH	28
/* One line: indent, rule, label, two values. */
#define LINE_MAX_LEN	128

/*
 * Append to @buf (of @size, holding @at bytes) what the format says; the text
 * is cut at the end of the buffer. Return the new length.
 */
static size_t append(char *buf, size_t size, size_t at, const char *line)
{
	int n = snprintf(buf + at, size - at, "%s", line);

	if (n < 0)
		return at;
	return at + (size_t)n < size ? at + (size_t)n : size - 1;
}

/**
 * rep_explain_format() - the steps of @ex as text, one a line
 * @buf: where to write; always NUL-terminated
 * @size: its size, at least 1
 * @ex: the explanation from model_su_*()
 * @indent: prefix of every line
 *
 * A line reads "S9    raw target kHz               1250000"; two-valued steps
 * print both values separated by " / ". Text beyond @size is cut.
 *
 * Return: the length written.
 */
size_t rep_explain_format(char *buf, size_t size, const struct model_su_explain *ex,
			  const char *indent)
{
	char line[LINE_MAX_LEN];
	size_t at = 0;

	buf[0] = '\0';
	for (unsigned int i = 0; i < ex->nr && at + 1 < size; i++) {
		const struct model_su_step *s = &ex->step[i];
		int n = snprintf(line, sizeof(line), "%s%-5s %-*s %llu", indent, s->rule,
				 LABEL_WIDTH, s->label, s->value[0]);

		if (s->nr_values > 1 && n > 0 && (size_t)n < sizeof(line))
			snprintf(line + n, sizeof(line) - (size_t)n, " / %llu", s->value[1]);
		at = append(buf, size, at, line);
		at = append(buf, size, at, "\n");
	}
	if (ex->is_truncated) {
		snprintf(line, sizeof(line), "%s(more steps than the explanation holds)\n", indent);
		at = append(buf, size, at, line);
	}
	return at;
}

/**
 * rep_explain_write() - write the steps of @ex, one a line
 * @out: where to write
 * @ex: the explanation from model_su_*()
 * @indent: prefix of every line
 */
void rep_explain_write(FILE *out, const struct model_su_explain *ex, const char *indent)
{
	char buf[(MODEL_SU_EXPLAIN_MAX + 1) * LINE_MAX_LEN];

	rep_explain_format(buf, sizeof(buf), ex, indent);
	fputs(buf, out);
}
