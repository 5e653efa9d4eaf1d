/* evalball_box.c - a certified enclosure of formulas over a box of
 * parameter intervals: the plan is run over balls that hold the whole
 * intervals (interval evaluation), and the box is split in two, at the
 * exact midpoint of its widest side (relative to the box first given),
 * where its enclosure sticks out past what the formulas are seen to
 * reach (the dependency problem: a name met twice is counted as varying
 * independently).  What they reach comes from evaluations at the corners
 * of the box (up to 2^MAX_CORNER_DIMS of them) and at the centre of
 * every box.  The union of the enclosures of the pieces is the
 * enclosure; splitting stops when it sticks out by at most SLACK_GOAL of
 * its width for every formula, or after MAX_BOXES pieces.  A piece over
 * which a decision varies (the number of terms of a sum, the sign of a
 * divisor) is split whatever its enclosure, at most MAX_DEPTH times. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/evalball_private.h"
#include "base/util.h"

#define MAX_BOXES 256
#define MAX_DEPTH 40
#define MAX_CORNER_DIMS 4
#define SLACK_GOAL (1.0 / 1024)
#define GUARD_BITS 32

/* A piece of the box: its bounds for each dimension, the enclosure of
 * each formula over it, whether it must be split. */
typedef struct piece {
	mpq_t *lo, *hi;
	arb_ptr enc;
	int split;
	unsigned depth;
} piece;

/* An enclosure being computed. */
typedef struct encl {
	segc_ctx *ctx;
	size_t n, d;              /* formulas, dimensions */
	const segc_eplan *plan;
	const segc_point *pt;
	const segc_where *where;
	size_t *dim;              /* the index in pt of each dimension */
	slong prec;
	piece *pc;
	size_t npc;
	arf_struct *ilo, *ihi;    /* the least and largest value seen */
	int *seen;
	double *width0;           /* the width of each side of the box */
	const char *why, *why_name;
	int why_limit;
} encl;

/* Notes the values at the point 'values' (of the names of pt) among
 * those seen; nothing when they cannot be computed over balls. */
static void sample(encl *E, mpq_t *values)
{
	segc_point p = *E->pt;
	segc_ball_run r;
	arb_ptr res = _arb_vec_init((slong)E->n + 1);
	size_t k;

	p.values = (const mpq_t *)values;
	memset(&r, 0, sizeof r);
	r.p = E->plan;
	r.pt = &p;
	r.where = E->where;
	r.ctx = E->ctx;
	r.prec = E->prec;
	if (segc_ball_plan_run(&r, res) == SEGC_BALL_OK)
		for (k = 0; k < E->n; k++) {
			arf_srcptr m = arb_midref(&res[k]);

			if (!arb_is_finite(&res[k]))
				continue;
			if (!E->seen[k] || arf_cmp(m, &E->ilo[k]) < 0)
				arf_set(&E->ilo[k], m);
			if (!E->seen[k] || arf_cmp(m, &E->ihi[k]) > 0)
				arf_set(&E->ihi[k], m);
			E->seen[k] = 1;
		}
	_arb_vec_clear(res, (slong)E->n + 1);
}

/* A copy of the values of the point (to be freed with free_values). */
static mpq_t *point_values(const encl *E)
{
	mpq_t *v = segc_xmalloc((E->pt->n + 1) * sizeof(mpq_t));
	size_t j;

	for (j = 0; j < E->pt->n; j++) {
		mpq_init(v[j]);
		mpq_set(v[j], E->pt->values[j]);
	}
	return v;
}

/* Releases a copy of point_values. */
static void free_values(const encl *E, mpq_t *v)
{
	size_t j;

	for (j = 0; j < E->pt->n; j++)
		mpq_clear(v[j]);
	free(v);
}

/* Samples the centre of 'P', and with 'corners' its corners too. */
static void sample_piece(encl *E, const piece *P, int corners)
{
	mpq_t *v = point_values(E);
	size_t j;
	unsigned long c;

	for (j = 0; j < E->d; j++) {
		mpq_add(v[E->dim[j]], P->lo[j], P->hi[j]);
		mpq_div_2exp(v[E->dim[j]], v[E->dim[j]], 1);
	}
	sample(E, v);
	for (c = 0; corners && E->d <= MAX_CORNER_DIMS && c < (1UL << E->d);
	     c++) {
		for (j = 0; j < E->d; j++)
			mpq_set(v[E->dim[j]], (c >> j) & 1 ? P->hi[j] : P->lo[j]);
		sample(E, v);
	}
	free_values(E, v);
}

