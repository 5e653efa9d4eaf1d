/* plan_call.c - the built-in operations of the evaluation plan lowered
 * to a predictor's doubles: a piecewise formula (if(cond, a, b)) computes
 * only the side its condition chooses, and/or only what their first
 * operands leave undecided, a sum with no closed form becomes a loop;
 * max/min become fmax/fmin, mva_mem is unrolled, ceil, floor, sqrt, log2
 * and exp2 are single operations, and an operation of the plan that
 * fails when run (an unbound name, an uninterpreted call) is an error
 * here. */
#include <stdlib.h>
#include <string.h>
#include "output/plan_private.h"
#include "output/emit_private.h"
#include "graph/maxplus.h"

/* ------------------------------------------------------ other nodes */

/* Lowers max/min of the arguments of 'in' as a chain of fmax/fmin. */
static int plan_extremum(segc_plan_builder *bd, const segc_eplan_ins *in,
	enum segc_plan_op op, size_t *out)
{
	size_t i, v;

	for (i = 0; i < in->nargs; i++) {
		if (segc_plan_slot(bd, in->arg[i], &v))
			return -1;
		*out = i ? segc_plan_emit_op(bd, op, *out, v) : v;
	}
	return 0;
}

/* Lowers mva_mem(p, t_proc, t_mem) unrolled (p a positive integer). */
static int plan_mva(segc_plan_builder *bd, const segc_eplan_ins *in,
	size_t *out)
{
	mpq_srcptr p = in->nargs == 3 ? segc_plan_slot_num(bd, in->arg[0]) :
		NULL;
	size_t a, b, r, k;
	unsigned long np;

	if (!p || mpz_cmp_ui(mpq_denref(p), 1) || mpq_sgn(p) <= 0 ||
	    mpz_cmp_ui(mpq_numref(p), segc_ctx_limits(bd->ctx)->max_mva_p) > 0)
		return segc_plan_fail(bd, "%s: p must be a positive integer "
			"constant within the limit (max_mva_p)", "mva_mem");
	if (segc_plan_slot(bd, in->arg[1], &a) ||
	    segc_plan_slot(bd, in->arg[2], &b))
		return -1;
	np = mpz_get_ui(mpq_numref(p));
	r = b;
	for (k = 1; k < np; k++) {
		size_t q = segc_plan_emit_op(bd, SEGC_OP_DIV,
			segc_plan_emit_mul(bd, segc_plan_emit_const_si(bd,
			(long)k), r), segc_plan_emit_add(bd, a, r));

		r = segc_plan_emit_mul(bd, segc_plan_emit_add(bd,
			segc_plan_emit_const_si(bd, 1), q), b);
	}
	*out = r;
	return 0;
}

/* The error of the operation 'in' that fails when run. */
static int plan_failure(segc_plan_builder *bd, const segc_eplan_ins *in)
{
	const segc_expr *e = in->e;
	const char *f = segc_expr_kind(e) == SEGC_CALL ||
		segc_expr_kind(e) == SEGC_SYM ? segc_expr_name(e) : "";
	segc_maxplus_sys sys;
	const char *why;

	switch (in->aux) {
	case SEGC_EPF_UNBOUND:
		return segc_plan_fail(bd, "cannot emit C while '%s' is unbound: "
			"bind it (-D, a machine) or keep it as an argument "
			"(--keep)", f);
	case SEGC_EPF_CONDITION:
		return segc_plan_fail(bd, "cannot emit C: the condition '%s' "
			"stands where a number is expected", f);
	case SEGC_EPF_NOT_CONDITION:
		return segc_plan_fail(bd, "cannot emit C: %s stands where a "
			"condition (a comparison) is expected",
			segc_expr_kind(e) == SEGC_CALL ? f : "a number");
	default:
		break;
	}
	if (segc_expr_is_builtin(e, SEGC_BUILTIN_IF))
		return segc_plan_fail(bd, "cannot emit C: '%s' needs a "
			"condition and two values", f);
	if (segc_expr_kind(e) == SEGC_CALL &&
	    segc_builtin_get(segc_expr_builtin(e))->eval == SEGC_EVAL_MAXPLUS) {
		why = segc_maxplus_decode_graph(e, &sys);
		segc_maxplus_clear(&sys);
		return segc_plan_fail(bd, "cannot emit the recurrence of an "
			"overlapped loop: %s", why ? why : "it is malformed");
	}
	return segc_plan_fail(bd, "cannot emit C while the uninterpreted call "
		"'%s' remains: give a machine that defines it", f);
}

