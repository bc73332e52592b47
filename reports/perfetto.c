// SPDX-License-Identifier: MIT
/*
 * reports/perfetto.c - one analyzed trace and its findings as a Perfetto
 * trace (perfetto.h). The findings are packets of one sequence of their
 * own (REP_PERFETTO_SEQ_ID), the first clearing its incremental state:
 *
 *   "ucval"                        root track
 *     <check_id>                   a track per check, its verdict described
 *       cpu N [#k]                 slices: the mismatch windows on CPU N
 *     undecided
 *       <check_id> cpu N [#k]      slices: the undecided windows
 *     cpufreq policy P
 *       policy P observed|floor|ceiling|expected   counters, kHz
 *
 * A track holds properly nested slices only, so windows that overlap
 * (other CPUs, other tasks) go to tracks of their own: one per CPU, and a
 * further lane (#2, #3, ...) when windows on one CPU overlap. Slice and
 * counter times are the database's, on the trace's clock, which is also
 * the clock of its ftrace events. Fields go out in field number order, as
 * protoc writes them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

#include "analyze/store/chunk.h"
#include "analyze/store/pfconv.h"
#include "lib/malloc.h"
#include "lib/pbout.h"
#include "lib/sha256.h"
#include "lib/vec.h"
#include "reports/perfetto.h"

/* TracePacket, TrackDescriptor, CounterDescriptor, TrackEvent, DebugAnnotation. */
enum {
	PKT_TIMESTAMP = 8,
	PKT_SEQ_ID = 10,
	PKT_TRACK_EVENT = 11,
	PKT_SEQ_FLAGS = 13,
	PKT_TRACK_DESCRIPTOR = 60,
	SEQ_INCREMENTAL_STATE_CLEARED = 1,
	TD_UUID = 1,
	TD_NAME = 2,
	TD_PARENT = 5,
	TD_COUNTER = 8,
	TD_DESCRIPTION = 14,
	CD_UNIT_NAME = 6,
	TE_ANNOTATION = 4,
	TE_TYPE = 9,
	TE_TRACK_UUID = 11,
	TE_NAME = 23,
	TE_COUNTER_VALUE = 30,
	TYPE_SLICE_BEGIN = 1,
	TYPE_SLICE_END = 2,
	TYPE_COUNTER = 4,
	DA_UINT = 3,
	DA_INT = 4,
	DA_STRING = 6,
	DA_NAME = 10,
};

/* The series of freq_intervals, in the order of their columns. */
enum { S_OBSERVED, S_EXPECTED, S_FLOOR, S_CEILING, NR_SERIES };

static const char *const series_name[NR_SERIES] = {
	[S_OBSERVED] = "observed", [S_EXPECTED] = "expected",
	[S_FLOOR] = "floor", [S_CEILING] = "ceiling",
};

/* Bytes copied at once from a Perfetto input. */
#define COPY_BUF	(256u * 1024)
/* Room for a track's name or description. */
#define NAME_LEN	160

/* A counter of one policy: the value in force and where it ends. */
struct series {
	uint64_t uuid;			/* 0 until its first value */
	bool is_open;
	int64_t value;
	int64_t end_ns;
};

struct policy_series {
	int policy;
	uint64_t parent;
	struct series s[NR_SERIES];
};

/* A lane of slices: a track and the end of its last slice. */
struct lane {
	uint64_t uuid;
	int64_t end_ns;
};

struct pf_out {
	struct an_pfenc *enc;
	struct an_pbout pkt;
	uint64_t next_uuid;
	bool is_started;		/* the first packet (state cleared) is out */
	uint64_t root;
	uint64_t undecided;
	uint64_t *check_uuid;		/* per verdict of the trace */
	const struct rep_trace *t;
	struct policy_series pol;
	bool has_pol;
	int err;
};

/* ---- packets ---- */

static void packet_head(struct pf_out *o, bool has_ts, int64_t ts_ns)
{
	if (has_ts)
		an_pbout_varint(&o->pkt, PKT_TIMESTAMP, (uint64_t)ts_ns);
	an_pbout_varint(&o->pkt, PKT_SEQ_ID, REP_PERFETTO_SEQ_ID);
}

static void packet_send(struct pf_out *o)
{
	an_pfenc_packet(o->enc, &o->pkt);
}

