// SPDX-License-Identifier: MIT
/*
 * tests/test_col_probebuf.c - a trace.dat with two instances, as `ucval
 * collect --probes` writes it: kernel events in the top instance, the probe
 * events (collect/probefmt.c) in the "probes" instance, both built from
 * fixed records with collect/pagebuf.c and written by collect/datwrite.c.
 * `trace-cmd report` must show both; ucval's trace.dat readers (pages,
 * kbuffer and libtracecmd) must give the records of both merged by
 * timestamp, the top instance first on a tie, and a probe loss as a
 * lost_events event where the page that reports it starts, or after the
 * CPU's last record when an empty page reports it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analyze/read/reader.h"
#include "collect/datwrite.h"
#include "collect/pagebuf.h"
#include "collect/pagesort.h"
#include "collect/probefmt.h"
#include "tests/an_testutil.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define NR_CPUS		2
#define PAGE		4096u
#define T0		1000000000ULL

#define COMMON_FIELDS \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

static const char header_page[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:1;\n";
static const char header_event[] =
	"# compressed entry header\n\ttype_len    :    5 bits\n\ttime_delta  :   27 bits\n"
	"\tarray       :   32 bits\n\n\tpadding     : type == 29\n\ttime_extend : type == 30\n"
	"\ttime_stamp : type == 31\n\tdata max type_len  == 28\n";
static const char fmt_wakeup[] =
	"name: sched_wakeup\nID: 318\nformat:\n" COMMON_FIELDS
	"\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:int prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:int target_cpu;\toffset:32;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"comm=%s pid=%d prio=%d target_cpu=%03d\", REC->comm, REC->pid, "
	"REC->prio, REC->target_cpu\n";

/* One record of the fixed trace. */
struct fixed {
	int is_probe;		/* in the "probes" instance */
	unsigned int cpu;
	uint64_t ts;
	unsigned int type;	/* probe: enum col_probe_ev */
	uint64_t lost;		/* probe records lost before this one */
};

/* top: sched_wakeup; probes: a PELT and a clamp record; a tie at T0 + 300 */
static const struct fixed trace[] = {
	{ 0, 0, T0 + 100, 0, 0 },
	{ 1, 0, T0 + 150, COL_PROBE_UTIL_CFS, 0 },
	{ 1, 1, T0 + 200, COL_PROBE_PELT_CFS, 0 },
	{ 0, 1, T0 + 250, 0, 0 },
	{ 1, 0, T0 + 300, COL_PROBE_TASK_EFF, 0 },
	{ 0, 0, T0 + 300, 0, 0 },
	{ 1, 1, T0 + 400, COL_PROBE_PELT_CFS, 7 },
	{ 0, 0, T0 + 500, 0, 0 },
	{ 1, 0, T0 + 600, COL_PROBE_TG, 0 },
};

/* Probe records CPU 1 loses after its last one (an empty page reports them). */
#define TAIL_LOST	5

/*
 * The order every reader must give: the index in trace[], -1 for the loss
 * before trace[6], -2 for the tail loss, stamped with CPU 1's last record.
 */
static const int merged[] = { 0, 1, 2, 3, 5, 4, -1, 6, -2, 7, 8 };

static void put_wakeup(struct col_pagebuf *b, const struct fixed *f, int pid)
{
	unsigned char rec[36] = { 0 };
	unsigned short id = 318;
	int target = (int)f->cpu;

	memcpy(rec, &id, 2);
	memcpy(rec + 4, &pid, 4);
	memcpy(rec + 8, "task", 4);
	memcpy(rec + 24, &pid, 4);
	memcpy(rec + 32, &target, 4);
	assert_int_equal(col_pagebuf_add(b, f->cpu, f->ts, rec, sizeof(rec)), 0);
}

static void put_probe(struct col_pagebuf *b, const struct fixed *f, int pid)
{
	unsigned char rec[8 + sizeof(((struct col_probe_rec *)0)->u)] = { 0 };
	unsigned short id = (unsigned short)(COL_PROBEFMT_ID_BASE + f->type);
	struct col_probe_rec r = { .ts = f->ts, .cpu = f->cpu, .type = f->type, .pid = pid };

	switch (f->type) {
	case COL_PROBE_UTIL_CFS:
		r.u.util_cfs = (struct col_probe_util_cfs){ .cpu = (int)f->cpu, .util_avg = 100,
			.uclamp_avg = 256, .uclamp_min = 256, .uclamp_max = 1024 };
		break;
	case COL_PROBE_PELT_CFS:
		r.u.pelt_cfs = (struct col_probe_pelt_cfs){ .cpu = (int)f->cpu, .path = "/",
			.util = 300 };
		break;
	case COL_PROBE_TG:
		r.u.tg = (struct col_probe_tg){ .path = "/a/b", .clamp_id = 1, .value = 800,
			.effective = 307 };
		break;
	default:
		r.u.task_eff = (struct col_probe_task_eff){ .pid = pid, .comm = "task",
			.clamp_id = 0, .value = 256, .effective = 256, .bucket_id = 1 };
		break;
	}
	memcpy(rec, &id, 2);
	memcpy(rec + 4, &pid, 4);
	memcpy(rec + 8, &r.u, col_probefmt_size(f->type));
	if (f->lost)
		col_pagebuf_lost(b, f->cpu, f->lost);
	assert_int_equal(col_pagebuf_add(b, f->cpu, f->ts, rec, 8 + col_probefmt_size(f->type)),
			 0);
}

