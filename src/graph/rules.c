/* rules.c - the local rules of structural reduction (see reduce.c for
 * the list): applied from a work list until none fits, and the collapse
 * of a region that another method reduced to one node. */
#include <stdlib.h>
#include <string.h>

#include "graph/rules.h"
#include "expr/builtin.h"
#include "base/util.h"

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

struct segc_rules {
	segc_rgraph *r;
	worklist wl;
	segc_gix *count;   /* scratch: arcs per target (all zero between uses) */
	segc_gix *buf;     /* scratch: arcs of one group */
	int full;          /* a term list could not grow: the arena is full */
};

typedef struct segc_rules reducer;

/* n*x as a term, from collapsed list 'x' (NULL: nothing). */
static segc_expr *times(segc_expr *n, segc_expr *x)
{
	if (!x)
		return NULL;
	return segc_expr_mul2(segc_expr_copy(n), x);
}

/* sum(var, 1, n, x) as a term, from collapsed list 'x' (NULL:
 * nothing): the iterations of a loop arc with a counter. */
static segc_expr *sum_over(const char *var, segc_expr *n, segc_expr *x)
{
	if (!x)
		return NULL;
	return segc_expr_sum(var, segc_expr_int(1), segc_expr_copy(n), x);
}

/* Rule "self loop" at back arc 'k' from a node to itself: n times the
 * node's cost, or its sum over the counter i = 1 .. n of a loop arc with
 * var="i". */
