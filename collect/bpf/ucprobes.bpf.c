// SPDX-License-Identifier: MIT
/*
 * collect/bpf/ucprobes.bpf.c - BPF probes that read the uclamp and PELT
 * values of an unpatched kernel (CONFIG_DEBUG_INFO_BTF, CONFIG_BPF_SYSCALL,
 * CONFIG_UCLAMP_TASK) and emit the canonical events of spec/events.md into a
 * ring buffer (collect/probeev.h); collect/probes.c writes them to the
 * trace.dat. Built with clang -target bpf, relocated by libbpf (CO-RE): the
 * kernel types below hold only the fields read, and a field the running
 * kernel lacks is tested with bpf_core_field_exists().
 *
 * Instants, against the instrumentation patch
 * (tests/kernel/patches/0002-sched-uclamp-trace-events.patch):
 * - uclamp_util_se at sched_wakeup and sched_wakeup_new: the patch emits it
 *   right after those tracepoints under the same rq lock, so the values are
 *   the same; and after an enqueue no scheduler event reports (ENQUEUE_RESTORE,
 *   the destination of a migration): at the exit of enqueue_task_fair/_rt,
 *   which run after uclamp_rq_inc() in enqueue_task(), under the rq lock.
 * - uclamp_util_cfs at sched_switch (the patch: right after it) and at
 *   sched_migrate_task of a queued task (the patch: right after it; the
 *   task is already dequeued from its old rq).
 * - uclamp_task_eff at the entry of enqueue_task_fair/_rt, for both clamps
 *   whose p->uclamp[].active is set: enqueue_task() has just run
 *   uclamp_rq_inc(), whose uclamp_rq_inc_id() computed them, the value and
 *   the instant the patch traces. At the entry, not the exit: the class's
 *   enqueue updates PELT, and with it schedutil evaluates the frequency
 *   with the new rq clamps; the effective values must come before that.
 *   Re-accounting without an enqueue (a cgroup clamp write) gives no
 *   uclamp_task_eff.
 * - A cgroup clamp write (cpu_util_update_eff(), under uclamp_mutex): the
 *   written group's uclamp_tg at its start (emit_tg()); like the patch, no
 *   rq event while it walks the subtree, and no uclamp_task_eff either (an
 *   enqueue meanwhile may see a group's old or new values); at its end
 *   uclamp_util_cfs of each of the first TG_RQS CPUs whose rq is known
 *   (the others show theirs at their next sched_switch), but of a CPU
 *   whose running task is being dequeued to sleep (the patch reads each rq
 *   under its lock, which __schedule() holds from that dequeue to the
 *   switch), nor of one with a wakeup under way, nor one read while a
 *   wakeup began or ended there (map wake: the patch's read waits for the
 *   rq lock). The patch traces each changed group as the walk reaches it;
 *   the probes cannot (uclamp_update_active_tasks() refuses fentry on 6.1:
 *   -EBUSY), and the model derives the descendants' effective values from
 *   the written one.
 * - No rq event between a sleeping prev's dequeue and its sched_switch (the
 *   patch's uclamp_trace_hold()): dequeue_task_fair/_rt of the current task
 *   with DEQUEUE_SLEEP holds the CPU until its next sched_switch.
 * - sched_pelt_cfs, sched_util_est_cfs/_se, sched_cpu_capacity at the bare
 *   tracepoints pelt_cfs_tp, sched_util_est_cfs_tp/_se_tp and
 *   sched_cpu_capacity_tp, where LISA's sched_tp module emits them (root
 *   cfs_rq only).
 * - schedutil_util at the exit of sugov_get_util(), where patch 0003 emits
 *   it (tests/kernel/patches/0003-sched-schedutil-util-trace.patch): every
 *   evaluation that passed the rate limit, with util_rt (rq->avg_rt) and
 *   the util schedutil took (sg_cpu->util); util_cfs is cpu_util_cfs() as
 *   6.1 computes it (util_avg, or util_est when larger, up to capacity).
 * Timestamps are bpf_ktime_get_ns(): CLOCK_MONOTONIC, the "mono" trace clock.
 */
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_tracing.h>

#include "collect/probeev.h"

#define UCLAMP_MIN		0
#define UCLAMP_MAX		1
#define ENQUEUE_RESTORE		0x02
#define DEQUEUE_SLEEP		0x01
#define TASK_ON_RQ_MIGRATING	2

