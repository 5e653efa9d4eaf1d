/* evalmp.c - evaluating a formula at a point with MPFR.  Rational
 * subexpressions are computed exactly (GMP); only log2 and sqrt of values
 * that are not powers of two or squares, and what depends on them, are
 * computed with MPFR, at the precision of the result plus guard bits.  So
 * the value of a rational formula is correctly rounded.
 *
 * Every approximate value carries a rigorous bound on its error (running
 * error analysis, rounded upward), so that a decision on it is never a
 * guess: a comparison of if(), ceil, floor, the bounds of a sum, the sign
 * checked before log2 and sqrt.  When the bound does not decide (the two
 * sides of a comparison, or a value and an integer, are closer than their
 * errors), the whole evaluation is repeated at twice the precision, up to
 * sixteen times the first; past that the evaluation fails with a limit
 * error that names what could not be decided (sqrt(2)^2 == 2 never can
 * be).  Exact values decide exactly.
 *
 * sum(i, lo, hi, body) adds body for i = ceil(lo) .. floor(hi), nothing
 * when that range is empty, as a C loop does.  All the terms of the sums
 * of one evaluation, nested or not, count against max_eval_terms. */
#include <stdlib.h>
#include <string.h>
#include "output/output.h"
#include "expr/expr_private.h"
#include "algebra/maxplus.h"

/* Extra bits for inexact intermediate values. */
#define GUARD_BITS 32
/* An exact value larger than this (bits of numerator and denominator) is
 * continued in MPFR: exactness is not worth unbounded memory. */
#define MAX_EXACT_BITS 100000UL
/* Most terms a sum binder may expand to at one point, and the number of
 * terms beyond which its closed form is evaluated instead. */
#define MAX_SUM_TERMS 10000000L
#define SUM_CLOSED_FORM_TERMS 1000L

/* The precision of error bounds. */
#define ERR_PREC 64
/* The factor by which the precision may grow before a decision is given
 * up. */
#define MAX_PRECISION_GROWTH 16

/* A value: exact (q) or approximate (f, within err of the true value). */
typedef struct val {
	int exact;
	mpq_t q;
	mpfr_t f;
	mpfr_t err;
} val;

/* A binder variable in scope with its value. */
typedef struct binder {
	const char *name;
	mpq_t value;
} binder;

/* The state of one evaluation. */
typedef struct evaluator {
	segc_ctx *ctx;
	const segc_point *pt;
	const segc_where *where;
	mpfr_prec_t prec;
	binder *binders;
	size_t nbinders, capbinders;
	segc_expr_map memo;      /* node -> val*, only outside binders */
	segc_expr **kept;        /* closed forms computed, alive till the end */
	size_t nkept;
	unsigned long terms;     /* terms of sums evaluated so far */
	int undecided;           /* a decision needs more precision */
	char *undecided_what;    /* what, for the message (malloc'd) */
} evaluator;

static int eval_node(evaluator *ev, const segc_expr *e, val *out);

/* Makes 'v' the exact value 0 at precision 'prec'. */
static void val_init(val *v, mpfr_prec_t prec)
{
	v->exact = 1;
	mpq_init(v->q);
	mpfr_init2(v->f, prec);
	mpfr_init2(v->err, ERR_PREC);
	mpfr_set_zero(v->err, 1);
}

/* Releases 'v'. */
static void val_clear(val *v)
{
	mpq_clear(v->q);
	mpfr_clear(v->f);
	mpfr_clear(v->err);
}

/* Adds to the error bound 'err' one ulp of 'f' when 't', the ternary
 * value of the rounding that gave 'f', says it is inexact. */
static void add_rounding(mpfr_t err, const mpfr_t f, int t)
{
	mpfr_t u;

	if (!t || mpfr_zero_p(f))
		return;
	if (!mpfr_number_p(f)) {
		mpfr_set_inf(err, 1);
		return;
	}
	mpfr_init2(u, ERR_PREC);
	mpfr_set_ui_2exp(u, 1, mpfr_get_exp(f) -
		(mpfr_exp_t)mpfr_get_prec(f), MPFR_RNDU);
	mpfr_add(err, err, u, MPFR_RNDU);
	mpfr_clear(u);
}

/* Copies 'src' to 'dst'. */
static void val_set(val *dst, const val *src)
{
	dst->exact = src->exact;
	if (src->exact) {
		mpq_set(dst->q, src->q);
		return;
	}
	mpfr_set(dst->err, src->err, MPFR_RNDU);
	add_rounding(dst->err, dst->f, mpfr_set(dst->f, src->f, MPFR_RNDN));
}

/* Makes 'v' approximate (its f holds the value, err bounds the error). */
static void val_inexact(val *v)
{
	if (!v->exact)
		return;
	mpfr_set_zero(v->err, 1);
	add_rounding(v->err, v->f, mpfr_set_q(v->f, v->q, MPFR_RNDN));
	v->exact = 0;
}

/* Sets 'r' to an upper bound of |approximation of 'v'|. */
static void abs_up(mpfr_t r, const val *v)
{
	if (v->exact)
		mpfr_set_q(r, v->q, MPFR_RNDA);
	else
		mpfr_set(r, v->f, MPFR_RNDA);
	mpfr_abs(r, r, MPFR_RNDU);
}

