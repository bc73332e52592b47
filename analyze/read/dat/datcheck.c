// SPDX-License-Identifier: MIT
/*
 * analyze/read/dat/datcheck.c - walk a trace.dat (trace-cmd.dat.v6(5), v7(5)) checking
 * every size and offset against the file, before libtracecmd, which trusts
 * them, reads it. See datcheck.h for why; datfile.c does the bounded reads.
 *
 * Event format texts are left to libtraceevent; everything that sizes an
 * allocation or a read in libtracecmd is checked here.
 */
#define _GNU_SOURCE	/* memmem() */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <kbuffer.h>

#include "analyze/read/dat/datcheck.h"
#include "analyze/read/dat/datfile.h"
#include "analyze/read/dat/datformat.h"
#include "analyze/read/dat/tcmd_private.h"
#include "lib/malloc.h"
#include "lib/vec.h"

#define DAT_MAGIC	"\x17\x08\x44tracing"
#define DAT_MAGIC_LEN	10
#define DAT_CHAIN_MAX	64		/* options sections followed (v7) */
#define DAT_SECTION_HDR	16		/* id u16, flags u16, string u32, size u64 */
#define DAT_SEC_COMPRESSED 1		/* section flag: data is compressed */
#define DAT_COMPRESS_HDR 8		/* compressed size u32, raw size u32 */
#define DAT_PAGE_MIN	1024		/* ring buffer page sizes seen: 4K..64K */
#define DAT_PAGE_MAX	(1u << 20)
#define DAT_TAG_LEN	10		/* "options  \0", "flyrecord\0" */
#define DAT_HEADER_MAX	(64u << 10)	/* header_page text; real ones are ~200 B */
#define DAT_PAGE_HDR	16		/* page: u64 timestamp + commit (long), at most */
#define DAT_FORMAT_MAX	(256u << 10)	/* one event format text; real ones < 8 KiB */
#define DAT_SLACK	8		/* kbuffer reads a full page's lost count past it */

/* Option ids of trace-cmd.dat.v7(5); 16..21 point at metadata sections. */
enum {
	OPT_DONE = 0, OPT_DATE, OPT_CPUSTAT, OPT_BUFFER, OPT_TRACECLOCK,
	OPT_UNAME, OPT_HOOK, OPT_OFFSET, OPT_CPUCOUNT, OPT_VERSION,
	OPT_PROCMAPS, OPT_TRACEID, OPT_TIME_SHIFT, OPT_GUEST, OPT_TSC2NSEC, OPT_STRINGS,
	OPT_HEADER_INFO = 16, OPT_FTRACE_EVENTS, OPT_EVENT_FORMATS, OPT_KALLSYMS,
	OPT_PRINTK, OPT_CMDLINES, OPT_BUFFER_TEXT,
};

/* Bytes [@off, @end) of the file. */
struct meta {
	uint64_t off;
	uint64_t end;
};

struct dat {
	struct an_datfile f;
	bool has_top;		/* v7: the top instance's BUFFER option was seen */
	bool has_header;	/* v7: a well-formed HEADER_INFO section was seen */
	unsigned int page_size;
	unsigned int commit_size;	/* bytes of a page's commit word */
	size_t alloc_ranges;
	struct an_datcheck *out;
	struct stat_loss *stats;	/* the top instance's CPUSTAT losses */
	size_t nr_stats, alloc_stats;
	bool is_stats_done;	/* a "Buffer:" CPUSTAT: the next ones are an instance's */
	bool is_stats_bad;	/* one without its CPU, or a CPU twice: not used */
	size_t alloc_edits;
	uint64_t ptr_off;	/* v7: file offset of the section offset being followed,
				 * UINT64_MAX when its options section is compressed */
	bool is_mem_blanked;	/* a format of the section in memory was emptied */
	bool is_opts_plain;	/* v7: the options section being walked is not compressed */
	bool is_chunk_odd;	/* a compressed chunk datpages.c does not take */
	struct meta *meta;	/* what libtracecmd reads when it opens the headers */
	size_t nr_meta, alloc_meta;
	char clock[32];		/* the selected trace clock, "" when the file does not say */
	bool has_tsc2nsec;	/* a TSC2NSEC option: the library scales counts to ns */
	uint64_t *inst_off;	/* v6: where each named instance's CPU table is */
	size_t nr_inst, alloc_inst;
};

/*
 * Bytes libtracecmd reads as metadata when it opens only the headers
 * (tracecmd_open_head()): the copy of an_datcheck_copy() keeps them.
 */
static int note_meta(struct dat *t, uint64_t off, uint64_t len)
{
	if (AN_VEC_GROW(t->meta, t->nr_meta + 1, t->alloc_meta))
		return an_diag_fail(t->f.d, -ENOMEM, "out of memory");
	t->meta[t->nr_meta++] = (struct meta){ off, len > UINT64_MAX - off ? UINT64_MAX : off + len };
	return 0;
}

/* @a + @b, or UINT64_MAX when that does not fit (counts from the file). */
static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return b > UINT64_MAX - a ? UINT64_MAX : a + b;
}

/* What a CPUSTAT option says the kernel lost on one CPU. */
struct stat_loss {
	int cpu;
	uint64_t lost;		/* overrun + commit overrun + dropped events */
	uint64_t overrun;	/* of which overwritten (pages report these) */
	bool has_read;		/* "read events" was given: */
	uint64_t read;		/* events consumers took since the buffer's reset */
};

/* A cursor over an option's bytes. */
struct mem {
	const unsigned char *p;
	size_t len;
	size_t off;
};

static int corrupt(struct dat *t, uint64_t off, const char *what)
{
	return an_datfile_corrupt(&t->f, off, what);
}

static bool mem_num(struct mem *m, const struct dat *t, unsigned int n, uint64_t *v)
{
	if (m->len - m->off < n)
		return false;
	*v = an_datfile_num(&t->f, m->p + m->off, n);
	m->off += n;
	return true;
}

static const char *mem_str(struct mem *m)
{
	const char *s = (const char *)m->p + m->off;
	const char *nul = memchr(s, '\0', m->len - m->off);

	if (!nul)
		return NULL;
	m->off += (size_t)(nul - s) + 1;
	return s;
}

static int add_range(struct dat *t, int buffer, int cpu, uint64_t off, uint64_t size,
		     bool is_compressed)
{
	struct an_datcheck *o = t->out;

	if (AN_VEC_GROW(o->ranges, o->nr_ranges + 1, t->alloc_ranges))
		return an_diag_fail(t->f.d, -ENOMEM, "out of memory");
	o->ranges[o->nr_ranges++] = (struct an_datcheck_range){
		.buffer = buffer, .cpu = cpu, .off = off, .size = size,
		.is_compressed = is_compressed,
	};
	return 0;
}

/*
 * header_page and header_event. libtracecmd needs an 8-byte page timestamp
 * (else its first page fails to load and its cleanup crashes); the commit
 * word's size tells where each page's data length is, and is the long size
 * of the pages (libtracecmd's read_header_files()).
 */
static int walk_header_info(struct dat *t)
{
	uint64_t n, at;
	unsigned int commit;
	char *text;
	int err;

	err = an_datfile_expect(&t->f, "header_page", 12);
	if (!err)
		err = an_datfile_rd_num(&t->f, 8, &n, "truncated header page");
	if (!err && n > DAT_HEADER_MAX)
		err = corrupt(t, t->f.cur.off, "header page over 64 KiB (real ones are 200 bytes)");
	if (err)
		return err;
	text = an_malloc(n ? (size_t)n : 1);
	if (!text)
		return an_diag_fail(t->f.d, -ENOMEM, "out of memory");
	at = t->f.cur.off;
	err = an_datfile_rd(&t->f, text, (size_t)n, "truncated header page");
	if (!err) {
		const char *p = text, *end = text + n;

		/* libtraceevent stops at a NUL and needs these two lines first */
		if (memchr(text, '\0', (size_t)n) || an_datformat_header_field(&p, end, "timestamp") != 8)
			err = corrupt(t, at, "page header without an 8-byte timestamp: "
				      "libtracecmd crashes on it");
		commit = err ? 0 : an_datformat_header_field(&p, end, "commit");
		if (!err && commit != 4 && commit != 8)
			err = corrupt(t, at, "page header without a 4- or 8-byte commit word: "
				      "no page could be read");
		/*
		 * libtracecmd takes the commit word's size as the long size,
		 * over the file header's: trace-cmd convert writes 8 there
		 * for a 32-bit kernel's pages, and so may a 32-bit trace-cmd
		 * on a 64-bit kernel
		 */
		t->commit_size = commit;
		t->out->long_size = commit;
	}
	free(text);
	if (!err)
		err = an_datfile_expect(&t->f, "header_event", 13);
	if (!err)
		err = an_datfile_rd_num(&t->f, 8, &n, "truncated header event");
	if (!err)
		err = an_datfile_skip(&t->f, n, "truncated header event");
	return err;
}

