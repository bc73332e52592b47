/* SPDX-License-Identifier: MIT */
/*
 * Reference model of the schedutil cpufreq governor (schedutil.md S1..S28) and
 * of how rq clamps couple into it (uclamp-v3.md VS*, uclamp-mainline.md MS*).
 * Independent of the rq model: clamp values are plain inputs. Pure C, caller
 * storage only; every rule that changed across releases is a feature flag
 * derived from the release, so stable backports can be described too.
 */
#ifndef UCVAL_MODEL_SCHEDUTIL_H
#define UCVAL_MODEL_SCHEDUTIL_H

#include <stdbool.h>

#include "model.h"

/* OPPs a policy may list (sized for the largest known ARM/x86 tables). */
#define MODEL_SU_MAX_OPPS		64
/* CPUs one policy may span (policy->cpus). */
#define MODEL_SU_MAX_CPUS		32
/* Steps an explanation holds: one shared evaluation explains at most ~20. */
#define MODEL_SU_EXPLAIN_MAX		32
/* S15: rate limit when neither the platform nor the trace tells (µs). */
#define MODEL_SU_DEFAULT_RATE_LIMIT_US	1000
/* events.md §3: scheduler tick when the platform marker omits tick_us (HZ=250). */
#define MODEL_SU_DEFAULT_TICK_US	4000
/*
 * S2: the hook runs inside enqueue_task() and dequeue_task(), before the
 * sched_wakeup or sched_switch event that reports them: how long before that
 * event the kernel may already have acted (a few us on hardware, 14 to 84 us
 * seen under QEMU emulation, make check-kernel). A timing fact of traces, not
 * a rule the model computes: the frequency checks (--early-us default) and
 * the synthetic trace's truth file allow for it.
 */
#define MODEL_SU_EARLY_NS		100000ull
/* S9: the 1.25 headroom as the kernel computes it (tipping point util/cap = 0.8). */
#define MODEL_FREQ_HEADROOM(x)		((x) + ((x) >> 2))
/* S20: IOWAIT_BOOST_MIN, the first boost step in capacity units (1024 / 8). */
#define MODEL_SU_IOWAIT_BOOST_MIN	(MODEL_SCALE / 8)
/* S19: next_freq before the first commit on 4.11–4.17 (UINT_MAX). */
#define MODEL_SU_FREQ_INVALID		0xffffffffu

/* cpufreq_update_util() flags of one callback (S2). */
#define MODEL_SU_FLAG_IOWAIT		0x1	/* fair enqueue of a task waking from I/O */
#define MODEL_SU_FLAG_RT		0x2	/* 4.11–4.17 only: RT callback (S4) */
#define MODEL_SU_FLAG_DL		0x4	/* 4.11–4.17 only: DL callback (S4) */

/* How a CPU's utilization for frequency is computed (S4–S7). */
enum model_su_util_form {
	MODEL_SU_UTIL_LEGACY,	/* S4, 4.11–4.17: cfs util, RT/DL callbacks force max */
	MODEL_SU_UTIL_SUM,	/* S5/S6, VS1, MS3: clamp(cfs + rt), irq, bw_dl */
	MODEL_SU_UTIL_PERF,	/* S7, MS5, 6.8+: actual, min, max -> perf */
};

/* How util maps to a raw frequency (S8, S9). */
enum model_su_target_form {
	MODEL_SU_TARGET_OLD,	/* up to ≈5.19: (F + F/4) * util / cap */
	MODEL_SU_TARGET_PERF,	/* ≈6.0–6.7: F * (util + util/4) / cap */
	MODEL_SU_TARGET_REF,	/* 6.8+: F * perf / cap, non-invariant F = cur + cur/4 */
};

/* iowait boost state machine (S20–S22, VS3, MS4). */
enum model_su_iowait_form {
	MODEL_SU_IOWAIT_LEGACY,	/* S22: jump to cpuinfo max, halve per application */
	MODEL_SU_IOWAIT_KHZ,	/* S21: policy min doubling in kHz, ratio */
	MODEL_SU_IOWAIT_CAP,	/* S20: 128 doubling in capacity units */
};

/* What a limits change does to the next evaluation (S17; see model_su_features). */
enum model_su_forced_form {
	MODEL_SU_FORCED_LEGACY,	/* 4.11–4.17: next_freq = UINT_MAX, always committed */
	MODEL_SU_FORCED_ONCE,	/* 4.18–5.8: cache skipped once, equal result ignored */
	MODEL_SU_FORCED_CALL,	/* 5.9–≈6.13: driver called even for an equal result */
	MODEL_SU_FORCED_FLAGGED,/* ≈6.14: only NEED_UPDATE_LIMITS drivers skip the cache */
	MODEL_SU_FORCED_FIXED,	/* ≈6.15+ and stable backports: cache skipped, equal
				 * result calls only NEED_UPDATE_LIMITS drivers */
};

