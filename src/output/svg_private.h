/* svg_private.h - what the SVG plots (svg.c) and the forecast map
 * (svg_map.c) share: escaped text, coordinates with fixed precision,
 * lines and labels. */
#ifndef SEGC_SVG_PRIVATE_H
#define SEGC_SVG_PRIVATE_H

#include "output/output.h"

/* Appends 'text' with the XML special characters escaped and anything
 * outside printable ASCII dropped to '?'. */
void segc_svg_put_xml_text(segc_strbuf *b, const char *text);
/* Appends the coordinate 'v' with two decimals, without the locale. */
void segc_svg_put_coord(segc_strbuf *b, double v);
/* Appends a line from (x1, y1) to (x2, y2) with the attributes 'style'. */
void segc_svg_put_line(segc_strbuf *b, double x1, double y1, double x2,
	double y2, const char *style);
/* Appends 'text' at (x, y) with the given anchor. */
void segc_svg_put_text(segc_strbuf *b, double x, double y,
	const char *anchor, const char *text);
/* Appends the decade label 10^k at (x, y). */
void segc_svg_put_decade(segc_strbuf *b, double x, double y,
	const char *anchor, long k);
/* Appends the XML declaration and the <svg> start tag of a document of
 * 'w' by 'h' units on a white background. */
void segc_svg_begin(segc_strbuf *b, int w, int h);

#endif
