/* taskpath.c - the atom taskpath(...) of a task graph with indexed nodes
 * (see taskpath.h): its exact value at a
 * point by unrolling every instance and taking the longest path in a
 * topological order (Kahn's algorithm, no recursion). */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph/taskpath.h"
#include "base/util.h"

/* The largest magnitude of an index value, and of an integer exponent. */
#define TP_MAX_INDEX (LONG_MAX / 4)
#define TP_MAX_EXPONENT 4096L
/* The most bits of a numerator or denominator that a power or product in
 * a program may make (the default of max_coeff_bits): GMP is never asked
 * for a number it cannot hold. */
#define TP_MAX_BITS 1000000UL

/* ---------------------------------------------------------- evaluation */

/* The state of one evaluation. */
typedef struct tp_eval {
	const segc_tp *t;
	const mpq_t *args;
	mpq_t *st;                /* the stack of a program */
	size_t cap;
	char *why;
	size_t *base, *count;     /* per node: first instance, instances */
	long **tup;               /* per node: count * d index values */
	size_t total;
	unsigned long max_work;
	int too_large;            /* a number past TP_MAX_BITS was refused */
	unsigned long work;       /* limbs made by powers and products / 4 */
	int over;                 /* the work passed max_work */
} tp_eval;

/* Records what went wrong; returns -1. */
static int fail(tp_eval *E, const char *fmt, ...)
{
	va_list ap;
	char buf[256];

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (!E->why)
		E->why = segc_xstrdup(buf);
	return -1;
}

/* Records that a number of a program would pass TP_MAX_BITS; -1. */
static int too_large(tp_eval *E)
{
	E->too_large = 1;
	return fail(E, "a cost of indexed nodes would make a number of more "
		"than %lu bits (max_coeff_bits)", TP_MAX_BITS);
}

/* Counts the limbs of 'r', just made by a power or product, against
 * max_work (4 limbs a unit, with the instances and arcs): -1 past it. */
static int charge(tp_eval *E, mpq_srcptr r)
{
	E->work += (mpz_size(mpq_numref(r)) + mpz_size(mpq_denref(r))) / 4;
	if (E->work > E->max_work || E->total > E->max_work - E->work) {
		E->over = 1;
		return -1;
	}
	return 0;
}

/* r = base ^ e, e an integer. */
static int power(tp_eval *E, mpq_t r, const mpq_t b, const mpq_t e)
{
	long n;

	if (mpz_cmp_ui(mpq_denref(e), 1) ||
	    !mpz_fits_slong_p(mpq_numref(e)) ||
	    labs(n = mpz_get_si(mpq_numref(e))) > TP_MAX_EXPONENT)
		return fail(E, "a power of the indices has an exponent that "
			"is not an integer of at most %ld", TP_MAX_EXPONENT);
	if (n < 0 && !mpq_sgn(b))
		return fail(E, "a power of the indices divides by zero");
	if (mpq_sgn(b) && labs(n) > 1 &&
	    (mpz_sizeinbase(mpq_numref(b), 2) > TP_MAX_BITS / (unsigned long)
	    labs(n) || mpz_sizeinbase(mpq_denref(b), 2) > TP_MAX_BITS /
	    (unsigned long)labs(n)))
		return too_large(E);
	mpz_pow_ui(mpq_numref(r), mpq_numref(b), (unsigned long)labs(n));
	mpz_pow_ui(mpq_denref(r), mpq_denref(b), (unsigned long)labs(n));
	if (n < 0)
		mpq_inv(r, r);
	return charge(E, r);
}

