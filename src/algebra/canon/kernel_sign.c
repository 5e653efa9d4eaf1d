/* kernel_sign.c - the signs that a polynomial or rational function
 * provably has on the declared domains, for the simplification of the
 * kernels (kernels.c) and the normal form of max and min.
 *
 * Signs are proven over the box of the domains: each variable with a lower
 * bound is replaced by lo + y (y >= 0), or with only an upper bound by
 * hi - y; the polynomial is expanded and its sign is proven when every
 * coefficient has that sign (unbounded names must occur with even
 * exponents).  A second attempt prefers the upper bounds.  For a rational
 * function the signs of numerator and denominator are combined. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "algebra/canon/kernel_private.h"
#include "base/util.h"

/* ------------------------------------------------------------- signs */

/* Non-zero when 'a' is a call of 'name'. */
static int is_call(const segc_expr *a, const char *name)
{
	return a->kind == SEGC_CALL && !strcmp(a->u.name, name);
}

/* The lowb code (canon_private.h) that canonical 'x' has: 3 when the
 * domains prove x >= 1, 2 when they prove x >= 0, else 1. */
static unsigned char low_of(segc_canon *st, const segc_expr *x)
{
	segc_rf r, one;
	unsigned char res = 1;

	segc_rf_init(&r);
	segc_rf_init(&one);
	segc_rf_set_si(st, &one, 1);
	if (segc_canon_to_rf(st, x, &r) == 0) {
		if (segc_kernel_sign(st, &r) & SEGC_SIGN_NONNEG)
			res = 2;
		if (res == 2 && segc_rf_sub(st, &r, &r, &one) == 0 &&
			(segc_kernel_sign(st, &r) & SEGC_SIGN_NONNEG))
			res = 3;
	}
	segc_rf_clear(&r);
	segc_rf_clear(&one);
	return res;
}

/* The lowb code of a kernel atom 'a' from its arguments: ceil and floor
 * keep the bounds 0 and 1 (ceil also lifts a positive argument to 1),
 * log2 is >= 0 from 1 on and >= 1 from 2 on, max takes the best bound
 * of its arguments, min and if the worst, a sum of a body >= 0 is >= 0
 * (an empty sum is 0). */
static unsigned char kernel_low(segc_canon *st, const segc_expr *a)
{
	unsigned char best, k;
	size_t i;

	if (a->kind == SEGC_SUM)
		return low_of(st, segc_args(a)[2]) > 1 ? 2 : 1;
	if (a->kind != SEGC_CALL)
		return 1;
	if (segc_builtin_get(segc_expr_builtin(a))->eval == SEGC_EVAL_ROUND &&
	    a->nargs == 1) {
		segc_rf r;
		unsigned s = 0;

		k = low_of(st, segc_args(a)[0]);
		if (k == 2 && segc_expr_is_builtin(a, SEGC_BUILTIN_CEIL)) {
			segc_rf_init(&r);
			if (segc_canon_to_rf(st, segc_args(a)[0], &r) == 0)
				s = segc_kernel_sign(st, &r);
			segc_rf_clear(&r);
			if (s & SEGC_SIGN_POS)
				k = 3;
		}
		return k;
	}
	if (segc_expr_is_builtin(a, SEGC_BUILTIN_LOG2) && a->nargs == 1) {
		segc_expr *h = segc_expr_mul2(segc_expr_rat(1, 2),
			segc_expr_copy(segc_args(a)[0]));

		k = low_of(st, h);
		segc_expr_free(h);
		return k == 3 ? 3 : low_of(st, segc_args(a)[0]) == 3 ? 2 : 1;
	}
	if (segc_builtin_get(segc_expr_builtin(a))->eval == SEGC_EVAL_EXTREMUM
	    || segc_expr_is_builtin(a, SEGC_BUILTIN_IF)) {
		int ismax = segc_expr_is_builtin(a, SEGC_BUILTIN_MAX);

		best = ismax ? 1 : 3;
		for (i = segc_expr_is_builtin(a, SEGC_BUILTIN_IF); i < a->nargs;
		     i++) {
			k = low_of(st, segc_args(a)[i]);
			best = ismax ? (k > best ? k : best) :
				(k < best ? k : best);
		}
		return best;
	}
	return 1;
}

/* The value of the polynomial 'p' where each of its variables is at its
 * lower bound, into 'm'; -1 when a variable it holds has none (or a
 * negative power of one not > 0). */
static int value_at_lows(segc_canon *st, const segc_poly *p, mpq_t m)
{
	mpq_srcptr lo, hi;
	mpq_t t, f;
	size_t i, v;
	int integer, bad = 0;

	mpq_inits(t, f, (mpq_ptr)0);
	mpq_set_ui(m, 0, 1);
	for (i = 0; i < segc_poly_nterms(p) && !bad; i++) {
		mpq_set(t, segc_poly_coeff(p, i));
		for (v = 0; v < segc_poly_nvars(p) && !bad; v++) {
			int32_t e = segc_poly_exp(p, i, v);

			if (!e)
				continue;
			if (segc_kernel_atom_bounds(st, v, &lo, &hi, &integer))
				lo = st->zero;    /* >= 0 by its nature */
			bad = !lo || (e < 0 && mpq_sgn(lo) <= 0);
			if (bad)
				break;
			mpz_pow_ui(mpq_numref(f), mpq_numref(lo),
				(unsigned long)(e < 0 ? -e : e));
			mpz_pow_ui(mpq_denref(f), mpq_denref(lo),
				(unsigned long)(e < 0 ? -e : e));
			if (e < 0)
				mpq_inv(f, f);
			mpq_mul(t, t, f);
		}
		mpq_add(m, m, t);
	}
	mpq_clears(t, f, (mpq_ptr)0);
	return bad ? -1 : 0;
}

