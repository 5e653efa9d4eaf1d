/* builtin_exact.c - the exact operation of each built-in function of
 * numbers (the 'exact' column of builtin.c's rows): its value at
 * rational arguments when that value is rational.  GMP only; every
 * exact evaluator applies a function through its row. */
#include "expr/builtin.h"

/* The most processors mva_mem is evaluated for, exactly. */
#define EXACT_MAX_MVA_P 1000000L
/* The largest |x| of exp2(x) evaluated exactly (2^x of that many bits). */
#define EXACT_MAX_EXP2 16777216L

/* max (dir 1) or min (dir -1) of the 'n' values 'v'. */
int segc_builtin_exact_extremum(const segc_builtin_info *b, mpq_t r,
	const mpq_t *v, size_t n)
{
	size_t i;

	if (!n)
		return -1;
	mpq_set(r, v[0]);
	for (i = 1; i < n; i++)
		if (mpq_cmp(v[i], r) * b->dir > 0)
			mpq_set(r, v[i]);
	return 0;
}

/* ceil (dir 1) or floor (dir -1) of 'v[0]'. */
int segc_builtin_exact_round(const segc_builtin_info *b, mpq_t r,
	const mpq_t *v, size_t n)
{
	if (n != 1)
		return -1;
	if (b->dir > 0)
		mpz_cdiv_q(mpq_numref(r), mpq_numref(v[0]), mpq_denref(v[0]));
	else
		mpz_fdiv_q(mpq_numref(r), mpq_numref(v[0]), mpq_denref(v[0]));
	mpz_set_ui(mpq_denref(r), 1);
	return 0;
}

/* log2 of an exact power of two; -1 otherwise. */
int segc_builtin_exact_log2(const segc_builtin_info *b, mpq_t r,
	const mpq_t *v, size_t n)
{
	mpz_srcptr p, q;

	(void)b;
	if (n != 1 || mpq_sgn(v[0]) <= 0)
		return -1;
	p = mpq_numref(v[0]);
	q = mpq_denref(v[0]);
	if (mpz_cmp_ui(q, 1) == 0 && mpz_popcount(p) == 1) {
		mpq_set_ui(r, mpz_scan1(p, 0), 1);
		return 0;
	}
	if (mpz_cmp_ui(p, 1) == 0 && mpz_popcount(q) == 1) {
		mpq_set_si(r, -(long)mpz_scan1(q, 0), 1);
		return 0;
	}
	return -1;
}

/* sqrt of the square of a rational; -1 otherwise. */
int segc_builtin_exact_sqrt(const segc_builtin_info *b, mpq_t r,
	const mpq_t *v, size_t n)
{
	(void)b;
	if (n != 1 || mpq_sgn(v[0]) < 0 ||
	    !mpz_perfect_square_p(mpq_numref(v[0])) ||
	    !mpz_perfect_square_p(mpq_denref(v[0])))
		return -1;
	mpz_sqrt(mpq_numref(r), mpq_numref(v[0]));
	mpz_sqrt(mpq_denref(r), mpq_denref(v[0]));
	return 0;
}

/* 2^x of an integer x (a non-integer rational x gives an irrational);
 * -2 when |x| is above EXACT_MAX_EXP2. */
int segc_builtin_exact_exp2(const segc_builtin_info *b, mpq_t r,
	const mpq_t *v, size_t n)
{
	unsigned long k;

	(void)b;
	if (n != 1 || mpz_cmp_ui(mpq_denref(v[0]), 1) != 0)
		return -1;
	if (mpz_cmpabs_ui(mpq_numref(v[0]), EXACT_MAX_EXP2) > 0)
		return -2;
	k = mpz_get_ui(mpq_numref(v[0]));   /* |x| */
	mpq_set_ui(r, 1, 1);
	mpz_mul_2exp(mpq_numref(r), mpq_numref(r), k);
	if (mpq_sgn(v[0]) < 0)
		mpq_inv(r, r);
	return 0;
}

/* mva_mem(p, a, b): R(1) = b, R(k+1) = (1 + k R(k) / (a + R(k))) b
 * (format.md section 2); -1 unless p is a positive integer up to
 * EXACT_MAX_MVA_P and no a + R(k) is zero. */
int segc_builtin_exact_mva(const segc_builtin_info *b, mpq_t r,
	const mpq_t *v, size_t n)
{
	long k, np;
	mpq_t t, kq;
	int bad = 0;

	(void)b;
	if (n != 3 || mpz_cmp_ui(mpq_denref(v[0]), 1) != 0 ||
	    mpq_sgn(v[0]) <= 0 ||
	    mpz_cmp_si(mpq_numref(v[0]), EXACT_MAX_MVA_P) > 0)
		return -1;
	np = mpz_get_si(mpq_numref(v[0]));
	mpq_init(t);
	mpq_init(kq);
	mpq_set(r, v[2]);
	for (k = 1; k < np && !bad; k++) {
		mpq_add(t, v[1], r);
		bad = mpq_sgn(t) == 0;
		if (bad)
			break;
		mpq_div(t, r, t);
		mpq_set_si(kq, k, 1);
		mpq_mul(t, t, kq);
		mpq_set_ui(kq, 1, 1);
		mpq_add(t, t, kq);
		mpq_mul(r, t, v[2]);
	}
	mpq_clear(t);
	mpq_clear(kq);
	return bad ? -1 : 0;
}
