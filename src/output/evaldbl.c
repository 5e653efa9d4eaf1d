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
 * changes (see "sums of pieces" below); else term by term.
 *
 * The library links without libm: the few functions needed (the next
 * double, floor, the exact error of a product, sqrt and log2 correctly
 * rounded by MPFR) are written here. */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <mpfr.h>

#include "output/evaldbl_private.h"
#include "output/evalops.h"
#include "output/evalmp_pieces.h"
#include "graph/maxplus.h"
#include "graph/taskpath.h"
#include "base/util.h"

/* Three-valued truths of condition slots. */
enum { TV_FALSE = 0, TV_TRUE = 1, TV_UNKNOWN = 2 };

/* What a run ends with. */
enum { DB_OK = 0, DB_GIVE_UP = 1 };

/* The largest magnitude kept, and the smallest non-zero one. */
#define BIG 0x1p900
#define SMALL 0x1p-900
/* The factor covering a few roundings of a radius (each at most 2^-53
 * relative). */
#define RAD_UP (1 + 0x1p-48)
/* Integers up to this magnitude are exact in a double. */
#define EXACT_INT 0x1p52

/* A value: the exact one lies in [m - r, m + r]; and when qd > 0 it
 * is exactly qn / qd (not always in lowest terms): small rationals are kept exactly
 * (the counters, the parameters, their quotients), so that the floor
 * of an integer and the comparison of equal values are decided. */
typedef struct dball {
	double m, r;
	int64_t qn, qd;
} dball;

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

/* The absolute value. */
static double dabs(double x)
{
	return x < 0 ? -x : x;
}

/* The next double after the finite 'x' towards -inf (down) or +inf. */
static double step(double x, int down)
{
	uint64_t b;

	if (x == 0)
		return down ? -0x1p-1074 : 0x1p-1074;
	memcpy(&b, &x, sizeof b);
	if ((x > 0) == !down)
		b++;
	else
		b--;
	memcpy(&x, &b, sizeof x);
	return x;
}

/* floor of 'x', |x| < 2^62. */
static double dfloor(double x)
{
	double t = (double)(int64_t)x;

	return t > x ? t - 1 : t;
}

/* ceil of 'x', |x| < 2^62. */
static double dceil(double x)
{
	double t = (double)(int64_t)x;

	return t < x ? t + 1 : t;
}

/* Splits 'a' into hi + lo, each of at most 26 bits (Veltkamp). */
static void split(double a, double *hi, double *lo)
{
	double c = 134217729.0 * a;  /* 2^27 + 1 */

	*hi = c - (c - a);
	*lo = a - *hi;
}

/* The exact error a b - p of the product p = fl(a b) (Dekker), with no
 * overflow or underflow on the way (|a|, |b| within 2^-900 .. 2^900
 * keep it so). */
static double prod_error(double a, double b, double p)
{
	double ah, al, bh, bl;

	split(a, &ah, &al);
	split(b, &bh, &bl);
	return ((ah * bh - p) + ah * bl + al * bh) + al * bl;
}

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

/* 'o' set to the exact integer n (below 2^62 in magnitude): its ball
 * the integer rounded, within 2^-50 of it past 2^53. */
static inline void set_int(dball *o, int64_t n)
{
	const int64_t lim = (int64_t)1 << 53;

	o->qn = n;
	o->qd = 1;
	o->m = (double)n;
	/* |n| > lim, in one comparison */
	o->r = (uint64_t)(n + lim) > 2 * (uint64_t)lim ?
		dabs(o->m) * 0x1p-50 : 0;
}

/* 'o' set to the exact n / d (d > 0; n, d below 2^62 in magnitude),
 * not reduced unless it is an integer: its ball the quotient correctly
 * rounded, or within an ulp.  Such a ball always passes check(): its
 * midpoint lies within 2^-62 .. 2^62 in magnitude (or is 0), its radius
 * 0 or above 2^-114. */
