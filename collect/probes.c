// SPDX-License-Identifier: MIT
/*
 * collect/probes.c - load the BPF probes (the skeleton bpftool generates
 * from collect/bpf/ucprobes.bpf.c), and turn their ring-buffer records into
 * trace records of the probe formats (probefmt.c) on per-CPU pages
 * (pagebuf.c). A record's loss count (struct col_probe_rec.lost) becomes a
 * missed-events page right before it, as the kernel marks lost ftrace
 * events, so the analysis opens a trace_integrity window there.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "collect/pagebuf.h"
#include "collect/probefmt.h"
#include "collect/pagesort.h"
#include "collect/probes.h"
#include "ucprobes.skel.h"

#define BTF_VMLINUX	"/sys/kernel/btf/vmlinux"
#define RING_MIN	4096u		/* one page: the smallest BPF ring buffer */
#define RING_MAX	(1ULL << 30)

/*
 * The programs tried, most first: a kernel that refuses some (an attach
 * point optimized into another form, no BPF trampolines) gets the next set.
 */
enum probe_set {
	PROBES_ALL,		/* with the programs of drop_extra() */
	PROBES_NO_EXTRA,	/* without them */
	PROBES_NO_FEXIT,	/* tracepoints only */
};

struct col_probes {
	struct ucprobes *skel;
	struct ring_buffer *ring;
	struct col_pagebuf *pages;
	unsigned int nr_cpus;
	uint64_t nr_events, nr_lost;
	int err;		/* first failure of the sample callback */
	enum probe_set set;	/* the programs loaded */
	bool is_fexit_off;	/* the kernel refused the fexit programs */
	bool has_uclamp;	/* rq.uclamp in the kernel's BTF */
	uint64_t read_from_ns;	/* CLOCK_MONOTONIC: the ring is read from then on */
	uint64_t keep_from_ns;	/* records kept from then ... */
	uint64_t keep_until_ns;	/* ... up to then (col_probes_trace_from/_until) */
	struct col_pagesort batch;	/* the records of one drain() */
	struct col_probes_opts opts;
};

int col_probes_mode_parse(const char *s, enum col_probes_mode *mode)
{
	static const char *const words[] = { "auto", "on", "off" };

	for (unsigned int i = 0; i < 3; i++) {
		if (!strcmp(s, words[i])) {
			*mode = (enum col_probes_mode)i;
			return 0;
		}
	}
	return -EINVAL;
}

/* Whether struct @type of @btf has a member @member. */
static bool has_member(const struct btf *btf, const char *type, const char *member)
{
	int id = btf__find_by_name_kind(btf, type, BTF_KIND_STRUCT);
	const struct btf_type *t;
	const struct btf_member *m;

	if (id < 0)
		return false;
	t = btf__type_by_id(btf, (unsigned int)id);
	m = btf_members(t);
	for (unsigned int i = 0; i < btf_vlen(t); i++, m++)
		if (!strcmp(btf__name_by_offset(btf, m->name_off), member))
			return true;
	return false;
}

/* libbpf's messages: only with UCVAL_BPF_DEBUG set (they explain a failed load) */
static int quiet_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (level == LIBBPF_DEBUG || !getenv("UCVAL_BPF_DEBUG"))
		return 0;
	return vfprintf(stderr, fmt, ap);
}

