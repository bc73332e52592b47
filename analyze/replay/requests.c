// SPDX-License-Identifier: MIT
/*
 * analyze/replay/requests.c - clamp requests of the replay: the sysctl, task,
 * cgroup and setattr markers (events.md §3), uclamp_request, uclamp_tg, and
 * what uclamp_task_eff (and MediaTek's sched_task_uclamp) teaches about a
 * task's own request.
 *
 * Values in markers are in the platform's scale units, which are the model's
 * ABI units (cfg.abi_scale: v3 100 or 1024, mainline 1024). uclamp_request
 * and uclamp_tg values are taken in the same units; uclamp_task_eff values
 * are capacity units (0..1024), as the kernel stores them.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "analyze/read/alias.h"
#include "analyze/replay/requests.h"
#include "analyze/replay/tgroups.h"
#include "model/rq.h"

static unsigned long long clamp_flag(const struct an_replay *r, int id)
{
	if (r->variant == MODEL_V3)
		return id == MODEL_UCLAMP_MIN ? MODEL_V3_FLAG_UTIL_CLAMP_MIN :
						MODEL_V3_FLAG_UTIL_CLAMP_MAX;
	return id == MODEL_UCLAMP_MIN ? MODEL_ML_FLAG_UTIL_CLAMP_MIN : MODEL_ML_FLAG_UTIL_CLAMP_MAX;
}

/* Flags that make a clamp-only call leave the policy alone (MA4); v3 has none. */
static unsigned long long keep_flags(const struct an_replay *r)
{
	return r->variant == MODEL_V3 ? 0 : MODEL_ML_FLAG_KEEP_POLICY | MODEL_ML_FLAG_KEEP_PARAMS;
}

static unsigned int abi_max(const struct an_replay *r)
{
	return r->sys.cfg.abi_scale;
}

/* Capacity units -> ABI units (VP2 for the v3 percent ABI). */
static unsigned int to_abi(const struct an_replay *r, unsigned int v)
{
	if (r->variant == MODEL_V3 && r->sys.cfg.abi_scale == 100)
		return model_v3_to_pct(v);
	return v;
}

/*
 * Errors the model decides (VA4, VA6, VA7, VG7, MA1, MA2). Others (EPERM,
 * ESRCH, EBUSY, EFAULT ...) come from permissions or policy parameters the
 * trace does not show: the request is not given to the model at all.
 */
static bool is_modelled_ret(int ret)
{
	return ret >= 0 || ret == -EINVAL || ret == -ERANGE || ret == -ENOSPC ||
	       ret == -EOPNOTSUPP || ret == -E2BIG;
}

static int request(struct an_replay *r, int pid, unsigned long long flags, unsigned int vmin,
		   unsigned int vmax, bool has_ret, int ret)
{
	struct model_attr attr = {
		.size = MODEL_SCHED_ATTR_SIZE_VER1, .flags = flags, .policy = -1,
		.util_min = vmin, .util_max = vmax,
	};
	struct an_replay_req *q = &r->step.req;
	struct an_task *t = an_replay_task_get(r, pid, NULL, AN_PRIO_NONE);
	int mret;

	if (!t)
		return -ENOMEM;
	if (has_ret) {
		r->step.has_req = true;
		*q = (struct an_replay_req){ .pid = pid, .flags = flags, .util_min = vmin,
					     .util_max = vmax, .has_ret = true, .ret = ret };
		if (!is_modelled_ret(ret))
			return 0;
	}
	mret = model_setattr(&r->sys, &t->mt, &attr);
	if (has_ret) {
		q->is_applied = true;
		q->model_ret = mret;
	}
	if (mret >= 0)
		for (int id = 0; id < MODEL_UCLAMP_CNT; id++)
			if (flags & clamp_flag(r, id)) {
				t->is_req_known[id] = true;
				t->is_req_forked[id] = false;
			}
	r->nr_requests++;
	an_replay_touch_all(r, AN_RQ_OP_REQUEST);
	return 0;
}

