// SPDX-License-Identifier: MIT
/*
 * analyze/read/marker.c - table-driven parser of ucval markers (spec/events.md §3).
 *
 * The grammar is the AN_MARKER_KEYS table of marker.h plus the kind and alias
 * tables below; the code only walks "key=value" tokens through them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/read/marker.h"

#define MARKER_PREFIX "ucval:"

static const struct kind_desc {
	const char *name;
	enum an_marker_kind kind;
} kinds[] = {
	{ "platform",	AN_MARKER_PLATFORM },
	{ "cpu",	AN_MARKER_CPU },
	{ "sysctl",	AN_MARKER_SYSCTL },
	{ "task",	AN_MARKER_TASK },
	{ "cgroup",	AN_MARKER_CGROUP },
	{ "setattr",	AN_MARKER_SETATTR },
};

static const struct key_desc {
	enum an_marker_kind kind;
	const char *name;
	enum an_marker_type type;
	size_t offset;
	size_t size;
} keys[] = {
#define AN_MK_DESC(id, kind, key, type, member)				\
	[AN_MK_##id] = { AN_MARKER_##kind, key, AN_MT_##type,		\
			 offsetof(struct an_marker, member),		\
			 sizeof(((struct an_marker *)0)->member) },
	AN_MARKER_KEYS(AN_MK_DESC)
#undef AN_MK_DESC
};

/*
 * Markers written by other tools that mean a ucval kind. @match_key=@match_value
 * must be present; the writer becomes @pid_key and @fixed_key gets 0 (rt-app
 * only logs requests that succeeded).
 */
