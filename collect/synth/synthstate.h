/* SPDX-License-Identifier: MIT */
/*
 * collect/synth/synthstate.h - the state of the `ucval synth` generator: its
 * CPUs, policies, tasks, task groups and timers, and the truth windows they
 * keep open. Every layer above shares it: the model's answers
 * (synthmodel.c), the truth file and the lost-events fault (synthtruth.c),
 * the writing of events (synthemit.c), the scheduler (synthsched.c) and the
 * driver (synth.c). Types and timer ids only. Not for use outside
 * collect/synth/.
 */
#ifndef UCVAL_COLLECT_SYNTH_SYNTHSTATE_H
#define UCVAL_COLLECT_SYNTH_SYNTHSTATE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "collect/synth/synthopts.h"
#include "collect/synth/synthout.h"
#include "collect/synth/synthtimer.h"
#include "model/model.h"
#include "model/schedutil.h"

#define SY_NS_PER_US		1000ULL
#define SY_NS_PER_MS		1000000ULL
/* Task groups besides the root: Android's two main cpuset/cpu cgroups. */
#define SY_NR_GROUPS		3
/* TASK_COMM_LEN */
#define SY_COMM_LEN		16
/* Sliding-window entries of a truth key: its values are OPPs, bound or none. */
#define SY_FKEY_MAX_PEND	(MODEL_SU_MAX_OPPS + 2)

enum sy_task_state {
	SY_FREE,	/* slot without a task */
	SY_SLEEP,	/* waits for its wake timer */
	SY_WAIT,	/* queued on a CPU, not running */
	SY_RUN,		/* running */
	SY_DEAD,	/* exited, waits for sched_process_free */
};

/*
 * One side of a truth window of the frequency faults (synthtruth.c): the
 * kernel's frequency F against the model's expectation E of one key (a CPU's
 * floor, a policy's ceiling or prediction), with the expectations of the last
 * grace period kept to tell a window a checker must report from one it may.
 */
struct sy_fkey {
	bool is_upper;			/* F must stay <= E (else >= E) */
	bool is_tracked;		/* the fault has this key */
	const char *check;
	const char *rule;
	int cpu;			/* key CPU in the truth file */
	unsigned int cur;		/* current E */
	bool has_cur;
	unsigned int nr;
	struct {
		unsigned int khz;
		uint64_t expire_ns;
	} pend[SY_FKEY_MAX_PEND];
	bool is_div;			/* F beyond E now */
	uint64_t div_start_ns;
	bool is_certain;		/* a checker must see this window */
	bool is_div_by_freq;		/* it began with a frequency change */
	bool is_cert_by_freq;		/* a frequency change made it certain, */
	uint64_t cert_ns;		/* at this instant */
	unsigned int last_f;
};

struct sy_task {
	struct model_task mt;		/* the model's task: never moves */
	int pid;
	char comm[SY_COMM_LEN];
	enum sy_task_state state;
	int cpu;			/* queued/running CPU, else the last one, -1 none */
	bool is_immortal;
	unsigned int util;		/* utilization it adds to its CPU */
	unsigned int run_mean_us;
	unsigned int sleep_mean_us;
	uint64_t burst_left_ns;
	uint64_t run_since_ns;
	int bursts_left;		/* mortal tasks exit when it reaches 0 */
	int group;			/* index into synth.group, 0 the root */
	unsigned int counts_before;	/* mt.nr_counts before a re-accounting change */
	struct sy_task *next;		/* wait queue link */
	/* truth windows open for this task */
	bool has_req_win;
	uint64_t req_win_ns;
	bool has_grp_win;
	uint64_t grp_win_ns;
	bool has_eff_win[MODEL_UCLAMP_CNT];
	uint64_t eff_win_ns[MODEL_UCLAMP_CNT];
};