/* Which CPUs get a cpu_frequency event for a fast switch (S25). */
enum model_su_event_form {
	MODEL_SU_EVENT_ALWAYS,	/* 4.11–4.14: evaluating CPU, unchanged state too */
	MODEL_SU_EVENT_EVAL_CPU,/* 4.15–5.2: evaluating CPU, changes only */
	MODEL_SU_EVENT_POLICY,	/* 5.3+: every CPU of policy->cpus, each driver call */
};

/* Release-dependent behaviour; model_su_features_init() fills it from kver. */
struct model_su_features {
	enum model_su_util_form util_form;
	enum model_su_target_form target_form;
	enum model_su_iowait_form iowait_form;
	enum model_su_forced_form forced_form;
	enum model_su_event_form event_form;
	bool has_uclamp;		/* v3, or mainline 5.3+ */
	bool is_uclamp_keyed;		/* MR2/MS1: mainline 5.9+, clamps off until used */
	bool is_legacy_dl;		/* S4: ≈4.16–4.17 add bw_dl to cfs util */
	bool is_legacy_stale_now;	/* S12: stale age counted from now, not from the
					 * last frequency update (off: 4.11 form, the spec) */
	bool has_busy_hold;		/* S18: 4.12+ (and CONFIG_NO_HZ_COMMON) */
	bool is_hold_after_forced_check;/* S18: 5.3–5.11 skip sampling while forced */
	bool is_hold_decided_late;	/* S18: ≈5.12+ decided after next_f, not while forced */
	bool is_hold_skipped_capped;	/* MS6: mainline 5.18+ */
	bool is_hold_cache_restored;	/* S18: ≈5.15+ restore the cache, before: zero it */
	bool is_dl_forced;		/* S17: 4.19+ ignore_dl_rate_limit() */
	bool is_limits_snapped;		/* S10: 5.16+ limits stored snapped to OPPs */
	bool is_iowait_clamped;		/* MS4: mainline 5.18+ boost goes through MS1 */
	bool is_shared_max;		/* S14: ≈6.2+ max util, evaluating CPU's capacity */
};

/* A cpufreq policy as schedutil sees it (S1). Limits and cur change at run time. */
struct model_su_policy {
	unsigned int kver;		/* MODEL_KVER(); v3 is 4.19-based (VS4) */
	enum model_variant variant;
	enum model_fidelity fidelity;	/* v3: seed or intent (VQ5, VQ12) */
	bool is_sched_class;		/* v3 feature UCLAMP_SCHED_CLASS (VS1.4) */
	unsigned int nr_opps;
	unsigned int opp_khz[MODEL_SU_MAX_OPPS];	/* ascending */
	unsigned int max_freq_khz;	/* cpuinfo.max_freq */
	unsigned int ref_freq_khz;	/* 6.8+ arch reference frequency; 0: none (S8) */
	unsigned int min_khz;		/* policy->min (S27) */
	unsigned int max_khz;		/* policy->max (S27) */
	unsigned int cur_khz;		/* policy->cur */
	unsigned int capacity;		/* arch_scale_cpu_capacity() of its CPUs, 1..1024 */
	unsigned int rate_limit_us;	/* S15 */
	unsigned int tick_us;		/* TICK_NSEC / 1000: iowait reset, S12 */
	bool is_invariant;		/* frequency-invariant util: F = max (S8) */
	bool is_fast_switch;		/* S25; false: sugov kthread (S26) */
	bool is_nohz;			/* CONFIG_NO_HZ_COMMON: busy hold exists (S18) */
	bool is_need_update_limits;	/* driver flag CPUFREQ_NEED_UPDATE_LIMITS (S17) */
	unsigned int nr_cpus;
	int cpu[MODEL_SU_MAX_CPUS];	/* policy->cpus in mask order */
	struct model_su_features feat;
};

/* What the scheduler shows schedutil about one CPU at one instant (S4–S7). */
struct model_su_cpu_in {
	unsigned int util_cfs;		/* root cfs util (incl. util_est), <= capacity */
	unsigned int util_rt;		/* RT PELT, blocked part included (S23) */
	unsigned int util_dl;		/* DL PELT */
	unsigned int bw_dl;		/* DL running bandwidth, capacity units (S24) */
	unsigned int irq;		/* irq/steal PELT */
	bool is_rt_runnable;		/* an RT task is queued (4.11–4.17: RT callback) */
	bool is_dl_runnable;		/* a DL task other than sugov:N is queued */
	unsigned int rq_min;		/* rq UCLAMP_MIN as read (VR7, MR8) */
	unsigned int rq_max;		/* rq UCLAMP_MAX, idle-retained value included */
	bool is_rq_idle;		/* rq clamp IDLE flag: MIN reads 0 (VR11, MR4) */
	bool is_uclamp_used;		/* mainline static key sched_uclamp_used (MR2) */
	/* boost applied by model_su_expected(): capacity units on S20 kernels, kHz
	 * on S21/S22 ones; the governor (model_su_gov_*) tracks its own */
	unsigned int iowait_boost;
	/* idle entries of the CPU so far, any origin; only differences matter (S18) */
	unsigned long long idle_calls;
};

