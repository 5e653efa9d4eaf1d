/* cmd_latex.c - 'segc latex': the formula of a model as LaTeX math, or
 * with --standalone a complete document with every component; with the
 * options of cli_keep.h, lets kept as names and defined in "where" lines,
 * values kept as names, terms collected by a name, subexpressions named
 * (--where). */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <segc/latex.h>

#include "cli/cli.h"
#include "cli/cli_keep.h"
#include "cli/cli_output.h"
#include "cli/cli_util.h"

/* The options of 'latex'. */
typedef struct latex_opts {
	const char *file;
	int component;
	int standalone;
	int form;         /* SEGC_DERIVE_READABLE (the default), or
	                   * SEGC_DERIVE_CANONICAL, or 0 for structural */
	cli_keep keep;
	double width;     /* points; 0: not given */
} latex_opts;

/* Reads the text width 'v' in points ("300" or "300pt", from 100 to
 * 10000, a decimal allowed) into '*w'; non-zero when it is not one. */
static int parse_width(const char *v, double *w)
{
	char *end;
	double x;
	size_t n = strspn(v, "0123456789");

	if (!n || (v[n] == '.' && !(v[n + 1] >= '0' && v[n + 1] <= '9')) ||
	    (v[n] && v[n] != '.' && strcmp(v + n, "pt")) ||
	    (v[n] == '.' && v[n + 1 + strspn(v + n + 1, "0123456789")] &&
	     strcmp(v + n + 1 + strspn(v + n + 1, "0123456789"), "pt")))
		return -1;
	x = strtod(v, &end);
	if (!strcmp(end, "pt"))
		end += 2;
	if (*end || !(x >= 100 && x <= 10000))
		return -1;
	*w = x;
	return 0;
}

/* Consumes an option of 'latex' itself at argv[*i]: 1 when consumed, 0
 * when not one, -1 after a usage error. */
static int latex_option(cli_common *c, int argc, char **argv, int *i,
	void *opts)
{
	latex_opts *o = opts;
	const char *v;
	int r;

	if ((r = cli_keep_option(c, argc, argv, i, &o->keep)) != 0)
		return r;
	if (!strcmp(argv[*i], "--standalone")) {
		o->standalone = 1;
		(*i)++;
		return 1;
	}
	if ((r = cli_option_value(c, argc, argv, i, "component", 0, &v)) != 0) {
		if (r > 0 && (o->component = segc_component_parse(v)) < 0)
			return cli_usage(c, "unknown component '%s' (total, comp, "
				"comm or io)", v), -1;
		return r;
	}
	if ((r = cli_option_value(c, argc, argv, i, "width", 0, &v)) != 0) {
		if (r > 0 && parse_width(v, &o->width))
			return cli_usage(c, "bad width '%s' (a text width in "
				"points, from 100 to 10000)", v), -1;
		return r;
	}
	if ((r = cli_option_value(c, argc, argv, i, "form", 0, &v)) != 0) {
		if (r > 0 && strcmp(v, "structural") && strcmp(v, "canonical")
		    && strcmp(v, "readable"))
			return cli_usage(c, "unknown form '%s' (readable, "
				"structural or canonical)", v), -1;
		if (r > 0)
			o->form = !strcmp(v, "canonical") ? SEGC_DERIVE_CANONICAL
				: !strcmp(v, "readable") ? SEGC_DERIVE_READABLE
				: 0;
		return r;
	}
	return 0;
}

/* Checks the command line read: the kept names bound to themselves; 0
 * or an exit code. */
static int check_latex(segc_ctx *ctx, cli_common *c, void *opts)
{
	latex_opts *o = opts;

	if (o->form == SEGC_DERIVE_CANONICAL && (o->keep.ncollect ||
	    o->keep.resources))
		return cli_usage(c, "--collect and --collect-resources rewrite "
			"the readable or structural form, not --form canonical");
	return cli_keep_bind(ctx, c, &o->keep);
}

