/* plan.c - the evaluation plan of an emitted predictor: a straight-line
 * program of double operations computing a formula, built as data before
 * any C is printed (emit.c prints it).  Sums of products are evaluated by
 * multivariate Horner's rule over the formula's variables (the arguments
 * in order, then other atoms), integer powers by repeated squaring, the
 * negative powers of a sum of terms by one division at the end.  Every
 * value is numbered: an operation already computed is not computed again,
 * and a shared subexpression is planned once.  A piecewise formula
 * (if(cond, a, b)) computes only the side its condition chooses, and/or
 * only what their first operands leave undecided; a sum with no closed
 * form becomes a loop.  Those computations lie in blocks: a value is
 * reused only where its block is still open, and a loop body's
 * computations that do not depend on it are hoisted out of it. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "output/output.h"
#include "expr/expr_private.h"

/* Most atoms of one sum (Horner's rule recurses once per atom), and most
 * exponents stored for one sum (terms times atoms). */
#define MAX_ATOMS 2048
#define MAX_CELLS 20000000UL

/* A term of a Laurent polynomial over the atoms of a sum: coefficient
 * times the product of atom^exps[k]. */
typedef struct term {
	mpq_t coeff;
	long *exps;
} term;

/* A Laurent polynomial being collected. */
typedef struct lpoly {
	size_t nterms, capterms;
	term *terms;
	size_t natoms, capatoms;
	const segc_expr **atoms;  /* the atoms' expressions */
	size_t *atom_value;       /* their planned values */
	long *atom_rank;          /* ordering key: argument index, else big */
} lpoly;

/* The state of one plan build. */
typedef struct builder {
	segc_ctx *ctx;
	const segc_where *where;
	segc_plan *p;
	segc_expr_map exprs;       /* node -> value number + 1 */
	size_t cur;                /* the block being filled */
	size_t capblocks;
	unsigned char *open;       /* per block: still being filled */
	size_t nbound, capbound;   /* the variables of the open loops */
	const char **bound_names;
	size_t *bound_values;      /* their COUNTER instructions */
	int failed;
} builder;

static int plan_expr(builder *bd, const segc_expr *e, size_t *out);
static int round_dir(double *out, mpq_srcptr q, int dir);

/* ---------------------------------------------------- value numbering */

/* Non-zero when value 'i' may be used in the block being filled: its
 * block is still open. */
static int visible(const builder *bd, size_t i)
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
static size_t new_insn(builder *bd, enum segc_plan_op op, size_t a, size_t b)
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
	case SEGC_OP_SQRT: case SEGC_OP_LOG2: case SEGC_OP_NOT:
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
static size_t placement(const builder *bd, enum segc_plan_op op, size_t a,
	size_t b)
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
static size_t emit_op(builder *bd, enum segc_plan_op op, size_t a, size_t b)
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
	i = new_insn(bd, op, a, b);
	bd->cur = save;
	return i;
}

/* The value number of the constant 'q' rounded in direction 'dir' (0 to
 * nearest, 1 up, -1 down).  Constants belong to block 0. */
static size_t emit_const_dir(builder *bd, mpq_srcptr q, int dir)
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
	i = new_insn(bd, SEGC_OP_CONST, 0, 0);
	bd->cur = save;
	p->insn[i].value = d;
	p->insn[i].rounding = dir;
	mpq_set(p->insn[i].q, q);
	return i;
}

/* The value number of the constant 'q' (rounded to nearest). */
static size_t emit_const(builder *bd, mpq_srcptr q)
{
	return emit_const_dir(bd, q, 0);
}

/* The value number of the constant 'v'. */
static size_t emit_const_si(builder *bd, long v)
{
	mpq_t q;
	size_t i;

	mpq_init(q);
	mpq_set_si(q, v, 1);
	i = emit_const(bd, q);
	mpq_clear(q);
	return i;
}

/* Non-zero when value 'i' is the constant 'v'. */
static int is_const(const builder *bd, size_t i, long v)
{
	const segc_plan_insn *in = &bd->p->insn[i];

	return in->op == SEGC_OP_CONST && mpq_cmp_si(in->q, v, 1) == 0;
}

/* a + b, a * b with the trivial cases folded. */
static size_t emit_add(builder *bd, size_t a, size_t b)
{
	if (is_const(bd, a, 0))
		return b;
	if (is_const(bd, b, 0))
		return a;
	return emit_op(bd, SEGC_OP_ADD, a, b);
}

