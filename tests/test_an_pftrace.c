// SPDX-License-Identifier: MIT
/*
 * tests/test_an_pftrace.c - the Perfetto trace reader: the wire decoder,
 * the schema table against the alias table, every fixture of
 * traces/perfetto/ event by event (typed events, compact_sched, both
 * generic encodings over sequences, losses, the platform, CPUs out of
 * order in the file), format detection, malformed files (exit 2 with the
 * offset and what was expected there), pipes, and `ucval analyze` on a
 * fixture.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/pbwire.h"
#include "analyze/read/alias.h"
#include "analyze/read/pfschema.h"
#include "analyze/read/pfgeneric.h"
#include "analyze/read/pftrace.h"
#include "analyze/read/reader.h"
#include "tests/an_testutil.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define FIXTURES "traces/perfetto/"

/* ---- the wire decoder ---- */

static const struct wire_case {
	const char *what;
	const char *bytes;
	size_t len;
	int want_rc;		/* of the first an_pb_next() */
	uint32_t number;
	enum an_pb_wire wire;
	uint64_t value;		/* varint/fixed value, or LEN length */
} wires[] = {
	{ "varint", "\x08\x96\x01", 3, 1, 1, AN_PB_VARINT, 150 },
	{ "varint, 10 bytes (-1 as int64)",
	  "\x10\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 11, 1, 2, AN_PB_VARINT, UINT64_MAX },
	{ "fixed64", "\x19\x01\x02\x03\x04\x05\x06\x07\x08", 9, 1, 3, AN_PB_I64,
	  0x0807060504030201ULL },
	{ "fixed32", "\x25\x78\x56\x34\x12", 5, 1, 4, AN_PB_I32, 0x12345678 },
	{ "length-delimited", "\x2a\x03" "abc", 5, 1, 5, AN_PB_LEN, 3 },
	{ "group skipped whole", "\x33\x08\x01\x3b\x08\x02\x3c\x34", 8, 1, 6, AN_PB_SGROUP, 6 },
	{ "field number 2^29-1", "\xf8\xff\xff\xff\x0f\x00", 6, 1, 536870911, AN_PB_VARINT, 0 },
	{ "truncated varint", "\x08\x96", 2, AN_PB_E_VARINT, 0, 0, 0 },
	{ "varint of 11 bytes", "\x08\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 12,
	  AN_PB_E_VARINT, 0, 0, 0 },
	{ "length past the end", "\x2a\x05" "abc", 5, AN_PB_E_LEN, 0, 0, 0 },
	{ "fixed64 cut", "\x19\x01\x02\x03", 4, AN_PB_E_LEN, 0, 0, 0 },
	{ "wire type 7", "\x0f\x00", 2, AN_PB_E_WIRE, 0, 0, 0 },
	{ "end group alone", "\x0c", 1, AN_PB_E_WIRE, 0, 0, 0 },
	{ "group without its end", "\x0b\x08\x01", 3, AN_PB_E_GROUP, 0, 0, 0 },
	{ "group ended by another number", "\x0b\x14", 2, AN_PB_E_GROUP, 0, 0, 0 },
	{ "field number 0", "\x00\x01", 2, AN_PB_E_FIELD, 0, 0, 0 },
	{ "empty", "", 0, 0, 0, 0, 0 },
};

static void test_pbwire(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(wires); i++) {
		const struct wire_case *c = &wires[i];
		struct an_pb pb;
		struct an_pb_field f;
		int rc;

		an_pb_init(&pb, c->bytes, c->len);
		rc = an_pb_next(&pb, &f);
		if (rc != c->want_rc)
			fail_msg("case %zu (%s): rc %d want %d", i, c->what, rc, c->want_rc);
		if (rc != 1)
			continue;
		assert_int_equal(f.number, c->number);
		assert_int_equal(f.wire, c->wire);
		assert_true((c->wire == AN_PB_LEN || c->wire == AN_PB_SGROUP ? f.len : f.value) ==
			    c->value);
		assert_int_equal(an_pb_next(&pb, &f), 0);
	}
	assert_int_equal(an_pb_zigzag(0), 0);
	assert_int_equal(an_pb_zigzag(1), -1);
	assert_int_equal(an_pb_zigzag(4), 2);
	assert_true(an_pb_zigzag(UINT64_MAX) == INT64_MIN);
}

