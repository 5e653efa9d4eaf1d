/* cmd_emit.c - 'segc emit': writes BASE.c and BASE.h, a standalone C99
 * predictor of the model, through temporary files that cli_output_end
 * renames into place as a pair: both files replaced, or neither; or,
 * with --lang python, the same functions as the Python module BASE.py,
 * with --lang fortran as the Fortran module BASE.f90. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <segc/emit.h>

#include "cli/cli.h"
#include "cli/cli_output.h"
#include "cli/cli_util.h"

/* Most --keep names. */
#define MAX_KEEP 64

/* The options of 'emit'. */
typedef struct emit_opts {
	const char *file;
	const char *base;
	const char *template_dir;
	const char *prefix;       /* --prefix; NULL: BASE's last component */
	int with_main;
	int accurate;
	int python;               /* --lang python or fortran: one file */
	int where;                /* --where: named parts in the comments */
	const char *ext;          /* its suffix: ".py" or ".f90" */
	size_t nkeep;
	const char *keep[MAX_KEEP];
} emit_opts;

/* Consumes an option of 'emit' itself: 1 when consumed, 0 when not one,
 * -1 after a usage error. */
static int emit_option(cli_common *c, int argc, char **argv, int *i,
	void *opts)
{
	emit_opts *o = opts;
	const char *v;
	int r;

	if (!strcmp(argv[*i], "--main")) {
		o->with_main = 1;
		(*i)++;
		return 1;
	}
	if (!strcmp(argv[*i], "--accurate")) {
		o->accurate = 1;
		(*i)++;
		return 1;
	}
	if (!strcmp(argv[*i], "--where")) {
		o->where = 1;
		(*i)++;
		return 1;
	}
	if ((r = cli_option_value(c, argc, argv, i, "output", 'o', &v)) != 0) {
		if (r > 0)
			o->base = v;
		return r;
	}
	if ((r = cli_option_value(c, argc, argv, i, "prefix", 0, &v)) != 0) {
		if (r > 0 && !cli_is_name(v))
			return cli_usage(c, "--prefix %s: not a name (letters, "
				"digits and '_', not starting with a digit)", v), -1;
		if (r > 0)
			o->prefix = v;
		return r;
	}
	if ((r = cli_option_value(c, argc, argv, i, "lang", 0, &v)) != 0) {
		if (r > 0 && strcmp(v, "c") && strcmp(v, "python") &&
		    strcmp(v, "fortran"))
			return cli_usage(c, "--lang %s: c, python or fortran",
				v), -1;
		if (r > 0) {
			o->python = strcmp(v, "c") != 0;
			o->ext = !strcmp(v, "fortran") ? ".f90" : ".py";
		}
		return r;
	}
	if ((r = cli_option_value(c, argc, argv, i, "template", 0, &v)) != 0) {
		if (r > 0)
			o->template_dir = v;
		return r;
	}
	if ((r = cli_option_value(c, argc, argv, i, "keep", 0, &v)) != 0) {
		if (r > 0 && o->nkeep == MAX_KEEP)
			return cli_usage(c, "at most %d --keep names", MAX_KEEP), -1;
		if (r > 0)
			o->keep[o->nkeep++] = v;
		return r;
	}
	return 0;
}

/* The last component of the path 'path'. */
static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* Starts BASE.c and BASE.h, in that order, into 'f' (their temporary
 * files created, both targets checked), to be placed under a lock on
 * BASE.lock so that concurrent runs leave a matching pair; or BASE.py
 * (BASE.f90) alone into f[0] with 'python' (its suffix 'ext'); 0, or -1
 * (printed). */
static int open_files(const char *base, int python, const char *ext,
	cli_file *f[2])
{
	static const char *const suffix[2] = { ".c", ".h" };
	char *path = cli_xmalloc(strlen(base) + 6);
	int k, n = python ? 1 : 2;

	if (!path)
		return -1;
	for (k = 0; k < n; k++) {
		sprintf(path, "%s%s", base, python ? ext : suffix[k]);
		f[k] = cli_output_open("emit", path);
		if (!f[k])
			break;
	}
	if (k == n && !python) {
		sprintf(path, "%s.lock", base);
		cli_output_lock("emit", path);
	}
	free(path);
	return k == n ? 0 : -1;
}

