// SPDX-License-Identifier: MIT
/*
 * reports/html.c - `ucval report --format html`: one file that opens
 * anywhere, offline. Inline CSS and SVG only; no script, no font, no image
 * and no URL of any kind. The markup is XHTML-compatible (every element
 * closed, attributes quoted) so XML tools can check it too.
 */
#include <inttypes.h>

#include "reports/html.h"
#include "reports/plotdata.h"
#include "reports/svg.h"
#include "reports/xml.h"

/* Task rows in the requests plot: the busiest ones, the rest are counted. */
#define MAX_LANES	24

static const char css[] =
	"body{font-family:sans-serif;margin:1.5em;color:#222;max-width:1400px}\n"
	"h1{font-size:1.5em}h2{font-size:1.25em;border-bottom:2px solid #ccc;margin-top:2em}\n"
	"h3{font-size:1.05em;margin-top:1.4em}\n"
	"table{border-collapse:collapse;margin:.8em 0;font-size:.9em}\n"
	"th,td{border:1px solid #ccc;padding:2px 8px;text-align:left;vertical-align:top}\n"
	"thead th{background:#eee}table.kv th{background:#f6f6f6;font-weight:normal}\n"
	"td.num{text-align:right;font-variant-numeric:tabular-nums}\n"
	".v-PASS{background:#d8f0d8}.v-FAIL{background:#f7c8c8;font-weight:bold}\n"
	".v-UNDECIDED{background:#f3ecc8}\n"
	"pre{background:#f6f6f6;padding:6px;margin:.3em 0 .3em 2em;font-size:.85em}\n"
	"svg.plot{display:block;margin:.4em 0 1.2em 0;font-size:11px}\n"
	"svg text{fill:#333}.axis text{fill:#555}.util{fill:#2a7a2a}\n"
	".grid{stroke:#e4e4e4;stroke-width:1}.tick-util{stroke:#2a7a2a}\n"
	".frame{fill:none;stroke:#999}\n"
	".observed{fill:none;stroke:#1f5fbf;stroke-width:1.5}\n"
	".expected{fill:none;stroke:#e07b00;stroke-width:1.5;stroke-dasharray:5 3}\n"
	".accepted{fill:none;stroke:#8a2aa0;stroke-width:2;stroke-dasharray:2 3}\n"
	".key-accepted{fill:#8a2aa0}\n"
	".band{fill:#3a9a3a;fill-opacity:.18;stroke:#3a9a3a;stroke-opacity:.5}\n"
	".env-observed{fill:#1f5fbf;fill-opacity:.3}.env-expected{fill:#e07b00;fill-opacity:.25}\n"
	".mismatch{fill:#e02020;fill-opacity:.22}\n"
	".key-observed,.res-observed{fill:#1f5fbf}.key-expected,.res-expected{fill:#e07b00}\n"
	".key-band{fill:#3a9a3a;fill-opacity:.35}.key-mismatch{fill:#e02020;fill-opacity:.4}\n"
	".req,.key-req{fill:#6a3fb0}.req-bad,.key-req-bad{fill:#e02020}\n"
	"figure{margin:1em 0 0 0}figcaption{font-size:.95em;font-weight:bold;color:#333}\n";

/**
 * rep_html_page_open() - start a self-contained HTML page (its style sheet)
 * @out: the stream
 */
void rep_html_page_open(FILE *out)
{
	fprintf(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
		"<title>ucval report</title>\n<style>\n%s</style>\n</head>\n<body>\n", css);
}

static void caption(FILE *out, const struct rep_plots *p, const struct rep_cpu_plot *c)
{
	const struct rep_policy_plot *pol = c->policy >= 0 ? &p->policies[c->policy] : NULL;

	fprintf(out, "<figcaption>cpu %d", c->cpu);
	if (c->capacity >= 0)
		fprintf(out, ", capacity %" PRId64, c->capacity);
	if (pol) {
		fprintf(out, ", policy %d (cpus ", pol->policy);
		rep_xml_text(out, pol->cpus ? pol->cpus : "?");
		fputs(", OPPs", out);
		for (size_t i = 0; i < pol->nr_opps; i++)
			fprintf(out, "%s%" PRId64, i ? ", " : " ", pol->opps_khz[i]);
		fprintf(out, "%s kHz; uclamp 1024 = %" PRId64 " kHz)", pol->nr_opps ? "" : " unknown",
			rep_plots_top_khz(pol));
	} else {
		fputs(", no cpufreq policy recorded", out);
	}
	fputs("</figcaption>\n", out);
}

