/* SPDX-License-Identifier: MIT */
/*
 * tests/test_an_datdiff.c - differential test of the trace.dat reader against
 * `trace-cmd report`: for every trace.dat the tests can reach (the public
 * traces, tests/data, traces/, the kernel loop's recordings when present,
 * `ucval synth` output, the synthetic trace of tests/an_datwriter.h in the
 * layouts older trace-cmd versions wrote, and their v7 conversions, plain
 * and zstd), ucval's decoded stream equals what trace-cmd prints, event for
 * event, CPU by CPU: timestamp, event name, common_pid, the fields the
 * replay uses, and the lost-event counts.
 *
 * trace-cmd's side is `trace-cmd report -N -R -t`: raw fields (every field
 * of the format as name=value, in one fixed layout, no plugin or print
 * format in the way) with nanosecond timestamps; and, for sched_switch's
 * prev_state, which ucval turns into the kernel's letters from the print
 * format, `trace-cmd report -N -t -F sched_switch`, whose print format
 * libtraceevent evaluates itself. Each CPU's events are compared in order:
 * the merged order of events with equal timestamps is the readers' choice.
 */
#define _GNU_SOURCE	/* getline() */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <ctype.h>
#include <glob.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "analyze/read/dat/datcheck.h"
#include "analyze/read/reader.h"
#include "tests/an_datwriter.h"
#include "tests/an_testutil.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define TEXT_MAX 1024		/* one event's rendered fields */
#define NS_PER_S 1000000000ULL

/*
 * One event of either side. @is_error: ucval could not decode the record
 * (a field missing, a value out of range): only its name and CPU are
 * compared. Lost events are named "lost", their count in @text.
 */
struct item {
	int cpu;
	bool is_error;
	uint64_t ts;
	int pid;
	char *name;
	char *text;
};

struct stream {
	struct item *it;
	size_t n, cap;
};

/* A trace-cmd report line: its raw fields, rendered once states are known. */
struct raw {
	int cpu;
	uint64_t ts;
	int pid;
	char *name;
	char *fields;		/* NULL: a lost-events line */
	long long lost;		/* its count, -1 when the line gives none */
};

struct raws {
	struct raw *r;
	size_t n, cap;
};

/* The files to compare and the temporary ones to remove. */
struct file {
	char *path;
	char *what;
	bool is_tmp;
};

static struct file *files;
static size_t nr_files, cap_files;
static char tmp_dir[256];

static void *grow(void *p, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return p;
	*cap = need * 2 + 16;
	p = realloc(p, *cap * size);
	assert_non_null(p);
	return p;
}

static char *dup_str(const char *s, size_t n)
{
	char *d = malloc(n + 1);

	assert_non_null(d);
	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}


static void add_file(const char *path, const char *what, bool is_tmp)
{
	files = grow(files, &cap_files, nr_files + 1, sizeof(*files));
	files[nr_files++] = (struct file){
		dup_str(path, strlen(path)), dup_str(what, strlen(what)), is_tmp,
	};
}

static void add_glob(const char *pattern)
{
	glob_t g;

	if (glob(pattern, 0, NULL, &g))
		return;
	for (size_t i = 0; i < g.gl_pathc; i++) {
		const char *base = strrchr(g.gl_pathv[i], '/');

		add_file(g.gl_pathv[i], base ? base + 1 : g.gl_pathv[i], false);
	}
	globfree(&g);
}

static void tmp_path(char *path, size_t size, const char *tag)
{
	an_test_fmt(path, size, "%s/%s.dat", tmp_dir, tag);
}

/* --- ucval's side -------------------------------------------------------- */

static void push(struct stream *s, struct item it)
{
	s->it = grow(s->it, &s->cap, s->n + 1, sizeof(*s->it));
	s->it[s->n++] = it;
}

static size_t append(char *buf, size_t n, const char *format, ...)
	__attribute__((format(printf, 3, 4)));
static size_t append(char *buf, size_t n, const char *format, ...)
{
	va_list ap;
	int k;

	if (n >= TEXT_MAX)
		return n;
	va_start(ap, format);
	k = vsnprintf(buf + n, TEXT_MAX - n, format, ap);
	va_end(ap);
	return k < 0 ? n : n + (size_t)k;
}

/* A text without its trailing newlines: print buffers end with one. */
static int text_len(const char *s, size_t len)
{
	while (len && s[len - 1] == '\n')
		len--;
	return (int)len;
}

