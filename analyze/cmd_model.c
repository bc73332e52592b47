// SPDX-License-Identifier: MIT
/*
 * `ucval model`: what-if questions to the reference model, for users who want
 * to know what a kernel following the spec would do before reading a trace.
 * `freq`: the expected OPP of one CPU with the chain of values behind it.
 * `rq`: a CPU's aggregated clamps for a set of queued tasks, both variants.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "model/schedutil.h"
#include "analyze/checks/explain.h"
#include "lib/modelopt.h"
#include "lib/optnum.h"
#include "ucval.h"

static const char model_usage[] =
	"usage: ucval model freq --freqs KHZ,... --util N [options]\n"
	"       ucval model rq [options] TASK...\n"
	"\n"
	"Ask the reference model what a kernel following the spec would do.\n"
	"\n"
	"  freq   expected frequency of one CPU, with the chain util -> clamped util\n"
	"         -> target -> OPP -> limits and the spec rule of each step\n"
	"  rq     a CPU's aggregated uclamp values for a set of queued tasks, under\n"
	"         both model variants (v3 clamp groups, mainline buckets)\n"
	"\n"
	"'ucval model freq --help' and 'ucval model rq --help' list the options.\n";

static const char rq_usage[] =
	"usage: ucval model rq [options] TASK...\n"
	"\n"
	"Queue TASKs on one CPU and print the CPU's aggregated clamps (UCLAMP_MIN,\n"
	"UCLAMP_MAX) under both variants, then what the CPU retains once idle.\n"
	"\n"
	"TASK is MIN:MAX[:CLASS]: the task's requested clamps in capacity units\n"
	"(0..1024), 'none' (or '-') for no request; CLASS is fair (default), rt\n"
	"or dl. Example: ucval model rq 200:800 512:none none:300:rt (or -:300:rt).\n"
	"Options and TASKs come in any order; '--' ends the options.\n"
	"\n"
	"options:\n"
	"  --groups N      v3 clamp groups besides group 0 (0..32, default 5)\n"
	"  --buckets N     mainline buckets (5..20, default 5)\n"
	"  --kernel REL    mainline release whose rules apply (default 6.1)\n"
	"  --fidelity F    v3: intent (default) or seed\n"
	"  --util N        also clamp this utilization (0..1024) by the rq values\n"
	"  -h, --help      this text\n";

/* Largest number of tasks `model rq` takes: enough for any what-if. */
#define RQ_MAX_TASKS	256

enum { OPT_BUCKETS = 256, OPT_UTIL };

