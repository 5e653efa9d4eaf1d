/* maxplus.c - the max-plus systems of overlapped loops (FORMAT.md 3.2,
 * Simon & Wierum 2.2, 2.5), pure max-plus algebra over exact rationals:
 * decoding the arguments of a maxplus(...) atom, propagating its finish
 * times, finding its period, evaluating it.
 *
 * The system is a task graph of m nodes, numbered in topological order of
 * its arcs inside one iteration (the last node is the exit), and forward
 * arcs that reach d >= 1 iterations ahead.  For iterations i = 1 .. n, in
 * order, every node finishes at
 *   fin(i, v) = cost(v) + max(0, fin(i, u) + c for arcs u -> v,
 *                fin(i - d, u) + c for forward arcs u -> v with i - d >= 1)
 * (Simon & Wierum's propagation of time stamps), and the system takes
 * fin(n, m).
 *
 * Periodicity.  The schedule is a max-plus affine map of the finish times
 * of the last D iterations (D the largest distance): F(W) = max(H(W), B),
 * H homogeneous (H(W + t) = H(W) + t), B the times from 0 alone.  When
 * the last D steps all moved every node by the same lambda >= 0 and the
 * last step took its maximum from H everywhere, then by induction every
 * later step does the same: fin(j, v) = fin(p, v) + (j - p) lambda for all
 * j >= p.  The propagation then jumps to n.
 *
 * Cyclicity.  A critical cycle through forward arcs of a total distance
 * above 1 can make the schedule periodic only every c > 1 iterations:
 * fin(j + c, v) = fin(j, v) + Lambda.  The same argument holds for the
 * c-step map: once, for every iteration t of the last D + c - 1, the
 * carried nodes moved by one Lambda >= 0 against iteration t - c, and the
 * last c steps each took their maximum from H, every later step repeats
 * the one c before it, moved by Lambda.  run_to looks for such a c up to
 * MP_MAX_CYCLICITY; the closed form of segc_maxplus_transient stays with
 * c = 1. */
#include <stdlib.h>
#include <string.h>

#include "graph/maxplus.h"
#include "base/util.h"

/* The largest cyclicity c > 1 that the evaluation looks for. */
#define MP_MAX_CYCLICITY 8UL

/* The state of a propagation. */
typedef struct mp_run {
	const segc_maxplus_sys *s;
	mpq_t *fin;               /* ring x m, iteration i at i mod ring */
	unsigned long ring;       /* iterations held: > D and > the cyclicity */
	mpq_t *hom;               /* m: H of the current step */
	unsigned char *homdef;    /* m */
	mpq_t lam, dl, t, best;
	unsigned long run;        /* uniform steps in a row with 'lam' */
	unsigned long i;          /* iterations done */
	unsigned long dominated;  /* bit j: step i - j took its maxima from H */
	mpq_t *clam;              /* [c]: Lambda of cyclicity c (2 .. MAX) */
	unsigned long crun[MP_MAX_CYCLICITY + 1]; /* steps in a row with it */
} mp_run;

/* The finish time of node 'v' in iteration 'i' (i within the ring). */
static mpq_ptr fin_at(mp_run *R, unsigned long i, size_t v)
{
	return R->fin[(i % R->ring) * R->s->m + v];
}

/* Sets up a propagation of 's' over at most 'steps' iterations (0: no
 * bound known): the ring holds no more iterations than will run, so that
 * a short loop with a far forward arc allocates little. */
