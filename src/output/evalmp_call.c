/* evalmp_call.c - the built-in calls in an MPFR evaluation: max and
 * min, ceil and floor, log2 and sqrt, mva_mem, the recurrence of an
 * overlapped loop, and if() with its conditions, each decided only when
 * the error bounds of the values allow it. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include "output/evalmp_private.h"
#include "output/evalops.h"
#include "graph/maxplus.h"

/* max or min of the values 'x' ('want' is +1 for max, -1 for min) into
 * 'out': it moves by no more than the largest error of the values, added
 * to the error of the one chosen. */
void segc_eval_extremum_vals(segc_val *const *x, size_t n, segc_val *out,
	int want)
{
	size_t i;
	int inexact = 0;
	mpfr_t err;

	mpfr_init2(err, ERR_PREC);
	mpfr_set_zero(err, 1);
	for (i = 0; i < n; i++) {
		if (!x[i]->exact)
			inexact = 1;
		if (!x[i]->exact && mpfr_cmp(x[i]->err, err) > 0)
			mpfr_set(err, x[i]->err, MPFR_RNDU);
		if (i == 0 || segc_val_cmp(x[i], out) * want > 0)
			segc_val_set(out, x[i]);
	}
	if (inexact) {
		segc_val_inexact(out);
		mpfr_add(out->err, out->err, err, MPFR_RNDU);
	}
	mpfr_clear(err);
}

/* max or min of the arguments of 'e' ('want' is +1 for max, -1 for min). */
static int eval_extremum(segc_evaluator *ev, const segc_expr *e, segc_val *out,
	int want)
{
	size_t i, n = segc_expr_nargs(e);
	segc_val *v = segc_xmalloc(segc_xmul_size(n + 1, sizeof *v));
	segc_val **x = segc_xmalloc(segc_xmul_size(n + 1, sizeof *x));
	int rc = 0;

	for (i = 0; i < n; i++) {
		segc_val_init(&v[i], ev->prec);
		x[i] = &v[i];
	}
	for (i = 0; i < n && !rc; i++)
		rc = segc_eval_node(ev, segc_expr_arg(e, i), &v[i]);
	if (!rc)
		segc_eval_extremum_vals(x, n, out, want);
	for (i = 0; i < n; i++)
		segc_val_clear(&v[i]);
	free(v);
	free(x);
	return rc;
}

/* The one-argument built-in 'id' (named 'f') applied in place to the
 * value in 'out', by its operation (evalops.c). */
int segc_eval_unary_val(segc_evaluator *ev, enum segc_builtin id,
	const char *f, segc_val *out)
{
	const segc_eval_op *op = segc_eval_op_get(id);

	if (!op)
		return segc_eval_fail(ev, SEGC_ERR_INPUT, "the function '%s' "
			"is not defined (an uninterpreted call): give a machine "
			"that defines it", f);
	return op->mp(ev, segc_builtin_get(id), out);
}

/* The value in 'out' to the rational power 'y' (see evalmp_private.h):
 * exact when x^(1/q) is rational, else certified like sqrt. */
int segc_eval_root_pow(segc_evaluator *ev, segc_val *out, mpq_srcptr y)
{
	long lim = segc_ctx_limits(ev->ctx)->max_exponent, p;
	unsigned long q;

	if (!mpz_fits_slong_p(mpq_numref(y)) ||
	    !mpz_fits_ulong_p(mpq_denref(y)) || (lim > 0 &&
	    (mpz_cmpabs_ui(mpq_numref(y), (unsigned long)lim) > 0 ||
	    mpz_cmp_ui(mpq_denref(y), (unsigned long)lim) > 0))) {
		char num[32];

		snprintf(num, sizeof(num), "%ld", lim);
		return segc_eval_fail(ev, SEGC_ERR_LIMIT, "^: an exponent "
			"exceeds the limit %s (max_exponent)", num);
	}
	p = mpz_get_si(mpq_numref(y));
	q = mpz_get_ui(mpq_denref(y));
	if (!segc_val_sign_certain(out))
		return segc_eval_undecided(ev, "the sign of the base of %s "
			"(within its rounding error of zero)", "a rational "
			"power");
	if (segc_val_sgn(out) < 0)
		return segc_eval_fail(ev, SEGC_ERR_INPUT, "%s of a negative "
			"value", "a rational power");
	if (p < 0 && segc_val_sgn(out) == 0)
		return segc_eval_fail(ev, SEGC_ERR_INPUT,
			"division by zero (%s of zero)", "a negative power");
	segc_val_root(out, q);
	if (out->exact && segc_val_bits(out) * (unsigned long)labs(p) >
	    MAX_EXACT_BITS)
		segc_val_inexact(out);
	if (out->exact)
		segc_val_mpq_pow_si(out->q, p);
	else
		segc_val_pow_inexact(out, p);
	return 0;
}

