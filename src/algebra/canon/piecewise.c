/* piecewise.c - the canonical form of conditions and of if(c, a, b).
 *
 * A condition is brought to a normal form built from relations and
 * and/or: 'not' is pushed down to the relations (De Morgan), and every
 * relation lhs OP rhs becomes p OP' 0 with p = +-(lhs - rhs) and OP' one
 * of >=, >, ==, !=; p is scaled to coprime integer coefficients, and a
 * strict p > 0 whose p takes integer values on the domains becomes
 * p >= 1.  It is written q OP' k with k the number moved to the right
 * ("N - i >= 2").  A relation the declared domains decide is replaced by
 * its truth; and/or drop true (false) members, are flattened, sorted and
 * rid of duplicates.
 *
 * if(c, a, b) is the branch the condition picks when it is decided, the
 * common value when both branches are equal, and otherwise an atom with
 * canonical parts.  A single relation is oriented so that its left side
 * has a positive leading coefficient (the branches swapped when the
 * relation is negated), so that if(N >= 2, x, y) and if(N < 2, y, x)
 * coincide.  Where the part of the domain on one side of a one-variable
 * boundary is a short range of integers on which both branches agree,
 * the if is replaced by the other branch. */
#include <stdlib.h>
#include <string.h>
#include "algebra/canon/canon_private.h"
#include "expr/expr_private.h"
#include "base/util.h"

/* How many integer points a finite side may have for the branch check. */
#define SEGC_IF_POINTS 16

/* The relation operators and their negations. */
static const struct rel_op {
	const char *name, *negation;
} rel_ops[] = {
	{ "<", ">=" }, { "<=", ">" }, { ">", "<=" }, { ">=", "<" },
	{ "==", "!=" }, { "!=", "==" }
};

/* The entry of relation 'name', or NULL when it is not one. */
static const struct rel_op *rel_find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(rel_ops) / sizeof(rel_ops[0]); i++)
		if (!strcmp(rel_ops[i].name, name))
			return &rel_ops[i];
	return NULL;
}

/* Non-zero when 'name' is a relation or a logical operator: a call of
 * one of them is a condition, not a value. */
int segc_is_condition_op(const char *name)
{
	return rel_find(name) || !strcmp(name, "and") ||
		!strcmp(name, "or") || !strcmp(name, "not");
}

/* ------------------------------------------------------------ relations */

/* A relation node 'op'(lhs, rhs), taking both. */
static segc_expr *rel_node(const char *op, segc_expr *lhs, segc_expr *rhs)
{
	segc_expr *a[2];

	a[0] = lhs;
	a[1] = rhs;
	return segc_expr_call(op, 2, a);
}

/* Decides p OP 0 from the signs 's' proved for p: 1 true, 0 false, -1
 * open. */
static int decide(const char *op, unsigned s)
{
	if (!strcmp(op, ">="))
		return (s & SEGC_SIGN_NONNEG) ? 1 : (s & SEGC_SIGN_NEG) ? 0 : -1;
	if (!strcmp(op, ">"))
		return (s & SEGC_SIGN_POS) ? 1 : (s & SEGC_SIGN_NONPOS) ? 0 : -1;
	if (s & (SEGC_SIGN_POS | SEGC_SIGN_NEG))
		return !strcmp(op, "!=");
	if ((s & SEGC_SIGN_NONNEG) && (s & SEGC_SIGN_NONPOS))
		return !strcmp(op, "==");
	return -1;
}

/* Non-zero when the first term of the canonical expression 'q' (in the
 * order of the canonical form, which does not depend on the order in
 * which atoms were met) has a negative coefficient. */
static int expr_leads_negative(const segc_expr *q)
{
	const segc_expr *t = q->kind == SEGC_ADD ? segc_args(q)[0] : q;

	if (t->kind == SEGC_NUM)
		return mpq_sgn(t->u.value) < 0;
	return t->kind == SEGC_MUL && segc_args(t)[0]->kind == SEGC_NUM &&
		mpq_sgn(segc_args(t)[0]->u.value) < 0;
}

