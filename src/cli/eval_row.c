/* eval_row.c - one point of 'segc eval': the value of a formula there,
 * its row of the table (the four components, the speedup and efficiency
 * where asked), and the report of a point where the evaluation failed.
 * The grid, the measured rows and the map each evaluate through here. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_eval.h"
#include "cli/cli_util.h"

/* Evaluates 'e' at the current point into 'x'; 0 on success. */
int eval_at(eval_run *r, const segc_expr *e, mpfr_t x)
{
	segc_point pt;

	pt.n = r->npoint;
	pt.names = r->names;
	pt.values = (const mpq_t *)r->values;
	return segc_eval_mpfr_n_with(r->ctx, r->o->arith, 1, &x, &e, &pt,
		&r->where);
}

/* Records where the evaluation failed: the values of the point. */
void eval_report_point(eval_run *r)
{
	char buf[512];
	size_t i, len = 0;

	buf[0] = '\0';
	for (i = 0; i < r->nax && len < sizeof buf - 1; i++) {
		char *q = mpq_get_str(NULL, 10, r->values[i]);

		len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%s=%s",
			i ? ", " : "", r->names[i], q);
		free(q);
		if (len >= sizeof buf)
			len = sizeof buf - 1;
	}
	segc_error(r->ctx, SEGC_ERR_INPUT, r->o->file, r->where.line, 0,
		"the evaluation failed at the point %s", buf);
}

/* Appends the speedup and the efficiency at the processor count 'p',
 * from T(P) ('t') and T(P=1) ('t1'), and keeps them for the plot:
 * strong scaling T(1)/T(P) and that over P; weak scaling P*T(1)/T(P) and
 * T(1)/T(P) (T(1) under the bindings at P = 1).  '-' when T is 0. */
static void put_speedup(eval_run *r, mpfr_srcptr t, mpfr_srcptr t1,
	const mpq_t p)
{
	mpfr_t s, e;

	if (mpfr_zero_p(t)) {
		eval_table_put(&r->t, "-");
		eval_table_put(&r->t, "-");
		r->t.s[0][r->t.npoints] = r->t.s[1][r->t.npoints] = 0;
		return;
	}
	mpfr_init2(s, (mpfr_prec_t)r->o->precision);
	mpfr_init2(e, (mpfr_prec_t)r->o->precision);
	if (r->o->weak) {
		mpfr_div(e, t1, t, MPFR_RNDN);
		mpfr_mul_q(s, t1, p, MPFR_RNDN);
		mpfr_div(s, s, t, MPFR_RNDN);
	} else {
		mpfr_div(s, t1, t, MPFR_RNDN);
		mpfr_div_q(e, s, p, MPFR_RNDN);
	}
	eval_table_put_mpfr(&r->t, s, r->o->digits);
	eval_table_put_mpfr(&r->t, e, r->o->digits);
	r->t.s[0][r->t.npoints] = mpfr_get_d(s, MPFR_RNDN);
	r->t.s[1][r->t.npoints] = mpfr_get_d(e, MPFR_RNDN);
	mpfr_clear(s);
	mpfr_clear(e);
}

/* Appends the 'n' values enclosed in [lo[i], hi[i]] when each prints
 * alike at both ends to the digits asked for (then so does its exact
 * value, and its correct rounding, which the MPFR plan would print):
 * 0; else 1, nothing appended. */
static int put_certain(eval_run *r, size_t n, const double *lo,
	const double *hi)
{
	char (*buf)[2][64] = cli_xcalloc(n, sizeof *buf);
	mpfr_t x;
	size_t i;
	int j, same = 1;

	mpfr_init2(x, 53);
	for (i = 0; i < n && same; i++) {
		for (j = 0; j < 2; j++) {
			mpfr_set_d(x, j ? hi[i] : lo[i], MPFR_RNDN);
			mpfr_snprintf(buf[i][j], sizeof buf[i][j], "%.*Rg",
				(int)r->o->digits, x);
		}
		same = !strcmp(buf[i][0], buf[i][1]);
	}
	for (i = 0; i < n && same; i++)
		eval_table_put(&r->t, buf[i][0]);
	mpfr_clear(x);
	free(buf);
	return !same;
}

/* The four components 'e' at 'pt' from certified doubles, when the row
 * prints nothing else of them (no speedup, plot or measured times) and
 * they settle its digits: 0; else 1 (the MPFR plan is run). */
static int fast_row(eval_run *r, const segc_expr *const *e,
	const segc_point *pt)
{
	double lo[4], hi[4];

	if (r->o->arith != SEGC_EVAL_BALLS || r->speedup ||
	    r->swept != (size_t)-1 || r->o->measured || r->o->digits > 15 ||
	    segc_eval_double_n(r->ctx, 4, lo, hi, e, pt))
		return 1;
	return put_certain(r, 4, lo, hi);
}

/* See cli_eval.h. */
int eval_row_counts(eval_run *r)
{
	if (!r->counts && !(r->counts = segc_counts_new(r->ctx, r->s)))
		return -1;
	return segc_counts_at(r->ctx, r->counts, r->npoint, r->names,
		(const mpq_t *)r->values);
}

/* Evaluates the current point and appends its row; 0 on success. */
int eval_row(eval_run *r)
{
	mpfr_t t1;
	mpq_t saved;
	size_t i;
	int rc = -1, k;

	if (r->o->nintervals)
		return eval_row_interval(r);
	mpfr_init2(t1, (mpfr_prec_t)r->o->precision);
	mpq_init(saved);
	for (i = 0; i < r->nax; i++)
		eval_table_put_value(&r->t, r->o, r->values[i]);
	if (eval_row_counts(r))
		goto out;
	{
		/* the four components in one plan: what they share (the
		 * recurrence of comp in total) is computed once */
		const segc_expr *e[4];
		mpfr_ptr v[4];
		segc_point pt;

		for (k = 0; k < 4; k++) {
			e[k] = r->f[(k + 1) % 4];
			v[k] = r->v[(k + 1) % 4];
		}
		pt.n = r->npoint;
		pt.names = r->names;
		pt.values = (const mpq_t *)r->values;
		if (!fast_row(r, e, &pt)) {
			r->t.npoints++;
			rc = 0;
			goto out;
		}
		if (segc_eval_mpfr_n_with(r->ctx, r->o->arith, 4, v, e, &pt,
				&r->where))
			goto out;
	}
	for (k = 1; k < 4; k++)
		eval_table_put_mpfr(&r->t, r->v[k], r->o->digits);
	eval_table_put_mpfr(&r->t, r->v[0], r->o->digits);
	if (r->speedup) {
		mpq_set(saved, r->values[r->procs]);
		mpq_set_ui(r->values[r->procs], 1, 1);
		k = eval_at(r, r->f[0], t1);
		mpq_set(r->values[r->procs], saved);
		if (k)
			goto out;
		put_speedup(r, r->v[0], t1, saved);
	}
	if (r->swept != (size_t)-1) {
		r->t.x[r->t.npoints] = mpq_get_d(r->values[r->swept]);
		for (k = 0; k < 4; k++)
			r->t.y[k][r->t.npoints] = mpfr_get_d(r->v[k], MPFR_RNDN);
	}
	r->t.npoints++;
	rc = 0;
out:
	mpfr_clear(t1);
	mpq_clear(saved);
	return rc;
}
