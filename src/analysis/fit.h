/* fit.h - exact linear least squares over Q, under the fit of a model to
 * measured times (doc/fit.md).  The CSV reader and the fit itself are
 * public (<segc/fit.h>).  The ownership rule of segc.h applies; nothing
 * here prints or exits. */
#ifndef SEGC_FIT_H
#define SEGC_FIT_H

#include <segc/segc.h>
#include <segc/segc_model.h>
#include <segc/fit.h>
#include <mpfr.h>

/* -------------------------------------------------- exact least squares */

/* The normal equations of an overdetermined linear system a . x = y over
 * Q, accumulated equation by equation: the Gram matrix A^T A and A^T y,
 * kept as integers over one common denominator, so that an equation
 * costs about n^2/2 integer multiply-adds. */
typedef struct segc_lsq segc_lsq;

SEGC_GIVE segc_lsq *segc_lsq_new(size_t n);
void segc_lsq_free(SEGC_TAKE segc_lsq *L);
/* Adds the equation sum_j 'a'[j] x_j = 'y' ('a' has n entries). */
void segc_lsq_add(SEGC_KEEP segc_lsq *L, const mpq_t *a, mpq_srcptr y);
/* Solves the normal equations exactly (fraction-free elimination on the
 * integer Gram matrix, names in order).  Returns the rank.  'x' (n
 * entries, initialised) gets the least-squares solution when the rank is
 * n; 'dependent' (n entries) is set non-zero for each unknown whose
 * column of coefficients is a combination of the columns before it. */
size_t segc_lsq_solve(SEGC_KEEP segc_lsq *L, mpq_t *x, int *dependent);
/* After segc_lsq_solve: for a dependent unknown 'j', a vector 'v' (n
 * entries) with v[j] = 1, zero after j and on other dependent unknowns,
 * such that A v = 0: the combination of unknowns the equations cannot
 * see. */
void segc_lsq_dependency(SEGC_KEEP const segc_lsq *L, size_t j, mpq_t *v);

/* ------------------------------------------- nonlinear least squares */

/* Evaluates equation 'i' at the point 'x' (n numbers): its residual
 * 'r' = w (measured - f(x)) and, unless 'jac' is NULL, jac[j] = w df/dx_j
 * (the weight w is 1, or 1/measured).  0, or -1 when it cannot be
 * evaluated there. */
typedef int (*segc_lm_row_fn)(void *arg, size_t i, mpfr_t *x, mpfr_ptr r,
	mpfr_t *jac);

/* A nonlinear least-squares problem for segc_lm_solve (lm.c), filled by
 * the caller (n, m, prec, max_iterations, row, arg, ss initialised at
 * 'prec', dependent and combination of n and n*n entries); the rest is
 * set by the solve. */
typedef struct segc_lm {
	size_t n, m;
	mpfr_prec_t prec;
	unsigned max_iterations;
	segc_lm_row_fn row;
	void *arg;
	/* the domain of each unknown: lo[j], hi[j] its bounds (NULL: none;
	 * the arrays themselves may be NULL); the steps are projected onto
	 * the box, and active[j] (n entries, filled by the solve) is -1 or
	 * +1 when the lower or upper bound holds at the end with the sum of
	 * squares still falling across it, else 0 */
	const mpq_srcptr *lo, *hi;
	int *active;
	unsigned iterations;     /* Jacobians evaluated after the first */
	int converged;           /* a relative step below 2^(-prec/2) */
	int stalled;             /* ... or no decrease at this precision */
	mpfr_t ss;               /* the final sum of squared residuals */
	size_t rank;             /* of the Jacobian at the end */
	int *dependent;          /* unknowns depending on earlier ones */
	int *combination;        /* row j: the earlier unknowns involved */
} segc_lm;

/* Levenberg-Marquardt from the starting point 'x' (n numbers of
 * precision prec, moved into the domains first), which gets the last
 * point.  -1 when an equation
 * cannot be evaluated at the start or at an accepted point (the row
 * function has recorded why), else 0 (see converged and rank). */
int segc_lm_solve(SEGC_KEEP segc_lm *lm, mpfr_t *x);

#endif