/* A CPU's utilization for frequency, as a ratio util / scale (S4–S7, S21). */
struct model_su_util {
	unsigned long long util;	/* 6.8+: perf, headroom included */
	unsigned long long scale;	/* capacity, or iowait boost max kHz (S21, S22) */
	unsigned int bw_min;		/* 6.8+ min (adjust_perf drivers) */
	bool is_max_freq;		/* 4.11–4.17 RT/DL: cpuinfo.max_freq directly (S4) */
};

/* One step of the chain util -> clamp -> raw target -> OPP. */
struct model_su_step {
	const char *rule;		/* spec rule ID, e.g. "S9", "VR8", "MS5" */
	const char *label;		/* short static text, e.g. "raw target kHz" */
	unsigned int nr_values;		/* 1 or 2 */
	unsigned long long value[2];
};

struct model_su_explain {
	unsigned int nr;
	bool is_truncated;		/* more steps happened than fit */
	struct model_su_step step[MODEL_SU_EXPLAIN_MAX];
};

/* The expected OPP of a policy from its CPUs' inputs (stateless). */
struct model_su_eval {
	unsigned int cpu_idx;		/* index (into policy->cpu) of the deciding CPU */
	struct model_su_util util;	/* its utilization */
	unsigned int raw_khz;		/* S9 */
	unsigned int freq_khz;		/* S10 */
};

/* A frequency bound from clamps (events.md §4 floor and ceiling). */
struct model_su_bound {
	bool is_bounded;		/* false: no ceiling (RT/DL runnable) */
	unsigned int cpu_idx;		/* CPU giving the bound */
	unsigned long long util;	/* bound util (ceiling: ratio util / scale) */
	unsigned long long scale;
	unsigned int raw_khz;
	unsigned int freq_khz;		/* the OPP */
};

/* Which CPUs get a cpu_frequency event because of one governor step (S25, S26). */
enum model_su_emit {
	MODEL_SU_EMIT_NONE,
	MODEL_SU_EMIT_EVAL_CPU,		/* one event, for the evaluating CPU */
	MODEL_SU_EMIT_POLICY,		/* one per CPU of policy->cpu[], in that order */
	MODEL_SU_EMIT_DEFERRED,		/* kthread woken: model_su_gov_work() emits later */
};

/* Per-CPU governor state (struct sugov_cpu). */
struct model_su_gov_cpu {
	unsigned int iowait_boost;	/* units of feat.iowait_form */
	bool is_iowait_pending;
	unsigned long long last_update_ns;	/* its previous callback; 0 at start */
	bool has_idle_calls;
	unsigned long long saved_idle_calls;
	unsigned int bw_dl;		/* at its last evaluation (S17) */
	/* 4.11–4.17 shared policies keep each CPU's last util and flags (S12) */
	unsigned int legacy_util;
	unsigned int legacy_flags;
};

/* Governor state of one policy (struct sugov_policy). */
struct model_su_gov {
	unsigned long long last_freq_update_ns;
	unsigned int next_freq_khz;
	unsigned int cached_raw_khz;
	bool is_limits_changed;		/* set by S27/S17, consumed by the gate */
	bool is_need_freq_update;
	bool is_work_in_progress;	/* slow path: kthread request pending (S26) */
	struct model_su_gov_cpu cpu[MODEL_SU_MAX_CPUS];
};

/* Outcome of one governor step. */
struct model_su_result {
	bool is_evaluated;		/* passed the gate (S15, S16) */
	bool is_forced;			/* a forced update was consumed (S17) */
	bool is_cached;			/* S11: previous next_freq reused */
	bool is_held;			/* S18 kept a higher next_freq */
	bool is_committed;		/* driver called / request stored (S19) */
	unsigned int raw_khz;
	unsigned int resolved_khz;	/* S10 result, before the hold */
	unsigned int next_freq_khz;	/* next_freq after this step */
	unsigned int freq_khz;		/* frequency of the events below (or requested) */
	enum model_su_emit emit;
	int emit_cpu;			/* CPU id for MODEL_SU_EMIT_EVAL_CPU */
};