/* A lower bound of canonical 'x' on the domains, into 'm': the value
 * of x where its atoms are at their lower bounds, once x - m >= 0 is
 * proven; -1 when there is none such. */
static int low_value(segc_canon *st, const segc_expr *x, mpq_t m)
{
	segc_rf r, c;
	int bad;

	segc_rf_init(&r);
	segc_rf_init(&c);
	bad = segc_canon_to_rf(st, x, &r) || !segc_rf_is_poly(&r) ||
		value_at_lows(st, &r.num, m);
	if (!bad) {
		segc_rf_set_q(st, &c, m);
		bad = segc_rf_sub(st, &r, &r, &c) ||
			!(segc_kernel_sign(st, &r) & SEGC_SIGN_NONNEG);
	}
	segc_rf_clear(&r);
	segc_rf_clear(&c);
	return bad ? -1 : 0;
}

/* Bits after the point of the lower bound of an irrational sqrt. */
#define SQRT_LOW_BITS 16

/* 'lo' = a rational lower bound of sqrt(m), m > 0: sqrt(m) itself when
 * m is the square of a rational, else floor(sqrt(p*q*4^k))/(q*2^k) for
 * m = p/q (k = SQRT_LOW_BITS), within 2^-k of it. */
static void sqrt_below(mpq_t lo, mpq_srcptr m)
{
	if (mpz_perfect_square_p(mpq_numref(m)) &&
	    mpz_perfect_square_p(mpq_denref(m))) {
		mpz_sqrt(mpq_numref(lo), mpq_numref(m));
		mpz_sqrt(mpq_denref(lo), mpq_denref(m));
	} else {
		mpz_mul(mpq_numref(lo), mpq_numref(m), mpq_denref(m));
		mpz_mul_2exp(mpq_numref(lo), mpq_numref(lo),
			2 * SQRT_LOW_BITS);
		mpz_sqrt(mpq_numref(lo), mpq_numref(lo));
		mpz_mul_2exp(mpq_denref(lo), mpq_denref(m), SQRT_LOW_BITS);
	}
	mpq_canonicalize(lo);
}

/* 'lo' = a rational lower bound of m^(1/q), m > 0, q >= 3: exact when
 * m is the q-th power of a rational, else floor((p*d^(q-1)*2^(k*q))^(1/q))
 * / (d*2^k) for m = p/d (k = SQRT_LOW_BITS). */
static void root_below(mpq_t lo, mpq_srcptr m, unsigned long q)
{
	mpz_t t;

	mpz_init(t);
	if (mpz_root(mpq_numref(lo), mpq_numref(m), q) &&
	    mpz_root(mpq_denref(lo), mpq_denref(m), q)) {
		mpz_clear(t);
		mpq_canonicalize(lo);
		return;
	}
	mpz_pow_ui(t, mpq_denref(m), q - 1);
	mpz_mul(t, t, mpq_numref(m));
	mpz_mul_2exp(t, t, q * SQRT_LOW_BITS);
	mpz_root(mpq_numref(lo), t, q);
	mpz_mul_2exp(mpq_denref(lo), mpq_denref(m), SQRT_LOW_BITS);
	mpq_canonicalize(lo);
	mpz_clear(t);
}

/* The bounds of the atom sqrt(x) of variable 'v', or of the root x^(1/q)
 * ('q' >= 3, 2 for sqrt): 1 (>= 0 by its nature), or 0 with 'lo' a
 * rational lower bound > 0 when x has one on the domains (low_value):
 * sqrt(x) >= sqrt(m) for x >= m, exactly when m is a square, else a
 * rational just below it; likewise for the other roots. */
static int sqrt_bounds(segc_canon *st, size_t v, mpq_srcptr *lo,
	unsigned long q)
{
	if (!st->lowb[v]) {
		mpq_t m;

		st->lowb[v] = 2;  /* >= 0 while x is being looked at */
		mpq_init(m);
		if (!low_value(st, segc_args(st->atoms[v])[0], m) &&
		    mpq_sgn(m) > 0) {
			if (st->nlowq < st->natoms) {
				st->lowq = segc_xrealloc(st->lowq,
					segc_xmul_size(st->natoms,
					sizeof(*st->lowq)));
				while (st->nlowq < st->natoms)
					st->lowq[st->nlowq++] = NULL;
			}
			st->lowq[v] = segc_xmalloc(sizeof(*st->lowq[v]));
			mpq_init(st->lowq[v]);
			if (q == 2)
				sqrt_below(st->lowq[v], m);
			else if (q <= 64)
				root_below(st->lowq[v], m, q);
			if (mpq_sgn(st->lowq[v]) > 0)
				st->lowb[v] = 4;
		}
		mpq_clear(m);
	}
	if (st->lowb[v] != 4)
		return 1;
	*lo = st->lowq[v];
	return 0;
}

