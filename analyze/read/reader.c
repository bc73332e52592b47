// SPDX-License-Identifier: MIT
/*
 * analyze/read/reader.c - format detection and the format-neutral reader API
 * (spec/events.md §1: formats are told apart by content, never by name).
 */
#define _GNU_SOURCE	/* memmem(), strncasecmp() */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <trace-cmd.h>

#include "analyze/read/dat/datcheck.h"
#include "lib/malloc.h"
#include "analyze/read/pftrace.h"
#include "analyze/read/reader.h"
#include "analyze/read/source.h"
#include "analyze/read/text.h"
#include "analyze/read/dat/tracedat.h"

/* Bytes read to detect the format: a few event lines or the HTML prologue. */
#define PROBE_LEN 8192
/*
 * Bytes of text from an input that may never end (not a regular file) read
 * without an event before the reader gives up on it: far more than a
 * systrace HTML prologue (4 MB) or a line (64 KiB); about a second of
 * garbage lines. A live trace_pipe that waits for events reads nothing
 * meanwhile: the wait does not count.
 */
#define NO_EVENT_MAX (64ULL << 20)

struct an_reader {
	char *path;
	struct an_source *src;	/* the input's bytes; NULL for a borrowed stream */
	bool is_budgeted;	/* text from an input that may never end */
	struct an_text *text;
	struct an_tracedat *dat;
	struct an_pftrace *pf;
	int failed;		/* the final error, once one happened */
	struct an_reader_info info;
};

static const char *const format_names[] = {
	[AN_FORMAT_UNKNOWN]  = "unknown",
	[AN_FORMAT_TRACEDAT] = "trace.dat",
	[AN_FORMAT_TEXT]     = "ftrace-text",
	[AN_FORMAT_HTML]     = "systrace-html",
	[AN_FORMAT_PERFETTO] = "perfetto",
};

static bool starts_with_nocase(const char *p, const char *end, const char *prefix)
{
	size_t n = strlen(prefix);

	return (size_t)(end - p) >= n && !strncasecmp(p, prefix, n);
}

static bool looks_html(const char *buf, size_t len)
{
	static const char bom[] = "\xef\xbb\xbf";	/* UTF-8 byte order mark */
	static const char block[] = "<script class=\"trace-data\"";
	const char *p = buf, *end = buf + len;

	if (starts_with_nocase(p, end, bom))
		p += strlen(bom);
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
		p++;
	return starts_with_nocase(p, end, "<!doctype html") ||
	       starts_with_nocase(p, end, "<html") ||
	       memmem(buf, len, block, strlen(block)) != NULL;
}

/**
 * an_reader_detect() - guess the format of a trace from its first bytes
 * @buf: the first bytes of the file
 * @len: how many
 *
 * Return: the format, AN_FORMAT_UNKNOWN when it is none of them.
 */
enum an_format an_reader_detect(const void *buf, size_t len)
{
	if (an_datcheck_is_magic(buf, len))
		return AN_FORMAT_TRACEDAT;
	if (looks_html(buf, len))
		return AN_FORMAT_HTML;
	if (an_text_probe(buf, len))
		return AN_FORMAT_TEXT;
	/* after text: a text file may start with a newline, 0x0a too */
	if (an_pftrace_probe(buf, len))
		return AN_FORMAT_PERFETTO;
	return AN_FORMAT_UNKNOWN;
}

static struct an_reader *reader_new(const char *path)
{
	struct an_reader *r = an_calloc(1, sizeof(*r));
	size_t n = strlen(path) + 1;

	if (!r)
		return NULL;
	r->path = an_malloc(n);
	if (!r->path) {
		free(r);
		return NULL;
	}
	memcpy(r->path, path, n);
	return r;
}

/*
 * trace.dat: its readers open it again and read it out of order. A regular
 * file is opened again (its tap reads the rest itself); any other input is
 * copied, @head first, into a temporary file they open instead.
 */
/*
 * Text or HTML from @fp. Its CPU count may need a first pass (text.h): over
 * a second stream of a regular file, so that the hashed stream is read
 * once; over a borrowed stream itself, which is then rewound (it seeks).
 */
static int open_text(struct an_reader *r, FILE *fp, bool is_html, const void *probe,
		     size_t n, struct an_diag *d)
{
	FILE *scan = NULL;
	int err;

	if (!r->src)
		scan = fp;
	else if (an_source_is_file(r->src))
		scan = fopen(r->path, "re");
	err = an_text_open(fp, scan, is_html, &r->info, probe, n, &r->text, d);
	if (scan && scan != fp)
		fclose(scan);
	return err;
}

