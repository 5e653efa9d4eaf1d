/* emit_dd.c - which values of a plan are double-doubles in --accurate C:
 * only those that may carry a rounding error.  A value computed exactly
 * in double from exact doubles (an argument, a counter, a constant that
 * is a double, ceil, floor, -x, max or min of such values, an if between
 * them) has no low part to carry: it stays a plain double, and the
 * operations on it take a double operand (dd_add_d, dd_mul_d), which
 * saves the compensation's work where none is needed.  log2 and the
 * roots of a double are computed in double under --accurate anyway (they
 * have no compensated form), so they are doubles too. */
#include <stdlib.h>
#include "output/emit_private.h"

/* Non-zero when the constant 'in' is a double exactly. */
static int const_is_double(const segc_plan_insn *in)
{
	mpq_t d;
	int exact;

	mpq_init(d);
	mpq_set_d(d, in->value);
	exact = mpq_equal(d, in->q);
	mpq_clear(d);
	return exact;
}

/* Non-zero when instruction 'i' of 'p' needs a low part, given those of
 * the values before it ('dd'). */
static int needs_dd(const segc_plan *p, const unsigned char *dd, size_t i)
{
	const segc_plan_insn *in = &p->insn[i];

	if (segc_plan_is_condition(in))
		return 0;
	switch (in->op) {
	case SEGC_OP_ARG: case SEGC_OP_COUNTER: case SEGC_OP_ROOT:
		return 0;
	case SEGC_OP_CONST:
		return !const_is_double(in);
	case SEGC_OP_NEG: case SEGC_OP_CEIL: case SEGC_OP_FLOOR:
	case SEGC_OP_LOG2:
		return dd[in->a];
	case SEGC_OP_FMAX: case SEGC_OP_FMIN:
		return dd[in->a] || dd[in->b];
	case SEGC_OP_SELECT:
		return dd[in->b] || dd[in->c];
	default:
		return 1;
	}
}

/* See emit_private.h. */
void segc_emit_mark_dd(segc_emit_namer *nm)
{
	size_t i;

	nm->dd = NULL;
	if (!nm->accurate)
		return;
	nm->dd = segc_xcalloc(nm->p->n + 1, sizeof *nm->dd);
	/* operands come before the values computed from them */
	for (i = 0; i < nm->p->n; i++)
		nm->dd[i] = (unsigned char)needs_dd(nm->p, nm->dd, i);
}

/* See emit_private.h. */
int segc_emit_is_dd(const segc_emit_namer *nm, size_t i)
{
	return nm->dd && nm->dd[i];
}