/* Splits 'p' (normalised, taken) into its non-constant part, returned
 * as a canonical expression, and its constant term negated in 'k'. */
static segc_expr *split_const(segc_canon *st, segc_poly *p, mpq_t k)
{
	size_t i;
	segc_rf r;
	segc_expr *q;

	mpq_set_ui(k, 0, 1);
	segc_rf_init(&r);
	segc_poly_extend(&r.num, segc_poly_nvars(p));
	for (i = 0; i < segc_poly_nterms(p); i++) {
		size_t v;
		int isconst = 1;

		for (v = 0; v < segc_poly_nvars(p); v++)
			if (segc_poly_exp(p, i, v))
				isconst = 0;
		if (isconst)
			mpq_neg(k, segc_poly_coeff(p, i));
		else
			segc_poly_push_term(&r.num, p, i, NULL);
	}
	segc_poly_normalise(NULL, &r.num);
	q = segc_canon_from_rf(st, &r);
	segc_rf_clear(&r);
	return q;
}

/* The canonical form of p OP 0 for a polynomial 'p' (changed): sets
 * '*truth' to 1 or 0 when decided (and returns NULL), else to -1 and
 * returns the relation. */
static segc_expr *rel_of_poly(segc_canon *st, const char *op, segc_poly *p,
	int *truth)
{
	segc_rf r;
	segc_expr *q;
	mpq_t k;

	segc_rf_init(&r);
	segc_poly_set(&r.num, p);
	*truth = decide(op, segc_kernel_sign(st, &r));
	if (*truth < 0 && (!strcmp(op, ">=") || !strcmp(op, ">")) &&
		segc_kernel_integer_valued(st, p)) {
		/* an integer p is >= 0 when p + 1 > 0, and > 0 when p - 1 >= 0
		 * (N - floor(N/2) >= 1: N - floor(N/2) >= N/2 > 0) */
		segc_poly one;

		segc_poly_init(&one, segc_poly_nvars(p));
		segc_poly_set_si(&one, op[1] ? 1 : -1);
		if (segc_poly_add(&st->lim, &r.num, &r.num, &one) == 0) {
			unsigned s = segc_kernel_sign(st, &r);

			*truth = op[1] ? ((s & SEGC_SIGN_POS) ? 1 :
				(s & SEGC_SIGN_NONPOS) ? 0 : -1) :
				((s & SEGC_SIGN_NONNEG) ? 1 :
				(s & SEGC_SIGN_NEG) ? 0 : -1);
		}
		segc_poly_clear(&one);
	}
	segc_rf_clear(&r);
	if (*truth >= 0)
		return NULL;
	segc_poly_primitive(p, NULL);
	if (!strcmp(op, ">") && segc_kernel_integer_valued(st, p)) {
		segc_poly one;

		segc_poly_init(&one, segc_poly_nvars(p));
		segc_poly_set_si(&one, -1);
		segc_poly_add(&st->lim, p, p, &one);
		segc_poly_clear(&one);
		op = ">=";
	}
	mpq_init(k);
	q = split_const(st, p, k);
	if (q && (!strcmp(op, "==") || !strcmp(op, "!=")) &&
		expr_leads_negative(q)) {
		segc_expr_free(q);
		segc_poly_neg(p);
		q = split_const(st, p, k);
	}
	if (q)
		q = rel_node(op, q, segc_expr_num(k));
	mpq_clear(k);
	return q;
}

