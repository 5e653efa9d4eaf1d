/* eval_measured.c - 'segc eval --measured DATA.csv': the model evaluated
 * at the rows of a CSV file of measurements (the format 'segc fit'
 * reads), with the measured time and the relative error
 * (predicted - measured)/measured beside each measured component,
 * computed exactly from exact rationals where the prediction is
 * rational; the plot of --svg shows the measured points over the
 * predicted curve and, below, the relative error. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_eval.h"
#include "cli/cli_util.h"

static const char *const comp_names[4] = { "total", "comp", "comm", "io" };

/* The component a column measures (0 total, 1 comp, 2 comm, 3 io), or -1
 * when it gives a parameter's value. */
static int column_component(const char *name)
{
	int k;

	if (!strcmp(name, "time"))
		return 0;
	for (k = 0; k < 4; k++)
		if (!strcmp(name, comp_names[k]))
			return k;
	return -1;
}

/* Records an error at the header cell 'col' of 'csv'. */
static void header_error(eval_run *r, const segc_csv *csv, size_t col,
	const char *fmt, const char *a, const char *b)
{
	segc_error(r->ctx, SEGC_ERR_INPUT, segc_csv_file(csv),
		segc_csv_line(csv, (size_t)-1), segc_csv_col(csv, (size_t)-1,
		col), fmt, a, b);
}

/* Non-zero when -D binds 'name'. */
static int bound_by_d(const eval_run *r, const char *name)
{
	size_t i;

	for (i = 0; i < segc_bindings_count(r->c->bindings); i++)
		if (!strcmp(segc_bindings_name(r->c->bindings, i), name))
			return 1;
	return 0;
}

/* Checks the parameter column 'col' named 'name'; 0, or -1 recorded. */
static int check_param_column(eval_run *r, const segc_csv *csv, size_t col,
	const char *name)
{
	const char *near = NULL, *kind;

	if (!segc_setting_declares(r->s, name, &near)) {
		header_error(r, csv, col, near ? "the column '%s' is not a "
			"parameter of the model (did you mean '%s'?)" : "the column "
			"'%s' is not a parameter of the model%s", name, near ? near :
			"");
		return -1;
	}
	kind = segc_setting_name_kind(r->s, name);
	if (!kind || (strcmp(kind, "param") && strcmp(kind, "N") &&
	    strcmp(kind, "P"))) {
		header_error(r, csv, col, "the column '%s' names a %s: only "
			"parameters vary from row to row", name, kind ? kind :
			"name");
		return -1;
	}
	if (bound_by_d(r, name)) {
		header_error(r, csv, col, "the column '%s' is also bound by -D "
			"%s=...: drop one of them", name, name);
		return -1;
	}
	return 0;
}

/* Sets r->swept to the parameter column whose values vary; -1
 * (reported) when none or several do. */
static int measured_swept(eval_run *r, const segc_csv *csv,
	const size_t *cols)
{
	size_t i, j, n = segc_csv_nrows(csv);

	r->swept = (size_t)-1;
	for (i = 0; i < r->nax; i++)
		for (j = 1; j < n; j++)
			if (mpq_cmp(segc_csv_row(csv, j)[cols[i]],
			    segc_csv_row(csv, 0)[cols[i]])) {
				if (r->swept != (size_t)-1)
					return cli_usage(r->c, "--svg plots against one "
						"swept parameter: in %s both '%s' and '%s' "
						"vary", segc_csv_file(csv),
						r->names[r->swept], r->names[i]), -1;
				r->swept = i;
				break;
			}
	if (r->swept == (size_t)-1)
		return cli_usage(r->c, "--svg needs a parameter whose value "
			"varies among the rows of %s", segc_csv_file(csv)), -1;
	return 0;
}

/* The columns of the parameters, in the order of r->names. */
static size_t *param_columns(const eval_run *r, const segc_csv *csv)
{
	size_t *cols = cli_xmalloc((r->nax + 1) * sizeof *cols), i, n = 0;

	for (i = 0; i < segc_csv_ncols(csv); i++)
		if (column_component(segc_csv_header(csv, i)) < 0)
			cols[n++] = i;
	return cols;
}

/* Reads DATA.csv and takes its parameter columns as the names of a
 * point; an exit code. */
