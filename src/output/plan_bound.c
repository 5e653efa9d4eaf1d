/* plan_bound.c - a forward error analysis of an evaluation plan: a bound
 * on the relative error of its result, in units u = 2^-53 (the relative
 * error of one rounding to nearest), to first order, where nothing
 * overflows or underflows.  Every value carries its bound, whether it is
 * computed exactly (an integer from integers that its interval proves at
 * most 2^53 in magnitude, a constant that is a double), and an interval
 * that holds it (from the arguments' domains and the loops' ranges, for
 * the signs and the sizes of integers).  The rules: a constant costs 1
 * when it is rounded; a sum, difference or product of exact integers
 * nothing when its interval is within 2^53, else 1 (one rounding); of
 * two other values that are doubles without error 1 (one rounding,
 * whatever their signs); of values that the intervals show to have one
 * sign the larger of their bounds plus 1; a product by a power of 2
 * nothing; another product or quotient the sum of the bounds plus 1; a
 * maximum or minimum the larger bound (max and min are monotone, so
 * operands within a relative e of their values give a result within e
 * of its value, whatever the signs); sqrt half the bound plus 1; log2 2
 * of an exact argument (glibc's log2 is within 1 ulp).  A loop sums its
 * terms with compensation (Neumaier's), which costs 2 more, while it runs
 * fewer than 2^26 times.  ceil and floor of log2 of an exact integer are
 * exact when its interval is below 2^26 (log2 of it is then exact or at
 * least 2^-27 from every integer, far more than 1 ulp); ceil and floor of
 * a quotient of exact integers a/b are exact when the intervals prove
 * |a| + |b| < 2^53: a/b is then at least 1/|b| from any integer it is
 * not, farther than half an ulp, so the one rounding of the division
 * never reaches an integer.  What has no such bound: a sum of rounded
 * values whose signs the domains leave open, ceil, floor and log2 of
 * another rounded value and comparisons of rounded values (a jump).  The
 * recurrence of an overlapped loop carries its time stamps as
 * double-doubles (emit_maxplus.c): with costs the intervals show >= 0,
 * its result is within the largest bound of its costs plus 1 (the
 * additions' errors, below u/2 for fewer than 2^26 iterations, and the
 * last rounding), plus 1 more where the period check may jump to the end
 * (a product and a sum rounded); with a count that is not exact or a cost
 * that may be negative, it has none.
 *
 * An integer argument without a maximum makes every product of two of
 * them rounded; so where the domains alone leave some integer the plan
 * computes unproved, the analysis is run with the integer arguments
 * capped at 2^k - 1 in magnitude, for k from 53 down, and the bound is
 * stated for integer arguments below 2^k at the largest k where every
 * integer the plan computes is proved exact.  Below k = 26 (MIN_BITS)
 * the range is too small to be useful: the bound is that of k = 26,
 * with the integers that may pass 2^53 counted as rounded, unless that
 * proves no bound, when the search goes on below 26 (doc/emit.md says
 * why). */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include "output/output.h"

/* What is known of one value. */
typedef struct vinfo {
	unsigned long e;   /* bound, in u */
	int exact;         /* computed without error */
	int integer;       /* an integer (when exact) */
	int rep;           /* the double is the value itself (an exact
	                    * constant, an argument, an exact integer) */
	double lo, hi;     /* an interval holding the value (+-inf: none) */
	int log2_int;      /* log2 of an exact integer */
	int log2_ok;       /* ... whose interval is below 2^26: log2 is
	                    * exact at the powers of 2 and at least 2^-27
	                    * from any other integer there, so ceil and
	                    * floor of it are exact */
	int int_quot;      /* a quotient of exact integers */
	int quot_ok;       /* ... whose intervals prove |a| + |b| < 2^53:
	                    * ceil and floor of it are exact */
	const char *why;   /* NULL, or why no bound holds */
} vinfo;

/* One run of the analysis: the plan, what is known of its arguments,
 * the bound 'cap' put on the magnitude of its integer arguments, and
 * how many operations on exact integers the intervals leave unproved
 * (an integer sum or product that may pass 2^53, ceil or floor of a
 * quotient or of log2 of integers out of the range of their rule). */
