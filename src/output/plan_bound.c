/* plan_bound.c - a forward error analysis of an evaluation plan: a bound
 * on the relative error of its result, in units u = 2^-53 (the relative
 * error of one rounding to nearest), to first order.  Every value carries
 * its bound, whether it is computed exactly (an integer below 2^53 from
 * integers, a constant that is a double), and a lower bound of its value
 * (for the signs).  The rules: a constant costs 1 when it is rounded; a
 * sum of non-negative values the larger of their bounds plus 1; a sum or
 * difference of exact integers nothing; a product or quotient the sum of
 * the bounds plus 1 (nothing for exact integers); a maximum or minimum of
 * non-negative values the larger bound; sqrt half the bound plus 1; log2
 * 2 of an exact argument (glibc's log2 is within 1 ulp).  A loop sums its
 * terms with compensation (Neumaier's), which costs 2 more, while it runs
 * fewer than 2^26 times.  ceil and floor of log2 of an exact integer are
 * exact for integers below 2^26 (the bound assumes that range).  What has
 * no such bound: a sum of values of either sign that are not exact, ceil,
 * floor and log2 of a rounded value and comparisons of rounded values (a
 * jump), and the recurrence of an overlapped loop (its error grows with
 * its count). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include "output/output.h"

/* What is known of one value. */
typedef struct vinfo {
	unsigned long e;   /* bound, in u */
	int exact;         /* computed without error */
	int integer;       /* an integer (when exact) */
	double lo;         /* a lower bound of its value (-inf: none) */
	int log2_int;      /* log2 of an exact integer, which is exact at
	                    * the powers of 2 and at least 2^-27 from any
	                    * other integer below 2^26: ceil and floor of it
	                    * are exact there */
	const char *why;   /* NULL, or why no bound holds */
} vinfo;

/* The constant 'in'. */
static void of_const(vinfo *v, const segc_plan_insn *in)
{
	mpq_t d;

	mpq_init(d);
	mpq_set_d(d, in->value);
	v->exact = in->rounding != 0 || mpq_equal(d, in->q);
	v->e = v->exact ? 0 : 1;
	v->integer = v->exact && !mpz_cmp_ui(mpq_denref(in->q), 1) &&
		fabs(in->value) <= 9007199254740992.0;
	v->lo = mpq_sgn(in->q) >= 0 ? 0 : in->value;
	if (in->value > 0)
		v->lo = v->exact ? in->value : in->value * (1 - 0x1p-52);
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
	if (x->exact && y->exact && x->integer && y->integer) {
		v->exact = v->integer = 1;
		v->e = 0;
		v->lo = sub ? -INFINITY : x->lo + y->lo;
		return;
	}
	if (sub || x->lo < 0 || y->lo < 0) {
		v->why = "a sum of rounded terms of either sign";
		v->lo = -INFINITY;
		return;
	}
	v->e = umax(x->e, y->e) + 1;
	v->lo = x->lo + y->lo;
}

/* A product (or, with 'div', a quotient) of 'x' and 'y'. */
static void of_mul(vinfo *v, const vinfo *x, const vinfo *y, int div)
{
	v->lo = x->lo >= 0 && y->lo >= 0 ? (div ? 0 : x->lo * y->lo)
		: -INFINITY;
	if (!div && x->exact && y->exact && x->integer && y->integer) {
		v->exact = v->integer = 1;
		v->e = 0;
		return;
	}
	v->e = x->e + y->e + 1;
}

/* max (or, with 'min', min) of 'x' and 'y'. */
static void of_extremum(vinfo *v, const vinfo *x, const vinfo *y, int min)
{
	v->lo = min ? fmin(x->lo, y->lo) : fmax(x->lo, y->lo);
	if (x->exact && y->exact) {
		v->exact = 1;
		v->integer = x->integer && y->integer;
		return;
	}
	if (x->lo < 0 || y->lo < 0)
		v->why = "a maximum or minimum of rounded values of either sign";
	v->e = umax(x->e, y->e);
}

