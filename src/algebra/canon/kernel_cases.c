/* kernel_cases.c - a proof of equality by cases, for comparing two
 * formulas whose canonical forms differ: the difference is split on a
 * condition of an if, or on which argument of a two-argument min or max
 * is the smaller, when that condition is affine in one free name x
 * (c*x + k against 0).  Each side of the split narrows the domain of x
 * (an integer x to whole bounds); the difference is brought to canonical
 * form under each narrowed domain (which decides the pieces it can) and
 * must be zero on every side, splitting again where it is not, to a fixed
 * depth.  An empty side needs no proof; a side where x is one value has
 * x replaced by it; where nothing is left to split on, an integer name
 * of a few values is tried at each (a polynomial difference that
 * vanishes at the few points of its range).  So if(N >= 3, 4*N - 6, N*(N+1)/2) and
 * if(N >= 4, 4*N - 6, N*(N+1)/2) are proved equal for an integer N: on
 * N <= 2 and N >= 4 both take the same branch, at N = 3 both are 6.
 * Sound: every step is canonical simplification under a domain that
 * holds on that side; a name bound by a sum or a recurrence is never
 * split (the walk does not enter them). */
#include <stdlib.h>
#include <string.h>

#include "algebra/canon/canon_private.h"
#include "expr/expr_private.h"
#include "base/util.h"

/* Levels of splitting (each at most doubles the cases). */
#define CASES_DEPTH 4
/* Most values of an integer name tried one by one where no condition is
 * left to split on. */
#define CASES_POINTS 8
/* Most conditions looked at for one split (each costs a few canonical
 * forms of its two sides). */
#define CASES_TRIES 32

/* A condition to split on: c*x + k >= 0 against < 0 (strict: > 0 against
 * <= 0). */
struct split {
	char *x;
	mpq_t c, k;
	int strict;
	int tries;   /* conditions looked at so far */
};

/* The first name of 'e' in the order of its tree, or NULL. */
static const char *first_name(const segc_expr *e, int depth)
{
	const char *x;
	size_t i;

	if (e->kind == SEGC_SYM)
		return e->u.name;
	if (e->kind == SEGC_NUM || e->kind == SEGC_SUM || depth > 64)
		return NULL;
	for (i = 0; i < e->nargs; i++)
		if ((x = first_name(segc_args(e)[i], depth + 1)) != NULL)
			return x;
	return NULL;
}

/* Non-zero when 'e' (canonical under 'dom') is c*x + k with x a name and
 * c a non-zero number; sets x, c and k of 'sp'. */
static int affine_in_one(segc_ctx *ctx, const segc_domains *dom,
	const segc_expr *e, struct split *sp)
{
	segc_expr *z, *one, *at0, *at1, *back;
	int ok = 0;
	const char *x = first_name(e, 0);

	if (!x)
		return 0;
	free(sp->x);
	sp->x = segc_xstrdup(x);
	z = segc_expr_int(0);
	one = segc_expr_int(1);
	at0 = segc_canonical(ctx, dom, segc_expr_subst(
		segc_expr_copy(e), sp->x, z));
	at1 = segc_canonical(ctx, dom, segc_expr_subst(
		segc_expr_copy(e), sp->x, one));
	if (at0 && at1 && at0->kind == SEGC_NUM && at1->kind == SEGC_NUM) {
		mpq_sub(sp->c, at1->u.value, at0->u.value);
		mpq_set(sp->k, at0->u.value);
		back = segc_canonical(ctx, dom, segc_expr_sub2(
			segc_expr_copy(e), segc_expr_add2(
			segc_expr_mul2(segc_expr_num(sp->c),
			segc_expr_sym(sp->x)), segc_expr_num(sp->k))));
		ok = back && segc_expr_is_zero(back) && mpq_sgn(sp->c) != 0;
		segc_expr_free(back);
	}
	segc_ctx_clear(ctx);
	segc_expr_free(at0);
	segc_expr_free(at1);
	segc_expr_free(z);
	segc_expr_free(one);
	return ok;
}

/* The bounds of x of 'sp' on one side of it in 'dom': where c*x + k >= 0
 * ('upper' 1; > 0 when strict) or where it is < 0 ('upper' 0; <= 0 when
 * strict); an integer x gets whole bounds.  Returns 0 when the side has
 * no point, else 1, or 2 when the side is all of the domain of x. */
