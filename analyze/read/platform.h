/* SPDX-License-Identifier: MIT */
/*
 * analyze/read/platform.h - what ucval knows about the machine a trace came from:
 * CPUs, cpufreq policies with their OPPs and limits, capacities, the uclamp
 * configuration and the kernel release (events.md §3 `platform` and `cpu`
 * markers, cpu_frequency_limits, or `--platform FILE`).
 *
 * The platform file is either LISA's platform.json (keys used: cpus_count,
 * clusters, freqs, cpu_capacities or nrg_model.<cluster>.cpu.cap_max,
 * kernel.release; everything else is ignored) or ucval's own line format,
 * detected by its first non-blank character ('{' is JSON):
 *
 *   # comment; blank lines allowed; one statement a line, key=value words
 *   platform cpus=6 model=v3 groups=5 scale=1024 tick_us=4000 kernel=4.19.0
 *   cpu cpu=0 policy=0 capacity=447 freqs=450000,575000,700000 min=450000
 *       max=850000 rate_limit_us=1000
 *
 * i.e. exactly the keys of the `ucval: platform` and `ucval: cpu` markers
 * (events.md §3), one marker a line without the "ucval:" prefix; a `sysctl`
 * line is accepted too. Unknown keys are ignored like in markers; a
 * malformed value or line is an error naming the file and the line.
 */
#ifndef UCVAL_ANALYZE_READ_PLATFORM_H
#define UCVAL_ANALYZE_READ_PLATFORM_H

#include <stdbool.h>

#include "lib/diag.h"
#include "analyze/read/marker.h"

/* CPUs a platform description may list. */
#define AN_PLATFORM_MAX_CPUS	1024

/**
 * struct an_platform_cpu - one CPU as the platform describes it
 * @is_listed: the CPU appeared in a cpu marker, a cluster or a cpu line
 * @policy: policy id (cluster index for LISA files), -1 unknown; set once
 *	    @is_listed
 * @capacity: 1..1024, 0 unknown
 * @nr_freqs: OPPs in @freqs_khz (ascending), 0 unknown
 * @freqs_khz: OPPs
 * @min_khz: policy minimum, 0 unknown
 * @max_khz: policy maximum, 0 unknown
 * @cur_khz: frequency at the snapshot, 0 unknown
 * @rate_limit_us: schedutil rate limit, 0 unknown
 */
struct an_platform_cpu {
	bool is_listed;
	int policy;
	unsigned int capacity;
	unsigned int nr_freqs;
	unsigned int freqs_khz[AN_MARKER_MAX_FREQS];
	unsigned int min_khz;
	unsigned int max_khz;
	unsigned int cur_khz;
	unsigned int rate_limit_us;
};

/**
 * struct an_platform - platform description (file, markers)
 * @has_platform: a platform statement (marker, file line, LISA file) was seen
 * @nr_cpus: CPUs, 0 unknown
 * @model: uclamp variant, AN_MODEL_UNKNOWN when not said
 * @task_group: CONFIG_UCLAMP_TASK_GROUP (true when absent)
 * @invariant: frequency-invariant utilization (true when absent)
 * @groups: v3 groups / mainline buckets, 0 unknown
 * @scale: units of clamp values in markers (1024 when absent)
 * @tick_us: scheduler tick (0 unknown: 4000 is used)
 * @kernel: release string, "" unknown
 * @has_sysctl: @sysctl holds values of a sysctl line (file only)
 * @sysctl: util_min, util_max, util_min_rt_default (-1: absent)
 * @nr_listed: highest listed CPU + 1
 * @cpu: per-CPU data, @nr_listed entries meaningful
 */
struct an_platform {
	bool has_platform;
	unsigned int nr_cpus;
	enum an_model model;
	bool task_group;
	bool invariant;
	unsigned int groups;
	unsigned int scale;
	unsigned int tick_us;
	char kernel[AN_MARKER_STR_LEN];
	bool has_sysctl;
	long long sysctl[3];
	unsigned int nr_listed;
	struct an_platform_cpu cpu[AN_PLATFORM_MAX_CPUS];
};

/**
 * an_platform_init() - an empty platform (nothing known, defaults of §3)
 * @p: platform
 */
void an_platform_init(struct an_platform *p);

/**
 * an_platform_init_zeroed() - an_platform_init() of memory already zeroed
 * @p: platform, all bytes zero (calloc())
 *
 * Writes the header's defaults only: the per-CPU array (nearly all of the
 * struct's 290 KB) is left untouched, so calloc()'s fresh pages are not
 * faulted in for a trace that lists a few CPUs.
 */
void an_platform_init_zeroed(struct an_platform *p);

/**
 * an_platform_load() - read a platform file (LISA platform.json or ucval's
 * line format, see above)
 * @p: platform, an_platform_init()ed; the file's data is merged into it
 * @path: the file
 * @d: diagnostic on failure: file, line, reason
 *
 * Return: 0, a negative errno (cannot read), AN_E_SYNTAX (malformed JSON or
 * line) or AN_E_VALUE (a value out of range, e.g. CPU id, OPP order).
 */
int an_platform_load(struct an_platform *p, const char *path, struct an_diag *d);

/**
 * an_platform_parse() - like an_platform_load() on text in memory
 * @p: platform
 * @text: file content (need not be NUL-terminated)
 * @len: its length
 * @name: file name for diagnostics
 * @d: diagnostic on failure
 *
 * Return: as an_platform_load().
 */
int an_platform_parse(struct an_platform *p, const char *text, size_t len,
		      const char *name, struct an_diag *d);

/**
 * an_platform_apply_marker() - merge a platform or cpu marker
 * @p: platform
 * @m: marker of kind AN_MARKER_PLATFORM or AN_MARKER_CPU (others ignored)
 *
 * Return: 1 when it changed @p, 0 when ignored, -EINVAL for a CPU id
 * beyond AN_PLATFORM_MAX_CPUS.
 */
int an_platform_apply_marker(struct an_platform *p, const struct an_marker *m);

#endif /* UCVAL_ANALYZE_READ_PLATFORM_H */
