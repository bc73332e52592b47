// SPDX-License-Identifier: MIT
/*
 * collect/synth/synthsched.c - the synthetic scheduler of `ucval synth`: tasks
 * that run in bursts and sleep, FIFO runqueues with a timeslice, wake-up
 * placement and idle balancing (sched_migrate_task), forks and exits, and
 * the userspace side: clamp requests (setattr markers), task group and
 * system default changes. Every runqueue change is made on the reference
 * model (model_enqueue() ...) in the order the analyzer will replay it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "collect/synth/synthemit.h"
#include "collect/synth/synthsched.h"
#include "collect/synth/synthtruth.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define FAIR_PRIO		120	/* nice 0 */
#define TIMESLICE_US		3000	/* CFS slice with two runnable tasks */
#define BALANCE_US		4000	/* idle balance period */
#define REQUEST_MEAN_US		15000	/* a clamp request every 15 ms */
#define FORK_MEAN_US		40000
#define CGROUP_MEAN_US		150000
#define SYSCTL_MEAN_US		400000
#define FREE_DELAY_MAX_US	3000	/* RCU delay of sched_process_free */
/* Task behaviour: utilization added to its CPU, mean burst and sleep. */
#define UTIL_MIN		16
#define UTIL_MAX		600
#define RUN_MEAN_MIN_US		300
#define RUN_MEAN_MAX_US		6000
#define SLEEP_MEAN_MIN_US	1000
#define SLEEP_MEAN_MAX_US	30000
#define LONG_BURST_ONE_IN	8	/* one burst in 8 lasts four times longer */
#define LONG_BURST_FACTOR	4
#define MORTAL_BURSTS_MAX	10
#define DISK_SLEEP_ONE_IN	8	/* sleeps in D (I/O) rather than S */
#define STAY_NUM		3	/* a task wakes on its last CPU 3 times in 4 */
#define STAY_DEN		4
#define EFF_AT_WAKE_ONE_IN	8	/* uclamp_task_eff at one wake-up in 8 */
#define INVALID_ONE_IN		10	/* requests with min above max */
#define INVALID_MIN		896	/* ... these two */
#define INVALID_MAX		256

/* Clamp values tasks ask for; the first ones are few enough for v3's groups. */
static const unsigned int min_values[] = { 256, 512, 128, 384, 640, 768, 896, 1024, 0 };
static const unsigned int max_values[] = { 384, 768, 256, 512, 640, 896, 1024, 128 };
#define NR_BASE_VALUES		2	/* initial requests: min_values[0..1], max_values[0..1] */
static const unsigned int sysctl_values[] = { 1024, 896, 768 };
static const char *const group_paths[SY_NR_GROUPS] = { NULL, "/top-app", "/background" };
static const char *const names[] = {
	"surfaceflinger", "RenderThread", "ui-thread", "binder", "audio-hal",
	"crtc_commit", "HwBinder", "mediacodec", "launcher", "chrome", "kworker",
	"vsync", "camera", "netd", "logd", "sensors",
};

static uint64_t us(uint64_t v)
{
	return v * SY_NS_PER_US;
}

static uint64_t around_ns(struct synth *s, unsigned int mean_us)
{
	return us(sy_rng_range(&s->rng, mean_us / 4 + 1, mean_us * 7 / 4 + 1));
}

static unsigned long long flag_of(const struct synth *s, int id)
{
	if (s->o->variant == MODEL_V3)
		return id == MODEL_UCLAMP_MIN ? MODEL_V3_FLAG_UTIL_CLAMP_MIN :
						MODEL_V3_FLAG_UTIL_CLAMP_MAX;
	return id == MODEL_UCLAMP_MIN ? MODEL_ML_FLAG_UTIL_CLAMP_MIN : MODEL_ML_FLAG_UTIL_CLAMP_MAX;
}

/* Flags of a clamp-only call (mainline keeps policy and params, MA4). */
static unsigned long long keep_flags(const struct synth *s)
{
	return s->o->variant == MODEL_V3 ? 0 :
	       MODEL_ML_FLAG_KEEP_POLICY | MODEL_ML_FLAG_KEEP_PARAMS;
}

