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

#include "graph.h"

/* ------------------------------------------------------------ term lists */

struct segc_tcell {
	segc_expr *e;
	segc_tcell *next;
};

#define ARENA_CHUNK 4096

typedef struct tchunk {
	struct tchunk *next;
	size_t used;
	segc_tcell cells[ARENA_CHUNK];
} tchunk;

struct segc_tarena {
	tchunk *chunks;
};

/* A new cell holding 'e' (taken); NULL when out of memory. */
static segc_tcell *cell_new(struct segc_tarena *a, segc_expr *e)
{
	segc_tcell *c;

	if (!a->chunks || a->chunks->used == ARENA_CHUNK) {
		tchunk *k = malloc(sizeof(*k));

		if (!k) {
			segc_expr_free(e);
			return NULL;
		}
		k->next = a->chunks;
		k->used = 0;
		a->chunks = k;
	}
	c = &a->chunks->cells[a->chunks->used++];
	c->e = e;
	c->next = NULL;
	return c;
}

/* Releases every cell of arena 'a' and the expressions they hold. */
static void arena_free(struct segc_tarena *a)
{
	while (a->chunks) {
		tchunk *k = a->chunks;
		size_t i;

		a->chunks = k->next;
		for (i = 0; i < k->used; i++)
			segc_expr_free(k->cells[i].e);
		free(k);
	}
}

/* Non-zero when 't' holds no term. */
int segc_terms_empty(const segc_terms *t)
{
	return t->head == NULL;
}

/* Appends 'e' (taken; zero or NULL dropped) to 't'; -1 out of memory. */
static int terms_push(struct segc_tarena *a, segc_terms *t, segc_expr *e)
{
	segc_tcell *c;

	if (!e)
		return 0;
	if (segc_expr_is_zero(e)) {
		segc_expr_free(e);
		return 0;
	}
	c = cell_new(a, e);
	if (!c)
		return -1;
	if (t->tail)
		t->tail->next = c;
	else
		t->head = c;
	t->tail = c;
	return 0;
}

/* Moves every term of 'src' to the end of 'dst'. */
static void terms_join(segc_terms *dst, segc_terms *src)
{
	if (!src->head)
		return;
	if (dst->tail)
		dst->tail->next = src->head;
	else
		dst->head = src->head;
	dst->tail = src->tail;
	src->head = src->tail = NULL;
}

/* The sum of the terms of 't' (a new expression; 0 when empty). */
segc_expr *segc_terms_sum(const segc_terms *t)
{
	size_t n = 0, i = 0;
	segc_tcell *c;
	segc_expr **v;

	if (!t->head)
		return segc_expr_int(0);
	if (t->head == t->tail)
		return segc_expr_copy(t->head->e);
	for (c = t->head; c; c = c->next)
		n++;
	v = malloc(n * sizeof(*v));
	if (!v)
		return NULL;
	for (c = t->head; c; c = c->next)
		v[i++] = segc_expr_copy(c->e);
	{
		segc_expr *e = segc_expr_add(n, v);

		free(v);
		return e;
	}
}

/* Replaces the terms of 't' by their sum and gives a new reference to it
 * (NULL when 't' is empty). */
static segc_expr *terms_collapse(struct segc_tarena *a, segc_terms *t)
{
	segc_expr *e;
	segc_tcell *c;

	if (!t->head)
		return NULL;
	if (t->head == t->tail)
		return segc_expr_copy(t->head->e);
	e = segc_terms_sum(t);
	if (!e)
		return NULL;
	for (c = t->head; c; c = c->next) {
		segc_expr_free(c->e);
		c->e = NULL;
	}
	t->head = t->tail = NULL;
	if (terms_push(a, t, segc_expr_copy(e))) {
		segc_expr_free(e);
		return NULL;
	}
	return e;
}

/* Empties 't' (the cells stay in the arena, their expressions released). */
static void terms_clear(segc_terms *t)
{
	segc_tcell *c;

	for (c = t->head; c; c = c->next) {
		segc_expr_free(c->e);
		c->e = NULL;
	}
	t->head = t->tail = NULL;
}

/* ----------------------------------------------------------- the graph */

