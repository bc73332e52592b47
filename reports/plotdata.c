// SPDX-License-Identifier: MIT
/*
 * reports/plotdata.c - reading the v2 interval tables of one trace into time
 * buckets. Workload: a 10-minute trace of 8 CPUs may hold millions of
 * intervals; each table is scanned once, unsorted, and every row lands in
 * its bucket, so memory stays at (CPUs + policies + lanes) x buckets.
 *
 * Which CPUs get a plot: those of `cpus`, of the policies' CPU lists, of
 * clamp_intervals and of freq_intervals. A CPU's policy is `cpus.policy`,
 * else the policy whose list holds it, else the one freq_intervals names it by.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "analyze/store/chunk.h"
#include "lib/malloc.h"
#include "lib/vec.h"
#include "reports/plotdata.h"

/* UCLAMP scale: a util_max request left NULL means "no ceiling". */
#define UTIL_SCALE	1024

static int find_policy(const struct rep_plots *p, int policy)
{
	for (size_t i = 0; i < p->nr_policies; i++)
		if (p->policies[i].policy == policy)
			return (int)i;
	return -1;
}

/* The policy @policy, appended if new; NULL when out of memory. */
static struct rep_policy_plot *get_policy(struct rep_plots *p, int policy)
{
	int i = find_policy(p, policy);
	struct rep_policy_plot *pol;

	if (i >= 0)
		return &p->policies[i];
	if (AN_VEC_GROW(p->policies, p->nr_policies + 1, p->alloc_policies))
		return NULL;
	pol = &p->policies[p->nr_policies++];
	*pol = (struct rep_policy_plot){ .policy = policy, .min_khz = -1, .max_khz = -1,
					 .first_cpu = -1 };
	return pol;
}

