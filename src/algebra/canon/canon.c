/* canon.c - the canonical form of an expression: a rational function p/q
 * over atoms (names, and kernels with canonical arguments), built with
 * exact polynomial arithmetic (canon_rf.c), then brought to its normal
 * form and printed back as an expression (canon_normal.c).  Here the
 * conversion of an expression node by node, and the entry points. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "algebra/canon/canon_private.h"
#include "algebra/canon/refusal.h"
#include "base/util.h"

/* --------------------------------------------------------- conversion */

static int monomial_factor(segc_canon *st, const segc_expr *f);
static size_t monomial_atoms(segc_canon *st, const segc_expr *e);
static int monomial_term(segc_canon *st, const segc_expr *e, int32_t *x,
	size_t nv, mpq_ptr c, mpq_srcptr *cp);

/* Non-zero when 'e' is one term of a polynomial: a number, a name, a
 * name to an integer power, or a product of such monomial factors. */
static int is_monomial(segc_canon *st, const segc_expr *e)
{
	size_t i;

	if (e->kind != SEGC_MUL)
		return monomial_factor(st, e);
	for (i = 0; i < e->nargs && monomial_factor(st, segc_args(e)[i]); i++)
		;
	return i == e->nargs;
}

/* r = sum of the children of ADD node 'e'.  The children that are
 * monomials become terms of one polynomial, the others are converted and
 * added.  A first pass over the children, in their order, registers the
 * atoms of the monomials and converts the others (so the atoms are
 * numbered as converting each child would number them); the polynomial
 * of the monomials is then checked against the limits at its final size
 * and filled in a second pass. */
static int add_to_rf(segc_canon *st, const segc_expr *e, segc_rf *r)
{
	size_t i, k = 0, n = e->nargs, npoly = 0, nmono = 0, nprod = 0, nv;
	segc_rf *kids = segc_xmalloc(segc_xmul_size(n, sizeof(segc_rf)));
	segc_poly **polys = segc_xmalloc(segc_xmul_size(n + 1,
		sizeof(segc_poly *)));
	char *direct = segc_xcalloc(n ? n : 1, 1);
	int32_t *rows = NULL;
	struct segc_term_ref *refs = NULL;
	mpq_t *prods = NULL;
	segc_poly terms;
	segc_rf acc;
	int rc = 0;

	segc_poly_init(&terms, 0);
	/* direct[i]: 0 not reached (after an error), 1 a monomial, 2 a
	 * child converted in kids[i] (only those are initialised: a long
	 * sum of monomials allocates nothing per child) */
	for (i = 0; i < n && rc == 0; i++) {
		if (!is_monomial(st, segc_args(e)[i])) {
			segc_rf_init(&kids[i]);
			direct[i] = 2;
			rc = segc_canon_to_rf(st, segc_args(e)[i], &kids[i]);
			continue;
		}
		direct[i] = 1;
		nmono++;
		monomial_atoms(st, segc_args(e)[i]);
	}
	nv = st->natoms;
	if (rc == 0 && nmono)
		rc = segc_poly_check_size(&st->lim, nmono, nv);
	if (rc == 0 && nmono) {
		/* each monomial a row of exponents and its coefficient where
		 * it is: the number of the expression, 1, or (two numbers or
		 * more) their product in prods */
		rows = segc_xmalloc(segc_xmul_size(segc_xmul_size(nmono,
			nv ? nv : 1), sizeof(int32_t)));
		refs = segc_xmalloc(segc_xmul_size(nmono, sizeof(*refs)));
		prods = segc_xmalloc(segc_xmul_size(nmono, sizeof(mpq_t)));
	}
	for (i = 0; i < n && rc == 0; i++) {
		int32_t *x;

		if (direct[i] != 1)
			continue;
		x = rows + k * nv;
		rc = monomial_term(st, segc_args(e)[i], x, nv, prods[nprod],
			&refs[k].c);
		if (refs[k].c == prods[nprod])
			nprod++;
		refs[k++].e = x;
	}
	if (rc == 0 && k)
		rc = segc_poly_sum_refs(&st->lim, &terms, refs, k, nv);
	/* over the atoms its terms use, as each child's polynomial was:
	 * some work charged later grows with the number of variables */
	segc_poly_trim(&terms);
	segc_rf_init(&acc);
	if (segc_poly_nterms(&terms))
		polys[npoly++] = &terms;
	for (i = 0; i < n && rc == 0; i++)
		if (direct[i] == 2 && segc_rf_is_poly(&kids[i]))
			polys[npoly++] = &kids[i].num;
	if (rc == 0 && npoly == 1)
		/* one polynomial, already in normal form */
		segc_poly_swap(&acc.num, polys[0]);
	else if (rc == 0)
		/* the operands are cleared next: their coefficients move */
		rc = segc_poly_sum_take(&st->lim, &acc.num, npoly, polys);
	for (i = 0; i < n && rc == 0; i++)
		if (direct[i] == 2 && !segc_rf_is_poly(&kids[i]))
			rc = segc_rf_add(st, &acc, &acc, &kids[i]);
	segc_poly_swap(&r->num, &acc.num);
	segc_poly_swap(&r->den, &acc.den);
	segc_rf_clear(&acc);
	for (i = 0; i < n; i++)
		if (direct[i] == 2)
			segc_rf_clear(&kids[i]);
	for (i = 0; i < nprod; i++)
		mpq_clear(prods[i]);
	segc_poly_clear(&terms);
	free(prods);
	free(refs);
	free(rows);
	free(direct);
	free(kids);
	free(polys);
	return rc;
}