/* a * b with multiplications by 1 left out. */
static size_t emit_mul(builder *bd, size_t a, size_t b)
{
	if (is_const(bd, a, 1))
		return b;
	if (is_const(bd, b, 1))
		return a;
	return emit_op(bd, SEGC_OP_MUL, a, b);
}

/* x^k for k >= 1 by repeated squaring (x^2, x^4, ... are shared). */
static size_t emit_pow(builder *bd, size_t x, unsigned long k)
{
	size_t acc = 0, sq = x;
	int have = 0;

	while (k) {
		if (k & 1) {
			acc = have ? emit_mul(bd, acc, sq) : sq;
			have = 1;
		}
		k >>= 1;
		if (k)
			sq = emit_mul(bd, sq, sq);
	}
	return have ? acc : emit_const_si(bd, 1);
}

/* ------------------------------------------------ Laurent polynomials */

/* Frees the memory of 'lp'. */
static void lpoly_clear(lpoly *lp)
{
	size_t i;

	for (i = 0; i < lp->nterms; i++) {
		mpq_clear(lp->terms[i].coeff);
		free(lp->terms[i].exps);
	}
	free(lp->terms);
	free(lp->atoms);
	free(lp->atom_value);
	free(lp->atom_rank);
	memset(lp, 0, sizeof *lp);
}

/* The index of the atom 'e' in 'lp', added (and planned) when new;
 * (size_t)-1 on failure. */
static size_t lpoly_atom(builder *bd, lpoly *lp, const segc_expr *e)
{
	size_t i, v, k;

	for (i = 0; i < lp->natoms; i++)
		if (lp->atoms[i] == e)
			return i;
	if (plan_expr(bd, e, &v))
		return (size_t)-1;
	if (lp->natoms == lp->capatoms) {
		lp->capatoms = lp->capatoms ? 2 * lp->capatoms : 8;
		lp->atoms = segc_xrealloc(lp->atoms,
			segc_xmul_size(lp->capatoms, sizeof *lp->atoms));
		lp->atom_value = segc_xrealloc(lp->atom_value,
			segc_xmul_size(lp->capatoms, sizeof *lp->atom_value));
		lp->atom_rank = segc_xrealloc(lp->atom_rank,
			segc_xmul_size(lp->capatoms, sizeof *lp->atom_rank));
		for (k = 0; k < lp->nterms; k++)
			lp->terms[k].exps = segc_xrealloc(lp->terms[k].exps,
				segc_xmul_size(lp->capatoms, sizeof(long)));
		for (k = 0; k < lp->nterms; k++)
			memset(lp->terms[k].exps + lp->natoms, 0,
				(lp->capatoms - lp->natoms) * sizeof(long));
	}
	i = lp->natoms++;
	lp->atoms[i] = e;
	lp->atom_value[i] = v;
	lp->atom_rank[i] = (long)(bd->p->nargs + i);
	if (segc_expr_kind(e) == SEGC_SYM)
		for (k = 0; k < bd->p->nargs; k++)
			if (!strcmp(bd->p->args[k], segc_expr_name(e)))
				lp->atom_rank[i] = (long)k;
	return i;
}

/* Appends a term with coefficient 1 and no atoms; returns it. */
static term *lpoly_new_term(lpoly *lp)
{
	term *t;

	if (lp->nterms == lp->capterms) {
		lp->capterms = lp->capterms ? 2 * lp->capterms : 8;
		lp->terms = segc_xrealloc(lp->terms,
			segc_xmul_size(lp->capterms, sizeof *lp->terms));
	}
	t = &lp->terms[lp->nterms++];
	mpq_init(t->coeff);
	mpq_set_ui(t->coeff, 1, 1);
	t->exps = segc_xcalloc(lp->capatoms ? lp->capatoms : 1, sizeof(long));
	return t;
}

/* Non-zero when 'e' is base^k with k an integer that fits a long. */
static int int_power(const segc_expr *e, long *k)
{
	const segc_expr *x;

	if (segc_expr_kind(e) != SEGC_POW)
		return 0;
	x = segc_expr_arg(e, 1);
	if (!segc_expr_is_integer(x) || !mpz_fits_slong_p(
	    mpq_numref(segc_expr_value(x))))
		return 0;
	*k = mpz_get_si(mpq_numref(segc_expr_value(x)));
	return *k > -(1L << 20) && *k < (1L << 20);
}

