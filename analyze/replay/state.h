/* SPDX-License-Identifier: MIT */
/*
 * analyze/replay/state.h - the replay's state, as observers read it, and the
 * primitives that change it (state.c).
 *
 * The replay keeps, per CPU, the set of runnable tasks the trace shows
 * (sched_switch, sched_wakeup(_new), sched_migrate_task, fork, exit), the
 * task and group clamp requests (markers, uclamp_request, uclamp_tg) and the
 * platform (OPPs, policies, capacities, limits), and the model (model/model.h)
 * all of it is fed to. sched.c and requests.c change it event by event
 * through the primitives at the end of this file; replay.c (replay.h) drives
 * them and calls the observers. Memory grows with tasks, groups and CPUs,
 * never with events.
 *
 * What a trace cannot show (events.md §4, uclamp-v3.md §9,
 * uclamp-mainline.md §8) is never assumed:
 *  - a CPU's runqueue is unknown until its first sched_switch; the prev task
 *    of that switch is taken as running since the trace start (or since the
 *    runqueues were forgotten, see below). an_cpu.is_known says so, and
 *    checks are UNDECIDED on a CPU that is not known.
 *  - a task first seen mid-trace is learnt as it appears: a task switched in
 *    that the model does not hold queued is queued there and then (it was
 *    runnable before the trace showed it); a task first seen by a wakeup is
 *    queued by that wakeup. Tasks queued before their CPU's first switch and
 *    never switched in stay unknown; this is the spec's simplification.
 *  - lost events make the replay forget every runqueue (all CPUs unknown
 *    again, every task dequeued in the model); requests are kept. Each CPU
 *    is learnt again at its next sched_switch, as at the trace start.
 *  - what a capture did not record (docs/analyze.md): an event type counts
 *    as recorded once one was seen (an_replay_is_unrecorded()). Without
 *    sched_migrate_task, a task shown on another CPU than the one it is
 *    queued (not running) on moved there unrecorded: the replay moves it,
 *    and both CPUs are undecidable up to then (an_cpu.unrecorded_until_ns).
 *    Without sched_wakeup a task is queued from its switch-in, or from its
 *    sched_waking when the capture has those (on its target CPU, which is
 *    undecidable until its next event: the enqueue follows the waking at
 *    an instant the trace does not show). Without
 *    sched_process_fork, a task that died and shows up again is a new one
 *    with its pid.
 */
#ifndef UCVAL_ANALYZE_REPLAY_STATE_H
#define UCVAL_ANALYZE_REPLAY_STATE_H

#include <stdbool.h>
#include <stdint.h>

#include "analyze/read/event.h"
#include "analyze/read/marker.h"
#include "analyze/read/platform.h"
#include "analyze/replay/tasks.h"
#include "analyze/replay/walk.h"
#include "model/model.h"
#include "model/schedutil.h"

/* CPUs the model holds when neither the trace, the platform nor the options
 * tell; a CPU id at or above the model's count stays unknown (never checked). */
#define AN_REPLAY_DEFAULT_CPUS	32
#define AN_REPLAY_MAX_CPUS	4096
/* Assumptions the summary lists ("irq/DL/RT util taken as 0"). */
#define AN_REPLAY_MAX_NOTES	16
#define AN_REPLAY_NOTE_LEN	256

/**
 * struct an_replay_opts - how to replay one trace (ucval analyze options)
 * @model: AN_MODEL_V3 or AN_MODEL_MAINLINE; AN_MODEL_UNKNOWN: the platform
 *	   marker's `model`, else the kernel release (< 5.3: v3, else mainline),
 *	   else mainline
 * @fidelity: v3 only: MODEL_INTENT (default, zero) or MODEL_SEED
 * @groups: v3 groups / mainline buckets; 0: platform marker, else the default
 * @kernel: release override ("4.19.0"), NULL: platform marker, platform file,
 *	    else @trace_kernel
 * @trace_kernel: release the reader found (trace.dat UNAME), NULL or ""
 * @nr_cpus: CPUs the reader declares, 0 when unknown
 * @grace_us: grace window of the frequency checks; 0: rate limit + tick
 *	      (events.md §4)
 * @early_us: how long before the trace event that shows its cause the
 *	      kernel may act (MODEL_SU_EARLY_NS); 0: that default
 * @checks: the checks to attach, for whoever attaches them (analyze.c:
 *	    AN_CHECK_BIT() of each, 0 means all); the replay does not read it
 * @platform_path: `--platform FILE` (format in platform.h), or NULL
 * @platform: a platform already parsed (tests), or NULL; wins over
 *	      @platform_path. Borrowed: only read during an_replay_new()
 * @ev_unlisted: event types (AN_EV_BIT()) the capture's own list of events
 *		 lacks (an_reader_info.ev_listed): not recorded, for certain;
 *		 0 when it has no list. The analysis sets it before the first
 *		 event (an_replay_is_unrecorded())
 * @tasks_tidy_min: full tasks above which the idle ones are packed before
 *		    an event (an_tasks_set_tidy_min()); 0: AN_TASKS_TIDY_MIN,
 *		    1: before every event (tests; the results are the same)
 * @is_fq_full: the frequency checks ask the model at every judgement, keeping
 *		no memo and no util band (freqstate.h; tests: the results are
 *		the same)
 */
