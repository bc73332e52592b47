// SPDX-License-Identifier: MIT
/*
 * tests/test_an_text.c - the ftrace text and systrace HTML reader: every line
 * variant (flags and tgid columns or not, comms with spaces and dashes,
 * trace-cmd report output, LOST lines, syscalls), streams with garbage, the
 * real Android traces, and bad input.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/malloc.h"
#include "analyze/read/alias.h"
#include "analyze/read/reader.h"
#include "analyze/read/text.h"
#include "analyze/read/textline.h"
#include "tests/an_datwriter.h"
#include "tests/an_testutil.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define AN_TEXT_MAX_TEST_LINE 2048	/* longest hand-written line */
#define LONG_LINE (AN_TEXT_LINE_MAX + 5000)	/* over the reader's limit */

static const struct line_case {
	const char *what;	/* the variant the row covers */
	const char *line;
	int want_rc;		/* enum an_textline_kind or AN_E_* */
	unsigned long long want_ts;
	const char *want;	/* an_test_render(), the name, or the diag field */
} lines[] = {
	/* columns */
	{ "kernel trace, irq flags",
	  "          <idle>-0     [000] d..4  1212.465074: sched_wakeup: comm=ksoftirqd/0 pid=3 prio=120 success=1 target_cpu=000",
	  AN_TEXTLINE_EVENT, 1212465074000ULL,
	  "sched_wakeup cpu=0 pid=0 comm=ksoftirqd/0 pid=3 prio=120 target_cpu=0" },
	{ "no flags column, no leading blanks",
	  "bash-1234 [002] 100.000001: sched_switch: prev_comm=bash prev_pid=1234 prev_prio=120 prev_state=S ==> next_comm=swapper/2 next_pid=0 next_prio=120",
	  AN_TEXTLINE_EVENT, 100000001000ULL,
	  "sched_switch cpu=2 pid=1234 prev_comm=bash prev_pid=1234 prev_prio=120 prev_state=S next_comm=swapper/2 next_pid=0 next_prio=120" },
	{ "tgid column",
	  "com.android.systemui-611   (  611) [001] d..3 514769.086139: sched_switch: prev_comm=ndroid.systemui prev_pid=611 prev_prio=120 prev_state=S ==> next_comm=Binder_5 next_pid=679 next_prio=120",
	  AN_TEXTLINE_EVENT, 514769086139000ULL,
	  "sched_switch cpu=1 pid=611 prev_comm=ndroid.systemui prev_pid=611 prev_prio=120 prev_state=S next_comm=Binder_5 next_pid=679 next_prio=120" },
	{ "tgid column unknown (-----)",
	  "          <idle>-0     (-----) [002] d..3 514769.086339: cpu_idle: state=1 cpu_id=2",
	  AN_TEXTLINE_EVENT, 514769086339000ULL, "cpu_idle cpu=2 pid=0 state=1 cpu_id=2" },
	{ "tgid column without flags",
	  "bash-5 (    5) [003] 7.5: cpu_idle: state=0 cpu_id=3",
	  AN_TEXTLINE_EVENT, 7500000000ULL, "cpu_idle cpu=3 pid=5 state=0 cpu_id=3" },
	{ "5.x five-char flags", "kworker/0:1-17 [000] dNh2. 5.000000001: cpu_idle: state=4294967295 cpu_id=0",
	  AN_TEXTLINE_EVENT, 5000000001ULL, "cpu_idle cpu=0 pid=17 state=4294967295 cpu_id=0" },
	/* comms */
	{ "comm with a space and a dash",
	  "irq/363-ARM64 s-292   [000] ...2  1212.574665: sched_switch: prev_comm=sensors.qcom prev_pid=292 prev_prio=120 prev_state=S ==> next_comm=sensors.qcom next_pid=14447 next_prio=120",
	  AN_TEXTLINE_EVENT, 1212574665000ULL,
	  "sched_switch cpu=0 pid=292 prev_comm=sensors.qcom prev_pid=292 prev_prio=120 prev_state=S next_comm=sensors.qcom next_pid=14447 next_prio=120" },
	{ "comm with dash-digits then a space", "foo-12 bar-34 [001] .... 5.5: cpu_idle: state=1 cpu_id=1",
	  AN_TEXTLINE_EVENT, 5500000000ULL, "cpu_idle cpu=1 pid=34 state=1 cpu_id=1" },
	{ "comm values with spaces",
	  "a-1 [000] .... 1.0: sched_switch: prev_comm=Binder 1 prev_pid=9 prev_prio=98 prev_state=R+ ==> next_comm=ab cd-e next_pid=10 next_prio=-1",
	  AN_TEXTLINE_EVENT, 1000000000ULL,
	  "sched_switch cpu=0 pid=1 prev_comm=Binder 1 prev_pid=9 prev_prio=98 prev_state=R+ next_comm=ab cd-e next_pid=10 next_prio=-1" },
	{ "comm cut to 15 characters",
	  "a-1 [000] 1.0: sched_process_exit: comm=abcdefghijklmnopqrst pid=4 prio=120",
	  AN_TEXTLINE_EVENT, 1000000000ULL, "sched_process_exit cpu=0 pid=1 comm=abcdefghijklmno pid=4 prio=120" },
	/* trace-cmd report */
	{ "trace-cmd report, sched plugin switch, comm with ':'",
	  "     kworker/2:1-2923  [002]  2084.021765: sched_switch:         kworker/2:1:2923 [120] D ==> swapper/2:0 [120]",
	  AN_TEXTLINE_EVENT, 2084021765000ULL,
	  "sched_switch cpu=2 pid=2923 prev_comm=kworker/2:1 prev_pid=2923 prev_prio=120 prev_state=D next_comm=swapper/2 next_pid=0 next_prio=120" },
	{ "trace-cmd report, plugin switch with spaces and a state set",
	  "x-1 [000] 1.0: sched_switch: irq/1-a b:77 [49] S|W ==> my task:5 [120]",
	  AN_TEXTLINE_EVENT, 1000000000ULL,
	  "sched_switch cpu=0 pid=1 prev_comm=irq/1-a b prev_pid=77 prev_prio=49 prev_state=S|W next_comm=my task next_pid=5 next_prio=120" },
	{ "trace-cmd report, sched plugin wakeup",
	  "            bash-2930  [003]  2084.201268: sched_wakeup:         sshd:2928 [120] success=1 CPU:001",
	  AN_TEXTLINE_EVENT, 2084201268000ULL, "sched_wakeup cpu=3 pid=2930 comm=sshd pid=2928 prio=120 target_cpu=1" },
	{ "trace-cmd report, plugin wakeup_new without success",
	  "bash-2930 [003] 1.0: sched_wakeup_new: bash:2931 [120] CPU:004",
	  AN_TEXTLINE_EVENT, 1000000000ULL, "sched_wakeup_new cpu=3 pid=2930 comm=bash pid=2931 prio=120 target_cpu=4" },
	{ "trace-cmd report -l, cpu fused with flags",
	  "  <idle>-0       2d..1.  2084.021443: cpu_idle:             state=4294967295 cpu_id=2",
	  AN_TEXTLINE_EVENT, 2084021443000ULL, "cpu_idle cpu=2 pid=0 state=4294967295 cpu_id=2" },
	{ "trace-cmd report -t, ns timestamp",
	  "          <idle>-0     [002]  2084.021502060: sched_load_cfs_rq:    cpu=2 path=/ load=0 util=0",
	  AN_TEXTLINE_EVENT, 2084021502060ULL, "sched_pelt_cfs cpu=2 pid=0 cpu=2 path=/ util=0" },
	{ "trace-cmd report print, ip symbol dropped",
	  "         shutils-3106  [001]  2084.238797: print:                tracing_mark_write: cpu_frequency_devlib:        state=450000 cpu_id=0",
	  AN_TEXTLINE_EVENT, 2084238797000ULL,
	  "print cpu=1 pid=3106 buf='cpu_frequency_devlib:        state=450000 cpu_id=0'" },
	{ "trace-cmd report -R, numeric prev_state",
	  "a-1 [000] 1.0: sched_switch: prev_comm=a prev_pid=1 prev_prio=120 prev_state=258 next_comm=b next_pid=2 next_prio=120",
	  AN_TEXTLINE_EVENT, 1000000000ULL,
	  "sched_switch cpu=0 pid=1 prev_comm=a prev_pid=1 prev_prio=120 prev_state=D+ next_comm=b next_pid=2 next_prio=120" },
	/* markers */
	{ "kernel text marker",
	  "rt-app-1234 [003] ...1 50.25: tracing_mark_write: ucval: task pid=1234 util_min=128",
	  AN_TEXTLINE_EVENT, 50250000000ULL, "print cpu=3 pid=1234 buf='ucval: task pid=1234 util_min=128' marker=task" },
	{ "trace-cmd marker", "sh-9 [000] 1.0: print: tracing_mark_write: ucval: cgroup path=/a%20b util_max=5",
	  AN_TEXTLINE_EVENT, 1000000000ULL, "print cpu=0 pid=9 buf='ucval: cgroup path=/a%20b util_max=5' marker=cgroup" },
	{ "rt-app marker written by the task",
	  "rt-app-77 [000] 1.0: tracing_mark_write: rtapp_attrs: event=uclamp util_min=10 util_max=20",
	  AN_TEXTLINE_EVENT, 1000000000ULL,
	  "print cpu=0 pid=77 buf='rtapp_attrs: event=uclamp util_min=10 util_max=20' marker=setattr" },
	{ "atrace marker, not ucval", "RenderThread-1143  (  611) [004] ...1 514769.085985: tracing_mark_write: E",
	  AN_TEXTLINE_EVENT, 514769085985000ULL, "print cpu=4 pid=1143 buf='E'" },
	{ "empty marker", "a-1 [000] 1.0: tracing_mark_write:", AN_TEXTLINE_EVENT, 1000000000ULL,
	  "print cpu=0 pid=1 buf=''" },
	{ "old kernel print (ip 0 as the name): atrace begin",
	  "     Compositor-412   [001]  3021.004500: 0: B|412|composeFrame",
	  AN_TEXTLINE_EVENT, 3021004500000ULL, "print cpu=1 pid=412 buf='B|412|composeFrame'" },
	{ "old kernel print: atrace counter", "vsyncd-77 [000] 3021.1: 0: C|77|vsync|1",
	  AN_TEXTLINE_EVENT, 3021100000000ULL, "print cpu=0 pid=77 buf='C|77|vsync|1'" },
	{ "old kernel print: atrace end", "Compositor-412 [001] 3021.2: 0: E",
	  AN_TEXTLINE_EVENT, 3021200000000ULL, "print cpu=1 pid=412 buf='E'" },
	{ "old kernel print: a ucval marker",
	  "rt-app-7 [002] 1.0: 0: ucval: task pid=7 util_min=128",
	  AN_TEXTLINE_EVENT, 1000000000ULL, "print cpu=2 pid=7 buf='ucval: task pid=7 util_min=128' marker=task" },
	/* aliases */
	{ "system prefix", "a-1 [000] 1.0: sched:sched_process_fork: comm=bash pid=1 child_comm=bash child_pid=2",
	  AN_TEXTLINE_EVENT, 1000000000ULL,
	  "sched_process_fork cpu=0 pid=1 parent_comm=bash parent_pid=1 child_comm=bash child_pid=2" },
	{ "cpu_frequency_limits prints min=/max=",
	  "a-1 [000] 1.0: cpu_frequency_limits: min=450000 max=1100000 cpu_id=1",
	  AN_TEXTLINE_EVENT, 1000000000ULL, "cpu_frequency_limits cpu=0 pid=1 min_freq=450000 max_freq=1100000 cpu_id=1" },
	{ "LISA uclamp_util_cfs",
	  "a-1 [001] 1.0: lisa__uclamp_util_cfs: cpu=1 util_avg=300 uclamp_avg=400 uclamp_min=400 uclamp_max=1024",
	  AN_TEXTLINE_EVENT, 1000000000ULL,
	  "uclamp_util_cfs cpu=1 pid=1 cpu=1 util_avg=300 uclamp_avg=400 uclamp_min=400 uclamp_max=1024" },
	{ "sched_tp uclamp_util_se",
	  "a-1 [001] 1.0: uclamp_util_se: pid=5 comm=w cpu=1 util_avg=3 uclamp_avg=3 uclamp_min=0 uclamp_max=1024",
	  AN_TEXTLINE_EVENT, 1000000000ULL,
	  "uclamp_util_se cpu=1 pid=1 comm=w pid=5 cpu=1 util_avg=3 uclamp_avg=3 uclamp_min=0 uclamp_max=1024" },
	{ "Android sched_setscheduler_uclamp, ret defaults to 0",
	  "a-1 [001] 1.0: sched_setscheduler_uclamp: pid=5 comm=w clamp_id=1 value=512",
	  AN_TEXTLINE_EVENT, 1000000000ULL, "uclamp_request cpu=1 pid=1 comm=w pid=5 clamp_id=1 value=512" },
	{ "uclamp_task_eff with bucket_id",
	  "a-1 [001] 1.0: uclamp_task_eff: pid=5 comm=w clamp_id=0 value=0 effective=100 bucket_id=2",
	  AN_TEXTLINE_EVENT, 1000000000ULL,
	  "uclamp_task_eff cpu=1 pid=1 comm=w pid=5 clamp_id=0 value=0 effective=100 group_id=2" },
	{ "uclamp_tg", "a-1 [001] 1.0: uclamp_tg: path=/top-app clamp_id=0 value=10 effective=10",
	  AN_TEXTLINE_EVENT, 1000000000ULL, "uclamp_tg cpu=1 pid=1 path=/top-app clamp_id=0 value=10 effective=10" },
	{ "LISA sched_pelt_cfs with extra fields",
	  "a-1 [001] 1.0: lisa__sched_pelt_cfs: cpu=1 path=/ load=10 RBL_load=5 util=300 update_time=9",
	  AN_TEXTLINE_EVENT, 1000000000ULL, "sched_pelt_cfs cpu=1 pid=1 cpu=1 path=/ util=300" },
	{ "Android schedutil_cpu_util_clamp without util_rt",
	  "a-1 [001] 1.0: schedutil_cpu_util_clamp: cpu=1 util_cfs=100 util_clamp=200 util_max=1024",
	  AN_TEXTLINE_EVENT, 1000000000ULL, "schedutil_util cpu=1 pid=1 cpu=1 util_cfs=100 util_clamp=200 util_max=1024" },
	{ "sugov_util_update with max", "a-1 [001] 1.0: sugov_util_update: cpu=1 util=10 max=1024 flags=0x2",
	  AN_TEXTLINE_EVENT, 1000000000ULL, "sugov_util_update cpu=1 pid=1 cpu=1 util=10 max_cap=1024 flags=2" },
	{ "sched_migrate_task", "a-1 [003] 1.0: sched_migrate_task: comm=sshd pid=2928 prio=120 orig_cpu=5 dest_cpu=1",
	  AN_TEXTLINE_EVENT, 1000000000ULL,
	  "sched_migrate_task cpu=3 pid=1 comm=sshd pid=2928 prio=120 orig_cpu=5 dest_cpu=1" },
	{ "cpu_idle exit printed as -1", "a-1 [003] 1.0: cpu_idle: state=-1 cpu_id=3",
	  AN_TEXTLINE_EVENT, 1000000000ULL, "cpu_idle cpu=3 pid=1 state=4294967295 cpu_id=3" },
	{ "unknown event kept with its name", "a-1 [003] 1.0: sched_stat_runtime: comm=a pid=1 runtime=5",
	  AN_TEXTLINE_EVENT, 1000000000ULL, "sched_stat_runtime" },
	/* syscalls */
	{ "kernel syscall enter", "rt-app-9 [002] .... 3.0: sys_sched_setattr(pid: 4d2, uattr: 7ffd1234, flags: 0)",
	  AN_TEXTLINE_EVENT, 3000000000ULL, "sys_enter_sched_setattr cpu=2 pid=9 pid=1234 flags=0" },
	{ "kernel syscall exit, -EINVAL", "rt-app-9 [002] .... 3.1: sys_sched_setattr -> 0xffffffffffffffea",
	  AN_TEXTLINE_EVENT, 3100000000ULL, "sys_exit_sched_setattr cpu=2 pid=9 ret=-22" },
	{ "trace-cmd syscall enter",
	  "rt-app-9 [002] 3.0: sys_enter_sched_setattr: pid: 0x00000000, uattr: 0x7ffd1234, flags: 0x00000000",
	  AN_TEXTLINE_EVENT, 3000000000ULL, "sys_enter_sched_setattr cpu=2 pid=9 pid=0 flags=0" },
	{ "trace-cmd syscall exit", "rt-app-9 [002] 3.1: sys_exit_sched_setattr: 0x0",
	  AN_TEXTLINE_EVENT, 3100000000ULL, "sys_exit_sched_setattr cpu=2 pid=9 ret=0" },
	{ "other syscall is unknown", "a-9 [002] 3.0: sys_write(fd: 1, buf: 0, count: 1)",
	  AN_TEXTLINE_EVENT, 3000000000ULL, "sys_write" },
	/* non-event lines */
	{ "kernel header", "# tracer: nop", AN_TEXTLINE_SKIP, 0, "" },
	{ "kernel header with CPU count", "# entries-in-buffer/entries-written: 116/116   #P:4",
	  AN_TEXTLINE_CPUS, 0, "4" },
	{ "trace-cmd CPU count", "cpus=6", AN_TEXTLINE_CPUS, 0, "6" },
	/* systrace: the events the capture enabled; unknown names left out */
	{ "enabled events header", "# enabled events: sched:sched_switch sched:sched_wakeup "
	  "power:cpu_idle irq:irq_handler_entry sched_migrate_task", AN_TEXTLINE_EVENTS, 0,
	  "sched_switch sched_wakeup sched_migrate_task cpu_idle" },
	{ "enabled events header, none", "#   enabled events:", AN_TEXTLINE_EVENTS, 0, "" },
	{ "trace-cmd version", "version = 6", AN_TEXTLINE_SKIP, 0, "" },
	{ "trace-cmd empty CPU", "CPU 3 is empty", AN_TEXTLINE_SKIP, 0, "" },
	{ "atrace dump header", "TRACE:", AN_TEXTLINE_SKIP, 0, "" },
	{ "blank", "   \t ", AN_TEXTLINE_SKIP, 0, "" },
	{ "kernel LOST", "CPU:3 [LOST 1234 EVENTS]", AN_TEXTLINE_LOST, 0, "3:1234" },
	{ "trace-cmd dropped", "CPU:1 [56 EVENTS DROPPED]", AN_TEXTLINE_LOST, 0, "1:56" },
	{ "trace-cmd dropped, no count", "  CPU:0 [EVENTS DROPPED]", AN_TEXTLINE_LOST, 0, "0:0" },
	/* errors */
	{ "garbage", "hello world", AN_E_SYNTAX, 0, "" },
	{ "no timestamp", "a-1 [000] d..1 sched_switch: x", AN_E_SYNTAX, 0, "" },
	{ "no cpu", "a-1 1.5: cpu_idle: state=1 cpu_id=1", AN_E_SYNTAX, 0, "" },
	{ "LOST with junk after", "CPU:3 [LOST 12 EVENTS] x", AN_E_SYNTAX, 0, "" },
	{ "fraction too long", "a-1 [000] 1.0123456789: cpu_idle: state=1 cpu_id=1", AN_E_SYNTAX, 0, "" },
	{ "missing required field", "a-1 [000] 1.0: sched_switch: prev_comm=a prev_pid=1 prev_state=S",
	  AN_E_FIELD, 0, "next_pid" },
	{ "bad number", "a-1 [000] 1.0: cpu_idle: state=abc cpu_id=1", AN_E_VALUE, 0, "state" },
	{ "pid out of int range", "a-1 [000] 1.0: sched_process_free: comm=a pid=4294967296 prio=1",
	  AN_E_VALUE, 0, "pid" },
	{ "path too long", "a-1 [000] 1.0: uclamp_tg: path=/"
	  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	  " clamp_id=0 value=1 effective=1", AN_E_VALUE, 0, "path" },
	{ "malformed marker", "a-1 [000] 1.0: tracing_mark_write: ucval: task pid=x", AN_E_VALUE, 0, "pid" },
	{ "plugin switch without pid", "a-1 [000] 1.0: sched_switch: a [120] S ==> b [120]",
	  AN_E_FIELD, 0, "prev_pid" },
	{ "plugin wakeup without CPU", "a-1 [000] 1.0: sched_wakeup: b:5 [120] success=1", AN_E_FIELD, 0,
	  "target_cpu" },
	{ "bad syscall value", "a-1 [000] 1.0: sys_sched_setattr(pid: zz, uattr: 0, flags: 0)", AN_E_VALUE, 0,
	  "pid" },
};