bool col_probes_check(bool need_uclamp, char *why, size_t len)
{
	struct btf *btf;
	bool has_uclamp;
	int ret;

	libbpf_set_print(quiet_print);
	if (access(BTF_VMLINUX, R_OK)) {
		snprintf(why, len, "the kernel has no BTF (%s: CONFIG_DEBUG_INFO_BTF)", BTF_VMLINUX);
		return false;
	}
	ret = libbpf_probe_bpf_prog_type(BPF_PROG_TYPE_RAW_TRACEPOINT, NULL);
	if (ret <= 0) {
		snprintf(why, len, "the kernel does not load BPF tracing programs%s%s "
			 "(CONFIG_BPF_SYSCALL, CONFIG_BPF_EVENTS)", ret < 0 ? ": " : "",
			 ret < 0 ? strerror(-ret) : "");
		return false;
	}
	btf = btf__load_vmlinux_btf();
	if (!btf) {
		snprintf(why, len, "cannot read the kernel's BTF: %s", strerror(errno));
		return false;
	}
	has_uclamp = has_member(btf, "rq", "uclamp") &&
		     has_member(btf, "task_struct", "uclamp_req");
	btf__free(btf);
	if (need_uclamp && !has_uclamp) {
		snprintf(why, len, "the kernel lacks uclamp (no rq.uclamp in its BTF: "
			 "CONFIG_UCLAMP_TASK)");
		return false;
	}
	return true;
}

/* One ring-buffer record: a trace record of its format, into the batch. */
static int on_sample(void *ctx, void *data, size_t size)
{
	struct col_probes *p = ctx;
	const struct col_probe_rec *r = data;
	unsigned char rec[8 + sizeof(r->u)];
	unsigned short id;
	unsigned int len;

	_Static_assert(sizeof(rec) <= COL_PAGESORT_REC_MAX, "a probe record fits");
	if (size < sizeof(*r) || !(len = col_probefmt_size(r->type)) || r->cpu >= p->nr_cpus)
		return 0;
	if (r->lost) {
		col_pagebuf_lost(p->pages, r->cpu, r->lost);
		p->nr_lost += r->lost;
	}
	if (r->ts < p->keep_from_ns || r->ts > p->keep_until_ns)
		return 0;	/* the kernel's events were off */
	id = (unsigned short)(COL_PROBEFMT_ID_BASE + r->type);
	memset(rec, 0, 8);
	memcpy(rec, &id, sizeof(id));
	memcpy(rec + 4, &r->pid, sizeof(r->pid));
	memcpy(rec + 8, &r->u, len);
	p->err = col_pagesort_add(&p->batch, r->cpu, r->ts, rec, 8 + len);
	return p->err;
}

static uint64_t ring_size(uint64_t want)
{
	uint64_t n = RING_MIN;

	while (n < want && n < RING_MAX)
		n <<= 1;
	return n;
}

/*
 * The programs on static functions of the scheduler and schedutil: the
 * cgroup clamp writes (CONFIG_UCLAMP_TASK_GROUP) and schedutil_util. Some
 * kernels list such a function in BTF but refuse to attach to it (-EBUSY).
 */
static void drop_tg(struct ucprobes *s)
{
	bpf_program__set_autoload(s->progs.ucp_tg_walk, false);
	bpf_program__set_autoload(s->progs.ucp_tg_walk_end, false);
}

static void drop_extra(struct ucprobes *s)
{
	drop_tg(s);
	bpf_program__set_autoload(s->progs.ucp_sugov_util, false);
}

/*
 * Programs whose attach point this kernel lacks (enqueue_task_rt inlined,
 * a bare tracepoint missing) are not loaded: the others still run.
 */