static int open_dat(struct an_reader *r, const void *head, size_t len, struct an_diag *d)
{
	const char *path = r->path;
	int err;

	if (!r->src)
		return an_diag_fail(d, AN_E_FORMAT, "trace.dat must be read from a file");
	if (!an_source_is_file(r->src)) {
		err = an_source_spool(r->src, head, len, &path, d);
		if (err)
			return err;
	}
	err = an_tracedat_open(path, &r->info, &r->dat, d);
	if (!err && an_source_is_file(r->src))
		err = an_source_hand_rest(r->src, d);
	return err;
}

/* Perfetto: read twice (an index, then the merge), so from a file, as trace.dat. */
static int open_perfetto(struct an_reader *r, const void *head, size_t len, struct an_diag *d)
{
	const char *path = r->path;
	int err;

	if (!r->src)
		return an_diag_fail(d, AN_E_FORMAT, "a Perfetto trace must be read from a file");
	if (!an_source_is_file(r->src)) {
		err = an_source_spool(r->src, head, len, &path, d);
		if (err)
			return err;
	}
	err = an_pftrace_open(path, &r->info, &r->pf, d);
	if (!err && an_source_is_file(r->src))
		err = an_source_hand_rest(r->src, d);
	return err;
}

/* Detect from @fp and start the matching reader. */
static int open_fp(struct an_reader *r, FILE *fp, struct an_diag *d)
{
	char *probe = an_malloc(PROBE_LEN);
	enum an_format fmt;
	size_t n;
	int err;

	if (!probe)
		return an_diag_fail(d, -ENOMEM, "out of memory");
	errno = 0;
	n = fread(probe, 1, PROBE_LEN, fp);
	if (ferror(fp)) {
		err = errno ? -errno : -EIO;
		an_diag_fail(d, err, "%s", strerror(-err));
		goto out;
	}
	if (n == 0) {
		err = an_diag_fail(d, AN_E_EMPTY, "empty file");
		goto out;
	}
	fmt = an_reader_detect(probe, n);
	r->info.format = fmt;
	r->info.format_name = format_names[fmt];
	d->offset = 0;
	switch (fmt) {
	case AN_FORMAT_TRACEDAT:
		err = open_dat(r, probe, n, d);
		break;
	case AN_FORMAT_PERFETTO:
		err = open_perfetto(r, probe, n, d);
		break;
	case AN_FORMAT_TEXT:
	case AN_FORMAT_HTML:
		d->offset = -1;
		if (r->src && !an_source_is_file(r->src)) {
			r->is_budgeted = true;
			an_source_set_budget(r->src, NO_EVENT_MAX);
		}
		err = open_text(r, fp, fmt == AN_FORMAT_HTML, probe, n, d);
		break;
	default:
		err = an_diag_fail(d, AN_E_FORMAT,
				   memchr(probe, '\0', n) ?
				   "binary data in the first %zu bytes (not ftrace text, "
				   "systrace HTML or trace.dat, nor a Perfetto trace)" :
				   "no ftrace line in the first %zu bytes (not ftrace text, "
				   "systrace HTML or trace.dat, nor a Perfetto trace)", n);
		break;
	}
out:
	free(probe);
	return err;
}

/**
 * an_reader_open() - open a trace file of any supported format
 * @path: file to read
 * @out: the new reader, to be freed with an_reader_close(); NULL on failure
 * @d: diagnostic on failure
 *
 * Return: 0, a negative errno, AN_E_EMPTY, AN_E_FORMAT, AN_E_CORRUPT or
 * AN_E_LIBRARY.
 */
int an_reader_open(const char *path, struct an_reader **out, struct an_diag *d)
{
	return an_reader_open_tap(path, NULL, out, d);
}

/**
 * an_reader_open_tap() - open a trace of any supported format from any input
 * @path: file, pipe, FIFO or device to read
 * @tap: who also sees every byte read (the trace's hash), NULL for nobody
 * @out: the new reader, to be freed with an_reader_close(); NULL on failure
 * @d: diagnostic on failure
 *
 * Return: as an_reader_open(), or -EFBIG for a trace.dat beyond the spool limit.
 */
int an_reader_open_tap(const char *path, const struct an_source_tap *tap,
		       struct an_reader **out, struct an_diag *d)
{
	struct an_reader *r;
	int err;

	*out = NULL;
	an_diag_clear(d);
	an_diag_set_file(d, "open", path);
	r = reader_new(path);
	if (!r)
		return an_diag_fail(d, -ENOMEM, "out of memory");
	err = an_source_open(path, tap, &r->src, d);
	if (!err)
		err = open_fp(r, an_source_stream(r->src), d);
	if (err) {
		an_reader_close(r);
		return err;
	}
	*out = r;
	return 0;
}

/**
 * an_reader_open_stream() - read ftrace text or systrace HTML from a stream
 * @fp: stream, borrowed (the caller closes it after an_reader_close())
 * @name: name for diagnostics
 * @out: the new reader, to be freed with an_reader_close()
 * @d: diagnostic on failure
 *
 * Return: as an_reader_open().
 */
