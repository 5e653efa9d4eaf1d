/* cmd_fit.c - 'segc fit': the values of the free names (resources,
 * machine constants) that fit measured times best in least squares,
 * exactly over Q when the formula is linear in them, else approximately
 * by Levenberg-Marquardt from --start values; every equation's residual,
 * the largest relative error, R^2; -o writes the fitted machine. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpfr.h>
#include <segc/fit.h>

#include "cli/cli.h"
#include "cli/cli_csv.h"
#include "cli/cli_json.h"
#include "cli/cli_output.h"
#include "cli/cli_util.h"
#include "cli/json_commands.h"

#define MAX_FREE 256

/* The options of 'fit'. */
typedef struct fit_opts {
	const char *free[MAX_FREE];
	size_t nfree;
	int taking_free;         /* operands after --free are names */
	const char *data;
	const char *output;
	long digits;
	enum segc_fit_weight weight;
	const char *start_names[MAX_FREE];
	mpq_t start_values[MAX_FREE];
	size_t nstart;
	unsigned long max_iterations;
	cli_csv_opts csv;        /* --column, --aggregate */
	int json;                /* --json */
} fit_opts;

/* Non-zero when 's' is a name (letter or '_', then letters, digits,
 * '_'). */
static int is_name(const char *s)
{
	if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
	    *s == '_'))
		return 0;
	for (s++; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		    (*s >= '0' && *s <= '9') || *s == '_'))
			return 0;
	return 1;
}

/* Adds the names of the comma-separated list 'list' to the free names;
 * -1 after a usage error.  The list lives in argv. */
static int add_free(cli_common *c, fit_opts *o, char *list)
{
	char *p = list, *comma;

	for (;;) {
		comma = strchr(p, ',');
		if (comma)
			*comma = '\0';
		if (!is_name(p))
			return cli_usage(c, "--free: '%s' is not a name", p), -1;
		if (o->nfree == MAX_FREE)
			return cli_usage(c, "at most %d free names", MAX_FREE), -1;
		o->free[o->nfree++] = p;
		if (!comma)
			return 0;
		p = comma + 1;
	}
}

/* Adds the NAME=VALUE items of the comma-separated list 'list' (in
 * argv) to the starting values; VALUE is a number of the expression
 * language (1e8, 3/2, -0.5).  -1 after a usage error. */
static int add_start(cli_common *c, fit_opts *o, char *list)
{
	char *p = list, *comma, *eq;
	segc_ctx *ctx;
	segc_expr *e;

	for (;;) {
		comma = strchr(p, ',');
		if (comma)
			*comma = '\0';
		eq = strchr(p, '=');
		if (eq)
			*eq = '\0';
		if (!eq || !is_name(p))
			return cli_usage(c, "--start: '%s' is not NAME=VALUE", p),
				-1;
		if (o->nstart == MAX_FREE)
			return cli_usage(c, "at most %d starting values",
				MAX_FREE), -1;
		ctx = segc_ctx_new();
		e = segc_expr_parse(ctx, eq + 1, NULL);
		e = e ? segc_canonical(ctx, NULL, e) : NULL;
		if (!e || !segc_expr_is_num(e)) {
			segc_expr_free(e);
			segc_ctx_free(ctx);
			return cli_usage(c, "--start %s: '%s' is not a number", p,
				eq + 1), -1;
		}
		o->start_names[o->nstart] = p;
		mpq_init(o->start_values[o->nstart]);
		mpq_set(o->start_values[o->nstart++], segc_expr_value(e));
		segc_expr_free(e);
		segc_ctx_free(ctx);
		if (!comma)
			return 0;
		p = comma + 1;
	}
}

