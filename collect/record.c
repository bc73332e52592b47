// SPDX-License-Identifier: MIT
/*
 * collect/record.c - the recorder: an instance of its own, the events of
 * events.c, and per-CPU streaming of raw pages (splice through libtracefs)
 * into unlinked temporary files. Only full pages are moved while recording;
 * the partial ones are read at the end. The instance keeps the kernel's
 * overwrite mode so a loss is flagged in the pages where it happened.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <tracefs.h>

#include "collect/record.h"
#include "collect/recmeta.h"
#include "lib/tmpfile.h"

#define WAKE_PERCENT	"25"	/* buffer_percent: wake the reader at a quarter full */
#define STATS_LEN	64	/* "per_cpu/cpuNNNN/stats" */
#define BUSY_TRIES	100	/* rmdir of an instance the kernel says is busy */
#define BUSY_WAIT_US	20000

struct rec_cpu {
	struct tracefs_cpu *tcpu;
	int raw_fd;		/* per_cpu/cpuN/trace_pipe_raw */
	int file_fd;		/* unlinked temporary file of raw pages */
	struct col_cpu_stat st;
};

struct col_record {
	struct tracefs_instance *inst;
	bool is_created;	/* the instance is ours to remove */
	bool is_started;
	int owner_fd;		/* the locked owner file, -1 when none */
	int marker_fd;
	unsigned int page_size;
	unsigned int nr_cpus;
	struct rec_cpu *cpu;
	char *page;
	struct col_events events;
	const struct col_dat_system *extra_system;	/* col_record_add_instance() */
	struct col_dat_instance extra;
	bool has_extra;
};

static int write_setting(struct col_record *rec, const char *file, const char *value,
			 struct an_diag *d)
{
	if (tracefs_instance_file_write(rec->inst, file, value) < 0) {
		int err = errno ? -errno : -EIO;

		return an_diag_fail(d, err, "cannot write '%s' to %s: %s", value, file,
				    strerror(-err));
	}
	return 0;
}

static int check_tracefs(struct an_diag *d)
{
	const char *dir = tracefs_tracing_dir();
	char *inst_dir = NULL;
	int err = 0;

	if (!dir)
		return an_diag_fail(d, -ENODEV, "tracefs is not mounted (mount -t tracefs "
				    "nodev /sys/kernel/tracing)");
	if (asprintf(&inst_dir, "%s/instances", dir) < 0)
		return an_diag_fail(d, -ENOMEM, "out of memory");
	if (access(inst_dir, W_OK) && errno == ENOENT)
		err = an_diag_fail(d, -ENODEV, "no tracefs at '%s' (mount -t tracefs nodev "
				   "/sys/kernel/tracing)", dir);
	else if (access(inst_dir, W_OK))
		err = an_diag_fail(d, -EACCES, "cannot write to '%s': recording needs root",
				   inst_dir);
	free(inst_dir);
	return err;
}

static unsigned int subbuf_size(struct col_record *rec)
{
	long long kb;

	if (!tracefs_instance_file_read_number(rec->inst, "buffer_subbuf_size_kb", &kb) &&
	    kb > 0 && kb <= 1024)
		return (unsigned int)kb * 1024;
	return (unsigned int)sysconf(_SC_PAGESIZE);
}

