/* collect.c - a structural formula with the terms that have a factor
 * NAME collected: NAME*(...) + ... + (rest), as a paper writes a time
 * per machine constant, t_flop*(2*N^3/3 + ...) + t_comm*(...).
 *
 * Each name splits the formula into e = NAME*c + r, bottom-up over the
 * DAG (each node once, memoised), through the operations that are linear
 * in a name that occurs only as a factor:
 *   name     NAME = NAME*1 + 0;
 *   sum      the parts of the terms added;
 *   product  (NAME*c1 + r1)*g = NAME*(c1*g + r1*cg) + r1*rg, factor by
 *            factor, so a power NAME^2 leaves NAME in the coefficient;
 *   power    NAME^k (k a positive integer) is NAME*NAME^(k-1); a small
 *            positive integer power of another base with NAME in it a
 *            product of copies;
 *   sum()    sum(i, lo, hi, NAME*c + r) = NAME*sum(c) + sum(r) when
 *            neither bound has NAME (and i is not NAME);
 *   if()     if(q, a, b) = NAME*if(q, ca, cb) + if(q, ra, rb) when the
 *            condition q has no NAME;
 *   others   (max, min, ceil, a negative power, ...) NAME*0 + e: kept
 *            whole in the rest.
 * Every step is an identity, so the result is equal to the input at
 * every point; the coefficients and the rest are tidied with the
 * structural simplifier.  The names go in the order given: a term with
 * two of them goes to the first. */
#include <stdlib.h>
#include <string.h>

#include "algebra/structural/structural.h"
#include "base/util.h"

/* Deepest nesting split part by part; deeper subtrees are kept whole
 * (still exact), so no input can exhaust the stack. */
#define COLLECT_MAX_DEPTH 2000

/* Largest power of a sum with NAME in it written out as a product. */
#define COLLECT_MAX_POWER 8

/* e = NAME*coef + rest; NULL stands for 0. */
typedef struct split {
	segc_expr *coef, *rest;
} split;

/* A memo slot: the node (borrowed key), whether NAME occurs free in it
 * (-1 not known yet) and its split (when 'done'). */
typedef struct memo_slot {
	const segc_expr *key;
	int has, done;
	split s;
} memo_slot;

typedef struct collector {
	const char *name;
	memo_slot *slot;
	size_t cap, n;
	unsigned depth;
} collector;

/* The slot of 'e' in the memo of 'C' (empty when new). */
static memo_slot *memo_slot_of(collector *C, const segc_expr *e)
{
	size_t i, k;

	if (2 * (C->n + 1) > C->cap) {
		memo_slot *old = C->slot;
		size_t cap = C->cap;

		C->cap = cap ? 2 * cap : 64;
		C->slot = segc_xcalloc(C->cap, sizeof *C->slot);
		for (k = 0; k < cap; k++)
			if (old[k].key) {
				i = (size_t)segc_expr_hash(old[k].key) & (C->cap - 1);
				while (C->slot[i].key)
					i = (i + 1) & (C->cap - 1);
				C->slot[i] = old[k];
			}
		free(old);
	}
	i = (size_t)segc_expr_hash(e) & (C->cap - 1);
	while (C->slot[i].key && C->slot[i].key != e)
		i = (i + 1) & (C->cap - 1);
	if (!C->slot[i].key) {
		C->slot[i].key = e;
		C->slot[i].has = -1;
		C->n++;
	}
	return &C->slot[i];
}

/* Non-zero when NAME occurs free in 'e' (memoised: each node once). */
static int has_name(collector *C, const segc_expr *e)
{
	memo_slot *m;
	size_t i, n;
	int has = 0;

	if (segc_expr_kind(e) == SEGC_NUM)
		return 0;
	if (segc_expr_kind(e) == SEGC_SYM)
		return !strcmp(segc_expr_name(e), C->name);
	m = memo_slot_of(C, e);
	if (m->has >= 0)
		return m->has;
	if (C->depth >= COLLECT_MAX_DEPTH)
		has = segc_expr_has_sym(e, C->name);
	else {
		n = segc_expr_kind(e) == SEGC_POW ? 2 : segc_expr_kind(e)
			== SEGC_SUM ? (strcmp(segc_expr_name(e), C->name) ? 3 : 2)
			: segc_expr_nargs(e);
		C->depth++;
		for (i = 0; i < n && !has; i++)
			has = has_name(C, segc_expr_arg(e, i));
		C->depth--;
	}
	m = memo_slot_of(C, e);
	m->has = has;
	return has;
}

/* A new reference to 'e', or NULL for NULL. */
static segc_expr *ref(segc_expr *e)
{
	return e ? segc_expr_copy(e) : NULL;
}

/* a + b, NULL standing for 0 (both taken). */
static segc_expr *plus(segc_expr *a, segc_expr *b)
{
	if (!a)
		return b;
	if (!b)
		return a;
	return segc_expr_add2(a, b);
}

