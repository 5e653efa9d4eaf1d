/* fit_nl.c - the fit of a formula that is not linear in its free names
 * (segc fit, doc/fit.md): the exact derivatives of every measured
 * component with respect to each free name (calculus.c; a central
 * difference in MPFR where there is none, as for log2 of a free name or
 * a free name in an exponent), the starting values (exact least squares
 * of the formula made linear by taking reciprocals of the names it is
 * nonlinear in, where that works), Levenberg-Marquardt in MPFR (lm.c)
 * within the domains of the free names, then the rank of the Jacobian,
 * the bounds that hold, the fitted values rounded to 20 significant
 * digits and every equation evaluated. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include <segc/eval.h>
#include <segc/analysis.h>

#include "analysis/fit_run.h"
#include "base/util.h"

#define FIT_PREC 128
#define FIT_ITERATIONS 200
#define FIT_DIGITS 20

/* The row callback's state beyond the fitter: eq[i] the equation i of
 * the solve, row * nparts + part (equations left out skipped). */
typedef struct nl {
	fitter *F;
	size_t ncols, n;
	size_t *eq;
	mpfr_t v, h, t;
	/* the formulas evaluated so far and their plans, compiled at the
	 * first point and run at each after */
	const segc_expr **pe;
	segc_eval_plan **pp;
	size_t np, capp;
} nl;

/* Sets the point's free names to 'x' (exact rationals of the binary
 * numbers). */
static void set_x(nl *S, mpfr_t *x)
{
	size_t j;

	for (j = 0; j < S->n; j++)
		mpfr_get_q(S->F->pt[S->ncols + j], x[j]);
}

/* The plan of 'e' for the points of the fit, compiled at its first use;
 * NULL (recorded in the scratch context) when it cannot be. */
static const segc_eval_plan *plan_of(nl *S, const segc_expr *e,
	const segc_point *pt)
{
	segc_eval_plan *ep;
	size_t i;

	for (i = 0; i < S->np; i++)
		if (S->pe[i] == e)
			return S->pp[i];
	if (!(ep = segc_eval_plan_new(S->F->scratch, e, pt)))
		return NULL;
	if (S->np == S->capp) {
		S->capp = S->capp ? 2 * S->capp : 8;
		S->pe = segc_xrealloc(S->pe, segc_xmul_size(S->capp,
			sizeof(*S->pe)));
		S->pp = segc_xrealloc(S->pp, segc_xmul_size(S->capp,
			sizeof(*S->pp)));
	}
	S->pe[S->np] = e;
	S->pp[S->np++] = ep;
	return ep;
}

/* Evaluates 'e' at the point into 'out' through its plan; -1 when it
 * cannot be. */
static int nl_eval_at(nl *S, mpfr_ptr out, const segc_expr *e)
{
	const segc_eval_plan *ep;
	segc_point pt;

	pt.n = S->ncols + S->n;
	pt.names = S->F->ptnames;
	pt.values = (const mpq_t *)S->F->pt;
	ep = plan_of(S, e, &pt);
	return ep ? segc_eval_plan_mpfr(S->F->scratch, out, ep, &pt, NULL) :
		-1;
}

/* The derivative of 'f' with respect to free name 'j' by a central
 * difference with the step 2^(-prec/3) (relative to x_j when it is not
 * 0) into 'out'. */
