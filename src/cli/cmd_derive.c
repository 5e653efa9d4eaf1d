/* cmd_derive.c - the 'derive' command: the formula of a model, one line,
 * in the expression language (canonical or structural form). */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* Options of 'derive' besides COMMON. */
typedef struct derive_opts {
	const char *component;
	const char *form;
	const char *model;
} derive_opts;

/* Parses the command line into 'c' and 'o'; 0, or an exit code. */
static int parse_args(segc_ctx *ctx, cli_common *c, derive_opts *o,
	int argc, char **argv)
{
	int i = 1, r;

	while (i < argc) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			cli_command_help("derive");
			return -1;
		}
		if ((r = cli_common_option(ctx, c, argc, argv, &i)) != 0) {
			if (r < 0)
				return CLI_USAGE;
			continue;
		}
		if ((r = cli_option_value(c, argc, argv, &i, "component", 0,
				&o->component)) != 0 ||
		    (r = cli_option_value(c, argc, argv, &i, "form", 0,
				&o->form)) != 0) {
			if (r < 0)
				return CLI_USAGE;
			continue;
		}
		if (argv[i][0] == '-' && argv[i][1])
			return cli_usage(c, "unknown option '%s'", argv[i]);
		if (o->model)
			return cli_usage(c, "more than one model given");
		o->model = argv[i++];
	}
	if (!o->model)
		return cli_usage(c, "no model given");
	if (segc_component_parse(o->component) < 0)
		return cli_usage(c, "unknown component '%s' (total, comp, "
			"comm or io)", o->component);
	if (strcmp(o->form, "canonical") && strcmp(o->form, "structural"))
		return cli_usage(c, "unknown form '%s' (canonical or "
			"structural)", o->form);
	return 0;
}

/* Runs 'segc derive'. */
int cmd_derive(int argc, char **argv)
{
	segc_ctx *ctx = segc_ctx_new();
	cli_common c;
	derive_opts o = { "total", "canonical", NULL };
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
	if (!strcmp(o.form, "structural"))
		e = segc_derive_structural(ctx, &s,
			(enum segc_component)segc_component_parse(o.component));
	else
		e = segc_derive_canonical(ctx, &s,
			(enum segc_component)segc_component_parse(o.component));
	if (!e) {
		rc = cli_report(ctx);
		if (!rc)
			rc = CLI_USAGE;
		goto out;
	}
	text = segc_expr_to_string(e);
	printf("%s\n", text);
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
