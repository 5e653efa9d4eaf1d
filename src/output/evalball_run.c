/* evalball_run.c - running an evaluation plan (evalmp_plan.h) over arb
 * balls: every slot a ball allocated once for the run, each block's
 * operations in order, as evalmp_run.c does over exact values.  A ball
 * encloses the exact value of its slot, so the result encloses the
 * exact result.  Conditions are three-valued (true, false, not known).
 *
 * At a point a decision the balls do not make (a comparison of two
 * overlapping balls, the floor of a ball around an integer, a bound of a
 * sum, a sign before log2 or sqrt) is made exactly: the operation's
 * formula is evaluated by the walk of evalmp.c, the counters in scope
 * bound to their values.  The atoms with no ball form here (mva_mem,
 * maxplus, maxplusv, taskpath) are evaluated the same way, and so is
 * the closed form of a sum of more than SUM_CLOSED_FORM_TERMS terms.
 *
 * Over a box (names bound to balls of intervals) the same is done where
 * the operation's formula holds no name of the box; where it does, an
 * undecided if() takes the union of its branches, max/min/floor/ceil
 * enclose every outcome, and what cannot be enclosed that way (the
 * bounds of a sum, a sign, an atom above) ends the run asking for the
 * box to be split, or names why it cannot be done. */
#include <stdlib.h>
#include <string.h>

#include "output/evalball_private.h"
#include "output/evalops.h"
#include "graph/maxplus.h"
#include "base/util.h"

/* Three-valued truths of condition slots. */
enum { TV_FALSE = 0, TV_TRUE = 1, TV_UNKNOWN = 2 };

/* The state of a run. */
typedef struct brun {
	segc_ball_run *r;
	const segc_eplan *p;
	arb_ptr v;                /* per slot */
	unsigned char *tv;        /* per slot: the truth of a condition */
	segc_eplan_binder *bind;  /* the counters in scope, innermost last */
	size_t nbind, capbind;
	unsigned long terms, maxterms;
	segc_evaluator wev;       /* the walk, for exact decisions */
	int wev_ready;
	unsigned char *wide;      /* per name of the point: over a box, its
				   * ball is not one number */
} brun;

static int run_block(brun *b, const segc_eplan_block *blk);

/* The ball of the rational 'q' (see evalball_private.h). */
void segc_ball_set_q(arb_t x, const mpq_t q, slong prec)
{
	fmpz_t a, d;

	fmpz_init(a);
	fmpz_init(d);
	fmpz_set_mpz(a, mpq_numref(q));
	fmpz_set_mpz(d, mpq_denref(q));
	if (fmpz_is_one(d))
		arb_set_round_fmpz(x, a, prec);
	else
		arb_fmpz_div_fmpz(x, a, d, prec);
	fmpz_clear(a);
	fmpz_clear(d);
}

/* The ball of the value 'v' of the walk. */
static void set_val(arb_t x, const segc_val *v, slong prec)
{
	arf_t m;

	if (v->exact) {
		segc_ball_set_q(x, v->q, prec);
		return;
	}
	arf_init(m);
	arf_set_mpfr(m, v->f);
	arb_set_arf(x, m);
	arf_set_mpfr(m, v->err);
	arb_add_error_arf(x, m);
	arf_clear(m);
}

/* Ends the run over a box with 'code' and the reason 'why' ('name' its
 * %s). */
static int give_up(brun *b, int code, const char *why, const char *name)
{
	b->r->why = why;
	b->r->why_name = name;
	return code;
}

/* Ends a run that cannot go on over balls: at a point the exact plan
 * takes over; over a box 'why' says why. */
static int fallback(brun *b, const char *why, const char *name)
{
	return give_up(b, SEGC_BALL_FALLBACK, why, name);
}

/* A limit reached: at a point recorded at once ('fmt' with its %lu
 * 'value'), over a box said by 'why'. */
static int limit(brun *b, const char *fmt, unsigned long value)
{
	const segc_where *w = b->r->where;

	b->r->why_limit = 1;
	if (b->r->box)
		return fallback(b, "%s", "a limit (max_eval_terms) is reached");
	segc_error(b->r->ctx, SEGC_ERR_LIMIT, w ? w->file : NULL,
		w ? w->line : 0, w ? w->col : 0, fmt, value);
	b->r->recorded = 1;
	return SEGC_BALL_FALLBACK;
}

