/* parse_graph.c - reading the readable text of the graph atoms
 * (graph_text.h, doc/format.md "The readable text of a graph atom") back
 * into the atoms taskpath(...) and maxplusv(...): the parser reads the
 * arguments as calls node(...) and arc(...) of the expression language,
 * and this module numbers the nodes in the order written, binds the
 * names of indices and compiles the expressions of indices into the
 * postfix programs of taskpath.h. */
#include <stdlib.h>
#include <string.h>

#include "expr/graph_text.h"
#include "expr/parse_private.h"

/* Appends 'e' (taken) to 'b'. */
void segc_tp_buf_put(segc_tp_buf *b, segc_expr *e)
{
	if (b->n == b->cap) {
		b->cap = b->cap ? 2 * b->cap : 64;
		b->v = segc_xrealloc(b->v, segc_xmul_size(b->cap,
			sizeof(*b->v)));
	}
	b->v[b->n++] = e;
}

/* Appends the integer 'k' to 'b'. */
static void put_int(segc_tp_buf *b, long k)
{
	segc_tp_buf_put(b, segc_expr_int(k));
}

/* The position (from 1) of 'name' among the 'n' indices, or 0. */
static size_t index_of(const char *name, char *const *names, size_t n)
{
	size_t j;

	for (j = n; j-- > 0;)
		if (names[j] && !strcmp(names[j], name))
			return j + 1;
	return 0;
}

/* Non-zero when 'e' names one of the 'n' indices. */
static int uses(const segc_expr *e, char *const *names, size_t n)
{
	size_t i;

	if (!n || e->kind == SEGC_NUM)
		return 0;
	if (e->kind == SEGC_SYM)
		return index_of(e->u.name, names, n) != 0;
	for (i = 0; i < e->nargs; i++)
		if (uses(segc_args(e)[i], names, n))
			return 1;
	return 0;
}

/* Appends the tokens of the sum or product 'e': its index-free operands
 * as one value at the place of the first of them, then each other
 * operand with the operation 'op' after the first. */
static const char *nary_tokens(segc_tp_buf *b, const segc_expr *e,
	char *const *names, size_t n, long op)
{
	segc_expr **free_ops = segc_xmalloc(e->nargs * sizeof(*free_ops));
	size_t i, nfree = 0, done = 0;
	const char *why = NULL;

	for (i = 0; i < e->nargs; i++)
		if (!uses(segc_args(e)[i], names, n))
			free_ops[nfree++] = segc_expr_copy(segc_args(e)[i]);
	for (i = 0; i < e->nargs && !why; i++) {
		if (!uses(segc_args(e)[i], names, n)) {
			if (!nfree)
				continue;
			put_int(b, SEGC_TP_PUSH);
			segc_tp_buf_put(b, nfree == 1 ? free_ops[0] :
				segc_expr_rebuild((enum segc_expr_kind)e->kind,
				NULL, nfree, free_ops));
			nfree = 0;
		} else {
			why = segc_tp_tokens(b, segc_args(e)[i], names, n);
		}
		if (done++ && !why)
			put_int(b, op);
	}
	while (nfree)
		segc_expr_free(free_ops[--nfree]);
	free(free_ops);
	return why;
}

/* Appends the tokens of 'e' (see graph_text.h). */
const char *segc_tp_tokens(segc_tp_buf *b, const segc_expr *e,
	char *const *names, size_t n)
{
	enum segc_builtin id = segc_expr_builtin(e);
	const char *why;
	size_t i;

	if (!uses(e, names, n)) {
		put_int(b, SEGC_TP_PUSH);
		segc_tp_buf_put(b, segc_expr_copy(e));
		return NULL;
	}
	switch (e->kind) {
	case SEGC_SYM:
		put_int(b, SEGC_TP_INDEX);
		put_int(b, (long)index_of(e->u.name, names, n));
		return NULL;
	case SEGC_ADD:
		return nary_tokens(b, e, names, n, SEGC_TP_ADD);
	case SEGC_MUL:
		return nary_tokens(b, e, names, n, SEGC_TP_MUL);
	case SEGC_POW:
		if ((why = segc_tp_tokens(b, segc_args(e)[0], names, n)) ||
		    (why = segc_tp_tokens(b, segc_args(e)[1], names, n)))
			return why;
		put_int(b, SEGC_TP_POW);
		return NULL;
	case SEGC_CALL:
		if ((id == SEGC_BUILTIN_FLOOR || id == SEGC_BUILTIN_CEIL) &&
		    e->nargs == 1) {
			if ((why = segc_tp_tokens(b, segc_args(e)[0], names,
				n)))
				return why;
			put_int(b, id == SEGC_BUILTIN_FLOOR ? SEGC_TP_FLOOR :
				SEGC_TP_CEIL);
			return NULL;
		}
		if ((id == SEGC_BUILTIN_MAX || id == SEGC_BUILTIN_MIN) &&
		    e->nargs) {
			for (i = 0; i < e->nargs; i++)
				if ((why = segc_tp_tokens(b, segc_args(e)[i],
					    names, n)))
					return why;
			put_int(b, id == SEGC_BUILTIN_MAX ? SEGC_TP_MAX :
				SEGC_TP_MIN);
			put_int(b, (long)e->nargs);
			return NULL;
		}
		return e->u.name;
	default:
		return "sum";
	}
}