struct an_replay_opts {
	enum an_model model;
	enum model_fidelity fidelity;
	unsigned int groups;
	const char *kernel;
	const char *trace_kernel;
	unsigned int nr_cpus;
	unsigned int grace_us;
	unsigned int early_us;
	uint32_t checks;
	const char *platform_path;
	const struct an_platform *platform;
	uint64_t ev_unlisted;
	size_t tasks_tidy_min;
	bool is_fq_full;
};

/* What last changed a CPU's rq clamp in the model (rule of a disagreement). */
enum an_rq_op {
	AN_RQ_OP_NONE,		/* never changed: boot value (VR7, MB4) */
	AN_RQ_OP_ENQUEUE,	/* a count (VR4, MR3) */
	AN_RQ_OP_DEQUEUE,	/* an uncount (VR5/VR6, MR4) */
	AN_RQ_OP_REQUEST,	/* a request of a queued task (VR9, MR6) */
	AN_RQ_OP_GROUP,		/* a task group write or move (VR10, MR5) */
	AN_RQ_OP_SYSCTL,	/* a system default write (VR12, MR7) */
};

/* Tasks one new-idle balance pull is followed for (more: the rest as seen). */
#define AN_CPU_MAX_PULLED	4

/**
 * struct an_cpu - what the replay knows about one CPU
 * @is_seen: some event named this CPU
 * @is_known: its runqueue is known: after its first sched_switch (events.md
 *	      §4), again false after lost events until its next switch
 * @known_since_ns: when it became known (the switch time)
 * @was_known: it has been known at some time
 * @curr_pid: task running, 0 for idle (swapper), -1 unknown
 * @curr_since_ns: when @curr_pid was switched in
 * @last_ts_ns: latest timestamp of an event in this CPU's stream
 * @undecided_until_ns: integrity: checks on this CPU are UNDECIDED for
 *			observations at or before this time (0: none)
 * @unrecorded_until_ns: likewise, because a task moved to or from this CPU
 *			 without an event: the capture did not record
 *			 sched_migrate_task, and the replay learnt the move
 *			 when the task showed up elsewhere; or a sched_waking
 *			 stood for the enqueue the capture did not record
 *			 (@is_waking_open) (0: none)
 * @is_waking_open: a sched_waking was taken as the enqueue of a task on
 *		    this CPU (a capture without sched_wakeup): the kernel
 *		    enqueued it at an instant up to this CPU's next event,
 *		    which moves @unrecorded_until_ns to itself
 * @freq_khz: observed frequency (cpu_frequency, or devlib's
 *	      "cpu_frequency_devlib: state=N cpu_id=M" marker that some traces
 *	      carry for the initial frequencies), 0 until the first one
 * @freq_since_ns: time of that event
 * @policy: index into an_replay.policy, -1 when the platform does not say
 * @capacity: arch capacity 1..1024 (1024 when unknown)
 * @has_capacity: @capacity came from the platform
 * @clamp_changed_ns: last time the model's rq clamp value (MIN or MAX, as
 *		      model_rq_value() reads it) of this CPU changed
 * @is_clamp_changed: set during the after-model call of the event that
 *		      changed it, cleared before the next event
 * @last_eval_ns: time of the last schedutil evaluation point of this CPU
 * @is_eval: this event is a schedutil evaluation point of this CPU (set
 *	     during the after-model call only)
 * @touch_seq: counts the events that may have changed what the frequency
 *	       checks read of this CPU, utilization and frequency aside: an
 *	       enqueue or dequeue there (an_replay_touch(), whatever the rq
 *	       clamps became), a switch there, a move of its integrity bounds,
 *	       a DL task queued there named anew (an_replay_rq_touched()).
 *	       Other changes come with events the frequency checks do not count
 *	       as local (an_fq_is_local()).
 * @rq_now: rq values (model_rq_value(), MIN, MAX) after the last event
 * @rq_before: rq values at the end of the last timestamp before
 *	       @group_ts_ns; see an_replay_rq_before()
 * @group_ts_ns: timestamp of the event that last changed the rq values
 * @last_op: what last changed them
 * @is_lost: the CPU is unknown because the runqueues were forgotten (lost
 *	     events, an unexpected switch), not because the trace just began:
 *	     doubts there may hide a failure
 * @is_leaver_known: the last counted task that left this CPU had known
 *		     clamps (its value is what an idle CPU retains, VR11/MR4)
 * @is_lost_doubt: known again after lost events, from the tasks its switch
 *		   showed, but the kernel may count them otherwise (order,
 *		   a bucket's largest value MB2, older values): not decidable
 *		   until a task is queued on its empty runqueue
 * @is_freq_lost: lost events may have hidden a cpu_frequency of this CPU's
 *		  policy: @freq_khz is 0 until the policy's next one
 * @pulled: pids that this CPU pulled to itself (sched_migrate_task on
 *	    the destination CPU) since its last switch: the new-idle balance
 *	    of a task going to sleep, see on_switch() in sched.c
 * @nr_pulled: entries in @pulled
 * @woken: pids woken onto this CPU by another CPU (sched_wakeup in another
 *	   CPU's stream) since its last switch: the waker may have taken this
 *	   rq's lock during the new-idle balance, see on_switch() in sched.c
 * @nr_woken: entries in @woken
 * @late: after a switch whose sleeper left nothing else queued: the tasks
 *	  now queued, all pulled or remotely woken since the previous switch,
 *	  that the kernel may have enqueued after the sleeper's dequeue
 *	  (late_order() in sched.c); cleared by the next enqueue or dequeue
 * @nr_late: entries in @late
 * @has_eval_events: the trace shows schedutil's evaluations of this CPU
 *		     (schedutil_util): the frequency checks need not assume
 *		     that a busy CPU is evaluated at each tick
 * @has_idle_events: the trace shows this CPU's cpu_idle events
 * @idle_seq: idle periods begun (switches to the idle task)
 * @is_idle_exited: the current idle period showed a cpu_idle exit
 * @idle_counted_seq: the last idle period in which the idle loop went round
 *		      again (a cpu_idle entry after an exit) two ticks or more
 *		      after the period began: a tick has fired in it, so NO_HZ
 *		      counted it for schedutil's busy hold (an_fq_stretch_update())
 * @has_util_est: @util_est holds the root runqueue's estimated utilization
 *		  (sched_util_est_cfs of path "/", signals.c)
 * @util_est: its util_est.enqueued (the 6.8+ util_est), which schedutil
 *	      takes when larger than util_avg (an_signals_util_cfs())
 * @util_rt: the RT utilization (rq->avg_rt) of its last schedutil_util, 0
 *	     before one: a util signal without an RT field keeps it
 *	     (an_fq_util_sample(); events.md: 0 until the trace shows it)
 */
