// SPDX-License-Identifier: MIT
/*
 * collect/snapshot.c - the platform snapshot markers (spec/events.md §3).
 * Everything comes from files the kernel exposes; a file that does not
 * exist leaves its key out. This machine class matters: VMs have no cpufreq
 * and many kernels no uclamp, so most keys are optional.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "collect/snapshot.h"

#define VALUE_LEN	512		/* one sysfs/procfs value */
#define SCALE		1024		/* SCHED_CAPACITY_SCALE: mainline clamp unit */
#define PERCENT_SCALE	10000		/* cgroup cpu.uclamp.* is a percent with 2 decimals */
#define ATTR_SIZE_VER1	56		/* struct sched_attr with the util clamps */
#define FLAG_RESET_ON_FORK 0x01		/* SCHED_FLAG_RESET_ON_FORK */
#define FLAG_KEEP_ALL	0x18		/* SCHED_FLAG_KEEP_POLICY | KEEP_PARAMS */
#define FLAG_UTIL_MIN	0x20		/* SCHED_FLAG_UTIL_CLAMP_MIN */
#define FLAG_UTIL_MAX	0x40		/* SCHED_FLAG_UTIL_CLAMP_MAX */
#define CGROUP_DEPTH_MAX 32		/* deeper hierarchies are cut */
#define SCHED_POLICY_FIFO 1		/* SCHED_FIFO */
#define SCHED_POLICY_RR	2		/* SCHED_RR */
#define COMM_MAX	15		/* TASK_COMM_LEN - 1, as sched events show it */

struct line {
	char buf[COL_MARKER_LEN];
	size_t n;
};

/* struct sched_attr of the kernel ABI (include/uapi/linux/sched/types.h). */
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

static const char *root(const char *r, const char *def)
{
	return r ? r : def;
}

static void line_start(struct line *l, const char *kind)
{
	l->n = (size_t)snprintf(l->buf, sizeof(l->buf), "ucval: %s", kind);
}

/* Append " key=value" when it fits; a key that does not fit is left out. */
static void __attribute__((format(printf, 3, 4)))
line_add(struct line *l, const char *key, const char *fmt, ...)
{
	size_t n = l->n;
	va_list ap;
	int k;

	k = snprintf(l->buf + n, sizeof(l->buf) - n, " %s=", key);
	if (k < 0 || (size_t)k >= sizeof(l->buf) - n)
		goto out_drop;
	n += (size_t)k;
	va_start(ap, fmt);
	k = vsnprintf(l->buf + n, sizeof(l->buf) - n, fmt, ap);
	va_end(ap);
	if (k < 0 || (size_t)k >= sizeof(l->buf) - n)
		goto out_drop;
	l->n = n + (size_t)k;
	return;
out_drop:
	l->buf[l->n] = '\0';
}

/* Marker values never hold spaces: percent-encode them, '%', '=' and controls. */
static void encode(const char *s, char *out, size_t len)
{
	size_t n = 0;

	for (; *s && n + 4 < len; s++) {
		unsigned char c = (unsigned char)*s;

		if (c <= ' ' || c == '%' || c == '=' || c >= 0x7f)
			n += (size_t)snprintf(out + n, len - n, "%%%02X", c);
		else
			out[n++] = (char)c;
	}
	out[n] = '\0';
}

