/* SPDX-License-Identifier: MIT */
/*
 * collect/synth/synthtruth.h - where a fault of `ucval synth` shows
 * (synthtruth.c): the truth file's windows, opened and closed as the
 * generator writes observations, and the lost-events fault, which decides
 * which events the ring buffer drops. Writes no event itself (a loss record
 * at most, through synthout.h).
 */
#ifndef UCVAL_COLLECT_SYNTH_SYNTHTRUTH_H
#define UCVAL_COLLECT_SYNTH_SYNTHTRUTH_H

#include <stdbool.h>
#include <stdint.h>

#include "collect/synth/synthev.h"
#include "collect/synth/synthstate.h"

/**
 * sy_truth_window() - write one truth window
 * @s: generator
 * @check: check id (events.md §4)
 * @cpu: key CPU, -1 none
 * @start_ns: first instant the fault shows
 * @end_ns: last one
 * @rule: the spec rule a checker cites
 * @is_may: a checker may miss it (shorter than its grace)
 */
void sy_truth_window(struct synth *s, const char *check, int cpu, uint64_t start_ns,
		     uint64_t end_ns, const char *rule, bool is_may);

/**
 * sy_truth_rq() - a uclamp_util_cfs of @cpu was written at @ts
 * @s: generator
 * @cpu: its CPU
 * @ts: its time
 * @is_differ: the kernel's rq clamps in it differ from the model's
 */
void sy_truth_rq(struct synth *s, unsigned int cpu, uint64_t ts, bool is_differ);

/**
 * sy_truth_request() - a setattr marker for @t was written at @ts
 * @s: generator
 * @t: the target task
 * @ts: its time
 * @kernel_ret: what the synthetic kernel answered
 * @model_ret: what the model answered
 */
void sy_truth_request(struct synth *s, struct sy_task *t, uint64_t ts, int kernel_ret,
		      int model_ret);

/**
 * sy_truth_eff() - a uclamp_task_eff of @t for clamp @id was written at @ts
 * @s: generator
 * @t: the task
 * @id: clamp id
 * @ts: its time
 * @is_differ: the effective value in it differs from the model's
 */
void sy_truth_eff(struct synth *s, struct sy_task *t, int id, uint64_t ts, bool is_differ);

/**
 * sy_truth_task_gone() - @t exited: its windows end
 * @s: generator
 * @t: the task
 * @ts: its exit
 */
void sy_truth_task_gone(struct synth *s, struct sy_task *t, uint64_t ts);

/**
 * sy_truth_freq_init() - the keys of the frequency faults
 * @s: generator
 */
void sy_truth_freq_init(struct synth *s);

/**
 * sy_truth_freq() - bring the frequency keys to @ts (after each step and
 * each frequency change)
 * @s: generator
 * @ts: the time of the last event written
 */
void sy_truth_freq(struct synth *s, uint64_t ts);

/**
 * sy_truth_finish() - the trace ended: write the windows still open
 * @s: generator
 */
void sy_truth_finish(struct synth *s);

/**
 * sy_loss_arm() - start dropping events of one CPU (fault lost-events)
 * @s: generator
 */
void sy_loss_arm(struct synth *s);

/**
 * sy_loss_filter() - whether the lost-events fault drops @ev
 * @s: generator
 * @ev: the event about to be written at @ts
 * @ts: its time
 *
 * Return: true to drop it.
 */
bool sy_loss_filter(struct synth *s, const struct col_so_ev *ev, uint64_t ts);

/**
 * sy_loss_freq_written() - every cpu_frequency of a change of @p was written
 * @s: generator
 * @p: the policy
 * @ts: time of the first one
 */
void sy_loss_freq_written(struct synth *s, struct sy_policy *p, uint64_t ts);

/**
 * sy_loss_enqueue() - a task is about to be queued on @cpu: is a runqueue
 * forgotten at a loss known again?
 * @s: generator
 * @cpu: the CPU
 */
void sy_loss_enqueue(struct synth *s, unsigned int cpu);

#endif /* UCVAL_COLLECT_SYNTH_SYNTHTRUTH_H */