/* A text libtraceevent parses without checks, and how it is framed in the file. */
struct text_kind {
	unsigned int size_bytes;	/* of its size word */
	uint64_t max;			/* bytes at most */
	bool (*is_ok)(const char *text, size_t len);	/* datformat.c */
	const char *truncated_size, *too_large, *truncated, *malformed;
};

static const struct text_kind event_format = {
	8, DAT_FORMAT_MAX, an_datformat_ok,
	"truncated event formats", "event format over 256 KiB (real ones are under 8 KiB)",
	"truncated event format",
	"malformed event format",
};

static const struct text_kind printk_formats = {
	4, AN_DATFILE_SECTION_MAX, an_datformat_printk_ok,
	"truncated printk formats", "printk formats too large", "truncated printk formats",
	"printk formats with a line libtraceevent cannot parse",
};

static int add_edit(struct dat *t, uint64_t off, const void *bytes, uint64_t len,
		    bool is_append)
{
	struct an_datcheck *o = t->out;
	unsigned char *copy = an_malloc(len ? (size_t)len : 1);

	if (!copy || AN_VEC_GROW(o->edits, o->nr_edits + 1, t->alloc_edits)) {
		free(copy);
		return an_diag_fail(t->f.d, -ENOMEM, "out of memory");
	}
	memcpy(copy, bytes, (size_t)len);
	o->edits[o->nr_edits++] = (struct an_datcheck_edit){ off, len, copy, is_append };
	return 0;
}

/*
 * An event format @text (@n bytes at @pos: in the file, or in the section
 * in memory) libtraceevent cannot parse safely: when only its print format
 * is at fault, libtracecmd reads it emptied (an_datformat_blank_print()),
 * in place in the section in memory (check_section_ref() appends that
 * section to the copy) or as an edit of the file.
 */
static int blank_format(struct dat *t, char *text, uint64_t n, uint64_t pos, uint64_t at)
{
	struct an_datcheck *o = t->out;
	size_t len = 0;

	/* its name, for the note: the text is not NUL-terminated */
	if (n > 6 && !memcmp(text, "name: ", 6))
		while (len < n - 6 && len < sizeof(o->blanked) - 1 &&
		       !strchr(" \t\n", text[6 + len]))
			len++;
	if (!an_datformat_blank_print(text, (size_t)n))
		return corrupt(t, at, event_format.malformed);
	if (!o->nr_blanked++)
		snprintf(o->blanked, sizeof(o->blanked), "%.*s", (int)len, text + 6);
	if (!t->f.cur.mem)
		return add_edit(t, pos, text, n, false);
	/* the section's bytes, inflated by check_section_ref(), are its own */
	memcpy((unsigned char *)t->f.cur.mem + pos, text, (size_t)n);
	t->is_mem_blanked = true;
	return 0;
}

/*
 * A size, then a text of kind @k, checked before libtracecmd hands it to
 * libtraceevent. An error names the text's file offset, or its section's
 * when the section was compressed.
 */
static int walk_text(struct dat *t, const struct text_kind *k)
{
	uint64_t n, at, pos;
	char *text;
	int err = an_datfile_rd_num(&t->f, k->size_bytes, &n, k->truncated_size);

	if (err)
		return err;
	at = t->f.cur.mem ? t->f.cur.base : t->f.cur.off;
	if (n > k->max)
		return corrupt(t, at, k->too_large);
	text = an_malloc(n ? (size_t)n : 1);
	if (!text)
		return an_diag_fail(t->f.d, -ENOMEM, "out of memory");
	pos = t->f.cur.off;
	err = an_datfile_rd(&t->f, text, (size_t)n, k->truncated);
	if (!err && !k->is_ok(text, (size_t)n))
		err = k == &event_format ? blank_format(t, text, n, pos, at) :
		      corrupt(t, at, k->malformed);
	free(text);
	return err;
}

static int walk_ftrace(struct dat *t)
{
	uint64_t count;
	int err = an_datfile_rd_num(&t->f, 4, &count, "truncated ftrace formats");

	for (uint64_t i = 0; !err && i < count; i++)
		err = walk_text(t, &event_format);
	return err;
}

static int walk_systems(struct dat *t)
{
	char name[AN_DATFILE_STR_MAX];
	uint64_t count, nr;
	int err = an_datfile_rd_num(&t->f, 4, &count, "truncated event formats");

	for (uint64_t s = 0; !err && s < count; s++) {
		err = an_datfile_rd_str(&t->f, name, "truncated event system name");
		if (!err)
			err = an_datfile_rd_num(&t->f, 4, &nr, "truncated event formats");
		for (uint64_t i = 0; !err && i < nr; i++)
			err = walk_text(t, &event_format);
	}
	return err;
}

/* A size of @n bytes, then that much data (kallsyms, printk, cmdlines). */
static int walk_blob(struct dat *t, unsigned int n, const char *what)
{
	uint64_t size;
	int err = an_datfile_rd_num(&t->f, n, &size, what);

	return err ? err : an_datfile_skip(&t->f, size, what);
}

/* The release of a UNAME option: "sysname nodename release version machine". */
static void take_release(struct an_datcheck *out, const char *uname)
{
	const char *p = uname;

	for (int field = 0; field < 2 && p; field++) {
		p = strchr(p, ' ');
		if (p)
			p++;
	}
	if (p)
		snprintf(out->kernel_release, sizeof(out->kernel_release), "%.*s",
			 (int)strcspn(p, " "), p);
}

/*
 * The selected clock of a TRACECLOCK option, the kernel's trace_clock file:
 * "local [global] counter ...", the selected one in brackets (a single
 * name when the recorder wrote only that).
 */
static void take_clock(struct dat *t, const char *text)
{
	const char *open = strchr(text, '['), *close = open ? strchr(open, ']') : NULL;

	if (open && close)
		snprintf(t->clock, sizeof(t->clock), "%.*s", (int)(close - open - 1), open + 1);
	else
		snprintf(t->clock, sizeof(t->clock), "%.*s", (int)strcspn(text, " \n"), text);
}

/* Clocks whose timestamps are not ns (kernel/trace/trace.c, trace_clocks[].in_ns). */
static bool is_raw_clock(const char *clock)
{
	static const char *const raw[] = { "counter", "uptime", "x86-tsc", "ppc-tb" };

	for (size_t i = 0; i < sizeof(raw) / sizeof(raw[0]); i++)
		if (!strcmp(clock, raw[i]))
			return true;
	return false;
}

/* A clock that does not count ns, unless the TSC2NSEC option scales it. */
static int check_clock(struct dat *t)
{
	if (!is_raw_clock(t->clock) || t->has_tsc2nsec)
		return 0;
	return an_diag_fail(t->f.d, AN_E_CLOCK, "trace clock '%s' does not count "
			    "nanoseconds; record with a ns clock (trace-cmd record -C local, "
			    "global, mono or boot)", t->clock);
}

/* A BUFFER or BUFFER_TEXT option: instance data ranges must fit the file. */
static int check_buffer(struct dat *t, struct mem *m, uint64_t opt_off, int id)
{
	uint64_t sec, page, cpus, cpu, off, size;
	const char *name, *clock;
	bool is_compressed = false;
	int max_cpu = -1, err;

	if (!mem_num(m, t, 8, &sec) || !(name = mem_str(m)))
		return corrupt(t, opt_off, "malformed buffer option");
	if (t->out->version < 7) {
		/* v6: a named instance's CPU table, read after the top one's */
		if (!*name || id != OPT_BUFFER)
			return 0;
		if (AN_VEC_GROW(t->inst_off, t->nr_inst + 1, t->alloc_inst))
			return an_diag_fail(t->f.d, -ENOMEM, "out of memory");
		t->inst_off[t->nr_inst++] = sec;
		return 0;
	}
	if (!(clock = mem_str(m)))
		return corrupt(t, opt_off, "malformed buffer option");
	if (!*name && *clock)		/* the top instance's clock */
		take_clock(t, clock);
	if (id == OPT_BUFFER_TEXT)
		return *name ? 0 : an_diag_fail(t->f.d, AN_E_FORMAT,
						"latency (text) trace.dat is not supported");
	if (!mem_num(m, t, 4, &page) || !mem_num(m, t, 4, &cpus) ||
	    cpus > AN_DATCHECK_MAX_CPUS)
		return corrupt(t, opt_off, "malformed buffer option");
	if (cpus) {
		unsigned char hdr[DAT_SECTION_HDR];

		err = an_datfile_pread(&t->f, sec, hdr, sizeof(hdr), "buffer section outside the file");
		if (err)
			return err;
		is_compressed = an_datfile_num(&t->f, hdr + 2, 2) & DAT_SEC_COMPRESSED;
	}
	for (uint64_t i = 0; i < cpus; i++) {
		if (!mem_num(m, t, 4, &cpu) || !mem_num(m, t, 8, &off) ||
		    !mem_num(m, t, 8, &size) || cpu >= AN_DATCHECK_MAX_CPUS)
			return corrupt(t, opt_off, "malformed buffer option");
		err = size ? an_datfile_need(&t->f, off, size,
					     "CPU data outside the file (truncated?)") : 0;
		if (!err && size && !*name)
			err = add_range(t, 0, (int)cpu, off, size, is_compressed);
		if (err)
			return err;
		if ((int)cpu > max_cpu)
			max_cpu = (int)cpu;
	}
	if (!*name) {
		t->has_top = true;
		if (!t->out->nr_cpus)
			t->out->nr_cpus = max_cpu + 1;
	}
	return 0;
}

