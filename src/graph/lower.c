/* lower.c - lowers a model graph, in block form or in arc form, into the one
 * graph representation of graph.h.
 *
 * Blocks become nodes and arcs: a step one node; a sequence its children
 * chained by arcs; <loop count="n"> its body with a back arc (loop n) from
 * the body's exit to its entry; <branch> an or-split and an or-join with one
 * arc per case carrying its probability; <par> an and-split and an and-join;
 * <call> the called graph, inlined; <loop var from to> a sum region node
 * whose body is lowered into a graph of its own.  The walk uses an explicit
 * stack, so nesting depth costs memory, not C stack. */
#include <stdlib.h>
#include <string.h>

#include "graph/graph.h"
#include "graph/indexed.h"
#include "base/util.h"

/* Steps the regions of the loop arcs around forward edges may take. */
#define FORWARD_WORK 200000000UL

/* ------------------------------------------------------ block lowering */

/* One pending block of the walk: which child comes next and the ends of
 * what is built so far. */
typedef struct frame {
	const segc_block *b;
	size_t g;            /* graph the block is lowered into */
	size_t i;            /* next child */
	size_t entry, exit;  /* of the part built so far (SEGC_NONE: none) */
	size_t split, join;  /* BRANCH, PAR */
	size_t sumnode;      /* LOOP var: the region node in the parent */
	size_t parent_g;
	int arcs_in_graph;   /* the child graph of a CALL in arc form */
} frame;

typedef struct lowerer {
	segc_ctx *ctx;
	const segc_model *m;
	segc_lowered *lw;
	frame *st;
	size_t n, cap;
	size_t ret_entry, ret_exit;   /* ends of the block just finished */
	unsigned long max_nodes;
	segc_expr *one;               /* the number 1, for plain arcs */
} lowerer;

/* Records that the graph grew past max_nodes. */
static int too_big(lowerer *L, const segc_srcloc *loc)
{
	segc_error(L->ctx, SEGC_ERR_LIMIT, loc->file, loc->line, loc->col,
		"the program has more than %lu nodes once lowered "
		"(calls inlined): limit max_nodes", L->max_nodes);
	return -1;
}

/* Adds a node to graph 'g' of the program, counting against the limit. */
static size_t new_node(lowerer *L, size_t g, segc_expr *cost,
	enum segc_class cls, const segc_srcloc *loc)
{
	size_t v;

	if (L->lw->total_nodes >= L->max_nodes) {
		segc_expr_free(cost);
		too_big(L, loc);
		return SEGC_NONE;
	}
	v = segc_lgraph_add_node(&L->lw->graphs[g], cost, cls);
	if (v == SEGC_NONE) {
		too_big(L, loc);
		return v;
	}
	L->lw->total_nodes++;
	L->lw->graphs[g].nodes[v].loc = loc;
	return v;
}

/* Adds a plain arc of probability 'prob' (taken; NULL for 1). */
static int new_arc(lowerer *L, size_t g, size_t from, size_t to,
	segc_expr *prob, const segc_srcloc *loc)
{
	size_t a = segc_lgraph_add_arc(&L->lw->graphs[g], from, to,
		prob ? prob : segc_expr_copy(L->one), NULL, SEGC_CLASS_COMP,
		NULL);

	if (a == SEGC_NONE)
		return too_big(L, loc);
	L->lw->graphs[g].arcs[a].loc = loc;
	return 0;
}

/* The time of a step: cost + sum of count*resource over its uses. */
static segc_expr *step_cost(const segc_block *b)
{
	segc_expr *e = b->cost ? segc_expr_copy(b->cost) : NULL;
	size_t k;

	for (k = 0; k < b->nuses; k++) {
		segc_expr *u = segc_expr_mul2(segc_expr_copy(b->uses[k].count),
			segc_expr_sym(b->uses[k].resource));

		e = e ? segc_expr_add2(e, u) : u;
	}
	return e;
}