/* Length of @t's next run burst: around its mean, one in eight four times longer. */
static uint64_t burst_ns(struct synth *s, const struct sy_task *t)
{
	uint64_t b = around_ns(s, t->run_mean_us);

	if (sy_rng_chance(&s->rng, 1, LONG_BURST_ONE_IN))
		b *= LONG_BURST_FACTOR;
	return b;
}

/* @cpu's rq or running task changed: a util event at the step's end. */
static void dirty(struct synth *s, unsigned int cpu)
{
	s->cpu[cpu].is_dirty = true;
}

/* Every CPU's clamps may have changed (group, sysctl). */
static void dirty_all(struct synth *s)
{
	for (unsigned int c = 0; c < s->o->nr_cpus; c++)
		s->cpu[c].is_dirty = true;
}

static void task_params(struct synth *s, struct sy_task *t)
{
	t->util = (unsigned int)sy_rng_range(&s->rng, UTIL_MIN, UTIL_MAX);
	t->run_mean_us = (unsigned int)sy_rng_range(&s->rng, RUN_MEAN_MIN_US, RUN_MEAN_MAX_US);
	t->sleep_mean_us = (unsigned int)sy_rng_range(&s->rng, SLEEP_MEAN_MIN_US,
						      SLEEP_MEAN_MAX_US);
}

/* ---- runqueues ---- */

static void enqueue(struct synth *s, struct sy_task *t, unsigned int cpu)
{
	struct sy_cpu *c = &s->cpu[cpu];

	sy_loss_enqueue(s, cpu);
	model_enqueue(&s->sys, &t->mt, (int)cpu);
	c->util_sum += t->util;
	c->has_stale = false;	/* an enqueue recomputes the max */
	t->cpu = (int)cpu;
	t->state = SY_WAIT;
	t->next = NULL;
	if (c->wait_tail)
		c->wait_tail->next = t;
	else
		c->wait_head = t;
	c->wait_tail = t;
	c->nr_wait++;
	dirty(s, cpu);
}

/* Take @t off its CPU's wait list (it is queued and not running). */
static void unlink_wait(struct sy_cpu *c, struct sy_task *t)
{
	struct sy_task **pp = &c->wait_head, *prev = NULL;

	while (*pp && *pp != t) {
		prev = *pp;
		pp = &(*pp)->next;
	}
	if (!*pp)
		return;
	*pp = t->next;
	if (c->wait_tail == t)
		c->wait_tail = prev;
	t->next = NULL;
	c->nr_wait--;
}

/* @t leaves the runqueue of its CPU (sleep, exit, migration). */
static void dequeue(struct synth *s, struct sy_task *t)
{
	unsigned int cpu = (unsigned int)t->cpu;
	struct sy_cpu *c = &s->cpu[cpu];
	int before = model_rq_value(&s->sys, (int)cpu, MODEL_UCLAMP_MAX);

	if (t->state == SY_WAIT)
		unlink_wait(c, t);
	model_dequeue(&s->sys, &t->mt);
	c->util_sum -= t->util;
	if (model_rq_is_idle(&s->sys, (int)cpu))
		c->has_stale = false;
	else if (model_rq_value(&s->sys, (int)cpu, MODEL_UCLAMP_MAX) < before && !c->has_stale) {
		c->has_stale = true;	/* fault rq-max-stale: the kernel keeps it */
		c->stale_max = before;
	}
	dirty(s, cpu);
}

static void arm_slice(struct synth *s, unsigned int cpu)
{
	struct sy_cpu *c = &s->cpu[cpu];
	struct sy_task *t = c->curr;
	uint64_t end;

	if (!t) {
		sy_timer_clear(&s->timers, sy_t_slice(s, cpu));
		sy_timer_clear(&s->timers, sy_t_tick(s, cpu));
		return;
	}
	end = t->run_since_ns + t->burst_left_ns;
	if (c->nr_wait && t->burst_left_ns > us(TIMESLICE_US))
		end = t->run_since_ns + us(TIMESLICE_US);
	if (end <= s->now_ns)
		end = s->now_ns + SY_NS_PER_US;
	sy_timer_set(&s->timers, sy_t_slice(s, cpu), end);
	if (!sy_timer_is_set(&s->timers, sy_t_tick(s, cpu)))
		sy_timer_set(&s->timers, sy_t_tick(s, cpu), s->now_ns + us(s->tick_us));
}

