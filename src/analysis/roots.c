/* roots.c - dense polynomials in one variable over Q and their real
 * roots: Sturm sequences count the roots in an interval, bisection
 * isolates and refines them, every rational root is found exactly (the
 * simplest rational of a narrow enough interval), and a root is written
 * in decimal correctly rounded.  GMP and MPFR only; nothing is sampled. */
#include <config.h>

#include <stdlib.h>
#include <string.h>
#include <mpfr.h>

#include "analysis/analysis.h"
#include "base/util.h"

/* ----------------------------------------------------------- polynomials */

/* Makes an empty (zero) polynomial. */
void segc_upoly_init(segc_upoly *p)
{
	memset(p, 0, sizeof *p);
}

/* Releases 'p'. */
void segc_upoly_clear(segc_upoly *p)
{
	size_t i;

	for (i = 0; i < p->cap; i++)
		mpq_clear(p->c[i]);
	free(p->c);
	memset(p, 0, sizeof *p);
}

/* Makes room for 'n' coefficients in 'p' (new ones zero). */
static void reserve(segc_upoly *p, size_t n)
{
	size_t i;

	if (n <= p->cap)
		return;
	p->c = segc_xrealloc(p->c, segc_xmul_size(n, sizeof *p->c));
	for (i = p->cap; i < n; i++)
		mpq_init(p->c[i]);
	p->cap = n;
}

/* Drops the zero leading coefficients of 'p'. */
static void trim(segc_upoly *p)
{
	while (p->len && !mpq_sgn(p->c[p->len - 1]))
		p->len--;
}

/* Sets 'p' to 'len' zero coefficients. */
static void set_zeros(segc_upoly *p, size_t len)
{
	size_t i;

	reserve(p, len);
	for (i = 0; i < len; i++)
		mpq_set_ui(p->c[i], 0, 1);
	p->len = len;
}

/* r = a. */
void segc_upoly_set(segc_upoly *r, const segc_upoly *a)
{
	size_t i;

	if (r == a)
		return;
	reserve(r, a->len);
	for (i = 0; i < a->len; i++)
		mpq_set(r->c[i], a->c[i]);
	r->len = a->len;
}

/* p = c. */
void segc_upoly_set_q(segc_upoly *p, mpq_srcptr c)
{
	set_zeros(p, 1);
	mpq_set(p->c[0], c);
	trim(p);
}

/* p = x. */
void segc_upoly_set_x(segc_upoly *p)
{
	set_zeros(p, 2);
	mpq_set_ui(p->c[1], 1, 1);
}

/* The degree of 'p' (-1 for zero). */
long segc_upoly_degree(const segc_upoly *p)
{
	return (long)p->len - 1;
}

/* r = a + sign * b. */
static void add_signed(segc_upoly *r, const segc_upoly *a,
	const segc_upoly *b, int sign)
{
	segc_upoly t;
	size_t i, n = a->len > b->len ? a->len : b->len;

	segc_upoly_init(&t);
	set_zeros(&t, n);
	for (i = 0; i < a->len; i++)
		mpq_set(t.c[i], a->c[i]);
	for (i = 0; i < b->len; i++)
		if (sign > 0)
			mpq_add(t.c[i], t.c[i], b->c[i]);
		else
			mpq_sub(t.c[i], t.c[i], b->c[i]);
	trim(&t);
	segc_upoly_set(r, &t);
	segc_upoly_clear(&t);
}

/* r = a + b. */
void segc_upoly_add(segc_upoly *r, const segc_upoly *a, const segc_upoly *b)
{
	add_signed(r, a, b, 1);
}

/* r = a - b. */
void segc_upoly_sub(segc_upoly *r, const segc_upoly *a, const segc_upoly *b)
{
	add_signed(r, a, b, -1);
}

/* r = a * b. */
void segc_upoly_mul(segc_upoly *r, const segc_upoly *a, const segc_upoly *b)
{
	segc_upoly t;
	mpq_t x;
	size_t i, j;

	segc_upoly_init(&t);
	if (a->len && b->len) {
		mpq_init(x);
		set_zeros(&t, a->len + b->len - 1);
		for (i = 0; i < a->len; i++)
			for (j = 0; j < b->len; j++) {
				mpq_mul(x, a->c[i], b->c[j]);
				mpq_add(t.c[i + j], t.c[i + j], x);
			}
		mpq_clear(x);
		trim(&t);
	}
	segc_upoly_set(r, &t);
	segc_upoly_clear(&t);
}

