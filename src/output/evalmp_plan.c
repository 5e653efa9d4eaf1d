/* evalmp_plan.c - compiling a formula into an evaluation plan (see
 * evalmp_plan.h): each node of the formula's DAG becomes one operation
 * on slots, computed once in the block where it is first needed or, when
 * it does not depend on the counter of the loop it stands in, once in
 * that loop's preheader.  Names get their slots here: the innermost
 * binder of that name, else the point; a name with no value becomes an
 * operation that fails when it runs, as the walk failed when it reached
 * it.
 *
 * The level of a slot is the depth of the deepest binder its value
 * depends on (0: the point alone).  A node already compiled is found in
 * the memo of the current block or of a block around it, unless a loop
 * between them binds a name that the point or an outer loop gives as
 * well (the node could mean something else there), or the node depends
 * on a name without a value (which a binder may give inside).
 *
 * The walk over the formula recurses once a level of nesting, at most
 * max_depth + 64 levels (the nesting of a formula once lets are
 * expanded; doc/limits.md): deeper, the compilation stops with a limit
 * error. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "output/evalmp_plan.h"
#include "output/evalmp_pieces.h"
#include "graph/maxplus.h"
#include "base/util.h"

#define NO_SLOT ((size_t)-1)

/* Kinds of the blocks being compiled. */
enum { BK_ROOT, BK_BRANCH, BK_PRE, BK_BODY };

/* A block being compiled, with the blocks around it. */
typedef struct cblock {
	segc_eplan_block *b;
	int kind;
	int barrier;              /* BODY: no lookup past its preheader */
	size_t depth;             /* binders in scope */
	struct cblock *parent;    /* BODY: its preheader */
	segc_expr_map memo;       /* node -> slot + 1 */
} cblock;

/* A binder in scope while compiling, and the deepest level below its own
 * that its loop's body uses. */
typedef struct cbinder {
	const char *name;
	size_t slot;
	size_t outer;
} cbinder;

/* The state of a compilation. */
typedef struct comp {
	segc_eplan *p;
	segc_evaluator *ev;
	cblock *cur;
	cblock **cbs;
	size_t ncbs, capcbs;
	cbinder *env;
	size_t nenv, capenv;
	size_t *pointslot;        /* per name of the point, NO_SLOT until used */
	unsigned char *loose;     /* per slot: depends on a name without value */
	segc_expr_map consts;     /* NUM node -> slot + 1 */
	size_t rec, maxrec;
	int failed;
} comp;

static size_t compile(comp *c, const segc_expr *e);
static size_t compile_cond(comp *c, const segc_expr *e);

/* A new slot of 'kind' at 'level'. */
static size_t new_slot(comp *c, unsigned char kind, size_t level,
	const segc_expr *e, int loose)
{
	segc_eplan *p = c->p;

	if (p->nslots == p->capslots) {
		p->capslots = p->capslots ? 2 * p->capslots : 64;
		p->slot = segc_xrealloc(p->slot,
			segc_xmul_size(p->capslots, sizeof *p->slot));
		c->loose = segc_xrealloc(c->loose, p->capslots);
	}
	p->slot[p->nslots].kind = kind;
	p->slot[p->nslots].level = level;
	p->slot[p->nslots].e = e;
	c->loose[p->nslots] = (unsigned char)(loose != 0);
	return p->nslots++;
}

/* Notes that the current block uses slot 's': the innermost loop then
 * depends on what 's' depends on, below its own counter. */
static void use(comp *c, size_t s)
{
	size_t l = c->p->slot[s].level;

	if (c->nenv && l < c->nenv && l > c->env[c->nenv - 1].outer)
		c->env[c->nenv - 1].outer = l;
}

/* A new block of 'kind' inside the current one. */
static cblock *new_block(comp *c, int kind, size_t depth, cblock *parent)
{
	cblock *b = segc_xcalloc(1, sizeof *b);
	segc_eplan *p = c->p;

	b->b = segc_xcalloc(1, sizeof *b->b);
	b->kind = kind;
	b->depth = depth;
	b->parent = parent;
	segc_expr_map_init(&b->memo);
	if (c->ncbs == c->capcbs) {
		c->capcbs = c->capcbs ? 2 * c->capcbs : 16;
		c->cbs = segc_xrealloc(c->cbs,
			segc_xmul_size(c->capcbs, sizeof *c->cbs));
	}
	c->cbs[c->ncbs++] = b;
	if (p->nblocks == p->capblocks) {
		p->capblocks = p->capblocks ? 2 * p->capblocks : 16;
		p->blocks = segc_xrealloc(p->blocks,
			segc_xmul_size(p->capblocks, sizeof *p->blocks));
	}
	p->blocks[p->nblocks++] = b->b;
	return b;
}