/* Sets 'r' to a lower bound of |approximation of 'v'|. */
static void abs_down(mpfr_t r, const val *v)
{
	if (v->exact)
		mpfr_set_q(r, v->q, MPFR_RNDZ);
	else
		mpfr_set(r, v->f, MPFR_RNDZ);
	mpfr_abs(r, r, MPFR_RNDD);
}

/* Records an evaluation error. */
static int fail(evaluator *ev, enum segc_status code, const char *fmt,
	const char *name)
{
	const segc_where *w = ev->where;

	segc_error(ev->ctx, code, w ? w->file : NULL, w ? w->line : 0,
		w ? w->col : 0, fmt, name);
	return -1;
}

/* Sign of the approximation of 'v'. */
static int val_sgn(const val *v)
{
	return v->exact ? mpq_sgn(v->q) : mpfr_sgn(v->f);
}

/* Records that the decision on 'what' ('name' put in its %s) needs more
 * precision than 'ev' has; returns -1. */
static int undecided(evaluator *ev, const char *what, const char *name)
{
	segc_strbuf sb;

	ev->undecided = 1;
	free(ev->undecided_what);
	segc_strbuf_init(&sb);
	segc_strbuf_appendf(&sb, what, name);
	ev->undecided_what = segc_strbuf_take(&sb);
	return -1;
}

/* Non-zero when the sign of the value 'v' stands beyond its error bound
 * (always for an exact value, or a zero one). */
static int sign_certain(const val *v)
{
	mpfr_t a;
	int ok;

	if (v->exact)
		return 1;
	mpfr_init2(a, ERR_PREC);
	abs_down(a, v);
	ok = mpfr_cmp(a, v->err) > 0;
	mpfr_clear(a);
	return ok;
}

/* Compares 'a' with 'b'. */
static int val_cmp(const val *a, const val *b)
{
	if (a->exact && b->exact)
		return mpq_cmp(a->q, b->q);
	if (a->exact)
		return -mpfr_cmp_q(b->f, a->q);
	if (b->exact)
		return mpfr_cmp_q(a->f, b->q);
	return mpfr_cmp(a->f, b->f);
}

enum binop { OP_ADD, OP_MUL, OP_DIV };

static void val_op_inexact(val *acc, const val *x, enum binop op);

/* The size of the exact value of 'v' in bits. */
static unsigned long val_bits(const val *v)
{
	return (unsigned long)(mpz_sizeinbase(mpq_numref(v->q), 2) +
		mpz_sizeinbase(mpq_denref(v->q), 2));
}

/* Sets 'prop' to a bound of the error that the errors of 'a' and 'x'
 * (approximate) cause in a OP x, before its own rounding; +inf when a
 * divisor may be zero. */
static void propagated_error(mpfr_t prop, const val *a, const val *x,
	enum binop op)
{
	mpfr_t ab, xb, t;

	mpfr_inits2(ERR_PREC, ab, xb, t, (mpfr_ptr)0);
	abs_up(ab, a);
	abs_up(xb, x);
	if (op == OP_ADD) {
		mpfr_add(prop, a->err, x->err, MPFR_RNDU);
	} else {
		mpfr_mul(prop, ab, x->err, MPFR_RNDU);
		mpfr_mul(t, xb, a->err, MPFR_RNDU);
		mpfr_add(prop, prop, t, MPFR_RNDU);
	}
	if (op == OP_MUL) {
		mpfr_mul(t, a->err, x->err, MPFR_RNDU);
		mpfr_add(prop, prop, t, MPFR_RNDU);
	} else if (op == OP_DIV) {
		abs_down(xb, x);
		mpfr_sub(t, xb, x->err, MPFR_RNDD);
		mpfr_mul(t, t, xb, MPFR_RNDD);
		if (mpfr_sgn(t) <= 0)
			mpfr_set_inf(prop, 1);
		else
			mpfr_div(prop, prop, t, MPFR_RNDU);
	}
	mpfr_clears(ab, xb, t, (mpfr_ptr)0);
}

/* acc = acc OP x for the approximate 'acc', with its error bound. */
static void val_op_inexact(val *acc, const val *x, enum binop op)
{
	mpfr_t prop;
	val xc;
	int t;

	val_init(&xc, mpfr_get_prec(acc->f));
	val_set(&xc, x);
	val_inexact(&xc);
	mpfr_init2(prop, ERR_PREC);
	propagated_error(prop, acc, &xc, op);
	if (op == OP_ADD)
		t = mpfr_add(acc->f, acc->f, xc.f, MPFR_RNDN);
	else if (op == OP_MUL)
		t = mpfr_mul(acc->f, acc->f, xc.f, MPFR_RNDN);
	else
		t = mpfr_div(acc->f, acc->f, xc.f, MPFR_RNDN);
	mpfr_set(acc->err, prop, MPFR_RNDU);
	add_rounding(acc->err, acc->f, t);
	mpfr_clear(prop);
	val_clear(&xc);
}

