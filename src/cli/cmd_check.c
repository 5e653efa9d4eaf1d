/* cmd_check.c - the 'check' command (not built yet). */
#include "cli.h"

/* Runs 'segc check'. */
int cmd_check(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return cli_not_built("check");
}
