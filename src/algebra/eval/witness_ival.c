/* witness_ival.c - rational intervals and the operations on them, for
 * the exact evaluation of witness.c (witness_private.h).
 *
 * An interval [lo, hi] surely holds the exact value of a formula: exact
 * (lo == hi) wherever the value is rational, and otherwise widened only
 * by roots (sqrt, x^(p/q)) and log2 of values that are not perfect powers
 * or powers of two, whose ends MPFR rounds down and up.  Here: the
 * arithmetic of intervals, roots and logarithms, integer parts, extrema,
 * mva_mem, the uninterpreted functions and the recurrences that eval
 * computes (maxplus, taskpath). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <mpfr.h>

#include "algebra/eval/witness_private.h"
#include "algebra/eval/atoms.h"
#include "base/util.h"

/* Processors of mva_mem evaluated. */
#define MAX_MVA_P 10000L

/* ------------------------------------------------------------ intervals */

/* Initialises 'v' to exactly 0. */
void segc_witness_iv_init(ival *v)
{
	mpq_init(v->lo);
	mpq_init(v->hi);
}

/* Releases 'v'. */
void segc_witness_iv_clear(ival *v)
{
	mpq_clear(v->lo);
	mpq_clear(v->hi);
}

/* Non-zero when 'v' is exact. */
int segc_witness_iv_exact(const ival *v)
{
	return mpq_equal(v->lo, v->hi);
}

/* Makes 'v' exactly 'q'. */
void segc_witness_iv_set_q(ival *v, mpq_srcptr q)
{
	mpq_set(v->lo, q);
	mpq_set(v->hi, q);
}

/* Copies 'a' to 'r'. */
void segc_witness_iv_set(ival *r, const ival *a)
{
	mpq_set(r->lo, a->lo);
	mpq_set(r->hi, a->hi);
}

/* Bits of the larger of numerator and denominator of 'q'. */
static size_t q_bits(mpq_srcptr q)
{
	size_t n = mpz_sizeinbase(mpq_numref(q), 2);
	size_t d = mpz_sizeinbase(mpq_denref(q), 2);

	return n > d ? n : d;
}

/* Rounds 'q' down ('up' == 0) or up to 'prec' bits. */
static void q_round(mpq_t q, mpfr_prec_t prec, int up)
{
	mpfr_t f;

	mpfr_init2(f, prec);
	mpfr_set_q(f, q, up ? MPFR_RNDU : MPFR_RNDD);
	mpfr_get_q(q, f);
	mpfr_clear(f);
}

/* Keeps the ends of 'v' small: an inexact interval is widened to ends of
 * the working precision; an exact value too large gives up the point. */
int segc_witness_iv_settle(struct evaluator *ev, ival *v)
{
	if (segc_witness_iv_exact(v))
		return q_bits(v->lo) > MAX_EXACT_BITS ? EV_UNDEFINED : EV_OK;
	if (q_bits(v->lo) > (size_t)ev->prec + 64)
		q_round(v->lo, ev->prec, 0);
	if (q_bits(v->hi) > (size_t)ev->prec + 64)
		q_round(v->hi, ev->prec, 1);
	return EV_OK;
}

/* r = a + b ('sign' -1: a - b). */
void segc_witness_iv_add(ival *r, const ival *a, const ival *b, int sign)
{
	mpq_t lo;

	mpq_init(lo);
	if (sign > 0) {
		mpq_add(lo, a->lo, b->lo);
		mpq_add(r->hi, a->hi, b->hi);
	} else {
		mpq_sub(lo, a->lo, b->hi);
		mpq_sub(r->hi, a->hi, b->lo);
	}
	mpq_swap(lo, r->lo);
	mpq_clear(lo);
}

/* r = a * b: the smallest and largest of the products of the ends. */
void segc_witness_iv_mul(ival *r, const ival *a, const ival *b)
{
	mpq_t p[4];
	int i, lo = 0, hi = 0;

	for (i = 0; i < 4; i++) {
		mpq_init(p[i]);
		mpq_mul(p[i], i < 2 ? a->lo : a->hi, i % 2 ? b->hi : b->lo);
		if (mpq_cmp(p[i], p[lo]) < 0)
			lo = i;
		if (mpq_cmp(p[i], p[hi]) > 0)
			hi = i;
	}
	mpq_set(r->lo, p[lo]);
	mpq_set(r->hi, p[hi]);
	for (i = 0; i < 4; i++)
		mpq_clear(p[i]);
}

/* The sign of 'v': 1, -1, 0 (exactly zero), or 2 when it holds 0 and is
 * not exact. */
int segc_witness_iv_sign(const ival *v)
{
	if (mpq_sgn(v->lo) > 0)
		return 1;
	if (mpq_sgn(v->hi) < 0)
		return -1;
	return segc_witness_iv_exact(v) ? 0 : 2;
}

