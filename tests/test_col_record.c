// SPDX-License-Identifier: MIT
/*
 * tests/test_col_record.c - `ucval collect` on this machine's real tracefs:
 * a workload of our own (two threads ping-ponging a byte through pipes, run
 * as this program with --pingpong) is recorded and the file is checked with
 * trace-cmd report, ucval's reader and a full analysis; loss is forced with
 * a tiny buffer; SIGINT, an unwritable output and a non-root user are
 * tried. Skips when not root or without tracefs. No instance is left.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <tracefs.h>

#include "analyze/analyze.h"
#include "analyze/read/reader.h"
#include "collect/record.h"

#define TRACEFS		"/sys/kernel/tracing"
#define INSTANCE_DIR	TRACEFS "/instances/" COL_RECORD_INSTANCE
#define MODERATE_GAP_US	200	/* pause per round trip: a few thousand switches/s */
#define NOBODY_UID	65534
#define OUT_LEN		8192	/* captured stderr of ucval collect */
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define MARKER_KINDS	(AN_MARKER_SETATTR + 1)	/* marker kinds counted */
#define FAST_PAIRS	"4"	/* ping-pong pairs that outrun a 4 KiB buffer */
#define MAX_CPUS	64	/* CPUs whose switch chain is followed */

static char tmp_dir[256];
static char ucval_bin[PATH_MAX];
/* A copy of ucval another user can execute (the build may sit in a 0700 dir). */
static char other_dir[256], other_bin[PATH_MAX];
static char self_bin[PATH_MAX];
static const char *skip_reason;

/* --- the workload --------------------------------------------------------- */

