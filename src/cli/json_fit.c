/* json_fit.c - the document of 'segc fit --json' (doc/json.md): the
 * fitted values, every equation, the largest relative error and R^2,
 * each number exact as a string with its decimal beside it. */
#include <config.h>

#include <stdlib.h>

#include "cli/cli_json.h"
#include "cli/json_commands.h"

/* Writes the equation 'i' of 'f' as an object. */
static void equation(cli_json *j, const segc_fit *f, const segc_csv *data,
	size_t i)
{
	segc_fit_equation eq;
	size_t runs, col;
	mpq_t t, lo, hi;

	mpq_init(t);
	mpq_init(lo);
	mpq_init(hi);
	segc_fit_equation_get(f, i, &eq);
	cli_json_open(j, '{');
	cli_json_key(j, "line");
	cli_json_uint(j, segc_csv_line(data, eq.row));
	cli_json_key(j, "component");
	cli_json_string(j, segc_component_name(eq.component));
	cli_json_exact(j, "measured", eq.measured);
	cli_json_exact(j, "fitted", eq.fitted);
	mpq_sub(t, eq.measured, eq.fitted);
	cli_json_exact(j, "residual", t);
	if (mpq_sgn(eq.measured))
		mpq_div(t, t, eq.measured);
	cli_json_exact(j, "relative", mpq_sgn(eq.measured) ? t : NULL);
	runs = segc_csv_runs(data, eq.row);
	cli_json_key(j, "runs");
	cli_json_uint(j, runs);
	col = segc_csv_column(data, segc_component_name(eq.component));
	if (col == (size_t)-1 && eq.component == SEGC_TOTAL)
		col = segc_csv_column(data, "time");
	if (runs > 1 && mpq_sgn(eq.measured) && col != (size_t)-1) {
		segc_csv_spread(data, eq.row, col, lo, hi);
		mpq_sub(t, hi, lo);
		mpq_div(t, t, eq.measured);
		mpq_abs(t, t);
	}
	cli_json_exact(j, "spread", runs > 1 && mpq_sgn(eq.measured) &&
		col != (size_t)-1 ? t : NULL);
	cli_json_close(j, '}');
	mpq_clear(t);
	mpq_clear(lo);
	mpq_clear(hi);
}

/* Writes the fitted names and their values. */
static void values(cli_json *j, const segc_fit *f)
{
	size_t i;

	cli_json_key(j, "values");
	cli_json_open(j, '[');
	for (i = 0; i < segc_fit_nfree(f); i++) {
		cli_json_open(j, '{');
		cli_json_key(j, "name");
		cli_json_string(j, segc_fit_name(f, i));
		cli_json_exact(j, "value", segc_fit_value(f, i));
		cli_json_close(j, '}');
	}
	cli_json_close(j, ']');
}

/* Writes the largest relative error and R^2. */
static void summary(cli_json *j, const segc_fit *f, const segc_csv *data)
{
	segc_fit_equation eq;
	size_t k;
	mpq_t q;

	mpq_init(q);
	cli_json_key(j, "max_relative_error");
	if (!segc_fit_max_relative(f, q, &k)) {
		segc_fit_equation_get(f, k, &eq);
		cli_json_open(j, '{');
		cli_json_exact(j, "value", q);
		cli_json_key(j, "line");
		cli_json_uint(j, segc_csv_line(data, eq.row));
		cli_json_key(j, "component");
		cli_json_string(j, segc_component_name(eq.component));
		cli_json_close(j, '}');
	} else {
		cli_json_null(j);
	}
	cli_json_key(j, "r2");
	if (!segc_fit_r2(f, q)) {
		cli_json_open(j, '{');
		cli_json_exact(j, "value", q);
		cli_json_close(j, '}');
	} else {
		cli_json_null(j);
	}
	mpq_clear(q);
}

/* Writes how the table was read: the columns left out, the aggregation
 * and the rows. */
static void reading(cli_json *j, const segc_csv *data,
	enum segc_csv_aggregate how)
{
	static const char *const names[] = { NULL, "mean", "median", "min" };
	size_t i, rows = 0;

	cli_json_key(j, "columns_left_out");
	cli_json_open(j, '[');
	for (i = 0; i < segc_csv_n_ignored(data); i++)
		cli_json_string(j, segc_csv_ignored(data, i));
	cli_json_close(j, ']');
	cli_json_key(j, "aggregate");
	cli_json_string(j, names[how]);
	for (i = 0; i < segc_csv_nrows(data); i++)
		rows += segc_csv_runs(data, i);
	cli_json_key(j, "rows");
	cli_json_uint(j, rows);
}

/* Writes the document of 'fit --json' (see json_commands.h). */
void json_fit(const segc_fit *f, const segc_csv *data, const char *model,
	int relative, enum segc_csv_aggregate how)
{
	segc_fit_info info;
	int nonlinear = segc_fit_nonlinear(f, &info);
	size_t i, nleft;
	const char *left;
	cli_json j;

	cli_json_init(&j);
	cli_json_open(&j, '{');
	cli_json_key(&j, "command");
	cli_json_string(&j, "fit");
	cli_json_key(&j, "model");
	cli_json_string(&j, model);
	cli_json_key(&j, "data");
	cli_json_string(&j, segc_csv_file(data));
	cli_json_key(&j, "method");
	cli_json_string(&j, nonlinear ? "levenberg-marquardt" :
		"linear least squares");
	cli_json_key(&j, "exact");
	cli_json_bool(&j, !nonlinear);
	cli_json_key(&j, "weight");
	cli_json_string(&j, relative ? "relative" : "absolute");
	cli_json_key(&j, "iterations");
	if (nonlinear)
		cli_json_uint(&j, info.iterations);
	else
		cli_json_null(&j);
	cli_json_key(&j, "outside");
	cli_json_string(&j, segc_fit_outside(f));
	cli_json_key(&j, "constrained");
	cli_json_string(&j, segc_fit_constrained(f));
	left = segc_fit_left_out(f, &nleft);
	cli_json_key(&j, "left_out_lines");
	cli_json_string(&j, left);
	reading(&j, data, how);
	values(&j, f);
	cli_json_key(&j, "equations");
	cli_json_open(&j, '[');
	for (i = 0; i < segc_fit_nequations(f); i++)
		equation(&j, f, data, i);
	cli_json_close(&j, ']');
	summary(&j, f, data);
	cli_json_close(&j, '}');
	cli_json_end(&j);
}
