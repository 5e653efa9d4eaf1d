/* test_sum_pieces.c - sums whose bodies are affine in the counter, or
 * max, min, floor and ceil of affine functions, valued by the certified
 * doubles (which sum such bodies in closed form, src/output/evaldbl.c)
 * against the same sums computed here term by term in exact rationals.
 *
 * Random bodies of up to four terms, with coefficients that are small
 * rationals, multiples of a point value x, or rationals whose
 * denominators pass 2^62 (which the doubles keep only as balls), over
 * ranges that are empty, short, or longer than the 1000 terms that the
 * doubles would sum one by one.  Every enclosure must hold the exact
 * sum and be narrow; every body of small rationals must be valued (so a
 * long one was summed in closed form); a body of another shape must
 * still be enclosed where it is valued. */
#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "segc/segc.h"
#include "segc/eval.h"
#include "tap.h"

/* 3^45, above 2^62: a denominator the doubles cannot keep exactly. */
#define BIG_DEN "2954312706550833698643"

/* A coefficient: q, times x when 'byx'. */
typedef struct coef {
	mpq_t q;
	int byx;
} coef;

/* A term of a body: kind 0 affine (a0 + b0 j), 1 max, 2 min, 3 floor,
 * 4 ceil, 5 j^2 max(j, a0) (a shape with no closed form), times m. */
typedef struct term {
	int kind;
	coef m, a0, b0, a1, b1;
} term;

/* A random number below n. */
static unsigned rnd(unsigned *seed, unsigned n)
{
	*seed = *seed * 1103515245u + 12345u;
	return (*seed >> 8) % n;
}

/* A random coefficient: mostly small rationals, some times x, and with
 * 'big' set sometimes one over BIG_DEN. */
static void rand_coef(coef *c, unsigned *seed, int big)
{
	mpq_init(c->q);
	c->byx = rnd(seed, 5) == 0;
	if (big && rnd(seed, 3) == 0) {
		char text[64];

		snprintf(text, sizeof text, "%d/" BIG_DEN,
			(int)rnd(seed, 2000001) - 1000000);
		mpq_set_str(c->q, text, 10);
		mpq_canonicalize(c->q);
		return;
	}
	mpq_set_si(c->q, (long)rnd(seed, 41) - 20, 1 + rnd(seed, 12));
	mpq_canonicalize(c->q);
}

/* Appends the text of 'c' to 'buf'. */
static void put_coef(char *buf, size_t cap, const coef *c)
{
	size_t n = strlen(buf);

	gmp_snprintf(buf + n, cap - n, "(%Qd)%s", c->q, c->byx ? "*x" : "");
}

/* r = the value of 'c' at x. */
static void coef_val(mpq_t r, const coef *c, const mpq_t x)
{
	mpq_set(r, c->q);
	if (c->byx)
		mpq_mul(r, r, x);
}

/* r = a + b j at x. */
static void affine_val(mpq_t r, const coef *a, const coef *b, long j,
	const mpq_t x)
{
	mpq_t t;

	mpq_init(t);
	coef_val(r, a, x);
	coef_val(t, b, x);
	mpz_mul_si(mpq_numref(t), mpq_numref(t), j);
	mpq_canonicalize(t);
	mpq_add(r, r, t);
	mpq_clear(t);
}

/* r = the value of the term 't' at j, x, computed directly. */
static void term_val(mpq_t r, const term *t, long j, const mpq_t x)
{
	mpq_t u, m;

	mpq_init(u);
	mpq_init(m);
	affine_val(r, &t->a0, &t->b0, j, x);
	switch (t->kind) {
	case 1: case 2:
		affine_val(u, &t->a1, &t->b1, j, x);
		if ((mpq_cmp(u, r) > 0) == (t->kind == 1))
			mpq_set(r, u);
		break;
	case 3: case 4:
		if (t->kind == 3)
			mpz_fdiv_q(mpq_numref(r), mpq_numref(r),
				mpq_denref(r));
		else
			mpz_cdiv_q(mpq_numref(r), mpq_numref(r),
				mpq_denref(r));
		mpz_set_ui(mpq_denref(r), 1);
		break;
	case 5:
		coef_val(u, &t->a0, x);
		mpq_set_si(r, j, 1);
		if (mpq_cmp(u, r) > 0)
			mpq_set(r, u);
		mpq_set_si(u, j * j, 1);
		mpq_mul(r, r, u);
		break;
	default:
		break;
	}
	coef_val(m, &t->m, x);
	mpq_mul(r, r, m);
	mpq_clear(u);
	mpq_clear(m);
}