/*
 * A v7 option pointing at a metadata section: the section must fit the
 * file, and its content (uncompressed in memory if need be) must fit it.
 */
/*
 * The inflated section @data (@len bytes; its header @hdr was at @off) with
 * an emptied format: appended to the copy uncompressed, the option that
 * pointed at @off pointing at it. That option must be in an options section
 * stored plain: libtracecmd finds the sections there.
 */
static int append_section(struct dat *t, const unsigned char *hdr, const unsigned char *data,
			  uint64_t len, uint64_t off)
{
	unsigned char *sec;
	int err;

	if (t->ptr_off == UINT64_MAX)
		return an_diag_fail(t->f.d, AN_E_FORMAT, "offset %llu: event format '%s' has "
				    "a print format libtraceevent cannot parse safely, in a "
				    "section ucval cannot rewrite",
				    (unsigned long long)off, t->out->blanked);
	sec = an_malloc((size_t)len + DAT_SECTION_HDR);
	if (!sec)
		return an_diag_fail(t->f.d, -ENOMEM, "out of memory");
	memcpy(sec, hdr, 8);				/* id, flags, string offset */
	sec[2] = sec[3] = 0;				/* not compressed */
	for (unsigned int i = 0; i < 8; i++)		/* size */
		sec[8 + (t->f.is_big ? 7 - i : i)] = (unsigned char)(len >> (8 * i));
	memcpy(sec + DAT_SECTION_HDR, data, (size_t)len);
	err = add_edit(t, t->ptr_off, sec, len + DAT_SECTION_HDR, true);
	free(sec);
	return err;
}

static int check_section_ref(struct dat *t, struct mem *m, unsigned int id)
{
	struct an_datfile_cursor saved = t->f.cur;
	unsigned char hdr[DAT_SECTION_HDR], *data = NULL;
	uint64_t off, size, len;
	int err;

	if (!mem_num(m, t, 8, &off))
		return 0;		/* libtracecmd ignores it too */
	err = an_datfile_pread(&t->f, off, hdr, sizeof(hdr), "section outside the file");
	if (err)
		return err;
	if (an_datfile_num(&t->f, hdr, 2) != id)
		return corrupt(t, off, "section of another kind than its option: "
			       "libtracecmd would misread it");
	size = an_datfile_num(&t->f, hdr + 8, 8);
	err = note_meta(t, off, DAT_SECTION_HDR + size);
	if (err)
		return err;
	if (an_datfile_num(&t->f, hdr + 2, 2) & DAT_SEC_COMPRESSED) {
		err = an_datfile_load(&t->f, off + DAT_SECTION_HDR, size, true, &data, &len);
		if (err)
			return err;
		t->f.cur = (struct an_datfile_cursor){ data, off, 0, len };
	} else {
		err = an_datfile_need(&t->f, off + DAT_SECTION_HDR, size,
				      "section larger than the file (truncated?)");
		if (err)
			return err;
		t->f.cur = (struct an_datfile_cursor){ NULL, off, off + DAT_SECTION_HDR,
						       off + DAT_SECTION_HDR + size };
	}
	switch (id) {
	case OPT_HEADER_INFO:
		err = walk_header_info(t);
		t->has_header = !err;
		break;
	case OPT_FTRACE_EVENTS:	err = walk_ftrace(t); break;
	case OPT_EVENT_FORMATS:	err = walk_systems(t); break;
	case OPT_KALLSYMS:	err = walk_blob(t, 4, "truncated kallsyms"); break;
	case OPT_PRINTK:	err = walk_text(t, &printk_formats); break;
	default:		err = walk_blob(t, 8, "truncated saved cmdlines"); break;
	}
	t->f.cur = saved;
	if (!err && t->is_mem_blanked)
		err = append_section(t, hdr, data, len, off);
	t->is_mem_blanked = false;
	free(data);
	return err;
}

/* The number after "@key:" on a line of its own in @text; false when absent. */
static bool stat_num(const char *text, const char *key, uint64_t *v)
{
	size_t n = strlen(key);

	for (const char *l = text; l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		char *end;

		if (strncmp(l, key, n) || l[n] != ':')
			continue;
		errno = 0;
		*v = strtoull(l + n + 1, &end, 10);
		return !errno && end != l + n + 1;
	}
	return false;
}

/*
 * A CPUSTAT option: a copy of per_cpu/cpuN/stats after a "CPU: N" line,
 * one per CPU (trace-cmd, ucval collect). trace-cmd then writes those of
 * each other instance after a "Buffer: name" text: only the first ones,
 * the top instance's, are about the data read. Events the kernel
 * overwrote (overrun), dropped while a commit was pending (commit
 * overrun) or dropped in non-overwrite mode (dropped events) are lost;
 * only the overwritten ones are flagged in the pages (sum_pages()).
 */
static int take_cpustat(struct dat *t, const char *text)
{
	uint64_t cpu, overrun = 0, commit = 0, dropped = 0, read = 0;
	bool has_read;

	if (t->is_stats_done || t->is_stats_bad)
		return 0;
	if (strstr(text, "Buffer:")) {
		t->is_stats_done = true;
		return 0;
	}
	if (!stat_num(text, "CPU", &cpu) || cpu >= AN_DATCHECK_MAX_CPUS) {
		t->is_stats_bad = true;
		return 0;
	}
	for (size_t i = 0; i < t->nr_stats; i++)
		if (t->stats[i].cpu == (int)cpu)
			t->is_stats_bad = true;
	stat_num(text, "overrun", &overrun);
	stat_num(text, "commit overrun", &commit);
	stat_num(text, "dropped events", &dropped);
	has_read = stat_num(text, "read events", &read);
	if (AN_VEC_GROW(t->stats, t->nr_stats + 1, t->alloc_stats))
		return an_diag_fail(t->f.d, -ENOMEM, "out of memory");
	t->stats[t->nr_stats++] = (struct stat_loss){
		.cpu = (int)cpu,
		.lost = sat_add(sat_add(overrun, commit), dropped),
		.overrun = overrun, .has_read = has_read, .read = read,
	};
	return 0;
}

/* Names of the text options, for diagnostics. */
static const char *option_name(unsigned int id)
{
	static const char *const names[] = {
		[OPT_DATE] = "DATE", [OPT_CPUSTAT] = "CPUSTAT", [OPT_TRACECLOCK] = "TRACECLOCK",
		[OPT_UNAME] = "UNAME", [OPT_HOOK] = "HOOK", [OPT_OFFSET] = "OFFSET",
		[OPT_VERSION] = "VERSION", [OPT_PROCMAPS] = "PROCMAPS",
	};

	return id < sizeof(names) / sizeof(names[0]) && names[id] ? names[id] : "an";
}

/*
 * Hide the option at @opt_off (its id) from libtracecmd, which would read
 * past its end or crash on it (@why): in the copy it reads
 * (an_datcheck_copy()) the option's id is TRACEID's, which libtracecmd
 * skips below 8 bytes and otherwise only keeps (it pairs host and guest
 * files by it; ucval refuses those). ucval takes what it needs of the
 * option itself. In a compressed v7 options section nothing can be hidden.
 */
static int hide_option(struct dat *t, unsigned int id, uint64_t opt_off, const char *why)
{
	unsigned char bytes[2];

	if (t->out->version >= 7 && !t->is_opts_plain) {
		t->f.d->offset = (long long)opt_off;
		return an_diag_fail(t->f.d, AN_E_CORRUPT, "%s option %s, in a compressed "
				    "options section ucval cannot rewrite", option_name(id), why);
	}
	bytes[t->f.is_big ? 1 : 0] = OPT_TRACEID;
	bytes[t->f.is_big ? 0 : 1] = 0;
	t->out->nr_hidden++;
	return add_edit(t, opt_off, bytes, sizeof(bytes), false);
}

/*
 * Whether strtoll() stops inside the @size bytes at @p: some byte there is
 * none a number can hold (a NUL, a newline). libtracecmd reads the DATE
 * and OFFSET options so, without a length.
 */
static bool number_ends_inside(const unsigned char *p, uint64_t size)
{
	for (uint64_t i = 0; i < size; i++)
		if (!strchr(" \t\v\f\r+-xX0123456789abcdefABCDEF", p[i]) || !p[i])
			return true;
	return false;
}

