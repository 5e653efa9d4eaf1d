/* plan.c - the plan of an emitted predictor: a straight-line program of
 * double operations computing a formula, built as data before any code is
 * printed (emit.c prints it).  It is the formula's evaluation plan (the
 * one every evaluator runs, evalmp_plan.h) lowered to doubles: starting
 * from the result, each slot the lowering needs becomes instructions
 * once.  Every value is numbered: an operation already computed is not
 * computed again.  The computations lie in blocks: a value is reused only
 * where its block is still open, and a loop body's computations that do
 * not depend on it are hoisted out of it.  This file holds the value
 * numbering, the blocks and the dispatch over the plan's operations;
 * sums and products are lowered in plan_poly.c, conditions, loops and the
 * other built-in operations in plan_call.c. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "output/plan_private.h"

static int round_dir(double *out, mpq_srcptr q, int dir);

/* ---------------------------------------------------- value numbering */

/* Non-zero when value 'i' may be used in the block being filled: its
 * block is still open. */
static int visible(const segc_plan_builder *bd, size_t i)
{
	return bd->open[bd->p->insn[i].block];
}

/* Non-zero when instruction 'i' of 'p' is (op, a, b). */
static int insn_same(const segc_plan_insn *i, enum segc_plan_op op,
	size_t a, size_t b)
{
	return i->op == op && i->a == a && i->b == b;
}

/* Appends the instruction (op, a, b) to the block being filled; returns
 * its value number. */
size_t segc_plan_new_insn(segc_plan_builder *bd, enum segc_plan_op op,
	size_t a, size_t b)
{
	segc_plan *p = bd->p;
	size_t i;

	if (p->n == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 32;
		p->insn = segc_xrealloc(p->insn,
			segc_xmul_size(p->cap, sizeof *p->insn));
	}
	i = p->n++;
	memset(&p->insn[i], 0, sizeof p->insn[i]);
	mpq_init(p->insn[i].q);
	p->insn[i].op = op;
	p->insn[i].a = a;
	p->insn[i].b = b;
	p->insn[i].block = bd->cur;
	return i;
}

/* The number of operands of 'in'. */
unsigned segc_plan_noperands(const segc_plan_insn *in)
{
	switch (in->op) {
	case SEGC_OP_CONST: case SEGC_OP_ARG: case SEGC_OP_COUNTER:
		return 0;
	case SEGC_OP_NEG: case SEGC_OP_CEIL: case SEGC_OP_FLOOR:
	case SEGC_OP_SQRT: case SEGC_OP_LOG2: case SEGC_OP_EXP2: case SEGC_OP_NOT:
	case SEGC_OP_MAXPLUS: case SEGC_OP_ROOT:
		return 1;
	case SEGC_OP_SELECT: case SEGC_OP_SUM:
		return 3;
	default:
		return 2;
	}
}

/* Non-zero when 'in' computes a condition. */
int segc_plan_is_condition(const segc_plan_insn *in)
{
	return (in->op >= SEGC_OP_LT && in->op <= SEGC_OP_NOT) ||
		in->op == SEGC_OP_AND || in->op == SEGC_OP_OR;
}

/* The block a new (op, a, b) goes to: the one being filled, or an
 * enclosing one where its operands are known, out of loop bodies (it is
 * then computed once, not per iteration) and, for a comparison, which
 * cannot fail, out of branches too. */
static size_t placement(const segc_plan_builder *bd, enum segc_plan_op op,
	size_t a, size_t b)
{
	const segc_plan *p = bd->p;
	segc_plan_insn probe;
	size_t blk = bd->cur;
	unsigned n;

	probe.op = op;
	n = segc_plan_noperands(&probe);
	while (blk) {
		const segc_plan_block *k = &p->blocks[blk];

		if (k->kind != SEGC_PLAN_LOOP && !(op >= SEGC_OP_LT &&
		    op <= SEGC_OP_NOT))
			break;
		if ((n >= 1 && p->insn[a].block == blk) ||
		    (n >= 2 && p->insn[b].block == blk))
			break;
		blk = k->parent;
	}
	return blk;
}