/* acc = acc OP x.  Division by an exact zero is refused by the caller. */
static void val_op(val *acc, val *x, enum binop op)
{
	if (acc->exact && x->exact && val_bits(acc) + val_bits(x) <=
	    MAX_EXACT_BITS) {
		if (op == OP_ADD)
			mpq_add(acc->q, acc->q, x->q);
		else if (op == OP_MUL)
			mpq_mul(acc->q, acc->q, x->q);
		else
			mpq_div(acc->q, acc->q, x->q);
		return;
	}
	val_inexact(acc);
	val_op_inexact(acc, x, op);
}

/* Evaluates 'e' into a fresh value 'v' (to be cleared by the caller). */
static int eval_new(evaluator *ev, const segc_expr *e, val *v)
{
	val_init(v, ev->prec);
	return eval_node(ev, e, v);
}

/* The value of the name 'name': the innermost binder, else the point. */
static int eval_sym(evaluator *ev, const char *name, val *out)
{
	size_t i;

	for (i = ev->nbinders; i-- > 0;)
		if (!strcmp(ev->binders[i].name, name)) {
			mpq_set(out->q, ev->binders[i].value);
			return 0;
		}
	for (i = 0; i < ev->pt->n; i++)
		if (!strcmp(ev->pt->names[i], name)) {
			mpq_set(out->q, ev->pt->values[i]);
			return 0;
		}
	return fail(ev, SEGC_ERR_INPUT, "'%s' has no value: bind it "
		"(NAME=RANGE, -D NAME=VALUE or a machine)", name);
}

/* Sum or product of the children of 'e'. */
static int eval_nary(evaluator *ev, const segc_expr *e, val *out,
	enum binop op)
{
	size_t i;
	val x;

	mpq_set_ui(out->q, op == OP_ADD ? 0 : 1, 1);
	out->exact = 1;
	for (i = 0; i < segc_expr_nargs(e); i++) {
		if (eval_new(ev, segc_expr_arg(e, i), &x)) {
			val_clear(&x);
			return -1;
		}
		val_op(out, &x, op);
		val_clear(&x);
	}
	return 0;
}

/* Raises the exact 'q' to the integer 'k' (may be negative, q != 0). */
static void mpq_pow_si(mpq_t q, long k)
{
	unsigned long m = k < 0 ? 0UL - (unsigned long)k : (unsigned long)k;

	mpz_pow_ui(mpq_numref(q), mpq_numref(q), m);
	mpz_pow_ui(mpq_denref(q), mpq_denref(q), m);
	if (k < 0)
		mpq_inv(q, q);
}

/* Sets 'r' to an upper bound of (|x|+e)^m - |x|^m for the approximate
 * 'v' (x, within e): |x|^m ((1 + e/|x|)^m - 1), computed through log1p
 * and expm1 so that a tiny e keeps its relative precision; e^m when x
 * may be 0. */
static void power_spread(mpfr_t r, const val *v, unsigned long m)
{
	mpfr_t lo, t;

	mpfr_inits2(ERR_PREC, lo, t, (mpfr_ptr)0);
	abs_down(lo, v);
	if (mpfr_zero_p(lo)) {
		mpfr_pow_ui(r, v->err, m, MPFR_RNDU);
	} else {
		mpfr_div(t, v->err, lo, MPFR_RNDU);
		mpfr_log1p(t, t, MPFR_RNDU);
		mpfr_mul_ui(t, t, m, MPFR_RNDU);
		mpfr_expm1(t, t, MPFR_RNDU);
		abs_up(r, v);
		mpfr_pow_ui(r, r, m, MPFR_RNDU);
		mpfr_mul(r, r, t, MPFR_RNDU);
	}
	mpfr_clears(lo, t, (mpfr_ptr)0);
}

/* Raises the approximate 'v' to the integer 'k' (v surely not zero when
 * k < 0), with the error bound: |(x+d)^m - x^m| <= (|x|+|d|)^m - |x|^m,
 * and for x^-m that over (|x| - |d|)^m |x|^m. */
static void pow_inexact(val *v, long k)
{
	unsigned long m = k < 0 ? 0UL - (unsigned long)k : (unsigned long)k;
	mpfr_t spread, lo, t;

	mpfr_inits2(ERR_PREC, spread, lo, t, (mpfr_ptr)0);
	power_spread(spread, v, m);
	if (k < 0) {
		abs_down(lo, v);
		mpfr_pow_ui(t, lo, m, MPFR_RNDD);
		mpfr_sub(lo, lo, v->err, MPFR_RNDD);
		mpfr_pow_ui(lo, lo, m, MPFR_RNDD);
		mpfr_mul(lo, lo, t, MPFR_RNDD);
		mpfr_div(spread, spread, lo, MPFR_RNDU);
	}
	mpfr_set(v->err, spread, MPFR_RNDU);
	add_rounding(v->err, v->f, mpfr_pow_si(v->f, v->f, k, MPFR_RNDN));
	mpfr_clears(spread, lo, t, (mpfr_ptr)0);
}

