// SPDX-License-Identifier: MIT
/*
 * analyze/replay/sched.c - the replay's scheduler events and trace integrity
 * (sched.h): per-CPU runqueues from sched_switch, sched_wakeup(_new),
 * sched_migrate_task, fork, exit and free; classes from prio; frequency and
 * limits; the integrity problems an event reveals (events.md §4).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/replay/requests.h"
#include "analyze/replay/sched.h"
#include "analyze/replay/tasks.h"

static bool is_counted(enum model_class cls)
{
	return cls == MODEL_CLASS_FAIR || cls == MODEL_CLASS_RT;
}

/* ---- tasks ---- */

/* Whether the replay knows if @t is queued (an_task.known_epoch). */
static bool is_task_known(const struct an_replay *r, const struct an_task *t)
{
	return t->known_epoch == r->nr_resets + 1;
}

static void set_task_known(const struct an_replay *r, struct an_task *t)
{
	t->known_epoch = r->nr_resets + 1;
}

/* An event shows @t on the CPU it is queued on (an_task.shown_ns). */
static void shown(const struct an_replay *r, struct an_task *t)
{
	t->shown_ns = r->step.ts_ns;
}

static void enqueue(struct an_replay *r, struct an_task *t, int cpu)
{
	/* an empty runqueue starts afresh, for the kernel and the replay alike */
	if (r->cpu[cpu].is_lost_doubt && model_list_empty(&r->mcpu[cpu].queued))
		r->cpu[cpu].is_lost_doubt = false;
	model_enqueue(&r->sys, &t->mt, cpu);
	r->cpu[cpu].nr_late = 0;
	t->last_cpu = cpu;
	shown(r, t);
	set_task_known(r, t);
	an_replay_touch(r, cpu, AN_RQ_OP_ENQUEUE);
}

static void dequeue(struct an_replay *r, struct an_task *t)
{
	int cpu = t->mt.cpu;

	model_dequeue(&r->sys, &t->mt);
	r->cpu[cpu].nr_late = 0;
	if (is_counted(t->mt.cls))
		r->cpu[cpu].is_leaver_known = an_task_is_clamp_known(t);
	an_replay_touch(r, cpu, AN_RQ_OP_DEQUEUE);
}

static void move_to(struct an_replay *r, struct an_task *t, int cpu)
{
	if (t->mt.cpu == cpu) {
		shown(r, t);
		return;
	}
	if (t->mt.cpu >= 0)
		dequeue(r, t);
	enqueue(r, t, cpu);
}

/* The task is gone (VG8): out of the model's queues and groups. */
static void release(struct an_replay *r, struct an_task *t)
{
	if (t->mt.cpu >= 0)
		dequeue(r, t);
	if (!t->mt.is_dead)
		model_task_exit(&r->sys, &t->mt);
	t->is_dead = true;
}

static void remove_task(struct an_replay *r, struct an_task *t)
{
	release(r, t);
	an_tasks_remove(r->tasks, t->mt.pid);
	r->nr_tasks_live = an_tasks_count(r->tasks);
}

/*
 * Events were lost (or the trace contradicts itself): nothing the replay
 * holds about runqueues can be trusted. Every CPU is unknown again until its
 * next sched_switch, as at the trace start; requests and groups are kept.
 */
static void forget_runqueues(struct an_replay *r)
{
	for (unsigned int cpu = 0; cpu < r->nr_cpus; cpu++) {
		struct model_node *head = &r->mcpu[cpu].queued;
		struct an_cpu *c = &r->cpu[cpu];

		while (!model_list_empty(head))
			dequeue(r, an_task_of(model_container_of(head->next, struct model_task,
								rq_node)));
		if (c->is_known || c->is_seen)
			c->is_lost = true;
		c->is_known = false;
		c->curr_pid = -1;
	}
	r->nr_resets++;		/* no task is known now (an_task.known_epoch) */
	r->step.is_reset = true;
}

/* ---- integrity (before the model) ---- */

static void add_issue(struct an_replay *r, enum an_integrity kind, int cpu, int pid,
		      uint64_t start, uint64_t end, long long expected, long long observed)
{
	struct an_integrity_issue *is;

	if (r->step.nr_issues == AN_REPLAY_MAX_ISSUES)
		return;
	if (start > end) {	/* time went back (EV-TIME): the window spans both */
		uint64_t t = start;

		start = end;
		end = t;
	}
	is = &r->step.issues[r->step.nr_issues++];
	*is = (struct an_integrity_issue){ kind, cpu, pid, start, end, expected, observed };
}

