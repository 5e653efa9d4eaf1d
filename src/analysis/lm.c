/* lm.c - nonlinear least squares by Levenberg-Marquardt in MPFR, under
 * the fit of a formula that is not linear in its free names (fit.c,
 * doc/fit.md): damped Gauss-Newton steps (J^T J + lambda D) d = J^T r with
 * Marquardt's scaling D (the largest diagonal of J^T J seen), solved by
 * Cholesky, each trial point projected onto the box of the unknowns'
 * domains (a projected Levenberg-Marquardt); convergence when the
 * largest relative step falls below 2^(-prec/2); the bounds that hold at
 * the end; the rank of the Jacobian there, naming the unknowns it cannot
 * tell apart. */
#include <config.h>

#include <stdlib.h>

#include "analysis/fit.h"
#include "base/util.h"

/* The state of one solve: the normal matrix A = J^T J, g = J^T r, the
 * scaling, a trial point and scratch, all at the precision of the
 * problem. */
typedef struct lm_state {
	segc_lm *lm;
	size_t n;
	mpfr_t *A, *g, *D, *sd, *M, *d, *xt, *jac, r, S, St, lambda, t, u;
	int *frozen;    /* at a bound that the descent direction leaves */
} lm_state;

/* Allocates 'k' numbers of precision 'prec', set to 0. */
static mpfr_t *vec(size_t k, mpfr_prec_t prec)
{
	mpfr_t *v = segc_xcalloc(k ? k : 1, sizeof *v);
	size_t i;

	for (i = 0; i < k; i++)
		mpfr_init2(v[i], prec), mpfr_set_zero(v[i], 1);
	return v;
}

/* Releases 'k' numbers. */
static void vec_free(mpfr_t *v, size_t k)
{
	size_t i;

	for (i = 0; i < k; i++)
		mpfr_clear(v[i]);
	free(v);
}

/* The sum of squared residuals at 'x' into 'S', and with 'normal'
 * non-zero A and g; -1 when an equation cannot be evaluated there. */
static int evaluate(lm_state *L, mpfr_t *x, mpfr_t S, int normal)
{
	segc_lm *lm = L->lm;
	size_t i, j, k, n = L->n;

	mpfr_set_zero(S, 1);
	if (normal)
		for (j = 0; j < n * n; j++)
			mpfr_set_zero(L->A[j], 1);
	for (j = 0; normal && j < n; j++)
		mpfr_set_zero(L->g[j], 1);
	for (i = 0; i < lm->m; i++) {
		if (lm->row(lm->arg, i, x, L->r, normal ? L->jac : NULL))
			return -1;
		mpfr_fma(S, L->r, L->r, S, MPFR_RNDN);
		if (!normal)
			continue;
		for (j = 0; j < n; j++) {
			if (mpfr_zero_p(L->jac[j]))
				continue;
			mpfr_fma(L->g[j], L->jac[j], L->r, L->g[j], MPFR_RNDN);
			for (k = j; k < n; k++)
				mpfr_fma(L->A[j * n + k], L->jac[j], L->jac[k],
					L->A[j * n + k], MPFR_RNDN);
		}
	}
	for (j = 0; normal && j < n; j++)
		for (k = 0; k < j; k++)
			mpfr_set(L->A[j * n + k], L->A[k * n + j], MPFR_RNDN);
	return mpfr_number_p(S) ? 0 : -1;
}

/* Solves (A + lambda D) d = g by Cholesky into L->d, scaled to a unit
 * diagonal of D (s = sqrt(D): (S^-1 A S^-1 + lambda I) S d = S^-1 g),
 * which keeps the precision when the names differ in scale by many
 * orders of magnitude; -1 when the matrix is not positive definite at
 * this precision. */