struct an_cpu {
	bool is_seen;
	bool is_known;
	uint64_t known_since_ns;
	bool was_known;
	int curr_pid;
	uint64_t curr_since_ns;
	uint64_t last_ts_ns;
	uint64_t undecided_until_ns;
	uint64_t unrecorded_until_ns;
	bool is_waking_open;
	unsigned int freq_khz;
	uint64_t freq_since_ns;
	int policy;
	unsigned int capacity;
	bool has_capacity;
	uint64_t clamp_changed_ns;
	bool is_clamp_changed;
	uint64_t last_eval_ns;
	bool is_eval;
	uint64_t touch_seq;
	int rq_now[MODEL_UCLAMP_CNT];
	int rq_before[MODEL_UCLAMP_CNT];
	uint64_t group_ts_ns;
	enum an_rq_op last_op;
	bool is_lost;
	bool is_leaver_known;
	bool is_lost_doubt;
	bool is_freq_lost;
	int pulled[AN_CPU_MAX_PULLED];
	unsigned int nr_pulled;
	int woken[AN_CPU_MAX_PULLED];
	unsigned int nr_woken;
	int late[2 * AN_CPU_MAX_PULLED];
	unsigned int nr_late;
	bool has_eval_events;
	bool has_idle_events;
	unsigned int idle_seq;
	bool is_idle_exited;
	unsigned int idle_counted_seq;
	bool has_util_est;
	unsigned int util_est;
	unsigned int util_rt;
};

/**
 * struct an_freq_policy - one cpufreq policy (enum an_policy, marker.h, is a
 * scheduling policy)
 * @id: its id (the platform's policy number, the first CPU by convention)
 * @su: the schedutil model's policy: OPPs, cpuinfo max, limits (min_khz,
 *	max_khz, updated by cpu_frequency_limits), cur_khz (last observed
 *	cpu_frequency of any of its CPUs), capacity, rate limit, tick, CPUs
 *	(su.cpu[], su.nr_cpus). kver/variant follow the replay's model.
 * @has_opps: su.opp_khz holds the OPP table (else the frequency checks
 *	      cannot compute a floor or a ceiling)
 * @has_limits: su.min_khz/max_khz came from the trace or the platform
 * @has_rate_limit: su.rate_limit_us came from the trace or the platform
 *		    (else MODEL_SU_DEFAULT_RATE_LIMIT_US)
 */
struct an_freq_policy {
	int id;
	struct model_su_policy su;
	bool has_opps;
	bool has_limits;
	bool has_rate_limit;
	bool is_usable;		/* has OPPs, model_su_policy_check() accepts @su */
	uint64_t gen;		/* an_replay_policy_changed() calls, replay-wide */
};