/* Consumes an option of 'fit' itself: 1, 0 (not one) or -1. */
static int fit_option(cli_common *c, int argc, char **argv, int *i,
	void *opts)
{
	fit_opts *o = opts;
	const char *v;
	int r;

	o->taking_free = 0;
	if (cli_json_option(argv, i, &o->json))
		return 1;
	if ((r = cli_csv_option(c, argc, argv, i, &o->csv)) != 0)
		return r;
	if ((r = cli_option_value(c, argc, argv, i, "free", 0, &v)) != 0) {
		if (r > 0 && add_free(c, o, argv[*i - 1] + (v - argv[*i - 1])))
			return -1;
		o->taking_free = r > 0;
		return r;
	}
	if ((r = cli_option_value(c, argc, argv, i, "start", 0, &v)) != 0) {
		if (r > 0 && add_start(c, o, argv[*i - 1] + (v - argv[*i - 1])))
			return -1;
		return r;
	}
	if ((r = cli_option_value(c, argc, argv, i, "max-iterations", 0,
	    &v)) != 0) {
		char *end;

		if (r > 0) {
			o->max_iterations = strtoul(v, &end, 10);
			if (*v < '1' || *v > '9' || *end ||
			    o->max_iterations > 1000000)
				return cli_usage(c, "--max-iterations is a count "
					"from 1 to 1000000, not '%s'", v), -1;
		}
		return r;
	}
	if ((r = cli_option_value(c, argc, argv, i, "output", 'o', &v)) != 0) {
		if (r > 0)
			o->output = v;
		return r;
	}
	if ((r = cli_option_value(c, argc, argv, i, "weight", 0, &v)) != 0) {
		if (r > 0 && strcmp(v, "absolute") && strcmp(v, "relative"))
			return cli_usage(c, "--weight is absolute or relative, "
				"not '%s'", v), -1;
		if (r > 0)
			o->weight = strcmp(v, "relative") ? SEGC_FIT_ABSOLUTE
				: SEGC_FIT_RELATIVE;
		return r;
	}
	return cli_digits_option(c, argc, argv, i, &o->digits);
}

/* Takes the operands: names right after --free, then MODEL.xml (the
 * FILE), then DATA.csv. */
static int fit_operand(segc_ctx *ctx, cli_common *c, const char *arg,
	void *opts)
{
	fit_opts *o = opts;

	(void)ctx;
	if (o->taking_free && is_name(arg)) {
		if (o->nfree == MAX_FREE)
			return cli_usage(c, "at most %d free names", MAX_FREE), -1;
		o->free[o->nfree++] = arg;
		return 1;
	}
	o->taking_free = 0;
	if (!c->file)
		return 0;
	if (o->data)
		return cli_usage(c, "one model and one data file ('%s' is one "
			"more)", arg), -1;
	o->data = arg;
	return 1;
}

/* ------------------------------------------------------------ printing */

/* 'q' to 'digits' significant digits (%g style); malloc'd. */
static char *decimal(mpq_srcptr q, long digits)
{
	mpfr_t x;
	char *s = NULL;

	mpfr_init2(x, (mpfr_prec_t)(digits * 4 + 64));
	mpfr_set_q(x, q, MPFR_RNDN);
	if (mpfr_asprintf(&s, "%.*Rg", (int)digits, x) < 0)
		cli_out_of_memory(0);
	mpfr_clear(x);
	return s;
}

/* Prints "NAME = EXACT" and, when that is not already short and exact,
 * "  (DECIMAL)". */
static void print_value(const char *name, mpq_srcptr q, long digits)
{
	char *exact = segc_q_exact_text(q), *d = decimal(q, digits);

	if (strcmp(exact, d))
		cli_printf("%s = %s  (%s)\n", name, exact, d);
	else
		cli_printf("%s = %s\n", name, exact);
	free(exact);
	mpfr_free_str(d);
}

/* The column of 'data' that measures component 'comp'. */
static size_t measured_column(const segc_csv *data, enum segc_component comp)
{
	size_t j = segc_csv_column(data, segc_component_name(comp));

	return j == (size_t)-1 && comp == SEGC_TOTAL ?
		segc_csv_column(data, "time") : j;
}

/* The spread of the runs aggregated into equation 'eq': "RUNS  SPREAD"
 * with the spread (largest - smallest)/|measured| ("-" for one run, or a
 * measured value of 0); malloc'd. */
