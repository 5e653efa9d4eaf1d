/* test_poly.c - sparse polynomials: multiplication against a naive
 * product, exact division, powers, and gcds of random products with known
 * common factors; the edges of the conversion to the arithmetic library
 * (negative exponents, zero, huge coefficients, many variables) and the
 * limits around it; the Taylor shift of a variable against values at
 * moved points; the blocks a thread keeps from large polynomials. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "algebra/poly/poly.h"
#include "tap.h"

#define NV 4

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

/* The next pseudo-random number. */
static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* A random integer in [lo, hi]. */
static long range(long lo, long hi)
{
	return lo + (long)(next() % (uint64_t)(hi - lo + 1));
}

/* A random polynomial in the first 'nv' variables with up to 'terms'
 * terms, degrees <= 'deg', rational coefficients when 'rat'. */
static void random_poly_in(segc_poly *p, int nv, int terms, int deg, int rat)
{
	int32_t e[NV];
	mpq_t c;
	int i, v;

	segc_poly_init(p, NV);
	mpq_init(c);
	for (i = 0; i < terms; i++) {
		for (v = 0; v < NV; v++)
			e[v] = v < nv ? (int32_t)range(0, deg) : 0;
		mpq_set_si(c, range(-9, 9), rat ? (unsigned long)range(1, 5) : 1);
		mpq_canonicalize(c);
		if (mpq_sgn(c))
			segc_poly_push(p, e, c);
	}
	segc_poly_normalise(NULL, p);
	mpq_clear(c);
}

/* A random polynomial in all NV variables. */
static void random_poly(segc_poly *p, int terms, int deg, int rat)
{
	random_poly_in(p, NV, terms, deg, rat);
}

/* The naive product: every pair pushed, then normalised. */
static void naive_mul(segc_poly *r, const segc_poly *a, const segc_poly *b)
{
	int32_t e[NV];
	mpq_t c;
	size_t i, j, v;

	segc_poly_init(r, NV);
	mpq_init(c);
	for (i = 0; i < segc_poly_nterms(a); i++)
		for (j = 0; j < segc_poly_nterms(b); j++) {
			for (v = 0; v < NV; v++)
				e[v] = segc_poly_exp(a, i, v) + segc_poly_exp(b, j, v);
			mpq_mul(c, segc_poly_coeff(a, i),
				segc_poly_coeff(b, j));
			segc_poly_push(r, e, c);
		}
	segc_poly_normalise(NULL, r);
	mpq_clear(c);
}

/* Products and quotients against the naive product. */
static void test_mul_div(void)
{
	int i, badmul = 0, baddiv = 0, badnot = 0;

	for (i = 0; i < 200; i++) {
		segc_poly a, b, r, n, q;

		random_poly(&a, (int)range(1, 12), 3, i % 2);
		random_poly(&b, (int)range(1, 12), 3, i % 3 == 0);
		segc_poly_init(&r, NV);
		segc_poly_init(&q, NV);
		naive_mul(&n, &a, &b);
		segc_poly_mul(NULL, &r, &a, &b);
		badmul += !segc_poly_equal(&r, &n);
		if (!segc_poly_is_zero(&b) &&
			(segc_poly_divexact(NULL, &q, &r, &b) != 1 ||
			!segc_poly_equal(&q, &a)))
			baddiv++;
		/* r + 1 is not divisible by b unless b is a number */
		if (segc_poly_nterms(&b) && !segc_poly_is_const(&b)) {
			segc_poly one;

			segc_poly_init(&one, NV);
			segc_poly_set_si(&one, 1);
			segc_poly_add(NULL, &r, &r, &one);
			badnot += segc_poly_divexact(NULL, &q, &r, &b) != 0;
			segc_poly_clear(&one);
		}
		segc_poly_clear(&a);
		segc_poly_clear(&b);
		segc_poly_clear(&r);
		segc_poly_clear(&n);
		segc_poly_clear(&q);
	}
	tap_ok(badmul == 0, "products equal the naive product (%d bad)", badmul);
	tap_ok(baddiv == 0, "exact division gives back the factor (%d bad)",
		baddiv);
	tap_ok(badnot == 0, "inexact division is detected (%d bad)", badnot);
}

/* Powers against repeated multiplication. */
static void test_pow(void)
{
	int i, bad = 0;

	for (i = 0; i < 30; i++) {
		segc_poly a, r, m;
		unsigned long e = (unsigned long)range(0, 6), k;

		random_poly(&a, (int)range(1, 4), 2, i % 2);
		segc_poly_init(&r, NV);
		segc_poly_init(&m, NV);
		segc_poly_set_si(&m, 1);
		for (k = 0; k < e; k++)
			segc_poly_mul(NULL, &m, &m, &a);
		segc_poly_pow(NULL, &r, &a, e);
		bad += !segc_poly_equal(&r, &m);
		segc_poly_clear(&a);
		segc_poly_clear(&r);
		segc_poly_clear(&m);
	}
	tap_ok(bad == 0, "powers equal repeated products (%d bad)", bad);
}

/* gcd(a*g, b*g) is a multiple of g, divides both, and equals g when the
 * cofactors are coprime (checked through gcd(a, b) = 1). */