/*
 * Whether @t may have moved off the CPU the replay holds it queued on
 * without an event: the capture records no sched_migrate_task (none seen so
 * far), and @t was only queued there, not running: a running task leaves
 * its CPU by a sched_switch, and the trace has those.
 */
static bool is_unrecorded_move(const struct an_replay *r, const struct an_task *t)
{
	const struct an_cpu *c = an_replay_cpu(r, t->mt.cpu);

	return an_replay_is_unrecorded(r, AN_EV_SCHED_MIGRATE_TASK, NULL) &&
	       !(c && c->is_known && c->curr_pid == t->mt.pid);
}

/* Judgements of @cpu at instants up to now are UNDECIDED (an unrecorded move). */
static void unrecorded_until_now(struct an_replay *r, int cpu)
{
	struct an_cpu *c = an_replay_cpu(r, cpu);

	if (c && r->step.ts_ns > c->unrecorded_until_ns) {
		c->unrecorded_until_ns = r->step.ts_ns;
		an_replay_rq_touched(r, cpu);
	}
}

/*
 * A task shown on @cpu while the replay holds it queued on another CPU: a
 * contradiction (EV-TASK), or a migration the capture did not record. Then
 * the kernel moved it at some instant since its last event on the other
 * CPU: what depends on either runqueue until now cannot be judged. The
 * event that showed it moves it in the model (an_sched_apply()).
 */
static void check_elsewhere(struct an_replay *r, int pid, int cpu)
{
	const struct an_task *t = an_replay_task(r, pid);
	uint64_t ts = r->step.ts_ns;

	if (!t || !is_task_known(r, t) || t->mt.cpu < 0 || t->mt.cpu == cpu ||
	    !an_replay_cpu(r, cpu))
		return;
	if (!is_unrecorded_move(r, t)) {
		add_issue(r, AN_INTEG_ELSEWHERE, cpu, pid, ts, ts, t->mt.cpu, cpu);
		return;
	}
	add_issue(r, AN_INTEG_UNRECORDED, cpu, pid, t->shown_ns, ts, t->mt.cpu, cpu);
	r->nr_unrecorded++;
	unrecorded_until_now(r, t->mt.cpu);
	unrecorded_until_now(r, cpu);
}

/* The CPU whose runqueue @ev changes, -1 for none. */
static int modelled_cpu(const struct an_event *ev)
{
	switch (ev->type) {
	case AN_EV_SCHED_SWITCH:
		return ev->cpu;
	case AN_EV_SCHED_WAKEUP:
	case AN_EV_SCHED_WAKEUP_NEW:
		return ev->wakeup.target_cpu;
	case AN_EV_SCHED_MIGRATE_TASK:
		return ev->migrate.dest_cpu;
	default:
		return -1;
	}
}

/*
 * The first event of a CPU beyond the replay's count (a text from a pipe
 * without a CPU-count header: the count came from its first lines). What
 * that CPU's events do is not replayed, so every judgement made from now
 * on is UNDECIDED, as after a loss no page places.
 */
static void inspect_beyond(struct an_replay *r, const struct an_event *ev)
{
	int cpu = modelled_cpu(ev);

	if (cpu < 0 || (unsigned int)cpu < r->nr_cpus || r->has_beyond)
		return;
	r->has_beyond = true;
	add_issue(r, AN_INTEG_BEYOND, cpu, -1, ev->ts_ns, ev->ts_ns, (long long)r->nr_cpus, cpu);
	for (unsigned int i = 0; i < r->nr_cpus; i++)
		r->cpu[i].undecided_until_ns = UINT64_MAX;
}

