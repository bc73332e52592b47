// SPDX-License-Identifier: MIT
/*
 * analyze/store/series.c - record a trace's values over time (series.h).
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/malloc.h"
#include "analyze/replay/replay.h"
#include "analyze/store/series.h"

/* Smallest pid hash; it doubles when half full. */
#define HASH_MIN	256

/**
 * an_series_init() - an empty series
 * @s: the series
 */
void an_series_init(struct an_series *s)
{
	memset(s, 0, sizeof(*s));
	an_recbuf_init(&s->recs, sizeof(struct an_series_rec));
}

/**
 * an_series_release() - free everything @s holds
 * @s: the series; empty afterwards
 */
void an_series_release(struct an_series *s)
{
	an_recbuf_release(&s->recs);
	free(s->task);
	free(s->task_hash);
	free(s->cpu);
	free(s->policy);
	free(s->clamp);
	free(s->freq);
	free(s->fstate);
	free(s->floor);
	an_series_init(s);
}

static void fail(struct an_series *s, int err)
{
	if (!s->err)
		s->err = err;
}

static void push(struct an_series *s, const struct an_series_rec *rec)
{
	int err = s->sink ? s->sink(s->sink_ctx, rec) : an_recbuf_add(&s->recs, rec);

	if (err) {
		fail(s, err);
		return;
	}
	if (rec->kind == AN_SER_CLAMP)
		s->nr_clamp++;
	else if (rec->kind == AN_SER_FREQ)
		s->nr_freq++;
	else if (rec->kind == AN_SER_TASK)
		s->nr_tasks_out++;
	else
		s->nr_requests++;
}

/* ---- coalesced intervals ---- */

static bool same_values(const struct an_series_rec *a, const struct an_series_rec *b)
{
	/* a slot's policy can be another one after a cpu marker rebuilt them */
	if (a->has != b->has || a->cpu != b->cpu || a->policy != b->policy || a->pid != b->pid)
		return false;
	for (int i = 0; i < AN_SER_NR_VALUES; i++)
		if ((a->has & AN_SER_HAS(i)) && a->v[i] != b->v[i])
			return false;
	return true;
}

static void close_open(struct an_series *s, struct an_series_open *o, uint64_t ts_ns)
{
	if (!o->is_open)
		return;
	o->rec.ts_end_ns = ts_ns > o->rec.ts_start_ns ? ts_ns : o->rec.ts_start_ns;
	/*
	 * An unknown runqueue is a gap, not a row; nor is a state that lasted
	 * no time (several checks updating one policy at one instant).
	 */
	if ((o->rec.kind != AN_SER_CLAMP || o->rec.has) && o->rec.ts_end_ns > o->rec.ts_start_ns)
		push(s, &o->rec);
	o->is_open = false;
}

/* @rec holds the values from @ts_ns on: a new interval when they changed. */
static void update(struct an_series *s, struct an_series_open *o, struct an_series_rec *rec,
		   uint64_t ts_ns)
{
	if (o->is_open && same_values(&o->rec, rec))
		return;
	if (o->is_open && ts_ns < o->rec.ts_start_ns)
		ts_ns = o->rec.ts_start_ns;
	close_open(s, o, ts_ns);
	rec->ts_start_ns = ts_ns;
	o->rec = *rec;
	o->is_open = true;
}

static int setup(struct an_series *s, const struct an_replay *r)
{
	s->nr_open = r->nr_cpus;
	s->clamp = an_calloc(s->nr_open, sizeof(*s->clamp));
	s->freq = an_calloc(s->nr_open, sizeof(*s->freq));
	s->fstate = an_calloc(s->nr_open, sizeof(*s->fstate));
	s->floor = an_calloc(s->nr_open, sizeof(*s->floor));
	s->cpu = an_calloc(s->nr_open, sizeof(*s->cpu));
	if (!s->clamp || !s->freq || !s->fstate || !s->floor || !s->cpu)
		return -ENOMEM;
	for (unsigned int i = 0; i < s->nr_open; i++)
		s->cpu[i].cpu = (int)i;
	return 0;
}

