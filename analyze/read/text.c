// SPDX-License-Identifier: MIT
/*
 * analyze/read/text.c - streaming reader of ftrace text and systrace HTML
 * (spec/events.md §1). One fixed line buffer: memory does not grow with the
 * trace. The line grammar lives in textline.c.
 *
 * A "CPU:N [LOST M EVENTS]" line becomes a LOST_EVENTS event stamped with the
 * next event's timestamp, as trace.dat reports a loss on the record after it.
 *
 * HTML holds the text in one of two ways: today's systrace writes it as is
 * inside <script class="trace-data"> blocks; the legacy one (about 2013 to
 * 2016) wrote it as a JavaScript string, 'var linuxPerfData = "\' and then
 * one trace line per source line, each ending in a literal "\n\" (the
 * newline escape and a line continuation), the last one in '\n";'. That
 * producer escaped nothing else, so the text between is taken as it is.
 *
 * A text trace without a CPU-count header (a trace_pipe capture) names its
 * CPUs only in its events. The replay sizes its model on the first event, so
 * for a regular file an_text_open() reads a second stream of it once ahead
 * and reports the highest CPU the events name as the count.
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
#define JS_LINE_END	"\\n\\"	/* legacy: newline escape, continuation */
#define CPU_ID_MAX	8192	/* the kernel's largest NR_CPUS; beyond: a bad field */

/* What read_line() and next_text_line() return, besides negative errors. */
enum text_rc {
	TEXT_END = 0,	/* end of file */
	TEXT_LINE,	/* a whole line */
	TEXT_LONG,	/* a line longer than the buffer, skipped */
	TEXT_CUT,	/* the last line: the file ends inside it */
	TEXT_SKIP,	/* HTML around the trace text (html_line() only) */
};

struct an_text {
	FILE *fp;
	bool is_html;
	bool in_block;		/* HTML: inside a trace-data block */
	bool is_block_start;	/* HTML: no non-blank line of the block yet */
	bool is_block_skipped;	/* HTML: a JSON block, not ftrace text */
	bool seen_block;	/* HTML: a trace-data block or a legacy string */
	bool in_js;		/* HTML: inside the legacy JavaScript string */
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
 * Return: an enum text_rc but TEXT_SKIP (TEXT_CUT: the file ends without a
 * newline after it), or < 0.
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
			return nl ? TEXT_LINE : TEXT_CUT;
		}
		if (t->start == 0 && t->end == AN_TEXT_LINE_MAX) {
			bool was_discarding = t->is_discarding;

			t->start = t->end = 0;	/* drop the full buffer */
			t->is_discarding = true;
			if (was_discarding)
				continue;
			t->line_no++;
			return TEXT_LONG;
		}
		err = fill(t, d);
		if (err < 0)
			return err;
		if (err == 0 && t->end == t->start)
			return TEXT_END;
	}
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static bool is_blank_line(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!is_blank(s[i]))
			return false;
	return true;
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

/* The legacy string's opening line: 'var <name> = "\' alone on its line. */
static bool is_js_start(const char *s, size_t n)
{
	const char *p = s, *end = s + n, *name;

	while (p < end && is_blank(*p))
		p++;
	while (end > p && is_blank(end[-1]))
		end--;
	if (end - p < 6 || memcmp(p, "var", 3) || !is_blank(p[3]) ||
	    end[-1] != '\\' || end[-2] != '"')
		return false;
	end -= 2;
	for (p += 4; p < end && is_blank(*p); p++)
		;
	for (name = p; p < end && (*p == '_' || *p == '$' || (*p >= '0' && *p <= '9') ||
				   ((*p | 0x20) >= 'a' && (*p | 0x20) <= 'z')); p++)
		;
	if (p == name)
		return false;
	while (p < end && is_blank(*p))
		p++;
	if (p == end || *p++ != '=')
		return false;
	while (p < end && is_blank(*p))
		p++;
	return p == end;
}

