/* cli_output.h - what a command writes, all or nothing: its standard
 * output, kept in memory, and its files, each written to a temporary file
 * beside its target.  cli_output_end puts everything in place when the
 * command succeeds (exit 0 or 1), or nothing when it fails. */
#ifndef SEGC_CLI_OUTPUT_H
#define SEGC_CLI_OUTPUT_H

/* One file a command writes, owned by this module. */
typedef struct cli_file cli_file;

/* Removes the temporary files of outputs not yet in place, puts back the
 * targets already replaced and removes the empty lock file of a set this
 * run holds, without allocating or freeing: for the out-of-memory
 * handler, which exits at once. */
void cli_output_abandon(void);

/* Says the run is out of memory, removes the temporary files (as
 * cli_output_abandon) and exits 3 at once, so that nothing kept for
 * standard output is written: the handler given to segc_memory_guard()
 * and cli_util_guard(). */
void cli_out_of_memory(size_t request);

/* Appends to the command's standard output (printf-like). */
void cli_printf(const char *fmt, ...)
#ifdef __GNUC__
	__attribute__((format(printf, 1, 2)))
#endif
	;

/* Appends 'text' to the command's standard output. */
void cli_puts(const char *text);

/* Starts the file 'path' of 'command' (a static string): refuses a
 * target that exists and is not a regular file the user may write, then
 * creates its temporary file in the target's directory.  Returns the
 * file, or NULL after printing why (nothing left behind).  Call it before
 * the work, so that a bad target fails early. */
cli_file *cli_output_open(const char *command, const char *path);

/* Writes 'text' (all of it) to the temporary file of 'f' and closes it.
 * 0, or -1 after printing why; the file is then dropped at the end. */
int cli_output_write(cli_file *f, const char *text);

/* Asks that the files of the command be placed (and, on failure, put
 * back) while a write lock (fcntl) is held on the file 'path' of
 * 'command' (a static string), created empty when absent and removed,
 * when empty, before the lock is released: concurrent commands writing
 * the same files then leave the set of one of them.  cli_output_end
 * waits for the lock; a lock file that is not a regular file (a symbolic
 * link included) or cannot be opened fails the command, nothing
 * changed. */
void cli_output_lock(const char *command, const char *path);

/* Ends the output of a command that returns 'rc'.  When 'rc' is 0 or 1,
 * renames every file into place (all of them or, restoring what was there,
 * none), then writes, flushes and closes standard output; if that fails,
 * the files are put back as they were.  Otherwise removes the temporary
 * files and discards the standard output.  Returns 'rc', or 2 after a
 * failure (printed). */
int cli_output_end(int rc);

#endif