/* Writes the texts into the files 'f' and prints their paths (unless
 * 'quiet'); they are renamed into place together when the command
 * ends. */
static int write_files(const char *base, cli_file *f[2], const char *c_text,
	const char *h_text, int quiet)
{
	if (cli_output_write(f[0], c_text) || cli_output_write(f[1], h_text))
		return CLI_USAGE;
	if (!quiet)
		cli_printf("%s.c\n%s.h\n", base, base);
	return CLI_OK;
}

/* Writes the module into the file 'f' and prints its path, of suffix
 * 'ext' (unless 'quiet'). */
static int write_module(const char *base, const char *ext, cli_file *f,
	const char *text, int quiet)
{
	if (cli_output_write(f, text))
		return CLI_USAGE;
	if (!quiet)
		cli_printf("%s%s\n", base, ext);
	return CLI_OK;
}

/* Derives the form every component is computed from into 'in': the
 * structural form, its sums made stable (segc_emit_stable_form), under
 * the domains 'dom', made NaN where a loop count is negative
 * (segc_emit_guard_counts); 0 on success. */
static int derive_all(segc_ctx *ctx, const segc_setting *s,
	const segc_domains *dom, segc_emit_input *in)
{
	segc_expr *st[4] = { NULL, NULL, NULL, NULL }, **counts = NULL, *f, *g;
	size_t k, ncounts = 0;
	int rc;

	rc = segc_derive_components(ctx, s, 0, SEGC_COMPONENTS_ALL, st);
	if (!rc)
		rc = segc_setting_loop_counts(ctx, s, &counts, &ncounts);
	for (k = 0; k < 4; k++) {
		if (!rc && st[k]) {
			f = segc_emit_stable_form(ctx, dom, st[k]);
			/* NaN where a loop count is negative (a nonzero
			 * component; a zero one stays 0) */
			if (f && (!k || !segc_expr_is_zero(f))) {
				g = segc_emit_guard_counts(ctx, dom, f,
					ncounts, counts, in->nargs, in->args);
				segc_expr_free(f);
				f = g;
			}
			in->formulas[k] = f;
			if (!f)
				rc = -1;
		}
		segc_expr_free(st[k]);
	}
	for (k = 0; k < ncounts; k++)
		segc_expr_free(counts[k]);
	free(counts);
	return rc;
}

/* With --where, the formulas of 'in' with named parts for the comments
 * (into in->named, their definitions into 'wl'); 0, or -1 with
 * diagnostics. */
static int name_parts(segc_ctx *ctx, const segc_setting *s, const emit_opts *o,
	segc_emit_input *in, segc_where_list *wl)
{
	size_t k;

	if (!o->where)
		return 0;
	for (k = 0; k < 4; k++)
		in->named[k] = in->formulas[k] ?
			segc_expr_copy(in->formulas[k]) : NULL;
	if (segc_setting_where(ctx, s, in->named, 4, wl))
		return -1;
	in->where = wl;
	return 0;
}

/* Renders the files of the model under 's' (the module into '*c_text'
 * with --lang python); 0 on success. */
