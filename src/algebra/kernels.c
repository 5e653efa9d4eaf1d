/* kernels.c - simplification of the built-in functions (max, min, ceil,
 * floor, log2, sqrt) on canonical arguments, sound on the declared
 * domains: names not declared are unconstrained.
 *
 * Signs are proven over the box of the domains: each variable with a lower
 * bound is replaced by lo + y (y >= 0), or with only an upper bound by
 * hi - y; the polynomial is expanded and its sign is proven when every
 * coefficient has that sign (unbounded names must occur with even
 * exponents).  A second attempt prefers the upper bounds.  For a rational
 * function the signs of numerator and denominator are combined. */
#include <stdlib.h>
#include <string.h>
#include "algebra/canon_private.h"
#include "base/util.h"

static size_t sqrt_base(segc_canon *st, size_t s);

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
		return low_of(st, a->args[2]) > 1 ? 2 : 1;
	if (a->kind != SEGC_CALL)
		return 1;
	if (segc_builtin_get(segc_expr_builtin(a))->eval == SEGC_EVAL_ROUND &&
	    a->nargs == 1) {
		segc_rf r;
		unsigned s = 0;

		k = low_of(st, a->args[0]);
		if (k == 2 && segc_expr_is_builtin(a, SEGC_BUILTIN_CEIL)) {
			segc_rf_init(&r);
			if (segc_canon_to_rf(st, a->args[0], &r) == 0)
				s = segc_kernel_sign(st, &r);
			segc_rf_clear(&r);
			if (s & SEGC_SIGN_POS)
				k = 3;
		}
		return k;
	}
	if (segc_expr_is_builtin(a, SEGC_BUILTIN_LOG2) && a->nargs == 1) {
		segc_expr *h = segc_expr_mul2(segc_expr_rat(1, 2),
			segc_expr_copy(a->args[0]));

		k = low_of(st, h);
		segc_expr_free(h);
		return k == 3 ? 3 : low_of(st, a->args[0]) == 3 ? 2 : 1;
	}
	if (segc_builtin_get(segc_expr_builtin(a))->eval == SEGC_EVAL_EXTREMUM
	    || segc_expr_is_builtin(a, SEGC_BUILTIN_IF)) {
		int ismax = segc_expr_is_builtin(a, SEGC_BUILTIN_MAX);

		best = ismax ? 1 : 3;
		for (i = segc_expr_is_builtin(a, SEGC_BUILTIN_IF); i < a->nargs;
		     i++) {
			k = low_of(st, a->args[i]);
			best = ismax ? (k > best ? k : best) :
				(k < best ? k : best);
		}
		return best;
	}
	return 1;
}

/* The bounds of the atom of variable 'v' ('lo'/'hi' set or left NULL);
 * returns non-zero when the atom is >= 0 by its nature (a sqrt).  The
 * counter of a sum being converted is an integer. */