/* Non-zero when 'f' is a number, a name, or a name to an integer power
 * that fits the limits (a factor of a monomial). */
static int monomial_factor(segc_canon *st, const segc_expr *f)
{
	const segc_expr *x;
	long m = st->lim.max_exponent > 0 ? st->lim.max_exponent : INT32_MAX / 2;

	if (f->kind == SEGC_NUM || f->kind == SEGC_SYM)
		return 1;
	if (f->kind != SEGC_POW || segc_args(f)[0]->kind != SEGC_SYM)
		return 0;
	x = segc_args(f)[1];
	/* an integer of one limb at most m / 2 in absolute value, read
	 * without a call (a long sum has a few hundred thousand of them) */
	return x->kind == SEGC_NUM &&
		mpz_size(mpq_denref(x->u.value)) == 1 &&
		mpz_getlimbn(mpq_denref(x->u.value), 0) == 1 &&
		mpz_size(mpq_numref(x->u.value)) <= 1 &&
		mpz_getlimbn(mpq_numref(x->u.value), 0) <=
		(mp_limb_t)(m / 2);
}

/* The factors of node 'e', a monomial factor (a number, a name, a name
 * to an integer power) or a MUL node whose factors are all monomial
 * factors: '*nargs' of them (NULL for 'e' itself). */
static const segc_expr *const *monomial_factors(const segc_expr *e,
	size_t *nargs)
{
	*nargs = e->kind == SEGC_MUL ? e->nargs : 1;
	return e->kind == SEGC_MUL ? (const segc_expr *const *)segc_args(e)
		: NULL;
}

/* Registers the atoms of monomial 'e' (see monomial_factors), in the
 * order of its factors; returns one more than the largest of their
 * indices (0 for a number). */
static size_t monomial_atoms(segc_canon *st, const segc_expr *e)
{
	size_t i, nargs, n = 0;
	const segc_expr *const *args = monomial_factors(e, &nargs);

	for (i = 0; i < nargs; i++) {
		const segc_expr *f = args ? args[i] : e;

		if (f->kind != SEGC_NUM) {
			size_t v = segc_canon_var(st, f->kind == SEGC_SYM ?
				(segc_expr *)f : segc_args(f)[0]);

			if (v + 1 > n)
				n = v + 1;
		}
	}
	return n;
}

/* The factors of a monomial whose variables monomial_term keeps from its
 * first pass for its second (beyond, it looks them up again). */
#define MONOMIAL_VARS 16

/* The value of 'k', the exponent of a monomial factor: an integer of one
 * limb at most max_exponent / 2 (monomial_factor), read without a call. */
static int32_t small_exponent(const segc_expr *k)
{
	int32_t v = (int32_t)mpz_getlimbn(mpq_numref(k->u.value), 0);

	return mpz_sgn(mpq_numref(k->u.value)) < 0 ? -v : v;
}

/* The term of monomial 'e' (see monomial_factors), whose atoms are
 * registered among the first 'nv': 'x' (nv entries) set to its
 * exponents, '*cp' to its coefficient: the value of its number, 1, or
 * (two numbers or more) their product in 'c', which is initialised then
 * only ('c' is to be cleared when '*cp' is 'c').  -1 when an exponent
 * passes the limits (reported). */