static inline void set_frac(dball *o, int64_t n, int64_t d)
{
	const int64_t lim = (int64_t)1 << 53;
	int big;

	/* an integer is kept as one; |n| < d (no division then) is not */
	if (d != 1 && (n == 0 || ((n >= d || n <= -d) && n % d == 0))) {
		n /= d;
		d = 1;
	}
	if (d == 1) {
		set_int(o, n);
		return;
	}
	o->qn = n;
	o->qd = d;
	big = n > lim || n < -lim || d > lim;
	o->m = (double)n / (double)d;
	o->r = dabs(o->m) * (big ? 0x1p-50 : 0x1p-52);
}

/* Fits 'v' in the magnitudes set_frac takes. */
static inline int small(__int128 v)
{
	return v < ((__int128)1 << 62) && v > -((__int128)1 << 62);
}

/* 'o' set to the exact n / d (d > 0) when it fits: 1; else 0 (the
 * value is then kept as a ball alone). */
static inline int set_frac_wide(dball *o, __int128 n, __int128 d)
{
	if (!small(n) || !small(d))
		return 0;
	set_frac(o, (int64_t)n, (int64_t)d);
	return 1;
}

/* The exact integer 'i' (|i| < 2^53). */
static dball dint(double i)
{
	dball x;

	x.m = i;
	x.r = 0;
	x.qn = (int64_t)i;
	x.qd = 1;
	return x;
}

/* o = x + y exactly when both are small rationals and the sum is: 1. */
static inline int add_frac(dball *o, const dball *x, const dball *y)
{
	__int128 n, d;

	if (!x->qd || !y->qd)
		return 0;
	if (x->qd == y->qd) {
		n = (__int128)x->qn + y->qn;
		d = x->qd;
	} else {
		n = (__int128)x->qn * y->qd + (__int128)y->qn * x->qd;
		d = (__int128)x->qd * y->qd;
	}
	return set_frac_wide(o, n, d);
}

/* o = x * y exactly when both are small rationals and the product is: 1. */
static inline int mul_frac(dball *o, const dball *x, const dball *y)
{
	__int128 n, d;

	if (!x->qd || !y->qd)
		return 0;
	n = (__int128)x->qn * y->qn;
	d = (__int128)x->qd * y->qd;
	return set_frac_wide(o, n, d);
}

/* The sign of x - y, both small rationals. */
static int cmp_frac(const dball *x, const dball *y)
{
	__int128 a = (__int128)x->qn * y->qd, b = (__int128)y->qn * x->qd;

	return (a > b) - (a < b);
}

/* DB_OK when 'x' is finite, within the magnitudes kept (a NaN fails
 * every comparison, an infinity the bound BIG). */
static inline int check(const dball *x)
{
	double a = dabs(x->m), r = x->r;

	if (!(a <= BIG && r <= BIG) || (a != 0 && a < SMALL) ||
	    (r != 0 && r < SMALL))
		return DB_GIVE_UP;
	return DB_OK;
}

/* The radius 'r' (a sum of a few rounded non-negative terms) made an
 * upper bound of the exact one. */
static double widen(double r)
{
	return r == 0 ? 0 : r * RAD_UP;
}

/* A double below (lo) or above the exact m - r, m + r. */
static double lower(const dball *x)
{
	double t;

	if (x->r == 0)
		return x->m;
	t = x->m - x->r;
	return step(step(t, 1), 1);
}

static double upper(const dball *x)
{
	double t;

	if (x->r == 0)
		return x->m;
	t = x->m + x->r;
	return step(step(t, 0), 0);
}

/* Non-zero when the integer n is below 2^62 in magnitude. */
static inline int small_int(int64_t n)
{
	return n < ((int64_t)1 << 62) && n > -((int64_t)1 << 62);
}

/* o = x + y, of any balls (see add). */
static int add_ball(dball *o, const dball *x, const dball *y)
{
	double s = x->m + y->m, bb = s - x->m, e;

	if (add_frac(o, x, y))
		return DB_OK;  /* set_frac's ball passes check() */
	e = (x->m - (s - bb)) + (y->m - bb);
	o->r = widen(x->r + y->r + dabs(e));
	o->m = s;
	o->qd = 0;
	return check(o);
}

/* o = x + y: most values of a plan's sums are small integers (counters,
 * counts and their sums), added here without the general path. */
