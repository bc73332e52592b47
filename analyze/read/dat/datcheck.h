/* SPDX-License-Identifier: MIT */
/*
 * analyze/read/dat/datcheck.h - structural check of a trace.dat before libtracecmd
 * sees it (internal to tracedat.c).
 *
 * libtracecmd 1.3 trusts the file: a trace.dat cut inside its CPU data or an
 * options chain that loops crash it (its error path frees uninitialised
 * lists), a text option without its NUL is read past its end. Walking the
 * header ourselves, with every size checked against the file, turns those
 * into a diagnostic, or into a copy of the file libtracecmd reads safely
 * (an_datcheck_copy()). What libtracecmd reads well is not refused.
 */
#ifndef UCVAL_ANALYZE_READ_DAT_DATCHECK_H
#define UCVAL_ANALYZE_READ_DAT_DATCHECK_H

#include <stdbool.h>
#include <stdint.h>

#include "analyze/read/dat/datfile.h"
#include "lib/diag.h"

#define AN_DATCHECK_MAX_CPUS 4096	/* more CPU buffers than any machine */
#define AN_DATCHECK_COMMIT_MASK ((1u << 27) - 1)	/* data bytes in a page's commit word */
/* commit word flags: events were lost before the page; their count follows the data */
#define AN_DATCHECK_MISSED_EVENTS (1ull << 31)
#define AN_DATCHECK_MISSED_STORED (1ull << 30)
/*
 * datpages.c inflates a CPU's compressed chunks one at a time: at most this
 * much each (trace-cmd writes 10 pages a chunk), whole pages; and all CPUs'
 * at most AN_DATCHECK_CHUNKS_MAX. Other files are left to libtracecmd.
 */
#define AN_DATCHECK_CHUNK_MAX	(1u << 20)
#define AN_DATCHECK_CHUNKS_MAX	(32u << 20)

/**
 * struct an_datcheck_range - one CPU's data of an instance
 * @buffer: 0 for the top instance, N for the Nth named one (v6 BUFFER
 *	    options, in file order; v7 named instances are not read)
 * @cpu: its CPU number (v6: its place in the CPU table)
 * @off: file offset
 * @size: bytes (never 0: empty CPUs are not listed)
 * @is_compressed: a v7 compressed section (chunks)
 * @raw_size: compressed: bytes of its chunks once inflated (pages)
 * @is_lib_unread: with use_pages, libtracecmd reads none of its bytes (it
 *		   opens only the headers): an_datcheck_copy() leaves it out
 */
struct an_datcheck_range {
	int buffer;
	int cpu;
	uint64_t off;
	uint64_t size;
	bool is_compressed;
	uint64_t raw_size;
	bool is_lib_unread;
};

/**
 * struct an_datcheck_loss - events a CPU lost that no page places in time
 * @cpu: the CPU
 * @count: how many: the file's buffer statistics (CPUSTAT) beyond the
 *	   counts its pages report
 */
struct an_datcheck_loss {
	int cpu;
	uint64_t count;
};

/**
 * struct an_datcheck_tail_loss - events a CPU lost after its last record
 * @cpu: the CPU
 * @ts_ns: the timestamp of the page that reports them: no earlier than
 *	   that CPU's last record (collect/pagebuf.c stamps it so)
 * @count: how many the page's missed-events count says
 *
 * The kernel never hands out a page without events, but a writer that
 * counts losses beside the ring buffer (`ucval collect --probes`) ends a
 * CPU's data with an empty page whose only content is that count. kbuffer
 * and libtracecmd (libtraceevent 1.7.1, trace-cmd 3.1.6) skip a page
 * without events, its count with it, so datcheck finds such a page itself.
 */
struct an_datcheck_tail_loss {
	int cpu;
	uint64_t ts_ns;
	uint64_t count;
};

/**
 * struct an_datcheck_edit - a change libtracecmd must read in a copy of the
 * file (an_datcheck_copy())
 * @off: file offset of the bytes @bytes replace, or (@is_append) of the
 *	 8-byte section offset to point at @bytes, appended to the file
 * @len: bytes in @bytes
 * @bytes: the new bytes
 * @is_append: see @off
 */
struct an_datcheck_edit {
	uint64_t off;
	uint64_t len;
	unsigned char *bytes;
	bool is_append;
};

