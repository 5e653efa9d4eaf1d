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

/* Checks the command line read; 0 or an exit code. */
static int check_args(segc_ctx *ctx, cli_common *c, void *opts)
{
	const derive_opts *o = opts;

	(void)ctx;
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

/* Derives and prints the formula under 's'; the exit code. */
static int run_derive(segc_ctx *ctx, cli_common *c, void *opts,
	const segc_setting *s)
{
	const derive_opts *o = opts;
	segc_expr *e;
	char *text;
	int rc = 0;

	if (!strcmp(o->form, "structural") && !o->asymptotic)
		e = segc_derive_structural(ctx, s,
			(enum segc_component)segc_component_parse(o->component));
	else
		e = segc_derive_canonical(ctx, s,
			(enum segc_component)segc_component_parse(o->component));
	if (o->asymptotic)
		e = asymptotic(ctx, c, o, s, e, &rc);
	if (rc) {
		segc_expr_free(e);
		return rc;
	}
	if (!e || cli_writable(ctx, c->file, e)) {
		segc_expr_free(e);
		rc = cli_report(ctx);
		return rc ? rc : CLI_USAGE;
	}
	text = segc_expr_to_string(e);
	cli_printf("%s\n", text);
	free(text);
	segc_expr_free(e);
	return cli_report(ctx);
}

/* Runs 'segc derive'. */
int cmd_derive(int argc, char **argv)
{
	static const cli_model_command cmd = { "derive", derive_option, NULL,
		check_args, run_derive };
	derive_opts o = { "total", "canonical", NULL };

	return cli_model_command_run(&cmd, argc, argv, &o);
}