/* Reports an error located at node 'v' of 'r'. */
void segc_rgraph_error(segc_rgraph *r, size_t v, enum segc_status code,
	const char *fmt, ...)
{
	const segc_gnode *n = &r->src->nodes[r->nodes[v].orig];
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

/* Links arc 'k' at the end of the out-list of its source. */
static void link_out(segc_rgraph *r, size_t k)
{
	segc_rarc *a = &r->arcs[k];
	segc_rnode *u = &r->nodes[a->from];

	a->next_out = SEGC_NONE;
	a->prev_out = u->out_tail;
	if (u->out_tail != SEGC_NONE)
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
static void link_in(segc_rgraph *r, size_t k)
{
	segc_rarc *a = &r->arcs[k];
	segc_rnode *v = &r->nodes[a->to];

	a->next_in = SEGC_NONE;
	a->prev_in = v->in_tail;
	if (v->in_tail != SEGC_NONE)
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
static void unlink_out(segc_rgraph *r, size_t k)
{
	segc_rarc *a = &r->arcs[k];
	segc_rnode *u = &r->nodes[a->from];

	if (a->prev_out != SEGC_NONE)
		r->arcs[a->prev_out].next_out = a->next_out;
	else
		u->out_head = a->next_out;
	if (a->next_out != SEGC_NONE)
		r->arcs[a->next_out].prev_out = a->prev_out;
	else
		u->out_tail = a->prev_out;
	if (a->loop)
		u->nloop_out--;
	else
		u->nout--;
}

/* Unlinks arc 'k' from its target's in-list. */
static void unlink_in(segc_rgraph *r, size_t k)
{
	segc_rarc *a = &r->arcs[k];
	segc_rnode *v = &r->nodes[a->to];

	if (a->prev_in != SEGC_NONE)
		r->arcs[a->prev_in].next_in = a->next_in;
	else
		v->in_head = a->next_in;
	if (a->next_in != SEGC_NONE)
		r->arcs[a->next_in].prev_in = a->prev_in;
	else
		v->in_tail = a->prev_in;
	if (a->loop)
		v->nloop_in--;
	else
		v->nin--;
}

/* Removes arc 'k' from the graph. */
static void kill_arc(segc_rgraph *r, size_t k)
{
	segc_rarc *a = &r->arcs[k];

	unlink_out(r, k);
	unlink_in(r, k);
	a->alive = 0;
	terms_clear(&a->cost);
	segc_expr_free(a->prob);
	segc_expr_free(a->loop);
	a->prob = a->loop = NULL;
}

/* Puts arc 'a' into the in-list of its target in the place of arc 'b'. */
static void replace_in(segc_rgraph *r, size_t a, size_t b)
{
	segc_rarc *A = &r->arcs[a], *B = &r->arcs[b];

	A->prev_in = B->prev_in;
	A->next_in = B->next_in;
	if (B->prev_in != SEGC_NONE)
		r->arcs[B->prev_in].next_in = a;
	else
		r->nodes[B->to].in_head = a;
	if (B->next_in != SEGC_NONE)
		r->arcs[B->next_in].prev_in = a;
	else
		r->nodes[B->to].in_tail = a;
	A->to = B->to;
}

/* Whether a cost of class 'cls' counts in component 'comp'. */
static int in_component(enum segc_component comp, enum segc_class cls)
{
	if (comp == SEGC_TOTAL)
		return 1;
	return (comp == SEGC_COMP && cls == SEGC_CLASS_COMP)
		|| (comp == SEGC_COMM && cls == SEGC_CLASS_COMM)
		|| (comp == SEGC_IO && cls == SEGC_CLASS_IO);
}

/* Frees the working graph 'r'. */
static void rgraph_free(segc_rgraph *r)
{
	size_t k;

	if (!r)
		return;
	for (k = 0; k < r->narcs; k++) {
		segc_expr_free(r->arcs[k].prob);
		segc_expr_free(r->arcs[k].loop);
	}
	if (r->arena) {
		arena_free(r->arena);
		free(r->arena);
	}
	free(r->nodes);
	free(r->arcs);
	free(r);
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
	r->nodes = calloc(g->nnodes + 1, sizeof(*r->nodes));
	r->arcs = calloc(g->narcs + 1, sizeof(*r->arcs));
	r->arena = calloc(1, sizeof(*r->arena));
	if (!r->nodes || !r->arcs || !r->arena)
		goto fail;
	r->entry = g->entry;
	r->exit = g->exit;
	r->alive = g->nnodes;
	for (i = 0; i < g->nnodes; i++) {
		const segc_gnode *n = &g->nodes[i];
		segc_rnode *v = &r->nodes[i];
		segc_expr *c = NULL;

		v->out_head = v->out_tail = v->in_head = v->in_tail = SEGC_NONE;
		v->split_and = n->split_and;
		v->join_and = n->join_and;
		v->alive = 1;
		v->orig = i;
		if (n->sub != SEGC_NONE)
			c = sums[i] ? segc_expr_copy(sums[i]) : NULL;
		else if (n->cost && in_component(comp, n->cls))
			c = segc_expr_copy(n->cost);
		if (terms_push(r->arena, &v->cost, c))
			goto fail;
	}
	for (i = 0; i < g->narcs; i++) {
		const segc_garc *ga = &g->arcs[i];
		segc_rarc *a = &r->arcs[i];

		a->from = ga->from;
		a->to = ga->to;
		a->prob = segc_expr_copy(ga->prob);
		a->loop = ga->loop ? segc_expr_copy(ga->loop) : NULL;
		a->alive = 1;
		a->orig = i;
		if (ga->cost && in_component(comp, ga->cls)
				&& terms_push(r->arena, &a->cost,
					segc_expr_copy(ga->cost)))
			goto fail;
		link_out(r, i);
		link_in(r, i);
	}
	return r;
fail:
	rgraph_free(r);
	return NULL;
}

/* ------------------------------------------------------------- work list */

typedef struct worklist {
	size_t *v;
	size_t head, n, cap;
	char *queued;
} worklist;

/* Queues node 'x' unless it is already queued; -1 out of memory. */
static int wl_push(worklist *w, size_t x)
{
	if (w->queued[x])
		return 0;
	if (w->n == w->cap) {
		size_t cap;
		size_t *q;

		if (w->head > 0) {
			memmove(w->v, w->v + w->head,
				(w->n - w->head) * sizeof(*w->v));
			w->n -= w->head;
			w->head = 0;
		}
		cap = w->cap ? 2 * w->cap : 64;
		if (w->n < w->cap / 2)
			cap = w->cap;
		q = w->n == w->cap || cap != w->cap
			? realloc(w->v, cap * sizeof(*q)) : w->v;
		if (!q)
			return -1;
		w->v = q;
		w->cap = cap;
	}
	w->v[w->n++] = x;
	w->queued[x] = 1;
	return 0;
}

/* Takes the next queued node; SEGC_NONE when none is left. */
static size_t wl_pop(worklist *w)
{
	size_t x;

	if (w->head == w->n)
		return SEGC_NONE;
	x = w->v[w->head++];
	w->queued[x] = 0;
	return x;
}

/* ------------------------------------------------------------- the rules */

typedef struct reducer {
	segc_rgraph *r;
	worklist wl;
	size_t *count;     /* scratch: arcs per target (all zero between uses) */
	size_t *buf;       /* scratch: arcs of one group */
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
static int rule_self_loop(reducer *R, size_t k)
{
	segc_rgraph *r = R->r;
	segc_rarc *a = &r->arcs[k];
	segc_rnode *x = &r->nodes[a->from];
	segc_expr *body = terms_collapse(r->arena, &x->cost);
	segc_expr *ac = terms_collapse(r->arena, &a->cost);
	segc_expr *n = segc_expr_copy(a->loop);

	terms_clear(&x->cost);
	if (terms_push(r->arena, &x->cost, times(n, body)))
		R->oom = 1;
	if (ac && terms_push(r->arena, &x->cost, segc_expr_mul2(
			segc_expr_sub2(segc_expr_copy(n), segc_expr_int(1)), ac)))
		R->oom = 1;
	segc_expr_free(n);
	kill_arc(r, k);
	for (k = x->in_head; k != SEGC_NONE; k = r->arcs[k].next_in)
		if (wl_push(&R->wl, r->arcs[k].from))
			R->oom = 1;
	return 1;
}

/* The only arc of 'x' that is not a back arc, going out. */
static size_t only_out(const segc_rgraph *r, const segc_rnode *x)
{
	size_t k;

	for (k = x->out_head; k != SEGC_NONE; k = r->arcs[k].next_out)
		if (!r->arcs[k].loop)
			return k;
	return SEGC_NONE;
}

/* The only arc of 'x' that is not a back arc, coming in. */
static size_t only_in(const segc_rgraph *r, const segc_rnode *x)
{
	size_t k;

	for (k = x->in_head; k != SEGC_NONE; k = r->arcs[k].next_in)
		if (!r->arcs[k].loop)
			return k;
	return SEGC_NONE;
}

/* Rule "series": 'x' absorbs the target of its only arc 'k'. */
static void rule_series(reducer *R, size_t xi, size_t k)
{
	segc_rgraph *r = R->r;
	size_t yi = r->arcs[k].to, m;
	segc_rnode *x = &r->nodes[xi], *y = &r->nodes[yi];

	terms_join(&x->cost, &r->arcs[k].cost);
	terms_join(&x->cost, &y->cost);
	kill_arc(r, k);
	m = y->out_head;
	while (m != SEGC_NONE) {
		size_t next = r->arcs[m].next_out;

		unlink_out(r, m);
		r->arcs[m].from = xi;
		link_out(r, m);
		m = next;
	}
	x->split_and = y->split_and;
	y->alive = 0;
	r->alive--;
	if (r->exit == yi)
		r->exit = xi;
}

/* Rule "through": node 'x' with one arc in and one out joins the arcs. */
static void rule_through(reducer *R, size_t xi, size_t a, size_t b)
{
	segc_rgraph *r = R->r;
	segc_rnode *x = &r->nodes[xi];

	terms_join(&r->arcs[a].cost, &x->cost);
	terms_join(&r->arcs[a].cost, &r->arcs[b].cost);
	unlink_in(r, a);
	unlink_out(r, b);
	replace_in(r, a, b);
	r->arcs[b].alive = 0;
	segc_expr_free(r->arcs[b].prob);
	segc_expr_free(r->arcs[b].loop);
	r->arcs[b].prob = r->arcs[b].loop = NULL;
	x->alive = 0;
	r->alive--;
}

/* The maximum of the collapsed costs of arcs 'buf'[0..n): identical
 * arguments once, a lone argument itself, all empty: NULL. */
static segc_expr *max_of(reducer *R, const size_t *buf, size_t n)
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
static segc_expr *choice_of(reducer *R, const size_t *buf, size_t n)
{
	segc_rgraph *r = R->r;
	segc_expr **v = malloc(n * sizeof(*v));
	size_t i, m = 0;
	segc_expr *e;

	if (!v)
		return NULL;
	for (i = 0; i < n; i++) {
		segc_rarc *a = &r->arcs[buf[i]];
		segc_expr *c = terms_collapse(r->arena, &a->cost);

		if (c)
			v[m++] = segc_expr_mul2(segc_expr_copy(a->prob), c);
	}
	e = m ? segc_expr_add(m, v) : NULL;
	free(v);
	return e;
}

/* Replaces arcs 'buf'[0..n) (same source and target) by the first of
 * them, with cost 'c' (taken) and probability 1. */
static void merge_arcs(reducer *R, const size_t *buf, size_t n, segc_expr *c)
{
	segc_rgraph *r = R->r;
	segc_rarc *first = &r->arcs[buf[0]];
	size_t i;

	for (i = 1; i < n; i++)
		kill_arc(r, buf[i]);
	terms_clear(&first->cost);
	segc_expr_free(first->prob);
	first->prob = segc_expr_int(1);
	if (terms_push(r->arena, &first->cost, c))
		R->oom = 1;
}

/* Rule "choice" at or-split 'x': all its arcs reach one node. */
static int rule_choice(reducer *R, size_t xi)
{
	segc_rgraph *r = R->r;
	segc_rnode *x = &r->nodes[xi];
	size_t k, n = 0, target = SEGC_NONE;

	for (k = x->out_head; k != SEGC_NONE; k = r->arcs[k].next_out) {
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
	return wl_push(&R->wl, target) ? -1 : 1;
}

/* Rule "fork/join" at and-split 'x': groups of its arcs reaching one
 * and-join become one arc each. */
static int rule_fork(reducer *R, size_t xi)
{
	segc_rgraph *r = R->r;
	segc_rnode *x = &r->nodes[xi];
	size_t k, changed = 0;

	for (k = x->out_head; k != SEGC_NONE; k = r->arcs[k].next_out)
		if (!r->arcs[k].loop)
			R->count[r->arcs[k].to]++;
	for (k = x->out_head; k != SEGC_NONE; k = r->arcs[k].next_out) {
		size_t t = r->arcs[k].to, n = 0, m;

		if (r->arcs[k].loop || R->count[t] < 2 || t == xi
				|| !r->nodes[t].join_and
				|| R->count[t] != r->nodes[t].nin)
			continue;
		for (m = k; m != SEGC_NONE; m = r->arcs[m].next_out)
			if (!r->arcs[m].loop && r->arcs[m].to == t)
				R->buf[n++] = m;
		R->count[t] = 1;
		merge_arcs(R, R->buf, n, max_of(R, R->buf, n));
		if (wl_push(&R->wl, t))
			R->oom = 1;
		changed = 1;
	}
	for (k = x->out_head; k != SEGC_NONE; k = r->arcs[k].next_out)
		R->count[r->arcs[k].to] = 0;
	return (int)changed;
}

/* Applies the first rule that fits at node 'x'; 1 if the graph changed. */
static int try_node(reducer *R, size_t xi)
{
	segc_rgraph *r = R->r;
	segc_rnode *x = &r->nodes[xi];
	size_t k, a, b;

	for (k = x->out_head; k != SEGC_NONE; k = r->arcs[k].next_out)
		if (r->arcs[k].loop && r->arcs[k].to == xi)
			return rule_self_loop(R, k);
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
			return (wl_push(&R->wl, u) || wl_push(&R->wl, w)) ? -1 : 1;
		}
	}
	if (x->nout >= 2)
		return x->split_and ? rule_fork(R, xi) : rule_choice(R, xi);
	return 0;
}

/* Runs the rules to a fixed point; -1 out of memory. */
static int run_rules(reducer *R, unsigned flags)
{
	segc_rgraph *r = R->r;
	size_t x;

	for (x = 0; x < r->nnodes; x++)
		if (wl_push(&R->wl, x))
			return -1;
	while ((x = wl_pop(&R->wl)) != SEGC_NONE) {
		int rc;

		if (!r->nodes[x].alive)
			continue;
		if (flags & SEGC_REDUCE_GENERAL_ONLY) {
			size_t k;

			rc = 0;
			for (k = r->nodes[x].out_head; k != SEGC_NONE;
					k = r->arcs[k].next_out)
				if (r->arcs[k].loop && r->arcs[k].to == x) {
					rc = rule_self_loop(R, k);
					break;
				}
		} else
			rc = try_node(R, x);
		if (rc < 0 || R->oom)
			return -1;
		if (rc > 0 && wl_push(&R->wl, x))
			return -1;
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

/* Sends an irreducible remainder to the general method that fits it. */
static segc_expr *general(segc_rgraph *r, const segc_domains *dom)
{
	size_t v, and_at = SEGC_NONE, or_at = SEGC_NONE;

	if (has_back_arc(r, &v)) {
		segc_rgraph_error(r, v, SEGC_ERR_INPUT, "the region of a back "
			"arc (loop) does not reduce to one node: its region "
			"must have one entry (the arc's target) and one exit "
			"(the arc's source)");
		return NULL;
	}
	for (v = 0; v < r->nnodes; v++) {
		const segc_rnode *x = &r->nodes[v];

		if (!x->alive)
			continue;
		if (((x->nout >= 2 && x->split_and)
				|| (x->nin >= 2 && x->join_and))
				&& and_at == SEGC_NONE)
			and_at = v;
		if (((x->nout >= 2 && !x->split_and)
				|| (x->nin >= 2 && !x->join_and))
				&& or_at == SEGC_NONE)
			or_at = v;
	}
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

/* Reduces one lowered graph for 'comp'; 'sums' as for rgraph_new. */
static segc_expr *reduce_graph(segc_ctx *ctx, const segc_lgraph *g,
	enum segc_component comp, segc_expr *const *sums,
	const segc_domains *dom, unsigned flags)
{
	reducer R;
	segc_expr *e = NULL;

	memset(&R, 0, sizeof(R));
	R.r = rgraph_new(ctx, g, comp, sums);
	R.wl.queued = calloc(g->nnodes + 1, 1);
	R.count = calloc(g->nnodes + 1, sizeof(size_t));
	R.buf = malloc((g->narcs + 1) * sizeof(size_t));
	if (!R.r || !R.wl.queued || !R.count || !R.buf
			|| run_rules(&R, flags)) {
		segc_error(ctx, SEGC_ERR_LIMIT, NULL, 0, 0,
			"out of memory reducing graph '%s'",
			g->name ? g->name : "main");
		goto done;
	}
	if (R.r->alive == 1 && R.r->nodes[R.r->entry].out_head == SEGC_NONE)
		e = segc_terms_sum(&R.r->nodes[R.r->entry].cost);
	else
		e = general(R.r, dom);
done:
	rgraph_free(R.r);
	free(R.wl.v);
	free(R.wl.queued);
	free(R.count);
	free(R.buf);
	return e;
}

/* The cost of a sum region: sum(var, from, to, body); 0 for a zero body. */
static segc_expr *region_cost(const segc_gnode *n, segc_expr *body)
{
	if (segc_expr_is_zero(body)) {
		segc_expr_free(body);
		return segc_expr_int(0);
	}
	return segc_expr_sum(n->var, segc_expr_copy(n->from),
		segc_expr_copy(n->to), body);
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

		sums = calloc(g->nnodes + 1, sizeof(*sums));
		if (!sums)
			goto done;
		for (i = 0; i < g->nnodes; i++)
			if (g->nodes[i].sub != SEGC_NONE) {
				sums[i] = region_cost(&g->nodes[i],
					body[g->nodes[i].sub]);
				body[g->nodes[i].sub] = NULL;
			}
		body[gi] = reduce_graph(ctx, g, comp, sums, dom, flags);
		for (i = 0; i < g->nnodes; i++)
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
