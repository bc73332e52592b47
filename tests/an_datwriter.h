/* SPDX-License-Identifier: MIT */
/*
 * tests/an_datwriter.h - build a small trace.dat v6 in memory, without a
 * kernel: event formats written here, records as bytes (trace-cmd.dat.v6(5),
 * the ring-buffer page layout of header_page/header_event). Used by
 * test_an_tracedat.c and as a fuzz seed.
 *
 * The synthetic trace covers what the Juno trace does not: a 4.14+ prev_state
 * encoding, fields in another order, a __data_loc string, a missing required
 * field, a negative int, an unknown event, a UNAME option, and lost events.
 * Its variants (struct dw_spec) cover what trace-cmd versions wrote: either
 * byte order, 4-byte longs, no options section, any option bytes (an empty
 * TRACECLOCK and the clock after the CPU table, as trace-cmd 2.2.1 to 2.9.2 did;
 * texts without their NUL), and a large kallsyms.
 */
#ifndef UCVAL_TESTS_AN_DATWRITER_H
#define UCVAL_TESTS_AN_DATWRITER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DW_PAGE		4096	/* ring-buffer page of the synthetic trace */
#define DW_MISSED	(1ULL << 31)	/* commit flag: events lost before the page */
#define DW_MISSED_STORED (1ULL << 30)	/* commit flag: count stored after the data */
#define DW_BASE_TS	1000000000ULL	/* first page timestamp, ns */

struct dw {
	unsigned char *p;
	size_t len, cap;
};

/*
 * Byte order and long size of the file being built: dw_build_spec() sets
 * them from its spec, and puts back the defaults (little endian, 8) after.
 */
static struct {
	bool is_big;
	unsigned int long_size;
} dw_cfg = { false, 8 };

static inline void dw_put(struct dw *w, const void *data, size_t n)
{
	if (w->len + n > w->cap) {
		w->cap = (w->len + n) * 2;
		w->p = realloc(w->p, w->cap);
		if (!w->p)
			abort();
	}
	memcpy(w->p + w->len, data, n);
	w->len += n;
}

static inline void dw_num(struct dw *w, uint64_t v, unsigned int n)
{
	unsigned char b[8];

	for (unsigned int i = 0; i < n; i++)
		b[dw_cfg.is_big ? n - 1 - i : i] = (unsigned char)(v >> (8 * i));
	dw_put(w, b, n);
}

static inline void dw_str(struct dw *w, const char *s)
{
	dw_put(w, s, strlen(s) + 1);
}

static inline void dw_blob(struct dw *w, const char *s, unsigned int size_bytes)
{
	dw_num(w, strlen(s), size_bytes);
	dw_put(w, s, strlen(s));
}

static inline void dw_zero(struct dw *w, size_t n)
{
	while (n--)
		dw_num(w, 0, 1);
}

#define DW_COMMON \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

