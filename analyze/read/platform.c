// SPDX-License-Identifier: MIT
/*
 * analyze/read/platform.c - platform description from markers and from a file
 * (platform.h: LISA platform.json or ucval's line format).
 *
 * The JSON reader is ours and tiny: it builds a flat node array over the
 * file text (strings stay slices of it, escapes are not decoded: no key we
 * use has any) and then picks the few keys ucval needs.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/malloc.h"
#include "analyze/read/platform.h"
#include "lib/vec.h"

#define MAX_FILE_BYTES	(4u << 20)	/* a platform file is a few KiB */
#define MAX_DEPTH	32
#define LINE_MAX_LEN	4096

void an_platform_init_zeroed(struct an_platform *p)
{
	p->task_group = true;
	p->invariant = true;
	p->scale = 1024;
	for (unsigned int i = 0; i < 3; i++)
		p->sysctl[i] = -1;
}

void an_platform_init(struct an_platform *p)
{
	memset(p, 0, sizeof(*p));
	an_platform_init_zeroed(p);
}

static void list_cpu(struct an_platform *p, unsigned int cpu)
{
	if (!p->cpu[cpu].is_listed)
		p->cpu[cpu].policy = -1;	/* unknown until said */
	p->cpu[cpu].is_listed = true;
	if (cpu + 1 > p->nr_listed)
		p->nr_listed = cpu + 1;
}

int an_platform_apply_marker(struct an_platform *p, const struct an_marker *m)
{
	if (m->kind == AN_MARKER_PLATFORM) {
		p->has_platform = true;
		if (an_marker_has(m, AN_MK_PLATFORM_CPUS))
			p->nr_cpus = m->platform.cpus;
		if (an_marker_has(m, AN_MK_PLATFORM_MODEL))
			p->model = m->platform.model;
		if (an_marker_has(m, AN_MK_PLATFORM_TASK_GROUP))
			p->task_group = m->platform.task_group;
		if (an_marker_has(m, AN_MK_PLATFORM_INVARIANT))
			p->invariant = m->platform.invariant;
		if (an_marker_has(m, AN_MK_PLATFORM_GROUPS))
			p->groups = m->platform.groups;
		if (an_marker_has(m, AN_MK_PLATFORM_SCALE))
			p->scale = m->platform.scale;
		if (an_marker_has(m, AN_MK_PLATFORM_TICK_US))
			p->tick_us = m->platform.tick_us;
		if (an_marker_has(m, AN_MK_PLATFORM_KERNEL))
			snprintf(p->kernel, sizeof(p->kernel), "%s", m->platform.kernel);
		return 1;
	}
	if (m->kind == AN_MARKER_SYSCTL) {
		p->has_sysctl = true;
		if (an_marker_has(m, AN_MK_SYSCTL_UTIL_MIN))
			p->sysctl[0] = m->sysctl.util_min;
		if (an_marker_has(m, AN_MK_SYSCTL_UTIL_MAX))
			p->sysctl[1] = m->sysctl.util_max;
		if (an_marker_has(m, AN_MK_SYSCTL_UTIL_MIN_RT))
			p->sysctl[2] = m->sysctl.util_min_rt_default;
		return 1;
	}
	if (m->kind != AN_MARKER_CPU || !an_marker_has(m, AN_MK_CPU_CPU))
		return 0;
	if (m->cpu.cpu >= AN_PLATFORM_MAX_CPUS)
		return -EINVAL;

	struct an_platform_cpu *c = &p->cpu[m->cpu.cpu];

	list_cpu(p, m->cpu.cpu);
	if (an_marker_has(m, AN_MK_CPU_POLICY))
		c->policy = (int)m->cpu.policy;
	if (an_marker_has(m, AN_MK_CPU_CAPACITY))
		c->capacity = m->cpu.capacity;
	if (an_marker_has(m, AN_MK_CPU_FREQS)) {
		c->nr_freqs = m->cpu.nr_freqs;
		memcpy(c->freqs_khz, m->cpu.freqs_khz, sizeof(c->freqs_khz));
	}
	if (an_marker_has(m, AN_MK_CPU_MIN))
		c->min_khz = m->cpu.min_khz;
	if (an_marker_has(m, AN_MK_CPU_MAX))
		c->max_khz = m->cpu.max_khz;
	if (an_marker_has(m, AN_MK_CPU_CUR))
		c->cur_khz = m->cpu.cur_khz;
	if (an_marker_has(m, AN_MK_CPU_RATE_LIMIT_US))
		c->rate_limit_us = m->cpu.rate_limit_us;
	return 1;
}