static void test_pbwire_packed(void **state)
{
	static const char run[] = "\x0a\x05\x01\x96\x01\x7f\x00";	/* 1, 150, 127, 0 */
	uint64_t v, got[4];
	struct an_pb pb;
	struct an_pb_field f;
	struct an_pb_packed it;
	size_t n = 0;

	(void)state;
	an_pb_init(&pb, run, 7);
	assert_int_equal(an_pb_next(&pb, &f), 1);
	assert_int_equal(an_pb_packed_init(&it, &f, AN_PB_VARINT), 0);
	while (an_pb_packed_next(&it, &v) == 1 && n < 4)
		got[n++] = v;
	assert_int_equal(n, 4);
	assert_true(got[0] == 1 && got[1] == 150 && got[2] == 127 && got[3] == 0);
	/* a run cut inside its last varint */
	an_pb_init(&pb, "\x0a\x02\x01\x96", 4);
	assert_int_equal(an_pb_next(&pb, &f), 1);
	assert_int_equal(an_pb_packed_init(&it, &f, AN_PB_VARINT), 0);
	assert_int_equal(an_pb_packed_next(&it, &v), 1);
	assert_int_equal(an_pb_packed_next(&it, &v), AN_PB_E_VARINT);
	/* one value not packed */
	an_pb_init(&pb, "\x08\x05", 2);
	assert_int_equal(an_pb_next(&pb, &f), 1);
	assert_int_equal(an_pb_packed_init(&it, &f, AN_PB_VARINT), 0);
	assert_int_equal(an_pb_packed_next(&it, &v), 1);
	assert_true(v == 5);
	assert_int_equal(an_pb_packed_next(&it, &v), 0);
	assert_int_equal(an_pb_packed_init(&it, &f, AN_PB_I32), AN_PB_E_WIRE);
}

/* ---- the schema ---- */

static void test_schema(void **state)
{
	const struct an_pf_event *e, *last = NULL;

	(void)state;
	for (unsigned int i = 0; (e = an_pfschema_at(i)); i++) {
		if (last && e->id <= last->id)
			fail_msg("%s: the table is not in ascending id order", e->name);
		last = e;
		assert_ptr_equal(an_pfschema_by_id(e->id), e);
		assert_ptr_equal(an_pfschema_by_name(e->name), e);
		if (an_alias_lookup(e->name, strlen(e->name)) != e->type)
			fail_msg("%s: type %d, the alias table says %d", e->name, e->type,
				 an_alias_lookup(e->name, strlen(e->name)));
		for (unsigned int k = 0; e->type != AN_EV_UNKNOWN && k < e->nr_fields; k++) {
			const char *n = e->fields[k].name;

			if (an_alias_field_index(e->type, n, strlen(n)) < 0)
				fail_msg("%s.%s: no such field in the alias table", e->name, n);
			assert_ptr_equal(an_pfschema_field(e, e->fields[k].number), &e->fields[k]);
		}
	}
	assert_non_null(an_pfschema_by_id(4));
	assert_string_equal(an_pfschema_by_id(540)->name, "sched_wakeup_task_attr");
	assert_null(an_pfschema_by_id(5));
	assert_null(an_pfschema_by_name("uclamp_util_cfs"));
}

/* ---- the fixtures, event by event ---- */

/* "ts render", or "ts unknown NAME", or "ts ERR code field". */
static void render_item(const struct an_event *ev, char *buf, size_t len)
{
	size_t n = (size_t)snprintf(buf, len, "%llu ", (unsigned long long)ev->ts_ns);

	if (ev->type == AN_EV_UNKNOWN)
		snprintf(buf + n, len - n, "unknown:%s cpu=%d pid=%d", ev->name, ev->cpu, ev->pid);
	else
		an_test_render(ev, buf + n, len - n);
	if (ev->type == AN_EV_LOST_EVENTS && ev->lost.is_unplaced)
		strncat(buf, " unplaced", len - strlen(buf) - 1);
}

