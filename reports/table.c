// SPDX-License-Identifier: MIT
/*
 * reports/table.c - filling a struct rep_table. Allocation failures are
 * remembered in the table, so report code fills cells without checking each
 * one and the renderer refuses a table whose err is set.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "lib/vec.h"
#include "reports/table.h"

/**
 * rep_table_init() - start an empty table
 * @t: the table, freed later with rep_table_free()
 * @cols: its columns, borrowed for the table's lifetime
 * @nr_cols: how many
 */
void rep_table_init(struct rep_table *t, const struct rep_col *cols, unsigned int nr_cols)
{
	*t = (struct rep_table){ .cols = cols, .nr_cols = nr_cols };
}

/**
 * rep_table_cell() - append the next cell; a row ends every nr_cols cells
 * @t: the table
 * @fmt: printf format of the cell text
 *
 * On failure t->err is set and the cell is left out.
 */
void rep_table_cell(struct rep_table *t, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	if (t->err)
		return;
	if (AN_VEC_GROW(t->cells, t->nr_cells + 1, t->alloc)) {
		t->err = -ENOMEM;
		return;
	}
	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0) {
		t->err = -ENOMEM;
		return;
	}
	t->cells[t->nr_cells++] = s;
}

/**
 * rep_table_rows() - complete rows in @t
 * @t: the table
 *
 * Return: the row count; a partial last row is not counted.
 */
size_t rep_table_rows(const struct rep_table *t)
{
	return t->nr_cols ? t->nr_cells / t->nr_cols : 0;
}

/**
 * rep_table_at() - the text of one cell
 * @t: the table
 * @row: 0-based row, below rep_table_rows()
 * @col: 0-based column, below nr_cols
 *
 * Return: the cell, owned by @t.
 */
const char *rep_table_at(const struct rep_table *t, size_t row, unsigned int col)
{
	return t->cells[row * t->nr_cols + col];
}

/**
 * rep_table_free() - free the cells of @t
 * @t: the table; may be all zeroes
 */
void rep_table_free(struct rep_table *t)
{
	for (size_t i = 0; i < t->nr_cells; i++)
		free(t->cells[i]);
	free(t->cells);
	t->cells = NULL;
	t->nr_cells = t->alloc = 0;
}