static void fill_task(struct col_so_ev *ev, const struct sy_task *t, int arg0, int arg1)
{
	ev->task.comm = t->comm;
	ev->task.pid = t->pid;
	ev->task.prio = FAIR_PRIO;
	ev->task.arg0 = arg0;
	ev->task.arg1 = arg1;
}

/*
 * sched_switch on @cpu from its running task (left in @prev_state, already
 * dequeued or queued again by the caller) to the head of its wait list.
 */
static void switch_next(struct synth *s, unsigned int cpu, unsigned int prev_state)
{
	struct sy_cpu *c = &s->cpu[cpu];
	struct sy_task *prev = c->curr, *next = c->wait_head;
	char idle[SY_COMM_LEN];
	struct col_so_ev ev = { .type = COL_SO_SWITCH };

	snprintf(idle, sizeof(idle), "swapper/%u", cpu);
	sy_ctx(s, cpu, &ev);
	ev.sw.prev_comm = prev ? prev->comm : idle;
	ev.sw.prev_pid = prev ? prev->pid : 0;
	ev.sw.prev_prio = FAIR_PRIO;
	ev.sw.prev_state = prev ? prev_state : COL_SO_STATE_RUNNING;
	ev.sw.next_comm = next ? next->comm : idle;
	ev.sw.next_pid = next ? next->pid : 0;
	ev.sw.next_prio = FAIR_PRIO;
	sy_emit(s, &ev);
	if (next) {
		unlink_wait(c, next);
		next->state = SY_RUN;
		next->run_since_ns = s->now_ns;
	}
	c->curr = next;
	c->is_known = true;
	dirty(s, cpu);
	arm_slice(s, cpu);
}

/* @t (queued on @cpu) may run: at once on an idle CPU, else after the others. */
static void kick(struct synth *s, unsigned int cpu)
{
	if (!s->cpu[cpu].curr)
		switch_next(s, cpu, COL_SO_STATE_RUNNING);
	else
		arm_slice(s, cpu);
}

/* An idle CPU, searched from a random one, or -1. */
static int idle_cpu(struct synth *s)
{
	unsigned int n = s->o->nr_cpus, from = (unsigned int)sy_rng_range(&s->rng, 0, n - 1);

	for (unsigned int i = 0; i < n; i++) {
		unsigned int c = (from + i) % n;

		if (!s->cpu[c].curr && !s->cpu[c].nr_wait)
			return (int)c;
	}
	return -1;
}

static unsigned int pick_cpu(struct synth *s, const struct sy_task *t)
{
	int c;

	if (t->cpu >= 0 && sy_rng_chance(&s->rng, STAY_NUM, STAY_DEN))
		return (unsigned int)t->cpu;
	c = idle_cpu(s);
	if (c >= 0)
		return (unsigned int)c;
	return (unsigned int)sy_rng_range(&s->rng, 0, s->o->nr_cpus - 1);
}

/* ---- uclamp_task_eff ---- */

/*
 * uclamp_task_eff of both clamp ids of @t, logged on @cpu: value is its own
 * request, effective the model's (fault eff-ignores-group: as if in the root
 * group).
 */
static void task_eff_on(struct synth *s, struct sy_task *t, unsigned int cpu)
{
	for (int id = 0; id < MODEL_UCLAMP_CNT; id++) {
		struct col_so_ev ev = { .type = COL_SO_TASK_EFF };
		int slot = -1;
		int eff = model_task_eff(&s->sys, &t->mt, (enum model_clamp_id)id, &slot);
		int seen = eff;

		if (s->o->fault == COL_SYNTH_FAULT_EFF_IGNORES_GROUP && t->group) {
			struct model_task alone = t->mt;

			alone.tg = &s->sys.root_tg;
			seen = model_task_eff(&s->sys, &alone, (enum model_clamp_id)id, NULL);
		}
		sy_ctx(s, cpu, &ev);
		ev.eff.comm = t->comm;
		ev.eff.pid = t->pid;
		ev.eff.clamp_id = id;
		ev.eff.value = (unsigned int)t->mt.req[id].value;
		ev.eff.effective = (unsigned int)seen;
		ev.eff.slot = slot;
		if (sy_emit(s, &ev))
			sy_truth_eff(s, t, id, s->last_ns, seen != eff);
	}
}