/* base ^ exponent; the exponent must be an integer within the limit. */
static int eval_pow(evaluator *ev, const segc_expr *e, val *out)
{
	val x;
	long k, lim = segc_ctx_limits(ev->ctx)->max_exponent;
	int rc = -1;

	if (eval_new(ev, segc_expr_arg(e, 1), &x))
		goto out;
	if (!x.exact || mpz_cmp_ui(mpq_denref(x.q), 1) != 0 ||
	    !mpz_fits_slong_p(mpq_numref(x.q))) {
		fail(ev, SEGC_ERR_INPUT, "%s: an exponent is not an integer",
			"^");
		goto out;
	}
	k = mpz_get_si(mpq_numref(x.q));
	if (k > lim || k < -lim) {
		fail(ev, SEGC_ERR_LIMIT, "%s: an exponent exceeds the limit", "^");
		goto out;
	}
	if (eval_node(ev, segc_expr_arg(e, 0), out))
		goto out;
	if (k < 0 && out->exact && val_sgn(out) == 0) {
		fail(ev, SEGC_ERR_INPUT, "division by zero (%s of zero)",
			"a negative power");
		goto out;
	}
	if (k < 0 && !sign_certain(out)) {
		undecided(ev, "%s of a value whose distance from zero is within "
			"its rounding error", "a negative power");
		goto out;
	}
	if (out->exact && val_bits(out) * (unsigned long)(k < 0 ? -k : k) >
	    MAX_EXACT_BITS)
		val_inexact(out);
	if (out->exact)
		mpq_pow_si(out->q, k);
	else
		pow_inexact(out, k);
	rc = 0;
out:
	val_clear(&x);
	return rc;
}

/* max or min of the arguments of 'e' ('want' is +1 for max, -1 for min):
 * it moves by no more than the largest error of the arguments, added to
 * the error of the one chosen. */
static int eval_extremum(evaluator *ev, const segc_expr *e, val *out,
	int want)
{
	size_t i;
	int inexact = 0;
	mpfr_t err;
	val x;

	mpfr_init2(err, ERR_PREC);
	mpfr_set_zero(err, 1);
	for (i = 0; i < segc_expr_nargs(e); i++) {
		if (eval_new(ev, segc_expr_arg(e, i), &x)) {
			val_clear(&x);
			mpfr_clear(err);
			return -1;
		}
		if (!x.exact)
			inexact = 1;
		if (!x.exact && mpfr_cmp(x.err, err) > 0)
			mpfr_set(err, x.err, MPFR_RNDU);
		if (i == 0 || val_cmp(&x, out) * want > 0)
			val_set(out, &x);
		val_clear(&x);
	}
	if (inexact) {
		val_inexact(out);
		mpfr_add(out->err, out->err, err, MPFR_RNDU);
	}
	mpfr_clear(err);
	return 0;
}

/* Sets 'z' to ceil (when 'up') or floor of the value 'v'; -1 when its
 * error bound straddles an integer (the rounding cannot be decided). */
static int round_to_z(mpz_t z, const val *v, int up)
{
	mpfr_t lo, hi;
	mpz_t z2;
	int same;

	if (v->exact) {
		if (up)
			mpz_cdiv_q(z, mpq_numref(v->q), mpq_denref(v->q));
		else
			mpz_fdiv_q(z, mpq_numref(v->q), mpq_denref(v->q));
		return 0;
	}
	if (!mpfr_number_p(v->err) || !mpfr_number_p(v->f))
		return -1;
	mpfr_inits2(mpfr_get_prec(v->f) + ERR_PREC, lo, hi, (mpfr_ptr)0);
	mpz_init(z2);
	mpfr_sub(lo, v->f, v->err, MPFR_RNDD);
	mpfr_add(hi, v->f, v->err, MPFR_RNDU);
	mpfr_get_z(z, lo, up ? MPFR_RNDU : MPFR_RNDD);
	mpfr_get_z(z2, hi, up ? MPFR_RNDU : MPFR_RNDD);
	same = !mpz_cmp(z, z2);
	mpz_clear(z2);
	mpfr_clears(lo, hi, (mpfr_ptr)0);
	return same ? 0 : -1;
}

/* ceil or floor of the value in 'out', in place; the result is exact.
 * -1 when it cannot be decided at this precision (recorded). */
static int round_integer(evaluator *ev, val *out, int up)
{
	mpz_t z;
	int rc;

	mpz_init(z);
	rc = round_to_z(z, out, up);
	if (!rc) {
		mpq_set_z(out->q, z);
		out->exact = 1;
	} else {
		undecided(ev, "%s of a value within its rounding error of an "
			"integer", segc_builtin_name(up ? SEGC_BUILTIN_CEIL :
			SEGC_BUILTIN_FLOOR));
	}
	mpz_clear(z);
	return rc;
}

/* log2 of the approximate 'v', surely positive: |log2 x - log2 y| <=
 * |x - y| / (min(x, y) ln 2), and 1/ln 2 < 1.5. */
static void log2_inexact(val *v)
{
	mpfr_t lo;

	mpfr_init2(lo, ERR_PREC);
	abs_down(lo, v);
	mpfr_sub(lo, lo, v->err, MPFR_RNDD);
	mpfr_div(v->err, v->err, lo, MPFR_RNDU);
	mpfr_mul_d(v->err, v->err, 1.5, MPFR_RNDU);
	add_rounding(v->err, v->f, mpfr_log2(v->f, v->f, MPFR_RNDN));
	mpfr_clear(lo);
}