/*
 * A text option, as libtracecmd 1.3 reads it (trace-input.c,
 * handle_options()): DATE and OFFSET with strtoll(), which reads past the
 * option when no byte there ends the number: the timestamps would be moved
 * by a number made of whatever follows, so ucval refuses it. CPUSTAT: it
 * sets the last byte to a newline; of an empty one, buf[size - 1] with an
 * unsigned size, 4 GiB past it (trace-cmd report crashes). TRACECLOCK with
 * strtok_r(), UNAME and VERSION with strdup(), both past the option without
 * a NUL in it. trace-cmd 2.2.1 to 2.9.2 wrote an empty TRACECLOCK (the
 * clock follows the flyrecord CPU table), on which libtracecmd runs
 * strtok_r() over malloc(0) (valgrind: an invalid read). PROCMAPS only with
 * its NUL last, read as for CPUSTAT; HOOK parsed by a function that returns
 * NULL on a malformed one, which libtracecmd then dereferences. Those it
 * would misread are hidden from it (hide_option()); ucval reads its own
 * copy, NUL-terminated.
 */
static int check_text_option(struct dat *t, unsigned int id, const unsigned char *data,
			     uint64_t size, uint64_t opt_off)
{
	bool has_nul = size && memchr(data, '\0', (size_t)size);
	char *text;
	int err = 0;

	switch (id) {
	case OPT_DATE:
	case OPT_OFFSET:
		if (!number_ends_inside(data, size)) {
			t->f.d->offset = (long long)opt_off;
			return an_diag_fail(t->f.d, AN_E_CORRUPT, "%s option whose number runs to "
					    "its end: libtracecmd would read the timestamp offset "
					    "past it", option_name(id));
		}
		t->out->has_ts_adjust = true;
		return 0;
	case OPT_CPUSTAT:
		if (!size)
			return hide_option(t, id, opt_off, "empty (libtracecmd writes 4 GiB past it)");
		break;
	case OPT_PROCMAPS:
		return size ? 0 : hide_option(t, id, opt_off,
					      "empty (libtracecmd reads 4 GiB past it)");
	case OPT_HOOK:
		return hide_option(t, id, opt_off, "(event hooks; libtracecmd crashes on a "
				   "malformed one)");
	default:
		if (!has_nul)
			err = hide_option(t, id, opt_off, "without its NUL (libtracecmd reads "
					  "past it)");
		if (err || (id != OPT_UNAME && id != OPT_TRACECLOCK))
			return err;
		break;
	}
	/* CPUSTAT: libtracecmd keeps all but its last byte */
	text = an_malloc((size_t)size + 1);
	if (!text)
		return an_diag_fail(t->f.d, -ENOMEM, "out of memory");
	memcpy(text, data, (size_t)size);
	text[id == OPT_CPUSTAT ? size - 1 : size] = '\0';
	if (id == OPT_UNAME)
		take_release(t->out, text);
	else if (id == OPT_TRACECLOCK)
		take_clock(t, text);
	else
		err = take_cpustat(t, text);
	free(text);
	return err;
}

/*
 * Check one option; *@next gets the DONE option's next section (v7).
 * Options libtracecmd parses without bounds checks must be well formed.
 */
static int check_option(struct dat *t, unsigned int id, const unsigned char *data,
			uint64_t size, uint64_t opt_off, uint64_t *next)
{
	struct mem m = { data, (size_t)size, 0 };
	uint64_t v;

	switch (id) {
	case OPT_DONE:
		if (!mem_num(&m, t, 8, next))
			return corrupt(t, opt_off, "malformed options end");
		return 0;
	case OPT_DATE: case OPT_CPUSTAT: case OPT_TRACECLOCK: case OPT_UNAME:
	case OPT_OFFSET: case OPT_VERSION: case OPT_PROCMAPS: case OPT_HOOK:
		return check_text_option(t, id, data, size, opt_off);
	case OPT_CPUCOUNT:
		/* libtracecmd reads an int from it, whatever its size */
		if (size < 4 || (v = an_datfile_num(&t->f, data, 4)) > AN_DATCHECK_MAX_CPUS)
			return corrupt(t, opt_off, "malformed CPU count option: libtracecmd would "
				       "read past it");
		t->out->nr_cpus = (int)v;
		return 0;
	case OPT_BUFFER:
	case OPT_BUFFER_TEXT:
		return check_buffer(t, &m, opt_off, (int)id);
	case OPT_TIME_SHIFT:
	case OPT_GUEST:
		return an_diag_fail(t->f.d, AN_E_FORMAT,
				    "host/guest trace.dat (time sync) is not supported");
	case OPT_TSC2NSEC:
		t->out->has_ts_adjust = t->has_tsc2nsec = true;
		return 0;	/* size-checked by the library */
	default:
		if (id >= OPT_HEADER_INFO && id <= OPT_CMDLINES && t->out->version >= 7) {
			/* the offset's bytes follow the option's id and size */
			t->ptr_off = t->is_opts_plain ? opt_off + 6 : UINT64_MAX;
			return check_section_ref(t, &m, id);
		}
		return 0;	/* TRACEID, unknown: size-checked by the library */
	}
}

/* v6: options between the CPU count and the flyrecord tag, in the file. */
static int walk_options_v6(struct dat *t)
{
	unsigned char *buf = NULL;
	uint64_t id, size, next, off;
	int err;

	for (;;) {
		err = an_datfile_rd_num(&t->f, 2, &id, "truncated options");
		if (err || id == OPT_DONE)
			break;
		off = t->f.cur.off - 2;
		err = an_datfile_rd_num(&t->f, 4, &size, "truncated options");
		if (!err)
			err = an_datfile_need(&t->f, t->f.cur.off, size, "truncated options");
		if (err)
			break;
		free(buf);
		buf = an_malloc(size ? (size_t)size : 1);
		if (!buf) {
			err = an_diag_fail(t->f.d, -ENOMEM, "out of memory");
			break;
		}
		err = an_datfile_rd(&t->f, buf, (size_t)size, "truncated options");
		if (!err)
			err = check_option(t, (unsigned int)id, buf, size, off, &next);
		if (err)
			break;
	}
	free(buf);
	return err;
}

/*
 * v6: a named instance (BUFFER option, as `trace-cmd record -B` writes it):
 * at its offset a "flyrecord" tag and a CPU table of the file's CPU count,
 * which libtracecmd reads as it reads the top one's
 * (tracecmd_buffer_instance_handle()).
 */
static int walk_instance_v6(struct dat *t, int buffer, uint64_t at)
{
	uint64_t len = DAT_TAG_LEN + (uint64_t)t->out->nr_cpus * 16, off, size;
	unsigned char *tab;
	int err;

	err = an_datfile_need(&t->f, at, len, "instance CPU table outside the file");
	if (err)
		return err;
	tab = an_malloc((size_t)len);
	if (!tab)
		return an_diag_fail(t->f.d, -ENOMEM, "out of memory");
	err = an_datfile_pread(&t->f, at, tab, (size_t)len, "truncated instance CPU table");
	if (!err && memcmp(tab, "flyrecord", DAT_TAG_LEN))
		err = corrupt(t, at, "instance data without its flyrecord tag");
	for (int cpu = 0; !err && cpu < t->out->nr_cpus; cpu++) {
		off = an_datfile_num(&t->f, tab + DAT_TAG_LEN + 16 * cpu, 8);
		size = an_datfile_num(&t->f, tab + DAT_TAG_LEN + 16 * cpu + 8, 8);
		if (!size)
			continue;
		err = an_datfile_need(&t->f, off, size, "instance CPU data outside the file");
		if (!err)
			err = add_range(t, buffer, cpu, off, size, false);
	}
	free(tab);
	if (!err)
		t->out->nr_buffers = buffer;
	return err ? err : note_meta(t, at, len);
}