/* Pushes a frame for block 'b' lowered into graph 'g'. */
static int push(lowerer *L, const segc_block *b, size_t g)
{
	frame *f;

	if (L->n >= L->max_nodes)
		return too_big(L, &b->loc);
	if (L->n == L->cap) {
		size_t cap = L->cap ? 2 * L->cap : 64;
		L->st = segc_xrealloc(L->st, segc_xmul_size(cap, sizeof(*L->st)));
		L->cap = cap;
	}
	f = &L->st[L->n++];
	memset(f, 0, sizeof(*f));
	f->b = b;
	f->g = g;
	f->entry = f->exit = f->split = f->join = SEGC_NONE;
	f->sumnode = SEGC_NONE;
	return 0;
}

/* Adds forward edge 'a' of an arc-form graph copied at node 'base' to
 * graph 'g' (its owner set later). */
static int add_forward(lowerer *L, size_t g, size_t base, const segc_arc *a)
{
	segc_lgraph *lg = &L->lw->graphs[g];
	segc_gfwd *f;

	f = segc_lgraph_add_forward(lg);
	if (!f)
		return too_big(L, &a->loc);
	f->from = (segc_gix)(base + a->from_index);
	f->to = (segc_gix)(base + a->to_index);
	f->owner = SEGC_NIL;
	f->dist = a->forward;
	f->cost = a->cost ? segc_expr_copy(a->cost) : NULL;
	f->loc = &a->loc;
	f->cls = (unsigned char)a->cls;
	return 0;
}

/* The non-loop arcs of one copied arc-form graph, by source and by
 * target (compressed rows over the nodes of the graph). */
typedef struct plain_adj {
	size_t *out_start, *out, *in_start, *in;
} plain_adj;

/* Fills 'j' from the non-loop arcs arcs[first..first+n) of 'g'. */
static void plain_adj_init(plain_adj *j, const segc_lgraph *g, size_t first,
	size_t n)
{
	size_t k, v, *fo, *fi;

	j->out_start = segc_xcalloc(g->nnodes + 2, sizeof(size_t));
	j->in_start = segc_xcalloc(g->nnodes + 2, sizeof(size_t));
	j->out = segc_xmalloc((n + 1) * sizeof(size_t));
	j->in = segc_xmalloc((n + 1) * sizeof(size_t));
	fo = segc_xcalloc(g->nnodes + 1, sizeof(size_t));
	fi = segc_xcalloc(g->nnodes + 1, sizeof(size_t));
	for (k = first; k < first + n; k++)
		if (!g->arcs[k].loop) {
			j->out_start[g->arcs[k].from + 1]++;
			j->in_start[g->arcs[k].to + 1]++;
		}
	for (v = 0; v < g->nnodes; v++) {
		j->out_start[v + 1] += j->out_start[v];
		j->in_start[v + 1] += j->in_start[v];
	}
	for (k = first; k < first + n; k++)
		if (!g->arcs[k].loop) {
			v = g->arcs[k].from;
			j->out[j->out_start[v] + fo[v]++] = g->arcs[k].to;
			v = g->arcs[k].to;
			j->in[j->in_start[v] + fi[v]++] = g->arcs[k].from;
		}
	free(fo);
	free(fi);
}

/* Releases 'j'. */
static void plain_adj_clear(plain_adj *j)
{
	free(j->out_start);
	free(j->in_start);
	free(j->out);
	free(j->in);
}

/* Marks in 'seen' the nodes reached from 'start' along the arcs of 'j'
 * (backward when 'back'). */
static void reach_plain(const plain_adj *j, size_t start, int back,
	unsigned char *seen, size_t *queue)
{
	const size_t *first = back ? j->in_start : j->out_start;
	const size_t *list = back ? j->in : j->out;
	size_t head = 0, tail = 0, k;

	seen[start] = 1;
	queue[tail++] = start;
	while (head < tail) {
		size_t v = queue[head++];

		for (k = first[v]; k < first[v + 1]; k++)
			if (!seen[list[k]]) {
				seen[list[k]] = 1;
				queue[tail++] = list[k];
			}
	}
}

