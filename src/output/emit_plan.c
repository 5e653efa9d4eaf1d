/* emit_plan.c - an evaluation plan (plan.c) printed as the C statements
 * of a function's body: constants, one temporary per operation, blocks as
 * if/else and loops, in double or compensated (--accurate) arithmetic. */
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

/* --------------------------------------------------- printing a plan */


/* Non-zero when value 'i' is a plain double in every mode: an argument
 * or a loop counter. */
static int is_plain(const segc_emit_namer *nm, size_t i)
{
	enum segc_plan_op op = nm->p->insn[i].op;

	return op == SEGC_OP_ARG || op == SEGC_OP_COUNTER;
}

/* Appends value 'i' as a double: its high part (the plain double) when
 * it is a double-double. */
static void put_plain(segc_strbuf *b, const segc_emit_namer *nm, size_t i)
{
	segc_emit_put_value(b, nm, i);
	if (segc_emit_is_dd(nm, i))
		segc_strbuf_append(b, ".hi");
}

/* Appends the C expression of the comparison 'op' of values 'x' and 'y'
 * in double: == and != without comparing doubles for equality. */
static void put_compare(segc_strbuf *b, const segc_emit_namer *nm,
	enum segc_plan_op op, size_t x, size_t y)
{
	static const char *const infix[] = { " < ", " <= ", " > ", " >= " };

