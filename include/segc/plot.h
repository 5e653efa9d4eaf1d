/* plot.h - plots drawn as SVG by segc itself (what 'segc eval --svg'
 * writes): panels of series against a log-scaled x axis (the y axis log
 * or linear), and a forecast map (a value shaded over a grid of two
 * parameters, with a colour bar).  Deterministic: no timestamps,
 * coordinates with fixed precision, text escaped.  The ownership rule of
 * segc.h applies. */
#ifndef SEGC_PLOT_H
#define SEGC_PLOT_H

#include <segc/segc.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One series: a label and 'n' points, drawn as a polyline, or as
 * markers (circles) when 'markers' is non-zero.  A plain data record of
 * borrowed arrays, filled by the caller. */
typedef struct segc_svg_series {
	const char *label;
	size_t n;
	const double *x, *y;
	int markers;
} segc_svg_series;

/* A log-log plot of the series (non-positive points left out): axes,
 * decade ticks and labels, one polyline per series, a legend.  Text is
 * escaped.  Returns the SVG document (malloc'd), or NULL when no point is
 * plottable. */
SEGC_API SEGC_GIVE char *segc_svg_loglog(SEGC_KEEP const char *title,
	SEGC_KEEP const char *xlabel, SEGC_KEEP const char *ylabel,
	size_t nseries, SEGC_KEEP const segc_svg_series *series);

/* One panel of a figure: its labels and series; the x axis is
 * logarithmic (points with x <= 0 left out), the y axis logarithmic
 * (points with y <= 0 left out) or, when 'ylinear' is non-zero, linear
 * (0 always shown, ticks at 1, 2 or 5 times a power of ten).  A plain
 * data record of borrowed pointers. */
typedef struct segc_svg_panel {
	const char *title, *xlabel, *ylabel;
	int ylinear;
	size_t nseries;
	const segc_svg_series *series;
} segc_svg_panel;

/* A figure of 'npanels' panels stacked from top to bottom, each 640 by
 * 440 units.  Returns the SVG document (malloc'd), or NULL when some
 * panel has no plottable point. */
SEGC_API SEGC_GIVE char *segc_svg_panels(size_t npanels,
	SEGC_KEEP const segc_svg_panel *panels);

/* A forecast map: 'nx' by 'ny' cells, the value z[j*nx + i] at column i
 * (x tick label xticks[i], left to right) and row j (yticks[j], bottom
 * to top), shaded on a logarithmic colour scale over the decades the
 * positive values span; a non-positive or non-finite value is a grey
 * cell.  A colour bar with decade labels and 'zlabel' is the legend.
 * A plain data record of borrowed pointers. */
typedef struct segc_svg_map_spec {
	const char *title, *xlabel, *ylabel, *zlabel;
	size_t nx, ny;
	const char *const *xticks, *const *yticks;
	const double *z;
} segc_svg_map_spec;

/* The SVG document of the map (malloc'd): each cell a <rect
 * class="cell">, each band of the colour bar a <rect class="bar">.
 * NULL when no value is positive. */
SEGC_API SEGC_GIVE char *segc_svg_map(SEGC_KEEP const segc_svg_map_spec *m);

#ifdef __cplusplus
}
#endif

#endif
