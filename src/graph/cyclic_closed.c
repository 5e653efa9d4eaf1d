/* cyclic_closed.c - the closed form of an overlapped loop whose costs are
 * symbolic (parameters, resources, any expression of names other than the
 * count), proved on the declared domains (FORMAT.md 3.2, doc/format.md
 * "What segc computes").
 *
 * The finish times are propagated as expressions, iteration by iteration,
 *   fin(i, v) = cost(v) + max(0, fin(i, u) + c, fin(i - d, u) + c, ...),
 * each one canonical, so that equal expressions are the same pointer.  At
 * every maximum the domains must prove one alternative at least as large
 * as all the others (segc_proved_signs); it is the one taken.  The
 * periodicity proof is the numeric one of algebra/maxplus.c: once the
 * nodes that forward arcs leave moved by the same lambda in each of the
 * last D iterations (canonical differences the same pointer), lambda is
 * proved >= 0, and the last iteration took every carried and exit time
 * from the earlier iterations rather than from the 0 start (the
 * homogeneous part), every later iteration repeats it moved by lambda:
 * T(n) = T(p) + (n - p) lambda for n >= p.
 *
 * When two alternatives stay undecided and differ by a*x + b (a, b
 * numbers, x one declared name whose domain holds -b/a strictly inside),
 * x's domain is split at -b/a and each piece is propagated on its own:
 * if(x <= -b/a, F_low, F_high).  Anything else undecided gives no closed
 * form (the caller keeps the recurrence atom). */
#include <stdlib.h>
#include <string.h>

#include "graph/cyclic.h"
#include "graph/rgraph.h"
#include "graph/maxplus.h"
#include "expr/builtin.h"
#include "expr/expr_private.h"
#include "base/util.h"

/* Iterations propagated at most (each one canonicalizes and proves a few
 * expressions per arc, so fewer than the numeric path's 4096), and the
 * node and arc visits of all the propagations of one region (fewer
 * iterations for a large region); the most values of the transient written
 * out, and the splitting of domains: the deepest nesting and the most
 * pieces. */
#define SYM_MAX_STEPS 512UL
#define SYM_MAX_VISITS 200000UL
#define SYM_MAX_PIECES 64UL
#define SYM_MAX_DEPTH 3U
#define SYM_MAX_BOXES 8U

/* The state of one closed form: the region, its graph, the names its
 * costs use (for copies of the domains) and the splitting budget. */
struct sym {
	segc_ctx *ctx;
	const segc_cyclic *g;
	segc_maxplus_sys s;       /* the graph only: D, state, carried */
	const char **names;       /* the free names of the costs, sorted */
	size_t nnames;
	unsigned boxes;           /* boxes of domains made so far */
	unsigned long visits;     /* node and arc visits left */
};

/* One propagation on one box of domains. */
struct run {
	struct sym *S;
	const segc_domains *dom;
	segc_expr **cost, **acost;    /* m, k: canonical under 'dom' */
	segc_expr **fin;              /* ring x m */
	unsigned long ring;
	unsigned char *hom;           /* m: took its time from the carried part */
	segc_expr **T;                /* SYM_MAX_STEPS + 1 */
	unsigned long i;
};

/* An alternative of a maximum: its value and whether it belongs to the
 * homogeneous part (see the top of algebra/maxplus.c). */
struct alt {
	segc_expr *val;
	int hom;
};

/* ------------------------------------------------------------ names */

/* Adds the free names of 'e' to S (a sorted set), walking each node once
 * through 'seen'. */
