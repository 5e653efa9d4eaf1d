/* evalmp.c - evaluating a formula at a point with MPFR.  Rational
 * subexpressions are computed exactly (GMP); only log2 and sqrt of values
 * that are not powers of two or squares, and what depends on them, are
 * computed with MPFR, at the precision of the result plus guard bits.  So
 * the value of a rational formula is correctly rounded. */
#include <stdlib.h>
#include <string.h>
#include "output.h"
#include "expr_private.h"

/* Extra bits for inexact intermediate values. */
#define GUARD_BITS 32
/* An exact value larger than this (bits of numerator and denominator) is
 * continued in MPFR: exactness is not worth unbounded memory. */
#define MAX_EXACT_BITS 100000UL
/* Most terms a sum binder may expand to at one point, and the number of
 * terms beyond which its closed form is evaluated instead. */
#define MAX_SUM_TERMS 10000000L
#define SUM_CLOSED_FORM_TERMS 1000L

/* A value: exact (q) or approximate (f). */
typedef struct val {
	int exact;
	mpq_t q;
	mpfr_t f;
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
} evaluator;

static int eval_node(evaluator *ev, const segc_expr *e, val *out);

/* Makes 'v' the exact value 0 at precision 'prec'. */
static void val_init(val *v, mpfr_prec_t prec)
{
	v->exact = 1;
	mpq_init(v->q);
	mpfr_init2(v->f, prec);
}

/* Releases 'v'. */
static void val_clear(val *v)
{
	mpq_clear(v->q);
	mpfr_clear(v->f);
}

/* Copies 'src' to 'dst'. */
static void val_set(val *dst, const val *src)
{
	dst->exact = src->exact;
	if (src->exact)
		mpq_set(dst->q, src->q);
	else
		mpfr_set(dst->f, src->f, MPFR_RNDN);
}

