/* SPDX-License-Identifier: MIT */
/*
 * tests/an_testutil.h - helpers shared by the test programs: where the
 * public traces are, running the built ucval as a user would, and a
 * one-line rendering of a canonical event so rows can be compared and
 * printed on failure. Uses cmocka's assertions: include after cmocka.h.
 */
#ifndef UCVAL_TESTS_AN_TESTUTIL_H
#define UCVAL_TESTS_AN_TESTUTIL_H

#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "analyze/read/alias.h"
#include "analyze/read/event.h"

/*
 * snprintf() that fails the test when @buf is too small: the tests' paths
 * and commands are short. Uses cmocka's fail_msg(): include after cmocka.h.
 */
static inline void an_test_fmt(char *buf, size_t size, const char *format, ...)
	__attribute__((format(printf, 3, 4)));
static inline void an_test_fmt(char *buf, size_t size, const char *format, ...)
{
	va_list ap;
	int n;

	va_start(ap, format);
	n = vsnprintf(buf, size, format, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= size)
		fail_msg("a path or command longer than %zu bytes", size);
}

/* Most arguments an_test_run_ucval() passes, the program name aside. */
#define AN_TEST_MAX_ARGS	64

extern char **environ;

/**
 * struct an_test_spawn - how an_test_run_ucval() runs $UCVAL; zeroed, it
 * captures standard output and error and waits as long as it takes
 * @out_file: standard output opened from this path instead (created and
 *	      truncated; a device such as /dev/full or /dev/null as it is)
 * @has_in: descriptor @in_fd becomes the child's descriptor @in_as
 * @in_fd: see @has_in
 * @in_as: see @has_in
 * @deadline_s: killed (SIGKILL) once it runs longer than this (0: never)
 */
struct an_test_spawn {
	const char *out_file;
	bool has_in;
	int in_fd;
	int in_as;
	int deadline_s;
};

/* All of @fd from its start into @buf, NUL-terminated, cut to fit @len. */
static inline void an_test_slurp_fd(int fd, char *buf, size_t len)
{
	size_t n = 0;
	ssize_t r;

	lseek(fd, 0, SEEK_SET);
	while (n + 1 < len && (r = read(fd, buf + n, len - 1 - n)) > 0)
		n += (size_t)r;
	buf[n] = '\0';
}

/* An unnamed temporary file the child does not inherit (unless dup2'ed). */
static inline int an_test_tmpfile(void)
{
	char path[] = "/tmp/ucval-test-XXXXXX";
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	unlink(path);
	assert_int_equal(fcntl(fd, F_SETFD, FD_CLOEXEC), 0);
	return fd;
}

/* Wait for @pid; past @deadline_s seconds (0: never) kill it. Return: wait status, -1 killed. */
static inline int an_test_wait(pid_t pid, int deadline_s)
{
	struct timespec start, now, nap = { 0, 2 * 1000 * 1000 };
	int wst;
	pid_t got;

	if (!deadline_s) {
		assert_int_equal(waitpid(pid, &wst, 0), pid);
		return wst;
	}
	clock_gettime(CLOCK_MONOTONIC, &start);
	for (;;) {
		got = waitpid(pid, &wst, WNOHANG);
		if (got == pid)
			return wst;
		assert_int_equal(got, 0);
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec - start.tv_sec > deadline_s) {
			kill(pid, SIGKILL);
			waitpid(pid, &wst, 0);
			return -1;
		}
		nanosleep(&nap, NULL);
	}
}

/**
 * an_test_run_ucval() - run the ucval under test ($UCVAL) and wait for it
 * @args: the arguments after the program name, NULL-terminated, at most
 *	  AN_TEST_MAX_ARGS
 * @o: how (NULL: as a zeroed struct an_test_spawn)
 * @out: what it wrote on standard output, NUL-terminated and cut to fit
 *	 @out_len (NULL, or @o->out_file set: not kept)
 * @out_len: size of @out
 * @err: the same of standard error
 * @err_len: size of @err
 *
 * Return: its exit status, 128 + the signal that ended it, or -1 when it
 * was killed at the deadline.
 */
static inline int an_test_run_ucval(const char *const *args, const struct an_test_spawn *o,
				    char *out, size_t out_len, char *err, size_t err_len)
{
	static const struct an_test_spawn dflt;
	const char *bin = getenv("UCVAL");
	char *argv[AN_TEST_MAX_ARGS + 2];
	posix_spawn_file_actions_t fa;
	int out_fd, err_fd, wst;
	size_t n = 0;
	pid_t pid;

	o = o ? o : &dflt;
	assert_non_null(bin);
	argv[n++] = (char *)bin;
	for (; args[n - 1]; n++) {
		assert_true(n <= AN_TEST_MAX_ARGS);
		argv[n] = (char *)args[n - 1];
	}
	argv[n] = NULL;
	out_fd = an_test_tmpfile();
	err_fd = an_test_tmpfile();
	posix_spawn_file_actions_init(&fa);
	if (o->out_file)
		posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, o->out_file,
						 O_WRONLY | O_CREAT | O_TRUNC, 0644);
	else
		posix_spawn_file_actions_adddup2(&fa, out_fd, STDOUT_FILENO);
	posix_spawn_file_actions_adddup2(&fa, err_fd, STDERR_FILENO);
	if (o->has_in)
		posix_spawn_file_actions_adddup2(&fa, o->in_fd, o->in_as);
	assert_int_equal(posix_spawn(&pid, bin, &fa, NULL, argv, environ), 0);
	posix_spawn_file_actions_destroy(&fa);
	wst = an_test_wait(pid, o->deadline_s);
	if (out && !o->out_file)
		an_test_slurp_fd(out_fd, out, out_len);
	else if (out && out_len)
		out[0] = '\0';
	if (err)
		an_test_slurp_fd(err_fd, err, err_len);
	close(out_fd);
	close(err_fd);
	return wst == -1 ? -1 : WIFEXITED(wst) ? WEXITSTATUS(wst) : 128 + WTERMSIG(wst);
}