/* The fields ucval decoded: "name=value" by canonical name. */
static void render_event(const struct an_event *ev, char text[TEXT_MAX])
{
	const struct an_alias_type *t = an_alias_type(ev->type);
	size_t n = 0;

	text[0] = '\0';
	for (unsigned int i = 0; i < t->nr_fields; i++) {
		const struct an_alias_field *f = &t->fields[i];
		const char *p = (const char *)ev + f->offset;

		if (!(ev->present & (1u << i)))
			continue;
		n = append(text, n, " %s=", f->names[0]);
		switch (f->kind) {
		case AN_FK_INT:
			n = append(text, n, "%d", *(const int *)p);
			break;
		case AN_FK_UINT:
			n = append(text, n, "%u", *(const unsigned int *)p);
			break;
		case AN_FK_LLONG:
			n = append(text, n, "%lld", *(const long long *)p);
			break;
		case AN_FK_TEXT:
			n = append(text, n, "%.*s", text_len(ev->print.text, ev->print.len),
				   ev->print.text);
			break;
		case AN_FK_MASK:	/* as the raw report prints a bitmask */
			n = append(text, n, "0x%llx", *(const unsigned long long *)p);
			break;
		default:	/* comm, path, state: NUL-terminated arrays */
			n = append(text, n, "%s", p);
			break;
		}
	}
}

/* ucval's events of @path, read as @how says; false when it refuses the file. */
static bool read_ucval(const char *path, enum an_dat_reader how, struct stream *s,
		       char *why, size_t why_len)
{
	struct an_reader *r;
	struct an_event ev;
	struct an_diag d;
	char text[TEXT_MAX];
	int rc;

	an_reader_set_dat_reader(how);
	rc = an_reader_open(path, &r, &d);
	an_reader_set_dat_reader(AN_DAT_PAGES);
	if (rc) {
		an_diag_format(&d, why, why_len);
		return false;
	}
	while ((rc = an_reader_next(r, &ev, &d)) != 0) {
		if (rc < 0) {
			if (!an_error_is_recoverable(rc)) {
				an_diag_format(&d, why, why_len);
				an_reader_close(r);
				return false;
			}
			push(s, (struct item){ .cpu = d.cpu, .is_error = true,
					       .name = dup_str(d.event, strlen(d.event)),
					       .text = dup_str("", 0) });
			continue;
		}
		if (ev.type == AN_EV_LOST_EVENTS) {
			/* the statistics' losses no page places: trace-cmd prints none */
			if (ev.lost.is_unplaced)
				continue;
			an_test_fmt(text, sizeof(text), " count=%llu", ev.lost.count);
			push(s, (struct item){ .cpu = ev.cpu, .name = dup_str("lost", 4),
					       .text = dup_str(text, strlen(text)) });
			continue;
		}
		render_event(&ev, text);
		push(s, (struct item){ .cpu = ev.cpu, .ts = ev.ts_ns, .pid = ev.pid,
				       .name = dup_str(ev.name, strlen(ev.name)),
				       .text = dup_str(text, strlen(text)) });
	}
	an_reader_close(r);
	return true;
}

/* --- trace-cmd's side ---------------------------------------------------- */

/*
 * An event line "comm-pid [cpu] secs.nsecs: name: fields": false when
 * @line is none (a header, the rest of a multi-line print buffer). The
 * comm may hold spaces, dashes and brackets: the line is read from its
 * "[cpu] ts:" backwards and forwards. The report prints the timestamp as
 * a bare count, "[cpu]count:", for a clock it does not know to count
 * nanoseconds; trace-cmd 3.1.6 also does so now and then for a file whose
 * trace_clock is empty, as it reads past that empty buffer.
 */
static bool parse_event_line(const char *line, struct raw *out)
{
	for (const char *b = strchr(line, '['); b; b = strchr(b + 1, '[')) {
		const char *p = b, *q;
		char *end;
		unsigned long long ts, nsecs;
		long cpu;

		cpu = strtol(p + 1, &end, 10);
		if (end == p + 1 || *end != ']' || cpu < 0)
			continue;
		p = end + 1;
		while (*p == ' ')
			p++;
		ts = strtoull(p, &end, 10);
		if (end == p)
			continue;
		if (*end == '.') {
			q = end + 1;
			nsecs = strtoull(q, &end, 10);
			if (end - q != 9)
				continue;
			ts = ts * NS_PER_S + nsecs;
		}
		if (end[0] != ':' || end[1] != ' ')
			continue;
		p = end + 2;
		while (*p == ' ')
			p++;
		q = strchr(p, ':');
		if (!q || q == p)
			continue;
		out->cpu = (int)cpu;
		out->ts = ts;
		out->name = dup_str(p, (size_t)(q - p));
		for (p = q + 1; *p == ' '; p++)
			;
		out->fields = dup_str(p, strlen(p));
		out->lost = 0;
		/* the pid: digits before the CPU, after the comm's last '-' */
		for (q = b; q > line && q[-1] == ' '; q--)
			;
		while (q > line && isdigit((unsigned char)q[-1]))
			q--;
		out->pid = q > line && q[-1] == '-' ? atoi(q) : -1;
		return true;
	}
	return false;
}

