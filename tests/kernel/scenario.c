// SPDX-License-Identifier: MIT
/*
 * tests/kernel/scenario.c - the workload of the real-kernel loop,
 * run as PID 1's child in the QEMU guest while `ucval collect` records.
 *
 * Phases, each a few hundred ms of guest time: an RT task before any clamp
 * use (the static key off), tasks with different clamps on 2 CPUs, an rq
 * MIN above its MAX, clamp values on both sides of each bucket boundary,
 * clamp changes of running tasks, invalid requests, nested cgroup v2 groups
 * whose clamps change while their tasks run, a group MIN above its tasks'
 * requests, RT tasks, RT default and system default sysctl writes, fork/exit
 * with and without reset_on_fork (fair and RT parents), policy limits
 * changes under clamped tasks, idle periods. Every request goes into the
 * trace as a `ucval:` marker (spec/events.md §3) with the kernel's answer.
 *
 * Race rule: a marker that changes what the analyzer believes about a task
 * (its cgroup, its policy) is written while that task is blocked, so no rq
 * event can fall between the marker and the kernel's change. Clamp changes
 * of running tasks need no such care: the kernel's uclamp_task_eff and
 * uclamp_tg events teach the analyzer at the right instant.
 *
 * Static, no library beyond libc: the guest has only busybox.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MARKER_PATH	"/sys/kernel/tracing/instances/ucval/trace_marker"
#define CGROOT		"/sys/fs/cgroup"
#define SYSCTL_DIR	"/proc/sys/kernel"
#define CPUFREQ_DIR	"/sys/devices/system/cpu/cpufreq"
#define LINE_LEN	512
#define MAX_WORKERS	32

/* sched_setattr ABI (include/uapi/linux/sched.h, sched/types.h) */
#define ATTR_SIZE_VER1		56	/* with sched_util_min/max */
#define FLAG_RESET_ON_FORK	0x01
#define FLAG_KEEP_POLICY	0x08
#define FLAG_KEEP_PARAMS	0x10
#define FLAG_UTIL_MIN		0x20
#define FLAG_UTIL_MAX		0x40
#define FLAG_KEEP_ALL		(FLAG_KEEP_POLICY | FLAG_KEEP_PARAMS)
#define FLAG_UNKNOWN		0x100	/* no such flag: EINVAL */
#define CLAMP_RESET		0xffffffffu	/* -1: back to the default (5.11+) */
#define SCALE			1024	/* SCHED_CAPACITY_SCALE */
#define PCT_X100		10000	/* cpu.uclamp.* is a percent with 2 decimals */

#define BLOCK_WAIT_US	2000	/* polling a new worker until it blocks */
#define EXIT_POLL_US	10000	/* polling a worker until it exits */
#define EXIT_WAIT_MS	60000	/* then giving up on it (times stretch) */
#define BLOCK_WAIT_TRIES 1000	/* 2 s: far more than a fork takes under TCG */

#define NS_PER_US	1000ull
#define NS_PER_MS	1000000ull
#define US_PER_MS	1000u

struct kattr {
	uint32_t size;
	uint32_t sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime;
	uint64_t sched_deadline;
	uint64_t sched_period;
	uint32_t sched_util_min;
	uint32_t sched_util_max;
};

/*
 * What a worker does: on @cpu (-1: anywhere), @busy_us of every @period_us,
 * after sleeping @delay_us.
 */
struct work {
	const char *name;
	int cpu;
	unsigned int busy_us, period_us, run_ms;
	unsigned int forks;		/* children forked, one per period */
	unsigned int delay_us;
};

struct worker {
	pid_t pid;
	int gate;			/* write end: one byte starts the work */
	const char *name;
};

static int marker_fd = -1;
static unsigned int stretch = 1;	/* multiplies every duration */
static unsigned int nr_fail;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void sleep_us(uint64_t us)
{
	struct timespec ts = { .tv_sec = (time_t)(us / 1000000), .tv_nsec = (long)(us % 1000000) * 1000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static void sleep_ms(unsigned int ms)
{
	sleep_us((uint64_t)ms * stretch * US_PER_MS);
}

static void __attribute__((format(printf, 1, 2))) say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("scenario: ", stdout);
	vprintf(fmt, ap);
	fputc('\n', stdout);
	fflush(stdout);
	va_end(ap);
}

/* One `ucval:` marker line into the recording instance's trace_marker. */
static void __attribute__((format(printf, 1, 2))) marker(const char *fmt, ...)
{
	char line[LINE_LEN];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(line))
		return;
	if (marker_fd >= 0 && write(marker_fd, line, (size_t)n) != n) {
		say("cannot write marker '%s': %s", line, strerror(errno));
		nr_fail++;
	}
}

