// SPDX-License-Identifier: MIT
/*
 * tests/fuzz/main_plain.c - run a fuzz target without libFuzzer: each file
 * named, or each file of each directory named, goes once through
 * LLVMFuzzerTestOneInput(). Built with gcc and no sanitizer, so that
 * valgrind's memcheck can watch the targets over the seeds, the regression
 * inputs and the corpus the fuzzers found (make check-valgrind): reads of
 * memory nobody wrote, which the sanitizer builds do not see.
 */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
/* only the targets that share fuzz_common.h define it */
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

static unsigned long nr_inputs;

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL;
	size_t len = 0, alloc = 0, n;
	int err = 0;

	if (!f) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		return -1;
	}
	do {
		if (len == alloc) {
			unsigned char *b = realloc(buf, alloc = alloc ? 2 * alloc : 65536);

			if (!b) {
				err = -1;
				break;
			}
			buf = b;
		}
		n = fread(buf + len, 1, alloc - len, f);
		len += n;
	} while (n);
	if (ferror(f))
		err = -1;
	fclose(f);
	if (!err) {
		LLVMFuzzerTestOneInput(buf, len);
		nr_inputs++;
	} else {
		fprintf(stderr, "%s: cannot read\n", path);
	}
	free(buf);
	return err;
}

static int run_path(const char *path)
{
	struct dirent **names;
	struct stat st;
	char sub[4096];
	int n, err = 0;

	if (stat(path, &st)) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode))
		return run_file(path);
	/* sorted: the same order, and so the same report, on every machine */
	n = scandir(path, &names, NULL, alphasort);
	if (n < 0) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		return -1;
	}
	for (int i = 0; i < n; i++) {
		if (names[i]->d_name[0] != '.' &&
		    snprintf(sub, sizeof(sub), "%s/%s", path, names[i]->d_name) < (int)sizeof(sub) &&
		    !stat(sub, &st) && S_ISREG(st.st_mode) && run_file(sub))
			err = -1;
		free(names[i]);
	}
	free(names);
	return err;
}

int main(int argc, char **argv)
{
	int err = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: %s FILE|DIR...\n", argv[0]);
		return 2;
	}
	if (LLVMFuzzerInitialize)
		LLVMFuzzerInitialize(&argc, &argv);
	for (int i = 1; i < argc; i++)
		if (run_path(argv[i]))
			err = 1;
	printf("%s: %lu inputs\n", argv[0], nr_inputs);
	return err;
}
