/* kernel_private.h - what the files of the kernels share: the sign
 * proofs (kernel_sign.c) and the list of alternatives of the normal form
 * of max and min (kernel_extremum.c, kernel_content.c).  Not installed. */
#ifndef SEGC_KERNEL_PRIVATE_H
#define SEGC_KERNEL_PRIVATE_H

#include "algebra/canon/canon_private.h"

/* One alternative of a max/min being normalised. */
struct alt {
	segc_rf r;
	segc_expr *e;   /* its canonical expression, once built */
};

/* A growable list of alternatives. */
struct alts {
	struct alt *v;
	size_t n, cap;
};

/* kernel_sign.c: the bounds of atom 'v' and whether it is an integer;
 * non-zero when it is >= 0 by its nature (a sqrt). */
int segc_kernel_atom_bounds(segc_canon *st, size_t v, mpq_srcptr *lo,
	mpq_srcptr *hi, int *integer);
/* kernel_sign.c: the provable signs of polynomial 'p' on the box. */
unsigned segc_kernel_poly_sign(segc_canon *st, const segc_poly *p);
/* kernel_sign.c: the variable x of sqrt atom 's' when x is an atom proven
 * >= 0; else (size_t)-1. */
size_t segc_kernel_sqrt_base(segc_canon *st, size_t s);

/* kernel_extremum.c: max (ismax) or min of canonical 'args' (taken), in
 * normal form; NULL with a diagnostic. */
segc_expr *segc_kernel_extremum(segc_canon *st, const char *name,
	size_t n, segc_expr **args, int ismax);
/* kernel_extremum.c: 1 when atom 'a' is an extremum of the kind 'ismax',
 * -1 of the other kind, 0 otherwise. */
int segc_kernel_extremum_kind(const segc_expr *a, int ismax);

/* kernel_content.c: c = the termwise minimum of 'c' and 'p': for each
 * monomial the smaller of its two coefficients, an absent monomial
 * counting as 0. */
void segc_kernel_min_terms(segc_poly *c, const segc_poly *p);
/* kernel_content.c: takes the termwise minimum of the alternatives 'a'
 * out of them and adds it to 'c'; 0 or -1. */
int segc_kernel_extract_common(segc_canon *st, struct alts *a, int ismax,
	segc_poly *c);
/* kernel_content.c: the same for alternatives of which some are
 * quotients p/q, each split p = s*q + rem by the division by q: the
 * termwise minimum of the polynomial parts s (a polynomial alternative
 * is its own) is taken out; 0 or -1. */
int segc_kernel_extract_common_rf(segc_canon *st, struct alts *a,
	int ismax, segc_poly *c);
/* kernel_content.c: divides the alternatives 'a' by their content, the
 * number 'g' times the monomial 'mexp' (of 'n' variables); 0 or -1. */
int segc_kernel_extract_content(segc_canon *st, struct alts *a, mpq_t g,
	int32_t *mexp, size_t n);

/* kernel_points.c: the values of canonical expressions at points of the
 * domains 'dom', fixed per name and cached per node, charged to 'ctx'. */
segc_point_cache *segc_point_cache_new(segc_ctx *ctx,
	const segc_domains *dom);
/* The domains 'c' was made for. */
const segc_domains *segc_point_cache_domains(const segc_point_cache *c);
/* 1 when a point of the domains shows that 'hi' does not dominate 'lo'
 * (hi < lo there for a max, hi > lo for a min), so that no proof of it
 * exists; 0 when none does; -1 when the evaluations passed max_work. */
int segc_point_cache_refutes(segc_point_cache *c, const segc_expr *hi,
	const segc_expr *lo, int ismax);

#endif