/* Every item of @path, one a line, into @out. Return: the reader's final rc. */
static int read_all(const char *path, char *out, size_t len, struct an_reader_info *info)
{
	struct an_reader *r;
	struct an_event ev;
	struct an_diag d;
	size_t n = 0;
	int rc;

	out[0] = '\0';
	rc = an_reader_open(path, &r, &d);
	if (rc)
		return rc;
	while ((rc = an_reader_next(r, &ev, &d)) != 0) {
		char item[768];

		if (rc < 0 && !an_error_is_recoverable(rc))
			break;
		if (rc < 0)
			snprintf(item, sizeof(item), "ERR %s %s", an_error_str(rc), d.field);
		else
			render_item(&ev, item, sizeof(item));
		n += (size_t)snprintf(out + n, len - n, "%s\n", item);
		assert_true(n < len);
	}
	if (info)
		*info = *an_reader_info(r);
	an_reader_close(r);
	return rc;
}

static const struct fixture_case {
	const char *name;
	const char *want;
} fixtures[] = {
	{ "typed",
	  "2000000000 print cpu=0 pid=0 buf='ucval: cpu cpu=0 capacity=380 freqs=600000,1200000,1800000' marker=cpu\n"
	  "2000000000 print cpu=0 pid=0 buf='ucval: cpu cpu=1 capacity=1024 freqs=600000,1500000,2400000' marker=cpu\n"
	  "2000000000 print cpu=0 pid=1 buf='ucval: task pid=300 comm=app util_min=128' marker=task\n"
	  "2000001000 print cpu=0 pid=300 buf='B|300|inflate'\n"
	  "2000001500 cpu_idle cpu=1 pid=0 state=4294967295 cpu_id=1\n"
	  "2000002000 sched_switch cpu=0 pid=0 prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R next_comm=app next_pid=300 next_prio=110\n"
	  "2000003000 cpu_frequency cpu=0 pid=300 state=1200000 cpu_id=0\n"
	  "2000004000 cpu_frequency_limits cpu=0 pid=300 min_freq=600000 max_freq=1800000 cpu_id=0\n"
	  "2000005000 sched_process_fork cpu=0 pid=300 parent_comm=app parent_pid=300 child_comm=app child_pid=301\n"
	  "2000006000 sched_wakeup_new cpu=0 pid=300 comm=app pid=301 prio=120 target_cpu=1\n"
	  "2000006500 sched_waking cpu=1 pid=0 comm=app pid=301 prio=120 target_cpu=1\n"
	  "2000007000 sched_wakeup cpu=1 pid=0 comm=app pid=301 prio=120 target_cpu=1\n"
	  "2000007500 unknown:sched_wakeup_task_attr cpu=1 pid=0\n"
	  "2000008000 sched_switch cpu=1 pid=0 prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R next_comm=app next_pid=301 next_prio=120\n"
	  "2000009000 unknown:sched_cpu_util_cfs cpu=1 pid=301\n"
	  "2000010000 sched_migrate_task cpu=0 pid=300 comm=app pid=301 prio=120 orig_cpu=1 dest_cpu=0\n"
	  "2000011000 print cpu=0 pid=300 buf='E|300'\n"
	  "2000012000 sched_process_exit cpu=0 pid=300 comm=app pid=300 prio=110\n"
	  "2000013000 sched_switch cpu=0 pid=300 prev_comm=app prev_pid=300 prev_prio=110 prev_state=X next_comm=swapper/0 next_pid=0 next_prio=120\n"
	  "2000014000 sched_process_free cpu=0 pid=0 comm=app pid=300 prio=110\n"
	  "2000015000 cpu_idle cpu=0 pid=0 state=1 cpu_id=0\n"
	},
	{ "compact",
	  "5000000000 lost_events cpu=2 pid=-1 count=7 unplaced\n"
	  "5000000000 sched_switch cpu=2 pid=-1 prev_pid=-1 prev_state=S next_comm=kworker/2:1 next_pid=60 next_prio=120\n"
	  "5000050000 sched_waking cpu=2 pid=60 comm=surfaceflinger pid=520 prio=97 target_cpu=2\n"
	  "5000100000 sched_switch cpu=2 pid=60 prev_comm=kworker/2:1 prev_pid=60 prev_prio=120 prev_state=R next_comm=surfaceflinger next_pid=520 next_prio=97\n"
	  "5000150000 print cpu=2 pid=520 buf='C|520|frames|3'\n"
	  "5000200000 sched_switch cpu=2 pid=520 prev_comm=surfaceflinger prev_pid=520 prev_prio=97 prev_state=R+ next_comm=swapper/2 next_pid=0 next_prio=120\n"
	  "5000900000 lost_events cpu=2 pid=-1 count=0\n"
	  "5000900000 sched_waking cpu=2 pid=-1 comm=kworker/2:1 pid=61 prio=120 target_cpu=0\n"
	  "5001000000 sched_switch cpu=2 pid=-1 prev_pid=-1 prev_state=D next_comm=kworker/2:1 next_pid=60 next_prio=120\n"
	},
	{ "generic",
	  "7000000000 uclamp_util_cfs cpu=0 pid=42 cpu=0 util_avg=180 uclamp_avg=300 uclamp_min=300 uclamp_max=1024\n"
	  "7000001000 sched_pelt_cfs cpu=0 pid=42 cpu=0 path=/ util=180\n"
	  "7000002000 sugov_util_update cpu=0 pid=42 cpu=0 util=300 max_cap=1024 flags=0\n"
	  "7000003000 uclamp_util_cfs cpu=0 pid=42 cpu=0 util_avg=190 uclamp_avg=300 uclamp_min=300 uclamp_max=1024\n"
	  "7000004000 uclamp_request cpu=0 pid=42 comm=game pid=42 clamp_id=0 value=300\n"
	  "7000005000 unknown:ftrace_event_65536 cpu=1 pid=43\n"
	  "7000006000 unknown:thermal_pressure_update cpu=1 pid=43\n"
	  "7000007000 unknown:ftrace_event_65536 cpu=0 pid=42\n"
	},
	{ "rq_clamp-pass",
	  "10000000000 print cpu=0 pid=1 buf='ucval: platform cpus=2 model=v3 groups=5 scale=1024' marker=platform\n"
	  "10000100000 print cpu=0 pid=1 buf='ucval: task pid=100 comm=a util_min=256 util_max=512' marker=task\n"
	  "10000200000 print cpu=0 pid=1 buf='ucval: task pid=200 comm=b util_max=768' marker=task\n"
	  "10001000000 sched_switch cpu=1 pid=100 prev_comm=a prev_pid=100 prev_prio=120 prev_state=S next_comm=swapper/1 next_pid=0 next_prio=120\n"
	  "10001500000 uclamp_util_cfs cpu=1 pid=0 cpu=1 util_avg=0 uclamp_avg=0 uclamp_min=0 uclamp_max=512\n"
	  "10002000000 uclamp_util_cfs cpu=1 pid=0 cpu=1 util_avg=10 uclamp_avg=10 uclamp_min=0 uclamp_max=768\n"
	  "10002000000 sched_wakeup cpu=1 pid=0 comm=b pid=200 prio=120 target_cpu=1\n"
	  "10002100000 sched_switch cpu=1 pid=0 prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R next_comm=b next_pid=200 next_prio=120\n"
	  "10003000000 sched_wakeup cpu=1 pid=200 comm=a pid=100 prio=120 target_cpu=1\n"
	  "10003050000 uclamp_util_cfs cpu=1 pid=200 cpu=1 util_avg=20 uclamp_avg=256 uclamp_min=256 uclamp_max=768\n"
	  "10004000000 sched_switch cpu=1 pid=200 prev_comm=b prev_pid=200 prev_prio=120 prev_state=S next_comm=a next_pid=100 next_prio=120\n"
	  "10004100000 uclamp_util_se cpu=1 pid=100 comm=a pid=100 cpu=1 util_avg=30 uclamp_avg=256 uclamp_min=256 uclamp_max=512\n"
	  "10005000000 sched_switch cpu=1 pid=100 prev_comm=a prev_pid=100 prev_prio=120 prev_state=S next_comm=swapper/1 next_pid=0 next_prio=120\n"
	  "10005100000 uclamp_util_cfs cpu=1 pid=0 cpu=1 util_avg=25 uclamp_avg=25 uclamp_min=0 uclamp_max=512\n"
	  "10006000000 sched_wakeup cpu=1 pid=0 comm=b pid=200 prio=120 target_cpu=1\n"
	  "10006100000 uclamp_util_cfs cpu=1 pid=0 cpu=1 util_avg=20 uclamp_avg=20 uclamp_min=0 uclamp_max=768\n"
	},
};

