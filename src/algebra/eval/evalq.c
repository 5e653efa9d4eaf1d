/* evalq.c - exact evaluation of an expression at rational values of its
 * names, for tests and cross-checks of the canonical form.  Only what is
 * rational at the point evaluates; anything else (a name without a value,
 * log2 or sqrt of a non-power, division by zero, an uninterpreted call, an
 * oversized power or sum) makes the evaluation fail: -2 when it is a
 * bound of the work below that stopped it, else -1.
 *
 * if(c, a, b) evaluates its condition exactly and then only the branch it
 * picks; and/or evaluate their operands from the left and stop once the
 * value is known.  sum(i, lo, hi, body) adds body for every integer i
 * with lo <= i <= hi, as the C loop for (i = ceil(lo); i <= hi; i++): 0
 * when there is none.  floor and ceil of a rational plus a rational
 * times one square root, root or log2 of a rational take their exact
 * integers (intpart.c). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "expr/expr_private.h"
#include "base/util.h"
#include "algebra/eval/evalq.h"
#include "algebra/eval/intpart.h"
#include "algebra/eval/atoms.h"

/* Bounds of the work one evaluation may do. */
#define EVAL_MAX_BITS 16777216UL    /* bits of a power's result */
#define EVAL_MAX_SUM_TERMS 1000000L /* terms of one sum */
#define EVAL_MAX_TOTAL_TERMS 10000000UL /* terms of all sums, nested */
#define EVAL_MAX_ROOT 1024UL        /* denominator of a rational exponent */

/* A name bound by an enclosing sum, and the bindings further out. */
struct binding {
	const char *name;
	mpq_srcptr value;
	const struct binding *next;
};

/* The values given by the caller, the sum terms still allowed, the
 * terms one sum or atom may take at most, and whether a bound of the
 * work stopped the evaluation. */
struct point {
	size_t n;
	const char *const *names;
	const mpq_t *values;
	unsigned long *terms_left;
	unsigned long cap;
	int *limited;
};

static int eval(mpq_t r, const segc_expr *e, const struct binding *b,
	const struct point *pt);

/* Sets 'r' to the value of 'name': the innermost binding, else the first
 * of the caller's names; -1 if it has none. */
static int eval_sym(mpq_t r, const char *name, const struct binding *b,
	const struct point *pt)
{
	size_t i;

	for (; b; b = b->next) {
		if (!strcmp(b->name, name)) {
			mpq_set(r, b->value);
			return 0;
		}
	}
	for (i = 0; i < pt->n; i++) {
		if (!strcmp(pt->names[i], name)) {
			mpq_set(r, pt->values[i]);
			return 0;
		}
	}
	return -1;
}

/* Sets 'r' to the sum (ADD) or product (MUL) of the children of 'e'. */
static int eval_nary(mpq_t r, const segc_expr *e, const struct binding *b,
	const struct point *pt)
{
	int bad = 0;
	size_t i;
	mpq_t t;

	mpq_init(t);
	mpq_set_ui(r, e->kind == SEGC_ADD ? 0 : 1, 1);
	for (i = 0; i < e->nargs && !bad; i++) {
		bad = eval(t, segc_args(e)[i], b, pt);
		if (e->kind == SEGC_ADD)
			mpq_add(r, r, t);
		else
			mpq_mul(r, r, t);
	}
	mpq_clear(t);
	return bad ? -1 : 0;
}

/* Sets 'r' to 'x' ^ 'k' for an integer 'k'; -1 for 0^-k or a result too
 * large. */