/* Non-zero when canonical 'x' is an integer on the box: a polynomial
 * whose every term is one (segc_kernel_integer_valued). */
static int integer_of(segc_canon *st, const segc_expr *x)
{
	segc_rf r;
	int res = 0;

	segc_rf_init(&r);
	if (segc_canon_to_rf(st, x, &r) == 0 && segc_rf_is_poly(&r))
		res = segc_kernel_integer_valued(st, &r.num);
	segc_rf_clear(&r);
	return res;
}

/* Non-zero when the max, min or if atom of variable 'v' is an integer on
 * the box: each of its alternatives is (the condition of an if may be
 * anything), as in floor(max(B, N)) = max(B, N) for integer B and N.
 * Cached in st->intb, but not for an atom in which a counter of a sum
 * being converted is free (the counter is an integer only there). */
static int alternatives_integer(segc_canon *st, size_t v)
{
	const segc_expr *a = st->atoms[v];
	size_t i;
	int res = 1, cache = 1;

	if (st->intb[v])
		return st->intb[v] == 2;
	for (i = 0; i < st->nbound; i++)
		if (segc_expr_may_have(a, st->bound[i]))
			cache = 0;
	st->intb[v] = 1;  /* not proved while it is being looked at */
	for (i = segc_expr_is_builtin(a, SEGC_BUILTIN_IF); i < a->nargs &&
	     res; i++)
		res = integer_of(st, segc_args(a)[i]);
	st->intb[v] = cache ? (unsigned char)(res ? 2 : 1) : 0;
	return res;
}

/* The bounds of the atom of variable 'v' ('lo'/'hi' set or left NULL);
 * returns non-zero when the atom is >= 0 by its nature (a sqrt).  The
 * counter of a sum being converted is an integer, and so is a rounding,
 * and a max, min or if of integers. */
int segc_kernel_atom_bounds(segc_canon *st, size_t v, mpq_srcptr *lo,
	mpq_srcptr *hi, int *integer)
{
	const segc_expr *a = st->atoms[v];

	*lo = *hi = NULL;
	*integer = 0;
	if (a->kind == SEGC_SYM) {
		if (!segc_domains_get(st->dom, a->u.name, lo, hi, integer))
			*integer = segc_canon_is_counter(st, a->u.name);
		return 0;
	}
	if (segc_expr_is_builtin(a, SEGC_BUILTIN_SQRT))
		return sqrt_bounds(st, v, lo, 2);
	if (a->kind == SEGC_POW) {
		/* a root x^(1/q) (canon_root.c) */
		const segc_expr *base;
		unsigned long q = segc_root_index(a, &base);

		return q ? sqrt_bounds(st, v, lo, q) : 1;
	}
	if (is_call(a, "_frac")) {
		*lo = st->zero;
		*hi = st->one;
		return 0;
	}
	*integer = segc_builtin_get(segc_expr_builtin(a))->eval ==
		SEGC_EVAL_ROUND;
	if (segc_builtin_get(segc_expr_builtin(a))->eval ==
	    SEGC_EVAL_EXTREMUM || segc_expr_is_builtin(a, SEGC_BUILTIN_IF))
		*integer = alternatives_integer(st, v);
	if (!st->lowb[v]) {
		unsigned char k;

		st->lowb[v] = 1;  /* no bound while it is being computed */
		k = kernel_low(st, a);
		st->lowb[v] = k;
	}
	if (st->lowb[v] > 1)
		*lo = st->lowb[v] == 3 ? st->one : st->zero;
	return 0;
}

/* Signs of a box-shifted polynomial 'q' whose variables marked in 'free'
 * are unbounded and others are >= 0. */
static unsigned sign_of_terms(const segc_poly *q, const char *isfree)
{
	int allpos = 1, allneg = 1, cpos = 0, cneg = 0;
	size_t i, v, n = segc_poly_nvars(q);

	if (segc_poly_nterms(q) == 0)
		return SEGC_SIGN_NONNEG | SEGC_SIGN_NONPOS;
	for (i = 0; i < segc_poly_nterms(q); i++) {
		int s = mpq_sgn(segc_poly_coeff(q, i)), isconst = 1;

		for (v = 0; v < n; v++) {
			int32_t e = segc_poly_exp(q, i, v);

			if (e)
				isconst = 0;
			if (isfree[v] && (e % 2))
				return 0;
		}
		if (s < 0)
			allpos = 0;
		if (s > 0)
			allneg = 0;
		if (isconst) {
			cpos = s > 0;
			cneg = s < 0;
		}
		if (!allpos && !allneg)
			return 0;
	}
	return (allpos ? SEGC_SIGN_NONNEG | (cpos ? SEGC_SIGN_POS : 0) : 0) |
		(allneg ? SEGC_SIGN_NONPOS | (cneg ? SEGC_SIGN_NEG : 0) : 0);
}

/* Replaces x_v in 'q' by lo + x_v (sign = 1) or hi - x_v (sign = -1).
 * The work (about the terms times the degree in x_v, times the
 * variables each term carries) is charged to the context of 'st': the
 * limits of 'lim' fail silently (no proof), but max_work is the budget
 * of the whole simplification. */