static int setattr(pid_t pid, uint32_t policy, unsigned int prio, uint64_t flags,
		   uint32_t umin, uint32_t umax)
{
	struct kattr a = {
		.size = ATTR_SIZE_VER1, .sched_policy = policy, .sched_flags = flags,
		.sched_priority = prio, .sched_util_min = umin, .sched_util_max = umax,
	};

	return syscall(SYS_sched_setattr, pid, &a, 0u) ? -errno : 0;
}

/*
 * A clamp request on @pid (policy and parameters kept) and its setattr
 * marker. @flags adds to KEEP_POLICY|KEEP_PARAMS; the clamp flags follow
 * from @has_min/@has_max. @want is the result this scenario expects.
 */
static int clamp_req(pid_t pid, bool has_min, uint32_t umin, bool has_max, uint32_t umax,
		     uint64_t flags, int want)
{
	char keys[LINE_LEN] = "";
	size_t n = 0;
	int ret;

	flags |= FLAG_KEEP_ALL;
	if (has_min) {
		flags |= FLAG_UTIL_MIN;
		n += (size_t)snprintf(keys + n, sizeof(keys) - n, " util_min=%u", umin);
	}
	if (has_max) {
		flags |= FLAG_UTIL_MAX;
		snprintf(keys + n, sizeof(keys) - n, " util_max=%u", umax);
	}
	ret = setattr(pid, 0, 0, flags, umin, umax);
	marker("ucval: setattr pid=%d%s flags=0x%llx ret=%d", (int)pid, keys,
	       (unsigned long long)flags, ret);
	if (ret != want) {
		say("setattr pid %d%s flags 0x%llx: got %d, expected %d", (int)pid, keys,
		    (unsigned long long)flags, ret, want);
		nr_fail++;
	}
	return ret;
}

static void spin_until(uint64_t end_ns)
{
	while (now_ns() < end_ns)
		;
}

/* The worker body: duty cycle until run_ms is over, forking if asked. */
static void __attribute__((noreturn)) work_loop(const struct work *w, int gate)
{
	uint64_t start, end, period_ns = (uint64_t)w->period_us * stretch * NS_PER_US;
	char byte;

	prctl(PR_SET_NAME, w->name);
	if (read(gate, &byte, 1) != 1)
		_exit(0);		/* the scenario gave up on us */
	close(gate);
	if (w->delay_us)
		sleep_us((uint64_t)w->delay_us * stretch);
	start = now_ns();
	end = start + (uint64_t)w->run_ms * stretch * NS_PER_MS;
	for (uint64_t t = start; t < end; t += period_ns) {
		uint64_t busy_end = t + (uint64_t)w->busy_us * stretch * NS_PER_US;

		if (w->forks) {
			pid_t c = fork();

			if (!c) {
				prctl(PR_SET_NAME, "child");
				spin_until(now_ns() + (uint64_t)w->busy_us * stretch * NS_PER_US / 2);
				_exit(0);
			}
			if (c > 0)
				waitpid(c, NULL, 0);
		}
		spin_until(busy_end < end ? busy_end : end);
		if (w->busy_us < w->period_us && now_ns() < t + period_ns)
			sleep_us((t + period_ns - now_ns()) / NS_PER_US);
	}
	_exit(0);
}

/* State letter of @pid from /proc/PID/stat, '?' when unreadable. */
static char task_state(pid_t pid)
{
	char path[64], buf[LINE_LEN], *rp;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return '?';
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return '?';
	buf[n] = '\0';
	rp = strrchr(buf, ')');
	return rp && rp[1] == ' ' ? rp[2] : '?';
}

/* Wait until @pid sleeps (blocked on its gate); 0, or -ETIMEDOUT. */
static int wait_blocked(pid_t pid)
{
	for (unsigned int i = 0; i < BLOCK_WAIT_TRIES; i++) {
		if (task_state(pid) == 'S')
			return 0;
		sleep_us(BLOCK_WAIT_US);
	}
	return -ETIMEDOUT;
}

/* Fork a worker, pinned, blocked on its gate until worker_go(). */
static int worker_new(const struct work *w, struct worker *out)
{
	int p[2];
	pid_t pid;

	if (pipe(p))
		return -errno;
	pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return -errno;
	}
	if (!pid) {
		close(p[1]);
		if (w->cpu >= 0) {
			cpu_set_t set;

			CPU_ZERO(&set);
			CPU_SET(w->cpu, &set);
			sched_setaffinity(0, sizeof(set), &set);
		}
		work_loop(w, p[0]);
	}
	close(p[0]);
	out->pid = pid;
	out->gate = p[1];
	out->name = w->name;
	/* later markers must find it blocked on its gate */
	if (!wait_blocked(pid))
		return 0;
	say("worker %s (pid %d) never blocked on its gate", w->name, (int)pid);
	nr_fail++;
	return -ETIMEDOUT;
}