/* an_fq_cpu_in() of one CPU, valid during observer call @phase only */
struct an_fq_in_memo {
	uint64_t phase;
	struct model_su_cpu_in in;
};

/*
 * What the three frequency checks each ask of a policy in one observer
 * call, asked once: an_fq_policy_evaluated(), _busy(), _observed() (valid
 * during observer call @phase only) and an_fq_policy_touched() (during
 * @touched_phase).
 */
struct an_fq_pol_memo {
	uint64_t phase;
	bool is_evaluated;
	bool is_busy;
	bool has_obs;
	unsigned int obs_khz;
	uint64_t touched_phase;
	bool is_touched;
};

/* Trace integrity problems the replay finds (events.md §4, trace_integrity). */
enum an_integrity {
	AN_INTEG_LOST,		/* "EV-LOST": the trace lost events */
	AN_INTEG_TIME,		/* "EV-TIME": timestamp before an earlier one of its CPU */
	AN_INTEG_SWITCH,	/* "EV-SWITCH": switch from a task not running there */
	AN_INTEG_ELSEWHERE,	/* "EV-TASK": a task shown on a CPU while queued on another */
	AN_INTEG_UNPLACED,	/* "EV-LOST": lost somewhere in the trace (an_ev_lost) */
	AN_INTEG_UNRECORDED,	/* "EV-TASK", no failure: a move sched_migrate_task
				 * would have shown, in a capture without them */
	AN_INTEG_BEYOND,	/* "EV-LOST", no failure: events of a CPU beyond
				 * the replay's count, which it cannot use */
};

/**
 * struct an_integrity_issue - one trace integrity problem
 * @kind: what
 * @cpu: CPU concerned
 * @pid: task concerned, -1 when none
 * @start_ns: first instant the replay's state may be wrong (UNRECORDED:
 *	      the task's last event on its former CPU)
 * @end_ns: last one (the event that revealed it)
 * @expected: what the replay expected (LOST: 0; TIME: the CPU's latest
 *	      timestamp; SWITCH: the running pid; ELSEWHERE, UNRECORDED: the
 *	      model's CPU)
 * @observed: what the trace showed (LOST: the count, 0 unknown; TIME: the
 *	      timestamp; SWITCH: prev_pid; ELSEWHERE, UNRECORDED: the event's
 *	      CPU)
 */
struct an_integrity_issue {
	enum an_integrity kind;
	int cpu;
	int pid;
	uint64_t start_ns;
	uint64_t end_ns;
	long long expected;
	long long observed;
};

#define AN_REPLAY_MAX_ISSUES	4

/**
 * struct an_replay_req - a request with a kernel result (setattr marker,
 * uclamp_request)
 * @pid: target task
 * @flags: sched_flags given to the model (the variant's bits)
 * @util_min: value given (abi units), meaningful with the MIN flag
 * @util_max: likewise with the MAX flag
 * @has_ret: the trace gave the kernel's return
 * @ret: the kernel's return (0, a positive v3 slot index VA4b, -errno)
 * @is_applied: the model was given the request (false when the kernel's
 *		error is one the model cannot decide: EPERM, ESRCH, ...)
 * @model_ret: model_setattr()'s return, when @is_applied
 */
struct an_replay_req {
	int pid;
	unsigned long long flags;
	unsigned int util_min;
	unsigned int util_max;
	bool has_ret;
	int ret;
	bool is_applied;
	int model_ret;
};

/**
 * struct an_replay_step - what the current event did (after-model call)
 * @ts_ns: its time
 * @nr_eval: schedutil evaluation points it is (0..2): sched_switch (its
 *	     CPU), sched_wakeup/_new (target_cpu), sched_migrate_task (orig and
 *	     dest), uclamp_util_cfs/se, sched_pelt_cfs, schedutil_util,
 *	     sugov_util_update (their cpu). Each CPU listed also has is_eval.
 * @eval_cpu: those CPUs
 * @nr_clamp_changed: CPUs whose rq clamp value changed with this event
 *		      (each has is_clamp_changed set)
 * @is_limits_changed: cpu_frequency_limits or a cpu marker changed a policy
 * @limits_policy: its policy index, -1 when none
 * @nr_issues: integrity problems this event revealed (also known in the
 *	       before-model call)
 * @issues: them
 * @is_reset: the runqueues were forgotten before this event was applied
 * @has_req: this event was a request with a result, see @req
 * @req: it
 * @is_learnt: this event taught the replay a task's request
 *	       (uclamp_task_eff value differing from the model's)
 * @learn_ret: model_setattr()'s return for that lesson
 * @fork_req_model: when a forked child's first uclamp_task_eff contradicted
 *		    the request the model derived at the fork (MA7), the
 *		    model's request value it replaced; -1 otherwise
 * @fork_req_id: the clamp id of that request
 * @fork_req_kernel: the kernel's request value the event showed
 * @applied_cpu: the CPU of a queued task whose effective clamp this
 *		 uclamp_task_eff shows changed: the kernel applies a clamp
 *		 change to that runqueue now (a group write reaches the task's
 *		 group, a setattr), whenever the model took it; -1 none
 * @is_sysctl_write: this event gave the model a sysctl write that changed a
 *		     system default (a sysctl marker, or the root group's
 *		     uclamp_tg): the kernel stores the default before it walks
 *		     the groups, and wakeups in between already take it (MA8)
 * @is_sysctl_event: this event showed a sysctl write (a sysctl marker, the
 *		     root group's uclamp_tg), whether it changed a default or not
 * @sysctl_from_ns: with @is_sysctl_write, the earliest time the kernel may
 *		    have stored it: r->early_ns (--early-us) before this event,
 *		    not before the writer's task was switched in, and not
 *		    before the previous write showed whole
 * @is_key_changed: the model's static key (model_sys.is_uclamp_used, MR2)
 *		    changed at this event
 * @is_sleeper_out: set only during the observer calls of
 *		    an_replay_sleeper_out(): the state inside this
 *		    sched_switch, its sleeper dequeued and the tasks pulled in
 *		    since not yet back
 *
 * Each event starts from a cleared step, @issues and @req aside (they come
 * last): they are read only up to @nr_issues and with @has_req, and are
 * written whole before (most of the step's bytes, not cleared per event).
 */