/* Sets 'x' to a ball holding [lo, hi]: its midpoint, widened by half its
 * width rounded up ('t' scratch); exact when both are dyadic, so that
 * [1, 2] is the ball 3/2 +- 1/2 and not a wider one. */
static void set_interval(arb_t x, arb_t t, const mpq_t lo, const mpq_t hi,
	slong prec)
{
	mpq_t m;
	arf_t u;

	mpq_init(m);
	arf_init(u);
	mpq_add(m, lo, hi);
	mpq_div_2exp(m, m, 1);
	segc_ball_set_q(x, m, prec);
	mpq_sub(m, hi, lo);
	mpq_div_2exp(m, m, 1);
	segc_ball_set_q(t, m, prec);
	arb_get_ubound_arf(u, t, prec);
	arb_add_error_arf(x, u);
	arf_clear(u);
	mpq_clear(m);
}

/* Encloses the formulas over 'P': 0, or -1 when the balls cannot (then
 * E->why says why). */
static int enclose_piece(encl *E, piece *P)
{
	arb_ptr box = _arb_vec_init((slong)E->pt->n + 1);
	segc_ball_run r;
	arb_t t;
	size_t j;
	int rc;

	arb_init(t);
	for (j = 0; j < E->pt->n; j++)
		segc_ball_set_q(&box[j], E->pt->values[j], E->prec);
	for (j = 0; j < E->d; j++)
		set_interval(&box[E->dim[j]], t, P->lo[j], P->hi[j], E->prec);
	memset(&r, 0, sizeof r);
	r.p = E->plan;
	r.pt = E->pt;
	r.where = E->where;
	r.ctx = E->ctx;
	r.prec = E->prec;
	r.box = box;
	rc = segc_ball_plan_run(&r, P->enc);
	P->split = rc != SEGC_BALL_OK;
	if (rc != SEGC_BALL_OK) {
		E->why = r.why;
		E->why_name = r.why_name;
		E->why_limit = r.why_limit;
	}
	arb_clear(t);
	_arb_vec_clear(box, (slong)E->pt->n + 1);
	return rc == SEGC_BALL_OK || rc == SEGC_BALL_SPLIT ? 0 : -1;
}

/* A new piece with room for the bounds and enclosures. */
static piece *new_piece(encl *E)
{
	piece *P;
	size_t j;

	E->pc = segc_xrealloc(E->pc, (E->npc + 1) * sizeof *E->pc);
	P = &E->pc[E->npc++];
	memset(P, 0, sizeof *P);
	P->lo = segc_xmalloc((E->d + 1) * sizeof(mpq_t));
	P->hi = segc_xmalloc((E->d + 1) * sizeof(mpq_t));
	for (j = 0; j < E->d; j++) {
		mpq_init(P->lo[j]);
		mpq_init(P->hi[j]);
	}
	P->enc = _arb_vec_init((slong)E->n + 1);
	return P;
}

/* Releases the piece 'P'. */
static void free_piece(const encl *E, piece *P)
{
	size_t j;

	for (j = 0; j < E->d; j++) {
		mpq_clear(P->lo[j]);
		mpq_clear(P->hi[j]);
	}
	free(P->lo);
	free(P->hi);
	_arb_vec_clear(P->enc, (slong)E->n + 1);
}

/* The width of the union of the enclosures of formula 'k' into '*lo',
 * '*hi' (doubles: they only choose what to split). */
static void outer(const encl *E, size_t k, double *lo, double *hi)
{
	size_t i;

	for (i = 0; i < E->npc; i++) {
		arb_srcptr x = &E->pc[i].enc[k];
		double l = arf_get_d(arb_midref(x), ARF_RND_DOWN) -
			mag_get_d(arb_radref(x));
		double h = arf_get_d(arb_midref(x), ARF_RND_UP) +
			mag_get_d(arb_radref(x));

		if (!i || l < *lo)
			*lo = l;
		if (!i || h > *hi)
			*hi = h;
	}
}

/* How far (a fraction of the width of the union) the enclosure of
 * formula 'k' over piece 'P' sticks out past the values seen. */
static double excess(const encl *E, const piece *P, size_t k, double lo,
	double hi)
{
	arb_srcptr x = &P->enc[k];
	double l = arf_get_d(arb_midref(x), ARF_RND_DOWN) -
		mag_get_d(arb_radref(x));
	double h = arf_get_d(arb_midref(x), ARF_RND_UP) +
		mag_get_d(arb_radref(x));
	double il = arf_get_d(&E->ilo[k], ARF_RND_DOWN);
	double ih = arf_get_d(&E->ihi[k], ARF_RND_UP);
	double e = 0;

	if (!E->seen[k] || !(hi > lo))
		return 0;
	if (h > ih)
		e += h - ih;
	if (l < il)
		e += il - l;
	return e / (hi - lo);
}

