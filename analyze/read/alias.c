// SPDX-License-Identifier: MIT
/*
 * analyze/read/alias.c - the one alias table of ucval (spec/events.md §2).
 *
 * Raw event names (mainline, LISA module "lisa__*", sched_tp, Android and
 * MediaTek vendor events, 4.x names, proposed ones) map to a canonical type;
 * each type lists its fields with the raw names they go by. Readers decode
 * only through these rows, so a new variant is a new row, not new code.
 */
#include <string.h>

#include "analyze/read/alias.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define OFF(member) offsetof(struct an_event, member)

/* Raw event name -> canonical type. */
static const struct {
	const char *name;
	enum an_event_type type;
} event_aliases[] = {
	{ "sched_switch",		AN_EV_SCHED_SWITCH },
	{ "sched_wakeup",		AN_EV_SCHED_WAKEUP },
	{ "sched_wakeup_new",		AN_EV_SCHED_WAKEUP_NEW },
	{ "sched_waking",		AN_EV_SCHED_WAKING },
	{ "sched_migrate_task",		AN_EV_SCHED_MIGRATE_TASK },
	{ "sched_process_fork",		AN_EV_SCHED_PROCESS_FORK },
	{ "sched_process_exit",		AN_EV_SCHED_PROCESS_EXIT },
	{ "sched_process_free",		AN_EV_SCHED_PROCESS_FREE },
	{ "cpu_frequency",		AN_EV_CPU_FREQUENCY },
	{ "cpu_frequency_limits",	AN_EV_CPU_FREQUENCY_LIMITS },
	{ "cpu_idle",			AN_EV_CPU_IDLE },
	{ "print",			AN_EV_PRINT },
	{ "tracing_mark_write",		AN_EV_PRINT },	/* kernel text, atrace */
	{ "sys_enter_sched_setattr",	AN_EV_SYS_ENTER_SCHED_SETATTR },
	{ "sys_exit_sched_setattr",	AN_EV_SYS_EXIT_SCHED_SETATTR },
	{ "uclamp_util_cfs",		AN_EV_UCLAMP_UTIL_CFS },	/* sched_tp */
	{ "lisa__uclamp_util_cfs",	AN_EV_UCLAMP_UTIL_CFS },
	{ "uclamp_util_se",		AN_EV_UCLAMP_UTIL_SE },		/* sched_tp */
	{ "lisa__uclamp_util_se",	AN_EV_UCLAMP_UTIL_SE },
	{ "uclamp_request",		AN_EV_UCLAMP_REQUEST },
	{ "sched_setscheduler_uclamp",	AN_EV_UCLAMP_REQUEST },		/* Android */
	{ "uclamp_tg",			AN_EV_UCLAMP_TG },
	{ "uclamp_task_eff",		AN_EV_UCLAMP_TASK_EFF },
	{ "sched_pelt_cfs",		AN_EV_SCHED_PELT_CFS },
	{ "lisa__sched_pelt_cfs",	AN_EV_SCHED_PELT_CFS },
	{ "sched_load_cfs_rq",		AN_EV_SCHED_PELT_CFS },		/* 4.x */
	{ "schedutil_util",		AN_EV_SCHED_UTIL },
	{ "schedutil_cpu_util_clamp",	AN_EV_SCHED_UTIL },		/* Android */
	{ "sugov_util_update",		AN_EV_SUGOV_UTIL_UPDATE },	/* Android */
	{ "sugov_next_freq",		AN_EV_SUGOV_UTIL_UPDATE },	/* Android */
	{ "policy_frequency",		AN_EV_CPU_FREQUENCY },	/* proposed, per policy */
	{ "sched_pelt_se",		AN_EV_SCHED_PELT_SE },		/* sched_tp, Android */
	{ "lisa__sched_pelt_se",	AN_EV_SCHED_PELT_SE },
	{ "sched_util_est_cfs",		AN_EV_SCHED_UTIL_EST_CFS },	/* sched_tp, Android */
	{ "lisa__sched_util_est_cfs",	AN_EV_SCHED_UTIL_EST_CFS },
	{ "lisa__sched_util_est_cfs_unified", AN_EV_SCHED_UTIL_EST_CFS },	/* 6.8+ */
	{ "sched_util_est_se",		AN_EV_SCHED_UTIL_EST_SE },	/* sched_tp, Android */
	{ "lisa__sched_util_est_se",	AN_EV_SCHED_UTIL_EST_SE },
	{ "lisa__sched_util_est_se_unified", AN_EV_SCHED_UTIL_EST_SE },	/* 6.8+ */
	{ "sched_cpu_capacity",		AN_EV_SCHED_CPU_CAPACITY },	/* sched_tp, Android */
	{ "lisa__sched_cpu_capacity",	AN_EV_SCHED_CPU_CAPACITY },
	{ "sched_queue_task",		AN_EV_SCHED_QUEUE_TASK },	/* MediaTek */
	{ "sched_task_uclamp",		AN_EV_SCHED_TASK_UCLAMP },	/* MediaTek */
};