void an_requests_sysctl(struct an_replay *r, const long long val[3])
{
	static const enum model_sysctl which[3] = {
		MODEL_SYSCTL_UTIL_MIN, MODEL_SYSCTL_UTIL_MAX, MODEL_SYSCTL_UTIL_MIN_RT_DEFAULT,
	};
	/* raising min above the current max: write max first (VP4, MA8) */
	bool is_max_first = val[0] >= 0 && val[1] >= 0 &&
			    val[0] > (long long)r->sys.sysctl[MODEL_SYSCTL_UTIL_MAX];
	static const int order[2][3] = { { 0, 1, 2 }, { 1, 0, 2 } };

	for (int k = 0; k < 3; k++) {
		int i = order[is_max_first][k];
		long long old = r->sys.sysctl[which[i]];

		if (val[i] < 0)
			continue;
		if (i == 2 && r->variant == MODEL_V3)
			continue;	/* no RT default sysctl in v3 */
		model_sysctl_write(&r->sys, which[i], val[i]);
		if (r->sys.sysctl[which[i]] != old)
			r->step.is_sysctl_write = true;
	}
	r->nr_requests++;
	an_replay_touch_all(r, AN_RQ_OP_SYSCTL);
}

/*
 * The root group's uclamp_tg (mainline): a sched_util_clamp_{min,max}
 * write sets the root group's requests to the sysctls, walks the groups
 * and re-accounts the queued tasks before the write returns (MA8, MT5,
 * MR7), so the trace shows the kernel applying it before the sysctl marker
 * that follows. The sysctl @id takes @v here when it changes.
 */
static void root_write(struct an_replay *r, int id, unsigned int v)
{
	long long val[3] = { -1, -1, -1 };
	enum model_sysctl which = id == MODEL_UCLAMP_MIN ? MODEL_SYSCTL_UTIL_MIN :
				  MODEL_SYSCTL_UTIL_MAX;

	r->step.is_sysctl_event = true;
	if (r->sys.sysctl[which] == v)
		return;
	val[id == MODEL_UCLAMP_MIN ? 0 : 1] = v;
	an_requests_sysctl(r, val);
}

static int tg_write(struct an_replay *r, const char *path, int id, unsigned int v)
{
	struct model_tg *tg;
	char buf[32];
	int err = an_tgroups_get(r->tgroups, &r->sys, path, &tg);

	if (err == -ENOMEM)
		return err;
	if (!err && !tg->parent && r->variant == MODEL_MAINLINE && r->sys.cfg.task_group) {
		root_write(r, id, v);
		return 0;
	}
	if (err || !tg->parent) {
		an_replay_note(r, "clamps of cgroup '%.60s' not applied", path);
		return 0;
	}
	model_tg_text(r->variant, v, buf, sizeof(buf));
	model_tg_write(&r->sys, tg, (enum model_clamp_id)id, buf);
	r->nr_requests++;
	an_replay_touch_all(r, AN_RQ_OP_GROUP);
	return 0;
}

static int on_cgroup(struct an_replay *r, const struct an_marker *m)
{
	bool has_min = an_marker_has(m, AN_MK_CGROUP_UTIL_MIN);
	bool has_max = an_marker_has(m, AN_MK_CGROUP_UTIL_MAX);
	struct model_tg *tg;
	int err = 0;

	if (!an_marker_has(m, AN_MK_CGROUP_PATH))
		return 0;
	/* MIN above the group's current MAX is refused in v3 (VA10): max first */
	if (has_min && has_max &&
	    an_tgroups_get(r->tgroups, &r->sys, m->cgroup.path, &tg) != -ENOMEM &&
	    m->cgroup.util_min > to_abi(r, (unsigned int)tg->req[MODEL_UCLAMP_MAX].value)) {
		err = tg_write(r, m->cgroup.path, MODEL_UCLAMP_MAX, m->cgroup.util_max);
		has_max = false;
	}
	if (!err && has_min)
		err = tg_write(r, m->cgroup.path, MODEL_UCLAMP_MIN, m->cgroup.util_min);
	if (!err && has_max)
		err = tg_write(r, m->cgroup.path, MODEL_UCLAMP_MAX, m->cgroup.util_max);
	return err;
}