static int monomial_term(segc_canon *st, const segc_expr *e, int32_t *x,
	size_t nv, mpq_ptr c, mpq_srcptr *cp)
{
	size_t i, nargs, v, vars[MONOMIAL_VARS];
	const segc_expr *const *args = monomial_factors(e, &nargs);
	int rc = 0;

	memset(x, 0, (nv ? nv : 1) * sizeof(int32_t));
	*cp = st->one;
	for (i = 0; i < nargs; i++) {
		const segc_expr *f = args ? args[i] : e;

		if (f->kind == SEGC_NUM && *cp == st->one)
			*cp = f->u.value;
		else if (f->kind == SEGC_NUM) {
			/* a second number: their product */
			if (*cp != c) {
				mpq_init(c);
				mpq_set(c, *cp);
			}
			mpq_mul(c, c, f->u.value);
			*cp = c;
		} else {
			v = segc_canon_var(st, f->kind == SEGC_SYM ?
				(segc_expr *)f : segc_args(f)[0]);
			x[v] += f->kind == SEGC_SYM ? 1 :
				small_exponent(segc_args(f)[1]);
			if (i < MONOMIAL_VARS)
				vars[i] = v;
		}
	}
	/* the exponents of the variables of the factors: the others are 0
	 * (a row of a large program has thousands) */
	for (i = 0; i < nargs && rc == 0; i++) {
		const segc_expr *f = args ? args[i] : e;

		if (f->kind == SEGC_NUM)
			continue;
		v = i < MONOMIAL_VARS ? vars[i] : segc_canon_var(st,
			f->kind == SEGC_SYM ? (segc_expr *)f : segc_args(f)[0]);
		if (x[v] > INT32_MAX / 2 || x[v] < -(INT32_MAX / 2) ||
			(st->lim.max_exponent > 0 &&
			(x[v] > st->lim.max_exponent ||
			-x[v] > st->lim.max_exponent))) {
			segc_error(st->ctx, SEGC_ERR_LIMIT, NULL, 0, 0,
				"an exponent exceeds the limit %ld "
				"(max_exponent)",
				st->lim.max_exponent);
			rc = -1;
		}
	}
	return rc;
}

/* r = MUL node 'e' whose factors are all monomial factors, built as one
 * term directly. */
static int monomial_to_rf(segc_canon *st, const segc_expr *e, segc_rf *r)
{
	int32_t *ex;
	size_t n;
	mpq_t c;
	mpq_srcptr cp;
	int rc;

	n = monomial_atoms(st, e);
	ex = segc_xmalloc(segc_xmul_size(st->natoms ? st->natoms : 1,
		sizeof(int32_t)));
	rc = monomial_term(st, e, ex, st->natoms, c, &cp);
	segc_poly_zero(&r->num);
	segc_poly_trim(&r->num);
	segc_poly_extend(&r->num, n);
	if (mpq_sgn(cp))
		segc_poly_push(&r->num, ex, cp);
	if (!segc_poly_is_one(&r->den))
		segc_poly_set_si(&r->den, 1);
	free(ex);
	if (cp == c)
		mpq_clear(c);
	return rc;
}

/* r = product of the children of MUL node 'e'. */
static int mul_to_rf(segc_canon *st, const segc_expr *e, segc_rf *r)
{
	segc_rf acc, k;
	size_t i;
	int rc = 0;

	for (i = 0; i < e->nargs && monomial_factor(st, segc_args(e)[i]); i++)
		;
	if (i == e->nargs)
		return monomial_to_rf(st, e, r);
	segc_rf_init(&acc);
	segc_rf_init(&k);
	segc_rf_set_si(st, &acc, 1);
	for (i = 0; i < e->nargs && rc == 0; i++) {
		rc = segc_canon_to_rf(st, segc_args(e)[i], &k);
		if (rc == 0)
			rc = segc_rf_mul(st, &acc, &acc, &k);
	}
	segc_rf_set(r, &acc);
	segc_rf_clear(&acc);
	segc_rf_clear(&k);
	return rc;
}

/* The value p/q of exponent expression 'x', a rational constant, into
 * '*e' (p) and '*d' (q >= 1), or -1 with a diagnostic. */