static void write_trace(const char *path)
{
	static const struct col_dat_blob sched_fmts[] = { { fmt_wakeup, sizeof(fmt_wakeup) - 1 } };
	static const char clock[] = "local global counter uptime perf [mono] mono_raw boot\n";
	struct col_dat_system systems[2] = { { "sched", sched_fmts, 1 } };
	struct col_dat_option opts[] = { { 4, clock, sizeof(clock) } };
	struct col_pagebuf *top, *probes;
	const int *top_fds, *probe_fds;
	struct col_dat_instance inst;
	struct col_dat_input in;
	struct an_diag d;

	systems[1] = *col_probefmt_system();
	assert_int_equal(col_pagebuf_open(NR_CPUS, PAGE, NULL, &top, &d), 0);
	assert_int_equal(col_pagebuf_open(NR_CPUS, PAGE, NULL, &probes, &d), 0);
	for (size_t i = 0; i < ARRAY_SIZE(trace); i++) {
		if (trace[i].is_probe)
			put_probe(probes, &trace[i], 100 + (int)i);
		else
			put_wakeup(top, &trace[i], 100 + (int)i);
	}
	col_pagebuf_lost(probes, 1, TAIL_LOST);
	assert_int_equal(col_pagebuf_finish(top, &top_fds), 0);
	assert_int_equal(col_pagebuf_finish(probes, &probe_fds), 0);
	inst = (struct col_dat_instance){ COL_PROBEFMT_INSTANCE, probe_fds };
	in = (struct col_dat_input){
		.page_size = PAGE, .long_size = 8,
		.header_page = { header_page, sizeof(header_page) - 1 },
		.header_event = { header_event, sizeof(header_event) - 1 },
		.systems = systems, .nr_systems = 2,
		.cmdlines = { "", 0 }, .options = opts, .nr_options = ARRAY_SIZE(opts),
		.nr_cpus = NR_CPUS, .cpu_fds = top_fds, .instances = &inst, .nr_instances = 1,
	};
	assert_int_equal(col_datwrite_file(path, &in, &d), 0);
	col_pagebuf_close(top);
	col_pagebuf_close(probes);
}

static const char *expected_name(int k)
{
	if (k < 0)
		return "lost_events";
	return trace[k].is_probe ? col_probefmt_name(trace[k].type) : "sched_wakeup";
}

/* Every reader: the records of both instances in merged[] order. */
static void test_readers_merge(void **state)
{
	static const enum an_dat_reader readers[] = {
		AN_DAT_PAGES, AN_DAT_KBUFFER, AN_DAT_LIBTRACECMD,
	};
	char path[] = "/tmp/ucval-probebuf-XXXXXX";
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	write_trace(path);
	for (size_t k = 0; k < ARRAY_SIZE(readers); k++) {
		struct an_reader *r = NULL;
		struct an_event ev;
		struct an_diag d;
		size_t n = 0;
		int rc;

		an_reader_set_dat_reader(readers[k]);
		an_diag_clear(&d);
		assert_int_equal(an_reader_open(path, &r, &d), 0);
		while ((rc = an_reader_next(r, &ev, &d)) > 0) {
			int want = merged[n];

			if (n >= ARRAY_SIZE(merged))
				fail_msg("reader %zu: more records than written", k);
			if (strcmp(ev.name, expected_name(want)))
				fail_msg("reader %zu, record %zu: %s, not %s", k, n, ev.name,
					 expected_name(want));
			if (want >= 0) {
				assert_int_equal(ev.ts_ns, trace[want].ts);
				if (trace[want].type == COL_PROBE_TG && trace[want].is_probe) {
					assert_int_equal(ev.type, AN_EV_UCLAMP_TG);
					assert_string_equal(ev.tg.path, "/a/b");
					assert_int_equal(ev.tg.clamp_id, 1);
					assert_int_equal(ev.tg.value, 800);
					assert_int_equal(ev.tg.effective, 307);
				}
			} else if (want == -1) {
				assert_int_equal(ev.lost.count, 7);
			} else {
				assert_int_equal(ev.lost.count, TAIL_LOST);
				assert_int_equal(ev.cpu, 1);
				assert_int_equal(ev.ts_ns, trace[6].ts);
			}
			n++;
		}
		if (rc < 0)
			fail_msg("reader %zu: %s", k, d.message);
		assert_int_equal(n, ARRAY_SIZE(merged));
		assert_int_equal(an_reader_info(r)->nr_lost, 7 + TAIL_LOST);
		an_reader_close(r);
	}
	an_reader_set_dat_reader(AN_DAT_PAGES);
	unlink(path);
}

