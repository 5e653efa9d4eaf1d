/* indexed.c - the formula of a task graph with indexed nodes (FORMAT.md,
 * "Indexed nodes"): a closed form where indexed_closed.c proves one, else
 * the atom taskpath(...) of algebra/taskpath.h, whose expressions of the
 * indices are compiled into postfix programs by expr/graph_text.h (the
 * indices bound by position, so the atom has no free name of its own). */
#include <stdlib.h>
#include <string.h>

#include "graph/indexed.h"
#include "graph/taskpath.h"
#include "expr/graph_text.h"
#include "expr/builtin.h"
#include "base/util.h"

/* The arguments of the atom being built. */
typedef segc_tp_buf argv_buf;

/* Appends 'e' (taken). */
static void put(argv_buf *b, segc_expr *e)
{
	segc_tp_buf_put(b, e);
}

/* Appends the integer 'k'. */
static void put_int(argv_buf *b, long k)
{
	put(b, segc_expr_int(k));
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

/* Non-zero when 'e' names one of the indices. */
int segc_indexed_uses(const segc_expr *e, char *const *names, size_t n)
{
	size_t i;

	if (!e || !n)
		return 0;
	switch (segc_expr_kind(e)) {
	case SEGC_NUM:
		return 0;
	case SEGC_SYM:
		return index_of(segc_expr_name(e), names, n) != 0;
	default:
		for (i = 0; i < segc_expr_nargs(e); i++)
			if (segc_indexed_uses(segc_expr_arg(e, i), names, n))
				return 1;
		return 0;
	}
}

/* Appends the program of 'e' (NULL: 0) over the indices 'names'; -1 with
 * a diagnostic at 'loc' (attribute 'attr') when it cannot be compiled. */
static int program(segc_ctx *ctx, argv_buf *b, segc_expr *e,
	char *const *names, size_t n, const segc_srcloc *loc, const char *attr)
{
	argv_buf t = { 0, 0, NULL };
	const char *why;
	size_t i;

	if (!e) {
		put_int(b, 2);
		put_int(b, SEGC_TP_PUSH);
		put_int(b, 0);
		return 0;
	}
	why = segc_tp_tokens(&t, e, names, n);
	if (why) {
		for (i = 0; i < t.n; i++)
			segc_expr_free(t.v[i]);
		free(t.v);
		segc_error(ctx, SEGC_ERR_INPUT, loc->file, loc->line, loc->col,
			"attribute '%s': an expression of the indices may use "
			"+ - * / ^, floor, ceil, max and min, not %s()", attr,
			why);
		return -1;
	}
	put_int(b, (long)t.n);
	for (i = 0; i < t.n; i++)
		put(b, t.v[i]);
	free(t.v);
	return 0;
}

/* The atom of 'g' (see indexed.h). */
segc_expr *segc_indexed_atom(segc_ctx *ctx, const segc_graph *g)
{
	argv_buf b = { 0, 0, NULL };
	size_t i, k, entry = 0, exit = 0;
	unsigned char *in = segc_xcalloc(g->nnodes + 1, 2);
	unsigned char *out = in + g->nnodes + 1;
	segc_expr *e = NULL;
	int rc = 0;

	for (i = 0; i < g->narcs; i++) {
		in[g->arcs[i].to_index] = 1;
		out[g->arcs[i].from_index] = 1;
	}
	for (i = 0; i < g->nnodes; i++) {
		if (!in[i])
			entry = i;
		if (!out[i])
			exit = i;
	}
	put_int(&b, (long)g->nnodes);
	put_int(&b, (long)entry + 1);
	put_int(&b, (long)exit + 1);
	for (i = 0; i < g->nnodes && !rc; i++) {
		const segc_node *x = &g->nodes[i];

		put_int(&b, (long)x->nindex);
		for (k = 0; k < x->nindex && !rc; k++)
			rc = program(ctx, &b, x->index_lo[k], x->index_name, k,
				&x->loc, "index") || program(ctx, &b,
				x->index_hi[k], x->index_name, k, &x->loc,
				"index");
		rc = rc || program(ctx, &b, x->cost, x->index_name, x->nindex,
			&x->loc, "cost");
	}
	put_int(&b, (long)g->narcs);
	for (i = 0; i < g->narcs && !rc; i++) {
		const segc_arc *a = &g->arcs[i];
		const segc_node *x = &g->nodes[a->from_index];

		put_int(&b, (long)a->from_index + 1);
		put_int(&b, (long)a->to_index + 1);
		put_int(&b, (long)a->nat);
		for (k = 0; k < a->nat && !rc; k++)
			rc = program(ctx, &b, a->at[k], x->index_name,
				x->nindex, &a->loc, "at");
		rc = rc || program(ctx, &b, a->cost, x->index_name, x->nindex,
			&a->loc, "cost");
	}
	if (!rc)
		e = segc_expr_call_builtin(SEGC_BUILTIN_TASKPATH, b.n, b.v);
	else
		for (i = 0; i < b.n; i++)
			segc_expr_free(b.v[i]);
	free(b.v);
	free(in);
	return e;
}

/* The formula of 'g' (see indexed.h). */
segc_expr *segc_indexed_formula(segc_ctx *ctx, const segc_graph *g)
{
	segc_expr *e = segc_indexed_closed(g);

	return e ? e : segc_indexed_atom(ctx, g);
}
