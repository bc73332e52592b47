// SPDX-License-Identifier: MIT
/*
 * tests/test_an_marker.c - the marker grammar (spec/events.md §3): every kind,
 * hex and decimal flags, percent-decoding, the rt-app alias, ignored kinds and
 * keys, and malformed values. A marker is rendered back as "key=value ..." in
 * table order, so each row states exactly which keys must be present.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "analyze/read/marker.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const struct {
	enum an_marker_kind kind;
	const char *name;
	enum an_marker_type type;
	size_t offset;
} keys[] = {
#define KEY_ROW(id, kind, key, type, member) \
	{ AN_MARKER_##kind, key, AN_MT_##type, offsetof(struct an_marker, member) },
	AN_MARKER_KEYS(KEY_ROW)
#undef KEY_ROW
};

static const char *const models[] = { "?", "v3", "mainline" };
static const char *const policies[] = {
	"SCHED_NORMAL", "SCHED_FIFO", "SCHED_RR", "SCHED_BATCH", "?", "SCHED_IDLE",
	"SCHED_DEADLINE",
};

/* "kind key=value ..." of the present keys, in AN_MARKER_KEYS order. */
static void render(const struct an_marker *m, char *buf, size_t len)
{
	size_t n = (size_t)snprintf(buf, len, "%s", an_marker_kind_name(m->kind));

	for (size_t i = 0; i < ARRAY_SIZE(keys) && n < len; i++) {
		const char *p = (const char *)m + keys[i].offset;

		if (!an_marker_has(m, (enum an_marker_key)i))
			continue;
		assert_int_equal(keys[i].kind, m->kind);
		n += (size_t)snprintf(buf + n, len - n, " %s=", keys[i].name);
		switch (keys[i].type) {
		case AN_MT_U32:
			n += (size_t)snprintf(buf + n, len - n, "%u", *(const unsigned int *)p);
			break;
		case AN_MT_I32:
			n += (size_t)snprintf(buf + n, len - n, "%d", *(const int *)p);
			break;
		case AN_MT_BOOL:
			n += (size_t)snprintf(buf + n, len - n, "%d", *(const bool *)p);
			break;
		case AN_MT_FLAGS:
			n += (size_t)snprintf(buf + n, len - n, "0x%llx",
					      *(const unsigned long long *)p);
			break;
		case AN_MT_FREQS:
			for (unsigned int f = 0; f < m->cpu.nr_freqs; f++)
				n += (size_t)snprintf(buf + n, len - n, "%s%u", f ? "," : "",
						      m->cpu.freqs_khz[f]);
			break;
		case AN_MT_MODEL:
			n += (size_t)snprintf(buf + n, len - n, "%s", models[*(const int *)p]);
			break;
		case AN_MT_POLICY:
			n += (size_t)snprintf(buf + n, len - n, "%s", policies[*(const int *)p]);
			break;
		default:
			n += (size_t)snprintf(buf + n, len - n, "[%s]", p);
			break;
		}
	}
}