static void worker_go(struct worker *wk)
{
	if (write(wk->gate, "g", 1) != 1)
		say("cannot start %s: %s", wk->name, strerror(errno));
	close(wk->gate);
	wk->gate = -1;
}

/*
 * Polled, not a blocking waitpid(): a guest can hang with the scenario in
 * wait4() and no child of it left in /proc (about one boot in fifty under
 * emulation). Polling says what happened instead: the
 * worker's exit, an error (ECHILD: reaped elsewhere), or a worker still
 * there and its state.
 */
static void worker_wait(struct worker *wk)
{
	uint64_t waited_us = 0;
	int status = 0;
	pid_t r;

	if (wk->gate >= 0)
		close(wk->gate);
	while (!(r = waitpid(wk->pid, &status, WNOHANG)) &&
	       waited_us < (uint64_t)EXIT_WAIT_MS * 1000 * stretch) {
		sleep_us(EXIT_POLL_US);
		waited_us += EXIT_POLL_US;
	}
	if (r == wk->pid && WIFEXITED(status) && !WEXITSTATUS(status))
		return;
	if (r < 0)
		say("worker %s (pid %d): waitpid: %s", wk->name, (int)wk->pid, strerror(errno));
	else if (!r)
		say("worker %s (pid %d) still there after %llu ms, state %c", wk->name,
		    (int)wk->pid, (unsigned long long)(waited_us / 1000), task_state(wk->pid));
	else
		say("worker %s (pid %d) did not exit cleanly", wk->name, (int)wk->pid);
	nr_fail++;
}

/* ---- cgroup v2 ---- */

static int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;
	int err = 0;

	if (fd < 0)
		return -errno;
	n = write(fd, text, strlen(text));
	if (n < 0)
		err = -errno;
	close(fd);
	return err;
}

/* "max" or a percent with up to 2 decimals, in capacity units (MA10). */
static unsigned int pct_to_util(const char *text)
{
	unsigned int whole = 0, frac = 0;

	if (!strcmp(text, "max"))
		return SCALE;
	if (sscanf(text, "%u.%2u", &whole, &frac) < 1)
		return 0;
	return ((whole * 100 + frac) * SCALE + PCT_X100 / 2) / PCT_X100;
}

/* Write a group's clamp file; on success the cgroup marker follows it. */
static int cg_clamp(const char *group, const char *which, const char *text, int want)
{
	char path[LINE_LEN];
	int ret;

	snprintf(path, sizeof(path), CGROOT "%s/cpu.uclamp.%s", group, which);
	ret = write_file(path, text);
	if (!ret)
		marker("ucval: cgroup path=%s util_%s=%u", group, which, pct_to_util(text));
	if (ret != want) {
		say("write '%s' to %s: got %d, expected %d", text, path, ret, want);
		nr_fail++;
	}
	return ret;
}

/*
 * Move a blocked task from @from into @group: the task marker first (see the
 * header); if the kernel refuses, a second marker puts it back.
 */
static void cg_move(pid_t pid, const char *from, const char *group)
{
	char path[LINE_LEN], text[32];
	int ret;

	marker("ucval: task pid=%d cgroup=%s", (int)pid, group);
	snprintf(path, sizeof(path), CGROOT "%s/cgroup.procs", group);
	snprintf(text, sizeof(text), "%d", (int)pid);
	ret = write_file(path, text);
	if (ret) {
		marker("ucval: task pid=%d cgroup=%s", (int)pid, from);
		say("cannot move %d into %s: %s", (int)pid, group, strerror(-ret));
		nr_fail++;
	}
}

static int cg_setup(void)
{
	int ret = write_file(CGROOT "/cgroup.subtree_control", "+cpu");

	if (ret)
		return ret;
	if (mkdir(CGROOT "/a", 0755) && errno != EEXIST)
		return -errno;
	ret = write_file(CGROOT "/a/cgroup.subtree_control", "+cpu");
	if (ret)
		return ret;
	if (mkdir(CGROOT "/a/b", 0755) && errno != EEXIST)
		return -errno;
	if (mkdir(CGROOT "/a/c", 0755) && errno != EEXIST)
		return -errno;
	return 0;
}

/* ---- sysctls and cpufreq policies ---- */

/*
 * Write @v to kernel.@name (uclamp-mainline.md MA8); on success the sysctl
 * marker with @key follows it. A refused write leaves the defaults alone
 * and has no marker.
 */