/* The canonical names of a set of event types, space separated. */
static void render_types(uint32_t types, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = '\0';
	for (int t = 0; t < AN_EV__COUNT && at < len; t++)
		if (types & AN_EV_BIT(t))
			at += (size_t)snprintf(buf + at, len - at, "%s%s", at ? " " : "",
					       an_event_type_name((enum an_event_type)t));
}

/*
 * A name the line hands over with a NUL inside its length: the alias rows
 * are matched on the whole length, never read past their own end.
 */
static void test_text_alias_nul(void **state)
{
	static const char line[] = "# enabled events: sched:sched_switch\0\0\0 power:cpu_idle";
	static const struct {
		const char *name;
		size_t len;
		enum an_event_type want;
	} names[] = {
		{ "sched_switch", 12, AN_EV_SCHED_SWITCH },
		{ "sched_switch\0\0\0", 15, AN_EV_UNKNOWN },
		{ "sched:sched_switch\0x", 20, AN_EV_UNKNOWN },
		{ "sched_switc", 11, AN_EV_UNKNOWN },
		{ "sched_switchx", 13, AN_EV_UNKNOWN },
	};
	struct an_textline_extra x = { 0 };
	struct an_event ev;
	struct an_diag d;
	char buf[sizeof(line)], got[256] = "";

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (an_alias_lookup(names[i].name, names[i].len) != names[i].want)
			fail_msg("name %zu: type %d want %d", i,
				 an_alias_lookup(names[i].name, names[i].len), names[i].want);
	/* the same for field names */
	assert_int_equal(an_alias_field_index(AN_EV_SCHED_SWITCH, "prev_pid", 8), 1);
	assert_int_equal(an_alias_field_index(AN_EV_SCHED_SWITCH, "prev_pid\0\0\0\0", 12), -1);
	assert_int_equal(an_alias_field_index(AN_EV_SCHED_SWITCH, "prev_pi", 7), -1);
	memcpy(buf, line, sizeof(line));
	an_diag_clear(&d);
	assert_int_equal(an_textline_parse(buf, sizeof(line) - 1, &ev, &x, &d),
			 AN_TEXTLINE_EVENTS);
	render_types(x.ev_listed, got, sizeof(got));
	assert_string_equal(got, "cpu_idle");
}