/* The other operations of 'in', whose operands are 'x' and 'y'. */
static void of_other(vinfo *v, const segc_plan_insn *in, const vinfo *x,
	const vinfo *y)
{
	switch (in->op) {
	case SEGC_OP_NEG:
		*v = *x;
		v->lo = -INFINITY;
		break;
	case SEGC_OP_CEIL: case SEGC_OP_FLOOR:
		if (!x->exact && !x->log2_int)
			v->why = "ceil or floor of a rounded value";
		v->exact = v->integer = 1;
		v->lo = in->op == SEGC_OP_CEIL ? ceil(x->lo) : floor(x->lo);
		break;
	case SEGC_OP_SQRT:
		v->e = (x->e + 1) / 2 + 1;
		v->lo = x->lo > 0 ? sqrt(x->lo) * (1 - 0x1p-50) : 0;
		break;
	case SEGC_OP_ROOT:
		/* cbrt: glibc's table of known errors, at most 4 ulp (8 u);
		 * pow(x, 1.0/q): 1 ulp, and the exponent's rounding, relative
		 * 2^-53, changes x^(1/q) by a factor x^(d/q) with |d| <= u/q:
		 * |ln x| <= 745 over the doubles */
		v->e = (x->e + in->b - 1) / in->b + (in->b == 3 ? 8 :
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
		v->exact = v->integer = 1;
		v->lo = 0;
		break;
	}
}

/* The bound of value 'i' of 'p' from those before it. */
static void of_insn(vinfo *info, const segc_plan *p, size_t i,
	const unsigned char *integer, const double *lo)
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
		v->exact = 1;
		v->integer = integer ? integer[in->a] : 0;
		v->lo = lo ? lo[in->a] : -INFINITY;
		return;
	case SEGC_OP_COUNTER:
		v->exact = v->integer = 1;
		return;   /* its lower bound: that of its loop's start */
	case SEGC_OP_ADD: case SEGC_OP_SUB:
		of_add(v, x, y, in->op == SEGC_OP_SUB);
		break;
	case SEGC_OP_MUL: case SEGC_OP_DIV:
		of_mul(v, x, y, in->op == SEGC_OP_DIV);
		break;
	case SEGC_OP_FMAX: case SEGC_OP_FMIN:
		of_extremum(v, x, y, in->op == SEGC_OP_FMIN);
		break;
	case SEGC_OP_SELECT:
		v->e = umax(y->e, z->e);
		v->exact = y->exact && z->exact;
		v->integer = y->integer && z->integer;
		v->lo = fmin(y->lo, z->lo);
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
		v->why = "the recurrence of an overlapped loop, whose error "
			"grows with its count";
		v->lo = 0;
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
	const unsigned char *integer, const double *lo, unsigned long *out)
{
	vinfo *info = segc_xcalloc(p->n + 1, sizeof *info);
	const char *why;
	size_t i;

	size_t *start = segc_xcalloc(p->n + 1, sizeof *start);

	/* a loop's counter runs up from its start (computed before it) */
	for (i = 0; i < p->n; i++) {
		info[i].lo = -INFINITY;
		start[i] = SIZE_MAX;
	}
	for (i = 0; i < p->n; i++)
		if (p->insn[i].op == SEGC_OP_SUM && p->insn[i].counter < p->n &&
		    p->insn[i].a < p->insn[i].counter)
			start[p->insn[i].counter] = p->insn[i].a;
	for (i = 0; i < p->n; i++) {
		of_insn(info, p, i, integer, lo);
		if (p->insn[i].op == SEGC_OP_COUNTER && start[i] != SIZE_MAX)
			info[i].lo = info[start[i]].lo;
		if (info[i].e > 1000000UL)
			info[i].e = 1000000UL;
	}
	*out = info[p->result].e;
	why = info[p->result].why;
	free(start);
	free(info);
	return why;
}
