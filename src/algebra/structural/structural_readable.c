/* structural_readable.c - the readable form: the structural form, then
 * each node, bottom-up, replaced by a shorter equal one where there is
 * one.  The candidates of a node, once its children are readable:
 *   decided  an if() whose condition the domains decide is its branch;
 *            a max/min alternative another dominates is dropped
 *            (structural_max.c, over the whole result);
 *   closed   sum(i, a, b, c) with c free of i is c*n, n = floor(b) -
 *            ceil(a) + 1 the number of integers from a to b (b - a + 1
 *            when the domains prove a and b integers), when the domains
 *            prove n >= 0, else c*max(0, n) (a sum over an empty range
 *            is 0); kept when n depends on a counter (range_count());
 *   canon    the canonical form of the node on the domains, which merges
 *            coefficients, cancels (1 - h1 - (h2 - h1) = 1 - h2) and
 *            closes sums of polynomials; not for an if() (its condition
 *            stays as written); for a sum, only when it has
 *            fewer terms than its terms expanded (cancels()); in the body
 *            of a sum, not when it has more max, min or if than the node
 *            (the range of the counter would decide them, and the
 *            domains cannot);
 *   factored a sum with the content of its coefficients and its common
 *            powers taken out (structural_factor.c): 2*N*t + 2*t =
 *            2*t*(N + 1);
 *   grouped  the terms of a sum that share a factor grouped (grouped()).
 * The shortest text wins; on a near tie (consider()) the node as the
 * graph shaped it.  Each candidate equals the node on the declared
 * domains, so the readable form has the canonical form of the structural
 * one.  Conditions are kept as they are; a recurrence (maxplus, taskpath)
 * keeps its shape, its costs made readable.  A node deeper than
 * READABLE_MAX_DEPTH is kept as it is, and one whose text is longer than
 * READABLE_MAX_TEXT gets no candidate (its children still do). */
#include <stdlib.h>
#include <string.h>

#include "expr/expr_private.h"
#include "expr/builtin.h"
#include "algebra/structural/structural.h"
#include "base/util.h"

#define READABLE_MAX_DEPTH 400
#define READABLE_MAX_TEXT 4000
#define READABLE_MAX_TREE 4096   /* nodes of a tree printed for its length */
#define READABLE_MINUS 4
#define READABLE_MAX_NEST 4
#define READABLE_MARGIN 2

/* The state of one pass. */
struct readable {
	segc_ctx *ctx;
	const segc_domains *dom;
	segc_expr_map memo;       /* node -> its readable form (a reference) */
	unsigned nest;            /* grouped() calls open */
	const char **counters;    /* the names sums bind (borrowed) */
	size_t ncounters;
};

static segc_expr *readable(struct readable *r, segc_expr *e, unsigned depth);

/* The cost of the text of 'e': its length, and READABLE_MINUS more for
 * each minus sign, so that a form with fewer signs wins on a near tie
 * (1/(1 - p)*(a + b), not (-a - b)/(p - 1)). */
static size_t text_length(const segc_expr *e)
{
	char *t, *c;
	size_t n;

	if (segc_expr_tree_size(e, READABLE_MAX_TREE) >= READABLE_MAX_TREE)
		return (size_t)-1 / 4;    /* too long to print for a length */
	t = segc_expr_to_string(e);
	n = t ? strlen(t) : (size_t)-1 / 4;

	for (c = t; c && *c; c++)
		n += *c == '-' ? READABLE_MINUS : 0;
	free(t);
	return n;
}

/* The signs the domains prove of 'a' - 'b' (both kept). */
static unsigned signs_of_difference(struct readable *r, segc_expr *a,
	segc_expr *b)
{
	segc_expr *d = segc_expr_sub2(segc_expr_copy(a), segc_expr_copy(b));
	unsigned s = segc_proved_signs(r->ctx, r->dom, d);

	segc_expr_free(d);
	return s;
}

#define NONNEG (SEGC_PROVED_NONNEG | SEGC_PROVED_POS)
#define NONPOS (SEGC_PROVED_NONPOS | SEGC_PROVED_NEG)

/* What the domains decide of the relation 'c': 1 true, 0 false, -1
 * undecided. */