static int shift_var(segc_canon *st, const segc_poly_lim *lim,
	segc_poly *q, size_t v, mpq_srcptr c, int sign)
{
	if (segc_ctx_charge(st->ctx, (double)segc_poly_nterms(q) *
		(double)(segc_poly_degree(q, v) + 1) *
		(double)(segc_poly_nvars(q) / 8 + 1)))
		return -1;
	return segc_poly_shift_var(lim, q, q, v, sign < 0 ? -1 : 1, c);
}

/* How the sign test moves a variable with the bounds 'lo' and 'hi'
 * ('nonneg': proved >= 0 without them), 'upper' preferring upper
 * bounds: 0 left as it is (>= 0, or free), 1 to its lower bound (x = lo
 * + x'), -1 to its upper one (x = hi - x'). */
static int box_move(int nonneg, mpq_srcptr lo, mpq_srcptr hi, int upper)
{
	if (nonneg)
		return 0;
	if (hi && (upper || !lo))
		return -1;
	return lo && mpq_sgn(lo) ? 1 : 0;
}

/* Prepares variable v of 'q' for the sign test; returns 0, or -1 when no
 * sign can be proven.  'upper' prefers upper bounds. */
static int box_var(segc_canon *st, const segc_poly_lim *lim, segc_poly *q,
	size_t v, int upper, char *isfree)
{
	mpq_srcptr lo, hi;
	int integer, nonneg = segc_kernel_atom_bounds(st, v, &lo, &hi, &integer);
	int32_t mn = segc_poly_min_degree(q, v);
	int move = box_move(nonneg, lo, hi, upper);

	if (mn < 0) {
		int32_t *d;
		int rc;

		if (!nonneg && (!lo || mpq_sgn(lo) < 0))
			return -1;
		d = segc_xcalloc(segc_poly_nvars(q), sizeof(int32_t));
		d[v] = -mn;
		rc = segc_poly_shift(lim, q, d, segc_poly_nvars(q));
		free(d);
		if (rc)
			return -1;
	}
	if (move)
		return shift_var(st, lim, q, v, move < 0 ? hi : lo, move);
	/* neither moved nor bounded below: free */
	if (!nonneg && !lo)
		isfree[v] = 1;
	return 0;
}

/* Non-zero when term 'a' of 'p' dominates term 'b': the same exponents
 * in the variables left as they are, at least the same in the moved
 * ones. */
static int dominates(const segc_poly *p, size_t a, size_t b,
	const signed char *move)
{
	size_t v, n = segc_poly_nvars(p);

	for (v = 0; v < n; v++) {
		int32_t x = segc_poly_exp(p, a, v), y = segc_poly_exp(p, b, v);

		if (move[v] ? x < y : x != y)
			return 0;
	}
	return 1;
}

/* The most undominated terms undominated_mixed reads: a dense polynomial
 * then costs a bounded multiple of its terms. */
#define UNDOMINATED_MAX 64

/* Non-zero when the attempt of poly_sign_once with 'upper' must fail,
 * found without moving a variable.  A term that no other term dominates
 * keeps its coefficient through the moves, times -1 for each odd power
 * of a variable moved to its upper bound (the power counted after the
 * shift that makes the exponents >= 0): the moves add to a monomial only
 * from the monomials above it.  Two such terms of opposite signs leave
 * the moved polynomial without a sign.  The terms are read in their
 * order, the largest first, so that a term's dominators come before it,
 * and only against the undominated ones (dominance is transitive). */
static int undominated_mixed(segc_canon *st, const segc_poly *p, int upper,
	const char *used)
{
	size_t nv = segc_poly_nvars(p), n = segc_poly_nterms(p), i, k, v;
	signed char *move = segc_xcalloc(nv ? nv : 1, 1);
	int32_t *low = segc_xcalloc(nv ? nv : 1, sizeof *low);
	size_t top[UNDOMINATED_MAX], ntop = 0;
	int seen = 0;

	for (v = 0; v < nv; v++)
		if (used[v]) {
			mpq_srcptr lo, hi;
			int integer, nonneg = segc_kernel_atom_bounds(st, v, &lo,
				&hi, &integer);

			move[v] = (signed char)box_move(nonneg, lo, hi, upper);
			low[v] = segc_poly_min_degree(p, v);
			if (low[v] > 0)
				low[v] = 0;
		}
	for (i = 0; i < n && seen != 3; i++) {
		int s = mpq_sgn(segc_poly_coeff(p, i));
		long odd = 0;

		/* only on a normal polynomial: sorted, merged, no zero */
		if (!s || (i && segc_poly_term_cmp(p, i - 1, p, i) <= 0)) {
			seen = 0;
			break;
		}
		for (k = 0; k < ntop && !dominates(p, top[k], i, move); k++)
			;
		if (k < ntop)
			continue;
		/* no conclusion past UNDOMINATED_MAX of them */
		if (ntop == UNDOMINATED_MAX)
			break;
		top[ntop++] = i;
		for (v = 0; v < nv; v++)
			if (move[v] < 0)
				odd += segc_poly_exp(p, i, v) - low[v];
		seen |= (odd & 1 ? -s : s) > 0 ? 1 : 2;
	}
	free(move);
	free(low);
	return seen == 3;
}

