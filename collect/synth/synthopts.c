/* SPDX-License-Identifier: MIT */
/*
 * collect/synth/synthopts.c - the options of `ucval synth` (synthopts.h):
 * their defaults, their limits, and the faults by name.
 */
#include <errno.h>
#include <string.h>

#include "collect/synth/synthopts.h"
#include "model/schedutil.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define DEFAULT_EVENTS		100000
#define DEFAULT_CPUS		4
#define DEFAULT_POLICIES	2
#define DEFAULT_TASKS_PER_CPU	3
#define MAX_CPUS_PER_POLICY	MODEL_SU_MAX_CPUS

static const struct {
	const char *name;
	const char *checks;
	const char *text;
} faults[] = {
#define COL_SYNTH_FAULT_ROW(id, name, checks, text) { name, checks, text },
	COL_SYNTH_FAULTS(COL_SYNTH_FAULT_ROW)
#undef COL_SYNTH_FAULT_ROW
};

const char *col_synth_fault_name(enum col_synth_fault f)
{
	return (unsigned int)f < ARRAY_SIZE(faults) ? faults[f].name : "?";
}

const char *col_synth_fault_checks(enum col_synth_fault f)
{
	return (unsigned int)f < ARRAY_SIZE(faults) ? faults[f].checks : "";
}

const char *col_synth_fault_text(enum col_synth_fault f)
{
	return (unsigned int)f < ARRAY_SIZE(faults) ? faults[f].text : "";
}

int col_synth_fault_parse(const char *name, enum col_synth_fault *f)
{
	for (unsigned int i = 0; i < ARRAY_SIZE(faults); i++)
		if (!strcmp(name, faults[i].name)) {
			*f = (enum col_synth_fault)i;
			return 0;
		}
	return -EINVAL;
}

void col_synth_defaults(struct col_synth_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->seed = 1;
	o->nr_events = DEFAULT_EVENTS;
	o->nr_cpus = DEFAULT_CPUS;
	o->nr_policies = DEFAULT_POLICIES;
	o->nr_tasks = DEFAULT_CPUS * DEFAULT_TASKS_PER_CPU;
	o->format = COL_SYNTH_DAT;
	o->variant = MODEL_MAINLINE;
	o->fault = COL_SYNTH_FAULT_NONE;
}

int col_synth_check(const struct col_synth_opts *o, struct an_diag *d)
{
	if (!o->out_path)
		return an_diag_fail(d, -EINVAL, "no output file");
	if (!o->nr_events)
		return an_diag_fail(d, -EINVAL, "no events to write");
	if (!o->nr_cpus || o->nr_cpus > COL_SYNTH_MAX_CPUS)
		return an_diag_fail(d, -EINVAL, "%u CPUs: expected 1 to %u", o->nr_cpus,
				    COL_SYNTH_MAX_CPUS);
	if (!o->nr_policies || o->nr_policies > o->nr_cpus)
		return an_diag_fail(d, -EINVAL, "%u policies: expected 1 to the CPU count %u",
				    o->nr_policies, o->nr_cpus);
	if ((o->nr_cpus + o->nr_policies - 1) / o->nr_policies > MAX_CPUS_PER_POLICY)
		return an_diag_fail(d, -EINVAL, "more than %u CPUs in a policy: use more policies",
				    MAX_CPUS_PER_POLICY);
	if (o->nr_tasks < COL_SYNTH_MIN_TASKS || o->nr_tasks > COL_SYNTH_MAX_TASKS)
		return an_diag_fail(d, -EINVAL, "%u tasks: expected %u to %u", o->nr_tasks,
				    COL_SYNTH_MIN_TASKS, COL_SYNTH_MAX_TASKS);
	if ((unsigned int)o->fault >= COL_SYNTH_FAULT__COUNT)
		return an_diag_fail(d, -EINVAL, "unknown fault");
	if (o->fault == COL_SYNTH_FAULT_GROUPS_OVERFLOW && o->variant != MODEL_V3)
		return an_diag_fail(d, -EINVAL, "fault '%s' needs the v3 model (clamp groups)",
				    col_synth_fault_name(o->fault));
	return 0;
}
