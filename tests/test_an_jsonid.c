/* SPDX-License-Identifier: MIT */
/*
 * tests/test_an_jsonid.c - `ucval analyze --json` stays byte for byte what
 * it was: the SHA-256 of its output (without the version line) and its exit
 * status, for every fixture of traces/ (ftrace text, systrace, Perfetto) and
 * for synthetic traces of both of synth's formats, against
 * tests/golden/analyze-json.sha256. A change of speed must not change a
 * result; a change of results updates the file on purpose:
 * UCVAL_GOLDEN_UPDATE=1 rewrites it (review its diff).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/sha256.h"
#include "an_testutil.h"

#define LINE_LEN	512
#define MAX_LINES	128
/* Synthetic traces: small enough for a quick test, every check busy. */
#define SYNTH_EVENTS	"100000"

struct jsonid {
	char line[MAX_LINES][LINE_LEN];	/* "sha256 status label" */
	unsigned int n;
};

/* Run `CMD`, hash its output without the line naming ucval's version. */
static void hash_of(const char *cmd, char hex[AN_SHA256_HEX_LEN + 1], int *status)
{
	struct an_sha256 s;
	char buf[8192];
	FILE *p = popen(cmd, "r");
	int wst;

	assert_non_null(p);
	an_sha256_init(&s);
	while (fgets(buf, sizeof(buf), p))
		if (!strstr(buf, "\"ucval_version\":"))
			an_sha256_update(&s, buf, strlen(buf));
	wst = pclose(p);
	*status = WIFEXITED(wst) ? WEXITSTATUS(wst) : 128;
	an_sha256_final(&s, hex);
}

/* One trace, analyzed from its own folder (the JSON names it by its base name). */
static void add(struct jsonid *j, const char *dir, const char *name, const char *label)
{
	char cmd[LINE_LEN * 2], hex[AN_SHA256_HEX_LEN + 1];
	int status;

	assert_true(j->n < MAX_LINES);
	an_test_fmt(cmd, sizeof(cmd), "cd '%s' && '%s' analyze -q --json - '%s' 2>/dev/null",
		    dir, getenv("UCVAL"), name);
	hash_of(cmd, hex, &status);
	an_test_fmt(j->line[j->n++], LINE_LEN, "%s %d %s", hex, status, label);
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

/* Every file of @dir ending in @ext, in name order. */
static void add_dir(struct jsonid *j, const char *dir, const char *ext, const char *prefix)
{
	struct dirent **de;
	char label[LINE_LEN];
	int n = scandir(dir, &de, NULL, by_name);

	assert_true(n >= 0);
	for (int i = 0; i < n; i++) {
		size_t len = strlen(de[i]->d_name), el = strlen(ext);

		if (len > el && !strcmp(de[i]->d_name + len - el, ext)) {
			an_test_fmt(label, sizeof(label), "%s%s", prefix, de[i]->d_name);
			add(j, dir, de[i]->d_name, label);
		}
		free(de[i]);
	}
	free(de);
}

static void add_synth(struct jsonid *j, const char *tmp, const char *seed, const char *format)
{
	char name[64], cmd[LINE_LEN * 2], label[LINE_LEN];

	an_test_fmt(name, sizeof(name), "synth-%s.%s", seed, format);
	an_test_fmt(cmd, sizeof(cmd), "cd '%s' && '%s' synth -q -o '%s' --format %s --events "
		    SYNTH_EVENTS " --cpus 8 --seed %s", tmp, getenv("UCVAL"), name,
		    !strcmp(format, "dat") ? "dat" : "pftrace", seed);
	assert_int_equal(system(cmd), 0);
	an_test_fmt(label, sizeof(label), "synth --events " SYNTH_EVENTS " --cpus 8 --seed %s "
		    "--format %s", seed, format);
	add(j, tmp, name, label);
	an_test_fmt(cmd, sizeof(cmd), "%s/%s", tmp, name);
	unlink(cmd);
}

static void test_json_unchanged(void **state)
{
	static struct jsonid j;
	char dir[LINE_LEN], golden[LINE_LEN], tmp[] = "/tmp/ucval-jsonid-XXXXXX";
	char want[LINE_LEN];
	unsigned int i = 0, bad = 0;
	FILE *f;

	(void)state;
	if (!getenv("UCVAL")) {
		printf("# skip: UCVAL (the ucval binary) is not set\n");
		skip();
	}
	an_test_fmt(dir, sizeof(dir), "%s/traces", an_test_root());
	add_dir(&j, dir, ".txt", "");
	add_dir(&j, dir, ".html", "");
	an_test_fmt(dir, sizeof(dir), "%s/traces/perfetto", an_test_root());
	add_dir(&j, dir, ".pftrace", "perfetto/");
	assert_non_null(mkdtemp(tmp));
	add_synth(&j, tmp, "1", "dat");
	add_synth(&j, tmp, "2", "dat");
	add_synth(&j, tmp, "1", "pftrace");
	rmdir(tmp);

	an_test_fmt(golden, sizeof(golden), "%s/tests/golden/analyze-json.sha256",
		    an_test_root());
	if (getenv("UCVAL_GOLDEN_UPDATE")) {
		f = fopen(golden, "w");
		assert_non_null(f);
		for (i = 0; i < j.n; i++)
			fprintf(f, "%s\n", j.line[i]);
		assert_int_equal(fclose(f), 0);
		return;
	}
	f = fopen(golden, "r");
	assert_non_null(f);
	while (fgets(want, sizeof(want), f)) {
		want[strcspn(want, "\n")] = '\0';
		if (i >= j.n || strcmp(want, j.line[i])) {
			printf("# want %s\n#  got %s\n", want, i < j.n ? j.line[i] : "(nothing)");
			bad++;
		}
		i++;
	}
	fclose(f);
	for (; i < j.n; i++, bad++)
		printf("# want (nothing)\n#  got %s\n", j.line[i]);
	if (bad)
		fail_msg("%u JSON outputs differ from tests/golden/analyze-json.sha256", bad);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json_unchanged),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
