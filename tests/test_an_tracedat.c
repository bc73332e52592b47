// SPDX-License-Identifier: MIT
/*
 * tests/test_an_tracedat.c - the trace.dat reader: the Juno trace (figures
 * checked with trace-cmd report), the same trace as trace-cmd report text and
 * as v7 (plain and compressed) decoding to identical events, a synthetic
 * trace.dat built in memory (aliases, lost events, missing fields, UNAME),
 * truncated or corrupt files, and the page reader (datpages.c) against
 * libtracecmd's records.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <event-parse.h>

#include "analyze/read/dat/datcheck.h"
#include "analyze/read/dat/datformat.h"
#include "analyze/read/reader.h"
#include "tests/an_datwriter.h"
#include "tests/an_testutil.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define JUNO "juno-r0-schedutil-sched_load.dat"
#define JUNO_SIZE 3436544ULL		/* bytes of the Juno trace.dat */
#define NS_PER_US 1000ULL
#define ANY_OUTCOME 2			/* open_bytes(): only no crash, no leak */

static char tmp_dir[256];

static int setup(void **state)
{
	(void)state;
	an_reader_set_quiet(true);
	snprintf(tmp_dir, sizeof(tmp_dir), "%s", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	return 0;
}

static void tmp_path(char *path, size_t size, const char *tag)
{
	int fd;

	snprintf(path, size, "%s/ucval-%s-XXXXXX", tmp_dir, tag);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
}

static void write_file(const char *path, const void *data, size_t len)
{
	FILE *fp = fopen(path, "wb");

	assert_non_null(fp);
	assert_int_equal(fwrite(data, 1, len, fp), len);
	assert_int_equal(fclose(fp), 0);
}

/* The synthetic trace.dat @spec describes, in a new temporary file @path. */
static void write_spec(const struct dw_spec *spec, const char *tag, char *path, size_t size)
{
	struct dw w;

	dw_build_spec(&w, spec);
	tmp_path(path, size, tag);
	write_file(path, w.p, w.len);
	free(w.p);
}

/*
 * "ucval synth @options" into a new temporary file @path named after @tag;
 * false, with a skip line, when UCVAL (the ucval binary) is not set.
 */
static bool synth_dat(const char *options, const char *tag, char *path, size_t size)
{
	const char *ucval = getenv("UCVAL");
	char cmd[2048];

	if (!ucval) {
		printf("# skip: UCVAL (the ucval binary, for ucval synth) is not set\n");
		return false;
	}
	tmp_path(path, size, tag);
	an_test_fmt(cmd, sizeof(cmd), "'%s' synth -q -o '%s' %s", ucval, path, options);
	assert_int_equal(system(cmd), 0);
	return true;
}


static bool have_trace_cmd(void)
{
	if (system("command -v trace-cmd >/dev/null 2>&1") == 0)
		return true;
	printf("# skip: trace-cmd not installed\n");
	return false;
}

/* Run "trace-cmd @args" with output to @out; false when it failed. */
static bool run_trace_cmd(const char *args, const char *out)
{
	char cmd[2048];

	an_test_fmt(cmd, sizeof(cmd), "trace-cmd %s > '%s' 2>/dev/null", args, out);
	return system(cmd) == 0;
}

/*
 * @src as "trace-cmd convert @options" writes it, into a new temporary file
 * @out (@len bytes) named after @tag; false, with a skip line for @what,
 * when trace-cmd is not installed.
 */
static bool convert_dat(const char *src, const char *options, const char *tag,
			const char *what, char *out, size_t len)
{
	char args[2048];

	if (!have_trace_cmd()) {
		printf("# skip %s: no trace-cmd to convert with\n", what);
		return false;
	}
	tmp_path(out, len, tag);
	an_test_fmt(args, sizeof(args), "convert %s -i '%s' -o '%s'", options, src, out);
	if (!run_trace_cmd(args, "/dev/null"))
		fail_msg("trace-cmd %s failed", args);
	return true;
}

static void test_dat_juno(void **state)
{
	static const struct { const char *name; unsigned long long n; } want[] = {
		{ "sched_switch", 399 }, { "cpu_frequency", 16 }, { "sched_load_cfs_rq", 2437 },
		{ "sched_load_se", 364 }, { "cpu_idle", 474 }, { "sched_migrate_task", 28 },
		{ "print", 6 },
	};
	/* Spot checks, by position in the merged stream (1-based). */
	static const struct { unsigned long long n; const char *render; } spots[] = {
		{ 1, "cpu_idle cpu=2 pid=0 state=4294967295 cpu_id=2" },
		{ 3, "sched_pelt_cfs cpu=2 pid=0 cpu=2 path=/ util=0" },
	};
	unsigned long long counts[ARRAY_SIZE(want)] = { 0 }, n = 0, first = 0, last = 0;
	unsigned int nr_switch = 0, nr_print = 0, nr_freq = 0;
	const struct an_reader_info *info;
	struct an_reader *r;
	struct an_event ev;
	struct an_diag d;
	char path[1024], got[1024];
	int rc;

	(void)state;
	if (!an_test_trace(JUNO, path, sizeof(path)))
		skip();
	assert_int_equal(an_reader_open(path, &r, &d), 0);
	while ((rc = an_reader_next(r, &ev, &d)) > 0) {
		if (!n++)
			first = ev.ts_ns;
		last = ev.ts_ns;
		for (size_t k = 0; k < ARRAY_SIZE(want); k++)
			counts[k] += !strcmp(ev.name, want[k].name);
		an_test_render(&ev, got, sizeof(got));
		for (size_t k = 0; k < ARRAY_SIZE(spots); k++)
			if (spots[k].n == n && strcmp(got, spots[k].render))
				fail_msg("event %llu: '%s' want '%s'", n, got, spots[k].render);
		if (ev.type == AN_EV_SCHED_SWITCH && !nr_switch++)
			assert_string_equal(got, "sched_switch cpu=2 pid=0 prev_comm=swapper/2 prev_pid=0 "
					    "prev_prio=120 prev_state=R next_comm=kworker/2:1 next_pid=2923 "
					    "next_prio=120");
		if (ev.type == AN_EV_PRINT && !nr_print++)
			assert_string_equal(got, "print cpu=1 pid=3106 buf='cpu_frequency_devlib:        "
					    "state=450000 cpu_id=0'");
		if (ev.type == AN_EV_CPU_FREQUENCY && !nr_freq++) {
			assert_int_equal(ev.freq.freq_khz, 850000);
			assert_int_equal(ev.ts_ns, 2084143679940ULL);
		}
	}
	if (rc)
		fail_msg("record %llu: %s", d.record, d.message);
	for (size_t k = 0; k < ARRAY_SIZE(want); k++)
		if (counts[k] != want[k].n)
			fail_msg("%s: %llu want %llu", want[k].name, counts[k], want[k].n);
	info = an_reader_info(r);
	assert_int_equal(n, 3724);
	assert_int_equal(first, 2084021442860ULL);
	assert_int_equal(last, 2084449525380ULL);
	assert_int_equal(info->format, AN_FORMAT_TRACEDAT);
	assert_int_equal(info->file_version, 6);
	assert_string_equal(info->compression, "");
	assert_int_equal(info->nr_cpus, 6);
	/* recorded without a UNAME option: the release (4.11.0-rc6) is not in it */
	assert_string_equal(info->kernel_release, "");
	assert_int_equal(info->nr_errors, 0);
	assert_int_equal(info->nr_lost + info->nr_lost_unknown, 0);
	assert_int_equal(info->nr_unknown, 364);	/* sched_load_se */
	/*
	 * Its formats are every event of the kernel (saved like `trace-cmd
	 * extract` does): sched_wakeup's is there although none was recorded.
	 */
	assert_int_equal(info->ev_list, AN_EV_LIST_FORMATS);
	assert_true(info->ev_listed & AN_EV_BIT(AN_EV_SCHED_WAKEUP));
	assert_true(info->ev_listed & AN_EV_BIT(AN_EV_SCHED_MIGRATE_TASK));
	assert_true(info->ev_listed & AN_EV_BIT(AN_EV_SCHED_PELT_CFS));	/* its 4.x name */
	/*
	 * Regression: its xhci events' "case 3: s = ..." labels were taken for a
	 * condition's ':' (else_operand_crashes()), five formats emptied.
	 */
	assert_int_equal(info->nr_formats_blanked, 0);
	an_reader_close(r);
}

/* Canonical form for comparing two readers; @strip_plus drops '+' from prev_state. */
static void canon(struct an_event *ev, bool strip_plus, char *buf, size_t len)
{
	if (ev->type == AN_EV_SCHED_SWITCH && strip_plus) {
		char *plus = strchr(ev->sw.prev_state, '+');

		if (plus)
			*plus = '\0';
	}
	if (ev->type == AN_EV_UNKNOWN)
		snprintf(buf, len, "%s cpu=%d pid=%d", ev->name, ev->cpu, ev->pid);
	else
		an_test_render(ev, buf, len);
}

/* Both files must decode to the same events, one by one. */
static void compare_readers(const char *ref, const char *other, const char *what,
			    bool is_us, bool strip_plus)
{
	struct an_reader *a, *b;
	struct an_event ea, eb;
	struct an_diag d;
	unsigned long long n = 0;
	char ga[1024], gb[1024];
	int ra, rb;

	if (an_reader_open(ref, &a, &d))
		fail_msg("%s: %s", ref, d.message);
	if (an_reader_open(other, &b, &d))
		fail_msg("%s: %s: %s", what, other, d.message);
	for (;;) {
		unsigned long long want_ts;

		ra = an_reader_next(a, &ea, &d);
		if (ra < 0 && !an_error_is_recoverable(ra))
			fail_msg("%s: reference record %llu: %s", what, d.record, d.message);
		rb = an_reader_next(b, &eb, &d);
		if (rb < 0 && !an_error_is_recoverable(rb))
			fail_msg("%s: line %llu: %s", what, d.line, d.message);
		if (ra < 0 && rb == ra)
			continue;	/* the same bad event on both sides */
		if (ra != rb)
			fail_msg("%s: event %llu: one reader ended first (%d, %d)", what, n, ra, rb);
		if (!ra)
			break;
		n++;
		want_ts = is_us ? (ea.ts_ns + NS_PER_US / 2) / NS_PER_US * NS_PER_US : ea.ts_ns;
		canon(&ea, strip_plus, ga, sizeof(ga));
		canon(&eb, strip_plus, gb, sizeof(gb));
		if (ea.type != eb.type || strcmp(ea.name, eb.name) || eb.ts_ns != want_ts ||
		    strcmp(ga, gb))
			fail_msg("%s: event %llu:\n  %llu %s %s\n  %llu %s %s", what, n,
				 (unsigned long long)ea.ts_ns, ea.name, ga,
				 (unsigned long long)eb.ts_ns, eb.name, gb);
	}
	assert_int_equal(n, an_reader_info(a)->nr_events);
	an_reader_close(a);
	an_reader_close(b);
}

static const struct report_case {
	const char *args;	/* trace-cmd report options */
	bool is_us;		/* timestamps printed in us */
	bool strip_plus;	/* the sched plugin prints R for R+ */
} reports[] = {
	{ "report", true, true },		/* the brief's conversion */
	{ "report -t", false, true },		/* ns timestamps */
	{ "report -l", true, true },		/* latency columns: "2d..1." */
	{ "report -N -t", false, false },	/* no plugins: kernel print formats */
};

static void test_dat_juno_as_text(void **state)
{
	char path[1024], out[512], args[1536];

	(void)state;
	if (!an_test_trace(JUNO, path, sizeof(path)) || !have_trace_cmd())
		skip();
	for (size_t i = 0; i < ARRAY_SIZE(reports); i++) {
		tmp_path(out, sizeof(out), "report");
		an_test_fmt(args, sizeof(args), "%s -i '%s'", reports[i].args, path);
		if (!run_trace_cmd(args, out))
			fail_msg("trace-cmd %s failed", args);
		compare_readers(path, out, reports[i].args, reports[i].is_us, reports[i].strip_plus);
		unlink(out);
	}
}

static void test_dat_juno_as_v7(void **state)
{
	static const struct { const char *compression; const char *want; } v7[] = {
		{ "none", "" }, { "zstd", "zstd" },
	};
	char path[1024], out[512], args[1536];

	(void)state;
	if (!an_test_trace(JUNO, path, sizeof(path)) || !have_trace_cmd())
		skip();
	for (size_t i = 0; i < ARRAY_SIZE(v7); i++) {
		struct an_reader *r;
		struct an_diag d;

		tmp_path(out, sizeof(out), "v7");
		an_test_fmt(args, sizeof(args), "convert --file-version 7 --compression %s -i '%s' -o '%s'",
		    v7[i].compression, path, out);
		if (!run_trace_cmd(args, "/dev/null"))
			fail_msg("trace-cmd %s failed", args);
		assert_int_equal(an_reader_open(out, &r, &d), 0);
		assert_int_equal(an_reader_info(r)->file_version, 7);
		assert_string_equal(an_reader_info(r)->compression, v7[i].want);
		assert_int_equal(an_reader_info(r)->nr_cpus, 6);
		an_reader_close(r);
		compare_readers(path, out, v7[i].compression, false, false);
		unlink(out);
	}
}

/* The synthetic trace: every row is one an_reader_next() result. */
static const char *const synthetic_want[] = {
	"1000000100 sched_switch cpu=0 pid=42 prev_comm=rt-app prev_pid=42 prev_prio=98 "
	"prev_state=R+ next_comm=swapper/0 next_pid=0 next_prio=120",
	"1000000200 sched_switch cpu=0 pid=0 prev_comm=kworker/0:1 prev_pid=7 prev_prio=120 "
	"prev_state=D|I next_comm=a-very-long-com next_pid=-1 next_prio=-1",
	"1000000250 lost_events cpu=1 pid=-1 count=42",
	"1000000250 cpu_idle cpu=1 pid=0 state=2 cpu_id=1",
	"1000000300 print cpu=0 pid=42 buf='ucval: setattr pid=42 util_min=512 flags=0x60 ret=0' "
	"marker=setattr",
	"ERR record 5 (cpu 0): sched_wakeup: no field 'target_cpu'",
	"1000000500 sched_pelt_cfs cpu=0 pid=0 cpu=0 path=/autogroup-1 util=321",
	"1000000600 uclamp_util_cfs cpu=0 pid=0 cpu=0 util_avg=300 uclamp_avg=400 uclamp_min=400 "
	"uclamp_max=800",
	"1000000700 sugov_util_update cpu=0 pid=0 cpu=0 util=123 max_cap=1024 flags=2",
	"1000000750 cpu_idle cpu=1 pid=0 state=4294967295 cpu_id=1",
	"1000000800 uclamp_request cpu=0 pid=42 comm=worker pid=43 clamp_id=1 value=2000 ret=-34",
	"1000000900 foo_bar cpu=0 pid=42",
};

/*
 * Read @path and compare every an_reader_next() result with
 * synthetic_want[]; the reader's counters too.
 */
static void check_synthetic(const char *path, const char *release)
{
	const struct an_reader_info *info;
	struct an_reader *r;
	struct an_event ev;
	struct an_diag d;
	char got[1024], msg[1024];
	size_t n = 0;
	int rc;

	assert_int_equal(an_reader_open(path, &r, &d), 0);
	while ((rc = an_reader_next(r, &ev, &d)) != 0) {
		if (rc < 0) {
			assert_true(an_error_is_recoverable(rc));
			an_diag_format(&d, msg, sizeof(msg));
			assert_non_null(strstr(msg, path));
			snprintf(got, sizeof(got), "ERR%s", strchr(msg, ':') + 1);
		} else if (ev.type == AN_EV_UNKNOWN) {
			snprintf(got, sizeof(got), "%llu %s cpu=%d pid=%d",
				 (unsigned long long)ev.ts_ns, ev.name, ev.cpu, ev.pid);
		} else {
			int len = snprintf(got, sizeof(got), "%llu ", (unsigned long long)ev.ts_ns);

			an_test_render(&ev, got + len, sizeof(got) - (size_t)len);
		}
		if (n >= ARRAY_SIZE(synthetic_want) || strcmp(got, synthetic_want[n]))
			fail_msg("%s item %zu: got '%s' want '%s'", path, n, got,
				 n < ARRAY_SIZE(synthetic_want) ? synthetic_want[n] : "(end)");
		n++;
	}
	assert_int_equal(n, ARRAY_SIZE(synthetic_want));
	info = an_reader_info(r);
	assert_string_equal(info->kernel_release, release);
	assert_int_equal(info->nr_cpus, 2);
	assert_int_equal(info->nr_lost, 42);
	assert_int_equal(info->nr_errors, 1);
	/* the formats it saved: a type without one was not recorded */
	assert_int_equal(info->ev_list, AN_EV_LIST_FORMATS);
	assert_true(info->ev_listed & AN_EV_BIT(AN_EV_SCHED_SWITCH));
	assert_true(info->ev_listed & AN_EV_BIT(AN_EV_SCHED_WAKEUP));
	assert_false(info->ev_listed & AN_EV_BIT(AN_EV_SCHED_MIGRATE_TASK));
	an_reader_close(r);
}

static void test_dat_synthetic(void **state)
{
	char path[512];
	struct dw w;

	(void)state;
	dw_build(&w, "Linux juno 5.10.0-ucval #1 SMP PREEMPT Mon Jan 1 aarch64");
	tmp_path(path, sizeof(path), "synthetic");
	write_file(path, w.p, w.len);
	free(w.p);
	check_synthetic(path, "5.10.0-ucval");
	unlink(path);
}

/*
 * An event format whose print format libtraceevent 1.7.1 cannot parse
 * safely (dw_fmt_sizeof, the shape of Linux 6.18's dma events) no longer
 * refuses the file: libtracecmd reads a copy where it is emptied
 * (an_datcheck_copy()), in place in v6 and in plain v7 sections, appended
 * as a plain section for a compressed one. The events read are the same,
 * with both readers; the sanitizer build of this test would report the
 * double free if a format reached libtraceevent unemptied. The two v7
 * files were made once with trace-cmd convert from the v6 one (tests/data).
 */
static void test_dat_blanked_format(void **state)
{
	static const char *const files[] = {
		NULL, "sizeof-format-v7-plain.dat", "sizeof-format-v7-zstd.dat",
	};
	static const enum an_dat_reader readers[] = { AN_DAT_PAGES, AN_DAT_LIBTRACECMD };
	const struct dw_spec spec = {
		.fill1 = dw_page_cpu1, .lost1 = 42, .dma_format = dw_fmt_sizeof,
	};
	char v6[512], path[1024];

	(void)state;
	write_spec(&spec, "sizeof-v6", v6, sizeof(v6));
	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		if (files[i])
			an_test_fmt(path, sizeof(path), "%s/tests/data/%s", an_test_root(), files[i]);
		else
			an_test_fmt(path, sizeof(path), "%s", v6);
		for (size_t k = 0; k < ARRAY_SIZE(readers); k++) {
			struct an_reader *r;
			struct an_diag d;

			an_reader_set_dat_reader(readers[k]);
			check_synthetic(path, "");
			assert_int_equal(an_reader_open(path, &r, &d), 0);
			assert_int_equal(an_reader_info(r)->nr_formats_blanked, 1);
			assert_string_equal(an_reader_info(r)->format_blanked, "dma_sizes");
			an_reader_close(r);
		}
		an_reader_set_dat_reader(AN_DAT_PAGES);
	}
	unlink(v6);
}

