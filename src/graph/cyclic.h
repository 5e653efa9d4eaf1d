/* cyclic.h - max-plus cyclic task graphs (cyclic.c): the time of a loop
 * region whose iterations overlap through forward edges.  Private to the
 * library. */
#ifndef SEGC_CYCLIC_H
#define SEGC_CYCLIC_H

#include <segc/segc.h>
#include "model/model.h"

/* An arc of a cyclic region: nodes numbered from 0 in topological order
 * of the arcs of distance 0; 'cost' NULL for none (the caller owns it). */
typedef struct segc_cyclic_arc {
	size_t from, to;
	unsigned long dist;
	segc_expr *cost;
} segc_cyclic_arc;

/* A cyclic region: 'count' iterations of 'm' nodes (the last one the
 * exit) of costs 'cost' (NULL entries for none), 'k' arcs; the caller
 * owns every expression. */
typedef struct segc_cyclic {
	segc_expr *count;
	const char *var;          /* the counter the costs may use, or NULL */
	size_t m, k;
	segc_expr **cost;
	segc_cyclic_arc *arcs;
} segc_cyclic;

/* The time of region 'g' (its arcs get sorted): a closed form
 * piecewise in the count when every cost is a number (canonical under
 * 'dom', may be NULL) and the schedule becomes periodic, or when the
 * domains prove one for symbolic costs (segc_cyclic_closed), else the
 * recurrence atom maxplus(...), or maxplusv(var, ...) when a cost uses
 * the counter 'var' (see algebra/maxplus.h); NULL when max_work ran out
 * (the limit error recorded). */
SEGC_GIVE segc_expr *segc_cyclic_time(segc_ctx *ctx, const segc_domains *dom,
	segc_cyclic *g);

/* The closed form of region 'g' (arcs sorted by target, then source) with
 * its costs taken as they are, proved on the domains 'dom' (may be NULL)
 * by a symbolic propagation (cyclic_closed.c): lambda*n + c from the
 * first n0 where it holds, the earlier values as if(n <= j, T(j), ...),
 * pieces if(x <= t, ..., ...) where the critical path changes at a
 * threshold t of one name x.  NULL (nothing recorded in 'ctx') when the
 * domains do not decide it, when every cost is a number (cyclic.c's
 * numeric path), or when a cost depends on the count; NULL with the limit
 * error kept when max_work ran out (segc_cyclic_work_out). */
SEGC_GIVE segc_expr *segc_cyclic_closed(segc_ctx *ctx, const segc_domains *dom,
	const segc_cyclic *g);
/* Non-zero when 'ctx' has spent more than its max_work: the limit error
 * is then recorded and every later step fails. */
int segc_cyclic_work_out(const segc_ctx *ctx);

#endif
