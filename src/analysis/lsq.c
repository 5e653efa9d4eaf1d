/* lsq.c - exact linear least squares over Q: the normal equations
 * A^T A x = A^T y accumulated as integers over one common denominator,
 * solved by fraction-free (Bareiss) elimination, with the rank and the
 * combinations of unknowns the equations cannot tell apart. */
#include <config.h>

#include <stdlib.h>

#include "analysis/fit.h"
#include "base/util.h"

struct segc_lsq {
	size_t n;
	mpz_t *g;        /* n x (n + 1): [A^T A | A^T y] times 'den', upper */
	mpz_t den;       /* the common denominator of the accumulated sums */
	mpz_t *num;      /* scratch: one equation over its denominator */
	mpz_t d, d2, m;  /* scratch */
	int solved;      /* 'g' holds the echelon form */
	int *pivot;      /* after solving: non-zero for independent unknowns */
};

/* Entry ('i', 'j') of the augmented matrix (j == n: the right side). */
static mpz_ptr at(const segc_lsq *L, size_t i, size_t j)
{
	return L->g[i * (L->n + 1) + j];
}

/* A new accumulator for 'n' unknowns. */
segc_lsq *segc_lsq_new(size_t n)
{
	segc_lsq *L = segc_xcalloc(1, sizeof *L);
	size_t i;

	L->n = n;
	L->g = segc_xcalloc(segc_xmul_size(n, n + 1), sizeof(mpz_t));
	for (i = 0; i < n * (n + 1); i++)
		mpz_init(L->g[i]);
	L->num = segc_xcalloc(n + 1, sizeof(mpz_t));
	for (i = 0; i <= n; i++)
		mpz_init(L->num[i]);
	L->pivot = segc_xcalloc(n + 1, sizeof(int));
	mpz_init_set_ui(L->den, 1);
	mpz_init(L->d);
	mpz_init(L->d2);
	mpz_init(L->m);
	return L;
}

/* Releases 'L'. */
void segc_lsq_free(segc_lsq *L)
{
	size_t i;

	if (!L)
		return;
	for (i = 0; i < L->n * (L->n + 1); i++)
		mpz_clear(L->g[i]);
	for (i = 0; i <= L->n; i++)
		mpz_clear(L->num[i]);
	mpz_clear(L->den);
	mpz_clear(L->d);
	mpz_clear(L->d2);
	mpz_clear(L->m);
	free(L->g);
	free(L->num);
	free(L->pivot);
	free(L);
}

/* Sets L->d to the least common denominator of the equation ('a', 'y')
 * and L->num to its entries times L->d. */
static void equation_integers(segc_lsq *L, const mpq_t *a, mpq_srcptr y)
{
	size_t j;

	mpz_set(L->d, mpq_denref(y));
	for (j = 0; j < L->n; j++)
		if (mpz_cmp_ui(mpq_denref(a[j]), 1))
			mpz_lcm(L->d, L->d, mpq_denref(a[j]));
	for (j = 0; j <= L->n; j++) {
		mpq_srcptr q = j < L->n ? a[j] : y;

		mpz_divexact(L->num[j], L->d, mpq_denref(q));
		mpz_mul(L->num[j], L->num[j], mpq_numref(q));
	}
}

/* Makes L->den a multiple of L->d2, scaling the sums kept so far. */
static void common_denominator(segc_lsq *L)
{
	size_t i;

	if (mpz_divisible_p(L->den, L->d2))
		return;
	mpz_lcm(L->m, L->den, L->d2);
	mpz_divexact(L->m, L->m, L->den);
	for (i = 0; i < L->n * (L->n + 1); i++)
		mpz_mul(L->g[i], L->g[i], L->m);
	mpz_mul(L->den, L->den, L->m);
}

/* Adds one equation: the products of its integer entries, scaled to the
 * common denominator, to the upper triangle and the right side. */
