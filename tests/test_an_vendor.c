// SPDX-License-Identifier: MIT
/*
 * tests/test_an_vendor.c - vendor and out-of-tree events, each in the real
 * format of the kernel or module that emits it, decoded by field name into
 * the canonical events (analyze/read/alias.c):
 *  - trace.dat: the Pixel 6 kernel's own format files (../shared/formats/
 *    android-pixel6-5.10, skipped when absent), then the formats of LISA's
 *    module, MediaTek's scheduler module and the proposed policy_frequency,
 *    written here field for field (names, types, the layout the kernel gives
 *    a TP_STRUCT__entry: fields in order at their natural alignment after
 *    the 8-byte common header, __string/__cpumask as 4-byte __data_loc words
 *    with their data after the fixed part). Records are laid out from the
 *    format's offsets and sizes, pages as the ring buffer writes them, and
 *    the file by collect's trace.dat writer (col_datwrite_file());
 *  - ftrace text: lines as each event's print format prints them (the
 *    Pixel's "clamp_id=%d, value=%u" and "capacity=%lu, capacity_orig=%lu"
 *    commas, MediaTek's ", cpus_ptr=0x%x", %*pb cpumasks).
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "analyze/read/reader.h"
#include "analyze/read/textline.h"
#include "collect/datwrite.h"
#include "tests/an_testutil.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define PIXEL_DIR	"formats/android-pixel6-5.10/events"
#define PAGE		4096
#define PAGE_HDR	16		/* u64 timestamp, u64 commit (header_page) */
#define BASE_TS		1000000000ULL	/* the page's timestamp, ns */
#define DELTA_NS	1000		/* between two records */
#define MAX_FIELDS	24
#define MAX_REC		256

static char tmp_dir[256];

