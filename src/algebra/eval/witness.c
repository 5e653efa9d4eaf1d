/* witness.c - the exact value of a formula at a point, in rational
 * intervals, for the search of a point of the declared domains where two
 * formulas differ (witness_search.c).
 *
 * Values are rational intervals [lo, hi] that surely hold the exact value
 * of the formula: exact (lo == hi) wherever the value is rational, and
 * otherwise widened only by roots (sqrt, x^(p/q)) and log2 of values
 * that are not perfect powers or powers of two, whose ends MPFR rounds
 * down and up.  So two sides
 * differ when both are exact and unequal, or when their intervals are
 * disjoint: never on a rounding error.  A point where the intervals
 * overlap is tried again at a higher precision.
 *
 * The meaning is FORMAT.md section 2: sum(i, lo, hi, body) adds body over
 * the integers ceil(lo)..floor(hi), 0 when there is none; if(c, a, b)
 * evaluates only the branch that c picks; the recurrence of an overlapped
 * loop (maxplus, maxplusv) and the longest path of indexed nodes
 * (taskpath) take the exact values eval gives them; an uninterpreted
 * function is any function, here a fixed polynomial of its arguments
 * (listed in the witness). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <mpfr.h>

#include "algebra/eval/witness_private.h"
#include "algebra/eval/atoms.h"
#include "base/util.h"

/* Bits of an exact numerator or denominator beyond which a point is
 * given up (a power of a large value). */
#define MAX_EXACT_BITS 65536UL
/* Terms that the sums of one evaluation may add up, all together. */
#define MAX_SUM_TERMS 200000UL
/* Largest index of a root x^(p/q) evaluated. */
#define MAX_ROOT 65536UL
/* Processors of mva_mem evaluated. */
#define MAX_MVA_P 10000L

static int eval(struct evaluator *ev, ival *r, const segc_expr *e,
	const struct binding *b);

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
static void iv_set_q(ival *v, mpq_srcptr q)
{
	mpq_set(v->lo, q);
	mpq_set(v->hi, q);
}

/* Copies 'a' to 'r'. */
static void iv_set(ival *r, const ival *a)
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
static int iv_settle(struct evaluator *ev, ival *v)
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
static void iv_add(ival *r, const ival *a, const ival *b, int sign)
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
static void iv_mul(ival *r, const ival *a, const ival *b)
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
static int iv_sign(const ival *v)
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
	int s = iv_sign(a);

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
static int iv_pow(ival *r, const ival *a, long k)
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
		iv_set(r, &t);
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
static int iv_root_log(struct evaluator *ev, ival *r, const ival *a,
	unsigned long root)
{
	int islog = root == 0;
	int s = iv_sign(a);

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
	iv_set(r, a);
	q_apply(r->lo, root, ev->prec, 0);
	q_apply(r->hi, root, ev->prec, 1);
	return EV_OK;
}

/* r = the function of one number 'id' of 'a': sqrt and log2 by the
 * roots and logarithms above (the irrational parts this search knows),
 * any other by its row's exact operation at an exact argument with a
 * rational value; else undecided. */
static int iv_unary(struct evaluator *ev, ival *r, enum segc_builtin id,
	const ival *a)
{
	if (segc_builtin_root(id) >= 0)
		return iv_root_log(ev, r, a,
			(unsigned long)segc_builtin_root(id));
	if (!segc_witness_iv_exact(a) ||
	    segc_builtin_exact(id, r->lo, (const mpq_t *)&a->lo, 1))
		return EV_UNDECIDED;
	mpq_set(r->hi, r->lo);
	return EV_OK;
}

/* r = ceil(a) or floor(a), an interval when a's ends round apart. */
static void iv_round_int(ival *r, const ival *a, int isceil)
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
static void iv_extremum(ival *r, const ival *v, size_t n, int ismax)
{
	size_t i;

	iv_set(r, &v[0]);
	for (i = 1; i < n; i++) {
		int s = ismax ? 1 : -1;

		if (mpq_cmp(v[i].lo, r->lo) * s > 0)
			mpq_set(r->lo, v[i].lo);
		if (mpq_cmp(v[i].hi, r->hi) * s > 0)
			mpq_set(r->hi, v[i].hi);
	}
}