/* The piece to split next, or (size_t)-1 when the enclosure is tight
 * enough; the slack of each formula into 'slack' (when given). */
static size_t choose(encl *E, double *slack)
{
	size_t i, k, best = (size_t)-1;
	double top = 0, lo = 0, hi = 0;

	for (i = 0; i < E->npc; i++)
		if (E->pc[i].split)
			return i;
	for (k = 0; k < E->n; k++) {
		double s;

		outer(E, k, &lo, &hi);
		s = 0;
		if (E->seen[k] && hi > lo)
			s = ((hi - arf_get_d(&E->ihi[k], ARF_RND_UP)) +
				(arf_get_d(&E->ilo[k], ARF_RND_DOWN) - lo)) /
				(hi - lo);
		if (slack)
			slack[k] = s < 0 ? 0 : s;
		if (s <= SLACK_GOAL)
			continue;
		for (i = 0; i < E->npc; i++) {
			double x = excess(E, &E->pc[i], k, lo, hi);

			if (x > top) {
				top = x;
				best = i;
			}
		}
	}
	return best;
}

/* Splits piece 'i' in two at the midpoint of its relatively widest side
 * and encloses both halves: 0, 1 when it is not split (too small, or
 * too many pieces), or -1 when a half cannot be enclosed (E->why set). */
static int split(encl *E, size_t i)
{
	size_t j, w = 0;
	double best = -1;
	piece *A, *B;
	mpq_t mid;

	for (j = 0; j < E->d; j++) {
		double x = E->width0[j] > 0 ? mpq_get_d(E->pc[i].hi[j]) /
			E->width0[j] - mpq_get_d(E->pc[i].lo[j]) / E->width0[j] :
			-1;

		if (x > best) {
			best = x;
			w = j;
		}
	}
	if (best <= 0 || E->pc[i].depth >= MAX_DEPTH ||
	    E->npc >= 4 * MAX_BOXES)
		return 1;
	B = new_piece(E);
	A = &E->pc[i];
	B->depth = ++A->depth;
	for (j = 0; j < E->d; j++) {
		mpq_set(B->lo[j], A->lo[j]);
		mpq_set(B->hi[j], A->hi[j]);
	}
	mpq_init(mid);
	mpq_add(mid, A->lo[w], A->hi[w]);
	mpq_div_2exp(mid, mid, 1);
	mpq_set(A->hi[w], mid);
	mpq_set(B->lo[w], mid);
	mpq_clear(mid);
	if (enclose_piece(E, A) || enclose_piece(E, &E->pc[E->npc - 1]))
		return -1;
	sample_piece(E, &E->pc[i], 0);
	sample_piece(E, &E->pc[E->npc - 1], 0);
	return 0;
}

/* The union of the enclosures into 'lo' (rounded down) and 'hi' (up). */
static void result(const encl *E, mpfr_ptr const *lo, mpfr_ptr const *hi)
{
	size_t i, k;
	arf_t l, h, t;

	arf_init(l);
	arf_init(h);
	arf_init(t);
	for (k = 0; k < E->n; k++) {
		for (i = 0; i < E->npc; i++) {
			arb_get_lbound_arf(t, &E->pc[i].enc[k], E->prec);
			if (!i || arf_cmp(t, l) < 0)
				arf_set(l, t);
			arb_get_ubound_arf(t, &E->pc[i].enc[k], E->prec);
			if (!i || arf_cmp(t, h) > 0)
				arf_set(h, t);
		}
		arf_get_mpfr(lo[k], l, MPFR_RNDD);
		arf_get_mpfr(hi[k], h, MPFR_RNDU);
	}
	arf_clear(l);
	arf_clear(h);
	arf_clear(t);
}

/* Records why the enclosure failed: the error of the formulas at the
 * centre of the box when they have one there, else E->why. */
