// SPDX-License-Identifier: MIT
/*
 * collect/synth/synth.c - `ucval synth` (synth.h): the platform, the event
 * loop, and the synthetic schedutil at the end of each step.
 *
 * The generator is a discrete-event simulation: timers (task wake-ups, CPU
 * slices and ticks, deferred frequency changes, requests, forks ...) fire in
 * time order, each firing is one step of a few events, and every event gets
 * its own microsecond, so all readers order the trace the same way. Clamps
 * and frequencies are the reference model's answers (model_setattr(),
 * model_rq_value(), model_su_expected()) on the same inputs the analyzer
 * will replay; the frequency follows them within the rate limit (S15), so a
 * clean trace passes every check. Memory: tasks, CPUs, policies, timers.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "collect/synth/synth.h"
#include "collect/synth/synthemit.h"
#include "collect/synth/synthmodel.h"
#include "collect/synth/synthout.h"
#include "collect/synth/synthsched.h"
#include "collect/synth/synthstate.h"
#include "collect/synth/synthtruth.h"
#include "model/schedutil.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Trace clock at the first event: like a machine up for 100 s. */
#define BASE_TS_NS		(100ULL * 1000000000ULL)
/* HZ=250, the common Android and distribution setting. */
#define TICK_US			4000
/* v3 clamp groups / mainline buckets: the Kconfig default (VG1, MB1). */
#define NR_GROUPS		5
/* OPP tables: 4..9 entries from a low 300..600 MHz to a top of 1.2..2.8 GHz. */
#define OPP_MIN_COUNT		4
#define OPP_MAX_EXTRA		5
#define OPP_LOW_KHZ		300000
#define OPP_LOW_STEP_KHZ	100000
#define OPP_TOP_KHZ		1200000
#define OPP_TOP_SPAN_KHZ	1600000
#define OPP_ROUND_KHZ		1000
/* A policy's capacity as a percentage of its top frequency's share, so the
 * smaller clusters also do less work per cycle (big.LITTLE). */
#define CAP_PCT_MIN		60
#define CAP_PCT_MAX		95
#define CAP_MIN			128
/* Rate limits a policy may have (µs): the usual sysfs settings. */
static const unsigned int rate_limits_us[] = { 500, 1000, 2000 };
/* A checker may take the rate limit, two ticks (an event, then an
 * evaluation) and this slack before it must see a frequency mismatch. */
#define GRACE_SLACK_US		1000

/* ---- util events ---- */

/* The PELT-like signal: half way to the queued tasks' sum at each update. */
static unsigned int next_util(const struct sy_cpu *c)
{
	unsigned int target = c->util_sum < c->capacity ? c->util_sum : c->capacity;

	if (c->util + 1 >= target && target + 1 >= c->util)
		return target;
	return target > c->util ? c->util + (target - c->util) / 2 :
				  c->util - (c->util - target) / 2;
}

static void util_event(struct synth *s, unsigned int cpu)
{
	struct sy_cpu *c = &s->cpu[cpu];
	int rq_min = model_rq_value(&s->sys, (int)cpu, MODEL_UCLAMP_MIN);
	int rq_max = model_rq_value(&s->sys, (int)cpu, MODEL_UCLAMP_MAX);
	unsigned int seen_max = sy_model_rq_max_seen(s, cpu);
	struct col_so_ev ev = { .type = COL_SO_UTIL_CFS };

	c->util = next_util(c);
	sy_ctx(s, cpu, &ev);
	ev.util.cpu = cpu;
	ev.util.util_avg = c->util;
	ev.util.uclamp_min = (unsigned int)rq_min;
	ev.util.uclamp_max = seen_max;
	ev.util.uclamp_avg = model_clamp_util(s->o->variant, c->util, rq_min, (int)seen_max);
	if (sy_emit(s, &ev))
		sy_truth_rq(s, cpu, s->last_ns, seen_max != (unsigned int)rq_max);
}

/* ---- the synthetic schedutil ---- */

