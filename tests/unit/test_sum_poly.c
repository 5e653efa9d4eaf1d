/* test_sum_poly.c - closed forms of sums of polynomial bodies
 * (summation_poly.c) against the literal loop: random bodies in the
 * counter and two other names with rational coefficients, summed between
 * a number and a monomial (built term by term) and between symbolic
 * bounds (Horner's rule), evaluated at integer points; the same with
 * coefficients of tens of digits and a higher degree, whose closed forms
 * need many word primes (each power as many as its size), also more
 * than the explicit Chinese remainders take; the same
 * with denominators of high powers of small primes, whose closed forms
 * cancel many of them (the reduction to lowest terms by valuations,
 * beyond one word of each power and with a prime above the bound); and a
 * triangular nest of depth 40 against the binomial coefficients it
 * counts. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <segc/segc.h>
#include "tap.h"

static segc_ctx *ctx;
static segc_domains *dom;
static uint64_t rng = 0x9e3779b97f4a7c15ULL;

/* A pseudo-random number (xorshift). */
static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* A number in [lo, hi]. */
static long range(long lo, long hi)
{
	return lo + (long)(next() % (uint64_t)(hi - lo + 1));
}

/* Appends to 'buf' the factor name^e (nothing when e = 0). */
static void factor(char *buf, size_t size, const char *name, long e)
{
	size_t len = strlen(buf);

	if (e)
		snprintf(buf + len, size - len, "*%s^%ld", name, e);
}

/* Writes to 'buf' a random polynomial in i, x and y: up to 'terms'
 * terms of degree at most 'deg' in i, with rational coefficients. */
static void random_body(char *buf, size_t size, int terms, int deg)
{
	int t, n = (int)range(1, terms);

	buf[0] = '\0';
	for (t = 0; t < n; t++) {
		size_t len = strlen(buf);

		snprintf(buf + len, size - len, "%s(%ld/%ld)", t ? " + " : "",
			range(-40, 40), range(1, 9));
		factor(buf, size, "i", range(0, deg));
		factor(buf, size, "x", range(0, 2));
		factor(buf, size, "y", range(0, 1));
	}
}

/* Appends to 'buf' a positive integer of 'digits' decimal digits. */
static void big_number(char *buf, size_t size, int digits)
{
	size_t len = strlen(buf);
	int k;

	for (k = 0; k < digits && len + 1 < size; k++) {
		buf[len++] = (char)('0' + (k ? range(0, 9) : range(1, 9)));
		buf[len] = '\0';
	}
}

/* Writes to 'buf' a random polynomial in i and x with up to 'terms'
 * terms of degree at most 'deg' in i, whose coefficients have numerators
 * of 'digits' to 3 'digits' digits and denominators of 1 to 40 digits
 * (or the prime 1000003). */
static void big_body(char *buf, size_t size, int terms, int deg, int digits)
{
	int t, n = (int)range(1, terms);

	buf[0] = '\0';
	for (t = 0; t < n; t++) {
		size_t len = strlen(buf);

		snprintf(buf + len, size - len, "%s(%s", t ? " + " : "",
			range(0, 1) ? "-" : "");
		big_number(buf, size, (int)range(digits, 3 * digits));
		len = strlen(buf);
		snprintf(buf + len, size - len, "/");
		if (range(0, 3))
			big_number(buf, size, (int)range(1, 40));
		else {
			len = strlen(buf);
			snprintf(buf + len, size - len, "1000003");
		}
		len = strlen(buf);
		snprintf(buf + len, size - len, ")");
		factor(buf, size, "i", range(0, deg));
		factor(buf, size, "x", range(0, 1));
	}
}

/* Appends to 'buf' p^e times 'k' in decimal. */
static void power_number(char *buf, size_t size, unsigned long k,
	const unsigned long *p, const unsigned long *e, int n)
{
	size_t len = strlen(buf);
	mpz_t x, t;
	int j;

	mpz_init_set_ui(x, k);
	mpz_init(t);
	for (j = 0; j < n; j++) {
		mpz_ui_pow_ui(t, p[j], e[j]);
		mpz_mul(x, x, t);
	}
	if (len + mpz_sizeinbase(x, 10) + 2 < size)
		mpz_get_str(buf + len, 10, x);
	mpz_clear(x);
	mpz_clear(t);
}

