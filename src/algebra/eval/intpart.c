/* intpart.c - exact integer parts of irrational values: floor and ceil
 * of c*y^(1/q) + d and of c*log2(x) + d for rational c, d, x, y, with
 * integer square roots and bit lengths only (no rounding on the way), so
 * that floor(sqrt(i)) or ceil(log2(P)) has its exact value at a rational
 * point.
 *
 * Both rest on floor((X + n)/m) = floor((floor(X) + n)/m) for a real X
 * and integers n, m > 0; an irrational value is never an integer, so its
 * ceil is its floor plus one. */
#include <stdlib.h>

#include "algebra/eval/intpart.h"

/* r = floor(log2(z)) for a rational z > 0. */
static void floor_log2(mpz_t r, mpq_srcptr z)
{
	mpz_srcptr a = mpq_numref(z), b = mpq_denref(z);
	long k = (long)mpz_sizeinbase(a, 2) - (long)mpz_sizeinbase(b, 2);
	mpz_t t;
	int ge;

	mpz_init(t);
	if (k >= 0) {
		mpz_mul_2exp(t, b, (unsigned long)k);
		ge = mpz_cmp(a, t) >= 0;
	} else {
		mpz_mul_2exp(t, a, (unsigned long)-k);
		ge = mpz_cmp(t, b) >= 0;
	}
	mpz_clear(t);
	mpz_set_si(r, ge ? k : k - 1);
}

/* The bits of the larger of the numerator and denominator of 'x'. */
static size_t qbits(mpq_srcptr x)
{
	size_t a = mpz_sizeinbase(mpq_numref(x), 2);
	size_t b = mpz_sizeinbase(mpq_denref(x), 2);

	return a > b ? a : b;
}

/* t = x^k (k may be negative, x != 0 then); -1 past 'max_bits'. */
static int qpow(mpq_t t, mpq_srcptr x, long k, size_t max_bits)
{
	unsigned long u = (unsigned long)(k < 0 ? -k : k);

	if (u && qbits(x) > max_bits / u)
		return -1;
	if (k < 0 && mpq_sgn(x) == 0)
		return -1;
	mpz_pow_ui(mpq_numref(t), mpq_numref(x), u);
	mpz_pow_ui(mpq_denref(t), mpq_denref(x), u);
	if (k < 0)
		mpq_inv(t, t);
	else
		mpq_canonicalize(t);
	return 0;
}

/* r = floor (or ceil when 'up') of the rational 'v'. */
static void round_q(mpz_t r, mpq_srcptr v, int up)
{
	if (up)
		mpz_cdiv_q(r, mpq_numref(v), mpq_denref(v));
	else
		mpz_fdiv_q(r, mpq_numref(v), mpq_denref(v));
}

/* Sets '*exact' and, when the q-th root of 'y' >= 0 is rational, 't' to
 * it. */
static void try_root(mpq_t t, mpq_srcptr y, unsigned long q, int *exact)
{
	mpz_t a, b;

	mpz_inits(a, b, (mpz_ptr)0);
	*exact = mpz_root(a, mpq_numref(y), q) &&
		mpz_root(b, mpq_denref(y), q);
	if (*exact) {
		mpz_set(mpq_numref(t), a);
		mpz_set(mpq_denref(t), b);
		mpq_canonicalize(t);
	}
	mpz_clears(a, b, (mpz_ptr)0);
}

/* r = floor(u^(1/q) + d) for a rational u > 0 whose q-th root is
 * irrational: with D the denominator of d and A/B = D^q * u,
 * floor((floor((A*B^(q-1))^(1/q) / B) + D*d) / D). */
static int floor_root_plus(mpz_t r, mpq_srcptr u, unsigned long q,
	mpq_srcptr d, size_t max_bits)
{
	mpz_srcptr D = mpq_denref(d);
	mpq_t w;
	mpz_t z;

	if ((mpz_sizeinbase(D, 2) + qbits(u)) > max_bits / q)
		return -1;
	mpq_init(w);
	mpz_init(z);
	mpz_pow_ui(z, D, q);
	mpq_set_z(w, z);
	mpq_mul(w, w, u);                         /* A/B = D^q u */
	mpz_pow_ui(z, mpq_denref(w), q - 1);
	mpz_mul(z, z, mpq_numref(w));             /* A*B^(q-1) */
	mpz_root(z, z, q);
	mpz_fdiv_q(z, z, mpq_denref(w));          /* floor(D*u^(1/q)) */
	mpz_add(z, z, mpq_numref(d));             /* + D*d */
	mpz_fdiv_q(r, z, D);
	mpz_clear(z);
	mpq_clear(w);
	return 0;
}

