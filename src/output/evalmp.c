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
#include <stdio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "output/evalball_private.h"
#include "output/evaldbl_private.h"

/* Extra bits for inexact intermediate values. */
#define GUARD_BITS 32
/* The factor by which the precision may grow before a decision is given
 * up. */
#define MAX_PRECISION_GROWTH 16

/* Records an evaluation error. */
int segc_eval_fail(segc_evaluator *ev, enum segc_status code,
	const char *fmt, const char *name)
{
	const segc_where *w = ev->where;

	segc_error(ev->ctx, code, w ? w->file : NULL, w ? w->line : 0,
		w ? w->col : 0, fmt, name);
	return -1;
}

/* Records that the decision on 'what' ('name' put in its %s) needs more
 * precision than 'ev' has; returns -1. */
int segc_eval_undecided(segc_evaluator *ev, const char *what,
	const char *name)
{
	segc_strbuf sb;

	ev->undecided = 1;
	free(ev->undecided_what);
	segc_strbuf_init(&sb);
	segc_strbuf_appendf(&sb, what, name);
	ev->undecided_what = segc_strbuf_take(&sb);
	return -1;
}

/* Evaluates 'e' into a fresh value 'v' (to be cleared by the caller). */
int segc_eval_new(segc_evaluator *ev, const segc_expr *e, segc_val *v)
{
	segc_val_init(v, ev->prec);
	return segc_eval_node(ev, e, v);
}

/* The value of the name 'name': the innermost binder, else the point. */
static int eval_sym(segc_evaluator *ev, const char *name, segc_val *out)
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
	return segc_eval_fail(ev, SEGC_ERR_INPUT, "'%s' has no value: bind it "
		"(NAME=RANGE, -D NAME=VALUE or a machine)", name);
}

/* Sum or product of the children of 'e'. */
static int eval_nary(segc_evaluator *ev, const segc_expr *e, segc_val *out,
	enum segc_val_op op)
{
	size_t i;
	segc_val x;

	mpq_set_ui(out->q, op == SEGC_VAL_ADD ? 0 : 1, 1);
	out->exact = 1;
	for (i = 0; i < segc_expr_nargs(e); i++) {
		if (segc_eval_new(ev, segc_expr_arg(e, i), &x)) {
			segc_val_clear(&x);
			return -1;
		}
		segc_val_op(out, &x, op);
		segc_val_clear(&x);
	}
	return 0;
}

/* base ^ exponent; the exponent must be an integer or a rational within
 * the limit (a rational power: segc_eval_root_pow). */
static int eval_pow(segc_evaluator *ev, const segc_expr *e, segc_val *out)
{
	segc_val x;
	long k, lim = segc_ctx_limits(ev->ctx)->max_exponent;
	int rc = -1;

	if (segc_eval_new(ev, segc_expr_arg(e, 1), &x))
		goto out;
	if (x.exact && mpz_cmp_ui(mpq_denref(x.q), 1) != 0) {
		if (!segc_eval_node(ev, segc_expr_arg(e, 0), out))
			rc = segc_eval_root_pow(ev, out, x.q);
		goto out;
	}
	if (!x.exact || mpz_cmp_ui(mpq_denref(x.q), 1) != 0 ||
	    !mpz_fits_slong_p(mpq_numref(x.q))) {
		segc_eval_fail(ev, SEGC_ERR_INPUT,
			"%s: an exponent is not an integer", "^");
		goto out;
	}
	k = mpz_get_si(mpq_numref(x.q));
	if (k > lim || k < -lim) {
		char num[32];

		snprintf(num, sizeof(num), "%ld", lim);
		segc_eval_fail(ev, SEGC_ERR_LIMIT, "^: an exponent exceeds "
			"the limit %s (max_exponent)", num);
		goto out;
	}
	if (segc_eval_node(ev, segc_expr_arg(e, 0), out))
		goto out;
	if (k < 0 && out->exact && segc_val_sgn(out) == 0) {
		segc_eval_fail(ev, SEGC_ERR_INPUT,
			"division by zero (%s of zero)", "a negative power");
		goto out;
	}
	if (k < 0 && !segc_val_sign_certain(out)) {
		segc_eval_undecided(ev, "%s of a value whose distance from "
			"zero is within its rounding error",
			"a negative power");
		goto out;
	}
	if (out->exact && segc_val_bits(out) * (unsigned long)(k < 0 ? -k : k) >
	    MAX_EXACT_BITS)
		segc_val_inexact(out);
	if (out->exact)
		segc_val_mpq_pow_si(out->q, k);
	else
		segc_val_pow_inexact(out, k);
	rc = 0;
out:
	segc_val_clear(&x);
	return rc;
}