static int central(nl *S, mpfr_ptr out, const segc_expr *f, mpfr_t *x,
	size_t j)
{
	mpq_ptr q = S->F->pt[S->ncols + j];
	long e = -(long)(FIT_PREC / 3);
	int rc;

	mpfr_set_ui_2exp(S->h, 1, e, MPFR_RNDN);
	if (!mpfr_zero_p(x[j])) {
		mpfr_abs(S->t, x[j], MPFR_RNDN);
		mpfr_mul(S->h, S->h, S->t, MPFR_RNDN);
	}
	mpfr_add(S->t, x[j], S->h, MPFR_RNDN);
	mpfr_get_q(q, S->t);
	rc = nl_eval_at(S, out, f);
	mpfr_sub(S->t, x[j], S->h, MPFR_RNDN);
	mpfr_get_q(q, S->t);
	rc = rc || nl_eval_at(S, S->t, f);
	mpfr_get_q(q, x[j]);
	if (rc)
		return -1;
	mpfr_sub(out, out, S->t, MPFR_RNDN);
	mpfr_mul_2ui(S->h, S->h, 1, MPFR_RNDN);
	mpfr_div(out, out, S->h, MPFR_RNDN);
	return 0;
}

/* Equation 'i' (row i / nparts, part i % nparts) at 'x' (lm.c). */
static int row_fn(void *arg, size_t i, mpfr_t *x, mpfr_ptr r, mpfr_t *jac)
{
	nl *S = arg;
	fitter *F = S->F;
	size_t row = S->eq[i] / F->nparts, k = S->eq[i] % F->nparts, j;
	const part *P = &F->parts[k];
	const mpq_t *cells = segc_csv_row(F->data, row);
	mpq_srcptr y = cells[P->col];

	if (segc_ctx_status(F->scratch) != SEGC_OK)
		segc_ctx_clear(F->scratch);
	for (j = 0; j < S->ncols; j++)
		mpq_set(F->pt[j], cells[j]);
	set_x(S, x);
	if (nl_eval_at(S, S->v, P->f))
		return -1;
	mpfr_set_q(r, y, MPFR_RNDN);
	mpfr_sub(r, r, S->v, MPFR_RNDN);
	if (F->r->weight == SEGC_FIT_RELATIVE)
		mpfr_div_q(r, r, y, MPFR_RNDN);
	for (j = 0; jac && j < S->n; j++) {
		if (F->deriv[k][j] ? nl_eval_at(S, jac[j], F->deriv[k][j]) :
		    central(S, jac[j], P->f, x, j))
			return -1;
		if (F->r->weight == SEGC_FIT_RELATIVE)
			mpfr_div_q(jac[j], jac[j], y, MPFR_RNDN);
	}
	return 0;
}

/* The derivatives of every part: exact where calculus.c has one, NULL
 * (a central difference) where it refuses. */
static void derivatives(fitter *F)
{
	size_t k, j, n = F->fit->nfree;

	F->deriv = segc_xcalloc(F->nparts, sizeof *F->deriv);
	for (k = 0; k < F->nparts; k++) {
		F->deriv[k] = segc_xcalloc(n + 1, sizeof **F->deriv);
		for (j = 0; j < n; j++) {
			F->deriv[k][j] = segc_expr_diff(F->scratch,
				F->parts[k].f, F->fit->names[j]);
			segc_ctx_clear(F->scratch);
		}
	}
}

/* Starts the names from the exact least-squares fit of the formula made
 * linear by taking the reciprocals of the names it is nonlinear in, when
 * that works (x_j = 1/y_j, none of them 0); says so in start_from. */
static void linearised_start(fitter *F, mpfr_t *x)
{
	size_t j, n = F->fit->nfree;
	int *recip = segc_xcalloc(n + 1, sizeof *recip), any = 0, ok;
	mpq_t *y = segc_xcalloc(n + 1, sizeof *y);
	segc_strbuf sb;

	for (j = 0; j < n; j++) {
		mpq_init(y[j]);
		recip[j] = segc_list_has(F->fit->nonlinear_in, F->fit->names[j]);
		any |= recip[j];
	}
	ok = any && !segc_fit_linearised(F, recip, y);
	for (j = 0; ok && j < n; j++)
		ok = !recip[j] || mpq_sgn(y[j]);
	segc_strbuf_init(&sb);
	for (j = 0; ok && j < n; j++) {
		if (recip[j]) {
			mpq_inv(y[j], y[j]);
			segc_strbuf_appendf(&sb, "%s1/%s", sb.len ? ", " : "",
				F->fit->names[j]);
		}
		mpfr_set_q(x[j], y[j], MPFR_RNDN);
	}
	if (ok)
		F->fit->start_from = segc_xstrdup(sb.data);
	segc_strbuf_free(&sb);
	for (j = 0; j < n; j++)
		mpq_clear(y[j]);
	free(y);
	free(recip);
}

