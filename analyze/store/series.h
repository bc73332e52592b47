/* SPDX-License-Identifier: MIT */
/*
 * analyze/store/series.h - what a trace looked like over time, for reports and
 * queries (schema v2 tables clamp_intervals, freq_intervals, task_requests,
 * tasks, cpus, policies): not verdicts, but the values verdicts were
 * computed from.
 *
 * The caller owns a struct an_series and hands it to the analysis in
 * an_results.series; the analysis (analyze.c) then attaches one more
 * observer that fills it (an_series_attach()) and points the frequency
 * checks' an_results.freq_sink at it (an_series_freq_sink()). Intervals are
 * coalesced (a row when a value changes, not per event) and kept in a record
 * buffer that spills to a temporary file, so memory grows with CPUs, never
 * with events. The `tasks` rows are kept by pid while their tasks show; once
 * they are many, the rows of the pids no event named since the previous
 * tidy go out as AN_SER_TASK records the same way, and the database merges
 * the rows of one pid (an_series_task_merge()), so memory follows the tasks
 * a trace is using, not every pid it ever showed. Without a series nothing
 * is recorded and nothing costs.
 */
#ifndef UCVAL_ANALYZE_STORE_SERIES_H
#define UCVAL_ANALYZE_STORE_SERIES_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "analyze/checks/check.h"
#include "analyze/read/event.h"
#include "analyze/store/recbuf.h"
#include "model/schedutil.h"

enum an_series_kind {
	AN_SER_CLAMP,		/* a CPU's rq clamp values in the model */
	AN_SER_FREQ,		/* a policy's observed and expected frequency */
	AN_SER_REQUEST,		/* a clamp request with its result */
	AN_SER_TASK,		/* a `tasks` row written out early (series.c) */
};

/* Bits of an_series_rec.has: which of v[] are known (else NULL in SQL). */
#define AN_SER_HAS(i)	(1u << (i))

/* v[] of an AN_SER_CLAMP record */
enum { AN_SER_CL_MIN, AN_SER_CL_MAX };
/* v[] of an AN_SER_FREQ record */
enum { AN_SER_FQ_OBS, AN_SER_FQ_EXP, AN_SER_FQ_LO, AN_SER_FQ_HI, AN_SER_FQ_OK };
/* v[] of an AN_SER_REQUEST record */
enum { AN_SER_RQ_FLAGS, AN_SER_RQ_MIN, AN_SER_RQ_MAX, AN_SER_RQ_RET, AN_SER_RQ_MODEL_RET };
#define AN_SER_NR_VALUES	5

/**
 * struct an_series_rec - one row of clamp_intervals, freq_intervals or
 * task_requests
 * @kind: which
 * @cpu: CPU (FREQ: the policy's first CPU), -1 for a request
 * @policy: FREQ: policy id; else -1
 * @pid: REQUEST: target task; else -1
 * @ts_start_ns: start (REQUEST: its time)
 * @ts_end_ns: end (REQUEST: its time)
 * @has: AN_SER_HAS() bits of the known @v
 * @v: values, indexed by the kind's enum above
 * @task: AN_SER_TASK: the row's times switched in and comm ("" none); its
 *	  pid is @pid, its first_ns @ts_start_ns, its last_ns @ts_end_ns
 */
struct an_series_rec {
	enum an_series_kind kind;
	int cpu;
	int policy;
	int pid;
	uint64_t ts_start_ns;
	uint64_t ts_end_ns;
	unsigned int has;
	union {
		long long v[AN_SER_NR_VALUES];
		struct {
			uint64_t n_runs;
			char comm[AN_COMM_LEN];
		} task;
	};
};

/*
 * One row of `tasks`: one per pid (a reused pid keeps its last comm).
 * @tidy_gen is private (series.c).
 */
struct an_series_task {
	int pid;
	char comm[AN_COMM_LEN];
	uint32_t tidy_gen;
	uint64_t first_ns;
	uint64_t last_ns;
	uint64_t n_runs;		/* switched in */
};

/*
 * The row of @into's pid after the later row @from of the same pid: the
 * earliest first_ns, the latest last_ns, the runs added up, and @from's
 * comm unless it has none. The database does the same (db.c).
 */
static inline void an_series_task_merge(struct an_series_task *into,
					const struct an_series_task *from)
{
	if (from->comm[0])
		memcpy(into->comm, from->comm, sizeof(into->comm));
	if (from->first_ns < into->first_ns)
		into->first_ns = from->first_ns;
	if (from->last_ns > into->last_ns)
		into->last_ns = from->last_ns;
	into->n_runs += from->n_runs;
}

