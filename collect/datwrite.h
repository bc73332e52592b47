/* SPDX-License-Identifier: MIT */
/*
 * collect/datwrite.h - write a trace.dat version 6 (trace-cmd.dat.v6(5)) from
 * tracefs metadata and per-CPU raw ring-buffer pages already on disk.
 * libtracecmd 3.1 has no public writer, so ucval writes the format itself.
 */
#ifndef UCVAL_COLLECT_DATWRITE_H
#define UCVAL_COLLECT_DATWRITE_H

#include <stddef.h>
#include <stdint.h>

#include "lib/diag.h"

/* Option ids of trace-cmd.dat.v6(5) that ucval writes (trace-cmd's numbering). */
enum col_dat_option_id {
	COL_DAT_OPT_DATE = 1,		/* text: time offset, "0x0" */
	COL_DAT_OPT_CPUSTAT = 2,	/* text: per_cpu/cpuN/stats, one option per CPU */
	COL_DAT_OPT_BUFFER = 3,		/* u64 offset + name: a named instance (written from
					 * col_dat_input.instances) */
	COL_DAT_OPT_TRACECLOCK = 4,	/* text: the trace_clock file */
	COL_DAT_OPT_UNAME = 5,		/* text: "sysname nodename release version machine" */
	COL_DAT_OPT_CPUCOUNT = 8,	/* u32: CPUs of the machine */
	COL_DAT_OPT_VERSION = 9,	/* text: the writer ("ucval 0.1.0") */
};

/**
 * struct col_dat_blob - bytes written as they are
 * @data: borrowed, may be NULL when @len is 0
 * @len: byte count
 */
struct col_dat_blob {
	const char *data;
	size_t len;
};

/**
 * struct col_dat_system - the formats of one event system
 * @name: system name ("sched")
 * @formats: the events' format files
 * @nr: how many
 */
struct col_dat_system {
	const char *name;
	const struct col_dat_blob *formats;
	unsigned int nr;
};

/**
 * struct col_dat_option - one option of the options section
 * @id: enum col_dat_option_id (or any trace-cmd id)
 * @data: payload, borrowed; text options include their NUL
 * @len: payload size
 */
struct col_dat_option {
	unsigned short id;
	const void *data;
	uint32_t len;
};

/**
 * struct col_dat_instance - a named instance's data, beside the top one's
 * (as `trace-cmd record -B NAME` writes it): same event formats, same CPUs
 * @name: instance name, not empty; borrowed
 * @cpu_fds: per CPU of the file, a file of whole raw pages, or -1
 */
struct col_dat_instance {
	const char *name;
	const int *cpu_fds;
};

/**
 * struct col_dat_input - everything a trace.dat v6 holds; all borrowed
 * @page_size: ring-buffer (sub-buffer) page size, the unit of the CPU data
 * @long_size: bytes of a userspace long (4 or 8)
 * @header_page: events/header_page
 * @header_event: events/header_event
 * @ftrace: formats of the ftrace system (print, ...)
 * @nr_ftrace: how many
 * @systems: the other systems with their recorded events' formats
 * @nr_systems: how many
 * @kallsyms: /proc/kallsyms text, may be empty
 * @printk: printk_formats text, may be empty
 * @cmdlines: saved_cmdlines text ("pid comm" lines)
 * @options: options, in order
 * @nr_options: how many
 * @nr_cpus: CPUs with a data slot (the file's CPU count)
 * @cpu_fds: per CPU, a file of whole raw pages read from offset 0 up to its
 *	     end, or -1 for a CPU without data
 * @instances: named instances, each as a BUFFER option and its own CPU data
 *	       after the top instance's; NULL when none
 * @nr_instances: how many
 */
struct col_dat_input {
	unsigned int page_size;
	unsigned int long_size;
	struct col_dat_blob header_page;
	struct col_dat_blob header_event;
	const struct col_dat_blob *ftrace;
	unsigned int nr_ftrace;
	const struct col_dat_system *systems;
	unsigned int nr_systems;
	struct col_dat_blob kallsyms;
	struct col_dat_blob printk;
	struct col_dat_blob cmdlines;
	const struct col_dat_option *options;
	unsigned int nr_options;
	unsigned int nr_cpus;
	const int *cpu_fds;
	const struct col_dat_instance *instances;
	unsigned int nr_instances;
};

/**
 * col_datwrite_file() - write @in as a trace.dat v6 at @path
 * @path: output file; written under a temporary name in the same directory
 *	  and renamed at the end, so a failure never leaves a partial @path
 * @in: what to write
 * @d: diagnostic on failure (file, action, reason)
 *
 * A CPU's data that does not end on a page boundary is padded with zeros to
 * one; each CPU's data starts on a page boundary of the file.
 *
 * Return: 0, -EINVAL for an impossible @in, or the negative errno of the
 * failed open, read, write or rename.
 */
int col_datwrite_file(const char *path, const struct col_dat_input *in, struct an_diag *d);

#endif /* UCVAL_COLLECT_DATWRITE_H */