static int walk_v6(struct dat *t)
{
	uint64_t cpus, off, size;
	char tag[DAT_TAG_LEN];
	int err;

	err = walk_header_info(t);
	if (!err)
		err = walk_ftrace(t);
	if (!err)
		err = walk_systems(t);
	if (!err)
		err = walk_blob(t, 4, "truncated kallsyms");
	if (!err)
		err = walk_text(t, &printk_formats);
	if (!err)
		err = walk_blob(t, 8, "truncated saved cmdlines");
	if (!err)
		err = an_datfile_rd_num(&t->f, 4, &cpus, "truncated CPU count");
	if (!err && cpus > AN_DATCHECK_MAX_CPUS)
		err = corrupt(t, t->f.cur.off - 4, "implausible CPU count");
	if (err)
		return err;
	t->out->nr_cpus = (int)cpus;
	err = an_datfile_rd(&t->f, tag, sizeof(tag), "truncated data tag");
	if (!err && !memcmp(tag, "options  ", sizeof(tag))) {
		err = walk_options_v6(t);
		if (!err)
			err = an_datfile_rd(&t->f, tag, sizeof(tag), "truncated data tag");
	}
	if (err)
		return err;
	if (!memcmp(tag, "latency  ", sizeof(tag)))
		return an_diag_fail(t->f.d, AN_E_FORMAT,
				    "latency (text) trace.dat is not supported");
	if (memcmp(tag, "flyrecord", sizeof(tag)))
		return corrupt(t, t->f.cur.off - sizeof(tag), "unknown data tag");
	for (int cpu = 0; cpu < t->out->nr_cpus; cpu++) {
		err = an_datfile_rd_num(&t->f, 8, &off, "truncated CPU table");
		if (!err)
			err = an_datfile_rd_num(&t->f, 8, &size, "truncated CPU table");
		if (!err && size)
			err = an_datfile_need(&t->f, off, size,
					      "CPU data outside the file (truncated?)");
		if (!err && size)
			err = add_range(t, 0, cpu, off, size, false);
		if (err)
			return err;
	}
	err = note_meta(t, 0, t->f.cur.off);
	for (size_t i = 0; !err && i < t->nr_inst; i++)
		err = walk_instance_v6(t, (int)i + 1, t->inst_off[i]);
	return err;
}

/*
 * v7: libtracecmd's tracecmd_alloc_fd() reads the strings sections (id 15)
 * by walking every section header one after the other, from the end of the
 * file header to the first header it cannot read, whatever the options say:
 * a strings section anywhere in that walk is loaded whole, and a compressed
 * one is inflated to the size its block header claims. Check what it would
 * allocate before it runs (an unlisted one claimed 3.6 GB: make fuzz; one
 * claimed 2.9 GB of compressed bytes: make check's fuzz run), and that the
 * walk ends (a size of 2^64 - 1280 took it back 1280 bytes, for ever).
 */
static int walk_strings(struct dat *t, uint64_t off)
{
	while (off <= t->f.size && t->f.size - off >= DAT_SECTION_HDR) {
		unsigned char hdr[DAT_SECTION_HDR], blk[DAT_COMPRESS_HDR];
		uint64_t size, claimed;
		int err = an_datfile_pread(&t->f, off, hdr, sizeof(hdr), "truncated section");

		if (err)
			return err;
		size = an_datfile_num(&t->f, hdr + 8, 8);
		err = note_meta(t, off, DAT_SECTION_HDR +
				(an_datfile_num(&t->f, hdr, 2) == OPT_STRINGS ? size : 0));
		if (err)
			return err;
		if (an_datfile_num(&t->f, hdr, 2) == OPT_STRINGS) {
			claimed = size;
			if (an_datfile_num(&t->f, hdr + 2, 2) & DAT_SEC_COMPRESSED) {
				if (t->f.size - off - DAT_SECTION_HDR < sizeof(blk))
					return corrupt(t, off, "truncated strings section");
				err = an_datfile_pread(&t->f, off + DAT_SECTION_HDR, blk, sizeof(blk),
						       "truncated strings section");
				if (err)
					return err;
				/*
				 * the library allocates the larger of the
				 * compressed and the inflated size
				 */
				claimed = an_datfile_num(&t->f, blk + 4, 4);
				if (an_datfile_num(&t->f, blk, 4) > claimed)
					claimed = an_datfile_num(&t->f, blk, 4);
			}
			if (claimed > AN_DATFILE_SECTION_MAX)
				return corrupt(t, off, "strings section larger than ucval reads");
		}
		/* it seeks by the size as a signed offset: back, and round again */
		if (size > INT64_MAX)
			return corrupt(t, off, "section size that moves libtracecmd's walk of the "
				       "sections backwards (it loops forever)");
		if (size > t->f.size - off - DAT_SECTION_HDR)
			break;		/* the library's next header read fails there */
		off += DAT_SECTION_HDR + size;
	}
	return 0;
}

/* v7: the chain of options sections, from the offset in the file header. */
static int walk_v7(struct dat *t)
{
	uint64_t visited[DAT_CHAIN_MAX], next;
	unsigned int nr_visited = 0;
	int err;

	err = an_datfile_rd_str(&t->f, t->f.comp_name, "truncated compression name");
	if (!err)
		err = an_datfile_rd_str(&t->f, t->f.comp_version, "truncated compression version");
	if (!err)
		err = an_datfile_rd_num(&t->f, 8, &next, "truncated header");
	if (!err)
		err = note_meta(t, 0, t->f.cur.off);
	if (!err)
		err = walk_strings(t, t->f.cur.off);
	if (err)
		return err;
	snprintf(t->out->comp_name, sizeof(t->out->comp_name), "%s", t->f.comp_name);
	snprintf(t->out->comp_version, sizeof(t->out->comp_version), "%s", t->f.comp_version);
	if (strcmp(t->f.comp_name, "none")) {
		if (!tracecmd_compress_is_supported(t->f.comp_name, t->f.comp_version))
			return an_diag_fail(t->f.d, AN_E_FORMAT, "unsupported compression '%.32s'",
					    t->f.comp_name);
		snprintf(t->out->compression, sizeof(t->out->compression), "%.15s",
			 t->f.comp_name);
	}
	while (next) {
		unsigned char hdr[DAT_SECTION_HDR], *data;
		uint64_t off = next, len = 0;
		struct mem m;

		for (unsigned int i = 0; i < nr_visited; i++)
			if (visited[i] == off)
				return corrupt(t, off, "options sections form a loop: "
					       "libtracecmd would follow it forever");
		if (nr_visited == DAT_CHAIN_MAX)
			return corrupt(t, off, "too many options sections");
		visited[nr_visited++] = off;
		err = an_datfile_pread(&t->f, off, hdr, sizeof(hdr), "options section outside the file");
		if (!err && an_datfile_num(&t->f, hdr, 2) != OPT_DONE)
			err = corrupt(t, off, "not an options section");
		if (!err)
			err = note_meta(t, off, DAT_SECTION_HDR + an_datfile_num(&t->f, hdr + 8, 8));
		if (!err)
			err = an_datfile_load(&t->f, off + DAT_SECTION_HDR, an_datfile_num(&t->f, hdr + 8, 8),
					      an_datfile_num(&t->f, hdr + 2, 2) & DAT_SEC_COMPRESSED,
					      &data, &len);
		if (err)
			return err;
		t->is_opts_plain = !(an_datfile_num(&t->f, hdr + 2, 2) & DAT_SEC_COMPRESSED);
		next = 0;
		m = (struct mem){ data, (size_t)len, 0 };
		for (;;) {
			uint64_t id, osize, opt_off = off + DAT_SECTION_HDR + m.off;

			if (!mem_num(&m, t, 2, &id) || !mem_num(&m, t, 4, &osize) ||
			    osize > m.len - m.off) {
				err = corrupt(t, opt_off, "truncated option");
				break;
			}
			err = check_option(t, (unsigned int)id, m.p + m.off, osize, opt_off, &next);
			m.off += (size_t)osize;
			if (err || id == OPT_DONE)
				break;
		}
		free(data);
		if (err)
			return err;
	}
	if (!t->has_top)
		return corrupt(t, 0, "no trace data for the top instance");
	/* libtracecmd 1.3 fails without it and crashes in its own cleanup */
	if (!t->has_header)
		return corrupt(t, 0, "no header info section (option HEADER_INFO): "
			       "libtracecmd crashes without it");
	return 0;
}

/* The 4-byte word at @at of @page (@avail bytes readable, zeroes past). */
static uint32_t page_word(const unsigned char *page, size_t avail, uint64_t at, bool is_big)
{
	if (at > avail || avail - at < 4)
		return 0;
	return (uint32_t)an_datfile_num_order(is_big, page + at, 4);
}

bool an_datcheck_page_walks(const unsigned char *page, size_t avail, unsigned int long_size,
			    bool is_big)
{
	unsigned int hdr = 8 + long_size;
	uint32_t size, curr = 0;

	if (avail < hdr)
		return true;
	size = (uint32_t)(an_datfile_num_order(is_big, page + 8, long_size) &
			  AN_DATCHECK_COMMIT_MASK);
	/* kbuffer's arithmetic: unsigned int, so a wrapped successor is past the end */
	while (curr < size) {
		uint32_t word = page_word(page, avail, (uint64_t)hdr + curr, is_big);
		uint32_t len = page_word(page, avail, (uint64_t)hdr + curr + 4, is_big);
		uint32_t type = word & 0x1f, next;

		if (type == KBUFFER_TYPE_PADDING)
			next = curr + 4 + len;
		else if (type == KBUFFER_TYPE_TIME_EXTEND || type == KBUFFER_TYPE_TIME_STAMP)
			next = curr + 8;
		else if (!type)
			next = curr + 8 + ((len - 4 + 3) & ~UINT32_C(3));
		else
			next = curr + 4 + type * 4;
		if (next <= curr)
			return false;
		curr = next;
	}
	return true;
}

