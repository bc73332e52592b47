// SPDX-License-Identifier: MIT
/*
 * analyze/read/dat/tracedat.c - trace.dat reader over libtracecmd/libtraceevent
 * (spec/events.md §1, trace-cmd.dat.v6(5)/v7(5)).
 *
 * The records come from datpages.c (each CPU's pages read in chunks and
 * merged by timestamp, the default) or from libtracecmd, which does the same
 * with a heap record per event: the reference, and the path for compressed
 * files (an_tracedat_set_reader()). libtracecmd parses the headers and the
 * event formats either way. Either way the reader streams. Each event format
 * is resolved once (its fields looked up by name through the alias table,
 * its prev_state letters read from its print format) and cached by event id;
 * records then cost a few number reads.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <trace-cmd.h>

#include "analyze/read/alias.h"
#include "analyze/read/dat/datcheck.h"
#include "analyze/read/dat/datpages.h"
#include "analyze/read/dat/tcmd_private.h"
#include "lib/malloc.h"
#include "analyze/read/dat/tracedat.h"
#include "lib/vec.h"

#define COMMON_HEADER_LEN 8	/* common_type, flags, preempt_count, pid */
#define PRINT_ARG_DEPTH	32	/* nesting of a print format walked */
#define RECORD_HEADER_LEN 4	/* ring-buffer event header: type_len and delta */
#define FMT_IDS		65536	/* event ids: the kernel's common_type is 16 bits */

/*
 * A numeric field of a format, resolved once: where it is in the record and
 * in struct an_event (decode_num()).
 */
struct num_field {
	unsigned int i;			/* alias row, bit of an_event.present */
	enum an_field_kind kind;	/* AN_FK_INT, AN_FK_UINT or AN_FK_LLONG */
	size_t dst;			/* offset in struct an_event */
	unsigned int off, size;		/* in the record; size 1, 2, 4 or 8 */
	bool is_signed;
};

/*
 * A text field of a format with a short way (decode_text()): a task name in
 * a fixed array, or prev_state's number turned into its letters.
 */
struct text_field {
	enum an_field_kind kind;	/* AN_FK_COMM or AN_FK_STATE; 0: none */
	size_t dst;			/* offset in struct an_event */
	unsigned int off, size;		/* in the record */
};

/* One event format, resolved on its first record. */
struct fmt {
	struct tep_event *event;
	enum an_event_type type;
	struct tep_format_field *fields[AN_ALIAS_MAX_FIELDS];
	struct an_state_bits state_bits;	/* sched_switch only */
	struct num_field num[AN_ALIAS_MAX_FIELDS];	/* the plain numbers */
	unsigned int nr_num;
	uint32_t other;			/* rows decoded by decode_text() or decode_field() */
	struct text_field text[AN_ALIAS_MAX_FIELDS];	/* by row */
	uint32_t required;		/* rows an_alias_check() requires */
	struct an_event blank;		/* after an_alias_reset(): copied for each record */
	size_t blank_len;		/* bytes of its member */
};

/*
 * On libtracecmd's path: libtracecmd 1.3 (trace-cmd 3.1) maps each CPU's data
 * of the file and never unmaps it, not even at tracecmd_close(): the resident size grows with the
 * file, and again with every trace one process reads (measured: 126 MB for a
 * 121 MB file, 252 MB after two). So the reader gives back the pages a CPU's
 * records have passed (MADV_DONTNEED: a private read-only file mapping
 * refaults them from the file should the library touch them again) and
 * unmaps at close what the library left. It touches only mappings of the
 * file the library reads (same device and inode: the trace, or the copy of
 * datcheck.h), found in /proc/self/maps around a record's data. Compressed
 * data is decompressed into memory, never mapped: nothing is looked for.
 * A CPU whose record lies in no such mapping is not looked for again: one
 * read of /proc/self/maps for each record made reading a zstd trace.dat
 * 190 times slower than libtracecmd's own iteration.
 */
#define DROP_CHUNK	(1UL << 20)	/* give back in steps of this much (a CPU keeps less) */
#define MAX_SEEN	64		/* mappings remembered for the close */

struct cpu_map {
	uintptr_t start, end;		/* the mapping holding the CPU's data; 0: none */
	uintptr_t dropped;		/* pages below were given back */
	bool is_unmapped;		/* a record was in none: the CPU is left alone */
};

struct an_tracedat {
	struct tracecmd_input *handle;
	/*
	 * libtracecmd's path with named instances (v6): a handle each, after
	 * the top one in @lib[0], and its next record, merged by timestamp
	 * (the top instance first on a tie, then in file order, as datpages.c)
	 */
	struct tracecmd_input **lib;
	struct tep_record **pend;
	bool *is_done;
	int nr_lib;
	struct an_datcheck chk;
	struct an_datpages *pages;	/* records read here; NULL: by libtracecmd */
	unsigned long long *next_off;	/* by CPU: past the last record (libtracecmd path) */
	size_t alloc_next_off;
	dev_t dev;			/* the file, to recognise its mappings */
	ino_t ino;
	struct cpu_map *map;		/* per CPU, @nr_map of them */
	unsigned int nr_map;
	struct cpu_map seen[MAX_SEEN];	/* every mapping found, for the close */
	unsigned int nr_seen;
	struct tep_handle *tep;
	unsigned long long page_size;	/* tep_get_page_size(), read once */
	struct fmt **fmts;		/* by event id, NULL until seen */
	size_t alloc_fmts;
	struct tep_record *current;	/* the record @ev points into */
	struct tep_record *held;	/* a record whose LOST_EVENTS go first */
	int held_inst;			/* its instance (lib_next()) */
	bool is_held_lost;		/* its page's LOST_EVENTS are still to go */
	size_t nr_unplaced_sent;	/* chk.unplaced given as LOST_EVENTS */
	size_t nr_tail_sent;		/* chk.tail_lost given as LOST_EVENTS */
	unsigned long long nr_records;
	int copy_fd;			/* the copy libtracecmd reads, or -1 (datcheck.h) */
	bool is_swap;			/* the file's byte order is not the host's */
	bool has_common;		/* common_type and common_pid located */
	unsigned int type_off, type_size, pid_off, pid_size;
};

