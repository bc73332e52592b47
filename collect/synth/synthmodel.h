/* SPDX-License-Identifier: MIT */
/*
 * collect/synth/synthmodel.h - the reference model's answers on the state of
 * `ucval synth` (synthmodel.c): the frequency schedutil chooses for a policy
 * (the model's, or the synthetic kernel's with its fault), the floors and
 * ceiling the frequency checks hold it to, and the rq UCLAMP_MAX the kernel
 * shows. Queries only: no event is written, no state changes.
 */
#ifndef UCVAL_COLLECT_SYNTH_SYNTHMODEL_H
#define UCVAL_COLLECT_SYNTH_SYNTHMODEL_H

#include <stdbool.h>

#include "collect/synth/synthstate.h"

/**
 * sy_model_target() - the OPP schedutil chooses for policy @p
 * @s: generator
 * @p: policy
 * @is_kernel: the synthetic kernel's choice, with its fault (sugov-ignores-min,
 *	       sugov-ignores-max); false: the model's
 *
 * Return: the frequency in kHz.
 */
unsigned int sy_model_target(const struct synth *s, const struct sy_policy *p, bool is_kernel);

/**
 * sy_model_expected() - the model's expectations the frequency checks hold
 * the kernel to
 * @s: generator
 * @p: policy
 * @pred: prediction (the model's OPP)
 * @ceil: ceiling (UINT_MAX: none)
 * @floor: per CPU of @p, its floor (0: none); MODEL_SU_MAX_CPUS entries
 */
void sy_model_expected(const struct synth *s, const struct sy_policy *p, unsigned int *pred,
		       unsigned int *ceil, unsigned int *floor);

/**
 * sy_model_rq_max_seen() - the rq UCLAMP_MAX the kernel shows for @cpu
 * (faults rq-max-stale and no-idle-retention change it)
 * @s: generator
 * @cpu: the CPU
 *
 * Return: the value.
 */
unsigned int sy_model_rq_max_seen(const struct synth *s, unsigned int cpu);

#endif /* UCVAL_COLLECT_SYNTH_SYNTHMODEL_H */
