/* fit.c - the fit of a model's formula to measured times (segc fit):
 * the columns of the data and the free names checked, the formula of
 * every measured component split exactly into c_0 + sum_j c_j x_j (or
 * refused when it is not linear in the free names x_j), the equations of
 * the rows accumulated into exact normal equations (lsq.c) and solved,
 * and every equation evaluated with the fitted values. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "output/output.h"
#include "base/util.h"

#include "analysis/fit_run.h"

static const char *const comp_cols[] = { "time", "total", "comp", "comm",
	"io" };
static const enum segc_component comp_of[] = { SEGC_TOTAL, SEGC_TOTAL,
	SEGC_COMP, SEGC_COMM, SEGC_IO };

/* ------------------------------------------------------------ columns */

/* Records an error at the header cell of column 'j'. */
static void header_error(fitter *F, size_t j, const char *fmt,
	const char *a, const char *b)
{
	segc_error(F->ctx, SEGC_ERR_INPUT, F->file,
		segc_csv_line(F->data, (size_t)-1),
		segc_csv_col(F->data, (size_t)-1, j), fmt, a, b);
}

/* The index in comp_cols of the measurement column 'name', or -1. */
static int measurement_column(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof comp_cols / sizeof *comp_cols; i++)
		if (!strcmp(comp_cols[i], name))
			return (int)i;
	return -1;
}

/* Non-zero when 'name' is something the formula may contain: a
 * parameter, N, P, a resource, a constant or cost of the machine. */
static int model_name(const fitter *F, const char *name)
{
	const segc_model *m = F->s.model;

	return segc_model_param(m, name) || !strcmp(name, "N") ||
		!strcmp(name, "P") || segc_model_resource(m, name) ||
		(F->mach && (segc_machine_const(F->mach, name) ||
		segc_machine_cost(F->mach, name)));
}

/* Non-zero when -D binds 'name'. */
static int fixed(const fitter *F, const char *name)
{
	size_t i, n = segc_bindings_count(F->r->setting->bindings);

	for (i = 0; i < n; i++)
		if (!strcmp(segc_bindings_name(F->r->setting->bindings, i),
		    name))
			return 1;
	return 0;
}

/* Adds the part measured by column 'j' (checking that its component is
 * measured once). */
static void add_part(fitter *F, size_t j, enum segc_component comp)
{
	size_t k;

	for (k = 0; k < F->nparts; k++)
		if (F->parts[k].comp == comp) {
			header_error(F, j, "the column '%s' measures %s again",
				F->headers[j], segc_component_name(comp));
			return;
		}
	F->parts[F->nparts].comp = comp;
	F->parts[F->nparts++].col = j;
}

/* Sorts the columns into measurements and parameters. */
static int classify_columns(fitter *F)
{
	size_t j, n = segc_csv_ncols(F->data);

	F->headers = segc_xcalloc(n + 1, sizeof *F->headers);
	F->is_param = segc_xcalloc(n + 1, sizeof *F->is_param);
	for (j = 0; j < n; j++) {
		const char *h = segc_csv_header(F->data, j);
		int m = measurement_column(h);

		F->headers[j] = h;
		if (m >= 0)
			add_part(F, j, comp_of[m]);
		else if (!model_name(F, h))
			header_error(F, j, "the column '%s' is neither a name of "
				"the model nor a measurement (time, total, comp, "
				"comm, io)%s", h, "");
		else if (fixed(F, h))
			header_error(F, j, "the column '%s' gives a value that "
				"-D %s also gives", h, h);
		else
			F->is_param[j] = 1;
	}
	if (!F->nparts && segc_ctx_status(F->ctx) == SEGC_OK)
		segc_error(F->ctx, SEGC_ERR_INPUT, F->file,
			segc_csv_line(F->data, (size_t)-1), 0, "no measured "
			"column: give a column time (or total), comp, comm or io");
	if (!segc_csv_nrows(F->data) && segc_ctx_status(F->ctx) == SEGC_OK)
		segc_error(F->ctx, SEGC_ERR_INPUT, F->file, 0, 0, "no rows "
			"of measurements");
	return segc_ctx_status(F->ctx) == SEGC_OK ? 0 : -1;
}

