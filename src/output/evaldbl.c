/* evaldbl.c - running an evaluation plan (evalmp_plan.h) over doubles
 * with a certified error: every slot a midpoint and a radius, both
 * doubles, such that the exact value of the slot lies within the radius
 * of the midpoint.  The cheapest of the plan's arithmetics, for the
 * commands that need a few digits at many points (the rows of 'eval'):
 * when both ends of a result print alike, so does the exact value.
 *
 * Each operation adds to the radius what its rounding may have lost: the
 * exact error of a sum or product (TwoSum, fma), a bound of the error of
 * an inverse, sqrt and log2, and a factor slightly above one for the
 * rounding of the radius itself.  max and min are 1-Lipschitz and lose
 * nothing.  A value too small or too large for these bounds (below
 * 2^-900 or above 2^900 in magnitude), a decision the balls do not make
 * (overlapping comparison, floor or ceil of a ball around an integer, a
 * bound of a sum), a limit, or an atom with no form here (maxplus or
 * taskpath of an argument known only to a radius, a sum of more terms
 * than the exact walk would sum one by one, unless the pieces of its
 * body give it in closed form) ends the run with nothing recorded: the
 * caller evaluates the formula another way, which gives the value or
 * the error.  maxplus and taskpath of arguments kept exactly are the
 * graph's exact operations, their value then rounded to a ball.  A sum
 * whose body the plan split into pieces (evalmp_pieces.h) is summed in
 * closed form, piece by piece, where the balls decide where each piece
 * changes (evaldbl_pieces.c); else term by term.
 *
 * The library links without libm: the few functions needed are written
 * in dball.h (the next double, floor, the exact error of a product) and
 * here (sqrt and log2 correctly rounded by MPFR). */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <mpfr.h>

#include "output/dball.h"
#include "output/evaldbl_private.h"
#include "output/evalops.h"
#include "graph/maxplus.h"
#include "graph/taskpath.h"
#include "base/util.h"

/* Three-valued truths of condition slots. */
enum { TV_FALSE = 0, TV_TRUE = 1, TV_UNKNOWN = 2 };

/* The state of a run. */
typedef struct drun {
	const segc_eplan *p;
	const segc_point *pt;
	dball *v;                 /* per slot */
	unsigned char *tv;        /* per slot: the truth of a condition */
	unsigned long terms, maxterms;
	unsigned long max_exponent, max_mva_p;
	int rational;             /* decline what is not rational */
} drun;

static int run_block(drun *d, const segc_eplan_block *blk);

/* 'x' is a power of two (x > 0). */
static int power_of_two(double x)
{
	uint64_t b;

	memcpy(&b, &x, sizeof b);
	return (b & 0x000fffffffffffffULL) == 0 && (b >> 52) != 0;
}

/* log2 (when 'log') or sqrt of 'x' > 0, correctly rounded. */
static double mp_fn(double x, int log)
{
	mpfr_t t;
	double r;

	mpfr_init2(t, 53);
	mpfr_set_d(t, x, MPFR_RNDN);
	if (log)
		mpfr_log2(t, t, MPFR_RNDN);
	else
		mpfr_sqrt(t, t, MPFR_RNDN);
	r = mpfr_get_d(t, MPFR_RNDN);
	mpfr_clear(t);
	return r;
}

/* 2^x, rounded up (when 'up') or to nearest (MPFR). */
static double mp_exp2(double x, int up)
{
	mpfr_t t;
	double r;

	mpfr_init2(t, 53);
	mpfr_set_d(t, x, MPFR_RNDN);
	mpfr_exp2(t, t, up ? MPFR_RNDU : MPFR_RNDN);
	r = mpfr_get_d(t, up ? MPFR_RNDU : MPFR_RNDN);
	mpfr_clear(t);
	return r;
}

/* The ball of the rational 'q': exact when it is a double. */
static int set_q(dball *o, const mpq_t q)
{
	mpq_t t;
	int same;

	if (mpz_sizeinbase(mpq_numref(q), 2) < 62 &&
	    mpz_sizeinbase(mpq_denref(q), 2) < 62) {
		db_set_frac(o, mpz_get_si(mpq_numref(q)),
			mpz_get_si(mpq_denref(q)));
		return db_check(o);
	}
	o->qd = 0;
	o->m = mpq_get_d(q);
	o->r = 0;
	if ((o->m == 0 && mpq_sgn(q)) || db_check(o))
		return DB_GIVE_UP;
	mpq_init(t);
	mpq_set_d(t, o->m);
	same = mpq_equal(t, q);
	mpq_clear(t);
	/* mpq_get_d truncates: the error is below one ulp */
	o->r = same ? 0 : dabs(o->m) * 0x1p-51;
	return db_check(o);
}