static enum model_class policy_class(enum an_policy p)
{
	switch (p) {
	case AN_POLICY_FIFO:
	case AN_POLICY_RR:
		return MODEL_CLASS_RT;
	case AN_POLICY_DEADLINE:
		return MODEL_CLASS_DL;
	default:
		return MODEL_CLASS_FAIR;
	}
}

/*
 * A task marker describes the task as it is: absent clamp keys mean "no
 * request", an absent cgroup leaves its group as the replay has it (the
 * root group unless told) and takes it as known.
 */
static int on_task(struct an_replay *r, const struct an_marker *m)
{
	struct an_task *t;
	unsigned long long flags = 0;
	int err;

	if (!an_marker_has(m, AN_MK_TASK_PID) || !m->task.pid)
		return 0;
	t = an_replay_task_get(r, (int)m->task.pid, m->task.comm, AN_PRIO_NONE);
	if (!t)
		return -ENOMEM;
	if (t->mt.is_dead)
		return 0;
	if (an_marker_has(m, AN_MK_TASK_POLICY) && policy_class(m->task.policy) != t->mt.cls) {
		int cpu = t->mt.cpu;

		model_task_set_class(&r->sys, &t->mt, policy_class(m->task.policy));
		t->is_req_forked[MODEL_UCLAMP_MIN] = false;	/* MT4 may reset it */
		if (cpu >= 0)
			an_replay_touch(r, cpu, AN_RQ_OP_REQUEST);
	}
	if (an_marker_has(m, AN_MK_TASK_CGROUP)) {
		struct model_tg *tg;

		err = an_tgroups_get(r->tgroups, &r->sys, m->task.cgroup, &tg);
		if (err == -ENOMEM)
			return err;
		model_task_move_tg(&r->sys, &t->mt, tg);
		an_replay_touch_all(r, AN_RQ_OP_GROUP);
		t->is_tg_known = !err;
	} else {
		t->is_tg_known = true;
	}
	if (an_marker_has(m, AN_MK_TASK_RESET_ON_FORK))
		t->mt.reset_on_fork = m->task.reset_on_fork;
	if (an_marker_has(m, AN_MK_TASK_UTIL_MIN))
		flags |= clamp_flag(r, MODEL_UCLAMP_MIN);
	if (an_marker_has(m, AN_MK_TASK_UTIL_MAX))
		flags |= clamp_flag(r, MODEL_UCLAMP_MAX);
	for (int id = 0; id < MODEL_UCLAMP_CNT; id++)
		if (!(flags & clamp_flag(r, id)))
			t->is_req_known[id] = true;	/* no request */
	if (!flags)
		return 0;
	return request(r, t->mt.pid, flags | keep_flags(r),
		       an_marker_has(m, AN_MK_TASK_UTIL_MIN) ? m->task.util_min : 0,
		       an_marker_has(m, AN_MK_TASK_UTIL_MAX) ? m->task.util_max : abi_max(r),
		       false, 0);
}