/* ---------------------------------------------------------- free names */

/* The kind of the free name 'name' (FIT_...), or -1 after an error. */
static int free_kind(fitter *F, const char *name)
{
	const segc_param *p = segc_model_param(F->s.model, name);

	if (segc_model_resource(F->s.model, name))
		return FIT_RESOURCE;
	if (F->mach && segc_machine_const(F->mach, name))
		return FIT_CONST;
	if (F->mach && segc_machine_cost(F->mach, name))
		return FIT_COST;
	if (p && !p->value)
		return FIT_PARAM;
	segc_error(F->ctx, SEGC_ERR_INPUT, NULL, 0, 0, "--free %s: %s", name,
		p ? "a parameter with a value in the model cannot be fitted "
		"(fit a resource, a machine constant or a parameter without "
		"value)" : "not a resource, machine constant or parameter of "
		"the model");
	return -1;
}

/* Checks the free names and records their kinds. */
static int check_free(fitter *F)
{
	size_t j, k, n = segc_csv_ncols(F->data);
	segc_fit *f = F->fit;

	for (j = 0; j < f->nfree; j++) {
		const char *name = f->names[j];

		f->kind[j] = free_kind(F, name);
		for (k = 0; k < j; k++)
			if (!strcmp(f->names[k], name))
				segc_error(F->ctx, SEGC_ERR_INPUT, NULL, 0, 0,
					"--free %s: given twice", name);
		if (fixed(F, name))
			segc_error(F->ctx, SEGC_ERR_INPUT, NULL, 0, 0, "--free "
				"%s: also fixed with -D %s", name, name);
		for (k = 0; k < n; k++)
			if (!strcmp(F->headers[k], name))
				header_error(F, k, "the free name '%s' is also a "
					"column of the data%s", name, "");
	}
	return segc_ctx_status(F->ctx) == SEGC_OK ? 0 : -1;
}

/* Adds the binding NAME=NAME (the name stays a symbol) to 'b'. */
static void keep_symbol(segc_ctx *ctx, segc_bindings *b, const char *name)
{
	segc_strbuf sb;

	segc_strbuf_init(&sb);
	segc_strbuf_appendf(&sb, "%s=%s", name, name);
	segc_bindings_add(ctx, b, sb.data);
	segc_strbuf_free(&sb);
}

/* The setting of the fit: the request's, with -D kept and the free
 * names and the parameter columns kept as symbols. */
static int make_setting(fitter *F)
{
	const segc_bindings *b = F->r->setting->bindings;
	size_t i, n = segc_bindings_count(b);

	F->bindings = segc_bindings_new();
	for (i = 0; i < n; i++) {
		char *v = segc_expr_to_string(segc_bindings_value(b, i));
		segc_strbuf sb;

		segc_strbuf_init(&sb);
		segc_strbuf_appendf(&sb, "%s=%s", segc_bindings_name(b, i), v);
		segc_bindings_add(F->ctx, F->bindings, sb.data);
		segc_strbuf_free(&sb);
		free(v);
	}
	for (i = 0; i < F->fit->nfree; i++)
		keep_symbol(F->ctx, F->bindings, F->fit->names[i]);
	for (i = 0; i < segc_csv_ncols(F->data); i++)
		if (F->is_param[i])
			keep_symbol(F->ctx, F->bindings, F->headers[i]);
	F->s.bindings = F->bindings;
	return segc_ctx_status(F->ctx) == SEGC_OK ? 0 : -1;
}

/* --------------------------------------------------------- the formula */

/* The column of the parameter 'name', or (size_t)-1. */
static size_t param_column(const fitter *F, const char *name)
{
	size_t j;

	for (j = 0; j < segc_csv_ncols(F->data); j++)
		if (F->is_param[j] && !strcmp(F->headers[j], name))
			return j;
	return (size_t)-1;
}