static struct rep_cpu_plot *find_cpu(const struct rep_plots *p, int cpu)
{
	size_t lo = 0, hi = p->nr_cpus;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (p->cpus[mid].cpu == cpu)
			return &p->cpus[mid];
		if (p->cpus[mid].cpu < cpu)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* Insert @cpu keeping p->cpus sorted; its policy is resolved later. */
static int add_cpu(struct rep_plots *p, int cpu, int policy_nr, int64_t capacity)
{
	struct rep_cpu_plot *c = find_cpu(p, cpu);
	size_t at = 0;

	if (c) {
		if (policy_nr >= 0)
			c->policy = policy_nr;
		if (capacity >= 0)
			c->capacity = capacity;
		return 0;
	}
	if (cpu < 0 || AN_VEC_GROW(p->cpus, p->nr_cpus + 1, p->alloc_cpus))
		return cpu < 0 ? 0 : -ENOMEM;
	while (at < p->nr_cpus && p->cpus[at].cpu < cpu)
		at++;
	memmove(&p->cpus[at + 1], &p->cpus[at], (p->nr_cpus - at) * sizeof(*p->cpus));
	p->cpus[at] = (struct rep_cpu_plot){ .cpu = cpu, .policy = policy_nr,
					     .capacity = capacity };
	p->nr_cpus++;
	return 0;
}

/*
 * Call @fn for each number of a list such as "0,1,2,3" or "0-3,6"; a
 * malformed element ends the list.
 */
static int for_each_in_list(const char *s, int (*fn)(struct rep_plots *, int64_t),
			    struct rep_plots *p)
{
	while (s && *s) {
		char *end;
		long long a = strtoll(s, &end, 10), b = a;
		int err;

		if (end == s)
			return 0;
		if (*end == '-') {
			s = end + 1;
			b = strtoll(s, &end, 10);
			if (end == s || b < a)
				return 0;
		}
		for (long long v = a; v <= b; v++) {
			err = fn(p, v);
			if (err)
				return err;
		}
		s = *end == ',' ? end + 1 : "";
	}
	return 0;
}

static int add_listed_cpu(struct rep_plots *p, int64_t cpu)
{
	return add_cpu(p, (int)cpu, -1, -1);
}

/* The policy being filled by add_opp(): the last one appended. */
static int add_opp(struct rep_plots *p, int64_t khz)
{
	struct rep_policy_plot *pol = &p->policies[p->nr_policies - 1];
	int64_t *opps = an_realloc(pol->opps_khz, (pol->nr_opps + 1) * sizeof(*opps));

	if (!opps)
		return -ENOMEM;
	opps[pol->nr_opps++] = khz;
	pol->opps_khz = opps;
	return 0;
}

/* policies: policy, cpus, opps_khz, min_khz, max_khz */
static int policy_row(void *ctx, sqlite3_stmt *st)
{
	struct rep_plots *p = ctx;
	struct rep_policy_plot *pol = get_policy(p, sqlite3_column_int(st, 0));
	const char *cpus = (const char *)sqlite3_column_text(st, 1);

	if (!pol)
		return -ENOMEM;
	pol->cpus = rep_arena_strdup(&p->arena, cpus);
	pol->min_khz = rep_rdb_col_int(st, 3, -1);
	pol->max_khz = rep_rdb_col_int(st, 4, -1);
	if (cpus && !pol->cpus)
		return -ENOMEM;
	/* policy is the table's key: get_policy() has just appended it. */
	return for_each_in_list((const char *)sqlite3_column_text(st, 2), add_opp, p);
}

/* DISTINCT policy, cpu of freq_intervals */
static int freq_policy_row(void *ctx, sqlite3_stmt *st)
{
	struct rep_plots *p = ctx;
	struct rep_policy_plot *pol = get_policy(p, sqlite3_column_int(st, 0));

	if (!pol)
		return -ENOMEM;
	if (pol->first_cpu < 0)
		pol->first_cpu = sqlite3_column_int(st, 1);
	return add_cpu(p, sqlite3_column_int(st, 1), -1, -1);
}

/* cpus: cpu, policy, capacity */
static int cpu_row(void *ctx, sqlite3_stmt *st)
{
	return add_cpu(ctx, sqlite3_column_int(st, 0), (int)rep_rdb_col_int(st, 1, -1),
		       rep_rdb_col_int(st, 2, -1));
}

/* DISTINCT cpu of clamp_intervals */
static int clamp_cpu_row(void *ctx, sqlite3_stmt *st)
{
	return add_cpu(ctx, sqlite3_column_int(st, 0), -1, -1);
}

static bool list_holds(const char *list, int cpu)
{
	while (list && *list) {
		char *end;
		long a = strtol(list, &end, 10), b = a;

		if (end == list)
			return false;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		if (cpu >= a && cpu <= b)
			return true;
		list = *end == ',' ? end + 1 : "";
	}
	return false;
}

/* Turn each CPU's policy number into an index into p->policies. */
static void resolve_policies(struct rep_plots *p)
{
	for (size_t i = 0; i < p->nr_cpus; i++) {
		struct rep_cpu_plot *c = &p->cpus[i];
		int idx = c->policy >= 0 ? find_policy(p, c->policy) : -1;

		for (size_t k = 0; idx < 0 && k < p->nr_policies; k++)
			if (list_holds(p->policies[k].cpus, c->cpu))
				idx = (int)k;
		for (size_t k = 0; idx < 0 && k < p->nr_policies; k++)
			if (p->policies[k].first_cpu == c->cpu)
				idx = (int)k;
		c->policy = idx;
	}
}

/* Start series @s on the plot's time axis unless an earlier one failed. */
static void new_series(const struct rep_plots *p, struct rep_tseries *s, int *err)
{
	if (!*err)
		*err = rep_tseries_init(s, p->nr_buckets, p->t0_ns, p->t1_ns);
}

static int init_series(struct rep_plots *p)
{
	int err = 0;

	for (size_t i = 0; i < p->nr_policies; i++) {
		new_series(p, &p->policies[i].observed, &err);
		new_series(p, &p->policies[i].expected, &err);
		new_series(p, &p->policies[i].accepted_lo, &err);
		new_series(p, &p->policies[i].accepted_hi, &err);
	}
	for (size_t i = 0; i < p->nr_cpus; i++) {
		new_series(p, &p->cpus[i].clamp_min, &err);
		new_series(p, &p->cpus[i].clamp_max, &err);
		new_series(p, &p->cpus[i].marks, &err);
	}
	for (size_t i = 0; i < p->nr_lanes; i++) {
		new_series(p, &p->lanes[i].lo, &err);
		new_series(p, &p->lanes[i].hi, &err);
		new_series(p, &p->lanes[i].bad, &err);
	}
	return err;
}

/* An interval of freq_intervals; @v: observed, expected, accepted lo and hi */
static void freq_add(struct rep_plots *p, int policy, int64_t s, int64_t e, const bool *has,
		     const int64_t *v)
{
	int i = find_policy(p, policy);

	if (i < 0)
		return;
	if (has[0])
		rep_tseries_add(&p->policies[i].observed, s, e, v[0]);
	if (has[1])
		rep_tseries_add(&p->policies[i].expected, s, e, v[1]);
	if (has[2])
		rep_tseries_add(&p->policies[i].accepted_lo, s, e, v[2]);
	if (has[3])
		rep_tseries_add(&p->policies[i].accepted_hi, s, e, v[3]);
}

/* An interval of clamp_intervals; @v: uclamp_min, uclamp_max */
static void clamp_add(struct rep_plots *p, int cpu, int64_t s, int64_t e, const bool *has,
		      const int64_t *v)
{
	struct rep_cpu_plot *c = find_cpu(p, cpu);

	if (!c)
		return;
	if (has[0])
		rep_tseries_add(&c->clamp_min, s, e, v[0]);
	if (has[1])
		rep_tseries_add(&c->clamp_max, s, e, v[1]);
}

typedef void (*interval_fn)(struct rep_plots *p, int key, int64_t s, int64_t e,
			    const bool *has, const int64_t *v);

/* key, ts_start_ns, ts_end_ns, then @nr values (a schema 2 row) */
static int interval_row(struct rep_plots *p, sqlite3_stmt *st, unsigned int nr, interval_fn fn)
{
	bool has[AN_CHUNK_MAX_NUMS];
	int64_t v[AN_CHUNK_MAX_NUMS];

	for (unsigned int i = 0; i < nr; i++) {
		has[i] = sqlite3_column_type(st, 3 + (int)i) != SQLITE_NULL;
		v[i] = sqlite3_column_int64(st, 3 + (int)i);
	}
	fn(p, sqlite3_column_int(st, 0), sqlite3_column_int64(st, 1),
	   sqlite3_column_int64(st, 2), has, v);
	return 0;
}

/*
 * key, ts_first_ns, intervals (schema 3 chunks, analyze/store/chunk.h): each
 * interval as interval_row() would give it, without SQLite unpacking it.
 */
static int chunk_row(struct rep_plots *p, sqlite3_stmt *st, unsigned int nr, interval_fn fn,
		     const char *table)
{
	const char *text = (const char *)sqlite3_column_text(st, 2);
	uint64_t first = (uint64_t)sqlite3_column_int64(st, 1);
	long long num[AN_CHUNK_MAX_NUMS];
	struct an_chunk_reader c;
	unsigned int has;
	int key = sqlite3_column_int(st, 0), ret;

	an_chunk_begin(&c, text ? text : "", (size_t)sqlite3_column_bytes(st, 2));
	while ((ret = an_chunk_next(&c, num, &has, 2 + nr)) > 0) {
		bool known[AN_CHUNK_MAX_NUMS];
		int64_t v[AN_CHUNK_MAX_NUMS];

		if ((has & 0x3) != 0x3) {
			ret = -EINVAL;
			break;
		}
		for (unsigned int i = 0; i < nr; i++) {
			known[i] = has & 1u << (2 + i);
			v[i] = num[2 + i];
		}
		/* as SQLite's view computes them, but wrapping instead of a float */
		fn(p, key, (int64_t)(first + (uint64_t)num[0]), (int64_t)(first + (uint64_t)num[1]),
		   known, v);
	}
	if (ret < 0)
		snprintf(p->bad_chunk, sizeof(p->bad_chunk),
			 "%s: a row of key %d: not intervals of %u numbers at byte %zu", table, key,
			 2 + nr, an_chunk_offset(&c));
	return ret < 0 ? AN_E_DB : 0;
}

static int freq_row(void *ctx, sqlite3_stmt *st)
{
	return interval_row(ctx, st, 4, freq_add);
}

static int freq_chunk_row(void *ctx, sqlite3_stmt *st)
{
	return chunk_row(ctx, st, 5, freq_add, "freq_interval_chunks");
}

static int clamp_row(void *ctx, sqlite3_stmt *st)
{
	return interval_row(ctx, st, 2, clamp_add);
}

static int clamp_chunk_row(void *ctx, sqlite3_stmt *st)
{
	return chunk_row(ctx, st, 2, clamp_add, "clamp_interval_chunks");
}

/* mismatches with a CPU: cpu, ts_start_ns, ts_end_ns */
static int mark_row(void *ctx, sqlite3_stmt *st)
{
	struct rep_cpu_plot *c = find_cpu(ctx, sqlite3_column_int(st, 0));

	if (c)
		rep_tseries_add(&c->marks, sqlite3_column_int64(st, 1),
			       sqlite3_column_int64(st, 2), 1);
	return 0;
}

/* pid, number of requests, comm: the busiest tasks, most first */
static int lane_row(void *ctx, sqlite3_stmt *st)
{
	struct rep_plots *p = ctx;
	struct rep_task_lane *l;
	const char *comm = (const char *)sqlite3_column_text(st, 2);

	if (AN_VEC_GROW(p->lanes, p->nr_lanes + 1, p->alloc_lanes))
		return -ENOMEM;
	l = &p->lanes[p->nr_lanes++];
	l->pid = sqlite3_column_int(st, 0);
	l->nr_requests = sqlite3_column_int64(st, 1);
	l->comm = rep_arena_strdup(&p->arena, comm);
	return comm && !l->comm ? -ENOMEM : 0;
}

/* task_requests: pid, ts_ns, util_min, util_max, ret, model_ret */
static int request_row(void *ctx, sqlite3_stmt *st)
{
	struct rep_plots *p = ctx;
	int pid = sqlite3_column_int(st, 0);
	int64_t ts = sqlite3_column_int64(st, 1);

	for (size_t i = 0; i < p->nr_lanes; i++) {
		struct rep_task_lane *l = &p->lanes[i];

		if (l->pid != pid)
			continue;
		rep_tseries_add(&l->lo, ts, ts, rep_rdb_col_int(st, 2, 0));
		rep_tseries_add(&l->hi, ts, ts, rep_rdb_col_int(st, 3, UTIL_SCALE));
		if (sqlite3_column_type(st, 4) != SQLITE_NULL &&
		    sqlite3_column_type(st, 5) != SQLITE_NULL &&
		    sqlite3_column_int64(st, 4) != sqlite3_column_int64(st, 5))
			rep_tseries_add(&l->bad, ts, ts, 1);
		break;
	}
	return 0;
}

/* One scan: its table, its SQL, its row function. */
struct scan {
	int table;			/* enum rep_v2_table, or -1 for mismatches */
	const char *sql;
	rep_rdb_row_fn fn;
	/* schema 3: the same rows from a chunk table, without SQLite unpacking them */
	const char *chunk_sql;
	rep_rdb_row_fn chunk_fn;	/* NULL: @fn */
};

/* First the plots and their axes, then (after init_series) their contents. */
static const struct scan layout_scans[] = {
	{ REP_T_POLICIES, "SELECT policy, cpus, opps_khz, min_khz, max_khz FROM policies"
	  " WHERE trace_id = ?1 ORDER BY policy", policy_row, NULL, NULL },
	{ REP_T_FREQ_INTERVALS, "SELECT DISTINCT policy, cpu FROM freq_intervals"
	  " WHERE trace_id = ?1", freq_policy_row,
	  "SELECT DISTINCT policy, cpu FROM freq_interval_chunks WHERE trace_id = ?1", NULL },
	{ REP_T_CPUS, "SELECT cpu, policy, capacity FROM cpus WHERE trace_id = ?1", cpu_row, NULL, NULL },
	{ REP_T_CLAMP_INTERVALS, "SELECT DISTINCT cpu FROM clamp_intervals WHERE trace_id = ?1",
	  clamp_cpu_row, "SELECT DISTINCT cpu FROM clamp_interval_chunks WHERE trace_id = ?1",
	  NULL },
};

static const struct scan content_scans[] = {
	{ REP_T_FREQ_INTERVALS, "SELECT policy, ts_start_ns, ts_end_ns, observed_khz,"
	  " expected_khz, accepted_lo_khz, accepted_hi_khz FROM freq_intervals"
	  " WHERE trace_id = ?1", freq_row,
	  "SELECT policy, ts_first_ns, intervals FROM freq_interval_chunks WHERE trace_id = ?1",
	  freq_chunk_row },
	{ REP_T_CLAMP_INTERVALS, "SELECT cpu, ts_start_ns, ts_end_ns, uclamp_min, uclamp_max"
	  " FROM clamp_intervals WHERE trace_id = ?1", clamp_row,
	  "SELECT cpu, ts_first_ns, intervals FROM clamp_interval_chunks WHERE trace_id = ?1",
	  clamp_chunk_row },
	{ -1, "SELECT cpu, ts_start_ns, ts_end_ns FROM mismatches"
	  " WHERE trace_id = ?1 AND cpu IS NOT NULL", mark_row, NULL, NULL },
	{ REP_T_TASK_REQUESTS, "SELECT pid, ts_ns, util_min, util_max, ret, model_ret"
	  " FROM task_requests WHERE trace_id = ?1", request_row, NULL, NULL },
};

static int run_scans(struct rep_rdb *db, const struct rep_trace *t, const struct scan *scans,
		     size_t nr, struct rep_plots *p, struct an_diag *d)
{
	for (size_t i = 0; i < nr; i++) {
		const struct scan *sc = &scans[i];
		bool is_chunks = sc->chunk_sql && db->schema_version >= 3;
		int err;

		if (sc->table >= 0 && !rep_rdb_has(db, (enum rep_v2_table)sc->table))
			continue;
		err = rep_rdb_scan(db, is_chunks ? sc->chunk_sql : sc->sql, t->trace_id,
				   is_chunks && sc->chunk_fn ? sc->chunk_fn : sc->fn, p, d);
		if (err)
			return err;
	}
	return 0;
}

static int add_policy_cpus(struct rep_plots *p)
{
	for (size_t i = 0; i < p->nr_policies; i++) {
		int err = for_each_in_list(p->policies[i].cpus, add_listed_cpu, p);

		if (err)
			return err;
	}
	return 0;
}

/* The lanes: tasks with requests, most requests first, at most @max. */
static int load_lanes(struct rep_rdb *db, const struct rep_trace *t, unsigned int max,
		      struct rep_plots *p, struct an_diag *d)
{
	char sql[512];