/* A one-argument built-in: ceil, floor, log2 or sqrt. */
static int eval_unary(segc_evaluator *ev, const segc_expr *e, segc_val *out)
{
	const char *f = segc_expr_name(e);

	if (segc_expr_nargs(e) != 1)
		return segc_eval_fail(ev, SEGC_ERR_INPUT, "%s takes one "
			"argument", f);
	if (segc_eval_node(ev, segc_expr_arg(e, 0), out))
		return -1;
	return segc_eval_unary_val(ev, segc_expr_builtin(e), f, out);
}

/* mva_mem(p, a, b) of the values 'p', 'a', 'b' into 'out' ('p' is
 * changed): R(1) = b, R(k+1) = (1 + k R(k) / (a + R(k))) b. */
int segc_eval_mva_vals(segc_evaluator *ev, segc_val *p, segc_val *a,
	segc_val *b, segc_val *out)
{
	segc_val t;
	unsigned long k, np;
	int rc = -1;

	segc_val_init(&t, ev->prec);
	if (!p->exact || mpz_cmp_ui(mpq_denref(p->q), 1) != 0 ||
	    mpq_sgn(p->q) <= 0 || mpz_cmp_ui(mpq_numref(p->q),
	    segc_ctx_limits(ev->ctx)->max_mva_p) > 0) {
		segc_eval_fail(ev, SEGC_ERR_INPUT, "%s: p must be a positive "
			"integer within the limit (max_mva_p)", "mva_mem");
		goto out;
	}
	np = mpz_get_ui(mpq_numref(p->q));
	segc_val_set(out, b);
	for (k = 1; k < np; k++) {
		segc_val_set(&t, a);
		segc_val_op(&t, out, SEGC_VAL_ADD);
		if (t.exact && segc_val_sgn(&t) == 0) {
			segc_eval_fail(ev, SEGC_ERR_INPUT,
				"division by zero in %s", "mva_mem");
			goto out;
		}
		if (!segc_val_sign_certain(&t)) {
			segc_eval_undecided(ev, "a divisor of %s (within its "
				"rounding error of zero)", "mva_mem");
			goto out;
		}
		mpq_set_ui(p->q, k, 1);
		p->exact = 1;
		segc_val_op(out, p, SEGC_VAL_MUL);
		segc_val_op(out, &t, SEGC_VAL_DIV);
		mpq_set_ui(p->q, 1, 1);
		segc_val_op(out, p, SEGC_VAL_ADD);
		segc_val_op(out, b, SEGC_VAL_MUL);
	}
	rc = 0;
out:
	segc_val_clear(&t);
	return rc;
}

