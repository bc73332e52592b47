/*
 * tests/fuzz/mkseed_dat.c - write the synthetic trace.dat of
 * tests/an_datwriter.h as fuzz seeds: with and without a UNAME option, and
 * with a page holding every kind of ring-buffer event (the page walk of
 * analyze/datpages.c).
 * Usage: mkseed_dat DIR
 */
#include <stdbool.h>
#include <stdio.h>

#include "tests/an_datwriter.h"

static int write_seed(const char *dir, const char *name, const char *uname, bool is_kinds)
{
	char path[4096];
	struct dw w;
	FILE *fp;
	int ok;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (is_kinds)
		dw_build_pages(&w, uname, dw_page_kinds, 42);
	else
		dw_build(&w, uname);
	fp = fopen(path, "wb");
	ok = fp && fwrite(w.p, 1, w.len, fp) == w.len;
	if (fp && fclose(fp))
		ok = 0;
	free(w.p);
	if (!ok)
		fprintf(stderr, "mkseed_dat: cannot write '%s'\n", path);
	return ok ? 0 : 1;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: mkseed_dat DIR\n");
		return 2;
	}
	return write_seed(argv[1], "synthetic-v6.dat", NULL, false) |
	       write_seed(argv[1], "synthetic-v6-uname.dat", "Linux a 5.10.0 #1 SMP aarch64", false) |
	       write_seed(argv[1], "synthetic-v6-event-kinds.dat", NULL, true);
}
