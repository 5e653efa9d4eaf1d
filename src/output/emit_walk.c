/* emit_walk.c - an evaluation plan (plan.c) printed as the statements of
 * a function's body, in any output language: the walk over its blocks
 * and instructions (constants, one value per operation, selections and
 * junctions as ifs, sums as loops with Neumaier's compensation) exists
 * once here, and what differs between the languages (operators, calls,
 * conditionals, loops, declarations, literals, the double-double forms of
 * --accurate C) comes from the language's table, segc_emit_syntax
 * (emit_private.h), its hooks among them.  Each language's file prints
 * the function around the body; the array form of a Python function
 * (emit_python_np.c) takes its expressions from here too. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "output/emit_private.h"

/* What one walk needs: where it prints, the plan's names, the language. */
typedef struct walk {
	segc_strbuf *b;
	const segc_emit_namer *nm;
	const segc_emit_syntax *sx;
} walk;

static int put_block(const walk *w, size_t blk, unsigned depth);

/* Appends 'depth' levels of the language's indentation. */
static void indent(const walk *w, unsigned depth)
{
	while (depth--)
		segc_strbuf_append(w->b, w->sx->indent);
}

/* Appends the name of value 'i'. */
static void value(const walk *w, size_t i)
{
	segc_emit_put_value(w->b, w->nm, i);
}

/* Appends value 'i' as a double: its high part when it is a double-double
 * (--accurate C, as emit_maxplus.c reads one). */
static void plain(const walk *w, size_t i)
{
	value(w, i);
	if (segc_emit_is_dd(w->nm, i))
		segc_strbuf_append(w->b, ".hi");
}

/* Ends a simple statement and its line. */
static void end_stmt(const walk *w)
{
	segc_strbuf_append(w->b, w->sx->semi);
	segc_strbuf_appendc(w->b, '\n');
}

/* Appends the end of a block at 'depth', where the language has one. */
static void end_block(const walk *w, unsigned depth)
{
	if (!w->sx->end)
		return;
	indent(w, depth);
	segc_strbuf_append(w->b, w->sx->end);
}

/* Non-zero when the language declares the values where they are first
 * set (typed, not all at the top of the function). */
static int declares(const walk *w)
{
	return w->sx->typed && !w->sx->decl_top;
}

/* See emit_private.h. */
void segc_emit_walk_type(segc_strbuf *b, const segc_emit_namer *nm,
	const segc_emit_syntax *sx, size_t i)
{
	if (segc_plan_is_condition(&nm->p->insn[i]))
		segc_strbuf_append(b, sx->t_bool);
	else
		segc_strbuf_append(b, segc_emit_is_dd(nm, i) ? sx->t_dd :
			sx->t_real);
}

/* Appends the type of value 'i'. */
static void type(const walk *w, size_t i)
{
	segc_emit_walk_type(w->b, w->nm, w->sx, i);
}

/* See emit_private.h. */
void segc_emit_walk_compensation(segc_strbuf *b, const segc_emit_namer *nm,
	size_t i)
{
	const segc_plan_insn *in = &nm->p->insn[i];

	segc_strbuf_appendf(b, "%s%lu", nm->kprefix,
		(unsigned long)(nm->ncounters + nm->number[in->counter]));
}

/* Appends the start of the definition of value 'i': its name, after
 * "const TYPE" where the language declares it here (not 'assign'). */
static void put_lhs(const walk *w, size_t i, int assign)
{
	if (!assign && declares(w)) {
		segc_strbuf_append(w->b, w->sx->const_);
		type(w, i);
	}
	value(w, i);
}

/* Appends value 'i' as an operand of the type of value 'to': a double
 * made a double-double where 'to' is one. */
static void put_operand(const walk *w, size_t to, size_t i)
{
	if (segc_emit_is_dd(w->nm, to) && !segc_emit_is_dd(w->nm, i)) {
		segc_strbuf_append(w->b, w->sx->dd_open);
		value(w, i);
		segc_strbuf_append(w->b, w->sx->dd_close);
	} else
		value(w, i);
}