static int exponent_value(segc_canon *st, const segc_expr *x, long *e,
	unsigned long *d)
{
	segc_expr *c = segc_canon_expr(st, x);
	mpq_srcptr q;
	long m = segc_ctx_limits(st->ctx)->max_exponent;
	int rc = 0;

	if (!c)
		return -1;
	q = c->kind == SEGC_NUM ? c->u.value : NULL;
	if (!q) {
		segc_canon_refuse(st, "the exponent %s is not a rational "
			"constant", c);
		rc = -1;
	} else if (!mpz_fits_slong_p(mpq_numref(q)) ||
		!mpz_fits_slong_p(mpq_denref(q)) || (m > 0 &&
		(mpz_cmpabs_ui(mpq_numref(q), (unsigned long)m) > 0 ||
		mpz_cmp_ui(mpq_denref(q), (unsigned long)m) > 0))) {
		segc_error(st->ctx, SEGC_ERR_LIMIT, NULL, 0, 0,
			"exponent exceeds the limit %ld (max_exponent)", m);
		rc = -1;
	} else {
		*e = mpz_get_si(mpq_numref(q));
		*d = mpz_get_ui(mpq_denref(q));
	}
	segc_expr_free(c);
	return rc;
}

/* r = base ^ exponent of POW node 'e'; a rational exponent makes a root
 * (canon_root.c). */
static int pow_to_rf(segc_canon *st, const segc_expr *e, segc_rf *r)
{
	unsigned long d;
	long k;

	if (exponent_value(st, segc_args(e)[1], &k, &d))
		return -1;
	if (d > 1)
		return segc_root_to_rf(st, r, segc_args(e)[0], k, d);
	if (segc_canon_to_rf(st, segc_args(e)[0], r))
		return -1;
	return segc_rf_pow(st, r, r, k);
}

/* r = mva_mem(p, a, b) unrolled: R(1) = b,
 * R(k+1) = (1 + k*R(k)/(a + R(k)))*b. */
static int mva_to_rf(segc_canon *st, const segc_expr *e, segc_rf *r)
{
	segc_rf a, b, t, u;
	segc_expr *p;
	unsigned long k, np = 0, maxp = segc_ctx_limits(st->ctx)->max_mva_p;
	int rc = 0;

	p = segc_canon_expr(st, segc_args(e)[0]);
	if (!p)
		return -1;
	if (p->kind != SEGC_NUM || mpz_cmp_ui(mpq_denref(p->u.value), 1) ||
		mpq_sgn(p->u.value) <= 0) {
		segc_canon_refuse(st, "the first argument of mva_mem, %s, "
			"is not a positive integer constant", p);
		rc = -1;
	} else if (!mpz_fits_ulong_p(mpq_numref(p->u.value)) ||
		(maxp && mpz_cmp_ui(mpq_numref(p->u.value), maxp) > 0)) {
		segc_error(st->ctx, SEGC_ERR_LIMIT, NULL, 0, 0, "the number of "
			"processors of mva_mem exceeds the limit %lu (max_mva_p)",
			maxp);
		rc = -1;
	} else {
		np = mpz_get_ui(mpq_numref(p->u.value));
	}
	segc_expr_free(p);
	if (rc)
		return rc;
	segc_rf_init(&a);
	segc_rf_init(&b);
	segc_rf_init(&t);
	segc_rf_init(&u);
	rc = segc_canon_to_rf(st, segc_args(e)[1], &a);
	if (rc == 0)
		rc = segc_canon_to_rf(st, segc_args(e)[2], &b);
	segc_rf_set(r, &b);
	for (k = 1; k < np && rc == 0; k++) {
		rc = segc_rf_add(st, &t, &a, r);
		if (rc == 0)
			rc = segc_rf_div(st, &t, r, &t);
		segc_rf_set_si(st, &u, (long)k);
		if (rc == 0)
			rc = segc_rf_mul(st, &t, &t, &u);
		segc_rf_set_si(st, &u, 1);
		if (rc == 0)
			rc = segc_rf_add(st, &t, &t, &u);
		if (rc == 0)
			rc = segc_rf_mul(st, r, &t, &b);
	}
	segc_rf_clear(&a);
	segc_rf_clear(&b);
	segc_rf_clear(&t);
	segc_rf_clear(&u);
	return rc;
}

/* Checks the number of arguments of a call of a built-in function or
 * of if (conditions are refused below, recurrences stay atoms). */