/* uclamp-v3.md VR7/VR8, uclamp-mainline.md MR8: the rq values the model holds. */
static void clamp_cpu(struct an_series *s, const struct an_replay *r, int cpu, uint64_t ts_ns)
{
	const struct an_cpu *c = &r->cpu[cpu];
	const struct an_series_open *o = &s->clamp[cpu];
	const unsigned int both = AN_SER_HAS(AN_SER_CL_MIN) | AN_SER_HAS(AN_SER_CL_MAX);
	struct an_series_rec rec;

	/* the open interval has these values (what update() would find), at once */
	if (o->is_open && (c->is_known ?
			   o->rec.has == both &&
			   o->rec.v[AN_SER_CL_MIN] == c->rq_now[MODEL_UCLAMP_MIN] &&
			   o->rec.v[AN_SER_CL_MAX] == c->rq_now[MODEL_UCLAMP_MAX] :
			   !o->rec.has))
		return;
	rec = (struct an_series_rec){ .kind = AN_SER_CLAMP, .cpu = cpu, .policy = -1, .pid = -1 };
	if (c->is_known) {
		rec.has = both;
		rec.v[AN_SER_CL_MIN] = c->rq_now[MODEL_UCLAMP_MIN];
		rec.v[AN_SER_CL_MAX] = c->rq_now[MODEL_UCLAMP_MAX];
		if (!s->cpu[cpu].was_known) {
			s->cpu[cpu].was_known = true;
			s->cpu[cpu].known_ns = ts_ns;
		}
	}
	update(s, &s->clamp[cpu], &rec, ts_ns);
}

static void clamp_step(struct an_series *s, const struct an_replay *r, uint64_t ts_ns)
{
	if (r->step.is_reset) {
		for (unsigned int i = 0; i < s->nr_open; i++)
			clamp_cpu(s, r, (int)i, ts_ns);
		return;
	}
	for (unsigned int i = 0; i < r->nr_dirty; i++)
		if ((unsigned int)r->dirty[i] < s->nr_open)
			clamp_cpu(s, r, r->dirty[i], ts_ns);
}

/*
 * The freq_intervals row of policy @pi from @ts_ns: the observed frequency,
 * freq_prediction's OPP and accepted range when it could judge, otherwise
 * the range the bound checks held the policy to (the highest floor of its
 * CPUs, its ceiling), each side only when there is one.
 */
static void freq_compose(struct an_series *s, const struct an_replay *r, int pi, uint64_t ts_ns)
{
	const struct an_freq_policy *p = &r->policy[pi];
	struct an_series_fstate *f = &s->fstate[pi];
	struct an_series_rec rec = { .kind = AN_SER_FREQ, .pid = -1 };
	bool is_ok = true, has_floor = false;
	unsigned int floor = 0;

	f->gen = p->gen;
	rec.cpu = p->su.nr_cpus ? p->su.cpu[0] : -1;
	rec.policy = p->id;
	if (f->has_obs) {
		rec.has |= AN_SER_HAS(AN_SER_FQ_OBS);
		rec.v[AN_SER_FQ_OBS] = f->obs_khz;
	}
	if (f->has_pred) {
		rec.has |= AN_SER_HAS(AN_SER_FQ_EXP);
		rec.v[AN_SER_FQ_EXP] = f->pred_khz;
	}
	if (f->is_pred_decidable) {
		rec.has |= AN_SER_HAS(AN_SER_FQ_LO) | AN_SER_HAS(AN_SER_FQ_HI) |
			   AN_SER_HAS(AN_SER_FQ_OK);
		rec.v[AN_SER_FQ_LO] = f->pred_lo_khz;
		rec.v[AN_SER_FQ_HI] = f->pred_hi_khz;
		rec.v[AN_SER_FQ_OK] = f->obs_khz >= f->pred_lo_khz && f->obs_khz <= f->pred_hi_khz;
		update(s, &s->freq[pi], &rec, ts_ns);
		return;
	}
	for (unsigned int c = 0; c < p->su.nr_cpus; c++) {
		const struct an_series_floor *fl = &s->floor[p->su.cpu[c]];

		if (fl->has_floor && fl->khz > floor) {
			floor = fl->khz;
			has_floor = true;
		}
	}
	if (has_floor) {
		rec.has |= AN_SER_HAS(AN_SER_FQ_LO);
		rec.v[AN_SER_FQ_LO] = floor;
		is_ok = f->obs_khz >= floor;
	}
	if (f->has_ceiling) {
		rec.has |= AN_SER_HAS(AN_SER_FQ_HI);
		rec.v[AN_SER_FQ_HI] = f->ceiling_khz;
		is_ok = is_ok && f->obs_khz <= f->ceiling_khz;
	}
	if (f->has_obs && (has_floor || f->has_ceiling)) {
		rec.has |= AN_SER_HAS(AN_SER_FQ_OK);
		rec.v[AN_SER_FQ_OK] = is_ok;
	}
	update(s, &s->freq[pi], &rec, ts_ns);
}