typedef struct bound_run {
	const segc_plan *p;
	const unsigned char *integer;
	const double *lo, *hi;
	double cap;
	unsigned long lost;
} bound_run;

/* 2^53: every integer of magnitude at most it is a double. */
#define TWO53 9007199254740992.0

/* The smallest k for which the bound is stated for integer arguments
 * below 2^k while one with roundings holds (see the top of the file). */
#define MIN_BITS 26

/* 'r', the double nearest some exact value, moved to a bound of it:
 * dir < 0 a lower, dir > 0 an upper bound; 'err' has the sign of the
 * exact value minus 'r'. */
static double to_bound(double r, double err, int dir)
{
	if (isnan(r))
		return dir < 0 ? -INFINITY : INFINITY;
	if (dir < 0 && err < 0)
		return nextafter(r, -INFINITY);
	if (dir > 0 && err > 0)
		return nextafter(r, INFINITY);
	return r;
}

/* A bound (dir as above) of x + y. */
static double badd(double x, double y, int dir)
{
	double s = x + y, t;

	if (!isfinite(s))
		return to_bound(s, 0, dir);
	t = s - x;   /* TwoSum: the exact error of the sum */
	return to_bound(s, (x - (s - t)) + (y - t), dir);
}

/* A bound (dir as above) of x*y, where 0 times an infinity is 0 (a
 * bound 0 holds a value 0). */
static double bmul(double x, double y, int dir)
{
	double r;

	if (x == 0 || y == 0)
		return 0;
	r = x * y;
	if (!isfinite(r))
		return to_bound(r, 0, dir);
	if (r == 0)   /* underflow: the sign of the product */
		return (x < 0) != (y < 0) ? (dir < 0 ? -DBL_MIN : 0)
			: (dir < 0 ? 0 : DBL_MIN);
	return to_bound(r, fma(x, y, -r), dir);
}

/* A bound (dir as above) of x/y, y non-zero and finite. */
static double bdiv(double x, double y, int dir)
{
	double q = x / y, rem;

	if (!isfinite(q))
		return to_bound(q, 0, dir);
	if (q == 0 && x != 0)
		return (x < 0) != (y < 0) ? (dir < 0 ? -DBL_MIN : 0)
			: (dir < 0 ? 0 : DBL_MIN);
	rem = fma(-q, y, x);   /* x - q*y, exactly */
	return to_bound(q, y < 0 ? -rem : rem, dir);
}

/* The constant 'in'. */
static void of_const(vinfo *v, const segc_plan_insn *in)
{
	mpq_t d;

	mpq_init(d);
	mpq_set_d(d, in->value);
	v->rep = mpq_equal(d, in->q);
	v->exact = in->rounding != 0 || v->rep;
	v->e = v->exact ? 0 : 1;
	v->integer = v->exact && !mpz_cmp_ui(mpq_denref(in->q), 1) &&
		fabs(in->value) <= 9007199254740992.0;
	v->lo = v->hi = in->value;
	if (!v->rep) {
		v->lo = nextafter(in->value, -INFINITY);
		v->hi = nextafter(in->value, INFINITY);
	}
	mpq_clear(d);
}

/* The larger of 'a' and 'b'. */
static unsigned long umax(unsigned long a, unsigned long b)
{
	return a > b ? a : b;
}

/* Non-zero when the interval of 'v' proves its magnitude at most 2^53:
 * an integer there is a double. */
static int in_range(const vinfo *v)
{
	return v->lo >= -TWO53 && v->hi <= TWO53;
}

/* Non-zero when 'x' is an integer computed exactly. */
static int exact_int(const vinfo *x)
{
	return x->exact && x->integer;
}

/* A sum (or, with 'sub', a difference) of 'x' and 'y', in run 'r'. */
static void of_add(bound_run *r, vinfo *v, const vinfo *x, const vinfo *y,
	int sub)
{
	double ylo = sub ? -y->hi : y->lo, yhi = sub ? -y->lo : y->hi;

	v->lo = badd(x->lo, ylo, -1);
	v->hi = badd(x->hi, yhi, 1);
	if (exact_int(x) && exact_int(y)) {
		if (in_range(v)) {
			v->exact = v->integer = v->rep = 1;
			v->e = 0;
			return;
		}
		r->lost++;   /* one rounding, below */
	}
	if (x->rep && y->rep) {
		v->e = 1;
		return;
	}
	if ((x->lo < 0 || ylo < 0) && (x->hi > 0 || yhi > 0)) {
		v->why = "a sum of rounded terms of either sign";
		return;
	}
	v->e = umax(x->e, y->e) + 1;
}

