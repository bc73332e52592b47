// SPDX-License-Identifier: MIT
/*
 * `ucval synth` against `ucval analyze`, through the built binary ($UCVAL):
 *  - the fault matrix: for every fault and three seeds, the faulty trace and
 *    its clean twin (same seed, no fault). The twin must have no FAIL at all
 *    and exit status 0 (not 3: nothing in it may hide a failure). The faulty
 *    one must have, for every truth window a checker must find, a FAIL window
 *    of that check (and CPU) overlapping it, and every FAIL window must
 *    overlap a truth window of its check (a "may" one counts), or a
 *    trace_integrity one (events.md §4: a loss makes the rest undecided);
 *  - the same seed gives the same bytes, another seed other bytes;
 *  - the fault matrix again with Perfetto traces (--format pftrace, read by
 *    the Perfetto reader);
 *  - the text, trace.dat and Perfetto outputs of a seed give the same
 *    verdicts and windows;
 *  - memory stays flat from 20 thousand to 2 million events (streaming);
 *  - bad usage is exit status 2 with a message.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sqlite3.h>

#include "analyze/checks/check.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define MAX_ARGS	64
#define MATRIX_EVENTS	"30000"		/* per trace: tens of windows of each fault */
#define SMALL_EVENTS	"20000"
#define BIG_EVENTS	"2000000"
/* Peak RSS may grow this much from the small run to the big one (KiB):
 * stdio and page buffers, nothing per event. */
#define RSS_SLACK_KB	(16 * 1024)
#define NO_CPU		(-1)

extern char **environ;

static char tmp_dir[PATH_MAX];

/* ---- running the binary ---- */

/* Run $UCVAL @args; stderr to @err_path (or /dev/null); exit status, or -1. */
static int run_ucval(const char *const *args, const char *err_path, struct rusage *ru)
{
	const char *bin = getenv("UCVAL");
	char *argv[MAX_ARGS + 2];
	posix_spawn_file_actions_t fa;
	size_t n = 0;
	pid_t pid;
	int wst;

	argv[n++] = (char *)bin;
	while (args[n - 1] && n <= MAX_ARGS) {
		argv[n] = (char *)args[n - 1];
		n++;
	}
	argv[n] = NULL;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, err_path ? err_path : "/dev/null",
					 O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (posix_spawn(&pid, bin, &fa, NULL, argv, environ))
		return -1;
	posix_spawn_file_actions_destroy(&fa);
	if (wait4(pid, &wst, 0, ru) != pid)
		return -1;
	return WIFEXITED(wst) ? WEXITSTATUS(wst) : 128 + WTERMSIG(wst);
}

