/* emit_form.c - the form a predictor computes: the structural form of the
 * graph (sums and products of non-negative costs, maxima of times), never
 * the expanded canonical form, whose terms cancel.  Only the sums over a
 * counter are changed: one whose body does not use its counter becomes
 * its count times the body; one with a closed form becomes that closed
 * form regrouped so that nothing cancels but exact integers: the terms
 * with the same non-integer part (a product of costs, say) share one
 * polynomial in integer atoms (N, P, counters, integer parameters,
 * ceil/floor), scaled to integer coefficients and divided once; where
 * groups of either sign remain that differ in negative powers of integer
 * atoms, they become one group divided by the product of those powers.
 * A sum without a closed form stays, as a loop. */
#include <stdlib.h>
#include <string.h>
#include "output/emit_private.h"

/* The state of one rewriting. */
typedef struct former {
	segc_ctx *ctx;
	const segc_domains *dom;
	size_t nbound;
	const char *bound[64];   /* the counters of the enclosing sums */
	int failed;
} former;

static segc_expr *stable(former *f, const segc_expr *e);

/* Non-zero when the name 'name' takes integer values only. */
static int integer_name(const former *f, const char *name)
{
	mpq_srcptr lo, hi;
	int integer = 0;
	size_t i;

	for (i = 0; i < f->nbound; i++)
		if (!strcmp(f->bound[i], name))
			return 1;
	return f->dom && segc_domains_get(f->dom, name, &lo, &hi, &integer)
		&& integer;
}

/* Non-zero when 'e' is an integer-valued atom with an integer value for
 * every value of its names: an integer name, ceil() or floor(). */
static int integer_atom(const former *f, const segc_expr *e)
{
	if (segc_expr_kind(e) == SEGC_SYM)
		return integer_name(f, segc_expr_name(e));
	return segc_expr_kind(e) == SEGC_CALL &&
		(!strcmp(segc_expr_name(e), "ceil") ||
		 !strcmp(segc_expr_name(e), "floor"));
}

/* Non-zero when 'e' holds a sum binder or a call that binds a name. */
static int has_binder(const segc_expr *e)
{
	size_t i;

	if (segc_expr_kind(e) == SEGC_SUM)
		return 1;
	if (segc_expr_kind(e) == SEGC_CALL &&
	    (!strcmp(segc_expr_name(e), "maxplusv") ||
	     !strcmp(segc_expr_name(e), "taskpath")))
		return 1;
	for (i = 0; i < segc_expr_nargs(e); i++)
		if (has_binder(segc_expr_arg(e, i)))
			return 1;
	return 0;
}

/* Splits the term 't' of a canonical sum into its rational coefficient
 * ('q'), its integer part (integer atoms to non-negative powers, or with
 * 'neg' to any integer powers, GIVEn in '*ip') and the rest ('*rp'). */
static void split_term(const former *f, const segc_expr *t, mpq_t q,
	segc_expr **ip, segc_expr **rp, int neg)
{
	size_t i, n = segc_expr_kind(t) == SEGC_MUL ? segc_expr_nargs(t) : 1;
	segc_expr *in = segc_expr_int(1), *rest = segc_expr_int(1);

	mpq_set_ui(q, 1, 1);
	for (i = 0; i < n; i++) {
		const segc_expr *x = n > 1 || segc_expr_kind(t) == SEGC_MUL ?
			segc_expr_arg(t, i) : t;
		const segc_expr *base = x;

		if (segc_expr_is_num(x)) {
			mpq_mul(q, q, segc_expr_value(x));
			continue;
		}
		if (segc_expr_kind(x) == SEGC_POW) {
			const segc_expr *k = segc_expr_arg(x, 1);

			base = segc_expr_arg(x, 0);
			if (!segc_expr_is_num(k) || (mpq_sgn(segc_expr_value(k)) <
			    0 && !neg) || mpz_cmp_ui(mpq_denref(
			    segc_expr_value(k)), 1))
				base = NULL;
		}
		if (base && integer_atom(f, base))
			in = segc_expr_mul2(in, segc_expr_copy(x));
		else
			rest = segc_expr_mul2(rest, segc_expr_copy(x));
	}
	*ip = in;
	*rp = rest;
}

/* One group of terms: the non-integer part they share and the sum of
 * their integer parts with their coefficients. */
typedef struct group {
	segc_expr *rest;
	size_t n, cap;
	segc_expr **ip;
	mpq_t *q;
} group;

/* The least power of each integer atom among the integer parts of 'g'
 * where it is negative: their product with the powers negated, the
 * monomial that makes every integer part a polynomial (1 when none is
 * negative). */
