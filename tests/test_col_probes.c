// SPDX-License-Identifier: MIT
/*
 * tests/test_col_probes.c - `ucval collect --probes` on this machine's
 * kernel, in a tracefs instance of its own (ucval-probes-test): auto
 * records and says in one line why the probes are off, on exits 2 with
 * that reason and writes nothing, a bad mode is bad usage. On a kernel
 * with BTF and BPF but without uclamp, UCVAL_PROBES_NO_UCLAMP=1 runs the
 * PELT probes: their events land in the "probes" instance of the file, on
 * the mono clock, interleaved with the kernel's, the same through every
 * trace.dat reader and in `trace-cmd report`, and a ring buffer too small
 * for them leaves its losses marked in the file. Skips when not root, without
 * tracefs, or (for what needs them) without BTF and BPF.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analyze/read/reader.h"
#include "collect/probes.h"
#include "tests/an_testutil.h"

#define TRACEFS		"/sys/kernel/tracing"
#define INSTANCE	"ucval-probes-test"
#define OUT_LEN		8192
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static char ucval_bin[PATH_MAX];
static char out_path[PATH_MAX];
static const char *skip_reason;
static char why[256];		/* why the probes cannot run here, "" when they can */
static bool can_pelt;		/* BTF and BPF: the probes run without uclamp */

static int setup(void **state)
{
	const char *u = getenv("UCVAL");

	(void)state;
	an_reader_set_quiet(true);
	an_test_fmt(ucval_bin, sizeof(ucval_bin), "%s", u ? u : "./ucval");
	an_test_fmt(out_path, sizeof(out_path), "%s/ucval-probes-%d.dat",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());
	if (geteuid())
		skip_reason = "needs root: ucval collect creates a tracefs instance";
	else if (access(TRACEFS "/instances", W_OK))
		skip_reason = "needs tracefs: no writable " TRACEFS "/instances";
	if (!col_probes_check(true, why, sizeof(why)))
		can_pelt = col_probes_check(false, (char[256]){ 0 }, 256);
	else
		why[0] = '\0';
	return 0;
}

static void need_recorder(void)
{
	if (skip_reason) {
		printf("# skip: %s\n", skip_reason);
		skip();
	}
}

/* Run `ucval collect ARGS` with @env set; its exit status, stderr in @out. */
static int run_collect(const char *env, const char *args, char *out, size_t len)
{
	char cmd[2048];
	size_t n = 0;
	FILE *p;
	int status;

	an_test_fmt(cmd, sizeof(cmd), "%s '%s' collect --instance %s -o '%s' %s 2>&1", env,
		 ucval_bin, INSTANCE, out_path, args);
	p = popen(cmd, "r");
	assert_non_null(p);
	while (n + 1 < len && fgets(out + n, (int)(len - n), p))
		n += strlen(out + n);
	out[n] = '\0';
	status = pclose(p);
	assert_true(WIFEXITED(status));
	return WEXITSTATUS(status);
}

static void assert_no_instance(void)
{
	struct stat st;

	if (!stat(TRACEFS "/instances/" INSTANCE, &st))
		fail_msg("tracefs instance '%s' left behind", INSTANCE);
}

/* How many lines of @out hold @what. */
static unsigned int count_lines(const char *out, const char *what)
{
	unsigned int n = 0;

	for (const char *l = out; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		const char *end = strchr(l, '\n');
		const char *hit = strstr(l, what);

		if (hit && (!end || hit < end))
			n++;
	}
	return n;
}

/* Skip unless the recorder runs here and the probes cannot (why[] says why). */
static void need_refusal(void)
{
	need_recorder();
	if (!why[0]) {
		printf("# skip: this kernel can run the probes (it has uclamp)\n");
		skip();
	}
}

static void test_bad_mode(void **state)
{
	char out[OUT_LEN];

	(void)state;
	assert_int_equal(run_collect("", "--probes maybe -t 0.1", out, sizeof(out)), 2);
	assert_non_null(strstr(out, "bad --probes 'maybe'"));
}

static void test_auto_records_and_says_why(void **state)
{
	char out[OUT_LEN], line[300];
	struct stat st;

	(void)state;
	need_refusal();
	unlink(out_path);
	assert_int_equal(run_collect("", "--probes auto -t 0.3", out, sizeof(out)), 0);
	an_test_fmt(line, sizeof(line), "ucval collect: probes off: %s\n", why);
	if (!strstr(out, line))
		fail_msg("'%s' not in:\n%s", line, out);
	assert_int_equal(count_lines(out, "probes off"), 1);
	assert_int_equal(stat(out_path, &st), 0);
	assert_true(st.st_size > 0);
	assert_no_instance();
	unlink(out_path);
}

static void test_on_exits_2(void **state)
{
	char out[OUT_LEN], line[300];
	struct stat st;

	(void)state;
	need_refusal();
	unlink(out_path);
	assert_int_equal(run_collect("", "--probes on -t 0.3", out, sizeof(out)), 2);
	an_test_fmt(line, sizeof(line), "ucval collect: --probes on: %s\n", why);
	if (strcmp(out, line))
		fail_msg("wanted '%s', got:\n%s", line, out);
	assert_int_equal(stat(out_path, &st), -1);
	assert_no_instance();
	if (strstr(why, "lacks uclamp"))
		printf("# the reason here: %s\n", why);
}