/* ---- ucval's line format ---- */

static int parse_lines(struct an_platform *p, const char *text, size_t len,
		       struct an_diag *d)
{
	static const char *const kinds[] = { "platform", "cpu", "sysctl" };
	char buf[LINE_MAX_LEN + 8];
	unsigned long line = 0;
	const char *s = text, *end = text + len;

	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		const char *le = nl ? nl : end;
		const char *w = s;
		struct an_marker m;
		size_t n;
		bool is_known = false;
		int err;

		line++;
		s = nl ? nl + 1 : end;
		while (w < le && (*w == ' ' || *w == '\t' || *w == '\r'))
			w++;
		if (w == le || *w == '#')
			continue;
		n = (size_t)(le - w);
		if (n > LINE_MAX_LEN) {
			d->line = line;
			return an_diag_fail(d, AN_E_SYNTAX, "line longer than %d bytes",
					    LINE_MAX_LEN);
		}
		for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
			size_t kl = strlen(kinds[k]);

			if (n > kl && !memcmp(w, kinds[k], kl) && (w[kl] == ' ' || w[kl] == '\t'))
				is_known = true;
		}
		if (!is_known) {
			d->line = line;
			return an_diag_fail(d, AN_E_SYNTAX,
					    "expected 'platform', 'cpu' or 'sysctl' at line start");
		}
		memcpy(buf, "ucval: ", 7);
		memcpy(buf + 7, w, n);
		err = an_marker_parse(buf, n + 7, 0, &m, d);
		if (err < 0) {
			d->line = line;
			return err;
		}
		if (m.kind == AN_MARKER_CPU && !an_marker_has(&m, AN_MK_CPU_CPU)) {
			d->line = line;
			return an_diag_fail(d, AN_E_VALUE, "cpu line without 'cpu='");
		}
		if (an_platform_apply_marker(p, &m) < 0) {
			d->line = line;
			return an_diag_fail(d, AN_E_VALUE, "cpu id %u above %d", m.cpu.cpu,
					    AN_PLATFORM_MAX_CPUS - 1);
		}
	}
	return 0;
}

/* ---- JSON ---- */

enum jtype { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };

struct jnode {
	enum jtype type;
	const char *key;	/* member name in an object, else NULL */
	size_t key_len;
	const char *str;	/* J_STR, without quotes, escapes left as is */
	size_t str_len;
	double num;
	int first, next;	/* children and siblings, -1 at the end */
	unsigned long line;
};

struct jparser {
	const char *s, *end;
	unsigned long line;
	struct jnode *node;
	size_t nr, alloc;
	struct an_diag *d;
};

static int jfail(struct jparser *jp, const char *what)
{
	jp->d->line = jp->line;
	return an_diag_fail(jp->d, AN_E_SYNTAX, "malformed json: %s", what);
}

static void jskip(struct jparser *jp)
{
	while (jp->s < jp->end && (*jp->s == ' ' || *jp->s == '\t' || *jp->s == '\r' ||
				   *jp->s == '\n')) {
		if (*jp->s == '\n')
			jp->line++;
		jp->s++;
	}
}

static int jstring(struct jparser *jp, const char **out, size_t *len)
{
	const char *start = ++jp->s;

	while (jp->s < jp->end && *jp->s != '"') {
		if (*jp->s == '\n')
			return jfail(jp, "newline in a string");
		if (*jp->s == '\\')
			jp->s++;
		jp->s++;
	}
	if (jp->s >= jp->end)
		return jfail(jp, "unterminated string");
	*out = start;
	*len = (size_t)(jp->s - start);
	jp->s++;
	return 0;
}

static int jvalue(struct jparser *jp, int depth, int *out);

static int jnew(struct jparser *jp, enum jtype type, int *out)
{
	if (AN_VEC_GROW(jp->node, jp->nr + 1, jp->alloc))
		return an_diag_fail(jp->d, -ENOMEM, "out of memory");
	jp->node[jp->nr] = (struct jnode){ .type = type, .first = -1, .next = -1,
					   .line = jp->line };
	*out = (int)jp->nr++;
	return 0;
}

