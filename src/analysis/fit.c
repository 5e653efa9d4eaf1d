/* fit.c - the fit of a model's formula to measured times (segc fit):
 * the columns of the data and the free names checked, the setting and
 * the formula of every measured component derived, the rows checked
 * against the domains, then the exact linear fit (fit_linear.c) or the
 * nonlinear one (fit_nl.c). */
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
		if (segc_fit_param_column(F, v[i]) == (size_t)-1 &&
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
		for (j = 0; F->parts[k].c && j <= F->fit->nfree; j++) {
			segc_expr_free(F->parts[k].c[j].e);
			segc_eval_plan_free(F->parts[k].c[j].plan);
		}
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
		derive_parts(&F) || segc_fit_split_parts(&F) || check_domains(&F) ||
		segc_fit_note_left_out(&F) ||
		(F.fit->nonlinear ? segc_fit_nonlinear_run(&F) :
		segc_fit_accumulate(&F) || segc_fit_solve(&F) || (segc_fit_outside_domain(&F) ?
		segc_fit_nonlinear_run(&F) : segc_fit_evaluate(&F)));
	fitter_clear(&F);
	if (rc || segc_ctx_status(ctx) != SEGC_OK) {
		segc_fit_free(F.fit);
		return NULL;
	}
	return F.fit;
}
