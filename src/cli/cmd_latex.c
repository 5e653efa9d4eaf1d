/* cmd_latex.c - 'segc latex': the formula of a model as LaTeX math, or
 * with --standalone a complete document with every component. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "output.h"

/* The options of 'latex'. */
typedef struct latex_opts {
	const char *file;
	int component;
	int standalone;
	int canonical;
} latex_opts;

/* Consumes an option of 'latex' itself at argv[*i]: 1 when consumed, 0
 * when not one, -1 after a usage error. */
static int latex_option(cli_common *c, int argc, char **argv, int *i,
	latex_opts *o)
{
	const char *v;
	int r;

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
	if ((r = cli_option_value(c, argc, argv, i, "form", 0, &v)) != 0) {
		if (r > 0 && strcmp(v, "structural") && strcmp(v, "canonical"))
			return cli_usage(c, "unknown form '%s' (structural or "
				"canonical)", v), -1;
		if (r > 0)
			o->canonical = !strcmp(v, "canonical");
		return r;
	}
	return 0;
}

/* Reads the arguments of 'latex'; -1 after a usage error, 1 after
 * --help, else 0. */
static int latex_args(segc_ctx *ctx, cli_common *c, int argc, char **argv,
	latex_opts *o)
{
	int i = 1, r;

	while (i < argc) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			cli_command_help(c->command);
			return 1;
		}
		if (argv[i][0] == '-' && argv[i][1]) {
			r = latex_option(c, argc, argv, &i, o);
			if (!r)
				r = cli_common_option(ctx, c, argc, argv, &i);
			if (r < 0)
				return -1;
			if (!r)
				return cli_usage(c, "unknown option '%s'", argv[i]), -1;
			continue;
		}
		if (o->file)
			return cli_usage(c, "one model at a time"), -1;
		o->file = argv[i++];
	}
	if (!o->file)
		return cli_usage(c, "a model is required"), -1;
	return 0;
}

/* Derives component 'comp' in the chosen form. */
static segc_expr *derive(segc_ctx *ctx, const segc_setting *s,
	const latex_opts *o, int comp)
{
	return o->canonical ? segc_derive_canonical(ctx, s,
		(enum segc_component)comp) : segc_derive_structural(ctx, s,
		(enum segc_component)comp);
}

/* Builds the LaTeX text asked for; NULL with diagnostics on failure. */
static char *latex_text(segc_ctx *ctx, const segc_setting *s,
	const latex_opts *o, const segc_latex_names *names)
{
	segc_expr *f[4] = { NULL, NULL, NULL, NULL };
	char *text = NULL, *math;
	int k;

	if (!o->standalone) {
		f[0] = derive(ctx, s, o, o->component);
		math = f[0] ? segc_latex_expr(f[0], names) : NULL;
		if (math) {
			text = malloc(strlen(math) + 2);
			if (text)
				sprintf(text, "%s\n", math);
		}
		free(math);
		segc_expr_free(f[0]);
		return text;
	}
	for (k = 0; k < 4; k++)
		if (!(f[k] = derive(ctx, s, o, k)))
			break;
	if (k == 4)
		text = segc_latex_document(segc_model_name(s->model),
			segc_model_description(s->model), f, names);
	for (k = 0; k < 4; k++)
		segc_expr_free(f[k]);
	return text;
}

/* Runs 'segc latex'. */
int cmd_latex(int argc, char **argv)
{
	segc_ctx *ctx = segc_ctx_new();
	latex_opts o = { NULL, SEGC_TOTAL, 0, 0 };
	segc_latex_names names = { 0, NULL, NULL };
	segc_model *model = NULL;
	segc_machine *machine = NULL;
	segc_setting s;
	cli_common c;
	char *text = NULL;
	int rc;

	cli_common_init(&c, "latex");
	rc = latex_args(ctx, &c, argc, argv, &o);
	if (rc) {
		rc = rc > 0 ? CLI_OK : CLI_USAGE;
		goto out;
	}
	rc = cli_load(ctx, &c, o.file, &model, &machine);
	if (rc)
		goto out;
	s.model = model;
	s.machine = machine;
	s.bindings = c.bindings;
	if (!segc_latex_names_of_model(ctx, model, &names))
		text = latex_text(ctx, &s, &o, &names);
	rc = cli_report(ctx);
	if (!rc && !text)
		rc = CLI_USAGE;
	if (!rc)
		fputs(text, stdout);
out:
	free(text);
	segc_latex_names_clear(&names);
	segc_model_free(model);
	segc_machine_free(machine);
	cli_common_clear(&c);
	segc_ctx_free(ctx);
	return rc;
}