static int render(segc_ctx *ctx, const segc_setting *s, const emit_opts *o,
	const char *base, char **c_text, char **h_text)
{
	const char *args[MAX_KEEP + 2];
	segc_emit_input in;
	segc_templates t;
	segc_where w = { NULL, 0, 0, NULL };
	segc_where_list wl = { 0, NULL, NULL };
	segc_domains *dom = segc_setting_domains(ctx, s);
	size_t k;
	int rc = -1;

	memset(&in, 0, sizeof in);
	memset(&t, 0, sizeof t);
	args[0] = "N";
	args[1] = "P";
	for (k = 0; k < o->nkeep; k++)
		args[k + 2] = o->keep[k];
	in.model_name = segc_model_name(s->model);
	in.description = segc_model_description(s->model);
	in.base = base_name(base);
	in.prefix = o->prefix ? o->prefix : in.base;
	in.nargs = o->nkeep + 2;
	in.args = args;
	in.with_main = o->with_main;
	in.accurate = o->accurate;
	in.domains = dom;
	w.file = o->file;
	if ((o->template_dir ? segc_templates_read(ctx, &t, o->template_dir)
	     : segc_templates_builtin(&t)) == 0 && !derive_all(ctx, s, dom, &in)
	    && !name_parts(ctx, s, o, &in, &wl))
		rc = !o->python ? segc_emit_render(ctx, &t, &in, &w, c_text,
			h_text) : !strcmp(o->ext, ".f90") ?
			segc_emit_render_fortran(ctx, &in, &w, c_text) :
			segc_emit_render_python(ctx, &t, &in, &w, c_text);
	for (k = 0; k < 4; k++) {
		segc_expr_free(in.formulas[k]);
		segc_expr_free(in.named[k]);
	}
	segc_where_list_clear(&wl);
	segc_templates_clear(&t);
	segc_domains_free(dom);
	return rc;
}

/* Makes every --keep name win over the values the model or a machine
 * gives it: bound to itself, it stays a symbol, an argument of the
 * functions.  A name kept twice, or kept and bound with -D, is refused.
 * 0 on success. */
static int keep_names(segc_ctx *ctx, cli_common *c, void *opts)
{
	emit_opts *o = opts;
	size_t k, i;
	char *text;
	int rc = 0;

	for (k = 0; k < o->nkeep; k++) {
		if (!cli_is_name(o->keep[k]))
			return cli_usage(c, "--keep %s: not a name", o->keep[k]);
		for (i = 0; i < k; i++)
			if (!strcmp(o->keep[i], o->keep[k]))
				return cli_usage(c, "--keep %s: '%s' is given "
					"twice", o->keep[k], o->keep[k]);
		for (i = 0; i < segc_bindings_count(c->bindings); i++)
			if (!strcmp(segc_bindings_name(c->bindings, i), o->keep[k]))
				return cli_usage(c, "'%s' is both kept (--keep) and "
					"bound (-D)", o->keep[k]);
	}
	for (k = 0; k < o->nkeep && !rc; k++) {
		text = cli_xmalloc(2 * strlen(o->keep[k]) + 2);
		sprintf(text, "%s=%s", o->keep[k], o->keep[k]);
		rc = segc_bindings_add(ctx, c->bindings, text) ? cli_report(ctx) : 0;
		free(text);
	}
	return rc;
}

/* Renders the model of 's' and writes the files; the exit code. */
static int run_emit(segc_ctx *ctx, cli_common *c, void *opts,
	const segc_setting *s)
{
	emit_opts *o = opts;
	char *c_text = NULL, *h_text = NULL;
	cli_file *f[2];
	int rc;

	o->file = c->file;
	if (!o->base)
		o->base = segc_model_name(s->model);
	if (open_files(o->base, o->python, o->ext, f))
		return CLI_USAGE;
	render(ctx, s, o, o->base, &c_text, &h_text);
	rc = cli_report(ctx);
	if (!rc && (!c_text || (!h_text && !o->python)))
		rc = CLI_USAGE;
	if (!rc && o->python)
		rc = write_module(o->base, o->ext, f[0], c_text, c->quiet);
	else if (!rc)
		rc = write_files(o->base, f, c_text, h_text, c->quiet);
	free(c_text);
	free(h_text);
	return rc;
}

/* Runs 'segc emit'. */
int cmd_emit(int argc, char **argv)
{
	static const cli_model_command cmd = { "emit", emit_option, NULL,
		keep_names, run_emit };
	emit_opts o;

	memset(&o, 0, sizeof o);
	return cli_model_command_run(&cmd, argc, argv, &o);
}