/* The value number of (op, a, b): the plan's own when it has it already
 * where it can be used, else a new instruction.  Commutative operands are
 * ordered first. */
size_t segc_plan_emit_op(segc_plan_builder *bd, enum segc_plan_op op,
	size_t a, size_t b)
{
	segc_plan *p = bd->p;
	size_t i, save;

	if ((op == SEGC_OP_ADD || op == SEGC_OP_MUL || op == SEGC_OP_FMAX ||
	     op == SEGC_OP_FMIN || op == SEGC_OP_EQ || op == SEGC_OP_NE) &&
	    a > b) {
		size_t t = a;

		a = b;
		b = t;
	}
	for (i = p->n; i-- > 0;)
		if (insn_same(&p->insn[i], op, a, b) && visible(bd, i))
			return i;
	save = bd->cur;
	bd->cur = placement(bd, op, a, b);
	i = segc_plan_new_insn(bd, op, a, b);
	bd->cur = save;
	return i;
}

/* The value number of the constant 'q' rounded in direction 'dir' (0 to
 * nearest, 1 up, -1 down).  Constants belong to block 0. */
size_t segc_plan_emit_const_dir(segc_plan_builder *bd, mpq_srcptr q,
	int dir)
{
	segc_plan *p = bd->p;
	size_t i, save;
	double d, nearest;

	if (round_dir(&d, q, dir) ||
	    segc_plan_round(&nearest, q)) {
		segc_error(bd->ctx, SEGC_ERR_LIMIT, bd->where ? bd->where->file
			: NULL, bd->where ? bd->where->line : 0, 0,
			"a coefficient is too large for a double");
		bd->failed = 1;
		d = nearest = 0;
	}
	if (d == nearest)
		dir = 0;
	for (i = 0; i < p->n; i++)
		if (p->insn[i].op == SEGC_OP_CONST && p->insn[i].rounding == dir
		    && mpq_equal(p->insn[i].q, q))
			return i;
	save = bd->cur;
	bd->cur = 0;
	i = segc_plan_new_insn(bd, SEGC_OP_CONST, 0, 0);
	bd->cur = save;
	p->insn[i].value = d;
	p->insn[i].rounding = dir;
	mpq_set(p->insn[i].q, q);
	return i;
}

/* The value number of the constant 'q' (rounded to nearest). */
size_t segc_plan_emit_const(segc_plan_builder *bd, mpq_srcptr q)
{
	return segc_plan_emit_const_dir(bd, q, 0);
}

/* The value number of the constant 'v'. */
size_t segc_plan_emit_const_si(segc_plan_builder *bd, long v)
{
	mpq_t q;
	size_t i;

	mpq_init(q);
	mpq_set_si(q, v, 1);
	i = segc_plan_emit_const(bd, q);
	mpq_clear(q);
	return i;
}

/* Non-zero when value 'i' is the constant 'v'. */
static int is_const(const segc_plan_builder *bd, size_t i, long v)
{
	const segc_plan_insn *in = &bd->p->insn[i];

	return in->op == SEGC_OP_CONST && mpq_cmp_si(in->q, v, 1) == 0;
}

/* a + b, a * b with the trivial cases folded. */
size_t segc_plan_emit_add(segc_plan_builder *bd, size_t a, size_t b)
{
	if (is_const(bd, a, 0))
		return b;
	if (is_const(bd, b, 0))
		return a;
	return segc_plan_emit_op(bd, SEGC_OP_ADD, a, b);
}

/* a * b with multiplications by 1 left out. */
size_t segc_plan_emit_mul(segc_plan_builder *bd, size_t a, size_t b)
{
	if (is_const(bd, a, 1))
		return b;
	if (is_const(bd, b, 1))
		return a;
	return segc_plan_emit_op(bd, SEGC_OP_MUL, a, b);
}