static int open_cpus(struct col_record *rec, const char *tmpdir, struct an_diag *d)
{
	long n = sysconf(_SC_NPROCESSORS_CONF);

	if (n <= 0)
		return an_diag_fail(d, -EINVAL, "cannot count the CPUs");
	rec->cpu = calloc((size_t)n, sizeof(*rec->cpu));
	if (!rec->cpu)
		return an_diag_fail(d, -ENOMEM, "out of memory");
	rec->nr_cpus = (unsigned int)n;
	for (unsigned int c = 0; c < rec->nr_cpus; c++)
		rec->cpu[c].raw_fd = rec->cpu[c].file_fd = -1;
	for (unsigned int c = 0; c < rec->nr_cpus; c++) {
		struct rec_cpu *rc = &rec->cpu[c];
		char path[STATS_LEN];

		snprintf(path, sizeof(path), "per_cpu/cpu%u/trace_pipe_raw", c);
		rc->raw_fd = tracefs_instance_file_open(rec->inst, path, O_RDONLY | O_NONBLOCK);
		if (rc->raw_fd < 0)
			return an_diag_fail(d, -errno, "cannot open %s: %s", path, strerror(errno));
		rc->tcpu = tracefs_cpu_alloc_fd(rc->raw_fd, (int)rec->page_size, true);
		if (!rc->tcpu)
			return an_diag_fail(d, -ENOMEM, "cannot set up the reader of cpu %u", c);
		rc->file_fd = an_tmpfile(tmpdir, "ucval-cpu");
		if (rc->file_fd < 0)
			return an_diag_fail(d, rc->file_fd, "cannot create a temporary file in "
					    "'%s': %s", tmpdir, strerror(-rc->file_fd));
	}
	return 0;
}

int col_record_enable(struct col_record *rec, struct an_diag *d)
{
	int err = 0;

	for (unsigned int i = 0; !err && i < rec->events.nr; i++) {
		const struct col_event *e = &rec->events.ev[i];

		if (tracefs_event_file_write(rec->inst, e->system, e->name, "enable", "1") < 0)
			err = an_diag_fail(d, errno ? -errno : -EIO, "cannot enable %s:%s: %s",
					   e->system, e->name, strerror(errno ? errno : EIO));
	}
	return err;
}

/*
 * The owner file of an instance, COL_RECORD_OWNER_DIR/ucval-NAME.owner (in
 * /tmp where that directory is missing, as in a minimal initramfs): locked
 * (flock) while a recorder lives, holding its pid while the instance exists.
 * The kernel drops the lock when the recorder dies however it dies, so a
 * later run that gets the lock and finds a pid in the file knows the instance
 * is a leftover of ucval's own and may remove it. An instance without such a
 * record is somebody else's and is never touched.
 */
static int owner_open(const char *name, pid_t *prev, struct an_diag *d)
{
	char path[512], buf[32];
	ssize_t n;
	int fd;

	*prev = 0;
	snprintf(path, sizeof(path), "%s/ucval-%s.owner",
		 access(COL_RECORD_OWNER_DIR, W_OK) ? "/tmp" : COL_RECORD_OWNER_DIR, name);
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		return an_diag_fail(d, -errno, "cannot open the owner file '%s': %s", path,
				    strerror(errno));
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		int err = errno == EWOULDBLOCK ? -EBUSY : -errno;

		n = pread(fd, buf, sizeof(buf) - 1, 0);
		buf[n > 0 ? n : 0] = '\0';
		close(fd);
		return an_diag_fail(d, err, "tracefs instance '%s' is recording for ucval "
				    "pid %d (%s)", name, atoi(buf), path);
	}
	n = pread(fd, buf, sizeof(buf) - 1, 0);
	buf[n > 0 ? n : 0] = '\0';
	*prev = (pid_t)atoi(buf);
	return fd;
}

static int owner_set(int fd, pid_t pid)
{
	char buf[32];
	int len = pid ? snprintf(buf, sizeof(buf), "%d\n", (int)pid) : 0;

	if (ftruncate(fd, 0) || (len && pwrite(fd, buf, (size_t)len, 0) != len))
		return -errno;
	return 0;
}

/* rmdir of an instance: the kernel says EBUSY while a reader is closing. */
static int destroy_instance(struct tracefs_instance *inst)
{
	for (int i = 0; i < BUSY_TRIES; i++) {
		tracefs_instance_file_write(inst, "tracing_on", "0");
		errno = 0;
		if (!tracefs_instance_destroy(inst))
			return 0;
		if (errno != EBUSY)
			break;
		usleep(BUSY_WAIT_US);
	}
	return errno ? -errno : -EIO;
}