static int jcontainer(struct jparser *jp, int depth, int self)
{
	bool is_obj = jp->node[self].type == J_OBJ;
	char close = is_obj ? '}' : ']';
	int last = -1;

	jp->s++;
	jskip(jp);
	if (jp->s < jp->end && *jp->s == close) {
		jp->s++;
		return 0;
	}
	for (;;) {
		const char *key = NULL;
		size_t key_len = 0;
		int child, err;

		jskip(jp);
		if (is_obj) {
			if (jp->s >= jp->end || *jp->s != '"')
				return jfail(jp, "expected a member name");
			err = jstring(jp, &key, &key_len);
			if (err)
				return err;
			jskip(jp);
			if (jp->s >= jp->end || *jp->s != ':')
				return jfail(jp, "expected ':'");
			jp->s++;
		}
		err = jvalue(jp, depth + 1, &child);
		if (err)
			return err;
		jp->node[child].key = key;
		jp->node[child].key_len = key_len;
		if (last < 0)
			jp->node[self].first = child;
		else
			jp->node[last].next = child;
		last = child;
		jskip(jp);
		if (jp->s < jp->end && *jp->s == ',') {
			jp->s++;
			continue;
		}
		if (jp->s < jp->end && *jp->s == close) {
			jp->s++;
			return 0;
		}
		return jfail(jp, is_obj ? "expected ',' or '}'" : "expected ',' or ']'");
	}
}

static int jvalue(struct jparser *jp, int depth, int *out)
{
	static const struct { const char *word; enum jtype type; } words[] = {
		{ "true", J_BOOL }, { "false", J_BOOL }, { "null", J_NULL },
	};
	int err;

	if (depth > MAX_DEPTH)
		return jfail(jp, "nested too deep");
	jskip(jp);
	if (jp->s >= jp->end)
		return jfail(jp, "unexpected end of file");
	if (*jp->s == '{' || *jp->s == '[') {
		err = jnew(jp, *jp->s == '{' ? J_OBJ : J_ARR, out);
		return err ? err : jcontainer(jp, depth, *out);
	}
	if (*jp->s == '"') {
		const char *str;
		size_t len;

		err = jstring(jp, &str, &len);
		if (err)
			return err;
		err = jnew(jp, J_STR, out);
		if (err)
			return err;
		jp->node[*out].str = str;
		jp->node[*out].str_len = len;
		return 0;
	}
	if (*jp->s == '-' || (*jp->s >= '0' && *jp->s <= '9')) {
		char tmp[64];
		size_t n = 0;
		char *e;

		while (jp->s + n < jp->end && n < sizeof(tmp) - 1 &&
		       strchr("+-.eE0123456789", jp->s[n]))
			n++;
		memcpy(tmp, jp->s, n);
		tmp[n] = '\0';
		err = jnew(jp, J_NUM, out);
		if (err)
			return err;
		jp->node[*out].num = strtod(tmp, &e);
		if (*e)
			return jfail(jp, "bad number");
		jp->s += n;
		return 0;
	}
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		size_t n = strlen(words[i].word);

		if ((size_t)(jp->end - jp->s) >= n && !memcmp(jp->s, words[i].word, n)) {
			jp->s += n;
			return jnew(jp, words[i].type, out);
		}
	}
	return jfail(jp, "unexpected character");
}

static const struct jnode *jget(const struct jparser *jp, const struct jnode *obj,
				const char *key)
{
	if (!obj || obj->type != J_OBJ)
		return NULL;
	for (int i = obj->first; i >= 0; i = jp->node[i].next) {
		const struct jnode *n = &jp->node[i];

		if (n->key_len == strlen(key) && !memcmp(n->key, key, n->key_len))
			return n;
	}
	return NULL;
}

static const struct jnode *jget_len(const struct jparser *jp, const struct jnode *obj,
				    const char *key, size_t len)
{
	if (!obj || obj->type != J_OBJ)
		return NULL;
	for (int i = obj->first; i >= 0; i = jp->node[i].next) {
		const struct jnode *n = &jp->node[i];

		if (n->key_len == len && !memcmp(n->key, key, len))
			return n;
	}
	return NULL;
}

static int jvalue_fail(struct jparser *jp, const struct jnode *n, const char *what)
{
	jp->d->line = n->line;
	return an_diag_fail(jp->d, AN_E_VALUE, "%s", what);
}

/* A non-negative integer no larger than @max. */
static int juint(struct jparser *jp, const struct jnode *n, unsigned int max,
		 const char *what, unsigned int *out)
{
	if (n->type != J_NUM || n->num < 0 || n->num > max || n->num != (double)(long long)n->num) {
		jp->d->line = n->line;
		return an_diag_fail(jp->d, AN_E_VALUE, "%s: expected an integer 0..%u", what, max);
	}
	*out = (unsigned int)n->num;
	return 0;
}