/* ---- the kernel types read (names as in the kernel: CO-RE matches them) ---- */

struct uclamp_se {
	unsigned int value : 11;
	unsigned int bucket_id : 5;
	unsigned int active : 1;
	unsigned int user_defined : 1;
} __attribute__((preserve_access_index));

struct uclamp_rq {
	unsigned int value;
} __attribute__((preserve_access_index));

struct util_est {
	unsigned int enqueued;
	unsigned int ewma;
} __attribute__((preserve_access_index));

struct sched_avg {
	unsigned long util_avg;
	struct util_est util_est;
} __attribute__((preserve_access_index));

/* 6.8 and later: util_est is one unsigned int */
struct sched_avg___one {
	unsigned int util_est;
} __attribute__((preserve_access_index));

struct rq;

struct cfs_rq {
	struct sched_avg avg;
	struct rq *rq;
} __attribute__((preserve_access_index));

struct task_struct;

struct rq {
	int cpu;
	struct cfs_rq cfs;
	struct sched_avg avg_rt;
	struct uclamp_rq uclamp[2];
	unsigned long cpu_capacity;
	struct task_struct *curr;
} __attribute__((preserve_access_index));

struct sched_entity {
	struct sched_avg avg;
	struct cfs_rq *cfs_rq;
	struct cfs_rq *my_q;
} __attribute__((preserve_access_index));

struct thread_info {
	unsigned int cpu;
} __attribute__((preserve_access_index));

struct task_struct {
	struct thread_info thread_info;
	int on_rq;
	int pid;
	char comm[16];
	struct sched_entity se;
	struct uclamp_se uclamp_req[2];
	struct uclamp_se uclamp[2];
} __attribute__((preserve_access_index));

struct sugov_cpu {
	unsigned int cpu;
	__u64 last_update;
	unsigned long util;
	unsigned long max;
} __attribute__((preserve_access_index));

struct kernfs_node {
	struct kernfs_node *parent;
	const char *name;
} __attribute__((preserve_access_index));

struct cgroup {
	struct kernfs_node *kn;
} __attribute__((preserve_access_index));

struct cgroup_subsys_state {
	struct cgroup *cgroup;
} __attribute__((preserve_access_index));

struct task_group {
	struct cgroup_subsys_state css;
	struct task_group *parent;
	struct uclamp_se uclamp_req[2];
	struct uclamp_se uclamp[2];
} __attribute__((preserve_access_index));

/* before 5.16 on some architectures: the CPU in task_struct */
struct task_struct___cpu {
	unsigned int cpu;
} __attribute__((preserve_access_index));

/* ---- maps ---- */

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 20);	/* set by the loader from the trace buffer size */
} events SEC(".maps");

/* per CPU: records lost since its last one (struct col_probe_rec.lost) */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} lost SEC(".maps");

/* CPUs whose rq uclamp_util_cfs shows after a cgroup clamp write */
#define TG_RQS		16

/* by CPU: 1 between a sleeping prev's dequeue and its sched_switch */
#define MAX_CPUS	4096
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, MAX_CPUS);
	__type(key, __u32);
	__type(value, __u32);
} held SEC(".maps");

/*
 * by CPU: @pending is 1 from a wakeup's sched_waking (on the CPU the task
 * last ran on, then on the one sched_migrate_task gives) or a new task's
 * class enqueue, to the sched_wakeup(_new) that shows the enqueue, or to
 * the CPU's next switch; @gen counts every set and clear. The read of
 * every rq at a group write's end (ucp_tg_walk_end()) cannot take their
 * locks: it leaves out an rq pending before or after it, or whose @gen
 * moved meanwhile (its clamps may count a task the trace shows later, or
 * its record's time may fall on the wrong side of that task's events).
 */
struct wake_mark {
	__u32 pending;
	__u32 pad;
	__u64 gen;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, MAX_CPUS);
	__type(key, __u32);
	__type(value, struct wake_mark);
} wake SEC(".maps");

/*
 * by CPU: its rq, learnt where the kernel hands one over (enqueue, dequeue,
 * PELT, capacity): cpu_rq() needs the per-CPU symbol runqueues, which
 * kernels without CONFIG_KALLSYMS_ALL do not give BPF
 */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, MAX_CPUS);
	__type(key, __u32);
	__type(value, __u64);
} rqs SEC(".maps");

/* [0]: 1 when the fexit programs run (set by the loader) */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} cfg SEC(".maps");