static void test_fixtures(void **state)
{
	static char got[32768];

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(fixtures); i++) {
		char path[256];
		int rc;

		snprintf(path, sizeof(path), FIXTURES "%s.pftrace", fixtures[i].name);
		rc = read_all(path, got, sizeof(got), NULL);
		if (getenv("PFTRACE_DUMP"))
			printf("== %s rc %d\n%s", fixtures[i].name, rc, got);
		else if (rc || strcmp(got, fixtures[i].want))
			fail_msg("%s: rc %d, got\n%s\nwant\n%s", fixtures[i].name, rc, got,
				 fixtures[i].want);
	}
}

static void test_fixture_info(void **state)
{
	static char got[32768];
	struct an_reader_info info;

	(void)state;
	assert_int_equal(read_all(FIXTURES "typed.pftrace", got, sizeof(got), &info), 0);
	assert_string_equal(info.format_name, "perfetto");
	assert_int_equal(info.format, AN_FORMAT_PERFETTO);
	assert_int_equal(info.nr_cpus, 2);			/* CpuInfo */
	assert_string_equal(info.kernel_release, "6.1.25-android14");
	assert_int_equal(info.nr_unknown, 2);
	assert_int_equal(read_all(FIXTURES "compact.pftrace", got, sizeof(got), &info), 0);
	assert_int_equal(info.nr_cpus, 3);			/* no CpuInfo: the bundles' */
	assert_string_equal(info.kernel_release, "");
	assert_true(info.nr_lost == 7 && info.nr_lost_unplaced == 7 && info.nr_lost_unknown == 1);
	assert_int_equal(read_all(FIXTURES "rq_clamp-pass.pftrace", got, sizeof(got), &info), 0);
	assert_int_equal(info.nr_cpus, 2);			/* SystemInfo num_cpus */
	assert_string_equal(info.kernel_release, "4.19.0-uclamp");
}