/* Multiplies the last term of 'lp' by the factor 'f'. */
static int lpoly_factor(builder *bd, lpoly *lp, const segc_expr *f)
{
	long k = 1;
	size_t a;

	if (segc_expr_kind(f) == SEGC_NUM) {
		mpq_mul(lp->terms[lp->nterms - 1].coeff,
			lp->terms[lp->nterms - 1].coeff, segc_expr_value(f));
		return 0;
	}
	if (int_power(f, &k))
		f = segc_expr_arg(f, 0);
	else
		k = 1;
	a = lpoly_atom(bd, lp, f);
	if (a == (size_t)-1)
		return -1;
	lp->terms[lp->nterms - 1].exps[a] += k;
	return 0;
}

/* Adds the term 'e' (a product, a power, an atom or a number) to 'lp'. */
static int lpoly_term(builder *bd, lpoly *lp, const segc_expr *e)
{
	size_t i;

	lpoly_new_term(lp);
	if (segc_expr_kind(e) != SEGC_MUL)
		return lpoly_factor(bd, lp, e);
	for (i = 0; i < segc_expr_nargs(e); i++)
		if (lpoly_factor(bd, lp, segc_expr_arg(e, i)))
			return -1;
	return 0;
}

/* Collects the sum (or single term) 'e' into 'lp'. */
static int lpoly_collect(builder *bd, lpoly *lp, const segc_expr *e)
{
	size_t i;

	if (segc_expr_kind(e) != SEGC_ADD)
		return lpoly_term(bd, lp, e);
	for (i = 0; i < segc_expr_nargs(e); i++)
		if (lpoly_term(bd, lp, segc_expr_arg(e, i)))
			return -1;
	return 0;
}

/* ------------------------------------------------------------ Horner */

/* The Horner context: the atoms in evaluation order. */
typedef struct horner {
	builder *bd;
	const lpoly *lp;
	size_t *order;   /* atom indices, outermost variable first */
} horner;

/* Exponent of the atom at 'level' in term 't'. */
static long hexp(const horner *h, const term *t, size_t level)
{
	return t->exps[h->order[level]];
}

/* Compares terms 'a' and 'b' by their exponents, outermost atom first. */
static int term_cmp(const horner *h, const term *a, const term *b)
{
	size_t l;

	for (l = 0; l < h->lp->natoms; l++) {
		long x = hexp(h, a, l), y = hexp(h, b, l);

		if (x != y)
			return x < y ? -1 : 1;
	}
	return 0;
}

/* Sorts 'ts[0..n)' by term_cmp (a stable merge sort; 'tmp' as long). */
static void sort_terms(const horner *h, const term **ts, const term **tmp,
	size_t n)
{
	size_t w, i;

	for (w = 1; w < n; w *= 2) {
		for (i = 0; i < n; i += 2 * w) {
			size_t lo = i, mid = i + w < n ? i + w : n;
			size_t hi = i + 2 * w < n ? i + 2 * w : n;
			size_t l = lo, r = mid, k = lo;

			while (l < mid || r < hi)
				tmp[k++] = r >= hi || (l < mid &&
					term_cmp(h, ts[l], ts[r]) <= 0) ?
					ts[l++] : ts[r++];
		}
		memcpy(ts, tmp, n * sizeof *ts);
	}
}

/* Plans the terms 'ts[0..n)' (sorted from 'level' on, exponents >= 0)
 * by Horner's rule in the atom at 'level', the coefficients recursively
 * in the atoms after it. */
static size_t horner_plan(const horner *h, const term **ts, size_t n,
	size_t level)
{
	builder *bd = h->bd;
	size_t i, j, acc = 0, x, ngroups = 0;
	long prev = 0;
	size_t *coeffs, *starts;

	if (level == h->lp->natoms) {
		mpq_t s;

		mpq_init(s);
		for (i = 0; i < n; i++)
			mpq_add(s, s, ts[i]->coeff);
		acc = emit_const(bd, s);
		mpq_clear(s);
		return acc;
	}
	x = h->lp->atom_value[h->order[level]];
	coeffs = segc_xmalloc(segc_xmul_size(n, sizeof *coeffs));
	starts = segc_xmalloc(segc_xmul_size(n + 1, sizeof *starts));
	for (i = 0; i < n; i = j) {
		for (j = i; j < n && hexp(h, ts[j], level) ==
		     hexp(h, ts[i], level); j++)
			;
		starts[ngroups] = i;
		coeffs[ngroups++] = horner_plan(h, ts + i, j - i, level + 1);
	}
	starts[ngroups] = n;
	for (i = ngroups; i-- > 0;) {
		long e = hexp(h, ts[starts[i]], level);

		if (i + 1 < ngroups)
			acc = emit_add(bd, coeffs[i], emit_mul(bd,
				emit_pow(bd, x, (unsigned long)(prev - e)), acc));
		else
			acc = coeffs[i];
		prev = e;
	}
	if (prev > 0)
		acc = emit_mul(bd, emit_pow(bd, x, (unsigned long)prev), acc);
	free(coeffs);
	free(starts);
	return acc;
}