	if (op == SEGC_OP_EQ || op == SEGC_OP_NE) {
		segc_strbuf_append(b, op == SEGC_OP_EQ ? "(" : "!(");
		segc_emit_put_value(b, nm, x);
		segc_strbuf_append(b, " <= ");
		segc_emit_put_value(b, nm, y);
		segc_strbuf_append(b, " && ");
		segc_emit_put_value(b, nm, x);
		segc_strbuf_append(b, " >= ");
		segc_emit_put_value(b, nm, y);
		segc_strbuf_append(b, ")");
		return;
	}
	segc_emit_put_value(b, nm, x);
	segc_strbuf_append(b, infix[op - SEGC_OP_LT]);
	segc_emit_put_value(b, nm, y);
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

/* The C function of the instruction 'op' (see segc_emit_op_builtin). */
static const char *c_function(enum segc_plan_op op)
{
	return segc_emit_op_builtin(op)->c;
}

/* Appends the root a^(1/q) of the ROOT instruction 'in' (q = in->b, odd):
 * segc_root(a, q) (emit_root.c); of a's high part when it is a
 * double-double (a root has no compensated form). */
static void put_root(segc_strbuf *b, const segc_emit_namer *nm,
	const segc_plan_insn *in)
{
	segc_strbuf_append(b, "segc_root(");
	put_plain(b, nm, in->a);
	segc_strbuf_appendf(b, ", %lu)", (unsigned long)in->b);
}

/* Appends the C expression of instruction 'i'. */
static void put_insn_expr(segc_strbuf *b, const segc_emit_namer *nm, size_t i)
{
	static const char *const infix[] = { " + ", " - ", " * ", " / " };
	const segc_plan_insn *in = &nm->p->insn[i];

	switch (in->op) {
	case SEGC_OP_ADD: case SEGC_OP_SUB: case SEGC_OP_MUL: case SEGC_OP_DIV:
		segc_emit_put_value(b, nm, in->a);
		segc_strbuf_append(b, infix[in->op - SEGC_OP_ADD]);
		segc_emit_put_value(b, nm, in->b);
		break;
	case SEGC_OP_NEG: case SEGC_OP_NOT:
		segc_strbuf_append(b, in->op == SEGC_OP_NEG ? "-" : "!");
		segc_emit_put_value(b, nm, in->a);
		break;
	case SEGC_OP_FMAX: case SEGC_OP_FMIN:
		segc_strbuf_appendf(b, "%s(", c_function(in->op));
		segc_emit_put_value(b, nm, in->a);
		segc_strbuf_append(b, ", ");
		segc_emit_put_value(b, nm, in->b);
		segc_strbuf_append(b, ")");
		break;
	case SEGC_OP_LT: case SEGC_OP_LE: case SEGC_OP_GT: case SEGC_OP_GE:
	case SEGC_OP_EQ: case SEGC_OP_NE:
		put_compare(b, nm, in->op, in->a, in->b);
		break;
	case SEGC_OP_ROOT:
		put_root(b, nm, in);
		break;
	default:
		segc_strbuf_appendf(b, "%s(", c_function(in->op));
		segc_emit_put_value(b, nm, in->a);
		segc_strbuf_append(b, ")");
		break;
	}
}

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

/* Appends the double-double expression of instruction 'i'; a double
 * operand of + and * is passed as a double, and of two doubles only
 * the error-free transformation is left (a root is a double: see
 * emit_dd.c). */
static void put_dd_expr(segc_strbuf *b, const segc_emit_namer *nm, size_t i)
{
	static const char *const fn[] = {
		"dd_add", "dd_sub", "dd_mul", "dd_div", "dd_neg", "dd_ceil",
		"dd_floor", "dd_sqrt", "dd_log2", "dd_exp2", "dd_max", "dd_min",
		"dd_lt", "dd_le", "dd_gt", "dd_ge", "dd_eq", "dd_ne"
	};
	const segc_plan_insn *in = &nm->p->insn[i];
	size_t x = in->a, y = in->b;
	int commutes = in->op == SEGC_OP_ADD || in->op == SEGC_OP_MUL;
	/* what computes a product exactly takes the body's flag (dd.c.in) */
	const char *flag = in->op == SEGC_OP_MUL || in->op == SEGC_OP_DIV ||
		in->op == SEGC_OP_SQRT ? ", segc_f)" : ")";

	if (in->op == SEGC_OP_NOT) {
		segc_strbuf_append(b, "!");
		segc_emit_put_value(b, nm, x);
		return;
	}
	if (commutes && !segc_emit_is_dd(nm, x) && !segc_emit_is_dd(nm, y)) {
		/* of two doubles: the error-free transformation alone */
		segc_strbuf_append(b, in->op == SEGC_OP_ADD ? "two_sum(" :
			"two_prod(");
		segc_emit_put_value(b, nm, x);
		segc_strbuf_append(b, ", ");
		segc_emit_put_value(b, nm, y);
		segc_strbuf_append(b, flag);
		return;
	}
	if (commutes && !segc_emit_is_dd(nm, x)) {
		x = in->b;
		y = in->a;
	}
	if (commutes && !segc_emit_is_dd(nm, y)) {
		segc_strbuf_appendf(b, "%s_d(", fn[in->op - SEGC_OP_ADD]);
		put_dd_value(b, nm, x);
		segc_strbuf_append(b, ", ");
		segc_emit_put_value(b, nm, y);
		segc_strbuf_append(b, flag);
		return;
	}
	segc_strbuf_appendf(b, "%s(", fn[in->op - SEGC_OP_ADD]);
	put_dd_value(b, nm, x);
	if (segc_plan_noperands(in) == 2) {
		segc_strbuf_append(b, ", ");
		put_dd_value(b, nm, y);
	}
	segc_strbuf_append(b, flag);
}

/* Appends the constant 'q' as a double-double: the nearest double and
 * the double nearest to what it leaves. */
static void put_dd_const(segc_strbuf *b, mpq_srcptr q)
{
	mpq_t r;
	double hi = 0, lo = 0;

	mpq_init(r);
	if (segc_plan_round(&hi, q))
		hi = 0;
	mpq_set_d(r, hi);
	mpq_sub(r, q, r);
	if (segc_plan_round(&lo, r))
		lo = 0;
	mpq_clear(r);
	segc_strbuf_append(b, "{ ");
	put_double(b, hi);
	segc_strbuf_append(b, ", ");
	put_double(b, lo);
	segc_strbuf_append(b, " }");
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

/* Appends 'depth' tabs. */
static void put_indent(segc_strbuf *b, unsigned depth)
{
	while (depth--)
		segc_strbuf_appendc(b, '\t');
}

/* The C type of value 'i'. */
static const char *value_type(const segc_emit_namer *nm, size_t i)
{
	if (segc_plan_is_condition(&nm->p->insn[i]))
		return "int";
	return segc_emit_is_dd(nm, i) ? "segc_dd" : "double";
}

/* Appends value 'i' as an operand of the type of value 'to': a double
 * made a double-double where 'to' is one. */
static void put_operand(segc_strbuf *b, const segc_emit_namer *nm,
	size_t to, size_t i)
{
	if (segc_emit_is_dd(nm, to))
		put_dd_value(b, nm, i);
	else
		segc_emit_put_value(b, nm, i);
}

/* Appends a constant's declaration. */
static void put_const(segc_strbuf *b, const segc_emit_namer *nm, size_t i,
	unsigned depth)
{
	const segc_plan_insn *in = &nm->p->insn[i];

	put_indent(b, depth);
	segc_strbuf_appendf(b, "const %s ", value_type(nm, i));
	segc_emit_put_value(b, nm, i);
	segc_strbuf_append(b, " = ");
	if (segc_emit_is_dd(nm, i))
		put_dd_const(b, in->q);
	else
		put_double(b, in->value);
	segc_strbuf_append(b, "; /* ");
	segc_strbuf_append_mpq(b, in->q);
	if (!nm->accurate && in->rounding)
		segc_strbuf_append(b, in->rounding > 0 ? ", rounded up" :
			", rounded down");
	segc_strbuf_append(b, " */\n");
}

static void put_block(segc_strbuf *b, const segc_emit_namer *nm, size_t blk,
	unsigned depth);

/* Non-zero when block 'blk' has a statement to print. */
static int block_has_code(const segc_emit_namer *nm, size_t blk)
{
	const segc_plan_block *k = &nm->p->blocks[blk];
	size_t i;

	for (i = k->first; i < k->end; i++)
		if (nm->p->insn[i].block == blk && nm->p->insn[i].uses &&
		    nm->p->insn[i].op != SEGC_OP_CONST && !is_plain(nm, i))
			return 1;
	return 0;
}

/* Appends "name = value;" at 'depth'. */
static void put_assign(segc_strbuf *b, const segc_emit_namer *nm, size_t name,
	size_t value, unsigned depth)
{
	put_indent(b, depth);
	segc_emit_put_value(b, nm, name);
	segc_strbuf_append(b, " = ");
	put_operand(b, nm, name, value);
	segc_strbuf_append(b, ";\n");
}

/* Appends the start of the definition of value 'i': "const TYPE name"
 * as a declaration, "name" as an assignment to a variable declared
 * before ('assign'). */
static void put_lhs(segc_strbuf *b, const segc_emit_namer *nm, size_t i,
	int assign)
{
	if (!assign)
		segc_strbuf_appendf(b, "const %s ", value_type(nm, i));
	segc_emit_put_value(b, nm, i);
}

/* Appends the SELECT 'i': a conditional expression, or an if/else when
 * either side has code of its own. */
static void put_select(segc_strbuf *b, const segc_emit_namer *nm, size_t i,
	unsigned depth, int assign)
{
	const segc_plan_insn *in = &nm->p->insn[i];

	if (!block_has_code(nm, in->sub[0]) && !block_has_code(nm, in->sub[1])) {
		put_indent(b, depth);
		put_lhs(b, nm, i, assign);
		segc_strbuf_append(b, " = ");
		segc_emit_put_value(b, nm, in->a);
		segc_strbuf_append(b, " ? ");
		put_operand(b, nm, i, in->b);
		segc_strbuf_append(b, " : ");
		put_operand(b, nm, i, in->c);
		segc_strbuf_append(b, ";\n");
		return;
	}
	if (!assign) {
		put_indent(b, depth);
		segc_strbuf_appendf(b, "%s ", value_type(nm, i));
		segc_emit_put_value(b, nm, i);
		segc_strbuf_append(b, ";\n");
	}
	put_indent(b, depth);
	segc_strbuf_append(b, "if (");
	segc_emit_put_value(b, nm, in->a);
	segc_strbuf_append(b, ") {\n");
	put_block(b, nm, in->sub[0], depth + 1);
	put_assign(b, nm, i, in->b, depth + 1);
	put_indent(b, depth);
	segc_strbuf_append(b, "} else {\n");
	put_block(b, nm, in->sub[1], depth + 1);
	put_assign(b, nm, i, in->c, depth + 1);
	put_indent(b, depth);
	segc_strbuf_append(b, "}\n");
}

/* Appends the AND or OR 'i': the right operand computed only when the
 * left one leaves the result undecided. */
static void put_junction(segc_strbuf *b, const segc_emit_namer *nm, size_t i,
	unsigned depth, int assign)
{
	const segc_plan_insn *in = &nm->p->insn[i];
	int is_and = in->op == SEGC_OP_AND;

	put_indent(b, depth);
	if (!block_has_code(nm, in->sub[0])) {
		put_lhs(b, nm, i, assign);
		segc_strbuf_append(b, " = ");
		segc_emit_put_value(b, nm, in->a);
		segc_strbuf_append(b, is_and ? " && " : " || ");
		segc_emit_put_value(b, nm, in->b);
		segc_strbuf_append(b, ";\n");
		return;
	}
	if (!assign)
		segc_strbuf_append(b, "int ");
	segc_emit_put_value(b, nm, i);
	segc_strbuf_append(b, " = ");
	segc_emit_put_value(b, nm, in->a);
	segc_strbuf_append(b, ";\n");
	put_indent(b, depth);
	segc_strbuf_append(b, is_and ? "if (" : "if (!");
	segc_emit_put_value(b, nm, i);
	segc_strbuf_append(b, ") {\n");
	put_block(b, nm, in->sub[0], depth + 1);
	put_assign(b, nm, i, in->b, depth + 1);
	put_indent(b, depth);
	segc_strbuf_append(b, "}\n");
}

/* Appends the name of the compensation of the loop 'in' (plain C):
 * a counter's name, numbered after the counters. */
static void put_compensation(segc_strbuf *b, const segc_emit_namer *nm,
	const segc_plan_insn *in)
{
	segc_strbuf_appendf(b, "%s%lu", nm->kprefix,
		(unsigned long)(nm->ncounters + nm->number[in->counter]));
}

/* Appends, at 'depth', the step of Neumaier's compensated summation
 * that adds the term of the SUM 'i' to its compensation, then the start
 * of the addition of the term to the sum ("tS"). */
static void put_neumaier(segc_strbuf *b, const segc_emit_namer *nm, size_t i,
	unsigned depth)
{
	const segc_plan_insn *in = &nm->p->insn[i];

	put_indent(b, depth);
	put_compensation(b, nm, in);
	segc_strbuf_append(b, " += fabs(");
	segc_emit_put_value(b, nm, i);
	segc_strbuf_append(b, ") >= fabs(");
	segc_emit_put_value(b, nm, in->c);
	segc_strbuf_append(b, ") ?\n");
	put_indent(b, depth + 1);
	segc_strbuf_append(b, "(");
	segc_emit_put_value(b, nm, i);
	segc_strbuf_append(b, " - (");
	segc_emit_put_value(b, nm, i);
	segc_strbuf_append(b, " + ");
	segc_emit_put_value(b, nm, in->c);
	segc_strbuf_append(b, ")) + ");
	segc_emit_put_value(b, nm, in->c);
	segc_strbuf_append(b, " :\n");
	put_indent(b, depth + 1);
	segc_strbuf_append(b, "(");
	segc_emit_put_value(b, nm, in->c);
	segc_strbuf_append(b, " - (");
	segc_emit_put_value(b, nm, i);
	segc_strbuf_append(b, " + ");
	segc_emit_put_value(b, nm, in->c);
	segc_strbuf_append(b, ")) + ");
	segc_emit_put_value(b, nm, i);
	segc_strbuf_append(b, ";\n");
	put_indent(b, depth);
	segc_emit_put_value(b, nm, i);
}

/* Appends the SUM 'i': a loop over its counter from 'a' while <= 'b',
 * NaN when it would count beyond 2^53 (or a bound is NaN). */
static void put_sum(segc_strbuf *b, const segc_emit_namer *nm, size_t i,
	unsigned depth, int assign)
{
	const segc_plan_insn *in = &nm->p->insn[i];

	put_indent(b, depth);
	if (!assign)
		segc_strbuf_appendf(b, "%s ", value_type(nm, i));
	segc_emit_put_value(b, nm, i);
	segc_strbuf_append(b, nm->accurate ? " = dd_d(0);\n" : " = 0;\n");
	put_indent(b, depth);
	segc_strbuf_append(b, "if (");
	put_plain(b, nm, in->b);
	segc_strbuf_append(b, " - ");
	put_plain(b, nm, in->a);
	segc_strbuf_append(b, " < 9007199254740992.0) {\n");
	put_indent(b, depth + 1);
	segc_strbuf_append(b, "double ");
	segc_emit_put_value(b, nm, in->counter);
	if (!nm->accurate) {
		segc_strbuf_append(b, ", ");
		put_compensation(b, nm, in);
		segc_strbuf_append(b, " = 0");
	}
	segc_strbuf_append(b, ";\n\n");
	put_indent(b, depth + 1);
	segc_strbuf_append(b, "for (");
	segc_emit_put_value(b, nm, in->counter);
	segc_strbuf_append(b, " = ");
	put_plain(b, nm, in->a);
	segc_strbuf_append(b, "; ");
	if (segc_emit_is_dd(nm, in->b)) {
		segc_strbuf_append(b, "dd_le(dd_d(");
		segc_emit_put_value(b, nm, in->counter);
		segc_strbuf_append(b, "), ");
		segc_emit_put_value(b, nm, in->b);
		segc_strbuf_append(b, ")");
	} else {
		segc_emit_put_value(b, nm, in->counter);
		segc_strbuf_append(b, " <= ");
		segc_emit_put_value(b, nm, in->b);
	}
	segc_strbuf_append(b, "; ");
	segc_emit_put_value(b, nm, in->counter);
	segc_strbuf_append(b, " += 1) {\n");
	put_block(b, nm, in->sub[0], depth + 2);
	if (nm->accurate) {
		put_indent(b, depth + 2);
		segc_emit_put_value(b, nm, i);
		segc_strbuf_append(b, segc_emit_is_dd(nm, in->c) ? " = dd_add(" :
			" = dd_add_d(");
		segc_emit_put_value(b, nm, i);
		segc_strbuf_append(b, ", ");
		segc_emit_put_value(b, nm, in->c);
		segc_strbuf_append(b, ");\n");
	} else {
		put_neumaier(b, nm, i, depth + 2);
		segc_strbuf_append(b, " += ");
		segc_emit_put_value(b, nm, in->c);
		segc_strbuf_append(b, ";\n");
	}
	put_indent(b, depth + 1);
	segc_strbuf_append(b, "}\n");
	if (!nm->accurate) {
		put_indent(b, depth + 1);
		segc_emit_put_value(b, nm, i);
		segc_strbuf_append(b, " += ");
		put_compensation(b, nm, in);
		segc_strbuf_append(b, ";\n");
	}
	put_indent(b, depth);
	segc_strbuf_append(b, "} else {\n");
	put_indent(b, depth + 1);
	segc_emit_put_value(b, nm, i);
	/* NAN is a float: the cast keeps -Wdouble-promotion quiet. */
	segc_strbuf_append(b, nm->accurate ? " = dd_d((double)NAN);\n" :
		" = (double)NAN;\n");
	put_indent(b, depth);
	segc_strbuf_append(b, "}\n");
}

/* The syntax of C for the recurrence of an overlapped loop. */
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
	.decl_init = 1, .inf_init = NULL, .nocase = 0
};

/* put_block as a segc_emit_block_fn (for the costs of a maxplusv). */
static int put_block_fn(segc_strbuf *b, const segc_emit_namer *nm,
	size_t blk, unsigned depth)
{
	put_block(b, nm, blk, depth);
	return 0;
}

/* Non-zero when instruction 'i' is computed in double-double: its value
 * is one, or it compares one. */
static int in_dd(const segc_emit_namer *nm, size_t i)
{
	const segc_plan_insn *in = &nm->p->insn[i];

	if (in->op >= SEGC_OP_LT && in->op <= SEGC_OP_NE)
		return segc_emit_is_dd(nm, in->a) || segc_emit_is_dd(nm, in->b);
	return segc_emit_is_dd(nm, i);
}

/* Appends one live instruction as a declaration (or the statements of a
 * conditional or a loop); with 'assign', as an assignment to a variable
 * declared before (a constant is never assigned: see put_block). */
static void put_insn(segc_strbuf *b, const segc_emit_namer *nm, size_t i,
	unsigned depth, int assign)
{
	switch (nm->p->insn[i].op) {
	case SEGC_OP_CONST:
		put_const(b, nm, i, depth);
		return;
	case SEGC_OP_SELECT:
		put_select(b, nm, i, depth, assign);
		return;
	case SEGC_OP_AND: case SEGC_OP_OR:
		put_junction(b, nm, i, depth, assign);
		return;
	case SEGC_OP_SUM:
		put_sum(b, nm, i, depth, assign);
		return;
	case SEGC_OP_MAXPLUS:
		segc_emit_maxplus(b, nm, i, depth, &segc_emit_c_syntax, assign,
			put_block_fn);
		return;
	case SEGC_OP_TASKPATH:
		segc_emit_taskpath_c(b, nm, i, depth, assign);
		return;
	default:
		break;
	}
	put_indent(b, depth);
	put_lhs(b, nm, i, assign);
	segc_strbuf_append(b, " = ");
	if (segc_emit_pack_role(nm, i) == SEGC_PACK_OUT)
		segc_emit_pack_put_out(b, nm, i);
	else if (in_dd(nm, i))
		put_dd_expr(b, nm, i);
	else
		put_insn_expr(b, nm, i);
	segc_strbuf_append(b, ";\n");
}

/* Non-zero when value 'i' of its block is printed. */
static int is_printed(const segc_emit_namer *nm, size_t blk, size_t i)
{
	return nm->p->insn[i].block == blk && nm->p->insn[i].uses &&
		!is_plain(nm, i) &&
		segc_emit_pack_role(nm, i) != SEGC_PACK_HIDDEN;
}

/* Non-zero when instruction 'i' is printed as statements (an if or a
 * loop) after its declaration. */
static int is_statement(const segc_emit_namer *nm, size_t i)
{
	const segc_plan_insn *in = &nm->p->insn[i];

	switch (in->op) {
	case SEGC_OP_SELECT:
		return block_has_code(nm, in->sub[0]) ||
			block_has_code(nm, in->sub[1]);
	case SEGC_OP_AND: case SEGC_OP_OR:
		return block_has_code(nm, in->sub[0]);
	case SEGC_OP_SUM: case SEGC_OP_MAXPLUS: case SEGC_OP_TASKPATH:
		return 1;
	default:
		return 0;
	}
}

/* Appends the statements of block 'blk', in the order of their values,
 * at 'depth'.  C90 compilers, and C99 ones asked to warn about it, want
 * every declaration of a block before its first statement: the values
 * after the first if or loop are declared at the top of the block (the
 * constants with their values) and assigned in place. */
static void put_block(segc_strbuf *b, const segc_emit_namer *nm, size_t blk,
	unsigned depth)
{
	const segc_plan_block *k = &nm->p->blocks[blk];
	size_t i, first = k->end;

	for (i = k->first; i < k->end && first == k->end; i++)
		if (is_printed(nm, blk, i) && is_statement(nm, i))
			first = i;
	for (i = first + 1; i < k->end; i++) {
		if (!is_printed(nm, blk, i))
			continue;
		if (nm->p->insn[i].op == SEGC_OP_CONST) {
			put_const(b, nm, i, depth);
			continue;
		}
		put_indent(b, depth);
		segc_strbuf_appendf(b, "%s ", value_type(nm, i));
		segc_emit_put_value(b, nm, i);
		segc_strbuf_append(b, ";\n");
	}
	for (i = k->first; i < k->end; i++)
		if (is_printed(nm, blk, i) && !(i > first &&
		    nm->p->insn[i].op == SEGC_OP_CONST))
			put_insn(b, nm, i, depth, i > first);
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
	put_block(b, nm, 0, 1);
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