/* sqrt of the approximate 'v', surely not negative: |sqrt x - sqrt y| <=
 * min(sqrt |x - y|, |x - y| / sqrt y). */
static void sqrt_inexact(val *v)
{
	mpfr_t a, b;

	mpfr_inits2(ERR_PREC, a, b, (mpfr_ptr)0);
	mpfr_sqrt(a, v->err, MPFR_RNDU);
	abs_down(b, v);
	mpfr_sqrt(b, b, MPFR_RNDD);
	if (mpfr_sgn(b) > 0) {
		mpfr_div(b, v->err, b, MPFR_RNDU);
		if (mpfr_cmp(b, a) < 0)
			mpfr_set(a, b, MPFR_RNDU);
	}
	mpfr_set(v->err, a, MPFR_RNDU);
	add_rounding(v->err, v->f, mpfr_sqrt(v->f, v->f, MPFR_RNDN));
	mpfr_clears(a, b, (mpfr_ptr)0);
}

/* log2 of the positive value in 'out', exactly when it is a power of 2. */
static void log2_value(val *out)
{
	mpz_srcptr n = mpq_numref(out->q), d = mpq_denref(out->q);

	if (out->exact && mpz_popcount(d) == 1 && mpz_cmp_ui(n, 1) == 0) {
		mpq_set_si(out->q, -(long)mpz_scan1(d, 0), 1);
		return;
	}
	if (out->exact && mpz_cmp_ui(d, 1) == 0 && mpz_popcount(n) == 1) {
		mpq_set_ui(out->q, mpz_scan1(n, 0), 1);
		return;
	}
	val_inexact(out);
	log2_inexact(out);
}

/* sqrt of the non-negative value in 'out', exactly when it is a square. */
static void sqrt_value(val *out)
{
	if (out->exact && mpz_perfect_square_p(mpq_numref(out->q)) &&
	    mpz_perfect_square_p(mpq_denref(out->q))) {
		mpz_sqrt(mpq_numref(out->q), mpq_numref(out->q));
		mpz_sqrt(mpq_denref(out->q), mpq_denref(out->q));
		return;
	}
	val_inexact(out);
	sqrt_inexact(out);
}

/* A one-argument built-in: ceil, floor, log2 or sqrt. */
static int eval_unary(evaluator *ev, const segc_expr *e, val *out)
{
	const char *f = segc_expr_name(e);
	enum segc_builtin id = segc_expr_builtin(e);

	if (segc_expr_nargs(e) != 1)
		return fail(ev, SEGC_ERR_INPUT, "%s takes one argument", f);
	if (eval_node(ev, segc_expr_arg(e, 0), out))
		return -1;
	if (segc_builtin_get(id)->eval == SEGC_EVAL_ROUND)
		return round_integer(ev, out, id == SEGC_BUILTIN_CEIL);
	if (!sign_certain(out))
		return undecided(ev, "the sign of the argument of %s (within "
			"its rounding error of zero)", f);
	if (id == SEGC_BUILTIN_LOG2) {
		if (val_sgn(out) <= 0)
			return fail(ev, SEGC_ERR_INPUT, "log2 of a value that is "
				"not positive (%s)", f);
		log2_value(out);
	} else {
		if (val_sgn(out) < 0)
			return fail(ev, SEGC_ERR_INPUT, "sqrt of a negative "
				"value (%s)", f);
		sqrt_value(out);
	}
	return 0;
}

/* mva_mem(p, t_proc, t_mem): R(1) = t_mem, R(k+1) = (1 + k R(k) /
 * (t_proc + R(k))) t_mem. */
static int eval_mva(evaluator *ev, const segc_expr *e, val *out)
{
	val p, a, b, t;
	unsigned long k, np;
	int rc = -1;

	val_init(&p, ev->prec);
	val_init(&a, ev->prec);
	val_init(&b, ev->prec);
	val_init(&t, ev->prec);
	if (segc_expr_nargs(e) != 3 || eval_node(ev, segc_expr_arg(e, 0), &p) ||
	    eval_node(ev, segc_expr_arg(e, 1), &a) ||
	    eval_node(ev, segc_expr_arg(e, 2), &b))
		goto out;
	if (!p.exact || mpz_cmp_ui(mpq_denref(p.q), 1) != 0 ||
	    mpq_sgn(p.q) <= 0 || mpz_cmp_ui(mpq_numref(p.q),
	    segc_ctx_limits(ev->ctx)->max_mva_p) > 0) {
		fail(ev, SEGC_ERR_INPUT, "%s: p must be a positive integer "
			"within the limit", "mva_mem");
		goto out;
	}
	np = mpz_get_ui(mpq_numref(p.q));
	val_set(out, &b);
	for (k = 1; k < np; k++) {
		val_set(&t, &a);
		val_op(&t, out, OP_ADD);
		if (t.exact && val_sgn(&t) == 0) {
			fail(ev, SEGC_ERR_INPUT, "division by zero in %s",
				"mva_mem");
			goto out;
		}
		if (!sign_certain(&t)) {
			undecided(ev, "a divisor of %s (within its rounding "
				"error of zero)", "mva_mem");
			goto out;
		}
		mpq_set_ui(p.q, k, 1);
		p.exact = 1;
		val_op(out, &p, OP_MUL);
		val_op(out, &t, OP_DIV);
		mpq_set_ui(p.q, 1, 1);
		val_op(out, &p, OP_ADD);
		val_op(out, &b, OP_MUL);
	}
	rc = 0;
out:
	val_clear(&p);
	val_clear(&a);
	val_clear(&b);
	val_clear(&t);
	return rc;
}