/* r = a'. */
void segc_upoly_deriv(segc_upoly *r, const segc_upoly *a)
{
	segc_upoly t;
	size_t i;

	segc_upoly_init(&t);
	if (a->len > 1) {
		set_zeros(&t, a->len - 1);
		for (i = 1; i < a->len; i++) {
			mpq_set_ui(t.c[i - 1], (unsigned long)i, 1);
			mpq_mul(t.c[i - 1], t.c[i - 1], a->c[i]);
		}
		trim(&t);
	}
	segc_upoly_set(r, &t);
	segc_upoly_clear(&t);
}

/* q, r = a divided by b. */
void segc_upoly_divrem(segc_upoly *q, segc_upoly *r, const segc_upoly *a,
	const segc_upoly *b)
{
	segc_upoly rem, quo;
	mpq_t f, x;
	size_t k, i;

	segc_upoly_init(&rem);
	segc_upoly_init(&quo);
	mpq_init(f);
	mpq_init(x);
	segc_upoly_set(&rem, a);
	set_zeros(&quo, a->len >= b->len ? a->len - b->len + 1 : 0);
	while (rem.len >= b->len && rem.len) {
		k = rem.len - b->len;
		mpq_div(f, rem.c[rem.len - 1], b->c[b->len - 1]);
		mpq_set(quo.c[k], f);
		for (i = 0; i < b->len; i++) {
			mpq_mul(x, f, b->c[i]);
			mpq_sub(rem.c[i + k], rem.c[i + k], x);
		}
		trim(&rem);
	}
	trim(&quo);
	if (q)
		segc_upoly_set(q, &quo);
	segc_upoly_set(r, &rem);
	mpq_clear(f);
	mpq_clear(x);
	segc_upoly_clear(&rem);
	segc_upoly_clear(&quo);
}

/* Divides 'p' by its leading coefficient. */
static void make_monic(segc_upoly *p)
{
	mpq_t l;
	size_t i;

	if (!p->len)
		return;
	mpq_init(l);
	mpq_set(l, p->c[p->len - 1]);
	for (i = 0; i < p->len; i++)
		mpq_div(p->c[i], p->c[i], l);
	mpq_clear(l);
}

/* g = the monic gcd of a and b (Euclid over Q). */
void segc_upoly_gcd(segc_upoly *g, const segc_upoly *a, const segc_upoly *b)
{
	segc_upoly u, v, r;

	segc_upoly_init(&u);
	segc_upoly_init(&v);
	segc_upoly_init(&r);
	segc_upoly_set(&u, a);
	segc_upoly_set(&v, b);
	while (v.len) {
		segc_upoly_divrem(NULL, &r, &u, &v);
		make_monic(&r);
		segc_upoly_set(&u, &v);
		segc_upoly_set(&v, &r);
	}
	make_monic(&u);
	segc_upoly_set(g, &u);
	segc_upoly_clear(&u);
	segc_upoly_clear(&v);
	segc_upoly_clear(&r);
}

/* r = a(x) by Horner's rule. */
void segc_upoly_eval(mpq_t r, const segc_upoly *a, mpq_srcptr x)
{
	mpq_t t;
	size_t i;

	mpq_init(t);
	for (i = a->len; i-- > 0;) {
		mpq_mul(t, t, x);
		mpq_add(t, t, a->c[i]);
	}
	mpq_set(r, t);
	mpq_clear(t);
}

/* The sign of a(x). */
int segc_upoly_sign_at(const segc_upoly *a, mpq_srcptr x)
{
	mpq_t v;
	int s;

	mpq_init(v);
	segc_upoly_eval(v, a, x);
	s = mpq_sgn(v);
	mpq_clear(v);
	return s;
}

/* ------------------------------------------------------- Sturm sequence */

/* A Sturm sequence: p, p', -rem(p_{i-1}, p_i), ... */
typedef struct sturm {
	size_t n;
	segc_upoly *s;
} sturm;

/* Builds the Sturm sequence of the square-free 'p' (degree >= 1). */
static void sturm_init(sturm *st, const segc_upoly *p)
{
	size_t cap = (size_t)segc_upoly_degree(p) + 2;
	segc_upoly r;

	st->s = segc_xcalloc(cap, sizeof *st->s);
	segc_upoly_init(&r);
	segc_upoly_set(&st->s[0], p);
	segc_upoly_deriv(&st->s[1], p);
	st->n = 2;
	while (st->n < cap) {
		segc_upoly_divrem(NULL, &r, &st->s[st->n - 2], &st->s[st->n - 1]);
		if (!r.len)
			break;
		segc_upoly_sub(&st->s[st->n], &st->s[st->n], &r);
		st->n++;
	}
	segc_upoly_clear(&r);
}