static int setup(void **state)
{
	const char *t = getenv("TMPDIR");

	(void)state;
	an_reader_set_quiet(true);
	snprintf(tmp_dir, sizeof(tmp_dir), "%s/ucval-vendor-XXXXXX", t ? t : "/tmp");
	return mkdtemp(tmp_dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	return rmdir(tmp_dir);	/* fails, so the run fails, when a file was left */
}

/* ---- event formats ---- */

struct vf_field {
	char name[64];
	unsigned int off, size;
	bool is_dynamic;		/* __data_loc: a u32 (length << 16 | offset) */
};

struct vf_format {
	unsigned int id;
	char name[64];
	struct vf_field f[MAX_FIELDS];
	unsigned int nr;
	unsigned int fixed;		/* bytes of the fixed part */
};

/* Parse a tracefs format file: its ID, name and fields. */
static void vf_parse(const char *text, struct vf_format *out)
{
	const char *p = text;

	memset(out, 0, sizeof(*out));
	while (p && *p) {
		const char *eol = strchr(p, '\n');
		const char *field = strstr(p, "field:");

		if (!strncmp(p, "name: ", 6))
			sscanf(p + 6, "%63s", out->name);
		else if (!strncmp(p, "ID: ", 4))
			out->id = (unsigned int)strtoul(p + 4, NULL, 10);
		else if (field && (!eol || field < eol)) {
			struct vf_field *f = &out->f[out->nr++];
			const char *semi = strchr(field, ';'), *name = semi;

			assert_true(out->nr <= MAX_FIELDS && semi);
			while (name > field && name[-1] != ' ')
				name--;
			snprintf(f->name, sizeof(f->name), "%.*s", (int)strcspn(name, "[;"), name);
			f->is_dynamic = !strncmp(field + 6, "__data_loc", 10);
			f->off = (unsigned int)strtoul(strstr(semi, "offset:") + 7, NULL, 10);
			f->size = (unsigned int)strtoul(strstr(semi, "size:") + 5, NULL, 10);
			if (f->off + f->size > out->fixed)
				out->fixed = f->off + f->size;
		}
		p = eol ? eol + 1 : NULL;
	}
	assert_true(out->id && out->name[0] && out->nr);
}

/* The text of a shared Pixel format file, or NULL when absent (malloc'd). */
static char *read_text(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static char *pixel_file(const char *rel)
{
	char path[8192];	/* the shared folder's path is up to PATH_MAX */

	snprintf(path, sizeof(path), "%s/" PIXEL_DIR "/%s", an_test_shared(), rel);
	return read_text(path);
}

/*
 * Formats with no file here, written from the public definitions of their
 * events (field names and types only; the layout as the file comment says):
 * LISA's module, lisa/_assets/kmodules/lisa/ftrace_events.h of
 * ARM-software/lisa; MediaTek's scheduler module,
 * drivers/misc/mediatek/sched/eas/eas_trace.h of its device modules; and
 * policy_frequency as proposed on linux-pm ("cpufreq: Replace
 * trace_cpu_frequency with trace_policy_frequency", v3, 2025).
 */
#define VF_COMMON \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
#define VF_FIELD(decl, off, size, sign) \
	"\tfield:" decl ";\toffset:" #off ";\tsize:" #size ";\tsigned:" #sign ";\n"

/* ARM-software/lisa, lisa/_assets/kmodules/lisa/ftrace_events.h */
static const char lisa_util_est_cfs[] =
	"name: lisa__sched_util_est_cfs\nID: 1500\nformat:\n" VF_COMMON
	VF_FIELD("unsigned long util", 8, 8, 0)
	VF_FIELD("unsigned int enqueued", 16, 4, 0)
	VF_FIELD("unsigned int ewma", 20, 4, 0)
	VF_FIELD("int cpu", 24, 4, 1)
	VF_FIELD("__data_loc char[] path", 28, 4, 0)
	"\nprint fmt: \"cpu=%d path=%s enqueued=%u ewma=%u util=%lu\", REC->cpu, "
	"__get_str(path), REC->enqueued, REC->ewma, REC->util\n";

static const char lisa_util_est_cfs_unified[] =
	"name: lisa__sched_util_est_cfs_unified\nID: 1501\nformat:\n" VF_COMMON
	VF_FIELD("unsigned long util", 8, 8, 0)
	VF_FIELD("unsigned int util_est", 16, 4, 0)
	VF_FIELD("int cpu", 20, 4, 1)
	VF_FIELD("__data_loc char[] path", 24, 4, 0)
	"\nprint fmt: \"cpu=%d path=%s util_est=%u util=%lu\", REC->cpu, __get_str(path), "
	"REC->util_est, REC->util\n";

static const char lisa_util_est_se[] =
	"name: lisa__sched_util_est_se\nID: 1502\nformat:\n" VF_COMMON
	VF_FIELD("unsigned long util", 8, 8, 0)
	VF_FIELD("unsigned int enqueued", 16, 4, 0)
	VF_FIELD("unsigned int ewma", 20, 4, 0)
	VF_FIELD("int cpu", 24, 4, 1)
	VF_FIELD("int pid", 28, 4, 1)
	VF_FIELD("__data_loc char[] path", 32, 4, 0)
	VF_FIELD("__data_loc char[] comm", 36, 4, 0)
	"\nprint fmt: \"cpu=%d path=%s comm=%s pid=%d enqueued=%u ewma=%u util=%lu\", "
	"REC->cpu, __get_str(path), __get_str(comm), REC->pid, REC->enqueued, REC->ewma, "
	"REC->util\n";

static const char lisa_util_est_se_unified[] =
	"name: lisa__sched_util_est_se_unified\nID: 1503\nformat:\n" VF_COMMON
	VF_FIELD("unsigned long util", 8, 8, 0)
	VF_FIELD("unsigned int util_est", 16, 4, 0)
	VF_FIELD("int cpu", 20, 4, 1)
	VF_FIELD("int pid", 24, 4, 1)
	VF_FIELD("__data_loc char[] path", 28, 4, 0)
	VF_FIELD("__data_loc char[] comm", 32, 4, 0)
	"\nprint fmt: \"cpu=%d path=%s comm=%s pid=%d util_est=%u util=%lu\", REC->cpu, "
	"__get_str(path), __get_str(comm), REC->pid, REC->util_est, REC->util\n";

/* with FREQ_INVARIANCE: capacity_orig and capacity_curr */
static const char lisa_cpu_capacity[] =
	"name: lisa__sched_cpu_capacity\nID: 1504\nformat:\n" VF_COMMON
	VF_FIELD("unsigned long capacity", 8, 8, 0)
	VF_FIELD("unsigned long capacity_orig", 16, 8, 0)
	VF_FIELD("unsigned long capacity_curr", 24, 8, 0)
	VF_FIELD("int cpu", 32, 4, 1)
	"\nprint fmt: \"cpu=%d capacity=%lu capacity_orig=%lu capacity_curr=%lu\", REC->cpu, "
	"REC->capacity, REC->capacity_orig, REC->capacity_curr\n";

/* with SCHED_AVG_RBL on 5.7+: runnable */
static const char lisa_pelt_se[] =
	"name: lisa__sched_pelt_se\nID: 1505\nformat:\n" VF_COMMON
	VF_FIELD("unsigned long long update_time", 8, 8, 0)
	VF_FIELD("unsigned long load", 16, 8, 0)
	VF_FIELD("unsigned long runnable", 24, 8, 0)
	VF_FIELD("unsigned long util", 32, 8, 0)
	VF_FIELD("int cpu", 40, 4, 1)
	VF_FIELD("int pid", 44, 4, 1)
	VF_FIELD("__data_loc char[] path", 48, 4, 0)
	VF_FIELD("__data_loc char[] comm", 52, 4, 0)
	"\nprint fmt: \"cpu=%d path=%s comm=%s pid=%d load=%lu util=%lu update_time=%llu "
	"runnable=%lu\", REC->cpu, __get_str(path), __get_str(comm), REC->pid, REC->load, "
	"REC->util, REC->update_time, REC->runnable\n";

/* MiCode/MTK_kernel_device_modules, drivers/misc/mediatek/sched/eas/eas_trace.h */
static const char mtk_queue_task[] =
	"name: sched_queue_task\nID: 1600\nformat:\n" VF_COMMON
	VF_FIELD("int cpu", 8, 4, 1)
	VF_FIELD("int pid", 12, 4, 1)
	VF_FIELD("int enqueue", 16, 4, 1)
	VF_FIELD("unsigned long cfs_util", 24, 8, 0)
	VF_FIELD("unsigned int min", 32, 4, 0)
	VF_FIELD("unsigned int max", 36, 4, 0)
	VF_FIELD("unsigned int task_min", 40, 4, 0)
	VF_FIELD("unsigned int task_max", 44, 4, 0)
	"\nprint fmt: \"cpu=%d pid=%d enqueue=%d cfs_util=%lu min=%u max=%u task_min=%u "
	"task_max=%u\", REC->cpu, REC->pid, REC->enqueue, REC->cfs_util, REC->min, REC->max, "
	"REC->task_min, REC->task_max\n";

static const char mtk_task_uclamp[] =
	"name: sched_task_uclamp\nID: 1601\nformat:\n" VF_COMMON
	VF_FIELD("int pid", 8, 4, 1)
	VF_FIELD("unsigned long util", 16, 8, 0)
	VF_FIELD("unsigned int active", 24, 4, 0)
	VF_FIELD("unsigned int min", 28, 4, 0)
	VF_FIELD("unsigned int max", 32, 4, 0)
	VF_FIELD("unsigned int min_ud", 36, 4, 0)
	VF_FIELD("unsigned int min_req", 40, 4, 0)
	VF_FIELD("unsigned int max_ud", 44, 4, 0)
	VF_FIELD("unsigned int max_req", 48, 4, 0)
	"\nprint fmt: \"pid=%d util=%lu active=%u min=%u max=%u min_ud=%u min_req=%u max_ud=%u "
	"max_req=%u\", REC->pid, REC->util, REC->active, REC->min, REC->max, REC->min_ud, "
	"REC->min_req, REC->max_ud, REC->max_req\n";

/*
 * "[PATCH v3 1/2] cpufreq: Replace trace_cpu_frequency with
 * trace_policy_frequency" (linux-pm, 2025-12-01): u32 state, u32 cpu_id,
 * __cpumask(cpumask), a __data_loc cpumask_t of unsigned longs. Its
 * TP_printk prints the mask with %*pb (hex); the print fmt here is the
 * kernel's usual one for a cpumask field: no release has the event, and
 * ucval reads the fields by name, not through the print fmt.
 */
static const char policy_frequency[] =
	"name: policy_frequency\nID: 1700\nformat:\n" VF_COMMON
	VF_FIELD("u32 state", 8, 4, 0)
	VF_FIELD("u32 cpu_id", 12, 4, 0)
	VF_FIELD("__data_loc cpumask_t cpumask", 16, 4, 0)
	"\nprint fmt: \"state=%lu cpu_id=%lu policy_cpus=%s\", (unsigned long)REC->state, "
	"(unsigned long)REC->cpu_id, __get_cpumask(cpumask)\n";

/* ---- records and pages ---- */

/* A field's value: a number, a string, or raw bytes (a cpumask's longs). */
struct vf_val {
	const char *name;
	long long num;
	const char *str;
	const void *bytes;
	size_t nr_bytes;
};

static void put_num(unsigned char *p, unsigned long long v, unsigned int size)
{
	for (unsigned int i = 0; i < size; i++)
		p[i] = (unsigned char)(v >> (8 * i));	/* little endian */
}

/* A record of @f with the given field values, laid out by the format. */
static size_t vf_record(const struct vf_format *f, int pid, const struct vf_val *v,
			size_t nr, unsigned char out[MAX_REC])
{
	size_t len = f->fixed;

	memset(out, 0, MAX_REC);
	put_num(out, f->id, 2);
	put_num(out + 4, (unsigned int)pid, 4);
	for (size_t i = 0; i < nr; i++) {
		const struct vf_field *fd = NULL;

		for (unsigned int k = 0; k < f->nr && !fd; k++)
			if (!strcmp(f->f[k].name, v[i].name))
				fd = &f->f[k];
		if (!fd)
			fail_msg("%s has no field %s", f->name, v[i].name);
		if (fd->is_dynamic) {
			const void *data = v[i].str ? (const void *)v[i].str : v[i].bytes;
			size_t n = v[i].str ? strlen(v[i].str) + 1 : v[i].nr_bytes;

			assert_true(len + n <= MAX_REC);
			memcpy(out + len, data, n);
			put_num(out + fd->off, (n << 16) | len, 4);
			len += n;
		} else if (v[i].str) {
			memcpy(out + fd->off, v[i].str, strnlen(v[i].str, fd->size));
		} else {
			put_num(out + fd->off, (unsigned long long)v[i].num, fd->size);
		}
	}
	return len;
}

struct page {
	unsigned char b[PAGE];
	size_t len;			/* of the data after the header */
};

/* Append a record as the ring buffer does (type_len, or 0 and a length word). */
static void page_add(struct page *pg, const unsigned char *rec, size_t len)
{
	size_t padded = (len + 3) & ~(size_t)3;
	unsigned char *p = pg->b + PAGE_HDR + pg->len;

	if (padded <= 112) {
		put_num(p, (padded / 4) | ((uint64_t)DELTA_NS << 5), 4);
		p += 4;
		pg->len += 4;
	} else {
		put_num(p, (uint64_t)DELTA_NS << 5, 4);
		put_num(p + 4, padded + 4, 4);
		p += 8;
		pg->len += 8;
	}
	assert_true(PAGE_HDR + pg->len + padded <= PAGE);
	memset(p, 0, padded);
	memcpy(p, rec, len);
	pg->len += padded;
	put_num(pg->b, BASE_TS, 8);
	put_num(pg->b + 8, pg->len, 8);
}

struct vf_rec {
	const struct vf_format *fmt;
	struct vf_val v[10];
};

#define N(n, x)		{ .name = (n), .num = (x) }
#define S(n, x)		{ .name = (n), .str = (x) }
#define B(n, x, len)	{ .name = (n), .bytes = (x), .nr_bytes = (len) }

/* Write a one-CPU trace.dat of @recs at @path, @systems its formats. */
static void write_dat(const char *path, const char *header_page, const char *header_event,
		      const char *print_fmt, const struct col_dat_system *systems,
		      unsigned int nr_systems, const char *uname, const struct vf_rec *recs,
		      size_t nr_recs)
{
	static struct page pg;
	const struct col_dat_blob ftrace = { print_fmt, strlen(print_fmt) };
	const struct col_dat_option opt = { 5, uname, (uint32_t)strlen(uname) + 1 };
	struct col_dat_input in = {
		.page_size = PAGE, .long_size = 8,
		.header_page = { header_page, strlen(header_page) },
		.header_event = { header_event, strlen(header_event) },
		.ftrace = &ftrace, .nr_ftrace = 1, .systems = systems, .nr_systems = nr_systems,
		.cmdlines = { "100 a\n", 6 }, .options = &opt, .nr_options = 1, .nr_cpus = 1,
	};
	struct an_diag d;
	int fd;

	memset(&pg, 0, sizeof(pg));
	for (size_t i = 0; i < nr_recs; i++) {
		unsigned char rec[MAX_REC];
		size_t n = 0;

		while (n < ARRAY_SIZE(recs[i].v) && recs[i].v[n].name)
			n++;
		page_add(&pg, rec, vf_record(recs[i].fmt, 100, recs[i].v, n, rec));
	}
	fd = memfd_create("cpu0", MFD_CLOEXEC);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, pg.b, PAGE), PAGE);
	in.cpu_fds = &fd;
	assert_int_equal(col_datwrite_file(path, &in, &d), 0);
	close(fd);
}