static char *spread_text(const segc_csv *data, const segc_fit_equation *eq,
	long digits)
{
	size_t runs = segc_csv_runs(data, eq->row);
	char *t = malloc(64 + (size_t)digits), *d = NULL;
	mpq_t lo, hi;

	if (!t)
		abort();
	mpq_init(lo);
	mpq_init(hi);
	segc_csv_spread(data, eq->row, measured_column(data, eq->component), lo,
		hi);
	mpq_sub(hi, hi, lo);
	if (runs > 1 && mpq_sgn(eq->measured)) {
		mpq_div(hi, hi, eq->measured);
		mpq_abs(hi, hi);
		d = decimal(hi, digits);
	}
	snprintf(t, 64 + (size_t)digits, "  %4lu  %*s", (unsigned long)runs,
		(int)digits + 6, d ? d : "-");
	if (d)
		mpfr_free_str(d);
	mpq_clear(lo);
	mpq_clear(hi);
	return t;
}

/* Prints the table of equations: line, column, measured, fitted,
 * residual, relative error; with aggregated rows, the runs of each and
 * their spread. */
static void print_equations(const segc_fit *f, const segc_csv *data,
	long digits, int aggregated)
{
	size_t i;
	mpq_t t;

	mpq_init(t);
	cli_printf("%6s  %-6s  %*s  %*s  %*s  %*s", "line", "column",
		(int)digits + 6, "measured", (int)digits + 6, "fitted",
		(int)digits + 6, "residual", (int)digits + 6, "relative");
	if (aggregated)
		cli_printf("  %4s  %*s", "runs", (int)digits + 6, "spread");
	cli_puts("\n");
	for (i = 0; i < segc_fit_nequations(f); i++) {
		segc_fit_equation eq;
		char *m, *v, *r, *rel = NULL, *sp;

		segc_fit_equation_get(f, i, &eq);
		mpq_sub(t, eq.measured, eq.fitted);
		m = decimal(eq.measured, digits);
		v = decimal(eq.fitted, digits);
		r = decimal(t, digits);
		if (mpq_sgn(eq.measured)) {
			mpq_div(t, t, eq.measured);
			rel = decimal(t, digits);
		}
		sp = aggregated ? spread_text(data, &eq, digits) : NULL;
		cli_printf("%6lu  %-6s  %*s  %*s  %*s  %*s%s\n",
			segc_csv_line(data, eq.row),
			segc_component_name(eq.component), (int)digits + 6, m,
			(int)digits + 6, v, (int)digits + 6, r, (int)digits + 6,
			rel ? rel : "-", sp ? sp : "");
		free(sp);
		mpfr_free_str(m);
		mpfr_free_str(v);
		mpfr_free_str(r);
		if (rel)
			mpfr_free_str(rel);
	}
	mpq_clear(t);
}

/* Prints the largest relative error and R^2. */
static void print_summary(const segc_fit *f, const segc_csv *data,
	long digits)
{
	segc_fit_equation eq;
	size_t k;
	char *s;
	mpq_t q;

	mpq_init(q);
	if (!segc_fit_max_relative(f, q, &k)) {
		segc_fit_equation_get(f, k, &eq);
		s = decimal(q, digits);
		cli_printf("largest relative error: %s (line %lu, %s)\n", s,
			segc_csv_line(data, eq.row),
			segc_component_name(eq.component));
		mpfr_free_str(s);
	} else {
		cli_printf("largest relative error: - (no measured value is "
			"non-zero)\n");
	}
	if (!segc_fit_r2(f, q)) {
		s = decimal(q, digits);
		cli_printf("R^2: %s\n", s);
		mpfr_free_str(s);
	} else {
		cli_printf("R^2: - (every measured value is the same)\n");
	}
	mpq_clear(q);
}

/* Prints how the table was read: the columns left out, the rows
 * aggregated. */