static void report(encl *E, const segc_expr *const *e,
	mpfr_ptr const *lo)
{
	mpq_t *v = point_values(E);
	segc_point p = *E->pt;
	size_t j;
	char msg[400];

	for (j = 0; j < E->d; j++) {
		mpq_add(v[E->dim[j]], E->pc[0].lo[j], E->pc[0].hi[j]);
		mpq_div_2exp(v[E->dim[j]], v[E->dim[j]], 1);
	}
	p.values = (const mpq_t *)v;
	if (!segc_eval_mpfr_n_with(E->ctx, SEGC_EVAL_RATIONALS, E->n, lo, e,
			&p, E->where)) {
		snprintf(msg, sizeof msg, E->why ? E->why : "%s",
			E->why_name ? E->why_name : "an error");
		segc_error(E->ctx, E->why_limit ? SEGC_ERR_LIMIT :
			SEGC_ERR_INPUT, E->where ? E->where->file : NULL,
			E->where ? E->where->line : 0, 0, "cannot enclose the "
			"values over the intervals: %s (narrow the intervals, "
			"or give single values)", msg);
	}
	free_values(E, v);
}

/* 'n' new arf numbers, zero. */
static arf_struct *arf_vec_new(size_t n)
{
	arf_struct *v = segc_xmalloc((n + 1) * sizeof *v);
	size_t i;

	for (i = 0; i < n; i++)
		arf_init(&v[i]);
	return v;
}

/* Releases what arf_vec_new gave. */
static void arf_vec_free(arf_struct *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		arf_clear(&v[i]);
	free(v);
}

/* Sets up 'E' for the box 'box' of the point 'pt'; -1 (recorded) when a
 * name of the box is not a name of the point. */
static int setup(encl *E, const segc_box *box)
{
	size_t i, j;

	E->dim = segc_xmalloc((box->n + 1) * sizeof *E->dim);
	E->width0 = segc_xmalloc((box->n + 1) * sizeof *E->width0);
	E->d = box->n;
	for (i = 0; i < box->n; i++) {
		for (j = 0; j < E->pt->n; j++)
			if (!strcmp(E->pt->names[j], box->names[i]))
				break;
		if (j == E->pt->n) {
			segc_error(E->ctx, SEGC_ERR_INPUT, NULL, 0, 0, "the "
				"interval of '%s' is not a name of the point",
				box->names[i]);
			return -1;
		}
		E->dim[i] = j;
		E->width0[i] = mpq_get_d(box->hi[i]) - mpq_get_d(box->lo[i]);
	}
	E->ilo = arf_vec_new(E->n);
	E->ihi = arf_vec_new(E->n);
	E->seen = segc_xcalloc(E->n + 1, sizeof *E->seen);
	return 0;
}

/* Splits until the enclosure is tight enough: 0, or -1. */
static int refine(encl *E, double *slack)
{
	size_t i;

	int rc;

	while ((i = choose(E, slack)) != (size_t)-1) {
		if (E->npc >= MAX_BOXES && !E->pc[i].split)
			return 0;
		rc = split(E, i);
		if (rc < 0 || (rc > 0 && E->pc[i].split))
			return -1;
		if (rc > 0)
			return 0;
	}
	return 0;
}

/* Encloses the formulas over the box (see eval.h). */
int segc_eval_enclose(segc_ctx *ctx, size_t n, mpfr_ptr const *lo,
	mpfr_ptr const *hi, double *slack, const segc_expr *const *e,
	const segc_point *pt, const segc_box *box, const segc_where *where)
{
	encl E;
	segc_evaluator cev;
	segc_eplan plan;
	size_t i, j;
	int rc = -1;

	memset(&E, 0, sizeof E);
	E.ctx = ctx;
	E.n = n;
	E.pt = pt;
	E.where = where;
	for (i = 0; i < n; i++)
		if ((slong)mpfr_get_prec(lo[i]) > E.prec)
			E.prec = (slong)mpfr_get_prec(lo[i]);
	E.prec += GUARD_BITS;
	memset(&cev, 0, sizeof cev);
	cev.ctx = ctx;
	cev.pt = pt;
	cev.where = where;
	if (setup(&E, box) || segc_eplan_compile(&plan, &cev, n, e))
		goto out;
	E.plan = &plan;
	{
		piece *P = new_piece(&E);

		for (j = 0; j < E.d; j++) {
			mpq_set(P->lo[j], box->lo[j]);
			mpq_set(P->hi[j], box->hi[j]);
		}
		if (!enclose_piece(&E, P)) {
			sample_piece(&E, P, 1);
			rc = refine(&E, slack);
		}
	}
	if (rc)
		report(&E, e, lo);
	else
		result(&E, lo, hi);
	segc_eplan_free(&plan);
out:
	for (i = 0; i < E.npc; i++)
		free_piece(&E, &E.pc[i]);
	free(E.pc);
	if (E.ilo) {
		arf_vec_free(E.ilo, n);
		arf_vec_free(E.ihi, n);
	}
	free(E.seen);
	free(E.dim);
	free(E.width0);
	return rc;
}