static segc_expr *denominator_of(const group *g)
{
	const segc_expr **base = NULL;
	long *least = NULL;
	size_t nb = 0, i, j, k, n;
	segc_expr *den = segc_expr_int(1);

	for (i = 0; i < g->n; i++) {
		n = segc_expr_kind(g->ip[i]) == SEGC_MUL ?
			segc_expr_nargs(g->ip[i]) : 1;
		for (k = 0; k < n; k++) {
			const segc_expr *x = n > 1 || segc_expr_kind(g->ip[i]) ==
				SEGC_MUL ? segc_expr_arg(g->ip[i], k) : g->ip[i];
			const segc_expr *b = x;
			long e = 1;

			if (segc_expr_is_num(x))
				continue;
			if (segc_expr_kind(x) == SEGC_POW) {
				b = segc_expr_arg(x, 0);
				e = mpz_get_si(mpq_numref(segc_expr_value(
					segc_expr_arg(x, 1))));
			}
			if (e >= 0)
				continue;
			for (j = 0; j < nb && base[j] != b; j++)
				;
			if (j == nb) {
				base = segc_xrealloc(base, (nb + 1) *
					sizeof *base);
				least = segc_xrealloc(least, (nb + 1) *
					sizeof *least);
				base[nb] = b;
				least[nb++] = e;
			} else if (e < least[j]) {
				least[j] = e;
			}
		}
	}
	for (j = 0; j < nb; j++)
		den = segc_expr_mul2(den, segc_expr_powi(
			segc_expr_copy(base[j]), -least[j]));
	free(base);
	free(least);
	return den;
}

/* The polynomial of group 'g' scaled to integer coefficients, times the
 * reciprocal of the scale: (d*poly) * (1/d), the integer polynomial kept
 * non-negative where the domains prove it (max(0, ...) marks it so for
 * the error bound of the plan).  Negative powers of integer atoms are
 * taken out as one monomial that divides the whole: (d*m*poly)/(d*m). */
static segc_expr *group_value(former *f, const group *g)
{
	mpz_t d;
	mpq_t c;
	segc_expr *sum = segc_expr_int(0), *w, *den = denominator_of(g);
	size_t i;

	mpz_init_set_ui(d, 1);
	mpq_init(c);
	for (i = 0; i < g->n; i++)
		mpz_lcm(d, d, mpq_denref(g->q[i]));
	for (i = 0; i < g->n; i++) {
		segc_expr *m = segc_expr_copy(g->ip[i]);

		if (!segc_expr_is_num(den)) {
			m = segc_canonical(f->ctx, f->dom, segc_expr_mul2(m,
				segc_expr_copy(den)));
			if (!m) {
				f->failed = 1;
				m = segc_expr_int(0);
			}
		}
		mpq_set_z(c, d);
		mpq_mul(c, c, g->q[i]);
		sum = segc_expr_add2(sum, segc_expr_mul2(segc_expr_num(c), m));
	}
	if (!segc_expr_is_num(sum) && segc_expr_kind(sum) == SEGC_ADD &&
	    (segc_proved_signs(f->ctx, f->dom, sum) & SEGC_PROVED_NONNEG)) {
		segc_expr *a[2];

		a[0] = segc_expr_int(0);
		a[1] = sum;
		sum = segc_expr_call("max", 2, a);
	}
	mpq_set_z(c, d);
	mpq_inv(c, c);
	w = segc_expr_mul2(segc_expr_copy(g->rest), sum);
	if (mpz_cmp_ui(d, 1))
		w = segc_expr_mul2(segc_expr_num(c), w);
	if (!segc_expr_is_num(den))
		w = segc_expr_div2(w, den);
	else
		segc_expr_free(den);
	mpq_clear(c);
	mpz_clear(d);
	return w;
}

/* The canonical polynomial 'c' regrouped: the terms with the same
 * non-integer part summed as one integer polynomial each (see the top of
 * the file), the groups in the order of their first terms; with 'neg',
 * negative powers of integer atoms count as integer parts too, taken out
 * of their group as one divisor. */
