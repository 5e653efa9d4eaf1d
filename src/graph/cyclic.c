/* cyclic.c - max-plus cyclic task graphs: the time of an overlapped loop
 * region with forward edges (FORMAT.md 3.2, Simon & Wierum 2.2, 2.5).
 *
 * The region is a task graph of m nodes, numbered in topological order of
 * its arcs inside one iteration (the last node is the region's exit), and
 * forward arcs that reach d >= 1 iterations ahead.  For iterations
 * i = 1 .. n, in order, every node finishes at
 *   fin(i, v) = cost(v) + max(0, fin(i, u) + c for arcs u -> v,
 *                fin(i - d, u) + c for forward arcs u -> v with i - d >= 1)
 * (Simon & Wierum's propagation of time stamps), and the region takes
 * fin(n, m).  Everything is exact (GMP rationals).
 *
 * A formula holds the recurrence as the atom
 *   maxplus(n, m, cost_1 .. cost_m, k, from_1, to_1, d_1, c_1, ..., c_k)
 * (nodes numbered from 1, d = 0 for an arc inside an iteration, arcs in
 * order of their targets), which the evaluators compute here.
 *
 * Periodicity.  The schedule is a max-plus affine map of the finish times
 * of the last D iterations (D the largest distance): F(W) = max(H(W), B),
 * H homogeneous (H(W + t) = H(W) + t), B the times from 0 alone.  When
 * the last D steps all moved every node by the same lambda >= 0 and the
 * last step took its maximum from H everywhere, then by induction every
 * later step does the same: fin(j, v) = fin(p, v) + (j - p) lambda for all
 * j >= p.  The propagation then jumps to n, and a closed form
 * lambda*n + c from the first n0 where it holds is proved. */
#include <stdlib.h>
#include <string.h>

#include "graph/cyclic.h"
#include "base/util.h"

/* Iterations the closed form propagates at most, and the most values of
 * the transient it writes out before falling back to the recurrence. */
#define CLOSED_MAX_STEPS 4096UL
#define CLOSED_MAX_PIECES 64UL

/* A decoded recurrence. */
typedef struct mp_sys {
	size_t m, k;
	const mpq_t *cost;        /* m */
	size_t *from, *to;        /* k, nodes from 0 */
	unsigned long *dist;      /* k */
	const mpq_t *acost;       /* k (stride 'astride') */
	size_t astride;
	unsigned long D;          /* max(1, largest distance) */
	unsigned char *state;     /* m: see mark_state */
	int carried;              /* some forward arc: iterations interact */
} mp_sys;

/* The state of a propagation. */
typedef struct mp_run {
	const mp_sys *s;
	mpq_t *fin;               /* (D + 1) x m, iteration i at i mod (D+1) */
	mpq_t *hom;               /* m: H of the current step */
	unsigned char *homdef;    /* m */
	mpq_t lam, dl, t, best;
	unsigned long run;        /* uniform steps in a row with 'lam' */
	unsigned long i;          /* iterations done */
} mp_run;

/* The finish time of node 'v' in iteration 'i' (i within the ring). */
static mpq_ptr fin_at(mp_run *R, unsigned long i, size_t v)
{
	return R->fin[(i % (R->s->D + 1)) * R->s->m + v];
}

/* Sets up a propagation of 's'. */
static void run_init(mp_run *R, const mp_sys *s)
{
	size_t i, n = (s->D + 1) * s->m;

	memset(R, 0, sizeof(*R));
	R->s = s;
	R->fin = segc_xmalloc(segc_xmul_size(n + 1, sizeof(mpq_t)));
	R->hom = segc_xmalloc((s->m + 1) * sizeof(mpq_t));
	R->homdef = segc_xcalloc(s->m + 1, 1);
	for (i = 0; i < n; i++)
		mpq_init(R->fin[i]);
	for (i = 0; i < s->m; i++)
		mpq_init(R->hom[i]);
	mpq_inits(R->lam, R->dl, R->t, R->best, (mpq_ptr)0);
}

