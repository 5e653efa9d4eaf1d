/* polyflint.h - the bridge between segc_poly and FLINT's fmpq_mpoly: a
 * FLINT context over the variables that some operands use, and the
 * conversions both ways, with the monomial shift that makes Laurent
 * exponents non-negative for FLINT.  Private to the polynomial files. */
#ifndef SEGC_POLYFLINT_H
#define SEGC_POLYFLINT_H

#include <flint/fmpq_mpoly.h>
#include "algebra/poly/poly.h"

/* A FLINT context over the variables used by some polynomials, in the
 * order of segc's variables (so that FLINT's lex order is segc's). */
typedef struct segc_flint {
	size_t nvars;        /* segc's variables */
	size_t nused;        /* FLINT's variables: the used ones */
	size_t *map;         /* nused segc variable indices, increasing */
	fmpq_mpoly_ctx_t ctx;
} segc_flint;

/* Makes 'f' over the variables that occur in any of the 'n' polynomials
 * 'v' (all with the same nvars). */
void segc_flint_init(segc_flint *f, size_t n, const segc_poly *const *v);
void segc_flint_clear(segc_flint *f);
/* A = p * x^-shift ('shift' has p->nvars_ entries, at most the smallest
 * exponent of each variable, or NULL for none). */
void segc_flint_from_poly(const segc_flint *f, fmpq_mpoly_t A,
	const segc_poly *p, const int32_t *shift);
/* r = A * x^shift over f->nvars variables, in segc's order; checks the
 * exponents (unless 'exps_checked': the caller has checked them before
 * A was made, as a product's or a power's are from the degrees of its
 * operands), the terms and the coefficients first, as segc_poly_check
 * would check 'r', and leaves 'r' alone when one is over its limit. */
int segc_flint_to_poly(const segc_poly_lim *lim, const segc_flint *f,
	segc_poly *r, const fmpq_mpoly_t A, const int32_t *shift,
	int exps_checked);
/* Limbs of the largest numerator or denominator of the coefficients of
 * 'A' (at least 1), bounded from above without a gcd per term. */
double segc_flint_coeff_limbs(const segc_flint *f, const fmpq_mpoly_t A);
/* Checks the coefficients of 'A' against lim->max_coeff_bits, exactly
 * (the bound first, the reduced fraction only when the bound fails). */
int segc_flint_check_coeffs(const segc_poly_lim *lim, const segc_flint *f,
	const fmpq_mpoly_t A);

#endif