static int pow_int(mpq_t r, mpq_srcptr x, mpz_srcptr k)
{
	size_t bits;
	unsigned long uk;
	mpq_t t;

	if (mpq_sgn(x) == 0 || (mpz_cmpabs_ui(mpq_numref(x), 1) == 0 &&
	    mpz_cmp_ui(mpq_denref(x), 1) == 0)) {
		if (mpq_sgn(x) == 0 && mpz_sgn(k) < 0)
			return -1;
		if (mpz_sgn(k) == 0 || (mpq_sgn(x) > 0) || mpz_even_p(k))
			mpq_set_ui(r, mpq_sgn(x) != 0 || mpz_sgn(k) == 0, 1);
		else
			mpq_set(r, x);
		return 0;
	}
	if (mpz_cmpabs_ui(k, EVAL_MAX_BITS) > 0)
		return -2;
	uk = mpz_get_ui(k);
	bits = mpz_sizeinbase(mpq_numref(x), 2);
	if (mpz_sizeinbase(mpq_denref(x), 2) > bits)
		bits = mpz_sizeinbase(mpq_denref(x), 2);
	if (uk && bits > EVAL_MAX_BITS / uk)
		return -2;
	mpq_init(t);
	mpz_pow_ui(mpq_numref(t), mpq_numref(x), uk);
	mpz_pow_ui(mpq_denref(t), mpq_denref(x), uk);
	if (mpz_sgn(k) < 0)
		mpq_inv(t, t);
	mpq_set(r, t);
	mpq_clear(t);
	return 0;
}

/* Replaces 'z' by its exact 'n'-th root; -1 if it has none. */
static int exact_root(mpz_t z, unsigned long n)
{
	if (mpz_sgn(z) < 0 && n % 2 == 0)
		return -1;
	return mpz_root(z, z, n) ? 0 : -1;
}

/* Sets 'r' to 'x' ^ 'y': an integer power, or a rational one where the
 * root is exact. */
static int pow_q(mpq_t r, mpq_srcptr x, mpq_srcptr y)
{
	unsigned long n;
	mpq_t t;
	int bad;

	if (mpz_cmp_ui(mpq_denref(y), 1) == 0)
		return pow_int(r, x, mpq_numref(y));
	if (mpz_cmp_ui(mpq_denref(y), EVAL_MAX_ROOT) > 0)
		return -1;
	n = mpz_get_ui(mpq_denref(y));
	mpq_init(t);
	bad = pow_int(t, x, mpq_numref(y));
	if (!bad)
		bad = exact_root(mpq_numref(t), n) ||
			exact_root(mpq_denref(t), n) ? -1 : 0;
	if (!bad)
		mpq_set(r, t);
	mpq_clear(t);
	return bad;
}

/* Evaluates the 'n' arguments of 'e' into 'v' (initialised here; the
 * caller clears them with clear_args). */
static int eval_args(mpq_t *v, const segc_expr *e, const struct binding *b,
	const struct point *pt)
{
	int bad = 0;
	size_t i;

	for (i = 0; i < e->nargs; i++) {
		mpq_init(v[i]);
		if (!bad)
			bad = eval(v[i], segc_args(e)[i], b, pt);
	}
	return bad ? -1 : 0;
}

/* Clears the 'n' rationals of 'v' and frees the array. */
static void clear_args(mpq_t *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		mpq_clear(v[i]);
	free(v);
}

/* The recurrence atom maxplus(...) (maxplus.c), within the terms this
 * evaluator allows a sum. */
static int maxplus_q(mpq_t r, const mpq_t *v, size_t n,
	const struct point *pt)
{
	const char *why;
	int rc = segc_atoms_maxplus_eval(r, n, v, pt->cap, &why);

	if (rc > 0)
		*pt->limited = 1;
	return rc ? -1 : 0;
}

/* A recurrence maxplusv(i, n, ...) being evaluated: its atom, the
 * bindings outside, the costs of the current iteration. */
struct mpv {
	const segc_expr *e;
	const struct binding *b;
	const struct point *pt;
	segc_maxplus_sys s;
	mpq_t *cost, *acost, i;
};

/* Sets the costs of iteration 'i' of the recurrence 'arg' (a struct
 * mpv). */
static int mpv_costs(void *arg, unsigned long i)
{
	struct mpv *M = arg;
	struct binding inner;
	size_t v, a, base = M->s.m + 4;

	mpq_set_ui(M->i, i, 1);
	inner.name = segc_expr_binder(M->e);
	inner.value = M->i;
	inner.next = M->b;
	if (!*M->pt->terms_left) {
		*M->pt->limited = 1;
		return -1;
	}
	--*M->pt->terms_left;
	for (v = 0; v < M->s.m; v++)
		if (eval(M->cost[v], segc_args(M->e)[3 + v], &inner, M->pt))
			return -1;
	for (a = 0; a < M->s.k; a++)
		if (eval(M->acost[a], segc_args(M->e)[base + 4 * a + 3], &inner,
				M->pt))
			return -1;
	return 0;
}

