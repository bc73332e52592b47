// SPDX-License-Identifier: MIT
/*
 * collect/synth/synthout.c - the two outputs of `ucval synth` (synthout.h).
 *
 * Text: one kernel-style ftrace line per event, buffered, into a temporary
 * file renamed at the end. trace.dat: each CPU's events become ring-buffer
 * pages (type_len/time_delta entry headers, time extends for long gaps, a
 * stored missed count for lost events) written to an unlinked file next to
 * the output; collect/datwrite.c then lays the file out. Both are written
 * in one pass with a fixed amount of memory per CPU. Perfetto: each event
 * becomes the canonical event the readers would decode from the text, and
 * analyze/read/pfenc.c writes it into its CPU's ftrace bundle.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "collect/datwrite.h"
#include "collect/rbevent.h"
#include "collect/synth/synthfmt.h"
#include "collect/synth/synthout.h"
#include "analyze/read/alias.h"
#include "analyze/read/pfenc.h"
#include "lib/outfile.h"

#define NS_PER_SEC	1000000000ULL
#define NS_PER_USEC	1000ULL
#define PAGE_SIZE	4096u			/* ring-buffer page of the trace.dat */
#define PAGE_HDR	COL_RB_PAGE_HDR
#define PAGE_LOST_LEN	COL_RB_LOST_LEN
#define PAGES_PER_WRITE	16u			/* pages a CPU batches per write() */
#define COMMIT_MISSED	(1ULL << 31)		/* page flag: events lost before it */
#define COMMIT_STORED	(1ULL << 30)		/* page flag: their count follows the data */
#define LONG_SIZE	8u			/* x86_64 */
#define REC_BUF		512u			/* largest record synth builds */
#define TEXT_BUF	(1u << 20)		/* stdio buffer of the text output */
#define COMM_LEN	16u			/* TASK_COMM_LEN */
#define PRINT_IP	0xffffffff81000000ULL	/* ip of trace_marker writes, any kernel text */

struct so_cpu {
	int fd;
	unsigned char *batch;		/* PAGES_PER_WRITE pages */
	unsigned int nr_batched;
	unsigned char page[PAGE_SIZE];
	unsigned int used;		/* data bytes in @page after the header */
	bool has_page;
	uint64_t page_ts;
	uint64_t prev_ts;
	uint64_t missed;		/* count stored in @page */
	uint64_t pending_missed;	/* for the next page */
	uint64_t nr_pages;
};

struct col_synthout {
	enum col_synth_format format;
	char *path;
	struct rep_outfile out;		/* text, Perfetto: where it goes */
	FILE *text;			/* text, Perfetto: out.fp while open */
	struct an_pfenc *pf;		/* Perfetto: the bundles */
	unsigned int nr_cpus;
	struct so_cpu *cpu;		/* trace.dat: per CPU */
	const char *cmdlines;
	int err;			/* first write error, sticky */
};

/* ---- text ---- */

static void state_letters(unsigned int state, char *out)
{
	static const char letters[] = "SDTtXZPI";
	size_t n = 0;

	for (unsigned int i = 0; letters[i]; i++) {
		if (!(state & (1u << i)))
			continue;
		if (n)
			out[n++] = '|';
		out[n++] = letters[i];
	}
	if (!n)
		out[n++] = 'R';
	if (state & COL_SO_STATE_PREEMPT)
		out[n++] = '+';
	out[n] = '\0';
}