/* mva_mem(p, a, b): R(1) = b, R(k+1) = (1 + k*R(k)/(a + R(k)))*b. */
static int iv_mva(struct evaluator *ev, ival *r, const ival *v)
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
	iv_set(r, &v[2]);
	for (i = 1; i < p && !bad; i++) {
		iv_add(&t, &v[1], r, 1);
		bad = iv_inv(&t, &t);
		if (bad)
			break;
		iv_mul(&t, &t, r);
		mpq_set_si(k.lo, i, 1);
		mpq_set_si(k.hi, i, 1);
		iv_mul(&t, &t, &k);
		mpq_set_ui(k.lo, 1, 1);
		mpq_set_ui(k.hi, 1, 1);
		iv_add(&t, &t, &k, 1);
		iv_mul(r, &t, &v[2]);
		bad = iv_settle(ev, r);
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
static void iv_function(ival *r, const char *name, const ival *v, size_t n)
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
		iv_pow(&t, &v[i], 2);
		mpq_set_si(c.lo, (long)i + 1, 1);
		mpq_set_si(c.hi, (long)i + 1, 1);
		iv_mul(&t, &t, &c);
		iv_add(r, r, &t, 1);
		mpq_set_si(c.lo, c1, 1);
		mpq_set_si(c.hi, c1, 1);
		iv_mul(&t, &v[i], &c);
		iv_add(r, r, &t, 1);
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
static int iv_recurrence(struct evaluator *ev, ival *r, enum segc_builtin id,
	const ival *v, size_t n)
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
		iv_set_q(r, out);
	for (i = 0; i < n; i++)
		mpq_clear(q[i]);
	free(q);
	mpq_clear(out);
	return rc ? EV_UNDEFINED : iv_settle(ev, r);
}

/* ---------------------------------------------------------- evaluation */

/* The truth of condition 'c': 1, 0, or EV_UNDEFINED / EV_UNDECIDED. */
static int eval_cond(struct evaluator *ev, const segc_expr *c,
	const struct binding *b)
{
	enum segc_builtin op = segc_expr_builtin(c);
	ival l, r;
	int t, s;
	size_t i;

	if (op == SEGC_BUILTIN_NOT && c->nargs == 1) {
		t = eval_cond(ev, c->args[0], b);
		return t < 0 ? t : !t;
	}
	if ((op == SEGC_BUILTIN_AND || op == SEGC_BUILTIN_OR) &&
	    c->nargs >= 1) {
		int isand = op == SEGC_BUILTIN_AND, open = 0;

		for (i = 0; i < c->nargs; i++) {
			t = eval_cond(ev, c->args[i], b);
			if (t == EV_UNDEFINED || t == !isand)
				return t;
			open |= t == EV_UNDECIDED;
		}
		return open ? EV_UNDECIDED : isand;
	}
	if (c->nargs != 2 ||
	    segc_builtin_get(op)->kind != SEGC_BUILTIN_RELATION)
		return EV_UNDEFINED;
	segc_witness_iv_init(&l);
	segc_witness_iv_init(&r);
	t = eval(ev, &l, c->args[0], b);
	if (!t)
		t = eval(ev, &r, c->args[1], b);
	if (!t) {
		iv_add(&l, &l, &r, -1);
		s = iv_sign(&l);
		t = s == 2 ? EV_UNDECIDED :
			segc_builtin_relation_holds(op, s);
	}
	segc_witness_iv_clear(&l);
	segc_witness_iv_clear(&r);
	return t;
}

/* Applies the built-in or uninterpreted call 'e' to 'v'[0..n-1]. */
static int apply_call(struct evaluator *ev, ival *r, const segc_expr *e,
	const ival *v, size_t n)
{
	enum segc_builtin id = segc_expr_builtin(e);

	if (!segc_witness_is_builtin(e)) {
		iv_function(r, e->u.name, v, n);
		return EV_OK;
	}
	switch (segc_builtin_get(id)->eval) {
	case SEGC_EVAL_EXTREMUM:
		if (!n)
			return EV_UNDEFINED;
		iv_extremum(r, v, n, segc_builtin_get(id)->dir > 0);
		return EV_OK;
	case SEGC_EVAL_MVA:
		return n == 3 ? iv_mva(ev, r, v) : EV_UNDEFINED;
	case SEGC_EVAL_MAXPLUS:
	case SEGC_EVAL_TASKPATH:
		return iv_recurrence(ev, r, id, v, n);
	case SEGC_EVAL_ROUND:
		if (n != 1)
			return EV_UNDEFINED;
		iv_round_int(r, &v[0], segc_builtin_get(id)->dir > 0);
		return EV_OK;
	case SEGC_EVAL_UNARY:
		if (n != 1)
			return EV_UNDEFINED;
		return iv_unary(ev, r, id, &v[0]);
	default:
		return EV_UNDEFINED;
	}
}