struct an_replay_step {
	uint64_t ts_ns;
	unsigned int nr_eval;
	int eval_cpu[2];
	unsigned int nr_clamp_changed;
	bool is_limits_changed;
	int limits_policy;
	unsigned int nr_issues;
	bool is_reset;
	bool has_req;
	bool is_learnt;
	int learn_ret;
	int fork_req_model;
	int fork_req_id;
	unsigned int fork_req_kernel;
	int applied_cpu;
	bool is_sysctl_write;
	bool is_sysctl_event;
	uint64_t sysctl_from_ns;
	bool is_key_changed;
	bool is_sleeper_out;
	/* not cleared per event: see above */
	struct an_integrity_issue issues[AN_REPLAY_MAX_ISSUES];
	struct an_replay_req req;
};

struct an_observer;	/* the observers (replay.h, replay.c) */
struct an_replay;

/*
 * An observer's @event and @ctx, in the list of one phase (replay.c
 * builds the lists, an_replay_sleeper_out() walks the third).
 */
struct an_obs_call {
	int (*event)(void *ctx, struct an_replay *r, const struct an_event *ev,
		     bool after_model);
	void *ctx;
	unsigned int only;		/* an_observer.only (before: AN_OBS_ONLY_POLICY) */
	uint64_t types;			/* AN_OBS_ONLY_*: AN_EV_BIT() of the types */
};
struct an_tasks;	/* pid -> struct an_task (tasks.c) */
struct an_tgroups;	/* cgroup path -> struct model_tg (tgroups.c) */

/**
 * struct an_replay - the replay's state, readable by observers
 * @opts: the options (copied; borrowed pointers are not kept)
 * @is_started: the model is initialised (at the first event that is not a
 *		platform/cpu marker and not AN_EV_UNKNOWN); observers run
 *		only from then on
 * @variant: the model variant chosen (valid once started)
 * @model_source: why: "option", "platform marker", "kernel release",
 *		  "default"
 * @kver: release used (MODEL_KVER), for model and schedutil features
 * @plat: platform as known (file + markers so far)
 * @sys: the model; rq clamp values are model_rq_value(&r->sys, cpu, id)
 * @mcpu: the model's CPUs, @nr_cpus entries
 * @cpu: the replay's CPUs, @nr_cpus entries
 * @nr_cpus: CPUs in the model
 * @policy: cpufreq policies, @nr_policies entries; the array never moves
 *	     (@nr_cpus slots) but a cpu marker rebuilds its entries
 * @nr_policies: policies known
 * @grace_ns: the --grace-us option in ns, 0 when not given: then the
 *	      grace is per policy, use an_replay_grace_ns()
 * @early_ns: the --early-us option in ns, MODEL_SU_EARLY_NS when not given
 * @sysctl_done_ns: when the last sysctl write showed whole (its marker, or
 *		    the root group's uclamp_tg of UCLAMP_MAX, the last of its
 *		    pair), whether it changed a default or not
 * @policy_gen: the last an_freq_policy.gen given
 * @step: what the current event did (valid in after-model calls)
 * @ev: the event being replayed, NULL outside an_replay_event()
 * @now_ns: time of the latest event (monotonic: max over events)
 * @end_ns: set by an_replay_finish()
 * @is_finished: an_replay_finish() was called
 * @nr_tasks_seen: distinct tasks (pid incarnations) seen so far
 * @nr_tasks_live: tasks in the table now, full and packed (tasks.h)
 * @nr_switches: sched_switch events replayed
 * @nr_known_cpus: CPUs whose runqueue became known at least once
 * @nr_lost_reports: LOST_EVENTS events; @nr_lost_events their counts
 * @nr_resets: times the runqueues were forgotten (lost events)
 * @nr_learnt: tasks queued because they were switched in unannounced
 * @phase: counts the observer calls (before and after each event, finish):
 *	   the replay's state cannot change within one
 * @fq_in: per CPU, an_fq_cpu_in()'s result and the @phase it was made in
 * @fq_pol: per policy, the same for the policy-wide questions
 * @nr_cpu_overflow: events naming a CPU beyond @nr_cpus (ignored)
 * @has_beyond: the first of them was reported (AN_INTEG_BEYOND)
 * @nr_requests: requests applied to the model (markers, uclamp_request, tg)
 * @ev_seen: event types (AN_EV_BIT()) the replay was given at least one of
 *	     so far, before its start included
 * @nr_unrecorded: task moves between CPUs the trace showed without a
 *		   sched_migrate_task while it recorded none (AN_INTEG_UNRECORDED)
 * @notes: assumptions made, for the summary ("irq/DL/RT util taken as 0")
 * @nr_notes: how many
 */