/* ---- detection ---- */

static void test_detect(void **state)
{
	static const struct {
		const char *what;
		const char *bytes;
		size_t len;
		enum an_format want;
	} cases[] = {
		{ "text starting with a newline (0x0a, like a packet)",
		  "\n# tracer: nop\n a-1 [000] 1.000000: cpu_idle: state=1 cpu_id=0\n", 0,
		  AN_FORMAT_TEXT },
		{ "newline then garbage", "\n#2345 tracer: nop", 0, AN_FORMAT_UNKNOWN },
		{ "html", "<html>\n<script class=\"trace-data\">\n</script>", 0, AN_FORMAT_HTML },
		{ "trace.dat magic", "\x17\x08\x44tracing6\0\0\0\0", 14, AN_FORMAT_TRACEDAT },
		{ "packet with a cut varint", "\x0a\x02\x08\x96", 4, AN_FORMAT_UNKNOWN },
		{ "packet then not a packet", "\x0a\x02\x08\x01\x12", 5, AN_FORMAT_UNKNOWN },
		{ "two packets", "\x0a\x02\x08\x01\x0a\x02\x50\x01", 8, AN_FORMAT_PERFETTO },
		{ "a packet the probe cuts", "\x0a\x7f\x50\x01\x0a\x10\x08\x01", 8, AN_FORMAT_PERFETTO },
		/* a first packet larger than the probe: its first field cut */
		{ "a bundle the probe cuts, first in its packet",
		  "\x0a\x90\x4e\x0a\x8c\x4e\x08\x00\x12\x05", 10, AN_FORMAT_PERFETTO },
		{ "a cut field longer than its packet", "\x0a\x10\x0a\x8c\x4e\x08\x00", 7,
		  AN_FORMAT_UNKNOWN },
		{ "a cut field of a varint wire type", "\x0a\x90\x4e\x08\x96", 5, AN_FORMAT_UNKNOWN },
	};
	char buf[8192];
	FILE *fp;
	size_t n;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		size_t len = cases[i].len ? cases[i].len : strlen(cases[i].bytes);

		if (an_reader_detect(cases[i].bytes, len) != cases[i].want)
			fail_msg("case %zu (%s): %d", i, cases[i].what,
				 an_reader_detect(cases[i].bytes, len));
	}
	fp = fopen(FIXTURES "typed.pftrace", "rb");
	assert_non_null(fp);
	n = fread(buf, 1, sizeof(buf), fp);
	fclose(fp);
	assert_int_equal(an_reader_detect(buf, n), AN_FORMAT_PERFETTO);
}

