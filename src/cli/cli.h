/* cli.h - what the commands of the segc program share: the COMMON options,
 * loading a model and a machine, and printing diagnostics.  Only the
 * command line prints and chooses exit codes; the library never does. */
#ifndef SEGC_CLI_H
#define SEGC_CLI_H

#include <segc/segc.h>
#include <segc/segc_model.h>

/* Exit codes of CLI.md. */
enum {
	CLI_OK = 0, CLI_MISMATCH = 1, CLI_USAGE = 2, CLI_LIMIT = 3,
	CLI_INTERNAL = 4   /* a bug in segc: never expected */
};

/* The COMMON options of every command. */
typedef struct cli_common {
	const char *command;       /* "derive", ... */
	const char *machine_file;  /* -m, --machine; NULL if none */
	segc_bindings *bindings;   /* -D NAME=VALUE, in order */
	int quiet;                 /* -q */
	const char *file;          /* the one FILE operand, when taken */
} cli_common;

/* A command's own options, tried on argv[*i]: 1 consumed (advancing *i),
 * 0 not one of them, -1 a usage error (reported). */
typedef int (*cli_option_fn)(cli_common *c, int argc, char **argv, int *i,
	void *opts);
/* A command's operands other than the one FILE: 1 taken, 0 not one of
 * them (it becomes the FILE), -1 an error (reported). */
typedef int (*cli_operand_fn)(segc_ctx *ctx, cli_common *c,
	const char *arg, void *opts);

/* Reads a command's arguments: --help, "--", the command's options
 * through 'option' (may be NULL), the COMMON options, and the operands:
 * those 'operand' takes (may be NULL), and exactly one FILE into c->file.
 * Returns 0, 1 after printing the help, or -1 after a usage error. */
int cli_parse_args(segc_ctx *ctx, cli_common *c, int argc, char **argv,
	cli_option_fn option, cli_operand_fn operand, void *opts);

void cli_common_init(cli_common *c, const char *command);
void cli_common_clear(cli_common *c);

/* Tries to consume the COMMON option at argv[*i] (and its value).  Returns
 * 1 if consumed (advancing *i past it), 0 if it is not a COMMON option, -1
 * on a usage error (already reported). */
int cli_common_option(segc_ctx *ctx, cli_common *c, int argc, char **argv,
	int *i);

/* If argv[*i] is "--name VALUE", "--name=VALUE" or (when 'shortopt' is not
 * 0) "-s VALUE", stores VALUE, advances *i and returns 1; returns -1 when the
 * value is missing (reported); 0 when argv[*i] is another option. */
int cli_option_value(const cli_common *c, int argc, char **argv, int *i,
	const char *name, char shortopt, const char **value);

/* Reads the whole number 'v' of option --'name': 1 and '*out' set when it
 * lies in [lo, hi], else -1 after a usage error. */
int cli_number_option(const cli_common *c, const char *name, const char *v,
	long lo, long hi, long *out);
/* Consumes --digits D (D from 1 to 1000) into '*digits': 1, 0 when
 * argv[*i] is another option, -1 after a usage error. */
int cli_digits_option(const cli_common *c, int argc, char **argv, int *i,
	long *digits);
/* The bits a value correctly rounded in binary needs so that printing it
 * to 'digits' significant decimal digits gives the exact value's digits:
 * 'bits', raised to 4*digits + 64 when that is more (64 guard bits past
 * the digits' 3.33 bits each). */
long cli_bits_for_digits(long bits, long digits);

/* Reports a usage error: "segc: CMD: MESSAGE" and a hint line.  Returns
 * CLI_USAGE. */
int cli_usage(const cli_common *c, const char *fmt, ...)
#ifdef __GNUC__
	__attribute__((format(printf, 2, 3)))
#endif
	;

/* Prints every diagnostic of 'ctx' to stderr in GNU style
 * (FILE:LINE:COL: error: MESSAGE) and returns the exit code they call for:
 * 0 when there is none. */
int cli_report(segc_ctx *ctx);

