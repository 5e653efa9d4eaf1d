/* canon.c - the canonical form of an expression: a rational function p/q
 * over atoms (names, and kernels with canonical arguments), built with
 * exact polynomial arithmetic, then printed back as an expression.
 *
 * The canonical rational function: gcd(p, q) = 1; the monomial content m of
 * q is moved into p as negative exponents, p*m^-1/q'; q' has integer
 * coprime coefficients and a positive first coefficient in the output
 * order; if q' = 1 the result is the Laurent polynomial p*m^-1.  Powers
 * sqrt(u)^k are reduced to u^(k div 2) * sqrt(u)^(k mod 2).
 *
 * The output order of terms: atoms sorted by segc_expr_cmp, monomials by
 * decreasing exponent of the first atom, then of the second, and so on
 * (lexicographic), the number term last.  A term is MUL(coefficient,
 * atom^e, ...) with the atoms of positive exponents in their order, then
 * those of negative exponents in their order; a fraction is
 * MUL(numerator, POW(q', -1)). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "algebra/canon_private.h"
#include "base/util.h"

/* ------------------------------------------------ rational functions */

/* r = 0. */
void segc_rf_init(segc_rf *r)
{
	segc_poly_init(&r->num, 0);
	segc_poly_init(&r->den, 0);
	segc_poly_set_si(&r->den, 1);
}

/* Releases 'r'. */
void segc_rf_clear(segc_rf *r)
{
	segc_poly_clear(&r->num);
	segc_poly_clear(&r->den);
}

/* r = a. */
void segc_rf_set(segc_rf *r, const segc_rf *a)
{
	segc_poly_set(&r->num, &a->num);
	segc_poly_set(&r->den, &a->den);
}

/* r = the number c. */
void segc_rf_set_q(segc_canon *st, segc_rf *r, mpq_srcptr c)
{
	(void)st;
	segc_poly_set_q(&r->num, c);
	segc_poly_set_si(&r->den, 1);
}

/* r = the integer c. */
void segc_rf_set_si(segc_canon *st, segc_rf *r, long c)
{
	(void)st;
	segc_poly_set_si(&r->num, c);
	segc_poly_set_si(&r->den, 1);
}

/* Non-zero when r is a (Laurent) polynomial. */
int segc_rf_is_poly(const segc_rf *r)
{
	return segc_poly_is_one(&r->den);
}

/* Records an input error quoting 'e' (see canon_private.h). */
void segc_canon_refuse(segc_canon *st, const char *fmt, const segc_expr *e)
{
	char *t = segc_expr_quote(e);

	segc_error(st->ctx, SEGC_ERR_INPUT, NULL, 0, 0, fmt, t ? t : "?");
	free(t);
}

/* Records a division by zero. */
static int division_by_zero(segc_canon *st)
{
	segc_error(st->ctx, SEGC_ERR_INPUT, NULL, 0, 0, "division by zero");
	return -1;
}

/* Restores the invariant of segc_rf: moves a monomial denominator, and
 * the monomial content of any denominator, into the numerator. */
static int rf_absorb(segc_canon *st, segc_rf *r)
{
	size_t n, v;
	int32_t *m;
	int rc = 0, any = 0;

	if (segc_poly_is_zero(&r->den))
		return division_by_zero(st);
	if (segc_poly_is_one(&r->den))
		return 0;
	segc_poly_extend(&r->num, r->den.nvars);
	segc_poly_extend(&r->den, r->num.nvars);
	n = r->den.nvars;
	m = segc_xmalloc((n ? n : 1) * sizeof(int32_t));
	segc_poly_min_exps(&r->den, m);
	for (v = 0; v < n; v++) {
		m[v] = -m[v];
		any |= m[v] != 0;
	}
	if (any) {
		rc = segc_poly_shift(&st->lim, &r->num, m);
		if (rc == 0)
			rc = segc_poly_shift(&st->lim, &r->den, m);
	}
	free(m);
	if (rc == 0 && r->den.len == 1) {
		mpq_t c;

		mpq_init(c);
		mpq_inv(c, r->den.coefs[0]);
		segc_poly_scale(&r->num, c);
		mpq_clear(c);
		segc_poly_set_si(&r->den, 1);
	}
	return rc;
}

