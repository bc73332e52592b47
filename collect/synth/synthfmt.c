// SPDX-License-Identifier: MIT
/*
 * collect/synth/synthfmt.c - the tracefs metadata of a synthetic trace.dat: the
 * ring-buffer page and entry headers and the format of every event synth
 * writes, laid out as an x86_64 kernel since 4.14 records them (the uclamp
 * events as the out-of-tree sched_tp module does). synthout.c writes the
 * records with exactly these offsets.
 */
#include "collect/synth/synthfmt.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* The eight bytes every record starts with. */
#define COMMON_FIELDS \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

const char col_synthfmt_header_page[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:1;\n";

const char col_synthfmt_header_event[] =
	"# compressed entry header\n"
	"\ttype_len    :    5 bits\n"
	"\ttime_delta  :   27 bits\n"
	"\tarray       :   32 bits\n\n"
	"\tpadding     : type == 29\n"
	"\ttime_extend : type == 30\n"
	"\ttime_stamp : type == 31\n"
	"\tdata max type_len  == 28\n";

const char col_synthfmt_print[] =
	"name: print\nID: 5\nformat:\n" COMMON_FIELDS
	"\tfield:unsigned long ip;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:char buf[];\toffset:16;\tsize:0;\tsigned:0;\n\n"
	"print fmt: \"%ps: %s\", (void *)REC->ip, REC->buf\n";

static const char fmt_switch[] =
	"name: sched_switch\nID: 316\nformat:\n" COMMON_FIELDS
	"\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
	"\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
	"\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s%s ==> next_comm=%s "
	"next_pid=%d next_prio=%d\", REC->prev_comm, REC->prev_pid, REC->prev_prio, "
	"(REC->prev_state & 0xff) ? __print_flags(REC->prev_state & 0xff, \"|\", "
	"{ 0x01, \"S\" }, { 0x02, \"D\" }, { 0x04, \"T\" }, { 0x08, \"t\" }, { 0x10, \"X\" }, "
	"{ 0x20, \"Z\" }, { 0x40, \"P\" }, { 0x80, \"I\" }) : \"R\", "
	"REC->prev_state & 0x100 ? \"+\" : \"\", REC->next_comm, REC->next_pid, REC->next_prio\n";

#define WAKEUP_FORMAT(name, id)							\
	"name: " name "\nID: " id "\nformat:\n" COMMON_FIELDS			\
	"\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"		\
	"\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n"			\
	"\tfield:int prio;\toffset:28;\tsize:4;\tsigned:1;\n"			\
	"\tfield:int target_cpu;\toffset:32;\tsize:4;\tsigned:1;\n\n"		\
	"print fmt: \"comm=%s pid=%d prio=%d target_cpu=%03d\", REC->comm, REC->pid, " \
	"REC->prio, REC->target_cpu\n"

static const char fmt_wakeup[] = WAKEUP_FORMAT("sched_wakeup", "318");
static const char fmt_wakeup_new[] = WAKEUP_FORMAT("sched_wakeup_new", "317");

static const char fmt_migrate[] =
	"name: sched_migrate_task\nID: 314\nformat:\n" COMMON_FIELDS
	"\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:int prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:int orig_cpu;\toffset:32;\tsize:4;\tsigned:1;\n"
	"\tfield:int dest_cpu;\toffset:36;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"comm=%s pid=%d prio=%d orig_cpu=%d dest_cpu=%d\", REC->comm, REC->pid, "
	"REC->prio, REC->orig_cpu, REC->dest_cpu\n";

static const char fmt_fork[] =
	"name: sched_process_fork\nID: 309\nformat:\n" COMMON_FIELDS
	"\tfield:char parent_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t parent_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:char child_comm[16];\toffset:28;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t child_pid;\toffset:44;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"comm=%s pid=%d child_comm=%s child_pid=%d\", REC->parent_comm, "
	"REC->parent_pid, REC->child_comm, REC->child_pid\n";

#define TASK_FORMAT(name, id)							\
	"name: " name "\nID: " id "\nformat:\n" COMMON_FIELDS			\
	"\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"		\
	"\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n"			\
	"\tfield:int prio;\toffset:28;\tsize:4;\tsigned:1;\n\n"			\
	"print fmt: \"comm=%s pid=%d prio=%d\", REC->comm, REC->pid, REC->prio\n"

static const char fmt_exit[] = TASK_FORMAT("sched_process_exit", "311");
static const char fmt_free[] = TASK_FORMAT("sched_process_free", "312");

static const char fmt_freq[] =
	"name: cpu_frequency\nID: 425\nformat:\n" COMMON_FIELDS
	"\tfield:u32 state;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:u32 cpu_id;\toffset:12;\tsize:4;\tsigned:0;\n\n"
	"print fmt: \"state=%lu cpu_id=%lu\", (unsigned long)REC->state, "
	"(unsigned long)REC->cpu_id\n";

static const char fmt_util_cfs[] =
	"name: uclamp_util_cfs\nID: 1500\nformat:\n" COMMON_FIELDS
	"\tfield:int cpu;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:unsigned int util_avg;\toffset:12;\tsize:4;\tsigned:0;\n"
	"\tfield:unsigned int uclamp_avg;\toffset:16;\tsize:4;\tsigned:0;\n"
	"\tfield:unsigned int uclamp_min;\toffset:20;\tsize:4;\tsigned:0;\n"
	"\tfield:unsigned int uclamp_max;\toffset:24;\tsize:4;\tsigned:0;\n\n"
	"print fmt: \"cpu=%d util_avg=%u uclamp_avg=%u uclamp_min=%u uclamp_max=%u\", "
	"REC->cpu, REC->util_avg, REC->uclamp_avg, REC->uclamp_min, REC->uclamp_max\n";

static const char fmt_task_eff[] =
	"name: uclamp_task_eff\nID: 1501\nformat:\n" COMMON_FIELDS
	"\tfield:pid_t pid;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:char comm[16];\toffset:12;\tsize:16;\tsigned:0;\n"
	"\tfield:int clamp_id;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:unsigned int value;\toffset:32;\tsize:4;\tsigned:0;\n"
	"\tfield:unsigned int effective;\toffset:36;\tsize:4;\tsigned:0;\n"
	"\tfield:int group_id;\toffset:40;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"pid=%d comm=%s clamp_id=%d value=%u effective=%u group_id=%d\", "
	"REC->pid, REC->comm, REC->clamp_id, REC->value, REC->effective, REC->group_id\n";

static const char *const sched_formats[] = {
	fmt_switch, fmt_wakeup, fmt_wakeup_new, fmt_migrate, fmt_fork, fmt_exit, fmt_free,
};
static const char *const power_formats[] = { fmt_freq };
static const char *const uclamp_formats[] = { fmt_util_cfs, fmt_task_eff };

const struct col_synthfmt_system col_synthfmt_systems[] = {
	{ "sched", sched_formats, ARRAY_SIZE(sched_formats) },
	{ "power", power_formats, ARRAY_SIZE(power_formats) },
	{ "sched_tp", uclamp_formats, ARRAY_SIZE(uclamp_formats) },
};
const unsigned int col_synthfmt_nr_systems = ARRAY_SIZE(col_synthfmt_systems);

const unsigned short col_synthfmt_id[COL_SO__COUNT] = {
	[COL_SO_SWITCH] = 316,
	[COL_SO_WAKEUP] = 318,
	[COL_SO_WAKEUP_NEW] = 317,
	[COL_SO_MIGRATE] = 314,
	[COL_SO_FORK] = 309,
	[COL_SO_EXIT] = 311,
	[COL_SO_FREE] = 312,
	[COL_SO_FREQ] = 425,
	[COL_SO_PRINT] = 5,
	[COL_SO_UTIL_CFS] = 1500,
	[COL_SO_TASK_EFF] = 1501,
};
