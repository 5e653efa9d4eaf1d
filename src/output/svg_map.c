/* svg_map.c - the forecast map of 'segc eval --map' (Armstrong and
 * Eigenmann, Fig. 4): a value shaded over a grid of two parameters on a
 * logarithmic colour scale, with a colour bar labelled by decades.
 * Deterministic: fixed-precision coordinates, colours computed with
 * integer rounding, text escaped. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "output/svg_private.h"

/* The geometry, in SVG user units. */
#define MAP_W 640.0
#define MAP_H 480.0
#define MAP_LEFT 90.0
#define MAP_RIGHT 150.0
#define MAP_TOP 40.0
#define MAP_BOTTOM 70.0
#define BAR_BANDS 48
#define MAX_TICKS 10
#define CHAR_W 7.0

/* The colour ramp, dark (small) to light (large): five stops. */
static const unsigned char ramp[5][3] = {
	{ 68, 1, 84 }, { 59, 82, 139 }, { 33, 145, 140 }, { 94, 201, 98 },
	{ 253, 231, 37 }
};

/* Appends the fill colour of the fraction 't' in [0, 1] of the ramp. */
static void put_colour(segc_strbuf *b, double t)
{
	double u;
	int k, c;

	if (!(t > 0))
		t = 0;
	if (t > 1)
		t = 1;
	u = t * 4;
	k = u >= 4 ? 3 : (int)floor(u);
	u -= k;
	segc_strbuf_append(b, " fill=\"#");
	for (c = 0; c < 3; c++)
		segc_strbuf_appendf(b, "%02x", (unsigned)lround(ramp[k][c] +
			(ramp[k + 1][c] - ramp[k][c]) * u));
	segc_strbuf_append(b, "\"");
}

/* Appends a rectangle of class 'cls' at (x, y), 'w' by 'h'; the fill
 * follows (put_colour or a literal), then the caller closes it. */
static void put_rect(segc_strbuf *b, const char *cls, double x, double y,
	double w, double h)
{
	segc_strbuf_appendf(b, "<rect class=\"%s\" shape-rendering=\""
		"crispEdges\" x=\"", cls);
	segc_svg_put_coord(b, x);
	segc_strbuf_append(b, "\" y=\"");
	segc_svg_put_coord(b, y);
	segc_strbuf_append(b, "\" width=\"");
	segc_svg_put_coord(b, w);
	segc_strbuf_append(b, "\" height=\"");
	segc_svg_put_coord(b, h);
	segc_strbuf_append(b, "\"");
}

/* The decades [lo, hi] of log10 the positive finite values span. */
static int z_span(const segc_svg_map_spec *m, double *lo, double *hi)
{
	size_t i;
	int any = 0;

	for (i = 0; i < m->nx * m->ny; i++) {
		double v = m->z[i];

		if (!(v > 0) || !isfinite(v))
			continue;
		if (!any || log10(v) < *lo)
			*lo = log10(v);
		if (!any || log10(v) > *hi)
			*hi = log10(v);
		any = 1;
	}
	if (!any)
		return -1;
	*lo = floor(*lo);
	*hi = ceil(*hi);
	if (*hi <= *lo)
		*hi = *lo + 1;
	return 0;
}

/* Appends the cells. */
static void put_cells(segc_strbuf *b, const segc_svg_map_spec *m,
	double lo, double hi)
{
	double cw = (MAP_W - MAP_LEFT - MAP_RIGHT) / (double)m->nx;
	double ch = (MAP_H - MAP_TOP - MAP_BOTTOM) / (double)m->ny;
	size_t i, j;

	for (j = 0; j < m->ny; j++)
		for (i = 0; i < m->nx; i++) {
			double v = m->z[j * m->nx + i];

			put_rect(b, "cell", MAP_LEFT + cw * (double)i, MAP_H -
				MAP_BOTTOM - ch * (double)(j + 1), cw, ch);
			if (v > 0 && isfinite(v))
				put_colour(b, (log10(v) - lo) / (hi - lo));
			else
				segc_strbuf_append(b, " fill=\"#bbbbbb\"");
			segc_strbuf_append(b, "/>\n");
		}
}

/* Appends the tick labels of both axes: at most MAX_TICKS of each,
 * evenly chosen among the cells, and on the x axis no closer than the
 * widest label (CHAR_W units a character) allows. */