static void text_event(struct col_synthout *o, uint64_t ts, const struct col_so_ev *ev)
{
	FILE *f = o->text;
	char state[24];

	fprintf(f, "%16.16s-%-7d [%03u] %s %llu.%06llu: ", ev->pid ? ev->comm : "<idle>", ev->pid,
		ev->cpu, ev->type == COL_SO_PRINT ? "...." :
		ev->type == COL_SO_SWITCH ? "d..3" : "d..2",
		(unsigned long long)(ts / NS_PER_SEC),
		(unsigned long long)(ts % NS_PER_SEC / NS_PER_USEC));
	switch (ev->type) {
	case COL_SO_SWITCH:
		state_letters(ev->sw.prev_state, state);
		fprintf(f, "sched_switch: prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s ==> "
			"next_comm=%s next_pid=%d next_prio=%d\n", ev->sw.prev_comm,
			ev->sw.prev_pid, ev->sw.prev_prio, state, ev->sw.next_comm,
			ev->sw.next_pid, ev->sw.next_prio);
		break;
	case COL_SO_WAKEUP:
	case COL_SO_WAKEUP_NEW:
		fprintf(f, "%s: comm=%s pid=%d prio=%d target_cpu=%03d\n",
			ev->type == COL_SO_WAKEUP ? "sched_wakeup" : "sched_wakeup_new",
			ev->task.comm, ev->task.pid, ev->task.prio, ev->task.arg0);
		break;
	case COL_SO_MIGRATE:
		fprintf(f, "sched_migrate_task: comm=%s pid=%d prio=%d orig_cpu=%d dest_cpu=%d\n",
			ev->task.comm, ev->task.pid, ev->task.prio, ev->task.arg0, ev->task.arg1);
		break;
	case COL_SO_FORK:
		fprintf(f, "sched_process_fork: comm=%s pid=%d child_comm=%s child_pid=%d\n",
			ev->fork.parent_comm, ev->fork.parent_pid, ev->fork.child_comm,
			ev->fork.child_pid);
		break;
	case COL_SO_EXIT:
	case COL_SO_FREE:
		fprintf(f, "%s: comm=%s pid=%d prio=%d\n",
			ev->type == COL_SO_EXIT ? "sched_process_exit" : "sched_process_free",
			ev->task.comm, ev->task.pid, ev->task.prio);
		break;
	case COL_SO_FREQ:
		fprintf(f, "cpu_frequency: state=%u cpu_id=%u\n", ev->freq.khz, ev->freq.cpu_id);
		break;
	case COL_SO_PRINT:
		fprintf(f, "tracing_mark_write: %s\n", ev->text);
		break;
	case COL_SO_UTIL_CFS:
		fprintf(f, "uclamp_util_cfs: cpu=%u util_avg=%u uclamp_avg=%u uclamp_min=%u "
			"uclamp_max=%u\n", ev->util.cpu, ev->util.util_avg, ev->util.uclamp_avg,
			ev->util.uclamp_min, ev->util.uclamp_max);
		break;
	case COL_SO_TASK_EFF:
		fprintf(f, "uclamp_task_eff: pid=%d comm=%s clamp_id=%d value=%u effective=%u "
			"group_id=%d\n", ev->eff.pid, ev->eff.comm, ev->eff.clamp_id,
			ev->eff.value, ev->eff.effective, ev->eff.slot);
		break;
	case COL_SO__COUNT:
		break;
	}
}

/* ---- trace.dat records ---- */

struct rec {
	unsigned char b[REC_BUF];
	unsigned int len;
};

static void rec_num(struct rec *r, uint64_t v, unsigned int n)
{
	memcpy(r->b + r->len, &v, n);	/* little endian host: the file says so */
	r->len += n;
}

static void rec_str(struct rec *r, const char *s, unsigned int size)
{
	size_t n = strnlen(s, size);

	memset(r->b + r->len, 0, size);
	memcpy(r->b + r->len, s, n < size ? n : size - 1);
	r->len += size;
}

static void rec_common(struct rec *r, enum col_so_type type, int pid)
{
	r->len = 0;
	rec_num(r, col_synthfmt_id[type], 2);
	rec_num(r, 0, 1);		/* flags */
	rec_num(r, 0, 1);		/* preempt count */
	rec_num(r, (uint32_t)pid, 4);
}

