/* plan_bound.c - a forward error analysis of an evaluation plan: a bound
 * on the relative error of its result, in units u = 2^-53 (the relative
 * error of one rounding to nearest), to first order.  Every value carries
 * its bound, whether it is computed exactly (an integer below 2^53 from
 * integers, a constant that is a double), and an interval that holds it
 * (from the arguments' domains, for the signs).  The rules: a constant
 * costs 1 when it is rounded; a sum or difference of exact integers
 * nothing; of two other values that are doubles without error 1 (one
 * rounding, whatever their signs); of values that the intervals show to
 * have one sign the larger of their bounds plus 1; a product by a power
 * of 2 nothing; another product or quotient the sum of the bounds plus 1
 * (nothing for exact integers); a maximum or minimum the larger bound
 * (max and min are monotone, so operands within a relative e of their
 * values give a result within e of its value, whatever the signs); sqrt
 * half the bound plus 1; log2 2 of an exact argument (glibc's log2 is
 * within 1 ulp).  A loop sums its terms with compensation (Neumaier's),
 * which costs 2 more, while it runs fewer than 2^26 times.  ceil and floor
 * of log2 of an exact integer are exact for integers below 2^26 (the bound
 * assumes that range); ceil and floor of a quotient of exact integers a/b
 * are exact when |a| + |b| < 2^53: a/b is then at least 1/|b| from any
 * integer it is not, farther than half an ulp, so the one rounding of the
 * division never reaches an integer (the bound then assumes integers below
 * 2^52).  What has no such bound: a sum of rounded values whose signs the
 * domains leave open, ceil, floor and log2 of another rounded value and
 * comparisons of rounded values (a jump).  The recurrence of an
 * overlapped loop carries its time stamps as double-doubles
 * (emit_maxplus.c): with costs the intervals show >= 0, its result is
 * within the largest bound of its costs plus 1 (the additions' errors,
 * below u/2 for fewer than 2^26 iterations, and the last rounding), plus
 * 1 more where the period check may jump to the end (a product and a sum
 * rounded); with a count that is not exact or a cost that may be
 * negative, it has none. */
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
	int log2_int;      /* log2 of an exact integer, which is exact at
	                    * the powers of 2 and at least 2^-27 from any
	                    * other integer below 2^26: ceil and floor of it
	                    * are exact there */
	int int_quot;      /* a quotient of exact integers */
	int quot_used;     /* ceil or floor of such a quotient, exact for
	                    * integers below 2^52 */
	const char *why;   /* NULL, or why no bound holds */
} vinfo;

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

/* A sum (or, with 'sub', a difference) of 'x' and 'y'. */
static void of_add(vinfo *v, const vinfo *x, const vinfo *y, int sub)
{
	double ylo = sub ? -y->hi : y->lo, yhi = sub ? -y->lo : y->hi;

	v->lo = badd(x->lo, ylo, -1);
	v->hi = badd(x->hi, yhi, 1);
	if (x->exact && y->exact && x->integer && y->integer) {
		v->exact = v->integer = v->rep = 1;
		v->e = 0;
		return;
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

/* A product (or, with 'div', a quotient) of 'x' and 'y', the operands
 * of 'in' in 'p'. */
static void of_mul(vinfo *v, const segc_plan *p, const segc_plan_insn *in,
	const vinfo *x, const vinfo *y, int div)
{
	if (div)
		div_interval(v, x, y);
	else
		mul_interval(v, x, y);
	if (!div && x->exact && y->exact && x->integer && y->integer) {
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
	v->int_quot = div && x->exact && y->exact && x->integer &&
		y->integer;
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

/* The other operations of 'in', whose operands are 'x' and 'y'. */
static void of_other(vinfo *v, const segc_plan_insn *in, const vinfo *x,
	const vinfo *y)
{
	switch (in->op) {
	case SEGC_OP_NEG:
		*v = *x;
		v->lo = -x->hi;
		v->hi = -x->lo;
		break;
	case SEGC_OP_CEIL: case SEGC_OP_FLOOR:
		if (!x->exact && !x->log2_int && !x->int_quot)
			v->why = "ceil or floor of a rounded value";
		v->quot_used = x->int_quot && !x->exact;
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
		v->log2_int = x->exact && x->integer;
		v->e = 2;
		v->lo = x->lo >= 1 ? 0 : -INFINITY;
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

/* The bound of value 'i' of 'p' from those before it. */
static void of_insn(vinfo *info, const segc_plan *p, size_t i,
	const unsigned char *integer, const double *lo, const double *hi)
{
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
		v->integer = integer ? integer[in->a] : 0;
		v->lo = lo ? lo[in->a] : -INFINITY;
		v->hi = hi ? hi[in->a] : INFINITY;
		return;
	case SEGC_OP_COUNTER:
		v->exact = v->integer = v->rep = 1;
		return;   /* its lower bound: that of its loop's start */
	case SEGC_OP_ADD: case SEGC_OP_SUB:
		of_add(v, x, y, in->op == SEGC_OP_SUB);
		break;
	case SEGC_OP_MUL: case SEGC_OP_DIV:
		of_mul(v, p, in, x, y, in->op == SEGC_OP_DIV);
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
		of_other(v, in, x, y);
		break;
	}
	if (!v->why)
		v->why = x->why ? x->why : segc_plan_noperands(in) > 1 ? y->why
			: NULL;
}

/* See output.h. */
const char *segc_plan_error_bound(const segc_plan *p,
	const unsigned char *integer, const double *lo, const double *hi,
	unsigned long *out, int *quot)
{
	vinfo *info = segc_xcalloc(p->n + 1, sizeof *info);
	size_t *start = segc_xcalloc(p->n + 1, sizeof *start);
	size_t *upto = segc_xcalloc(p->n + 1, sizeof *upto);
	const char *why;
	size_t i;

	/* a loop's counter runs up from its start (computed before it) */
	for (i = 0; i < p->n; i++) {
		info[i].lo = -INFINITY;
		info[i].hi = INFINITY;
		start[i] = upto[i] = SIZE_MAX;
	}
	for (i = 0; i < p->n; i++)
		if (p->insn[i].op == SEGC_OP_SUM && p->insn[i].counter < p->n &&
		    p->insn[i].a < p->insn[i].counter)
			start[p->insn[i].counter] = p->insn[i].a;
	/* that of a recurrence's runs from 1 to its count (planned first) */
	for (i = 0; i < p->n; i++)
		if (p->insn[i].op == SEGC_OP_MAXPLUS && p->insn[i].mp->varying &&
		    p->insn[i].counter < p->n &&
		    p->insn[i].a < p->insn[i].counter)
			upto[p->insn[i].counter] = p->insn[i].a;
	for (i = 0; i < p->n; i++) {
		of_insn(info, p, i, integer, lo, hi);
		if (p->insn[i].op == SEGC_OP_COUNTER && start[i] != SIZE_MAX)
			info[i].lo = info[start[i]].lo;
		if (p->insn[i].op == SEGC_OP_COUNTER && upto[i] != SIZE_MAX) {
			info[i].lo = 1;
			info[i].hi = info[upto[i]].hi;
		}
		if (info[i].e > 1000000UL)
			info[i].e = 1000000UL;
	}
	*out = info[p->result].e;
	why = info[p->result].why;
	*quot = 0;
	for (i = 0; i < p->n; i++)
		*quot |= info[i].quot_used;
	free(start);
	free(upto);
	free(info);
	return why;
}