/* "CPU:N [M EVENTS DROPPED]" or "CPU:N [EVENTS DROPPED]" (count unknown). */
static bool parse_lost_line(const char *line, struct raw *out)
{
	unsigned long long count;
	int cpu, n = 0;

	if (sscanf(line, "CPU:%d [%llu EVENTS DROPPED]%n", &cpu, &count, &n) == 2 && n) {
		*out = (struct raw){ .cpu = cpu, .lost = (long long)count };
		return true;
	}
	n = 0;
	if (sscanf(line, "CPU:%d [EVENTS DROPPED]%n", &cpu, &n) == 1 && n) {
		*out = (struct raw){ .cpu = cpu, .lost = 0 };
		return true;
	}
	return false;
}

/* Run `trace-cmd @args`, every event line into @out; its exit status. */
static int read_report(const char *args, struct raws *out)
{
	char cmd[4096], *line = NULL;
	size_t cap = 0;
	ssize_t len;
	FILE *fp;

	an_test_fmt(cmd, sizeof(cmd), "trace-cmd %s 2>/dev/null", args);
	fp = popen(cmd, "r");
	assert_non_null(fp);
	while ((len = getline(&line, &cap, fp)) > 0) {
		struct raw r;

		if (line[len - 1] == '\n')
			line[--len] = '\0';
		if (parse_lost_line(line, &r) || parse_event_line(line, &r)) {
			out->r = grow(out->r, &out->cap, out->n + 1, sizeof(*out->r));
			out->r[out->n++] = r;
		} else if (out->n && out->r[out->n - 1].fields) {
			/* a print buffer's next line */
			struct raw *last = &out->r[out->n - 1];
			size_t had = strlen(last->fields);

			last->fields = realloc(last->fields, had + (size_t)len + 2);
			assert_non_null(last->fields);
			last->fields[had] = '\n';
			memcpy(last->fields + had + 1, line, (size_t)len + 1);
		}
	}
	free(line);
	return pclose(fp);
}

/* Where field @name's value starts in raw @fields, or NULL. */
static const char *raw_value(const char *fields, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = strstr(fields, name); p; p = strstr(p + 1, name))
		if ((p == fields || p[-1] == ' ') && p[n] == '=')
			return p + n + 1;
	return NULL;
}

/* Bytes of the string value at @v: up to the next " name=" or the end. */
static size_t raw_str_len(const char *v)
{
	for (const char *p = strchr(v, ' '); p; p = strchr(p + 1, ' ')) {
		const char *q = p + 1;

		while (isalnum((unsigned char)*q) || *q == '_')
			q++;
		if (q > p + 1 && *q == '=')
			return (size_t)(p - v);
	}
	return strlen(v);
}

/*
 * A raw field's number as the kernel stored it: the report prints a signed
 * 64-bit field in hex as its two's complement (ret=0xffffffffffffffea for
 * -22), which strtoll() would saturate.
 */
static long long raw_num(const char *v)
{
	if (*v == '-')
		return strtoll(v, NULL, 0);
	return (long long)strtoull(v, NULL, 0);
}

/* The fields of @r as render_event() renders ucval's: @state for prev_state. */
static void render_raw(const struct raw *r, const char *state, char text[TEXT_MAX])
{
	enum an_event_type type = an_alias_lookup(r->name, strlen(r->name));
	const struct an_alias_type *t = an_alias_type(type);
	size_t n = 0;

	text[0] = '\0';
	for (unsigned int i = 0; i < t->nr_fields; i++) {
		const struct an_alias_field *f = &t->fields[i];
		const char *v = NULL;
		size_t len;

		for (unsigned int k = 0; k < AN_ALIAS_MAX_NAMES && !v; k++)
			if (f->names[k])
				v = raw_value(r->fields, f->names[k]);
		if (!v)
			continue;
		n = append(text, n, " %s=", f->names[0]);
		len = raw_str_len(v);
		switch (f->kind) {
		case AN_FK_INT:
			n = append(text, n, "%d", (int)raw_num(v));
			break;
		case AN_FK_UINT:
			n = append(text, n, "%u", (unsigned int)raw_num(v));
			break;
		case AN_FK_LLONG:
			n = append(text, n, "%lld", raw_num(v));
			break;
		case AN_FK_COMM:	/* ucval keeps TASK_COMM_LEN - 1 bytes */
			n = append(text, n, "%.*s", (int)(len < AN_COMM_LEN - 1 ? len :
							 AN_COMM_LEN - 1), v);
			break;
		case AN_FK_PATH:
			if (len == 6 && !memcmp(v, "(null)", 6))
				len = 0;
			n = append(text, n, "%.*s", (int)len, v);
			break;
		case AN_FK_STATE:
			n = append(text, n, "%s", state ? state : "(no prev_state in the report)");
			break;
		case AN_FK_TEXT:	/* the last field: all the rest */
			n = append(text, n, "%.*s", text_len(v, strlen(v)), v);
			break;
		case AN_FK_MASK:	/* no reachable trace has one yet: as printed */
			n = append(text, n, "%.*s", (int)len, v);
			break;
		}
	}
}

