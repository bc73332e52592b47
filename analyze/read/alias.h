/* SPDX-License-Identifier: MIT */
/*
 * analyze/read/alias.h - the alias table: raw event and field names of every known
 * kernel variant mapped to the canonical event of event.h (spec/events.md §2).
 * Internal to the readers.
 */
#ifndef UCVAL_ANALYZE_READ_ALIAS_H
#define UCVAL_ANALYZE_READ_ALIAS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/diag.h"
#include "analyze/read/event.h"

#define AN_ALIAS_MAX_NAMES	2	/* raw names one canonical field may have */
#define AN_ALIAS_MAX_FIELDS	10	/* fields of the widest canonical event */

/* Storage and decoding of one canonical field. */
enum an_field_kind {
	AN_FK_INT,	/* int; the trace value must fit 32 bits signed */
	AN_FK_UINT,	/* unsigned int; a negative 32-bit value wraps (%d of a u32) */
	AN_FK_LLONG,	/* long long */
	AN_FK_COMM,	/* char[AN_COMM_LEN], cut to fit */
	AN_FK_PATH,	/* char[AN_PATH_LEN], too long is an error */
	AN_FK_STATE,	/* char[AN_STATE_LEN] of prev_state letters */
	AN_FK_TEXT,	/* borrowed pointer + length (print buf) */
	AN_FK_MASK,	/* unsigned long long bit mask of CPUs 0..63 (a cpumask) */
};

/**
 * struct an_alias_field - one field of a canonical event
 * @names: raw names, tried in order (e.g. "max_cap", "max")
 * @kind: how it is stored
 * @is_required: a record without it is an AN_E_FIELD diagnostic
 * @def: value of an absent optional numeric field
 * @offset: where it lives in struct an_event
 */
struct an_alias_field {
	const char *names[AN_ALIAS_MAX_NAMES];
	enum an_field_kind kind;
	bool is_required;
	long long def;
	size_t offset;
};

/**
 * struct an_alias_type - the fields of one canonical event type
 * @fields: field rows, bit i of an_event.present is @fields[i]
 * @nr_fields: number of rows
 */
struct an_alias_type {
	const struct an_alias_field *fields;
	unsigned int nr_fields;
	size_t size;		/* of its member of the an_event union; 0: unknown */
};

#define AN_STATE_BITS_MAX 16	/* prev_state flag letters a kernel defines */

/**
 * struct an_state_bits - how a kernel encodes sched_switch prev_state
 * @nr: number of flag letters
 * @mask: bit of each letter
 * @letter: the letter printed for it ("S", "D", ...)
 * @preempt: bit meaning "preempted while runnable", printed as "+"
 */
struct an_state_bits {
	unsigned int nr;
	unsigned long long mask[AN_STATE_BITS_MAX];
	char letter[AN_STATE_BITS_MAX];
	unsigned long long preempt;
};

/* The encoding of mainline since 4.14 (TASK_REPORT): S D T t X Z P I, + = 0x100. */
extern const struct an_state_bits an_alias_state_mainline;

/**
 * an_alias_state_str() - letters of a numeric prev_state, as the kernel prints
 * @bits: the kernel's encoding
 * @value: prev_state number
 * @out: "S", "D|W", "R", "R+", ...
 */
void an_alias_state_str(const struct an_state_bits *bits,
			unsigned long long value, char out[AN_STATE_LEN]);

/**
 * an_alias_lookup() - canonical type of a raw event name
 * @name: raw name, possibly with a "system:" prefix ("sched:sched_switch")
 * @len: its length
 *
 * Return: the type, AN_EV_UNKNOWN when no alias row matches.
 */
enum an_event_type an_alias_lookup(const char *name, size_t len);

/**
 * an_alias_type() - the field rows of @type
 * @type: canonical type
 *
 * Return: a static description; nr_fields is 0 for UNKNOWN and LOST_EVENTS.
 */
const struct an_alias_type *an_alias_type(enum an_event_type type);

/**
 * an_alias_member_size() - bytes of the an_event union an event of @type
 * uses: its member, or the whole union when the type has none of its own
 * @type: canonical type
 */
size_t an_alias_member_size(enum an_event_type type);

/**
 * an_alias_field_index() - which field of @type a raw field name is
 * @type: canonical type
 * @name: raw field name
 * @len: its length
 *
 * Return: the row index, or -1 when @type does not use that field.
 */
int an_alias_field_index(enum an_event_type type, const char *name, size_t len);

/**
 * an_alias_field_name() - canonical name of field @i of @type
 * @type: canonical type
 * @i: row index
 *
 * Return: a static string, "?" when out of range.
 */
const char *an_alias_field_name(enum an_event_type type, unsigned int i);

/**
 * an_alias_reset() - start decoding an event of @type into @ev
 * @ev: event; its type is set, its fields get their defaults, present is 0
 * @type: canonical type
 *
 * ts_ns, cpu, pid, pos and name are left to the reader.
 */
void an_alias_reset(struct an_event *ev, enum an_event_type type);

/**
 * an_alias_set_num() - store numeric field @i of @ev
 * @ev: event being decoded (type set by an_alias_reset())
 * @i: row index
 * @value: the value read from the trace
 * @d: diagnostic, its field member is set on error
 *
 * A MASK field takes the bits of @value as they are.
 *
 * Return: 0, or AN_E_VALUE when the value does not fit the field.
 */
int an_alias_set_num(struct an_event *ev, unsigned int i, long long value,
		     struct an_diag *d);

/**
 * an_alias_set_str() - store string field @i of @ev
 * @ev: event being decoded
 * @i: row index
 * @s: text, need not be NUL-terminated; TEXT fields keep the pointer
 * @len: its length
 * @d: diagnostic, its field member is set on error
 *
 * Return: 0, or AN_E_VALUE when a path or state is too long.
 */
int an_alias_set_str(struct an_event *ev, unsigned int i, const char *s,
		     size_t len, struct an_diag *d);

/**
 * an_alias_check() - verify that every required field of @ev was present
 * @ev: decoded event
 * @d: diagnostic naming the first missing field
 *
 * Return: 0, or AN_E_FIELD.
 */
int an_alias_check(const struct an_event *ev, struct an_diag *d);

#endif /* UCVAL_ANALYZE_READ_ALIAS_H */