/* ---------------------------------------------------------- reading */

/* A reading in progress: the parser, where the atom's call starts, the
 * node calls in the order written and the arguments built. */
typedef struct reading {
	struct parser *P;
	size_t off;
	const segc_expr **nodes;
	size_t nnodes;
	segc_tp_buf out;
} reading;

/* Records an error at the atom's call; returns -1. */
static int fail(reading *R, const char *what, const char *name)
{
	segc_parse_report_at(R->P, SEGC_ERR_INPUT, R->off, "%s%s%s%s",
		what, name ? " '" : "", name ? name : "", name ? "'" : "");
	return -1;
}

/* Non-zero when 'e' is a call node(...) or arc(...) ('word'). */
static int is_call_of(const segc_expr *e, const char *word)
{
	return e->kind == SEGC_CALL && !strcmp(e->u.name, word);
}

/* The number (from 1) of the node named 'name', 0 when none is. */
static size_t node_number(const reading *R, const char *name)
{
	size_t v;

	for (v = 0; v < R->nnodes; v++)
		if (!strcmp(segc_args(R->nodes[v])[0]->u.name, name))
			return v + 1;
	return 0;
}

/* Collects the node calls of 'args' into 'R', each with a fresh name
 * and 'min_args' or more arguments; -1 on error (reported). */
static int collect_nodes(reading *R, size_t n, segc_expr *const *args,
	size_t first, size_t min_args)
{
	size_t i;

	R->nodes = segc_xcalloc(n + 1, sizeof(*R->nodes));
	for (i = first; i < n; i++) {
		const segc_expr *x = args[i];

		if (!is_call_of(x, "node") && !is_call_of(x, "arc"))
			return fail(R, "an argument of the readable form is "
				"neither node(...) nor arc(...)", NULL);
		if (!is_call_of(x, "node"))
			continue;
		if (x->nargs < min_args || segc_args(x)[0]->kind != SEGC_SYM)
			return fail(R, "node(...) takes a name first and "
				"then its cost", NULL);
		if (node_number(R, segc_args(x)[0]->u.name))
			return fail(R, "two nodes are named",
				segc_args(x)[0]->u.name);
		R->nodes[R->nnodes++] = x;
	}
	if (!R->nnodes)
		return fail(R, "the readable form has no node(...)", NULL);
	return 0;
}

/* The node of the end 'e' of an arc (a name or a call of one) into
 * '*v' (from 1); -1 on error. */
static int arc_end(reading *R, const segc_expr *e, size_t *v)
{
	if (e->kind != SEGC_SYM && e->kind != SEGC_CALL)
		return fail(R, "an end of arc(...) is not a node", NULL);
	*v = node_number(R, e->u.name);
	return *v ? 0 : fail(R, "an arc names no node", e->u.name);
}

/* Appends the program of 'e' over 'names'; -1 on error. */
static int program(reading *R, const segc_expr *e, char *const *names,
	size_t n)
{
	segc_tp_buf t = { 0, 0, NULL };
	const char *why = segc_tp_tokens(&t, e, names, n);
	size_t i;

	if (why) {
		for (i = 0; i < t.n; i++)
			segc_expr_free(t.v[i]);
		free(t.v);
		return fail(R, "an expression of the indices may use "
			"+ - * / ^, floor, ceil, max and min, not", why);
	}
	put_int(&R->out, (long)t.n);
	for (i = 0; i < t.n; i++)
		segc_tp_buf_put(&R->out, t.v[i]);
	free(t.v);
	return 0;
}