/* Appends "name = value" at 'depth'. */
static void put_assign(const walk *w, size_t name, size_t val, unsigned depth)
{
	indent(w, depth);
	value(w, name);
	segc_strbuf_append(w->b, " = ");
	put_operand(w, name, val);
	end_stmt(w);
}

/* Appends "x += y" (or "x = x + y") at 'depth'. */
static void put_add(const walk *w, unsigned depth, const char *x,
	const char *y)
{
	indent(w, depth);
	if (w->sx->add_assign)
		segc_strbuf_appendf(w->b, "%s += %s", x, y);
	else
		segc_strbuf_appendf(w->b, "%s = %s + %s", x, x, y);
	end_stmt(w);
}

/* Appends 's' unless it is NULL. */
static void put_opt(const walk *w, const char *s)
{
	if (s)
		segc_strbuf_append(w->b, s);
}

/* Appends "x OP y" of values 'x' and 'y' (a statement's part). */
static void put_infix(const walk *w, size_t x, const char *op, size_t y)
{
	value(w, x);
	segc_strbuf_append(w->b, op);
	value(w, y);
}

/* Appends the operation "x OP y" of values 'x' and 'y' (enclosed where
 * the language encloses one). */
static void put_op(const walk *w, size_t x, const char *op, size_t y)
{
	put_opt(w, w->sx->infix_open);
	put_infix(w, x, op, y);
	put_opt(w, w->sx->infix_close);
}

/* Appends "fn(x)" or "fn(x, y)" ('y' read when 'two'). */
static void put_call(const walk *w, const char *fn, size_t x, size_t y,
	int two)
{
	put_opt(w, w->sx->call_prefix);
	segc_strbuf_appendf(w->b, "%s(", fn);
	value(w, x);
	if (two) {
		segc_strbuf_append(w->b, ", ");
		value(w, y);
	}
	segc_strbuf_appendc(w->b, ')');
}

/* The language's name of the function of the built-in instruction 'op'
 * (SEGC_OP_CEIL .. SEGC_OP_FMIN): its column of the row. */
static const char *builtin_name(const walk *w, enum segc_plan_op op)
{
	const char *row = (const char *)segc_emit_op_builtin(op);

	return *(const char *const *)(const void *)(row + w->sx->call_col);
}

/* Appends the expression of the operation 'i' in doubles; -1 for one the
 * walk does not know. */
static int put_expr(const walk *w, size_t i)
{
	static const char *const arith[] = { " + ", " - ", " * ", " / " };
	static const char *const cmp[] = { " < ", " <= ", " > ", " >= " };
	const segc_emit_syntax *sx = w->sx;
	const segc_plan_insn *in = &w->nm->p->insn[i];

	switch (in->op) {
	case SEGC_OP_DIV:
		if (sx->div) {
			put_call(w, sx->div, in->a, in->b, 1);
			return 0;
		}
		/* fall through */
	case SEGC_OP_ADD: case SEGC_OP_SUB: case SEGC_OP_MUL:
		put_op(w, in->a, arith[in->op - SEGC_OP_ADD], in->b);
		return 0;
	case SEGC_OP_NEG:
		segc_strbuf_append(w->b, "-");
		value(w, in->a);
		return 0;
	case SEGC_OP_NOT:
		segc_strbuf_append(w->b, sx->not_);
		value(w, in->a);
		put_opt(w, sx->not_close);
		return 0;
	case SEGC_OP_CEIL: case SEGC_OP_FLOOR: case SEGC_OP_SQRT:
	case SEGC_OP_LOG2: case SEGC_OP_EXP2: case SEGC_OP_FMAX:
	case SEGC_OP_FMIN:
		put_call(w, builtin_name(w, in->op), in->a, in->b,
			segc_plan_noperands(in) == 2);
		return 0;
	case SEGC_OP_LT: case SEGC_OP_LE: case SEGC_OP_GT: case SEGC_OP_GE:
		put_op(w, in->a, cmp[in->op - SEGC_OP_LT], in->b);
		return 0;
	case SEGC_OP_EQ: case SEGC_OP_NE:
		/* without comparing doubles for equality (compilers warn) */
		segc_strbuf_append(w->b, in->op == SEGC_OP_EQ ? "(" :
			sx->ne_open);
		put_op(w, in->a, " <= ", in->b);
		segc_strbuf_append(w->b, sx->and_);
		put_op(w, in->a, " >= ", in->b);
		segc_strbuf_appendc(w->b, ')');
		return 0;
	case SEGC_OP_AND: case SEGC_OP_OR:
		if (sx->and_fn)
			put_call(w, in->op == SEGC_OP_AND ? sx->and_fn :
				sx->or_fn, in->a, in->b, 1);
		else
			put_infix(w, in->a, in->op == SEGC_OP_AND ? sx->and_ :
				sx->or_, in->b);
		return 0;
	case SEGC_OP_ROOT:
		/* a^(1/q), q = in->b, of a double (no compensated form) */
		segc_strbuf_append(w->b, sx->root);
		plain(w, in->a);
		segc_strbuf_appendf(w->b, ", %lu)", (unsigned long)in->b);
		return 0;
	default:
		return -1;
	}
}