/* r = 1/a. */
static int iv_inv(ival *r, const ival *a)
{
	int s = segc_witness_iv_sign(a);

	if (s == 0)
		return EV_UNDEFINED;
	if (s == 2)
		return EV_UNDECIDED;
	if (segc_witness_iv_exact(a)) {
		mpq_inv(r->lo, a->lo);
		mpq_set(r->hi, r->lo);
	} else {
		mpq_t lo;

		mpq_init(lo);
		mpq_inv(lo, a->hi);
		mpq_inv(r->hi, a->lo);
		mpq_swap(lo, r->lo);
		mpq_clear(lo);
	}
	return EV_OK;
}

/* r = q^k for an integer k >= 0, with a bound on the size. */
static int q_pow(mpq_t r, mpq_srcptr q, unsigned long k)
{
	if (k > 1 && q_bits(q) > 1 && q_bits(q) * k > 4 * MAX_EXACT_BITS)
		return EV_UNDEFINED;
	mpz_pow_ui(mpq_numref(r), mpq_numref(q), k);
	mpz_pow_ui(mpq_denref(r), mpq_denref(q), k);
	return EV_OK;
}

/* r = a^k for an integer k (a^0 = 1). */
int segc_witness_iv_pow(ival *r, const ival *a, long k)
{
	unsigned long u = k < 0 ? -(unsigned long)k : (unsigned long)k;
	ival t;
	int bad;

	segc_witness_iv_init(&t);
	bad = q_pow(t.lo, a->lo, u) || q_pow(t.hi, a->hi, u);
	if (!bad && u % 2 == 0 && mpq_sgn(a->hi) <= 0)
		mpq_swap(t.lo, t.hi);
	else if (!bad && u % 2 == 0 && mpq_sgn(a->lo) < 0) {
		if (mpq_cmp(t.lo, t.hi) > 0)
			mpq_set(t.hi, t.lo);
		mpq_set_ui(t.lo, 0, 1);
	}
	if (!bad && k < 0)
		bad = iv_inv(&t, &t);
	if (!bad)
		segc_witness_iv_set(r, &t);
	segc_witness_iv_clear(&t);
	return bad;
}

/* ------------------------------------------------------------- kernels */

/* The 'n'-th root of 'q' into 'r' if 'q' is the n-th power of a
 * rational (n >= 2). */
static int q_root_exact(mpq_t r, mpq_srcptr q, unsigned long n)
{
	mpq_t t;
	int ok;

	if (mpq_sgn(q) < 0)
		return 0;
	mpq_init(t);
	ok = mpz_root(mpq_numref(t), mpq_numref(q), n) &&
		mpz_root(mpq_denref(t), mpq_denref(q), n);
	if (ok)
		mpq_set(r, t);
	mpq_clear(t);
	return ok;
}

/* log2 of 'q' into 'r' if 'q' is a power of two. */
static int q_log2_exact(mpq_t r, mpq_srcptr q)
{
	mpz_srcptr p = mpq_numref(q), d = mpq_denref(q);

	if (mpq_sgn(q) <= 0)
		return 0;
	if (mpz_cmp_ui(d, 1) == 0 && mpz_popcount(p) == 1)
		mpq_set_ui(r, mpz_scan1(p, 0), 1);
	else if (mpz_cmp_ui(p, 1) == 0 && mpz_popcount(d) == 1)
		mpq_set_si(r, -(long)mpz_scan1(d, 0), 1);
	else
		return 0;
	return 1;
}

/* 'q' replaced by f(q) rounded down ('up' == 0) or up, f = the 'root'-th
 * root, or log2 when 'root' is 0, of an argument already checked for its
 * domain. */
static void q_apply(mpq_t q, unsigned long root, mpfr_prec_t prec, int up)
{
	mpfr_rnd_t rnd = up ? MPFR_RNDU : MPFR_RNDD;
	mpfr_t f;

	mpfr_init2(f, prec);
	mpfr_set_q(f, q, rnd);
	if (!root)
		mpfr_log2(f, f, rnd);
	else if (root == 2)
		mpfr_sqrt(f, f, rnd);
	else
		mpfr_rootn_ui(f, f, root, rnd);
	mpfr_get_q(q, f);
	mpfr_clear(f);
}

/* r = the 'root'-th root of a (root >= 2) or log2(a) (root 0): exact
 * where the value is rational, else an interval from MPFR's directed
 * roundings (both increasing functions). */