/* The text of the term 't' into 'buf'. */
static void put_term(char *buf, size_t cap, const term *t)
{
	static const char *const fn[] = { "", "max", "min", "floor", "ceil" };

	put_coef(buf, cap, &t->m);
	strncat(buf, "*", cap - strlen(buf) - 1);
	if (t->kind == 5) {
		strncat(buf, "j^2*max(j, ", cap - strlen(buf) - 1);
		put_coef(buf, cap, &t->a0);
		strncat(buf, ")", cap - strlen(buf) - 1);
		return;
	}
	strncat(buf, fn[t->kind], cap - strlen(buf) - 1);
	strncat(buf, "(", cap - strlen(buf) - 1);
	put_coef(buf, cap, &t->a0);
	strncat(buf, " + ", cap - strlen(buf) - 1);
	put_coef(buf, cap, &t->b0);
	strncat(buf, "*j", cap - strlen(buf) - 1);
	if (t->kind == 1 || t->kind == 2) {
		strncat(buf, ", ", cap - strlen(buf) - 1);
		put_coef(buf, cap, &t->a1);
		strncat(buf, " + ", cap - strlen(buf) - 1);
		put_coef(buf, cap, &t->b1);
		strncat(buf, "*j", cap - strlen(buf) - 1);
	}
	strncat(buf, ")", cap - strlen(buf) - 1);
}

/* Releases the coefficients of 't'. */
static void term_clear(term *t)
{
	mpq_clear(t->m.q);
	mpq_clear(t->a0.q);
	mpq_clear(t->b0.q);
	mpq_clear(t->a1.q);
	mpq_clear(t->b1.q);
}

/* The counts the random cases end with. */
typedef struct tally {
	int cases, valued, outside, wide, declined_small, long_valued;
	char first[8192];
} tally;

/* One random sum: its body, its range, its exact value term by term,
 * and the doubles' enclosure. */
static void one_case(segc_ctx *ctx, unsigned *seed, int big, int odd,
	tally *ty)
{
	term t[4];
	int nt = 1 + (int)rnd(seed, 4), i, rc, small = !big && !odd;
	long lo = (long)rnd(seed, 200) - 100, len, j;
	char text[4096], body[3600] = "";
	static const char *const names[] = { "x" };
	mpq_t x, exact, v, w;
	segc_point pt;
	segc_expr *e;
	double dlo, dhi;

	switch (rnd(seed, 4)) {
	case 0: len = (long)rnd(seed, 3) - 1; break;  /* empty or one */
	case 1: len = 1 + (long)rnd(seed, 50); break;
	case 2: len = 50 + (long)rnd(seed, 500); break;
	default: len = 1001 + (long)rnd(seed, 2000); break;
	}
	mpq_init(x);
	mpq_init(exact);
	mpq_init(v);
	mpq_init(w);
	mpq_set_si(x, (long)rnd(seed, 19) - 9, 1 + rnd(seed, 4));
	mpq_canonicalize(x);
	for (i = 0; i < nt; i++) {
		t[i].kind = (int)rnd(seed, 5);
		if (odd && i == 0)
			t[i].kind = 5;
		rand_coef(&t[i].m, seed, 0);
		rand_coef(&t[i].a0, seed, big && t[i].kind < 3);
		rand_coef(&t[i].b0, seed, big && t[i].kind < 3);
		rand_coef(&t[i].a1, seed, big);
		rand_coef(&t[i].b1, seed, big);
		if (i)
			strcat(body, " + ");
		put_term(body, sizeof body, &t[i]);
	}
	snprintf(text, sizeof text, "sum(j, %ld, %ld, %s)", lo, lo + len - 1,
		body);
	for (j = lo; j < lo + len; j++)
		for (i = 0; i < nt; i++) {
			term_val(v, &t[i], j, x);
			mpq_add(exact, exact, v);
		}
	e = segc_expr_parse(ctx, text, NULL);
	pt.n = 1;
	pt.names = names;
	pt.values = (const mpq_t *)&x;
	rc = e ? segc_eval_double_n(ctx, 1, &dlo, &dhi,
		(const segc_expr *const *)&e, &pt) : -1;
	ty->cases++;
	if (rc == 0) {
		ty->valued++;
		ty->long_valued += len > 1000;
		mpq_set_d(v, dlo);
		mpq_set_d(w, dhi);
		if (mpq_cmp(v, exact) > 0 || mpq_cmp(w, exact) < 0) {
			ty->outside++;
			if (!ty->first[0])
				gmp_snprintf(ty->first, sizeof ty->first,
					"%s at x = %Qd: [%.17g, %.17g], "
					"exact %Qd", text, x, dlo, dhi, exact);
		}
		/* narrow: within 2^-40 of the magnitude (and 2^-40) */
		mpq_sub(w, w, v);
		mpq_abs(v, exact);
		if (mpq_cmp_si(v, 1, 1) < 0)
			mpq_set_ui(v, 1, 1);
		mpz_mul_2exp(mpq_numref(w), mpq_numref(w), 40);
		mpq_canonicalize(w);
		ty->wide += mpq_cmp(w, v) > 0;
	} else if (small) {
		ty->declined_small++;
		if (!ty->first[0])
			snprintf(ty->first, sizeof ty->first,
				"declined: %s", text);
	}
	if (e)
		segc_expr_free(e);
	for (i = 0; i < nt; i++)
		term_clear(&t[i]);
	mpq_clear(x);
	mpq_clear(exact);
	mpq_clear(v);
	mpq_clear(w);
}

