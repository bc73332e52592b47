// SPDX-License-Identifier: MIT
/*
 * analyze/read/text.c - streaming reader of ftrace text and systrace HTML
 * (spec/events.md §1). One fixed line buffer: memory does not grow with the
 * trace. The line grammar lives in textline.c.
 *
 * A "CPU:N [LOST M EVENTS]" line becomes a LOST_EVENTS event stamped with the
 * next event's timestamp, as trace.dat reports a loss on the record after it.
 */
#define _GNU_SOURCE	/* memmem() */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/malloc.h"
#include "analyze/read/text.h"
#include "analyze/read/textline.h"

#define HTML_BLOCK_TAG	"trace-data"	/* class of systrace's text blocks */
#define HTML_END_TAG	"</script>"

struct an_text {
	FILE *fp;
	bool is_html;
	bool in_block;		/* HTML: inside a trace-data block */
	bool is_block_start;	/* HTML: no non-blank line of the block yet */
	bool is_block_skipped;	/* HTML: a JSON block, not ftrace text */
	bool seen_block;	/* HTML: at least one trace-data block */
	bool is_discarding;	/* the rest of an over-long line is skipped */
	bool is_eof;
	char *buf;		/* AN_TEXT_LINE_MAX + 1 bytes */
	size_t start, end;	/* unread data is buf[start, end) */
	unsigned long long line_no;
	unsigned long long last_ts;
	struct an_reader_info *info;
	/* a LOST line waits for the next event's timestamp */
	bool has_lost;
	int lost_cpu;
	unsigned long long lost_count;
	/* the event that follows a LOST_EVENTS event returned first */
	bool has_pending;
	struct an_event pending;
};

/**
 * an_text_open() - start reading ftrace text or systrace HTML from @fp
 * @fp: stream positioned at the start of the file, borrowed
 * @is_html: true to read only the <script class="trace-data"> blocks
 * @info: reader metadata to update, borrowed
 * @head: bytes already read from @fp (format detection), read first
 * @head_len: their number, at most AN_TEXT_LINE_MAX
 * @out: the new reader, freed with an_text_close()
 * @d: diagnostic on failure
 *
 * Return: 0 or -ENOMEM.
 */
int an_text_open(FILE *fp, bool is_html, struct an_reader_info *info,
		 const void *head, size_t head_len, struct an_text **out,
		 struct an_diag *d)
{
	struct an_text *t = an_calloc(1, sizeof(*t));

	if (!t)
		goto fail_alloc;
	t->buf = an_malloc(AN_TEXT_LINE_MAX + 1);
	if (!t->buf)
		goto fail_alloc;
	if (head_len > AN_TEXT_LINE_MAX)
		head_len = AN_TEXT_LINE_MAX;
	memcpy(t->buf, head, head_len);
	t->end = head_len;
	t->fp = fp;
	t->is_html = is_html;
	t->info = info;
	*out = t;
	return 0;

fail_alloc:
	an_text_close(t);
	return an_diag_fail(d, -ENOMEM, "out of memory");
}

/**
 * an_text_close() - free @t (not its stream)
 * @t: reader, may be NULL
 */
void an_text_close(struct an_text *t)
{
	if (!t)
		return;
	free(t->buf);
	free(t);
}

/* Refill the buffer, keeping the unread part; 0 at end of file. */
static int fill(struct an_text *t, struct an_diag *d)
{
	size_t n;

	if (t->is_eof)
		return 0;
	if (t->start) {
		memmove(t->buf, t->buf + t->start, t->end - t->start);
		t->end -= t->start;
		t->start = 0;
	}
	n = fread(t->buf + t->end, 1, AN_TEXT_LINE_MAX - t->end, t->fp);
	t->end += n;
	if (n == 0) {
		if (ferror(t->fp))
			return an_diag_fail(d, -EIO, "read error");
		t->is_eof = true;
	}
	return (int)(n > 0);
}

/*
 * Next raw line, NUL-terminated in place, without "\n" or "\r\n".
 * Return: 1 (a line), 0 (end of file), 2 (an over-long line, cut) or < 0.
 */
static int read_line(struct an_text *t, char **line, size_t *len, struct an_diag *d)
{
	for (;;) {
		char *nl = memchr(t->buf + t->start, '\n', t->end - t->start);
		int err;

		if (nl || (t->is_eof && t->end > t->start)) {
			char *s = t->buf + t->start;
			size_t n = nl ? (size_t)(nl - s) : t->end - t->start;
			bool was_discarding = t->is_discarding;

			t->start += nl ? n + 1 : n;
			t->is_discarding = false;
			if (was_discarding)
				continue;	/* tail of a line already reported */
			t->line_no++;
			if (n && s[n - 1] == '\r')
				n--;
			s[n] = '\0';
			*line = s;
			*len = n;
			return 1;
		}
		if (t->start == 0 && t->end == AN_TEXT_LINE_MAX) {
			bool was_discarding = t->is_discarding;

			t->start = t->end = 0;	/* drop the full buffer */
			t->is_discarding = true;
			if (was_discarding)
				continue;
			t->line_no++;
			return 2;
		}
		err = fill(t, d);
		if (err < 0)
			return err;
		if (err == 0 && t->end == t->start)
			return 0;
	}
}