static void task_eff(struct synth *s, struct sy_task *t)
{
	task_eff_on(s, t, t->cpu >= 0 ? (unsigned int)t->cpu : 0);
}

/*
 * Before a change that may re-account queued tasks: remember how often the
 * model has counted each task (model_task.nr_counts).
 */
static void counts_before(struct synth *s)
{
	for (unsigned int i = 0; i < s->nr_tasks; i++)
		s->task[i].counts_before = s->task[i].mt.nr_counts;
}

/*
 * After it: uclamp_task_eff of each task the model counted again, as the
 * kernel traces it in uclamp_rq_inc_id() (MR5); tasks not queued, and
 * queued ones whose group's effective values did not change, show none.
 */
static void eff_of_recounted(struct synth *s)
{
	for (unsigned int i = 0; i < s->nr_tasks; i++) {
		struct sy_task *t = &s->task[i];

		if (t->state != SY_FREE && t->state != SY_DEAD &&
		    t->mt.nr_counts != t->counts_before)
			task_eff(s, t);
	}
}

/* ---- task life ---- */

static void wake(struct synth *s, struct sy_task *t, bool is_new)
{
	unsigned int cpu = pick_cpu(s, t);
	struct col_so_ev ev = { .type = is_new ? COL_SO_WAKEUP_NEW : COL_SO_WAKEUP };

	if (!is_new && t->cpu >= 0 && (unsigned int)t->cpu != cpu) {
		struct col_so_ev mig = { .type = COL_SO_MIGRATE };

		sy_ctx(s, cpu, &mig);
		fill_task(&mig, t, t->cpu, (int)cpu);
		sy_emit(s, &mig);
	}
	/* the enqueue's uclamp_rq_inc_id() comes before sched_wakeup(_new) */
	if (sy_rng_chance(&s->rng, 1, EFF_AT_WAKE_ONE_IN))
		task_eff_on(s, t, cpu);
	sy_ctx(s, cpu, &ev);
	fill_task(&ev, t, (int)cpu, 0);
	sy_emit(s, &ev);
	t->burst_left_ns = burst_ns(s, t);
	enqueue(s, t, cpu);
	kick(s, cpu);
}

static void exit_task(struct synth *s, unsigned int cpu, struct sy_task *t)
{
	struct col_so_ev ev = { .type = COL_SO_EXIT };

	sy_ctx(s, cpu, &ev);
	fill_task(&ev, t, 0, 0);
	sy_emit(s, &ev);
	dequeue(s, t);
	model_task_exit(&s->sys, &t->mt);
	switch_next(s, cpu, COL_SO_STATE_DEAD);
	t->state = SY_DEAD;
	sy_truth_task_gone(s, t, s->last_ns);
	sy_timer_set(&s->timers, sy_t_task(s, (unsigned int)(t - s->task)),
		     s->now_ns + us(sy_rng_range(&s->rng, 1, FREE_DELAY_MAX_US)));
}

/* The running task of @cpu ends its burst: it sleeps, or exits. */
static void burst_done(struct synth *s, unsigned int cpu, struct sy_task *t)
{
	if (!t->is_immortal && --t->bursts_left <= 0) {
		exit_task(s, cpu, t);
		return;
	}
	dequeue(s, t);
	switch_next(s, cpu, sy_rng_chance(&s->rng, 1, DISK_SLEEP_ONE_IN) ?
		    COL_SO_STATE_DISK : COL_SO_STATE_SLEEP);
	t->state = SY_SLEEP;
	sy_timer_set(&s->timers, sy_t_task(s, (unsigned int)(t - s->task)),
		     s->now_ns + around_ns(s, t->sleep_mean_us));
}