/* Non-zero when 'v' is a constant power of 2, positive or negative, at
 * least 1 in magnitude: a product by it is exact. */
static int power_of_2(const segc_plan_insn *in, const vinfo *v)
{
	int ex;

	return in->op == SEGC_OP_CONST && v->rep && in->value != 0 &&
		isfinite(in->value) && fabs(frexp(in->value, &ex)) == 0.5 &&
		ex >= 1;
}

/* The interval of the product of those of 'x' and 'y' into 'v'. */
static void mul_interval(vinfo *v, const vinfo *x, const vinfo *y)
{
	const double *f[2] = { &x->lo, &x->hi }, *g[2] = { &y->lo, &y->hi };
	int i, j;

	v->lo = INFINITY;
	v->hi = -INFINITY;
	for (i = 0; i < 2; i++)
		for (j = 0; j < 2; j++) {
			v->lo = fmin(v->lo, bmul(*f[i], *g[j], -1));
			v->hi = fmax(v->hi, bmul(*f[i], *g[j], 1));
		}
}

/* The interval of the quotient of those of 'x' and 'y' into 'v', where
 * the divisor's is positive (else only the sign of non-negatives). */
static void div_interval(vinfo *v, const vinfo *x, const vinfo *y)
{
	if (y->lo > 0) {
		v->lo = x->lo >= 0 ? (isinf(y->hi) ? 0 : bdiv(x->lo, y->hi, -1))
			: isinf(x->lo) ? -INFINITY : bdiv(x->lo, y->lo, -1);
		v->hi = x->hi <= 0 ? (isinf(y->hi) ? 0 : bdiv(x->hi, y->hi, 1))
			: isinf(x->hi) ? INFINITY : bdiv(x->hi, y->lo, 1);
	} else if (x->lo >= 0 && y->lo >= 0) {
		v->lo = 0;
	}
}

/* The largest magnitude in the interval of 'x', rounded up. */
static double max_abs(const vinfo *x)
{
	return fmax(fabs(x->lo), fabs(x->hi));
}

/* A product (or, with 'div', a quotient) of 'x' and 'y', the operands
 * of 'in' in the plan of run 'r'. */
static void of_mul(bound_run *r, vinfo *v, const segc_plan_insn *in,
	const vinfo *x, const vinfo *y, int div)
{
	const segc_plan *p = r->p;
	int ints = exact_int(x) && exact_int(y);

	if (div)
		div_interval(v, x, y);
	else
		mul_interval(v, x, y);
	if (!div && ints && in_range(v)) {
		v->exact = v->integer = v->rep = 1;
		v->e = 0;
		return;
	}
	if (!div && (power_of_2(&p->insn[in->b], y) ||
	    power_of_2(&p->insn[in->a], x))) {
		const vinfo *o = power_of_2(&p->insn[in->b], y) ? x : y;

		v->e = o->e;
		v->exact = o->exact;
		v->integer = o->integer;
		v->rep = o->rep;
		return;
	}
	if (!div && ints)
		r->lost++;   /* one rounding, below */
	v->int_quot = div && ints;
	v->quot_ok = v->int_quot &&
		badd(max_abs(x), max_abs(y), 1) < TWO53;
	v->e = x->e + y->e + 1;
}

/* max (or, with 'min', min) of 'x' and 'y'. */
static void of_extremum(vinfo *v, const vinfo *x, const vinfo *y, int min)
{
	v->lo = min ? fmin(x->lo, y->lo) : fmax(x->lo, y->lo);
	v->hi = min ? fmin(x->hi, y->hi) : fmax(x->hi, y->hi);
	if (x->exact && y->exact) {
		v->exact = 1;
		v->integer = x->integer && y->integer;
		v->rep = x->rep && y->rep;
		return;
	}
	v->e = umax(x->e, y->e);
}

/* The other operations of 'in', whose operands are 'x' and 'y', in run
 * 'r'. */
