// SPDX-License-Identifier: MIT
/*
 * analyze/checks/check_rq_clamp.c - check rq_clamp (events.md §4).
 *
 * uclamp_util_cfs and uclamp_util_se (and MediaTek's sched_queue_task, see
 * below) show a CPU's rq aggregated clamps (uclamp_min, uclamp_max) at an
 * instant; the model's are
 * model_rq_value(cpu, id) over the tasks the replay has queued there,
 * idle UCLAMP_MAX retention included (v3 VR4-VR11, mainline MR3-MR4, MR8).
 *
 * Same-instant ordering: a kernel emits the util event of an enqueue from
 * inside enqueue_task(), which may come before the sched_wakeup event of that
 * very enqueue, with the same timestamp (text traces also round to 1 us). So
 * an observation at time T on CPU c is judged once every event of time T has
 * been replayed, and it agrees when its (min, max) pair equals the model's
 * pair either just before T (after the last event older than T) or after
 * every event of T. A disagreement reports the model's value after T.
 *
 * Verdicts per observation and clamp id:
 *  - the CPU is not decidable (runqueue unknown, inside an integrity window,
 *    v3 seed state undefined): UNDECIDED window for that CPU; it may hide a
 *    failure unless the CPU is simply not known yet since the trace start;
 *  - agreement: n_checked, and an open FAIL window of that CPU and id ends;
 *  - disagreement: a FAIL window when the clamps of every task that makes up
 *    the value are known (an_task_is_clamp_known(): the queued fair/RT
 *    tasks, or on an idle CPU the last one that left it); otherwise an
 *    UNDECIDED window (a request or group the trace never showed may
 *    explain it). Likewise when the capture records no sched_wakeup and a
 *    woken task not switched in yet may explain it (may_be_unseen()).
 * Rule of a FAIL window: by what last changed the model's value on that CPU:
 *  v3: idle VR11, count VR4, uncount VR5, request VR9, group VR10,
 *      sysctl VR12, never changed VR7;
 *  mainline: idle MR4, count MR3, uncount MR4, request MR6, group MR5,
 *      sysctl MR7, never changed MR8.
 * Windows are keyed by (cpu, clamp id), pid -1.
 *
 * Sleep before a group write: a task that goes to sleep is dequeued at the
 * start of __schedule(), some time before the sched_switch event that shows
 * it, and a group clamp write re-accounts only the tasks still queued then
 * (uclamp_update_active(), MR5/VR10). So when a group write falls between a
 * CPU's last sign that its task was still counted (see counted_cpu()) and a
 * switch that leaves it idle because its
 * task went to sleep, the kernel may have dequeued the task with its old effective
 * UCLAMP_MAX: the idle CPU then retains that one (MR4/VR11). Until the CPU
 * leaves idle, its observed pair agrees with either the model's or the one
 * with the leaving task's effective value before the write. A write is
 * walked group by group (walk.h): a task switched in during the walk is
 * judged at the uclamp_tg that follows, with its group's values from before
 * the write as long as the walk is followed.
 *
 * Pull before the switch: a CPU whose task goes to sleep runs the new-idle
 * balance inside __schedule(), after that dequeue and before the
 * sched_switch, so tasks it pulls in (sched_migrate_task on the destination
 * CPU itself) are enqueued on a runqueue already without the sleeper: their
 * buckets start afresh (MB2/VR4). The trace shows the pull first; the
 * replay takes the pulled tasks out and in again around the sleeper's
 * dequeue (on_switch() in sched.c), so the model's rq is the kernel's.
 *
 * Remote wakeup during that balance: the balance drops the rq lock, so a
 * task woken from another CPU may be enqueued after the sleeper's dequeue
 * although its sched_wakeup comes first in the trace; or before it, while
 * the sleeper still ran. When the sleeper left no other task queued, the
 * next rq sample decides between the two (late_order() in sched.c).
 *
 * A balance that moves several tasks (detach_tasks(), then attach_tasks()):
 * the kernel dequeues them all from the busiest CPU, one sched_migrate_task
 * each, then enqueues them one by one on the destination, where each
 * uclamp_util_se shows the rq with the tasks attached so far. The replay
 * moves a task at its sched_migrate_task, so it is ahead of the kernel
 * until the last one is attached: a uclamp_util_se of the destination
 * while other tasks moved there have not shown theirs is not judged. The
 * batch ends at the last one's, or at the destination's next switch or rq
 * sample (attach_tasks() holds its rq lock until all are queued).
 *
 * A queued task moved by another CPU than its destination (the migration
 * thread, move_queued_task(): an affinity change, an active balance) is
 * dequeued and shown moved (sched_migrate_task) with the source's lock
 * only; the destination's lock is taken after, so the destination may
 * switch and show its rq without the task before it is enqueued there.
 * Until the task's own uclamp_util_se there (or a switch from or to it), no
 * rq sample of the destination is judged. Only in a trace that shows
 * uclamp_util_se at all: otherwise the batch ends as above.
 *
 * MediaTek's sched_queue_task shows the rq clamps (min, max) just after the
 * enqueue (enqueue 1) or dequeue (-1) of one task, from enqueue_task() or
 * dequeue_task(): before the sched event that shows that operation
 * (sched_wakeup, sched_switch, sched_migrate_task). When the model already
 * agrees on the task's place (queued on that CPU or not), the observation
 * is judged as above. Otherwise it waits for the event that gives the model
 * that very operation, and is judged on the model's pair right after it. It
 * is dropped, unjudged, when the CPU's queued tasks change in any other way
 * first, or when a second one comes for the CPU before (a dequeue and
 * enqueue around a change of the task, or a pull during the new-idle
 * balance: the kernel is more than one operation ahead of the model).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "analyze/checks/checks.h"
#include "analyze/checks/cover.h"
#include "lib/malloc.h"

#define MAX_PENDING	4	/* distinct (min, max) pairs of one CPU at one instant */
#define MAX_ATTACHING	8	/* tasks of one balance, beyond that: the batch's end */