/* Releases 'st'. */
static void sturm_clear(sturm *st)
{
	size_t i, cap = st->s ? (size_t)segc_upoly_degree(&st->s[0]) + 2 : 0;

	for (i = 0; i < cap; i++)
		segc_upoly_clear(&st->s[i]);
	free(st->s);
}

/* The sign variations of the sequence at x (zeros skipped). */
static long variations(const sturm *st, mpq_srcptr x)
{
	long v = 0;
	int last = 0, s;
	size_t i;

	for (i = 0; i < st->n; i++) {
		s = segc_upoly_sign_at(&st->s[i], x);
		if (!s)
			continue;
		if (last && s != last)
			v++;
		last = s;
	}
	return v;
}

/* ------------------------------------------------------------ isolation */

/* Releases the roots and the polynomial of 'rs'. */
void segc_roots_clear(segc_roots *rs)
{
	size_t i;

	for (i = 0; i < rs->n; i++) {
		mpq_clear(rs->r[i].lo);
		mpq_clear(rs->r[i].hi);
	}
	free(rs->r);
	segc_upoly_clear(&rs->sqf);
	memset(rs, 0, sizeof *rs);
}

/* Makes an empty set of roots. */
void segc_roots_init(segc_roots *rs)
{
	memset(rs, 0, sizeof *rs);
}

/* Appends the root in (lo, hi) (or exactly lo when hi is NULL). */
static void push_root(segc_roots *rs, mpq_srcptr lo, mpq_srcptr hi)
{
	if (rs->n == rs->cap) {
		rs->cap = rs->cap ? 2 * rs->cap : 4;
		rs->r = segc_xrealloc(rs->r, segc_xmul_size(rs->cap,
			sizeof *rs->r));
	}
	mpq_init(rs->r[rs->n].lo);
	mpq_init(rs->r[rs->n].hi);
	mpq_set(rs->r[rs->n].lo, lo);
	mpq_set(rs->r[rs->n].hi, hi ? hi : lo);
	rs->n++;
}

/* m = (a + b) / 2. */
static void midpoint(mpq_t m, mpq_srcptr a, mpq_srcptr b)
{
	mpq_add(m, a, b);
	mpq_div_2exp(m, m, 1);
}

/* The simplest rational (smallest denominator) in [a, b], a <= b, by
 * continued fractions. */
static void simplest_rational(mpq_t r, mpq_srcptr a0, mpq_srcptr b0)
{
	mpz_t p0, p1, q0, q1, n, t;
	mpq_t a, b, x;

	mpz_inits(p0, p1, q0, q1, n, t, NULL);
	mpq_init(a); mpq_init(b); mpq_init(x);
	mpq_set(a, a0);
	mpq_set(b, b0);
	mpz_set_ui(p0, 1); mpz_set_ui(p1, 0);
	mpz_set_ui(q0, 0); mpz_set_ui(q1, 1);
	for (;;) {
		mpz_cdiv_q(n, mpq_numref(a), mpq_denref(a));
		mpq_set_z(x, n);
		if (mpq_cmp(x, b) <= 0)
			break;
		mpz_fdiv_q(n, mpq_numref(a), mpq_denref(a));
		mpq_set_z(x, n);
		mpq_sub(a, a, x);
		mpq_sub(b, b, x);
		mpq_inv(a, a);
		mpq_inv(b, b);
		mpq_swap(a, b);
		mpz_set(t, p0);
		mpz_mul(p0, p0, n);
		mpz_add(p0, p0, p1);
		mpz_set(p1, t);
		mpz_set(t, q0);
		mpz_mul(q0, q0, n);
		mpz_add(q0, q0, q1);
		mpz_set(q1, t);
	}
	mpz_mul(t, p0, n);
	mpz_add(mpq_numref(r), t, p1);
	mpz_mul(t, q0, n);
	mpz_add(mpq_denref(r), t, q1);
	mpq_canonicalize(r);
	mpz_clears(p0, p1, q0, q1, n, t, NULL);
	mpq_clear(a); mpq_clear(b); mpq_clear(x);
}

/* The leading coefficient of 'p' made integral with the others: the
 * bound on the denominator of a rational root. */
