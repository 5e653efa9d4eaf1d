/* lower_once.c - a model's program lowered once per model: its first
 * lowering is kept with the model (in the cache slot of model.h) and every
 * use of it, the first one too, is a copy (segc_lowered_copy: arrays
 * shared until the setting changes an expression), to which each
 * derivation then applies its own setting.  Lowering depends only on the
 * model, its graph and the node limit, so the copy is the program a new
 * lowering would give.  Every derivation starts here, through
 * segc_lower_checked: the copy, the setting applied, and the checks of
 * locate.c run on it. */
#include <stdlib.h>

#include "graph/graph.h"
#include "base/util.h"

/* What the cache slot of a model holds: its main graph lowered under the
 * node limit 'max_nodes'. */
typedef struct kept_program {
	segc_lowered *lw;
	unsigned long max_nodes;
} kept_program;

/* Releases kept program 'p' (through the model's cache slot). */
static void kept_free(void *p)
{
	kept_program *k = p;

	segc_lowered_free(k->lw);
	free(k);
}

/* The program kept with 'm', or NULL. */
static const kept_program *kept_of(const segc_model *m)
{
	return m->lowered_free == kept_free ? m->lowered : NULL;
}

/* Non-zero when lowering graph 'g' of 'm' under 'ctx' now gives program
 * 'k' again, with no diagnostic: 'g' is the main graph, the limit is no
 * smaller than the one 'k' was lowered under (a smaller one may be
 * reached), and 'ctx' is not full (a block-form lowering stops when it
 * is). */
static int reusable(segc_ctx *ctx, const segc_model *m, const segc_graph *g,
	const kept_program *k)
{
	return k && g == segc_model_main_graph(m) && !segc_ctx_full(ctx) &&
		segc_ctx_limits(ctx)->max_nodes >= k->max_nodes;
}

/* Keeps 'lw' (taken), the main graph of 'm' lowered under the node limit
 * of 'ctx', and returns a copy of it; unless one that more limits allow
 * is kept already: 'lw' itself then. */
static segc_lowered *keep(segc_ctx *ctx, const segc_model *m,
	segc_lowered *lw)
{
	const kept_program *old = kept_of(m);
	unsigned long max = segc_ctx_limits(ctx)->max_nodes;
	kept_program *k;

	if (old && old->max_nodes <= max)
		return lw;
	k = segc_xmalloc(sizeof(*k));
	k->lw = lw;
	k->max_nodes = max;
	segc_model_set_lowered(m, k, kept_free);
	return segc_lowered_copy(lw);
}

/* Lowers graph 'g' of 'm', or copies the program kept (see graph.h). */
segc_lowered *segc_lower_once(segc_ctx *ctx, const segc_model *m,
	const segc_graph *g)
{
	const kept_program *k = kept_of(m);
	size_t from = segc_ctx_n_diags(ctx);
	segc_lowered *lw;

	if (reusable(ctx, m, g, k))
		return segc_lowered_copy(k->lw);
	lw = segc_lower(ctx, m, g);
	if (lw && g == segc_model_main_graph(m) &&
	    segc_ctx_n_diags(ctx) == from)
		lw = keep(ctx, m, lw);
	return lw;
}

/* Lowers graph 'g' under 's' with every check (see graph.h). */
segc_lowered *segc_lower_checked(segc_ctx *ctx, const segc_setting *s,
	const segc_graph *g, segc_domains **dom)
{
	segc_lowered *lw = segc_lower_once(ctx, s->model, g);

	*dom = NULL;
	if (lw && !segc_setting_apply_lowered(ctx, s, lw)) {
		*dom = segc_setting_domains(ctx, s);
		if (!segc_check_lowered(ctx, lw, *dom) &&
		    !segc_check_ranges(ctx, lw, *dom) &&
		    !segc_check_exits(ctx, lw, *dom))
			return lw;
	}
	segc_lowered_free(lw);
	return NULL;
}