/* Counts one more term against max_eval_terms. */
static int charge(drun *d)
{
	if (d->maxterms && d->terms >= d->maxterms)
		return DB_GIVE_UP;
	d->terms++;
	return DB_OK;
}

/* A sum or product of the arguments of 'in' (written into the
 * destination slot as they are combined: no argument is its own
 * destination). */
static int run_nary(drun *d, const segc_eplan_ins *in, int is_mul)
{
	dball *acc = &d->v[in->dst];
	const size_t *arg = in->arg;
	size_t i, n = in->nargs;

	if (n == 1) {
		*acc = d->v[arg[0]];
		return DB_OK;
	}
	if (is_mul) {
		if (db_mul(acc, &d->v[arg[0]], &d->v[arg[1]]))
			return DB_GIVE_UP;
		for (i = 2; i < n; i++)
			if (db_mul(acc, acc, &d->v[arg[i]]))
				return DB_GIVE_UP;
	} else {
		if (db_add(acc, &d->v[arg[0]], &d->v[arg[1]]))
			return DB_GIVE_UP;
		for (i = 2; i < n; i++)
			if (db_add(acc, acc, &d->v[arg[i]]))
				return DB_GIVE_UP;
	}
	return DB_OK;
}

/* base ^ k for an exact integer exponent k within max_exponent and 64. */
static int run_pow(drun *d, const segc_eplan_ins *in)
{
	const dball *x = &d->v[in->arg[1]];
	dball base = d->v[in->arg[0]], acc = dint(1);
	long k;

	if (x->r != 0 || dabs(x->m) > 64 || x->m != dfloor(x->m) ||
	    dabs(x->m) > (double)d->max_exponent)
		return DB_GIVE_UP;
	for (k = labs((long)x->m); k; k >>= 1) {
		if ((k & 1) && db_mul(&acc, &acc, &base))
			return DB_GIVE_UP;
		if (k > 1 && db_mul(&base, &base, &base))
			return DB_GIVE_UP;
	}
	if (x->m < 0 && db_inv(&acc, &acc))
		return DB_GIVE_UP;
	d->v[in->dst] = acc;
	return DB_OK;
}

/* acc = max (when 'up') or min of acc and y: exact between small
 * rationals, else within the larger radius of the extremum of the
 * midpoints (max and min are 1-Lipschitz). */
static void extremum(dball *acc, const dball *y, int up)
{
	if (acc->qd && y->qd) {
		if (up ? db_cmp_frac(y, acc) > 0 : db_cmp_frac(y, acc) < 0)
			*acc = *y;
		return;
	}
	if (up ? y->m > acc->m : y->m < acc->m)
		acc->m = y->m;
	if (y->r > acc->r)
		acc->r = y->r;
	acc->qd = 0;
}

/* max or min: within the larger radius of the extremum of the
 * midpoints. */
static int run_extremum(drun *d, const segc_eplan_ins *in)
{
	dball acc = d->v[in->arg[0]];
	size_t i;

	for (i = 1; i < in->nargs; i++)
		extremum(&acc, &d->v[in->arg[i]], in->aux > 0);
	d->v[in->dst] = acc;
	return DB_OK;
}

/* ceil or floor ('b->dir') of 'x': when it is the same over the ball
 * and a double integer. */
int segc_dbl_round(const segc_builtin_info *b, dball *o, const dball *x)
{
	double z;

	if (db_round_to(&z, x, b->dir > 0))
		return DB_GIVE_UP;
	*o = dint(z);
	return DB_OK;
}

/* sqrt of x >= 0 (sqrt is correctly rounded). */
int segc_dbl_sqrt(const segc_builtin_info *b, dball *o, const dball *x)
{
	double s;

	(void)b;
	if (x->m < 0 || x->r >= x->m) {
		if (x->m == 0 && x->r == 0) {
			*o = dint(0);
			return DB_OK;
		}
		return DB_GIVE_UP;
	}
	s = mp_fn(x->m, 0);
	/* |sqrt(v) - sqrt(m)| <= r / sqrt(m); rounding half an ulp */
	o->r = db_widen(x->r / s * RAD_UP + s * 0x1p-52);
	o->m = s;
	o->qd = 0;
	if (x->r == 0 && s * s == x->m && db_prod_error(s, s, s * s) == 0)
		*o = x->qd == 1 ? dint(s) : (dball){ s, 0, 0, 0 };
	return db_check(o);
}