/* Sets 'x' to the starting values: the exact linear solution when it
 * lay outside the domains, else the linearised fit's, or 1; then those
 * of --start. */
static int start(fitter *F, mpfr_t *x)
{
	const segc_fit_request *r = F->r;
	size_t i, j, n = F->fit->nfree;

	for (j = 0; j < n; j++)
		if (F->fit->outside)	/* the exact linear solution */
			mpfr_set_q(x[j], F->fit->x[j], MPFR_RNDN);
		else
			mpfr_set_ui(x[j], 1, MPFR_RNDN);
	if (!F->fit->outside)
		linearised_start(F, x);
	for (i = 0; i < r->nstart; i++) {
		for (j = 0; j < n; j++)
			if (!strcmp(r->start_names[i], F->fit->names[j]))
				break;
		if (j == n)
			segc_error(F->ctx, SEGC_ERR_INPUT, NULL, 0, 0, "--start "
				"%s: '%s' is not one of the --free names",
				r->start_names[i], r->start_names[i]);
		else
			mpfr_set_q(x[j], r->start_values[i], MPFR_RNDN);
	}
	if (r->nstart) {	/* then not only the linearised fit's */
		free(F->fit->start_from);
		F->fit->start_from = NULL;
	}
	return segc_ctx_status(F->ctx) == SEGC_OK ? 0 : -1;
}

/* The domains of the free names as bounds for lm.c ('lo', 'hi' of n
 * entries; the values borrowed from 'dom'). */
static void bounds(fitter *F, const segc_domains *dom, mpq_srcptr *lo,
	mpq_srcptr *hi)
{
	size_t j;
	int integer;

	for (j = 0; j < F->fit->nfree; j++)
		if (!segc_domains_get(dom, F->fit->names[j], &lo[j], &hi[j],
		    &integer))
			lo[j] = hi[j] = NULL;
}

/* Records the bounds that hold at the end ("lat >= 0, ..."). */
static void note_active(fitter *F, const segc_lm *lm, const mpq_srcptr *lo,
	const mpq_srcptr *hi)
{
	segc_strbuf sb;
	size_t j;
	char *v;

	segc_strbuf_init(&sb);
	for (j = 0; j < F->fit->nfree; j++) {
		if (!lm->active[j])
			continue;
		v = mpq_get_str(NULL, 10, lm->active[j] < 0 ? lo[j] : hi[j]);
		segc_strbuf_appendf(&sb, "%s%s %s %s", sb.len ? ", " : "",
			F->fit->names[j], lm->active[j] < 0 ? ">=" : "<=", v);
		free(v);
	}
	if (sb.len)
		F->fit->constrained = segc_xstrdup(sb.data);
	segc_strbuf_free(&sb);
}

/* Reports the free names the Jacobian cannot tell apart. */
static void report_rank(fitter *F, const segc_lm *lm)
{
	size_t i, j, n = F->fit->nfree;
	segc_strbuf sb;

	segc_strbuf_init(&sb);
	for (j = 0; j < n; j++) {
		if (!lm->dependent[j])
			continue;
		segc_strbuf_reset(&sb);
		for (i = 0; i < j; i++)
			if (lm->combination[j * n + i])
				segc_strbuf_appendf(&sb, "%s%s", sb.len ? ", " : "",
					F->fit->names[i]);
		if (sb.len)
			segc_error(F->ctx, SEGC_ERR_INPUT, F->file, 0, 0, "the "
				"equations cannot tell apart %s and %s at the fitted "
				"values: only a combination of them is determined "
				"(the Jacobian has rank %lu of %lu free names, %lu "
				"equations); add rows where they vary independently "
				"or fix some with -D", sb.data, F->fit->names[j],
				(unsigned long)lm->rank, (unsigned long)n,
				(unsigned long)lm->m);
		else
			segc_error(F->ctx, SEGC_ERR_INPUT, F->file, 0, 0, "the "
				"free name '%s' has the derivative 0 in every "
				"equation at the fitted values: the data say nothing "
				"about it", F->fit->names[j]);
	}
	segc_strbuf_free(&sb);
}