/* Runs 'n' random cases of one kind and reports them. */
static void cases(segc_ctx *ctx, const char *what, int n, int big, int odd,
	unsigned seed)
{
	tally ty;
	int i;

	memset(&ty, 0, sizeof ty);
	for (i = 0; i < n; i++)
		one_case(ctx, &seed, big, odd, &ty);
	tap_ok(ty.outside == 0, "%s: every enclosure holds the exact sum "
		"(%d of %d valued, %d of them longer than 1000 terms)", what,
		ty.valued, ty.cases, ty.long_valued);
	tap_ok(ty.wide == 0, "%s: every enclosure within 2^-40 of the "
		"magnitude (%d wider)", what, ty.wide);
	if (!big && !odd)
		tap_ok(ty.declined_small == 0 && ty.long_valued > 0,
			"%s: every sum valued, the long ones in closed form "
			"(%d declined)", what, ty.declined_small);
	if (big)
		tap_ok(ty.valued > ty.cases / 2, "%s: most sums valued "
			"with coefficients kept as balls (%d of %d)", what,
			ty.valued, ty.cases);
	if (ty.first[0])
		tap_diag("%s", ty.first);
}

/* A body shared 40 levels deep, x_(k+1) = 2*(x_k + x_k) from x_0 = j:
 * a tree of 2^40 leaves in a DAG of 80 nodes.  Its split stops at its
 * work bound (a walk of the tree would not end), and the sum of its 10
 * terms, 55*4^40, is still valued. */
static void test_shared(segc_ctx *ctx)
{
	segc_expr *x = segc_expr_sym("j"), *e;
	static const char *const names[] = { "x" };
	mpq_t v, want, pv;
	segc_point pt;
	double lo, hi;
	int i, rc;

	for (i = 0; i < 40; i++)
		x = segc_expr_mul2(segc_expr_int(2),
			segc_expr_add2(segc_expr_copy(x), x));
	e = segc_expr_sum("j", segc_expr_int(1), segc_expr_int(10), x);
	mpq_init(v);
	mpq_init(want);
	mpq_init(pv);
	pt.n = 1;
	pt.names = names;
	pt.values = (const mpq_t *)&pv;
	rc = segc_eval_double_n(ctx, 1, &lo, &hi,
		(const segc_expr *const *)&e, &pt);
	mpz_ui_pow_ui(mpq_numref(want), 4, 40);
	mpz_mul_ui(mpq_numref(want), mpq_numref(want), 55);
	mpq_set_d(v, lo);
	rc = rc || mpq_cmp(v, want) > 0;
	mpq_set_d(v, hi);
	rc = rc || mpq_cmp(v, want) < 0;
	tap_ok(!rc, "a body shared 40 levels deep: valued, [%.17g, %.17g]",
		lo, hi);
	segc_expr_free(e);
	mpq_clear(v);
	mpq_clear(want);
	mpq_clear(pv);
}

