/* reduce.c - structural reduction of a lowered graph to its formula.
 *
 * Innermost first, as the papers reduce their graphs, by local rules applied
 * from a work list until one node is left:
 *   self loop   a back arc from a node to itself, count n: n*(node cost),
 *               plus (n - 1)*(arc cost): the back arc is taken between runs;
 *   series      a node whose only successor has it as only predecessor
 *               absorbs it (costs of the node, the arc and the successor
 *               add up, in program order);
 *   through     a node with one arc in and one arc out becomes part of an
 *               arc (its cost joins the arc's cost);
 *   choice      an or-split whose arcs all reach one node: one arc of cost
 *               sum of p_k*c_k;
 *   fork/join   arcs of an and-split that reach an and-join, when they are
 *               all the arcs that reach it: one arc of cost
 *               max(c_1, ..., c_k), in the order of the split's arcs.
 * A node may not absorb across a loop's boundary: the source of a back arc
 * (the end of its region) absorbs nothing, and the target of a back arc
 * (the start of its region) is never absorbed, until the region is one node
 * and the back arc a self loop.
 *
 * Costs are lists of terms, joined in constant time, and turned into an
 * expression only where a rule needs one (a product, a maximum), so a
 * sequence of a million steps is linear.  What the rules cannot reduce goes
 * to the general methods: visit counts of the Markov chain (markov.c) for
 * or-graphs, longest paths (taskgraph.c) for and-DAGs. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph/graph.h"
#include "base/util.h"

/* ------------------------------------------------------------ term lists */

struct segc_tcell {
	segc_expr *e;
	segc_gix next;
};

#define ARENA_SHIFT 14
#define ARENA_CHUNK ((size_t)1 << ARENA_SHIFT)

/* Cells in chunks that never move, numbered by 32-bit indices. */
struct segc_tarena {
	struct segc_tcell **chunks;
	size_t nchunks, capchunks;
	size_t used;
};

/* Cell 'i' of arena 'a'. */
static struct segc_tcell *cell_at(const struct segc_tarena *a, segc_gix i)
{
	return &a->chunks[i >> ARENA_SHIFT][i & (ARENA_CHUNK - 1)];
}

/* A new cell holding 'e' (taken); SEGC_NIL when out of memory. */
static segc_gix cell_new(struct segc_tarena *a, segc_expr *e)
{
	struct segc_tcell *c;

	if (a->used == a->nchunks * ARENA_CHUNK) {
		if (a->used >= SEGC_MAX_INDEX - ARENA_CHUNK)
			goto fail;
		if (a->nchunks == a->capchunks) {
			size_t cap = a->capchunks ? 2 * a->capchunks : 16;
			struct segc_tcell **q = realloc(a->chunks,
				cap * sizeof(*q));

			if (!q)
				goto fail;
			a->chunks = q;
			a->capchunks = cap;
		}
		a->chunks[a->nchunks] = malloc(ARENA_CHUNK * sizeof(**a->chunks));
		if (!a->chunks[a->nchunks])
			goto fail;
		a->nchunks++;
	}
	c = cell_at(a, (segc_gix)a->used);
	c->e = e;
	c->next = SEGC_NIL;
	return (segc_gix)a->used++;
fail:
	segc_expr_free(e);
	return SEGC_NIL;
}

/* Releases every cell of arena 'a' and the expressions they hold. */
static void arena_free(struct segc_tarena *a)
{
	size_t i;

	for (i = 0; i < a->used; i++)
		segc_expr_free(cell_at(a, (segc_gix)i)->e);
	for (i = 0; i < a->nchunks; i++)
		free(a->chunks[i]);
	free(a->chunks);
}

/* Non-zero when 't' holds no term. */
int segc_terms_empty(const segc_terms *t)
{
	return t->head == SEGC_NIL;
}

/* Appends 'e' (taken; zero or NULL dropped) to 't'; -1 out of memory. */
static int terms_push(struct segc_tarena *a, segc_terms *t, segc_expr *e)
{
	segc_gix c;

	if (!e)
		return 0;
	if (segc_expr_is_zero(e)) {
		segc_expr_free(e);
		return 0;
	}
	c = cell_new(a, e);
	if (c == SEGC_NIL)
		return -1;
	if (t->tail != SEGC_NIL)
		cell_at(a, t->tail)->next = c;
	else
		t->head = c;
	t->tail = c;
	return 0;
}

/* Moves every term of 'src' to the end of 'dst'. */
static void terms_join(struct segc_tarena *a, segc_terms *dst,
	segc_terms *src)
{
	if (src->head == SEGC_NIL)
		return;
	if (dst->tail != SEGC_NIL)
		cell_at(a, dst->tail)->next = src->head;
	else
		dst->head = src->head;
	dst->tail = src->tail;
	src->head = src->tail = SEGC_NIL;
}

/* The sum of the terms of 't' in arena 'a' (a new expression). */
static segc_expr *terms_sum(const struct segc_tarena *a, const segc_terms *t)
{
	size_t n = 0, i = 0;
	segc_gix c;
	segc_expr **v, *e;

	if (t->head == SEGC_NIL)
		return segc_expr_int(0);
	if (t->head == t->tail)
		return segc_expr_copy(cell_at(a, t->head)->e);
	for (c = t->head; c != SEGC_NIL; c = cell_at(a, c)->next)
		n++;
	v = malloc(n * sizeof(*v));
	if (!v)
		return NULL;
	for (c = t->head; c != SEGC_NIL; c = cell_at(a, c)->next)
		v[i++] = segc_expr_copy(cell_at(a, c)->e);
	e = segc_expr_add(n, v);
	free(v);
	return e;
}