/* Writes to 'buf' a random polynomial in 'var' and x with up to
 * 'terms' terms of degree at most 'deg' in 'var', whose coefficients are
 * ratios of powers of 2, 3, 5, 7 and 1009 (up to 2^90 and 3^60) times
 * small numbers. */
static void smooth_body(char *buf, size_t size, const char *var, int terms,
	int deg)
{
	static const unsigned long p[] = { 2, 3, 5, 7, 1009 };
	static const unsigned long top[] = { 90, 60, 30, 25, 2 };
	unsigned long e[5];
	int t, j, n = (int)range(1, terms);

	buf[0] = '\0';
	for (t = 0; t < n; t++) {
		size_t len = strlen(buf);

		snprintf(buf + len, size - len, "%s(%s", t ? " + " : "",
			range(0, 1) ? "-" : "");
		for (j = 0; j < 5; j++)
			e[j] = (unsigned long)range(0, (long)top[j] / 4);
		power_number(buf, size, (unsigned long)range(1, 99), p, e, 5);
		len = strlen(buf);
		snprintf(buf + len, size - len, "/");
		for (j = 0; j < 5; j++)
			e[j] = (unsigned long)range(0, (long)top[j]);
		power_number(buf, size, (unsigned long)range(1, 9), p, e, 5);
		len = strlen(buf);
		snprintf(buf + len, size - len, ")");
		factor(buf, size, var, range(0, deg));
		factor(buf, size, "x", range(0, 1));
	}
}

/* A non-zero rational with numerator in [-9, 9] over 'den'. */
static void nonzero(mpq_ptr q, unsigned long den)
{
	long n = range(1, 9);

	mpq_set_si(q, range(0, 1) ? n : -n, den);
	mpq_canonicalize(q);
}

/* Compares the canonical form of 'text' with the literal loop at
 * N = 1..6, P = 1..3 and two non-zero rational x, y: the number of
 * disagreements (1 when the form cannot be made). */
static int compare(const char *text)
{
	static const char *const names[] = { "N", "P", "x", "y" };
	segc_expr *e = segc_expr_parse(ctx, text, NULL), *c = NULL;
	mpq_t v[18][4], want[18], got;
	int i, k, bad = 0;

	mpq_init(got);
	for (i = 0; i < 18; i++) {
		for (k = 0; k < 4; k++)
			mpq_init(v[i][k]);
		mpq_init(want[i]);
		mpq_set_si(v[i][0], i / 3 + 1, 1);
		mpq_set_si(v[i][1], i % 3 + 1, 1);
		nonzero(v[i][2], 7);
		nonzero(v[i][3], 5);
		if (!e || segc_expr_eval_q(want[i], e, 4, names,
			(const mpq_t *)v[i]))
			bad++;
	}
	if (!bad)
		c = segc_canonical(ctx, dom, segc_expr_copy(e));
	for (i = 0; i < 18; i++) {
		if (!bad && (!c || segc_expr_eval_q(got, c, 4, names,
			(const mpq_t *)v[i]) || !mpq_equal(got, want[i])))
			bad++;
		for (k = 0; k < 4; k++)
			mpq_clear(v[i][k]);
		mpq_clear(want[i]);
	}
	mpq_clear(got);
	segc_expr_free(e);
	segc_expr_free(c);
	return bad;
}

/* Random bodies over each kind of bounds. */
static void test_random_bodies(void)
{
	static const char *const bounds[][2] = {
		{ "1", "N" },       /* a number and a monomial */
		{ "-2", "N" },
		{ "3", "N*P" },
		{ "0", "2*N" },
		{ "-1", "5" },      /* two numbers */
		{ "1/2", "N" },     /* a fraction: ceil(1/2) = 1 */
		{ "P", "N + 3" },   /* symbolic: Horner's rule */
		{ "N - P", "2*N" },
	};
	size_t b;

	for (b = 0; b < sizeof(bounds) / sizeof(bounds[0]); b++) {
		int round, bad = 0;

		for (round = 0; round < 12; round++) {
			char body[1024], text[1200];

			random_body(body, sizeof(body), 6, round < 6 ? 4 : 13);
			snprintf(text, sizeof(text), "sum(i, %s, %s, %s)",
				bounds[b][0], bounds[b][1], body);
			bad += compare(text);
		}
		tap_ok(bad == 0, "12 random bodies summed over [%s, %s] equal "
			"the loop (%d mismatches)", bounds[b][0], bounds[b][1], bad);
	}
}

