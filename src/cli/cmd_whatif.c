/* cmd_whatif.c - 'segc whatif': scenarios where some costs are multiplied
 * by a factor (named costs, or every cost of a component), each with the
 * exact speedup T_before/T_after in canonical form and, over a grid, a
 * table of T_before, T_after and the speedup (Simon & Wierum, Fig. 9). */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <segc/analysis.h>
#include <segc/eval.h>

#include "cli/cli.h"
#include "cli/cli_json.h"
#include "cli/cli_output.h"
#include "cli/cli_util.h"
#include "cli/json_commands.h"

#define MAX_SCENARIOS 64

/* The options of 'whatif'. */
typedef struct whatif_opts {
	cli_table_opts tab;     /* those it shares with sensitivity */
	int table_only;         /* --table: the tables, not the closed forms */
	size_t nspecs;
	const char *spec[MAX_SCENARIOS];
	int json;               /* --json */
	cli_json *doc;          /* its document, while the scenarios run */
} whatif_opts;

/* One scenario, read from its SPEC. */
typedef struct scenario {
	int cls;              /* the component of class:C, or -1 */
	size_t n;
	char *names[64];      /* the costs named */
	mpq_t factor;
} scenario;

/* Consumes --scale SPEC, --component C, --digits D or --table. */
static int whatif_option(cli_common *c, int argc, char **argv, int *i,
	void *opts)
{
	whatif_opts *o = opts;
	const char *v;
	int r;

	if (cli_json_option(argv, i, &o->json))
		return 1;
	if (!strcmp(argv[*i], "--table")) {
		o->table_only = 1;
		(*i)++;
		return 1;
	}
	if ((r = cli_option_value(c, argc, argv, i, "scale", 0, &v)) != 0) {
		if (r > 0 && o->nspecs == MAX_SCENARIOS)
			return cli_usage(c, "at most %d --scale", MAX_SCENARIOS),
				-1;
		if (r > 0)
			o->spec[o->nspecs++] = v;
		return r;
	}
	if ((r = cli_option_value(c, argc, argv, i, "component", 0,
			&o->tab.component)) != 0)
		return r;
	return cli_digits_option(c, argc, argv, i, &o->tab.digits);
}

/* Takes NAME=RANGE operands into the grid. */
static int whatif_operand(segc_ctx *ctx, cli_common *c, const char *arg,
	void *opts)
{
	whatif_opts *o = opts;

	return cli_table_operand(ctx, c, arg, &o->tab);
}

/* Releases 'sc'. */
static void scenario_clear(scenario *sc)
{
	size_t i;

	for (i = 0; i < sc->n; i++)
		free(sc->names[i]);
	mpq_clear(sc->factor);
}

/* Reads the names before the '=' of SPEC (comma-separated). */
static int spec_names(const cli_common *c, scenario *sc, const char *spec,
	const char *eq)
{
	const char *p = spec;

	while (p < eq) {
		const char *comma = memchr(p, ',', (size_t)(eq - p));
		const char *end = comma ? comma : eq;
		const char *r;
		char *name, buf[300];

		if (sc->n == 64 || end - p > 250)
			return cli_usage(c, "too many or too long names in '%s'",
				spec);
		snprintf(buf, sizeof buf, "%.*s=1", (int)(end - p), p);
		if (cli_name_range(c, "--scale", buf, &name, &r))
			return CLI_USAGE;
		sc->names[sc->n++] = name;
		p = end + 1;
	}
	return 0;
}

/* Reads SPEC: NAME[,NAME...]=FACTOR or class:C=FACTOR. */
static int spec_read(segc_ctx *ctx, const cli_common *c, scenario *sc,
	const char *spec)
{
	const char *eq = strrchr(spec, '=');
	segc_expr *f;
	char *cls;

	sc->cls = -1;
	if (!eq || eq == spec)
		return cli_usage(c, "'%s' is not NAME[,NAME...]=FACTOR or "
			"class:C=FACTOR", spec);
	f = segc_expr_parse(ctx, eq + 1, NULL);
	if (!f || segc_expr_eval_q(sc->factor, f, 0, NULL, NULL) ||
	    mpq_sgn(sc->factor) <= 0) {
		segc_expr_free(f);
		segc_ctx_clear(ctx);
		return cli_usage(c, "the factor of '%s' is not a positive exact "
			"number", spec);
	}
	segc_expr_free(f);
	if (strncmp(spec, "class:", 6))
		return spec_names(c, sc, spec, eq);
	cls = cli_xstrndup(spec + 6, (size_t)(eq - spec - 6));
	sc->cls = segc_component_parse(cls);
	free(cls);
	if (sc->cls <= 0)
		return cli_usage(c, "unknown class in '%s' (comp, comm or io)",
			spec);
	return 0;
}

