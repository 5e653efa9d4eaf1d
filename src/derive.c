/* derive.c - a model's formula: pick the program's graph, lower it, apply
 * the setting (bindings, lets, functions, machine) to its expressions,
 * reduce it for one component; the structural form is that formula lightly
 * simplified (structural.c), the canonical form is the canonical form of
 * the structural one. */
#include <string.h>

#include "graph.h"
#include "model.h"
#include "structural.h"

/* What derive() returns: the formula as reduced, lightly simplified, or
 * in canonical form (of the reduced or of the simplified formula). */
enum derive_form {
	FORM_REDUCED,
	FORM_STRUCTURAL,
	FORM_CANONICAL_OF_REDUCED,
	FORM_CANONICAL
};

static const char *const component_names[] = { "total", "comp", "comm",
	"io" };

/* "total", "comp", "comm", "io" -> component; -1 if none. */
int segc_component_parse(const char *name)
{
	int i;

	for (i = 0; i < 4; i++)
		if (name && !strcmp(name, component_names[i]))
			return i;
	return -1;
}

/* The name of component 'c'. */
const char *segc_component_name(enum segc_component c)
{
	return (unsigned)c < 4 ? component_names[c] : "total";
}

/* The formula of 'comp' under 's' in form 'form', reduced with 'flags'. */
static segc_expr *derive(segc_ctx *ctx, const segc_setting *s,
	enum segc_component comp, unsigned flags, enum derive_form form)
{
	const segc_graph *g = s->model ? segc_model_main_graph(s->model)
		: NULL;
	segc_lowered *lw;
	segc_domains *dom = NULL;
	segc_expr *e = NULL;
	size_t from = segc_ctx_n_diags(ctx);

	if (!g) {
		segc_error(ctx, SEGC_ERR_INPUT, s->model ? s->model->file
			: NULL, s->model ? s->model->loc.line : 0, 0,
			"the model has no graph");
		return NULL;
	}
	lw = segc_lower_checked(ctx, s, g, &dom);
	if (!lw)
		goto out;
	e = segc_reduce(ctx, lw, comp, dom, flags);
	if (form == FORM_STRUCTURAL || form == FORM_CANONICAL)
		e = segc_structural_simplify(e);
	if (e && form >= FORM_CANONICAL_OF_REDUCED)
		e = segc_canonical(ctx, dom, e);
	if (!e)
		segc_locate_errors(ctx, from, s, g, dom);
out:
	segc_domains_free(dom);
	segc_lowered_free(lw);
	return e;
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

/* The canonical formula (see segc_model.h), from the structural one: the
 * same canonical form (tests/unit/test_structural.c), from a smaller
 * input when like terms merged. */
segc_expr *segc_derive_canonical(segc_ctx *ctx, const segc_setting *s,
	enum segc_component component)
{
	return derive(ctx, s, component, 0, FORM_CANONICAL);
}