/* The sum of the terms of 't' of 'r' (a new expression; 0 when empty). */
segc_expr *segc_terms_sum(const segc_rgraph *r, const segc_terms *t)
{
	return terms_sum(r->arena, t);
}

/* Empties 't' (the cells stay in the arena, their expressions released). */
static void terms_clear(struct segc_tarena *a, segc_terms *t)
{
	segc_gix c;

	for (c = t->head; c != SEGC_NIL; c = cell_at(a, c)->next) {
		segc_expr_free(cell_at(a, c)->e);
		cell_at(a, c)->e = NULL;
	}
	t->head = t->tail = SEGC_NIL;
}

/* Replaces the terms of 't' by their sum and gives a new reference to it
 * (NULL when 't' is empty). */
static segc_expr *terms_collapse(struct segc_tarena *a, segc_terms *t)
{
	segc_expr *e;

	if (t->head == SEGC_NIL)
		return NULL;
	if (t->head == t->tail)
		return segc_expr_copy(cell_at(a, t->head)->e);
	e = terms_sum(a, t);
	if (!e)
		return NULL;
	terms_clear(a, t);
	if (terms_push(a, t, segc_expr_copy(e))) {
		segc_expr_free(e);
		return NULL;
	}
	return e;
}

/* ----------------------------------------------------------- the graph */

/* Reports an error located at node 'v' of 'r'. */
void segc_rgraph_error(segc_rgraph *r, size_t v, enum segc_status code,
	const char *fmt, ...)
{
	const segc_gnode *n = &r->src->nodes[v];
	const segc_srcloc *loc = n->loc ? n->loc : r->src->loc;
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (n->id)
		segc_error(r->ctx, code, loc ? loc->file : NULL,
			loc ? loc->line : 0, loc ? loc->col : 0, "%s (at '%s')",
			msg, n->id);
	else
		segc_error(r->ctx, code, loc ? loc->file : NULL,
			loc ? loc->line : 0, loc ? loc->col : 0, "%s", msg);
}

/* The probability of arc 'k' (see graph.h). */
segc_expr *segc_rarc_prob(const segc_rgraph *r, size_t k)
{
	return r->arcs[k].prob_one ? r->one : r->src->arcs[k].prob;
}

/* The loop count of arc 'k' (see graph.h). */
segc_expr *segc_rarc_loop(const segc_rgraph *r, size_t k)
{
	return r->arcs[k].loop ? r->src->arcs[k].loop : NULL;
}

/* Links arc 'k' at the end of the out-list of its source. */
static void link_out(segc_rgraph *r, segc_gix k)
{
	segc_rarc *a = &r->arcs[k];
	segc_rnode *u = &r->nodes[a->from];

	a->next_out = SEGC_NIL;
	a->prev_out = u->out_tail;
	if (u->out_tail != SEGC_NIL)
		r->arcs[u->out_tail].next_out = k;
	else
		u->out_head = k;
	u->out_tail = k;
	if (a->loop)
		u->nloop_out++;
	else
		u->nout++;
}

/* Links arc 'k' at the end of the in-list of its target. */
static void link_in(segc_rgraph *r, segc_gix k)
{
	segc_rarc *a = &r->arcs[k];
	segc_rnode *v = &r->nodes[a->to];

	a->next_in = SEGC_NIL;
	a->prev_in = v->in_tail;
	if (v->in_tail != SEGC_NIL)
		r->arcs[v->in_tail].next_in = k;
	else
		v->in_head = k;
	v->in_tail = k;
	if (a->loop)
		v->nloop_in++;
	else
		v->nin++;
}

/* Unlinks arc 'k' from its source's out-list. */
static void unlink_out(segc_rgraph *r, segc_gix k)
{
	segc_rarc *a = &r->arcs[k];
	segc_rnode *u = &r->nodes[a->from];

	if (a->prev_out != SEGC_NIL)
		r->arcs[a->prev_out].next_out = a->next_out;
	else
		u->out_head = a->next_out;
	if (a->next_out != SEGC_NIL)
		r->arcs[a->next_out].prev_out = a->prev_out;
	else
		u->out_tail = a->prev_out;
	if (a->loop)
		u->nloop_out--;
	else
		u->nout--;
}

/* Unlinks arc 'k' from its target's in-list. */
static void unlink_in(segc_rgraph *r, segc_gix k)
{
	segc_rarc *a = &r->arcs[k];
	segc_rnode *v = &r->nodes[a->to];

	if (a->prev_in != SEGC_NIL)
		r->arcs[a->prev_in].next_in = a->next_in;
	else
		v->in_head = a->next_in;
	if (a->next_in != SEGC_NIL)
		r->arcs[a->next_in].prev_in = a->prev_in;
	else
		v->in_tail = a->prev_in;
	if (a->loop)
		v->nloop_in--;
	else
		v->nin--;
}