/* The provable signs of polynomial 'p' on the box (one attempt) with the
 * variables present marked in 'used'. */
static unsigned poly_sign_once(segc_canon *st, const segc_poly *p, int upper,
	const char *used)
{
	segc_poly_lim lim = { NULL, 2000, 0, 4096 };
	segc_poly q;
	char *isfree;
	size_t v;
	unsigned s = 0;

	if (undominated_mixed(st, p, upper, used))
		return 0;
	segc_poly_init(&q, segc_poly_nvars(p));
	segc_poly_set(&q, p);
	isfree = segc_xcalloc(segc_poly_nvars(&q) ? segc_poly_nvars(&q) : 1, 1);
	lim.max_exponent = segc_ctx_limits(st->ctx)->max_exponent;
	for (v = 0; v < segc_poly_nvars(&q); v++)
		if (used[v] && box_var(st, &lim, &q, v, upper, isfree))
			break;
	if (v == segc_poly_nvars(&q))
		s = sign_of_terms(&q, isfree);
	free(isfree);
	segc_poly_clear(&q);
	return s;
}

/* Marks in 'used' the variables of 'p'; returns -1 when no sign can be
 * proven (an unbounded atom with an odd exponent: the substitutions of
 * the other variables are invertible and keep that term), 1 when some
 * variable has both bounds (the attempt with upper bounds may differ),
 * else 0. */
static int sign_prepass(segc_canon *st, const segc_poly *p, char *used)
{
	size_t i, v, n = segc_poly_nvars(p);
	int both = 0;

	segc_poly_used_vars(p, used);
	for (v = 0; v < n; v++) {
		mpq_srcptr lo, hi;
		int integer;

		if (!used[v] || segc_kernel_atom_bounds(st, v, &lo, &hi, &integer))
			continue;
		if (lo && hi)
			both = 1;
		if (lo || hi)
			continue;
		for (i = 0; i < segc_poly_nterms(p); i++)
			if (segc_poly_exp(p, i, v) % 2)
				return -1;
	}
	return both;
}

/* Rounding atoms that one relaxed sign test replaces, and the pairs
 * floor(x), ceil(x) of one argument whose two cases it tries. */
#define SEGC_RELAX_ATOMS 8
#define SEGC_RELAX_PAIRS 3
#define SEGC_RELAX_DEPTH 2

/* One floor or ceil atom of a polynomial whose sign is tested. */
struct rounding {
	size_t v;        /* its variable */
	int isceil;
	size_t partner;  /* index in the list of the other rounding of the
	                  * same argument, or (size_t)-1 */
	size_t pair;     /* number of its pair, when it has a partner */
	segc_rf x;       /* the argument */
};

/* Lists the floor and ceil atoms of 'p' (non-negative powers only) in
 * 'R', with their arguments; returns how many, at most
 * SEGC_RELAX_ATOMS, or 0 when an argument has no canonical form. */
static size_t roundings_of(segc_canon *st, const segc_poly *p,
	struct rounding *R)
{
	size_t v, i, j, n = 0, pairs = 0;

	for (v = 0; v < segc_poly_nvars(p) && n < SEGC_RELAX_ATOMS; v++) {
		const segc_expr *a = st->atoms[v];

		/* the atom first: scanning the terms for it costs more */
		if (a->kind != SEGC_CALL || a->nargs != 1 ||
			segc_builtin_get(segc_expr_builtin(a))->eval !=
			SEGC_EVAL_ROUND || !segc_poly_has_var(p, v) ||
			segc_poly_min_degree(p, v) < 0)
			continue;
		R[n].v = v;
		R[n].isceil = segc_expr_is_builtin(a, SEGC_BUILTIN_CEIL);
		R[n].partner = (size_t)-1;
		segc_rf_init(&R[n].x);
		if (segc_canon_to_rf(st, segc_args(a)[0], &R[n].x)) {
			segc_rf_clear(&R[n].x);
			for (i = 0; i < n; i++)
				segc_rf_clear(&R[i].x);
			return 0;
		}
		n++;
	}
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n && pairs < SEGC_RELAX_PAIRS; j++)
			if (R[i].partner == (size_t)-1 && R[j].partner ==
				(size_t)-1 && R[i].isceil != R[j].isceil &&
				segc_args(st->atoms[R[i].v])[0] ==
				segc_args(st->atoms[R[j].v])[0]) {
				R[i].partner = j;
				R[j].partner = i;
				R[i].pair = R[j].pair = pairs++;
			}
	return n;
}

/* The value that rounding 'k' of 'R' takes in case 'mask' (bit b set:
 * the argument of pair b is not an integer): the argument itself when
 * it is an integer; else x - f for a floor and x + f for a lone ceil,
 * f a fresh atom in [0, 1] shared by a pair, whose ceil is then
 * x - f + 1. */