/* The recurrence maxplusv(i, n, ...) 'e': its costs evaluated for every
 * iteration, within the terms this evaluator allows a sum. */
static int eval_maxplusv(mpq_t r, const segc_expr *e,
	const struct binding *b, const struct point *pt)
{
	struct mpv M;
	const char *why;
	size_t j;
	mpq_t n;
	int bad;

	M.e = e;
	M.b = b;
	M.pt = pt;
	mpq_init(n);
	mpq_init(M.i);
	bad = segc_atoms_maxplus_decode_graph(e, &M.s) != NULL ||
		eval(n, segc_args(e)[1], b, pt);
	if (!bad && mpz_cmp_ui(mpq_numref(n), *pt->terms_left) > 0) {
		*pt->limited = 1;
		bad = 1;
	}
	M.cost = segc_xmalloc((M.s.m + 1) * sizeof(mpq_t));
	M.acost = segc_xmalloc((M.s.k + 1) * sizeof(mpq_t));
	for (j = 0; j < M.s.m; j++)
		mpq_init(M.cost[j]);
	for (j = 0; j < M.s.k; j++)
		mpq_init(M.acost[j]);
	M.s.cost = (const mpq_t *)M.cost;
	M.s.acost = (const mpq_t *)M.acost;
	M.s.astride = 1;
	if (!bad)
		bad = segc_atoms_maxplus_run(r, &M.s, n, pt->cap,
			mpv_costs, &M, &why);
	if (bad > 0)
		*pt->limited = 1;
	for (j = 0; j < M.s.m; j++)
		mpq_clear(M.cost[j]);
	for (j = 0; j < M.s.k; j++)
		mpq_clear(M.acost[j]);
	free(M.cost);
	free(M.acost);
	segc_atoms_maxplus_clear(&M.s);
	mpq_clear(n);
	mpq_clear(M.i);
	return bad ? -1 : 0;
}

/* The atom taskpath(...) of indexed nodes (taskpath.c), within the terms
 * this evaluator allows a sum. */
static int taskpath_q(mpq_t r, const mpq_t *v, size_t n,
	const struct point *pt)
{
	char *why = NULL;
	int rc = segc_atoms_taskpath_eval(r, n, v, pt->cap, &why);

	free(why);
	if (rc > 0)
		*pt->limited = 1;
	return rc ? -1 : 0;
}

/* Applies the built-in 'id' to the 'n' values 'v': a recurrence atom
 * by its graph operation, a function of numbers by its row's exact
 * operation; -1 for any other. */
static int apply_builtin(mpq_t r, enum segc_builtin id, const mpq_t *v,
	size_t n, const struct point *pt)
{
	int bad;

	switch (segc_builtin_get(id)->eval) {
	case SEGC_EVAL_MAXPLUS:
		return maxplus_q(r, v, n, pt);
	case SEGC_EVAL_TASKPATH:
		return taskpath_q(r, v, n, pt);
	default:
		break;
	}
	bad = segc_builtin_exact(id, r, v, n);
	if (bad == -2)
		*pt->limited = 1;
	return bad ? -1 : 0;
}


/* The truth (0 or 1) of the condition 'e'; -1 when it is not one or an
 * operand it needs has no rational value. */