static inline int add(dball *o, const dball *x, const dball *y)
{
	int64_t n;

	if (x->qd == 1 && y->qd == 1 &&
	    !__builtin_add_overflow(x->qn, y->qn, &n) && small_int(n)) {
		set_int(o, n);
		return DB_OK;
	}
	return add_ball(o, x, y);
}

/* o = x * y, of any balls (see mul). */
static int mul_ball(dball *o, const dball *x, const dball *y)
{
	double p = x->m * y->m, e;

	if (mul_frac(o, x, y))
		return DB_OK;  /* set_frac's ball passes check() */
	e = prod_error(x->m, y->m, p);
	o->r = widen(dabs(x->m) * y->r + dabs(y->m) * x->r + x->r * y->r +
		dabs(e));
	o->m = p;
	o->qd = 0;
	return check(o);
}

/* o = x * y, small integers first (see add). */
static inline int mul(dball *o, const dball *x, const dball *y)
{
	int64_t n;

	if (x->qd == 1 && y->qd == 1 &&
	    !__builtin_mul_overflow(x->qn, y->qn, &n) && small_int(n)) {
		set_int(o, n);
		return DB_OK;
	}
	return mul_ball(o, x, y);
}

/* o = 1 / x, x away from 0. */
static int inv(dball *o, const dball *x)
{
	double a = dabs(x->m), lo, q, e;

	if (!(a > x->r))
		return DB_GIVE_UP;
	if (x->qd && x->qn) {
		set_frac(o, x->qn < 0 ? -x->qd : x->qd,
			x->qn < 0 ? -x->qn : x->qn);
		return check(o);
	}
	lo = (a - x->r) * (1 - 0x1p-50);
	q = 1 / x->m;
	e = prod_error(q, x->m, q * x->m) + (q * x->m - 1); /* q x.m - 1 */
	/* |1/v - 1/m| <= r / (|m| (|m| - r)); |1/m - q| = |e| / |m| */
	o->r = widen(x->r / lo / a * RAD_UP + dabs(e) / a * RAD_UP);
	o->m = q;
	o->qd = 0;
	return check(o);
}

/* The ball of the rational 'q': exact when it is a double. */
static int set_q(dball *o, const mpq_t q)
{
	mpq_t t;
	int same;

	if (mpz_sizeinbase(mpq_numref(q), 2) < 62 &&
	    mpz_sizeinbase(mpq_denref(q), 2) < 62) {
		set_frac(o, mpz_get_si(mpq_numref(q)),
			mpz_get_si(mpq_denref(q)));
		return check(o);
	}
	o->qd = 0;
	o->m = mpq_get_d(q);
	o->r = 0;
	if ((o->m == 0 && mpq_sgn(q)) || check(o))
		return DB_GIVE_UP;
	mpq_init(t);
	mpq_set_d(t, o->m);
	same = mpq_equal(t, q);
	mpq_clear(t);
	/* mpq_get_d truncates: the error is below one ulp */
	o->r = same ? 0 : dabs(o->m) * 0x1p-51;
	return check(o);
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
		if (mul(acc, &d->v[arg[0]], &d->v[arg[1]]))
			return DB_GIVE_UP;
		for (i = 2; i < n; i++)
			if (mul(acc, acc, &d->v[arg[i]]))
				return DB_GIVE_UP;
	} else {
		if (add(acc, &d->v[arg[0]], &d->v[arg[1]]))
			return DB_GIVE_UP;
		for (i = 2; i < n; i++)
			if (add(acc, acc, &d->v[arg[i]]))
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
		if ((k & 1) && mul(&acc, &acc, &base))
			return DB_GIVE_UP;
		if (k > 1 && mul(&base, &base, &base))
			return DB_GIVE_UP;
	}
	if (x->m < 0 && inv(&acc, &acc))
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
		if (up ? cmp_frac(y, acc) > 0 : cmp_frac(y, acc) < 0)
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

/* The ceil (when 'up') or floor of 'x' into 'z' when it is the same over
 * the ball and a double integer. */