/* Reasons model_su_policy_check() and model_su_cpu_check() reject input. */
#define MODEL_SU_REASONS							\
	_SU(OK,		"no error")						\
	_SU(KVER,	"kernel release before 4.11 has no schedutil")		\
	_SU(TOO_MANY,	"more OPPs or CPUs than the model holds")		\
	_SU(OPP_ZERO,	"OPP of 0 kHz")						\
	_SU(OPP_ORDER,	"OPPs not in strictly ascending order")			\
	_SU(MAX_FREQ,	"cpuinfo max_freq is 0")				\
	_SU(LIMITS,	"policy min above max, or a limit of 0 kHz")		\
	_SU(CAPACITY,	"capacity not in 1..1024")				\
	_SU(NO_CPUS,	"policy has no CPUs")					\
	_SU(CPU_ID,	"negative or repeated CPU id")				\
	_SU(UTIL,	"utilization above capacity")				\
	_SU(CLAMP,	"clamp value above 1024")				\
	_SU(CPU_IDX,	"CPU index outside the policy")

#define _SU(name, text) MODEL_SU_E_##name,
enum model_su_reason { MODEL_SU_REASONS MODEL_SU_E_CNT };
#undef _SU

struct model_su_diag {
	enum model_su_reason reason;
	int index;			/* OPP index, CPU index or -1 */
};

/* ---- setup and validation ---- */
void model_su_features_init(struct model_su_features *feat, unsigned int kver,
			    enum model_variant variant);
void model_su_policy_init(struct model_su_policy *p, unsigned int kver,
			  enum model_variant variant);
int model_su_policy_set_opps(struct model_su_policy *p, const unsigned int *opp_khz,
			     unsigned int nr);
int model_su_policy_check(const struct model_su_policy *p, struct model_su_diag *diag);
int model_su_cpu_check(const struct model_su_policy *p, const struct model_su_cpu_in *in,
		       unsigned int nr, struct model_su_diag *diag);
const char *model_su_reason_str(enum model_su_reason reason);
unsigned int model_su_default_rate_limit_us(unsigned int kver,
					    unsigned int transition_delay_us,
					    unsigned int latency_us);

/* ---- pure computations ---- */
void model_su_cpu_util(const struct model_su_policy *p, const struct model_su_cpu_in *in,
		       struct model_su_util *out, struct model_su_explain *ex);
unsigned int model_su_raw_khz(const struct model_su_policy *p, unsigned long long util,
			      unsigned long long scale);
void model_su_limits_effective(const struct model_su_policy *p, unsigned int *min_khz,
			       unsigned int *max_khz);
unsigned int model_su_resolve(const struct model_su_policy *p, unsigned int target_khz);
void model_su_resolve_band(const struct model_su_policy *p, unsigned int raw_khz,
			   unsigned int *lo_khz, unsigned int *hi_khz);
unsigned int model_su_cpu_raw(const struct model_su_policy *p, const struct model_su_cpu_in *in,
			      bool *is_plain);
int model_su_expected(const struct model_su_policy *p, const struct model_su_cpu_in *in,
		      struct model_su_eval *out, struct model_su_explain *ex);
int model_su_floor(const struct model_su_policy *p, const struct model_su_cpu_in *in,
		   struct model_su_bound *out, struct model_su_explain *ex);
int model_su_ceiling(const struct model_su_policy *p, const struct model_su_cpu_in *in,
		     struct model_su_bound *out, struct model_su_explain *ex);

/* ---- governor state machine (schedutil_gov.c: S11, S15–S22, S25–S27) ---- */
void model_su_gov_start(const struct model_su_policy *p, struct model_su_gov *g);
int model_su_gov_update(struct model_su_policy *p, struct model_su_gov *g,
			unsigned int cpu_idx, unsigned long long time_ns,
			unsigned int flags, const struct model_su_cpu_in *in,
			struct model_su_result *res, struct model_su_explain *ex);
int model_su_gov_limits(struct model_su_policy *p, struct model_su_gov *g,
			unsigned int min_khz, unsigned int max_khz,
			struct model_su_result *res);
void model_su_gov_work(struct model_su_policy *p, struct model_su_gov *g,
		       struct model_su_result *res);
unsigned long long model_su_gov_earliest_change_ns(const struct model_su_policy *p,
						   const struct model_su_gov *g,
						   unsigned long long now_ns);

/* ---- explanation helpers (shared by schedutil.c and schedutil_gov.c) ---- */
void model_su_explain_add(struct model_su_explain *ex, const char *rule,
			  const char *label, unsigned int nr_values,
			  unsigned long long v0, unsigned long long v1);

#endif /* UCVAL_MODEL_SCHEDUTIL_H */