/* Counts 'n' more terms against max_eval_terms; past it the error
 * 'fmt' (its %lu the limit). */
static int charge(brun *b, unsigned long n, const char *fmt)
{
	if (!b->maxterms || (b->terms <= b->maxterms &&
	    n <= b->maxterms - b->terms)) {
		b->terms += n;
		return 0;
	}
	return limit(b, fmt, b->maxterms);
}

/* Sets up the walk of evalmp.c at the point, errors going to a scratch
 * context (the exact plan reports them when it reruns). */
static void walk_ready(brun *b)
{
	if (b->wev_ready)
		return;
	memset(&b->wev, 0, sizeof b->wev);
	b->wev.ctx = segc_ctx_new();
	*segc_ctx_limits(b->wev.ctx) = *segc_ctx_limits(b->r->ctx);
	b->wev.pt = b->r->pt;
	b->wev.where = b->r->where;
	b->wev.prec = (mpfr_prec_t)b->r->prec;
	segc_expr_map_init(&b->wev.memo);
	b->wev_ready = 1;
}

/* Releases the walk. */
static void walk_release(brun *b)
{
	segc_evaluator *ev = &b->wev;
	size_t i;

	if (!b->wev_ready)
		return;
	for (i = 0; i < ev->memo.cap; i++)
		if (ev->memo.keys && ev->memo.keys[i] && ev->memo.values[i]) {
			segc_val_clear(ev->memo.values[i]);
			free(ev->memo.values[i]);
		}
	segc_expr_map_clear(&ev->memo);
	while (ev->nkept)
		segc_expr_free(ev->kept[--ev->nkept]);
	free(ev->kept);
	while (ev->nbinders)
		segc_eval_pop_binder(ev);
	free(ev->binders);
	free(ev->undecided_what);
	segc_ctx_free(ev->ctx);
}

/* Pushes the counters in scope onto the walk with their values. */
static void walk_push(brun *b)
{
	size_t i;
	fmpz_t z;

	fmpz_init(z);
	for (i = 0; i < b->nbind; i++) {
		segc_eval_push_binder(&b->wev, b->bind[i].name);
		arb_get_unique_fmpz(z, &b->v[b->bind[i].slot]);
		fmpz_get_mpz(mpq_numref(b->wev.binders[b->wev.nbinders - 1].value),
			z);
	}
	fmpz_clear(z);
}

/* Pops what walk_push pushed. */
static void walk_pop(brun *b)
{
	while (b->wev.nbinders)
		segc_eval_pop_binder(&b->wev);
}

/* The code of a walk that returned 'rc': a limit it reached is
 * recorded at once, as the exact plan would record it after the same
 * work. */
static int walk_code(brun *b, int rc)
{
	size_t i;

	if (!rc)
		return SEGC_BALL_OK;
	if (b->wev.undecided) {
		b->wev.undecided = 0;
		return SEGC_BALL_PREC;
	}
	if (b->r->box || segc_ctx_status(b->wev.ctx) != SEGC_ERR_LIMIT)
		return fallback(b, "%s", "an error");
	for (i = 0; i < segc_ctx_n_diags(b->wev.ctx); i++) {
		const segc_diag *d = segc_ctx_diag(b->wev.ctx, i);

		segc_error(b->r->ctx, d->code, d->file, d->line, d->col, "%s",
			d->message);
	}
	b->r->recorded = 1;
	return SEGC_BALL_FALLBACK;
}

/* The exact value of 'e' at the point into 'v' (initialized here, to be
 * cleared by the caller); a SEGC_BALL_ code. */
static int walk(brun *b, const segc_expr *e, segc_val *v)
{
	int rc;

	walk_ready(b);
	segc_val_init(v, b->wev.prec);
	walk_push(b);
	b->wev.terms = b->terms;
	rc = segc_eval_node(&b->wev, e, v);
	b->terms = b->wev.terms;
	walk_pop(b);
	return walk_code(b, rc);
}

/* Non-zero when 'e' may be evaluated exactly at the point: at a point
 * always, over a box when no name of 'e' ranges over an interval (the
 * counters in scope are single numbers). */
static int exact_here(const brun *b, const segc_expr *e)
{
	const segc_point *pt = b->r->pt;
	size_t j;

	if (!b->r->box)
		return 1;
	for (j = 0; j < pt->n; j++)
		if (b->wide[j] && segc_expr_has_sym(e, pt->names[j]))
			return 0;
	return 1;
}