/* Read @path and compare each event, rendered, with @want. */
static void check_dat(const char *path, const char *const *want, size_t nr_want)
{
	struct an_reader *r;
	struct an_event ev;
	struct an_diag d;
	char got[1024], msg[1024];
	size_t n = 0;
	int rc;

	assert_int_equal(an_reader_open(path, &r, &d), 0);
	while ((rc = an_reader_next(r, &ev, &d)) != 0) {
		if (rc < 0) {
			an_diag_format(&d, msg, sizeof(msg));
			fail_msg("%s: %s", path, msg);
		}
		an_test_render(&ev, got, sizeof(got));
		if (n >= nr_want || strcmp(got, want[n]))
			fail_msg("%s event %zu (%s): got '%s' want '%s'", path, n, ev.name, got,
				 n < nr_want ? want[n] : "(end)");
		n++;
	}
	assert_int_equal(n, nr_want);
	an_reader_close(r);
}

/* ---- trace.dat with the Pixel 6 formats ---- */

static const char *const pixel_events[] = {
	"sched/sched_setscheduler_uclamp", "sched/schedutil_cpu_util_clamp",
	"sched/sugov_util_update", "sched/sugov_next_freq", "sched/sched_pelt_cfs",
	"sched/sched_pelt_se", "sched/sched_util_est_cfs", "sched/sched_util_est_se",
	"sched/sched_cpu_capacity", "power/cpu_frequency",
};

