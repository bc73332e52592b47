/* SPDX-License-Identifier: MIT */
/*
 * lib/utf8.h - UTF-8 validation, and names shown to people without letting
 * them drive the terminal. Task comms, file and cgroup paths and the trace
 * lines quoted in diagnostics are bytes, not text (prctl(PR_SET_NAME) and
 * file names accept any byte but NUL), so every text output writes them
 * through an_utf8_escape() or an_utf8_fputs():
 *
 *   - a backslash is written "\\", so the escapes below are unambiguous;
 *   - tab, newline and carriage return are written "\t", "\n", "\r"
 *     (a tab would break the alignment of a table, a newline its rows);
 *   - every other C0 control character and DEL is written "\xHH", so ESC
 *     (0x1b) cannot start a terminal escape sequence (CSI, OSC);
 *   - the C1 controls U+0080..U+009F, valid UTF-8 that some terminals obey
 *     like ESC sequences, are written "\u00HH" (the code point);
 *   - a byte that does not belong to a valid UTF-8 sequence (a stray
 *     continuation byte, 0xc0, 0xc1, 0xf5..0xff, a sequence cut short, an
 *     overlong form, a surrogate ED A0..BF, above U+10FFFF) is written
 *     "\xHH", one escape per byte: nothing is lost and nothing is guessed;
 *   - everything else, multi-byte characters included, is kept as it is.
 *
 * "\xHH" is always a byte, "\u00HH" always a character. The result is valid
 * UTF-8 holding no control character (but '\n' with AN_UTF8_KEEP_NL).
 */
#ifndef UCVAL_LIB_UTF8_H
#define UCVAL_LIB_UTF8_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* an_utf8_escape() flag: keep '\n' as a line break (multi-line blocks). */
#define AN_UTF8_KEEP_NL		0x1u

/* Room for the escaped form of one character, NUL included ("\u009b"). */
#define AN_UTF8_UNIT_MAX	8

/**
 * an_utf8_decode() - the character at @s, if @s starts with valid UTF-8
 * @s: the bytes, NUL-terminated
 * @cp: set to the code point when the result is not 0; may be NULL
 *
 * Valid means the shortest form of a scalar value (RFC 3629 §4): no
 * overlong form, no surrogate, nothing above U+10FFFF, no sequence cut by
 * the NUL or by another byte.
 *
 * Return: the sequence's length, 1 to 4; 0 when @s[0] is NUL or starts no
 * valid sequence.
 */
size_t an_utf8_decode(const char *s, uint32_t *cp);

/**
 * an_utf8_is_control() - whether @cp is a control character
 * @cp: a code point
 *
 * Return: true for C0 (U+0000..U+001F), DEL (U+007F) and C1 (U+0080..U+009F).
 */
bool an_utf8_is_control(uint32_t cp);

/**
 * an_utf8_escape_unit() - the escaped form of the character or byte at @s
 * @s: the text, not at its NUL
 * @flags: AN_UTF8_KEEP_NL or 0
 * @unit: set to the escaped form, NUL-terminated
 *
 * Return: the bytes of @s it stands for (1 to 4).
 */
size_t an_utf8_escape_unit(const char *s, unsigned int flags, char unit[AN_UTF8_UNIT_MAX]);

/**
 * an_utf8_escape() - @s escaped for a terminal, into @buf
 * @buf: output, may be NULL when @size is 0
 * @size: its size; the text is cut before the first escaped character that
 *	  does not fit whole, so a cut result is still valid UTF-8
 * @s: the text; NULL is taken as ""
 * @flags: AN_UTF8_KEEP_NL or 0
 *
 * Return: the length of the whole escaped text, as snprintf() (without the
 * NUL): the result was cut when it is @size or more.
 */
size_t an_utf8_escape(char *buf, size_t size, const char *s, unsigned int flags);

/**
 * an_utf8_fputs() - write @s escaped for a terminal
 * @out: the stream
 * @s: the text; NULL writes nothing
 * @flags: AN_UTF8_KEEP_NL or 0
 */
void an_utf8_fputs(FILE *out, const char *s, unsigned int flags);

#endif /* UCVAL_LIB_UTF8_H */