/* Events of @path through @how: probe (PELT) ones and kernel ones, in order. */
static void read_all(const char *path, enum an_dat_reader how, unsigned int *nr_probe,
		     unsigned int *nr_kernel, unsigned int *nr_runs, uint64_t *sum)
{
	struct an_reader *r = NULL;
	struct an_event ev;
	struct an_diag d;
	uint64_t last = 0;
	int rc, prev = -1;

	*nr_probe = *nr_kernel = *nr_runs = 0;
	*sum = 0;
	an_reader_set_dat_reader(how);
	an_diag_clear(&d);
	assert_int_equal(an_reader_open(path, &r, &d), 0);
	while ((rc = an_reader_next(r, &ev, &d)) > 0) {
		int is_probe = ev.type == AN_EV_SCHED_PELT_CFS || ev.type == AN_EV_SCHED_UTIL_EST_CFS ||
			       ev.type == AN_EV_SCHED_UTIL_EST_SE || ev.type == AN_EV_SCHED_CPU_CAPACITY;

		if (ev.ts_ns < last)
			fail_msg("%s at %llu before %llu", ev.name, (unsigned long long)ev.ts_ns,
				 (unsigned long long)last);
		last = ev.ts_ns;
		*sum = *sum * 31 + ev.ts_ns + (uint64_t)ev.type;
		(is_probe ? (*nr_probe)++ : (*nr_kernel)++);
		if (is_probe != prev)
			(*nr_runs)++;
		prev = is_probe;
	}
	assert_int_equal(rc, 0);
	an_reader_close(r);
	an_reader_set_dat_reader(AN_DAT_PAGES);
}

static void test_pelt_probes_recorded(void **state)
{
	static const enum an_dat_reader readers[] = {
		AN_DAT_PAGES, AN_DAT_KBUFFER, AN_DAT_LIBTRACECMD,
	};
	char out[OUT_LEN], cmd[PATH_MAX + 64];
	unsigned int probe[3], kernel[3], runs[3];
	uint64_t sum[3];

	(void)state;
	need_recorder();
	if (!can_pelt && why[0]) {
		printf("# skip: the probes cannot run here: %s\n", why);
		skip();
	}
	unlink(out_path);
	assert_int_equal(run_collect("UCVAL_PROBES_NO_UCLAMP=1", "--probes on -t 0.5 -- "
				     "sh -c 'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done'",
				     out, sizeof(out)), 0);
	if (!strstr(out, "probes on:") || !strstr(out, "probes: "))
		fail_msg("no probes in:\n%s", out);
	for (size_t k = 0; k < ARRAY_SIZE(readers); k++) {
		read_all(out_path, readers[k], &probe[k], &kernel[k], &runs[k], &sum[k]);
		assert_true(probe[k] > 0);
		assert_true(kernel[k] > 0);
		assert_int_equal(probe[k], probe[0]);
		assert_int_equal(kernel[k], kernel[0]);
		assert_true(sum[k] == sum[0]);
	}
	/* one clock: the two streams interleave, not one after the other */
	if (runs[0] < 4)
		fail_msg("probe and kernel events in %u runs only", runs[0]);
	an_test_fmt(cmd, sizeof(cmd), "trace-cmd report -i '%s' 2>/dev/null | grep -c '^probes:'",
		 out_path);
	if (!system("command -v trace-cmd >/dev/null 2>&1")) {
		FILE *p = popen(cmd, "r");
		unsigned int n = 0;

		assert_non_null(p);
		assert_int_equal(fscanf(p, "%u", &n), 1);
		pclose(p);
		assert_int_equal(n, probe[0]);
	}
	assert_no_instance();
	unlink(out_path);
}

/*
 * A ring buffer as small as 4 KiB trace buffers, unread at first
 * (UCVAL_PROBES_HOLD_MS): the probes lose records, and the file marks each
 * loss where the CPU's next probe record starts.
 */
static void test_probe_loss_marked(void **state)
{
	char out[OUT_LEN];
	unsigned long long events = 0, lost = 0;
	struct an_reader *r = NULL;
	struct an_event ev;
	struct an_diag d;
	const char *at;
	int rc;

	(void)state;
	need_recorder();
	if (!can_pelt && why[0]) {
		printf("# skip: the probes cannot run here: %s\n", why);
		skip();
	}
	unlink(out_path);
	/*
	 * The ring is left unread for its first 300 ms, which the workload's
	 * PELT updates overflow whatever the host's load, and read from then on,
	 * so later records carry the count.
	 */
	assert_int_equal(run_collect("UCVAL_PROBES_NO_UCLAMP=1 UCVAL_PROBES_HOLD_MS=300",
				     "--probes on -b 4 -- sh -c "
				     "'for j in 1 2 3; do (i=0; while [ $i -lt 300 ]; do "
				     "i=$((i+1)); /bin/true; done) & done; wait'",
				     out, sizeof(out)), 0);
	at = strstr(out, "ucval collect: probes: ");
	assert_non_null(at);
	assert_int_equal(sscanf(at, "ucval collect: probes: %llu events, %llu lost", &events,
				&lost), 2);
	if (!lost)
		fail_msg("no probe record lost with a 4 KiB buffer:\n%s", out);
	an_diag_clear(&d);
	assert_int_equal(an_reader_open(out_path, &r, &d), 0);
	while ((rc = an_reader_next(r, &ev, &d)) != 0)
		if (rc < 0 && !an_error_is_recoverable(rc))
			fail_msg("%s", d.message);
	assert_true(an_reader_info(r)->nr_lost >= lost);
	an_reader_close(r);
	assert_no_instance();
	unlink(out_path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_mode),
		cmocka_unit_test(test_auto_records_and_says_why),
		cmocka_unit_test(test_on_exits_2),
		cmocka_unit_test(test_pelt_probes_recorded),
		cmocka_unit_test(test_probe_loss_marked),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
