/* region.c - regions with one entry and one exit in what the structural
 * rules leave of a graph, so that the general methods can reduce them
 * innermost first (FORMAT.md 3.3): a loop body that is an unstructured
 * or-graph, a task graph inside an or-flow, a Markov chain inside a
 * fork.
 *
 * A candidate region starts at a split 'a' and ends at its immediate
 * postdominator 'b', or starts at the target of a back arc and ends at its
 * source.  Its nodes are those reachable from 'a' without passing 'b'; it
 * is a region when no arc enters it but at 'a' and none leaves it but from
 * 'b'.  Postdominators come from the iterative algorithm of Cooper, Harvey
 * and Kennedy on the reversed graph; every walk uses explicit stacks. */
#include <stdlib.h>
#include <string.h>

#include "graph/rgraph.h"
#include "base/util.h"

/* How many arcs seen by the general methods leave (out) or reach 'v'. */
static size_t degree(const segc_rgraph *r, size_t v, int out)
{
	size_t n = 0;
	segc_gix k;

	if (out) {
		for (k = r->nodes[v].out_head; k != SEGC_NIL;
				k = r->arcs[k].next_out)
			n += segc_rgraph_has_arc(r, k);
	} else {
		for (k = r->nodes[v].in_head; k != SEGC_NIL;
				k = r->arcs[k].next_in)
			n += segc_rgraph_has_arc(r, k);
	}
	return n;
}

/* The arcs of exit 'b' that count as its split inside a region: those
 * that go back inside, and one more if it leaves the region at all. */
static size_t exit_degree(const segc_rgraph *r, size_t b)
{
	size_t n = 0, out = 0;
	segc_gix k;

	for (k = r->nodes[b].out_head; k != SEGC_NIL; k = r->arcs[k].next_out)
		if (r->arcs[k].alive && !r->arcs[k].loop) {
			if (segc_rgraph_has_node(r, r->arcs[k].to))
				n++;
			else
				out = 1;
		}
	return n ? n + out : 0;
}

/* The or- and and-nodes of what the general methods see (see graph.h).
 * The splits of the exit and the joins of the entry lie outside, except
 * for arcs that come back to the entry from inside. */
void segc_region_kind(const segc_rgraph *r, size_t *or_at, size_t *and_at)
{
	size_t v;

	*or_at = *and_at = SEGC_NONE;
	for (v = 0; v < r->nnodes; v++) {
		const segc_rnode *x = &r->nodes[v];
		size_t nin, nout;

		if (!segc_rgraph_has_node(r, v))
			continue;
		nout = v == r->exit && r->mask ? exit_degree(r, v)
			: degree(r, v, 1);
		nin = degree(r, v, 0);
		if (v == r->entry && r->mask && nin > 0)
			nin = 2;
		if (((nout >= 2 && x->split_and) || (nin >= 2 && x->join_and))
				&& *and_at == SEGC_NONE)
			*and_at = v;
		if (((nout >= 2 && !x->split_and) || (nin >= 2 && !x->join_and))
				&& *or_at == SEGC_NONE)
			*or_at = v;
	}
}

/* Whether what the general methods see is all or or all and. */
int segc_region_pure(const segc_rgraph *r)
{
	size_t o, a;

	segc_region_kind(r, &o, &a);
	return o == SEGC_NONE || a == SEGC_NONE;
}

/* ---------------------------------------------------- postdominators */

typedef struct finder {
	segc_rgraph *r;
	segc_gix *ipdom;     /* immediate postdominator; SEGC_NIL unknown */
	segc_gix *po;        /* postorder number in the reversed graph */
	segc_gix *order;     /* nodes by decreasing postorder */
	size_t norder;
	segc_gix *stack;     /* scratch: nodes */
	segc_gix *it;        /* scratch: the next in-arc of a node on the stack */
	size_t *stamp;       /* membership of the candidate being built */
	size_t cur;          /* its stamp */
} finder;

/* Numbers the nodes that reach the exit in postorder of a depth-first
 * walk of the reversed graph (arcs that are not back arcs). */
static void number_nodes(finder *F)
{
	const segc_rgraph *r = F->r;
	size_t n = 0, top = 0, count = 0;

	F->stack[top++] = (segc_gix)r->exit;
	F->it[r->exit] = r->nodes[r->exit].in_head;
	F->po[r->exit] = 0;
	while (top > 0) {
		segc_gix v = F->stack[top - 1], k = F->it[v];

		if (k == SEGC_NIL) {
			F->po[v] = (segc_gix)count++;
			F->order[n++] = v;
			top--;
			continue;
		}
		F->it[v] = r->arcs[k].next_in;
		if (r->arcs[k].loop || F->po[r->arcs[k].from] != SEGC_NIL)
			continue;
		F->po[r->arcs[k].from] = 0;
		F->it[r->arcs[k].from] = r->nodes[r->arcs[k].from].in_head;
		F->stack[top++] = r->arcs[k].from;
	}
	F->norder = n;
}

