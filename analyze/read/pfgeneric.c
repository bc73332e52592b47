// SPDX-License-Identifier: MIT
/*
 * analyze/read/pfgeneric.c - generic ftrace events of Perfetto traces, both
 * encodings, and the meeting point of trace fields with the alias table.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/malloc.h"
#include "lib/pbwire.h"
#include "lib/vec.h"
#include "analyze/read/alias.h"
#include "analyze/read/pfgeneric.h"
#include "analyze/read/pfschema.h"

struct desc_field {
	uint32_t number;
	uint32_t type;			/* enum an_pf_desc_type */
	int alias;			/* an_alias_field_index() of the name */
	char name[AN_PFGEN_NAME_LEN];
};

struct an_pfgen_desc {
	uint32_t gen;
	uint32_t field_id;
	const char *name;		/* an_pfgen_name() */
	enum an_event_type type;
	unsigned int nr_fields;
	struct desc_field field[AN_PFGEN_MAX_FIELDS];
};

const char *an_pfgen_name(struct an_pfgen *g, const char *s, size_t len)
{
	char *copy;

	len = strnlen(s, len);		/* a name is cut at a NUL inside it */
	if (len >= AN_PFGEN_NAME_LEN)
		len = AN_PFGEN_NAME_LEN - 1;
	for (size_t i = g->nr_names; i-- > 0;)
		if (strlen(g->names[i]) == len && !memcmp(g->names[i], s, len))
			return g->names[i];
	if (g->nr_names == AN_PFGEN_MAX_NAMES ||
	    AN_VEC_GROW(g->names, g->nr_names + 1, g->alloc_names))
		return "unknown";
	copy = an_malloc(len + 1);
	if (!copy)
		return "unknown";
	memcpy(copy, s, len);
	copy[len] = '\0';
	g->names[g->nr_names++] = copy;
	return copy;
}

static struct an_pfgen_desc *find_desc(const struct an_pfgen *g, uint32_t gen, uint32_t id)
{
	for (size_t i = g->nr_descs; i-- > 0;)
		if (g->descs[i]->gen == gen && g->descs[i]->field_id == id)
			return g->descs[i];
	return NULL;
}

/* One FieldDescriptorProto into @f. Return: 0, or -1 when malformed. */
static int parse_field(const struct an_pb *parent, const struct an_pb_field *pf,
		       struct desc_field *f)
{
	struct an_pb pb;
	struct an_pb_field x;
	int rc;

	an_pb_sub(&pb, parent, pf);
	while ((rc = an_pb_next(&pb, &x)) > 0) {
		if (x.number == AN_PF_FDESC_NAME && x.wire == AN_PB_LEN) {
			size_t n = x.len < sizeof(f->name) ? x.len : sizeof(f->name) - 1;

			memcpy(f->name, x.data, n);
			f->name[n] = '\0';
		} else if (x.number == AN_PF_FDESC_NUMBER && x.wire == AN_PB_VARINT) {
			f->number = (uint32_t)x.value;
		} else if (x.number == AN_PF_FDESC_TYPE && x.wire == AN_PB_VARINT) {
			f->type = (uint32_t)x.value;
		}
	}
	return rc < 0 || !f->number || !f->name[0] ? -1 : 0;
}

/* A DescriptorProto into @dd. Return: 0, or -1 when malformed or too wide. */
static int parse_desc(struct an_pfgen *g, const struct an_pb *parent,
		      const struct an_pb_field *pf, struct an_pfgen_desc *dd)
{
	struct an_pb pb;
	struct an_pb_field x;
	int rc;

	an_pb_sub(&pb, parent, pf);
	while ((rc = an_pb_next(&pb, &x)) > 0) {
		if (x.number == AN_PF_DESC_NAME && x.wire == AN_PB_LEN) {
			dd->name = an_pfgen_name(g, (const char *)x.data, x.len);
		} else if (x.number == AN_PF_DESC_FIELD && x.wire == AN_PB_LEN) {
			if (dd->nr_fields == AN_PFGEN_MAX_FIELDS ||
			    parse_field(&pb, &x, &dd->field[dd->nr_fields]))
				return -1;
			dd->nr_fields++;
		}
	}
	if (rc < 0 || !dd->name)
		return -1;
	dd->type = an_alias_lookup(dd->name, strlen(dd->name));
	for (unsigned int i = 0; i < dd->nr_fields; i++)
		dd->field[i].alias = an_alias_field_index(dd->type, dd->field[i].name,
							  strlen(dd->field[i].name));
	return 0;
}

