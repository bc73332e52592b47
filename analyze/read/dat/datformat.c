// SPDX-License-Identifier: MIT
/*
 * analyze/read/dat/datformat.c - the text parts of a trace.dat that libtraceevent
 * parses (header_page, event formats), checked first because its parser
 * crashes on some malformed ones (found by tests/fuzz/fuzz_tracedat.c).
 */
#define _GNU_SOURCE	/* memmem() */
#include <string.h>

#include "analyze/read/dat/datformat.h"

#define FORMAT_NUMBER_CAP 100000	/* stops overflow; no offset or size is that large */

/* "@key<digits>;" at *@p after blanks; moves *@p past it, *@v gets the number. */
static bool format_number(const char **p, const char *end, const char *key, unsigned int *v)
{
	const char *s = *p;
	size_t n = strlen(key);
	unsigned int num = 0;

	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	if ((size_t)(end - s) <= n || memcmp(s, key, n))
		return false;
	for (s += n; s < end && *s >= '0' && *s <= '9'; s++)
		if (num < FORMAT_NUMBER_CAP)
			num = num * 10 + (unsigned int)(*s - '0');
	if (s == end || *s != ';' || s[-1] == ':')
		return false;
	*p = s + 1;
	if (v)
		*v = num;
	return true;
}

/**
 * an_datformat_header_field() - check one header_page field line, get its size
 * @p: line start, moved to the next line
 * @end: end of the header_page text
 * @name: field name ("timestamp", "commit")
 *
 * The line must read "field: <type> @name;<blank>offset:N;<blank>size:N;"
 * with an optional "signed:N;", token by token as libtraceevent parses it.
 *
 * Return: the size, 0 when the line is malformed.
 */
unsigned int an_datformat_header_field(const char **p, const char *end, const char *name)
{
	const char *s = *p, *eol = memchr(s, '\n', (size_t)(end - s));
	const char *semi;
	size_t n = strlen(name);
	unsigned int size;

	eol = eol ? eol : end;
	*p = eol < end ? eol + 1 : end;
	while (s < eol && (*s == ' ' || *s == '\t'))
		s++;
	if (eol - s < 6 || memcmp(s, "field:", 6))
		return 0;
	semi = memchr(s, ';', (size_t)(eol - s));
	if (!semi || semi - s < (long)n + 7 || memcmp(semi - n, name, n) ||
	    (semi[-(long)n - 1] != ' ' && semi[-(long)n - 1] != '\t'))
		return 0;
	for (const char *c = s + 6; c < semi; c++)	/* "u64", "local_t": words only */
		if (!(*c == '_' || *c == ' ' || *c == '\t' || (*c >= '0' && *c <= '9') ||
		      ((*c | 0x20) >= 'a' && (*c | 0x20) <= 'z')))
			return 0;
	s = semi + 1;
	if (!format_number(&s, eol, "offset:", NULL) || !format_number(&s, eol, "size:", &size))
		return 0;
	while (s < eol && (*s == ' ' || *s == '\t'))
		s++;
	if (s < eol && !format_number(&s, eol, "signed:", NULL))
		return 0;
	return size;
}

/*
 * "field:<declaration>;<tab>offset:N;<tab>size:N;[<tab>signed:N;]": the
 * declaration is printable with balanced brackets ("char func[30+1]",
 * "__u8 a[sizeof(struct x)]"), without quotes or backslashes (no C
 * declaration has them); libtraceevent crashes on an unclosed bracket, and
 * on "char prev_comm['6]" (its tokenizer reads a character literal on).
 */
static bool format_field_ok(const char *p, const char *end)
{
	int depth = 0;

	for (; p < end && *p != ';'; p++) {
		if (*p == '[' || *p == '(')
			depth++;
		else if (*p == ']' || *p == ')')
			depth--;
		else if (((*p < ' ' || *p > '~') && *p != '\t') || *p == '\'' || *p == '"' ||
			 *p == '\\')
			return false;
		if (depth < 0)
			return false;
	}
	if (p == end || depth)
		return false;
	p++;
	return format_number(&p, end, "offset:", NULL) && format_number(&p, end, "size:", NULL) &&
	       (p == end || format_number(&p, end, "signed:", NULL) || *p == '\n');
}

