// SPDX-License-Identifier: MIT
/*
 * reports/svg.c - inline SVG for the HTML report, drawn from bucketed series
 * (reports/tseries.h): one bucket per pixel column, and runs of equal
 * buckets merged into one path command or rectangle. A plot's size is thus
 * bounded by its width, whatever the trace's length. Colours and fonts come
 * from the page's CSS classes (reports/html.c).
 */
#include <inttypes.h>
#include <math.h>

#include "reports/fmt.h"
#include "reports/svg.h"
#include "reports/xml.h"

/* Margins around the data area: kHz labels left, util labels right. */
#define MARGIN_LEFT	140
#define MARGIN_RIGHT	70
#define MARGIN_TOP	28
#define MARGIN_BOTTOM	30
/* Height of a CPU timeline's data area. */
#define TIMELINE_H	170
/* Residency bars: height of one OPP row and longest bar. */
#define RES_ROW_H	30
#define RES_BAR_H	11
#define RES_BAR_W	600
/* Task lanes: height of one task's row; smallest request mark, in pixels. */
#define LANE_H		30
#define MARK_MIN_W	3.0
#define MARK_MIN_H	4.0
/* About this many ticks on an axis. */
#define AXIS_TICKS	8
/* UCLAMP scale (capacity units) and the right-hand axis step. */
#define UTIL_SCALE	1024
#define UTIL_TICK	256
#define KHZ_PER_MHZ	1000.0
#define NS_PER_S	1e9
#define PERCENT		100.0

/* The data area and what its edges stand for. */
struct frame {
	double left, top, w, h;
	unsigned int nr;		/* buckets across */
	double y_max;			/* value at the top edge; 0 at the bottom */
};

static double fx(const struct frame *f, unsigned int i)
{
	return f->left + f->w * i / f->nr;
}

static double fy(const struct frame *f, double v)
{
	double y = f->top + f->h - v / f->y_max * f->h;

	return y < f->top ? f->top : y > f->top + f->h ? f->top + f->h : y;
}

/* 1, 2 or 5 times a power of ten, so that @range holds about @ticks steps. */
static double nice_step(double range, int ticks)
{
	double raw = range > 0 ? range / ticks : 1;
	double mag = pow(10, floor(log10(raw)));
	double norm = raw / mag;

	return (norm <= 1 ? 1 : norm <= 2 ? 2 : norm <= 5 ? 5 : 10) * mag;
}

/* Decimals that tell ticks @step apart. */
static int decimals(double step)
{
	int d = 0;

	while (d < 9 && fabs(step * pow(10, d) - round(step * pow(10, d))) > 1e-6)
		d++;
	return d;
}

static void svg_open(FILE *out, double w, double h, const char *label)
{
	fprintf(out, "<svg class=\"plot\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\""
		" role=\"img\" aria-label=\"", w, h, w, h);
	rep_xml_text(out, label);
	fputs("\">\n<title>", out);
	rep_xml_text(out, label);
	fputs("</title>\n", out);
}

/* Seconds since the trace's start along the bottom, with grid lines. */
static void time_axis(FILE *out, const struct frame *f, int64_t t0, int64_t t1)
{
	double span = (double)(t1 > t0 ? t1 - t0 : 1) / NS_PER_S;
	double step = nice_step(span, AXIS_TICKS);
	int dec = decimals(step);
	double bottom = f->top + f->h;

	fputs("<g class=\"axis\">\n", out);
	for (double s = 0; s <= span * (1 + 1e-9); s += step) {
		double x = f->left + f->w * s / span;

		fprintf(out, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
			"<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%.*f</text>\n",
			x, f->top, x, bottom, x, bottom + 14, dec, s);
	}
	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">s</text>\n</g>\n",
		f->left + f->w + MARGIN_RIGHT - 4, bottom + 14);
}

/* Frequency labels on the left (MHz), util labels on the right. */
static void value_axes(FILE *out, const struct frame *f, double top_khz)
{
	double step = nice_step(f->y_max, AXIS_TICKS / 2);
	double right = f->left + f->w;

	fputs("<g class=\"axis\">\n", out);
	for (double v = 0; v <= f->y_max * (1 + 1e-9); v += step)
		fprintf(out, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
			"<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%.*f MHz</text>\n",
			f->left, fy(f, v), right, fy(f, v), f->left - 6, fy(f, v) + 4,
			decimals(step / KHZ_PER_MHZ), v / KHZ_PER_MHZ);
	for (int u = 0; top_khz > 0 && u <= UTIL_SCALE; u += UTIL_TICK) {
		double y = fy(f, top_khz * u / UTIL_SCALE);

		fprintf(out, "<line class=\"tick-util\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
			"<text class=\"util\" x=\"%.1f\" y=\"%.1f\">%d</text>\n",
			right, y, right + 4, y, right + 6, y + 4, u);
	}
	if (top_khz > 0)
		fprintf(out, "<text class=\"util\" x=\"%.1f\" y=\"%.1f\">rq uclamp (util)</text>\n",
			right - 40, f->top - 8);
	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\">frequency</text>\n</g>\n", 4.0, f->top - 8);
}