int an_pfgen_add(struct an_pfgen *g, uint32_t gen, const uint8_t *data, size_t len)
{
	struct an_pfgen_desc *dd;
	struct an_pb pb;
	struct an_pb_field x, body = { 0 };
	bool has_id = false;
	int rc;

	dd = an_calloc(1, sizeof(*dd));
	if (!dd)
		return -ENOMEM;
	dd->gen = gen;
	an_pb_init(&pb, data, len);
	while ((rc = an_pb_next(&pb, &x)) > 0) {
		if (x.number == AN_PF_GD_FIELD_ID && x.wire == AN_PB_VARINT) {
			dd->field_id = (uint32_t)x.value;
			has_id = true;
		} else if (x.number == AN_PF_GD_DESCRIPTOR && x.wire == AN_PB_LEN) {
			body = x;
		}
	}
	if (rc < 0 || !has_id || !body.data || find_desc(g, gen, dd->field_id) ||
	    g->nr_descs == AN_PFGEN_MAX_DESCS || parse_desc(g, &pb, &body, dd)) {
		free(dd);
		return 0;
	}
	if (AN_VEC_GROW(g->descs, g->nr_descs + 1, g->alloc_descs)) {
		free(dd);
		return -ENOMEM;
	}
	g->descs[g->nr_descs++] = dd;
	return 0;
}

int an_pfgen_set(struct an_event *ev, const char *name, size_t nlen, const struct an_pfval *v,
		 struct an_diag *d)
{
	return an_pfgen_set_at(ev, an_alias_field_index(ev->type, name, nlen), v, d);
}

int an_pfgen_set_at(struct an_event *ev, int i, const struct an_pfval *v, struct an_diag *d)
{
	char state[AN_STATE_LEN];
	size_t len = v->len;

	if (i < 0)
		return 0;
	switch (an_alias_type(ev->type)->fields[i].kind) {
	case AN_FK_STATE:
		if (v->is_str)
			return an_alias_set_str(ev, (unsigned int)i, v->s, v->len, d);
		an_alias_state_str(&an_alias_state_mainline, (unsigned long long)v->num, state);
		return an_alias_set_str(ev, (unsigned int)i, state, strlen(state), d);
	case AN_FK_TEXT:
		if (!v->is_str)
			return 0;
		while (len && v->s[len - 1] == '\n')
			len--;
		return an_alias_set_str(ev, (unsigned int)i, v->s, len, d);
	case AN_FK_COMM:
	case AN_FK_PATH:
		if (!v->is_str)
			return 0;
		/* a kernel char array may carry its NUL padding */
		return an_alias_set_str(ev, (unsigned int)i, v->s, strnlen(v->s, v->len), d);
	default:
		return v->is_str ? 0 : an_alias_set_num(ev, (unsigned int)i, v->num, d);
	}
}

/* an_alias_field_index() of @name for @type, remembered in @g's slots. */
static int field_index(struct an_pfgen *g, enum an_event_type type, const char *name,
		       size_t nlen)
{
	struct an_pfgen_field_slot *s;
	unsigned int h;

	if (!nlen || nlen >= AN_PFGEN_NAME_LEN)
		return an_alias_field_index(type, name, nlen);
	h = ((unsigned int)type * 31u + (unsigned int)nlen * 7u +
	     (unsigned char)name[0] * 3u + (unsigned char)name[nlen - 1]) % AN_PFGEN_FIELD_SLOTS;
	s = &g->slot[h];
	if (s->has && s->type == type && s->len == nlen && !memcmp(s->name, name, nlen))
		return s->ix;
	s->has = true;
	s->type = type;
	s->len = (unsigned int)nlen;
	s->ix = an_alias_field_index(type, name, nlen);
	memcpy(s->name, name, nlen);
	return s->ix;
}