/* The index of free name 'name', or (size_t)-1. */
static size_t free_index(const fitter *F, const char *name)
{
	size_t j;

	for (j = 0; j < F->fit->nfree; j++)
		if (!strcmp(F->fit->names[j], name))
			return j;
	return (size_t)-1;
}

/* Checks that every name of part 'P' has a value (a column or free) and
 * that no call is left uninterpreted. */
static void check_part_names(fitter *F, const part *P)
{
	const char **v;
	size_t i, n = segc_output_names(P->f, 0, &v);

	for (i = 0; i < n; i++)
		if (param_column(F, v[i]) == (size_t)-1 &&
		    free_index(F, v[i]) == (size_t)-1)
			segc_error(F->ctx, SEGC_ERR_INPUT, F->file,
				segc_csv_line(F->data, (size_t)-1), 0, "'%s' (in "
				"the formula of %s) has no value: give a column %s, "
				"-D %s=VALUE or a machine that binds it", v[i],
				segc_component_name(P->comp), v[i], v[i]);
	free(v);
	n = segc_output_names(P->f, 1, &v);
	for (i = 0; i < n; i++)
		segc_error(F->ctx, SEGC_ERR_INPUT, F->model_file, 0, 0, "the "
			"function '%s' is not defined (an uninterpreted call): "
			"give a machine that defines it", v[i]);
	free(v);
}

/* Derives the formula of every measured component and checks its
 * names; each free name must occur in one of them. */
static int derive_parts(fitter *F)
{
	size_t k, j;
	segc_expr *f[4];
	unsigned mask = 0;

	for (k = 0; k < F->nparts; k++)
		mask |= 1u << F->parts[k].comp;
	if (segc_derive_components(F->ctx, &F->s, SEGC_DERIVE_CANONICAL, mask,
			f))
		return -1;
	for (k = 0; k < F->nparts; k++) {
		F->parts[k].f = f[F->parts[k].comp];
		check_part_names(F, &F->parts[k]);
	}
	for (j = 0; j < F->fit->nfree; j++) {
		for (k = 0; k < F->nparts; k++)
			if (segc_expr_has_sym(F->parts[k].f, F->fit->names[j]))
				break;
		if (k == F->nparts)
			segc_error(F->ctx, SEGC_ERR_INPUT, NULL, 0, 0, "--free "
				"%s: '%s' does not occur in the formula of the "
				"measured %s", F->fit->names[j], F->fit->names[j],
				F->nparts == 1 ? "component" : "components");
	}
	return segc_ctx_status(F->ctx) == SEGC_OK ? 0 : -1;
}

/* 'e' with free name j set to 1 (j < nfree, else none) and every other
 * free name to 0, in canonical form; NULL when that fails. */
static segc_expr *at_unit(fitter *F, segc_ctx *scratch,
	const segc_domains *dom, const segc_expr *e, size_t unit)
{
	segc_expr *zero = segc_expr_int(0), *one = segc_expr_int(1);
	segc_expr *r = segc_expr_copy((segc_expr *)e);
	size_t j;

	for (j = 0; j < F->fit->nfree; j++)
		r = segc_expr_subst(r, F->fit->names[j], j == unit ? one : zero);
	segc_expr_free(zero);
	segc_expr_free(one);
	return segc_canonical(scratch, dom, r);
}

/* Sets the coefficient 'c' from its canonical expression 'e' (taken). */
static void set_coef(fitter *F, coef *c, segc_expr *e)
{
	c->e = e;
	c->kind = COEF_EXPR;
	if (segc_expr_is_num(e))
		c->kind = COEF_NUM;
	else if (segc_expr_kind(e) == SEGC_SYM &&
	    (c->col = param_column(F, segc_expr_name(e))) != (size_t)-1)
		c->kind = COEF_COLUMN;
}

/* Splits part 'P' into its coefficients: c_0 = f at x = 0, c_j = f at
 * x = e_j minus c_0; returns 0 when f = c_0 + sum_j c_j x_j exactly
 * (canonical forms are unique), -1 when it is not linear. */