/* The slot of 'e' compiled already where the current block sees it. */
static size_t lookup(comp *c, const segc_expr *e)
{
	const cblock *b;
	int crossed = 0;

	for (b = c->cur; b; b = b->parent) {
		void **v = segc_expr_map_find(&b->memo, e);

		if (v) {
			size_t s = (size_t)(uintptr_t)*v - 1;

			return crossed && c->loose[s] ? NO_SLOT : s;
		}
		if (b->kind == BK_BODY)
			crossed = 1;
		if (b->kind == BK_PRE && b->barrier)
			break;
	}
	return NO_SLOT;
}

/* The block an operation of 'level' goes to: the preheader of the loop
 * whose body is the current block when it does not depend on that
 * loop's counter, else the current block. */
static cblock *target(comp *c, size_t level)
{
	if (c->cur->kind == BK_BODY && level < c->cur->depth)
		return c->cur->parent;
	return c->cur;
}

/* Appends an operation to 'b'; its args (malloc'd) are taken. */
static segc_eplan_ins *append(cblock *b, enum segc_eplan_op op,
	const segc_expr *e, size_t *arg, size_t nargs)
{
	segc_eplan_block *pb = b->b;
	segc_eplan_ins *in;

	if (pb->n == pb->cap) {
		pb->cap = pb->cap ? 2 * pb->cap : 8;
		pb->ins = segc_xrealloc(pb->ins,
			segc_xmul_size(pb->cap, sizeof *pb->ins));
	}
	in = &pb->ins[pb->n++];
	memset(in, 0, sizeof *in);
	in->op = op;
	in->e = e;
	in->arg = arg;
	in->nargs = nargs;
	return in;
}

/* The level of the operation on 'arg', and whether any is loose. */
static size_t level_of(comp *c, const size_t *arg, size_t n, int *loose)
{
	size_t i, l = 0;

	for (i = 0; i < n; i++) {
		use(c, arg[i]);
		if (c->p->slot[arg[i]].level > l)
			l = c->p->slot[arg[i]].level;
		if (c->loose[arg[i]])
			*loose = 1;
	}
	return l;
}

/* Emits the operation 'op' of 'e' on 'arg' where its level puts it,
 * memoized under 'e' (when given); its result slot. */
static segc_eplan_ins *emit(comp *c, enum segc_eplan_op op, const segc_expr *e,
	size_t *arg, size_t nargs, size_t extra_level, int extra_loose)
{
	int loose = extra_loose;
	size_t l = level_of(c, arg, nargs, &loose);
	cblock *b;
	segc_eplan_ins *in;

	if (extra_level > l)
		l = extra_level;
	b = target(c, l);
	in = append(b, op, e, arg, nargs);
	in->dst = new_slot(c, SEGC_EPS_COMPUTED, l, NULL, loose);
	if (e)
		segc_expr_map_put(&b->memo, e,
			(void *)(uintptr_t)(in->dst + 1));
	return in;
}

/* Appends the control operation 'op' of 'e' (a loop, if(), and/or) to
 * the current block: it is never hoisted, since its blocks may use what
 * the current block computes.  Its slot gets the level 'l' (what it
 * depends on, recorded for the loop around), raised to the depth of the
 * block, so that nothing using it is hoisted above it. */
static segc_eplan_ins *emit_here(comp *c, enum segc_eplan_op op,
	const segc_expr *e, size_t *arg, size_t nargs, size_t l, int loose)
{
	segc_eplan_ins *in;
	size_t la = level_of(c, arg, nargs, &loose);

	if (la > l)
		l = la;
	if (c->nenv && l < c->nenv && l > c->env[c->nenv - 1].outer)
		c->env[c->nenv - 1].outer = l;
	if (c->cur->depth > l)
		l = c->cur->depth;
	in = append(c->cur, op, e, arg, nargs);
	in->dst = new_slot(c, SEGC_EPS_COMPUTED, l, NULL, loose);
	if (e)
		segc_expr_map_put(&c->cur->memo, e,
			(void *)(uintptr_t)(in->dst + 1));
	return in;
}