/* out = the value of program 'p' with the indices 'idx'. */
static int run(tp_eval *E, const segc_tp_prog *p, const long *idx,
	mpq_t out)
{
	size_t i = p->first, end = p->first + p->len, sp = 0, n, j;

	while (i < end) {
		long op = mpz_get_si(mpq_numref(E->args[i++]));

		switch (op) {
		case SEGC_TP_PUSH:
			mpq_set(E->st[sp++], E->args[i++]);
			break;
		case SEGC_TP_INDEX:
			mpq_set_si(E->st[sp++], idx[mpz_get_si(
				mpq_numref(E->args[i++])) - 1], 1);
			break;
		case SEGC_TP_ADD:
			sp--;
			mpq_add(E->st[sp - 1], E->st[sp - 1], E->st[sp]);
			break;
		case SEGC_TP_MUL:
			sp--;
			if (mpz_sizeinbase(mpq_numref(E->st[sp - 1]), 2) +
			    mpz_sizeinbase(mpq_numref(E->st[sp]), 2) >
			    TP_MAX_BITS || mpz_sizeinbase(mpq_denref(
			    E->st[sp - 1]), 2) + mpz_sizeinbase(mpq_denref(
			    E->st[sp]), 2) > TP_MAX_BITS)
				return too_large(E);
			mpq_mul(E->st[sp - 1], E->st[sp - 1], E->st[sp]);
			if (charge(E, E->st[sp - 1]))
				return -1;
			break;
		case SEGC_TP_POW:
			sp--;
			if (power(E, E->st[sp], E->st[sp - 1], E->st[sp]))
				return -1;
			mpq_swap(E->st[sp - 1], E->st[sp]);
			break;
		case SEGC_TP_FLOOR: case SEGC_TP_CEIL:
			if (op == SEGC_TP_FLOOR)
				mpz_fdiv_q(mpq_numref(E->st[sp - 1]),
					mpq_numref(E->st[sp - 1]),
					mpq_denref(E->st[sp - 1]));
			else
				mpz_cdiv_q(mpq_numref(E->st[sp - 1]),
					mpq_numref(E->st[sp - 1]),
					mpq_denref(E->st[sp - 1]));
			mpz_set_ui(mpq_denref(E->st[sp - 1]), 1);
			break;
		default:
			n = (size_t)mpz_get_si(mpq_numref(E->args[i++]));
			for (j = 1; j < n; j++) {
				int c = mpq_cmp(E->st[sp - n + j],
					E->st[sp - n]);

				if (op == SEGC_TP_MAX ? c > 0 : c < 0)
					mpq_set(E->st[sp - n],
						E->st[sp - n + j]);
			}
			sp -= n - 1;
			break;
		}
	}
	mpq_set(out, E->st[0]);
	return 0;
}

/* '*v' = the value of program 'p', which must be an integer of at most
 * TP_MAX_INDEX in magnitude ('what' says what it is). */
static int run_int(tp_eval *E, const segc_tp_prog *p, const long *idx,
	long *v, const char *what, size_t node)
{
	mpq_t q;
	int rc = 0;

	mpq_init(q);
	if (run(E, p, idx, q))
		rc = -1;
	else if (mpz_cmp_ui(mpq_denref(q), 1) ||
		 !mpz_fits_slong_p(mpq_numref(q)) ||
		 labs(*v = mpz_get_si(mpq_numref(q))) > TP_MAX_INDEX)
		rc = fail(E, "%s of indexed node %zu is not an integer of at "
			"most %ld in magnitude", what, node + 1, TP_MAX_INDEX);
	mpq_clear(q);
	return rc;
}

/* Lists the instances of node 'v' in lexicographic order: 0, -1, or 1
 * past the limit. */
static int enumerate(tp_eval *E, size_t v)
{
	const segc_tp_node *nd = &E->t->nodes[v];
	long idx[65], lo[65], hi[65];
	size_t level = 0, cap = 0;
	unsigned long steps = 0;

	E->base[v] = E->total;
	E->count[v] = 0;
	if (!nd->d) {
		E->count[v] = 1;
		return ++E->total > E->max_work;
	}
	if (run_int(E, &nd->lo[0], idx, &lo[0], "a bound", v) ||
	    run_int(E, &nd->hi[0], idx, &hi[0], "a bound", v))
		return -1;
	idx[0] = lo[0];
	for (;;) {
		/* every step counts, so that empty inner ranges under a
		 * long outer one end at the limit too */
		if (++steps > E->max_work)
			return 1;
		if (idx[level] > hi[level]) {
			if (level == 0)
				return 0;
			idx[--level]++;
			continue;
		}
		if (level + 1 < nd->d) {
			level++;
			if (run_int(E, &nd->lo[level], idx, &lo[level],
				    "a bound", v) || run_int(E, &nd->hi[level],
				    idx, &hi[level], "a bound", v))
				return -1;
			idx[level] = lo[level];
			continue;
		}
		if (++E->total > E->max_work)
			return 1;
		if (E->count[v] == cap) {
			cap = cap ? 2 * cap : 64;
			E->tup[v] = segc_xrealloc(E->tup[v], segc_xmul_size(
				cap, nd->d * sizeof(long)));
		}
		memcpy(E->tup[v] + E->count[v]++ * nd->d, idx,
			nd->d * sizeof(long));
		idx[level]++;
	}
}