static void drop_missing(struct ucprobes *s, const struct btf *btf)
{
	static const struct { const char *fn; size_t off; } fns[] = {
		{ "enqueue_task_fair", offsetof(struct ucprobes, progs.ucp_enqueue_fair_entry) },
		{ "enqueue_task_rt", offsetof(struct ucprobes, progs.ucp_enqueue_rt_entry) },
		{ "enqueue_task_fair", offsetof(struct ucprobes, progs.ucp_enqueue_fair) },
		{ "enqueue_task_rt", offsetof(struct ucprobes, progs.ucp_enqueue_rt) },
		{ "dequeue_task_fair", offsetof(struct ucprobes, progs.ucp_dequeue_fair) },
		{ "dequeue_task_rt", offsetof(struct ucprobes, progs.ucp_dequeue_rt) },
		{ "sugov_get_util", offsetof(struct ucprobes, progs.ucp_sugov_util) },
	};
	static const struct { const char *tp; size_t off; } tps[] = {
		{ "btf_trace_pelt_cfs_tp", offsetof(struct ucprobes, progs.ucp_pelt_cfs) },
		{ "btf_trace_sched_util_est_cfs_tp", offsetof(struct ucprobes, progs.ucp_util_est_cfs) },
		{ "btf_trace_sched_util_est_se_tp", offsetof(struct ucprobes, progs.ucp_util_est_se) },
		{ "btf_trace_sched_cpu_capacity_tp", offsetof(struct ucprobes, progs.ucp_capacity) },
	};

	for (size_t i = 0; i < sizeof(fns) / sizeof(fns[0]); i++)
		if (btf__find_by_name_kind(btf, fns[i].fn, BTF_KIND_FUNC) < 0)
			bpf_program__set_autoload(*(struct bpf_program **)((char *)s + fns[i].off),
						  false);
	if (btf__find_by_name_kind(btf, "cpu_util_update_eff", BTF_KIND_FUNC) < 0)
		drop_tg(s);
	for (size_t i = 0; i < sizeof(tps) / sizeof(tps[0]); i++)
		if (btf__find_by_name_kind(btf, tps[i].tp, BTF_KIND_TYPEDEF) < 0)
			bpf_program__set_autoload(*(struct bpf_program **)((char *)s + tps[i].off),
						  false);
}

/* The fentry and fexit programs: kernels without BPF trampolines refuse them. */
static void drop_fexit(struct ucprobes *s)
{
	bpf_program__set_autoload(s->progs.ucp_enqueue_fair_entry, false);
	bpf_program__set_autoload(s->progs.ucp_enqueue_rt_entry, false);
	bpf_program__set_autoload(s->progs.ucp_enqueue_fair, false);
	bpf_program__set_autoload(s->progs.ucp_enqueue_rt, false);
	bpf_program__set_autoload(s->progs.ucp_dequeue_fair, false);
	bpf_program__set_autoload(s->progs.ucp_dequeue_rt, false);
	drop_extra(s);
}

static int try_load(struct col_probes *p, const struct col_probes_opts *o,
		    const struct btf *btf, enum probe_set set)
{
	int err;

	p->skel = ucprobes__open();
	if (!p->skel)
		return -errno;
	p->has_uclamp = has_member(btf, "rq", "uclamp");
	drop_missing(p->skel, btf);
	if (set == PROBES_NO_EXTRA)
		drop_extra(p->skel);
	if (set == PROBES_NO_FEXIT)
		drop_fexit(p->skel);
	err = bpf_map__set_max_entries(p->skel->maps.events,
				       (unsigned int)ring_size(o->ring_bytes));
	if (!err)
		err = ucprobes__load(p->skel);
	if (err) {
		ucprobes__destroy(p->skel);
		p->skel = NULL;
	}
	return err;
}

/* The ring buffer reader, and whether the fexit programs run, for the programs. */
static int start_ring(struct col_probes *p, struct an_diag *d)
{
	unsigned int zero = 0, fexit = !p->is_fexit_off;

	bpf_map__update_elem(p->skel->maps.cfg, &zero, sizeof(zero), &fexit, sizeof(fexit), 0);
	p->ring = ring_buffer__new(bpf_map__fd(p->skel->maps.events), on_sample, p, NULL);
	if (!p->ring)
		return an_diag_fail(d, -errno, "cannot read the BPF ring buffer: %s",
				    strerror(errno));
	return 0;
}

/* Load the first set from @set on that the kernel takes. */
static int load(struct col_probes *p, const struct col_probes_opts *o, enum probe_set set,
		struct an_diag *d)
{
	struct btf *btf = btf__load_vmlinux_btf();
	int err;