static int split_part(fitter *F, segc_ctx *scratch, const segc_domains *dom,
	part *P)
{
	size_t j, n = F->fit->nfree;
	segc_expr *rest, *c0;

	P->c = segc_xcalloc(n + 1, sizeof *P->c);
	c0 = at_unit(F, scratch, dom, P->f, n);
	if (!c0)
		return -1;
	set_coef(F, &P->c[0], c0);
	rest = segc_expr_sub2(segc_expr_copy(P->f), segc_expr_copy(c0));
	for (j = 0; j < n; j++) {
		segc_expr *cj = at_unit(F, scratch, dom, P->f, j);

		if (cj)
			cj = segc_canonical(scratch, dom, segc_expr_sub2(cj,
				segc_expr_copy(c0)));
		if (!cj) {
			segc_expr_free(rest);
			return -1;
		}
		set_coef(F, &P->c[1 + j], cj);
		rest = segc_expr_sub2(rest, segc_expr_mul2(segc_expr_copy(cj),
			segc_expr_sym(F->fit->names[j])));
	}
	rest = segc_canonical(scratch, dom, rest);
	j = rest && segc_expr_is_zero(rest);
	segc_expr_free(rest);
	return j ? 0 : -1;
}

/* Non-zero when free name 'j' alone enters 'f' nonlinearly: f is not
 * f|x_j=0 + x_j (f|x_j=1 - f|x_j=0). */
static int nonlinear_in(fitter *F, segc_ctx *scratch,
	const segc_domains *dom, const segc_expr *f, size_t j)
{
	const char *x = F->fit->names[j];
	segc_expr *zero = segc_expr_int(0), *one = segc_expr_int(1);
	segc_expr *f0 = segc_expr_subst(segc_expr_copy((segc_expr *)f), x, zero);
	segc_expr *f1 = segc_expr_subst(segc_expr_copy((segc_expr *)f), x, one);
	segc_expr *d;
	int r;

	segc_expr_free(zero);
	segc_expr_free(one);
	d = segc_expr_sub2(segc_expr_add2(segc_expr_copy(f0),
		segc_expr_mul2(segc_expr_sym(x), segc_expr_sub2(f1, f0))),
		segc_expr_copy((segc_expr *)f));
	d = segc_canonical(scratch, dom, d);
	r = !d || !segc_expr_is_zero(d);
	segc_expr_free(d);
	return r;
}

/* Non-zero when 'name' is an item of the list "a, b, c" 'list'. */
static int listed(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *p = list;

	while (p && (p = strstr(p, name)) != NULL) {
		if ((p == list || p[-1] == ' ') && (p[n] == ',' || !p[n]))
			return 1;
		p += n;
	}
	return 0;
}

/* Records that part 'P' is not linear in the free names, with the
 * names that enter it nonlinearly on their own: the fit will be
 * nonlinear. */
static void note_nonlinear(fitter *F, segc_ctx *scratch,
	const segc_domains *dom, const part *P)
{
	segc_strbuf sb;
	size_t j;

	segc_strbuf_init(&sb);
	if (F->fit->nonlinear_in)
		segc_strbuf_appendf(&sb, "%s", F->fit->nonlinear_in);
	for (j = 0; j < F->fit->nfree; j++)
		if (nonlinear_in(F, scratch, dom, P->f, j) &&
		    !listed(sb.data, F->fit->names[j]))
			segc_strbuf_appendf(&sb, "%s%s", sb.len ? ", " : "",
				F->fit->names[j]);
	free(F->fit->nonlinear_in);
	F->fit->nonlinear_in = segc_xstrdup(sb.len ? sb.data :
		"products of free names");
	F->fit->nonlinear = 1;
	segc_strbuf_free(&sb);
}

/* Splits every part, under the domains of the setting; a scratch
 * context takes the failures of substitutions (a free name set to 0
 * where it divides), which only mean that the formula is not linear:
 * then the fit is nonlinear. */
