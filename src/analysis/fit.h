/* fit.h - exact linear least squares over Q, under the fit of a model to
 * measured times (doc/fit.md).  The CSV reader and the fit itself are
 * public (<segc/fit.h>).  The ownership rule of segc.h applies; nothing
 * here prints or exits. */
#ifndef SEGC_FIT_H
#define SEGC_FIT_H

#include <segc/segc.h>
#include <segc/segc_model.h>
#include <segc/fit.h>

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

#endif