/* Evaluates the bound 'e' of a sum into 'z': ceil (when 'up') or floor
 * of its value. */
static int sum_bound(segc_evaluator *ev, const segc_expr *e, int up, mpz_t z)
{
	segc_val v;
	int rc = -1;

	segc_val_init(&v, ev->prec);
	if (!segc_eval_node(ev, e, &v))
		rc = segc_val_round_to_z(z, &v, up) ?
			segc_eval_undecided(ev, "a bound of a sum (within its "
			"rounding error of an integer)%s", "") : 0;
	segc_val_clear(&v);
	return rc;
}

/* Pushes the binder 'name' (value 0). */
void segc_eval_push_binder(segc_evaluator *ev, const char *name)
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
void segc_eval_pop_binder(segc_evaluator *ev)
{
	mpq_clear(ev->binders[--ev->nbinders].value);
}

/* Counts 'n' more terms against max_eval_terms (see evalmp_private.h). */
int segc_eval_charge(segc_evaluator *ev, unsigned long n, const char *fmt)
{
	unsigned long cap = segc_ctx_limits(ev->ctx)->max_eval_terms;
	const segc_where *w = ev->where;

	if (!cap || (ev->terms <= cap && n <= cap - ev->terms)) {
		ev->terms += n;
		return 0;
	}
	ev->terms = cap + 1;
	segc_error(ev->ctx, SEGC_ERR_LIMIT, w ? w->file : NULL,
		w ? w->line : 0, w ? w->col : 0, fmt, cap);
	return -1;
}

/* Evaluates the closed form of sum(var, lo, hi, body), 'e' with the
 * integer bounds 'lo' <= 'hi', into 'out': 0 on success, 1 when it has
 * none (no error recorded then).  The closed form may hold sums of its
 * own (a sum of max(), shifted): those are added term by term, never by
 * a closed form again, so that one closed form never leads to another. */
int segc_eval_closed_sum(segc_evaluator *ev, const segc_expr *e,
	mpz_srcptr lo, mpz_srcptr hi, segc_val *out)
{
	segc_ctx *scratch;
	segc_expr *c;
	mpq_t q;
	mpz_t q_n;
	int rc;

	if (ev->no_closed)
		return 1;
	scratch = segc_ctx_new();
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
	ev->no_closed = 1;
	mpz_init(q_n);
	mpz_sub(q_n, hi, lo);
	ev->closed_n = mpz_fits_ulong_p(q_n) ? mpz_get_ui(q_n) : ULONG_MAX;
	mpz_clear(q_n);
	rc = segc_eval_node(ev, c, out) ? -1 : 0;
	ev->no_closed = 0;
	if (ev->closed_long) {
		/* a sum left in the closed form nearly as long as this one:
		 * the caller's loop sums this one faster than the walk */
		ev->closed_long = 0;
		out->exact = 1;
		mpq_set_ui(out->q, 0, 1);
		rc = 1;
	}
	return rc;
}

/* Adds body(i) for i = 'lo' .. 'hi' to 'out', term by term, counting the
 * terms against max_eval_terms. */
static int sum_terms(segc_evaluator *ev, const segc_expr *e, mpz_srcptr lo,
	mpz_srcptr hi, segc_val *out)
{
	int rc = 0;
	mpz_t i;
	segc_val x;

	mpz_init(i);
	segc_eval_push_binder(ev, segc_expr_name(e));
	for (mpz_set(i, lo); mpz_cmp(i, hi) <= 0 && !rc; mpz_add_ui(i, i, 1)) {
		if (segc_eval_charge(ev, 1, "evaluating this formula takes "
				"more than %lu terms of sums (max_eval_terms)")) {
			rc = -1;
			break;
		}
		mpq_set_z(ev->binders[ev->nbinders - 1].value, i);
		rc = segc_eval_new(ev, segc_expr_arg(e, 2), &x);
		if (!rc)
			segc_val_op(out, &x, SEGC_VAL_ADD);
		segc_val_clear(&x);
	}
	segc_eval_pop_binder(ev);
	mpz_clear(i);
	return rc;
}

