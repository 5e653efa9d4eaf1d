/* markov_q.c - the visit counts of an absorbing Markov chain whose arc
 * probabilities are all numbers, in exact rationals.
 *
 * The system (I - Q^T) x = e_entry of markov.c is solved by sparse
 * Gaussian elimination on GMP rationals, without expressions, in a
 * minimum-degree order: the next node eliminated is the one of least
 * Markowitz cost (live entries of its row - 1) x (of its column - 1), the
 * least index among equals, so that fill and the growth of the
 * coefficients stay small.  I - Q^T of a chain whose nodes all reach the
 * exit is a nonsingular M-matrix: its diagonal pivots are nonzero in any
 * symmetric order.  A zero pivot (a cycle left with probability 0) hands
 * the chain back to the general solver, which reports it.  The visit
 * counts are unique, so the order changes nothing of the result.
 *
 * The numbers of a long chain have thousands of digits, and every sum of
 * two rationals reduces by a gcd of that size.  So the system is scaled
 * to integers (each row by the lcm L of the probabilities' denominators,
 * which changes no solution) and the back substitution finds the
 * integers X_v = x_v * det, det the product of the pivots: each of its
 * steps combines a large integer with the small rationals of the
 * eliminated rows.  A visit count is then X_v / det (one gcd); when every
 * cost is a number, the expected time sum X_v * c_v / det needs a single
 * one. */
#include <stdlib.h>
#include <string.h>

#include "graph/rgraph.h"
#include "base/util.h"

/* One entry of a sparse row. */
typedef struct qent {
	size_t col;
	mpq_t v;
} qent;

/* A row: entries sorted by column, the right-hand side, the entries in
 * columns not eliminated yet. */
typedef struct qrow {
	qent *e;
	size_t n, cap;
	mpq_t rhs;
	size_t live;
} qrow;

/* A min-heap entry: Markowitz cost, node. */
typedef struct qkey {
	unsigned long long cost;
	size_t v;
} qkey;

typedef struct qsys {
	segc_ctx *ctx;
	size_t n;
	qrow *rows;
	size_t **colrows, *ncol, *capcol; /* rows that hold column c */
	size_t *colive;                   /* live rows holding column c */
	unsigned char *gone;              /* eliminated */
	size_t *mark;                     /* stamp of the row visited last */
	qkey *heap;
	size_t nheap, capheap;
	mpq_t f, t;
	mpq_t det;                        /* product of the pivots so far */
	int failed;                       /* 1 limit, 2 zero pivot */
} qsys;

/* The position of column 'c' in row 'r', or where it would go. */
static size_t qfind(const qrow *r, size_t c, int *found)
{
	size_t lo = 0, hi = r->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (r->e[mid].col < c)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = lo < r->n && r->e[lo].col == c;
	return lo;
}

/* The entry of row 'i' in column 'c', created 0 when absent. */
static mpq_ptr qentry(qsys *S, size_t i, size_t c)
{
	qrow *r = &S->rows[i];
	int found;
	size_t at = qfind(r, c, &found);

	if (found)
		return r->e[at].v;
	if (r->n == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 4;
		r->e = segc_xrealloc(r->e, segc_xmul_size(r->cap,
			sizeof(*r->e)));
	}
	memmove(r->e + at + 1, r->e + at, (r->n - at) * sizeof(*r->e));
	r->e[at].col = c;
	mpq_init(r->e[at].v);
	r->n++;
	r->live++;
	if (S->ncol[c] == S->capcol[c]) {
		S->capcol[c] = S->capcol[c] ? 2 * S->capcol[c] : 4;
		S->colrows[c] = segc_xrealloc(S->colrows[c],
			segc_xmul_size(S->capcol[c], sizeof(size_t)));
	}
	S->colrows[c][S->ncol[c]++] = i;
	S->colive[c]++;
	return r->e[at].v;
}

/* Orders heap keys: cost, then node. */
static int qless(const qkey *a, const qkey *b)
{
	return a->cost < b->cost || (a->cost == b->cost && a->v < b->v);
}

/* The Markowitz cost of node 'v' now. */
static unsigned long long qcost(const qsys *S, size_t v)
{
	unsigned long long r = S->rows[v].live, c = S->colive[v];

	return (r ? r - 1 : 0) * (c ? c - 1 : 0);
}