/* Evaluates the call 'e' (if evaluates only the branch it takes). */
/* A recurrence maxplusv(i, n, ...) being evaluated at a point. */
struct wmpv {
	struct evaluator *ev;
	const segc_expr *e;
	const struct binding *b;
	mpq_t *cost, *acost, i;
	size_t m, k;
	int bad;
};

/* Evaluates 'e' under 'b' into 'q' when its value is exact. */
static int exact_value(struct evaluator *ev, mpq_t q, const segc_expr *e,
	const struct binding *b)
{
	ival v;
	int bad;

	segc_witness_iv_init(&v);
	bad = eval(ev, &v, e, b);
	if (!bad && !segc_witness_iv_exact(&v))
		bad = EV_UNDECIDED;
	if (!bad)
		mpq_set(q, v.lo);
	segc_witness_iv_clear(&v);
	return bad;
}

/* Sets the costs of iteration 'i' of the recurrence 'arg' (a struct
 * wmpv): each one exact, each cost of an iteration one sum term. */
static int wmpv_costs(void *arg, unsigned long i)
{
	struct wmpv *W = arg;
	struct binding inner;
	size_t v, a;

	if (W->ev->terms_left < W->m + W->k) {
		W->bad = EV_UNDEFINED;
		return -1;
	}
	W->ev->terms_left -= W->m + W->k;
	mpq_set_ui(W->i, i, 1);
	inner.name = segc_expr_binder(W->e);
	inner.value = W->i;
	inner.next = W->b;
	for (v = 0; v < W->m && !W->bad; v++)
		W->bad = exact_value(W->ev, W->cost[v], W->e->args[3 + v],
			&inner);
	for (a = 0; a < W->k && !W->bad; a++)
		W->bad = exact_value(W->ev, W->acost[a],
			W->e->args[W->m + 7 + 4 * a], &inner);
	return W->bad ? -1 : 0;
}

/* The recurrence maxplusv(i, n, ...) 'e', exact, its costs evaluated for
 * every iteration (one sum term each). */
static int eval_maxplusv(struct evaluator *ev, ival *r, const segc_expr *e,
	const struct binding *b)
{
	struct wmpv W;
	segc_maxplus_sys s;
	const char *why;
	size_t j;
	mpq_t n, out;
	int bad;

	memset(&W, 0, sizeof(W));
	W.ev = ev;
	W.e = e;
	W.b = b;
	mpq_inits(n, out, W.i, (mpq_ptr)0);
	bad = segc_atoms_maxplus_decode_graph(e, &s) ? EV_UNDEFINED : 0;
	if (!bad)
		bad = exact_value(ev, n, e->args[1], b);
	/* more iterations than the terms left: no value, at once */
	if (!bad && (mpz_cmp_ui(mpq_denref(n), 1) || mpz_cmp_ui(mpq_numref(n),
			ev->terms_left / (s.m + s.k)) > 0))
		bad = EV_UNDEFINED;
	W.m = s.m;
	W.k = s.k;
	W.cost = segc_xmalloc((s.m + 1) * sizeof(mpq_t));
	W.acost = segc_xmalloc((s.k + 1) * sizeof(mpq_t));
	for (j = 0; j < s.m; j++)
		mpq_init(W.cost[j]);
	for (j = 0; j < s.k; j++)
		mpq_init(W.acost[j]);
	s.cost = (const mpq_t *)W.cost;
	s.acost = (const mpq_t *)W.acost;
	s.astride = 1;
	if (!bad && segc_atoms_maxplus_run(out, &s, n, ev->terms_left, wmpv_costs,
			&W, &why))
		bad = W.bad ? W.bad : EV_UNDEFINED;
	if (!bad)
		iv_set_q(r, out);
	for (j = 0; j < s.m; j++)
		mpq_clear(W.cost[j]);
	for (j = 0; j < s.k; j++)
		mpq_clear(W.acost[j]);
	free(W.cost);
	free(W.acost);
	segc_atoms_maxplus_clear(&s);
	mpq_clears(n, out, W.i, (mpq_ptr)0);
	return bad;
}