/* Orders the atoms of 'lp': arguments in their order, then the others. */
static void atom_order(const lpoly *lp, size_t *order)
{
	size_t i, j;

	for (i = 0; i < lp->natoms; i++)
		order[i] = i;
	for (i = 1; i < lp->natoms; i++)
		for (j = i; j > 0 && lp->atom_rank[order[j - 1]] >
		     lp->atom_rank[order[j]]; j--) {
			size_t t = order[j];

			order[j] = order[j - 1];
			order[j - 1] = t;
		}
}

/* Shifts the exponents of 'lp' so that each atom's least is 0; the shifts
 * go to 'shift'. */
static void lpoly_shift(lpoly *lp, long *shift)
{
	size_t a, t;

	for (a = 0; a < lp->natoms; a++) {
		shift[a] = 0;
		for (t = 0; t < lp->nterms; t++)
			if (t == 0 || lp->terms[t].exps[a] < shift[a])
				shift[a] = lp->terms[t].exps[a];
		for (t = 0; t < lp->nterms; t++)
			lp->terms[t].exps[a] -= shift[a];
	}
}

/* Multiplies 'v' by the atoms' powers 'shift': positive ones as factors,
 * negative ones together as one divisor. */
static size_t apply_shift(builder *bd, const lpoly *lp, const size_t *order,
	const long *shift, size_t v)
{
	size_t i, den = 0;
	int have_den = 0;

	for (i = 0; i < lp->natoms; i++) {
		size_t a = order[i];
		long s = shift[a];

		if (s > 0)
			v = emit_mul(bd, v, emit_pow(bd, lp->atom_value[a],
				(unsigned long)s));
		else if (s < 0) {
			size_t f = emit_pow(bd, lp->atom_value[a],
				0UL - (unsigned long)s);

			den = have_den ? emit_mul(bd, den, f) : f;
			have_den = 1;
		}
	}
	return have_den ? emit_op(bd, SEGC_OP_DIV, v, den) : v;
}

/* Plans the sum, product or power 'e' as a Laurent polynomial in its
 * atoms. */
static int plan_poly(builder *bd, const segc_expr *e, size_t *out)
{
	lpoly lp;
	horner h;
	const term **ts = NULL, **tmp = NULL;
	long *shift = NULL;
	size_t i;
	int rc = -1;

	memset(&lp, 0, sizeof lp);
	if (lpoly_collect(bd, &lp, e))
		goto out;
	if (lp.natoms > MAX_ATOMS || lp.nterms * (lp.natoms + 1) > MAX_CELLS) {
		segc_error(bd->ctx, SEGC_ERR_LIMIT, bd->where ? bd->where->file
			: NULL, bd->where ? bd->where->line : 0, 0, "the formula is "
			"too large to emit (%lu terms over %lu atoms)",
			(unsigned long)lp.nterms, (unsigned long)lp.natoms);
		bd->failed = 1;
		goto out;
	}
	h.bd = bd;
	h.lp = &lp;
	h.order = segc_xcalloc(lp.natoms + 1, sizeof *h.order);
	shift = segc_xcalloc(lp.natoms + 1, sizeof *shift);
	ts = segc_xmalloc(segc_xmul_size(lp.nterms, sizeof *ts));
	tmp = segc_xmalloc(segc_xmul_size(lp.nterms, sizeof *tmp));
	atom_order(&lp, h.order);
	lpoly_shift(&lp, shift);
	for (i = 0; i < lp.nterms; i++)
		ts[i] = &lp.terms[i];
	sort_terms(&h, ts, tmp, lp.nterms);
	*out = apply_shift(bd, &lp, h.order, shift,
		horner_plan(&h, ts, lp.nterms, 0));
	free(h.order);
	rc = 0;
out:
	free(ts);
	free(tmp);
	free(shift);
	lpoly_clear(&lp);
	return rc;
}

/* ------------------------------------------------------ other nodes */

/* Records an error about 'what' ('name') and fails the build. */
static int plan_fail(builder *bd, const char *fmt, const char *name)
{
	const segc_where *w = bd->where;

	segc_error(bd->ctx, SEGC_ERR_INPUT, w ? w->file : NULL,
		w ? w->line : 0, w ? w->col : 0, fmt, name);
	bd->failed = 1;
	return -1;
}