/* A new track under @parent (0: none); @unit makes it a counter. */
static uint64_t track(struct pf_out *o, uint64_t parent, const char *name, const char *desc,
		      const char *unit)
{
	uint64_t uuid = o->next_uuid++;

	packet_head(o, false, 0);
	if (!o->is_started) {
		an_pbout_varint(&o->pkt, PKT_SEQ_FLAGS, SEQ_INCREMENTAL_STATE_CLEARED);
		o->is_started = true;
	}
	an_pbout_begin(&o->pkt, PKT_TRACK_DESCRIPTOR);
	an_pbout_varint(&o->pkt, TD_UUID, uuid);
	an_pbout_string(&o->pkt, TD_NAME, name);
	if (parent)
		an_pbout_varint(&o->pkt, TD_PARENT, parent);
	if (unit) {
		an_pbout_begin(&o->pkt, TD_COUNTER);
		an_pbout_string(&o->pkt, CD_UNIT_NAME, unit);
		an_pbout_end(&o->pkt);
	}
	if (desc)
		an_pbout_string(&o->pkt, TD_DESCRIPTION, desc);
	an_pbout_end(&o->pkt);
	packet_send(o);
	return uuid;
}

static void ann_str(struct an_pbout *b, const char *name, const char *s)
{
	if (!s)
		return;
	an_pbout_begin(b, TE_ANNOTATION);
	an_pbout_string(b, DA_STRING, s);
	an_pbout_string(b, DA_NAME, name);
	an_pbout_end(b);
}

static void ann_int(struct an_pbout *b, const char *name, int64_t v)
{
	an_pbout_begin(b, TE_ANNOTATION);
	an_pbout_int(b, DA_INT, v);
	an_pbout_string(b, DA_NAME, name);
	an_pbout_end(b);
}

static void ann_value(struct an_pbout *b, const char *name, const struct rep_value *v)
{
	if (v->is_int)
		ann_int(b, name, v->v);
	else
		ann_str(b, name, v->text);
}

static void slice_begin(struct pf_out *o, uint64_t uuid, const struct rep_window *w)
{
	struct an_pbout *b = &o->pkt;
	char name[NAME_LEN];

	snprintf(name, sizeof(name), "%s%s%s", w->check_id, w->rule ? " " : "",
		 w->rule ? w->rule : "");
	packet_head(o, true, w->ts_start_ns);
	an_pbout_begin(b, PKT_TRACK_EVENT);
	ann_str(b, "check", w->check_id);
	if (w->cpu >= 0)
		ann_int(b, "cpu", w->cpu);
	if (w->pid >= 0)
		ann_int(b, "pid", w->pid);
	ann_str(b, "comm", w->comm);
	ann_value(b, "expected", &w->expected);
	ann_value(b, "observed", &w->observed);
	ann_str(b, "rule", w->rule);
	ann_str(b, "message", w->message);
	ann_str(b, "explanation", w->explain);
	an_pbout_varint(b, TE_TYPE, TYPE_SLICE_BEGIN);
	an_pbout_varint(b, TE_TRACK_UUID, uuid);
	an_pbout_string(b, TE_NAME, name);
	an_pbout_end(b);
	packet_send(o);
}

static void slice_end(struct pf_out *o, uint64_t uuid, int64_t ts_ns)
{
	packet_head(o, true, ts_ns);
	an_pbout_begin(&o->pkt, PKT_TRACK_EVENT);
	an_pbout_varint(&o->pkt, TE_TYPE, TYPE_SLICE_END);
	an_pbout_varint(&o->pkt, TE_TRACK_UUID, uuid);
	an_pbout_end(&o->pkt);
	packet_send(o);
}

static void counter(struct pf_out *o, uint64_t uuid, int64_t ts_ns, int64_t v)
{
	packet_head(o, true, ts_ns);
	an_pbout_begin(&o->pkt, PKT_TRACK_EVENT);
	an_pbout_varint(&o->pkt, TE_TYPE, TYPE_COUNTER);
	an_pbout_varint(&o->pkt, TE_TRACK_UUID, uuid);
	an_pbout_int(&o->pkt, TE_COUNTER_VALUE, v);
	an_pbout_end(&o->pkt);
	packet_send(o);
}

/* ---- windows ---- */

