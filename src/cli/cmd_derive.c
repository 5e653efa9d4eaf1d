/* cmd_derive.c - the 'derive' command: the formula of a model, one line,
 * in the expression language (canonical or structural form). */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <segc/analysis.h>

#include "cli/cli.h"
#include "cli/cli_output.h"

/* Options of 'derive' besides COMMON. */
typedef struct derive_opts {
	const char *component;
	const char *form;
	const char *model;
	const char *asymptotic;
} derive_opts;


/* The options of 'derive' besides COMMON (a cli_option_fn). */
static int derive_option(cli_common *c, int argc, char **argv, int *i,
	void *opts)
{
	derive_opts *o = opts;
	int r;

	if ((r = cli_option_value(c, argc, argv, i, "component", 0,
			&o->component)) != 0)
		return r;
	if ((r = cli_option_value(c, argc, argv, i, "asymptotic", 0,
			&o->asymptotic)) != 0)
		return r;
	return cli_option_value(c, argc, argv, i, "form", 0, &o->form);
}

/* Reads the command line; 0, or an exit code (-1: help shown). */
static int parse_args(segc_ctx *ctx, cli_common *c, derive_opts *o,
	int argc, char **argv)
{
	int r = cli_parse_args(ctx, c, argc, argv, derive_option, NULL, o);

	if (r)
		return r > 0 ? -1 : CLI_USAGE;
	o->model = c->file;
	if (segc_component_parse(o->component) < 0)
		return cli_usage(c, "unknown component '%s' (total, comp, "
			"comm or io)", o->component);
	if (strcmp(o->form, "canonical") && strcmp(o->form, "structural"))
		return cli_usage(c, "unknown form '%s' (canonical or "
			"structural)", o->form);
	return 0;
}

/* The leading term of 'e' (taken) as the name of --asymptotic grows;
 * NULL after a diagnostic or a usage error (*rc set). */
static segc_expr *asymptotic(segc_ctx *ctx, cli_common *c,
	const derive_opts *o, const segc_setting *s, segc_expr *e, int *rc)
{
	segc_domains *d;
	segc_expr *t = NULL;

	if (e && (*rc = cli_free_name(ctx, c, s, o->asymptotic)) != 0) {
		segc_expr_free(e);
		return NULL;
	}
	d = e ? segc_setting_domains(ctx, s) : NULL;
	if (d)
		t = segc_asymptotic(ctx, d, e, o->asymptotic);
	segc_domains_free(d);
	segc_expr_free(e);
	return t;
}

/* Runs 'segc derive'. */
int cmd_derive(int argc, char **argv)
{
	segc_ctx *ctx = segc_ctx_new();
	cli_common c;
	derive_opts o = { "total", "canonical", NULL, NULL };
	segc_model *model = NULL;
	segc_machine *machine = NULL;
	segc_setting s;
	segc_expr *e = NULL;
	char *text;
	int rc;

	cli_common_init(&c, "derive");
	rc = parse_args(ctx, &c, &o, argc, argv);
	if (rc)
		goto out;
	rc = cli_load(ctx, &c, o.model, &model, &machine);
	if (rc)
		goto out;
	s.model = model;
	s.machine = machine;
	s.bindings = c.bindings;
	if (!strcmp(o.form, "structural") && !o.asymptotic)
		e = segc_derive_structural(ctx, &s,
			(enum segc_component)segc_component_parse(o.component));
	else
		e = segc_derive_canonical(ctx, &s,
			(enum segc_component)segc_component_parse(o.component));
	if (o.asymptotic)
		e = asymptotic(ctx, &c, &o, &s, e, &rc);
	if (rc)
		goto out;
	if (!e || cli_writable(ctx, c.file, e)) {
		rc = cli_report(ctx);
		if (!rc)
			rc = CLI_USAGE;
		goto out;
	}
	text = segc_expr_to_string(e);
	cli_printf("%s\n", text);
	free(text);
	rc = cli_report(ctx);
out:
	if (rc < 0)
		rc = CLI_OK;
	segc_expr_free(e);
	segc_machine_free(machine);
	segc_model_free(model);
	cli_common_clear(&c);
	segc_ctx_free(ctx);
	return rc;
}