#define REQ true
#define OPT false

/* Field rows: { raw names }, kind, required, default, offset. */
static const struct an_alias_field switch_fields[] = {
	{ { "prev_comm" },	AN_FK_COMM,  OPT, 0, OFF(sw.prev_comm) },
	{ { "prev_pid" },	AN_FK_INT,   REQ, 0, OFF(sw.prev_pid) },
	{ { "prev_prio" },	AN_FK_INT,   OPT, AN_PRIO_NONE, OFF(sw.prev_prio) },
	{ { "prev_state" },	AN_FK_STATE, REQ, 0, OFF(sw.prev_state) },
	{ { "next_comm" },	AN_FK_COMM,  OPT, 0, OFF(sw.next_comm) },
	{ { "next_pid" },	AN_FK_INT,   REQ, 0, OFF(sw.next_pid) },
	{ { "next_prio" },	AN_FK_INT,   OPT, AN_PRIO_NONE, OFF(sw.next_prio) },
};

static const struct an_alias_field wakeup_fields[] = {
	{ { "comm" },		AN_FK_COMM, OPT, 0, OFF(wakeup.comm) },
	{ { "pid" },		AN_FK_INT,  REQ, 0, OFF(wakeup.pid) },
	{ { "prio" },		AN_FK_INT,  OPT, AN_PRIO_NONE, OFF(wakeup.prio) },
	{ { "target_cpu" },	AN_FK_INT,  REQ, 0, OFF(wakeup.target_cpu) },
};

static const struct an_alias_field migrate_fields[] = {
	{ { "comm" },		AN_FK_COMM, OPT, 0, OFF(migrate.comm) },
	{ { "pid" },		AN_FK_INT,  REQ, 0, OFF(migrate.pid) },
	{ { "prio" },		AN_FK_INT,  OPT, AN_PRIO_NONE, OFF(migrate.prio) },
	{ { "orig_cpu" },	AN_FK_INT,  REQ, 0, OFF(migrate.orig_cpu) },
	{ { "dest_cpu" },	AN_FK_INT,  REQ, 0, OFF(migrate.dest_cpu) },
};

static const struct an_alias_field fork_fields[] = {
	/* the text output prints parent_comm/parent_pid as comm=/pid= */
	{ { "parent_comm", "comm" }, AN_FK_COMM, OPT, 0, OFF(fork.parent_comm) },
	{ { "parent_pid", "pid" }, AN_FK_INT,  REQ, 0, OFF(fork.parent_pid) },
	{ { "child_comm" },	AN_FK_COMM, OPT, 0, OFF(fork.child_comm) },
	{ { "child_pid" },	AN_FK_INT,  REQ, 0, OFF(fork.child_pid) },
};