static int split_parts(fitter *F)
{
	segc_domains *dom = segc_setting_domains(F->ctx, &F->s);
	segc_ctx *scratch = segc_ctx_new();
	size_t k;

	*segc_ctx_limits(scratch) = *segc_ctx_limits(F->ctx);
	for (k = 0; dom && k < F->nparts; k++) {
		if (!split_part(F, scratch, dom, &F->parts[k]))
			continue;
		if (segc_ctx_status(scratch) == SEGC_ERR_LIMIT)
			segc_error(F->ctx, SEGC_ERR_LIMIT, F->model_file, 0, 0,
				"%s", segc_ctx_diag(scratch, 0)->message);
		else
			note_nonlinear(F, scratch, dom, &F->parts[k]);
		segc_ctx_clear(scratch);
	}
	segc_ctx_free(scratch);
	segc_domains_free(dom);
	return dom && segc_ctx_status(F->ctx) == SEGC_OK ? 0 : -1;
}

/* ---------------------------------------------------------- the rows */

/* Checks the values of the parameter columns against the domains the
 * model declares (the canonical form may rely on them). */
static int check_domains(fitter *F)
{
	segc_domains *dom = segc_setting_domains(F->ctx, &F->s);
	size_t i, j, n = segc_csv_nrows(F->data);

	for (j = 0; dom && j < segc_csv_ncols(F->data); j++) {
		mpq_srcptr lo, hi;
		int integer;

		if (!F->is_param[j] ||
		    !segc_domains_get(dom, F->headers[j], &lo, &hi, &integer))
			continue;
		for (i = 0; i < n && !segc_ctx_full(F->ctx); i++) {
			mpq_srcptr v = segc_csv_row(F->data, i)[j];

			if ((lo && mpq_cmp(v, lo) < 0) || (hi && mpq_cmp(v, hi) >
			    0) || (integer && mpz_cmp_ui(mpq_denref(v), 1)))
				segc_error(F->ctx, SEGC_ERR_INPUT, F->file,
					segc_csv_line(F->data, i), segc_csv_col(F->data,
					i, j), "the value of '%s' lies outside the domain "
					"the model declares for it%s", F->headers[j],
					integer ? " (an integer)" : "");
		}
	}
	segc_domains_free(dom);
	return dom && segc_ctx_status(F->ctx) == SEGC_OK ? 0 : -1;
}

/* Evaluates coefficient 'c' at row 'i' into 'q'; -1 after an error. */
static int coef_value(fitter *F, const coef *c, size_t i, mpq_t q)
{
	const mpq_t *row = segc_csv_row(F->data, i);
	int rc;

	if (c->kind == COEF_NUM) {
		mpq_set(q, segc_expr_value(c->e));
		return 0;
	}
	if (c->kind == COEF_COLUMN) {
		mpq_set(q, row[c->col]);
		return 0;
	}
	rc = segc_expr_eval_q(q, c->e, segc_csv_ncols(F->data), F->headers,
		row);
	if (!rc)
		return 0;
	if (rc == -2)
		segc_error(F->ctx, SEGC_ERR_LIMIT, F->file, segc_csv_line(F->data,
			i), 0, "the exact value of the formula at this row is too "
			"large: a power of more than 2^24 bits, or a sum of more "
			"than 10^6 terms (fixed limits of exact evaluation)");
	else
		segc_error(F->ctx, SEGC_ERR_INPUT, F->file, segc_csv_line(
			F->data, i), 0, "the formula has no exact rational value "
			"at this row");
	return -1;
}

/* The equation of part 'P' at row 'i' in F->a: the coefficients of the
 * free names, then the measured value minus c_0. */
static int equation(fitter *F, const part *P, size_t i)
{
	size_t j, n = F->fit->nfree;

	for (j = 0; j <= n; j++)
		if (coef_value(F, &P->c[j], i, F->a[j ? j - 1 : n]))
			return -1;
	mpq_sub(F->a[n], segc_csv_row(F->data, i)[P->col], F->a[n]);
	return 0;
}

/* Divides the equation in F->a by the measured value of part 'P' at row
 * 'i' (relative weights); -1 when that value is zero. */