static void slice_end(struct synth *s, unsigned int cpu)
{
	struct sy_cpu *c = &s->cpu[cpu];
	struct sy_task *t = c->curr;
	uint64_t ran;

	if (!t)
		return;
	ran = s->now_ns - t->run_since_ns;
	t->burst_left_ns -= ran < t->burst_left_ns ? ran : t->burst_left_ns;
	t->run_since_ns = s->now_ns;
	if (!t->burst_left_ns) {
		burst_done(s, cpu, t);
	} else if (c->nr_wait) {
		/* preempted: to the tail, still queued (R+) */
		t->state = SY_WAIT;
		t->next = NULL;
		c->wait_tail->next = t;
		c->wait_tail = t;
		c->nr_wait++;
		switch_next(s, cpu, COL_SO_STATE_RUNNING | COL_SO_STATE_PREEMPT);
	} else {
		arm_slice(s, cpu);
	}
}

static void free_task(struct synth *s, struct sy_task *t)
{
	struct col_so_ev ev = { .type = COL_SO_FREE };

	sy_ctx(s, t->cpu >= 0 ? (unsigned int)t->cpu : 0, &ev);
	fill_task(&ev, t, 0, 0);
	sy_emit(s, &ev);
	t->state = SY_FREE;
}

static void fork_task(struct synth *s)
{
	unsigned int busy[COL_SYNTH_MAX_CPUS], nr_busy = 0;
	struct sy_task *parent, *child = NULL;
	struct col_so_ev ev = { .type = COL_SO_FORK };
	unsigned int pcpu;

	for (unsigned int i = s->nr_immortal; i < s->nr_tasks && !child; i++)
		if (s->task[i].state == SY_FREE)
			child = &s->task[i];
	for (unsigned int c = 0; c < s->o->nr_cpus; c++)
		if (s->cpu[c].curr)
			busy[nr_busy++] = c;
	if (!child || !nr_busy)
		return;
	pcpu = busy[sy_rng_range(&s->rng, 0, nr_busy - 1)];
	parent = s->cpu[pcpu].curr;
	memset(child, 0, sizeof(*child));
	child->pid = s->next_pid++;
	memcpy(child->comm, parent->comm, sizeof(child->comm));
	child->group = parent->group;
	child->cpu = -1;
	child->bursts_left = (int)sy_rng_range(&s->rng, 1, MORTAL_BURSTS_MAX);
	task_params(s, child);
	sy_ctx(s, pcpu, &ev);
	ev.fork.parent_comm = parent->comm;
	ev.fork.parent_pid = parent->pid;
	ev.fork.child_comm = child->comm;
	ev.fork.child_pid = child->pid;
	sy_emit(s, &ev);
	model_task_fork(&s->sys, &parent->mt, &child->mt, child->pid);
	s->st.nr_tasks_seen++;
	child->cpu = (int)pcpu;
	wake(s, child, true);
}

static void balance(struct synth *s)
{
	int dst = idle_cpu(s);
	unsigned int src = 0, most = 0;
	struct sy_task *t;
	struct col_so_ev ev = { .type = COL_SO_MIGRATE };

	for (unsigned int c = 0; c < s->o->nr_cpus; c++)
		if (s->cpu[c].nr_wait > most) {
			most = s->cpu[c].nr_wait;
			src = c;
		}
	if (dst < 0 || !most)
		return;
	t = s->cpu[src].wait_head;
	sy_ctx(s, (unsigned int)dst, &ev);
	fill_task(&ev, t, (int)src, dst);
	sy_emit(s, &ev);
	dequeue(s, t);
	enqueue(s, t, (unsigned int)dst);
	arm_slice(s, src);
	kick(s, (unsigned int)dst);
}

/* ---- userspace: requests, groups, system defaults ---- */

