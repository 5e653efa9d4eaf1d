/* markov.c - expected time of an or-graph with probabilistic cycles, from
 * the visit counts of its absorbing Markov chain.
 *
 * The nodes are the transient states (the exit one with no way out, so it is
 * visited exactly once).  The expected visits x solve (I - Q^T) x = e_entry,
 * where Q holds the arc probabilities; the expected time is
 *   sum over nodes v of x_v * cost(v) + sum over arcs u->w of
 *   x_u * p(u->w) * cost(u->w).
 * The system is solved exactly by sparse Gaussian elimination over rational
 * functions: every entry is an expression brought to canonical form after
 * each operation, so a zero is recognised as zero.  The pivot of a column
 * is a nonzero constant where one exists, else the diagonal entry, else any
 * nonzero entry (canonical and not 0: nonzero as a rational function).
 * A chain whose probabilities are all numbers is solved in exact
 * rationals instead (markov_q.c). */
#include <stdlib.h>
#include <string.h>

#include "graph/rgraph.h"
#include "base/util.h"

/* One nonzero entry of a sparse row. */
typedef struct entry {
	size_t col;
	segc_expr *v;
} entry;

typedef struct row {
	size_t n, cap;
	entry *e;        /* sorted by column */
	segc_expr *rhs;  /* right-hand side; NULL for 0 */
	int used;        /* already a pivot row */
} row;

typedef struct solver {
	segc_ctx *ctx;
	const segc_domains *dom;
	size_t n;
	row *rows;
	size_t **colrows;   /* rows that may hold column c (may repeat) */
	size_t *ncol, *capcol;
	int failed;
} solver;

/* The canonical form of 'e' (taken); records failure. */
static segc_expr *canon(solver *S, segc_expr *e)
{
	if (!e || S->failed) {
		segc_expr_free(e);
		S->failed = 1;
		return NULL;
	}
	e = segc_canonical(S->ctx, S->dom, e);
	if (!e)
		S->failed = 1;
	return e;
}

/* The position of column 'c' in row 'r', or where it would go. */
static size_t find_col(const row *r, size_t c, int *found)
{
	size_t lo = 0, hi = r->n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (r->e[mid].col < c)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = lo < r->n && r->e[lo].col == c;
	return lo;
}

/* Notes that row 'i' may hold column 'c'. */
static void note_col(solver *S, size_t c, size_t i)
{
	if (S->ncol[c] == S->capcol[c]) {
		size_t cap = S->capcol[c] ? 2 * S->capcol[c] : 4;
		S->colrows[c] = segc_xrealloc(S->colrows[c],
			segc_xmul_size(cap, sizeof(*S->colrows[c])));
		S->capcol[c] = cap;
	}
	S->colrows[c][S->ncol[c]++] = i;
}

/* Adds 'v' (taken) to entry (i, c). */
static void add_entry(solver *S, size_t i, size_t c, segc_expr *v)
{
	row *r = &S->rows[i];
	int found;
	size_t at = find_col(r, c, &found);

	if (found) {
		r->e[at].v = canon(S, segc_expr_add2(r->e[at].v, v));
		if (!r->e[at].v)
			r->e[at].v = segc_expr_int(0);
		return;
	}
	if (r->n == r->cap) {
		size_t cap = r->cap ? 2 * r->cap : 4;
		r->e = segc_xrealloc(r->e, segc_xmul_size(cap, sizeof(*r->e)));
		r->cap = cap;
	}
	memmove(r->e + at + 1, r->e + at, (r->n - at) * sizeof(*r->e));
	r->e[at].col = c;
	r->e[at].v = canon(S, v);
	if (!r->e[at].v)
		r->e[at].v = segc_expr_int(0);
	r->n++;
	note_col(S, c, i);
}

/* The entry (i, c), borrowed; NULL when zero. */
static segc_expr *get_entry(const solver *S, size_t i, size_t c)
{
	const row *r = &S->rows[i];
	int found;
	size_t at = find_col(r, c, &found);

	if (!found || segc_expr_is_zero(r->e[at].v))
		return NULL;
	return r->e[at].v;
}