/* The truth of the relation 'op' between values compared as 'c'. */
static int relation_holds(const char *op, int c)
{
	switch (op[0]) {
	case '<':
		return op[1] ? c <= 0 : c < 0;
	case '>':
		return op[1] ? c >= 0 : c > 0;
	case '=':
		return c == 0;
	default:
		return c != 0;
	}
}

/* Compares the values 'a' and 'b' into '*c' (<0, 0, >0); -1 when their
 * error bounds overlap and the order is not certain. */
static int compare_certain(const val *a, const val *b, int *c)
{
	val d;
	int ok;

	if (a->exact && b->exact) {
		*c = mpq_cmp(a->q, b->q);
		return 0;
	}
	val_init(&d, mpfr_get_prec(a->exact ? b->f : a->f));
	val_set(&d, a);
	val_inexact(&d);
	mpfr_neg(d.f, d.f, MPFR_RNDN);
	val_op_inexact(&d, b, OP_ADD);
	ok = sign_certain(&d);
	*c = -mpfr_sgn(d.f);
	val_clear(&d);
	return ok ? 0 : -1;
}

static int eval_cond(evaluator *ev, const segc_expr *e, int *truth);

/* The truth of the comparison 'e' into '*truth'. */
static int eval_relation(evaluator *ev, const segc_expr *e, int *truth)
{
	val a, b;
	int rc = -1, c;

	val_init(&a, ev->prec);
	val_init(&b, ev->prec);
	if (eval_node(ev, segc_expr_arg(e, 0), &a) ||
	    eval_node(ev, segc_expr_arg(e, 1), &b))
		goto out;
	if (compare_certain(&a, &b, &c)) {
		char *t = segc_expr_quote(e);

		undecided(ev, "the comparison %s (its two sides are equal to "
			"within their rounding errors)", t);
		free(t);
		goto out;
	}
	*truth = relation_holds(segc_expr_name(e), c);
	rc = 0;
out:
	val_clear(&a);
	val_clear(&b);
	return rc;
}

/* The truth of the condition 'e' into '*truth': and/or evaluate their
 * operands from the left and stop once the value is known. */
static int eval_cond(evaluator *ev, const segc_expr *e, int *truth)
{
	const char *f = segc_expr_name(e);
	size_t i;
	int conj;

	if (!segc_expr_is_condition(e))
		return fail(ev, SEGC_ERR_INPUT, "a value stands where if() "
			"needs a condition%s", "");
	if (segc_expr_is_relation_name(f))
		return eval_relation(ev, e, truth);
	if (segc_expr_is_builtin(e, SEGC_BUILTIN_NOT)) {
		if (eval_cond(ev, segc_expr_arg(e, 0), truth))
			return -1;
		*truth = !*truth;
		return 0;
	}
	conj = segc_expr_is_builtin(e, SEGC_BUILTIN_AND);
	for (i = 0; i < segc_expr_nargs(e); i++) {
		if (eval_cond(ev, segc_expr_arg(e, i), truth))
			return -1;
		if (*truth != conj)
			return 0;
	}
	return 0;
}

/* The recurrence of an overlapped loop (cyclic.c), computed exactly
 * from the exact values of its arguments, in at most max_eval_terms
 * iterations. */
static int eval_maxplus(evaluator *ev, const segc_expr *e, val *out)
{
	size_t n = segc_expr_nargs(e), i;
	mpq_t *q = segc_xmalloc(segc_xmul_size(n + 1, sizeof(mpq_t)));
	const char *why = NULL;
	int rc = 0;
	val x;

	for (i = 0; i < n; i++)
		mpq_init(q[i]);
	for (i = 0; i < n && !rc; i++) {
		rc = eval_new(ev, segc_expr_arg(e, i), &x);
		if (!rc && !x.exact)
			rc = fail(ev, SEGC_ERR_INPUT, "the costs of an overlapped "
				"loop must be rational numbers here%s", "");
		else if (!rc)
			mpq_set(q[i], x.q);
		val_clear(&x);
	}
	if (!rc && segc_maxplus_eval(out->q, n, (const mpq_t *)q,
			segc_ctx_limits(ev->ctx)->max_eval_terms, &why))
		rc = fail(ev, SEGC_ERR_INPUT, "%s", why);
	out->exact = 1;
	for (i = 0; i < n; i++)
		mpq_clear(q[i]);
	free(q);
	return rc;
}