/* ---- malformed files ---- */

/* @head (a valid trace's bytes or none), then @tail, into a temporary file. */
static void write_file(const char *path, const char *head_path, const char *tail, size_t len)
{
	char buf[4096];
	FILE *out = fopen(path, "wb"), *in;
	size_t n;

	assert_non_null(out);
	if (head_path) {
		in = fopen(head_path, "rb");
		assert_non_null(in);
		while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
			assert_int_equal(fwrite(buf, 1, n, out), n);
		fclose(in);
	}
	assert_int_equal(fwrite(tail, 1, len, out), len);
	assert_int_equal(fclose(out), 0);
}

static const struct bad_case {
	const char *what;
	const char *tail;
	size_t len;
	long long offset;	/* -1: after typed.pftrace (760 bytes) */
	const char *message;
} bads[] = {
	{ "a packet's length cut", "\x0a\x96", 2, 760,
	  "a truncated or overlong varint where a packet's length was expected" },
	{ "a length past the end", "\x0a\x05\x08\x01", 4, 760,
	  "a packet of 5 bytes expected, the file ends after 2" },
	{ "a varint cut inside a packet", "\x0a\x02\x08\x96", 4, 762,
	  "malformed packet: a varint cut short or longer than 10 bytes" },
	{ "a top-level field not length-delimited", "\x08\x01", 2, 760,
	  "a field of wire type other than length-delimited where a TracePacket was expected" },
	{ "compressed packets", "\x0a\x04\x92\x03\x01\x00", 6, 762,
	  "compressed packets, which ucval does not read (traceconv decompress_packets writes "
	  "the trace without them)" },
	{ "compact arrays of unequal lengths",
	  "\x0a\x1c\x0a\x1a\x08\x00\x22\x16"
	  "\x0a\x02\x01\x02" "\x12\x01\x00" "\x1a\x02\x01\x02" "\x22\x02\x01\x02"
	  "\x32\x02\x00\x00" "\x2a\x01" "a", 30, 772,
	  "compact_sched field 2: 1 values where its timestamps have 2" },
};

static void test_bad_files(void **state)
{
	char path[] = "/tmp/ucval-pftrace-XXXXXX";
	struct an_reader *r;
	struct an_diag d;
	int fd, rc;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	for (size_t i = 0; i < ARRAY_SIZE(bads); i++) {
		const struct bad_case *c = &bads[i];

		write_file(path, FIXTURES "typed.pftrace", c->tail, c->len);
		rc = an_reader_open(path, &r, &d);
		if (rc != AN_E_CORRUPT || d.offset != c->offset || strcmp(d.message, c->message))
			fail_msg("case %zu (%s): rc %d offset %lld '%s'", i, c->what, rc, d.offset,
				 d.message);
		assert_null(r);
	}
	unlink(path);
}

/* A packet larger than the cap, in a sparse file that has its bytes. */
static void test_packet_too_big(void **state)
{
	char path[] = "/tmp/ucval-pftrace-XXXXXX";
	/* field 1, length 64 MiB + 1 (varint 0x4000001) */
	static const char head[] = "\x0a\x81\x80\x80\x20";
	struct an_reader *r;
	struct an_diag d;
	int fd, rc;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	write_file(path, FIXTURES "typed.pftrace", head, 5);
	assert_int_equal(truncate(path, 760 + 5 + AN_PFTRACE_PACKET_MAX + 1), 0);
	rc = an_reader_open(path, &r, &d);
	assert_int_equal(rc, AN_E_CORRUPT);
	assert_int_equal(d.offset, 760);
	assert_string_equal(d.message, "a packet of 67108865 bytes, more than the 64 MiB a "
			    "packet may have");
	unlink(path);
}

