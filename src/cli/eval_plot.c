/* eval_plot.c - the plot 'segc eval --svg' writes for a grid: the
 * components (log-log), the speedup (log-log, beside the ideal P) or the
 * efficiency (linear, beside the ideal 1) against the swept name
 * (--plot). */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_eval.h"
#include "cli/cli_util.h"

/* Fills the panel of the components against the swept name. */
static size_t time_series(eval_run *r, segc_svg_series *series)
{
	static const char *const labels[4] = { "total", "comp", "comm", "io" };
	size_t n = 0;
	int k;

	for (k = 1; k <= 4; k++) {
		if (segc_expr_is_zero(r->f[k % 4]))
			continue;
		series[n].label = labels[k % 4];
		series[n].n = r->t.npoints;
		series[n].x = r->t.x;
		series[n].y = r->t.y[k % 4];
		series[n].markers = 0;
		n++;
	}
	return n;
}

/* Writes the plot of --plot against the swept name to the file of --svg
 * (renamed into place when the command ends); 0 on success. */
int eval_plot_write(eval_run *r)
{
	segc_svg_series series[4];
	segc_svg_panel p;
	double *ideal = NULL;
	char *svg, title[300];
	size_t i;
	int rc;

	memset(series, 0, sizeof series);
	snprintf(title, sizeof title, "%.200s", r->title);
	p.title = title;
	p.xlabel = r->names[r->swept];
	p.series = series;
	p.ylinear = 0;
	if (r->o->plot == EVAL_PLOT_TIME) {
		p.ylabel = "time";
		p.nseries = time_series(r, series);
	} else {
		int eff = r->o->plot == EVAL_PLOT_EFFICIENCY;

		ideal = cli_xmalloc((r->t.npoints + 1) * sizeof *ideal);
		for (i = 0; i < r->t.npoints; i++)
			ideal[i] = eff ? 1.0 : r->t.x[i];
		p.ylabel = eff ? "efficiency" : "speedup";
		p.ylinear = eff;
		series[0].label = r->o->weak ? (eff ? "efficiency (weak)" :
			"speedup (weak)") : p.ylabel;
		series[0].n = series[1].n = r->t.npoints;
		series[0].x = series[1].x = r->t.x;
		series[0].y = r->t.s[eff];
		series[1].label = "ideal";
		series[1].y = ideal;
		p.nseries = 2;
	}
	svg = segc_svg_panels(1, &p);
	free(ideal);
	if (!svg) {
		fprintf(stderr, "segc: eval: nothing to plot on %s axes "
			"(no positive values)\n", p.ylinear ? "these" : "log-log");
		return -1;
	}
	rc = cli_output_write(r->svg, svg);
	free(svg);
	return rc;
}