static const char *const pixel_want[] = {
	"uclamp_request cpu=0 pid=100 comm=a pid=100 clamp_id=0 value=512",
	"schedutil_util cpu=0 pid=100 cpu=0 util_cfs=250 util_rt=3 util_clamp=512 util_max=1024",
	"sugov_util_update cpu=0 pid=100 cpu=0 util=512 max_cap=1024 flags=2",
	"sugov_util_update cpu=0 pid=100 cpu=0 util=512 max_cap=1024 freq=1250000",
	"sched_pelt_cfs cpu=0 pid=100 cpu=0 path=/ util=200",
	"sched_pelt_se cpu=0 pid=100 cpu=0 path=/ comm=a pid=100 util=180",
	"sched_util_est_cfs cpu=0 pid=100 cpu=0 path=/ enqueued=250 ewma=240 util=200",
	"sched_util_est_se cpu=0 pid=100 cpu=0 path=/ comm=a pid=100 enqueued=250 ewma=240 util=180",
	"sched_cpu_capacity cpu=0 pid=100 cpu=4 capacity=600 capacity_orig=620",
	"cpu_frequency cpu=0 pid=100 state=1500000 cpu_id=0",
};

static void test_dat_pixel6(void **state)
{
	char *text[ARRAY_SIZE(pixel_events)], *hp, *he, *pr;
	struct vf_format fmt[ARRAY_SIZE(pixel_events)];
	struct col_dat_blob sched[9], power[1];
	const struct col_dat_system systems[] = { { "sched", sched, 9 }, { "power", power, 1 } };
	char path[512];

	(void)state;
	hp = pixel_file("header_page");
	he = pixel_file("header_event");
	pr = pixel_file("ftrace/print/format");
	if (!hp || !he || !pr) {
		printf("# skip: %s/" PIXEL_DIR " not found (set UCVAL_SHARED)\n", an_test_shared());
		free(hp);
		free(he);
		free(pr);
		skip();
	}
	for (size_t i = 0; i < ARRAY_SIZE(pixel_events); i++) {
		char rel[128];

		snprintf(rel, sizeof(rel), "%s/format", pixel_events[i]);
		text[i] = pixel_file(rel);
		assert_non_null(text[i]);
		vf_parse(text[i], &fmt[i]);
		if (i < 9)
			sched[i] = (struct col_dat_blob){ text[i], strlen(text[i]) };
		else
			power[0] = (struct col_dat_blob){ text[i], strlen(text[i]) };
	}
	{
		const struct vf_rec recs[] = {
			{ &fmt[0], { S("comm", "a"), N("pid", 100), N("clamp_id", 0),
				     N("value", 512) } },
			{ &fmt[1], { N("cpu", 0), N("util_cfs", 250), N("util_rt", 3),
				     N("util_clamp", 512), N("util_max", 1024) } },
			{ &fmt[2], { N("cpu", 0), N("util", 512), N("max_cap", 1024),
				     N("flags", 2) } },
			{ &fmt[3], { N("cpu", 0), N("util", 512), N("max", 1024),
				     N("freq", 1250000) } },
			{ &fmt[4], { N("cpu", 0), S("path", "/"), N("load", 300),
				     N("runnable", 310), N("util", 200) } },
			{ &fmt[5], { N("cpu", 0), S("path", "/"), S("comm", "a"),
				     N("pid", 100), N("load", 280), N("runnable", 290),
				     N("util", 180), N("update_time", 123456789) } },
			{ &fmt[6], { N("cpu", 0), S("path", "/"), N("enqueued", 250),
				     N("ewma", 240), N("util", 200) } },
			{ &fmt[7], { N("cpu", 0), S("path", "/"), S("comm", "a"),
				     N("pid", 100), N("enqueued", 250), N("ewma", 240),
				     N("util", 180) } },
			{ &fmt[8], { N("cpu", 4), N("capacity", 600), N("capacity_orig", 620) } },
			{ &fmt[9], { N("state", 1500000), N("cpu_id", 0) } },
		};

		snprintf(path, sizeof(path), "%s/pixel6.dat", tmp_dir);
		write_dat(path, hp, he, pr, systems, ARRAY_SIZE(systems),
			  "Linux raven 5.10.43-android12-9 #1 SMP PREEMPT aarch64", recs,
			  ARRAY_SIZE(recs));
	}
	check_dat(path, pixel_want, ARRAY_SIZE(pixel_want));
	unlink(path);
	for (size_t i = 0; i < ARRAY_SIZE(pixel_events); i++)
		free(text[i]);
	free(hp);
	free(he);
	free(pr);
}