static enum an_dat_reader dat_reader;	/* an_tracedat_set_reader() */

/**
 * an_tracedat_set_reader() - how every trace.dat is read from now on
 * @how: AN_DAT_PAGES, AN_DAT_KBUFFER or AN_DAT_LIBTRACECMD
 */
void an_tracedat_set_reader(enum an_dat_reader how)
{
	dat_reader = how;
}

/* Whether libtracecmd decompresses some CPU data (v7 compressed chunks). */
static bool is_compressed(const struct an_datcheck *chk)
{
	for (size_t i = 0; i < chk->nr_ranges; i++)
		if (chk->ranges[i].is_compressed)
			return true;
	return false;
}

/*
 * The canonical types whose format the file saved: a type without one was
 * not recorded (readinfo.h, enum an_ev_list).
 */
static void list_formats(struct tep_handle *tep, struct an_reader_info *info)
{
	int n = tep_get_events_count(tep);

	info->ev_list = AN_EV_LIST_FORMATS;
	info->ev_listed = 0;
	for (int i = 0; i < n; i++) {
		const struct tep_event *e = tep_get_event(tep, i);
		enum an_event_type type;

		if (!e || !e->name)
			continue;
		type = an_alias_lookup(e->name, strlen(e->name));
		if (type != AN_EV_UNKNOWN)
			info->ev_listed |= AN_EV_BIT(type);
	}
}

/* libtracecmd's path: a handle for each named instance datcheck.c read. */
static int open_instances(struct an_tracedat *t, struct an_diag *d)
{
	int n = t->chk.nr_buffers + 1;

	if (tracecmd_buffer_instances(t->handle) < t->chk.nr_buffers)
		return an_diag_fail(d, AN_E_LIBRARY, "libtracecmd sees %d instances, not %d",
				    tracecmd_buffer_instances(t->handle), t->chk.nr_buffers);
	t->lib = an_calloc((size_t)n, sizeof(*t->lib));
	t->pend = an_calloc((size_t)n, sizeof(*t->pend));
	t->is_done = an_calloc((size_t)n, sizeof(*t->is_done));
	if (!t->lib || !t->pend || !t->is_done)
		return an_diag_fail(d, -ENOMEM, "out of memory");
	t->lib[0] = t->handle;
	t->nr_lib = 1;
	for (int i = 0; i < t->chk.nr_buffers; i++) {
		t->lib[i + 1] = tracecmd_buffer_instance_handle(t->handle, i);
		if (!t->lib[i + 1])
			return an_diag_fail(d, AN_E_LIBRARY, "libtracecmd cannot read instance '%s'",
					    tracecmd_buffer_instance_name(t->handle, i) ?: "");
		t->nr_lib++;
	}
	return 0;
}

/*
 * libtracecmd's next record of all instances, and the index of its
 * instance (0: the top one); NULL at the end.
 */
static struct tep_record *lib_next(struct an_tracedat *t, int *inst)
{
	struct tep_record *rec;
	int cpu, best = -1;

	*inst = 0;
	if (!t->nr_lib)
		return tracecmd_read_next_data(t->handle, &cpu);
	for (int i = 0; i < t->nr_lib; i++) {
		if (!t->pend[i] && !t->is_done[i]) {
			t->pend[i] = tracecmd_read_next_data(t->lib[i], &cpu);
			t->is_done[i] = !t->pend[i];
		}
		if (t->pend[i] && (best < 0 || t->pend[i]->ts < t->pend[best]->ts))
			best = i;
	}
	if (best < 0)
		return NULL;
	*inst = best;
	rec = t->pend[best];
	t->pend[best] = NULL;
	return rec;
}

/**
 * an_tracedat_open() - open trace.dat @path (v6 or v7, compressed or not)
 * @path: file
 * @info: reader metadata to fill, borrowed
 * @out: the new reader, freed with an_tracedat_close()
 * @d: diagnostic on failure
 *
 * Return: 0, a negative errno, AN_E_CORRUPT, AN_E_FORMAT or AN_E_LIBRARY.
 */
int an_tracedat_open(const char *path, struct an_reader_info *info,
		     struct an_tracedat **out, struct an_diag *d)
{
	struct an_tracedat *t;
	char copy_path[64];
	const char *lib_path;
	int err;