/* A known event without a required field: skipped, the reader goes on. */
static void test_bad_event(void **state)
{
	/* cpu 0: sched_switch{prev_pid:1 prev_state:0} at 5, cpu_idle{1, 0} at 6 */
	static const char trace[] =
		"\x0a\x18\x0a\x16\x08\x00"
		"\x12\x08\x08\x05\x22\x04\x10\x01\x20\x00"
		"\x12\x08\x08\x06\x6a\x04\x08\x01\x10\x00";
	char path[] = "/tmp/ucval-pftrace-XXXXXX", got[512];
	int fd;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	write_file(path, NULL, trace, sizeof(trace) - 1);
	assert_int_equal(read_all(path, got, sizeof(got), NULL), 0);
	assert_string_equal(got, "ERR missing field next_pid\n"
			    "6 cpu_idle cpu=0 pid=0 state=1 cpu_id=0\n");
	unlink(path);
}

/* ---- a pipe: spooled, the same events ---- */

static void test_pipe(void **state)
{
	static char want[32768], got[32768];
	char path[64], buf[4096];
	int p[2];
	pid_t pid;

	(void)state;
	assert_int_equal(read_all(FIXTURES "compact.pftrace", want, sizeof(want), NULL), 0);
	assert_int_equal(pipe(p), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		FILE *in = fopen(FIXTURES "compact.pftrace", "rb");
		size_t n;

		close(p[0]);
		while (in && (n = fread(buf, 1, sizeof(buf), in)) > 0)
			if (write(p[1], buf, n) != (ssize_t)n)
				_exit(1);
		_exit(0);
	}
	close(p[1]);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", p[0]);
	assert_int_equal(read_all(path, got, sizeof(got), NULL), 0);
	close(p[0]);
	waitpid(pid, NULL, 0);
	assert_string_equal(got, want);
}

/* ---- ucval analyze ---- */

/* The output of @cmd after its first line, and its exit status. */
static int run(const char *cmd, char *out, size_t len)
{
	FILE *fp = popen(cmd, "r");
	size_t n;
	char *nl;

	assert_non_null(fp);
	n = fread(out, 1, len - 1, fp);
	out[n] = '\0';
	nl = strchr(out, '\n');
	if (nl)
		memmove(out, nl + 1, strlen(nl + 1) + 1);
	return WEXITSTATUS(pclose(fp));
}

/* The console's words for a Perfetto trace's evidence made those of text. */
static void same_but_evidence(char *out)
{
	static const char pf[] = "the trace config's list of events is not read";
	static const char text[] = "ftrace text lists no enabled events";
	char *p = strstr(out, pf);

	assert_non_null(p);
	memmove(p + strlen(text), p + strlen(pf), strlen(p + strlen(pf)) + 1);
	memcpy(p, text, strlen(text));
}

/*
 * Event names are kept once each and matched on their whole length: a name
 * with a NUL inside is cut at it, and no stored name is read past its end
 * (a generic event named "ab\0..." read past "ab"'s copy: ASan, make fuzz).
 */
static void test_generic_names(void **state)
{
	static const struct {
		const char *s;
		size_t len;
		const char *want;	/* the stored text */
		int same_as;		/* the row whose copy it must be, -1: a new one */
	} rows[] = {
		{ "uclamp_util_cfs", 15, "uclamp_util_cfs", -1 },
		{ "ab", 2, "ab", -1 },
		{ "ab\0\0\0\0\0", 7, "ab", 1 },
		{ "uclamp_util_cfs\0x", 17, "uclamp_util_cfs", 0 },
		{ "uclamp_util_c", 13, "uclamp_util_c", -1 },
		{ "abc", 3, "abc", -1 },
	};
	struct an_pfgen g = { 0 };
	const char *got[ARRAY_SIZE(rows)];

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		got[i] = an_pfgen_name(&g, rows[i].s, rows[i].len);
		assert_string_equal(got[i], rows[i].want);
		if (rows[i].same_as >= 0 && got[i] != got[rows[i].same_as])
			fail_msg("row %zu: a second copy of '%s'", i, rows[i].want);
	}
	assert_int_equal(g.nr_names, 4);
	an_pfgen_release(&g);
}

