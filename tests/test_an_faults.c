// SPDX-License-Identifier: MIT
/*
 * tests/test_an_faults.c - broken and hostile inputs: a trace.dat
 * cut at every page boundary of its data and with every data page header
 * corrupted, a huge comm, pid reuse, timestamps out of order, 100,000
 * tasks. Each gives a clear error (the file named) or UNDECIDED windows,
 * never a crash, never unbounded memory. ASan runs them in `make check`.
 *
 * The trace.dat inputs come from `ucval synth` ($UCVAL), made at test time.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analyze/analyze.h"
#include "analyze/read/reader.h"
#include "an_testutil.h"
#include "an_replaytest.h"

#define PAGE		4096u
#define SYNTH_EVENTS	"4000"		/* a few dozen data pages per CPU */

static char tmp_dir[256];

static int setup(void **state)
{
	(void)state;
	snprintf(tmp_dir, sizeof(tmp_dir), "/tmp/ucval-faults-XXXXXX");
	return mkdtemp(tmp_dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[512];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp_dir);
	return system(cmd) ? -1 : 0;
}

static unsigned char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf;
	long n;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n > 0);
	rewind(f);
	buf = malloc((size_t)n);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

/* A synthetic 2-CPU trace.dat, or NULL (skip) without $UCVAL. */
static unsigned char *synth_dat(size_t *len)
{
	const char *ucval = getenv("UCVAL");
	char cmd[1024], path[512];

	if (!ucval) {
		printf("# skip: UCVAL (the ucval binary, for ucval synth) is not set\n");
		return NULL;
	}
	snprintf(path, sizeof(path), "%s/whole.dat", tmp_dir);
	snprintf(cmd, sizeof(cmd), "'%s' synth -q -o '%s' --seed 11 --cpus 2 --events %s",
		 ucval, path, SYNTH_EVENTS);
	assert_int_equal(system(cmd), 0);
	return slurp(path, len);
}

/*
 * Read @len bytes of @data as a trace.dat to the end. Return: the number of
 * events read (>= 0), or the error code of the open or of a read that
 * stopped the reader; @msg gets the diagnostic, which must name the file.
 */
static long long read_bytes(const void *data, size_t len, char *msg, size_t size)
{
	struct an_reader *r = NULL;
	struct an_event ev;
	struct an_diag d;
	char path[512];
	long long n = 0;
	FILE *f;
	int rc;

	snprintf(path, sizeof(path), "%s/cut.dat", tmp_dir);
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	fclose(f);
	msg[0] = '\0';
	rc = an_reader_open(path, &r, &d);
	if (!rc) {
		while ((rc = an_reader_next(r, &ev, &d)) != 0) {
			if (rc > 0) {
				n++;
				continue;
			}
			an_diag_format(&d, msg, size);
			if (!strstr(msg, path))
				fail_msg("%zu bytes: diagnostic without the file: '%s'", len, msg);
			if (!an_error_is_recoverable(rc))
				break;
		}
		an_reader_close(r);
	}
	if (rc < 0) {
		an_diag_format(&d, msg, size);
		if (!strstr(msg, path))
			fail_msg("%zu bytes: diagnostic without the file: '%s'", len, msg);
		return rc;
	}
	return n;
}

/* Where the CPU data of @buf starts: the first page after "flyrecord". */
static size_t data_start(const unsigned char *buf, size_t len)
{
	for (size_t i = 0; i + 9 <= len; i++)
		if (!memcmp(buf + i, "flyrecord", 9))
			return (i + PAGE) & ~(size_t)(PAGE - 1);
	fail_msg("no flyrecord section");
	return 0;
}

/*
 * Cut at every page boundary and a few bytes into each page: before the
 * data, the open refuses the file; inside the data, either the open refuses
 * it (the CPU sections no longer fit) or the reader returns at most the
 * events of the whole file, its errors naming the file. Never a crash.
 */