/* r = a + sign*b. */
static int rf_add_signed(segc_canon *st, segc_rf *r, segc_rf *a, segc_rf *b,
	int sign)
{
	segc_poly g, ca, cb, t;
	int rc = 0;

	if (segc_poly_equal(&a->den, &b->den)) {
		rc = sign > 0 ? segc_poly_add(&st->lim, &r->num, &a->num, &b->num) :
			segc_poly_sub(&st->lim, &r->num, &a->num, &b->num);
		segc_poly_set(&r->den, &a->den);
		return rc;
	}
	segc_poly_init(&g, 0);
	segc_poly_init(&ca, 0);
	segc_poly_init(&cb, 0);
	segc_poly_init(&t, 0);
	rc = segc_poly_gcd(&st->lim, &g, &a->den, &b->den);
	if (rc == 0) {
		int d = segc_poly_divexact(&st->lim, &ca, &a->den, &g);

		if (d == 1)
			d = segc_poly_divexact(&st->lim, &cb, &b->den, &g);
		if (d == 0)
			segc_error(st->ctx, SEGC_ERR_INTERNAL, NULL, 0, 0,
				"a gcd does not divide a denominator");
		if (d != 1)
			rc = -1;    /* d < 0: a limit, already reported */
	}
	if (rc == 0)
		rc = segc_poly_mul(&st->lim, &t, &a->num, &cb);
	if (rc == 0)
		rc = segc_poly_mul(&st->lim, &ca, &b->num, &ca);
	if (rc == 0)
		rc = sign > 0 ? segc_poly_add(&st->lim, &r->num, &t, &ca) :
			segc_poly_sub(&st->lim, &r->num, &t, &ca);
	if (rc == 0)
		rc = segc_poly_mul(&st->lim, &r->den, &a->den, &cb);
	segc_poly_clear(&g);
	segc_poly_clear(&ca);
	segc_poly_clear(&cb);
	segc_poly_clear(&t);
	return rc == 0 ? rf_absorb(st, r) : -1;
}

/* r = a + b. */
int segc_rf_add(segc_canon *st, segc_rf *r, segc_rf *a, segc_rf *b)
{
	return rf_add_signed(st, r, a, b, 1);
}

/* r = a - b. */
int segc_rf_sub(segc_canon *st, segc_rf *r, segc_rf *a, segc_rf *b)
{
	return rf_add_signed(st, r, a, b, -1);
}

/* r = a * b. */
int segc_rf_mul(segc_canon *st, segc_rf *r, segc_rf *a, segc_rf *b)
{
	int both = segc_rf_is_poly(a) && segc_rf_is_poly(b);

	if (segc_poly_mul(&st->lim, &r->num, &a->num, &b->num))
		return -1;
	if (both) {
		if (!segc_poly_is_one(&r->den))
			segc_poly_set_si(&r->den, 1);
		return 0;
	}
	if (segc_poly_mul(&st->lim, &r->den, &a->den, &b->den))
		return -1;
	return rf_absorb(st, r);
}

/* r = a / b. */
int segc_rf_div(segc_canon *st, segc_rf *r, segc_rf *a, segc_rf *b)
{
	segc_poly n, d;
	int rc;

	if (segc_poly_is_zero(&b->num))
		return division_by_zero(st);
	segc_poly_init(&n, 0);
	segc_poly_init(&d, 0);
	rc = segc_poly_mul(&st->lim, &n, &a->num, &b->den);
	if (rc == 0)
		rc = segc_poly_mul(&st->lim, &d, &a->den, &b->num);
	segc_poly_swap(&r->num, &n);
	segc_poly_swap(&r->den, &d);
	segc_poly_clear(&n);
	segc_poly_clear(&d);
	return rc == 0 ? rf_absorb(st, r) : -1;
}

/* r = a^e. */
int segc_rf_pow(segc_canon *st, segc_rf *r, segc_rf *a, long e)
{
	unsigned long k = e < 0 ? 0UL - (unsigned long)e : (unsigned long)e;
	segc_rf t;
	int rc;

	if (e < 0 && segc_poly_is_zero(&a->num))
		return division_by_zero(st);
	segc_rf_init(&t);
	rc = segc_poly_pow(&st->lim, &t.num, &a->num, k);
	if (rc == 0)
		rc = segc_poly_pow(&st->lim, &t.den, &a->den, k);
	if (e < 0)
		segc_poly_swap(&t.num, &t.den);
	if (rc == 0)
		rc = rf_absorb(st, &t);
	segc_rf_set(r, &t);
	segc_rf_clear(&t);
	return rc;
}

/* r = the polynomial 'p' with x_v replaced by 'x' (Horner's rule); 1
 * when 'p' has a negative power of x_v. */