static void of_other(bound_run *r, vinfo *v, const segc_plan_insn *in,
	const vinfo *x, const vinfo *y)
{
	switch (in->op) {
	case SEGC_OP_NEG:
		*v = *x;
		v->lo = -x->hi;
		v->hi = -x->lo;
		break;
	case SEGC_OP_CEIL: case SEGC_OP_FLOOR:
		if (!x->exact && !(x->log2_int && x->log2_ok) &&
		    !(x->int_quot && x->quot_ok)) {
			v->why = "ceil or floor of a rounded value";
			if (x->log2_int || x->int_quot)
				r->lost++;
		}
		v->exact = v->integer = v->rep = 1;
		v->lo = in->op == SEGC_OP_CEIL ? ceil(x->lo) : floor(x->lo);
		v->hi = in->op == SEGC_OP_CEIL ? ceil(x->hi) : floor(x->hi);
		break;
	case SEGC_OP_SQRT:
		v->e = (x->e + 1) / 2 + 1;
		v->lo = x->lo > 0 ? sqrt(x->lo) * (1 - 0x1p-50) : 0;
		v->hi = x->hi >= 0 ? sqrt(x->hi) * (1 + 0x1p-50) : INFINITY;
		break;
	case SEGC_OP_ROOT:
		/* segc_root (emit_root.c): within half an ulp and 2^-80 of
		 * the root of its double for x >= 0 and q <= 63; else cbrt,
		 * at most 4 ulp (8 u) in glibc's table of known errors, or
		 * pow(x, 1.0/q): 1 ulp, and the exponent's rounding,
		 * relative 2^-53, changes x^(1/q) by a factor x^(d/q) with
		 * |d| <= u/q: |ln x| <= 745 over the doubles */
		v->e = (x->e + in->b - 1) / in->b + (x->lo >= 0 &&
			in->b <= 63 ? 1 : in->b == 3 ? 8 :
			2 + (745 + in->b - 1) / in->b);
		v->lo = x->lo > 0 ? pow(x->lo, 1.0 / (double)in->b) *
			(1 - 0x1p-40) : 0;
		break;
	case SEGC_OP_EXP2:
		/* the error of an operand is multiplied by |x| ln 2, which
		 * has no bound here; of an exact one, C's exp2 within 1 ulp */
		if (!x->exact)
			v->why = "exp2 of a rounded value";
		v->e = 2;
		v->lo = 0;
		break;
	case SEGC_OP_LOG2:
		if (!x->exact)
			v->why = "log2 of a rounded value";
		v->log2_int = exact_int(x);
		v->log2_ok = x->hi < 67108864.0;   /* 2^26 */
		v->e = 2;
		v->lo = x->lo >= 1 ? 0 : -INFINITY;
		/* within 2^-40 of log2 (1 ulp: at most 2^-42 below 1100) */
		v->hi = x->hi > 0 && isfinite(x->hi) ?
			log2(x->hi) + 0x1p-40 : INFINITY;
		break;
	default:
		/* conditions: decided exactly when their operands are exact */
		if (!x->exact || (segc_plan_noperands(in) > 1 && !y->exact))
			v->why = "a comparison of rounded values";
		v->exact = v->integer = v->rep = 1;
		v->lo = 0;
		v->hi = 1;
		break;
	}
}

/* The recurrence 'in' of an overlapped loop (see the top of the file),
 * its operands' bounds in 'info'. */
static void of_maxplus(vinfo *v, const vinfo *info, const segc_plan_insn *in)
{
	const segc_plan_maxplus *mp = in->mp;
	size_t j;

	v->lo = 0;
	v->why = info[in->a].why;
	if (!v->why && !info[in->a].exact)
		v->why = "an overlapped loop whose count is rounded";
	for (j = 0; j < mp->m + mp->k && !v->why; j++) {
		const vinfo *c = &info[mp->val[j]];

		if (mp->val[j] == SIZE_MAX)
			continue;
		v->why = c->why;
		if (!v->why && c->lo < 0)
			v->why = "an overlapped loop whose costs the domains do "
				"not show >= 0";
		v->e = umax(v->e, c->e);
	}
	v->e += mp->carried && !mp->varying ? 2 : 1;
}

