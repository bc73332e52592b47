// SPDX-License-Identifier: MIT
/*
 * lib/diag.c - filling and rendering struct an_diag (STYLE.md §3: say
 * what the error is first, subject in single quotes, lower case).
 */
#include <stdio.h>
#include <string.h>

#include "lib/diag.h"

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

/**
 * an_diag_format() - render @d as one line for a user
 * @d: diagnostic
 * @buf: output buffer
 * @len: its size
 *
 * Return: the length the full line would have, as snprintf().
 */
int an_diag_format(const struct an_diag *d, char *buf, size_t len)
{
	char where[96] = "";
	char event[AN_DIAG_NAME_LEN + 2] = "";

	if (d->line)
		snprintf(where, sizeof(where), ": line %llu", d->line);
	else if (d->record && d->cpu >= 0)
		snprintf(where, sizeof(where), ": record %llu (cpu %d)",
			 d->record, d->cpu);
	else if (d->record)
		snprintf(where, sizeof(where), ": record %llu", d->record);
	else if (d->offset >= 0)
		snprintf(where, sizeof(where), ": offset %lld", d->offset);
	if (d->event[0])
		snprintf(event, sizeof(event), "%s:", d->event);

	return snprintf(buf, len, "cannot %s '%s'%s: %s%s%s",
			d->what ? d->what : "read", d->file, where,
			event, event[0] ? " " : "",
			d->message[0] ? d->message : an_error_str(d->err));
}