static void test_text_lines(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(lines); i++) {
		const struct line_case *c = &lines[i];
		struct an_textline_extra x = { 0 };
		struct an_event ev;
		struct an_diag d;
		char buf[AN_TEXT_MAX_TEST_LINE], got[1024] = "";
		int rc;

		an_diag_clear(&d);
		snprintf(buf, sizeof(buf), "%s", c->line);
		rc = an_textline_parse(buf, strlen(buf), &ev, &x, &d);
		if (rc != c->want_rc)
			fail_msg("case %zu (%s): rc %d want %d (%s)", i, c->what, rc, c->want_rc,
				 d.message);
		if (rc < 0)
			snprintf(got, sizeof(got), "%s", d.field);
		else if (rc == AN_TEXTLINE_CPUS)
			snprintf(got, sizeof(got), "%d", x.nr_cpus);
		else if (rc == AN_TEXTLINE_LOST)
			snprintf(got, sizeof(got), "%d:%llu", x.cpu, x.lost);
		else if (rc == AN_TEXTLINE_EVENTS)
			render_types(x.ev_listed, got, sizeof(got));
		else if (rc == AN_TEXTLINE_EVENT && ev.type == AN_EV_UNKNOWN)
			snprintf(got, sizeof(got), "%s", ev.name);
		else if (rc == AN_TEXTLINE_EVENT)
			an_test_render(&ev, got, sizeof(got));
		if (strcmp(got, c->want))
			fail_msg("case %zu (%s): got '%s' want '%s'", i, c->what, got, c->want);
		if (rc == AN_TEXTLINE_EVENT && ev.ts_ns != c->want_ts)
			fail_msg("case %zu (%s): ts %llu want %llu", i, c->what,
				 (unsigned long long)ev.ts_ns, c->want_ts);
		if (rc < 0 && !d.message[0])
			fail_msg("case %zu (%s): error without a message", i, c->what);
	}
}