/* The index names of the node call 'x' (node(name, i, lo, hi, ...,
 * cost)) into 'names' (borrowed), their number into '*d'; -1 on
 * error. */
static int node_indices(reading *R, const segc_expr *x, char **names,
	size_t *d)
{
	size_t k;

	if ((x->nargs - 2) % 3 || (x->nargs - 2) / 3 > SEGC_TP_MAX_INDICES)
		return fail(R, "node(...) takes a name, a name, low and high "
			"for each index, and a cost", NULL);
	*d = (x->nargs - 2) / 3;
	for (k = 0; k < *d; k++) {
		if (segc_args(x)[1 + 3 * k]->kind != SEGC_SYM)
			return fail(R, "an index of node(...) is not a name",
				NULL);
		names[k] = (char *)segc_args(x)[1 + 3 * k]->u.name;
		if (index_of(names[k], names, k))
			return fail(R, "an index is named twice", names[k]);
	}
	return 0;
}

/* Appends the nodes of a task graph; -1 on error. */
static int task_nodes(reading *R)
{
	char *names[SEGC_TP_MAX_INDICES];
	size_t v, k, d;

	for (v = 0; v < R->nnodes; v++) {
		const segc_expr *x = R->nodes[v];

		if (node_indices(R, x, names, &d))
			return -1;
		put_int(&R->out, (long)d);
		for (k = 0; k < d; k++)
			if (program(R, segc_args(x)[2 + 3 * k], names, k) ||
			    program(R, segc_args(x)[3 + 3 * k], names, k))
				return -1;
		if (program(R, segc_args(x)[x->nargs - 1], names, d))
			return -1;
	}
	return 0;
}

/* Appends the arc call 'x' of a task graph; -1 on error. */
static int task_arc(reading *R, const segc_expr *x)
{
	char *names[SEGC_TP_MAX_INDICES];
	const segc_expr *src, *dst;
	size_t from, to, d = 0, k;
	segc_expr *zero;
	int rc;

	if (x->nargs < 2 || x->nargs > 3)
		return fail(R, "arc(...) takes its source, its target and "
			"an optional cost", NULL);
	src = segc_args(x)[0];
	dst = segc_args(x)[1];
	if (arc_end(R, src, &from) || arc_end(R, dst, &to))
		return -1;
	if (src->kind == SEGC_CALL) {
		d = src->nargs;
		if (d > SEGC_TP_MAX_INDICES)
			return fail(R, "too many indices at", src->u.name);
		for (k = 0; k < d; k++) {
			if (segc_args(src)[k]->kind != SEGC_SYM)
				return fail(R, "the source of an arc names "
					"its indices, not values:", src->u.name);
			names[k] = (char *)segc_args(src)[k]->u.name;
		}
	}
	put_int(&R->out, (long)from);
	put_int(&R->out, (long)to);
	put_int(&R->out, dst->kind == SEGC_CALL ? (long)dst->nargs : 0);
	for (k = 0; dst->kind == SEGC_CALL && k < dst->nargs; k++)
		if (program(R, segc_args(dst)[k], names, d))
			return -1;
	zero = segc_expr_int(0);
	rc = program(R, x->nargs == 3 ? segc_args(x)[2] : zero, names, d);
	segc_expr_free(zero);
	return rc;
}

/* Reads taskpath(entry, exit, node(...)..., arc(...)...) into 'R'. */
static int read_taskpath(reading *R, size_t n, segc_expr *const *args)
{
	size_t entry, exit, i, narcs = 0;
	segc_tp t;
	const char *why;

	if (collect_nodes(R, n, args, 2, 2) ||
	    arc_end(R, args[0], &entry) || arc_end(R, args[1], &exit))
		return -1;
	put_int(&R->out, (long)R->nnodes);
	put_int(&R->out, (long)entry);
	put_int(&R->out, (long)exit);
	if (task_nodes(R))
		return -1;
	for (i = 2; i < n; i++)
		narcs += is_call_of(args[i], "arc");
	put_int(&R->out, (long)narcs);
	for (i = 2; i < n; i++)
		if (is_call_of(args[i], "arc") && task_arc(R, args[i]))
			return -1;
	why = segc_tp_decode(&t, R->out.n, segc_tp_int_expr, R->out.v);
	segc_tp_clear(&t);
	if (why)
		segc_parse_report_at(R->P, SEGC_ERR_INPUT, R->off,
			"not a task graph: %s", why);
	return why ? -1 : 0;
}