/* See emit_private.h. */
int segc_emit_walk_expr(segc_strbuf *b, const segc_emit_namer *nm,
	const segc_emit_syntax *sx, size_t i)
{
	walk w;

	w.b = b;
	w.nm = nm;
	w.sx = sx;
	return put_expr(&w, i);
}

/* See emit_private.h. */
void segc_emit_walk_const(segc_strbuf *b, const segc_emit_namer *nm,
	const segc_emit_syntax *sx, size_t i, unsigned depth)
{
	const segc_plan_insn *in = &nm->p->insn[i];
	walk w;

	w.b = b;
	w.nm = nm;
	w.sx = sx;
	indent(&w, depth);
	segc_strbuf_append(b, sx->const_);
	if (declares(&w))
		type(&w, i);
	value(&w, i);
	segc_strbuf_append(b, " = ");
	if (segc_emit_is_dd(nm, i))
		sx->dd_const(b, nm, i);
	else
		sx->put_double(b, in->value);
	segc_strbuf_append(b, sx->const_note);
	segc_strbuf_append_mpq(b, in->q);
	if (!nm->accurate && in->rounding)
		segc_strbuf_append(b, in->rounding > 0 ? ", rounded up" :
			", rounded down");
	segc_strbuf_append(b, sx->comment_end);
	segc_strbuf_appendc(b, '\n');
}

/* Non-zero when value 'i' is a plain double in every mode: an argument
 * or a loop counter. */
static int is_plain(const walk *w, size_t i)
{
	enum segc_plan_op op = w->nm->p->insn[i].op;

	return op == SEGC_OP_ARG || op == SEGC_OP_COUNTER;
}

/* Non-zero when block 'blk' has a statement to print. */
static int block_has_code(const walk *w, size_t blk)
{
	const segc_plan *p = w->nm->p;
	const segc_plan_block *k = &p->blocks[blk];
	size_t i;

	for (i = k->first; i < k->end; i++)
		if (p->insn[i].block == blk && p->insn[i].uses &&
		    p->insn[i].op != SEGC_OP_CONST && !is_plain(w, i))
			return 1;
	return 0;
}

/* Appends the SELECT 'i': a choice between two values where the language
 * has the expression and neither side has anything to compute, else an
 * if/else, each side's computations done only on that side. */
static int put_select(const walk *w, size_t i, unsigned depth, int assign)
{
	const segc_emit_syntax *sx = w->sx;
	const segc_plan_insn *in = &w->nm->p->insn[i];
	int rc;

	if (sx->ternary_q && !block_has_code(w, in->sub[0]) &&
	    !block_has_code(w, in->sub[1])) {
		indent(w, depth);
		put_lhs(w, i, assign);
		segc_strbuf_append(w->b, " = ");
		value(w, in->a);
		segc_strbuf_append(w->b, sx->ternary_q);
		put_operand(w, i, in->b);
		segc_strbuf_append(w->b, sx->ternary_colon);
		put_operand(w, i, in->c);
		end_stmt(w);
		return 0;
	}
	if (!assign && declares(w)) {
		indent(w, depth);
		type(w, i);
		value(w, i);
		end_stmt(w);
	}
	indent(w, depth);
	segc_strbuf_append(w->b, sx->if_);
	value(w, in->a);
	segc_strbuf_append(w->b, sx->then);
	rc = put_block(w, in->sub[0], depth + 1);
	put_assign(w, i, in->b, depth + 1);
	indent(w, depth);
	segc_strbuf_append(w->b, sx->else_);
	rc |= put_block(w, in->sub[1], depth + 1);
	put_assign(w, i, in->c, depth + 1);
	end_block(w, depth);
	return rc;
}