/* Slot 'dst' of 'in' set to the exact value of its formula at the
 * point: what the balls do not decide, or do not compute. */
static int walk_ins(brun *b, const segc_eplan_ins *in, const char *what)
{
	segc_val v;
	int rc;

	if (!exact_here(b, in->e))
		return fallback(b, "%s cannot be enclosed over intervals of "
			"parameters: give them single values", what);
	rc = walk(b, in->e, &v);
	if (!rc)
		set_val(&b->v[in->dst], &v, b->r->prec);
	segc_val_clear(&v);
	return rc;
}

/* A sum or product of the arguments of 'in'. */
static void run_nary(brun *b, const segc_eplan_ins *in, int mul)
{
	arb_ptr d = &b->v[in->dst];
	size_t i;

	arb_set(d, &b->v[in->arg[0]]);
	for (i = 1; i < in->nargs; i++)
		if (mul)
			arb_mul(d, d, &b->v[in->arg[i]], b->r->prec);
		else
			arb_add(d, d, &b->v[in->arg[i]], b->r->prec);
}

/* base ^ exponent, the exponent an exact integer within max_exponent. */
static int run_pow(brun *b, const segc_eplan_ins *in)
{
	arb_srcptr x = &b->v[in->arg[1]], base = &b->v[in->arg[0]];
	arb_ptr d = &b->v[in->dst];
	long lim = (long)segc_ctx_limits(b->r->ctx)->max_exponent;
	fmpz_t k;
	int rc = SEGC_BALL_OK;

	if (!arb_is_exact(x) || !arb_is_int(x))
		return !exact_here(b, in->e) ? fallback(b, "%s: an exponent "
			"is not an integer", "^") : walk_ins(b, in, "^");
	fmpz_init(k);
	arb_get_unique_fmpz(k, x);
	if (fmpz_cmp_si(k, lim) > 0 || fmpz_cmp_si(k, -lim) < 0)
		rc = fallback(b, "%s: an exponent exceeds the limit "
			"max_exponent", "^");
	else if (fmpz_sgn(k) < 0 && arb_contains_zero(base))
		rc = !exact_here(b, in->e) ? give_up(b, SEGC_BALL_SPLIT, "%s of a value "
			"that may be zero", "a negative power") :
			walk_ins(b, in, "^");
	else if (fmpz_sgn(k) < 0) {
		fmpz_neg(k, k);
		arb_pow_fmpz(d, base, k, b->r->prec);
		arb_inv(d, d, b->r->prec);
	} else
		arb_pow_fmpz(d, base, k, b->r->prec);
	if (rc == SEGC_BALL_FALLBACK && !b->r->box)
		b->r->why_limit = 1;
	fmpz_clear(k);
	return rc;
}

/* max or min of the arguments: arb encloses it whether or not the balls
 * overlap. */
static void run_extremum(brun *b, const segc_eplan_ins *in)
{
	arb_ptr d = &b->v[in->dst];
	size_t i;

	arb_set(d, &b->v[in->arg[0]]);
	for (i = 1; i < in->nargs; i++)
		if (in->aux > 0)
			arb_max(d, d, &b->v[in->arg[i]], b->r->prec);
		else
			arb_min(d, d, &b->v[in->arg[i]], b->r->prec);
}

/* A function of one number by its ball operation (evalops.c): where
 * the ball does not decide it, at a point exactly; over a box, the ball
 * of every outcome, or a split where the sign is not known. */
static int run_unary(brun *b, const segc_eplan_ins *in)
{
	const segc_eval_op *op = segc_eval_op_get((enum segc_builtin)in->aux);
	const char *f = segc_expr_name(in->e);

	if (!op)
		return walk_ins(b, in, f);
	switch (op->ball(segc_builtin_get((enum segc_builtin)in->aux),
	    &b->v[in->dst], &b->v[in->arg[0]], b->r->prec,
	    segc_ctx_limits(b->r->ctx)->max_exponent)) {
	case SEGC_OPB_OK:
		return SEGC_BALL_OK;
	case SEGC_OPB_WIDE:
		return exact_here(b, in->e) ? walk_ins(b, in, f) :
			SEGC_BALL_OK;
	case SEGC_OPB_SIGN:
		return !exact_here(b, in->e) ? give_up(b, SEGC_BALL_SPLIT,
			"%s of a value whose sign is not known", f) :
			walk_ins(b, in, f);
	default:
		return walk_ins(b, in, f);
	}
}

