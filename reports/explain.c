// SPDX-License-Identifier: MIT
/*
 * reports/explain.c - print a struct model_su_explain one step a line:
 * the rule ID, what the step computed, and its value(s).
 */
#include "reports/explain.h"

/* Width of the label column: the longest label of schedutil.c fits. */
#define LABEL_WIDTH	28

/**
 * rep_explain_write() - write the steps of @ex, one a line
 * @out: where to write
 * @ex: the explanation from model_su_*()
 * @indent: prefix of every line
 *
 * A line reads "S9    raw target kHz               1250000"; two-valued steps
 * print both values separated by " / ".
 */
void rep_explain_write(FILE *out, const struct model_su_explain *ex, const char *indent)
{
	for (unsigned int i = 0; i < ex->nr; i++) {
		const struct model_su_step *s = &ex->step[i];

		fprintf(out, "%s%-5s %-*s %llu", indent, s->rule, LABEL_WIDTH, s->label,
			s->value[0]);
		if (s->nr_values > 1)
			fprintf(out, " / %llu", s->value[1]);
		fputc('\n', out);
	}
	if (ex->is_truncated)
		fprintf(out, "%s(more steps than the explanation holds)\n", indent);
}
