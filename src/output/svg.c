/* svg.c - line plots in SVG, drawn by segc itself: panels with a frame,
 * decade ticks (or linear ticks) with labels, one polyline or set of
 * markers per series, a legend.  Deterministic: numbers are formatted
 * with fixed precision in the C locale's notation, text is escaped. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "output/svg_private.h"

/* The geometry of the plot area, in SVG user units. */
#define WIDTH 640.0
#define HEIGHT 440.0
#define LEFT 80.0
#define RIGHT 150.0
#define TOP 40.0
#define BOTTOM 60.0

static const char *const colours[] = {
	"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b"
};

/* Appends 'text' with the XML special characters escaped and anything
 * outside printable ASCII dropped to '?'. */
void segc_svg_put_xml_text(segc_strbuf *b, const char *text)
{
	const unsigned char *s;

	for (s = (const unsigned char *)text; *s; s++) {
		switch (*s) {
		case '&': segc_strbuf_append(b, "&amp;"); break;
		case '<': segc_strbuf_append(b, "&lt;"); break;
		case '>': segc_strbuf_append(b, "&gt;"); break;
		case '"': segc_strbuf_append(b, "&quot;"); break;
		case '\'': segc_strbuf_append(b, "&#39;"); break;
		default:
			segc_strbuf_appendc(b, *s >= 0x20 && *s < 0x7F ?
				(char)*s : '?');
		}
	}
}

/* Appends the coordinate 'v' with two decimals (no locale involved: the
 * value is split into integer and fraction by hand). */
void segc_svg_put_coord(segc_strbuf *b, double v)
{
	long hundredths = lround(v * 100.0);
	long whole = hundredths / 100, frac = hundredths % 100;

	if (hundredths < 0) {
		segc_strbuf_appendc(b, '-');
		whole = -whole;
		frac = -frac;
	}
	segc_strbuf_appendf(b, "%ld.%02ld", whole, frac);
}

/* An axis: log10 decades [lo, hi], or a linear range [lo, hi] with
 * ticks every 'step'. */
typedef struct span {
	int linear;
	double lo, hi, step;
} span;

/* Non-zero when the point (x, y) can be drawn on axes of 'sy'. */
static int drawable(double x, double y, const span *sy)
{
	return x > 0 && isfinite(x) && isfinite(y) && (sy->linear || y > 0);
}

/* A step of 1, 2 or 5 times a power of ten giving about five ticks over
 * a width 'w' (> 0). */
static double nice_step(double w)
{
	double raw = w / 5, mag = pow(10.0, floor(log10(raw)));

	return raw <= mag ? mag : raw <= 2 * mag ? 2 * mag : raw <= 5 * mag ?
		5 * mag : 10 * mag;
}

/* The span covering the drawable values of one axis ('y' non-zero: the
 * y axis) of the series: decades, or a linear range with 0 in it. */
static int data_span(size_t n, const segc_svg_series *s, int y, span *sp,
	int ylinear)
{
	span ys;

	size_t i, j;
	int any = 0;

	memset(&ys, 0, sizeof ys);
	ys.linear = ylinear;
	sp->linear = y && ylinear;
	for (i = 0; i < n; i++)
		for (j = 0; j < s[i].n; j++) {
			double v = y ? s[i].y[j] : s[i].x[j];

			if (!drawable(s[i].x[j], s[i].y[j], &ys))
				continue;
			if (!sp->linear)
				v = log10(v);
			if (!any || v < sp->lo)
				sp->lo = v;
			if (!any || v > sp->hi)
				sp->hi = v;
			any = 1;
		}
	if (!any)
		return -1;
	if (sp->linear) {
		if (sp->lo > 0)
			sp->lo = 0;
		if (sp->hi < 0)
			sp->hi = 0;
		if (sp->hi - sp->lo < 1e-300)
			sp->hi = sp->lo + 1;
		sp->step = nice_step(sp->hi - sp->lo);
		sp->lo = floor(sp->lo / sp->step) * sp->step;
		sp->hi = ceil(sp->hi / sp->step) * sp->step;
		return 0;
	}
	sp->lo = floor(sp->lo);
	sp->hi = ceil(sp->hi);
	if (sp->hi <= sp->lo)
		sp->hi = sp->lo + 1;
	return 0;
}

/* The position of the value 'v' on an axis of 'sp' from 'a' to 'b'. */
static double place(const span *sp, double v, double a, double b)
{
	double t = sp->linear ? v : log10(v);

	return a + (t - sp->lo) / (sp->hi - sp->lo) * (b - a);
}