/* ------------------------------------------------------- conditions */

/* The comparison operators of the expression language. */
static const struct {
	const char *name;
	enum segc_plan_op op, mirror;   /* a op b is b mirror a */
} relations[] = {
	{ "<", SEGC_OP_LT, SEGC_OP_GT }, { "<=", SEGC_OP_LE, SEGC_OP_GE },
	{ ">", SEGC_OP_GT, SEGC_OP_LT }, { ">=", SEGC_OP_GE, SEGC_OP_LE },
	{ "==", SEGC_OP_EQ, SEGC_OP_EQ }, { "!=", SEGC_OP_NE, SEGC_OP_NE }
};

/* The index of the comparison named 'f' in relations[], or -1. */
static int relation_index(const char *f)
{
	size_t i;

	for (i = 0; i < sizeof relations / sizeof relations[0]; i++)
		if (!strcmp(relations[i].name, f))
			return (int)i;
	return -1;
}

/* A condition being planned: 'known' 0 or 1 when decided while planning,
 * else -1 and 'value' computes it. */
typedef struct cond {
	int known;
	size_t value;
} cond;

static int plan_cond(segc_plan_builder *bd, size_t s, cond *out);

/* Non-zero when value 'i' is exact whenever the formula's inputs are: an
 * argument or a loop counter. */
static int is_exact(const segc_plan_builder *bd, size_t i)
{
	enum segc_plan_op op = bd->p->insn[i].op;

	return op == SEGC_OP_ARG || op == SEGC_OP_COUNTER;
}

/* Decides 'x' op 'q' where both are exact numbers. */
static int compare_known(enum segc_plan_op op, int cmp)
{
	switch (op) {
	case SEGC_OP_LT: return cmp < 0;
	case SEGC_OP_LE: return cmp <= 0;
	case SEGC_OP_GT: return cmp > 0;
	case SEGC_OP_GE: return cmp >= 0;
	case SEGC_OP_EQ: return cmp == 0;
	default: return cmp != 0;
	}
}

/* Plans 'x' op 'q' for the value 'x' and the number 'q'.  When 'x' is
 * exact, 'q' is rounded the way that keeps the comparison exact (x >= q
 * if and only if x >= the least double >= q, ...), and == or != with a
 * 'q' that no double equals is decided now; else 'q' is rounded to
 * nearest, as every coefficient. */
static void plan_compare_const(segc_plan_builder *bd, enum segc_plan_op op,
	size_t x, mpq_srcptr q, cond *out)
{
	int dir = 0;
	double d;
	mpq_t back;

	if (is_exact(bd, x)) {
		dir = op == SEGC_OP_LT || op == SEGC_OP_GE ? 1 :
			op == SEGC_OP_LE || op == SEGC_OP_GT ? -1 : 0;
		if ((op == SEGC_OP_EQ || op == SEGC_OP_NE) &&
		    !segc_plan_round(&d, q)) {
			mpq_init(back);
			mpq_set_d(back, d);
			if (!mpq_equal(back, q)) {
				out->known = op == SEGC_OP_NE;
				mpq_clear(back);
				return;
			}
			mpq_clear(back);
		}
	}
	out->value = segc_plan_emit_op(bd, op, x,
		segc_plan_emit_const_dir(bd, q, dir));
}