/* The nearest common postdominator of 'x' and 'y'. */
static segc_gix intersect(const finder *F, segc_gix x, segc_gix y)
{
	while (x != y) {
		while (F->po[x] < F->po[y])
			x = F->ipdom[x];
		while (F->po[y] < F->po[x])
			y = F->ipdom[y];
	}
	return x;
}

/* Computes the immediate postdominators of the nodes that reach the exit. */
static void postdominators(finder *F)
{
	const segc_rgraph *r = F->r;
	int changed = 1;
	size_t i;

	number_nodes(F);
	F->ipdom[r->exit] = (segc_gix)r->exit;
	while (changed) {
		changed = 0;
		for (i = F->norder; i-- > 0;) {
			segc_gix v = F->order[i], nw = SEGC_NIL, k;

			if (v == r->exit)
				continue;
			for (k = r->nodes[v].out_head; k != SEGC_NIL;
					k = r->arcs[k].next_out) {
				segc_gix w = r->arcs[k].to;

				if (r->arcs[k].loop || F->ipdom[w] == SEGC_NIL)
					continue;
				nw = nw == SEGC_NIL ? w : intersect(F, w, nw);
			}
			if (nw != SEGC_NIL && F->ipdom[v] != nw) {
				F->ipdom[v] = nw;
				changed = 1;
			}
		}
	}
}

/* ------------------------------------------------------------ regions */

/* Collects into F->stack the nodes reachable from 'a' without passing
 * 'b', marked with stamp F->cur; their number, or 0 past 'limit' nodes
 * or when 'b' is not reached. */
static size_t collect(finder *F, size_t a, size_t b, size_t limit)
{
	const segc_rgraph *r = F->r;
	size_t n = 0, i = 0, seen_b = 0;

	F->stamp[a] = F->cur;
	F->stack[n++] = (segc_gix)a;
	while (i < n) {
		segc_gix v = F->stack[i++], k;

		if (v == b) {
			seen_b = 1;
			continue;
		}
		for (k = r->nodes[v].out_head; k != SEGC_NIL;
				k = r->arcs[k].next_out) {
			segc_gix w = r->arcs[k].to;

			if (r->arcs[k].loop || F->stamp[w] == F->cur)
				continue;
			if (n >= limit)
				return 0;
			F->stamp[w] = F->cur;
			F->stack[n++] = w;
		}
	}
	return seen_b ? n : 0;
}

/* Whether arc 'k' keeps the candidate (entry 'a', exit 'b', closed by
 * back arc 'loop' or SEGC_NIL) a region. */
static int arc_fits(const finder *F, segc_gix k, size_t a, size_t b,
	segc_gix loop)
{
	const segc_rarc *c = &F->r->arcs[k];
	int from_in = F->stamp[c->from] == F->cur;
	int to_in = F->stamp[c->to] == F->cur;

	if (k == loop)
		return 1;
	if (from_in && to_in && c->loop)
		return loop != SEGC_NIL && c->from == b && c->to == a;
	if (from_in && to_in)
		return 1;
	if (to_in)
		return c->to == a;
	if (from_in)
		return c->from == b;
	return 1;
}

/* How many arcs (not back arcs) leave 'b' to nodes inside the region
 * being built ('*inside') and outside it ('*outside'). */
static void exit_arcs(const finder *F, size_t b, size_t *inside,
	size_t *outside)
{
	const segc_rgraph *r = F->r;
	segc_gix k;

	*inside = *outside = 0;
	for (k = r->nodes[b].out_head; k != SEGC_NIL; k = r->arcs[k].next_out)
		if (!r->arcs[k].loop && r->arcs[k].alive) {
			if (F->stamp[r->arcs[k].to] == F->cur)
				(*inside)++;
			else
				(*outside)++;
		}
}

/* Whether the 'n' nodes of F->stack form a region from 'a' to 'b': arcs
 * enter only at 'a' and leave only from 'b', which, if it also goes back
 * inside, leaves by one arc only. */