static int side_bounds(const segc_domains *dom, const struct split *sp,
	int upper, mpq_t lo, mpq_t hi, int *has_lo, int *has_hi,
	int *integer)
{
	mpq_srcptr omin = NULL, omax = NULL;
	mpq_t t;
	mpz_t z;
	int low_side, incl, same = 1;

	*integer = 0;
	segc_domains_get(dom, sp->x, &omin, &omax, integer);
	*has_lo = omin != NULL;
	*has_hi = omax != NULL;
	if (*has_lo)
		mpq_set(lo, omin);
	if (*has_hi)
		mpq_set(hi, omax);
	mpq_init(t);
	mpz_init(z);
	/* the threshold t = -k/c: c*x + k >= 0 is x >= t for c > 0 */
	mpq_div(t, sp->k, sp->c);
	mpq_neg(t, t);
	low_side = (mpq_sgn(sp->c) > 0) != upper;
	incl = upper ? !sp->strict : sp->strict; /* t on this side */
	if (*integer) {
		if (low_side)
			mpz_fdiv_q(z, mpq_numref(t), mpq_denref(t));
		else
			mpz_cdiv_q(z, mpq_numref(t), mpq_denref(t));
		if (!incl && mpz_cmp_ui(mpq_denref(t), 1) == 0)
			(low_side ? mpz_sub_ui : mpz_add_ui)(z, z, 1);
		mpq_set_z(t, z);
	}
	/* a real x on the open side keeps t itself (bounds are closed):
	 * sound, a piece at t then stays undecided */
	if (low_side && (!*has_hi || mpq_cmp(t, hi) < 0)) {
		mpq_set(hi, t);
		*has_hi = 1;
		same = 0;
	} else if (!low_side && (!*has_lo || mpq_cmp(t, lo) > 0)) {
		mpq_set(lo, t);
		*has_lo = 1;
		same = 0;
	}
	mpq_clear(t);
	mpz_clear(z);
	if (*has_lo && *has_hi && mpq_cmp(lo, hi) > 0)
		return 0;
	return same ? 2 : 1;
}

/* Non-zero when both sides of 'sp' have points and neither is the whole
 * domain of its name: a split that makes progress. */
static int narrows(const segc_domains *dom, const struct split *sp)
{
	mpq_t lo, hi;
	int a, b, hl, hh, in;

	mpq_init(lo);
	mpq_init(hi);
	a = side_bounds(dom, sp, 1, lo, hi, &hl, &hh, &in);
	b = side_bounds(dom, sp, 0, lo, hi, &hl, &hh, &in);
	mpq_clear(lo);
	mpq_clear(hi);
	return a == 1 && b == 1;
}

/* Sets 'sp' from a comparison of 'a' and 'b' when their difference is
 * affine in one name and a split on it narrows the domain, strict as
 * 'strict' says (that decides the comparison on both sides) or else the
 * other way; returns non-zero then. */
static int split_of(segc_ctx *ctx, const segc_domains *dom,
	const segc_expr *a, const segc_expr *b, int strict, struct split *sp)
{
	segc_expr *d;
	int ok = 0;

	if (sp->tries++ >= CASES_TRIES)
		return 0;
	d = segc_canonical(ctx, dom, segc_expr_sub2(
		segc_expr_copy(a), segc_expr_copy(b)));
	if (!d) {
		segc_ctx_clear(ctx);
		return 0;
	}
	if (affine_in_one(ctx, dom, d, sp)) {
		sp->strict = strict;
		ok = narrows(dom, sp);
		if (!ok) {
			sp->strict = !strict;
			ok = narrows(dom, sp);
		}
	}
	segc_expr_free(d);
	return ok;
}

/* Finds the first condition of 'e' (in the order of its tree) to split
 * on; non-zero when found. */
static int find_split(segc_ctx *ctx, const segc_domains *dom,
	const segc_expr *e, struct split *sp, int depth)
{
	enum segc_builtin id;
	const segc_expr *c;
	size_t i;
	int strict;

	if (e->kind == SEGC_NUM || e->kind == SEGC_SYM ||
		e->kind == SEGC_SUM || depth > 64)
		return 0;
	if (e->kind == SEGC_CALL) {
		id = segc_expr_builtin(e);
		if (id == SEGC_BUILTIN_IF && e->nargs == 3) {
			c = segc_args(e)[0];
			switch (segc_expr_builtin(c)) {
			/* a - b >= 0 against < 0 decides a >= b and a < b;
			 * > 0 against <= 0 decides a > b and a <= b */
			case SEGC_BUILTIN_GE:
			case SEGC_BUILTIN_LT:
			case SEGC_BUILTIN_EQ:
			case SEGC_BUILTIN_NE:
				strict = 0;
				break;
			case SEGC_BUILTIN_GT:
			case SEGC_BUILTIN_LE:
				strict = 1;
				break;
			default:
				strict = -1;
				break;
			}
			if (strict >= 0 && c->nargs == 2 && split_of(ctx, dom,
				segc_args(c)[0], segc_args(c)[1], strict, sp))
				return 1;
		} else if ((id == SEGC_BUILTIN_MIN || id == SEGC_BUILTIN_MAX) &&
			e->nargs == 2) {
			if (split_of(ctx, dom, segc_args(e)[0], segc_args(e)[1],
				0, sp))
				return 1;
		} else if (id != SEGC_BUILTIN_FLOOR && id != SEGC_BUILTIN_CEIL &&
			id != SEGC_BUILTIN_MIN && id != SEGC_BUILTIN_MAX &&
			id != SEGC_BUILTIN_SQRT && id != SEGC_BUILTIN_LOG2)
			return 0; /* recurrences bind names; calls are opaque */
	}
	for (i = 0; i < e->nargs; i++)
		if (find_split(ctx, dom, segc_args(e)[i], sp, depth + 1))
			return 1;
	return 0;
}