static void build_record(struct rec *r, const struct col_so_ev *ev)
{
	size_t n;

	rec_common(r, ev->type, ev->pid);
	switch (ev->type) {
	case COL_SO_SWITCH:
		rec_str(r, ev->sw.prev_comm, COMM_LEN);
		rec_num(r, (uint32_t)ev->sw.prev_pid, 4);
		rec_num(r, (uint32_t)ev->sw.prev_prio, 4);
		rec_num(r, ev->sw.prev_state, 8);
		rec_str(r, ev->sw.next_comm, COMM_LEN);
		rec_num(r, (uint32_t)ev->sw.next_pid, 4);
		rec_num(r, (uint32_t)ev->sw.next_prio, 4);
		break;
	case COL_SO_WAKEUP:
	case COL_SO_WAKEUP_NEW:
	case COL_SO_MIGRATE:
	case COL_SO_EXIT:
	case COL_SO_FREE:
		rec_str(r, ev->task.comm, COMM_LEN);
		rec_num(r, (uint32_t)ev->task.pid, 4);
		rec_num(r, (uint32_t)ev->task.prio, 4);
		if (ev->type == COL_SO_WAKEUP || ev->type == COL_SO_WAKEUP_NEW ||
		    ev->type == COL_SO_MIGRATE)
			rec_num(r, (uint32_t)ev->task.arg0, 4);
		if (ev->type == COL_SO_MIGRATE)
			rec_num(r, (uint32_t)ev->task.arg1, 4);
		break;
	case COL_SO_FORK:
		rec_str(r, ev->fork.parent_comm, COMM_LEN);
		rec_num(r, (uint32_t)ev->fork.parent_pid, 4);
		rec_str(r, ev->fork.child_comm, COMM_LEN);
		rec_num(r, (uint32_t)ev->fork.child_pid, 4);
		break;
	case COL_SO_FREQ:
		rec_num(r, ev->freq.khz, 4);
		rec_num(r, ev->freq.cpu_id, 4);
		break;
	case COL_SO_PRINT:
		rec_num(r, PRINT_IP, 8);
		/* text, newline and NUL, as trace_marker stores them */
		n = strnlen(ev->text, REC_BUF - r->len - 2);
		memcpy(r->b + r->len, ev->text, n);
		r->len += (unsigned int)n;
		r->b[r->len++] = '\n';
		r->b[r->len++] = '\0';
		break;
	case COL_SO_UTIL_CFS:
		rec_num(r, ev->util.cpu, 4);
		rec_num(r, ev->util.util_avg, 4);
		rec_num(r, ev->util.uclamp_avg, 4);
		rec_num(r, ev->util.uclamp_min, 4);
		rec_num(r, ev->util.uclamp_max, 4);
		break;
	case COL_SO_TASK_EFF:
		rec_num(r, (uint32_t)ev->eff.pid, 4);
		rec_str(r, ev->eff.comm, COMM_LEN);
		rec_num(r, (uint32_t)ev->eff.clamp_id, 4);
		rec_num(r, ev->eff.value, 4);
		rec_num(r, ev->eff.effective, 4);
		rec_num(r, (uint32_t)ev->eff.slot, 4);
		break;
	case COL_SO__COUNT:
		break;
	}
}

static void write_all(struct col_synthout *o, int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len && !o->err) {
		ssize_t w = write(fd, p, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			o->err = w < 0 ? -errno : -EIO;
			return;
		}
		p += w;
		len -= (size_t)w;
	}
}

static void flush_batch(struct col_synthout *o, struct so_cpu *c)
{
	write_all(o, c->fd, c->batch, (size_t)c->nr_batched * PAGE_SIZE);
	c->nr_batched = 0;
}

