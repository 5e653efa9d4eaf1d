/* lowered.c - the one graph representation of graph.h as data: building
 * a lowered program node by node and arc by arc, finding the ends of an
 * arc-form graph, making arc probabilities explicit, freeing, and mapping
 * a function over every expression it holds. */
#include <stdlib.h>
#include <string.h>

#include "graph/graph.h"
#include "base/util.h"

/* Grows '*p' (elements of 'size' bytes) to hold 'need'. */
static void grow(void **p, size_t *cap, size_t need, size_t size)
{
	size_t n = *cap ? *cap : 8;

	if (need <= *cap)
		return;
	while (n < need)
		n *= 2;
	*p = segc_xrealloc(*p, segc_xmul_size(n, size));
	*cap = n;
}

/* A new, empty lowered program. */
segc_lowered *segc_lowered_new(void)
{
	return segc_xcalloc(1, sizeof(segc_lowered));
}

/* Adds an empty graph whose sum region stands in graph 'parent' and binds
 * 'var'; returns its index. */
size_t segc_lowered_add_graph(segc_lowered *lw, size_t parent,
	const char *var)
{
	segc_lgraph *g;

	grow((void **)&lw->graphs, &lw->capgraphs, lw->ngraphs + 1,
		sizeof(*lw->graphs));
	g = &lw->graphs[lw->ngraphs];
	memset(g, 0, sizeof(*g));
	g->entry = g->exit = SEGC_NONE;
	g->parent = parent;
	g->var = var;
	return lw->ngraphs++;
}

/* Adds a node of cost 'cost' (taken; may be NULL) and class 'cls'. */
size_t segc_lgraph_add_node(segc_lgraph *g, segc_expr *cost,
	enum segc_class cls)
{
	segc_gnode *n;

	if (g->nnodes >= SEGC_MAX_INDEX) {
		segc_expr_free(cost);
		return SEGC_NONE;
	}
	grow((void **)&g->nodes, &g->capnodes, g->nnodes + 1,
		sizeof(*g->nodes));
	n = &g->nodes[g->nnodes];
	memset(n, 0, sizeof(*n));
	n->cost = cost;
	n->cls = (unsigned char)cls;
	n->sub = SEGC_NIL;
	return g->nnodes++;
}

/* Adds an arc 'from' -> 'to'; 'prob', 'cost' and 'loop' are taken. */
size_t segc_lgraph_add_arc(segc_lgraph *g, size_t from, size_t to,
	segc_expr *prob, segc_expr *cost, enum segc_class cls,
	segc_expr *loop)
{
	segc_garc *a;

	if (g->narcs >= SEGC_MAX_INDEX || from > SEGC_MAX_INDEX
			|| to > SEGC_MAX_INDEX) {
		segc_expr_free(prob);
		segc_expr_free(cost);
		segc_expr_free(loop);
		return SEGC_NONE;
	}
	grow((void **)&g->arcs, &g->caparcs, g->narcs + 1, sizeof(*g->arcs));
	a = &g->arcs[g->narcs];
	memset(a, 0, sizeof(*a));
	a->from = (segc_gix)from;
	a->to = (segc_gix)to;
	a->prob = prob;
	a->cost = cost;
	a->cls = (unsigned char)cls;
	a->loop = loop;
	return g->narcs++;
}

/* Adds a forward edge, zeroed (see graph.h). */
segc_gfwd *segc_lgraph_add_forward(segc_lgraph *g)
{
	segc_gfwd *f;

	if (g->nfwd >= SEGC_MAX_INDEX)
		return NULL;
	grow((void **)&g->fwd, &g->capfwd, g->nfwd + 1, sizeof(*g->fwd));
	f = &g->fwd[g->nfwd++];
	memset(f, 0, sizeof(*f));
	return f;
}

/* Releases one lowered graph's contents (its bounds only when it
 * borrows its arrays). */