/* Everything a stream yields, one item per line: "ts render" or "ERR code line N". */
static int read_stream(const char *text, size_t len, char *out, size_t out_len,
		       struct an_reader_info *info)
{
	FILE *fp = fmemopen((void *)text, len, "r");
	struct an_reader *r;
	struct an_event ev;
	struct an_diag d;
	size_t n = 0;
	int rc;

	assert_non_null(fp);
	out[0] = '\0';
	rc = an_reader_open_stream(fp, "mem.txt", &r, &d);
	if (rc) {
		snprintf(out, out_len, "OPEN %s", an_error_str(rc));
		fclose(fp);
		return rc;
	}
	while ((rc = an_reader_next(r, &ev, &d)) != 0 && n < out_len) {
		char item[1024];

		if (rc < 0) {
			n += (size_t)snprintf(out + n, out_len - n, "ERR %s line %llu\n",
					      an_error_str(rc), d.line);
			if (!an_error_is_recoverable(rc))
				break;
			continue;
		}
		if (ev.type == AN_EV_UNKNOWN)
			snprintf(item, sizeof(item), "%s", ev.name);
		else
			an_test_render(&ev, item, sizeof(item));
		n += (size_t)snprintf(out + n, out_len - n, "%llu %s\n",
				      (unsigned long long)ev.ts_ns, item);
	}
	if (info)
		*info = *an_reader_info(r);
	an_reader_close(r);
	fclose(fp);
	return 0;
}