/* Releases 'R'. */
static void run_clear(mp_run *R)
{
	size_t i, n = (R->s->D + 1) * R->s->m;

	for (i = 0; i < n; i++)
		mpq_clear(R->fin[i]);
	for (i = 0; i < R->s->m; i++)
		mpq_clear(R->hom[i]);
	free(R->fin);
	free(R->hom);
	free(R->homdef);
	mpq_clears(R->lam, R->dl, R->t, R->best, (mpq_ptr)0);
}

/* Node 'v' in iteration 'i' (>= 1): its finish time and H's. */
static void step_node(mp_run *R, unsigned long i, size_t v, size_t *arc)
{
	const mp_sys *s = R->s;
	int hdef = 0;

	mpq_set_ui(R->best, 0, 1);
	for (; *arc < s->k && s->to[*arc] == v; ++*arc) {
		size_t a = *arc, u = s->from[a];
		unsigned long d = s->dist[a];
		int is_hom = 1;

		if (d >= i)
			continue;
		if (d == 0) {
			is_hom = R->homdef[u];
			if (is_hom)
				mpq_add(R->t, R->hom[u], s->acost[a * s->astride]);
			if (is_hom && (!hdef || mpq_cmp(R->t, R->hom[v]) > 0))
				mpq_set(R->hom[v], R->t);
			hdef |= is_hom;
			mpq_add(R->t, fin_at(R, i, u), s->acost[a * s->astride]);
		} else {
			mpq_add(R->t, fin_at(R, i - d, u), s->acost[a * s->astride]);
			if (!hdef || mpq_cmp(R->t, R->hom[v]) > 0)
				mpq_set(R->hom[v], R->t);
			hdef = 1;
		}
		if (mpq_cmp(R->t, R->best) > 0)
			mpq_set(R->best, R->t);
	}
	mpq_add(fin_at(R, i, v), R->best, s->cost[v]);
	R->homdef[v] = (unsigned char)hdef;
	if (hdef)
		mpq_add(R->hom[v], R->hom[v], s->cost[v]);
}

/* Runs iteration R->i + 1; returns non-zero when from it on every step
 * adds R->lam to the finish times of the nodes forward arcs leave and of
 * the exit (see the top of the file). */
static int step(mp_run *R)
{
	const mp_sys *s = R->s;
	unsigned long i = ++R->i;
	size_t v, arc = 0;
	int uniform = i >= 2, dominated = 1, first = 1;

	mpq_set_ui(R->dl, 0, 1);
	for (v = 0; v < s->m; v++) {
		step_node(R, i, v, &arc);
		if (!s->state[v])
			continue;
		dominated = dominated && R->homdef[v] &&
			mpq_equal(R->hom[v], fin_at(R, i, v));
		if (!uniform || s->state[v] != 2)
			continue;
		mpq_sub(R->t, fin_at(R, i, v), fin_at(R, i - 1, v));
		if (first)
			mpq_set(R->dl, R->t);
		else if (!mpq_equal(R->t, R->dl))
			uniform = 0;
		first = 0;
	}
	if (!s->carried)
		return 1;
	if (uniform && R->run && mpq_equal(R->dl, R->lam))
		R->run++;
	else if (uniform) {
		R->run = 1;
		mpq_set(R->lam, R->dl);
	} else
		R->run = 0;
	return R->run >= s->D && i > s->D && dominated &&
		mpq_sgn(R->lam) >= 0;
}

/* Marks in s->state the nodes the schedule carries from one iteration
 * to the next (2: a forward arc leaves them) and the exit (1 at least). */
static void mark_state(mp_sys *s)
{
	size_t j;

	s->state = segc_xcalloc(s->m + 1, 1);
	for (j = 0; j < s->k; j++)
		if (s->dist[j]) {
			s->state[s->from[j]] = 2;
			s->carried = 1;
		}
	if (!s->state[s->m - 1])
		s->state[s->m - 1] = 1;
}

/* Checks and decodes the arguments of a maxplus atom into 's' (arrays
 * malloc'd); NULL, or what is wrong. */
