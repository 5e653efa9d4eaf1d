/* emit_plan.c - an evaluation plan (plan.c) printed as the C statements
 * of a function's body, in double or compensated (--accurate) arithmetic:
 * C's table for the walk that the languages share (emit_walk.c), C's own
 * forms (its double literals, the double-double operations and constants
 * of --accurate) as its hooks, and the body's end, the return. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "output/emit_private.h"
#include "expr/builtin.h"

/* ------------------------------------------------------------ numbers */

/* Appends 'd' as a C double literal that reads back exactly. */
static void put_double(segc_strbuf *b, double d)
{
	char buf[64];
	int prec;

	for (prec = 15; prec <= 17; prec++) {
		snprintf(buf, sizeof buf, "%.*g", prec, d);
		if (strtod(buf, NULL) == d)
			break;
	}
	if (strtod(buf, NULL) != d)
		snprintf(buf, sizeof buf, "%a", d);
	segc_strbuf_append(b, buf);
	if (!strpbrk(buf, ".enpx"))
		segc_strbuf_append(b, ".0");
}

/* See emit_private.h. */
void segc_emit_put_double(segc_strbuf *b, double d)
{
	put_double(b, d);
}

/* The row of the built-in of 'op' (SEGC_OP_CEIL .. SEGC_OP_FMIN, in
 * that order). */
const segc_builtin_info *segc_emit_op_builtin(enum segc_plan_op op)
{
	static const enum segc_builtin of[] = {
		SEGC_BUILTIN_CEIL, SEGC_BUILTIN_FLOOR, SEGC_BUILTIN_SQRT,
		SEGC_BUILTIN_LOG2, SEGC_BUILTIN_EXP2, SEGC_BUILTIN_MAX,
		SEGC_BUILTIN_MIN
	};

	return segc_builtin_get(of[op - SEGC_OP_CEIL]);
}

/* ------------------------------------------- C's double-doubles */

/* Appends value 'i' as a double-double operand. */
static void put_dd_value(segc_strbuf *b, const segc_emit_namer *nm, size_t i)
{
	if (!segc_emit_is_dd(nm, i)) {
		segc_strbuf_append(b, "dd_d(");
		segc_emit_put_value(b, nm, i);
		segc_strbuf_appendc(b, ')');
	} else {
		segc_emit_put_value(b, nm, i);
	}
}

/* Appends the double-double expression of 'op' on values 'x' and 'y' (y
 * read when 'op' has two operands; the walk's dd_op, emit_walk.c); a
 * double operand of + and * is passed as a double, and of two doubles
 * only the error-free transformation is left (a root is a double: see
 * emit_dd.c). */
static void put_dd_op(segc_strbuf *b, const segc_emit_namer *nm,
	enum segc_plan_op op, size_t x, size_t y)
{
	static const char *const fn[] = {
		"dd_add", "dd_sub", "dd_mul", "dd_div", "dd_neg", "dd_ceil",
		"dd_floor", "dd_sqrt", "dd_log2", "dd_exp2", "dd_max", "dd_min",
		"dd_lt", "dd_le", "dd_gt", "dd_ge", "dd_eq", "dd_ne"
	};
	segc_plan_insn probe;
	int commutes = op == SEGC_OP_ADD || op == SEGC_OP_MUL;
	/* what computes a product exactly takes the body's flag (dd.c.in) */
	const char *flag = op == SEGC_OP_MUL || op == SEGC_OP_DIV ||
		op == SEGC_OP_SQRT ? ", segc_f)" : ")";
	size_t t;

