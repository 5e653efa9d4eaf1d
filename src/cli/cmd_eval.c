/* cmd_eval.c - 'segc eval': every component of a model evaluated with MPFR
 * over a grid of parameter values, printed as a table (or CSV), and
 * optionally plotted against the swept parameter (SVG). */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <segc/eval.h>
#include <segc/plot.h>

#include "cli/cli.h"
#include "cli/cli_output.h"

#define MAX_AXES 32
#define MAX_POINTS 1000000UL
#define NCOLS_FIXED 6

/* The options of 'eval'. */
typedef struct eval_opts {
	const char *file;
	const char *svg;
	long precision;
	long digits;
	int csv;
	int canonical;
	const char *procs;       /* --procs: the processor count (P) */
	int speedup;             /* the speedup columns are printed */
	size_t naxes;
	cli_axis axes[MAX_AXES];
} eval_opts;

static const char *const fixed_cols[NCOLS_FIXED] = {
	"comp", "comm", "io", "total", "speedup", "efficiency"
};

/* -------------------------------------------------------------- ranges */

/* A copy of the 'n' bytes at 's'. */
static char *name_copy(const char *s, size_t n)
{
	char *d = malloc(n + 1);

	if (!d)
		abort();
	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

/* Parses NAME=RANGE into a new axis of 'o'; 0 on success. */
static int parse_axis(segc_ctx *ctx, cli_common *c, eval_opts *o,
	const char *arg)
{
	const char *eq = strchr(arg, '=');
	cli_axis *a;
	size_t i;

	if (o->naxes == MAX_AXES)
		return cli_usage(c, "at most %d NAME=RANGE", MAX_AXES), -1;
	a = &o->axes[o->naxes];
	memset(a, 0, sizeof *a);
	if (!eq || eq == arg)
		return cli_usage(c, "'%s' is not NAME=RANGE", arg), -1;
	for (i = 0; i < o->naxes; i++)
		if (strlen(o->axes[i].name) == (size_t)(eq - arg) &&
		    !strncmp(o->axes[i].name, arg, (size_t)(eq - arg)))
			return cli_usage(c, "%s: '%s' is given twice in the grid",
				arg, o->axes[i].name), -1;
	a->name = name_copy(arg, (size_t)(eq - arg));
	if (cli_axis_fill(ctx, a, eq + 1, MAX_POINTS)) {
		cli_axis_clear(a);
		return cli_usage(c, "bad range in '%s': V, A..B (integers), "
			"A..B*K (K > 1, A > 0) or V1,V2,... with exact numbers",
			arg), -1;
	}
	o->naxes++;
	return 0;
}

/* ------------------------------------------------------------- options */

/* Consumes an option of 'eval' itself: 1, 0 (not one) or -1. */
static int eval_option(cli_common *c, int argc, char **argv, int *i,
	void *opts)
{
	eval_opts *o = opts;
	const char *v;
	int r;

	if (!strcmp(argv[*i], "--csv")) {
		o->csv = 1;
		(*i)++;
		return 1;
	}
	if ((r = cli_option_value(c, argc, argv, i, "precision", 0, &v)) != 0)
		return r < 0 ? r : cli_number_option(c, "precision", v,
			MPFR_PREC_MIN > 2 ? MPFR_PREC_MIN : 2, 100000, &o->precision);
	if ((r = cli_digits_option(c, argc, argv, i, &o->digits)) != 0)
		return r;
	if ((r = cli_option_value(c, argc, argv, i, "form", 0, &v)) != 0) {
		if (r > 0 && strcmp(v, "structural") && strcmp(v, "canonical"))
			return cli_usage(c, "unknown form '%s' (structural or "
				"canonical)", v), -1;
		if (r > 0)
			o->canonical = !strcmp(v, "canonical");
		return r;
	}
	if ((r = cli_option_value(c, argc, argv, i, "procs", 0, &v)) != 0) {
		if (r > 0)
			o->procs = v;
		return r;
	}
	if ((r = cli_option_value(c, argc, argv, i, "svg", 0, &v)) != 0) {
		if (r > 0)
			o->svg = v;
		return r;
	}
	return 0;
}

/* Takes the operand 'arg' when it is a range NAME=RANGE; else it is the
 * model. */
static int eval_operand(segc_ctx *ctx, cli_common *c, const char *arg,
	void *opts)
{
	if (!strchr(arg, '='))
		return 0;
	return parse_axis(ctx, c, opts, arg) ? -1 : 1;
}

/* ---------------------------------------------------------- the table */

/* The cells of the table, row after row, and the plotted values. */
typedef struct table {
	size_t ncols, ncells, cap;
	char **cells;
	size_t npoints;
	double *x, *y[4];        /* the swept value and each component */
} table;

/* Appends one cell (a copy of 'text'). */
static void table_put(table *t, const char *text)
{
	if (t->ncells == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 64;
		t->cells = realloc(t->cells, t->cap * sizeof *t->cells);
		if (!t->cells)
			abort();
	}
	t->cells[t->ncells] = malloc(strlen(text) + 1);
	if (!t->cells[t->ncells])
		abort();
	strcpy(t->cells[t->ncells++], text);
}

/* Appends the value 'x' formatted to 'digits' significant digits. */
static void table_put_mpfr(table *t, mpfr_srcptr x, long digits)
{
	char buf[1100];

	mpfr_snprintf(buf, sizeof buf, "%.*Rg", (int)digits, x);
	table_put(t, buf);
}

/* Appends the exact rational 'q'. */
static void table_put_mpq(table *t, const mpq_t q)
{
	char *s = mpq_get_str(NULL, 10, q);

	if (!s)
		abort();
	table_put(t, s);
	free(s);
}

/* The number of decimals 'a' (> 0) is printed with: those of
 * 'digits' significant digits, fewer when its decimal ends sooner. */
static unsigned long decimals_of(const mpq_t a, long digits)
{
	unsigned long v2, v5, end;
	long e = 0;
	mpz_t d, f;
	mpq_t x;

	mpq_init(x);
	mpq_set(x, a);
	for (; mpq_cmp_ui(x, 10, 1) >= 0; e++) {
		mpz_mul_ui(mpq_denref(x), mpq_denref(x), 10);
		mpq_canonicalize(x);
	}
	for (; mpq_cmp_ui(x, 1, 1) < 0; e--) {
		mpz_mul_ui(mpq_numref(x), mpq_numref(x), 10);
		mpq_canonicalize(x);
	}
	mpq_clear(x);
	mpz_init_set(d, mpq_denref(a));
	mpz_init_set_ui(f, 2);
	v2 = mpz_remove(d, d, f);
	mpz_set_ui(f, 5);
	v5 = mpz_remove(d, d, f);
	end = v2 > v5 ? v2 : v5;
	e = digits - 1 - e < 0 ? 0 : digits - 1 - e;
	if (!mpz_cmp_ui(d, 1) && (unsigned long)e > end)
		e = (long)end;
	mpz_clear(d);
	mpz_clear(f);
	return (unsigned long)e;
}

/* The decimal digits of round('a' * 10^'s'), ties to even. */
static char *scaled_digits(const mpq_t a, unsigned long s)
{
	mpz_t n, r;
	char *str;
	int cmp;

	mpz_init(n);
	mpz_init(r);
	mpz_ui_pow_ui(n, 10, s);
	mpz_mul(n, n, mpq_numref(a));
	mpz_fdiv_qr(n, r, n, mpq_denref(a));
	mpz_mul_2exp(r, r, 1);
	cmp = mpz_cmp(r, mpq_denref(a));
	if (cmp > 0 || (cmp == 0 && mpz_odd_p(n)))
		mpz_add_ui(n, n, 1);
	str = mpz_get_str(NULL, 10, n);
	if (!str)
		abort();
	mpz_clear(n);
	mpz_clear(r);
	return str;
}

/* Appends 'q' as a decimal in fixed notation, correctly rounded (ties to
 * even) to 'digits' significant digits, exact when it ends sooner: the
 * parameter columns of --csv. */
static void table_put_decimal(table *t, const mpq_t q, long digits)
{
	unsigned long s;
	size_t len, pad, i = 0, k;
	char *str, *out;
	mpq_t a;

	mpq_init(a);
	mpq_abs(a, q);
	s = mpq_sgn(q) ? decimals_of(a, digits) : 0;
	str = scaled_digits(a, s);
	len = strlen(str);
	while (s && len > 1 && str[len - 1] == '0') {
		str[--len] = '\0';
		s--;
	}
	out = malloc(len + s + 4);

	if (!out)
		abort();
	pad = len <= s ? s + 1 - len : 0;
	if (mpq_sgn(q) < 0)
		out[i++] = '-';
	for (k = 0; k < pad + len; k++) {
		if (s && k == pad + len - s)
			out[i++] = '.';
		out[i++] = k < pad ? '0' : str[k - pad];
	}
	out[i] = '\0';
	table_put(t, out);
	free(str);
	free(out);
	mpq_clear(a);
}

/* Puts the table on standard output: aligned columns, or CSV. */
static void table_print(const table *t, int csv)
{
	size_t *w = calloc(t->ncols, sizeof *w), i, j;

	if (!w)
		abort();
	for (i = 0; i < t->ncells; i++)
		if (strlen(t->cells[i]) > w[i % t->ncols])
			w[i % t->ncols] = strlen(t->cells[i]);
	for (i = 0; i < t->ncells; i += t->ncols) {
		for (j = 0; j < t->ncols; j++) {
			if (csv)
				cli_printf("%s%s", j ? "," : "", t->cells[i + j]);
			else
				cli_printf("%s%*s", j ? "  " : "", (int)w[j],
					t->cells[i + j]);
		}
		cli_puts("\n");
	}
	free(w);
}

/* Releases 't'. */
static void table_clear(table *t)
{
	size_t i;

	for (i = 0; i < t->ncells; i++)
		free(t->cells[i]);
	free(t->cells);
	free(t->x);
	for (i = 0; i < 4; i++)
		free(t->y[i]);
}

/* --------------------------------------------------------- evaluation */

/* What the evaluation of one run needs. */
typedef struct run {
	segc_ctx *ctx;
	const eval_opts *o;
	segc_expr *f[4];
	const char **names;      /* the axes' names, then "P" when absent */
	mpq_t *values;
	size_t npoint;           /* names at a point */
	size_t p_index;          /* index of P among the names */
	int speedup;             /* the speedup columns are printed */
	size_t procs;            /* then the axis of --procs */
	size_t swept;            /* the plotted axis, or (size_t)-1 */
	segc_where where;
	const char *title;       /* the model's name */
	cli_file *svg;           /* the file of --svg, or NULL */
	table t;
} run;

/* Evaluates 'e' at the current point into 'x'; 0 on success. */
static int eval_at(run *r, const segc_expr *e, mpfr_t x)
{
	segc_point pt;

	pt.n = r->npoint;
	pt.names = r->names;
	pt.values = (const mpq_t *)r->values;
	return segc_eval_mpfr(r->ctx, x, e, &pt, &r->where);
}

/* Records where the evaluation failed: the values of the point. */
static void report_point(run *r)
{
	char buf[512];
	size_t i, len = 0;

	buf[0] = '\0';
	for (i = 0; i < r->o->naxes && len < sizeof buf - 1; i++) {
		char *q = mpq_get_str(NULL, 10, r->values[i]);

		if (!q)
			abort();
		len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%s=%s",
			i ? ", " : "", r->names[i], q);
		free(q);
		if (len >= sizeof buf)
			len = sizeof buf - 1;
	}
	segc_error(r->ctx, SEGC_ERR_INPUT, r->o->file, r->where.line, 0,
		"the evaluation failed at the point %s", buf);
}