/* Remove a leftover instance of a recorder that died (pid @prev). */
static int reclaim(const char *name, pid_t prev, struct an_diag *d)
{
	struct tracefs_instance *inst = tracefs_instance_alloc(NULL, name);
	int err;

	if (!inst)
		return an_diag_fail(d, -ENOMEM, "out of memory");
	err = destroy_instance(inst);
	tracefs_instance_free(inst);
	if (err)
		return an_diag_fail(d, err, "cannot remove the leftover tracefs instance '%s' "
				    "of ucval pid %d: %s", name, (int)prev, strerror(-err));
	fprintf(stderr, "ucval collect: removed the tracefs instance '%s' left by ucval "
		"pid %d, which is gone\n", name, (int)prev);
	return 0;
}

/* Take the instance name: refuse a live or foreign instance, reclaim ours. */
static int claim(const char *name, int *owner_fd, struct an_diag *d)
{
	pid_t prev;
	int fd = owner_open(name, &prev, d), err = 0;

	if (fd < 0)
		return fd;
	if (tracefs_instance_exists(name)) {
		if (prev > 0)
			err = reclaim(name, prev, d);
		else
			err = an_diag_fail(d, -EEXIST, "tracefs instance '%s' exists and is not "
					   "ucval's: another tracer's, or a leftover to remove "
					   "with rmdir %s/instances/%s", name,
					   tracefs_tracing_dir(), name);
	}
	if (!err && owner_set(fd, getpid()))
		err = an_diag_fail(d, -errno, "cannot write the owner file of '%s': %s", name,
				   strerror(errno));
	if (err) {
		close(fd);
		return err;
	}
	*owner_fd = fd;
	return 0;
}

int col_record_open(const struct col_record_opts *opts, struct col_record **out,
		    struct an_diag *d)
{
	const char *name = opts->instance ? opts->instance : COL_RECORD_INSTANCE;
	const char *tmpdir = opts->tmpdir ? opts->tmpdir : getenv("TMPDIR");
	struct col_record *rec;
	char num[32];
	int err;

	*out = NULL;
	an_diag_set_file(d, "record", name);
	err = check_tracefs(d);
	if (err)
		return err;
	rec = calloc(1, sizeof(*rec));
	if (!rec)
		return an_diag_fail(d, -ENOMEM, "out of memory");
	rec->marker_fd = -1;
	rec->owner_fd = -1;
	err = claim(name, &rec->owner_fd, d);
	if (err)
		goto out_close;
	rec->inst = tracefs_instance_create(name);
	if (!rec->inst) {
		err = an_diag_fail(d, errno ? -errno : -EIO, "cannot create instance '%s': %s",
				   name, strerror(errno ? errno : EIO));
		goto out_close;
	}
	rec->is_created = true;
	err = write_setting(rec, "tracing_on", "0", d);
	if (!err && opts->buffer_kb) {
		snprintf(num, sizeof(num), "%u", opts->buffer_kb);
		err = write_setting(rec, "buffer_size_kb", num, d);
	}
	if (!err && opts->clock)
		err = write_setting(rec, "trace_clock", opts->clock, d);
	if (!err)
		err = write_setting(rec, "buffer_percent", WAKE_PERCENT, d);
	if (!err)
		err = col_events_find(NULL, opts->extra, opts->nr_extra, &rec->events, d);
	if (err)
		goto out_close;
	rec->page_size = subbuf_size(rec);
	rec->page = malloc(rec->page_size);
	if (!rec->page) {
		err = an_diag_fail(d, -ENOMEM, "out of memory");
		goto out_close;
	}
	err = open_cpus(rec, tmpdir && *tmpdir ? tmpdir : "/tmp", d);
	if (err)
		goto out_close;
	rec->marker_fd = tracefs_instance_file_open(rec->inst, "trace_marker", O_WRONLY);
	if (rec->marker_fd < 0) {
		err = an_diag_fail(d, -errno, "cannot open trace_marker: %s", strerror(errno));
		goto out_close;
	}
	*out = rec;
	return 0;
out_close:
	col_record_close(rec);
	return err;
}