/* Bytes the memory file libtracecmd reads holds (its memfd, by name), or -1. */
static long long copy_bytes(void)
{
	char link[64], target[256];
	long long bytes = -1;

	for (int fd = 0; fd < 1024; fd++) {
		struct stat st;
		ssize_t n;

		snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
		n = readlink(link, target, sizeof(target) - 1);
		if (n <= 0)
			continue;
		target[n] = '\0';
		if (strstr(target, "memfd:ucval-trace.dat") && !fstat(fd, &st))
			bytes = (long long)st.st_blocks * 512;
	}
	return bytes;
}

/*
 * The copy made for emptied formats holds what libtracecmd reads: with
 * datpages.c reading the CPU data, the headers alone (8 MB of pages are
 * left a hole), plain or compressed; on libtracecmd's path, all of it.
 * Regression: the copy took the file's size in memory whatever the path.
 */
static void test_dat_blanked_copy_size(void **state)
{
	static const struct {
		const char *name;
		const char *convert;	/* trace-cmd convert options, or NULL */
		enum an_dat_reader how;
		long long min_bytes, max_bytes;
	} rows[] = {
		{ "v6, datpages", NULL, AN_DAT_PAGES, 4096, 256 << 10 },
		{ "v6, libtracecmd", NULL, AN_DAT_LIBTRACECMD, 8 << 20, 10 << 20 },
		{ "v7 zstd, datpages", "--file-version 7 --compression zstd", AN_DAT_PAGES,
		  4096, 256 << 10 },
	};
	const struct dw_spec spec = {
		.fill1 = dw_page_cpu1, .dma_format = dw_fmt_sizeof, .nr_pages1 = 2048,
	};
	char v6[512], conv[512];

	(void)state;
	write_spec(&spec, "blanked-big", v6, sizeof(v6));
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		const char *path = v6;
		struct an_reader *r;
		struct an_event ev;
		struct an_diag d;
		unsigned long long n = 0;
		long long bytes;
		int rc;

		if (rows[i].convert) {
			if (!convert_dat(v6, rows[i].convert, "blanked-big-conv", rows[i].name,
					 conv, sizeof(conv)))
				continue;
			path = conv;
		}
		an_reader_set_dat_reader(rows[i].how);
		assert_int_equal(an_reader_open(path, &r, &d), 0);
		an_reader_set_dat_reader(AN_DAT_PAGES);
		assert_int_equal(an_reader_info(r)->nr_formats_blanked, 1);
		bytes = copy_bytes();
		printf("# %s: the copy holds %lld kB\n", rows[i].name, bytes >> 10);
		if (bytes < rows[i].min_bytes || bytes > rows[i].max_bytes)
			fail_msg("%s: the copy holds %lld bytes, want %lld to %lld", rows[i].name,
				 bytes, rows[i].min_bytes, rows[i].max_bytes);
		while ((rc = an_reader_next(r, &ev, &d)) != 0)
			n += rc > 0;
		assert_int_equal(n, 8 + 2 * 2048);	/* CPU 0: 8 and a bad record; CPU 1: 2 a page */
		an_reader_close(r);
		assert_int_equal(copy_bytes(), -1);
		if (rows[i].convert)
			unlink(conv);
	}
	unlink(v6);
}