/* The truth of the relation 'op' between 'x' and 'y' over the balls. */
static int relation(const char *op, arb_srcptr x, arb_srcptr y)
{
	switch (op[0]) {
	case '<':
		if (op[1] ? arb_le(x, y) : arb_lt(x, y))
			return TV_TRUE;
		return (op[1] ? arb_gt(x, y) : arb_ge(x, y)) ? TV_FALSE :
			TV_UNKNOWN;
	case '>':
		if (op[1] ? arb_ge(x, y) : arb_gt(x, y))
			return TV_TRUE;
		return (op[1] ? arb_lt(x, y) : arb_le(x, y)) ? TV_FALSE :
			TV_UNKNOWN;
	case '=':
		return arb_eq(x, y) ? TV_TRUE : arb_ne(x, y) ? TV_FALSE :
			TV_UNKNOWN;
	default:
		return arb_ne(x, y) ? TV_TRUE : arb_eq(x, y) ? TV_FALSE :
			TV_UNKNOWN;
	}
}

/* A comparison: on the balls, else at a point exactly. */
static int run_rel(brun *b, const segc_eplan_ins *in)
{
	segc_val x, y;
	int t, rc;

	if (in->nargs != 2)
		return fallback(b, "malformed comparison%s", "");
	t = relation(segc_expr_name(in->e), &b->v[in->arg[0]],
		&b->v[in->arg[1]]);
	if (t != TV_UNKNOWN || !exact_here(b, in->e)) {
		b->tv[in->dst] = (unsigned char)t;
		return SEGC_BALL_OK;
	}
	/* walk() initialises the value it fills, also when it fails */
	rc = walk(b, segc_expr_arg(in->e, 0), &x);
	if (rc) {
		segc_val_clear(&x);
		return rc;
	}
	rc = walk(b, segc_expr_arg(in->e, 1), &y);
	if (!rc)
		rc = walk_code(b, segc_eval_relation_vals(&b->wev, in->e, &x,
			&y, &t));
	if (!rc)
		b->tv[in->dst] = (unsigned char)t;
	segc_val_clear(&x);
	segc_val_clear(&y);
	return rc;
}

/* and (aux 1) / or (aux 0) in three values: the operands after the
 * first run only while the result is open. */
static int run_logic(brun *b, const segc_eplan_ins *in)
{
	int t = b->tv[in->arg[0]], stop = in->aux ? TV_FALSE : TV_TRUE, u;
	size_t j;

	for (j = 0; j < in->nsub && t != stop; j++) {
		int rc = run_block(b, in->sub[j]);

		if (rc)
			return rc;
		u = b->tv[in->subslot[j]];
		if (u == stop)
			t = stop;
		else if (u == TV_UNKNOWN)
			t = TV_UNKNOWN;
	}
	b->tv[in->dst] = (unsigned char)t;
	return SEGC_BALL_OK;
}

/* if(): the branch taken, or over a box both and their union. */
static int run_if(brun *b, const segc_eplan_ins *in)
{
	int t = b->tv[in->arg[0]], rc;

	if (t != TV_UNKNOWN) {
		rc = run_block(b, in->sub[t ? 0 : 1]);
		if (!rc)
			arb_set(&b->v[in->dst], &b->v[in->subslot[t ? 0 : 1]]);
		return rc;
	}
	rc = run_block(b, in->sub[0]);
	if (!rc)
		rc = run_block(b, in->sub[1]);
	if (!rc)
		arb_union(&b->v[in->dst], &b->v[in->subslot[0]],
			&b->v[in->subslot[1]], b->r->prec);
	return rc;
}

/* A bound of the sum 'in' (argument 'k') into 'z': ceil (when 'up') or
 * floor of the ball, exactly at a point when the ball does not decide. */