/* "<script class="trace-data" ...>": true, with the text after '>'. */
static bool is_block_start(char *line, size_t len, char **rest)
{
	char *tag = memmem(line, len, "<script", 7);
	char *close;

	if (!tag)
		return false;
	close = memchr(tag, '>', len - (size_t)(tag - line));
	if (!close || !memmem(tag, (size_t)(close - tag), HTML_BLOCK_TAG,
			      strlen(HTML_BLOCK_TAG)))
		return false;
	*rest = close + 1;
	return true;
}

/*
 * Next line of ftrace text: every line for plain text, only the lines of
 * trace-data blocks for HTML (JSON blocks are skipped).
 */
static int next_text_line(struct an_text *t, char **line, size_t *len,
			  struct an_diag *d)
{
	for (;;) {
		char *s = NULL, *rest, *stop;
		size_t n = 0;
		int rc = read_line(t, &s, &n, d);

		if (rc <= 0 || !t->is_html || (rc == 2 && t->in_block)) {
			*line = s;
			*len = rc == 2 ? 0 : n;
			return rc;
		}
		if (rc == 2)
			continue;
		if (!t->in_block) {
			if (!is_block_start(s, n, &rest))
				continue;
			t->in_block = t->seen_block = t->is_block_start = true;
			t->is_block_skipped = false;
			n -= (size_t)(rest - s);
			s = rest;
		}
		stop = memmem(s, n, HTML_END_TAG, strlen(HTML_END_TAG));
		if (stop) {
			t->in_block = false;
			n = (size_t)(stop - s);
			s[n] = '\0';
		}
		if (t->is_block_start) {
			char *p = s;

			while (p < s + n && (*p == ' ' || *p == '\t'))
				p++;
			if (p == s + n)
				continue;
			t->is_block_start = false;
			t->is_block_skipped = *p == '{' || *p == '[';
		}
		if (t->is_block_skipped)
			continue;
		*line = s;
		*len = n;
		return 1;
	}
}

static void make_lost(struct an_text *t, struct an_event *ev, unsigned long long ts)
{
	memset(ev, 0, sizeof(*ev));
	ev->type = AN_EV_LOST_EVENTS;
	ev->name = "lost_events";
	ev->ts_ns = ts;
	ev->cpu = t->lost_cpu;
	ev->pid = -1;
	ev->pos = t->line_no;
	ev->lost.count = t->lost_count;
	t->has_lost = false;
}

static int at_end(struct an_text *t, struct an_event *ev, struct an_diag *d)
{
	if (t->has_lost) {
		make_lost(t, ev, t->last_ts);
		return 1;
	}
	if (t->is_html && !t->seen_block)
		return an_diag_fail(d, AN_E_FORMAT,
				    "no <script class=\"%s\"> block in the HTML",
				    HTML_BLOCK_TAG);
	return 0;
}

/**
 * an_text_next() - decode the next event (see an_reader_next())
 * @t: reader
 * @ev: event to fill
 * @d: diagnostic; its line is set on every error
 *
 * Return: 1, 0 at the end, or a negative code.
 */
int an_text_next(struct an_text *t, struct an_event *ev, struct an_diag *d)
{
	if (t->has_pending) {
		*ev = t->pending;
		t->has_pending = false;
		return 1;
	}
	for (;;) {
		struct an_textline_extra x = { 0 };
		char *line;
		size_t len;
		int rc = next_text_line(t, &line, &len, d);

		if (rc < 0)
			return rc;
		if (rc == 0)
			return at_end(t, ev, d);
		d->line = t->line_no;
		if (rc == 2)
			return an_diag_fail(d, AN_E_SYNTAX, "line longer than %d bytes",
					    AN_TEXT_LINE_MAX);
		rc = an_textline_parse(line, len, ev, &x, d);
		if (rc < 0)
			return rc;
		switch (rc) {
		case AN_TEXTLINE_CPUS:
			if (!t->info->nr_cpus)
				t->info->nr_cpus = x.nr_cpus;
			continue;
		case AN_TEXTLINE_EVENTS:
			t->info->ev_list = AN_EV_LIST_ENABLED;
			t->info->ev_listed |= x.ev_listed;
			continue;
		case AN_TEXTLINE_LOST:
			if (t->has_lost && t->lost_cpu != x.cpu) {
				/* two CPUs lost before any event: report the first */
				make_lost(t, ev, t->last_ts);
				t->has_lost = true;
				t->lost_cpu = x.cpu;
				t->lost_count = x.lost;
				return 1;
			}
			t->lost_count = t->has_lost ? t->lost_count + x.lost : x.lost;
			t->has_lost = true;
			t->lost_cpu = x.cpu;
			continue;
		case AN_TEXTLINE_EVENT:
			ev->pos = t->line_no;
			t->last_ts = ev->ts_ns;
			if (t->has_lost) {
				t->pending = *ev;
				t->has_pending = true;
				make_lost(t, ev, ev->ts_ns);
			}
			return 1;
		default:
			continue;
		}
	}
}

/**
 * an_text_probe() - whether @buf looks like ftrace text
 * @buf: first bytes of a file
 * @len: their number
 *
 * Return: true when a line of @buf is an ftrace event line, a LOST line or a
 * known text header ("# tracer:", "cpus=N"), and @buf has no NUL byte.
 */
bool an_text_probe(const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len;

	if (memchr(buf, '\0', len))
		return false;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end;

		if (an_textline_probe(p, (size_t)(e - p)))
			return true;
		p = e + 1;
	}
	return false;
}