/* The repository root: the binary is <root>/<build>/tests/<name>. */
static inline const char *an_test_root(void)
{
	static char root[PATH_MAX];
	ssize_t n;

	if (root[0])
		return root;
	n = readlink("/proc/self/exe", root, sizeof(root) - 1);
	if (n <= 0)
		return ".";
	root[n] = '\0';
	for (int up = 0; up < 3; up++) {
		char *slash = strrchr(root, '/');

		if (slash)
			*slash = '\0';
	}
	return root;
}

/* The shared folder: $UCVAL_SHARED, else ../shared next to the repository root. */
static inline const char *an_test_shared(void)
{
	static char dir[PATH_MAX];
	const char *env = getenv("UCVAL_SHARED");

	if (env && *env)
		return env;
	if (snprintf(dir, sizeof(dir), "%s/../shared", an_test_root()) >= (int)sizeof(dir))
		return "../shared";
	return dir;
}

/* Path of a public trace, or NULL (with a message) when it is absent. */
static inline const char *an_test_trace(const char *name, char *buf, size_t len)
{
	if (snprintf(buf, len, "%s/traces/%s", an_test_shared(), name) >= (int)len ||
	    access(buf, R_OK)) {
		printf("# skip: %s not found (set UCVAL_SHARED)\n", buf);
		return NULL;
	}
	return buf;
}

/* "type cpu=N pid=N f1=v1 f2=v2 ..." of the fields present in @ev. */
static inline void an_test_render(const struct an_event *ev, char *buf, size_t len)
{
	const struct an_alias_type *t = an_alias_type(ev->type);
	size_t n = (size_t)snprintf(buf, len, "%s cpu=%d pid=%d",
				    an_event_type_name(ev->type), ev->cpu, ev->pid);

	for (unsigned int i = 0; i < t->nr_fields && n < len; i++) {
		const struct an_alias_field *f = &t->fields[i];
		const char *p = (const char *)ev + f->offset;

		if (!(ev->present & (1u << i)))
			continue;
		n += (size_t)snprintf(buf + n, len - n, " %s=", f->names[0]);
		if (n >= len)
			break;
		switch (f->kind) {
		case AN_FK_INT:
			n += (size_t)snprintf(buf + n, len - n, "%d", *(const int *)p);
			break;
		case AN_FK_UINT:
			n += (size_t)snprintf(buf + n, len - n, "%u", *(const unsigned int *)p);
			break;
		case AN_FK_LLONG:
			n += (size_t)snprintf(buf + n, len - n, "%lld", *(const long long *)p);
			break;
		case AN_FK_TEXT:
			n += (size_t)snprintf(buf + n, len - n, "'%.*s'", (int)ev->print.len,
					      ev->print.text);
			break;
		case AN_FK_MASK:
			n += (size_t)snprintf(buf + n, len - n, "0x%llx",
					      *(const unsigned long long *)p);
			break;
		default:
			n += (size_t)snprintf(buf + n, len - n, "%s", p);
			break;
		}
	}
	if (ev->type == AN_EV_LOST_EVENTS && n < len)
		snprintf(buf + n, len - n, " count=%llu", ev->lost.count);
	else if (ev->type == AN_EV_PRINT && ev->print.marker.kind && n < len)
		snprintf(buf + n, len - n, " marker=%s",
			 an_marker_kind_name(ev->print.marker.kind));
}

/*
 * A database written by this ucval (schema 3: intervals in chunks behind
 * views) turned into what schema 2 stored: the interval tables, one row an
 * interval, with their indexes. For the tests of the upgrade.
 */
#define AN_TEST_TO_SCHEMA2_SQL \
	"CREATE TABLE c2 AS SELECT * FROM clamp_intervals;" \
	"CREATE TABLE f2 AS SELECT * FROM freq_intervals;" \
	"DROP VIEW clamp_intervals; DROP VIEW freq_intervals;" \
	"DROP TABLE clamp_interval_chunks; DROP TABLE freq_interval_chunks;" \
	"ALTER TABLE c2 RENAME TO clamp_intervals; ALTER TABLE f2 RENAME TO freq_intervals;" \
	"CREATE INDEX clamp_intervals_by_cpu ON clamp_intervals(trace_id, cpu, ts_start_ns);" \
	"CREATE INDEX freq_intervals_by_policy ON freq_intervals(trace_id, policy, ts_start_ns);" \
	"PRAGMA user_version = 2;"

#endif /* UCVAL_TESTS_AN_TESTUTIL_H */