/* An operation that fails when it runs ('kind', SEGC_EPF_...). */
static size_t emit_fail(comp *c, const segc_expr *e, int kind)
{
	segc_eplan_ins *in = emit(c, SEGC_EPO_FAIL, e, NULL, 0, 0,
		kind == SEGC_EPF_UNBOUND);

	in->aux = kind;
	return in->dst;
}

/* The slot of the name 'e': its innermost binder, the point, or an
 * operation that fails. */
static size_t compile_sym(comp *c, const segc_expr *e)
{
	const char *name = segc_expr_name(e);
	const segc_point *pt = c->ev->pt;
	size_t i;

	for (i = c->nenv; i-- > 0;)
		if (!strcmp(c->env[i].name, name))
			return c->env[i].slot;
	for (i = 0; i < pt->n; i++)
		if (!strcmp(pt->names[i], name)) {
			if (c->pointslot[i] == NO_SLOT)
				c->pointslot[i] = new_slot(c, SEGC_EPS_POINT, 0,
					e, 0);
			return c->pointslot[i];
		}
	return emit_fail(c, e, SEGC_EPF_UNBOUND);
}

/* The slot of the number 'e'. */
static size_t compile_num(comp *c, const segc_expr *e)
{
	void **v = segc_expr_map_find(&c->consts, e);
	size_t s;

	if (v)
		return (size_t)(uintptr_t)*v - 1;
	s = new_slot(c, SEGC_EPS_CONST, 0, e, 0);
	segc_expr_map_put(&c->consts, e, (void *)(uintptr_t)(s + 1));
	return s;
}

/* Compiles the arguments 'from' .. nargs - 1 of 'e' into a new array. */
static size_t *compile_args(comp *c, const segc_expr *e, size_t from,
	size_t *n)
{
	size_t i, k = segc_expr_nargs(e) - from;
	size_t *arg = segc_xmalloc(segc_xmul_size(k + 1, sizeof *arg));

	for (i = 0; i < k; i++) {
		arg[i] = compile(c, segc_expr_arg(e, from + i));
		if (arg[i] == NO_SLOT) {
			free(arg);
			return NULL;
		}
	}
	*n = k;
	return arg;
}

/* A sum or product: inside a loop's body, the operands that do not
 * depend on its counter are combined first, in its preheader. */
static size_t compile_nary(comp *c, const segc_expr *e, enum segc_eplan_op op)
{
	size_t n, i, ninv = 0, l = 0, *arg = compile_args(c, e, 0, &n);
	size_t depth = c->cur->depth;

	if (!arg)
		return NO_SLOT;
	for (i = 0; i < n; i++)
		if (c->p->slot[arg[i]].level > l)
			l = c->p->slot[arg[i]].level;
	if (c->cur->kind == BK_BODY && l >= depth)
		for (i = 0; i < n; i++)
			ninv += c->p->slot[arg[i]].level < depth;
	if (ninv >= 2) {
		size_t *inv = segc_xmalloc(ninv * sizeof *inv), j = 0, k = 1;
		segc_eplan_ins *in;

		for (i = 0; i < n; i++)
			if (c->p->slot[arg[i]].level < depth)
				inv[j++] = arg[i];
		in = emit(c, op, NULL, inv, ninv, 0, 0);
		inv = segc_xmalloc(n * sizeof *inv);
		for (i = 0; i < n; i++)
			if (c->p->slot[arg[i]].level >= depth)
				inv[k++ - 1] = arg[i];
		arg[0] = in->dst;
		memcpy(arg + 1, inv, (k - 1) * sizeof *arg);
		n = k;
		free(inv);
	}
	return emit(c, op, e, arg, n, 0, 0)->dst;
}

/* Compiles 'e' into a new block of 'kind' inside the current one (for
 * BK_BODY, 'pre' is its preheader); its result slot. */
static size_t in_block(comp *c, cblock *b, const segc_expr *e, int cond)
{
	cblock *saved = c->cur;
	size_t s;

	c->cur = b;
	s = cond ? compile_cond(c, e) : compile(c, e);
	c->cur = saved;
	return s;
}

