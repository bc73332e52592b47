/* SPDX-License-Identifier: MIT */
/*
 * tests/an_testutil.h - helpers shared by the analyze/ test programs: where
 * the public traces are, and a one-line rendering of a canonical event so
 * rows can be compared and printed on failure.
 */
#ifndef UCVAL_TESTS_AN_TESTUTIL_H
#define UCVAL_TESTS_AN_TESTUTIL_H

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze/read/alias.h"
#include "analyze/read/event.h"

/*
 * snprintf() that fails the test when @buf is too small: the tests' paths
 * and commands are short. Uses cmocka's fail_msg(): include after cmocka.h.
 */
static inline void an_test_fmt(char *buf, size_t size, const char *format, ...)
	__attribute__((format(printf, 3, 4)));
static inline void an_test_fmt(char *buf, size_t size, const char *format, ...)
{
	va_list ap;
	int n;

	va_start(ap, format);
	n = vsnprintf(buf, size, format, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= size)
		fail_msg("a path or command longer than %zu bytes", size);
}

/* The repository root: the binary is <root>/<build>/tests/<name>. */
static inline const char *an_test_root(void)
{
	static char root[PATH_MAX];
	ssize_t n;

	if (root[0])
		return root;
	n = readlink("/proc/self/exe", root, sizeof(root) - 1);
	if (n <= 0)
		return ".";
	root[n] = '\0';
	for (int up = 0; up < 3; up++) {
		char *slash = strrchr(root, '/');

		if (slash)
			*slash = '\0';
	}
	return root;
}

/* The shared folder: $UCVAL_SHARED, else ../shared next to the repository root. */
static inline const char *an_test_shared(void)
{
	static char dir[PATH_MAX];
	const char *env = getenv("UCVAL_SHARED");

	if (env && *env)
		return env;
	if (snprintf(dir, sizeof(dir), "%s/../shared", an_test_root()) >= (int)sizeof(dir))
		return "../shared";
	return dir;
}

/* Path of a public trace, or NULL (with a message) when it is absent. */
static inline const char *an_test_trace(const char *name, char *buf, size_t len)
{
	if (snprintf(buf, len, "%s/traces/%s", an_test_shared(), name) >= (int)len ||
	    access(buf, R_OK)) {
		printf("# skip: %s not found (set UCVAL_SHARED)\n", buf);
		return NULL;
	}
	return buf;
}

/* "type cpu=N pid=N f1=v1 f2=v2 ..." of the fields present in @ev. */
static inline void an_test_render(const struct an_event *ev, char *buf, size_t len)
{
	const struct an_alias_type *t = an_alias_type(ev->type);
	size_t n = (size_t)snprintf(buf, len, "%s cpu=%d pid=%d",
				    an_event_type_name(ev->type), ev->cpu, ev->pid);

	for (unsigned int i = 0; i < t->nr_fields && n < len; i++) {
		const struct an_alias_field *f = &t->fields[i];
		const char *p = (const char *)ev + f->offset;

		if (!(ev->present & (1u << i)))
			continue;
		n += (size_t)snprintf(buf + n, len - n, " %s=", f->names[0]);
		if (n >= len)
			break;
		switch (f->kind) {
		case AN_FK_INT:
			n += (size_t)snprintf(buf + n, len - n, "%d", *(const int *)p);
			break;
		case AN_FK_UINT:
			n += (size_t)snprintf(buf + n, len - n, "%u", *(const unsigned int *)p);
			break;
		case AN_FK_LLONG:
			n += (size_t)snprintf(buf + n, len - n, "%lld", *(const long long *)p);
			break;
		case AN_FK_TEXT:
			n += (size_t)snprintf(buf + n, len - n, "'%.*s'", (int)ev->print.len,
					      ev->print.text);
			break;
		case AN_FK_MASK:
			n += (size_t)snprintf(buf + n, len - n, "0x%llx",
					      *(const unsigned long long *)p);
			break;
		default:
			n += (size_t)snprintf(buf + n, len - n, "%s", p);
			break;
		}
	}
	if (ev->type == AN_EV_LOST_EVENTS && n < len)
		snprintf(buf + n, len - n, " count=%llu", ev->lost.count);
	else if (ev->type == AN_EV_PRINT && ev->print.marker.kind && n < len)
		snprintf(buf + n, len - n, " marker=%s",
			 an_marker_kind_name(ev->print.marker.kind));
}

/*
 * A database written by this ucval (schema 3: intervals in chunks behind
 * views) turned into what schema 2 stored: the interval tables, one row an
 * interval, with their indexes. For the tests of the upgrade.
 */
#define AN_TEST_TO_SCHEMA2_SQL \
	"CREATE TABLE c2 AS SELECT * FROM clamp_intervals;" \
	"CREATE TABLE f2 AS SELECT * FROM freq_intervals;" \
	"DROP VIEW clamp_intervals; DROP VIEW freq_intervals;" \
	"DROP TABLE clamp_interval_chunks; DROP TABLE freq_interval_chunks;" \
	"ALTER TABLE c2 RENAME TO clamp_intervals; ALTER TABLE f2 RENAME TO freq_intervals;" \
	"CREATE INDEX clamp_intervals_by_cpu ON clamp_intervals(trace_id, cpu, ts_start_ns);" \
	"CREATE INDEX freq_intervals_by_policy ON freq_intervals(trace_id, policy, ts_start_ns);" \
	"PRAGMA user_version = 2;"

#endif /* UCVAL_TESTS_AN_TESTUTIL_H */