static void test_gcd(void)
{
	int i, bad = 0, notg = 0;

	for (i = 0; i < 1500; i++) {
		segc_poly a, b, g, ag, bg, r, q, cof;

		int nv = i % 2 ? NV : 2;

		random_poly_in(&a, nv, (int)range(1, 6), 2, 0);
		random_poly_in(&b, nv, (int)range(1, 6), 2, 0);
		random_poly_in(&g, nv, (int)range(1, 5), 2, i % 4 == 0);
		if (segc_poly_is_zero(&a) || segc_poly_is_zero(&b) ||
			segc_poly_is_zero(&g)) {
			segc_poly_clear(&a);
			segc_poly_clear(&b);
			segc_poly_clear(&g);
			continue;
		}
		segc_poly_init(&ag, NV);
		segc_poly_init(&bg, NV);
		segc_poly_init(&r, NV);
		segc_poly_init(&q, NV);
		segc_poly_init(&cof, NV);
		segc_poly_mul(NULL, &ag, &a, &g);
		segc_poly_mul(NULL, &bg, &b, &g);
		if (i % 2)
			segc_poly_gcd(NULL, &r, &ag, &bg);
		else
			segc_poly_gcd_prs(NULL, &r, &ag, &bg);
		if (segc_poly_divexact(NULL, &q, &r, &g) != 1 ||
			segc_poly_divexact(NULL, &q, &ag, &r) != 1 ||
			segc_poly_divexact(NULL, &q, &bg, &r) != 1)
			bad++;
		segc_poly_gcd(NULL, &cof, &a, &b);
		if (segc_poly_is_one(&cof)) {
			segc_poly_primitive(&g, NULL);
			if (!segc_poly_is_zero(&g) &&
				mpq_sgn(segc_poly_coeff(&g, 0)) < 0)
				segc_poly_neg(&g);
			notg += !segc_poly_equal(&r, &g);
		}
		segc_poly_clear(&a);
		segc_poly_clear(&b);
		segc_poly_clear(&g);
		segc_poly_clear(&ag);
		segc_poly_clear(&bg);
		segc_poly_clear(&r);
		segc_poly_clear(&q);
		segc_poly_clear(&cof);
	}
	tap_ok(bad == 0, "gcd(a*g, b*g) is a common divisor and a multiple "
		"of g, heuristic (4 variables) and PRS (2) (%d bad)", bad);
	tap_ok(notg == 0, "gcd(a*g, b*g) = g for coprime a, b (%d bad)", notg);
}

/* The heuristic gcd (with its proof of coprimality by univariate images)
 * and the PRS agree on random pairs, coprime ones and ones with a planted
 * common factor; a coprime pair is often sparse with few variables in
 * common, where a wrong "coprime" answer would show. */
static void test_gcd_agree(void)
{
	int i, differ = 0, coprime = 0;

	for (i = 0; i < 300; i++) {
		segc_poly a, b, g, r1, r2;

		/* Three variables, low degrees: the PRS alone is slow
		 * beyond. */
		random_poly_in(&a, 3, (int)range(1, 5), 2, 0);
		random_poly_in(&b, 3, (int)range(1, 5), 2, 0);
		if (i % 3 == 0) {
			random_poly_in(&g, 3, (int)range(1, 3), 2, 0);
			if (segc_poly_nterms(&g)) {
				segc_poly_mul(NULL, &a, &a, &g);
				segc_poly_mul(NULL, &b, &b, &g);
			}
			segc_poly_clear(&g);
		}
		segc_poly_init(&r1, NV);
		segc_poly_init(&r2, NV);
		segc_poly_gcd(NULL, &r1, &a, &b);
		segc_poly_gcd_prs(NULL, &r2, &a, &b);
		differ += !segc_poly_equal(&r1, &r2);
		coprime += segc_poly_is_one(&r2);
		segc_poly_clear(&a);
		segc_poly_clear(&b);
		segc_poly_clear(&r1);
		segc_poly_clear(&r2);
	}
	tap_ok(differ == 0 && coprime > 50 && coprime < 250,
		"heuristic and PRS gcds agree on 300 pairs, %d coprime "
		"(%d differ)", coprime, differ);
}

/* Known gcds, including the univariate and constant cases. */
static void test_known(void)
{
	int32_t e[NV] = { 0 };
	segc_poly x, one, a, b, g;
	mpq_t c;

	mpq_init(c);
	segc_poly_init(&x, NV);
	segc_poly_init(&one, NV);
	segc_poly_init(&a, NV);
	segc_poly_init(&b, NV);
	segc_poly_init(&g, NV);
	segc_poly_set_var(&x, 0, 1);
	segc_poly_set_si(&one, 1);
	/* a = x^2 - 1, b = 2x^2 + 2x: gcd x + 1 */
	segc_poly_mul(NULL, &a, &x, &x);
	segc_poly_sub(NULL, &a, &a, &one);
	segc_poly_add(NULL, &b, &x, &one);
	segc_poly_mul(NULL, &b, &b, &x);
	mpq_set_ui(c, 2, 1);
	segc_poly_scale(&b, c);
	segc_poly_gcd(NULL, &g, &a, &b);
	segc_poly_add(NULL, &a, &x, &one);
	tap_ok(segc_poly_equal(&g, &a), "gcd(x^2 - 1, 2x^2 + 2x) = x + 1");
	segc_poly_gcd(NULL, &g, &x, &one);
	tap_ok(segc_poly_is_one(&g), "gcd(x, 1) = 1");
	segc_poly_zero(&a);
	segc_poly_gcd(NULL, &g, &a, &b);
	segc_poly_primitive(&b, NULL);
	tap_ok(segc_poly_equal(&g, &b), "gcd(0, b) = primitive b");
	e[0] = 3;
	e[1] = 1;
	segc_poly_zero(&a);
	segc_poly_push(&a, e, c);
	e[0] = 1;
	e[1] = 2;
	segc_poly_zero(&b);
	segc_poly_push(&b, e, c);
	segc_poly_gcd(NULL, &g, &a, &b);
	tap_ok(segc_poly_nterms(&g) == 1 && segc_poly_exp(&g, 0, 0) == 1 &&
		segc_poly_exp(&g, 0, 1) == 1, "gcd of monomials x^3y, xy^2 = xy");
	segc_poly_clear(&x);
	segc_poly_clear(&one);
	segc_poly_clear(&a);
	segc_poly_clear(&b);
	segc_poly_clear(&g);
	mpq_clear(c);
}