/* The quote that closes the legacy string: only ';' or blanks after it. */
static char *js_closing_quote(char *s, size_t n)
{
	char *quote = memrchr(s, '"', n);

	if (!quote)
		return NULL;
	for (char *p = quote + 1; p < s + n; p++)
		if (*p != ';' && !is_blank(*p))
			return NULL;
	return quote;
}

/*
 * A line of the legacy string: "text\n\" goes on, '\n";' ends it. The
 * text is whole when its newline escape or the closing quote is there,
 * even where the file ends right after it.
 */
static int js_line(struct an_text *t, char *s, size_t *len, int rc)
{
	size_t n = *len, k = strlen(JS_LINE_END);
	char *quote;

	if (n >= k && !memcmp(s + n - k, JS_LINE_END, k)) {
		n -= k;
		rc = TEXT_LINE;
	} else if (n && s[n - 1] == '\\') {
		n--;	/* a continuation without the newline escape: as it is */
	} else {
		t->in_js = false;	/* no continuation: the string ends here */
		quote = js_closing_quote(s, n);
		if (quote) {
			n = (size_t)(quote - s);
			rc = TEXT_LINE;
			if (n >= 2 && s[n - 2] == '\\' && s[n - 1] == 'n')
				n -= 2;
		}
	}
	if (n && s[n - 1] == '\r')
		n--;
	s[n] = '\0';
	*len = n;
	return rc;
}

/*
 * The ftrace text of one HTML line (@rc TEXT_LINE or TEXT_CUT): the line
 * of a trace-data block or of the legacy string, TEXT_SKIP for the page
 * around them and JSON blocks. A line the block's end closes is whole.
 */
static int html_line(struct an_text *t, char **line, size_t *len, int rc)
{
	char *s = *line, *rest, *stop;
	size_t n = *len;

	if (t->in_js)
		return js_line(t, s, len, rc);
	if (!t->in_block) {
		if (is_js_start(s, n)) {
			t->in_js = t->seen_block = true;
			return TEXT_SKIP;
		}
		if (!is_block_start(s, n, &rest))
			return TEXT_SKIP;
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
		rc = TEXT_LINE;
	}
	if (t->is_block_start) {
		char *p = s;

		while (p < s + n && is_blank(*p))
			p++;
		if (p == s + n)
			return TEXT_SKIP;
		t->is_block_start = false;
		t->is_block_skipped = *p == '{' || *p == '[';
	}
	if (t->is_block_skipped)
		return TEXT_SKIP;
	*line = s;
	*len = n;
	return rc;
}

/*
 * Next line of ftrace text: every line for plain text, only the lines of
 * trace-data blocks or of the legacy string for HTML.
 * Return: an enum text_rc but TEXT_SKIP, or < 0.
 */
static int next_text_line(struct an_text *t, char **line, size_t *len,
			  struct an_diag *d)
{
	for (;;) {
		char *s = NULL;
		size_t n = 0;
		int rc = read_line(t, &s, &n, d);

		if (rc == TEXT_LONG && t->is_html && !t->in_block && !t->in_js)
			continue;
		if (rc == TEXT_LINE || rc == TEXT_CUT) {
			if (t->is_html)
				rc = html_line(t, &s, &n, rc);
			if (rc == TEXT_SKIP)
				continue;
		}
		*line = s;
		*len = rc == TEXT_LONG ? 0 : n;
		return rc;
	}
}

/* Whether events of @type name CPUs in their fields (event_max_cpu()). */
static bool has_cpu_fields(enum an_event_type type)
{
	switch (type) {
	case AN_EV_SCHED_WAKEUP:
	case AN_EV_SCHED_WAKEUP_NEW:
	case AN_EV_SCHED_MIGRATE_TASK:
	case AN_EV_CPU_FREQUENCY:
	case AN_EV_CPU_FREQUENCY_LIMITS:
	case AN_EV_CPU_IDLE:
	case AN_EV_UCLAMP_UTIL_CFS:
	case AN_EV_UCLAMP_UTIL_SE:
	case AN_EV_SCHED_PELT_CFS:
	case AN_EV_SCHED_UTIL:
	case AN_EV_SUGOV_UTIL_UPDATE:
		return true;
	default:
		return false;
	}
}