struct rq_cpu {
	struct an_win_track fail[MODEL_UCLAMP_CNT];
	struct an_win_track doubt;
	unsigned int nr_pending;
	uint64_t pending_ts;
	int pending[MAX_PENDING][MODEL_UCLAMP_CNT];
	/* sleep before a group write (file comment) */
	bool is_write_quiet;		/* a group write, no event of this CPU since */
	int write_pid;			/* the task running then */
	int write_max;			/* its effective UCLAMP_MAX before the write */
	bool has_alt;			/* idle: @alt_max retained is accepted too */
	int alt_max;
	/* a balance's tasks not attached yet (file comment) */
	unsigned int nr_attaching;
	bool is_attaching_full;		/* more than MAX_ATTACHING */
	int attaching[MAX_ATTACHING];
	bool is_remote[MAX_ATTACHING];	/* moved by another CPU (file comment) */
	unsigned int nr_remote;		/* entries of @is_remote set */
	/* pull before the switch (file comment) */
	/* sched_queue_task waiting for its operation (file comment) */
	bool has_queued;
	int queued_pid;
	int queued_op;			/* 1 enqueue, -1 dequeue */
	unsigned int queued_nr;		/* the model's queued tasks then ... */
	long long queued_sum;		/* ... and the sum of their pids */
	int queued_obs[MODEL_UCLAMP_CNT];
	uint64_t cover_ns;		/* rule coverage counted up to here */
};

struct rq_check {
	struct an_results *res;
	struct rq_cpu *cpu;
	unsigned int nr_cpus;
	int *pending_cpus;		/* CPUs with nr_pending > 0 */
	unsigned int nr_pending_cpus;
	unsigned int nr_queued;		/* CPUs with has_queued */
	bool has_util_se;		/* the trace showed a uclamp_util_se */
};

static const char *rule_of(const struct an_replay *r, int cpu)
{
	static const char *const v3[] = {
		[AN_RQ_OP_NONE] = "VR7", [AN_RQ_OP_ENQUEUE] = "VR4",
		[AN_RQ_OP_DEQUEUE] = "VR5", [AN_RQ_OP_REQUEST] = "VR9",
		[AN_RQ_OP_GROUP] = "VR10", [AN_RQ_OP_SYSCTL] = "VR12",
	};
	static const char *const ml[] = {
		[AN_RQ_OP_NONE] = "MR8", [AN_RQ_OP_ENQUEUE] = "MR3",
		[AN_RQ_OP_DEQUEUE] = "MR4", [AN_RQ_OP_REQUEST] = "MR6",
		[AN_RQ_OP_GROUP] = "MR5", [AN_RQ_OP_SYSCTL] = "MR7",
	};
	bool is_v3 = r->variant == MODEL_V3;

	if (model_rq_is_idle(&r->sys, cpu))
		return is_v3 ? "VR11" : "MR4";
	return (is_v3 ? v3 : ml)[r->cpu[cpu].last_op];
}

/* Whether every task whose clamps make up @cpu's value has known clamps. */
static bool is_clamp_known(const struct an_replay *r, int cpu)
{
	const struct model_node *head = &r->sys.cpu[cpu].queued;
	const struct model_node *n;
	bool has_counted = false;

	model_list_for_each(n, head) {
		const struct model_task *mt = model_container_of(n, struct model_task, rq_node);

		if (mt->cls != MODEL_CLASS_FAIR && mt->cls != MODEL_CLASS_RT)
			continue;
		has_counted = true;
		if (!an_task_is_clamp_known(an_task_of(mt)))
			return false;
	}
	return has_counted || r->cpu[cpu].is_leaver_known ||
	       r->cpu[cpu].last_op == AN_RQ_OP_NONE;
}