/* a * b, NULL standing for 0 (both taken). */
static segc_expr *times(segc_expr *a, segc_expr *b)
{
	if (!a || !b) {
		segc_expr_free(a);
		segc_expr_free(b);
		return NULL;
	}
	return segc_expr_mul2(a, b);
}

/* 'e' kept whole in the rest. */
static split whole(const segc_expr *e)
{
	split s;

	s.coef = NULL;
	s.rest = segc_expr_is_zero(e) ? NULL : segc_expr_copy(e);
	return s;
}

static split split_of(collector *C, const segc_expr *e);

/* The split of the product of the factors 'f'[0..n-1]. */
static split split_product(collector *C, segc_expr *const *f, size_t n)
{
	split p = split_of(C, f[0]), g, q;
	size_t i;

	for (i = 1; i < n; i++) {
		g = split_of(C, f[i]);
		q.coef = plus(times(p.coef, segc_expr_copy(f[i])),
			times(ref(p.rest), g.coef));
		q.rest = times(p.rest, g.rest);
		p = q;
	}
	return p;
}

/* The split of a power 'e'. */
static split split_pow(collector *C, const segc_expr *e)
{
	segc_expr *base = segc_expr_arg(e, 0), *x = segc_expr_arg(e, 1);
	segc_expr *copies[COLLECT_MAX_POWER];
	split s;
	long k, i;

	mpq_srcptr q;

	if (segc_expr_kind(x) != SEGC_NUM)
		return whole(e);
	q = segc_expr_value(x);
	if (mpz_cmp_ui(mpq_denref(q), 1) != 0 || mpz_sgn(mpq_numref(q)) <= 0
			|| mpz_cmp_ui(mpq_numref(q), COLLECT_MAX_POWER) > 0)
		return whole(e);
	k = (long)mpz_get_ui(mpq_numref(q));
	if (segc_expr_kind(base) == SEGC_SYM
			&& !strcmp(segc_expr_name(base), C->name)) {
		s.coef = segc_expr_powi(segc_expr_copy(base), k - 1);
		s.rest = NULL;
		return s;
	}
	for (i = 0; i < k; i++)
		copies[i] = base;
	return split_product(C, copies, (size_t)k);
}

/* The split of sum(i, lo, hi, body) 'e'. */
static split split_sum(collector *C, const segc_expr *e)
{
	segc_expr *lo = segc_expr_arg(e, 0), *hi = segc_expr_arg(e, 1);
	const char *var = segc_expr_name(e);
	split b, s;

	if (!strcmp(var, C->name) || has_name(C, lo) || has_name(C, hi))
		return whole(e);
	b = split_of(C, segc_expr_arg(e, 2));
	s.coef = b.coef ? segc_expr_sum(var, segc_expr_copy(lo),
		segc_expr_copy(hi), b.coef) : NULL;
	s.rest = b.rest ? segc_expr_sum(var, segc_expr_copy(lo),
		segc_expr_copy(hi), b.rest) : NULL;
	return s;
}

/* if(q, a, b) from the parts 'a' and 'b' (taken; NULL for 0). */
static segc_expr *make_if(const segc_expr *q, segc_expr *a, segc_expr *b)
{
	segc_expr *v[3];

	if (a == b) {      /* if(q, x, x) = x; also both 0 */
		segc_expr_free(b);
		return a;
	}
	v[0] = segc_expr_copy(q);
	v[1] = a ? a : segc_expr_int(0);
	v[2] = b ? b : segc_expr_int(0);
	return segc_expr_call("if", 3, v);
}

/* The split of a call 'e'. */
static split split_call(collector *C, const segc_expr *e)
{
	split a, b, s;

	if (strcmp(segc_expr_name(e), "if") || segc_expr_nargs(e) != 3
			|| has_name(C, segc_expr_arg(e, 0)))
		return whole(e);
	a = split_of(C, segc_expr_arg(e, 1));
	b = split_of(C, segc_expr_arg(e, 2));
	s.coef = make_if(segc_expr_arg(e, 0), a.coef, b.coef);
	s.rest = make_if(segc_expr_arg(e, 0), a.rest, b.rest);
	return s;
}

/* Splits 'e' without the memo. */
static split split_node(collector *C, const segc_expr *e)
{
	split s = { NULL, NULL }, t;
	segc_expr **f;
	size_t i;

	switch (segc_expr_kind(e)) {
	case SEGC_SYM:
		if (strcmp(segc_expr_name(e), C->name))
			return whole(e);
		s.coef = segc_expr_int(1);
		return s;
	case SEGC_ADD:
		for (i = 0; i < segc_expr_nargs(e); i++) {
			t = split_of(C, segc_expr_arg(e, i));
			s.coef = plus(s.coef, t.coef);
			s.rest = plus(s.rest, t.rest);
		}
		return s;
	case SEGC_MUL:
		f = segc_xcalloc(segc_expr_nargs(e), sizeof *f);
		for (i = 0; i < segc_expr_nargs(e); i++)
			f[i] = segc_expr_arg(e, i);
		s = split_product(C, f, segc_expr_nargs(e));
		free(f);
		return s;
	case SEGC_POW:
		return split_pow(C, e);
	case SEGC_SUM:
		return split_sum(C, e);
	case SEGC_CALL:
		return split_call(C, e);
	default:
		return whole(e);
	}
}