/* Derives component 'comp' in the chosen form, if it can be written out. */
static segc_expr *derive(segc_ctx *ctx, const segc_setting *s,
	const latex_opts *o, int comp)
{
	enum segc_component k = (enum segc_component)comp;
	segc_expr *e = o->form == SEGC_DERIVE_CANONICAL ?
		segc_derive_canonical(ctx, s, k) : o->form ==
		SEGC_DERIVE_READABLE ? segc_derive_readable(ctx, s, k) :
		segc_derive_structural(ctx, s, k);

	if (e && cli_writable(ctx, NULL, e)) {
		segc_expr_free(e);
		e = NULL;
	}
	return e;
}

/* 'names' with the spelling of each named subexpression of counters of
 * 'wl' (a call N_x(i), typeset N_{x}(i)) added; the arrays and the
 * spellings in '*tex' are malloc'd (free them and each of '*tex'). */
static segc_latex_names where_names(const segc_latex_names *names,
	const segc_where_list *wl, char ***tex)
{
	segc_latex_names out;
	const char **n = cli_xcalloc(names->n + wl->n + 1, sizeof *n);
	const char **l = cli_xcalloc(names->n + wl->n + 1, sizeof *l);
	size_t i, k = names->n;

	*tex = cli_xcalloc(wl->n + 1, sizeof **tex);
	for (i = 0; i < names->n; i++) {
		n[i] = names->names[i];
		l[i] = names->latex[i];
	}
	for (i = 0; i < wl->n; i++) {
		segc_expr *sym;

		if (segc_expr_kind(wl->lhs[i]) != SEGC_CALL)
			continue;
		sym = segc_expr_sym(segc_expr_name(wl->lhs[i]));
		(*tex)[i] = segc_latex_expr(sym, names);
		segc_expr_free(sym);
		n[k] = segc_expr_name(wl->lhs[i]);
		l[k++] = (*tex)[i];
	}
	out.n = k;
	out.names = n;
	out.latex = l;
	return out;
}

/* The LaTeX of the formulas 'f' (one, or the four of --standalone) with
 * the definitions 'lhs' = 'values' (n of them) after them; NULL with
 * diagnostics on failure. */
static char *latex_defs(const latex_opts *o, const segc_setting *s,
	const segc_latex_names *names, segc_expr **f, segc_expr **lhs,
	segc_expr **values, size_t n)
{
	char *text = NULL, *math, *where;
	size_t nlines = 1;

	if (o->standalone) {
		math = segc_latex_document_width(segc_model_name(s->model),
			segc_model_description(s->model), f, names, o->width > 0 ?
			o->width : SEGC_LATEX_TEXT_WIDTH);
		text = segc_latex_document_where_exprs(math, lhs, values, n,
			names, o->width > 0 ? o->width : SEGC_LATEX_TEXT_WIDTH);
		free(math);
	} else {
		static const char open[] = "\\begin{aligned}\n&",
			close[] = "\n\\end{aligned}\n";
		size_t len;

		math = o->width > 0 ? segc_latex_expr_lines(f[0], names,
			o->width, &nlines) : segc_latex_expr(f[0], names);
		where = segc_latex_where_exprs(lhs, values, n, names);
		len = strlen(math) + strlen(where) + sizeof open + sizeof close;
		text = cli_xmalloc(len);
		if (text && nlines > 1)
			snprintf(text, len, "%s%s%s%s", open, math, close,
				where);
		else if (text)
			snprintf(text, len, "%s\n%s", math, where);
		free(math);
		free(where);
	}
	return text;
}

/* The LaTeX of the formulas 'f' (one, or the four of --standalone),
 * their terms collected as asked and their subexpressions named with
 * --where, followed by the definitions of the lets they keep and of the
 * names; NULL with diagnostics on failure. */