/*
 * A step line through the last value of each bucket (the value in force at
 * its right edge); the range within a bucket is the shaded envelope drawn
 * by band_path(). Equal neighbours collapse into one horizontal stroke.
 */
static void step_path(FILE *out, const struct frame *f, const struct rep_tseries *s,
		      const char *cls)
{
	bool is_down = false;
	int64_t cur = 0;

	fprintf(out, "<path class=\"%s\" d=\"", cls);
	for (unsigned int i = 0; i < s->nr; i++) {
		const struct rep_bucket *b = &s->b[i];

		if (!b->n) {
			if (is_down)
				fprintf(out, "H%.1f", fx(f, i));
			is_down = false;
			continue;
		}
		if (!is_down)
			fprintf(out, "M%.1f %.1f", fx(f, i), fy(f, (double)b->last));
		else if (b->last != cur)
			fprintf(out, "H%.1fV%.1f", fx(f, i), fy(f, (double)b->last));
		cur = b->last;
		is_down = true;
	}
	if (is_down)
		fprintf(out, "H%.1f", fx(f, s->nr));
	fputs("\"/>\n", out);
}

static bool both(const struct rep_tseries *lo, const struct rep_tseries *hi, unsigned int i)
{
	return i < lo->nr && lo->b[i].n && hi->b[i].n;
}

/* One closed shape for the buckets [@a, @e) where both edges are known. */
static void band_run(FILE *out, const struct frame *f, const struct rep_tseries *lo,
		     const struct rep_tseries *hi, double scale, unsigned int a, unsigned int e)
{
	fprintf(out, "M%.1f %.1f", fx(f, a), fy(f, (double)hi->b[a].hi * scale));
	for (unsigned int i = a; i < e; i++) {
		if (i > a && hi->b[i].hi != hi->b[i - 1].hi)
			fprintf(out, "H%.1fV%.1f", fx(f, i), fy(f, (double)hi->b[i].hi * scale));
	}
	fprintf(out, "H%.1fV%.1f", fx(f, e), fy(f, (double)lo->b[e - 1].lo * scale));
	for (unsigned int i = e - 1; i > a; i--) {
		if (lo->b[i - 1].lo != lo->b[i].lo)
			fprintf(out, "H%.1fV%.1f", fx(f, i), fy(f, (double)lo->b[i - 1].lo * scale));
	}
	fprintf(out, "H%.1fZ", fx(f, a));
}

/*
 * The area between the lowest value of @lo and the highest of @hi in each
 * bucket: the rq clamp band (UCLAMP_MIN, UCLAMP_MAX), or the envelope of
 * one series (@lo == @hi).
 */
static void band_path(FILE *out, const struct frame *f, const struct rep_tseries *lo,
		      const struct rep_tseries *hi, double scale, const char *cls)
{
	fprintf(out, "<path class=\"%s\" d=\"", cls);
	for (unsigned int i = 0; i < lo->nr;) {
		unsigned int e = i;

		while (both(lo, hi, e))
			e++;
		if (e > i)
			band_run(out, f, lo, hi, scale, i, e);
		i = e + 1;
	}
	fputs("\"/>\n", out);
}

/* A full-height rectangle over each run of buckets that hold a point of @s. */
static void mark_rects(FILE *out, const struct frame *f, const struct rep_tseries *s,
		       const char *cls)
{
	for (unsigned int i = 0; i < s->nr;) {
		unsigned int e = i;

		while (e < s->nr && s->b[e].n)
			e++;
		if (e > i)
			fprintf(out, "<rect class=\"%s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\""
				" height=\"%.1f\"/>\n", cls, fx(f, i), f->top,
				fx(f, e) - fx(f, i), f->h);
		i = e + 1;
	}
}

