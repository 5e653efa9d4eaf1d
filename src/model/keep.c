/* keep.c - names a formula may keep instead of their values, for a
 * formula written for a paper: the lists of the model's lets, resources
 * and names with values (the commands bind a kept name to itself, which
 * wins over every value, bind.c), and the definitions of the kept lets a
 * formula uses, dependencies first, for its "where" lines. */
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "base/util.h"

/* A growable list of borrowed names without repeats. */
typedef struct name_list {
	const char **at;
	size_t n, cap;
} name_list;

/* Appends 'name' to 'l' unless it is there. */
static void push_name(name_list *l, const char *name)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (!strcmp(l->at[i], name))
			return;
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 16;
		l->at = segc_xrealloc(l->at, l->cap * sizeof *l->at);
	}
	l->at[l->n++] = name;
}

/* See segc_model.h. */
size_t segc_setting_names(const segc_setting *s, unsigned what,
	const char ***out)
{
	const segc_model *m = s->model;
	const segc_machine *mach = segc_setting_machine(s);
	name_list l = { NULL, 0, 0 };
	size_t i;

	for (i = 0; m && (what & SEGC_NAMES_LETS) && i < m->nlets; i++)
		push_name(&l, m->lets[i].name);
	for (i = 0; m && (what & SEGC_NAMES_RESOURCES) && i < m->nresources;
			i++)
		push_name(&l, m->resources[i].name);
	if (what & SEGC_NAMES_VALUES) {
		for (i = 0; m && i < m->nparams; i++)
			if (m->params[i].value)
				push_name(&l, m->params[i].name);
		for (i = 0; mach && i < mach->nconsts; i++)
			push_name(&l, mach->consts[i].name);
		for (i = 0; mach && i < mach->ncosts; i++)
			push_name(&l, mach->costs[i].name);
	}
	*out = l.at;
	return l.n;
}

/* Non-zero when 's' binds 'name' to itself (a kept name). */
static int kept(const segc_setting *s, const char *name)
{
	size_t i;

	for (i = segc_bindings_count(s->bindings); i-- > 0;)
		if (!strcmp(segc_bindings_name(s->bindings, i), name)) {
			const segc_expr *v = segc_bindings_value(s->bindings, i);

			return segc_expr_kind(v) == SEGC_SYM &&
				!strcmp(segc_expr_name(v), name);
		}
	return 0;
}

/* The walk over the kept lets: state 0 new, 1 being visited, 2 done. */
typedef struct let_walk {
	segc_ctx *ctx;
	const segc_setting *s;
	const segc_model *m;
	unsigned char *state;
	size_t n;
	const char **names;
	segc_expr **values;
	int failed;
} let_walk;

static void visit(let_walk *W, size_t k);

/* Visits every kept let that 'e' uses, in the model's order. */
static void visit_used(let_walk *W, const segc_expr *e)
{
	size_t k;

	for (k = 0; k < W->m->nlets && !W->failed; k++)
		if (W->state[k] == 0 && kept(W->s, W->m->lets[k].name)
				&& segc_expr_has_sym(e, W->m->lets[k].name))
			visit(W, k);
}

/* Visits let 'k': its value under the setting, the lets it uses first,
 * then itself appended. */
static void visit(let_walk *W, size_t k)
{
	const segc_binding *b = &W->m->lets[k];
	segc_where w;
	segc_expr *v;

	W->state[k] = 1;
	w.file = b->loc.file;
	w.line = b->loc.line;
	w.col = b->loc.col;
	w.what = "the value of a <let>";
	v = segc_setting_apply(W->ctx, W->s, segc_expr_copy(b->value), &w);
	if (!v) {
		W->failed = 1;
		return;
	}
	visit_used(W, v);
	W->names[W->n] = b->name;
	W->values[W->n++] = v;
	W->state[k] = 2;
}

/* See segc_model.h. */
int segc_setting_kept_lets(segc_ctx *ctx, const segc_setting *s,
	segc_expr *const *formulas, size_t nformulas, const char ***names,
	segc_expr ***values, size_t *count)
{
	let_walk W;
	size_t i;

	memset(&W, 0, sizeof W);
	*names = NULL;
	*values = NULL;
	*count = 0;
	if (!s->model || !s->model->nlets)
		return 0;
	W.ctx = ctx;
	W.s = s;
	W.m = s->model;
	W.state = segc_xcalloc(W.m->nlets, 1);
	W.names = segc_xcalloc(W.m->nlets, sizeof *W.names);
	W.values = segc_xcalloc(W.m->nlets, sizeof *W.values);
	for (i = 0; i < nformulas && !W.failed; i++)
		if (formulas[i])
			visit_used(&W, formulas[i]);
	free(W.state);
	if (W.failed) {
		for (i = 0; i < W.n; i++)
			segc_expr_free(W.values[i]);
		free(W.names);
		free(W.values);
		return -1;
	}
	*names = W.names;
	*values = W.values;
	*count = W.n;
	return 0;
}
