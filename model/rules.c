// SPDX-License-Identifier: MIT
/*
 * model/rules.c - the rule table of the specs (rules.h). Rows are grouped by
 * ID prefix, numbers ascending, so that model_rule_index() finds a row from
 * its prefix and number; IDs with a letter suffix (VA4b) follow their group.
 */
#include <string.h>

#include "rules.h"

#define V3	"uclamp-v3.md"
#define ML	"uclamp-mainline.md"
#define SU	"schedutil.md"
#define R3(id, m)	{ id, V3, MODEL_RULE_V3, m }
#define RM(id, m)	{ id, ML, MODEL_RULE_MAINLINE, m }
#define RS(id, m)	{ id, SU, MODEL_RULE_BOTH, m }

const struct model_rule model_rules[MODEL_RULES_NR] = {
	R3("VA1", "sched_attr layout: util_min/util_max fields"),
	R3("VA2", "sched_setattr clamp flags"),
	R3("VA3", "order of the sched_setattr checks"),
	R3("VA4", "clamp validation of a request"),
	R3("VA5", "clamps committed before the policy change"),
	R3("VA6", "no attr size check for clamp flags"),
	R3("VA7", "clamp flags without CONFIG_UCLAMP_TASK: EINVAL"),
	R3("VA8", "sched_getattr returns effective values"),
	R3("VA9", "cgroup files cpu.util.min/max"),
	R3("VA10", "cgroup write: percent, ERANGE, ENOSPC"),
	R3("VA11", "cgroup read: to_pct of the value"),
	R3("VA4b", "sched_setattr return value (slot index)"),
	R3("VP1", "from_pct: percent to capacity units"),
	R3("VP2", "to_pct: capacity units to percent"),
	R3("VP3", "sysctls sched_uclamp_util_min/max"),
	R3("VP4", "sysctl write and its errors"),
	R3("VG1", "clamp group table: slots per clamp id"),
	R3("VG2", "clamp group holders and references"),
	R3("VG3", "find a group holding a value"),
	R3("VG4", "attach a holder to a group"),
	R3("VG5", "release a group reference"),
	R3("VG6", "slot 0 at boot"),
	R3("VG7", "group capacity: ENOSPC when all slots are taken"),
	R3("VG8", "no release of a task's groups on exit"),
	R3("VG9", "serialization of the slow and fast paths"),
	R3("VR1", "per-CPU aggregate state"),
	R3("VR2", "count at enqueue, uncount at dequeue"),
	R3("VR3", "only fair and RT tasks are counted"),
	R3("VR4", "count a task: the rq value rises to its value"),
	R3("VR5", "uncount a task"),
	R3("VR6", "rescan for the highest counted group"),
	R3("VR7", "read the rq clamp (boot value when never set)"),
	R3("VR8", "clamp a utilization, max wins on inversion"),
	R3("VR9", "clamp change of a queued task"),
	R3("VR10", "task group change re-accounts queued tasks"),
	R3("VR11", "idle retention of UCLAMP_MAX"),
	R3("VR12", "sysctl changes apply lazily"),
	R3("VR13", "no frequency kick on a clamp change"),
	R3("VT1", "effective slot of a task"),
	R3("VT2", "effective value of a task"),
	R3("VT3", "effective min above max"),
	R3("VT4", "fork: requests never inherited"),
	R3("VT5", "task group creation"),
	R3("VT6", "root group values"),
	R3("VT7", "effective values propagate down the groups"),
	R3("VT8", "system default for tasks without a request"),
	R3("VT9", "autogroups are ordinary groups"),
	R3("VS1", "per-CPU util for frequency, clamped"),
	R3("VS2", "clamps are the CPU aggregate, DL and irq unclamped"),
	R3("VS3", "iowait boost ceiling from the max clamp"),
	R3("VS4", "frequency mapping per schedutil.md"),
	R3("VQ1", "defect: single-flag bounds in internal units"),
	R3("VQ2", "defect: no size check for clamp flags"),
	R3("VQ3", "defect: defaults on an uninitialized slot 0"),
	R3("VQ4", "defect: invalid sysctl write returns 0"),
	R3("VQ5", "defect: iowait ceiling from a kHz value"),
	R3("VQ6", "defect: root child requested min 1024"),
	R3("VQ7", "defect: propagated slot disagrees with its value"),
	R3("VQ8", "defect: first sysctl write releases slot 0"),
	R3("VQ9", "defect: documented range 0..1023"),
	R3("VQ10", "defect: sysctl write with a found slot"),
	R3("VQ11", "defect: sched_setattr returns the slot index"),
	R3("VQ12", "defect: runnable RT task ignores clamps"),
	R3("VQ13", "defect: system defaults for unset root tasks only"),
	RM("MB1", "buckets: count, width, index"),
	RM("MB2", "bucket value: local max, not lowered"),
	RM("MB3", "per-task request and effective value"),
	RM("MB4", "rq initial values and IDLE flag"),
	RM("MR1", "count at enqueue, uncount at dequeue"),
	RM("MR2", "static key sched_uclamp_used"),
	RM("MR3", "count a task: the rq value rises to its value"),
	RM("MR4", "uncount a task, idle retention of UCLAMP_MAX"),
	RM("MR5", "re-account queued tasks on a group change"),
	RM("MR6", "per-task change: dequeue, change, enqueue"),
	RM("MR7", "lazy updates of sysctl defaults"),
	RM("MR8", "read the rq clamp"),
	RM("MR9", "delayed dequeue (6.12+)"),
	RM("MT1", "effective value: group restriction, default cap"),
	RM("MT2", "task group restriction of a request"),
	RM("MT3", "effective value of an uncounted task"),
	RM("MT4", "default requests, RT default min"),
	RM("MT5", "task group effective values and their walk"),
	RM("MT6", "effective min above max"),
	RM("MA1", "sched_setattr clamp flags and attr size"),
	RM("MA2", "request validation"),
	RM("MA3", "permission"),
	RM("MA4", "apply a request, -1 resets"),
	RM("MA5", "clamp and policy change are atomic"),
	RM("MA6", "sched_getattr returns requested values"),
	RM("MA7", "fork: inherited unless reset_on_fork"),
	RM("MA8", "sysctls sched_util_clamp_*"),
	RM("MA9", "cgroup files cpu.uclamp.min/max"),
	RM("MA10", "cgroup write: percent with two decimals"),
	RM("MA11", "cgroup read"),
	RM("MS1", "clamp util with the rq clamps, min wins (5.3-6.7)"),
	RM("MS2", "runnable RT boosted through the RT default min"),
	RM("MS3", "frequency util: clamped cfs + rt (5.3-6.7)"),
	RM("MS4", "iowait boost and the clamps"),
	RM("MS5", "effective_cpu_util min/max, no headroom on clamps (6.8+)"),
	RM("MS6", "no busy hold on a capped rq"),
	RS("S1", "policy: CPUs, OPPs, limits"),
	RS("S2", "when the scheduler calls schedutil"),
	RS("S3", "which CPU may evaluate"),
	RS("S4", "per-CPU util, 4.11-4.17"),
	RS("S5", "per-CPU util, 4.18/4.19"),
	RS("S6", "per-CPU util, 5.x-6.7"),
	RS("S7", "per-CPU util and perf, 6.8+"),
	RS("S8", "reference frequency"),
	RS("S9", "raw target frequency"),
	RS("S10", "resolve to an OPP within the limits"),
	RS("S11", "cached raw target"),
	RS("S12", "shared policy, 4.11-4.17"),
	RS("S13", "shared policy: highest util/cap ratio"),
	RS("S14", "shared policy: highest util"),
	RS("S15", "rate limit"),
	RS("S16", "rate limit gate"),
	RS("S17", "forced update"),
	RS("S18", "busy hold"),
	RS("S19", "commit a new frequency"),
	RS("S20", "iowait boost, capacity form"),
	RS("S21", "iowait boost, kHz form"),
	RS("S22", "iowait boost, 4.11-4.17"),
	RS("S23", "RT runnable: max frequency"),
	RS("S24", "DL bandwidth"),
	RS("S25", "fast switch and its events"),
	RS("S26", "slow path kthread and its events"),
	RS("S27", "policy limits changes"),
	RS("S28", "other cpu_frequency sources"),
};

