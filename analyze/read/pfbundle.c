// SPDX-License-Identifier: MIT
/*
 * analyze/read/pfbundle.c - a Perfetto FtraceEventBundle: its events in
 * time order (typed and generic events, compact_sched's parallel arrays),
 * then each decoded into a canonical event (pfbundle.h).
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/pbwire.h"
#include "lib/vec.h"
#include "analyze/read/alias.h"
#include "analyze/read/marker.h"
#include "analyze/read/pfbundle.h"
#include "analyze/read/pfschema.h"

static int corrupt_at(struct an_diag *d, size_t off, const char *what, int err)
{
	d->offset = (long long)off;
	if (!err)
		return an_diag_fail(d, AN_E_CORRUPT, "%s", what);
	return an_diag_fail(d, AN_E_CORRUPT, "%s: %s", what, an_pb_strerror(err));
}

/* Array @number of a compact_sched has @got values, its timestamps @want. */
static int unequal(struct an_diag *d, size_t off, uint32_t number, size_t got, size_t want)
{
	d->offset = (long long)off;
	return an_diag_fail(d, AN_E_CORRUPT, "compact_sched field %u: %s%zu values where "
			    "its timestamps have %zu", number, got > want ? "more than " : "",
			    got > want ? want : got, want);
}

static struct an_pfrec *new_recs(struct an_pfbundle *b, size_t n)
{
	struct an_pfrec *r;

	if (AN_VEC_GROW(b->rec, b->nr_rec + n, b->alloc_rec))
		return NULL;
	r = &b->rec[b->nr_rec];
	memset(r, 0, n * sizeof(*r));
	for (size_t i = 0; i < n; i++)
		r[i].seq = (uint32_t)(b->nr_rec + i);
	b->nr_rec += n;
	return r;
}

/*
 * A FtraceEvent: its timestamp, pid and where its message is (one walk of
 * its fields); the message is decoded later.
 */
static int add_event(struct an_pfbundle *b, const struct an_pb *parent,
		     const struct an_pb_field *f, struct an_diag *d)
{
	struct an_pfrec *r = new_recs(b, 1);
	struct an_pb pb;
	struct an_pb_field x;
	int rc;

	if (!r)
		return an_diag_fail(d, -ENOMEM, "out of memory");
	r->kind = AN_PFREC_EVENT;
	r->data = f->data;
	r->len = f->len;
	an_pb_sub(&pb, parent, f);
	while ((rc = an_pb_next(&pb, &x)) > 0) {
		if (x.number == AN_PF_EVENT_TIMESTAMP && x.wire == AN_PB_VARINT)
			r->ts = x.value;
		else if (x.number == AN_PF_EVENT_PID && x.wire == AN_PB_VARINT)
			r->ev_pid = x.value;
		else if (x.wire == AN_PB_LEN && !r->body.number)	/* the event: a message */
			r->body = x;
	}
	return rc < 0 ? corrupt_at(d, an_pb_offset(&pb), "ftrace event", rc) : 0;
}

/* Values of every occurrence of compact field @number, counted. */
static int count_values(const struct an_pb *cs, uint32_t number, size_t *n)
{
	struct an_pb pb = *cs;
	struct an_pb_field x;
	int rc;

	*n = 0;
	while ((rc = an_pb_next(&pb, &x)) > 0) {
		struct an_pb_packed it;
		uint64_t v;

		if (x.number != number || an_pb_packed_init(&it, &x, AN_PB_VARINT))
			continue;
		while ((rc = an_pb_packed_next(&it, &v)) > 0)
			(*n)++;
		if (rc < 0)
			return rc;
	}
	return rc;
}

/* Store value @v of compact array @number into entry @r. */
static void put_value(struct an_pfrec *r, uint32_t number, uint64_t v, uint64_t *ts_acc)
{
	switch (number) {
	case AN_PF_CS_SWITCH_TS:
	case AN_PF_CS_WAKING_TS:
		*ts_acc += v;
		r->ts = *ts_acc;
		break;
	case AN_PF_CS_SWITCH_PREV_STATE:
		r->prev_state = (int64_t)v;
		break;
	case AN_PF_CS_SWITCH_NEXT_PID:
	case AN_PF_CS_WAKING_PID:
		r->pid = (int32_t)(uint32_t)v;
		break;
	case AN_PF_CS_SWITCH_NEXT_PRIO:
	case AN_PF_CS_WAKING_PRIO:
		r->prio = (int32_t)(uint32_t)v;
		break;
	case AN_PF_CS_WAKING_TARGET_CPU:
		r->target_cpu = (int32_t)(uint32_t)v;
		break;
	default:	/* comm indexes: checked by the caller */
		r->len = v > UINT32_MAX ? UINT32_MAX : (size_t)v;
		break;
	}
}