static void print_reading(const segc_csv *data, const fit_opts *o)
{
	static const char *const how[] = { "", "mean", "median", "min" };
	char *ignored = cli_csv_ignored_text(data);
	size_t i, rows = 0;

	if (ignored)
		cli_printf("# columns left out: %s\n", ignored);
	free(ignored);
	if (o->csv.aggregate == SEGC_CSV_EACH)
		return;
	for (i = 0; i < segc_csv_nrows(data); i++)
		rows += segc_csv_runs(data, i);
	cli_printf("# %lu rows aggregated into %lu configurations "
		"(--aggregate %s); spread: (largest - smallest)/measured\n",
		(unsigned long)rows, (unsigned long)segc_csv_nrows(data),
		how[o->csv.aggregate]);
}

/* Prints the whole result. */
static void print_fit(const segc_fit *f, const segc_csv *data,
	const fit_opts *o, int quiet)
{
	segc_fit_info info;
	size_t j, nleft;
	const char *lines;
	int nonlinear = segc_fit_nonlinear(f, &info);

	if (nonlinear) {
		cli_printf("# nonlinear least squares (Levenberg-Marquardt, MPFR "
			"%lu bits): approximate%s: %lu free names, %lu equations "
			"from %lu rows of %s\n", info.precision, o->weight ==
			SEGC_FIT_RELATIVE ? " (relative errors)" : "",
			(unsigned long)segc_fit_nfree(f),
			(unsigned long)segc_fit_nequations(f),
			(unsigned long)segc_csv_nrows(data), o->data);
		if (segc_fit_outside(f))
			cli_printf("# the exact linear least-squares solution lies "
				"outside the declared domains (%s): fitted within "
				"them, starting from it\n", segc_fit_outside(f));
		else
			cli_printf("# the formula is not linear in the free names "
				"(nonlinear in %s)\n", segc_fit_nonlinear_names(f));
		if (segc_fit_start_from(f))
			cli_printf("# started from the exact least-squares fit of "
				"the formula made linear in %s\n",
				segc_fit_start_from(f));
		cli_printf("# converged after %u iterations: %s\n",
			info.iterations, info.stalled ? "no further decrease of "
			"the sum of squares at this precision" : "relative step "
			"below 2^-64");
	} else {
		cli_printf("# exact linear least squares over Q%s: %lu free "
			"names, %lu equations from %lu rows of %s\n", o->weight ==
			SEGC_FIT_RELATIVE ? " (relative errors)" : "",
			(unsigned long)segc_fit_nfree(f),
			(unsigned long)segc_fit_nequations(f),
			(unsigned long)segc_csv_nrows(data), o->data);
	}
	print_reading(data, o);
	if (segc_fit_constrained(f))
		cli_printf("# constrained: %s holds at the solution (the declared "
			"domain; the sum of squares falls beyond it)\n",
			segc_fit_constrained(f));
	if ((lines = segc_fit_left_out(f, &nleft)) != NULL)
		cli_printf("# left out: %lu equation%s measured as 0, which %s "
			"no relative error (--weight relative): line%s %s\n",
			(unsigned long)nleft, nleft == 1 ? "" : "s", nleft == 1 ?
			"has" : "have", strchr(lines, ',') ? "s" : "", lines);
	for (j = 0; j < segc_fit_nfree(f); j++) {
		char *d;

		if (!nonlinear) {
			print_value(segc_fit_name(f, j), segc_fit_value(f, j),
				o->digits);
			continue;
		}
		d = decimal(segc_fit_value(f, j), o->digits);
		cli_printf("%s = %s\n", segc_fit_name(f, j), d);
		mpfr_free_str(d);
	}
	if (!quiet)
		print_equations(f, data, o->digits,
			o->csv.aggregate != SEGC_CSV_EACH);
	print_summary(f, data, o->digits);
}

/* ---------------------------------------------------------- the command */