const struct col_events *col_record_events(const struct col_record *rec)
{
	return &rec->events;
}

unsigned int col_record_nr_cpus(const struct col_record *rec)
{
	return rec->nr_cpus;
}

int col_record_start(struct col_record *rec, struct an_diag *d)
{
	int err = write_setting(rec, "tracing_on", "1", d);

	rec->is_started = !err;
	return err;
}

int col_record_marker(struct col_record *rec, const char *line)
{
	size_t len = strlen(line);
	char *buf = malloc(len + 2);
	ssize_t w;

	if (!buf)
		return -ENOMEM;
	memcpy(buf, line, len);
	buf[len] = '\n';
	do
		w = write(rec->marker_fd, buf, len + 1);
	while (w < 0 && errno == EINTR);
	free(buf);
	if (w < 0)
		return -errno;
	return (size_t)w == len + 1 ? 0 : -EIO;
}

static int save_page(struct col_record *rec, unsigned int c, int len, struct an_diag *d)
{
	struct rec_cpu *rc = &rec->cpu[c];
	int done = 0;

	while (done < len) {
		ssize_t w = write(rc->file_fd, rec->page + done, (size_t)(len - done));

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return an_diag_fail(d, w < 0 ? -errno : -EIO, "cannot save the pages of "
					    "cpu %u: %s", c, strerror(w < 0 ? errno : EIO));
		done += (int)w;
	}
	rc->st.bytes += (uint64_t)len;
	return 0;
}

/* Move the full pages of CPU @c (through the splice pipe) to its file. */
static int drain_cpu(struct col_record *rec, unsigned int c, struct an_diag *d)
{
	for (;;) {
		int n = tracefs_cpu_buffered_read(rec->cpu[c].tcpu, rec->page, true);
		int err;

		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			return 0;
		if (n < 0)
			return an_diag_fail(d, -errno, "cannot read the buffer of cpu %u: %s",
					    c, strerror(errno));
		if (n == 0)
			return 0;
		err = save_page(rec, c, n, d);
		if (err)
			return err;
	}
}

int col_record_poll(struct col_record *rec, int timeout_ms, struct an_diag *d)
{
	struct pollfd *pfd = calloc(rec->nr_cpus, sizeof(*pfd));
	int err = 0;

	if (!pfd)
		return an_diag_fail(d, -ENOMEM, "out of memory");
	for (unsigned int c = 0; c < rec->nr_cpus; c++)
		pfd[c] = (struct pollfd){ .fd = rec->cpu[c].raw_fd, .events = POLLIN };
	/* A signal (SIGINT, SIGCHLD) ends the wait: the caller decides. */
	poll(pfd, rec->nr_cpus, timeout_ms);
	free(pfd);
	for (unsigned int c = 0; c < rec->nr_cpus && !err; c++)
		err = drain_cpu(rec, c, d);
	return err;
}

int col_record_halt(struct col_record *rec, struct an_diag *d)
{
	int err = 0;

	if (rec->is_started)
		err = write_setting(rec, "tracing_on", "0", d);
	rec->is_started = false;
	return err;
}

int col_record_stop(struct col_record *rec, struct an_diag *d)
{
	int err = col_record_halt(rec, d);

	for (unsigned int c = 0; c < rec->nr_cpus && !err; c++) {
		err = drain_cpu(rec, c, d);
		/* Then the partial pages, by read(): each comes as a whole page. */
		while (!err) {
			int n = tracefs_cpu_flush(rec->cpu[c].tcpu, rec->page);

			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0)
				err = an_diag_fail(d, -errno, "cannot read the rest of cpu %u: %s",
						   c, strerror(errno));
			if (n <= 0)
				break;
			err = save_page(rec, c, n, d);
		}
	}
	for (unsigned int c = 0; c < rec->nr_cpus && !err; c++)
		col_record_stat(rec, c, &rec->cpu[c].st);
	return err;
}