/*
 * trace-cmd report's events of @path into @s; false, with the command
 * line in @why, when it cannot read the file.
 */
static bool read_trace_cmd(const char *path, struct stream *s, char *why, size_t why_len)
{
	struct raws raw = { 0 }, sw = { 0 };
	char args[2048], text[TEXT_MAX];
	size_t next_sw = 0;
	bool has_switch = false;

	an_test_fmt(args, sizeof(args), "report -N -R -t -i '%s'", path);
	if (read_report(args, &raw)) {
		an_test_fmt(why, why_len, "trace-cmd %s failed", args);
		return false;
	}
	for (size_t i = 0; i < raw.n; i++)
		has_switch |= raw.r[i].fields && !strcmp(raw.r[i].name, "sched_switch");
	an_test_fmt(args, sizeof(args), "report -N -t -F sched_switch -i '%s'", path);
	if (has_switch && read_report(args, &sw)) {
		an_test_fmt(why, why_len, "trace-cmd %s failed", args);
		return false;
	}
	for (size_t i = 0; i < raw.n; i++) {
		struct raw *r = &raw.r[i];
		char *state = NULL;

		if (!r->fields) {
			an_test_fmt(text, sizeof(text), " count=%lld", r->lost);
			push(s, (struct item){ .cpu = r->cpu, .name = dup_str("lost", 4),
					       .text = dup_str(text, strlen(text)) });
			continue;
		}
		if (!strcmp(r->name, "sched_switch")) {
			while (next_sw < sw.n && !sw.r[next_sw].fields)
				next_sw++;
			if (next_sw < sw.n) {
				const char *v = raw_value(sw.r[next_sw++].fields, "prev_state");

				state = v ? dup_str(v, strcspn(v, " ")) : NULL;
			}
		}
		render_raw(r, state, text);
		free(state);
		push(s, (struct item){ .cpu = r->cpu, .ts = r->ts, .pid = r->pid, .name = r->name,
				       .text = dup_str(text, strlen(text)) });
		r->name = NULL;
	}
	for (size_t i = 0; i < raw.n; i++) {
		free(raw.r[i].name);
		free(raw.r[i].fields);
	}
	for (size_t i = 0; i < sw.n; i++) {
		free(sw.r[i].name);
		free(sw.r[i].fields);
	}
	free(raw.r);
	free(sw.r);
	return true;
}

/* --- the comparison ------------------------------------------------------ */

static void free_stream(struct stream *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->it[i].name);
		free(s->it[i].text);
	}
	free(s->it);
	*s = (struct stream){ 0 };
}

static bool same(const struct item *u, const struct item *t)
{
	if (u->is_error)	/* a record ucval skipped: its name, when known */
		return !u->name[0] || !strcmp(u->name, t->name);
	return u->ts == t->ts && u->pid == t->pid && !strcmp(u->name, t->name) &&
	       !strcmp(u->text, t->text);
}

static void show(const char *side, const struct item *it)
{
	printf("#   %s: cpu %d %" PRIu64 " pid %d %s%s%s\n", side, it->cpu, it->ts, it->pid,
	       it->name, it->text, it->is_error ? " (not decoded)" : "");
}

/*
 * Compare @u (ucval) with @t (trace-cmd) CPU by CPU: the number of events
 * each CPU has compared, or a failure naming the first difference.
 */
static size_t compare(const char *what, const struct stream *u, const struct stream *t)
{
	int max_cpu = -1;
	size_t total = 0;

	for (size_t i = 0; i < u->n; i++)
		max_cpu = u->it[i].cpu > max_cpu ? u->it[i].cpu : max_cpu;
	for (size_t i = 0; i < t->n; i++)
		max_cpu = t->it[i].cpu > max_cpu ? t->it[i].cpu : max_cpu;
	for (int cpu = 0; cpu <= max_cpu; cpu++) {
		size_t a = 0, b = 0, k = 0;

		for (;; k++) {
			while (a < u->n && u->it[a].cpu != cpu)
				a++;
			while (b < t->n && t->it[b].cpu != cpu)
				b++;
			if (a == u->n || b == t->n)
				break;
			if (!same(&u->it[a], &t->it[b])) {
				printf("# %s: CPU %d, event %zu differs\n", what, cpu, k + 1);
				show("ucval    ", &u->it[a]);
				show("trace-cmd", &t->it[b]);
				fail_msg("%s: CPU %d, event %zu: ucval and trace-cmd report differ",
					 what, cpu, k + 1);
			}
			a++;
			b++;
		}
		if (a != u->n || b != t->n) {
			printf("# %s: CPU %d: after %zu events, only %s has more\n", what, cpu, k,
			       a != u->n ? "ucval" : "trace-cmd");
			show(a != u->n ? "ucval    " : "trace-cmd",
			     a != u->n ? &u->it[a] : &t->it[b]);
			fail_msg("%s: CPU %d: ucval and trace-cmd report differ in length", what,
				 cpu);
		}
		total += k;
	}
	return total;
}

