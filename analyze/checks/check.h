/* SPDX-License-Identifier: MIT */
/*
 * analyze/checks/check.h - the checks of events.md §4, their counters and windows.
 *
 * A check compares one observation with the model at a time; consecutive
 * disagreements of one key (check, cpu, pid) coalesce into one window
 * (events.md §5: one row per contiguous disagreement). Windows go to a sink
 * the caller provides (cmd_analyze.c stores them, tests collect them), so the
 * analysis keeps no list that grows with the trace.
 */
#ifndef UCVAL_ANALYZE_CHECKS_CHECK_H
#define UCVAL_ANALYZE_CHECKS_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/rules.h"

/* X(enum suffix, check_id as in events.md §4 and the database) */
#define AN_CHECKS(X)							\
	X(RQ_CLAMP,		"rq_clamp")				\
	X(TASK_EFFECTIVE,	"task_effective")			\
	X(REQUEST_RESULT,	"request_result")			\
	X(FREQ_BELOW_MIN_CLAMP,	"freq_below_min_clamp")			\
	X(FREQ_ABOVE_MAX_CLAMP,	"freq_above_max_clamp")			\
	X(FREQ_PREDICTION,	"freq_prediction")			\
	X(GROUPS_EXHAUSTED,	"groups_exhausted")			\
	X(TRACE_INTEGRITY,	"trace_integrity")

enum an_check_id {
#define AN_CHECK_ENUM(name, id) AN_CHECK_##name,
	AN_CHECKS(AN_CHECK_ENUM)
#undef AN_CHECK_ENUM
	AN_CHECK__COUNT
};

/* Bit of a set of checks (an_replay_opts.checks) for a check. */
#define AN_CHECK_BIT(id)	(UINT32_C(1) << (id))
#define AN_CHECKS_ALL		((UINT32_C(1) << AN_CHECK__COUNT) - 1)

enum an_verdict {
	AN_PASS,
	AN_FAIL,
	AN_UNDECIDED,
};

/* Longest message of a window; longer text is cut. */
#define AN_WINDOW_MSG_LEN	160
/* Longest explanation chain of a window (lines "RULE  step  value"). */
#define AN_WINDOW_EXPLAIN_LEN	1024
/* Longest textual expected/observed value ("EINVAL", "512..1024"). */
#define AN_WINDOW_VALUE_LEN	24

/**
 * struct an_window - one contiguous window of disagreement, or of doubt
 * @check: the check
 * @is_fail: true: a FAIL window (a `mismatches` row); false: UNDECIDED
 * @cpu: CPU, -1 when not applicable
 * @pid: task, -1 when not applicable
 * @ts_start_ns: first observation of the window (trace clock)
 * @ts_end_ns: last instant of the window
 * @expected: the model's value (kHz, clamp value, errno ...)
 * @observed: the kernel's value
 * @expected_text: set instead of @expected for non-numeric values, else ""
 * @observed_text: likewise for @observed
 * @rule: spec rule ID the check enforced here ("VR5", "MR4", "S10")
 * @message: one line for a human, lower case, no full stop
 * @n_events: observations that disagreed inside the window
 * @explain: FAIL windows: the model's explanation chain at the window's
 *	     start, one step a line ("S9    raw target kHz   1250000"), or
 *	     NULL. Set by the window's tracker (an_win_set_explain()) and valid
 *	     only while the sink runs: a sink that keeps it copies the text.
 */
struct an_window {
	enum an_check_id check;
	bool is_fail;
	int cpu;
	int pid;
	uint64_t ts_start_ns;
	uint64_t ts_end_ns;
	long long expected;
	long long observed;
	char expected_text[AN_WINDOW_VALUE_LEN];
	char observed_text[AN_WINDOW_VALUE_LEN];
	const char *rule;
	char message[AN_WINDOW_MSG_LEN];
	uint64_t n_events;
	const char *explain;
};

/*
 * Where closed windows go. Return 0, or a negative code that stops the
 * analysis (e.g. the database failed).
 */
struct an_series;

typedef int (*an_window_sink_fn)(void *ctx, const struct an_window *w);

struct an_replay;

/**
 * struct an_freq_sink - where the frequency checks send what they hold the
 * kernel to, judgement by judgement (analyze/store/series.c records it in
 * freq_intervals); NULL callbacks receive nothing
 * @bound: freq_below_min_clamp and freq_above_max_clamp, whenever a key's
 *	   state changes: the floor (@is_floor) of @cpu or the ceiling of the
 *	   policy whose first CPU is @cpu, from @ts_ns; @is_decidable: the
 *	   check could judge, @khz (grace included; 0: no floor, UINT_MAX: no
 *	   ceiling) is in force and @obs_khz was observed
 * @freq: freq_prediction at every judgement of policy @policy_index (into
 *	  r->policy): the observed frequency (@has_obs, @obs_khz), the model's
 *	  OPP (@has_pred, @pred_khz) and, when @is_decidable, the range
 *	  @lo_khz..@hi_khz the kernel was held to, grace included
 * @ctx: passed to both
 */