/* The canonical form of lhs OP rhs (see rel_of_poly). */
static segc_expr *rel_canon(segc_canon *st, const char *op,
	const segc_expr *lhs, const segc_expr *rhs, int *truth)
{
	int swap = op[0] == '<';
	segc_expr *d;
	segc_rf r;
	segc_expr *res = NULL;
	unsigned ds;

	*truth = -1;
	d = swap ? segc_expr_sub2(segc_expr_copy(rhs),
			segc_expr_copy(lhs)) :
		segc_expr_sub2(segc_expr_copy(lhs),
			segc_expr_copy(rhs));
	if (swap)
		op = op[1] == '=' ? ">=" : ">";
	segc_rf_init(&r);
	if (segc_canon_to_rf(st, d, &r) == 0) {
		if (!segc_rf_is_poly(&r)) {
			segc_rf den;

			segc_rf_init(&den);
			segc_poly_set(&den.num, &r.den);
			ds = segc_kernel_sign(st, &den);
			segc_rf_clear(&den);
			if (ds & SEGC_SIGN_NEG)
				segc_poly_neg(&r.num);
			if (ds & (SEGC_SIGN_POS | SEGC_SIGN_NEG))
				res = rel_of_poly(st, op, &r.num, truth);
			else
				segc_canon_refuse(st, "the sign of the "
					"denominator of the condition %s is "
					"not known on the declared domains",
					d);
		} else {
			res = rel_of_poly(st, op, &r.num, truth);
		}
	}
	segc_rf_clear(&r);
	segc_expr_free(d);
	if (!res && *truth < 0)
		*truth = -2;
	return res;
}

/* -------------------------------------------------------------- logic */

/* Order of two canonical conditions, for qsort. */
static int cond_cmp(const void *a, const void *b)
{
	return segc_expr_cmp(*(segc_expr *const *)a, *(segc_expr *const *)b);
}

/* A growable list of condition nodes. */
struct conds {
	segc_expr **v;
	size_t n, cap;
};

/* Appends 'c' (taken) to 'l', flattening a node of the same 'op'. */
static void conds_push(struct conds *l, segc_expr *c, const char *op)
{
	size_t i;

	if (c->kind == SEGC_CALL && !strcmp(c->u.name, op)) {
		for (i = 0; i < c->nargs; i++)
			conds_push(l, segc_expr_copy(segc_args(c)[i]), op);
		segc_expr_free(c);
		return;
	}
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 4;
		l->v = segc_xrealloc(l->v, segc_xmul_size(l->cap,
			sizeof(*l->v)));
	}
	l->v[l->n++] = c;
}

/* Frees the members of 'l' and 'l' itself. */
static void conds_clear(struct conds *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		segc_expr_free(l->v[i]);
	free(l->v);
}

/* The node 'op' of the sorted, distinct members of 'l' (taken), or its
 * only member. */
static segc_expr *conds_join(struct conds *l, const char *op)
{
	size_t i, k = 0;
	segc_expr *res;

	qsort(l->v, l->n, sizeof(*l->v), cond_cmp);
	for (i = 0; i < l->n; i++) {
		if (k && l->v[k - 1] == l->v[i]) {
			segc_expr_free(l->v[i]);
			continue;
		}
		l->v[k++] = l->v[i];
	}
	res = k == 1 ? l->v[0] : segc_expr_call(op, k, l->v);
	free(l->v);
	return res;
}

/* The canonical form of and/or 'c' (negated when 'neg': De Morgan). */
static segc_expr *logic_canon(segc_canon *st, const segc_expr *c, int neg,
	int *truth)
{
	int isand = !strcmp(c->u.name, "and") != !!neg;
	const char *op = isand ? "and" : "or";
	struct conds l = { NULL, 0, 0 };
	size_t i;

	*truth = -1;
	for (i = 0; i < c->nargs; i++) {
		int t;
		segc_expr *k = segc_cond_canon(st, segc_args(c)[i], neg, &t);

		if (t == -2) {
			conds_clear(&l);
			*truth = -2;
			return NULL;
		}
		if (t == isand)
			continue;
		if (t == !isand) {
			conds_clear(&l);
			*truth = !isand;
			return NULL;
		}
		conds_push(&l, k, op);
	}
	if (l.n == 0) {
		*truth = isand;
		return NULL;
	}
	return conds_join(&l, op);
}

/* The canonical form of condition 'c' (negated when 'neg'): returns the
 * condition with '*truth' -1, or NULL with '*truth' 1 (true), 0 (false)
 * or -2 (an error, recorded). */