/*
 * Data bytes of every page of @buf (@len bytes, whole pages but the last)
 * must fit their page, and its events walk to its end. @off: the file
 * offset of @buf, or of the chunk it inflates from (@is_chunk).
 */
static int check_pages_mem(struct dat *t, const unsigned char *buf, size_t len, uint64_t off,
			   bool is_chunk)
{
	for (size_t p = 0; p + DAT_PAGE_HDR <= len; p += t->page_size) {
		uint64_t commit = an_datfile_num(&t->f, buf + p + 8, t->commit_size);

		/* the data follows the u64 timestamp and the commit word */
		if ((commit & AN_DATCHECK_COMMIT_MASK) > t->page_size - 8 - t->commit_size)
			return corrupt(t, off, "ring-buffer page larger than a page");
		if (!an_datcheck_page_walks(buf + p, len - p < t->page_size ? len - p :
							t->page_size, t->commit_size, t->f.is_big))
			return corrupt(t, off + (is_chunk ? 0 : p), "ring-buffer page with an event "
				       "whose length points back (kbuffer would walk it for ever)");
	}
	return 0;
}

/*
 * The pages of a plain CPU range, each read whole (libtracecmd loads whole
 * pages: even a short range has a full header; past the file's end a page
 * reads as zeroes).
 */
static int check_plain_pages(struct dat *t, const struct an_datcheck_range *c)
{
	unsigned char *page = an_malloc(t->page_size);
	uint64_t end = c->off + c->size;
	int err = 0;

	if (!page)
		return an_diag_fail(t->f.d, -ENOMEM, "out of memory");
	for (uint64_t p = c->off; p < end && !err; p += t->page_size) {
		uint64_t n = p < t->f.size ? t->f.size - p : 0;

		if (n > t->page_size)
			n = t->page_size;
		err = n < DAT_PAGE_HDR ? an_datfile_pread(&t->f, p, page, DAT_PAGE_HDR,
							  "truncated page") :
		      an_datfile_pread(&t->f, p, page, (size_t)n, "truncated page");
		if (!err)
			err = check_pages_mem(t, page, (size_t)n, p, false);
	}
	free(page);
	return err;
}

/*
 * One CPU's data. Plain: page aligned (libtracecmd mmaps it), every page
 * header sane. Compressed: the chunk table fits, and its sizes are noted
 * for datpages.c. Unless @is_align_only (datpages.c reads the pages and
 * checks each as it loads it), every chunk inflates and its pages are sane:
 * libtracecmd, given a bad page in a chunk, says "bad page read" on stderr
 * and ends the CPU there, and the analysis would go on without the rest.
 */
static int check_cpu(struct dat *t, struct an_datcheck_range *c, bool is_align_only)
{
	uint64_t p, count, end = c->off + c->size, len, raw;
	unsigned char hdr[DAT_PAGE_HDR], *chunk;
	int err;

	if (!c->is_compressed) {
		if (c->off % t->page_size)
			return corrupt(t, c->off, "CPU data not page aligned");
		return is_align_only ? 0 : check_plain_pages(t, c);
	}
	/* libtracecmd 1.3.1 has no decompressor then and crashes in its cleanup */
	if (!t->out->compression[0])
		return corrupt(t, c->off, "compressed CPU data in a file without compression");
	/* trace-cmd writes the size of the chunks without the count before them */
	end += 4;
	err = an_datfile_need(&t->f, c->off, c->size + 4, "CPU data outside the file (truncated?)");
	if (!err)
		err = an_datfile_pread(&t->f, c->off, hdr, 4, "truncated chunk table");
	if (err)
		return err;
	count = an_datfile_num(&t->f, hdr, 4);
	p = c->off + 4;
	c->raw_size = 0;
	for (uint64_t i = 0; i < count; i++) {
		uint64_t zsize, at = p;

		if (end - p < DAT_COMPRESS_HDR)
			return corrupt(t, p, "chunk table larger than the CPU data");
		err = an_datfile_pread(&t->f, p, hdr, DAT_COMPRESS_HDR, "truncated chunk table");
		if (err)
			return err;
		zsize = an_datfile_num(&t->f, hdr, 4);
		raw = an_datfile_num(&t->f, hdr + 4, 4);
		p += DAT_COMPRESS_HDR;
		if (zsize > end - p || raw > AN_DATFILE_SECTION_MAX)
			return corrupt(t, p, "chunk larger than the CPU data");
		p += zsize;
		/* datpages.c takes whole pages only (trace-cmd's chunks are) */
		if (raw % t->page_size || raw > AN_DATCHECK_CHUNK_MAX)
			t->is_chunk_odd = true;
		if (raw > t->out->max_chunk)
			t->out->max_chunk = raw;
		c->raw_size += raw;
		if (is_align_only)
			continue;
		err = an_datfile_load(&t->f, at, DAT_COMPRESS_HDR + zsize, true, &chunk, &len);
		if (!err)
			err = check_pages_mem(t, chunk, (size_t)len, i ? at : c->off, true);
		free(chunk);
		if (err)
			return err;
	}
	return 0;
}

/* @n bytes at @off, or false (outside the file, read error): no diagnostic. */
static bool peek(struct dat *t, uint64_t off, void *buf, size_t n)
{
	if (off > t->f.size || n > t->f.size - off)
		return false;
	return pread(t->f.fd, buf, n, (off_t)off) == (ssize_t)n;
}

/*
 * Where a page whose commit word is @commit stores its lost-event count:
 * 0 when it lost none, -1 when it flags a loss without a count that fits.
 */
static int64_t lost_count_at(const struct dat *t, uint64_t commit)
{
	uint64_t at = 8 + t->commit_size + (commit & AN_DATCHECK_COMMIT_MASK);

	if (!(commit & AN_DATCHECK_MISSED_EVENTS))
		return 0;
	if (!(commit & AN_DATCHECK_MISSED_STORED) || at + t->commit_size > t->page_size)
		return -1;
	return (int64_t)at;
}

static void add_lost(const struct dat *t, const unsigned char *count, uint64_t *sum)
{
	*sum = sat_add(*sum, an_datfile_num(&t->f, count, t->commit_size));
}

/* What the pages of a CPU's ranges add up to (sum_pages()). */
struct page_sum {
	struct kbuffer *kbuf;	/* set: count the data events too (reads whole pages) */
	unsigned char *page;	/* with @kbuf: a page, then DAT_SLACK bytes */
	uint64_t lost;		/* the lost-event counts the pages store */
	uint64_t events;	/* their data events */
};

/*
 * Add the data events of the page @page (@len bytes, at most a page) to
 * @s, as the readers get them: kbuffer walks it, from @s->page, zeroed past
 * @len. False when the page's data would not fit a page.
 */
static bool count_events(const struct dat *t, struct page_sum *s, const unsigned char *page,
			 uint64_t len)
{
	uint64_t size = an_datfile_num(&t->f, page + 8, t->commit_size) & AN_DATCHECK_COMMIT_MASK;
	unsigned long long ts;

	if (size > t->page_size - 8 - t->commit_size)
		return false;
	if (page != s->page)
		memcpy(s->page, page, (size_t)len);
	memset(s->page + len, 0, (size_t)(t->page_size - len) + DAT_SLACK);
	if (!an_datcheck_page_walks(s->page, t->page_size, t->commit_size, t->f.is_big))
		return false;
	kbuffer_load_subbuffer(s->kbuf, s->page);
	for (void *ev = kbuffer_read_event(s->kbuf, &ts); ev; ev = kbuffer_next_event(s->kbuf, &ts))
		s->events = sat_add(s->events, 1);
	return true;
}

/* Add the page @page of @len bytes to @s; false when its lost count is unknown. */
static bool sum_page(const struct dat *t, const unsigned char *page, uint64_t len,
		     struct page_sum *s)
{
	int64_t at = len < 8 + t->commit_size ? -1 :
		     lost_count_at(t, an_datfile_num(&t->f, page + 8, t->commit_size));

	if (at < 0 || (uint64_t)at + t->commit_size > len)
		return false;
	if (at)
		add_lost(t, page + at, &s->lost);
	return !s->kbuf || count_events(t, s, page, len);
}