/* T_after of scenario 'sc' for component 'comp', canonical. */
static segc_expr *after(segc_ctx *ctx, const segc_setting *s,
	const scenario *sc, enum segc_component comp)
{
	segc_expr *e = sc->cls >= 0 ? segc_scale_class(ctx, s, comp,
		(enum segc_component)sc->cls, sc->factor) :
		segc_scale_names(ctx, s, comp, sc->n,
		(const char *const *)sc->names, sc->factor);

	return e ? segc_quantity_canonical(ctx, s, e, NULL, NULL, NULL) : NULL;
}

/* The cells of a table, row after row, 'ncols' a row. */
typedef struct cells {
	size_t ncols, n;
	char **v;
} cells;

/* Appends the cell 'text' (taken). */
static void put(cells *t, char *text)
{
	t->v = cli_xrealloc(t->v, cli_xmul_size(t->n + 1, sizeof *t->v));
	t->v[t->n++] = text;
}

/* Appends 'x' to 'd' significant digits. */
static void put_mpfr(cells *t, mpfr_srcptr x, long d)
{
	char buf[1100];

	mpfr_snprintf(buf, sizeof buf, "%.*Rg", (int)d, x);
	put(t, cli_xstrdup(buf));
}

/* Releases the cells of 't'. */
static void free_cells(cells *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		free(t->v[i]);
	free(t->v);
	memset(t, 0, sizeof *t);
}

/* Prints 't' with right-aligned columns. */
static void print_cells(cells *t)
{
	size_t w[CLI_MAX_AXES + 3] = { 0 }, i, j;

	for (i = 0; i < t->n; i++)
		if (strlen(t->v[i]) > w[i % t->ncols])
			w[i % t->ncols] = strlen(t->v[i]);
	for (i = 0; i + t->ncols <= t->n; i += t->ncols) {
		for (j = 0; j < t->ncols; j++)
			cli_printf("%s%*s", j ? "  " : "", (int)w[j],
				t->v[i + j]);
		cli_puts("\n");
	}
}

/* Evaluates the row of one point into 't'; 0 or -1 (recorded). */
static int row(segc_ctx *ctx, const whatif_opts *o, const segc_point *pt,
	segc_eval_plan *before, segc_eval_plan *aft, cells *t)
{
	mpfr_t b, a, sp;
	size_t i;
	int rc;

	mpfr_inits2((mpfr_prec_t)cli_bits_for_digits(128, o->tab.digits), b, a,
		sp, (mpfr_ptr)0);
	rc = segc_eval_plan_mpfr(ctx, b, before, pt, NULL) ||
		segc_eval_plan_mpfr(ctx, a, aft, pt, NULL) ? -1 : 0;
	if (!rc) {
		for (i = 0; i < pt->n; i++)
			put(t, mpq_get_str(NULL, 10, pt->values[i]));
		mpfr_div(sp, b, a, MPFR_RNDN);
		put_mpfr(t, b, o->tab.digits);
		put_mpfr(t, a, o->tab.digits);
		put_mpfr(t, sp, o->tab.digits);
	}
	mpfr_clears(b, a, sp, (mpfr_ptr)0);
	return rc;
}

/* Prints the table of one scenario over the grid; 0 or -1 (recorded). */
static int table(segc_ctx *ctx, const whatif_opts *o, segc_expr *before,
	segc_expr *aft)
{
	size_t n = cli_grid_points(&o->tab.grid), k, i;
	const char *names[CLI_MAX_AXES];
	mpq_t v[CLI_MAX_AXES];
	segc_point pt;
	segc_eval_plan *pb, *pa;
	cells t = { 0, 0, NULL };
	int rc = 0;

	t.ncols = o->tab.grid.naxes + 3;
	for (i = 0; i < o->tab.grid.naxes; i++) {
		names[i] = o->tab.grid.axes[i].name;
		mpq_init(v[i]);
		put(&t, cli_xstrdup(names[i]));
	}
	put(&t, cli_xstrdup("T_before"));
	put(&t, cli_xstrdup("T_after"));
	put(&t, cli_xstrdup("speedup"));
	pt.n = o->tab.grid.naxes;
	pt.names = names;
	pt.values = (const mpq_t *)v;
	/* each side compiled once, run at every point */
	pb = segc_eval_plan_new(ctx, before, &pt);
	pa = pb ? segc_eval_plan_new(ctx, aft, &pt) : NULL;
	rc = pa ? 0 : -1;
	for (k = 0; k < n && !rc; k++) {
		cli_grid_point(&o->tab.grid, k, v);
		rc = row(ctx, o, &pt, pb, pa, &t);
	}
	segc_eval_plan_free(pb);
	segc_eval_plan_free(pa);
	if (!rc)
		print_cells(&t);
	free_cells(&t);
	for (i = 0; i < o->tab.grid.naxes; i++)
		mpq_clear(v[i]);
	return rc;
}