/* Appends the AND or OR 'i' as an if: the right operand computed only
 * when the left one leaves the result undecided. */
static int put_junction(const walk *w, size_t i, unsigned depth, int assign)
{
	const segc_emit_syntax *sx = w->sx;
	const segc_plan_insn *in = &w->nm->p->insn[i];
	int rc;

	indent(w, depth);
	if (!assign && declares(w))
		type(w, i);
	value(w, i);
	segc_strbuf_append(w->b, " = ");
	value(w, in->a);
	end_stmt(w);
	indent(w, depth);
	segc_strbuf_append(w->b, sx->if_);
	if (in->op == SEGC_OP_OR)
		segc_strbuf_append(w->b, sx->not_);
	value(w, i);
	segc_strbuf_append(w->b, sx->then);
	rc = put_block(w, in->sub[0], depth + 1);
	put_assign(w, i, in->b, depth + 1);
	end_block(w, depth);
	return rc;
}

/* Appends the language's step of Neumaier's compensation (its format
 * 'neumaier') at 'depth': %c the compensation 'k', %s the sum 's', %t
 * the term 't', %i the indentation, %j one level more. */
static void put_neumaier(const walk *w, unsigned depth, const char *k,
	const char *s, const char *t)
{
	const char *p;

	for (p = w->sx->neumaier; *p; p++) {
		if (*p != '%' || !p[1]) {
			segc_strbuf_appendc(w->b, *p);
			continue;
		}
		switch (*++p) {
		case 'c':
			segc_strbuf_append(w->b, k);
			break;
		case 's':
			segc_strbuf_append(w->b, s);
			break;
		case 't':
			segc_strbuf_append(w->b, t);
			break;
		case 'i':
			indent(w, depth);
			break;
		case 'j':
			indent(w, depth + 1);
			break;
		default:
			segc_strbuf_appendc(w->b, *p);
			break;
		}
	}
}

/* The name of value 'i' (malloc'd). */
static char *name_of(const walk *w, size_t i)
{
	segc_strbuf n;

	segc_strbuf_init(&n);
	segc_emit_put_value(&n, w->nm, i);
	return segc_strbuf_take(&n);
}

/* Appends the test of the loop of the SUM 'in': its counter <= its last
 * value. */
static void put_sum_test(const walk *w, const segc_plan_insn *in)
{
	if (segc_emit_is_dd(w->nm, in->b))
		w->sx->dd_op(w->b, w->nm, SEGC_OP_LE, in->counter, in->b);
	else
		put_infix(w, in->counter, " <= ", in->b);
}

/* Appends the SUM 'i': a loop over its counter from 'a' while <= 'b',
 * its terms added with Neumaier's compensation (in double-double, with
 * none), NaN when it would count beyond 2^53 (or a bound is NaN). */