/* --- the files ----------------------------------------------------------- */

static const char clock_text[] = "[local] global counter uptime perf\n";

/* trace-cmd 2.2.1 to 2.9.2: an empty TRACECLOCK option, the clock after the table */
static const struct dw_opt opt_clock_empty[] = { { 4, "", 0 } };
/* trace-cmd 3.0 on: the clocks in the option, with the NUL */
static const struct dw_opt opt_clock[] = { { 4, clock_text, sizeof(clock_text) } };
/* texts without their NUL that libtracecmd reads past, and a hook */
static const struct dw_opt opt_no_nul[] = {
	{ 4, clock_text, sizeof(clock_text) - 1 }, { 9, "2.6 (ucval)", 11 },
	{ 2, "\nCPU: 1\noverrun: 0\n", 19 },
	{ 6, "sched:sched_switch,prev_pid/sched:sched_wakeup,pid", 50 },
};
/* --date (microseconds, moved by libtracecmd) and --ts-offset */
static const struct dw_opt opt_date[] = { { 1, "0x3e8", 6 }, { 7, "-500", 5 } };

static const struct dw_variant {
	const char *tag;
	bool convert;		/* and its v7 conversions (trace-cmd converts it well) */
	struct dw_spec spec;
} variants[] = {
	{ "dw-v6", true, { .uname = "Linux juno 5.10.0-ucval #1 SMP PREEMPT aarch64",
			   .fill1 = dw_page_cpu1, .lost1 = 42 } },
	{ "dw-v6-kinds", false, { .fill1 = dw_page_kinds, .lost1 = 42 } },
	{ "dw-v6-lost-unknown", false, { .fill1 = dw_page_cpu1, .lost1 = 42,
					 .is_lost1_unknown = true } },
	{ "dw-v6-big-endian", false, { .fill1 = dw_page_kinds, .lost1 = 42, .is_big = true } },
	{ "dw-v6-long4", true, { .fill1 = dw_page_kinds, .lost1 = 42, .is_long4 = true } },
	{ "dw-v6-big-endian-long4", false, { .fill1 = dw_page_cpu1, .lost1 = 42, .is_big = true,
					     .is_long4 = true } },
	{ "dw-v6-no-options", false, { .fill1 = dw_page_cpu1, .lost1 = 42, .no_options = true } },
	{ "dw-v6-clock-empty", true, { .uname = "Linux a 4.4.0 #1 SMP armv7l",
				       .fill1 = dw_page_cpu1, .lost1 = 42,
				       .opts = opt_clock_empty, .nr_opts = 1,
				       .clock_after = clock_text } },
	{ "dw-v6-clock", false, { .fill1 = dw_page_cpu1, .opts = opt_clock, .nr_opts = 1,
				  .clock_after = clock_text } },
	{ "dw-v6-no-nul", true, { .uname = "Linux a 4.4.0 #1 SMP armv7l", .fill1 = dw_page_cpu1,
				  .lost1 = 42, .opts = opt_no_nul,
				  .nr_opts = ARRAY_SIZE(opt_no_nul), .clock_after = clock_text } },
	{ "dw-v6-date", true, { .fill1 = dw_page_cpu1, .opts = opt_date,
				.nr_opts = ARRAY_SIZE(opt_date) } },
	{ "dw-v6-kallsyms", false, { .fill1 = dw_page_cpu1, .nr_kallsyms = 100000,
				     .opts = opt_clock_empty, .nr_opts = 1,
				     .clock_after = clock_text } },
};

static void write_dw(const struct dw_spec *spec, const char *path)
{
	struct dw w;
	FILE *fp;

	dw_build_spec(&w, spec);
	fp = fopen(path, "wb");
	assert_non_null(fp);
	assert_int_equal(fwrite(w.p, 1, w.len, fp), w.len);
	assert_int_equal(fclose(fp), 0);
	free(w.p);
}

/*
 * @src as v7, plain and zstd. When trace-cmd cannot convert it (it writes
 * a big-endian file's v7 wrong, and fails on a v6 file without options),
 * a failure if @must, else a note.
 */
static void add_v7(const char *src, const char *tag, bool must)
{
	static const char *const comps[] = { "none", "zstd" };

	for (size_t i = 0; i < ARRAY_SIZE(comps); i++) {
		char out[512], what[256], cmd[2048];

		an_test_fmt(what, sizeof(what), "%s v7 %s", tag, comps[i]);
		an_test_fmt(out, sizeof(out), "%s/%s-v7-%s.dat", tmp_dir, tag, comps[i]);
		an_test_fmt(cmd, sizeof(cmd), "trace-cmd convert --file-version 7 --compression %s "
		    "-i '%s' -o '%s' >/dev/null 2>&1", comps[i], src, out);
		if (system(cmd)) {
			if (must)
				fail_msg("%s: %s failed", what, cmd);
			printf("# no %s: trace-cmd convert cannot convert it\n", what);
			unlink(out);
			continue;
		}
		add_file(out, what, true);
	}
}