static int poly_at(segc_canon *st, segc_rf *r, const segc_poly *p, size_t v,
	segc_rf *x)
{
	int32_t k;
	segc_rf acc, c;
	int rc = 0;

	if (segc_poly_min_degree(p, v) < 0)
		return 1;
	segc_rf_init(&acc);
	segc_rf_init(&c);
	for (k = segc_poly_degree(p, v); k >= 0 && rc == 0; k--) {
		rc = segc_rf_mul(st, &acc, &acc, x);
		segc_poly_coeff_var(&c.num, p, v, k);
		segc_poly_set_si(&c.den, 1);
		if (rc == 0)
			rc = segc_rf_add(st, &acc, &acc, &c);
	}
	segc_rf_set(r, &acc);
	segc_rf_clear(&acc);
	segc_rf_clear(&c);
	return rc;
}

/* r = 'a' with x_v replaced by 'x' (see canon_private.h). */
int segc_rf_subst_var(segc_canon *st, segc_rf *r, const segc_rf *a,
	size_t v, segc_rf *x)
{
	segc_rf n, d;
	int rc;

	segc_rf_init(&n);
	segc_rf_init(&d);
	rc = poly_at(st, &n, &a->num, v, x);
	if (rc == 0)
		rc = poly_at(st, &d, &a->den, v, x);
	if (rc == 0)
		rc = segc_rf_div(st, r, &n, &d);
	segc_rf_clear(&n);
	segc_rf_clear(&d);
	return rc;
}

/* --------------------------------------------------------------- atoms */

/* The SEGC_ATOM_* flags of 'atom'. */
static unsigned char atom_flags(const segc_canon *st, const segc_expr *atom)
{
	mpq_srcptr lo = NULL, hi = NULL;
	int integer;

	if (atom->kind == SEGC_SYM) {
		segc_domains_get(st->dom, atom->u.name, &lo, &hi, &integer);
		if (lo && !hi && mpq_sgn(lo) == 0)
			return SEGC_ATOM_NONNEG;
		return lo || hi ? 0 : SEGC_ATOM_UNBOUNDED;
	}
	if (atom->kind != SEGC_CALL)
		return SEGC_ATOM_UNBOUNDED;
	if (segc_builtin_get(segc_expr_builtin(atom))->eval ==
	    SEGC_EVAL_EXTREMUM)
		return SEGC_ATOM_EXTREMUM | SEGC_ATOM_UNBOUNDED;
	return segc_expr_is_builtin(atom, SEGC_BUILTIN_SQRT) ?
		SEGC_ATOM_NONNEG : SEGC_ATOM_UNBOUNDED;
}

/* The variable of 'atom'; the table takes a reference if it is new. */
size_t segc_canon_var(segc_canon *st, segc_expr *atom)
{
	void **slot = segc_expr_map_find(&st->atom_index, atom);

	if (slot)
		return (size_t)(*slot) - 1;
	if (st->natoms == st->cap) {
		st->cap = st->cap ? 2 * st->cap : 16;
		st->atoms = segc_xrealloc(st->atoms,
			segc_xmul_size(st->cap, sizeof(*st->atoms)));
		st->flags = segc_xrealloc(st->flags, st->cap);
		st->lowb = segc_xrealloc(st->lowb, st->cap);
	}
	st->lowb[st->natoms] = 0;
	st->atoms[st->natoms] = segc_expr_copy(atom);
	st->flags[st->natoms] = atom_flags(st, atom);
	if (st->flags[st->natoms] & SEGC_ATOM_EXTREMUM)
		st->has_extrema = 1;
	segc_expr_map_put(&st->atom_index, atom,
		(void *)(st->natoms + 1));
	return st->natoms++;
}

/* r = the atom itself. */
static void rf_atom(segc_canon *st, segc_rf *r, segc_expr *atom)
{
	size_t v = segc_canon_var(st, atom);

	segc_poly_set_var(&r->num, v, 1);
	segc_poly_set_si(&r->den, 1);
}

/* --------------------------------------------------------- conversion */