void an_sched_inspect(struct an_replay *r, const struct an_event *ev)
{
	struct an_cpu *c = an_replay_cpu(r, ev->cpu);
	uint64_t ts = ev->ts_ns;

	/* the enqueue a sched_waking stood for happened by now, at the latest */
	if (c && c->is_waking_open) {
		c->is_waking_open = false;
		unrecorded_until_now(r, ev->cpu);
	}

	if (ev->type == AN_EV_LOST_EVENTS && ev->lost.is_unplaced) {
		/* anywhere in the trace: every judgement is UNDECIDED */
		add_issue(r, AN_INTEG_UNPLACED, ev->cpu, -1, ts, ts, 0,
			  (long long)ev->lost.count);
		for (unsigned int i = 0; i < r->nr_cpus; i++)
			r->cpu[i].undecided_until_ns = UINT64_MAX;
		return;
	}
	if (ev->type == AN_EV_LOST_EVENTS) {
		uint64_t start = c && c->is_seen ? c->last_ts_ns : ts;

		add_issue(r, AN_INTEG_LOST, ev->cpu, -1, start, ts, 0,
			  (long long)ev->lost.count);
		/*
		 * What the lost events did (wakeups and migrations to any CPU,
		 * frequency changes) happened somewhere in the window: judgements
		 * of instants up to now, made late (grace ends), are UNDECIDED.
		 */
		for (unsigned int i = 0; i < r->nr_cpus; i++)
			if (ts > r->cpu[i].undecided_until_ns)
				r->cpu[i].undecided_until_ns = ts;
		return;
	}
	inspect_beyond(r, ev);
	if (c && c->is_seen && ts < c->last_ts_ns) {
		add_issue(r, AN_INTEG_TIME, ev->cpu, -1, ts, c->last_ts_ns,
			  (long long)c->last_ts_ns, (long long)ts);
		/* checks are UNDECIDED on this CPU up to its latest timestamp */
		if (c->last_ts_ns > c->undecided_until_ns)
			c->undecided_until_ns = c->last_ts_ns;
	}
	switch (ev->type) {
	case AN_EV_SCHED_SWITCH:
		if (c && c->is_known && c->curr_pid != ev->sw.prev_pid)
			add_issue(r, AN_INTEG_SWITCH, ev->cpu, ev->sw.prev_pid,
				  c->curr_since_ns, ts, c->curr_pid, ev->sw.prev_pid);
		else if (ev->sw.prev_pid > 0)
			check_elsewhere(r, ev->sw.prev_pid, ev->cpu);
		if (ev->sw.next_pid > 0)
			check_elsewhere(r, ev->sw.next_pid, ev->cpu);
		break;
	case AN_EV_SCHED_WAKEUP:
	case AN_EV_SCHED_WAKEUP_NEW:
		check_elsewhere(r, ev->wakeup.pid, ev->wakeup.target_cpu);
		break;
	case AN_EV_SCHED_MIGRATE_TASK:
		check_elsewhere(r, ev->migrate.pid, ev->migrate.orig_cpu);
		break;
	default:
		break;
	}
}

/* ---- scheduler events ---- */

static bool cpu_in_model(struct an_replay *r, int cpu)
{
	if (an_replay_cpu(r, cpu))
		return true;
	r->nr_cpu_overflow++;
	an_replay_note(r, "events of CPUs at or above %u ignored, judgements UNDECIDED from the "
		       "first: the trace did not declare its CPU count (read it from a file, or "
		       "give --platform)", r->nr_cpus);
	return false;
}

/*
 * The task @pid shown alive by a switch or a wakeup. A task the replay saw
 * die that shows up again is a new one reusing its pid when the capture
 * records no sched_process_fork (whose event would have replaced it, see
 * on_fork()), nor sched_process_free: it is replaced, its requests unknown.
 */
static struct an_task *get_alive(struct an_replay *r, int pid, const char *comm, int prio)
{
	struct an_task *t = an_replay_task_get(r, pid, comm, prio);

	if (!t || !t->is_dead || !an_replay_is_unrecorded(r, AN_EV_SCHED_PROCESS_FORK, NULL))
		return t;
	remove_task(r, t);
	return an_replay_task_get(r, pid, comm, prio);
}

static bool is_dead_state(const char *state, bool is_exiting)
{
	if (strpbrk(state, "XZx"))
		return true;
	return is_exiting && strchr(state, 'I');
}

/* Dequeue the tasks @cpu pulled since its last switch; their pids go in @out. */
static unsigned int unpull(struct an_replay *r, int cpu, int out[AN_CPU_MAX_PULLED])
{
	struct an_cpu *c = &r->cpu[cpu];
	unsigned int n = 0;

	for (unsigned int i = 0; i < c->nr_pulled; i++) {
		struct an_task *t = an_replay_task(r, c->pulled[i]);

		if (t && !t->mt.is_dead && t->mt.cpu == cpu) {
			dequeue(r, t);
			out[n++] = c->pulled[i];
		}
	}
	return n;
}

