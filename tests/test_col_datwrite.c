// SPDX-License-Identifier: MIT
/*
 * tests/test_col_datwrite.c - the trace.dat v6 writer on synthetic data: the
 * same inputs as tests/an_datwriter.h must give byte for byte the file that
 * helper builds; the result must read back through ucval's reader and
 * `trace-cmd report`; odd inputs (CPU without data, a partial last page) and
 * errors (bad page size, unwritable path) are handled without leftovers;
 * the trace clock follows the flyrecord table.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analyze/read/reader.h"
#include "collect/datwrite.h"
#include "tests/an_datwriter.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define SYN_UNAME "Linux host 5.4.0-uclamp #1 SMP aarch64"
#define SYN_LOST 42			/* events lost before the page of CPU 1 */
#define SYN_CPU0_EVENTS 9		/* records in dw_page_cpu0() */
#define SYN_CPU1_EVENTS 2		/* records in dw_page_cpu1() */

static char tmp_dir[256];

static int setup(void **state)
{
	const char *t = getenv("TMPDIR");

	(void)state;
	an_reader_set_quiet(true);
	snprintf(tmp_dir, sizeof(tmp_dir), "%s/ucval-datwrite-XXXXXX", t ? t : "/tmp");
	return mkdtemp(tmp_dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	return rmdir(tmp_dir);	/* fails, so the run fails, when a file was left */
}

/* A memfd holding @len bytes. */
static int mem_fd(const void *data, size_t len)
{
	int fd = memfd_create("cpu", MFD_CLOEXEC);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, data, len), (ssize_t)len);
	return fd;
}

/* The inputs of dw_build(), split as col_datwrite_file() takes them. */
struct syn {
	struct col_dat_blob ftrace[1], sched[3], lisa[4], power[1];
	struct col_dat_system systems[3];
	struct col_dat_option opt[1];
	int fds[2];
	struct col_dat_input in;
};

static struct col_dat_blob blob(const char *s)
{
	return (struct col_dat_blob){ s, strlen(s) };
}

static void syn_init(struct syn *s)
{
	struct dw p0 = { 0 }, p1 = { 0 };

	memset(s, 0, sizeof(*s));
	s->ftrace[0] = blob(dw_fmt_print);
	s->sched[0] = blob(dw_fmt_switch);
	s->sched[1] = blob(dw_fmt_wakeup);
	s->sched[2] = blob(dw_fmt_load);
	s->lisa[0] = blob(dw_fmt_util_cfs);
	s->lisa[1] = blob(dw_fmt_sugov);
	s->lisa[2] = blob(dw_fmt_request);
	s->lisa[3] = blob(dw_fmt_foo);
	s->power[0] = blob(dw_fmt_idle);
	s->systems[0] = (struct col_dat_system){ "sched", s->sched, 3 };
	s->systems[1] = (struct col_dat_system){ "lisa", s->lisa, 4 };
	s->systems[2] = (struct col_dat_system){ "power", s->power, 1 };
	s->opt[0] = (struct col_dat_option){ COL_DAT_OPT_UNAME, SYN_UNAME, sizeof(SYN_UNAME) };
	dw_page(&p0, dw_page_cpu0, 0);
	dw_page(&p1, dw_page_cpu1, SYN_LOST);
	s->fds[0] = mem_fd(p0.p, p0.len);
	s->fds[1] = mem_fd(p1.p, p1.len);
	free(p0.p);
	free(p1.p);
	s->in = (struct col_dat_input){
		.page_size = DW_PAGE, .long_size = 8,
		.header_page = blob(dw_header_page), .header_event = blob(dw_header_event),
		.ftrace = s->ftrace, .nr_ftrace = 1, .systems = s->systems, .nr_systems = 3,
		.cmdlines = blob("42 rt-app\n43 worker\n"),
		.options = s->opt, .nr_options = 1, .nr_cpus = 2, .cpu_fds = s->fds,
	};
}

static void syn_free(struct syn *s)
{
	close(s->fds[0]);
	close(s->fds[1]);
}

static void *slurp(const char *path, size_t *len)
{
	struct stat st;
	char *buf;
	int fd = open(path, O_RDONLY);

	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &st), 0);
	buf = malloc((size_t)st.st_size + 1);
	assert_non_null(buf);
	assert_int_equal(read(fd, buf, (size_t)st.st_size), st.st_size);
	close(fd);
	*len = (size_t)st.st_size;
	return buf;
}