	if (!btf)
		return an_diag_fail(d, -errno, "cannot read the kernel's BTF: %s", strerror(errno));
	for (;;) {
		err = try_load(p, o, btf, set);
		if (!err || set == PROBES_NO_FEXIT)
			break;
		set++;
	}
	p->set = set;
	p->is_fexit_off = !err && set == PROBES_NO_FEXIT;
	btf__free(btf);
	if (err)
		return an_diag_fail(d, err, "cannot load the BPF probes: %s", strerror(-err));
	return start_ring(p, d);
}

int col_probes_open(const struct col_probes_opts *opts, struct col_probes **out,
		    struct an_diag *d)
{
	struct col_probes *p = calloc(1, sizeof(*p));
	int err;

	*out = NULL;
	if (!p)
		return an_diag_fail(d, -ENOMEM, "out of memory");
	libbpf_set_print(quiet_print);
	p->nr_cpus = opts->nr_cpus;
	p->opts = *opts;
	p->keep_until_ns = UINT64_MAX;
	err = col_pagebuf_open(opts->nr_cpus, opts->page_size, opts->tmpdir, &p->pages, d);
	if (!err)
		err = load(p, opts, PROBES_ALL, d);
	if (err) {
		col_probes_close(p);
		return err;
	}
	*out = p;
	return 0;
}

static uint64_t mono_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

#define PROG(name) { offsetof(struct ucprobes, progs.name), offsetof(struct ucprobes, links.name) }

/*
 * The programs in the order they attach: the function probes and the bare
 * tracepoints (no kernel event of their own) first, before collect enables
 * the kernel's events, so that every schedutil evaluation and PELT update
 * the kernel's first events depend on is in the trace (the programs attach
 * one after another, milliseconds apart under emulation; the records from
 * before the kernel's events are dropped, col_probes_trace_from()). Then, after the
 * kernel's events are on, the programs on tracepoints that are also
 * kernel events (sched_switch, sched_wakeup*, sched_migrate_task): a
 * tracepoint calls its probes in the order they registered, so the
 * kernel's record comes before the probe's, the order the instrumentation
 * patch gives. ucp_waking writes no record: it goes with the first.
 */
static const struct { size_t prog, link; } attach_order[] = {
	PROG(ucp_tg_walk), PROG(ucp_tg_walk_end), PROG(ucp_sugov_util),
	PROG(ucp_enqueue_fair_entry), PROG(ucp_enqueue_rt_entry),
	PROG(ucp_enqueue_fair), PROG(ucp_enqueue_rt), PROG(ucp_dequeue_fair),
	PROG(ucp_dequeue_rt), PROG(ucp_pelt_cfs), PROG(ucp_util_est_cfs),
	PROG(ucp_util_est_se), PROG(ucp_capacity), PROG(ucp_waking),
	/* the late ones, ATTACH_EARLY onwards */
	PROG(ucp_migrate), PROG(ucp_wakeup_new), PROG(ucp_wakeup), PROG(ucp_switch),
};
#define ATTACH_ALL	(sizeof(attach_order) / sizeof(attach_order[0]))
#define ATTACH_EARLY	(ATTACH_ALL - 4)
_Static_assert(ATTACH_ALL == sizeof(((struct ucprobes *)0)->progs) / sizeof(struct bpf_program *),
	       "every program ordered");

/* Attach the first @n programs of attach_order[] not attached yet. */
static int attach_ordered(struct ucprobes *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct bpf_program *prog = *(struct bpf_program **)((char *)s +
								    attach_order[i].prog);
		struct bpf_link **link = (struct bpf_link **)((char *)s + attach_order[i].link);

		if (!bpf_program__autoload(prog) || *link)
			continue;
		*link = bpf_program__attach(prog);
		if (!*link)
			return errno ? -errno : -EINVAL;
	}
	return 0;
}

/*
 * Attach the first @n programs. A kernel built without function tracing
 * loads fexit programs but cannot attach them (x86: no ftrace nop at the
 * function's entry, -EBUSY): the probes are loaded again with the next set
 * (enum probe_set).
 */
