/* scale.c - what-if scenarios: the formula of a component with some
 * costs multiplied by a factor, either named costs (resources, machine
 * constants and costs: every use of them, inside the machine's functions
 * too) or every cost of one component (class). */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "model/model.h"
#include "expr/builtin.h"
#include "base/names.h"
#include "base/util.h"

/* Non-zero when 'name' is a cost: a resource of the model, or a
 * constant or cost of the machine. */
static int is_cost(const segc_setting *s, const char *name)
{
	const segc_machine *m = segc_setting_machine(s);

	return (s->model && segc_model_resource(s->model, name)) ||
		(m && (segc_machine_const(m, name) || segc_machine_cost(m, name)));
}

/* The cost under 's' nearest 'name' within a third of its length (for
 * "did you mean"), or NULL. */
static const char *nearest_cost(const segc_setting *s, const char *name)
{
	const segc_machine *m = segc_setting_machine(s);
	const char *best = NULL;
	size_t d = segc_name_near_limit(name), i;

	if (strlen(name) < 2)
		return NULL;
	for (i = 0; s->model && i < s->model->nresources; i++)
		segc_name_nearer(name, s->model->resources[i].name, &d, &best);
	for (i = 0; m && i < m->nconsts; i++)
		segc_name_nearer(name, m->consts[i].name, &d, &best);
	for (i = 0; m && i < m->ncosts; i++)
		segc_name_nearer(name, m->costs[i].name, &d, &best);
	return best;
}

/* A copy of 'b' (may be NULL) with every name of 'names' bound to
 * itself, so that the formula keeps them. */
static segc_bindings *keeping(segc_ctx *ctx, const segc_bindings *b,
	size_t n, const char *const *names)
{
	segc_bindings *k = segc_bindings_new();
	segc_strbuf sb;
	size_t i, count = b ? segc_bindings_count(b) : 0;
	char *v;

	for (i = 0; i < count + n; i++) {
		segc_strbuf_init(&sb);
		if (i < count) {
			v = segc_expr_to_string(segc_bindings_value(b, i));
			segc_strbuf_appendf(&sb, "%s=%s", segc_bindings_name(b, i),
				v);
			free(v);
		} else
			segc_strbuf_appendf(&sb, "%s=%s", names[i - count],
				names[i - count]);
		segc_bindings_add(ctx, k, sb.data);
		segc_strbuf_free(&sb);
	}
	return k;
}

/* Records why name 'i' of 'names' cannot be scaled under 's' (not a
 * cost, or named twice); 0 when it can. */
static int check_name(segc_ctx *ctx, const segc_setting *s, size_t i,
	const char *const *names)
{
	const char *file = s->model ? s->model->file : NULL;
	const char *near;
	size_t j;

	for (j = 0; j < i; j++)
		if (!strcmp(names[j], names[i])) {
			segc_error(ctx, SEGC_ERR_INPUT, file, 0, 0, "'%s' is "
				"named twice in one scenario", names[i]);
			return -1;
		}
	if (is_cost(s, names[i]))
		return 0;
	near = nearest_cost(s, names[i]);
	if (near)
		segc_error(ctx, SEGC_ERR_INPUT, file, 0, 0, "'%s' is not a cost "
			"(did you mean '%s'?): only costs scale", names[i],
			near);
	else
		segc_error(ctx, SEGC_ERR_INPUT, file, 0, 0, "'%s' is not a cost "
			"(a resource of the model or a constant or cost of the "
			"machine): only costs scale", names[i]);
	return -1;
}

/* 'f' (taken) with every name of 'names' replaced at once by 'factor'
 * times its value under 's': each first by a placeholder, so that a
 * value holding another of the names is not scaled twice. */
static segc_expr *replace_all(segc_ctx *ctx, const segc_setting *s,
	segc_expr *f, size_t n, const char *const *names, mpq_srcptr factor)
{
	char ph[40];
	segc_expr *v;
	size_t i;

	for (i = 0; f && i < n; i++) {
		snprintf(ph, sizeof ph, "__segc_scaled_%lu", (unsigned long)i);
		v = segc_expr_sym(ph);
		f = segc_expr_subst(f, names[i], v);
		segc_expr_free(v);
	}
	for (i = 0; f && i < n; i++) {
		v = segc_setting_apply(ctx, s, segc_expr_sym(names[i]), NULL);
		if (!v) {
			segc_expr_free(f);
			return NULL;
		}
		v = segc_expr_mul2(segc_expr_num(factor), v);
		snprintf(ph, sizeof ph, "__segc_scaled_%lu", (unsigned long)i);
		f = segc_expr_subst(f, ph, v);
		segc_expr_free(v);
	}
	return f;
}