/* The bound of value 'i' of the plan of run 'r' from those before it. */
static void of_insn(bound_run *r, vinfo *info, size_t i)
{
	const segc_plan *p = r->p;
	const segc_plan_insn *in = &p->insn[i];
	vinfo *v = &info[i];
	const vinfo *x = &info[in->a < i ? in->a : i];
	const vinfo *y = &info[in->b < i ? in->b : i];
	const vinfo *z = &info[in->c < i ? in->c : i];

	switch (in->op) {
	case SEGC_OP_CONST:
		of_const(v, in);
		return;
	case SEGC_OP_ARG:
		v->exact = v->rep = 1;
		v->integer = r->integer ? r->integer[in->a] : 0;
		v->lo = r->lo ? r->lo[in->a] : -INFINITY;
		v->hi = r->hi ? r->hi[in->a] : INFINITY;
		if (v->integer) {
			v->lo = fmax(v->lo, -r->cap);
			v->hi = fmin(v->hi, r->cap);
		}
		return;
	case SEGC_OP_COUNTER:
		v->exact = v->integer = v->rep = 1;
		return;   /* its interval: from its loop's (below) */
	case SEGC_OP_ADD: case SEGC_OP_SUB:
		of_add(r, v, x, y, in->op == SEGC_OP_SUB);
		break;
	case SEGC_OP_MUL: case SEGC_OP_DIV:
		of_mul(r, v, in, x, y, in->op == SEGC_OP_DIV);
		break;
	case SEGC_OP_FMAX: case SEGC_OP_FMIN:
		of_extremum(v, x, y, in->op == SEGC_OP_FMIN);
		break;
	case SEGC_OP_SELECT:
		v->e = umax(y->e, z->e);
		v->exact = y->exact && z->exact;
		v->integer = y->integer && z->integer;
		v->rep = y->rep && z->rep;
		v->lo = fmin(y->lo, z->lo);
		v->hi = fmax(y->hi, z->hi);
		v->why = x->why ? x->why : y->why ? y->why : z->why;
		return;
	case SEGC_OP_SUM:
		v->e = z->e + 3;
		v->lo = z->lo >= 0 ? 0 : -INFINITY;
		if (z->lo < 0 && !z->why)
			v->why = "a loop summing terms of either sign";
		v->why = v->why ? v->why : z->why;
		return;
	case SEGC_OP_MAXPLUS:
		of_maxplus(v, info, in);
		return;
	case SEGC_OP_TASKPATH:
		v->why = "the longest path of indexed nodes, whose error "
			"grows with the number of instances on it";
		return;
	default:
		of_other(r, v, in, x, y);
		break;
	}
	if (!v->why)
		v->why = x->why ? x->why : segc_plan_noperands(in) > 1 ? y->why
			: NULL;
}

/* The lower (dir < 0) or upper (dir > 0) end of the interval of 'v',
 * widened outwards by a relative 2^-20 when 'v' is rounded, more than
 * its error (at most 10^6 u here): a bound of the double computed for
 * it, as a loop's counter runs between the doubles of its ends. */
static double widen(const vinfo *v, int dir)
{
	double b = dir < 0 ? v->lo : v->hi;

	return v->exact ? b : badd(b, dir * fabs(b) * 0x1p-20, dir);
}

/* One run of the analysis (see the top of the file) over the plan of
 * 'r': NULL with the bound of its result in '*out', or why none holds;
 * r->lost counts what the live values leave unproved. */