/* Queues node 'v' at its cost now (older keys of it become stale). */
static void qpush(qsys *S, size_t v)
{
	size_t i;

	if (S->nheap == S->capheap) {
		S->capheap = S->capheap ? 2 * S->capheap : 64;
		S->heap = segc_xrealloc(S->heap, segc_xmul_size(S->capheap,
			sizeof(*S->heap)));
	}
	i = S->nheap++;
	S->heap[i].cost = qcost(S, v);
	S->heap[i].v = v;
	while (i > 0 && qless(&S->heap[i], &S->heap[(i - 1) / 2])) {
		qkey k = S->heap[i];

		S->heap[i] = S->heap[(i - 1) / 2];
		S->heap[(i - 1) / 2] = k;
		i = (i - 1) / 2;
	}
}

/* The node of least cost not eliminated; SEGC_NONE when none is left. */
static size_t qpop(qsys *S)
{
	while (S->nheap) {
		qkey top = S->heap[0];
		size_t i = 0;

		S->heap[0] = S->heap[--S->nheap];
		for (;;) {
			size_t l = 2 * i + 1, m = i;
			qkey k;

			if (l < S->nheap && qless(&S->heap[l], &S->heap[m]))
				m = l;
			if (l + 1 < S->nheap && qless(&S->heap[l + 1],
				    &S->heap[m]))
				m = l + 1;
			if (m == i)
				break;
			k = S->heap[i];
			S->heap[i] = S->heap[m];
			S->heap[m] = k;
			i = m;
		}
		if (!S->gone[top.v] && top.cost == qcost(S, top.v))
			return top.v;
	}
	return SEGC_NONE;
}

/* Charges the product of 'a' and 'b' to the work of the document and
 * checks the size of 'r' against max_coeff_bits; 0, or -1 with the limit
 * error recorded. */
static int qcharge(qsys *S, mpq_srcptr a, mpq_srcptr b, mpq_srcptr r)
{
	unsigned long bits = segc_ctx_limits(S->ctx)->max_coeff_bits;
	double limbs = (double)(mpz_size(mpq_numref(a)) +
		mpz_size(mpq_denref(a))) * (double)(mpz_size(mpq_numref(b)) +
		mpz_size(mpq_denref(b)));

	if (segc_ctx_charge(S->ctx, limbs)) {
		S->failed = 1;
		return -1;
	}
	if (bits && (mpz_sizeinbase(mpq_numref(r), 2) > bits ||
		     mpz_sizeinbase(mpq_denref(r), 2) > bits)) {
		segc_error(S->ctx, SEGC_ERR_LIMIT, NULL, 0, 0, "the size in "
			"bits of a coefficient exceeds the limit %lu", bits);
		S->failed = 1;
		return -1;
	}
	return 0;
}

/* Row 'i' -= (A[i][v] / A[v][v]) * row 'v', over the live columns. */
static void qeliminate_row(qsys *S, size_t i, size_t v, mpq_srcptr piv)
{
	qrow *rv = &S->rows[v];
	int found;
	size_t at = qfind(&S->rows[i], v, &found), k;

	if (!found)
		return;
	S->rows[i].live--;
	qpush(S, i);
	if (!mpq_sgn(S->rows[i].e[at].v))
		return;
	mpq_div(S->f, S->rows[i].e[at].v, piv);
	for (k = 0; k < rv->n && !S->failed; k++) {
		size_t j = rv->e[k].col;
		mpq_ptr a;

		if (j == v || S->gone[j] || !mpq_sgn(rv->e[k].v))
			continue;
		mpq_mul(S->t, S->f, rv->e[k].v);
		a = qentry(S, i, j);
		rv = &S->rows[v];
		mpq_sub(a, a, S->t);
		if (qcharge(S, S->f, rv->e[k].v, a))
			return;
		qpush(S, j);
	}
	if (mpq_sgn(rv->rhs)) {
		mpq_mul(S->t, S->f, rv->rhs);
		mpq_sub(S->rows[i].rhs, S->rows[i].rhs, S->t);
		qcharge(S, S->f, rv->rhs, S->rows[i].rhs);
	}
}

/* Eliminates node 'v' (the 'step'-th): from every live row that holds
 * its column. */