static int sum_bound(brun *b, const segc_eplan_ins *in, int k, int up,
	fmpz_t z)
{
	arb_srcptr x = &b->v[in->arg[k]];
	arf_t lo, hi;
	segc_val v;
	mpz_t q;
	int same, rc;

	arf_init(lo);
	arf_init(hi);
	segc_ball_round_bounds(lo, hi, x, up, b->r->prec);
	same = arb_is_finite(x) && arf_equal(lo, hi);
	if (same)
		arf_get_fmpz(z, lo, ARF_RND_DOWN);
	arf_clear(lo);
	arf_clear(hi);
	if (same)
		return SEGC_BALL_OK;
	if (!exact_here(b, segc_expr_arg(in->e, k)))
		return give_up(b, SEGC_BALL_SPLIT, "the number of terms of the "
			"sum over '%s' varies over the intervals",
			segc_expr_name(in->e));
	rc = walk(b, segc_expr_arg(in->e, k), &v);
	if (!rc) {
		mpz_init(q);
		if (segc_val_round_to_z(q, &v, up))
			rc = SEGC_BALL_PREC;
		else
			fmpz_set_mpz(z, q);
		mpz_clear(q);
	}
	segc_val_clear(&v);
	return rc;
}

/* The closed form of the sum 'in' from 'lo' to 'hi', exactly by the walk
 * at a point: SEGC_BALL_OK, -1 when it has none, another code. */
static int closed_sum(brun *b, const segc_eplan_ins *in, const fmpz_t lo,
	const fmpz_t hi)
{
	segc_val v;
	mpz_t l, h;
	int rc;

	if (!exact_here(b, in->e))
		return -1;
	walk_ready(b);
	segc_val_init(&v, b->wev.prec);
	mpz_init(l);
	mpz_init(h);
	fmpz_get_mpz(l, lo);
	fmpz_get_mpz(h, hi);
	walk_push(b);
	b->wev.terms = b->terms;
	rc = segc_eval_closed_sum(&b->wev, in->e, l, h, &v);
	b->terms = b->wev.terms;
	walk_pop(b);
	rc = rc == 1 ? -1 : walk_code(b, rc);
	if (!rc)
		set_val(&b->v[in->dst], &v, b->r->prec);
	mpz_clear(l);
	mpz_clear(h);
	segc_val_clear(&v);
	return rc;
}

/* Pushes the counter of the sum 'in' in scope. */
static void push_counter(brun *b, const segc_eplan_ins *in)
{
	if (b->nbind == b->capbind) {
		b->capbind = b->capbind ? 2 * b->capbind : 8;
		b->bind = segc_xrealloc(b->bind,
			segc_xmul_size(b->capbind, sizeof *b->bind));
	}
	b->bind[b->nbind].name = segc_expr_name(in->e);
	b->bind[b->nbind].slot = in->binder;
	b->nbind++;
}

/* The terms lo .. hi of the sum 'in' added into its slot. */
static int sum_terms(brun *b, const segc_eplan_ins *in, const fmpz_t lo,
	const fmpz_t hi)
{
	arb_ptr out = &b->v[in->dst], bv = &b->v[in->binder];
	fmpz_t i;
	int rc = SEGC_BALL_OK;

	fmpz_init(i);
	push_counter(b, in);
	for (fmpz_set(i, lo); fmpz_cmp(i, hi) <= 0 && !rc;
	     fmpz_add_ui(i, i, 1)) {
		rc = charge(b, 1, "evaluating this formula takes more than "
			"%lu terms of sums (max_eval_terms)");
		arb_set_fmpz(bv, i);
		if (!rc && fmpz_equal(i, lo))
			rc = run_block(b, in->sub[0]);
		if (!rc)
			rc = run_block(b, in->sub[1]);
		if (!rc)
			arb_add(out, out, &b->v[in->subslot[0]], b->r->prec);
	}
	b->nbind--;
	fmpz_clear(i);
	return rc;
}

/* sum(i, lo, hi, body): body for i = ceil(lo) .. floor(hi), 0 when there
 * is none; at a point by its closed form when it has many terms. */