static int rounding_value(segc_canon *st, segc_rf *val, struct rounding *R,
	size_t k, unsigned mask)
{
	const struct rounding *r = &R[k];
	int paired = r->partner != (size_t)-1, rc;
	size_t fv = paired && r->isceil ? R[r->partner].v : r->v;
	segc_expr *f;
	segc_rf t;

	segc_rf_set(val, &r->x);
	if (paired && !(mask >> r->pair & 1))
		return 0;
	f = segc_expr_call("_frac", 1, (segc_expr *[]){
		segc_expr_copy(st->atoms[fv]) });
	segc_rf_init(&t);
	segc_poly_set_var(&t.num, segc_canon_var(st, f), 1);
	segc_poly_set_si(&t.den, 1);
	segc_expr_free(f);
	if (!r->isceil || paired)
		segc_poly_neg(&t.num);
	rc = segc_rf_add(st, val, val, &t);
	if (rc == 0 && paired && r->isceil) {
		segc_rf_set_si(st, &t, 1);
		rc = segc_rf_add(st, val, val, &t);
	}
	segc_rf_clear(&t);
	return rc;
}

/* The signs of 'p' proved with its floor and ceil atoms relaxed to
 * their arguments (see rounding_value), in every case of its pairs:
 * only the signs proved in all cases. */
static unsigned relaxed_sign(segc_canon *st, const segc_poly *p)
{
	struct rounding R[SEGC_RELAX_ATOMS];
	size_t n, k, pairs = 0;
	unsigned mask, s = ~0u;
	segc_rf r, val;

	if (st->mode.relaxing >= SEGC_RELAX_DEPTH || !(n = roundings_of(st, p, R)))
		return 0;
	for (k = 0; k < n; k++)
		if (R[k].partner != (size_t)-1 && R[k].pair + 1 > pairs)
			pairs = R[k].pair + 1;
	st->mode.relaxing++;
	segc_rf_init(&r);
	segc_rf_init(&val);
	for (mask = 0; mask < (1u << pairs) && s; mask++) {
		int rc = 0;

		segc_poly_set(&r.num, p);
		segc_poly_set_si(&r.den, 1);
		for (k = 0; k < n && rc == 0; k++) {
			rc = rounding_value(st, &val, R, k, mask);
			if (rc == 0)
				rc = segc_rf_subst_var(st, &r, &r, R[k].v, &val);
		}
		s &= rc ? 0 : segc_kernel_sign(st, &r);
	}
	st->mode.relaxing--;
	segc_rf_clear(&r);
	segc_rf_clear(&val);
	for (k = 0; k < n; k++)
		segc_rf_clear(&R[k].x);
	return s == ~0u ? 0 : s;
}

/* The provable signs of polynomial 'p' on the box, with floor and ceil
 * relaxed to their arguments when their own bounds prove nothing. */
static unsigned poly_sign_plain(segc_canon *st, const segc_poly *p);

/* Most terms of a polynomial that the square test below looks at. */
#define SQUARES_MAX_TERMS 32

/* Non-zero when variable 'v' is >= 0 on the box. */
static int var_nonneg(segc_canon *st, size_t v)
{
	mpq_srcptr lo, hi;
	int integer;

	return segc_kernel_atom_bounds(st, v, &lo, &hi, &integer) ||
		(lo && mpq_sgn(lo) >= 0);
}

/* Non-zero when the monomial of term 'i' of 'q' is >= 0 on the box:
 * every variable of odd exponent is. */
static int monomial_nonneg(segc_canon *st, const segc_poly *q, size_t i)
{
	size_t v;

	for (v = 0; v < segc_poly_nvars(q); v++)
		if (segc_poly_exp(q, i, v) % 2 && !var_nonneg(st, v))
			return 0;
	return 1;
}

/* Non-zero when the monomials of terms 'i' and 'j' of 'q' multiply to the
 * square of that of term 't'. */
static int square_pair(const segc_poly *q, size_t i, size_t j, size_t t)
{
	size_t v;

	for (v = 0; v < segc_poly_nvars(q); v++)
		if (segc_poly_exp(q, i, v) + segc_poly_exp(q, j, v) !=
			2 * segc_poly_exp(q, t, v))
			return 0;
	return 1;
}

/* Cancels the negative term 't' of 'q' against two positive terms
 * a*M_i and b*M_j with M_i*M_j = m_t^2, M_i, M_j >= 0 and c_t^2 <= 4ab:
 * a*M_i + c_t*m_t + (c_t^2/4a)*M_j >= 0 (the arithmetic-geometric mean
 * inequality), so removing it keeps a proof of q >= 0 sound. */
static int cancel_cross_term(segc_canon *st, segc_poly *q, size_t t,
	const uint64_t *h)
{
	size_t i, j;
	mpq_t c2, ab;
	int done = 0;

	mpq_init(c2);
	mpq_init(ab);
	mpq_mul(c2, segc_poly_coeff(q, t), segc_poly_coeff(q, t));
	for (i = 0; i < segc_poly_nterms(q) && !done; i++)
		for (j = 0; j < segc_poly_nterms(q) && !done; j++) {
			mpq_srcptr a = segc_poly_coeff(q, i);
			mpq_srcptr b = segc_poly_coeff(q, j);

			if (i == j || i == t || j == t || mpq_sgn(a) <= 0 ||
			    mpq_sgn(b) <= 0 || h[i] + h[j] != 2 * h[t] ||
			    !square_pair(q, i, j, t))
				continue;
			mpq_mul(ab, a, b);
			mpz_mul_2exp(mpq_numref(ab), mpq_numref(ab), 2);
			mpq_canonicalize(ab);
			if (mpq_cmp(c2, ab) > 0 || !monomial_nonneg(st, q, i) ||
			    !monomial_nonneg(st, q, j))
				continue;
			mpq_div(ab, c2, a);
			mpq_div_2exp(ab, ab, 2);
			mpq_sub(ab, b, ab);
			segc_poly_set_coeff(q, j, ab);
			segc_poly_set_coeff(q, i, st->zero);
			segc_poly_set_coeff(q, t, st->zero);
			done = 1;
		}
	mpq_clear(c2);
	mpq_clear(ab);
	return done;
}

