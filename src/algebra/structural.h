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

#endif