static int sysctl_set(const char *name, const char *key, unsigned int v, int want)
{
	char path[LINE_LEN], text[32];
	int ret;

	snprintf(path, sizeof(path), SYSCTL_DIR "/%s", name);
	snprintf(text, sizeof(text), "%u", v);
	ret = write_file(path, text);
	if (!ret)
		marker("ucval: sysctl %s=%u", key, v);
	if (ret != want) {
		say("write %u to %s: got %d, expected %d", v, path, ret, want);
		nr_fail++;
	}
	return ret;
}

/* A policy limit (scaling_min_freq, scaling_max_freq): cpu_frequency_limits shows it. */
static void policy_limit(int policy, const char *file, unsigned int khz)
{
	char path[LINE_LEN], text[32];
	int ret;

	snprintf(path, sizeof(path), CPUFREQ_DIR "/policy%d/%s", policy, file);
	snprintf(text, sizeof(text), "%u", khz);
	ret = write_file(path, text);
	if (ret) {
		say("write %u to %s: %s", khz, path, strerror(-ret));
		nr_fail++;
	}
}

/* Make blocked worker @wk SCHED_FIFO at @prio, its marker first (header). */
static int make_fifo(const struct worker *wk, unsigned int prio, uint64_t flags)
{
	int ret;

	marker("ucval: task pid=%d policy=SCHED_FIFO", (int)wk->pid);
	ret = setattr(wk->pid, SCHED_FIFO, prio, flags, 0, 0);
	if (ret) {
		say("cannot make %s SCHED_FIFO: %s", wk->name, strerror(-ret));
		nr_fail++;
	}
	return ret;
}

/* ---- phases ---- */

static void phase(const char *name)
{
	say("phase %s", name);
	marker("ucval: phase name=%s", name);
}

/* Different clamps on both CPUs, one unpinned task migrating between them. */
static void phase_mixed(void)
{
	static const struct work w[] = {
		{ "boost700", 0, 3000, 15000, 1500, 0, 0 },
		{ "cap300", 1, 50000, 50000, 1500, 0, 0 },
		{ "band200-512", 0, 5000, 10000, 1500, 0, 0 },
		{ "roam400", -1, 2000, 7000, 1500, 0, 0 },
	};
	struct worker wk[4];

	phase("mixed");
	for (unsigned int i = 0; i < 4; i++)
		if (worker_new(&w[i], &wk[i]))
			return;
	clamp_req(wk[0].pid, true, 700, false, 0, 0, 0);
	clamp_req(wk[1].pid, false, 0, true, 300, 0, 0);
	clamp_req(wk[2].pid, true, 200, true, 512, 0, 0);
	clamp_req(wk[3].pid, true, 400, false, 0, 0, 0);
	for (unsigned int i = 0; i < 4; i++)
		worker_go(&wk[i]);
	for (unsigned int i = 0; i < 4; i++)
		worker_wait(&wk[i]);
}

/* Clamp changes while the task runs, then requests the kernel must refuse. */
static void phase_changes(void)
{
	static const struct work w = { "changing", 1, 40000, 40000, 2600, 0, 0 };
	static const struct { bool has_min; uint32_t umin; bool has_max; uint32_t umax; } seq[] = {
		{ true, 800, false, 0 },
		{ false, 0, true, 900 },
		{ true, 100, true, 400 },
		{ true, 512, true, 512 },
		{ false, 0, true, CLAMP_RESET },
		{ true, CLAMP_RESET, false, 0 },
		{ true, 0, true, 200 },
		{ true, 600, true, 1024 },
	};
	struct worker wk;

	phase("changes");
	if (worker_new(&w, &wk))
		return;
	worker_go(&wk);
	sleep_ms(150);
	for (unsigned int i = 0; i < sizeof(seq) / sizeof(seq[0]); i++) {
		clamp_req(wk.pid, seq[i].has_min, seq[i].umin, seq[i].has_max, seq[i].umax, 0, 0);
		sleep_ms(150);
	}
	phase("invalid");
	clamp_req(wk.pid, true, 1025, false, 0, 0, -EINVAL);	/* above the scale */
	clamp_req(wk.pid, false, 0, true, 2000, 0, -EINVAL);
	clamp_req(wk.pid, true, 700, true, 500, 0, -EINVAL);	/* min > max */
	clamp_req(wk.pid, false, 0, true, 300, 0, -EINVAL);	/* below the kept min 600 */
	clamp_req(wk.pid, true, 200, false, 0, FLAG_UNKNOWN, -EINVAL);
	clamp_req(wk.pid, true, 300, true, 300, 0, 0);
	sleep_ms(100);
	worker_wait(&wk);
}