static const struct alias_desc {
	const char *prefix;
	enum an_marker_kind kind;
	const char *match_key;
	const char *match_value;
	enum an_marker_key pid_key;
	enum an_marker_key fixed_key;
} aliases[] = {
	{ "rtapp_attrs:", AN_MARKER_SETATTR, "event", "uclamp",
	  AN_MK_SETATTR_PID, AN_MK_SETATTR_RET },
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Static assertion: every key fits the presence word. */
_Static_assert(AN_MK__COUNT <= 64, "marker keys exceed the presence bitmask");

/**
 * an_marker_key_name() - the key text of @key ("util_min")
 * @key: AN_MK_* id
 *
 * Return: a static string, "?" for an unknown id.
 */
const char *an_marker_key_name(enum an_marker_key key)
{
	if ((unsigned int)key >= AN_MK__COUNT)
		return "?";
	return keys[key].name;
}

/**
 * an_marker_kind_name() - the kind text of @kind ("setattr")
 * @kind: AN_MARKER_* value
 *
 * Return: a static string.
 */
const char *an_marker_kind_name(enum an_marker_kind kind)
{
	for (size_t i = 0; i < ARRAY_SIZE(kinds); i++)
		if (kinds[i].kind == kind)
			return kinds[i].name;
	return "none";
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static bool word_is(const char *s, size_t len, const char *word)
{
	return strlen(word) == len && !memcmp(s, word, len);
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Parse all of [s, s+len) as an unsigned number; hex only if @allow_hex. */
static int parse_u64(const char *s, size_t len, bool allow_hex,
		     unsigned long long *out)
{
	unsigned long long v = 0;
	unsigned int base = 10;
	size_t i = 0;

	if (allow_hex && len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		i = 2;
	}
	if (i >= len)
		return -EINVAL;
	for (; i < len; i++) {
		int digit = hex_digit(s[i]);

		if (digit < 0 || (unsigned int)digit >= base)
			return -EINVAL;
		if (v > (~0ULL - (unsigned int)digit) / base)
			return -ERANGE;
		v = v * base + (unsigned int)digit;
	}
	*out = v;
	return 0;
}

/* Percent-decode [s, s+len) into @dst of @size bytes, NUL-terminated. */
static int decode_str(const char *s, size_t len, char *dst, size_t size)
{
	size_t n = 0;

	for (size_t i = 0; i < len; i++) {
		char c = s[i];

		if (c == '%') {
			int hi = i + 1 < len ? hex_digit(s[i + 1]) : -1;
			int lo = i + 2 < len ? hex_digit(s[i + 2]) : -1;

			/* %00 would cut the string: refuse it like a bad escape. */
			if (hi < 0 || lo < 0 || (hi | lo) == 0)
				return -EINVAL;
			c = (char)(hi << 4 | lo);
			i += 2;
		}
		if (n + 1 >= size)
			return -ENAMETOOLONG;
		dst[n++] = c;
	}
	dst[n] = '\0';
	return 0;
}

static const struct {
	const char *name;
	enum an_model model;
} models[] = {
	{ "v3",		AN_MODEL_V3 },
	{ "mainline",	AN_MODEL_MAINLINE },
};

static const struct {
	const char *name;
	enum an_policy policy;
} policies[] = {
	{ "SCHED_NORMAL",	AN_POLICY_NORMAL },
	{ "SCHED_FIFO",		AN_POLICY_FIFO },
	{ "SCHED_RR",		AN_POLICY_RR },
	{ "SCHED_BATCH",	AN_POLICY_BATCH },
	{ "SCHED_IDLE",		AN_POLICY_IDLE },
	{ "SCHED_DEADLINE",	AN_POLICY_DEADLINE },
};

/* Parse a comma list of ascending kHz values into the cpu member of @m. */
static int parse_freqs(const char *s, size_t len, struct an_marker *m)
{
	unsigned int n = 0;
	size_t start = 0;

	for (size_t i = 0; i <= len; i++) {
		unsigned long long v;

		if (i < len && s[i] != ',')
			continue;
		if (n == AN_MARKER_MAX_FREQS)
			return -E2BIG;
		if (parse_u64(s + start, i - start, false, &v) || v > UINT32_MAX)
			return -EINVAL;
		if (n && v <= m->cpu.freqs_khz[n - 1])
			return -EINVAL;	/* the spec says ascending */
		m->cpu.freqs_khz[n++] = (unsigned int)v;
		start = i + 1;
	}
	m->cpu.nr_freqs = n;
	return 0;
}

/* Store one value of key @k into @m; negative errno when malformed. */
static int store_value(const struct key_desc *k, const char *v, size_t len,
		       struct an_marker *m)
{
	char *dst = (char *)m + k->offset;
	unsigned long long u;
	int err;

	switch (k->type) {
	case AN_MT_U32:
	case AN_MT_BOOL:
		err = parse_u64(v, len, false, &u);
		if (err)
			return err;
		if (k->type == AN_MT_BOOL) {
			if (u > 1)
				return -EINVAL;
			*(bool *)dst = u;
		} else {
			if (u > UINT32_MAX)
				return -ERANGE;
			*(unsigned int *)dst = (unsigned int)u;
		}
		return 0;
	case AN_MT_I32:
		if (len && v[0] == '-') {
			err = parse_u64(v + 1, len - 1, false, &u);
			if (!err && u > 1ULL + INT32_MAX)
				err = -ERANGE;
			if (!err)
				*(int *)dst = (int)(-(long long)u);
			return err;
		}
		err = parse_u64(v, len, false, &u);
		if (!err && u > INT32_MAX)
			err = -ERANGE;
		if (!err)
			*(int *)dst = (int)u;
		return err;
	case AN_MT_FLAGS:
		err = parse_u64(v, len, true, &u);
		if (!err)
			*(unsigned long long *)dst = u;
		return err;
	case AN_MT_STR:
	case AN_MT_COMM:
	case AN_MT_PATH:
		return decode_str(v, len, dst, k->size);
	case AN_MT_FREQS:
		return parse_freqs(v, len, m);
	case AN_MT_MODEL:
		for (size_t i = 0; i < ARRAY_SIZE(models); i++)
			if (word_is(v, len, models[i].name)) {
				*(enum an_model *)dst = models[i].model;
				return 0;
			}
		return -EINVAL;
	case AN_MT_POLICY:
		for (size_t i = 0; i < ARRAY_SIZE(policies); i++)
			if (word_is(v, len, policies[i].name)) {
				*(enum an_policy *)dst = policies[i].policy;
				return 0;
			}
		return -EINVAL;
	}
	return -EINVAL;
}

static const struct key_desc *find_key(enum an_marker_kind kind,
				       const char *name, size_t len,
				       enum an_marker_key *id)
{
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
		if (keys[i].kind == kind && word_is(name, len, keys[i].name)) {
			*id = (enum an_marker_key)i;
			return &keys[i];
		}
	return NULL;
}

/* Whether [p, end) has the token "@key=@value". */
static bool has_token(const char *p, const char *end, const char *key,
		      const char *value)
{
	size_t klen = strlen(key);

	while (p < end) {
		const char *tok;

		while (p < end && is_space(*p))
			p++;
		tok = p;
		while (p < end && !is_space(*p))
			p++;
		if ((size_t)(p - tok) > klen && tok[klen] == '=' &&
		    !memcmp(tok, key, klen))
			return word_is(tok + klen + 1, (size_t)(p - tok) - klen - 1, value);
	}
	return false;
}

/*
 * Walk the "key=value" tokens of [p, end) into @m of kind m->kind. For an
 * alias @a, its match key was checked already and is skipped.
 */
static int parse_tokens(const char *p, const char *end, struct an_marker *m,
			const struct alias_desc *a, struct an_diag *d)
{
	while (p < end) {
		const char *tok, *eq, *val;
		const struct key_desc *k;
		enum an_marker_key id;
		int err;

		while (p < end && is_space(*p))
			p++;
		if (p == end)
			break;
		tok = p;
		while (p < end && !is_space(*p))
			p++;
		eq = memchr(tok, '=', (size_t)(p - tok));
		if (!eq || eq == tok) {
			an_diag_set_name(d->field, tok, (size_t)(p - tok));
			return an_diag_fail(d, AN_E_SYNTAX,
					    "%s marker: expected key=value, got '%.*s'",
					    an_marker_kind_name(m->kind),
					    (int)(p - tok), tok);
		}
		val = eq + 1;
		if (a && word_is(tok, (size_t)(eq - tok), a->match_key))
			continue;
		k = find_key(m->kind, tok, (size_t)(eq - tok), &id);
		if (!k)
			continue;	/* unknown keys are ignored (§3) */
		an_diag_set_name(d->field, tok, (size_t)(eq - tok));
		if (an_marker_has(m, id))
			return an_diag_fail(d, AN_E_VALUE, "%s marker: key '%s' given twice",
					    an_marker_kind_name(m->kind), k->name);
		err = store_value(k, val, (size_t)(p - val), m);
		if (err)
			return an_diag_fail(d, AN_E_VALUE,
					    "%s marker: bad value '%.*s' for '%s'",
					    an_marker_kind_name(m->kind),
					    (int)(p - val), val, k->name);
		m->present |= UINT64_C(1) << id;
		d->field[0] = '\0';
	}
	return 0;
}

static bool has_prefix(const char *p, const char *end, const char *prefix)
{
	size_t n = strlen(prefix);

	return (size_t)(end - p) >= n && !memcmp(p, prefix, n);
}

/**
 * an_marker_parse() - decode one marker line
 * @text: the print event's text (a trailing newline is ignored)
 * @len: its length in bytes
 * @writer_pid: pid of the task that wrote it (rt-app's marker targets it)
 * @m: result; m->kind is AN_MARKER_NONE when 0 is returned
 * @d: diagnostic on error (event and position are left to the caller)
 *
 * Return: 1 for a marker, 0 when @text is no ucval marker, AN_E_VALUE or
 * AN_E_SYNTAX (both negative) when a known key has a malformed value.
 */
int an_marker_parse(const char *text, size_t len, int writer_pid,
		    struct an_marker *m, struct an_diag *d)
{
	const char *p = text, *end = text + len;
	struct an_diag scratch;
	int err;

	if (!d) {
		an_diag_clear(&scratch);
		d = &scratch;
	}
	memset(m, 0, sizeof(*m));
	while (p < end && is_space(*p))
		p++;

	for (size_t i = 0; i < ARRAY_SIZE(aliases); i++) {
		const struct alias_desc *a = &aliases[i];

		if (!has_prefix(p, end, a->prefix))
			continue;
		p += strlen(a->prefix);
		if (!has_token(p, end, a->match_key, a->match_value))
			return 0;
		m->kind = a->kind;
		err = parse_tokens(p, end, m, a, d);
		if (err)
			goto fail;
		if (writer_pid < 0) {
			err = an_diag_fail(d, AN_E_VALUE, "%s marker: writer pid unknown",
					   a->prefix);
			goto fail;
		}
		*(unsigned int *)((char *)m + keys[a->pid_key].offset) =
			(unsigned int)writer_pid;
		*(int *)((char *)m + keys[a->fixed_key].offset) = 0;
		m->present |= UINT64_C(1) << a->pid_key | UINT64_C(1) << a->fixed_key;
		return 1;
	}

	if (!has_prefix(p, end, MARKER_PREFIX))
		return 0;
	p += strlen(MARKER_PREFIX);
	while (p < end && is_space(*p))
		p++;
	{
		const char *kind = p;

		while (p < end && !is_space(*p))
			p++;
		for (size_t i = 0; i < ARRAY_SIZE(kinds); i++)
			if (word_is(kind, (size_t)(p - kind), kinds[i].name))
				m->kind = kinds[i].kind;
	}
	if (m->kind == AN_MARKER_NONE)
		return 0;	/* unknown kinds are ignored (§3) */
	err = parse_tokens(p, end, m, NULL, d);
	if (err)
		goto fail;
	return 1;

fail:
	memset(m, 0, sizeof(*m));
	return err;
}