/* The naive product over any number of variables. */
static void naive_mul_any(segc_poly *r, const segc_poly *a,
	const segc_poly *b)
{
	size_t i, j, v, n = segc_poly_nvars_max(a, b);
	int32_t *e = malloc((n ? n : 1) * sizeof(int32_t));
	mpq_t c;

	segc_poly_init(r, n);
	mpq_init(c);
	for (i = 0; i < segc_poly_nterms(a); i++)
		for (j = 0; j < segc_poly_nterms(b); j++) {
			for (v = 0; v < n; v++)
				e[v] = segc_poly_exp(a, i, v) + segc_poly_exp(b, j, v);
			mpq_mul(c, segc_poly_coeff(a, i),
				segc_poly_coeff(b, j));
			segc_poly_push(r, e, c);
		}
	segc_poly_normalise(NULL, r);
	mpq_clear(c);
	free(e);
}

/* p = p * x^d with d[v] = -k * (v + 1) for the variables of mask 'm'. */
static void shift_down(segc_poly *p, int k, unsigned m)
{
	int32_t d[NV];
	int v;

	for (v = 0; v < NV; v++)
		d[v] = (m >> v) & 1 ? -k * (v + 1) : 0;
	segc_poly_shift(NULL, p, d, NV);
}

/* Non-zero when some term of 'p' has a negative exponent. */
static int has_negative(const segc_poly *p)
{
	size_t t;
	int v;

	for (t = 0; t < segc_poly_nterms(p); t++)
		for (v = 0; v < NV; v++)
			if (segc_poly_exp(p, t, v) < 0)
				return 1;
	return 0;
}

/* Negative exponents: products and powers against the naive product,
 * exact division only when the quotient has none. */
static void test_laurent(void)
{
	int i, badmul = 0, badpow = 0, baddiv = 0, badneg = 0;

	for (i = 0; i < 100; i++) {
		segc_poly a, b, r, n, q, m;
		unsigned long e = (unsigned long)range(2, 4), k;

		random_poly(&a, (int)range(2, 8), 3, i % 2);
		random_poly(&b, (int)range(2, 8), 3, i % 3 == 0);
		shift_down(&b, (int)range(1, 5), (unsigned)range(1, 15));
		segc_poly_init(&r, NV);
		segc_poly_init(&q, NV);
		segc_poly_init(&m, NV);
		naive_mul(&n, &a, &b);
		segc_poly_mul(NULL, &r, &a, &b);
		badmul += !segc_poly_equal(&r, &n);
		if (segc_poly_divexact(NULL, &q, &r, &b) != 1 ||
			!segc_poly_equal(&q, &a))
			baddiv++;
		/* b * a / a = b has negative exponents: not a division
		 * (when the shift made some: it may not) */
		if (has_negative(&b))
			badneg += segc_poly_divexact(NULL, &q, &r, &a) != 0;
		segc_poly_set_si(&m, 1);
		for (k = 0; k < e; k++)
			segc_poly_mul(NULL, &m, &m, &b);
		segc_poly_pow(NULL, &q, &b, e);
		badpow += !segc_poly_equal(&q, &m);
		segc_poly_clear(&a);
		segc_poly_clear(&b);
		segc_poly_clear(&r);
		segc_poly_clear(&n);
		segc_poly_clear(&q);
		segc_poly_clear(&m);
	}
	tap_ok(badmul == 0, "negative exponents: products (%d bad)", badmul);
	tap_ok(badpow == 0, "negative exponents: powers (%d bad)", badpow);
	tap_ok(baddiv == 0, "negative exponents: exact division (%d bad)",
		baddiv);
	tap_ok(badneg == 0, "a quotient with negative exponents is refused "
		"(%d bad)", badneg);
}

/* The shift by a vector of another length than the polynomial's
 * variables: entries past the vector move nothing, an entry past the
 * variables extends the polynomial; the naive product by the monomial is
 * the reference. */
static void test_shift_lengths(void)
{
	int32_t d[NV + 2] = { 1, -2, 0, 0, 0, 3 }, e[NV + 2];
	segc_poly a, b, m, n;
	mpq_t one;
	int ok;

	random_poly_in(&a, 3, 6, 3, 1);
	segc_poly_init(&b, NV);
	segc_poly_set(&b, &a);
	/* two entries of four: the others stay */
	segc_poly_shift(NULL, &b, d, 2);
	mpq_init(one);
	mpq_set_ui(one, 1, 1);
	segc_poly_init(&m, NV);
	e[0] = 1, e[1] = -2, e[2] = e[3] = 0;
	segc_poly_push(&m, e, one);
	naive_mul(&n, &a, &m);
	ok = segc_poly_equal(&b, &n) && segc_poly_nvars(&b) == NV;
	tap_ok(ok, "a shift by a shorter vector moves its variables only");
	/* six entries, the last not 0: b gains the variables */
	segc_poly_set(&b, &a);
	segc_poly_shift(NULL, &b, d, NV + 2);
	ok = segc_poly_nvars(&b) == NV + 2;
	ok = ok && segc_poly_nterms(&b) == segc_poly_nterms(&n);
	for (size_t t = 0; ok && t < segc_poly_nterms(&b); t++)
		ok = segc_poly_exp(&b, t, NV + 1) == 3 &&
			segc_poly_exp(&b, t, NV) == 0 &&
			segc_poly_exp(&b, t, 0) == segc_poly_exp(&n, t, 0) &&
			segc_poly_exp(&b, t, 1) == segc_poly_exp(&n, t, 1) &&
			mpq_equal(segc_poly_coeff(&b, t), segc_poly_coeff(&n, t));
	tap_ok(ok, "a shift by a longer vector extends the polynomial");
	/* a longer vector of zeros past the variables: nothing grows */
	d[NV + 1] = 0;
	segc_poly_set(&b, &a);
	segc_poly_shift(NULL, &b, d, NV + 2);
	tap_ok(segc_poly_nvars(&b) == NV && segc_poly_equal(&b, &n),
		"zeros past the variables move nothing and add none");
	mpq_clear(one);
	segc_poly_clear(&a);
	segc_poly_clear(&b);
	segc_poly_clear(&m);
	segc_poly_clear(&n);
}