/* ---- trace.dat with LISA's, MediaTek's and policy_frequency's formats ---- */

static const char header_page[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n";

static const char header_event[] =
	"# compressed entry header\n"
	"\ttype_len    :    5 bits\n"
	"\ttime_delta  :   27 bits\n"
	"\tarray       :   32 bits\n\n"
	"\tpadding     : type == 29\n"
	"\ttime_extend : type == 30\n"
	"\ttime_stamp : type == 31\n"
	"\tdata max type_len  == 28\n";

static const char print_fmt[] =
	"name: print\nID: 5\nformat:\n" VF_COMMON
	VF_FIELD("unsigned long ip", 8, 8, 0)
	VF_FIELD("char buf[]", 16, 0, 0)
	"\nprint fmt: \"%ps: %s\", (void *)REC->ip, REC->buf\n";

static const char *const others_want[] = {
	"sched_util_est_cfs cpu=0 pid=100 cpu=1 path=/ enqueued=300 ewma=280 util=120",
	"sched_util_est_cfs cpu=0 pid=100 cpu=1 path=/ enqueued=310 util=130",
	"sched_util_est_se cpu=0 pid=100 cpu=1 path=/app comm=w pid=300 enqueued=90 ewma=80 util=70",
	"sched_util_est_se cpu=0 pid=100 cpu=1 path=/app comm=w pid=300 enqueued=95 util=72",
	"sched_cpu_capacity cpu=0 pid=100 cpu=2 capacity=1000 capacity_orig=1024 capacity_curr=512",
	"sched_pelt_se cpu=0 pid=100 cpu=1 path=/app comm=w pid=300 util=71",
	"sched_queue_task cpu=0 pid=100 cpu=2 pid=300 enqueue=-1 cfs_util=400 min=128 max=900 "
	"task_min=128 task_max=900",
	"sched_task_uclamp cpu=0 pid=100 pid=300 util=77 active=1 min=128 max=900 min_ud=1 "
	"min_req=128 max_ud=0 max_req=1024",
	"cpu_frequency cpu=0 pid=100 state=1800000 cpu_id=4 cpumask=0xf0",
};

static void test_dat_lisa_mtk_policy(void **state)
{
	static const char *const lisa_text[] = {
		lisa_util_est_cfs, lisa_util_est_cfs_unified, lisa_util_est_se,
		lisa_util_est_se_unified, lisa_cpu_capacity, lisa_pelt_se,
	};
	static const char *const mtk_text[] = { mtk_queue_task, mtk_task_uclamp };
	struct col_dat_blob lisa[6], mtk[2], power[1];
	const struct col_dat_system systems[] = {
		{ "lisa", lisa, 6 }, { "scheduler", mtk, 2 }, { "power", power, 1 },
	};
	struct vf_format f[9];
	const unsigned long long mask = 0xf0;	/* one unsigned long: CPUs 4..7 */
	char path[512];

	(void)state;
	for (size_t i = 0; i < 6; i++) {
		lisa[i] = (struct col_dat_blob){ lisa_text[i], strlen(lisa_text[i]) };
		vf_parse(lisa_text[i], &f[i]);
	}
	for (size_t i = 0; i < 2; i++) {
		mtk[i] = (struct col_dat_blob){ mtk_text[i], strlen(mtk_text[i]) };
		vf_parse(mtk_text[i], &f[6 + i]);
	}
	power[0] = (struct col_dat_blob){ policy_frequency, strlen(policy_frequency) };
	vf_parse(policy_frequency, &f[8]);
	{
		const struct vf_rec recs[] = {
			{ &f[0], { N("cpu", 1), S("path", "/"), N("enqueued", 300),
				   N("ewma", 280), N("util", 120) } },
			{ &f[1], { N("cpu", 1), S("path", "/"), N("util_est", 310),
				   N("util", 130) } },
			{ &f[2], { N("cpu", 1), S("path", "/app"), S("comm", "w"),
				   N("pid", 300), N("enqueued", 90), N("ewma", 80),
				   N("util", 70) } },
			{ &f[3], { N("cpu", 1), S("path", "/app"), S("comm", "w"),
				   N("pid", 300), N("util_est", 95), N("util", 72) } },
			{ &f[4], { N("cpu", 2), N("capacity", 1000), N("capacity_orig", 1024),
				   N("capacity_curr", 512) } },
			{ &f[5], { N("cpu", 1), S("path", "/app"), S("comm", "w"),
				   N("pid", 300), N("load", 70), N("runnable", 75),
				   N("util", 71), N("update_time", 987654321) } },
			{ &f[6], { N("cpu", 2), N("pid", 300), N("enqueue", -1),
				   N("cfs_util", 400), N("min", 128), N("max", 900),
				   N("task_min", 128), N("task_max", 900) } },
			{ &f[7], { N("pid", 300), N("util", 77), N("active", 1), N("min", 128),
				   N("max", 900), N("min_ud", 1), N("min_req", 128),
				   N("max_ud", 0), N("max_req", 1024) } },
			{ &f[8], { N("state", 1800000), N("cpu_id", 4),
				   B("cpumask", &mask, sizeof(mask)) } },
		};

		snprintf(path, sizeof(path), "%s/others.dat", tmp_dir);
		write_dat(path, header_page, header_event, print_fmt, systems, ARRAY_SIZE(systems),
			  "Linux host 6.12.0 #1 SMP PREEMPT aarch64", recs, ARRAY_SIZE(recs));
	}
	check_dat(path, others_want, ARRAY_SIZE(others_want));
	unlink(path);
}

/* A cpumask with a CPU above 63 set is a clear error, not a wrong mask. */
static void test_dat_cpumask_too_wide(void **state)
{
	struct col_dat_blob power[1] = { { policy_frequency, strlen(policy_frequency) } };
	const struct col_dat_system systems[] = { { "power", power, 1 } };
	const unsigned long long mask[2] = { 0x1, 0x1 };	/* CPUs 0 and 64 */
	struct vf_format f;
	struct an_reader *r;
	struct an_event ev;
	struct an_diag d;
	char path[512], msg[1024];

	(void)state;
	vf_parse(policy_frequency, &f);
	{
		const struct vf_rec recs[] = {
			{ &f, { N("state", 1000000), N("cpu_id", 0),
				B("cpumask", mask, sizeof(mask)) } },
		};

		snprintf(path, sizeof(path), "%s/wide.dat", tmp_dir);
		write_dat(path, header_page, header_event, print_fmt, systems, 1,
			  "Linux host 6.12.0 #1 SMP aarch64", recs, 1);
	}
	assert_int_equal(an_reader_open(path, &r, &d), 0);
	assert_int_equal(an_reader_next(r, &ev, &d), AN_E_VALUE);
	an_diag_format(&d, msg, sizeof(msg));
	assert_non_null(strstr(msg, "a CPU above 63 in 'cpumask'"));
	an_reader_close(r);
	unlink(path);
}

/* ---- ftrace text, as each print format prints ---- */

static const struct {
	const char *what;
	const char *line;
	const char *want;	/* an_test_render() */
} text_cases[] = {
	{ "Pixel 6 sched_setscheduler_uclamp: \"clamp_id=%d, value=%u\"",
	  "a-100 [000] d..2 25.000050: sched_setscheduler_uclamp: pid=100 comm=a clamp_id=0, value=512",
	  "uclamp_request cpu=0 pid=100 comm=a pid=100 clamp_id=0 value=512" },
	{ "Pixel 6 schedutil_cpu_util_clamp (%ld)",
	  "a-100 [000] d..2 25.001500: schedutil_cpu_util_clamp: cpu=0 util_cfs=250 util_rt=0 util_clamp=512 util_max=1024",
	  "schedutil_util cpu=0 pid=100 cpu=0 util_cfs=250 util_rt=0 util_clamp=512 util_max=1024" },
	{ "Pixel 6 sugov_util_update (flags=0x%x)",
	  "a-100 [000] d..2 25.001600: sugov_util_update: cpu=0 util=512 max_cap=1024 flags=0x0",
	  "sugov_util_update cpu=0 pid=100 cpu=0 util=512 max_cap=1024 flags=0" },
	{ "Pixel 6 sugov_next_freq",
	  "a-100 [000] d..2 25.001700: sugov_next_freq: cpu=0 util=512 max=1024 freq=1250000",
	  "sugov_util_update cpu=0 pid=100 cpu=0 util=512 max_cap=1024 freq=1250000" },
	{ "Pixel 6 sched_pelt_cfs (load, runnable)",
	  "a-100 [000] d..2 25.001100: sched_pelt_cfs: cpu=0 path=/ load=310 runnable=320 util=200",
	  "sched_pelt_cfs cpu=0 pid=100 cpu=0 path=/ util=200" },
	{ "Pixel 6 sched_pelt_se",
	  "a-100 [000] d..2 25.001300: sched_pelt_se: cpu=0 path=/ comm=a pid=100 load=300 runnable=310 util=200 update_time=25001300000",
	  "sched_pelt_se cpu=0 pid=100 cpu=0 path=/ comm=a pid=100 util=200" },
	{ "Pixel 6 sched_util_est_cfs",
	  "a-100 [000] d..2 25.001200: sched_util_est_cfs: cpu=0 path=/ enqueued=250 ewma=240 util=200",
	  "sched_util_est_cfs cpu=0 pid=100 cpu=0 path=/ enqueued=250 ewma=240 util=200" },
	{ "Pixel 6 sched_util_est_se",
	  "a-100 [000] d..2 25.001400: sched_util_est_se: cpu=0 path=/ comm=a pid=100 enqueued=250 ewma=240 util=200",
	  "sched_util_est_se cpu=0 pid=100 cpu=0 path=/ comm=a pid=100 enqueued=250 ewma=240 util=200" },
	{ "Pixel 6 sched_cpu_capacity: \"capacity=%lu, capacity_orig=%lu\"",
	  "<idle>-0 [004] d.s2 25.002000: sched_cpu_capacity: cpu=4 capacity=600, capacity_orig=620",
	  "sched_cpu_capacity cpu=4 pid=0 cpu=4 capacity=600 capacity_orig=620" },
	{ "LISA lisa__sched_util_est_cfs_unified (6.8+)",
	  "a-100 [001] d..2 3.000000: lisa__sched_util_est_cfs_unified: cpu=1 path=/ util_est=310 util=130",
	  "sched_util_est_cfs cpu=1 pid=100 cpu=1 path=/ enqueued=310 util=130" },
	{ "LISA lisa__sched_util_est_se_unified (6.8+)",
	  "a-100 [001] d..2 3.000000: lisa__sched_util_est_se_unified: cpu=1 path=/app comm=w pid=300 util_est=95 util=72",
	  "sched_util_est_se cpu=1 pid=100 cpu=1 path=/app comm=w pid=300 enqueued=95 util=72" },
	{ "LISA lisa__sched_cpu_capacity",
	  "<idle>-0 [002] d.s2 3.000000: lisa__sched_cpu_capacity: cpu=2 capacity=1000 capacity_orig=1024 capacity_curr=512",
	  "sched_cpu_capacity cpu=2 pid=0 cpu=2 capacity=1000 capacity_orig=1024 capacity_curr=512" },
	{ "MediaTek sched_queue_task",
	  "w-300 [002] d..2 3.000000: sched_queue_task: cpu=2 pid=300 enqueue=-1 cfs_util=400 min=128 max=900 task_min=128 task_max=900",
	  "sched_queue_task cpu=2 pid=300 cpu=2 pid=300 enqueue=-1 cfs_util=400 min=128 max=900 task_min=128 task_max=900" },
	{ "MediaTek sched_queue_task with \", cpus_ptr=0x%x\"",
	  "<idle>-0 [002] d..2 3.000000: sched_queue_task: cpu=2 pid=300 enqueue=1 cfs_util=40 min=128 max=900 task_min=128 task_max=900, cpus_ptr=0xff",
	  "sched_queue_task cpu=2 pid=0 cpu=2 pid=300 enqueue=1 cfs_util=40 min=128 max=900 task_min=128 task_max=900" },
	{ "MediaTek sched_task_uclamp",
	  "w-300 [002] d..2 3.000000: sched_task_uclamp: pid=300 util=77 active=1 min=128 max=900 min_ud=1 min_req=128 max_ud=0 max_req=1024",
	  "sched_task_uclamp cpu=2 pid=300 pid=300 util=77 active=1 min=128 max=900 min_ud=1 min_req=128 max_ud=0 max_req=1024" },
	{ "policy_frequency (v3 proposal): policy_cpus=%*pb",
	  "<idle>-0 [004] d..2 3.000000: policy_frequency: state=1800000 cpu_id=4 policy_cpus=f0",
	  "cpu_frequency cpu=4 pid=0 state=1800000 cpu_id=4 cpumask=0xf0" },
	{ "policy_frequency, %*pb of more than 32 CPUs",
	  "<idle>-0 [004] d..2 3.000000: policy_frequency: state=1800000 cpu_id=36 policy_cpus=000000f0,00000000",
	  "cpu_frequency cpu=4 pid=0 state=1800000 cpu_id=36 cpumask=0xf000000000" },
	{ "policy_frequency as trace-cmd report prints a cpumask (a list)",
	  "<idle>-0 [004] 3.000000: policy_frequency: state=1800000 cpu_id=4 policy_cpus=4-7",
	  "cpu_frequency cpu=4 pid=0 state=1800000 cpu_id=4 cpumask=0xf0" },
	{ "policy_frequency, a list of single CPUs",
	  "<idle>-0 [004] 3.000000: policy_frequency: state=1800000 cpu_id=0 policy_cpus=0,2,63",
	  "cpu_frequency cpu=4 pid=0 state=1800000 cpu_id=0 cpumask=0x8000000000000005" },
	{ "policy_frequency (first proposal): frequency, policy_cpu",
	  "<idle>-0 [004] d..2 3.000000: policy_frequency: frequency=1800000 policy_cpu=4",
	  "cpu_frequency cpu=4 pid=0 state=1800000 cpu_id=4" },
};

static void test_text_lines(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(text_cases); i++) {
		char line[1024], got[1024], msg[1024];
		struct an_textline_extra x;
		struct an_event ev;
		struct an_diag d;
		size_t len = strlen(text_cases[i].line);
		int rc;

		memcpy(line, text_cases[i].line, len + 1);
		rc = an_textline_parse(line, len, &ev, &x, &d);
		if (rc != AN_TEXTLINE_EVENT) {
			an_diag_format(&d, msg, sizeof(msg));
			fail_msg("%s: rc %d: %s", text_cases[i].what, rc, msg);
		}
		an_test_render(&ev, got, sizeof(got));
		if (strcmp(got, text_cases[i].want))
			fail_msg("%s: got '%s' want '%s'", text_cases[i].what, got,
				 text_cases[i].want);
	}
}

