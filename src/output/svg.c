/* svg.c - log-log line plots in SVG, drawn by segc itself: a frame, decade
 * ticks with labels, one polyline per series, a legend.  Deterministic:
 * numbers are formatted with fixed precision in the C locale's notation,
 * text is escaped. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "output/output.h"

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

/* Decades spanned by the data: [lo, hi] of log10. */
typedef struct span {
	double lo, hi;
} span;

/* Appends 'text' with the XML special characters escaped and anything
 * outside printable ASCII dropped to '?'. */
static void put_xml_text(segc_strbuf *b, const char *text)
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
static void put_coord(segc_strbuf *b, double v)
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

/* The decades covering the positive values of one axis of the series. */
static int data_span(size_t n, const segc_svg_series *s, int y, span *sp)
{
	size_t i, j;
	int any = 0;

	for (i = 0; i < n; i++)
		for (j = 0; j < s[i].n; j++) {
			double xv = s[i].x[j], yv = s[i].y[j];
			double v = y ? yv : xv;

			if (!(xv > 0) || !(yv > 0) || !isfinite(xv) ||
			    !isfinite(yv))
				continue;
			if (!any || log10(v) < sp->lo)
				sp->lo = log10(v);
			if (!any || log10(v) > sp->hi)
				sp->hi = log10(v);
			any = 1;
		}
	if (!any)
		return -1;
	sp->lo = floor(sp->lo);
	sp->hi = ceil(sp->hi);
	if (sp->hi <= sp->lo)
		sp->hi = sp->lo + 1;
	return 0;
}

/* The position of the value 'v' on an axis of 'sp' from 'a' to 'b'. */
static double place(const span *sp, double v, double a, double b)
{
	return a + (log10(v) - sp->lo) / (sp->hi - sp->lo) * (b - a);
}

/* Appends a line from (x1, y1) to (x2, y2). */
static void put_line(segc_strbuf *b, double x1, double y1, double x2,
	double y2, const char *style)
{
	segc_strbuf_append(b, "<line x1=\"");
	put_coord(b, x1);
	segc_strbuf_append(b, "\" y1=\"");
	put_coord(b, y1);
	segc_strbuf_append(b, "\" x2=\"");
	put_coord(b, x2);
	segc_strbuf_append(b, "\" y2=\"");
	put_coord(b, y2);
	segc_strbuf_appendf(b, "\" %s/>\n", style);
}

/* Appends text at (x, y) with the given anchor. */
static void put_text(segc_strbuf *b, double x, double y, const char *anchor,
	const char *text)
{
	segc_strbuf_append(b, "<text x=\"");
	put_coord(b, x);
	segc_strbuf_append(b, "\" y=\"");
	put_coord(b, y);
	segc_strbuf_appendf(b, "\" text-anchor=\"%s\">", anchor);
	put_xml_text(b, text);
	segc_strbuf_append(b, "</text>\n");
}

/* Appends the decade label 10^k at (x, y). */
static void put_decade(segc_strbuf *b, double x, double y, const char *anchor,
	long k)
{
	segc_strbuf_append(b, "<text x=\"");
	put_coord(b, x);
	segc_strbuf_append(b, "\" y=\"");
	put_coord(b, y);
	segc_strbuf_appendf(b, "\" text-anchor=\"%s\">10<tspan dy=\"-7\" "
		"font-size=\"10\">%ld</tspan></text>\n", anchor, k);
}

/* Appends the frame, the grid and the decade ticks of both axes. */
static void put_axes(segc_strbuf *b, const span *sx, const span *sy)
{
	double x0 = LEFT, x1 = WIDTH - RIGHT, y0 = HEIGHT - BOTTOM, y1 = TOP;
	long k;

	segc_strbuf_append(b, "<rect x=\"80.00\" y=\"40.00\" width=\"410.00\" "
		"height=\"340.00\" fill=\"none\" stroke=\"black\"/>\n");
	for (k = (long)sx->lo; k <= (long)sx->hi; k++) {
		double x = place(sx, pow(10.0, (double)k), x0, x1);

		put_line(b, x, y0, x, y1, "stroke=\"#dddddd\"");
		put_line(b, x, y0, x, y0 + 6, "stroke=\"black\"");
		put_decade(b, x, y0 + 22, "middle", k);
	}
	for (k = (long)sy->lo; k <= (long)sy->hi; k++) {
		double y = place(sy, pow(10.0, (double)k), y0, y1);

		put_line(b, x0, y, x1, y, "stroke=\"#dddddd\"");
		put_line(b, x0 - 6, y, x0, y, "stroke=\"black\"");
		put_decade(b, x0 - 10, y + 4, "end", k);
	}
}

/* Appends the polyline of one series and its legend entry number 'i'. */
static void put_series(segc_strbuf *b, const segc_svg_series *s, size_t i,
	const span *sx, const span *sy)
{
	const char *colour = colours[i % (sizeof colours / sizeof colours[0])];
	double ly = TOP + 20.0 * (double)i + 10;
	char style[64];
	size_t j;

	segc_strbuf_appendf(b, "<polyline fill=\"none\" stroke=\"%s\" "
		"stroke-width=\"2\" points=\"", colour);
	for (j = 0; j < s->n; j++) {
		if (!(s->x[j] > 0) || !(s->y[j] > 0) || !isfinite(s->x[j]) ||
		    !isfinite(s->y[j]))
			continue;
		put_coord(b, place(sx, s->x[j], LEFT, WIDTH - RIGHT));
		segc_strbuf_appendc(b, ',');
		put_coord(b, place(sy, s->y[j], HEIGHT - BOTTOM, TOP));
		segc_strbuf_appendc(b, ' ');
	}
	segc_strbuf_append(b, "\"/>\n");
	snprintf(style, sizeof style, "stroke=\"%s\" stroke-width=\"2\"",
		colour);
	put_line(b, WIDTH - RIGHT + 15, ly, WIDTH - RIGHT + 40, ly, style);
	put_text(b, WIDTH - RIGHT + 45, ly + 4, "start", s->label);
}

/* A log-log plot of the series. */
char *segc_svg_loglog(const char *title, const char *xlabel,
	const char *ylabel, size_t nseries, const segc_svg_series *series)
{
	span sx, sy;
	segc_strbuf b;
	size_t i;

	if (data_span(nseries, series, 0, &sx) ||
	    data_span(nseries, series, 1, &sy))
		return NULL;
	segc_strbuf_init(&b);
	segc_strbuf_append(&b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"640\" "
		"height=\"440\" viewBox=\"0 0 640 440\" font-family=\"sans-serif\" "
		"font-size=\"13\">\n<rect width=\"640\" height=\"440\" "
		"fill=\"white\"/>\n");
	put_axes(&b, &sx, &sy);
	for (i = 0; i < nseries; i++)
		if (series[i].n)
			put_series(&b, &series[i], i, &sx, &sy);
	put_text(&b, (LEFT + WIDTH - RIGHT) / 2, 24, "middle", title);
	put_text(&b, (LEFT + WIDTH - RIGHT) / 2, HEIGHT - 15, "middle", xlabel);
	segc_strbuf_append(&b, "<g transform=\"translate(22,210) rotate(-90)\">\n");
	put_text(&b, 0, 0, "middle", ylabel);
	segc_strbuf_append(&b, "</g>\n</svg>\n");
	return segc_strbuf_take(&b);
}