static int on_setattr(struct an_replay *r, const struct an_event *ev)
{
	const struct an_marker *m = &ev->print.marker;
	int pid = an_marker_has(m, AN_MK_SETATTR_PID) && m->setattr.pid ?
		  (int)m->setattr.pid : ev->pid;
	unsigned long long flags;

	if (pid <= 0)
		return 0;
	if (an_marker_has(m, AN_MK_SETATTR_FLAGS)) {
		flags = m->setattr.flags;
	} else {
		flags = keep_flags(r);
		if (an_marker_has(m, AN_MK_SETATTR_UTIL_MIN))
			flags |= clamp_flag(r, MODEL_UCLAMP_MIN);
		if (an_marker_has(m, AN_MK_SETATTR_UTIL_MAX))
			flags |= clamp_flag(r, MODEL_UCLAMP_MAX);
	}
	return request(r, pid, flags,
		       an_marker_has(m, AN_MK_SETATTR_UTIL_MIN) ? m->setattr.util_min : 0,
		       an_marker_has(m, AN_MK_SETATTR_UTIL_MAX) ? m->setattr.util_max : abi_max(r),
		       an_marker_has(m, AN_MK_SETATTR_RET), m->setattr.ret);
}

static int on_uclamp_request(struct an_replay *r, const struct an_event *ev)
{
	const struct an_ev_request *q = &ev->request;
	int ret_bit = an_alias_field_index(AN_EV_UCLAMP_REQUEST, "ret", 3);
	bool has_ret = ret_bit >= 0 && (ev->present & (UINT32_C(1) << ret_bit));

	if (q->pid <= 0 || (q->clamp_id != MODEL_UCLAMP_MIN && q->clamp_id != MODEL_UCLAMP_MAX))
		return 0;
	return request(r, q->pid, clamp_flag(r, q->clamp_id) | keep_flags(r),
		       q->clamp_id == MODEL_UCLAMP_MIN ? q->value : 0,
		       q->clamp_id == MODEL_UCLAMP_MAX ? q->value : abi_max(r), has_ret, q->ret);
}

/*
 * uclamp_task_eff shows the task's own request (value): when the model
 * holds another one, the kernel is right about what was asked, so the
 * model is given that request (VT1/MT1 are then checked on it). Only a
 * request the model derived at a fork is its own answer (MA7), at the
 * child's first showing: the step keeps it for task_effective to judge. The
 * request is @value when @has_value, the kernel's effective value
 * @effective when @has_effective.
 */
static int learn(struct an_replay *r, int pid, const char *comm, int id, bool has_value,
		 unsigned int value, bool has_effective, unsigned int effective)
{
	struct model_attr attr = {
		.size = MODEL_SCHED_ATTR_SIZE_VER1, .policy = -1,
		.util_min = 0, .util_max = abi_max(r),
	};
	bool is_first_shown;
	struct an_task *t;
	int ret;

	if (pid <= 0 || (id != MODEL_UCLAMP_MIN && id != MODEL_UCLAMP_MAX))
		return 0;
	t = an_replay_task_get(r, pid, comm, AN_PRIO_NONE);
	if (!t)
		return -ENOMEM;
	if (t->mt.is_dead || value > MODEL_SCALE)
		return 0;
	is_first_shown = t->eff_seen[id] < 0;
	if (has_effective) {
		if (t->eff_seen[id] >= 0 && t->eff_seen[id] != (int)effective && t->mt.cpu >= 0)
			r->step.applied_cpu = t->mt.cpu;
		t->eff_seen[id] = (int)effective;
	}
	if (!has_value)
		return 0;
	if (t->mt.req[id].value == (int)value) {
		t->is_req_known[id] = true;
		return 0;
	}
	/*
	 * The fork gave it another request (MA7). Judged at the child's first
	 * showing only, its enqueue by wake_up_new_task(): a later one may
	 * follow a sched_setattr whose marker comes after the call.
	 */
	if (t->is_req_forked[id] && is_first_shown && has_effective) {
		r->step.fork_req_model = t->mt.req[id].value;
		r->step.fork_req_id = id;
		r->step.fork_req_kernel = value;
	}
	t->is_req_forked[MODEL_UCLAMP_MIN] = t->is_req_forked[MODEL_UCLAMP_MAX] = false;
	attr.flags = clamp_flag(r, id) | keep_flags(r);
	if (id == MODEL_UCLAMP_MIN)
		attr.util_min = to_abi(r, value);
	else
		attr.util_max = to_abi(r, value);
	ret = model_setattr(&r->sys, &t->mt, &attr);
	if (ret == -EINVAL) {
		/*
		 * One sched_setattr changed both clamps, the new value crossing
		 * the old other one (min 100 max 400, then min 512 max 512:
		 * make check-kernel): the other's event follows. Until then the
		 * kernel holds a request pair with min <= max: take the nearest
		 * one, the other clamp unknown.
		 */
		int other = id == MODEL_UCLAMP_MIN ? MODEL_UCLAMP_MAX : MODEL_UCLAMP_MIN;

		attr.flags |= clamp_flag(r, other);
		attr.util_min = attr.util_max = to_abi(r, value);
		ret = model_setattr(&r->sys, &t->mt, &attr);
		if (ret >= 0)
			t->is_req_known[other] = false;
	}
	r->step.is_learnt = true;
	r->step.learn_ret = ret;
	t->is_req_known[id] = ret >= 0;
	an_replay_touch_all(r, AN_RQ_OP_REQUEST);
	return 0;
}