static const struct marker_case {
	const char *what;	/* what the row covers */
	const char *text;
	int writer;		/* pid of the writing task */
	int want_rc;
	const char *want;	/* rendering, or the diag field on error */
} cases[] = {
	/* every kind */
	{ "platform, all keys",
	  "ucval: platform cpus=6 model=v3 task_group=0 invariant=1 groups=5 scale=100 tick_us=4000 kernel=4.14.0-rc1+",
	  1, 1, "platform cpus=6 model=v3 task_group=0 invariant=1 groups=5 scale=100 tick_us=4000 kernel=[4.14.0-rc1+]" },
	{ "platform, absent keys stay absent", "ucval: platform model=mainline",
	  1, 1, "platform model=mainline" },
	{ "cpu, all keys",
	  "ucval: cpu cpu=1 policy=1 capacity=1024 freqs=450000,625000,800000,950000,1100000 min=450000 max=1100000 cur=625000 rate_limit_us=10000 governor=schedutil",
	  1, 1, "cpu cpu=1 policy=1 capacity=1024 freqs=450000,625000,800000,950000,1100000 min=450000 max=1100000 cur=625000 rate_limit_us=10000 governor=[schedutil]" },
	{ "cpu, one OPP", "ucval: cpu cpu=0 freqs=850000", 1, 1, "cpu cpu=0 freqs=850000" },
	{ "sysctl", "ucval: sysctl util_min=1024 util_max=1024 util_min_rt_default=512",
	  1, 1, "sysctl util_min=1024 util_max=1024 util_min_rt_default=512" },
	{ "task, all keys",
	  "ucval: task pid=42 comm=rt-app%20w1 util_min=200 util_max=800 cgroup=/top-app policy=SCHED_FIFO reset_on_fork=1",
	  1, 1, "task pid=42 comm=[rt-app w1] util_min=200 util_max=800 cgroup=[/top-app] policy=SCHED_FIFO reset_on_fork=1" },
	{ "task, every policy name", "ucval: task pid=1 policy=SCHED_DEADLINE", 1, 1,
	  "task pid=1 policy=SCHED_DEADLINE" },
	{ "task, SCHED_IDLE", "ucval: task pid=1 policy=SCHED_IDLE", 1, 1, "task pid=1 policy=SCHED_IDLE" },
	{ "task, SCHED_BATCH", "ucval: task pid=1 policy=SCHED_BATCH", 1, 1, "task pid=1 policy=SCHED_BATCH" },
	{ "task, SCHED_RR", "ucval: task pid=1 policy=SCHED_RR", 1, 1, "task pid=1 policy=SCHED_RR" },
	{ "task, SCHED_NORMAL", "ucval: task pid=1 policy=SCHED_NORMAL", 1, 1, "task pid=1 policy=SCHED_NORMAL" },
	{ "cgroup, percent-encoded path",
	  "ucval: cgroup path=/sys/fs/cgroup/cpu/my%20group%2fx%25 util_min=10 util_max=90",
	  1, 1, "cgroup path=[/sys/fs/cgroup/cpu/my group/x%] util_min=10 util_max=90" },
	{ "setattr, decimal flags", "ucval: setattr pid=42 util_min=100 util_max=200 flags=96 ret=0",
	  1, 1, "setattr pid=42 util_min=100 util_max=200 flags=0x60 ret=0" },
	{ "setattr, hex flags and -errno", "ucval: setattr pid=7 util_min=1025 flags=0x60 ret=-22",
	  1, 1, "setattr pid=7 util_min=1025 flags=0x60 ret=-22" },
	{ "setattr, upper-case hex, 64-bit flags", "ucval: setattr pid=7 flags=0XFFFFFFFFFFFFFFFF",
	  1, 1, "setattr pid=7 flags=0xffffffffffffffff" },
	{ "setattr, ret range", "ucval: setattr pid=7 ret=-2147483648", 1, 1, "setattr pid=7 ret=-2147483648" },
	/* layout */
	{ "trailing newline", "ucval: sysctl util_min=5\n", 1, 1, "sysctl util_min=5" },
	{ "extra blanks and tabs", "  ucval:\ttask   pid=3\t util_max=9  ", 1, 1, "task pid=3 util_max=9" },
	/* rt-app alias */
	{ "rt-app alias is setattr by the writer", "rtapp_attrs: event=uclamp util_min=100 util_max=512",
	  77, 1, "setattr pid=77 util_min=100 util_max=512 ret=0" },
	{ "rt-app alias, event key last", "rtapp_attrs: util_max=1024 event=uclamp", 5, 1,
	  "setattr pid=5 util_max=1024 ret=0" },
	{ "rt-app other event ignored", "rtapp_attrs: event=policy policy=SCHED_FIFO util_min=x", 5, 0, "none" },
	{ "rt-app without event ignored", "rtapp_attrs: util_min=1", 5, 0, "none" },
	/* ignored */
	{ "unknown kind ignored", "ucval: frobnicate pid=abc", 1, 0, "none" },
	{ "unknown key ignored", "ucval: task pid=1 colour=blue util_min=oops2", 1, AN_E_VALUE, "util_min" },
	{ "unknown key with bad value ignored", "ucval: task pid=1 colour=%zz", 1, 1, "task pid=1" },
	{ "key of another kind ignored", "ucval: cgroup path=/a pid=nonsense", 1, 1, "cgroup path=[/a]" },
	{ "not a marker: atrace", "B|123|binder transaction", 1, 0, "none" },
	{ "not a marker: devlib", "cpu_frequency_devlib:        state=450000 cpu_id=0", 1, 0, "none" },
	{ "not a marker: prefix only", "ucvalx: task pid=1", 1, 0, "none" },
	{ "not a marker: empty", "", 1, 0, "none" },
	{ "kind only", "ucval: task", 1, 1, "task" },
	{ "no kind", "ucval:", 1, 0, "none" },
	/* malformed values */
	{ "pid not a number", "ucval: task pid=abc", 1, AN_E_VALUE, "pid" },
	{ "negative pid", "ucval: setattr pid=-1", 1, AN_E_VALUE, "pid" },
	{ "empty value", "ucval: task pid=1 util_min=", 1, AN_E_VALUE, "util_min" },
	{ "u32 overflow", "ucval: task util_max=4294967296", 1, AN_E_VALUE, "util_max" },
	{ "u64 overflow", "ucval: setattr flags=18446744073709551616", 1, AN_E_VALUE, "flags" },
	{ "hex without digits", "ucval: setattr flags=0x", 1, AN_E_VALUE, "flags" },
	{ "bad hex digit", "ucval: setattr flags=0x6g", 1, AN_E_VALUE, "flags" },
	{ "hex where decimal is due", "ucval: task util_min=0x10", 1, AN_E_VALUE, "util_min" },
	{ "ret below int", "ucval: setattr ret=-2147483649", 1, AN_E_VALUE, "ret" },
	{ "ret double minus", "ucval: setattr ret=--1", 1, AN_E_VALUE, "ret" },
	{ "bool out of range", "ucval: task reset_on_fork=2", 1, AN_E_VALUE, "reset_on_fork" },
	{ "unknown model", "ucval: platform model=v9", 1, AN_E_VALUE, "model" },
	{ "unknown policy", "ucval: task policy=SCHED_FOO", 1, AN_E_VALUE, "policy" },
	{ "freqs not ascending", "ucval: cpu freqs=3,2,1", 1, AN_E_VALUE, "freqs" },
	{ "freqs repeated", "ucval: cpu freqs=1,1", 1, AN_E_VALUE, "freqs" },
	{ "freqs empty item", "ucval: cpu freqs=1,,2", 1, AN_E_VALUE, "freqs" },
	{ "freqs trailing comma", "ucval: cpu freqs=1,", 1, AN_E_VALUE, "freqs" },
	{ "percent escape cut", "ucval: cgroup path=/a%2", 1, AN_E_VALUE, "path" },
	{ "percent escape not hex", "ucval: cgroup path=/a%zz", 1, AN_E_VALUE, "path" },
	{ "percent NUL", "ucval: cgroup path=/a%00b", 1, AN_E_VALUE, "path" },
	{ "comm too long", "ucval: task comm=abcdefghijklmnop", 1, AN_E_VALUE, "comm" },
	{ "duplicate key", "ucval: task pid=1 pid=2", 1, AN_E_VALUE, "pid" },
	{ "token without '='", "ucval: task pid", 1, AN_E_SYNTAX, "pid" },
	{ "token without key", "ucval: task =5", 1, AN_E_SYNTAX, "=5" },
	{ "rt-app bad value", "rtapp_attrs: event=uclamp util_min=x", 1, AN_E_VALUE, "util_min" },
	{ "rt-app without writer", "rtapp_attrs: event=uclamp util_min=1", -1, AN_E_VALUE, "" },
};

