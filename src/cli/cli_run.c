/* cli_run.c - the frame of a command that reads one model (every
 * command but validate): read the arguments, load the model and the
 * machine, run under their setting, release. */
#include <config.h>

#include "cli/cli.h"

/* Reads the arguments of 'cmd' into 'c' and 'opts'; 0, or the exit code
 * (CLI_OK after the help). */
static int read_args(segc_ctx *ctx, const cli_model_command *cmd,
	cli_common *c, int argc, char **argv, void *opts)
{
	int r = cli_parse_args(ctx, c, argc, argv, cmd->option, cmd->operand,
		opts);

	if (r)
		return r > 0 ? CLI_OK : CLI_USAGE;
	return cmd->check ? cmd->check(ctx, c, opts) : 0;
}

/* Runs 'cmd' on 'argv' with 'opts' (see cli.h). */
int cli_model_command_run(const cli_model_command *cmd, int argc,
	char **argv, void *opts)
{
	segc_ctx *ctx = segc_ctx_new();
	segc_model *model = NULL;
	segc_machine *machine = NULL;
	segc_setting s;
	cli_common c;
	int rc;

	cli_common_init(&c, cmd->name);
	rc = read_args(ctx, cmd, &c, argc, argv, opts);
	if (!rc)
		rc = cli_load(ctx, &c, c.file, &model, &machine);
	if (!rc) {
		s.model = model;
		s.machine = machine;
		s.bindings = c.bindings;
		rc = cmd->run(ctx, &c, opts, &s);
	}
	if (rc < 0)
		rc = CLI_OK;
	segc_machine_free(machine);
	segc_model_free(model);
	cli_common_clear(&c);
	segc_ctx_free(ctx);
	return rc;
}