	t = an_calloc(1, sizeof(*t));
	if (!t)
		return an_diag_fail(d, -ENOMEM, "out of memory");
	t->copy_fd = -1;
	err = an_datcheck_run(path, dat_reader != AN_DAT_LIBTRACECMD, &t->chk, d);
	if (err)
		goto fail;
	lib_path = path;
	if (t->chk.nr_edits) {
		/* formats libtraceevent cannot parse: it reads a copy with them emptied */
		err = an_datcheck_copy(path, &t->chk, &t->copy_fd, d);
		if (err)
			goto fail;
		snprintf(copy_path, sizeof(copy_path), "/proc/self/fd/%d", t->copy_fd);
		lib_path = copy_path;
	}
	errno = 0;
	/* datpages.c reads the CPU data: the library needs only the headers */
	if (t->chk.use_pages)
		t->handle = tracecmd_open_head(lib_path, TRACECMD_FL_LOAD_NO_PLUGINS);
	else
		t->handle = tracecmd_open(lib_path, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!t->handle) {
		err = an_diag_fail(d, AN_E_LIBRARY, "libtracecmd cannot read it%s%s",
				   errno ? ": " : "", errno ? strerror(errno) : "");
		goto fail;
	}
	t->tep = tracecmd_get_tep(t->handle);
	if (!t->chk.use_pages && t->chk.nr_buffers) {
		err = open_instances(t, d);
		if (err)
			goto fail;
	}
	t->page_size = (unsigned long long)tep_get_page_size(t->tep);
	t->is_swap = tep_is_file_bigendian(t->tep) != tep_is_local_bigendian(t->tep);
	if (t->chk.use_pages) {
		err = an_datpages_open(path, &t->chk, t->tep, dat_reader == AN_DAT_PAGES, &t->pages, d);
		if (err)
			goto fail;
	} else if (!is_compressed(&t->chk)) {
		struct stat st;
		int n = tep_get_cpus(t->tep);

		if (!(t->copy_fd >= 0 ? fstat(t->copy_fd, &st) : stat(path, &st)) && n > 0) {
			t->map = an_calloc((size_t)n, sizeof(*t->map));
			t->nr_map = t->map ? (unsigned int)n : 0;
			t->dev = st.st_dev;
			t->ino = st.st_ino;
		}
	}
	info->file_version = t->chk.version;
	snprintf(info->compression, sizeof(info->compression), "%s", t->chk.compression);
	snprintf(info->kernel_release, sizeof(info->kernel_release), "%s",
		 t->chk.kernel_release);
	info->is_dat_pages = t->pages != NULL;
	info->nr_formats_blanked = t->chk.nr_blanked;
	info->nr_lost_before = t->chk.nr_lost_before;
	info->nr_cpus_read_before = t->chk.nr_cpus_read_before;
	snprintf(info->format_blanked, sizeof(info->format_blanked), "%s", t->chk.blanked);
	list_formats(t->tep, info);
	info->nr_cpus = tep_get_cpus(t->tep);
	if (info->nr_cpus <= 0)
		info->nr_cpus = t->chk.nr_cpus;
	*out = t;
	return 0;

fail:
	an_tracedat_close(t);
	return err;
}

/* The mapping of the trace file that holds @addr: false when there is none. */
static bool find_map(const struct an_tracedat *t, uintptr_t addr, uintptr_t *start,
		     uintptr_t *end)
{
	FILE *f = fopen("/proc/self/maps", "re");
	char line[512];
	bool is_found = false;

	if (!f)
		return false;
	while (!is_found && fgets(line, sizeof(line), f)) {
		uintptr_t a, b;
		unsigned int major, minor;
		unsigned long long off, ino;
		char perms[8];

		if (sscanf(line, "%" SCNxPTR "-%" SCNxPTR " %7s %llx %x:%x %llu", &a, &b, perms,
			   &off, &major, &minor, &ino) != 7)
			continue;
		if (addr < a || addr >= b || ino != (unsigned long long)t->ino ||
		    makedev(major, minor) != t->dev)
			continue;
		*start = a;
		*end = b;
		is_found = true;
	}
	fclose(f);
	return is_found;
}

/* Give back the pages of @rec's CPU below @rec's (see DROP_CHUNK). */
static void drop_behind(struct an_tracedat *t, const struct tep_record *rec)
{
	uintptr_t addr = (uintptr_t)rec->data, page;
	struct cpu_map *m;

	if (rec->cpu < 0 || (unsigned int)rec->cpu >= t->nr_map || !addr)
		return;
	m = &t->map[rec->cpu];
	if (m->is_unmapped)
		return;
	if (addr < m->start || addr >= m->end) {
		uintptr_t start, end;

		/*
		 * The CPU's records went on in another mapping: what this one
		 * still holds will not be read again. Given back only while it
		 * is the same mapping of the file, as found before. Without
		 * this, each mapping kept its last up to DROP_CHUNK (4 MB then): 8 CPUs,
		 * 10 M events: 65 MB resident instead of 36.
		 */
		if (m->end > m->dropped && find_map(t, m->dropped, &start, &end) &&
		    start == m->start && end == m->end)
			madvise((void *)m->dropped, m->end - m->dropped, MADV_DONTNEED);
		if (!find_map(t, addr, &m->start, &m->end)) {
			m->start = m->end = 0;
			m->is_unmapped = true;
		} else if (t->nr_seen < MAX_SEEN)
			t->seen[t->nr_seen++] = *m;
		m->dropped = m->start;
		return;
	}
	if (addr - m->dropped < DROP_CHUNK)
		return;		/* page <= addr: nothing to give back yet */
	page = addr & ~((uintptr_t)sysconf(_SC_PAGESIZE) - 1);
	if (page > m->dropped && page - m->dropped >= DROP_CHUNK) {
		madvise((void *)m->dropped, page - m->dropped, MADV_DONTNEED);
		m->dropped = page;
	}
}

