// SPDX-License-Identifier: MIT
/*
 * analyze/read/textline.c - grammar of one ftrace text line (spec/events.md §1).
 *
 * Producers differ in the columns before the timestamp (flags, tgid, cpu
 * fused with flags in trace-cmd report -l) and in how sched events print
 * (key=value from the kernel, "comm:pid [prio]" from trace-cmd's plugin), so
 * the parser anchors on structure, not on column positions. Fields are found
 * by name and stored through the alias table.
 */
#define _GNU_SOURCE	/* memmem() */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "analyze/read/alias.h"
#include "analyze/read/textline.h"

#define NS_PER_SEC	1000000000ULL
#define FRAC_DIGITS	9	/* a timestamp fraction has at most ns digits */
#define FLAGS_MAX	8	/* irq-flags column: 4 chars (old), 5 (5.x), 6 (-l) */
#define ARROW		" ==> "	/* separates prev and next in sched_switch */
#define SNIPPET_LEN	60	/* characters of a bad line or value quoted in a diagnostic */

/* Syscall events print as "sys_x(a: 1, b: 2)" and "sys_x -> 0x0". */
enum syscall_form { SYSCALL_NONE, SYSCALL_ENTER, SYSCALL_EXIT };

/* One event line, split: pointers into the line. */
struct head {
	enum syscall_form syscall;
	const char *comm;
	size_t comm_len;
	int pid;
	int cpu;
	unsigned long long ts_ns;
	bool ts_raw;		/* no fraction: a count of a clock not in ns */
	const char *name;
	size_t name_len;
	const char *fields;
};

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t';
}

static bool is_name_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_name_char(char c)
{
	return is_name_start(c) || is_digit(c);
}

static const char *skip_spaces(const char *p, const char *end)
{
	while (p < end && is_space(*p))
		p++;
	return p;
}

static const char *trim_end(const char *p, const char *end)
{
	while (end > p && is_space(end[-1]))
		end--;
	return end;
}

static bool starts_with(const char *p, const char *end, const char *prefix)
{
	size_t n = strlen(prefix);

	return (size_t)(end - p) >= n && !memcmp(p, prefix, n);
}

static bool ends_with(const char *p, const char *end, const char *suffix)
{
	size_t n = strlen(suffix);

	end = trim_end(p, end);
	return (size_t)(end - p) >= n && !memcmp(end - n, suffix, n);
}

/* Decimal digits at @p, at least one, value <= @max; NULL otherwise. */
static const char *parse_uint(const char *p, const char *end,
			      unsigned long long max, unsigned long long *v)
{
	const char *start = p;

	*v = 0;
	for (; p < end && is_digit(*p); p++) {
		unsigned int digit = (unsigned int)(*p - '0');

		if (*v > (max - digit) / 10)
			return NULL;
		*v = *v * 10 + digit;
	}
	return p == start ? NULL : p;
}

/* A whole value: -?decimal or 0x hex, within long long. */
static int parse_number(const char *p, size_t len, long long *out)
{
	const char *end = p + len;
	unsigned long long v = 0;
	bool is_neg = false;

	if (p < end && *p == '-') {
		is_neg = true;
		p++;
	}
	if (end - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		for (p += 2; p < end; p++) {
			unsigned int digit;

			if (is_digit(*p))
				digit = (unsigned int)(*p - '0');
			else if ((*p | 0x20) >= 'a' && (*p | 0x20) <= 'f')
				digit = (unsigned int)((*p | 0x20) - 'a' + 10);
			else
				return -EINVAL;
			if (v > (ULLONG_MAX >> 4))
				return -ERANGE;
			v = v << 4 | digit;
		}
	} else if (parse_uint(p, end, ULLONG_MAX, &v) != end) {
		return -EINVAL;
	}
	if (v > (unsigned long long)LLONG_MAX + is_neg)
		return -ERANGE;
	*out = is_neg ? (long long)(0 - v) : (long long)v;
	return 0;
}

/*
 * "secs.frac:" at @p; returns the position after the ':'. The kernel prints
 * a clock that does not count ns (counter, uptime, x86-tsc) as a bare count,
 * "%12llu:": @raw is set and @ts holds the count.
 */