static const struct stream_case {
	const char *what;
	const char *input;
	const char *want;
} streams[] = {
	{ "a clock not in ns (bare counts): refused at its first event",
	  "# tracer: nop\na-1 [000] 1.5: cpu_idle: state=1 cpu_id=0\n"
	  "a-1 [000] d..1 123456789: cpu_idle: state=2 cpu_id=0\n",
	  "1500000000 cpu_idle cpu=0 pid=1 state=1 cpu_id=0\n"
	  "ERR trace clock does not count nanoseconds line 3\n" },
	{ "LOST line: stamped with the next event",
	  "a-1 [000] 1.0: cpu_idle: state=1 cpu_id=0\n"
	  "CPU:1 [LOST 5 EVENTS]\n"
	  "b-2 [001] 2.0: cpu_idle: state=2 cpu_id=1\n",
	  "1000000000 cpu_idle cpu=0 pid=1 state=1 cpu_id=0\n"
	  "2000000000 lost_events cpu=1 pid=-1 count=5\n"
	  "2000000000 cpu_idle cpu=1 pid=2 state=2 cpu_id=1\n" },
	{ "LOST line at the end: last timestamp",
	  "a-1 [000] 1.0: cpu_idle: state=1 cpu_id=0\nCPU:0 [EVENTS DROPPED]\n",
	  "1000000000 cpu_idle cpu=0 pid=1 state=1 cpu_id=0\n"
	  "1000000000 lost_events cpu=0 pid=-1 count=0\n" },
	{ "two LOST lines of one CPU add up, of two CPUs stay apart",
	  "CPU:2 [LOST 5 EVENTS]\nCPU:2 [7 EVENTS DROPPED]\nCPU:3 [LOST 1 EVENTS]\n"
	  "a-1 [003] 3.0: cpu_idle: state=1 cpu_id=3\n",
	  "0 lost_events cpu=2 pid=-1 count=12\n"
	  "3000000000 lost_events cpu=3 pid=-1 count=1\n"
	  "3000000000 cpu_idle cpu=3 pid=1 state=1 cpu_id=3\n" },
	{ "garbage line: reported with its number, then reading goes on",
	  "# tracer: nop\na-1 [000] 1.0: cpu_idle: state=1 cpu_id=0\nsome tool chatter\n"
	  "a-1 [000] 2.0: cpu_idle: state=2 cpu_id=0\n",
	  "1000000000 cpu_idle cpu=0 pid=1 state=1 cpu_id=0\n"
	  "ERR unparseable line line 3\n"
	  "2000000000 cpu_idle cpu=0 pid=1 state=2 cpu_id=0\n" },
	{ "LOST kept across a bad line",
	  "CPU:0 [LOST 2 EVENTS]\nnonsense\na-1 [000] 1.0: cpu_idle: state=1 cpu_id=0\n",
	  "ERR unparseable line line 2\n"
	  "1000000000 lost_events cpu=0 pid=-1 count=2\n"
	  "1000000000 cpu_idle cpu=0 pid=1 state=1 cpu_id=0\n" },
	{ "CRLF line ends; a last line without newline is cut: reported, not used",
	  "# tracer: nop\r\na-1 [000] 1.0: cpu_idle: state=1 cpu_id=0\r\na-1 [000] 2.0: cpu_idle: state=2 cpu_id=0",
	  "1000000000 cpu_idle cpu=0 pid=1 state=1 cpu_id=0\n"
	  "ERR unparseable line line 3\n" },
	{ "truncated last line: reported, its values not trusted",
	  "a-1 [000] 1.0: cpu_idle: state=1 cpu_id=0\na-1 [000] 2.0: uclamp_util_cfs: cpu=0 util_avg=1 "
	  "uclamp_avg=1 uclamp_min=0 uclamp_max=5",	/* of 512 */
	  "1000000000 cpu_idle cpu=0 pid=1 state=1 cpu_id=0\n"
	  "ERR unparseable line line 2\n" },
	{ "a last line of blanks without newline: nothing to report",
	  "a-1 [000] 1.0: cpu_idle: state=1 cpu_id=0\n \t",
	  "1000000000 cpu_idle cpu=0 pid=1 state=1 cpu_id=0\n" },
	{ "marker decoded in the stream",
	  "rt-app-7 [001] 1.0: tracing_mark_write: ucval: setattr pid=8 util_min=5 flags=0x20 ret=0\n",
	  "1000000000 print cpu=1 pid=7 buf='ucval: setattr pid=8 util_min=5 flags=0x20 ret=0' marker=setattr\n" },
	{ "HTML: only trace-data blocks, JSON blocks skipped",
	  "<!DOCTYPE html>\n<html><script>var x = 'a-1 [000] 1.0: cpu_idle: state=9 cpu_id=0';</script>\n"
	  "<script class=\"trace-data\" type=\"application/json\">\n{\"traceEvents\": []}\n</script>\n"
	  "<script class=\"trace-data\" type=\"application/text\">\n# tracer: nop\n"
	  "a-1 [000] 1.0: cpu_idle: state=1 cpu_id=0\n"
	  "a-1 [000] 2.0: cpu_idle: state=2 cpu_id=0</script>\n"
	  "a-1 [000] 3.0: cpu_idle: state=3 cpu_id=0\n</html>\n",
	  "1000000000 cpu_idle cpu=0 pid=1 state=1 cpu_id=0\n"
	  "2000000000 cpu_idle cpu=0 pid=1 state=2 cpu_id=0\n" },
	{ "HTML: text on the opening tag's line",
	  "<html>\n<script class=\"trace-data\">a-1 [000] 1.0: cpu_idle: state=1 cpu_id=0\n</script>\n",
	  "1000000000 cpu_idle cpu=0 pid=1 state=1 cpu_id=0\n" },
	{ "HTML: a block the end of the file cuts",
	  "<html>\n<script class=\"trace-data\">\na-1 [000] 1.0: cpu_idle: state=1 cpu_id=0\n"
	  "a-1 [000] 2.0: cpu_idle: state=1 cpu_",
	  "1000000000 cpu_idle cpu=0 pid=1 state=1 cpu_id=0\n"
	  "ERR unparseable line line 4\n" },
	{ "HTML: the block's end closes a last line without newline",
	  "<html>\n<script class=\"trace-data\">\na-1 [000] 1.0: cpu_idle: state=1 cpu_id=0</script>",
	  "1000000000 cpu_idle cpu=0 pid=1 state=1 cpu_id=0\n" },
	{ "legacy HTML: the text of the JavaScript string, old print format",
	  "<!DOCTYPE HTML>\n<html>\n<script language=\"javascript\">var s = \"a\\nb\";</script>\n"
	  "<body>\n  <script>\n  var linuxPerfData = \"\\\n"
	  "# tracer: nop\\n\\\n"
	  "#\\n\\\n"
	  "a-1 [000] 1.0: cpu_idle: state=1 cpu_id=0\\n\\\n"
	  "b-2 [001] 2.0: 0: B|2|draw \"x\"\\n\\\n"
	  "b-2 [001] 3.0: 0: E\\n\\\n"
	  "\\n\";\n  </script>\n"
	  "a-1 [000] 4.0: cpu_idle: state=4 cpu_id=0\n</body>\n</html>\n",
	  "1000000000 cpu_idle cpu=0 pid=1 state=1 cpu_id=0\n"
	  "2000000000 print cpu=1 pid=2 buf='B|2|draw \"x\"'\n"
	  "3000000000 print cpu=1 pid=2 buf='E'\n" },
	{ "legacy HTML: the viewer's clock sync at 0.0 is no event",
	  "<html>\n<script>\nvar linuxPerfData = \"\\\n"
	  "a-1 [000] 1.0: 0: trace_event_clock_sync: parent_ts=1.0\\n\\\n"
	  "a-1 [000] 2.0: cpu_idle: state=2 cpu_id=0\\n\\\n"
	  "dummy-0000  [000] 0.0: 0: trace_event_clock_sync: parent_ts=0.0\\n\";\n"
	  "</script>\n</html>\n",
	  "1000000000 print cpu=0 pid=1 buf='trace_event_clock_sync: parent_ts=1.0'\n"
	  "2000000000 cpu_idle cpu=0 pid=1 state=2 cpu_id=0\n" },
	{ "legacy HTML: the last line closes the string",
	  "<html>\n<script>\nvar linuxPerfData = \"\\\r\n"
	  "a-1 [000] 1.0: cpu_idle: state=1 cpu_id=0\\n\\\r\n"
	  "a-1 [000] 2.0: cpu_idle: state=2 cpu_id=0\\n\";\r\n</script>\n</html>\n",
	  "1000000000 cpu_idle cpu=0 pid=1 state=1 cpu_id=0\n"
	  "2000000000 cpu_idle cpu=0 pid=1 state=2 cpu_id=0\n" },
	{ "legacy HTML cut inside the string",
	  "<html>\n<script>\nvar linuxPerfData = \"\\\n"
	  "a-1 [000] 1.0: cpu_idle: state=1 cpu_id=0\\n\\\n"
	  "a-1 [000] 2.0: cpu_idle: state=2 cpu_id=0\\n\\\n"
	  "a-1 [000] 3.0: cpu_idle: state=3 cpu_",
	  "1000000000 cpu_idle cpu=0 pid=1 state=1 cpu_id=0\n"
	  "2000000000 cpu_idle cpu=0 pid=1 state=2 cpu_id=0\n"
	  "ERR unparseable line line 6\n" },
	{ "legacy HTML cut inside the string, after a quote of the text",
	  "<html>\n<script>\nvar linuxPerfData = \"\\\n"
	  "a-1 [000] 1.0: cpu_idle: state=1 cpu_id=0\\n\\\n"
	  "a-1 [000] 2.0: 0: B|1|say \"hi\" to",
	  "1000000000 cpu_idle cpu=0 pid=1 state=1 cpu_id=0\n"
	  "ERR unparseable line line 5\n" },
	{ "HTML without a trace-data block",
	  "<html><body>nothing here</body></html>\n",
	  "ERR unknown trace format line 0\n" },
	{ "only a header: no event, unreadable",
	  "# tracer: nop\n#\n# entries-in-buffer/entries-written: 0/0   #P:8\n",
	  "ERR unknown trace format line 0\n" },
	{ "empty stream", "", "OPEN empty file" },
	{ "garbage only", "hello\nworld\n", "OPEN unknown trace format" },
	{ "binary", "\x01\x02\x00\x03junk", "OPEN unknown trace format" },
};