static void test_truncated_every_page(void **state)
{
	unsigned char *buf;
	size_t len, start;
	long long whole, n;
	unsigned int nr_refused = 0, nr_read = 0;
	char msg[1024];

	(void)state;
	buf = synth_dat(&len);
	if (!buf)
		skip();
	whole = read_bytes(buf, len, msg, sizeof(msg));
	assert_true(whole > 1000);
	start = data_start(buf, len);
	for (size_t cut = PAGE; cut < len; cut += PAGE) {
		for (size_t k = 0; k < 2; k++) {
			size_t at = cut + k * 7;

			if (at >= len)
				continue;
			n = read_bytes(buf, at, msg, sizeof(msg));
			if (n < 0) {
				nr_refused++;
				continue;
			}
			nr_read++;
			if (at < start || n > whole)
				fail_msg("cut at %zu of %zu (data from %zu): %lld events of %lld",
					 at, len, start, n, whole);
		}
	}
	printf("# %zu bytes, data from %zu: %u cuts refused, %u read to the end\n", len,
	       start, nr_refused, nr_read);
	assert_true(nr_refused > 0);
	free(buf);
}

/*
 * Every data page header corrupted in turn: its commit size beyond the page,
 * then its timestamp far in the future. The reader reports or skips the
 * page (recoverable, naming the file) or reads on; never a crash.
 */
static void test_corrupt_page_headers(void **state)
{
	static const struct {
		const char *what;
		size_t at;		/* offset in the page header */
		unsigned char bytes[8];
	} cases[] = {
		{ "commit beyond the page", 8, { 0xff, 0xff, 0x00, 0x00, 0, 0, 0, 0 } },
		{ "commit with every flag", 8, { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff } },
		{ "timestamp in the far future", 0, { 0, 0, 0, 0, 0, 0, 0, 0x7f } },
	};
	unsigned char *buf, *copy;
	size_t len, start;
	char msg[1024];

	(void)state;
	buf = synth_dat(&len);
	if (!buf)
		skip();
	start = data_start(buf, len);
	copy = malloc(len);
	assert_non_null(copy);
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		unsigned int nr_err = 0;

		for (size_t page = start; page + PAGE <= len; page += PAGE) {
			memcpy(copy, buf, len);
			memcpy(copy + page + cases[c].at, cases[c].bytes, sizeof(cases[c].bytes));
			nr_err += read_bytes(copy, len, msg, sizeof(msg)) < 0 || msg[0];
		}
		printf("# %s: %u of %zu pages reported\n", cases[c].what, nr_err,
		       (len - start) / PAGE);
	}
	free(copy);
	free(buf);
}

/* ---- text traces through the replay ---- */

#define ML "ucval-1 [000] 1.000000: tracing_mark_write: ucval: platform cpus=2 " \
	   "model=mainline kernel=6.1.0 groups=5\n"

/* A 64 KiB comm: a clear error naming the line, or a cut name; no crash. */
static void test_huge_comm(void **state)
{
	size_t n = 64 * 1024;
	char *text = malloc(n + 512), *p;
	FILE *fp;
	struct an_reader *rd;
	struct an_event ev;
	struct an_diag d;
	char msg[1024];
	int rc, nr_events = 0, nr_errors = 0;

	(void)state;
	assert_non_null(text);
	p = text + sprintf(text, "%s", ML);
	memset(p, 'c', n);
	p += n;
	sprintf(p, "-100 [001] 2.000000: sched_wakeup: comm=w pid=100 prio=120 target_cpu=001\n"
		   "x-1 [001] 2.000100: sched_wakeup: comm=w pid=200 prio=120 target_cpu=001\n");
	fp = fmemopen(text, strlen(text), "r");
	assert_non_null(fp);
	assert_int_equal(an_reader_open_stream(fp, "huge-comm", &rd, &d), 0);
	while ((rc = an_reader_next(rd, &ev, &d)) != 0) {
		if (rc > 0) {
			nr_events++;
			continue;
		}
		an_diag_format(&d, msg, sizeof(msg));
		assert_non_null(strstr(msg, "huge-comm"));
		assert_true(an_error_is_recoverable(rc));
		nr_errors++;
	}
	/* the marker and the last wakeup at least; the long line is one event or one error */
	assert_true(nr_events >= 2);
	assert_int_equal(nr_events + nr_errors, 3);
	an_reader_close(rd);
	fclose(fp);
	free(text);
}

#define SW(cpu, ts, prev, pstate, next)						\
	"x-1 [00" #cpu "] " ts ": sched_switch: prev_comm=p prev_pid=" #prev		\
	" prev_prio=120 prev_state=" pstate " ==> next_comm=n next_pid=" #next		\
	" next_prio=120\n"
