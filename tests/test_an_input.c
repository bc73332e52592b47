// SPDX-License-Identifier: MIT
/*
 * tests/test_an_input.c - inputs that are not regular files: `ucval analyze`
 * on a pipe (/dev/stdin, process substitution /dev/fd/N, zcat), on devices
 * that never end, and the reader's byte source (analyze/read/source.h)
 * under it: one reader, whose bytes make the trace's sha256, a trace.dat
 * spooled from a pipe within its limit.
 *
 * The binary ($UCVAL) runs with its input on a pipe that a forked feeder
 * fills. Every run has a deadline: a hang is killed and fails the test
 * (nothing here asserts on speed). The flaky cases run many times.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "analyze/read/reader.h"
#include "lib/sha256.h"
#include "tests/an_testutil.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
/* Enough for the JSON of the small traces used here. */
#define OUT_MAX		(256 * 1024)
/* Runs of a case that used to fail now and then. */
#define REPEAT		20
/* Deadline of one run of ucval, far beyond what it needs: only a hang meets it. */
#define DEADLINE_S	120
/* Deadline of a whole in-process test (alarm(): a hang kills the program). */
#define ALARM_S		300
/* Where the input goes in the child: process substitution's /dev/fd/N. */
#define IN_FD		3

struct run {
	int status;		/* exit status, 128 + signal, or -1: killed at the deadline */
	char out[OUT_MAX];
	char err[OUT_MAX];
};

static char work[64];		/* a temporary directory of the whole program */
static char dat_v6[128];	/* a synthetic trace.dat v6 in it */

/*
 * A pipe whose read end is returned and whose write end a forked child
 * fills: @path's bytes (NULL: none), then @tail over and over until the
 * reader goes (NULL: none). With @argv the child runs that command with its
 * stdout on the pipe instead (zcat). *@pid is the child.
 */
static int feed(const char *path, const char *tail, char *const *argv, pid_t *pid)
{
	int p[2];

	assert_int_equal(pipe2(p, O_CLOEXEC), 0);
	*pid = fork();
	assert_true(*pid >= 0);
	if (*pid == 0) {
		char buf[65536];
		ssize_t n;
		int fd;

		signal(SIGPIPE, SIG_DFL);
		if (argv) {
			dup2(p[1], STDOUT_FILENO);
			execvp(argv[0], argv);
			_exit(127);
		}
		if (path) {
			fd = open(path, O_RDONLY);
			if (fd < 0)
				_exit(126);
			while ((n = read(fd, buf, sizeof(buf))) > 0)
				if (write(p[1], buf, (size_t)n) != n)
					_exit(0);
		}
		if (!tail)
			_exit(0);
		for (n = 0; (size_t)n + strlen(tail) <= sizeof(buf); n += (ssize_t)strlen(tail))
			memcpy(buf + n, tail, strlen(tail));
		while (write(p[1], buf, (size_t)n) > 0)
			;
		_exit(0);
	}
	close(p[1]);
	return p[0];
}