static void add_files(void)
{
	const char *ucval = getenv("UCVAL"), *kcache = getenv("KCACHE");
	char pattern[1024], path[512];
	size_t first;

	an_test_fmt(pattern, sizeof(pattern), "%s/traces/*.dat", an_test_shared());
	first = nr_files;
	add_glob(pattern);
	if (nr_files == first)
		printf("# no public trace.dat in %s/traces (set UCVAL_SHARED)\n", an_test_shared());
	for (size_t i = first, end = nr_files; i < end; i++)
		add_v7(files[i].path, files[i].what, false);
	an_test_fmt(pattern, sizeof(pattern), "%s/traces/*.dat", an_test_root());
	add_glob(pattern);
	an_test_fmt(pattern, sizeof(pattern), "%s/tests/data/*.dat", an_test_root());
	add_glob(pattern);
	/* the kernel loop's recordings (tests/kernel/loop.sh), when it has run here */
	an_test_fmt(pattern, sizeof(pattern), "%s/build/kernel/*/trace.dat", an_test_root());
	add_glob(pattern);
	an_test_fmt(pattern, sizeof(pattern), "%s/*/trace.dat",
	    kcache && *kcache ? kcache : "/work/kcache");
	add_glob(pattern);
	for (size_t i = 0; i < ARRAY_SIZE(variants); i++) {
		tmp_path(path, sizeof(path), variants[i].tag);
		write_dw(&variants[i].spec, path);
		add_file(path, variants[i].tag, true);
		if (variants[i].convert)
			add_v7(path, variants[i].tag, true);
	}
	if (!ucval) {
		printf("# no ucval synth trace: UCVAL (the ucval binary) is not set\n");
		return;
	}
	tmp_path(path, sizeof(path), "synth");
	an_test_fmt(pattern, sizeof(pattern), "'%s' synth -q -o '%s' --seed 5 --cpus 4 --events 30000 "
	    "--fault lost-events", ucval, path);
	assert_int_equal(system(pattern), 0);
	add_file(path, "ucval synth", true);
	add_v7(path, "ucval synth", true);
}

static bool have_trace_cmd(void)
{
	return system("command -v trace-cmd >/dev/null 2>&1") == 0;
}

/*
 * Every reachable trace.dat, with ucval's page reader (the default) and
 * with libtracecmd's records, against trace-cmd report.
 */
static void test_datdiff(void **state)
{
	static const enum an_dat_reader readers[] = { AN_DAT_PAGES, AN_DAT_LIBTRACECMD };
	size_t nr_events = 0;
	time_t start = time(NULL);

	(void)state;
	if (!have_trace_cmd()) {
		printf("# skip: trace-cmd is not installed: nothing to compare with\n");
		skip();
	}
	add_files();
	for (size_t i = 0; i < nr_files; i++) {
		struct stream tc = { 0 };
		char why[1024];
		size_t n = 0;

		if (!read_trace_cmd(files[i].path, &tc, why, sizeof(why)))
			fail_msg("%s (%s): %s", files[i].what, files[i].path, why);
		for (size_t k = 0; k < ARRAY_SIZE(readers); k++) {
			struct stream u = { 0 };
			char what[512];

			an_test_fmt(what, sizeof(what), "%s, %s", files[i].what,
			    readers[k] == AN_DAT_PAGES ? "datpages" : "libtracecmd");
			if (!read_ucval(files[i].path, readers[k], &u, why, sizeof(why)))
				fail_msg("%s: ucval refuses what trace-cmd report reads: %s", what,
					 why);
			n = compare(what, &u, &tc);
			free_stream(&u);
		}
		printf("# %s: %zu events the same\n", files[i].what, n);
		nr_events += n;
		free_stream(&tc);
	}
	printf("# %zu files, %zu events compared (each by both readers), %ld s\n", nr_files,
	       nr_events, (long)(time(NULL) - start));
}

/* --- the older layouts, one by one ---------------------------------------- */

/* Open @spec's file: the return code, and the check's result when opened. */
static int open_spec(const struct dw_spec *spec, struct an_datcheck *chk)
{
	struct an_reader *r;
	struct an_diag d;
	char path[512];
	int rc;

	tmp_path(path, sizeof(path), "one");
	write_dw(spec, path);
	rc = an_reader_open(path, &r, &d);
	if (!rc) {
		an_reader_close(r);
		assert_int_equal(an_datcheck_run(path, true, chk, &d), 0);
	}
	unlink(path);
	return rc;
}

