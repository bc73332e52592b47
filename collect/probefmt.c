// SPDX-License-Identifier: MIT
/*
 * collect/probefmt.c - the format texts of the probe events (probefmt.h).
 * Field offsets are those of collect/probeev.h's payloads plus the 8-byte
 * common header; the field names are the patched kernel's
 * (tests/kernel/patches/0002-sched-uclamp-trace-events.patch) and sched_tp's.
 */
#include <stddef.h>

#include "collect/probefmt.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define STR(x)		#x
#define XSTR(x)		STR(x)

#define COMMON_FIELDS \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
#define HEAD(name, id)	"name: " name "\nID: " XSTR(id) "\nformat:\n" COMMON_FIELDS
#define F(decl, off, size, sgn) \
	"\tfield:" decl ";\toffset:" #off ";\tsize:" #size ";\tsigned:" #sgn ";\n"
#define ID(ev)		(COL_PROBEFMT_ID_BASE + ev)
#define ID_UTIL_CFS	65400
#define ID_UTIL_SE	65401
#define ID_TASK_EFF	65402
#define ID_PELT_CFS	65403
#define ID_UTIL_EST_CFS	65404
#define ID_UTIL_EST_SE	65405
#define ID_CAPACITY	65406
#define ID_TG		65407
#define ID_SCHED_UTIL	65408

_Static_assert(ID(COL_PROBE_SCHED_UTIL) == ID_SCHED_UTIL, "ids follow enum col_probe_ev");

static const char fmt_util_cfs[] = HEAD("uclamp_util_cfs", ID_UTIL_CFS)
	F("int cpu", 8, 4, 1) F("unsigned long util_avg", 16, 8, 0)
	F("unsigned long uclamp_avg", 24, 8, 0) F("unsigned int uclamp_min", 32, 4, 0)
	F("unsigned int uclamp_max", 36, 4, 0)
	"\nprint fmt: \"cpu=%d util_avg=%lu uclamp_avg=%lu uclamp_min=%u uclamp_max=%u\", "
	"REC->cpu, REC->util_avg, REC->uclamp_avg, REC->uclamp_min, REC->uclamp_max\n";

static const char fmt_util_se[] = HEAD("uclamp_util_se", ID_UTIL_SE)
	F("pid_t pid", 8, 4, 1) F("char comm[16]", 12, 16, 0) F("int cpu", 28, 4, 1)
	F("unsigned long util_avg", 32, 8, 0) F("unsigned long uclamp_avg", 40, 8, 0)
	F("unsigned int uclamp_min", 48, 4, 0) F("unsigned int uclamp_max", 52, 4, 0)
	"\nprint fmt: \"pid=%d comm=%s cpu=%d util_avg=%lu uclamp_avg=%lu uclamp_min=%u "
	"uclamp_max=%u\", REC->pid, REC->comm, REC->cpu, REC->util_avg, REC->uclamp_avg, "
	"REC->uclamp_min, REC->uclamp_max\n";

static const char fmt_task_eff[] = HEAD("uclamp_task_eff", ID_TASK_EFF)
	F("pid_t pid", 8, 4, 1) F("char comm[16]", 12, 16, 0) F("int clamp_id", 28, 4, 1)
	F("unsigned int value", 32, 4, 0) F("unsigned int effective", 36, 4, 0)
	F("unsigned int bucket_id", 40, 4, 0)
	"\nprint fmt: \"pid=%d comm=%s clamp_id=%d value=%u effective=%u bucket_id=%u\", "
	"REC->pid, REC->comm, REC->clamp_id, REC->value, REC->effective, REC->bucket_id\n";

static const char fmt_pelt_cfs[] = HEAD("sched_pelt_cfs", ID_PELT_CFS)
	F("int cpu", 8, 4, 1) F("char path[8]", 12, 8, 0) F("unsigned long util", 24, 8, 0)
	"\nprint fmt: \"cpu=%d path=%s util=%lu\", REC->cpu, REC->path, REC->util\n";

static const char fmt_util_est_cfs[] = HEAD("sched_util_est_cfs", ID_UTIL_EST_CFS)
	F("int cpu", 8, 4, 1) F("char path[8]", 12, 8, 0) F("unsigned int enqueued", 20, 4, 0)
	F("unsigned int ewma", 24, 4, 0) F("unsigned long util", 32, 8, 0)
	"\nprint fmt: \"cpu=%d path=%s enqueued=%u ewma=%u util=%lu\", REC->cpu, REC->path, "
	"REC->enqueued, REC->ewma, REC->util\n";