/* Appends the speedup T(1)/T ('t1' over 't') and the efficiency (the
 * speedup over the processor count 'p'): '-' when T is 0. */
static void put_speedup(run *r, mpfr_srcptr t, mpfr_srcptr t1,
	const mpq_t p)
{
	mpfr_t s;

	if (mpfr_zero_p(t)) {
		table_put(&r->t, "-");
		table_put(&r->t, "-");
		return;
	}
	mpfr_init2(s, (mpfr_prec_t)r->o->precision);
	mpfr_div(s, t1, t, MPFR_RNDN);
	table_put_mpfr(&r->t, s, r->o->digits);
	mpfr_div_q(s, s, p, MPFR_RNDN);
	table_put_mpfr(&r->t, s, r->o->digits);
	mpfr_clear(s);
}

/* Evaluates the current point and appends its row; 0 on success. */
static int eval_row(run *r)
{
	mpfr_t v[4], t1, s;
	mpq_t saved;
	size_t i;
	int rc = -1, k;

	for (k = 0; k < 4; k++)
		mpfr_init2(v[k], (mpfr_prec_t)r->o->precision);
	mpfr_init2(t1, (mpfr_prec_t)r->o->precision);
	mpfr_init2(s, (mpfr_prec_t)r->o->precision);
	mpq_init(saved);
	for (i = 0; i < r->o->naxes; i++)
		if (r->o->csv)
			table_put_decimal(&r->t, r->values[i], r->o->digits);
		else
			table_put_mpq(&r->t, r->values[i]);
	for (k = 0; k < 4; k++)
		if (eval_at(r, r->f[(k + 1) % 4], v[(k + 1) % 4]))
			goto out;
	for (k = 1; k < 4; k++)
		table_put_mpfr(&r->t, v[k], r->o->digits);
	table_put_mpfr(&r->t, v[0], r->o->digits);
	if (r->speedup) {
		mpq_set(saved, r->values[r->procs]);
		mpq_set_ui(r->values[r->procs], 1, 1);
		k = eval_at(r, r->f[0], t1);
		mpq_set(r->values[r->procs], saved);
		if (k)
			goto out;
		put_speedup(r, v[0], t1, saved);
	}
	if (r->swept != (size_t)-1) {
		r->t.x[r->t.npoints] = mpq_get_d(r->values[r->swept]);
		for (k = 0; k < 4; k++)
			r->t.y[k][r->t.npoints] = mpfr_get_d(v[k], MPFR_RNDN);
		r->t.npoints++;
	}
	rc = 0;
out:
	for (k = 0; k < 4; k++)
		mpfr_clear(v[k]);
	mpfr_clear(t1);
	mpfr_clear(s);
	mpq_clear(saved);
	return rc;
}