/* Lowers the comparison 'in' (two arguments). */
static int plan_relation(segc_plan_builder *bd, const segc_eplan_ins *in,
	cond *out)
{
	int r = relation_index(segc_expr_name(in->e));
	size_t x, y, vx, vy;
	mpq_srcptr qx, qy;
	enum segc_plan_op op;

	if (r < 0)
		return segc_plan_fail(bd, "cannot emit C: %s stands where a "
			"condition (a comparison) is expected",
			segc_expr_name(in->e));
	if (in->nargs != 2)
		return segc_plan_fail(bd,
			"the comparison '%s' needs two operands",
			relations[r].name);
	op = relations[r].op;
	x = in->arg[0];
	y = in->arg[1];
	qx = segc_plan_slot_num(bd, x);
	qy = segc_plan_slot_num(bd, y);
	if (qx && qy) {
		out->known = compare_known(op, mpq_cmp(qx, qy));
		return 0;
	}
	if (qx) {
		x = in->arg[1];
		y = in->arg[0];
		qy = qx;
		op = relations[r].mirror;
	}
	if (segc_plan_slot(bd, x, &vx))
		return -1;
	if (qy) {
		plan_compare_const(bd, op, vx, qy, out);
		return 0;
	}
	if (segc_plan_slot(bd, y, &vy))
		return -1;
	out->value = segc_plan_emit_op(bd, op, vx, vy);
	return 0;
}

/* Lowers and(...) (is_and) or or(...) 'in': each operand after the first
 * in a block of its own, computed only when those before it leave the
 * result undecided. */
static int plan_junction(segc_plan_builder *bd, const segc_eplan_ins *in,
	int is_and, cond *out)
{
	size_t i, blk, k;
	cond next;

	if (plan_cond(bd, in->arg[0], out))
		return -1;
	for (i = 0; i < in->nsub; i++) {
		if (out->known == !is_and)
			return 0;
		if (out->known >= 0) {
			if (plan_cond(bd, in->subslot[i], out))
				return -1;
			continue;
		}
		next.known = -1;
		blk = segc_plan_block_open(bd, SEGC_PLAN_BRANCH);
		if (plan_cond(bd, in->subslot[i], &next))
			return -1;
		segc_plan_block_close(bd);
		if (next.known == !is_and) {
			out->known = next.known;
			continue;
		}
		if (next.known >= 0)
			continue;
		k = segc_plan_new_insn(bd, is_and ? SEGC_OP_AND : SEGC_OP_OR,
			out->value, next.value);
		bd->p->insn[k].sub[0] = blk;
		out->value = k;
	}
	return 0;
}

/* Lowers the condition slot 's'. */
static int plan_cond(segc_plan_builder *bd, size_t s, cond *out)
{
	const segc_eplan_ins *in = segc_plan_def(bd, s);

	out->known = -1;
	out->value = 0;
	switch (in ? in->op : SEGC_EPO_ADD) {
	case SEGC_EPO_REL:
		return plan_relation(bd, in, out);
	case SEGC_EPO_LOGIC:
		return plan_junction(bd, in, in->aux, out);
	case SEGC_EPO_NOT:
		if (plan_cond(bd, in->arg[0], out))
			return -1;
		if (out->known >= 0)
			out->known = !out->known;
		else
			out->value = segc_plan_emit_op(bd, SEGC_OP_NOT,
				out->value, 0);
		return 0;
	case SEGC_EPO_FAIL:
		return plan_failure(bd, in);
	default:
		return segc_plan_fail(bd, "cannot emit C: %s stands where a "
			"condition (a comparison) is expected", "a number");
	}
}

/* Lowers if(cond, a, b): each side in a block of its own, computed only
 * when chosen (nothing of the other when the condition is decided now). */
