// SPDX-License-Identifier: MIT
/*
 * collect/recmeta.c - the metadata of a trace.dat read from tracefs at the
 * end of a recording: header_page/header_event, every ftrace format (print
 * is the markers' event), the formats of the recorded events grouped by
 * system, printk_formats, saved_cmdlines, and the options. kallsyms is left
 * empty: no recorded event needs kernel symbols, and it is megabytes.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include <tracefs.h>

#include "collect/datwrite.h"
#include "collect/recmeta.h"

#ifndef UCVAL_VERSION
#define UCVAL_VERSION "unknown"
#endif

#define META_CPU_LEN	64	/* "per_cpu/cpuNNNN/stats" */

/* Owned texts, freed together. */
struct meta {
	char **texts;
	unsigned int nr, alloc;
};

static char *keep(struct meta *m, char *text)
{
	if (!text)
		return NULL;
	if (m->nr == m->alloc) {
		unsigned int n = m->alloc ? m->alloc * 2 : 64;
		char **t = realloc(m->texts, n * sizeof(*t));

		if (!t) {
			free(text);
			return NULL;
		}
		m->texts = t;
		m->alloc = n;
	}
	m->texts[m->nr++] = text;
	return text;
}

static void meta_free(struct meta *m)
{
	for (unsigned int i = 0; i < m->nr; i++)
		free(m->texts[i]);
	free(m->texts);
}

/* A tracefs file of the instance as a blob; -errno when unreadable. */
static int read_file(struct meta *m, struct tracefs_instance *inst, const char *file,
		     struct col_dat_blob *b, struct an_diag *d)
{
	int len = 0;
	char *text = keep(m, tracefs_instance_file_read(inst, file, &len));

	if (!text)
		return an_diag_fail(d, errno ? -errno : -EIO, "cannot read tracefs file '%s'",
				    file);
	*b = (struct col_dat_blob){ text, (size_t)len };
	return 0;
}

static int read_format(struct meta *m, struct tracefs_instance *inst, const char *sys,
		       const char *name, struct col_dat_blob *b, struct an_diag *d)
{
	int len = 0;
	char *text = keep(m, tracefs_event_file_read(inst, sys, name, "format", &len));

	if (!text)
		return an_diag_fail(d, errno ? -errno : -EIO, "cannot read the format of %s:%s",
				    sys, name);
	*b = (struct col_dat_blob){ text, (size_t)len };
	return 0;
}

static int read_ftrace(struct meta *m, struct tracefs_instance *inst,
		       struct col_dat_blob **out, unsigned int *nr, struct an_diag *d)
{
	char **events = tracefs_system_events(NULL, "ftrace");
	unsigned int n = 0;
	int err = 0;

	while (events && events[n])
		n++;
	*out = calloc(n ? n : 1, sizeof(**out));
	if (!*out) {
		tracefs_list_free(events);
		return an_diag_fail(d, -ENOMEM, "out of memory");
	}
	*nr = 0;
	for (unsigned int i = 0; i < n && !err; i++) {
		/* Some ftrace entries (function, ...) may have no readable format. */
		if (!tracefs_event_file_exists(inst, "ftrace", events[i], "format"))
			continue;
		err = read_format(m, inst, "ftrace", events[i], &(*out)[*nr], d);
		if (!err)
			(*nr)++;
	}
	tracefs_list_free(events);
	return err;
}

/* Group the recorded events (sorted by system) into systems. */
static int read_systems(struct meta *m, const struct col_recmeta_src *src,
			struct col_dat_system **systems, unsigned int *nr_systems,
			struct col_dat_blob **formats, struct an_diag *d)
{
	const struct col_events *ev = src->events;
	int err = 0;

	*systems = calloc(ev->nr ? ev->nr : 1, sizeof(**systems));
	*formats = calloc(ev->nr ? ev->nr : 1, sizeof(**formats));
	if (!*systems || !*formats)
		return an_diag_fail(d, -ENOMEM, "out of memory");
	*nr_systems = 0;
	for (unsigned int i = 0; i < ev->nr && !err; i++) {
		struct col_dat_system *s = *nr_systems ? &(*systems)[*nr_systems - 1] : NULL;

		if (!s || strcmp(s->name, ev->ev[i].system)) {
			s = &(*systems)[(*nr_systems)++];
			*s = (struct col_dat_system){ ev->ev[i].system, &(*formats)[i], 0 };
		}
		err = read_format(m, src->inst, ev->ev[i].system, ev->ev[i].name,
				  &(*formats)[i], d);
		s->nr++;
	}
	return err;
}