static void root_denominator_bound(mpz_t L, const segc_upoly *p)
{
	mpz_t den;
	size_t i;

	mpz_init_set_ui(den, 1);
	for (i = 0; i < p->len; i++)
		mpz_lcm(den, den, mpq_denref(p->c[i]));
	mpz_divexact(L, den, mpq_denref(p->c[p->len - 1]));
	mpz_mul(L, L, mpq_numref(p->c[p->len - 1]));
	mpz_abs(L, L);
	mpz_clear(den);
}

/* Makes root 'i' exact when it is rational: narrowed below 1/(2 L^2),
 * only one rational with denominator at most L remains in it, the
 * simplest one. */
static void find_rational(segc_roots *rs, size_t i)
{
	segc_root *r = &rs->r[i];
	mpz_t L;
	mpq_t w, s;

	if (mpq_equal(r->lo, r->hi))
		return;
	mpz_init(L);
	mpq_init(w);
	mpq_init(s);
	root_denominator_bound(L, &rs->sqf);
	mpz_mul(L, L, L);
	mpz_mul_2exp(L, L, 1);
	mpq_set_z(w, L);
	mpq_inv(w, w);
	segc_root_refine(rs, i, w);
	r = &rs->r[i];
	if (!mpq_equal(r->lo, r->hi)) {
		simplest_rational(s, r->lo, r->hi);
		if (mpq_cmp(s, r->lo) > 0 &&
		    !segc_upoly_sign_at(&rs->sqf, s)) {
			mpq_set(r->lo, s);
			mpq_set(r->hi, s);
		}
	}
	mpz_clear(L);
	mpq_clear(w);
	mpq_clear(s);
}

/* One interval (a, b] to look at and its number of roots. */
typedef struct span {
	mpq_t a, b;
	long count;
} span;

/* Isolates the roots of the sequence's polynomial in (a, b] holding
 * 'count' of them, left to right, with a stack of spans. */
static void isolate(segc_roots *rs, const sturm *st, mpq_srcptr a0,
	mpq_srcptr b0, long count)
{
	size_t n = 0, cap = 64, k;
	span *stack = segc_xmalloc(cap * sizeof *stack);
	mpq_t m;
	long left;

	mpq_init(m);
	mpq_init(stack[0].a);
	mpq_init(stack[0].b);
	mpq_set(stack[0].a, a0);
	mpq_set(stack[0].b, b0);
	stack[0].count = count;
	n = 1;
	while (n) {
		span *s = &stack[n - 1];

		if (s->count == 1 || !s->count) {
			if (s->count && !segc_upoly_sign_at(&st->s[0], s->b))
				push_root(rs, s->b, NULL);
			else if (s->count)
				push_root(rs, s->a, s->b);
			mpq_clear(s->a);
			mpq_clear(s->b);
			n--;
			continue;
		}
		if (n + 1 > cap) {
			cap *= 2;
			stack = segc_xrealloc(stack, segc_xmul_size(cap,
				sizeof *stack));
			s = &stack[n - 1];
		}
		midpoint(m, s->a, s->b);
		left = variations(st, s->a) - variations(st, m);
		mpq_init(stack[n].a);
		mpq_init(stack[n].b);
		mpq_set(stack[n].a, s->a);
		mpq_set(stack[n].b, m);
		stack[n].count = left;
		mpq_set(s->a, m);
		s->count -= left;
		n++;
	}
	for (k = 0; k < n; k++) {
		mpq_clear(stack[k].a);
		mpq_clear(stack[k].b);
	}
	free(stack);
	mpq_clear(m);
}

/* Isolates the roots of 'p' in [lo, hi] (see analysis.h). */
void segc_upoly_roots(segc_roots *rs, const segc_upoly *p, mpq_srcptr lo,
	mpq_srcptr hi)
{
	segc_upoly d, g;
	sturm st;
	size_t first = rs->n, i;
	long count;

	segc_upoly_init(&d);
	segc_upoly_init(&g);
	segc_upoly_deriv(&d, p);
	segc_upoly_gcd(&g, p, &d);
	segc_upoly_divrem(&rs->sqf, &d, p, &g);
	if (segc_upoly_degree(&rs->sqf) >= 1 && mpq_cmp(lo, hi) <= 0) {
		sturm_init(&st, &rs->sqf);
		if (!segc_upoly_sign_at(&rs->sqf, lo))
			push_root(rs, lo, NULL);
		count = variations(&st, lo) - variations(&st, hi);
		if (count > 0)
			isolate(rs, &st, lo, hi, count);
		sturm_clear(&st);
	}
	for (i = first; i < rs->n; i++)
		find_rational(rs, i);
	segc_upoly_clear(&d);
	segc_upoly_clear(&g);
}