/**
 * record_freq() - a policy's observed and expected frequency from @ts_ns
 * (an_freq_sink.freq)
 * @ctx: the series
 * @r: the replay
 * @policy_index: index into r->policy
 * @ts_ns: the instant
 * @has_obs: a frequency was observed, @obs_khz
 * @obs_khz: it
 * @has_pred: the model predicted @pred_khz
 * @pred_khz: it (schedutil.md S10: an OPP)
 * @is_decidable: @lo_khz..@hi_khz is the range the kernel was held to
 * @lo_khz: lowest accepted, with grace
 * @hi_khz: highest accepted, with grace
 *
 * Called by freq_prediction at every judgement; a row is recorded when a
 * value changes.
 */
static void record_freq(void *ctx, const struct an_replay *r, int policy_index, uint64_t ts_ns,
			bool has_obs, unsigned int obs_khz, bool has_pred, unsigned int pred_khz,
			bool is_decidable, unsigned int lo_khz, unsigned int hi_khz)
{
	struct an_series *s = ctx;
	struct an_series_fstate *f;

	if (!s->freq || policy_index < 0 || (unsigned int)policy_index >= s->nr_open)
		return;
	f = &s->fstate[policy_index];
	/*
	 * Most calls repeat what the open row holds: it was composed from the
	 * same values, floors and policy (every change composes at once).
	 */
	if (s->freq[policy_index].is_open && f->gen == r->policy[policy_index].gen &&
	    f->has_obs == has_obs && f->obs_khz == obs_khz && f->has_pred == has_pred &&
	    f->pred_khz == pred_khz && f->is_pred_decidable == is_decidable &&
	    f->pred_lo_khz == lo_khz && f->pred_hi_khz == hi_khz)
		return;
	f->has_obs = has_obs;
	f->obs_khz = obs_khz;
	f->has_pred = has_pred;
	f->pred_khz = pred_khz;
	f->is_pred_decidable = is_decidable;
	f->pred_lo_khz = lo_khz;
	f->pred_hi_khz = hi_khz;
	freq_compose(s, r, policy_index, ts_ns);
}

/**
 * record_bound() - the floor or ceiling a bound check holds a CPU to
 * (an_freq_sink.bound)
 * @ctx: the series
 * @r: the replay
 * @cpu: the CPU (freq_below_min_clamp) or its policy's first CPU
 *	 (freq_above_max_clamp)
 * @is_floor: a floor (else a ceiling)
 * @ts_ns: from when
 * @is_decidable: the check could judge: @khz is in force and @obs_khz seen
 * @obs_khz: the observed frequency
 * @khz: the bound, grace included (0: no floor, UINT_MAX: no ceiling)
 *
 * Called by an_fq_key_judge() whenever a bound check's state changes; it
 * fills accepted_lo_khz/accepted_hi_khz of freq_intervals where
 * freq_prediction cannot judge.
 */
static void record_bound(void *ctx, const struct an_replay *r, int cpu, bool is_floor,
			 uint64_t ts_ns, bool is_decidable, unsigned int obs_khz, unsigned int khz)
{
	struct an_series *s = ctx;
	const struct an_cpu *c = an_replay_cpu(r, cpu);
	struct an_series_fstate *f;
	int pi;

	if (!s->freq || !c || c->policy < 0 || (unsigned int)c->policy >= s->nr_open ||
	    (unsigned int)cpu >= s->nr_open)
		return;
	pi = c->policy;
	f = &s->fstate[pi];
	if (is_decidable) {
		f->has_obs = true;
		f->obs_khz = obs_khz;
	}
	if (is_floor) {
		s->floor[cpu].has_floor = is_decidable && khz > 0;
		s->floor[cpu].khz = khz;
	} else {
		f->has_ceiling = is_decidable && khz != UINT_MAX;
		f->ceiling_khz = khz;
	}
	freq_compose(s, r, pi, ts_ns);
}

