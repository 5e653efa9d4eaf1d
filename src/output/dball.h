/* dball.h - the values of the double backend (evaldbl.c): a midpoint
 * and a radius, both doubles, the exact value within the radius of the
 * midpoint, and the exact small rational beside when there is one; their
 * arithmetic, each operation adding to the radius what its rounding may
 * have lost (see evaldbl.c).  Shared by evaldbl.c and the closed sums of
 * evaldbl_pieces.c; private to them. */
#ifndef SEGC_DBALL_H
#define SEGC_DBALL_H

#include <stdint.h>
#include <string.h>

/* A function of this header that a file may not use: static, its
 * inlining left to the compiler as within one file. */
#define DBALL_LOCAL static __attribute__((unused))

/* What an operation ends with: DB_OK, or DB_GIVE_UP when the balls do
 * not give the value (the caller evaluates another way); the closed
 * sums of pieces may also end with DB_TERMWISE, a decision the balls do
 * not make, left to the sum term by term. */
enum { DB_OK = 0, DB_GIVE_UP = 1, DB_TERMWISE = 2 };

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

/* The absolute value. */
DBALL_LOCAL double dabs(double x)
{
	return x < 0 ? -x : x;
}

/* The next double after the finite 'x' towards -inf (down) or +inf. */
DBALL_LOCAL double db_step(double x, int down)
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
DBALL_LOCAL double dfloor(double x)
{
	double t = (double)(int64_t)x;

	return t > x ? t - 1 : t;
}

/* ceil of 'x', |x| < 2^62. */
DBALL_LOCAL double dceil(double x)
{
	double t = (double)(int64_t)x;

	return t < x ? t + 1 : t;
}

/* Splits 'a' into hi + lo, each of at most 26 bits (Veltkamp). */
DBALL_LOCAL void db_split(double a, double *hi, double *lo)
{
	double c = 134217729.0 * a;  /* 2^27 + 1 */

	*hi = c - (c - a);
	*lo = a - *hi;
}

/* The exact error a b - p of the product p = fl(a b) (Dekker), with no
 * overflow or underflow on the way (|a|, |b| within 2^-900 .. 2^900
 * keep it so). */
DBALL_LOCAL double db_prod_error(double a, double b, double p)
{
	double ah, al, bh, bl;

	db_split(a, &ah, &al);
	db_split(b, &bh, &bl);
	return ((ah * bh - p) + ah * bl + al * bh) + al * bl;
}

/* 'o' set to the exact integer n (below 2^62 in magnitude): its ball
 * the integer rounded, within 2^-50 of it past 2^53. */
static inline void db_set_int(dball *o, int64_t n)
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
 * rounded, or within an ulp.  Such a ball always passes db_check(): its
 * midpoint lies within 2^-62 .. 2^62 in magnitude (or is 0), its radius
 * 0 or above 2^-114. */
static inline void db_set_frac(dball *o, int64_t n, int64_t d)
{
	const int64_t lim = (int64_t)1 << 53;
	int big;

	/* an integer is kept as one; |n| < d (no division then) is not */
	if (d != 1 && (n == 0 || ((n >= d || n <= -d) && n % d == 0))) {
		n /= d;
		d = 1;
	}
	if (d == 1) {
		db_set_int(o, n);
		return;
	}
	o->qn = n;
	o->qd = d;
	big = n > lim || n < -lim || d > lim;
	o->m = (double)n / (double)d;
	o->r = dabs(o->m) * (big ? 0x1p-50 : 0x1p-52);
}

/* Fits 'v' in the magnitudes set_frac takes. */
static inline int db_small(__int128 v)
{
	return v < ((__int128)1 << 62) && v > -((__int128)1 << 62);
}

/* 'o' set to the exact n / d (d > 0) when it fits: 1; else 0 (the
 * value is then kept as a ball alone). */
static inline int db_set_frac_wide(dball *o, __int128 n, __int128 d)
{
	if (!db_small(n) || !db_small(d))
		return 0;
	db_set_frac(o, (int64_t)n, (int64_t)d);
	return 1;
}

/* The exact integer 'i' (|i| < 2^53). */
DBALL_LOCAL dball dint(double i)
{
	dball x;

	x.m = i;
	x.r = 0;
	x.qn = (int64_t)i;
	x.qd = 1;
	return x;
}

/* o = x + y exactly when both are small rationals and the sum is: 1. */
static inline int db_add_frac(dball *o, const dball *x, const dball *y)
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
	return db_set_frac_wide(o, n, d);
}

/* o = x * y exactly when both are small rationals and the product is: 1. */
static inline int db_mul_frac(dball *o, const dball *x, const dball *y)
{
	__int128 n, d;

	if (!x->qd || !y->qd)
		return 0;
	n = (__int128)x->qn * y->qn;
	d = (__int128)x->qd * y->qd;
	return db_set_frac_wide(o, n, d);
}