static void lgraph_clear(segc_lgraph *g)
{
	size_t i;

	segc_expr_free(g->from);
	segc_expr_free(g->to);
	if (g->borrowed)
		return;
	for (i = 0; i < g->nnodes; i++)
		segc_expr_free(g->nodes[i].cost);
	for (i = 0; i < g->narcs; i++) {
		segc_expr_free(g->arcs[i].prob);
		segc_expr_free(g->arcs[i].cost);
		segc_expr_free(g->arcs[i].loop);
	}
	for (i = 0; i < g->nfwd; i++)
		segc_expr_free(g->fwd[i].cost);
	free(g->nodes);
	free(g->arcs);
	free(g->fwd);
}

/* Releases 'lw' and everything in it; a program that copies still borrow
 * from is released with its last copy. */
void segc_lowered_free(segc_lowered *lw)
{
	segc_lowered *base;
	size_t i;

	if (!lw)
		return;
	if (lw->refs) {
		lw->refs--;
		return;
	}
	for (i = 0; i < lw->ngraphs; i++)
		lgraph_clear(&lw->graphs[i]);
	base = lw->base;
	free(lw->graphs);
	free(lw);
	segc_lowered_free(base);
}

/* A copy of the 'n' elements of 'size' bytes at 'v' (NULL when none). */
static void *dup_array(const void *v, size_t n, size_t size)
{
	void *p;

	if (!n)
		return NULL;
	p = segc_xmalloc(segc_xmul_size(n, size));
	memcpy(p, v, n * size);
	return p;
}

/* Gives 'g', a graph that borrows its arrays, arrays of its own and a
 * reference to each of their expressions. */
static void lgraph_own(segc_lgraph *g)
{
	size_t i;

	if (!g->borrowed)
		return;
	g->borrowed = 0;
	g->nodes = dup_array(g->nodes, g->nnodes, sizeof(*g->nodes));
	g->arcs = dup_array(g->arcs, g->narcs, sizeof(*g->arcs));
	g->fwd = dup_array(g->fwd, g->nfwd, sizeof(*g->fwd));
	g->capnodes = g->nnodes;
	g->caparcs = g->narcs;
	g->capfwd = g->nfwd;
	for (i = 0; i < g->nnodes; i++)
		g->nodes[i].cost = segc_expr_copy(g->nodes[i].cost);
	for (i = 0; i < g->narcs; i++) {
		g->arcs[i].prob = segc_expr_copy(g->arcs[i].prob);
		g->arcs[i].cost = segc_expr_copy(g->arcs[i].cost);
		g->arcs[i].loop = segc_expr_copy(g->arcs[i].loop);
	}
	for (i = 0; i < g->nfwd; i++)
		g->fwd[i].cost = segc_expr_copy(g->fwd[i].cost);
}

/* A copy of 'lw' (see graph.h). */
segc_lowered *segc_lowered_copy(segc_lowered *lw)
{
	segc_lowered *c = segc_lowered_new();
	size_t i;

	c->graphs = dup_array(lw->graphs, lw->ngraphs, sizeof(*lw->graphs));
	c->ngraphs = c->capgraphs = lw->ngraphs;
	c->total_nodes = lw->total_nodes;
	c->base = lw;
	lw->refs++;
	for (i = 0; i < c->ngraphs; i++) {
		c->graphs[i].borrowed = 1;
		c->graphs[i].from = segc_expr_copy(c->graphs[i].from);
		c->graphs[i].to = segc_expr_copy(c->graphs[i].to);
	}
	return c;
}