static int eval_cond(const segc_expr *e, const struct binding *b,
	const struct point *pt)
{
	int t = -1, conj;
	size_t i;
	mpq_t x, y;

	if (!segc_expr_is_condition(e))
		return -1;
	if (segc_expr_is_builtin(e, SEGC_BUILTIN_NOT)) {
		t = eval_cond(segc_args(e)[0], b, pt);
		return t < 0 ? -1 : !t;
	}
	if (segc_expr_is_builtin(e, SEGC_BUILTIN_AND) ||
	    segc_expr_is_builtin(e, SEGC_BUILTIN_OR)) {
		conj = segc_expr_is_builtin(e, SEGC_BUILTIN_AND);
		for (i = 0; i < e->nargs; i++) {
			t = eval_cond(segc_args(e)[i], b, pt);
			if (t < 0 || t != conj)
				return t;
		}
		return conj;
	}
	mpq_init(x);
	mpq_init(y);
	if (!eval(x, segc_args(e)[0], b, pt) && !eval(y, segc_args(e)[1], b,
		pt))
		t = segc_builtin_relation_holds(segc_expr_builtin(e),
			mpq_cmp(x, y));
	mpq_clear(x);
	mpq_clear(y);
	return t;
}

/* Evaluates if(c, a, b): the branch the condition picks, only. */
static int eval_if(mpq_t r, const segc_expr *e, const struct binding *b,
	const struct point *pt)
{
	int t = eval_cond(segc_args(e)[0], b, pt);

	if (t < 0)
		return -1;
	return eval(r, segc_args(e)[t ? 1 : 2], b, pt);
}

/* ------------------------------------------- integer parts of irrationals */

/* The irrational part of a floor or ceil being evaluated: 'base' under
 * the real 'root'-th root, or under log2 when 'root' is 0; its factor
 * 'c' and the rational rest 'd' of the argument. */
struct irr {
	const segc_expr *base;
	mpz_t exp;
	unsigned long root;
	mpq_t c, d;
};

/* Non-zero when 'e' is sqrt(x), x^(p/q) (q > 1) or log2(x): sets the
 * base, exponent and root of 'I'. */
static int irr_atom(struct irr *I, const segc_expr *e)
{
	mpq_srcptr y;

	if (segc_builtin_root(segc_expr_builtin(e)) >= 0 && e->nargs == 1) {
		I->base = segc_args(e)[0];
		mpz_set_ui(I->exp, 1);
		I->root = (unsigned long)segc_builtin_root(
			segc_expr_builtin(e));
		return 1;
	}
	if (e->kind != SEGC_POW || segc_args(e)[1]->kind != SEGC_NUM)
		return 0;
	y = segc_args(e)[1]->u.value;
	if (mpz_cmp_ui(mpq_denref(y), 1) == 0 ||
	    mpz_cmp_ui(mpq_denref(y), EVAL_MAX_ROOT) > 0)
		return 0;
	I->base = segc_args(e)[0];
	mpz_set(I->exp, mpq_numref(y));
	I->root = mpz_get_ui(mpq_denref(y));
	return 1;
}

/* Adds the term 't' of an argument to 'I': to d when it has a rational
 * value, else as the one irrational atom, alone or times rational
 * factors; -1 for any other term. */
static int irr_term(struct irr *I, const segc_expr *t,
	const struct binding *b, const struct point *pt)
{
	const segc_expr *atom = NULL;
	size_t i;
	mpq_t v;
	int bad = 0;

	mpq_init(v);
	if (!eval(v, t, b, pt)) {
		mpq_add(I->d, I->d, v);
		mpq_clear(v);
		return 0;
	}
	if (I->base || *pt->limited) {
		mpq_clear(v);
		return -1;
	}
	if (t->kind != SEGC_MUL) {
		bad = !irr_atom(I, t);
		mpq_clear(v);
		return bad ? -1 : 0;
	}
	for (i = 0; i < t->nargs && !bad; i++) {
		if (!eval(v, segc_args(t)[i], b, pt))
			mpq_mul(I->c, I->c, v);
		else
			bad = atom || *pt->limited ||
				!irr_atom(I, atom = segc_args(t)[i]);
	}
	mpq_clear(v);
	return bad || !atom ? -1 : 0;
}

/* Sets 'r' to floor (ceil when 'up') of 'arg', a rational number plus
 * a rational times one of sqrt(x), x^(p/q), log2(x) of rational x. */