/* Narrows root 'i' to at most 'width' by bisection: the one root in
 * (lo, hi) lies right of m exactly when the sign at m differs from the
 * sign at hi. */
void segc_root_refine(segc_roots *rs, size_t i, mpq_srcptr width)
{
	segc_root *r = &rs->r[i];
	mpq_t m, w;
	int shi, sm;

	mpq_init(m);
	mpq_init(w);
	shi = segc_upoly_sign_at(&rs->sqf, r->hi);
	for (;;) {
		mpq_sub(w, r->hi, r->lo);
		if (mpq_cmp(w, width) <= 0)
			break;
		midpoint(m, r->lo, r->hi);
		sm = segc_upoly_sign_at(&rs->sqf, m);
		if (!sm) {
			mpq_set(r->lo, m);
			mpq_set(r->hi, m);
		} else if (sm == shi)
			mpq_set(r->hi, m);
		else
			mpq_set(r->lo, m);
	}
	mpq_clear(m);
	mpq_clear(w);
}

/* Sets 'f' and 'c' to the floor and ceil of root 'i'. */
void segc_root_floor_ceil(segc_roots *rs, size_t i, mpz_t f, mpz_t c)
{
	segc_root *r = &rs->r[i];
	mpz_t fl, fh;
	mpq_t w;

	mpz_init(fl);
	mpz_init(fh);
	mpq_init(w);
	mpq_set_ui(w, 1, 1);
	for (;;) {
		r = &rs->r[i];
		mpz_fdiv_q(fl, mpq_numref(r->lo), mpq_denref(r->lo));
		mpz_cdiv_q(fh, mpq_numref(r->hi), mpq_denref(r->hi));
		mpz_sub(fh, fh, fl);
		if (mpq_equal(r->lo, r->hi) || mpz_cmp_ui(fh, 1) <= 0)
			break;
		mpq_div_2exp(w, w, 1);
		segc_root_refine(rs, i, w);
	}
	if (mpq_equal(r->lo, r->hi)) {
		mpz_fdiv_q(f, mpq_numref(r->lo), mpq_denref(r->lo));
		mpz_cdiv_q(c, mpq_numref(r->lo), mpq_denref(r->lo));
	} else {
		mpz_set(f, fl);
		mpz_add_ui(c, fl, 1);
	}
	mpz_clear(fl);
	mpz_clear(fh);
	mpq_clear(w);
}

/* 'q' to 'digits' significant digits, rounded in direction 'rnd' first
 * to a binary number of enough bits; malloc'd. */
static char *decimal(mpq_srcptr q, int digits, mpfr_rnd_t rnd)
{
	mpfr_t x;
	char *s;
	int n;

	mpfr_init2(x, (mpfr_prec_t)digits * 4 + 64);
	mpfr_set_q(x, q, rnd);
	n = mpfr_snprintf(NULL, 0, "%.*Rg", digits, x);
	s = segc_xmalloc((size_t)n + 1);
	mpfr_snprintf(s, (size_t)n + 1, "%.*Rg", digits, x);
	mpfr_clear(x);
	return s;
}

/* Root 'i' in decimal (see analysis.h): the ends are rounded outwards to
 * binary, then to decimal; when both give the same digits, so does every
 * number between them. */
char *segc_root_decimal(segc_roots *rs, size_t i, int digits)
{
	segc_root *r = &rs->r[i];
	char *lo, *hi;
	mpq_t w;

	if (mpq_equal(r->lo, r->hi))
		return mpq_get_str(NULL, 10, r->lo);
	mpq_init(w);
	mpq_sub(w, r->hi, r->lo);
	for (;;) {
		r = &rs->r[i];
		lo = decimal(r->lo, digits, MPFR_RNDD);
		hi = decimal(r->hi, digits, MPFR_RNDU);
		if (mpq_equal(r->lo, r->hi) || !strcmp(lo, hi))
			break;
		free(lo);
		free(hi);
		mpq_div_2exp(w, w, 8);
		segc_root_refine(rs, i, w);
	}
	free(hi);
	mpq_clear(w);
	if (mpq_equal(r->lo, r->hi)) {
		free(lo);
		return mpq_get_str(NULL, 10, r->lo);
	}
	return lo;
}