static int prove_zero(segc_ctx *ctx, const segc_domains *dom,
	segc_expr *d, int depth);

/* Proves 'd' zero on one side of 'sp' ('upper': see side_bounds). */
static int prove_side(segc_ctx *ctx, const segc_domains *dom,
	const segc_expr *d, const struct split *sp, int upper, int depth)
{
	mpq_t lo, hi;
	int has_lo, has_hi, integer, ok;
	segc_domains *nd;
	segc_expr *e, *v;

	mpq_init(lo);
	mpq_init(hi);
	if (!side_bounds(dom, sp, upper, lo, hi, &has_lo, &has_hi,
		&integer)) {
		mpq_clear(lo);
		mpq_clear(hi);
		return 1; /* no point on this side */
	}
	nd = segc_domains_copy(dom);
	segc_domains_set(nd, sp->x, has_lo ? lo : NULL, has_hi ? hi : NULL,
		integer);
	e = segc_expr_copy(d);
	if (has_lo && has_hi && mpq_equal(lo, hi)) {
		v = segc_expr_num(lo);
		e = segc_expr_subst(e, sp->x, v);
		segc_expr_free(v);
	}
	e = segc_canonical(ctx, nd, e);
	ok = e && prove_zero(ctx, nd, e, depth + 1);
	segc_ctx_clear(ctx);
	segc_expr_free(e);
	segc_domains_free(nd);
	mpq_clear(lo);
	mpq_clear(hi);
	return ok;
}

/* Non-zero when 'd' is proved zero at each value of its first name, an
 * integer of at most CASES_POINTS values on 'dom', with that value put
 * in (the other names keep their domains). */
static int prove_points(segc_ctx *ctx, const segc_domains *dom,
	const segc_expr *d)
{
	const char *x = first_name(d, 0);
	mpq_srcptr lo = NULL, hi = NULL;
	int integer = 0, ok = 1;
	mpq_t v, span;
	segc_expr *e, *n;

	if (!x || !segc_domains_get(dom, x, &lo, &hi, &integer) || !integer ||
		!lo || !hi)
		return 0;
	mpq_init(v);
	mpq_init(span);
	mpq_sub(span, hi, lo);
	if (mpq_cmp_si(span, CASES_POINTS - 1, 1) > 0)
		ok = 0;
	mpz_cdiv_q(mpq_numref(v), mpq_numref(lo), mpq_denref(lo));
	for (; ok && mpq_cmp(v, hi) <= 0; mpz_add_ui(mpq_numref(v),
		mpq_numref(v), 1)) {
		n = segc_expr_num(v);
		e = segc_canonical(ctx, dom, segc_expr_subst(
			segc_expr_copy(d), x, n));
		segc_expr_free(n);
		ok = e && segc_expr_is_zero(e);
		segc_ctx_clear(ctx);
		segc_expr_free(e);
	}
	mpq_clear(v);
	mpq_clear(span);
	return ok;
}

/* Non-zero when the canonical form 'd' (kept) is proved zero on 'dom'. */
static int prove_zero(segc_ctx *ctx, const segc_domains *dom,
	segc_expr *d, int depth)
{
	struct split sp;
	int ok = 0;

	if (segc_expr_is_zero(d))
		return 1;
	if (segc_ctx_full(ctx))
		return 0;
	if (depth >= CASES_DEPTH)
		return prove_points(ctx, dom, d);
	sp.x = NULL;
	sp.tries = 0;
	mpq_init(sp.c);
	mpq_init(sp.k);
	if (find_split(ctx, dom, d, &sp, 0))
		ok = prove_side(ctx, dom, d, &sp, 1, depth) &&
			prove_side(ctx, dom, d, &sp, 0, depth);
	else
		ok = prove_points(ctx, dom, d);
	free(sp.x);
	mpq_clear(sp.c);
	mpq_clear(sp.k);
	return ok;
}

/* See segc.h. */
int segc_expr_equal_by_cases(segc_ctx *ctx, const segc_domains *dom,
	const segc_expr *a, const segc_expr *b)
{
	segc_expr *d = segc_canonical(ctx, dom, segc_expr_sub2(
		segc_expr_copy(a), segc_expr_copy(b)));
	int ok;

	if (!d) {
		segc_ctx_clear(ctx);
		return 0;
	}
	ok = prove_zero(ctx, dom, d, 0);
	segc_ctx_clear(ctx);
	segc_expr_free(d);
	return ok;
}
