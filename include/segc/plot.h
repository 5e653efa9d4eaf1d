/* plot.h - series of points drawn as an SVG log-log plot (what
 * 'segc eval --plot' writes).  The ownership rule of segc.h applies. */
#ifndef SEGC_PLOT_H
#define SEGC_PLOT_H

#include <segc/segc.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One series: a label and 'n' points.  A plain data record of borrowed
 * arrays, filled by the caller. */
typedef struct segc_svg_series {
	const char *label;
	size_t n;
	const double *x, *y;
} segc_svg_series;

/* A log-log plot of the series (non-positive points left out): axes,
 * decade ticks and labels, one polyline per series, a legend.  Text is
 * escaped.  Returns the SVG document (malloc'd), or NULL when no point is
 * plottable. */
SEGC_API SEGC_GIVE char *segc_svg_loglog(SEGC_KEEP const char *title,
	SEGC_KEEP const char *xlabel, SEGC_KEEP const char *ylabel,
	size_t nseries, SEGC_KEEP const segc_svg_series *series);

#ifdef __cplusplus
}
#endif

#endif