static int run_sum(brun *b, const segc_eplan_ins *in)
{
	fmpz_t lo, hi, n;
	int rc;

	fmpz_init(lo);
	fmpz_init(hi);
	fmpz_init(n);
	arb_zero(&b->v[in->dst]);
	rc = sum_bound(b, in, 0, 1, lo);
	if (!rc)
		rc = sum_bound(b, in, 1, 0, hi);
	if (rc)
		goto out;
	fmpz_sub(n, hi, lo);
	if (fmpz_sgn(n) < 0)
		goto out;
	if (fmpz_cmp_si(n, SUM_CLOSED_FORM_TERMS) > 0) {
		rc = closed_sum(b, in, lo, hi);
		if (rc >= 0)
			goto out;
		rc = SEGC_BALL_OK;
	}
	if (fmpz_cmp_si(n, MAX_SUM_TERMS) > 0) {
		b->r->why_limit = 1;
		rc = fallback(b, "the sum over '%s' has too many terms to "
			"evaluate one by one", segc_expr_name(in->e));
		goto out;
	}
	rc = sum_terms(b, in, lo, hi);
out:
	fmpz_clear(lo);
	fmpz_clear(hi);
	fmpz_clear(n);
	return rc;
}

/* mva_mem(p, a, c) into 'out' over the balls 'a', 'c': R(1) = c,
 * R(k+1) = (1 + k R(k) / (a + R(k))) c. */
static int mva_balls(brun *b, const segc_eplan_ins *in, arb_ptr out,
	ulong np, arb_srcptr a, arb_srcptr c)
{
	arb_t t;
	ulong k;
	int rc = SEGC_BALL_OK;

	arb_init(t);
	arb_set(out, c);
	for (k = 1; k < np && !rc; k++) {
		arb_add(t, a, out, b->r->prec);
		if (arb_contains_zero(t)) {
			rc = !exact_here(b, in->e) ? give_up(b, SEGC_BALL_SPLIT,
				"a divisor of %s that may be zero", "mva_mem") :
				walk_ins(b, in, "mva_mem");
			break;
		}
		arb_mul_ui(out, out, k, b->r->prec);
		arb_div(out, out, t, b->r->prec);
		arb_add_ui(out, out, 1, b->r->prec);
		arb_mul(out, out, c, b->r->prec);
	}
	arb_clear(t);
	return rc;
}

/* mva_mem(p, a, c) over balls of a box where a >= 0 and c > 0: R(k) is
 * then nonincreasing in a and nondecreasing in c (by induction on k:
 * R/(a + R) grows with R and falls with a), so it lies between its
 * values at (a's upper end, c's lower end) and (a's lower end, c's
 * upper end), each computed over a ball of one point; the interval
 * evaluation of the recurrence itself would count a and R(k) in both
 * the numerator and the divisor as varying independently. */
static int mva_monotone(brun *b, const segc_eplan_ins *in, ulong np,
	arb_srcptr a, arb_srcptr c)
{
	arb_t a1, c1, lo, hi;
	arf_t e;
	int rc;

	arb_init(a1);
	arb_init(c1);
	arb_init(lo);
	arb_init(hi);
	arf_init(e);
	arb_get_ubound_arf(e, a, b->r->prec);
	arb_set_arf(a1, e);
	arb_get_lbound_arf(e, c, b->r->prec);
	arb_set_arf(c1, e);
	rc = mva_balls(b, in, lo, np, a1, c1);
	arb_get_lbound_arf(e, a, b->r->prec);
	arb_set_arf(a1, e);
	arb_get_ubound_arf(e, c, b->r->prec);
	arb_set_arf(c1, e);
	if (!rc)
		rc = mva_balls(b, in, hi, np, a1, c1);
	if (!rc)
		arb_union(&b->v[in->dst], lo, hi, b->r->prec);
	arb_clear(a1);
	arb_clear(c1);
	arb_clear(lo);
	arb_clear(hi);
	arf_clear(e);
	return rc;
}

/* mva_mem(p, a, b): R(1) = b, R(k+1) = (1 + k R(k) / (a + R(k))) b, p
 * an exact integer within max_mva_p. */
static int run_mva(brun *b, const segc_eplan_ins *in)
{
	arb_ptr out = &b->v[in->dst];
	arb_srcptr pv, a, c;
	fmpz_t pz;
	ulong np;

	if (in->nargs != 3)
		return walk_ins(b, in, "mva_mem");
	pv = &b->v[in->arg[0]];
	a = &b->v[in->arg[1]];
	c = &b->v[in->arg[2]];
	if (!arb_is_exact(pv) || !arb_is_int(pv) || !arb_is_positive(pv))
		return !exact_here(b, in->e) ? give_up(b, SEGC_BALL_SPLIT,
			"%s of a count that varies over the intervals",
			"mva_mem") : walk_ins(b, in, "mva_mem");
	fmpz_init(pz);
	arb_get_unique_fmpz(pz, pv);
	if (fmpz_cmp_ui(pz, segc_ctx_limits(b->r->ctx)->max_mva_p) > 0) {
		fmpz_clear(pz);
		return walk_ins(b, in, "mva_mem");
	}
	np = fmpz_get_ui(pz);
	fmpz_clear(pz);
	if (b->r->box && np > 1 && arb_is_nonnegative(a) &&
	    arb_is_positive(c))
		return mva_monotone(b, in, np, a, c);
	return mva_balls(b, in, out, np, a, c);
}

