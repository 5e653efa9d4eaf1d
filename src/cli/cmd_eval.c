/* cmd_eval.c - the 'eval' command (not built yet). */
#include "cli.h"

/* Runs 'segc eval'. */
int cmd_eval(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return cli_not_built("eval");
}