struct pp {
	int in, out;
	double end_s;
	long gap_us;
	unsigned long trips;
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void *pp_echo(void *arg)
{
	struct pp *p = arg;
	char c;

	while (read(p->in, &c, 1) == 1 && c)
		if (write(p->out, &c, 1) != 1)
			break;
	return NULL;
}

/* Ping-pong for @seconds; each round trip is two switches at least. */
static int pingpong(double seconds, long gap_us)
{
	int a[2], b[2];
	struct pp echo;
	pthread_t t;
	unsigned long trips = 0;
	double end = now_s() + seconds;
	char c = 1;

	if (pipe(a) || pipe(b))
		return 1;
	echo = (struct pp){ .in = a[0], .out = b[1] };
	pthread_create(&t, NULL, pp_echo, &echo);
	while (now_s() < end) {
		if (write(a[1], &c, 1) != 1 || read(b[0], &c, 1) != 1)
			return 1;
		trips++;
		if (gap_us)
			usleep((useconds_t)gap_us);
	}
	c = 0;
	if (write(a[1], &c, 1) != 1)
		return 1;
	pthread_join(t, NULL);
	printf("%lu\n", trips);
	return 0;
}

/* --- helpers -------------------------------------------------------------- */

static int setup(void **state)
{
	const char *t = getenv("TMPDIR");
	const char *env = getenv("UCVAL");
	ssize_t n;

	(void)state;
	an_reader_set_quiet(true);
	n = readlink("/proc/self/exe", self_bin, sizeof(self_bin) - 1);
	if (n <= 0)
		return -1;
	self_bin[n] = '\0';
	if (env && *env) {
		snprintf(ucval_bin, sizeof(ucval_bin), "%s", env);
	} else {
		/* <O>/tests/test_col_record -> <O>/ucval */
		char dir[PATH_MAX];

		snprintf(dir, sizeof(dir), "%s", self_bin);
		*strrchr(dir, '/') = '\0';
		*strrchr(dir, '/') = '\0';
		snprintf(ucval_bin, sizeof(ucval_bin), "%.4000s/ucval", dir);
	}
	if (geteuid())
		skip_reason = "needs root: ucval collect creates a tracefs instance";
	else if (access(TRACEFS "/instances", W_OK))
		skip_reason = "needs tracefs: no writable " TRACEFS "/instances";
	else if (access(ucval_bin, X_OK))
		skip_reason = "needs the ucval binary: make build/ucval";
	snprintf(tmp_dir, sizeof(tmp_dir), "%s/ucval-collect-XXXXXX", t ? t : "/tmp");
	return mkdtemp(tmp_dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	if (other_bin[0]) {
		unlink(other_bin);
		rmdir(other_dir);
	}
	return rmdir(tmp_dir);	/* fails, so the run fails, when a file was left */
}

/*
 * The binary run as another user: a copy in a directory every user may
 * enter, since `make check` may build in a private one (a clone under
 * mktemp -d is 0700: exec as nobody failed there with EACCES).
 */
static const char *bin_for(uid_t uid)
{
	char buf[1 << 16];
	ssize_t n;
	int in, out;

	if (!uid)
		return ucval_bin;
	if (other_bin[0])
		return other_bin;
	snprintf(other_dir, sizeof(other_dir), "/tmp/ucval-other-XXXXXX");
	assert_non_null(mkdtemp(other_dir));
	assert_int_equal(chmod(other_dir, 0755), 0);
	snprintf(other_bin, sizeof(other_bin), "%s/ucval", other_dir);
	in = open(ucval_bin, O_RDONLY);
	out = open(other_bin, O_WRONLY | O_CREAT | O_EXCL, 0755);
	assert_true(in >= 0 && out >= 0);
	while ((n = read(in, buf, sizeof(buf))) > 0)
		assert_int_equal(write(out, buf, (size_t)n), n);
	assert_int_equal(n, 0);
	close(in);
	assert_int_equal(close(out), 0);
	return other_bin;
}

/* Ends the test as SKIPPED, the reason printed first, when it cannot run here. */
static void skip_unless_ready(void)
{
	if (!skip_reason)
		return;
	printf("# skip: %s\n", skip_reason);
	skip();
}

static void assert_no_instance(void)
{
	if (!access(INSTANCE_DIR, F_OK))
		fail_msg("tracefs instance '%s' left behind", INSTANCE_DIR);
}

/*
 * Run ucval with @argv (NULL-terminated, argv[0] ignored) as @uid; its
 * stderr goes to @err; when @sig_after_s > 0 it gets @sig then.
 * Return: the wait status.
 */
static int run_ucval_as(char *const argv[], uid_t uid, bool is_tracefs_hidden, int sig,
			double sig_after_s, char *err, size_t len)
{
	const char *bin = bin_for(uid);
	int p[2], status = 0;
	size_t n = 0;
	pid_t pid;
	ssize_t r;

	assert_int_equal(pipe(p), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		int null = open("/dev/null", O_WRONLY);

		dup2(null, STDOUT_FILENO);	/* the workload's trip count */
		dup2(p[1], STDERR_FILENO);
		close(p[0]);
		close(p[1]);
		if (uid && setuid(uid))
			_exit(126);
		/* A private mount namespace where /sys/kernel is an empty tmpfs. */
		if (is_tracefs_hidden &&
		    (unshare(CLONE_NEWNS) || mount("none", "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
		     mount("none", "/sys/kernel", "tmpfs", MS_RDONLY, NULL)))
			_exit(125);
		execv(bin, argv);
		_exit(127);
	}
	close(p[1]);
	if (sig_after_s > 0) {
		usleep((useconds_t)(sig_after_s * 1e6));
		kill(pid, sig);
	}
	while (n + 1 < len && (r = read(p[0], err + n, len - n - 1)) > 0)
		n += (size_t)r;
	err[n] = '\0';
	close(p[0]);
	waitpid(pid, &status, 0);
	return status;
}

static int run_ucval(char *const argv[], uid_t uid, double sigint_after_s, char *err,
		     size_t len)
{
	return run_ucval_as(argv, uid, false, SIGINT, sigint_after_s, err, len);
}

static void out_path(char *path, size_t len, const char *name)
{
	snprintf(path, len, "%s/%s", tmp_dir, name);
}

/* A recorder opened, started and enabled: tracing from here. */
static struct col_record *record_begin(const struct col_record_opts *opts, struct an_diag *d)
{
	struct col_record *rec = NULL;

	an_diag_clear(d);
	assert_int_equal(col_record_open(opts, &rec, d), 0);
	assert_int_equal(col_record_start(rec, d), 0);
	assert_int_equal(col_record_enable(rec, d), 0);
	return rec;
}

/* Lines of `trace-cmd report -i @path` containing @what; -1 when it fails. */
static long report_count(const char *path, const char *what)
{
	char cmd[1024], line[4096];
	long n = 0;
	FILE *fp;

	snprintf(cmd, sizeof(cmd), "trace-cmd report -i '%s' 2>/dev/null", path);
	fp = popen(cmd, "r");
	assert_non_null(fp);
	while (fgets(line, sizeof(line), fp))
		if (strstr(line, what))
			n++;
	return WEXITSTATUS(pclose(fp)) ? -1 : n;
}

/* Sum of overrun, commit overrun and dropped in `trace-cmd report --stat`. */
static unsigned long long stat_lost(const char *path)
{
	char cmd[1024], line[512];
	unsigned long long sum = 0, v;
	FILE *fp;

	snprintf(cmd, sizeof(cmd), "trace-cmd report --stat -i '%s' 2>/dev/null", path);
	fp = popen(cmd, "r");
	assert_non_null(fp);
	while (fgets(line, sizeof(line), fp))
		if (sscanf(line, "overrun: %llu", &v) == 1 ||
		    sscanf(line, "commit overrun: %llu", &v) == 1 ||
		    sscanf(line, "dropped events: %llu", &v) == 1)
			sum += v;
	assert_int_equal(WEXITSTATUS(pclose(fp)), 0);
	return sum;
}

struct counts {
	unsigned long long switches, markers[MARKER_KINDS], lost, lost_unknown, events;
	unsigned long long unplaced;		/* of lost, in no page (CPUSTAT) */
	unsigned long long lost_before;		/* overruns older than the file */
	unsigned long long breaks[MAX_CPUS];	/* prev_pid != the last next_pid */
	int last_next[MAX_CPUS];		/* -1: no switch yet */
	struct an_marker setattr;		/* the last setattr marker */
	unsigned long long setattr_exits;	/* sys_exit_sched_setattr events */
	long long setattr_exit_ret;		/* the last one's ret */
};

static void reader_counts(const char *path, struct counts *c)
{
	struct an_reader *r = NULL;
	struct an_event ev;
	struct an_diag d;
	int ret;

	memset(c, 0, sizeof(*c));
	memset(c->last_next, -1, sizeof(c->last_next));
	an_diag_clear(&d);
	if (an_reader_open(path, &r, &d))
		fail_msg("cannot read '%s': %s", path, d.message);
	while ((ret = an_reader_next(r, &ev, &d)) != 0) {
		if (ret < 0 && !an_error_is_recoverable(ret))
			fail_msg("reading '%s': %s", path, d.message);
		if (ret < 0)
			continue;
		c->events++;
		if (ev.type == AN_EV_SCHED_SWITCH) {
			c->switches++;
			if (ev.cpu >= 0 && ev.cpu < MAX_CPUS) {
				int *last = &c->last_next[ev.cpu];

				c->breaks[ev.cpu] += *last >= 0 && *last != ev.sw.prev_pid;
				*last = ev.sw.next_pid;
			}
		}
		if (ev.type == AN_EV_PRINT && ev.print.marker.kind < MARKER_KINDS)
			c->markers[ev.print.marker.kind]++;
		if (ev.type == AN_EV_PRINT && ev.print.marker.kind == AN_MARKER_SETATTR)
			c->setattr = ev.print.marker;
		if (ev.type == AN_EV_SYS_EXIT_SCHED_SETATTR) {
			c->setattr_exits++;
			c->setattr_exit_ret = ev.setattr_exit.ret;
		}
	}
	c->lost = an_reader_info(r)->nr_lost;
	c->lost_unknown = an_reader_info(r)->nr_lost_unknown;
	c->unplaced = an_reader_info(r)->nr_lost_unplaced;
	c->lost_before = an_reader_info(r)->nr_lost_before;
	an_reader_close(r);
}

/* --- tests ---------------------------------------------------------------- */

/* Windows of trace_integrity FAILs, by CPU. */
struct sink {
	unsigned long long fails_on_cpu[MAX_CPUS], fails_elsewhere;
};

static int on_window(void *ctx, const struct an_window *w)
{
	struct sink *s = ctx;

	if (w->check != AN_CHECK_TRACE_INTEGRITY || !w->is_fail)
		return 0;
	if (w->cpu >= 0 && w->cpu < MAX_CPUS)
		s->fails_on_cpu[w->cpu]++;
	else
		s->fails_elsewhere++;
	return 0;
}

/*
 * A moderate workload: the file reads in trace-cmd and ucval alike, the same
 * sched_switch count, the snapshot markers, no loss, and the analysis.
 */
static void test_record_roundtrip(void **state)
{
	char out[512], err[OUT_LEN], secs[16];
	char *argv[] = { "ucval", "collect", "-o", out, "-t", "3", "-e", "sched:sched_waking",
			 "--clock", "mono", "--", self_bin, "--pingpong", secs, NULL };
	struct rusage ru0, ru1;
	struct an_results res;
	struct an_summary sum;
	struct counts c;
	struct sink sink = { { 0 }, 0 };
	struct an_diag d;
	double t0, wall, cpu_s;
	long rep;
	int st;

	(void)state;
	skip_unless_ready();
	out_path(out, sizeof(out), "roundtrip.dat");
	snprintf(secs, sizeof(secs), "%.1f", 1.5);
	getrusage(RUSAGE_CHILDREN, &ru0);
	t0 = now_s();
	st = run_ucval(argv, 0, 0, err, sizeof(err));
	wall = now_s() - t0;
	getrusage(RUSAGE_CHILDREN, &ru1);
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		fail_msg("ucval collect failed (status 0x%x): %s", st, err);
	assert_no_instance();
	assert_non_null(strstr(err, "exited with status 0"));
	assert_non_null(strstr(err, ", 0 lost"));

	rep = report_count(out, "sched_switch:");
	assert_true(rep > 0);		/* trace-cmd report exits 0 */
	assert_true(report_count(out, "sched_waking:") > 0);	/* the -e event */
	reader_counts(out, &c);
	assert_int_equal(c.switches, (unsigned long long)rep);
	assert_int_equal(c.lost, 0);
	assert_int_equal(c.markers[AN_MARKER_PLATFORM], 1);
	assert_int_equal(c.markers[AN_MARKER_CPU], sysconf(_SC_NPROCESSORS_CONF));
	assert_true(c.markers[AN_MARKER_TASK] > 1);
	/* ucval collect itself, with the workload as its child */
	cpu_s = (double)(ru1.ru_utime.tv_sec - ru0.ru_utime.tv_sec +
			 ru1.ru_stime.tv_sec - ru0.ru_stime.tv_sec) +
		(double)(ru1.ru_utime.tv_usec - ru0.ru_utime.tv_usec +
			 ru1.ru_stime.tv_usec - ru0.ru_stime.tv_usec) / 1e6;
	printf("# roundtrip: %llu events (%llu sched_switch) in %.2f s wall: %.0f events/s, "
	       "0 lost; ucval+workload CPU %.2f s\n", c.events, c.switches, wall,
	       (double)c.events / wall, cpu_s);

	an_results_init(&res, on_window, &sink);
	an_diag_clear(&d);
	memset(&sum, 0, sizeof(sum));
	assert_int_equal(an_analyze_path(out, NULL, &res, &sum, &d), 0);
	an_results_finish(&res);
	assert_int_equal(sum.nr_switches, c.switches);
	assert_int_equal(sum.nr_lost_events, 0);
	for (int k = 0; k < AN_CHECK__COUNT; k++) {
		enum an_verdict v = an_check_verdict(&res.stats[k]);

		if (k == AN_CHECK_TRACE_INTEGRITY)
			continue;
		if (v != AN_UNDECIDED)
			fail_msg("%s: %s, want UNDECIDED (no uclamp, no cpufreq)",
				 an_check_name((enum an_check_id)k), an_verdict_name(v));
	}
	if (an_check_verdict(&res.stats[AN_CHECK_TRACE_INTEGRITY]) != AN_PASS) {
		/*
		 * Accepted only as far as the kernel's own switch chain breaks
		 * (prev_pid is not the previous next_pid) with nothing lost:
		 * this VM's kernel does not trace some switches (from idle on
		 * CPU 1, from some tasks), in its own trace file too.
		 */
		assert_int_equal(sink.fails_elsewhere, 0);
		for (int cpu = 0; cpu < MAX_CPUS; cpu++) {
			if (!sink.fails_on_cpu[cpu])
				continue;
			if (sink.fails_on_cpu[cpu] > c.breaks[cpu])
				fail_msg("trace_integrity: %llu FAIL windows on cpu %d but only %llu "
					 "breaks of its switch chain", sink.fails_on_cpu[cpu], cpu,
					 c.breaks[cpu]);
			printf("# note: trace_integrity FAIL on cpu %d: %llu windows, all where "
			       "the kernel's switch chain breaks (%llu breaks, 0 lost)\n", cpu,
			       sink.fails_on_cpu[cpu], c.breaks[cpu]);
		}
	}
	unlink(out);
}

/* Run this program's workload as a child and wait for it. */
static void run_workload(const char *seconds)
{
	int status;
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (!pid) {
		int null = open("/dev/null", O_WRONLY);

		dup2(null, STDOUT_FILENO);
		execl(self_bin, self_bin, "--pingpong", seconds, "--fast", (char *)NULL);
		_exit(127);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_int_equal(status, 0);
}

/*
 * The library with nobody reading a 4 KiB buffer during a burst: the loss is
 * certain, and the file must carry exactly the count the kernel reports.
 */
static void test_loss_is_stored(void **state)
{
	struct col_record_opts opts = { .buffer_kb = 4, .tmpdir = tmp_dir };
	unsigned long long kernel_lost = 0;
	struct col_record *rec = NULL;
	struct an_diag d;
	struct counts c;
	char out[512];

	(void)state;
	skip_unless_ready();
	out_path(out, sizeof(out), "loss.dat");
	rec = record_begin(&opts, &d);
	run_workload("0.3");
	assert_int_equal(col_record_stop(rec, &d), 0);
	for (unsigned int cpu = 0; cpu < col_record_nr_cpus(rec); cpu++) {
		struct col_cpu_stat st;

		assert_int_equal(col_record_stat(rec, cpu, &st), 0);
		kernel_lost += col_record_lost(&st);
	}
	assert_int_equal(col_record_write(rec, out, &d), 0);
	assert_int_equal(col_record_close(rec), 0);
	assert_no_instance();
	assert_true(kernel_lost > 0);
	reader_counts(out, &c);
	printf("# kernel lost %llu, file lost %llu + %llu reports without a count\n",
	       kernel_lost, c.lost, c.lost_unknown);
	/*
	 * A page too full for the count says only "events lost here": then
	 * the file's per-page sum is short, and the CPUSTAT options hold the
	 * kernel's totals.
	 */
	if (c.lost_unknown)
		assert_true(c.lost - c.unplaced < kernel_lost);
	else
		assert_int_equal(c.lost - c.unplaced, kernel_lost);
	assert_int_equal(stat_lost(out), kernel_lost);
	assert_true(report_count(out, "sched_switch:") > 0);
	unlink(out);
}

/*
 * col_record_halt() turns tracing off before the rest is saved: a marker
 * written before it is in the file, one written after it is not (collect
 * takes the probes' end there, so the two streams stop together).
 */
static void test_halt_stops_events(void **state)
{
	struct col_record_opts opts = { .tmpdir = tmp_dir };
	struct col_record *rec = NULL;
	struct an_diag d;
	char out[512];

	(void)state;
	skip_unless_ready();
	out_path(out, sizeof(out), "halt.dat");
	rec = record_begin(&opts, &d);
	assert_int_equal(col_record_marker(rec, "ucval: halt-test before"), 0);
	assert_int_equal(col_record_halt(rec, &d), 0);
	col_record_marker(rec, "ucval: halt-test after");	/* may fail: tracing is off */
	assert_int_equal(col_record_stop(rec, &d), 0);
	assert_int_equal(col_record_write(rec, out, &d), 0);
	assert_int_equal(col_record_close(rec), 0);
	assert_no_instance();
	assert_int_equal(report_count(out, "halt-test before"), 1);
	assert_int_equal(report_count(out, "halt-test after"), 0);
	unlink(out);
}

/*
 * Read and throw away what the instance's buffer holds, as a reader before
 * the recording's would (trace_pipe_raw: the kernel tells it of the losses).
 * Return: the bytes read.
 */
static size_t consume_buffer(const char *instance, unsigned int nr_cpus)
{
	static char page[65536];
	size_t total = 0;

	for (unsigned int cpu = 0; cpu < nr_cpus; cpu++) {
		char path[PATH_MAX];
		ssize_t n;
		int fd;

		snprintf(path, sizeof(path), "%s/instances/%s/per_cpu/cpu%u/trace_pipe_raw",
			 tracefs_tracing_dir(), instance, cpu);
		fd = open(path, O_RDONLY | O_NONBLOCK);
		assert_true(fd >= 0);
		while ((n = read(fd, page, sizeof(page))) > 0)
			total += (size_t)n;
		close(fd);
	}
	return total;
}

/*
 * A buffer read before the file was saved (datcheck.c lost_before()): a
 * loss told to that earlier reader is older than the file, so it is in no
 * window; the loss after it is in the file's pages. The kernel's totals
 * (CPUSTAT) are both, and nothing is left unplaced but what no page can
 * carry (commit overruns, dropped events: none with overwrite on).
 */
static void test_loss_read_before(void **state)
{
	struct col_record_opts opts = { .buffer_kb = 4, .tmpdir = tmp_dir };
	struct col_record *rec = NULL;
	struct an_results res;
	struct an_summary sum;
	struct an_diag d;
	struct counts c;
	bool has_note = false;
	char out[512];

	(void)state;
	skip_unless_ready();
	out_path(out, sizeof(out), "read-before.dat");
	rec = record_begin(&opts, &d);
	run_workload("0.3");
	assert_true(consume_buffer(COL_RECORD_INSTANCE, col_record_nr_cpus(rec)) > 0);
	run_workload("0.3");
	assert_int_equal(col_record_stop(rec, &d), 0);
	assert_int_equal(col_record_write(rec, out, &d), 0);
	assert_int_equal(col_record_close(rec), 0);
	assert_no_instance();
	reader_counts(out, &c);
	printf("# buffer read before: kernel lost %llu, %llu in the file's pages, %llu older "
	       "than the file, %llu unplaced, %llu without a count\n", stat_lost(out),
	       c.lost - c.unplaced, c.lost_before, c.unplaced, c.lost_unknown);
	if (c.lost_unknown) {
		printf("# note: a page too full for its count: totals not compared\n");
	} else {
		assert_true(c.lost_before > 0);
		assert_int_equal(c.unplaced, 0);
		assert_int_equal(c.lost + c.lost_before, stat_lost(out));
	}

	an_results_init(&res, NULL, NULL);
	memset(&sum, 0, sizeof(sum));
	assert_int_equal(an_analyze_path(out, NULL, &res, &sum, &d), 0);
	an_results_finish(&res);
	for (unsigned int i = 0; i < sum.nr_notes; i++)
		has_note |= strstr(sum.notes[i], "older than this file") != NULL;
	assert_int_equal(has_note, c.lost_before > 0);
	unlink(out);
}

/* The same through ucval collect -b 4: the loss is reported and stored. */
static void test_tiny_buffer_reported(void **state)
{
	char out[512], err[OUT_LEN];
	char *argv[] = { "ucval", "collect", "-o", out, "-b", "4", "--", self_bin,
			 "--pingpong", "1.0", "--fast", FAST_PAIRS, NULL };
	struct counts c = { 0 };
	int st, attempt;

	(void)state;
	skip_unless_ready();
	out_path(out, sizeof(out), "tiny.dat");
	/* The reader may keep up with a 4 KiB buffer now and then: try again. */
	for (attempt = 0; attempt < 3; attempt++) {
		st = run_ucval(argv, 0, 0, err, sizeof(err));
		if (!WIFEXITED(st) || WEXITSTATUS(st))
			fail_msg("ucval collect failed (status 0x%x): %s", st, err);
		assert_no_instance();
		reader_counts(out, &c);
		if (!strstr(err, ", 0 lost\n"))
			break;
		assert_int_equal(c.lost, 0);
	}
	if (attempt == 3)
		fail_msg("no loss in 3 recordings with a 4 KiB buffer: %s", err);
	assert_non_null(strstr(err, "try a larger -b"));
	/*
	 * The file keeps the kernel's totals, and the reader gives the analysis
	 * all of them: what the pages carry, the rest as losses no page places
	 * (in about 1 run in 100 none of it is in a page header).
	 */
	assert_true(stat_lost(out) > 0);
	if (!c.lost_unknown)
		assert_int_equal(c.lost, stat_lost(out));
	else
		assert_true(c.lost < stat_lost(out));
	if (c.unplaced)
		printf("# note: %llu of the loss in no page header: %s", c.unplaced, err);
	assert_true(report_count(out, "sched_switch:") > 0);
	printf("# ucval collect -b 4: %llu events kept, %llu lost in the file\n", c.events,
	       c.lost);
	unlink(out);
}

/* SIGINT while recording without -t nor command: a valid file all the same. */
static void test_sigint(void **state)
{
	char out[512], err[OUT_LEN];
	char *argv[] = { "ucval", "collect", "-o", out, NULL };
	struct counts c;
	int st;

	(void)state;
	skip_unless_ready();
	out_path(out, sizeof(out), "sigint.dat");
	st = run_ucval(argv, 0, 0.7, err, sizeof(err));
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		fail_msg("ucval collect after SIGINT: status 0x%x: %s", st, err);
	assert_non_null(strstr(err, "stopped by signal"));
	assert_no_instance();
	assert_true(report_count(out, "ucval: platform") == 1);
	reader_counts(out, &c);
	assert_int_equal(c.markers[AN_MARKER_PLATFORM], 1);
	unlink(out);
}

/* SIGINT while a command runs: the command is stopped, the file is valid. */
static void test_sigint_with_command(void **state)
{
	char out[512], err[OUT_LEN];
	char *argv[] = { "ucval", "collect", "-o", out, "--", "sleep", "30", NULL };
	double t0 = now_s();
	int st;

	(void)state;
	skip_unless_ready();
	out_path(out, sizeof(out), "sigint-cmd.dat");
	st = run_ucval(argv, 0, 0.7, err, sizeof(err));
	assert_true(now_s() - t0 < 10);
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		fail_msg("status 0x%x: %s", st, err);
	assert_non_null(strstr(err, "'sleep' was killed by signal 2"));
	assert_no_instance();
	assert_true(report_count(out, "sched_switch:") >= 0);
	unlink(out);
}

/*
 * --uclamp-min/--uclamp-max: the setattr marker holds the kernel's answer,
 * the same as the syscall's exit event; without uclamp it is an error that
 * is reported, and the command runs all the same.
 */
static void test_uclamp_request(void **state)
{
	char out[512], err[OUT_LEN];
	char *argv[] = { "ucval", "collect", "-o", out, "--uclamp-min", "512",
			 "--uclamp-max", "800", "--", "sh", "-c", "exit 3", NULL };
	struct counts c;
	int st;

	(void)state;
	skip_unless_ready();
	out_path(out, sizeof(out), "uclamp.dat");
	st = run_ucval(argv, 0, 0, err, sizeof(err));
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 1)	/* the command failed */
		fail_msg("status 0x%x: %s", st, err);
	assert_non_null(strstr(err, "'sh' exited with status 3"));
	assert_no_instance();
	reader_counts(out, &c);
	assert_int_equal(c.markers[AN_MARKER_SETATTR], 1);
	assert_int_equal(c.setattr.setattr.util_min, 512);
	assert_int_equal(c.setattr.setattr.util_max, 800);
	assert_int_equal(c.setattr.setattr.flags, 0x78);	/* KEEP_ALL | both clamps */
	if (c.setattr_exits)
		assert_int_equal(c.setattr.setattr.ret, c.setattr_exit_ret);
	if (c.setattr.setattr.ret)
		assert_non_null(strstr(err, "sched_setattr(util_min/util_max) of 'sh' failed"));
	printf("# sched_setattr with clamps returned %d on this kernel\n", c.setattr.setattr.ret);
	unlink(out);
}

static const struct error_case {
	const char *what;
	const char *output;	/* NULL: a fresh path in the test directory */
	uid_t uid;
	bool is_tracefs_hidden;	/* run where tracefs cannot be found */
	const char *message;
} error_cases[] = {
	{ "missing directory", "/nonexistent-ucval/dir/x.dat", 0, false,
	  "cannot write '/nonexistent-ucval/dir/x.dat'" },
	{ "read-only filesystem", "/proc/ucval-x.dat", 0, false, "cannot write '/proc/ucval-x.dat'" },
	{ "output is a directory", "/tmp", 0, false, "is a directory" },
	{ "non-root user", NULL, NOBODY_UID, false, "needs root" },
	{ "no tracefs", NULL, 0, true, "no tracefs at '/sys/kernel/tracing'" },
};

static void test_errors_exit_2(void **state)
{
	(void)state;
	skip_unless_ready();
	for (size_t i = 0; i < sizeof(error_cases) / sizeof(error_cases[0]); i++) {
		const struct error_case *e = &error_cases[i];
		char out[512], err[OUT_LEN];
		char *argv[] = { "ucval", "collect", "-o", out, "-t", "0.2", NULL };
		int st;

		if (e->output)
			snprintf(out, sizeof(out), "%s", e->output);
		else
			out_path(out, sizeof(out), "nobody.dat");
		st = run_ucval_as(argv, e->uid, e->is_tracefs_hidden, 0, 0, err, sizeof(err));
		if (WIFEXITED(st) && WEXITSTATUS(st) == 125) {
			printf("# skip case %zu (%s): no mount namespace\n", i, e->what);
			continue;
		}
		if (!WIFEXITED(st) || WEXITSTATUS(st) != 2 || !strstr(err, e->message))
			fail_msg("case %zu (%s): status 0x%x, stderr '%s', want exit 2 and '%s'",
				 i, e->what, st, err, e->message);
		assert_no_instance();
		if (strcmp(out, "/tmp") && !access(out, F_OK))
			fail_msg("case %zu (%s): '%s' was created", i, e->what, out);
	}
}

/* Every signal that stops a recording leaves a valid file and no instance. */
static void test_stop_signals(void **state)
{
	static const int sigs[] = { SIGHUP, SIGQUIT, SIGTERM };
	char out[512], err[OUT_LEN];
	char *argv[] = { "ucval", "collect", "-o", out, NULL };

	(void)state;
	skip_unless_ready();
	for (size_t i = 0; i < ARRAY_SIZE(sigs); i++) {
		int st;

		out_path(out, sizeof(out), "stop-signal.dat");
		st = run_ucval_as(argv, 0, false, sigs[i], 0.7, err, sizeof(err));
		if (!WIFEXITED(st) || WEXITSTATUS(st))
			fail_msg("signal %d: status 0x%x: %s", sigs[i], st, err);
		assert_non_null(strstr(err, "stopped by signal"));
		assert_no_instance();
		assert_true(report_count(out, "ucval: platform") == 1);
		unlink(out);
	}
}

/* A recorder killed with SIGKILL leaves its instance; the next run reclaims it. */
static void test_sigkill_reclaim(void **state)
{
	char out[512], err[OUT_LEN];
	char *argv[] = { "ucval", "collect", "-q", "-o", out, "-t", "10", NULL };
	char *again[] = { "ucval", "collect", "-q", "-o", out, "-t", "0.3", NULL };
	int st;

	(void)state;
	skip_unless_ready();
	out_path(out, sizeof(out), "sigkill.dat");
	st = run_ucval_as(argv, 0, false, SIGKILL, 0.7, err, sizeof(err));
	assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
	assert_int_equal(access(INSTANCE_DIR, F_OK), 0);	/* what SIGKILL leaves */
	st = run_ucval(again, 0, 0, err, sizeof(err));
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		fail_msg("collect after SIGKILL: status 0x%x: %s", st, err);
	assert_non_null(strstr(err, "which is gone"));
	assert_no_instance();
	assert_true(report_count(out, "ucval: platform") == 1);
	unlink(out);
}

/* stderr closed by its reader (`collect ... 2>&1 | head -1`): no SIGPIPE death. */
static void test_closed_stderr(void **state)
{
	char out[512];
	char *argv[] = { "ucval", "collect", "-o", out, "-t", "0.5", NULL };
	int p[2], status;
	pid_t pid;

	(void)state;
	skip_unless_ready();
	out_path(out, sizeof(out), "epipe.dat");
	assert_int_equal(pipe(p), 0);
	close(p[0]);	/* every write to stderr now fails with EPIPE */
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		dup2(p[1], STDERR_FILENO);
		dup2(p[1], STDOUT_FILENO);
		execv(ucval_bin, argv);
		_exit(127);
	}
	close(p[1]);
	waitpid(pid, &status, 0);
	if (WIFSIGNALED(status))
		fail_msg("ucval collect died of signal %d", WTERMSIG(status));
	assert_no_instance();
	assert_true(report_count(out, "ucval: platform") == 1);
	unlink(out);
}

/* The workload's failure shows in the exit status; its end by -t does not. */
static void test_command_status(void **state)
{
	static const struct cmd_case {
		const char *cmd, *arg;
		const char *seconds;
		int want;
	} cases[] = {
		{ "/nonexistent", NULL, "5", 2 },
		{ "false", NULL, "5", 1 },
		{ "true", NULL, "5", 0 },
		{ "sleep", "30", "0.5", 0 },
	};
	char out[512], err[OUT_LEN];

	(void)state;
	skip_unless_ready();
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct cmd_case *c = &cases[i];
		char *argv[] = { "ucval", "collect", "-q", "-o", out, "-t", (char *)c->seconds,
				 "--", (char *)c->cmd, (char *)c->arg, NULL };
		int st;

		out_path(out, sizeof(out), "status.dat");
		st = run_ucval(argv, 0, 0, err, sizeof(err));
		if (!WIFEXITED(st) || WEXITSTATUS(st) != c->want)
			fail_msg("case %zu (%s): status 0x%x, want exit %d: %s", i, c->cmd, st,
				 c->want, err);
		assert_no_instance();
		unlink(out);
	}
}

/* -o naming a device node writes through it: the node stays (mknod c 1 3). */
static void test_output_device(void **state)
{
	char out[512], err[OUT_LEN];
	char *argv[] = { "ucval", "collect", "-q", "-o", out, "-t", "0.3", NULL };
	struct stat sb;
	int st;

	(void)state;
	skip_unless_ready();
	out_path(out, sizeof(out), "null-device");
	assert_int_equal(mknod(out, S_IFCHR | 0666, makedev(1, 3)), 0);
	st = run_ucval(argv, 0, 0, err, sizeof(err));
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		fail_msg("status 0x%x: %s", st, err);
	assert_int_equal(lstat(out, &sb), 0);
	assert_true(S_ISCHR(sb.st_mode));
	assert_no_instance();
	unlink(out);
}

/* -t takes a finite duration of at most a week; parsed before anything runs. */
static void test_bad_duration(void **state)
{
	static const char *const bad[] = { "1e99", "inf", "nan", "0", "-1", "604801", "1s" };
	char err[OUT_LEN];

	(void)state;
	if (access(ucval_bin, X_OK)) {
		printf("# skip: needs the ucval binary (make build/ucval)\n");
		skip();
	}
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		char *argv[] = { "ucval", "collect", "-o", "/nonexistent-ucval/x.dat", "-t",
				 (char *)bad[i], NULL };
		int st = run_ucval_as(argv, 0, false, 0, 0, err, sizeof(err));

		if (!WIFEXITED(st) || WEXITSTATUS(st) != 2 || !strstr(err, "bad duration"))
			fail_msg("-t %s: status 0x%x: %s", bad[i], st, err);
	}
}