static void run_init(mp_run *R, const segc_maxplus_sys *s, unsigned long steps)
{
	size_t i, n;

	memset(R, 0, sizeof(*R));
	R->s = s;
	R->ring = (s->D > MP_MAX_CYCLICITY ? s->D : MP_MAX_CYCLICITY) + 1;
	if (steps && steps < R->ring)
		R->ring = steps + 1;
	n = R->ring * s->m;
	R->clam = segc_xmalloc((MP_MAX_CYCLICITY + 1) * sizeof(mpq_t));
	for (i = 0; i <= MP_MAX_CYCLICITY; i++)
		mpq_init(R->clam[i]);
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
	size_t i, n = R->ring * R->s->m;

	for (i = 0; i < n; i++)
		mpq_clear(R->fin[i]);
	for (i = 0; i <= MP_MAX_CYCLICITY; i++)
		mpq_clear(R->clam[i]);
	free(R->clam);
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
	const segc_maxplus_sys *s = R->s;
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
		} else if (s->settled[u]) {
			mpq_add(R->t, fin_at(R, i - d, u), s->acost[a * s->astride]);
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
	if (s->limbs) {
		unsigned long l = mpz_size(mpq_numref(fin_at(R, i, v))) +
			mpz_size(mpq_denref(fin_at(R, i, v)));

		if (l > *s->limbs)
			*s->limbs = l;
	}
	R->homdef[v] = (unsigned char)hdef;
	if (hdef)
		mpq_add(R->hom[v], R->hom[v], s->cost[v]);
}

/* Runs iteration R->i + 1; returns non-zero when from it on every step
 * adds R->lam to the finish times of the nodes forward arcs leave and of
 * the exit (see the top of the file). */
static int step(mp_run *R)
{
	const segc_maxplus_sys *s = R->s;
	unsigned long i = ++R->i;
	size_t v, arc = 0;
	int uniform = i >= 2, dominated = 1, first = 1;

	mpq_set_ui(R->dl, 0, 1);
	for (v = 0; v < s->m; v++) {
		step_node(R, i, v, &arc);
		if (!s->state[v] || s->settled[v])
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
	R->dominated = (R->dominated << 1) | (unsigned long)(dominated != 0);
	if (s->settled[s->m - 1] || !s->moving) {
		mpq_set_ui(R->lam, 0, 1);
		return i >= s->settle;
	}
	if (uniform && R->run && mpq_equal(R->dl, R->lam))
		R->run++;
	else if (uniform) {
		R->run = 1;
		mpq_set(R->lam, R->dl);
	} else
		R->run = 0;
	return R->run >= s->D && i > s->D && dominated &&
		mpq_sgn(R->lam) >= 0 && i >= s->settle + s->D;
}

/* Marks in s->settled the nodes whose time is the same in every
 * iteration from some iteration on: those whose every arc in comes from
 * such a node (a node without arcs in, first), each from the iteration
 * the latest of its sources settles plus the arc's distance; s->settle is
 * the latest of them.  The arcs are in order of their targets, the nodes
 * in topological order of the arcs inside an iteration. */
static void find_settled(segc_maxplus_sys *s)
{
	unsigned long *at = segc_xcalloc(s->m + 1, sizeof(*at));
	int changed = 1;
	size_t v, j;

	s->settled = segc_xcalloc(s->m + 1, 1);
	s->settle = 1;
	while (changed) {
		changed = 0;
		for (v = 0, j = 0; v < s->m; v++) {
			int ok = !s->settled[v];
			unsigned long t = 1;

			for (; j < s->k && s->to[j] == v; j++) {
				size_t u = s->from[j];

				if (!ok || !s->settled[u])
					ok = 0;
				else if (at[u] + s->dist[j] > t)
					t = at[u] + s->dist[j];
			}
			if (ok) {
				s->settled[v] = 1;
				at[v] = t;
				changed = 1;
				if (t > s->settle)
					s->settle = t;
			}
		}
	}
	for (j = 0; j < s->k; j++)
		if (s->dist[j] && !s->settled[s->from[j]])
			s->moving = 1;
	free(at);
}

/* Marks in s->state the nodes the schedule carries from one iteration
 * to the next (2: a forward arc leaves them) and the exit (1 at least),
 * and the settled nodes (find_settled). */
void segc_maxplus_prepare(segc_maxplus_sys *s)
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
	find_settled(s);
}

/* Checks and decodes the arguments of a maxplus atom into 's' (arrays
 * malloc'd); NULL, or what is wrong. */
const char *segc_maxplus_decode(segc_maxplus_sys *s, size_t nargs,
	const mpq_t *args)
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
			    mpz_cmp_ui(mpq_numref(a[i]),
			    SEGC_MAXPLUS_MAX_DISTANCE) > 0)
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
	segc_maxplus_prepare(s);
	return NULL;
}