/* UNAME, TRACECLOCK, CPUCOUNT, VERSION, then one CPUSTAT per CPU. */
static int make_options(struct meta *m, const struct col_recmeta_src *src,
			struct col_dat_option *opt, unsigned int *nr, uint32_t *cpus,
			struct an_diag *d)
{
	struct utsname u;
	char *text;
	int err;

	*nr = 0;
	if (!uname(&u)) {
		if (asprintf(&text, "%s %s %s %s %s", u.sysname, u.nodename, u.release,
			     u.version, u.machine) < 0 || !keep(m, text))
			return an_diag_fail(d, -ENOMEM, "out of memory");
		opt[(*nr)++] = (struct col_dat_option){ COL_DAT_OPT_UNAME, text,
							(uint32_t)strlen(text) + 1 };
	}
	text = keep(m, tracefs_instance_file_read(src->inst, "trace_clock", NULL));
	if (text)
		opt[(*nr)++] = (struct col_dat_option){ COL_DAT_OPT_TRACECLOCK, text,
							(uint32_t)strlen(text) + 1 };
	*cpus = src->nr_cpus;
	opt[(*nr)++] = (struct col_dat_option){ COL_DAT_OPT_CPUCOUNT, cpus, sizeof(*cpus) };
	opt[(*nr)++] = (struct col_dat_option){ COL_DAT_OPT_VERSION, "ucval " UCVAL_VERSION,
						sizeof("ucval " UCVAL_VERSION) };
	for (unsigned int c = 0; c < src->nr_cpus; c++) {
		char path[META_CPU_LEN];
		char *stats;

		snprintf(path, sizeof(path), "per_cpu/cpu%u/stats", c);
		stats = tracefs_instance_file_read(src->inst, path, NULL);
		err = asprintf(&text, "\nCPU: %u\n%s", c, stats ? stats : "");
		free(stats);
		if (err < 0 || !keep(m, text))
			return an_diag_fail(d, -ENOMEM, "out of memory");
		opt[(*nr)++] = (struct col_dat_option){ COL_DAT_OPT_CPUSTAT, text,
							(uint32_t)strlen(text) + 1 };
	}
	return 0;
}

int col_recmeta_write(const struct col_recmeta_src *src, const char *path, struct an_diag *d)
{
	struct col_dat_input in = {
		.page_size = src->page_size, .long_size = sizeof(long),
		.nr_cpus = src->nr_cpus, .cpu_fds = src->cpu_fds,
	};
	struct col_dat_blob *ftrace = NULL, *formats = NULL;
	struct col_dat_system *systems = NULL;
	struct col_dat_option *opt;
	struct meta m = { 0 };
	uint32_t cpus;
	int err;

	an_diag_set_file(d, "write", path);
	/* 4 fixed options + one CPUSTAT per CPU */
	opt = calloc(src->nr_cpus + 4, sizeof(*opt));
	if (!opt)
		return an_diag_fail(d, -ENOMEM, "out of memory");
	err = read_file(&m, src->inst, "events/header_page", &in.header_page, d);
	if (!err)
		err = read_file(&m, src->inst, "events/header_event", &in.header_event, d);
	if (!err)
		err = read_ftrace(&m, src->inst, &ftrace, &in.nr_ftrace, d);
	if (!err)
		err = read_systems(&m, src, &systems, &in.nr_systems, &formats, d);
	if (!err)
		err = read_file(&m, NULL, "printk_formats", &in.printk, d);
	if (!err)
		err = read_file(&m, NULL, "saved_cmdlines", &in.cmdlines, d);
	if (!err)
		err = make_options(&m, src, opt, &in.nr_options, &cpus, d);
	if (!err && src->extra_system) {
		struct col_dat_system *more = realloc(systems, (in.nr_systems + 1) *
						      sizeof(*systems));

		if (!more)
			err = an_diag_fail(d, -ENOMEM, "out of memory");
		else
			(systems = more)[in.nr_systems++] = *src->extra_system;
	}
	if (!err) {
		in.ftrace = ftrace;
		in.systems = systems;
		in.options = opt;
		in.instances = src->instances;
		in.nr_instances = src->nr_instances;
		err = col_datwrite_file(path, &in, d);
	}
	free(opt);
	free(ftrace);
	free(formats);
	free(systems);
	meta_free(&m);
	return err;
}