/* Marks in 'in' the region of back arc 'k' of 'g' (its target reaches
 * the node, the node reaches its source); returns its size. */
static size_t loop_region(const segc_lgraph *g, const plain_adj *j,
	size_t k, unsigned char *in, unsigned char *tmp, size_t *queue)
{
	size_t v, size = 0;

	memset(in, 0, g->nnodes);
	memset(tmp, 0, g->nnodes);
	reach_plain(j, g->arcs[k].to, 0, in, queue);
	reach_plain(j, g->arcs[k].from, 1, tmp, queue);
	for (v = 0; v < g->nnodes; v++) {
		in[v] = in[v] && tmp[v];
		size += in[v];
	}
	return size;
}

/* Reports forward edge 'f' of 'g', which no loop region holds. */
static void orphan_forward(lowerer *L, const segc_lgraph *g,
	const segc_gfwd *f)
{
	segc_error(L->ctx, SEGC_ERR_INPUT, f->loc->file, f->loc->line,
		f->loc->col, "<arc> from '%s' to '%s': a forward edge must lie "
		"inside the region of a loop arc (from the loop arc's target "
		"to its source)", g->nodes[f->from].id, g->nodes[f->to].id);
}

/* Sets the owner of forward edges fwd[from..] of 'g' among the back arcs
 * arcs[first..first+n): the smallest region holding both ends; an error
 * at each forward edge that no region holds.  The regions cost the size
 * of the graph each: past FORWARD_WORK in all, a limit error. */
static int assign_owners(lowerer *L, segc_lgraph *g, size_t from,
	size_t first, size_t n)
{
	unsigned char *in = segc_xcalloc(g->nnodes + 1, 1);
	unsigned char *tmp = segc_xcalloc(g->nnodes + 1, 1);
	size_t *queue = segc_xmalloc((g->nnodes + 1) * sizeof(*queue));
	size_t *best = segc_xcalloc(g->nfwd + 1, sizeof(*best));
	size_t k, i, work = 0;
	plain_adj j;
	int rc = 0;

	plain_adj_init(&j, g, first, n);
	for (k = first; k < first + n && !rc; k++) {
		size_t size;

		if (!g->arcs[k].loop)
			continue;
		work += g->nnodes + n + g->nfwd - from;
		if (work > FORWARD_WORK) {
			segc_error(L->ctx, SEGC_ERR_LIMIT, g->fwd[from].loc->file,
				g->fwd[from].loc->line, g->fwd[from].loc->col,
				"too many loop arcs around forward edges: "
				"finding their regions would take more than "
				"%lu steps", (unsigned long)FORWARD_WORK);
			rc = -1;
			break;
		}
		size = loop_region(g, &j, k, in, tmp, queue);
		for (i = from; i < g->nfwd; i++)
			if (in[g->fwd[i].from] && in[g->fwd[i].to] &&
			    (g->fwd[i].owner == SEGC_NIL || size < best[i])) {
				g->fwd[i].owner = (segc_gix)k;
				best[i] = size;
			}
	}
	for (i = from; i < g->nfwd && !rc; i++)
		if (g->fwd[i].owner == SEGC_NIL) {
			orphan_forward(L, g, &g->fwd[i]);
			rc = -1;
		}
	plain_adj_clear(&j);
	free(in);
	free(tmp);
	free(queue);
	free(best);
	return rc;
}