static int corrupt(struct an_diag *d, const char *what, int err)
{
	return an_diag_fail(d, AN_E_CORRUPT, "%s: %s", what, an_pb_strerror(err));
}

/* One GenericFtraceEvent.Field into @ev. */
static int named_field(struct an_pfgen *g, const struct an_pb *parent,
		       const struct an_pb_field *pf, struct an_event *ev, struct an_diag *d)
{
	struct an_pfval v = { 0 };
	const char *name = NULL;
	size_t nlen = 0;
	bool has_value = false;
	struct an_pb pb;
	struct an_pb_field x;
	int rc;

	an_pb_sub(&pb, parent, pf);
	while ((rc = an_pb_next(&pb, &x)) > 0) {
		if (x.number == AN_PF_GFIELD_NAME && x.wire == AN_PB_LEN) {
			name = (const char *)x.data;
			nlen = x.len;
		} else if (x.number == AN_PF_GFIELD_STR && x.wire == AN_PB_LEN) {
			v = (struct an_pfval){ .is_str = true, .s = (const char *)x.data,
					       .len = x.len };
			has_value = true;
		} else if ((x.number == AN_PF_GFIELD_INT || x.number == AN_PF_GFIELD_UINT) &&
			   x.wire == AN_PB_VARINT) {
			v = (struct an_pfval){ .num = (long long)x.value };
			has_value = true;
		}
	}
	if (rc < 0)
		return corrupt(d, "generic event field", rc);
	if (!name || !has_value)
		return 0;
	return an_pfgen_set_at(ev, field_index(g, ev->type, name, nlen), &v, d);
}

/*
 * an_pfgen_name() of the spelling @s and its type, remembered in @g's name
 * slots. *@has_type is false when the name is not one of @g's copies ("unknown":
 * the store full or memory short), which is never remembered.
 */
static const char *event_name(struct an_pfgen *g, const char *s, size_t len,
			      enum an_event_type *type, bool *has_type)
{
	struct an_pfgen_name_slot *slot;
	const char *name;

	*has_type = false;
	if (!len || len >= AN_PFGEN_NAME_LEN)
		return an_pfgen_name(g, s, len);
	slot = &g->name_slot[((unsigned int)len * 7u + (unsigned char)s[0] * 3u +
			      (unsigned char)s[len - 1]) % AN_PFGEN_NAME_SLOTS];
	if (slot->name && slot->len == len && !memcmp(slot->raw, s, len)) {
		*type = slot->type;
		*has_type = true;
		return slot->name;
	}
	name = an_pfgen_name(g, s, len);
	if (!strcmp(name, "unknown") && (len != 7 || memcmp(s, "unknown", 7)))
		return name;	/* not a copy: the store could not take it */
	*type = an_alias_lookup(name, strlen(name));
	*has_type = true;
	*slot = (struct an_pfgen_name_slot){ .name = name, .type = *type,
					     .len = (unsigned int)len };
	memcpy(slot->raw, s, len);
	return name;
}

int an_pfgen_named(struct an_pfgen *g, const uint8_t *data, size_t len, struct an_event *ev,
		   struct an_diag *d)
{
	enum an_event_type type = AN_EV_UNKNOWN;
	bool has_type = false;
	struct an_pb pb;
	struct an_pb_field x;
	int rc;

