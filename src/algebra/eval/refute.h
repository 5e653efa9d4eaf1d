/* refute.h - the cheap refutation of a >= b on the declared domains,
 * tried before its proof (refute.c): a point of the domains where a - b
 * is exactly negative settles that no proof of a >= b can exist, and
 * exact evaluation at a few points costs microseconds where a proof
 * takes milliseconds.  Only what no point refutes goes on to the proof,
 * so a result that waits for the proof is the same with or without the
 * refutation.  Not installed. */
#ifndef SEGC_REFUTE_H
#define SEGC_REFUTE_H

#include <segc/segc.h>

/* Non-zero when a - b is exactly below 0 at one of the fixed points of
 * segc_domain_point (domain_points.h) or, with 'constant', takes two
 * different values there: then a - b is not a constant >= 0 on 'dom'.
 * 0 says nothing.  For the dominance of a longest path's alternatives
 * (graph/dominance.c). */
int segc_refute_at_points(SEGC_KEEP const segc_domains *dom,
	SEGC_KEEP const segc_expr *a, SEGC_KEEP const segc_expr *b,
	int constant);

/* Non-zero when 'd' is exactly negative at some integer point of the
 * domains 'dom', found by a short fixed walk over the integer points of
 * segc_domain_point_integer: then no proof of d >= 0 on them exists.  0
 * says nothing, also when 'd' is costly to evaluate (sums, graph atoms,
 * a large mva_mem, many nodes or names).  For the prune of maxima
 * (structural/structural_max.c). */
int segc_refute_by_walk(SEGC_KEEP const segc_domains *dom,
	SEGC_KEEP const segc_expr *d);

#endif
