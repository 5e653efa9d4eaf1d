/* indexed_closed.c - closed forms of the time of a task graph with
 * indexed nodes, for the shapes where one is proved (FORMAT.md, "Indexed
 * nodes"); anything else keeps the atom. */
#include "graph/indexed.h"

/* The closed form of 'g', or NULL (see indexed.h). */
segc_expr *segc_indexed_closed(const segc_graph *g)
{
	(void)g;
	return NULL;
}