/* A prefix's rows: prefix N at first + N - 1, for N in 1..nr. */
struct rule_group {
	const char *prefix;
	int first;
	int nr;
};

static const struct rule_group groups[] = {
	{ "VA", 0, 11 }, { "VP", 12, 4 }, { "VG", 16, 9 }, { "VR", 25, 13 },
	{ "VT", 38, 9 }, { "VS", 47, 4 }, { "VQ", 51, 13 }, { "MB", 64, 4 },
	{ "MR", 68, 9 }, { "MT", 77, 6 }, { "MA", 83, 11 }, { "MS", 94, 6 },
	{ "S", 100, 28 },
};

int model_rule_index(const char *id)
{
	size_t len = 0;
	int n = 0;

	if (!id)
		return -1;
	while (id[len] >= 'A' && id[len] <= 'Z')
		len++;
	for (const char *p = id + len; *p >= '0' && *p <= '9' && n < 1000; p++)
		n = n * 10 + (*p - '0');
	for (size_t g = 0; g < sizeof(groups) / sizeof(groups[0]); g++) {
		if (strlen(groups[g].prefix) != len || strncmp(groups[g].prefix, id, len))
			continue;
		if (n >= 1 && n <= groups[g].nr &&
		    !strcmp(model_rules[groups[g].first + n - 1].id, id))
			return groups[g].first + n - 1;
		break;
	}
	for (int i = 0; i < MODEL_RULES_NR; i++)	/* suffixed IDs (VA4b) */
		if (!strcmp(model_rules[i].id, id))
			return i;
	return -1;
}

bool model_rule_in_variant(int index, enum model_variant variant)
{
	unsigned int bit = variant == MODEL_V3 ? MODEL_RULE_V3 : MODEL_RULE_MAINLINE;

	if (index < 0 || index >= MODEL_RULES_NR)
		return false;
	return model_rules[index].variants & bit;
}