/*
 * Nested groups: /a limits its children /a/b and /a/c (cgroup v2 keeps tasks
 * in leaves only); the groups' clamps change under running tasks.
 */
static void phase_cgroups(void)
{
	static const struct work w[] = {
		{ "in-b", 0, 30000, 30000, 2000, 0, 0 },
		{ "in-c-min800", 1, 4000, 8000, 2000, 0, 0 },
		{ "in-b-max200", 1, 2000, 10000, 2000, 0, 0 },
	};
	struct worker wk[3];
	int err = cg_setup();

	phase("cgroups");
	if (err) {
		say("cannot set up cgroups: %s", strerror(-err));
		nr_fail++;
		return;
	}
	cg_clamp("/a", "max", "60", 0);
	cg_clamp("/a", "min", "30", 0);
	cg_clamp("/a/b", "min", "50", 0);
	cg_clamp("/a/b", "max", "40", 0);
	cg_clamp("/a/b", "min", "101", -ERANGE);
	cg_clamp("/a/b", "max", "abc", -EINVAL);
	for (unsigned int i = 0; i < 3; i++)
		if (worker_new(&w[i], &wk[i]))
			return;
	clamp_req(wk[1].pid, true, 800, false, 0, 0, 0);
	clamp_req(wk[2].pid, false, 0, true, 200, 0, 0);
	cg_move(wk[0].pid, "/", "/a/b");
	cg_move(wk[1].pid, "/", "/a/c");
	cg_move(wk[2].pid, "/", "/a/b");
	for (unsigned int i = 0; i < 3; i++)
		worker_go(&wk[i]);
	sleep_ms(500);
	cg_clamp("/a", "max", "30", 0);		/* /a/b's max follows */
	sleep_ms(500);
	cg_clamp("/a/b", "min", "0", 0);
	cg_clamp("/a", "min", "10.5", 0);
	sleep_ms(400);
	cg_clamp("/a", "max", "max", 0);
	cg_clamp("/a/b", "max", "max", 0);
	for (unsigned int i = 0; i < 3; i++)
		worker_wait(&wk[i]);
}

/* RT tasks: boosted by the RT default min, or clamped by their own request. */
static void phase_rt(void)
{
	static const struct work w[] = {
		{ "rt-default", 0, 1000, 10000, 1200, 0, 0 },
		{ "rt-clamped", 1, 2000, 10000, 1200, 0, 0 },
	};
	struct worker wk[2];

	phase("rt");
	for (unsigned int i = 0; i < 2; i++) {
		int ret;

		if (worker_new(&w[i], &wk[i]))
			return;
		marker("ucval: task pid=%d policy=SCHED_FIFO", (int)wk[i].pid);
		ret = setattr(wk[i].pid, SCHED_FIFO, 10 + i, 0, 0, 0);
		if (ret) {
			say("cannot make %s SCHED_FIFO: %s", w[i].name, strerror(-ret));
			nr_fail++;
		}
	}
	/* its default min is 1024: a max alone below it is refused (MA2) */
	clamp_req(wk[1].pid, false, 0, true, 500, 0, -EINVAL);
	clamp_req(wk[1].pid, true, 300, true, 600, 0, 0);
	for (unsigned int i = 0; i < 2; i++)
		worker_go(&wk[i]);
	for (unsigned int i = 0; i < 2; i++)
		worker_wait(&wk[i]);
}

/* A clamped task forks short-lived children: inherited, then reset on fork. */
static void phase_fork(void)
{
	static const struct work w = { "forker", 1, 2000, 8000, 600, 1, 0 };
	struct worker wk[2];
	int ret;

	phase("fork");
	if (worker_new(&w, &wk[0]) || worker_new(&w, &wk[1]))
		return;
	clamp_req(wk[0].pid, true, 400, true, 800, 0, 0);
	clamp_req(wk[1].pid, true, 300, true, 700, 0, 0);
	/* reset_on_fork needs a policy write: SCHED_NORMAL again, parameters kept */
	ret = setattr(wk[1].pid, SCHED_OTHER, 0, FLAG_RESET_ON_FORK | FLAG_KEEP_PARAMS, 0, 0);
	if (ret) {
		say("cannot set reset_on_fork: %s", strerror(-ret));
		nr_fail++;
	} else {
		marker("ucval: task pid=%d reset_on_fork=1", (int)wk[1].pid);
	}
	worker_go(&wk[0]);
	worker_wait(&wk[0]);
	worker_go(&wk[1]);
	worker_wait(&wk[1]);
}