/* After tracecmd_close(): unmap the file mappings the library left. */
static void unmap_left(const struct an_tracedat *t)
{
	for (unsigned int i = 0; i < t->nr_seen; i++) {
		uintptr_t start, end;

		/* still there, as found: the library did not unmap or reuse it */
		if (find_map(t, t->seen[i].start, &start, &end) && start == t->seen[i].start &&
		    end == t->seen[i].end)
			munmap((void *)start, end - start);
	}
}

/**
 * an_tracedat_close() - free @t and its libtracecmd handle
 * @t: reader, may be NULL
 */
void an_tracedat_close(struct an_tracedat *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->alloc_fmts; i++)
		free(t->fmts[i]);
	free(t->fmts);
	if (!t->pages) {
		if (t->current)
			tracecmd_free_record(t->current);
		if (t->held)
			tracecmd_free_record(t->held);
	}
	an_datpages_close(t->pages);
	for (int i = 1; i < t->nr_lib; i++) {
		if (t->pend[i])
			tracecmd_free_record(t->pend[i]);
		tracecmd_close(t->lib[i]);
	}
	if (t->nr_lib && t->pend[0])
		tracecmd_free_record(t->pend[0]);
	free(t->lib);
	free(t->pend);
	free(t->is_done);
	if (t->handle)
		tracecmd_close(t->handle);
	if (t->copy_fd >= 0)
		close(t->copy_fd);
	unmap_left(t);
	free(t->map);
	free(t->next_off);
	an_datcheck_free(&t->chk);
	free(t);
}

/* Whether a print-format expression reads field @name. */
static bool arg_uses(const struct tep_print_arg *a, const char *name, int depth)
{
	if (!a || depth > PRINT_ARG_DEPTH)
		return false;
	switch (a->type) {
	case TEP_PRINT_FIELD:
		return a->field.name && !strcmp(a->field.name, name);
	case TEP_PRINT_OP:
		return arg_uses(a->op.left, name, depth + 1) ||
		       arg_uses(a->op.right, name, depth + 1);
	case TEP_PRINT_TYPE:
		return arg_uses(a->typecast.item, name, depth + 1);
	default:
		return false;
	}
}

/* Value of a constant expression ("4096", "(0x80 + 1) << 1"). */
static bool arg_eval(const struct tep_print_arg *a, unsigned long long *v, int depth)
{
	unsigned long long l, r;
	char *end;

	if (!a || depth > PRINT_ARG_DEPTH)
		return false;
	if (a->type == TEP_PRINT_ATOM && a->atom.atom) {
		errno = 0;
		*v = strtoull(a->atom.atom, &end, 0);
		return !errno && end != a->atom.atom && !*end;
	}
	if (a->type == TEP_PRINT_TYPE)
		return arg_eval(a->typecast.item, v, depth + 1);
	if (a->type != TEP_PRINT_OP || !a->op.op || !a->op.left ||
	    !arg_eval(a->op.left, &l, depth + 1) || !arg_eval(a->op.right, &r, depth + 1))
		return false;
	switch (a->op.op[0]) {
	case '+': *v = l + r; return !a->op.op[1];
	case '-': *v = l - r; return !a->op.op[1];
	case '|': *v = l | r; return !a->op.op[1];
	case '&': *v = l & r; return !a->op.op[1];
	case '<': *v = r < 64 ? l << r : 0; return !strcmp(a->op.op, "<<");
	case '>': *v = r < 64 ? l >> r : 0; return !strcmp(a->op.op, ">>");
	default: return false;
	}
}

static bool is_string_arg(const struct tep_print_arg *a, const char *s)
{
	if (!a)
		return false;
	if (a->type == TEP_PRINT_ATOM)
		return a->atom.atom && !strcmp(a->atom.atom, s);
	if (a->type == TEP_PRINT_STRING)
		return a->string.string && !strcmp(a->string.string, s);
	return false;
}

/*
 * Learn the prev_state letters from sched_switch's own print format: its
 * __print_flags() table and the "prev_state & X ? "+" : """ test. Kernels
 * changed both (4.11: S D T t Z X x K W P N, + = 4096; 4.14+: ... I, + = 256).
 */
static void find_state_bits(const struct tep_print_arg *a, struct an_state_bits *b,
			    int depth)
{
	for (; a && depth <= PRINT_ARG_DEPTH; a = a->next) {
		unsigned long long v;

		if (a->type == TEP_PRINT_FLAGS && arg_uses(a->flags.field, "prev_state", 0)) {
			b->nr = 0;
			for (const struct tep_print_flag_sym *f = a->flags.flags;
			     f && b->nr < AN_STATE_BITS_MAX; f = f->next) {
				char *end;

				if (!f->value || !f->str || !f->str[0] || f->str[1])
					continue;
				v = strtoull(f->value, &end, 0);
				if (*end || !v)
					continue;
				b->mask[b->nr] = v;
				b->letter[b->nr++] = f->str[0];
			}
		}
		if (a->type == TEP_PRINT_OP && a->op.op && !strcmp(a->op.op, "?") &&
		    a->op.right && a->op.right->type == TEP_PRINT_OP &&
		    is_string_arg(a->op.right->op.left, "+") &&
		    a->op.left && a->op.left->type == TEP_PRINT_OP &&
		    a->op.left->op.op && !strcmp(a->op.left->op.op, "&") &&
		    arg_uses(a->op.left->op.left, "prev_state", 0) &&
		    arg_eval(a->op.left->op.right, &v, 0))
			b->preempt = v;
		if (a->type == TEP_PRINT_OP) {
			find_state_bits(a->op.left, b, depth + 1);
			find_state_bits(a->op.right, b, depth + 1);
		}
	}
}

