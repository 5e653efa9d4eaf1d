/* cmd_dot.c - the 'dot' command (not built yet). */
#include "cli.h"

/* Runs 'segc dot'. */
int cmd_dot(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return cli_not_built("dot");
}