static int integer_part(mpq_t r, const segc_expr *arg, int up,
	const struct binding *b, const struct point *pt)
{
	struct irr I;
	size_t i, n = arg->kind == SEGC_ADD ? arg->nargs : 1;
	mpq_t x, y;
	int bad = 0;

	memset(&I, 0, sizeof(I));
	mpz_init(I.exp);
	mpq_inits(I.c, I.d, x, y, (mpq_ptr)0);
	mpq_set_ui(I.c, 1, 1);
	for (i = 0; i < n && !bad; i++)
		bad = irr_term(&I, arg->kind == SEGC_ADD ? segc_args(arg)[i]
			: arg,
			b, pt);
	bad = bad || !I.base || eval(x, I.base, b, pt);
	if (!bad && I.root) {
		bad = !mpz_fits_slong_p(I.exp) ||
			pow_int(y, x, I.exp);
		bad = bad || segc_intpart_root(mpq_numref(r), I.c, y, I.root,
			I.d, up, EVAL_MAX_BITS);
	} else if (!bad)
		bad = segc_intpart_log2(mpq_numref(r), I.c, x, I.d, up,
			EVAL_MAX_BITS);
	if (!bad)
		mpz_set_ui(mpq_denref(r), 1);
	mpz_clear(I.exp);
	mpq_clears(I.c, I.d, x, y, (mpq_ptr)0);
	return bad ? -1 : 0;
}

/* Evaluates floor(x) or ceil(x): of the value of x, or, where x is
 * irrational, exactly by integer_part. */
static int eval_round(mpq_t r, const segc_expr *e, const struct binding *b,
	const struct point *pt)
{
	const segc_builtin_info *f = segc_builtin_get(segc_expr_builtin(e));
	mpq_t x;
	int bad;

	mpq_init(x);
	bad = eval(x, segc_args(e)[0], b, pt);
	if (!bad)
		bad = f->exact(f, r, (const mpq_t *)&x, 1);
	else if (!*pt->limited)
		bad = integer_part(r, segc_args(e)[0], f->dir > 0, b, pt);
	mpq_clear(x);
	return bad ? -1 : 0;
}

/* Evaluates the call 'e'. */
static int eval_call(mpq_t r, const segc_expr *e, const struct binding *b,
	const struct point *pt)
{
	mpq_t *v;
	int bad;

	if (e->nargs == 3 && segc_expr_is_builtin(e, SEGC_BUILTIN_IF))
		return eval_if(r, e, b, pt);
	if (segc_expr_is_condition(e))
		return -1;
	if (segc_expr_binder(e))
		return eval_maxplusv(r, e, b, pt);
	if (e->nargs == 1 && segc_builtin_get(segc_expr_builtin(e))->eval ==
	    SEGC_EVAL_ROUND)
		return eval_round(r, e, b, pt);
	v = segc_xmalloc(segc_xmul_size(e->nargs ? e->nargs : 1, sizeof(*v)));
	bad = eval_args(v, e, b, pt);

	if (!bad)
		bad = apply_builtin(r, segc_expr_builtin(e), (const mpq_t *)v,
			e->nargs, pt);
	clear_args(v, e->nargs);
	return bad;
}

/* Adds body(i) for i = 'from'..'to' to 'r'. */
static int sum_range(mpq_t r, const segc_expr *e, long from, long to,
	const struct binding *b, const struct point *pt)
{
	struct binding inner;
	mpq_t i, t;
	long k;
	int bad = 0;

	mpq_init(i);
	mpq_init(t);
	inner.name = e->u.name;
	inner.value = i;
	inner.next = b;
	for (k = from; k <= to && !bad; k++) {
		bad = !*pt->terms_left;
		if (bad) {
			*pt->limited = 1;
			break;
		}
		--*pt->terms_left;
		mpq_set_si(i, k, 1);
		bad = eval(t, segc_args(e)[2], &inner, pt);
		mpq_add(r, r, t);
	}
	mpq_clear(i);
	mpq_clear(t);
	return bad ? -1 : 0;
}