int segc_witness_iv_root_log(struct evaluator *ev, ival *r, const ival *a,
	unsigned long root)
{
	int islog = root == 0;
	int s = segc_witness_iv_sign(a);

	if (segc_witness_iv_exact(a) && (islog ? q_log2_exact(r->lo, a->lo) :
			q_root_exact(r->lo, a->lo, root))) {
		mpq_set(r->hi, r->lo);
		return EV_OK;
	}
	if (segc_witness_iv_exact(a) && (s < 0 || (islog && s == 0)))
		return EV_UNDEFINED;
	if (s == -1)
		return EV_UNDEFINED;
	if (s == 2)
		return EV_UNDECIDED;
	segc_witness_iv_set(r, a);
	q_apply(r->lo, root, ev->prec, 0);
	q_apply(r->hi, root, ev->prec, 1);
	return EV_OK;
}

/* r = the function of one number 'id' of 'a': sqrt and log2 by the
 * roots and logarithms above (the irrational parts this search knows),
 * any other by its row's exact operation at an exact argument with a
 * rational value; else undecided. */
int segc_witness_iv_unary(struct evaluator *ev, ival *r,
	enum segc_builtin id, const ival *a)
{
	if (segc_builtin_root(id) >= 0)
		return segc_witness_iv_root_log(ev, r, a,
			(unsigned long)segc_builtin_root(id));
	if (!segc_witness_iv_exact(a) ||
	    segc_builtin_exact(id, r->lo, (const mpq_t *)&a->lo, 1))
		return EV_UNDECIDED;
	mpq_set(r->hi, r->lo);
	return EV_OK;
}

/* r = ceil(a) or floor(a), an interval when a's ends round apart. */
void segc_witness_iv_round_int(ival *r, const ival *a, int isceil)
{
	int i;

	for (i = 0; i < 2; i++) {
		mpq_ptr d = i ? r->hi : r->lo;
		mpq_srcptr s = i ? a->hi : a->lo;

		if (isceil)
			mpz_cdiv_q(mpq_numref(d), mpq_numref(s), mpq_denref(s));
		else
			mpz_fdiv_q(mpq_numref(d), mpq_numref(s), mpq_denref(s));
		mpz_set_ui(mpq_denref(d), 1);
	}
}

/* r = max (ismax) or min of the values 'v'[0..n-1]. */
void segc_witness_iv_extremum(ival *r, const ival *v, size_t n, int ismax)
{
	size_t i;

	segc_witness_iv_set(r, &v[0]);
	for (i = 1; i < n; i++) {
		int s = ismax ? 1 : -1;

		if (mpq_cmp(v[i].lo, r->lo) * s > 0)
			mpq_set(r->lo, v[i].lo);
		if (mpq_cmp(v[i].hi, r->hi) * s > 0)
			mpq_set(r->hi, v[i].hi);
	}
}

/* mva_mem(p, a, b): R(1) = b, R(k+1) = (1 + k*R(k)/(a + R(k)))*b. */
int segc_witness_iv_mva(struct evaluator *ev, ival *r, const ival *v)
{
	ival t, k;
	long i, p;
	int bad = 0;

	if (!segc_witness_iv_exact(&v[0]) || mpz_cmp_ui(mpq_denref(v[0].lo), 1) != 0 ||
	    mpq_sgn(v[0].lo) <= 0 ||
	    mpz_cmp_si(mpq_numref(v[0].lo), MAX_MVA_P) > 0)
		return EV_UNDEFINED;
	p = mpz_get_si(mpq_numref(v[0].lo));
	segc_witness_iv_init(&t);
	segc_witness_iv_init(&k);
	segc_witness_iv_set(r, &v[2]);
	for (i = 1; i < p && !bad; i++) {
		segc_witness_iv_add(&t, &v[1], r, 1);
		bad = iv_inv(&t, &t);
		if (bad)
			break;
		segc_witness_iv_mul(&t, &t, r);
		mpq_set_si(k.lo, i, 1);
		mpq_set_si(k.hi, i, 1);
		segc_witness_iv_mul(&t, &t, &k);
		mpq_set_ui(k.lo, 1, 1);
		mpq_set_ui(k.hi, 1, 1);
		segc_witness_iv_add(&t, &t, &k, 1);
		segc_witness_iv_mul(r, &t, &v[2]);
		bad = segc_witness_iv_settle(ev, r);
	}
	segc_witness_iv_clear(&t);
	segc_witness_iv_clear(&k);
	return bad;
}

/* The coefficients of the polynomial that stands for the uninterpreted
 * function 'name': f(x1, ..., xk) = c0 + sum over i of (c1*xi + i*xi^2). */
void segc_witness_function_coeffs(const char *name, long *c0, long *c1)
{
	unsigned long h = 5381;

	for (; *name; name++)
		h = h * 33 + (unsigned char)*name;
	*c0 = 1 + (long)(h % 7);
	*c1 = 1 + (long)((h / 7) % 5);
}