/* The number of points of the grid (0 when more than MAX_POINTS). */
static size_t grid_points(const eval_opts *o)
{
	size_t i, n = 1;

	for (i = 0; i < o->naxes; i++) {
		if (o->axes[i].n && n > MAX_POINTS / o->axes[i].n)
			return 0;
		n *= o->axes[i].n;
	}
	return n;
}

/* Evaluates every point of the grid, the first axis outermost. */
static int eval_grid(run *r)
{
	size_t idx[MAX_AXES] = { 0 }, i;

	for (;;) {
		for (i = 0; i < r->o->naxes; i++)
			mpq_set(r->values[i], r->o->axes[i].v[idx[i]]);
		if (eval_row(r)) {
			report_point(r);
			return -1;
		}
		for (i = r->o->naxes; i-- > 0;) {
			if (++idx[i] < r->o->axes[i].n)
				break;
			idx[i] = 0;
		}
		if (i == (size_t)-1)
			return 0;
	}
}

/* Non-zero when 'name' is among the first 'n' of 'v'; else adds it
 * (when there is room) and returns 0. */
static int seen_before(const char **v, size_t *n, size_t cap,
	const char *name)
{
	size_t j;

	for (j = 0; j < *n; j++)
		if (!strcmp(v[j], name))
			return 1;
	if (*n < cap)
		v[(*n)++] = name;
	return 0;
}