/* Copies arc-form graph 'src' into graph 'g'; sets the return ends. */
static int copy_arc_graph(lowerer *L, size_t g, const segc_graph *src)
{
	size_t base = L->lw->graphs[g].nnodes, i;
	size_t nfwd_before = L->lw->graphs[g].nfwd;
	segc_lgraph tmp;

	if (segc_graph_has_families(src)) {
		segc_expr *e = segc_indexed_formula(L->ctx, src);
		size_t v;

		if (!e)
			return -1;
		v = new_node(L, g, e, SEGC_CLASS_COMP, &src->loc);
		if (v == SEGC_NONE)
			return -1;
		L->lw->graphs[g].nodes[v].id = src->name;
		L->ret_entry = L->ret_exit = v;
		return 0;
	}

	for (i = 0; i < src->nnodes; i++) {
		const segc_node *n = &src->nodes[i];
		size_t v = new_node(L, g, n->cost ? segc_expr_copy(n->cost)
			: NULL, n->cls, &n->loc);
		segc_gnode *gn;

		if (v == SEGC_NONE)
			return -1;
		gn = &L->lw->graphs[g].nodes[v];
		gn->split_and = n->split_and;
		gn->join_and = n->join_and;
		gn->id = n->id;
	}
	memset(&tmp, 0, sizeof(tmp));
	tmp.nnodes = src->nnodes;
	tmp.nodes = L->lw->graphs[g].nodes + base;
	for (i = 0; i < src->narcs; i++) {
		const segc_arc *a = &src->arcs[i];
		size_t k;

		if (a->forward) {
			if (add_forward(L, g, base, a))
				return -1;
			continue;
		}
		k = segc_lgraph_add_arc(&L->lw->graphs[g],
			base + a->from_index, base + a->to_index,
			a->prob ? segc_expr_copy(a->prob) : NULL,
			a->cost ? segc_expr_copy(a->cost) : NULL, a->cls,
			a->loop ? segc_expr_copy(a->loop) : NULL);
		if (k == SEGC_NONE)
			return too_big(L, &a->loc);
		L->lw->graphs[g].arcs[k].loc = &a->loc;
		L->lw->graphs[g].arcs[k].overlap = a->loop && a->overlap;
		L->lw->graphs[g].arcs[k].var = a->loop ? a->var : NULL;
		tmp.narcs++;
	}
	tmp.arcs = tmp.narcs ? L->lw->graphs[g].arcs +
		L->lw->graphs[g].narcs - tmp.narcs : NULL;
	if (nfwd_before < L->lw->graphs[g].nfwd && assign_owners(L,
			&L->lw->graphs[g], nfwd_before,
			L->lw->graphs[g].narcs - tmp.narcs, tmp.narcs))
		return -1;
	for (i = 0; i < tmp.narcs; i++) {
		tmp.arcs[i].from -= base;
		tmp.arcs[i].to -= base;
	}
	segc_lgraph_fill_probs(&tmp);
	if (segc_lgraph_find_ends(&tmp)) {
		for (i = 0; i < tmp.narcs; i++) {
			tmp.arcs[i].from += base;
			tmp.arcs[i].to += base;
		}
		segc_error(L->ctx, SEGC_ERR_INPUT, src->loc.file, src->loc.line,
			src->loc.col, "<graph name=\"%s\"> must have exactly one "
			"entry and one exit", src->name);
		return -1;
	}
	for (i = 0; i < tmp.narcs; i++) {
		tmp.arcs[i].from += base;
		tmp.arcs[i].to += base;
	}
	L->ret_entry = base + tmp.entry;
	L->ret_exit = base + tmp.exit;
	return 0;
}

/* Joins the finished child (L->ret_*) into the sequence of frame 'f'. */
static int seq_append(lowerer *L, frame *f)
{
	if (f->entry == SEGC_NONE) {
		f->entry = L->ret_entry;
	} else if (new_arc(L, f->g, f->exit, L->ret_entry, NULL, &f->b->loc))
		return -1;
	f->exit = L->ret_exit;
	return 0;
}

/* Finishes a sequence-like frame: an empty one becomes one empty node. */
static int seq_finish(lowerer *L, frame *f)
{
	if (f->entry == SEGC_NONE) {
		f->entry = f->exit = new_node(L, f->g, NULL, SEGC_CLASS_COMP,
			&f->b->loc);
		if (f->entry == SEGC_NONE)
			return -1;
	}
	if (f->b->kind == SEGC_BLOCK_LOOP && f->b->count) {
		size_t a = segc_lgraph_add_arc(&L->lw->graphs[f->g], f->exit,
			f->entry, segc_expr_int(1), NULL, SEGC_CLASS_COMP,
			segc_expr_copy(f->b->count));

		if (a == SEGC_NONE)
			return too_big(L, &f->b->loc);
		L->lw->graphs[f->g].arcs[a].loc = &f->b->loc;
	}
	L->ret_entry = f->entry;
	L->ret_exit = f->exit;
	return 0;
}