/* ---- tasks ---- */

static size_t hash_pid(int pid, size_t size)
{
	return ((uint32_t)pid * 2654435761u) & (size - 1);
}

/* Index the rows in a hash of @size slots (a power of two). */
static int rehash(struct an_series *s, size_t size)
{
	int *h = an_calloc(size, sizeof(*h));

	if (!h)
		return -ENOMEM;
	for (size_t i = 0; i < s->nr_tasks; i++) {
		size_t at = hash_pid(s->task[i].pid, size);

		while (h[at])
			at = (at + 1) & (size - 1);
		h[at] = (int)i + 1;
	}
	free(s->task_hash);
	s->task_hash = h;
	s->hash_size = size;
	return 0;
}

static struct an_series_task *task_get(struct an_series *s, int pid, uint64_t ts_ns)
{
	struct an_series_task *t;
	size_t at;

	if (s->hash_size) {
		for (at = hash_pid(pid, s->hash_size); s->task_hash[at];
		     at = (at + 1) & (s->hash_size - 1))
			if (s->task[s->task_hash[at] - 1].pid == pid)
				return &s->task[s->task_hash[at] - 1];
	}
	if ((s->nr_tasks + 1) * 2 > s->hash_size &&
	    rehash(s, s->hash_size ? s->hash_size * 2 : HASH_MIN))
		return NULL;
	if (s->nr_tasks == s->alloc_tasks) {
		size_t n = s->alloc_tasks ? s->alloc_tasks * 2 : HASH_MIN;

		t = n < SIZE_MAX / sizeof(*t) ? an_realloc(s->task, n * sizeof(*t)) : NULL;
		if (!t)
			return NULL;
		s->task = t;
		s->alloc_tasks = n;
	}
	for (at = hash_pid(pid, s->hash_size); s->task_hash[at]; at = (at + 1) & (s->hash_size - 1))
		;
	s->task_hash[at] = (int)++s->nr_tasks;
	t = &s->task[s->nr_tasks - 1];
	memset(t, 0, sizeof(*t));
	t->pid = pid;
	t->first_ns = ts_ns;
	return t;
}

/* A task the event names: seen at @ts_ns, with @comm when not NULL or empty. */
static void task_seen(struct an_series *s, int pid, const char *comm, uint64_t ts_ns, bool is_run)
{
	struct an_series_task *t;

	if (pid <= 0)
		return;
	t = task_get(s, pid, ts_ns);
	if (!t) {
		fail(s, -ENOMEM);
		return;
	}
	t->tidy_gen = s->task_gen;
	an_comm_set(t->comm, comm);
	if (ts_ns < t->first_ns)
		t->first_ns = ts_ns;
	if (ts_ns > t->last_ns)
		t->last_ns = ts_ns;
	t->n_runs += is_run;
}

/* Write @t out as an AN_SER_TASK record. */
static void task_out(struct an_series *s, const struct an_series_task *t)
{
	struct an_series_rec rec = {
		.kind = AN_SER_TASK, .cpu = -1, .policy = -1, .pid = t->pid,
		.ts_start_ns = t->first_ns, .ts_end_ns = t->last_ns,
	};

	rec.task.n_runs = t->n_runs;
	memcpy(rec.task.comm, t->comm, sizeof(rec.task.comm));
	push(s, &rec);
}

/*
 * Once the rows are many: write out those of the pids no event named since
 * the previous tidy, and give their memory back. The next tidy comes when
 * the rows left have doubled, so each row is looked at a bounded number of
 * times on average.
 */