/* Zero operands, and a zero exponent. */
static void test_zero(void)
{
	segc_poly z, a, r, q;
	int ok;

	segc_poly_init(&z, NV);
	random_poly(&a, 5, 3, 1);
	segc_poly_init(&r, NV);
	segc_poly_init(&q, NV);
	segc_poly_mul(NULL, &r, &a, &z);
	ok = segc_poly_is_zero(&r);
	segc_poly_mul(NULL, &r, &z, &a);
	ok = ok && segc_poly_is_zero(&r);
	tap_ok(ok, "a product with zero is zero");
	segc_poly_pow(NULL, &r, &z, 0);
	ok = segc_poly_is_one(&r);
	segc_poly_pow(NULL, &r, &a, 0);
	ok = ok && segc_poly_is_one(&r);
	segc_poly_pow(NULL, &r, &z, 3);
	tap_ok(ok && segc_poly_is_zero(&r), "p^0 = 1 (zero included), 0^3 = 0");
	ok = segc_poly_divexact(NULL, &q, &z, &a) == 1 && segc_poly_is_zero(&q);
	tap_ok(ok && segc_poly_divexact(NULL, &q, &a, &z) == 0,
		"0 / a = 0; a / 0 is no division");
	segc_poly_gcd(NULL, &r, &z, &z);
	ok = segc_poly_is_zero(&r);
	segc_poly_set(&q, &a);
	segc_poly_primitive(&q, NULL);
	if (segc_poly_nterms(&q) && mpq_sgn(segc_poly_coeff(&q, 0)) < 0)
		segc_poly_neg(&q);
	segc_poly_gcd(NULL, &r, &a, &z);
	tap_ok(ok && segc_poly_equal(&r, &q),
		"gcd(0, 0) = 0; gcd(a, 0) = primitive a");
	segc_poly_clear(&z);
	segc_poly_clear(&a);
	segc_poly_clear(&r);
	segc_poly_clear(&q);
}

/* Scales the coefficients of 'p' by num / den, both huge. */
static void make_huge(segc_poly *p, unsigned bits)
{
	mpq_t c;

	mpq_init(c);
	mpz_ui_pow_ui(mpq_numref(c), 3, bits);
	mpz_ui_pow_ui(mpq_denref(c), 7, bits / 2);
	mpz_add_ui(mpq_denref(c), mpq_denref(c), 2);
	mpq_canonicalize(c);
	segc_poly_scale(p, c);
	mpq_clear(c);
}

/* Coefficients of hundreds of bits: products against the naive product,
 * division, and the gcd of products with a common factor. */
static void test_huge(void)
{
	int i, badmul = 0, baddiv = 0, badgcd = 0;

	for (i = 0; i < 40; i++) {
		segc_poly a, b, g, ag, bg, r, q;

		random_poly(&a, (int)range(2, 8), 3, 1);
		random_poly(&b, (int)range(2, 8), 3, 0);
		random_poly_in(&g, 3, (int)range(2, 5), 2, 0);
		make_huge(&a, 300 + 50 * (unsigned)i);
		make_huge(&g, 200);
		segc_poly_init(&r, NV);
		segc_poly_init(&q, NV);
		segc_poly_init(&ag, NV);
		segc_poly_init(&bg, NV);
		naive_mul(&r, &a, &b);
		segc_poly_mul(NULL, &q, &a, &b);
		badmul += !segc_poly_equal(&r, &q);
		if (segc_poly_divexact(NULL, &q, &r, &a) != 1 ||
			!segc_poly_equal(&q, &b))
			baddiv++;
		segc_poly_mul(NULL, &ag, &a, &g);
		segc_poly_mul(NULL, &bg, &b, &g);
		segc_poly_gcd(NULL, &r, &ag, &bg);
		/* gcd(a g, b g) is g times gcd(a, b): g must divide it */
		if (segc_poly_nterms(&g) > 1 &&
			segc_poly_divexact(NULL, &q, &r, &g) != 1)
			badgcd++;
		if (!segc_poly_is_integral(&r) ||
			(!segc_poly_is_zero(&r) &&
			mpq_sgn(segc_poly_coeff(&r, 0)) < 0))
			badgcd++;
		segc_poly_clear(&a);
		segc_poly_clear(&b);
		segc_poly_clear(&g);
		segc_poly_clear(&ag);
		segc_poly_clear(&bg);
		segc_poly_clear(&r);
		segc_poly_clear(&q);
	}
	tap_ok(badmul == 0, "huge coefficients: products (%d bad)", badmul);
	tap_ok(baddiv == 0, "huge coefficients: exact division (%d bad)",
		baddiv);
	tap_ok(badgcd == 0, "huge coefficients: the gcd keeps the common "
		"factor, integral and positive (%d bad)", badgcd);
}

