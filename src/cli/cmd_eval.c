/* cmd_eval.c - 'segc eval': every component of a model evaluated with MPFR
 * over a grid of parameter values (or the rows of --measured, or the
 * grid of --map), with the speedup and efficiency of strong or weak
 * scaling, printed as a table (or CSV), and optionally plotted (SVG). */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_eval.h"
#include "cli/cli_json.h"
#include "cli/cli_util.h"
#include "cli/json_commands.h"

#define MAX_AXES EVAL_MAX_AXES
#define MAX_POINTS 1000000UL
#define NCOLS_FIXED 6

static const char *const fixed_cols[NCOLS_FIXED] = {
	"comp", "comm", "io", "total", "speedup", "efficiency"
};

/* -------------------------------------------------------------- ranges */

/* A copy of the 'n' bytes at 's'. */
static char *name_copy(const char *s, size_t n)
{
	char *d = cli_xmalloc(n + 1);

	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

/* Parses the interval 'text' of NAME=[LO,HI] ('arg') into the axis of
 * 'o' being added (named already): LO its one value, HI beside it; 0 on
 * success. */
static int parse_interval(segc_ctx *ctx, cli_common *c, eval_opts *o,
	const char *arg, const char *text)
{
	cli_axis *a = &o->axes[o->naxes];
	mpq_t lo;
	int rc;

	mpq_init(lo);
	mpq_init(o->ihi[o->naxes]);
	rc = eval_interval_parse(ctx, text, lo, o->ihi[o->naxes]);
	if (!rc) {
		a->v = cli_xmalloc(sizeof *a->v);
		a->cap = a->n = 1;
		mpq_init(a->v[0]);
		mpq_set(a->v[0], lo);
		o->interval[o->naxes] = 1;
		o->nintervals++;
		o->naxes++;
	}
	mpq_clear(lo);
	if (!rc)
		return 0;
	mpq_clear(o->ihi[o->naxes]);
	cli_axis_clear(a);
	if (rc == -2)
		return cli_usage(c, "bad interval in '%s': its lower end "
			"exceeds its upper end", arg), -1;
	return cli_usage(c, "bad interval in '%s': [LO,HI] with exact "
		"numbers LO <= HI", arg), -1;
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
	if (eq[1] == '[')
		return parse_interval(ctx, c, o, arg, eq + 1);
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

	if (!strncmp(argv[*i], "-D", 2) && (argv[*i][2] ? argv[*i] + 2 :
	    *i + 1 < argc ? argv[*i + 1] : "")[0] != '\0') {
		const char *d = argv[*i][2] ? argv[*i] + 2 : argv[*i + 1];
		const char *eq = strchr(d, '=');

		/* -D NAME=[LO,HI]: an interval, as the operand NAME=[LO,HI] */
		segc_ctx *scratch;
		int bad;

		if (!eq || eq[1] != '[')
			return 0;
		scratch = segc_ctx_new();
		bad = parse_axis(scratch, c, o, d);
		segc_ctx_free(scratch);
		if (bad)
			return -1;
		*i += argv[*i][2] ? 1 : 2;
		return 1;
	}
	if (!strcmp(argv[*i], "--csv")) {
		o->csv = 1;
		(*i)++;
		return 1;
	}
	if (cli_json_option(argv, i, &o->json))
		return 1;
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
	if ((r = cli_option_value(c, argc, argv, i, "arith", 0, &v)) != 0) {
		if (r > 0 && strcmp(v, "ball") && strcmp(v, "exact"))
			return cli_usage(c, "unknown arithmetic '%s' (ball or "
				"exact)", v), -1;
		if (r > 0)
			o->arith = strcmp(v, "ball") ? SEGC_EVAL_RATIONALS :
				SEGC_EVAL_BALLS;
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
	if ((r = cli_csv_option(c, argc, argv, i, &o->table)) != 0)
		return r;
	if ((r = cli_option_value(c, argc, argv, i, "measured", 0, &v)) != 0) {
		if (r > 0)
			o->measured = v;
		return r;
	}
	if ((r = cli_option_value(c, argc, argv, i, "scaling", 0, &v)) != 0) {
		if (r > 0 && strcmp(v, "strong") && strcmp(v, "weak"))
			return cli_usage(c, "unknown scaling '%s' (strong or "
				"weak)", v), -1;
		if (r > 0)
			o->weak = !strcmp(v, "weak");
		return r;
	}
	if ((r = cli_option_value(c, argc, argv, i, "plot", 0, &v)) != 0) {
		static const char *const plots[] = { "time", "speedup",
			"efficiency" };
		int k;

		for (k = 0; r > 0 && k < 3 && strcmp(v, plots[k]); k++)
			;
		if (r > 0 && k == 3)
			return cli_usage(c, "unknown plot '%s' (time, speedup or "
				"efficiency)", v), -1;
		if (r > 0) {
			o->plot = k;
			o->plot_given = 1;
		}
		return r;
	}
	if ((r = cli_option_value(c, argc, argv, i, "component", 0, &v)) != 0) {
		static const char *const comps[] = { "total", "comp", "comm",
			"io" };
		int k;

		for (k = 0; r > 0 && k < 4 && strcmp(v, comps[k]); k++)
			;
		if (r > 0 && k == 4)
			return cli_usage(c, "unknown component '%s' (total, comp, "
				"comm or io)", v), -1;
		if (r > 0) {
			o->map_comp = k;
			o->comp_given = 1;
		}
		return r;
	}
	if (!strcmp(argv[*i], "--map")) {
		if (*i + 2 >= argc || argv[*i + 1][0] == '-' ||
		    argv[*i + 2][0] == '-')
			return cli_usage(c, "--map needs two names: --map X Y"),
				-1;
		o->map_x = argv[*i + 1];
		o->map_y = argv[*i + 2];
		*i += 3;
		return 1;
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

/* --------------------------------------------------------- evaluation */

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
static int eval_grid(eval_run *r)
{
	size_t idx[MAX_AXES] = { 0 }, i;

	for (;;) {
		for (i = 0; i < r->o->naxes; i++)
			mpq_set(r->values[i], r->o->axes[i].v[idx[i]]);
		if (eval_row(r)) {
			eval_report_point(r);
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
static int is_axis(const eval_run *r, const char *name)
{
	size_t j;

	for (j = 0; j < r->nax; j++)
		if (!strcmp(r->names[j], name))
			return 1;
	return 0;
}

/* Reports every name the formulas need that the grid does not give, and
 * every uninterpreted call, each once. */
static int check_names(eval_run *r)
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

/* The name plotted: the only one with several values; -1 (reported)
 * when there is none or more than one. */
static int choose_swept(cli_common *c, eval_run *r)
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

/* Prepares the names and values of a point: the first r->nax names
 * (set by the caller), then P = 1 when none of them is P (so that the
 * speedup is defined); the components' values. */
static void setup_point(eval_run *r)
{
	size_t i;
	int k;

	r->npoint = r->nax;
	r->p_index = (size_t)-1;
	for (i = 0; i < r->nax; i++)
		if (!strcmp(r->names[i], "P"))
			r->p_index = i;
	if (r->p_index == (size_t)-1) {
		r->p_index = r->npoint;
		r->names[r->npoint++] = "P";
	}
	r->values = cli_xmalloc((r->npoint + 1) * sizeof *r->values);
	for (i = 0; i < r->npoint; i++) {
		mpq_init(r->values[i]);
		mpq_set_ui(r->values[i], 1, 1);
	}
	for (k = 0; k < 4; k++)
		mpfr_init2(r->v[k], (mpfr_prec_t)r->o->precision);
}

/* The names of the grid's axes, with room for P. */
static void grid_names(eval_run *r)
{
	size_t i;

	r->nax = r->o->naxes;
	r->names = cli_xcalloc(r->nax + 1, sizeof *r->names);
	for (i = 0; i < r->nax; i++)
		r->names[i] = r->o->axes[i].name;
}

/* Derives the four components: the structural form (cheap to evaluate
 * exactly; a sum binder with many terms by its closed form), or the
 * canonical form with --form canonical. */
static int derive_all(eval_run *r, const segc_setting *s)
{
	return segc_derive_components(r->ctx, s, r->o->canonical ?
		SEGC_DERIVE_CANONICAL : 0, SEGC_COMPONENTS_ALL, r->f);
}

/* Reports (-1) a value of an axis outside the domain the model declares
 * for that name: there the canonical and structural forms may rightly
 * differ (a simplification used the domain), so no value is given. */
static int check_domains(eval_run *r, const segc_setting *s)
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
		for (j = 0; j < a->n + r->o->interval[i]; j++) {
			/* an interval's upper end after its lower one */
			mpq_srcptr v = j < a->n ? a->v[j] : r->o->ihi[i];
			const char *why = cli_domain_why(d, a->name, v);
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
 * count (--procs, default P) and the total depends on it (under weak
 * scaling whether it does or not: a total that does not is perfect weak
 * scaling).  Where the model's domain for it leaves out 1, T(1) is not
 * defined: the columns are left out with a note on standard error, or
 * refused (-1, reported) when --scaling weak or --plot asked for them. */
static int choose_speedup(eval_run *r, const segc_setting *s)
{
	const char *p = r->o->procs ? r->o->procs : "P", **v;
	segc_domains *d;
	mpq_srcptr lo, hi;
	size_t i, n;
	int integer, asked;

	r->speedup = 0;
	for (r->procs = 0; r->procs < r->nax; r->procs++)
		if (!strcmp(r->names[r->procs], p))
			break;
	if (r->procs == r->nax)
		return 0;
	n = segc_output_names(r->f[0], 0, &v);
	for (i = 0; i < n && !r->speedup; i++)
		r->speedup = !strcmp(v[i], p);
	free(v);
	r->speedup |= r->o->weak;
	if (!r->speedup || !(d = segc_setting_domains(r->ctx, s)))
		return r->speedup ? -1 : 0;
	asked = r->o->weak || r->o->plot != EVAL_PLOT_TIME;
	if (segc_domains_get(d, p, &lo, &hi, &integer) && ((lo &&
	    mpq_cmp_ui(lo, 1, 1) > 0) || (hi && mpq_cmp_ui(hi, 1, 1) < 0))) {
		if (asked)
			segc_error(r->ctx, SEGC_ERR_INPUT, r->o->file,
				r->where.line, 0, "the speedup T(%s=1)/T is "
				"undefined: %s=1 is outside the domain the model "
				"declares for %s; name another processor count "
				"with --procs, or evaluate without %s in the grid",
				p, p, p, p);
		else if (!r->c->quiet)
			fprintf(stderr, "segc: eval: note: no speedup and "
				"efficiency columns: T(%s=1) is undefined, %s=1 "
				"being outside the domain the model declares for "
				"%s\n", p, p, p);
		r->speedup = 0;
	}
	segc_domains_free(d);
	return segc_ctx_status(r->ctx) == SEGC_OK ? 0 : -1;
}

/* Checks --scaling weak: it needs the speedup columns and a -D binding
 * that makes some name grow with the processor count; -1 (reported)
 * otherwise. */
static int check_weak(eval_run *r)
{
	const char *p = r->o->procs ? r->o->procs : "P", **v;
	size_t i, j, n;
	int grows = 0;

	if (!r->o->weak)
		return 0;
	if (!r->speedup)
		return cli_usage(r->c, "--scaling weak needs the processor "
			"count %s among the %s, and a total that depends on it",
			p, r->o->measured ? "columns" : "swept names"), -1;
	for (i = 0; i < segc_bindings_count(r->c->bindings) && !grows; i++) {
		const segc_expr *e = segc_bindings_value(r->c->bindings, i);

		/* A grid name bound to itself (check_axes) grows with
		 * nothing. */
		if (segc_expr_kind(e) == SEGC_SYM && !strcmp(segc_expr_name(e),
		    segc_bindings_name(r->c->bindings, i)))
			continue;
		n = segc_output_names(e, 0, &v);
		for (j = 0; j < n; j++)
			grows |= !strcmp(v[j], p);
		free(v);
	}
	if (!grows)
		return cli_usage(r->c, "--scaling weak needs a problem size "
			"that grows with %s: bind it with -D, e.g. -D N=1000*%s",
			p, p), -1;
	return 0;
}

/* Checks --plot: speedup and efficiency only against the processor
 * count; -1 (reported) otherwise. */
static int check_plot(eval_run *r)
{
	if (r->o->plot == EVAL_PLOT_TIME || !r->o->svg)
		return 0;
	if (!r->speedup || r->swept != r->procs)
		return cli_usage(r->c, "--plot %s draws against the processor "
			"count %s: sweep it (and only it), with a total that "
			"depends on it", r->o->plot == EVAL_PLOT_SPEEDUP ?
			"speedup" : "efficiency", r->o->procs ? r->o->procs :
			"P"), -1;
	return 0;
}

/* Refuses the options that do not go together: a usage error. */
static int check_options(cli_common *c, const eval_opts *o)
{
	if (o->measured && o->naxes)
		return cli_usage(c, "--measured takes its points from the rows "
			"of %s: no NAME=RANGE with it (bind other names with -D)",
			o->measured);
	if (o->measured && o->map_x)
		return cli_usage(c, "--measured and --map do not go together");
	if (o->json && (o->csv || o->map_x))
		return cli_usage(c, "--json prints the table of a grid or of "
			"--measured: not with %s", o->csv ? "--csv" : "--map");
	if (!o->measured && (o->table.nmap || o->table.aggregate))
		return cli_usage(c, "--column and --aggregate read the table of "
			"--measured: give --measured DATA.csv");
	if (o->plot_given && !o->svg)
		return cli_usage(c, "--plot draws into the file of --svg: give "
			"--svg FILE");
	if (o->comp_given && !o->map_x)
		return cli_usage(c, "--component chooses the component of "
			"--map: every component is a column of the table");
	if (o->plot_given && (o->measured || o->map_x))
		return cli_usage(c, "--plot is for the plot of a grid: "
			"--measured and --map draw their own");
	return CLI_OK;
}

/* Sets up the names of a point and the plotted name from the grid, or
 * from the columns of --measured; an exit code. */
static int setup_names(cli_common *c, eval_run *r, segc_csv **csv,
	size_t *n)
{
	int rc;

	if (r->o->measured) {
		if ((rc = eval_measured_setup(r, csv)) != 0)
			return rc;
		*n = segc_csv_nrows(*csv);
		return CLI_OK;
	}
	grid_names(r);
	if (!(*n = grid_points(r->o)))
		return cli_usage(c, "the grid has more than %lu points",
			MAX_POINTS);
	r->swept = (size_t)-1;
	if (r->o->svg && !r->o->map_x && choose_swept(c, r))
		return CLI_USAGE;
	return CLI_OK;
}

/* Computes the table and puts it on standard output, and writes the plot
 * (its file created first, so that a bad target fails before the work);
 * returns the exit code. */
static int evaluate(cli_common *c, eval_run *r, const segc_setting *s)
{
	segc_csv *csv = NULL;
	size_t n = 0, i, ix = 0, iy = 0;
	int rc;

	if ((rc = check_options(c, r->o)) != 0 ||
	    (rc = setup_names(c, r, &csv, &n)) != 0 ||
	    (r->o->map_x && (rc = eval_map_check(r, &ix, &iy)) != 0))
		goto out;
	rc = CLI_USAGE;
	if (r->o->svg && !(r->svg = cli_output_open("eval", r->o->svg)))
		goto out;
	setup_point(r);
	eval_table_plot_alloc(&r->t, n);
	if (!check_domains(r, s) && !derive_all(r, s) && !check_names(r) &&
	    !choose_speedup(r, s)) {
		if (check_weak(r) || check_plot(r))
			goto out;
		r->t.ncols = r->nax + NCOLS_FIXED - (r->speedup ? 0 : 2);
		for (i = 0; !r->o->map_x && i < r->nax; i++)
			eval_table_put(&r->t, r->names[i]);
		for (i = 0; !r->o->map_x && i < r->t.ncols - r->nax; i++)
			eval_table_put(&r->t, fixed_cols[i]);
		if (csv)
			eval_measured_rows(r, csv);
		else if (r->o->map_x)
			eval_map(r, ix, iy);
		else
			eval_grid(r);
	}
	if (segc_ctx_status(r->ctx) == SEGC_OK && r->o->svg &&
	    (csv ? eval_measured_svg(r, csv) : r->o->map_x ?
	    eval_map_svg(r, ix, iy) : eval_plot_write(r)))
		goto out;
	if ((rc = cli_report(r->ctx)) != 0)
		goto out;
	if (r->o->json)
		json_eval(r, csv);
	else
		eval_table_print(&r->t, r->o->csv);
	rc = CLI_OK;
out:
	segc_csv_free(csv);
	return rc;
}

/* Releases the run. */
static void run_clear(eval_run *r)
{
	size_t i;
	int k;

	for (k = 0; k < 4; k++)
		segc_expr_free(r->f[k]);
	segc_counts_free(r->counts);
	for (i = 0; r->values && i < r->npoint; i++)
		mpq_clear(r->values[i]);
	for (k = 0; r->values && k < 4; k++)
		mpfr_clear(r->v[k]);
	free(r->values);
	free(r->names);
	eval_table_clear(&r->t);
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
	eval_run r;
	int rc;

	memset(&r, 0, sizeof r);
	o->file = c->file;
	/* --precision is a floor: a value of fewer bits than --digits
	 * print would show digits that are not the exact value's */
	o->precision = cli_bits_for_digits(o->precision, o->digits);
	r.ctx = ctx;
	r.c = c;
	r.o = o;
	r.s = s;
	r.where.file = o->file;
	r.where.line = segc_model_program_line(s->model);
	r.title = segc_model_name(s->model);
	r.swept = (size_t)-1;
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
	for (i = 0; i < o.naxes; i++) {
		cli_axis_clear(&o.axes[i]);
		if (o.interval[i])
			mpq_clear(o.ihi[i]);
	}
	cli_csv_opts_clear(&o.table);
	return rc;
}