/* log2 of x > 0: exact of a power of two; else the bound of the
 * derivative and half an ulp of rounding (a little more). */
int segc_dbl_log2(const segc_builtin_info *b, dball *o, const dball *x)
{
	double lo = (x->m - x->r) * (1 - 0x1p-50), l;
	int ex;

	(void)b;
	if (!(x->m > 0) || !(lo > 0))
		return DB_GIVE_UP;
	if (x->r == 0 && power_of_two(x->m)) {
		uint64_t bits;

		memcpy(&bits, &x->m, sizeof bits);
		ex = (int)(bits >> 52) - 1023;
		*o = dint((double)ex);
		return DB_OK;
	}
	l = mp_fn(x->m, 1);
	o->r = db_widen(x->r / lo * 1.4426950408889634 * RAD_UP +
		dabs(l) * 0x1p-52);
	o->m = l;
	o->qd = 0;
	return db_check(o);
}

/* 2^x: exactly of a small integer x (a small rational kept exactly);
 * else 2^m correctly rounded and |2^v - 2^m| <= 2^(m + r) ln 2 r, with
 * ln 2 < 0.7, and half an ulp. */
int segc_dbl_exp2(const segc_builtin_info *b, dball *o, const dball *x)
{
	double hi, e;

	(void)b;
	if (x->qd == 1 && x->qn >= -62 && x->qn <= 62) {
		if (x->qn >= 0)
			*o = dint((double)((int64_t)1 << x->qn));
		else
			*o = (dball){ 1.0 / (double)((int64_t)1 << -x->qn), 0,
				1, (int64_t)1 << -x->qn };
		return DB_OK;
	}
	if (!(dabs(x->m) + x->r < 800))
		return DB_GIVE_UP;
	hi = mp_exp2(x->m + x->r * RAD_UP + dabs(x->m) * 0x1p-52, 1);
	e = mp_exp2(x->m, 0);
	o->r = db_widen(hi * x->r * 0.7 * RAD_UP + e * 0x1p-52);
	o->m = e;
	o->qd = 0;
	return db_check(o);
}

/* A function of one number by its double operation (evalops.c); with
 * 'rational', declined unless the value is a small rational. */
static int run_unary(drun *d, const segc_eplan_ins *in)
{
	const segc_eval_op *op = segc_eval_op_get((enum segc_builtin)in->aux);
	dball *o = &d->v[in->dst];

	if (!op || !op->dbl)
		return DB_GIVE_UP;
	return op->dbl(segc_builtin_get((enum segc_builtin)in->aux), o,
		&d->v[in->arg[0]]) || (d->rational && !o->qd);
}

/* The truth of the relation 'op' between 'x' and 'y', TV_UNKNOWN when
 * the balls do not decide it. */
static int relation(const char *op, const dball *x, const dball *y)
{
	double xl = db_lower(x), xh = db_upper(x), yl = db_lower(y), yh = db_upper(y);
	int exact = x->r == 0 && y->r == 0;

	if (x->qd && y->qd) {
		/* the same bounds, exact: a single point each */
		int c = db_cmp_frac(x, y);

		xl = xh = c;
		yl = yh = 0;
		exact = 1;
	}

	switch (op[0]) {
	case '<':
		if (op[1] ? xh <= yl : xh < yl)
			return TV_TRUE;
		return (op[1] ? xl > yh : xl >= yh) ? TV_FALSE : TV_UNKNOWN;
	case '>':
		if (op[1] ? xl >= yh : xl > yh)
			return TV_TRUE;
		return (op[1] ? xh < yl : xh <= yl) ? TV_FALSE : TV_UNKNOWN;
	case '=':
		if (exact)
			return xl == yl && xh == yh;
		return xh < yl || yh < xl ? TV_FALSE : TV_UNKNOWN;
	default:
		if (exact)
			return xl != yl || xh != yh;
		return xh < yl || yh < xl ? TV_TRUE : TV_UNKNOWN;
	}
}

/* A comparison, decided by the balls or given up. */
static int run_rel(drun *d, const segc_eplan_ins *in)
{
	int t;

	if (in->nargs != 2)
		return DB_GIVE_UP;
	t = relation(segc_expr_name(in->e), &d->v[in->arg[0]],
		&d->v[in->arg[1]]);
	d->tv[in->dst] = (unsigned char)t;
	return DB_OK;
}