/* Pushes the binder 'name' of a loop; its body block (its preheader its
 * parent) into '*body'. */
static size_t push_binder(comp *c, const char *name, cblock **body)
{
	const segc_point *pt = c->ev->pt;
	size_t i, depth = c->nenv + 1, s;
	int barrier = 0;
	cblock *pre;

	for (i = 0; i < c->nenv; i++)
		barrier |= !strcmp(c->env[i].name, name);
	for (i = 0; i < pt->n; i++)
		barrier |= !strcmp(pt->names[i], name);
	s = new_slot(c, SEGC_EPS_BINDER, depth, NULL, 0);
	if (c->nenv == c->capenv) {
		c->capenv = c->capenv ? 2 * c->capenv : 8;
		c->env = segc_xrealloc(c->env,
			segc_xmul_size(c->capenv, sizeof *c->env));
	}
	c->env[c->nenv].name = name;
	c->env[c->nenv].slot = s;
	c->env[c->nenv].outer = 0;
	c->nenv++;
	pre = new_block(c, BK_PRE, depth - 1, c->cur);
	pre->barrier = barrier;
	*body = new_block(c, BK_BODY, depth, pre);
	return s;
}

/* Pops the innermost binder; what its loop depends on outside. */
static size_t pop_binder(comp *c)
{
	return c->env[--c->nenv].outer;
}

/* Fills the loop operation 'in' of the body 'body'. */
static void set_loop(segc_eplan_ins *in, cblock *body, size_t binder,
	size_t result)
{
	in->nsub = 2;
	in->sub = segc_xmalloc(2 * sizeof *in->sub);
	in->sub[0] = body->parent->b;
	in->sub[1] = body->b;
	in->subslot = segc_xmalloc(sizeof *in->subslot);
	in->subslot[0] = result;
	in->binder = binder;
}

/* Keeps the expression 'x' (a reference taken) alive as long as the plan:
 * its operations and constants point to it. */
static void keep(comp *c, segc_expr *x)
{
	segc_eplan *p = c->p;

	if (p->nkept == p->capkept) {
		p->capkept = p->capkept ? 2 * p->capkept : 16;
		p->kept = segc_xrealloc(p->kept,
			segc_xmul_size(p->capkept, sizeof *p->kept));
	}
	p->kept[p->nkept++] = x;
}

/* The slot of the expression 'x', free of the counter of the loop whose
 * body is the current block, compiled there (so into its preheader or
 * before) into '*s', unless '*rc' is set already; '*rc' set when its
 * value would be known only inside the body (an if() or a sum in it) or
 * never (a name without a value).  Takes the reference of 'x'. */
static void piece_slot(comp *c, segc_expr *x, size_t *s, int *rc)
{
	if (*rc) {
		segc_expr_free(x);
		return;
	}
	keep(c, x);
	*s = compile(c, x);
	if (*s == NO_SLOT || c->p->slot[*s].level >= c->cur->depth ||
	    c->loose[*s])
		*rc = -1;
}

/* The pieces of the body of the sum 'e' (evalmp_pieces.h), their
 * coefficients compiled with 'body' the current block, into '*out'
 * ('*nout' of them); none when the body has another shape or a
 * coefficient is known only inside it. */
static void compile_pieces(comp *c, cblock *body, const segc_expr *e,
	segc_eplan_piece **out, size_t *nout)
{
	segc_piece pc[SEGC_PIECES_MAX];
	segc_eplan_piece *ep;
	cblock *saved = c->cur;
	size_t n, i, k;
	int rc = 0;

	*out = NULL;
	*nout = 0;
	if (segc_sum_split(segc_expr_arg(e, 2), segc_expr_name(e), pc, &n))
		return;
	ep = segc_xcalloc(n, sizeof *ep);
	c->cur = body;
	for (i = 0; i < n; i++) {
		ep[i].kind = (int)pc[i].kind;
		piece_slot(c, pc[i].m, &ep[i].m, &rc);
		for (k = 0; k < 2; k++)
			if (pc[i].a[k]) {
				piece_slot(c, pc[i].a[k], &ep[i].a[k], &rc);
				piece_slot(c, pc[i].b[k], &ep[i].b[k], &rc);
			}
	}
	c->cur = saved;
	if (rc || c->failed) {
		free(ep);
		return;
	}
	*out = ep;
	*nout = n;
}