/* r = sum of the children of ADD node 'e'. */
static int add_to_rf(segc_canon *st, const segc_expr *e, segc_rf *r)
{
	size_t i, n = e->nargs, npoly = 0;
	segc_rf *kids = segc_xmalloc(segc_xmul_size(n, sizeof(segc_rf)));
	segc_poly **polys = segc_xmalloc(segc_xmul_size(n, sizeof(segc_poly *)));
	segc_rf acc;
	int rc = 0;

	for (i = 0; i < n; i++)
		segc_rf_init(&kids[i]);
	for (i = 0; i < n && rc == 0; i++)
		rc = segc_canon_to_rf(st, e->args[i], &kids[i]);
	segc_rf_init(&acc);
	for (i = 0; i < n && rc == 0; i++)
		if (segc_rf_is_poly(&kids[i]))
			polys[npoly++] = &kids[i].num;
	if (rc == 0)
		rc = segc_poly_sum(&st->lim, &acc.num, npoly, polys);
	for (i = 0; i < n && rc == 0; i++)
		if (!segc_rf_is_poly(&kids[i]))
			rc = segc_rf_add(st, &acc, &acc, &kids[i]);
	segc_rf_set(r, &acc);
	segc_rf_clear(&acc);
	for (i = 0; i < n; i++)
		segc_rf_clear(&kids[i]);
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
	if (f->kind != SEGC_POW || f->args[0]->kind != SEGC_SYM)
		return 0;
	x = f->args[1];
	return x->kind == SEGC_NUM && !mpz_cmp_ui(mpq_denref(x->u.value), 1) &&
		mpz_cmpabs_ui(mpq_numref(x->u.value), (unsigned long)m / 2) <= 0;
}

/* r = MUL node 'e' whose factors are all monomial factors, built as one
 * term directly. */
static int monomial_to_rf(segc_canon *st, const segc_expr *e, segc_rf *r)
{
	size_t i, n;
	int32_t *ex;
	mpq_t c;
	int rc = 0;

	n = 0;
	for (i = 0; i < e->nargs; i++)
		if (e->args[i]->kind != SEGC_NUM) {
			size_t v = segc_canon_var(st, e->args[i]->kind == SEGC_SYM ?
				e->args[i] : e->args[i]->args[0]);

			if (v + 1 > n)
				n = v + 1;
		}
	ex = segc_xcalloc(n ? n : 1, sizeof(int32_t));
	mpq_init(c);
	mpq_set_ui(c, 1, 1);
	for (i = 0; i < e->nargs && rc == 0; i++) {
		const segc_expr *f = e->args[i];

		if (f->kind == SEGC_NUM)
			mpq_mul(c, c, f->u.value);
		else if (f->kind == SEGC_SYM)
			ex[segc_canon_var(st, (segc_expr *)f)] += 1;
		else
			ex[segc_canon_var(st, f->args[0])] +=
				(int32_t)mpz_get_si(mpq_numref(f->args[1]->u.value));
	}
	segc_poly_zero(&r->num);
	segc_poly_trim(&r->num);
	segc_poly_extend(&r->num, n);
	if (mpq_sgn(c))
		segc_poly_push(&r->num, ex, c);
	if (!segc_poly_is_one(&r->den))
		segc_poly_set_si(&r->den, 1);
	for (i = 0; i < n && rc == 0; i++)
		if (ex[i] > INT32_MAX / 2 || ex[i] < -(INT32_MAX / 2) ||
			(st->lim.max_exponent > 0 &&
			(ex[i] > st->lim.max_exponent ||
			-ex[i] > st->lim.max_exponent))) {
			segc_error(st->ctx, SEGC_ERR_LIMIT, NULL, 0, 0,
				"an exponent exceeds the limit %ld",
				st->lim.max_exponent);
			rc = -1;
		}
	free(ex);
	mpq_clear(c);
	return rc;
}

/* r = product of the children of MUL node 'e'. */
static int mul_to_rf(segc_canon *st, const segc_expr *e, segc_rf *r)
{
	segc_rf acc, k;
	size_t i;
	int rc = 0;

	for (i = 0; i < e->nargs && monomial_factor(st, e->args[i]); i++)
		;
	if (i == e->nargs)
		return monomial_to_rf(st, e, r);
	segc_rf_init(&acc);
	segc_rf_init(&k);
	segc_rf_set_si(st, &acc, 1);
	for (i = 0; i < e->nargs && rc == 0; i++) {
		rc = segc_canon_to_rf(st, e->args[i], &k);
		if (rc == 0)
			rc = segc_rf_mul(st, &acc, &acc, &k);
	}
	segc_rf_set(r, &acc);
	segc_rf_clear(&acc);
	segc_rf_clear(&k);
	return rc;
}

/* The integer value of exponent expression 'x' into '*e', or -1 with a
 * diagnostic. */