static void test_text_streams(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(streams); i++) {
		const struct stream_case *c = &streams[i];
		char got[4096];
		size_t len = strlen(c->input);

		if (!strncmp(c->input, "\x01\x02", 2))
			len = 9;	/* the binary row holds a NUL */
		read_stream(c->input, len, got, sizeof(got), NULL);
		if (strcmp(got, c->want))
			fail_msg("case %zu (%s):\n got:\n%s\n want:\n%s", i, c->what, got, c->want);
	}
}

/* A line longer than the buffer is one error; the next line still reads. */
static void test_text_long_line(void **state)
{
	const char *tail = "\na-1 [000] 1.0: cpu_idle: state=1 cpu_id=0\n";
	size_t len = LONG_LINE + strlen(tail);
	char *input = malloc(len + 1);
	char got[1024];

	(void)state;
	assert_non_null(input);
	memcpy(input, "a-1 [000] 0.5: print: x: ", 25);
	memset(input + 25, 'x', LONG_LINE - 25);
	memcpy(input + LONG_LINE, tail, strlen(tail) + 1);
	read_stream(input, len, got, sizeof(got), NULL);
	assert_string_equal(got, "ERR unparseable line line 1\n"
			    "1000000000 cpu_idle cpu=0 pid=1 state=1 cpu_id=0\n");
	free(input);
}

/* CPU count from the headers, and the first header wins. */
static void test_text_header_cpus(void **state)
{
	static const char input[] = "cpus=6\n# entries-in-buffer/entries-written: 1/1   #P:4\n"
				    "a-1 [005] 1.0: cpu_idle: state=1 cpu_id=5\n";
	struct an_reader_info info;
	char got[512];

	(void)state;
	read_stream(input, sizeof(input) - 1, got, sizeof(got), &info);
	assert_int_equal(info.nr_cpus, 6);
	assert_int_equal(info.format, AN_FORMAT_TEXT);
	assert_int_equal(info.nr_events, 1);
	/* ftrace text lists no enabled events: only the events seen tell */
	assert_int_equal(info.ev_list, AN_EV_LIST_NONE);
}

/* A systrace "# enabled events:" header line: the capture's own list. */
static void test_text_header_events(void **state)
{
	static const char input[] = "# enabled events: sched:sched_switch sched:sched_wakeup\n"
				    "a-1 [005] 1.0: cpu_idle: state=1 cpu_id=5\n";
	struct an_reader_info info;
	char got[512];

	(void)state;
	read_stream(input, sizeof(input) - 1, got, sizeof(got), &info);
	assert_int_equal(info.ev_list, AN_EV_LIST_ENABLED);
	assert_int_equal(info.ev_listed, AN_EV_BIT(AN_EV_SCHED_SWITCH) |
					 AN_EV_BIT(AN_EV_SCHED_WAKEUP));
	assert_int_equal(info.nr_events, 1);
}

/*
 * Without a CPU-count header (a trace_pipe capture) the count is the highest
 * CPU the lines name, plus one, learned before the first event; a header
 * before the first event is the count.
 */
static const struct cpus_case {
	const char *what;
	const char *input;
	int want;
} cpus_cases[] = {
	{ "trace_pipe: the highest CPU of the events",
	  "a-1 [000] 1.0: cpu_idle: state=1 cpu_id=0\nb-2 [003] 2.0: cpu_idle: state=1 cpu_id=3\n"
	  "a-1 [001] 3.0: cpu_idle: state=1 cpu_id=1\n", 4 },
	{ "a CPU only a wakeup targets",
	  "a-1 [000] 1.0: sched_wakeup: comm=b pid=2 prio=120 success=1 target_cpu=005\n", 6 },
	{ "a CPU only a migration names",
	  "a-1 [000] 1.0: sched_migrate_task: comm=b pid=2 prio=120 orig_cpu=6 dest_cpu=0\n", 7 },
	{ "a CPU only a LOST line names",
	  "CPU:7 [LOST 3 EVENTS]\na-1 [001] 1.0: cpu_idle: state=1 cpu_id=1\n", 8 },
	{ "a CPU id beyond the kernel's limit is no count",
	  "a-1 [001] 1.0: cpu_idle: state=1 cpu_id=100000\n", 2 },
	{ "a header before the first event is the count",
	  "# entries-in-buffer/entries-written: 1/1   #P:2\na-1 [005] 1.0: cpu_idle: state=1 cpu_id=5\n",
	  2 },
	{ "bad and cut lines count no CPU",
	  "a-1 [000] 1.0: cpu_idle: state=1 cpu_id=0\nb-2 [009] 2.0: cpu_idle: state=x cpu_id=9\n"
	  "b-2 [008] 2.0: cpu_idle: state=1 cpu_id=8", 1 },
	{ "legacy HTML, no #P: line",
	  "<html>\n<script>\nvar linuxPerfData = \"\\\n# tracer: nop\\n\\\n"
	  "a-1 [000] 1.0: cpu_idle: state=1 cpu_id=0\\n\\\n"
	  "b-2 [001] 2.0: 0: B|2|x\\n\\\n\\n\";\n</script>\n</html>\n", 2 },
};

static void test_text_cpus_from_lines(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cpus_cases); i++) {
		const struct cpus_case *c = &cpus_cases[i];
		struct an_reader_info info;
		char got[4096];

		read_stream(c->input, strlen(c->input), got, sizeof(got), &info);
		if (info.nr_cpus != c->want)
			fail_msg("case %zu (%s): %d CPUs, want %d\n%s", i, c->what, info.nr_cpus,
				 c->want, got);
	}
}

struct trace_figures {
	const char *file;
	enum an_format format;
	int nr_cpus;			/* the header's, else the lines' */
	unsigned int nr_event_cpus;	/* distinct CPUs of the events */
	unsigned long long first_ns, last_ns, nr_events;
	struct { const char *name; unsigned long long n; } counts[4];
};