/* sum_pages() of a compressed CPU range, inflating chunk by chunk. */
static bool sum_chunks(struct dat *t, const struct an_datcheck_range *c, struct page_sum *s)
{
	uint64_t end = c->off + c->size + 4, p = c->off + 4, count, zsize, len = 0;
	struct an_diag *saved = t->f.d, quiet;
	unsigned char hdr[DAT_COMPRESS_HDR], *chunk = NULL;
	bool ok = peek(t, c->off, hdr, 4);

	/* a chunk that does not inflate is the reader's to report */
	an_diag_clear(&quiet);
	t->f.d = &quiet;
	count = ok ? an_datfile_num(&t->f, hdr, 4) : 0;
	for (uint64_t i = 0; ok && i < count; i++) {
		ok = end - p >= DAT_COMPRESS_HDR && peek(t, p, hdr, DAT_COMPRESS_HDR);
		zsize = ok ? an_datfile_num(&t->f, hdr, 4) : 0;
		ok = ok && zsize <= end - p - DAT_COMPRESS_HDR &&
		     !an_datfile_load(&t->f, p, DAT_COMPRESS_HDR + zsize, true, &chunk, &len);
		for (uint64_t q = 0; ok && q < len; q += t->page_size)
			ok = sum_page(t, chunk + q, len - q < t->page_size ? len - q : t->page_size, s);
		free(chunk);
		chunk = NULL;
		p += DAT_COMPRESS_HDR + zsize;
	}
	t->f.d = saved;
	return ok;
}

/*
 * Add what @c's pages report to @s: the lost events they count (the count a
 * page stores after its data) and, when asked, their data events. False
 * when one reports a loss without its count, or cannot be read: the total
 * is then unknown. A bad page is left to the reader, which says where it is.
 */
static bool sum_pages(struct dat *t, const struct an_datcheck_range *c, struct page_sum *s)
{
	unsigned char buf[DAT_PAGE_HDR];

	if (c->is_compressed)
		return sum_chunks(t, c, s);
	for (uint64_t p = c->off; p - c->off < c->size; p += t->page_size) {
		uint64_t left = c->off + c->size - p;
		int64_t at;

		if (s->kbuf) {
			/* the whole page, for its events */
			left = left < t->page_size ? left : t->page_size;
			if (!peek(t, p, s->page, (size_t)left) || !sum_page(t, s->page, left, s))
				return false;
			continue;
		}
		if (!peek(t, p, buf, 8 + t->commit_size))
			return false;
		at = lost_count_at(t, an_datfile_num(&t->f, buf + 8, t->commit_size));
		if (at < 0 || (at && !peek(t, p + (uint64_t)at, buf, t->commit_size)))
			return false;
		if (at)
			add_lost(t, buf, &s->lost);
	}
	return true;
}

/* sum_pages() over every range of @cpu's data. */
static bool sum_cpu(struct dat *t, int cpu, struct page_sum *s)
{
	const struct an_datcheck *o = t->out;

	/* the statistics are the top instance's */
	for (size_t k = 0; k < o->nr_ranges; k++)
		if (!o->ranges[k].buffer && o->ranges[k].cpu == cpu &&
		    !sum_pages(t, &o->ranges[k], s))
			return false;
	return true;
}

struct kbuffer *an_datcheck_kbuffer(const struct an_datcheck *chk)
{
	return kbuffer_alloc(chk->long_size == 8 ? KBUFFER_LSIZE_8 : KBUFFER_LSIZE_4,
			     chk->is_big_endian ? KBUFFER_ENDIAN_BIG : KBUFFER_ENDIAN_LITTLE);
}

/*
 * Of the overwritten events @s counts beyond the @in_pages its pages
 * report, those the buffer had reported to an earlier reader: they are
 * older than the file. The kernel tells each loss to the next page a reader
 * takes (rb_get_reader_page(): overrun since the last swap), and counts in
 * "read events" every event readers took since the buffer was reset. When
 * that is more than the file holds, the buffer was read before it was saved
 * (trace-cmd extract -k run twice, trace_pipe read first), and the losses
 * no page of the file reports were told to that reader, or came after the
 * file's last page: none lies within the file. Otherwise 0.
 */
static uint64_t lost_before(struct dat *t, const struct stat_loss *s, uint64_t in_pages)
{
	struct page_sum ev = { 0 };
	uint64_t before = 0;

	if (!s->has_read || s->overrun <= in_pages)
		return 0;
	ev.kbuf = an_datcheck_kbuffer(t->out);
	ev.page = an_malloc((size_t)t->page_size + DAT_SLACK);
	/* out of memory: the losses stay unplaced, the cautious answer */
	if (ev.kbuf && ev.page && sum_cpu(t, s->cpu, &ev) && s->read > ev.events)
		before = s->overrun - in_pages;
	if (ev.kbuf)
		kbuffer_free(ev.kbuf);
	free(ev.page);
	return before;
}

/*
 * Losses no page places in time: what the top instance's CPUSTAT options
 * count beyond what the CPU's pages report, but for the overwritten events
 * an earlier reader was told of (lost_before()). Only when every page's
 * count is known. Runs only for a CPU whose statistics count a loss: it
 * reads every page header of that CPU again (inflates compressed chunks
 * again), and when they report less, every page once more for its events.
 */
static int find_unplaced(struct dat *t)
{
	struct an_datcheck *o = t->out;
	size_t alloc = 0;

	if (t->is_stats_bad)
		return 0;
	for (size_t i = 0; i < t->nr_stats; i++) {
		const struct stat_loss *s = &t->stats[i];
		struct page_sum sum = { 0 };
		uint64_t before, rest;

		if (!s->lost || !sum_cpu(t, s->cpu, &sum) || sum.lost >= s->lost)
			continue;
		before = lost_before(t, s, sum.lost);
		rest = s->lost - sum.lost - before;
		if (before) {
			o->nr_lost_before = sat_add(o->nr_lost_before, before);
			o->nr_cpus_read_before++;
		}
		if (!rest)
			continue;
		if (AN_VEC_GROW(o->unplaced, o->nr_unplaced + 1, alloc))
			return an_diag_fail(t->f.d, -ENOMEM, "out of memory");
		o->unplaced[o->nr_unplaced++] = (struct an_datcheck_loss){
			.cpu = s->cpu, .count = rest,
		};
	}
	return 0;
}

static int cmp_tail(const void *a, const void *b)
{
	const struct an_datcheck_tail_loss *x = a, *y = b;

	if (x->ts_ns != y->ts_ns)
		return x->ts_ns < y->ts_ns ? -1 : 1;
	return (x->cpu > y->cpu) - (x->cpu < y->cpu);
}

/*
 * The last page of each uncompressed range, when it holds no event but a
 * missed-events count (an_datcheck_tail_loss): one header read a range.
 * A page whose count is not stored is left alone (trace_integrity has
 * nothing to count).
 */
static int find_tail_lost(struct dat *t)
{
	struct an_datcheck *o = t->out;
	unsigned char buf[DAT_PAGE_HDR];
	size_t alloc = 0;

	for (size_t k = 0; k < o->nr_ranges; k++) {
		const struct an_datcheck_range *c = &o->ranges[k];
		uint64_t last, commit, ts;
		int64_t at;

		if (c->is_compressed || c->size < 8u + t->commit_size)
			continue;
		last = c->off + (c->size - 1) / t->page_size * t->page_size;
		if (c->off + c->size - last < 8u + t->commit_size ||
		    !peek(t, last, buf, 8 + t->commit_size))
			continue;
		ts = an_datfile_num(&t->f, buf, 8);
		commit = an_datfile_num(&t->f, buf + 8, t->commit_size);
		at = lost_count_at(t, commit);
		if ((commit & AN_DATCHECK_COMMIT_MASK) || at <= 0 ||
		    last + (uint64_t)at + t->commit_size > c->off + c->size ||
		    !peek(t, last + (uint64_t)at, buf, t->commit_size))
			continue;
		if (AN_VEC_GROW(o->tail_lost, o->nr_tail_lost + 1, alloc))
			return an_diag_fail(t->f.d, -ENOMEM, "out of memory");
		o->tail_lost[o->nr_tail_lost++] = (struct an_datcheck_tail_loss){
			.cpu = c->cpu, .ts_ns = ts,
			.count = an_datfile_num(&t->f, buf, t->commit_size),
		};
	}
	if (o->nr_tail_lost > 1)
		qsort(o->tail_lost, o->nr_tail_lost, sizeof(*o->tail_lost), cmp_tail);
	return 0;
}

/*
 * The bytes an edit changes must not be CPU data: libtracecmd would read
 * the changed bytes as pages nothing checked (a damaged file only).
 */
static int check_edits(struct dat *t)
{
	const struct an_datcheck *o = t->out;

	for (size_t i = 0; i < o->nr_edits; i++) {
		const struct an_datcheck_edit *e = &o->edits[i];
		uint64_t end = e->off + (e->is_append ? 8 : e->len);

		for (size_t k = 0; k < o->nr_ranges; k++) {
			const struct an_datcheck_range *r = &o->ranges[k];

			if (e->off < r->off + r->size && r->off < end)
				return corrupt(t, e->off, "event format inside CPU data");
		}
	}
	return 0;
}

/*
 * The CPU data libtracecmd does not read when datpages.c reads it: those of
 * @t's ranges that no metadata overlaps (in a damaged file some may).
 */