segc_expr *segc_cond_canon(segc_canon *st, const segc_expr *c, int neg,
	int *truth)
{
	const struct rel_op *r;

	if (c->kind == SEGC_CALL && c->nargs == 1 && !strcmp(c->u.name, "not"))
		return segc_cond_canon(st, segc_args(c)[0], !neg, truth);
	if (c->kind == SEGC_CALL && c->nargs >= 1 &&
		(!strcmp(c->u.name, "and") || !strcmp(c->u.name, "or")))
		return logic_canon(st, c, neg, truth);
	if (c->kind == SEGC_CALL && c->nargs == 2 &&
		(r = rel_find(c->u.name)) != NULL)
		return rel_canon(st, neg ? r->negation : r->name,
			segc_args(c)[0], segc_args(c)[1], truth);
	*truth = -2;
	segc_canon_refuse(st, "%s is not a condition (a comparison, or "
		"comparisons joined by and, or, not)", c);
	return NULL;
}

/* ------------------------------------------------------------------ if */

/* Non-zero when the relation 'c' has a left side whose leading term is
 * negative. */
static int leads_negative(const segc_expr *c)
{
	if (c->kind != SEGC_CALL || c->nargs != 2 || !rel_find(c->u.name))
		return 0;
	return expr_leads_negative(segc_args(c)[0]);
}

/* Non-zero when 'a' and 'b' are equal at 'name' = k for every integer k
 * in [lo, hi].  A side that cannot be brought to canonical form at a
 * point (a division by zero there) makes the answer "no", and leaves no
 * error behind: the probe is a question, not the formula.  A limit
 * reached on the way stays reported. */
static int agree_on(segc_canon *st, const segc_expr *a, const segc_expr *b,
	const char *name, mpz_srcptr lo, mpz_srcptr hi)
{
	size_t from = segc_ctx_n_diags(st->ctx);
	enum segc_status was = segc_ctx_status(st->ctx);
	mpz_t k;
	mpq_t q;
	int same = 1;

	mpz_init_set(k, lo);
	mpq_init(q);
	for (; same && mpz_cmp(k, hi) <= 0; mpz_add_ui(k, k, 1)) {
		segc_expr *v, *x, *y;

		mpq_set_z(q, k);
		v = segc_expr_num(q);
		x = segc_canon_expr(st, segc_expr_subst(segc_expr_copy(
			(segc_expr *)a), name, v));
		y = segc_canon_expr(st, segc_expr_subst(segc_expr_copy(
			(segc_expr *)b), name, v));
		same = x && x == y;
		segc_expr_free(v);
		segc_expr_free(x);
		segc_expr_free(y);
	}
	mpz_clear(k);
	mpq_clear(q);
	if (segc_ctx_status(st->ctx) < SEGC_ERR_LIMIT)
		segc_ctx_rollback(st->ctx, from, was);
	return same;
}

/* For the relation 'c' = (x >= k) with x a declared integer name: 1 when
 * 'b' equals 'a' on the part of the domain where c fails (so the if is
 * 'a'), 2 when 'a' equals 'b' where c holds (so it is 'b'), 0 else.
 * Only short ranges of integers are tried.  The bounds of x are rounded
 * into integers of their own first: trying a side canonicalizes, which
 * may declare counters in the domains and so move the entry of x. */