static void tasks_tidy(struct an_series *s)
{
	size_t kept = 0, size = HASH_MIN, min = s->task_tidy_min ? s->task_tidy_min :
					       AN_SERIES_TIDY_MIN;
	struct an_series_task *t;

	if (s->nr_tasks < s->task_tidy_at)
		return;
	for (size_t i = 0; i < s->nr_tasks; i++) {
		if (s->task[i].tidy_gen == s->task_gen)
			s->task[kept++] = s->task[i];
		else
			task_out(s, &s->task[i]);
	}
	s->task_gen++;
	s->task_tidy_at = min == 1 ? 0 : kept * 2 > min ? kept * 2 : min;
	if (kept == s->nr_tasks)
		return;
	s->nr_tasks = kept;
	while (size < (kept + 1) * 2)
		size *= 2;
	if (rehash(s, size)) {
		fail(s, -ENOMEM);
		return;
	}
	if (size < s->alloc_tasks) {
		t = an_realloc(s->task, size * sizeof(*t));
		if (t) {
			s->task = t;
			s->alloc_tasks = size;
		}
	}
}

static void tasks_step(struct an_series *s, const struct an_event *ev)
{
	uint64_t ts = ev->ts_ns;

	switch (ev->type) {
	case AN_EV_SCHED_SWITCH:
		task_seen(s, ev->sw.prev_pid, ev->sw.prev_comm, ts, false);
		task_seen(s, ev->sw.next_pid, ev->sw.next_comm, ts, true);
		break;
	case AN_EV_SCHED_WAKEUP:
	case AN_EV_SCHED_WAKEUP_NEW:
		task_seen(s, ev->wakeup.pid, ev->wakeup.comm, ts, false);
		break;
	case AN_EV_SCHED_MIGRATE_TASK:
		task_seen(s, ev->migrate.pid, ev->migrate.comm, ts, false);
		break;
	case AN_EV_SCHED_PROCESS_FORK:
		task_seen(s, ev->fork.parent_pid, ev->fork.parent_comm, ts, false);
		task_seen(s, ev->fork.child_pid, ev->fork.child_comm, ts, false);
		break;
	case AN_EV_SCHED_PROCESS_EXIT:
		task_seen(s, ev->task.pid, ev->task.comm, ts, false);
		break;
	default:
		break;
	}
}

/* ---- the observer ---- */

static void request_step(struct an_series *s, const struct an_replay *r)
{
	const struct an_replay_req *q = &r->step.req;
	struct an_series_rec rec = {
		.kind = AN_SER_REQUEST, .cpu = -1, .policy = -1, .pid = q->pid,
		.ts_start_ns = r->step.ts_ns, .ts_end_ns = r->step.ts_ns,
		.has = AN_SER_HAS(AN_SER_RQ_FLAGS),
	};

	bool is_v3 = r->variant == MODEL_V3;
	unsigned long long min_flag = is_v3 ? MODEL_V3_FLAG_UTIL_CLAMP_MIN :
					      MODEL_ML_FLAG_UTIL_CLAMP_MIN;
	unsigned long long max_flag = is_v3 ? MODEL_V3_FLAG_UTIL_CLAMP_MAX :
					      MODEL_ML_FLAG_UTIL_CLAMP_MAX;

	rec.v[AN_SER_RQ_FLAGS] = (long long)q->flags;
	if (q->flags & min_flag) {
		rec.has |= AN_SER_HAS(AN_SER_RQ_MIN);
		rec.v[AN_SER_RQ_MIN] = q->util_min;
	}
	if (q->flags & max_flag) {
		rec.has |= AN_SER_HAS(AN_SER_RQ_MAX);
		rec.v[AN_SER_RQ_MAX] = q->util_max;
	}
	if (q->has_ret) {
		rec.has |= AN_SER_HAS(AN_SER_RQ_RET);
		rec.v[AN_SER_RQ_RET] = q->ret;
	}
	if (q->is_applied) {
		rec.has |= AN_SER_HAS(AN_SER_RQ_MODEL_RET);
		rec.v[AN_SER_RQ_MODEL_RET] = q->model_ret;
	}
	push(s, &rec);
}

static int on_event(void *ctx, struct an_replay *r, const struct an_event *ev, bool is_after)
{
	struct an_series *s = ctx;

	if (!is_after)
		return s->err;	/* not called: AN_OBS_NO_BEFORE */
	if (!s->clamp && setup(s, r))
		fail(s, -ENOMEM);
	if (s->err)
		return s->err;
	tasks_tidy(s);
	tasks_step(s, ev);
	clamp_step(s, r, ev->ts_ns);
	if (r->step.has_req)
		request_step(s, r);
	return s->err;
}

