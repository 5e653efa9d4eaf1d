/* domain_points.c - points inside the box of declared domains (see
 * domain_points.h), where formulas are evaluated exactly to rule out
 * a >= b before its proof: fixed points and integer points (refute.c),
 * and mixed points for many comparisons (canon/kernel_extremum.c). */
#include "algebra/eval/domain_points.h"

/* Inner points below this, then the two corners. */
#define INNER 3

/* Rounds 'v' to an integer, down when 'down', else up: 0, or -1 when
 * that leaves the domain [lo, hi] (either may be NULL). */
static int to_integer(mpq_t v, mpq_srcptr lo, mpq_srcptr hi, int down)
{
	if (!mpz_cmp_ui(mpq_denref(v), 1))
		return 0;
	if (down)
		mpz_fdiv_q(mpq_numref(v), mpq_numref(v), mpq_denref(v));
	else
		mpz_cdiv_q(mpq_numref(v), mpq_numref(v), mpq_denref(v));
	mpz_set_ui(mpq_denref(v), 1);
	return (hi && mpq_cmp(v, hi) > 0) || (lo && mpq_cmp(v, lo) < 0) ?
		-1 : 0;
}

/* Sets 'v' to a point of the domain [lo, hi] (either may be NULL) at
 * the fraction 'f' in (0, 1) of it when it is bounded; else 'off' + f
 * above its lower bound, below its upper one, or (no bound) from 0, down
 * when 'neg'. */
static void spread(mpq_t v, mpq_srcptr lo, mpq_srcptr hi, mpq_srcptr f,
	unsigned long off, int neg)
{
	if (lo && hi) {
		mpq_sub(v, hi, lo);
		mpq_mul(v, v, f);
		mpq_add(v, v, lo);
		return;
	}
	mpq_set_ui(v, off, 1);
	mpq_add(v, v, f);
	if (lo)
		mpq_add(v, v, lo);
	else if (hi)
		mpq_sub(v, hi, v);
	else if (neg)
		mpq_neg(v, v);
}

/* The value of name number 'j' at point 'p' (see domain_points.h). */
int segc_domain_point(mpq_t v, const segc_domains *dom, const char *name,
	size_t j, int p)
{
	mpq_srcptr lo = NULL, hi = NULL;
	int integer = 0;
	mpq_t f;

	if (dom)
		segc_domains_get(dom, name, &lo, &hi, &integer);
	if (p >= INNER && (p == INNER ? lo : hi))
		mpq_set(v, p == INNER ? lo : hi);
	else {
		mpq_init(f);
		/* a fraction in (0, 1) and an offset >= 1 that vary with name
		 * and point, so that no two names keep a fixed relation */
		mpq_set_ui(f, 1 + (unsigned long)((j * 7 + (size_t)p * 13) %
			17), 19);
		spread(v, lo, hi, f, 1 + 3 * (unsigned long)p + j % 5, 0);
		mpq_clear(f);
	}
	return integer ? to_integer(v, lo, hi, p == INNER + 1) : 0;
}

/* The value of a name of domain [lo, hi] (either may be NULL) at a spike
 * point: high in the domain when 'high', else its lowest value. */
static int spike(mpq_t v, mpq_srcptr lo, mpq_srcptr hi, int integer,
	int high)
{
	if (high && hi)
		mpq_set(v, hi);
	else if (high) {
		mpq_set_ui(v, 97, 1);
		if (lo)
			mpq_add(v, v, lo);
	} else if (lo)
		mpq_set(v, lo);
	else if (hi && mpq_sgn(hi) < 0)
		mpq_set(v, hi);
	else
		mpq_set_ui(v, 0, 1);
	return integer ? to_integer(v, lo, hi, high) : 0;
}

/* The value of name number 'j' at mixed point 'p' (see domain_points.h). */
int segc_domain_point_mixed(mpq_t v, const segc_domains *dom,
	const char *name, size_t j, int p)
{
	mpq_srcptr lo = NULL, hi = NULL;
	int integer = 0;
	unsigned long h = (unsigned long)(j + 1) * 2654435761UL ^
		(unsigned long)(p + 1) * 40503UL;
	mpq_t f;

	h ^= h >> 13;
	h *= 0x5bd1e995UL;
	h ^= h >> 15;
	if (dom)
		segc_domains_get(dom, name, &lo, &hi, &integer);
	if (p >= SEGC_DOMAIN_MIXED)
		return spike(v, lo, hi, integer,
			(size_t)(p - SEGC_DOMAIN_MIXED) == j);
	mpq_init(f);
	/* a fraction in (0, 1) */
	mpq_set_ui(f, 1 + h % 89, 90);
	spread(v, lo, hi, f, 1 + (h >> 8) % 29, (h >> 16) & 1);
	mpq_clear(f);
	return integer ? to_integer(v, lo, hi, 0) : 0;
}

/* The offsets from a bound of the integer points. */
static const unsigned long integer_offsets[SEGC_DOMAIN_INTEGER_POINTS] = {
	0, 1, 2, 3, 5, 8, 13, 31, 100, 1000 };

/* The integer of the domain of 'name' at offset number 'k' (see
 * domain_points.h). */
int segc_domain_point_integer(mpq_t v, const segc_domains *dom,
	const char *name, size_t k)
{
	mpq_srcptr lo = NULL, hi = NULL;
	int integer = 0, rc = 0;
	unsigned long off = integer_offsets[k];
	mpz_t z, top;

	if (dom)
		segc_domains_get(dom, name, &lo, &hi, &integer);
	mpz_init(z);
	mpz_init(top);
	if (lo) {
		mpz_cdiv_q(z, mpq_numref(lo), mpq_denref(lo));
		mpz_add_ui(z, z, off);
	} else if (hi) {
		mpz_fdiv_q(z, mpq_numref(hi), mpq_denref(hi));
		mpz_sub_ui(z, z, off);
	} else
		mpz_set_ui(z, 1 + off);
	if (hi) {
		mpz_fdiv_q(top, mpq_numref(hi), mpq_denref(hi));
		if (mpz_cmp(z, top) > 0)
			mpz_set(z, top);
		if (lo && mpq_cmp_z(lo, z) > 0)
			rc = -1;   /* no integer in [lo, hi] */
	}
	mpq_set_z(v, z);
	mpz_clear(z);
	mpz_clear(top);
	return rc;
}