/* cpu_frequency of every CPU of @p (5.3+ fast switch, S25), from a busy CPU. */
static void set_freq(struct synth *s, struct sy_policy *p, unsigned int khz, bool is_initial)
{
	unsigned int from = p->first;
	uint64_t ts = s->now_ns;
	bool is_written = false, is_all = true;

	for (unsigned int i = 0; i < p->nr; i++)
		if (s->cpu[p->first + i].curr) {
			from = p->first + i;
			break;
		}
	for (unsigned int i = 0; i < p->nr; i++) {
		struct col_so_ev ev = { .type = COL_SO_FREQ };

		sy_ctx(s, from, &ev);
		ev.freq.khz = khz;
		ev.freq.cpu_id = p->first + i;
		if (sy_emit(s, &ev)) {
			is_written |= !i;
		} else {
			is_all = false;
		}
	}
	if (is_all)
		sy_loss_freq_written(s, p, ts);
	/* a checker may excuse a shortfall of up to MODEL_SU_EARLY_NS (see there) */
	if (!is_initial && p->has_change && is_written &&
	    ts < p->last_change_ns + p->su.rate_limit_us * SY_NS_PER_US)
		sy_truth_window(s, "freq_prediction", (int)p->first, ts,
				p->last_change_ns + p->su.rate_limit_us * SY_NS_PER_US, "S15",
				p->last_change_ns + p->su.rate_limit_us * SY_NS_PER_US - ts <=
				MODEL_SU_EARLY_NS);
	if (!is_initial) {
		p->has_change = true;
		p->last_change_ns = ts;
	}
	p->cur_khz = khz;
	p->su.cur_khz = khz;
	if (is_written)
		sy_truth_freq(s, ts);
}

static void governor_eval(struct synth *s, unsigned int pi)
{
	struct sy_policy *p = &s->pol[pi];
	unsigned int khz = sy_model_target(s, p, true);
	uint64_t allowed = p->last_change_ns + p->su.rate_limit_us * SY_NS_PER_US;

	if (khz == p->cur_khz)
		return;
	if (!p->has_change || s->now_ns >= allowed ||
	    s->o->fault == COL_SYNTH_FAULT_RATE_LIMIT)
		set_freq(s, p, khz, false);
	else
		sy_timer_set(&s->timers, sy_t_policy(s, pi), allowed);
}

/* A change the rate limit deferred is due (S15). */
static void governor_fire(struct synth *s, unsigned int p)
{
	unsigned int khz = sy_model_target(s, &s->pol[p], true);

	if (khz != s->pol[p].cur_khz)
		set_freq(s, &s->pol[p], khz, false);
}

/* The first cpu_frequency of every policy (its cur). */
static void freq_initial(struct synth *s)
{
	for (unsigned int p = 0; p < s->o->nr_policies; p++)
		set_freq(s, &s->pol[p], s->pol[p].cur_khz, true);
}

/*
 * Close a step: util events of the CPUs it touched, then schedutil on their
 * policies, then the truth of the frequency faults.
 */
static void end_step(struct synth *s)
{
	const struct col_synth_opts *o = s->o;
	bool is_eval[COL_SYNTH_MAX_CPUS] = { false };

	for (unsigned int c = 0; c < o->nr_cpus; c++) {
		if (!s->cpu[c].is_dirty)
			continue;
		s->cpu[c].is_dirty = false;
		util_event(s, c);
		is_eval[s->cpu[c].policy] = true;
	}
	for (unsigned int p = 0; p < o->nr_policies; p++)
		if (is_eval[p])
			governor_eval(s, p);
	sy_truth_freq(s, s->last_ns);
}

/* ---- platform ---- */

static void make_opps(struct synth *s, unsigned int pi, unsigned int *opp, unsigned int *nr)
{
	unsigned int np = s->o->nr_policies;
	unsigned int n = OPP_MIN_COUNT + (unsigned int)sy_rng_range(&s->rng, 0, OPP_MAX_EXTRA);
	unsigned int lo = OPP_LOW_KHZ + OPP_LOW_STEP_KHZ * (unsigned int)sy_rng_range(&s->rng, 0, 3);
	unsigned int hi = OPP_TOP_KHZ + (np > 1 ? OPP_TOP_SPAN_KHZ / (np - 1) * pi : 0) +
			  OPP_ROUND_KHZ * (unsigned int)sy_rng_range(&s->rng, 0, 99);

	for (unsigned int i = 0; i < n; i++) {
		unsigned long long v = lo + (unsigned long long)(hi - lo) * i / (n - 1);

		opp[i] = (unsigned int)(v / OPP_ROUND_KHZ * OPP_ROUND_KHZ);
	}
	*nr = n;
}