/* ------------------------------------------------------------ blocks */

/* Opens a block of 'kind' inside the one being filled, and fills it. */
size_t segc_plan_block_open(segc_plan_builder *bd,
	enum segc_plan_block_kind kind)
{
	segc_plan *p = bd->p;
	size_t b;

	if (p->nblocks == bd->capblocks) {
		bd->capblocks = bd->capblocks ? 2 * bd->capblocks : 8;
		p->blocks = segc_xrealloc(p->blocks,
			segc_xmul_size(bd->capblocks, sizeof *p->blocks));
		bd->open = segc_xrealloc(bd->open, bd->capblocks);
	}
	b = p->nblocks++;
	p->blocks[b].kind = kind;
	p->blocks[b].parent = bd->cur;
	p->blocks[b].first = p->n;
	p->blocks[b].end = p->n;
	bd->open[b] = 1;
	bd->cur = b;
	return b;
}

/* Closes the block being filled: its values are no longer used; the
 * enclosing block is filled again. */
void segc_plan_block_close(segc_plan_builder *bd)
{
	segc_plan_block *k = &bd->p->blocks[bd->cur];

	k->end = bd->p->n;
	bd->open[bd->cur] = 0;
	bd->cur = k->parent;
}

/* ---------------------------------------------------- planning a node */

/* Records an error about 'what' ('name') and fails the build. */
int segc_plan_fail(segc_plan_builder *bd, const char *fmt, const char *name)
{
	const segc_where *w = bd->where;

	segc_error(bd->ctx, SEGC_ERR_INPUT, w ? w->file : NULL,
		w ? w->line : 0, w ? w->col : 0, fmt, name);
	bd->failed = 1;
	return -1;
}

/* The value number of argument 'k' (in block 0). */
static size_t emit_arg(segc_plan_builder *bd, size_t k)
{
	size_t i, save;

	for (i = 0; i < bd->p->n; i++)
		if (insn_same(&bd->p->insn[i], SEGC_OP_ARG, k, 0))
			return i;
	save = bd->cur;
	bd->cur = 0;
	i = segc_plan_new_insn(bd, SEGC_OP_ARG, k, 0);
	bd->cur = save;
	return i;
}

/* See plan_private.h. */
const segc_eplan_ins *segc_plan_def(const segc_plan_builder *bd, size_t s)
{
	return bd->def[s];
}

/* See plan_private.h. */
const segc_eplan_ins *segc_plan_def_op(const segc_plan_builder *bd,
	size_t s, enum segc_eplan_op op, int hoisted)
{
	const segc_eplan_ins *in = bd->def[s];

	if (!in || in->op != op || (hoisted && in->e))
		return NULL;
	return in;
}

/* See plan_private.h. */
size_t segc_plan_arg_index(const segc_plan_builder *bd, size_t s)
{
	const segc_eplan_slot *sl = &bd->ep->slot[s];
	size_t i;

	if (sl->kind == SEGC_EPS_POINT)
		for (i = 0; i < bd->p->nargs; i++)
			if (!strcmp(bd->p->args[i], segc_expr_name(sl->e)))
				return i;
	return SIZE_MAX;
}

/* See plan_private.h. */
mpq_srcptr segc_plan_slot_num(const segc_plan_builder *bd, size_t s)
{
	const segc_eplan_slot *sl = &bd->ep->slot[s];

	return sl->kind == SEGC_EPS_CONST ? segc_expr_value(sl->e) : NULL;
}

/* See plan_private.h. */
void segc_plan_bind(segc_plan_builder *bd, size_t s, size_t v)
{
	bd->val[s] = v + 1;
}