static int attach_falling_back(struct col_probes *p, size_t n, struct an_diag *d)
{
	int err = attach_ordered(p->skel, n);

	while (err && p->set != PROBES_NO_FEXIT) {
		ring_buffer__free(p->ring);
		p->ring = NULL;
		ucprobes__destroy(p->skel);
		p->skel = NULL;
		err = load(p, &p->opts, p->set + 1, d);
		if (err)
			return err;
		err = attach_ordered(p->skel, n);
	}
	if (err)
		return an_diag_fail(d, err, "cannot attach the BPF probes: %s", strerror(-err));
	p->read_from_ns = mono_ns() + (uint64_t)p->opts.hold_ms * 1000000u;
	return 0;
}

void col_probes_trace_from(struct col_probes *p)
{
	p->keep_from_ns = mono_ns();
}

void col_probes_trace_until(struct col_probes *p)
{
	p->keep_until_ns = mono_ns();
}

int col_probes_attach_early(struct col_probes *p, struct an_diag *d)
{
	return attach_falling_back(p, ATTACH_EARLY, d);
}

int col_probes_attach(struct col_probes *p, struct an_diag *d)
{
	return attach_falling_back(p, ATTACH_ALL, d);
}

/* Move what the ring buffer holds into pages. */
static int drain(struct col_probes *p, struct an_diag *d)
{
	int n = ring_buffer__consume(p->ring);

	/* in time order: the ring holds them in reservation order (pagesort.h) */
	if (!p->err)
		p->err = col_pagesort_flush(&p->batch, p->pages, &p->nr_events);
	if (p->err)
		return an_diag_fail(d, p->err, "cannot write the probe pages: %s",
				    strerror(-p->err));
	if (n < 0)
		return an_diag_fail(d, n, "cannot read the BPF ring buffer: %s", strerror(-n));
	return 0;
}

int col_probes_poll(struct col_probes *p, struct an_diag *d)
{
	return mono_ns() < p->read_from_ns ? 0 : drain(p, d);
}

/* Losses no later record reports: the per-CPU counters at the end. */
static void trailing_losses(struct col_probes *p)
{
	int n = libbpf_num_possible_cpus();
	uint64_t *v;
	unsigned int zero = 0;

	if (n <= 0 || !(v = calloc((size_t)n, sizeof(*v))))
		return;
	if (!bpf_map__lookup_elem(p->skel->maps.lost, &zero, sizeof(zero), v,
				  (size_t)n * sizeof(*v), 0)) {
		for (int c = 0; c < n && (unsigned int)c < p->nr_cpus; c++) {
			col_pagebuf_lost(p->pages, (unsigned int)c, v[c]);
			p->nr_lost += v[c];
		}
	}
	free(v);
}

int col_probes_stop(struct col_probes *p, const int **fds, struct an_diag *d)
{
	int err;

	ucprobes__detach(p->skel);
	err = drain(p, d);
	if (err)
		return err;
	trailing_losses(p);
	err = col_pagebuf_finish(p->pages, fds);
	if (err)
		return an_diag_fail(d, err, "cannot write the probe pages: %s", strerror(-err));
	return 0;
}

bool col_probes_have_uclamp(const struct col_probes *p)
{
	return p->has_uclamp;
}

bool col_probes_without_enqueue(const struct col_probes *p)
{
	return p->is_fexit_off;
}

void col_probes_counts(const struct col_probes *p, uint64_t *events, uint64_t *lost)
{
	*events = p->nr_events;
	*lost = p->nr_lost;
}

void col_probes_close(struct col_probes *p)
{
	if (!p)
		return;
	ring_buffer__free(p->ring);
	ucprobes__destroy(p->skel);
	col_pagebuf_close(p->pages);
	col_pagesort_release(&p->batch);
	free(p);
}
