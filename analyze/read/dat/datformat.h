/* SPDX-License-Identifier: MIT */
/*
 * analyze/read/dat/datformat.h - checks of the texts of a trace.dat that libtraceevent
 * parses (internal to datcheck.c).
 */
#ifndef UCVAL_ANALYZE_READ_DAT_DATFORMAT_H
#define UCVAL_ANALYZE_READ_DAT_DATFORMAT_H

#include <stdbool.h>
#include <stddef.h>

/**
 * an_datformat_header_field() - check one header_page field line, get its size
 * @p: line start, moved to the next line
 * @end: end of the header_page text
 * @name: field name ("timestamp", "commit")
 *
 * Return: the size, 0 when the line is malformed.
 */
unsigned int an_datformat_header_field(const char **p, const char *end, const char *name);

/**
 * an_datformat_ok() - check an event format text before libtraceevent parses it
 * @text: the format text
 * @len: its length
 *
 * Return: true when it has no NUL, well-formed field lines with balanced
 * brackets, and a print format naming only declared fields.
 */
bool an_datformat_ok(const char *text, size_t len);

/**
 * an_datformat_printk_ok() - check printk formats before libtraceevent parses them
 * @text: the printk formats section
 * @len: its length
 *
 * Return: true when every line has an address, its ':' and a format of at
 * least three characters (after a leading quote) that libtraceevent reads
 * without going outside the line.
 */
bool an_datformat_printk_ok(const char *text, size_t len);

/*
 * Empty the print format of event format @text (@len bytes kept), in place:
 * true when the result passes an_datformat_ok() (see datformat.c).
 */
bool an_datformat_blank_print(char *text, size_t len);

#endif /* UCVAL_ANALYZE_READ_DAT_DATFORMAT_H */