static void snapshot_cpus(struct an_series *s, const struct an_replay *r)
{
	for (unsigned int i = 0; i < s->nr_open; i++) {
		const struct an_cpu *c = &r->cpu[i];

		s->cpu[i].policy = c->policy >= 0 ? r->policy[c->policy].id : -1;
		s->cpu[i].capacity = c->has_capacity ? c->capacity : 0;
		if (c->is_seen || s->cpu[i].was_known)
			s->nr_cpus = i + 1;
	}
}

static void snapshot_policies(struct an_series *s, const struct an_replay *r)
{
	s->policy = an_calloc(r->nr_policies ? r->nr_policies : 1, sizeof(*s->policy));
	if (!s->policy) {
		fail(s, -ENOMEM);
		return;
	}
	s->nr_policies = r->nr_policies;
	for (unsigned int i = 0; i < r->nr_policies; i++) {
		const struct an_freq_policy *p = &r->policy[i];
		struct an_series_policy *sp = &s->policy[i];

		sp->id = p->id;
		sp->nr_cpus = p->su.nr_cpus;
		memcpy(sp->cpu, p->su.cpu, sizeof(sp->cpu));
		if (p->has_opps) {
			sp->nr_opps = p->su.nr_opps;
			memcpy(sp->opp_khz, p->su.opp_khz, sizeof(sp->opp_khz));
		}
		if (p->has_limits) {
			sp->min_khz = p->su.min_khz;
			sp->max_khz = p->su.max_khz;
		}
		if (p->has_rate_limit)
			sp->rate_limit_us = p->su.rate_limit_us;
	}
}

static int by_pid(const void *a, const void *b)
{
	int x = ((const struct an_series_task *)a)->pid, y = ((const struct an_series_task *)b)->pid;

	return (x > y) - (x < y);
}

static void on_finish(void *ctx, struct an_replay *r, uint64_t end_ns)
{
	struct an_series *s = ctx;

	if (!s->clamp)
		return;
	for (unsigned int i = 0; i < s->nr_open; i++) {
		close_open(s, &s->clamp[i], end_ns);
		close_open(s, &s->freq[i], end_ns);
	}
	snapshot_cpus(s, r);
	snapshot_policies(s, r);
	if (s->nr_tasks)
		qsort(s->task, s->nr_tasks, sizeof(*s->task), by_pid);
	free(s->task_hash);
	s->task_hash = NULL;
	s->hash_size = 0;
}

/**
 * an_series_attach() - record @s from the replay @r
 * @r: the replay
 * @s: the series, owned by the caller; it outlives @r
 *
 * Return: 0, or -ENOMEM.
 */
int an_series_attach(struct an_replay *r, struct an_series *s)
{
	struct an_observer obs = { .name = "series", .event = on_event, .finish = on_finish,
				   .skip = AN_OBS_NO_BEFORE, .ctx = s };

	return an_replay_add_observer(r, &obs);
}

/**
 * an_series_freq_sink() - the sink through which @s records what the
 * frequency checks hold the kernel to (an_results.freq_sink)
 * @s: the series, attached with an_series_attach()
 *
 * Return: the sink; its context is @s.
 */
struct an_freq_sink an_series_freq_sink(struct an_series *s)
{
	return (struct an_freq_sink){ .bound = record_bound, .freq = record_freq, .ctx = s };
}

struct walk {
	int (*fn)(void *ctx, const struct an_series_rec *rec);
	void *ctx;
};

static int walk_one(void *ctx, const void *rec)
{
	struct walk *k = ctx;

	return k->fn(k->ctx, rec);
}

/**
 * an_series_for_each() - call @fn on every interval and request recorded
 * @s: the series
 * @fn: the callback; a non-zero return stops the walk
 * @ctx: passed to @fn
 *
 * Return: 0, the first non-zero return of @fn, -ENOMEM or -EIO.
 */
int an_series_for_each(struct an_series *s, int (*fn)(void *ctx, const struct an_series_rec *rec),
		       void *ctx)
{
	struct walk k = { fn, ctx };

	return an_recbuf_for_each(&s->recs, walk_one, &k);
}