/**
 * struct an_datcheck - what the header walk learnt
 * @version: file version, 6 or 7
 * @is_big_endian: file byte order
 * @compression: v7 compression name, "" when none
 * @nr_cpus: CPUs of the top buffer (or the CPUCOUNT option)
 * @kernel_release: release from the UNAME option, "" when absent
 * @page_size: ring-buffer page size
 * @long_size: the pages' long size: the header_page's commit word, as in
 *	       libtracecmd (the file header's may differ)
 * @file_size: bytes of the file
 * @has_ts_adjust: a DATE, OFFSET or TSC2NSEC option: libtracecmd moves or
 *	scales the timestamps
 * @use_pages: read the CPU data with datpages.c (see an_datcheck_run())
 * @comp_name: v7 compression name and version as the file gives them
 *	       (tracecmd_compress_alloc()): "none" when not compressed, "" in v6
 * @comp_version: see @comp_name
 * @max_chunk: the largest compressed chunk once inflated, 0 when none
 * @ranges: the CPU data, the top instance's first, each instance's in
 *	    file order of its CPU table
 * @nr_ranges: their number
 * @nr_buffers: named instances read (v6), their ranges' @buffer 1..N
 * @unplaced: losses no page places (the kernel counted them in commit
 *	      overruns, dropped events, or in no page read); NULL when none
 * @nr_unplaced: their number
 * @tail_lost: the empty last pages of uncompressed ranges that report
 *	       losses, by timestamp; NULL when none
 * @nr_tail_lost: their number
 * @nr_lost_before: overwritten events the statistics count that the buffer
 *		    had reported to an earlier reader: older than the file, in
 *		    no window (datcheck.c lost_before())
 * @nr_cpus_read_before: CPUs whose buffer had been read before the file
 *			 was saved, and lost events then
 * @edits: event formats whose print format libtraceevent cannot parse
 *	   safely, emptied (an_datformat_blank_print()) in a copy of the file
 *	   libtracecmd reads instead (an_datcheck_copy()); NULL when none
 * @nr_edits: their number
 * @nr_blanked: event formats emptied
 * @blanked: the first one's name
 * @nr_hidden: options libtracecmd would misread, hidden from it in the copy
 *	       (an edit each: datcheck.c hide_option())
 */
struct an_datcheck {
	int version;
	bool is_big_endian;
	char compression[16];
	int nr_cpus;
	char kernel_release[80];
	unsigned int page_size;
	unsigned int long_size;
	uint64_t file_size;
	bool has_ts_adjust;
	bool use_pages;
	char comp_name[AN_DATFILE_STR_MAX];
	char comp_version[AN_DATFILE_STR_MAX];
	uint64_t max_chunk;
	struct an_datcheck_range *ranges;
	size_t nr_ranges;
	int nr_buffers;
	struct an_datcheck_loss *unplaced;
	size_t nr_unplaced;
	struct an_datcheck_tail_loss *tail_lost;
	size_t nr_tail_lost;
	uint64_t nr_lost_before;
	unsigned int nr_cpus_read_before;
	struct an_datcheck_edit *edits;
	size_t nr_edits;
	unsigned int nr_blanked;
	char blanked[64];
	unsigned int nr_hidden;
};

/**
 * an_datcheck_page_walks() - whether a ring-buffer page's events lead to its end
 * @page: the page, its header first
 * @avail: bytes readable at @page (past them the page reads as zeroes)
 * @long_size: size of the page's commit word (4 or 8)
 * @is_big: the page's byte order
 *
 * kbuffer (libtraceevent 1.7.1) finds an event's successor from its length
 * and never checks that it lies after it: a damaged length that points back
 * makes kbuffer_next_event() hand out the same events, or skip the same
 * padding, for ever. Every page is checked with this before kbuffer or
 * datpages.c's walk reads it (libtracecmd's pages by an_datcheck_run()).
 * The page's data size must fit the page (checked before).
 *
 * Return: true when each event's successor lies after it.
 */
bool an_datcheck_page_walks(const unsigned char *page, size_t avail, unsigned int long_size,
			    bool is_big);

struct kbuffer;

/**
 * an_datcheck_kbuffer() - a libtraceevent kbuffer for the pages of a file
 * @chk: the file's header walk (its long size and byte order)
 *
 * Return: the kbuffer, freed with kbuffer_free(); NULL when out of memory.
 */
struct kbuffer *an_datcheck_kbuffer(const struct an_datcheck *chk);

/**
 * an_datcheck_is_magic() - whether @buf starts like a trace.dat
 * @buf: first bytes of a file
 * @len: their number
 *
 * Return: true when the 10-byte magic "\x17\x08\x44tracing" is there.
 */
bool an_datcheck_is_magic(const void *buf, size_t len);

/**
 * an_datcheck_run() - walk and check the structure of trace.dat @path
 * @path: file
 * @want_pages: the caller would rather read the CPU data with datpages.c
 * @out: what was learnt, freed with an_datcheck_free() even on failure
 * @d: diagnostic (offset of the problem) on failure
 *
 * Every CPU data page is checked for libtracecmd, unless @want_pages and
 * the file is one datpages.c reads as libtracecmd would (out->use_pages):
 * that reader checks each page as it loads it.
 *
 * Return: 0, a negative errno (cannot read), AN_E_CORRUPT (a size or offset
 * outside the file, a malformed option) or AN_E_FORMAT (version or feature
 * ucval does not read: latency data, host/guest options).
 */
int an_datcheck_run(const char *path, bool want_pages, struct an_datcheck *out,
		    struct an_diag *d);

/**
 * an_datcheck_copy() - a copy of trace.dat @path with @chk's edits, for
 * libtracecmd to read instead (an anonymous memory file of the file's size,
 * plus the appended sections). The CPU data libtracecmd does not read
 * (is_lib_unread) is left a hole: it takes no memory and reads as zeroes.
 * @path: the file an_datcheck_run() checked
 * @chk: its result, with edits
 * @fd: the copy, to close() by the caller; read it as /proc/self/fd/N
 * @d: diagnostic on failure
 *
 * Return: 0 or a negative errno.
 */
int an_datcheck_copy(const char *path, const struct an_datcheck *chk, int *fd,
		     struct an_diag *d);

/**
 * an_datcheck_free() - free what an_datcheck_run() allocated in @chk
 * @chk: its result
 */
void an_datcheck_free(struct an_datcheck *chk);

#endif /* UCVAL_ANALYZE_READ_DAT_DATCHECK_H */