/* Plans max/min of the arguments of 'e' as a chain of fmax/fmin. */
static int plan_extremum(builder *bd, const segc_expr *e,
	enum segc_plan_op op, size_t *out)
{
	size_t i, v;

	for (i = 0; i < segc_expr_nargs(e); i++) {
		if (plan_expr(bd, segc_expr_arg(e, i), &v))
			return -1;
		*out = i ? emit_op(bd, op, *out, v) : v;
	}
	return 0;
}

/* Plans mva_mem(p, t_proc, t_mem) unrolled (p a positive integer). */
static int plan_mva(builder *bd, const segc_expr *e, size_t *out)
{
	const segc_expr *p = segc_expr_arg(e, 0);
	size_t a, b, r, k;
	unsigned long np;

	if (segc_expr_nargs(e) != 3 || !segc_expr_is_integer(p) ||
	    mpq_sgn(segc_expr_value(p)) <= 0 || mpz_cmp_ui(mpq_numref(
	    segc_expr_value(p)), segc_ctx_limits(bd->ctx)->max_mva_p) > 0)
		return plan_fail(bd, "%s: p must be a positive integer "
			"constant within the limit", "mva_mem");
	if (plan_expr(bd, segc_expr_arg(e, 1), &a) ||
	    plan_expr(bd, segc_expr_arg(e, 2), &b))
		return -1;
	np = mpz_get_ui(mpq_numref(segc_expr_value(p)));
	r = b;
	for (k = 1; k < np; k++) {
		size_t q = emit_op(bd, SEGC_OP_DIV, emit_mul(bd,
			emit_const_si(bd, (long)k), r), emit_add(bd, a, r));

		r = emit_mul(bd, emit_add(bd, emit_const_si(bd, 1), q), b);
	}
	*out = r;
	return 0;
}

/* ------------------------------------------------------------ blocks */

/* Opens a block of 'kind' inside the one being filled, and fills it. */
static size_t block_open(builder *bd, enum segc_plan_block_kind kind)
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
static void block_close(builder *bd)
{
	segc_plan_block *k = &bd->p->blocks[bd->cur];

	k->end = bd->p->n;
	bd->open[bd->cur] = 0;
	bd->cur = k->parent;
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

static int plan_cond(builder *bd, const segc_expr *e, cond *out);

/* Non-zero when value 'i' is exact whenever the formula's inputs are: an
 * argument or a loop counter. */
static int is_exact(const builder *bd, size_t i)
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
static void plan_compare_const(builder *bd, enum segc_plan_op op, size_t x,
	mpq_srcptr q, cond *out)
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
	out->value = emit_op(bd, op, x, emit_const_dir(bd, q, dir));
}

/* Plans the comparison 'e' (two arguments). */
static int plan_relation(builder *bd, const segc_expr *e, int r, cond *out)
{
	const segc_expr *x = segc_expr_arg(e, 0), *y = segc_expr_arg(e, 1);
	enum segc_plan_op op = relations[r].op;
	size_t vx, vy;

	if (segc_expr_nargs(e) != 2)
		return plan_fail(bd, "the comparison '%s' needs two operands",
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
	if (plan_expr(bd, x, &vx))
		return -1;
	if (segc_expr_kind(y) == SEGC_NUM) {
		plan_compare_const(bd, op, vx, segc_expr_value(y), out);
		return 0;
	}
	if (plan_expr(bd, y, &vy))
		return -1;
	out->value = emit_op(bd, op, vx, vy);
	return 0;
}

/* Plans and(...) (is_and) or or(...): each operand after the first in a
 * block of its own, computed only when those before it leave the result
 * undecided. */
static int plan_junction(builder *bd, const segc_expr *e, int is_and,
	cond *out)
{
	size_t i, blk, k;
	cond next;

	if (!segc_expr_nargs(e))
		return plan_fail(bd, "'%s' needs at least one condition",
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
		blk = block_open(bd, SEGC_PLAN_BRANCH);
		if (plan_cond(bd, segc_expr_arg(e, i), &next))
			return -1;
		block_close(bd);
		if (next.known == !is_and) {
			out->known = next.known;
			continue;
		}
		if (next.known >= 0)
			continue;
		k = new_insn(bd, is_and ? SEGC_OP_AND : SEGC_OP_OR, out->value,
			next.value);
		bd->p->insn[k].sub[0] = blk;
		out->value = k;
	}
	return 0;
}

/* Plans the condition 'e'. */
static int plan_cond(builder *bd, const segc_expr *e, cond *out)
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
			out->value = emit_op(bd, SEGC_OP_NOT, out->value, 0);
		return 0;
	}
	return plan_fail(bd, "cannot emit C: %s stands where a condition (a "
		"comparison) is expected", *f ? f : "a number");
}