static int put_sum(const walk *w, size_t i, unsigned depth, int assign)
{
	const segc_emit_syntax *sx = w->sx;
	const segc_plan_insn *in = &w->nm->p->insn[i];
	int dd = segc_emit_is_dd(w->nm, i), rc;
	char *s = name_of(w, i), *t = name_of(w, in->c);
	char *c = name_of(w, in->counter), *one;
	segc_strbuf k;

	segc_strbuf_init(&k);
	segc_emit_walk_compensation(&k, w->nm, i);
	indent(w, depth);
	if (!assign && declares(w))
		type(w, i);
	segc_strbuf_appendf(w->b, "%s = %s%s%s", s, dd ? sx->dd_open : "",
		sx->zero, dd ? sx->dd_close : "");
	end_stmt(w);
	indent(w, depth);
	segc_strbuf_append(w->b, sx->if_);
	plain(w, in->b);
	segc_strbuf_append(w->b, " - ");
	plain(w, in->a);
	segc_strbuf_appendf(w->b, " < 9007199254740992.0%s%s", sx->real,
		sx->then);
	if (declares(w)) {
		indent(w, depth + 1);
		segc_strbuf_appendf(w->b, "%s%s", sx->t_real, c);
		if (!dd)
			segc_strbuf_appendf(w->b, ", %s = %s",
				segc_strbuf_str(&k), sx->zero);
		segc_strbuf_appendf(w->b, "%s\n\n", sx->semi);
	}
	indent(w, depth + 1);
	if (sx->for_) {
		segc_strbuf_appendf(w->b, "%s%s = ", sx->for_, c);
		plain(w, in->a);
		segc_strbuf_append(w->b, "; ");
		put_sum_test(w, in);
		segc_strbuf_appendf(w->b, "; %s += 1%s", c, sx->then);
	} else {
		value(w, in->counter);
		segc_strbuf_append(w->b, " = ");
		value(w, in->a);
		end_stmt(w);
		if (!dd && !declares(w)) {
			indent(w, depth + 1);
			segc_strbuf_appendf(w->b, "%s = %s",
				segc_strbuf_str(&k), sx->zero);
			end_stmt(w);
		}
		indent(w, depth + 1);
		segc_strbuf_append(w->b, sx->while_);
		put_sum_test(w, in);
		segc_strbuf_append(w->b, sx->while_end);
	}
	rc = put_block(w, in->sub[0], depth + 2);
	if (dd) {
		indent(w, depth + 2);
		segc_strbuf_appendf(w->b, "%s = ", s);
		sx->dd_op(w->b, w->nm, SEGC_OP_ADD, i, in->c);
		end_stmt(w);
	} else {
		put_neumaier(w, depth + 2, segc_strbuf_str(&k), s, t);
		put_add(w, depth + 2, s, t);
	}
	if (!sx->for_) {
		one = segc_xmalloc(strlen(sx->real) + 4);
		sprintf(one, "1.0%s", sx->real);
		put_add(w, depth + 2, c, one);
		free(one);
	}
	if (sx->loop_end) {
		indent(w, depth + 1);
		segc_strbuf_append(w->b, sx->loop_end);
	}
	if (!dd)
		put_add(w, depth + 1, s, segc_strbuf_str(&k));
	indent(w, depth);
	segc_strbuf_append(w->b, sx->else_);
	indent(w, depth + 1);
	segc_strbuf_appendf(w->b, "%s = %s%s%s", s, dd ? sx->dd_open : "",
		sx->nan, dd ? sx->dd_close : "");
	end_stmt(w);
	end_block(w, depth);
	segc_strbuf_free(&k);
	free(s);
	free(t);
	free(c);
	return rc;
}

/* Appends the MAXPLUS 'i' (emit_maxplus.c), its lines continued where
 * the language wants it. */
static int put_maxplus(const walk *w, size_t i, unsigned depth, int assign)
{
	segc_strbuf text;
	int rc;

	if (!w->sx->wrap)
		return segc_emit_maxplus(w->b, w->nm, i, depth, w->sx, assign);
	segc_strbuf_init(&text);
	rc = segc_emit_maxplus(&text, w->nm, i, depth, w->sx, assign);
	w->sx->wrap(w->b, segc_strbuf_str(&text));
	segc_strbuf_free(&text);
	return rc;
}

/* Non-zero when instruction 'i' is computed in double-double: its value
 * is one, or it compares one. */
static int in_dd(const walk *w, size_t i)
{
	const segc_plan_insn *in = &w->nm->p->insn[i];

	if (in->op >= SEGC_OP_LT && in->op <= SEGC_OP_NE)
		return segc_emit_is_dd(w->nm, in->a) ||
			segc_emit_is_dd(w->nm, in->b);
	return segc_emit_is_dd(w->nm, i);
}

/* Appends one live instruction as a definition (or the statements of a
 * conditional or a loop); with 'assign', as an assignment to a variable
 * declared before (a constant is never assigned: see put_block); -1 for
 * one that cannot be expressed. */