/*
 * A cgroup clamp write in progress (cpu_util_update_eff() runs under
 * uclamp_mutex: one at a time): [WALK_ON] 1 while it walks
 */
#define WALK_ON		0
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} walk SEC(".maps");

/* per CPU: where a cgroup path is put together (twice the room it may take) */
#define PATH_SCRATCH	128
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, char[PATH_SCRATCH]);
} scratch SEC(".maps");

/*
 * Whether the kernel has uclamp: a CO-RE constant, not global data (libbpf
 * creates no .rodata map on a kernel without CONFIG_NET, where its probe
 * for global data support, a socket filter, cannot load).
 */
#define has_uclamp	bpf_core_field_exists(((struct rq *)0)->uclamp)

char LICENSE[] SEC("license") = "GPL";

/* ---- helpers ---- */

static __always_inline struct col_probe_rec *reserve(__u32 type)
{
	__u32 zero = 0;
	__u64 *nr_lost = bpf_map_lookup_elem(&lost, &zero);
	struct col_probe_rec *r = bpf_ringbuf_reserve(&events, sizeof(*r), 0);

	if (!r) {
		if (nr_lost)
			__sync_fetch_and_add(nr_lost, 1);
		return NULL;
	}
	__builtin_memset(r, 0, sizeof(*r));
	r->ts = bpf_ktime_get_ns();
	r->cpu = bpf_get_smp_processor_id();
	r->type = type;
	r->pid = (__s32)(bpf_get_current_pid_tgid() & 0xffffffff);
	if (nr_lost) {
		r->lost = (__u32)*nr_lost;
		*nr_lost = 0;
	}
	return r;
}

static __always_inline int is_held(__u32 cpu)
{
	__u32 *h = bpf_map_lookup_elem(&held, &cpu);

	return h && *h;
}

static __always_inline void set_held(__u32 v)
{
	__u32 cpu = bpf_get_smp_processor_id();
	__u32 *h = bpf_map_lookup_elem(&held, &cpu);

	if (h)
		*h = v;
}

#define READ_ONCE_U64(x)	(*(volatile __u64 *)&(x))
#define READ_ONCE_U32(x)	(*(volatile __u32 *)&(x))

/* map wake: the flag first, then the count (an atomic, so a full barrier) */
static __always_inline void set_pending(__u32 cpu, __u32 v)
{
	struct wake_mark *m = bpf_map_lookup_elem(&wake, &cpu);

	if (!m)
		return;
	*(volatile __u32 *)&m->pending = v;
	__sync_fetch_and_add(&m->gen, 1);
}

static __always_inline __u64 walk_get(__u32 k)
{
	__u64 *v = bpf_map_lookup_elem(&walk, &k);

	return v ? *v : 0;
}

static __always_inline void walk_set(__u32 k, __u64 v)
{
	bpf_map_update_elem(&walk, &k, &v, BPF_ANY);
}

/*
 * Submit @r unless a cgroup walk began since the caller checked: the walk
 * sets WALK_ON before it stamps its uclamp_tg, so an rq or task record
 * stamped after that uclamp_tg is dropped, not shown with the clamps from
 * before the walk after the record that announced the new ones.
 */
static __always_inline void submit_unless_walk(struct col_probe_rec *r)
{
	if (walk_get(WALK_ON))
		bpf_ringbuf_discard(r, 0);
	else
		bpf_ringbuf_submit(r, 0);
}

static __always_inline unsigned int task_cpu(struct task_struct *p)
{
	if (bpf_core_field_exists(p->thread_info.cpu))
		return BPF_CORE_READ(p, thread_info.cpu);
	return BPF_CORE_READ((struct task_struct___cpu *)p, cpu);
}

static __always_inline void learn_rq(struct rq *rq)
{
	__u32 cpu;
	__u64 v = (__u64)rq;

	if (!rq)
		return;
	cpu = BPF_CORE_READ(rq, cpu);
	bpf_map_update_elem(&rqs, &cpu, &v, BPF_ANY);
}

static __always_inline struct rq *cpu_rq(__u32 cpu)
{
	__u64 *v = bpf_map_lookup_elem(&rqs, &cpu);

	return v ? (struct rq *)*v : NULL;
}