/* Appends a line from (x1, y1) to (x2, y2). */
void segc_svg_put_line(segc_strbuf *b, double x1, double y1, double x2,
	double y2, const char *style)
{
	segc_strbuf_append(b, "<line x1=\"");
	segc_svg_put_coord(b, x1);
	segc_strbuf_append(b, "\" y1=\"");
	segc_svg_put_coord(b, y1);
	segc_strbuf_append(b, "\" x2=\"");
	segc_svg_put_coord(b, x2);
	segc_strbuf_append(b, "\" y2=\"");
	segc_svg_put_coord(b, y2);
	segc_strbuf_appendf(b, "\" %s/>\n", style);
}

/* Appends text at (x, y) with the given anchor. */
void segc_svg_put_text(segc_strbuf *b, double x, double y, const char *anchor,
	const char *text)
{
	segc_strbuf_append(b, "<text x=\"");
	segc_svg_put_coord(b, x);
	segc_strbuf_append(b, "\" y=\"");
	segc_svg_put_coord(b, y);
	segc_strbuf_appendf(b, "\" text-anchor=\"%s\">", anchor);
	segc_svg_put_xml_text(b, text);
	segc_strbuf_append(b, "</text>\n");
}

/* Appends the decade label 10^k at (x, y). */
void segc_svg_put_decade(segc_strbuf *b, double x, double y, const char *anchor,
	long k)
{
	segc_strbuf_append(b, "<text x=\"");
	segc_svg_put_coord(b, x);
	segc_strbuf_append(b, "\" y=\"");
	segc_svg_put_coord(b, y);
	segc_strbuf_appendf(b, "\" text-anchor=\"%s\">10<tspan dy=\"-7\" "
		"font-size=\"10\">%ld</tspan></text>\n", anchor, k);
}

/* Appends the label of the linear tick k*step at (x, y): as many
 * decimals as the step needs, "0" for zero. */
static void put_linear_tick(segc_strbuf *b, double x, double y, long k,
	double step)
{
	int decimals = step >= 1 ? 0 : (int)ceil(-log10(step) - 1e-9);
	char text[64];

	if (decimals > 20)
		decimals = 20;
	if (k == 0)
		snprintf(text, sizeof text, "0");
	else
		snprintf(text, sizeof text, "%.*f", decimals, (double)k * step);
	segc_svg_put_text(b, x, y, "end", text);
}

/* Appends the frame, the grid and the ticks of both axes. */
static void put_axes(segc_strbuf *b, const span *sx, const span *sy)
{
	double x0 = LEFT, x1 = WIDTH - RIGHT, y0 = HEIGHT - BOTTOM, y1 = TOP;
	long k;

	segc_strbuf_append(b, "<rect x=\"80.00\" y=\"40.00\" width=\"410.00\" "
		"height=\"340.00\" fill=\"none\" stroke=\"black\"/>\n");
	for (k = (long)sx->lo; k <= (long)sx->hi; k++) {
		double x = place(sx, pow(10.0, (double)k), x0, x1);

		segc_svg_put_line(b, x, y0, x, y1, "stroke=\"#dddddd\"");
		segc_svg_put_line(b, x, y0, x, y0 + 6, "stroke=\"black\"");
		segc_svg_put_decade(b, x, y0 + 22, "middle", k);
	}
	if (sy->linear) {
		long k0 = lround(sy->lo / sy->step), k1 = lround(sy->hi /
			sy->step);

		for (k = k0; k <= k1; k++) {
			double y = place(sy, (double)k * sy->step, y0, y1);

			segc_svg_put_line(b, x0, y, x1, y, k ? "stroke=\"#dddddd\"" :
				"stroke=\"#888888\"");
			segc_svg_put_line(b, x0 - 6, y, x0, y, "stroke=\"black\"");
			put_linear_tick(b, x0 - 10, y + 4, k, sy->step);
		}
		return;
	}
	for (k = (long)sy->lo; k <= (long)sy->hi; k++) {
		double y = place(sy, pow(10.0, (double)k), y0, y1);

		segc_svg_put_line(b, x0, y, x1, y, "stroke=\"#dddddd\"");
		segc_svg_put_line(b, x0 - 6, y, x0, y, "stroke=\"black\"");
		segc_svg_put_decade(b, x0 - 10, y + 4, "end", k);
	}
}

/* Appends one series, as a polyline or as markers, and its legend entry
 * number 'i'. */
