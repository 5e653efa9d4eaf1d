/* cyclic.c - max-plus cyclic task graphs: the time of an overlapped loop
 * region with forward edges (FORMAT.md 3.2, Simon & Wierum 2.2, 2.5).
 *
 * The region is a task graph of m nodes, numbered in topological order of
 * its arcs inside one iteration (the last node is the region's exit), and
 * forward arcs that reach d >= 1 iterations ahead.  For iterations
 * i = 1 .. n, in order, every node finishes at
 *   fin(i, v) = cost(v) + max(0, fin(i, u) + c for arcs u -> v,
 *                fin(i - d, u) + c for forward arcs u -> v with i - d >= 1)
 * (Simon & Wierum's propagation of time stamps), and the region takes
 * fin(n, m).  Everything is exact (GMP rationals).
 *
 * A formula holds the recurrence as the atom maxplus(...), whose
 * propagation and period live in algebra/maxplus.c.  When every cost is a
 * number and the schedule becomes periodic, a closed form lambda*n + c
 * from the first n0 where it holds is proved instead; with symbolic costs
 * cyclic_closed.c proves it on the declared domains. */
#include <stdlib.h>
#include <string.h>

#include "graph/cyclic.h"
#include "graph/maxplus.h"
#include "expr/builtin.h"
#include "base/util.h"

/* Iterations the closed form propagates at most, and the most values of
 * the transient it writes out before falling back to the recurrence. */
#define CLOSED_MAX_STEPS 4096UL
#define CLOSED_MAX_PIECES 64UL

_Static_assert(SEGC_MAXPLUS_MAX_DISTANCE == SEGC_MAX_FORWARD,
	"a forward edge of the model is an arc of a max-plus system");

/* The number 'q' as an expression. */
static segc_expr *num(const mpq_t q)
{
	return segc_expr_num(q);
}

/* if(n <= j, a, b). */
static segc_expr *if_le(segc_expr *n, unsigned long j, segc_expr *a,
	segc_expr *b)
{
	segc_expr *rel[2], *args[3];

	rel[0] = segc_expr_copy(n);
	rel[1] = segc_expr_int((long)j);
	args[0] = segc_expr_call_builtin(SEGC_BUILTIN_LE, 2, rel);
	args[1] = a;
	args[2] = b;
	return segc_expr_call_builtin(SEGC_BUILTIN_IF, 3, args);
}

/* The closed form of 's' for count 'n' (kept), or NULL when none is
 * proved with at most CLOSED_MAX_PIECES values of the transient:
 * lambda*n + c from n0 on, T(j) for 0 <= j < n0. */
static segc_expr *closed_form(const segc_maxplus_sys *s, segc_expr *n)
{
	mpq_t *T, lam, c, t;
	unsigned long p, n0, j;
	segc_expr *e = NULL;

	mpq_inits(lam, c, t, (mpq_ptr)0);
	if (segc_maxplus_transient(s, CLOSED_MAX_STEPS, &T, &p, lam))
		goto out;
	mpq_set_ui(t, p, 1);
	mpq_mul(t, t, lam);
	mpq_sub(c, T[p], t);
	for (n0 = p; n0 > 1; n0--) {
		mpq_set_ui(t, n0 - 1, 1);
		mpq_mul(t, t, lam);
		mpq_add(t, t, c);
		if (!mpq_equal(t, T[n0 - 1]))
			break;
	}
	if (n0 <= CLOSED_MAX_PIECES) {
		e = segc_expr_add2(segc_expr_mul2(num(lam),
			segc_expr_copy(n)), num(c));
		for (j = n0; j-- > 0;)
			e = if_le(n, j, num(T[j]), e);
	}
	for (j = 0; j <= p; j++)
		mpq_clear(T[j]);
	free(T);
out:
	mpq_clears(lam, c, t, (mpq_ptr)0);
	return e;
}

/* ------------------------------------------------------------- atoms */

/* The atom of the recurrence 'g' (see cyclic.h): maxplusv binding
 * 'var' when it is not NULL, else maxplus. */
static segc_expr *atom(segc_cyclic *g, const char *var)
{
	size_t nargs = g->m + 3 + 4 * g->k + (var != NULL), i, j = 0;
	segc_expr **a = segc_xmalloc((nargs + 1) * sizeof(*a));
	segc_expr *e;

	if (var)
		a[j++] = segc_expr_sym(var);
	a[j++] = segc_expr_copy(g->count);
	a[j++] = segc_expr_int((long)g->m);
	for (i = 0; i < g->m; i++)
		a[j++] = g->cost[i] ? segc_expr_copy(g->cost[i])
			: segc_expr_int(0);
	a[j++] = segc_expr_int((long)g->k);
	for (i = 0; i < g->k; i++) {
		a[j++] = segc_expr_int((long)g->arcs[i].from + 1);
		a[j++] = segc_expr_int((long)g->arcs[i].to + 1);
		a[j++] = segc_expr_int((long)g->arcs[i].dist);
		a[j++] = g->arcs[i].cost ? segc_expr_copy(g->arcs[i].cost)
			: segc_expr_int(0);
	}
	e = segc_expr_call_builtin(var ? SEGC_BUILTIN_MAXPLUSV :
		SEGC_BUILTIN_MAXPLUS, nargs, a);
	free(a);
	return e;
}