/* task_rq(): through its cfs_rq with group scheduling, else the CPU's */
static __always_inline struct rq *task_rq(struct task_struct *p)
{
	struct rq *rq = NULL;

	if (bpf_core_field_exists(p->se.cfs_rq) && bpf_core_field_exists(struct cfs_rq, rq))
		rq = BPF_CORE_READ(p, se.cfs_rq, rq);
	return rq ? rq : cpu_rq(task_cpu(p));
}

/*
 * rq->uclamp[id] and p->uclamp[id]: the element size is the kernel's
 * (struct uclamp_rq holds the buckets, which the local type leaves out),
 * so the address is computed from the kernel's offset and type size.
 */
static __always_inline unsigned int rq_clamp(struct rq *rq, int id)
{
	struct uclamp_rq *uc;

	if (!bpf_core_field_exists(rq->uclamp))
		return id == UCLAMP_MIN ? 0 : 1024;
	uc = (void *)((char *)rq + bpf_core_field_offset(rq->uclamp) +
		      id * bpf_core_type_size(struct uclamp_rq));
	return BPF_CORE_READ(uc, value);
}

/* uclamp_rq_util_with(rq, util, NULL): min wins on an inversion */
static __always_inline __u64 clamp_util(__u64 util, unsigned int min, unsigned int max)
{
	if (min >= max)
		return min;
	return util < min ? min : util > max ? max : util;
}

/*
 * Whether @rq's running task has been dequeued to sleep: __schedule() is
 * under way there (deactivate_task() clears p->on_rq before
 * uclamp_rq_dec()). A remote read, at the end of a cgroup walk, does not
 * hold that rq's lock, and may come before the hold is set.
 */
static __always_inline int is_curr_leaving(struct rq *rq)
{
	struct task_struct *curr = BPF_CORE_READ(rq, curr);

	return curr && !BPF_CORE_READ(curr, on_rq);
}

/*
 * uclamp_util_cfs of @rq. @m, for a read without @rq's lock: the wake
 * mark of its CPU, whose @gen was read before this call and found not
 * pending; the record is dropped if it moved by the end of the read.
 */
static __always_inline void emit_rq_marked(struct rq *rq, struct wake_mark *m, __u64 gen)
{
	struct col_probe_rec *r;
	unsigned int min, max;
	__u64 util;

	if (!rq || is_held(BPF_CORE_READ(rq, cpu)) || walk_get(WALK_ON))
		return;
	r = reserve(COL_PROBE_UTIL_CFS);
	if (!r)
		return;
	util = BPF_CORE_READ(rq, cfs.avg.util_avg);
	min = rq_clamp(rq, UCLAMP_MIN);
	max = rq_clamp(rq, UCLAMP_MAX);
	/* after the clamps: a task still queued then was counted in them */
	if (is_curr_leaving(rq) ||
	    (m && (READ_ONCE_U32(m->pending) || READ_ONCE_U64(m->gen) != gen))) {
		bpf_ringbuf_discard(r, 0);
		return;
	}
	r->u.util_cfs.cpu = BPF_CORE_READ(rq, cpu);
	r->u.util_cfs.util_avg = util;
	r->u.util_cfs.uclamp_avg = clamp_util(util, min, max);
	r->u.util_cfs.uclamp_min = min;
	r->u.util_cfs.uclamp_max = max;
	submit_unless_walk(r);
}

/* uclamp_util_cfs of @rq, read under its lock */
static __always_inline void emit_rq(struct rq *rq)
{
	emit_rq_marked(rq, NULL, 0);
}

static __always_inline void emit_task(struct task_struct *p)
{
	unsigned int cpu = task_cpu(p), min, max;
	struct rq *rq = task_rq(p);
	struct col_probe_rec *r;
	__u64 util;

	if (!rq || is_held(cpu) || walk_get(WALK_ON))
		return;
	r = reserve(COL_PROBE_UTIL_SE);
	if (!r)
		return;
	util = BPF_CORE_READ(p, se.avg.util_avg);
	min = rq_clamp(rq, UCLAMP_MIN);
	max = rq_clamp(rq, UCLAMP_MAX);
	r->u.util_se.pid = BPF_CORE_READ(p, pid);
	BPF_CORE_READ_STR_INTO(&r->u.util_se.comm, p, comm);
	r->u.util_se.cpu = (__s32)cpu;
	r->u.util_se.util_avg = util;
	r->u.util_se.uclamp_avg = clamp_util(util, min, max);
	r->u.util_se.uclamp_min = min;
	r->u.util_se.uclamp_max = max;
	submit_unless_walk(r);
}

