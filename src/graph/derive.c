/* derive.c - a model's formula: pick the program's graph, lower it, apply
 * the setting (bindings, lets, functions, machine) to its expressions,
 * reduce it for one component; the structural form is that formula lightly
 * simplified (structural.c), the canonical form is the canonical form of
 * the structural one. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "graph/graph.h"
#include "model/model.h"
#include "algebra/structural/structural.h"
#include "base/util.h"
#include "algebra/eval/atoms.h"

/* Every program that derives links graph_atoms.c too (its constructor
 * gives exact evaluation the graph atoms), also from the static library,
 * where an object that nothing names would be left out. */
extern const segc_atom_ops segc_graph_atoms;
__attribute__((used)) static const segc_atom_ops *const need_graph_atoms =
	&segc_graph_atoms;

/* What derive() returns: the formula as reduced, lightly simplified,
 * readable, or in canonical form (of the reduced or of the simplified
 * formula). */
enum derive_form {
	FORM_REDUCED,
	FORM_STRUCTURAL,
	FORM_READABLE,
	FORM_CANONICAL_OF_REDUCED,
	FORM_CANONICAL
};

/* A map from expressions to their depth, for formula_depth(). */
typedef struct depth_map {
	const segc_expr **key;
	unsigned long *depth;
	size_t cap, n;
} depth_map;

/* The slot of 'e' in 'm' (its key NULL when absent). */
static size_t depth_slot(const depth_map *m, const segc_expr *e)
{
	size_t i = (size_t)(((uintptr_t)e >> 4) * 2654435761u) & (m->cap - 1);

	while (m->key[i] && m->key[i] != e)
		i = (i + 1) & (m->cap - 1);
	return i;
}

/* Records that 'e' is 'depth' deep in 'm'. */
static void depth_put(depth_map *m, const segc_expr *e, unsigned long depth)
{
	size_t i;

	if (2 * (m->n + 1) > m->cap) {
		depth_map t;

		t.cap = m->cap ? 2 * m->cap : 256;
		t.n = 0;
		t.key = segc_xcalloc(t.cap, sizeof(*t.key));
		t.depth = segc_xcalloc(t.cap, sizeof(*t.depth));
		for (i = 0; i < m->cap; i++)
			if (m->key[i])
				depth_put(&t, m->key[i], m->depth[i]);
		free(m->key);
		free(m->depth);
		*m = t;
	}
	i = depth_slot(m, e);
	if (!m->key[i])
		m->n++;
	m->key[i] = e;
	m->depth[i] = depth;
}

/* The depth of 'e' known to 'm', or 0. */
static unsigned long depth_get(const depth_map *m, const segc_expr *e)
{
	size_t i;

	if (!m->cap)
		return 0;
	i = depth_slot(m, e);
	return m->key[i] ? m->depth[i] : 0;
}

/* Non-zero when formula 'e' nests more than 'max' levels deep (its
 * shared parts counted once): an explicit stack, so that a formula too
 * deep for the recursive walks that follow is found without recursion. */
static int formula_too_deep(const segc_expr *e, unsigned long max)
{
	const segc_expr **stack = segc_xmalloc(16 * sizeof(*stack));
	size_t n = 0, cap = 16, i, k;
	depth_map m;
	int deep = 0;

	memset(&m, 0, sizeof(m));
	stack[n++] = e;
	while (n && !deep) {
		const segc_expr *x = stack[n - 1];
		unsigned long d = 0, c;

		k = segc_expr_nargs(x);
		if (depth_get(&m, x)) {
			n--;
			continue;
		}
		for (i = 0; i < k; i++)
			if (!(c = depth_get(&m, segc_expr_arg(x, i))))
				break;
			else if (c > d)
				d = c;
		if (i == k) {
			depth_put(&m, x, d + 1);
			deep = d + 1 > max;
			n--;
			continue;
		}
		if (n + k > cap) {
			cap = 2 * (n + k);
			stack = segc_xrealloc(stack,
				segc_xmul_size(cap, sizeof(*stack)));
		}
		for (i = 0; i < k; i++)
			if (!depth_get(&m, segc_expr_arg(x, i)))
				stack[n++] = segc_expr_arg(x, i);
	}
	free(stack);
	free(m.key);
	free(m.depth);
	return deep;
}

/* 'e' (taken), or NULL after a limit error at graph 'g' of 's' when it
 * nests deeper than the expressions may (max_depth and its margin). */
static segc_expr *bounded_depth(segc_ctx *ctx, const segc_setting *s,
	const segc_graph *g, segc_expr *e)
{
	unsigned long max = segc_ctx_limits(ctx)->max_depth;

	if (max > SEGC_MAX_DEPTH_CEILING)
		max = SEGC_MAX_DEPTH_CEILING;
	if (!e || !formula_too_deep(e, max + 64))
		return e;
	segc_expr_free(e);
	segc_error(ctx, SEGC_ERR_LIMIT, g->loc.file ? g->loc.file :
		s->model->file, g->loc.line, g->loc.col, "the formula of the "
		"program nests more than %lu levels deep (max_depth)",
		max + 64);
	return NULL;
}

/* The program of the model of 's', or NULL after an error. */
static const segc_graph *program(segc_ctx *ctx, const segc_setting *s)
{
	const segc_graph *g = s->model ? segc_model_main_graph(s->model)
		: NULL;

	if (!g)
		segc_error(ctx, SEGC_ERR_INPUT, s->model ? s->model->file
			: NULL, s->model ? s->model->loc.line : 0, 0,
			"the model has no graph");
	return g;
}