/* Chooses the pivot row of column 'k' among the rows not used yet. */
static size_t choose_pivot(const solver *S, size_t k)
{
	size_t j, best = SEGC_NONE;
	int best_rank = 0;

	for (j = 0; j < S->ncol[k]; j++) {
		size_t i = S->colrows[k][j];
		segc_expr *v;
		int rank;

		if (S->rows[i].used || !(v = get_entry(S, i, k)))
			continue;
		rank = segc_expr_is_num(v) ? 3 : (i == k ? 2 : 1);
		if (rank > best_rank || (rank == best_rank && i < best)) {
			best = i;
			best_rank = rank;
		}
	}
	return best;
}

/* Row 'i' -= 'f' * row 'p' (from column 'k' on); 'f' borrowed. */
static void eliminate_row(solver *S, size_t i, size_t p, segc_expr *f)
{
	row *rp = &S->rows[p];
	size_t j;

	for (j = 0; j < rp->n && !S->failed; j++) {
		segc_expr *prod;

		if (segc_expr_is_zero(rp->e[j].v))
			continue;
		prod = segc_expr_mul2(segc_expr_copy(f),
			segc_expr_copy(rp->e[j].v));
		add_entry(S, i, rp->e[j].col, segc_expr_neg(prod));
		rp = &S->rows[p];
	}
	if (rp->rhs) {
		segc_expr *d = segc_expr_neg(segc_expr_mul2(segc_expr_copy(f),
			segc_expr_copy(rp->rhs)));

		S->rows[i].rhs = canon(S, S->rows[i].rhs
			? segc_expr_add2(S->rows[i].rhs, d) : d);
	}
}

/* Forward elimination; the pivot row of each column in 'piv'. */
static void forward(solver *S, size_t *piv)
{
	size_t k, j;

	for (k = 0; k < S->n && !S->failed; k++) {
		size_t p = choose_pivot(S, k);
		segc_expr *pv;

		if (p == SEGC_NONE) {
			S->failed = 2;
			return;
		}
		piv[k] = p;
		S->rows[p].used = 1;
		pv = get_entry(S, p, k);
		for (j = 0; j < S->ncol[k] && !S->failed; j++) {
			size_t i = S->colrows[k][j];
			segc_expr *a, *f;

			if (S->rows[i].used || !(a = get_entry(S, i, k)))
				continue;
			f = canon(S, segc_expr_div2(segc_expr_copy(a),
				segc_expr_copy(pv)));
			if (f) {
				eliminate_row(S, i, p, f);
				segc_expr_free(f);
			}
		}
	}
}

/* Back substitution: the visit counts into 'x'. */
static void backward(solver *S, const size_t *piv, segc_expr **x)
{
	size_t k = S->n;

	while (k-- > 0 && !S->failed) {
		const row *r = &S->rows[piv[k]];
		segc_expr *s = r->rhs ? segc_expr_copy(r->rhs) : segc_expr_int(0);
		size_t j;

		for (j = 0; j < r->n; j++)
			if (r->e[j].col > k && x[r->e[j].col])
				s = segc_expr_sub2(s, segc_expr_mul2(
					segc_expr_copy(r->e[j].v),
					segc_expr_copy(x[r->e[j].col])));
		x[k] = canon(S, segc_expr_div2(s,
			segc_expr_copy(get_entry(S, piv[k], k))));
	}
}

/* Releases the solver's storage. */
static void solver_clear(solver *S)
{
	size_t i, j;

	for (i = 0; i < S->n; i++) {
		for (j = 0; j < S->rows[i].n; j++)
			segc_expr_free(S->rows[i].e[j].v);
		free(S->rows[i].e);
		segc_expr_free(S->rows[i].rhs);
		free(S->colrows[i]);
	}
	free(S->rows);
	free(S->colrows);
	free(S->ncol);
	free(S->capcol);
}

/* Sets up (I - Q^T) x = e_entry over the live nodes (numbered by 'idx'). */
static void build_system(solver *S, segc_rgraph *r, const size_t *idx)
{
	size_t v, k;

	for (v = 0; v < r->nnodes && !S->failed; v++)
		if (segc_rgraph_has_node(r, v))
			add_entry(S, idx[v], idx[v], segc_expr_int(1));
	for (k = 0; k < r->narcs && !S->failed; k++) {
		const segc_rarc *a = &r->arcs[k];

		if (!segc_rgraph_has_arc(r, k))
			continue;
		add_entry(S, idx[a->to], idx[a->from],
			segc_expr_neg(segc_expr_copy(segc_rarc_prob(r, k))));
	}
	S->rows[idx[r->entry]].rhs = segc_expr_int(1);
}