/*
 * Why the model holds @cpu's value of @id: what last changed it, and each
 * counted task's effective value (VT2 / MT1), or the idle retention.
 */
static void explain(const struct an_replay *r, int cpu, enum model_clamp_id id, char *buf,
		    size_t size)
{
	static const char *const ops[] = {
		[AN_RQ_OP_NONE] = "boot value", [AN_RQ_OP_ENQUEUE] = "after an enqueue",
		[AN_RQ_OP_DEQUEUE] = "after a dequeue", [AN_RQ_OP_REQUEST] = "after a request",
		[AN_RQ_OP_GROUP] = "after a group change", [AN_RQ_OP_SYSCTL] = "after a sysctl",
	};
	const struct model_node *n;
	const char *eff_rule = r->variant == MODEL_V3 ? "VT2" : "MT1";
	char label[64];
	size_t at = 0;

	buf[0] = '\0';
	snprintf(label, sizeof(label), "rq %s %s", id == MODEL_UCLAMP_MIN ? "min" : "max",
		 model_rq_is_idle(&r->sys, cpu) ? "retained, idle" : ops[r->cpu[cpu].last_op]);
	if (!an_explain_line(buf, size, &at, rule_of(r, cpu), label,
			  model_rq_value(&r->sys, cpu, id)))
		return;
	model_list_for_each(n, &r->sys.cpu[cpu].queued) {
		const struct model_task *mt = model_container_of(n, struct model_task, rq_node);

		if (mt->cls != MODEL_CLASS_FAIR && mt->cls != MODEL_CLASS_RT)
			continue;
		snprintf(label, sizeof(label), "pid %d (%.15s) effective", mt->pid,
			 an_task_of(mt)->comm);
		if (!an_explain_line(buf, size, &at, eff_rule, label,
				  model_task_eff(&r->sys, mt, id, NULL)))
			return;
	}
}

/*
 * A capture without sched_wakeup nor sched_waking (none seen so far) has
 * the replay queue a woken task at its switch-in only (state.h): until then a CPU that runs a
 * task may hold others the model does not, woken there and waiting. They
 * raise its values (each is the largest over its tasks, VR4/MR3), so @obs,
 * the kernel's value of @id, may be theirs when it is above the model's; a
 * value below is not. An idle CPU runs a task woken onto it at once: the
 * replay takes its runqueue as empty until the switch.
 */
static bool may_be_unseen(const struct an_replay *r, int cpu, int id, int obs)
{
	if (!an_replay_is_unrecorded(r, AN_EV_SCHED_WAKEUP, NULL) ||
	    !an_replay_is_unrecorded(r, AN_EV_SCHED_WAKEUP_NEW, NULL) ||
	    !an_replay_is_unrecorded(r, AN_EV_SCHED_WAKING, NULL))
		return false;
	return r->cpu[cpu].curr_pid > 0 && obs > r->cpu[cpu].rq_now[id];
}

/*
 * Mainline MB2: a bucket keeps its largest value while tasks remain, so the
 * rq value of @id may exceed every counted task's: the bucket decided it.
 */
static bool is_bucket_max(const struct an_replay *r, int cpu, enum model_clamp_id id)
{
	const struct model_node *n;
	int top = -1;

	if (r->variant != MODEL_MAINLINE || model_rq_is_idle(&r->sys, cpu))
		return false;
	model_list_for_each(n, &r->sys.cpu[cpu].queued) {
		const struct model_task *mt = model_container_of(n, struct model_task, rq_node);

		if (mt->acc_slot[id] != MODEL_NV && mt->acc_value[id] > top)
			top = mt->acc_value[id];
	}
	return top >= 0 && model_rq_value(&r->sys, cpu, id) > top;
}

/*
 * Rule coverage of one judged sample of @cpu at @ts: the rule behind the
 * model's value and, mainline, the static key while off (MR2), the hooks
 * of an enqueue or dequeue (MR1), the initial values (MB4), the sysctl
 * write the value follows (MA8, with MR7), a bucket's kept value and so the
 * bucket mapping (MB2, MB1), over the time since the value
 * last changed (since the CPU's previous sample at most).
 */