static char *path_of(const char *name)
{
	char *p;

	assert_true(asprintf(&p, "%s/%s", tmp_dir, name) > 0);
	return p;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static int setup(void **state)
{
	const char *t = getenv("TMPDIR");

	(void)state;
	if (!getenv("UCVAL"))
		return 0;
	snprintf(tmp_dir, sizeof(tmp_dir), "%s/ucval-synth-XXXXXX", t ? t : "/tmp");
	return mkdtemp(tmp_dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	if (!tmp_dir[0])
		return 0;
	return nftw(tmp_dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static bool has_binary(void)
{
	if (getenv("UCVAL"))
		return true;
	printf("# skip: $UCVAL (the built ucval) is not set; run through make check\n");
	return false;
}

/* ---- windows ---- */

struct win {
	int check;		/* enum an_check_id */
	int cpu;		/* NO_CPU when none */
	uint64_t start, end;
	bool is_may;		/* truth: a checker may miss it */
	bool is_lost;		/* truth: rule EV-LOST (a consequence of lost events) */
};

struct wins {
	struct win *w;
	size_t nr, alloc;
};

static void wins_add(struct wins *v, const struct win *w)
{
	if (v->nr == v->alloc) {
		v->alloc = v->alloc ? 2 * v->alloc : 64;
		v->w = realloc(v->w, v->alloc * sizeof(*v->w));
		assert_non_null(v->w);
	}
	v->w[v->nr++] = *w;
}

static int check_id(const char *name)
{
	enum an_check_id id = AN_CHECK__COUNT;

	if (an_check_from_name(name, &id))
		fail_msg("unknown check id '%s'", name);
	return (int)id;
}

static void read_truth(const char *path, struct wins *v)
{
	FILE *f = fopen(path, "r");
	char line[256];

	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		char check[64], rule[32], may[8] = "";
		unsigned long long a, b;
		struct win w = { 0 };
		int cpu, n;

		if (line[0] == '#')
			continue;
		n = sscanf(line, "%63s %d %llu %llu %31s %7s", check, &cpu, &a, &b, rule, may);
		if (n < 5 || (n == 6 && strcmp(may, "may")) || a > b)
			fail_msg("%s: bad truth line '%s'", path, line);
		w.check = check_id(check);
		w.cpu = cpu;
		w.start = a;
		w.end = b;
		w.is_may = n == 6;
		w.is_lost = !strcmp(rule, "EV-LOST");
		wins_add(v, &w);
	}
	fclose(f);
}

static bool is_overlap(const struct win *a, const struct win *b)
{
	return a->start <= b->end && b->start <= a->end;
}

static bool is_same_key(const struct win *a, const struct win *b)
{
	return a->check == b->check && (a->cpu == NO_CPU || b->cpu == NO_CPU || a->cpu == b->cpu);
}

/* The first window of @v overlapping @q that @ok accepts, or NULL. */
static const struct win *find(const struct wins *v, const struct win *q,
			      bool (*ok)(const struct win *cand, const struct win *q))
{
	for (size_t i = 0; i < v->nr; i++)
		if (is_overlap(&v->w[i], q) && ok(&v->w[i], q))
			return &v->w[i];
	return NULL;
}

static bool ok_same_key(const struct win *cand, const struct win *q)
{
	return is_same_key(cand, q);
}

static bool ok_same_key_not_lost(const struct win *cand, const struct win *q)
{
	return is_same_key(cand, q) && !cand->is_lost;
}

static bool ok_integrity(const struct win *cand, const struct win *q)
{
	(void)q;
	return cand->check == AN_CHECK_TRACE_INTEGRITY && !cand->is_may;
}

/* ---- the database ---- */

struct verdict {
	char verdict[16];
	long long n_checked, n_failed, n_undecided;
};

struct trace_result {
	struct verdict v[AN_CHECK__COUNT];
	struct wins fails;
};

static void read_result(sqlite3 *db, const char *path, struct trace_result *r)
{
	sqlite3_stmt *st;
	long long id = -1;

	memset(r, 0, sizeof(*r));
	assert_int_equal(sqlite3_prepare_v2(db, "SELECT trace_id FROM traces WHERE path = ?", -1,
					    &st, NULL), SQLITE_OK);
	sqlite3_bind_text(st, 1, path, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (id < 0)
		fail_msg("no trace '%s' in the database", path);
	assert_int_equal(sqlite3_prepare_v2(db, "SELECT check_id, verdict, n_checked, n_failed, "
					    "n_undecided FROM verdicts WHERE trace_id = ?", -1,
					    &st, NULL), SQLITE_OK);
	sqlite3_bind_int64(st, 1, id);
	while (sqlite3_step(st) == SQLITE_ROW) {
		struct verdict *v = &r->v[check_id((const char *)sqlite3_column_text(st, 0))];

		snprintf(v->verdict, sizeof(v->verdict), "%s", sqlite3_column_text(st, 1));
		v->n_checked = sqlite3_column_int64(st, 2);
		v->n_failed = sqlite3_column_int64(st, 3);
		v->n_undecided = sqlite3_column_int64(st, 4);
	}
	sqlite3_finalize(st);
	assert_int_equal(sqlite3_prepare_v2(db, "SELECT check_id, cpu, ts_start_ns, ts_end_ns "
					    "FROM mismatches WHERE trace_id = ? ORDER BY check_id, "
					    "ts_start_ns, ts_end_ns, cpu", -1, &st, NULL), SQLITE_OK);
	sqlite3_bind_int64(st, 1, id);
	while (sqlite3_step(st) == SQLITE_ROW) {
		struct win w = {
			.check = check_id((const char *)sqlite3_column_text(st, 0)),
			.cpu = sqlite3_column_type(st, 1) == SQLITE_NULL ? NO_CPU :
			       sqlite3_column_int(st, 1),
			.start = (uint64_t)sqlite3_column_int64(st, 2),
			.end = (uint64_t)sqlite3_column_int64(st, 3),
		};

		wins_add(&r->fails, &w);
	}
	sqlite3_finalize(st);
}

static sqlite3 *open_db(const char *path)
{
	sqlite3 *db = NULL;

	assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	return db;
}

/* ---- the fault matrix ---- */

static const struct fault_case {
	const char *fault;
	const char *checks[3];	/* checks that must FAIL, with windows a checker must find */
	const char *model;	/* NULL: mainline for odd seeds, v3 for even ones */
} faults[] = {
	{ "rq-max-stale",	{ "rq_clamp" }, NULL },
	{ "no-idle-retention",	{ "rq_clamp" }, NULL },
	{ "sugov-ignores-min",	{ "freq_below_min_clamp", "freq_prediction" }, NULL },
	{ "sugov-ignores-max",	{ "freq_above_max_clamp", "freq_prediction" }, NULL },
	{ "rate-limit",		{ "freq_prediction" }, NULL },
	{ "lost-events",	{ "trace_integrity" }, NULL },
	{ "accept-invalid",	{ "request_result" }, NULL },
	{ "groups-overflow",	{ "groups_exhausted", "request_result" }, "v3" },
	{ "eff-ignores-group",	{ "task_effective" }, NULL },
};

static const char *const seeds[] = { "1", "6", "3" };

static const char *model_of(const struct fault_case *c, size_t seed_idx)
{
	if (c->model)
		return c->model;
	return seed_idx % 2 ? "v3" : "mainline";
}

static char *twin_name(const char *model, const char *seed, const char *ext)
{
	char *p;

	assert_true(asprintf(&p, "%s/clean-%s-%s.%s", tmp_dir, model, seed, ext) > 0);
	return p;
}

static void synth(const char *out, const char *seed, const char *model, const char *fault,
		  const char *truth, const char *events)
{
	const char *args[MAX_ARGS] = {
		"synth", "-q", "-o", out, "--seed", seed, "--model", model, "--events", events,
	};
	size_t n = 10;
	char *err = path_of("synth.err");
	int rc;

	if (fault) {
		args[n++] = "--fault";
		args[n++] = fault;
		args[n++] = "--truth";
		args[n++] = truth;
	}
	rc = run_ucval(args, err, NULL);
	if (rc)
		fail_msg("ucval synth -o %s --seed %s --model %s --fault %s: exit %d (see %s)", out,
			 seed, model, fault ? fault : "none", rc, err);
	free(err);
}

/* One `ucval analyze` over @paths into @db; its exit status. */
static int analyze(const char *db, char **paths, size_t nr)
{
	const char *args[MAX_ARGS] = { "analyze", "-q", "-j", "2", "--db", db };
	size_t n = 6;

	assert_true(nr + n < MAX_ARGS);
	for (size_t i = 0; i < nr; i++)
		args[n++] = paths[i];
	return run_ucval(args, NULL, NULL);
}

static bool is_fault_check(const struct fault_case *c, int check)
{
	for (size_t i = 0; i < ARRAY_SIZE(c->checks) && c->checks[i]; i++)
		if (check_id(c->checks[i]) == check)
			return true;
	return false;
}

static void verify_fault(const struct fault_case *c, const char *model, const char *seed,
			 const struct trace_result *r, const char *truth_path)
{
	struct wins truth = { 0 };
	size_t nr_must = 0, nr_lost_only = 0;

	read_truth(truth_path, &truth);
	for (size_t i = 0; i < ARRAY_SIZE(c->checks) && c->checks[i]; i++) {
		int id = check_id(c->checks[i]);
		size_t n = 0;

		for (size_t k = 0; k < truth.nr; k++)
			n += truth.w[k].check == id && !truth.w[k].is_may;
		if (!n)
			fail_msg("%s seed %s %s: no truth window of %s: the test would prove "
				 "nothing", c->fault, seed, model, c->checks[i]);
		if (strcmp(r->v[id].verdict, "FAIL"))
			fail_msg("%s seed %s %s: %s is %s, expected FAIL", c->fault, seed, model,
				 c->checks[i], r->v[id].verdict);
	}
	for (size_t k = 0; k < truth.nr; k++) {
		const struct win *t = &truth.w[k];

		if (t->is_may)
			continue;
		nr_must++;
		if (!is_fault_check(c, t->check))
			fail_msg("%s seed %s: truth window of %s, which the fault does not name",
				 c->fault, seed, an_check_name(t->check));
		if (!find(&r->fails, t, ok_same_key))
			fail_msg("%s seed %s %s: no %s FAIL window overlaps truth window cpu %d "
				 "%llu..%llu", c->fault, seed, model, an_check_name(t->check), t->cpu,
				 (unsigned long long)t->start, (unsigned long long)t->end);
	}
	for (size_t k = 0; k < r->fails.nr; k++) {
		const struct win *f = &r->fails.w[k];

		if (find(&truth, f, ok_same_key_not_lost) || find(&truth, f, ok_integrity))
			continue;
		if (find(&truth, f, ok_same_key)) {
			nr_lost_only++;
			continue;
		}
		fail_msg("%s seed %s %s: FAIL window of %s cpu %d %llu..%llu outside every truth "
			 "window", c->fault, seed, model, an_check_name(f->check), f->cpu,
			 (unsigned long long)f->start, (unsigned long long)f->end);
	}
	printf("# %-18s seed %s %-8s: %zu truth windows to find (+%zu may), %zu FAIL windows\n",
	       c->fault, seed, model, nr_must, truth.nr - nr_must, r->fails.nr);
	/*
	 * events.md §4: where lost events left the replay a runqueue it cannot
	 * know or a stale frequency, the checks are UNDECIDED, never FAIL.
	 */
	if (nr_lost_only)
		fail_msg("%s seed %s: %zu FAIL windows only where lost events hid the state "
			 "(truth rule EV-LOST)", c->fault, seed, nr_lost_only);
	free(truth.w);
}

static void verify_twin(const char *path, const struct trace_result *r)
{
	for (int i = 0; i < AN_CHECK__COUNT; i++)
		if (!strcmp(r->v[i].verdict, "FAIL") || r->v[i].n_failed)
			fail_msg("clean twin %s: %s is %s with %lld FAIL windows", path,
				 an_check_name(i), r->v[i].verdict, r->v[i].n_failed);
	if (r->fails.nr)
		fail_msg("clean twin %s: %zu FAIL windows", path, r->fails.nr);
}

/*
 * Every fault of every seed in a trace of format @ext (its file name
 * extension picks the format), and the clean twins.
 */
static void fault_matrix(const char *ext)
{
	char *faulty[ARRAY_SIZE(faults) * ARRAY_SIZE(seeds)];
	char *truth[ARRAY_SIZE(faulty)];
	char *twins[ARRAY_SIZE(faulty)];
	size_t nr = 0, nr_twins = 0;
	char *db_faulty, *db_twins;
	char name[64];
	sqlite3 *db;
	int rc;

	snprintf(name, sizeof(name), "faulty-%s.db", ext);
	db_faulty = path_of(name);
	snprintf(name, sizeof(name), "twins-%s.db", ext);
	db_twins = path_of(name);
	for (size_t f = 0; f < ARRAY_SIZE(faults); f++) {
		for (size_t s = 0; s < ARRAY_SIZE(seeds); s++) {
			const char *model = model_of(&faults[f], s);
			char *twin = twin_name(model, seeds[s], ext);
			bool is_new = true;

			assert_true(asprintf(&faulty[nr], "%s/%s-%s-%s.%s", tmp_dir, faults[f].fault,
					     model, seeds[s], ext) > 0);
			assert_true(asprintf(&truth[nr], "%s.truth", faulty[nr]) > 0);
			synth(faulty[nr], seeds[s], model, faults[f].fault, truth[nr], MATRIX_EVENTS);
			nr++;
			for (size_t k = 0; k < nr_twins; k++)
				is_new &= strcmp(twins[k], twin) != 0;
			if (!is_new) {
				free(twin);
				continue;
			}
			synth(twin, seeds[s], model, NULL, NULL, MATRIX_EVENTS);
			twins[nr_twins++] = twin;
		}
	}
	/* clean twins: nothing failed, nothing undecided that may hide a failure */
	rc = analyze(db_twins, twins, nr_twins);
	db = open_db(db_twins);
	for (size_t k = 0; k < nr_twins; k++) {
		struct trace_result r;

		read_result(db, twins[k], &r);
		verify_twin(twins[k], &r);
		free(r.fails.w);
	}
	sqlite3_close(db);
	if (rc)
		fail_msg("clean twins (%s): ucval analyze exit %d, expected 0 (3: an undecided "
			 "window that may hide a failure)", ext, rc);
	rc = analyze(db_faulty, faulty, nr);
	if (rc != 1)
		fail_msg("faulty traces (%s): ucval analyze exit %d, expected 1 (2: a trace it "
			 "cannot read)", ext, rc);
	db = open_db(db_faulty);
	nr = 0;
	for (size_t f = 0; f < ARRAY_SIZE(faults); f++) {
		for (size_t s = 0; s < ARRAY_SIZE(seeds); s++, nr++) {
			struct trace_result r;

			read_result(db, faulty[nr], &r);
			verify_fault(&faults[f], model_of(&faults[f], s), seeds[s], &r, truth[nr]);
			free(r.fails.w);
			free(faulty[nr]);
			free(truth[nr]);
		}
	}
	sqlite3_close(db);
	for (size_t k = 0; k < nr_twins; k++)
		free(twins[k]);
	free(db_faulty);
	free(db_twins);
}

static void test_fault_matrix(void **state)
{
	(void)state;
	if (!has_binary())
		skip();
	fault_matrix("dat");
}

/* The same matrix as Perfetto traces: the Perfetto reader finds the same. */
static void test_fault_matrix_pftrace(void **state)
{
	(void)state;
	if (!has_binary())
		skip();
	fault_matrix("pftrace");
}

/* ---- determinism ---- */

static bool same_bytes(const char *a, const char *b)
{
	FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
	bool is_same = fa && fb;
	int ca, cb;

	while (is_same) {
		ca = getc(fa);
		cb = getc(fb);
		is_same = ca == cb;
		if (ca == EOF)
			break;
	}
	if (fa)
		fclose(fa);
	if (fb)
		fclose(fb);
	return is_same;
}

static void test_deterministic(void **state)
{
	static const struct {
		const char *format;
		const char *fault;
	} rows[] = {
		{ "dat", NULL }, { "text", NULL }, { "dat", "lost-events" },
		{ "text", "sugov-ignores-min" }, { "pftrace", NULL },
		{ "pftrace", "lost-events" },
	};

	(void)state;
	if (!has_binary())
		skip();
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		char *a = path_of("det-a"), *b = path_of("det-b"), *c = path_of("det-c");
		char *ta = path_of("det-a.truth"), *tb = path_of("det-b.truth");
		const char *fault = rows[i].fault ? rows[i].fault : "none";
		const char *args[][MAX_ARGS] = {
			{ "synth", "-q", "-o", a, "--format", rows[i].format, "--seed", "11",
			  "--events", SMALL_EVENTS, "--fault", fault, "--truth", ta, NULL },
			{ "synth", "-q", "-o", b, "--format", rows[i].format, "--seed", "11",
			  "--events", SMALL_EVENTS, "--fault", fault, "--truth", tb, NULL },
			{ "synth", "-q", "-o", c, "--format", rows[i].format, "--seed", "12",
			  "--events", SMALL_EVENTS, "--fault", fault, NULL },
		};

		for (size_t k = 0; k < ARRAY_SIZE(args); k++)
			assert_int_equal(run_ucval(args[k], NULL, NULL), 0);
		if (!same_bytes(a, b) || !same_bytes(ta, tb))
			fail_msg("row %zu (%s, %s): the same seed gave different bytes", i,
				 rows[i].format, fault);
		if (same_bytes(a, c))
			fail_msg("row %zu (%s, %s): seeds 11 and 12 gave the same bytes", i,
				 rows[i].format, fault);
		free(a);
		free(b);
		free(c);
		free(ta);
		free(tb);
	}
}

/* ---- text, trace.dat and Perfetto agree ---- */

/* Row @i: the results of format @what must be those of trace.dat. */
static void expect_same(size_t i, const char *fault, const char *what,
			const struct trace_result *rd, const struct trace_result *rt)
{
	for (int c = 0; c < AN_CHECK__COUNT; c++) {
		const struct verdict *a = &rd->v[c], *b = &rt->v[c];

		if (strcmp(a->verdict, b->verdict) || a->n_checked != b->n_checked ||
		    a->n_failed != b->n_failed || a->n_undecided != b->n_undecided)
			fail_msg("row %zu (%s): %s: dat %s %lld/%lld/%lld, %s %s "
				 "%lld/%lld/%lld", i, fault, an_check_name(c),
				 a->verdict, a->n_checked, a->n_failed, a->n_undecided, what,
				 b->verdict, b->n_checked, b->n_failed, b->n_undecided);
	}
	if (rd->fails.nr != rt->fails.nr)
		fail_msg("row %zu (%s): %zu FAIL windows in dat, %zu in %s", i, fault,
			 rd->fails.nr, rt->fails.nr, what);
	for (size_t k = 0; k < rd->fails.nr; k++)
		if (memcmp(&rd->fails.w[k], &rt->fails.w[k], sizeof(rd->fails.w[k])))
			fail_msg("row %zu (%s): window %zu differs between dat and %s", i,
				 fault, k, what);
}

static void test_text_equals_dat(void **state)
{
	static const struct {
		const char *seed;
		const char *model;
		const char *fault;
	} rows[] = {
		{ "4", "mainline", "none" },
		{ "5", "v3", "rq-max-stale" },
		{ "6", "mainline", "lost-events" },
		{ "7", "v3", "sugov-ignores-max" },
	};

	(void)state;
	if (!has_binary())
		skip();
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		char *dat = path_of("same.dat"), *txt = path_of("same.txt");
		char *pf = path_of("same.pftrace"), *db = path_of("same.db");
		char *paths[] = { dat, txt, pf };
		struct trace_result rd, rt, rp;
		sqlite3 *h;

		for (int k = 0; k < 3; k++) {
			const char *args[MAX_ARGS] = {
				"synth", "-q", "-o", paths[k], "--seed", rows[i].seed, "--model",
				rows[i].model, "--fault", rows[i].fault, "--events", SMALL_EVENTS,
			};

			assert_int_equal(run_ucval(args, NULL, NULL), 0);
		}
		unlink(db);
		assert_int_equal(analyze(db, paths, 3), strcmp(rows[i].fault, "none") ? 1 : 0);
		h = open_db(db);
		read_result(h, dat, &rd);
		read_result(h, txt, &rt);
		read_result(h, pf, &rp);
		sqlite3_close(h);
		expect_same(i, rows[i].fault, "text", &rd, &rt);
		expect_same(i, rows[i].fault, "pftrace", &rd, &rp);
		printf("# %-18s: dat, text and pftrace: the same verdicts and %zu FAIL windows\n",
		       rows[i].fault, rd.fails.nr);
		free(rd.fails.w);
		free(rt.fails.w);
		free(rp.fails.w);
		free(dat);
		free(txt);
		free(pf);
		free(db);
	}
}

/* ---- memory does not grow with events ---- */

static void test_constant_memory(void **state)
{
	static const char *const counts[] = { SMALL_EVENTS, BIG_EVENTS };
	long rss_kb[ARRAY_SIZE(counts)];
	char *out = path_of("mem.dat");

	(void)state;
	if (!has_binary())
		skip();
	for (size_t i = 0; i < ARRAY_SIZE(counts); i++) {
		const char *args[] = {
			"synth", "-q", "-o", out, "--events", counts[i], "--cpus", "8", "--seed", "3",
			"--fault", "lost-events", NULL,
		};
		struct rusage ru;

		assert_int_equal(run_ucval(args, NULL, &ru), 0);
		rss_kb[i] = ru.ru_maxrss;
	}
	printf("# peak RSS: %s events %ld KiB, %s events %ld KiB\n", counts[0], rss_kb[0],
	       counts[1], rss_kb[1]);
	if (rss_kb[1] > rss_kb[0] + RSS_SLACK_KB)
		fail_msg("peak RSS grew from %ld KiB to %ld KiB with the events", rss_kb[0],
			 rss_kb[1]);
	unlink(out);
	free(out);
}

/* ---- bad usage ---- */

static void test_bad_usage(void **state)
{
	static const struct {
		const char *what;
		const char *args[8];
		int status;
		const char *err_has;
	} rows[] = {
		{ "no output", { "synth" }, 2, "no output file" },
		{ "unknown fault", { "synth", "-o", "x.dat", "--fault", "frob" }, 2, "unknown fault 'frob'" },
		{ "groups-overflow needs v3", { "synth", "-o", "x.dat", "--fault", "groups-overflow" }, 2,
		  "needs the v3 model" },
		{ "no CPU", { "synth", "-o", "x.dat", "--cpus", "0" }, 2, "0 CPUs" },
		{ "too many policies", { "synth", "-o", "x.dat", "--cpus", "2", "--policies", "3" }, 2,
		  "3 policies" },
		{ "bad format", { "synth", "-o", "x.dat", "--format", "json" }, 2,
		  "dat, text or pftrace" },
		{ "bad number", { "synth", "-o", "x.dat", "--events", "12k" }, 2, "whole number" },
		{ "unwritable", { "synth", "-o", "/nonexistent-dir/x.dat" }, 2, "/nonexistent-dir/x.dat" },
		{ "fault list", { "synth", "--fault", "list" }, 0, "" },
		{ "help", { "synth", "--help" }, 0, "" },
	};
	char *err = path_of("usage.err");

	(void)state;
	if (!has_binary())
		skip();
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		char text[4096] = "";
		FILE *f;
		int rc = run_ucval(rows[i].args, err, NULL);
		size_t n;

		f = fopen(err, "r");
		assert_non_null(f);
		n = fread(text, 1, sizeof(text) - 1, f);
		text[n] = '\0';
		fclose(f);
		if (rc != rows[i].status || !strstr(text, rows[i].err_has))
			fail_msg("row %zu (%s): exit %d, expected %d; stderr '%s' lacks '%s'", i,
				 rows[i].what, rc, rows[i].status, text, rows[i].err_has);
	}
	free(err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fault_matrix),
		cmocka_unit_test(test_fault_matrix_pftrace),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_text_equals_dat),
		cmocka_unit_test(test_constant_memory),
		cmocka_unit_test(test_bad_usage),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