static const struct trace_figures real_traces[] = {
	{ "android-atrace-1cpu.txt", AN_FORMAT_TEXT, 1, 1,
	  1212465062000ULL, 1213465171000ULL, 116,
	  { { "sched_switch", 72 }, { "sched_wakeup", 44 } } },
	{ "android-systrace-small.html", AN_FORMAT_HTML, 6, 4,
	  514769085985000ULL, 514769086473000ULL, 10,
	  { { "sched_switch", 4 }, { "sched_wakeup", 4 }, { "tracing_mark_write", 2 } } },
	/* legacy: the text of a JavaScript string, old print format; the last
	 * line, the viewer's clock sync at 0.0, is no event */
	{ "android-systrace-legacy.html", AN_FORMAT_HTML, 2, 2,
	  50260647576000ULL, 50265647792000ULL, 31478,
	  { { "sched_switch", 11074 }, { "sched_wakeup", 6827 }, { "print", 13577 } } },
};

static void test_text_real_traces(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(real_traces); i++) {
		const struct trace_figures *t = &real_traces[i];
		unsigned long long counts[4] = { 0 }, first = 0, last = 0, n = 0;
		unsigned int cpu_mask = 0, nr_event_cpus = 0;
		const struct an_reader_info *info;
		struct an_reader *r;
		struct an_event ev;
		struct an_diag d;
		char path[1024];
		int rc;

		if (!an_test_trace(t->file, path, sizeof(path)))
			continue;
		rc = an_reader_open(path, &r, &d);
		if (rc)
			fail_msg("%s: open: %s", t->file, d.message);
		while ((rc = an_reader_next(r, &ev, &d)) > 0) {
			if (!n++)
				first = ev.ts_ns;
			last = ev.ts_ns;
			if (ev.cpu >= 0 && ev.cpu < 32)
				cpu_mask |= 1u << ev.cpu;
			for (size_t k = 0; k < ARRAY_SIZE(t->counts) && t->counts[k].name; k++)
				counts[k] += !strcmp(ev.name, t->counts[k].name);
		}
		if (rc)
			fail_msg("%s: line %llu: %s", t->file, d.line, d.message);
		info = an_reader_info(r);
		for (unsigned int c = 0; c < 32; c++)
			nr_event_cpus += (cpu_mask >> c) & 1;
		for (size_t k = 0; k < ARRAY_SIZE(t->counts) && t->counts[k].name; k++)
			if (counts[k] != t->counts[k].n)
				fail_msg("%s: %s %llu want %llu", t->file, t->counts[k].name,
					 counts[k], t->counts[k].n);
		if (n != t->nr_events || first != t->first_ns || last != t->last_ns ||
		    info->nr_cpus != t->nr_cpus || nr_event_cpus != t->nr_event_cpus ||
		    info->format != t->format || info->nr_errors || info->nr_lost)
			fail_msg("%s: events %llu first %llu last %llu cpus %d/%u format %d errors %llu",
				 t->file, n, first, last, info->nr_cpus, nr_event_cpus,
				 info->format, info->nr_errors);
		an_reader_close(r);
	}
}

/* Spot checks of decoded fields in the real traces. */
static void test_text_real_fields(void **state)
{
	struct an_reader *r;
	struct an_event ev;
	struct an_diag d;
	char path[1024], got[512];
	int rc, seen = 0;

	(void)state;
	if (!an_test_trace("android-systrace-small.html", path, sizeof(path)))
		skip();
	assert_int_equal(an_reader_open(path, &r, &d), 0);
	while ((rc = an_reader_next(r, &ev, &d)) > 0) {
		an_test_render(&ev, got, sizeof(got));
		if (ev.ts_ns == 514769086473000ULL) {
			assert_string_equal(got, "sched_wakeup cpu=0 pid=280 comm=EventThread pid=238 "
					    "prio=111 target_cpu=3");
			seen++;
		}
		if (ev.ts_ns == 514769086243000ULL) {
			assert_string_equal(got, "print cpu=0 pid=15227 buf='trace_event_clock_sync: "
					    "realtime_ts=1448979311493'");
			assert_int_equal(ev.pos, 29);	/* line in the HTML file */
			seen++;
		}
	}
	assert_int_equal(rc, 0);
	assert_int_equal(seen, 2);
	an_reader_close(r);
}

/* Write @len bytes to a temporary file; its path goes to @path. */
static void write_tmp(char *path, size_t size, const void *data, size_t len)
{
	int fd;

	snprintf(path, size, "%s/ucval-test-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, data, len), (ssize_t)len);
	close(fd);
}

static const struct bad_file {
	const char *what;
	const char *data;
	size_t len;
	int want;
	const char *want_text;	/* part of the formatted diagnostic */
} bad_files[] = {
	{ "empty file", "", 0, AN_E_EMPTY, "empty file" },
	{ "garbage text", "this is\nnot a trace\n", 20, AN_E_FORMAT, ": offset 0: no ftrace line" },
	{ "binary junk", "\x7f" "ELF\x02\x01\x01\x00\x00\x00\x00\xff\xfe", 13, AN_E_FORMAT, "binary data" },
	{ "trace.dat magic only", "\x17\x08\x44tracing", 10, AN_E_CORRUPT, "truncated" },
};

static void test_text_bad_files(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(bad_files); i++) {
		const struct bad_file *b = &bad_files[i];
		struct an_reader *r = NULL;
		char path[256], msg[1024], want[512];
		struct an_diag d;
		int rc;

		write_tmp(path, sizeof(path), b->data, b->len);
		rc = an_reader_open(path, &r, &d);
		an_diag_format(&d, msg, sizeof(msg));
		snprintf(want, sizeof(want), "cannot open '%s'", path);
		unlink(path);
		if (rc != b->want || !strstr(msg, want) || !strstr(msg, b->want_text))
			fail_msg("case %zu (%s): rc %d want %d: '%s'", i, b->what, rc, b->want, msg);
		assert_null(r);
	}
	{
		struct an_reader *r = NULL;
		struct an_diag d;

		assert_int_equal(an_reader_open("/nonexistent/x.dat", &r, &d), -ENOENT);
		assert_string_equal(d.file, "/nonexistent/x.dat");
		assert_int_equal(an_reader_open("/", &r, &d), -EISDIR);
		assert_null(r);
	}
}

/*
 * A trace longer than the buffers, CPU 2 only in its last line: the first
 * pass counts 3 CPUs, then every line is read once, in order, from the start.
 */
static void test_text_cpus_long_file(void **state)
{
	const unsigned int nr = 5000;
	size_t size = (size_t)nr * 64, len = 0;
	char *input = malloc(size), path[256];
	const struct an_reader_info *info;
	struct an_reader *r;
	struct an_event ev;
	struct an_diag d;
	unsigned int n = 0;
	int rc;

	(void)state;
	assert_non_null(input);
	for (unsigned int i = 1; i <= nr; i++)
		len += (size_t)snprintf(input + len, size - len,
					"a-1 [00%u] %u.0: cpu_idle: state=%u cpu_id=0\n",
					i == nr ? 2 : i % 2, i, i);
	write_tmp(path, sizeof(path), input, len);
	free(input);
	rc = an_reader_open(path, &r, &d);
	unlink(path);
	assert_int_equal(rc, 0);
	info = an_reader_info(r);
	assert_int_equal(info->nr_cpus, 3);
	while ((rc = an_reader_next(r, &ev, &d)) > 0) {
		n++;
		if (ev.ts_ns != n * 1000000000ULL || ev.idle.state != n || ev.pos != n)
			fail_msg("event %u: ts %llu state %u line %llu", n,
				 (unsigned long long)ev.ts_ns, ev.idle.state, ev.pos);
	}
	assert_int_equal(rc, 0);
	assert_int_equal(n, nr);
	assert_int_equal(info->nr_errors, 0);
	an_reader_close(r);
}