static void test_analyze(void **state)
{
	static char text[16384], pf[16384], cmd[1024];
	const char *ucval = getenv("UCVAL");

	(void)state;
	if (!ucval)
		skip();
	snprintf(cmd, sizeof(cmd), "%s analyze traces/rq_clamp-pass.txt 2>&1", ucval);
	assert_int_equal(run(cmd, text, sizeof(text)), 0);
	snprintf(cmd, sizeof(cmd), "%s analyze " FIXTURES "rq_clamp-pass.pftrace 2>&1", ucval);
	assert_int_equal(run(cmd, pf, sizeof(pf)), 0);
	assert_non_null(strstr(pf, "rq_clamp               PASS"));
	/* the same trace, the same result; the evidence of its events differs */
	assert_non_null(strstr(pf, "(none seen; the trace config's list of events is not read)"));
	same_but_evidence(pf);
	assert_string_equal(pf, text);
	snprintf(cmd, sizeof(cmd), "cat " FIXTURES "rq_clamp-pass.pftrace | %s analyze "
		 "/dev/stdin 2>&1", ucval);
	assert_int_equal(run(cmd, pf, sizeof(pf)), 0);
	same_but_evidence(pf);
	assert_string_equal(pf, text);
	snprintf(cmd, sizeof(cmd), "f=$(mktemp); cat " FIXTURES "typed.pftrace > $f; "
		 "printf '\\n\\226' >> $f; echo; %s analyze $f 2>&1; rc=$?; rm -f $f; exit $rc",
		 ucval);
	assert_int_equal(run(cmd, pf, sizeof(pf)), 2);
	assert_non_null(strstr(pf, ": offset 760: a truncated or overlong varint where a "
			       "packet's length was expected"));
}

/*
 * sched_waking without sched_wakeup: the enqueue on target_cpu, its CPU
 * undecidable until its next event, decided after it.
 */
static void test_analyze_waking(void **state)
{
	static char out[16384], cmd[1024];
	const char *ucval = getenv("UCVAL");

	(void)state;
	if (!ucval)
		skip();
	snprintf(cmd, sizeof(cmd), "%s analyze " FIXTURES "rq_clamp-waking-pass.pftrace 2>&1",
		 ucval);
	assert_int_equal(run(cmd, out, sizeof(out)), 3);	/* PASS, a window UNDECIDED */
	assert_non_null(strstr(out, "rq_clamp               PASS              3       0         1"));
	assert_non_null(strstr(out, "note: no sched_wakeup events: sched_waking taken as the "
			       "enqueue on its target cpu"));
	snprintf(cmd, sizeof(cmd), "%s analyze " FIXTURES "rq_clamp-waking-fail.pftrace 2>&1",
		 ucval);
	assert_int_equal(run(cmd, out, sizeof(out)), 1);
	assert_non_null(strstr(out, "FAIL rq_clamp cpu 1 at 40.002500..40.003100: expected 768, "
			       "observed 512 (VR4)"));
	/* compact_sched's unknown previous task is no task: no EV-SWITCH */
	snprintf(cmd, sizeof(cmd), "%s analyze " FIXTURES "compact.pftrace 2>&1", ucval);
	assert_int_equal(run(cmd, out, sizeof(out)), 1);
	assert_null(strstr(out, "EV-SWITCH"));
	assert_non_null(strstr(out, "trace_integrity        FAIL              9       2"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pbwire),
		cmocka_unit_test(test_generic_names),
		cmocka_unit_test(test_pbwire_packed),
		cmocka_unit_test(test_schema),
		cmocka_unit_test(test_fixtures),
		cmocka_unit_test(test_fixture_info),
		cmocka_unit_test(test_detect),
		cmocka_unit_test(test_bad_files),
		cmocka_unit_test(test_packet_too_big),
		cmocka_unit_test(test_bad_event),
		cmocka_unit_test(test_pipe),
		cmocka_unit_test(test_analyze),
		cmocka_unit_test(test_analyze_waking),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