static int atom_bounds(segc_canon *st, size_t v, mpq_srcptr *lo,
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
		return 1;
	if (is_call(a, "_frac")) {
		*lo = st->zero;
		*hi = st->one;
		return 0;
	}
	*integer = segc_builtin_get(segc_expr_builtin(a))->eval ==
		SEGC_EVAL_ROUND;
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
	size_t i, v, n = q->nvars;

	if (q->len == 0)
		return SEGC_SIGN_NONNEG | SEGC_SIGN_NONPOS;
	for (i = 0; i < q->len; i++) {
		const int32_t *e = q->exps + i * n;
		int s = mpq_sgn(q->coefs[i]), isconst = 1;

		for (v = 0; v < n; v++) {
			if (e[v])
				isconst = 0;
			if (isfree[v] && (e[v] % 2))
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

/* Replaces x_v in 'q' by lo + x_v (sign = 1) or hi - x_v (sign = -1). */
static int shift_var(const segc_poly_lim *lim, segc_poly *q, size_t v,
	mpq_srcptr c, int sign)
{
	segc_poly s, k;
	int rc;

	segc_poly_init(&s, q->nvars);
	segc_poly_init(&k, q->nvars);
	segc_poly_set_var(&s, v, 1);
	if (sign < 0)
		segc_poly_neg(&s);
	segc_poly_set_q(&k, c);
	rc = segc_poly_add(lim, &s, &s, &k);
	if (rc == 0)
		rc = segc_poly_compose_var(lim, q, q, v, &s);
	segc_poly_clear(&s);
	segc_poly_clear(&k);
	return rc;
}

/* Prepares variable v of 'q' for the sign test; returns 0, or -1 when no
 * sign can be proven.  'upper' prefers upper bounds. */
static int box_var(segc_canon *st, const segc_poly_lim *lim, segc_poly *q,
	size_t v, int upper, char *isfree)
{
	mpq_srcptr lo, hi;
	int integer, nonneg = atom_bounds(st, v, &lo, &hi, &integer);
	int32_t mn = segc_poly_min_degree(q, v);

	if (mn < 0) {
		int32_t *d;
		int rc;

		if (!nonneg && (!lo || mpq_sgn(lo) < 0))
			return -1;
		d = segc_xcalloc(q->nvars, sizeof(int32_t));
		d[v] = -mn;
		rc = segc_poly_shift(lim, q, d);
		free(d);
		if (rc)
			return -1;
	}
	if (nonneg)
		return 0;
	if (hi && (upper || !lo))
		return shift_var(lim, q, v, hi, -1);
	if (lo)
		return mpq_sgn(lo) ? shift_var(lim, q, v, lo, 1) : 0;
	isfree[v] = 1;
	return 0;
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

	segc_poly_init(&q, p->nvars);
	segc_poly_set(&q, p);
	isfree = segc_xcalloc(q.nvars ? q.nvars : 1, 1);
	lim.max_exponent = segc_ctx_limits(st->ctx)->max_exponent;
	for (v = 0; v < q.nvars; v++)
		if (used[v] && box_var(st, &lim, &q, v, upper, isfree))
			break;
	if (v == q.nvars)
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
	size_t i, v, n = p->nvars;
	int both = 0;

	segc_poly_used_vars(p, used);
	for (v = 0; v < n; v++) {
		mpq_srcptr lo, hi;
		int integer;

		if (!used[v] || atom_bounds(st, v, &lo, &hi, &integer))
			continue;
		if (lo && hi)
			both = 1;
		if (lo || hi)
			continue;
		for (i = 0; i < p->len; i++)
			if (p->exps[i * n + v] % 2)
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

	for (v = 0; v < p->nvars && n < SEGC_RELAX_ATOMS; v++) {
		const segc_expr *a = st->atoms[v];

		if (!segc_poly_has_var(p, v) || a->kind != SEGC_CALL ||
			a->nargs != 1 || segc_builtin_get(segc_expr_builtin(a))->eval
			!= SEGC_EVAL_ROUND || segc_poly_min_degree(p, v) < 0)
			continue;
		R[n].v = v;
		R[n].isceil = segc_expr_is_builtin(a, SEGC_BUILTIN_CEIL);
		R[n].partner = (size_t)-1;
		segc_rf_init(&R[n].x);
		if (segc_canon_to_rf(st, a->args[0], &R[n].x)) {
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
				st->atoms[R[i].v]->args[0] ==
				st->atoms[R[j].v]->args[0]) {
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

	if (st->relaxing >= SEGC_RELAX_DEPTH || !(n = roundings_of(st, p, R)))
		return 0;
	for (k = 0; k < n; k++)
		if (R[k].partner != (size_t)-1 && R[k].pair + 1 > pairs)
			pairs = R[k].pair + 1;
	st->relaxing++;
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
	st->relaxing--;
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

	return atom_bounds(st, v, &lo, &hi, &integer) ||
		(lo && mpq_sgn(lo) >= 0);
}

/* Non-zero when the monomial of term 'i' of 'q' is >= 0 on the box:
 * every variable of odd exponent is. */
static int monomial_nonneg(segc_canon *st, const segc_poly *q, size_t i)
{
	size_t v;

	for (v = 0; v < q->nvars; v++)
		if (segc_poly_exp(q, i, v) % 2 && !var_nonneg(st, v))
			return 0;
	return 1;
}

/* Non-zero when the monomials of terms 'i' and 'j' of 'q' multiply to the
 * square of that of term 't'. */
static int square_pair(const segc_poly *q, size_t i, size_t j, size_t t)
{
	size_t v;

	for (v = 0; v < q->nvars; v++)
		if (segc_poly_exp(q, i, v) + segc_poly_exp(q, j, v) !=
			2 * segc_poly_exp(q, t, v))
			return 0;
	return 1;
}

/* Cancels the negative term 't' of 'q' against two positive terms
 * a*M_i and b*M_j with M_i*M_j = m_t^2, M_i, M_j >= 0 and c_t^2 <= 4ab:
 * a*M_i + c_t*m_t + (c_t^2/4a)*M_j >= 0 (the arithmetic-geometric mean
 * inequality), so removing it keeps a proof of q >= 0 sound. */
static int cancel_cross_term(segc_canon *st, segc_poly *q, size_t t)
{
	size_t i, j;
	mpq_t c2, ab;
	int done = 0;

	mpq_init(c2);
	mpq_init(ab);
	mpq_mul(c2, q->coefs[t], q->coefs[t]);
	for (i = 0; i < q->len && !done; i++)
		for (j = 0; j < q->len && !done; j++) {
			if (i == j || i == t || j == t ||
			    mpq_sgn(q->coefs[i]) <= 0 ||
			    mpq_sgn(q->coefs[j]) <= 0 || !square_pair(q, i, j, t))
				continue;
			mpq_mul(ab, q->coefs[i], q->coefs[j]);
			mpz_mul_2exp(mpq_numref(ab), mpq_numref(ab), 2);
			mpq_canonicalize(ab);
			if (mpq_cmp(c2, ab) > 0 || !monomial_nonneg(st, q, i) ||
			    !monomial_nonneg(st, q, j))
				continue;
			mpq_div(ab, c2, q->coefs[i]);
			mpq_div_2exp(ab, ab, 2);
			mpq_sub(q->coefs[j], q->coefs[j], ab);
			mpq_set_ui(q->coefs[i], 0, 1);
			mpq_set_ui(q->coefs[t], 0, 1);
			done = 1;
		}
	mpq_clear(c2);
	mpq_clear(ab);
	return done;
}

/* Writes every x as sqrt(x)^2 in 'q' where a sqrt(x) atom occurs in it
 * and x >= 0 is proven. */
static void square_sqrt_bases(segc_canon *st, segc_poly *q)
{
	size_t s, k;

	for (s = 0; s < q->nvars; s++) {
		size_t x = sqrt_base(st, s);

		if (x == (size_t)-1 || x >= q->nvars)
			continue;
		for (k = 0; k < q->len; k++) {
			int32_t *e = q->exps + k * q->nvars;

			e[s] += 2 * e[x];
			e[x] = 0;
		}
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

	if (p->len < 3 || p->len > SQUARES_MAX_TERMS)
		return 0;
	segc_poly_init(&q, p->nvars);
	segc_poly_set(&q, p);
	if (neg)
		segc_poly_neg(&q);
	square_sqrt_bases(st, &q);
	if (segc_poly_normalise(&st->lim, &q) == 0) {
		for (t = 0; t < q.len; t++)
			if (mpq_sgn(q.coefs[t]) < 0)
				any |= cancel_cross_term(st, &q, t);
		if (any && segc_poly_normalise(&st->lim, &q) == 0)
			res = segc_poly_is_zero(&q) ||
				(poly_sign_plain(st, &q) & SEGC_SIGN_NONNEG);
	}
	segc_poly_clear(&q);
	return res;
}

static unsigned poly_sign(segc_canon *st, const segc_poly *p)
{
	unsigned s = poly_sign_plain(st, p);

	if (s & (SEGC_SIGN_POS | SEGC_SIGN_NEG))
		return s;
	s |= relaxed_sign(st, p);
	if (!(s & SEGC_SIGN_NONNEG) && squares_nonneg(st, p, 0))
		s |= SEGC_SIGN_NONNEG;
	if (!(s & SEGC_SIGN_NONPOS) && squares_nonneg(st, p, 1))
		s |= SEGC_SIGN_NONPOS;
	return s;
}

/* The provable signs of polynomial 'p' on the box. */
static unsigned poly_sign_plain(segc_canon *st, const segc_poly *p)
{
	char *used = segc_xmalloc(p->nvars ? p->nvars : 1);
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
	unsigned n = poly_sign(st, &r->num), d;

	if (segc_rf_is_poly(r))
		return n;
	d = poly_sign(st, &r->den);
	if (d & (SEGC_SIGN_POS | SEGC_SIGN_NONNEG))
		return n;
	if (d & (SEGC_SIGN_NEG | SEGC_SIGN_NONPOS))
		return ((n & SEGC_SIGN_NONNEG) ? SEGC_SIGN_NONPOS : 0) |
			((n & SEGC_SIGN_NONPOS) ? SEGC_SIGN_NONNEG : 0) |
			((n & SEGC_SIGN_POS) ? SEGC_SIGN_NEG : 0) |
			((n & SEGC_SIGN_NEG) ? SEGC_SIGN_POS : 0);
	return 0;
}

/* Non-zero when the monomial of term i of 'p' is an integer on the box. */
static int monomial_integer_valued(segc_canon *st, const segc_poly *p,
	size_t i)
{
	size_t v;

	for (v = 0; v < p->nvars; v++) {
		int32_t e = segc_poly_exp(p, i, v);
		mpq_srcptr lo, hi;
		int integer;

		if (e < 0)
			return 0;
		if (e == 0)
			continue;
		atom_bounds(st, v, &lo, &hi, &integer);
		if (!integer)
			return 0;
	}
	return 1;
}

/* Non-zero when term i of 'p' is an integer on the box. */
static int term_integer_valued(segc_canon *st, const segc_poly *p, size_t i)
{
	return !mpz_cmp_ui(mpq_denref(p->coefs[i]), 1) &&
		monomial_integer_valued(st, p, i);
}

/* Non-zero when every term of 'p' is an integer on the box. */
int segc_kernel_integer_valued(segc_canon *st, const segc_poly *p)
{
	size_t i;

	for (i = 0; i < p->len; i++)
		if (!term_integer_valued(st, p, i))
			return 0;
	return 1;
}

/* ------------------------------------------------------------ helpers */

/* The canonical form of 'e' (taken) inside 'st'. */
static segc_expr *recanon(segc_canon *st, segc_expr *e)
{
	segc_expr *r;

	if (!e)
		return NULL;
	r = segc_canon_expr(st, e);
	segc_expr_free(e);
	return r;
}

/* ----------------------------------------------------------- max, min */

/* The normal form of max and min (doc/algebra.md): the arguments are
 * brought to a list of alternatives; the part common to all of them is
 * taken out; an alternative with exactly one extremum atom is replaced by
 * its expansions; provably dominated alternatives are dropped; the
 * content is taken out and what stays is sorted.
 *
 *   extraction    max(a + x, a + y) = a + max(x, y), and
 *                 max(g*m*x, g*m*y) = g*m*max(x, y) for a number g > 0 and
 *                 a monomial m >= 0 on the domains;
 *                 where a is the termwise minimum of the alternatives (an
 *                 absent monomial counting as 0; an extremum atom is a
 *                 monomial like any other);
 *   distribution  c + K*max(x, y) = max(c + K*x, c + K*y) for K >= 0
 *                 c + K*min(x, y) = max(c + K*x, c + K*y) for K <= 0
 *                 (the same for min with the kinds exchanged), only when
 *                 max(x, y) is the one extremum atom of the alternative.
 * An alternative with two or more extremum atoms is not distributed, and
 * the extrema of a sum are not merged: distributing products of extrema
 * would make the size of the form exponential (a sequence of k forks would
 * give 2^k alternatives).  The extraction comes first, so that the atoms
 * shared by all alternatives (the time of a common predecessor) go out
 * before any distribution.  max and min are not turned into each other:
 * -max(x, y) and min(-x, -y) stay different forms. */

/* More alternatives than this are not distributed further (the form stays
 * correct but is no longer canonical). */
#define EXTREMUM_MAX_ALTS 64

/* Rounds of extraction, distribution and pruning at most (a guard: each
 * round distributes or drops something, and the number of alternatives is
 * bounded). */
#define EXTREMUM_MAX_ROUNDS 4096

/* One alternative of a max/min being normalised. */
struct alt {
	segc_rf r;
	segc_expr *e;   /* its canonical expression, once built */
};

/* A growable list of alternatives. */
struct alts {
	struct alt *v;
	size_t n, cap;
};

/* Appends 'x' (moved) to 'a'. */
static void alts_append(struct alts *a, const struct alt *x)
{
	if (a->n == a->cap) {
		a->cap = a->cap ? 2 * a->cap : 8;
		a->v = segc_xrealloc(a->v, segc_xmul_size(a->cap, sizeof(*a->v)));
	}
	a->v[a->n++] = *x;
}

/* A new zero alternative at the end of 'a'. */
static struct alt *alts_push(struct alts *a)
{
	struct alt x;

	segc_rf_init(&x.r);
	x.e = NULL;
	alts_append(a, &x);
	return &a->v[a->n - 1];
}

/* Releases the alternatives of 'a'. */
static void alts_clear(struct alts *a)
{
	size_t i;

	for (i = 0; i < a->n; i++) {
		segc_rf_clear(&a->v[i].r);
		segc_expr_free(a->v[i].e);
	}
	free(a->v);
	a->v = NULL;
	a->n = a->cap = 0;
}

/* 1 when atom 'a' is an extremum of the same kind as the one normalised
 * (ismax), -1 of the other kind, 0 otherwise. */
static int extremum_kind(const segc_expr *a, int ismax)
{
	if (segc_expr_is_builtin(a, SEGC_BUILTIN_MAX))
		return ismax ? 1 : -1;
	if (segc_expr_is_builtin(a, SEGC_BUILTIN_MIN))
		return ismax ? -1 : 1;
	return 0;
}

/* Non-zero when atom 'v' is a max or a min. */
static int is_extremum(const segc_canon *st, size_t v)
{
	return (st->flags[v] & SEGC_ATOM_EXTREMUM) != 0;
}

/* The one extremum atom of polynomial 'p', or (size_t)-1 when it has none
 * or several. */
static size_t sole_extremum(segc_canon *st, const segc_poly *p)
{
	size_t v, found = (size_t)-1;

	for (v = 0; v < p->nvars; v++)
		if (is_extremum(st, v) && segc_poly_has_var(p, v)) {
			if (found != (size_t)-1)
				return (size_t)-1;
			found = v;
		}
	return found;
}

/* The variable of the polynomial 'r' that distributes into an extremum of
 * kind 'ismax': the only extremum atom of 'r', in which 'r' is linear with
 * a coefficient K (set) provably >= 0 for the same kind, <= 0 for the
 * other.  Returns (size_t)-1 when there is none. */
static size_t find_distributable(segc_canon *st, segc_rf *r, int ismax,
	segc_rf *K)
{
	size_t v;
	int kind;

	if (!segc_rf_is_poly(r))
		return (size_t)-1;
	v = sole_extremum(st, &r->num);
	if (v == (size_t)-1)
		return v;
	kind = extremum_kind(st->atoms[v], ismax);
	if (segc_poly_degree(&r->num, v) != 1 ||
		segc_poly_min_degree(&r->num, v) < 0)
		return (size_t)-1;
	segc_poly_coeff_var(&K->num, &r->num, v, 1);
	segc_poly_set_si(&K->den, 1);
	if (segc_kernel_sign(st, K) &
		(kind > 0 ? SEGC_SIGN_NONNEG : SEGC_SIGN_NONPOS))
		return v;
	return (size_t)-1;
}

/* Pushes on 'work' the alternatives rest + K*x_j of 'r' = rest + K*M,
 * M = atom v with arguments x_j. */
static int distribute(segc_canon *st, segc_rf *r, size_t v, segc_rf *K,
	struct alts *work)
{
	const segc_expr *m = st->atoms[v];
	segc_rf rest, x;
	size_t j;
	int rc = 0;

	segc_rf_init(&rest);
	segc_rf_init(&x);
	segc_poly_coeff_var(&rest.num, &r->num, v, 0);
	for (j = 0; j < m->nargs && rc == 0; j++) {
		rc = segc_canon_to_rf(st, m->args[j], &x);
		if (rc == 0)
			rc = segc_rf_mul(st, &x, &x, K);
		if (rc == 0)
			rc = segc_rf_add(st, &alts_push(work)->r, &rest, &x);
	}
	segc_rf_clear(&rest);
	segc_rf_clear(&x);
	return rc;
}

/* One round of distribution: every alternative of 'a' with a
 * distributable extremum is replaced by its expansions, as long as the
 * list stays within EXTREMUM_MAX_ALTS.  Returns the number of
 * alternatives replaced, or -1 with a diagnostic. */
static int distribute_round(segc_canon *st, struct alts *a, int ismax)
{
	struct alts out = { NULL, 0, 0 };
	size_t i, total = a->n;
	segc_rf K;
	int count = 0, rc = 0;

	segc_rf_init(&K);
	for (i = 0; i < a->n; i++) {
		struct alt *x = &a->v[i];
		size_t v = rc == 0 ? find_distributable(st, &x->r, ismax, &K) :
			(size_t)-1;

		if (v == (size_t)-1 ||
			total - 1 + st->atoms[v]->nargs > EXTREMUM_MAX_ALTS) {
			alts_append(&out, x);
			continue;
		}
		total += st->atoms[v]->nargs - 1;
		rc = distribute(st, &x->r, v, &K, &out);
		segc_rf_clear(&x->r);
		segc_expr_free(x->e);
		count++;
	}
	segc_rf_clear(&K);
	free(a->v);
	*a = out;
	return rc ? -1 : count;
}

/* qsort order of alternatives by their canonical expressions. */
static int alt_cmp(const void *a, const void *b)
{
	return segc_expr_cmp(((const struct alt *)a)->e,
		((const struct alt *)b)->e);
}

/* Builds the canonical expression of every alternative, sorts them and
 * drops duplicates. */
static int sort_alts(segc_canon *st, struct alts *a)
{
	size_t i, m = 0;

	for (i = 0; i < a->n; i++) {
		segc_expr_free(a->v[i].e);
		a->v[i].e = segc_canon_from_rf(st, &a->v[i].r);
		if (!a->v[i].e)
			return -1;
	}
	qsort(a->v, a->n, sizeof(*a->v), alt_cmp);
	for (i = 0; i < a->n; i++) {
		if (m && a->v[m - 1].e == a->v[i].e) {
			segc_rf_clear(&a->v[i].r);
			segc_expr_free(a->v[i].e);
		} else {
			a->v[m++] = a->v[i];
		}
	}
	a->n = m;
	return 0;
}

/* Lexicographic order of term i of 'p' and term j of 'q' over 'n'
 * variables: >0 when the first is the larger monomial. */
static int term_cmp(const segc_poly *p, size_t i, const segc_poly *q,
	size_t j, size_t n)
{
	size_t v;

	for (v = 0; v < n; v++) {
		int32_t a = segc_poly_exp(p, i, v), b = segc_poly_exp(q, j, v);

		if (a != b)
			return a > b ? 1 : -1;
	}
	return 0;
}

/* Non-zero when the monomial of term t of 'p' is a product of atoms >= 0
 * with no other bound, to non-negative powers. */
static int plain_monomial(const segc_canon *st, const segc_poly *p, size_t t)
{
	const int32_t *e = p->exps + t * p->nvars;
	size_t v;

	for (v = 0; v < p->nvars; v++)
		if (e[v] < 0 || (e[v] && !(st->flags[v] & SEGC_ATOM_NONNEG)))
			return 0;
	return 1;
}

/* The sign test of a - b for polynomials whose differing terms are plain
 * monomials (no substitution is needed, so the test is the signs of the
 * coefficients), by a merge without arithmetic: 1 when a - b has the sign
 * 'want' (NONNEG or NONPOS), 0 when it has not, -1 when the test does not
 * apply. */
static int proves_plain(const segc_canon *st, const segc_poly *a,
	const segc_poly *b, unsigned want)
{
	size_t i = 0, j = 0, n = a->nvars > b->nvars ? a->nvars : b->nvars;
	int bad = 0;

	while (i < a->len || j < b->len) {
		int k = i == a->len ? -1 : j == b->len ? 1 :
			term_cmp(a, i, b, j, n), s;
		const segc_poly *p = k >= 0 ? a : b;
		size_t t = k >= 0 ? i : j;

		if (k > 0)
			s = mpq_sgn(a->coefs[i]);
		else if (k < 0)
			s = -mpq_sgn(b->coefs[j]);
		else
			s = mpq_cmp(a->coefs[i], b->coefs[j]);
		i += k >= 0;
		j += k <= 0;
		if (s == 0)
			continue;
		if (!plain_monomial(st, p, t))
			return -1;
		if (want == SEGC_SIGN_NONNEG ? s < 0 : s > 0)
			bad = 1;
	}
	return !bad;
}

/* Non-zero when a - b provably has the sign 'want'. */
static int proves(segc_canon *st, segc_rf *a, segc_rf *b, unsigned want)
{
	segc_rf d;
	unsigned s = 0;

	if (segc_rf_is_poly(a) && segc_rf_is_poly(b)) {
		int k = proves_plain(st, &a->num, &b->num, want);

		if (k >= 0)
			return k;
	}
	segc_rf_init(&d);
	if (segc_rf_sub(st, &d, a, b) == 0)
		s = segc_kernel_sign(st, &d);
	segc_rf_clear(&d);
	return (s & want) != 0;
}

/* fp = the terms of polynomial 'p' with an odd power of an unbounded
 * atom.  When two alternatives differ there, their difference keeps such
 * a term and has no provable sign: the test is skipped. */
static void free_part(segc_canon *st, segc_poly *fp, const segc_poly *p)
{
	size_t i, v, n = p->nvars;

	segc_poly_zero(fp);
	segc_poly_extend(fp, n);
	for (i = 0; i < p->len; i++) {
		const int32_t *e = p->exps + i * n;

		for (v = 0; v < n; v++)
			if ((e[v] % 2) && (st->flags[v] & SEGC_ATOM_UNBOUNDED))
				break;
		if (v < n)
			segc_poly_push(fp, e, p->coefs[i]);
	}
}

/* What the domination test knows of one alternative beforehand. */
struct dom_info {
	segc_poly fp;          /* free part (free_part) */
	uint64_t fph;          /* its hash */
	uint64_t pos, neg, all; /* hashed monomials: positive, negative, all */
	mpq_t total;           /* sum of the coefficients */
	int poly, plain;       /* a polynomial; all its monomials plain */
};

/* A hash of the monomial of term t of 'p' (equal monomials, whatever
 * their number of variables, get the same hash). */
static uint64_t monomial_hash(const segc_poly *p, size_t t)
{
	const int32_t *e = p->exps + t * p->nvars;
	uint64_t h = 0x9e3779b97f4a7c15ULL;
	size_t v;

	for (v = 0; v < p->nvars; v++)
		if (e[v])
			h = (h ^ ((uint64_t)v * 0x100000001b3ULL +
				(uint64_t)(uint32_t)e[v])) * 0xff51afd7ed558ccdULL;
	return h;
}

/* A bit for the monomial of term t of 'p'. */
static uint64_t monomial_bit(const segc_poly *p, size_t t)
{
	return (uint64_t)1 << (monomial_hash(p, t) >> 58);
}

/* A hash of polynomial 'p', equal for equal polynomials. */
static uint64_t poly_hash(const segc_poly *p)
{
	uint64_t h = p->len;
	size_t t;

	for (t = 0; t < p->len; t++)
		h = h * 31 + (monomial_hash(p, t) ^
			(uint64_t)mpz_get_ui(mpq_numref(p->coefs[t])) ^
			((uint64_t)mpz_sgn(mpq_numref(p->coefs[t])) << 63) ^
			((uint64_t)mpz_get_ui(mpq_denref(p->coefs[t])) << 32));
	return h;
}

/* Fills 'd' for alternative 'x'. */
static void dom_info_init(segc_canon *st, struct dom_info *d,
	const struct alt *x)
{
	const segc_poly *p = &x->r.num;
	size_t t;

	segc_poly_init(&d->fp, 0);
	d->fph = 0;
	mpq_init(d->total);
	d->pos = d->neg = d->all = 0;
	d->poly = segc_rf_is_poly(&x->r);
	d->plain = d->poly;
	if (!d->poly)
		return;
	free_part(st, &d->fp, p);
	d->fph = poly_hash(&d->fp);
	for (t = 0; t < p->len; t++) {
		uint64_t bit = monomial_bit(p, t);

		d->all |= bit;
		if (mpq_sgn(p->coefs[t]) > 0)
			d->pos |= bit;
		else
			d->neg |= bit;
		mpq_add(d->total, d->total, p->coefs[t]);
		if (d->plain && !plain_monomial(st, p, t))
			d->plain = 0;
	}
}

/* Non-zero when alternative j may dominate alternative i (a - b >= 0 for
 * a = j, b = i when 'ismax'; <= 0 otherwise); zero when a cheap
 * necessary condition fails.  For plain polynomials the test is
 * coefficientwise, so a positive monomial of the smaller one must be in
 * the larger one, and so must the negative monomials of the larger one,
 * and the sums of coefficients must be in order. */
static int may_dominate(const struct dom_info *d, size_t i, size_t j,
	int ismax)
{
	const struct dom_info *hi = ismax ? &d[j] : &d[i];
	const struct dom_info *lo = ismax ? &d[i] : &d[j];

	if (!d[i].poly || !d[j].poly)
		return 1;
	if (d[i].plain && d[j].plain)
		return !(lo->pos & ~hi->all) && !(hi->neg & ~lo->all) &&
			mpq_cmp(hi->total, lo->total) >= 0;
	return d[i].fph == d[j].fph && segc_poly_equal(&d[i].fp, &d[j].fp);
}

/* Drops the alternatives that another one provably dominates (in the
 * sorted order, so that the outcome is deterministic). */
static void drop_dominated(segc_canon *st, struct alts *a, int ismax)
{
	unsigned want = ismax ? SEGC_SIGN_NONNEG : SEGC_SIGN_NONPOS;
	char *gone = segc_xcalloc(a->n ? a->n : 1, 1);
	struct dom_info *d = segc_xmalloc((a->n ? a->n : 1) * sizeof(*d));
	size_t i, j, m = 0;

	for (i = 0; i < a->n; i++)
		dom_info_init(st, &d[i], &a->v[i]);
	for (i = 0; i < a->n; i++)
		for (j = 0; j < a->n && !gone[i]; j++)
			if (j != i && !gone[j] && may_dominate(d, i, j, ismax) &&
				proves(st, &a->v[j].r, &a->v[i].r, want))
				gone[i] = 1;
	for (i = 0; i < a->n; i++) {
		segc_poly_clear(&d[i].fp);
		mpq_clear(d[i].total);
		if (gone[i]) {
			segc_rf_clear(&a->v[i].r);
			segc_expr_free(a->v[i].e);
		} else {
			a->v[m++] = a->v[i];
		}
	}
	a->n = m;
	free(gone);
	free(d);
}

/* c = the termwise minimum of 'c' and 'p': for each monomial the smaller
 * of its two coefficients, an absent monomial counting as 0. */
static void min_terms(segc_poly *c, const segc_poly *p)
{
	size_t n = c->nvars > p->nvars ? c->nvars : p->nvars;
	size_t i = 0, j = 0;
	int32_t *e = segc_xmalloc((n ? n : 1) * sizeof(int32_t));
	segc_poly r;

	segc_poly_extend(c, n);
	segc_poly_init(&r, n);
	while (i < c->len || j < p->len) {
		int k = i == c->len ? -1 : j == p->len ? 1 :
			term_cmp(c, i, p, j, n);

		if (k > 0) {
			if (mpq_sgn(c->coefs[i]) < 0)
				segc_poly_push(&r, c->exps + i * n, c->coefs[i]);
			i++;
		} else if (k < 0) {
			if (mpq_sgn(p->coefs[j]) < 0) {
				size_t v;

				for (v = 0; v < n; v++)
					e[v] = segc_poly_exp(p, j, v);
				segc_poly_push(&r, e, p->coefs[j]);
			}
			j++;
		} else {
			segc_poly_push(&r, c->exps + i * n,
				mpq_cmp(c->coefs[i], p->coefs[j]) <= 0 ?
				c->coefs[i] : p->coefs[j]);
			i++;
			j++;
		}
	}
	segc_poly_swap(c, &r);
	segc_poly_clear(&r);
	free(e);
}

/* Drops from 'm' the terms with a negative coefficient and an extremum
 * atom of the other kind than 'ismax': -K*min(x, y) (K >= 0) distributes
 * into a max, so it stays in the alternatives. */
static void keep_distributable(segc_canon *st, segc_poly *m, int ismax)
{
	size_t i, v, k = 0, n = m->nvars;

	for (i = 0; i < m->len; i++) {
		int drop = 0;

		if (mpq_sgn(m->coefs[i]) < 0)
			for (v = 0; v < n && !drop; v++)
				drop = m->exps[i * n + v] &&
					extremum_kind(st->atoms[v], ismax) < 0;
		if (drop)
			continue;
		if (k != i) {
			memmove(m->exps + k * n, m->exps + i * n,
				n * sizeof(int32_t));
			mpq_swap(m->coefs[k], m->coefs[i]);
		}
		k++;
	}
	for (i = k; i < m->len; i++)
		mpq_clear(m->coefs[i]);
	m->len = k;
}

/* Takes out of the polynomial alternatives their termwise minimum (an
 * absent monomial counts as 0) and adds it to 'c': afterwards every
 * monomial has coefficients >= 0 in all alternatives and 0 in at least
 * one (but those of keep_distributable).  Adding the same polynomial to
 * every alternative adds it to 'c' and leaves the rest unchanged, which
 * is what makes c + max(...) canonical. */
static int extract_common(segc_canon *st, struct alts *a, int ismax,
	segc_poly *c)
{
	segc_poly m;
	size_t i;
	int rc = 0;

	segc_poly_init(&m, 0);
	segc_poly_set(&m, &a->v[0].r.num);
	for (i = 1; i < a->n; i++)
		min_terms(&m, &a->v[i].r.num);
	if (st->has_extrema)
		keep_distributable(st, &m, ismax);
	for (i = 0; i < a->n && m.len && rc == 0; i++)
		rc = segc_poly_sub(&st->lim, &a->v[i].r.num, &a->v[i].r.num, &m);
	if (rc == 0 && m.len)
		rc = segc_poly_add(&st->lim, c, c, &m);
	segc_poly_clear(&m);
	return rc;
}

/* The variable of the argument of the sqrt atom 's', when that argument
 * is an atom proven >= 0 (so that x = sqrt(x)^2); else (size_t)-1. */
static size_t sqrt_base(segc_canon *st, size_t s)
{
	const segc_expr *a = st->atoms[s];
	void **slot;
	size_t x;
	segc_rf r;
	unsigned sign;

	if (!segc_expr_is_builtin(a, SEGC_BUILTIN_SQRT) || a->nargs != 1)
		return (size_t)-1;
	slot = segc_expr_map_find(&st->atom_index, a->args[0]);
	if (!slot)
		return (size_t)-1;
	x = (size_t)*slot - 1;
	segc_rf_init(&r);
	segc_poly_set_var(&r.num, x, 1);
	sign = segc_kernel_sign(st, &r);
	segc_rf_clear(&r);
	return (sign & SEGC_SIGN_NONNEG) ? x : (size_t)-1;
}

/* The smallest "half exponent" e_s + 2*e_x of sqrt atom 's' and its
 * argument 'x' over the terms of the alternatives 'a'. */
static int32_t half_content(const struct alts *a, size_t s, size_t x)
{
	int32_t m = INT32_MAX;
	size_t i, k;

	for (i = 0; i < a->n; i++) {
		const segc_poly *p = &a->v[i].r.num;

		for (k = 0; k < p->len; k++) {
			int32_t h = (s < p->nvars ? segc_poly_exp(p, k, s) : 0) +
				2 * (x < p->nvars ? segc_poly_exp(p, k, x) : 0);

			if (h < m)
				m = h;
		}
	}
	return m;
}

/* Divides every term of polynomial 'p' by sqrt(x)^m (variables 's' =
 * sqrt(x) and 'x'), written back with s to the power 0 or 1. */
static int divide_half(segc_canon *st, segc_poly *p, size_t s, size_t x,
	int32_t m)
{
	size_t k, n = s > x ? s + 1 : x + 1;

	segc_poly_extend(p, n);
	for (k = 0; k < p->len; k++) {
		int32_t *e = p->exps + k * p->nvars;
		int32_t h = e[s] + 2 * e[x] - m;

		e[x] = h / 2;
		e[s] = h % 2;
	}
	return segc_poly_normalise(&st->lim, p);
}

/* The second part of the content: sqrt(x)^m taken out of alternatives in
 * which every term holds x^i*sqrt(x)^j with j + 2*i >= m, for x >= 0
 * proven: max(a*P, b*sqrt(P)) = sqrt(P)*max(a*sqrt(P), b).  'mexp' (of
 * 'n' variables) is multiplied by what is taken out. */
static int extract_sqrt_content(segc_canon *st, struct alts *a,
	int32_t *mexp, size_t n)
{
	size_t s, x, i;
	int rc = 0;

	for (s = 0; s < n && rc == 0; s++) {
		int32_t m;

		x = sqrt_base(st, s);
		if (x == (size_t)-1 || x >= n)
			continue;
		m = half_content(a, s, x);
		if (m < 1 || m == INT32_MAX)
			continue;
		for (i = 0; i < a->n && rc == 0; i++)
			rc = divide_half(st, &a->v[i].r.num, s, x, m);
		mexp[x] += m / 2;
		mexp[s] += m % 2;
	}
	return rc;
}

/* The positive content g of the alternatives (gcd of the numerators over
 * lcm of the denominators of all coefficients) and the monomial content
 * 'mexp' (n variables), limited to the atoms whose powers are provably
 * >= 0; divides every alternative by both. */
static int extract_content(segc_canon *st, struct alts *a, mpq_t g,
	int32_t *mexp, size_t n)
{
	size_t i, k, v;
	int any = 0, rc = 0;
	mpq_t inv;

	mpz_set_ui(mpq_numref(g), 0);
	mpz_set_ui(mpq_denref(g), 1);
	for (v = 0; v < n; v++)
		mexp[v] = 0;
	for (i = 0; i < a->n; i++) {
		segc_poly *p = &a->v[i].r.num;

		segc_poly_extend(p, n);
		for (k = 0; k < p->len; k++) {
			mpz_gcd(mpq_numref(g), mpq_numref(g), mpq_numref(p->coefs[k]));
			mpz_lcm(mpq_denref(g), mpq_denref(g), mpq_denref(p->coefs[k]));
			for (v = 0; v < n; v++) {
				int32_t e = segc_poly_exp(p, k, v);

				if (!any || e < mexp[v])
					mexp[v] = e;
			}
			any = 1;
		}
	}
	if (!any) {
		mpq_set_ui(g, 1, 1);
		return 0;
	}
	for (v = 0; v < n; v++) {
		segc_rf x;

		if (mexp[v] == 0 || mexp[v] % 2 == 0)
			continue;
		segc_rf_init(&x);
		segc_poly_set_var(&x.num, v, 1);
		if (!(segc_kernel_sign(st, &x) & SEGC_SIGN_NONNEG))
			mexp[v] = 0;
		segc_rf_clear(&x);
	}
	mpq_init(inv);
	mpq_inv(inv, g);
	for (v = 0; v < n; v++)
		mexp[v] = -mexp[v];
	for (i = 0; i < a->n && rc == 0; i++) {
		segc_poly_scale(&a->v[i].r.num, inv);
		rc = segc_poly_shift(&st->lim, &a->v[i].r.num, mexp);
	}
	for (v = 0; v < n; v++)
		mexp[v] = -mexp[v];
	mpq_clear(inv);
	return rc ? rc : extract_sqrt_content(st, a, mexp, n);
}

/* Non-zero when every alternative is a polynomial. */
static int all_poly(const struct alts *a)
{
	size_t i;

	for (i = 0; i < a->n; i++)
		if (!segc_rf_is_poly(&a->v[i].r))
			return 0;
	return 1;
}

/* The expression c + g*x^mexp*call, with 'call' (taken) an atom. */
static segc_expr *assemble(segc_canon *st, segc_poly *c, mpq_srcptr g,
	const int32_t *mexp, size_t n, segc_expr *call)
{
	size_t v = segc_canon_var(st, call), i, w = n > v ? n : v + 1;
	int32_t *d = segc_xcalloc(w, sizeof(int32_t));
	segc_expr *res = NULL;
	segc_rf t;
	int rc;

	segc_expr_free(call);
	for (i = 0; i < n; i++)
		d[i] = mexp[i];
	segc_rf_init(&t);
	segc_poly_set_var(&t.num, v, 1);
	segc_poly_extend(&t.num, w);
	segc_poly_scale(&t.num, g);
	rc = segc_poly_shift(&st->lim, &t.num, d);
	if (rc == 0)
		rc = segc_poly_add(&st->lim, &t.num, &t.num, c);
	if (rc == 0)
		res = segc_canon_from_rf(st, &t);
	segc_rf_clear(&t);
	free(d);
	return res;
}

/* The call 'name' of the sorted alternatives (their expressions taken). */
static segc_expr *alts_call(const char *name, struct alts *a)
{
	segc_expr **v = segc_xmalloc(segc_xmul_size(a->n, sizeof(*v)));
	segc_expr *res;
	size_t i;

	for (i = 0; i < a->n; i++) {
		v[i] = a->v[i].e;
		a->v[i].e = NULL;
	}
	res = segc_expr_call(name, a->n, v);
	free(v);
	return res;
}

/* Drops the variables absent from the alternatives at the end of their
 * exponent vectors, which keeps comparisons short. */
static void trim_alts(struct alts *a)
{
	size_t i;

	for (i = 0; i < a->n; i++) {
		segc_poly_trim(&a->v[i].r.num);
		segc_poly_trim(&a->v[i].r.den);
	}
}

static size_t widest(const struct alts *a);

/* The terms of the numerators of 'a', all together. */
static double terms_of(const struct alts *a)
{
	double t = 0;
	size_t i;

	for (i = 0; i < a->n; i++)
		t += (double)a->v[i].r.num.len;
	return t;
}

/* Brings the alternatives 'a' to a fixed point of extraction (into 'c'),
 * distribution and pruning: on return no alternative distributes, none
 * is dominated, and the polynomial alternatives have no common part. */
static int settle_alts(segc_canon *st, struct alts *a, int ismax,
	segc_poly *c)
{
	int round, k, rc = 0;

	for (round = 0; round < EXTREMUM_MAX_ROUNDS; round++) {
		size_t n0;

		if (a->n > 1 && all_poly(a))
			rc = extract_common(st, a, ismax, c);
		if (rc)
			return rc;
		k = distribute_round(st, a, ismax);
		if (k < 0)
			return -1;
		trim_alts(a);
		if (k > 0)
			continue;
		if (sort_alts(st, a))
			return -1;
		/* Each pair may be compared, term by term, though cheap
		 * tests rule most pairs out: an eighth is charged. */
		if (segc_ctx_charge(st->ctx, (double)a->n * terms_of(a) *
			(1.0 + (double)widest(a) / 8) / 8))
			return -1;
		n0 = a->n;
		drop_dominated(st, a, ismax);
		if (a->n == n0 || a->n == 1)
			return 0;
	}
	return 0;
}

/* The largest number of variables of the numerators of 'a'. */
static size_t widest(const struct alts *a)
{
	size_t i, n = 0;

	for (i = 0; i < a->n; i++)
		if (a->v[i].r.num.nvars > n)
			n = a->v[i].r.num.nvars;
	return n;
}

/* The normal form of the extremum 'name' of the alternatives 'a'
 * (emptied): c + g*m*name(sorted alternatives). */
static segc_expr *extremum_of_alts(segc_canon *st, const char *name,
	struct alts *a, int ismax)
{
	size_t n;
	int32_t *mexp;
	segc_expr *res = NULL;
	segc_poly c;
	mpq_t g;
	int rc;

	st->combining++;
	segc_poly_init(&c, 0);
	mpq_init(g);
	mpq_set_ui(g, 1, 1);
	rc = settle_alts(st, a, ismax, &c);
	n = widest(a);
	mexp = segc_xcalloc(n ? n : 1, sizeof(int32_t));
	if (rc == 0 && a->n == 1) {
		segc_rf t;

		segc_rf_init(&t);
		segc_poly_swap(&t.num, &c);
		rc = segc_rf_add(st, &a->v[0].r, &a->v[0].r, &t);
		segc_rf_clear(&t);
		if (rc == 0)
			res = segc_canon_from_rf(st, &a->v[0].r);
	} else if (rc == 0) {
		if (all_poly(a))
			rc = extract_content(st, a, g, mexp, n);
		if (rc == 0)
			rc = sort_alts(st, a);
		if (rc == 0)
			res = assemble(st, &c, g, mexp, n, alts_call(name, a));
	}
	st->combining--;
	segc_poly_clear(&c);
	mpq_clear(g);
	free(mexp);
	alts_clear(a);
	return res;
}

/* max (ismax) or min of canonical 'args' (taken), in normal form. */
static segc_expr *simplify_extremum(segc_canon *st, const char *name,
	size_t n, segc_expr **args, int ismax)
{
	struct alts work = { NULL, 0, 0 };
	segc_expr *res = NULL;
	size_t i;
	int rc = 0;

	for (i = 0; i < n; i++) {
		if (rc == 0)
			rc = segc_canon_to_rf(st, args[i], &alts_push(&work)->r);
		segc_expr_free(args[i]);
	}
	if (rc == 0)
		res = extremum_of_alts(st, name, &work, ismax);
	alts_clear(&work);
	return res;
}

/* The extremum atoms of polynomial 'p' that are multiplied by a
 * coefficient of two or more terms: mark[v] = 1 for those in which 'p' is
 * linear, with non-negative exponents; 0 for the other variables.
 * Returns the number marked. */
static size_t mark_spread(segc_canon *st, const segc_poly *p, char *mark)
{
	size_t i, v, n = p->nvars, count = 0;
	size_t *terms = segc_xcalloc(n ? n : 1, sizeof(size_t));
	char *bad = segc_xcalloc(n ? n : 1, 1);

	for (i = 0; i < p->len; i++) {
		const int32_t *e = p->exps + i * n;

		for (v = 0; v < n; v++)
			if (e[v]) {
				terms[v]++;
				bad[v] |= e[v] != 1;
			}
	}
	for (v = 0; v < n; v++) {
		mark[v] = terms[v] > 1 && !bad[v] && is_extremum(st, v);
		count += mark[v];
	}
	free(terms);
	free(bad);
	return count;
}

/* Rewrites K*M in 'r' (M = atom v, the other terms in 'rest') as the
 * single extremum M' = max(K*x_j) (min for a min atom) when K is free of
 * extrema and provably >= 0: r = rest + M'.  Returns 1 when done, 0 when
 * not, -1 on an error. */
static int spread_one(segc_canon *st, segc_rf *r, size_t v)
{
	const segc_expr *m = st->atoms[v];
	struct alts work = { NULL, 0, 0 };
	segc_rf K, rest, e;
	segc_expr *x;
	size_t w;
	int rc = 0;

	segc_rf_init(&K);
	segc_poly_coeff_var(&K.num, &r->num, v, 1);
	for (w = 0; w < K.num.nvars; w++)
		if (is_extremum(st, w) && segc_poly_has_var(&K.num, w))
			break;
	if (w < K.num.nvars || !(segc_kernel_sign(st, &K) & SEGC_SIGN_NONNEG)) {
		segc_rf_clear(&K);
		return 0;
	}
	segc_rf_init(&rest);
	segc_rf_init(&e);
	segc_poly_coeff_var(&rest.num, &r->num, v, 0);
	segc_poly_set_var(&e.num, v, 1);
	rc = segc_rf_mul(st, &alts_push(&work)->r, &e, &K);
	x = rc == 0 ? extremum_of_alts(st, m->u.name, &work,
		segc_expr_is_builtin(m, SEGC_BUILTIN_MAX)) : NULL;
	alts_clear(&work);
	rc = x ? segc_canon_to_rf(st, x, &e) : -1;
	if (rc == 0)
		rc = segc_rf_add(st, r, &rest, &e);
	segc_expr_free(x);
	segc_rf_clear(&K);
	segc_rf_clear(&rest);
	segc_rf_clear(&e);
	return rc ? -1 : 1;
}

/* Normalises the extrema of a polynomial 'r' (see canon_private.h). */
int segc_kernel_combine(segc_canon *st, segc_rf *r)
{
	size_t v, n;
	char *mark;
	int rc = 0;

	if (!st->has_extrema || st->combining || !segc_rf_is_poly(r))
		return 0;
	n = r->num.nvars;
	mark = segc_xcalloc(n ? n : 1, 1);
	if (mark_spread(st, &r->num, mark))
		for (v = 0; v < n && rc >= 0; v++)
			if (mark[v])
				rc = spread_one(st, r, v);
	free(mark);
	return rc < 0 ? -1 : 0;
}

/* --------------------------------------------------------- ceil, floor */

/* ceil/floor of a number. */
static segc_expr *round_number(mpq_srcptr q, int isceil)
{
	mpz_t z;
	mpq_t r;
	segc_expr *e;

	mpz_init(z);
	mpq_init(r);
	if (isceil)
		mpz_cdiv_q(z, mpq_numref(q), mpq_denref(q));
	else
		mpz_fdiv_q(z, mpq_numref(q), mpq_denref(q));
	mpq_set_z(r, z);
	e = segc_expr_num(r);
	mpz_clear(z);
	mpq_clear(r);
	return e;
}

/* Splits the term c*x^e (x^e integer-valued) into floor(c)*x^e, pushed
 * on 'ip' when not zero, and the rest, pushed on 'rp'. */
static void split_constant(segc_poly *ip, segc_poly *rp, const int32_t *e,
	mpq_srcptr c)
{
	mpz_t fl;
	mpq_t q;

	mpz_init(fl);
	mpq_init(q);
	mpz_fdiv_q(fl, mpq_numref(c), mpq_denref(c));
	mpq_set_z(q, fl);
	if (mpz_sgn(fl))
		segc_poly_push(ip, e, q);
	mpq_sub(q, c, q);
	segc_poly_push(rp, e, q);
	mpz_clear(fl);
	mpq_clear(q);
}

/* ceil or floor of canonical 'a' (taken): integer-valued terms and the
 * integer part of the constant move out. */
static segc_expr *simplify_round(segc_canon *st, enum segc_builtin id,
	segc_expr *a)
{
	int isceil = id == SEGC_BUILTIN_CEIL;
	segc_poly ip, rp;
	segc_rf r;
	segc_expr *res = NULL;
	size_t i;

	if (a->kind == SEGC_NUM) {
		res = round_number(a->u.value, isceil);
		segc_expr_free(a);
		return res;
	}
	segc_rf_init(&r);
	if (segc_canon_to_rf(st, a, &r)) {
		segc_rf_clear(&r);
		segc_expr_free(a);
		return NULL;
	}
	if (!segc_rf_is_poly(&r)) {
		segc_rf_clear(&r);
		return segc_expr_call1(id, a);
	}
	segc_poly_init(&ip, r.num.nvars);
	segc_poly_init(&rp, r.num.nvars);
	for (i = 0; i < r.num.len; i++) {
		const int32_t *e = r.num.exps + i * r.num.nvars;

		if (term_integer_valued(st, &r.num, i))
			segc_poly_push(&ip, e, r.num.coefs[i]);
		else if (monomial_integer_valued(st, &r.num, i))
			split_constant(&ip, &rp, e, r.num.coefs[i]);
		else
			segc_poly_push(&rp, e, r.num.coefs[i]);
	}
	if (ip.len == 0) {
		res = segc_expr_call1(id, a);
		a = NULL;
	} else {
		segc_rf t;

		segc_rf_init(&t);
		segc_poly_swap(&t.num, &rp);
		segc_poly_normalise(NULL, &t.num);
		res = segc_canon_from_rf(st, &t);
		if (res && !segc_expr_is_zero(res))
			res = segc_expr_call1(id, res);
		segc_poly_swap(&t.num, &ip);
		segc_poly_normalise(NULL, &t.num);
		segc_poly_set_si(&t.den, 1);
		if (res)
			res = recanon(st, segc_expr_add2(res,
				segc_canon_from_rf(st, &t)));
		segc_rf_clear(&t);
	}
	segc_poly_clear(&ip);
	segc_poly_clear(&rp);
	segc_rf_clear(&r);
	segc_expr_free(a);
	return res;
}

/* ---------------------------------------------------------------- log2 */

/* log2 of a positive number: k + log2(r) with r = q / 2^k odd. */
static segc_expr *log2_number(segc_canon *st, segc_expr *a)
{
	mpq_srcptr q = a->u.value;
	long k;
	mpq_t r;
	segc_expr *res;

	if (mpq_sgn(q) <= 0) {
		segc_canon_refuse(st, "log2 of %s, which is not positive", a);
		segc_expr_free(a);
		return NULL;
	}
	k = (long)mpz_scan1(mpq_numref(q), 0) - (long)mpz_scan1(mpq_denref(q), 0);
	if (k == 0)
		return segc_expr_call1(SEGC_BUILTIN_LOG2, a);
	mpq_init(r);
	if (k > 0)
		mpq_div_2exp(r, q, (unsigned long)k);
	else
		mpq_mul_2exp(r, q, (unsigned long)-k);
	res = segc_expr_int(k);
	if (!(mpz_cmp_ui(mpq_numref(r), 1) == 0 && mpz_cmp_ui(mpq_denref(r), 1) == 0))
		res = segc_expr_add2(res, segc_expr_call1(SEGC_BUILTIN_LOG2,
			segc_expr_num(r)));
	mpq_clear(r);
	segc_expr_free(a);
	return res;
}

/* Non-zero when polynomial 'p' is the single atom x_v with exponent 1
 * and coefficient 1. */
static int is_plain_atom(const segc_poly *p)
{
	size_t v, ones = 0;

	if (p->len != 1 || mpz_cmp_ui(mpq_numref(p->coefs[0]), 1) ||
		mpz_cmp_ui(mpq_denref(p->coefs[0]), 1))
		return 0;
	for (v = 0; v < p->nvars; v++) {
		int32_t e = segc_poly_exp(p, 0, v);

		if (e != 0 && e != 1)
			return 0;
		ones += e == 1;
	}
	return ones == 1;
}

/* Splits polynomial 'p' into content * positive atoms * rest: returns the
 * log2 terms of the pulled parts (NULL if nothing was pulled) and leaves
 * the rest in 'p'. */
static segc_expr *pull_log2(segc_canon *st, segc_poly *p)
{
	size_t v, n = p->nvars;
	int32_t *m = segc_xcalloc(n ? n : 1, sizeof(int32_t));
	segc_expr *acc = NULL;
	mpq_t s;

	mpq_init(s);
	segc_poly_primitive(p, s);
	if (!(mpz_cmp_ui(mpq_numref(s), 1) == 0 && mpz_cmp_ui(mpq_denref(s), 1) == 0))
		acc = segc_expr_call1(SEGC_BUILTIN_LOG2, segc_expr_num(s));
	for (v = 0; v < n; v++) {
		int32_t e = segc_poly_min_degree(p, v);
		segc_rf x;

		if (!e)
			continue;
		segc_rf_init(&x);
		segc_poly_set_var(&x.num, v, 1);
		if (segc_kernel_sign(st, &x) & SEGC_SIGN_POS) {
			segc_expr *t = segc_expr_mul2(segc_expr_int(e),
				segc_expr_call1(SEGC_BUILTIN_LOG2,
				segc_expr_copy(st->atoms[v])));

			acc = acc ? segc_expr_add2(acc, t) : t;
			m[v] = -e;
		}
		segc_rf_clear(&x);
	}
	segc_poly_shift(NULL, p, m);
	free(m);
	mpq_clear(s);
	return acc;
}

/* log2 of a polynomial: pulls the content and provably positive monomial
 * factors out. */
static segc_expr *log2_poly(segc_canon *st, segc_poly *p, segc_expr *orig)
{
	segc_expr *pulled, *rest;
	segc_rf t;

	if (is_plain_atom(p))
		return segc_expr_call1(SEGC_BUILTIN_LOG2, orig);
	pulled = pull_log2(st, p);
	if (!pulled)
		return segc_expr_call1(SEGC_BUILTIN_LOG2, orig);
	segc_expr_free(orig);
	if (segc_poly_is_one(p))
		return recanon(st, pulled);
	segc_rf_init(&t);
	segc_poly_swap(&t.num, p);
	rest = segc_canon_from_rf(st, &t);
	segc_poly_swap(&t.num, p);
	segc_rf_clear(&t);
	if (!rest) {
		segc_expr_free(pulled);
		return NULL;
	}
	return recanon(st, segc_expr_add2(pulled,
		segc_expr_call1(SEGC_BUILTIN_LOG2, rest)));
}

/* log2 of canonical 'a' (taken). */
static segc_expr *simplify_log2(segc_canon *st, segc_expr *a)
{
	segc_expr *res = NULL;
	segc_rf r;

	if (a->kind == SEGC_NUM)
		return log2_number(st, a);
	segc_rf_init(&r);
	if (segc_canon_to_rf(st, a, &r)) {
		segc_expr_free(a);
	} else if (segc_rf_is_poly(&r)) {
		res = log2_poly(st, &r.num, a);
	} else {
		unsigned ds = poly_sign(st, &r.den);

		if (ds & (SEGC_SIGN_POS | SEGC_SIGN_NEG)) {
			segc_rf n, d;
			segc_expr *en, *ed;

			if (ds & SEGC_SIGN_NEG) {
				segc_poly_neg(&r.num);
				segc_poly_neg(&r.den);
			}
			segc_rf_init(&n);
			segc_rf_init(&d);
			segc_poly_set(&n.num, &r.num);
			segc_poly_set(&d.num, &r.den);
			en = segc_canon_from_rf(st, &n);
			ed = segc_canon_from_rf(st, &d);
			segc_rf_clear(&n);
			segc_rf_clear(&d);
			segc_expr_free(a);
			res = en && ed ? recanon(st, segc_expr_sub2(
				segc_expr_call1(SEGC_BUILTIN_LOG2, en),
				segc_expr_call1(SEGC_BUILTIN_LOG2, ed))) : NULL;
			if (!res) {
				segc_expr_free(en);
				segc_expr_free(ed);
			}
		} else {
			res = segc_expr_call1(SEGC_BUILTIN_LOG2, a);
		}
	}
	segc_rf_clear(&r);
	return res;
}

/* ---------------------------------------------------------------- sqrt */

/* sqrt of a non-negative number: exact when it is a square. */
static segc_expr *sqrt_number(segc_canon *st, segc_expr *a)
{
	mpq_srcptr q = a->u.value;
	mpq_t r;
	segc_expr *res;

	if (mpq_sgn(q) < 0) {
		segc_canon_refuse(st, "sqrt of %s, which is negative", a);
		segc_expr_free(a);
		return NULL;
	}
	if (!mpz_perfect_square_p(mpq_numref(q)) ||
		!mpz_perfect_square_p(mpq_denref(q)))
		return segc_expr_call1(SEGC_BUILTIN_SQRT, a);
	mpq_init(r);
	mpz_sqrt(mpq_numref(r), mpq_numref(q));
	mpz_sqrt(mpq_denref(r), mpq_denref(q));
	res = segc_expr_num(r);
	mpq_clear(r);
	segc_expr_free(a);
	return res;
}

/* sqrt of a polynomial: pulls a square content and even powers of atoms
 * (odd halves only of atoms provably >= 0). */
static segc_expr *sqrt_poly(segc_canon *st, segc_poly *p, segc_expr *orig)
{
	size_t v, n = p->nvars;
	int32_t *m = segc_xcalloc(n ? n : 1, sizeof(int32_t));
	segc_rf out, rest;
	segc_expr *res;
	int pulled = 0;
	mpq_t s;

	mpq_init(s);
	segc_rf_init(&out);
	segc_rf_init(&rest);
	segc_poly_set_si(&out.num, 1);
	segc_poly_primitive(p, s);
	if (mpz_perfect_square_p(mpq_numref(s)) &&
		mpz_perfect_square_p(mpq_denref(s)) && !(mpz_cmp_ui(mpq_numref(s), 1) == 0
		&& mpz_cmp_ui(mpq_denref(s), 1) == 0)) {
		mpz_sqrt(mpq_numref(s), mpq_numref(s));
		mpz_sqrt(mpq_denref(s), mpq_denref(s));
		segc_poly_scale(&out.num, s);
		pulled = 1;
	} else {
		segc_poly_scale(p, s);
	}
	for (v = 0; v < n; v++) {
		int32_t e = segc_poly_min_degree(p, v), k = e / 2;
		segc_rf x;

		if (e < 2)
			continue;
		segc_rf_init(&x);
		segc_poly_set_var(&x.num, v, 1);
		if (k % 2 == 0 || (segc_kernel_sign(st, &x) & SEGC_SIGN_NONNEG)) {
			segc_poly_set_var(&x.num, v, k);
			segc_rf_mul(st, &out, &out, &x);
			m[v] = -2 * k;
			pulled = 1;
		}
		segc_rf_clear(&x);
	}
	segc_poly_shift(NULL, p, m);
	free(m);
	mpq_clear(s);
	if (!pulled) {
		segc_rf_clear(&out);
		segc_rf_clear(&rest);
		return segc_expr_call1(SEGC_BUILTIN_SQRT, orig);
	}
	segc_expr_free(orig);
	segc_poly_swap(&rest.num, p);
	res = segc_canon_from_rf(st, &rest);
	segc_poly_swap(&rest.num, p);
	if (res)
		res = recanon(st, segc_expr_mul2(segc_canon_from_rf(st, &out),
			segc_expr_call1(SEGC_BUILTIN_SQRT, res)));
	segc_rf_clear(&out);
	segc_rf_clear(&rest);
	return res;
}

/* sqrt of canonical 'a' (taken). */
static segc_expr *simplify_sqrt(segc_canon *st, segc_expr *a)
{
	segc_expr *res = NULL;
	segc_rf r;

	if (a->kind == SEGC_NUM)
		return sqrt_number(st, a);
	segc_rf_init(&r);
	if (segc_canon_to_rf(st, a, &r))
		segc_expr_free(a);
	else if (segc_rf_is_poly(&r))
		res = sqrt_poly(st, &r.num, a);
	else
		res = segc_expr_call1(SEGC_BUILTIN_SQRT, a);
	segc_rf_clear(&r);
	return res;
}

/* -------------------------------------------------------------- driver */

/* Simplifies the call 'name'('args') of the built-in 'id' (see
 * canon_private.h). */
segc_expr *segc_kernel_simplify(segc_canon *st, enum segc_builtin id,
	const char *name, size_t n, segc_expr **args)
{
	switch (segc_builtin_get(id)->eval) {
	case SEGC_EVAL_EXTREMUM:
		return simplify_extremum(st, name, n, args,
			id == SEGC_BUILTIN_MAX);
	case SEGC_EVAL_ROUND:
		if (n == 1)
			return simplify_round(st, id, args[0]);
		break;
	case SEGC_EVAL_LOG2:
		if (n == 1)
			return simplify_log2(st, args[0]);
		break;
	case SEGC_EVAL_SQRT:
		if (n == 1)
			return simplify_sqrt(st, args[0]);
		break;
	default:
		break;
	}
	return segc_expr_call(name, n, args);
}