int eval_measured_setup(eval_run *r, segc_csv **csvp)
{
	segc_csv *csv = cli_csv_read(r->ctx, &r->o->table, r->s,
		r->o->measured);
	size_t i, nc, *cols;
	int seen[4] = { 0, 0, 0, 0 }, k, rc;

	*csvp = csv;
	if (!csv)
		return cli_report(r->ctx);
	nc = segc_csv_ncols(csv);
	r->names = cli_xcalloc(nc + 1, sizeof *r->names);
	for (i = 0; i < nc; i++) {
		const char *h = segc_csv_header(csv, i);

		if ((k = column_component(h)) >= 0) {
			if (seen[k])
				header_error(r, csv, i, "the column '%s' measures "
					"%s a second time", h, comp_names[k]);
			seen[k] = 1;
		} else if (!check_param_column(r, csv, i, h))
			r->names[r->nax++] = h;
	}
	if (!seen[0] && !seen[1] && !seen[2] && !seen[3])
		segc_error(r->ctx, SEGC_ERR_INPUT, segc_csv_file(csv),
			segc_csv_line(csv, (size_t)-1), 0, "no measured column: "
			"name one 'time' (or 'total'), 'comp', 'comm' or 'io'");
	if (!segc_csv_nrows(csv))
		segc_error(r->ctx, SEGC_ERR_INPUT, segc_csv_file(csv),
			segc_csv_line(csv, (size_t)-1), 0, "no rows of measurements");
	if ((rc = cli_report(r->ctx)) != 0 || !r->o->svg)
		return rc;
	cols = param_columns(r, csv);
	rc = measured_swept(r, csv, cols) ? CLI_USAGE : CLI_OK;
	free(cols);
	return rc;
}

/* Checks every value of the parameter columns against the domains the
 * model declares; 0, or -1 with each fault recorded at its cell. */
static int check_rows(eval_run *r, const segc_csv *csv, const size_t *cols)
{
	segc_domains *d = segc_setting_domains(r->ctx, r->s);
	size_t i, j;
	int bad = 0;

	if (!d)
		return -1;
	for (j = 0; j < segc_csv_nrows(csv); j++)
		for (i = 0; i < r->nax; i++) {
			const char *why = cli_domain_why(d, r->names[i],
				segc_csv_row(csv, j)[cols[i]]);

			if (!why)
				continue;
			segc_error(r->ctx, SEGC_ERR_INPUT, segc_csv_file(csv),
				segc_csv_line(csv, j), segc_csv_col(csv, j, cols[i]),
				"the value of '%s' lies outside the domain the "
				"model declares (%s)", r->names[i], why);
			bad = 1;
		}
	segc_domains_free(d);
	return bad ? -1 : 0;
}

/* Appends the measured value 'm' of component 'k' and the relative error
 * of the prediction, exact when the prediction is rational ('-' when 'm'
 * is 0); keeps both for the plot at point 'j'. */
static void put_measured(eval_run *r, int k, mpq_srcptr m, size_t j)
{
	mpfr_t x;
	mpq_t p;

	mpfr_init2(x, (mpfr_prec_t)r->o->precision);
	mpq_init(p);
	mpfr_set_q(x, m, MPFR_RNDN);
	eval_table_put_mpfr(&r->t, x, r->o->digits);
	r->t.meas[k][j] = mpfr_get_d(x, MPFR_RNDN);
	if (!mpq_sgn(m)) {
		eval_table_put(&r->t, "-");
		r->t.rel[k][j] = 0.0 / 0.0;
	} else {
		if (!segc_expr_eval_q(p, r->f[k], r->npoint, r->names,
		    (const mpq_t *)r->values)) {
			mpq_sub(p, p, m);
			mpq_div(p, p, m);
			mpfr_set_q(x, p, MPFR_RNDN);
		} else {
			mpfr_sub_q(x, r->v[k], m, MPFR_RNDN);
			mpfr_div_q(x, x, m, MPFR_RNDN);
		}
		eval_table_put_mpfr(&r->t, x, r->o->digits);
		r->t.rel[k][j] = mpfr_get_d(x, MPFR_RNDN);
	}
	mpq_clear(p);
	mpfr_clear(x);
}

/* Appends the header cells of the measured columns and allocates their
 * plotted values. */
static void measured_header(eval_run *r, const segc_csv *csv)
{
	size_t i, n = segc_csv_nrows(csv) + 1;
	char name[64];
	int k;

	for (i = 0; i < segc_csv_ncols(csv); i++) {
		if ((k = column_component(segc_csv_header(csv, i))) < 0)
			continue;
		snprintf(name, sizeof name, "%s_measured", comp_names[k]);
		eval_table_put(&r->t, name);
		snprintf(name, sizeof name, "%s_relerr", comp_names[k]);
		eval_table_put(&r->t, name);
		r->t.ncols += 2;
		r->t.meas[k] = cli_xmalloc(n * sizeof *r->t.meas[k]);
		r->t.rel[k] = cli_xmalloc(n * sizeof *r->t.rel[k]);
	}
}

