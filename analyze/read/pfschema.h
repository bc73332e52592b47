/* SPDX-License-Identifier: MIT */
/*
 * analyze/read/pfschema.h - the Perfetto trace format as ucval reads and
 * writes it: the field numbers of the messages it uses (those of Perfetto's
 * public protos, mirrored in proto/perfetto*.proto) and the table of typed
 * ftrace events: FtraceEvent field -> kernel event name and canonical type,
 * and for each typed message, proto field number -> kernel field name (the
 * names of the alias table, alias.c), so that a typed event decodes through
 * the same rows as the same event of a trace.dat or a text.
 *
 * The reader (pftrace*.c) decodes with it and the writers encode with it.
 * Static data only.
 */
#ifndef UCVAL_ANALYZE_READ_PFSCHEMA_H
#define UCVAL_ANALYZE_READ_PFSCHEMA_H

#include <stdint.h>

#include "analyze/read/event.h"

/* Trace and TracePacket (trace.proto, trace_packet.proto). */
enum {
	AN_PF_TRACE_PACKET = 1,
	AN_PF_PACKET_FTRACE_EVENTS = 1,
	AN_PF_PACKET_TIMESTAMP = 8,
	AN_PF_PACKET_SEQ_ID = 10,		/* trusted_packet_sequence_id */
	AN_PF_PACKET_INTERNED_DATA = 12,
	AN_PF_PACKET_SEQ_FLAGS = 13,		/* bit AN_PF_SEQ_CLEARED */
	AN_PF_PACKET_FTRACE_STATS = 34,
	AN_PF_PACKET_STATE_CLEARED = 41,	/* incremental_state_cleared (older) */
	AN_PF_PACKET_SYSTEM_INFO = 45,
	AN_PF_PACKET_CPU_INFO = 67,
	AN_PF_PACKET_COMPRESSED = 50,		/* compressed_packets: deflated packets */
	AN_PF_PACKET_ZSTD = 133,		/* zstd_compressed_packets */
	AN_PF_SEQ_CLEARED = 1,			/* SEQ_INCREMENTAL_STATE_CLEARED */
};

/* FtraceEventBundle and its CompactSched, GenericEventDescriptor. */
enum {
	AN_PF_BUNDLE_CPU = 1,
	AN_PF_BUNDLE_EVENT = 2,
	AN_PF_BUNDLE_LOST_EVENTS = 3,
	AN_PF_BUNDLE_COMPACT_SCHED = 4,
	AN_PF_BUNDLE_PREV_END_TS = 10,		/* previous_bundle_end_timestamp */
	AN_PF_BUNDLE_GENERIC_DESC = 11,		/* generic_event_descriptors */

	AN_PF_CS_SWITCH_TS = 1,
	AN_PF_CS_SWITCH_PREV_STATE = 2,
	AN_PF_CS_SWITCH_NEXT_PID = 3,
	AN_PF_CS_SWITCH_NEXT_PRIO = 4,
	AN_PF_CS_INTERN_TABLE = 5,
	AN_PF_CS_SWITCH_NEXT_COMM = 6,		/* index into the intern table */
	AN_PF_CS_WAKING_TS = 7,
	AN_PF_CS_WAKING_PID = 8,
	AN_PF_CS_WAKING_TARGET_CPU = 9,
	AN_PF_CS_WAKING_PRIO = 10,
	AN_PF_CS_WAKING_COMM = 11,
	AN_PF_CS_WAKING_FLAGS = 12,

	AN_PF_GD_FIELD_ID = 1,
	AN_PF_GD_DESCRIPTOR = 2,		/* a serialized DescriptorProto */
};

/* FtraceEvent: the common fields; the typed events are the table's. */
enum {
	AN_PF_EVENT_TIMESTAMP = 1,
	AN_PF_EVENT_PID = 2,
	AN_PF_EVENT_COMMON_FLAGS = 5,
	AN_PF_EVENT_GENERIC = 327,		/* GenericFtraceEvent */
	AN_PF_EVENT_DENSE_MIN = 65536,		/* dense generic events from here */
	AN_PF_EVENT_DENSE_MAX = 131072,

	AN_PF_GENERIC_NAME = 1,			/* GenericFtraceEvent.event_name */
	AN_PF_GENERIC_FIELD = 2,
	AN_PF_GFIELD_NAME = 1,			/* GenericFtraceEvent.Field */
	AN_PF_GFIELD_STR = 3,
	AN_PF_GFIELD_INT = 4,
	AN_PF_GFIELD_UINT = 5,
};

/* google/protobuf/descriptor.proto, what a dense event's layout uses. */
enum {
	AN_PF_DESC_NAME = 1,			/* DescriptorProto */
	AN_PF_DESC_FIELD = 2,
	AN_PF_FDESC_NAME = 1,			/* FieldDescriptorProto */
	AN_PF_FDESC_NUMBER = 3,
	AN_PF_FDESC_TYPE = 5,
};