/*
 * A format without a newline whose print format can be emptied: its name
 * for the note was looked for with strcspn() past the text, which has no
 * NUL (found reviewing; the sanitizer build read out of bounds), and taken
 * after the emptying. libtracecmd may then refuse the format: the open
 * either works or says so.
 */
static void test_dat_blanked_no_newline(void **state)
{
	const struct dw_spec spec = {
		.fill1 = dw_page_cpu1, .lost1 = 42,
		.dma_format = "name: dma_flat print fmt: \"%d\", REC->nope",
	};
	struct an_reader *r;
	struct an_diag d;
	char path[512];
	int rc;

	(void)state;
	write_spec(&spec, "flat", path, sizeof(path));
	rc = an_reader_open(path, &r, &d);
	if (!rc) {
		assert_int_equal(an_reader_info(r)->nr_formats_blanked, 1);
		assert_string_equal(an_reader_info(r)->format_blanked, "dma_flat");
		an_reader_close(r);
	} else {
		assert_int_equal(rc, AN_E_LIBRARY);
	}
	unlink(path);
}

/* Resident kB of the mappings of inode @ino (smaps), and how many there are. */
static unsigned long mapped_kb(ino_t ino, unsigned int *nr)
{
	FILE *f = fopen("/proc/self/smaps", "re");
	char line[512];
	unsigned long kb = 0, v;
	bool is_ours = false;

	*nr = 0;
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		unsigned long long i;
		char perms[8];
		unsigned int major, minor;
		unsigned long long off;

		if (sscanf(line, "%*x-%*x %7s %llx %x:%x %llu", perms, &off, &major, &minor,
			   &i) == 5) {
			is_ours = i == (unsigned long long)ino;
			*nr += is_ours;
		} else if (is_ours && sscanf(line, "Rss: %lu kB", &v) == 1) {
			kb += v;
		}
	}
	fclose(f);
	return kb;
}

/* A CPUSTAT text as trace-cmd and ucval collect write it. */
#define ST(cpu, overrun, commit, dropped, read)					\
	"\nCPU: " #cpu "\nentries: 0\noverrun: " #overrun "\ncommit overrun: " #commit \
	"\nbytes: 4096\noldest event ts: 1.000000\nnow ts: 2.000000\n"		\
	"dropped events: " #dropped "\nread events: " #read "\n"

/*
 * The losses no page places that the reader of @path gives (datcheck.c
 * find_unplaced()), as " cpu:count" each, into @got; they must all come
 * before the first event and carry its timestamp. Returns their sum, which
 * the reader's counters must agree with (@placed: the pages' own counts;
 * @before: the overruns older than the file, an_reader_info.nr_lost_before).
 */
static unsigned long long read_unplaced(const char *path, enum an_dat_reader how,
					unsigned long long placed, unsigned long long before,
					char *got, size_t size)
{
	unsigned long long sum = 0, first_ts = 0;
	bool is_first = true;
	struct an_reader *r;
	struct an_event ev;
	struct an_diag d;
	int rc;

	got[0] = '\0';
	an_reader_set_dat_reader(how);
	assert_int_equal(an_reader_open(path, &r, &d), 0);
	while ((rc = an_reader_next(r, &ev, &d)) != 0) {
		if (rc < 0)
			continue;	/* the synthetic trace's bad record */
		if (ev.type == AN_EV_LOST_EVENTS && ev.lost.is_unplaced) {
			size_t len = strlen(got);

			if (!is_first)
				fail_msg("%s: an unplaced loss after an event", path);
			snprintf(got + len, size - len, " %d:%llu", ev.cpu, ev.lost.count);
			sum += ev.lost.count;
			first_ts = ev.ts_ns;
			continue;
		}
		if (is_first && first_ts && ev.ts_ns != first_ts)
			fail_msg("%s: stamped %llu, the first event %llu", path, first_ts,
				 (unsigned long long)ev.ts_ns);
		is_first = false;
	}
	assert_int_equal(an_reader_info(r)->nr_lost_unplaced, sum);
	assert_int_equal(an_reader_info(r)->nr_lost, sum + placed);
	assert_int_equal(an_reader_info(r)->nr_lost_before, before);
	assert_int_equal(an_reader_info(r)->nr_cpus_read_before, before ? 1 : 0);
	an_reader_close(r);
	an_reader_set_dat_reader(AN_DAT_PAGES);
	return sum;
}

/*
 * Losses no page places in time: what the top instance's buffer statistics
 * count beyond the pages' stored counts, given as LOST_EVENTS (is_unplaced)
 * before the first event, by both readers, in v6 and in v7, plain and
 * compressed (datcheck.c inflates the chunks to count). CPU 1's page
 * stores 42 lost events (or flags them without a count).
 *
 * A buffer read before the file was saved (trace-cmd extract -k twice):
 * its "read events" exceed the events of the CPU's pages, and the
 * overwritten events beyond the pages' counts were told to that earlier
 * reader: older than the file, not unplaced (lost_before()). The file
 * holds 9 events on CPU 0 and 2 on each page of CPU 1 (dw_page_cpu1), or
 * 3 on dw_page_kinds's page, which has every kind of ring-buffer event:
 * each count is tried at ("overruns of two CPUs" for CPU 0) and one above.
 */
