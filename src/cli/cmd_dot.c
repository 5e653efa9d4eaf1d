/* cmd_dot.c - 'segc dot MODEL': the model's graphs in Graphviz DOT on
 * standard output. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>

#include <segc/dot.h>

#include "cli/cli.h"
#include "cli/cli_output.h"

/* Prints the graphs of the model of 's'; the exit code. */
static int run_dot(segc_ctx *ctx, cli_common *c, void *opts,
	const segc_setting *s)
{
	char *text = segc_model_dot(ctx, s->model);
	int rc = 0;

	(void)c;
	(void)opts;
	if (text)
		cli_puts(text);
	else
		rc = cli_report(ctx);
	free(text);
	return rc;
}

/* Runs 'segc dot'. */
int cmd_dot(int argc, char **argv)
{
	static const cli_model_command cmd = { "dot", NULL, NULL, NULL,
		run_dot };

	return cli_model_command_run(&cmd, argc, argv, NULL);
}