static int check_arity(segc_canon *st, const segc_expr *e)
{
	enum segc_builtin id = segc_expr_builtin(e);
	enum segc_builtin_kind k = segc_builtin_get(id)->kind;

	if (id == SEGC_BUILTIN_NONE || (k != SEGC_BUILTIN_FUNCTION &&
	    k != SEGC_BUILTIN_CONDITIONAL) || segc_builtin_arity_ok(id,
	    e->nargs))
		return 0;
	segc_error(st->ctx, SEGC_ERR_INPUT, NULL, 0, 0,
		"wrong number of arguments (%u) for %s()", e->nargs, e->u.name);
	return -1;
}

static segc_expr *recurrence_value(segc_expr *s);

/* Non-zero when 'name' is free for the counter of a recurrence of count
 * 'max' (NULL: not a number): undeclared, or declared as such a counter
 * already (an integer from 1 to 'max'). */
static int counter_name_free(segc_canon *st, const char *name,
	mpq_srcptr max)
{
	mpq_srcptr lo, hi;
	int integer;

	if (!segc_domains_get(st->dom, name, &lo, &hi, &integer))
		return 1;
	return integer && lo && !mpq_cmp(lo, st->one) && (max ? hi &&
		!mpq_cmp(hi, max) : !hi);
}

/* The recurrence maxplusv 'e' with its counter renamed "_r<k>", the first
 * such name no argument uses and no other range has, declared an integer
 * from 1 to its count (to its count when a number), as the name it had
 * was; NULL when 'e' is not such a recurrence or its counter already has
 * such a name.  So two recurrences that differ only in the name of their
 * counter have one canonical form, as two sums have.  The name is not
 * one of a sum's ("_s<k>", which no domain declares): with the domain of
 * the counter, the body of a sum of that name was simplified as if its
 * variable were at least 1, and one name has one domain, which every
 * expression simplified under it (and remembered) keeps. */
static segc_expr *canonical_counter(segc_canon *st, const segc_expr *e)
{
	const char *var = segc_expr_binder(e);
	segc_expr **args, *v, *r;
	mpq_srcptr max;
	char fresh[32];
	unsigned long k;
	size_t i;

	if (e->kind != SEGC_CALL || !var || segc_expr_is_internal_name(var) ||
	    e->nargs < 2)
		return NULL;
	max = segc_args(e)[1]->kind == SEGC_NUM ? segc_args(e)[1]->u.value
		: NULL;
	for (k = 1;; k++) {
		snprintf(fresh, sizeof fresh, "_r%lu", k);
		if (!counter_name_free(st, fresh, max))
			continue;
		for (i = 0; i < e->nargs && !segc_expr_has_sym(segc_args(e)[i],
		     fresh); i++)
			;
		if (i == e->nargs)
			break;
	}
	if (!st->own_dom) {
		st->own_dom = segc_domains_copy(st->dom);
		st->dom = st->own_dom;
	}
	segc_domains_set(st->own_dom, fresh, st->one, max, 1);
	v = segc_expr_sym(fresh);
	args = segc_xcalloc(e->nargs, sizeof(*args));
	args[0] = segc_expr_copy(v);
	for (i = 1; i < e->nargs; i++)
		args[i] = segc_expr_arg_bound(e, i) ? segc_expr_subst(
			segc_expr_copy(segc_args(e)[i]), var, v) :
			segc_expr_copy(segc_args(e)[i]);
	segc_expr_free(v);
	r = segc_expr_rebuild(SEGC_CALL, e->u.name, e->nargs, args);
	free(args);
	return r;
}