static void test_dat_unplaced_losses(void **state)
{
	static const struct {
		const char *name;
		const char *cpustat[4];
		bool is_unknown;	/* CPU 1's page flags its 42 without the count */
		void (*fill1)(struct dw *);	/* CPU 1's page, NULL: dw_page_cpu1 */
		unsigned int nr_pages1;	/* CPU 1's pages (the later ones lose none) */
		const char *want;	/* "cpu:count" of each unplaced loss */
		unsigned long long before;	/* nr_lost_before */
		bool is_v7;		/* also converted to v7, plain and zstd */
	} rows[] = {
		{ "no statistics", { NULL }, false, NULL, 1, "", 0, false },
		{ "totals match the page", { ST(0, 0, 0, 0, 9), ST(1, 42, 0, 0, 2) }, false, NULL,
		  1, "", 0, false },
		{ "commit overruns no page has", { ST(0, 0, 0, 0, 9), ST(1, 42, 3, 0, 2) }, false,
		  NULL, 1, " 1:3", 0, false },
		{ "dropped events (non-overwrite mode)", { ST(0, 0, 0, 5, 9), ST(1, 42, 0, 0, 2) },
		  false, NULL, 1, " 0:5", 0, false },
		{ "overruns of two CPUs", { ST(0, 7, 0, 0, 9), ST(1, 50, 0, 0, 2) }, false, NULL,
		  1, " 0:7 1:8", 0, true },
		{ "a CPU without data", { ST(0, 0, 0, 0, 9), ST(1, 42, 0, 0, 2), ST(3, 9, 0, 0, 0) },
		  false, NULL, 1, " 3:9", 0, false },
		{ "the page's count unknown", { ST(0, 0, 0, 0, 9), ST(1, 50, 0, 0, 2) }, true, NULL,
		  1, "", 0, false },
		{ "pages report more than the totals", { ST(1, 10, 0, 0, 2) }, false, NULL, 1, "",
		  0, false },
		{ "another instance's statistics", { ST(0, 0, 0, 0, 9), "\nBuffer: other\n\n",
						     ST(0, 99, 0, 0, 99) }, false, NULL, 1, "", 0,
		  false },
		{ "a CPU twice", { ST(1, 50, 0, 0, 2), ST(1, 0, 0, 0, 2) }, false, NULL, 1, "", 0,
		  false },
		{ "no CPU line", { "\nentries: 0\noverrun: 9\n" }, false, NULL, 1, "", 0, false },
		{ "no read events line", { "\nCPU: 1\noverrun: 50\n" }, false, NULL, 1, " 1:8", 0,
		  false },
		{ "read before: its overruns are older", { ST(0, 0, 0, 0, 9), ST(1, 50, 0, 0, 3) },
		  false, NULL, 1, "", 8, true },
		{ "read before: CPU 0's nine events", { ST(0, 7, 0, 0, 10), ST(1, 42, 0, 0, 2) },
		  false, NULL, 1, "", 7, false },
		{ "read before: commit overruns stay", { ST(1, 50, 3, 0, 3) }, false, NULL, 1,
		  " 1:3", 8, false },
		{ "read before: dropped events stay", { ST(1, 50, 0, 4, 3) }, false, NULL, 1,
		  " 1:4", 8, false },
		{ "read before, counts unknown", { ST(1, 50, 0, 0, 3) }, true, NULL, 1, "", 0,
		  false },
		{ "read before, no overrun beyond the pages", { ST(1, 42, 5, 0, 3) }, false, NULL,
		  1, " 1:5", 0, false },
		{ "every event kind: read as the file holds", { ST(1, 50, 0, 0, 3) }, false,
		  dw_page_kinds, 1, " 1:8", 0, false },
		{ "every event kind: read before", { ST(1, 50, 0, 0, 4) }, false, dw_page_kinds, 1,
		  "", 8, false },
		{ "three pages: read as the file holds", { ST(1, 50, 0, 0, 6) }, false, NULL, 3,
		  " 1:8", 0, true },
		{ "three pages: read before", { ST(1, 50, 0, 0, 7) }, false, NULL, 3, "", 8, true },
	};
	static const char *const v7[] = { "none", "zstd" };
	static const enum an_dat_reader readers[] = { AN_DAT_PAGES, AN_DAT_LIBTRACECMD };
	char path[512], out[512], args[1536], got[128];

	(void)state;
	tmp_path(path, sizeof(path), "unplaced");
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		const struct dw_spec spec = {
			.fill1 = rows[i].fill1 ? rows[i].fill1 : dw_page_cpu1, .lost1 = 42,
			.is_lost1_unknown = rows[i].is_unknown, .cpustat = rows[i].cpustat,
			.nr_pages1 = rows[i].nr_pages1,
		};
		/* dw_page_kinds's loss is not on its first event: no reader gives it */
		unsigned long long placed = rows[i].is_unknown || rows[i].fill1 ? 0 : 42;
		struct dw w;

		dw_build_spec(&w, &spec);
		write_file(path, w.p, w.len);
		free(w.p);
		for (size_t k = 0; k < ARRAY_SIZE(readers); k++) {
			read_unplaced(path, readers[k], placed, rows[i].before, got, sizeof(got));
			if (strcmp(got, rows[i].want))
				fail_msg("%s (reader %zu): unplaced '%s', want '%s'", rows[i].name, k,
					 got, rows[i].want);
		}
		if (!rows[i].is_v7 || !have_trace_cmd())
			continue;
		for (size_t k = 0; k < ARRAY_SIZE(v7); k++) {
			tmp_path(out, sizeof(out), "unplaced-v7");
			an_test_fmt(args, sizeof(args), "convert --file-version 7 --compression %s "
			    "-i '%s' -o '%s'", v7[k], path, out);
			if (!run_trace_cmd(args, "/dev/null"))
				fail_msg("trace-cmd %s failed", args);
			read_unplaced(out, AN_DAT_LIBTRACECMD, placed, rows[i].before, got,
				      sizeof(got));
			if (strcmp(got, rows[i].want))
				fail_msg("v7 %s, %s: unplaced '%s', want '%s'", v7[k], rows[i].name,
					 got, rows[i].want);
			unlink(out);
		}
	}
	unlink(path);
}

/*
 * Memory does not follow the file. The default reader (datpages.c) reads
 * each CPU's pages in chunks of at most 1 MB into its own buffers: the file
 * is never mapped (libtracecmd reads only its headers then).
 * libtracecmd's own reader (UCVAL_DAT=library) maps each CPU's data and never
 * unmaps it; tracedat.c gives back the pages behind each CPU (1 MB steps)
 * and unmaps what the library left at close. Both on a 4-CPU trace of about
 * 160 MB, whose CPUs each span several of the library's mappings: at most a
 * step, the page in use and the kernel's fault-around (64 kB) a CPU
 * resident, under 4.5 MB; nothing once closed.
 * Regression (library path): the part of a mapping not yet given back when
 * a CPU's records went on in the next one stayed resident (5.8 MB here;
 * with the 4 MB steps of then, 65 MB for 10 M events on 8 CPUs).
 */
static void test_dat_memory(void **state)
{
	static const struct {
		enum an_dat_reader how;
		unsigned int min_maps;	/* mappings of the file at the end, at least */
		unsigned int max_maps;	/* and at most */
		unsigned long max_kb;	/* resident kB of them */
	} paths[] = {
		{ AN_DAT_LIBTRACECMD, 5, 64, 4 * 1024 + 512 },	/* several mappings a CPU */
		{ AN_DAT_PAGES, 0, 0, 1 },			/* pread(), no mapping */
	};
	char path[512];
	struct stat st;

	(void)state;
	if (!synth_dat("--seed 5 --cpus 4 --events 4000000", "memory", path, sizeof(path)))
		skip();
	assert_int_equal(stat(path, &st), 0);
	assert_true(st.st_size > 120 * 1024 * 1024);
	for (size_t i = 0; i < ARRAY_SIZE(paths); i++) {
		struct an_reader *r;
		struct an_event ev;
		struct an_diag d;
		unsigned long kb;
		unsigned int nr;
		int rc;

		an_reader_set_dat_reader(paths[i].how);
		assert_int_equal(an_reader_open(path, &r, &d), 0);
		an_reader_set_dat_reader(AN_DAT_PAGES);
		while ((rc = an_reader_next(r, &ev, &d)) != 0)
			assert_true(rc > 0);
		kb = mapped_kb(st.st_ino, &nr);
		printf("# %s: %lld MB file: %lu kB of it resident at the end, %u mappings\n",
		       paths[i].how == AN_DAT_LIBTRACECMD ? "libtracecmd" : "datpages",
		       (long long)st.st_size >> 20, kb, nr);
		assert_in_range(nr, paths[i].min_maps, paths[i].max_maps);
		assert_true(kb < paths[i].max_kb);
		an_reader_close(r);
		kb = mapped_kb(st.st_ino, &nr);
		assert_int_equal(nr, 0);
		assert_int_equal(kb, 0);
	}
	unlink(path);
}

/* Read system calls of this process so far (/proc/self/io "syscr"), or -1. */
static long long read_syscalls(void)
{
	FILE *f = fopen("/proc/self/io", "re");
	long long n = -1;
	char line[128];

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "syscr: %lld", &n) == 1)
			break;
	if (f)
		fclose(f);
	return n;
}

/* A page of CPU 1 with 200 records of one event (test_dat_reads_per_event). */
static void fill_many(struct dw *w)
{
	struct dw_rec r;

	for (uint32_t i = 0; i < 200; i++) {
		rec_common(&r, 302, 0);
		rec_num(&r, i % 2, 4); rec_num(&r, 1, 4);
		page_add(w, &r, 10);
	}
}

/*
 * Reading costs no system call per event, whichever reader and file.
 * Regression: on libtracecmd's path the reader looked for the mapping of
 * each record's data in /proc/self/maps, and found none where the library
 * decompresses (v7 zstd) or maps the copy of datcheck.h (emptied formats):
 * it read /proc/self/maps again for every record. A 1 M-event zstd
 * trace.dat took 51 s instead of 0.8 s.
 */
static void test_dat_reads_per_event(void **state)
{
	static const struct {
		const char *name;
		const char *convert;	/* trace-cmd convert options, or NULL */
		bool is_blanked;	/* the small file with an emptied format */
		enum an_dat_reader how;
	} rows[] = {
		{ "v6, datpages", NULL, false, AN_DAT_PAGES },
		{ "v6, libtracecmd (mapped)", NULL, false, AN_DAT_LIBTRACECMD },
		{ "v7 zstd (decompressed)", "--file-version 7 --compression zstd", false,
		  AN_DAT_PAGES },
		{ "v7 plain, libtracecmd", "--file-version 7 --compression none", false,
		  AN_DAT_LIBTRACECMD },
		{ "emptied format, libtracecmd (the copy)", NULL, true, AN_DAT_LIBTRACECMD },
	};
	char synth[512], conv[512], small[512];
	const struct dw_spec spec = {
		.fill1 = fill_many, .dma_format = dw_fmt_sizeof,
	};

	(void)state;
	if (read_syscalls() < 0) {
		printf("# skip: /proc/self/io has no syscr (no task I/O accounting)\n");
		skip();
	}
	if (!synth_dat("--seed 3 --cpus 4 --events 20000", "reads-synth", synth, sizeof(synth)))
		skip();
	write_spec(&spec, "reads-blanked", small, sizeof(small));
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		const char *path = rows[i].is_blanked ? small : synth;
		unsigned long long n = 0;
		struct an_reader *r;
		struct an_event ev;
		struct an_diag d;
		long long before;
		int rc;

		if (rows[i].convert) {
			if (!convert_dat(synth, rows[i].convert, "reads-conv", rows[i].name, conv,
					 sizeof(conv)))
				continue;
			path = conv;
		}
		an_reader_set_dat_reader(rows[i].how);
		assert_int_equal(an_reader_open(path, &r, &d), 0);
		an_reader_set_dat_reader(AN_DAT_PAGES);
		before = read_syscalls();
		while ((rc = an_reader_next(r, &ev, &d)) != 0) {
			if (rc < 0 && !an_error_is_recoverable(rc))
				fail_msg("%s: %s", rows[i].name, d.message);
			n++;	/* the small file's CPU 0 has a recoverable error */
		}
		printf("# %s: %llu events, %lld read calls\n", rows[i].name, n,
		       read_syscalls() - before);
		/* a few reads of the sanitizer's own on top (ASan: 31 for 209 events) */
		if (read_syscalls() - before > (long long)n / 8 + 64)
			fail_msg("%s: %lld read calls for %llu events", rows[i].name,
				 read_syscalls() - before, n);
		assert_true(n >= (rows[i].is_blanked ? 200 : 20000));
		an_reader_close(r);
		if (rows[i].convert)
			unlink(conv);
	}
	unlink(small);
	unlink(synth);
}