#define CFS(cpu, ts, min, max)								\
	"x-1 [00" #cpu "] " ts ": uclamp_util_cfs: cpu=" #cpu " util_avg=1 uclamp_avg=1"	\
	" uclamp_min=" #min " uclamp_max=" #max "\n"
#define MARK(ts, text) "ucval-1 [000] " ts ": tracing_mark_write: ucval: " text "\n"

/*
 * pid reuse (MA7, VG8): pid 100 asked min 700 and exited; a new task with
 * pid 100 is forked by pid 1 (no request): it runs with the defaults, and
 * rq_clamp agrees with a kernel showing MIN 0.
 */
static void test_pid_reuse(void **state)
{
	static const char text[] = ML MARK("1.000100", "task pid=100 util_min=700")
		SW(1, "2.000000", 0, "R", 100) CFS(1, "2.000100", 700, 1024)
		"x-1 [001] 2.000200: sched_process_exit: comm=old pid=100 prio=120\n"
		SW(1, "2.000300", 100, "X", 0)
		"x-1 [000] 2.000400: sched_process_fork: comm=init pid=1 child_comm=new child_pid=100\n"
		"x-1 [001] 2.000500: sched_wakeup_new: comm=new pid=100 prio=120 target_cpu=001\n"
		SW(1, "2.000600", 0, "R", 100) CFS(1, "2.000700", 0, 1024);
	struct an_test_windows c = { .nr = 0, .is_fail_only = true };
	struct an_results res;
	struct an_replay *r;

	(void)state;
	an_results_init(&res, an_test_sink, &c);
	r = an_test_replay_text(text, NULL, &res, true);
	assert_int_equal(c.nr, 0);
	assert_int_equal(res.stats[AN_CHECK_RQ_CLAMP].n_failed, 0);
	assert_true(res.stats[AN_CHECK_RQ_CLAMP].n_checked >= 2);
	an_replay_free(r);
}

/* Peak RSS of this process, kB. */
static long peak_kb(void)
{
	struct rusage ru;

	assert_int_equal(getrusage(RUSAGE_SELF, &ru), 0);
	return ru.ru_maxrss;
}

/*
 * 100,000 distinct tasks each waking and running once: the replay keeps
 * them all (they may come back), and the memory stays proportional: under
 * 64 MB more than before (measured and printed).
 */
static void test_many_tasks(void **state)
{
	const int nr = 100000;
	size_t size = (size_t)nr * 300 + 256, at;
	char *text = malloc(size);
	struct an_test_windows c = { .nr = 0, .is_fail_only = true };
	struct an_results res;
	struct an_replay *r;
	long before = peak_kb(), after;
	int prev = 0;

	(void)state;
	assert_non_null(text);
	at = (size_t)sprintf(text, "%s", ML);
	for (int i = 0; i < nr; i++) {
		int pid = 1000 + i;
		unsigned long long us = 2000000ULL + (unsigned long long)i * 10;

		at += (size_t)snprintf(text + at, size - at,
			"x-1 [001] %llu.%06llu: sched_wakeup: comm=t pid=%d prio=120 target_cpu=001\n"
			"x-1 [001] %llu.%06llu: sched_switch: prev_comm=t prev_pid=%d prev_prio=120 "
			"prev_state=S ==> next_comm=t next_pid=%d next_prio=120\n",
			us / 1000000, us % 1000000, pid, (us + 5) / 1000000, (us + 5) % 1000000,
			prev, pid);
		prev = pid;
	}
	an_results_init(&res, an_test_sink, &c);
	r = an_test_replay_text(text, NULL, &res, true);
	after = peak_kb();
	printf("# %d tasks: peak RSS %ld kB -> %ld kB\n", nr, before, after);
	assert_true(after - before < 64 * 1024);
	assert_int_equal(res.stats[AN_CHECK_TRACE_INTEGRITY].n_failed, 0);
	an_replay_free(r);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_truncated_every_page),
		cmocka_unit_test(test_corrupt_page_headers),
		cmocka_unit_test(test_huge_comm),
		cmocka_unit_test(test_pid_reuse),
		cmocka_unit_test(test_many_tasks),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
