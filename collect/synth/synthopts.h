/* SPDX-License-Identifier: MIT */
/*
 * collect/synth/synthopts.h - what `ucval synth` is asked to generate (its
 * options and faults, synthopts.c) and what it reports back. The generator's
 * state (synthstate.h) holds both; cmd_synth.c reaches them through synth.h.
 */
#ifndef UCVAL_COLLECT_SYNTH_SYNTHOPTS_H
#define UCVAL_COLLECT_SYNTH_SYNTHOPTS_H

#include <stdint.h>

#include "lib/diag.h"
#include "collect/synth/synthout.h"
#include "model/model.h"

/* Limits of the options (the model's and the marker grammar's). */
#define COL_SYNTH_MAX_CPUS	256
#define COL_SYNTH_MAX_TASKS	4096
#define COL_SYNTH_MIN_TASKS	2

/*
 * X(id, name, check ids it shows in, what the synthetic kernel does wrong).
 * The check list is informative: the truth file names the check per window.
 */
#define COL_SYNTH_FAULTS(X)						\
	X(NONE,		  "none", "",						\
	  "no fault: the kernel follows the model")				\
	X(RQ_MAX_STALE,	  "rq-max-stale", "rq_clamp",				\
	  "rq UCLAMP_MAX not recomputed when the task holding it dequeues")	\
	X(NO_IDLE_RETENTION, "no-idle-retention", "rq_clamp",			\
	  "an idle rq shows UCLAMP_MAX 1024 instead of retaining the last one")	\
	X(SUGOV_IGNORES_MIN, "sugov-ignores-min",				\
	  "freq_below_min_clamp,freq_prediction",				\
	  "schedutil chooses the frequency without the rq UCLAMP_MIN")		\
	X(SUGOV_IGNORES_MAX, "sugov-ignores-max",				\
	  "freq_above_max_clamp,freq_prediction",				\
	  "schedutil chooses the frequency without the rq UCLAMP_MAX")		\
	X(RATE_LIMIT,	  "rate-limit", "freq_prediction",			\
	  "frequency changes closer than the policy's rate limit")		\
	X(LOST_EVENTS,	  "lost-events", "trace_integrity",			\
	  "the ring buffer drops events of one CPU and says how many")		\
	X(ACCEPT_INVALID, "accept-invalid", "request_result",			\
	  "sched_setattr accepts clamp requests the model rejects")		\
	X(GROUPS_OVERFLOW, "groups-overflow", "groups_exhausted,request_result", \
	  "v3: a request succeeds although every clamp group is in use")	\
	X(EFF_IGNORES_GROUP, "eff-ignores-group", "task_effective",		\
	  "the effective clamp ignores the task group's restriction")

enum col_synth_fault {
#define COL_SYNTH_FAULT_ENUM(id, name, checks, text) COL_SYNTH_FAULT_##id,
	COL_SYNTH_FAULTS(COL_SYNTH_FAULT_ENUM)
#undef COL_SYNTH_FAULT_ENUM
	COL_SYNTH_FAULT__COUNT
};

/**
 * struct col_synth_opts - what to generate
 * @seed: every random choice derives from it
 * @nr_events: events to write (exactly, the last scheduling step may be cut)
 * @nr_cpus: CPUs, 1..COL_SYNTH_MAX_CPUS
 * @nr_policies: cpufreq policies, 1..@nr_cpus (CPUs split evenly, in order)
 * @nr_tasks: most tasks alive at once; three quarters live for the whole
 *	      trace, the rest are forked and exit
 * @format: output format
 * @variant: MODEL_V3 (4.19 rules, 5 groups) or MODEL_MAINLINE (6.1, 5 buckets)
 * @fault: the synthetic kernel's bug, COL_SYNTH_FAULT_NONE for none
 * @out_path: trace to write (written under a temporary name, then renamed)
 * @truth_path: truth file, or NULL
 */
struct col_synth_opts {
	uint64_t seed;
	uint64_t nr_events;
	unsigned int nr_cpus;
	unsigned int nr_policies;
	unsigned int nr_tasks;
	enum col_synth_format format;
	enum model_variant variant;
	enum col_synth_fault fault;
	const char *out_path;
	const char *truth_path;
};

/**
 * struct col_synth_stats - what was generated
 * @nr_events: events written (lost-events records not counted)
 * @nr_dropped: events the lost-events fault dropped
 * @nr_truth: truth windows written (those a checker must find)
 * @nr_truth_may: truth windows a checker may find (shorter than its grace)
 * @t_start_ns: first timestamp
 * @t_end_ns: last timestamp
 * @nr_tasks_seen: tasks (pids) that appeared
 */
struct col_synth_stats {
	uint64_t nr_events;
	uint64_t nr_dropped;
	uint64_t nr_truth;
	uint64_t nr_truth_may;
	uint64_t t_start_ns;
	uint64_t t_end_ns;
	uint64_t nr_tasks_seen;
};

/**
 * col_synth_defaults() - the defaults of `ucval synth`
 * @o: filled: seed 1, 100000 events, 4 CPUs in 2 policies, 12 tasks, dat,
 *     mainline, no fault, no paths
 */
void col_synth_defaults(struct col_synth_opts *o);

/**
 * col_synth_check() - whether @o can be generated
 * @o: options
 * @d: the reason when not
 *
 * Return: 0, or -EINVAL (a count out of range, groups-overflow without v3,
 * no output path).
 */
int col_synth_check(const struct col_synth_opts *o, struct an_diag *d);

/**
 * col_synth_fault_name() - the option text of @f ("rq-max-stale")
 * @f: a fault
 *
 * Return: a static string, "?" for an unknown value.
 */
const char *col_synth_fault_name(enum col_synth_fault f);

/**
 * col_synth_fault_checks() - the checks @f shows in, comma separated
 * @f: a fault
 *
 * Return: a static string ("" for none).
 */
const char *col_synth_fault_checks(enum col_synth_fault f);

/**
 * col_synth_fault_text() - one line saying what @f does wrong
 * @f: a fault
 *
 * Return: a static string.
 */
const char *col_synth_fault_text(enum col_synth_fault f);

/**
 * col_synth_fault_parse() - the fault named @name
 * @name: option text
 * @f: result
 *
 * Return: 0, or -EINVAL for an unknown name.
 */
int col_synth_fault_parse(const char *name, enum col_synth_fault *f);

#endif /* UCVAL_COLLECT_SYNTH_SYNTHOPTS_H */