/* The formula of 'comp' with the named costs scaled (see analysis.h). */
segc_expr *segc_scale_names(segc_ctx *ctx, const segc_setting *s,
	enum segc_component comp, size_t n, const char *const *names,
	mpq_srcptr factor)
{
	segc_setting kept = *s;
	segc_expr *f;
	size_t i;

	for (i = 0; i < n; i++)
		if (check_name(ctx, s, i, names))
			return NULL;
	kept.bindings = keeping(ctx, s->bindings, n, names);
	f = segc_derive_structural(ctx, &kept, comp);
	segc_bindings_free((segc_bindings *)kept.bindings);
	return replace_all(ctx, s, f, n, names, factor);
}

/* Non-zero when the total of 's' is exactly comp + comm + io; -1 on
 * an error (recorded). */
static int additive(segc_ctx *ctx, const segc_setting *s, segc_expr **part)
{
	segc_expr *t, *sum;
	int same;

	t = segc_quantity_canonical(ctx, s, segc_expr_copy(part[0]), NULL,
		NULL, NULL);
	sum = segc_quantity_canonical(ctx, s, segc_expr_add2(segc_expr_copy(
		part[1]), segc_expr_add2(segc_expr_copy(part[2]),
		segc_expr_copy(part[3]))), NULL, NULL, NULL);
	same = t && sum ? t == sum : -1;
	segc_expr_free(t);
	segc_expr_free(sum);
	return same;
}

/* The formula of 'comp' with every cost of component 'cls' scaled (see
 * analysis.h): that component times the factor; the total, when it is
 * the sum of its components, gains (factor - 1) times that component. */
segc_expr *segc_scale_class(segc_ctx *ctx, const segc_setting *s,
	enum segc_component comp, enum segc_component cls, mpq_srcptr factor)
{
	segc_expr *part[4], *whole = NULL;
	mpq_t f1;
	int k, sum = 1;

	if (segc_derive_components(ctx, s, 0, SEGC_COMPONENTS_ALL, part))
		goto out;
	if (comp != SEGC_TOTAL) {
		whole = comp != cls ? segc_expr_copy(part[comp]) :
			segc_expr_mul2(segc_expr_num(factor),
			segc_expr_copy(part[comp]));
		goto out;
	}
	if ((sum = additive(ctx, s, part)) <= 0)
		goto out;
	mpq_init(f1);
	mpq_set_ui(f1, 1, 1);
	mpq_sub(f1, factor, f1);
	whole = segc_expr_add2(segc_expr_copy(part[0]), segc_expr_mul2(
		segc_expr_num(f1), segc_expr_copy(part[cls])));
	mpq_clear(f1);
out:
	if (!sum)
		segc_error(ctx, SEGC_ERR_INPUT, s->model->file, 0, 0, "the total "
			"is not the sum comp + comm + io (concurrent regions take "
			"a max): scale a class with --component, or name the "
			"costs to scale");
	for (k = 0; k < 4; k++)
		segc_expr_free(part[k]);
	return whole;
}

/* Non-zero when 'e' is if(c, a, b). */
static int is_if(const segc_expr *e)
{
	return segc_expr_kind(e) == SEGC_CALL && segc_expr_nargs(e) == 3 &&
		!strcmp(segc_expr_name(e), "if");
}

/* before/after, branch by branch where both are if() on the same
 * condition. */
static segc_expr *ratio(const segc_expr *b, const segc_expr *a)
{
	segc_expr *args[3];

	if (!is_if(b) || !is_if(a) || segc_expr_arg(b, 0) != segc_expr_arg(a, 0))
		return segc_expr_div2(segc_expr_copy(b),
			segc_expr_copy(a));
	args[0] = segc_expr_copy(segc_expr_arg(b, 0));
	args[1] = ratio(segc_expr_arg(b, 1), segc_expr_arg(a, 1));
	args[2] = ratio(segc_expr_arg(b, 2), segc_expr_arg(a, 2));
	return segc_expr_call_builtin(SEGC_BUILTIN_IF, 3, args);
}

/* The speedup before/after in canonical form (see analysis.h). */
segc_expr *segc_scale_speedup(segc_ctx *ctx, const segc_setting *s,
	const segc_expr *before, const segc_expr *after)
{
	return segc_quantity_canonical(ctx, s, ratio(before, after), NULL,
		NULL, NULL);
}
