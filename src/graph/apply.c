/* apply.c - a setting applied to every expression of a lowered program,
 * the counters of its sum regions left as names. */
#include "graph/graph.h"

/* The map function of segc_lowered_map: the setting under the counters
 * 'bound' in scope. */
static segc_expr *map_expr(void *arg, segc_expr *e, const char *const *bound,
	size_t nbound, const segc_srcloc *loc)
{
	segc_expr *v = segc_scoped_apply_expr(arg, e, bound, nbound, loc);

	segc_expr_free(e);
	return v;
}

/* Applies setting 's' to every expression of 'lw' (see graph.h). */
int segc_setting_apply_lowered(segc_ctx *ctx, const segc_setting *s,
	segc_lowered *lw)
{
	segc_scoped_apply *G = segc_scoped_apply_new(ctx, s);
	int rc = segc_lowered_map(lw, map_expr, G);

	segc_scoped_apply_free(G);
	return rc;
}