/* Plans if(cond, a, b): each side in a block of its own, computed only
 * when chosen (nothing of the other when the condition is decided now). */
static int plan_if(builder *bd, const segc_expr *e, size_t *out)
{
	size_t v[2], blk[2], k;
	cond c;
	int i;

	if (segc_expr_nargs(e) != 3)
		return plan_fail(bd, "cannot emit C: '%s' needs a condition and "
			"two values", segc_expr_name(e));
	if (plan_cond(bd, segc_expr_arg(e, 0), &c))
		return -1;
	if (c.known >= 0)
		return plan_expr(bd, segc_expr_arg(e, c.known ? 1 : 2), out);
	for (i = 0; i < 2; i++) {
		blk[i] = block_open(bd, SEGC_PLAN_BRANCH);
		if (plan_expr(bd, segc_expr_arg(e, 1 + i), &v[i]))
			return -1;
		block_close(bd);
	}
	k = new_insn(bd, SEGC_OP_SELECT, c.value, v[0]);
	bd->p->insn[k].c = v[1];
	bd->p->insn[k].sub[0] = blk[0];
	bd->p->insn[k].sub[1] = blk[1];
	*out = k;
	return 0;
}

/* ------------------------------------------------------------- sums */

/* Non-zero when value 'i' is an integer wherever it is defined: a loop
 * counter, a ceil or a floor. */
static int is_integral(const builder *bd, size_t i)
{
	enum segc_plan_op op = bd->p->insn[i].op;

	return op == SEGC_OP_COUNTER || op == SEGC_OP_CEIL ||
		op == SEGC_OP_FLOOR;
}

/* The first counter of a loop from 'e' (dir 1): ceil(e), exactly when
 * 'e' is a number; or the bound of the last (dir -1): floor(e) when 'e'
 * is a number, else 'e' itself. */
static int plan_bound(builder *bd, const segc_expr *e, int dir, size_t *out)
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
		*out = emit_const_dir(bd, q, dir);
		mpq_clear(q);
		mpz_clear(z);
		return 0;
	}
	if (plan_expr(bd, e, &v))
		return -1;
	*out = dir > 0 && !is_integral(bd, v) ?
		emit_op(bd, SEGC_OP_CEIL, v, 0) : v;
	return 0;
}

/* Binds the variable 'name' to the counter 'v' in the loop being
 * planned. */
static void bind_counter(builder *bd, const char *name, size_t v)
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

/* Plans the body of the loop of 'e' in the block being filled, with its
 * own memory of planned nodes (its variable may shadow an outer one). */
static int plan_body(builder *bd, const segc_expr *e, size_t counter,
	size_t *out)
{
	segc_expr_map outer = bd->exprs;
	int rc;

	segc_expr_map_init(&bd->exprs);
	bind_counter(bd, segc_expr_name(e), counter);
	rc = plan_expr(bd, segc_expr_arg(e, 2), out);
	bd->nbound--;
	segc_expr_map_clear(&bd->exprs);
	bd->exprs = outer;
	return rc;
}

/* Plans sum(var, lo, hi, body) as a loop: the counter from ceil(lo)
 * while it is <= hi. */
static int plan_sum(builder *bd, const segc_expr *e, size_t *out)
{
	size_t first, last, counter, body, blk, k;

	if (segc_expr_nargs(e) != 3)
		return plan_fail(bd, "cannot emit C: the sum over '%s' is "
			"malformed", segc_expr_name(e));
	if (plan_bound(bd, segc_expr_arg(e, 0), 1, &first) ||
	    plan_bound(bd, segc_expr_arg(e, 1), -1, &last))
		return -1;
	blk = block_open(bd, SEGC_PLAN_LOOP);
	counter = new_insn(bd, SEGC_OP_COUNTER, 0, 0);
	if (plan_body(bd, e, counter, &body))
		return -1;
	block_close(bd);
	k = new_insn(bd, SEGC_OP_SUM, first, last);
	bd->p->insn[k].c = body;
	bd->p->insn[k].sub[0] = blk;
	bd->p->insn[k].counter = counter;
	*out = k;
	return 0;
}

/* ------------------------------------------------------ other calls */

/* The instruction of the one-argument built-in 'id'. */
static enum segc_plan_op unary_op(enum segc_builtin id)
{
	switch (id) {
	case SEGC_BUILTIN_CEIL:
		return SEGC_OP_CEIL;
	case SEGC_BUILTIN_FLOOR:
		return SEGC_OP_FLOOR;
	case SEGC_BUILTIN_SQRT:
		return SEGC_OP_SQRT;
	default:
		return SEGC_OP_LOG2;
	}
}