/*
 * @path read by libtracecmd's records and by datpages.c @how: the same
 * results, one by one (events, recoverable errors, the end or the error that
 * stops). Return: the number of events.
 */
static unsigned long long compare_reader(const char *path, const char *what,
					 enum an_dat_reader how)
{
	const char *name = how == AN_DAT_KBUFFER ? "datpages (kbuffer)" : "datpages";
	struct an_reader *a, *b;
	struct an_event ea, eb;
	struct an_diag da, db;
	unsigned long long n = 0;
	char ga[1024], gb[1024];

	an_reader_set_dat_reader(AN_DAT_LIBTRACECMD);
	if (an_reader_open(path, &a, &da))
		fail_msg("%s: libtracecmd: %s", what, da.message);
	an_reader_set_dat_reader(how);
	if (an_reader_open(path, &b, &db))
		fail_msg("%s: %s: %s", what, name, db.message);
	an_reader_set_dat_reader(AN_DAT_PAGES);
	for (;;) {
		int ra = an_reader_next(a, &ea, &da), rb = an_reader_next(b, &eb, &db);

		if (ra != rb)
			fail_msg("%s: item %llu: %d from libtracecmd (%s), %d from %s (%s)",
				 what, n, ra, ra < 0 ? da.message : "", rb, name,
				 rb < 0 ? db.message : "");
		if (ra < 0) {
			an_diag_format(&da, ga, sizeof(ga));
			an_diag_format(&db, gb, sizeof(gb));
			if (strcmp(ga, gb))
				fail_msg("%s: %s: item %llu:\n  %s\n  %s", what, name, n, ga, gb);
			if (!an_error_is_recoverable(ra))
				break;
			continue;
		}
		if (!ra)
			break;
		n++;
		canon(&ea, false, ga, sizeof(ga));
		canon(&eb, false, gb, sizeof(gb));
		if (ea.type != eb.type || ea.ts_ns != eb.ts_ns || ea.pos != eb.pos || strcmp(ga, gb))
			fail_msg("%s: %s: event %llu:\n  %llu %llu %s\n  %llu %llu %s", what, name,
				 n, (unsigned long long)ea.ts_ns, ea.pos, ga,
				 (unsigned long long)eb.ts_ns, eb.pos, gb);
	}
	assert_int_equal(an_reader_info(a)->nr_lost, an_reader_info(b)->nr_lost);
	assert_int_equal(an_reader_info(a)->nr_lost_unknown, an_reader_info(b)->nr_lost_unknown);
	assert_int_equal(an_reader_info(a)->nr_errors, an_reader_info(b)->nr_errors);
	assert_int_equal(an_reader_info(a)->nr_cpus, an_reader_info(b)->nr_cpus);
	an_reader_close(a);
	an_reader_close(b);
	return n;
}

/* Whether the reader @how asks for reads @path's CPU data with datpages.c. */
static bool is_dat_pages(const char *path, enum an_dat_reader how)
{
	struct an_reader *r;
	struct an_diag d;
	bool is_pages;

	an_reader_set_dat_reader(how);
	assert_int_equal(an_reader_open(path, &r, &d), 0);
	an_reader_set_dat_reader(AN_DAT_PAGES);
	is_pages = an_reader_info(r)->is_dat_pages;
	an_reader_close(r);
	return is_pages;
}

/* Both ways of datpages.c against libtracecmd; the number of events. */
static unsigned long long compare_paths(const char *path, const char *what)
{
	unsigned long long n = compare_reader(path, what, AN_DAT_KBUFFER);

	assert_int_equal(compare_reader(path, what, AN_DAT_PAGES), n);
	return n;
}

/* Every kind of ring-buffer event: the three readers agree, and on these. */
static void test_dat_event_kinds(void **state)
{
	static const char *const want[] = {
		"1000000100 sched_switch", "1000000200 sched_switch", "1000000300 print",
		"ERR", "1000000500 sched_load_cfs_rq", "1000000600 lisa__uclamp_util_cfs",
		"1000000700 sugov_util_update", "1000000800 uclamp_request", "1000000900 foo_bar",
		/* base + the 0.4 s extend + 10 ns; + 20 ns; the stamp + 30 ns */
		"1402653194 cpu_idle state=1", "1402653214 cpu_idle state=2",
		"8000000030 cpu_idle state=3",
	};
	static const enum an_dat_reader how[] = {
		AN_DAT_LIBTRACECMD, AN_DAT_KBUFFER, AN_DAT_PAGES,
	};
	char path[512], got[256];
	struct dw w;

	(void)state;
	dw_build_pages(&w, NULL, dw_page_kinds, 42);
	tmp_path(path, sizeof(path), "kinds");
	write_file(path, w.p, w.len);
	free(w.p);
	compare_paths(path, "event kinds");
	for (size_t h = 0; h < ARRAY_SIZE(how); h++) {
		struct an_reader *r;
		struct an_event ev;
		struct an_diag d;
		size_t n = 0;
		int rc;

		an_reader_set_dat_reader(how[h]);
		assert_int_equal(an_reader_open(path, &r, &d), 0);
		an_reader_set_dat_reader(AN_DAT_PAGES);
		while ((rc = an_reader_next(r, &ev, &d)) != 0) {
			if (rc < 0)
				snprintf(got, sizeof(got), "ERR");
			else if (ev.type == AN_EV_CPU_IDLE)
				snprintf(got, sizeof(got), "%llu %s state=%u",
					 (unsigned long long)ev.ts_ns, ev.name, ev.idle.state);
			else
				snprintf(got, sizeof(got), "%llu %s",
					 (unsigned long long)ev.ts_ns, ev.name);
			if (n >= ARRAY_SIZE(want) || strcmp(got, want[n]))
				fail_msg("reader %zu, item %zu: '%s' want '%s'", h, n, got,
					 n < ARRAY_SIZE(want) ? want[n] : "(end)");
			n++;
		}
		assert_int_equal(n, ARRAY_SIZE(want));
		/* the lost events of the page are not on its first event */
		assert_int_equal(an_reader_info(r)->nr_lost + an_reader_info(r)->nr_lost_unknown, 0);
		an_reader_close(r);
	}
	unlink(path);
}

/*
 * datpages.c, walking pages itself and through kbuffer, against
 * libtracecmd, the reference: Juno (6 CPUs, v6 and v7),
 * the synthetic trace (lost events, bad records, an unknown event) and
 * ucval synth traces of 4 CPUs, one with lost events, each CPU read in
 * several chunks; and each of them compressed (trace-cmd convert to v7
 * zstd), whose chunks datpages.c inflates one by one.
 */
static void test_dat_pages_match_library(void **state)
{
	enum src { JUNO_DAT, DW_DAT, SYNTH_DAT };
	static const char v7[] = "--file-version 7 --compression none";
	static const char zstd[] = "--file-version 7 --compression zstd";
	static const struct {
		const char *what;
		enum src src;
		const char *synth;	/* ucval synth options (SYNTH_DAT) */
		const char *convert;	/* trace-cmd convert options, or NULL */
		unsigned long long min_events;
	} cases[] = {
		{ "juno", JUNO_DAT, NULL, NULL, 3724 },
		{ "juno v7", JUNO_DAT, NULL, v7, 3724 },
		{ "juno v7 zstd", JUNO_DAT, NULL, zstd, 3724 },
		{ "synthetic", DW_DAT, NULL, NULL, 11 },
		{ "synthetic zstd", DW_DAT, NULL, zstd, 11 },
		{ "synth 4 CPUs", SYNTH_DAT, "--seed 3 --cpus 4 --events 400000", NULL, 400000 },
		{ "synth 4 CPUs zstd", SYNTH_DAT, "--seed 3 --cpus 4 --events 400000", zstd,
		  400000 },
		{ "synth lost events", SYNTH_DAT,
		  "--seed 7 --cpus 4 --events 200000 --fault lost-events", NULL, 150000 },
		{ "synth lost events zstd", SYNTH_DAT,
		  "--seed 7 --cpus 4 --events 200000 --fault lost-events", zstd, 150000 },
	};
	char src[1024], path[1024];

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		bool is_tmp_src = true;

		if (cases[i].src == JUNO_DAT && !an_test_trace(JUNO, src, sizeof(src)))
			continue;
		if (cases[i].convert && !have_trace_cmd()) {
			printf("# skip %s: no trace-cmd to convert with\n", cases[i].what);
			continue;
		}
		if (cases[i].src == JUNO_DAT) {
			is_tmp_src = false;
		} else if (cases[i].src == DW_DAT) {
			struct dw w;

			tmp_path(src, sizeof(src), "pages-src");
			dw_build(&w, "Linux juno 5.10.0-ucval #1 SMP PREEMPT aarch64");
			write_file(src, w.p, w.len);
			free(w.p);
		} else if (!synth_dat(cases[i].synth, "pages-src", src, sizeof(src))) {
			continue;
		}
		an_test_fmt(path, sizeof(path), "%s", src);
		if (cases[i].convert)
			convert_dat(src, cases[i].convert, "pages", cases[i].what, path, sizeof(path));
		if (compare_paths(path, cases[i].what) < cases[i].min_events)
			fail_msg("%s: fewer than %llu events", cases[i].what, cases[i].min_events);
		if (!is_dat_pages(path, AN_DAT_PAGES) || is_dat_pages(path, AN_DAT_LIBTRACECMD))
			fail_msg("%s: datpages.c does not read it, or the library path does not",
				 cases[i].what);
		if (cases[i].convert)
			unlink(path);
		if (is_tmp_src)
			unlink(src);
	}
}

static unsigned char *slurp(const char *path, size_t *len);