	if (!rep_rdb_has(db, REP_T_TASK_REQUESTS))
		return 0;
	snprintf(sql, sizeof(sql), "SELECT r.pid, count(*), %s FROM task_requests r"
		 " WHERE r.trace_id = ?1 GROUP BY r.pid ORDER BY count(*) DESC, r.pid",
		 rep_rdb_has(db, REP_T_TASKS) ? "(SELECT k.comm FROM tasks k"
		 " WHERE k.trace_id = r.trace_id AND k.pid = r.pid)" : "NULL");
	if (rep_rdb_scan(db, sql, t->trace_id, lane_row, p, d))
		return d->err;
	p->nr_tasks = (int64_t)p->nr_lanes;
	if (p->nr_lanes > max)
		p->nr_lanes = max;
	return 0;
}

/**
 * rep_plots_load() - read the plot data of trace @t
 * @db: the database (a schema 1 file gives empty plots)
 * @t: the trace
 * @nr_buckets: time buckets per series
 * @max_lanes: most tasks shown with their requests
 * @out: the data, freed with rep_plots_free()
 * @d: filled on failure
 *
 * Return: 0, -ENOMEM or AN_E_DB.
 */
int rep_plots_load(struct rep_rdb *db, const struct rep_trace *t, unsigned int nr_buckets,
		   unsigned int max_lanes, struct rep_plots **out, struct an_diag *d)
{
	struct rep_plots *p = an_calloc(1, sizeof(*p));
	int err;

	*out = NULL;
	if (!p)
		return an_diag_fail(d, -ENOMEM, "out of memory");
	p->nr_buckets = nr_buckets;
	p->t0_ns = t->t_start_ns;
	p->t1_ns = t->t_end_ns;
	err = run_scans(db, t, layout_scans, sizeof(layout_scans) / sizeof(layout_scans[0]), p, d);
	if (!err)
		err = add_policy_cpus(p);
	if (!err)
		err = load_lanes(db, t, max_lanes, p, d);
	if (!err) {
		resolve_policies(p);
		err = init_series(p);
	}
	if (!err)
		err = run_scans(db, t, content_scans,
				sizeof(content_scans) / sizeof(content_scans[0]), p, d);
	if (err) {
		if (p->bad_chunk[0])
			an_diag_fail(d, AN_E_DB, "database '%s', trace %lld: %s", db->path,
				     (long long)t->trace_id, p->bad_chunk);
		else if (!d->err)
			an_diag_fail(d, err, "cannot read the plot data: %s", an_error_str(err));
		rep_plots_free(p);
		return err;
	}
	*out = p;
	return 0;
}

/**
 * rep_plots_free() - free @p and all its series
 * @p: the plot data, may be NULL
 */
void rep_plots_free(struct rep_plots *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->nr_policies; i++) {
		free(p->policies[i].opps_khz);
		rep_tseries_free(&p->policies[i].observed);
		rep_tseries_free(&p->policies[i].expected);
		rep_tseries_free(&p->policies[i].accepted_lo);
		rep_tseries_free(&p->policies[i].accepted_hi);
	}
	for (size_t i = 0; i < p->nr_cpus; i++) {
		rep_tseries_free(&p->cpus[i].clamp_min);
		rep_tseries_free(&p->cpus[i].clamp_max);
		rep_tseries_free(&p->cpus[i].marks);
	}
	for (size_t i = 0; i < p->alloc_lanes && p->lanes; i++) {
		rep_tseries_free(&p->lanes[i].lo);
		rep_tseries_free(&p->lanes[i].hi);
		rep_tseries_free(&p->lanes[i].bad);
	}
	free(p->policies);
	free(p->cpus);
	free(p->lanes);
	rep_arena_free(&p->arena);
	free(p);
}

static int64_t series_max(const struct rep_tseries *s)
{
	int64_t m = 0;

	for (unsigned int i = 0; s->b && i < s->nr; i++)
		if (s->b[i].n && s->b[i].hi > m)
			m = s->b[i].hi;
	return m;
}

/**
 * rep_plots_top_khz() - the frequency a policy's UCLAMP scale maps 1024 to
 * @pol: the policy, NULL when the CPU has none
 *
 * Return: its highest OPP, else its max_khz, else the highest frequency its
 * series show; 0 when nothing is known.
 */
int64_t rep_plots_top_khz(const struct rep_policy_plot *pol)
{
	int64_t top = 0;

	if (!pol)
		return 0;
	for (size_t i = 0; i < pol->nr_opps; i++)
		if (pol->opps_khz[i] > top)
			top = pol->opps_khz[i];
	if (!top)
		top = pol->max_khz;
	if (top <= 0) {
		int64_t a = series_max(&pol->observed), b = series_max(&pol->expected);

		top = a > b ? a : b;
	}
	return top;
}