static int decide_relation(struct readable *r, const segc_expr *c)
{
	enum segc_builtin id = segc_expr_builtin(c);
	unsigned s = signs_of_difference(r, segc_args(c)[0], segc_args(c)[1]);
	int ge = (s & NONNEG) != 0, le = (s & NONPOS) != 0;
	int gt = (s & SEGC_PROVED_POS) != 0, lt = (s & SEGC_PROVED_NEG) != 0;

	switch (id) {
	case SEGC_BUILTIN_GE: return ge ? 1 : lt ? 0 : -1;
	case SEGC_BUILTIN_GT: return gt ? 1 : le ? 0 : -1;
	case SEGC_BUILTIN_LE: return le ? 1 : gt ? 0 : -1;
	case SEGC_BUILTIN_LT: return lt ? 1 : ge ? 0 : -1;
	case SEGC_BUILTIN_EQ: return ge && le ? 1 : gt || lt ? 0 : -1;
	case SEGC_BUILTIN_NE: return ge && le ? 0 : gt || lt ? 1 : -1;
	default: return -1;
	}
}

/* What the domains decide of the condition 'c': 1 true, 0 false, -1
 * undecided (three-valued and/or/not over the relations). */
static int decide(struct readable *r, const segc_expr *c)
{
	enum segc_builtin id = segc_expr_builtin(c);
	size_t i;
	int v, acc;

	if (c->kind != SEGC_CALL)
		return -1;
	if (id == SEGC_BUILTIN_NOT && c->nargs == 1) {
		v = decide(r, segc_args(c)[0]);
		return v < 0 ? -1 : !v;
	}
	if (id == SEGC_BUILTIN_AND || id == SEGC_BUILTIN_OR) {
		int absorbing = id == SEGC_BUILTIN_OR;

		for (i = 0, acc = !absorbing; i < c->nargs; i++) {
			v = decide(r, segc_args(c)[i]);
			if (v == absorbing)
				return absorbing;
			if (v < 0)
				acc = -1;
		}
		return acc;
	}
	if (c->nargs == 2 && segc_expr_is_condition(c))
		return decide_relation(r, c);
	return -1;
}

static segc_expr *shortest(struct readable *r, segc_expr *e);

/* 'x' (kept) rounded to an integer by the built-in 'id' (ceil or floor),
 * as short as the domains allow (floor(N) is N for an integer N). */
static segc_expr *rounded(struct readable *r, enum segc_builtin id,
	segc_expr *x)
{
	segc_expr *v = segc_expr_copy(x);

	if (segc_expr_is_integer(x))
		return v;
	return shortest(r, segc_expr_call_builtin(id, 1, &v));
}

/* Non-zero when 'e' has a name that a sum of the formula binds (so 'e'
 * stands in the body of that sum: a counter). */
static int has_counter(const struct readable *r, const segc_expr *e)
{
	size_t i;

	if (e->kind == SEGC_SYM) {
		for (i = 0; i < r->ncounters; i++)
			if (!strcmp(r->counters[i], e->u.name))
				return 1;
		return 0;
	}
	for (i = 0; i < e->nargs; i++)
		if (has_counter(r, segc_args(e)[i]))
			return 1;
	return 0;
}

/* Adds the names the sums of 'e' bind to r->counters, each node once
 * ('seen'). */
static void find_counters(struct readable *r, const segc_expr *e,
	segc_expr_map *seen)
{
	const char *b;
	size_t i;

	if (!e->nargs || !segc_expr_map_put(seen, e, NULL))
		return;
	b = segc_expr_binder(e);
	for (i = 0; b && i < r->ncounters && strcmp(r->counters[i], b); i++)
		;
	if (b && i == r->ncounters) {
		r->counters = segc_xrealloc(r->counters, segc_xmul_size(
			r->ncounters + 1, sizeof(*r->counters)));
		r->counters[r->ncounters++] = b;
	}
	for (i = 0; i < e->nargs; i++)
		find_counters(r, segc_args(e)[i], seen);
}

/* The number of integers from 'lo' to 'hi' (kept), floor(hi) - ceil(lo)
 * + 1, with max(0, ...) unless the domains prove it non-negative; NULL
 * when they do not and it depends on the counter of a sum (whose range
 * would decide it, and the domains cannot: the sum is kept). */
static segc_expr *range_count(struct readable *r, segc_expr *lo,
	segc_expr *hi)
{
	segc_expr *n = shortest(r, segc_structural_simplify(segc_expr_add2(
		segc_expr_sub2(rounded(r, SEGC_BUILTIN_FLOOR, hi),
		rounded(r, SEGC_BUILTIN_CEIL, lo)), segc_expr_int(1))));
	segc_expr *v[2];

	if (segc_proved_signs(r->ctx, r->dom, n) & NONNEG)
		return n;
	if (has_counter(r, n)) {
		segc_expr_free(n);
		return NULL;
	}
	v[0] = segc_expr_int(0);
	v[1] = n;
	return segc_expr_call_builtin(SEGC_BUILTIN_MAX, 2, v);
}