static const char *decode(mp_sys *s, size_t nargs, const mpq_t *args)
{
	size_t j, base;

	memset(s, 0, sizeof(*s));
	if (nargs < 3 || mpz_cmp_ui(mpq_denref(args[1]), 1) ||
	    mpz_sgn(mpq_numref(args[1])) <= 0 ||
	    mpz_cmp_ui(mpq_numref(args[1]), nargs) >= 0)
		return "malformed recurrence (node count)";
	s->m = mpz_get_ui(mpq_numref(args[1]));
	if (s->m + 2 >= nargs || mpz_cmp_ui(mpq_denref(args[s->m + 2]), 1) ||
	    mpz_cmp_ui(mpq_numref(args[s->m + 2]), nargs) >= 0 ||
	    mpz_sgn(mpq_numref(args[s->m + 2])) < 0)
		return "malformed recurrence (arc count)";
	s->k = mpz_get_ui(mpq_numref(args[s->m + 2]));
	base = s->m + 3;
	if ((nargs - base) / 4 != s->k || (nargs - base) % 4)
		return "malformed recurrence (arcs)";
	s->cost = args + 2;
	s->acost = args + base + 3;
	s->astride = 4;
	s->D = 1;
	s->from = segc_xmalloc((s->k + 1) * sizeof(size_t));
	s->to = segc_xmalloc((s->k + 1) * sizeof(size_t));
	s->dist = segc_xmalloc((s->k + 1) * sizeof(unsigned long));
	for (j = 0; j < s->k; j++) {
		const mpq_t *a = args + base + 4 * j;
		unsigned long x[3];
		int i;

		for (i = 0; i < 3; i++) {
			if (mpz_cmp_ui(mpq_denref(a[i]), 1) ||
			    mpz_sgn(mpq_numref(a[i])) < 0 ||
			    mpz_cmp_ui(mpq_numref(a[i]), SEGC_MAX_FORWARD) > 0)
				return "malformed recurrence (arc ends)";
			x[i] = mpz_get_ui(mpq_numref(a[i]));
		}
		if (x[0] < 1 || x[0] > s->m || x[1] < 1 || x[1] > s->m ||
		    (x[2] == 0 && x[0] >= x[1]) ||
		    (j && x[1] - 1 < s->to[j - 1]))
			return "malformed recurrence (arc order)";
		s->from[j] = x[0] - 1;
		s->to[j] = x[1] - 1;
		s->dist[j] = x[2];
		if (x[2] > s->D)
			s->D = x[2];
	}
	mark_state(s);
	return NULL;
}

/* Releases the arrays of 's'. */
static void sys_clear(mp_sys *s)
{
	free(s->state);
	free(s->from);
	free(s->to);
	free(s->dist);
}

/* Sets 'out' to fin(n, m) by propagation, jumping once periodic; 1 when
 * more than 'max_steps' iterations would be needed. */
static int run_to(mpq_t out, const mp_sys *s, const mpz_t n,
	unsigned long max_steps)
{
	mp_run R;
	int rc = 0, periodic = 0;
	mpz_t left;

	mpq_set_ui(out, 0, 1);
	if (mpz_sgn(n) <= 0)
		return 0;
	run_init(&R, s);
	mpz_init(left);
	while (mpz_cmp_ui(n, R.i) > 0 && !periodic) {
		if (R.i >= max_steps) {
			rc = 1;
			break;
		}
		periodic = step(&R);
	}
	if (!rc) {
		mpq_set(out, fin_at(&R, R.i, s->m - 1));
		mpz_sub_ui(left, n, R.i);
		mpq_set_z(R.t, left);
		mpq_mul(R.t, R.t, R.lam);
		if (periodic)
			mpq_add(out, out, R.t);
	}
	mpz_clear(left);
	run_clear(&R);
	return rc;
}

/* Evaluates the maxplus atom whose arguments have the values 'args'
 * (see cyclic.h). */
