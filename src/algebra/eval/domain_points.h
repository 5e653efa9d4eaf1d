/* domain_points.h - points inside the box of declared domains
 * (domain_points.c), at which formulas are evaluated exactly to rule out
 * a claim such as a >= b before any proof (refute.h).  Not installed. */
#ifndef SEGC_DOMAIN_POINTS_H
#define SEGC_DOMAIN_POINTS_H

#include <stddef.h>
#include <gmp.h>
#include <segc/segc.h>

/* Points per box: three inside it, then its lowest and highest corner. */
#define SEGC_DOMAIN_POINTS 5

/* Sets 'v' to the value of the name 'name' (number 'j' of the names of
 * the formulas compared) at point 'p' (0 .. SEGC_DOMAIN_POINTS - 1),
 * inside its declared domain in 'dom' (may be NULL), an integer where it
 * must be: 0, or -1 when the domain holds no such value. */
int segc_domain_point(mpq_t v, const segc_domains *dom, const char *name,
	size_t j, int p);

/* More points for many comparisons of the same formulas.  Below
 * SEGC_DOMAIN_MIXED, each name's value at point 'p' is spread over its
 * domain by a hash of 'j' and 'p', so that the order of the names differs
 * from point to point; from there on, point SEGC_DOMAIN_MIXED + s puts
 * name number s high in its domain and every other name at its lowest
 * value (0 without a bound), so that one name's part shows.  Integers
 * where they must be; -1 when the domain holds no such value. */
#define SEGC_DOMAIN_MIXED 8
int segc_domain_point_mixed(mpq_t v, const segc_domains *dom,
	const char *name, size_t j, int p);

/* Integer points, for a walk that moves one name at a time (refute.c):
 * sets 'v' to the integer of the declared domain of 'name' at offset
 * number 'k' (0 .. SEGC_DOMAIN_INTEGER_POINTS - 1) of a fixed list from
 * its lower bound (or down from its upper bound when it has only that;
 * a positive integer without a bound), clipped to the upper bound: 0, or
 * -1 when the domain holds no integer. */
#define SEGC_DOMAIN_INTEGER_POINTS 10
int segc_domain_point_integer(mpq_t v, const segc_domains *dom,
	const char *name, size_t k);

#endif