static int rule_self_loop(reducer *R, segc_gix k)
{
	segc_rgraph *r = R->r;
	segc_rarc *a = &r->arcs[k];
	segc_rnode *x = &r->nodes[a->from];
	segc_expr *body = segc_terms_collapse(r, &x->cost);
	segc_expr *ac = segc_terms_collapse(r, &a->cost);
	segc_expr *n = segc_rarc_loop(r, k);
	const char *var = r->src->arcs[k].var;

	segc_terms_clear(r, &x->cost);
	if (segc_terms_push(r, &x->cost, var ? sum_over(var, n, body) :
			times(n, body)))
		R->full = 1;
	if (ac && segc_terms_push(r, &x->cost, segc_expr_mul2(
			segc_expr_sub2(segc_expr_copy(n), segc_expr_int(1)), ac)))
		R->full = 1;
	segc_rarc_kill(r, k);
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


/* Rule "series": 'x' and the target 'y' of its only arc 'k' become one
 * node (costs of x, k and y in that order).  The one of them with fewer
 * arcs to move goes, so that a node that many back arcs leave (the end of
 * many nested loops) is not walked again at every step. */
static void rule_series(reducer *R, size_t xi, segc_gix k)
{
	segc_rgraph *r = R->r;
	size_t yi = r->arcs[k].to;
	segc_rnode *x = &r->nodes[xi], *y = &r->nodes[yi];

	segc_terms_join(r, &x->cost, &r->arcs[k].cost);
	segc_terms_join(r, &x->cost, &y->cost);
	segc_rarc_kill(r, k);
	if (x->nin + x->nloop_in < y->nout + y->nloop_out) {
		y->cost = x->cost;
		x->cost.head = x->cost.tail = SEGC_NIL;
		segc_rnode_move_in_arcs(r, yi, xi);
		y->join_and = x->join_and;
		x->alive = 0;
		if (r->entry == xi)
			r->entry = yi;
		wl_push(&R->wl, yi);
	} else {
		segc_rnode_move_out_arcs(r, xi, yi);
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

	segc_terms_join(r, &r->arcs[a].cost, &x->cost);
	segc_terms_join(r, &r->arcs[a].cost, &r->arcs[b].cost);
	segc_rarc_unlink_in(r, a);
	segc_rarc_unlink_out(r, b);
	segc_rarc_replace_in(r, a, b);
	r->arcs[b].alive = 0;
	x->alive = 0;
	r->alive--;
}

/* The maximum of the collapsed costs of arcs 'buf'[0..n): identical
 * arguments once, a lone argument itself, all empty: NULL. */
static segc_expr *max_of(reducer *R, const segc_gix *buf, size_t n)
{
	segc_rgraph *r = R->r;
	segc_expr **v = segc_xmalloc(segc_xmul_size(n, sizeof(*v)));
	size_t i, j, m = 0, nonzero = 0;
	segc_expr *e;

	for (i = 0; i < n; i++) {
		segc_expr *c = segc_terms_collapse(r, &r->arcs[buf[i]].cost);

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
		e = segc_expr_call_builtin(SEGC_BUILTIN_MAX, m, v);
	free(v);
	return e;
}

/* The expected cost sum p_k*c_k of or-arcs 'buf'[0..n). */
static segc_expr *choice_of(reducer *R, const segc_gix *buf, size_t n)
{
	segc_rgraph *r = R->r;
	segc_expr **v = segc_xmalloc(segc_xmul_size(n, sizeof(*v)));
	size_t i, m = 0;
	segc_expr *e;

	for (i = 0; i < n; i++) {
		segc_expr *c = segc_terms_collapse(r, &r->arcs[buf[i]].cost);

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
		segc_rarc_kill(r, buf[i]);
	segc_terms_clear(r, &first->cost);
	first->prob_one = 1;
	if (segc_terms_push(r, &first->cost, c))
		R->full = 1;
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
	segc_expr *c = segc_terms_collapse(r, &x->cost);
	segc_expr *ck = segc_terms_collapse(r, &r->arcs[k].cost);
	segc_expr *visits = segc_expr_div2(segc_expr_int(1),
		segc_expr_sub2(segc_expr_int(1), segc_expr_copy(q)));

	if (ck)
		ck = segc_expr_mul2(segc_expr_copy(q), ck);
	if (c && ck)
		c = segc_expr_add2(c, ck);
	else if (ck)
		c = ck;
	segc_terms_clear(r, &x->cost);
	if (c && segc_terms_push(r, &x->cost, segc_expr_mul2(visits, c)))
		R->full = 1;
	if (!c)
		segc_expr_free(visits);
	segc_rarc_kill(r, k);
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

/* Runs the rules from the queued nodes to a fixed point (see rules.h). */
int segc_rules_run(reducer *R, unsigned flags)
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
		if (rc < 0 || R->full)
			return -1;
		if (rc > 0)
			wl_push(&R->wl, x);
	}
	return 0;
}

/* Replaces region 'in' (entry 'a', exit 'b') by node 'a' of cost 'f'
 * (taken): the arcs inside go, the back arc from 'b' to 'a' becomes
 * a self loop, the arcs leaving 'b' leave 'a'. */
void segc_rules_collapse(reducer *R, const unsigned char *in, size_t a,
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
			segc_rarc_unlink_out(r, k);
			c->from = (segc_gix)a;
			segc_rarc_link_out(r, k);
		} else
			segc_rarc_kill(r, k);
	}
	segc_terms_clear(r, &r->nodes[a].cost);
	if (segc_terms_push(r, &r->nodes[a].cost, f))
		R->full = 1;
	for (k = r->nodes[b].out_head; back_inside && k != SEGC_NIL;
			k = r->arcs[k].next_out)
		r->arcs[k].prob_one = 1;
	if (a != b) {
		segc_rnode_move_out_arcs(r, a, b);
		r->nodes[a].split_and = r->nodes[b].split_and;
		if (r->exit == b)
			r->exit = a;
	}
	for (v = 0; v < r->nnodes; v++)
		if (in[v] && v != a && r->nodes[v].alive) {
			for (k = r->nodes[v].out_head; k != SEGC_NIL; k = next) {
				next = r->arcs[k].next_out;
				segc_rarc_kill(r, k);
			}
			segc_terms_clear(r, &r->nodes[v].cost);
			r->nodes[v].alive = 0;
			r->alive--;
		}
	wl_push(&R->wl, a);
	for (k = r->nodes[a].in_head; k != SEGC_NIL; k = r->arcs[k].next_in)
		wl_push(&R->wl, r->arcs[k].from);
	for (k = r->nodes[a].out_head; k != SEGC_NIL; k = r->arcs[k].next_out)
		wl_push(&R->wl, r->arcs[k].to);
}

/* Local rules on 'r' with every node queued (see rules.h). */
reducer *segc_rules_new(segc_rgraph *r)
{
	reducer *R = segc_xcalloc(1, sizeof(*R));
	size_t x;

	R->r = r;
	R->wl.queued = segc_xcalloc(r->nnodes + 1, 1);
	R->wl.v = segc_xmalloc(segc_xmul_size(r->nnodes + 1, sizeof(*R->wl.v)));
	R->wl.cap = r->nnodes + 1;
	R->count = segc_xcalloc(r->nnodes + 1, sizeof(*R->count));
	R->buf = segc_xmalloc(segc_xmul_size(r->narcs + 1, sizeof(*R->buf)));
	for (x = 0; x < r->nnodes; x++)
		wl_push(&R->wl, x);
	return R;
}

/* Frees 'R' (not its graph). */
void segc_rules_free(reducer *R)
{
	if (!R)
		return;
	free(R->wl.v);
	free(R->wl.queued);
	free(R->count);
	free(R->buf);
	free(R);
}