static int damped_step(lm_state *L)
{
	size_t n = L->n, i, j, k;
	mpfr_t *M = L->M;

	for (i = 0; i < n; i++)
		mpfr_sqrt(L->sd[i], L->D[i], MPFR_RNDN);
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++) {
			mpfr_div(M[i * n + j], L->A[i * n + j], L->sd[i], MPFR_RNDN);
			mpfr_div(M[i * n + j], M[i * n + j], L->sd[j], MPFR_RNDN);
		}
	for (i = 0; i < n; i++)
		mpfr_add(M[i * n + i], M[i * n + i], L->lambda, MPFR_RNDN);
	for (i = 0; i < n; i++)         /* a frozen unknown does not move */
		for (j = 0; L->frozen[i] && j < n; j++) {
			mpfr_set_ui(M[i * n + j], i == j, MPFR_RNDN);
			mpfr_set_ui(M[j * n + i], i == j, MPFR_RNDN);
		}
	for (j = 0; j < n; j++) {
		for (k = 0; k < j; k++)
			mpfr_fms(M[j * n + j], M[j * n + k], M[j * n + k],
				M[j * n + j], MPFR_RNDN), mpfr_neg(M[j * n + j],
				M[j * n + j], MPFR_RNDN);
		if (mpfr_sgn(M[j * n + j]) <= 0 || !mpfr_number_p(M[j * n + j]))
			return -1;
		mpfr_sqrt(M[j * n + j], M[j * n + j], MPFR_RNDN);
		for (i = j + 1; i < n; i++) {
			for (k = 0; k < j; k++) {
				mpfr_mul(L->t, M[i * n + k], M[j * n + k], MPFR_RNDN);
				mpfr_sub(M[i * n + j], M[i * n + j], L->t, MPFR_RNDN);
			}
			mpfr_div(M[i * n + j], M[i * n + j], M[j * n + j],
				MPFR_RNDN);
		}
	}
	for (i = 0; i < n; i++) {          /* L y = S^-1 g */
		mpfr_div(L->d[i], L->g[i], L->sd[i], MPFR_RNDN);
		if (L->frozen[i])
			mpfr_set_zero(L->d[i], 1);
		for (k = 0; k < i; k++) {
			mpfr_mul(L->t, M[i * n + k], L->d[k], MPFR_RNDN);
			mpfr_sub(L->d[i], L->d[i], L->t, MPFR_RNDN);
		}
		mpfr_div(L->d[i], L->d[i], M[i * n + i], MPFR_RNDN);
	}
	for (i = n; i-- > 0;) {            /* L^T d = y */
		for (k = i + 1; k < n; k++) {
			mpfr_mul(L->t, M[k * n + i], L->d[k], MPFR_RNDN);
			mpfr_sub(L->d[i], L->d[i], L->t, MPFR_RNDN);
		}
		mpfr_div(L->d[i], L->d[i], M[i * n + i], MPFR_RNDN);
	}
	for (i = 0; i < n; i++)
		mpfr_div(L->d[i], L->d[i], L->sd[i], MPFR_RNDN);
	return 0;
}

/* Moves 'x' into the box of the domains. */
static void project(lm_state *L, mpfr_t *x)
{
	const segc_lm *lm = L->lm;
	size_t j;

	for (j = 0; j < L->n; j++) {
		if (lm->lo && lm->lo[j] && mpfr_cmp_q(x[j], lm->lo[j]) < 0)
			mpfr_set_q(x[j], lm->lo[j], MPFR_RNDU);
		if (lm->hi && lm->hi[j] && mpfr_cmp_q(x[j], lm->hi[j]) > 0)
			mpfr_set_q(x[j], lm->hi[j], MPFR_RNDD);
	}
}

/* Freezes the unknowns that are at a bound of their domain where the
 * descent direction g = J^T r points out of it. */
static void freeze(lm_state *L, mpfr_t *x)
{
	const segc_lm *lm = L->lm;
	size_t j;

	for (j = 0; j < L->n; j++)
		L->frozen[j] = (lm->lo && lm->lo[j] && mpfr_cmp_q(x[j],
			lm->lo[j]) <= 0 && mpfr_sgn(L->g[j]) < 0) ||
			(lm->hi && lm->hi[j] && mpfr_cmp_q(x[j], lm->hi[j]) >= 0 &&
			mpfr_sgn(L->g[j]) > 0);
}

/* Sets lm->active: a bound that 'x' is at, where the gradient of the sum
 * of squares (-2 g) still points out of the box by more than rounding. */