/* Starts a frame (first visit): creates split/join nodes or sub-graphs. */
static int frame_start(lowerer *L, frame *f)
{
	const segc_block *b = f->b;

	if (b->kind == SEGC_BLOCK_BRANCH || b->kind == SEGC_BLOCK_PAR) {
		f->split = new_node(L, f->g, NULL, SEGC_CLASS_COMP, &b->loc);
		f->join = new_node(L, f->g, NULL, SEGC_CLASS_COMP, &b->loc);
		if (f->split == SEGC_NONE || f->join == SEGC_NONE)
			return -1;
		if (b->kind == SEGC_BLOCK_PAR) {
			L->lw->graphs[f->g].nodes[f->split].split_and = 1;
			L->lw->graphs[f->g].nodes[f->join].join_and = 1;
		}
	} else if (b->kind == SEGC_BLOCK_LOOP && b->var) {
		size_t parent = f->g, sub;
		segc_gnode *n;

		f->sumnode = new_node(L, parent, NULL, SEGC_CLASS_COMP, &b->loc);
		if (f->sumnode == SEGC_NONE)
			return -1;
		sub = segc_lowered_add_graph(L->lw, parent, b->var);
		L->lw->graphs[sub].loc = &b->loc;
		L->lw->graphs[sub].name = L->lw->graphs[parent].name;
		L->lw->graphs[sub].from = segc_expr_copy(b->from);
		L->lw->graphs[sub].to = segc_expr_copy(b->to);
		n = &L->lw->graphs[parent].nodes[f->sumnode];
		n->sub = (segc_gix)sub;
		f->parent_g = parent;
		f->g = sub;
	}
	return 0;
}

/* The probability of case 'k' of a branch: explicit, or the remainder. */
static segc_expr *case_prob(const segc_block *br, size_t k)
{
	segc_expr *rest;
	size_t j;

	if (br->children[k]->prob)
		return segc_expr_copy(br->children[k]->prob);
	if (br->nchildren == 1)
		return segc_expr_int(1);
	rest = segc_expr_int(1);
	for (j = 0; j < br->nchildren; j++)
		if (j != k && br->children[j]->prob)
			rest = segc_expr_sub2(rest,
				segc_expr_copy(br->children[j]->prob));
	return rest;
}

/* Takes the finished child number f->i (its ends in L->ret_*) into
 * frame 'f'. */
static int frame_child_done(lowerer *L, frame *f)
{
	const segc_block *b = f->b;
	size_t k = f->i;

	switch (b->kind) {
	case SEGC_BLOCK_BRANCH:
		if (new_arc(L, f->g, f->split, L->ret_entry, case_prob(b, k),
				&b->children[k]->loc))
			return -1;
		return new_arc(L, f->g, L->ret_exit, f->join, NULL, &b->loc);
	case SEGC_BLOCK_PAR:
		if (new_arc(L, f->g, f->split, L->ret_entry, NULL, &b->loc))
			return -1;
		return new_arc(L, f->g, L->ret_exit, f->join, NULL, &b->loc);
	default:
		return seq_append(L, f);
	}
}

/* Finishes frame 'f': sets L->ret_* to the ends of its block. */
static int frame_finish(lowerer *L, frame *f)
{
	const segc_block *b = f->b;

	if (b->kind == SEGC_BLOCK_BRANCH || b->kind == SEGC_BLOCK_PAR) {
		if (b->nchildren == 0 && new_arc(L, f->g, f->split, f->join,
				NULL, &b->loc))
			return -1;
		L->ret_entry = f->split;
		L->ret_exit = f->join;
		return 0;
	}
	if (seq_finish(L, f))
		return -1;
	if (f->sumnode != SEGC_NONE) {
		segc_lgraph *sub = &L->lw->graphs[f->g];

		sub->entry = L->ret_entry;
		sub->exit = L->ret_exit;
		L->ret_entry = L->ret_exit = f->sumnode;
	}
	return 0;
}

