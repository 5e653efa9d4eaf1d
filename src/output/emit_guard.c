/* emit_guard.c - a predictor's answer at a point where a loop count is
 * negative: NaN, never a negative time.  'segc eval' refuses such a point
 * (a loop count must be >= 0, format.md 4.2); the predictor, which
 * cannot refuse, computes if(c1 >= 0 and c2 >= 0 ..., F, sqrt(min(c1,
 * c2, ...))): F where every count is >= 0, else the square root of a
 * negative number, NaN in C, Python and Fortran alike.  Only the counts
 * the domains do not prove >= 0 are tested, and only those whose names
 * are all arguments (a count that names a loop counter is left out). */
#include <stdlib.h>
#include <string.h>
#include "output/emit_private.h"

/* Non-zero when every name 'e' uses freely is one of the 'nargs' names
 * 'args' (the names a sum binds excepted). */
static int names_are_args(const segc_expr *e, size_t nargs,
	const char *const *args, const char *bound)
{
	size_t i;

	switch (segc_expr_kind(e)) {
	case SEGC_NUM:
		return 1;
	case SEGC_SYM:
		if (bound && !strcmp(bound, segc_expr_name(e)))
			return 1;
		for (i = 0; i < nargs; i++)
			if (!strcmp(args[i], segc_expr_name(e)))
				return 1;
		return 0;
	case SEGC_SUM:
		/* one level of binding is all a count needs */
		if (bound)
			return 0;
		bound = segc_expr_name(e);
		break;
	default:
		break;
	}
	for (i = 0; i < segc_expr_nargs(e); i++)
		if (!names_are_args(segc_expr_arg(e, i), nargs, args, bound))
			return 0;
	return 1;
}

/* The formula 'e' that gives NaN where one of the 'n' loop counts 'counts'
 * is negative (see above); a copy of 'e' when none needs testing. */
segc_expr *segc_emit_guard_counts(segc_ctx *ctx, const segc_domains *dom,
	const segc_expr *e, size_t n, segc_expr *const *counts,
	size_t nargs, const char *const *args)
{
	segc_expr **keep = segc_xcalloc(n + 1, sizeof *keep);
	segc_expr *cond = NULL, *low = NULL, *a[3];
	size_t i, j, k = 0;

	for (i = 0; i < n; i++) {
		const segc_expr *c = counts[i];

		if (segc_expr_is_num(c) || !names_are_args(c, nargs, args,
		    NULL) || (dom && (segc_proved_signs(ctx, dom, c) &
		    (SEGC_PROVED_NONNEG | SEGC_PROVED_POS))))
			continue;
		/* expressions are hash-consed: equal ones are one pointer */
		for (j = 0; j < k && keep[j] != c; j++)
			;
		if (j == k)
			keep[k++] = (segc_expr *)c;
	}
	if (!k) {
		free(keep);
		return segc_expr_copy(e);
	}
	for (i = 0; i < k; i++) {
		a[0] = segc_expr_copy(keep[i]);
		a[1] = segc_expr_int(0);
		a[2] = segc_expr_call(">=", 2, a);
		if (cond) {
			a[0] = cond;
			a[1] = a[2];
			a[2] = segc_expr_call("and", 2, a);
		}
		cond = a[2];
		if (low) {
			a[0] = low;
			a[1] = segc_expr_copy(keep[i]);
			low = segc_expr_call("min", 2, a);
		} else {
			low = segc_expr_copy(keep[i]);
		}
	}
	free(keep);
	a[0] = cond;
	a[1] = segc_expr_copy(e);
	a[2] = segc_expr_call("sqrt", 1, &low);
	return segc_expr_call("if", 3, a);
}
