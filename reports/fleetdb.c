// SPDX-License-Identifier: MIT
/*
 * reports/fleetdb.c - traces grouped by a label (fleetdb.h). Each query
 * returns its rows ordered by the label's value and says, on each row, how
 * many rows its group has (count(*) OVER), so a group's array is allocated
 * once, in the arena, when its first row comes.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "reports/fleetdb.h"

/* ?1 the label's key, ?2 the most rows per group (rules, windows) */
static const char groups_sql[] =
	"SELECT l.value, count(*), sum(coalesce(t.t_end_ns - t.t_start_ns, 0))"
	" FROM traces t JOIN trace_labels l ON l.trace_id = t.trace_id AND l.key = ?1"
	" GROUP BY l.value ORDER BY l.value";

static const char paths_sql[] =
	"SELECT value, path, count(*) OVER (PARTITION BY value) FROM"
	" (SELECT l.value AS value, t.path AS path, row_number() OVER (PARTITION BY l.value"
	"   ORDER BY t.path, t.trace_id) AS rk"
	"  FROM traces t JOIN trace_labels l ON l.trace_id = t.trace_id AND l.key = ?1)"
	" WHERE rk <= ?2 ORDER BY value, rk";

static const char checks_sql[] =
	"SELECT value, check_id, nf, np, nu, nw, count(*) OVER (PARTITION BY value) FROM"
	" (SELECT l.value AS value, v.check_id AS check_id, sum(v.verdict = 'FAIL') AS nf,"
	"  sum(v.verdict = 'PASS') AS np, sum(v.verdict = 'UNDECIDED') AS nu,"
	"  sum(v.n_failed) AS nw"
	"  FROM verdicts v JOIN trace_labels l ON l.trace_id = v.trace_id AND l.key = ?1"
	"  GROUP BY l.value, v.check_id)"
	" ORDER BY value, check_id";

static const char rules_sql[] =
	"SELECT value, check_id, rule, nw, ns, count(*) OVER (PARTITION BY value) FROM"
	" (SELECT *, row_number() OVER (PARTITION BY value ORDER BY nw DESC, ns DESC,"
	"   check_id, rule) AS rk FROM"
	"  (SELECT l.value AS value, m.check_id AS check_id, m.rule AS rule, count(*) AS nw,"
	"    sum(m.ts_end_ns - m.ts_start_ns) AS ns"
	"   FROM mismatches m JOIN trace_labels l ON l.trace_id = m.trace_id AND l.key = ?1"
	"   GROUP BY l.value, m.check_id, m.rule))"
	" WHERE rk <= ?2 ORDER BY value, rk";

static const char windows_sql[] =
	"SELECT value, path, check_id, rule, cpu, st, dur, count(*) OVER (PARTITION BY value)"
	" FROM (SELECT l.value AS value, t.path AS path, m.check_id AS check_id, m.rule AS rule,"
	"   m.cpu AS cpu, m.ts_start_ns - t.t_start_ns AS st,"
	"   m.ts_end_ns - m.ts_start_ns AS dur, row_number() OVER (PARTITION BY l.value"
	"   ORDER BY m.ts_end_ns - m.ts_start_ns DESC, t.path, m.ts_start_ns, m.check_id) AS rk"
	"  FROM mismatches m JOIN traces t ON t.trace_id = m.trace_id"
	"  JOIN trace_labels l ON l.trace_id = m.trace_id AND l.key = ?1)"
	" WHERE rk <= ?2 ORDER BY value, rk";

static const char unlabelled_sql[] =
	"SELECT count(*) FROM traces WHERE trace_id NOT IN"
	" (SELECT trace_id FROM trace_labels WHERE key = ?1)";

/* One query's walk: the group of the current row and the index in its array. */
struct walk {
	struct rep_fleet *f;
	struct rep_fleet_group *g;
	size_t i;
};

typedef int (*row_fn)(struct walk *w, sqlite3_stmt *st);

static const char *dup_col(struct rep_fleet *f, sqlite3_stmt *st, int col)
{
	const char *s = (const char *)sqlite3_column_text(st, col);

	return s ? rep_arena_strdup(&f->arena, s) : NULL;
}

static int cmp_group(const void *key, const void *elem)
{
	return strcmp(key, ((const struct rep_fleet_group *)elem)->value);
}