static bool is_listed(const int *pids, unsigned int n, int pid)
{
	for (unsigned int i = 0; i < n; i++)
		if (pids[i] == pid)
			return true;
	return false;
}

/*
 * After the switch of a sleeper: when every task queued on @cpu was pulled
 * or woken from another CPU since the previous switch, and one was woken,
 * the kernel may have enqueued them all after the sleeper's dequeue. A
 * remote waker takes this rq's lock, which __schedule() drops only in the
 * new-idle balance, run when the sleeper left no task behind; the trace
 * cannot tell that order from a wakeup just before the dequeue. The tasks
 * are noted in an_cpu.late, for late_order().
 */
static void note_late(struct an_replay *r, int cpu)
{
	struct an_cpu *c = &r->cpu[cpu];
	const struct model_node *head = &r->mcpu[cpu].queued;
	bool has_woken = false;

	c->nr_late = 0;
	for (const struct model_node *n = head->next; n != head; n = n->next) {
		const struct model_task *mt = model_container_of(n, struct model_task, rq_node);
		bool is_woken = is_listed(c->woken, c->nr_woken, mt->pid);

		if ((!is_woken && !is_listed(c->pulled, c->nr_pulled, mt->pid)) ||
		    c->nr_late == sizeof(c->late) / sizeof(c->late[0])) {
			c->nr_late = 0;
			return;
		}
		has_woken |= is_woken;
		c->late[c->nr_late++] = mt->pid;
	}
	if (!has_woken)
		c->nr_late = 0;
}

/*
 * An observation of @cpu's rq clamps (@obs: MIN, MAX) while an_cpu.late is
 * set: when it differs from the model's and equals what the late tasks give
 * when enqueued on an empty rq (each bucket afresh, MB2/VR4: the largest
 * effective value of each clamp), the kernel took the other order; the
 * replay takes it too (dequeue them all, enqueue them again).
 */
static void late_order(struct an_replay *r, int cpu, const int obs[MODEL_UCLAMP_CNT])
{
	struct an_cpu *c = an_replay_cpu(r, cpu);
	int alt[MODEL_UCLAMP_CNT] = { -1, -1 };
	int late[2 * AN_CPU_MAX_PULLED];
	unsigned int nr;

	if (!c || !c->nr_late ||
	    (obs[MODEL_UCLAMP_MIN] == c->rq_now[MODEL_UCLAMP_MIN] &&
	     obs[MODEL_UCLAMP_MAX] == c->rq_now[MODEL_UCLAMP_MAX]))
		return;
	for (unsigned int i = 0; i < c->nr_late; i++) {
		const struct an_task *t = an_replay_task(r, c->late[i]);

		if (!t || t->mt.cpu != cpu)
			return;
		if (!is_counted(t->mt.cls))
			continue;
		for (int id = 0; id < MODEL_UCLAMP_CNT; id++) {
			int v = model_task_eff(&r->sys, &t->mt, (enum model_clamp_id)id, NULL);

			if (v > alt[id])
				alt[id] = v;
		}
	}
	if (alt[MODEL_UCLAMP_MIN] != obs[MODEL_UCLAMP_MIN] ||
	    alt[MODEL_UCLAMP_MAX] != obs[MODEL_UCLAMP_MAX])
		return;
	nr = c->nr_late;
	memcpy(late, c->late, nr * sizeof(late[0]));
	for (unsigned int i = 0; i < nr; i++)
		dequeue(r, an_replay_task(r, late[i]));
	for (unsigned int i = 0; i < nr; i++)
		enqueue(r, an_replay_task(r, late[i]), cpu);
	an_replay_note(r, "rq clamps showed tasks woken during a new-idle balance: "
		       "enqueued after the sleeper, as the kernel did");
}

/*
 * A util sample of @cpu is a schedutil evaluation point of its policy (S2)
 * when the CPU that logged @ev may update that policy: schedutil drops an
 * update from a CPU outside it (cpufreq_this_cpu_can_update(), 4.14+), as
 * when a new-idle or nohz balance on another CPU updates an idle CPU's
 * blocked load (a sched_pelt_cfs of that CPU logged elsewhere), or a group
 * write traces every rq from the writer's CPU. A policy shared with the
 * logging CPU, or an unknown layout, counts.
 */