/* p = a random polynomial over 'nv' variables of which only those with
 * index = 'phase' mod 'stride' occur. */
static void sparse_vars(segc_poly *p, size_t nv, size_t stride, size_t phase,
	int terms)
{
	int32_t *e = calloc(nv, sizeof(int32_t));
	mpq_t c;
	size_t v;
	int i;

	segc_poly_init(p, nv);
	mpq_init(c);
	for (i = 0; i < terms; i++) {
		for (v = 0; v < nv; v++)
			e[v] = v % stride == phase ? (int32_t)range(0, 2) : 0;
		mpq_set_si(c, range(1, 9), (unsigned long)range(1, 4));
		mpq_canonicalize(c);
		segc_poly_push(p, e, c);
	}
	segc_poly_normalise(NULL, p);
	mpq_clear(c);
	free(e);
}

/* Many variables, few of them used by each operand. */
static void test_many_vars(void)
{
	int i, badmul = 0, baddiv = 0, badgcd = 0;

	for (i = 0; i < 20; i++) {
		segc_poly a, b, r, n, q;

		sparse_vars(&a, 60, 3, 0, (int)range(2, 10));
		sparse_vars(&b, 40, (size_t)range(2, 5), 1, (int)range(2, 10));
		segc_poly_init(&r, 1);
		segc_poly_init(&q, 1);
		naive_mul_any(&n, &a, &b);
		segc_poly_mul(NULL, &r, &a, &b);
		badmul += !segc_poly_equal(&r, &n);
		if (segc_poly_divexact(NULL, &q, &r, &b) != 1 ||
			!segc_poly_equal(&q, &a))
			baddiv++;
		/* gcd(a*b, b) is b made primitive and positive */
		segc_poly_gcd(NULL, &q, &r, &b);
		segc_poly_primitive(&b, NULL);
		if (segc_poly_nterms(&b) && mpq_sgn(segc_poly_coeff(&b, 0)) < 0)
			segc_poly_neg(&b);
		badgcd += !segc_poly_equal(&q, &b);
		segc_poly_clear(&a);
		segc_poly_clear(&b);
		segc_poly_clear(&r);
		segc_poly_clear(&n);
		segc_poly_clear(&q);
	}
	tap_ok(badmul == 0, "many variables: products (%d bad)", badmul);
	tap_ok(baddiv == 0, "many variables: exact division (%d bad)", baddiv);
	tap_ok(badgcd == 0, "many variables: gcd(a b, b) = b (%d bad)", badgcd);
}

/* Normalise against a brute-force sum: terms with exponents of small
 * spans (sorted as packed words) and of spans past 64 bits in all (the
 * merge sort) come out strictly decreasing in the lexicographic order,
 * each coefficient the sum of the pushed ones with its monomial, over
 * small denominators and over large ones, with small numerators, word
 * ones whose sums need 128 bits, and numerators past a word. */
static void test_normalise(void)
{
	static const int32_t span[3] = { 3, 70000, 1 << 30 };
	int k, i, j, v, badorder = 0, badsum = 0;

	for (k = 0; k < 6 * 10; k++) {
		int32_t e[200][NV];
		mpq_t c[200], acc;
		segc_poly p;
		int n = (int)range(1, 200);

		segc_poly_init(&p, NV);
		mpq_init(acc);
		for (i = 0; i < n; i++) {
			long from = i && range(0, 1) ? range(0, i - 1) : -1;

			for (v = 0; v < NV; v++)
				e[i][v] = from >= 0 && v < (from % 2 ? NV : 3) ? e[from][v] :
					(int32_t)range(-span[k % 3], span[k % 3]);
			mpq_init(c[i]);
			/* small denominators are added over one word, large
			 * ones (lcm past 64 bits) as rationals */
			mpq_set_si(c[i], range(-9, 9), k % 2 ?
				(unsigned long)range(1, 7) :
				(unsigned long)range(4294967000L, 4294967300L));
			/* numerators of a word whose sums pass 64 bits
			 * (added in 128 bits), and past a word (as
			 * rationals) */
			if ((k / 6) % 3) {
				mpz_mul_2exp(mpq_numref(c[i]), mpq_numref(c[i]),
					(k / 6) % 3 == 1 ? 59 : 70);
				mpz_add_ui(mpq_numref(c[i]), mpq_numref(c[i]),
					(unsigned long)range(0, 1000));
			}
			mpq_canonicalize(c[i]);
			segc_poly_push(&p, e[i], c[i]);
		}
		segc_poly_normalise(NULL, &p);
		for (i = 1; i < (int)segc_poly_nterms(&p); i++) {
			for (v = 0; v < NV && segc_poly_exp(&p, i - 1, v) ==
				segc_poly_exp(&p, i, v); v++)
				;
			badorder += v == NV || segc_poly_exp(&p, i - 1, v) <
				segc_poly_exp(&p, i, v);
		}
		for (i = 0; i < n; i++) {
			size_t t;

			mpq_set_ui(acc, 0, 1);
			for (j = 0; j < n; j++) {
				for (v = 0; v < NV && e[i][v] == e[j][v]; v++)
					;
				if (v == NV)
					mpq_add(acc, acc, c[j]);
			}
			for (t = 0; t < segc_poly_nterms(&p); t++) {
				for (v = 0; v < NV && segc_poly_exp(&p, t, v) ==
					e[i][v]; v++)
					;
				if (v == NV)
					break;
			}
			badsum += t < segc_poly_nterms(&p) ?
				!mpq_equal(acc, segc_poly_coeff(&p, t)) :
				mpq_sgn(acc) != 0;
		}
		for (i = 0; i < n; i++)
			mpq_clear(c[i]);
		mpq_clear(acc);
		segc_poly_clear(&p);
	}
	tap_ok(badorder == 0, "normalised terms strictly decrease (%d bad)",
		badorder);
	tap_ok(badsum == 0, "normalised coefficients are the sums of the "
		"pushed ones (%d bad)", badsum);
}