/* Finds the entry and exit of 'g' from its non-loop arcs. */
int segc_lgraph_find_ends(segc_lgraph *g)
{
	size_t i, nin = 0, nout = 0;
	char *has_in = segc_xcalloc(g->nnodes + 1, 1);
	char *has_out = segc_xcalloc(g->nnodes + 1, 1);
	int rc = 0;

	for (i = 0; i < g->narcs; i++) {
		if (g->arcs[i].loop)
			continue;
		has_out[g->arcs[i].from] = 1;
		has_in[g->arcs[i].to] = 1;
	}
	g->entry = g->exit = SEGC_NONE;
	for (i = 0; i < g->nnodes; i++) {
		if (!has_in[i]) {
			g->entry = i;
			nin++;
		}
		if (!has_out[i]) {
			g->exit = i;
			nout++;
		}
	}
	if (nin != 1 || nout != 1)
		rc = -1;
	free(has_in);
	free(has_out);
	return rc;
}

/* Makes the probabilities of the or-arcs leaving node 'v' explicit. */
static void fill_node_probs(segc_lgraph *g, size_t v, const size_t *out,
	size_t nout)
{
	size_t k, missing = SEGC_NONE;
	segc_expr *rest;

	for (k = 0; k < nout; k++) {
		segc_garc *a = &g->arcs[out[k]];

		if (g->nodes[v].split_and || nout == 1) {
			if (!a->prob || g->nodes[v].split_and) {
				segc_expr_free(a->prob);
				a->prob = segc_expr_int(1);
			}
		} else if (!a->prob)
			missing = out[k];
	}
	if (missing == SEGC_NONE)
		return;
	rest = segc_expr_int(1);
	for (k = 0; k < nout; k++)
		if (out[k] != missing)
			rest = segc_expr_sub2(rest,
				segc_expr_copy(g->arcs[out[k]].prob));
	g->arcs[missing].prob = rest;
}

/* Makes every probability of 'g' explicit (see graph.h). */
void segc_lgraph_fill_probs(segc_lgraph *g)
{
	size_t *first = segc_xcalloc(g->nnodes + 1, sizeof(size_t));
	size_t *order = segc_xmalloc(segc_xmul_size(g->narcs + 1, sizeof(size_t)));
	size_t i, v;

	for (i = 0; i < g->narcs; i++)
		if (!g->arcs[i].loop)
			first[g->arcs[i].from]++;
	for (v = 0, i = 0; v < g->nnodes; v++) {
		size_t c = first[v];

		first[v] = i;
		i += c;
	}
	first[g->nnodes] = i;
	{
		size_t *fill = segc_xcalloc(g->nnodes + 1, sizeof(size_t));

		for (i = 0; i < g->narcs; i++) {
			if (g->arcs[i].loop) {
				if (!g->arcs[i].prob)
					g->arcs[i].prob = segc_expr_int(1);
				continue;
			}
			v = g->arcs[i].from;
			order[first[v] + fill[v]++] = i;
		}
		free(fill);
	}
	for (v = 0; v < g->nnodes; v++)
		if (first[v + 1] > first[v])
			fill_node_probs(g, v, order + first[v],
				first[v + 1] - first[v]);
	free(first);
	free(order);
}

/* The expression slots of a lowered graph that segc_lowered_map
 * replaces: field 'f' of node, arc or forward edge 'i'. */
enum slot_field { NODE_COST, ARC_PROB, ARC_COST, ARC_LOOP, FWD_COST };

/* Slot 'f' of element 'i' of 'g', in the arrays 'g' holds now. */
static segc_expr **slot_of(segc_lgraph *g, enum slot_field f, size_t i)
{
	switch (f) {
	case NODE_COST:
		return &g->nodes[i].cost;
	case ARC_PROB:
		return &g->arcs[i].prob;
	case ARC_COST:
		return &g->arcs[i].cost;
	case ARC_LOOP:
		return &g->arcs[i].loop;
	default:
		return &g->fwd[i].cost;
	}
}

/* Maps one expression slot in place. */
static int map_slot(segc_expr **slot, segc_expr_map_fn fn, void *arg,
	const char *const *bound, size_t nbound, const segc_srcloc *loc)
{
	if (!*slot)
		return 0;
	*slot = fn(arg, *slot, bound, nbound, loc);
	return *slot ? 0 : -1;
}