static void test_marker_cases(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct marker_case *c = &cases[i];
		struct an_marker m;
		struct an_diag d;
		char got[1024];
		int rc;

		an_diag_clear(&d);
		memset(&m, 0xa5, sizeof(m));	/* nothing may leak from before */
		rc = an_marker_parse(c->text, strlen(c->text), c->writer, &m, &d);
		if (rc != c->want_rc)
			fail_msg("case %zu (%s): '%s': rc %d want %d (%s)", i, c->what,
				 c->text, rc, c->want_rc, d.message);
		if (rc < 0) {
			if (strcmp(d.field, c->want) || !d.message[0])
				fail_msg("case %zu (%s): diag field '%s' want '%s' (%s)", i,
					 c->what, d.field, c->want, d.message);
			assert_int_equal(m.kind, AN_MARKER_NONE);
			assert_true(m.present == 0);
			continue;
		}
		render(&m, got, sizeof(got));
		if (strcmp(got, c->want))
			fail_msg("case %zu (%s): got '%s' want '%s'", i, c->what, got, c->want);
	}
}

/* Limits that are easier to build than to write: 64 OPPs pass, 65 fail, long paths. */
static void test_marker_limits(void **state)
{
	char text[2048];
	struct an_marker m;
	struct an_diag d;
	size_t n;

	(void)state;
	n = (size_t)snprintf(text, sizeof(text), "ucval: cpu freqs=");
	for (unsigned int f = 1; f <= AN_MARKER_MAX_FREQS; f++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, "%s%u", f > 1 ? "," : "", f * 1000);
	assert_int_equal(an_marker_parse(text, n, 1, &m, &d), 1);
	assert_int_equal(m.cpu.nr_freqs, AN_MARKER_MAX_FREQS);
	assert_int_equal(m.cpu.freqs_khz[AN_MARKER_MAX_FREQS - 1], AN_MARKER_MAX_FREQS * 1000);
	n += (size_t)snprintf(text + n, sizeof(text) - n, ",999999");
	assert_int_equal(an_marker_parse(text, n, 1, &m, &d), AN_E_VALUE);

	n = (size_t)snprintf(text, sizeof(text), "ucval: cgroup path=/");
	memset(text + n, 'a', AN_PATH_LEN - 2);		/* "/" + 254 = 255 chars: fits */
	n += AN_PATH_LEN - 2;
	assert_int_equal(an_marker_parse(text, n, 1, &m, &d), 1);
	assert_int_equal(strlen(m.cgroup.path), AN_PATH_LEN - 1);
	text[n++] = 'a';
	assert_int_equal(an_marker_parse(text, n, 1, &m, &d), AN_E_VALUE);
	assert_string_equal(d.field, "path");

	/* the length bounds the text: nothing after it is read */
	assert_int_equal(an_marker_parse("ucval: task pid=12345", 17, 1, &m, &d), 1);
	assert_int_equal(m.task.pid, 1);
	/* a NULL diagnostic is allowed */
	assert_int_equal(an_marker_parse("ucval: task pid=x", 17, 1, &m, NULL), AN_E_VALUE);
}

static void test_marker_names(void **state)
{
	(void)state;
	assert_string_equal(an_marker_key_name(AN_MK_SETATTR_FLAGS), "flags");
	assert_string_equal(an_marker_key_name(AN_MK__COUNT), "?");
	assert_string_equal(an_marker_kind_name(AN_MARKER_CGROUP), "cgroup");
	assert_string_equal(an_marker_kind_name(AN_MARKER_NONE), "none");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_marker_cases),
		cmocka_unit_test(test_marker_limits),
		cmocka_unit_test(test_marker_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