/* and (aux 1) / or (aux 0) in three values, lazily. */
static int run_logic(drun *d, const segc_eplan_ins *in)
{
	int t = d->tv[in->arg[0]], stop = in->aux ? TV_FALSE : TV_TRUE, u;
	size_t j;

	for (j = 0; j < in->nsub && t != stop; j++) {
		if (run_block(d, in->sub[j]))
			return DB_GIVE_UP;
		u = d->tv[in->subslot[j]];
		if (u == stop)
			t = stop;
		else if (u == TV_UNKNOWN)
			t = TV_UNKNOWN;
	}
	d->tv[in->dst] = (unsigned char)t;
	return DB_OK;
}

/* if(): the branch taken; an open condition gives up. */
static int run_if(drun *d, const segc_eplan_ins *in)
{
	int t = d->tv[in->arg[0]];

	if (t == TV_UNKNOWN || run_block(d, in->sub[t ? 0 : 1]))
		return DB_GIVE_UP;
	d->v[in->dst] = d->v[in->subslot[t ? 0 : 1]];
	return DB_OK;
}

/* The sum 'in' over j = lo .. hi (lo <= hi, integers below 2^52 in
 * magnitude, as db_round_to gives them) from the pieces of its body, once
 * its preheader has computed their coefficients: DB_OK, DB_GIVE_UP, or
 * DB_TERMWISE (nothing recorded). */
static int run_pieces(drun *d, const segc_eplan_ins *in, double lo,
	double hi)
{
	d->v[in->binder] = dint(lo);
	if (charge(d) || run_block(d, in->sub[0]))
		return DB_GIVE_UP;
	return segc_dbl_sum_pieces(in, d->v, lo, hi, &d->v[in->dst]);
}

/* sum(i, lo, hi, body): from the pieces of its body when it has them
 * and the balls decide where they change, else term by term, when it
 * has few enough terms that the exact walk sums it so too. */
static int run_sum(drun *d, const segc_eplan_ins *in)
{
	dball acc = dint(0), *bv = &d->v[in->binder];
	double lo, hi, i;
	int rc, pre = 0;

	if (db_round_to(&lo, &d->v[in->arg[0]], 1) ||
	    db_round_to(&hi, &d->v[in->arg[1]], 0))
		return DB_GIVE_UP;
	if (in->npieces && lo <= hi) {
		rc = run_pieces(d, in, lo, hi);
		if (rc != DB_TERMWISE)
			return rc;
		pre = 1;  /* the preheader ran: term by term from here */
	}
	if (hi - lo > SUM_CLOSED_FORM_TERMS)
		return DB_GIVE_UP;
	for (i = lo; i <= hi; i++) {
		*bv = dint(i);
		if (charge(d) ||
		    (i == lo && !pre && run_block(d, in->sub[0])) ||
		    run_block(d, in->sub[1]) ||
		    db_add(&acc, &acc, &d->v[in->subslot[0]]))
			return DB_GIVE_UP;
	}
	d->v[in->dst] = acc;
	return DB_OK;
}

/* mva_mem(p, a, c): R(1) = c, R(k+1) = (1 + k R(k) / (a + R(k))) c. */
static int run_mva(drun *d, const segc_eplan_ins *in)
{
	const dball *pv, *a, *c;
	dball out, t, kb, one = dint(1);
	double k;

	if (in->nargs != 3)
		return DB_GIVE_UP;
	pv = &d->v[in->arg[0]];
	a = &d->v[in->arg[1]];
	c = &d->v[in->arg[2]];
	if (pv->r != 0 || pv->m < 1 || pv->m > 1e6 ||
	    pv->m != dfloor(pv->m) || pv->m > (double)d->max_mva_p)
		return DB_GIVE_UP;
	out = *c;
	for (k = 1; k < pv->m; k++) {
		kb = dint(k);
		if (db_add(&t, a, &out) || db_inv(&t, &t) || db_mul(&out, &out, &kb) ||
		    db_mul(&out, &out, &t) || db_add(&out, &out, &one) ||
		    db_mul(&out, &out, c))
			return DB_GIVE_UP;
	}
	d->v[in->dst] = out;
	return DB_OK;
}

/* Iteration 'i' of the recurrence 'in' (see evalball_run.c): fin(i, v)
 * = max(0, fin(i - d, u) + c over the arcs u -> v of distance d < i) +
 * cost(v); 'fin' a ring of D + 1 iterations. */