/* The split of 'e' (new references), memoised. */
static split split_of(collector *C, const segc_expr *e)
{
	memo_slot *m;
	split s;

	if (segc_expr_kind(e) == SEGC_NUM)
		return whole(e);
	if (C->depth >= COLLECT_MAX_DEPTH || !has_name(C, e))
		return whole(e);
	m = memo_slot_of(C, e);
	if (!m->done) {
		C->depth++;
		s = split_node(C, e);
		C->depth--;
		m = memo_slot_of(C, e);
		m->done = 1;
		m->s = s;
	}
	s.coef = ref(m->s.coef);
	s.rest = ref(m->s.rest);
	return s;
}

/* Releases the memo of 'C'. */
static void collector_clear(collector *C)
{
	size_t i;

	for (i = 0; i < C->cap; i++)
		if (C->slot[i].key) {
			segc_expr_free(C->slot[i].s.coef);
			segc_expr_free(C->slot[i].s.rest);
		}
	free(C->slot);
}

/* 'e' (taken) tidied: in the readable form on 'dom' when 'ctx' is
 * given, else with the structural simplifier.  A sum stays a sum (its
 * terms made readable one by one and merged when the whole would not
 * be one), so that a coefficient reads NAME*(...). */
static segc_expr *tidy(segc_ctx *ctx, const segc_domains *dom, segc_expr *e)
{
	segc_expr *r, **v;
	size_t i, n;

	e = segc_structural_simplify(e);
	if (!ctx || !e)
		return e;
	r = segc_structural_readable(ctx, dom, segc_expr_copy(e));
	if (segc_expr_kind(e) != SEGC_ADD || segc_expr_kind(r) == SEGC_ADD) {
		segc_expr_free(e);
		return r;
	}
	segc_expr_free(r);
	n = segc_expr_nargs(e);
	v = segc_xmalloc(segc_xmul_size(n, sizeof(*v)));
	for (i = 0; i < n; i++)
		v[i] = segc_structural_readable(ctx, dom,
			segc_expr_copy(segc_expr_arg(e, i)));
	r = segc_structural_simplify(segc_expr_add(n, v));
	free(v);
	segc_expr_free(e);
	return r;
}

/* segc_collect, each part tidied with tidy(ctx, dom, ...). */
static segc_expr *collect(segc_ctx *ctx, const segc_domains *dom,
	const segc_expr *e, size_t n, const char *const *names,
	unsigned *found)
{
	segc_expr *rest = segc_expr_copy(e), *out = NULL;
	size_t k;

	for (k = 0; k < n && rest; k++) {
		collector C;
		split s;

		memset(&C, 0, sizeof C);
		C.name = names[k];
		s = split_of(&C, rest);
		collector_clear(&C);
		segc_expr_free(rest);
		rest = s.rest;
		s.coef = s.coef ? tidy(ctx, dom, s.coef) : NULL;
		if (s.coef && segc_expr_is_zero(s.coef)) {
			segc_expr_free(s.coef);
			s.coef = NULL;
		}
		if (found)
			found[k] = s.coef != NULL;
		if (s.coef && segc_expr_kind(s.coef) == SEGC_ADD)
			out = plus(out, segc_expr_mul2(segc_expr_sym(names[k]),
				s.coef));
		else if (s.coef && ctx)  /* one term, the name last */
			out = plus(out, segc_structural_simplify(segc_expr_mul2(
				s.coef, segc_expr_sym(names[k]))));
		else if (s.coef)    /* one term: its powers merged (N*N^2) */
			out = plus(out, segc_structural_simplify(segc_expr_mul2(
				segc_expr_sym(names[k]), s.coef)));
	}
	for (; found && k < n; k++)
		found[k] = 0;
	out = plus(out, rest ? tidy(ctx, dom, rest) : NULL);
	return out ? out : segc_expr_int(0);
}

/* See segc.h. */
segc_expr *segc_collect(const segc_expr *e, size_t n,
	const char *const *names, unsigned *found)
{
	return collect(NULL, NULL, e, n, names, found);
}

/* See segc.h. */
segc_expr *segc_collect_readable(segc_ctx *ctx, const segc_domains *dom,
	const segc_expr *e, size_t n, const char *const *names,
	unsigned *found)
{
	return collect(ctx, dom, e, n, names, found);
}
