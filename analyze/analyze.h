/* SPDX-License-Identifier: MIT */
/*
 * analyze/analyze.h - analyze one trace file: reader -> replay -> checks.
 * cmd_analyze.c calls this and stores the results; nothing here prints.
 */
#ifndef UCVAL_ANALYZE_ANALYZE_H
#define UCVAL_ANALYZE_ANALYZE_H

#include <stdbool.h>
#include <stdint.h>

#include "analyze/checks/check.h"
#include "lib/diag.h"
#include "analyze/read/event.h"
#include "analyze/read/readinfo.h"
#include "analyze/read/source.h"
#include "analyze/replay/replay.h"

/**
 * struct an_analyze_opts - options of one analysis
 * @replay: replay options (model, groups, checks, platform ...); its
 *	    nr_cpus and trace_kernel are filled from the trace when 0/NULL
 * @progress: called every @progress_every events with the count so far
 *	      (a progress line on a terminal), may be NULL
 * @progress_ctx: its context
 * @progress_every: events between calls; 0: 1000000
 */
/* Where the replay runs while the reader reads (analyze.c, struct feed). */
enum an_feed_mode {
	AN_FEED_AUTO,		/* a thread when a timed start shows it pays */
	AN_FEED_THREAD,		/* always a thread of its own (tests) */
	AN_FEED_NONE,		/* the calling thread, reading as it goes */
};

struct an_analyze_opts {
	struct an_replay_opts replay;
	enum an_feed_mode feed;
	/* who also sees every byte of the input (the trace's hash), may be NULL */
	const struct an_source_tap *tap;
	/* called once the trace opened, before its first event (may be NULL) */
	void (*on_open)(void *ctx);
	void *on_open_ctx;
	void (*progress)(void *ctx, uint64_t n_events);
	void *progress_ctx;
	uint64_t progress_every;
};

/**
 * struct an_summary - what an analysis saw and assumed
 * @format: "trace.dat", "ftrace-text", "systrace-html" or "perfetto"
 * @file_version: trace.dat version, 0 for text
 * @n_events: events read (LOST_EVENTS included)
 * @n_unknown: of which events ucval does not use
 * @n_errors: lines or records skipped (recoverable reader errors)
 * @first_error: the first of them, as an_diag_format() renders it, or ""
 * @has_events: at least one event: @t_start_ns/@t_end_ns are meaningful
 * @t_start_ns: first timestamp (trace clock)
 * @t_end_ns: last (largest) timestamp
 * @kernel: release the trace or the platform names, "" unknown
 * @nr_cpus: CPUs the trace declares, 0 when it does not say
 * @nr_cpus_model: CPUs the model held
 * @nr_cpus_known: CPUs whose runqueue became known
 * @n_type: events per canonical type
 * @model: "v3" or "mainline" ("" when the replay never started)
 * @model_source: why that model ("option", "platform marker", ...)
 * @groups: v3 groups or mainline buckets used
 * @kver: release the model and schedutil features used (MODEL_KVER)
 * @nr_policies: cpufreq policies known
 * @nr_tasks: distinct tasks seen (pid reuse counts again)
 * @nr_switches: sched_switch events replayed
 * @nr_lost_reports: lost-event reports
 * @nr_lost_events: events lost, as far as the trace counts them
 * @nr_resets: times the replay forgot the runqueues
 * @nr_learnt: tasks found running that no event had queued
 * @nr_requests: requests given to the model
 * @nr_unrecorded: task moves between CPUs taken as migrations the capture
 *		   did not record (no sched_migrate_task)
 * @ev_list: the capture's own list of its events, if any (readinfo.h)
 * @ev_listed: the event types it names (AN_EV_BIT()), 0 without a list
 * @notes: assumptions the analysis made
 * @nr_notes: how many
 */
struct an_summary {
	char format[16];
	int file_version;
	uint64_t n_events;
	uint64_t n_unknown;
	uint64_t n_errors;
	char first_error[AN_DIAG_MSG_LEN + AN_DIAG_FILE_LEN];
	bool has_events;
	uint64_t t_start_ns;
	uint64_t t_end_ns;
	char kernel[AN_MARKER_STR_LEN];
	unsigned int nr_cpus;
	unsigned int nr_cpus_model;
	unsigned int nr_cpus_known;
	uint64_t n_type[AN_EV__COUNT];
	const char *model;
	const char *model_source;
	unsigned int groups;
	unsigned int kver;
	unsigned int nr_policies;
	uint64_t nr_tasks;
	uint64_t nr_switches;
	uint64_t nr_lost_reports;
	uint64_t nr_lost_events;
	uint64_t nr_resets;
	uint64_t nr_learnt;
	uint64_t nr_requests;
	uint64_t nr_unrecorded;
	enum an_ev_list ev_list;
	uint64_t ev_listed;
	char notes[AN_REPLAY_MAX_NOTES][AN_REPLAY_NOTE_LEN];
	unsigned int nr_notes;
};

/**
 * an_analyze_replay_new() - a replay with the analysis' observers attached:
 * the checks @opts enables, in the order of an_checks_builtin[]
 * (analyze/checks/checks.c), then the series of @res if it has one
 * @opts: replay options, copied (may be NULL: every check, all defaults)
 * @res: results (an_results_init() done by the caller) that receive the
 *	 checks' windows and counters, and res->series; borrowed for the
 *	 replay's life
 * @out: the new replay, to be freed with an_replay_free()
 * @d: diagnostic on failure
 *
 * Return: 0, -ENOMEM, or an_replay_new()'s error.
 */
int an_analyze_replay_new(const struct an_replay_opts *opts, struct an_results *res,
			  struct an_replay **out, struct an_diag *d);

/**
 * an_analyze_path() - analyze the trace at @path
 * @path: the trace (any supported format; a file, pipe, FIFO or device)
 * @opts: options, may be NULL for the defaults
 * @res: results (an_results_init() done by the caller): counters and the
 *	 window sink
 * @sum: summary to fill (also on failure, as far as the analysis went)
 * @d: diagnostic on failure
 *
 * Lines or records the reader cannot decode are skipped and counted
 * (@sum->n_errors). Memory stays bounded by tasks and CPUs.
 *
 * Return: 0, a reader error (negative errno, AN_E_FORMAT, AN_E_CORRUPT ...),
 * a platform file error, -ENOMEM, or the window sink's error.
 */
int an_analyze_path(const char *path, const struct an_analyze_opts *opts,
		    struct an_results *res, struct an_summary *sum, struct an_diag *d);

#endif /* UCVAL_ANALYZE_ANALYZE_H */