static int finite_side(segc_canon *st, const segc_expr *c,
	const segc_expr *a, const segc_expr *b)
{
	const segc_expr *x, *k;
	mpq_srcptr lo, hi;
	int integer, has_lo, has_hi, res = 0;
	mpz_t from, to, ceil_lo, floor_hi;

	if (c->kind != SEGC_CALL || strcmp(c->u.name, ">=") || c->nargs != 2)
		return 0;
	x = segc_args(c)[0];
	k = segc_args(c)[1];
	if (x->kind != SEGC_SYM || k->kind != SEGC_NUM ||
		mpz_cmp_ui(mpq_denref(k->u.value), 1) ||
		!segc_domains_get(st->dom, x->u.name, &lo, &hi, &integer) ||
		!integer)
		return 0;
	mpz_init(from);
	mpz_init(to);
	mpz_init(ceil_lo);
	mpz_init(floor_hi);
	has_lo = lo != NULL;
	has_hi = hi != NULL;
	if (has_lo)
		mpz_cdiv_q(ceil_lo, mpq_numref(lo), mpq_denref(lo));
	if (has_hi)
		mpz_fdiv_q(floor_hi, mpq_numref(hi), mpq_denref(hi));
	if (has_lo) {
		mpz_set(from, ceil_lo);
		mpz_sub_ui(to, mpq_numref(k->u.value), 1);
		mpz_sub(to, to, from);
		if (mpz_sgn(to) >= 0 && mpz_cmp_ui(to, SEGC_IF_POINTS) < 0) {
			mpz_add(to, to, from);
			if (agree_on(st, a, b, x->u.name, from, to))
				res = 1;
		}
	}
	if (!res && has_hi) {
		mpz_set(from, mpq_numref(k->u.value));
		mpz_sub(to, floor_hi, from);
		if (mpz_sgn(to) >= 0 && mpz_cmp_ui(to, SEGC_IF_POINTS) < 0) {
			mpz_add(to, to, from);
			if (agree_on(st, a, b, x->u.name, from, to))
				res = 2;
		}
	}
	mpz_clear(from);
	mpz_clear(to);
	mpz_clear(ceil_lo);
	mpz_clear(floor_hi);
	return res;
}

/* Non-zero when 'e' holds a call of if (see canon_private.h). */
int segc_has_if(const segc_expr *e)
{
	size_t i;

	if (segc_expr_is_builtin(e, SEGC_BUILTIN_IF))
		return 1;
	for (i = 0; i < e->nargs; i++)
		if (segc_has_if(segc_args(e)[i]))
			return 1;
	return 0;
}

/* What the canonical condition 'k' is when the canonical relation 'c'
 * has the truth 'truth': 1, 0, or -1 when that does not tell.  The same
 * relation is decided; q >= k1 decides q >= k2 for k2 <= k1, and
 * q < k1 decides q >= k2 for k2 >= k1. */
static int implied(const segc_expr *k, const segc_expr *c, int truth)
{
	const segc_expr *k1, *k2;
	int cmp;

	if (k == c)
		return truth;
	if (k->kind != SEGC_CALL || c->kind != SEGC_CALL || strcmp(k->u.name,
		">=") || strcmp(c->u.name, ">=") || k->nargs != 2 ||
		c->nargs != 2 || segc_args(k)[0] != segc_args(c)[0])
		return -1;
	k1 = segc_args(c)[1];
	k2 = segc_args(k)[1];
	if (k1->kind != SEGC_NUM || k2->kind != SEGC_NUM)
		return -1;
	cmp = mpq_cmp(k2->u.value, k1->u.value);
	if (truth && cmp <= 0)
		return 1;
	if (!truth && cmp >= 0)
		return 0;
	return -1;
}

/* 'e' (borrowed) with every if whose condition the relation 'c' of truth
 * 'truth' decides replaced by the branch it picks (not canonical). */
static segc_expr *assume(const segc_expr *e, const segc_expr *c, int truth)
{
	segc_expr **args;
	segc_expr *res;
	size_t i;
	int t;

	if (!segc_has_if(e) || e->kind == SEGC_NUM || e->kind == SEGC_SYM)
		return segc_expr_copy(e);
	if (segc_expr_is_builtin(e, SEGC_BUILTIN_IF) && e->nargs == 3 &&
		(t = implied(segc_args(e)[0], c, truth)) >= 0)
		return assume(segc_args(e)[t ? 1 : 2], c, truth);
	args = segc_xmalloc(segc_xmul_size(e->nargs, sizeof(*args)));
	for (i = 0; i < e->nargs; i++)
		args[i] = assume(segc_args(e)[i], c, truth);
	res = segc_expr_rebuild(e->kind, e->kind == SEGC_CALL ||
		e->kind == SEGC_SUM ? e->u.name : NULL, e->nargs, args);
	free(args);
	return res;
}