/* Close the CPU's current page: header, data, stored missed count, zeros. */
static void finish_page(struct col_synthout *o, struct so_cpu *c)
{
	unsigned char *p;
	uint64_t commit = c->used;

	if (!c->has_page)
		return;
	if (c->missed)
		commit |= COMMIT_MISSED | COMMIT_STORED;
	p = c->batch + (size_t)c->nr_batched * PAGE_SIZE;
	memcpy(p, &c->page_ts, 8);
	memcpy(p + 8, &commit, 8);
	memcpy(p + PAGE_HDR, c->page, c->used);
	if (c->missed)
		memcpy(p + PAGE_HDR + c->used, &c->missed, PAGE_LOST_LEN);
	memset(p + PAGE_HDR + c->used + (c->missed ? PAGE_LOST_LEN : 0), 0,
	       PAGE_SIZE - PAGE_HDR - c->used - (c->missed ? PAGE_LOST_LEN : 0));
	c->has_page = false;
	c->nr_pages++;
	if (++c->nr_batched == PAGES_PER_WRITE)
		flush_batch(o, c);
}

static unsigned int round4(unsigned int n)
{
	return (n + 3) & ~3u;
}

static void dat_event(struct col_synthout *o, uint64_t ts, const struct col_so_ev *ev)
{
	struct so_cpu *c = &o->cpu[ev->cpu];
	struct rec r;
	unsigned int data, need, ext = 0, room;
	uint64_t delta = 0;

	build_record(&r, ev);
	data = round4(r.len);
	need = col_rb_header_len(data) + data;
	if (c->has_page) {
		delta = ts - c->prev_ts;
		ext = col_rb_extend_len(delta);
	}
	room = PAGE_SIZE - PAGE_HDR - (c->missed ? PAGE_LOST_LEN : 0);
	if (!c->has_page || c->used + ext + need > room) {
		finish_page(o, c);
		c->has_page = true;
		c->used = 0;
		c->page_ts = ts;
		c->missed = c->pending_missed;
		c->pending_missed = 0;
		delta = 0;
	}
	c->used += col_rb_put_header(c->page + c->used, delta, data);
	memset(r.b + r.len, 0, data - r.len);
	memcpy(c->page + c->used, r.b, data);
	c->used += data;
	c->prev_ts = ts;
}

/* ---- Perfetto ---- */

static void pf_task(struct an_event *ev, const struct col_so_ev *so)
{
	switch (so->type) {
	case COL_SO_WAKEUP:
	case COL_SO_WAKEUP_NEW:
		an_comm_set(ev->wakeup.comm, so->task.comm);
		ev->wakeup.pid = so->task.pid;
		ev->wakeup.prio = so->task.prio;
		ev->wakeup.target_cpu = so->task.arg0;
		break;
	case COL_SO_MIGRATE:
		an_comm_set(ev->migrate.comm, so->task.comm);
		ev->migrate.pid = so->task.pid;
		ev->migrate.prio = so->task.prio;
		ev->migrate.orig_cpu = so->task.arg0;
		ev->migrate.dest_cpu = so->task.arg1;
		break;
	default:
		an_comm_set(ev->task.comm, so->task.comm);
		ev->task.pid = so->task.pid;
		ev->task.prio = so->task.prio;
		break;
	}
}