static __always_inline void emit_eff(struct task_struct *p, int id)
{
	struct col_probe_rec *r;
	struct uclamp_se *eff, *req;

	if (!bpf_core_field_exists(p->uclamp))
		return;
	eff = (void *)((char *)p + bpf_core_field_offset(p->uclamp) +
		       id * bpf_core_type_size(struct uclamp_se));
	req = (void *)((char *)p + bpf_core_field_offset(p->uclamp_req) +
		       id * bpf_core_type_size(struct uclamp_se));
	/*
	 * active: uclamp_rq_inc_id() ran in this enqueue (not before the first
	 * clamp request switches uclamp accounting on, nor for a class without
	 * uclamp): only then is the effective value fresh, and traced
	 */
	if (!BPF_CORE_READ_BITFIELD_PROBED(eff, active) || walk_get(WALK_ON))
		return;
	r = reserve(COL_PROBE_TASK_EFF);
	if (!r)
		return;
	r->u.task_eff.pid = BPF_CORE_READ(p, pid);
	BPF_CORE_READ_STR_INTO(&r->u.task_eff.comm, p, comm);
	r->u.task_eff.clamp_id = id;
	r->u.task_eff.value = BPF_CORE_READ_BITFIELD_PROBED(req, value);
	r->u.task_eff.effective = BPF_CORE_READ_BITFIELD_PROBED(eff, value);
	r->u.task_eff.bucket_id = BPF_CORE_READ_BITFIELD_PROBED(eff, bucket_id);
	submit_unless_walk(r);
}

/*
 * A task not on any rq (on_rq 0) is being woken or is new: its
 * sched_wakeup(_new) follows the enqueue. A wakeup's rq is pending since
 * its sched_waking; a new task's from here, after uclamp_rq_inc() (the
 * instructions between are not covered).
 */
static __always_inline void before_enqueue(struct rq *rq, struct task_struct *p)
{
	if (!has_uclamp)
		return;
	if (rq && !BPF_CORE_READ(p, on_rq))
		set_pending(BPF_CORE_READ(rq, cpu), 1);
	emit_eff(p, UCLAMP_MIN);
	emit_eff(p, UCLAMP_MAX);
}

static __always_inline void after_enqueue(struct rq *rq, struct task_struct *p, int flags)
{
	learn_rq(rq);
	if (has_uclamp &&
	    ((flags & ENQUEUE_RESTORE) || BPF_CORE_READ(p, on_rq) == TASK_ON_RQ_MIGRATING))
		emit_task(p);
}

static __always_inline void after_dequeue(struct rq *rq, struct task_struct *p, int flags)
{
	learn_rq(rq);
	if (has_uclamp && (flags & DEQUEUE_SLEEP) && BPF_CORE_READ(rq, curr) == p)
		set_held(1);
}

/* the root cfs_rq of its CPU (without group scheduling, every one is) */
static __always_inline int is_root(struct cfs_rq *cfs)
{
	struct rq *rq;

	if (!bpf_core_field_exists(cfs->rq))
		return 1;
	rq = BPF_CORE_READ(cfs, rq);
	return rq && (void *)&rq->cfs == (void *)cfs;
}

/* ---- programs ---- */

SEC("tp_btf/sched_switch")
int BPF_PROG(ucp_switch, _Bool preempt, struct task_struct *prev, struct task_struct *next)
{
	set_held(0);
	if (!has_uclamp)
		return 0;
	/* under the rq lock, after any wakeup's event that took it before */
	set_pending(bpf_get_smp_processor_id(), 0);
	emit_rq(cpu_rq(bpf_get_smp_processor_id()));
	return 0;
}

/*
 * Without the fexit programs (a kernel whose functions have no ftrace
 * entry to patch), the effective clamps of a wakeup's enqueue are traced
 * at its sched_wakeup: p->uclamp[] is what that enqueue computed.
 */
static __always_inline void wakeup(struct task_struct *p)
{
	__u32 zero = 0, *fexit = bpf_map_lookup_elem(&cfg, &zero);

	if (!has_uclamp)
		return;
	set_pending(task_cpu(p), 0);
	if (fexit && !*fexit) {
		emit_eff(p, UCLAMP_MIN);
		emit_eff(p, UCLAMP_MAX);
	}
	emit_task(p);
}

SEC("tp_btf/sched_wakeup")
int BPF_PROG(ucp_wakeup, struct task_struct *p)
{
	wakeup(p);
	return 0;
}