static const char *parse_ts(const char *p, const char *end, unsigned long long *ts,
			    bool *raw)
{
	unsigned long long secs, frac = 0;
	unsigned int n = 0;

	*raw = false;
	p = parse_uint(p, end, ULLONG_MAX, &secs);
	if (!p)
		return NULL;
	if (p < end && *p == ':') {
		*raw = true;
		*ts = secs;
		return p + 1;
	}
	if (secs > ULLONG_MAX / NS_PER_SEC - 1)
		return NULL;
	if (p < end && *p == '.') {
		for (p++; p < end && is_digit(*p); p++, n++) {
			if (n == FRAC_DIGITS)
				return NULL;
			frac = frac * 10 + (unsigned int)(*p - '0');
		}
		if (!n)
			return NULL;
		for (; n < FRAC_DIGITS; n++)
			frac *= 10;
	}
	if (p == end || *p != ':')
		return NULL;
	*ts = secs * NS_PER_SEC + frac;
	return p + 1;
}

static const char *token_end(const char *p, const char *end)
{
	while (p < end && !is_space(*p))
		p++;
	return p;
}

static bool is_flags_token(const char *p, const char *e)
{
	if (e - p > FLAGS_MAX)
		return false;
	for (; p < e; p++)
		if (!is_name_char(*p) && *p != '.')
			return false;
	return true;
}

/* What follows "comm-": "pid [(tgid)] cpu-column [flags] ts: name: fields". */
static bool parse_rest(const char *p, const char *end, struct head *h)
{
	unsigned long long v;
	const char *e;

	p = parse_uint(p, end, INT_MAX, &v);
	if (!p || p == end || !is_space(*p))
		return false;
	h->pid = (int)v;
	p = skip_spaces(p, end);
	if (p < end && *p == '(') {			/* tgid column */
		for (p++; p < end && *p != ')'; p++)
			if (!is_digit(*p) && *p != '-' && !is_space(*p))
				return false;
		if (p == end)
			return false;
		p = skip_spaces(p + 1, end);
	}
	if (p < end && *p == '[') {			/* [cpu] */
		p = parse_uint(p + 1, end, INT_MAX, &v);
		if (!p || p == end || *p != ']')
			return false;
		p++;
	} else {					/* trace-cmd -l: "2d..1." */
		e = token_end(p, end);
		if (e == p || e[-1] == ':')
			return false;
		p = parse_uint(p, e, INT_MAX, &v);
		if (!p || !is_flags_token(p, e))
			return false;
		p = e;
	}
	h->cpu = (int)v;
	p = skip_spaces(p, end);
	e = token_end(p, end);
	if (e > p && e[-1] != ':') {			/* irq-flags column */
		if (!is_flags_token(p, e))
			return false;
		p = skip_spaces(e, end);
	}
	p = parse_ts(p, end, &h->ts_ns, &h->ts_raw);
	if (!p || p == end || !is_space(*p))
		return false;
	p = skip_spaces(p, end);
	h->name = p;
	while (p < end && (is_name_char(*p) ||
			   (*p == ':' && p + 1 < end && is_name_start(p[1]))))
		p++;
	h->name_len = (size_t)(p - h->name);
	h->syscall = SYSCALL_NONE;
	if (h->name_len > 4 && !memcmp(h->name, "sys_", 4) && p < end && *p == '(') {
		h->syscall = SYSCALL_ENTER;
		h->fields = p + 1;
		return true;
	}
	if (h->name_len > 4 && !memcmp(h->name, "sys_", 4) && starts_with(p, end, " -> ")) {
		h->syscall = SYSCALL_EXIT;
		h->fields = p + 4;
		return true;
	}
	if (p == h->name || p == end || *p != ':')
		return false;
	h->fields = skip_spaces(p + 1, end);
	return true;
}

/* The pid follows the first '-' after which the rest is a valid line. */
static bool parse_head(const char *line, size_t len, struct head *h)
{
	const char *end = line + len, *p = skip_spaces(line, end);

	for (const char *q = p + 1; q < end; q++) {
		q = memchr(q, '-', (size_t)(end - q));
		if (!q)
			break;
		if (parse_rest(q + 1, end, h)) {
			h->comm = p;
			h->comm_len = (size_t)(q - p);
			return true;
		}
	}
	return false;
}