/*
 * test_dat_bad_page_later()'s file @path (the bad page at @at, @n events
 * before it) compressed: datpages.c inflates the chunk and refuses the page
 * there, after the same events, at libtracecmd's number for it (CPU 0's
 * pages from one page in); libtracecmd's path refuses the file at open.
 * Regression: libtracecmd's path (the only one for compressed data then)
 * read the chunk, said "bad page read" on stderr and ended CPU 0 there: the
 * analysis went on without its later events.
 */
static void bad_page_compressed(const char *path, size_t at, unsigned long long n)
{
	char out[512];
	struct an_datcheck chk;
	unsigned long long got = 0;
	struct an_reader *r;
	struct an_event ev;
	struct an_diag d;
	int rc;

	assert_int_equal(an_datcheck_run(path, true, &chk, &d), 0);
	assert_true(chk.nr_ranges > 0 && chk.ranges[0].cpu == 0 && chk.ranges[0].off < at);
	if (!convert_dat(path, "--file-version 7 --compression zstd", "badpage-zstd",
			 "bad page compressed", out, sizeof(out)))
		return;
	assert_int_equal(an_reader_open(out, &r, &d), 0);
	assert_true(an_reader_info(r)->is_dat_pages);
	while ((rc = an_reader_next(r, &ev, &d)) > 0)
		got++;
	assert_int_equal(rc, AN_E_CORRUPT);
	assert_string_equal(d.message, "ring-buffer page larger than a page");
	assert_int_equal(d.offset, at - chk.ranges[0].off + chk.page_size);
	assert_int_equal(got, n);
	an_reader_close(r);
	/* libtracecmd's path: every chunk is inflated and checked at open */
	an_reader_set_dat_reader(AN_DAT_LIBTRACECMD);
	assert_int_equal(an_reader_open(out, &r, &d), AN_E_CORRUPT);
	an_reader_set_dat_reader(AN_DAT_PAGES);
	assert_string_equal(d.message, "ring-buffer page larger than a page");
	an_datcheck_free(&chk);
	unlink(out);
}

/*
 * A damaged page after good ones: libtracecmd's path refuses the file at
 * open (every page is checked first); datpages.c checks each page as it
 * loads it, so the events before it come, then the same diagnostic.
 */
static void test_dat_bad_page_later(void **state)
{
	char path[512];
	unsigned char *buf;
	size_t len, at;
	struct an_reader *r;
	struct an_event ev;
	struct an_diag d;
	unsigned long long n = 0;
	int rc;

	(void)state;
	if (!synth_dat("--seed 2 --cpus 2 --policies 1 --events 20000", "badpage", path,
		       sizeof(path)))
		skip();
	buf = slurp(path, &len);
	at = len - 4 * DW_PAGE;			/* a page near the end of CPU 0's data */
	memcpy(buf + at + 8, "\xf0\xff\x00\x00", 4);	/* its commit: 65520 bytes */
	write_file(path, buf, len);
	free(buf);

	an_reader_set_dat_reader(AN_DAT_LIBTRACECMD);
	assert_int_equal(an_reader_open(path, &r, &d), AN_E_CORRUPT);
	an_reader_set_dat_reader(AN_DAT_PAGES);
	assert_string_equal(d.message, "ring-buffer page larger than a page");
	assert_int_equal(d.offset, at);

	assert_int_equal(an_reader_open(path, &r, &d), 0);
	while ((rc = an_reader_next(r, &ev, &d)) > 0)
		n++;
	assert_int_equal(rc, AN_E_CORRUPT);
	assert_string_equal(d.message, "ring-buffer page larger than a page");
	assert_int_equal(d.offset, at);
	assert_true(n > 15000);
	an_reader_close(r);
	if (have_trace_cmd())
		bad_page_compressed(path, at, n);
	unlink(path);
}

/* The synthetic trace and its trace-cmd report -N -t text decode alike. */
static void test_dat_synthetic_as_text(void **state)
{
	char path[512], out[512], args[1536];
	struct dw w;

	(void)state;
	if (!have_trace_cmd())
		skip();
	dw_build(&w, NULL);
	tmp_path(path, sizeof(path), "synthetic");
	write_file(path, w.p, w.len);
	free(w.p);
	tmp_path(out, sizeof(out), "synthetic-report");
	an_test_fmt(args, sizeof(args), "report -N -t -i '%s'", path);
	if (!run_trace_cmd(args, out))
		fail_msg("trace-cmd %s failed", args);
	compare_readers(path, out, "synthetic report -N -t", false, false);
	unlink(out);
	unlink(path);
}

/* Read a whole file into memory. */
static unsigned char *slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	unsigned char *buf;
	struct stat st;

	assert_non_null(fp);
	assert_int_equal(fstat(fileno(fp), &st), 0);
	*len = (size_t)st.st_size;
	buf = malloc(*len ? *len : 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, *len, fp), *len);
	fclose(fp);
	return buf;
}

/*
 * Open @len bytes of @data as a file and read it to the end: the result must
 * be @want (0: any error; 1: read to the end; ANY_OUTCOME: anything) with a
 * diagnostic naming the file. Returns the code.
 */
static int open_bytes(const void *data, size_t len, int want, const char *what)
{
	struct an_reader *r = NULL;
	struct an_event ev;
	struct an_diag d;
	char path[512], msg[1024];
	int rc;

	tmp_path(path, sizeof(path), "bad");
	write_file(path, data, len);
	rc = an_reader_open(path, &r, &d);
	if (rc == 0) {
		/* the structure was fine: then reading must end or fail cleanly */
		while ((rc = an_reader_next(r, &ev, &d)) > 0 ||
		       (rc < 0 && an_error_is_recoverable(rc)))
			;
		an_reader_close(r);
		rc = rc ? rc : 1;
	}
	an_diag_format(&d, msg, sizeof(msg));
	unlink(path);
	if (want == ANY_OUTCOME && (rc >= 0 || strstr(msg, path)))
		return rc;
	if ((want && rc != want) || (!want && rc >= 0) || (rc < 0 && !strstr(msg, path)))
		fail_msg("%s (%zu bytes): rc %d want %d: '%s'", what, len, rc, want, msg);
	return rc;
}

/* The Juno trace cut at many places: every cut is refused at open. */
static void test_dat_truncated(void **state)
{
	static const struct { unsigned long long len; int want; } cuts[] = {
		{ 1, AN_E_FORMAT },		/* not even the magic */
		{ 9, AN_E_FORMAT },
		{ 10, AN_E_CORRUPT },		/* magic, no version */
		{ 12, AN_E_CORRUPT },
		{ 100, AN_E_CORRUPT },		/* inside header_page */
		{ 4096, AN_E_CORRUPT },		/* inside the event formats */
		{ 100000, AN_E_CORRUPT },
		{ 3000000, AN_E_CORRUPT },	/* inside kallsyms */
		{ 3235840, AN_E_CORRUPT },	/* start of CPU 0 data */
		{ 3236000, AN_E_CORRUPT },	/* inside CPU 0 data: crashed libtracecmd */
		{ 3300000, AN_E_CORRUPT },
		{ JUNO_SIZE - 1, AN_E_CORRUPT },	/* last byte of CPU 5 */
	};
	unsigned char *buf;
	char path[1024];
	size_t len;

	(void)state;
	if (!an_test_trace(JUNO, path, sizeof(path)))
		skip();
	buf = slurp(path, &len);
	assert_int_equal(len, JUNO_SIZE);
	for (size_t i = 0; i < ARRAY_SIZE(cuts); i++)
		open_bytes(buf, (size_t)cuts[i].len, cuts[i].want, "juno cut");
	free(buf);
}

/* The v7 compressed form cut: refused, never a crash. */
static void test_dat_truncated_v7(void **state)
{
	char path[1024], out[512], args[1536];
	unsigned char *buf;
	size_t len;

	(void)state;
	if (!an_test_trace(JUNO, path, sizeof(path)) || !have_trace_cmd())
		skip();
	tmp_path(out, sizeof(out), "v7cut");
	an_test_fmt(args, sizeof(args), "convert --file-version 7 --compression zstd -i '%s' -o '%s'",
	    path, out);
	if (!run_trace_cmd(args, "/dev/null"))
		fail_msg("trace-cmd %s failed", args);
	buf = slurp(out, &len);
	unlink(out);
	for (unsigned int k = 1; k < 16; k++)
		open_bytes(buf, len * k / 16, 0, "v7 cut");
	open_bytes(buf, len - 1, ANY_OUTCOME, "v7 cut");	/* the tail is not CPU data */
	open_bytes(buf, 20, AN_E_CORRUPT, "v7 cut");
	free(buf);
}

static size_t find(const struct dw *w, const char *s, size_t n)
{
	for (size_t i = 0; i + n <= w->len; i++)
		if (!memcmp(w->p + i, s, n))
			return i;
	fail_msg("'%s' not in the synthetic trace", s);
	return 0;
}

/* One edit of the synthetic trace and the refusal it must cause (1: none). */
static const struct corrupt_case {
	const char *what;
	const char *anchor;	/* bytes found in the file */
	size_t anchor_len;
	long delta;		/* the edit is at anchor + delta */
	const char *bytes;	/* bytes written there */
	size_t n;
	int want;
} corrupt[] = {
	{ "unknown version", "\x17\x08\x44tracing", 10, 10, "9", 1, AN_E_FORMAT },
	{ "bad byte order", "\x17\x08\x44tracing", 10, 12, "\x02", 1, AN_E_CORRUPT },
	{ "bad long size", "\x17\x08\x44tracing", 10, 13, "\x05", 1, AN_E_CORRUPT },
	{ "odd page size", "\x17\x08\x44tracing", 10, 14, "\x03\x10", 2, AN_E_CORRUPT },
	{ "header tag", "header_page", 11, 0, "HEADER", 6, AN_E_CORRUPT },
	{ "huge header size", "header_page", 11, 12, "\xff\xff\xff\x7f", 4, AN_E_CORRUPT },
	{ "huge CPU count", "options  ", 9, -4, "\x00\x00\x01\x00", 4, AN_E_CORRUPT },
	{ "CPU data beyond the end", "flyrecord", 9, 10 + 6, "\x00\x7f", 2, AN_E_CORRUPT },
	{ "CPU size beyond the end", "flyrecord", 9, 10 + 8 + 3, "\x10", 1, AN_E_CORRUPT },
	{ "latency data", "flyrecord", 9, 0, "latency  ", 9, AN_E_FORMAT },
	{ "unknown data tag", "flyrecord", 9, 0, "flyaway", 7, AN_E_CORRUPT },
	/* hidden from libtracecmd, which would read past it (test_an_datdiff) */
	{ "UNAME without its NUL", "aarch64", 7, 7, "x", 1, 1 },
	{ "event hooks option", "options  ", 9, 10, "\x06", 1, 1 },
	{ "time shift option", "options  ", 9, 10, "\x0c", 1, AN_E_FORMAT },
	{ "CPU count option of 3 bytes", "options  ", 9, 10, "\x08\x00\x03", 3, AN_E_CORRUPT },
	{ "option larger than the file", "options  ", 9, 12, "\xff\xff\xff\x0f", 4, AN_E_CORRUPT },
};

