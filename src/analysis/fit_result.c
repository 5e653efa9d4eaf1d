/* fit_result.c - the result of a fit (segc_fit): its equations, each
 * with its measured and fitted value, R^2 and the largest relative
 * error, and what the library's users read of it.  Both the linear fit
 * (fit.c) and the nonlinear one (fit_nl.c) fill it in through here. */
#include <config.h>

#include <stdlib.h>

#include "base/util.h"

#include "analysis/fit_run.h"

/* Makes room for one more equation in 'f'. */
static void grow(segc_fit *f)
{
	if (f->neq < f->capeq)
		return;
	f->capeq = f->capeq ? 2 * f->capeq : 64;
	f->row = segc_xrealloc(f->row, f->capeq * sizeof *f->row);
	f->comp = segc_xrealloc(f->comp, f->capeq * sizeof *f->comp);
	f->measured = segc_xrealloc(f->measured, f->capeq * sizeof(mpq_t));
	f->fitted = segc_xrealloc(f->fitted, f->capeq * sizeof(mpq_t));
}

/* Appends an equation with its values (see fit_run.h). */
void segc_fit_append(segc_fit *f, size_t i, enum segc_component comp,
	mpq_srcptr measured, mpq_srcptr fitted)
{
	grow(f);
	f->row[f->neq] = i;
	f->comp[f->neq] = comp;
	mpq_init(f->measured[f->neq]);
	mpq_init(f->fitted[f->neq]);
	mpq_set(f->measured[f->neq], measured);
	mpq_set(f->fitted[f->neq], fitted);
	f->neq++;
}

/* Sets R^2 and the largest relative error from the equations. */
void segc_fit_statistics(segc_fit *f)
{
	mpq_t mean, t, ss_res, ss_tot;
	size_t k;

	mpq_init(mean); mpq_init(t); mpq_init(ss_res); mpq_init(ss_tot);
	for (k = 0; k < f->neq; k++)
		mpq_add(mean, mean, f->measured[k]);
	mpz_mul_ui(mpq_denref(mean), mpq_denref(mean), (unsigned long)f->neq);
	mpq_canonicalize(mean);
	for (k = 0; k < f->neq; k++) {
		mpq_sub(t, f->measured[k], f->fitted[k]);
		mpq_mul(t, t, t);
		mpq_add(ss_res, ss_res, t);
		mpq_sub(t, f->measured[k], mean);
		mpq_mul(t, t, t);
		mpq_add(ss_tot, ss_tot, t);
		if (!mpq_sgn(f->measured[k]))
			continue;
		mpq_sub(t, f->measured[k], f->fitted[k]);
		mpq_div(t, t, f->measured[k]);
		mpq_abs(t, t);
		if (!f->max_defined || mpq_cmp(t, f->max_rel) > 0) {
			mpq_set(f->max_rel, t);
			f->max_eq = k;
			f->max_defined = 1;
		}
	}
	f->r2_defined = mpq_sgn(ss_tot) != 0;
	if (f->r2_defined) {
		mpq_div(f->r2, ss_res, ss_tot);
		mpq_set_ui(t, 1, 1);
		mpq_sub(f->r2, t, f->r2);
	}
	mpq_clear(mean); mpq_clear(t); mpq_clear(ss_res); mpq_clear(ss_tot);
}

/* Releases 'f'. */
void segc_fit_free(segc_fit *f)
{
	size_t j;

	if (!f)
		return;
	for (j = 0; j < f->nfree; j++) {
		free(f->names[j]);
		mpq_clear(f->x[j]);
	}
	for (j = 0; j < f->neq; j++) {
		mpq_clear(f->measured[j]);
		mpq_clear(f->fitted[j]);
	}
	free(f->names);
	free(f->kind);
	free(f->x);
	free(f->row);
	free(f->comp);
	free(f->measured);
	free(f->fitted);
	mpq_clear(f->r2);
	mpq_clear(f->max_rel);
	free(f->nonlinear_in);
	free(f->start_from);
	free(f->outside);
	free(f->constrained);
	free(f->left_out);
	free(f);
}

/* The number of free names. */
size_t segc_fit_nfree(const segc_fit *f)
{
	return f->nfree;
}

/* The name of free name 'j'. */
const char *segc_fit_name(const segc_fit *f, size_t j)
{
	return f->names[j];
}

/* The fitted value of free name 'j'. */
mpq_srcptr segc_fit_value(const segc_fit *f, size_t j)
{
	return f->x[j];
}

/* The number of equations. */
size_t segc_fit_nequations(const segc_fit *f)
{
	return f->neq;
}

/* Equation 'i'. */
void segc_fit_equation_get(const segc_fit *f, size_t i,
	segc_fit_equation *eq)
{
	eq->row = f->row[i];
	eq->component = f->comp[i];
	eq->measured = f->measured[i];
	eq->fitted = f->fitted[i];
}

/* R^2 (see fit.h). */
int segc_fit_r2(const segc_fit *f, mpq_t r2)
{
	if (!f->r2_defined)
		return -1;
	mpq_set(r2, f->r2);
	return 0;
}

/* The largest relative error (see fit.h). */
int segc_fit_max_relative(const segc_fit *f, mpq_t rel, size_t *eq)
{
	if (!f->max_defined)
		return -1;
	mpq_set(rel, f->max_rel);
	*eq = f->max_eq;
	return 0;
}

/* How a nonlinear fit went (see fit.h). */
int segc_fit_nonlinear(const segc_fit *f, segc_fit_info *info)
{
	if (!f->nonlinear)
		return 0;
	if (info)
		*info = f->info;
	return 1;
}

/* The names that made the fit nonlinear (see fit.h). */
const char *segc_fit_nonlinear_names(const segc_fit *f)
{
	return f->nonlinear_in;
}

/* How the nonlinear fit started (see fit.h). */
const char *segc_fit_start_from(const segc_fit *f)
{
	return f->start_from;
}

/* The bounds that hold at the end (see fit.h). */
const char *segc_fit_constrained(const segc_fit *f)
{
	return f->constrained;
}

/* The equations left out (see fit.h). */
const char *segc_fit_left_out(const segc_fit *f, size_t *n)
{
	*n = f->nleft_out;
	return f->left_out;
}

/* The exact solution that lay outside the domains (see fit.h). */
const char *segc_fit_outside(const segc_fit *f)
{
	return f->outside;
}