static int put_insn(const walk *w, size_t i, unsigned depth, int assign)
{
	const segc_plan_insn *in = &w->nm->p->insn[i];

	switch (in->op) {
	case SEGC_OP_CONST:
		segc_emit_walk_const(w->b, w->nm, w->sx, i, depth);
		return 0;
	case SEGC_OP_SELECT:
		return put_select(w, i, depth, assign);
	case SEGC_OP_AND: case SEGC_OP_OR:
		if (!w->sx->short_junction || block_has_code(w, in->sub[0]))
			return put_junction(w, i, depth, assign);
		break;
	case SEGC_OP_SUM:
		return put_sum(w, i, depth, assign);
	case SEGC_OP_MAXPLUS:
		return put_maxplus(w, i, depth, assign);
	case SEGC_OP_TASKPATH:
		w->sx->taskpath(w->b, w->nm, i, depth, assign);
		return 0;
	default:
		break;
	}
	indent(w, depth);
	put_lhs(w, i, assign);
	segc_strbuf_append(w->b, " = ");
	if (segc_emit_pack_role(w->nm, i) == SEGC_PACK_OUT)
		segc_emit_pack_put_out(w->b, w->nm, i);
	else if (in_dd(w, i))
		w->sx->dd_op(w->b, w->nm, in->op, in->a, in->b);
	else if (put_expr(w, i))
		return -1;
	end_stmt(w);
	return 0;
}

/* Non-zero when value 'i' of block 'blk' is printed there. */
static int is_printed(const walk *w, size_t blk, size_t i)
{
	const segc_plan_insn *in = &w->nm->p->insn[i];

	return in->block == blk && in->uses && !is_plain(w, i) &&
		segc_emit_pack_role(w->nm, i) != SEGC_PACK_HIDDEN;
}

/* Non-zero when instruction 'i' is printed as statements (an if or a
 * loop) after its declaration. */
static int is_statement(const walk *w, size_t i)
{
	const segc_plan_insn *in = &w->nm->p->insn[i];

	switch (in->op) {
	case SEGC_OP_SELECT:
		return !w->sx->ternary_q || block_has_code(w, in->sub[0]) ||
			block_has_code(w, in->sub[1]);
	case SEGC_OP_AND: case SEGC_OP_OR:
		return !w->sx->short_junction ||
			block_has_code(w, in->sub[0]);
	case SEGC_OP_SUM: case SEGC_OP_MAXPLUS: case SEGC_OP_TASKPATH:
		return 1;
	default:
		return 0;
	}
}

/* Appends the statements of block 'blk', in the order of their values,
 * at 'depth'.  Where a block declares its values before its first
 * statement (C90 compilers, and C99 ones asked to warn about it, want
 * that), the values after the first if or loop are declared at the top
 * of the block (the constants with their values) and assigned in place;
 * where every value is declared at the top of the function, they are
 * all assigned and the constants left out. */
static int put_block(const walk *w, size_t blk, unsigned depth)
{
	const segc_plan *p = w->nm->p;
	const segc_plan_block *k = &p->blocks[blk];
	size_t i, first = k->end;
	int rc = 0;

	if (w->sx->decl_first) {
		for (i = k->first; i < k->end && first == k->end; i++)
			if (is_printed(w, blk, i) && is_statement(w, i))
				first = i;
		for (i = first + 1; i < k->end; i++) {
			if (!is_printed(w, blk, i))
				continue;
			if (p->insn[i].op == SEGC_OP_CONST) {
				segc_emit_walk_const(w->b, w->nm, w->sx, i,
					depth);
				continue;
			}
			indent(w, depth);
			type(w, i);
			value(w, i);
			end_stmt(w);
		}
	}
	for (i = k->first; i < k->end; i++) {
		int assign = w->sx->decl_top || i > first;

		if (!is_printed(w, blk, i) || (assign &&
		    p->insn[i].op == SEGC_OP_CONST))
			continue;
		rc |= put_insn(w, i, depth, assign);
	}
	return rc;
}

/* See emit_private.h. */
int segc_emit_walk_block(segc_strbuf *b, const segc_emit_namer *nm,
	const segc_emit_syntax *sx, size_t blk, unsigned depth)
{
	walk w;

	w.b = b;
	w.nm = nm;
	w.sx = sx;
	return put_block(&w, blk, depth);
}