struct an_replay {
	struct an_replay_opts opts;
	bool is_started;
	enum model_variant variant;
	const char *model_source;
	unsigned int kver;
	struct an_platform plat;
	struct model_sys sys;
	struct model_cpu *mcpu;
	struct an_cpu *cpu;
	unsigned int nr_cpus;
	struct an_freq_policy *policy;
	unsigned int nr_policies;
	uint64_t grace_ns;
	uint64_t early_ns;
	uint64_t sysctl_done_ns;
	uint64_t policy_gen;
	struct an_replay_step step;
	const struct an_event *ev;
	uint64_t now_ns;
	uint64_t end_ns;
	bool is_finished;
	uint64_t nr_tasks_seen;
	uint64_t nr_tasks_live;
	uint64_t nr_switches;
	unsigned int nr_known_cpus;
	uint64_t nr_lost_reports;
	uint64_t nr_lost_events;
	uint64_t nr_resets;
	uint64_t nr_learnt;
	uint64_t phase;
	struct an_fq_in_memo *fq_in;
	struct an_fq_pol_memo *fq_pol;
	uint64_t nr_cpu_overflow;
	bool has_beyond;
	uint64_t nr_requests;
	uint64_t ev_seen;
	uint64_t nr_unrecorded;
	char notes[AN_REPLAY_MAX_NOTES][AN_REPLAY_NOTE_LEN];
	unsigned int nr_notes;

	/* private */
	struct an_tasks *tasks;
	struct an_tgroups *tgroups;
	struct an_walk walk;
	struct an_observer *obs;
	size_t nr_obs, alloc_obs;
	const int *shared_err;		/* an_replay_new() */
	/* by phase: before, after the model, AN_OBS_ALSO_SLEEPER_OUT */
	struct an_obs_call *calls[3];
	size_t nr_calls[3], alloc_calls[3];
	int *dirty;			/* CPUs with step flags (is_eval, is_clamp_changed) */
	unsigned int nr_dirty;
	char kernel_opt[AN_MARKER_STR_LEN];
	char kernel_trace[AN_MARKER_STR_LEN];
	unsigned int max_cpu_seen;	/* highest CPU id + 1 before the start */
	struct an_event *unplaced;	/* unplaced LOST_EVENTS given before the start */
	size_t nr_unplaced, alloc_unplaced;
};

/**
 * an_replay_task() - the task with @pid
 * @r: replay
 * @pid: pid (0 is the idle task: never a task)
 *
 * Return: the live task, or NULL (also when unpacking it ran out of
 * memory: the replay then fails with -ENOMEM after the event, tasks.h).
 * Borrowed: valid until the task is freed (sched_process_free, a fork
 * reusing its pid) or the next event begins (an idle task may be packed
 * then) - do not keep it across events, look it up again.
 */
struct an_task *an_replay_task(const struct an_replay *r, int pid);

/**
 * an_replay_cpu() - the replay's CPU @cpu
 * @r: replay
 * @cpu: CPU id
 *
 * Return: the CPU, or NULL outside the model (negative or >= nr_cpus).
 * Inline: the checks look CPUs up several times per event.
 */
static inline struct an_cpu *an_replay_cpu(const struct an_replay *r, int cpu)
{
	if (!r->is_started || cpu < 0 || (unsigned int)cpu >= r->nr_cpus)
		return NULL;
	return &r->cpu[cpu];
}

/**
 * an_replay_cpu_policy() - the cpufreq policy of @cpu
 * @r: replay
 * @cpu: CPU id
 *
 * Return: the policy, or NULL when the platform does not say.
 */
struct an_freq_policy *an_replay_cpu_policy(const struct an_replay *r, int cpu);