/* The value number of the point slot 's': one of the arguments. */
static int plan_arg(segc_plan_builder *bd, size_t s, size_t *out)
{
	size_t i = segc_plan_arg_index(bd, s);

	if (i == SIZE_MAX)
		return segc_plan_fail(bd, "cannot emit C while '%s' is unbound: "
			"bind it (-D, a machine) or keep it as an argument "
			"(--keep)", segc_expr_name(bd->ep->slot[s].e));
	*out = emit_arg(bd, i);
	return 0;
}

/* Lowers the operation 'in' that sets a slot. */
static int plan_ins(segc_plan_builder *bd, const segc_eplan_ins *in,
	size_t *out)
{
	switch (in->op) {
	case SEGC_EPO_ADD: case SEGC_EPO_MUL:
		return segc_plan_poly(bd, in, out);
	case SEGC_EPO_POW:
		return segc_plan_is_root_pow(bd, in) ?
			segc_plan_root_pow(bd, in, out) :
			segc_plan_poly(bd, in, out);
	case SEGC_EPO_MAXPLUS: case SEGC_EPO_MAXPLUSV:
		return segc_plan_recurrence(bd, in, out);
	case SEGC_EPO_TASKPATH:
		return segc_plan_taskpath(bd, in, out);
	default:
		return segc_plan_call(bd, in, out);
	}
}

/* See plan_private.h. */
int segc_plan_slot(segc_plan_builder *bd, size_t s, size_t *out)
{
	const segc_eplan_slot *sl = &bd->ep->slot[s];
	int rc;

	if (bd->val[s] && visible(bd, bd->val[s] - 1)) {
		*out = bd->val[s] - 1;
		return 0;
	}
	switch (sl->kind) {
	case SEGC_EPS_CONST:
		*out = segc_plan_emit_const(bd, segc_expr_value(sl->e));
		rc = 0;
		break;
	case SEGC_EPS_POINT:
		rc = plan_arg(bd, s, out);
		break;
	case SEGC_EPS_BINDER:
		/* a counter is bound while its loop's body is lowered */
		return segc_plan_fail(bd, "cannot emit C: %s", "a loop's "
			"counter is used outside its loop");
	default:
		rc = plan_ins(bd, bd->def[s], out);
		break;
	}
	if (rc)
		return rc;
	bd->val[s] = *out + 1;
	return 0;
}

/* Counts the uses of every value by the live instructions (those the
 * result depends on; the result counts as one use, a loop's counter one
 * more) and the operations among them. */
static void count_uses(segc_plan *p)
{
	size_t i;

	p->insn[p->result].uses++;
	p->flops = 0;
	for (i = p->n; i-- > 0;) {
		segc_plan_insn *in = &p->insn[i];
		unsigned n = segc_plan_noperands(in);

		if (in->uses && in->op == SEGC_OP_TASKPATH) {
			p->flops++;
			segc_plan_taskpath_uses(p, in);
			continue;
		}
		if (!in->uses || !n)
			continue;
		p->flops++;
		p->insn[in->a].uses++;
		if (n >= 2)
			p->insn[in->b].uses++;
		if (n >= 3)
			p->insn[in->c].uses++;
		if (in->op == SEGC_OP_SUM ||
		    (in->op == SEGC_OP_MAXPLUS && in->mp->varying))
			p->insn[in->counter].uses++;
		if (in->op == SEGC_OP_MAXPLUS)
			segc_plan_maxplus_uses(p, in);
	}
}

/* Releases what 'bd' holds but the plan. */
static void builder_clear(segc_plan_builder *bd)
{
	free(bd->open);
	free(bd->def);
	free(bd->val);
}

/* Records in bd->def the operation that sets each slot of 'ep'. */
static void index_slots(segc_plan_builder *bd, const segc_eplan *ep)
{
	size_t i, j;

	bd->def = segc_xcalloc(ep->nslots + 1, sizeof *bd->def);
	bd->val = segc_xcalloc(ep->nslots + 1, sizeof *bd->val);
	for (i = 0; i < ep->nblocks; i++)
		for (j = 0; j < ep->blocks[i]->n; j++)
			bd->def[ep->blocks[i]->ins[j].dst] =
				&ep->blocks[i]->ins[j];
}