static int weigh_relative(fitter *F, const part *P, size_t i)
{
	mpq_srcptr m = segc_csv_row(F->data, i)[P->col];
	size_t j;

	if (!mpq_sgn(m)) {
		segc_error(F->ctx, SEGC_ERR_INPUT, F->file,
			segc_csv_line(F->data, i), segc_csv_col(F->data, i,
			P->col), "a measured value of 0 has no relative error "
			"(--weight relative)");
		return -1;
	}
	for (j = 0; j <= F->fit->nfree; j++)
		mpq_div(F->a[j], F->a[j], m);
	return 0;
}

/* Non-zero when the equation of 'P' at row 'i' is left out (see
 * fit_run.h). */
int segc_fit_left_out_eq(const fitter *F, const part *P, size_t i)
{
	return F->r->weight == SEGC_FIT_RELATIVE &&
		!mpq_sgn(segc_csv_row(F->data, i)[P->col]);
}

/* Records the equations left out (measured as 0 under relative
 * weights): their count and lines; refuses when nothing is left. */
static int note_left_out(fitter *F)
{
	size_t i, k, n = segc_csv_nrows(F->data), kept = 0;
	segc_strbuf sb;

	segc_strbuf_init(&sb);
	for (i = 0; i < n; i++) {
		int line = 0;

		for (k = 0; k < F->nparts; k++) {
			if (!segc_fit_left_out_eq(F, &F->parts[k], i)) {
				kept++;
				continue;
			}
			F->fit->nleft_out++;
			if (!line++)
				segc_strbuf_appendf(&sb, "%s%lu", sb.len ? ", " :
					"", segc_csv_line(F->data, i));
		}
	}
	if (sb.len)
		F->fit->left_out = segc_xstrdup(sb.data);
	segc_strbuf_free(&sb);
	if (!kept && n)
		segc_error(F->ctx, SEGC_ERR_INPUT, F->file, 0, 0, "every measured "
			"value is 0, and a 0 has no relative error (--weight "
			"relative): nothing is left to fit");
	return kept || !n ? 0 : -1;
}

/* Adds the equations of every row to the normal equations. */
static int accumulate(fitter *F)
{
	size_t i, k, n = segc_csv_nrows(F->data);

	for (i = 0; i < n && !segc_ctx_full(F->ctx); i++)
		for (k = 0; k < F->nparts; k++) {
			if (segc_fit_left_out_eq(F, &F->parts[k], i))
				continue;
			if (equation(F, &F->parts[k], i) ||
			    (F->r->weight == SEGC_FIT_RELATIVE &&
			    weigh_relative(F, &F->parts[k], i)))
				continue;
			segc_lsq_add(F->lsq, (const mpq_t *)F->a,
				F->a[F->fit->nfree]);
		}
	return segc_ctx_status(F->ctx) == SEGC_OK ? 0 : -1;
}

/* Reports the free names that dependent unknown 'j' cannot be told
 * apart from. */
static void report_dependency(fitter *F, size_t j, size_t rank)
{
	size_t i, n = F->fit->nfree, neq = segc_csv_nrows(F->data) * F->nparts;
	mpq_t *v = segc_xcalloc(n, sizeof *v);
	segc_strbuf sb;

	for (i = 0; i < n; i++)
		mpq_init(v[i]);
	segc_lsq_dependency(F->lsq, j, v);
	segc_strbuf_init(&sb);
	for (i = 0; i < j; i++)
		if (mpq_sgn(v[i]))
			segc_strbuf_appendf(&sb, "%s%s", sb.len ? ", " : "",
				F->fit->names[i]);
	if (sb.len)
		segc_error(F->ctx, SEGC_ERR_INPUT, F->file, 0, 0, "the equations "
			"cannot tell apart %s and %s: only a combination of them "
			"is determined (rank %lu of %lu free names, %lu equations); "
			"add rows where they vary independently or fix some with "
			"-D", sb.data, F->fit->names[j], (unsigned long)rank,
			(unsigned long)n, (unsigned long)neq);
	else
		segc_error(F->ctx, SEGC_ERR_INPUT, F->file, 0, 0, "the free "
			"name '%s' has the coefficient 0 in every equation: the "
			"data say nothing about it", F->fit->names[j]);
	segc_strbuf_free(&sb);
	for (i = 0; i < n; i++)
		mpq_clear(v[i]);
	free(v);
}

