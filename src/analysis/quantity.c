/* quantity.c - the formula of what an analysis looks at: a component of
 * the model (total, comp, comm, io), the speedup T(P=1)/T, the efficiency
 * speedup/P, or an expression of them and of the model's names, under a
 * setting; and its canonical form with one name confined to a range. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "model/model.h"
#include "output/output.h"
#include "base/util.h"

static const char *const quantity_names[6] = {
	"total", "comp", "comm", "io", "speedup", "efficiency"
};

/* The index of 'name' among the quantities, or -1. */
static int quantity_index(const char *name)
{
	int i;

	for (i = 0; i < 6; i++)
		if (!strcmp(name, quantity_names[i]))
			return i;
	return -1;
}

/* The value of the plain name 'name' under 's'. */
static segc_expr *name_value(segc_ctx *ctx, const segc_setting *s,
	const char *name, const segc_where *where)
{
	return segc_setting_apply(ctx, s, segc_expr_sym(name), where);
}

/* The formula of quantity 'k' under 's' (structural form). */
static segc_expr *quantity_formula(segc_ctx *ctx, const segc_setting *s,
	int k)
{
	segc_expr *t, *t1, *p;

	if (k < 4)
		return segc_derive_structural(ctx, s, (enum segc_component)k);
	t = segc_derive_structural(ctx, s, SEGC_TOTAL);
	if (!t)
		return NULL;
	p = segc_expr_int(1);
	t1 = segc_expr_subst(segc_expr_copy(t), "P", p);
	segc_expr_free(p);
	t = segc_expr_div2(t1, t);
	if (k == 4)
		return t;
	p = name_value(ctx, s, "P", NULL);
	return p ? segc_expr_div2(t, p) : (segc_expr_free(t), NULL);
}

/* The quantity 'text' under 's' (see analysis.h). */
segc_expr *segc_quantity(segc_ctx *ctx, const segc_setting *s,
	const char *text, const segc_where *where)
{
	segc_expr *e = segc_expr_parse(ctx, text, where), *v;
	const char **names;
	size_t n, i;
	int k;

	if (!e)
		return NULL;
	n = segc_output_names(e, 0, &names);
	for (i = 0; i < n && e; i++) {
		k = quantity_index(names[i]);
		v = k >= 0 ? quantity_formula(ctx, s, k) :
			name_value(ctx, s, names[i], where);
		if (!v) {
			segc_expr_free(e);
			e = NULL;
			break;
		}
		e = segc_expr_subst(e, names[i], v);
		segc_expr_free(v);
	}
	free(names);
	return e;
}

/* Writes 'q' (malloc'd). */
static char *q_text(mpq_srcptr q)
{
	return q ? mpq_get_str(NULL, 10, q) : segc_xstrdup("inf");
}

/* Records that [lo, hi] leaves the domain the model declares for 'var'. */
static void outside(segc_ctx *ctx, const char *file, const char *var,
	mpq_srcptr lo, mpq_srcptr hi, mpq_srcptr dlo, mpq_srcptr dhi)
{
	char *a = q_text(lo), *b = q_text(hi), *c = q_text(dlo),
		*d = q_text(dhi);

	segc_error(ctx, SEGC_ERR_INPUT, file, 0, 0, "the range %s..%s of "
		"'%s' leaves its declared domain [%s%s, %s]", a, b, var,
		dlo ? "" : "-", c, d);
	free(a); free(b); free(c); free(d);
}

/* The canonical form of 'e' (taken) under the domains of 's', with 'var'
 * confined to [lo, hi] (see analysis.h). */
segc_expr *segc_quantity_canonical(segc_ctx *ctx, const segc_setting *s,
	segc_expr *e, const char *var, mpq_srcptr lo, mpq_srcptr hi)
{
	segc_domains *d = segc_setting_domains(ctx, s);
	mpq_srcptr dlo = NULL, dhi = NULL;
	int integer = 0;

	if (!d) {
		segc_expr_free(e);
		return NULL;
	}
	if (var && segc_domains_get(d, var, &dlo, &dhi, &integer) &&
	    ((dlo && mpq_cmp(lo, dlo) < 0) || (dhi && mpq_cmp(hi, dhi) > 0))) {
		outside(ctx, s->model ? s->model->file : NULL, var,
			lo, hi, dlo, dhi);
		segc_expr_free(e);
		segc_domains_free(d);
		return NULL;
	}
	if (var)
		segc_domains_set(d, var, lo, hi, integer);
	e = segc_canonical(ctx, d, e);
	segc_domains_free(d);
	return e;
}