/* The instance of node 'v' at 'idx', or (size_t)-1 when out of range. */
static size_t lookup(const tp_eval *E, size_t v, const long *idx)
{
	size_t d = E->t->nodes[v].d, lo = 0, hi = E->count[v];

	if (!d)
		return E->base[v];
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2, k;
		const long *x = E->tup[v] + mid * d;
		int c = 0;

		for (k = 0; k < d && !c; k++)
			c = x[k] < idx[k] ? -1 : x[k] > idx[k];
		if (!c)
			return E->base[v] + mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (size_t)-1;
}

/* The instance arcs: sources, targets, costs. */
typedef struct tp_edges {
	size_t n, cap;
	size_t *from, *to;
	mpq_t *cost;
} tp_edges;

/* Adds the arc u -> w of cost 'c': 0, or 1 past the limit. */
static int edge(tp_eval *E, tp_edges *g, size_t u, size_t w, const mpq_t c)
{
	if (E->total + g->n + 1 > E->max_work)
		return 1;
	if (g->n == g->cap) {
		g->cap = g->cap ? 2 * g->cap : 256;
		g->from = segc_xrealloc(g->from, segc_xmul_size(g->cap,
			sizeof(size_t)));
		g->to = segc_xrealloc(g->to, segc_xmul_size(g->cap,
			sizeof(size_t)));
		g->cost = segc_xrealloc(g->cost, segc_xmul_size(g->cap,
			sizeof(mpq_t)));
	}
	g->from[g->n] = u;
	g->to[g->n] = w;
	mpq_init(g->cost[g->n]);
	mpq_set(g->cost[g->n], c);
	g->n++;
	return 0;
}

/* Adds the instance arcs of arc 'a': 0, -1, or 1 past the limit. */
static int arc_edges(tp_eval *E, tp_edges *g, const segc_tp_arc *a)
{
	size_t df = E->t->nodes[a->from].d, i, k, w;
	long at[65];
	int rc = 0;
	mpq_t c;

	mpq_init(c);
	for (i = 0; i < E->count[a->from] && !rc; i++) {
		const long *idx = df ? E->tup[a->from] + i * df : at;
		size_t u = E->base[a->from] + i;

		if (run(E, &a->cost, idx, c)) {
			rc = -1;
			break;
		}
		if (!a->nat && E->t->nodes[a->to].d) {
			for (w = 0; w < E->count[a->to] && !rc; w++)
				rc = edge(E, g, u, E->base[a->to] + w, c);
			continue;
		}
		for (k = 0; k < a->nat && !rc; k++)
			rc = run_int(E, &a->at[k], idx, &at[k], "an at value",
				a->to);
		if (rc)
			break;
		w = a->nat ? lookup(E, a->to, at) : E->base[a->to];
		if (w != (size_t)-1)
			rc = edge(E, g, u, w, c);
	}
	mpq_clear(c);
	return rc;
}

/* The longest path over the instance arcs 'g': time of the exit in
 * 'out'; -1 on a cycle. */