/* A leftover instance of the same name is refused, and left alone. */
static void test_instance_exists(void **state)
{
	struct col_record_opts opts = { .instance = "ucval-test-exists" };
	struct col_record *rec = NULL;
	struct an_diag d;

	(void)state;
	skip_unless_ready();
	assert_int_equal(mkdir(TRACEFS "/instances/ucval-test-exists", 0755), 0);
	an_diag_clear(&d);
	assert_int_equal(col_record_open(&opts, &rec, &d), -EEXIST);
	assert_null(rec);
	assert_non_null(strstr(d.message, "exists"));
	assert_int_equal(access(TRACEFS "/instances/ucval-test-exists", F_OK), 0);
	assert_int_equal(rmdir(TRACEFS "/instances/ucval-test-exists"), 0);
}

/* The library: an unknown -e event is named; the instance is removed. */
static void test_unknown_event(void **state)
{
	const char *extra[] = { "sched:no_such_event" };
	struct col_record_opts opts = { .extra = extra, .nr_extra = 1, .tmpdir = tmp_dir };
	struct col_record *rec = NULL;
	struct an_diag d;

	(void)state;
	skip_unless_ready();
	an_diag_clear(&d);
	assert_int_equal(col_record_open(&opts, &rec, &d), -ENOENT);
	assert_non_null(strstr(d.message, "sched:no_such_event"));
	assert_no_instance();
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_record_roundtrip),
		cmocka_unit_test(test_loss_is_stored),
		cmocka_unit_test(test_halt_stops_events),
		cmocka_unit_test(test_loss_read_before),
		cmocka_unit_test(test_tiny_buffer_reported),
		cmocka_unit_test(test_sigint),
		cmocka_unit_test(test_sigint_with_command),
		cmocka_unit_test(test_uclamp_request),
		cmocka_unit_test(test_errors_exit_2),
		cmocka_unit_test(test_stop_signals),
		cmocka_unit_test(test_sigkill_reclaim),
		cmocka_unit_test(test_closed_stderr),
		cmocka_unit_test(test_command_status),
		cmocka_unit_test(test_bad_duration),
		cmocka_unit_test(test_output_device),
		cmocka_unit_test(test_instance_exists),
		cmocka_unit_test(test_unknown_event),
	};

	if (argc >= 3 && !strcmp(argv[1], "--pingpong")) {
		bool is_fast = argc >= 4 && !strcmp(argv[3], "--fast");
		int pairs = argc >= 5 ? atoi(argv[4]) : 1, ret;

		/* --fast N: N pairs at once, enough to outrun a tiny buffer */
		for (int i = 1; i < pairs; i++)
			if (!fork())
				return pingpong(atof(argv[2]), 0);
		ret = pingpong(atof(argv[2]), is_fast ? 0 : MODERATE_GAP_US);
		while (wait(NULL) > 0)
			;
		return ret;
	}
	return cmocka_run_group_tests(tests, setup, teardown);
}
