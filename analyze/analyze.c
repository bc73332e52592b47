// SPDX-License-Identifier: MIT
/*
 * analyze/analyze.c - one trace through the reader, the replay and the
 * checks (analyze.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "analyze/analyze.h"
#include "analyze/reader.h"

#define PROGRESS_EVERY	1000000

static void fill_replay(struct an_summary *sum, const struct an_replay *r)
{
	if (!r)
		return;
	sum->nr_cpus_model = r->nr_cpus;
	sum->nr_cpus_known = r->nr_known_cpus;
	if (r->is_started) {
		sum->model = r->variant == MODEL_V3 ? "v3" : "mainline";
		sum->model_source = r->model_source;
		sum->groups = r->sys.cfg.groups;
		sum->kver = r->kver;
	}
	if (r->plat.kernel[0] && !sum->kernel[0])
		snprintf(sum->kernel, sizeof(sum->kernel), "%s", r->plat.kernel);
	sum->nr_policies = r->nr_policies;
	sum->nr_tasks = r->nr_tasks_seen;
	sum->nr_switches = r->nr_switches;
	sum->nr_lost_reports = r->nr_lost_reports;
	sum->nr_lost_events = r->nr_lost_events;
	sum->nr_resets = r->nr_resets;
	sum->nr_learnt = r->nr_learnt;
	sum->nr_requests = r->nr_requests;
	memcpy(sum->notes, r->notes, sizeof(sum->notes));
	sum->nr_notes = r->nr_notes;
}

static bool any_freq_check(const struct an_replay *r)
{
	return an_replay_is_enabled(r, AN_CHECK_FREQ_BELOW_MIN_CLAMP) ||
	       an_replay_is_enabled(r, AN_CHECK_FREQ_ABOVE_MAX_CLAMP) ||
	       an_replay_is_enabled(r, AN_CHECK_FREQ_PREDICTION);
}

int an_analyze_path(const char *path, const struct an_analyze_opts *opts,
		    struct an_results *res, struct an_summary *sum, struct an_diag *d)
{
	static const struct an_analyze_opts none;
	const struct an_reader_info *info;
	struct an_replay_opts ropts;
	struct an_reader *rd = NULL;
	struct an_replay *r = NULL;
	struct an_event ev;
	struct an_diag ed;
	uint64_t every;
	int err;

	if (!opts)
		opts = &none;
	memset(sum, 0, sizeof(*sum));
	sum->model = "";
	sum->model_source = "";
	every = opts->progress_every ? opts->progress_every : PROGRESS_EVERY;
	err = an_reader_open(path, &rd, d);
	if (err)
		return err;
	info = an_reader_info(rd);
	snprintf(sum->format, sizeof(sum->format), "%s", info->format_name);
	sum->file_version = info->file_version;
	snprintf(sum->kernel, sizeof(sum->kernel), "%s", info->kernel_release);
	ropts = opts->replay;
	if (!ropts.trace_kernel)
		ropts.trace_kernel = info->kernel_release;
	err = an_replay_new(&ropts, res, &r, d);
	if (err)
		goto out_close;
	for (;;) {
		an_diag_clear(&ed);
		err = an_reader_next(rd, &ev, &ed);
		if (err == 0)
			break;
		if (err < 0) {
			if (!an_error_is_recoverable(err)) {
				*d = ed;
				goto out_free;
			}
			if (!sum->n_errors++)
				an_diag_format(&ed, sum->first_error, sizeof(sum->first_error));
			continue;
		}
		if (!r->is_started && !opts->replay.nr_cpus)
			r->opts.nr_cpus = (unsigned int)(info->nr_cpus > 0 ? info->nr_cpus : 0);
		if (!sum->has_events || ev.ts_ns < sum->t_start_ns)
			sum->t_start_ns = ev.ts_ns;
		if (!sum->has_events || ev.ts_ns > sum->t_end_ns)
			sum->t_end_ns = ev.ts_ns;
		sum->has_events = true;
		sum->n_events++;
		if ((unsigned int)ev.type < AN_EV__COUNT)
			sum->n_type[ev.type]++;
		err = an_replay_event(r, &ev, d);
		if (err) {
			an_diag_set_file(d, "analyze", path);
			d->line = ev.pos;
			goto out_free;
		}
		if (opts->progress && !(sum->n_events % every))
			opts->progress(opts->progress_ctx, sum->n_events);
	}
	sum->n_unknown = info->nr_unknown;
	sum->nr_cpus = info->nr_cpus > 0 ? (unsigned int)info->nr_cpus : 0;
	if (r->is_started && sum->n_type[AN_EV_SCHED_SWITCH] &&
	    !sum->n_type[AN_EV_SCHED_WAKEUP] && !sum->n_type[AN_EV_SCHED_WAKEUP_NEW])
		an_replay_note(r, "no sched_wakeup events: a task counts as queued only "
			       "from its switch-in");
	if (r->is_started && any_freq_check(r))
		an_replay_note(r, "irq, DL and RT utilization taken as 0 where the trace "
			       "does not show them");
	err = an_replay_finish(r, sum->t_end_ns);
	if (err)
		an_diag_fail(d, err, "storing the results failed");
	else
		an_results_finish(res);
out_free:
	fill_replay(sum, r);
	an_replay_free(r);
out_close:
	an_reader_close(rd);
	return err;
}