static int plan_if(segc_plan_builder *bd, const segc_eplan_ins *in,
	size_t *out)
{
	size_t v[2], blk[2], k;
	cond c;
	int i;

	if (plan_cond(bd, in->arg[0], &c))
		return -1;
	if (c.known >= 0)
		return segc_plan_slot(bd, in->subslot[c.known ? 0 : 1], out);
	for (i = 0; i < 2; i++) {
		blk[i] = segc_plan_block_open(bd, SEGC_PLAN_BRANCH);
		if (segc_plan_slot(bd, in->subslot[i], &v[i]))
			return -1;
		segc_plan_block_close(bd);
	}
	k = segc_plan_new_insn(bd, SEGC_OP_SELECT, c.value, v[0]);
	bd->p->insn[k].c = v[1];
	bd->p->insn[k].sub[0] = blk[0];
	bd->p->insn[k].sub[1] = blk[1];
	*out = k;
	return 0;
}

/* ------------------------------------------------------------- sums */

/* Non-zero when value 'i' is an integer wherever it is defined: a loop
 * counter, a ceil or a floor. */
static int is_integral(const segc_plan_builder *bd, size_t i)
{
	enum segc_plan_op op = bd->p->insn[i].op;

	return op == SEGC_OP_COUNTER || op == SEGC_OP_CEIL ||
		op == SEGC_OP_FLOOR;
}

/* The first counter of a loop from slot 's' (dir 1): ceil of it,
 * exactly when it is a number; or the bound of the last (dir -1): floor
 * of it when it is a number, else itself. */
static int plan_bound(segc_plan_builder *bd, size_t s, int dir, size_t *out)
{
	mpq_srcptr n = segc_plan_slot_num(bd, s);
	mpz_t z;
	mpq_t q;
	size_t v;

	if (n) {
		mpz_init(z);
		mpq_init(q);
		if (dir > 0)
			mpz_cdiv_q(z, mpq_numref(n), mpq_denref(n));
		else
			mpz_fdiv_q(z, mpq_numref(n), mpq_denref(n));
		mpq_set_z(q, z);
		*out = segc_plan_emit_const_dir(bd, q, dir);
		mpq_clear(q);
		mpz_clear(z);
		return 0;
	}
	if (segc_plan_slot(bd, s, &v))
		return -1;
	*out = dir > 0 && !is_integral(bd, v) ?
		segc_plan_emit_op(bd, SEGC_OP_CEIL, v, 0) : v;
	return 0;
}

/* Lowers sum(var, lo, hi, body) 'in' as a loop: the counter from
 * ceil(lo) while it is <= hi, the body lowered with the plan's counter
 * slot bound to it. */
static int plan_sum(segc_plan_builder *bd, const segc_eplan_ins *in,
	size_t *out)
{
	size_t first, last, counter, body, blk, k;

	if (plan_bound(bd, in->arg[0], 1, &first) ||
	    plan_bound(bd, in->arg[1], -1, &last))
		return -1;
	blk = segc_plan_block_open(bd, SEGC_PLAN_LOOP);
	counter = segc_plan_new_insn(bd, SEGC_OP_COUNTER, 0, 0);
	segc_plan_bind(bd, in->binder, counter);
	if (segc_plan_slot(bd, in->subslot[0], &body))
		return -1;
	segc_plan_block_close(bd);
	k = segc_plan_new_insn(bd, SEGC_OP_SUM, first, last);
	bd->p->insn[k].c = body;
	bd->p->insn[k].sub[0] = blk;
	bd->p->insn[k].counter = counter;
	*out = k;
	return 0;
}

/* ------------------------------------------------------ other calls */

/* The instruction of the one-argument built-in 'id': the one whose row
 * it is (segc_emit_op_builtin). */
static enum segc_plan_op unary_op(enum segc_builtin id)
{
	int op;

