// SPDX-License-Identifier: MIT
/*
 * tests/fuzz/mkseed_dat.c - write the synthetic trace.dat of
 * tests/an_datwriter.h as fuzz seeds: with and without a UNAME option, with
 * a page holding every kind of ring-buffer event (the page walk of
 * analyze/read/dat/datpages.c), with buffer statistics that count more losses
 * than the pages (datcheck.c: losses no page places; and a buffer read
 * before the file: the pages' events counted, lost_before()), with a print
 * format libtraceevent cannot parse safely (datcheck.c empties it), and as
 * older trace-cmd versions wrote it: big endian, 4-byte longs, no options,
 * an empty TRACECLOCK option with the clock after the CPU table, text
 * options without their NUL, a DATE option (datcheck.c check_text_option()),
 * and with a named instance (v6 BUFFER option, datcheck.c walk_instance_v6()).
 * Usage: mkseed_dat DIR [--replay]
 * --replay: each seed starts with an options byte (0) for fuzz_replay.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "tests/an_datwriter.h"

static int write_seed(const char *dir, const char *name, const struct dw_spec *spec,
		      bool is_replay)
{
	char path[4096];
	struct dw w;
	FILE *fp;
	int ok;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	dw_build_spec(&w, spec);
	fp = fopen(path, "wb");
	ok = fp && (!is_replay || fputc(0, fp) == 0) && fwrite(w.p, 1, w.len, fp) == w.len;
	if (fp && fclose(fp))
		ok = 0;
	free(w.p);
	if (!ok)
		fprintf(stderr, "mkseed_dat: cannot write '%s'\n", path);
	return ok ? 0 : 1;
}

int main(int argc, char **argv)
{
	static const char *const stats[] = {
		"\nCPU: 0\nentries: 0\noverrun: 0\ncommit overrun: 0\ndropped events: 2\n",
		"\nCPU: 1\nentries: 0\noverrun: 42\ncommit overrun: 5\ndropped events: 0\n",
		NULL,
	};
	static const char *const read_before[] = {
		"\nCPU: 1\nentries: 0\noverrun: 50\ncommit overrun: 1\ndropped events: 0\n"
		"read events: 9\n",
		NULL,
	};
	static const struct {
		const char *name;
		struct dw_spec spec;
	} seeds[] = {
		{ "synthetic-v6.dat", { .fill1 = dw_page_cpu1, .lost1 = 42 } },
		{ "synthetic-v6-uname.dat", { .uname = "Linux a 5.10.0 #1 SMP aarch64",
					      .fill1 = dw_page_cpu1, .lost1 = 42 } },
		{ "synthetic-v6-event-kinds.dat", { .fill1 = dw_page_kinds, .lost1 = 42 } },
		{ "synthetic-v6-cpustat.dat", { .fill1 = dw_page_cpu1, .lost1 = 42,
						.cpustat = stats } },
		{ "synthetic-v6-read-before.dat", { .fill1 = dw_page_kinds, .lost1 = 42,
						    .cpustat = read_before, .nr_pages1 = 2 } },
		{ "synthetic-v6-sizeof.dat", { .fill1 = dw_page_cpu1, .lost1 = 42,
					       .dma_format = dw_fmt_sizeof } },
		/* 12 pages for CPU 1: two chunks once compressed (trace-cmd: 10 a chunk) */
		{ "synthetic-v6-pages.dat", { .fill1 = dw_page_cpu1, .nr_pages1 = 12,
					      .dma_format = dw_fmt_sizeof } },
		/* a second instance (the probes' buffer of ucval collect --probes) */
		{ "synthetic-v6-instance.dat", { .fill1 = dw_page_kinds, .lost1 = 42,
						 .has_instance = true } },
		{ "synthetic-v6-instance-be.dat", { .fill1 = dw_page_cpu1, .is_big = true,
						    .has_instance = true } },
	};
	static const char clock[] = "[local] global counter uptime perf\n";
	static const struct dw_opt clock_empty[] = { { 4, "", 0 } };
	static const struct dw_opt clock_text[] = { { 4, clock, sizeof(clock) } };
	static const struct dw_opt no_nul[] = {
		{ 4, clock, sizeof(clock) - 1 }, { 9, "2.6", 3 }, { 5, "Linux a 4.4.0 armv7l", 20 },
		{ 2, "\nCPU: 1\noverrun: 0\n", 19 }, { 2, "", 0 }, { 10, "", 0 },
		{ 6, "sched:sched_switch", 18 },
	};
	static const struct dw_opt date[] = { { 1, "0x3e8", 6 }, { 7, "-500", 5 } };
	static const struct {
		const char *name;
		struct dw_spec spec;
	} old[] = {
		{ "synthetic-v6-be.dat", { .fill1 = dw_page_kinds, .lost1 = 42, .is_big = true } },
		{ "synthetic-v6-long4.dat", { .fill1 = dw_page_kinds, .lost1 = 42,
					      .is_long4 = true } },
		{ "synthetic-v6-be-long4.dat", { .fill1 = dw_page_cpu1, .lost1 = 42,
						 .is_big = true, .is_long4 = true } },
		{ "synthetic-v6-no-options.dat", { .fill1 = dw_page_cpu1, .no_options = true } },
		{ "synthetic-v6-clock-empty.dat", { .fill1 = dw_page_cpu1, .lost1 = 42,
						    .opts = clock_empty, .nr_opts = 1,
						    .clock_after = clock } },
		{ "synthetic-v6-clock.dat", { .fill1 = dw_page_cpu1, .opts = clock_text,
					      .nr_opts = 1, .clock_after = clock } },
		{ "synthetic-v6-no-nul.dat", { .fill1 = dw_page_cpu1, .lost1 = 42, .opts = no_nul,
					       .nr_opts = sizeof(no_nul) / sizeof(no_nul[0]),
					       .clock_after = clock } },
		{ "synthetic-v6-date.dat", { .fill1 = dw_page_cpu1, .opts = date, .nr_opts = 2 } },
	};
	bool is_replay = argc == 3 && !strcmp(argv[2], "--replay");
	int err = 0;

	if (argc != 2 && !is_replay) {
		fprintf(stderr, "usage: mkseed_dat DIR [--replay]\n");
		return 2;
	}
	for (size_t i = 0; i < sizeof(seeds) / sizeof(seeds[0]); i++)
		err |= write_seed(argv[1], seeds[i].name, &seeds[i].spec, is_replay);
	for (size_t i = 0; i < sizeof(old) / sizeof(old[0]); i++)
		err |= write_seed(argv[1], old[i].name, &old[i].spec, is_replay);
	return err;
}
