// SPDX-License-Identifier: MIT
/*
 * analyze/checks/keyed.c - attach, finish and free of a check keyed by task
 * (keyed.h).
 */
#include <errno.h>
#include <stdlib.h>

#include "analyze/checks/keyed.h"
#include "lib/malloc.h"

struct close_ctx {
	struct an_results *res;
	uint64_t end_ns;
};

static void close_one(struct an_wintab_ent *e, void *ctx)
{
	struct close_ctx *c = ctx;

	an_win_close(c->res, &e->fail, c->end_ns);
	an_win_close(c->res, &e->doubt, c->end_ns);
}

static void on_finish(void *ctx, struct an_replay *r, uint64_t end_ns)
{
	struct an_keyed *k = ctx;
	struct close_ctx c = { k->res, end_ns };

	if (k->finish)
		k->finish(k, r, end_ns);
	an_wintab_for_each(k->open, close_one, &c);
}

static void on_free(void *ctx)
{
	struct an_keyed *k = ctx;

	an_wintab_free(k->open);
	free(k);
}

int an_keyed_attach(struct an_replay *r, struct an_results *res, const struct an_observer *obs,
		    struct an_diag *d)
{
	struct an_keyed *k = an_calloc(1, sizeof(*k));
	struct an_observer o = *obs;

	if (!k || an_wintab_new(&k->open)) {
		free(k);
		return an_diag_fail(d, -ENOMEM, "out of memory");
	}
	k->res = res;
	k->finish = obs->finish;
	o.finish = on_finish;
	o.free = on_free;
	o.ctx = k;
	return an_replay_add_observer(r, &o);
}
