/* test_roots.c - real roots of polynomials over Q: a table of polynomials,
 * intervals and the roots expected (exact fractions, or decimal digits
 * computed independently with Python's decimal module), products of
 * random rational linear factors whose roots must all come back exact,
 * and random quadratics against their closed form in MPFR. */
#include <config.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <mpfr.h>
#include "analysis/analysis.h"
#include "tap.h"

/* One case: coefficients from the constant term up, the interval, the
 * digits asked and the roots expected, separated by spaces. */
static const struct {
	const char *coefs[6];
	const char *lo, *hi;
	int digits;
	const char *want;
} cases[] = {
	{ { "-2", "0", "1" }, "-2", "2", 30,
	  "-1.41421356237309504880168872421 1.41421356237309504880168872421" },
	{ { "-2", "0", "0", "1" }, "0", "2", 20, "1.2599210498948731648" },
	{ { "-1", "1", "1" }, "0", "1", 25, "0.6180339887498948482045868" },
	/* (x + 5)(x - 1/3)(x - 2) = x^3 + 8/3 x^2 - 11 x + 10/3 */
	{ { "10/3", "-11", "8/3", "1" }, "-10", "10", 10, "-5 1/3 2" },
	/* (x - 1)^2 (x - 3) = x^3 - 5x^2 + 7x - 3: square-free part */
	{ { "-3", "7", "-5", "1" }, "-10", "10", 10, "1 3" },
	/* x^2 - 4: roots at the ends of the interval count */
	{ { "-4", "0", "1" }, "-2", "2", 10, "-2 2" },
	{ { "-4", "0", "1" }, "2", "5", 10, "2" },
	{ { "1", "0", "1" }, "-100", "100", 10, "" },
	/* (x - 1/1000)(x - 1/1001) */
	{ { "1/1001000", "-2001/1001000", "1" }, "0", "1", 10,
	  "1/1001 1/1000" },
	{ { "-1000001", "0", "1" }, "0", "2000", 12, "1000.0005" },
	{ { "-1000001", "0", "1" }, "0", "1000", 12, "" },
};

/* Sets 'p' from the coefficient strings. */
static void poly_from(segc_upoly *p, const char *const *c)
{
	segc_upoly t, x;
	mpq_t q;
	int i, n = 0;

	while (n < 6 && c[n])
		n++;
	segc_upoly_init(&t);
	segc_upoly_init(&x);
	segc_upoly_set_x(&x);
	mpq_init(q);
	segc_upoly_set_q(p, q);
	for (i = n; i-- > 0;) {
		mpq_set_str(q, c[i], 10);
		mpq_canonicalize(q);
		segc_upoly_mul(p, p, &x);
		segc_upoly_set_q(&t, q);
		segc_upoly_add(p, p, &t);
	}
	mpq_clear(q);
	segc_upoly_clear(&t);
	segc_upoly_clear(&x);
}

/* The roots of 'p' in [lo, hi] as text, space-separated. */
static char *roots_text(const segc_upoly *p, mpq_srcptr lo, mpq_srcptr hi,
	int digits)
{
	segc_roots rs;
	char *out = calloc(1, 1), *s;
	size_t i;

	segc_roots_init(&rs);
	segc_upoly_roots(&rs, p, lo, hi);
	for (i = 0; i < rs.n; i++) {
		s = segc_root_decimal(&rs, i, digits);
		out = realloc(out, strlen(out) + strlen(s) + 2);
		if (i)
			strcat(out, " ");
		strcat(out, s);
		free(s);
	}
	segc_roots_clear(&rs);
	return out;
}

/* Runs the table. */
static void table_cases(void)
{
	size_t k;
	mpq_t lo, hi;

	mpq_init(lo);
	mpq_init(hi);
	for (k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		segc_upoly p;
		char *got;

		segc_upoly_init(&p);
		poly_from(&p, cases[k].coefs);
		mpq_set_str(lo, cases[k].lo, 10);
		mpq_set_str(hi, cases[k].hi, 10);
		got = roots_text(&p, lo, hi, cases[k].digits);
		tap_is(got, cases[k].want, cases[k].want);
		free(got);
		segc_upoly_clear(&p);
	}
	mpq_clear(lo);
	mpq_clear(hi);
}

static uint64_t rng = 0x2545f4914f6cdd1dULL;

/* The next pseudo-random number. */
static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* Products of random linear factors (some repeated) and x^2 + x + 1:
 * exactly the distinct factors' roots come back, in order, exact. */
static void random_products(void)
{
	int round, i, j, ok = 1;

	for (round = 0; round < 200; round++) {
		segc_upoly p, f;
		segc_roots rs;
		mpq_t r[5], lo, hi, one;
		int n = 1 + (int)(next() % 5), distinct = 0;

		segc_upoly_init(&p);
		segc_upoly_init(&f);
		mpq_init(lo); mpq_init(hi); mpq_init(one);
		mpq_set_si(lo, -1000, 1);
		mpq_set_si(hi, 1000, 1);
		mpq_set_ui(one, 1, 1);
		segc_upoly_set_q(&p, one);
		for (i = 0; i < n; i++) {
			mpq_init(r[i]);
			mpq_set_si(r[i], (long)(next() % 2001) - 1000,
				1 + (unsigned long)(next() % 60));
			mpq_canonicalize(r[i]);
			segc_upoly_set_x(&f);
			mpq_neg(f.c[0], r[i]);
			segc_upoly_mul(&p, &p, &f);
			if (next() % 3 == 0)
				segc_upoly_mul(&p, &p, &f);
		}
		segc_upoly_set_x(&f);
		segc_upoly_mul(&f, &f, &f);
		mpq_set_ui(f.c[0], 1, 1);
		mpq_set_ui(f.c[1], 1, 1);
		segc_upoly_mul(&p, &p, &f);
		for (i = 0; i < n; i++) {
			for (j = 0; j < i && !mpq_equal(r[i], r[j]); j++)
				;
			distinct += j == i;
		}
		segc_roots_init(&rs);
		segc_upoly_roots(&rs, &p, lo, hi);
		if ((int)rs.n != distinct)
			ok = 0;
		for (i = 0; i < (int)rs.n; i++) {
			if (!mpq_equal(rs.r[i].lo, rs.r[i].hi) ||
			    segc_upoly_sign_at(&p, rs.r[i].lo) ||
			    (i && mpq_cmp(rs.r[i - 1].lo, rs.r[i].lo) >= 0))
				ok = 0;
		}
		segc_roots_clear(&rs);
		for (i = 0; i < n; i++)
			mpq_clear(r[i]);
		mpq_clear(lo); mpq_clear(hi); mpq_clear(one);
		segc_upoly_clear(&p);
		segc_upoly_clear(&f);
	}
	tap_ok(ok, "random products of rational linear factors: every root "
		"exact, once, in order");
}