/* Plans a call of a built-in function; any other is an error. */
static int plan_call(builder *bd, const segc_expr *e, size_t *out)
{
	enum segc_builtin id = segc_expr_builtin(e);
	const char *f = segc_expr_name(e);
	size_t v;

	switch (segc_builtin_get(id)->plan) {
	case SEGC_PLAN_EXTREMUM:
		return plan_extremum(bd, e, id == SEGC_BUILTIN_MAX ?
			SEGC_OP_FMAX : SEGC_OP_FMIN, out);
	case SEGC_PLAN_MVA:
		return plan_mva(bd, e, out);
	case SEGC_PLAN_REFUSE:
		return plan_fail(bd, "cannot emit C: no closed form: a recurrence "
			"(%s, the schedule of a loop whose iterations overlap); "
			"use segc eval, or give every cost a number", f);
	case SEGC_PLAN_SELECT:
		return plan_if(bd, e, out);
	case SEGC_PLAN_CONDITION:
		return plan_fail(bd, "cannot emit C: the condition '%s' stands "
			"where a number is expected", f);
	case SEGC_PLAN_UNARY:
		if (segc_expr_nargs(e) != 1)
			break;
		if (plan_expr(bd, segc_expr_arg(e, 0), &v))
			return -1;
		*out = emit_op(bd, unary_op(id), v, 0);
		return 0;
	default:
		break;
	}
	return plan_fail(bd, "cannot emit C while the uninterpreted call "
		"'%s' remains: give a machine that defines it", f);
}

/* The value number of argument 'k' (in block 0). */
static size_t emit_arg(builder *bd, size_t k)
{
	size_t i, save;

	for (i = 0; i < bd->p->n; i++)
		if (insn_same(&bd->p->insn[i], SEGC_OP_ARG, k, 0))
			return i;
	save = bd->cur;
	bd->cur = 0;
	i = new_insn(bd, SEGC_OP_ARG, k, 0);
	bd->cur = save;
	return i;
}

/* Plans a symbol: the counter of an enclosing loop over it, else one of
 * the arguments. */
static int plan_sym(builder *bd, const segc_expr *e, size_t *out)
{
	size_t i;

	for (i = bd->nbound; i-- > 0;)
		if (!strcmp(bd->bound_names[i], segc_expr_name(e))) {
			*out = bd->bound_values[i];
			return 0;
		}
	for (i = 0; i < bd->p->nargs; i++)
		if (!strcmp(bd->p->args[i], segc_expr_name(e))) {
			*out = emit_arg(bd, i);
			return 0;
		}
	return plan_fail(bd, "cannot emit C while '%s' is unbound: bind it "
		"(-D, a machine) or keep it as an argument (--keep)",
		segc_expr_name(e));
}

/* Plans 'e' (each node once where its value can be used); its value
 * number goes to 'out'. */
static int plan_expr(builder *bd, const segc_expr *e, size_t *out)
{
	void **slot = segc_expr_map_find(&bd->exprs, e);
	int rc;

	if (slot && visible(bd, (size_t)(uintptr_t)*slot - 1)) {
		*out = (size_t)(uintptr_t)*slot - 1;
		return 0;
	}
	switch (segc_expr_kind(e)) {
	case SEGC_NUM:
		*out = emit_const(bd, segc_expr_value(e));
		rc = 0;
		break;
	case SEGC_SYM:
		rc = plan_sym(bd, e, out);
		break;
	case SEGC_CALL:
		rc = plan_call(bd, e, out);
		break;
	case SEGC_SUM:
		rc = plan_sum(bd, e, out);
		break;
	default:
		rc = plan_poly(bd, e, out);
		break;
	}
	if (rc)
		return rc;
	slot = segc_expr_map_find(&bd->exprs, e);
	if (slot)
		*slot = (void *)(uintptr_t)(*out + 1);
	else
		segc_expr_map_put(&bd->exprs, e, (void *)(uintptr_t)(*out + 1));
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

		if (!in->uses || !n)
			continue;
		p->flops++;
		p->insn[in->a].uses++;
		if (n >= 2)
			p->insn[in->b].uses++;
		if (n >= 3)
			p->insn[in->c].uses++;
		if (in->op == SEGC_OP_SUM)
			p->insn[in->counter].uses++;
	}
}