/* Fill the @n entries at @r from array @number; it must have @n values. */
static int fill_array(const struct an_pb *cs, uint32_t number, struct an_pfrec *r, size_t n,
		      struct an_diag *d)
{
	struct an_pb pb = *cs;
	struct an_pb_field x;
	uint64_t ts_acc = 0, v;
	size_t i = 0, first = an_pb_offset(cs);
	bool is_seen = false;
	int rc;

	while ((rc = an_pb_next(&pb, &x)) > 0) {
		struct an_pb_packed it;

		if (x.number != number || an_pb_packed_init(&it, &x, AN_PB_VARINT))
			continue;
		if (!is_seen)
			first = x.offset;
		is_seen = true;
		while ((rc = an_pb_packed_next(&it, &v)) > 0) {
			if (i == n)
				return unequal(d, x.offset, number, n + 1, n);
			put_value(&r[i++], number, v, &ts_acc);
		}
		if (rc < 0)
			return corrupt_at(d, x.offset, "compact_sched", rc);
	}
	if (rc < 0)
		return corrupt_at(d, an_pb_offset(&pb), "compact_sched", rc);
	return i == n ? 0 : unequal(d, first, number, i, n);
}

/* The comm indexes of @r become pointers into the intern table. */
static int set_comms(struct an_pfbundle *b, struct an_pfrec *r, size_t n, size_t off,
		     struct an_diag *d)
{
	for (size_t i = 0; i < n; i++) {
		size_t k = r[i].len;

		if (k >= b->nr_comm)
			return corrupt_at(d, off, "compact_sched comm index outside its "
					  "intern table", 0);
		r[i].data = b->comm[k];
		r[i].len = b->comm_len[k];
	}
	return 0;
}

static int load_interned(struct an_pfbundle *b, const struct an_pb *cs, struct an_diag *d)
{
	struct an_pb pb = *cs;
	struct an_pb_field x;
	int rc;

	b->nr_comm = 0;
	while ((rc = an_pb_next(&pb, &x)) > 0) {
		if (x.number != AN_PF_CS_INTERN_TABLE || x.wire != AN_PB_LEN)
			continue;
		if (AN_VEC_GROW(b->comm, b->nr_comm + 1, b->alloc_comm) ||
		    AN_VEC_GROW(b->comm_len, b->nr_comm + 1, b->alloc_comm_len))
			return an_diag_fail(d, -ENOMEM, "out of memory");
		b->comm[b->nr_comm] = x.data;
		b->comm_len[b->nr_comm++] = (uint32_t)x.len;
	}
	return rc < 0 ? corrupt_at(d, an_pb_offset(&pb), "compact_sched", rc) : 0;
}

static const uint32_t switch_arrays[] = {
	AN_PF_CS_SWITCH_TS, AN_PF_CS_SWITCH_PREV_STATE, AN_PF_CS_SWITCH_NEXT_PID,
	AN_PF_CS_SWITCH_NEXT_PRIO, AN_PF_CS_SWITCH_NEXT_COMM,
};

static const uint32_t waking_arrays[] = {
	AN_PF_CS_WAKING_TS, AN_PF_CS_WAKING_PID, AN_PF_CS_WAKING_TARGET_CPU,
	AN_PF_CS_WAKING_PRIO, AN_PF_CS_WAKING_COMM,
};

/* One kind of compact entries: its arrays, all of the timestamps' length. */
static int load_kind(struct an_pfbundle *b, const struct an_pb *cs, const uint32_t *arrays,
		     enum an_pfrec_kind kind, struct an_diag *d)
{
	size_t n, first;
	int rc = count_values(cs, arrays[0], &n);

