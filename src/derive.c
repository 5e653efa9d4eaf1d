/* derive.c - a model's formula: pick the program's graph, lower it, apply
 * the setting (bindings, lets, functions, machine) to its expressions,
 * reduce it for one component; the canonical form on top. */
#include <string.h>

#include "graph.h"
#include "model.h"

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

/* Derives the formula of 'comp' under 's' (see graph.h). */
segc_expr *segc_derive_flags(segc_ctx *ctx, const segc_setting *s,
	enum segc_component comp, unsigned flags, int canonical)
{
	const segc_graph *g = s->model ? segc_model_main_graph(s->model)
		: NULL;
	segc_lowered *lw;
	segc_domains *dom = NULL;
	segc_expr *e = NULL;

	if (!g) {
		segc_error(ctx, SEGC_ERR_INPUT, s->model ? s->model->file
			: NULL, s->model ? s->model->loc.line : 0, 0,
			"the model has no graph");
		return NULL;
	}
	lw = segc_lower(ctx, s->model, g);
	if (!lw)
		return NULL;
	if (segc_setting_apply_lowered(ctx, s, lw))
		goto out;
	dom = segc_setting_domains(ctx, s);
	e = segc_reduce(ctx, lw, comp, dom, flags);
	if (e && canonical)
		e = segc_canonical(ctx, dom, e);
out:
	segc_domains_free(dom);
	segc_lowered_free(lw);
	return e;
}

/* The structural formula (see segc_model.h). */
segc_expr *segc_derive_structural(segc_ctx *ctx, const segc_setting *s,
	enum segc_component component)
{
	return segc_derive_flags(ctx, s, component, 0, 0);
}

/* The canonical formula (see segc_model.h). */
segc_expr *segc_derive_canonical(segc_ctx *ctx, const segc_setting *s,
	enum segc_component component)
{
	return segc_derive_flags(ctx, s, component, 0, 1);
}