static void cpu_plots(struct rep_doc *doc, const struct rep_plots *p)
{
	rep_doc_heading(doc, 2, "frequency and rq clamps per CPU");
	if (!p->nr_cpus) {
		rep_doc_para(doc, "no CPU has intervals recorded for this trace");
		return;
	}
	rep_doc_para(doc, "Time in seconds from the trace's first event, in %u buckets per"
		     " plot. A line shows the value at the end of each bucket; where the value"
		     " changed within a bucket, a shade of the same colour spans its range.",
		     p->nr_buckets);
	for (size_t i = 0; i < p->nr_cpus; i++) {
		fputs("<figure>\n", doc->out);
		caption(doc->out, p, &p->cpus[i]);
		rep_svg_cpu(doc->out, p, &p->cpus[i]);
		fputs("</figure>\n", doc->out);
	}
}

static void residency_plots(struct rep_doc *doc, const struct rep_trace *t)
{
	rep_doc_heading(doc, 2, "time per OPP, observed and expected");
	if (!t->nr_residency) {
		rep_doc_para(doc, "no residency recorded for this trace");
		return;
	}
	for (size_t i = 0; i < t->nr_residency; i++)
		if (!i || t->residency[i].policy != t->residency[i - 1].policy)
			rep_svg_residency(doc->out, t, t->residency[i].policy);
}

static void request_plot(struct rep_doc *doc, const struct rep_plots *p)
{
	rep_doc_heading(doc, 2, "clamp requests per task");
	if (!p->nr_lanes) {
		rep_doc_para(doc, "no clamp request recorded for this trace");
		return;
	}
	if (p->nr_tasks > (int64_t)p->nr_lanes)
		rep_doc_para(doc, "the %zu tasks with the most requests of %" PRId64, p->nr_lanes,
			     p->nr_tasks);
	rep_svg_requests(doc->out, p);
}

/* The plots of one trace; a schema 1 database says what it lacks instead. */
static int plots(struct rep_doc *doc, const struct rep_sel *sel, const struct rep_trace *t,
		 struct an_diag *d)
{
	struct rep_plots *p;
	int err;

	if (!rep_rdb_has(sel->db, REP_T_FREQ_INTERVALS) &&
	    !rep_rdb_has(sel->db, REP_T_CLAMP_INTERVALS)) {
		rep_doc_heading(doc, 2, "plots");
		rep_doc_para(doc, "frequency and clamp intervals: %s", rep_rdb_missing(sel->db));
		return 0;
	}
	err = rep_plots_load(sel->db, t, REP_SVG_PLOT_W, MAX_LANES, &p, d);
	if (err)
		return err;
	cpu_plots(doc, p);
	residency_plots(doc, t);
	request_plot(doc, p);
	rep_plots_free(p);
	return 0;
}

/**
 * rep_html_write() - the report as one self-contained HTML page
 * @out: the stream
 * @sel: the traces, loaded
 * @d: filled when reading the plot data fails
 *
 * Return: 0, -ENOMEM or AN_E_DB.
 */
int rep_html_write(FILE *out, const struct rep_sel *sel, struct an_diag *d)
{
	struct rep_doc doc = { .out = out, .style = REP_STYLE_HTML };
	int err;

	rep_html_page_open(out);
	err = rep_summary_overview(&doc, sel);
	for (size_t i = 0; !err && i < sel->nr; i++) {
		fprintf(out, "<div class=\"trace\" id=\"trace-%" PRId64 "\">\n",
			sel->traces[i]->trace_id);
		err = rep_summary_trace(&doc, sel, sel->traces[i]);
		if (!err)
			err = plots(&doc, sel, sel->traces[i], d);
		fputs("</div>\n", out);
	}
	rep_html_page_close(out);
	return err;
}

/**
 * rep_html_page_close() - end the page rep_html_page_open() started
 * @out: the stream
 */
void rep_html_page_close(FILE *out)
{
	fputs("</body>\n</html>\n", out);
}