static void resolve_state_bits(struct fmt *f)
{
	struct an_state_bits b = { 0 };
	unsigned long long top = 0;

	find_state_bits(f->event->print_fmt.args, &b, 0);
	if (!b.nr) {
		f->state_bits = an_alias_state_mainline;
		return;
	}
	for (unsigned int i = 0; i < b.nr; i++)
		if (b.mask[i] > top)
			top = b.mask[i];
	if (!b.preempt)
		b.preempt = top << 1;
	f->state_bits = b;
}

/* The cached format of event @id, resolved on first use. */
/*
 * Sort @f's fields: a number of 1, 2, 4 or 8 bytes at a fixed offset goes to
 * decode_num(), a task name in a fixed array and prev_state to decode_text();
 * other strings and anything odd to decode_field(), which also words every
 * error. And keep the event as an_alias_reset() leaves it.
 */
static void plan_fields(struct fmt *f)
{
	const struct an_alias_type *at = an_alias_type(f->type);

	for (unsigned int i = 0; i < at->nr_fields; i++) {
		const struct an_alias_field *af = &at->fields[i];
		const struct tep_format_field *tf = f->fields[i];

		if (af->is_required)
			f->required |= UINT32_C(1) << i;
		if (!tf)
			continue;
		if ((af->kind == AN_FK_INT || af->kind == AN_FK_UINT || af->kind == AN_FK_LLONG) &&
		    !(tf->flags & TEP_FIELD_IS_DYNAMIC) && tf->offset >= 0 &&
		    (tf->size == 1 || tf->size == 2 || tf->size == 4 || tf->size == 8)) {
			f->num[f->nr_num++] = (struct num_field){
				.i = i, .kind = af->kind, .dst = af->offset,
				.off = (unsigned int)tf->offset, .size = (unsigned int)tf->size,
				.is_signed = tf->flags & TEP_FIELD_IS_SIGNED,
			};
		} else {
			f->other |= UINT32_C(1) << i;
			if (tf->flags & TEP_FIELD_IS_DYNAMIC || tf->offset < 0)
				continue;
			if ((af->kind == AN_FK_COMM && tf->size > 0) ||
			    (af->kind == AN_FK_STATE &&
			     (tf->size == 1 || tf->size == 2 || tf->size == 4 || tf->size == 8)))
				f->text[i] = (struct text_field){
					.kind = af->kind, .dst = af->offset,
					.off = (unsigned int)tf->offset, .size = (unsigned int)tf->size,
				};
		}
	}
	an_alias_reset(&f->blank, f->type);
	f->blank_len = an_alias_member_size(f->type);
}

/* get_fmt() for an id not seen yet: its format planned, or why not. */
static int load_fmt(struct an_tracedat *t, int id, struct fmt **out, struct an_diag *d)
{
	const struct an_alias_type *at;
	struct tep_event *event;
	struct fmt *f;

	if (id < 0 || id >= FMT_IDS)
		return an_diag_fail(d, AN_E_VALUE, "bad event id %d", id);
	/*
	 * The id comes from the record: the cache grows only for an id the
	 * formats have (a fuzzed id of 2^31 made it allocate gigabytes).
	 */
	event = tep_find_event(t->tep, id);
	if (!event || !event->name)
		return an_diag_fail(d, AN_E_VALUE, "no format for event id %d", id);
	if (AN_VEC_GROW(t->fmts, (size_t)id + 1, t->alloc_fmts))
		return an_diag_fail(d, -ENOMEM, "out of memory");
	f = an_calloc(1, sizeof(*f));
	if (!f)
		return an_diag_fail(d, -ENOMEM, "out of memory");
	f->event = event;
	f->type = an_alias_lookup(f->event->name, strlen(f->event->name));
	at = an_alias_type(f->type);
	for (unsigned int i = 0; i < at->nr_fields; i++)
		for (unsigned int n = 0; n < AN_ALIAS_MAX_NAMES && !f->fields[i]; n++)
			if (at->fields[i].names[n])
				f->fields[i] = tep_find_field(f->event, at->fields[i].names[n]);
	if (f->type == AN_EV_SCHED_SWITCH)
		resolve_state_bits(f);
	plan_fields(f);
	t->fmts[id] = f;
	*out = f;
	return 0;
}

/* The planned format of event @id (an id seen before: inline, each event). */
static inline int get_fmt(struct an_tracedat *t, int id, struct fmt **out, struct an_diag *d)
{
	if (id >= 0 && (size_t)id < t->alloc_fmts && t->fmts[id]) {
		*out = t->fmts[id];
		return 0;
	}
	return load_fmt(t, id, out, d);
}

/*
 * A number of @size bytes (1, 2, 4 or 8) at @p in the file's byte order,
 * what tep_read_number() does without its per-call lookups (0 and -1 for
 * another size). Inline: up to a dozen calls an event.
 */
static inline int read_num(const struct an_tracedat *t, const unsigned char *p, int size,
			   unsigned long long *v)
{
	uint16_t v16;
	uint32_t v32;
	uint64_t v64;

	switch (size) {
	case 1:
		*v = *p;
		return 0;
	case 2:
		memcpy(&v16, p, 2);
		*v = t->is_swap ? __builtin_bswap16(v16) : v16;
		return 0;
	case 4:
		memcpy(&v32, p, 4);
		*v = t->is_swap ? __builtin_bswap32(v32) : v32;
		return 0;
	case 8:
		memcpy(&v64, p, 8);
		*v = t->is_swap ? __builtin_bswap64(v64) : v64;
		return 0;
	default:
		*v = 0;
		return -1;
	}
}