/**
 * rep_fleetdb_find() - the group with label value @value
 * @f: a loaded fleet
 * @value: the value
 *
 * Return: the group, or NULL when no trace has the label with that value.
 */
const struct rep_fleet_group *rep_fleetdb_find(const struct rep_fleet *f, const char *value)
{
	if (!f->nr_groups)
		return NULL;
	return bsearch(value, f->groups, f->nr_groups, sizeof(*f->groups), cmp_group);
}

/**
 * rep_fleetdb_check() - a group's row of @check_id
 * @g: the group
 * @check_id: the check
 *
 * Return: the row, or NULL when no trace of @g has a verdict of that check.
 */
const struct rep_fleet_check *rep_fleetdb_check(const struct rep_fleet_group *g,
						const char *check_id)
{
	for (size_t i = 0; i < g->nr_checks; i++)
		if (!strcmp(g->checks[i].check_id, check_id))
			return &g->checks[i];
	return NULL;
}

/*
 * Move @w to the group of the row's value (column 0); on the group's first
 * row, *@arr (the group's array, @size bytes an element) gets room for the
 * count in column @count_col. Return: the row's element, NULL on failure.
 */
static void *walk_row(struct walk *w, sqlite3_stmt *st, int count_col, size_t size,
		      void *(*arr_of)(struct rep_fleet_group *g))
{
	const char *value = (const char *)sqlite3_column_text(st, 0);
	const struct rep_fleet_group *found = value ? rep_fleetdb_find(w->f, value) : NULL;
	struct rep_fleet_group *g = (struct rep_fleet_group *)found;
	int64_t n = sqlite3_column_int64(st, count_col);
	void **arr;

	if (!g || n <= 0)
		return NULL;
	arr = arr_of(g);
	if (g != w->g) {
		w->g = g;
		w->i = 0;
		*arr = rep_arena_alloc(&w->f->arena, (size_t)n * size);
		if (*arr)
			memset(*arr, 0, (size_t)n * size);
	}
	if (!*arr || w->i >= (size_t)n)
		return NULL;
	return (char *)*arr + size * w->i++;
}

static void *paths_of(struct rep_fleet_group *g) { return &g->paths; }
static void *checks_of(struct rep_fleet_group *g) { return &g->checks; }
static void *rules_of(struct rep_fleet_group *g) { return &g->rules; }
static void *windows_of(struct rep_fleet_group *g) { return &g->windows; }

static int group_row(struct walk *w, sqlite3_stmt *st)
{
	struct rep_fleet_group *g = &w->f->groups[w->f->nr_groups++];

	g->value = dup_col(w->f, st, 0);
	g->nr_traces = sqlite3_column_int64(st, 1);
	g->span_ns = sqlite3_column_int64(st, 2);
	return g->value ? 0 : -ENOMEM;
}

static int path_row(struct walk *w, sqlite3_stmt *st)
{
	const char **p = walk_row(w, st, 2, sizeof(*p), paths_of);

	if (!p)
		return -ENOMEM;
	*p = dup_col(w->f, st, 1);
	w->g->nr_paths = w->i;
	return *p ? 0 : -ENOMEM;
}

static int check_row(struct walk *w, sqlite3_stmt *st)
{
	struct rep_fleet_check *c = walk_row(w, st, 6, sizeof(*c), checks_of);

	if (!c)
		return -ENOMEM;
	c->check_id = dup_col(w->f, st, 1);
	c->n_fail = sqlite3_column_int64(st, 2);
	c->n_pass = sqlite3_column_int64(st, 3);
	c->n_undecided = sqlite3_column_int64(st, 4);
	c->n_windows = sqlite3_column_int64(st, 5);
	w->g->nr_checks = w->i;
	return c->check_id ? 0 : -ENOMEM;
}

static int rule_row(struct walk *w, sqlite3_stmt *st)
{
	struct rep_fleet_rule *r = walk_row(w, st, 5, sizeof(*r), rules_of);

	if (!r)
		return -ENOMEM;
	r->check_id = dup_col(w->f, st, 1);
	r->rule = dup_col(w->f, st, 2);
	r->n_windows = sqlite3_column_int64(st, 3);
	r->fail_ns = sqlite3_column_int64(st, 4);
	w->g->nr_rules = w->i;
	return r->check_id ? 0 : -ENOMEM;
}