	if (op == SEGC_OP_NOT) {
		segc_strbuf_append(b, "!");
		segc_emit_put_value(b, nm, x);
		return;
	}
	if (commutes && !segc_emit_is_dd(nm, x) && !segc_emit_is_dd(nm, y)) {
		/* of two doubles: the error-free transformation alone */
		segc_strbuf_append(b, op == SEGC_OP_ADD ? "two_sum(" :
			"two_prod(");
		segc_emit_put_value(b, nm, x);
		segc_strbuf_append(b, ", ");
		segc_emit_put_value(b, nm, y);
		segc_strbuf_append(b, flag);
		return;
	}
	if (commutes && !segc_emit_is_dd(nm, x)) {
		t = x;
		x = y;
		y = t;
	}
	if (commutes && !segc_emit_is_dd(nm, y)) {
		segc_strbuf_appendf(b, "%s_d(", fn[op - SEGC_OP_ADD]);
		put_dd_value(b, nm, x);
		segc_strbuf_append(b, ", ");
		segc_emit_put_value(b, nm, y);
		segc_strbuf_append(b, flag);
		return;
	}
	segc_strbuf_appendf(b, "%s(", fn[op - SEGC_OP_ADD]);
	put_dd_value(b, nm, x);
	probe.op = op;
	if (segc_plan_noperands(&probe) == 2) {
		segc_strbuf_append(b, ", ");
		put_dd_value(b, nm, y);
	}
	segc_strbuf_append(b, flag);
}

/* See emit_private.h. */
void segc_emit_const_pair(const segc_emit_namer *nm, size_t i, double *hi,
	double *lo)
{
	const segc_plan_insn *in = &nm->p->insn[i];
	mpq_t r;

	*hi = in->value;
	*lo = 0;
	if (!segc_emit_is_dd(nm, i))
		return;
	mpq_init(r);
	if (segc_plan_round(hi, in->q))
		*hi = 0;
	mpq_set_d(r, *hi);
	mpq_sub(r, in->q, r);
	if (segc_plan_round(lo, r))
		*lo = 0;
	mpq_clear(r);
}

/* Appends the constant 'i', a double-double, as one: the nearest double
 * and the double nearest to what it leaves (the walk's dd_const). */
static void put_dd_const(segc_strbuf *b, const segc_emit_namer *nm, size_t i)
{
	double hi, lo;

	segc_emit_const_pair(nm, i, &hi, &lo);
	segc_strbuf_append(b, "{ ");
	put_double(b, hi);
	segc_strbuf_append(b, ", ");
	put_double(b, lo);
	segc_strbuf_append(b, " }");
}

/* The syntax of C for the printers that the languages share: the walk of
 * a plan (emit_walk.c) and the recurrence of an overlapped loop. */
const segc_emit_syntax segc_emit_c_syntax = {
	.indent = "\t", .semi = ";", .decl = "double ", .decl_end = ";\n",
	.ul = "UL", .real = "", .zero = "0", .and_ = " && ",
	.and_cont = " &&\n", .or_ = " || ", .isfinite = "isfinite(",
	.floor = "floor(", .if_ = "if (", .elif = "else if (",
	.then = ") {\n", .then1 = ")\n", .then_else = ")\n",
	.else1 = "} else\n", .end = "}\n", .end_else = NULL,
	.not_all = "if (!(1", .not_all_end = ")) {\n", .comment = "/* ",
	.comment_end = " */", .incr = "++", .brk = "break",
	.minus_inf = "-HUGE_VAL", .nan = "(double)NAN",
	.sub_open = "[", .sub_sep = "][", .sub_close = "]",
	.mod_open = "(", .mod_sep = ") % ", .mod_close = "",
	.acc = "segc_acc(&%h, &%l, ",
	.helper = "\n/* *hi + *lo + c, the time stamps of an overlapped loop "
		"carried as\n * double-doubles: into *hi the double nearest "
		"the sum, into *lo what it\n * leaves (TwoSum, then "
		"FastTwoSum); an infinite sum stays infinite. */\nstatic "
		"void segc_acc(double *hi, double *lo, double c)\n{\n\t"
		"const double s = *hi + c, t = s - *hi;\n\tconst double e = "
		"((*hi - (s - t)) + (c - t)) + *lo;\n\n\tif (!isfinite(s)) "
		"{\n\t\t*hi = s;\n\t\t*lo = 0;\n\t\treturn;\n\t}\n\t*hi = "
		"s + e;\n\t*lo = e - (*hi - s);\n}\n",
	.step = NULL, .while_ = NULL, .while_end = NULL, .loop_end = "}\n",
	.typed = 1, .block_open = "{\n", .block_close = "}\n",
	.t_real = "double ", .t_count = "unsigned long ", .t_bool = "int ",
	.dims2 = "[%luUL][%luUL]", .dims1 = "[%luUL]", .dims_last = 0,
	.decl_init = 1, .inf_init = NULL, .nocase = 0,
	.decl_first = 1, .decl_top = 0, .t_dd = "segc_dd ",
	.const_ = "const ", .const_note = "; /* ", .put_double = put_double,
	.call_col = offsetof(segc_builtin_info, c), .not_ = "!",
	.ne_open = "!(", .div = NULL,
	.root = "segc_root(", .else_ = "} else {\n", .ternary_q = " ? ",
	.ternary_colon = " : ", .short_junction = 1, .for_ = "for (",
	.add_assign = 1,
	.neumaier = "%i%c += fabs(%s) >= fabs(%t) ?\n"
		"%j(%s - (%s + %t)) + %t :\n%j(%t - (%s + %t)) + %s;\n",
	.dd_open = "dd_d(", .dd_close = ")", .dd_op = put_dd_op,
	.dd_const = put_dd_const, .taskpath = segc_emit_taskpath_c,
	.wrap = NULL
};