/* Orders arcs by target, then source (a stable order for the atom). */
static int arc_cmp(const void *x, const void *y)
{
	const segc_cyclic_arc *a = x, *b = y;

	if (a->to != b->to)
		return a->to < b->to ? -1 : 1;
	if (a->from != b->from)
		return a->from < b->from ? -1 : 1;
	return a->dist < b->dist ? -1 : a->dist > b->dist;
}

/* Non-zero when every cost of 'g' (canonical under 'dom') is a number;
 * the numbers then in 'q' (m costs, then k arc costs). */
static int numeric(segc_ctx *ctx, const segc_domains *dom,
	const segc_cyclic *g, mpq_t *q)
{
	size_t i;
	int ok = 1;

	for (i = 0; i < g->m + g->k && ok; i++) {
		segc_expr *c = i < g->m ? g->cost[i] : g->arcs[i - g->m].cost;
		segc_expr *v = c ? segc_canonical(ctx, dom, segc_expr_copy(c))
			: segc_expr_int(0);

		ok = v && segc_expr_is_num(v);
		if (ok)
			mpq_set(q[i], segc_expr_value(v));
		segc_expr_free(v);
	}
	return ok;
}

/* The closed form of 'g' when its costs are numbers, else NULL. */
static segc_expr *try_closed(segc_ctx *ctx, const segc_domains *dom,
	segc_cyclic *g)
{
	size_t n = g->m + g->k, i;
	mpq_t *q = segc_xmalloc((n + 1) * sizeof(mpq_t));
	segc_expr *e = NULL;
	segc_maxplus_sys s;

	for (i = 0; i < n; i++)
		mpq_init(q[i]);
	if (numeric(ctx, dom, g, q)) {
		memset(&s, 0, sizeof(s));
		s.m = g->m;
		s.k = g->k;
		s.cost = q;
		s.acost = q + g->m;
		s.astride = 1;
		s.D = 1;
		s.from = segc_xmalloc((g->k + 1) * sizeof(size_t));
		s.to = segc_xmalloc((g->k + 1) * sizeof(size_t));
		s.dist = segc_xmalloc((g->k + 1) * sizeof(unsigned long));
		for (i = 0; i < g->k; i++) {
			s.from[i] = g->arcs[i].from;
			s.to[i] = g->arcs[i].to;
			s.dist[i] = g->arcs[i].dist;
			if (s.dist[i] > s.D)
				s.D = s.dist[i];
		}
		segc_maxplus_prepare(&s);
		e = closed_form(&s, g->count);
		segc_maxplus_clear(&s);
	}
	for (i = 0; i < n; i++)
		mpq_clear(q[i]);
	free(q);
	return e;
}

/* Non-zero when a cost of 'g' uses its counter. */
static int uses_counter(const segc_cyclic *g)
{
	size_t i;

	for (i = 0; g->var && i < g->m; i++)
		if (g->cost[i] && segc_expr_has_sym(g->cost[i], g->var))
			return 1;
	for (i = 0; g->var && i < g->k; i++)
		if (g->arcs[i].cost && segc_expr_has_sym(g->arcs[i].cost,
				g->var))
			return 1;
	return 0;
}

/* Non-zero when no cost of 'g' is anything but 0 (a component that
 * none of the region's costs count in). */
static int all_zero(const segc_cyclic *g)
{
	size_t i;

	for (i = 0; i < g->m; i++)
		if (g->cost[i] && !segc_expr_is_zero(g->cost[i]))
			return 0;
	for (i = 0; i < g->k; i++)
		if (g->arcs[i].cost && !segc_expr_is_zero(g->arcs[i].cost))
			return 0;
	return 1;
}

/* The time of the cyclic region 'g' (see cyclic.h). */
segc_expr *segc_cyclic_time(segc_ctx *ctx, const segc_domains *dom,
	segc_cyclic *g)
{
	segc_expr *e;

	qsort(g->arcs, g->k, sizeof(*g->arcs), arc_cmp);
	if (all_zero(g))
		return segc_expr_int(0);
	if (uses_counter(g))
		return atom(g, g->var);
	e = try_closed(ctx, dom, g);
	if (!e)
		e = segc_cyclic_closed(ctx, dom, g);
	if (!e && segc_cyclic_work_out(ctx))
		return NULL;
	return e ? e : atom(g, NULL);
}