/* Non-zero when 'name' is one of the axes. */
static int is_axis(const run *r, const char *name)
{
	size_t j;

	for (j = 0; j < r->o->naxes; j++)
		if (!strcmp(r->names[j], name))
			return 1;
	return 0;
}

/* Reports every name the formulas need that the grid does not give, and
 * every uninterpreted call, each once. */
static int check_names(run *r)
{
	const char *seen[256];
	size_t nseen = 0, i, n;
	int k, calls, bad = 0;

	for (calls = 0; calls < 2; calls++)
		for (k = 0; k < 4; k++) {
			const char **v;

			n = segc_output_names(r->f[k], calls, &v);
			for (i = 0; i < n; i++) {
				if ((!calls && is_axis(r, v[i])) ||
				    seen_before(seen, &nseen, 256, v[i]))
					continue;
				if (calls)
					segc_error(r->ctx, SEGC_ERR_INPUT, r->o->file, r->where.line,
						0, "the function '%s' is not defined (an "
						"uninterpreted call): give a machine that "
						"defines it", v[i]);
				else
					segc_error(r->ctx, SEGC_ERR_INPUT, r->o->file, r->where.line,
						0, "'%s' has no value: give %s=RANGE, -D "
						"%s=VALUE or a machine that binds it", v[i],
						v[i], v[i]);
				bad = 1;
			}
			free(v);
		}
	return bad ? -1 : 0;
}