static int cmp_window(const void *pa, const void *pb)
{
	const struct rep_window *a = *(const struct rep_window *const *)pa;
	const struct rep_window *b = *(const struct rep_window *const *)pb;
	int c = strcmp(a->check_id, b->check_id);

	if (c)
		return c;
	if (a->cpu != b->cpu)
		return a->cpu < b->cpu ? -1 : 1;
	if (a->ts_start_ns != b->ts_start_ns)
		return a->ts_start_ns < b->ts_start_ns ? -1 : 1;
	return (a->ts_end_ns > b->ts_end_ns) - (a->ts_end_ns < b->ts_end_ns);
}

static uint64_t check_parent(struct pf_out *o, const char *check_id)
{
	for (size_t i = 0; i < o->t->nr_verdicts; i++)
		if (!strcmp(o->t->verdicts[i].check_id, check_id))
			return o->check_uuid[i];
	return o->root;
}

/* The lane of window @w among @lanes of its (check, CPU); a new one if needed. */
static struct lane *lane_for(struct pf_out *o, const struct rep_window *w, bool is_fail,
			     struct lane **lanes, size_t *nr, size_t *alloc)
{
	char name[NAME_LEN], cpu[24];
	size_t i;

	for (i = 0; i < *nr; i++)
		if ((*lanes)[i].end_ns <= w->ts_start_ns)
			return &(*lanes)[i];
	if (AN_VEC_GROW(*lanes, *nr + 1, *alloc)) {
		o->err = -ENOMEM;
		return NULL;
	}
	if (w->cpu >= 0)
		snprintf(cpu, sizeof(cpu), "cpu %d", w->cpu);
	else
		snprintf(cpu, sizeof(cpu), "no cpu");
	snprintf(name, sizeof(name), "%s%s%s", is_fail ? "" : w->check_id, is_fail ? "" : " ",
		 cpu);
	if (i)
		snprintf(name + strlen(name), sizeof(name) - strlen(name), " #%zu", i + 1);
	(*lanes)[i].uuid = track(o, is_fail ? check_parent(o, w->check_id) : o->undecided,
				 name, NULL, NULL);
	(*lanes)[i].end_ns = INT64_MIN;
	(*nr)++;
	return &(*lanes)[i];
}

/* Windows @w (@nr of them) as slices, grouped by check and CPU. */
static void write_windows(struct pf_out *o, struct rep_window *w, size_t nr, bool is_fail)
{
	struct rep_window **sorted = an_calloc(nr ? nr : 1, sizeof(*sorted));
	struct lane *lanes = NULL;
	size_t nr_lanes = 0, alloc_lanes = 0;

	if (!sorted) {
		o->err = -ENOMEM;
		return;
	}
	for (size_t i = 0; i < nr; i++)
		sorted[i] = &w[i];
	qsort(sorted, nr, sizeof(*sorted), cmp_window);
	for (size_t i = 0; i < nr && !o->err; i++) {
		const struct rep_window *x = sorted[i];
		struct lane *l;

		if (i && (strcmp(x->check_id, sorted[i - 1]->check_id) ||
			  x->cpu != sorted[i - 1]->cpu))
			nr_lanes = 0;
		l = lane_for(o, x, is_fail, &lanes, &nr_lanes, &alloc_lanes);
		if (!l)
			break;
		slice_begin(o, l->uuid, x);
		slice_end(o, l->uuid, x->ts_end_ns > x->ts_start_ns ? x->ts_end_ns :
			  x->ts_start_ns);
		l->end_ns = x->ts_end_ns;
	}
	free(lanes);
	free(sorted);
}

static void write_tracks(struct pf_out *o)
{
	const struct rep_trace *t = o->t;
	char desc[NAME_LEN];

	o->root = track(o, 0, "ucval", t->path, NULL);
	o->check_uuid = an_calloc(t->nr_verdicts ? t->nr_verdicts : 1, sizeof(*o->check_uuid));
	if (!o->check_uuid) {
		o->err = -ENOMEM;
		return;
	}
	for (size_t i = 0; i < t->nr_verdicts; i++) {
		const struct rep_verdict *v = &t->verdicts[i];

		snprintf(desc, sizeof(desc), "%s: %" PRId64 " of %" PRId64 " decisions failed, "
			 "%" PRId64 " undecided, %" PRId64 " mismatch windows%s%s", v->verdict,
			 v->n_failed, v->n_checked, v->n_undecided, v->n_windows,
			 v->reason ? "; " : "", v->reason ? v->reason : "");
		o->check_uuid[i] = track(o, o->root, v->check_id, desc, NULL);
	}
	if (t->nr_undecided)
		o->undecided = track(o, o->root, "undecided", NULL, NULL);
}