static int setup_platform(struct synth *s, struct an_diag *d)
{
	const struct col_synth_opts *o = s->o;
	unsigned int top_khz = 0;

	for (unsigned int pi = 0; pi < o->nr_policies; pi++) {
		struct sy_policy *p = &s->pol[pi];
		unsigned int opp[MODEL_SU_MAX_OPPS], nr;

		p->first = pi * o->nr_cpus / o->nr_policies;
		p->nr = (pi + 1) * o->nr_cpus / o->nr_policies - p->first;
		model_su_policy_init(&p->su, s->kver, o->variant);
		p->su.tick_us = s->tick_us;
		make_opps(s, pi, opp, &nr);
		model_su_policy_set_opps(&p->su, opp, nr);
		p->su.rate_limit_us = rate_limits_us[sy_rng_range(&s->rng, 0,
								  ARRAY_SIZE(rate_limits_us) - 1)];
		for (unsigned int i = 0; i < p->nr; i++) {
			p->su.cpu[i] = (int)(p->first + i);
			s->cpu[p->first + i].policy = pi;
		}
		p->su.nr_cpus = p->nr;
		p->cur_khz = p->su.cur_khz;
		p->grace_ns = ((uint64_t)p->su.rate_limit_us + 2 * s->tick_us + GRACE_SLACK_US) *
			      SY_NS_PER_US;
		top_khz = opp[nr - 1];
	}
	for (unsigned int pi = 0; pi < o->nr_policies; pi++) {
		struct sy_policy *p = &s->pol[pi];
		unsigned long long cap = MODEL_SCALE;

		if (pi + 1 < o->nr_policies)
			cap = (unsigned long long)MODEL_SCALE * p->su.max_freq_khz / top_khz *
			      sy_rng_range(&s->rng, CAP_PCT_MIN, CAP_PCT_MAX) / 100;
		if (cap < CAP_MIN)
			cap = CAP_MIN;
		p->su.capacity = (unsigned int)cap;
		for (unsigned int i = 0; i < p->nr; i++)
			s->cpu[p->first + i].capacity = (unsigned int)cap;
		if (model_su_policy_check(&p->su, NULL))
			return an_diag_fail(d, -EINVAL, "internal: policy %u refused by the model",
					    pi);
	}
	return 0;
}

static int setup(struct synth *s, const struct col_synth_opts *o, struct an_diag *d)
{
	struct model_config cfg;
	unsigned int nr_timers;
	int err;

	s->o = o;
	sy_rng_seed(&s->rng, o->seed, 1);
	sy_rng_seed(&s->frng, o->seed, 2);
	s->tick_us = TICK_US;
	s->kver = o->variant == MODEL_V3 ? MODEL_KVER_V3 : MODEL_KVER(6, 1, 0);
	s->nr_tasks = o->nr_tasks;
	s->nr_immortal = o->nr_tasks - o->nr_tasks / 4;
	s->loss_cpu = -1;
	s->now_ns = BASE_TS_NS;
	s->next_pid = 1000;
	nr_timers = o->nr_tasks + 2 * o->nr_cpus + o->nr_policies + SY_T__COUNT;
	s->mcpu = calloc(o->nr_cpus, sizeof(*s->mcpu));
	s->cpu = calloc(o->nr_cpus, sizeof(*s->cpu));
	s->pol = calloc(o->nr_policies, sizeof(*s->pol));
	s->task = calloc(o->nr_tasks, sizeof(*s->task));
	if (!s->mcpu || !s->cpu || !s->pol || !s->task || sy_timers_init(&s->timers, nr_timers))
		return an_diag_fail(d, -ENOMEM, "out of memory");
	model_config_default(&cfg, o->variant, o->nr_cpus);
	cfg.groups = NR_GROUPS;
	cfg.abi_scale = MODEL_SCALE;	/* markers in 1024 units (events.md §3 scale) */
	cfg.task_group = true;
	err = model_init(&s->sys, &cfg, s->mcpu);
	if (err)
		return an_diag_fail(d, -EINVAL, "internal: model refused its configuration");
	return setup_platform(s, d);
}