/* Evaluates every row of 'csv' and appends it with its measured columns;
 * 0, or -1 with the errors recorded. */
int eval_measured_rows(eval_run *r, const segc_csv *csv)
{
	size_t *cols = param_columns(r, csv), i, j;
	int k, rc = -1;

	if (check_rows(r, csv, cols))
		goto out;
	measured_header(r, csv);
	for (j = 0; j < segc_csv_nrows(csv); j++) {
		const mpq_t *row = segc_csv_row(csv, j);

		for (i = 0; i < r->nax; i++)
			mpq_set(r->values[i], row[cols[i]]);
		if (eval_row(r)) {
			segc_error(r->ctx, SEGC_ERR_INPUT, segc_csv_file(csv),
				segc_csv_line(csv, j), 0, "the model cannot be "
				"evaluated at this row");
			goto out;
		}
		for (i = 0; i < segc_csv_ncols(csv); i++)
			if ((k = column_component(segc_csv_header(csv, i))) >= 0)
				put_measured(r, k, row[i], j);
	}
	rc = 0;
out:
	free(cols);
	return rc;
}

/* The indices of the points in increasing order of x (stable). */
static size_t *by_x(const double *x, size_t n)
{
	size_t *ix = cli_xmalloc((n + 1) * sizeof *ix), i, j;

	for (i = 0; i < n; i++) {
		for (j = i; j > 0 && x[ix[j - 1]] > x[i]; j--)
			ix[j] = ix[j - 1];
		ix[j] = i;
	}
	return ix;
}

/* Writes the plot of --svg: the measured points over the predicted
 * curve of every measured component (log-log), and their relative
 * errors (linear); 0, or -1 reported. */
int eval_measured_svg(eval_run *r, const segc_csv *csv)
{
	static const char *const lp[4] = { "total predicted", "comp predicted",
		"comm predicted", "io predicted" };
	static const char *const lm[4] = { "total measured", "comp measured",
		"comm measured", "io measured" };
	size_t n = r->t.npoints, *ix = by_x(r->t.x, n), i, ns = 0, ne = 0;
	double *buf = cli_xmalloc((n + 1) * 13 * sizeof *buf);
	segc_svg_series s[8], e[4];
	segc_svg_panel p[2];
	char *svg, title[300];
	int k, rc = -1;

	(void)csv;
	memset(s, 0, sizeof s);
	memset(e, 0, sizeof e);
	for (i = 0; i < n; i++)
		buf[i] = r->t.x[ix[i]];
	for (k = 0; k < 4; k++) {
		double *y = buf + (size_t)(1 + 3 * k) * (n + 1);

		if (!r->t.meas[k])
			continue;
		for (i = 0; i < n; i++) {
			y[i] = r->t.y[k][ix[i]];
			y[n + 1 + i] = r->t.meas[k][ix[i]];
			y[2 * (n + 1) + i] = r->t.rel[k][ix[i]];
		}
		s[ns].label = lp[k];
		s[ns].n = n;
		s[ns].x = buf;
		s[ns++].y = y;
		s[ns].label = lm[k];
		s[ns].n = n;
		s[ns].x = buf;
		s[ns].y = y + n + 1;
		s[ns++].markers = 1;
		e[ne].label = comp_names[k];
		e[ne].n = n;
		e[ne].x = buf;
		e[ne].y = y + 2 * (n + 1);
		e[ne++].markers = 1;
	}
	snprintf(title, sizeof title, "%.200s", r->title);
	p[0].title = title;
	p[0].xlabel = p[1].xlabel = r->names[r->swept];
	p[0].ylabel = "time";
	p[0].ylinear = 0;
	p[0].nseries = ns;
	p[0].series = s;
	p[1].title = "relative error (predicted - measured)/measured";
	p[1].ylabel = "relative error";
	p[1].ylinear = 1;
	p[1].nseries = ne;
	p[1].series = e;
	svg = segc_svg_panels(2, p);
	if (!svg)
		fprintf(stderr, "segc: eval: nothing to plot (no positive "
			"values of %s, or no relative error)\n", r->names[r->swept]);
	else
		rc = cli_output_write(r->svg, svg);
	free(svg);
	free(buf);
	free(ix);
	return rc;
}