/*
 * A fully boosted task starts on a CPU whose utilization has decayed while
 * it idled: the kernel must go to the highest OPP at once (MS1) instead of
 * following the slow rise of PELT; ignoring the clamp shows as a ramp far
 * longer than the grace window.
 */
static void phase_ramp(void)
{
	static const struct work w = { "ramp-min1024", 1, 400000, 400000, 400, 0, 0 };
	struct worker wk;

	phase("ramp");
	if (worker_new(&w, &wk))
		return;
	clamp_req(wk.pid, true, 1024, false, 0, 0, 0);
	worker_go(&wk);
	worker_wait(&wk);
}

/*
 * Before any clamp use the static key is off: a runnable RT task makes
 * schedutil ask for the highest frequency (schedutil.md S23,
 * uclamp-mainline.md MS2). It runs long enough that PELT's util_rt alone
 * would take far longer than the grace window to get there. It starts 150 ms
 * after the workers are set up, once its CPU's utilization has decayed.
 * Nothing makes schedutil evaluate while an RT task runs but other
 * scheduler activity on its CPU: a higher priority RT task there runs 100 us
 * of every 5 ms (each RT enqueue and dequeue evaluates). A fair one would
 * bring its util_est and raise the frequency by itself.
 */
static void phase_rt_keyoff(void)
{
	static const struct work w[] = {
		{ "keyoff-tick", 1, 100, 5000, 300, 0, 150000 },
		{ "rt-keyoff", 1, 300000, 300000, 300, 0, 150000 },
	};
	struct worker wk[2];

	phase("rt-keyoff");
	for (unsigned int i = 0; i < 2; i++)
		if (worker_new(&w[i], &wk[i]))
			return;
	make_fifo(&wk[0], 20, 0);
	make_fifo(&wk[1], 10, 0);
	for (unsigned int i = 0; i < 2; i++)
		worker_go(&wk[i]);
	for (unsigned int i = 0; i < 2; i++)
		worker_wait(&wk[i]);
}

/*
 * An rq MIN above its MAX (MB2, MS1, MT6). On CPU 0 inv-hi (min 810, max
 * 1024) and inv-lo (min = max = 620) share MIN bucket 3 (615-819 with 5
 * buckets, MB1); when inv-hi sleeps the bucket keeps 810 while MAX falls
 * to inv-lo's 620, and schedutil takes the min. On CPU 1 inv-rt asks for
 * max 300 as a fair task, then becomes SCHED_FIFO without clamp flags: its
 * min, not user-defined, becomes the RT default 1024, above its max (MT4).
 */
static void phase_inversion(void)
{
	static const struct work w[] = {
		{ "inv-lo", 0, 800000, 800000, 800, 0, 0 },
		{ "inv-hi", 0, 4000, 40000, 800, 0, 0 },
		{ "inv-rt", 1, 3000, 12000, 800, 0, 0 },
	};
	struct worker wk[3];

	phase("inversion");
	for (unsigned int i = 0; i < 3; i++)
		if (worker_new(&w[i], &wk[i]))
			return;
	clamp_req(wk[0].pid, true, 620, true, 620, 0, 0);
	clamp_req(wk[1].pid, true, 810, false, 0, 0, 0);
	clamp_req(wk[2].pid, false, 0, true, 300, 0, 0);
	make_fifo(&wk[2], 10, 0);
	for (unsigned int i = 0; i < 3; i++)
		worker_go(&wk[i]);
	for (unsigned int i = 0; i < 3; i++)
		worker_wait(&wk[i]);
}

/*
 * Clamp values on both sides of each bucket boundary share CPU 1 (MB1: 5
 * buckets of 205): a busy task at the value just below the boundary, a
 * periodic one at the boundary. When the upper one sleeps its bucket
 * empties and the rq falls to the lower value (MR4); a bucket mapping one
 * off keeps the upper value (MB2).
 */
static void phase_bucket_edges(void)
{
	static const unsigned int edge[] = { 205, 410, 615, 820 };
	static const struct work lo = { "edge-lo", 1, 150000, 150000, 150, 0, 0 };
	static const struct work hi = { "edge-hi", 1, 3000, 15000, 150, 0, 0 };

	phase("bucket-edges");
	for (unsigned int i = 0; i < sizeof(edge) / sizeof(edge[0]); i++) {
		struct worker wk[2];

		if (worker_new(&lo, &wk[0]) || worker_new(&hi, &wk[1]))
			return;
		clamp_req(wk[0].pid, true, edge[i] - 1, true, edge[i] - 1, 0, 0);
		clamp_req(wk[1].pid, true, edge[i], true, edge[i], 0, 0);
		worker_go(&wk[0]);
		worker_go(&wk[1]);
		worker_wait(&wk[0]);
		worker_wait(&wk[1]);
	}
}