/* Sets 'z' to ceil (when 'up') or floor of the value of 'e'. */
static int eval_bound(mpz_t z, const segc_expr *e, int up,
	const struct binding *b, const struct point *pt)
{
	mpq_t q;
	int bad;

	mpq_init(q);
	bad = eval(q, e, b, pt);
	if (!bad && up)
		mpz_cdiv_q(z, mpq_numref(q), mpq_denref(q));
	else if (!bad)
		mpz_fdiv_q(z, mpq_numref(q), mpq_denref(q));
	mpq_clear(q);
	return bad;
}

/* Evaluates sum(i, lo, hi, body): body for i = ceil(lo) .. floor(hi), 0
 * when that range is empty (whatever the bounds, as a C loop). */
static int eval_sum(mpq_t r, const segc_expr *e, const struct binding *b,
	const struct point *pt)
{
	mpz_t lo, hi;
	int bad;

	mpz_init(lo);
	mpz_init(hi);
	mpq_set_ui(r, 0, 1);
	bad = eval_bound(lo, segc_args(e)[0], 1, b, pt) ||
		eval_bound(hi, segc_args(e)[1], 0, b, pt);
	if (!bad && mpz_cmp(hi, lo) >= 0) {
		mpz_sub(hi, hi, lo);
		bad = !mpz_fits_slong_p(lo) || mpz_cmp_ui(hi, pt->cap) >= 0 ||
			mpz_cmp_ui(hi, *pt->terms_left) >= 0 ||
			mpz_cmp_si(lo, LONG_MAX - (long)pt->cap) > 0;
		if (bad)
			*pt->limited = 1;
		else
			bad = sum_range(r, e, mpz_get_si(lo), mpz_get_si(lo) +
				mpz_get_si(hi), b, pt);
	}
	mpz_clear(lo);
	mpz_clear(hi);
	return bad ? -1 : 0;
}

/* Sets 'r' to the value of 'e' in the bindings 'b' and the point 'pt'. */
static int eval(mpq_t r, const segc_expr *e, const struct binding *b,
	const struct point *pt)
{
	mpq_t x, y;
	int bad;

	switch (e->kind) {
	case SEGC_NUM:
		mpq_set(r, e->u.value);
		return 0;
	case SEGC_SYM:
		return eval_sym(r, e->u.name, b, pt);
	case SEGC_ADD:
	case SEGC_MUL:
		return eval_nary(r, e, b, pt);
	case SEGC_POW:
		mpq_init(x);
		mpq_init(y);
		bad = eval(x, segc_args(e)[0], b, pt) || eval(y, segc_args(e)[1],
			b, pt);
		if (!bad && (bad = pow_q(r, x, y)) == -2)
			*pt->limited = 1;
		mpq_clear(x);
		mpq_clear(y);
		return bad ? -1 : 0;
	case SEGC_CALL:
		return eval_call(r, e, b, pt);
	case SEGC_SUM:
		return eval_sum(r, e, b, pt);
	default:
		return -1;
	}
}

/* Evaluates 'e' at 'names'[i] = 'values'[i]; see segc.h. */
int segc_expr_eval_q(mpq_t result, const segc_expr *e, size_t n,
	const char *const *names, const mpq_t *values)
{
	unsigned long terms = EVAL_MAX_TOTAL_TERMS;
	struct point pt;
	mpq_t r;
	int bad, limited = 0;

	if (!e)
		return -1;
	pt.n = n;
	pt.names = names;
	pt.values = values;
	pt.terms_left = &terms;
	pt.cap = EVAL_MAX_SUM_TERMS;
	pt.limited = &limited;
	mpq_init(r);
	bad = eval(r, e, NULL, &pt);
	if (!bad)
		mpq_set(result, r);
	mpq_clear(r);
	return !bad ? 0 : limited ? -2 : -1;
}

/* See evalq.h. */
int segc_evalq_closed(mpq_t r, const segc_expr *e, unsigned long *terms,
	int *limited)
{
	struct point pt;

	pt.n = 0;
	pt.names = NULL;
	pt.values = NULL;
	pt.terms_left = terms;
	pt.cap = *terms;
	pt.limited = limited;
	return eval(r, e, NULL, &pt) ? -1 : 0;
}