static const struct an_alias_field task_fields[] = {
	{ { "comm" },		AN_FK_COMM, OPT, 0, OFF(task.comm) },
	{ { "pid" },		AN_FK_INT,  REQ, 0, OFF(task.pid) },
	{ { "prio" },		AN_FK_INT,  OPT, AN_PRIO_NONE, OFF(task.prio) },
};

static const struct an_alias_field freq_fields[] = {
	/* policy_frequency: state, cpu_id, cpumask (text: policy_cpus=, hex);
	 * its first proposal: frequency, policy_cpu */
	{ { "state", "frequency" }, AN_FK_UINT, REQ, 0, OFF(freq.freq_khz) },
	{ { "cpu_id", "policy_cpu" }, AN_FK_INT, REQ, 0, OFF(freq.cpu_id) },
	{ { "cpumask", "policy_cpus" }, AN_FK_MASK, OPT, 0, OFF(freq.cpus) },
};

static const struct an_alias_field limits_fields[] = {
	/* the text output prints min_freq/max_freq as min=/max= */
	{ { "min_freq", "min" }, AN_FK_UINT, REQ, 0, OFF(limits.min_khz) },
	{ { "max_freq", "max" }, AN_FK_UINT, REQ, 0, OFF(limits.max_khz) },
	{ { "cpu_id" },		AN_FK_INT,  REQ, 0, OFF(limits.cpu_id) },
};

static const struct an_alias_field idle_fields[] = {
	{ { "state" },		AN_FK_UINT, REQ, 0, OFF(idle.state) },
	{ { "cpu_id" },		AN_FK_INT,  REQ, 0, OFF(idle.cpu_id) },
};

static const struct an_alias_field print_fields[] = {
	{ { "buf" },		AN_FK_TEXT, REQ, 0, OFF(print.text) },
};

static const struct an_alias_field setattr_enter_fields[] = {
	{ { "pid" },		AN_FK_INT,  REQ, 0, OFF(setattr_enter.pid) },
	{ { "flags" },		AN_FK_UINT, OPT, 0, OFF(setattr_enter.flags) },
};

static const struct an_alias_field setattr_exit_fields[] = {
	{ { "ret" },		AN_FK_LLONG, REQ, 0, OFF(setattr_exit.ret) },
};

static const struct an_alias_field util_cfs_fields[] = {
	{ { "cpu" },		AN_FK_INT,  REQ, 0, OFF(util_cfs.cpu) },
	{ { "util_avg" },	AN_FK_UINT, REQ, 0, OFF(util_cfs.util_avg) },
	{ { "uclamp_avg" },	AN_FK_UINT, REQ, 0, OFF(util_cfs.uclamp_avg) },
	{ { "uclamp_min" },	AN_FK_UINT, REQ, 0, OFF(util_cfs.uclamp_min) },
	{ { "uclamp_max" },	AN_FK_UINT, REQ, 0, OFF(util_cfs.uclamp_max) },
};

static const struct an_alias_field util_se_fields[] = {
	{ { "comm" },		AN_FK_COMM, OPT, 0, OFF(util_se.comm) },
	{ { "pid" },		AN_FK_INT,  REQ, 0, OFF(util_se.pid) },
	{ { "cpu" },		AN_FK_INT,  REQ, 0, OFF(util_se.cpu) },
	{ { "util_avg" },	AN_FK_UINT, REQ, 0, OFF(util_se.util_avg) },
	{ { "uclamp_avg" },	AN_FK_UINT, REQ, 0, OFF(util_se.uclamp_avg) },
	{ { "uclamp_min" },	AN_FK_UINT, REQ, 0, OFF(util_se.uclamp_min) },
	{ { "uclamp_max" },	AN_FK_UINT, REQ, 0, OFF(util_se.uclamp_max) },
};

static const struct an_alias_field request_fields[] = {
	{ { "comm" },		AN_FK_COMM, OPT, 0, OFF(request.comm) },
	{ { "pid" },		AN_FK_INT,  REQ, 0, OFF(request.pid) },
	{ { "clamp_id" },	AN_FK_INT,  REQ, 0, OFF(request.clamp_id) },
	{ { "value" },		AN_FK_UINT, REQ, 0, OFF(request.value) },
	{ { "ret" },		AN_FK_INT,  OPT, 0, OFF(request.ret) },
};

