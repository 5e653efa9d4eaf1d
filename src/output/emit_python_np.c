/* emit_python_np.c - the array form of a function of the Python predictor:
 * the same plan printed as numpy operations on whole arrays (no Python
 * loop per point), numpy imported only when arrays are given.  Every
 * instruction is computed for every point, in the order of the plan:
 * both sides of an if (np.where chooses), both operands of and/or, under
 * np.errstate(all='ignore') so that a side not chosen may divide by zero.
 * The operations give the doubles of the scalar path (IEEE arithmetic,
 * np.fmax/np.fmin ignore a NaN as C's do).  A plan with a loop (a sum
 * without closed form, an overlapped loop's recurrence) is evaluated
 * point by point (np.vectorize of the scalar function). */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "output/emit_private.h"
#include "expr/builtin.h"

/* The syntax of the array form, for the expressions of the walk that
 * the languages share (emit_walk.c): every operation enclosed, numpy's
 * functions, & of arrays of booleans. */
static const segc_emit_syntax np_syntax = {
	.and_ = " & ", .not_ = "_segc_np.logical_not(", .not_close = ")",
	.ne_open = "_segc_np.logical_not(", .infix_open = "(",
	.infix_close = ")", .call_prefix = "_segc_np.",
	.call_col = offsetof(segc_builtin_info, numpy), .div = NULL,
	.and_fn = "logical_and", .or_fn = "logical_or",
	.root = "_segc_root_v("
};

/* Appends the numpy expression of instruction 'i' (not a constant nor an
 * argument): a selection by np.where, the others as the walk writes
 * them; -1 for one that needs a loop. */
static int put_np_expr(segc_strbuf *b, const segc_emit_namer *nm, size_t i)
{
	const segc_plan_insn *in = &nm->p->insn[i];

	if (in->op != SEGC_OP_SELECT)
		return segc_emit_walk_expr(b, nm, &np_syntax, i);
	segc_strbuf_append(b, "_segc_np.where(");
	segc_emit_put_value(b, nm, in->a);
	segc_strbuf_append(b, ", ");
	segc_emit_put_value(b, nm, in->b);
	segc_strbuf_append(b, ", ");
	segc_emit_put_value(b, nm, in->c);
	segc_strbuf_append(b, ")");
	return 0;
}

/* Non-zero when the plan 'p' holds a loop (a SUM, MAXPLUS or TASKPATH)
 * among its live instructions. */
static int has_loop(const segc_plan *p)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		if (p->insn[i].uses && (p->insn[i].op == SEGC_OP_SUM ||
		    p->insn[i].op == SEGC_OP_MAXPLUS ||
		    p->insn[i].op == SEGC_OP_TASKPATH))
			return 1;
	return 0;
}

/* Appends the parameters "(A, B, ...)" of the function. */
static void put_args(segc_strbuf *b, const segc_emit_namer *nm)
{
	size_t i;

	segc_strbuf_appendc(b, '(');
	for (i = 0; i < nm->p->nargs; i++)
		segc_strbuf_appendf(b, "%s%s", i ? ", " : "", nm->arg[i]);
	segc_strbuf_appendc(b, ')');
}

/* Appends the array form '_NAME_v' of the function NAME ('fname') of plan
 * 'nm->p' (see the top of the file), 'put_const' printing a constant's
 * float literal. */
void segc_emit_python_vector(segc_strbuf *b, const segc_emit_namer *nm,
	const char *fname, void (*put_const)(segc_strbuf *, double))
{
	const segc_plan *p = nm->p;
	size_t i;

	segc_strbuf_appendf(b, "\n\ndef _%s_v", fname);
	put_args(b, nm);
	segc_strbuf_appendf(b, ":\n    \"\"\"%s at every point of its arrays "
		"(numpy broadcasting).\"\"\"\n    _segc_np = _segc_numpy()\n",
		fname);
	if (has_loop(p)) {
		segc_strbuf_appendf(b, "    return _segc_np.vectorize(%s, "
			"otypes=[float])", fname);
		put_args(b, nm);
		segc_strbuf_append(b, "\n");
		return;
	}
	/* the arguments as arrays of one shape */
	segc_strbuf_append(b, "    ");
	for (i = 0; i < p->nargs; i++)
		segc_strbuf_appendf(b, "%s%s", i ? ", " : "", nm->arg[i]);
	segc_strbuf_append(b, " = _segc_np.broadcast_arrays(");
	for (i = 0; i < p->nargs; i++)
		segc_strbuf_appendf(b, "%s\n        _segc_np.asarray(%s, "
			"dtype=float)", i ? "," : "", nm->arg[i]);
	segc_strbuf_append(b, ")\n");
	segc_strbuf_append(b, "    with _segc_np.errstate(all='ignore'):\n");
	for (i = 0; i < p->n; i++) {
		const segc_plan_insn *in = &p->insn[i];

		if (!in->uses || in->op == SEGC_OP_ARG)
			continue;
		segc_strbuf_append(b, "        ");
		segc_emit_put_value(b, nm, i);
		segc_strbuf_append(b, " = ");
		if (in->op == SEGC_OP_CONST)
			put_const(b, in->value);
		else
			put_np_expr(b, nm, i);
		segc_strbuf_append(b, "\n");
	}
	/* a time proved >= 0: a rounded residue below 0 (or -0.0) is 0 */
	if (!nm->clamp) {
		segc_strbuf_append(b, "        _segc_r = ");
		segc_emit_put_value(b, nm, p->result);
		segc_strbuf_appendf(b, " + 0.0\n    return _segc_np.broadcast_to("
			"_segc_r, %s.shape).copy()\n", nm->arg[0]);
		return;
	}
	segc_strbuf_append(b, "        _segc_r = _segc_np.where(");
	segc_emit_put_value(b, nm, p->result);
	segc_strbuf_append(b, " > 0.0, ");
	segc_emit_put_value(b, nm, p->result);
	segc_strbuf_append(b, ", _segc_np.where(_segc_np.isnan(");
	segc_emit_put_value(b, nm, p->result);
	segc_strbuf_append(b, "), ");
	segc_emit_put_value(b, nm, p->result);
	segc_strbuf_append(b, ", 0.0))\n");
	segc_strbuf_appendf(b, "    return _segc_np.broadcast_to(_segc_r, "
		"%s.shape).copy()\n", nm->arg[0]);
}
