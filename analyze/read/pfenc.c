// SPDX-License-Identifier: MIT
/*
 * analyze/read/pfenc.c - canonical events as Perfetto ftrace packets
 * (pfenc.h). Each CPU collects its FtraceEvent messages in a buffer of its
 * own; a full buffer becomes one packet:
 *
 *   Trace.packet { ftrace_events { cpu, event..., lost_events }
 *                  trusted_packet_sequence_id }
 *
 * The typed events and their field numbers are those of the reader's
 * table (analyze/read/pfschema.c), so what is written here reads back
 * through the same rows.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/read/alias.h"
#include "analyze/read/pfenc.h"
#include "analyze/read/pfschema.h"
#include "lib/malloc.h"
#include "lib/vec.h"

/* Field numbers of pfschema.h, and the one of PrintFtraceEvent.buf. */
enum {
	PKT_FTRACE_EVENTS = AN_PF_PACKET_FTRACE_EVENTS,
	PKT_SEQ_ID = AN_PF_PACKET_SEQ_ID,
	BUNDLE_CPU = AN_PF_BUNDLE_CPU,
	BUNDLE_EVENT = AN_PF_BUNDLE_EVENT,
	BUNDLE_LOST = AN_PF_BUNDLE_LOST_EVENTS,
	FEV_TIMESTAMP = AN_PF_EVENT_TIMESTAMP,
	FEV_PID = AN_PF_EVENT_PID,
	FEV_GENERIC = AN_PF_EVENT_GENERIC,
	GENERIC_NAME = AN_PF_GENERIC_NAME,
	GENERIC_FIELD = AN_PF_GENERIC_FIELD,
	GFIELD_NAME = AN_PF_GFIELD_NAME,
	GFIELD_STR = AN_PF_GFIELD_STR,
	GFIELD_INT = AN_PF_GFIELD_INT,
	GFIELD_UINT = AN_PF_GFIELD_UINT,
	UTSNAME_SYSNAME = 1,		/* Utsname.sysname */
	SYSINFO_NUM_CPUS = 8,		/* SystemInfo.num_cpus */
};

/* Most CPUs a trace may name: more is a corrupt CPU number. */
#define PFENC_MAX_CPUS	4096

struct pf_cpu {
	struct an_pbout events;		/* FtraceEvent fields of the bundle */
	bool is_lost;			/* the next bundle says lost_events */
};

struct an_pfenc {
	FILE *fp;
	struct pf_cpu *cpus;
	size_t nr_cpus, alloc_cpus;
	struct an_pbout pkt, scratch;
	int err;
};

int an_pfenc_open(struct an_pfenc **out, FILE *fp)
{
	struct an_pfenc *e = an_calloc(1, sizeof(*e));

	*out = e;
	if (!e)
		return -ENOMEM;
	e->fp = fp;
	return 0;
}

int an_pfenc_write_packet(FILE *fp, struct an_pbout *pkt, struct an_pbout *scratch)
{
	int err = an_pbout_error(pkt);

	an_pbout_reset(scratch);
	/* tag and length of Trace.packet, then the fields as they are */
	an_pbout_header(scratch, 1, pkt->len);
	if (!err)
		err = an_pbout_error(scratch);
	if (!err && (fwrite(scratch->buf, 1, scratch->len, fp) != scratch->len ||
		     fwrite(pkt->buf, 1, pkt->len, fp) != pkt->len))
		err = -EIO;
	an_pbout_reset(pkt);
	return err;
}

void an_pfenc_packet(struct an_pfenc *e, struct an_pbout *pkt)
{
	int err = an_pfenc_write_packet(e->fp, pkt, &e->scratch);

	if (err && !e->err)
		e->err = err;
}