static void cover(const struct an_replay *r, struct rq_check *k, int cpu, uint64_t ts)
{
	struct rq_cpu *rc = &k->cpu[cpu];
	uint64_t from = r->cpu[cpu].clamp_changed_ns;
	struct an_cover_set set = { .nr = 0 };

	an_cover_set_add(k->res, r->variant, &set, rule_of(r, cpu));
	if (r->variant == MODEL_MAINLINE) {
		enum an_rq_op op = r->cpu[cpu].last_op;

		if (!r->sys.is_uclamp_used)
			an_cover_set_add(k->res, r->variant, &set, "MR2");
		if (op == AN_RQ_OP_ENQUEUE || op == AN_RQ_OP_DEQUEUE)
			an_cover_set_add(k->res, r->variant, &set, "MR1");
		if (op == AN_RQ_OP_NONE)
			an_cover_set_add(k->res, r->variant, &set, "MB4");
		if (op == AN_RQ_OP_SYSCTL && !model_rq_is_idle(&r->sys, cpu))
			an_cover_set_add(k->res, r->variant, &set, "MA8");
		if (is_bucket_max(r, cpu, MODEL_UCLAMP_MIN) ||
		    is_bucket_max(r, cpu, MODEL_UCLAMP_MAX)) {
			an_cover_set_add(k->res, r->variant, &set, "MB2");
			an_cover_set_add(k->res, r->variant, &set, "MB1");
		}
	}
	an_cover_set_count(k->res, AN_CHECK_RQ_CLAMP, &set);
	if (rc->cover_ns > from)
		from = rc->cover_ns;
	an_cover_set_time(k->res, AN_CHECK_RQ_CLAMP, &set, ts > from ? ts - from : 0);
	if (ts > rc->cover_ns)
		rc->cover_ns = ts;
}

/*
 * Judge the pair @obs of @cpu at @ts: it agrees with the model's pair
 * before @ts or now; with @is_after_only, now only.
 */
static void judge(struct an_replay *r, struct rq_check *k, int cpu, uint64_t ts,
		  const int obs[MODEL_UCLAMP_CNT], bool is_after_only)
{
	struct rq_cpu *rc = &k->cpu[cpu];
	static const char *const names[] = { "uclamp_min", "uclamp_max" };
	const struct an_cpu *c = &r->cpu[cpu];
	bool is_before = !is_after_only, is_after = true, is_judged = false;

	for (int id = 0; id < MODEL_UCLAMP_CNT; id++) {
		if (is_before)
			is_before = obs[id] == an_replay_rq_before(r, cpu, (enum model_clamp_id)id,
								   ts);
		is_after &= obs[id] == c->rq_now[id];
	}
	if (rc->has_alt && obs[MODEL_UCLAMP_MIN] == c->rq_now[MODEL_UCLAMP_MIN] &&
	    obs[MODEL_UCLAMP_MAX] == rc->alt_max)
		is_after = true;
	for (int id = 0; id < MODEL_UCLAMP_CNT; id++) {
		struct an_window w;	/* made only for a disagreement */
		bool is_unseen;

		if (is_before || is_after || obs[id] == c->rq_now[id]) {
			is_judged = true;
			an_win_agree(k->res, &rc->fail[id], ts);
			if (is_before || is_after)
				an_win_close(k->res, &rc->doubt, ts);
			continue;
		}
		w = (struct an_window){
			.check = AN_CHECK_RQ_CLAMP, .cpu = cpu, .pid = -1, .ts_start_ns = ts,
			.expected = c->rq_now[id], .observed = obs[id], .rule = rule_of(r, cpu),
		};
		is_unseen = may_be_unseen(r, cpu, id, obs[id]);
		snprintf(w.message, sizeof(w.message), "rq %s of cpu %d: kernel %d, model %d%s",
			 names[id], cpu, obs[id], c->rq_now[id],
			 is_unseen ? " (a woken task may be queued: no sched_wakeup)" : "");
		if (is_clamp_known(r, cpu) && !is_unseen) {
			is_judged = true;
			an_win_observe(k->res, &rc->fail[id], &w);
			if (rc->fail[id].w.n_events == 1) {
				char text[AN_WINDOW_EXPLAIN_LEN];

				explain(r, cpu, (enum model_clamp_id)id, text, sizeof(text));
				an_win_set_explain(&rc->fail[id], text);
			}
		} else {
			an_win_doubt_hiding(k->res, &rc->doubt, &w, true);
		}
	}
	if (is_judged) {
		k->res->stats[AN_CHECK_RQ_CLAMP].n_checked++;
		cover(r, k, cpu, ts);
	}
}

static void resolve(struct an_replay *r, struct rq_check *k, int cpu)
{
	struct rq_cpu *rc = &k->cpu[cpu];

	for (unsigned int i = 0; i < rc->nr_pending; i++)
		judge(r, k, cpu, rc->pending_ts, rc->pending[i], false);
	rc->nr_pending = 0;
}

static AN_NOINLINE void resolve_older(struct an_replay *r, struct rq_check *k, uint64_t ts,
				      bool is_all)
{
	unsigned int keep = 0;

	for (unsigned int i = 0; i < k->nr_pending_cpus; i++) {
		int cpu = k->pending_cpus[i];

		if (is_all || k->cpu[cpu].pending_ts < ts)
			resolve(r, k, cpu);
		else
			k->pending_cpus[keep++] = cpu;
	}
	k->nr_pending_cpus = keep;
}