/* Events per CPU and the lost count through ucval's reader. */
static void read_back(const char *path, unsigned long long *events, unsigned long long *lost,
		      char *release, size_t len)
{
	struct an_reader *r = NULL;
	struct an_diag d;
	struct an_event ev;
	int ret;

	an_diag_clear(&d);
	assert_int_equal(an_reader_open(path, &r, &d), 0);
	*events = 0;
	while ((ret = an_reader_next(r, &ev, &d)) != 0) {
		if (ret < 0 && !an_error_is_recoverable(ret))
			fail_msg("reading '%s': %s", path, d.message);
		if (ret > 0 && ev.type != AN_EV_LOST_EVENTS)
			(*events)++;
		if (ret < 0)
			(*events)++;	/* a record with a missing field is still a record */
	}
	*lost = an_reader_info(r)->nr_lost;
	snprintf(release, len, "%s", an_reader_info(r)->kernel_release);
	an_reader_close(r);
}

static int trace_cmd_report(const char *path)
{
	char cmd[1024];

	if (system("command -v trace-cmd >/dev/null 2>&1"))
		return -1;
	snprintf(cmd, sizeof(cmd), "trace-cmd report -i '%s' >/dev/null 2>&1", path);
	return WEXITSTATUS(system(cmd));
}

static void test_same_bytes_as_helper(void **state)
{
	struct dw ref;
	struct syn s;
	struct an_diag d;
	char path[512];
	size_t len;
	void *got;

	(void)state;
	syn_init(&s);
	snprintf(path, sizeof(path), "%s/same.dat", tmp_dir);
	assert_int_equal(col_datwrite_file(path, &s.in, &d), 0);
	dw_build(&ref, SYN_UNAME);
	got = slurp(path, &len);
	assert_int_equal(len, ref.len);
	for (size_t i = 0; i < len; i++)
		if (((unsigned char *)got)[i] != ref.p[i])
			fail_msg("byte %zu: got 0x%02x want 0x%02x", i,
				 ((unsigned char *)got)[i], ref.p[i]);
	free(got);
	free(ref.p);
	syn_free(&s);
	unlink(path);
}

static void test_reads_back(void **state)
{
	unsigned long long events, lost;
	char path[512], release[80];
	struct an_diag d;
	struct syn s;
	int rc;

	(void)state;
	syn_init(&s);
	snprintf(path, sizeof(path), "%s/back.dat", tmp_dir);
	assert_int_equal(col_datwrite_file(path, &s.in, &d), 0);
	read_back(path, &events, &lost, release, sizeof(release));
	assert_int_equal(events, SYN_CPU0_EVENTS + SYN_CPU1_EVENTS);
	assert_int_equal(lost, SYN_LOST);
	assert_string_equal(release, "5.4.0-uclamp");
	rc = trace_cmd_report(path);
	if (rc < 0)
		printf("# skip: trace-cmd not installed, report not checked\n");
	else
		assert_int_equal(rc, 0);
	syn_free(&s);
	unlink(path);
}

/* A CPU without data, and a last page cut short: padded to a whole page. */
static void test_empty_cpu_and_partial_page(void **state)
{
	unsigned long long events, lost;
	char path[512], release[80];
	struct an_diag d;
	struct syn s;
	struct dw p0 = { 0 };
	int fds[3];
	size_t len;
	char *buf;

	(void)state;
	syn_init(&s);
	dw_page(&p0, dw_page_cpu0, 0);
	fds[0] = -1;
	fds[1] = mem_fd(p0.p, DW_PAGE / 2);	/* the records fit the first half */
	fds[2] = s.fds[1];
	s.in.nr_cpus = 3;
	s.in.cpu_fds = fds;
	snprintf(path, sizeof(path), "%s/partial.dat", tmp_dir);
	assert_int_equal(col_datwrite_file(path, &s.in, &d), 0);
	buf = slurp(path, &len);
	assert_int_equal(len % DW_PAGE, 0);
	free(buf);
	read_back(path, &events, &lost, release, sizeof(release));
	assert_int_equal(events, SYN_CPU0_EVENTS + SYN_CPU1_EVENTS);
	assert_int_equal(lost, SYN_LOST);
	if (trace_cmd_report(path) >= 0)
		assert_int_equal(trace_cmd_report(path), 0);
	close(fds[1]);
	free(p0.p);
	syn_free(&s);
	unlink(path);
}

/*
 * With a TRACECLOCK option, the clock follows the flyrecord table as an
 * 8-byte size and the text, as trace-cmd writes it and libtracecmd reads it.
 * Without it libtracecmd read the next 8 bytes as that size: zero padding,
 * or a page's timestamp when the table ended on a page boundary, a malloc of
 * 8.6e18 bytes (ASan, make check: test_col_record's loss.dat).
 */