/* The distance of the source 'src' of an arc of the recurrence over
 * the counter 'it': 0 for a name or v(it), d for v(it - d). */
static int distance(reading *R, const segc_expr *src, const char *it,
	long *d)
{
	const segc_expr *a;

	*d = 0;
	if (src->kind == SEGC_SYM)
		return 0;
	a = src->nargs == 1 ? segc_args(src)[0] : NULL;
	if (a && a->kind == SEGC_SYM && !strcmp(a->u.name, it))
		return 0;
	if (a && a->kind == SEGC_ADD && a->nargs == 2 &&
	    segc_args(a)[0]->kind == SEGC_SYM && !strcmp(segc_args(a)[0]->u.name,
		it) &&
	    !segc_tp_int_expr(segc_args(a), 1, d) && *d < 0) {
		*d = -*d;
		return 0;
	}
	return fail(R, "the source of an arc of the recurrence is a node or "
		"a node of an earlier iteration, node(counter - d):",
		src->u.name);
}

/* Reads maxplusv(i, n, node(...)..., arc(...)...) into 'R'. */
static int read_maxplusv(reading *R, size_t n, segc_expr *const *args)
{
	const char *it;
	size_t i, v, from, to, narcs = 0;
	long d;

	if (args[0]->kind != SEGC_SYM)
		return fail(R, "the counter of maxplusv(...) is not a name",
			NULL);
	it = args[0]->u.name;
	if (collect_nodes(R, n, args, 2, 2))
		return -1;
	segc_tp_buf_put(&R->out, segc_expr_copy(args[0]));
	segc_tp_buf_put(&R->out, segc_expr_copy(args[1]));
	put_int(&R->out, (long)R->nnodes);
	for (v = 0; v < R->nnodes; v++) {
		if (R->nodes[v]->nargs != 2)
			return fail(R, "node(...) of a recurrence takes a name "
				"and a cost:",
					segc_args(R->nodes[v])[0]->u.name);
		segc_tp_buf_put(&R->out,
			segc_expr_copy(segc_args(R->nodes[v])[1]));
	}
	for (i = 2; i < n; i++)
		narcs += is_call_of(args[i], "arc");
	put_int(&R->out, (long)narcs);
	for (i = 2; i < n; i++) {
		const segc_expr *x = args[i];

		if (!is_call_of(x, "arc"))
			continue;
		if (x->nargs < 2 || x->nargs > 3 || segc_args(x)[1]->kind !=
		    SEGC_SYM)
			return fail(R, "arc(...) of a recurrence takes its "
				"source, the name of its target and an "
				"optional cost", NULL);
		if (arc_end(R, segc_args(x)[0], &from) || arc_end(R,
			segc_args(x)[1],
			    &to) || distance(R, segc_args(x)[0], it, &d))
			return -1;
		put_int(&R->out, (long)from);
		put_int(&R->out, (long)to);
		put_int(&R->out, d);
		segc_tp_buf_put(&R->out, x->nargs == 3 ?
			segc_expr_copy(segc_args(x)[2]) : segc_expr_int(0));
	}
	return 0;
}

/* See parse_private.h. */
int segc_parse_graph_atom(struct parser *P, size_t off, enum segc_builtin id,
	size_t n, segc_expr *const *args, segc_expr **r)
{
	reading R;
	int rc;
	size_t i;

	*r = NULL;
	if (id == SEGC_BUILTIN_TASKPATH ? n < 3 || args[0]->kind != SEGC_SYM :
	    id != SEGC_BUILTIN_MAXPLUSV || n < 3 ||
	    !is_call_of(args[2], "node"))
		return 0;
	memset(&R, 0, sizeof R);
	R.P = P;
	R.off = off;
	rc = id == SEGC_BUILTIN_TASKPATH ? read_taskpath(&R, n, args) :
		read_maxplusv(&R, n, args);
	if (!rc)
		*r = segc_expr_call_builtin(id, R.out.n, R.out.v);
	else
		for (i = 0; i < R.out.n; i++)
			segc_expr_free(R.out.v[i]);
	free(R.out.v);
	free(R.nodes);
	return 1;
}
