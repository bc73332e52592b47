/* SPDX-License-Identifier: MIT */
/*
 * lib/sha256.h - SHA-256 of trace files (their identity in the database).
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
int an_sha256_file(const char *path, char hex[AN_SHA256_HEX_LEN + 1], struct an_diag *d);

#endif /* UCVAL_LIB_SHA256_H */