/* The bounds of the outer sums of the random bodies: a number and a
 * monomial, another number, and symbolic bounds. */
static const char *const sum_bounds[][2] = {
	{ "1", "N" },
	{ "-2", "N" },
	{ "P", "N + 3" },
};

/* Bodies of large coefficients and degree up to 30 over a number and a
 * monomial, and over symbolic bounds. */
static void test_big_bodies(void)
{
	size_t b;

	for (b = 0; b < sizeof(sum_bounds) / sizeof(sum_bounds[0]); b++) {
		int round, bad = 0;

		for (round = 0; round < 6; round++) {
			char body[4096], text[4200];

			big_body(body, sizeof(body), 5, 30, 30);
			snprintf(text, sizeof(text), "sum(i, %s, %s, %s)",
				sum_bounds[b][0], sum_bounds[b][1], body);
			bad += compare(text);
		}
		tap_ok(bad == 0, "6 bodies of large coefficients summed over "
			"[%s, %s] equal the loop (%d mismatches)", sum_bounds[b][0],
			sum_bounds[b][1], bad);
	}
}

/* The number of terms of the printed form 's' written as a fraction
 * not in lowest terms: for each '/' followed by digits, the number
 * that begins its term (after a sign, '+', '-' or '('; 1 when none)
 * and the digits after the '/' must be coprime. */
static int not_lowest(const char *s)
{
	const char *slash;
	int bad = 0;
	mpz_t num, den;

	mpz_init(num);
	mpz_init(den);
	for (slash = strchr(s, '/'); slash; slash = strchr(slash + 1, '/')) {
		const char *t = slash, *d = slash + 1;
		char digits[4096];
		size_t k = 0;

		if (*d < '0' || *d > '9')
			continue;
		while (t > s && t[-1] != '(' && !(t[-1] == ' ' && t - 1 > s &&
			(t[-2] == '+' || t[-2] == '-')))
			t--;
		while (*t == '-' || *t == ' ')
			t++;
		while (*t >= '0' && *t <= '9' && k + 1 < sizeof(digits))
			digits[k++] = *t++;
		digits[k] = '\0';
		mpz_set_str(num, k ? digits : "1", 10);
		for (k = 0; d[k] >= '0' && d[k] <= '9' && k + 1 < sizeof(digits);
			k++)
			digits[k] = d[k];
		digits[k] = '\0';
		mpz_set_str(den, digits, 10);
		mpz_gcd(num, num, den);
		if (mpz_cmp_ui(num, 1))
			bad++;
	}
	mpz_clear(num);
	mpz_clear(den);
	return bad;
}

/* The number of fractions not in lowest terms in the canonical form
 * of 'text' (1 when it cannot be made). */
static int lowest_terms(const char *text)
{
	segc_expr *e = segc_expr_parse(ctx, text, NULL);
	segc_expr *c = e ? segc_canonical(ctx, dom, e) : NULL;
	char *s = c ? segc_expr_to_string(c) : NULL;
	int bad = s ? not_lowest(s) : 1;

	free(s);
	segc_expr_free(c);
	return bad;
}

/* Bodies of coefficients of 700 to 2100 digits, whose closed forms need
 * more word primes than the explicit Chinese remainders take (FLINT's
 * tree then). */
static void test_huge_bodies(void)
{
	int round, bad = 0;

	for (round = 0; round < 3; round++) {
		char body[16384], text[16500];

		big_body(body, sizeof(body), 3, 12, 700);
		snprintf(text, sizeof(text), "sum(i, 1, N, %s)", body);
		bad += compare(text);
	}
	tap_ok(bad == 0, "3 bodies of coefficients of thousands of digits "
		"summed over [1, N] equal the loop (%d mismatches)", bad);
}

