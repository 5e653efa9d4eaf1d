/* evaldbl_pieces.c - sums of pieces in closed form over the balls of
 * the double backend (dball.h).  The plan splits a sum's body into
 * pieces, each a factor free of the counter j times an affine function
 * a + b j, the max or min of two, or the floor or ceil of one
 * (evalmp_pieces.h), and computes every a, b and factor once, before the
 * sum.  Here each piece is summed over the range at once:
 *
 *   affine       n a + (lo + hi) n / 2 b;
 *   max, min     the difference of the two arguments is affine: its
 *                signs at lo and hi tell which argument is the extremum
 *                where, and where it changes the range splits at
 *                k = floor(-da / db) into two affine sums;
 *   floor, ceil  of a + b j with a, b small rationals: the lattice
 *                points under a line, counted by Euclid's steps in
 *                128-bit integers.
 *
 * A sign or a floor that the balls leave open gives DB_TERMWISE: the sum
 * is then added term by term, as without pieces. */
#include "output/dball.h"
#include "output/evaldbl_private.h"
#include "output/evalmp_pieces.h"

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
	if (db_lower(x) > 0)
		return 1;
	if (db_upper(x) < 0)
		return -1;
	return 2;
}

/* o = a + b j, j an integer below 2^53 in magnitude. */
static int affine_at(dball *o, const dball *a, const dball *b, double j)
{
	dball jb = dint(j), t;

	return db_mul(&t, b, &jb) || db_add(o, a, &t);
}

/* 'o' set to the integer 'v': exactly when it is small, else its double
 * (correctly rounded) within its radius. */
static void set_wide_int(dball *o, __int128 v)
{
	if (db_small(v)) {
		db_set_int(o, (int64_t)v);
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

	db_set_int(&nb, n);
	set_wide_int(&sb, ((__int128)(int64_t)lo + (int64_t)hi) * n / 2);
	return db_mul(o, &nb, a) || db_mul(&t, &sb, b) || db_add(o, o, &t);
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
	if (db_add(&da, &a[0], &t) || db_add(&db, &b[0], &u) ||
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
		if (db_inv(&u, &db) || db_mul(&t, &t, &u) || db_round_to(&k, &t, 0))
			return DB_TERMWISE;
	}
	if (!(k >= lo && k < hi))
		return DB_TERMWISE;
	return affine_sum(o, &a[first], &b[first], lo, k) ||
		affine_sum(&t, &a[second], &b[second], k + 1, hi) ||
		db_add(o, o, &t);
}

/* The sum of the pieces of 'in' (see evaldbl_private.h). */
int segc_dbl_sum_pieces(const segc_eplan_ins *in, const dball *v,
	double lo, double hi, dball *out)
{
	dball acc = dint(0), ps, t;
	size_t i;
	int rc;

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
		if (db_mul(&t, &ps, &v[pc->m]) || db_add(&acc, &acc, &t))
			return DB_GIVE_UP;
	}
	*out = acc;
	return DB_OK;
}
