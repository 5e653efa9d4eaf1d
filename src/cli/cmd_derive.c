/* cmd_derive.c - the 'derive' command (not built yet). */
#include "cli.h"

/* Runs 'segc derive'. */
int cmd_derive(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return cli_not_built("derive");
}