/* See intpart.h. */
int segc_intpart_root(mpz_t r, mpq_srcptr c, mpq_srcptr y, unsigned long q,
	mpq_srcptr d, int up, size_t max_bits)
{
	mpq_t t, u, nd;
	int exact, bad = 0;

	if (q < 1 || (mpq_sgn(y) < 0 && q % 2 == 0))
		return -1;
	if (mpq_sgn(c) == 0 || mpq_sgn(y) == 0) {
		round_q(r, d, up);
		return 0;
	}
	mpq_inits(t, u, nd, (mpq_ptr)0);
	mpq_abs(u, y);
	try_root(t, u, q, &exact);
	if (exact) {                              /* a rational value */
		if (mpq_sgn(y) < 0)
			mpq_neg(t, t);
		mpq_mul(t, t, c);
		mpq_add(t, t, d);
		round_q(r, t, up);
		goto out;
	}
	/* c*y^(1/q) = s*(|c|^q |y|)^(1/q), s the sign of c*y */
	mpq_abs(t, c);
	bad = qpow(t, t, (long)q, max_bits);
	if (!bad) {
		int s = mpq_sgn(c) * mpq_sgn(y);

		mpq_mul(u, u, t);
		/* s < 0: floor(-X + d) = -(floor(X - d) + 1), X irrational */
		if (s < 0)
			mpq_neg(nd, d);
		else
			mpq_set(nd, d);
		bad = floor_root_plus(r, u, q, nd, max_bits);
		if (!bad && s < 0) {
			mpz_add_ui(r, r, 1);
			mpz_neg(r, r);
		}
		if (!bad && up)                   /* irrational: floor + 1 */
			mpz_add_ui(r, r, 1);
	}
out:
	mpq_clears(t, u, nd, (mpq_ptr)0);
	return bad ? -1 : 0;
}

/* See intpart.h. */
int segc_intpart_log2(mpz_t r, mpq_srcptr c, mpq_srcptr x, mpq_srcptr d,
	int up, size_t max_bits)
{
	mpz_srcptr p = mpq_numref(c), m = mpq_denref(c);
	mpq_t t, n;
	mpz_t z, En, mE;
	int bad = 0;

	if (mpq_sgn(x) <= 0)
		return -1;
	mpq_inits(t, n, (mpq_ptr)0);
	mpz_inits(z, En, mE, (mpz_ptr)0);
	if (mpq_sgn(c) == 0) {
		round_q(r, d, up);
		goto out;
	}
	if ((mpz_cmp_ui(mpq_denref(x), 1) == 0 &&
	     mpz_popcount(mpq_numref(x)) == 1) ||
	    (mpz_cmp_ui(mpq_numref(x), 1) == 0 &&
	     mpz_popcount(mpq_denref(x)) == 1)) {
		/* log2 of a power of two: an integer */
		long k = mpz_cmp_ui(mpq_denref(x), 1) == 0 ?
			(long)mpz_scan1(mpq_numref(x), 0) :
			-(long)mpz_scan1(mpq_denref(x), 0);

		mpq_set_si(t, k, 1);
		mpq_mul(t, t, c);
		mpq_add(t, t, d);
		round_q(r, t, up);
		goto out;
	}
	/* c = p/m; n = m*d with denominator E: c*log2(x) + d =
	 * (log2(x^(p*E)) + E*n) / (m*E) */
	mpq_set_z(n, m);
	mpq_mul(n, n, d);
	mpz_set(En, mpq_numref(n));               /* E*n */
	mpz_mul(mE, m, mpq_denref(n));
	mpz_mul(z, p, mpq_denref(n));
	bad = !mpz_fits_slong_p(z) || qpow(t, x, mpz_get_si(z), max_bits);
	if (!bad) {
		floor_log2(z, t);
		mpz_add(z, z, En);
		mpz_fdiv_q(r, z, mE);
		if (up)                           /* irrational: floor + 1 */
			mpz_add_ui(r, r, 1);
	}
out:
	mpz_clears(z, En, mE, (mpz_ptr)0);
	mpq_clears(t, n, (mpq_ptr)0);
	return bad ? -1 : 0;
}