/* The feeder is no longer needed: stop it (it may write forever) and reap it. */
static void feed_end(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/*
 * Run $UCVAL @args (NULL-terminated) with @in_fd as its descriptor
 * @in_as (-1: none), stdout and stderr captured, killed at @deadline_s.
 */
static void run_ucval(const char *const *args, int in_fd, int in_as, int deadline_s,
		      struct run *r)
{
	const struct an_test_spawn o = {
		.has_in = in_fd >= 0, .in_fd = in_fd, .in_as = in_as, .deadline_s = deadline_s,
	};

	r->status = an_test_run_ucval(args, &o, r->out, sizeof(r->out), r->err, sizeof(r->err));
}

/* Run $UCVAL @args on a pipe fed with @path (see feed()); the feeder is reaped. */
static void run_piped(const char *const *args, const char *path, const char *tail,
		      char *const *cmd, int in_as, struct run *r)
{
	pid_t feeder;
	int fd = feed(path, tail, cmd, &feeder);

	run_ucval(args, fd, in_as, DEADLINE_S, r);
	close(fd);
	feed_end(feeder);
	if (r->status < 0)
		fail_msg("ucval %s %s: still running after %d s, killed", args[0], args[1],
			 DEADLINE_S);
}

static void file_sha(const char *path, char hex[AN_SHA256_HEX_LEN + 1])
{
	struct an_diag d;

	if (an_sha256_file(path, hex, &d))
		fail_msg("sha256 of '%s': %s", path, d.message);
}

/* The JSON of one trace without its path (the name of a pipe differs). */
static void strip_path(char *json)
{
	char *p = strstr(json, "{\"path\": \"");
	char *end;

	assert_non_null(p);
	end = strchr(p + 10, '"');
	assert_non_null(end);
	memmove(p + 1, end + 1, strlen(end + 1) + 1);
}

/*
 * `cat trace | ucval analyze /dev/stdin`: the trace is read once, by its
 * reader, and the sha256 is of those bytes. Regression: the hash thread
 * opened /dev/stdin too and the two took bytes from the same pipe, so the
 * reader found an "empty file" now and then (2 to 4 runs in 8).
 */
static void test_stdin_pipe(void **state)
{
	static struct run r;
	const char *trace = "traces/rq_clamp-fail.txt";
	const char *args[] = { "analyze", "-q", "--json", "-", "/dev/stdin", NULL };
	char hex[AN_SHA256_HEX_LEN + 1], want[128];

	(void)state;
	file_sha(trace, hex);
	snprintf(want, sizeof(want), "\"sha256\": \"%s\"", hex);
	for (int i = 0; i < REPEAT; i++) {
		run_piped(args, trace, NULL, NULL, STDIN_FILENO, &r);
		if (r.status != 1 || !strstr(r.out, want))
			fail_msg("run %d of %d: exit %d (1 wanted), %s wanted; stderr: %s", i + 1,
				 REPEAT, r.status, want, r.err);
	}
}

/* The sha256 of every trace row of @db, sorted, joined by spaces, into @buf. */
static void db_hashes(const char *db, char *buf, size_t len)
{
	sqlite3 *c;
	sqlite3_stmt *st;
	size_t n = 0;

	buf[0] = '\0';
	assert_int_equal(sqlite3_open_v2(db, &c, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(c, "SELECT sha256 FROM traces ORDER BY sha256",
					    -1, &st, NULL), SQLITE_OK);
	while (sqlite3_step(st) == SQLITE_ROW)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? " " : "",
				      (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	sqlite3_close(c);
}

/*
 * `ucval analyze --db x.db <(cat a)` then `<(cat b)`: two rows, each with
 * its trace's sha256. Regression: the hash thread read the pipe after the
 * reader had emptied it, both traces got the sha256 of nothing (e3b0c442...)
 * and the second replaced the first.
 */
static void test_process_substitution_db(void **state)
{
	static struct run r;
	static const char *const traces[] = {
		"traces/rq_clamp-fail.txt", "traces/rq_clamp-pass.txt",
	};
	char db[128], in[32], got[256], want[256], a[AN_SHA256_HEX_LEN + 1],
	     b[AN_SHA256_HEX_LEN + 1];
	const char *args[] = { "analyze", "-q", "--db", db, in, NULL };

	(void)state;
	snprintf(db, sizeof(db), "%s/subst.db", work);
	snprintf(in, sizeof(in), "/dev/fd/%d", IN_FD);
	file_sha(traces[0], a);
	file_sha(traces[1], b);
	snprintf(want, sizeof(want), "%s %s", strcmp(a, b) < 0 ? a : b, strcmp(a, b) < 0 ? b : a);
	for (int i = 0; i < REPEAT / 2; i++) {
		unlink(db);
		for (size_t k = 0; k < ARRAY_SIZE(traces); k++) {
			run_piped(args, traces[k], NULL, NULL, IN_FD, &r);
			if (r.status != 1 && r.status != 0)
				fail_msg("run %d, %s: exit %d: %s", i + 1, traces[k], r.status, r.err);
		}
		db_hashes(db, got, sizeof(got));
		if (strcmp(got, want))
			fail_msg("run %d: traces rows have sha256 '%s', '%s' wanted", i + 1, got,
				 want);
	}
}

/*
 * Every format through a pipe gives the JSON the file gives (but for the
 * path): ftrace text, systrace HTML, trace.dat v6, v7 plain and zstd (these
 * through a temporary copy, an_source_spool()); and `<(zcat trace.gz)`.
 */
static void test_formats_through_pipe(void **state)
{
	static struct run by_file, by_pipe;
	const char *shared = getenv("UCVAL_SHARED");
	char html[4096], juno[4096], in[32], gz[128], cmd[512];
	const char *traces[] = {
		"traces/freq_prediction-pass.txt", html, dat_v6, juno,
		"tests/data/sizeof-format-v7-plain.dat", "tests/data/sizeof-format-v7-zstd.dat",
	};
	const char *args[] = { "analyze", "-q", "--json", "-", NULL, NULL };
	char *zcat[] = { "gzip", "-dc", gz, NULL };

	(void)state;
	snprintf(html, sizeof(html), "%s/traces/android-systrace-small.html",
		 shared && *shared ? shared : "../shared");
	snprintf(juno, sizeof(juno), "%s/traces/juno-r0-schedutil-sched_load.dat",
		 shared && *shared ? shared : "../shared");
	snprintf(in, sizeof(in), "/dev/fd/%d", IN_FD);
	for (size_t i = 0; i < ARRAY_SIZE(traces); i++) {
		char hex[AN_SHA256_HEX_LEN + 1], want[128];

		if (access(traces[i], R_OK)) {
			print_message("skipped %s: not there\n", traces[i]);
			continue;
		}
		args[4] = traces[i];
		run_ucval(args, -1, -1, DEADLINE_S, &by_file);
		args[4] = in;
		run_piped(args, traces[i], NULL, NULL, IN_FD, &by_pipe);
		file_sha(traces[i], hex);
		snprintf(want, sizeof(want), "\"sha256\": \"%s\"", hex);
		if (by_pipe.status != by_file.status || !strstr(by_pipe.out, want))
			fail_msg("%s through a pipe: exit %d (file: %d), %s wanted: %s", traces[i],
				 by_pipe.status, by_file.status, want, by_pipe.err);
		strip_path(by_file.out);
		strip_path(by_pipe.out);
		if (strcmp(by_file.out, by_pipe.out))
			fail_msg("%s: the JSON through a pipe differs:\n%s\nfrom the file's:\n%s",
				 traces[i], by_pipe.out, by_file.out);
	}

	snprintf(gz, sizeof(gz), "%s/t.txt.gz", work);
	snprintf(cmd, sizeof(cmd), "gzip -c traces/freq_prediction-pass.txt > '%s'", gz);
	if (system(cmd)) {
		print_message("skipped <(zcat trace.gz): no gzip\n");
		return;
	}
	args[4] = in;
	run_piped(args, NULL, NULL, zcat, IN_FD, &by_pipe);
	args[4] = traces[0];
	run_ucval(args, -1, -1, DEADLINE_S, &by_file);
	strip_path(by_file.out);
	strip_path(by_pipe.out);
	if (by_pipe.status != by_file.status || strcmp(by_file.out, by_pipe.out))
		fail_msg("<(zcat trace.gz): exit %d, JSON:\n%s\nthe file's (exit %d):\n%s",
			 by_pipe.status, by_pipe.out, by_file.status, by_file.out);
}

/*
 * Devices that never end are refused at once by format detection, and
 * nothing else reads them on (regression: the hash thread read /dev/zero
 * forever after the reader had given up).
 */
static void test_endless_devices(void **state)
{
	static const char *const devices[] = { "/dev/zero", "/dev/urandom" };
	static struct run r;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(devices); i++) {
		const char *args[] = { "analyze", "-q", devices[i], NULL };
		char want[64];

		run_ucval(args, -1, -1, DEADLINE_S, &r);
		snprintf(want, sizeof(want), "'%s'", devices[i]);
		if (r.status != 2 || !strstr(r.err, want) ||
		    !strstr(r.err, "not ftrace text, systrace HTML or trace.dat"))
			fail_msg("%s: exit %d (%s), 2 wanted with a message naming it: %s",
				 devices[i], r.status, r.status < 0 ? "killed at the deadline" : "",
				 r.err);
	}
}

/*
 * A trace, then garbage lines without end on a pipe: the reader gives up
 * after 64 MiB without an event instead of counting bad lines forever.
 */
static void test_endless_garbage(void **state)
{
	static struct run r;
	const char *args[] = { "analyze", "-q", "/dev/stdin", NULL };

	(void)state;
	run_piped(args, "traces/rq_clamp-fail.txt", "garbage line\n", NULL, STDIN_FILENO, &r);
	if (r.status != 2 || !strstr(r.err, "'/dev/stdin'") ||
	    !strstr(r.err, "no event in 64 MiB of input (expected ftrace text or systrace HTML)"))
		fail_msg("exit %d, 2 wanted with the reader's verdict: %s", r.status, r.err);
}

/* A tap that hashes what it is shown, the rest of a file included. */
struct tap_hash {
	struct an_sha256 s;
	int err;
};

static void tap_bytes(void *ctx, const void *buf, size_t len)
{
	an_sha256_update(&((struct tap_hash *)ctx)->s, buf, len);
}

static void tap_rest(void *ctx, int fd, uint64_t from, uint64_t to)
{
	struct tap_hash *h = ctx;
	struct an_diag d;

	an_diag_clear(&d);
	h->err = an_sha256_range(&h->s, fd, from, to, &d);
	close(fd);
}

/* Open @path with a hashing tap, read it to its end; its event count and hash. */
static int read_all(const char *path, unsigned long long *n_events,
		    char hex[AN_SHA256_HEX_LEN + 1], struct an_diag *d)
{
	struct tap_hash h = { .err = 0 };
	struct an_source_tap tap = { tap_bytes, tap_rest, &h };
	struct an_reader *r;
	struct an_event ev;
	int rc;

	an_sha256_init(&h.s);
	rc = an_reader_open_tap(path, &tap, &r, d);
	if (rc)
		return rc;
	while ((rc = an_reader_next(r, &ev, d)) != 0)
		if (rc < 0 && !an_error_is_recoverable(rc))
			break;
	*n_events = an_reader_info(r)->nr_events;
	an_reader_close(r);
	assert_int_equal(h.err, 0);
	an_sha256_final(&h.s, hex);
	return rc;
}

/*
 * The reader's tap sees the whole input, whatever its kind: a text file, a
 * trace.dat file (its rest handed over), a trace.dat on a pipe (spooled);
 * the spool stops at its limit with a message that says what to do.
 */
static void test_reader_tap_and_spool(void **state)
{
	static const char *const traces[] = {
		"traces/rq_clamp-fail.txt", dat_v6, "tests/data/sizeof-format-v7-zstd.dat",
	};
	char want[AN_SHA256_HEX_LEN + 1], got[AN_SHA256_HEX_LEN + 1], in[32];
	unsigned long long n_file, n_pipe;
	struct an_diag d;
	struct stat st;
	pid_t feeder;
	int fd;

	(void)state;
	alarm(ALARM_S);
	for (size_t i = 0; i < ARRAY_SIZE(traces); i++) {
		file_sha(traces[i], want);
		assert_int_equal(read_all(traces[i], &n_file, got, &d), 0);
		assert_string_equal(got, want);
		fd = feed(traces[i], NULL, NULL, &feeder);
		snprintf(in, sizeof(in), "/dev/fd/%d", fd);
		if (read_all(in, &n_pipe, got, &d))
			fail_msg("%s through a pipe: %s", traces[i], d.message);
		close(fd);
		feed_end(feeder);
		assert_string_equal(got, want);
		assert_true(n_file > 0);
		assert_int_equal(n_pipe, n_file);
	}

	assert_int_equal(stat(dat_v6, &st), 0);
	an_reader_set_spool_max((uint64_t)st.st_size - 1);
	fd = feed(dat_v6, NULL, NULL, &feeder);
	snprintf(in, sizeof(in), "/dev/fd/%d", fd);
	assert_int_equal(read_all(in, &n_pipe, got, &d), -EFBIG);
	close(fd);
	feed_end(feeder);
	an_reader_set_spool_max(0);
	assert_string_equal(d.file, in);
	if (!strstr(d.message, "temporary copy of at most") ||
	    !strstr(d.message, "save it to a file"))
		fail_msg("spool limit: %s", d.message);
	alarm(0);
}

static int setup(void **state)
{
	char cmd[512];

	(void)state;
	snprintf(work, sizeof(work), "/tmp/ucval-input-XXXXXX");
	if (!mkdtemp(work))
		return -1;
	snprintf(dat_v6, sizeof(dat_v6), "%s/synth.dat", work);
	snprintf(cmd, sizeof(cmd), "'%s' synth -q -o '%s' --events 5000 --seed 7",
		 getenv("UCVAL"), dat_v6);
	return system(cmd) ? -1 : 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", work);
	return system(cmd) ? -1 : 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stdin_pipe),
		cmocka_unit_test(test_process_substitution_db),
		cmocka_unit_test(test_formats_through_pipe),
		cmocka_unit_test(test_endless_devices),
		cmocka_unit_test(test_endless_garbage),
		cmocka_unit_test(test_reader_tap_and_spool),
	};

	if (!getenv("UCVAL")) {
		fprintf(stderr, "test_an_input: UCVAL (path of the ucval binary) is not set\n");
		return 1;
	}
	signal(SIGPIPE, SIG_IGN);
	return cmocka_run_group_tests(tests, setup, teardown);
}