/* A call: a built-in function, else an error naming it. */
static int eval_call(evaluator *ev, const segc_expr *e, val *out)
{
	const char *f = segc_expr_name(e);
	int truth;

	if (segc_expr_is_builtin(e, SEGC_BUILTIN_IF) &&
	    segc_expr_nargs(e) == 3) {
		if (eval_cond(ev, segc_expr_arg(e, 0), &truth))
			return -1;
		return eval_node(ev, segc_expr_arg(e, truth ? 1 : 2), out);
	}
	if (segc_expr_is_condition(e))
		return fail(ev, SEGC_ERR_INPUT, "a condition (%s) stands where "
			"a value is expected", f);
	switch (segc_builtin_get(segc_expr_builtin(e))->eval) {
	case SEGC_EVAL_EXTREMUM:
		return eval_extremum(ev, e, out,
			segc_expr_is_builtin(e, SEGC_BUILTIN_MAX) ? 1 : -1);
	case SEGC_EVAL_ROUND: case SEGC_EVAL_LOG2: case SEGC_EVAL_SQRT:
		return eval_unary(ev, e, out);
	case SEGC_EVAL_MVA:
		return eval_mva(ev, e, out);
	case SEGC_EVAL_MAXPLUS:
		return eval_maxplus(ev, e, out);
	default:
		break;
	}
	return fail(ev, SEGC_ERR_INPUT, "the function '%s' is not defined "
		"(an uninterpreted call): give a machine that defines it", f);
}

/* Evaluates the bound 'e' of a sum into 'z': ceil (when 'up') or floor
 * of its value. */
static int sum_bound(evaluator *ev, const segc_expr *e, int up, mpz_t z)
{
	val v;
	int rc = -1;

	val_init(&v, ev->prec);
	if (!eval_node(ev, e, &v))
		rc = round_to_z(z, &v, up) ? undecided(ev, "a bound of a sum "
			"(within its rounding error of an integer)%s", "") : 0;
	val_clear(&v);
	return rc;
}

/* Pushes the binder 'name' (value 0). */
static void push_binder(evaluator *ev, const char *name)
{
	if (ev->nbinders == ev->capbinders) {
		ev->capbinders = ev->capbinders ? 2 * ev->capbinders : 4;
		ev->binders = segc_xrealloc(ev->binders,
			segc_xmul_size(ev->capbinders, sizeof *ev->binders));
	}
	ev->binders[ev->nbinders].name = name;
	mpq_init(ev->binders[ev->nbinders].value);
	ev->nbinders++;
}

/* Pops the innermost binder. */
static void pop_binder(evaluator *ev)
{
	mpq_clear(ev->binders[--ev->nbinders].value);
}

/* Evaluates the closed form of sum(var, lo, hi, body), 'e' with the
 * integer bounds 'lo' <= 'hi', into 'out': 0 on success, 1 when it has
 * none (no error recorded then). */
static int eval_closed_sum(evaluator *ev, const segc_expr *e, mpz_srcptr lo,
	mpz_srcptr hi, val *out)
{
	segc_ctx *scratch = segc_ctx_new();
	segc_expr *c;
	mpq_t q;

	mpq_init(q);
	mpq_set_z(q, lo);
	c = segc_expr_num(q);
	mpq_set_z(q, hi);
	c = segc_expr_sum(segc_expr_name(e), c, segc_expr_num(q),
		segc_expr_copy(segc_expr_arg(e, 2)));
	mpq_clear(q);
	c = segc_canonical(scratch, NULL, c);
	segc_ctx_free(scratch);
	if (!c || segc_expr_kind(c) == SEGC_SUM) {
		segc_expr_free(c);
		return 1;
	}
	ev->kept = segc_xrealloc(ev->kept, (ev->nkept + 1) * sizeof *ev->kept);
	ev->kept[ev->nkept++] = c;
	return eval_node(ev, c, out) ? -1 : 0;
}

/* Adds body(i) for i = 'lo' .. 'hi' to 'out', term by term, counting the
 * terms against max_eval_terms. */
static int sum_terms(evaluator *ev, const segc_expr *e, mpz_srcptr lo,
	mpz_srcptr hi, val *out)
{
	unsigned long cap = segc_ctx_limits(ev->ctx)->max_eval_terms;
	int rc = 0;
	mpz_t i;
	val x;

	mpz_init(i);
	push_binder(ev, segc_expr_name(e));
	for (mpz_set(i, lo); mpz_cmp(i, hi) <= 0 && !rc; mpz_add_ui(i, i, 1)) {
		if (cap && ++ev->terms > cap) {
			const segc_where *w = ev->where;

			segc_error(ev->ctx, SEGC_ERR_LIMIT, w ? w->file : NULL,
				w ? w->line : 0, w ? w->col : 0, "evaluating "
				"this formula takes more than %lu terms of sums "
				"(max_eval_terms)", cap);
			rc = -1;
			break;
		}
		mpq_set_z(ev->binders[ev->nbinders - 1].value, i);
		rc = eval_new(ev, segc_expr_arg(e, 2), &x);
		if (!rc)
			val_op(out, &x, OP_ADD);
		val_clear(&x);
	}
	pop_binder(ev);
	mpz_clear(i);
	return rc;
}

/* sum(i, lo, hi, body): body for every integer i with lo <= i <= hi, 0
 * when there is none; term by term, or by its closed form when it has
 * many terms. */