SEC("tp_btf/sched_wakeup_new")
int BPF_PROG(ucp_wakeup_new, struct task_struct *p)
{
	wakeup(p);
	return 0;
}

/* before the wakeup chooses a CPU and enqueues: see map wake */
SEC("tp_btf/sched_waking")
int BPF_PROG(ucp_waking, struct task_struct *p)
{
	if (has_uclamp)
		set_pending(task_cpu(p), 1);
	return 0;
}

SEC("tp_btf/sched_migrate_task")
int BPF_PROG(ucp_migrate, struct task_struct *p, int new_cpu)
{
	int on_rq;

	if (!has_uclamp)
		return 0;
	on_rq = BPF_CORE_READ(p, on_rq);
	if (on_rq == TASK_ON_RQ_MIGRATING)
		emit_rq(task_rq(p));
	else if (!on_rq)
		set_pending((__u32)new_cpu, 1);	/* the CPU a wakeup chose */
	return 0;
}

SEC("fentry/enqueue_task_fair")
int BPF_PROG(ucp_enqueue_fair_entry, struct rq *rq, struct task_struct *p, int flags)
{
	before_enqueue(rq, p);
	return 0;
}

SEC("fentry/enqueue_task_rt")
int BPF_PROG(ucp_enqueue_rt_entry, struct rq *rq, struct task_struct *p, int flags)
{
	before_enqueue(rq, p);
	return 0;
}

SEC("fexit/enqueue_task_fair")
int BPF_PROG(ucp_enqueue_fair, struct rq *rq, struct task_struct *p, int flags)
{
	after_enqueue(rq, p, flags);
	return 0;
}

SEC("fexit/enqueue_task_rt")
int BPF_PROG(ucp_enqueue_rt, struct rq *rq, struct task_struct *p, int flags)
{
	after_enqueue(rq, p, flags);
	return 0;
}

SEC("fexit/dequeue_task_fair")
int BPF_PROG(ucp_dequeue_fair, struct rq *rq, struct task_struct *p, int flags)
{
	after_dequeue(rq, p, flags);
	return 0;
}

SEC("fexit/dequeue_task_rt")
int BPF_PROG(ucp_dequeue_rt, struct rq *rq, struct task_struct *p, int flags)
{
	after_dequeue(rq, p, flags);
	return 0;
}

SEC("raw_tp/pelt_cfs_tp")
int BPF_PROG(ucp_pelt_cfs, struct cfs_rq *cfs)
{
	struct col_probe_rec *r;
	struct rq *rq;

	if (!is_root(cfs))
		return 0;
	r = reserve(COL_PROBE_PELT_CFS);
	if (!r)
		return 0;
	rq = BPF_CORE_READ(cfs, rq);
	learn_rq(rq);
	r->u.pelt_cfs.cpu = rq ? BPF_CORE_READ(rq, cpu) : (int)bpf_get_smp_processor_id();
	r->u.pelt_cfs.path[0] = '/';
	r->u.pelt_cfs.util = BPF_CORE_READ(cfs, avg.util_avg);
	bpf_ringbuf_submit(r, 0);
	return 0;
}

#define UTIL_AVG_UNCHANGED	0x80000000	/* a flag in util_est's top bit, not util */

static __always_inline void read_util_est(struct sched_avg *avg, __u32 *enqueued, __u32 *ewma)
{
	if (bpf_core_field_exists(avg->util_est.enqueued)) {
		*enqueued = BPF_CORE_READ(avg, util_est.enqueued) & ~UTIL_AVG_UNCHANGED;
		*ewma = BPF_CORE_READ(avg, util_est.ewma);
	} else {
		*enqueued = BPF_CORE_READ((struct sched_avg___one *)avg, util_est) &
			    ~UTIL_AVG_UNCHANGED;
		*ewma = 0;
	}
}

SEC("raw_tp/sched_util_est_cfs_tp")
int BPF_PROG(ucp_util_est_cfs, struct cfs_rq *cfs)
{
	struct col_probe_rec *r;
	struct rq *rq;

	if (!is_root(cfs))
		return 0;
	r = reserve(COL_PROBE_UTIL_EST_CFS);
	if (!r)
		return 0;
	rq = BPF_CORE_READ(cfs, rq);
	r->u.util_est_cfs.cpu = rq ? BPF_CORE_READ(rq, cpu) : (int)bpf_get_smp_processor_id();
	r->u.util_est_cfs.path[0] = '/';
	read_util_est(&cfs->avg, &r->u.util_est_cfs.enqueued, &r->u.util_est_cfs.ewma);
	r->u.util_est_cfs.util = BPF_CORE_READ(cfs, avg.util_avg);
	bpf_ringbuf_submit(r, 0);
	return 0;
}