/*
 * Text options libtracecmd 1.3 reads past, or crashes on, are hidden from
 * it (datcheck.c check_text_option()): the file is read, one edit each. A
 * number libtracecmd would read past the DATE option is refused: the
 * timestamps would move by whatever follows it.
 */
static void test_text_options(void **state)
{
	static const struct {
		const char *what;
		struct dw_opt opt;
		int want;
		unsigned int hidden;
	} rows[] = {
		{ "TRACECLOCK with its NUL", { 4, "[local] global\n", 16 }, 0, 0 },
		{ "TRACECLOCK empty (trace-cmd 2.2.1 to 2.9.2)", { 4, "", 0 }, 0, 1 },
		{ "TRACECLOCK without its NUL", { 4, "[local] global", 14 }, 0, 1 },
		{ "UNAME without its NUL", { 5, "Linux a 4.4.0 armv7l", 20 }, 0, 1 },
		{ "VERSION without its NUL", { 9, "2.6", 3 }, 0, 1 },
		{ "CPUSTAT without its NUL", { 2, "\nCPU: 1\noverrun: 0\n", 19 }, 0, 0 },
		{ "CPUSTAT empty (trace-cmd crashes)", { 2, "", 0 }, 0, 1 },
		{ "PROCMAPS empty (trace-cmd crashes)", { 10, "", 0 }, 0, 1 },
		{ "PROCMAPS without its NUL (libtracecmd skips it)", { 10, "1 1 x", 5 }, 0, 0 },
		{ "HOOK well formed", { 6, "sched:sched_switch,prev_pid/sched:sched_wakeup,pid",
					50 }, 0, 1 },
		{ "HOOK malformed (trace-cmd crashes)", { 6, "sched", 5 }, 0, 1 },
		{ "DATE with its NUL", { 1, "0x3e8", 6 }, 0, 0 },
		{ "DATE ended by a newline", { 1, "0x3e8\n", 6 }, 0, 0 },
		{ "DATE whose number runs to its end", { 1, "0x3e8", 5 }, AN_E_CORRUPT, 0 },
		{ "OFFSET empty", { 7, "", 0 }, AN_E_CORRUPT, 0 },
		{ "CPU count of 8 bytes (the first 4 read)", { 8, "\x02\0\0\0\0\0\0\0", 8 }, 0, 0 },
		{ "CPU count of 3 bytes", { 8, "\x02\0\0", 3 }, AN_E_CORRUPT, 0 },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		const struct dw_spec spec = {
			.uname = "Linux a 4.4.0 #1 SMP armv7l", .fill1 = dw_page_cpu1,
			.opts = &rows[i].opt, .nr_opts = 1, .clock_after = clock_text,
		};
		struct an_datcheck chk = { 0 };
		int rc = open_spec(&spec, &chk);

		if (rc != rows[i].want || (!rc && chk.nr_hidden != rows[i].hidden))
			fail_msg("%s: rc %d want %d, %u options hidden want %u", rows[i].what, rc,
				 rows[i].want, chk.nr_hidden, rows[i].hidden);
		if (!rc && rows[i].opt.id == 5)
			assert_string_equal(chk.kernel_release, "4.4.0");
		an_datcheck_free(&chk);
	}
}

/*
 * The trace clock: one that does not count ns (counter, uptime, x86-tsc)
 * is refused, unless a TSC2NSEC option scales its counts to ns (the
 * library applies it).
 */
static void test_trace_clock(void **state)
{
	static const char tsc2nsec[16] = { 1 };	/* mult 1, shift 0, offset 0 */
	static const struct {
		const char *what;
		struct dw_opt opts[2];
		unsigned int nr_opts;
		int want;
	} rows[] = {
		{ "local selected", { { 4, "[local] global counter\n", 24 } }, 1, 0 },
		{ "boot, the one name", { { 4, "boot\n", 6 } }, 1, 0 },
		{ "counter selected", { { 4, "local global [counter] uptime\n", 31 } }, 1,
		  AN_E_CLOCK },
		{ "uptime selected", { { 4, "local [uptime]\n", 16 } }, 1, AN_E_CLOCK },
		{ "x86-tsc selected", { { 4, "local [x86-tsc]\n", 17 } }, 1, AN_E_CLOCK },
		{ "x86-tsc with TSC2NSEC", { { 4, "local [x86-tsc]\n", 17 },
					     { 14, tsc2nsec, sizeof(tsc2nsec) } }, 2, 0 },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		const struct dw_spec spec = {
			.fill1 = dw_page_cpu1, .opts = rows[i].opts, .nr_opts = rows[i].nr_opts,
		};
		struct an_datcheck chk = { 0 };
		int rc = open_spec(&spec, &chk);

		if (rc != rows[i].want)
			fail_msg("%s: rc %d want %d", rows[i].what, rc, rows[i].want);
		an_datcheck_free(&chk);
	}
}