/* FieldDescriptorProto.Type values. */
enum an_pf_desc_type {
	AN_PF_DT_DOUBLE = 1, AN_PF_DT_FLOAT = 2, AN_PF_DT_INT64 = 3,
	AN_PF_DT_UINT64 = 4, AN_PF_DT_INT32 = 5, AN_PF_DT_FIXED64 = 6,
	AN_PF_DT_FIXED32 = 7, AN_PF_DT_BOOL = 8, AN_PF_DT_STRING = 9,
	AN_PF_DT_GROUP = 10, AN_PF_DT_MESSAGE = 11, AN_PF_DT_BYTES = 12,
	AN_PF_DT_UINT32 = 13, AN_PF_DT_ENUM = 14, AN_PF_DT_SFIXED32 = 15,
	AN_PF_DT_SFIXED64 = 16, AN_PF_DT_SINT32 = 17, AN_PF_DT_SINT64 = 18,
};

/* FtraceStats, FtraceCpuStats, SystemInfo, Utsname, CpuInfo, CpuInfo.Cpu. */
enum {
	AN_PF_STATS_PHASE = 1,
	AN_PF_STATS_CPU_STATS = 2,
	AN_PF_STATS_START = 1,			/* Phase START_OF_TRACE */
	AN_PF_STATS_END = 2,			/* Phase END_OF_TRACE */
	AN_PF_CPUSTATS_CPU = 1,
	AN_PF_CPUSTATS_OVERRUN = 3,

	AN_PF_SYSINFO_UTSNAME = 1,
	AN_PF_UTSNAME_RELEASE = 3,

	AN_PF_CPUINFO_CPUS = 1,
	AN_PF_CPU_PROCESSOR = 1,
	AN_PF_CPU_FREQUENCIES = 2,		/* kHz, packed or not */
	AN_PF_CPU_CAPACITY = 3,
};

/* How a typed event's field is declared in its message. */
enum an_pf_type {
	AN_PF_INT32,		/* varint, negative values sign-extended to 64 bits */
	AN_PF_UINT32,
	AN_PF_INT64,
	AN_PF_UINT64,
	AN_PF_STRING,
};

/**
 * struct an_pf_field - one field of a typed event message
 * @number: its proto field number
 * @name: the kernel's field name, as the alias table knows it
 * @type: its proto type
 */
struct an_pf_field {
	uint32_t number;
	const char *name;
	enum an_pf_type type;
};

/**
 * struct an_pf_event - one typed event of FtraceEvent
 * @id: its FtraceEvent field number
 * @name: the kernel's event name
 * @type: canonical type, an_alias_lookup(@name) (AN_EV_UNKNOWN: ucval has
 *	  no use for it, it is still decoded and counted by name)
 * @fields: its message's fields that carry a kernel field
 * @nr_fields: their number
 */
struct an_pf_event {
	uint32_t id;
	const char *name;
	enum an_event_type type;
	const struct an_pf_field *fields;
	unsigned int nr_fields;
};

/**
 * an_pfschema_by_id() - the typed event of FtraceEvent field @id
 * @id: field number
 *
 * Return: the static row, NULL when @id is no typed event ucval knows.
 */
const struct an_pf_event *an_pfschema_by_id(uint32_t id);

/**
 * an_pfschema_by_name() - the typed event whose kernel name is @name
 * @name: kernel event name ("sched_switch")
 *
 * Return: the static row, NULL when Perfetto has no message ucval knows for
 * it (write it as a GenericFtraceEvent).
 */
const struct an_pf_event *an_pfschema_by_name(const char *name);

/**
 * an_pfschema_field() - the field of @e with proto number @number
 * @e: typed event
 * @number: field number in its message
 *
 * Return: the static row, NULL when ucval does not read that field.
 */
const struct an_pf_field *an_pfschema_field(const struct an_pf_event *e, uint32_t number);

/**
 * an_pfschema_alias() - the alias table's row of a typed event's field
 * @e: an event of the table
 * @f: one of @e's fields
 *
 * The same as an_alias_field_index() on @f's name for @e's type, looked up
 * once for the process.
 *
 * Return: the row index, or -1 when @e's type does not use the field.
 */
int an_pfschema_alias(const struct an_pf_event *e, const struct an_pf_field *f);

/**
 * an_pfschema_at() - row @i of the table, to walk it
 * @i: 0..
 *
 * Return: the static row, NULL past the last.
 */
const struct an_pf_event *an_pfschema_at(unsigned int i);

#endif /* UCVAL_ANALYZE_READ_PFSCHEMA_H */