static void active_bounds(lm_state *L, mpfr_t *x)
{
	segc_lm *lm = L->lm;
	size_t j;
	long e = -(long)(lm->prec / 2);

	for (j = 0; lm->active && j < L->n; j++) {
		lm->active[j] = 0;
		mpfr_mul(L->t, L->A[j * L->n + j], L->S, MPFR_RNDN);
		mpfr_sqrt(L->t, L->t, MPFR_RNDN);
		mpfr_mul_2si(L->t, L->t, e, MPFR_RNDN);
		mpfr_abs(L->u, L->g[j], MPFR_RNDN);
		if (mpfr_cmp(L->u, L->t) <= 0)
			continue;
		if (lm->lo && lm->lo[j] && mpfr_cmp_q(x[j], lm->lo[j]) == 0 &&
		    mpfr_sgn(L->g[j]) < 0)
			lm->active[j] = -1;
		if (lm->hi && lm->hi[j] && mpfr_cmp_q(x[j], lm->hi[j]) == 0 &&
		    mpfr_sgn(L->g[j]) > 0)
			lm->active[j] = 1;
	}
}

/* Non-zero when every |d_j| <= tol (|x_j| + tol), tol = 2^(-prec/2). */
static int small_step(lm_state *L, mpfr_t *x)
{
	size_t j;
	long e = -(long)(L->lm->prec / 2);

	for (j = 0; j < L->n; j++) {
		mpfr_abs(L->t, x[j], MPFR_RNDN);
		mpfr_set_ui_2exp(L->u, 1, e, MPFR_RNDN);
		mpfr_add(L->t, L->t, L->u, MPFR_RNDN);
		mpfr_mul_2si(L->t, L->t, e, MPFR_RNDN);
		mpfr_abs(L->u, L->d[j], MPFR_RNDN);
		if (mpfr_cmp(L->u, L->t) > 0)
			return 0;
	}
	return 1;
}

/* Sets the scaling: D_j the largest A_jj seen, 1 while that is 0. */
static void update_scaling(lm_state *L)
{
	size_t j;

	for (j = 0; j < L->n; j++)
		if (mpfr_cmp(L->A[j * L->n + j], L->D[j]) > 0)
			mpfr_set(L->D[j], L->A[j * L->n + j], MPFR_RNDN);
		else if (mpfr_zero_p(L->D[j]))
			mpfr_set_ui(L->D[j], 1, MPFR_RNDN);
}

/* The rank of J at the solution: elimination on A scaled to a unit
 * diagonal, a pivot below 2^(-prec/2) counted as zero; lm->dependent[j]
 * set for the unknowns that depend on earlier ones, lm->combination
 * (n x n) row j the unknowns before j that unknown j combines with. */
static void rank(lm_state *L)
{
	segc_lm *lm = L->lm;
	size_t n = L->n, i, j, k;
	mpfr_t *C = L->M;
	long e = -(long)(lm->prec / 2);

	lm->rank = 0;
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++) {
			mpfr_set(C[i * n + j], L->A[i * n + j], MPFR_RNDN);
			if (mpfr_zero_p(L->A[i * n + i]) ||
			    mpfr_zero_p(L->A[j * n + j])) {
				mpfr_set_zero(C[i * n + j], 1);
				continue;
			}
			mpfr_mul(L->t, L->A[i * n + i], L->A[j * n + j], MPFR_RNDN);
			mpfr_sqrt(L->t, L->t, MPFR_RNDN);
			mpfr_div(C[i * n + j], C[i * n + j], L->t, MPFR_RNDN);
		}
	mpfr_set_ui_2exp(L->u, 1, e, MPFR_RNDN);
	for (k = 0; k < n; k++) {
		lm->dependent[k] = mpfr_cmp(C[k * n + k], L->u) <= 0;
		if (lm->dependent[k])
			continue;
		lm->rank++;
		for (i = k + 1; i < n; i++) {
			mpfr_div(L->t, C[i * n + k], C[k * n + k], MPFR_RNDN);
			for (j = k; j < n; j++) {
				mpfr_mul(L->r, L->t, C[k * n + j], MPFR_RNDN);
				mpfr_sub(C[i * n + j], C[i * n + j], L->r, MPFR_RNDN);
			}
		}
	}
	/* the combination of dependent unknown j: back substitution over
	 * the pivot rows before j with column j as the right side */
	for (j = 0; j < n; j++) {
		for (i = 0; i < n; i++)
			lm->combination[j * n + i] = 0;
		if (!lm->dependent[j])
			continue;
		for (i = j; i-- > 0;) {
			if (lm->dependent[i])
				continue;
			mpfr_set(L->d[i], C[i * n + j], MPFR_RNDN);
			for (k = i + 1; k < j; k++) {
				if (lm->dependent[k])
					continue;
				mpfr_mul(L->t, C[i * n + k], L->d[k], MPFR_RNDN);
				mpfr_sub(L->d[i], L->d[i], L->t, MPFR_RNDN);
			}
			mpfr_div(L->d[i], L->d[i], C[i * n + i], MPFR_RNDN);
			mpfr_abs(L->t, L->d[i], MPFR_RNDN);
			lm->combination[j * n + i] = mpfr_cmp(L->t, L->u) > 0;
		}
	}
}