/* 'e' (kept) with its decided if() replaced by the branch taken and its
 * sum() of a body free of the counter closed; a new reference. */
static segc_expr *local_rules(struct readable *r, segc_expr *e)
{
	if (segc_expr_is_builtin(e, SEGC_BUILTIN_IF) && e->nargs == 3) {
		int v = decide(r, segc_args(e)[0]);

		if (v >= 0)
			return segc_expr_copy(segc_args(e)[v ? 1 : 2]);
	}
	if (e->kind == SEGC_SUM && !segc_expr_has_sym(segc_args(e)[2],
		e->u.name)) {
		segc_expr *n = range_count(r, segc_args(e)[0], segc_args(e)[1]);

		if (n)
			return segc_structural_simplify(segc_expr_mul2(n,
				segc_expr_copy(segc_args(e)[2])));
	}
	return segc_expr_copy(e);
}

/* Non-zero when the term 't' is written with a minus sign. */
static int negative_term(const segc_expr *t)
{
	if (t->kind == SEGC_MUL && t->nargs &&
		segc_args(t)[0]->kind == SEGC_NUM)
		t = segc_args(t)[0];
	return t->kind == SEGC_NUM && mpq_sgn(t->u.value) < 0;
}

/* The sum 'e' (taken) with its terms written with a plus sign first, in
 * their order, then the others: -B + N is N - B. */
static segc_expr *positive_first(segc_expr *e)
{
	segc_expr **v, *r;
	size_t i, m = 0;
	int pass;

	if (!e || e->kind != SEGC_ADD || !negative_term(segc_args(e)[0]))
		return e;
	v = segc_xmalloc(segc_xmul_size(e->nargs, sizeof(*v)));
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < e->nargs; i++)
			if (negative_term(segc_args(e)[i]) == pass)
				v[m++] = segc_expr_copy(segc_args(e)[i]);
	r = segc_expr_rebuild(SEGC_ADD, NULL, m, v);
	free(v);
	segc_expr_free(e);
	return r;
}

/* The canonical form of 'e' (kept) on the domains, through a scratch
 * context with the same limits (a failure is no candidate, and leaves
 * nothing in the caller's context), its terms with a plus sign first;
 * NULL when it fails. */
static segc_expr *canonical_candidate(struct readable *r, segc_expr *e)
{
	segc_ctx *tmp = segc_ctx_new();
	segc_expr *c;

	if (!tmp)
		return NULL;
	*segc_ctx_limits(tmp) = *segc_ctx_limits(r->ctx);
	c = segc_canonical(tmp, r->dom, segc_expr_copy(e));
	segc_ctx_free(tmp);
	return positive_first(c);
}

/* Non-zero when 'e' is a call of the kind 'k' of built-ins. */
static int builtin_kind(const segc_expr *e, enum segc_builtin_kind k)
{
	return e->kind == SEGC_CALL && segc_expr_builtin(e) !=
		SEGC_BUILTIN_NONE &&
		segc_builtin_get(segc_expr_builtin(e))->kind == k;
}

/* Non-zero when 'e' is a condition, which the readable form keeps
 * whole. */
static int kept_whole(const segc_expr *e)
{
	return builtin_kind(e, SEGC_BUILTIN_RELATION) ||
		builtin_kind(e, SEGC_BUILTIN_LOGIC);
}

/* The number of max, min and if calls in 'e' written out as a tree. */
static size_t pieces(const segc_expr *e)
{
	enum segc_builtin id = segc_expr_builtin(e);
	size_t i, n = id == SEGC_BUILTIN_MAX || id == SEGC_BUILTIN_MIN ||
		id == SEGC_BUILTIN_IF;

	for (i = 0; i < e->nargs; i++)
		n += pieces(segc_args(e)[i]);
	return n;
}

/* The number of terms of 'e' as a sum (1 when it is not one). */
static size_t nterms(const segc_expr *e)
{
	return e->kind == SEGC_ADD ? e->nargs : 1;
}

/* Non-zero when the canonical form 'c' of the sum 'e' has fewer terms
 * than the canonical forms of the terms of 'e' together: terms merged or
 * cancelled (1 - h1 - (h2 - h1) is 1 - h2).  Otherwise expanding the
 * sum only spreads the products of the graph over more terms, and the
 * sum keeps its shape. */
