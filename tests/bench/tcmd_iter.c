// SPDX-License-Identifier: MIT
/*
 * tests/bench/tcmd_iter.c - the floor a libtracecmd user gets: open a
 * trace.dat and read every record in timestamp order across CPUs
 * (tracecmd_read_next_data), reading one field of each so the records are
 * touched. `make bench` compares `ucval analyze` with this.
 *
 * usage: tcmd_iter FILE
 */
#include <stdio.h>
#include <stdlib.h>

#include <trace-cmd.h>
#include <event-parse.h>

/* tracecmd_read_next_data(), private; the path is relative (no -I. here) */
#include "../../analyze/read/dat/tcmd_private.h"

int main(int argc, char **argv)
{
	struct tracecmd_input *h;
	struct tep_handle *tep;
	struct tep_record *rec;
	unsigned long long n = 0, sum = 0;
	int cpu;

	if (argc != 2) {
		fprintf(stderr, "usage: tcmd_iter FILE\n");
		return 2;
	}
	h = tracecmd_open(argv[1], TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!h) {
		fprintf(stderr, "tcmd_iter: cannot open '%s'\n", argv[1]);
		return 2;
	}
	tep = tracecmd_get_tep(h);
	while ((rec = tracecmd_read_next_data(h, &cpu))) {
		sum += (unsigned long long)tep_data_type(tep, rec) + (unsigned long long)cpu;
		n++;
		tracecmd_free_record(rec);
	}
	printf("%llu records (%llu)\n", n, sum);
	tracecmd_close(h);
	return 0;
}