/* The finish times of a recurrence maxplusv being run over balls. */
typedef struct bmpv {
	segc_maxplus_sys s;
	arb_ptr fin;              /* ring x m */
	ulong ring;
} bmpv;

/* The finish time of node 'v' in iteration 'i'. */
static arb_ptr fin_at(bmpv *M, ulong i, size_t v)
{
	return &M->fin[(i % M->ring) * M->s.m + v];
}

/* Iteration 'i' of the recurrence 'in' over the costs in its slots:
 * fin(i, v) = max(0, fin(i - d, u) + c over the arcs u -> v of
 * distance d < i) + cost(v). */
static void mpv_step(brun *b, const segc_eplan_ins *in, bmpv *M, ulong i,
	arb_t best, arb_t t)
{
	size_t v, a = 0;

	for (v = 0; v < M->s.m; v++) {
		arb_zero(best);
		for (; a < M->s.k && M->s.to[a] == v; a++) {
			if (M->s.dist[a] >= i)
				continue;
			arb_add(t, fin_at(M, i - M->s.dist[a], M->s.from[a]),
				&b->v[in->arg[1 + M->s.m + a]], b->r->prec);
			arb_max(best, best, t, b->r->prec);
		}
		arb_add(fin_at(M, i, v), best, &b->v[in->arg[1 + v]],
			b->r->prec);
	}
}

/* maxplusv(i, n, ...): the costs of every iteration from its body, the
 * finish times in balls; the count an exact integer. */
static int run_maxplusv(brun *b, const segc_eplan_ins *in)
{
	arb_srcptr nv = &b->v[in->arg[0]];
	arb_ptr out = &b->v[in->dst];
	fmpz_t nz;
	bmpv M;
	arb_t best, t;
	ulong n, i;
	int rc = SEGC_BALL_OK;

	if (!arb_is_exact(nv) || !arb_is_int(nv) || arb_is_negative(nv))
		return !exact_here(b, in->e) ? give_up(b, SEGC_BALL_SPLIT, "the count of "
			"an overlapped loop varies over the intervals%s", "") :
			walk_ins(b, in, "maxplusv");
	fmpz_init(nz);
	arb_get_unique_fmpz(nz, nv);
	/* more iterations than the limit leaves: the exact plan says so at
	 * once */
	i = !fmpz_abs_fits_ui(nz) || (b->maxterms &&
		fmpz_cmp_ui(nz, b->maxterms - (b->terms < b->maxterms ?
			b->terms : b->maxterms)) > 0);
	n = i ? 0 : fmpz_get_ui(nz);
	fmpz_clear(nz);
	if (i)
		return limit(b, "an overlapped loop whose costs depend on its "
			"counter takes more iterations than the limit of %lu "
			"(max_eval_terms)", b->maxterms);
	if (segc_maxplus_decode_graph(in->e, &M.s)) {
		segc_maxplus_clear(&M.s);
		return walk_ins(b, in, "maxplusv");
	}
	M.ring = M.s.D + 1;
	M.fin = _arb_vec_init((slong)(M.ring * M.s.m + 1));
	arb_init(best);
	arb_init(t);
	arb_zero(out);
	push_counter(b, in);
	b->bind[b->nbind - 1].name = segc_expr_binder(in->e);
	for (i = 1; i <= n && !rc; i++) {
		rc = charge(b, 1, "an overlapped loop whose costs depend on "
			"its counter takes more iterations than the limit of "
			"%lu allows (max_eval_terms)");
		arb_set_ui(&b->v[in->binder], i);
		if (!rc && i == 1)
			rc = run_block(b, in->sub[0]);
		if (!rc)
			rc = run_block(b, in->sub[1]);
		if (!rc)
			mpv_step(b, in, &M, i, best, t);
	}
	b->nbind--;
	if (!rc && n)
		arb_set(out, fin_at(&M, n, M.s.m - 1));
	arb_clear(best);
	arb_clear(t);
	_arb_vec_clear(M.fin, (slong)(M.ring * M.s.m + 1));
	segc_maxplus_clear(&M.s);
	return rc;
}