/*
 * A group MIN above its tasks' requests (MT2: the group min protects, the
 * request is clamped into [group min, group max]): /a/d has min 50 %, max
 * 70 % under /a's min 60 %; d-max200 asks for max 200 and gets 512, d-min900
 * asks for min 900, above the group's max, and gets 717.
 */
static void phase_group_min(void)
{
	static const struct work w[] = {
		{ "d-max200", 0, 3000, 10000, 600, 0, 0 },
		{ "d-min900", 1, 3000, 10000, 600, 0, 0 },
	};
	struct worker wk[2];

	phase("group-min");
	if (mkdir(CGROOT "/a/d", 0755) && errno != EEXIST) {
		say("cannot create /a/d: %s", strerror(errno));
		nr_fail++;
		return;
	}
	cg_clamp("/a", "min", "60", 0);
	cg_clamp("/a/d", "max", "70", 0);
	cg_clamp("/a/d", "min", "50", 0);
	for (unsigned int i = 0; i < 2; i++)
		if (worker_new(&w[i], &wk[i]))
			return;
	clamp_req(wk[0].pid, false, 0, true, 200, 0, 0);
	clamp_req(wk[1].pid, true, 900, false, 0, 0, 0);
	cg_move(wk[0].pid, "/", "/a/d");
	cg_move(wk[1].pid, "/", "/a/d");
	for (unsigned int i = 0; i < 2; i++)
		worker_go(&wk[i]);
	for (unsigned int i = 0; i < 2; i++)
		worker_wait(&wk[i]);
	cg_clamp("/a", "min", "0", 0);
}

/*
 * System defaults (MA8, MT1, MR7): sched_util_clamp_min caps a boosted
 * task's min, sched_util_clamp_max every task's max; the kernel re-accounts
 * the queued tasks through the root group at each write. A min above the
 * max is refused, as is an RT default above the scale.
 */
static void phase_sysctl(void)
{
	static const struct work w[] = {
		{ "sys-boost", 0, 4000, 8000, 900, 0, 0 },
		{ "sys-free", 1, 900000, 900000, 900, 0, 0 },
	};
	struct worker wk[2];

	phase("sysctl");
	for (unsigned int i = 0; i < 2; i++)
		if (worker_new(&w[i], &wk[i]))
			return;
	clamp_req(wk[0].pid, true, 900, false, 0, 0, 0);
	for (unsigned int i = 0; i < 2; i++)
		worker_go(&wk[i]);
	sleep_ms(150);
	sysctl_set("sched_util_clamp_min", "util_min", 400, 0);
	sleep_ms(200);
	sysctl_set("sched_util_clamp_max", "util_max", 600, 0);
	sleep_ms(200);
	sysctl_set("sched_util_clamp_min", "util_min", 700, -EINVAL);
	sysctl_set("sched_util_clamp_min_rt_default", "util_min_rt_default", 1025, -EINVAL);
	sleep_ms(100);
	sysctl_set("sched_util_clamp_max", "util_max", 1024, 0);
	sysctl_set("sched_util_clamp_min", "util_min", 1024, 0);
	for (unsigned int i = 0; i < 2; i++)
		worker_wait(&wk[i]);
}

/*
 * The RT default (MT4, MR7, MA8). rtd-busy, SCHED_FIFO and never asleep,
 * stays counted with the old default when it changes: the kernel updates
 * requests, not counted values. rtd-free and rtd-own wait blocked through
 * the write: rtd-free's min follows the new default 0, so its CPU follows
 * its utilization instead of the highest OPP (MS2) through bursts of 50 ms
 * every 150 ms (schedutil evaluates at the RT enqueue and dequeue; util_rt
 * climbs from about 80 to 700 in each, below the 737 of the highest OPP's
 * threshold, so the whole burst, not only what outlasts the grace window,
 * tells the two apart), rtd-own keeps its own min 300.
 */
static void phase_rt_default(void)
{
	static const struct work w[] = {
		{ "rtd-busy", 1, 400000, 400000, 400, 0, 0 },
		{ "rtd-free", 0, 50000, 150000, 600, 0, 0 },
		{ "rtd-own", 1, 2000, 10000, 400, 0, 0 },
	};
	struct worker wk[3];

	phase("rt-default");
	for (unsigned int i = 0; i < 3; i++) {
		if (worker_new(&w[i], &wk[i]))
			return;
		make_fifo(&wk[i], 10 + i, 0);
	}
	clamp_req(wk[2].pid, true, 300, true, 600, 0, 0);
	worker_go(&wk[0]);
	sleep_ms(150);
	sysctl_set("sched_util_clamp_min_rt_default", "util_min_rt_default", 0, 0);
	worker_wait(&wk[0]);
	worker_go(&wk[1]);
	worker_go(&wk[2]);
	worker_wait(&wk[1]);
	worker_wait(&wk[2]);
	sysctl_set("sched_util_clamp_min_rt_default", "util_min_rt_default", 1024, 0);
}