/* @cpu cannot be judged at @ev: extend its doubt window (UNDECIDED). */
static AN_NOINLINE void doubt(struct an_replay *r, struct rq_check *k, const struct an_event *ev,
			      int cpu)
{
	const struct an_cpu *c = &r->cpu[cpu];
	struct an_window w = {
		.check = AN_CHECK_RQ_CLAMP, .cpu = cpu, .pid = -1,
		.ts_start_ns = ev->ts_ns, .rule = "",
	};
	bool is_moved = c->is_known && c->unrecorded_until_ns >= ev->ts_ns;
	/* it hides nothing when the CPU is simply not known yet since the start */
	bool is_hiding = c->is_lost || c->is_lost_doubt || c->undecided_until_ns >= ev->ts_ns ||
			 is_moved || r->sys.is_undefined;

	snprintf(w.message, sizeof(w.message), "rq of cpu %d not known%s", cpu,
		 is_moved && c->undecided_until_ns < ev->ts_ns ?
		 " (a task moved unrecorded: no sched_migrate_task)" :
		 is_hiding ? " (integrity)" : " yet");
	an_win_doubt_hiding(k->res, &k->cpu[cpu].doubt, &w, is_hiding);
}

/* Whether @cpu can be judged at @ev: else doubt(). */
static bool is_decidable(struct an_replay *r, struct rq_check *k, const struct an_event *ev,
			 int cpu)
{
	if (!an_replay_is_decidable(r, cpu, ev->ts_ns)) {
		doubt(r, k, ev, cpu);
		return false;
	}
	an_win_close(k->res, &k->cpu[cpu].doubt, ev->ts_ns);
	return true;
}

static AN_NOINLINE void observe(struct an_replay *r, struct rq_check *k,
				const struct an_event *ev, int cpu, unsigned int umin,
				unsigned int umax)
{
	struct rq_cpu *rc;
	int obs[MODEL_UCLAMP_CNT] = { (int)umin, (int)umax };

	k->res->stats[AN_CHECK_RQ_CLAMP].has_input = true;
	if (!an_replay_cpu(r, cpu) || !is_decidable(r, k, ev, cpu))
		return;
	rc = &k->cpu[cpu];
	if (rc->nr_pending && rc->pending_ts != ev->ts_ns) {
		/* an older instant whose later events came out of order */
		resolve(r, k, cpu);
	}
	for (unsigned int i = 0; i < rc->nr_pending; i++)
		if (rc->pending[i][0] == obs[0] && rc->pending[i][1] == obs[1])
			return;
	if (rc->nr_pending == MAX_PENDING)
		resolve(r, k, cpu);
	if (!rc->nr_pending) {
		bool is_listed = false;

		for (unsigned int i = 0; i < k->nr_pending_cpus; i++)
			is_listed |= k->pending_cpus[i] == cpu;
		if (!is_listed)
			k->pending_cpus[k->nr_pending_cpus++] = cpu;
	}
	rc->pending_ts = ev->ts_ns;
	rc->pending[rc->nr_pending][0] = obs[0];
	rc->pending[rc->nr_pending][1] = obs[1];
	rc->nr_pending++;
}

/* The model's queued tasks of @cpu: how many, and the sum of their pids. */
static void queued_of(const struct an_replay *r, int cpu, unsigned int *nr, long long *sum)
{
	const struct model_node *n;

	*nr = 0;
	*sum = 0;
	model_list_for_each(n, &r->sys.cpu[cpu].queued) {
		(*nr)++;
		*sum += model_container_of(n, struct model_task, rq_node)->pid;
	}
}

/* Whether the model has done operation @op (1 enqueue, -1 dequeue) of @pid on @cpu. */
static bool is_op_done(const struct an_replay *r, int cpu, int pid, int op)
{
	const struct an_task *t = an_replay_task(r, pid);
	bool is_here = t && t->mt.cpu == cpu;

	return op > 0 ? is_here : !is_here;
}

static void queued_drop(struct rq_check *k, struct rq_cpu *rc)
{
	rc->has_queued = false;
	k->nr_queued--;
}

/* A sched_queue_task (file comment). */
static AN_NOINLINE void observe_queue(struct an_replay *r, struct rq_check *k,
				      const struct an_event *ev)
{
	const struct an_ev_queue_task *q = &ev->queue;
	struct rq_cpu *rc;

	if (!an_replay_cpu(r, q->cpu) || (q->enqueue != 1 && q->enqueue != -1)) {
		k->res->stats[AN_CHECK_RQ_CLAMP].has_input = true;
		return;
	}
	rc = &k->cpu[q->cpu];
	if (rc->has_queued) {
		/* two operations ahead of the model: neither is judged */
		queued_drop(k, rc);
		k->res->stats[AN_CHECK_RQ_CLAMP].has_input = true;
		return;
	}
	if (is_op_done(r, q->cpu, q->pid, q->enqueue)) {
		observe(r, k, ev, q->cpu, q->rq_min, q->rq_max);
		return;
	}
	k->res->stats[AN_CHECK_RQ_CLAMP].has_input = true;
	rc->has_queued = true;
	k->nr_queued++;
	rc->queued_pid = q->pid;
	rc->queued_op = q->enqueue;
	rc->queued_obs[MODEL_UCLAMP_MIN] = (int)q->rq_min;
	rc->queued_obs[MODEL_UCLAMP_MAX] = (int)q->rq_max;
	queued_of(r, q->cpu, &rc->queued_nr, &rc->queued_sum);
}