/* "CPU:N [LOST M EVENTS]", "CPU:N [M EVENTS DROPPED]", "CPU:N [EVENTS DROPPED]". */
static bool parse_lost(const char *p, const char *end, struct an_textline_extra *x)
{
	unsigned long long v;

	p = skip_spaces(p, end);
	if (!starts_with(p, end, "CPU:"))
		return false;
	p = parse_uint(p + 4, end, INT_MAX, &v);
	if (!p)
		return false;
	x->cpu = (int)v;
	x->lost = 0;
	p = skip_spaces(p, end);
	if (starts_with(p, end, "[LOST ")) {
		p = parse_uint(p + 6, end, ULLONG_MAX, &x->lost);
		if (!p || !starts_with(p, end, " EVENTS]"))
			return false;
		p += 8;
	} else if (starts_with(p, end, "[EVENTS DROPPED]")) {
		p += 16;
	} else if (starts_with(p, end, "[")) {
		p = parse_uint(p + 1, end, ULLONG_MAX, &x->lost);
		if (!p || !starts_with(p, end, " EVENTS DROPPED]"))
			return false;
		p += 16;
	} else {
		return false;
	}
	return skip_spaces(p, end) == end;
}

/* Header lines that carry the CPU count: "# ... #P:6" and "cpus=6". */
static bool parse_cpus(const char *p, const char *end, struct an_textline_extra *x)
{
	unsigned long long v;
	const char *q;

	if (starts_with(p, end, "cpus=")) {
		q = parse_uint(p + 5, end, INT_MAX, &v);
	} else if (p < end && *p == '#') {
		q = p;
		while ((q = memchr(q, '#', (size_t)(end - q))) && !starts_with(q, end, "#P:"))
			q++;
		if (!q)
			return false;
		q = parse_uint(q + 3, end, INT_MAX, &v);
	} else {
		return false;
	}
	if (!q || trim_end(q, end) != q)
		return false;
	x->nr_cpus = (int)v;
	return true;
}

/*
 * The header line some systrace/atrace captures carry: "# enabled events:
 * sched:sched_switch sched:sched_wakeup" (names with or without their
 * system). Names ucval does not know are left out.
 */
static bool parse_enabled(const char *p, const char *end, struct an_textline_extra *x)
{
	static const char tag[] = "enabled events:";

	if (p == end || *p != '#')
		return false;
	p = skip_spaces(p + 1, end);
	if (!starts_with(p, end, tag))
		return false;
	p += sizeof(tag) - 1;
	x->ev_listed = 0;
	for (;;) {
		const char *name;
		enum an_event_type type;

		p = skip_spaces(p, end);
		if (p == end)
			return true;
		name = p;
		while (p < end && !is_space(*p))
			p++;
		type = an_alias_lookup(name, (size_t)(p - name));	/* "system:" skipped */
		if (type != AN_EV_UNKNOWN)
			x->ev_listed |= AN_EV_BIT(type);
	}
}

static int bad_value(struct an_event *ev, unsigned int i, const char *v, size_t len,
		     struct an_diag *d)
{
	const char *name = an_alias_field_name(ev->type, i);

	an_diag_set_name(d->field, name, strlen(name));
	return an_diag_fail(d, AN_E_VALUE, "bad value '%.*s' for '%s'",
			    (int)(len > SNIPPET_LEN ? SNIPPET_LEN : len), v, name);
}

/* A cpumask as a list ("0-3,6"), as libtraceevent prints one; CPUs 0..63. */
static int parse_cpu_list(const char *p, const char *end, unsigned long long *out)
{
	unsigned long long v = 0;

	while (p < end) {
		unsigned long long a, b;
		const char *q = parse_uint(p, end, 63, &a);

		if (!q)
			return -EINVAL;
		b = a;
		if (q < end && *q == '-') {
			q = parse_uint(q + 1, end, 63, &b);
			if (!q || b < a)
				return -EINVAL;
		}
		for (; a <= b; a++)
			v |= 1ULL << a;
		if (q < end && *q != ',')
			return -EINVAL;
		p = q < end ? q + 1 : q;
	}
	*out = v;
	return 0;
}

