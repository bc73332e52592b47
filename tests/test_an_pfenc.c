// SPDX-License-Identifier: MIT
/*
 * analyze/read/pfenc.c: canonical events as Perfetto ftrace bundles,
 * decoded with protoc against proto/perfetto.proto (skipped without it):
 * typed events with only the fields the record had, prev_state letters as
 * mainline's number, markers as print with their newline, events Perfetto
 * does not type (and a typed type under another raw name) as generic
 * events, unknown events left out, lost events on the CPU's next bundle,
 * a full bundle written out, a SystemInfo packet.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze/read/alias.h"
#include "analyze/read/pfenc.h"

#define PROTO		"proto/perfetto.proto"

static bool has_protoc(void)
{
	return system("command -v protoc >/dev/null 2>&1") == 0 && access(PROTO, R_OK) == 0;
}

/* An event of @type named @name at @ts on @cpu, every field present. */
static void event(struct an_event *ev, enum an_event_type type, const char *name, uint64_t ts,
		  int cpu)
{
	an_alias_reset(ev, type);
	ev->name = name;
	ev->ts_ns = ts;
	ev->cpu = cpu;
	ev->pid = 42;
	ev->present = (UINT32_C(1) << an_alias_type(type)->nr_fields) - 1;
}

static void encode(struct an_pfenc *e)
{
	struct an_event ev;

	an_pfenc_system_info(e, "6.1.0", 2);
	event(&ev, AN_EV_SCHED_SWITCH, "sched_switch", 1000, 0);
	snprintf(ev.sw.prev_comm, sizeof(ev.sw.prev_comm), "a");
	ev.sw.prev_pid = 42;
	ev.sw.prev_prio = 120;
	snprintf(ev.sw.prev_state, sizeof(ev.sw.prev_state), "R+");
	snprintf(ev.sw.next_comm, sizeof(ev.sw.next_comm), "b");
	ev.sw.next_pid = 43;
	ev.sw.next_prio = 100;
	an_pfenc_event(e, &ev);
	snprintf(ev.sw.prev_state, sizeof(ev.sw.prev_state), "D|K");
	ev.ts_ns = 1500;
	an_pfenc_event(e, &ev);

	event(&ev, AN_EV_SCHED_WAKEUP, "sched_wakeup", 2000, 1);
	snprintf(ev.wakeup.comm, sizeof(ev.wakeup.comm), "c");
	ev.wakeup.pid = 44;
	ev.wakeup.target_cpu = 1;
	ev.present &= ~(UINT32_C(1) << 2);	/* no prio in the record */
	an_pfenc_event(e, &ev);

	event(&ev, AN_EV_PRINT, "tracing_mark_write", 3000, 1);
	ev.print.text = "ucval: hello";
	ev.print.len = strlen(ev.print.text);
	an_pfenc_event(e, &ev);

	event(&ev, AN_EV_CPU_FREQUENCY, "policy_frequency", 4000, 0);
	ev.freq.freq_khz = 1500000;
	ev.freq.cpu_id = 0;
	ev.freq.cpus = 0x3;
	an_pfenc_event(e, &ev);

	event(&ev, AN_EV_SYS_EXIT_SCHED_SETATTR, "sys_exit_sched_setattr", 5000, 0);
	ev.setattr_exit.ret = -22;
	an_pfenc_event(e, &ev);

	event(&ev, AN_EV_UNKNOWN, "irq_handler_entry", 6000, 0);
	an_pfenc_event(e, &ev);

	event(&ev, AN_EV_LOST_EVENTS, NULL, 7000, 1);
	an_pfenc_event(e, &ev);
	event(&ev, AN_EV_CPU_IDLE, "cpu_idle", 8000, 1);
	ev.idle.state = AN_IDLE_EXIT;
	ev.idle.cpu_id = 1;
	an_pfenc_event(e, &ev);
}

static char *decode_file(const char *path)
{
	char cmd[512];
	size_t alloc = 1 << 20, n = 0, r;
	char *text = malloc(alloc);
	FILE *p;

	assert_non_null(text);
	snprintf(cmd, sizeof(cmd), "protoc --decode=ucval.perfetto.Trace --proto_path=. "
		 PROTO " < '%s'", path);
	p = popen(cmd, "r");
	assert_non_null(p);
	while ((r = fread(text + n, 1, alloc - n - 1, p)) > 0) {
		n += r;
		if (alloc - n < 2) {
			alloc *= 2;
			text = realloc(text, alloc);
			assert_non_null(text);
		}
	}
	text[n] = '\0';
	assert_int_equal(pclose(p), 0);
	return text;
}