static segc_expr *regroup(former *f, const segc_expr *c, int neg)
{
	size_t i, j, ng = 0, n = segc_expr_kind(c) == SEGC_ADD ?
		segc_expr_nargs(c) : 1;
	group *g = segc_xcalloc(n, sizeof *g);
	segc_expr *out = segc_expr_int(0);
	mpq_t q;

	mpq_init(q);
	for (i = 0; i < n; i++) {
		const segc_expr *t = segc_expr_kind(c) == SEGC_ADD ?
			segc_expr_arg(c, i) : c;
		segc_expr *ip, *rp;

		split_term(f, t, q, &ip, &rp, neg);
		for (j = 0; j < ng && g[j].rest != rp; j++)
			;
		if (j == ng) {
			g[ng].rest = rp;
			g[ng].ip = segc_xcalloc(n, sizeof *g[ng].ip);
			g[ng].q = segc_xcalloc(n, sizeof *g[ng].q);
			ng++;
		} else
			segc_expr_free(rp);
		mpq_init(g[j].q[g[j].n]);
		mpq_set(g[j].q[g[j].n], q);
		g[j].ip[g[j].n++] = ip;
	}
	for (j = 0; j < ng; j++) {
		out = segc_expr_add2(out, group_value(f, &g[j]));
		for (i = 0; i < g[j].n; i++) {
			segc_expr_free(g[j].ip[i]);
			mpq_clear(g[j].q[i]);
		}
		free(g[j].ip);
		free(g[j].q);
		segc_expr_free(g[j].rest);
	}
	free(g);
	mpq_clear(q);
	return out;
}

/* The canonical form of the call 'fn'('x') (GIVEn; 'x' taken); NULL
 * when it fails (f->failed set). */
static segc_expr *canonical_call(former *f, const char *fn, segc_expr *x)
{
	segc_expr *c = segc_canonical(f->ctx, f->dom,
		segc_expr_call(fn, 1, &x));

	if (!c)
		f->failed = 1;
	return c;
}

/* The number of integers from 'lo' to 'hi' (both taken):
 * max(0, floor(hi) - ceil(lo) + 1), floor and ceil in canonical form (so
 * that they go where the bound is an integer); max(0, ...) says that the
 * count is >= 0 (the error bound of the plan needs it). */
static segc_expr *count_of(former *f, segc_expr *lo, segc_expr *hi)
{
	segc_expr *a[2], *n;

	hi = canonical_call(f, "floor", hi);
	lo = canonical_call(f, "ceil", lo);
	if (!hi || !lo) {
		segc_expr_free(hi);
		segc_expr_free(lo);
		return segc_expr_int(0);
	}
	n = segc_expr_add2(segc_expr_sub2(hi, lo), segc_expr_int(1));
	if (segc_expr_is_num(n)) {
		if (mpq_sgn(segc_expr_value(n)) < 0) {
			segc_expr_free(n);
			n = segc_expr_int(0);
		}
		return n;
	}
	a[0] = segc_expr_int(0);
	a[1] = n;
	return segc_expr_call("max", 2, a);
}

/* The value of name 'k' (the k-th of its expression) at sample point
 * 'p': an integer from 1 to 9 for an integer name, else a fraction, moved
 * into the domain of the name. */
static void sample_value(const former *f, const char *name, size_t k,
	unsigned p, mpq_t v)
{
	mpq_srcptr lo = NULL, hi = NULL;
	int integer = integer_name(f, name);

	if (integer)
		mpq_set_ui(v, 1 + (p * 3 + k * 5) % 9, 1);
	else
		mpq_set_ui(v, 2 + (p * 7 + k * 3) % 11, 3);
	mpq_canonicalize(v);
	if (f->dom && segc_domains_get(f->dom, name, &lo, &hi, &integer)) {
		if (lo && mpq_cmp(v, lo) < 0)
			mpq_add(v, v, lo);
		if (hi && mpq_cmp(v, hi) > 0)
			mpq_set(v, hi);
	}
}

/* Collects the free names of 'e' (bound ones excluded: 'nb' of 'b') into
 * 'names' (at most 'cap'); returns the count. */
static size_t free_names(const segc_expr *e, const char **names, size_t n,
	size_t cap)
{
	size_t i, j;

	if (segc_expr_kind(e) == SEGC_SYM) {
		for (j = 0; j < n; j++)
			if (!strcmp(names[j], segc_expr_name(e)))
				return n;
		if (n < cap)
			names[n++] = segc_expr_name(e);
		return n;
	}
	for (i = 0; i < segc_expr_nargs(e); i++)
		n = free_names(segc_expr_arg(e, i), names, n, cap);
	return n;
}

/* Non-zero when 'a' and 'b' differ at one of a few sample points of the
 * domains where both have an exact value: a cross-check of a closed
 * form against its sum before it replaces it. */
