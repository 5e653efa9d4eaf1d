/* structural.h - the light simplifier of structural formulas (private to
 * the library).  See structural.c for the rules. */
#ifndef SEGC_STRUCTURAL_H
#define SEGC_STRUCTURAL_H

#include <segc/segc.h>

/* 'e' simplified inside, its shape kept: like terms of a sum merged, equal
 * factors of a product merged, a symbolic factor common to all terms of a
 * sum pulled out.  Deterministic, linear in the size of the DAG of 'e',
 * without recursion.  The result has the same canonical form as 'e'.
 * NULL gives NULL. */
SEGC_GIVE segc_expr *segc_structural_simplify(SEGC_TAKE segc_expr *e);

/* 'e' with its maxima and minima pruned on the domains 'dom': nested ones
 * flattened, an alternative that another is proved to dominate dropped
 * (structural_max.c).  The result equals 'e' on the domains.  NULL gives
 * NULL. */
SEGC_GIVE segc_expr *segc_structural_prune(SEGC_KEEP segc_ctx *ctx,
	SEGC_KEEP const segc_domains *dom, SEGC_TAKE segc_expr *e);

/* The sum 'e' with the gcd of its numbers and the powers common to its
 * terms taken out, c*b^k*(...) (structural_factor.c); NULL when 'e' is
 * not a sum or has neither (e is freed either way). */
SEGC_GIVE segc_expr *segc_structural_factor(SEGC_TAKE segc_expr *e);

/* The readable form of the structural formula 'e': each node replaced,
 * bottom-up, by the shortest of the equal forms structural_readable.c
 * lists (decided conditions, closed sums of constants, the canonical form
 * of the node, its content and common factors out).  The result equals
 * 'e' on the domains 'dom'.  NULL gives NULL. */
SEGC_GIVE segc_expr *segc_structural_readable(SEGC_KEEP segc_ctx *ctx,
	SEGC_KEEP const segc_domains *dom, SEGC_TAKE segc_expr *e);

/* Named subexpressions of the 'nf' formulas 'f' (NULL ones skipped),
 * each replaced in place by itself with its sums' counters given
 * readable names and its named parts replaced by their names; 'out'
 * gets the definitions, in the order of first use (structural_where.c).
 * 'hints' (may be NULL) offers names; 'dom' is the domains their values
 * are canonical on.  0 (also when nothing is named). */
int segc_structural_where(SEGC_KEEP segc_ctx *ctx,
	SEGC_KEEP const segc_domains *dom, const segc_where_hints *hints,
	segc_expr **f, size_t nf, segc_where_list *out);

#endif