/* The limits are checked around the library's products. */
static void test_limits(void)
{
	segc_poly_lim lim = { NULL, 10, 100, 0 };
	segc_poly a, r;
	int32_t e[NV] = { 60, 0, 0, 0 };
	mpq_t one;

	mpq_init(one);
	mpq_set_ui(one, 1, 1);
	segc_poly_init(&a, NV);
	segc_poly_init(&r, NV);
	segc_poly_push(&a, e, one);
	e[0] = 0;
	e[1] = 1;
	segc_poly_push(&a, e, one);
	segc_poly_normalise(NULL, &a);
	tap_ok(segc_poly_mul(&lim, &r, &a, &a) == -1,
		"an exponent over max_exponent is refused");
	segc_poly_zero(&a);          /* a = x0^3 + x1 */
	e[0] = 3;
	e[1] = 0;
	segc_poly_push(&a, e, one);
	e[0] = 0;
	e[1] = 1;
	segc_poly_push(&a, e, one);
	segc_poly_normalise(NULL, &a);
	tap_ok(segc_poly_pow(&lim, &r, &a, 20) == -1,
		"a power of more than max_terms terms is refused");
	lim.max_terms = 0;
	lim.max_coeff_bits = 8;
	tap_ok(segc_poly_pow(&lim, &r, &a, 20) == -1,
		"a power with coefficients over max_coeff_bits is refused");
	lim.max_coeff_bits = 0;
	tap_ok(segc_poly_pow(&lim, &r, &a, 20) == 0 &&
		segc_poly_nterms(&r) == 21,
		"the same power without the limits has 21 terms");
	segc_poly_clear(&a);
	segc_poly_clear(&r);
	mpq_clear(one);
}

/* The value of 'p' at the point 'x' (NV rationals), term by term. */
static void value_at(mpq_t out, const segc_poly *p, mpq_t *x)
{
	mpq_t t;
	size_t i, v;
	int32_t k;

	mpq_init(t);
	mpq_set_ui(out, 0, 1);
	for (i = 0; i < segc_poly_nterms(p); i++) {
		mpq_set(t, segc_poly_coeff(p, i));
		for (v = 0; v < NV; v++)
			for (k = 0; k < segc_poly_exp(p, i, v); k++)
				mpq_mul(t, t, x[v]);
		mpq_add(out, out, t);
	}
	mpq_clear(t);
}

/* x = a random rational point (numerators -20..20, denominators 1..5),
 * y a copy of it to move. */
static void random_point(mpq_t *x, mpq_t *y)
{
	size_t w;

	for (w = 0; w < NV; w++) {
		mpq_set_si(x[w], range(-20, 20), (unsigned long)range(1, 6));
		mpq_canonicalize(x[w]);
		mpq_set(y[w], x[w]);
	}
}

/* p(x_v := sigma*x_v + c) against p itself valued at the moved point, at
 * random rational points, for shifts by 0, 1 and other rationals. */
static void test_shift_var(void)
{
	static const long cn[] = { 0, 1, -2, 3, 5 }, cd[] = { 1, 1, 1, 7, 2 };
	int round, bad = 0, k, pt;
	mpq_t x[NV], y[NV], c, a, b;
	size_t v;

	for (v = 0; v < NV; v++) {
		mpq_init(x[v]);
		mpq_init(y[v]);
	}
	mpq_init(c);
	mpq_init(a);
	mpq_init(b);
	for (round = 0; round < 200; round++) {
		segc_poly p, r;
		int sigma = round % 2 ? -1 : 1;

		random_poly(&p, (int)range(1, 12), (int)range(0, 6), round % 3);
		v = (size_t)range(0, NV - 1);
		k = (int)range(0, 4);
		mpq_set_si(c, cn[k], (unsigned long)cd[k]);
		segc_poly_init(&r, NV);
		if (segc_poly_shift_var(NULL, &r, &p, v, sigma, c))
			bad++;
		for (pt = 0; pt < 3; pt++) {
			random_point(x, y);
			/* y_v = sigma*x_v + c */
			if (sigma < 0)
				mpq_neg(y[v], y[v]);
			mpq_add(y[v], y[v], c);
			value_at(a, &r, x);
			value_at(b, &p, y);
			bad += !mpq_equal(a, b);
		}
		segc_poly_clear(&p);
		segc_poly_clear(&r);
	}
	tap_ok(bad == 0, "a Taylor shift of a variable has the values of the "
		"polynomial at the moved points (200 polynomials, 3 points "
		"each; %d differ)", bad);
	for (v = 0; v < NV; v++) {
		mpq_clear(x[v]);
		mpq_clear(y[v]);
	}
	mpq_clear(c);
	mpq_clear(a);
	mpq_clear(b);
}

/* p(x_v := q) against p valued where x_v is the value of q, at random
 * rational points; and the refusal of a negative power of x_v. */