/*
 * RT parents fork (MA7): with reset_on_fork the children are SCHED_NORMAL
 * with no clamps; without it they inherit the policy and the clamps.
 */
static void phase_fork_rt(void)
{
	static const struct work w = { "rt-forker", 1, 2000, 8000, 400, 1, 0 };
	struct worker wk[2];

	phase("fork-rt");
	if (worker_new(&w, &wk[0]) || worker_new(&w, &wk[1]))
		return;
	make_fifo(&wk[0], 10, 0);
	make_fifo(&wk[1], 10, 0);
	clamp_req(wk[0].pid, true, 200, true, 600, 0, 0);
	clamp_req(wk[1].pid, true, 100, true, 700, 0, 0);
	if (!setattr(wk[0].pid, SCHED_FIFO, 10, FLAG_RESET_ON_FORK, 0, 0)) {
		marker("ucval: task pid=%d reset_on_fork=1", (int)wk[0].pid);
	} else {
		say("cannot set reset_on_fork on %d", (int)wk[0].pid);
		nr_fail++;
	}
	worker_go(&wk[0]);
	worker_wait(&wk[0]);
	worker_go(&wk[1]);
	worker_wait(&wk[1]);
}

/*
 * Policy limits change under clamped tasks (S27, S17): a fully boosted
 * task on CPU 0 while policy0's max drops to 1200000 kHz, a task capped at
 * 100 on CPU 1 while policy1's min rises to 1600000 kHz. Fast switch: the
 * frequency follows at the next evaluation.
 */
static void phase_limits(void)
{
	static const struct work w[] = {
		{ "lim-boost", 0, 700000, 700000, 700, 0, 0 },
		{ "lim-cap", 1, 700000, 700000, 700, 0, 0 },
	};
	struct worker wk[2];

	phase("limits");
	for (unsigned int i = 0; i < 2; i++)
		if (worker_new(&w[i], &wk[i]))
			return;
	clamp_req(wk[0].pid, true, 1024, false, 0, 0, 0);
	clamp_req(wk[1].pid, false, 0, true, 100, 0, 0);
	for (unsigned int i = 0; i < 2; i++)
		worker_go(&wk[i]);
	sleep_ms(150);
	policy_limit(0, "scaling_max_freq", 1200000);
	sleep_ms(150);
	policy_limit(1, "scaling_min_freq", 1600000);
	sleep_ms(150);
	policy_limit(0, "scaling_max_freq", 2000000);
	policy_limit(1, "scaling_min_freq", 400000);
	for (unsigned int i = 0; i < 2; i++)
		worker_wait(&wk[i]);
}

static int usage(void)
{
	fprintf(stderr, "usage: scenario [-m TRACE_MARKER] [-s STRETCH]\n");
	return 2;
}

int main(int argc, char **argv)
{
	const char *mpath = MARKER_PATH;
	int c;

	while ((c = getopt(argc, argv, "m:s:")) != -1) {
		if (c == 'm')
			mpath = optarg;
		else if (c == 's' && atoi(optarg) > 0)
			stretch = (unsigned int)atoi(optarg);
		else
			return usage();
	}
	marker_fd = open(mpath, O_WRONLY | O_CLOEXEC);
	if (marker_fd < 0) {
		say("cannot open '%s': %s", mpath, strerror(errno));
		return 1;
	}
	/* what the snapshot cannot read: fakefreq makes PELT invariant, 5 buckets */
	marker("ucval: platform invariant=1 task_group=1 groups=5");
	phase("idle");
	sleep_ms(300);
	phase_rt_keyoff();	/* first: no clamp used yet */
	phase_mixed();
	phase("idle");
	sleep_ms(200);
	phase_inversion();
	phase_bucket_edges();
	phase_changes();
	phase_cgroups();
	phase_group_min();
	phase_rt();
	phase_sysctl();
	phase_rt_default();
	phase_fork();
	phase_fork_rt();
	phase_limits();
	phase("idle");
	sleep_ms(400);
	phase_ramp();
	phase("idle");
	sleep_ms(200);
	phase("end");
	say("done, %u unexpected results", nr_fail);
	return nr_fail ? 1 : 0;
}