static int max_of(int max_cpu, int cpu)
{
	return cpu < CPU_ID_MAX && cpu > max_cpu ? cpu : max_cpu;
}

/* The highest CPU @ev names: its buffer's, or one of its fields. */
static int event_max_cpu(const struct an_event *ev)
{
	int m = max_of(-1, ev->cpu);

	switch (ev->type) {
	case AN_EV_SCHED_WAKEUP:
	case AN_EV_SCHED_WAKEUP_NEW:
		return max_of(m, ev->wakeup.target_cpu);
	case AN_EV_SCHED_MIGRATE_TASK:
		return max_of(max_of(m, ev->migrate.orig_cpu), ev->migrate.dest_cpu);
	case AN_EV_CPU_FREQUENCY:
		return max_of(m, ev->freq.cpu_id);
	case AN_EV_CPU_FREQUENCY_LIMITS:
		return max_of(m, ev->limits.cpu_id);
	case AN_EV_CPU_IDLE:
		return max_of(m, ev->idle.cpu_id);
	case AN_EV_UCLAMP_UTIL_CFS:
		return max_of(m, ev->util_cfs.cpu);
	case AN_EV_UCLAMP_UTIL_SE:
		return max_of(m, ev->util_se.cpu);
	case AN_EV_SCHED_PELT_CFS:
		return max_of(m, ev->pelt_cfs.cpu);
	case AN_EV_SCHED_UTIL:
		return max_of(m, ev->sched_util.cpu);
	case AN_EV_SUGOV_UTIL_UPDATE:
		return max_of(m, ev->sugov.cpu);
	default:
		return m;
	}
}

/* The highest CPU a line of the first pass names, -1 for none. */
static int line_max_cpu(char *line, size_t len, int *kind)
{
	struct an_textline_extra x;
	enum an_event_type type = AN_EV_UNKNOWN;
	struct an_event ev;
	struct an_diag ignored;
	int cpu = -1;

	*kind = an_textline_cpu(line, len, &x, &cpu, &type);
	if (*kind == AN_TEXTLINE_LOST)
		return max_of(-1, x.cpu);
	if (*kind != AN_TEXTLINE_EVENT)
		return -1;
	if (!has_cpu_fields(type))
		return max_of(-1, cpu);
	/* the second pass reports a line that does not decode */
	an_diag_clear(&ignored);
	if (an_textline_parse(line, len, &ev, &x, &ignored) != AN_TEXTLINE_EVENT)
		return -1;
	return event_max_cpu(&ev);
}

/*
 * The first pass: the highest CPU of the events and LOST lines, up to the
 * end; a CPU-count header before the first event ends it (that header is
 * the count).
 */
static int scan_cpus(struct an_text *t, struct an_diag *d)
{
	int max_cpu = -1;

	for (;;) {
		char *line;
		size_t len;
		int kind, rc = next_text_line(t, &line, &len, d);

		if (rc < 0)
			return rc;
		if (rc == TEXT_END)
			break;
		if (rc != TEXT_LINE)
			continue;
		max_cpu = max_of(max_cpu, line_max_cpu(line, len, &kind));
		if (kind == AN_TEXTLINE_CPUS && max_cpu < 0)
			return 0;
	}
	t->info->nr_cpus = max_cpu + 1;
	return 0;
}

/*
 * With @scan, a second stream of the same file: the CPU count from a first
 * pass over it, the reading itself untouched (its bytes go through the
 * trace's hash once). @head is the file's start, already in the buffer.
 */