/* First line of a file, trailing newline cut; false when unreadable. */
static bool read_value(char *out, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static bool read_value(char *out, size_t len, const char *fmt, ...)
{
	char path[PATH_MAX];
	va_list ap;
	ssize_t r;
	int fd;

	va_start(ap, fmt);
	vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	r = read(fd, out, len - 1);
	close(fd);
	if (r <= 0)
		return false;
	out[r] = '\0';
	out[strcspn(out, "\n")] = '\0';
	return true;
}

static bool __attribute__((format(printf, 2, 3)))
read_ull(unsigned long long *v, const char *fmt, ...)
{
	char path[PATH_MAX], buf[VALUE_LEN], *end;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	if (!read_value(buf, sizeof(buf), "%s", path))
		return false;
	errno = 0;
	*v = strtoull(buf, &end, 10);
	return !errno && end != buf;
}

static int cmp_ull(const void *a, const void *b)
{
	unsigned long long x = *(const unsigned long long *)a, y = *(const unsigned long long *)b;

	return x < y ? -1 : x > y;
}

/* "a b c" of scaling_available_frequencies as "a,b,c" ascending. */
static bool freqs_list(const char *text, char *out, size_t len)
{
	unsigned long long f[256];
	unsigned int nr = 0;
	size_t n = 0;
	char *end;

	for (const char *p = text; *p && nr < 256; p = end) {
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		f[nr] = strtoull(p, &end, 10);
		if (end == p)
			break;
		nr++;
	}
	if (!nr)
		return false;
	qsort(f, nr, sizeof(f[0]), cmp_ull);
	out[0] = '\0';
	for (unsigned int i = 0; i < nr && n + 24 < len; i++)
		n += (size_t)snprintf(out + n, len - n, "%s%llu", i ? "," : "", f[i]);
	return true;
}

static void cpu_line(const struct col_snapshot_roots *r, unsigned int cpu, struct line *l)
{
	const char *sys = root(r->sys, "/sys");
	char pol[PATH_MAX], link[PATH_MAX], buf[VALUE_LEN], list[VALUE_LEN];
	static const struct { const char *key, *file; } num[] = {
		{ "min", "scaling_min_freq" }, { "max", "scaling_max_freq" },
		{ "cur", "scaling_cur_freq" },
	};
	unsigned long long v;
	ssize_t k;

	line_start(l, "cpu");
	line_add(l, "cpu", "%u", cpu);
	snprintf(pol, sizeof(pol), "%s/devices/system/cpu/cpu%u/cpufreq", sys, cpu);
	k = readlink(pol, link, sizeof(link) - 1);
	if (k > 0) {
		const char *base;

		link[k] = '\0';
		base = strrchr(link, '/');
		base = base ? base + 1 : link;
		if (!strncmp(base, "policy", 6) && isdigit((unsigned char)base[6]))
			line_add(l, "policy", "%s", base + 6);
	}
	if (read_ull(&v, "%s/devices/system/cpu/cpu%u/cpu_capacity", sys, cpu))
		line_add(l, "capacity", "%llu", v);
	if (read_value(buf, sizeof(buf), "%s/scaling_available_frequencies", pol) &&
	    freqs_list(buf, list, sizeof(list)))
		line_add(l, "freqs", "%s", list);
	for (unsigned int i = 0; i < sizeof(num) / sizeof(num[0]); i++)
		if (read_value(buf, sizeof(buf), "%s/%s", pol, num[i].file) && isdigit((unsigned char)buf[0]))
			line_add(l, num[i].key, "%llu", strtoull(buf, NULL, 10));
	/* schedutil's rate limit: per policy, or global on old kernels */
	if (read_value(buf, sizeof(buf), "%s/schedutil/rate_limit_us", pol) ||
	    read_value(buf, sizeof(buf), "%s/devices/system/cpu/cpufreq/schedutil/rate_limit_us",
		       sys))
		line_add(l, "rate_limit_us", "%llu", strtoull(buf, NULL, 10));
	if (read_value(buf, sizeof(buf), "%s/scaling_governor", pol)) {
		encode(buf, list, sizeof(list));
		line_add(l, "governor", "%s", list);
	}
}

bool col_snapshot_has_uclamp(const struct col_snapshot_roots *roots)
{
	char path[PATH_MAX];
	static const struct col_snapshot_roots none;

	snprintf(path, sizeof(path), "%s/sys/kernel/sched_util_clamp_min",
		 root((roots ? roots : &none)->proc, "/proc"));
	return !access(path, F_OK);
}

/* CONFIG_HZ from the kernel's config file, 0 when there is none. */
static unsigned int config_hz(const char *release)
{
	char path[PATH_MAX], text[128];
	unsigned int hz = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/boot/config-%s", release);
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (fgets(text, sizeof(text), f))
		if (sscanf(text, "CONFIG_HZ=%u", &hz) == 1)
			break;
	fclose(f);
	return hz;
}

static void platform_line(const struct col_snapshot_roots *r, unsigned int nr_cpus,
			  struct line *l)
{
	struct utsname u;
	unsigned int hz;
	char rel[VALUE_LEN];

	line_start(l, "platform");
	line_add(l, "cpus", "%u", nr_cpus);
	/* The uclamp sysctls are mainline's names: the model and its unit. */
	if (col_snapshot_has_uclamp(r)) {
		line_add(l, "model", "mainline");
		line_add(l, "scale", "%u", SCALE);
	}
	if (!uname(&u)) {
		encode(u.release, rel, sizeof(rel));
		line_add(l, "kernel", "%s", rel);
		hz = config_hz(u.release);
		if (hz)
			line_add(l, "tick_us", "%u", 1000000u / hz);
	}
}

static int sysctl_marker(const struct col_snapshot_roots *r, col_snapshot_emit_fn emit,
			 void *ctx)
{
	static const struct { const char *key, *file; } ctl[] = {
		{ "util_min", "sched_util_clamp_min" },
		{ "util_max", "sched_util_clamp_max" },
		{ "util_min_rt_default", "sched_util_clamp_min_rt_default" },
	};
	unsigned long long v;
	struct line l;
	bool any = false;

	line_start(&l, "sysctl");
	for (unsigned int i = 0; i < sizeof(ctl) / sizeof(ctl[0]); i++) {
		if (!read_ull(&v, "%s/sys/kernel/%s", root(r->proc, "/proc"), ctl[i].file))
			continue;
		line_add(&l, ctl[i].key, "%llu", v);
		any = true;
	}
	return any ? emit(ctx, l.buf) : 0;
}

/* cpu.uclamp.{min,max}: "max" or a percent with two decimals, as the kernel scales it. */
static bool cgroup_clamp(const char *dir, const char *file, unsigned long long *v)
{
	char buf[VALUE_LEN];
	unsigned long long whole = 0, frac = 0;
	char *dot;

	if (!read_value(buf, sizeof(buf), "%s/%s", dir, file))
		return false;
	if (!strcmp(buf, "max")) {
		*v = SCALE;
		return true;
	}
	whole = strtoull(buf, &dot, 10);
	if (*dot == '.') {
		frac = strtoull(dot + 1, NULL, 10);
		if (strlen(dot + 1) == 1)
			frac *= 10;
	}
	/* DIV_ROUND_CLOSEST(percent * 100 * SCALE, PERCENT_SCALE) */
	*v = ((whole * 100 + frac) * SCALE + PERCENT_SCALE / 2) / PERCENT_SCALE;
	return true;
}

static int cgroup_walk(const char *base, const char *rel, unsigned int depth,
		       col_snapshot_emit_fn emit, void *ctx)
{
	char dir[PATH_MAX], sub[PATH_MAX], enc[VALUE_LEN];
	unsigned long long v;
	struct dirent *de;
	struct line l;
	int err = 0;
	DIR *dh;

	snprintf(dir, sizeof(dir), "%s%s", base, rel);
	line_start(&l, "cgroup");
	encode(*rel ? rel : "/", enc, sizeof(enc));
	line_add(&l, "path", "%s", enc);
	if (cgroup_clamp(dir, "cpu.uclamp.min", &v)) {
		line_add(&l, "util_min", "%llu", v);
		if (cgroup_clamp(dir, "cpu.uclamp.max", &v))
			line_add(&l, "util_max", "%llu", v);
		err = emit(ctx, l.buf);
	}
	if (err || depth >= CGROUP_DEPTH_MAX)
		return err;
	dh = opendir(dir);
	if (!dh)
		return 0;
	while (!err && (de = readdir(dh))) {
		if (de->d_type != DT_DIR || de->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", rel, de->d_name);
		err = cgroup_walk(base, sub, depth + 1, emit, ctx);
	}
	closedir(dh);
	return err;
}

int col_snapshot_take(const struct col_snapshot_roots *roots, col_snapshot_emit_fn emit,
			  void *ctx, struct an_diag *d)
{
	static const struct col_snapshot_roots none;
	const struct col_snapshot_roots *r = roots ? roots : &none;
	long nr = sysconf(_SC_NPROCESSORS_CONF);
	struct line l;
	int err;

	platform_line(r, nr > 0 ? (unsigned int)nr : 0, &l);
	err = emit(ctx, l.buf);
	for (long c = 0; !err && c < nr; c++) {
		cpu_line(r, (unsigned int)c, &l);
		err = emit(ctx, l.buf);
	}
	if (!err)
		err = sysctl_marker(r, emit, ctx);
	if (!err)
		err = cgroup_walk(root(r->cgroup, "/sys/fs/cgroup"), "", 0, emit, ctx);
	if (err)
		return an_diag_fail(d, err, "cannot write a platform marker: %s", strerror(-err));
	return 0;
}

static const char *policy_name(uint32_t policy)
{
	static const char *const names[] = {
		"SCHED_NORMAL", "SCHED_FIFO", "SCHED_RR", "SCHED_BATCH", NULL,
		"SCHED_IDLE", "SCHED_DEADLINE",
	};

	return policy < sizeof(names) / sizeof(names[0]) ? names[policy] : NULL;
}

void col_snapshot_task_requests(unsigned int policy, unsigned int util_min, unsigned int util_max,
				unsigned int rt_default, bool *has_min, bool *has_max)
{
	bool is_rt = policy == SCHED_POLICY_FIFO || policy == SCHED_POLICY_RR;

	*has_min = util_min != (is_rt ? rt_default : 0);
	*has_max = util_max != SCALE;
}

int col_snapshot_task_line(const struct col_snapshot_roots *roots, pid_t tid, char *buf,
			   size_t len)
{
	static const struct col_snapshot_roots none;
	const struct col_snapshot_roots *r = roots ? roots : &none;
	const char *proc = root(r->proc, "/proc");
	char comm[VALUE_LEN], enc[VALUE_LEN], cg[VALUE_LEN];
	struct kattr a = { 0 };
	struct line l;

	if (!read_value(comm, sizeof(comm), "%s/%d/comm", proc, (int)tid))
		return -ESRCH;
	line_start(&l, "task");
	line_add(&l, "pid", "%d", (int)tid);
	comm[COMM_MAX] = '\0';	/* kthreads have longer names than the trace's comm */
	encode(comm, enc, sizeof(enc));
	line_add(&l, "comm", "%s", enc);
	if (!syscall(SYS_sched_getattr, tid, &a, (unsigned int)sizeof(a), 0u)) {
		const char *name = policy_name(a.sched_policy);

		if (a.size >= ATTR_SIZE_VER1 && col_snapshot_has_uclamp(r)) {
			unsigned long long rt_default = SCALE;
			bool has_min, has_max;

			read_ull(&rt_default, "%s/sys/kernel/sched_util_clamp_min_rt_default", proc);
			col_snapshot_task_requests(a.sched_policy, a.sched_util_min,
						   a.sched_util_max, (unsigned int)rt_default,
						   &has_min, &has_max);
			if (has_min)
				line_add(&l, "util_min", "%u", a.sched_util_min);
			if (has_max)
				line_add(&l, "util_max", "%u", a.sched_util_max);
		}
		if (name)
			line_add(&l, "policy", "%s", name);
		line_add(&l, "reset_on_fork", "%d", (a.sched_flags & FLAG_RESET_ON_FORK) ? 1 : 0);
	}
	/* cgroup v2: the "0::/path" line */
	if (read_value(cg, sizeof(cg), "%s/%d/cgroup", proc, (int)tid) && !strncmp(cg, "0::", 3)) {
		encode(cg + 3, enc, sizeof(enc));
		line_add(&l, "cgroup", "%s", enc);
	}
	snprintf(buf, len, "%s", l.buf);
	return 0;
}

int col_snapshot_tasks(const struct col_snapshot_roots *roots, col_snapshot_emit_fn emit,
		       void *ctx, struct an_diag *d)
{
	static const struct col_snapshot_roots none;
	const struct col_snapshot_roots *r = roots ? roots : &none;
	char path[PATH_MAX], line[COL_MARKER_LEN];
	struct dirent *pe, *te;
	DIR *ph, *th;
	int err = 0;

	ph = opendir(root(r->proc, "/proc"));
	if (!ph)
		return an_diag_fail(d, -errno, "cannot list '%s': %s", root(r->proc, "/proc"),
				    strerror(errno));
	while (!err && (pe = readdir(ph))) {
		if (!isdigit((unsigned char)pe->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "%s/%s/task", root(r->proc, "/proc"), pe->d_name);
		th = opendir(path);
		if (!th)
			continue;	/* exited */
		while (!err && (te = readdir(th))) {
			if (!isdigit((unsigned char)te->d_name[0]))
				continue;
			if (col_snapshot_task_line(r, (pid_t)atoi(te->d_name), line, sizeof(line)))
				continue;
			err = emit(ctx, line);
		}
		closedir(th);
	}
	closedir(ph);
	if (err)
		return an_diag_fail(d, err, "cannot write a task marker: %s", strerror(-err));
	return 0;
}

int col_snapshot_setattr(pid_t pid, long util_min, long util_max, unsigned long long *flags)
{
	struct kattr a = { .size = ATTR_SIZE_VER1, .sched_flags = FLAG_KEEP_ALL };

	if (util_min >= 0) {
		a.sched_flags |= FLAG_UTIL_MIN;
		a.sched_util_min = (uint32_t)util_min;
	}
	if (util_max >= 0) {
		a.sched_flags |= FLAG_UTIL_MAX;
		a.sched_util_max = (uint32_t)util_max;
	}
	*flags = a.sched_flags;
	return syscall(SYS_sched_setattr, pid, &a, 0u) ? -errno : 0;
}