/* Makes 'v' approximate (its f holds the value). */
static void val_inexact(val *v)
{
	if (v->exact)
		mpfr_set_q(v->f, v->q, MPFR_RNDN);
	v->exact = 0;
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

/* Sign of 'v'. */
static int val_sgn(const val *v)
{
	return v->exact ? mpq_sgn(v->q) : mpfr_sgn(v->f);
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

/* The size of the exact value of 'v' in bits. */
static unsigned long val_bits(const val *v)
{
	return (unsigned long)(mpz_sizeinbase(mpq_numref(v->q), 2) +
		mpz_sizeinbase(mpq_denref(v->q), 2));
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
	if (x->exact) {
		if (op == OP_ADD)
			mpfr_add_q(acc->f, acc->f, x->q, MPFR_RNDN);
		else if (op == OP_MUL)
			mpfr_mul_q(acc->f, acc->f, x->q, MPFR_RNDN);
		else
			mpfr_div_q(acc->f, acc->f, x->q, MPFR_RNDN);
		return;
	}
	if (op == OP_ADD)
		mpfr_add(acc->f, acc->f, x->f, MPFR_RNDN);
	else if (op == OP_MUL)
		mpfr_mul(acc->f, acc->f, x->f, MPFR_RNDN);
	else
		mpfr_div(acc->f, acc->f, x->f, MPFR_RNDN);
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
	if (k < 0 && val_sgn(out) == 0) {
		fail(ev, SEGC_ERR_INPUT, "division by zero (%s of zero)",
			"a negative power");
		goto out;
	}
	if (out->exact && val_bits(out) * (unsigned long)(k < 0 ? -k : k) >
	    MAX_EXACT_BITS)
		val_inexact(out);
	if (out->exact)
		mpq_pow_si(out->q, k);
	else
		mpfr_pow_si(out->f, out->f, k, MPFR_RNDN);
	rc = 0;
out:
	val_clear(&x);
	return rc;
}

/* max or min of the arguments of 'e' ('want' is +1 for max, -1 for min). */
static int eval_extremum(evaluator *ev, const segc_expr *e, val *out,
	int want)
{
	size_t i;
	val x;

	for (i = 0; i < segc_expr_nargs(e); i++) {
		if (eval_new(ev, segc_expr_arg(e, i), &x)) {
			val_clear(&x);
			return -1;
		}
		if (i == 0 || val_cmp(&x, out) * want > 0)
			val_set(out, &x);
		val_clear(&x);
	}
	return 0;
}

/* ceil or floor of the value in 'out', in place; the result is exact. */
static void round_integer(val *out, int up)
{
	mpz_t z;

	mpz_init(z);
	if (out->exact) {
		if (up)
			mpz_cdiv_q(z, mpq_numref(out->q), mpq_denref(out->q));
		else
			mpz_fdiv_q(z, mpq_numref(out->q), mpq_denref(out->q));
	} else {
		mpfr_get_z(z, out->f, up ? MPFR_RNDU : MPFR_RNDD);
	}
	mpq_set_z(out->q, z);
	out->exact = 1;
	mpz_clear(z);
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
	mpfr_log2(out->f, out->f, MPFR_RNDN);
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
	mpfr_sqrt(out->f, out->f, MPFR_RNDN);
}

/* A one-argument built-in: ceil, floor, log2 or sqrt. */
static int eval_unary(evaluator *ev, const segc_expr *e, val *out)
{
	const char *f = segc_expr_name(e);

	if (segc_expr_nargs(e) != 1)
		return fail(ev, SEGC_ERR_INPUT, "%s takes one argument", f);
	if (eval_node(ev, segc_expr_arg(e, 0), out))
		return -1;
	if (!strcmp(f, "ceil") || !strcmp(f, "floor")) {
		round_integer(out, f[0] == 'c');
	} else if (!strcmp(f, "log2")) {
		if (val_sgn(out) <= 0)
			return fail(ev, SEGC_ERR_INPUT, "log2 of a value that is "
				"not positive (%s)", "log2");
		log2_value(out);
	} else {
		if (val_sgn(out) < 0)
			return fail(ev, SEGC_ERR_INPUT, "sqrt of a negative "
				"value (%s)", "sqrt");
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
		if (val_sgn(&t) == 0) {
			fail(ev, SEGC_ERR_INPUT, "division by zero in %s",
				"mva_mem");
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

/* A call: a built-in function, else an error naming it. */
static int eval_call(evaluator *ev, const segc_expr *e, val *out)
{
	const char *f = segc_expr_name(e);

	if (!strcmp(f, "max") || !strcmp(f, "min"))
		return eval_extremum(ev, e, out, f[1] == 'a' ? 1 : -1);
	if (!strcmp(f, "ceil") || !strcmp(f, "floor") ||
	    !strcmp(f, "log2") || !strcmp(f, "sqrt"))
		return eval_unary(ev, e, out);
	if (!strcmp(f, "mva_mem"))
		return eval_mva(ev, e, out);
	return fail(ev, SEGC_ERR_INPUT, "the function '%s' is not defined "
		"(an uninterpreted call): give a machine that defines it", f);
}

/* Evaluates a bound 'e' of the sum over 'var': it must be an integer. */
static int sum_bound(evaluator *ev, const segc_expr *e, const char *var,
	mpz_t z)
{
	val v;
	int rc = -1;

	if (eval_new(ev, e, &v))
		goto out;
	if (!v.exact || mpz_cmp_ui(mpq_denref(v.q), 1) != 0) {
		fail(ev, SEGC_ERR_INPUT, "a bound of the sum over '%s' is not "
			"an integer", var);
		goto out;
	}
	mpz_set(z, mpq_numref(v.q));
	rc = 0;
out:
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

/* Evaluates the closed form of the sum 'e' into 'out': 0 on success, 1
 * when it has none (no error recorded then). */
static int eval_closed_sum(evaluator *ev, const segc_expr *e, val *out)
{
	segc_ctx *scratch = segc_ctx_new();
	segc_expr *c = segc_canonical(scratch, NULL,
		segc_expr_copy((segc_expr *)e));

	segc_ctx_free(scratch);
	if (!c || segc_expr_kind(c) == SEGC_SUM) {
		segc_expr_free(c);
		return 1;
	}
	ev->kept = segc_xrealloc(ev->kept, (ev->nkept + 1) * sizeof *ev->kept);
	ev->kept[ev->nkept++] = c;
	return eval_node(ev, c, out) ? -1 : 0;
}

/* sum(i, lo, hi, body): term by term, or by its closed form when it has
 * many terms.  As for the closed forms G(hi) - G(lo - 1) of the canonical
 * form, a sum with hi < lo - 1 is minus the sum from hi + 1 to lo - 1
 * (and hi = lo - 1 gives 0), so that a formula has one value at a point
 * whichever form is evaluated. */
static int eval_sum(evaluator *ev, const segc_expr *e, val *out)
{
	mpz_t lo, hi, i;
	val x;
	int rc = -1, negate = 0;

	mpz_init(lo);
	mpz_init(hi);
	mpz_init(i);
	mpq_set_ui(out->q, 0, 1);
	out->exact = 1;
	if (sum_bound(ev, segc_expr_arg(e, 0), segc_expr_name(e), lo) ||
	    sum_bound(ev, segc_expr_arg(e, 1), segc_expr_name(e), hi))
		goto out;
	mpz_sub(i, hi, lo);
	if (mpz_cmp_si(i, -1) < 0) {
		/* hi < lo - 1: the terms hi + 1 .. lo - 1, negated */
		mpz_swap(lo, hi);
		mpz_add_ui(lo, lo, 1);
		mpz_sub_ui(hi, hi, 1);
		mpz_sub(i, hi, lo);
		negate = 1;
	}
	if (mpz_cmp_si(i, SUM_CLOSED_FORM_TERMS) > 0) {
		int r = eval_closed_sum(ev, e, out);

		if (r <= 0) {
			rc = r;
			goto out;
		}
	}
	if (mpz_cmp_si(i, MAX_SUM_TERMS) > 0) {
		fail(ev, SEGC_ERR_LIMIT, "the sum over '%s' has too many terms "
			"to evaluate one by one", segc_expr_name(e));
		goto out;
	}
	push_binder(ev, segc_expr_name(e));
	for (mpz_set(i, lo); mpz_cmp(i, hi) <= 0; mpz_add_ui(i, i, 1)) {
		mpq_set_z(ev->binders[ev->nbinders - 1].value, i);
		if (eval_new(ev, segc_expr_arg(e, 2), &x)) {
			val_clear(&x);
			pop_binder(ev);
			goto out;
		}
		val_op(out, &x, OP_ADD);
		val_clear(&x);
	}
	pop_binder(ev);
	if (negate && out->exact)
		mpq_neg(out->q, out->q);
	else if (negate)
		mpfr_neg(out->f, out->f, MPFR_RNDN);
	rc = 0;
out:
	mpz_clear(lo);
	mpz_clear(hi);
	mpz_clear(i);
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

/* Evaluates 'e' at 'pt' to 'out'. */
int segc_eval_mpfr(segc_ctx *ctx, mpfr_t out, const segc_expr *e,
	const segc_point *pt, const segc_where *where)
{
	evaluator ev;
	val v;
	int rc;

	memset(&ev, 0, sizeof ev);
	ev.ctx = ctx;
	ev.pt = pt;
	ev.where = where;
	ev.prec = mpfr_get_prec(out) + GUARD_BITS;
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
	return rc;
}