static int learn_cpus(struct an_text *t, FILE *scan, const void *head, size_t head_len,
		      struct an_diag *d)
{
	struct an_text start = *t;
	int err;

	if (!scan || fseeko(scan, (off_t)head_len, SEEK_SET))
		return 0;
	t->fp = scan;
	err = scan_cpus(t, d);
	*t = start;
	memcpy(t->buf, head, head_len);
	clearerr(scan);
	/* @scan may be @t's own stream: back to where @head ends */
	if (!err && scan == t->fp && fseeko(scan, (off_t)head_len, SEEK_SET))
		err = an_diag_fail(d, -errno, "cannot seek back after counting the CPUs: %s",
				   strerror(errno));
	return err;
}

/**
 * an_text_open() - start reading ftrace text or systrace HTML from @fp
 * @fp: stream positioned at the start of the file, borrowed
 * @scan: another stream of the same file for a first pass that learns the
 *	  CPU count when no header gives it, borrowed; NULL when the input can
 *	  be read only once (a pipe)
 * @is_html: true to read only the trace text of the HTML
 * @info: reader metadata to update, borrowed
 * @head: bytes already read from @fp (format detection), read first
 * @head_len: their number, at most AN_TEXT_LINE_MAX
 * @out: the new reader, freed with an_text_close()
 * @d: diagnostic on failure
 *
 * Return: 0, -ENOMEM or a negative errno (a read or seek error of the first
 * pass).
 */
int an_text_open(FILE *fp, FILE *scan, bool is_html, struct an_reader_info *info,
		 const void *head, size_t head_len, struct an_text **out,
		 struct an_diag *d)
{
	struct an_text *t = an_calloc(1, sizeof(*t));
	int err;

	*out = NULL;
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
	err = learn_cpus(t, scan, head, head_len, d);
	if (err) {
		an_text_close(t);
		return err;
	}
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
				    "no <script class=\"%s\"> block and no legacy trace string "
				    "in the HTML (read as systrace-html)", HTML_BLOCK_TAG);
	return 0;
}

/*
 * The clock-sync line the systrace viewer's own script appends at time 0
 * ("dummy-0000 [000] 0.0: 0: trace_event_clock_sync: parent_ts=0.0"): the
 * viewer's metadata, no kernel event, and its time is not the kernel's.
 */
static bool is_viewer_sync(const struct an_event *ev)
{
	static const char sync[] = "trace_event_clock_sync:";

	return ev->type == AN_EV_PRINT && ev->ts_ns == 0 &&
	       ev->print.len >= sizeof(sync) - 1 &&
	       !memcmp(ev->print.text, sync, sizeof(sync) - 1);
}

/*
 * A timestamp printed as a bare count: the capture's trace clock is not in
 * ns (counter, uptime, x86-tsc...) and no time rule of the model can be
 * applied to it. Refused, with what to record instead.
 */
static int raw_clock(const struct an_event *ev, struct an_diag *d)
{
	return an_diag_fail(d, AN_E_CLOCK, "timestamp %llu has no fraction: the trace clock "
			    "counts something else than time in ns (counter, uptime, x86-tsc); "
			    "record with a ns clock (trace_clock local, global, mono or boot)",
			    (unsigned long long)ev->ts_ns);
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
		if (rc == TEXT_END)
			return at_end(t, ev, d);
		d->line = t->line_no;
		if (rc == TEXT_LONG)
			return an_diag_fail(d, AN_E_SYNTAX, "line longer than %d bytes",
					    AN_TEXT_LINE_MAX);
		if (rc == TEXT_CUT && is_blank_line(line, len))
			continue;
		if (rc == TEXT_CUT)
			return an_diag_fail(d, AN_E_SYNTAX, "the file ends inside this line "
					    "(no newline after it): not used");
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
			if (x.ts_raw)
				return raw_clock(ev, d);
			if (is_viewer_sync(ev))
				continue;
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