/* sum(i, lo, hi, body). */
static size_t compile_sum(comp *c, const segc_expr *e)
{
	size_t *arg = segc_xmalloc(2 * sizeof *arg), b, r, outer, i, nscope;
	size_t npieces = 0;
	segc_eplan_piece *pieces = NULL;
	segc_eplan_binder *scope;
	cblock *body;
	segc_eplan_ins *in;

	arg[0] = compile(c, segc_expr_arg(e, 0));
	arg[1] = arg[0] == NO_SLOT ? NO_SLOT : compile(c, segc_expr_arg(e, 1));
	if (arg[1] == NO_SLOT) {
		free(arg);
		return NO_SLOT;
	}
	b = push_binder(c, segc_expr_name(e), &body);
	r = in_block(c, body, segc_expr_arg(e, 2), 0);
	if (r != NO_SLOT) {
		use(c, r);
		compile_pieces(c, body, e, &pieces, &npieces);
	}
	scope = segc_xmalloc(c->nenv * sizeof *scope);
	nscope = c->nenv;
	for (i = 0; i < c->nenv; i++) {
		scope[i].name = c->env[i].name;
		scope[i].slot = c->env[i].slot;
	}
	outer = pop_binder(c);
	if (r == NO_SLOT || c->failed) {
		free(arg);
		free(scope);
		free(pieces);
		return NO_SLOT;
	}
	in = emit_here(c, SEGC_EPO_SUM, e, arg, 2, outer, c->loose[r]);
	in->nscope = nscope;
	in->scope = scope;
	in->npieces = npieces;
	in->pieces = pieces;
	set_loop(in, body, b, r);
	return in->dst;
}

/* maxplusv(i, n, m, costs..., k, arcs...): the count outside, the costs
 * in the body of the loop over i. */
static size_t compile_maxplusv(comp *c, const segc_expr *e)
{
	segc_maxplus_sys s;
	size_t n, v, a, b, outer, *arg;
	cblock *body, *saved = c->cur;
	segc_eplan_ins *in;
	int loose = 0, bad;

	bad = segc_maxplus_decode_graph(e, &s) != NULL;
	n = bad ? 0 : s.m + s.k;
	segc_maxplus_clear(&s);
	if (bad)
		return emit_fail(c, e, SEGC_EPF_ARITY);
	arg = segc_xmalloc((n + 1) * sizeof *arg);
	arg[0] = compile(c, segc_expr_arg(e, 1));
	if (arg[0] == NO_SLOT) {
		free(arg);
		return NO_SLOT;
	}
	b = push_binder(c, segc_expr_binder(e), &body);
	c->cur = body;
	for (v = 0; v < s.m && !c->failed; v++)
		arg[1 + v] = compile(c, segc_expr_arg(e, 3 + v));
	for (a = 0; a < s.k && !c->failed; a++)
		arg[1 + s.m + a] = compile(c, segc_expr_arg(e, s.m + 7 + 4 * a));
	for (v = 1; v <= n && !c->failed; v++) {
		use(c, arg[v]);
		loose |= c->loose[arg[v]];
	}
	c->cur = saved;
	outer = pop_binder(c);
	if (c->failed) {
		free(arg);
		return NO_SLOT;
	}
	in = emit_here(c, SEGC_EPO_MAXPLUSV, e, arg, 1, outer, loose);
	in->nargs = n + 1;
	set_loop(in, body, b, NO_SLOT);
	return in->dst;
}

/* if(cond, a, b): each branch in a block of its own. */
static size_t compile_if(comp *c, const segc_expr *e)
{
	size_t *arg = segc_xmalloc(sizeof *arg), t, f, l;
	cblock *bt, *bf;
	segc_eplan_ins *in;
	int loose = 0;

	arg[0] = compile_cond(c, segc_expr_arg(e, 0));
	if (arg[0] == NO_SLOT) {
		free(arg);
		return NO_SLOT;
	}
	bt = new_block(c, BK_BRANCH, c->cur->depth, c->cur);
	bf = new_block(c, BK_BRANCH, c->cur->depth, c->cur);
	t = in_block(c, bt, segc_expr_arg(e, 1), 0);
	f = t == NO_SLOT ? NO_SLOT : in_block(c, bf, segc_expr_arg(e, 2), 0);
	if (f == NO_SLOT) {
		free(arg);
		return NO_SLOT;
	}
	l = level_of(c, (size_t[]){ t, f }, 2, &loose);
	in = emit_here(c, SEGC_EPO_IF, e, arg, 1, l, loose);
	in->nsub = 2;
	in->sub = segc_xmalloc(2 * sizeof *in->sub);
	in->sub[0] = bt->b;
	in->sub[1] = bf->b;
	in->subslot = segc_xmalloc(2 * sizeof *in->subslot);
	in->subslot[0] = t;
	in->subslot[1] = f;
	return in->dst;
}