static char *latex_of(segc_ctx *ctx, cli_common *c, const segc_setting *s,
	const latex_opts *o, const segc_latex_names *names, segc_expr **f)
{
	size_t n = o->standalone ? 4 : 1, nlets = 0, i, m = 0;
	const char **lets = NULL;
	segc_expr **values = NULL, **all, **lhs = NULL, **rhs = NULL;
	segc_where_list wl;
	segc_latex_names ln;
	char *text = NULL, **tex = NULL;

	memset(&wl, 0, sizeof wl);
	cli_keep_collect(ctx, c, &o->keep, s, o->form == SEGC_DERIVE_READABLE,
		f, n);
	if (o->keep.where && segc_setting_where(ctx, s, f, n, &wl))
		return NULL;
	all = cli_xcalloc(n + wl.n, sizeof *all);
	for (i = 0; i < n; i++)
		all[i] = f[i];
	for (i = 0; i < wl.n; i++)
		all[n + i] = wl.rhs[i];
	if (segc_setting_kept_lets(ctx, s, all, n + wl.n, &lets, &values,
			&nlets)) {
		free(all);
		segc_where_list_clear(&wl);
		return NULL;
	}
	free(all);
	for (i = 0; i < nlets; i++)
		if (cli_writable(ctx, NULL, values[i]))
			break;
	if (i == nlets) {
		m = nlets + wl.n;
		lhs = cli_xcalloc(m + 1, sizeof *lhs);
		rhs = cli_xcalloc(m + 1, sizeof *rhs);
		for (i = 0; i < nlets; i++) {
			lhs[i] = segc_expr_sym(lets[i]);
			rhs[i] = values[i];
		}
		for (i = 0; i < wl.n; i++) {
			lhs[nlets + i] = wl.lhs[i];
			rhs[nlets + i] = wl.rhs[i];
		}
		ln = where_names(names, &wl, &tex);
		text = latex_defs(o, s, &ln, f, lhs, rhs, m);
		for (i = 0; i < wl.n; i++)
			free(tex[i]);
		free(tex);
		free((void *)ln.names);
		free((void *)ln.latex);
		for (i = 0; i < nlets; i++)
			segc_expr_free(lhs[i]);
		free(lhs);
		free(rhs);
	}
	for (i = 0; i < nlets; i++)
		segc_expr_free(values[i]);
	free(values);
	free(lets);
	segc_where_list_clear(&wl);
	return text;
}

/* Builds the LaTeX text asked for; NULL with diagnostics on failure. */
static char *latex_text(segc_ctx *ctx, cli_common *c, const segc_setting *s,
	const latex_opts *o, const segc_latex_names *names)
{
	segc_expr *f[4] = { NULL, NULL, NULL, NULL };
	char *text = NULL;
	int k;

	if (cli_keep_setting(ctx, c, &o->keep, s))
		return NULL;
	if (!o->standalone) {
		f[0] = derive(ctx, s, o, o->component);
		text = f[0] ? latex_of(ctx, c, s, o, names, f) : NULL;
		segc_expr_free(f[0]);
		return text;
	}
	if (segc_derive_components(ctx, s, (unsigned)o->form,
			SEGC_COMPONENTS_ALL, f))
		return NULL;
	for (k = 0; k < 4; k++)
		if (cli_writable(ctx, NULL, f[k]))
			break;
	if (k == 4)
		text = latex_of(ctx, c, s, o, names, f);
	for (k = 0; k < 4; k++)
		segc_expr_free(f[k]);
	return text;
}

/* Writes the LaTeX of the model of 's'; the exit code. */
static int run_latex(segc_ctx *ctx, cli_common *c, void *opts,
	const segc_setting *s)
{
	latex_opts *o = opts;
	segc_latex_names names = { 0, NULL, NULL };
	char *text = NULL;
	int rc;

	o->file = c->file;
	if (!segc_latex_names_of_model(ctx, s->model, &names))
		text = latex_text(ctx, c, s, o, &names);
	rc = cli_report(ctx);
	if (!rc && !text)
		rc = CLI_USAGE;
	if (!rc)
		cli_puts(text);
	free(text);
	segc_latex_names_clear(&names);
	return rc;
}

/* Runs 'segc latex'. */
int cmd_latex(int argc, char **argv)
{
	static const cli_model_command cmd = { "latex", latex_option, NULL,
		check_latex, run_latex };
	latex_opts o;

	memset(&o, 0, sizeof o);
	o.component = SEGC_TOTAL;
	o.form = SEGC_DERIVE_READABLE;
	return cli_model_command_run(&cmd, argc, argv, &o);
}
