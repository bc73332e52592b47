/*
 * analyze/datcheck.h - structural check of a trace.dat before libtracecmd
 * sees it (internal to tracedat.c).
 *
 * libtracecmd 1.3 trusts the file: a trace.dat cut inside its CPU data, an
 * options chain that loops or a string option without its NUL crash it (its
 * error path frees uninitialised lists). Walking the header ourselves, with
 * every size checked against the file, turns those into a diagnostic.
 */
#ifndef UCVAL_ANALYZE_DATCHECK_H
#define UCVAL_ANALYZE_DATCHECK_H

#include <stdbool.h>

#include "analyze/diag.h"

#define AN_DATCHECK_MAX_CPUS 4096	/* more CPU buffers than any machine */

/**
 * struct an_datcheck - what the header walk learnt
 * @version: file version, 6 or 7
 * @is_big_endian: file byte order
 * @compression: v7 compression name, "" when none
 * @nr_cpus: CPUs of the top buffer (or the CPUCOUNT option)
 * @kernel_release: release from the UNAME option, "" when absent
 */
struct an_datcheck {
	int version;
	bool is_big_endian;
	char compression[16];
	int nr_cpus;
	char kernel_release[80];
};

/**
 * an_datcheck_is_magic() - whether @buf starts like a trace.dat
 * @buf: first bytes of a file
 * @len: their number
 *
 * Return: true when the 10-byte magic "\x17\x08\x44tracing" is there.
 */
bool an_datcheck_is_magic(const void *buf, size_t len);

/**
 * an_datcheck_run() - walk and check the structure of trace.dat @path
 * @path: file
 * @out: what was learnt
 * @d: diagnostic (offset of the problem) on failure
 *
 * Return: 0, a negative errno (cannot read), AN_E_CORRUPT (a size or offset
 * outside the file, a malformed option) or AN_E_FORMAT (version or feature
 * ucval does not read: latency data, host/guest options, event hooks).
 */
int an_datcheck_run(const char *path, struct an_datcheck *out, struct an_diag *d);

#endif /* UCVAL_ANALYZE_DATCHECK_H */