static int is_region(const finder *F, size_t n, size_t a, size_t b,
	segc_gix loop)
{
	const segc_rgraph *r = F->r;
	size_t i, inside, outside;
	segc_gix k;

	exit_arcs(F, b, &inside, &outside);
	if (inside > 0 && outside != 1)
		return 0;

	for (i = 0; i < n; i++) {
		const segc_rnode *x = &r->nodes[F->stack[i]];

		for (k = x->out_head; k != SEGC_NIL; k = r->arcs[k].next_out)
			if (!arc_fits(F, k, a, b, loop))
				return 0;
		for (k = x->in_head; k != SEGC_NIL; k = r->arcs[k].next_in)
			if (!arc_fits(F, k, a, b, loop))
				return 0;
	}
	return 1;
}

/* Whether the candidate in F->stack ('n' nodes, from 'a' to 'b') is all
 * or or all and. */
static int is_pure(finder *F, size_t n, size_t a, size_t b,
	unsigned char *in)
{
	segc_rgraph *r = F->r;
	const unsigned char *mask = r->mask;
	size_t entry = r->entry, exit = r->exit, i;
	int pure;

	for (i = 0; i < n; i++)
		in[F->stack[i]] = 1;
	r->mask = in;
	r->entry = a;
	r->exit = b;
	pure = segc_region_pure(r);
	r->mask = mask;
	r->entry = entry;
	r->exit = exit;
	for (i = 0; i < n; i++)
		in[F->stack[i]] = 0;
	return pure;
}

/* Considers the candidate from 'a' to 'b' (closed by back arc 'loop', or
 * SEGC_NIL); keeps it in '*best' (size '*nbest') when smaller. */
static void consider(finder *F, size_t a, size_t b, segc_gix loop,
	unsigned char *in, size_t *best, size_t *nbest)
{
	size_t n;

	if (a == b)
		return;
	F->cur++;
	n = collect(F, a, b, *nbest ? *nbest - 1 : F->r->nnodes + 1);
	if (n < 2 || !is_region(F, n, a, b, loop) || !is_pure(F, n, a, b, in))
		return;
	best[0] = a;
	best[1] = b;
	*nbest = n;
}

/* Allocates the finder's arrays. */
static void finder_init(finder *F, segc_rgraph *r)
{
	size_t n = r->nnodes + 1, v;

	memset(F, 0, sizeof(*F));
	F->r = r;
	F->ipdom = segc_xmalloc(segc_xmul_size(n, sizeof(*F->ipdom)));
	F->po = segc_xmalloc(segc_xmul_size(n, sizeof(*F->po)));
	F->order = segc_xmalloc(segc_xmul_size(n, sizeof(*F->order)));
	F->stack = segc_xmalloc(segc_xmul_size(n, sizeof(*F->stack)));
	F->it = segc_xmalloc(segc_xmul_size(n, sizeof(*F->it)));
	F->stamp = segc_xcalloc(n, sizeof(*F->stamp));
	for (v = 0; v < n; v++)
		F->ipdom[v] = F->po[v] = SEGC_NIL;
}

/* Releases the finder's arrays. */
static void finder_clear(finder *F)
{
	free(F->ipdom);
	free(F->po);
	free(F->order);
	free(F->stack);
	free(F->it);
	free(F->stamp);
}

/* The smallest region the general methods can reduce (see graph.h). */
int segc_region_find(segc_rgraph *r, unsigned char *in, size_t *entry,
	size_t *exit)
{
	finder F;
	size_t v, best[2] = { SEGC_NONE, SEGC_NONE }, nbest = 0;
	segc_gix k;

	finder_init(&F, r);
	postdominators(&F);
	for (v = 0; v < r->nnodes; v++) {
		size_t b;

		if (!r->nodes[v].alive || (r->nodes[v].nout < 2
				&& r->nodes[v].nin < 2))
			continue;
		for (b = F.ipdom[v]; b != SEGC_NIL && b != v; b = F.ipdom[b]) {
			consider(&F, v, b, SEGC_NIL, in, best, &nbest);
			if (b == r->exit)
				break;
		}
	}
	for (k = 0; k < r->narcs; k++)
		if (r->arcs[k].alive && r->arcs[k].loop)
			consider(&F, r->arcs[k].to, r->arcs[k].from, k, in,
				best, &nbest);
	if (nbest) {
		F.cur++;
		collect(&F, best[0], best[1], r->nnodes + 1);
		for (v = 0; v < nbest; v++)
			in[F.stack[v]] = 1;
		*entry = best[0];
		*exit = best[1];
	}
	finder_clear(&F);
	return nbest ? 1 : 0;
}