/* 'x' rounded to FIT_DIGITS significant digits, as an exact rational
 * into 'q'. */
static void round_decimal(mpq_t q, mpfr_srcptr x)
{
	mpfr_exp_t e;
	char *s = mpfr_get_str(NULL, &e, 10, FIT_DIGITS, x, MPFR_RNDN);
	mpz_t p;

	mpz_init(p);
	mpz_set_str(mpq_numref(q), s, 10);
	mpz_set_ui(mpq_denref(q), 1);
	e -= FIT_DIGITS;
	mpz_ui_pow_ui(p, 10, (unsigned long)(e < 0 ? -e : e));
	if (e < 0)
		mpz_set(mpq_denref(q), p);
	else
		mpz_mul(mpq_numref(q), mpq_numref(q), p);
	mpq_canonicalize(q);
	mpz_clear(p);
	mpfr_free_str(s);
}

/* Every equation's fitted value at 'x'. */
static int equations(nl *S, mpfr_t *x)
{
	fitter *F = S->F;
	size_t i, k, j;
	mpq_t fitted;

	mpq_init(fitted);
	for (i = 0; i < segc_csv_nrows(F->data); i++)
		for (k = 0; k < F->nparts; k++) {
			const mpq_t *cells = segc_csv_row(F->data, i);

			if (segc_fit_left_out_eq(F, &F->parts[k], i))
				continue;

			for (j = 0; j < S->ncols; j++)
				mpq_set(F->pt[j], cells[j]);
			set_x(S, x);
			if (nl_eval_at(S, S->v, F->parts[k].f)) {
				mpq_clear(fitted);
				return -1;
			}
			mpfr_get_q(fitted, S->v);
			segc_fit_append(F->fit, i, F->parts[k].comp,
				cells[F->parts[k].col], fitted);
		}
	mpq_clear(fitted);
	segc_fit_statistics(F->fit);
	return 0;
}

/* Records the scratch context's first diagnostic as an error of the fit
 * at its starting or fitted values. */
static void report_eval(fitter *F, const char *when)
{
	const segc_diag *d = segc_ctx_n_diags(F->scratch) ?
		segc_ctx_diag(F->scratch, 0) : NULL;

	segc_error(F->ctx, SEGC_ERR_INPUT, F->model_file, 0, 0, "the formula "
		"cannot be evaluated at the %s values of the free names (%s): "
		"give starting values with --start NAME=VALUE", when,
		d ? d->message : "no value");
}