static void request(struct synth *s)
{
	struct sy_task *t = &s->task[sy_rng_range(&s->rng, 0, s->nr_immortal - 1)];
	unsigned int kind = (unsigned int)sy_rng_range(&s->rng, 0, INVALID_ONE_IN - 1);
	bool has_min = kind != 2, has_max = kind != 1;
	unsigned int vmin = min_values[sy_rng_range(&s->rng, 0, ARRAY_SIZE(min_values) - 1)];
	unsigned int vmax = max_values[sy_rng_range(&s->rng, 0, ARRAY_SIZE(max_values) - 1)];
	struct model_attr attr = { .size = MODEL_SCHED_ATTR_SIZE_VER1, .policy = -1 };
	char text[160];
	unsigned int nr_counted;
	size_t n;
	int mret, kret;

	if (!kind) {		/* min above max: the model says EINVAL (VA4, MA2) */
		vmin = INVALID_MIN;
		vmax = INVALID_MAX;
	} else if (has_min && has_max && vmin > vmax) {
		unsigned int v = vmin;

		vmin = vmax;
		vmax = v;
	}
	attr.flags = keep_flags(s) | (has_min ? flag_of(s, MODEL_UCLAMP_MIN) : 0) |
		     (has_max ? flag_of(s, MODEL_UCLAMP_MAX) : 0);
	attr.util_min = has_min ? vmin : 0;
	attr.util_max = has_max ? vmax : MODEL_SCALE;
	nr_counted = t->mt.nr_counts;
	mret = model_setattr(&s->sys, &t->mt, &attr);
	kret = mret;
	if (s->o->fault == COL_SYNTH_FAULT_ACCEPT_INVALID && (mret == -EINVAL || mret == -ERANGE))
		kret = 0;
	if (s->o->fault == COL_SYNTH_FAULT_GROUPS_OVERFLOW && mret == -ENOSPC)
		kret = 0;
	n = (size_t)snprintf(text, sizeof(text), "ucval: setattr pid=%d", t->pid);
	if (has_min)
		n += (size_t)snprintf(text + n, sizeof(text) - n, " util_min=%u", vmin);
	if (has_max)
		n += (size_t)snprintf(text + n, sizeof(text) - n, " util_max=%u", vmax);
	snprintf(text + n, sizeof(text) - n, " flags=0x%llx ret=%d", attr.flags, kret);
	if (sy_print(s, "%s", text))
		sy_truth_request(s, t, s->last_ns, kret, mret);
	if (t->state == SY_WAIT || t->state == SY_RUN)
		dirty(s, (unsigned int)t->cpu);
	/* MR6: the re-enqueue of a queued task shows its effective clamps */
	if (t->mt.nr_counts != nr_counted)
		task_eff(s, t);
}

static void group_write(struct synth *s, int g, int id, unsigned int v)
{
	char buf[32];

	model_tg_text(s->o->variant, v, buf, sizeof(buf));
	model_tg_write(&s->sys, &s->group[g].tg, (enum model_clamp_id)id, buf);
	sy_print(s, "ucval: cgroup path=%s %s=%u", s->group[g].path,
		 id == MODEL_UCLAMP_MIN ? "util_min" : "util_max", v);
	dirty_all(s);
}

static void group_change(struct synth *s)
{
	int g = (int)sy_rng_range(&s->rng, 1, SY_NR_GROUPS - 1);
	int id = (int)sy_rng_range(&s->rng, 0, 1);
	unsigned int v = id == MODEL_UCLAMP_MIN ?
			 min_values[sy_rng_range(&s->rng, 0, ARRAY_SIZE(min_values) - 1)] :
			 max_values[sy_rng_range(&s->rng, 0, ARRAY_SIZE(max_values) - 1)];

	counts_before(s);
	group_write(s, g, id, v);
	eff_of_recounted(s);
}

static void sysctl_change(struct synth *s)
{
	bool is_max = sy_rng_chance(&s->rng, 1, 2);
	unsigned int v = sysctl_values[sy_rng_range(&s->rng, 0, ARRAY_SIZE(sysctl_values) - 1)];

	counts_before(s);
	model_sysctl_write(&s->sys, is_max ? MODEL_SYSCTL_UTIL_MAX : MODEL_SYSCTL_UTIL_MIN, v);
	sy_print(s, "ucval: sysctl %s=%u", is_max ? "util_max" : "util_min", v);
	dirty_all(s);
	eff_of_recounted(s);
}

/* ---- start ---- */

/**
 * sy_sched_start() - create the task groups' values and the long-lived tasks
 * (no event is written)
 * @s: generator
 */