static const char dw_header_page[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:1;\n";

/* The same for a 4-byte long (a 32-bit kernel): a 4-byte commit word. */
static const char dw_header_page4[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:12;\tsize:4084;\tsigned:1;\n";

static const char dw_header_event[] =
	"# compressed entry header\n"
	"\ttype_len    :    5 bits\n"
	"\ttime_delta  :   27 bits\n"
	"\tarray       :   32 bits\n\n"
	"\tpadding     : type == 29\n"
	"\ttime_extend : type == 30\n"
	"\ttime_stamp : type == 31\n"
	"\tdata max type_len  == 28\n";

static const char dw_fmt_print[] =
	"name: print\nID: 5\nformat:\n" DW_COMMON
	"\tfield:unsigned long ip;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:char buf;\toffset:16;\tsize:0;\tsigned:0;\n\n"
	"print fmt: \"%ps: %s\", (void *)REC->ip, REC->buf\n";

/* prev_state as since 4.14: S D T t X Z P I, then '+' for preempted (256). */
static const char dw_fmt_switch[] =
	"name: sched_switch\nID: 300\nformat:\n" DW_COMMON
	"\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
	"\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
	"\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s%s ==> next_comm=%s "
	"next_pid=%d next_prio=%d\", REC->prev_comm, REC->prev_pid, REC->prev_prio, "
	"(REC->prev_state & 255) ? __print_flags(REC->prev_state & 255, \"|\", { 0x01, \"S\" }, "
	"{ 0x02, \"D\" }, { 0x04, \"T\" }, { 0x08, \"t\" }, { 0x10, \"X\" }, { 0x20, \"Z\" }, "
	"{ 0x40, \"P\" }, { 0x80, \"I\" }) : \"R\", "
	"REC->prev_state & ((0x7f + 1) << 1) ? \"+\" : \"\", "
	"REC->next_comm, REC->next_pid, REC->next_prio\n";

/* Without target_cpu: every record is a missing-field diagnostic. */
static const char dw_fmt_wakeup[] =
	"name: sched_wakeup\nID: 301\nformat:\n" DW_COMMON
	"\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:int prio;\toffset:28;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"comm=%s pid=%d prio=%d\", REC->comm, REC->pid, REC->prio\n";

static const char dw_fmt_load[] =
	"name: sched_load_cfs_rq\nID: 303\nformat:\n" DW_COMMON
	"\tfield:int cpu;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:__data_loc char[] path;\toffset:12;\tsize:4;\tsigned:0;\n"
	"\tfield:unsigned long load;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned long util;\toffset:24;\tsize:8;\tsigned:0;\n\n"
	"print fmt: \"cpu=%d path=%s load=%lu util=%lu\", REC->cpu, __get_str(path), "
	"REC->load, REC->util\n";

static const char dw_fmt_util_cfs[] =
	"name: lisa__uclamp_util_cfs\nID: 304\nformat:\n" DW_COMMON
	"\tfield:unsigned int uclamp_max;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:unsigned int util_avg;\toffset:12;\tsize:4;\tsigned:0;\n"
	"\tfield:int cpu;\toffset:16;\tsize:4;\tsigned:1;\n"
	"\tfield:unsigned int uclamp_min;\toffset:20;\tsize:4;\tsigned:0;\n"
	"\tfield:unsigned int uclamp_avg;\toffset:24;\tsize:4;\tsigned:0;\n\n"
	"print fmt: \"cpu=%d util_avg=%u uclamp_avg=%u uclamp_min=%u uclamp_max=%u\", "
	"REC->cpu, REC->util_avg, REC->uclamp_avg, REC->uclamp_min, REC->uclamp_max\n";

static const char dw_fmt_sugov[] =
	"name: sugov_util_update\nID: 305\nformat:\n" DW_COMMON
	"\tfield:int cpu;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:unsigned int util;\toffset:12;\tsize:4;\tsigned:0;\n"
	"\tfield:unsigned int max;\toffset:16;\tsize:4;\tsigned:0;\n"
	"\tfield:unsigned int flags;\toffset:20;\tsize:4;\tsigned:0;\n\n"
	"print fmt: \"cpu=%d util=%u max=%u flags=0x%x\", REC->cpu, REC->util, REC->max, "
	"REC->flags\n";

static const char dw_fmt_request[] =
	"name: uclamp_request\nID: 306\nformat:\n" DW_COMMON
	"\tfield:pid_t pid;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:char comm[16];\toffset:12;\tsize:16;\tsigned:0;\n"
	"\tfield:int clamp_id;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:unsigned int value;\toffset:32;\tsize:4;\tsigned:0;\n"
	"\tfield:int ret;\toffset:36;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"pid=%d comm=%s clamp_id=%d value=%u ret=%d\", REC->pid, REC->comm, "
	"REC->clamp_id, REC->value, REC->ret\n";

static const char dw_fmt_idle[] =
	"name: cpu_idle\nID: 302\nformat:\n" DW_COMMON
	"\tfield:u32 state;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:u32 cpu_id;\toffset:12;\tsize:4;\tsigned:0;\n\n"
	"print fmt: \"state=%lu cpu_id=%lu\", (unsigned long)REC->state, "
	"(unsigned long)REC->cpu_id\n";

static const char dw_fmt_foo[] =
	"name: foo_bar\nID: 307\nformat:\n" DW_COMMON
	"\tfield:int x;\toffset:8;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"x=%d\", REC->x\n";

/*
 * An event whose print format divides by sizeof(unsigned int), as Linux
 * 6.18's dma_map_sg does: libtraceevent 1.7.1 frees a token twice parsing
 * it (analyze/read/dat/datformat.c sizeof_crashes()). No record of it is written.
 */
static const char dw_fmt_sizeof[] =
	"name: dma_sizes\nID: 308\nformat:\n" DW_COMMON
	"\tfield:__data_loc unsigned int[] lengths;\toffset:8;\tsize:4;\tsigned:0;\n\n"
	"print fmt: \"sizes=%s\", __print_array(__get_dynamic_array(lengths), "
	"__get_dynamic_array_len(lengths) / sizeof(unsigned int), sizeof(unsigned int))\n";

/* One record: header word (type_len = payload / 4, time delta) then payload. */
struct dw_rec {
	unsigned char b[112];	/* type_len <= 28: at most 112 bytes */
	size_t len;
};

static inline void rec_num(struct dw_rec *r, uint64_t v, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		r->b[r->len + (dw_cfg.is_big ? n - 1 - i : i)] = (unsigned char)(v >> (8 * i));
	r->len += n;
}

/*
 * An event header word: type_len in the low 5 bits and the time delta
 * above them, as a little-endian kernel lays out the bit fields; a
 * big-endian one puts type_len in the top 5 bits (libtraceevent's kbuffer).
 */
static inline void dw_ev_header(struct dw *w, unsigned int type_len, uint64_t delta)
{
	uint32_t d = (uint32_t)(delta & ((1u << 27) - 1));

	dw_num(w, dw_cfg.is_big ? ((uint32_t)type_len << 27) | d : type_len | (d << 5), 4);
}

static inline void rec_fixed(struct dw_rec *r, const char *s, size_t size)
{
	memset(r->b + r->len, 0, size);
	memcpy(r->b + r->len, s, strlen(s) < size ? strlen(s) : size);
	r->len += size;
}

static inline void rec_common(struct dw_rec *r, unsigned int id, int pid)
{
	r->len = 0;
	rec_num(r, id, 2);
	rec_num(r, 0, 1);
	rec_num(r, 1, 1);
	rec_num(r, (uint32_t)pid, 4);
}

/* Append record @r to page data @w with @delta ns since the previous one. */
static inline void page_add(struct dw *w, struct dw_rec *r, uint32_t delta)
{
	while (r->len % 4)
		r->b[r->len++] = 0;
	dw_ev_header(w, (unsigned int)(r->len / 4), delta);
	dw_put(w, r->b, r->len);
}

/* Page of CPU 0: one record of each synthetic event. */
static inline void dw_page_cpu0(struct dw *w)
{
	struct dw_rec r;

	rec_common(&r, 300, 42);	/* preempted (R+) */
	rec_fixed(&r, "rt-app", 16); rec_num(&r, 42, 4); rec_num(&r, 98, 4);
	rec_num(&r, 0x100, 8);
	rec_fixed(&r, "swapper/0", 16); rec_num(&r, 0, 4); rec_num(&r, 120, 4);
	page_add(w, &r, 100);
	rec_common(&r, 300, 0);		/* D|W-like set: D and I */
	rec_fixed(&r, "kworker/0:1", 16); rec_num(&r, 7, 4); rec_num(&r, 120, 4);
	rec_num(&r, 0x82, 8);
	rec_fixed(&r, "a-very-long-comm-name", 16); rec_num(&r, (uint32_t)-1, 4);
	rec_num(&r, (uint32_t)-1, 4);
	page_add(w, &r, 100);
	rec_common(&r, 5, 42);		/* marker */
	rec_num(&r, 0xffffffff81000000ULL, 8);
	rec_fixed(&r, "ucval: setattr pid=42 util_min=512 flags=0x60 ret=0\n", 56);
	page_add(w, &r, 100);
	rec_common(&r, 301, 42);	/* sched_wakeup without target_cpu */
	rec_fixed(&r, "w", 16); rec_num(&r, 5, 4); rec_num(&r, 120, 4);
	page_add(w, &r, 100);
	rec_common(&r, 303, 0);		/* __data_loc path */
	rec_num(&r, 0, 4); rec_num(&r, (13u << 16) | 32, 4); rec_num(&r, 9, 8);
	rec_num(&r, 321, 8); rec_fixed(&r, "/autogroup-1", 13);
	page_add(w, &r, 100);
	rec_common(&r, 304, 0);		/* fields in another order */
	rec_num(&r, 800, 4); rec_num(&r, 300, 4); rec_num(&r, 0, 4); rec_num(&r, 400, 4);
	rec_num(&r, 400, 4);
	page_add(w, &r, 100);
	rec_common(&r, 305, 0);		/* max for max_cap */
	rec_num(&r, 0, 4); rec_num(&r, 123, 4); rec_num(&r, 1024, 4); rec_num(&r, 2, 4);
	page_add(w, &r, 100);
	rec_common(&r, 306, 42);	/* negative ret */
	rec_num(&r, 43, 4); rec_fixed(&r, "worker", 16); rec_num(&r, 1, 4);
	rec_num(&r, 2000, 4); rec_num(&r, (uint32_t)-34, 4);
	page_add(w, &r, 100);
	rec_common(&r, 307, 42);	/* unknown to ucval */
	rec_num(&r, 1, 4);
	page_add(w, &r, 100);
}

/* Page of CPU 1: 42 events lost before it, then cpu_idle entry and exit. */
static inline void dw_page_cpu1(struct dw *w)
{
	struct dw_rec r;

	rec_common(&r, 302, 0);
	rec_num(&r, 2, 4); rec_num(&r, 1, 4);
	page_add(w, &r, 250);
	rec_common(&r, 302, 0);
	rec_num(&r, 0xffffffff, 4); rec_num(&r, 1, 4);
	page_add(w, &r, 500);
}

/*
 * Write one page: header, records built by @fill, @lost events lost before
 * it: their count stored after the data, or only flagged when @is_unknown.
 */
static inline void dw_page_lost(struct dw *w, void (*fill)(struct dw *), uint64_t lost,
				bool is_unknown)
{
	struct dw data = { 0 };
	unsigned int word = dw_cfg.long_size;	/* commit word, lost count */
	size_t stored = lost && !is_unknown ? word : 0;
	uint64_t commit;

	fill(&data);
	commit = data.len;
	if (lost)
		commit |= DW_MISSED | (stored ? DW_MISSED_STORED : 0);
	dw_num(w, DW_BASE_TS, 8);
	dw_num(w, commit, word);
	dw_put(w, data.p, data.len);
	if (stored)
		dw_num(w, lost, word);
	dw_zero(w, DW_PAGE - 8 - word - data.len - stored);
	free(data.p);
}

/* Write one page: header, records built by @fill, the lost count if any. */
static inline void dw_page(struct dw *w, void (*fill)(struct dw *), uint64_t lost)
{
	dw_page_lost(w, fill, lost, false);
}

/*
 * A page of CPU 1 with every kind of ring-buffer event: a time extend first
 * (so the page's lost events are not on its first event: kbuffer then
 * reports none), a record, padding, a record too long for type_len (type 0),
 * an absolute time stamp (datpages.c hands the page to kbuffer there) and a
 * record after it (dw_build_pages(w, uname, dw_page_kinds, 42)).
 */
#define KINDS_STAMP_NS	(DW_BASE_TS + 7000000000ULL)	/* the absolute time stamp */

static inline void kinds_header(struct dw *w, unsigned int type, uint64_t delta, uint32_t array0)
{
	dw_ev_header(w, type, delta);
	dw_num(w, array0, 4);
}

static inline void kinds_idle(struct dw_rec *r, unsigned int state)
{
	rec_common(r, 302, 0);
	rec_num(r, state, 4);
	rec_num(r, 1, 4);
}

static inline void dw_page_kinds(struct dw *w)
{
	struct dw_rec r;
	uint64_t extend = 3ULL << 27;		/* 0.4 s */

	kinds_header(w, 30, extend, (uint32_t)(extend >> 27));
	kinds_idle(&r, 1);
	page_add(w, &r, 10);
	kinds_header(w, 29, 0, 8);		/* padding: 8 bytes after its length word */
	dw_zero(w, 4);
	kinds_idle(&r, 2);
	dw_ev_header(w, 0, 20);		/* type 0: the length word, then the record */
	dw_num(w, r.len + 4, 4);
	dw_put(w, r.b, r.len);
	kinds_header(w, 31, KINDS_STAMP_NS, (uint32_t)(KINDS_STAMP_NS >> 27));
	kinds_idle(&r, 3);
	page_add(w, &r, 30);
}

/* An option of the synthetic trace.dat: @len bytes of @data, NUL or not. */
struct dw_opt {
	unsigned int id;
	const char *data;
	size_t len;
};

/**
 * struct dw_spec - what varies in the synthetic trace.dat
 * @uname: UNAME option text, or NULL for none
 * @fill1: writes CPU 1's records (dw_page_cpu1 in dw_build())
 * @lost1: events lost before CPU 1's page, 0 for none
 * @is_lost1_unknown: the page flags them without their count
 * @cpustat: CPUSTAT option texts, NULL-terminated; NULL for none
 * @dma_format: an event format text for a "dma" system (dw_fmt_sizeof), or
 *		NULL for none
 * @nr_pages1: CPU 1's page this many times (0 or 1: once; the later ones
 *	       without lost events)
 * @is_big: big-endian file (and records)
 * @is_long4: 4-byte longs (a 32-bit kernel): 4-byte page commit words
 * @no_options: no options section (what trace-cmd before 2.0 wrote): no
 *		UNAME, CPUSTAT or @opts
 * @opts: more options, as raw bytes, after UNAME and CPUSTAT; NULL for none
 * @nr_opts: their number
 * @clock_after: the trace clock text written after the flyrecord CPU table
 *		 (with a TRACECLOCK option, trace-cmd.dat.v6 keeps it there),
 *		 NULL for none
 * @nr_kallsyms: lines of a kallsyms section (0: an empty one)
 */
struct dw_spec {
	const char *uname;
	void (*fill1)(struct dw *);
	uint64_t lost1;
	bool is_lost1_unknown;
	const char *const *cpustat;
	const char *dma_format;
	unsigned int nr_pages1;
	bool is_big;
	bool is_long4;
	bool no_options;
	const struct dw_opt *opts;
	unsigned int nr_opts;
	const char *clock_after;
	unsigned int nr_kallsyms;
	bool has_instance;	/* a named instance "probes" (v6 BUFFER option) whose
				 * CPU 1 holds CPU 1's page again, 3 events lost before */
};

static inline void dw_option(struct dw *w, unsigned int id, const char *text)
{
	dw_num(w, id, 2);
	dw_num(w, strlen(text) + 1, 4);
	dw_str(w, text);
}

/* A kallsyms section of @n lines, "ffffffff8xxxxxxx T sym_N". */
static inline void dw_kallsyms(struct dw *w, unsigned int n)
{
	size_t at = w->len;
	char line[64];

	dw_num(w, 0, 4);
	for (unsigned int i = 0; i < n; i++) {
		int len = snprintf(line, sizeof(line), "ffffffff8%07x T sym_%u\n",
				   i * 16u, i);

		dw_put(w, line, (size_t)len);
	}
	for (unsigned int i = 0; i < 4; i++)	/* its size */
		w->p[at + (dw_cfg.is_big ? 3 - i : i)] =
			(unsigned char)((w->len - at - 4) >> (8 * i));
}

/* The bytes of the CPU table entry of @cpu: offset and size. */
static inline void dw_set_cpu(struct dw *w, size_t table, unsigned int cpu, uint64_t off,
			      uint64_t size)
{
	uint64_t v[2] = { off, size };

	for (unsigned int k = 0; k < 2; k++)
		for (unsigned int i = 0; i < 8; i++)
			w->p[table + cpu * 16 + k * 8 + (dw_cfg.is_big ? 7 - i : i)] =
				(unsigned char)(v[k] >> (8 * i));
}

/**
 * dw_build_spec() - the synthetic trace.dat as @spec says
 * @w: output, w->p to be freed by the caller
 * @spec: the variations
 */
static inline void dw_build_spec(struct dw *w, const struct dw_spec *spec)
{
	static const char *const sched[] = { dw_fmt_switch, dw_fmt_wakeup, dw_fmt_load, NULL };
	static const char *const other[] = { dw_fmt_util_cfs, dw_fmt_sugov, dw_fmt_request,
					     dw_fmt_foo, NULL };
	static const char *const power[] = { dw_fmt_idle, NULL };
	const char *const dma[] = { spec->dma_format, NULL };
	const struct { const char *name; const char *const *fmts; } systems[] = {
		{ "sched", sched }, { "lisa", other }, { "power", power }, { "dma", dma },
	};
	size_t table, data, nr_systems = spec->dma_format ? 4 : 3, buf_opt = 0;

	memset(w, 0, sizeof(*w));
	dw_cfg.is_big = spec->is_big;
	dw_cfg.long_size = spec->is_long4 ? 4 : 8;
	dw_put(w, "\x17\x08\x44tracing", 10);
	dw_str(w, "6");
	dw_num(w, spec->is_big, 1);	/* byte order */
	dw_num(w, dw_cfg.long_size, 1);
	dw_num(w, DW_PAGE, 4);
	dw_str(w, "header_page");
	dw_blob(w, spec->is_long4 ? dw_header_page4 : dw_header_page, 8);
	dw_str(w, "header_event");
	dw_blob(w, dw_header_event, 8);
	dw_num(w, 1, 4);		/* ftrace formats */
	dw_blob(w, dw_fmt_print, 8);
	dw_num(w, nr_systems, 4);	/* event systems */
	for (size_t s = 0; s < nr_systems; s++) {
		unsigned int n = 0;

		while (systems[s].fmts[n])
			n++;
		dw_str(w, systems[s].name);
		dw_num(w, n, 4);
		for (unsigned int i = 0; i < n; i++)
			dw_blob(w, systems[s].fmts[i], 8);
	}
	dw_kallsyms(w, spec->nr_kallsyms);
	dw_num(w, 0, 4);		/* printk formats */
	dw_blob(w, "42 rt-app\n43 worker\n", 8);	/* saved cmdlines */
	dw_num(w, 2, 4);		/* CPUs */
	if (!spec->no_options) {
		dw_put(w, "options  ", 10);
		if (spec->uname)
			dw_option(w, 5, spec->uname);	/* UNAME */
		for (size_t i = 0; spec->cpustat && spec->cpustat[i]; i++)
			dw_option(w, 2, spec->cpustat[i]);	/* CPUSTAT */
		for (unsigned int i = 0; i < spec->nr_opts; i++) {
			dw_num(w, spec->opts[i].id, 2);
			dw_num(w, spec->opts[i].len, 4);
			dw_put(w, spec->opts[i].data, spec->opts[i].len);
		}
		if (spec->has_instance) {
			dw_num(w, 3, 2);	/* BUFFER: offset, name */
			dw_num(w, 8 + sizeof("probes"), 4);
			buf_opt = w->len;
			dw_num(w, 0, 8);
			dw_str(w, "probes");
		}
		dw_num(w, 0, 2);	/* end of options */
	}
	dw_put(w, "flyrecord", 10);
	table = w->len;
	dw_zero(w, 2 * 16);
	if (spec->clock_after)
		dw_blob(w, spec->clock_after, 8);
	dw_zero(w, (DW_PAGE - w->len % DW_PAGE) % DW_PAGE);
	data = w->len;
	dw_page(w, dw_page_cpu0, 0);
	dw_page_lost(w, spec->fill1, spec->lost1, spec->is_lost1_unknown);
	for (unsigned int k = 1; k < spec->nr_pages1; k++)
		dw_page_lost(w, spec->fill1, 0, false);
	for (unsigned int cpu = 0; cpu < 2; cpu++)
		dw_set_cpu(w, table, cpu, data + cpu * DW_PAGE,
			   cpu && spec->nr_pages1 > 1 ? spec->nr_pages1 * DW_PAGE : DW_PAGE);
	if (buf_opt) {
		size_t at = w->len, itab;

		for (unsigned int i = 0; i < 8; i++)
			w->p[buf_opt + (dw_cfg.is_big ? 7 - i : i)] = (unsigned char)(at >> (8 * i));
		dw_put(w, "flyrecord", 10);
		itab = w->len;
		dw_zero(w, 2 * 16);
		dw_zero(w, (DW_PAGE - w->len % DW_PAGE) % DW_PAGE);
		dw_set_cpu(w, itab, 1, w->len, DW_PAGE);
		dw_page_lost(w, spec->fill1, 3, false);
	}
	dw_cfg.is_big = false;
	dw_cfg.long_size = 8;
}

/**
 * dw_build_pages() - the synthetic trace.dat with another page for CPU 1
 * @w: output, w->p to be freed by the caller
 * @uname: UNAME option text, or NULL for none
 * @fill1: writes CPU 1's records (dw_page_cpu1 in dw_build())
 * @lost1: events lost before CPU 1's page, 0 for none
 */
static inline void dw_build_pages(struct dw *w, const char *uname, void (*fill1)(struct dw *),
				  uint64_t lost1)
{
	const struct dw_spec spec = { .uname = uname, .fill1 = fill1, .lost1 = lost1 };

	dw_build_spec(w, &spec);
}

/**
 * dw_build() - the synthetic trace.dat
 * @w: output, w->p to be freed by the caller
 * @uname: UNAME option text, or NULL for none
 */
static inline void dw_build(struct dw *w, const char *uname)
{
	dw_build_pages(w, uname, dw_page_cpu1, 42);
}

#endif /* UCVAL_TESTS_AN_DATWRITER_H */