static bool is_ident(char c)
{
	return c == '_' || (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z');
}

/* Whether a field line of @text declares @name ("char comm[16];" declares comm). */
static bool field_declared(const char *text, const char *end, const char *name, size_t n)
{
	for (const char *p = text; (p = memmem(p, (size_t)(end - p), "field:", 6)); p += 6) {
		const char *semi = memchr(p, ';', (size_t)(end - p)), *stop, *e;

		if (!semi)
			return false;
		stop = semi;
		if (stop[-1] == ']')		/* "buf[32 + 2]": the name is before '[' */
			while (stop > p && *stop != '[')
				stop--;
		for (e = stop; e > p && is_ident(e[-1]); e--)
			;
		if ((size_t)(stop - e) == n && !memcmp(e, name, n))
			return true;
	}
	return false;
}

static const char *skip_blanks(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

/*
 * libtraceevent folds "a / b" and "a % b" of two non-field atoms while it
 * parses, and divides by zero when b is 0 or a word ("R%C->ret"). A divisor
 * must be a field, a non-zero number or a parenthesis.
 */
static bool divisor_ok(const char *p, const char *end)
{
	p = skip_blanks(p, end);
	if (p == end)
		return false;
	if ((size_t)(end - p) >= 5 && !memcmp(p, "REC->", 5))
		return true;
	if ((size_t)(end - p) >= 6 && !memcmp(p, "sizeof", 6))
		return true;	/* never 0; the ones that crash: sizeof_crashes() */
	if (*p == '0')
		return p + 1 < end && (p[1] == 'x' || p[1] == 'X' || (p[1] >= '0' && p[1] <= '9'));
	return !is_ident(*p) || (*p >= '1' && *p <= '9');
}

/* The identifier at @p (blanks first skipped), its length in *@n; @p moves past it. */
static const char *next_word(const char **p, const char *end, size_t *n)
{
	const char *w;

	*p = skip_blanks(*p, end);
	for (w = *p; *p < end && is_ident(**p); (*p)++)
		;
	*n = (size_t)(*p - w);
	return w;
}

static bool is_word(const char *w, size_t n, const char *s)
{
	return n == strlen(s) && !memcmp(w, s, n);
}

/*
 * libtraceevent 1.7.1 (Debian 12) frees, then reads and frees again, the
 * token after "sizeof(int", "sizeof(unsigned int", "sizeof(long long" and
 * "sizeof(REC" (process_sizeof(); fixed upstream in 1.7.2): a double free
 * while it parses the format. Linux 6.18's dma events print
 * "len / sizeof(unsigned int)". @p is just after "sizeof".
 */
static bool sizeof_crashes(const char *p, const char *end)
{
	const char *w;
	size_t n;

	p = skip_blanks(p, end);
	if (p == end || *p++ != '(')
		return false;
	w = next_word(&p, end, &n);
	if (is_word(w, n, "unsigned"))
		w = next_word(&p, end, &n);
	if (is_word(w, n, "int") || is_word(w, n, "REC"))
		return true;
	if (!is_word(w, n, "long"))
		return false;
	w = next_word(&p, end, &n);
	return is_word(w, n, "long");
}

/* Past the string or character literal that starts at @p. */
static const char *past_literal(const char *p, const char *end)
{
	char quote = *p++;

	for (; p < end && *p != quote; p++)
		if (*p == '\\' && p + 1 < end)
			p++;
	return p < end ? p + 1 : end;
}

/* Past the parenthesis that opens at @p and what it holds. */
static const char *past_group(const char *p, const char *end)
{
	unsigned int depth = 0;

	while (p < end) {
		if (*p == '"' || *p == '\'') {
			p = past_literal(p, end);
			continue;
		}
		if (*p == '(')
			depth++;
		else if (*p == ')' && !--depth)
			return p + 1;
		p++;
	}
	return end;
}

/*
 * libtraceevent 1.7.1 reads NULL when the operand after the ':' of
 * "c ? a : b" (a literal, a parenthesis, a word or REC->field) is followed
 * by a token it has no rule for there: '.', "->", '[', ']', '{', '}', ';'
 * or a lone '='. "c ? 1 : z.a", "c ? 1 : (z);" (found by make fuzz: mangled
 * sched_switch formats). An operator it knows ("c ? 1 : z * 2") is fine.
 * @p is just after the ':'.
 */
static bool else_operand_crashes(const char *p, const char *end)
{
	size_t n;

	p = skip_blanks(p, end);
	if (p < end && (*p == '"' || *p == '\'')) {
		p = past_literal(p, end);
	} else if (p < end && *p == '(') {
		p = past_group(p, end);
	} else {
		const char *w = next_word(&p, end, &n);

		if (!n)
			return false;	/* an operator first: not this case */
		if (is_word(w, n, "REC") && (size_t)(end - p) >= 2 && !memcmp(p, "->", 2)) {
			p += 2;
			next_word(&p, end, &n);
		}
	}
	p = skip_blanks(p, end);
	if (p == end)
		return false;
	if ((size_t)(end - p) >= 2 && !memcmp(p, "->", 2))
		return true;
	if (*p == '=')
		return end - p < 2 || p[1] != '=';	/* '=' alone, not "==" */
	return memchr(".[]{};", *p, 6) != NULL;
}

/*
 * The print format is C: outside its string and character literals only
 * these characters appear. libtraceevent's expression parser crashes on
 * some others ('$'), on some sizeof() (sizeof_crashes()) and on some
 * operands of a condition (else_operand_crashes()).
 */
static bool print_fmt_chars_ok(const char *p, const char *end)
{
	const char *start = p;
	static const char ops[] = "(),.[]{}&|^~!?:;+-*/%<>=";
	unsigned int nr_cond = 0;	/* '?' whose ':' is still to come */
	char quote = 0;

	for (; p < end; p++) {
		if (quote) {
			if (*p == '\\' && p + 1 < end)
				p++;
			else if (*p == quote)
				quote = 0;
		} else if (*p == '"' || *p == '\'') {
			quote = *p;
		} else if ((*p == '/' || *p == '%') && !divisor_ok(p + 1, end)) {
			return false;
		} else if ((size_t)(end - p) >= 6 && !memcmp(p, "sizeof", 6) &&
			   (p == start || !is_ident(p[-1])) && sizeof_crashes(p + 6, end)) {
			return false;
		} else if (*p == '?') {
			nr_cond++;
		} else if (*p == ':' && nr_cond) {	/* not a "case N:" label */
			nr_cond--;
			if (else_operand_crashes(p + 1, end))
				return false;
		} else if (!is_ident(*p) && *p != ' ' && *p != '\t' && *p != '\n' &&
			   !memchr(ops, *p, sizeof(ops) - 1)) {
			return false;
		}
	}
	return !quote;
}

/*
 * libtraceevent dereferences the field a print format looks up without
 * checking it found one, and crashes on an unclosed bracket.
 */
/**
 * an_datformat_ok() - check an event format text before libtraceevent parses it
 * @text: the format ("name: ...\nID: ...\nformat:\n...print fmt: ...")
 * @len: its length
 *
 * Return: true when it has no NUL, well-formed field lines with balanced
 * brackets, and a print format naming only declared fields.
 */
bool an_datformat_ok(const char *text, size_t len)
{
	const char *p = text, *end = text + len, *fmt;

	if (memchr(text, '\0', len))
		return false;
	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));

		eol = eol ? eol : end;
		while (p < eol && (*p == ' ' || *p == '\t'))
			p++;
		if ((size_t)(eol - p) >= 6 && !memcmp(p, "field:", 6) &&
		    !format_field_ok(p + 6, eol))
			return false;
		p = eol + 1;
	}
	fmt = memmem(text, len, "print fmt:", 10);
	if (fmt && !print_fmt_chars_ok(fmt + 10, end))
		return false;
	for (p = fmt; p && (p = memmem(p, (size_t)(end - p), "REC->", 5)); ) {
		const char *name = p += 5;

		while (p < end && is_ident(*p))
			p++;
		if (!field_declared(text, fmt, name, (size_t)(p - name)))
			return false;
	}
	return true;
}

