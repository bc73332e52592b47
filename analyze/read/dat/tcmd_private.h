/* SPDX-License-Identifier: MIT */
/*
 * analyze/read/dat/tcmd_private.h - the functions of libtracecmd's private API
 * that ucval calls: the library exports them, but they are declared only in
 * trace-cmd's private header (lib/trace-cmd/include/private/trace-cmd-private.h),
 * which no package installs. This is the only file that declares them.
 *
 * Checked against libtracecmd 1.3.1 (libtracecmd.so.1.3.1, Debian
 * libtracecmd-dev 3.1.6-1, trace-cmd v3.1.6): each prototype is copied from
 * trace-cmd-private.h at trace-cmd v3.1.6, and each symbol is in the
 * dynamic symbol table of the library (`nm -D --defined-only`). Nothing in
 * the installed headers gives the library's version, so the compile-time
 * check below pins a minimum (1.3), not a maximum. Check these prototypes
 * again when libtracecmd changes: since libtracecmd 1.5.3,
 * tracecmd_compress_buffer_read() is
 * `ssize_t (struct tracecmd_compression *, char *dst, size_t len)`.
 *
 * Should a later <trace-cmd.h> declare one of these with another type, the
 * compiler rejects the conflicting declaration here.
 */
#ifndef UCVAL_ANALYZE_READ_DAT_TCMD_PRIVATE_H
#define UCVAL_ANALYZE_READ_DAT_TCMD_PRIVATE_H

#include <stdbool.h>

#include <trace-cmd.h>

/*
 * libtracecmd 1.3 or later: tracecmd_follow_missed_events() came with 1.3.0,
 * so an older <trace-cmd.h> stops the build here ("undeclared").
 */
_Static_assert(sizeof(&tracecmd_follow_missed_events) > 0,
	       "libtracecmd 1.3 or later (tcmd_private.h was checked against 1.3.1)");

struct tep_handle;
struct tep_record;
struct tracecmd_compression;
struct tracecmd_input;
struct tracecmd_msg_handle;

/* ---- trace-input.c: the next record of all CPUs, in timestamp order (later
 * trace-cmd declares it in trace-cmd-private-python.h, same prototype) ---- */

struct tep_record *tracecmd_read_next_data(struct tracecmd_input *handle, int *rec_cpu);

/* ---- trace-compress.c: the decompressors of v7 sections and CPU data chunks ---- */

struct tracecmd_compression *tracecmd_compress_alloc(const char *name, const char *version,
						     int fd, struct tep_handle *tep,
						     struct tracecmd_msg_handle *msg_handle);
void tracecmd_compress_destroy(struct tracecmd_compression *handle);
int tracecmd_uncompress_block(struct tracecmd_compression *handle);
int tracecmd_compress_buffer_read(struct tracecmd_compression *handle, char *dst, int len);
bool tracecmd_compress_is_supported(const char *name, const char *version);

#endif /* UCVAL_ANALYZE_READ_DAT_TCMD_PRIVATE_H */