/* The number after "@key:" in a stats text, 0 when absent. */
static uint64_t stat_value(const char *text, const char *key)
{
	size_t len = strlen(key);

	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, key, len) && p[len] == ':')
			return strtoull(p + len + 1, NULL, 10);
	return 0;
}

int col_record_stat(struct col_record *rec, unsigned int cpu, struct col_cpu_stat *st)
{
	char path[STATS_LEN];
	char *text;

	if (cpu >= rec->nr_cpus)
		return -EINVAL;
	snprintf(path, sizeof(path), "per_cpu/cpu%u/stats", cpu);
	text = tracefs_instance_file_read(rec->inst, path, NULL);
	if (!text)
		return errno ? -errno : -EIO;
	st->entries = stat_value(text, "entries");
	st->overrun = stat_value(text, "overrun");
	st->commit_overrun = stat_value(text, "commit overrun");
	st->dropped = stat_value(text, "dropped events");
	st->read_events = stat_value(text, "read events");
	st->bytes = rec->cpu[cpu].st.bytes;
	free(text);
	return 0;
}

uint64_t col_record_lost(const struct col_cpu_stat *st)
{
	return st->overrun + st->commit_overrun + st->dropped;
}

int col_record_write(struct col_record *rec, const char *path, struct an_diag *d)
{
	int *fds = calloc(rec->nr_cpus, sizeof(*fds));
	struct col_recmeta_src src = {
		.inst = rec->inst, .events = &rec->events, .page_size = rec->page_size,
		.nr_cpus = rec->nr_cpus, .cpu_fds = fds,
		.extra_system = rec->extra_system,
		.instances = rec->has_extra ? &rec->extra : NULL, .nr_instances = rec->has_extra,
	};
	int err;

	if (!fds)
		return an_diag_fail(d, -ENOMEM, "out of memory");
	for (unsigned int c = 0; c < rec->nr_cpus; c++)
		fds[c] = rec->cpu[c].file_fd;
	err = col_recmeta_write(&src, path, d);
	free(fds);
	return err;
}

int col_record_close(struct col_record *rec)
{
	int err = 0;

	if (!rec)
		return 0;
	if (rec->marker_fd >= 0)
		close(rec->marker_fd);
	for (unsigned int c = 0; rec->cpu && c < rec->nr_cpus; c++) {
		struct rec_cpu *rc = &rec->cpu[c];

		if (rc->tcpu)
			tracefs_cpu_free_fd(rc->tcpu);
		if (rc->raw_fd >= 0)
			close(rc->raw_fd);
		if (rc->file_fd >= 0)
			close(rc->file_fd);
	}
	if (rec->inst) {
		if (rec->is_created)
			err = destroy_instance(rec->inst);
		tracefs_instance_free(rec->inst);
	}
	if (rec->owner_fd >= 0) {
		if (!err)
			owner_set(rec->owner_fd, 0);	/* no instance of ours left */
		close(rec->owner_fd);
	}
	col_events_free(&rec->events);
	free(rec->cpu);
	free(rec->page);
	free(rec);
	return err;
}

void col_record_add_instance(struct col_record *rec, const struct col_dat_system *sys,
			     const char *name, const int *cpu_fds)
{
	rec->extra_system = sys;
	rec->extra = (struct col_dat_instance){ name, cpu_fds };
	rec->has_extra = true;
}

unsigned int col_record_page_size(const struct col_record *rec)
{
	return rec->page_size;
}

unsigned int col_record_buffer_kb(const struct col_record *rec)
{
	char *text = tracefs_instance_file_read(rec->inst, "buffer_size_kb", NULL);
	unsigned long kb = text ? strtoul(text, NULL, 10) : 0;

	free(text);
	return kb > UINT_MAX ? UINT_MAX : (unsigned int)kb;
}