static const char fmt_util_est_se[] = HEAD("sched_util_est_se", ID_UTIL_EST_SE)
	F("pid_t pid", 8, 4, 1) F("char comm[16]", 12, 16, 0) F("int cpu", 28, 4, 1)
	F("unsigned int enqueued", 32, 4, 0) F("unsigned int ewma", 36, 4, 0)
	F("unsigned long util", 40, 8, 0)
	"\nprint fmt: \"pid=%d comm=%s cpu=%d enqueued=%u ewma=%u util=%lu\", REC->pid, "
	"REC->comm, REC->cpu, REC->enqueued, REC->ewma, REC->util\n";

static const char fmt_capacity[] = HEAD("sched_cpu_capacity", ID_CAPACITY)
	F("int cpu", 8, 4, 1) F("unsigned long capacity", 16, 8, 0)
	"\nprint fmt: \"cpu=%d capacity=%lu\", REC->cpu, REC->capacity\n";

static const char fmt_tg[] = HEAD("uclamp_tg", ID_TG)
	F("char path[48]", 8, 48, 0) F("int clamp_id", 56, 4, 1)
	F("unsigned int value", 60, 4, 0) F("unsigned int effective", 64, 4, 0)
	"\nprint fmt: \"path=%s clamp_id=%d value=%u effective=%u\", REC->path, "
	"REC->clamp_id, REC->value, REC->effective\n";

static const char fmt_sched_util[] = HEAD("schedutil_util", ID_SCHED_UTIL)
	F("int cpu", 8, 4, 1) F("unsigned int util_cfs", 12, 4, 0)
	F("unsigned int util_rt", 16, 4, 0) F("unsigned int util_clamp", 20, 4, 0)
	F("unsigned int util_max", 24, 4, 0) F("s64 time", 32, 8, 1)
	"\nprint fmt: \"cpu=%d util_cfs=%u util_rt=%u util_clamp=%u util_max=%u time=%lld\", "
	"REC->cpu, REC->util_cfs, REC->util_rt, REC->util_clamp, REC->util_max, REC->time\n";

#define BLOB(s)	{ s, sizeof(s) - 1 }

/* by enum col_probe_ev */
static const struct col_dat_blob formats[] = {
	BLOB(fmt_util_cfs), BLOB(fmt_util_se), BLOB(fmt_task_eff), BLOB(fmt_pelt_cfs),
	BLOB(fmt_util_est_cfs), BLOB(fmt_util_est_se), BLOB(fmt_capacity), BLOB(fmt_tg),
	BLOB(fmt_sched_util),
};

static const char *const names[] = {
	"uclamp_util_cfs", "uclamp_util_se", "uclamp_task_eff", "sched_pelt_cfs",
	"sched_util_est_cfs", "sched_util_est_se", "sched_cpu_capacity", "uclamp_tg",
	"schedutil_util",
};

static const unsigned int sizes[] = {
	sizeof(struct col_probe_util_cfs), sizeof(struct col_probe_util_se),
	sizeof(struct col_probe_task_eff), sizeof(struct col_probe_pelt_cfs),
	sizeof(struct col_probe_util_est_cfs), sizeof(struct col_probe_util_est_se),
	sizeof(struct col_probe_capacity), sizeof(struct col_probe_tg),
	sizeof(struct col_probe_sched_util),
};

_Static_assert(ARRAY_SIZE(formats) == COL_PROBE_NR_EV, "a format per event");
_Static_assert(ARRAY_SIZE(names) == COL_PROBE_NR_EV, "a name per event");
_Static_assert(ARRAY_SIZE(sizes) == COL_PROBE_NR_EV, "a size per event");
_Static_assert(offsetof(struct col_probe_util_se, uclamp_max) + 8 == 52, "util_se layout");
_Static_assert(offsetof(struct col_probe_util_est_se, util) + 8 == 40, "util_est_se layout");
_Static_assert(offsetof(struct col_probe_util_est_cfs, util) + 8 == 32, "util_est_cfs layout");
_Static_assert(offsetof(struct col_probe_pelt_cfs, util) + 8 == 24, "pelt_cfs layout");
_Static_assert(offsetof(struct col_probe_tg, effective) + 8 == 64, "tg layout");
_Static_assert(COL_PROBE_TG_PATH_LEN == 48, "the tg format says path[48]");
_Static_assert(offsetof(struct col_probe_sched_util, time) + 8 == 32, "sched_util layout");

static const struct col_dat_system probe_system = {
	.name = COL_PROBEFMT_SYSTEM, .formats = formats, .nr = COL_PROBE_NR_EV,
};

const struct col_dat_system *col_probefmt_system(void)
{
	return &probe_system;
}

const char *col_probefmt_name(unsigned int type)
{
	return type < COL_PROBE_NR_EV ? names[type] : NULL;
}

unsigned int col_probefmt_size(unsigned int type)
{
	return type < COL_PROBE_NR_EV ? sizes[type] : 0;
}