/* clusters: {"name": [cpu, ...]}: policy = lowest CPU of the cluster. */
static int lisa_clusters(struct jparser *jp, struct an_platform *p, const struct jnode *cl)
{
	for (int i = cl->first; i >= 0; i = jp->node[i].next) {
		const struct jnode *arr = &jp->node[i];
		unsigned int lowest = AN_PLATFORM_MAX_CPUS;

		if (arr->type != J_ARR)
			return jvalue_fail(jp, arr, "clusters: expected an array of CPU ids");
		for (int k = arr->first; k >= 0; k = jp->node[k].next) {
			unsigned int cpu;
			int err = juint(jp, &jp->node[k], AN_PLATFORM_MAX_CPUS - 1, "cpu id", &cpu);

			if (err)
				return err;
			if (cpu < lowest)
				lowest = cpu;
		}
		for (int k = arr->first; k >= 0; k = jp->node[k].next) {
			unsigned int cpu = (unsigned int)jp->node[k].num;

			list_cpu(p, cpu);
			p->cpu[cpu].policy = (int)lowest;
		}
	}
	return 0;
}

/* Apply @fn's value of cluster @name to every CPU of that cluster. */
static const struct jnode *cluster_cpus(const struct jparser *jp, const struct jnode *clusters,
					const struct jnode *member)
{
	return jget_len(jp, clusters, member->key, member->key_len);
}

static int lisa_freqs(struct jparser *jp, struct an_platform *p, const struct jnode *clusters,
		      const struct jnode *freqs)
{
	for (int i = freqs->first; i >= 0; i = jp->node[i].next) {
		const struct jnode *arr = &jp->node[i];
		const struct jnode *cpus = cluster_cpus(jp, clusters, arr);
		unsigned int f[AN_MARKER_MAX_FREQS], nr = 0;

		if (arr->type != J_ARR)
			return jvalue_fail(jp, arr, "freqs: expected an array of kHz");
		for (int k = arr->first; k >= 0; k = jp->node[k].next) {
			int err;

			if (nr == AN_MARKER_MAX_FREQS)
				return jvalue_fail(jp, arr, "freqs: too many OPPs");
			err = juint(jp, &jp->node[k], UINT32_MAX / 2, "freqs", &f[nr]);
			if (err)
				return err;
			if (!f[nr] || (nr && f[nr] <= f[nr - 1]))
				return jvalue_fail(jp, &jp->node[k],
						   "freqs: OPPs must be positive and ascending");
			nr++;
		}
		if (!cpus || cpus->type != J_ARR)
			continue;	/* a cluster without CPUs: nothing to apply */
		for (int k = cpus->first; k >= 0; k = jp->node[k].next) {
			struct an_platform_cpu *c = &p->cpu[(unsigned int)jp->node[k].num];

			c->nr_freqs = nr;
			memcpy(c->freqs_khz, f, nr * sizeof(f[0]));
		}
	}
	return 0;
}

static int lisa_capacity(struct jparser *jp, const struct jnode *n, unsigned int *out)
{
	int err = juint(jp, n, 1024, "capacity", out);

	if (!err && !*out)
		return jvalue_fail(jp, n, "capacity: expected 1..1024");
	return err;
}

static int lisa_capacities(struct jparser *jp, struct an_platform *p,
			   const struct jnode *clusters, const struct jnode *caps,
			   const struct jnode *nrg)
{
	unsigned int cpu = 0;
	int err;

	if (caps && (caps->type == J_ARR || caps->type == J_OBJ)) {
		for (int i = caps->first; i >= 0; i = jp->node[i].next, cpu++) {
			const struct jnode *n = &jp->node[i];

			if (caps->type == J_OBJ) {
				char key[16];
				char *e;

				if (n->key_len >= sizeof(key))
					return jvalue_fail(jp, n, "cpu_capacities: bad CPU id");
				memcpy(key, n->key, n->key_len);
				key[n->key_len] = '\0';
				cpu = (unsigned int)strtoul(key, &e, 10);
				if (*e || e == key)
					return jvalue_fail(jp, n, "cpu_capacities: bad CPU id");
			}
			if (cpu >= AN_PLATFORM_MAX_CPUS)
				return jvalue_fail(jp, n, "cpu_capacities: CPU id too large");
			err = lisa_capacity(jp, n, &p->cpu[cpu].capacity);
			if (err)
				return err;
			list_cpu(p, cpu);
		}
		return 0;
	}
	if (!nrg || nrg->type != J_OBJ || !clusters)
		return 0;
	for (int i = nrg->first; i >= 0; i = jp->node[i].next) {
		const struct jnode *cl = &jp->node[i];
		const struct jnode *cap = jget(jp, jget(jp, cl, "cpu"), "cap_max");
		const struct jnode *cpus = cluster_cpus(jp, clusters, cl);
		unsigned int v;

		if (!cap || !cpus || cpus->type != J_ARR)
			continue;
		err = lisa_capacity(jp, cap, &v);
		if (err)
			return err;
		for (int k = cpus->first; k >= 0; k = jp->node[k].next)
			p->cpu[(unsigned int)jp->node[k].num].capacity = v;
	}
	return 0;
}