static int eval_sum(evaluator *ev, const segc_expr *e, val *out)
{
	mpz_t lo, hi, n;
	int rc = -1;

	mpz_inits(lo, hi, n, (mpz_ptr)0);
	mpq_set_ui(out->q, 0, 1);
	out->exact = 1;
	if (sum_bound(ev, segc_expr_arg(e, 0), 1, lo) ||
	    sum_bound(ev, segc_expr_arg(e, 1), 0, hi))
		goto out;
	mpz_sub(n, hi, lo);
	rc = 0;
	if (mpz_sgn(n) < 0)
		goto out;
	if (mpz_cmp_si(n, SUM_CLOSED_FORM_TERMS) > 0) {
		rc = eval_closed_sum(ev, e, lo, hi, out);
		if (rc <= 0)
			goto out;
	}
	if (mpz_cmp_si(n, MAX_SUM_TERMS) > 0) {
		rc = fail(ev, SEGC_ERR_LIMIT, "the sum over '%s' has too many "
			"terms to evaluate one by one", segc_expr_name(e));
		goto out;
	}
	rc = sum_terms(ev, e, lo, hi, out);
out:
	mpz_clears(lo, hi, n, (mpz_ptr)0);
	return rc;
}

/* Evaluates 'e' without the memo. */
static int eval_fresh(evaluator *ev, const segc_expr *e, val *out)
{
	out->exact = 1;
	switch (segc_expr_kind(e)) {
	case SEGC_NUM:
		mpq_set(out->q, segc_expr_value(e));
		return 0;
	case SEGC_SYM:
		return eval_sym(ev, segc_expr_name(e), out);
	case SEGC_ADD:
		return eval_nary(ev, e, out, OP_ADD);
	case SEGC_MUL:
		return eval_nary(ev, e, out, OP_MUL);
	case SEGC_POW:
		return eval_pow(ev, e, out);
	case SEGC_CALL:
		return eval_call(ev, e, out);
	case SEGC_SUM:
		return eval_sum(ev, e, out);
	}
	return fail(ev, SEGC_ERR_INTERNAL, "unknown expression kind%s", "");
}

/* Evaluates 'e' into 'out', through the memo when no binder is in scope
 * (a shared subexpression is then computed once). */
static int eval_node(evaluator *ev, const segc_expr *e, val *out)
{
	void **slot;
	val *v;

	if (ev->nbinders || segc_expr_kind(e) == SEGC_NUM ||
	    segc_expr_kind(e) == SEGC_SYM)
		return eval_fresh(ev, e, out);
	slot = segc_expr_map_find(&ev->memo, e);
	if (slot) {
		val_set(out, *slot);
		return 0;
	}
	if (eval_fresh(ev, e, out))
		return -1;
	v = segc_xmalloc(sizeof *v);
	val_init(v, ev->prec);
	val_set(v, out);
	segc_expr_map_put(&ev->memo, e, v);
	return 0;
}

/* Releases the memo of 'ev'. */
static void memo_clear(evaluator *ev)
{
	size_t i;

	for (i = 0; i < ev->memo.cap; i++)
		if (ev->memo.keys && ev->memo.keys[i] && ev->memo.values[i]) {
			val_clear(ev->memo.values[i]);
			free(ev->memo.values[i]);
		}
	segc_expr_map_clear(&ev->memo);
}

/* One evaluation of 'e' at 'pt' with working precision 'prec' into
 * 'out'; 1 when a decision needs more precision ('*what' then says which,
 * malloc'd), -1 on an error (recorded), 0 on success. */
static int eval_once(segc_ctx *ctx, mpfr_t out, const segc_expr *e,
	const segc_point *pt, const segc_where *where, mpfr_prec_t prec,
	char **what)
{
	evaluator ev;
	val v;
	int rc;

	memset(&ev, 0, sizeof ev);
	ev.ctx = ctx;
	ev.pt = pt;
	ev.where = where;
	ev.prec = prec;
	segc_expr_map_init(&ev.memo);
	val_init(&v, ev.prec);
	rc = eval_node(&ev, e, &v);
	if (!rc && v.exact)
		mpfr_set_q(out, v.q, MPFR_RNDN);
	else if (!rc)
		mpfr_set(out, v.f, MPFR_RNDN);
	val_clear(&v);
	memo_clear(&ev);
	while (ev.nkept)
		segc_expr_free(ev.kept[--ev.nkept]);
	free(ev.kept);
	free(ev.binders);
	*what = ev.undecided_what;
	return rc && ev.undecided ? 1 : rc;
}

/* Evaluates 'e' at 'pt' to 'out', doubling the working precision while a
 * decision needs it. */
int segc_eval_mpfr(segc_ctx *ctx, mpfr_t out, const segc_expr *e,
	const segc_point *pt, const segc_where *where)
{
	mpfr_prec_t prec = mpfr_get_prec(out) + GUARD_BITS, p;
	char *what = NULL;
	int rc = 1;

	for (p = prec; rc == 1 && p <= MAX_PRECISION_GROWTH * prec; p *= 2) {
		free(what);
		rc = eval_once(ctx, out, e, pt, where, p, &what);
	}
	if (rc == 1) {
		segc_error(ctx, SEGC_ERR_LIMIT, where ? where->file : NULL,
			where ? where->line : 0, where ? where->col : 0,
			"cannot decide %s at %lu bits of precision",
			what ? what : "a comparison",
			(unsigned long)(p / 2));
		rc = -1;
	}
	free(what);
	return rc;
}