/* A pipe cannot be read twice: no first pass, every line read once. */
static void test_text_pipe(void **state)
{
	static const char input[] = "a-1 [000] 1.0: cpu_idle: state=1 cpu_id=0\n"
				    "b-2 [003] 2.0: cpu_idle: state=2 cpu_id=3\n";
	struct an_reader *r;
	struct an_event ev;
	struct an_diag d;
	int fds[2], n = 0, rc;
	FILE *fp;

	(void)state;
	assert_int_equal(pipe(fds), 0);
	assert_int_equal(write(fds[1], input, sizeof(input) - 1), (ssize_t)sizeof(input) - 1);
	close(fds[1]);
	fp = fdopen(fds[0], "r");
	assert_non_null(fp);
	assert_int_equal(an_reader_open_stream(fp, "pipe", &r, &d), 0);
	while ((rc = an_reader_next(r, &ev, &d)) > 0)
		assert_int_equal(ev.idle.state, ++n);
	assert_int_equal(rc, 0);
	assert_int_equal(n, 2);
	assert_int_equal(an_reader_info(r)->nr_cpus, 0);
	an_reader_close(r);
	fclose(fp);
}

/*
 * A file in which no event decodes is unreadable, whatever its format: the
 * reader's end is an error naming the file and the format it was read as.
 */
static const struct no_event_case {
	const char *what;
	const char *data;
	const char *format;
} no_events[] = {
	{ "ftrace text, a header only", "# tracer: nop\n#\n# entries-in-buffer/entries-written: 0/0   #P:4\n",
	  "ftrace-text" },
	{ "ftrace text, lines that do not decode",
	  "# tracer: nop\na-1 [000] 1.0: sched_switch: prev_pid=1\nsome words\n", "ftrace-text" },
	{ "HTML, a block without events",
	  "<html>\n<script class=\"trace-data\">\n# tracer: nop\n</script>\n</html>\n", "systrace-html" },
	{ "a document that mentions <script class=\"trace-data\">",
	  "Readme\n\nThe text is in `<script class=\"trace-data\">` blocks.\nThat is all.\n",
	  "systrace-html" },
};

/* The synthetic trace.dat with both CPU buffers emptied: no record. */
static void write_empty_dat(char *path, size_t size)
{
	struct dw w;
	unsigned char *table = NULL;

	dw_build(&w, NULL);
	for (size_t i = 0; !table && i + 10 <= w.len; i++)
		if (!memcmp(w.p + i, "flyrecord", 10))
			table = w.p + i;
	assert_non_null(table);
	for (unsigned int cpu = 0; cpu < 2; cpu++)
		memset(table + 10 + cpu * 16 + 8, 0, 8);	/* the buffer's size */
	write_tmp(path, size, w.p, w.len);
	free(w.p);
}

static void check_no_event(const char *what, const char *path, const char *format)
{
	struct an_reader *r;
	struct an_event ev;
	struct an_diag d;
	char msg[1024], want[512];
	int rc;

	rc = an_reader_open(path, &r, &d);
	if (rc)
		fail_msg("%s: open: %s", what, d.message);
	while ((rc = an_reader_next(r, &ev, &d)) != 0 && an_error_is_recoverable(rc))
		;
	an_diag_format(&d, msg, sizeof(msg));
	snprintf(want, sizeof(want), "'%s'", path);
	if (rc != AN_E_FORMAT || !strstr(msg, want) || !strstr(msg, format) ||
	    !strstr(msg, "no event"))
		fail_msg("%s: rc %d: '%s'", what, rc, msg);
	assert_int_equal(an_reader_next(r, &ev, &d), AN_E_STATE);
	an_reader_close(r);
}

static void test_text_no_event(void **state)
{
	char path[256];

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(no_events); i++) {
		write_tmp(path, sizeof(path), no_events[i].data, strlen(no_events[i].data));
		check_no_event(no_events[i].what, path, no_events[i].format);
		unlink(path);
	}
	write_empty_dat(path, sizeof(path));
	check_no_event("trace.dat without records", path, "trace.dat");
	unlink(path);
}

/* A reader that failed for good refuses to go on. */
static void test_text_failed_reader(void **state)
{
	static const char input[] = "<html><script class=\"x\"></script>\n";
	FILE *fp = fmemopen((void *)input, sizeof(input) - 1, "r");
	struct an_reader *r;
	struct an_event ev;
	struct an_diag d;

	(void)state;
	assert_int_equal(an_reader_open_stream(fp, "x.html", &r, &d), 0);
	assert_int_equal(an_reader_next(r, &ev, &d), AN_E_FORMAT);
	assert_int_equal(an_reader_next(r, &ev, &d), AN_E_STATE);
	an_reader_close(r);
	fclose(fp);
}

/* Every allocation of open and read may fail: -ENOMEM, no crash, no leak. */
static void test_text_oom(void **state)
{
	static const char input[] = "# tracer: nop\na-1 [000] 1.0: cpu_idle: state=1 cpu_id=0\n";
	int nr_oom = 0;

	(void)state;
	for (unsigned long n = 1; n < 20; n++) {
		FILE *fp = fmemopen((void *)input, sizeof(input) - 1, "r");
		struct an_reader *r;
		struct an_event ev;
		struct an_diag d;
		int rc;

		an_malloc_fail_at(n);
		rc = an_reader_open_stream(fp, "oom.txt", &r, &d);
		if (rc == 0) {
			rc = an_reader_next(r, &ev, &d);
			an_reader_close(r);
		}
		an_malloc_fail_at(0);
		fclose(fp);
		if (rc == -ENOMEM)
			nr_oom++;
		else if (rc != 1)
			fail_msg("failing allocation %lu: rc %d (%s)", n, rc, d.message);
	}
	assert_true(nr_oom >= 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text_lines),
		cmocka_unit_test(test_text_alias_nul),
		cmocka_unit_test(test_text_streams),
		cmocka_unit_test(test_text_long_line),
		cmocka_unit_test(test_text_header_cpus),
		cmocka_unit_test(test_text_cpus_from_lines),
		cmocka_unit_test(test_text_cpus_long_file),
		cmocka_unit_test(test_text_pipe),
		cmocka_unit_test(test_text_header_events),
		cmocka_unit_test(test_text_real_traces),
		cmocka_unit_test(test_text_real_fields),
		cmocka_unit_test(test_text_bad_files),
		cmocka_unit_test(test_text_no_event),
		cmocka_unit_test(test_text_failed_reader),
		cmocka_unit_test(test_text_oom),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