/* Reads the model at 'path' and the machine of -m (if any).  On failure
 * prints the diagnostics and returns the exit code; else 0.  '*machine' is
 * NULL when no -m was given. */
int cli_load(segc_ctx *ctx, cli_common *c, const char *path,
	segc_model **model, segc_machine **machine);

/* 0 when the model and machine of 's' declare 'name', which 'how' ("-D",
 * "--keep", "grid name") gives a value; else reports a usage error with
 * the nearest declared name and returns CLI_USAGE. */
int cli_check_declared(const cli_common *c, const segc_setting *s,
	const char *how, const char *name);

/* 0 when 'e' is small enough to write out (max_output_nodes: shared
 * subexpressions can make a small formula's text exponential); else
 * records a limit error located at 'file' (may be NULL) and returns -1. */
int cli_writable(segc_ctx *ctx, const char *file, const segc_expr *e);

/* Prints the program's help: its commands and their summaries (help.c). */
void cli_program_help(void);
/* Prints the help of one command (its synopsis and options) to stdout. */
void cli_command_help(const char *command);
/* Prints the options of 'command', then the COMMON ones (help.c). */
void cli_options_help(const char *command);

/* The commands: each gets argv after the command word (argv[0] is the
 * command) and returns the exit code. */
int cmd_derive(int argc, char **argv);
int cmd_latex(int argc, char **argv);
int cmd_emit(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_eval(int argc, char **argv);
int cmd_validate(int argc, char **argv);
int cmd_dot(int argc, char **argv);
int cmd_fit(int argc, char **argv);

/* A command that reads one model (cli_run.c): its options and operands
 * as for cli_parse_args, 'check' (may be NULL) of what was read (0 or an
 * exit code), and 'run' under the setting of the model, the machine of -m
 * and the bindings (an exit code; below 0 means CLI_OK). */
typedef struct cli_model_command {
	const char *name;
	cli_option_fn option;
	cli_operand_fn operand;
	int (*check)(segc_ctx *ctx, cli_common *c, void *opts);
	int (*run)(segc_ctx *ctx, cli_common *c, void *opts,
		const segc_setting *s);
} cli_model_command;

/* Reads the arguments of 'cmd' into 'opts' (set up and released by the
 * caller), loads the model FILE and the machine, runs 'cmd' under them
 * and releases them; returns the exit code. */
int cli_model_command_run(const cli_model_command *cmd, int argc,
	char **argv, void *opts);

/* The analysis commands (cmd_optimize.c, cmd_solve.c, cmd_whatif.c,
 * cmd_sensitivity.c) and what they share (cli_analysis.c). */
int cmd_optimize(int argc, char **argv);
int cmd_solve(int argc, char **argv);
/* Reads the range "A..B" ('integers': integer ends) of option 'what'
 * into lo, hi; 0, or CLI_USAGE after a usage error (an empty range). */
int cli_range(segc_ctx *ctx, const cli_common *c, const char *what,
	const char *text, int integers, mpq_t lo, mpq_t hi);
/* A cli_operand_fn ('opts' unused) taking NAME=VALUE operands as
 * bindings (as -D); an operand without '=' is left for the FILE. */
int cli_bind_operand(segc_ctx *ctx, cli_common *c, const char *arg,
	void *opts);
/* Splits "NAME=REST": '*name' malloc'd, '*rest' into 'text'; 0, or
 * CLI_USAGE after a usage error naming 'what'. */
int cli_name_range(const cli_common *c, const char *what, const char *text,
	char **name, const char **rest);
/* 0 when 'name' is declared and left free by 's' (so it may vary); else
 * CLI_USAGE after a usage error (unknown name, or bound to a value). */
int cli_free_name(segc_ctx *ctx, const cli_common *c, const segc_setting *s,
	const char *name);
/* A grid of NAME=RANGE operands (cli_grid.c): each axis a name and its
 * exact values. */
#define CLI_MAX_AXES 32
typedef struct cli_axis {
	char *name;
	size_t n, cap;
	mpq_t *v;
} cli_axis;
/* Fills 'a' (its values empty) from RANGE 'r': V, A..B (integers), A..B*K
 * (K > 1, A > 0) or V1,V2,..., with exact numbers; 0, or -1 when 'r' is
 * malformed or has more than 'max' values. */
int cli_axis_fill(segc_ctx *ctx, cli_axis *a, const char *r, size_t max);
/* Releases the values and the name of 'a' and empties it. */
void cli_axis_clear(cli_axis *a);
/* The exact value of the number or expression in the 'len' bytes at
 * 'text' into 'q': 0, or -1 when it is none (ctx is cleared). */
int cli_exact_number(segc_ctx *ctx, const char *text, size_t len, mpq_t q);
typedef struct cli_grid {
	size_t naxes;
	cli_axis axes[CLI_MAX_AXES];
} cli_grid;
/* Adds "NAME=RANGE" (V, A..B, A..B*K, V1,V2,...) to 'g'; 0, or
 * CLI_USAGE after a usage error. */
int cli_grid_add(segc_ctx *ctx, const cli_common *c, cli_grid *g,
	const char *arg);
/* The number of points (0 when too many). */
size_t cli_grid_points(const cli_grid *g);
/* Checks the names of grid 'g' against 's': each declared by the model
 * or machine (with the name meant, when one is near) and none also bound
 * by -D; then binds each to itself (as --keep does), so that the grid's
 * values win over a machine's or a <param value>.  CLI_USAGE or
 * CLI_ERROR (reported), or CLI_OK. */
int cli_grid_check(segc_ctx *ctx, const cli_common *c,
	const segc_setting *s, const cli_grid *g);
/* Binds 'name' to itself in the -D bindings of 'c'; CLI_OK, or the exit
 * code of the error reported. */
int cli_bind_to_itself(segc_ctx *ctx, const cli_common *c,
	const char *name);
/* Reports (CLI_USAGE) grid name 'name' when -D binds it too, else
 * CLI_OK. */
int cli_grid_not_defined(const cli_common *c, const char *name);
/* Sets values[i] to the value of axis i at point 'k' (last axis
 * fastest). */
void cli_grid_point(const cli_grid *g, size_t k, mpq_t *values);
/* -1 (reported at the <loop>) when a loop count of the program of 's' is
 * negative at a point of 'g': the point is outside the model's domain,
 * refused before anything is printed; else 0. */
int cli_grid_check_counts(segc_ctx *ctx, const segc_setting *s,
	const cli_grid *g);
void cli_grid_clear(cli_grid *g);
/* What whatif and sensitivity share (cli_grid.c): --component C,
 * --digits D of their tables, and the grid of NAME=RANGE operands. */
typedef struct cli_table_opts {
	const char *component;
	long digits;
	cli_grid grid;
	int json;          /* --json (sensitivity) */
} cli_table_opts;
/* Sets 't' to the defaults (total, 6 digits) and an empty grid. */
void cli_table_opts_init(cli_table_opts *t);
/* Releases the grid of 't'. */
void cli_table_opts_clear(cli_table_opts *t);
/* A cli_operand_fn ('opts' a cli_table_opts) taking NAME=RANGE operands
 * into the grid; an operand without '=' is left for the FILE. */
int cli_table_operand(segc_ctx *ctx, cli_common *c, const char *arg,
	void *opts);
int cmd_whatif(int argc, char **argv);
int cmd_sensitivity(int argc, char **argv);

/* Prints the exact 'q', with " (about D)" to 12 digits unless an
 * integer. */
void cli_print_number(mpq_srcptr q);

/* The answer of a command that is not built yet: says so, exit 2. */
int cli_not_built(const char *command);

/* The reason why 'v' lies outside the domain 'd' declares for 'name'
 * ("below its minimum", "above its maximum", "not an integer"), or NULL
 * when it lies inside or 'd' says nothing of 'name'. */
const char *cli_domain_why(const segc_domains *d, const char *name,
	mpq_srcptr v);

#endif