	for (op = SEGC_OP_CEIL; op < SEGC_OP_FMAX; op++)
		if (segc_emit_op_builtin((enum segc_plan_op)op)->id == id)
			break;
	return (enum segc_plan_op)op;
}

/* The terms of the sum slot 's' (through the partial sums the plan
 * hoisted out of a loop), or 's' itself, appended to 't' ('*n' of them,
 * room for 'cap'). */
static void round_terms(const segc_plan_builder *bd, size_t s, size_t **t,
	size_t *n, size_t *cap, int top)
{
	const segc_eplan_ins *in = segc_plan_def_op(bd, s, SEGC_EPO_ADD, !top);
	size_t i;

	if (in) {
		for (i = 0; i < in->nargs; i++)
			round_terms(bd, in->arg[i], t, n, cap, 0);
		return;
	}
	if (*n == *cap) {
		*cap = *cap ? 2 * *cap : 8;
		*t = segc_xrealloc(*t, segc_xmul_size(*cap, sizeof **t));
	}
	(*t)[(*n)++] = s;
}

/* The number coefficient of the term slot 't' of a sum (1 when it has
 * none), and 'rest' the slot of the term without it (SIZE_MAX: the term
 * is that number). */
static void term_coeff(const segc_plan_builder *bd, size_t t, mpq_t c,
	size_t *rest)
{
	const segc_eplan_ins *in = segc_plan_def_op(bd, t, SEGC_EPO_MUL, 0);
	mpq_srcptr n = segc_plan_slot_num(bd, t);

	mpq_set_ui(c, 1, 1);
	*rest = t;
	if (n) {
		mpq_set(c, n);
		*rest = (size_t)-1;
	} else if (in && in->nargs == 2 &&
		   segc_plan_slot_num(bd, in->arg[0])) {
		mpq_set(c, segc_plan_slot_num(bd, in->arg[0]));
		*rest = in->arg[1];
	}
}

/* Non-zero when slot 's' divides by something other than a number (a
 * power with a negative exponent): the plan of such a sum divides once at
 * the end already. */
static int divides(const segc_plan_builder *bd, size_t s)
{
	const segc_eplan_ins *in = segc_plan_def(bd, s);
	size_t i;

	if (!in)
		return 0;
	switch (in->op) {
	case SEGC_EPO_POW: {
		mpq_srcptr y = segc_plan_slot_num(bd, in->arg[1]);

		if (!y || mpq_sgn(y) < 0)
			return 1;
		return divides(bd, in->arg[0]);
	}
	case SEGC_EPO_SUM:
		return 1;
	case SEGC_EPO_ADD: case SEGC_EPO_MUL:
		for (i = 0; i < in->nargs; i++)
			if (divides(bd, in->arg[i]))
				return 1;
		return 0;
	default:
		return 0;  /* an atom of its own, planned apart */
	}
}

/* The lcm L of the denominators of the number coefficients of the terms
 * 't[0..n)', when it is > 1 and at most 2^20 and 's' (their sum) divides
 * by no name; else 0. */
static long coeff_lcm(const segc_plan_builder *bd, size_t s, const size_t *t,
	size_t n)
{
	size_t i, rest;
	long l = 0;
	mpz_t L;
	mpq_t c;

	if (divides(bd, s))
		return 0;
	mpz_init_set_ui(L, 1);
	mpq_init(c);
	for (i = 0; i < n; i++) {
		term_coeff(bd, t[i], c, &rest);
		mpz_lcm(L, L, mpq_denref(c));
	}
	if (mpz_cmp_ui(L, 1) && mpz_cmp_ui(L, 1UL << 20) <= 0)
		l = (long)mpz_get_ui(L);
	mpz_clear(L);
	mpq_clear(c);
	return l;
}