/* A bad cpumask or a CPU above 63: the field is named in the error. */
static void test_text_bad_cpumask(void **state)
{
	static const char *const bad[] = {
		"<idle>-0 [004] d..2 3.0: policy_frequency: state=1 cpu_id=0 policy_cpus=0g",
		"<idle>-0 [004] d..2 3.0: policy_frequency: state=1 cpu_id=0 policy_cpus=1,00000000,00000000",
		"<idle>-0 [004] d..2 3.0: policy_frequency: state=1 cpu_id=0 policy_cpus=0-64",
		"<idle>-0 [004] d..2 3.0: policy_frequency: state=1 cpu_id=0 policy_cpus=3-1",
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		char line[256];
		struct an_textline_extra x;
		struct an_event ev;
		struct an_diag d;

		snprintf(line, sizeof(line), "%s", bad[i]);
		assert_int_equal(an_textline_parse(line, strlen(line), &ev, &x, &d), AN_E_VALUE);
		assert_string_equal(d.field, "cpumask");
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dat_pixel6),
		cmocka_unit_test(test_dat_lisa_mtk_policy),
		cmocka_unit_test(test_dat_cpumask_too_wide),
		cmocka_unit_test(test_text_lines),
		cmocka_unit_test(test_text_bad_cpumask),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
