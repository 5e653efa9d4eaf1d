/* where_hints.c - named subexpressions of a model's formulas: the names
 * the model offers (its lets, then its named steps and nodes with a
 * cost), each with the canonical form of its value under the setting,
 * handed to the search of algebra/structural_where.c. */
#include <config.h>

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "algebra/structural/structural.h"
#include "base/util.h"

/* The hints being gathered. */
struct hints {
	const char **names;
	segc_expr **values;
	size_t n;
};

/* Non-zero when 'id' is a name of the expression language. */
static int identifier(const char *id)
{
	const char *p;

	if (!id || !(isalpha((unsigned char)*id) || *id == '_'))
		return 0;
	for (p = id; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '_')
			return 0;
	return 1;
}

/* At most this many hints: a model of more nodes offers the first. */
#define WHERE_MAX_HINTS 2048

/* Adds 'name' for 'value' (kept) under 's' and 'dom' when the value has
 * a canonical form that is neither a number nor a name. */
static void add_hint(struct hints *h, const segc_setting *s,
	const segc_domains *dom, const char *name, const segc_expr *value)
{
	segc_ctx *tmp;
	segc_expr *v;

	if (!value || !identifier(name) || h->n >= WHERE_MAX_HINTS ||
	    !(tmp = segc_ctx_new()))
		return;
	v = segc_setting_apply(tmp, s, segc_expr_copy(value),
		NULL);
	if (v)
		v = segc_canonical(tmp, dom, v);
	segc_ctx_free(tmp);
	if (!v || segc_expr_kind(v) == SEGC_NUM ||
	    segc_expr_kind(v) == SEGC_SYM) {
		segc_expr_free(v);
		return;
	}
	h->names = segc_xrealloc((void *)h->names, (h->n + 1) *
		sizeof *h->names);
	h->values = segc_xrealloc(h->values, (h->n + 1) * sizeof *h->values);
	h->names[h->n] = name;
	h->values[h->n++] = v;
}

/* Adds the named steps with a cost under block 'b' (explicit stack). */
static void add_steps(struct hints *h, const segc_setting *s,
	const segc_domains *dom, const segc_block *b)
{
	const segc_block **st = segc_xmalloc(64 * sizeof *st);
	size_t n = 0, cap = 64, i;

	st[n++] = b;
	while (n) {
		b = st[--n];
		if (b->kind == SEGC_BLOCK_STEP && b->name && b->cost)
			add_hint(h, s, dom, b->name, b->cost);
		for (i = 0; i < b->nchildren; i++) {
			if (n == cap)
				st = segc_xrealloc(st, (cap *= 2) * sizeof *st);
			st[n++] = b->children[i];
		}
	}
	free(st);
}

/* The named subexpressions of the formulas of the model of 's' (see
 * segc_model.h). */
int segc_setting_where(segc_ctx *ctx, const segc_setting *s,
	segc_expr **f, size_t nf, segc_where_list *out)
{
	const segc_model *m = s->model;
	segc_domains *dom = segc_setting_domains(ctx, s);
	struct hints h = { NULL, NULL, 0 };
	segc_where_hints wh;
	size_t g, i;
	int rc;

	for (i = 0; i < m->nlets; i++)
		add_hint(&h, s, dom, m->lets[i].name, m->lets[i].value);
	for (g = 0; g < m->ngraphs; g++) {
		const segc_graph *gr = &m->graphs[g];

		for (i = 0; gr->arc_form && i < gr->nnodes; i++)
			if (!gr->nodes[i].nindex)
				add_hint(&h, s, dom, gr->nodes[i].id,
					gr->nodes[i].cost);
		if (!gr->arc_form && gr->body)
			add_steps(&h, s, dom, gr->body);
	}
	wh.n = h.n;
	wh.names = h.names;
	wh.values = h.values;
	rc = segc_structural_where(ctx, dom, &wh, f, nf, out);
	for (i = 0; i < h.n; i++)
		segc_expr_free(h.values[i]);
	free((void *)h.names);
	free(h.values);
	segc_domains_free(dom);
	return rc;
}