struct sy_cpu {
	struct sy_task *curr;		/* NULL: idle */
	struct sy_task *wait_head;
	struct sy_task *wait_tail;
	unsigned int nr_wait;
	unsigned int policy;
	unsigned int capacity;
	unsigned int util;		/* last util_avg written */
	unsigned int util_sum;		/* of the queued tasks */
	bool is_known;			/* a sched_switch of it was written */
	bool is_dirty;			/* a util event is due at the end of the step */
	uint64_t last_ts;		/* its last written event (lost-events truth) */
	/* rq-max-stale: the kernel still shows this MAX */
	bool has_stale;
	int stale_max;
	/* rq_clamp truth window */
	bool has_rq_win;
	uint64_t rq_win_ns;
	struct sy_fkey floor;		/* freq_below_min_clamp truth */
	/* lost-events: a replay that forgot this runqueue may count its tasks
	 * otherwise than the kernel until it has learnt them again */
	bool is_doubt;
	uint64_t doubt_ns;
};

struct sy_policy {
	struct model_su_policy su;
	unsigned int first;		/* first CPU */
	unsigned int nr;		/* CPUs */
	unsigned int cur_khz;		/* frequency the kernel set */
	bool has_change;		/* a change after the first frequency */
	uint64_t last_change_ns;
	bool is_busy;
	uint64_t busy_since_ns;
	uint64_t grace_ns;		/* longest grace of a checker (truth) */
	/* lost-events: a cpu_frequency of it was dropped at stale_ns, so what the
	 * trace shows is out of date until its next change is written */
	bool is_stale;
	uint64_t stale_ns;
	struct sy_fkey pred;		/* freq_prediction truth */
	struct sy_fkey ceil;		/* freq_above_max_clamp truth */
};

struct sy_group {
	const char *path;		/* NULL for the root */
	struct model_tg tg;
};

/* Timers: one slot per task, per CPU (slice, tick), per policy, and these. */
enum sy_global {
	SY_T_REQUEST,
	SY_T_FORK,
	SY_T_BALANCE,
	SY_T_CGROUP,
	SY_T_SYSCTL,
	SY_T_LOSS,
	SY_T__COUNT
};

struct synth {
	const struct col_synth_opts *o;
	struct sy_rng rng;		/* the workload */
	struct sy_rng frng;		/* fault choices: the workload stays the twin's */
	struct model_sys sys;
	struct model_cpu *mcpu;
	struct sy_cpu *cpu;
	struct sy_policy *pol;
	struct sy_task *task;
	unsigned int nr_tasks;
	unsigned int nr_immortal;
	struct sy_group group[SY_NR_GROUPS];
	unsigned int kver;
	unsigned int tick_us;
	struct col_synthout *out;	/* synthout.h */
	FILE *truth;
	char *cmdlines;
	struct sy_heap timers;
	uint64_t now_ns;		/* time of the next event */
	uint64_t last_ns;		/* time of the last written event */
	bool is_done;
	int next_pid;
	/* lost-events fault */
	int loss_cpu;			/* armed on this CPU, -1 none */
	unsigned int loss_min;		/* drop at least this many */
	uint64_t loss_dropped;
	struct col_synth_stats st;
	int err;			/* first truth-file write error */
};

/* Timer ids. */
static inline unsigned int sy_t_task(const struct synth *s, unsigned int i)
{
	(void)s;
	return i;
}

static inline unsigned int sy_t_slice(const struct synth *s, unsigned int cpu)
{
	return s->nr_tasks + cpu;
}

static inline unsigned int sy_t_tick(const struct synth *s, unsigned int cpu)
{
	return s->nr_tasks + s->o->nr_cpus + cpu;
}

static inline unsigned int sy_t_policy(const struct synth *s, unsigned int p)
{
	return s->nr_tasks + 2 * s->o->nr_cpus + p;
}

static inline unsigned int sy_t_global(const struct synth *s, enum sy_global g)
{
	return s->nr_tasks + 2 * s->o->nr_cpus + s->o->nr_policies + g;
}

#endif /* UCVAL_COLLECT_SYNTH_SYNTHSTATE_H */