/* Releases what 'bd' holds but the plan. */
static void builder_clear(builder *bd)
{
	segc_expr_map_clear(&bd->exprs);
	free(bd->open);
	free(bd->bound_names);
	free(bd->bound_values);
}

/* Builds the plan of 'e' over the arguments 'args'. */
segc_plan *segc_plan_build(segc_ctx *ctx, const segc_expr *e, size_t nargs,
	const char *const *args, const segc_where *where)
{
	builder bd;
	size_t i;

	memset(&bd, 0, sizeof bd);
	bd.ctx = ctx;
	bd.where = where;
	bd.p = segc_xcalloc(1, sizeof *bd.p);
	bd.p->nargs = nargs;
	bd.p->args = segc_xcalloc(nargs + 1, sizeof *bd.p->args);
	for (i = 0; i < nargs; i++)
		bd.p->args[i] = segc_xstrdup(args[i]);
	segc_expr_map_init(&bd.exprs);
	block_open(&bd, SEGC_PLAN_BODY);
	if (plan_expr(&bd, e, &bd.p->result) || bd.failed) {
		builder_clear(&bd);
		segc_plan_free(bd.p);
		return NULL;
	}
	if (segc_plan_is_condition(&bd.p->insn[bd.p->result])) {
		plan_fail(&bd, "cannot emit C: the formula is a condition, %s",
			"not a number");
		builder_clear(&bd);
		segc_plan_free(bd.p);
		return NULL;
	}
	bd.p->blocks[0].end = bd.p->n;
	builder_clear(&bd);
	count_uses(bd.p);
	return bd.p;
}

/* Releases 'p'. */
void segc_plan_free(segc_plan *p)
{
	size_t i;

	if (!p)
		return;
	for (i = 0; i < p->n; i++)
		mpq_clear(p->insn[i].q);
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

/* ---------------------------------------------------------- free names */

/* Names collected by a walk: distinct, in a growing array. */
typedef struct name_set {
	const char **v;
	size_t n, cap;
} name_set;

/* Adds 'name' to 's' unless present. */
static void name_set_add(name_set *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->v[i], name))
			return;
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 8;
		s->v = segc_xrealloc(s->v, segc_xmul_size(s->cap, sizeof *s->v));
	}
	s->v[s->n++] = name;
}

static void names_walk(const segc_expr *e, int calls, name_set *s,
	segc_expr_map *seen);

/* Adds the names of the body of the sum 'e' to 's', except its variable. */
static void names_sum(const segc_expr *e, int calls, name_set *s)
{
	segc_expr_map seen;
	name_set inner = { NULL, 0, 0 };
	size_t i;

	segc_expr_map_init(&seen);
	names_walk(segc_expr_arg(e, 2), calls, &inner, &seen);
	for (i = 0; i < inner.n; i++)
		if (calls || strcmp(inner.v[i], segc_expr_name(e)))
			name_set_add(s, inner.v[i]);
	free(inner.v);
	segc_expr_map_clear(&seen);
}

/* Adds the free symbols (or, when 'calls', the names of uninterpreted
 * calls) of 'e' to 's', visiting each node once. */
static void names_walk(const segc_expr *e, int calls, name_set *s,
	segc_expr_map *seen)
{
	size_t i, n = segc_expr_nargs(e);

	if (!segc_expr_map_put(seen, e, NULL))
		return;
	switch (segc_expr_kind(e)) {
	case SEGC_NUM:
		return;
	case SEGC_SYM:
		if (!calls)
			name_set_add(s, segc_expr_name(e));
		return;
	case SEGC_SUM:
		names_walk(segc_expr_arg(e, 0), calls, s, seen);
		names_walk(segc_expr_arg(e, 1), calls, s, seen);
		names_sum(e, calls, s);
		return;
	case SEGC_CALL:
		if (calls && segc_expr_builtin(e) == SEGC_BUILTIN_NONE)
			name_set_add(s, segc_expr_name(e));
		break;
	default:
		break;
	}
	for (i = 0; i < n; i++)
		names_walk(segc_expr_arg(e, i), calls, s, seen);
}

/* Orders two names for qsort. */
static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The free names (or uninterpreted calls) of 'e', sorted. */
size_t segc_output_names(const segc_expr *e, int calls, const char ***out)
{
	name_set s = { NULL, 0, 0 };
	segc_expr_map seen;

	segc_expr_map_init(&seen);
	names_walk(e, calls, &s, &seen);
	segc_expr_map_clear(&seen);
	if (s.n)
		qsort(s.v, s.n, sizeof *s.v, name_cmp);
	*out = s.v;
	return s.n;
}