/* The formula of 'comp' of lowered program 'lw' (graph 'g' under 's',
 * domains 'dom') in form 'form', reduced with 'flags'; on failure, the
 * diagnostics from index 'from' on get their place. */
static segc_expr *derive_lowered(segc_ctx *ctx, const segc_setting *s,
	const segc_graph *g, segc_lowered *lw, const segc_domains *dom,
	enum segc_component comp, unsigned flags, enum derive_form form,
	size_t from)
{
	segc_expr *e;

	e = bounded_depth(ctx, s, g, segc_reduce(ctx, lw, comp, dom, flags));
	if (form == FORM_STRUCTURAL || form == FORM_READABLE ||
	    form == FORM_CANONICAL)
		e = segc_structural_simplify(e);
	if (e && (form == FORM_STRUCTURAL || form == FORM_READABLE))
		e = segc_structural_prune(ctx, dom, e);
	if (e && form == FORM_READABLE)
		e = segc_structural_readable(ctx, dom, e);
	if (e && form >= FORM_CANONICAL_OF_REDUCED)
		e = segc_canonical(ctx, dom, e);
	if (!e)
		segc_locate_errors(ctx, from, s, g, lw, dom);
	return e;
}

/* Records an internal error when a derivation failed ('failed') and
 * nothing since diagnostic 'from' says why. */
static void check_said(segc_ctx *ctx, const segc_setting *s, int failed,
	size_t from)
{
	if (failed && segc_ctx_n_diags(ctx) == from)
		segc_error(ctx, SEGC_ERR_INTERNAL, s->model ? s->model->file
			: NULL, 0, 0, "the derivation failed without a "
			"diagnostic");
}

/* Derives the components of 'mask' under 's' from one lowering into
 * 'out' in form 'form'; 0, or -1 (every out[] NULL) after the first
 * failure. */
static int derive_mask(segc_ctx *ctx, const segc_setting *s,
	unsigned flags, unsigned mask, enum derive_form form, segc_expr **out)
{
	const segc_graph *g = program(ctx, s);
	segc_lowered *lw = NULL;
	segc_domains *dom = NULL;
	size_t from = segc_ctx_n_diags(ctx);
	int k, rc = -1;

	for (k = 0; k < 4; k++)
		out[k] = NULL;
	if (!g)
		return -1;
	lw = segc_lower_checked(ctx, s, g, &dom);
	for (k = 0, rc = lw ? 0 : -1; k < 4 && !rc; k++)
		if (mask & (1u << k)) {
			out[k] = derive_lowered(ctx, s, g, lw, dom,
				(enum segc_component)k, flags, form, from);
			rc = out[k] ? 0 : -1;
		}
	check_said(ctx, s, rc != 0, from);
	for (k = 0; k < 4 && rc; k++) {
		segc_expr_free(out[k]);
		out[k] = NULL;
	}
	segc_domains_free(dom);
	segc_lowered_free(lw);
	return rc;
}

/* The formula of 'comp' under 's' in form 'form', reduced with 'flags'. */
static segc_expr *derive(segc_ctx *ctx, const segc_setting *s,
	enum segc_component comp, unsigned flags, enum derive_form form)
{
	segc_expr *out[4];

	if ((unsigned)comp >= 4)
		comp = SEGC_TOTAL;
	derive_mask(ctx, s, flags, 1u << comp, form, out);
	return out[comp];
}

/* Derives the formula of 'comp' under 's' as reduced, or its canonical
 * form (see graph.h). */
segc_expr *segc_derive_flags(segc_ctx *ctx, const segc_setting *s,
	enum segc_component comp, unsigned flags, int canonical)
{
	return derive(ctx, s, comp, flags, canonical ?
		FORM_CANONICAL_OF_REDUCED : FORM_REDUCED);
}

/* The structural formula (see segc_model.h): as reduced, then lightly
 * simplified. */
segc_expr *segc_derive_structural(segc_ctx *ctx, const segc_setting *s,
	enum segc_component component)
{
	return derive(ctx, s, component, 0, FORM_STRUCTURAL);
}

/* The readable formula (see segc_model.h): the structural one with its
 * nodes replaced by shorter equal ones. */
segc_expr *segc_derive_readable(segc_ctx *ctx, const segc_setting *s,
	enum segc_component component)
{
	return derive(ctx, s, component, 0, FORM_READABLE);
}

/* The canonical formula (see segc_model.h), from the structural one: the
 * same canonical form (tests/unit/test_structural.c), from a smaller
 * input when like terms merged. */
segc_expr *segc_derive_canonical(segc_ctx *ctx, const segc_setting *s,
	enum segc_component component)
{
	return derive(ctx, s, component, 0, FORM_CANONICAL);
}

/* The components of 'mask' from one lowering (see segc_model.h). */
int segc_derive_components(segc_ctx *ctx, const segc_setting *s,
	unsigned flags, unsigned mask, segc_expr *out[4])
{
	return derive_mask(ctx, s, 0, mask, flags & SEGC_DERIVE_CANONICAL
		? FORM_CANONICAL : flags & SEGC_DERIVE_READABLE ? FORM_READABLE
		: FORM_STRUCTURAL, out);
}