static void test_subst_var(void)
{
	int round, bad = 0, pt;
	mpq_t x[NV], y[NV], a, b;
	int32_t e[NV] = { 0 };
	size_t v;

	for (v = 0; v < NV; v++) {
		mpq_init(x[v]);
		mpq_init(y[v]);
	}
	mpq_init(a);
	mpq_init(b);
	for (round = 0; round < 200; round++) {
		segc_poly p, q, r;

		random_poly(&p, (int)range(1, 12), (int)range(0, 5), round % 3);
		random_poly_in(&q, (int)range(1, NV), (int)range(0, 4),
			(int)range(0, 2), round % 2);
		v = (size_t)range(0, NV - 1);
		segc_poly_init(&r, NV);
		if (segc_poly_subst_var(NULL, &r, &p, v, &q))
			bad++;
		for (pt = 0; pt < 3; pt++) {
			random_point(x, y);
			value_at(y[v], &q, x);
			value_at(a, &r, x);
			value_at(b, &p, y);
			bad += !mpq_equal(a, b);
		}
		segc_poly_clear(&p);
		segc_poly_clear(&q);
		segc_poly_clear(&r);
	}
	tap_ok(bad == 0, "a polynomial put in for a variable gives the values "
		"of the polynomial where the variable has its value (200 "
		"polynomials, 3 points each; %d differ)", bad);
	{
		segc_poly p, q, r;

		segc_poly_init(&p, NV);
		segc_poly_init(&q, NV);
		segc_poly_init(&r, NV);
		e[1] = -2;
		mpq_set_si(a, 3, 1);
		segc_poly_push(&p, e, a);
		segc_poly_set_si(&q, 5);
		tap_ok(segc_poly_subst_var(NULL, &r, &p, 1, &q) == 1,
			"a negative power of the variable put in for is left to "
			"the caller");
		segc_poly_clear(&p);
		segc_poly_clear(&q);
		segc_poly_clear(&r);
	}
	for (v = 0; v < NV; v++) {
		mpq_clear(x[v]);
		mpq_clear(y[v]);
	}
	mpq_clear(a);
	mpq_clear(b);
}

/* Non-zero when every coefficient of 'p' is in lowest terms with a
 * positive denominator (as mpq_canonicalize leaves it). */
static int coeffs_canonical(const segc_poly *p)
{
	mpq_t c;
	size_t i;
	int ok = 1;

	mpq_init(c);
	for (i = 0; i < segc_poly_nterms(p) && ok; i++) {
		mpq_set(c, segc_poly_coeff(p, i));
		mpq_canonicalize(c);
		ok = mpq_equal(c, segc_poly_coeff(p, i)) &&
			mpz_sgn(mpq_denref(segc_poly_coeff(p, i))) > 0;
	}
	mpq_clear(c);
	return ok;
}

/* m = the value at x of the monomial of term 'i' of 'p'. */
static void mono_at(mpq_t m, const segc_poly *p, size_t i, mpq_t *x)
{
	size_t v;
	int32_t k;

	mpq_set_ui(m, 1, 1);
	for (v = 0; v < NV; v++)
		for (k = 0; k < segc_poly_exp(p, i, v); k++)
			mpq_mul(m, m, x[v]);
}

/* v = (value of 'a' at x)^k, by GMP alone. */
static void value_pow(mpq_t v, const segc_poly *a, mpq_t *x, unsigned k)
{
	mpq_t b;

	mpq_init(b);
	value_at(b, a, x);
	mpq_set_ui(v, 1, 1);
	while (k--)
		mpq_mul(v, v, b);
	mpq_clear(b);
}

/* A power computed by FLINT (its coefficients held as views of one block
 * of limbs), then changed in every way a polynomial can change: each
 * result valued at random points against the power valued by GMP, and
 * its coefficients in lowest terms. */