/* Locate common_type and common_pid from @event's format, once. */
static void find_common(struct an_tracedat *t, struct tep_event *event)
{
	struct tep_format_field *ty = tep_find_common_field(event, "common_type");
	struct tep_format_field *pid = tep_find_common_field(event, "common_pid");

	if (!ty || !pid || ty->offset < 0 || pid->offset < 0 ||
	    ty->offset + ty->size > COMMON_HEADER_LEN || pid->offset + pid->size > COMMON_HEADER_LEN ||
	    (ty->size != 1 && ty->size != 2 && ty->size != 4) || pid->size != 4)
		return;
	t->type_off = (unsigned int)ty->offset;
	t->type_size = (unsigned int)ty->size;
	t->pid_off = (unsigned int)pid->offset;
	t->pid_size = (unsigned int)pid->size;
	t->has_common = true;
}

/* Bytes of a field: fixed array, __data_loc, or the record's tail. */
static int field_bytes(const struct tep_record *rec, const struct tep_format_field *f,
		       const char **s, size_t *len)
{
	unsigned long long off = (unsigned long long)f->offset, size = (unsigned long long)f->size;
	const char *data = rec->data;

	if (off > (unsigned long long)rec->size || size > (unsigned long long)rec->size - off)
		return -1;
	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		unsigned long long loc;

		if (tep_read_number_field((struct tep_format_field *)f, data, &loc))
			return -1;
		size = loc >> 16;
		if (f->flags & TEP_FIELD_IS_RELATIVE)
			off += (unsigned long long)f->size + (loc & 0xffff);
		else
			off = loc & 0xffff;
		if (off > (unsigned long long)rec->size ||
		    size > (unsigned long long)rec->size - off)
			return -1;
	} else if (size == 0) {
		size = (unsigned long long)rec->size - off;	/* print's buf[] */
	}
	*s = data + off;
	*len = (size_t)size;
	return 0;
}

/* A string field: field_bytes() up to its first NUL. */
static int field_str(const struct tep_record *rec, const struct tep_format_field *f,
		     const char **s, size_t *len)
{
	if (field_bytes(rec, f, s, len))
		return -1;
	*len = strnlen(*s, *len);
	return 0;
}

/*
 * A cpumask field (__data_loc cpumask_t: unsigned longs of the file's size
 * and byte order, CPU n at bit n): the bits of CPUs 0..63. Return: 0, -1
 * when it is outside the record, -2 when a CPU above 63 is set.
 */
static int field_mask(const struct an_tracedat *t, const struct tep_record *rec,
		      const struct tep_format_field *f, unsigned long long *mask)
{
	unsigned int lsz = t->chk.long_size == 4 ? 4 : 8;
	const char *s;
	size_t size;

	if (field_bytes(rec, f, &s, &size))
		return -1;
	*mask = 0;
	for (size_t off = 0; off + lsz <= size; off += lsz) {
		unsigned long long v;

		read_num(t, (const unsigned char *)s + off, (int)lsz, &v);
		if (off >= sizeof(*mask)) {
			if (v)
				return -2;
			continue;
		}
		*mask |= v << (8 * off);
	}
	return 0;
}

static int decode_field(const struct an_tracedat *t, struct fmt *f, unsigned int i,
			const struct tep_record *rec, struct an_event *ev, struct an_diag *d)
{
	const struct an_alias_field *af = &an_alias_type(f->type)->fields[i];
	struct tep_format_field *tf = f->fields[i];
	unsigned long long v;
	long long sv;
	const char *s;
	size_t len;

	if (af->kind == AN_FK_MASK) {
		unsigned long long mask;
		int err = field_mask(t, rec, tf, &mask);

		if (err == -1)
			goto out_of_record;
		if (err) {
			an_diag_set_name(d->field, tf->name, strlen(tf->name));
			return an_diag_fail(d, AN_E_VALUE, "a CPU above 63 in '%s'", tf->name);
		}
		return an_alias_set_num(ev, i, (long long)mask, d);
	}
	if (af->kind == AN_FK_COMM || af->kind == AN_FK_PATH || af->kind == AN_FK_TEXT) {
		if (field_str(rec, tf, &s, &len))
			goto out_of_record;
		if (af->kind == AN_FK_TEXT)
			while (len && (s[len - 1] == '\n' || s[len - 1] == '\r'))
				len--;
		return an_alias_set_str(ev, i, s, len, d);
	}
	if (tf->offset < 0 || tf->size <= 0 || tf->size > 8 ||
	    tf->offset + tf->size > rec->size)
		goto out_of_record;
	if (read_num(t, (const unsigned char *)rec->data + tf->offset, tf->size, &v))
		goto out_of_record;
	if (af->kind == AN_FK_STATE) {
		char state[AN_STATE_LEN];

		an_alias_state_str(&f->state_bits, v, state);
		return an_alias_set_str(ev, i, state, strlen(state), d);
	}
	if ((tf->flags & TEP_FIELD_IS_SIGNED) && tf->size < 8) {
		unsigned int shift = 64 - 8 * (unsigned int)tf->size;

		sv = (long long)(v << shift) >> shift;	/* sign-extend */
	} else if (!(tf->flags & TEP_FIELD_IS_SIGNED) && v > (unsigned long long)LLONG_MAX) {
		an_diag_set_name(d->field, tf->name, strlen(tf->name));
		return an_diag_fail(d, AN_E_VALUE, "value out of range for '%s'", tf->name);
	} else {
		sv = (long long)v;
	}
	return an_alias_set_num(ev, i, sv, d);

out_of_record:
	an_diag_set_name(d->field, tf->name, strlen(tf->name));
	return an_diag_fail(d, AN_E_VALUE,
			    "field '%s' outside the record", tf->name);
}

