/* canon_rf.c - the arithmetic of the rational functions of the canonical
 * form (segc_rf: num/den over the atoms, with its invariant restored after
 * every operation) and the table of atoms that their variables stand
 * for. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "algebra/canon/canon_private.h"
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
int segc_rf_absorb(segc_canon *st, segc_rf *r)
{
	size_t n, v;
	int32_t *m;
	int rc = 0, any = 0;

	if (segc_poly_is_zero(&r->den))
		return division_by_zero(st);
	if (segc_poly_is_one(&r->den))
		return 0;
	segc_poly_extend(&r->num, segc_poly_nvars(&r->den));
	segc_poly_extend(&r->den, segc_poly_nvars(&r->num));
	n = segc_poly_nvars(&r->den);
	m = segc_xmalloc((n ? n : 1) * sizeof(int32_t));
	segc_poly_min_exps(&r->den, m);
	for (v = 0; v < n; v++) {
		m[v] = -m[v];
		any |= m[v] != 0;
	}
	if (any) {
		rc = segc_poly_shift(&st->lim, &r->num, m, n);
		if (rc == 0)
			rc = segc_poly_shift(&st->lim, &r->den, m, n);
	}
	free(m);
	if (rc == 0 && segc_poly_nterms(&r->den) == 1) {
		mpq_t c;

		mpq_init(c);
		mpq_inv(c, segc_poly_coeff(&r->den, 0));
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
	return rc == 0 ? segc_rf_absorb(st, r) : -1;
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
	return segc_rf_absorb(st, r);
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
	return rc == 0 ? segc_rf_absorb(st, r) : -1;
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
		rc = segc_rf_absorb(st, &t);
	/* moved, not copied: 'r' may be 'a', which is no longer read */
	segc_poly_swap(&r->num, &t.num);
	segc_poly_swap(&r->den, &t.den);
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

	/* a polynomial x into a denominator free of x_v: the numerator's
	 * terms pushed with the powers of x, the denominator kept (the
	 * same fraction as the Horner steps below build) */
	if (segc_rf_is_poly(x) && !segc_poly_has_var(&a->den, v)) {
		segc_poly t;

		segc_poly_init(&t, 0);
		rc = segc_poly_subst_var(&st->lim, &t, &a->num, v, &x->num);
		if (rc == 0) {
			segc_poly_swap(&r->num, &t);
			if (r != a)
				segc_poly_set(&r->den, &a->den);
		}
		segc_poly_clear(&t);
		if (rc <= 0)
			return rc ? -1 : segc_rf_absorb(st, r);
	}
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

/* The SEGC_ATOM_* flags of 'atom', a root x^(1/q) being >= 0. */
static unsigned char atom_flags_root(const segc_canon *st,
	const segc_expr *atom)
{
	const segc_expr *base;

	if (atom->kind == SEGC_POW && segc_root_index(atom, &base))
		return SEGC_ATOM_NONNEG;
	return atom_flags(st, atom);
}

/* The variable of 'atom'; the table takes a reference if it is new. */
size_t segc_canon_var(segc_canon *st, segc_expr *atom)
{
	size_t h = ((uintptr_t)atom / sizeof(void *)) &
		(SEGC_CANON_RECENT - 1);
	void **slot;

	/* atoms are never removed, so a cached index stays right */
	if (st->recent[h] == atom)
		return st->recent_index[h];
	slot = segc_expr_map_find(&st->atom_index, atom);
	if (slot) {
		st->recent[h] = atom;
		st->recent_index[h] = (size_t)(*slot) - 1;
		return st->recent_index[h];
	}
	/* Every later polynomial carries one exponent more for it: a new
	 * atom is charged the atoms there are, so that a simplification
	 * that keeps making atoms (fresh counters of split sums, relaxed
	 * roundings) ends at max_work.  Past it this atom is still made
	 * (the caller cannot fail here); the next charged operation fails. */
	(void)segc_ctx_charge(st->ctx, 16.0 * (double)st->natoms);
	if (st->natoms == st->cap) {
		st->cap = st->cap ? 2 * st->cap : 16;
		st->atoms = segc_xrealloc(st->atoms,
			segc_xmul_size(st->cap, sizeof(*st->atoms)));
		st->flags = segc_xrealloc(st->flags, st->cap);
		st->lowb = segc_xrealloc(st->lowb, st->cap);
		st->intb = segc_xrealloc(st->intb, st->cap);
	}
	st->lowb[st->natoms] = 0;
	st->intb[st->natoms] = 0;
	st->atoms[st->natoms] = segc_expr_copy(atom);
	st->flags[st->natoms] = atom_flags_root(st, atom);
	if (st->flags[st->natoms] & SEGC_ATOM_EXTREMUM)
		st->has_extrema = 1;
	if (atom->kind == SEGC_POW)
		st->has_roots = 1;
	if (segc_expr_is_builtin(atom, SEGC_BUILTIN_IF))
		st->has_ifs = 1;
	if (segc_expr_is_builtin(atom, SEGC_BUILTIN_SQRT))
		st->has_sqrts = 1;
	segc_expr_map_put(&st->atom_index, atom,
		(void *)(st->natoms + 1));
	return st->natoms++;
}

/* r = the atom itself. */
void segc_rf_atom(segc_canon *st, segc_rf *r, segc_expr *atom)
{
	size_t v = segc_canon_var(st, atom);

	segc_poly_set_var(&r->num, v, 1);
	segc_poly_set_si(&r->den, 1);
}