static const struct an_alias_field tg_fields[] = {
	{ { "path" },		AN_FK_PATH, REQ, 0, OFF(tg.path) },
	{ { "clamp_id" },	AN_FK_INT,  REQ, 0, OFF(tg.clamp_id) },
	{ { "value" },		AN_FK_UINT, REQ, 0, OFF(tg.value) },
	{ { "effective" },	AN_FK_UINT, REQ, 0, OFF(tg.effective) },
};

static const struct an_alias_field task_eff_fields[] = {
	{ { "comm" },		AN_FK_COMM, OPT, 0, OFF(task_eff.comm) },
	{ { "pid" },		AN_FK_INT,  REQ, 0, OFF(task_eff.pid) },
	{ { "clamp_id" },	AN_FK_INT,  REQ, 0, OFF(task_eff.clamp_id) },
	{ { "value" },		AN_FK_UINT, REQ, 0, OFF(task_eff.value) },
	{ { "effective" },	AN_FK_UINT, REQ, 0, OFF(task_eff.effective) },
	{ { "group_id", "bucket_id" }, AN_FK_INT, OPT, -1, OFF(task_eff.group_id) },
};

static const struct an_alias_field pelt_cfs_fields[] = {
	{ { "cpu" },		AN_FK_INT,  REQ, 0, OFF(pelt_cfs.cpu) },
	{ { "path" },		AN_FK_PATH, REQ, 0, OFF(pelt_cfs.path) },
	{ { "util" },		AN_FK_UINT, REQ, 0, OFF(pelt_cfs.util) },
};

static const struct an_alias_field sched_util_fields[] = {
	{ { "cpu" },		AN_FK_INT,  REQ, 0, OFF(sched_util.cpu) },
	{ { "util_cfs" },	AN_FK_UINT, REQ, 0, OFF(sched_util.util_cfs) },
	{ { "util_rt" },	AN_FK_UINT, OPT, 0, OFF(sched_util.util_rt) },
	{ { "util_clamp" },	AN_FK_UINT, REQ, 0, OFF(sched_util.util_clamp) },
	{ { "util_max" },	AN_FK_UINT, REQ, 0, OFF(sched_util.util_max) },
	{ { "time" },		AN_FK_LLONG, OPT, -1, OFF(sched_util.time) },
};

static const struct an_alias_field sugov_fields[] = {
	{ { "cpu" },		AN_FK_INT,  REQ, 0, OFF(sugov.cpu) },
	{ { "util" },		AN_FK_UINT, REQ, 0, OFF(sugov.util) },
	{ { "max_cap", "max" },	AN_FK_UINT, REQ, 0, OFF(sugov.max_cap) },
	{ { "flags" },		AN_FK_UINT, OPT, 0, OFF(sugov.flags) },
	{ { "freq" },		AN_FK_UINT, OPT, 0, OFF(sugov.freq) },	/* sugov_next_freq */
};

static const struct an_alias_field pelt_se_fields[] = {
	{ { "cpu" },		AN_FK_INT,  REQ, 0, OFF(pelt_se.cpu) },
	{ { "path" },		AN_FK_PATH, OPT, 0, OFF(pelt_se.path) },
	{ { "comm" },		AN_FK_COMM, OPT, 0, OFF(pelt_se.comm) },
	{ { "pid" },		AN_FK_INT,  REQ, 0, OFF(pelt_se.pid) },
	{ { "util" },		AN_FK_UINT, REQ, 0, OFF(pelt_se.util) },
};