/* After an event: the waiting sched_queue_task its operation came for. */
static AN_NOINLINE void resolve_queued(struct an_replay *r, struct rq_check *k,
				       const struct an_event *ev)
{
	for (unsigned int cpu = 0; cpu < k->nr_cpus && k->nr_queued; cpu++) {
		struct rq_cpu *rc = &k->cpu[cpu];
		unsigned int nr;
		long long sum;

		if (!rc->has_queued)
			continue;
		queued_of(r, (int)cpu, &nr, &sum);
		if (!is_op_done(r, (int)cpu, rc->queued_pid, rc->queued_op)) {
			if (nr != rc->queued_nr || sum != rc->queued_sum)
				queued_drop(k, rc);	/* another change came first */
			continue;
		}
		queued_drop(k, rc);
		if (nr != rc->queued_nr + (unsigned int)rc->queued_op ||
		    sum != rc->queued_sum + (long long)rc->queued_op * rc->queued_pid)
			continue;			/* not that operation alone */
		if (is_decidable(r, k, ev, (int)cpu))
			judge(r, k, (int)cpu, ev->ts_ns, rc->queued_obs, true);
	}
}

static bool is_group_write(const struct an_event *ev)
{
	return ev->type == AN_EV_UCLAMP_TG ||
	       (ev->type == AN_EV_PRINT && ev->print.marker.kind == AN_MARKER_CGROUP);
}

/* The CPU whose running task at the last group write is @pid, or -1. */
static int write_cpu(const struct rq_check *k, int pid)
{
	for (unsigned int cpu = 0; cpu < k->nr_cpus; cpu++)
		if (k->cpu[cpu].is_write_quiet && k->cpu[cpu].write_pid == pid)
			return (int)cpu;
	return -1;
}

/*
 * The CPU whose queued task @ev shows was still counted after a group write:
 * its scheduler events, a snapshot of its rq clamps, the task's effective
 * clamps. Schedutil's utilization and frequency events and idle events show
 * nothing: schedutil runs inside the very dequeue of a task going to sleep,
 * before its sched_switch. -1: none.
 */
static int counted_cpu(const struct rq_check *k, const struct an_event *ev)
{
	switch (ev->type) {
	case AN_EV_UCLAMP_UTIL_CFS:
		return ev->util_cfs.cpu;
	case AN_EV_UCLAMP_UTIL_SE:
		return ev->util_se.cpu;
	case AN_EV_SCHED_QUEUE_TASK:
		return ev->queue.cpu;
	case AN_EV_UCLAMP_TASK_EFF:
		return write_cpu(k, ev->task_eff.pid);
	case AN_EV_SCHED_TASK_UCLAMP:
		return ev->task_uclamp.active ? write_cpu(k, ev->task_uclamp.pid) : -1;
	case AN_EV_SCHED_PELT_CFS:
	case AN_EV_SCHED_UTIL:
	case AN_EV_SUGOV_UTIL_UPDATE:
	case AN_EV_CPU_FREQUENCY:
	case AN_EV_CPU_IDLE:
	case AN_EV_SCHED_PELT_SE:
	case AN_EV_SCHED_UTIL_EST_CFS:
	case AN_EV_SCHED_UTIL_EST_SE:
	case AN_EV_SCHED_CPU_CAPACITY:
		return -1;
	default:
		return ev->cpu;
	}
}

/* A group write begins (track_before()): each running task's rq MAX before it. */
static AN_NOINLINE void write_begins(struct an_replay *r, struct rq_check *k,
				     const struct an_event *ev)
{
	struct rq_cpu *rc;

	for (unsigned int c = 0; c < k->nr_cpus; c++) {
		struct an_task *t = an_replay_task(r, r->cpu[c].curr_pid);

		rc = &k->cpu[c];
		if ((int)c == ev->cpu || r->cpu[c].curr_pid <= 0 || !t)
			continue;
		if (rc->is_write_quiet && rc->write_pid == t->mt.pid)
			continue;	/* the value before the first write counts */
		rc->is_write_quiet = true;
		rc->write_pid = t->mt.pid;
		/* before the write: the model took it all at the walk's first
		 * uclamp_tg, the kernel reaches the task's group later */
		if (!an_walk_old_eff(&r->sys, &r->walk, &t->mt, MODEL_UCLAMP_MAX, false,
				     &rc->write_max))
			rc->write_max = model_task_eff(&r->sys, &t->mt, MODEL_UCLAMP_MAX, NULL);
	}
}