static int eval_call(struct evaluator *ev, ival *r, const segc_expr *e,
	const struct binding *b)
{
	ival *v;
	size_t i;
	int bad = 0;

	if (segc_expr_binder(e))
		return eval_maxplusv(ev, r, e, b);
	if (segc_expr_is_builtin(e, SEGC_BUILTIN_IF)) {
		if (e->nargs != 3)
			return EV_UNDEFINED;
		bad = eval_cond(ev, e->args[0], b);
		return bad < 0 ? bad : eval(ev, r, e->args[bad ? 1 : 2], b);
	}
	v = segc_xmalloc(segc_xmul_size(e->nargs + 1, sizeof(*v)));
	for (i = 0; i < e->nargs; i++) {
		segc_witness_iv_init(&v[i]);
		if (!bad)
			bad = eval(ev, &v[i], e->args[i], b);
	}
	if (!bad)
		bad = apply_call(ev, r, e, v, e->nargs);
	for (i = 0; i < e->nargs; i++)
		segc_witness_iv_clear(&v[i]);
	free(v);
	return bad;
}

/* An exact integer bound of a sum into 'k' (ceil when 'up', else
 * floor); EV_UNDECIDED when the bound is not exact. */
static int sum_bound(struct evaluator *ev, mpz_t k, const segc_expr *e,
	const struct binding *b, int up)
{
	ival v;
	int bad;

	segc_witness_iv_init(&v);
	bad = eval(ev, &v, e, b);
	if (!bad && !segc_witness_iv_exact(&v))
		bad = EV_UNDECIDED;
	if (!bad && up)
		mpz_cdiv_q(k, mpq_numref(v.lo), mpq_denref(v.lo));
	else if (!bad)
		mpz_fdiv_q(k, mpq_numref(v.lo), mpq_denref(v.lo));
	segc_witness_iv_clear(&v);
	return bad;
}

/* Evaluates sum(i, lo, hi, body): body over i = ceil(lo)..floor(hi). */
static int eval_sum(struct evaluator *ev, ival *r, const segc_expr *e,
	const struct binding *b)
{
	struct binding inner;
	mpz_t lo, hi;
	mpq_t i;
	ival t;
	int bad;

	mpz_init(lo);
	mpz_init(hi);
	mpq_init(i);
	segc_witness_iv_init(&t);
	mpq_set_ui(r->lo, 0, 1);
	mpq_set_ui(r->hi, 0, 1);
	bad = sum_bound(ev, lo, e->args[0], b, 1);
	if (!bad)
		bad = sum_bound(ev, hi, e->args[1], b, 0);
	if (!bad)
		mpz_sub(hi, hi, lo);  /* the number of terms less one */
	if (!bad && mpz_sgn(hi) >= 0) {
		if (mpz_cmp_ui(hi, ev->terms_left) >= 0)
			bad = EV_UNDEFINED;
		else
			ev->terms_left -= mpz_get_ui(hi) + 1;
	}
	inner.name = e->u.name;
	inner.value = i;
	inner.next = b;
	mpz_set(mpq_numref(i), lo);
	for (; !bad && mpz_sgn(hi) >= 0; mpz_sub_ui(hi, hi, 1)) {
		bad = eval(ev, &t, e->args[2], &inner);
		if (!bad) {
			iv_add(r, r, &t, 1);
			bad = iv_settle(ev, r);
		}
		mpz_add_ui(mpq_numref(i), mpq_numref(i), 1);
	}
	mpz_clear(lo);
	mpz_clear(hi);
	mpq_clear(i);
	segc_witness_iv_clear(&t);
	return bad;
}