static void teardown(struct synth *s)
{
	free(s->mcpu);
	free(s->cpu);
	free(s->pol);
	free(s->task);
	sy_timers_free(&s->timers);
	free(s->cmdlines);
}

/* "pid comm" of the tasks alive at the start, for the trace.dat header. */
static int make_cmdlines(struct synth *s)
{
	size_t len = 0, size = (size_t)s->nr_tasks * (SY_COMM_LEN + 16) + 1;

	s->cmdlines = malloc(size);
	if (!s->cmdlines)
		return -ENOMEM;
	s->cmdlines[0] = '\0';
	for (unsigned int i = 0; i < s->nr_tasks; i++)
		if (s->task[i].state != SY_FREE)
			len += (size_t)snprintf(s->cmdlines + len, size - len, "%d %s\n",
						s->task[i].pid, s->task[i].comm);
	return 0;
}

static void run_loop(struct synth *s)
{
	unsigned int id;
	uint64_t t;

	while (!s->is_done && sy_timer_pop(&s->timers, &id, &t)) {
		if (t > s->now_ns)
			s->now_ns = t;
		if (id >= sy_t_policy(s, 0) && id < sy_t_global(s, 0))
			governor_fire(s, id - sy_t_policy(s, 0));
		else if (id == sy_t_global(s, SY_T_LOSS))
			sy_loss_arm(s);
		else
			sy_sched_timer(s, id);
		end_step(s);
	}
}

int col_synth_run(const struct col_synth_opts *o, struct col_synth_stats *st,
		  struct an_diag *d)
{
	struct synth *s;
	int err;

	err = col_synth_check(o, d);
	if (err)
		return err;
	s = calloc(1, sizeof(*s));
	if (!s)
		return an_diag_fail(d, -ENOMEM, "out of memory");
	err = setup(s, o, d);
	if (err)
		goto out_free;
	sy_sched_start(s);	/* the tasks, no event yet */
	err = make_cmdlines(s);
	if (err) {
		an_diag_fail(d, err, "out of memory");
		goto out_free;
	}
	if (o->truth_path) {
		an_diag_set_file(d, "write", o->truth_path);
		s->truth = fopen(o->truth_path, "w");
		if (!s->truth) {
			err = an_diag_fail(d, -errno, "%s", strerror(errno));
			goto out_free;
		}
		fprintf(s->truth, "# ucval synth truth: fault %s, seed %llu, model %s\n"
			"# check_id cpu ts_start_ns ts_end_ns rule [may]\n",
			col_synth_fault_name(o->fault), (unsigned long long)o->seed,
			o->variant == MODEL_V3 ? "v3" : "mainline");
	}
	err = col_synthout_open(&s->out, o->out_path, o->format, o->nr_cpus, s->cmdlines, d);
	if (err)
		goto out_close_truth;
	col_synthout_platform(s->out, sy_sched_kernel(s));
	sy_truth_freq_init(s);
	/* the first step: markers, first frequencies, first switches */
	sy_sched_markers(s);
	freq_initial(s);
	sy_sched_first(s);
	end_step(s);
	run_loop(s);
	sy_truth_finish(s);
	err = col_synthout_close(s->out, d);
	s->out = NULL;
	if (!err && s->truth && (s->err || fflush(s->truth) || ferror(s->truth))) {
		an_diag_set_file(d, "write", o->truth_path);
		err = an_diag_fail(d, -EIO, "cannot write the truth file");
	}
	if (st)
		*st = s->st;
out_close_truth:
	if (s->truth && fclose(s->truth) && !err) {
		an_diag_set_file(d, "write", o->truth_path);
		err = an_diag_fail(d, -EIO, "cannot write the truth file");
	}
	if (s->truth && err)
		unlink(o->truth_path);	/* no truth without its trace */
out_free:
	col_synthout_free(s->out);
	teardown(s);
	free(s);
	return err;
}
