/* indexed.h - the formula of an arc-form graph with indexed nodes
 * (FORMAT.md, "Indexed nodes"): a proved closed form (indexed_closed.c)
 * or the atom taskpath(...) (indexed.c).  Private to the library. */
#ifndef SEGC_GRAPH_INDEXED_H
#define SEGC_GRAPH_INDEXED_H

#include <segc/segc.h>
#include "model/model.h"

/* The time of 'g' (checked, with indexed nodes): its closed form when
 * one is proved, else its atom; NULL with a diagnostic when an
 * expression of the indices cannot be compiled. */
SEGC_GIVE segc_expr *segc_indexed_formula(segc_ctx *ctx, const segc_graph *g);
/* The atom taskpath(...) of 'g'; NULL with a diagnostic. */
SEGC_GIVE segc_expr *segc_indexed_atom(segc_ctx *ctx, const segc_graph *g);
/* The closed form of the time of 'g' when one of the shapes that
 * indexed_closed.c knows proves it, else NULL. */
SEGC_GIVE segc_expr *segc_indexed_closed(const segc_graph *g);
/* Non-zero when 'e' names one of the 'n' indices 'names'. */
int segc_indexed_uses(const segc_expr *e, char *const *names, size_t n);

#endif