/* ---- counters ---- */

static void series_close(struct pf_out *o, struct series *x)
{
	if (x->is_open)
		counter(o, x->uuid, x->end_ns, 0);
	x->is_open = false;
}

static void policy_close(struct pf_out *o)
{
	for (unsigned int i = 0; o->has_pol && i < NR_SERIES; i++)
		series_close(o, &o->pol.s[i]);
	o->has_pol = false;
}

static void policy_open(struct pf_out *o, int policy)
{
	char name[NAME_LEN];

	policy_close(o);
	o->pol = (struct policy_series){ .policy = policy };
	snprintf(name, sizeof(name), "cpufreq policy %d", policy);
	o->pol.parent = track(o, o->root, name, NULL, NULL);
	o->has_pol = true;
}

/* Value @v (@has: not NULL) of series @i over [@s, @e). */
static void series_add(struct pf_out *o, unsigned int i, int64_t s, int64_t e, bool has,
		       int64_t v)
{
	struct series *x = &o->pol.s[i];
	char name[NAME_LEN];

	if (!has) {
		series_close(o, x);
		return;
	}
	if (x->is_open && x->end_ns == s && x->value == v) {
		x->end_ns = e;
		return;
	}
	if (x->is_open && x->end_ns != s)
		series_close(o, x);
	if (!x->uuid) {
		snprintf(name, sizeof(name), "policy %d %s", o->pol.policy, series_name[i]);
		x->uuid = track(o, o->pol.parent, name, NULL, "kHz");
	}
	counter(o, x->uuid, s, v);
	*x = (struct series){ .uuid = x->uuid, .is_open = true, .value = v, .end_ns = e };
}

static void interval(struct pf_out *o, int policy, int64_t s, int64_t e, const bool *has,
		     const int64_t *v)
{
	if (!o->has_pol || o->pol.policy != policy)
		policy_open(o, policy);
	for (unsigned int i = 0; i < NR_SERIES; i++)
		series_add(o, i, s, e, has[i], v[i]);
}

/* freq_intervals: policy, ts_start_ns, ts_end_ns, observed, expected, lo, hi */
static int freq_row(void *ctx, sqlite3_stmt *st)
{
	bool has[NR_SERIES];
	int64_t v[NR_SERIES];

	for (int i = 0; i < NR_SERIES; i++) {
		has[i] = sqlite3_column_type(st, 3 + i) != SQLITE_NULL;
		v[i] = sqlite3_column_int64(st, 3 + i);
	}
	interval(ctx, sqlite3_column_int(st, 0), sqlite3_column_int64(st, 1),
		 sqlite3_column_int64(st, 2), has, v);
	return ((struct pf_out *)ctx)->err;
}

/* freq_interval_chunks: policy, ts_first_ns, intervals (analyze/store/chunk.h) */
static int freq_chunk_row(void *ctx, sqlite3_stmt *st)
{
	const char *text = (const char *)sqlite3_column_text(st, 2);
	uint64_t first = (uint64_t)sqlite3_column_int64(st, 1);
	long long num[AN_CHUNK_MAX_NUMS];
	struct an_chunk_reader c;
	unsigned int bits;
	int ret;

	an_chunk_begin(&c, text ? text : "", (size_t)sqlite3_column_bytes(st, 2));
	while ((ret = an_chunk_next(&c, num, &bits, 2 + NR_SERIES + 1)) > 0) {
		bool has[NR_SERIES];
		int64_t v[NR_SERIES];

		if ((bits & 0x3) != 0x3)
			return AN_E_DB;
		for (unsigned int i = 0; i < NR_SERIES; i++) {
			has[i] = bits & 1u << (2 + i);
			v[i] = num[2 + i];
		}
		interval(ctx, sqlite3_column_int(st, 0), (int64_t)(first + (uint64_t)num[0]),
			 (int64_t)(first + (uint64_t)num[1]), has, v);
	}
	return ret < 0 ? AN_E_DB : ((struct pf_out *)ctx)->err;
}