/* Removes arc 'k' from the graph. */
static void kill_arc(segc_rgraph *r, segc_gix k)
{
	unlink_out(r, k);
	unlink_in(r, k);
	r->arcs[k].alive = 0;
	terms_clear(r->arena, &r->arcs[k].cost);
}

/* Puts arc 'a' into the in-list of its target in the place of arc 'b'. */
static void replace_in(segc_rgraph *r, segc_gix a, segc_gix b)
{
	segc_rarc *A = &r->arcs[a], *B = &r->arcs[b];

	A->prev_in = B->prev_in;
	A->next_in = B->next_in;
	if (B->prev_in != SEGC_NIL)
		r->arcs[B->prev_in].next_in = a;
	else
		r->nodes[B->to].in_head = a;
	if (B->next_in != SEGC_NIL)
		r->arcs[B->next_in].prev_in = a;
	else
		r->nodes[B->to].in_tail = a;
	A->to = B->to;
}

/* Whether a cost of class 'cls' counts in component 'comp'. */
static int in_component(enum segc_component comp, unsigned cls)
{
	if (comp == SEGC_TOTAL)
		return 1;
	return (comp == SEGC_COMP && cls == SEGC_CLASS_COMP)
		|| (comp == SEGC_COMM && cls == SEGC_CLASS_COMM)
		|| (comp == SEGC_IO && cls == SEGC_CLASS_IO);
}

/* Whether a cost of class 'cls' counts in component 'comp' (graph.h). */
int segc_in_component(enum segc_component comp, unsigned cls)
{
	return in_component(comp, cls);
}

/* Frees the working graph 'r'. */
static void rgraph_free(segc_rgraph *r)
{
	if (!r)
		return;
	if (r->arena) {
		arena_free(r->arena);
		free(r->arena);
	}
	segc_expr_free(r->one);
	free(r->nodes);
	free(r->arcs);
	free(r);
}

/* Sets up node 'i' of 'r' from lowered node 'n'; -1 out of memory. */
static int rnode_init(segc_rgraph *r, size_t i, const segc_gnode *n,
	enum segc_component comp, segc_expr *const *sums)
{
	segc_rnode *v = &r->nodes[i];
	segc_expr *c = NULL;

	v->cost.head = v->cost.tail = SEGC_NIL;
	v->out_head = v->out_tail = v->in_head = v->in_tail = SEGC_NIL;
	v->nout = v->nin = v->nloop_out = v->nloop_in = 0;
	v->split_and = n->split_and;
	v->join_and = n->join_and;
	v->alive = 1;
	if (n->sub != SEGC_NIL)
		c = sums[i] ? segc_expr_copy(sums[i]) : NULL;
	else if (n->cost && in_component(comp, n->cls))
		c = segc_expr_copy(n->cost);
	return terms_push(r->arena, &v->cost, c);
}

/* Builds the working graph of lowered graph 'g' for component 'comp';
 * 'sums' holds the costs of the sum regions of 'g' (by node). */
static segc_rgraph *rgraph_new(segc_ctx *ctx, const segc_lgraph *g,
	enum segc_component comp, segc_expr *const *sums)
{
	segc_rgraph *r = calloc(1, sizeof(*r));
	size_t i;

	if (!r)
		return NULL;
	r->ctx = ctx;
	r->src = g;
	r->nnodes = g->nnodes;
	r->narcs = g->narcs;
	r->nodes = malloc((g->nnodes + 1) * sizeof(*r->nodes));
	r->arcs = malloc((g->narcs + 1) * sizeof(*r->arcs));
	r->arena = calloc(1, sizeof(*r->arena));
	r->one = segc_expr_int(1);
	if (!r->nodes || !r->arcs || !r->arena)
		goto fail;
	r->entry = g->entry;
	r->exit = g->exit;
	r->alive = g->nnodes;
	for (i = 0; i < g->nnodes; i++)
		if (rnode_init(r, i, &g->nodes[i], comp, sums))
			goto fail;
	for (i = 0; i < g->narcs; i++) {
		const segc_garc *ga = &g->arcs[i];
		segc_rarc *a = &r->arcs[i];

		a->from = ga->from;
		a->to = ga->to;
		a->cost.head = a->cost.tail = SEGC_NIL;
		a->loop = ga->loop != NULL;
		a->alive = 1;
		a->prob_one = 0;
		if (ga->cost && in_component(comp, ga->cls)
				&& terms_push(r->arena, &a->cost,
					segc_expr_copy(ga->cost)))
			goto fail;
		link_out(r, (segc_gix)i);
		link_in(r, (segc_gix)i);
	}
	return r;
fail:
	rgraph_free(r);
	return NULL;
}

/* ------------------------------------------------------------- work list */

/* A FIFO of nodes, each queued at most once: a ring of nnodes slots. */
typedef struct worklist {
	segc_gix *v;
	size_t head, n, cap;
	unsigned char *queued;
} worklist;

/* Queues node 'x' unless it is already queued (the ring has a slot for
 * every node, so it never fills). */
static void wl_push(worklist *w, size_t x)
{
	size_t at = w->head + w->n;

	if (w->queued[x])
		return;
	w->v[at < w->cap ? at : at - w->cap] = (segc_gix)x;
	w->n++;
	w->queued[x] = 1;
}

