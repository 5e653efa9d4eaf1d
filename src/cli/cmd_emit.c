/* cmd_emit.c - the 'emit' command (not built yet). */
#include "cli.h"

/* Runs 'segc emit'. */
int cmd_emit(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return cli_not_built("emit");
}