static int write_counters(struct pf_out *o, struct rep_rdb *db, struct an_diag *d)
{
	int err;

	if (!rep_rdb_has(db, REP_T_FREQ_INTERVALS))
		return 0;
	if (db->schema_version >= 3)
		err = rep_rdb_scan(db, "SELECT policy, ts_first_ns, intervals FROM"
				   " freq_interval_chunks WHERE trace_id = ?1"
				   " ORDER BY policy, ts_first_ns", o->t->trace_id,
				   freq_chunk_row, o, d);
	else
		err = rep_rdb_scan(db, "SELECT policy, ts_start_ns, ts_end_ns, observed_khz,"
				   " expected_khz, accepted_lo_khz, accepted_hi_khz"
				   " FROM freq_intervals WHERE trace_id = ?1"
				   " ORDER BY policy, ts_start_ns", o->t->trace_id, freq_row, o, d);
	policy_close(o);
	return err;
}

/* ---- the trace itself ---- */

static bool is_perfetto(const char *format)
{
	return format && (strcasestr(format, "perfetto") || strcasestr(format, "pftrace"));
}

static int stale(const struct rep_trace *t, const char *hex, struct an_diag *d)
{
	return an_diag_fail(d, -ESTALE, "not the trace analyzed: its sha256 is %.16s..., the "
			    "database has %.16s... for it (analyze it again)", hex,
			    t->sha256 ? t->sha256 : "nothing");
}

static int check_present(const struct rep_trace *t, struct an_diag *d)
{
	struct stat st;

	an_diag_set_file(d, "read", t->path);
	if (stat(t->path, &st))
		return an_diag_fail(d, -ENOENT, "no such file: the Perfetto report reads the "
				    "analyzed trace again");
	if (!t->sha256)
		return an_diag_fail(d, -ESTALE, "the database has no sha256 of it");
	return 0;
}

/* Copy a Perfetto trace as it is, hashing what is copied. */
static int copy_trace(FILE *out, const struct rep_trace *t, struct an_diag *d)
{
	char hex[AN_SHA256_HEX_LEN + 1];
	struct an_sha256 sha;
	unsigned char *buf;
	ssize_t n;
	int fd, err = check_present(t, d);

	if (err)
		return err;
	fd = open(t->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return an_diag_fail(d, -errno, "%s", strerror(errno));
	buf = an_malloc(COPY_BUF);
	if (!buf) {
		close(fd);
		return an_diag_fail(d, -ENOMEM, "out of memory");
	}
	an_sha256_init(&sha);
	while ((n = read(fd, buf, COPY_BUF)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = an_diag_fail(d, -errno, "%s", strerror(errno));
			break;
		}
		an_sha256_update(&sha, buf, (size_t)n);
		if (fwrite(buf, 1, (size_t)n, out) != (size_t)n) {
			err = an_diag_fail(d, -EIO, "cannot write the copy");
			break;
		}
	}
	free(buf);
	close(fd);
	if (err)
		return err;
	an_sha256_final(&sha, hex);
	return strcmp(hex, t->sha256) ? stale(t, hex, d) : 0;
}

static int check_hash(const struct rep_trace *t, struct an_diag *d)
{
	char hex[AN_SHA256_HEX_LEN + 1];
	int err = check_present(t, d);

	if (!err)
		err = an_sha256_file(t->path, hex, d);
	if (!err && strcmp(hex, t->sha256))
		err = stale(t, hex, d);
	return err;
}

int rep_perfetto_write(FILE *out, struct rep_rdb *db, struct rep_trace *t, struct an_diag *d)
{
	struct pf_out o = { .t = t, .next_uuid = REP_PERFETTO_UUID_BASE };
	bool is_pf = is_perfetto(t->format);
	int err = is_pf ? copy_trace(out, t, d) : check_hash(t, d);

	if (err)
		return err;
	if (an_pfenc_open(&o.enc, out))
		return an_diag_fail(d, -ENOMEM, "out of memory");
	if (!is_pf) {
		an_pfenc_system_info(o.enc, t->kernel, 0);
		err = an_pfconv_events(t->path, o.enc, d);
	}
	an_pfenc_flush(o.enc);
	if (!err) {
		write_tracks(&o);
		write_windows(&o, t->windows, t->nr_windows, true);
		write_windows(&o, t->undecided, t->nr_undecided, false);
		if (!o.err)
			err = write_counters(&o, db, d);
	}
	if (!err)
		err = o.err;
	if (!err)
		err = an_pbout_error(&o.pkt);
	if (an_pfenc_close(o.enc) && !err)
		err = -EIO;
	an_pbout_release(&o.pkt);
	free(o.check_uuid);
	if (err && !d->err)
		an_diag_fail(d, err, "cannot write the Perfetto trace: %s",
			     err < 0 && err > -4096 ? strerror(-err) : an_error_str(err));
	return err;
}