/* Maps slot 'f' of element 'i' of 'g' in place; a graph that borrows its
 * arrays gets arrays of its own (lgraph_own) only when the expression
 * changes. */
static int map_field(segc_lgraph *g, enum slot_field f, size_t i,
	segc_expr_map_fn fn, void *arg, const char *const *bound,
	size_t nbound, const segc_srcloc *loc)
{
	segc_expr **slot = slot_of(g, f, i), *v;

	if (!*slot || !g->borrowed)
		return map_slot(slot, fn, arg, bound, nbound, loc);
	v = fn(arg, segc_expr_copy(*slot), bound, nbound, loc);
	if (!v)
		return -1;
	if (v == *slot) {
		segc_expr_free(v);
		return 0;
	}
	lgraph_own(g);
	slot = slot_of(g, f, i);
	segc_expr_free(*slot);
	*slot = v;
	return 0;
}

/* Collects the counters in scope of graph 'g' (innermost last), then
 * the counters of its loop arcs (the validator has kept each inside its
 * loop's region). */
static size_t scope_of(const segc_lowered *lw, size_t g, const char ***out)
{
	size_t n = 0, h, k, i, narc = 0;
	const char **v;

	for (h = g; h != SEGC_NONE; h = lw->graphs[h].parent)
		if (lw->graphs[h].var)
			n++;
	for (i = 0; i < lw->graphs[g].narcs; i++)
		narc += lw->graphs[g].arcs[i].var != NULL;
	v = segc_xmalloc(segc_xmul_size(n + narc + 1, sizeof(*v)));
	k = n;
	for (h = g; h != SEGC_NONE; h = lw->graphs[h].parent)
		if (lw->graphs[h].var)
			v[--k] = lw->graphs[h].var;
	for (i = 0; i < lw->graphs[g].narcs; i++)
		if (lw->graphs[g].arcs[i].var)
			v[n++] = lw->graphs[g].arcs[i].var;
	*out = v;
	return n;
}

/* Applies 'fn' to every expression of graph 'gi'. */
static int map_graph(segc_lowered *lw, size_t gi, segc_expr_map_fn fn,
	void *arg)
{
	segc_lgraph *g = &lw->graphs[gi];
	const char **bound = NULL;
	size_t nb = scope_of(lw, gi, &bound), i;
	int rc = 0;

	if (nb == SEGC_NONE)
		return -1;
	for (i = 0; i < g->nnodes && !rc; i++) {
		/* read before map_field, which may move the nodes */
		const segc_srcloc *loc = g->nodes[i].loc;
		segc_lgraph *sub = g->nodes[i].sub != SEGC_NIL ?
			&lw->graphs[g->nodes[i].sub] : NULL;

		rc = map_field(g, NODE_COST, i, fn, arg, bound, nb, loc);
		if (!rc && sub)
			rc = map_slot(&sub->from, fn, arg, bound, nb, loc);
		if (!rc && sub)
			rc = map_slot(&sub->to, fn, arg, bound, nb, loc);
	}
	for (i = 0; i < g->narcs && !rc; i++) {
		const segc_srcloc *loc = g->arcs[i].loc;

		rc = map_field(g, ARC_PROB, i, fn, arg, bound, nb, loc);
		if (!rc)
			rc = map_field(g, ARC_COST, i, fn, arg, bound, nb, loc);
		if (!rc)
			rc = map_field(g, ARC_LOOP, i, fn, arg, bound, nb, loc);
	}
	for (i = 0; i < g->nfwd && !rc; i++)
		rc = map_field(g, FWD_COST, i, fn, arg, bound, nb,
			g->fwd[i].loc);
	free(bound);
	return rc;
}

/* Replaces every expression of 'lw' (see graph.h). */
int segc_lowered_map(segc_lowered *lw, segc_expr_map_fn fn, void *arg)
{
	size_t gi;

	for (gi = 0; gi < lw->ngraphs; gi++)
		if (map_graph(lw, gi, fn, arg))
			return -1;
	return 0;
}