/*
 * Whether @t is queued and counted with UCLAMP_MIN request @value: a
 * uclamp_task_eff of such a task that teaches nothing new is a re-enqueue
 * that no scheduler event reports.
 */
static bool is_counted_as(const struct an_task *t, unsigned int value)
{
	return t && !t->mt.is_dead && t->mt.cpu >= 0 &&
	       t->mt.acc_slot[MODEL_UCLAMP_MIN] != MODEL_NV &&
	       t->mt.req[MODEL_UCLAMP_MIN].value == (int)value;
}

/*
 * uclamp_task_eff: traced where the kernel counts the task on its runqueue
 * (uclamp_rq_inc_id()), so the static key is on (MR2, the model infers it).
 *
 * Of a task the model holds queued and counted, with the request it holds,
 * it shows a dequeue and enqueue on the same CPU that no scheduler event
 * reports: DEQUEUE_SAVE/ENQUEUE_RESTORE around an affinity, priority or
 * policy change (MR4 then MR3, MR6), or a re-account (MR5). The model does
 * the same: MB2 lets the task's bucket forget a value retained from tasks
 * gone, and the rq value follows. After a count the model made itself (an
 * enqueue, a migration, a re-account it applied at a request or group
 * event) the kernel's trace of it changes nothing: the task is the newest
 * in its bucket already, so uncounting and counting it again is the same.
 * Mainline only: the event is the instrumentation's of uclamp_rq_inc_id(),
 * which v3 kernels do not have.
 */
static int on_task_eff(struct an_replay *r, const struct an_event *ev)
{
	const struct an_ev_task_eff *e = &ev->task_eff;
	struct an_task *t = e->pid > 0 ? an_replay_task(r, e->pid) : NULL;
	/* one enqueue counts both clamps: MIN's event, the first, stands for it */
	bool is_requeue = r->variant == MODEL_MAINLINE && e->clamp_id == MODEL_UCLAMP_MIN &&
			  is_counted_as(t, e->value);
	int err = learn(r, e->pid, e->comm, e->clamp_id, true, e->value, true, e->effective);

	if (err || e->pid <= 0)
		return err;
	t = an_replay_task(r, e->pid);
	if (!r->sys.is_uclamp_used) {
		if (t && !t->mt.is_dead)
			model_task_shown_counted(&r->sys, &t->mt);
		return 0;
	}
	if (is_requeue && t && t->mt.cpu >= 0) {
		model_requeue(&r->sys, &t->mt);
		an_replay_touch(r, t->mt.cpu, AN_RQ_OP_ENQUEUE);
	}
	return 0;
}

/* Whether field @name of @ev's type was in its record. */
static bool has_field(const struct an_event *ev, const char *name)
{
	int i = an_alias_field_index(ev->type, name, strlen(name));

	return i >= 0 && (ev->present & (UINT32_C(1) << i));
}