void sy_sched_start(struct synth *s)
{
	for (unsigned int i = 0; i < s->nr_tasks; i++) {
		struct sy_task *t = &s->task[i];

		t->cpu = -1;
		if (i >= s->nr_immortal)
			continue;
		t->pid = s->next_pid++;
		snprintf(t->comm, sizeof(t->comm), "%s", names[i % ARRAY_SIZE(names)]);
		t->is_immortal = true;
		t->state = SY_SLEEP;
		t->group = (int)sy_rng_range(&s->rng, 0, SY_NR_GROUPS - 1);
		task_params(s, t);
	}
	for (int g = 0; g < SY_NR_GROUPS; g++)
		s->group[g].path = group_paths[g];
}

const char *sy_sched_kernel(const struct synth *s)
{
	return s->o->variant == MODEL_V3 ? "4.19.0" : "6.1.0";
}

static void platform_markers(struct synth *s)
{
	char freqs[MODEL_SU_MAX_OPPS * 12];

	sy_print(s, "ucval: platform cpus=%u model=%s task_group=1 invariant=1 groups=%u "
		 "scale=%d tick_us=%u kernel=%s", s->o->nr_cpus,
		 s->o->variant == MODEL_V3 ? "v3" : "mainline", s->sys.cfg.groups, MODEL_SCALE,
		 s->tick_us, sy_sched_kernel(s));
	for (unsigned int c = 0; c < s->o->nr_cpus; c++) {
		const struct sy_policy *p = &s->pol[s->cpu[c].policy];
		size_t n = 0;

		for (unsigned int i = 0; i < p->su.nr_opps; i++)
			n += (size_t)snprintf(freqs + n, sizeof(freqs) - n, "%s%u", i ? "," : "",
					      p->su.opp_khz[i]);
		sy_print(s, "ucval: cpu cpu=%u policy=%u capacity=%u freqs=%s min=%u max=%u cur=%u "
			 "rate_limit_us=%u governor=schedutil", c, p->first, p->su.capacity, freqs,
			 p->su.min_khz, p->su.max_khz, p->cur_khz, p->su.rate_limit_us);
	}
}

/* A task marker, and the same request on the model (as requests.c applies it). */
static void task_marker(struct synth *s, struct sy_task *t)
{
	bool has_min = sy_rng_chance(&s->rng, 1, 2), has_max = sy_rng_chance(&s->rng, 1, 2);
	unsigned int vmin = min_values[sy_rng_range(&s->rng, 0, NR_BASE_VALUES - 1)];
	unsigned int vmax = max_values[sy_rng_range(&s->rng, 0, NR_BASE_VALUES - 1)];
	char text[160];
	size_t n;

	model_task_init(&s->sys, &t->mt, t->pid, MODEL_CLASS_FAIR);
	if (t->group)
		model_task_move_tg(&s->sys, &t->mt, &s->group[t->group].tg);
	if (has_min || has_max) {
		struct model_attr attr = {
			.size = MODEL_SCHED_ATTR_SIZE_VER1, .policy = -1,
			.flags = keep_flags(s) | (has_min ? flag_of(s, MODEL_UCLAMP_MIN) : 0) |
				 (has_max ? flag_of(s, MODEL_UCLAMP_MAX) : 0),
			.util_min = has_min ? vmin : 0,
			.util_max = has_max ? vmax : MODEL_SCALE,
		};

		if (has_min && has_max && vmin > vmax)
			attr.util_min = vmin = vmax;
		if (model_setattr(&s->sys, &t->mt, &attr) < 0) {
			/* refused (no group left): say the task asked for nothing */
			has_min = has_max = false;
		}
	}
	n = (size_t)snprintf(text, sizeof(text), "ucval: task pid=%d comm=%s", t->pid, t->comm);
	if (has_min)
		n += (size_t)snprintf(text + n, sizeof(text) - n, " util_min=%u", vmin);
	if (has_max)
		n += (size_t)snprintf(text + n, sizeof(text) - n, " util_max=%u", vmax);
	if (t->group)
		snprintf(text + n, sizeof(text) - n, " cgroup=%s", s->group[t->group].path);
	sy_print(s, "%s", text);
	s->st.nr_tasks_seen++;
}

/**
 * sy_sched_markers() - the first step's markers: platform, task groups and
 * the long-lived tasks with their first requests
 * @s: generator
 */
