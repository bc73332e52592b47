// SPDX-License-Identifier: MIT
/*
 * tests/kernel/overhead.c - the workloads whose slowdown under `ucval
 * collect` (with and without its BPF probes) the kernel loop measures in
 * the guest (tests/kernel/init, ucval.overhead=N).
 *
 *   overhead pingpong N   two processes on CPU 0 pass a byte back and forth
 *                         N times through two pipes: every round trip is two
 *                         wakeups and two context switches, the events the
 *                         probes fire on most (the worst case)
 *   overhead spin N       N rounds of arithmetic on one CPU, no system call:
 *                         what is left is the tick and the PELT updates
 *
 * Prints "NAME ns=T per=P": the wall time of the whole run and per round,
 * from CLOCK_MONOTONIC. Static, libc only: the guest has only busybox.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int pin_cpu0(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

/* Read or write exactly one byte, retrying on a signal; false on failure. */
static int one_byte(int fd, int is_write)
{
	char c = 'x';
	ssize_t n;

	do
		n = is_write ? write(fd, &c, 1) : read(fd, &c, 1);
	while (n < 0 && errno == EINTR);
	return n == 1;
}

/*
 * The child echoes each byte from @to_child to @to_parent until its input
 * ends; the parent sends @n bytes and waits for each echo. Both are pinned
 * before the fork, so neither migrates and no round trip waits on an idle
 * CPU's wakeup.
 */
static int pingpong(unsigned long n, uint64_t *ns)
{
	int to_child[2], to_parent[2], status;
	uint64_t t0;
	pid_t pid;

	if (pin_cpu0() || pipe(to_child) || pipe(to_parent))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		close(to_child[1]);
		close(to_parent[0]);
		while (one_byte(to_child[0], 0))
			if (!one_byte(to_parent[1], 1))
				_exit(1);
		_exit(0);
	}
	close(to_child[0]);
	close(to_parent[1]);
	t0 = now_ns();
	for (unsigned long i = 0; i < n; i++)
		if (!one_byte(to_child[1], 1) || !one_byte(to_parent[0], 0))
			return -1;
	*ns = now_ns() - t0;
	close(to_child[1]);
	close(to_parent[0]);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
		return -1;
	return 0;
}

/* Arithmetic the compiler cannot drop: a xorshift the result depends on. */
static int spin(unsigned long n, uint64_t *ns)
{
	volatile uint64_t sink;
	uint64_t x = 88172645463325252ull, t0;

	if (pin_cpu0())
		return -1;
	t0 = now_ns();
	for (unsigned long i = 0; i < n; i++) {
		for (int k = 0; k < 1000; k++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
		}
		sink = x;
	}
	*ns = now_ns() - t0;
	(void)sink;
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long n;
	uint64_t ns = 0;
	int rc;

	if (argc != 3 || (n = strtoul(argv[2], NULL, 10)) == 0) {
		fprintf(stderr, "usage: overhead pingpong|spin N\n");
		return 2;
	}
	if (!strcmp(argv[1], "pingpong"))
		rc = pingpong(n, &ns);
	else if (!strcmp(argv[1], "spin"))
		rc = spin(n, &ns);
	else
		rc = (fprintf(stderr, "overhead: no workload '%s'\n", argv[1]), 2);
	if (rc) {
		if (rc < 0)
			fprintf(stderr, "overhead %s: %s\n", argv[1], strerror(errno));
		return rc < 0 ? 1 : rc;
	}
	printf("%s ns=%llu per=%llu\n", argv[1], (unsigned long long)ns,
	       (unsigned long long)(ns / n));
	return 0;
}