/* Lowers floor or ceil ('op') of slot 'a'.  When the number coefficients
 * of its terms have the lcm L > 1 (coeff_lcm), floor(x/6 + 5/6) is
 * lowered as floor((x + 5)/6): each term with its coefficient times L (an
 * integer), added, and divided by L once.  The numerator of integers is
 * exact in double and one correctly rounded division does not cross an
 * integer, where x*(1/6) + 5/6 (two roundings) may land just below 1. */
static int plan_round(segc_plan_builder *bd, enum segc_plan_op op, size_t a,
	size_t *out)
{
	size_t *t = NULL, n = 0, cap = 0, i, v = 0, u, rest;
	long l;
	int rc = 0;
	mpq_t c;

	round_terms(bd, a, &t, &n, &cap, 1);
	l = coeff_lcm(bd, a, t, n);
	if (!l) {
		free(t);
		if (segc_plan_slot(bd, a, &v))
			return -1;
		*out = segc_plan_emit_op(bd, op, v, 0);
		return 0;
	}
	mpq_init(c);
	for (i = 0; i < n && rc == 0; i++) {
		term_coeff(bd, t[i], c, &rest);
		mpz_mul_si(mpq_numref(c), mpq_numref(c), l);
		mpq_canonicalize(c);
		u = segc_plan_emit_const(bd, c);
		if (rest != (size_t)-1) {
			size_t x;

			rc = segc_plan_slot(bd, rest, &x);
			u = segc_plan_emit_mul(bd, u, x);
		}
		v = i ? segc_plan_emit_add(bd, v, u) : u;
	}
	mpq_clear(c);
	free(t);
	if (rc)
		return -1;
	v = segc_plan_emit_op(bd, SEGC_OP_DIV, v, segc_plan_emit_const_si(bd,
		l));
	*out = segc_plan_emit_op(bd, op, v, 0);
	return 0;
}

/* A function of one number without an instruction of the predictors:
 * its value where its argument is a number and the value rational (the
 * row's exact operation), else an error. */
static int plan_exact_call(segc_plan_builder *bd, const segc_eplan_ins *in,
	size_t *out)
{
	mpq_srcptr x = segc_plan_slot_num(bd, in->arg[0]);
	mpq_t q;
	int bad = -1;

	mpq_init(q);
	if (x)
		bad = segc_builtin_exact((enum segc_builtin)in->aux, q,
			(const mpq_t *)x, 1);
	if (!bad)
		*out = segc_plan_emit_const(bd, q);
	mpq_clear(q);
	if (bad)
		return segc_plan_fail(bd, "cannot emit C: the predictors have "
			"no instruction for %s", segc_expr_name(in->e));
	return 0;
}

/* See plan_private.h. */
int segc_plan_call(segc_plan_builder *bd, const segc_eplan_ins *in,
	size_t *out)
{
	enum segc_builtin id = (enum segc_builtin)in->aux;
	size_t v;

	switch (in->op) {
	case SEGC_EPO_EXTREMUM:
		return plan_extremum(bd, in, in->aux > 0 ? SEGC_OP_FMAX :
			SEGC_OP_FMIN, out);
	case SEGC_EPO_MVA:
		return plan_mva(bd, in, out);
	case SEGC_EPO_IF:
		return plan_if(bd, in, out);
	case SEGC_EPO_SUM:
		return plan_sum(bd, in, out);
	case SEGC_EPO_FAIL:
		return plan_failure(bd, in);
	case SEGC_EPO_UNARY:
		if (segc_builtin_get(id)->eval == SEGC_EVAL_ROUND)
			return plan_round(bd, unary_op(id), in->arg[0], out);
		if (unary_op(id) == SEGC_OP_FMAX)
			return plan_exact_call(bd, in, out);
		if (segc_plan_slot(bd, in->arg[0], &v))
			return -1;
		*out = segc_plan_emit_op(bd, unary_op(id), v, 0);
		return 0;
	default:
		return segc_plan_fail(bd, "cannot emit C: the condition '%s' "
			"stands where a number is expected",
			segc_expr_name(in->e));
	}
}