int an_reader_open_stream(FILE *fp, const char *name, struct an_reader **out,
			  struct an_diag *d)
{
	struct an_reader *r;
	int err;

	*out = NULL;
	an_diag_clear(d);
	an_diag_set_file(d, "open", name);
	r = reader_new(name);
	if (!r)
		return an_diag_fail(d, -ENOMEM, "out of memory");
	err = open_fp(r, fp, d);
	if (err) {
		an_reader_close(r);
		return err;
	}
	*out = r;
	return 0;
}

/* The end of a trace in which no event decoded: unreadable as its format. */
static int no_event(const struct an_reader *r, struct an_diag *d)
{
	an_diag_clear(d);
	return an_diag_fail(d, AN_E_FORMAT, "no event decoded (read as %s; %llu "
			    "undecodable lines or records)", r->info.format_name,
			    r->info.nr_errors);
}

/**
 * an_reader_next() - decode the next event
 * @r: reader
 * @ev: event to fill; borrowed pointers in it live until the next call
 * @d: diagnostic on error, naming file, line or record, event and field
 *
 * Return: 1 with an event, 0 at the end, or a negative code; see
 * an_error_is_recoverable().
 */
int an_reader_next(struct an_reader *r, struct an_event *ev, struct an_diag *d)
{
	int rc;

	an_diag_clear(d);
	d->what = "decode";
	if (r->failed) {
		an_diag_set_file(d, "decode", r->path);
		return an_diag_fail(d, AN_E_STATE, "reader stopped after: %s",
				    an_error_str(r->failed));
	}
	if (r->dat)
		rc = an_tracedat_next(r->dat, ev, d);
	else if (r->pf)
		rc = an_pftrace_next(r->pf, ev, d);
	else
		rc = an_text_next(r->text, ev, d);
	if (rc == 0 && !r->info.nr_events)
		rc = no_event(r, d);
	/* the path is copied only when there is something to say */
	if (rc < 0 && !d->file[0])
		snprintf(d->file, sizeof(d->file), "%s", r->path);
	if (rc > 0) {
		if (r->is_budgeted)
			an_source_set_budget(r->src, an_source_offset(r->src) + NO_EVENT_MAX);
		r->info.nr_events++;
		if (ev->type == AN_EV_UNKNOWN)
			r->info.nr_unknown++;
		if (ev->type == AN_EV_LOST_EVENTS) {
			r->info.nr_lost += ev->lost.count;
			r->info.nr_lost_unknown += !ev->lost.count;
			if (ev->lost.is_unplaced)
				r->info.nr_lost_unplaced += ev->lost.count;
		}
	} else if (rc < 0 && an_error_is_recoverable(rc)) {
		r->info.nr_errors++;
	} else if (rc < 0) {
		d->what = "read";
		if (r->is_budgeted && an_source_is_over(r->src))
			rc = an_diag_fail(d, AN_E_FORMAT, "no event in %llu MiB of input "
					  "(expected ftrace text or systrace HTML)",
					  NO_EVENT_MAX >> 20);
		r->failed = rc;
	}
	return rc;
}

/**
 * an_reader_info() - metadata and counters of @r
 * @r: reader
 *
 * Return: a pointer into @r, valid until an_reader_close().
 */
const struct an_reader_info *an_reader_info(const struct an_reader *r)
{
	return &r->info;
}

/**
 * an_reader_close() - free a reader
 * @r: reader from an_reader_open(), may be NULL
 */
void an_reader_close(struct an_reader *r)
{
	if (!r)
		return;
	an_tracedat_close(r->dat);
	an_pftrace_close(r->pf);
	an_text_close(r->text);
	an_source_close(r->src);
	free(r->path);
	free(r);
}

/**
 * an_reader_set_quiet() - silence libtracecmd and libtraceevent
 * @is_quiet: true for no library output at all
 */
void an_reader_set_quiet(bool is_quiet)
{
	enum tep_loglevel level = is_quiet ? TEP_LOG_NONE : TEP_LOG_WARNING;

	tracecmd_set_loglevel(level);
	tep_set_loglevel(level);
}

/**
 * an_reader_set_dat_reader() - how every trace.dat is read from now on
 * @how: AN_DAT_PAGES (the default), AN_DAT_KBUFFER or AN_DAT_LIBTRACECMD
 */
void an_reader_set_dat_reader(enum an_dat_reader how)
{
	an_tracedat_set_reader(how);
}

/**
 * an_reader_set_spool_max() - largest trace.dat read from a non-regular file
 * @bytes: the limit; 0 for AN_SOURCE_SPOOL_MAX
 */
void an_reader_set_spool_max(uint64_t bytes)
{
	an_source_set_spool_max(bytes);
}