/*
 * libtraceevent 1.7's tep_parse_printk_formats() takes each line (empty
 * ones skipped) as "ADDR:" then one character then the format, drops one
 * leading quote and reads the last three characters of what is left, all
 * unchecked: a line without a ':' after the address, or a format shorter
 * than that, reads outside its buffer (ASan, make fuzz). Real lines are
 * '0xffffffff81234567 : "text"'. Checked against the library under ASan on
 * 1,500 random lines: none this accepts made it read out of bounds.
 */
bool an_datformat_printk_ok(const char *text, size_t len)
{
	const char *end = text + strnlen(text, len);	/* the library stops at a NUL */

	for (const char *line = text; line < end;) {
		const char *eol = memchr(line, '\n', (size_t)(end - line));
		const char *p = line, *colon;

		if (!eol)
			eol = end;
		if (eol == line) {
			line++;
			continue;
		}
		while (p < eol && *p == ':')
			p++;
		colon = p < eol ? memchr(p, ':', (size_t)(eol - p)) : NULL;
		if (!colon || eol - colon < 2)
			return false;	/* no address, or nothing after its ':' */
		p = colon + 2;		/* the ':' and the character the library skips */
		if (p < eol && *p == '"')
			p++;
		if (eol - p < 3)
			return false;
		line = eol;
	}
	return true;
}

/**
 * an_datformat_blank_print() - empty an event format's print format, in place
 * @text: the format (not NUL-terminated)
 * @len: its length, kept
 *
 * What follows "print fmt:" becomes ' ""' and blanks, the last newline
 * kept: the name, id and fields, which ucval reads, stay as they were, and
 * libtraceevent parses an empty print format. Only what libtraceevent would
 * print changes.
 *
 * Return: true when the format then passes an_datformat_ok().
 */
bool an_datformat_blank_print(char *text, size_t len)
{
	char *fmt = memmem(text, len, "print fmt:", 10), *end = text + len;
	bool has_newline = len && end[-1] == '\n';
	char *p;

	if (!fmt || end - (fmt + 10) < 3 + has_newline)
		return false;
	p = fmt + 10;
	memset(p, ' ', (size_t)(end - p));
	p[1] = '"';
	p[2] = '"';
	if (has_newline)
		end[-1] = '\n';
	return an_datformat_ok(text, len);
}