static void qeliminate(qsys *S, size_t v, size_t step)
{
	int found;
	size_t at = qfind(&S->rows[v], v, &found), k;
	mpq_t piv;

	if (!found || !mpq_sgn(S->rows[v].e[at].v)) {
		S->failed = 2;
		return;
	}
	mpq_init(piv);
	mpq_set(piv, S->rows[v].e[at].v);
	mpq_mul(S->det, S->det, piv);
	S->gone[v] = 1;
	for (k = 0; k < S->ncol[v] && !S->failed; k++) {
		size_t i = S->colrows[v][k];

		if (S->gone[i] || S->mark[i] == step + 1)
			continue;
		S->mark[i] = step + 1;
		qeliminate_row(S, i, v, piv);
	}
	for (k = 0; k < S->rows[v].n; k++) {
		size_t j = S->rows[v].e[k].col;

		if (!S->gone[j]) {
			S->colive[j]--;
			qpush(S, j);
		}
	}
	mpq_clear(piv);
}

/* Back substitution in the reverse of 'order' ('pos' its inverse): the
 * integers X_v = x_v * det into 'x'. */
static void qbackward(qsys *S, const size_t *order, const size_t *pos,
	mpq_t *x)
{
	size_t s = S->n, k;

	while (s-- > 0) {
		size_t v = order[s];
		const qrow *r = &S->rows[v];
		mpq_ptr d = NULL;

		mpq_mul(x[v], r->rhs, S->det);
		for (k = 0; k < r->n; k++) {
			size_t j = r->e[k].col;

			if (j == v)
				d = r->e[k].v;
			else if (pos[j] > s && mpq_sgn(r->e[k].v)) {
				mpq_mul(S->t, r->e[k].v, x[j]);
				mpq_sub(x[v], x[v], S->t);
			}
		}
		mpq_div(x[v], x[v], d);
	}
}

/* The number of term list 't' of 'r' into 'q' (0 when empty): 1, or 0
 * when its sum is no number. */
static int terms_number(const segc_rgraph *r, const segc_terms *t, mpq_t q)
{
	segc_expr *e;
	int yes;

	mpq_set_ui(q, 0, 1);
	if (segc_terms_empty(t))
		return 1;
	e = segc_terms_sum(r, t);
	yes = segc_expr_is_num(e);
	if (yes)
		mpq_set(q, segc_expr_value(e));
	segc_expr_free(e);
	return yes;
}

/* The expected time sum_v X_v c_v + sum_(u->w) X_u p c, over det, when
 * every cost of 'r' is a number ('*t' set, returns 1); else 0. */
static int numeric_time(qsys *S, segc_rgraph *r, const size_t *idx,
	mpq_t *X, segc_expr **t)
{
	mpq_t sum, c;
	size_t v, k;
	int ok = 1;

	mpq_inits(sum, c, NULL);
	for (v = 0; v < r->nnodes && ok; v++)
		if (segc_rgraph_has_node(r, v)) {
			ok = terms_number(r, &r->nodes[v].cost, c);
			mpq_mul(c, c, X[idx[v]]);
			mpq_add(sum, sum, c);
		}
	for (k = 0; k < r->narcs && ok; k++) {
		const segc_rarc *a = &r->arcs[k];

		if (!segc_rgraph_has_arc(r, k))
			continue;
		ok = terms_number(r, &a->cost, c);
		mpq_mul(c, c, segc_expr_value(segc_rarc_prob(r, k)));
		mpq_mul(c, c, X[idx[a->from]]);
		mpq_add(sum, sum, c);
	}
	if (ok) {
		mpq_div(sum, sum, S->det);
		*t = segc_expr_num(sum);
	}
	mpq_clears(sum, c, NULL);
	return ok;
}

/* Releases the storage of 'S'. */
static void qclear(qsys *S)
{
	size_t i, k;

	for (i = 0; i < S->n; i++) {
		for (k = 0; k < S->rows[i].n; k++)
			mpq_clear(S->rows[i].e[k].v);
		free(S->rows[i].e);
		mpq_clear(S->rows[i].rhs);
		free(S->colrows[i]);
	}
	free(S->rows);
	free(S->colrows);
	free(S->ncol);
	free(S->capcol);
	free(S->colive);
	free(S->gone);
	free(S->mark);
	free(S->heap);
	mpq_clear(S->f);
	mpq_clear(S->t);
	mpq_clear(S->det);
}