static void mark_unread(struct dat *t)
{
	struct an_datcheck *o = t->out;

	for (size_t i = 0; o->use_pages && i < o->nr_ranges; i++) {
		struct an_datcheck_range *r = &o->ranges[i];

		r->is_lib_unread = true;
		for (size_t k = 0; k < t->nr_meta && r->is_lib_unread; k++)
			if (t->meta[k].off < r->off + r->size && r->off < t->meta[k].end)
				r->is_lib_unread = false;
	}
}

/**
 * an_datcheck_is_magic() - whether @buf starts like a trace.dat
 * @buf: first bytes of a file
 * @len: their number
 *
 * Return: true when the 10-byte magic "\x17\x08\x44tracing" is there.
 */
bool an_datcheck_is_magic(const void *buf, size_t len)
{
	return len >= DAT_MAGIC_LEN && !memcmp(buf, DAT_MAGIC, DAT_MAGIC_LEN);
}

/*
 * Whether datpages.c can read the compressed chunks (AN_DATCHECK_CHUNK_MAX),
 * known once check_cpu() has walked every CPU's chunk table.
 */
static bool chunks_suit_pages(const struct dat *t)
{
	const struct an_datcheck *o = t->out;

	return !t->is_chunk_odd && o->max_chunk * o->nr_ranges <= AN_DATCHECK_CHUNKS_MAX;
}

/**
 * an_datcheck_run() - walk and check the structure of trace.dat @path
 * @path: file
 * @want_pages: the caller would rather read the CPU data with datpages.c
 * @out: what was learnt, freed with an_datcheck_free() even on failure
 * @d: diagnostic (offset of the problem) on failure
 *
 * The CPU data pages are checked here for libtracecmd, which trusts them;
 * not when @want_pages and the file suits datpages.c (out->use_pages),
 * which checks each page as it loads it.
 *
 * Return: 0, a negative errno, AN_E_CORRUPT or AN_E_FORMAT.
 */
int an_datcheck_run(const char *path, bool want_pages, struct an_datcheck *out,
		    struct an_diag *d)
{
	struct dat t = { .f = { .fd = -1, .d = d }, .out = out };
	char version[AN_DATFILE_STR_MAX];
	unsigned char magic[DAT_MAGIC_LEN];
	uint64_t endian, long_size, page;
	struct stat st;
	int err;

	memset(out, 0, sizeof(*out));
	t.f.fd = open(path, O_RDONLY | O_CLOEXEC);
	if (t.f.fd < 0)
		return an_diag_fail(d, -errno, "%s", strerror(errno));
	if (fstat(t.f.fd, &st) < 0) {
		err = an_diag_fail(d, -errno, "%s", strerror(errno));
		goto out_close;
	}
	t.f.size = out->file_size = (uint64_t)st.st_size;
	t.f.cur.limit = t.f.size;
	err = an_datfile_rd(&t.f, magic, sizeof(magic), "truncated header");
	if (!err && !an_datcheck_is_magic(magic, sizeof(magic)))
		err = an_diag_fail(d, AN_E_FORMAT, "not a trace.dat");
	if (!err)
		err = an_datfile_rd_str(&t.f, version, "truncated header");
	if (err)
		goto out_close;
	if (strcmp(version, "6") && strcmp(version, "7")) {
		err = an_diag_fail(d, AN_E_FORMAT, "unsupported trace.dat version '%.16s'", version);
		goto out_close;
	}
	out->version = version[0] - '0';
	err = an_datfile_rd_num(&t.f, 1, &endian, "truncated header");
	if (!err)
		err = an_datfile_rd_num(&t.f, 1, &long_size, "truncated header");
	if (!err && (endian > 1 || (long_size != 4 && long_size != 8)))
		err = corrupt(&t, t.f.cur.off - 2, "bad byte order or long size");
	if (err)
		goto out_close;
	t.f.is_big = out->is_big_endian = endian;
	t.commit_size = out->long_size = (unsigned int)long_size;
	err = an_datfile_rd_num(&t.f, 4, &page, "truncated header");
	if (!err && (page < DAT_PAGE_MIN || page > DAT_PAGE_MAX || (page & (page - 1))))
		err = corrupt(&t, t.f.cur.off - 4, "implausible page size");
	if (err)
		goto out_close;
	t.page_size = out->page_size = (unsigned int)page;
	err = out->version == 6 ? walk_v6(&t) : walk_v7(&t);
	if (!err)
		err = check_clock(&t);
	if (err)
		goto out_close;
	/* no option that makes the library move or scale timestamps */
	out->use_pages = want_pages && !out->has_ts_adjust;
	for (size_t i = 0; !err && i < out->nr_ranges; i++)
		err = check_cpu(&t, &out->ranges[i], out->use_pages);
	if (!err && out->use_pages && !chunks_suit_pages(&t)) {
		/* libtracecmd reads it all: every page is checked for it */
		out->use_pages = false;
		for (size_t i = 0; !err && i < out->nr_ranges; i++)
			err = check_cpu(&t, &out->ranges[i], false);
	}
	if (!err)
		err = check_edits(&t);
	if (!err)
		err = find_unplaced(&t);
	if (!err)
		err = find_tail_lost(&t);
	if (!err)
		mark_unread(&t);

out_close:
	free(t.stats);
	free(t.meta);
	free(t.inst_off);
	an_datfile_release(&t.f);
	close(t.f.fd);
	return err;
}

/* Copy [@off, @off + @len) of @src to the same place in @dst. */
static int copy_range(int src, int dst, uint64_t off, uint64_t len)
{
	char buf[4096];

	while (len) {
		loff_t in = (loff_t)off, out = (loff_t)off;
		ssize_t n = copy_file_range(src, &in, dst, &out, (size_t)len, 0);

		if (n <= 0) {	/* not across these filesystems: by hand */
			n = pread(src, buf, len < sizeof(buf) ? (size_t)len : sizeof(buf),
				  (off_t)off);
			if (n <= 0 || pwrite(dst, buf, (size_t)n, (off_t)off) != n)
				return n < 0 ? -errno : -EIO;
		}
		off += (uint64_t)n;
		len -= (uint64_t)n;
	}
	return 0;
}

int an_datcheck_copy(const char *path, const struct an_datcheck *chk, int *fd,
		     struct an_diag *d)
{
	int src = open(path, O_RDONLY | O_CLOEXEC), dst = -1, err = 0;
	uint64_t end = chk->file_size, done = 0;

	*fd = -1;
	if (src < 0)
		return an_diag_fail(d, -errno, "%s", strerror(errno));
	dst = memfd_create("ucval-trace.dat", MFD_CLOEXEC);
	if (dst < 0 || ftruncate(dst, (off_t)chk->file_size) < 0)
		err = -errno;
	/*
	 * All but the CPU data libtracecmd will not read: a CPU range of a
	 * damaged file may overlap what it reads as headers (make check's
	 * fuzz run found one), mark_unread() keeps those.
	 */
	for (size_t i = 0; !err && i <= chk->nr_ranges; i++) {
		const struct an_datcheck_range *r = i < chk->nr_ranges ? &chk->ranges[i] : NULL;
		uint64_t hole = r ? r->off : chk->file_size;

		if (r && !r->is_lib_unread)
			continue;
		if (hole > done)
			err = copy_range(src, dst, done, hole - done);
		if (r && r->off + r->size > done)
			done = r->off + r->size;
	}
	for (size_t i = 0; !err && i < chk->nr_edits; i++) {
		const struct an_datcheck_edit *e = &chk->edits[i];
		unsigned char ptr[8];
		uint64_t at = e->is_append ? end : e->off;

		if (pwrite(dst, e->bytes, (size_t)e->len, (off_t)at) != (ssize_t)e->len) {
			err = -EIO;
			break;
		}
		if (!e->is_append)
			continue;
		for (unsigned int k = 0; k < 8; k++)
			ptr[chk->is_big_endian ? 7 - k : k] = (unsigned char)(at >> (8 * k));
		if (pwrite(dst, ptr, sizeof(ptr), (off_t)e->off) != (ssize_t)sizeof(ptr))
			err = -EIO;
		end += e->len;
	}
	close(src);
	if (err) {
		if (dst >= 0)
			close(dst);
		return an_diag_fail(d, err, "cannot make the copy libtracecmd reads: %s",
				    strerror(-err));
	}
	*fd = dst;
	return 0;
}

/**
 * an_datcheck_free() - free what an_datcheck_run() allocated in @chk
 * @chk: its result
 */
void an_datcheck_free(struct an_datcheck *chk)
{
	free(chk->ranges);
	chk->ranges = NULL;
	chk->nr_ranges = 0;
	free(chk->unplaced);
	chk->unplaced = NULL;
	chk->nr_unplaced = 0;
	free(chk->tail_lost);
	chk->tail_lost = NULL;
	chk->nr_tail_lost = 0;
	for (size_t i = 0; i < chk->nr_edits; i++)
		free(chk->edits[i].bytes);
	free(chk->edits);
	chk->edits = NULL;
	chk->nr_edits = 0;
}