void an_pfenc_system_info(struct an_pfenc *e, const char *release, unsigned int nr_cpus)
{
	an_pbout_varint(&e->pkt, PKT_SEQ_ID, AN_PFENC_SEQ_ID);
	an_pbout_begin(&e->pkt, AN_PF_PACKET_SYSTEM_INFO);
	an_pbout_begin(&e->pkt, AN_PF_SYSINFO_UTSNAME);
	an_pbout_string(&e->pkt, UTSNAME_SYSNAME, "Linux");
	if (release)
		an_pbout_string(&e->pkt, AN_PF_UTSNAME_RELEASE, release);
	an_pbout_end(&e->pkt);
	if (nr_cpus)
		an_pbout_varint(&e->pkt, SYSINFO_NUM_CPUS, nr_cpus);
	an_pbout_end(&e->pkt);
	an_pfenc_packet(e, &e->pkt);
}

static void flush_cpu(struct an_pfenc *e, size_t cpu)
{
	struct pf_cpu *c = &e->cpus[cpu];

	if (!c->events.len && !c->is_lost)
		return;
	an_pbout_begin(&e->pkt, PKT_FTRACE_EVENTS);
	an_pbout_varint(&e->pkt, BUNDLE_CPU, cpu);
	if (!an_pbout_error(&c->events))
		an_pbout_raw(&e->pkt, c->events.buf, c->events.len);
	else if (!e->err)
		e->err = an_pbout_error(&c->events);
	if (c->is_lost)
		an_pbout_varint(&e->pkt, BUNDLE_LOST, 1);
	an_pbout_end(&e->pkt);
	an_pbout_varint(&e->pkt, PKT_SEQ_ID, AN_PFENC_SEQ_ID);
	an_pfenc_packet(e, &e->pkt);
	an_pbout_reset(&c->events);
	c->is_lost = false;
}

static struct pf_cpu *get_cpu(struct an_pfenc *e, int cpu)
{
	if (cpu < 0 || cpu >= PFENC_MAX_CPUS)
		return NULL;
	if ((size_t)cpu >= e->nr_cpus) {
		if (AN_VEC_GROW(e->cpus, (size_t)cpu + 1, e->alloc_cpus)) {
			e->err = -ENOMEM;
			return NULL;
		}
		e->nr_cpus = (size_t)cpu + 1;
	}
	return &e->cpus[cpu];
}

/* prev_state letters as mainline's number since 4.14 ("R+" = 0x100). */
static int64_t state_number(const char *letters)
{
	const struct an_state_bits *bits = &an_alias_state_mainline;
	int64_t v = 0;

	for (const char *p = letters; *p; p++) {
		if (*p == '+')
			v |= (int64_t)bits->preempt;
		for (unsigned int i = 0; i < bits->nr; i++)
			if (*p == bits->letter[i])
				v |= (int64_t)bits->mask[i];
	}
	return v;
}

/* The typed event of @ev: same kernel name, same canonical type. */
static const struct an_pf_event *typed_of(const struct an_event *ev)
{
	const struct an_pf_event *t = ev->name ? an_pfschema_by_name(ev->name) : NULL;

	return t && t->type == ev->type ? t : NULL;
}

static uint32_t typed_number(const struct an_pf_event *t, const char *name)
{
	for (unsigned int i = 0; i < t->nr_fields; i++)
		if (!strcmp(t->fields[i].name, name))
			return t->fields[i].number;
	return 0;
}

/* A field's value: a string, or a number signed or not. */
struct value {
	const char *str;
	bool is_signed;
	int64_t num;
};

static struct value field_value(const struct an_event *ev, const struct an_alias_field *f)
{
	const char *p = (const char *)ev + f->offset;
	struct value v = { 0 };
	int i;
	unsigned int u;
	long long ll;
	unsigned long long ull;

	switch (f->kind) {
	case AN_FK_INT:
		memcpy(&i, p, sizeof(i));
		v = (struct value){ .is_signed = true, .num = i };
		break;
	case AN_FK_UINT:
		memcpy(&u, p, sizeof(u));
		v.num = u;
		break;
	case AN_FK_LLONG:
		memcpy(&ll, p, sizeof(ll));
		v = (struct value){ .is_signed = true, .num = ll };
		break;
	case AN_FK_MASK:
		memcpy(&ull, p, sizeof(ull));
		v.num = (int64_t)ull;
		break;
	case AN_FK_COMM:
	case AN_FK_PATH:
	case AN_FK_STATE:
		v.str = p;
		break;
	case AN_FK_TEXT:
		break;		/* print only: written by print_event() */
	}
	return v;
}