/* One row of `cpus`. */
struct an_series_cpu {
	int cpu;
	int policy;			/* policy id, -1 unknown */
	unsigned int capacity;		/* 0 unknown */
	bool was_known;
	uint64_t known_ns;		/* first time its runqueue was known */
};

/* One row of `policies`. */
struct an_series_policy {
	int id;
	unsigned int nr_cpus;
	int cpu[MODEL_SU_MAX_CPUS];
	unsigned int nr_opps;		/* 0 unknown */
	unsigned int opp_khz[MODEL_SU_MAX_OPPS];
	unsigned int min_khz;		/* 0 unknown (with max) */
	unsigned int max_khz;
	unsigned int rate_limit_us;	/* 0 unknown */
};

/* The open interval of one key, while the replay runs (series.c). */
struct an_series_open {
	bool is_open;
	struct an_series_rec rec;
};

/* What the frequency checks last said of a policy (series.c). */
struct an_series_fstate {
	bool has_obs, has_pred, is_pred_decidable, has_ceiling;
	unsigned int obs_khz, pred_khz, pred_lo_khz, pred_hi_khz, ceiling_khz;
	uint64_t gen;		/* an_freq_policy.gen of the last row composed */
};

/* The floor freq_below_min_clamp last held a CPU to (0: none). */
struct an_series_floor {
	bool has_floor;
	unsigned int khz;
};

/**
 * struct an_series - everything recorded for one trace
 * @recs: struct an_series_rec, in the order the intervals closed
 * @nr_clamp: clamp intervals recorded; @nr_freq, @nr_requests likewise
 * @task: tasks, @nr_tasks of them (sorted by pid once finished): the rows
 *	  not written out as AN_SER_TASK records, @nr_tasks_out of those
 * @task_tidy_min: rows above which the idle ones are written out; 0 (as
 *		   an_series_init() sets it): AN_SERIES_TIDY_MIN; 1: at every
 *		   event (tests: the rows in the database are the same). Set it
 *		   before the replay starts
 * @cpu: CPUs the replay held, @nr_cpus of them (set when finished)
 * @policy: cpufreq policies, @nr_policies (set when finished)
 * @err: first error (-ENOMEM, -EIO); the analysis stops on it
 *
 * The rest is the recorder's state, private to series.c.
 */
/*
 * Where closed intervals and requests go instead of the record buffer, as
 * they close: ucval analyze streams them into the database while the trace
 * is still read. Return 0, or a negative code that stops the recording.
 */
typedef int (*an_series_sink_fn)(void *ctx, const struct an_series_rec *rec);

struct an_series {
	struct an_recbuf recs;
	an_series_sink_fn sink;		/* set after an_series_init(); NULL: @recs */
	void *sink_ctx;
	uint64_t nr_clamp;
	uint64_t nr_freq;
	uint64_t nr_requests;
	struct an_series_task *task;
	size_t nr_tasks;
	uint64_t nr_tasks_out;
	size_t task_tidy_min;
	struct an_series_cpu *cpu;
	unsigned int nr_cpus;
	struct an_series_policy *policy;
	unsigned int nr_policies;
	int err;
	/* private */
	size_t alloc_tasks;
	int *task_hash;			/* open addressing: index + 1, 0 empty */
	size_t hash_size;
	size_t task_tidy_at;		/* rows that make the next tidy write out */
	uint32_t task_gen;		/* tidies so far */
	struct an_series_open *clamp;	/* per CPU */
	struct an_series_open *freq;	/* per policy index */
	struct an_series_fstate *fstate;	/* per policy index */
	struct an_series_floor *floor;	/* per CPU */
	unsigned int nr_open;
};

/* `tasks` rows above which the idle ones are written out, by default. */
#define AN_SERIES_TIDY_MIN	4096

struct an_replay;

void an_series_init(struct an_series *s);
void an_series_release(struct an_series *s);
int an_series_attach(struct an_replay *r, struct an_series *s);
struct an_freq_sink an_series_freq_sink(struct an_series *s);
int an_series_for_each(struct an_series *s, int (*fn)(void *ctx, const struct an_series_rec *rec),
		       void *ctx);

#endif /* UCVAL_ANALYZE_STORE_SERIES_H */