static void pf_fields(struct an_event *ev, const struct col_so_ev *so)
{
	switch (so->type) {
	case COL_SO_SWITCH:
		an_comm_set(ev->sw.prev_comm, so->sw.prev_comm);
		ev->sw.prev_pid = so->sw.prev_pid;
		ev->sw.prev_prio = so->sw.prev_prio;
		state_letters(so->sw.prev_state, ev->sw.prev_state);
		an_comm_set(ev->sw.next_comm, so->sw.next_comm);
		ev->sw.next_pid = so->sw.next_pid;
		ev->sw.next_prio = so->sw.next_prio;
		break;
	case COL_SO_FORK:
		an_comm_set(ev->fork.parent_comm, so->fork.parent_comm);
		ev->fork.parent_pid = so->fork.parent_pid;
		an_comm_set(ev->fork.child_comm, so->fork.child_comm);
		ev->fork.child_pid = so->fork.child_pid;
		break;
	case COL_SO_FREQ:
		ev->freq.freq_khz = so->freq.khz;
		ev->freq.cpu_id = (int)so->freq.cpu_id;
		break;
	case COL_SO_PRINT:
		ev->print.text = so->text;
		ev->print.len = strlen(so->text);
		break;
	case COL_SO_UTIL_CFS:
		ev->util_cfs.cpu = (int)so->util.cpu;
		ev->util_cfs.util_avg = so->util.util_avg;
		ev->util_cfs.uclamp_avg = so->util.uclamp_avg;
		ev->util_cfs.uclamp_min = so->util.uclamp_min;
		ev->util_cfs.uclamp_max = so->util.uclamp_max;
		break;
	case COL_SO_TASK_EFF:
		an_comm_set(ev->task_eff.comm, so->eff.comm);
		ev->task_eff.pid = so->eff.pid;
		ev->task_eff.clamp_id = so->eff.clamp_id;
		ev->task_eff.value = so->eff.value;
		ev->task_eff.effective = so->eff.effective;
		ev->task_eff.group_id = so->eff.slot;
		break;
	default:
		pf_task(ev, so);
		break;
	}
}

/* The canonical type and raw name of each synth event. */
static const struct {
	enum an_event_type type;
	const char *name;
} pf_types[COL_SO__COUNT] = {
	[COL_SO_SWITCH] = { AN_EV_SCHED_SWITCH, "sched_switch" },
	[COL_SO_WAKEUP] = { AN_EV_SCHED_WAKEUP, "sched_wakeup" },
	[COL_SO_WAKEUP_NEW] = { AN_EV_SCHED_WAKEUP_NEW, "sched_wakeup_new" },
	[COL_SO_MIGRATE] = { AN_EV_SCHED_MIGRATE_TASK, "sched_migrate_task" },
	[COL_SO_FORK] = { AN_EV_SCHED_PROCESS_FORK, "sched_process_fork" },
	[COL_SO_EXIT] = { AN_EV_SCHED_PROCESS_EXIT, "sched_process_exit" },
	[COL_SO_FREE] = { AN_EV_SCHED_PROCESS_FREE, "sched_process_free" },
	[COL_SO_FREQ] = { AN_EV_CPU_FREQUENCY, "cpu_frequency" },
	[COL_SO_PRINT] = { AN_EV_PRINT, "print" },
	[COL_SO_UTIL_CFS] = { AN_EV_UCLAMP_UTIL_CFS, "uclamp_util_cfs" },
	[COL_SO_TASK_EFF] = { AN_EV_UCLAMP_TASK_EFF, "uclamp_task_eff" },
};

static void pf_event(struct col_synthout *o, uint64_t ts, const struct col_so_ev *so)
{
	struct an_event ev;

	if (so->type >= COL_SO__COUNT)
		return;
	an_alias_reset(&ev, pf_types[so->type].type);
	ev.name = pf_types[so->type].name;
	ev.ts_ns = ts;
	ev.cpu = (int)so->cpu;
	ev.pid = so->pid;
	/* every field synth writes is in the record (the cpumask of policies is not) */
	ev.present = (UINT32_C(1) << an_alias_type(ev.type)->nr_fields) - 1;
	if (so->type == COL_SO_FREQ)
		ev.present &= ~(UINT32_C(1) << 2);
	pf_fields(&ev, so);
	an_pfenc_event(o->pf, &ev);
}

static void pf_lost(struct col_synthout *o, unsigned int cpu)
{
	struct an_event ev;

	an_alias_reset(&ev, AN_EV_LOST_EVENTS);
	ev.cpu = (int)cpu;
	an_pfenc_event(o->pf, &ev);
}

/* ---- public ---- */

static char *sibling_template(const char *path, const char *suffix)
{
	char *s = NULL;

	if (asprintf(&s, "%s%s.XXXXXX", path, suffix) < 0)
		return NULL;
	return s;
}