/* sum(i, lo, hi, body): body for every integer i with lo <= i <= hi, 0
 * when there is none; term by term, or by its closed form when it has
 * many terms. */
static int eval_sum(segc_evaluator *ev, const segc_expr *e, segc_val *out)
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
		/* inside a closed form, a sum left at least a quarter as
		 * long as the one closed: the closed form gains little over
		 * that sum's own loop in the plan, and the walk is slower */
		if (ev->no_closed && (!mpz_fits_ulong_p(n) ||
		    mpz_get_ui(n) >= ev->closed_n / 4)) {
			ev->closed_long = 1;
			rc = -1;
			goto out;
		}
		rc = segc_eval_closed_sum(ev, e, lo, hi, out);
		if (rc <= 0)
			goto out;
	}
	if (mpz_cmp_si(n, MAX_SUM_TERMS) > 0) {
		rc = segc_eval_fail(ev, SEGC_ERR_LIMIT, "the sum over '%s' has "
			"too many terms to evaluate one by one",
			segc_expr_name(e));
		goto out;
	}
	rc = sum_terms(ev, e, lo, hi, out);
out:
	mpz_clears(lo, hi, n, (mpz_ptr)0);
	return rc;
}

/* Evaluates 'e' without the memo. */
static int eval_fresh(segc_evaluator *ev, const segc_expr *e, segc_val *out)
{
	out->exact = 1;
	switch (segc_expr_kind(e)) {
	case SEGC_NUM:
		mpq_set(out->q, segc_expr_value(e));
		return 0;
	case SEGC_SYM:
		return eval_sym(ev, segc_expr_name(e), out);
	case SEGC_ADD:
		return eval_nary(ev, e, out, SEGC_VAL_ADD);
	case SEGC_MUL:
		return eval_nary(ev, e, out, SEGC_VAL_MUL);
	case SEGC_POW:
		return eval_pow(ev, e, out);
	case SEGC_CALL:
		return segc_eval_call(ev, e, out);
	case SEGC_SUM:
		return eval_sum(ev, e, out);
	}
	return segc_eval_fail(ev, SEGC_ERR_INTERNAL,
		"unknown expression kind%s", "");
}

/* Evaluates 'e' into 'out', through the memo when no binder is in scope
 * (a shared subexpression is then computed once). */
int segc_eval_node(segc_evaluator *ev, const segc_expr *e, segc_val *out)
{
	void **slot;
	segc_val *v;

	if (ev->nbinders || segc_expr_kind(e) == SEGC_NUM ||
	    segc_expr_kind(e) == SEGC_SYM)
		return eval_fresh(ev, e, out);
	slot = segc_expr_map_find(&ev->memo, e);
	if (slot) {
		segc_val_set(out, *slot);
		return 0;
	}
	if (eval_fresh(ev, e, out))
		return -1;
	v = segc_xmalloc(sizeof *v);
	segc_val_init(v, ev->prec);
	segc_val_set(v, out);
	segc_expr_map_put(&ev->memo, e, v);
	return 0;
}

/* Releases the memo of 'ev'. */
static void memo_clear(segc_evaluator *ev)
{
	size_t i;

	for (i = 0; i < ev->memo.cap; i++)
		if (ev->memo.keys && ev->memo.keys[i] && ev->memo.values[i]) {
			segc_val_clear(ev->memo.values[i]);
			free(ev->memo.values[i]);
		}
	segc_expr_map_clear(&ev->memo);
}

/* One run of the plan 'plan' of 'n' formulas at 'pt' with working
 * precision 'prec' into 'out' (and, for one formula, its exact value
 * into 'q' when given, '*exact' set when it has one); 1 when a decision
 * needs more precision ('*what' then says which, malloc'd), -1 on an
 * error (recorded), 0 on success. */
