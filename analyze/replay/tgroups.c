// SPDX-License-Identifier: MIT
/*
 * analyze/replay/tgroups.c - cgroup path -> model task group (tgroups.h).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "lib/malloc.h"
#include "analyze/read/marker.h"
#include "analyze/replay/tgroups.h"
#include "lib/vec.h"

struct tg_entry {
	char path[AN_PATH_LEN];	/* normalised: "/a/b", no trailing slash */
	struct model_tg *tg;	/* own allocation: the model links to it */
};

struct an_tgroups {
	struct tg_entry *ent;
	size_t nr, alloc;
};

int an_tgroups_new(struct an_tgroups **out)
{
	*out = an_calloc(1, sizeof(**out));
	return *out ? 0 : -ENOMEM;
}

void an_tgroups_free(struct an_tgroups *g)
{
	if (!g)
		return;
	for (size_t i = 0; i < g->nr; i++)
		free(g->ent[i].tg);
	free(g->ent);
	free(g);
}

/* "/a//b/" and "a/b" -> "/a/b"; the root is "". */
static int normalise(const char *in, char out[AN_PATH_LEN])
{
	bool is_sep = true;	/* a separator is due before the next name byte */
	size_t n = 0;

	for (const char *s = in; *s; s++) {
		if (*s == '/') {
			is_sep = true;
			continue;
		}
		if (n + 2 >= AN_PATH_LEN)
			return -EINVAL;
		if (is_sep)
			out[n++] = '/';
		is_sep = false;
		out[n++] = *s;
	}
	out[n] = '\0';
	return 0;
}

static struct model_tg *find(const struct an_tgroups *g, const char *path)
{
	for (size_t i = 0; i < g->nr; i++)
		if (!strcmp(g->ent[i].path, path))
			return g->ent[i].tg;
	return NULL;
}

const char *an_tgroups_path(const struct an_tgroups *g, const struct model_tg *tg)
{
	if (!tg->parent)
		return "/";
	for (size_t i = 0; i < g->nr; i++)
		if (g->ent[i].tg == tg)
			return g->ent[i].path;
	return NULL;
}

int an_tgroups_get(struct an_tgroups *g, struct model_sys *sys, const char *path,
		   struct model_tg **out)
{
	char norm[AN_PATH_LEN];
	struct model_tg *parent = &sys->root_tg;
	size_t len;
	int err;

	*out = parent;
	err = normalise(path, norm);
	if (err)
		return err;
	len = strlen(norm);
	/* walk "/a", "/a/b", ... creating what is missing */
	for (size_t end = 1; end <= len; end++) {
		struct model_tg *tg;
		char prefix[AN_PATH_LEN];

		if (end < len && norm[end] != '/')
			continue;
		memcpy(prefix, norm, end);
		prefix[end] = '\0';
		tg = find(g, prefix);
		if (!tg) {
			if (AN_VEC_GROW(g->ent, g->nr + 1, g->alloc))
				return -ENOMEM;
			tg = an_calloc(1, sizeof(*tg));
			if (!tg)
				return -ENOMEM;
			err = model_tg_init(sys, tg, parent);
			if (err) {
				/*
				 * The model unlinked it again: a v3 seed kernel
				 * fails the creation with -ENOMEM when no clamp
				 * group is left (VG6). That is the traced
				 * kernel's error, not the replay out of memory.
				 */
				free(tg);
				return -ENOSPC;
			}
			strcpy(g->ent[g->nr].path, prefix);
			g->ent[g->nr++].tg = tg;
		}
		parent = tg;
		*out = tg;
	}
	return 0;
}
