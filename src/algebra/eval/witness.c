/* witness.c - the exact value of a formula at a point, in rational
 * intervals, for the search of a point of the declared domains where two
 * formulas differ (witness_search.c).
 *
 * Values are rational intervals that surely hold the exact value of the
 * formula (witness_ival.c), so two sides differ when both are exact and
 * unequal, or when their intervals are disjoint: never on a rounding
 * error.  A point where the intervals overlap is tried again at a higher
 * precision.  This file walks the formula; the intervals and the
 * operations on them are in witness_ival.c.
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

/* Terms that the sums of one evaluation may add up, all together. */
#define MAX_SUM_TERMS 200000UL
/* Largest index of a root x^(p/q) evaluated. */
#define MAX_ROOT 65536UL

static int eval(struct evaluator *ev, ival *r, const segc_expr *e,
	const struct binding *b);

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
		t = eval_cond(ev, segc_args(c)[0], b);
		return t < 0 ? t : !t;
	}
	if ((op == SEGC_BUILTIN_AND || op == SEGC_BUILTIN_OR) &&
	    c->nargs >= 1) {
		int isand = op == SEGC_BUILTIN_AND, open = 0;

		for (i = 0; i < c->nargs; i++) {
			t = eval_cond(ev, segc_args(c)[i], b);
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
	t = eval(ev, &l, segc_args(c)[0], b);
	if (!t)
		t = eval(ev, &r, segc_args(c)[1], b);
	if (!t) {
		segc_witness_iv_add(&l, &l, &r, -1);
		s = segc_witness_iv_sign(&l);
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
		segc_witness_iv_function(r, e->u.name, v, n);
		return EV_OK;
	}
	switch (segc_builtin_get(id)->eval) {
	case SEGC_EVAL_EXTREMUM:
		if (!n)
			return EV_UNDEFINED;
		segc_witness_iv_extremum(r, v, n,
			segc_builtin_get(id)->dir > 0);
		return EV_OK;
	case SEGC_EVAL_MVA:
		return n == 3 ? segc_witness_iv_mva(ev, r, v) : EV_UNDEFINED;
	case SEGC_EVAL_MAXPLUS:
	case SEGC_EVAL_TASKPATH:
		return segc_witness_iv_recurrence(ev, r, id, v, n);
	case SEGC_EVAL_ROUND:
		if (n != 1)
			return EV_UNDEFINED;
		segc_witness_iv_round_int(r, &v[0],
			segc_builtin_get(id)->dir > 0);
		return EV_OK;
	case SEGC_EVAL_UNARY:
		if (n != 1)
			return EV_UNDEFINED;
		return segc_witness_iv_unary(ev, r, id, &v[0]);
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
		W->bad = exact_value(W->ev, W->cost[v], segc_args(W->e)[3 + v],
			&inner);
	for (a = 0; a < W->k && !W->bad; a++)
		W->bad = exact_value(W->ev, W->acost[a],
			segc_args(W->e)[W->m + 7 + 4 * a], &inner);
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
		bad = exact_value(ev, n, segc_args(e)[1], b);
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
		segc_witness_iv_set_q(r, out);
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
		bad = eval_cond(ev, segc_args(e)[0], b);
		return bad < 0 ? bad : eval(ev, r, segc_args(e)[bad ? 1 : 2],
			b);
	}
	v = segc_xmalloc(segc_xmul_size(e->nargs + 1, sizeof(*v)));
	for (i = 0; i < e->nargs; i++) {
		segc_witness_iv_init(&v[i]);
		if (!bad)
			bad = eval(ev, &v[i], segc_args(e)[i], b);
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
	bad = sum_bound(ev, lo, segc_args(e)[0], b, 1);
	if (!bad)
		bad = sum_bound(ev, hi, segc_args(e)[1], b, 0);
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
		bad = eval(ev, &t, segc_args(e)[2], &inner);
		if (!bad) {
			segc_witness_iv_add(r, r, &t, 1);
			bad = segc_witness_iv_settle(ev, r);
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
			segc_witness_iv_set_q(r, b->value);
			return EV_OK;
		}
	for (i = 0; i < ev->n; i++)
		if (!strcmp(ev->names[i], name)) {
			segc_witness_iv_set_q(r, ev->values[i]);
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
		bad = eval(ev, &t, segc_args(e)[i], b);
		if (bad)
			break;
		if (e->kind == SEGC_ADD)
			segc_witness_iv_add(&acc, &acc, &t, 1);
		else
			segc_witness_iv_mul(&acc, &acc, &t);
		bad = segc_witness_iv_settle(ev, &acc);
	}
	if (!bad)
		segc_witness_iv_set(r, &acc);
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
	bad = eval(ev, &y, segc_args(e)[1], b);
	if (!bad && (!segc_witness_iv_exact(&y) ||
	    mpz_cmp_ui(mpq_denref(y.lo), MAX_ROOT) > 0 ||
	    mpz_cmpabs_ui(mpq_numref(y.lo), MAX_EXACT_BITS) > 0))
		bad = EV_UNDEFINED;
	if (!bad)
		bad = eval(ev, &x, segc_args(e)[0], b);
	if (!bad && mpz_cmp_ui(mpq_denref(y.lo), 1) != 0) {
		/* x^(p/q) = (x^(1/q))^p, defined for x >= 0 */
		bad = segc_witness_iv_root_log(ev, &x, &x,
			mpz_get_ui(mpq_denref(y.lo)));
		if (!bad)
			bad = segc_witness_iv_settle(ev, &x);
	}
	if (!bad)
		bad = segc_witness_iv_pow(r, &x, mpz_get_si(mpq_numref(y.lo)));
	if (!bad)
		bad = segc_witness_iv_settle(ev, r);
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
		segc_witness_iv_set_q(r, e->u.value);
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
