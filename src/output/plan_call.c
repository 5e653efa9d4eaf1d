/* plan_call.c - the built-in calls in an evaluation plan: a piecewise
 * formula (if(cond, a, b)) computes only the side its condition chooses,
 * and/or only what their first operands leave undecided, a sum with no
 * closed form becomes a loop; max/min become fmax/fmin, mva_mem is
 * unrolled, ceil, floor, sqrt and log2 are single operations. */
#include <stdlib.h>
#include <string.h>
#include "output/plan_private.h"
#include "output/emit_private.h"

/* ------------------------------------------------------ other nodes */

/* Plans max/min of the arguments of 'e' as a chain of fmax/fmin. */
static int plan_extremum(segc_plan_builder *bd, const segc_expr *e,
	enum segc_plan_op op, size_t *out)
{
	size_t i, v;

	for (i = 0; i < segc_expr_nargs(e); i++) {
		if (segc_plan_expr(bd, segc_expr_arg(e, i), &v))
			return -1;
		*out = i ? segc_plan_emit_op(bd, op, *out, v) : v;
	}
	return 0;
}

/* Plans mva_mem(p, t_proc, t_mem) unrolled (p a positive integer). */
static int plan_mva(segc_plan_builder *bd, const segc_expr *e, size_t *out)
{
	const segc_expr *p = segc_expr_arg(e, 0);
	size_t a, b, r, k;
	unsigned long np;

	if (segc_expr_nargs(e) != 3 || !segc_expr_is_integer(p) ||
	    mpq_sgn(segc_expr_value(p)) <= 0 || mpz_cmp_ui(mpq_numref(
	    segc_expr_value(p)), segc_ctx_limits(bd->ctx)->max_mva_p) > 0)
		return segc_plan_fail(bd, "%s: p must be a positive integer "
			"constant within the limit (max_mva_p)", "mva_mem");
	if (segc_plan_expr(bd, segc_expr_arg(e, 1), &a) ||
	    segc_plan_expr(bd, segc_expr_arg(e, 2), &b))
		return -1;
	np = mpz_get_ui(mpq_numref(segc_expr_value(p)));
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

static int plan_cond(segc_plan_builder *bd, const segc_expr *e, cond *out);

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

/* Plans the comparison 'e' (two arguments). */
static int plan_relation(segc_plan_builder *bd, const segc_expr *e, int r,
	cond *out)
{
	const segc_expr *x = segc_expr_arg(e, 0), *y = segc_expr_arg(e, 1);
	enum segc_plan_op op = relations[r].op;
	size_t vx, vy;

	if (segc_expr_nargs(e) != 2)
		return segc_plan_fail(bd,
			"the comparison '%s' needs two operands",
			relations[r].name);
	if (segc_expr_kind(x) == SEGC_NUM && segc_expr_kind(y) == SEGC_NUM) {
		out->known = compare_known(op, mpq_cmp(segc_expr_value(x),
			segc_expr_value(y)));
		return 0;
	}
	if (segc_expr_kind(x) == SEGC_NUM) {
		x = segc_expr_arg(e, 1);
		y = segc_expr_arg(e, 0);
		op = relations[r].mirror;
	}
	if (segc_plan_expr(bd, x, &vx))
		return -1;
	if (segc_expr_kind(y) == SEGC_NUM) {
		plan_compare_const(bd, op, vx, segc_expr_value(y), out);
		return 0;
	}
	if (segc_plan_expr(bd, y, &vy))
		return -1;
	out->value = segc_plan_emit_op(bd, op, vx, vy);
	return 0;
}

/* Plans and(...) (is_and) or or(...): each operand after the first in a
 * block of its own, computed only when those before it leave the result
 * undecided. */
static int plan_junction(segc_plan_builder *bd, const segc_expr *e, int is_and,
	cond *out)
{
	size_t i, blk, k;
	cond next;

	if (!segc_expr_nargs(e))
		return segc_plan_fail(bd, "'%s' needs at least one condition",
			segc_expr_name(e));
	if (plan_cond(bd, segc_expr_arg(e, 0), out))
		return -1;
	for (i = 1; i < segc_expr_nargs(e); i++) {
		if (out->known == !is_and)
			return 0;
		if (out->known >= 0) {
			if (plan_cond(bd, segc_expr_arg(e, i), out))
				return -1;
			continue;
		}
		next.known = -1;
		blk = segc_plan_block_open(bd, SEGC_PLAN_BRANCH);
		if (plan_cond(bd, segc_expr_arg(e, i), &next))
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

/* Plans the condition 'e'. */
static int plan_cond(segc_plan_builder *bd, const segc_expr *e, cond *out)
{
	const char *f = segc_expr_kind(e) == SEGC_CALL ? segc_expr_name(e) : "";
	int r = relation_index(f);

	out->known = -1;
	out->value = 0;
	if (r >= 0)
		return plan_relation(bd, e, r, out);
	if (segc_expr_is_builtin(e, SEGC_BUILTIN_AND) ||
	    segc_expr_is_builtin(e, SEGC_BUILTIN_OR))
		return plan_junction(bd, e,
			segc_expr_is_builtin(e, SEGC_BUILTIN_AND), out);
	if (segc_expr_is_builtin(e, SEGC_BUILTIN_NOT) &&
	    segc_expr_nargs(e) == 1) {
		if (plan_cond(bd, segc_expr_arg(e, 0), out))
			return -1;
		if (out->known >= 0)
			out->known = !out->known;
		else
			out->value = segc_plan_emit_op(bd, SEGC_OP_NOT,
				out->value, 0);
		return 0;
	}
	return segc_plan_fail(bd, "cannot emit C: %s stands where a condition "
		"(a comparison) is expected", *f ? f : "a number");
}

/* Plans if(cond, a, b): each side in a block of its own, computed only
 * when chosen (nothing of the other when the condition is decided now). */
static int plan_if(segc_plan_builder *bd, const segc_expr *e, size_t *out)
{
	size_t v[2], blk[2], k;
	cond c;
	int i;

	if (segc_expr_nargs(e) != 3)
		return segc_plan_fail(bd, "cannot emit C: '%s' needs a "
			"condition and two values", segc_expr_name(e));
	if (plan_cond(bd, segc_expr_arg(e, 0), &c))
		return -1;
	if (c.known >= 0)
		return segc_plan_expr(bd, segc_expr_arg(e, c.known ? 1 : 2),
			out);
	for (i = 0; i < 2; i++) {
		blk[i] = segc_plan_block_open(bd, SEGC_PLAN_BRANCH);
		if (segc_plan_expr(bd, segc_expr_arg(e, 1 + i), &v[i]))
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

/* The first counter of a loop from 'e' (dir 1): ceil(e), exactly when
 * 'e' is a number; or the bound of the last (dir -1): floor(e) when 'e'
 * is a number, else 'e' itself. */
static int plan_bound(segc_plan_builder *bd, const segc_expr *e, int dir,
	size_t *out)
{
	mpz_t z;
	mpq_t q;
	size_t v;

	if (segc_expr_kind(e) == SEGC_NUM) {
		mpz_init(z);
		mpq_init(q);
		if (dir > 0)
			mpz_cdiv_q(z, mpq_numref(segc_expr_value(e)),
				mpq_denref(segc_expr_value(e)));
		else
			mpz_fdiv_q(z, mpq_numref(segc_expr_value(e)),
				mpq_denref(segc_expr_value(e)));
		mpq_set_z(q, z);
		*out = segc_plan_emit_const_dir(bd, q, dir);
		mpq_clear(q);
		mpz_clear(z);
		return 0;
	}
	if (segc_plan_expr(bd, e, &v))
		return -1;
	*out = dir > 0 && !is_integral(bd, v) ?
		segc_plan_emit_op(bd, SEGC_OP_CEIL, v, 0) : v;
	return 0;
}

/* Binds the variable 'name' to the counter 'v' in the loop being
 * planned. */
static void bind_counter(segc_plan_builder *bd, const char *name, size_t v)
{
	if (bd->nbound == bd->capbound) {
		bd->capbound = bd->capbound ? 2 * bd->capbound : 4;
		bd->bound_names = segc_xrealloc(bd->bound_names,
			segc_xmul_size(bd->capbound, sizeof *bd->bound_names));
		bd->bound_values = segc_xrealloc(bd->bound_values,
			segc_xmul_size(bd->capbound, sizeof *bd->bound_values));
	}
	bd->bound_names[bd->nbound] = name;
	bd->bound_values[bd->nbound++] = v;
}

/* Opens the scope of the variable 'name' bound to counter 'v' (see
 * plan_private.h). */
void segc_plan_scope_open(segc_plan_builder *bd, const char *name, size_t v,
	segc_expr_map *save)
{
	*save = bd->exprs;
	segc_expr_map_init(&bd->exprs);
	bind_counter(bd, name, v);
}

/* Closes the scope opened last. */
void segc_plan_scope_close(segc_plan_builder *bd, segc_expr_map *save)
{
	bd->nbound--;
	segc_expr_map_clear(&bd->exprs);
	bd->exprs = *save;
}

/* Plans the body of the loop of 'e' in the block being filled, with its
 * own memory of planned nodes (its variable may shadow an outer one). */
static int plan_body(segc_plan_builder *bd, const segc_expr *e, size_t counter,
	size_t *out)
{
	segc_expr_map outer;
	int rc;

	segc_plan_scope_open(bd, segc_expr_name(e), counter, &outer);
	rc = segc_plan_expr(bd, segc_expr_arg(e, 2), out);
	segc_plan_scope_close(bd, &outer);
	return rc;
}

/* Plans sum(var, lo, hi, body) as a loop: the counter from ceil(lo)
 * while it is <= hi. */
int segc_plan_sum(segc_plan_builder *bd, const segc_expr *e, size_t *out)
{
	size_t first, last, counter, body, blk, k;

	if (segc_expr_nargs(e) != 3)
		return segc_plan_fail(bd, "cannot emit C: the sum over '%s' is "
			"malformed", segc_expr_name(e));
	if (plan_bound(bd, segc_expr_arg(e, 0), 1, &first) ||
	    plan_bound(bd, segc_expr_arg(e, 1), -1, &last))
		return -1;
	blk = segc_plan_block_open(bd, SEGC_PLAN_LOOP);
	counter = segc_plan_new_insn(bd, SEGC_OP_COUNTER, 0, 0);
	if (plan_body(bd, e, counter, &body))
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

/* The number coefficient of the term 't' of a sum (1 when it has none),
 * and 'rest' the term without it (NULL: the term is that number). */
static void term_coeff(const segc_expr *t, mpq_t c, const segc_expr **rest)
{
	mpq_set_ui(c, 1, 1);
	*rest = t;
	if (segc_expr_kind(t) == SEGC_NUM) {
		mpq_set(c, segc_expr_value(t));
		*rest = NULL;
	} else if (segc_expr_kind(t) == SEGC_MUL && segc_expr_nargs(t) == 2 &&
		segc_expr_kind(segc_expr_arg(t, 0)) == SEGC_NUM) {
		mpq_set(c, segc_expr_value(segc_expr_arg(t, 0)));
		*rest = segc_expr_arg(t, 1);
	}
}

/* Non-zero when 'e' divides by something other than a number (a power
 * with a negative exponent): the plan of such a sum divides once at the
 * end already. */
static int divides(const segc_expr *e)
{
	size_t i, n = segc_expr_nargs(e);

	if (segc_expr_kind(e) == SEGC_POW) {
		const segc_expr *x = segc_expr_arg(e, 1);

		if (segc_expr_kind(x) != SEGC_NUM ||
			mpq_sgn(segc_expr_value(x)) < 0)
			return 1;
	}
	if (segc_expr_kind(e) == SEGC_SUM)
		return 1;
	if (segc_expr_kind(e) == SEGC_CALL)
		return 0;  /* an atom of its own, planned apart */
	for (i = 0; i < n; i++)
		if (divides(segc_expr_arg(e, i)))
			return 1;
	return 0;
}

/* The lcm L of the denominators of the number coefficients of the terms
 * of 'a' (a sum, or a single term), when it is > 1 and at most 2^20 and
 * 'a' divides by no name; else 0. */
static long coeff_lcm(const segc_expr *a)
{
	int sum = segc_expr_kind(a) == SEGC_ADD;
	size_t i, n = sum ? segc_expr_nargs(a) : 1;
	const segc_expr *rest;
	long l = 0;
	mpz_t L;
	mpq_t c;

	if (divides(a))
		return 0;
	mpz_init_set_ui(L, 1);
	mpq_init(c);
	for (i = 0; i < n; i++) {
		term_coeff(sum ? segc_expr_arg(a, i) : a, c, &rest);
		mpz_lcm(L, L, mpq_denref(c));
	}
	if (mpz_cmp_ui(L, 1) && mpz_cmp_ui(L, 1UL << 20) <= 0)
		l = (long)mpz_get_ui(L);
	mpz_clear(L);
	mpq_clear(c);
	return l;
}

/* Plans floor or ceil ('op') of 'a'.  When the number coefficients of
 * its terms have the lcm L > 1 (coeff_lcm), floor(x/6 + 5/6) is planned
 * as floor((x + 5)/6): each term with its coefficient times L (an
 * integer), added, and divided by L once.  The numerator of integers is
 * exact in double and one correctly rounded division does not cross an
 * integer, where x*(1/6) + 5/6 (two roundings) may land just below 1.
 * Only nodes of 'a' are planned (the plan remembers nodes by identity). */
static int plan_round(segc_plan_builder *bd, enum segc_plan_op op,
	const segc_expr *a, size_t *out)
{
	long l = coeff_lcm(a);
	int sum = segc_expr_kind(a) == SEGC_ADD, rc = 0;
	size_t i, n = sum ? segc_expr_nargs(a) : 1, v = 0, t;
	const segc_expr *rest;
	mpq_t c;

	if (!l) {
		if (segc_plan_expr(bd, a, &v))
			return -1;
		*out = segc_plan_emit_op(bd, op, v, 0);
		return 0;
	}
	mpq_init(c);
	for (i = 0; i < n && rc == 0; i++) {
		term_coeff(sum ? segc_expr_arg(a, i) : a, c, &rest);
		mpz_mul_si(mpq_numref(c), mpq_numref(c), l);
		mpq_canonicalize(c);
		t = segc_plan_emit_const(bd, c);
		if (rest) {
			size_t x;

			rc = segc_plan_expr(bd, rest, &x);
			t = segc_plan_emit_mul(bd, t, x);
		}
		v = i ? segc_plan_emit_add(bd, v, t) : t;
	}
	mpq_clear(c);
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
static int plan_exact_call(segc_plan_builder *bd, const segc_expr *e,
	size_t *out)
{
	const segc_expr *x = segc_expr_arg(e, 0);
	mpq_t q;
	int bad = -1;

	mpq_init(q);
	if (segc_expr_kind(x) == SEGC_NUM)
		bad = segc_builtin_exact(segc_expr_builtin(e), q,
			(const mpq_t *)segc_expr_value(x), 1);
	if (!bad)
		*out = segc_plan_emit_const(bd, q);
	mpq_clear(q);
	if (bad)
		return segc_plan_fail(bd, "cannot emit C: the predictors have "
			"no instruction for %s", segc_expr_name(e));
	return 0;
}

/* Plans a call of a built-in function; any other is an error. */
int segc_plan_call(segc_plan_builder *bd, const segc_expr *e, size_t *out)
{
	enum segc_builtin id = segc_expr_builtin(e);
	const char *f = segc_expr_name(e);
	size_t v;

	switch (segc_builtin_get(id)->plan) {
	case SEGC_PLAN_EXTREMUM:
		return plan_extremum(bd, e, segc_builtin_get(id)->dir > 0 ?
			SEGC_OP_FMAX : SEGC_OP_FMIN, out);
	case SEGC_PLAN_MVA:
		return plan_mva(bd, e, out);
	case SEGC_PLAN_REFUSE:
		return segc_plan_recurrence(bd, e, out);
	case SEGC_PLAN_TASKPATH:
		return segc_plan_taskpath(bd, e, out);
	case SEGC_PLAN_SELECT:
		return plan_if(bd, e, out);
	case SEGC_PLAN_CONDITION:
		return segc_plan_fail(bd, "cannot emit C: the condition '%s' "
			"stands where a number is expected", f);
	case SEGC_PLAN_UNARY:
		if (segc_expr_nargs(e) != 1)
			break;
		if (segc_builtin_get(id)->eval == SEGC_EVAL_ROUND)
			return plan_round(bd, unary_op(id), segc_expr_arg(e, 0),
				out);
		if (unary_op(id) == SEGC_OP_FMAX)
			return plan_exact_call(bd, e, out);
		if (segc_plan_expr(bd, segc_expr_arg(e, 0), &v))
			return -1;
		*out = segc_plan_emit_op(bd, unary_op(id), v, 0);
		return 0;
	default:
		break;
	}
	return segc_plan_fail(bd, "cannot emit C while the uninterpreted call "
		"'%s' remains: give a machine that defines it", f);
}