/* Solves the normal equations; reports a rank deficiency. */
static int solve(fitter *F)
{
	size_t n = F->fit->nfree, j, rank;
	int *dep = segc_xcalloc(n + 1, sizeof *dep);

	rank = segc_lsq_solve(F->lsq, F->fit->x, dep);
	for (j = 0; rank < n && j < n; j++)
		if (dep[j])
			report_dependency(F, j, rank);
	free(dep);
	return rank == n ? 0 : -1;
}

/* Exact starting values by linearising (see fit_run.h): the parts are
 * swapped for their transforms, split and fitted in a scratch context
 * (errors there only mean that it does not work), then put back. */
int segc_fit_linearised(fitter *F, const int *recip, mpq_t *y)
{
	size_t j, k, n = F->fit->nfree;
	segc_domains *dom = segc_setting_domains(F->ctx, &F->s);
	segc_ctx *scratch = segc_ctx_new(), *ctx = F->ctx;
	segc_lsq *saved_lsq = F->lsq;
	part saved[4];
	int rc = dom ? 0 : -1, *dep = segc_xcalloc(n + 1, sizeof *dep);

	*segc_ctx_limits(scratch) = *segc_ctx_limits(ctx);
	memcpy(saved, F->parts, sizeof saved);
	for (k = 0; k < F->nparts; k++) {
		segc_expr *g = segc_expr_copy(saved[k].f);

		for (j = 0; j < n; j++)
			if (recip[j])
				g = segc_expr_subst(g, F->fit->names[j], segc_expr_div2(
					segc_expr_int(1), segc_expr_sym(F->fit->names[j])));
		F->parts[k].f = segc_canonical(scratch, dom, g);
		F->parts[k].c = NULL;
		if (!rc && (!F->parts[k].f ||
		    split_part(F, scratch, dom, &F->parts[k])))
			rc = -1;
	}
	F->ctx = scratch;
	F->lsq = segc_lsq_new(n);
	if (!rc)
		rc = accumulate(F) || segc_lsq_solve(F->lsq, y, dep) != n ? -1 : 0;
	F->ctx = ctx;
	segc_lsq_free(F->lsq);
	F->lsq = saved_lsq;
	for (k = 0; k < F->nparts; k++) {
		for (j = 0; F->parts[k].c && j <= n; j++)
			segc_expr_free(F->parts[k].c[j].e);
		free(F->parts[k].c);
		segc_expr_free(F->parts[k].f);
	}
	memcpy(F->parts, saved, sizeof saved);
	free(dep);
	segc_ctx_free(scratch);
	segc_domains_free(dom);
	return rc;
}

/* Non-zero when the exact solution puts a free name outside its
 * declared domain: records which in fit->outside and makes the fit a
 * nonlinear one, within the domains. */
static int outside_domain(fitter *F)
{
	segc_domains *dom = segc_setting_domains(F->ctx, &F->s);
	size_t j;
	segc_strbuf sb;

	segc_strbuf_init(&sb);
	for (j = 0; dom && j < F->fit->nfree; j++) {
		mpq_srcptr lo, hi;
		int integer;
		char *v;

		if (!segc_domains_get(dom, F->fit->names[j], &lo, &hi, &integer) ||
		    !((lo && mpq_cmp(F->fit->x[j], lo) < 0) || (hi &&
		    mpq_cmp(F->fit->x[j], hi) > 0)))
			continue;
		v = mpq_get_str(NULL, 10, F->fit->x[j]);
		segc_strbuf_appendf(&sb, "%s%s = %s", sb.len ? ", " : "",
			F->fit->names[j], v);
		free(v);
	}
	segc_domains_free(dom);
	if (sb.len) {
		F->fit->outside = segc_xstrdup(sb.data);
		F->fit->nonlinear = 1;
	}
	segc_strbuf_free(&sb);
	return F->fit->nonlinear;
}

/* ------------------------------------------------------ the equations */

