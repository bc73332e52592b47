/* SPDX-License-Identifier: MIT */
/*
 * lib/sha256.h - SHA-256 of trace files (their identity in the database):
 * of bytes in memory (an_sha256_update()), of a range of a regular file
 * (an_sha256_range()), of a whole regular file (an_sha256_file()).
 */
#ifndef UCVAL_LIB_SHA256_H
#define UCVAL_LIB_SHA256_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/diag.h"

/* Hex digits of a digest. */
#define AN_SHA256_HEX_LEN	64

struct an_sha256 {
	uint32_t h[8];
	uint64_t len;		/* bytes hashed so far */
	uint8_t buf[64];	/* the block being filled */
	size_t nr;		/* bytes in buf */
	bool is_ni;		/* the CPU's SHA instructions (x86-64 SHA-NI) */
};

void an_sha256_init(struct an_sha256 *s);
void an_sha256_update(struct an_sha256 *s, const void *data, size_t len);
void an_sha256_final(struct an_sha256 *s, char hex[AN_SHA256_HEX_LEN + 1]);

/**
 * an_sha256_range() - hash bytes [@from, @to) of the file @fd
 * @s: the state
 * @fd: a regular file, read with pread() (its offset stays); borrowed
 * @from: first byte
 * @to: past the last byte
 * @d: filled on failure (its file and action are the caller's)
 *
 * Return: 0, a negative errno, or -EIO when the file ends before @to.
 */
int an_sha256_range(struct an_sha256 *s, int fd, uint64_t from, uint64_t to,
		    struct an_diag *d);

/**
 * an_sha256_file() - digest of a whole regular file
 * @path: the file
 * @hex: AN_SHA256_HEX_LEN + 1 bytes for the lower-case hex digest
 * @d: filled on failure
 *
 * Anything but a regular file (a pipe, a device that never ends) is refused
 * with -EINVAL: hash its bytes as its reader reads them instead.
 *
 * Return: 0 or a negative errno.
 */
int an_sha256_file(const char *path, char hex[AN_SHA256_HEX_LEN + 1], struct an_diag *d);

#endif /* UCVAL_LIB_SHA256_H */
