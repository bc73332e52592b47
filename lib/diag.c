// SPDX-License-Identifier: MIT
/*
 * lib/diag.c - filling and rendering struct an_diag (STYLE.md §3: say
 * what the error is first, subject in single quotes, lower case).
 */
#include <stdio.h>
#include <string.h>

#include "lib/diag.h"
#include "lib/utf8.h"

/**
 * an_diag_clear() - reset @d to "no error, no position"
 * @d: diagnostic to reset, may be NULL
 */
void an_diag_clear(struct an_diag *d)
{
	if (!d)
		return;
	/* every field, strings by their first byte: readers clear per event */
	d->err = 0;
	d->what = "read";
	d->file[0] = '\0';
	d->line = 0;
	d->record = 0;
	d->offset = -1;
	d->cpu = -1;
	d->event[0] = '\0';
	d->field[0] = '\0';
	d->message[0] = '\0';
}

/**
 * an_diag_set_file() - record the input path and the action in @d
 * @d: diagnostic, may be NULL
 * @what: static action word ("open", "read", "decode")
 * @file: input path, may be NULL
 */
void an_diag_set_file(struct an_diag *d, const char *what, const char *file)
{
	if (!d)
		return;
	d->what = what;
	snprintf(d->file, sizeof(d->file), "%s", file ? file : "");
}

/**
 * an_diag_vfail() - va_list form of an_diag_fail()
 * @d: diagnostic, may be NULL
 * @err: negative code to store and return
 * @fmt: printf format of the reason
 * @ap: its arguments
 *
 * Return: @err.
 */
int an_diag_vfail(struct an_diag *d, int err, const char *fmt, va_list ap)
{
	if (d) {
		d->err = err;
		vsnprintf(d->message, sizeof(d->message), fmt, ap);
	}
	return err;
}

/**
 * an_diag_fail() - fill the reason of @d and return @err
 * @d: diagnostic, may be NULL
 * @err: negative code to store and return
 * @fmt: printf format of the reason, lower case, no full stop
 *
 * Return: @err, so callers can write "return an_diag_fail(d, ...)".
 */
int an_diag_fail(struct an_diag *d, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	an_diag_vfail(d, err, fmt, ap);
	va_end(ap);
	return err;
}

/**
 * an_diag_set_name() - copy an event or field name into @d
 * @dst: d->event or d->field
 * @name: name, need not be NUL-terminated
 * @len: its length
 */
void an_diag_set_name(char dst[AN_DIAG_NAME_LEN], const char *name, size_t len)
{
	if (len >= AN_DIAG_NAME_LEN)
		len = AN_DIAG_NAME_LEN - 1;
	memcpy(dst, name, len);
	dst[len] = '\0';
}

/* A line built piece by piece in a caller's buffer; it ends where a piece is cut. */
struct line {
	char *buf;
	size_t size;
	size_t pos;		/* bytes written, the NUL not counted */
	size_t total;		/* length of the whole line */
	bool is_cut;
};

/* Append @s: a name escaped (a cut one keeps the characters that fit whole). */
static void put(struct line *l, const char *s, bool is_name)
{
	size_t room = l->is_cut ? 0 : l->size - l->pos;
	size_t n;

	if (is_name) {
		/* what fits of it whole, NUL-terminated */
		n = an_utf8_escape(room ? l->buf + l->pos : NULL, room, s, 0);
		l->pos += room ? strlen(l->buf + l->pos) : 0;
	} else {
		n = strlen(s);
		if (room) {
			size_t k = n < room ? n : room - 1;

			memcpy(l->buf + l->pos, s, k);
			l->buf[l->pos + k] = '\0';
			l->pos += k;
		}
	}
	l->is_cut = l->is_cut || n >= room;
	l->total += n;
}

/**
 * an_diag_format() - render @d as one line for a user
 * @d: diagnostic
 * @buf: output buffer
 * @len: its size
 *
 * The path, the event name and the message (which may quote a trace line)
 * are escaped as lib/utf8.h says: the line holds no control character and
 * is valid UTF-8, even when cut.
 *
 * Return: the length the full line would have, as snprintf().
 */
int an_diag_format(const struct an_diag *d, char *buf, size_t len)
{
	struct line l = { .buf = buf, .size = len, .is_cut = !len };
	char where[96] = "";

	if (d->line)
		snprintf(where, sizeof(where), ": line %llu", d->line);
	else if (d->record && d->cpu >= 0)
		snprintf(where, sizeof(where), ": record %llu (cpu %d)",
			 d->record, d->cpu);
	else if (d->record)
		snprintf(where, sizeof(where), ": record %llu", d->record);
	else if (d->offset >= 0)
		snprintf(where, sizeof(where), ": offset %lld", d->offset);
	put(&l, "cannot ", false);
	put(&l, d->what ? d->what : "read", false);
	put(&l, " '", false);
	put(&l, d->file, true);
	put(&l, "'", false);
	put(&l, where, false);
	put(&l, ": ", false);
	if (d->event[0]) {
		put(&l, d->event, true);
		put(&l, ": ", false);
	}
	put(&l, d->message[0] ? d->message : an_error_str(d->err), true);
	return (int)l.total;
}