static int exponent_value(segc_canon *st, const segc_expr *x, long *e)
{
	segc_expr *c = segc_canon_expr(st, x);
	mpq_srcptr q;
	long m = segc_ctx_limits(st->ctx)->max_exponent;
	int rc = 0;

	if (!c)
		return -1;
	q = c->kind == SEGC_NUM ? c->u.value : NULL;
	if (!q || mpz_cmp_ui(mpq_denref(q), 1)) {
		segc_canon_refuse(st, "the exponent %s is not an integer "
			"constant", c);
		rc = -1;
	} else if (!mpz_fits_slong_p(mpq_numref(q)) || (m > 0 &&
		(mpz_cmpabs_ui(mpq_numref(q), (unsigned long)m) > 0))) {
		segc_error(st->ctx, SEGC_ERR_LIMIT, NULL, 0, 0,
			"exponent exceeds the limit %ld", m);
		rc = -1;
	} else {
		*e = mpz_get_si(mpq_numref(q));
	}
	segc_expr_free(c);
	return rc;
}

/* r = base ^ exponent of POW node 'e'. */
static int pow_to_rf(segc_canon *st, const segc_expr *e, segc_rf *r)
{
	long k;

	if (exponent_value(st, e->args[1], &k))
		return -1;
	if (segc_canon_to_rf(st, e->args[0], r))
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

	p = segc_canon_expr(st, e->args[0]);
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
			"processors of mva_mem exceeds the limit %lu", maxp);
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
	rc = segc_canon_to_rf(st, e->args[1], &a);
	if (rc == 0)
		rc = segc_canon_to_rf(st, e->args[2], &b);
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

/* r = a call: built-ins simplified, others kept as atoms. */
static int call_to_rf(segc_canon *st, const segc_expr *e, segc_rf *r)
{
	segc_expr **args, *s;
	size_t i;
	int rc = 0;

	if (check_arity(st, e))
		return -1;
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
		if (!(args[i] = segc_canon_expr(st, e->args[i])))
			rc = -1;
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
	if (s->kind == SEGC_CALL || s->kind == SEGC_SUM || s->kind == SEGC_SYM)
		rf_atom(st, r, s);
	else
		rc = segc_canon_to_rf(st, s, r);
	segc_expr_free(s);
	return rc;
}