/* r = the value of the uninterpreted function 'name' at 'v'[0..n-1]. */
void segc_witness_iv_function(ival *r, const char *name, const ival *v,
	size_t n)
{
	long c0, c1;
	ival t, c;
	size_t i;

	segc_witness_function_coeffs(name, &c0, &c1);
	segc_witness_iv_init(&t);
	segc_witness_iv_init(&c);
	mpq_set_si(r->lo, c0, 1);
	mpq_set_si(r->hi, c0, 1);
	for (i = 0; i < n; i++) {
		segc_witness_iv_pow(&t, &v[i], 2);
		mpq_set_si(c.lo, (long)i + 1, 1);
		mpq_set_si(c.hi, (long)i + 1, 1);
		segc_witness_iv_mul(&t, &t, &c);
		segc_witness_iv_add(r, r, &t, 1);
		mpq_set_si(c.lo, c1, 1);
		mpq_set_si(c.hi, c1, 1);
		segc_witness_iv_mul(&t, &v[i], &c);
		segc_witness_iv_add(r, r, &t, 1);
	}
	segc_witness_iv_clear(&t);
	segc_witness_iv_clear(&c);
}

/* Non-zero when the call 'e' is of a function the language defines or
 * an internal one ('_'); the atoms of recurrences and task graphs
 * (maxplus, maxplusv, taskpath) are built-ins with their own meaning. */
int segc_witness_is_builtin(const segc_expr *e)
{
	return segc_expr_builtin(e) != SEGC_BUILTIN_NONE ||
		e->u.name[0] == '_';
}

/* The ends of 'v'[0..n-1] as one array of exact values, or NULL
 * (EV_UNDECIDED in '*bad') when one of them is not exact. */
static mpq_t *exact_args(const ival *v, size_t n, int *bad)
{
	mpq_t *q;
	size_t i;

	for (i = 0; i < n; i++)
		if (!segc_witness_iv_exact(&v[i])) {
			*bad = EV_UNDECIDED;
			return NULL;
		}
	q = segc_xmalloc(segc_xmul_size(n + 1, sizeof(*q)));
	for (i = 0; i < n; i++) {
		mpq_init(q[i]);
		mpq_set(q[i], v[i].lo);
	}
	*bad = EV_OK;
	return q;
}

/* Terms a task graph of indexed nodes counts, whatever its size: its
 * evaluation is bounded by the terms left, not counted by them. */
#define TASKPATH_TERMS 1000UL

/* Takes from the terms left of 'ev' what the atom 'id' at the values 'q'
 * counts: the iterations of a maxplus (its count, the first argument),
 * TASKPATH_TERMS for a taskpath; non-zero when fewer are left. */
static int charge(struct evaluator *ev, enum segc_builtin id, const mpq_t *q,
	size_t n)
{
	unsigned long t = TASKPATH_TERMS;

	if (segc_builtin_get(id)->eval != SEGC_EVAL_TASKPATH) {
		if (!n || mpz_cmp_ui(mpq_denref(q[0]), 1) ||
		    mpq_sgn(q[0]) < 0 ||
		    mpz_cmp_ui(mpq_numref(q[0]), ev->terms_left) >= 0)
			return -1;
		t = mpz_get_ui(mpq_numref(q[0])) + 1;
	}
	if (t > ev->terms_left)
		return -1;
	ev->terms_left -= t;
	return 0;
}

/* The atom maxplus(...) or taskpath(...) 'id' at the exact values 'v',
 * by the evaluators of eval (maxplus.c, taskpath.c), each iteration or
 * instance counting as one of the terms a point may take. */
int segc_witness_iv_recurrence(struct evaluator *ev, ival *r,
	enum segc_builtin id, const ival *v, size_t n)
{
	const char *why = NULL;
	char *twhy = NULL;
	mpq_t *q, out;
	size_t i;
	int bad, rc;

	q = exact_args(v, n, &bad);
	if (!q)
		return bad;
	if (charge(ev, id, q, n)) {
		for (i = 0; i < n; i++)
			mpq_clear(q[i]);
		free(q);
		return EV_UNDEFINED;
	}
	mpq_init(out);
	if (segc_builtin_get(id)->eval == SEGC_EVAL_TASKPATH)
		rc = segc_atoms_taskpath_eval(out, n, (const mpq_t *)q,
			ev->terms_left, &twhy);
	else
		rc = segc_atoms_maxplus_eval(out, n, (const mpq_t *)q,
			ev->terms_left, &why);
	free(twhy);
	if (!rc)
		segc_witness_iv_set_q(r, out);
	for (i = 0; i < n; i++)
		mpq_clear(q[i]);
	free(q);
	mpq_clear(out);
	return rc ? EV_UNDEFINED : segc_witness_iv_settle(ev, r);
}
