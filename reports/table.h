/* SPDX-License-Identifier: MIT */
/*
 * reports/table.h - a table of text cells, filled once and rendered by
 * reports/doc.c as aligned text, GitHub markdown or HTML. The report code
 * decides what the cells say; the renderer decides how they look.
 */
#ifndef UCVAL_REPORTS_TABLE_H
#define UCVAL_REPORTS_TABLE_H

#include <stdbool.h>
#include <stddef.h>

/* One column: its heading and whether its cells are numbers (right-aligned). */
struct rep_col {
	const char *name;
	bool is_num;
};

/**
 * struct rep_table - rows of cells, filled left to right with rep_table_cell()
 * @cols: the columns, borrowed (usually a static array)
 * @nr_cols: how many
 * @is_kv: a two-column "field value" list: text shows no heading row
 * @cells: nr_rows * nr_cols strings, owned
 * @nr_cells: cells filled so far
 * @alloc: capacity of @cells
 * @err: first allocation failure (-ENOMEM), sticky; 0 when none
 */
struct rep_table {
	const struct rep_col *cols;
	unsigned int nr_cols;
	bool is_kv;
	char **cells;
	size_t nr_cells;
	size_t alloc;
	int err;
};

void rep_table_init(struct rep_table *t, const struct rep_col *cols, unsigned int nr_cols);
void rep_table_cell(struct rep_table *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
size_t rep_table_rows(const struct rep_table *t);
const char *rep_table_at(const struct rep_table *t, size_t row, unsigned int col);
void rep_table_free(struct rep_table *t);

#endif /* UCVAL_REPORTS_TABLE_H */