/* r = a call: built-ins simplified, others kept as atoms. */
static int call_to_rf(segc_canon *st, const segc_expr *e, segc_rf *r)
{
	segc_expr **args, *s;
	size_t i;
	int rc = 0;

	if (check_arity(st, e))
		return -1;
	if ((s = canonical_counter(st, e)) != NULL) {
		rc = segc_canon_to_rf(st, s, r);
		segc_expr_free(s);
		return rc;
	}
	if (segc_expr_is_builtin(e, SEGC_BUILTIN_IF))
		return segc_if_to_rf(st, e, r);
	if (segc_is_condition_op(e->u.name)) {
		segc_canon_refuse(st, "the comparison %s stands where a value "
			"is expected (only the first argument of if is a "
			"condition)", e);
		return -1;
	}
	if (segc_expr_is_builtin(e, SEGC_BUILTIN_MVA_MEM))
		return mva_to_rf(st, e, r);
	args = segc_xcalloc(e->nargs ? e->nargs : 1, sizeof(*args));
	for (i = 0; i < e->nargs && rc == 0; i++)
		if (!(args[i] = segc_canon_expr(st, segc_args(e)[i])))
			rc = -1;
	if (rc == 0 && segc_expr_is_builtin(e, SEGC_BUILTIN_SQRT) &&
	    e->nargs == 1 && (rc = segc_root_sqrt(st, r, args[0])) == 1) {
		segc_expr_free(args[0]);
		free(args);
		return 0;
	}
	if (rc) {
		for (i = 0; i < e->nargs; i++)
			segc_expr_free(args[i]);
		free(args);
		return -1;
	}
	s = segc_kernel_simplify(st, segc_expr_builtin(e), e->u.name,
		e->nargs, args);
	free(args);
	if (!s)
		return -1;
	if (s->kind == SEGC_CALL && segc_expr_binder(s))
		s = recurrence_value(s);
	if (s->kind == SEGC_CALL || s->kind == SEGC_SUM || s->kind == SEGC_SYM)
		segc_rf_atom(st, r, s);
	else
		rc = segc_canon_to_rf(st, s, r);
	segc_expr_free(s);
	return rc;
}

/* The recurrence maxplusv 's' (taken) as its number when its count is a
 * number and nothing but its counter is free in its costs: the exact
 * evaluation within its limit of iterations; else 's' itself. */
static segc_expr *recurrence_value(segc_expr *s)
{
	segc_expr *v = s;
	mpq_t q;

	if (s->nargs < 2 || segc_args(s)[1]->kind != SEGC_NUM)
		return s;
	mpq_init(q);
	if (!segc_expr_eval_q(q, s, 0, NULL, NULL)) {
		v = segc_expr_num(q);
		segc_expr_free(s);
	}
	mpq_clear(q);
	return v;
}

/* The conversion proper, without memoisation. */
static int convert(segc_canon *st, const segc_expr *e, segc_rf *r)
{
	switch (e->kind) {
	case SEGC_NUM:
		segc_rf_set_q(st, r, e->u.value);
		return 0;
	case SEGC_SYM:
		segc_rf_atom(st, r, (segc_expr *)e);
		return 0;
	case SEGC_ADD:
		return add_to_rf(st, e, r);
	case SEGC_MUL:
		return mul_to_rf(st, e, r);
	case SEGC_POW:
		return pow_to_rf(st, e, r);
	case SEGC_CALL:
		return call_to_rf(st, e, r);
	case SEGC_SUM:
		return segc_sum_to_rf(st, e, r);
	}
	segc_error(st->ctx, SEGC_ERR_INTERNAL, NULL, 0, 0,
		"unknown expression kind %d", (int)e->kind);
	return -1;
}

/* r = the rational function of 'e'.  A node met a second time is
 * remembered, so shared sub-expressions are converted at most twice.
 *
 * The maps are keyed by node identity, so every key must stay alive as
 * long as it is in a map: 'seen' holds a reference on each of its keys
 * (and 'memo' only has keys that are in 'seen').  Many nodes met here are
 * temporaries (canonical arguments of kernels, candidates compared by
 * max/min) freed by their makers right after; without the reference a
 * freed key would be read again when the map grows, and a new node built
 * at the same address would be taken for the old one. */
int segc_canon_to_rf(segc_canon *st, const segc_expr *e, segc_rf *r)
{
	void **slot;
	segc_rf *m;

	if (e->kind == SEGC_NUM || e->kind == SEGC_SYM)
		return convert(st, e, r);
	slot = segc_expr_map_find(&st->memo, e);
	if (slot) {
		segc_rf_set(r, *slot);
		return 0;
	}
	if (segc_expr_map_put(&st->seen, e, NULL)) {
		segc_expr_copy(e);
		return convert(st, e, r);
	}
	if (convert(st, e, r))
		return -1;
	m = segc_xmalloc(sizeof(*m));
	segc_rf_init(m);
	segc_rf_set(m, r);
	segc_expr_map_put(&st->memo, e, m);
	return 0;
}

/* ------------------------------------------------------------ driver */