/* Non-zero when every arc of 'r' the general methods see has a number
 * for its probability. */
static int numeric(const segc_rgraph *r)
{
	size_t k;

	for (k = 0; k < r->narcs; k++)
		if (segc_rgraph_has_arc(r, k) &&
		    !segc_expr_is_num(segc_rarc_prob(r, k)))
			return 0;
	return 1;
}

/* Sets up L (I - Q^T) x = L e_entry over the live nodes (numbered by
 * 'idx'), L the lcm of the denominators of the probabilities: integers. */
static void qbuild(qsys *S, segc_rgraph *r, const size_t *idx)
{
	size_t v, k;
	mpz_t l;
	mpq_t p;

	mpz_init_set_ui(l, 1);
	mpq_init(p);
	for (k = 0; k < r->narcs; k++)
		if (segc_rgraph_has_arc(r, k))
			mpz_lcm(l, l, mpq_denref(segc_expr_value(
				segc_rarc_prob(r, k))));
	for (v = 0; v < r->nnodes; v++)
		if (segc_rgraph_has_node(r, v))
			mpq_set_z(qentry(S, idx[v], idx[v]), l);
	for (k = 0; k < r->narcs; k++) {
		const segc_rarc *a = &r->arcs[k];
		mpq_ptr e;

		if (!segc_rgraph_has_arc(r, k))
			continue;
		e = qentry(S, idx[a->to], idx[a->from]);
		mpq_set_z(p, l);
		mpq_mul(p, p, segc_expr_value(segc_rarc_prob(r, k)));
		mpq_sub(e, e, p);
	}
	mpq_set_z(S->rows[idx[r->entry]].rhs, l);
	mpq_clear(p);
	mpz_clear(l);
}

/* The visit counts of 'r' or its expected time (see rgraph.h). */
int segc_markov_visits_q(segc_ctx *ctx, segc_rgraph *r, const size_t *idx,
	size_t n, segc_expr **x, segc_expr **t)
{
	qsys S;
	size_t *order, *pos, v, step;
	mpq_t *q;
	int rc;

	if (!numeric(r))
		return 1;
	memset(&S, 0, sizeof(S));
	S.ctx = ctx;
	S.n = n;
	S.rows = segc_xcalloc(n + 1, sizeof(*S.rows));
	for (v = 0; v < n; v++)
		mpq_init(S.rows[v].rhs);
	S.colrows = segc_xcalloc(n + 1, sizeof(*S.colrows));
	S.ncol = segc_xcalloc(n + 1, sizeof(size_t));
	S.capcol = segc_xcalloc(n + 1, sizeof(size_t));
	S.colive = segc_xcalloc(n + 1, sizeof(size_t));
	S.gone = segc_xcalloc(n + 1, 1);
	S.mark = segc_xcalloc(n + 1, sizeof(size_t));
	mpq_init(S.f);
	mpq_init(S.t);
	mpq_init(S.det);
	mpq_set_ui(S.det, 1, 1);
	order = segc_xmalloc((n + 1) * sizeof(size_t));
	pos = segc_xmalloc((n + 1) * sizeof(size_t));
	qbuild(&S, r, idx);
	for (v = 0; v < n; v++)
		qpush(&S, v);
	for (step = 0; step < n && !S.failed; step++) {
		v = qpop(&S);
		if (v == SEGC_NONE) {
			S.failed = 2;
			break;
		}
		order[step] = v;
		pos[v] = step;
		qeliminate(&S, v, step);
	}
	rc = S.failed == 1 ? -1 : S.failed ? 1 : 0;
	if (!rc) {
		q = segc_xmalloc((n + 1) * sizeof(*q));
		for (v = 0; v < n; v++)
			mpq_init(q[v]);
		qbackward(&S, order, pos, q);
		*t = NULL;
		if (!numeric_time(&S, r, idx, q, t))
			for (v = 0; v < n; v++) {
				mpq_div(q[v], q[v], S.det);
				x[v] = segc_expr_num(q[v]);
			}
		for (v = 0; v < n; v++)
			mpq_clear(q[v]);
		free(q);
	}
	qclear(&S);
	free(order);
	free(pos);
	return rc;
}