/* Nests of three sums whose bodies have denominators of high powers of
 * small primes and of a prime above the bound of the small ones, the
 * outer sum over a number and a monomial or over symbolic bounds: each
 * inner closed form is summed again, so that a coefficient left out of
 * lowest terms changes the result; the printed coefficients are also
 * checked to be in lowest terms. */
static void test_smooth_bodies(void)
{
	size_t b;

	for (b = 0; b < sizeof(sum_bounds) / sizeof(sum_bounds[0]); b++) {
		int round, bad = 0;

		for (round = 0; round < 4; round++) {
			char ba[3000], bj[3000], bi[3000], text[9300];

			smooth_body(ba, sizeof(ba), "a", 3, 6);
			smooth_body(bj, sizeof(bj), "j", 3, 6);
			smooth_body(bi, sizeof(bi), "i", 4, 12);
			snprintf(text, sizeof(text), "sum(a, %s, %s, %s + "
				"sum(j, 1, a, %s + sum(i, 1, j, %s)))",
				sum_bounds[b][0], sum_bounds[b][1], ba, bj, bi);
			bad += compare(text) + lowest_terms(text);
		}
		tap_ok(bad == 0, "4 nests of bodies over powers of small primes "
			"summed over [%s, %s] equal the loops, their coefficients "
			"in lowest terms (%d mismatches)",
			sum_bounds[b][0], sum_bounds[b][1], bad);
	}
}

/* A triangular nest of depth 'depth' with a unit step at every level:
 * sum_{i0=1}^{N} (1 + sum_{i1=1}^{i0} (1 + ...)). */
static char *nest_text(int depth)
{
	size_t size = (size_t)depth * 40 + 16, len = 0;
	char *s = malloc(size);
	int k;

	for (k = 0; k < depth; k++) {
		char bound[16];

		snprintf(bound, sizeof(bound), k ? "i%d" : "N", k - 1);
		len += (size_t)snprintf(s + len, size - len, "sum(i%d, 1, %s, 1%s",
			k, bound, k + 1 < depth ? " + " : "");
	}
	for (k = 0; k < depth; k++)
		s[len++] = ')';
	s[len] = '\0';
	return s;
}

/* The nest of depth 40 counts sum_{j=1}^{40} C(N + j - 1, j) steps. */
static void test_nest(void)
{
	static const char *const names[] = { "N" };
	char *text = nest_text(40);
	segc_expr *e = segc_expr_parse(ctx, text, NULL), *c;
	int n, j, bad = 0;

	c = e ? segc_canonical(ctx, dom, segc_expr_copy(e)) : NULL;
	for (n = 1; c && n <= 12; n++) {
		mpq_t v[1], got;
		mpz_t want, t;

		mpq_init(v[0]);
		mpq_init(got);
		mpz_init(want);
		mpz_init(t);
		mpq_set_si(v[0], n, 1);
		for (j = 1; j <= 40; j++) {
			mpz_bin_uiui(t, (unsigned long)(n + j - 1), (unsigned long)j);
			mpz_add(want, want, t);
		}
		if (segc_expr_eval_q(got, c, 1, names, (const mpq_t *)v) ||
			mpz_cmp_ui(mpq_denref(got), 1) ||
			mpz_cmp(mpq_numref(got), want))
			bad++;
		mpq_clear(v[0]);
		mpq_clear(got);
		mpz_clear(want);
		mpz_clear(t);
	}
	tap_ok(c && bad == 0, "a triangular nest of depth 40 counts the "
		"binomial sums at N = 1..12 (%d mismatches)", bad);
	segc_expr_free(e);
	segc_expr_free(c);
	free(text);
}

int main(void)
{
	mpq_t one;

	ctx = segc_ctx_new();
	dom = segc_domains_new();
	mpq_init(one);
	mpq_set_ui(one, 1, 1);
	segc_domains_set(dom, "N", one, NULL, 1);
	segc_domains_set(dom, "P", one, NULL, 1);
	mpq_clear(one);
	test_random_bodies();
	test_big_bodies();
	test_huge_bodies();
	test_smooth_bodies();
	test_nest();
	segc_domains_free(dom);
	segc_ctx_free(ctx);
	segc_library_cleanup();
	return tap_done();
}