static void typed_fields(struct an_pbout *b, const struct an_event *ev,
			 const struct an_pf_event *t)
{
	const struct an_alias_type *at = an_alias_type(ev->type);

	an_pbout_begin(b, t->id);
	for (unsigned int i = 0; i < at->nr_fields; i++) {
		const struct an_alias_field *f = &at->fields[i];
		uint32_t n = typed_number(t, f->names[0]);
		struct value v;

		if (!n || !(ev->present & 1u << i))
			continue;
		v = field_value(ev, f);
		if (f->kind == AN_FK_STATE)
			an_pbout_int(b, n, state_number(v.str));
		else if (v.str)
			an_pbout_string(b, n, v.str);
		else
			an_pbout_int(b, n, v.num);
	}
	an_pbout_end(b);
}

static void generic_fields(struct an_pbout *b, const struct an_event *ev)
{
	const struct an_alias_type *at = an_alias_type(ev->type);

	an_pbout_begin(b, FEV_GENERIC);
	an_pbout_string(b, GENERIC_NAME, ev->name ? ev->name : an_event_type_name(ev->type));
	for (unsigned int i = 0; i < at->nr_fields; i++) {
		const struct an_alias_field *f = &at->fields[i];
		struct value v;

		if (!(ev->present & 1u << i) || f->kind == AN_FK_TEXT)
			continue;
		v = field_value(ev, f);
		an_pbout_begin(b, GENERIC_FIELD);
		an_pbout_string(b, GFIELD_NAME, f->names[0]);
		if (v.str)
			an_pbout_string(b, GFIELD_STR, v.str);
		else if (v.is_signed)
			an_pbout_int(b, GFIELD_INT, v.num);
		else
			an_pbout_varint(b, GFIELD_UINT, (uint64_t)v.num);
		an_pbout_end(b);
	}
	an_pbout_end(b);
}

/* The text as trace_marker stores it: with its newline. */
static void print_event(struct an_pbout *b, const struct an_event *ev)
{
	const struct an_pf_event *t = an_pfschema_by_name("print");

	an_pbout_begin(b, t->id);
	/* a string is length-delimited like a message: opened, filled, closed */
	an_pbout_begin(b, typed_number(t, "buf"));
	an_pbout_raw(b, ev->print.text, ev->print.len);
	an_pbout_raw(b, "\n", 1);
	an_pbout_end(b);
	an_pbout_end(b);
}

void an_pfenc_event(struct an_pfenc *e, const struct an_event *ev)
{
	const struct an_pf_event *t;
	struct pf_cpu *c;

	if (ev->type == AN_EV_UNKNOWN || !(c = get_cpu(e, ev->cpu)))
		return;
	if (ev->type == AN_EV_LOST_EVENTS) {
		flush_cpu(e, (size_t)ev->cpu);
		c->is_lost = true;
		return;
	}
	an_pbout_begin(&c->events, BUNDLE_EVENT);
	an_pbout_varint(&c->events, FEV_TIMESTAMP, ev->ts_ns);
	an_pbout_varint(&c->events, FEV_PID, (uint32_t)ev->pid);
	if (ev->type == AN_EV_PRINT)
		print_event(&c->events, ev);
	else if ((t = typed_of(ev)))
		typed_fields(&c->events, ev, t);
	else
		generic_fields(&c->events, ev);
	an_pbout_end(&c->events);
	if (c->events.len >= AN_PFENC_BUNDLE_BYTES)
		flush_cpu(e, (size_t)ev->cpu);
}

void an_pfenc_flush(struct an_pfenc *e)
{
	for (size_t i = 0; i < e->nr_cpus; i++)
		flush_cpu(e, i);
}

int an_pfenc_close(struct an_pfenc *e)
{
	int err;

	if (!e)
		return 0;
	an_pfenc_flush(e);
	err = e->err;
	for (size_t i = 0; i < e->nr_cpus; i++)
		an_pbout_release(&e->cpus[i].events);
	free(e->cpus);
	an_pbout_release(&e->pkt);
	an_pbout_release(&e->scratch);
	free(e);
	return err;
}