/* Takes the next queued node; SEGC_NONE when none is left. */
static size_t wl_pop(worklist *w)
{
	size_t x;

	if (w->n == 0)
		return SEGC_NONE;
	x = w->v[w->head];
	if (++w->head == w->cap)
		w->head = 0;
	w->n--;
	w->queued[x] = 0;
	return x;
}

/* ------------------------------------------------------------- the rules */

typedef struct reducer {
	segc_rgraph *r;
	worklist wl;
	segc_gix *count;   /* scratch: arcs per target (all zero between uses) */
	segc_gix *buf;     /* scratch: arcs of one group */
	int oom;
} reducer;

/* n*x as a term, from collapsed list 'x' (NULL: nothing). */
static segc_expr *times(segc_expr *n, segc_expr *x)
{
	if (!x)
		return NULL;
	return segc_expr_mul2(segc_expr_copy(n), x);
}

/* Rule "self loop" at back arc 'k' from a node to itself. */
static int rule_self_loop(reducer *R, segc_gix k)
{
	segc_rgraph *r = R->r;
	segc_rarc *a = &r->arcs[k];
	segc_rnode *x = &r->nodes[a->from];
	segc_expr *body = terms_collapse(r->arena, &x->cost);
	segc_expr *ac = terms_collapse(r->arena, &a->cost);
	segc_expr *n = segc_rarc_loop(r, k);

	terms_clear(r->arena, &x->cost);
	if (terms_push(r->arena, &x->cost, times(n, body)))
		R->oom = 1;
	if (ac && terms_push(r->arena, &x->cost, segc_expr_mul2(
			segc_expr_sub2(segc_expr_copy(n), segc_expr_int(1)), ac)))
		R->oom = 1;
	kill_arc(r, k);
	for (k = x->in_head; k != SEGC_NIL; k = r->arcs[k].next_in)
		wl_push(&R->wl, r->arcs[k].from);
	return 1;
}

/* The only arc of 'x' that is not a back arc, going out. */
static segc_gix only_out(const segc_rgraph *r, const segc_rnode *x)
{
	segc_gix k;

	for (k = x->out_head; k != SEGC_NIL; k = r->arcs[k].next_out)
		if (!r->arcs[k].loop)
			return k;
	return SEGC_NIL;
}

/* The only arc of 'x' that is not a back arc, coming in. */
static segc_gix only_in(const segc_rgraph *r, const segc_rnode *x)
{
	segc_gix k;

	for (k = x->in_head; k != SEGC_NIL; k = r->arcs[k].next_in)
		if (!r->arcs[k].loop)
			return k;
	return SEGC_NIL;
}

/* Moves the out-arcs of 'y' to 'x' (in order). */
static void move_out_arcs(segc_rgraph *r, size_t xi, size_t yi)
{
	segc_gix m = r->nodes[yi].out_head;

	while (m != SEGC_NIL) {
		segc_gix next = r->arcs[m].next_out;

		unlink_out(r, m);
		r->arcs[m].from = (segc_gix)xi;
		link_out(r, m);
		m = next;
	}
}

/* Moves the in-arcs of 'x' to 'y' (in order). */
static void move_in_arcs(segc_rgraph *r, size_t yi, size_t xi)
{
	segc_gix m = r->nodes[xi].in_head;

	while (m != SEGC_NIL) {
		segc_gix next = r->arcs[m].next_in;

		unlink_in(r, m);
		r->arcs[m].to = (segc_gix)yi;
		link_in(r, m);
		m = next;
	}
}

/* Rule "series": 'x' and the target 'y' of its only arc 'k' become one
 * node (costs of x, k and y in that order).  The one of them with fewer
 * arcs to move goes, so that a node that many back arcs leave (the end of
 * many nested loops) is not walked again at every step. */
static void rule_series(reducer *R, size_t xi, segc_gix k)
{
	segc_rgraph *r = R->r;
	size_t yi = r->arcs[k].to;
	segc_rnode *x = &r->nodes[xi], *y = &r->nodes[yi];

	terms_join(r->arena, &x->cost, &r->arcs[k].cost);
	terms_join(r->arena, &x->cost, &y->cost);
	kill_arc(r, k);
	if (x->nin + x->nloop_in < y->nout + y->nloop_out) {
		y->cost = x->cost;
		x->cost.head = x->cost.tail = SEGC_NIL;
		move_in_arcs(r, yi, xi);
		y->join_and = x->join_and;
		x->alive = 0;
		if (r->entry == xi)
			r->entry = yi;
		wl_push(&R->wl, yi);
	} else {
		move_out_arcs(r, xi, yi);
		x->split_and = y->split_and;
		y->alive = 0;
		if (r->exit == yi)
			r->exit = xi;
	}
	r->alive--;
}

/* Rule "through": node 'x' with one arc in and one out joins the arcs. */
static void rule_through(reducer *R, size_t xi, segc_gix a, segc_gix b)
{
	segc_rgraph *r = R->r;
	segc_rnode *x = &r->nodes[xi];

	terms_join(r->arena, &r->arcs[a].cost, &x->cost);
	terms_join(r->arena, &r->arcs[a].cost, &r->arcs[b].cost);
	unlink_in(r, a);
	unlink_out(r, b);
	replace_in(r, a, b);
	r->arcs[b].alive = 0;
	x->alive = 0;
	r->alive--;
}

/* The maximum of the collapsed costs of arcs 'buf'[0..n): identical
 * arguments once, a lone argument itself, all empty: NULL. */