/* Builds the plan of 'e' over the arguments 'args': its evaluation plan
 * compiled for them, then lowered. */
segc_plan *segc_plan_build(segc_ctx *ctx, const segc_expr *e, size_t nargs,
	const char *const *args, const segc_where *where)
{
	segc_plan_builder bd;
	segc_evaluator ev;
	segc_point pt;
	segc_eplan ep;
	size_t i;
	int rc;

	memset(&ev, 0, sizeof ev);
	pt.n = nargs;
	pt.names = args;
	pt.values = NULL;
	ev.ctx = ctx;
	ev.pt = &pt;
	ev.where = where;
	if (segc_eplan_compile(&ep, &ev, 1, &e))
		return NULL;
	memset(&bd, 0, sizeof bd);
	bd.ctx = ctx;
	bd.where = where;
	bd.ep = &ep;
	bd.p = segc_xcalloc(1, sizeof *bd.p);
	bd.p->nargs = nargs;
	bd.p->args = segc_xcalloc(nargs + 1, sizeof *bd.p->args);
	for (i = 0; i < nargs; i++)
		bd.p->args[i] = segc_xstrdup(args[i]);
	index_slots(&bd, &ep);
	segc_plan_block_open(&bd, SEGC_PLAN_BODY);
	rc = segc_plan_slot(&bd, ep.result[0], &bd.p->result) || bd.failed;
	if (!rc && segc_plan_is_condition(&bd.p->insn[bd.p->result])) {
		segc_plan_fail(&bd, "cannot emit C: the formula is a "
			"condition, %s", "not a number");
		rc = 1;
	}
	builder_clear(&bd);
	segc_eplan_free(&ep);
	if (rc) {
		segc_plan_free(bd.p);
		return NULL;
	}
	bd.p->blocks[0].end = bd.p->n;
	count_uses(bd.p);
	return bd.p;
}

/* See output.h. */
int segc_plan_uses_op(const segc_plan *p, enum segc_plan_op op)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		if (p->insn[i].uses && p->insn[i].op == op)
			return 1;
	return 0;
}

/* Releases 'p'. */
void segc_plan_free(segc_plan *p)
{
	size_t i;

	if (!p)
		return;
	for (i = 0; i < p->n; i++) {
		mpq_clear(p->insn[i].q);
		segc_plan_maxplus_free(p->insn[i].mp);
		segc_plan_taskpath_free(p->insn[i].tp);
	}
	for (i = 0; i < p->nargs; i++)
		free(p->args[i]);
	free(p->args);
	free(p->insn);
	free(p->blocks);
	free(p);
}

/* The double nearest to 'q' (dir 0), or the least double >= q (dir 1),
 * or the greatest <= q (dir -1), subnormals included.  -1 when it
 * overflows. */
static int round_dir(double *out, mpq_srcptr q, int dir)
{
	mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
	mpfr_rnd_t rnd = dir > 0 ? MPFR_RNDU : dir < 0 ? MPFR_RNDD : MPFR_RNDN;
	mpfr_t x;
	int t;

	mpfr_set_emin(-1073);
	mpfr_set_emax(1024);
	mpfr_init2(x, 53);
	t = mpfr_set_q(x, q, rnd);
	mpfr_subnormalize(x, t, rnd);
	*out = mpfr_get_d(x, rnd);
	t = mpfr_inf_p(x);
	mpfr_clear(x);
	mpfr_set_emin(emin);
	mpfr_set_emax(emax);
	return t ? -1 : 0;
}

/* The correctly rounded double of 'q', subnormals included. */
int segc_plan_round(double *out, mpq_srcptr q)
{
	return round_dir(out, q, 0);
}