/* Appends equation (row 'i', part 'P') with the fitted value of F->a. */
static void add_equation(fitter *F, const part *P, size_t i)
{
	segc_fit *f = F->fit;
	size_t j, n = f->nfree;
	mpq_srcptr measured = segc_csv_row(F->data, i)[P->col];
	mpq_t t, fitted;

	mpq_init(t);
	mpq_init(fitted);
	mpq_sub(fitted, measured, F->a[n]);
	for (j = 0; j < n; j++) {
		mpq_mul(t, F->a[j], f->x[j]);
		mpq_add(fitted, fitted, t);
	}
	segc_fit_append(f, i, P->comp, measured, fitted);
	mpq_clear(t);
	mpq_clear(fitted);
}

/* Evaluates every equation with the fitted values. */
static int evaluate(fitter *F)
{
	size_t i, k, n = segc_csv_nrows(F->data);

	for (i = 0; i < n; i++)
		for (k = 0; k < F->nparts; k++) {
			if (segc_fit_left_out_eq(F, &F->parts[k], i))
				continue;
			if (equation(F, &F->parts[k], i))
				return -1;
			add_equation(F, &F->parts[k], i);
		}
	segc_fit_statistics(F->fit);
	return 0;
}

/* --------------------------------------------------------- the run */

/* A new, empty result for the free names of 'r'. */
static segc_fit *fit_new(const segc_fit_request *r)
{
	segc_fit *f = segc_xcalloc(1, sizeof *f);
	size_t j;

	f->nfree = r->nfree;
	f->names = segc_xcalloc(r->nfree + 1, sizeof *f->names);
	f->kind = segc_xcalloc(r->nfree + 1, sizeof *f->kind);
	f->x = segc_xcalloc(r->nfree + 1, sizeof *f->x);
	for (j = 0; j < r->nfree; j++) {
		f->names[j] = segc_xstrdup(r->free[j]);
		mpq_init(f->x[j]);
	}
	mpq_init(f->r2);
	mpq_init(f->max_rel);
	return f;
}

/* Releases what the run holds besides the result. */
static void fitter_clear(fitter *F)
{
	size_t k, j;

	for (k = 0; k < F->nparts; k++) {
		for (j = 0; F->parts[k].c && j <= F->fit->nfree; j++)
			segc_expr_free(F->parts[k].c[j].e);
		free(F->parts[k].c);
		segc_expr_free(F->parts[k].f);
	}
	for (j = 0; F->a && j <= F->fit->nfree; j++)
		mpq_clear(F->a[j]);
	free(F->a);
	segc_lsq_free(F->lsq);
	segc_bindings_free(F->bindings);
	free(F->headers);
	free(F->is_param);
}

/* Fits the free names of 'r' (see fit.h). */
segc_fit *segc_fit_run(segc_ctx *ctx, const segc_fit_request *r)
{
	fitter F;
	size_t j;
	int rc;

	memset(&F, 0, sizeof F);
	F.ctx = ctx;
	F.r = r;
	F.data = r->data;
	F.file = segc_csv_file(r->data);
	F.model_file = r->setting->model->file;
	F.s = *r->setting;
	F.mach = segc_setting_machine(r->setting);
	F.fit = fit_new(r);
	F.lsq = segc_lsq_new(r->nfree);
	F.a = segc_xcalloc(r->nfree + 1, sizeof *F.a);
	for (j = 0; j <= r->nfree; j++)
		mpq_init(F.a[j]);
	rc = classify_columns(&F) || check_free(&F) || make_setting(&F) ||
		derive_parts(&F) || split_parts(&F) || check_domains(&F) ||
		note_left_out(&F) ||
		(F.fit->nonlinear ? segc_fit_nonlinear_run(&F) :
		accumulate(&F) || solve(&F) || (outside_domain(&F) ?
		segc_fit_nonlinear_run(&F) : evaluate(&F)));
	fitter_clear(&F);
	if (rc || segc_ctx_status(ctx) != SEGC_OK) {
		segc_fit_free(F.fit);
		return NULL;
	}
	return F.fit;
}
