/* indexed_closed.c - closed forms of the time of a task graph with
 * indexed nodes (FORMAT.md, "Indexed nodes"), for the one shape where one
 * is proved here, the separable box; any other graph keeps the atom.
 *
 * A family F is a separable box when the bounds of its indices use no
 * index, its cost and the costs of its arcs to itself use no index,
 * every arc to itself advances exactly one index by 1 (at="x+1, y") and
 * every index has such an arc, every arc into it comes from a plain node
 * to its first corner (at = the lower bounds), and every arc out of it
 * goes to a plain node.  Then every instance is reached from the first
 * corner, every path from it to instance i takes the same time, and
 *   finish(i) = T_in + c + sum_k (i_k - lo_k) (c + m_k)
 * (m_k the largest cost of the arcs along index k, T_in the arrival at
 * the first corner).  An arc out of F leaves every instance, so it
 * leaves at the latest finish, over i_k in lo_k..hi_k:
 *   T_in + c + sum_k (hi_k - lo_k) max(0, c + m_k),
 * when every hi_k >= lo_k; when one is smaller F has no instance and
 * its arcs do not exist, which the formula says with if().  Families
 * are then nodes of a DAG of plain nodes, reduced by longest path. */
#include <stdlib.h>
#include <string.h>

#include "graph/indexed.h"
#include "expr/builtin.h"
#include "base/util.h"

/* Non-zero when 'e' is the index 'k' of 'x' plus 'add' (0 or 1). */
static int is_shift(const segc_expr *e, const segc_node *x, size_t k,
	long add)
{
	segc_expr *want = segc_expr_sym(x->index_name[k]);
	int yes;

	if (add)
		want = segc_expr_add2(want, segc_expr_int(add));
	yes = want == e;
	if (!yes && add && segc_expr_kind(e) == SEGC_ADD) {
		/* 1 + x as well as x + 1 */
		segc_expr *alt = segc_expr_add2(segc_expr_int(add),
			segc_expr_sym(x->index_name[k]));

		yes = alt == e;
		segc_expr_free(alt);
	}
	segc_expr_free(want);
	return yes;
}

/* The axis a self-arc 'a' of 'x' advances, or -1 when it is not a unit
 * shift along one axis. */
static long axis_of(const segc_arc *a, const segc_node *x)
{
	long axis = -1;
	size_t k;

	if (a->nat != x->nindex)
		return -1;
	for (k = 0; k < x->nindex; k++) {
		if (is_shift(a->at[k], x, k, 0))
			continue;
		if (axis >= 0 || !is_shift(a->at[k], x, k, 1))
			return -1;
		axis = (long)k;
	}
	return axis;
}

/* Non-zero when family 'v' of 'g' is a separable box; its largest arc
 * cost along each axis into 'm' (NULL: no cost). */
static int is_box(const segc_graph *g, size_t v, segc_expr **m)
{
	const segc_node *x = &g->nodes[v];
	size_t i, k;
	int ok = 1;

	for (k = 0; k < x->nindex; k++)
		if (segc_indexed_uses(x->index_lo[k], x->index_name, x->nindex)
		    || segc_indexed_uses(x->index_hi[k], x->index_name,
		    x->nindex))
			return 0;
	if (segc_indexed_uses(x->cost, x->index_name, x->nindex))
		return 0;
	for (k = 0; k < x->nindex; k++)
		m[k] = NULL;
	for (i = 0; i < g->narcs && ok; i++) {
		const segc_arc *a = &g->arcs[i];
		long ax;

		if (a->from_index == v && a->to_index == v) {
			ax = axis_of(a, x);
			if (ax < 0 || segc_indexed_uses(a->cost, x->index_name,
				    x->nindex)) {
				ok = 0;
				break;
			}
			m[ax] = m[ax] ? segc_expr_call_builtin(
				SEGC_BUILTIN_MAX, 2, (segc_expr *[]){ m[ax],
				a->cost ? segc_expr_copy(a->cost) :
				segc_expr_int(0) }) : a->cost ?
				segc_expr_copy(a->cost) : segc_expr_int(0);
		} else if (a->to_index == v) {
			ok = !g->nodes[a->from_index].nindex &&
				a->nat == x->nindex;
			for (k = 0; k < x->nindex && ok; k++)
				ok = a->at[k] == x->index_lo[k];
		} else if (a->from_index == v) {
			ok = !g->nodes[a->to_index].nindex &&
				!segc_indexed_uses(a->cost, x->index_name,
				x->nindex);
		}
	}
	for (k = 0; k < x->nindex && ok; k++)
		ok = m[k] != NULL;
	if (!ok)
		for (k = 0; k < x->nindex; k++) {
			segc_expr_free(m[k]);
			m[k] = NULL;
		}
	return ok;
}

/* The condition that family 'x' has instances: every hi_k >= lo_k. */
static segc_expr *nonempty(const segc_node *x)
{
	segc_expr **c = segc_xmalloc((x->nindex + 1) * sizeof(*c));
	segc_expr *r;
	size_t k;

	for (k = 0; k < x->nindex; k++)
		c[k] = segc_expr_call_builtin(SEGC_BUILTIN_GE, 2,
			(segc_expr *[]){ segc_expr_copy(x->index_hi[k]),
			segc_expr_copy(x->index_lo[k]) });
	r = x->nindex == 1 ? c[0] : segc_expr_call_builtin(SEGC_BUILTIN_AND,
		x->nindex, c);
	free(c);
	return r;
}