static segc_expr *max_of(reducer *R, const segc_gix *buf, size_t n)
{
	segc_rgraph *r = R->r;
	segc_expr **v = malloc(n * sizeof(*v));
	size_t i, j, m = 0, nonzero = 0;
	segc_expr *e;

	if (!v)
		return NULL;
	for (i = 0; i < n; i++) {
		segc_expr *c = terms_collapse(r->arena, &r->arcs[buf[i]].cost);

		if (c)
			nonzero++;
		else
			c = segc_expr_int(0);
		for (j = 0; j < m && v[j] != c; j++)
			;
		if (j < m)
			segc_expr_free(c);
		else
			v[m++] = c;
	}
	if (nonzero == 0 || m == 1) {
		e = nonzero ? v[0] : NULL;
		if (!nonzero)
			segc_expr_free(v[0]);
	} else
		e = segc_expr_call("max", m, v);
	free(v);
	return e;
}

/* The expected cost sum p_k*c_k of or-arcs 'buf'[0..n). */
static segc_expr *choice_of(reducer *R, const segc_gix *buf, size_t n)
{
	segc_rgraph *r = R->r;
	segc_expr **v = malloc(n * sizeof(*v));
	size_t i, m = 0;
	segc_expr *e;

	if (!v)
		return NULL;
	for (i = 0; i < n; i++) {
		segc_expr *c = terms_collapse(r->arena, &r->arcs[buf[i]].cost);

		if (c)
			v[m++] = segc_expr_mul2(segc_expr_copy(
				segc_rarc_prob(r, buf[i])), c);
	}
	e = m ? segc_expr_add(m, v) : NULL;
	free(v);
	return e;
}

/* Replaces arcs 'buf'[0..n) (same source and target) by the first of
 * them, with cost 'c' (taken) and probability 1. */
static void merge_arcs(reducer *R, const segc_gix *buf, size_t n,
	segc_expr *c)
{
	segc_rgraph *r = R->r;
	segc_rarc *first = &r->arcs[buf[0]];
	size_t i;

	for (i = 1; i < n; i++)
		kill_arc(r, buf[i]);
	terms_clear(r->arena, &first->cost);
	first->prob_one = 1;
	if (terms_push(r->arena, &first->cost, c))
		R->oom = 1;
}

/* Rule "choice" at or-split 'x': all its arcs reach one node. */
static int rule_choice(reducer *R, size_t xi)
{
	segc_rgraph *r = R->r;
	segc_rnode *x = &r->nodes[xi];
	segc_gix k;
	size_t n = 0, target = SEGC_NONE;

	for (k = x->out_head; k != SEGC_NIL; k = r->arcs[k].next_out) {
		if (r->arcs[k].loop)
			continue;
		if (target == SEGC_NONE)
			target = r->arcs[k].to;
		if (r->arcs[k].to != target || target == xi)
			return 0;
		R->buf[n++] = k;
	}
	if (n < 2 || r->nodes[target].join_and)
		return 0;
	merge_arcs(R, R->buf, n, choice_of(R, R->buf, n));
	wl_push(&R->wl, target);
	return 1;
}

/* Rule "fork/join" at and-split 'x': groups of its arcs reaching one
 * and-join become one arc each. */
static int rule_fork(reducer *R, size_t xi)
{
	segc_rgraph *r = R->r;
	segc_rnode *x = &r->nodes[xi];
	segc_gix k, m;
	int changed = 0;

	for (k = x->out_head; k != SEGC_NIL; k = r->arcs[k].next_out)
		if (!r->arcs[k].loop)
			R->count[r->arcs[k].to]++;
	for (k = x->out_head; k != SEGC_NIL; k = r->arcs[k].next_out) {
		size_t t = r->arcs[k].to, n = 0;

		if (r->arcs[k].loop || R->count[t] < 2 || t == xi
				|| !r->nodes[t].join_and
				|| R->count[t] != r->nodes[t].nin)
			continue;
		for (m = k; m != SEGC_NIL; m = r->arcs[m].next_out)
			if (!r->arcs[m].loop && r->arcs[m].to == t)
				R->buf[n++] = m;
		R->count[t] = 1;
		merge_arcs(R, R->buf, n, max_of(R, R->buf, n));
		wl_push(&R->wl, t);
		changed = 1;
	}
	for (k = x->out_head; k != SEGC_NIL; k = r->arcs[k].next_out)
		R->count[r->arcs[k].to] = 0;
	return changed;
}

/* The back arc from 'x' to itself, or SEGC_NIL; walks the shorter of the
 * node's two arc lists. */
static segc_gix self_loop_of(const segc_rgraph *r, size_t xi)
{
	const segc_rnode *x = &r->nodes[xi];
	segc_gix k;

	if (!x->nloop_out || !x->nloop_in)
		return SEGC_NIL;
	if (x->nin + x->nloop_in < x->nout + x->nloop_out) {
		for (k = x->in_head; k != SEGC_NIL; k = r->arcs[k].next_in)
			if (r->arcs[k].loop && r->arcs[k].from == xi)
				return k;
		return SEGC_NIL;
	}
	for (k = x->out_head; k != SEGC_NIL; k = r->arcs[k].next_out)
		if (r->arcs[k].loop && r->arcs[k].to == xi)
			return k;
	return SEGC_NIL;
}