int segc_maxplus_eval(mpq_t out, size_t nargs, const mpq_t *args,
	unsigned long max_steps, const char **why)
{
	mp_sys s;
	int rc;

	*why = decode(&s, nargs, args);
	if (*why) {
		sys_clear(&s);
		return -1;
	}
	if (mpz_cmp_ui(mpq_denref(args[0]), 1) || mpq_sgn(args[0]) < 0) {
		*why = "the count of an overlapped loop must be an integer >= 0";
		sys_clear(&s);
		return -1;
	}
	rc = run_to(out, &s, mpq_numref(args[0]), max_steps);
	if (rc)
		*why = "an overlapped loop whose schedule does not become "
			"periodic takes more iterations than the limit";
	sys_clear(&s);
	return rc;
}

/* ------------------------------------------------------ closed form */

/* Finds T(1..p) and lambda with T(j) = T(p) + (j - p) lambda for all
 * j >= p; 'T' gets p + 1 values (T[0] = 0) malloc'd.  0, or -1 when no
 * period shows within CLOSED_MAX_STEPS iterations. */
static int transient(const mp_sys *s, mpq_t **T, unsigned long *p,
	mpq_t lam)
{
	mp_run R;
	mpq_t *v = segc_xmalloc((CLOSED_MAX_STEPS + 2) * sizeof(mpq_t));
	int periodic = 0;
	unsigned long j;

	run_init(&R, s);
	mpq_init(v[0]);
	while (!periodic && R.i < CLOSED_MAX_STEPS) {
		periodic = step(&R);
		mpq_init(v[R.i]);
		mpq_set(v[R.i], fin_at(&R, R.i, s->m - 1));
	}
	mpq_set(lam, R.lam);
	*p = R.i;
	run_clear(&R);
	if (periodic) {
		*T = v;
		return 0;
	}
	for (j = 0; j <= *p; j++)
		mpq_clear(v[j]);
	free(v);
	return -1;
}

/* The number 'q' as an expression. */
static segc_expr *num(const mpq_t q)
{
	return segc_expr_num(q);
}

/* if(n <= j, a, b). */
static segc_expr *if_le(segc_expr *n, unsigned long j, segc_expr *a,
	segc_expr *b)
{
	segc_expr *rel[2], *args[3];

	rel[0] = segc_expr_copy(n);
	rel[1] = segc_expr_int((long)j);
	args[0] = segc_expr_call("<=", 2, rel);
	args[1] = a;
	args[2] = b;
	return segc_expr_call("if", 3, args);
}

/* The closed form of 's' for count 'n' (kept), or NULL when none is
 * proved with at most CLOSED_MAX_PIECES values of the transient:
 * lambda*n + c from n0 on, T(j) for 0 <= j < n0. */
static segc_expr *closed_form(const mp_sys *s, segc_expr *n)
{
	mpq_t *T, lam, c, t;
	unsigned long p, n0, j;
	segc_expr *e = NULL;

	mpq_inits(lam, c, t, (mpq_ptr)0);
	if (transient(s, &T, &p, lam))
		goto out;
	mpq_set_ui(t, p, 1);
	mpq_mul(t, t, lam);
	mpq_sub(c, T[p], t);
	for (n0 = p; n0 > 1; n0--) {
		mpq_set_ui(t, n0 - 1, 1);
		mpq_mul(t, t, lam);
		mpq_add(t, t, c);
		if (!mpq_equal(t, T[n0 - 1]))
			break;
	}
	if (n0 <= CLOSED_MAX_PIECES) {
		e = segc_expr_add2(segc_expr_mul2(num(lam),
			segc_expr_copy(n)), num(c));
		for (j = n0; j-- > 0;)
			e = if_le(n, j, num(T[j]), e);
	}
	for (j = 0; j <= p; j++)
		mpq_clear(T[j]);
	free(T);
out:
	mpq_clears(lam, c, t, (mpq_ptr)0);
	return e;
}

/* ------------------------------------------------------------- atoms */

