/* eval_interval.c - parameters with uncertainty in 'segc eval':
 * NAME=[LO,HI] (or -D NAME=[LO,HI]) gives NAME every value between the
 * exact numbers LO and HI, and a row of the table is then a certified
 * enclosure [lo, hi] of each component (and of the speedup and the
 * efficiency) over those values, from segc_eval_enclose(). */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_eval.h"
#include "cli/cli_util.h"

/* Reads "[LO,HI]" into 'lo', 'hi': 0; -1 when malformed; -2 when
 * LO > HI. */
int eval_interval_parse(segc_ctx *ctx, const char *text, mpq_t lo, mpq_t hi)
{
	size_t n = strlen(text), i, comma = 0;
	int depth = 0, commas = 0;

	if (n < 5 || text[0] != '[' || text[n - 1] != ']')
		return -1;
	for (i = 1; i + 1 < n; i++) {
		if (text[i] == '(')
			depth++;
		else if (text[i] == ')')
			depth--;
		else if (text[i] == ',' && depth == 0) {
			comma = i;
			commas++;
		} else if (text[i] == '[' || text[i] == ']')
			return -1;
	}
	if (commas != 1 || cli_exact_number(ctx, text + 1, comma - 1, lo) ||
	    cli_exact_number(ctx, text + comma + 1, n - comma - 2, hi))
		return -1;
	return mpq_cmp(lo, hi) > 0 ? -2 : 0;
}

/* Appends the interval of axis 'i' of the options: its exact ends, or
 * decimals under --csv (quoted there, for the comma). */
static void put_axis(eval_run *r, size_t i)
{
	eval_table cell;
	char *s;
	size_t len;

	memset(&cell, 0, sizeof cell);
	eval_table_put_value(&cell, r->o, r->o->axes[i].v[0]);
	eval_table_put_value(&cell, r->o, r->o->ihi[i]);
	len = strlen(cell.cells[0]) + strlen(cell.cells[1]) + 8;
	s = cli_xmalloc(len);
	snprintf(s, len, "%s[%s, %s]%s", r->o->csv ? "\"" : "", cell.cells[0],
		cell.cells[1], r->o->csv ? "\"" : "");
	eval_table_put(&r->t, s);
	free(s);
	eval_table_clear(&cell);
}

/* Appends the enclosure [lo, hi], its ends rounded outward to --digits
 * significant digits (quoted under --csv). */
static void put_enclosure(eval_run *r, mpfr_srcptr lo, mpfr_srcptr hi)
{
	char buf[2300];
	int q = r->o->csv;

	mpfr_snprintf(buf, sizeof buf, "%s[%.*RDg, %.*RUg]%s", q ? "\"" : "",
		(int)r->o->digits, lo, (int)r->o->digits, hi, q ? "\"" : "");
	eval_table_put(&r->t, buf);
}

/* The box of the interval axes; its arrays malloc'd (free them). */
static void make_box(const eval_run *r, segc_box *box, const char **names,
	mpq_t *lo, mpq_t *hi)
{
	size_t i;

	box->n = 0;
	for (i = 0; i < r->o->naxes; i++)
		if (r->o->interval[i]) {
			names[box->n] = r->names[i];
			lo[box->n][0] = r->o->axes[i].v[0][0];
			hi[box->n][0] = r->o->ihi[i][0];
			box->n++;
		}
	box->names = names;
	box->lo = (const mpq_t *)lo;
	box->hi = (const mpq_t *)hi;
}

/* The speedup and efficiency formulas of the total 't' (P the name of
 * the processor count): T(P=1)/T and that over P, or under weak scaling
 * P*T(P=1)/T and T(P=1)/T. */
static void speedup_formulas(const eval_run *r, segc_expr **s)
{
	const char *p = r->names[r->procs];
	segc_expr *one = segc_expr_int(1);
	segc_expr *t1 = segc_expr_subst(segc_expr_copy(r->f[0]), p, one);
	segc_expr *ratio = segc_expr_div2(t1, segc_expr_copy(r->f[0]));

	segc_expr_free(one);
	if (r->o->weak) {
		s[1] = ratio;
		s[0] = segc_expr_mul2(segc_expr_sym(p), segc_expr_copy(ratio));
	} else {
		s[0] = ratio;
		s[1] = segc_expr_div2(segc_expr_copy(ratio), segc_expr_sym(p));
	}
}

/* Encloses the 'n' formulas 'e' over the box into new cells; 0 or -1. */
static int enclose_cells(eval_run *r, size_t n, const segc_expr *const *e,
	const segc_box *box, mpfr_t *lo, mpfr_t *hi)
{
	mpfr_ptr l[4], h[4];
	double slack[4];
	segc_point pt;
	size_t k;

	for (k = 0; k < n; k++) {
		l[k] = lo[k];
		h[k] = hi[k];
	}
	pt.n = r->npoint;
	pt.names = r->names;
	pt.values = (const mpq_t *)r->values;
	return segc_eval_enclose(r->ctx, n, l, h, slack, e, &pt, box,
		&r->where);
}

/* Evaluates the current point, its interval names over their intervals,
 * and appends its row; 0 on success. */
int eval_row_interval(eval_run *r)
{
	const char *names[EVAL_MAX_AXES];
	mpq_t blo[EVAL_MAX_AXES], bhi[EVAL_MAX_AXES];
	segc_box box;
	mpfr_t lo[4], hi[4];
	const segc_expr *e[4];
	size_t i;
	int k, rc = -1;

	for (k = 0; k < 4; k++) {
		mpfr_init2(lo[k], (mpfr_prec_t)r->o->precision);
		mpfr_init2(hi[k], (mpfr_prec_t)r->o->precision);
	}
	for (i = 0; i < r->nax; i++)
		if (r->o->interval[i])
			put_axis(r, i);
		else
			eval_table_put_value(&r->t, r->o, r->values[i]);
	make_box(r, &box, names, blo, bhi);
	for (k = 0; k < 4; k++)
		e[k] = r->f[(k + 1) % 4];
	if (eval_row_counts(r) ||
	    enclose_cells(r, 4, e, &box, lo, hi))
		goto out;
	for (k = 0; k < 4; k++)
		put_enclosure(r, lo[k], hi[k]);
	if (r->speedup && mpfr_sgn(lo[3]) <= 0) {
		eval_table_put(&r->t, "-");
		eval_table_put(&r->t, "-");
	} else if (r->speedup) {
		segc_expr *s[2];

		speedup_formulas(r, s);
		k = enclose_cells(r, 2, (const segc_expr *const *)s, &box, lo,
			hi);
		segc_expr_free(s[0]);
		segc_expr_free(s[1]);
		if (k)
			goto out;
		put_enclosure(r, lo[0], hi[0]);
		put_enclosure(r, lo[1], hi[1]);
	}
	r->t.npoints++;
	rc = 0;
out:
	for (k = 0; k < 4; k++) {
		mpfr_clear(lo[k]);
		mpfr_clear(hi[k]);
	}
	return rc;
}