/* Rule "retry": or-node 'x' with an arc 'k' back to itself (probability
 * q, not a back arc) and one other arc 'o' out: 1/(1 - q) visits, so the
 * cost (c + q*c_k)/(1 - q), and 'o' is then taken with probability 1. */
static int rule_retry(reducer *R, size_t xi, segc_gix k, segc_gix o)
{
	segc_rgraph *r = R->r;
	segc_rnode *x = &r->nodes[xi];
	segc_expr *q = segc_rarc_prob(r, k);
	segc_expr *c = terms_collapse(r->arena, &x->cost);
	segc_expr *ck = terms_collapse(r->arena, &r->arcs[k].cost);
	segc_expr *visits = segc_expr_div2(segc_expr_int(1),
		segc_expr_sub2(segc_expr_int(1), segc_expr_copy(q)));

	if (ck)
		ck = segc_expr_mul2(segc_expr_copy(q), ck);
	if (c && ck)
		c = segc_expr_add2(c, ck);
	else if (ck)
		c = ck;
	terms_clear(r->arena, &x->cost);
	if (c && terms_push(r->arena, &x->cost, segc_expr_mul2(visits, c)))
		R->oom = 1;
	if (!c)
		segc_expr_free(visits);
	kill_arc(r, k);
	r->arcs[o].prob_one = 1;
	wl_push(&R->wl, r->arcs[o].to);
	return 1;
}

/* The arc of or-node 'x' back to itself that is not a back arc, when 'x'
 * has exactly one other arc out (in '*other'); else SEGC_NIL. */
static segc_gix retry_arc(const segc_rgraph *r, size_t xi, segc_gix *other)
{
	const segc_rnode *x = &r->nodes[xi];
	segc_gix k, self = SEGC_NIL;

	if (x->split_and || x->join_and || x->nout != 2)
		return SEGC_NIL;
	*other = SEGC_NIL;
	for (k = x->out_head; k != SEGC_NIL; k = r->arcs[k].next_out) {
		if (r->arcs[k].loop)
			continue;
		if (r->arcs[k].to == xi)
			self = k;
		else
			*other = k;
	}
	return *other != SEGC_NIL ? self : SEGC_NIL;
}

/* Applies the first rule that fits at node 'x'; 1 if the graph changed. */
static int try_node(reducer *R, size_t xi)
{
	segc_rgraph *r = R->r;
	segc_rnode *x = &r->nodes[xi];
	segc_gix k = self_loop_of(r, xi), a, b;

	if (k != SEGC_NIL)
		return rule_self_loop(R, k);
	k = retry_arc(r, xi, &b);
	if (k != SEGC_NIL)
		return rule_retry(R, xi, k, b);
	if (x->nout == 1 && x->nloop_out == 0) {
		a = only_out(r, x);
		if (r->arcs[a].to != xi && r->nodes[r->arcs[a].to].nin == 1
				&& r->nodes[r->arcs[a].to].nloop_in == 0) {
			rule_series(R, xi, a);
			return 1;
		}
	}
	if (x->nin == 1 && x->nout == 1 && !x->nloop_in && !x->nloop_out
			&& xi != r->entry && xi != r->exit) {
		a = only_in(r, x);
		b = only_out(r, x);
		if (r->arcs[a].from != xi && r->arcs[b].to != xi) {
			size_t u = r->arcs[a].from, w = r->arcs[b].to;

			rule_through(R, xi, a, b);
			wl_push(&R->wl, u);
			wl_push(&R->wl, w);
			return 1;
		}
	}
	if (x->nout >= 2)
		return x->split_and ? rule_fork(R, xi) : rule_choice(R, xi);
	return 0;
}

/* Runs the rules from the queued nodes to a fixed point; -1 out of
 * memory. */
static int run_rules(reducer *R, unsigned flags)
{
	segc_rgraph *r = R->r;
	size_t x;

	while ((x = wl_pop(&R->wl)) != SEGC_NONE) {
		int rc;

		if (!r->nodes[x].alive)
			continue;
		if (flags & SEGC_REDUCE_GENERAL_ONLY) {
			segc_gix k = self_loop_of(r, x);

			rc = k != SEGC_NIL ? rule_self_loop(R, k) : 0;
		} else
			rc = try_node(R, x);
		if (rc < 0 || R->oom)
			return -1;
		if (rc > 0)
			wl_push(&R->wl, x);
	}
	return 0;
}

/* --------------------------------------------------------- classification */

/* Whether any back arc is left; sets '*where' to its source. */
static int has_back_arc(const segc_rgraph *r, size_t *where)
{
	size_t k;

	for (k = 0; k < r->narcs; k++)
		if (r->arcs[k].alive && r->arcs[k].loop) {
			*where = r->arcs[k].from;
			return 1;
		}
	return 0;
}

/* Replaces region 'in' of 'r' (entry 'a', exit 'b') by node 'a' of cost
 * 'f' (taken): the arcs inside go, the back arc from 'b' to 'a' becomes
 * a self loop, the arcs leaving 'b' leave 'a'. */