/* --------------------------------------------------------------- SVG */

/* Writes the plot of the components against the swept axis to the file
 * of --svg (renamed into place when the command ends); 0 on success. */
static int write_svg(run *r)
{
	static const char *const labels[4] = { "total", "comp", "comm", "io" };
	segc_svg_series series[4];
	size_t n = 0;
	char *svg, title[300];
	int k, rc;

	for (k = 1; k <= 4; k++) {
		if (segc_expr_is_zero(r->f[k % 4]))
			continue;
		series[n].label = labels[k % 4];
		series[n].n = r->t.npoints;
		series[n].x = r->t.x;
		series[n].y = r->t.y[k % 4];
		n++;
	}
	snprintf(title, sizeof title, "%.200s", r->title);
	svg = segc_svg_loglog(title, r->names[r->swept], "time", n, series);
	if (!svg) {
		fprintf(stderr, "segc: eval: nothing to plot on log-log axes "
			"(no positive values)\n");
		return -1;
	}
	rc = cli_output_write(r->svg, svg);
	free(svg);
	return rc;
}

/* The axis plotted: the only one with several values; -1 (reported)
 * when there is none or more than one. */
static int choose_swept(cli_common *c, run *r)
{
	size_t i;

	r->swept = (size_t)-1;
	for (i = 0; i < r->o->naxes; i++)
		if (r->o->axes[i].n > 1) {
			if (r->swept != (size_t)-1)
				return cli_usage(c, "--svg plots against one swept "
					"parameter: give the others one value"), -1;
			r->swept = i;
		}
	if (r->swept == (size_t)-1)
		return cli_usage(c, "--svg needs a parameter with several "
			"values"), -1;
	return 0;
}

/* --------------------------------------------------------- the command */

/* Prepares the names and values of a point: the axes, then P = 1 when no
 * axis gives P (so that the speedup is defined). */
static void setup_point(run *r)
{
	size_t i;

	r->npoint = r->o->naxes;
	r->names = calloc(r->npoint + 1, sizeof *r->names);
	r->values = malloc((r->npoint + 1) * sizeof *r->values);
	if (!r->names || !r->values)
		abort();
	r->p_index = (size_t)-1;
	for (i = 0; i < r->o->naxes; i++) {
		r->names[i] = r->o->axes[i].name;
		if (!strcmp(r->names[i], "P"))
			r->p_index = i;
	}
	if (r->p_index == (size_t)-1) {
		r->p_index = r->npoint;
		r->names[r->npoint++] = "P";
	}
	for (i = 0; i < r->npoint; i++) {
		mpq_init(r->values[i]);
		mpq_set_ui(r->values[i], 1, 1);
	}
}