/* Encloses 'text' (no free names) in doubles: 0 with [*lo, *hi]. */
static int enclose(segc_ctx *ctx, const char *text, double *lo, double *hi)
{
	segc_expr *e = segc_expr_parse(ctx, text, NULL);
	segc_point pt = { 0, NULL, NULL };
	int rc;

	if (!e)
		return -1;
	rc = segc_eval_double_n(ctx, 1, lo, hi, (const segc_expr *const *)&e,
		&pt);
	segc_expr_free(e);
	return rc;
}

/* Non-zero when [lo, hi] holds 'want' and is within 2^-40 of it. */
static int holds(double lo, double hi, const mpz_t want)
{
	mpq_t a, b, w;
	int ok;

	mpq_init(a);
	mpq_init(b);
	mpq_init(w);
	mpq_set_z(w, want);
	mpq_set_d(a, lo);
	mpq_set_d(b, hi);
	ok = mpq_cmp(a, w) <= 0 && mpq_cmp(b, w) >= 0;
	mpq_sub(b, b, a);
	mpz_mul_2exp(mpq_numref(b), mpq_numref(b), 40);
	mpq_canonicalize(b);
	mpq_abs(w, w);
	ok = ok && mpq_cmp(b, w) <= 0;
	mpq_clear(a);
	mpq_clear(b);
	mpq_clear(w);
	return ok;
}

/* Sums far too long to add term by term, against their values derived
 * by hand:
 * - max(3j, C - j) over j = 1 .. M is C - j up to k = floor(C/4), then
 *   3j: k C - k(k+1)/2 + 3 (M(M+1)/2 - k(k+1)/2);
 * - floor((7j + 3)/5) = j + floor((2j + 3)/5) over j = 0 .. n - 1,
 *   n = 5Q: the second part is 2q + 0, 1, 1, 1, 2 for j = 5q + 0 .. 4,
 *   so the sum is n(n-1)/2 + 5 Q (Q - 1) + 5 Q. */
static void test_long(segc_ctx *ctx)
{
	mpz_t w, t, k;
	double lo, hi;
	const unsigned long M = 1000000000000UL, C = 100000000007UL;
	const unsigned long n = 1000000000UL, Q = n / 5;
	int rc;

	mpz_init(w);
	mpz_init(t);
	mpz_init_set_ui(k, C / 4);
	/* k C - k(k+1)/2 + 3 (M(M+1)/2 - k(k+1)/2) */
	mpz_mul_ui(w, k, C);
	mpz_add_ui(t, k, 1);
	mpz_mul(t, t, k);
	mpz_tdiv_q_2exp(t, t, 1);
	mpz_sub(w, w, t);
	mpz_mul_ui(t, t, 3);
	mpz_sub(w, w, t);
	mpz_set_ui(t, M);
	mpz_mul_ui(t, t, M + 1);
	mpz_tdiv_q_2exp(t, t, 1);
	mpz_mul_ui(t, t, 3);
	mpz_add(w, w, t);
	rc = enclose(ctx, "sum(j, 1, 1000000000000, max(3*j, 100000000007 - j))",
		&lo, &hi);
	tap_ok(!rc && holds(lo, hi, w), "max(3j, C - j) over 10^12 terms: "
		"[%.17g, %.17g]", lo, hi);
	/* n(n-1)/2 + 5 Q (Q - 1) + 5 Q = n(n-1)/2 + 5 Q^2 */
	mpz_set_ui(w, n);
	mpz_mul_ui(w, w, n - 1);
	mpz_tdiv_q_2exp(w, w, 1);
	mpz_set_ui(t, Q);
	mpz_mul_ui(t, t, 5 * Q);
	mpz_add(w, w, t);
	rc = enclose(ctx, "sum(j, 0, 999999999, floor((7*j + 3)/5))", &lo,
		&hi);
	tap_ok(!rc && holds(lo, hi, w), "floor((7j + 3)/5) over 10^9 terms: "
		"[%.17g, %.17g]", lo, hi);
	mpz_clear(w);
	mpz_clear(t);
	mpz_clear(k);
}

int main(void)
{
	segc_ctx *ctx = segc_ctx_new();

	cases(ctx, "small rationals", 160, 0, 0, 20261130u);
	cases(ctx, "denominators past 2^62", 120, 1, 0, 7u);
	cases(ctx, "a term with no closed form", 60, 0, 1, 99u);
	test_shared(ctx);
	test_long(ctx);
	segc_ctx_free(ctx);
	return tap_done();
}
