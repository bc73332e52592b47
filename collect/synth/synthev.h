/* SPDX-License-Identifier: MIT */
/*
 * collect/synth/synthev.h - the events `ucval synth` writes, as the writer
 * (synthout.c) and the trace.dat format tables (synthfmt.c) both know them.
 * Types only.
 */
#ifndef UCVAL_COLLECT_SYNTH_SYNTHEV_H
#define UCVAL_COLLECT_SYNTH_SYNTHEV_H

/* The events synth writes (events.md §2 names). */
enum col_so_type {
	COL_SO_SWITCH,
	COL_SO_WAKEUP,
	COL_SO_WAKEUP_NEW,
	COL_SO_MIGRATE,
	COL_SO_FORK,
	COL_SO_EXIT,
	COL_SO_FREE,
	COL_SO_FREQ,
	COL_SO_PRINT,
	COL_SO_UTIL_CFS,
	COL_SO_TASK_EFF,
	COL_SO__COUNT
};

/* prev_state bits of sched_switch as kernels since 4.14 record them. */
#define COL_SO_STATE_RUNNING	0x000	/* R */
#define COL_SO_STATE_SLEEP	0x001	/* S */
#define COL_SO_STATE_DISK	0x002	/* D */
#define COL_SO_STATE_DEAD	0x010	/* X */
#define COL_SO_STATE_PREEMPT	0x100	/* "+": preempted while runnable */

/**
 * struct col_so_ev - one event; strings are borrowed for the call
 * @type: which
 * @cpu: CPU whose buffer records it
 * @pid: common_pid, the task running there (0: idle)
 * @comm: its comm ("<idle>" for pid 0)
 * @sw: COL_SO_SWITCH fields
 * @task: WAKEUP, WAKEUP_NEW, MIGRATE (@arg0 target or orig, @arg1 dest),
 *	  EXIT, FREE
 * @fork: COL_SO_FORK fields
 * @freq: COL_SO_FREQ fields
 * @text: COL_SO_PRINT text, without the newline
 * @util: COL_SO_UTIL_CFS fields
 * @eff: COL_SO_TASK_EFF fields (@slot: the clamp group, v3, or bucket, mainline)
 */
struct col_so_ev {
	enum col_so_type type;
	unsigned int cpu;
	int pid;
	const char *comm;
	union {
		struct {
			const char *prev_comm;
			int prev_pid;
			int prev_prio;
			unsigned int prev_state;
			const char *next_comm;
			int next_pid;
			int next_prio;
		} sw;
		struct {
			const char *comm;
			int pid;
			int prio;
			int arg0;
			int arg1;
		} task;
		struct {
			const char *parent_comm;
			int parent_pid;
			const char *child_comm;
			int child_pid;
		} fork;
		struct {
			unsigned int khz;
			unsigned int cpu_id;
		} freq;
		const char *text;
		struct {
			unsigned int cpu;
			unsigned int util_avg;
			unsigned int uclamp_avg;
			unsigned int uclamp_min;
			unsigned int uclamp_max;
		} util;
		struct {
			const char *comm;
			int pid;
			int clamp_id;
			unsigned int value;
			unsigned int effective;
			int slot;
		} eff;
	};
};

#endif /* UCVAL_COLLECT_SYNTH_SYNTHEV_H */