static int differ(const former *f, const segc_expr *a, const segc_expr *b)
{
	const char *names[32];
	mpq_t v[32], x, y;
	size_t n = free_names(a, names, 0, 32), k;
	unsigned p;
	int bad = 0;

	n = free_names(b, names, n, 32);
	mpq_init(x);
	mpq_init(y);
	for (k = 0; k < n; k++)
		mpq_init(v[k]);
	for (p = 0; p < 8 && !bad; p++) {
		for (k = 0; k < n; k++)
			sample_value(f, names[k], k, p, v[k]);
		if (!segc_expr_eval_q(x, a, n, names, (const mpq_t *)v) &&
		    !segc_expr_eval_q(y, b, n, names, (const mpq_t *)v))
			bad = !mpq_equal(x, y);
	}
	for (k = 0; k < n; k++)
		mpq_clear(v[k]);
	mpq_clear(x);
	mpq_clear(y);
	return bad;
}

/* Non-zero when 'e' is a sum some term of which the domains do not
 * prove >= 0. */
static int either_sign(former *f, const segc_expr *e)
{
	size_t i;

	if (segc_expr_kind(e) != SEGC_ADD)
		return 0;
	for (i = 0; i < segc_expr_nargs(e); i++)
		if (!(segc_proved_signs(f->ctx, f->dom, segc_expr_arg(e, i)) &
		    (SEGC_PROVED_NONNEG | SEGC_PROVED_POS)))
			return 1;
	return 0;
}

/* The sum 'e' made stable (see the top of the file). */
static segc_expr *stable_sum(former *f, const segc_expr *e)
{
	const char *var = segc_expr_name(e);
	segc_expr *lo = stable(f, segc_expr_arg(e, 0));
	segc_expr *hi = stable(f, segc_expr_arg(e, 1));
	segc_expr *body, *sum, *closed;

	if (f->nbound == sizeof f->bound / sizeof f->bound[0]) {
		body = segc_expr_copy(segc_expr_arg(e, 2));
	} else {
		f->bound[f->nbound++] = var;
		body = stable(f, segc_expr_arg(e, 2));
		f->nbound--;
	}
	if (!segc_expr_has_sym(body, var))
		return segc_expr_mul2(count_of(f, lo, hi), body);
	sum = segc_expr_sum(var, lo, hi, body);
	/* the closed form of the sum as the graph gave it */
	closed = segc_canonical(f->ctx, f->dom, segc_expr_copy(e));
	if (!closed) {
		f->failed = 1;
		return sum;
	}
	/* a closed form must agree with its sum where both are exact */
	if (has_binder(closed) || differ(f, sum, closed)) {
		segc_expr_free(closed);
		return sum;
	}
	segc_expr_free(sum);
	sum = regroup(f, closed, 0);
	/* groups of either sign that differ in negative powers of integer
	 * atoms (eta_at*Y/3 - eta_at/Y/3) cancel: as one group over the
	 * powers' product (eta_at*(Y^2 - 1)/(3*Y)) they do not */
	if (either_sign(f, sum)) {
		segc_expr *one = regroup(f, closed, 1);

		if (!either_sign(f, one)) {
			segc_expr_free(sum);
			sum = one;
		} else {
			segc_expr_free(one);
		}
	}
	segc_expr_free(closed);
	return sum;
}

/* 'e' made stable (see the top of the file); a call that binds a name
 * (maxplusv, taskpath) is kept as it is. */
static segc_expr *stable(former *f, const segc_expr *e)
{
	segc_expr **a, *out;
	size_t i, n = segc_expr_nargs(e);

	switch (segc_expr_kind(e)) {
	case SEGC_NUM: case SEGC_SYM:
		return segc_expr_copy(e);
	case SEGC_SUM:
		return stable_sum(f, e);
	case SEGC_CALL:
		if (has_binder(e) && !strcmp(segc_expr_name(e), "maxplusv"))
			return segc_expr_copy(e);
		if (!strcmp(segc_expr_name(e), "taskpath"))
			return segc_expr_copy(e);
		break;
	default:
		break;
	}
	a = segc_xcalloc(n + 1, sizeof *a);
	for (i = 0; i < n; i++)
		a[i] = stable(f, segc_expr_arg(e, i));
	switch (segc_expr_kind(e)) {
	case SEGC_ADD:
		out = segc_expr_add(n, a);
		break;
	case SEGC_MUL:
		out = segc_expr_mul(n, a);
		break;
	case SEGC_POW:
		out = segc_expr_pow(a[0], a[1]);
		break;
	default:
		out = segc_expr_call(segc_expr_name(e), n, a);
		break;
	}
	free(a);
	return out;
}

/* See emit.h. */
segc_expr *segc_emit_stable_form(segc_ctx *ctx, const segc_domains *dom,
	const segc_expr *e)
{
	former f;
	segc_expr *out;

	memset(&f, 0, sizeof f);
	f.ctx = ctx;
	f.dom = dom;
	out = stable(&f, e);
	if (f.failed) {
		segc_expr_free(out);
		return NULL;
	}
	return out;
}