/* The expected time from visit counts 'x' (by live index 'idx'). */
static segc_expr *expected_time(segc_rgraph *r, const size_t *idx,
	segc_expr **x)
{
	segc_expr *t = segc_expr_int(0);
	size_t v, k;

	for (v = 0; v < r->nnodes; v++)
		if (segc_rgraph_has_node(r, v)
				&& !segc_terms_empty(&r->nodes[v].cost))
			t = segc_expr_add2(t, segc_expr_mul2(
				segc_expr_copy(x[idx[v]]),
				segc_terms_sum(r, &r->nodes[v].cost)));
	for (k = 0; k < r->narcs; k++) {
		const segc_rarc *a = &r->arcs[k];

		if (!segc_rgraph_has_arc(r, k) || segc_terms_empty(&a->cost))
			continue;
		t = segc_expr_add2(t, segc_expr_mul2(segc_expr_mul2(
			segc_expr_copy(x[idx[a->from]]),
			segc_expr_copy(segc_rarc_prob(r, k))),
			segc_terms_sum(r, &a->cost)));
	}
	return t;
}

/* The expected time of or-graph 'r' (see graph.h). */
segc_expr *segc_markov_reduce(segc_ctx *ctx, segc_rgraph *r,
	const segc_domains *dom)
{
	solver S;
	size_t *idx = segc_xmalloc(segc_xmul_size(r->nnodes + 1, sizeof(size_t)));
	size_t *piv, v, n = 0, from = segc_ctx_n_diags(ctx);
	segc_expr **x, *t = NULL;
	int rc;

	memset(&S, 0, sizeof(S));
	for (v = 0; v < r->nnodes; v++)
		idx[v] = segc_rgraph_has_node(r, v) ? n++ : SEGC_NONE;
	if (n > segc_ctx_limits(ctx)->max_markov_states) {
		segc_rgraph_error(r, r->entry, SEGC_ERR_LIMIT, "the Markov "
			"chain of this graph has %lu states, more than "
			"max_markov_states (%lu)", (unsigned long)n,
			segc_ctx_limits(ctx)->max_markov_states);
		free(idx);
		return NULL;
	}
	x = segc_xcalloc(n + 1, sizeof(*x));
	rc = segc_markov_visits_q(ctx, r, idx, n, x, &t);
	if (rc <= 0) {
		if (!rc && !t)
			t = expected_time(r, idx, x);
		for (v = 0; v < n; v++)
			segc_expr_free(x[v]);
		free(x);
		free(idx);
		return t;
	}
	S.ctx = ctx;
	S.dom = dom;
	S.n = n;
	S.rows = segc_xcalloc(n + 1, sizeof(*S.rows));
	S.colrows = segc_xcalloc(n + 1, sizeof(*S.colrows));
	S.ncol = segc_xcalloc(n + 1, sizeof(size_t));
	S.capcol = segc_xcalloc(n + 1, sizeof(size_t));
	piv = segc_xcalloc(n + 1, sizeof(size_t));
	build_system(&S, r, idx);
	if (!S.failed)
		forward(&S, piv);
	if (!S.failed)
		backward(&S, piv, x);
	if (S.failed == 2)
		segc_rgraph_error(r, r->entry, SEGC_ERR_INPUT, "the Markov "
			"chain of this graph has no finite expected time "
			"(a cycle that is left with probability 0)");
	else if (!S.failed)
		t = expected_time(r, idx, x);
	else if (segc_ctx_n_diags(ctx) == from)
		segc_rgraph_error(r, r->entry, SEGC_ERR_INTERNAL, "solving the "
			"Markov chain failed, yet the canonical form of its "
			"entries recorded no diagnostic");
	for (v = 0; v < n; v++)
		segc_expr_free(x[v]);
	solver_clear(&S);
	free(x);
	free(piv);
	free(idx);
	return t;
}