static void test_views(void)
{
	int round, bad = 0, k;
	mpq_t x[NV], y[NV], v, w, c, t;
	segc_poly a, b, p, q, r;

	for (k = 0; k < NV; k++) {
		mpq_init(x[k]);
		mpq_init(y[k]);
	}
	mpq_inits(v, w, c, t, (mpq_ptr)0);
	for (round = 0; round < 60; round++) {
		unsigned e = (unsigned)range(2, 6);
		int op = round % 10;
		char keep[4096];
		size_t i;

		random_poly(&a, (int)range(2, 5), 3, round % 3 != 0);
		if (round % 7 == 3) {
			/* coefficients of several limbs */
			mpq_set_str(c, "123456789012345678901234567/7", 10);
			mpq_canonicalize(c);
			segc_poly_scale(&a, c);
		}
		random_poly(&b, 3, 2, 1);
		random_point(x, y);
		segc_poly_init(&p, NV);
		segc_poly_init(&q, NV);
		segc_poly_init(&r, NV);
		segc_poly_pow(NULL, &p, &a, e);
		segc_poly_pow(NULL, &q, &b, 2);
		value_pow(v, &a, x, e);
		mpq_set_si(c, -3, 7);
		switch (op) {
		case 0:  /* read only */
			break;
		case 1:
			segc_poly_neg(&p);
			mpq_neg(v, v);
			break;
		case 2:
			segc_poly_scale(&p, c);
			mpq_mul(v, v, c);
			break;
		case 3:  /* the view of the copy, then the copy changed */
			segc_poly_set(&r, &p);
			segc_poly_neg(&r);
			value_at(w, &r, x);
			mpq_neg(w, w);
			bad += !mpq_equal(w, v);
			break;
		case 4:
			segc_poly_push_term(&p, &b, 0, NULL);
			segc_poly_normalise(NULL, &p);
			mono_at(t, &b, 0, x);
			mpq_mul(w, segc_poly_coeff(&b, 0), t);
			mpq_add(v, v, w);
			break;
		case 5: {  /* terms dropped: against the kept ones pushed */
			segc_poly kept;
			int32_t ex[NV];

			segc_poly_init(&kept, NV);
			for (i = 0; i < segc_poly_nterms(&p) && i < 4096; i++) {
				keep[i] = (char)(i % 3 != 1);
				segc_poly_get_exps(&p, i, ex);
				if (keep[i])
					segc_poly_push(&kept, ex,
						segc_poly_coeff(&p, i));
			}
			segc_poly_keep_terms(&p, keep);
			value_at(v, &kept, x);
			segc_poly_clear(&kept);
			break;
		}
		case 6:  /* the first coefficient replaced by c */
			mono_at(t, &p, 0, x);
			mpq_mul(w, segc_poly_coeff(&p, 0), t);
			mpq_sub(v, v, w);
			segc_poly_set_coeff(&p, 0, c);
			mpq_mul(w, c, t);
			mpq_add(v, v, w);
			break;
		case 7: {  /* two views summed, the coefficients taken */
			segc_poly *ops[2] = { &p, &q };

			value_pow(w, &b, x, 2);
			mpq_add(v, v, w);
			segc_poly_sum_take(NULL, &r, 2, ops);
			segc_poly_swap(&p, &r);
			break;
		}
		case 8:
			segc_poly_primitive(&p, c);
			value_at(w, &p, x);
			mpq_mul(w, w, c);
			bad += !mpq_equal(w, v);
			bad += !segc_poly_is_integral(&p);
			value_at(v, &p, x);
			break;
		case 9:  /* a product of views */
			segc_poly_mul(NULL, &r, &p, &q);
			segc_poly_swap(&p, &r);
			value_pow(w, &b, x, 2);
			mpq_mul(v, v, w);
			break;
		}
		value_at(w, &p, x);
		if (!mpq_equal(w, v) || !coeffs_canonical(&p) ||
		    !coeffs_canonical(&q)) {
			bad++;
			tap_diag("views: round %d, operation %d", round, op);
		}
		segc_poly_clear(&a);
		segc_poly_clear(&b);
		segc_poly_clear(&p);
		segc_poly_clear(&q);
		segc_poly_clear(&r);
	}
	tap_ok(bad == 0, "powers held as views of FLINT's limbs, read and "
		"changed, keep their values (%d bad)", bad);
	tap_ok(segc_poly_held() == 0, "every view's limbs released");
	for (k = 0; k < NV; k++) {
		mpq_clear(x[k]);
		mpq_clear(y[k]);
	}
	mpq_clears(v, w, c, t, (mpq_ptr)0);
}

/* The blocks of large polynomials that the thread keeps once they are
 * freed: kept after a large power dies, taken again by the next one of
 * its size (whose value is right), never more than 8 MiB of them,
 * and none after segc_poly_buffers_release(). */
static void test_kept_blocks(void)
{
	mpq_t x[NV], y[NV], v, w;
	segc_poly s, p[12];
	size_t before, k;
	int32_t e[NV] = { 0, 0, 0, 0 };
	int ok = 1;

	for (k = 0; k < NV; k++) {
		mpq_init(x[k]);
		mpq_init(y[k]);
	}
	mpq_inits(v, w, (mpq_ptr)0);
	segc_poly_buffers_release();
	tap_ok(segc_poly_buffers_kept() == 0, "kept blocks: none at first");
	/* s = x0 + x1 + x2 + x3 + 1 */
	segc_poly_init(&s, NV);
	mpq_set_ui(v, 1, 1);
	segc_poly_push(&s, e, v);
	for (k = 0; k < NV; k++) {
		e[k] = 1;
		segc_poly_push(&s, e, v);
		e[k] = 0;
	}
	segc_poly_normalise(NULL, &s);
	segc_poly_init(&p[0], NV);
	segc_poly_pow(NULL, &p[0], &s, 20);
	segc_poly_clear(&p[0]);
	before = segc_poly_buffers_kept();
	tap_ok(before >= 10626 * sizeof(mpq_t), "kept blocks: the slots of "
		"a power of 10 626 terms kept (%zu bytes)", before);
	segc_poly_init(&p[0], NV);
	segc_poly_pow(NULL, &p[0], &s, 20);
	random_point(x, y);
	value_at(v, &p[0], x);
	value_pow(w, &s, x, 20);
	tap_ok(segc_poly_buffers_kept() < before && mpq_equal(v, w) &&
		segc_poly_nterms(&p[0]) == 10626, "kept blocks: taken by "
		"the next power of that size, which has its value");
	segc_poly_clear(&p[0]);
	for (k = 0; k < 12; k++) {
		segc_poly_init(&p[k], NV);
		segc_poly_pow(NULL, &p[k], &s, (unsigned long)(14 + k));
	}
	for (k = 0; k < 12; k++) {
		segc_poly_clear(&p[k]);
		ok &= segc_poly_buffers_kept() <= ((size_t)8 << 20);
	}
	tap_ok(ok && segc_poly_buffers_kept() > 0, "kept blocks: at most "
		"8 MiB after 12 large powers die (%zu bytes)",
		segc_poly_buffers_kept());
	segc_poly_buffers_release();
	tap_ok(segc_poly_buffers_kept() == 0, "kept blocks: none after the "
		"release");
	segc_poly_clear(&s);
	for (k = 0; k < NV; k++) {
		mpq_clear(x[k]);
		mpq_clear(y[k]);
	}
	mpq_clears(v, w, (mpq_ptr)0);
}

int main(void)
{
	test_views();
	test_kept_blocks();
	test_shift_var();
	test_subst_var();
	test_mul_div();
	test_pow();
	test_normalise();
	test_gcd();
	test_gcd_agree();
	test_known();
	test_laurent();
	test_shift_lengths();
	test_zero();
	test_huge();
	test_many_vars();
	test_limits();
	return tap_done();
}
