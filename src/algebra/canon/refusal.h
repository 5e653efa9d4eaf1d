/* refusal.h - whether an expression is refused as bad input by the
 * canonical form, without the cost of its closed sums (private to the
 * library; used by the check of every expression of a lowered program,
 * graph/locate.c). */
#ifndef SEGC_REFUSAL_H
#define SEGC_REFUSAL_H

#include <segc/segc.h>

/* 0 when 'e' has a canonical form under 'dom' as far as its parts go,
 * -1 (the diagnostics in 'ctx') when it is refused.  A sum over a range
 * whose bounds are not both numbers is converted as far as its bounds and its
 * body over the counter's range, and then kept whole: summing it refuses
 * nothing its body does not (the refusals are of numbers and of
 * conditions the body already meets).  A max or min of arguments that
 * are not all numbers is kept whole the same way once its arguments are
 * converted: the dominance tests between them refuse nothing.  A refusal found so is confirmed by
 * the whole canonical form, since a sum kept whole hides the sign its
 * closed form would prove; so nothing is refused that segc_canonical()
 * accepts. */
int segc_canonical_refused(segc_ctx *ctx, const segc_domains *dom,
	const segc_expr *e);

#endif