static const struct option rq_options[] = {
	AN_MODELOPT_OPTION_GROUPS,
	{ "buckets", required_argument, NULL, OPT_BUCKETS },
	AN_MODELOPT_OPTION_KERNEL,
	AN_MODELOPT_OPTION_FIDELITY,
	{ "util", required_argument, NULL, OPT_UTIL },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* an_optnum_parse() into an unsigned long (every bound here fits). */
static int parse_uint(const char *cmd, const char *what, const char *s,
		      unsigned long min, unsigned long max, unsigned long *out)
{
	unsigned long long v;

	if (an_optnum_parse(cmd, what, s, min, max, &v))
		return -1;
	*out = (unsigned long)v;
	return 0;
}

/**
 * errname() - "EINVAL" for -EINVAL, "0" for 0, the number otherwise
 * @ret: a model return value
 * @buf: room for a number
 * @len: its size
 */
static const char *errname(int ret, char *buf, size_t len)
{
	const char *name = ret < 0 ? strerrorname_np(-ret) : NULL;

	if (name)
		return name;
	snprintf(buf, len, "%d", ret);
	return buf;
}

struct rq_task_spec {
	int min, max;		/* capacity units, MODEL_NV: no request */
	enum model_class cls;
};

struct rq_opts {
	unsigned long groups, buckets, util;
	bool has_util;
	unsigned int kver;
	enum model_fidelity fidelity;
	struct rq_task_spec task[RQ_MAX_TASKS];
	size_t nr_tasks;
};

static int parse_clamp(const char *s, size_t len, int *out)
{
	char buf[16];
	unsigned long v;
	char *end;

	if ((len == 1 && s[0] == '-') || (len == 4 && !memcmp(s, "none", 4))) {
		*out = MODEL_NV;
		return 0;
	}
	if (len == 0 || len >= sizeof(buf))
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	if (buf[0] < '0' || buf[0] > '9')
		return -1;
	errno = 0;
	v = strtoul(buf, &end, 10);
	if (errno || *end || v > MODEL_SCALE)
		return -1;
	*out = (int)v;
	return 0;
}

static int parse_task(const char *arg, struct rq_task_spec *t)
{
	const char *c1 = strchr(arg, ':'), *c2;

	if (!c1)
		goto bad;
	c2 = strchr(c1 + 1, ':');
	if (parse_clamp(arg, (size_t)(c1 - arg), &t->min) ||
	    parse_clamp(c1 + 1, c2 ? (size_t)(c2 - c1 - 1) : strlen(c1 + 1), &t->max))
		goto bad;
	t->cls = MODEL_CLASS_FAIR;
	if (c2) {
		if (!strcmp(c2 + 1, "fair"))
			t->cls = MODEL_CLASS_FAIR;
		else if (!strcmp(c2 + 1, "rt"))
			t->cls = MODEL_CLASS_RT;
		else if (!strcmp(c2 + 1, "dl"))
			t->cls = MODEL_CLASS_DL;
		else
			goto bad;
	}
	return 0;
bad:
	fprintf(stderr, "ucval model rq: task '%s' is not MIN:MAX[:CLASS] "
		"(MIN, MAX: 0..1024 or 'none'; CLASS: fair, rt or dl)\n", arg);
	return -1;
}

/* The shared options' values, or the defaults of `model rq`. */
static void apply_rq_modelopt(const struct an_modelopt *mo, struct rq_opts *o)
{
	o->groups = mo->has_groups ? mo->groups : MODEL_DEFAULT_GROUPS;
	o->kver = mo->kernel ? mo->kver : MODEL_KVER(6, 1, 0);
	o->fidelity = mo->fidelity;
}

/*
 * A TASK where an option could start: "-:300" (no MIN request), "-" and
 * "-5:..." cannot be options (the only short one is -h), though getopt
 * would take them for some.
 */
static bool is_task_arg(const char *arg)
{
	return arg[0] != '-' || !arg[1] || arg[1] == ':' || (arg[1] >= '0' && arg[1] <= '9');
}

static int add_task(struct rq_opts *o, const char *arg)
{
	if (o->nr_tasks == RQ_MAX_TASKS) {
		fprintf(stderr, "ucval model rq: more than %d tasks\n", RQ_MAX_TASKS);
		return -1;
	}
	return parse_task(arg, &o->task[o->nr_tasks++]);
}

static int parse_rq_option(int c, const char *arg, struct an_modelopt *mo, struct rq_opts *o)
{
	int shared = an_modelopt_parse(mo, "model rq", c, optarg);

	if (shared <= 0)
		return shared;
	switch (c) {
	case OPT_BUCKETS:
		return parse_uint("model rq", "--buckets", optarg, MODEL_ML_MIN_BUCKETS,
				  MODEL_ML_MAX_BUCKETS, &o->buckets);
	case OPT_UTIL:
		o->has_util = true;
		return parse_uint("model rq", "--util", optarg, 0, MODEL_SCALE, &o->util);
	case 'h':
		fputs(rq_usage, stdout);
		return 1;
	default:
		fprintf(stderr, "ucval model rq: unknown option '%s'\n\n%s", arg, rq_usage);
		return -1;
	}
}

/*
 * Options and TASKs in any order, "--" ending the options. Each argument
 * is looked at before getopt sees it, and getopt ("+") takes only options,
 * so that a TASK starting with '-' stays a TASK.
 */
static int parse_rq_opts(int argc, char **argv, struct rq_opts *o)
{
	struct an_modelopt mo = { .is_uclamp_mainline = true };
	bool is_options_end = false;
	int err;

	o->buckets = MODEL_DEFAULT_GROUPS;
	optind = 1;
	opterr = 0;
	while (optind < argc) {
		const char *arg = argv[optind];

		if (!is_options_end && !strcmp(arg, "--")) {
			is_options_end = true;
			optind++;
			continue;
		}
		if (is_options_end || is_task_arg(arg)) {
			if (add_task(o, arg))
				return -1;
			optind++;
			continue;
		}
		err = parse_rq_option(getopt_long(argc, argv, "+h", rq_options, NULL), arg, &mo, o);
		if (err)
			return err;
	}
	if (!o->nr_tasks) {
		fprintf(stderr, "ucval model rq: no TASK given\n\n%s", rq_usage);
		return -1;
	}
	apply_rq_modelopt(&mo, o);
	return 0;
}

/* What one variant made of the tasks. */
struct rq_result {
	int ret[RQ_MAX_TASKS];
	int eff[RQ_MAX_TASKS][MODEL_UCLAMP_CNT];
	int rq[MODEL_UCLAMP_CNT];
	unsigned int util;
	int idle_max;
	bool is_undefined;
};

static void setattr_flags(enum model_variant v, const struct rq_task_spec *t,
			  struct model_attr *a)
{
	bool v3 = v == MODEL_V3;

	memset(a, 0, sizeof(*a));
	a->size = MODEL_SCHED_ATTR_SIZE_VER1;
	a->policy = -1;
	if (t->min != MODEL_NV) {
		a->flags |= v3 ? MODEL_V3_FLAG_UTIL_CLAMP_MIN : MODEL_ML_FLAG_UTIL_CLAMP_MIN;
		a->util_min = (unsigned int)t->min;
	}
	if (t->max != MODEL_NV) {
		a->flags |= v3 ? MODEL_V3_FLAG_UTIL_CLAMP_MAX : MODEL_ML_FLAG_UTIL_CLAMP_MAX;
		a->util_max = (unsigned int)t->max;
	}
	if (!v3)
		a->flags |= MODEL_ML_FLAG_KEEP_POLICY | MODEL_ML_FLAG_KEEP_PARAMS;
}

static int run_variant(const struct rq_opts *o, enum model_variant v,
		       struct model_task *tasks, struct rq_result *r)
{
	struct model_config cfg;
	struct model_sys sys;
	struct model_cpu cpu;
	struct model_attr attr;
	int err;

	model_config_default(&cfg, v, 1);
	if (v == MODEL_V3) {
		cfg.groups = (unsigned int)o->groups;
		cfg.fidelity = o->fidelity;
		cfg.abi_scale = MODEL_SCALE;	/* TASKs are in capacity units */
	} else {
		cfg.groups = (unsigned int)o->buckets;
		cfg.kver = o->kver;
	}
	err = model_init(&sys, &cfg, &cpu);
	if (err)
		return err;
	for (size_t i = 0; i < o->nr_tasks; i++) {
		const struct rq_task_spec *t = &o->task[i];

		model_task_init(&sys, &tasks[i], (int)i + 1, t->cls);
		r->ret[i] = 0;
		if (t->min != MODEL_NV || t->max != MODEL_NV) {
			setattr_flags(v, t, &attr);
			r->ret[i] = model_setattr(&sys, &tasks[i], &attr);
		}
	}
	for (size_t i = 0; i < o->nr_tasks; i++)
		model_enqueue(&sys, &tasks[i], 0);
	for (size_t i = 0; i < o->nr_tasks; i++)
		for (int id = 0; id < MODEL_UCLAMP_CNT; id++)
			r->eff[i][id] = model_task_eff(&sys, &tasks[i], id, NULL);
	for (int id = 0; id < MODEL_UCLAMP_CNT; id++)
		r->rq[id] = model_rq_value(&sys, 0, id);
	r->util = model_rq_clamp_util(&sys, 0, (unsigned int)o->util);
	for (size_t i = 0; i < o->nr_tasks; i++)
		model_dequeue(&sys, &tasks[i]);
	r->idle_max = model_rq_value(&sys, 0, MODEL_UCLAMP_MAX);
	r->is_undefined = sys.is_undefined;
	return 0;
}

static void fmt_clamp(int v, char *buf, size_t len)
{
	if (v == MODEL_NV)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%d", v);
}

static const char *class_name(enum model_class c)
{
	switch (c) {
	case MODEL_CLASS_FAIR:
		return "fair";
	case MODEL_CLASS_RT:
		return "rt";
	case MODEL_CLASS_DL:
		return "dl";
	case MODEL_CLASS_OTHER:
		break;
	}
	return "other";
}

static void print_rq(const struct rq_opts *o, const struct rq_result *r3,
		     const struct rq_result *rm)
{
	char a[32], b[32], e1[16], e2[16];

	printf("tasks (capacity units 0..1024):\n");
	printf("  %-4s %-11s %-5s | %-8s %-11s | %-8s %s\n", "task", "request", "class",
	       "v3 ret", "v3 eff", "ml ret", "ml eff");
	for (size_t i = 0; i < o->nr_tasks; i++) {
		char req[80], eff3[40], effm[40];

		fmt_clamp(o->task[i].min, a, sizeof(a));
		fmt_clamp(o->task[i].max, b, sizeof(b));
		snprintf(req, sizeof(req), "%s..%s", a, b);
		snprintf(eff3, sizeof(eff3), "%d..%d", r3->eff[i][0], r3->eff[i][1]);
		snprintf(effm, sizeof(effm), "%d..%d", rm->eff[i][0], rm->eff[i][1]);
		printf("  %-4zu %-11s %-5s | %-8s %-11s | %-8s %s\n", i + 1, req,
		       class_name(o->task[i].cls), errname(r3->ret[i], e1, sizeof(e1)), eff3,
		       errname(rm->ret[i], e2, sizeof(e2)), effm);
	}
	printf("\nrq clamps with every task queued on one CPU:\n");
	snprintf(a, sizeof(a), "%lu", o->groups);
	snprintf(b, sizeof(b), "%lu", o->buckets);
	{
		char h3[80], hm[80];

		snprintf(h3, sizeof(h3), "v3 (%s groups, %s)", a,
			 o->fidelity == MODEL_SEED ? "seed" : "intent");
		snprintf(hm, sizeof(hm), "mainline (%s buckets)", b);
		printf("  %-22s %-26s %s\n", "", h3, hm);
	}
	printf("  %-22s %-26d %d\n", "UCLAMP_MIN (VR4/MR3)", r3->rq[0], rm->rq[0]);
	printf("  %-22s %-26d %d\n", "UCLAMP_MAX (VR4/MR3)", r3->rq[1], rm->rq[1]);
	if (o->has_util) {
		snprintf(a, sizeof(a), "util %lu clamped", o->util);
		printf("  %-22s %-26u %u   (VR8 max wins, MS1 min wins)\n", a, r3->util,
		       rm->util);
	}
	printf("\nonce every task is dequeued (idle, VR11/MR4):\n");
	printf("  %-22s %-26d %d\n", "UCLAMP_MAX retained", r3->idle_max, rm->idle_max);
	if (r3->is_undefined)
		printf("\nnote: the v3 seed code leaves this state undefined (VQ3/VQ7/VQ8): "
		       "a validator marks it UNDECIDED\n");
}

static int cmd_model_rq(int argc, char **argv)
{
	struct rq_opts *o = calloc(1, sizeof(*o));
	struct rq_result *r = calloc(2, sizeof(*r));
	struct model_task *tasks = calloc(RQ_MAX_TASKS, sizeof(*tasks));
	int ret = UCVAL_EXIT_USAGE, err;

	if (!o || !r || !tasks) {
		fprintf(stderr, "ucval model rq: out of memory\n");
		goto out_free;
	}
	err = parse_rq_opts(argc, argv, o);
	if (err) {
		ret = err > 0 ? UCVAL_EXIT_OK : UCVAL_EXIT_USAGE;
		goto out_free;
	}
	if (run_variant(o, MODEL_V3, tasks, &r[0]) || run_variant(o, MODEL_MAINLINE, tasks, &r[1])) {
		fprintf(stderr, "ucval model rq: the model rejected the configuration\n");
		goto out_free;
	}
	print_rq(o, &r[0], &r[1]);
	ret = UCVAL_EXIT_OK;
out_free:
	free(tasks);
	free(r);
	free(o);
	return ret;
}

static const char freq_usage[] =
	"usage: ucval model freq --freqs KHZ,... --util N[,N...] [options]\n"
	"\n"
	"Print the frequency schedutil selects for a policy, and the chain of values\n"
	"behind it: util -> clamped util -> raw target -> OPP -> policy limits, each\n"
	"step with the spec rule it follows. Several --util values describe the CPUs\n"
	"of a shared policy; per-CPU lists (--uclamp-min ...) then take one value for\n"
	"all CPUs or one per CPU.\n"
	"\n"
	"  --freqs KHZ,...     OPP table, ascending (required)\n"
	"  --util N,...        CFS utilization per CPU, 0..capacity (required)\n"
	"  --uclamp-min N,...  rq UCLAMP_MIN per CPU (default 0)\n"
	"  --uclamp-max N,...  rq UCLAMP_MAX per CPU (default 1024)\n"
	"  --util-rt N,...     RT utilization (default 0)\n"
	"  --util-dl N,...     DL utilization (default 0)\n"
	"  --bw-dl N,...       DL running bandwidth (default 0)\n"
	"  --irq N,...         irq utilization (default 0)\n"
	"  --rt                an RT task is runnable on every CPU\n"
	"  --capacity N        CPU capacity, 1..1024 (default 1024)\n"
	"  --min KHZ           policy minimum (default: lowest OPP)\n"
	"  --max KHZ           policy maximum (default: highest OPP)\n"
	"  --cur KHZ           current frequency (default: highest OPP)\n"
	"  --non-invariant     utilization is not frequency-invariant (F = cur)\n"
	"  --model M           v3 or mainline (default mainline)\n"
	"  --kernel REL        release whose rules apply (default: 4.19 for v3,\n"
	"                      6.1 for mainline)\n"
	"  --fidelity F        v3: intent (default) or seed\n"
	"  --sched-class       v3: feature UCLAMP_SCHED_CLASS on\n"
	"  --uclamp-unused     mainline 5.9+: no task ever used uclamp (static key off)\n"
	"  -h, --help          this text\n";

enum {
	OPT_FREQS = 300, OPT_FUTIL, OPT_UMIN, OPT_UMAX, OPT_URT, OPT_UDL, OPT_BWDL, OPT_IRQ,
	OPT_RT, OPT_CAPACITY, OPT_PMIN, OPT_PMAX, OPT_CUR, OPT_NONINV, OPT_SCHED_CLASS,
	OPT_UNUSED,
};

static const struct option freq_options[] = {
	{ "freqs", required_argument, NULL, OPT_FREQS },
	{ "util", required_argument, NULL, OPT_FUTIL },
	{ "uclamp-min", required_argument, NULL, OPT_UMIN },
	{ "uclamp-max", required_argument, NULL, OPT_UMAX },
	{ "util-rt", required_argument, NULL, OPT_URT },
	{ "util-dl", required_argument, NULL, OPT_UDL },
	{ "bw-dl", required_argument, NULL, OPT_BWDL },
	{ "irq", required_argument, NULL, OPT_IRQ },
	{ "rt", no_argument, NULL, OPT_RT },
	{ "capacity", required_argument, NULL, OPT_CAPACITY },
	{ "min", required_argument, NULL, OPT_PMIN },
	{ "max", required_argument, NULL, OPT_PMAX },
	{ "cur", required_argument, NULL, OPT_CUR },
	{ "non-invariant", no_argument, NULL, OPT_NONINV },
	AN_MODELOPT_OPTION_MODEL,
	AN_MODELOPT_OPTION_KERNEL,
	AN_MODELOPT_OPTION_FIDELITY,
	{ "sched-class", no_argument, NULL, OPT_SCHED_CLASS },
	{ "uclamp-unused", no_argument, NULL, OPT_UNUSED },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* Largest kHz value accepted: 100 GHz, far above any CPU. */
#define FREQ_KHZ_MAX	100000000UL

/* A comma-separated list of numbers, each within [0, max]. */
struct num_list {
	unsigned int nr;
	unsigned int v[MODEL_SU_MAX_OPPS];
};

static int parse_list(const char *opt, const char *arg, unsigned long max, unsigned int cap,
		      struct num_list *l)
{
	char item[32];
	const char *s = arg;

	l->nr = 0;
	for (;;) {
		size_t len = strcspn(s, ",");
		unsigned long v;
		char *end;

		if (l->nr == cap || len == 0 || len >= sizeof(item))
			goto bad;
		memcpy(item, s, len);
		item[len] = '\0';
		errno = 0;
		v = strtoul(item, &end, 10);
		if (item[0] < '0' || item[0] > '9' || errno || *end || v > max)
			goto bad;
		l->v[l->nr++] = (unsigned int)v;
		if (!s[len])
			return 0;
		s += len + 1;
	}
bad:
	fprintf(stderr, "ucval model freq: %s expects up to %u comma-separated whole numbers "
		"from 0 to %lu, got '%s'\n", opt, cap, max, arg);
	return -1;
}

struct freq_opts {
	struct num_list freqs, util, umin, umax, urt, udl, bwdl, irq;
	unsigned long capacity, min_khz, max_khz, cur_khz;
	bool has_min, has_max, has_cur, is_rt, is_non_invariant, is_sched_class, is_unused;
	unsigned int kver;
	enum model_variant variant;
	enum model_fidelity fidelity;
};

/* The shared options' values, or the defaults of `model freq`. */
static void apply_freq_modelopt(const struct an_modelopt *mo, struct freq_opts *o)
{
	o->variant = mo->has_variant ? mo->variant : MODEL_MAINLINE;
	o->fidelity = mo->fidelity;
	if (mo->kernel)
		o->kver = mo->kver;
	else
		o->kver = o->variant == MODEL_V3 ? MODEL_KVER_V3 : MODEL_KVER(6, 1, 0);
}

static int parse_freq_opts(int argc, char **argv, struct freq_opts *o)
{
	const char *cmd = "model freq";
	struct an_modelopt mo = { 0 };
	int c;

	o->capacity = MODEL_SCALE;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", freq_options, NULL)) != -1) {
		int err = an_modelopt_parse(&mo, cmd, c, optarg);

		if (err < 0)
			return -1;
		if (!err)
			continue;
		err = 0;
		switch (c) {
		case OPT_FREQS:
			err = parse_list("--freqs", optarg, FREQ_KHZ_MAX, MODEL_SU_MAX_OPPS, &o->freqs);
			break;
		case OPT_FUTIL:
			err = parse_list("--util", optarg, MODEL_SCALE, MODEL_SU_MAX_CPUS, &o->util);
			break;
		case OPT_UMIN:
			err = parse_list("--uclamp-min", optarg, MODEL_SCALE, MODEL_SU_MAX_CPUS, &o->umin);
			break;
		case OPT_UMAX:
			err = parse_list("--uclamp-max", optarg, MODEL_SCALE, MODEL_SU_MAX_CPUS, &o->umax);
			break;
		case OPT_URT:
			err = parse_list("--util-rt", optarg, MODEL_SCALE, MODEL_SU_MAX_CPUS, &o->urt);
			break;
		case OPT_UDL:
			err = parse_list("--util-dl", optarg, MODEL_SCALE, MODEL_SU_MAX_CPUS, &o->udl);
			break;
		case OPT_BWDL:
			err = parse_list("--bw-dl", optarg, MODEL_SCALE, MODEL_SU_MAX_CPUS, &o->bwdl);
			break;
		case OPT_IRQ:
			err = parse_list("--irq", optarg, MODEL_SCALE, MODEL_SU_MAX_CPUS, &o->irq);
			break;
		case OPT_RT:
			o->is_rt = true;
			break;
		case OPT_CAPACITY:
			err = parse_uint(cmd, "--capacity", optarg, 1, MODEL_SCALE, &o->capacity);
			break;
		case OPT_PMIN:
			err = parse_uint(cmd, "--min", optarg, 1, FREQ_KHZ_MAX, &o->min_khz);
			o->has_min = true;
			break;
		case OPT_PMAX:
			err = parse_uint(cmd, "--max", optarg, 1, FREQ_KHZ_MAX, &o->max_khz);
			o->has_max = true;
			break;
		case OPT_CUR:
			err = parse_uint(cmd, "--cur", optarg, 1, FREQ_KHZ_MAX, &o->cur_khz);
			o->has_cur = true;
			break;
		case OPT_NONINV:
			o->is_non_invariant = true;
			break;
		case OPT_SCHED_CLASS:
			o->is_sched_class = true;
			break;
		case OPT_UNUSED:
			o->is_unused = true;
			break;
		case 'h':
			fputs(freq_usage, stdout);
			return 1;
		default:
			fprintf(stderr, "ucval model freq: unknown option '%s'\n\n%s",
				argv[optind - 1], freq_usage);
			return -1;
		}
		if (err)
			return -1;
	}
	if (optind < argc) {
		fprintf(stderr, "ucval model freq: unexpected argument '%s'\n", argv[optind]);
		return -1;
	}
	if (!o->freqs.nr || !o->util.nr) {
		fprintf(stderr, "ucval model freq: --freqs and --util are required\n\n%s",
			freq_usage);
		return -1;
	}
	apply_freq_modelopt(&mo, o);
	return 0;
}

/* Per-CPU value @i of list @l: one value serves all CPUs; none gives @dflt. */
static int list_at(const char *opt, const struct num_list *l, unsigned int nr_cpus,
		   unsigned int i, unsigned int dflt, unsigned int *out)
{
	if (l->nr == 0) {
		*out = dflt;
	} else if (l->nr == 1) {
		*out = l->v[0];
	} else if (l->nr == nr_cpus) {
		*out = l->v[i];
	} else {
		fprintf(stderr, "ucval model freq: %s has %u values for %u CPUs "
			"(give one, or one per CPU)\n", opt, l->nr, nr_cpus);
		return -1;
	}
	return 0;
}

static int build_inputs(const struct freq_opts *o, struct model_su_policy *p,
			struct model_su_cpu_in *in)
{
	unsigned int n = o->util.nr;

	for (unsigned int i = 0; i < n; i++) {
		struct model_su_cpu_in *c = &in[i];

		memset(c, 0, sizeof(*c));
		c->util_cfs = o->util.v[i];
		c->is_rt_runnable = o->is_rt;
		c->is_uclamp_used = !o->is_unused;
		if (list_at("--uclamp-min", &o->umin, n, i, 0, &c->rq_min) ||
		    list_at("--uclamp-max", &o->umax, n, i, MODEL_SCALE, &c->rq_max) ||
		    list_at("--util-rt", &o->urt, n, i, 0, &c->util_rt) ||
		    list_at("--util-dl", &o->udl, n, i, 0, &c->util_dl) ||
		    list_at("--bw-dl", &o->bwdl, n, i, 0, &c->bw_dl) ||
		    list_at("--irq", &o->irq, n, i, 0, &c->irq))
			return -1;
		p->cpu[i] = (int)i;
	}
	p->nr_cpus = n;
	return 0;
}

static int setup_policy(const struct freq_opts *o, struct model_su_policy *p)
{
	model_su_policy_init(p, o->kver, o->variant);
	p->fidelity = o->fidelity;
	p->is_sched_class = o->is_sched_class;
	if (model_su_policy_set_opps(p, o->freqs.v, o->freqs.nr))
		return -1;
	p->capacity = (unsigned int)o->capacity;
	p->is_invariant = !o->is_non_invariant;
	if (o->has_min)
		p->min_khz = (unsigned int)o->min_khz;
	if (o->has_max)
		p->max_khz = (unsigned int)o->max_khz;
	if (o->has_cur)
		p->cur_khz = (unsigned int)o->cur_khz;
	return 0;
}

static const char *diag_where(const struct model_su_diag *d, char *buf, size_t len)
{
	if (d->index < 0)
		return "";
	if (d->reason == MODEL_SU_E_OPP_ZERO || d->reason == MODEL_SU_E_OPP_ORDER ||
	    d->reason == MODEL_SU_E_TOO_MANY)
		snprintf(buf, len, " (OPP #%d)", d->index + 1);
	else
		snprintf(buf, len, " (CPU %d)", d->index);
	return buf;
}

static void print_freq(const struct freq_opts *o, const struct model_su_policy *p,
		       const struct model_su_eval *ev, const struct model_su_explain *ex)
{
	unsigned int kver = o->kver;

	printf("expected frequency: %u kHz\n", ev->freq_khz);
	printf("  model %s%s, kernel %u.%u, capacity %u, %s, limits %u..%u kHz\n",
	       o->variant == MODEL_V3 ? "v3" : "mainline",
	       o->variant == MODEL_V3 ? (o->fidelity == MODEL_SEED ? " (seed)" : " (intent)") : "",
	       kver >> 16, (kver >> 8) & 0xff, p->capacity,
	       p->is_invariant ? "frequency-invariant (F = max_freq)" : "not invariant (F = cur)",
	       p->min_khz, p->max_khz);
	printf("\nhow (rule, step, value):\n");
	rep_explain_write(stdout, ex, "  ");
}

static int cmd_model_freq(int argc, char **argv)
{
	struct freq_opts *o = calloc(1, sizeof(*o));
	struct model_su_policy *p = calloc(1, sizeof(*p));
	struct model_su_cpu_in *in = calloc(MODEL_SU_MAX_CPUS, sizeof(*in));
	struct model_su_explain *ex = calloc(1, sizeof(*ex));
	struct model_su_eval ev;
	struct model_su_diag diag;
	char where[32];
	int ret = UCVAL_EXIT_USAGE, err;

	if (!o || !p || !in || !ex) {
		fprintf(stderr, "ucval model freq: out of memory\n");
		goto out_free;
	}
	err = parse_freq_opts(argc, argv, o);
	if (err) {
		ret = err > 0 ? UCVAL_EXIT_OK : UCVAL_EXIT_USAGE;
		goto out_free;
	}
	if (setup_policy(o, p) || build_inputs(o, p, in))
		goto out_free;
	if (model_su_policy_check(p, &diag) || model_su_cpu_check(p, in, p->nr_cpus, &diag)) {
		fprintf(stderr, "ucval model freq: %s%s\n", model_su_reason_str(diag.reason),
			diag_where(&diag, where, sizeof(where)));
		goto out_free;
	}
	if (model_su_expected(p, in, &ev, ex)) {
		fprintf(stderr, "ucval model freq: the model rejected the input\n");
		goto out_free;
	}
	print_freq(o, p, &ev, ex);
	ret = UCVAL_EXIT_OK;
out_free:
	free(ex);
	free(in);
	free(p);
	free(o);
	return ret;
}

/**
 * cmd_model() - `ucval model`: dispatch to `freq` or `rq`
 * @argc: arguments from "model" on
 * @argv: the arguments
 *
 * Return: an exit status (0, or 2 for bad usage).
 */
int cmd_model(int argc, char **argv)
{
	if (argc < 2) {
		fputs(model_usage, stderr);
		return UCVAL_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		fputs(model_usage, stdout);
		return UCVAL_EXIT_OK;
	}
	if (!strcmp(argv[1], "rq"))
		return cmd_model_rq(argc - 1, argv + 1);
	if (!strcmp(argv[1], "freq"))
		return cmd_model_freq(argc - 1, argv + 1);
	fprintf(stderr, "ucval model: '%s' is not a model command (freq, rq)\n\n%s",
		argv[1], model_usage);
	return UCVAL_EXIT_USAGE;
}