static int cancels(struct readable *r, segc_expr *e, segc_expr *c)
{
	size_t i, n = 0;

	for (i = 0; i < e->nargs && n <= nterms(c); i++) {
		segc_expr *t = canonical_candidate(r, segc_args(e)[i]);

		n += t ? nterms(t) : 1;
		segc_expr_free(t);
	}
	return nterms(c) < n;
}

/* Replaces '*best' (length '*len') by 'c' (taken) when 'c' is shorter
 * by READABLE_MARGIN and a twentieth: a near tie keeps the shape of the
 * graph ((1 - h2)*c, not -c*h2 + c). */
static void consider(segc_expr **best, size_t *len, segc_expr *c)
{
	size_t n;

	if (!c)
		return;
	n = text_length(c);
	if (n + READABLE_MARGIN + *len / 20 <= *len) {
		segc_expr_free(*best);
		*best = c;
		*len = n;
	} else
		segc_expr_free(c);
}

/* Non-zero when the term 't' is 'f' or a product with the factor 'f'. */
static int has_factor(const segc_expr *t, const segc_expr *f)
{
	size_t j;

	if (t == f)
		return 1;
	if (t->kind == SEGC_MUL)
		for (j = 0; j < t->nargs; j++)
			if (segc_args(t)[j] == f)
				return 1;
	return 0;
}

/* The number of terms of the sum 'e' that have the factor 'f'. */
static size_t terms_with(const segc_expr *e, const segc_expr *f)
{
	size_t i, n = 0;

	for (i = 0; i < e->nargs; i++)
		n += has_factor(segc_args(e)[i], f) != 0;
	return n;
}

/* The term 't' (kept) without one factor 'f'. */
static segc_expr *without_factor(segc_expr *t, const segc_expr *f)
{
	segc_expr **v;
	size_t i, m = 0;
	int dropped = 0;

	if (t == f)
		return segc_expr_int(1);
	v = segc_xmalloc(segc_xmul_size(t->nargs, sizeof(*v)));
	for (i = 0; i < t->nargs; i++)
		if (!dropped && segc_args(t)[i] == f)
			dropped = 1;
		else
			v[m++] = segc_expr_copy(segc_args(t)[i]);
	t = segc_expr_mul(m, v);
	free(v);
	return t;
}

/* The sum 'e' (kept) with the terms that share its most frequent factor
 * f (in two terms at least) grouped, f*(c1 + c2 + ...) (a name first) or
 * (c1 + ...)*f, the coefficients made readable: c + (Px - 1)*(c + m) +
 * (Py - 1)*(c + m) = c + (Px + Py - 2)*(c + m); then the shortest form
 * of the new sum, which has fewer terms (so the other shared factors are
 * grouped too).  NULL when no factor is shared, or READABLE_MAX_NEST
 * groupings are open already (the canonical form of the new sum is a
 * candidate, and grouping it again would not end). */
static segc_expr *grouped(struct readable *r, segc_expr *e)
{
	const segc_expr *f = NULL, *t;
	segc_expr **in, **out, *g, *c;
	size_t i, j, best = 1, n, m = 0, k = 0;

	for (i = 0; i < e->nargs; i++) {
		t = segc_args(e)[i];
		for (j = 0; j < (t->kind == SEGC_MUL ? t->nargs : 1); j++) {
			const segc_expr *x = t->kind == SEGC_MUL
				? segc_args(t)[j] : t;

			if (x->kind != SEGC_NUM && (n = terms_with(e, x)) > best) {
				best = n;
				f = x;
			}
		}
	}
	if (!f || r->nest >= READABLE_MAX_NEST)
		return NULL;
	r->nest++;
	in = segc_xmalloc(segc_xmul_size(best, sizeof(*in)));
	out = segc_xmalloc(segc_xmul_size(e->nargs, sizeof(*out)));
	for (i = 0; i < e->nargs; i++) {
		if (has_factor(segc_args(e)[i], f)) {
			in[k++] = without_factor(segc_args(e)[i], f);
			if (k == 1)
				out[m++] = NULL;
		} else
			out[m++] = segc_expr_copy(segc_args(e)[i]);
	}
	c = shortest(r, segc_structural_simplify(segc_expr_add(k, in)));
	g = f->kind == SEGC_SYM ? segc_expr_mul2(segc_expr_copy(
		(segc_expr *)f), c) : segc_expr_mul2(c,
		segc_expr_copy(f));
	for (i = 0; i < m; i++)
		if (!out[i])
			out[i] = g;
	g = segc_structural_simplify(segc_expr_add(m, out));
	free(in);
	free(out);
	if (g->kind == SEGC_ADD && g->nargs < e->nargs)
		g = shortest(r, g);
	r->nest--;
	return g;
}