/*
 * A cpumask: as the kernel prints it with %*pb, hex, most significant first,
 * a comma between groups of 32 bits ("0f", "00000000,000000f0"); or as a
 * list, as libtraceevent prints a cpumask field ("4-7", "0,2"): with a '-',
 * or commas between groups that are not 8 hex digits. Bits of CPUs above 63
 * must be 0.
 */
static int parse_mask(const char *p, size_t len, unsigned long long *out)
{
	const char *end = p + len;
	unsigned long long v = 0;
	bool has_digit = false;

	for (const char *c = p, *group = NULL; c < end; c++) {
		if (*c == '-' || (*c == ',' && group && c - group != 8))
			return parse_cpu_list(p, end, out);
		if (*c == ',')
			group = c + 1;
		if (c + 1 == end && group && end - group != 8)
			return parse_cpu_list(p, end, out);
	}
	if (len > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	for (; p < end; p++) {
		char c = (char)(*p | 0x20);
		unsigned int digit;

		if (*p == ',')
			continue;
		if (is_digit(*p))
			digit = (unsigned int)(*p - '0');
		else if (c >= 'a' && c <= 'f')
			digit = (unsigned int)(c - 'a' + 10);
		else
			return -EINVAL;
		if (v >> 60)
			return -ERANGE;
		v = v << 4 | digit;
		has_digit = true;
	}
	if (!has_digit)
		return -EINVAL;
	*out = v;
	return 0;
}

/*
 * Store the text value of field @i according to its kind. A number may end
 * with the ',' of its print format ("clamp_id=%d, value=%u").
 */
static int store_field(struct an_event *ev, unsigned int i, const char *v,
		       size_t len, struct an_diag *d)
{
	const struct an_alias_field *f = &an_alias_type(ev->type)->fields[i];
	long long num;

	if (f->kind != AN_FK_COMM && f->kind != AN_FK_PATH && f->kind != AN_FK_TEXT &&
	    len > 1 && v[len - 1] == ',')
		len--;
	if (f->kind == AN_FK_MASK) {
		unsigned long long mask;

		if (parse_mask(v, len, &mask))
			return bad_value(ev, i, v, len, d);
		return an_alias_set_num(ev, i, (long long)mask, d);
	}
	if (f->kind == AN_FK_STATE && len && is_digit(*v)) {
		/* raw output (trace-cmd report -R): a number, mainline encoding */
		char state[AN_STATE_LEN];

		if (parse_number(v, len, &num))
			return bad_value(ev, i, v, len, d);
		an_alias_state_str(&an_alias_state_mainline, (unsigned long long)num, state);
		return an_alias_set_str(ev, i, state, strlen(state), d);
	}
	if (f->kind == AN_FK_INT || f->kind == AN_FK_UINT || f->kind == AN_FK_LLONG) {
		if (parse_number(v, len, &num))
			return bad_value(ev, i, v, len, d);
		return an_alias_set_num(ev, i, num, d);
	}
	return an_alias_set_str(ev, i, v, len, d);
}

/* Next "key=" at a word start in [p, end); NULL when none. */
static const char *find_key(const char *start, const char *p, const char *end,
			    const char **eq)
{
	for (; p < end; p++) {
		const char *q = p;

		if ((p > start && !is_space(p[-1])) || !is_name_start(*p))
			continue;
		while (q < end && is_name_char(*q))
			q++;
		if (q < end && *q == '=') {
			*eq = q;
			return p;
		}
		p = q;
	}
	return NULL;
}

/*
 * key=value fields. A value runs to the next " key=", so comms with spaces
 * survive; sched_switch's " ==>" separator is dropped from prev_state.
 */
static int parse_fields(struct an_event *ev, const char *s, const char *end,
			struct an_diag *d)
{
	const char *eq, *key = find_key(s, s, end, &eq);

	while (key) {
		const char *val = eq + 1, *next_eq = NULL;
		const char *next = find_key(s, val, end, &next_eq);
		const char *vend = trim_end(val, next ? next : end);
		int i = an_alias_field_index(ev->type, key, (size_t)(eq - key));
		int err;

		if (vend - val >= 3 && !memcmp(vend - 3, "==>", 3))
			vend = trim_end(val, vend - 3);
		if (i >= 0) {
			err = store_field(ev, (unsigned int)i, val, (size_t)(vend - val), d);
			if (err)
				return err;
		}
		key = next;
		eq = next_eq;
	}
	return 0;
}

static int set_named(struct an_event *ev, const char *name, const char *v,
		     size_t len, struct an_diag *d)
{
	int i = an_alias_field_index(ev->type, name, strlen(name));

	return i < 0 ? 0 : store_field(ev, (unsigned int)i, v, len, d);
}

/* "... [prio]" at the end of [p, *e): store it, move *e before it. */
static int take_prio(struct an_event *ev, const char *name, const char *p,
		     const char **e, struct an_diag *d)
{
	const char *end = trim_end(p, *e), *open;
	int err;

	if (end == p || end[-1] != ']')
		return 0;
	for (open = end - 1; open > p && open[-1] != '['; open--)
		;
	if (open == p)
		return 0;
	err = set_named(ev, name, open, (size_t)(end - 1 - open), d);
	*e = trim_end(p, open - 1);
	return err;
}

/* "comm:pid" in [p, e): the pid follows the last ':'. */
static int take_comm_pid(struct an_event *ev, const char *comm, const char *pid,
			 const char *p, const char *e, struct an_diag *d)
{
	const char *colon = e;
	int err;

	p = skip_spaces(p, e);
	while (colon > p && colon[-1] != ':')
		colon--;
	if (colon == p)
		return 0;	/* the missing pid is reported by an_alias_check() */
	err = set_named(ev, pid, colon, (size_t)(e - colon), d);
	if (!err)
		err = set_named(ev, comm, p, (size_t)(colon - 1 - p), d);
	return err;
}

/* trace-cmd plugin: "prev:pid [prio] S ==> next:pid [prio]". */
static int parse_compact_switch(struct an_event *ev, const char *s,
				const char *end, struct an_diag *d)
{
	const char *arrow = memmem(s, (size_t)(end - s), ARROW, strlen(ARROW));
	const char *e, *state;
	int err;

	if (!arrow)
		return 0;
	e = trim_end(s, arrow);
	for (state = e; state > s && !is_space(state[-1]); state--)
		;
	err = set_named(ev, "prev_state", state, (size_t)(e - state), d);
	e = state;
	if (!err)
		err = take_prio(ev, "prev_prio", s, &e, d);
	if (!err)
		err = take_comm_pid(ev, "prev_comm", "prev_pid", s, e, d);
	s = arrow + strlen(ARROW);
	e = trim_end(s, end);
	if (!err)
		err = take_prio(ev, "next_prio", s, &e, d);
	if (!err)
		err = take_comm_pid(ev, "next_comm", "next_pid", s, e, d);
	return err;
}

/* trace-cmd plugin: "comm:pid [prio] success=1 CPU:003". */
static int parse_compact_wakeup(struct an_event *ev, const char *s,
				const char *end, struct an_diag *d)
{
	const char *e = trim_end(s, end), *tok;
	int err = 0;

	for (int n = 0; n < 2; n++) {
		for (tok = e; tok > s && !is_space(tok[-1]); tok--)
			;
		if (starts_with(tok, e, "CPU:"))
			err = set_named(ev, "target_cpu", tok + 4, (size_t)(e - tok - 4), d);
		else if (!starts_with(tok, e, "success="))
			break;
		if (err)
			return err;
		e = trim_end(s, tok);
	}
	err = take_prio(ev, "prio", s, &e, d);
	if (!err)
		err = take_comm_pid(ev, "comm", "pid", s, e, d);
	return err;
}

/* A syscall value: hex, with or without "0x" (the kernel prints %lx). */
static int store_hex(struct an_event *ev, const char *name, const char *v,
		     const char *e, struct an_diag *d)
{
	int i = an_alias_field_index(ev->type, name, strlen(name));
	unsigned long long u = 0;
	const char *p = v;

	if (i < 0)
		return 0;
	if (e - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	if (p == e || e - p > 16)
		return bad_value(ev, (unsigned int)i, v, (size_t)(e - v), d);
	for (; p < e; p++) {
		char c = (char)(*p | 0x20);

		if (!is_digit(*p) && (c < 'a' || c > 'f'))
			return bad_value(ev, (unsigned int)i, v, (size_t)(e - v), d);
		u = u << 4 | (unsigned int)(is_digit(*p) ? *p - '0' : c - 'a' + 10);
	}
	return an_alias_set_num(ev, (unsigned int)i, (long long)u, d);
}

/* Syscall arguments "pid: 4d2, uattr: 7ffd, flags: 0" (up to ')' if any). */
static int parse_syscall_args(struct an_event *ev, const char *s, const char *end,
			      struct an_diag *d)
{
	const char *close = memchr(s, ')', (size_t)(end - s));

	if (close)
		end = close;
	while (s < end) {
		const char *comma = memchr(s, ',', (size_t)(end - s));
		const char *e = comma ? comma : end;
		const char *colon = memchr(s, ':', (size_t)(e - s));
		char key[AN_DIAG_NAME_LEN];
		int err;

		s = skip_spaces(s, e);
		if (colon && (size_t)(colon - s) < sizeof(key)) {
			memcpy(key, s, (size_t)(colon - s));
			key[colon - s] = '\0';
			err = store_hex(ev, key, skip_spaces(colon + 1, e), trim_end(colon, e), d);
			if (err)
				return err;
		}
		s = e + 1;
	}
	return 0;
}

/* The text of a print event: after "tracing_mark_write: " for "print". */
static int parse_print(struct an_event *ev, const struct head *h, const char *end,
		       struct an_diag *d)
{
	const char *text = h->fields;
	int err;

	if (h->name_len == 5 && !memcmp(h->name, "print", 5)) {
		/* "%ps: %s": drop the ip symbol */
		const char *sep = memmem(text, (size_t)(end - text), ": ", 2);

		if (sep && memchr(text, ' ', (size_t)(sep - text)) == NULL)
			text = sep + 2;
	}
	while (end > text && (end[-1] == '\n' || end[-1] == '\r'))
		end--;
	err = an_alias_set_str(ev, 0, text, (size_t)(end - text), d);
	if (err)
		return err;
	err = an_marker_parse(text, (size_t)(end - text), ev->pid, &ev->print.marker, d);
	return err < 0 ? err : 0;
}

/* The kind of a line, with the head of an event line in @h. */
static int line_kind(const char *line, size_t len, struct an_textline_extra *x,
		     struct head *h)
{
	const char *end = line + len, *p = skip_spaces(line, end);

	if (p == end)
		return AN_TEXTLINE_SKIP;
	if (parse_cpus(p, end, x))
		return AN_TEXTLINE_CPUS;
	if (parse_enabled(p, end, x))
		return AN_TEXTLINE_EVENTS;
	if (*p == '#' || starts_with(p, end, "version = ") ||
	    starts_with(p, end, "TRACE:") ||
	    (starts_with(p, end, "CPU ") && ends_with(p, end, " is empty")))
		return AN_TEXTLINE_SKIP;
	if (parse_lost(p, end, x))
		return AN_TEXTLINE_LOST;
	if (memchr(line, '\0', len) || !parse_head(line, len, h))
		return AN_E_SYNTAX;
	return AN_TEXTLINE_EVENT;
}

static enum an_event_type head_type(const struct head *h)
{
	if (h->syscall != SYSCALL_NONE) {
		/* "sys_sched_setattr(" is the event sys_enter_sched_setattr */
		char name[AN_DIAG_NAME_LEN];

		snprintf(name, sizeof(name), "sys_%s_%.*s",
			 h->syscall == SYSCALL_ENTER ? "enter" : "exit",
			 (int)(h->name_len - 4), h->name + 4);
		return an_alias_lookup(name, strlen(name));
	}
	/*
	 * No event name starts with a digit: this is the print event of
	 * kernels that printed its ip as a number, "0: B|pid|name" where
	 * newer ones print "tracing_mark_write: B|pid|name".
	 */
	if (is_digit(*h->name))
		return AN_EV_PRINT;
	return an_alias_lookup(h->name, h->name_len);
}

/**
 * an_textline_parse() - decode one line
 * @line: the line, without its newline, NUL-terminated at @len
 * @len: its length
 * @ev: event filled for AN_TEXTLINE_EVENT
 * @x: filled for LOST, CPUS and EVENTS lines
 * @d: diagnostic (message, event, field; the caller adds the position)
 *
 * Return: an enum an_textline_kind, or AN_E_SYNTAX, AN_E_FIELD or AN_E_VALUE.
 */
int an_textline_parse(char *line, size_t len, struct an_event *ev,
		      struct an_textline_extra *x, struct an_diag *d)
{
	const char *end = line + len;
	enum an_event_type type;
	struct head h;
	int err = line_kind(line, len, x, &h);

	if (err == AN_E_SYNTAX)
		return an_diag_fail(d, AN_E_SYNTAX, "not an ftrace line: '%.*s'",
				    (int)(len > SNIPPET_LEN ? SNIPPET_LEN : len), line);
	if (err != AN_TEXTLINE_EVENT)
		return err;
	type = head_type(&h);
	an_alias_reset(ev, type);
	line[h.name + h.name_len - line] = '\0';
	ev->name = (h.syscall != SYSCALL_NONE && type != AN_EV_UNKNOWN) || is_digit(*h.name) ?
		   an_event_type_name(type) : h.name;
	ev->ts_ns = h.ts_ns;
	x->ts_raw = h.ts_raw;
	ev->cpu = h.cpu;
	ev->pid = h.pid;
	an_diag_set_name(d->event, h.name, h.name_len);

	switch (type) {
	case AN_EV_UNKNOWN:
		return AN_TEXTLINE_EVENT;
	case AN_EV_SYS_ENTER_SCHED_SETATTR:
	case AN_EV_SYS_EXIT_SCHED_SETATTR:
		if (h.syscall == SYSCALL_NONE)
			err = parse_fields(ev, h.fields, end, d);	/* "ret=" forms */
		else
			err = 0;
		if (!err && !ev->present && type == AN_EV_SYS_ENTER_SCHED_SETATTR)
			err = parse_syscall_args(ev, h.fields, end, d);
		else if (!err && !ev->present)	/* "-> 0x0" or report's "0x0" */
			err = store_hex(ev, "ret", h.fields, trim_end(h.fields, end), d);
		break;
	case AN_EV_PRINT:
		err = parse_print(ev, &h, end, d);
		break;
	default:
		err = parse_fields(ev, h.fields, end, d);
		if (!err && !ev->present && type == AN_EV_SCHED_SWITCH)
			err = parse_compact_switch(ev, h.fields, end, d);
		else if (!err && !ev->present && (type == AN_EV_SCHED_WAKEUP ||
						 type == AN_EV_SCHED_WAKEUP_NEW))
			err = parse_compact_wakeup(ev, h.fields, end, d);
		break;
	}
	if (!err)
		err = an_alias_check(ev, d);
	return err ? err : AN_TEXTLINE_EVENT;
}

/**
 * an_textline_cpu() - what a line says of the CPUs, its fields unread
 * @line: the line, need not be NUL-terminated; not modified
 * @len: its length
 * @x: filled for LOST and CPUS lines
 * @cpu: the CPU column of an event line
 * @type: the type of an event line
 *
 * Return: an enum an_textline_kind, or AN_E_SYNTAX (not an ftrace line).
 */
int an_textline_cpu(const char *line, size_t len, struct an_textline_extra *x,
		    int *cpu, enum an_event_type *type)
{
	struct head h;
	int kind = line_kind(line, len, x, &h);

	if (kind == AN_TEXTLINE_EVENT) {
		*cpu = h.cpu;
		*type = head_type(&h);
	}
	return kind;
}

/**
 * an_textline_probe() - whether a line is recognisably ftrace text
 * @line: the line, need not be NUL-terminated
 * @len: its length
 *
 * Return: true for an event line, a LOST line, "# tracer:" or "cpus=N".
 */
bool an_textline_probe(const char *line, size_t len)
{
	const char *end = line + len, *p = skip_spaces(line, end);
	struct an_textline_extra x;
	struct head h;

	if (memchr(line, '\0', len))
		return false;
	return starts_with(p, end, "# tracer:") || parse_cpus(p, end, &x) ||
	       parse_lost(p, end, &x) || parse_head(line, len, &h);
}