/* Before @ev is replayed: what the file comment's race needs to know. */
static void track_before(struct an_replay *r, struct rq_check *k, const struct an_event *ev)
{
	const struct an_ev_switch *sw = &ev->sw;
	struct rq_cpu *rc;
	int cpu;

	if (is_group_write(ev)) {
		write_begins(r, k, ev);
		return;
	}
	cpu = counted_cpu(k, ev);
	if (cpu < 0 || (unsigned int)cpu >= k->nr_cpus)
		return;
	rc = &k->cpu[cpu];
	if (!rc->is_write_quiet)
		return;
	rc->is_write_quiet = false;
	if (ev->type == AN_EV_SCHED_SWITCH && ev->cpu == cpu && sw->prev_pid == rc->write_pid &&
	    sw->next_pid == 0 && !an_event_state_is_runnable(sw->prev_state)) {
		rc->has_alt = true;
		rc->alt_max = rc->write_max;
	}
}

/* After @ev: the alternative lasts while the CPU stays idle. */
static void track_after(struct an_replay *r, struct rq_check *k)
{
	for (unsigned int cpu = 0; cpu < k->nr_cpus; cpu++)
		if (k->cpu[cpu].has_alt && !model_rq_is_idle(&r->sys, (int)cpu))
			k->cpu[cpu].has_alt = false;
}

/* Entry @i of @rc's tasks to be attached is attached (or gone). */
static void attach_drop(struct rq_cpu *rc, unsigned int i)
{
	rc->nr_remote -= rc->is_remote[i];
	rc->nr_attaching--;
	rc->attaching[i] = rc->attaching[rc->nr_attaching];
	rc->is_remote[i] = rc->is_remote[rc->nr_attaching];
}

/*
 * The destination's switch or rq sample ends its batch, but for tasks moved
 * by another CPU, which wait for their own event (file comment): a switch
 * from @prev_pid or to @next_pid (0 for both: a rq sample, no switch).
 */
static void attach_end(struct rq_cpu *rc, int prev_pid, int next_pid)
{
	for (unsigned int i = rc->nr_attaching; i-- > 0;)
		if (!rc->is_remote[i] || rc->attaching[i] == prev_pid ||
		    rc->attaching[i] == next_pid)
			attach_drop(rc, i);
	rc->is_attaching_full = false;
}

static void attach_add(struct rq_check *k, const struct an_replay *r, const struct an_event *ev)
{
	int cpu = ev->migrate.dest_cpu;
	const struct an_task *t = an_replay_task(r, ev->migrate.pid);
	struct rq_cpu *rc;

	if (cpu < 0 || (unsigned int)cpu >= k->nr_cpus || !t || t->mt.cpu < 0 ||
	    t->mt.cpu == cpu)
		return;		/* no queued task moves */
	/* moved on before it showed where it went */
	if ((unsigned int)t->mt.cpu < k->nr_cpus) {
		rc = &k->cpu[t->mt.cpu];
		for (unsigned int i = rc->nr_attaching; i-- > 0;)
			if (rc->attaching[i] == ev->migrate.pid)
				attach_drop(rc, i);
	}
	rc = &k->cpu[cpu];
	if (rc->nr_attaching == MAX_ATTACHING) {
		rc->is_attaching_full = true;
		return;
	}
	rc->is_remote[rc->nr_attaching] = k->has_util_se && ev->cpu != cpu;
	rc->nr_remote += rc->is_remote[rc->nr_attaching];
	rc->attaching[rc->nr_attaching++] = ev->migrate.pid;
}

/*
 * Before @ev: follow the tasks a balance moves (file comment). False when
 * @ev is a rq sample shown while tasks moved there are still to be
 * attached: not to be judged.
 */
static AN_NOINLINE bool attach_track(struct an_replay *r, struct rq_check *k,
				     const struct an_event *ev)
{
	struct rq_cpu *rc;
	int cpu;

	switch (ev->type) {
	case AN_EV_SCHED_MIGRATE_TASK:
		attach_add(k, r, ev);
		return true;
	case AN_EV_UCLAMP_UTIL_SE:
		k->has_util_se = true;
		cpu = ev->util_se.cpu;
		if (cpu < 0 || (unsigned int)cpu >= k->nr_cpus)
			return true;
		rc = &k->cpu[cpu];
		for (unsigned int i = 0; i < rc->nr_attaching; i++) {
			if (rc->attaching[i] != ev->util_se.pid)
				continue;
			attach_drop(rc, i);
			/* the last of the batch shows the rq complete */
			return !rc->nr_attaching && !rc->is_attaching_full;
		}
		return !rc->is_attaching_full && !rc->nr_remote;
	case AN_EV_SCHED_SWITCH:
		if (ev->cpu >= 0 && (unsigned int)ev->cpu < k->nr_cpus)
			attach_end(&k->cpu[ev->cpu], ev->sw.prev_pid, ev->sw.next_pid);
		return true;
	case AN_EV_UCLAMP_UTIL_CFS:
		cpu = ev->util_cfs.cpu;
		if (cpu < 0 || (unsigned int)cpu >= k->nr_cpus)
			return true;
		attach_end(&k->cpu[cpu], 0, 0);
		return !k->cpu[cpu].nr_remote;
	default:
		return true;
	}
}