static const char *analyse(bound_run *r, unsigned long *out)
{
	const segc_plan *p = r->p;
	vinfo *info = segc_xcalloc(p->n + 1, sizeof *info);
	size_t *start = segc_xcalloc(p->n + 1, sizeof *start);
	size_t *upto = segc_xcalloc(p->n + 1, sizeof *upto);
	size_t *end = segc_xcalloc(p->n + 1, sizeof *end);
	const char *why;
	size_t i;

	for (i = 0; i < p->n; i++) {
		info[i].lo = -INFINITY;
		info[i].hi = INFINITY;
		start[i] = upto[i] = end[i] = SIZE_MAX;
	}
	/* a loop's counter runs up from its start to its end, where they
	 * are computed before it */
	for (i = 0; i < p->n; i++) {
		const segc_plan_insn *in = &p->insn[i];

		if (in->op != SEGC_OP_SUM || in->counter >= p->n)
			continue;
		if (in->a < in->counter)
			start[in->counter] = in->a;
		if (in->b < in->counter)
			end[in->counter] = in->b;
	}
	/* that of a recurrence's runs from 1 to its count (planned first) */
	for (i = 0; i < p->n; i++)
		if (p->insn[i].op == SEGC_OP_MAXPLUS && p->insn[i].mp->varying &&
		    p->insn[i].counter < p->n &&
		    p->insn[i].a < p->insn[i].counter)
			upto[p->insn[i].counter] = p->insn[i].a;
	for (i = 0; i < p->n; i++) {
		unsigned long lost = r->lost;

		of_insn(r, info, i);
		if (!p->insn[i].uses)   /* not computed */
			r->lost = lost;
		if (p->insn[i].op == SEGC_OP_COUNTER && start[i] != SIZE_MAX)
			info[i].lo = widen(&info[start[i]], -1);
		if (p->insn[i].op == SEGC_OP_COUNTER && end[i] != SIZE_MAX)
			info[i].hi = widen(&info[end[i]], 1);
		if (p->insn[i].op == SEGC_OP_COUNTER && upto[i] != SIZE_MAX) {
			info[i].lo = 1;
			info[i].hi = info[upto[i]].hi;
		}
		if (info[i].e > 1000000UL)
			info[i].e = 1000000UL;
	}
	*out = info[p->result].e;
	why = info[p->result].why;
	free(start);
	free(upto);
	free(end);
	free(info);
	return why;
}

/* How the cap of 'r' meets the domains of the integer arguments the
 * plan reads: 0 it narrows none, 1 it narrows some, -1 it leaves
 * nothing of one (a minimum above it). */
static int cap_meets(const bound_run *r)
{
	int narrows = 0;
	size_t i;

	for (i = 0; i < r->p->n; i++) {
		const segc_plan_insn *in = &r->p->insn[i];
		double lo, hi;

		if (in->op != SEGC_OP_ARG || !in->uses || !r->integer ||
		    !r->integer[in->a])
			continue;
		lo = r->lo ? r->lo[in->a] : -INFINITY;
		hi = r->hi ? r->hi[in->a] : INFINITY;
		if (lo > r->cap || hi < -r->cap)
			return -1;
		if (lo < -r->cap || hi > r->cap)
			narrows = 1;
	}
	return narrows;
}

/* The analysis of run 'r' with its integer arguments of magnitude at
 * most 2^k - 1 (k = 0: as their domains say); '*bits' is set to k where
 * that narrows a domain, else to 0. */
static const char *analyse_at(bound_run *r, int k, unsigned long *out,
	int *bits)
{
	r->cap = k ? ldexp(1, k) - 1 : INFINITY;
	r->lost = 0;
	*bits = k && cap_meets(r) > 0 ? k : 0;
	return analyse(r, out);
}

/* See output.h.  Where the domains alone prove every integer the plan
 * computes exactly a double (r.lost is 0), no cap; else the cap 2^k - 1
 * on the integer arguments goes down from k = 53 until they do, but not
 * below MIN_BITS: there the integers that may pass 2^53 count as
 * rounded, unless that leaves no bound, when the search goes on below.
 * A cap below a domain's minimum is not tried. */
const char *segc_plan_error_bound(const segc_plan *p,
	const unsigned char *integer, const double *lo, const double *hi,
	unsigned long *out, int *bits)
{
	bound_run r;
	const char *why;
	int k, lowest = 1, floor_k;

	r.p = p;
	r.integer = integer;
	r.lo = lo;
	r.hi = hi;
	for (k = 53; k >= 1 && lowest == 1; k--) {
		r.cap = ldexp(1, k) - 1;
		if (cap_meets(&r) < 0)
			lowest = k + 1;
	}
	why = analyse_at(&r, 0, out, bits);
	if (!r.lost || lowest > 53)   /* no cap needed, or none possible */
		return why;
	floor_k = lowest > MIN_BITS ? lowest : MIN_BITS;
	for (k = 53; k >= lowest; k--) {
		why = analyse_at(&r, k, out, bits);
		if (!r.lost || (k == floor_k && !why))
			return why;
	}
	return analyse_at(&r, floor_k, out, bits);
}
