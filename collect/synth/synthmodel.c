/* SPDX-License-Identifier: MIT */
/*
 * collect/synth/synthmodel.c - the reference model's answers on the state of
 * `ucval synth` (synthmodel.h): what schedutil sees of each CPU, the OPP it
 * chooses, the floor and ceiling the frequency checks derive, and the rq
 * UCLAMP_MAX a faulty kernel shows.
 */
#include <limits.h>
#include <string.h>

#include "collect/synth/synthmodel.h"

/**
 * sy_model_rq_max_seen() - the rq UCLAMP_MAX the kernel shows for @cpu
 * @s: generator
 * @cpu: the CPU
 *
 * Return: the value.
 */
unsigned int sy_model_rq_max_seen(const struct synth *s, unsigned int cpu)
{
	if (s->o->fault == COL_SYNTH_FAULT_RQ_MAX_STALE && s->cpu[cpu].has_stale)
		return (unsigned int)s->cpu[cpu].stale_max;
	if (s->o->fault == COL_SYNTH_FAULT_NO_IDLE_RETENTION && model_rq_is_idle(&s->sys, (int)cpu))
		return MODEL_SCALE;
	return (unsigned int)model_rq_value(&s->sys, (int)cpu, MODEL_UCLAMP_MAX);
}

/* What schedutil sees of @cpu, as analyze/checks/freqstate.c an_fq_cpu_in() reads it. */
static void cpu_in(const struct synth *s, unsigned int cpu, struct model_su_cpu_in *in)
{
	const struct sy_cpu *c = &s->cpu[cpu];

	memset(in, 0, sizeof(*in));
	in->rq_min = (unsigned int)model_rq_value(&s->sys, (int)cpu, MODEL_UCLAMP_MIN);
	in->rq_max = (unsigned int)model_rq_value(&s->sys, (int)cpu, MODEL_UCLAMP_MAX);
	in->is_rq_idle = model_rq_is_idle(&s->sys, (int)cpu);
	in->is_uclamp_used = s->sys.is_uclamp_used;
	in->is_rt_runnable = s->mcpu[cpu].nr_rt > 0;
	in->util_cfs = c->util < c->capacity ? c->util : c->capacity;
}

/**
 * sy_model_target() - the OPP schedutil chooses for policy @p
 * @s: generator
 * @p: policy
 * @is_kernel: the synthetic kernel's choice, with its fault; false: the model's
 *
 * Return: the frequency in kHz.
 */
unsigned int sy_model_target(const struct synth *s, const struct sy_policy *p, bool is_kernel)
{
	struct model_su_cpu_in in[MODEL_SU_MAX_CPUS];
	struct model_su_eval e;

	for (unsigned int i = 0; i < p->nr; i++) {
		cpu_in(s, p->first + i, &in[i]);
		if (is_kernel && s->o->fault == COL_SYNTH_FAULT_SUGOV_IGNORES_MIN)
			in[i].rq_min = 0;
		if (is_kernel && s->o->fault == COL_SYNTH_FAULT_SUGOV_IGNORES_MAX)
			in[i].rq_max = MODEL_SCALE;
	}
	if (model_su_expected(&p->su, in, &e, NULL))
		return p->cur_khz;	/* checked at setup: cannot happen */
	return e.freq_khz;
}

/* The model's floor of @cpu (0 while it runs nothing) and its policy's ceiling. */
static unsigned int cpu_floor(const struct synth *s, unsigned int cpu)
{
	const struct sy_policy *p = &s->pol[s->cpu[cpu].policy];
	struct model_su_cpu_in in;
	struct model_su_bound b;

	if (!s->cpu[cpu].curr)
		return 0;
	cpu_in(s, cpu, &in);
	return model_su_floor(&p->su, &in, &b, NULL) ? 0 : b.freq_khz;
}

static unsigned int policy_ceiling(const struct synth *s, const struct sy_policy *p)
{
	struct model_su_cpu_in in[MODEL_SU_MAX_CPUS];
	struct model_su_bound b;

	for (unsigned int i = 0; i < p->nr; i++)
		cpu_in(s, p->first + i, &in[i]);
	if (model_su_ceiling(&p->su, in, &b, NULL) || !b.is_bounded)
		return UINT_MAX;
	return b.freq_khz;
}

/**
 * sy_model_expected() - the model's expectations the frequency checks hold
 * the kernel to
 * @s: generator
 * @p: policy
 * @pred: prediction (the model's OPP)
 * @ceil: ceiling (UINT_MAX: none)
 * @floor: per CPU of @p, its floor (0: none)
 */
void sy_model_expected(const struct synth *s, const struct sy_policy *p, unsigned int *pred,
		       unsigned int *ceil, unsigned int *floor)
{
	*pred = sy_model_target(s, p, false);
	*ceil = policy_ceiling(s, p);
	for (unsigned int i = 0; i < p->nr; i++)
		floor[i] = cpu_floor(s, p->first + i);
}