/**
 * an_replay_is_decidable() - whether checks may judge @cpu at @ts_ns
 * @r: replay
 * @cpu: CPU id
 * @ts_ns: time of the observation
 *
 * True when the model is started, @cpu is in the model, its runqueue is
 * known and @ts_ns is past its integrity windows (undecided_until_ns,
 * unrecorded_until_ns).
 *
 * Return: true or false.
 */
static inline bool an_replay_is_decidable(const struct an_replay *r, int cpu, uint64_t ts_ns)
{
	const struct an_cpu *c = an_replay_cpu(r, cpu);

	return c && c->is_known && !c->is_lost_doubt && ts_ns > c->undecided_until_ns &&
	       ts_ns > c->unrecorded_until_ns && !r->sys.is_undefined;
}

/*
 * Event types that change what the frequency checks read only on the CPUs
 * whose an_cpu.touch_seq they move or that they evaluate (an_cpu.is_eval),
 * and, for cpu_frequency, the frequency of its CPU; any other event may
 * change any CPU (requests, groups, limits, markers, exits, lost events).
 */
static inline bool an_replay_is_local_type(enum an_event_type type)
{
	switch (type) {
	case AN_EV_UNKNOWN:
	case AN_EV_SCHED_WAKING:
	case AN_EV_SCHED_SWITCH:
	case AN_EV_SCHED_WAKEUP:
	case AN_EV_SCHED_WAKEUP_NEW:
	case AN_EV_SCHED_MIGRATE_TASK:
	case AN_EV_CPU_IDLE:
	case AN_EV_CPU_FREQUENCY:
	case AN_EV_UCLAMP_UTIL_CFS:
	case AN_EV_UCLAMP_UTIL_SE:
	case AN_EV_SCHED_PELT_CFS:
	case AN_EV_SCHED_UTIL:
	case AN_EV_SUGOV_UTIL_UPDATE:
	case AN_EV_SCHED_PELT_SE:
	case AN_EV_SCHED_UTIL_EST_CFS:
	case AN_EV_SCHED_UTIL_EST_SE:
	case AN_EV_SCHED_QUEUE_TASK:
	case AN_EV_SCHED_CPU_CAPACITY:	/* a capacity it fills is a limits change */
		return true;
	default:
		return false;
	}
}

/**
 * an_replay_is_local() - whether the current event (after the model) left
 * every CPU's rq clamps, RT/DL presence, current task and decidability, and
 * the model's static key, as they were, except on the CPUs whose
 * an_cpu.touch_seq it moved
 * @r: replay
 * @ev: the event
 *
 * Return: true or false.
 */
static inline bool an_replay_is_local(const struct an_replay *r, const struct an_event *ev)
{
	/* uclamp_task_eff changes a task's request (an_replay_touch_all()) or the key */
	bool is_type = an_replay_is_local_type(ev->type) ||
		       (ev->type == AN_EV_UCLAMP_TASK_EFF && !r->step.is_key_changed);

	return is_type && !r->step.nr_issues && !r->step.is_reset &&
	       !r->step.is_limits_changed && !r->sys.is_undefined;
}

/**
 * an_replay_is_unrecorded() - whether the capture records no event of
 * @type, as far as the replay can tell now
 * @r: replay
 * @type: canonical event type
 * @is_certain: set when that is certain: the capture's own list of events
 *		lacks @type (an_replay_opts.ev_unlisted); else an event of
 *		@type may still come later in the trace. May be NULL.
 *
 * An event type counts as recorded once one event of it was seen: ftrace
 * text has no list of the events that were enabled.
 *
 * Return: true when no event of @type has been seen so far.
 */
static inline bool an_replay_is_unrecorded(const struct an_replay *r, enum an_event_type type,
					   bool *is_certain)
{
	bool is_none = !(r->ev_seen & AN_EV_BIT(type));

	if (is_certain)
		*is_certain = is_none && (r->opts.ev_unlisted & AN_EV_BIT(type));
	return is_none;
}

/**
 * an_replay_rq_before() - rq clamp value of @cpu just before instant @ts_ns
 * @r: replay
 * @cpu: CPU id in the model
 * @id: MODEL_UCLAMP_MIN or MODEL_UCLAMP_MAX
 * @ts_ns: an instant not older than the last event that changed the CPU
 *
 * The value model_rq_value() had after the last event with a timestamp
 * strictly before @ts_ns: checks use it to accept an observation written
 * before the events of the same instant that it reflects (rq_clamp).
 *
 * Return: the value (model_rq_value() units, MODEL_NV included).
 */
int an_replay_rq_before(const struct an_replay *r, int cpu, enum model_clamp_id id,
			uint64_t ts_ns);

/**
 * an_replay_grace_ns() - grace window of @policy (events.md §4)
 * @r: replay
 * @policy: policy, or NULL (defaults)
 *
 * The option's grace if set, else the policy's rate limit (1000 us when
 * unknown) plus the scheduler tick (tick_us; 4000 us when unknown).
 *
 * Return: nanoseconds.
 */