static int window_row(struct walk *w, sqlite3_stmt *st)
{
	struct rep_fleet_window *x = walk_row(w, st, 7, sizeof(*x), windows_of);

	if (!x)
		return -ENOMEM;
	x->path = dup_col(w->f, st, 1);
	x->check_id = dup_col(w->f, st, 2);
	x->rule = dup_col(w->f, st, 3);
	x->cpu = sqlite3_column_type(st, 4) == SQLITE_NULL ? -1 : sqlite3_column_int(st, 4);
	x->start_ns = sqlite3_column_int64(st, 5);
	x->dur_ns = sqlite3_column_int64(st, 6);
	w->g->nr_windows = w->i;
	return x->path && x->check_id ? 0 : -ENOMEM;
}

/* Run @sql with ?1 the label and ?2 @top (0: no limit), @fn on each row. */
static int run(struct rep_rdb *db, struct rep_fleet *f, const char *sql, unsigned int top,
	       row_fn fn, struct an_diag *d)
{
	struct walk w = { .f = f };
	sqlite3_stmt *st;
	int rc, err = 0;

	if (sqlite3_prepare_v2(db->conn, sql, -1, &st, NULL) != SQLITE_OK)
		return rep_rdb_fail(db, d, "cannot read the labels");
	sqlite3_bind_text(st, 1, f->label, -1, SQLITE_STATIC);
	if (sqlite3_bind_parameter_count(st) >= 2)
		sqlite3_bind_int64(st, 2, top ? (int64_t)top : INT64_MAX);
	while (!err && (rc = sqlite3_step(st)) == SQLITE_ROW)
		err = fn(&w, st);
	if (!err && rc != SQLITE_DONE)
		err = rep_rdb_fail(db, d, "cannot read the labels");
	else if (err)
		err = an_diag_fail(d, err, "cannot read the labels: %s", an_error_str(err));
	sqlite3_finalize(st);
	return err;
}

static int64_t count(struct rep_rdb *db, const char *sql, const char *label)
{
	sqlite3_stmt *st;
	int64_t n = -1;

	if (sqlite3_prepare_v2(db->conn, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_text(st, 1, label, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return n;
}

/**
 * rep_fleetdb_load() - group the traces of @db by the value of @label
 * @db: an open results database
 * @label: the label's key
 * @top: most rules and windows per group (0: all)
 * @all_paths: every trace's path in each group; else the first @top
 *	       (the group's nr_traces says how many there are)
 * @f: filled; free with rep_fleetdb_free() (also on failure)
 * @d: filled on failure
 *
 * Return: 0, -ENOENT (no trace has @label, or the database has no labels),
 * AN_E_DB, -ENOMEM.
 */
int rep_fleetdb_load(struct rep_rdb *db, const char *label, unsigned int top, bool all_paths,
		     struct rep_fleet *f, struct an_diag *d)
{
	int64_t n = count(db, "SELECT count(DISTINCT value) FROM trace_labels WHERE key = ?1",
			  label);
	int err;

	memset(f, 0, sizeof(*f));
	an_diag_set_file(d, "read", db->path);
	if (n < 0)
		return an_diag_fail(d, -ENOENT, "no labels in this database (schema 3 before "
				    "labels): analyze with --tag KEY=VALUE");
	if (!n)
		return an_diag_fail(d, -ENOENT, "no trace has the label '%.64s'", label);
	f->label = rep_arena_strdup(&f->arena, label);
	f->groups = rep_arena_alloc(&f->arena, (size_t)n * sizeof(*f->groups));
	if (!f->label || !f->groups)
		return an_diag_fail(d, -ENOMEM, "out of memory");
	memset(f->groups, 0, (size_t)n * sizeof(*f->groups));
	err = run(db, f, groups_sql, top, group_row, d);
	if (!err)
		err = run(db, f, paths_sql, all_paths ? 0 : top, path_row, d);
	if (!err)
		err = run(db, f, checks_sql, top, check_row, d);
	if (!err)
		err = run(db, f, rules_sql, top, rule_row, d);
	if (!err)
		err = run(db, f, windows_sql, top, window_row, d);
	f->nr_unlabelled = count(db, unlabelled_sql, label);
	return err;
}

/**
 * rep_fleetdb_free() - free what rep_fleetdb_load() filled
 * @f: the fleet
 */
void rep_fleetdb_free(struct rep_fleet *f)
{
	rep_arena_free(&f->arena);
	memset(f, 0, sizeof(*f));
}