static void test_dat_corrupt(void **state)
{
	struct dw w;

	(void)state;
	dw_build(&w, "Linux juno 5.10.0-ucval #1 SMP PREEMPT aarch64");
	for (size_t i = 0; i < ARRAY_SIZE(corrupt); i++) {
		const struct corrupt_case *c = &corrupt[i];
		unsigned char *copy = malloc(w.len);
		size_t at = find(&w, c->anchor, c->anchor_len) + (size_t)c->delta;
		char what[256];

		assert_non_null(copy);
		memcpy(copy, w.p, w.len);
		memcpy(copy + at, c->bytes, c->n);
		snprintf(what, sizeof(what), "case %zu (%s)", i, c->what);
		open_bytes(copy, w.len, c->want, what);
		free(copy);
	}
	free(w.p);
}

/* A ring-buffer length running past its page: that record is a diagnostic. */
static void test_dat_long_record(void **state)
{
	static const char anchor[] = "rt-app\0\0\0\0\0\0\0\0\0\0\x2a";	/* prev_comm, prev_pid */
	struct an_reader *r;
	struct an_event ev;
	struct an_diag d;
	char path[512];
	int rc, nr_bad = 0, nr_events = 0;
	size_t at;
	struct dw w;

	(void)state;
	dw_build(&w, NULL);
	at = find(&w, anchor, sizeof(anchor) - 1) - 12;	/* the record header */
	memcpy(w.p + at, "\x00\x00\x00\x00\xff\xff\xff\x7f", 8);	/* type_len 0, length 2G */
	tmp_path(path, sizeof(path), "long");
	write_file(path, w.p, w.len);
	free(w.p);
	assert_int_equal(an_reader_open(path, &r, &d), 0);
	while ((rc = an_reader_next(r, &ev, &d)) != 0) {
		if (rc < 0) {
			assert_int_equal(rc, AN_E_VALUE);
			assert_int_equal(d.record, 1);
			nr_bad++;
		} else {
			nr_events++;
		}
	}
	assert_int_equal(nr_bad, 1);
	assert_true(nr_events >= 3);	/* CPU 1 still reads */
	an_reader_close(r);
	unlink(path);
}

/* Damaged pages and records: refused, diagnosed or skipped, never a crash. */
static void test_dat_bad_records(void **state)
{
	struct dw w;
	size_t data;

	(void)state;
	dw_build(&w, NULL);
	data = w.len - 2 * DW_PAGE;
	for (size_t off = data; off < data + 512; off += 3) {
		unsigned char *copy = malloc(w.len);

		assert_non_null(copy);
		memcpy(copy, w.p, w.len);
		copy[off] ^= 0xff;
		open_bytes(copy, w.len, ANY_OUTCOME, "flipped record byte");
		free(copy);
	}
	free(w.p);
}

/*
 * Printk format lines as libtraceevent 1.7 reads them: an address, its ':',
 * one skipped character, then a format of at least three characters after
 * a leading quote. Under ASan, tep_parse_printk_formats() read outside its
 * buffer on every refused row but ':::' (where it stops: malformed anyway)
 * and on none of the accepted ones.
 */
static void test_dat_printk_lines(void **state)
{
	static const struct { const char *text; size_t len; bool ok; } rows[] = {
		{ "0xffffffff8281288c : \"thaw_processes\"\n", 0, true },
		{ "0xffffffff82813965 : \"NQ\"\n0xffffffff82813ab6 : \"CB\"\n", 0, true },
		{ "0x1 : \"%d\\n\"", 0, true },
		{ "", 0, true },
		{ "\n\n", 0, true },
		{ "0x1 : \"abc\"\0 nothing after a NUL is read", 40, true },
		{ "x : abc", 0, true },
		{ "0x1 : \"d\"\n", 0, false },		/* format 'd"' */
		{ "0x1 : \"\"\n", 0, false },
		{ "0x1 : \"abc\"\n0x2 : \"d\"", 0, false },	/* the second line */
		{ "0x1 \"abc\"", 0, false },		/* no ':' */
		{ "0x1 :", 0, false },			/* nothing after it */
		{ ":x", 0, false },			/* leading ':' are skipped */
		{ ":::", 0, false },			/* the library stops there */
		{ "a:b", 0, false },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		size_t len = rows[i].len ? rows[i].len : strlen(rows[i].text);

		if (an_datformat_printk_ok(rows[i].text, len) != rows[i].ok)
			fail_msg("row %zu '%s': %s expected", i, rows[i].text,
				 rows[i].ok ? "accepted" : "refused");
	}
}

/*
 * Print-format expressions libtraceevent 1.7.1 crashes on: it double-frees
 * a token after some sizeof() (datformat.c sizeof_crashes()), and reads
 * NULL when the operand after a condition's ':' goes on with '.', "->" or
 * '[' (else_operand_crashes()). Those are refused; every format accepted is
 * parsed here by libtraceevent, so the sanitizer build of this test fails
 * if one of them is not safe.
 */
static void test_dat_format_expr(void **state)
{
	static const struct { const char *arg; bool ok; } rows[] = {
		{ "REC->n ? 1 : z.a", false },
		{ "REC->n ? 1 : z -> a", false },
		{ "REC->n ? 1 : z[1]", false },
		{ "REC->n ? 1 : 2 . a", false },
		{ "REC->n ? 1 : \"s\" . a", false },
		{ "REC->n ? 1 : REC->n[1]", false },
		{ "REC->n ? 1 : REC->n.a", false },
		{ "REC->n ? 2 ? 1 : z.a : 3", false },	/* the inner condition */
		{ "REC->n ? 1 : 0;", false },		/* a mangled sched_switch */
		{ "REC->n ? 1 : (z);", false },
		{ "REC->n ? 1 : z ]", false },
		{ "REC->n ? 1 : z {", false },
		{ "REC->n ? 1 : z }", false },
		{ "REC->n ? 1 : z = 1", false },
		{ "REC->n ? 1 : \"s\";", false },
		{ "REC->n ? 1 : z == 1", true },
		{ "REC->n ? 1 : z * 2;", true },	/* past an operator it knows */
		{ "REC->n ? 1 : (z) + 1", true },
		{ "REC->n ? 1 : z, 2", true },
		/* a switch in a statement expression (Linux's xhci events): labels */
		{ "({ char *s; switch (REC->n) { case 3: s = \"a\"; break; default: s = \"b\"; } "
		  "s; })", true },
		{ "REC->n ? 1 : (z.a)", true },
		{ "REC->n ? z.a : 1", true },
		{ "REC->n ? 1 : z * 2", true },
		{ "REC->n ? 1 : REC->n", true },
		{ "REC->n ? \"a:b.c\" : \"d\"", true },	/* ':' in a literal */
		{ "REC->n ? 1 : \"x\"", true },
		{ "__get_dynamic_array_len(arr) / sizeof(u64)", true },	/* Linux 6.18 dma */
		{ "__get_dynamic_array_len(arr) / sizeof(unsigned int)", false },	/* ditto */
		{ "REC->n / sizeof(unsigned long)", true },
		{ "REC->n / sizeof(long)", true },
		{ "REC->n / sizeof(bogus_t)", true },
		{ "REC->n / sizeof(struct foo)", true },
		{ "8 / sizeof()", true },
		{ "8 / sizeof(", true },
		{ "REC->n * sizeof(int)", false },
		{ "REC->n * sizeof ( int )", false },
		{ "REC->n / sizeof(long long)", false },
		{ "REC->n / sizeof(unsigned long long)", false },
		{ "8 / sizeof(REC->n)", false },
		{ "sizeof(unsigned int)", false },
		{ "my_sizeof(int)", true },		/* another word */
		{ "\"sizeof(int)\"", true },		/* a string */
		{ "8 / bogus", false },			/* the older rule still holds */
	};
	static const char *const tmpl =
		"name: ev\nID: 100\nformat:\n"
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
		"\tfield:__data_loc u64[] arr;\toffset:8;\tsize:4;\tsigned:0;\n"
		"\tfield:int n;\toffset:12;\tsize:4;\tsigned:1;\n\n"
		"print fmt: \"%%d %%d\", %s, REC->n\n";

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		char text[1024];
		int len = snprintf(text, sizeof(text), tmpl, rows[i].arg);
		bool ok = an_datformat_ok(text, (size_t)len);

		if (ok != rows[i].ok)
			fail_msg("'%s': %s, want %s", rows[i].arg, ok ? "accepted" : "refused",
				 rows[i].ok ? "accepted" : "refused");
		if (ok) {
			struct tep_handle *tep = tep_alloc();
			struct tep_event *ev = NULL;

			assert_non_null(tep);
			tep_parse_format(tep, &ev, text, (unsigned long)len, "sys");
			tep_free(tep);
		}
	}
}

/*
 * Inputs the fuzzer found (tests/fuzz/regressions/), one row each: the fix
 * and what the reader must now answer.
 */