/* The atom of the recurrence 'g' (see cyclic.h). */
static segc_expr *atom(segc_cyclic *g)
{
	size_t nargs = g->m + 3 + 4 * g->k, i, j = 0;
	segc_expr **a = segc_xmalloc((nargs + 1) * sizeof(*a));
	segc_expr *e;

	a[j++] = segc_expr_copy(g->count);
	a[j++] = segc_expr_int((long)g->m);
	for (i = 0; i < g->m; i++)
		a[j++] = g->cost[i] ? segc_expr_copy(g->cost[i])
			: segc_expr_int(0);
	a[j++] = segc_expr_int((long)g->k);
	for (i = 0; i < g->k; i++) {
		a[j++] = segc_expr_int((long)g->arcs[i].from + 1);
		a[j++] = segc_expr_int((long)g->arcs[i].to + 1);
		a[j++] = segc_expr_int((long)g->arcs[i].dist);
		a[j++] = g->arcs[i].cost ? segc_expr_copy(g->arcs[i].cost)
			: segc_expr_int(0);
	}
	e = segc_expr_call(SEGC_MAXPLUS, nargs, a);
	free(a);
	return e;
}

/* Orders arcs by target, then source (a stable order for the atom). */
static int arc_cmp(const void *x, const void *y)
{
	const segc_cyclic_arc *a = x, *b = y;

	if (a->to != b->to)
		return a->to < b->to ? -1 : 1;
	if (a->from != b->from)
		return a->from < b->from ? -1 : 1;
	return a->dist < b->dist ? -1 : a->dist > b->dist;
}

/* Non-zero when every cost of 'g' (canonical under 'dom') is a number;
 * the numbers then in 'q' (m costs, then k arc costs). */
static int numeric(segc_ctx *ctx, const segc_domains *dom,
	const segc_cyclic *g, mpq_t *q)
{
	size_t i;
	int ok = 1;

	for (i = 0; i < g->m + g->k && ok; i++) {
		segc_expr *c = i < g->m ? g->cost[i] : g->arcs[i - g->m].cost;
		segc_expr *v = c ? segc_canonical(ctx, dom, segc_expr_copy(c))
			: segc_expr_int(0);

		ok = v && segc_expr_is_num(v);
		if (ok)
			mpq_set(q[i], segc_expr_value(v));
		segc_expr_free(v);
	}
	return ok;
}

/* The closed form of 'g' when its costs are numbers, else NULL. */
static segc_expr *try_closed(segc_ctx *ctx, const segc_domains *dom,
	segc_cyclic *g)
{
	size_t n = g->m + g->k, i;
	mpq_t *q = segc_xmalloc((n + 1) * sizeof(mpq_t));
	segc_expr *e = NULL;
	mp_sys s;

	for (i = 0; i < n; i++)
		mpq_init(q[i]);
	if (numeric(ctx, dom, g, q)) {
		memset(&s, 0, sizeof(s));
		s.m = g->m;
		s.k = g->k;
		s.cost = q;
		s.acost = q + g->m;
		s.astride = 1;
		s.D = 1;
		s.from = segc_xmalloc((g->k + 1) * sizeof(size_t));
		s.to = segc_xmalloc((g->k + 1) * sizeof(size_t));
		s.dist = segc_xmalloc((g->k + 1) * sizeof(unsigned long));
		for (i = 0; i < g->k; i++) {
			s.from[i] = g->arcs[i].from;
			s.to[i] = g->arcs[i].to;
			s.dist[i] = g->arcs[i].dist;
			if (s.dist[i] > s.D)
				s.D = s.dist[i];
		}
		mark_state(&s);
		e = closed_form(&s, g->count);
		sys_clear(&s);
	}
	for (i = 0; i < n; i++)
		mpq_clear(q[i]);
	free(q);
	return e;
}

/* The time of the cyclic region 'g' (see cyclic.h). */
segc_expr *segc_cyclic_time(segc_ctx *ctx, const segc_domains *dom,
	segc_cyclic *g)
{
	segc_expr *e;

	qsort(g->arcs, g->k, sizeof(*g->arcs), arc_cmp);
	e = try_closed(ctx, dom, g);
	return e ? e : atom(g);
}