uint64_t an_replay_grace_ns(const struct an_replay *r, const struct an_freq_policy *policy);

/**
 * an_replay_tick_ns() - the scheduler tick of the traced kernel (platform
 * tick_us, else MODEL_SU_DEFAULT_TICK_US)
 * @r: replay
 */
uint64_t an_replay_tick_ns(const struct an_replay *r);

/**
 * an_replay_note() - record an assumption for the summary, once
 * @r: replay
 * @fmt: printf format, lower case, no full stop
 *
 * Identical notes are kept once; beyond AN_REPLAY_MAX_NOTES they are dropped.
 */
void an_replay_note(struct an_replay *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* ---- primitives: what sched.c, requests.c and replay.c change it with ---- */

/**
 * an_replay_policy_changed() - a policy's description changed: validate it
 * again (its OPPs, limits, capacity, CPUs; not its current frequency)
 * @r: replay
 * @p: the policy
 *
 * Checks read p->is_usable at every event instead of validating each time,
 * and may keep what they computed from @p while p->gen stays (a new value
 * for every change of any policy of @r, also across a rebuild).
 */
void an_replay_policy_changed(struct an_replay *r, struct an_freq_policy *p);

/**
 * an_replay_sync_policies() - rebuild the cpufreq policies from r->plat
 * @r: replay (started)
 *
 * Keeps what the trace taught: limits are stored back into r->plat by
 * cpu_frequency_limits, observed frequencies stay in the CPUs.
 */
void an_replay_sync_policies(struct an_replay *r);

/**
 * an_replay_step_clear() - start the step of a new event: clear what the
 * previous one did (an_replay_step, the CPUs' is_eval and is_clamp_changed)
 * @r: replay (started)
 */
void an_replay_step_clear(struct an_replay *r);

/**
 * an_replay_rq_touched() - note that the current event may have changed what
 * the frequency checks read of @cpu (an_cpu.touch_seq)
 * @r: replay (started)
 * @cpu: CPU id in the model
 */
void an_replay_rq_touched(struct an_replay *r, int cpu);

/**
 * an_replay_touch() - note that the model's rq clamps of @cpu may have
 * changed by @op at the current event's time
 * @r: replay
 * @cpu: CPU id in the model
 * @op: what changed them
 *
 * Updates rq_now, rq_before/group_ts_ns, last_op, clamp_changed_ns and the
 * step's is_clamp_changed flags when a value differs.
 */
void an_replay_touch(struct an_replay *r, int cpu, enum an_rq_op op);

/**
 * an_replay_touch_all() - an_replay_touch() for every CPU
 * @r: replay
 * @op: what changed them
 */
void an_replay_touch_all(struct an_replay *r, enum an_rq_op op);

/**
 * an_replay_eval() - mark a schedutil evaluation point of @cpu at the
 * current event (an_cpu.is_eval, last_eval_ns, an_replay_step.eval_cpu)
 * @r: replay
 * @cpu: CPU id; ignored outside the model
 */
void an_replay_eval(struct an_replay *r, int cpu);

/* The error the observers share (an_replay_new()), 0 when none. */
static inline int an_replay_observers_err(const struct an_replay *r)
{
	return r->shared_err ? *r->shared_err : 0;
}

/**
 * an_replay_sleeper_out() - inside the current sched_switch, once its
 * sleeper is dequeued and before the tasks its CPU pulled since the last
 * switch are enqueued again: call the AN_OBS_ALSO_SLEEPER_OUT observers
 * (after the model, an_replay_step.is_sleeper_out set)
 * @r: replay
 *
 * The kernel dequeues a task going to sleep at the start of __schedule(),
 * evaluates schedutil there, and may then pull tasks in with the new-idle
 * balance; the trace shows those pulls before the switch. A frequency the
 * kernel chose from that empty rq is judged against this state.
 *
 * Return: 0, or the first observer's error.
 */
int an_replay_sleeper_out(struct an_replay *r);

/**
 * an_replay_task_new() - a new task @pid, first seen at the current event
 * @r: replay (started)
 * @pid: pid (> 0), not in the table
 *
 * The caller initialises its model task (model_task_init/fork).
 *
 * Return: the task, owned by the replay's table, or NULL with errno ENOMEM.
 */
struct an_task *an_replay_task_new(struct an_replay *r, int pid);

/**
 * an_replay_task_get() - the task @pid, created when unknown
 * @r: replay
 * @pid: pid (> 0)
 * @comm: comm from the event, "" or NULL when none
 * @prio: prio from the event, AN_PRIO_NONE when none; a class change is
 *	  applied to the model (model_task_set_class)
 *
 * Return: the task (borrowed, see an_replay_task()), or NULL with errno ENOMEM.
 */
struct an_task *an_replay_task_get(struct an_replay *r, int pid, const char *comm, int prio);

#endif /* UCVAL_ANALYZE_REPLAY_STATE_H */