/* A condition: its truth (0 or 1) in a slot. */
static size_t compile_cond(comp *c, const segc_expr *e)
{
	size_t n, i, l = 0, *arg, s;
	segc_eplan_ins *in;
	int loose = 0, conj;

	if (!segc_expr_is_condition(e))
		return emit_fail(c, e, SEGC_EPF_NOT_CONDITION);
	s = lookup(c, e);
	if (s != NO_SLOT)
		return s;
	if (segc_expr_is_relation_name(segc_expr_name(e))) {
		arg = compile_args(c, e, 0, &n);
		return arg ? emit(c, SEGC_EPO_REL, e, arg, n, 0, 0)->dst : NO_SLOT;
	}
	arg = segc_xmalloc(sizeof *arg);
	arg[0] = compile_cond(c, segc_expr_arg(e, 0));
	if (arg[0] == NO_SLOT) {
		free(arg);
		return NO_SLOT;
	}
	if (segc_expr_is_builtin(e, SEGC_BUILTIN_NOT))
		return emit(c, SEGC_EPO_NOT, e, arg, 1, 0, 0)->dst;
	conj = segc_expr_is_builtin(e, SEGC_BUILTIN_AND);
	n = segc_expr_nargs(e);
	{
		segc_eplan_block **sub = segc_xmalloc(n * sizeof *sub);
		size_t *subslot = segc_xmalloc(n * sizeof *subslot);

		for (i = 1; i < n; i++) {
			cblock *b = new_block(c, BK_BRANCH, c->cur->depth,
				c->cur);

			sub[i - 1] = b->b;
			subslot[i - 1] = in_block(c, b, segc_expr_arg(e, i), 1);
			if (subslot[i - 1] == NO_SLOT) {
				free(sub);
				free(subslot);
				free(arg);
				return NO_SLOT;
			}
		}
		l = level_of(c, subslot, n - 1, &loose);
		in = emit_here(c, SEGC_EPO_LOGIC, e, arg, 1, l, loose);
		in->aux = conj;
		in->nsub = n - 1;
		in->sub = sub;
		in->subslot = subslot;
	}
	return in->dst;
}

/* A call of a built-in (or of anything else: an operation that fails). */
static size_t compile_call(comp *c, const segc_expr *e)
{
	enum segc_builtin id = segc_expr_builtin(e);
	size_t n, *arg;
	enum segc_eplan_op op;
	segc_eplan_ins *in;

	if (id == SEGC_BUILTIN_IF && segc_expr_nargs(e) == 3)
		return compile_if(c, e);
	if (segc_expr_is_condition(e))
		return emit_fail(c, e, SEGC_EPF_CONDITION);
	switch (segc_builtin_get(id)->eval) {
	case SEGC_EVAL_EXTREMUM:
		op = SEGC_EPO_EXTREMUM;
		break;
	case SEGC_EVAL_ROUND: case SEGC_EVAL_UNARY:
		if (segc_expr_nargs(e) != 1)
			return emit_fail(c, e, SEGC_EPF_ARITY);
		op = SEGC_EPO_UNARY;
		break;
	case SEGC_EVAL_MVA:
		op = SEGC_EPO_MVA;
		break;
	case SEGC_EVAL_MAXPLUS:
		if (segc_expr_binder(e))
			return compile_maxplusv(c, e);
		op = SEGC_EPO_MAXPLUS;
		break;
	case SEGC_EVAL_TASKPATH:
		op = SEGC_EPO_TASKPATH;
		break;
	default:
		return emit_fail(c, e, SEGC_EPF_UNDEFINED);
	}
	arg = compile_args(c, e, 0, &n);
	if (!arg)
		return NO_SLOT;
	in = emit(c, op, e, arg, n, 0, 0);
	in->aux = op == SEGC_EPO_EXTREMUM ? segc_builtin_get(id)->dir :
		(int)id;
	return in->dst;
}