/*
 * A sysctl write has just reached the model (MA8): as in task_effective, a
 * task woken before the write showed took the new default, and its CPU's rq
 * with it. A disagreement begun since the earliest such store
 * (an_replay_step.sysctl_from_ns), with the value the model now gives, is
 * none.
 */
static AN_NOINLINE void excuse_early(const struct an_replay *r, struct rq_check *k)
{
	for (unsigned int cpu = 0; cpu < k->nr_cpus; cpu++)
		for (int id = 0; id < MODEL_UCLAMP_CNT; id++)
			if (an_win_is_early(&k->cpu[cpu].fail[id], r->step.sysctl_from_ns,
					    r->cpu[cpu].rq_now[id]))
				an_win_discard(&k->cpu[cpu].fail[id]);
}

static AN_NOINLINE int setup(struct rq_check *k, const struct an_replay *r)
{
	k->cpu = an_calloc(r->nr_cpus, sizeof(*k->cpu));
	k->pending_cpus = an_calloc(r->nr_cpus, sizeof(*k->pending_cpus));
	if (!k->cpu || !k->pending_cpus)
		return -ENOMEM;
	k->nr_cpus = r->nr_cpus;
	return 0;
}

static int on_event(void *ctx, struct an_replay *r, const struct an_event *ev, bool after)
{
	struct rq_check *k = ctx;

	if (after) {
		if (k->cpu)
			track_after(r, k);
		if (k->cpu && r->step.is_sysctl_write)
			excuse_early(r, k);
		if (k->nr_queued)
			resolve_queued(r, k, ev);
		return 0;
	}
	if (!k->cpu && setup(k, r))
		return -ENOMEM;
	if (k->nr_pending_cpus)
		resolve_older(r, k, ev->ts_ns, false);
	track_before(r, k, ev);
	if (!attach_track(r, k, ev))
		return 0;
	if (ev->type == AN_EV_UCLAMP_UTIL_CFS)
		observe(r, k, ev, ev->util_cfs.cpu, ev->util_cfs.uclamp_min,
			ev->util_cfs.uclamp_max);
	else if (ev->type == AN_EV_UCLAMP_UTIL_SE)
		observe(r, k, ev, ev->util_se.cpu, ev->util_se.uclamp_min,
			ev->util_se.uclamp_max);
	else if (ev->type == AN_EV_SCHED_QUEUE_TASK)
		observe_queue(r, k, ev);
	return 0;
}

static void on_finish(void *ctx, struct an_replay *r, uint64_t end_ns)
{
	struct rq_check *k = ctx;

	if (!k->cpu)
		return;
	resolve_older(r, k, 0, true);
	for (unsigned int cpu = 0; cpu < k->nr_cpus; cpu++) {
		for (int id = 0; id < MODEL_UCLAMP_CNT; id++)
			an_win_close(k->res, &k->cpu[cpu].fail[id], end_ns);
		an_win_close(k->res, &k->cpu[cpu].doubt, end_ns);
	}
}

static void on_free(void *ctx)
{
	struct rq_check *k = ctx;

	for (unsigned int i = 0; k->cpu && i < k->nr_cpus; i++)
		for (int id = 0; id < MODEL_UCLAMP_CNT; id++)
			an_win_release(&k->cpu[i].fail[id]);
	free(k->cpu);
	free(k->pending_cpus);
	free(k);
}

/**
 * an_check_rq_clamp_attach() - attach check rq_clamp
 * @r: replay
 * @res: where its windows and counters go, borrowed for @r's life
 * @d: diagnostic on failure
 *
 * Compares uclamp_util_cfs/se (and sched_queue_task) rq clamps with the
 * model's aggregation
 * (uclamp-v3.md VR4-VR11, uclamp-mainline.md MR3-MR4, MR8); see the file
 * comment for the same-instant rule and the UNDECIDED cases.
 *
 * Return: 0 or -ENOMEM.
 */
int an_check_rq_clamp_attach(struct an_replay *r, struct an_results *res,
			     struct an_diag *d)
{
	struct rq_check *k = an_calloc(1, sizeof(*k));
	struct an_observer obs = {
		.name = "rq_clamp", .event = on_event, .finish = on_finish, .free = on_free,
		.ctx = k,
	};

	if (!k)
		return an_diag_fail(d, -ENOMEM, "out of memory");
	k->res = res;
	return an_replay_add_observer(r, &obs);
}