/* 'e' or 0 (a copy). */
static segc_expr *or_zero(segc_expr *e)
{
	return e ? segc_expr_copy(e) : segc_expr_int(0);
}

/* The maximum of the 'n' terms 'v' (taken); 0 when none. */
static segc_expr *max_of(segc_expr **v, size_t n)
{
	if (!n)
		return segc_expr_int(0);
	if (n == 1)
		return v[0];
	return segc_expr_call_builtin(SEGC_BUILTIN_MAX, n, v);
}

/* Computes the finish time of node 'v' into fin[v] (its predecessors
 * done), and for a family the condition that it has instances into
 * cond[v]; -1 when the shape is not handled.  'm' holds the largest arc
 * cost along each axis of 'v' when it is a family. */
static int finish(const segc_graph *g, size_t v, segc_expr **fin,
	segc_expr **cond, segc_expr **m)
{
	const segc_node *x = &g->nodes[v];
	size_t n = 0, nc = 0, i, k;
	segc_expr **u = segc_xmalloc((2 * g->narcs + 2) * sizeof(*u));
	segc_expr **cs = segc_xmalloc((2 * g->narcs + 2) * sizeof(*cs));
	segc_expr **ct = cs + g->narcs + 1, *t;

	for (i = 0; i < g->narcs; i++) {
		const segc_arc *a = &g->arcs[i];

		if (a->to_index != v || a->from_index == v)
			continue;
		t = segc_expr_add2(segc_expr_copy(fin[a->from_index]),
			or_zero(a->cost));
		if (cond[a->from_index]) {
			cs[nc] = segc_expr_copy(cond[a->from_index]);
			ct[nc++] = t;
		} else {
			u[n++] = t;
		}
	}
	if (n) {
		for (i = 0; i < nc; i++)
			u[n++] = segc_expr_call_builtin(SEGC_BUILTIN_IF, 3,
				(segc_expr *[]){ cs[i], ct[i],
				segc_expr_copy(u[0]) });
		t = max_of(u, n);
	} else if (nc == 1) {
		t = segc_expr_call_builtin(SEGC_BUILTIN_IF, 3,
			(segc_expr *[]){ cs[0], ct[0], segc_expr_int(0) });
	} else if (!nc) {
		t = segc_expr_int(0);
	} else {
		for (i = 0; i < nc; i++) {
			segc_expr_free(cs[i]);
			segc_expr_free(ct[i]);
		}
		free(u);
		free(cs);
		return -1;
	}
	t = segc_expr_add2(t, or_zero(x->cost));
	for (k = 0; k < x->nindex; k++)
		t = segc_expr_add2(t, segc_expr_mul2(segc_expr_sub2(
			segc_expr_copy(x->index_hi[k]),
			segc_expr_copy(x->index_lo[k])),
			segc_expr_call_builtin(SEGC_BUILTIN_MAX, 2,
			(segc_expr *[]){ segc_expr_int(0), segc_expr_add2(
			or_zero(x->cost), segc_expr_copy(m[k])) })));
	fin[v] = t;
	cond[v] = x->nindex ? nonempty(x) : NULL;
	free(u);
	free(cs);
	return 0;
}

/* The closed form of 'g', or NULL (see indexed.h). */
segc_expr *segc_indexed_closed(const segc_graph *g)
{
	size_t n = g->nnodes, i, k, head = 0, tail = 0, v, exit = 0;
	segc_expr **fin = segc_xcalloc(n + 1, sizeof(*fin));
	segc_expr **cond = segc_xcalloc(n + 1, sizeof(*cond));
	segc_expr ***m = segc_xcalloc(n + 1, sizeof(*m));
	size_t *indeg = segc_xcalloc(n + 1, sizeof(size_t));
	size_t *queue = segc_xmalloc((n + 1) * sizeof(size_t));
	segc_expr *r = NULL;
	int ok = 1;

	for (v = 0; v < n; v++) {
		m[v] = segc_xcalloc(g->nodes[v].nindex + 1, sizeof(**m));
		if (g->nodes[v].nindex && !is_box(g, v, m[v]))
			ok = 0;
	}
	for (i = 0; i < g->narcs; i++)
		if (g->arcs[i].from_index != g->arcs[i].to_index)
			indeg[g->arcs[i].to_index]++;
	for (v = 0; v < n; v++) {
		if (!indeg[v])
			queue[tail++] = v;
		for (i = 0; i < g->narcs && g->arcs[i].from_index != v; i++)
			;
		if (i == g->narcs)
			exit = v;
	}
	while (ok && head < tail) {
		v = queue[head++];
		if (finish(g, v, fin, cond, m[v]))
			ok = 0;
		for (i = 0; i < g->narcs; i++)
			if (g->arcs[i].from_index == v &&
			    g->arcs[i].to_index != v &&
			    --indeg[g->arcs[i].to_index] == 0)
				queue[tail++] = g->arcs[i].to_index;
	}
	if (ok && tail == n && fin[exit])
		r = segc_expr_copy(fin[exit]);
	for (v = 0; v < n; v++) {
		segc_expr_free(fin[v]);
		segc_expr_free(cond[v]);
		for (k = 0; k < g->nodes[v].nindex; k++)
			segc_expr_free(m[v][k]);
		free(m[v]);
	}
	free(m);
	free(fin);
	free(cond);
	free(indeg);
	free(queue);
	return r;
}