static void expect_in(const char *text, const char *what)
{
	if (!strstr(text, what))
		fail_msg("the decoded trace has no '%s'", what);
}

static size_t count(const char *text, const char *what)
{
	size_t n = 0;

	for (const char *p = text; (p = strstr(p, what)); p += strlen(what))
		n++;
	return n;
}

static void test_events(void **state)
{
	char path[] = "/tmp/ucval-pfenc-XXXXXX";
	struct an_pfenc *e;
	FILE *f;
	char *text;
	int fd;

	(void)state;
	if (!has_protoc()) {
		print_message("protoc or " PROTO " not found: skipped\n");
		skip();
	}
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "wb");
	assert_non_null(f);
	assert_int_equal(an_pfenc_open(&e, f), 0);
	encode(e);
	assert_int_equal(an_pfenc_close(e), 0);
	assert_int_equal(fclose(f), 0);
	text = decode_file(path);
	unlink(path);

	assert_true(strncmp(text, "packet {\n  trusted_packet_sequence_id: 1\n  system_info {\n"
			    "    utsname {\n      sysname: \"Linux\"\n      release: \"6.1.0\"\n"
			    "    }\n    num_cpus: 2\n", 100) == 0);
	expect_in(text, "timestamp: 1000\n      pid: 42\n      sched_switch {\n"
		  "        prev_comm: \"a\"\n        prev_pid: 42\n        prev_prio: 120\n"
		  "        prev_state: 256\n        next_comm: \"b\"\n        next_pid: 43\n"
		  "        next_prio: 100\n");
	expect_in(text, "prev_state: 2\n");		/* D; K is no mainline letter */
	expect_in(text, "sched_wakeup {\n        comm: \"c\"\n        pid: 44\n"
		  "        target_cpu: 1\n      }");
	expect_in(text, "print {\n        buf: \"ucval: hello\\n\"\n      }");
	expect_in(text, "generic {\n        event_name: \"policy_frequency\"\n"
		  "        field {\n          name: \"state\"\n          uint_value: 1500000\n");
	expect_in(text, "name: \"cpumask\"\n          uint_value: 3\n");
	expect_in(text, "event_name: \"sys_exit_sched_setattr\"\n        field {\n"
		  "          name: \"ret\"\n          int_value: -22\n");
	assert_null(strstr(text, "irq_handler_entry"));
	/* CPU 1: its bundle before the loss, then one that says so */
	expect_in(text, "cpu: 1\n    event {\n      timestamp: 2000\n");
	expect_in(text, "cpu: 1\n    event {\n      timestamp: 8000\n      pid: 42\n"
		  "      cpu_idle {\n        state: 4294967295\n        cpu_id: 1\n      }\n"
		  "    }\n    lost_events: true\n");
	free(text);
}

/* Events beyond AN_PFENC_BUNDLE_BYTES go into more than one bundle. */
static void test_bundle_size(void **state)
{
	char path[] = "/tmp/ucval-pfenc-XXXXXX";
	struct an_pfenc *e;
	struct an_event ev;
	FILE *f;
	char *text;
	int fd;

	(void)state;
	if (!has_protoc()) {
		print_message("protoc or " PROTO " not found: skipped\n");
		skip();
	}
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "wb");
	assert_non_null(f);
	assert_int_equal(an_pfenc_open(&e, f), 0);
	for (int i = 0; i < 10000; i++) {	/* about 15 bytes each */
		event(&ev, AN_EV_CPU_FREQUENCY, "cpu_frequency", 1000 + (uint64_t)i, 0);
		ev.freq.freq_khz = 1000000;
		ev.present &= 3;
		an_pfenc_event(e, &ev);
	}
	assert_int_equal(an_pfenc_close(e), 0);
	assert_int_equal(fclose(f), 0);
	text = decode_file(path);
	unlink(path);
	assert_int_equal(count(text, "cpu_frequency {"), 10000);
	assert_true(count(text, "ftrace_events {") >= 2);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_events),
		cmocka_unit_test(test_bundle_size),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