/* The conversion proper, without memoisation. */
static int convert(segc_canon *st, const segc_expr *e, segc_rf *r)
{
	switch (e->kind) {
	case SEGC_NUM:
		segc_rf_set_q(st, r, e->u.value);
		return 0;
	case SEGC_SYM:
		rf_atom(st, r, (segc_expr *)e);
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
		segc_expr_copy((segc_expr *)e);
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

/* ----------------------------------------------------- normalisation */

/* Index of the sqrt atom with an exponent outside {0, 1} in 'p', or
 * (size_t)-1. */
static size_t find_sqrt_power(const segc_canon *st, const segc_poly *p)
{
	size_t i, v;

	for (v = 0; v < p->nvars; v++) {
		const segc_expr *a = st->atoms[v];

		if (!segc_expr_is_builtin(a, SEGC_BUILTIN_SQRT))
			continue;
		for (i = 0; i < p->len; i++) {
			int32_t e = segc_poly_exp(p, i, v);

			if (e != 0 && e != 1)
				return v;
		}
	}
	return (size_t)-1;
}

/* r = p with sqrt(u)^k (variable v) replaced by
 * u^(k div 2) * sqrt(u)^(k mod 2). */
static int reduce_sqrt_poly(segc_canon *st, segc_rf *r, const segc_poly *p,
	size_t v)
{
	int32_t d, lo = segc_poly_min_degree(p, v), hi = segc_poly_degree(p, v);
	segc_rf u, acc, t, c;
	int rc;

	segc_rf_init(&u);
	segc_rf_init(&acc);
	segc_rf_init(&t);
	segc_rf_init(&c);
	rc = segc_canon_to_rf(st, st->atoms[v]->args[0], &u);
	for (d = lo; d <= hi && rc == 0; d++) {
		int32_t q = d >= 0 ? d / 2 : -((1 - d) / 2);

		segc_poly_coeff_var(&c.num, p, v, d);
		if (segc_poly_is_zero(&c.num))
			continue;
		segc_poly_set_si(&c.den, 1);
		if (d - 2 * q) {
			segc_poly_set_var(&t.num, v, 1);
			segc_poly_set_si(&t.den, 1);
			rc = segc_rf_mul(st, &c, &c, &t);
		}
		if (rc == 0)
			rc = segc_rf_pow(st, &t, &u, q);
		if (rc == 0)
			rc = segc_rf_mul(st, &c, &c, &t);
		if (rc == 0)
			rc = segc_rf_add(st, &acc, &acc, &c);
	}
	segc_rf_set(r, &acc);
	segc_rf_clear(&u);
	segc_rf_clear(&acc);
	segc_rf_clear(&t);
	segc_rf_clear(&c);
	return rc;
}

/* Non-zero when variable 'v' is a sqrt atom whose argument the domains
 * prove >= 0. */
static int sqrt_of_nonneg(segc_canon *st, size_t v)
{
	const segc_expr *a = st->atoms[v];
	unsigned s = 0;
	segc_rf u;

	if (!segc_expr_is_builtin(a, SEGC_BUILTIN_SQRT))
		return 0;
	segc_rf_init(&u);
	if (segc_canon_to_rf(st, st->atoms[v]->args[0], &u) == 0)
		s = segc_kernel_sign(st, &u);
	segc_rf_clear(&u);
	return (s & SEGC_SIGN_NONNEG) != 0;
}

/* Two sqrt atoms v < w of arguments proven >= 0 that stand together in a
 * term of 'p' ('*pv', '*pw'); 0 when there are none. */
static int find_sqrt_pair(segc_canon *st, const segc_poly *p, size_t *pv,
	size_t *pw)
{
	size_t i, v, w;

	for (i = 0; i < p->len; i++)
		for (v = 0; v < p->nvars; v++) {
			if (segc_poly_exp(p, i, v) != 1)
				continue;
			for (w = v + 1; w < p->nvars; w++)
				if (segc_poly_exp(p, i, w) == 1 &&
				    sqrt_of_nonneg(st, v) &&
				    sqrt_of_nonneg(st, w)) {
					*pv = v;
					*pw = w;
					return 1;
				}
		}
	return 0;
}

/* r = p with sqrt(a)*sqrt(b) (variables v, w, a and b proven >= 0)
 * replaced by sqrt(a*b) in every term that holds both. */
static int merge_sqrt_pair(segc_canon *st, segc_rf *r, const segc_poly *p,
	size_t v, size_t w)
{
	segc_expr *prod = segc_expr_mul2(
		segc_expr_copy(st->atoms[v]->args[0]),
		segc_expr_copy(st->atoms[w]->args[0]));
	segc_expr *root = segc_expr_call1(SEGC_BUILTIN_SQRT, prod);
	segc_rf c, t, u;
	segc_poly c1;
	int rc;

	segc_poly_init(&c1, 0);
	segc_rf_init(&c);
	segc_rf_init(&t);
	segc_rf_init(&u);
	segc_poly_coeff_var(&c1, p, v, 1);
	segc_poly_coeff_var(&c.num, &c1, w, 1);
	segc_poly_set(&r->num, p);
	segc_poly_set_si(&r->den, 1);
	segc_poly_set_var(&t.num, v, 1);
	segc_poly_set_var(&u.num, w, 1);
	rc = segc_rf_mul(st, &t, &t, &u);
	if (rc == 0)
		rc = segc_rf_mul(st, &t, &t, &c);
	if (rc == 0)
		rc = segc_rf_sub(st, r, r, &t);
	if (rc == 0)
		rc = segc_canon_to_rf(st, root, &u);
	if (rc == 0)
		rc = segc_rf_mul(st, &t, &c, &u);
	if (rc == 0)
		rc = segc_rf_add(st, r, r, &t);
	segc_expr_free(root);
	segc_poly_clear(&c1);
	segc_rf_clear(&c);
	segc_rf_clear(&t);
	segc_rf_clear(&u);
	return rc;
}

/* n = the sqrt powers of 'p' reduced (sqrt variable 'vp' if not -1) or,
 * when there are none, a pair of sqrt atoms merged; '*changed' says
 * whether anything was. */
static int reduce_sqrt_step(segc_canon *st, segc_rf *n, const segc_poly *p,
	size_t vp, int *changed)
{
	size_t v, w;

	if (vp != (size_t)-1) {
		*changed = 1;
		return reduce_sqrt_poly(st, n, p, vp);
	}
	if (find_sqrt_pair(st, p, &v, &w)) {
		*changed = 1;
		return merge_sqrt_pair(st, n, p, v, w);
	}
	segc_poly_set(&n->num, p);
	return 0;
}

/* Reduces every power of a sqrt atom in 'r' to exponent 0 or 1, and
 * merges sqrt(a)*sqrt(b) into sqrt(a*b) where a, b >= 0 are proven. */
static int reduce_sqrt(segc_canon *st, segc_rf *r)
{
	int round, rc = 0;

	for (round = 0; round < 1000 && rc == 0; round++) {
		size_t vn = find_sqrt_power(st, &r->num);
		size_t vd = find_sqrt_power(st, &r->den);
		int changed = 0;
		segc_rf n, d;

		segc_rf_init(&n);
		segc_rf_init(&d);
		rc = reduce_sqrt_step(st, &n, &r->num, vn, &changed);
		if (rc == 0)
			rc = reduce_sqrt_step(st, &d, &r->den, vd, &changed);
		if (rc == 0 && !changed) {
			segc_rf_clear(&n);
			segc_rf_clear(&d);
			return 0;
		}
		if (rc == 0)
			rc = segc_rf_div(st, r, &n, &d);
		segc_rf_clear(&n);
		segc_rf_clear(&d);
	}
	if (rc == 0)
		segc_error(st->ctx, SEGC_ERR_INTERNAL, NULL, 0, 0,
			"reduction of square roots does not terminate");
	return -1;
}

/* Sorts the variables v[0 .. m-1] by segc_expr_cmp of their atoms (a
 * merge sort: m log m comparisons). */
static void sort_vars(const segc_canon *st, size_t *v, size_t m)
{
	size_t *tmp = segc_xmalloc((m ? m : 1) * sizeof(size_t));
	size_t width, i;

	for (width = 1; width < m; width *= 2) {
		for (i = 0; i < m; i += 2 * width) {
			size_t mid = i + width < m ? i + width : m;
			size_t hi = i + 2 * width < m ? i + 2 * width : m;
			size_t a = i, b = mid, t = i;

			while (a < mid && b < hi)
				tmp[t++] = segc_expr_cmp(st->atoms[v[a]],
					st->atoms[v[b]]) <= 0 ? v[a++] : v[b++];
			while (a < mid)
				tmp[t++] = v[a++];
			while (b < hi)
				tmp[t++] = v[b++];
		}
		memcpy(v, tmp, m * sizeof(size_t));
	}
	free(tmp);
}

/* The variables that occur in 'p', in the order of their atoms by
 * segc_expr_cmp ('*k' set to their number): byrank[r] is the variable of
 * rank r.  Only the variables present are sorted, so that the cost does
 * not grow with the size of the atom table. */
static size_t *used_by_rank(const segc_canon *st, const segc_poly *p,
	size_t *k)
{
	size_t n = p->nvars, i, v, m = 0;
	char *used = segc_xcalloc(n ? n : 1, 1);
	size_t *byrank = segc_xmalloc((n ? n : 1) * sizeof(size_t));

	for (i = 0; i < p->len; i++) {
		const int32_t *e = p->exps + i * n;

		for (v = 0; v < n; v++)
			used[v] |= e[v] != 0;
	}
	for (v = 0; v < n; v++)
		if (used[v])
			byrank[m++] = v;
	free(used);
	sort_vars(st, byrank, m);
	*k = m;
	return byrank;
}

/* Order of the output: >0 when term i of p comes after term j ('byrank'
 * lists the k variables present). */
static int out_cmp(const segc_poly *p, const size_t *byrank, size_t k,
	size_t i, size_t j)
{
	const int32_t *a = p->exps + i * p->nvars, *b = p->exps + j * p->nvars;
	size_t r;
	int za = 1, zb = 1;

	for (r = 0; r < k; r++) {
		za &= a[byrank[r]] == 0;
		zb &= b[byrank[r]] == 0;
	}
	if (za != zb)
		return za ? 1 : -1;
	for (r = 0; r < k; r++) {
		size_t v = byrank[r];

		if (a[v] != b[v])
			return a[v] > b[v] ? -1 : 1;
	}
	return 0;
}

/* The term indices of 'p' in output order ('byrank'[r] = variable of
 * rank r, k of them). */
static size_t *output_order(const segc_poly *p, const size_t *byrank,
	size_t k)
{
	size_t *ix = segc_xmalloc((p->len ? p->len : 1) * sizeof(size_t));
	size_t *tmp = segc_xmalloc((p->len ? p->len : 1) * sizeof(size_t));
	size_t width, i, n = p->len;

	for (i = 0; i < n; i++)
		ix[i] = i;
	for (width = 1; width < n; width *= 2) {
		for (i = 0; i < n; i += 2 * width) {
			size_t mid = i + width < n ? i + width : n;
			size_t hi = i + 2 * width < n ? i + 2 * width : n;
			size_t a = i, b = mid, t = i;

			while (a < mid && b < hi)
				tmp[t++] = out_cmp(p, byrank, k, ix[a], ix[b]) <= 0 ?
					ix[a++] : ix[b++];
			while (a < mid)
				tmp[t++] = ix[a++];
			while (b < hi)
				tmp[t++] = ix[b++];
		}
		memcpy(ix, tmp, n * sizeof(size_t));
	}
	free(tmp);
	return ix;
}

/* Makes the denominator primitive with a positive first coefficient in
 * the output order, dividing the numerator by the same number. */
static void normalise_den_sign(segc_canon *st, segc_rf *r)
{
	size_t k, *byrank = used_by_rank(st, &r->den, &k), *ix;
	mpq_t scale;

	mpq_init(scale);
	segc_poly_primitive(&r->den, scale);
	ix = output_order(&r->den, byrank, k);
	if (mpq_sgn(r->den.coefs[ix[0]]) < 0) {
		segc_poly_neg(&r->den);
		mpq_neg(scale, scale);
	}
	mpq_inv(scale, scale);
	segc_poly_scale(&r->num, scale);
	mpq_clear(scale);
	free(ix);
	free(byrank);
}

/* Brings 'r' to the canonical rational function. */
static int rf_normalise(segc_canon *st, segc_rf *r)
{
	segc_poly g;
	int rc = reduce_sqrt(st, r);

	if (rc == 0)
		rc = rf_absorb(st, r);
	if (rc == 0)
		rc = segc_kernel_combine(st, r);
	if (rc || segc_rf_is_poly(r))
		return rc;
	segc_poly_init(&g, 0);
	rc = segc_poly_gcd(&st->lim, &g, &r->num, &r->den);
	if (rc == 0 && !segc_poly_is_const(&g) && !segc_poly_is_zero(&g)) {
		int d = segc_poly_divexact(&st->lim, &r->num, &r->num, &g);

		if (d == 1)
			d = segc_poly_divexact(&st->lim, &r->den, &r->den, &g);
		if (d == 0)
			segc_error(st->ctx, SEGC_ERR_INTERNAL, NULL, 0, 0,
				"a gcd does not divide its operands");
		if (d != 1)
			rc = -1;    /* d < 0: a limit, already reported */
	}
	segc_poly_clear(&g);
	if (rc == 0)
		rc = rf_absorb(st, r);
	if (rc == 0 && !segc_rf_is_poly(r))
		normalise_den_sign(st, r);
	return rc;
}

/* ------------------------------------------------------------- output */

/* The expression of polynomial 'p' in output order. */
static segc_expr *poly_to_expr(segc_canon *st, const segc_poly *p)
{
	size_t n = p->nvars, m, *byrank = used_by_rank(st, p, &m);
	size_t *ix = output_order(p, byrank, m);
	segc_expr **terms = segc_xmalloc((p->len ? p->len : 1) * sizeof(*terms));
	segc_expr **f = segc_xmalloc((m + 1) * sizeof(*f));
	segc_expr *res;
	size_t i, r, k;

	for (i = 0; i < p->len; i++) {
		const int32_t *e = p->exps + ix[i] * n;

		k = 0;
		f[k++] = segc_expr_num(p->coefs[ix[i]]);
		for (r = 0; r < 2 * m; r++) {
			size_t v = byrank[r % m];

			if (r < m ? e[v] > 0 : e[v] < 0)
				f[k++] = segc_expr_powi(segc_expr_copy(st->atoms[v]),
					e[v]);
		}
		terms[i] = segc_expr_mul(k, f);
	}
	res = p->len ? segc_expr_add(p->len, terms) : segc_expr_int(0);
	free(terms);
	free(f);
	free(ix);
	free(byrank);
	return res;
}

/* The canonical expression of 'r'. */
segc_expr *segc_canon_from_rf(segc_canon *st, segc_rf *r)
{
	segc_expr *num;

	if (rf_normalise(st, r))
		return NULL;
	num = poly_to_expr(st, &r->num);
	if (segc_rf_is_poly(r))
		return num;
	return segc_expr_mul2(num,
		segc_expr_powi(poly_to_expr(st, &r->den), -1));
}

/* The canonical expression of 'e' inside the canonicalisation 'st'. */
segc_expr *segc_canon_expr(segc_canon *st, const segc_expr *e)
{
	segc_expr *res = NULL;
	segc_rf r;

	segc_rf_init(&r);
	if (segc_canon_to_rf(st, e, &r) == 0)
		res = segc_canon_from_rf(st, &r);
	segc_rf_clear(&r);
	return res;
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
	free(st->bound);
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