/* Allocates the plotted values for 'n' points. */
static void setup_plot(run *r, size_t n)
{
	int k;

	r->t.x = malloc((n + 1) * sizeof *r->t.x);
	for (k = 0; k < 4; k++)
		r->t.y[k] = malloc((n + 1) * sizeof *r->t.y[k]);
	if (!r->t.x || !r->t.y[0] || !r->t.y[1] || !r->t.y[2] || !r->t.y[3])
		abort();
}

/* Derives the four components: the structural form (cheap to evaluate
 * exactly; a sum binder with many terms by its closed form), or the
 * canonical form with --form canonical. */
static int derive_all(run *r, const segc_setting *s)
{
	return segc_derive_components(r->ctx, s, r->o->canonical ?
		SEGC_DERIVE_CANONICAL : 0, SEGC_COMPONENTS_ALL, r->f);
}

/* Reports (-1) a value of an axis outside the domain the model declares
 * for that name: there the canonical and structural forms may rightly
 * differ (a simplification used the domain), so no value is given. */
static int check_domains(run *r, const segc_setting *s)
{
	segc_domains *d = segc_setting_domains(r->ctx, s);
	size_t i, j;
	int bad = 0;

	if (!d)
		return -1;
	for (i = 0; i < r->o->naxes; i++) {
		const cli_axis *a = &r->o->axes[i];
		mpq_srcptr lo, hi;
		int integer;

		if (!segc_domains_get(d, a->name, &lo, &hi, &integer))
			continue;
		for (j = 0; j < a->n; j++) {
			mpq_srcptr v = a->v[j];
			const char *why = lo && mpq_cmp(v, lo) < 0 ? "below its "
				"minimum" : hi && mpq_cmp(v, hi) > 0 ? "above its "
				"maximum" : integer && mpz_cmp_ui(mpq_denref(v), 1) ?
				"not an integer" : NULL;
			char *q, *l, *h;

			if (!why)
				continue;
			q = mpq_get_str(NULL, 10, v);
			l = lo ? mpq_get_str(NULL, 10, lo) : NULL;
			h = hi ? mpq_get_str(NULL, 10, hi) : NULL;
			segc_error(r->ctx, SEGC_ERR_INPUT, r->o->file, 0, 0,
				"%s=%s is %s: the model declares %s in [%s, %s]%s",
				a->name, q, why, a->name, l ? l : "-inf",
				h ? h : "+inf", integer ? ", an integer" : "");
			free(q);
			free(l);
			free(h);
			bad = 1;
			break;
		}
	}
	segc_domains_free(d);
	return bad ? -1 : 0;
}

/* Decides the speedup columns: printed when the grid gives the processor
 * count (--procs, default P) and the total depends on it; refused (-1,
 * reported) when the model's domain for it leaves out 1, where T(1) is
 * not defined. */
static int choose_speedup(run *r, const segc_setting *s)
{
	const char *p = r->o->procs ? r->o->procs : "P", **v;
	segc_domains *d;
	mpq_srcptr lo, hi;
	size_t i, n;
	int integer;

	r->speedup = 0;
	for (r->procs = 0; r->procs < r->o->naxes; r->procs++)
		if (!strcmp(r->o->axes[r->procs].name, p))
			break;
	if (r->procs == r->o->naxes)
		return 0;
	n = segc_output_names(r->f[0], 0, &v);
	for (i = 0; i < n && !r->speedup; i++)
		r->speedup = !strcmp(v[i], p);
	free(v);
	if (!r->speedup || !(d = segc_setting_domains(r->ctx, s)))
		return r->speedup ? -1 : 0;
	if (segc_domains_get(d, p, &lo, &hi, &integer) && ((lo &&
	    mpq_cmp_ui(lo, 1, 1) > 0) || (hi && mpq_cmp_ui(hi, 1, 1) < 0)))
		segc_error(r->ctx, SEGC_ERR_INPUT, r->o->file, r->where.line, 0, "the "
			"speedup T(%s=1)/T is undefined: %s=1 is outside the "
			"domain the model declares for %s; name another "
			"processor count with --procs, or evaluate without %s "
			"in the grid", p, p, p, p);
	segc_domains_free(d);
	return segc_ctx_status(r->ctx) == SEGC_OK ? 0 : -1;
}