struct an_freq_sink {
	void (*bound)(void *ctx, const struct an_replay *r, int cpu, bool is_floor,
		      uint64_t ts_ns, bool is_decidable, unsigned int obs_khz, unsigned int khz);
	void (*freq)(void *ctx, const struct an_replay *r, int policy_index, uint64_t ts_ns,
		     bool has_obs, unsigned int obs_khz, bool has_pred, unsigned int pred_khz,
		     bool is_decidable, unsigned int lo_khz, unsigned int hi_khz);
	void *ctx;
};

/**
 * struct an_check_stats - counters of one check over one trace
 * @n_checked: observations compared with the model
 * @n_failed: FAIL windows
 * @n_undecided: UNDECIDED windows (or observations that could not be
 *		 compared while the check had its inputs)
 * @has_input: the trace had what the check needs (events.md §4 "needs")
 * @is_hiding: an UNDECIDED window may hide a failure (exit status 3)
 * @reason: why the check is UNDECIDED as a whole (static text), or NULL
 */
struct an_check_stats {
	uint64_t n_checked;
	uint64_t n_failed;
	uint64_t n_undecided;
	bool has_input;
	bool is_hiding;
	const char *reason;
};

/* Entries of an_results.cover_memo (a power of two). */
#define AN_COVER_MEMO	128

/**
 * struct an_rule_cov - how one check used one rule of the model
 * @times: comparisons with the kernel whose expected value the rule decided
 * @decided_ns: trace time those comparisons cover (analyze/checks/cover.h)
 */
struct an_rule_cov {
	uint64_t times;
	uint64_t decided_ns;
};

/**
 * struct an_results - what one analysis produced, check by check
 * @stats: counters per check
 * @sink: receives every closed window
 * @sink_ctx: its context
 * @err: first error a sink returned; the analysis stops on it
 * @series: where the values over time are recorded (analyze/store/series.h), or
 *	    NULL (the default) to record none; set after an_results_init()
 * @freq_sink: receives the frequency checks' bounds and predictions (the
 *	       analysis points it at @series), or nothing (the default)
 * @cover: rule coverage per check and row of model_rules[] (cover.h)
 * @n_cover_foreign: rules a check cited that the spec does not define for
 *		     the variant: not counted in @cover (a bug of the check)
 * @cover_memo: rows of the rule ID strings seen, by address (the IDs are
 *		static strings): a lookup per comparison costs no string search
 */
struct an_results {
	struct an_check_stats stats[AN_CHECK__COUNT];
	an_window_sink_fn sink;
	void *sink_ctx;
	int err;
	struct an_series *series;
	struct an_freq_sink freq_sink;
	struct an_rule_cov cover[AN_CHECK__COUNT][MODEL_RULES_NR];
	uint64_t n_cover_foreign;
	struct { const char *id; int row; } cover_memo[AN_COVER_MEMO];
};

/**
 * struct an_win_track - the open window of one key (check, cpu, pid)
 * @is_open: a window is open
 * @w: the window being built
 * @explain: its explanation chain (malloc'd, see an_win_set_explain()), or
 *	     NULL; freed when the window is emitted or by an_win_release()
 *
 * Zero-initialized means closed; embed one per key that can disagree. A
 * check that sets explanations calls an_win_release() on its trackers when
 * it is freed (an analysis stopped by an error leaves windows open).
 */
struct an_win_track {
	bool is_open;
	struct an_window w;
	char *explain;
};

void an_win_discard(struct an_win_track *t);
bool an_win_is_early(const struct an_win_track *t, uint64_t from_ns, long long now);
bool an_explain_line(char *buf, size_t size, size_t *at, const char *rule, const char *label,
		     long long value);
const char *an_check_name(enum an_check_id check);
bool an_check_is_enabled(uint32_t checks, enum an_check_id id);
int an_check_from_name(const char *name, enum an_check_id *out);
enum an_verdict an_check_verdict(const struct an_check_stats *s);
const char *an_verdict_name(enum an_verdict v);

void an_results_init(struct an_results *res, an_window_sink_fn sink, void *ctx);
void an_results_finish(struct an_results *res);
void an_win_observe(struct an_results *res, struct an_win_track *t,
		    const struct an_window *obs);
void an_win_doubt(struct an_results *res, struct an_win_track *t,
		  const struct an_window *obs);
void an_win_doubt_hiding(struct an_results *res, struct an_win_track *t,
			 const struct an_window *obs, bool is_hiding);
void an_win_agree(struct an_results *res, struct an_win_track *t, uint64_t ts_ns);
void an_win_close(struct an_results *res, struct an_win_track *t, uint64_t ts_ns);
void an_win_undecided(struct an_results *res, const struct an_window *w);
void an_win_set_explain(struct an_win_track *t, const char *text);
void an_win_release(struct an_win_track *t);

#endif /* UCVAL_ANALYZE_CHECKS_CHECK_H */