static void legend(FILE *out, const struct frame *f)
{
	static const struct { const char *cls, *text; } items[] = {
		{ "observed", "observed frequency" }, { "expected", "expected (model)" },
		{ "accepted", "accepted range (with grace)" },
		{ "band", "rq uclamp_min..uclamp_max" }, { "mismatch", "mismatch window" },
	};
	double x = f->left + 60;

	for (size_t i = 0; i < sizeof(items) / sizeof(items[0]); i++, x += 180)
		fprintf(out, "<rect class=\"key-%s\" x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"8\"/>"
			"<text x=\"%.1f\" y=\"%.1f\">%s</text>\n", items[i].cls, x, f->top - 16,
			x + 18, f->top - 8, items[i].text);
}

/**
 * rep_svg_cpu() - the timeline of one CPU
 * @out: the stream
 * @p: the trace's plot data
 * @c: the CPU
 *
 * Observed and expected frequency of the CPU's policy as step lines, the
 * range the frequency checks accepted (dotted: floor and ceiling, or
 * freq_prediction's range), the rq clamp band scaled as util / 1024 x the
 * policy's highest OPP (right axis), and its mismatch windows as vertical
 * bands.
 */
void rep_svg_cpu(FILE *out, const struct rep_plots *p, const struct rep_cpu_plot *c)
{
	const struct rep_policy_plot *pol = c->policy >= 0 ? &p->policies[c->policy] : NULL;
	double top_khz = (double)rep_plots_top_khz(pol);
	struct frame f = { MARGIN_LEFT, MARGIN_TOP, REP_SVG_PLOT_W, TIMELINE_H, p->nr_buckets,
			   top_khz > 0 ? top_khz : 1 };
	char label[REP_FMT_LEN * 2];

	snprintf(label, sizeof(label), "cpu %d: frequency, rq clamps and mismatch windows",
		 c->cpu);
	f.y_max = nice_step(f.y_max, AXIS_TICKS / 2) * ceil(f.y_max /
		  nice_step(f.y_max, AXIS_TICKS / 2));
	svg_open(out, f.left + f.w + MARGIN_RIGHT, f.top + f.h + MARGIN_BOTTOM, label);
	legend(out, &f);
	mark_rects(out, &f, &c->marks, "mismatch");
	if (top_khz > 0)
		band_path(out, &f, &c->clamp_min, &c->clamp_max, top_khz / UTIL_SCALE, "band");
	value_axes(out, &f, top_khz);
	time_axis(out, &f, p->t0_ns, p->t1_ns);
	if (pol) {
		band_path(out, &f, &pol->expected, &pol->expected, 1, "env-expected");
		band_path(out, &f, &pol->observed, &pol->observed, 1, "env-observed");
		step_path(out, &f, &pol->accepted_lo, "accepted");
		step_path(out, &f, &pol->accepted_hi, "accepted");
		step_path(out, &f, &pol->expected, "expected");
		step_path(out, &f, &pol->observed, "observed");
	}
	fprintf(out, "<rect class=\"frame\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>\n"
		"</svg>\n", f.left, f.top, f.w, f.h);
}

static void res_bar(FILE *out, double y, double share, const char *cls)
{
	fprintf(out, "<rect class=\"%s\" x=\"%d\" y=\"%.1f\" width=\"%.1f\" height=\"%d\"/>"
		"<text x=\"%.1f\" y=\"%.1f\">%.1f %%</text>\n", cls, MARGIN_LEFT, y,
		share * RES_BAR_W, RES_BAR_H, MARGIN_LEFT + share * RES_BAR_W + 6,
		y + RES_BAR_H - 1, share * PERCENT);
}

/**
 * rep_svg_residency() - share of time per OPP of one policy, observed and
 * expected side by side
 * @out: the stream
 * @t: the trace, loaded (t->residency)
 * @policy: the policy
 */
