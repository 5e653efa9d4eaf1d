/* cmd_validate.c - the 'validate' command (not built yet). */
#include "cli.h"

/* Runs 'segc validate'. */
int cmd_validate(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return cli_not_built("validate");
}