/* Computes the table and puts it on standard output, and writes the plot
 * (its file created first, so that a bad target fails before the work);
 * returns the exit code. */
static int evaluate(cli_common *c, run *r, const segc_setting *s)
{
	size_t n = grid_points(r->o), i;
	int rc;

	if (!n)
		return cli_usage(c, "the grid has more than %lu points",
			MAX_POINTS);
	if (r->o->svg && choose_swept(c, r))
		return CLI_USAGE;
	if (r->o->svg && !(r->svg = cli_output_open("eval", r->o->svg)))
		return CLI_USAGE;
	if (!r->o->svg)
		r->swept = (size_t)-1;
	setup_point(r);
	setup_plot(r, n);
	if (!check_domains(r, s) && !derive_all(r, s) && !check_names(r) &&
	    !choose_speedup(r, s)) {
		r->t.ncols = r->o->naxes + NCOLS_FIXED - (r->speedup ? 0 : 2);
		for (i = 0; i < r->o->naxes; i++)
			table_put(&r->t, r->o->axes[i].name);
		for (i = 0; i < r->t.ncols - r->o->naxes; i++)
			table_put(&r->t, fixed_cols[i]);
		eval_grid(r);
	}
	rc = cli_report(r->ctx);
	if (rc)
		return rc;
	table_print(&r->t, r->o->csv);
	if (r->o->svg && write_svg(r))
		return CLI_USAGE;
	return CLI_OK;
}

/* Releases the run. */
static void run_clear(run *r)
{
	size_t i;
	int k;

	for (k = 0; k < 4; k++)
		segc_expr_free(r->f[k]);
	for (i = 0; r->values && i < r->npoint; i++)
		mpq_clear(r->values[i]);
	free(r->values);
	free(r->names);
	table_clear(&r->t);
}

/* Checks the grid's names: each declared by the model or machine, and
 * not bound by -D too; CLI_USAGE (reported) otherwise.  Then binds each
 * to itself, as --keep does, so that the grid's values win over those a
 * machine or a <param value> gives the name (which would otherwise be
 * substituted first, and the grid's values ignored). */
static int check_axes(segc_ctx *ctx, const cli_common *c,
	const eval_opts *o, const segc_setting *s)
{
	size_t i;
	int rc = CLI_OK;

	for (i = 0; i < o->naxes; i++)
		if (cli_check_declared(c, s, "grid name", o->axes[i].name) ||
		    cli_grid_not_defined(c, o->axes[i].name))
			return CLI_USAGE;
	if (o->procs && cli_check_declared(c, s, "--procs", o->procs))
		return CLI_USAGE;
	for (i = 0; i < o->naxes && !rc; i++)
		rc = cli_bind_to_itself(ctx, c, o->axes[i].name);
	return rc;
}

/* Checks the grid, evaluates and prints under 's'; the exit code. */
static int run_eval(segc_ctx *ctx, cli_common *c, void *opts,
	const segc_setting *s)
{
	eval_opts *o = opts;
	run r;
	int rc;

	memset(&r, 0, sizeof r);
	o->file = c->file;
	r.ctx = ctx;
	r.o = o;
	r.where.file = o->file;
	r.where.line = segc_model_program_line(s->model);
	r.title = segc_model_name(s->model);
	rc = check_axes(ctx, c, o, s);
	if (!rc)
		rc = evaluate(c, &r, s);
	run_clear(&r);
	return rc;
}

/* Runs 'segc eval'. */
int cmd_eval(int argc, char **argv)
{
	static const cli_model_command cmd = { "eval", eval_option,
		eval_operand, NULL, run_eval };
	eval_opts o;
	size_t i;
	int rc;

	memset(&o, 0, sizeof o);
	o.precision = 128;
	o.digits = 6;
	rc = cli_model_command_run(&cmd, argc, argv, &o);
	for (i = 0; i < o.naxes; i++)
		cli_axis_clear(&o.axes[i]);
	return rc;
}