static void collapse_region(reducer *R, const unsigned char *in, size_t a,
	size_t b, segc_expr *f)
{
	segc_rgraph *r = R->r;
	size_t v;
	segc_gix k, next;
	int back_inside = 0;

	for (k = r->nodes[b].out_head; k != SEGC_NIL; k = r->arcs[k].next_out)
		if (!r->arcs[k].loop && in[r->arcs[k].to])
			back_inside = 1;
	for (k = 0; k < r->narcs; k++) {
		segc_rarc *c = &r->arcs[k];

		if (!c->alive || !in[c->from] || !in[c->to])
			continue;
		if (c->loop && c->from == b && c->to == a && a != b) {
			unlink_out(r, k);
			c->from = (segc_gix)a;
			link_out(r, k);
		} else
			kill_arc(r, k);
	}
	terms_clear(r->arena, &r->nodes[a].cost);
	if (terms_push(r->arena, &r->nodes[a].cost, f))
		R->oom = 1;
	for (k = r->nodes[b].out_head; back_inside && k != SEGC_NIL;
			k = r->arcs[k].next_out)
		r->arcs[k].prob_one = 1;
	if (a != b) {
		move_out_arcs(r, a, b);
		r->nodes[a].split_and = r->nodes[b].split_and;
		if (r->exit == b)
			r->exit = a;
	}
	for (v = 0; v < r->nnodes; v++)
		if (in[v] && v != a && r->nodes[v].alive) {
			for (k = r->nodes[v].out_head; k != SEGC_NIL; k = next) {
				next = r->arcs[k].next_out;
				kill_arc(r, k);
			}
			terms_clear(r->arena, &r->nodes[v].cost);
			r->nodes[v].alive = 0;
			r->alive--;
		}
	wl_push(&R->wl, a);
	for (k = r->nodes[a].in_head; k != SEGC_NIL; k = r->arcs[k].next_in)
		wl_push(&R->wl, r->arcs[k].from);
	for (k = r->nodes[a].out_head; k != SEGC_NIL; k = r->arcs[k].next_out)
		wl_push(&R->wl, r->arcs[k].to);
}

/* Reduces the region of cyclic back arc 'k' to one node (cyclic.c);
 * 1 done, 0 not yet (a loop inside comes first), -1 on error. */
static int reduce_cyclic(reducer *R, const segc_lgraph *g, size_t k,
	enum segc_component comp, const segc_domains *dom)
{
	segc_rgraph *r = R->r;
	unsigned char *in = segc_xcalloc(r->nnodes + 1, 1);
	size_t a = r->arcs[k].to, b = r->arcs[k].from;
	segc_expr *f;
	int rc = segc_cyclic_region(r, g, k, comp, dom, in, &f);

	if (rc == 1) {
		collapse_region(R, in, a, b, f);
		if (r->arcs[k].alive)
			kill_arc(r, (segc_gix)k);
	}
	free(in);
	return rc;
}

/* Reduces the regions of the cyclic back arcs of 'g' (overlapping
 * iterations, forward edges), inner ones first; 0, or -1 on error. */
static int cyclic_pass(reducer *R, const segc_lgraph *g,
	enum segc_component comp, const segc_domains *dom)
{
	unsigned char *done = segc_xcalloc(g->narcs + 1, 1);
	size_t k, left;
	int progress = 1, rc = 0;

	while (progress && !rc) {
		progress = 0;
		left = 0;
		for (k = 0; k < g->narcs && !rc; k++) {
			int one;

			if (done[k] || !segc_cyclic_needed(g, k, comp))
				continue;
			one = reduce_cyclic(R, g, k, comp, dom);
			rc = one < 0 ? -1 : 0;
			done[k] = one == 1;
			progress |= one == 1;
			left += one == 0;
		}
	}
	for (k = 0; !rc && left && k < g->narcs; k++)
		if (!done[k] && segc_cyclic_needed(g, k, comp)) {
			segc_rgraph_error(R->r, g->arcs[k].from, SEGC_ERR_INPUT,
				"the region of a loop with overlapping "
				"iterations or forward edges holds another loop: "
				"not supported; put the inner loop into one "
				"node's cost");
			rc = -1;
		}
	free(done);
	return rc;
}

/* The general method that fits 'r' (the part in its mask, from its entry
 * to its exit): visit counts for or, longest path for and; NULL with a
 * diagnostic for a mixture. */
static segc_expr *general(segc_rgraph *r, const segc_domains *dom)
{
	size_t or_at = SEGC_NONE, and_at = SEGC_NONE;

	segc_region_kind(r, &or_at, &and_at);
	if (and_at == SEGC_NONE)
		return segc_markov_reduce(r->ctx, r, dom);
	if (or_at == SEGC_NONE)
		return segc_taskgraph_reduce(r->ctx, r, dom);
	segc_rgraph_error(r, or_at, SEGC_ERR_INPUT, "the graph mixes or-"
		"splits or or-joins with and-splits and and-joins in a way that "
		"is neither structured (an and-split closed by an and-join "
		"inside the or-flow) nor a pure task graph (every split and "
		"join 'and', no cycles) nor a pure Markov chain (no 'and')");
	return NULL;
}

/* Reduces the smallest structured region that the rules leave (a loop
 * body, or a part of one kind, or and) by the general methods, and
 * replaces it by one node; 1 when one was reduced, 0 when none is left,
 * -1 on error. */