static void add_names(struct sym *S, segc_expr_map *seen, segc_expr *e)
{
	size_t i, lo, hi;

	if (!e || segc_expr_map_find(seen, e))
		return;
	segc_expr_map_put(seen, e, e);
	if (segc_expr_kind(e) == SEGC_SYM) {
		const char *name = segc_expr_name(e);

		lo = 0;
		hi = S->nnames;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			int c = strcmp(S->names[mid], name);

			if (!c)
				return;
			if (c < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		S->names = segc_xrealloc(S->names,
			(S->nnames + 1) * sizeof(*S->names));
		memmove(S->names + lo + 1, S->names + lo,
			(S->nnames - lo) * sizeof(*S->names));
		S->names[lo] = name;
		S->nnames++;
		return;
	}
	if (segc_expr_kind(e) == SEGC_NUM)
		return;
	for (i = 0; i < segc_expr_nargs(e); i++)
		add_names(S, seen, segc_expr_arg(e, i));
}

/* A copy of 'dom' for the names of the costs, with name 'x' bounded by
 * 't' from above ('upper') or from below. */
static segc_domains *split_domains(const struct sym *S,
	const segc_domains *dom, const char *x, mpq_srcptr t, int upper)
{
	segc_domains *d = segc_domains_new();
	size_t i;

	for (i = 0; i < S->nnames; i++) {
		mpq_srcptr lo, hi;
		int integer;

		if (!segc_domains_get(dom, S->names[i], &lo, &hi, &integer))
			continue;
		if (!strcmp(S->names[i], x)) {
			if (upper)
				hi = t;
			else
				lo = t;
		}
		segc_domains_set(d, S->names[i], lo, hi, integer);
	}
	return d;
}

/* -------------------------------------------------------- propagation */

/* Decides a >= b without a proof where a cheap test can ('*yes' set,
 * returns 1): a - b affine in names of bounded domains (a number by the
 * linear parts among them: segc_affine_ge decides that case as
 * segc_linear_difference would), or a point of the domains where a < b;
 * else 0. */
static int cheap_ge(struct run *R, segc_expr *a, segc_expr *b,
	unsigned *yes)
{
	int lin;

	lin = segc_affine_ge(R->dom, a, b);
	*yes = lin == 1;
	if (lin >= 0)
		return 1;
	return segc_points_below(R->dom, a, b);
}

/* Non-zero when the domains prove a >= b. */
static int proved_ge(struct run *R, segc_expr *a, segc_expr *b)
{
	segc_expr *d;
	unsigned s;

	if (a == b)
		return 1;
	if (cheap_ge(R, a, b, &s))
		return s;
	d = segc_expr_sub2(segc_expr_copy(a), segc_expr_copy(b));
	s = segc_proved_signs(R->S->ctx, R->dom, d);
	segc_expr_free(d);
	return (s & (SEGC_PROVED_NONNEG | SEGC_PROVED_POS)) != 0;
}

/* canonical(a + b) of two kept expressions, or NULL. */
static segc_expr *canon_add(struct run *R, segc_expr *a, segc_expr *b)
{
	return segc_canonical(R->S->ctx, R->dom,
		segc_expr_add2(segc_expr_copy(a), segc_expr_copy(b)));
}

/* canonical(a - b) of two kept expressions, or NULL. */
static segc_expr *canon_sub(struct run *R, segc_expr *a, segc_expr *b)
{
	return segc_canonical(R->S->ctx, R->dom,
		segc_expr_sub2(segc_expr_copy(a), segc_expr_copy(b)));
}

/* canonical(fin + c) of a finish time and an arc's cost: 'fin' itself (a
 * new reference) when c is the number 0, since a canonical form is its
 * own canonical form; most arcs cost nothing, and this saves their
 * canonicalization at every iteration. */
static segc_expr *arc_time(struct run *R, segc_expr *fin, segc_expr *c)
{
	if (fin && segc_expr_kind(c) == SEGC_NUM &&
		!mpq_sgn(segc_expr_value(c)))
		return segc_expr_copy(fin);
	return canon_add(R, fin, c);
}

/* The slot of node 'v' in iteration 'i'. */
static segc_expr **fin_at(struct run *R, unsigned long i, size_t v)
{
	return &R->fin[(i % R->ring) * R->S->g->m + v];
}

/* Non-zero when canonical 'e' is a*x + b with a != 0, b numbers, x one
 * name: then 'x', a and b are set. */
static int affine(const segc_expr *e, const char **x, mpq_t a, mpq_t b)
{
	int sum = segc_expr_kind(e) == SEGC_ADD;
	size_t i, n = sum ? segc_expr_nargs(e) : 1;

	*x = NULL;
	mpq_set_ui(a, 0, 1);
	mpq_set_ui(b, 0, 1);
	for (i = 0; i < n; i++) {
		const segc_expr *t = sum ? segc_expr_arg(e, i) : e;
		const segc_expr *s = t, *q = NULL;

		if (segc_expr_kind(t) == SEGC_NUM) {
			mpq_add(b, b, segc_expr_value(t));
			continue;
		}
		if (segc_expr_kind(t) == SEGC_MUL && segc_expr_nargs(t) == 2) {
			q = segc_expr_arg(t, 0);
			s = segc_expr_arg(t, 1);
			if (segc_expr_kind(q) != SEGC_NUM) {
				q = segc_expr_arg(t, 1);
				s = segc_expr_arg(t, 0);
			}
			if (segc_expr_kind(q) != SEGC_NUM)
				return 0;
		}
		if (segc_expr_kind(s) != SEGC_SYM ||
			(*x && strcmp(*x, segc_expr_name(s))))
			return 0;
		*x = segc_expr_name(s);
		if (q)
			mpq_add(a, a, segc_expr_value(q));
		else    /* a + 1 */
			mpz_add(mpq_numref(a), mpq_numref(a), mpq_denref(a));
	}
	return *x && mpq_sgn(a) != 0;
}

static segc_expr *propagate(struct sym *S, const segc_domains *dom,
	unsigned depth);

/* The closed form split at the threshold where a - b changes sign, when
 * it is a*x + b with -b/a strictly inside x's domain and the budget
 * allows; else NULL. */
static segc_expr *split(struct run *R, segc_expr *a, segc_expr *b,
	unsigned depth)
{
	struct sym *S = R->S;
	segc_expr *d = canon_sub(R, a, b), *lo = NULL, *hi = NULL, *e = NULL;
	const char *x;
	mpq_t ca, cb, t;
	mpq_srcptr min, max;
	int integer;

	mpq_inits(ca, cb, t, (mpq_ptr)0);
	if (!d || !affine(d, &x, ca, cb) ||
		!segc_domains_get(R->dom, x, &min, &max, &integer))
		goto out;
	mpq_div(t, cb, ca);
	mpq_neg(t, t);
	if ((min && mpq_cmp(t, min) <= 0) || (max && mpq_cmp(t, max) >= 0))
		goto out;
	if (depth >= SYM_MAX_DEPTH || S->boxes + 1 > SYM_MAX_BOXES)
		goto out;
	S->boxes++;
	{
		segc_domains *dl = split_domains(S, R->dom, x, t, 1);
		segc_domains *dh = split_domains(S, R->dom, x, t, 0);

		lo = propagate(S, dl, depth + 1);
		hi = lo ? propagate(S, dh, depth + 1) : NULL;
		segc_domains_free(dl);
		segc_domains_free(dh);
	}
	if (lo && hi && lo == hi) {
		e = lo;
		lo = NULL;
	} else if (lo && hi) {
		segc_expr *rel[2], *args[3];

		rel[0] = segc_expr_sym(x);
		rel[1] = segc_expr_num(t);
		args[0] = segc_expr_call_builtin(SEGC_BUILTIN_LE, 2, rel);
		args[1] = lo;
		args[2] = hi;
		e = segc_expr_call_builtin(SEGC_BUILTIN_IF, 3, args);
		lo = hi = NULL;
	}
out:
	segc_expr_free(lo);
	segc_expr_free(hi);
	segc_expr_free(d);
	mpq_clears(ca, cb, t, (mpq_ptr)0);
	return e;
}

/* Picks the largest of the 'n' alternatives 'v': its index, the first
 * homogeneous one among those proved at least as large as every other;
 * -1 when none is proved. */
static long largest(struct run *R, const struct alt *v, size_t n)
{
	size_t i, j;
	long best = -1;

	for (i = 0; i < n; i++) {
		int top = 1;

		for (j = 0; j < n && top; j++)
			top = j == i || proved_ge(R, v[i].val, v[j].val);
		if (top && (best < 0 || (v[i].hom && !v[best].hom)))
			best = (long)i;
		if (best >= 0 && v[best].hom)
			break;
	}
	return best;
}

/* The alternatives that no other one is proved to dominate, two of them
 * in 'a' and 'b'; 0 when fewer than two are left. */
static int undecided_pair(struct run *R, const struct alt *v, size_t n,
	size_t *a, size_t *b)
{
	size_t i, j, k = 0;

	for (i = 0; i < n && k < 2; i++) {
		int dominated = 0;

		for (j = 0; j < n && !dominated; j++)
			dominated = j != i && proved_ge(R, v[j].val, v[i].val) &&
				(j < i || !proved_ge(R, v[i].val, v[j].val));
		if (dominated)
			continue;
		if (k++)
			*b = i;
		else
			*a = i;
	}
	return k == 2;
}

/* Releases the alternatives 'v' (n). */
static void alts_free(struct alt *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		segc_expr_free(v[i].val);
}

/* Node 'v' in iteration R->i: its finish time, from arc '*arc' on.
 * 0; 1 when the maximum is undecided ('*e' then the split closed form or
 * NULL); -1 on failure. */
static int step_node(struct run *R, size_t v, size_t *arc, struct alt *alts,
	unsigned depth, segc_expr **e)
{
	const segc_cyclic *g = R->S->g;
	unsigned long i = R->i;
	size_t n = 0, a, b;
	long w;

	alts[n].val = segc_expr_int(0);
	alts[n++].hom = 0;
	for (; *arc < g->k && g->arcs[*arc].to == v; ++*arc) {
		const segc_cyclic_arc *c = &g->arcs[*arc];
		segc_expr *t;

		if (c->dist >= i)
			continue;
		t = arc_time(R, *fin_at(R, i - c->dist, c->from),
			R->acost[*arc]);
		if (!t) {
			alts_free(alts, n);
			return -1;
		}
		alts[n].val = t;
		alts[n++].hom = c->dist ? 1 : R->hom[c->from];
	}
	w = largest(R, alts, n);
	if (w < 0) {
		*e = undecided_pair(R, alts, n, &a, &b) ?
			split(R, alts[a].val, alts[b].val, depth) : NULL;
		alts_free(alts, n);
		return 1;
	}
	*fin_at(R, i, v) = canon_add(R, alts[w].val, R->cost[v]);
	R->hom[v] = (unsigned char)alts[w].hom;
	alts_free(alts, n);
	return *fin_at(R, i, v) ? 0 : -1;
}

/* The closed form from T(0..p) and lambda: lambda*n + c from the first
 * n0 where it holds, T(j) before; NULL past SYM_MAX_PIECES values. */
static segc_expr *closed(struct run *R, unsigned long p, segc_expr *lam)
{
	segc_expr *count = R->S->g->count, *c, *e = NULL, *t;
	unsigned long n0, j;

	t = segc_expr_mul2(segc_expr_int((long)p), segc_expr_copy(lam));
	c = segc_canonical(R->S->ctx, R->dom, segc_expr_sub2(
		segc_expr_copy(R->T[p]), t));
	if (!c)
		return NULL;
	for (n0 = p; n0 > 1; n0--) {
		t = segc_canonical(R->S->ctx, R->dom, segc_expr_add2(
			segc_expr_mul2(segc_expr_int((long)n0 - 1),
			segc_expr_copy(lam)), segc_expr_copy(c)));
		segc_expr_free(t);
		if (t != R->T[n0 - 1])
			break;
	}
	if (n0 <= SYM_MAX_PIECES) {
		e = segc_expr_add2(segc_expr_mul2(segc_expr_copy(lam),
			segc_expr_copy(count)), segc_expr_copy(c));
		for (j = n0; j-- > 0;) {
			segc_expr *rel[2], *args[3];

			rel[0] = segc_expr_copy(count);
			rel[1] = segc_expr_int((long)j);
			args[0] = segc_expr_call_builtin(SEGC_BUILTIN_LE, 2, rel);
			args[1] = segc_expr_copy(R->T[j]);
			args[2] = e;
			e = segc_expr_call_builtin(SEGC_BUILTIN_IF, 3, args);
		}
	}
	segc_expr_free(c);
	return e;
}

/* Runs iteration R->i + 1 (see step_node for the result); '*moved' gets
 * whether the nodes forward arcs leave all moved by one lambda, put in
 * '*dl' (a reference). */
static int step(struct run *R, unsigned depth, segc_expr **e, int *moved,
	segc_expr **dl, int *dominated, struct alt *alts)
{
	const segc_cyclic *g = R->S->g;
	const segc_maxplus_sys *s = &R->S->s;
	size_t v, arc = 0;
	int rc;

	*dominated = 1;
	*dl = NULL;
	if (R->S->visits < g->m + g->k)
		return -1;
	R->S->visits -= g->m + g->k;
	R->i++;
	*moved = R->i >= 2;
	for (v = 0; v < g->m; v++) {
		segc_expr **slot = fin_at(R, R->i, v), *t;

		segc_expr_free(*slot);
		*slot = NULL;
		rc = step_node(R, v, &arc, alts, depth, e);
		if (rc) {
			segc_expr_free(*dl);
			*dl = NULL;
			return rc;
		}
		if (!s->state[v])
			continue;
		*dominated = *dominated && R->hom[v];
		if (!*moved || s->state[v] != 2)
			continue;
		t = canon_sub(R, *slot, *fin_at(R, R->i - 1, v));
		if (!t) {
			segc_expr_free(*dl);
			*dl = NULL;
			return -1;
		}
		if (!*dl)
			*dl = t;
		else {
			if (t != *dl)
				*moved = 0;
			segc_expr_free(t);
		}
	}
	R->T[R->i] = segc_expr_copy(*fin_at(R, R->i, g->m - 1));
	return 0;
}

/* The closed form of the region on the box 'dom', or NULL. */
static segc_expr *propagate(struct sym *S, const segc_domains *dom,
	unsigned depth)
{
	const segc_cyclic *g = S->g;
	struct run R;
	struct alt *alts = segc_xmalloc((g->k + 2) * sizeof(*alts));
	segc_expr *e = NULL, *lam = segc_expr_int(0), *dl;
	unsigned long run = 0, j;
	size_t v;
	int rc = 0, moved, dominated, numbers = 1;

	memset(&R, 0, sizeof(R));
	R.S = S;
	R.dom = dom;
	R.ring = S->s.D + 1;
	R.cost = segc_xcalloc(g->m + 1, sizeof(*R.cost));
	R.acost = segc_xcalloc(g->k + 1, sizeof(*R.acost));
	R.fin = segc_xcalloc(R.ring * g->m + 1, sizeof(*R.fin));
	R.hom = segc_xcalloc(g->m + 1, 1);
	R.T = segc_xcalloc(SYM_MAX_STEPS + 2, sizeof(*R.T));
	R.T[0] = segc_expr_int(0);
	for (v = 0; v < g->m + g->k && rc >= 0; v++) {
		segc_expr *c = v < g->m ? g->cost[v] : g->arcs[v - g->m].cost;
		segc_expr **to = v < g->m ? &R.cost[v] : &R.acost[v - g->m];

		*to = c ? segc_canonical(S->ctx, dom, segc_expr_copy(c))
			: segc_expr_int(0);
		rc = *to ? 0 : -1;
		numbers = numbers && *to && segc_expr_is_num(*to);
	}
	/* Numbers are the numeric path's (cyclic.c): nothing to add. */
	if (numbers && !depth)
		rc = -1;
	while (rc == 0 && R.i < SYM_MAX_STEPS) {
		rc = step(&R, depth, &e, &moved, &dl, &dominated, alts);
		if (rc)
			break;
		if (!S->s.carried) {
			e = closed(&R, R.i, lam);
			break;
		}
		if (moved && run && dl == lam)
			run++;
		else if (moved) {
			run = 1;
			segc_expr_free(lam);
			lam = segc_expr_copy(dl);
		} else
			run = 0;
		segc_expr_free(dl);
		if (run >= S->s.D && R.i > S->s.D && dominated &&
			proved_ge(&R, lam, R.T[0])) {
			e = closed(&R, R.i, lam);
			break;
		}
	}
	for (j = 0; j <= R.i; j++)
		segc_expr_free(R.T[j]);
	for (j = 0; j < R.ring * g->m; j++)
		segc_expr_free(R.fin[j]);
	for (v = 0; v < g->m; v++)
		segc_expr_free(R.cost[v]);
	for (v = 0; v < g->k; v++)
		segc_expr_free(R.acost[v]);
	segc_expr_free(lam);
	free(R.T);
	free(R.fin);
	free(R.hom);
	free(R.cost);
	free(R.acost);
	free(alts);
	return e;
}

/* ------------------------------------------------------------- entry */

/* The closed form of 'g' with its costs as they are (see cyclic.h). */
segc_expr *segc_cyclic_closed(segc_ctx *ctx, const segc_domains *dom,
	const segc_cyclic *g)
{
	size_t diags = segc_ctx_n_diags(ctx), i;
	enum segc_status status = segc_ctx_status(ctx);
	struct sym S;
	segc_expr_map seen;
	segc_expr *e = NULL;

	memset(&S, 0, sizeof(S));
	S.boxes = 1;
	S.visits = SYM_MAX_VISITS;
	S.ctx = ctx;
	S.g = g;
	/* A cost that depends on the count has no closed form here. */
	segc_expr_map_init(&seen);
	add_names(&S, &seen, g->count);
	segc_expr_map_clear(&seen);
	for (i = 0; i < S.nnames; i++) {
		size_t j;

		for (j = 0; j < g->m + g->k; j++) {
			segc_expr *c = j < g->m ? g->cost[j] :
				g->arcs[j - g->m].cost;

			if (c && segc_expr_has_sym(c, S.names[i]))
				goto out;
		}
	}
	S.nnames = 0;
	segc_expr_map_init(&seen);
	for (i = 0; i < g->m + g->k; i++)
		add_names(&S, &seen, i < g->m ? g->cost[i] :
			g->arcs[i - g->m].cost);
	segc_expr_map_clear(&seen);
	S.s.m = g->m;
	S.s.k = g->k;
	S.s.D = 1;
	S.s.from = segc_xmalloc((g->k + 1) * sizeof(size_t));
	S.s.to = segc_xmalloc((g->k + 1) * sizeof(size_t));
	S.s.dist = segc_xmalloc((g->k + 1) * sizeof(unsigned long));
	for (i = 0; i < g->k; i++) {
		S.s.from[i] = g->arcs[i].from;
		S.s.to[i] = g->arcs[i].to;
		S.s.dist[i] = g->arcs[i].dist;
		if (S.s.dist[i] > S.s.D)
			S.s.D = S.s.dist[i];
	}
	segc_maxplus_prepare(&S.s);
	e = propagate(&S, dom, 0);
	segc_maxplus_clear(&S.s);
out:
	/* A closed form that is not found leaves no trace, unless the work
	 * of the whole document ran out: that limit error stays. */
	if (!e && !segc_cyclic_work_out(ctx))
		segc_ctx_rollback(ctx, diags, status);
	free(S.names);
	return e;
}

/* Non-zero when 'ctx' has spent more than max_work (see cyclic.h). */
int segc_cyclic_work_out(const segc_ctx *ctx)
{
	unsigned long max = segc_ctx_limits((segc_ctx *)ctx)->max_work;

	return max && segc_ctx_work(ctx) > max;
}