	if (rc < 0)
		return corrupt_at(d, an_pb_offset(cs), "compact_sched", rc);
	if (!n)
		return 0;
	first = b->nr_rec;
	if (!new_recs(b, n))
		return an_diag_fail(d, -ENOMEM, "out of memory");
	for (unsigned int a = 0; a < 5; a++) {
		rc = fill_array(cs, arrays[a], &b->rec[first], n, d);
		if (rc)
			return rc;
	}
	for (size_t i = first; i < first + n; i++)
		b->rec[i].kind = kind;
	return set_comms(b, &b->rec[first], n, an_pb_offset(cs), d);
}

static int load_compact(struct an_pfbundle *b, const struct an_pb *parent,
			const struct an_pb_field *f, struct an_diag *d)
{
	struct an_pb cs;
	int err;

	an_pb_sub(&cs, parent, f);
	err = load_interned(b, &cs, d);
	if (!err)
		err = load_kind(b, &cs, switch_arrays, AN_PFREC_SWITCH, d);
	if (!err)
		err = load_kind(b, &cs, waking_arrays, AN_PFREC_WAKING, d);
	return err;
}

static int rec_cmp(const void *pa, const void *pb)
{
	const struct an_pfrec *a = pa, *b = pb;

	if (a->ts != b->ts)
		return a->ts < b->ts ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/*
 * A bundle of typed events alone is in time order already: sorting it
 * anyway cost a quarter of the reading (callgrind, 300k synthetic events).
 * compact_sched's records, appended after the others, are not.
 */
static bool is_sorted(const struct an_pfbundle *b)
{
	for (size_t i = 1; i < b->nr_rec; i++)
		if (rec_cmp(&b->rec[i - 1], &b->rec[i]) > 0)
			return false;
	return true;
}

int an_pfbundle_load(struct an_pfbundle *b, const uint8_t *data, size_t len, struct an_diag *d)
{
	struct an_pb pb;
	struct an_pb_field x;
	int rc, err = 0;

	b->cpu = -1;
	b->is_lost = false;
	b->nr_rec = 0;
	b->nr_comm = 0;
	an_pb_init(&pb, data, len);
	while (!err && (rc = an_pb_next(&pb, &x)) > 0) {
		if (x.number == AN_PF_BUNDLE_CPU && x.wire == AN_PB_VARINT)
			b->cpu = x.value < 1024 ? (int)x.value : -1;
		else if (x.number == AN_PF_BUNDLE_LOST_EVENTS && x.wire == AN_PB_VARINT)
			b->is_lost = x.value != 0;
		else if (x.number == AN_PF_BUNDLE_EVENT && x.wire == AN_PB_LEN)
			err = add_event(b, &pb, &x, d);
		else if (x.number == AN_PF_BUNDLE_COMPACT_SCHED && x.wire == AN_PB_LEN)
			err = load_compact(b, &pb, &x, d);
	}
	if (err)
		return err;
	if (rc < 0)
		return corrupt_at(d, an_pb_offset(&pb), "ftrace bundle", rc);
	if (!is_sorted(b))
		qsort(b->rec, b->nr_rec, sizeof(*b->rec), rec_cmp);
	return 0;
}

/* ---- decoding one event ---- */

static void note_switch_in(struct an_pfbundle_prev *prev, const struct an_event *ev)
{
	prev->pid = ev->sw.next_pid;
	prev->prio = ev->sw.next_prio;
	memcpy(prev->comm, ev->sw.next_comm, sizeof(prev->comm));
}

/*
 * The fields compact_sched's entries fill, by their kernel names, and
 * their rows in the alias table: looked up once for the process.
 */
enum { SW_PREV_PID, SW_PREV_PRIO, SW_PREV_COMM, SW_PREV_STATE, SW_NEXT_PID, SW_NEXT_PRIO,
       SW_NEXT_COMM, SW__COUNT };
enum { WK_PID, WK_PRIO, WK_TARGET_CPU, WK_COMM, WK__COUNT };

static const char *const sw_name[SW__COUNT] = {
	"prev_pid", "prev_prio", "prev_comm", "prev_state", "next_pid", "next_prio", "next_comm",
};
static const char *const wk_name[WK__COUNT] = { "pid", "prio", "target_cpu", "comm" };
static int sw_ix[SW__COUNT], wk_ix[WK__COUNT];
static pthread_once_t ix_once = PTHREAD_ONCE_INIT;

static void ix_init(void)
{
	for (unsigned int i = 0; i < SW__COUNT; i++)
		sw_ix[i] = an_alias_field_index(AN_EV_SCHED_SWITCH, sw_name[i], strlen(sw_name[i]));
	for (unsigned int i = 0; i < WK__COUNT; i++)
		wk_ix[i] = an_alias_field_index(AN_EV_SCHED_WAKING, wk_name[i], strlen(wk_name[i]));
}

static int decode_switch(const struct an_pfrec *r, struct an_pfbundle_prev *prev,
			 struct an_event *ev, struct an_diag *d)
{
	struct an_pfval v = { .num = prev->pid };
	int err;

	pthread_once(&ix_once, ix_init);
	an_alias_reset(ev, AN_EV_SCHED_SWITCH);
	ev->name = "sched_switch";
	ev->pid = prev->pid;
	err = an_pfgen_set_at(ev, sw_ix[SW_PREV_PID], &v, d);
	if (!err && prev->pid >= 0) {
		v = (struct an_pfval){ .num = prev->prio };
		err = prev->prio == AN_PRIO_NONE ? 0 : an_pfgen_set_at(ev, sw_ix[SW_PREV_PRIO], &v, d);
		v = (struct an_pfval){ .is_str = true, .s = prev->comm, .len = strlen(prev->comm) };
		err = err ? err : an_pfgen_set_at(ev, sw_ix[SW_PREV_COMM], &v, d);
	}
	v = (struct an_pfval){ .num = r->prev_state };
	err = err ? err : an_pfgen_set_at(ev, sw_ix[SW_PREV_STATE], &v, d);
	v = (struct an_pfval){ .num = r->pid };
	err = err ? err : an_pfgen_set_at(ev, sw_ix[SW_NEXT_PID], &v, d);
	v = (struct an_pfval){ .num = r->prio };
	err = err ? err : an_pfgen_set_at(ev, sw_ix[SW_NEXT_PRIO], &v, d);
	v = (struct an_pfval){ .is_str = true, .s = (const char *)r->data, .len = r->len };
	err = err ? err : an_pfgen_set_at(ev, sw_ix[SW_NEXT_COMM], &v, d);
	return err;
}

static int decode_waking(const struct an_pfrec *r, const struct an_pfbundle_prev *prev,
			 struct an_event *ev, struct an_diag *d)
{
	struct an_pfval v = { .num = r->pid };
	int err;

	pthread_once(&ix_once, ix_init);
	an_alias_reset(ev, AN_EV_SCHED_WAKING);
	ev->name = "sched_waking";
	ev->pid = prev->pid;
	err = an_pfgen_set_at(ev, wk_ix[WK_PID], &v, d);
	v = (struct an_pfval){ .num = r->prio };
	err = err ? err : an_pfgen_set_at(ev, wk_ix[WK_PRIO], &v, d);
	v = (struct an_pfval){ .num = r->target_cpu };
	err = err ? err : an_pfgen_set_at(ev, wk_ix[WK_TARGET_CPU], &v, d);
	v = (struct an_pfval){ .is_str = true, .s = (const char *)r->data, .len = r->len };
	err = err ? err : an_pfgen_set_at(ev, wk_ix[WK_COMM], &v, d);
	return err;
}

static void typed_value(const struct an_pf_field *f, const struct an_pb_field *x,
			struct an_pfval *v)
{
	memset(v, 0, sizeof(*v));
	switch (f->type) {
	case AN_PF_STRING:
		v->is_str = true;
		v->s = (const char *)x->data;
		v->len = x->len;
		break;
	case AN_PF_INT32:
		v->num = (int32_t)(uint32_t)x->value;
		break;
	case AN_PF_UINT32:
		v->num = (uint32_t)x->value;
		break;
	default:
		v->num = (long long)x->value;
		break;
	}
}

static int decode_typed(const struct an_pf_event *e, const struct an_pb *parent,
			const struct an_pb_field *pf, struct an_event *ev, struct an_diag *d)
{
	struct an_pb pb;
	struct an_pb_field x;
	int rc;

	an_alias_reset(ev, e->type);
	ev->name = e->name;
	an_diag_set_name(d->event, e->name, strlen(e->name));
	if (e->type == AN_EV_UNKNOWN)
		return 0;
	an_pb_sub(&pb, parent, pf);
	while ((rc = an_pb_next(&pb, &x)) > 0) {
		const struct an_pf_field *f = an_pfschema_field(e, x.number);
		struct an_pfval v;
		int err;

		if (!f || (f->type == AN_PF_STRING) != (x.wire == AN_PB_LEN) ||
		    (f->type != AN_PF_STRING && x.wire != AN_PB_VARINT))
			continue;
		typed_value(f, &x, &v);
		err = an_pfgen_set_at(ev, an_pfschema_alias(e, f), &v, d);
		if (err)
			return err;
	}
	if (rc < 0)
		return corrupt_at(d, an_pb_offset(&pb), e->name, rc);
	return an_alias_check(ev, d);
}

/* The event inside FtraceEvent field @x. Return: 1, 0 (not an event), < 0. */
static int decode_payload(const struct an_pb *pb, const struct an_pb_field *x,
			  struct an_pfgen *g, uint32_t gen, struct an_event *ev,
			  struct an_diag *d)
{
	const struct an_pf_event *e;
	char name[32];
	int rc;

	if (x->wire != AN_PB_LEN)
		return 0;
	e = an_pfschema_by_id(x->number);
	if (e) {
		rc = decode_typed(e, pb, x, ev, d);
		return rc ? rc : 1;
	}
	if (x->number == AN_PF_EVENT_GENERIC) {
		rc = an_pfgen_named(g, x->data, x->len, ev, d);
		return rc ? rc : 1;
	}
	rc = 0;
	if (x->number >= AN_PF_EVENT_DENSE_MIN && x->number <= AN_PF_EVENT_DENSE_MAX)
		rc = an_pfgen_dense(g, gen, x->number, x->data, x->len, ev, d);
	if (rc)
		return rc;
	/* an event ucval knows no name of: named by its number */
	an_alias_reset(ev, AN_EV_UNKNOWN);
	snprintf(name, sizeof(name), "ftrace_event_%u", x->number);
	ev->name = an_pfgen_name(g, name, strlen(name));
	return 1;
}

/* A FtraceEvent; add_event() walked its fields (and refused malformed ones). */
static int decode_event(const struct an_pfrec *r, struct an_pfgen *g, uint32_t gen,
			struct an_pfbundle_prev *prev, struct an_event *ev, struct an_diag *d)
{
	struct an_pb pb;
	uint64_t pid = r->ev_pid;
	int rc;

	if (!r->body.number)
		return 0;
	an_pb_init(&pb, r->data, r->len);
	rc = decode_payload(&pb, &r->body, g, gen, ev, d);
	if (rc <= 0)
		return rc;
	ev->pid = pid > INT32_MAX ? -1 : (int)pid;
	if (ev->type == AN_EV_SCHED_SWITCH)
		note_switch_in(prev, ev);
	if (ev->type == AN_EV_PRINT) {
		rc = an_marker_parse(ev->print.text, ev->print.len, ev->pid, &ev->print.marker, d);
		if (rc < 0)
			return rc;
	}
	return 1;
}

int an_pfbundle_decode(const struct an_pfbundle *b, const struct an_pfrec *r, struct an_pfgen *g,
		       uint32_t gen, struct an_pfbundle_prev *prev, struct an_event *ev,
		       struct an_diag *d)
{
	int err;

	if (r->kind == AN_PFREC_EVENT) {
		err = decode_event(r, g, gen, prev, ev, d);
	} else if (r->kind == AN_PFREC_SWITCH) {
		err = decode_switch(r, prev, ev, d);
		if (!err)
			note_switch_in(prev, ev);
		err = err ? err : 1;
	} else {
		err = decode_waking(r, prev, ev, d);
		err = err ? err : 1;
	}
	ev->ts_ns = r->ts;
	ev->cpu = b->cpu;
	return err;
}

void an_pfbundle_release(struct an_pfbundle *b)
{
	free(b->rec);
	free(b->comm);
	free(b->comm_len);
	memset(b, 0, sizeof(*b));
}
