/* SPDX-License-Identifier: MIT */
/*
 * analyze/read/pfgeneric.h - events of a Perfetto trace that Perfetto has no
 * typed message for (uclamp_*, lisa__*, sugov_*, schedutil_*, ...), in
 * both of their encodings: GenericFtraceEvent (the name and named fields)
 * and the dense one (a FtraceEvent field from 65536 up whose layout a
 * DescriptorProto in a bundle gives). Also the one place where a field,
 * typed or generic, meets the alias table (an_pfgen_set()).
 *
 * Descriptors belong to a packet sequence and stay valid until it clears
 * its incremental state; the reader numbers each such span (a generation)
 * and keeps the descriptors per generation. Event names are copied once
 * (an_pfgen_name()), so an event's name outlives its bundle.
 */
#ifndef UCVAL_ANALYZE_READ_PFGENERIC_H
#define UCVAL_ANALYZE_READ_PFGENERIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/diag.h"
#include "analyze/read/event.h"

/* Limits on what a trace can make the reader keep. */
#define AN_PFGEN_MAX_DESCS	4096	/* descriptors over all generations */
#define AN_PFGEN_MAX_FIELDS	32	/* fields of one descriptor (more: refused) */
#define AN_PFGEN_MAX_NAMES	1024	/* distinct event names copied */
#define AN_PFGEN_NAME_LEN	64	/* longer names are cut */

struct an_pfgen_desc;

/* Rows of named generic fields remembered (direct-mapped, a power of 2). */
#define AN_PFGEN_FIELD_SLOTS	64
/* Generic event names remembered with their type (direct-mapped). */
#define AN_PFGEN_NAME_SLOTS	16

/**
 * struct an_pfgen_name_slot - a generic event's name as the trace spells it
 * @name: an_pfgen_name() of it (NULL: the slot is empty)
 * @type: an_alias_lookup() of @name
 * @len: the spelling's length (below AN_PFGEN_NAME_LEN)
 * @raw: the spelling, not NUL-terminated
 */
struct an_pfgen_name_slot {
	const char *name;
	enum an_event_type type;
	unsigned int len;
	char raw[AN_PFGEN_NAME_LEN];
};

/**
 * struct an_pfgen_field_slot - a generic field's name and its alias row
 * @has: the slot holds a name
 * @type: the event's canonical type
 * @len: the name's length (below AN_PFGEN_NAME_LEN)
 * @ix: an_alias_field_index() of the name for @type
 * @name: the name, not NUL-terminated
 */
struct an_pfgen_field_slot {
	bool has;
	enum an_event_type type;
	unsigned int len;
	int ix;
	char name[AN_PFGEN_NAME_LEN];
};

/**
 * struct an_pfgen - descriptors and event names of one trace
 * @descs: the descriptors, owned
 * @nr_descs: their number
 * @alloc_descs: room in @descs
 * @names: copied event names, owned
 * @nr_names: their number
 * @alloc_names: room in @names
 * @slot: the alias rows of the named fields met last, so that a field of a
 *        GenericFtraceEvent is not looked up by name in the alias table
 *        at every event
 * @name_slot: the names of the generic events met last, with their types
 */
struct an_pfgen {
	struct an_pfgen_desc **descs;
	size_t nr_descs;
	size_t alloc_descs;
	char **names;
	size_t nr_names;
	size_t alloc_names;
	struct an_pfgen_field_slot slot[AN_PFGEN_FIELD_SLOTS];
	struct an_pfgen_name_slot name_slot[AN_PFGEN_NAME_SLOTS];
};

/**
 * struct an_pfval - one field value of a trace: a number or a string
 * @is_str: @s and @len hold it; else @num
 * @num: the number
 * @s: the string, borrowed, not NUL-terminated
 * @len: its length
 */
struct an_pfval {
	bool is_str;
	long long num;
	const char *s;
	size_t len;
};

/**
 * an_pfgen_add() - keep a descriptor of a bundle
 * @g: store
 * @gen: the generation of the bundle's sequence
 * @data: a GenericEventDescriptor message (field_id, event_descriptor)
 * @len: its length
 *
 * The first descriptor of a field id wins within a generation; a
 * malformed one or one beyond the limits is left out (its events then
 * decode as unknown).
 *
 * Return: 0 or -ENOMEM.
 */
int an_pfgen_add(struct an_pfgen *g, uint32_t gen, const uint8_t *data, size_t len);

/**
 * an_pfgen_name() - a lasting NUL-terminated copy of event name @s
 * @g: store
 * @s: the name, not NUL-terminated
 * @len: its length
 *
 * Return: the copy (owned by @g), or "unknown" when the store is full or
 * memory is short.
 */
const char *an_pfgen_name(struct an_pfgen *g, const char *s, size_t len);

/**
 * an_pfgen_set() - store a field the trace names @name into @ev
 * @ev: event being decoded, an_alias_reset() to its type
 * @name: the kernel's field name
 * @nlen: its length
 * @v: the value
 * @d: diagnostic on error
 *
 * A field the type does not use is ignored; a number for a prev_state
 * becomes its letters; a TEXT field loses its trailing newlines.
 *
 * Return: 0, or AN_E_VALUE.
 */
int an_pfgen_set(struct an_event *ev, const char *name, size_t nlen, const struct an_pfval *v,
		 struct an_diag *d);

/**
 * an_pfgen_set_at() - an_pfgen_set() with the field's row already known
 * @ev: event being decoded, an_alias_reset() to its type
 * @i: an_alias_field_index() of the field's name for @ev's type; < 0: unused
 * @v: the value
 * @d: diagnostic on error
 *
 * Return: 0, or AN_E_VALUE.
 */
int an_pfgen_set_at(struct an_event *ev, int i, const struct an_pfval *v, struct an_diag *d);

/**
 * an_pfgen_named() - decode a GenericFtraceEvent into @ev
 * @g: store (for the name)
 * @data: the message, borrowed (strings in @ev point into it)
 * @len: its length
 * @ev: event; type, name and fields set, ts/cpu/pid left as they are
 * @d: diagnostic on error
 *
 * Return: 0, AN_E_VALUE, AN_E_FIELD or AN_E_CORRUPT (malformed message).
 */
int an_pfgen_named(struct an_pfgen *g, const uint8_t *data, size_t len, struct an_event *ev,
		   struct an_diag *d);

/**
 * an_pfgen_dense() - decode a dense generic event into @ev
 * @g: store
 * @gen: the generation of its bundle's sequence
 * @field_id: its FtraceEvent field number
 * @data: its message, borrowed
 * @len: its length
 * @ev: event, as an_pfgen_named()
 * @d: diagnostic on error
 *
 * Return: 1 with an event, 0 when no descriptor describes @field_id (the
 * caller makes it unknown), AN_E_VALUE, AN_E_FIELD or AN_E_CORRUPT.
 */
int an_pfgen_dense(struct an_pfgen *g, uint32_t gen, uint32_t field_id, const uint8_t *data,
		   size_t len, struct an_event *ev, struct an_diag *d);

/**
 * an_pfgen_release() - free what @g holds
 * @g: store, may be zeroed
 */
void an_pfgen_release(struct an_pfgen *g);

#endif /* UCVAL_ANALYZE_READ_PFGENERIC_H */