static int longest(tp_eval *E, const tp_edges *g, mpq_t out)
{
	size_t N = E->total, i, head = 0, tail = 0, done = 0, v, k;
	size_t *start = segc_xcalloc(N + 2, sizeof(size_t));
	size_t *adj = segc_xmalloc(segc_xmul_size(g->n + 1, sizeof(size_t)));
	size_t *indeg = segc_xcalloc(N + 1, sizeof(size_t));
	size_t *queue = segc_xmalloc(segc_xmul_size(N + 1, sizeof(size_t)));
	unsigned char *has = segc_xcalloc(N + 1, 1);
	mpq_t *arr = segc_xmalloc(segc_xmul_size(N + 1, sizeof(mpq_t)));
	mpq_t c;
	int rc = 0;

	mpq_init(c);
	for (i = 0; i < N; i++)
		mpq_init(arr[i]);
	for (k = 0; k < g->n; k++) {
		start[g->from[k] + 2]++;
		indeg[g->to[k]]++;
	}
	for (i = 0; i < N; i++)
		start[i + 2] += start[i + 1];
	for (k = 0; k < g->n; k++)
		adj[start[g->from[k] + 1]++] = k;
	for (i = 0; i < N; i++)
		if (!indeg[i])
			queue[tail++] = i;
	while (head < tail) {
		i = queue[head++];
		for (v = 0; v < E->t->n && !(E->base[v] <= i &&
				i < E->base[v] + E->count[v]); v++)
			;
		if (run(E, &E->t->nodes[v].cost, E->t->nodes[v].d ?
			    E->tup[v] + (i - E->base[v]) * E->t->nodes[v].d :
			    NULL, c)) {
			rc = -1;
			break;
		}
		mpq_add(arr[i], arr[i], c);
		done++;
		for (k = start[i]; k < start[i + 1]; k++) {
			size_t e = adj[k], w = g->to[e];

			mpq_add(c, arr[i], g->cost[e]);
			if (!has[w] || mpq_cmp(c, arr[w]) > 0)
				mpq_set(arr[w], c);
			has[w] = 1;
			if (--indeg[w] == 0)
				queue[tail++] = w;
		}
	}
	if (!rc && done < N) {
		for (i = 0; i < N && !indeg[i]; i++)
			;
		for (v = 0; v < E->t->n && !(E->base[v] <= i &&
				i < E->base[v] + E->count[v]); v++)
			;
		rc = fail(E, "the at values make a cycle among the instances "
			"of indexed node %zu: its time is a longest path only "
			"if they are acyclic", v + 1);
	}
	if (!rc)
		mpq_set(out, arr[E->base[E->t->exit]]);
	for (i = 0; i < N; i++)
		mpq_clear(arr[i]);
	mpq_clear(c);
	free(arr);
	free(has);
	free(queue);
	free(indeg);
	free(adj);
	free(start);
	return rc;
}

/* The value of taskpath(args) (see taskpath.h). */
int segc_taskpath_eval(mpq_t out, size_t nargs, const mpq_t *args,
	unsigned long max_work, char **why)
{
	segc_tp t;
	tp_eval E;
	tp_edges g;
	const char *bad;
	size_t v, k;
	int rc = 0;

	*why = NULL;
	bad = segc_tp_decode(&t, nargs, segc_tp_int_q, args);
	if (bad) {
		segc_tp_clear(&t);
		*why = segc_xstrdup(bad);
		return -1;
	}
	memset(&E, 0, sizeof(E));
	memset(&g, 0, sizeof(g));
	E.t = &t;
	E.args = args;
	E.max_work = max_work;
	E.cap = nargs + 1;
	E.st = segc_xmalloc(segc_xmul_size(E.cap, sizeof(mpq_t)));
	for (k = 0; k < E.cap; k++)
		mpq_init(E.st[k]);
	E.base = segc_xcalloc(t.n + 1, sizeof(size_t));
	E.count = segc_xcalloc(t.n + 1, sizeof(size_t));
	E.tup = segc_xcalloc(t.n + 1, sizeof(long *));
	for (v = 0; v < t.n && !rc; v++)
		rc = enumerate(&E, v);
	for (k = 0; k < t.narcs && !rc; k++)
		rc = arc_edges(&E, &g, &t.arcs[k]);
	if (!rc)
		rc = longest(&E, &g, out);
	for (k = 0; k < g.n; k++)
		mpq_clear(g.cost[k]);
	free(g.from);
	free(g.to);
	free(g.cost);
	for (v = 0; v < t.n; v++)
		free(E.tup[v]);
	free(E.tup);
	free(E.base);
	free(E.count);
	for (k = 0; k < E.cap; k++)
		mpq_clear(E.st[k]);
	free(E.st);
	segc_tp_clear(&t);
	if (E.over) {
		free(E.why);
		E.why = segc_xstrdup("the costs of indexed nodes take more "
			"work than the limit allows (instances, arcs and the "
			"words of the numbers their powers and products make; "
			"max_eval_terms)");
	}
	*why = E.why;
	return E.too_large || E.over ? 1 : rc;
}