static int parse_json(struct an_platform *p, const char *text, size_t len, struct an_diag *d)
{
	struct jparser jp = { .s = text, .end = text + len, .line = 1, .d = d };
	const struct jnode *root, *n, *clusters;
	int top, err;

	err = jvalue(&jp, 0, &top);
	if (err)
		goto out_free;
	jskip(&jp);
	if (jp.s != jp.end) {
		err = jfail(&jp, "text after the top-level object");
		goto out_free;
	}
	root = &jp.node[top];
	if (root->type != J_OBJ) {
		err = jfail(&jp, "top level is not an object");
		goto out_free;
	}
	p->has_platform = true;
	n = jget(&jp, root, "cpus_count");
	if (n) {
		err = juint(&jp, n, AN_PLATFORM_MAX_CPUS, "cpus_count", &p->nr_cpus);
		if (err)
			goto out_free;
	}
	clusters = jget(&jp, root, "clusters");
	if (clusters && clusters->type == J_OBJ) {
		err = lisa_clusters(&jp, p, clusters);
		if (err)
			goto out_free;
		n = jget(&jp, root, "freqs");
		if (n && n->type == J_OBJ) {
			err = lisa_freqs(&jp, p, clusters, n);
			if (err)
				goto out_free;
		}
	}
	n = jget(&jp, root, "cpu_capacities");
	err = lisa_capacities(&jp, p, clusters, n, jget(&jp, root, "nrg_model"));
	if (err)
		goto out_free;
	n = jget(&jp, root, "kernel");
	if (n && n->type == J_OBJ)
		n = jget(&jp, n, "release");
	if (n && n->type == J_STR) {
		size_t l = n->str_len < sizeof(p->kernel) - 1 ? n->str_len : sizeof(p->kernel) - 1;

		memcpy(p->kernel, n->str, l);
		p->kernel[l] = '\0';
	}
out_free:
	free(jp.node);
	return err;
}

int an_platform_parse(struct an_platform *p, const char *text, size_t len,
		      const char *name, struct an_diag *d)
{
	struct an_diag scratch;
	size_t i = 0;

	if (!d)
		d = &scratch;
	an_diag_set_file(d, "read", name);
	while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' ||
			   text[i] == '\n'))
		i++;
	if (i < len && text[i] == '{')
		return parse_json(p, text, len, d);
	return parse_lines(p, text, len, d);
}

int an_platform_load(struct an_platform *p, const char *path, struct an_diag *d)
{
	struct an_diag scratch;
	char *buf = NULL;
	size_t len = 0;
	FILE *fp;
	int err;

	if (!d)
		d = &scratch;
	an_diag_set_file(d, "read", path);
	fp = fopen(path, "rb");
	if (!fp)
		return an_diag_fail(d, -errno, "cannot open: %s", strerror(errno));
	buf = an_malloc(MAX_FILE_BYTES + 1);
	if (!buf) {
		err = an_diag_fail(d, -ENOMEM, "out of memory");
		goto out_close;
	}
	len = fread(buf, 1, MAX_FILE_BYTES + 1, fp);
	if (ferror(fp)) {
		err = an_diag_fail(d, -EIO, "read error");
		goto out_free;
	}
	if (len > MAX_FILE_BYTES) {
		err = an_diag_fail(d, -EFBIG, "platform file larger than %u bytes",
				   MAX_FILE_BYTES);
		goto out_free;
	}
	err = an_platform_parse(p, buf, len, path, d);
out_free:
	free(buf);
out_close:
	fclose(fp);
	return err;
}