/* Runs the operation 'in'. */
static int run_ins(brun *b, const segc_eplan_ins *in)
{
	switch (in->op) {
	case SEGC_EPO_ADD:
		run_nary(b, in, 0);
		return SEGC_BALL_OK;
	case SEGC_EPO_MUL:
		run_nary(b, in, 1);
		return SEGC_BALL_OK;
	case SEGC_EPO_POW:
		return run_pow(b, in);
	case SEGC_EPO_EXTREMUM:
		run_extremum(b, in);
		return SEGC_BALL_OK;
	case SEGC_EPO_UNARY:
		return run_unary(b, in);
	case SEGC_EPO_MVA:
		return run_mva(b, in);
	case SEGC_EPO_MAXPLUSV:
		return run_maxplusv(b, in);
	case SEGC_EPO_MAXPLUS: case SEGC_EPO_TASKPATH:
		return walk_ins(b, in, segc_expr_name(in->e));
	case SEGC_EPO_REL:
		return run_rel(b, in);
	case SEGC_EPO_NOT:
		b->tv[in->dst] = b->tv[in->arg[0]] == TV_UNKNOWN ? TV_UNKNOWN :
			!b->tv[in->arg[0]];
		return SEGC_BALL_OK;
	case SEGC_EPO_LOGIC:
		return run_logic(b, in);
	case SEGC_EPO_IF:
		return run_if(b, in);
	case SEGC_EPO_SUM:
		return run_sum(b, in);
	case SEGC_EPO_FAIL:
		return fallback(b, "%s", "an error");
	}
	return fallback(b, "unknown operation%s", "");
}

/* Runs the operations of 'blk' in order. */
static int run_block(brun *b, const segc_eplan_block *blk)
{
	size_t i;
	int rc;

	for (i = 0; i < blk->n; i++)
		if ((rc = run_ins(b, &blk->ins[i])) != 0)
			return rc;
	return SEGC_BALL_OK;
}

/* The ball of the name 'name' of the point: over a box the box's ball. */
static void set_point(brun *b, arb_ptr x, const char *name)
{
	const segc_point *pt = b->r->pt;
	size_t j;

	for (j = 0; j < pt->n; j++)
		if (!strcmp(pt->names[j], name)) {
			if (b->r->box)
				arb_set(x, &b->r->box[j]);
			else
				segc_ball_set_q(x, pt->values[j], b->r->prec);
			return;
		}
}

/* Runs the plan over balls (see evalball_private.h). */
int segc_ball_plan_run(segc_ball_run *r, arb_ptr out)
{
	const segc_eplan *p = r->p;
	brun b;
	size_t i;
	int rc;

	memset(&b, 0, sizeof b);
	b.r = r;
	b.p = p;
	b.maxterms = segc_ctx_limits(r->ctx)->max_eval_terms;
	b.v = _arb_vec_init((slong)p->nslots + 1);
	b.tv = segc_xcalloc(p->nslots + 1, 1);
	b.wide = segc_xcalloc(r->pt->n + 1, 1);
	for (i = 0; r->box && i < r->pt->n; i++)
		b.wide[i] = !arb_is_exact(&r->box[i]);
	r->why = NULL;
	r->why_name = NULL;
	r->why_limit = 0;
	r->recorded = 0;
	for (i = 0; i < p->nslots; i++) {
		const segc_eplan_slot *s = &p->slot[i];

		if (s->kind == SEGC_EPS_CONST)
			segc_ball_set_q(&b.v[i], segc_expr_value(s->e), r->prec);
		else if (s->kind == SEGC_EPS_POINT)
			set_point(&b, &b.v[i], segc_expr_name(s->e));
	}
	rc = run_block(&b, p->root);
	for (i = 0; i < p->nresults && !rc; i++)
		arb_set(&out[i], &b.v[p->result[i]]);
	walk_release(&b);
	_arb_vec_clear(b.v, (slong)p->nslots + 1);
	free(b.tv);
	free(b.wide);
	free(b.bind);
	return rc;
}