void rep_svg_residency(FILE *out, const struct rep_trace *t, int policy)
{
	char label[REP_FMT_LEN * 2];
	size_t n = 0;
	double y = MARGIN_TOP;

	for (size_t i = 0; i < t->nr_residency; i++)
		n += t->residency[i].policy == policy;
	snprintf(label, sizeof(label), "policy %d: time per OPP, observed and expected", policy);
	svg_open(out, MARGIN_LEFT + RES_BAR_W + 2 * MARGIN_RIGHT,
		 MARGIN_TOP + (double)n * RES_ROW_H + 8, label);
	fprintf(out, "<rect class=\"key-observed\" x=\"%d\" y=\"8\" width=\"14\" height=\"8\"/>"
		"<text x=\"%d\" y=\"16\">observed</text><rect class=\"key-expected\" x=\"%d\""
		" y=\"8\" width=\"14\" height=\"8\"/><text x=\"%d\" y=\"16\">expected (model)</text>\n",
		MARGIN_LEFT, MARGIN_LEFT + 18, MARGIN_LEFT + 110, MARGIN_LEFT + 128);
	for (size_t i = 0; i < t->nr_residency; i++) {
		const struct rep_residency *r = &t->residency[i];

		if (r->policy != policy)
			continue;
		fprintf(out, "<text class=\"axis\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%g MHz"
			"</text>\n", MARGIN_LEFT - 8, y + RES_BAR_H + 3, (double)r->khz / KHZ_PER_MHZ);
		res_bar(out, y, r->observed_share, "res-observed");
		res_bar(out, y + RES_BAR_H + 1, r->expected_share, "res-expected");
		y += RES_ROW_H;
	}
	fputs("</svg>\n", out);
}

static bool same_marker(const struct rep_task_lane *l, unsigned int a, unsigned int b)
{
	return l->lo.b[a].n && l->lo.b[b].n && l->lo.b[a].lo == l->lo.b[b].lo &&
	       l->hi.b[a].hi == l->hi.b[b].hi && !l->bad.b[a].n == !l->bad.b[b].n;
}

/* One task's row: a bar from util_min to util_max at each request. */
static void lane(FILE *out, const struct frame *f, const struct rep_task_lane *l, double top)
{
	char task[REP_FMT_LEN];
	struct frame lf = *f;

	lf.top = top + 3;
	lf.h = LANE_H - 6;
	lf.y_max = UTIL_SCALE;
	fprintf(out, "<text class=\"axis\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">", MARGIN_LEFT - 8,
		top + LANE_H / 2 + 4);
	rep_xml_text(out, rep_fmt_task(task, l->pid, l->comm));
	fprintf(out, "</text><line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
		f->left, top + LANE_H, f->left + f->w, top + LANE_H);
	for (unsigned int i = 0; i < l->lo.nr;) {
		unsigned int e = i + 1;

		if (!l->lo.b[i].n) {
			i++;
			continue;
		}
		while (e < l->lo.nr && same_marker(l, i, e))
			e++;
		fprintf(out, "<rect class=\"%s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\">"
			"<title>util_min %" PRId64 ", util_max %" PRId64 "%s</title></rect>\n",
			l->bad.b[i].n ? "req-bad" : "req", fx(&lf, i), fy(&lf, (double)l->hi.b[i].hi),
			fmax(fx(&lf, e) - fx(&lf, i), MARK_MIN_W),
			fmax(fy(&lf, (double)l->lo.b[i].lo) - fy(&lf, (double)l->hi.b[i].hi),
			     MARK_MIN_H), l->lo.b[i].lo, l->hi.b[i].hi,
			l->bad.b[i].n ? ": kernel and model disagree" : "");
		i = e;
	}
}

/**
 * rep_svg_requests() - the clamp requests of the busiest tasks over time
 * @out: the stream
 * @p: the trace's plot data (p->lanes)
 *
 * Each request is a bar spanning its util_min..util_max within the task's
 * row; red where the kernel's result differs from the model's.
 */
void rep_svg_requests(FILE *out, const struct rep_plots *p)
{
	struct frame f = { MARGIN_LEFT, MARGIN_TOP, REP_SVG_PLOT_W,
			   (double)p->nr_lanes * LANE_H, p->nr_buckets, 1 };

	svg_open(out, f.left + f.w + MARGIN_RIGHT, f.top + f.h + MARGIN_BOTTOM,
		 "clamp requests per task over time");
	fprintf(out, "<rect class=\"key-req\" x=\"%.1f\" y=\"12\" width=\"14\" height=\"8\"/>"
		"<text x=\"%.1f\" y=\"20\">request util_min..util_max</text><rect class=\"key-req-bad\""
		" x=\"%.1f\" y=\"12\" width=\"14\" height=\"8\"/><text x=\"%.1f\" y=\"20\">kernel result"
		" differs from the model's</text>\n", f.left, f.left + 18, f.left + 230, f.left + 248);
	time_axis(out, &f, p->t0_ns, p->t1_ns);
	for (size_t i = 0; i < p->nr_lanes; i++)
		lane(out, &f, &p->lanes[i], f.top + (double)i * LANE_H);
	fprintf(out, "<rect class=\"frame\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>\n"
		"</svg>\n", f.left, f.top, f.w, f.h);
}