static int eval_once(segc_ctx *ctx, size_t n, mpfr_ptr const *out, mpq_ptr q,
	int *exact, const segc_eplan *plan, const segc_point *pt,
	const segc_where *where, mpfr_prec_t prec, char **what)
{
	segc_evaluator ev;
	segc_val *v = segc_xmalloc((n + 1) * sizeof *v);
	size_t i;
	int rc;

	memset(&ev, 0, sizeof ev);
	ev.ctx = ctx;
	ev.pt = pt;
	ev.where = where;
	ev.prec = prec;
	segc_expr_map_init(&ev.memo);
	for (i = 0; i < n; i++)
		segc_val_init(&v[i], ev.prec);
	rc = segc_eplan_run(plan, &ev, v);
	for (i = 0; i < n && !rc; i++) {
		if (v[i].exact)
			mpfr_set_q(out[i], v[i].q, MPFR_RNDN);
		else
			mpfr_set(out[i], v[i].f, MPFR_RNDN);
	}
	if (!rc && q && v[0].exact)
		mpq_set(q, v[0].q);
	if (exact)
		*exact = !rc && v[0].exact;
	for (i = 0; i < n; i++)
		segc_val_clear(&v[i]);
	free(v);
	memo_clear(&ev);
	while (ev.nkept)
		segc_expr_free(ev.kept[--ev.nkept]);
	free(ev.kept);
	free(ev.binders);
	*what = ev.undecided_what;
	return rc && ev.undecided ? 1 : rc;
}

static int run_prec(segc_ctx *ctx, size_t n, mpfr_ptr const *out,
	mpq_ptr q, int *exact, const segc_eplan *plan, const segc_point *pt,
	const segc_where *where, mpfr_prec_t prec);

/* Evaluates the 'n' formulas 'e' at 'pt' to 'out' (and, for one formula,
 * its exact value into 'q' when given, '*exact' set when it has one):
 * compiled once into one plan, run over balls ('arith') or doubling the
 * working precision while a decision needs it. */

static int eval_prec(segc_ctx *ctx, size_t n, mpfr_ptr const *out, mpq_ptr q,
	int *exact, const segc_expr *const *e, const segc_point *pt,
	const segc_where *where, enum segc_eval_arith arith)
{
	mpfr_prec_t prec = 0;
	int rc;
	size_t i;
	segc_evaluator cev;
	segc_eplan plan;

	for (i = 0; i < n; i++)
		if (mpfr_get_prec(out[i]) > prec)
			prec = mpfr_get_prec(out[i]);
	prec += GUARD_BITS;
	memset(&cev, 0, sizeof cev);
	cev.ctx = ctx;
	cev.pt = pt;
	cev.where = where;
	if (exact)
		*exact = 0;
	if (segc_eplan_compile(&plan, &cev, n, e))
		return -1;
	if (!q && arith == SEGC_EVAL_BALLS &&
	    (rc = segc_ball_point(ctx, n, out, &plan, pt, where)) <= 0) {
		segc_eplan_free(&plan);
		return rc;
	}
	rc = run_prec(ctx, n, out, q, exact, &plan, pt, where, prec);
	segc_eplan_free(&plan);
	return rc;
}

/* Runs the compiled 'plan' at 'pt' doubling the working precision from
 * 'prec' while a decision needs it (see eval_prec). */