/*
 * MediaTek's sched_task_uclamp: each request the user set (min_ud, max_ud;
 * one not set shows the kernel's default, the RT one for UCLAMP_MIN of an
 * RT task, which the model keeps itself), and the effective values while
 * the task is counted on a runqueue (active).
 */
static int on_task_uclamp(struct an_replay *r, const struct an_event *ev)
{
	const struct an_ev_task_uclamp *u = &ev->task_uclamp;
	int err, first_ret;

	if (!has_field(ev, "min_ud") || !has_field(ev, "min_req") ||
	    !has_field(ev, "max_ud") || !has_field(ev, "max_req"))
		return 0;
	err = learn(r, u->pid, NULL, MODEL_UCLAMP_MIN, u->min_ud, u->min_req, u->active,
		    u->eff_min);
	first_ret = r->step.is_learnt ? r->step.learn_ret : 0;
	if (!err)
		err = learn(r, u->pid, NULL, MODEL_UCLAMP_MAX, u->max_ud, u->max_req, u->active,
			    u->eff_max);
	if (first_ret < 0)
		r->step.learn_ret = first_ret;	/* the check must know either failed */
	return err;
}

static int apply(struct an_replay *r, const struct an_event *ev)
{
	const struct an_marker *m;
	long long val[3];

	switch (ev->type) {
	case AN_EV_UCLAMP_REQUEST:
		return on_uclamp_request(r, ev);
	case AN_EV_UCLAMP_TG:
		if (ev->tg.clamp_id != MODEL_UCLAMP_MIN && ev->tg.clamp_id != MODEL_UCLAMP_MAX)
			return 0;
		return tg_write(r, ev->tg.path, ev->tg.clamp_id, ev->tg.value);
	case AN_EV_UCLAMP_TASK_EFF:
		return on_task_eff(r, ev);
	case AN_EV_SCHED_TASK_UCLAMP:
		return on_task_uclamp(r, ev);
	case AN_EV_PRINT:
		break;
	default:
		return 0;
	}
	m = &ev->print.marker;
	switch (m->kind) {
	case AN_MARKER_SYSCTL:
		r->step.is_sysctl_event = true;
		val[0] = an_marker_has(m, AN_MK_SYSCTL_UTIL_MIN) ? (long long)m->sysctl.util_min : -1;
		val[1] = an_marker_has(m, AN_MK_SYSCTL_UTIL_MAX) ? (long long)m->sysctl.util_max : -1;
		val[2] = an_marker_has(m, AN_MK_SYSCTL_UTIL_MIN_RT) ?
			 (long long)m->sysctl.util_min_rt_default : -1;
		an_requests_sysctl(r, val);
		return 0;
	case AN_MARKER_TASK:
		return on_task(r, m);
	case AN_MARKER_CGROUP:
		return on_cgroup(r, m);
	case AN_MARKER_SETATTR:
		return on_setattr(r, ev);
	default:
		return 0;
	}
}

int an_requests_apply(struct an_replay *r, const struct an_event *ev)
{
	const struct an_cpu *c;
	uint64_t *from = &r->step.sysctl_from_ns;
	int err = apply(r, ev);

	if (!r->step.is_sysctl_event)
		return err;
	if (r->step.is_sysctl_write) {
		/* the writer runs from its store of the defaults to this event */
		*from = ev->ts_ns > r->early_ns ? ev->ts_ns - r->early_ns : 0;
		c = an_replay_cpu(r, ev->cpu);
		if (c && c->curr_since_ns > *from)
			*from = c->curr_since_ns;
		if (r->sysctl_done_ns > *from)
			*from = r->sysctl_done_ns;
	}
	if (ev->type != AN_EV_UCLAMP_TG || ev->tg.clamp_id == MODEL_UCLAMP_MAX)
		r->sysctl_done_ns = ev->ts_ns;
	return err;
}