/* Floor and ceil of an irrational root and of an integer root. */
static void floor_ceil(void)
{
	const char *c1[6] = { "-1000001", "0", "1" };
	const char *c2[6] = { "-1000000", "0", "1" };
	segc_upoly p;
	segc_roots rs;
	mpq_t lo, hi;
	mpz_t f, c;

	mpq_init(lo); mpq_init(hi); mpz_init(f); mpz_init(c);
	mpq_set_ui(lo, 0, 1);
	mpq_set_ui(hi, 5000, 1);
	segc_upoly_init(&p);
	poly_from(&p, c1);
	segc_roots_init(&rs);
	segc_upoly_roots(&rs, &p, lo, hi);
	segc_root_floor_ceil(&rs, 0, f, c);
	tap_ok(rs.n == 1 && !mpz_cmp_ui(f, 1000) && !mpz_cmp_ui(c, 1001),
		"floor and ceil of sqrt(1000001): 1000, 1001");
	segc_roots_clear(&rs);
	poly_from(&p, c2);
	segc_roots_init(&rs);
	segc_upoly_roots(&rs, &p, lo, hi);
	segc_root_floor_ceil(&rs, 0, f, c);
	tap_ok(rs.n == 1 && !mpz_cmp_ui(f, 1000) && !mpz_cmp_ui(c, 1000),
		"floor and ceil of sqrt(1000000): 1000, 1000");
	segc_roots_clear(&rs);
	segc_upoly_clear(&p);
	mpq_clear(lo); mpq_clear(hi); mpz_clear(f); mpz_clear(c);
}

/* Non-zero when 'n' is a perfect square. */
static int perfect_square(long n)
{
	mpz_t z;
	int r;

	mpz_init_set_si(z, n);
	r = mpz_perfect_square_p(z);
	mpz_clear(z);
	return r;
}

/* Random quadratics a x^2 + b x + c with irrational roots: the roots to
 * 30 digits equal (-b -+ sqrt(b^2 - 4ac))/(2a) computed with MPFR at
 * 400 bits (ordered by the sign of a). */
static void random_quadratics(void)
{
	int round, ok = 1, tried = 0;
	mpfr_t d, r[2];
	char want[2][64];

	mpfr_inits2(400, d, r[0], r[1], (mpfr_ptr)0);
	for (round = 0; round < 300; round++) {
		long a = (long)(next() % 199) - 99, b = (long)(next() % 2001) -
			1000, c = (long)(next() % 2001) - 1000, disc;
		const char *co[6] = { NULL, NULL, NULL };
		char sa[24], sb[24], sc[24];
		segc_upoly p;
		mpq_t lo, hi;
		char *got;
		int k;

		disc = b * b - 4 * a * c;
		if (!a || disc <= 0 || perfect_square(disc))
			continue;
		tried++;
		mpfr_set_si(d, disc, MPFR_RNDN);
		mpfr_sqrt(d, d, MPFR_RNDN);
		for (k = 0; k < 2; k++) {
			if (k == (a < 0))
				mpfr_neg(r[k], d, MPFR_RNDN);
			else
				mpfr_set(r[k], d, MPFR_RNDN);
			mpfr_sub_si(r[k], r[k], b, MPFR_RNDN);
			mpfr_div_si(r[k], r[k], 2 * a, MPFR_RNDN);
			mpfr_snprintf(want[k], sizeof want[k], "%.30Rg", r[k]);
		}
		snprintf(sa, sizeof sa, "%ld", a);
		snprintf(sb, sizeof sb, "%ld", b);
		snprintf(sc, sizeof sc, "%ld", c);
		co[0] = sc;
		co[1] = sb;
		co[2] = sa;
		segc_upoly_init(&p);
		poly_from(&p, co);
		mpq_init(lo);
		mpq_init(hi);
		mpq_set_si(lo, -2000, 1);
		mpq_set_si(hi, 2000, 1);
		got = roots_text(&p, lo, hi, 30);
		{
			char both[140];

			snprintf(both, sizeof both, "%s %s", want[0], want[1]);
			if (strcmp(got, both)) {
				ok = 0;
				tap_diag("got %s, want %s", got, both);
			}
		}
		free(got);
		mpq_clear(lo);
		mpq_clear(hi);
		segc_upoly_clear(&p);
	}
	mpfr_clears(d, r[0], r[1], (mpfr_ptr)0);
	tap_ok(ok && tried > 50, "%d random quadratics: both irrational roots "
		"to 30 digits as MPFR's closed form", tried);
}

int main(void)
{
	table_cases();
	random_products();
	floor_ceil();
	random_quadratics();
	return tap_done();
}