static int run_prec(segc_ctx *ctx, size_t n, mpfr_ptr const *out,
	mpq_ptr q, int *exact, const segc_eplan *plan, const segc_point *pt,
	const segc_where *where, mpfr_prec_t prec)
{
	mpfr_prec_t p;
	char *what = NULL;
	int rc = 1;

	if (exact)
		*exact = 0;
	for (p = prec; rc == 1 && p <= MAX_PRECISION_GROWTH * prec; p *= 2) {
		free(what);
		rc = eval_once(ctx, n, out, q, exact, plan, pt, where, p,
			&what);
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

/* Evaluates 'e' at 'pt' to 'out' (see eval.h). */
int segc_eval_mpfr(segc_ctx *ctx, mpfr_t out, const segc_expr *e,
	const segc_point *pt, const segc_where *where)
{
	mpfr_ptr o = out;

	return eval_prec(ctx, 1, &o, NULL, NULL, &e, pt, where,
		SEGC_EVAL_BALLS);
}

/* Evaluates the 'n' formulas 'e' at 'pt' (see eval.h). */
int segc_eval_mpfr_n(segc_ctx *ctx, size_t n, mpfr_ptr const *out,
	const segc_expr *const *e, const segc_point *pt,
	const segc_where *where)
{
	return n ? eval_prec(ctx, n, out, NULL, NULL, e, pt, where,
		SEGC_EVAL_BALLS) : 0;
}

/* The same in the arithmetic 'arith' (see eval.h). */
int segc_eval_mpfr_n_with(segc_ctx *ctx, enum segc_eval_arith arith,
	size_t n, mpfr_ptr const *out, const segc_expr *const *e,
	const segc_point *pt, const segc_where *where)
{
	return n ? eval_prec(ctx, n, out, NULL, NULL, e, pt, where, arith) :
		0;
}

/* The exact value of 'e' at 'pt' (see eval.h). */
int segc_eval_exact(segc_ctx *ctx, mpq_t out, const segc_expr *e,
	const segc_point *pt, const segc_where *where)
{
	mpfr_t f;
	mpfr_ptr o = f;
	int rc, exact = 0;

	mpfr_init2(f, 64);
	rc = eval_prec(ctx, 1, &o, out, &exact, &e, pt, where,
		SEGC_EVAL_RATIONALS);
	mpfr_clear(f);
	return rc ? -1 : exact ? 0 : 1;
}

/* ------------------------------------------- a plan for many points */

/* A formula compiled once, run at many points (see eval.h). */
struct segc_eval_plan {
	segc_eplan plan;
};

/* Compiles 'e' for points with the names of 'pt' (see eval.h). */
segc_eval_plan *segc_eval_plan_new(segc_ctx *ctx, const segc_expr *e,
	const segc_point *pt)
{
	segc_eval_plan *ep = segc_xcalloc(1, sizeof(*ep));
	segc_evaluator cev;

	memset(&cev, 0, sizeof cev);
	cev.ctx = ctx;
	cev.pt = pt;
	if (segc_eplan_compile(&ep->plan, &cev, 1, &e)) {
		free(ep);
		return NULL;
	}
	return ep;
}

/* Releases 'ep'. */
void segc_eval_plan_free(segc_eval_plan *ep)
{
	if (!ep)
		return;
	segc_eplan_free(&ep->plan);
	free(ep);
}

/* segc_eval_exact() with the compiled plan 'ep' (see eval.h). */
int segc_eval_plan_exact(segc_ctx *ctx, mpq_t out, const segc_eval_plan *ep,
	const segc_point *pt, const segc_where *where)
{
	mpfr_t f;
	mpfr_ptr o = f;
	int rc, exact = 0;

	mpfr_init2(f, 64);
	rc = run_prec(ctx, 1, &o, out, &exact, &ep->plan, pt, where,
		64 + GUARD_BITS);
	mpfr_clear(f);
	return rc ? -1 : exact ? 0 : 1;
}

/* segc_eval_mpfr() with the compiled plan 'ep' (see eval.h). */
int segc_eval_plan_mpfr(segc_ctx *ctx, mpfr_t out, const segc_eval_plan *ep,
	const segc_point *pt, const segc_where *where)
{
	mpfr_ptr o = out;

	return run_prec(ctx, 1, &o, NULL, NULL, &ep->plan, pt, where,
		mpfr_get_prec(out) + GUARD_BITS);
}

/* ------------------------------------------------ doubles, certified */

/* Encloses the formulas 'e' at 'pt' in doubles (see eval.h): compiled
 * with the errors going to a scratch context, as the run's do. */
int segc_eval_double_n(segc_ctx *ctx, size_t n, double *lo, double *hi,
	const segc_expr *const *e, const segc_point *pt)
{
	segc_evaluator cev;
	segc_eplan plan;
	int rc = 1;

	memset(&cev, 0, sizeof cev);
	cev.ctx = segc_ctx_new();
	*segc_ctx_limits(cev.ctx) = *segc_ctx_limits(ctx);
	cev.pt = pt;
	if (n && !segc_eplan_compile(&plan, &cev, n, e)) {
		rc = segc_dbl_plan_run(ctx, &plan, pt, 0, lo, hi);
		segc_eplan_free(&plan);
	}
	segc_ctx_free(cev.ctx);
	return rc;
}

/* segc_eval_double_n() with the compiled plan 'ep' (see eval.h). */
int segc_eval_plan_double(segc_ctx *ctx, double *lo, double *hi,
	const segc_eval_plan *ep, const segc_point *pt)
{
	return segc_dbl_plan_run(ctx, &ep->plan, pt, 1, lo, hi);
}
