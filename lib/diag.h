/* SPDX-License-Identifier: MIT */
/*
 * lib/diag.h - error codes and diagnostics of the analyze/ library.
 *
 * Library functions return 0, a negative errno or a negative AN_E_* code; the
 * codes start far below errno's range so one int carries either. A failing
 * call fills a struct an_diag that only cmd_*.c prints (STYLE.md §3).
 */
#ifndef UCVAL_LIB_DIAG_H
#define UCVAL_LIB_DIAG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

/*
 * AN_ERRORS - every analyze/ error code with its message, in one list so a
 * code and its text cannot drift apart. RECOVERABLE codes concern one line or
 * one record: the reader has skipped it and may be called again.
 */
#define AN_ERRORS(X)							\
	X(FORMAT,   0, "unknown trace format")				\
	X(EMPTY,    0, "empty file")					\
	X(CORRUPT,  0, "corrupt or truncated trace data")		\
	X(LIBRARY,  0, "trace library failure")				\
	X(STATE,    0, "reader already failed")				\
	X(CLOCK,    0, "trace clock does not count nanoseconds")		\
	X(SYNTAX,   1, "unparseable line")				\
	X(FIELD,    1, "missing field")					\
	X(VALUE,    1, "bad value")					\
	X(DB,       0, "database failure")				\
	X(SCHEMA,   0, "database written by a newer ucval")

/* Below errno's range (at most 4095), like libtraceevent's __TEP_ERRNO__START. */
#define AN_E__BASE (-100000)

enum an_error {
	AN_E__START = AN_E__BASE,
#define AN_E_ENUM(name, recoverable, msg) AN_E_##name,
	AN_ERRORS(AN_E_ENUM)
#undef AN_E_ENUM
	AN_E__END,
};

/* Sizes of the text members of struct an_diag; longer text is cut. */
#define AN_DIAG_FILE_LEN	512	/* input path as given */
#define AN_DIAG_NAME_LEN	64	/* event or field name */
#define AN_DIAG_MSG_LEN		256	/* one-line reason */

/**
 * struct an_diag - where and why a library call failed
 * @err: the code the call returned
 * @what: the failed action ("open", "read", "decode"), a static string
 * @file: the input path, "" when there is none
 * @line: 1-based text line, 0 when not applicable
 * @record: 1-based record index in a trace.dat, 0 when not applicable
 * @offset: byte offset in the file, -1 when not applicable
 * @cpu: CPU of the record, -1 when not applicable
 * @event: raw event name, "" when not applicable
 * @field: field or marker key, "" when not applicable
 * @message: the reason, lower case, without a full stop
 *
 * Filled by the library, printed only by cmd_*.c through an_diag_format().
 */
struct an_diag {
	int err;
	const char *what;
	char file[AN_DIAG_FILE_LEN];
	unsigned long long line;
	unsigned long long record;
	long long offset;
	int cpu;
	char event[AN_DIAG_NAME_LEN];
	char field[AN_DIAG_NAME_LEN];
	char message[AN_DIAG_MSG_LEN];
};

/**
 * an_error_str() - the message of an error code
 * @err: 0, a negative errno or a negative AN_E_* code
 *
 * Return: a static string, never NULL.
 */
const char *an_error_str(int err);

/**
 * an_error_is_recoverable() - whether a reader may go on after @err
 * @err: a code returned by an_reader_next() or one of the format readers
 *
 * Return: true for per-line/per-record codes (the item was skipped).
 */
bool an_error_is_recoverable(int err);

/**
 * an_diag_clear() - reset @d to "no error, no position"
 * @d: diagnostic to reset, may be NULL
 */
void an_diag_clear(struct an_diag *d);

/**
 * an_diag_set_file() - record the input path and the action in @d
 * @d: diagnostic, may be NULL
 * @what: static action word ("open", "read", "decode")
 * @file: input path, may be NULL
 */
void an_diag_set_file(struct an_diag *d, const char *what, const char *file);

/**
 * an_diag_fail() - fill the reason of @d and return @err
 * @d: diagnostic, may be NULL
 * @err: negative code to store and return
 * @fmt: printf format of the reason, lower case, no full stop
 *
 * Return: @err, so callers can write "return an_diag_fail(d, ...)".
 */
int an_diag_fail(struct an_diag *d, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

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
	__attribute__((format(printf, 3, 0)));

/**
 * an_diag_set_name() - copy an event or field name into @d
 * @dst: d->event or d->field
 * @name: name, need not be NUL-terminated
 * @len: its length
 */
void an_diag_set_name(char dst[AN_DIAG_NAME_LEN], const char *name, size_t len);

/**
 * an_diag_format() - render @d as one line for a user
 * @d: diagnostic
 * @buf: output buffer
 * @len: its size
 *
 * The line reads "cannot decode 'a.dat': record 1832 (cpu 3): sched_switch:
 * no field 'next_pid'" (STYLE.md §3). It is cut to fit @len. The path, the
 * event name and the message are escaped as lib/utf8.h says (they may hold
 * any byte of the trace): the line holds no control character and is valid
 * UTF-8, cut or not.
 *
 * Return: the length the full line would have, as snprintf().
 */
int an_diag_format(const struct an_diag *d, char *buf, size_t len);

#endif /* UCVAL_LIB_DIAG_H */