/* Compiles 'e' where the current block needs it; its slot, NO_SLOT once
 * the compilation has failed. */
static size_t compile(comp *c, const segc_expr *e)
{
	size_t s, n, *arg;

	if (c->failed)
		return NO_SLOT;
	switch (segc_expr_kind(e)) {
	case SEGC_NUM:
		return compile_num(c, e);
	case SEGC_SYM:
		return compile_sym(c, e);
	default:
		break;
	}
	s = lookup(c, e);
	if (s != NO_SLOT)
		return s;
	if (++c->rec > c->maxrec) {
		segc_eval_fail(c->ev, SEGC_ERR_LIMIT, "expression nested too "
			"deeply to evaluate (more than max_depth%s levels)",
			" + 64");
		c->failed = 1;
		return NO_SLOT;
	}
	switch (segc_expr_kind(e)) {
	case SEGC_ADD:
		s = compile_nary(c, e, SEGC_EPO_ADD);
		break;
	case SEGC_MUL:
		s = compile_nary(c, e, SEGC_EPO_MUL);
		break;
	case SEGC_POW:
		arg = compile_args(c, e, 0, &n);
		s = arg ? emit(c, SEGC_EPO_POW, e, arg, n, 0, 0)->dst : NO_SLOT;
		break;
	case SEGC_CALL:
		s = compile_call(c, e);
		break;
	case SEGC_SUM:
		s = compile_sum(c, e);
		break;
	default:
		s = emit_fail(c, e, SEGC_EPF_UNDEFINED);
		break;
	}
	c->rec--;
	if (s == NO_SLOT)
		c->failed = 1;
	return s;
}

/* Compiles 'e' into 'p' (see evalmp_plan.h). */
int segc_eplan_compile(segc_eplan *p, segc_evaluator *ev, size_t n,
	const segc_expr *const *e)
{
	comp c;
	size_t i;
	cblock *root;

	memset(p, 0, sizeof *p);
	memset(&c, 0, sizeof c);
	c.p = p;
	c.ev = ev;
	c.maxrec = segc_ctx_limits(ev->ctx)->max_depth;
	if (c.maxrec == 0 || c.maxrec > SEGC_MAX_DEPTH_CEILING)
		c.maxrec = SEGC_MAX_DEPTH_CEILING;
	c.maxrec += 64;
	c.pointslot = segc_xmalloc((ev->pt->n + 1) * sizeof *c.pointslot);
	for (i = 0; i < ev->pt->n; i++)
		c.pointslot[i] = NO_SLOT;
	segc_expr_map_init(&c.consts);
	root = new_block(&c, BK_ROOT, 0, NULL);
	p->root = root->b;
	c.cur = root;
	p->result = segc_xmalloc((n + 1) * sizeof *p->result);
	p->nresults = n;
	for (i = 0; i < n && !c.failed; i++)
		p->result[i] = compile(&c, e[i]);
	for (i = 0; i < c.ncbs; i++) {
		segc_expr_map_clear(&c.cbs[i]->memo);
		free(c.cbs[i]);
	}
	free(c.cbs);
	free(c.env);
	free(c.pointslot);
	free(c.loose);
	segc_expr_map_clear(&c.consts);
	if (c.failed) {
		segc_eplan_free(p);
		return -1;
	}
	return 0;
}

/* Releases 'p'. */
void segc_eplan_free(segc_eplan *p)
{
	size_t i, j;

	for (i = 0; i < p->nblocks; i++) {
		segc_eplan_block *b = p->blocks[i];

		for (j = 0; j < b->n; j++) {
			free(b->ins[j].arg);
			free(b->ins[j].sub);
			free(b->ins[j].subslot);
			free(b->ins[j].scope);
			free(b->ins[j].pieces);
		}
		free(b->ins);
		free(b);
	}
	free(p->blocks);
	free(p->slot);
	free(p->result);
	for (i = 0; i < p->nkept; i++)
		segc_expr_free(p->kept[i]);
	free(p->kept);
	memset(p, 0, sizeof *p);
}