/* Runs one scenario: its speedup and, with a grid, its table. */
static int run_scenario(segc_ctx *ctx, const cli_common *c,
	const whatif_opts *o, const segc_setting *s, const char *spec,
	segc_expr *before)
{
	scenario sc;
	segc_expr *aft = NULL, *sp = NULL;
	char *t;
	int rc;

	memset(&sc, 0, sizeof sc);
	mpq_init(sc.factor);
	rc = spec_read(ctx, c, &sc, spec);
	if (!rc && (aft = after(ctx, s, &sc, (enum segc_component)
	    segc_component_parse(o->tab.component))) != NULL)
		sp = segc_scale_speedup(ctx, s, before, aft);
	if (sp && o->json) {
		rc = json_whatif_scenario(o->doc, ctx, &o->tab.grid, spec,
			before, aft, sp);
		segc_expr_free(aft);
		segc_expr_free(sp);
		scenario_clear(&sc);
		return rc;
	}
	if (sp && o->table_only) {
		cli_printf("scenario %s:\n", spec);
	} else if (sp) {
		t = segc_expr_to_string(sp);
		cli_printf("scenario %s:\n  speedup = T_before/T_after = %s\n",
			spec, t);
		free(t);
	}
	if (sp) {
		if (o->tab.grid.naxes && cli_grid_points(&o->tab.grid))
			rc = table(ctx, o, before, aft);
	} else if (!rc)
		rc = -1;
	segc_expr_free(aft);
	segc_expr_free(sp);
	scenario_clear(&sc);
	return rc;
}

/* Runs every scenario under 's'. */
static int run(segc_ctx *ctx, cli_common *c, void *opts,
	const segc_setting *s)
{
	whatif_opts *o = opts;
	int comp = segc_component_parse(o->tab.component), rc = 0;
	segc_expr *before;
	cli_json doc;
	size_t i;
	int derived;

	if (comp < 0)
		return cli_usage(c, "unknown component '%s' (total, comp, "
			"comm or io)", o->tab.component);
	if (!o->nspecs)
		return cli_usage(c, "give at least one --scale SPEC");
	if (o->table_only && !o->tab.grid.naxes)
		return cli_usage(c, "--table needs a grid (NAME=RANGE)");
	if ((rc = cli_grid_check(ctx, c, s, &o->tab.grid)) != 0)
		return rc;
	if (o->tab.grid.naxes && !cli_grid_points(&o->tab.grid))
		return cli_usage(c, "the grid has too many points");
	if (cli_grid_check_counts(ctx, s, &o->tab.grid))
		return cli_report(ctx);
	before = segc_derive_canonical(ctx, s, (enum segc_component)comp);
	if (before && segc_expr_is_zero(before)) {
		segc_error(ctx, SEGC_ERR_INPUT, c->file, 0, 0, "the %s is 0: "
			"there is no speedup", o->tab.component);
		segc_expr_free(before);
		before = NULL;
	}
	derived = before != NULL;
	o->doc = o->json ? &doc : NULL;
	if (o->json)
		json_whatif_begin(&doc, segc_model_name(s->model),
			o->tab.component);
	for (i = 0; before && i < o->nspecs && !rc; i++)
		rc = run_scenario(ctx, c, o, s, o->spec[i], before);
	if (o->json)
		json_whatif_end(&doc);
	segc_expr_free(before);
	if (rc > 0)
		return rc;
	rc = cli_report(ctx);
	return rc ? rc : derived ? 0 : CLI_USAGE;
}

/* Runs 'segc whatif'. */
int cmd_whatif(int argc, char **argv)
{
	static const cli_model_command cmd = { "whatif", whatif_option,
		whatif_operand, NULL, run };
	whatif_opts o;
	int rc;

	memset(&o, 0, sizeof o);
	cli_table_opts_init(&o.tab);
	rc = cli_model_command_run(&cmd, argc, argv, &o);
	cli_table_opts_clear(&o.tab);
	return rc;
}
