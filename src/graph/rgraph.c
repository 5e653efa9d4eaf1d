/* rgraph.c - the graph being reduced (rgraph.h): term lists in an arena
 * of cells that never move, nodes and arcs in doubly linked lists, and the
 * small operations on them that the rules, the regions and the general
 * methods share. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph/rgraph.h"
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

/* A new cell holding 'e' (taken); SEGC_NIL when the arena is full (its
 * cells are numbered by 32-bit indices). */
static segc_gix cell_new(struct segc_tarena *a, segc_expr *e)
{
	struct segc_tcell *c;

	if (a->used == a->nchunks * ARENA_CHUNK) {
		if (a->used >= SEGC_MAX_INDEX - ARENA_CHUNK)
			goto fail;
		if (a->nchunks == a->capchunks) {
			a->capchunks = a->capchunks ? 2 * a->capchunks : 16;
			a->chunks = segc_xrealloc(a->chunks, segc_xmul_size(
				a->capchunks, sizeof(*a->chunks)));
		}
		a->chunks[a->nchunks++] = segc_xmalloc(ARENA_CHUNK
			* sizeof(**a->chunks));
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

/* Appends 'e' (taken; zero or NULL dropped) to 't'; -1 when the arena is
 * full. */
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
	v = segc_xmalloc(segc_xmul_size(n, sizeof(*v)));
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

/* Appends 'e' (taken) to term list 't' of 'r' (see rgraph.h). */
int segc_terms_push(segc_rgraph *r, segc_terms *t, segc_expr *e)
{
	return terms_push(r->arena, t, e);
}

/* Moves the terms of 'src' to the end of 'dst' (see rgraph.h). */
void segc_terms_join(segc_rgraph *r, segc_terms *dst, segc_terms *src)
{
	terms_join(r->arena, dst, src);
}

/* Empties term list 't' of 'r' (see rgraph.h). */
void segc_terms_clear(segc_rgraph *r, segc_terms *t)
{
	terms_clear(r->arena, t);
}

/* Collapses term list 't' of 'r' to one term (see rgraph.h). */
segc_expr *segc_terms_collapse(segc_rgraph *r, segc_terms *t)
{
	return terms_collapse(r->arena, t);
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
void segc_rarc_link_out(segc_rgraph *r, segc_gix k)
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
void segc_rarc_link_in(segc_rgraph *r, segc_gix k)
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
void segc_rarc_unlink_out(segc_rgraph *r, segc_gix k)
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
void segc_rarc_unlink_in(segc_rgraph *r, segc_gix k)
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
void segc_rarc_kill(segc_rgraph *r, segc_gix k)
{
	segc_rarc_unlink_out(r, k);
	segc_rarc_unlink_in(r, k);
	r->arcs[k].alive = 0;
	terms_clear(r->arena, &r->arcs[k].cost);
}

/* Puts arc 'a' into the in-list of its target in the place of arc 'b'. */
void segc_rarc_replace_in(segc_rgraph *r, segc_gix a, segc_gix b)
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
void segc_rgraph_free(segc_rgraph *r)
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

/* Sets up node 'i' of 'r' from lowered node 'n'; -1 when the arena is
 * full. */
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
segc_rgraph *segc_rgraph_new(segc_ctx *ctx, const segc_lgraph *g,
	enum segc_component comp, segc_expr *const *sums)
{
	segc_rgraph *r = segc_xcalloc(1, sizeof(*r));
	size_t i;

	r->ctx = ctx;
	r->src = g;
	r->nnodes = g->nnodes;
	r->narcs = g->narcs;
	r->nodes = segc_xmalloc(segc_xmul_size(g->nnodes + 1, sizeof(*r->nodes)));
	r->arcs = segc_xmalloc(segc_xmul_size(g->narcs + 1, sizeof(*r->arcs)));
	r->arena = segc_xcalloc(1, sizeof(*r->arena));
	r->one = segc_expr_int(1);
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
		segc_rarc_link_out(r, (segc_gix)i);
		segc_rarc_link_in(r, (segc_gix)i);
	}
	return r;
fail:
	segc_rgraph_free(r);
	return NULL;
}

/* Moves the out-arcs of 'y' to 'x' (in order). */
void segc_rnode_move_out_arcs(segc_rgraph *r, size_t xi, size_t yi)
{
	segc_gix m = r->nodes[yi].out_head;

	while (m != SEGC_NIL) {
		segc_gix next = r->arcs[m].next_out;

		segc_rarc_unlink_out(r, m);
		r->arcs[m].from = (segc_gix)xi;
		segc_rarc_link_out(r, m);
		m = next;
	}
}

/* Moves the in-arcs of 'x' to 'y' (in order). */
void segc_rnode_move_in_arcs(segc_rgraph *r, size_t yi, size_t xi)
{
	segc_gix m = r->nodes[xi].in_head;

	while (m != SEGC_NIL) {
		segc_gix next = r->arcs[m].next_in;

		segc_rarc_unlink_in(r, m);
		r->arcs[m].to = (segc_gix)yi;
		segc_rarc_link_in(r, m);
		m = next;
	}
}

/* Whether node 'v' is seen by the general methods (see graph.h). */
int segc_rgraph_has_node(const segc_rgraph *r, size_t v)
{
	return r->nodes[v].alive && (!r->mask || r->mask[v]);
}

/* Whether arc 'k' is seen by the general methods (see graph.h). */
int segc_rgraph_has_arc(const segc_rgraph *r, size_t k)
{
	const segc_rarc *a = &r->arcs[k];

	return a->alive && !a->loop && segc_rgraph_has_node(r, a->from)
		&& segc_rgraph_has_node(r, a->to);
}