	/* the name first: the fields decode by its type */
	an_pb_init(&pb, data, len);
	ev->name = "unknown";
	while ((rc = an_pb_next(&pb, &x)) > 0)
		if (x.number == AN_PF_GENERIC_NAME && x.wire == AN_PB_LEN)
			ev->name = event_name(g, (const char *)x.data, x.len, &type, &has_type);
	if (rc < 0)
		return corrupt(d, "generic event", rc);
	if (!has_type)
		type = an_alias_lookup(ev->name, strlen(ev->name));
	an_alias_reset(ev, type);
	an_diag_set_name(d->event, ev->name, strlen(ev->name));
	if (ev->type == AN_EV_UNKNOWN)
		return 0;
	an_pb_init(&pb, data, len);
	while ((rc = an_pb_next(&pb, &x)) > 0) {
		if (x.number == AN_PF_GENERIC_FIELD && x.wire == AN_PB_LEN) {
			rc = named_field(g, &pb, &x, ev, d);
			if (rc)
				return rc;
		}
	}
	return an_alias_check(ev, d);
}

/* The value of dense field @x of declared type @type. Return: false to skip it. */
static bool dense_value(const struct an_pb_field *x, uint32_t type, struct an_pfval *v)
{
	memset(v, 0, sizeof(*v));
	switch (type) {
	case AN_PF_DT_STRING:
	case AN_PF_DT_BYTES:
		if (x->wire != AN_PB_LEN)
			return false;
		v->is_str = true;
		v->s = (const char *)x->data;
		v->len = x->len;
		return true;
	case AN_PF_DT_INT32:
	case AN_PF_DT_ENUM:
		v->num = (int32_t)(uint32_t)x->value;
		return x->wire == AN_PB_VARINT;
	case AN_PF_DT_UINT32:
		v->num = (uint32_t)x->value;
		return x->wire == AN_PB_VARINT;
	case AN_PF_DT_INT64:
	case AN_PF_DT_UINT64:
	case AN_PF_DT_BOOL:
		v->num = (long long)x->value;
		return x->wire == AN_PB_VARINT;
	case AN_PF_DT_SINT32:
	case AN_PF_DT_SINT64:
		v->num = an_pb_zigzag(x->value);
		return x->wire == AN_PB_VARINT;
	case AN_PF_DT_FIXED32:
		v->num = (uint32_t)x->value;
		return x->wire == AN_PB_I32;
	case AN_PF_DT_SFIXED32:
		v->num = (int32_t)(uint32_t)x->value;
		return x->wire == AN_PB_I32;
	case AN_PF_DT_FIXED64:
	case AN_PF_DT_SFIXED64:
		v->num = (long long)x->value;
		return x->wire == AN_PB_I64;
	default:
		return false;
	}
}

int an_pfgen_dense(struct an_pfgen *g, uint32_t gen, uint32_t field_id, const uint8_t *data,
		   size_t len, struct an_event *ev, struct an_diag *d)
{
	const struct an_pfgen_desc *dd = find_desc(g, gen, field_id);
	struct an_pb pb;
	struct an_pb_field x;
	struct an_pfval v;
	int rc;

	if (!dd)
		return 0;
	an_alias_reset(ev, dd->type);
	ev->name = dd->name;
	an_diag_set_name(d->event, dd->name, strlen(dd->name));
	if (dd->type == AN_EV_UNKNOWN)
		return 1;
	an_pb_init(&pb, data, len);
	while ((rc = an_pb_next(&pb, &x)) > 0) {
		const struct desc_field *f = NULL;

		for (unsigned int i = 0; i < dd->nr_fields && !f; i++)
			if (dd->field[i].number == x.number)
				f = &dd->field[i];
		if (!f || !dense_value(&x, f->type, &v))
			continue;
		rc = an_pfgen_set_at(ev, f->alias, &v, d);
		if (rc)
			return rc;
	}
	if (rc < 0)
		return corrupt(d, "generic event", rc);
	rc = an_alias_check(ev, d);
	return rc ? rc : 1;
}

void an_pfgen_release(struct an_pfgen *g)
{
	for (size_t i = 0; i < g->nr_descs; i++)
		free(g->descs[i]);
	for (size_t i = 0; i < g->nr_names; i++)
		free(g->names[i]);
	free(g->descs);
	free(g->names);
	memset(g, 0, sizeof(*g));
}