/*
 * The pages' long size is the header_page's commit word, as libtracecmd
 * takes it, over the file header's: trace-cmd convert writes 8 in a v7
 * file of a 32-bit kernel (4-byte commit words). Regression: ucval read
 * such a file's pages with 8-byte commit words, and decoded garbage.
 */
static void test_long_size_from_header_page(void **state)
{
	const struct dw_spec spec = { .fill1 = dw_page_cpu1, .lost1 = 42, .is_long4 = true };
	struct an_datcheck chk = { 0 };
	struct an_diag d;
	char path[512];
	struct dw w;
	size_t at;

	(void)state;
	dw_build_spec(&w, &spec);
	at = 10 + 2;			/* magic, "6\0": byte order, then long size */
	assert_int_equal(w.p[at + 1], 4);
	w.p[at + 1] = 8;
	tmp_path(path, sizeof(path), "long-mismatch");
	{
		FILE *fp = fopen(path, "wb");

		assert_non_null(fp);
		assert_int_equal(fwrite(w.p, 1, w.len, fp), w.len);
		assert_int_equal(fclose(fp), 0);
	}
	free(w.p);
	assert_int_equal(an_datcheck_run(path, true, &chk, &d), 0);
	assert_int_equal(chk.long_size, 4);
	an_datcheck_free(&chk);
	unlink(path);
}

static int setup(void **state)
{
	const char *t = getenv("TMPDIR");

	(void)state;
	an_reader_set_quiet(true);
	an_test_fmt(tmp_dir, sizeof(tmp_dir), "%s/ucval-datdiff-XXXXXX", t ? t : "/tmp");
	return mkdtemp(tmp_dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	for (size_t i = 0; i < nr_files; i++) {
		if (files[i].is_tmp)
			unlink(files[i].path);
		free(files[i].path);
		free(files[i].what);
	}
	free(files);
	return rmdir(tmp_dir);	/* fails, so the run fails, when a file was left */
}

/*
 * The report's raw numbers: a negative 64-bit field (a syscall's ret of
 * -EINVAL in the kernel loop's recordings) printed in hex.
 */
/* Event lines as trace-cmd report prints them, in both timestamp forms. */
static void test_event_line(void **state)
{
	static const struct {
		const char *line;
		bool ok;
		int cpu, pid;
		unsigned long long ts;
		const char *name, *fields;
	} rows[] = {
		{ "          <idle>-0     [003]  7615.709442088: bprint:                ip=0xc0 buf=0",
		  true, 3, 0, 7615709442088ULL, "bprint", "ip=0xc0 buf=0" },
		/* the bare count trace-cmd 3.1.6 prints when it misreads an empty clock */
		{ "          <idle>-0     [003]7615709442088: bprint:                ip=0xc0 buf=0",
		  true, 3, 0, 7615709442088ULL, "bprint", "ip=0xc0 buf=0" },
		{ "  kworker/u16:2-5 [1] 12345: sched_waking: comm=a pid=7",
		  true, 1, 5, 12345ULL, "sched_waking", "comm=a pid=7" },
		{ "a [x] b-12 [000]     0.000001000: cpu_idle: state=1 cpu_id=0",
		  true, 0, 12, 1000ULL, "cpu_idle", "state=1 cpu_id=0" },
		{ "cpus=8", false, 0, 0, 0, NULL, NULL },
		{ "  x-1 [000] 1.0001: e: f=1", false, 0, 0, 0, NULL, NULL },
		{ "  x-1 [000] 1.000000001 e: f=1", false, 0, 0, 0, NULL, NULL },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct raw r = { 0 };
		bool ok = parse_event_line(rows[i].line, &r);

		assert_int_equal(ok, rows[i].ok);
		if (!ok)
			continue;
		assert_int_equal(r.cpu, rows[i].cpu);
		assert_int_equal(r.pid, rows[i].pid);
		assert_int_equal(r.ts, rows[i].ts);
		assert_string_equal(r.name, rows[i].name);
		assert_string_equal(r.fields, rows[i].fields);
		free(r.name);
		free(r.fields);
	}
}

static void test_raw_num(void **state)
{
	static const struct {
		const char *text;
		long long want;
	} rows[] = {
		{ "-22", -22 },
		{ "0xffffffffffffffea", -22 },
		{ "0xffffffea", 4294967274LL },
		{ "0x10", 16 },
		{ "9223372036854775807", 9223372036854775807LL },
		{ "0", 0 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		assert_int_equal(raw_num(rows[i].text), rows[i].want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_event_line),
		cmocka_unit_test(test_raw_num),
		cmocka_unit_test(test_text_options),
		cmocka_unit_test(test_trace_clock),
		cmocka_unit_test(test_long_size_from_header_page),
		cmocka_unit_test(test_datdiff),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