static int round_to(double *z, const dball *x, int up)
{
	double lo = lower(x), hi = upper(x);

	if (x->qd) {
		int64_t q = x->qn / x->qd, m = x->qn % x->qd;

		/* C rounds the quotient toward 0 */
		if (m && (x->qn > 0) == (up != 0))
			q += up ? 1 : -1;
		if (q > (1LL << 52) || q < -(1LL << 52))
			return DB_GIVE_UP;
		*z = (double)q;
		return DB_OK;
	}
	if (dabs(lo) > EXACT_INT || dabs(hi) > EXACT_INT)
		return DB_GIVE_UP;
	lo = up ? dceil(lo) : dfloor(lo);
	hi = up ? dceil(hi) : dfloor(hi);
	if (lo != hi || dabs(lo) > EXACT_INT)
		return DB_GIVE_UP;
	*z = lo + 0.0;
	return DB_OK;
}

/* ceil or floor ('b->dir') of 'x': when it is the same over the ball
 * and a double integer. */
int segc_dbl_round(const segc_builtin_info *b, dball *o, const dball *x)
{
	double z;

	if (round_to(&z, x, b->dir > 0))
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
	o->r = widen(x->r / s * RAD_UP + s * 0x1p-52);
	o->m = s;
	o->qd = 0;
	if (x->r == 0 && s * s == x->m && prod_error(s, s, s * s) == 0)
		*o = x->qd == 1 ? dint(s) : (dball){ s, 0, 0, 0 };
	return check(o);
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
	o->r = widen(x->r / lo * 1.4426950408889634 * RAD_UP +
		dabs(l) * 0x1p-52);
	o->m = l;
	o->qd = 0;
	return check(o);
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
	o->r = widen(hi * x->r * 0.7 * RAD_UP + e * 0x1p-52);
	o->m = e;
	o->qd = 0;
	return check(o);
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
	double xl = lower(x), xh = upper(x), yl = lower(y), yh = upper(y);
	int exact = x->r == 0 && y->r == 0;

	if (x->qd && y->qd) {
		/* the same bounds, exact: a single point each */
		int c = cmp_frac(x, y);

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

/* ----------------------------------------- sums of pieces, closed */

/* What summing the pieces of a body ends with, besides DB_OK and
 * DB_GIVE_UP: a decision the balls do not make, left to the sum term by
 * term. */
#define DB_TERMWISE 2

/* o = -x. */
static void neg(dball *o, const dball *x)
{
	*o = *x;
	o->m = -x->m;
	o->qn = -x->qn;  /* |qn| < 2^62 */
}

/* The sign of 'x': -1, 0 or 1; 2 when the ball does not decide it. */
static int sign_of(const dball *x)
{
	if (x->qd)
		return (x->qn > 0) - (x->qn < 0);
	if (lower(x) > 0)
		return 1;
	if (upper(x) < 0)
		return -1;
	return 2;
}

/* o = a + b j, j an integer below 2^53 in magnitude. */
static int affine_at(dball *o, const dball *a, const dball *b, double j)
{
	dball jb = dint(j), t;

	return mul(&t, b, &jb) || add(o, a, &t);
}

/* 'o' set to the integer 'v': exactly when it is small, else its double
 * (correctly rounded) within its radius. */
static void set_wide_int(dball *o, __int128 v)
{
	if (small(v)) {
		set_int(o, (int64_t)v);
		return;
	}
	o->qd = 0;
	o->m = (double)v;
	o->r = dabs(o->m) * 0x1p-52;
}

/* o = the sum of a + b j over j = lo .. hi (lo <= hi, integers below
 * 2^52 in magnitude): (hi - lo + 1) a + (lo + hi)(hi - lo + 1)/2 b. */
static int affine_sum(dball *o, const dball *a, const dball *b, double lo,
	double hi)
{
	int64_t n = (int64_t)hi - (int64_t)lo + 1;
	dball nb, sb, t;

	set_int(&nb, n);
	set_wide_int(&sb, ((__int128)(int64_t)lo + (int64_t)hi) * n / 2);
	return mul(o, &nb, a) || mul(&t, &sb, b) || add(o, o, &t);
}

/* floor(x / m), m > 0. */
static __int128 floor_div(__int128 x, __int128 m)
{
	__int128 q = x / m;

	return x % m != 0 && x < 0 ? q - 1 : q;
}

/* The sum of floor((a t + b) / m) over t = 0 .. n - 1 (m > 0; n below
 * 2^32, |a|, |b| and m below 2^60, so that nothing passes 2^127).  The
 * integer parts of a/m and b/m come out as sums of t and of 1; what is
 * left counts the lattice points under the line y = (a t + b)/m, which
 * is the count under the mirrored line with m and a swapped (Euclid's
 * steps: a few dozen at most). */
static __int128 floor_sum(__int128 n, __int128 m, __int128 a, __int128 b)
{
	__int128 s = 0, q, y;

	while (n > 0) {
		q = floor_div(a, m);
		s += q * (n * (n - 1) / 2);
		a -= q * m;
		q = floor_div(b, m);
		s += q * n;
		b -= q * m;
		y = a * n + b;
		if (y < m)
			break;
		n = y / m;
		b = y % m;
		q = m;
		m = a;
		a = q;
	}
	return s;
}

/* o = the sum of floor (dir -1) or ceil (dir 1) of a + b j over j = lo
 * .. hi, a and b exact rationals; DB_TERMWISE when they are not, or too
 * large for floor_sum. */
static int round_sum(dball *o, const dball *a, const dball *b, double lo,
	double hi, int dir)
{
	const __int128 lim = (__int128)1 << 60;
	__int128 den, r, p, s, n = (__int128)((int64_t)hi - (int64_t)lo) + 1;

	if (!a->qd || !b->qd || n >= ((__int128)1 << 32))
		return DB_TERMWISE;
	/* a + b j = (r j + p) / den, then j = lo + t */
	den = (__int128)a->qd * b->qd;
	r = (__int128)b->qn * a->qd;
	p = (__int128)a->qn * b->qd;
	if (den >= lim || r >= lim || r <= -lim || p >= lim || p <= -lim)
		return DB_TERMWISE;
	p += r * (int64_t)lo;
	if (p >= lim || p <= -lim)
		return DB_TERMWISE;
	/* ceil(x) = -floor(-x) */
	s = dir > 0 ? -floor_sum(n, den, -r, -p) : floor_sum(n, den, r, p);
	set_wide_int(o, s);
	return DB_OK;
}

/* o = the sum over j = lo .. hi of max (dir 1) or min (dir -1) of
 * A_0 = a0 + b0 j and A_1 = a1 + b1 j: their difference is affine, so
 * one of them is the extremum up to some k and the other after it. */
static int extremum_sum(dball *o, const dball *a, const dball *b,
	double lo, double hi, int dir)
{
	dball da, db, t, u;
	int slo, shi, first, second;
	double k;

	neg(&t, &a[1]);
	neg(&u, &b[1]);
	if (add(&da, &a[0], &t) || add(&db, &b[0], &u) ||
	    affine_at(&t, &da, &db, lo) || affine_at(&u, &da, &db, hi))
		return DB_GIVE_UP;
	slo = sign_of(&t);
	shi = sign_of(&u);
	if (slo == 2 || shi == 2)
		return DB_TERMWISE;
	/* A_0 is the extremum where dir (A_0 - A_1) > 0, A_1 where it is
	 * < 0, either where it is 0 (-1) */
	first = dir * slo > 0 ? 0 : slo ? 1 : -1;
	second = dir * shi > 0 ? 0 : shi ? 1 : -1;
	if (first < 0 || second < 0 || first == second) {
		first = first < 0 ? (second < 0 ? 0 : second) : first;
		return affine_sum(o, &a[first], &b[first], lo, hi);
	}
	/* the sign changes strictly: k = floor(-da / db), lo <= k < hi */
	if (da.qd && db.qd) {
		__int128 num = -(__int128)da.qn * db.qd,
			den = (__int128)da.qd * db.qn, q;

		if (den < 0) {
			num = -num;
			den = -den;
		}
		q = floor_div(num, den);
		if (q < (int64_t)lo || q >= (int64_t)hi)
			return DB_TERMWISE;
		k = (double)(int64_t)q;
	} else {
		neg(&t, &da);
		if (inv(&u, &db) || mul(&t, &t, &u) || round_to(&k, &t, 0))
			return DB_TERMWISE;
	}
	if (!(k >= lo && k < hi))
		return DB_TERMWISE;
	return affine_sum(o, &a[first], &b[first], lo, k) ||
		affine_sum(&t, &a[second], &b[second], k + 1, hi) ||
		add(o, o, &t);
}

/* The sum 'in' over j = lo .. hi (lo <= hi, integers below 2^52 in
 * magnitude, as round_to gives them) from the pieces of its body,
 * whose coefficients its preheader computes: DB_OK, DB_GIVE_UP, or
 * DB_TERMWISE (nothing recorded). */
static int run_pieces(drun *d, const segc_eplan_ins *in, double lo,
	double hi)
{
	dball acc = dint(0), ps, t, *v = d->v;
	size_t i;
	int rc;

	d->v[in->binder] = dint(lo);
	if (charge(d) || run_block(d, in->sub[0]))
		return DB_GIVE_UP;
	for (i = 0; i < in->npieces; i++) {
		const segc_eplan_piece *pc = &in->pieces[i];
		dball a[2], b[2];

		a[0] = v[pc->a[0]];
		b[0] = v[pc->b[0]];
		switch (pc->kind) {
		case SEGC_PIECE_AFFINE:
			rc = affine_sum(&ps, &a[0], &b[0], lo, hi);
			break;
		case SEGC_PIECE_MAX: case SEGC_PIECE_MIN:
			a[1] = v[pc->a[1]];
			b[1] = v[pc->b[1]];
			rc = extremum_sum(&ps, a, b, lo, hi,
				pc->kind == SEGC_PIECE_MAX ? 1 : -1);
			break;
		default:
			rc = round_sum(&ps, &a[0], &b[0], lo, hi,
				pc->kind == SEGC_PIECE_CEIL ? 1 : -1);
			break;
		}
		if (rc)
			return rc;
		if (mul(&t, &ps, &v[pc->m]) || add(&acc, &acc, &t))
			return DB_GIVE_UP;
	}
	d->v[in->dst] = acc;
	return DB_OK;
}

/* sum(i, lo, hi, body): from the pieces of its body when it has them
 * and the balls decide where they change, else term by term, when it
 * has few enough terms that the exact walk sums it so too. */
static int run_sum(drun *d, const segc_eplan_ins *in)
{
	dball acc = dint(0), *bv = &d->v[in->binder];
	double lo, hi, i;
	int rc;

	if (round_to(&lo, &d->v[in->arg[0]], 1) ||
	    round_to(&hi, &d->v[in->arg[1]], 0))
		return DB_GIVE_UP;
	if (in->npieces && lo <= hi &&
	    (rc = run_pieces(d, in, lo, hi)) != DB_TERMWISE)
		return rc;
	if (hi - lo > SUM_CLOSED_FORM_TERMS)
		return DB_GIVE_UP;
	for (i = lo; i <= hi; i++) {
		*bv = dint(i);
		if (charge(d) || (i == lo && run_block(d, in->sub[0])) ||
		    run_block(d, in->sub[1]) ||
		    add(&acc, &acc, &d->v[in->subslot[0]]))
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
		if (add(&t, a, &out) || inv(&t, &t) || mul(&out, &out, &kb) ||
		    mul(&out, &out, &t) || add(&out, &out, &one) ||
		    mul(&out, &out, c))
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
			if (add(&t, &fin[((i - s->dist[a]) % ring) * s->m +
			    s->from[a]], &d->v[in->arg[1 + s->m + a]]))
				return DB_GIVE_UP;
			extremum(&best, &t, 1);
		}
		if (add(&fin[(i % ring) * s->m + v], &best,
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
		return add(&v[in->dst], &v[in->arg[0]], &v[in->arg[1]]);
	if (in->nargs == 2 && in->op == SEGC_EPO_MUL)
		return mul(&v[in->dst], &v[in->arg[0]], &v[in->arg[1]]);
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
		lo[i] = lower(&d.v[p->result[i]]) + 0.0;
		hi[i] = upper(&d.v[p->result[i]]) + 0.0;
		rc = isfinite(lo[i]) && isfinite(hi[i]) ? DB_OK : DB_GIVE_UP;
	}
	free(d.v);
	free(d.tv);
	return rc ? 1 : 0;
}