/* Solves (see fit.h). */
int segc_lm_solve(segc_lm *lm, mpfr_t *x)
{
	lm_state L;
	size_t n = lm->n, j;
	int rc = 0, accepted;
	mpfr_prec_t p = lm->prec;

	L.lm = lm;
	L.n = n;
	L.A = vec(n * n, p);
	L.M = vec(n * n, p);
	L.g = vec(n, p);
	L.D = vec(n, p);
	L.sd = vec(n, p);
	L.d = vec(n, p);
	L.xt = vec(n, p);
	L.jac = vec(n, p);
	L.frozen = segc_xcalloc(n + 1, sizeof *L.frozen);
	mpfr_inits2(p, L.r, L.S, L.St, L.lambda, L.t, L.u, (mpfr_ptr)0);
	lm->iterations = 0;
	lm->converged = 0;
	lm->stalled = 0;
	project(&L, x);
	if (evaluate(&L, x, L.S, 1)) {
		rc = -1;
		goto out;
	}
	mpfr_set_ui_2exp(L.lambda, 1, -10, MPFR_RNDN);
	while (!lm->converged && lm->iterations < lm->max_iterations) {
		lm->iterations++;
		update_scaling(&L);
		freeze(&L, x);
		accepted = 0;
		while (!accepted) {
			if (!damped_step(&L)) {
				for (j = 0; j < n; j++)
					mpfr_add(L.xt[j], x[j], L.d[j], MPFR_RNDN);
				project(&L, L.xt);
				for (j = 0; j < n; j++)	/* the step taken */
					mpfr_sub(L.d[j], L.xt[j], x[j], MPFR_RNDN);
				accepted = !evaluate(&L, L.xt, L.St, 0) &&
					mpfr_cmp(L.St, L.S) <= 0;
				if (!accepted && small_step(&L, x)) {
					/* no decrease at this precision */
					lm->converged = lm->stalled = 1;
					break;
				}
			}
			if (!accepted) {
				mpfr_mul_ui(L.lambda, L.lambda, 4, MPFR_RNDN);
				if (mpfr_cmp_ui_2exp(L.lambda, 1, (mpfr_exp_t)p) > 0) {
					lm->converged = lm->stalled = 1;
					break;
				}
			}
		}
		if (!accepted)
			break;
		lm->converged = small_step(&L, x) || mpfr_equal_p(L.St, L.S) ||
			mpfr_zero_p(L.St);
		for (j = 0; j < n; j++)
			mpfr_set(x[j], L.xt[j], MPFR_RNDN);
		if (evaluate(&L, x, L.S, 1)) {
			rc = -1;
			goto out;
		}
		mpfr_div_ui(L.lambda, L.lambda, 3, MPFR_RNDN);
		if (mpfr_cmp_ui_2exp(L.lambda, 1, -(mpfr_exp_t)p) < 0)
			mpfr_set_ui_2exp(L.lambda, 1, -(mpfr_exp_t)p, MPFR_RNDN);
	}
	active_bounds(&L, x);
	rank(&L);
	mpfr_set(lm->ss, L.S, MPFR_RNDN);
out:
	vec_free(L.A, n * n);
	vec_free(L.M, n * n);
	vec_free(L.g, n);
	vec_free(L.D, n);
	vec_free(L.sd, n);
	vec_free(L.d, n);
	vec_free(L.xt, n);
	vec_free(L.jac, n);
	free(L.frozen);
	mpfr_clears(L.r, L.S, L.St, L.lambda, L.t, L.u, (mpfr_ptr)0);
	return rc;
}