static void eval_from(struct an_replay *r, const struct an_event *ev, int cpu)
{
	const struct an_cpu *c = an_replay_cpu(r, cpu), *by = an_replay_cpu(r, ev->cpu);

	if (c && by && ev->cpu != cpu && c->policy >= 0 && by->policy >= 0 &&
	    c->policy != by->policy)
		return;
	an_replay_eval(r, cpu);
}

static int on_switch(struct an_replay *r, const struct an_event *ev)
{
	const struct an_ev_switch *sw = &ev->sw;
	int out[AN_CPU_MAX_PULLED];
	unsigned int nr_out = 0;
	int cpu = ev->cpu;
	struct an_cpu *c;

	if (!cpu_in_model(r, cpu))
		return 0;
	c = &r->cpu[cpu];
	an_replay_rq_touched(r, cpu);	/* its current task, its known state */
	for (unsigned int i = 0; i < r->step.nr_issues; i++)
		if (r->step.issues[i].kind == AN_INTEG_SWITCH)
			forget_runqueues(r);
	/*
	 * A task leaving to sleep (or die) is dequeued at the start of
	 * __schedule(); the new-idle balance that follows may pull tasks in
	 * before the switch event, and the trace shows those pulls first
	 * (MR3 with MB2: a pulled task must not share a bucket with the
	 * sleeper). Take the pulled tasks out, the sleeper, then them again;
	 * in between, the frequency checks judge what schedutil saw at the
	 * sleeper's dequeue (an_replay_sleeper_out()).
	 */
	if (sw->prev_pid > 0 && c->nr_pulled && !an_event_state_is_runnable(sw->prev_state))
		nr_out = unpull(r, cpu, out);
	if (sw->prev_pid > 0) {
		struct an_task *p = get_alive(r, sw->prev_pid, sw->prev_comm, sw->prev_prio);

		if (!p)
			return -ENOMEM;
		if (!p->mt.is_dead) {
			/* it was running here, so queued here (since the trace start
			 * when the CPU was unknown) */
			move_to(r, p, cpu);
			if (is_dead_state(sw->prev_state, p->is_exiting))
				release(r, p);
			else if (!an_event_state_is_runnable(sw->prev_state))
				dequeue(r, p);
		}
	}
	if (nr_out) {
		int err = an_replay_sleeper_out(r);

		if (err)
			return err;
	}
	if (sw->next_pid > 0) {
		struct an_task *n = get_alive(r, sw->next_pid, sw->next_comm, sw->next_prio);

		if (!n)
			return -ENOMEM;
		if (!n->mt.is_dead && n->mt.cpu < 0)
			r->nr_learnt++;
		if (!n->mt.is_dead)
			move_to(r, n, cpu);
	}
	for (unsigned int i = 0; i < nr_out; i++) {
		struct an_task *t = an_replay_task(r, out[i]);

		if (t && !t->mt.is_dead && t->mt.cpu < 0)
			move_to(r, t, cpu);
	}
	if (c->nr_woken && sw->prev_pid > 0 && !an_event_state_is_runnable(sw->prev_state))
		note_late(r, cpu);
	c->nr_pulled = 0;
	c->nr_woken = 0;
	if (sw->next_pid == 0 && c->curr_pid != 0) {
		c->idle_seq++;
		c->is_idle_exited = false;
	}
	c->curr_pid = sw->next_pid;
	c->curr_since_ns = ev->ts_ns;
	if (!c->is_known) {
		if (!c->was_known)
			r->nr_known_cpus++;
		c->was_known = true;
		c->is_known = true;
		/* learnt from this switch alone: in doubt after lost events */
		c->is_lost_doubt = c->is_lost;
		c->is_lost = false;
		c->known_since_ns = ev->ts_ns;
	}
	r->nr_switches++;
	an_replay_eval(r, cpu);
	return 0;
}

