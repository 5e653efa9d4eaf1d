/* fit_linear.c - the exact linear fit of segc fit (fit_run.h): the
 * formula of each measured part split into c_0 + sum_j c_j x_j (or marked
 * nonlinear, with the names that make it so), the equations of the rows
 * accumulated into exact normal equations (lsq.c) and solved, a solution
 * outside the domains noticed, and every equation evaluated with the
 * fitted values; also the linearised start of the nonlinear fit. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "output/output.h"
#include "base/util.h"

#include "analysis/fit_run.h"

/* --------------------------------------------------------- the split */

/* The column of the parameter 'name', or (size_t)-1 (see fit_run.h). */
size_t segc_fit_param_column(const fitter *F, const char *name)
{
	size_t j;

	for (j = 0; j < segc_csv_ncols(F->data); j++)
		if (F->is_param[j] && !strcmp(F->headers[j], name))
			return j;
	return (size_t)-1;
}

/* 'e' with free name j set to 1 (j < nfree, else none) and every other
 * free name to 0, in canonical form; NULL when that fails. */
static segc_expr *at_unit(fitter *F, segc_ctx *scratch,
	const segc_domains *dom, const segc_expr *e, size_t unit)
{
	segc_expr *zero = segc_expr_int(0), *one = segc_expr_int(1);
	segc_expr *r = segc_expr_copy(e);
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
	    (c->col = segc_fit_param_column(F, segc_expr_name(e))) != (size_t)-1)
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
static int enters_nonlinearly(fitter *F, segc_ctx *scratch,
	const segc_domains *dom, const segc_expr *f, size_t j)
{
	const char *x = F->fit->names[j];
	segc_expr *zero = segc_expr_int(0), *one = segc_expr_int(1);
	segc_expr *f0 = segc_expr_subst(segc_expr_copy(f), x, zero);
	segc_expr *f1 = segc_expr_subst(segc_expr_copy(f), x, one);
	segc_expr *d;
	int r;

	segc_expr_free(zero);
	segc_expr_free(one);
	d = segc_expr_sub2(segc_expr_add2(segc_expr_copy(f0),
		segc_expr_mul2(segc_expr_sym(x), segc_expr_sub2(f1, f0))),
		segc_expr_copy(f));
	d = segc_canonical(scratch, dom, d);
	r = !d || !segc_expr_is_zero(d);
	segc_expr_free(d);
	return r;
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
		if (enters_nonlinearly(F, scratch, dom, P->f, j) &&
		    !segc_list_has(sb.data, F->fit->names[j]))
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
int segc_fit_split_parts(fitter *F)
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

/* ------------------------------------------------------ the equations */

/* Evaluates coefficient 'c' at row 'i' into 'q' by its plan (compiled
 * at the first row): -1 after an error. */
static int coef_value(fitter *F, coef *c, size_t i, mpq_t q)
{
	const mpq_t *row = segc_csv_row(F->data, i);
	segc_ctx *scratch;
	segc_point pt;
	int rc;

	if (c->kind == COEF_NUM) {
		mpq_set(q, segc_expr_value(c->e));
		return 0;
	}
	if (c->kind == COEF_COLUMN) {
		mpq_set(q, row[c->col]);
		return 0;
	}
	pt.n = segc_csv_ncols(F->data);
	pt.names = F->headers;
	pt.values = row;
	scratch = segc_ctx_new();
	*segc_ctx_limits(scratch) = *segc_ctx_limits(F->ctx);
	if (!c->plan)
		c->plan = segc_eval_plan_new(scratch, c->e, &pt);
	rc = c->plan ? segc_eval_plan_exact(scratch, q, c->plan, &pt, NULL) :
		-1;
	if (!rc) {
		segc_ctx_free(scratch);
		return 0;
	}
	if (segc_ctx_status(scratch) == SEGC_ERR_LIMIT) {
		segc_error(F->ctx, SEGC_ERR_LIMIT, F->file, segc_csv_line(F->data,
			i), 0, "%s", segc_ctx_diag(scratch, 0)->message);
		segc_ctx_free(scratch);
		return -1;
	}
	segc_ctx_free(scratch);
	/* no value: the exact walk tells a value too large to keep (a
	 * limit) from one that is not rational */
	rc = segc_expr_eval_q(q, c->e, pt.n, F->headers, row);
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
int segc_fit_note_left_out(fitter *F)
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
int segc_fit_accumulate(fitter *F)
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
int segc_fit_solve(fitter *F)
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
		rc = segc_fit_accumulate(F) ||
			segc_lsq_solve(F->lsq, y, dep) != n ? -1 : 0;
	F->ctx = ctx;
	segc_lsq_free(F->lsq);
	F->lsq = saved_lsq;
	for (k = 0; k < F->nparts; k++) {
		for (j = 0; F->parts[k].c && j <= n; j++) {
			segc_expr_free(F->parts[k].c[j].e);
			segc_eval_plan_free(F->parts[k].c[j].plan);
		}
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
int segc_fit_outside_domain(fitter *F)
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
int segc_fit_evaluate(fitter *F)
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