static int mpv_step(drun *d, const segc_eplan_ins *in,
	const segc_maxplus_sys *s, dball *fin, unsigned long ring,
	unsigned long i)
{
	size_t v, a = 0;
	dball best, t;

	for (v = 0; v < s->m; v++) {
		best = dint(0);
		for (; a < s->k && s->to[a] == v; a++) {
			if (s->dist[a] >= i)
				continue;
			if (db_add(&t, &fin[((i - s->dist[a]) % ring) * s->m +
			    s->from[a]], &d->v[in->arg[1 + s->m + a]]))
				return DB_GIVE_UP;
			extremum(&best, &t, 1);
		}
		if (db_add(&fin[(i % ring) * s->m + v], &best,
		    &d->v[in->arg[1 + v]]))
			return DB_GIVE_UP;
	}
	return DB_OK;
}

/* maxplusv(i, n, ...): the costs of every iteration from its body. */
static int run_maxplusv(drun *d, const segc_eplan_ins *in)
{
	const dball *nv = &d->v[in->arg[0]];
	segc_maxplus_sys s;
	dball *fin = NULL;
	unsigned long n, i, ring;
	int rc = DB_OK;

	if (nv->r != 0 || nv->m < 0 || nv->m > EXACT_INT ||
	    nv->m != dfloor(nv->m))
		return DB_GIVE_UP;
	n = (unsigned long)nv->m;
	if (d->maxterms && n > d->maxterms - d->terms)
		return DB_GIVE_UP;
	if (segc_maxplus_decode_graph(in->e, &s)) {
		segc_maxplus_clear(&s);
		return DB_GIVE_UP;
	}
	ring = s.D + 1;
	fin = segc_xcalloc(segc_xmul_size(ring, s.m) + 1, sizeof *fin);
	for (i = 1; i <= n && !rc; i++) {
		d->terms++;
		d->v[in->binder] = dint((double)i);
		rc = (i == 1 && run_block(d, in->sub[0])) ||
			run_block(d, in->sub[1]) ||
			mpv_step(d, in, &s, fin, ring, i);
	}
	d->v[in->dst] = !rc && n ? fin[(n % ring) * s.m + s.m - 1] :
		dint(0);
	free(fin);
	segc_maxplus_clear(&s);
	return rc ? DB_GIVE_UP : DB_OK;
}

/* The most work (iterations, instances and words) an atom may take
 * here: one that needs more is declined before much is spent, so that
 * the exact plan, which then computes it or reports its limit, does not
 * repeat a long run. */
#define DBL_ATOM_WORK 65536UL

/* maxplus(...) or taskpath(...) of small exact rationals: the graph's
 * exact operation (maxplus.c, taskpath.c) within the terms left and
 * DBL_ATOM_WORK, its value as a ball; an argument known only to a
 * radius, an error or a limit is declined (the exact plan reports it). */
static int run_atom(drun *d, const segc_eplan_ins *in)
{
	unsigned long left = d->maxterms ? d->maxterms - d->terms : ULONG_MAX,
		steps = 0;
	size_t i, n = in->nargs;
	const char *why = NULL;
	char *twhy = NULL;
	mpq_t *q, out;
	int rc;

	if (left > DBL_ATOM_WORK)
		left = DBL_ATOM_WORK;
	for (i = 0; i < n; i++)
		if (d->v[in->arg[i]].qd <= 0)
			return DB_GIVE_UP;
	q = segc_xmalloc(segc_xmul_size(n + 1, sizeof *q));
	for (i = 0; i < n; i++) {
		const dball *x = &d->v[in->arg[i]];

		mpq_init(q[i]);
		mpq_set_si(q[i], (long)x->qn, (unsigned long)x->qd);
		mpq_canonicalize(q[i]);
	}
	mpq_init(out);
	if (in->op == SEGC_EPO_TASKPATH)
		rc = segc_taskpath_eval(out, n, (const mpq_t *)q, left, &twhy);
	else
		rc = segc_maxplus_eval_steps(out, n, (const mpq_t *)q, left,
			&steps, &why);
	if (!rc && steps > left)
		rc = 1;
	if (!rc) {
		d->terms += steps;
		rc = set_q(&d->v[in->dst], out);
	}
	free(twhy);
	mpq_clear(out);
	for (i = 0; i < n; i++)
		mpq_clear(q[i]);
	free(q);
	return rc ? DB_GIVE_UP : DB_OK;
}