static int on_wakeup(struct an_replay *r, const struct an_event *ev)
{
	const struct an_ev_wakeup *w = &ev->wakeup;
	struct an_task *t;

	if (w->pid <= 0 || !cpu_in_model(r, w->target_cpu))
		return 0;
	t = get_alive(r, w->pid, w->comm, w->prio);
	if (!t)
		return -ENOMEM;
	if (t->mt.is_dead)
		return 0;
	if (ev->cpu != w->target_cpu && t->mt.cpu != w->target_cpu) {
		struct an_cpu *c = &r->cpu[w->target_cpu];

		if (c->nr_woken < AN_CPU_MAX_PULLED)
			c->woken[c->nr_woken++] = w->pid;
	}
	/* a wakeup of a task already queued there is no second enqueue */
	move_to(r, t, w->target_cpu);
	an_replay_eval(r, w->target_cpu);
	return 0;
}

/*
 * sched_waking: ignored when the capture records sched_wakeup (seen so far).
 * Else it stands for the enqueue on target_cpu, which the kernel does after
 * it (the waking fires on the waker's CPU first): the target CPU is
 * undecidable from the waking up to its own next event.
 */
static int on_waking(struct an_replay *r, const struct an_event *ev)
{
	int cpu = ev->wakeup.target_cpu;
	int err;

	if (!an_replay_is_unrecorded(r, AN_EV_SCHED_WAKEUP, NULL) ||
	    !an_replay_cpu(r, cpu))
		return 0;
	err = on_wakeup(r, ev);
	if (!err) {
		r->cpu[cpu].is_waking_open = true;
		unrecorded_until_now(r, cpu);
	}
	return err;
}

static int on_migrate(struct an_replay *r, const struct an_event *ev)
{
	const struct an_ev_migrate *m = &ev->migrate;
	struct an_task *t;

	if (m->pid <= 0)
		return 0;
	t = an_replay_task_get(r, m->pid, m->comm, m->prio);
	if (!t)
		return -ENOMEM;
	if (t->mt.is_dead)
		return 0;
	if (t->mt.cpu < 0) {
		/* a waking task not queued yet: its wakeup enqueues it */
		t->last_cpu = m->dest_cpu;
		return 0;
	}
	an_replay_eval(r, t->mt.cpu);
	if (!cpu_in_model(r, m->dest_cpu)) {
		dequeue(r, t);
		return 0;
	}
	move_to(r, t, m->dest_cpu);
	an_replay_eval(r, m->dest_cpu);
	/* a pull by the destination CPU itself (see on_switch()) */
	if (ev->cpu == m->dest_cpu && r->cpu[ev->cpu].nr_pulled < AN_CPU_MAX_PULLED)
		r->cpu[ev->cpu].pulled[r->cpu[ev->cpu].nr_pulled++] = m->pid;
	return 0;
}

static int on_fork(struct an_replay *r, const struct an_event *ev)
{
	const struct an_ev_fork *f = &ev->fork;
	struct an_task *parent, *child, *old;

	if (f->child_pid <= 0 || f->parent_pid < 0)
		return 0;
	old = an_replay_task(r, f->child_pid);
	if (old)
		remove_task(r, old);	/* pid reuse: a new task */
	if (f->parent_pid > 0) {
		parent = an_replay_task_get(r, f->parent_pid, f->parent_comm, AN_PRIO_NONE);
		if (!parent)
			return -ENOMEM;
	} else {
		parent = NULL;		/* kernel threads forked by the idle task */
	}
	child = an_replay_task_new(r, f->child_pid);
	if (!child)
		return -ENOMEM;
	an_comm_set(child->comm, f->child_comm);
	set_task_known(r, child);	/* not queued until its wakeup_new */
	if (!parent) {
		model_task_init(&r->sys, &child->mt, f->child_pid, MODEL_CLASS_FAIR);
		return 0;
	}
	model_task_fork(&r->sys, &parent->mt, &child->mt, f->child_pid);
	child->prio = parent->prio;
	child->is_tg_known = parent->is_tg_known;
	for (int id = 0; id < MODEL_UCLAMP_CNT; id++) {
		child->is_req_known[id] = r->variant == MODEL_V3 ||	/* VT4 */
					  parent->mt.reset_on_fork ||	/* MA7 */
					  parent->is_req_known[id];
		child->is_req_forked[id] = r->variant == MODEL_MAINLINE &&
					   child->is_req_known[id];
	}
	return 0;
}