static int open_text(struct col_synthout *o, struct an_diag *d)
{
	int err = rep_outfile_open(&o->out, o->path, d);

	if (err)
		return err;
	o->text = o->out.fp;
	if (o->text != stdout)
		setvbuf(o->text, NULL, _IOFBF, TEXT_BUF);
	fprintf(o->text, "# tracer: nop\n#\ncpus=%u\n", o->nr_cpus);
	return 0;
}

static int open_pftrace(struct col_synthout *o, struct an_diag *d)
{
	int err = rep_outfile_open(&o->out, o->path, d);

	if (err)
		return err;
	o->text = o->out.fp;
	if (o->text != stdout)
		setvbuf(o->text, NULL, _IOFBF, TEXT_BUF);
	if (an_pfenc_open(&o->pf, o->text))
		return an_diag_fail(d, -ENOMEM, "out of memory");
	return 0;
}

static int open_dat(struct col_synthout *o, struct an_diag *d)
{
	o->cpu = calloc(o->nr_cpus, sizeof(*o->cpu));
	if (!o->cpu)
		return an_diag_fail(d, -ENOMEM, "out of memory");
	for (unsigned int i = 0; i < o->nr_cpus; i++)
		o->cpu[i].fd = -1;
	for (unsigned int i = 0; i < o->nr_cpus; i++) {
		struct so_cpu *c = &o->cpu[i];
		char *tmp = sibling_template(o->path, ".cpu");

		c->batch = malloc((size_t)PAGES_PER_WRITE * PAGE_SIZE);
		if (!tmp || !c->batch) {
			free(tmp);
			return an_diag_fail(d, -ENOMEM, "out of memory");
		}
		c->fd = mkstemp(tmp);
		if (c->fd < 0) {
			int err = -errno;

			free(tmp);
			return an_diag_fail(d, err, "cannot create a file next to it: %s",
					    strerror(-err));
		}
		unlink(tmp);	/* data lives until the fd closes, nothing to clean up */
		free(tmp);
	}
	return 0;
}

int col_synthout_open(struct col_synthout **out, const char *path,
		      enum col_synth_format format, unsigned int nr_cpus,
		      const char *cmdlines, struct an_diag *d)
{
	struct col_synthout *o = calloc(1, sizeof(*o));
	int err;

	*out = NULL;
	an_diag_set_file(d, "write", path);
	if (!o)
		return an_diag_fail(d, -ENOMEM, "out of memory");
	o->format = format;
	o->nr_cpus = nr_cpus;
	o->cmdlines = cmdlines;
	o->path = strdup(path);
	if (!o->path) {
		free(o);
		return an_diag_fail(d, -ENOMEM, "out of memory");
	}
	err = format == COL_SYNTH_TEXT ? open_text(o, d) :
	      format == COL_SYNTH_PFTRACE ? open_pftrace(o, d) : open_dat(o, d);
	if (err) {
		col_synthout_free(o);
		return err;
	}
	*out = o;
	return 0;
}

void col_synthout_platform(struct col_synthout *o, const char *release)
{
	if (o->format == COL_SYNTH_PFTRACE)
		an_pfenc_system_info(o->pf, release, o->nr_cpus);
}

void col_synthout_event(struct col_synthout *o, uint64_t ts_ns, const struct col_so_ev *ev)
{
	if (o->format == COL_SYNTH_TEXT)
		text_event(o, ts_ns, ev);
	else if (o->format == COL_SYNTH_PFTRACE)
		pf_event(o, ts_ns, ev);
	else
		dat_event(o, ts_ns, ev);
}

void col_synthout_lost(struct col_synthout *o, unsigned int cpu, uint64_t count)
{
	if (o->format == COL_SYNTH_TEXT) {
		fprintf(o->text, "CPU:%u [LOST %llu EVENTS]\n", cpu, (unsigned long long)count);
		return;
	}
	if (o->format == COL_SYNTH_PFTRACE) {
		pf_lost(o, cpu);
		return;
	}
	finish_page(o, &o->cpu[cpu]);
	o->cpu[cpu].pending_missed += count;
}