void sy_sched_markers(struct synth *s)
{
	platform_markers(s);
	for (int g = 1; g < SY_NR_GROUPS; g++) {
		model_tg_init(&s->sys, &s->group[g].tg, NULL);
		if (g == 1)
			group_write(s, g, MODEL_UCLAMP_MIN, min_values[2]);
		else
			group_write(s, g, MODEL_UCLAMP_MAX, max_values[1]);
	}
	for (unsigned int i = 0; i < s->nr_immortal; i++)
		task_marker(s, &s->task[i]);
}

/**
 * sy_sched_first() - the rest of the first step, after the first
 * frequencies: one task switched in on each CPU, the timers
 * @s: generator
 */
void sy_sched_first(struct synth *s)
{
	struct sy_heap *h = &s->timers;
	unsigned int running = 0;

	for (unsigned int i = 0; i < s->nr_immortal; i++) {
		struct sy_task *t = &s->task[i];
		unsigned int id = sy_t_task(s, i);

		if (running < s->o->nr_cpus) {
			t->burst_left_ns = burst_ns(s, t);
			enqueue(s, t, running);
			switch_next(s, running, COL_SO_STATE_RUNNING);
			running++;
		} else {
			sy_timer_set(h, id, s->now_ns + us(sy_rng_range(&s->rng, 1,
								       t->sleep_mean_us)));
		}
	}
	for (unsigned int c = running; c < s->o->nr_cpus; c++) {
		s->cpu[c].is_known = false;	/* idle until a task comes */
		dirty(s, c);
	}
	sy_timer_set(h, sy_t_global(s, SY_T_REQUEST), s->now_ns + around_ns(s, REQUEST_MEAN_US));
	sy_timer_set(h, sy_t_global(s, SY_T_FORK), s->now_ns + around_ns(s, FORK_MEAN_US));
	sy_timer_set(h, sy_t_global(s, SY_T_BALANCE), s->now_ns + us(BALANCE_US));
	sy_timer_set(h, sy_t_global(s, SY_T_CGROUP), s->now_ns + around_ns(s, CGROUP_MEAN_US));
	sy_timer_set(h, sy_t_global(s, SY_T_SYSCTL), s->now_ns + around_ns(s, SYSCTL_MEAN_US));
	if (s->o->fault == COL_SYNTH_FAULT_LOST_EVENTS)
		sy_loss_arm(s);
}

/**
 * sy_sched_timer() - fire a scheduler or userspace timer
 * @s: generator
 * @id: the timer (task, slice, tick or global)
 */
void sy_sched_timer(struct synth *s, unsigned int id)
{
	if (id < s->nr_tasks) {
		struct sy_task *t = &s->task[id];

		if (t->state == SY_SLEEP)
			wake(s, t, false);
		else if (t->state == SY_DEAD)
			free_task(s, t);
	} else if (id < sy_t_tick(s, 0)) {
		slice_end(s, id - sy_t_slice(s, 0));
	} else if (id < sy_t_policy(s, 0)) {
		unsigned int cpu = id - sy_t_tick(s, 0);

		if (s->cpu[cpu].curr) {
			dirty(s, cpu);	/* PELT update at the tick */
			sy_timer_set(&s->timers, id, s->now_ns + us(s->tick_us));
		}
	} else if (id == sy_t_global(s, SY_T_REQUEST)) {
		request(s);
		sy_timer_set(&s->timers, id, s->now_ns + around_ns(s, REQUEST_MEAN_US));
	} else if (id == sy_t_global(s, SY_T_FORK)) {
		fork_task(s);
		sy_timer_set(&s->timers, id, s->now_ns + around_ns(s, FORK_MEAN_US));
	} else if (id == sy_t_global(s, SY_T_BALANCE)) {
		balance(s);
		sy_timer_set(&s->timers, id, s->now_ns + us(BALANCE_US));
	} else if (id == sy_t_global(s, SY_T_CGROUP)) {
		group_change(s);
		sy_timer_set(&s->timers, id, s->now_ns + around_ns(s, CGROUP_MEAN_US));
	} else if (id == sy_t_global(s, SY_T_SYSCTL)) {
		sysctl_change(s);
		sy_timer_set(&s->timers, id, s->now_ns + around_ns(s, SYSCTL_MEAN_US));
	}
}