static int on_exit_free(struct an_replay *r, const struct an_event *ev)
{
	struct an_task *t;

	if (ev->task.pid <= 0)
		return 0;
	if (ev->type == AN_EV_SCHED_PROCESS_FREE) {
		t = an_replay_task(r, ev->task.pid);
		if (t)
			remove_task(r, t);	/* VG8: also if the final switch is missing */
		return 0;
	}
	t = an_replay_task_get(r, ev->task.pid, ev->task.comm, ev->task.prio);
	if (!t)
		return -ENOMEM;
	t->is_exiting = true;
	return 0;
}

static void set_freq(struct an_replay *r, int cpu, unsigned int khz)
{
	struct an_cpu *c = an_replay_cpu(r, cpu);
	struct an_freq_policy *p = an_replay_cpu_policy(r, cpu);

	if (!c)
		return;
	c->freq_khz = khz;
	c->freq_since_ns = r->step.ts_ns;
	c->is_freq_lost = false;
	if (!p)
		return;
	p->su.cur_khz = khz;
	for (unsigned int i = 0; i < p->su.nr_cpus; i++) {
		struct an_cpu *o = an_replay_cpu(r, p->su.cpu[i]);

		if (o)
			o->is_freq_lost = false;
	}
}

/*
 * policy_frequency: the other CPUs of its cpumask, which must hold cpu_id
 * (policy->cpu); never a CPU of another policy than cpu_id's
 */
static void set_policy_freq(struct an_replay *r, const struct an_ev_freq *f)
{
	const struct an_freq_policy *p = an_replay_cpu_policy(r, f->cpu_id);

	if (f->cpu_id < 0 || f->cpu_id > 63 || !((f->cpus >> f->cpu_id) & 1))
		return;
	for (unsigned long long m = f->cpus; m; m &= m - 1) {
		int cpu = __builtin_ctzll(m);
		const struct an_freq_policy *o = an_replay_cpu_policy(r, cpu);

		if (cpu != f->cpu_id && (!o || o == p))
			set_freq(r, cpu, f->freq_khz);
	}
}

/*
 * Lost events on @cpu may have hidden a cpu_frequency of its policy (of any
 * policy when it has none): the frequency is unknown until the next one.
 */
static void forget_freq(struct an_replay *r, int cpu)
{
	const struct an_freq_policy *p = an_replay_cpu_policy(r, cpu);

	for (unsigned int i = 0; i < r->nr_cpus; i++) {
		struct an_cpu *c = &r->cpu[i];

		if (p && an_replay_cpu_policy(r, (int)i) != p)
			continue;
		if (c->freq_khz)
			c->is_freq_lost = true;
		c->freq_khz = 0;
	}
}

/* devlib's "cpu_frequency_devlib: state=N cpu_id=M" (initial frequencies). */
static void on_devlib(struct an_replay *r, const struct an_ev_print *pr)
{
	static const char tag[] = "cpu_frequency_devlib:";
	char buf[128];
	const char *s, *id;
	size_t n = pr->len < sizeof(buf) - 1 ? pr->len : sizeof(buf) - 1;

	if (pr->len < sizeof(tag) - 1 || memcmp(pr->text, tag, sizeof(tag) - 1))
		return;
	memcpy(buf, pr->text, n);
	buf[n] = '\0';
	s = strstr(buf, "state=");
	id = strstr(buf, "cpu_id=");
	if (s && id)
		set_freq(r, atoi(id + 7), (unsigned int)strtoul(s + 6, NULL, 10));
}

static void on_limits(struct an_replay *r, const struct an_event *ev)
{
	const struct an_ev_limits *l = &ev->limits;
	struct an_freq_policy *p = an_replay_cpu_policy(r, l->cpu_id);

	if (!p) {
		an_replay_note(r, "cpu_frequency_limits of CPUs without a known policy ignored");
		return;
	}
	/* kept in the platform so a later cpu marker does not undo them */
	for (unsigned int i = 0; i < p->su.nr_cpus; i++) {
		r->plat.cpu[p->su.cpu[i]].min_khz = l->min_khz;
		r->plat.cpu[p->su.cpu[i]].max_khz = l->max_khz;
	}
	p->su.min_khz = l->min_khz;
	p->su.max_khz = l->max_khz;
	p->has_limits = true;
	an_replay_policy_changed(r, p);
	r->step.is_limits_changed = true;
	r->step.limits_policy = (int)(p - r->policy);
}