/* Decodes the graph of the atom 'e' whatever its costs (see maxplus.h). */
const char *segc_maxplus_decode_graph(const segc_expr *e,
	segc_maxplus_sys *s)
{
	size_t o = segc_expr_is_builtin(e, SEGC_BUILTIN_MAXPLUSV);
	size_t nargs = segc_expr_nargs(e) - o, j, m = segc_maxplus_nodes(e);
	mpq_t *q = segc_xmalloc((nargs + 1) * sizeof(mpq_t));
	const char *why;

	for (j = 0; j < nargs; j++) {
		const segc_expr *a = segc_expr_arg(e, j + o);

		mpq_init(q[j]);
		if (j && !segc_maxplus_arg_is_cost(j, m) && segc_expr_is_num(a))
			mpq_set(q[j], segc_expr_value(a));
		else if (j && !segc_maxplus_arg_is_cost(j, m))
			mpq_set_si(q[j], -1, 1);
	}
	why = segc_maxplus_decode(s, nargs, (const mpq_t *)q);
	for (j = 0; j < nargs; j++)
		mpq_clear(q[j]);
	free(q);
	s->cost = NULL;
	s->acost = NULL;
	return why;
}

/* Releases the arrays of 's'. */
void segc_maxplus_clear(segc_maxplus_sys *s)
{
	free(s->state);
	free(s->settled);
	free(s->from);
	free(s->to);
	free(s->dist);
}

/* After step R->i: the smallest cyclicity c in 2 .. MP_MAX_CYCLICITY
 * that is proved (see the top of the file), with its Lambda in
 * R->clam[c]; 0 when none is. */
static unsigned long cyclic_step(mp_run *R)
{
	const segc_maxplus_sys *s = R->s;
	unsigned long c, i = R->i, found = 0;
	size_t v;

	for (c = 2; c <= MP_MAX_CYCLICITY && c < i; c++) {
		int uniform = 1, first = 1;

		for (v = 0; v < s->m && uniform; v++) {
			if (s->state[v] != 2 || s->settled[v])
				continue;
			mpq_sub(R->t, fin_at(R, i, v), fin_at(R, i - c, v));
			if (first)
				mpq_set(R->dl, R->t);
			else if (!mpq_equal(R->t, R->dl))
				uniform = 0;
			first = 0;
		}
		if (uniform && R->crun[c] && mpq_equal(R->dl, R->clam[c]))
			R->crun[c]++;
		else if (uniform) {
			R->crun[c] = 1;
			mpq_set(R->clam[c], R->dl);
		} else
			R->crun[c] = 0;
		if (!found && R->crun[c] >= s->D + c - 1 && i >= s->D + 2 * c &&
			i >= s->settle + s->D + c &&
			(R->dominated & ((1UL << c) - 1)) == (1UL << c) - 1 &&
			mpq_sgn(R->clam[c]) >= 0)
			found = c;
	}
	return found;
}

/* Sets 'out' to fin(n, m) by propagation, jumping once periodic; 1 when
 * more than 'max_steps' iterations would be needed.  With 'costs', the
 * costs of each iteration are set by costs(arg, i) before it runs, and
 * nothing is periodic: every iteration runs (-1 when 'costs' fails). */