/* Lowers a leaf block (a step, or a call of an arc-form graph) or pushes
 * the called block-form graph; returns 1 when a frame was pushed. */
static int lower_leaf(lowerer *L, const segc_block *b, size_t g)
{
	if (b->kind == SEGC_BLOCK_STEP) {
		size_t v = new_node(L, g, step_cost(b), b->cls, &b->loc);

		if (v == SEGC_NONE)
			return -1;
		L->lw->graphs[g].nodes[v].id = b->name;
		L->ret_entry = L->ret_exit = v;
		return 0;
	}
	{
		const segc_graph *callee = segc_model_graph(L->m, b->graph);

		if (!callee) {
			segc_error(L->ctx, SEGC_ERR_INPUT, b->loc.file,
				b->loc.line, b->loc.col, "<call graph=\"%s\">: "
				"no graph of that name", b->graph ? b->graph : "");
			return -1;
		}
		if (callee->arc_form)
			return copy_arc_graph(L, g, callee);
		return push(L, callee->body, g) ? -1 : 1;
	}
}

/* Pops the finished top frame and hands its ends to its parent. */
static int pop_frame(lowerer *L)
{
	frame *f;

	if (frame_finish(L, &L->st[L->n - 1]))
		return -1;
	L->n--;
	if (L->n == 0)
		return 0;
	f = &L->st[L->n - 1];
	if (frame_child_done(L, f))
		return -1;
	f->i++;
	return 0;
}

/* Visits the next child of the top frame, or finishes it. */
static int step_walk(lowerer *L)
{
	frame *f = &L->st[L->n - 1];
	const segc_block *c;
	int rc;

	if (f->i == f->b->nchildren)
		return pop_frame(L);
	c = f->b->children[f->i];
	if (c->kind == SEGC_BLOCK_STEP || c->kind == SEGC_BLOCK_CALL) {
		rc = lower_leaf(L, c, f->g);
		if (rc < 0)
			return -1;
		if (rc == 0) {
			if (frame_child_done(L, f))
				return -1;
			f->i++;
		}
		return 0;
	}
	if (push(L, c, f->g))
		return -1;
	return frame_start(L, &L->st[L->n - 1]);
}

/* Lowers a block-form body 'body' into graph 'g'. */
static int lower_blocks(lowerer *L, const segc_block *body, size_t g)
{
	if (push(L, body, g) || frame_start(L, &L->st[L->n - 1]))
		return -1;
	while (L->n > 0)
		if (step_walk(L) || segc_ctx_full(L->ctx))
			return -1;
	return 0;
}

/* Lowers graph 'g' of model 'm'. */
segc_lowered *segc_lower(segc_ctx *ctx, const segc_model *m,
	const segc_graph *g)
{
	lowerer L;
	size_t top;
	int rc;

	memset(&L, 0, sizeof(L));
	L.ctx = ctx;
	L.m = m;
	L.max_nodes = segc_ctx_limits(ctx)->max_nodes;
	segc_ctx_note_lowering(ctx);
	L.lw = segc_lowered_new();
	L.one = segc_expr_int(1);
	top = segc_lowered_add_graph(L.lw, SEGC_NONE, NULL);
	L.lw->graphs[top].name = g->name;
	L.lw->graphs[top].loc = &g->loc;
	if (g->arc_form)
		rc = copy_arc_graph(&L, top, g);
	else
		rc = lower_blocks(&L, g->body, top);
	free(L.st);
	segc_expr_free(L.one);
	if (rc) {
		segc_lowered_free(L.lw);
		return NULL;
	}
	L.lw->graphs[top].entry = L.ret_entry;
	L.lw->graphs[top].exit = L.ret_exit;
	return L.lw;
}