static void put_ticks(segc_strbuf *b, const segc_svg_map_spec *m)
{
	double cw = (MAP_W - MAP_LEFT - MAP_RIGHT) / (double)m->nx;
	double ch = (MAP_H - MAP_TOP - MAP_BOTTOM) / (double)m->ny;
	size_t i, sx = (m->nx + MAX_TICKS - 1) / MAX_TICKS, wide = 0;
	size_t sy = (m->ny + MAX_TICKS - 1) / MAX_TICKS;

	for (i = 0; i < m->nx; i++)
		if (strlen(m->xticks[i]) > wide)
			wide = strlen(m->xticks[i]);
	while ((double)sx * cw < ((double)wide + 1) * CHAR_W)
		sx++;

	for (i = 0; i < m->nx; i += sx) {
		double x = MAP_LEFT + cw * ((double)i + 0.5);

		segc_svg_put_line(b, x, MAP_H - MAP_BOTTOM, x, MAP_H -
			MAP_BOTTOM + 6, "stroke=\"black\"");
		segc_svg_put_text(b, x, MAP_H - MAP_BOTTOM + 20, "middle",
			m->xticks[i]);
	}
	for (i = 0; i < m->ny; i += sy) {
		double y = MAP_H - MAP_BOTTOM - ch * ((double)i + 0.5);

		segc_svg_put_line(b, MAP_LEFT - 6, y, MAP_LEFT, y,
			"stroke=\"black\"");
		segc_svg_put_text(b, MAP_LEFT - 10, y + 4, "end", m->yticks[i]);
	}
}

/* Appends the colour bar: BAR_BANDS bands from the lowest decade
 * (bottom) to the highest, a label at every decade, and 'zlabel'. */
static void put_bar(segc_strbuf *b, const segc_svg_map_spec *m, double lo,
	double hi)
{
	double x = MAP_W - MAP_RIGHT + 30, top = MAP_TOP;
	double h = MAP_H - MAP_TOP - MAP_BOTTOM, bh = h / BAR_BANDS;
	long k, step = (long)(hi - lo) > 8 ? ((long)(hi - lo) + 7) / 8 : 1;
	int i;

	for (i = 0; i < BAR_BANDS; i++) {
		put_rect(b, "bar", x, top + h - bh * (i + 1), 20, bh);
		put_colour(b, (i + 0.5) / BAR_BANDS);
		segc_strbuf_append(b, "/>\n");
	}
	segc_strbuf_append(b, "<rect x=\"");
	segc_svg_put_coord(b, x);
	segc_strbuf_append(b, "\" y=\"40.00\" width=\"20.00\" height=\"");
	segc_svg_put_coord(b, h);
	segc_strbuf_append(b, "\" fill=\"none\" stroke=\"black\"/>\n");
	for (k = (long)lo; k <= (long)hi; k += step) {
		double y = top + h - (k - lo) / (hi - lo) * h;

		segc_svg_put_line(b, x + 20, y, x + 26, y, "stroke=\"black\"");
		segc_svg_put_decade(b, x + 30, y + 4, "start", k);
	}
	segc_svg_put_text(b, x + 10, MAP_TOP - 10, "middle", m->zlabel);
}

/* The forecast map of 'm'. */
char *segc_svg_map(const segc_svg_map_spec *m)
{
	double lo = 0, hi = 0;
	segc_strbuf b;

	if (!m->nx || !m->ny || z_span(m, &lo, &hi))
		return NULL;
	segc_strbuf_init(&b);
	segc_svg_begin(&b, (int)MAP_W, (int)MAP_H);
	put_cells(&b, m, lo, hi);
	segc_strbuf_append(&b, "<rect x=\"90.00\" y=\"40.00\" width=\"400.00\" "
		"height=\"370.00\" fill=\"none\" stroke=\"black\"/>\n");
	put_ticks(&b, m);
	put_bar(&b, m, lo, hi);
	segc_svg_put_text(&b, (MAP_LEFT + MAP_W - MAP_RIGHT) / 2, 24, "middle",
		m->title);
	segc_svg_put_text(&b, (MAP_LEFT + MAP_W - MAP_RIGHT) / 2, MAP_H - 20,
		"middle", m->xlabel);
	segc_strbuf_append(&b, "<g transform=\"translate(24,225) "
		"rotate(-90)\">\n");
	segc_svg_put_text(&b, 0, 0, "middle", m->ylabel);
	segc_strbuf_append(&b, "</g>\n</svg>\n");
	return segc_strbuf_take(&b);
}