/* The value of name 'name': the innermost counter, else the point's. */
static int eval_sym(struct evaluator *ev, ival *r, const char *name,
	const struct binding *b)
{
	size_t i;

	for (; b; b = b->next)
		if (!strcmp(b->name, name)) {
			iv_set_q(r, b->value);
			return EV_OK;
		}
	for (i = 0; i < ev->n; i++)
		if (!strcmp(ev->names[i], name)) {
			iv_set_q(r, ev->values[i]);
			return EV_OK;
		}
	return EV_UNDEFINED;
}

/* Evaluates the sum (ADD) or product (MUL) 'e'. */
static int eval_nary(struct evaluator *ev, ival *r, const segc_expr *e,
	const struct binding *b)
{
	ival acc, t;
	size_t i;
	int bad = 0;

	segc_witness_iv_init(&acc);
	segc_witness_iv_init(&t);
	mpq_set_ui(acc.lo, e->kind == SEGC_MUL, 1);
	mpq_set_ui(acc.hi, e->kind == SEGC_MUL, 1);
	for (i = 0; i < e->nargs && !bad; i++) {
		bad = eval(ev, &t, e->args[i], b);
		if (bad)
			break;
		if (e->kind == SEGC_ADD)
			iv_add(&acc, &acc, &t, 1);
		else
			iv_mul(&acc, &acc, &t);
		bad = iv_settle(ev, &acc);
	}
	if (!bad)
		iv_set(r, &acc);
	segc_witness_iv_clear(&acc);
	segc_witness_iv_clear(&t);
	return bad;
}

/* Evaluates base ^ exponent for an exact integer exponent. */
static int eval_pow(struct evaluator *ev, ival *r, const segc_expr *e,
	const struct binding *b)
{
	ival x, y;
	int bad;

	segc_witness_iv_init(&x);
	segc_witness_iv_init(&y);
	bad = eval(ev, &y, e->args[1], b);
	if (!bad && (!segc_witness_iv_exact(&y) ||
	    mpz_cmp_ui(mpq_denref(y.lo), MAX_ROOT) > 0 ||
	    mpz_cmpabs_ui(mpq_numref(y.lo), MAX_EXACT_BITS) > 0))
		bad = EV_UNDEFINED;
	if (!bad)
		bad = eval(ev, &x, e->args[0], b);
	if (!bad && mpz_cmp_ui(mpq_denref(y.lo), 1) != 0) {
		/* x^(p/q) = (x^(1/q))^p, defined for x >= 0 */
		bad = iv_root_log(ev, &x, &x, mpz_get_ui(mpq_denref(y.lo)));
		if (!bad)
			bad = iv_settle(ev, &x);
	}
	if (!bad)
		bad = iv_pow(r, &x, mpz_get_si(mpq_numref(y.lo)));
	if (!bad)
		bad = iv_settle(ev, r);
	segc_witness_iv_clear(&x);
	segc_witness_iv_clear(&y);
	return bad;
}

/* Evaluates 'e' under the counters 'b'. */
static int eval(struct evaluator *ev, ival *r, const segc_expr *e,
	const struct binding *b)
{
	switch (e->kind) {
	case SEGC_NUM:
		iv_set_q(r, e->u.value);
		return EV_OK;
	case SEGC_SYM:
		return eval_sym(ev, r, e->u.name, b);
	case SEGC_ADD:
	case SEGC_MUL:
		return eval_nary(ev, r, e, b);
	case SEGC_POW:
		return eval_pow(ev, r, e, b);
	case SEGC_CALL:
		return eval_call(ev, r, e, b);
	case SEGC_SUM:
		return eval_sum(ev, r, e, b);
	default:
		return EV_UNDEFINED;
	}
}

/* Evaluates 'e' at the point of 'ev' at precision 'bits'. */
int segc_witness_eval_at(struct evaluator *ev, ival *r, const segc_expr *e,
	unsigned long bits)
{
	ev->prec = (mpfr_prec_t)bits;
	ev->terms_left = MAX_SUM_TERMS;
	return eval(ev, r, e, NULL);
}

/* See witness.h. */
int segc_witness_eval(segc_witness_value *v, const segc_expr *e, size_t n,
	const char *const *names, const mpq_t *values, unsigned long bits)
{
	struct evaluator ev;

	ev.n = n;
	ev.names = names;
	ev.values = values;
	return segc_witness_eval_at(&ev, v, e, bits < 64 ? 64 : bits) ? -1 : 0;
}