/* The sign of x - y, both small rationals. */
DBALL_LOCAL int db_cmp_frac(const dball *x, const dball *y)
{
	__int128 a = (__int128)x->qn * y->qd, b = (__int128)y->qn * x->qd;

	return (a > b) - (a < b);
}

/* DB_OK when 'x' is finite, within the magnitudes kept (a NaN fails
 * every comparison, an infinity the bound BIG). */
static inline int db_check(const dball *x)
{
	double a = dabs(x->m), r = x->r;

	if (!(a <= BIG && r <= BIG) || (a != 0 && a < SMALL) ||
	    (r != 0 && r < SMALL))
		return DB_GIVE_UP;
	return DB_OK;
}

/* The radius 'r' (a sum of a few rounded non-negative terms) made an
 * upper bound of the exact one. */
DBALL_LOCAL double db_widen(double r)
{
	return r == 0 ? 0 : r * RAD_UP;
}

/* A double below (lo) or above the exact m - r, m + r. */
DBALL_LOCAL double db_lower(const dball *x)
{
	double t;

	if (x->r == 0)
		return x->m;
	t = x->m - x->r;
	return db_step(db_step(t, 1), 1);
}

/* A double above the exact m + r (see db_lower). */
DBALL_LOCAL double db_upper(const dball *x)
{
	double t;

	if (x->r == 0)
		return x->m;
	t = x->m + x->r;
	return db_step(db_step(t, 0), 0);
}

/* Non-zero when the integer n is below 2^62 in magnitude. */
static inline int db_small_int(int64_t n)
{
	return n < ((int64_t)1 << 62) && n > -((int64_t)1 << 62);
}

/* o = x + y, of any balls (see db_add). */
DBALL_LOCAL int db_add_ball(dball *o, const dball *x, const dball *y)
{
	double s = x->m + y->m, bb = s - x->m, e;

	if (db_add_frac(o, x, y))
		return DB_OK;  /* db_set_frac's ball passes db_check() */
	e = (x->m - (s - bb)) + (y->m - bb);
	o->r = db_widen(x->r + y->r + dabs(e));
	o->m = s;
	o->qd = 0;
	return db_check(o);
}

/* o = x + y: most values of a plan's sums are small integers (counters,
 * counts and their sums), added here without the general path. */
static inline int db_add(dball *o, const dball *x, const dball *y)
{
	int64_t n;

	if (x->qd == 1 && y->qd == 1 &&
	    !__builtin_add_overflow(x->qn, y->qn, &n) && db_small_int(n)) {
		db_set_int(o, n);
		return DB_OK;
	}
	return db_add_ball(o, x, y);
}

/* o = x * y, of any balls (see db_mul). */
DBALL_LOCAL int db_mul_ball(dball *o, const dball *x, const dball *y)
{
	double p = x->m * y->m, e;

	if (db_mul_frac(o, x, y))
		return DB_OK;  /* db_set_frac's ball passes db_check() */
	e = db_prod_error(x->m, y->m, p);
	o->r = db_widen(dabs(x->m) * y->r + dabs(y->m) * x->r + x->r * y->r +
		dabs(e));
	o->m = p;
	o->qd = 0;
	return db_check(o);
}

/* o = x * y, small integers first (see db_add). */
static inline int db_mul(dball *o, const dball *x, const dball *y)
{
	int64_t n;

	if (x->qd == 1 && y->qd == 1 &&
	    !__builtin_mul_overflow(x->qn, y->qn, &n) && db_small_int(n)) {
		db_set_int(o, n);
		return DB_OK;
	}
	return db_mul_ball(o, x, y);
}

/* o = 1 / x, x away from 0. */
DBALL_LOCAL int db_inv(dball *o, const dball *x)
{
	double a = dabs(x->m), lo, q, e;

	if (!(a > x->r))
		return DB_GIVE_UP;
	if (x->qd && x->qn) {
		db_set_frac(o, x->qn < 0 ? -x->qd : x->qd,
			x->qn < 0 ? -x->qn : x->qn);
		return db_check(o);
	}
	lo = (a - x->r) * (1 - 0x1p-50);
	q = 1 / x->m;
	e = db_prod_error(q, x->m, q * x->m) + (q * x->m - 1); /* q x.m - 1 */
	/* |1/v - 1/m| <= r / (|m| (|m| - r)); |1/m - q| = |e| / |m| */
	o->r = db_widen(x->r / lo / a * RAD_UP + dabs(e) / a * RAD_UP);
	o->m = q;
	o->qd = 0;
	return db_check(o);
}

/* The ceil (when 'up') or floor of 'x' into 'z' when it is the same over
 * the ball and a double integer. */
DBALL_LOCAL int db_round_to(double *z, const dball *x, int up)
{
	double lo = db_lower(x), hi = db_upper(x);

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

#endif
