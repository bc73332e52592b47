/* SPDX-License-Identifier: MIT */
/*
 * collect/probeev.h - the records the BPF probes (collect/bpf/ucprobes.bpf.c)
 * put in their ring buffer, shared by the BPF program and ucval: fixed-size
 * types only, so both compilers lay them out alike. Each payload is the
 * event's trace record after its 8-byte common header, laid out as its
 * format (collect/probefmt.c) says.
 */
#ifndef UCVAL_COLLECT_PROBEEV_H
#define UCVAL_COLLECT_PROBEEV_H

#include <linux/types.h>

#define COL_PROBE_COMM_LEN	16	/* TASK_COMM_LEN */
#define COL_PROBE_PATH_LEN	8	/* "/": the root cfs_rq only */
#define COL_PROBE_TG_PATH_LEN	48	/* a cgroup path; longer ones are cut */

/* Which event a ring-buffer record is (enum col_probe_ev values). */
enum col_probe_ev {
	COL_PROBE_UTIL_CFS,
	COL_PROBE_UTIL_SE,
	COL_PROBE_TASK_EFF,
	COL_PROBE_PELT_CFS,
	COL_PROBE_UTIL_EST_CFS,
	COL_PROBE_UTIL_EST_SE,
	COL_PROBE_CAPACITY,
	COL_PROBE_TG,
	COL_PROBE_SCHED_UTIL,
	COL_PROBE_NR_EV,
};

struct col_probe_util_cfs {
	__s32 cpu;
	__u32 pad;
	__u64 util_avg;
	__u64 uclamp_avg;
	__u32 uclamp_min;
	__u32 uclamp_max;
};

struct col_probe_util_se {
	__s32 pid;
	char comm[COL_PROBE_COMM_LEN];
	__s32 cpu;
	__u64 util_avg;
	__u64 uclamp_avg;
	__u32 uclamp_min;
	__u32 uclamp_max;
};

struct col_probe_task_eff {
	__s32 pid;
	char comm[COL_PROBE_COMM_LEN];
	__s32 clamp_id;
	__u32 value;
	__u32 effective;
	__u32 bucket_id;
};

struct col_probe_pelt_cfs {
	__s32 cpu;
	char path[COL_PROBE_PATH_LEN];
	__u32 pad;
	__u64 util;
};

struct col_probe_util_est_cfs {
	__s32 cpu;
	char path[COL_PROBE_PATH_LEN];
	__u32 enqueued;
	__u32 ewma;
	__u32 pad;
	__u64 util;
};

struct col_probe_util_est_se {
	__s32 pid;
	char comm[COL_PROBE_COMM_LEN];
	__s32 cpu;
	__u32 enqueued;
	__u32 ewma;
	__u64 util;
};

struct col_probe_capacity {
	__s32 cpu;
	__u32 pad;
	__u64 capacity;
};

struct col_probe_tg {
	char path[COL_PROBE_TG_PATH_LEN];
	__s32 clamp_id;
	__u32 value;
	__u32 effective;
};

struct col_probe_sched_util {
	__s32 cpu;
	__u32 util_cfs;
	__u32 util_rt;
	__u32 util_clamp;
	__u32 util_max;
	__u32 pad;
	__s64 time;
};

/**
 * struct col_probe_rec - one ring-buffer record
 * @ts: bpf_ktime_get_ns() (CLOCK_MONOTONIC), the instance's "mono" clock
 * @cpu: the CPU the probe ran on: the record goes to its page stream
 * @type: enum col_probe_ev
 * @pid: current task (the records' common_pid)
 * @lost: records of this CPU the ring buffer had no room for since the
 *	  CPU's previous record: lost right before this one
 * @u: the payload
 */
struct col_probe_rec {
	__u64 ts;
	__u32 cpu;
	__u32 type;
	__s32 pid;
	__u32 lost;
	union {
		struct col_probe_util_cfs util_cfs;
		struct col_probe_util_se util_se;
		struct col_probe_task_eff task_eff;
		struct col_probe_pelt_cfs pelt_cfs;
		struct col_probe_util_est_cfs util_est_cfs;
		struct col_probe_util_est_se util_est_se;
		struct col_probe_capacity capacity;
		struct col_probe_tg tg;
		struct col_probe_sched_util sched_util;
	} u;
};

#endif /* UCVAL_COLLECT_PROBEEV_H */