/* util_est: the pair enqueued/ewma up to 6.7, one value (util_est) from 6.8 */
static const struct an_alias_field util_est_cfs_fields[] = {
	{ { "cpu" },		AN_FK_INT,  REQ, 0, OFF(util_est.cpu) },
	{ { "path" },		AN_FK_PATH, REQ, 0, OFF(util_est.path) },
	{ { "enqueued", "util_est" }, AN_FK_UINT, REQ, 0, OFF(util_est.enqueued) },
	{ { "ewma" },		AN_FK_UINT, OPT, 0, OFF(util_est.ewma) },
	{ { "util" },		AN_FK_UINT, OPT, 0, OFF(util_est.util) },
};

static const struct an_alias_field util_est_se_fields[] = {
	{ { "cpu" },		AN_FK_INT,  REQ, 0, OFF(util_est.cpu) },
	{ { "path" },		AN_FK_PATH, OPT, 0, OFF(util_est.path) },
	{ { "comm" },		AN_FK_COMM, OPT, 0, OFF(util_est.comm) },
	{ { "pid" },		AN_FK_INT,  REQ, 0, OFF(util_est.pid) },
	{ { "enqueued", "util_est" }, AN_FK_UINT, REQ, 0, OFF(util_est.enqueued) },
	{ { "ewma" },		AN_FK_UINT, OPT, 0, OFF(util_est.ewma) },
	{ { "util" },		AN_FK_UINT, OPT, 0, OFF(util_est.util) },
};

static const struct an_alias_field capacity_fields[] = {
	{ { "cpu" },		AN_FK_INT,  REQ, 0, OFF(capacity.cpu) },
	{ { "capacity" },	AN_FK_UINT, REQ, 0, OFF(capacity.capacity) },
	{ { "capacity_orig" },	AN_FK_UINT, OPT, 0, OFF(capacity.capacity_orig) },
	{ { "capacity_curr" },	AN_FK_UINT, OPT, 0, OFF(capacity.capacity_curr) },
};

/* MediaTek: min/max are the rq's clamps, task_min/task_max the task's */
static const struct an_alias_field queue_task_fields[] = {
	{ { "cpu" },		AN_FK_INT,  REQ, 0, OFF(queue.cpu) },
	{ { "pid" },		AN_FK_INT,  REQ, 0, OFF(queue.pid) },
	{ { "enqueue" },	AN_FK_INT,  REQ, 0, OFF(queue.enqueue) },
	{ { "cfs_util" },	AN_FK_UINT, OPT, 0, OFF(queue.cfs_util) },
	{ { "min" },		AN_FK_UINT, REQ, 0, OFF(queue.rq_min) },
	{ { "max" },		AN_FK_UINT, REQ, 0, OFF(queue.rq_max) },
	{ { "task_min" },	AN_FK_UINT, REQ, 0, OFF(queue.task_min) },
	{ { "task_max" },	AN_FK_UINT, REQ, 0, OFF(queue.task_max) },
};

/* MediaTek: min/max are the effective clamps, *_req the requests */
static const struct an_alias_field task_uclamp_fields[] = {
	{ { "pid" },		AN_FK_INT,  REQ, 0, OFF(task_uclamp.pid) },
	{ { "util" },		AN_FK_UINT, OPT, 0, OFF(task_uclamp.util) },
	{ { "active" },		AN_FK_UINT, OPT, 1, OFF(task_uclamp.active) },
	{ { "min" },		AN_FK_UINT, REQ, 0, OFF(task_uclamp.eff_min) },
	{ { "max" },		AN_FK_UINT, REQ, 0, OFF(task_uclamp.eff_max) },
	{ { "min_ud" },		AN_FK_UINT, OPT, 0, OFF(task_uclamp.min_ud) },
	{ { "min_req" },	AN_FK_UINT, OPT, 0, OFF(task_uclamp.min_req) },
	{ { "max_ud" },		AN_FK_UINT, OPT, 0, OFF(task_uclamp.max_ud) },
	{ { "max_req" },	AN_FK_UINT, OPT, 0, OFF(task_uclamp.max_req) },
};