static int close_text(struct col_synthout *o, struct an_diag *d)
{
	int err = rep_outfile_commit(&o->out, d);

	o->text = NULL;
	return err;
}

static int close_pftrace(struct col_synthout *o, struct an_diag *d)
{
	int err = an_pfenc_close(o->pf);

	o->pf = NULL;
	if (err)
		return an_diag_fail(d, err, "%s", strerror(-err));
	return close_text(o, d);
}

static int close_dat(struct col_synthout *o, struct an_diag *d)
{
	struct col_dat_blob ftrace = { col_synthfmt_print, strlen(col_synthfmt_print) };
	struct col_dat_system systems[8];
	struct col_dat_blob formats[8][8];
	static const char version[] = "ucval " UCVAL_VERSION " synth";
	struct col_dat_option opts[] = {
		{ COL_DAT_OPT_VERSION, version, sizeof(version) },
		{ COL_DAT_OPT_CPUCOUNT, &o->nr_cpus, sizeof(uint32_t) },
	};
	struct col_dat_input in = {
		.page_size = PAGE_SIZE, .long_size = LONG_SIZE,
		.header_page = { col_synthfmt_header_page, strlen(col_synthfmt_header_page) },
		.header_event = { col_synthfmt_header_event, strlen(col_synthfmt_header_event) },
		.ftrace = &ftrace, .nr_ftrace = 1,
		.systems = systems, .nr_systems = col_synthfmt_nr_systems,
		.cmdlines = { o->cmdlines, o->cmdlines ? strlen(o->cmdlines) : 0 },
		.options = opts, .nr_options = sizeof(opts) / sizeof(opts[0]),
		.nr_cpus = o->nr_cpus,
	};
	int *fds = calloc(o->nr_cpus, sizeof(*fds));
	int err;

	if (!fds)
		return an_diag_fail(d, -ENOMEM, "out of memory");
	for (unsigned int s = 0; s < col_synthfmt_nr_systems; s++) {
		const struct col_synthfmt_system *sys = &col_synthfmt_systems[s];

		for (unsigned int i = 0; i < sys->nr; i++)
			formats[s][i] = (struct col_dat_blob){ sys->formats[i],
							       strlen(sys->formats[i]) };
		systems[s] = (struct col_dat_system){ sys->name, formats[s], sys->nr };
	}
	for (unsigned int i = 0; i < o->nr_cpus; i++) {
		struct so_cpu *c = &o->cpu[i];

		finish_page(o, c);
		flush_batch(o, c);
		fds[i] = c->nr_pages ? c->fd : -1;
	}
	in.cpu_fds = fds;
	if (o->err) {
		free(fds);
		return an_diag_fail(d, o->err, "cannot write the per-cpu data: %s",
				    strerror(-o->err));
	}
	err = col_datwrite_file(o->path, &in, d);
	free(fds);
	return err;
}

int col_synthout_close(struct col_synthout *o, struct an_diag *d)
{
	int err;

	an_diag_set_file(d, "write", o->path);
	if (o->err)
		err = an_diag_fail(d, o->err, "%s", strerror(-o->err));
	else if (o->format == COL_SYNTH_TEXT)
		err = close_text(o, d);
	else if (o->format == COL_SYNTH_PFTRACE)
		err = close_pftrace(o, d);
	else
		err = close_dat(o, d);
	col_synthout_free(o);
	return err;
}

void col_synthout_free(struct col_synthout *o)
{
	if (!o)
		return;
	an_pfenc_close(o->pf);
	if (o->text)
		rep_outfile_abort(&o->out);
	for (unsigned int i = 0; o->cpu && i < o->nr_cpus; i++) {
		if (o->cpu[i].fd >= 0)
			close(o->cpu[i].fd);
		free(o->cpu[i].batch);
	}
	free(o->cpu);
	free(o->path);
	free(o);
}