void segc_lsq_add(segc_lsq *L, const mpq_t *a, mpq_srcptr y)
{
	size_t i, j;

	equation_integers(L, a, y);
	mpz_mul(L->d2, L->d, L->d);
	common_denominator(L);
	mpz_divexact(L->m, L->den, L->d2);
	for (i = 0; i < L->n; i++) {
		if (!mpz_sgn(L->num[i]))
			continue;
		mpz_mul(L->d2, L->num[i], L->m);
		for (j = i; j <= L->n; j++)
			mpz_addmul(at(L, i, j), L->d2, L->num[j]);
	}
}

/* Fills the lower triangle from the upper one (the Gram matrix is
 * symmetric). */
static void symmetrize(segc_lsq *L)
{
	size_t i, j;

	for (i = 0; i < L->n; i++)
		for (j = 0; j < i; j++)
			mpz_set(at(L, i, j), at(L, j, i));
}

/* One step of fraction-free elimination with pivot ('k', 'k') and the
 * previous pivot 'prev': every later row i becomes (p*row_i -
 * g_ik*row_k)/prev, an exact division. */
static void eliminate(segc_lsq *L, size_t k, mpz_srcptr prev)
{
	size_t i, j;
	mpz_t t;

	mpz_init(t);
	for (i = k + 1; i < L->n; i++) {
		for (j = k + 1; j <= L->n; j++) {
			mpz_mul(t, at(L, k, k), at(L, i, j));
			mpz_submul(t, at(L, i, k), at(L, k, j));
			mpz_divexact(at(L, i, j), t, prev);
		}
		mpz_set_ui(at(L, i, k), 0);
	}
	mpz_clear(t);
}

/* Solves the upper triangular system of the pivot rows before 'upto'
 * for the right side 'rhs' (column index) into 'x'; unknowns that are
 * not pivots get 0. */
static void back_substitute(const segc_lsq *L, size_t upto, size_t rhs,
	mpq_t *x)
{
	size_t i = upto, j;
	mpq_t t;

	mpq_init(t);
	while (i-- > 0) {
		mpq_set_ui(x[i], 0, 1);
		if (!L->pivot[i])
			continue;
		mpq_set_z(x[i], at(L, i, rhs));
		for (j = i + 1; j < upto; j++) {
			if (!L->pivot[j])
				continue;
			mpq_set_z(t, at(L, i, j));
			mpq_mul(t, t, x[j]);
			mpq_sub(x[i], x[i], t);
		}
		mpq_set_z(t, at(L, i, i));
		mpq_div(x[i], x[i], t);
	}
	mpq_clear(t);
}

/* Brings the normal equations to echelon form and solves them.  The
 * Gram matrix is positive semidefinite, so a zero pivot on the diagonal
 * means its whole row and column of the Schur complement are zero: that
 * unknown depends on the ones before it, and is skipped. */
size_t segc_lsq_solve(segc_lsq *L, mpq_t *x, int *dependent)
{
	size_t k, rank = 0;
	mpz_t prev;

	mpz_init_set_ui(prev, 1);
	if (!L->solved)
		symmetrize(L);
	for (k = 0; k < L->n; k++) {
		L->pivot[k] = L->solved ? L->pivot[k] : mpz_sgn(at(L, k, k)) != 0;
		dependent[k] = !L->pivot[k];
		if (!L->pivot[k])
			continue;
		rank++;
		if (!L->solved) {
			eliminate(L, k, prev);
			mpz_set(prev, at(L, k, k));
		}
	}
	L->solved = 1;
	mpz_clear(prev);
	if (rank == L->n)
		back_substitute(L, L->n, L->n, x);
	return rank;
}

/* The combination of unknowns that dependent unknown 'j' makes zero. */
void segc_lsq_dependency(const segc_lsq *L, size_t j, mpq_t *v)
{
	size_t i;

	back_substitute(L, j, j, v);
	for (i = 0; i < j; i++)
		mpq_neg(v[i], v[i]);
	mpq_set_ui(v[j], 1, 1);
	for (i = j + 1; i < L->n; i++)
		mpq_set_ui(v[i], 0, 1);
}