/* Fits by Levenberg-Marquardt (see fit_run.h). */
int segc_fit_nonlinear_run(fitter *F)
{
	size_t j, n = F->fit->nfree, ncols = segc_csv_ncols(F->data);
	segc_lm lm;
	nl S;
	mpfr_t *x = segc_xcalloc(n + 1, sizeof *x);
	mpq_srcptr *lo = NULL, *hi = NULL;
	segc_domains *dom = NULL;
	size_t i;
	int rc = -1;

	memset(&lm, 0, sizeof lm);
	memset(&S, 0, sizeof S);
	S.F = F;
	S.ncols = ncols;
	S.n = n;
	mpfr_inits2(FIT_PREC, S.v, S.h, S.t, lm.ss, (mpfr_ptr)0);
	for (j = 0; j < n; j++)
		mpfr_init2(x[j], FIT_PREC);
	F->scratch = segc_ctx_new();
	*segc_ctx_limits(F->scratch) = *segc_ctx_limits(F->ctx);
	F->ptnames = segc_xcalloc(ncols + n + 1, sizeof *F->ptnames);
	F->pt = segc_xcalloc(ncols + n + 1, sizeof *F->pt);
	for (j = 0; j < ncols + n; j++) {
		F->ptnames[j] = j < ncols ? F->headers[j] :
			F->fit->names[j - ncols];
		mpq_init(F->pt[j]);
	}
	lm.dependent = segc_xcalloc(n + 1, sizeof *lm.dependent);
	lm.combination = segc_xcalloc(n * n + 1, sizeof *lm.combination);
	lm.active = segc_xcalloc(n + 1, sizeof *lm.active);
	lo = segc_xcalloc(n + 1, sizeof *lo);
	hi = segc_xcalloc(n + 1, sizeof *hi);
	S.eq = segc_xcalloc(segc_csv_nrows(F->data) * F->nparts + 1,
		sizeof *S.eq);
	for (i = 0; i < segc_csv_nrows(F->data) * F->nparts; i++)
		if (!segc_fit_left_out_eq(F, &F->parts[i % F->nparts],
		    i / F->nparts))
			S.eq[lm.m++] = i;
	if (!(dom = segc_setting_domains(F->ctx, &F->s)) || start(F, x))
		goto out;
	bounds(F, dom, lo, hi);
	lm.lo = lo;
	lm.hi = hi;
	derivatives(F);
	lm.n = n;
	lm.prec = FIT_PREC;
	lm.max_iterations = F->r->max_iterations ? F->r->max_iterations :
		FIT_ITERATIONS;
	lm.row = row_fn;
	lm.arg = &S;
	if (segc_lm_solve(&lm, x)) {
		report_eval(F, lm.iterations ? "fitted" : "starting");
		goto out;
	}
	if (lm.rank < n) {
		report_rank(F, &lm);
		goto out;
	}
	if (!lm.converged) {
		segc_error(F->ctx, SEGC_ERR_INPUT, F->file, 0, 0, "the nonlinear "
			"fit did not converge in %u iterations of "
			"Levenberg-Marquardt (no relative step below 2^-%d): give "
			"starting values closer to the solution with --start "
			"NAME=VALUE, or more iterations with --max-iterations",
			lm.iterations, FIT_PREC / 2);
		goto out;
	}
	note_active(F, &lm, lo, hi);
	for (j = 0; j < n; j++)
		round_decimal(F->fit->x[j], x[j]);
	if (equations(&S, x)) {
		report_eval(F, "fitted");
		goto out;
	}
	F->fit->info.precision = FIT_PREC;
	F->fit->info.iterations = lm.iterations;
	F->fit->info.stalled = lm.stalled;
	rc = 0;
out:
	for (j = 0; F->deriv && j < F->nparts; j++) {
		for (i = 0; i < n; i++)
			segc_expr_free(F->deriv[j][i]);
		free(F->deriv[j]);
	}
	free(F->deriv);
	F->deriv = NULL;
	for (j = 0; j < ncols + n; j++)
		mpq_clear(F->pt[j]);
	free(F->pt);
	free(F->ptnames);
	F->pt = NULL;
	F->ptnames = NULL;
	segc_ctx_free(F->scratch);
	F->scratch = NULL;
	for (j = 0; j < n; j++)
		mpfr_clear(x[j]);
	free(x);
	free(lm.dependent);
	free(lm.combination);
	free(lm.active);
	free(lo);
	free(hi);
	free(S.eq);
	for (i = 0; i < S.np; i++)
		segc_eval_plan_free(S.pp[i]);
	free(S.pp);
	free(S.pe);
	segc_domains_free(dom);
	mpfr_clears(S.v, S.h, S.t, lm.ss, (mpfr_ptr)0);
	return rc;
}