/* Appends value 'i' as a double: its high part (the plain double) when
 * it is a double-double. */
static void put_plain(segc_strbuf *b, const segc_emit_namer *nm, size_t i)
{
	segc_emit_put_value(b, nm, i);
	if (segc_emit_is_dd(nm, i))
		segc_strbuf_append(b, ".hi");
}

/* Appends the body statements of the plan: constants, then one temporary
 * per operation, then a (void) for every argument the formula leaves
 * unused, then the return. */
void segc_emit_plan_body(segc_strbuf *b, const segc_emit_namer *nm)
{
	const segc_plan *p = nm->p;
	size_t i;
	int *used = segc_xcalloc(p->nargs + 1, sizeof *used);

	segc_emit_pack_decls(b, nm);
	(void)segc_emit_walk_block(b, nm, &segc_emit_c_syntax, 0, 1);
	for (i = 0; i < p->n; i++)
		if (p->insn[i].op == SEGC_OP_ARG && p->insn[i].uses)
			used[p->insn[i].a] = 1;
	for (i = 0; i < p->nargs; i++)
		if (!used[i])
			segc_strbuf_appendf(b, "\t(void)%s;\n", nm->arg[i]);
	free(used);
	if (nm->accurate)
		segc_strbuf_append(b, "\tSEGC_DD_USES;\n\t(void)segc_f;\n");
	if (segc_emit_is_dd(nm, p->result)) {
		/* the pair rounded once, into a double of its own */
		segc_strbuf_append(b, "\t{\n\t\tconst double segc_v = dd_val(");
		segc_emit_put_value(b, nm, p->result);
		segc_strbuf_append(b, ");\n\n\t\treturn ");
		segc_strbuf_append(b, nm->clamp ? "segc_v > 0 || isnan(segc_v) ? "
			"segc_v : 0.0;\n\t}\n" : "segc_v;\n\t}\n");
		return;
	}
	segc_strbuf_append(b, "\n\treturn ");
	put_plain(b, nm, p->result);
	if (!nm->clamp) {
		segc_strbuf_append(b, ";\n");
		return;
	}
	/* a time proved >= 0: a rounded residue below 0 (or -0.0) is 0;
	 * NaN stays */
	segc_strbuf_append(b, " > 0 || isnan(");
	put_plain(b, nm, p->result);
	segc_strbuf_append(b, ") ? ");
	put_plain(b, nm, p->result);
	segc_strbuf_append(b, " : 0.0;\n");
}

/* Numbers the constants, the temporaries and the counters of 'nm->p'
 * separately. */
void segc_emit_number_values(segc_emit_namer *nm)
{
	size_t i, nc = 0, nt = 0, nk = 0;

	nm->number = segc_xcalloc(nm->p->n + 1, sizeof *nm->number);
	for (i = 0; i < nm->p->n; i++) {
		if (!nm->p->insn[i].uses)
			continue;
		if (nm->p->insn[i].op == SEGC_OP_CONST)
			nm->number[i] = nc++;
		else if (nm->p->insn[i].op == SEGC_OP_COUNTER)
			nm->number[i] = nk++;
		else if (nm->p->insn[i].op != SEGC_OP_ARG)
			nm->number[i] = nt++;
	}
	nm->ncounters = nk;
	segc_emit_mark_dd(nm);
}