static const struct regression {
	const char *file;
	const char *fix;
	int want;
	int want_lib;	/* libtracecmd's path, when it answers otherwise (0: @want) */
} regressions[] = {
	{ "tracedat-v7-unlisted-compressed-section.dat",
	  "libtracecmd walks every v7 section after the file header for strings sections: "
	  "an unlisted compressed one claiming 3.6 GB made it malloc() that (make fuzz)",
	  AN_E_CORRUPT, 0 },
	{ "tracedat-v7-section-walk-back.dat",
	  "the same walk: a section whose size is 2^64 - 1280 made libtracecmd seek back "
	  "1280 bytes and walk the same headers for ever, at open (make fuzz: a hang; "
	  "trace-cmd report hangs too)", AN_E_CORRUPT, 0 },
	{ "tracedat-v7-strings-compressed-size.dat",
	  "the same walk: a strings section whose block claims 2.9 GB compressed "
	  "(29 MB inflated) made libtracecmd malloc() the larger, as a negative int "
	  "(make check's fuzz run)", AN_E_CORRUPT, 0 },
	{ "tracedat-v7-no-header-info.dat",
	  "v7 options must point at a header info section: with its option id changed, "
	  "libtracecmd failed to open and crashed in its cleanup (make check's fuzz run)",
	  AN_E_CORRUPT, 0 },
	{ "tracedat-v7-event-format-size.dat",
	  "v7 metadata sections walked like v6: an event format size of 8e18 made "
	  "libtracecmd malloc() it", AN_E_CORRUPT, 0 },
	{ "tracedat-v6-header-page-token.dat",
	  "header_page lines parsed as libtraceevent does: a broken 'field:' token left "
	  "no timestamp size, the first page failed and libtracecmd crashed in its cleanup",
	  AN_E_CORRUPT, 0 },
	{ "tracedat-v6-field-bracket.dat",
	  "field declarations checked for balanced brackets: 'char prev_comm[16~;' "
	  "crashed libtraceevent's format parser", AN_E_CORRUPT, 0 },
	{ "tracedat-v6-field-quote.dat",
	  "field declarations without quotes: 'char prev_comm['6]' made libtraceevent's "
	  "tokenizer read a character literal on and crash (make fuzz)", AN_E_CORRUPT, 0 },
	{ "tracedat-v6-header-page-type.dat",
	  "header_page types must be words: 'u6$' split into tokens, left no timestamp "
	  "size and crashed libtracecmd's cleanup", AN_E_CORRUPT, 0 },
	{ "tracedat-v6-undeclared-field.dat",
	  "every REC->field of a print format must be declared: libtraceevent "
	  "dereferenced the missing 'prev_state' inside __print_flags(); the format is now "
	  "read with its print format emptied (test_dat_blanked_format); no record of it "
	  "decodes (they lack that field), so the file is unreadable", AN_E_FORMAT, 0 },
	{ "tracedat-v6-header-page-separator.dat",
	  "header_page lines read token by token: a stray byte before 'size:' left no "
	  "timestamp size in libtraceevent and crashed libtracecmd's cleanup", AN_E_CORRUPT, 0 },
	{ "tracedat-v6-print-fmt-char.dat",
	  "print formats limited to C characters outside literals: a '$' crashed "
	  "libtraceevent's expression parser; the format is now read with its print "
	  "format emptied (test_dat_blanked_format)", 1, 0 },
	{ "tracedat-v6-short-cpu-range.dat",
	  "CPU data shorter than a page header still has its page checked: libtracecmd "
	  "loads the whole page, failed on its commit and crashed in its cleanup", AN_E_CORRUPT, 0 },
	{ "tracedat-v6-event-goes-back.dat",
	  "a record whose length points back before the one read last: libtracecmd's "
	  "reader returned the same records forever (the fuzz corpus, read by both paths); "
	  "both readers now refuse it where it comes", AN_E_CORRUPT, 0 },
	{ "tracedat-v6-huge-event-id.dat",
	  "the format cache grew to the event id a record claims (2^31 and more: "
	  "gigabytes to clear, a timeout in make fuzz); it now grows only for ids the "
	  "formats have, below 65536 (common_type is 16 bits), and the record is a "
	  "diagnostic", 1, 0 },
	{ "tracedat-v7-printk-short-format.dat",
	  "printk format lines checked as libtraceevent reads them: a format shorter "
	  "than three characters made tep_parse_printk_formats() read before its copy "
	  "(ASan, make fuzz; on every reader: libtracecmd parses the headers)", AN_E_CORRUPT, 0 },
	{ "tracedat-v6-walk-length-overflow.dat",
	  "a type-0 event whose length word is 0x80000000: the page walk computed "
	  "length - 4 in int, as kbuffer does, and overflowed (UBSan, make fuzz); it now "
	  "computes in 32-bit unsigned arithmetic, the same bits; no record of it decodes, "
	  "so the file is unreadable", AN_E_FORMAT, 0 },
	{ "tracedat-v6-blanked-overlap.dat",
	  "the copy libtracecmd reads when a print format is emptied left the CPU data "
	  "out, but this file's CPU 1 data overlaps its event formats: libtracecmd read "
	  "a size from the hole (ASan: allocation too big, make check's fuzz run); the "
	  "copy now has every byte, and a format inside CPU data is refused", AN_E_CORRUPT, 0 },
	{ "tracedat-v6-print-fmt-divide.dat",
	  "divisors of a print format must be fields or non-zero numbers: 'R%C->ret' "
	  "made libtraceevent divide by zero while parsing; the format is now read with "
	  "its print format emptied (test_dat_blanked_format); no record of it decodes, "
	  "so the file is unreadable", AN_E_FORMAT, 0 },
	{ "tracedat-v6-cond-operand.dat",
	  "a mangled sched_switch print format, \"c ? a : b\" whose b goes on with "
	  "\"fmt:C->\": libtraceevent read NULL at open (make fuzz); its print format is "
	  "now emptied; its CPU data overlaps the formats, which libtracecmd's path refuses "
	  "at open; datpages reads its first events and refuses a page larger than a page",
	  AN_E_CORRUPT, 0 },
	{ "tracedat-v6-length-back-count.dat",
	  "a type-0 event whose length word is 0xfffffff6 points 4 bytes back: "
	  "kbuffer (libtraceevent 1.7.1) walked the two events in turn for ever while "
	  "datcheck.c counted a CPU's events at open (make fuzz: a hang); every page is "
	  "now checked to walk forward before kbuffer reads it", AN_E_CORRUPT, 0 },
	{ "tracedat-v6-length-back-walk.dat",
	  "the same page with the file's other damage mended: every reader stopped at "
	  "it for ever; refused at the page, at open on libtracecmd's path",
	  AN_E_CORRUPT, 0 },
	{ "tracedat-v7-compressed-cpu-none.dat",
	  "a CPU data section flagged compressed in a file whose compression is 'none', "
	  "with no chunk: libtracecmd had no decompressor for it, failed at open and "
	  "crashed in its cleanup (make fuzz); refused at open", AN_E_CORRUPT, 0 },
	{ "tracedat-v7-zstd-cond-operand.dat",
	  "the same in a compressed section, \"c ? a : 0;\": a ';' after the operand made "
	  "libtraceevent read NULL too (make fuzz); its print format is now emptied", 1, 0 },
};

static void test_dat_fuzz_regressions(void **state)
{
	(void)state;
	for (size_t i = 0; i < 3 * ARRAY_SIZE(regressions); i++) {
		/* each file by datpages.c (walking, then kbuffer), then by libtracecmd */
		static const enum an_dat_reader how[] = {
			AN_DAT_PAGES, AN_DAT_KBUFFER, AN_DAT_LIBTRACECMD,
		};
		const struct regression *g = &regressions[i % ARRAY_SIZE(regressions)];
		enum an_dat_reader h = how[i / ARRAY_SIZE(regressions)];
		struct an_reader *r = NULL;
		struct an_event ev;
		struct an_diag d;
		char path[1024];
		int rc, want;

		an_test_fmt(path, sizeof(path), "%s/tests/fuzz/regressions/%s", an_test_root(), g->file);
		an_reader_set_dat_reader(h);
		rc = an_reader_open(path, &r, &d);
		an_reader_set_dat_reader(AN_DAT_PAGES);
		if (rc == 0) {
			/* every event, past skipped records, to the end or a fatal error */
			while ((rc = an_reader_next(r, &ev, &d)) > 0 ||
			       (rc < 0 && an_error_is_recoverable(rc)))
				;
			an_reader_close(r);
			rc = rc ? rc : 1;
		}
		want = h == AN_DAT_LIBTRACECMD && g->want_lib ? g->want_lib : g->want;
		if (rc != want)
			fail_msg("regression %zu (%s, %s, %s): rc %d want %d (%s)", i, g->file,
				 h == AN_DAT_LIBTRACECMD ? "libtracecmd" :
				 h == AN_DAT_KBUFFER ? "kbuffer" : "datpages", g->fix, rc, want,
				 d.message);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dat_juno),
		cmocka_unit_test(test_dat_juno_as_text),
		cmocka_unit_test(test_dat_juno_as_v7),
		cmocka_unit_test(test_dat_synthetic),
		cmocka_unit_test(test_dat_blanked_format),
		cmocka_unit_test(test_dat_blanked_no_newline),
		cmocka_unit_test(test_dat_memory),
		cmocka_unit_test(test_dat_reads_per_event),
		cmocka_unit_test(test_dat_blanked_copy_size),
		cmocka_unit_test(test_dat_unplaced_losses),
		cmocka_unit_test(test_dat_pages_match_library),
		cmocka_unit_test(test_dat_event_kinds),
		cmocka_unit_test(test_dat_bad_page_later),
		cmocka_unit_test(test_dat_synthetic_as_text),
		cmocka_unit_test(test_dat_truncated),
		cmocka_unit_test(test_dat_truncated_v7),
		cmocka_unit_test(test_dat_corrupt),
		cmocka_unit_test(test_dat_long_record),
		cmocka_unit_test(test_dat_bad_records),
		cmocka_unit_test(test_dat_printk_lines),
		cmocka_unit_test(test_dat_format_expr),
		cmocka_unit_test(test_dat_fuzz_regressions),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