/* h[i] = a hash of the monomial of term i of 'q', linear in its
 * exponents (wrapping), so that M_i*M_j = m_t^2 implies
 * h[i] + h[j] = 2*h[t]: a pair is compared variable by variable only
 * when the hashes allow it. */
static void monomial_hashes(const segc_poly *q, uint64_t *h)
{
	size_t i, k, v, m = 0, n = segc_poly_nvars(q);
	char *used = segc_xmalloc(n ? n : 1);
	size_t *vs = segc_xmalloc((n ? n : 1) * sizeof(*vs));

	/* a large program's polynomials use a few of many atoms: the rows
	 * are read at the variables that occur only */
	segc_poly_used_vars(q, used);
	for (v = 0; v < n; v++)
		if (used[v])
			vs[m++] = v;
	for (i = 0; i < segc_poly_nterms(q); i++) {
		h[i] = 0;
		for (k = 0; k < m; k++) {
			int32_t e = segc_poly_exp(q, i, vs[k]);
			uint64_t w = (uint64_t)(vs[k] + 1) *
				0x9e3779b97f4a7c15ULL;

			if (!e)
				continue;
			w ^= w >> 31;
			h[i] += (uint64_t)(int64_t)e * (w * 0xbf58476d1ce4e5b9ULL);
		}
	}
	free(vs);
	free(used);
}

/* Non-zero when some negative term of 'p' (negated when 'neg') has two
 * positive terms whose monomials multiply to the square of its own: the
 * pairs cancel_cross_term looks for.  Without one, the test by squares
 * cancels nothing (it only ever lowers positive coefficients and clears
 * negative ones, so no pair appears on the way). */
static int cross_term_possible(const segc_poly *p, int neg)
{
	size_t t, i, j, n = segc_poly_nterms(p);
	uint64_t *h = segc_xmalloc((n + 1) * sizeof(*h));
	int found = 0, flip = neg ? -1 : 1;

	monomial_hashes(p, h);
	for (t = 0; t < n && !found; t++) {
		if (flip * mpq_sgn(segc_poly_coeff(p, t)) >= 0)
			continue;
		for (i = 0; i < n && !found; i++)
			for (j = i + 1; j < n && !found; j++)
				found = i != t && j != t &&
					flip * mpq_sgn(segc_poly_coeff(p, i)) > 0 &&
					flip * mpq_sgn(segc_poly_coeff(p, j)) > 0 &&
					h[i] + h[j] == 2 * h[t] &&
					square_pair(p, i, j, t);
	}
	free(h);
	return found;
}

/* Writes every x as sqrt(x)^2 in 'q' where a sqrt(x) atom occurs in it
 * and x >= 0 is proven. */
static void square_sqrt_bases(segc_canon *st, segc_poly *q)
{
	size_t s;

	for (s = 0; st->has_sqrts && s < segc_poly_nvars(q); s++) {
		size_t x = segc_kernel_sqrt_base(st, s);

		if (x == (size_t)-1 || x >= segc_poly_nvars(q))
			continue;
		segc_poly_subst_power(q, x, s, 2);
	}
}

/* Non-zero when 'p' (negated when 'neg') is proven >= 0 as a sum of
 * squares of binomials plus a rest the box proves >= 0: for
 * N^2 + 4*P - 4*N*sqrt(P) = (N - 2*sqrt(P))^2.  Each negative term is
 * cancelled against two positive ones (cancel_cross_term) after x is
 * written as sqrt(x)^2. */
static int squares_nonneg(segc_canon *st, const segc_poly *p, int neg)
{
	segc_poly q;
	size_t t;
	int any = 0, res = 0;

	if (segc_poly_nterms(p) < 3 || segc_poly_nterms(p) > SQUARES_MAX_TERMS)
		return 0;
	/* without square roots the test runs on 'p' itself: see first,
	 * without a copy, whether anything can cancel */
	if (!st->has_sqrts && !cross_term_possible(p, neg))
		return 0;
	segc_poly_init(&q, segc_poly_nvars(p));
	segc_poly_set(&q, p);
	if (neg)
		segc_poly_neg(&q);
	square_sqrt_bases(st, &q);
	if (segc_poly_normalise(&st->lim, &q) == 0) {
		uint64_t *h = segc_xmalloc((segc_poly_nterms(&q) + 1) *
			sizeof(*h));

		monomial_hashes(&q, h);
		for (t = 0; t < segc_poly_nterms(&q); t++)
			if (mpq_sgn(segc_poly_coeff(&q, t)) < 0)
				any |= cancel_cross_term(st, &q, t, h);
		free(h);
		if (any && segc_poly_normalise(&st->lim, &q) == 0)
			res = segc_poly_is_zero(&q) ||
				(poly_sign_plain(st, &q) & SEGC_SIGN_NONNEG);
	}
	segc_poly_clear(&q);
	return res;
}