static int on_print(struct an_replay *r, const struct an_event *ev)
{
	const struct an_marker *m = &ev->print.marker;

	switch (m->kind) {
	case AN_MARKER_NONE:
		on_devlib(r, &ev->print);
		return 0;
	case AN_MARKER_PLATFORM:
		an_replay_note(r, "platform marker after the first event: only its "
			       "tick_us and invariant keys used");
		/* fall through */
	case AN_MARKER_CPU:
		if (an_platform_apply_marker(&r->plat, m) > 0) {
			an_replay_sync_policies(r);
			r->step.is_limits_changed = true;
		}
		return 0;
	default:
		return an_requests_apply(r, ev);
	}
}

/*
 * cpu_idle: an entry after an exit, in the same idle period, is the idle
 * loop going round again; two ticks or more into the period, a tick has
 * fired in idle (an_cpu.idle_counted_seq).
 */
static void on_idle(struct an_replay *r, const struct an_event *ev)
{
	uint64_t tick_ns = an_replay_tick_ns(r);
	struct an_cpu *c = an_replay_cpu(r, ev->idle.cpu_id);

	if (!c)
		return;
	c->has_idle_events = true;
	if (c->curr_pid != 0)
		return;
	if (ev->idle.state == AN_IDLE_EXIT)
		c->is_idle_exited = true;
	else if (c->is_idle_exited && ev->ts_ns - c->curr_since_ns >= 2 * tick_ns)
		c->idle_counted_seq = c->idle_seq;
}

int an_sched_apply(struct an_replay *r, const struct an_event *ev)
{
	switch (ev->type) {
	case AN_EV_SCHED_SWITCH:
		return on_switch(r, ev);
	case AN_EV_SCHED_WAKEUP:
	case AN_EV_SCHED_WAKEUP_NEW:
		return on_wakeup(r, ev);
	case AN_EV_SCHED_WAKING:
		return on_waking(r, ev);
	case AN_EV_SCHED_MIGRATE_TASK:
		return on_migrate(r, ev);
	case AN_EV_CPU_IDLE:
		on_idle(r, ev);
		return 0;
	case AN_EV_SCHED_PROCESS_FORK:
		return on_fork(r, ev);
	case AN_EV_SCHED_PROCESS_EXIT:
	case AN_EV_SCHED_PROCESS_FREE:
		return on_exit_free(r, ev);
	case AN_EV_CPU_FREQUENCY:
		set_freq(r, ev->freq.cpu_id, ev->freq.freq_khz);
		if (ev->freq.cpus)
			set_policy_freq(r, &ev->freq);
		return 0;
	case AN_EV_CPU_FREQUENCY_LIMITS:
		on_limits(r, ev);
		return 0;
	case AN_EV_PRINT:
		return on_print(r, ev);
	case AN_EV_UCLAMP_REQUEST:
	case AN_EV_UCLAMP_TG:
	case AN_EV_UCLAMP_TASK_EFF:
		return an_requests_apply(r, ev);
	case AN_EV_UCLAMP_UTIL_CFS: {
		int obs[MODEL_UCLAMP_CNT] = { (int)ev->util_cfs.uclamp_min,
					      (int)ev->util_cfs.uclamp_max };

		late_order(r, ev->util_cfs.cpu, obs);
		eval_from(r, ev, ev->util_cfs.cpu);
		return 0;
	}
	case AN_EV_UCLAMP_UTIL_SE: {
		int obs[MODEL_UCLAMP_CNT] = { (int)ev->util_se.uclamp_min,
					      (int)ev->util_se.uclamp_max };

		late_order(r, ev->util_se.cpu, obs);
		eval_from(r, ev, ev->util_se.cpu);
		return 0;
	}
	case AN_EV_SCHED_PELT_CFS:
		eval_from(r, ev, ev->pelt_cfs.cpu);
		return 0;
	case AN_EV_SCHED_UTIL:
		if (an_replay_cpu(r, ev->sched_util.cpu))
			r->cpu[ev->sched_util.cpu].has_eval_events = true;
		an_replay_eval(r, ev->sched_util.cpu);
		return 0;
	case AN_EV_SUGOV_UTIL_UPDATE:
		an_replay_eval(r, ev->sugov.cpu);
		return 0;
	case AN_EV_LOST_EVENTS:
		r->nr_lost_reports++;
		r->nr_lost_events += ev->lost.count;
		forget_runqueues(r);
		forget_freq(r, ev->cpu);
		return 0;
	default:
		return 0;
	}
}