/* Runs the operation 'in', one of those that hold blocks or are rare
 * (kept out of run_ins, so that the frequent ones run without the
 * frame a recursive function needs). */
static int run_other(drun *d, const segc_eplan_ins *in)
{
	switch (in->op) {
	case SEGC_EPO_ADD:
		return run_nary(d, in, 0);
	case SEGC_EPO_MUL:
		return run_nary(d, in, 1);
	case SEGC_EPO_POW:
		return run_pow(d, in);
	case SEGC_EPO_EXTREMUM:
		return run_extremum(d, in);
	case SEGC_EPO_UNARY:
		return run_unary(d, in);
	case SEGC_EPO_MVA:
		return run_mva(d, in);
	case SEGC_EPO_MAXPLUSV:
		return run_maxplusv(d, in);
	case SEGC_EPO_REL:
		return run_rel(d, in);
	case SEGC_EPO_NOT:
		d->tv[in->dst] = d->tv[in->arg[0]] == TV_UNKNOWN ? TV_UNKNOWN :
			!d->tv[in->arg[0]];
		return DB_OK;
	case SEGC_EPO_LOGIC:
		return run_logic(d, in);
	case SEGC_EPO_IF:
		return run_if(d, in);
	case SEGC_EPO_SUM:
		return run_sum(d, in);
	case SEGC_EPO_MAXPLUS: case SEGC_EPO_TASKPATH:
		return run_atom(d, in);
	case SEGC_EPO_FAIL:
		return DB_GIVE_UP;
	}
	return DB_GIVE_UP;
}

/* Runs the operation 'in': a sum or product of two, the most frequent,
 * at once; the others by run_other. */
static inline int run_ins(drun *d, const segc_eplan_ins *in)
{
	dball *v = d->v;

	if (in->nargs == 2 && in->op == SEGC_EPO_ADD)
		return db_add(&v[in->dst], &v[in->arg[0]], &v[in->arg[1]]);
	if (in->nargs == 2 && in->op == SEGC_EPO_MUL)
		return db_mul(&v[in->dst], &v[in->arg[0]], &v[in->arg[1]]);
	return run_other(d, in);
}

/* Runs the operations of 'blk' in order. */
static int run_block(drun *d, const segc_eplan_block *blk)
{
	size_t i;

	for (i = 0; i < blk->n; i++)
		if (run_ins(d, &blk->ins[i]) != DB_OK)
			return DB_GIVE_UP;
	return DB_OK;
}

/* The ball of the name 'name' of the point. */
static int set_point(drun *d, dball *x, const char *name)
{
	size_t j;

	for (j = 0; j < d->pt->n; j++)
		if (!strcmp(d->pt->names[j], name))
			return set_q(x, d->pt->values[j]);
	return DB_GIVE_UP;
}

/* Runs the plan over doubles (see evaldbl_private.h). */
int segc_dbl_plan_run(segc_ctx *ctx, const segc_eplan *p,
	const segc_point *pt, int rational, double *lo, double *hi)
{
	drun d;
	size_t i;
	int rc = DB_OK;

	memset(&d, 0, sizeof d);
	d.p = p;
	d.pt = pt;
	d.maxterms = segc_ctx_limits(ctx)->max_eval_terms;
	d.max_exponent = segc_ctx_limits(ctx)->max_exponent;
	d.max_mva_p = segc_ctx_limits(ctx)->max_mva_p;
	d.rational = rational;
	d.v = segc_xcalloc(p->nslots + 1, sizeof *d.v);
	d.tv = segc_xcalloc(p->nslots + 1, 1);
	for (i = 0; i < p->nslots && !rc; i++) {
		const segc_eplan_slot *s = &p->slot[i];

		if (s->kind == SEGC_EPS_CONST)
			rc = set_q(&d.v[i], segc_expr_value(s->e));
		else if (s->kind == SEGC_EPS_POINT)
			rc = set_point(&d, &d.v[i], segc_expr_name(s->e));
	}
	if (!rc)
		rc = run_block(&d, p->root);
	for (i = 0; i < p->nresults && !rc; i++) {
		/* + 0.0: no negative zero */
		lo[i] = db_lower(&d.v[p->result[i]]) + 0.0;
		hi[i] = db_upper(&d.v[p->result[i]]) + 0.0;
		rc = isfinite(lo[i]) && isfinite(hi[i]) ? DB_OK : DB_GIVE_UP;
	}
	free(d.v);
	free(d.tv);
	return rc ? 1 : 0;
}