/* a task's entity only (a group's has my_q) */
SEC("raw_tp/sched_util_est_se_tp")
int BPF_PROG(ucp_util_est_se, struct sched_entity *se)
{
	struct task_struct *p;
	struct col_probe_rec *r;

	if (bpf_core_field_exists(se->my_q) && BPF_CORE_READ(se, my_q))
		return 0;
	p = (struct task_struct *)((char *)se - bpf_core_field_offset(struct task_struct, se));
	r = reserve(COL_PROBE_UTIL_EST_SE);
	if (!r)
		return 0;
	r->u.util_est_se.pid = BPF_CORE_READ(p, pid);
	BPF_CORE_READ_STR_INTO(&r->u.util_est_se.comm, p, comm);
	r->u.util_est_se.cpu = (__s32)bpf_get_smp_processor_id();
	read_util_est(&se->avg, &r->u.util_est_se.enqueued, &r->u.util_est_se.ewma);
	r->u.util_est_se.util = BPF_CORE_READ(se, avg.util_avg);
	bpf_ringbuf_submit(r, 0);
	return 0;
}

SEC("raw_tp/sched_cpu_capacity_tp")
int BPF_PROG(ucp_capacity, struct rq *rq)
{
	struct col_probe_rec *r;

	learn_rq(rq);
	r = reserve(COL_PROBE_CAPACITY);
	if (!r)
		return 0;
	r->u.capacity.cpu = BPF_CORE_READ(rq, cpu);
	r->u.capacity.capacity = BPF_CORE_READ(rq, cpu_capacity);
	bpf_ringbuf_submit(r, 0);
	return 0;
}

/* ---- cgroup clamp writes (CONFIG_UCLAMP_TASK_GROUP) ---- */

#define CG_DEPTH	8	/* deeper groups are not traced */

/*
 * cgroup_path() of @css into @out (COL_PROBE_TG_PATH_LEN bytes, cut to
 * fit): "/" for the root, "/a/b" below it. False when too deep.
 */
static __always_inline int cg_path(struct cgroup_subsys_state *css, char *out)
{
	const char *names[CG_DEPTH];
	struct kernfs_node *kn;
	__u64 at = 0;		/* 64 bits: the verifier bounds it where it is compared */
	__u32 zero = 0;
	char *buf;
	int n = 0;

	buf = bpf_map_lookup_elem(&scratch, &zero);
	if (!buf || !bpf_core_field_exists(struct kernfs_node, parent))
		return 0;
	kn = BPF_CORE_READ(css, cgroup, kn);
#pragma unroll
	for (int i = 0; i < CG_DEPTH; i++) {
		struct kernfs_node *parent;

		if (!kn)
			break;
		parent = BPF_CORE_READ(kn, parent);
		if (!parent)
			break;		/* the root's name is not in the path */
		names[n++] = BPF_CORE_READ(kn, name);
		kn = parent;
	}
	if (kn && BPF_CORE_READ(kn, parent))
		return 0;
	buf[0] = '/';
	buf[1] = '\0';
#pragma unroll
	for (int i = CG_DEPTH - 1; i >= 0; i--) {
		long len;

		if (i >= n)
			continue;
		if (at > COL_PROBE_TG_PATH_LEN - 2)
			break;
		buf[at] = '/';
		at++;
		len = bpf_probe_read_kernel_str(buf + at, PATH_SCRATCH / 2, names[i]);
		if (len <= 0 || len > PATH_SCRATCH / 2)
			return 0;
		at += (__u64)len - 1;
	}
	__builtin_memcpy(out, buf, COL_PROBE_TG_PATH_LEN);
	out[COL_PROBE_TG_PATH_LEN - 1] = '\0';
	return 1;
}

/* uclamp_tg of @css, both clamps, as the patch's uclamp_trace_tg() */
static __always_inline unsigned int tg_clamp(struct task_group *tg, int id, int is_req)
{
	struct uclamp_se *se;

	se = (void *)((char *)tg + (is_req ? bpf_core_field_offset(struct task_group, uclamp_req) :
					     bpf_core_field_offset(struct task_group, uclamp)) +
		      id * bpf_core_type_size(struct uclamp_se));
	return BPF_CORE_READ_BITFIELD_PROBED(se, value);
}