static const char *const clocks[] = {
	"[local] global counter uptime perf mono mono_raw boot x86-tsc\n",
	"local global [mono]\n",
	"[boot]",
};

static void test_trace_clock_after_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(clocks); i++) {
		struct col_dat_option opt[2];
		char path[512], cmd[1024];
		uint64_t size;
		struct an_diag d;
		struct syn s;
		size_t len, at;
		char *buf, *fly;

		syn_init(&s);
		opt[0] = s.opt[0];
		opt[1] = (struct col_dat_option){ COL_DAT_OPT_TRACECLOCK, clocks[i],
						  (uint32_t)strlen(clocks[i]) + 1 };
		s.in.options = opt;
		s.in.nr_options = 2;
		snprintf(path, sizeof(path), "%s/clock.dat", tmp_dir);
		assert_int_equal(col_datwrite_file(path, &s.in, &d), 0);
		buf = slurp(path, &len);
		fly = memmem(buf, len, "flyrecord", sizeof("flyrecord"));
		assert_non_null(fly);
		at = (size_t)(fly - buf) + sizeof("flyrecord") + 16 * s.in.nr_cpus;
		assert_true(at + 8 + strlen(clocks[i]) <= len);
		memcpy(&size, buf + at, 8);
		assert_int_equal(size, strlen(clocks[i]));
		assert_memory_equal(buf + at + 8, clocks[i], strlen(clocks[i]));
		free(buf);
		if (trace_cmd_report(path) >= 0) {
			snprintf(cmd, sizeof(cmd), "trace-cmd report -i '%s' 2>&1 >/dev/null | "
				 "grep -q 'trace_clock bug'", path);
			assert_int_not_equal(WEXITSTATUS(system(cmd)), 0);
		}
		syn_free(&s);
		unlink(path);
	}
}

static const struct bad_case {
	const char *what;
	unsigned int page_size, long_size;
	bool is_empty_header;
	int want;
} bad_cases[] = {
	{ "page size not a power of two", 1000, 8, false, -EINVAL },
	{ "page size too small", 512, 8, false, -EINVAL },
	{ "long size 2", DW_PAGE, 2, false, -EINVAL },
	{ "empty header_page", DW_PAGE, 8, true, -EINVAL },
};

static void test_bad_input(void **state)
{
	char path[512];

	(void)state;
	snprintf(path, sizeof(path), "%s/bad.dat", tmp_dir);
	for (size_t i = 0; i < ARRAY_SIZE(bad_cases); i++) {
		const struct bad_case *c = &bad_cases[i];
		struct an_diag d;
		struct syn s;
		int got;

		syn_init(&s);
		s.in.page_size = c->page_size;
		s.in.long_size = c->long_size;
		if (c->is_empty_header)
			s.in.header_page.len = 0;
		an_diag_clear(&d);
		got = col_datwrite_file(path, &s.in, &d);
		if (got != c->want || !d.message[0])
			fail_msg("case %zu (%s): got %d want %d, message '%s'", i, c->what, got,
				 c->want, d.message);
		assert_int_equal(access(path, F_OK), -1);
		syn_free(&s);
	}
}

static void test_unwritable(void **state)
{
	char path[512], line[1024];
	struct an_diag d;
	struct syn s;

	(void)state;
	syn_init(&s);
	snprintf(path, sizeof(path), "%s/no/such/dir/x.dat", tmp_dir);
	an_diag_clear(&d);
	assert_int_equal(col_datwrite_file(path, &s.in, &d), -ENOENT);
	an_diag_format(&d, line, sizeof(line));
	assert_non_null(strstr(line, path));
	/* A CPU file that cannot be read: no output, no temporary left. */
	snprintf(path, sizeof(path), "%s/badfd.dat", tmp_dir);
	s.fds[0] = open("/dev/null", O_WRONLY);	/* fstat ok, size 0 */
	close(s.fds[1]);
	s.fds[1] = 1000000;			/* not a descriptor */
	assert_int_equal(col_datwrite_file(path, &s.in, &d), -EBADF);
	assert_int_equal(access(path, F_OK), -1);
	close(s.fds[0]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_bytes_as_helper),
		cmocka_unit_test(test_reads_back),
		cmocka_unit_test(test_empty_cpu_and_partial_page),
		cmocka_unit_test(test_trace_clock_after_table),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_unwritable),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