static void put_series(segc_strbuf *b, const segc_svg_series *s, size_t i,
	const span *sx, const span *sy)
{
	const char *colour = colours[i % (sizeof colours / sizeof colours[0])];
	double ly = TOP + 20.0 * (double)i + 10;
	char style[64];
	size_t j;

	if (!s->markers)
		segc_strbuf_appendf(b, "<polyline fill=\"none\" stroke=\"%s\" "
			"stroke-width=\"2\" points=\"", colour);
	for (j = 0; j < s->n; j++) {
		if (!drawable(s->x[j], s->y[j], sy))
			continue;
		if (s->markers)
			segc_strbuf_append(b, "<circle class=\"marker\" cx=\"");
		segc_svg_put_coord(b, place(sx, s->x[j], LEFT, WIDTH - RIGHT));
		segc_strbuf_append(b, s->markers ? "\" cy=\"" : ",");
		segc_svg_put_coord(b, place(sy, s->y[j], HEIGHT - BOTTOM, TOP));
		if (s->markers)
			segc_strbuf_appendf(b, "\" r=\"4\" fill=\"none\" "
				"stroke=\"%s\" stroke-width=\"2\"/>\n", colour);
		else
			segc_strbuf_appendc(b, ' ');
	}
	if (!s->markers) {
		segc_strbuf_append(b, "\"/>\n");
		snprintf(style, sizeof style, "stroke=\"%s\" stroke-width=\"2\"",
			colour);
		segc_svg_put_line(b, WIDTH - RIGHT + 15, ly, WIDTH - RIGHT + 40,
			ly, style);
	} else {
		segc_strbuf_appendf(b, "<circle cx=\"%.2f\" cy=\"", WIDTH -
			RIGHT + 27.5);
		segc_svg_put_coord(b, ly);
		segc_strbuf_appendf(b, "\" r=\"4\" fill=\"none\" stroke=\"%s\" "
			"stroke-width=\"2\"/>\n", colour);
	}
	segc_strbuf_append(b, "<g font-size=\"11\">\n");
	segc_svg_put_text(b, WIDTH - RIGHT + 45, ly + 4, "start", s->label);
	segc_strbuf_append(b, "</g>\n");
}

/* Appends the XML declaration, the <svg> start tag and the white
 * background of a document of 'w' by 'h' units. */
void segc_svg_begin(segc_strbuf *b, int w, int h)
{
	segc_strbuf_appendf(b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		"height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" "
		"font-size=\"13\">\n<rect width=\"%d\" height=\"%d\" "
		"fill=\"white\"/>\n", w, h, w, h, w, h);
}

/* Appends panel 'p' drawn on the axes 'sx', 'sy', moved down by 'dy'. */
static void put_panel(segc_strbuf *b, const segc_svg_panel *p,
	const span *sx, const span *sy, double dy)
{
	size_t i;

	segc_strbuf_append(b, "<g transform=\"translate(0,");
	segc_svg_put_coord(b, dy);
	segc_strbuf_append(b, ")\">\n");
	put_axes(b, sx, sy);
	for (i = 0; i < p->nseries; i++)
		if (p->series[i].n)
			put_series(b, &p->series[i], i, sx, sy);
	segc_svg_put_text(b, (LEFT + WIDTH - RIGHT) / 2, 24, "middle",
		p->title);
	segc_svg_put_text(b, (LEFT + WIDTH - RIGHT) / 2, HEIGHT - 15, "middle",
		p->xlabel);
	segc_strbuf_append(b, "<g transform=\"translate(22,210) "
		"rotate(-90)\">\n");
	segc_svg_put_text(b, 0, 0, "middle", p->ylabel);
	segc_strbuf_append(b, "</g>\n</g>\n");
}

/* A figure of panels stacked from top to bottom. */
char *segc_svg_panels(size_t npanels, const segc_svg_panel *panels)
{
	span sx, sy;
	segc_strbuf b;
	size_t i;

	if (!npanels || npanels > 64)
		return NULL;
	for (i = 0; i < npanels; i++) {
		if (data_span(panels[i].nseries, panels[i].series, 0, &sx,
		    panels[i].ylinear) || data_span(panels[i].nseries,
		    panels[i].series, 1, &sy, panels[i].ylinear))
			return NULL;
	}
	segc_strbuf_init(&b);
	segc_svg_begin(&b, (int)WIDTH, (int)(HEIGHT * (double)npanels));
	for (i = 0; i < npanels; i++) {
		data_span(panels[i].nseries, panels[i].series, 0, &sx,
			panels[i].ylinear);
		data_span(panels[i].nseries, panels[i].series, 1, &sy,
			panels[i].ylinear);
		put_panel(&b, &panels[i], &sx, &sy, HEIGHT * (double)i);
	}
	segc_strbuf_append(&b, "</svg>\n");
	return segc_strbuf_take(&b);
}

/* A log-log plot of the series: a figure of one panel. */
char *segc_svg_loglog(const char *title, const char *xlabel,
	const char *ylabel, size_t nseries, const segc_svg_series *series)
{
	segc_svg_panel p;

	p.title = title;
	p.xlabel = xlabel;
	p.ylabel = ylabel;
	p.ylinear = 0;
	p.nseries = nseries;
	p.series = series;
	return segc_svg_panels(1, &p);
}