/* 'x' (taken) canonical again with the ifs that 'c' of truth 'truth'
 * decides resolved: a branch of if(c, ...) may assume c. */
static segc_expr *under(segc_canon *st, segc_expr *x, const segc_expr *c,
	int truth)
{
	segc_expr *y, *res;

	if (!x || !segc_has_if(x))
		return x;
	y = assume(x, c, truth);
	if (y == x) {
		segc_expr_free(y);
		return x;
	}
	res = segc_canon_expr(st, y);
	segc_expr_free(y);
	segc_expr_free(x);
	return res;
}

/* The canonical form of -x (x taken). */
static segc_expr *negated(segc_canon *st, segc_expr *x)
{
	segc_expr *y = segc_expr_neg(x), *res = segc_canon_expr(st, y);

	segc_expr_free(y);
	return res;
}

/* Takes the monomial that the canonical branches '*a' and '*b' have in
 * common out of both (both non-zero polynomials, the monomial's
 * exponents positive): if(c, t*x, t*y) = t*if(c, x, y), so that the
 * factor prints once and t*if(c, x, y) has one form.  Returns 1 with the
 * monomial in 'm' and the branches replaced, 0 when there is none, -1
 * on an error. */
static int take_content(segc_canon *st, segc_expr **a, segc_expr **b,
	segc_rf *m)
{
	segc_rf ra, rb;
	int32_t *ea = NULL, *eb = NULL;
	size_t v, n;
	int rc = 0, any = 0;

	segc_rf_init(&ra);
	segc_rf_init(&rb);
	if (segc_canon_to_rf(st, *a, &ra) || segc_canon_to_rf(st, *b, &rb))
		rc = -1;
	if (rc || !segc_rf_is_poly(&ra) || !segc_rf_is_poly(&rb) ||
		segc_poly_is_zero(&ra.num) || segc_poly_is_zero(&rb.num))
		goto done;
	n = segc_poly_nvars_max(&ra.num, &rb.num);
	if (n == 0)
		goto done;
	segc_poly_extend(&ra.num, n);
	segc_poly_extend(&rb.num, n);
	ea = segc_xmalloc(n * sizeof(*ea));
	eb = segc_xmalloc(n * sizeof(*eb));
	segc_poly_min_exps(&ra.num, ea);
	segc_poly_min_exps(&rb.num, eb);
	for (v = 0; v < n; v++) {
		int32_t d = ea[v] < eb[v] ? ea[v] : eb[v];

		ea[v] = d > 0 ? -d : 0;
		eb[v] = -ea[v];
		any |= d > 0;
	}
	if (!any)
		goto done;
	if (segc_poly_shift(&st->lim, &ra.num, ea, n) ||
		segc_poly_shift(&st->lim, &rb.num, ea, n)) {
		rc = -1;
		goto done;
	}
	segc_poly_set_si(&m->num, 1);
	segc_poly_set_si(&m->den, 1);
	segc_poly_extend(&m->num, n);
	if (segc_poly_shift(&st->lim, &m->num, eb, n)) {
		rc = -1;
		goto done;
	}
	segc_expr_free(*a);
	segc_expr_free(*b);
	*a = segc_canon_from_rf(st, &ra);
	*b = *a ? segc_canon_from_rf(st, &rb) : NULL;
	rc = *a && *b ? 1 : -1;
done:
	free(ea);
	free(eb);
	segc_rf_clear(&ra);
	segc_rf_clear(&rb);
	return rc;
}

/* r = the canonical if(c, a, b) with canonical parts 'a' and 'b' (both
 * taken) and canonical condition 'c' (taken).  A sign comes out: the
 * first branch that is not 0 leads with a positive term, so that
 * -if(c, -x, -y) and if(c, x, y) coincide (a constant taken out of a
 * sum whose range may be empty). */