/* Largest index of a root whose base is written as its power in a sign
 * test, or given a lower bound above 0. */
#define ROOT_SIGN_MAX_INDEX 64

/* The signs the box proves of 'p' once every atom x with a root
 * r = x^(1/q) (q >= 3) in 'p' is written r^q (x = r^q wherever r is
 * defined): N - N^(2/3)/2 = r^3 - r^2/2 >= 0 for N >= 1 (r >= 1). */
static unsigned root_power_sign(segc_canon *st, const segc_poly *p)
{
	segc_poly q;
	size_t s;
	unsigned res = 0;
	int any = 0;

	segc_poly_init(&q, segc_poly_nvars(p));
	segc_poly_set(&q, p);
	for (s = 0; s < segc_poly_nvars(&q); s++) {
		const segc_expr *base;
		unsigned long r;
		void **slot;
		size_t x;

		if (st->atoms[s]->kind != SEGC_POW ||
		    (r = segc_root_index(st->atoms[s], &base)) < 3)
			continue;
		slot = segc_expr_map_find(&st->atom_index, base);
		if (!slot || (x = (size_t)*slot - 1) >= segc_poly_nvars(&q) ||
		    x == s || !segc_poly_has_var(&q, x))
			continue;
		if (r > ROOT_SIGN_MAX_INDEX ||
		    segc_poly_subst_power(&q, x, s, (int32_t)r) < 0) {
			segc_poly_clear(&q);
			return 0;
		}
		any = 1;
	}
	if (any && segc_poly_normalise(&st->lim, &q) == 0)
		res = poly_sign_plain(st, &q);
	segc_poly_clear(&q);
	return res;
}

/* The provable signs of polynomial 'p' on the box, with the test by
 * squares when the box alone proves nothing, and with bases written as
 * powers of their roots. */
unsigned segc_kernel_poly_sign(segc_canon *st, const segc_poly *p)
{
	unsigned s = poly_sign_plain(st, p);

	if (s & (SEGC_SIGN_POS | SEGC_SIGN_NEG))
		return s;
	s |= relaxed_sign(st, p);
	if (!(s & SEGC_SIGN_NONNEG) && squares_nonneg(st, p, 0))
		s |= SEGC_SIGN_NONNEG;
	if (!(s & SEGC_SIGN_NONPOS) && squares_nonneg(st, p, 1))
		s |= SEGC_SIGN_NONPOS;
	if (st->has_roots && !(s & (SEGC_SIGN_POS | SEGC_SIGN_NEG)))
		s |= root_power_sign(st, p);
	return s;
}

/* The provable signs of polynomial 'p' on the box. */
static unsigned poly_sign_plain(segc_canon *st, const segc_poly *p)
{
	char *used = segc_xmalloc(segc_poly_nvars(p) ? segc_poly_nvars(p) : 1);
	int pre = sign_prepass(st, p, used);
	unsigned s = 0;

	if (pre >= 0)
		s = poly_sign_once(st, p, 0, used);
	if (pre > 0)
		s |= poly_sign_once(st, p, 1, used);
	free(used);
	return s;
}

/* The provable signs of 'r' (see canon_private.h). */
unsigned segc_kernel_sign(segc_canon *st, segc_rf *r)
{
	unsigned n = segc_kernel_poly_sign(st, &r->num), d;

	if (segc_rf_is_poly(r))
		return n;
	d = segc_kernel_poly_sign(st, &r->den);
	if (d & (SEGC_SIGN_POS | SEGC_SIGN_NONNEG))
		return n;
	if (d & (SEGC_SIGN_NEG | SEGC_SIGN_NONPOS))
		return ((n & SEGC_SIGN_NONNEG) ? SEGC_SIGN_NONPOS : 0) |
			((n & SEGC_SIGN_NONPOS) ? SEGC_SIGN_NONNEG : 0) |
			((n & SEGC_SIGN_POS) ? SEGC_SIGN_NEG : 0) |
			((n & SEGC_SIGN_NEG) ? SEGC_SIGN_POS : 0);
	return 0;
}

/* The variable of the argument of the sqrt atom 's', when that argument
 * is an atom proven >= 0 (so that x = sqrt(x)^2); else (size_t)-1. */
size_t segc_kernel_sqrt_base(segc_canon *st, size_t s)
{
	const segc_expr *a = st->atoms[s];
	void **slot;
	size_t x;
	segc_rf r;
	unsigned sign;

	if (!segc_expr_is_builtin(a, SEGC_BUILTIN_SQRT) || a->nargs != 1)
		return (size_t)-1;
	slot = segc_expr_map_find(&st->atom_index, segc_args(a)[0]);
	if (!slot)
		return (size_t)-1;
	x = (size_t)*slot - 1;
	segc_rf_init(&r);
	segc_poly_set_var(&r.num, x, 1);
	sign = segc_kernel_sign(st, &r);
	segc_rf_clear(&r);
	return (sign & SEGC_SIGN_NONNEG) ? x : (size_t)-1;
}