/* Sets up 'st'. */
static void canon_init(segc_canon *st, segc_ctx *ctx, const segc_domains *dom)
{
	const segc_limits *l = segc_ctx_limits(ctx);

	memset(st, 0, sizeof(*st));
	st->ctx = ctx;
	st->dom = dom;
	st->lim.ctx = ctx;
	st->lim.max_terms = l->max_terms;
	st->lim.max_exponent = l->max_exponent;
	st->lim.max_coeff_bits = l->max_coeff_bits;
	segc_expr_map_init(&st->atom_index);
	segc_expr_map_init(&st->memo);
	segc_expr_map_init(&st->seen);
	mpq_init(st->zero);
	mpq_init(st->one);
	mpq_set_ui(st->one, 1, 1);
}

/* Releases what 'st' holds. */
static void canon_clear(segc_canon *st)
{
	size_t i;

	for (i = 0; i < st->natoms; i++)
		segc_expr_free(st->atoms[i]);
	free(st->atoms);
	free(st->flags);
	free(st->lowb);
	free(st->intb);
	for (i = 0; i < st->nlowq; i++)
		if (st->lowq[i]) {
			mpq_clear(st->lowq[i]);
			free(st->lowq[i]);
		}
	free(st->lowq);
	free(st->bound);
	segc_domains_free(st->own_dom);
	segc_point_cache_free(st->points);
	mpq_clear(st->zero);
	mpq_clear(st->one);
	for (i = 0; i < st->memo.cap; i++)
		if (st->memo.keys[i]) {
			segc_rf_clear(st->memo.values[i]);
			free(st->memo.values[i]);
		}
	for (i = 0; i < st->seen.cap; i++)
		if (st->seen.keys[i])
			segc_expr_free((segc_expr *)st->seen.keys[i]);
	for (i = 0; i < st->nbern; i++)
		mpq_clear(st->bernoulli[i]);
	free(st->bernoulli);
	segc_sum_primes_free(st->primes);
	segc_expr_map_clear(&st->atom_index);
	segc_expr_map_clear(&st->memo);
	segc_expr_map_clear(&st->seen);
}

/* The canonical form of 'e' (see segc.h). */
segc_expr *segc_canonical(segc_ctx *ctx, const segc_domains *dom, segc_expr *e)
{
	segc_canon st;
	segc_expr *res;

	if (!e)
		return NULL;
	canon_init(&st, ctx, dom);
	res = segc_canon_expr(&st, e);
	canon_clear(&st);
	segc_expr_free(e);
	return res;
}

/* Whether the canonical form of 'e' is refused (see refusal.h). */
int segc_canonical_refused(segc_ctx *ctx, const segc_domains *dom,
	const segc_expr *e)
{
	segc_canon st;
	segc_expr *res;
	size_t from = segc_ctx_n_diags(ctx);
	enum segc_status status = segc_ctx_status(ctx);

	canon_init(&st, ctx, dom);
	st.mode.check_only = 1;
	res = segc_canon_expr(&st, (segc_expr *)e);
	canon_clear(&st);
	if (res) {
		segc_expr_free(res);
		return 0;
	}
	if (segc_ctx_status(ctx) != SEGC_ERR_INPUT)
		return -1;
	/* Refused with the sums kept whole: confirmed by the full form,
	 * since an atom hides what its closed form proves (a sign). */
	segc_ctx_rollback(ctx, from, status);
	res = segc_canonical(ctx, dom, segc_expr_copy(e));
	segc_expr_free(res);
	return res ? 0 : -1;
}

/* The signs of 'e' the domains prove (see segc.h). */
unsigned segc_proved_signs(segc_ctx *ctx, const segc_domains *dom,
	const segc_expr *e)
{
	segc_ctx *tmp = segc_ctx_new();
	segc_canon st;
	segc_rf r;
	unsigned s = 0;

	*segc_ctx_limits(tmp) = *segc_ctx_limits(ctx);
	canon_init(&st, tmp, dom);
	segc_rf_init(&r);
	if (segc_canon_to_rf(&st, e, &r) == 0)
		s = segc_kernel_sign(&st, &r);
	segc_rf_clear(&r);
	canon_clear(&st);
	segc_ctx_free(tmp);
	return s;
}

/* segc_canonical() of an expression that stands at 'where' (see
 * segc.h). */
segc_expr *segc_canonical_at(segc_ctx *ctx, const segc_domains *dom,
	segc_expr *e, const segc_where *where)
{
	size_t from = segc_ctx_n_diags(ctx);
	segc_expr *res = segc_canonical(ctx, dom, e);

	if (!res && where)
		segc_ctx_place_diags(ctx, from, where->file, where->line,
			where->col, where->what);
	return res;
}