static int run_to(mpq_t out, const segc_maxplus_sys *s, const mpz_t n,
	unsigned long max_steps, segc_maxplus_costs_fn costs, void *arg,
	unsigned long *steps)
{
	mp_run R;
	int rc = 0, periodic = 0;
	unsigned long c = 0;
	mpz_t left, q;

	mpq_set_ui(out, 0, 1);
	if (mpz_sgn(n) <= 0)
		return 0;
	run_init(&R, s, mpz_fits_ulong_p(n) ? mpz_get_ui(n) : 0);
	mpz_inits(left, q, (mpz_ptr)0);
	while (mpz_cmp_ui(n, R.i) > 0 && !periodic && !c) {
		if (R.i >= max_steps) {
			rc = 1;
			break;
		}
		if (costs && costs(arg, R.i + 1)) {
			rc = -1;
			break;
		}
		if (s->limbs)
			*s->limbs = 0;
		periodic = step(&R);
		if (costs)
			periodic = 0;
		else if (!periodic && s->carried)
			c = cyclic_step(&R);
	}
	if (!rc && c && mpz_cmp_ui(n, R.i) > 0) {
		/* n - i = q c + r: fin(n) = fin(i - c + r) + (q + 1) Lambda
		 * for r > 0, fin(i) + q Lambda for r = 0. */
		unsigned long r;

		mpz_sub_ui(left, n, R.i);
		r = mpz_fdiv_q_ui(q, left, c);
		if (r)
			mpz_add_ui(q, q, 1);
		mpq_set(out, fin_at(&R, r ? R.i - c + r : R.i, s->m - 1));
		mpq_set_z(R.t, q);
		mpq_mul(R.t, R.t, R.clam[c]);
		mpq_add(out, out, R.t);
	} else if (!rc) {
		mpq_set(out, fin_at(&R, R.i, s->m - 1));
		mpz_sub_ui(left, n, R.i);
		mpq_set_z(R.t, left);
		mpq_mul(R.t, R.t, R.lam);
		if (periodic)
			mpq_add(out, out, R.t);
	}
	if (steps)
		*steps = R.i;
	mpz_clears(left, q, (mpz_ptr)0);
	run_clear(&R);
	return rc;
}

/* Evaluates the maxplus atom whose arguments have the values 'args'
 * (see maxplus.h). */
int segc_maxplus_eval(mpq_t out, size_t nargs, const mpq_t *args,
	unsigned long max_steps, const char **why)
{
	unsigned long steps;

	return segc_maxplus_eval_steps(out, nargs, args, max_steps, &steps,
		why);
}

/* segc_maxplus_eval, telling in '*steps' the iterations it ran. */
int segc_maxplus_eval_steps(mpq_t out, size_t nargs, const mpq_t *args,
	unsigned long max_steps, unsigned long *steps, const char **why)
{
	segc_maxplus_sys s;
	int rc;

	*steps = 0;
	*why = segc_maxplus_decode(&s, nargs, args);
	if (*why) {
		segc_maxplus_clear(&s);
		return -1;
	}
	if (mpz_cmp_ui(mpq_denref(args[0]), 1) || mpq_sgn(args[0]) < 0) {
		*why = "the count of an overlapped loop must be an integer >= 0";
		segc_maxplus_clear(&s);
		return -1;
	}
	rc = run_to(out, &s, mpq_numref(args[0]), max_steps, NULL, NULL,
		steps);
	if (rc)
		*why = "an overlapped loop whose schedule does not become "
			"periodic takes more iterations than the limit";
	segc_maxplus_clear(&s);
	return rc;
}

/* Sets 'out' to the value of a recurrence whose costs depend on the
 * counter (see maxplus.h). */
int segc_maxplus_run(mpq_t out, const segc_maxplus_sys *s, mpq_srcptr n,
	unsigned long max_steps, segc_maxplus_costs_fn costs, void *arg,
	const char **why)
{
	int rc;

	*why = NULL;
	if (mpz_cmp_ui(mpq_denref(n), 1) || mpq_sgn(n) < 0) {
		*why = "the count of an overlapped loop must be an integer >= 0";
		return -1;
	}
	rc = run_to(out, s, mpq_numref(n), max_steps, costs, arg, NULL);
	if (rc > 0)
		*why = "an overlapped loop whose costs depend on its counter "
			"takes more iterations than the limit";
	else if (rc < 0)
		*why = "a cost of an iteration of an overlapped loop cannot "
			"be evaluated";
	return rc;
}

/* -------------------------------------------------- transient, period */

/* Finds T(1..p) and lambda with T(j) = T(p) + (j - p) lambda for all
 * j >= p; 'T' gets p + 1 values (T[0] = 0) malloc'd.  0, or -1 when no
 * period shows within 'max_steps' iterations. */
int segc_maxplus_transient(const segc_maxplus_sys *s,
	unsigned long max_steps, mpq_t **T, unsigned long *p, mpq_t lam)
{
	mp_run R;
	mpq_t *v = segc_xmalloc((max_steps + 2) * sizeof(mpq_t));
	int periodic = 0;
	unsigned long j;

	run_init(&R, s, 0);
	mpq_init(v[0]);
	while (!periodic && R.i < max_steps) {
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