/*
 * The written group's uclamp_tg, before the walk: its requests are set,
 * and its effective values are what cpu_util_update_eff() is about to
 * compute from them (each request capped by the parent's effective value,
 * the minimum by the maximum). The walk then re-accounts the tasks of the
 * subtree, and another CPU may evaluate schedutil with their new clamps
 * before the walk ends: the patch traces each group as the walk reaches
 * it, the written one first.
 */
static __always_inline void emit_tg(struct cgroup_subsys_state *css)
{
	struct task_group *tg, *parent;
	unsigned int req[2], eff[2];

	if (!bpf_core_field_exists(struct task_group, uclamp))
		return;
	tg = (void *)((char *)css - bpf_core_field_offset(struct task_group, css));
	parent = BPF_CORE_READ(tg, parent);
#pragma unroll
	for (int id = UCLAMP_MIN; id <= UCLAMP_MAX; id++) {
		unsigned int up;

		req[id] = tg_clamp(tg, id, 1);
		eff[id] = req[id];
		if (parent) {
			up = tg_clamp(parent, id, 0);
			if (eff[id] > up)
				eff[id] = up;
		}
	}
	if (eff[UCLAMP_MIN] > eff[UCLAMP_MAX])
		eff[UCLAMP_MIN] = eff[UCLAMP_MAX];
#pragma unroll
	for (int id = UCLAMP_MIN; id <= UCLAMP_MAX; id++) {
		struct col_probe_rec *r = reserve(COL_PROBE_TG);

		if (!r)
			return;
		if (!cg_path(css, r->u.tg.path)) {
			bpf_ringbuf_discard(r, 0);
			return;
		}
		r->u.tg.clamp_id = id;
		r->u.tg.value = req[id];
		r->u.tg.effective = eff[id];
		bpf_ringbuf_submit(r, 0);
	}
}

SEC("fentry/cpu_util_update_eff")
int BPF_PROG(ucp_tg_walk, struct cgroup_subsys_state *css)
{
	walk_set(WALK_ON, 1);	/* first: see submit_unless_walk() */
	emit_tg(css);
	return 0;
}

/* every known rq (uclamp_trace_all_rqs()) */
SEC("fexit/cpu_util_update_eff")
int BPF_PROG(ucp_tg_walk_end, struct cgroup_subsys_state *css)
{
	walk_set(WALK_ON, 0);
#pragma unroll
	for (__u32 cpu = 0; cpu < TG_RQS; cpu++) {
		__u32 key = cpu;
		struct wake_mark *m = bpf_map_lookup_elem(&wake, &key);
		__u64 gen;

		if (!m)
			continue;
		gen = READ_ONCE_U64(m->gen);
		if (!READ_ONCE_U32(m->pending))
			emit_rq_marked(cpu_rq(cpu), m, gen);
	}
	return 0;
}

/* ---- what schedutil reads (patch 0003's schedutil_util) ---- */

SEC("fexit/sugov_get_util")
int BPF_PROG(ucp_sugov_util, struct sugov_cpu *sg)
{
	__u32 enqueued, ewma, cpu = BPF_CORE_READ(sg, cpu);
	struct rq *rq = cpu_rq(cpu);
	struct col_probe_rec *r;
	__u64 util, max = 1024;

	if (!rq)
		return 0;
	r = reserve(COL_PROBE_SCHED_UTIL);
	if (!r)
		return 0;
	if (bpf_core_field_exists(sg->max))
		max = BPF_CORE_READ(sg, max);
	util = BPF_CORE_READ(rq, cfs.avg.util_avg);
	read_util_est(&rq->cfs.avg, &enqueued, &ewma);
	if (enqueued > util)
		util = enqueued;
	r->u.sched_util.cpu = (__s32)cpu;
	r->u.sched_util.util_cfs = (__u32)(util < max ? util : max);
	r->u.sched_util.util_rt = (__u32)BPF_CORE_READ(rq, avg_rt.util_avg);
	r->u.sched_util.util_clamp = (__u32)BPF_CORE_READ(sg, util);
	r->u.sched_util.util_max = (__u32)max;
	r->u.sched_util.time = (__s64)BPF_CORE_READ(sg, last_update);
	bpf_ringbuf_submit(r, 0);
	return 0;
}