static int reduce_one_region(reducer *R, const segc_domains *dom)
{
	segc_rgraph *r = R->r;
	unsigned char *in = calloc(r->nnodes + 1, 1);
	size_t a, b, entry = r->entry, exit = r->exit;
	segc_expr *f;
	int rc;

	if (!in)
		return -1;
	rc = segc_region_find(r, in, &a, &b);
	if (rc <= 0) {
		free(in);
		return rc;
	}
	r->mask = in;
	r->entry = a;
	r->exit = b;
	f = general(r, dom);
	r->mask = NULL;
	r->entry = entry;
	r->exit = exit;
	if (f)
		collapse_region(R, in, a, b, f);
	free(in);
	return f ? 1 : -1;
}

/* Reduces what the rules leave: regions by the general methods, innermost
 * first, the rules again after each; the formula, or NULL. */
static segc_expr *reduce_rest(reducer *R, const segc_domains *dom,
	unsigned flags)
{
	segc_rgraph *r = R->r;
	size_t v;

	for (;;) {
		int rc;

		if (r->alive == 1 && r->nodes[r->entry].out_head == SEGC_NIL)
			return segc_terms_sum(r, &r->nodes[r->entry].cost);
		if (!has_back_arc(r, &v) && segc_region_pure(r))
			return general(r, dom);
		rc = reduce_one_region(R, dom);
		if (rc < 0)
			return NULL;
		if (rc == 0)
			break;
		if (run_rules(R, flags)) {
			segc_error(r->ctx, SEGC_ERR_LIMIT, NULL, 0, 0,
				"out of memory reducing a graph");
			return NULL;
		}
	}
	if (has_back_arc(r, &v)) {
		segc_rgraph_error(r, v, SEGC_ERR_INPUT, "the region of a back "
			"arc (loop) does not reduce to one node: its region "
			"must have one entry (the arc's target) and one exit "
			"(the arc's source)");
		return NULL;
	}
	return general(r, dom);
}

/* Reduces one lowered graph for 'comp'; 'sums' as for rgraph_new. */
static segc_expr *reduce_graph(segc_ctx *ctx, const segc_lgraph *g,
	enum segc_component comp, segc_expr *const *sums,
	const segc_domains *dom, unsigned flags)
{
	reducer R;
	segc_expr *e = NULL;
	size_t x;

	memset(&R, 0, sizeof(R));
	R.r = rgraph_new(ctx, g, comp, sums);
	R.wl.queued = calloc(g->nnodes + 1, 1);
	R.wl.v = malloc((g->nnodes + 1) * sizeof(*R.wl.v));
	R.wl.cap = g->nnodes + 1;
	R.count = calloc(g->nnodes + 1, sizeof(*R.count));
	R.buf = malloc((g->narcs + 1) * sizeof(*R.buf));
	if (!R.r || !R.wl.queued || !R.wl.v || !R.count || !R.buf)
		goto oom;
	if (cyclic_pass(&R, g, comp, dom))
		goto done;
	for (x = 0; x < g->nnodes; x++)
		wl_push(&R.wl, x);
	if (run_rules(&R, flags))
		goto oom;
	e = reduce_rest(&R, dom, flags);
	goto done;
oom:
	segc_error(ctx, SEGC_ERR_LIMIT, NULL, 0, 0,
		"out of memory reducing graph '%s'", g->name ? g->name : "main");
done:
	rgraph_free(R.r);
	free(R.wl.v);
	free(R.wl.queued);
	free(R.count);
	free(R.buf);
	return e;
}

/* The cost of sum region 'sub': sum(var, from, to, body); 0 for a zero
 * body. */
static segc_expr *region_cost(const segc_lgraph *sub, segc_expr *body)
{
	if (segc_expr_is_zero(body)) {
		segc_expr_free(body);
		return segc_expr_int(0);
	}
	return segc_expr_sum(sub->var, segc_expr_copy(sub->from),
		segc_expr_copy(sub->to), body);
}

/* Reduces the lowered program 'lw' for 'comp' (see graph.h). */
segc_expr *segc_reduce(segc_ctx *ctx, const segc_lowered *lw,
	enum segc_component comp, const segc_domains *dom, unsigned flags)
{
	segc_expr **body = calloc(lw->ngraphs + 1, sizeof(*body));
	segc_expr **sums = NULL;
	segc_expr *e = NULL;
	size_t gi, i;

	if (!body)
		return NULL;
	for (gi = lw->ngraphs; gi-- > 0;) {
		const segc_lgraph *g = &lw->graphs[gi];

		sums = NULL;
		if (gi + 1 < lw->ngraphs) {
			sums = calloc(g->nnodes + 1, sizeof(*sums));
			if (!sums)
				goto done;
		}
		for (i = 0; sums && i < g->nnodes; i++)
			if (g->nodes[i].sub != SEGC_NIL) {
				size_t sub = g->nodes[i].sub;

				sums[i] = region_cost(&lw->graphs[sub],
					body[sub]);
				body[sub] = NULL;
			}
		body[gi] = reduce_graph(ctx, g, comp, sums, dom, flags);
		for (i = 0; sums && i < g->nnodes; i++)
			segc_expr_free(sums[i]);
		free(sums);
		if (!body[gi])
			goto done;
	}
	e = body[0];
	body[0] = NULL;
done:
	for (gi = 0; gi < lw->ngraphs; gi++)
		segc_expr_free(body[gi]);
	free(body);
	return e;
}