/* A row count over AN_ALIAS_MAX_FIELDS does not compile (negative array size). */
#define NR_ROWS(rows) \
	(ARRAY_SIZE(rows) + 0 * sizeof(char[ARRAY_SIZE(rows) <= AN_ALIAS_MAX_FIELDS ? 1 : -1]))
#define TYPE(t, rows, member) \
	[AN_EV_##t] = { rows, NR_ROWS(rows), sizeof(((struct an_event *)0)->member) }

static const struct an_alias_type types[AN_EV__COUNT] = {
	TYPE(SCHED_SWITCH,		switch_fields, sw),
	TYPE(SCHED_WAKEUP,		wakeup_fields, wakeup),
	TYPE(SCHED_WAKEUP_NEW,		wakeup_fields, wakeup),
	TYPE(SCHED_MIGRATE_TASK,	migrate_fields, migrate),
	TYPE(SCHED_PROCESS_FORK,	fork_fields, fork),
	TYPE(SCHED_PROCESS_EXIT,	task_fields, task),
	TYPE(SCHED_PROCESS_FREE,	task_fields, task),
	TYPE(CPU_FREQUENCY,		freq_fields, freq),
	TYPE(CPU_FREQUENCY_LIMITS,	limits_fields, limits),
	TYPE(CPU_IDLE,			idle_fields, idle),
	TYPE(PRINT,			print_fields, print),
	TYPE(SYS_ENTER_SCHED_SETATTR,	setattr_enter_fields, setattr_enter),
	TYPE(SYS_EXIT_SCHED_SETATTR,	setattr_exit_fields, setattr_exit),
	TYPE(UCLAMP_UTIL_CFS,		util_cfs_fields, util_cfs),
	TYPE(UCLAMP_UTIL_SE,		util_se_fields, util_se),
	TYPE(UCLAMP_REQUEST,		request_fields, request),
	TYPE(UCLAMP_TG,			tg_fields, tg),
	TYPE(UCLAMP_TASK_EFF,		task_eff_fields, task_eff),
	TYPE(SCHED_PELT_CFS,		pelt_cfs_fields, pelt_cfs),
	TYPE(SCHED_UTIL,		sched_util_fields, sched_util),
	TYPE(SUGOV_UTIL_UPDATE,		sugov_fields, sugov),
	TYPE(SCHED_PELT_SE,		pelt_se_fields, pelt_se),
	TYPE(SCHED_UTIL_EST_CFS,	util_est_cfs_fields, util_est),
	TYPE(SCHED_UTIL_EST_SE,		util_est_se_fields, util_est),
	TYPE(SCHED_CPU_CAPACITY,	capacity_fields, capacity),
	TYPE(SCHED_QUEUE_TASK,		queue_task_fields, queue),
	TYPE(SCHED_TASK_UCLAMP,		task_uclamp_fields, task_uclamp),
	TYPE(SCHED_WAKING,		wakeup_fields, wakeup),
};

_Static_assert(8 * sizeof(((struct an_event *)0)->present) >= AN_ALIAS_MAX_FIELDS,
	       "present bitmask too small");

const struct an_state_bits an_alias_state_mainline = {
	.nr = 8,
	.mask = { 0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80 },
	.letter = { 'S', 'D', 'T', 't', 'X', 'Z', 'P', 'I' },
	.preempt = 0x100,
};

/**
 * an_alias_state_str() - letters of a numeric prev_state, as the kernel prints
 * @bits: the kernel's encoding
 * @value: prev_state number
 * @out: "S", "D|W", "R", "R+", ...
 *
 * Like the kernel's print format: the flag letters joined by '|', "R" when
 * none is set, then '+' when the preempt bit is set.
 */
void an_alias_state_str(const struct an_state_bits *bits,
			unsigned long long value, char out[AN_STATE_LEN])
{
	size_t n = 0;

	for (unsigned int i = 0; i < bits->nr && i < AN_STATE_BITS_MAX; i++) {
		if (!(value & bits->mask[i]) || n + 4 > AN_STATE_LEN)
			continue;
		if (n)
			out[n++] = '|';
		out[n++] = bits->letter[i];
	}
	if (!n)
		out[n++] = 'R';
	if (bits->preempt && (value & bits->preempt))
		out[n++] = '+';
	out[n] = '\0';
}

/**
 * an_alias_lookup() - canonical type of a raw event name
 * @name: raw name, possibly with a "system:" prefix ("sched:sched_switch")
 * @len: its length
 *
 * Return: the type, AN_EV_UNKNOWN when no alias row matches.
 */
enum an_event_type an_alias_lookup(const char *name, size_t len)
{
	const char *colon = memchr(name, ':', len);

	while (colon) {
		len -= (size_t)(colon + 1 - name);
		name = colon + 1;
		colon = memchr(name, ':', len);
	}
	/* memcmp after a length match: @name may hold a NUL before @len */
	for (size_t i = 0; i < ARRAY_SIZE(event_aliases); i++)
		if (strlen(event_aliases[i].name) == len &&
		    !memcmp(event_aliases[i].name, name, len))
			return event_aliases[i].type;
	return AN_EV_UNKNOWN;
}

/**
 * an_alias_type() - the field rows of @type
 * @type: canonical type
 *
 * Return: a static description; nr_fields is 0 for UNKNOWN and LOST_EVENTS.
 */
const struct an_alias_type *an_alias_type(enum an_event_type type)
{
	static const struct an_alias_type none;

	if ((unsigned int)type >= AN_EV__COUNT)
		return &none;
	return &types[type];
}

/**
 * an_alias_field_index() - which field of @type a raw field name is
 * @type: canonical type
 * @name: raw field name
 * @len: its length
 *
 * Return: the row index, or -1 when @type does not use that field.
 */
int an_alias_field_index(enum an_event_type type, const char *name, size_t len)
{
	const struct an_alias_type *t = an_alias_type(type);

	for (unsigned int i = 0; i < t->nr_fields; i++)
		for (unsigned int n = 0; n < AN_ALIAS_MAX_NAMES; n++) {
			const char *raw = t->fields[i].names[n];

			if (raw && strlen(raw) == len && !memcmp(raw, name, len))
				return (int)i;
		}
	return -1;
}

/**
 * an_alias_field_name() - canonical name of field @i of @type
 * @type: canonical type
 * @i: row index
 *
 * Return: a static string, "?" when out of range.
 */
const char *an_alias_field_name(enum an_event_type type, unsigned int i)
{
	const struct an_alias_type *t = an_alias_type(type);

	return i < t->nr_fields ? t->fields[i].names[0] : "?";
}

/**
 * an_alias_reset() - start decoding an event of @type into @ev
 * @ev: event; its type is set, its fields get their defaults, present is 0
 * @type: canonical type
 */
size_t an_alias_member_size(enum an_event_type type)
{
	const struct an_alias_type *t = an_alias_type(type);

	return t->size ? t->size : sizeof(struct an_event) - offsetof(struct an_event, sw);
}

void an_alias_reset(struct an_event *ev, enum an_event_type type)
{
	const struct an_alias_type *t = an_alias_type(type);

	/* the member of this type only: a print event's marker is large */
	memset(&ev->sw, 0, an_alias_member_size(type));
	ev->type = type;
	ev->present = 0;
	for (unsigned int i = 0; i < t->nr_fields; i++) {
		const struct an_alias_field *f = &t->fields[i];
		char *dst = (char *)ev + f->offset;

		if (f->kind == AN_FK_INT)
			*(int *)dst = (int)f->def;
		else if (f->kind == AN_FK_UINT)
			*(unsigned int *)dst = (unsigned int)f->def;
		else if (f->kind == AN_FK_LLONG)
			*(long long *)dst = f->def;
	}
}

static int field_error(struct an_event *ev, unsigned int i, struct an_diag *d,
		       const char *what)
{
	const char *name = an_alias_field_name(ev->type, i);

	an_diag_set_name(d->field, name, strlen(name));
	return an_diag_fail(d, AN_E_VALUE, "%s for '%s'", what, name);
}

/**
 * an_alias_set_num() - store numeric field @i of @ev
 * @ev: event being decoded (type set by an_alias_reset())
 * @i: row index
 * @value: the value read from the trace
 * @d: diagnostic, its field member is set on error
 *
 * A MASK field takes the bits of @value as they are.
 *
 * Return: 0, or AN_E_VALUE when the value does not fit the field.
 */
int an_alias_set_num(struct an_event *ev, unsigned int i, long long value,
		     struct an_diag *d)
{
	const struct an_alias_type *t = an_alias_type(ev->type);
	const struct an_alias_field *f;
	char *dst;

	if (i >= t->nr_fields)
		return field_error(ev, i, d, "no such field");
	f = &t->fields[i];
	dst = (char *)ev + f->offset;
	switch (f->kind) {
	case AN_FK_INT:
		if (value < INT32_MIN || value > INT32_MAX)
			return field_error(ev, i, d, "value out of range");
		*(int *)dst = (int)value;
		break;
	case AN_FK_UINT:
		if (value < INT32_MIN || value > UINT32_MAX)
			return field_error(ev, i, d, "value out of range");
		*(unsigned int *)dst = (unsigned int)value;
		break;
	case AN_FK_LLONG:
		*(long long *)dst = value;
		break;
	case AN_FK_MASK:
		*(unsigned long long *)dst = (unsigned long long)value;
		break;
	default:
		return field_error(ev, i, d, "number given to a text field");
	}
	ev->present |= UINT32_C(1) << i;
	return 0;
}

/**
 * an_alias_set_str() - store string field @i of @ev
 * @ev: event being decoded
 * @i: row index
 * @s: text, need not be NUL-terminated; TEXT fields keep the pointer
 * @len: its length
 * @d: diagnostic, its field member is set on error
 *
 * Return: 0, or AN_E_VALUE when a path or state is too long.
 */
int an_alias_set_str(struct an_event *ev, unsigned int i, const char *s,
		     size_t len, struct an_diag *d)
{
	const struct an_alias_type *t = an_alias_type(ev->type);
	const struct an_alias_field *f;
	char *dst;
	size_t size;

	if (i >= t->nr_fields)
		return field_error(ev, i, d, "no such field");
	f = &t->fields[i];
	dst = (char *)ev + f->offset;
	switch (f->kind) {
	case AN_FK_COMM:
		size = AN_COMM_LEN;
		if (len >= size)
			len = size - 1;	/* a label: cutting it is harmless */
		break;
	case AN_FK_PATH:
		size = AN_PATH_LEN;
		break;
	case AN_FK_STATE:
		size = AN_STATE_LEN;
		break;
	case AN_FK_TEXT:
		ev->print.text = s;
		ev->print.len = len;
		ev->present |= UINT32_C(1) << i;
		return 0;
	default:
		return field_error(ev, i, d, "text given to a number field");
	}
	if (len >= size)
		return field_error(ev, i, d, "value too long");
	if (memchr(s, '\0', len))
		return field_error(ev, i, d, "NUL byte in text");
	memcpy(dst, s, len);
	dst[len] = '\0';
	ev->present |= UINT32_C(1) << i;
	return 0;
}

/**
 * an_alias_check() - verify that every required field of @ev was present
 * @ev: decoded event
 * @d: diagnostic naming the first missing field
 *
 * Return: 0, or AN_E_FIELD.
 */
int an_alias_check(const struct an_event *ev, struct an_diag *d)
{
	const struct an_alias_type *t = an_alias_type(ev->type);

	for (unsigned int i = 0; i < t->nr_fields; i++) {
		const char *name = t->fields[i].names[0];

		if (!t->fields[i].is_required || (ev->present & (UINT32_C(1) << i)))
			continue;
		an_diag_set_name(d->field, name, strlen(name));
		return an_diag_fail(d, AN_E_FIELD, "no field '%s'", name);
	}
	return 0;
}