/* Writes the fitted machine to the file 'out'; 0 on success. */
static int write_machine(cli_file *out, const segc_fit *f,
	const segc_setting *s, const fit_opts *o)
{
	char name[256], desc[1024], *xml;
	int rc;

	snprintf(name, sizeof name, "%.200s_fit", segc_model_name(s->model));
	snprintf(desc, sizeof desc, "fitted by segc fit to %.900s", o->data);
	xml = segc_fit_machine_xml(f, s, name, desc);
	rc = cli_output_write(out, xml);
	free(xml);
	return rc;
}

/* Checks that a data file and free names were given; 0 or an exit
 * code. */
static int check_args(segc_ctx *ctx, cli_common *c, void *opts)
{
	const fit_opts *o = opts;

	(void)ctx;
	if (!o->data || !o->nfree)
		return cli_usage(c, !o->data ? "a model and a data file are "
			"required (MODEL.xml DATA.csv)" : "give the names to fit "
			"with --free NAME...");
	return 0;
}

/* -1 (reported, at the <loop> and at the row) when a loop count of the
 * program of 's' is negative at a row of 'data' (the columns by their
 * headers): a measurement outside the model's domain; else 0. */
static int check_rows(segc_ctx *ctx, const segc_setting *s,
	const segc_csv *data)
{
	size_t ncols = segc_csv_ncols(data), i, r;
	const char **names = cli_xcalloc(ncols + 1, sizeof *names);
	segc_counts *counts = segc_counts_new(ctx, s);
	int rc = counts ? 0 : -1;

	for (i = 0; i < ncols; i++)
		names[i] = segc_csv_header(data, i);
	for (r = 0; r < segc_csv_nrows(data) && !rc; r++)
		if (segc_counts_at(ctx, counts, ncols, names,
		    segc_csv_row(data, r))) {
			segc_error(ctx, SEGC_ERR_INPUT, segc_csv_file(data),
				segc_csv_line(data, r), 0, "this row is outside "
				"the domain of the model: it cannot be fitted");
			rc = -1;
		}
	segc_counts_free(counts);
	free(names);
	return rc;
}

/* Reads the data, fits, prints and writes; returns the exit code. */
static int run_fit(segc_ctx *ctx, cli_common *c, void *opts,
	const segc_setting *s)
{
	const fit_opts *o = opts;
	cli_file *out = NULL;
	segc_fit_request req;
	segc_csv *data;
	segc_fit *f = NULL;
	int rc;

	if (o->output && !(out = cli_output_open("fit", o->output)))
		return CLI_USAGE;
	data = cli_csv_read(ctx, &o->csv, s, o->data);
	if (data && !check_rows(ctx, s, data)) {
		req.setting = s;
		req.nfree = o->nfree;
		req.free = o->free;
		req.data = data;
		req.weight = o->weight;
		req.nstart = o->nstart;
		req.start_names = o->start_names;
		req.start_values = (const mpq_t *)o->start_values;
		req.max_iterations = (unsigned)o->max_iterations;
		f = segc_fit_run(ctx, &req);
	}
	rc = cli_report(ctx);
	if (!rc && !f)
		rc = CLI_INTERNAL;
	if (!rc) {
		if (o->json)
			json_fit(f, data, segc_model_name(s->model), o->weight ==
				SEGC_FIT_RELATIVE, o->csv.aggregate);
		else
			print_fit(f, data, o, c->quiet);
		if (out && write_machine(out, f, s, o))
			rc = CLI_USAGE;
	}
	segc_fit_free(f);
	segc_csv_free(data);
	return rc;
}

/* Runs 'segc fit'. */
int cmd_fit(int argc, char **argv)
{
	static const cli_model_command cmd = { "fit", fit_option,
		fit_operand, check_args, run_fit };
	fit_opts o;
	size_t i;
	int rc;

	memset(&o, 0, sizeof o);
	o.digits = 12;
	rc = cli_model_command_run(&cmd, argc, argv, &o);
	for (i = 0; i < o.nstart; i++)
		mpq_clear(o.start_values[i]);
	cli_csv_opts_clear(&o.csv);
	return rc;
}