/*
 * A planned number (plan_fields()) into @ev, as decode_field() and
 * an_alias_set_num() would store it; -1 when it is outside the record or
 * does not fit, for decode_field() to say why.
 */
static int decode_num(const struct an_tracedat *t, const struct num_field *n,
		      const struct tep_record *rec, struct an_event *ev)
{
	char *dst = (char *)ev + n->dst;
	unsigned long long v;
	long long sv;

	if (n->off + n->size > (unsigned int)rec->size)
		return -1;
	read_num(t, (const unsigned char *)rec->data + n->off, (int)n->size, &v);
	if (n->is_signed && n->size < 8) {
		unsigned int shift = 64 - 8 * n->size;

		sv = (long long)(v << shift) >> shift;	/* sign-extend */
	} else if (!n->is_signed && v > (unsigned long long)LLONG_MAX) {
		return -1;
	} else {
		sv = (long long)v;
	}
	switch (n->kind) {
	case AN_FK_INT:
		if (sv < INT32_MIN || sv > INT32_MAX)
			return -1;
		*(int *)dst = (int)sv;
		break;
	case AN_FK_UINT:
		if (sv < INT32_MIN || sv > UINT32_MAX)
			return -1;
		*(unsigned int *)dst = (unsigned int)sv;
		break;
	default:
		*(long long *)dst = sv;
		break;
	}
	ev->present |= UINT32_C(1) << n->i;
	return 0;
}

/*
 * A text field planned in plan_fields(), as decode_field() would store it;
 * -1 when it is outside the record, for decode_field() to say so.
 */
static int decode_text(const struct an_tracedat *t, const struct fmt *f, unsigned int i,
		       const struct tep_record *rec, struct an_event *ev)
{
	const struct text_field *x = &f->text[i];
	const unsigned char *src = (const unsigned char *)rec->data + x->off;
	char *dst = (char *)ev + x->dst;

	if (x->off + x->size > (unsigned int)rec->size)
		return -1;
	if (x->kind == AN_FK_COMM) {
		/* a name longer than AN_COMM_LEN - 1 is cut, as an_alias_set_str() does */
		size_t len = strnlen((const char *)src, x->size < AN_COMM_LEN - 1 ?
				     x->size : AN_COMM_LEN - 1);

		memcpy(dst, src, len);
		dst[len] = '\0';
	} else {
		unsigned long long v;

		read_num(t, src, (int)x->size, &v);
		an_alias_state_str(&f->state_bits, v, dst);
	}
	ev->present |= UINT32_C(1) << i;
	return 0;
}

/*
 * libtraceevent takes a record's length from the ring buffer unchecked; a
 * damaged one would make the fields extend past its page. The record header
 * (at least RECORD_HEADER_LEN bytes) and the data must end within the page.
 */
static bool record_fits_page(const struct an_tracedat *t, const struct tep_record *rec)
{
	unsigned long long page = t->page_size;
	unsigned long long end;

	if (!page || (page & (page - 1)))
		return true;	/* datcheck refused such files */
	end = (rec->offset | (page - 1)) + 1;
	return rec->size >= 0 &&
	       (unsigned long long)rec->size + RECORD_HEADER_LEN <= end - rec->offset;
}

static int decode_record(struct an_tracedat *t, struct tep_record *rec, struct an_event *ev,
			 struct fmt **fp, struct an_diag *d)
{
	struct fmt *f = NULL;
	int err;

	if (rec->size < COMMON_HEADER_LEN || !record_fits_page(t, rec))
		return an_diag_fail(d, AN_E_VALUE, "record of %d bytes", rec->size);
	if (t->has_common) {
		unsigned long long ty;

		read_num(t, (const unsigned char *)rec->data + t->type_off, (int)t->type_size, &ty);
		err = get_fmt(t, (int)ty, &f, d);
	} else {
		err = get_fmt(t, tep_data_type(t->tep, rec), &f, d);
		if (!err)
			find_common(t, f->event);
	}
	if (err)
		return err;
	*fp = f;
	/* an_alias_reset(), from its result */
	memcpy(&ev->sw, &f->blank.sw, f->blank_len);
	ev->type = f->type;
	ev->present = 0;
	ev->name = f->event->name;
	ev->ts_ns = rec->ts;
	ev->cpu = rec->cpu;
	if (t->has_common) {
		unsigned long long pid;

		read_num(t, (const unsigned char *)rec->data + t->pid_off, (int)t->pid_size, &pid);
		ev->pid = (int)pid;
	} else {
		ev->pid = tep_data_pid(t->tep, rec);
	}
	ev->pos = t->nr_records;
	for (unsigned int k = 0; k < f->nr_num; k++) {
		if (decode_num(t, &f->num[k], rec, ev)) {
			/* the general path, in row order, says which field failed first */
			for (unsigned int i = 0; i < an_alias_type(f->type)->nr_fields; i++) {
				if (!f->fields[i])
					continue;
				err = decode_field(t, f, i, rec, ev, d);
				if (err)
					return err;
			}
			break;
		}
	}
	for (uint32_t other = f->other; other; other &= other - 1) {
		unsigned int i = (unsigned int)__builtin_ctz(other);

		if (!f->text[i].kind || decode_text(t, f, i, rec, ev)) {
			err = decode_field(t, f, i, rec, ev, d);
			if (err)
				return err;
		}
	}
	err = (ev->present & f->required) == f->required ? 0 : an_alias_check(ev, d);
	if (!err && f->type == AN_EV_PRINT) {
		err = an_marker_parse(ev->print.text, ev->print.len, ev->pid,
				      &ev->print.marker, d);
		err = err < 0 ? err : 0;
	}
	return err;
}