/* The shortest of 'e' (taken) and its candidates. */
static segc_expr *shortest(struct readable *r, segc_expr *e)
{
	size_t len = text_length(e);
	segc_expr *best = segc_expr_copy(e), *c;

	if (len > READABLE_MAX_TEXT ||
	    builtin_kind(e, SEGC_BUILTIN_RECURRENCE)) {
		segc_expr_free(e);
		return best;
	}
	consider(&best, &len, segc_structural_factor(segc_expr_copy(e)));
	if (e->kind == SEGC_ADD)
		consider(&best, &len, grouped(r, e));
	c = segc_expr_is_builtin(e, SEGC_BUILTIN_IF) ? NULL :
		canonical_candidate(r, e);
	if (c && ((has_counter(r, e) && pieces(c) > pieces(e)) ||
	    (e->kind == SEGC_ADD && !cancels(r, e, c)))) {
		segc_expr_free(c);
		c = NULL;
	}
	if (c) {
		consider(&best, &len, segc_structural_factor(
			segc_structural_simplify(segc_expr_copy(c))));
		if (c->kind == SEGC_ADD && c != e)
			consider(&best, &len, grouped(r, c));
		consider(&best, &len, c);
	}
	segc_expr_free(e);
	return best;
}

/* 'e' (kept) rebuilt from its readable children, then the shortest of
 * its candidates. */
static segc_expr *readable_node(struct readable *r, segc_expr *e,
	unsigned depth)
{
	segc_expr **v, *n, *l;
	size_t i;
	int same = 1;

	if (!e->nargs || e->kind == SEGC_NUM || e->kind == SEGC_SYM ||
	    kept_whole(e))
		return segc_expr_copy(e);
	v = segc_xmalloc(segc_xmul_size(e->nargs, sizeof(*v)));
	for (i = 0; i < e->nargs; i++) {
		v[i] = kept_whole(segc_args(e)[i])
			? segc_expr_copy(segc_args(e)[i]) :
			readable(r, segc_args(e)[i], depth + 1);
		same = same && v[i] == segc_args(e)[i];
	}
	if (same) {
		for (i = 0; i < e->nargs; i++)
			segc_expr_free(v[i]);
		n = segc_expr_copy(e);
	} else if (e->kind == SEGC_SUM)
		n = segc_expr_sum(e->u.name, v[0], v[1], v[2]);
	else
		n = segc_structural_simplify(segc_expr_rebuild(
			(enum segc_expr_kind)e->kind, e->u.name, e->nargs, v));
	free(v);
	l = local_rules(r, n);
	if (l != n) {
		segc_expr *d = readable(r, l, depth + 1);

		segc_expr_free(l);
		l = d;
		if (text_length(l) >= text_length(n)) {
			segc_expr_free(l);
			l = segc_expr_copy(n);
		}
	}
	segc_expr_free(n);
	return shortest(r, l);
}

/* The readable form of 'e' (kept), through the memo. */
static segc_expr *readable(struct readable *r, segc_expr *e, unsigned depth)
{
	void **slot = segc_expr_map_find(&r->memo, e);
	segc_expr *x;

	if (slot)
		return segc_expr_copy(*slot);
	if (depth > READABLE_MAX_DEPTH)
		return segc_expr_copy(e);
	x = readable_node(r, e, depth);
	segc_expr_map_put(&r->memo, e, segc_expr_copy(x));
	return x;
}

/* See structural.h. */
segc_expr *segc_structural_readable(segc_ctx *ctx, const segc_domains *dom,
	segc_expr *e)
{
	struct readable r;
	segc_expr *x;
	size_t i;

	if (!e)
		return NULL;
	r.ctx = ctx;
	r.dom = dom;
	r.nest = 0;
	r.counters = NULL;
	r.ncounters = 0;
	segc_expr_map_init(&r.memo);
	find_counters(&r, e, &r.memo);
	segc_expr_map_clear(&r.memo);
	segc_expr_map_init(&r.memo);
	x = readable(&r, e, 0);
	for (i = 0; i < r.memo.cap; i++)
		if (r.memo.keys && r.memo.keys[i])
			segc_expr_free(r.memo.values[i]);
	segc_expr_map_clear(&r.memo);
	free(r.counters);
	segc_expr_free(e);
	return segc_structural_prune(ctx, dom, segc_structural_simplify(x));
}
