/* SPDX-License-Identifier: MIT */
/*
 * analyze/read/readinfo.h - what the format readers share with reader.c,
 * which detects the format and dispatches to them: the formats, what a
 * reader reports about its trace (struct an_reader_info, filled by the
 * format reader, counted by reader.c) and how trace.dat records are read.
 * Types only; the format readers (text.c, dat/tracedat.c) include this,
 * never reader.h.
 */
#ifndef UCVAL_ANALYZE_READ_READINFO_H
#define UCVAL_ANALYZE_READ_READINFO_H

#include <stdbool.h>
#include <stdint.h>

enum an_format {
	AN_FORMAT_UNKNOWN = 0,
	AN_FORMAT_TRACEDAT,	/* trace-cmd binary */
	AN_FORMAT_TEXT,		/* ftrace text */
	AN_FORMAT_HTML,		/* systrace/atrace HTML with trace-data blocks */
	AN_FORMAT_PERFETTO,	/* Perfetto protobuf trace (ftrace bundles) */
};

/*
 * The list of events a capture carries, if any (an_reader_info.ev_list). A
 * type it lacks was not recorded; a type it names may have been recorded
 * without any event happening, or (a trace.dat: `trace-cmd extract` saves
 * the format of every event the kernel has) not enabled at all.
 */
enum an_ev_list {
	AN_EV_LIST_NONE = 0,	/* no list: only the events seen tell */
	AN_EV_LIST_FORMATS,	/* a trace.dat's saved event formats */
	AN_EV_LIST_ENABLED,	/* a text's "# enabled events:" header line */
};

/**
 * struct an_reader_info - what a reader knows about its trace
 * @format: detected format
 * @format_name: "trace.dat", "ftrace-text", "systrace-html" or "perfetto"
 *		 (the db's words)
 * @file_version: trace.dat file version (6, 7), 0 for text
 * @compression: trace.dat v7 compression ("zstd", "zlib"), "" when none
 * @nr_cpus: CPUs the trace declares (trace.dat header, "#P:N", "cpus=N",
 *	     Perfetto's CpuInfo or SystemInfo), 0 when it does not say
 * @kernel_release: uname release when the trace.dat has a UNAME option or the
 *		    Perfetto trace a SystemInfo, "" otherwise
 * @nr_events: events returned so far (LOST_EVENTS included)
 * @nr_unknown: of which AN_EV_UNKNOWN
 * @nr_errors: recoverable errors returned so far (bad lines, bad records)
 * @nr_lost: sum of the lost-event counts the trace reported
 * @nr_lost_unknown: lost-event reports without a count
 * @nr_lost_unplaced: of @nr_lost, those no page places in time (trace.dat
 *		      buffer statistics, struct an_ev_lost)
 * @nr_lost_before: overwritten events a trace.dat's buffer statistics
 *		    count that are older than the file: its buffer had been
 *		    read before it was saved (not in @nr_lost)
 * @nr_cpus_read_before: the CPUs they were lost on
 * @nr_formats_blanked: trace.dat event formats whose print format was
 *			emptied for libtraceevent (struct an_datcheck)
 * @format_blanked: the first one's name, "" when none
 * @is_dat_pages: trace.dat whose CPU data datpages.c reads (plain or
 *		  compressed); false: libtracecmd's records (the reference
 *		  path, and files datpages.c does not take)
 * @ev_list: whether the capture lists its events, and which list it is
 * @ev_listed: with @ev_list, the canonical event types (bit 1u << type,
 *	       enum an_event_type) the list names; 0 without a list
 */
struct an_reader_info {
	enum an_format format;
	const char *format_name;
	int file_version;
	char compression[16];
	int nr_cpus;
	char kernel_release[80];
	unsigned long long nr_events;
	unsigned long long nr_unknown;
	unsigned long long nr_errors;
	unsigned long long nr_lost;
	unsigned long long nr_lost_unknown;
	unsigned long long nr_lost_unplaced;
	unsigned long long nr_lost_before;
	unsigned int nr_cpus_read_before;
	unsigned int nr_formats_blanked;
	char format_blanked[64];
	bool is_dat_pages;
	enum an_ev_list ev_list;
	uint64_t ev_listed;
};

/* How trace.dat records are read (an_reader_set_dat_reader()). */
enum an_dat_reader {
	AN_DAT_PAGES,		/* datpages.c, walking the pages itself where it can */
	AN_DAT_KBUFFER,		/* datpages.c, every page through libtraceevent's kbuffer */
	AN_DAT_LIBTRACECMD,	/* tracecmd_read_next_data(): the reference */
};

#endif /* UCVAL_ANALYZE_READ_READINFO_H */