/* mva_mem(p, t_proc, t_mem). */
static int eval_mva(segc_evaluator *ev, const segc_expr *e, segc_val *out)
{
	segc_val p, a, b;
	int rc = -1;

	segc_val_init(&p, ev->prec);
	segc_val_init(&a, ev->prec);
	segc_val_init(&b, ev->prec);
	if (segc_expr_nargs(e) != 3)
		segc_eval_fail(ev, SEGC_ERR_INPUT, "%s: p must be a positive "
			"integer within the limit", "mva_mem");
	else if (!segc_eval_node(ev, segc_expr_arg(e, 0), &p) &&
	    !segc_eval_node(ev, segc_expr_arg(e, 1), &a) &&
	    !segc_eval_node(ev, segc_expr_arg(e, 2), &b))
		rc = segc_eval_mva_vals(ev, &p, &a, &b, out);
	segc_val_clear(&p);
	segc_val_clear(&a);
	segc_val_clear(&b);
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

static int eval_cond(segc_evaluator *ev, const segc_expr *e, int *truth);

/* The truth of the comparison 'e' between the values 'a' and 'b' into
 * '*truth'. */
int segc_eval_relation_vals(segc_evaluator *ev, const segc_expr *e,
	const segc_val *a, const segc_val *b, int *truth)
{
	int c;

	if (segc_val_compare_certain(a, b, &c)) {
		char *t = segc_expr_quote(e);

		segc_eval_undecided(ev, "the comparison %s (its two sides are "
			"equal to within their rounding errors)", t);
		free(t);
		return -1;
	}
	*truth = relation_holds(segc_expr_name(e), c);
	return 0;
}

/* The truth of the comparison 'e' into '*truth'. */
static int eval_relation(segc_evaluator *ev, const segc_expr *e, int *truth)
{
	segc_val a, b;
	int rc = -1;

	segc_val_init(&a, ev->prec);
	segc_val_init(&b, ev->prec);
	if (!segc_eval_node(ev, segc_expr_arg(e, 0), &a) &&
	    !segc_eval_node(ev, segc_expr_arg(e, 1), &b))
		rc = segc_eval_relation_vals(ev, e, &a, &b, truth);
	segc_val_clear(&a);
	segc_val_clear(&b);
	return rc;
}

/* The truth of the condition 'e' into '*truth': and/or evaluate their
 * operands from the left and stop once the value is known. */
static int eval_cond(segc_evaluator *ev, const segc_expr *e, int *truth)
{
	const char *f = segc_expr_name(e);
	size_t i;
	int conj;

	if (!segc_expr_is_condition(e))
		return segc_eval_fail(ev, SEGC_ERR_INPUT, "a value stands "
			"where if() needs a condition%s", "");
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

/* The recurrence maxplus(...) of the exact values 'q' into 'out', its
 * iterations counted against what is left of max_eval_terms. */
int segc_eval_maxplus_q(segc_evaluator *ev, size_t n, const mpq_t *q,
	segc_val *out)
{
	unsigned long max = segc_ctx_limits(ev->ctx)->max_eval_terms;
	unsigned long left = max ? (ev->terms < max ? max - ev->terms : 0) :
		ULONG_MAX, steps = 0;
	const char *why = NULL;
	int rc = segc_maxplus_eval_steps(out->q, n, q, left, &steps, &why);

	out->exact = 1;
	if (rc < 0)
		return segc_eval_fail(ev, SEGC_ERR_INPUT, "%s", why);
	if (rc > 0)
		return segc_eval_fail(ev, SEGC_ERR_LIMIT, "%s (max_eval_terms)",
			why);
	return segc_eval_charge(ev, steps, "evaluating this formula takes "
		"more than %lu terms of sums (max_eval_terms)");
}

/* The recurrence of an overlapped loop (cyclic.c), computed exactly
 * from the exact values of its arguments. */
static int eval_maxplus(segc_evaluator *ev, const segc_expr *e, segc_val *out)
{
	size_t n = segc_expr_nargs(e), i;
	mpq_t *q = segc_xmalloc(segc_xmul_size(n + 1, sizeof(mpq_t)));
	int rc = 0;
	segc_val x;

	for (i = 0; i < n; i++)
		mpq_init(q[i]);
	for (i = 0; i < n && !rc; i++) {
		rc = segc_eval_new(ev, segc_expr_arg(e, i), &x);
		if (!rc && !x.exact)
			rc = segc_eval_fail(ev, SEGC_ERR_INPUT,
				"the costs of an overlapped loop must be "
				"rational numbers here%s", "");
		else if (!rc)
			mpq_set(q[i], x.q);
		segc_val_clear(&x);
	}
	if (!rc)
		rc = segc_eval_maxplus_q(ev, n, (const mpq_t *)q, out);
	for (i = 0; i < n; i++)
		mpq_clear(q[i]);
	free(q);
	return rc;
}

/* A recurrence maxplusv(i, n, ...) being evaluated: its atom, the
 * evaluator, the costs of the current iteration. */
typedef struct mpv_run {
	segc_evaluator *ev;
	const segc_expr *e;
	size_t m, k;
	mpq_t *cost, *acost;
} mpv_run;

/* Evaluates cost 'c' of the current iteration exactly into 'q'. */
static int mpv_cost(mpv_run *M, const segc_expr *c, mpq_t q)
{
	segc_val x;
	int rc = segc_eval_new(M->ev, c, &x);

	if (!rc && !x.exact)
		rc = segc_eval_fail(M->ev, SEGC_ERR_INPUT, "the costs of an "
			"overlapped loop must be rational numbers here%s", "");
	else if (!rc)
		mpq_set(q, x.q);
	segc_val_clear(&x);
	return rc;
}

/* Sets the costs of iteration 'i' of the recurrence 'arg' (an mpv_run),
 * its counter the innermost binder. */
static int mpv_costs(void *arg, unsigned long i)
{
	mpv_run *M = arg;
	segc_evaluator *ev = M->ev;
	size_t v, a;

	if (segc_eval_charge(ev, 1, "an overlapped loop whose costs depend "
			"on its counter takes more iterations than the limit "
			"of %lu (max_eval_terms)"))
		return -1;
	mpq_set_ui(ev->binders[ev->nbinders - 1].value, i, 1);
	for (v = 0; v < M->m; v++)
		if (mpv_cost(M, segc_expr_arg(M->e, 3 + v), M->cost[v]))
			return -1;
	for (a = 0; a < M->k; a++)
		if (mpv_cost(M, segc_expr_arg(M->e, M->m + 7 + 4 * a),
				M->acost[a]))
			return -1;
	return 0;
}

/* The recurrence maxplusv(i, n, ...) whose costs depend on its counter:
 * every iteration's costs evaluated exactly, in at most max_eval_terms
 * iterations (nothing periodic is used). */
static int eval_maxplusv(segc_evaluator *ev, const segc_expr *e,
	segc_val *out)
{
	segc_maxplus_sys s;
	mpv_run M;
	const char *why = NULL;
	int rc;
	size_t j;
	mpq_t n;

	mpq_init(n);
	M.ev = ev;
	rc = segc_maxplus_decode_graph(e, &s) ? segc_eval_fail(ev,
		SEGC_ERR_INPUT, "malformed recurrence%s", "") : 0;
	if (!rc)
		rc = mpv_cost(&M, segc_expr_arg(e, 1), n);
	if (!rc && (mpz_cmp_ui(mpq_denref(n), 1) || mpq_sgn(n) < 0))
		rc = segc_eval_fail(ev, SEGC_ERR_INPUT, "the count of an "
			"overlapped loop must be an integer >= 0%s", "");
	/* more iterations than the limit: said at once, not after it */
	if (!rc && mpz_cmp_ui(mpq_numref(n),
			segc_ctx_limits(ev->ctx)->max_eval_terms) > 0)
		rc = segc_eval_fail(ev, SEGC_ERR_LIMIT, "an overlapped loop "
			"whose costs depend on its counter takes more iterations "
			"than the limit%s (max_eval_terms)", "");
	M.e = e;
	M.m = s.m;
	M.k = s.k;
	M.cost = segc_xmalloc((s.m + 1) * sizeof(mpq_t));
	M.acost = segc_xmalloc((s.k + 1) * sizeof(mpq_t));
	for (j = 0; j < s.m; j++)
		mpq_init(M.cost[j]);
	for (j = 0; j < s.k; j++)
		mpq_init(M.acost[j]);
	s.cost = (const mpq_t *)M.cost;
	s.acost = (const mpq_t *)M.acost;
	s.astride = 1;
	if (!rc) {
		segc_eval_push_binder(ev, segc_expr_name(segc_expr_arg(e, 0)));
		rc = segc_maxplus_run(out->q, &s, n,
			segc_ctx_limits(ev->ctx)->max_eval_terms, mpv_costs, &M,
			&why);
		segc_eval_pop_binder(ev);
		if (rc > 0)
			rc = segc_eval_fail(ev, SEGC_ERR_LIMIT, "%s (max_eval_"
				"terms)", why);
	}
	out->exact = 1;
	for (j = 0; j < s.m; j++)
		mpq_clear(M.cost[j]);
	for (j = 0; j < s.k; j++)
		mpq_clear(M.acost[j]);
	free(M.cost);
	free(M.acost);
	segc_maxplus_clear(&s);
	mpq_clear(n);
	return rc;
}

/* A call: a built-in function, else an error naming it. */
int segc_eval_call(segc_evaluator *ev, const segc_expr *e, segc_val *out)
{
	const char *f = segc_expr_name(e);
	int truth;

	if (segc_expr_is_builtin(e, SEGC_BUILTIN_IF) &&
	    segc_expr_nargs(e) == 3) {
		if (eval_cond(ev, segc_expr_arg(e, 0), &truth))
			return -1;
		return segc_eval_node(ev, segc_expr_arg(e, truth ? 1 : 2), out);
	}
	if (segc_expr_is_condition(e))
		return segc_eval_fail(ev, SEGC_ERR_INPUT, "a condition (%s) "
			"stands where a value is expected", f);
	switch (segc_builtin_get(segc_expr_builtin(e))->eval) {
	case SEGC_EVAL_EXTREMUM:
		return eval_extremum(ev, e, out,
			segc_builtin_get(segc_expr_builtin(e))->dir);
	case SEGC_EVAL_ROUND: case SEGC_EVAL_UNARY:
		return eval_unary(ev, e, out);
	case SEGC_EVAL_MVA:
		return eval_mva(ev, e, out);
	case SEGC_EVAL_MAXPLUS:
		if (segc_expr_binder(e))
			return eval_maxplusv(ev, e, out);
		return eval_maxplus(ev, e, out);
	case SEGC_EVAL_TASKPATH:
		return segc_eval_taskpath(ev, e, out);
	default:
		break;
	}
	return segc_eval_fail(ev, SEGC_ERR_INPUT, "the function '%s' is not "
		"defined (an uninterpreted call): give a machine that defines "
		"it", f);
}