/* trace-cmd report shows the records of both instances. */
static void test_trace_cmd_report(void **state)
{
	char path[] = "/tmp/ucval-probebuf-XXXXXX";
	int fd = mkstemp(path);
	char cmd[512], line[512];
	unsigned int wakeups = 0, probes = 0;
	FILE *p;

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	if (system("command -v trace-cmd >/dev/null 2>&1")) {
		unlink(path);
		printf("# skip: trace-cmd is not installed\n");
		skip();
	}
	write_trace(path);
	an_test_fmt(cmd, sizeof(cmd), "trace-cmd report -i '%s' 2>&1", path);
	p = popen(cmd, "r");
	assert_non_null(p);
	while (fgets(line, sizeof(line), p)) {
		if (strstr(line, "sched_wakeup:"))
			wakeups++;
		if (strstr(line, "uclamp_util_cfs:") || strstr(line, "sched_pelt_cfs:") ||
		    strstr(line, "uclamp_task_eff:") || strstr(line, "uclamp_tg:"))
			probes++;
	}
	assert_int_equal(WEXITSTATUS(pclose(p)), 0);
	assert_int_equal(wakeups, 4);
	assert_int_equal(probes, 5);
	unlink(path);
}

/*
 * Records as the BPF ring gives them: on CPU 0 a program reserved its
 * record, was interrupted by one whose two records it then preceded in
 * the ring, and stamped its own after them. Written as they come, two
 * records go onto the pages stamped back; held and flushed, none.
 */
static void test_pagesort(void **state)
{
	static const struct { unsigned int cpu; uint64_t ts; } ring[] = {
		{ 0, T0 + 300 }, { 1, T0 + 50 }, { 0, T0 + 100 }, { 0, T0 + 200 }, { 1, T0 + 60 },
	};
	static const struct {
		const char *name;
		bool is_sorted;
		uint64_t back;
	} rows[] = {
		{ "in ring order", false, 2 },
		{ "held and flushed", true, 0 },
	};
	const unsigned char rec[16] = { 1 };
	struct an_diag d;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		struct col_pagesort sort = { 0 };
		struct col_pagebuf *b;
		uint64_t written = 0;

		assert_int_equal(col_pagebuf_open(NR_CPUS, PAGE, NULL, &b, &d), 0);
		for (size_t k = 0; k < ARRAY_SIZE(ring); k++)
			assert_int_equal(rows[i].is_sorted ?
					 col_pagesort_add(&sort, ring[k].cpu, ring[k].ts, rec, sizeof(rec)) :
					 col_pagebuf_add(b, ring[k].cpu, ring[k].ts, rec, sizeof(rec)), 0);
		assert_int_equal(col_pagesort_flush(&sort, b, &written), 0);
		assert_int_equal(written, rows[i].is_sorted ? ARRAY_SIZE(ring) : 0);
		if (col_pagebuf_back(b) != rows[i].back)
			fail_msg("%s: %llu records stamped back, want %llu", rows[i].name,
				 (unsigned long long)col_pagebuf_back(b),
				 (unsigned long long)rows[i].back);
		/* older than what an earlier flush wrote: after it, stamped back */
		assert_int_equal(col_pagesort_add(&sort, 0, T0 + 10, rec, sizeof(rec)), 0);
		assert_int_equal(col_pagesort_flush(&sort, b, &written), 0);
		assert_int_equal(col_pagebuf_back(b), rows[i].back + 1);
		assert_int_equal(col_pagesort_add(&sort, 0, T0, rec, COL_PAGESORT_REC_MAX + 1),
				 -EINVAL);
		col_pagesort_release(&sort);
		col_pagebuf_close(b);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_readers_merge),
		cmocka_unit_test(test_trace_cmd_report),
		cmocka_unit_test(test_pagesort),
	};

	an_reader_set_quiet(true);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