static int if_atom(segc_canon *st, segc_rf *r, segc_expr *c, segc_expr *a,
	segc_expr *b)
{
	segc_expr *args[3], *e;
	int side, rc, neg;

	if (a == b || (side = finite_side(st, c, a, b)) == 1) {
		segc_expr_free(c);
		segc_expr_free(b);
		rc = segc_canon_to_rf(st, a, r);
		segc_expr_free(a);
		return rc;
	}
	if (side == 2) {
		segc_expr_free(c);
		segc_expr_free(a);
		rc = segc_canon_to_rf(st, b, r);
		segc_expr_free(b);
		return rc;
	}
	{
		segc_rf m, inner;

		segc_rf_init(&m);
		rc = take_content(st, &a, &b, &m);
		if (rc != 0) {
			segc_rf_init(&inner);
			if (rc == 1 && a && b)
				rc = if_atom(st, &inner, c, a, b);
			else {
				segc_expr_free(a);
				segc_expr_free(b);
				segc_expr_free(c);
				rc = -1;
			}
			if (rc == 0)
				rc = segc_rf_mul(st, r, &m, &inner);
			segc_rf_clear(&inner);
			segc_rf_clear(&m);
			return rc ? -1 : 0;
		}
		segc_rf_clear(&m);
	}
	neg = expr_leads_negative(segc_expr_is_zero(a) ? b : a);
	if (neg) {
		a = negated(st, a);
		b = a ? negated(st, b) : (segc_expr_free(b), NULL);
		if (!a || !b) {
			segc_expr_free(a);
			segc_expr_free(c);
			return -1;
		}
	}
	args[0] = c;
	args[1] = a;
	args[2] = b;
	e = segc_expr_call_builtin(SEGC_BUILTIN_IF, 3, args);
	segc_poly_set_var(&r->num, segc_canon_var(st, e), 1);
	segc_poly_set_si(&r->den, 1);
	if (neg)
		segc_poly_neg(&r->num);
	segc_expr_free(e);
	return 0;
}

/* r = the if node 'e' in canonical form (see the top of this file). */
int segc_if_to_rf(segc_canon *st, const segc_expr *e, segc_rf *r)
{
	int truth, neg = 0;
	segc_expr *c, *a, *b;

	if (e->nargs != 3) {
		segc_canon_refuse(st, "if takes a condition and two values, "
			"in %s", e);
		return -1;
	}
	c = segc_cond_canon(st, segc_args(e)[0], 0, &truth);
	if (truth == -2)
		return -1;
	if (truth >= 0)
		return segc_canon_to_rf(st, segc_args(e)[truth ? 1 : 2], r);
	if (leads_negative(c)) {
		segc_expr_free(c);
		c = segc_cond_canon(st, segc_args(e)[0], 1, &truth);
		if (truth == -2)
			return -1;
		neg = 1;
	} else if (c->kind == SEGC_CALL && !strcmp(c->u.name, "!=")) {
		segc_expr_free(c);
		c = segc_cond_canon(st, segc_args(e)[0], 1, &truth);
		if (truth == -2)
			return -1;
		neg = 1;
	}
	a = under(st, segc_canon_expr(st, segc_args(e)[neg ? 2 : 1]), c, 1);
	b = a ? under(st, segc_canon_expr(st, segc_args(e)[neg ? 1 : 2]), c,
		0) :
		NULL;
	if (!a || !b) {
		segc_expr_free(a);
		segc_expr_free(c);
		return -1;
	}
	return if_atom(st, r, c, a, b);
}

/* r = if(c, a, b) for expressions that need not be canonical (none
 * taken): the way other modules build piecewise results. */
int segc_if_make(segc_canon *st, segc_rf *r, const segc_expr *c,
	const segc_expr *a, const segc_expr *b)
{
	segc_expr *args[3], *e;
	int rc;

	args[0] = segc_expr_copy(c);
	args[1] = segc_expr_copy(a);
	args[2] = segc_expr_copy(b);
	e = segc_expr_call_builtin(SEGC_BUILTIN_IF, 3, args);
	rc = segc_if_to_rf(st, e, r);
	segc_expr_free(e);
	return rc;
}