/*
 * A CPU's records must go forward in the file. A bad event length can point
 * back, and libtracecmd then returns the same records forever (a fuzzed file
 * did); datpages.c refuses such a record at the same place.
 */
static int check_forward(struct an_tracedat *t, const struct tep_record *rec, int inst,
			 struct an_diag *d)
{
	size_t cpu = (size_t)rec->cpu + (size_t)inst * AN_DATCHECK_MAX_CPUS;

	if (rec->cpu < 0 || rec->cpu >= AN_DATCHECK_MAX_CPUS)
		return 0;
	if (AN_VEC_GROW(t->next_off, cpu + 1, t->alloc_next_off))
		return an_diag_fail(d, -ENOMEM, "out of memory");
	if (t->next_off[cpu] && rec->offset < t->next_off[cpu])
		return an_diag_fail(d, AN_E_CORRUPT,
				    "event at offset %llu does not follow the one at %llu "
				    "(a bad event length)", rec->offset, t->next_off[cpu] - 1);
	t->next_off[cpu] = rec->offset + 1;
	return 0;
}

/* A LOST_EVENTS event of @cpu before @rec (its timestamp, its position). */
static void lost_event(const struct an_tracedat *t, struct an_event *ev, uint64_t ts_ns,
		       int cpu, unsigned long long count)
{
	memset(ev, 0, sizeof(*ev));
	ev->type = AN_EV_LOST_EVENTS;
	ev->name = "lost_events";
	ev->ts_ns = ts_ns;
	ev->cpu = cpu;
	ev->pid = -1;
	ev->pos = t->nr_records;
	ev->lost.count = count;
}

/*
 * The next loss after a CPU's last record (an_datcheck_tail_loss) into
 * @ev when it comes before @rec (a tie goes to the record: the loss
 * followed its CPU's last record), or at the end when @rec is NULL.
 * Return: 1 when @ev holds it, else 0.
 */
static int tail_lost_event(struct an_tracedat *t, struct an_event *ev,
			   const struct tep_record *rec)
{
	const struct an_datcheck_tail_loss *l;

	if (t->nr_tail_sent >= t->chk.nr_tail_lost)
		return 0;
	l = &t->chk.tail_lost[t->nr_tail_sent];
	if (rec && l->ts_ns >= rec->ts)
		return 0;
	t->nr_tail_sent++;
	lost_event(t, ev, l->ts_ns, l->cpu, l->count);
	return 1;
}

/**
 * an_tracedat_next() - decode the next record, all CPUs merged by timestamp
 * @t: reader
 * @ev: event to fill; its name and print text live until the next call
 * @d: diagnostic; record index and CPU are set on every error
 *
 * Return: 1, 0 at the end, or a negative code.
 */
int an_tracedat_next(struct an_tracedat *t, struct an_event *ev, struct an_diag *d)
{
	struct tep_record *rec;
	struct fmt *f = NULL;
	int inst = 0, err;

	if (t->current) {
		if (!t->pages)
			tracecmd_free_record(t->current);
		t->current = NULL;
	}
	rec = t->held;
	inst = t->held_inst;
	t->held = NULL;
	if (!rec) {
		if (t->pages) {
			err = an_datpages_next(t->pages, &rec, d);
			if (err < 0)
				return err;
			if (!err)
				rec = NULL;
		} else {
			rec = lib_next(t, &inst);
			err = rec ? check_forward(t, rec, inst, d) : 0;
			if (err) {
				tracecmd_free_record(rec);
				return err;
			}
		}
		if (!rec)
			return tail_lost_event(t, ev, NULL);
		t->nr_records++;
		t->is_held_lost = rec->missed_events != 0;
	}
	/* losses after a CPU's last record, in time order with the records */
	if (tail_lost_event(t, ev, rec)) {
		t->held = rec;
		t->held_inst = inst;
		return 1;
	}
	/* losses no page places first, stamped with the first record */
	if (t->nr_unplaced_sent < t->chk.nr_unplaced) {
		const struct an_datcheck_loss *l = &t->chk.unplaced[t->nr_unplaced_sent++];

		lost_event(t, ev, rec->ts, l->cpu, l->count);
		ev->lost.is_unplaced = true;
		t->held = rec;
		t->held_inst = inst;
		return 1;
	}
	if (t->is_held_lost) {
		t->is_held_lost = false;
		lost_event(t, ev, rec->ts, rec->cpu,
			   rec->missed_events > 0 ? (unsigned long long)rec->missed_events : 0);
		t->held = rec;
		t->held_inst = inst;
		return 1;
	}
	t->current = rec;
	if (!t->pages && !inst)
		drop_behind(t, rec);
	d->record = t->nr_records;
	d->cpu = rec->cpu;
	err = decode_record(t, rec, ev, &f, d);
	if (err && f)
		an_diag_set_name(d->event, f->event->name, strlen(f->event->name));
	return err ?: 1;
}
