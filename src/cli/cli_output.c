/* cli_output.c - the output of a command, all or nothing (cli_output.h).
 *
 * Standard output is kept in memory until the command has succeeded.  A
 * file goes to a temporary file created (mkstemp) in its target's
 * directory, every write checked, then flushed to disk and closed.  At the
 * end, each target that exists gets a backup hard link, the temporaries
 * are renamed over their targets, and standard output is written; if a
 * rename or standard output fails, the targets already replaced get their
 * backups back (a target that did not exist is removed), so that no path
 * of the user changes.  Nothing here removes a path that the command did
 * not create.  Files written as a set (cli_output_lock) are placed and,
 * on failure, restored while a lock on a lock file is held, so that
 * concurrent commands writing the same set leave one command's set. */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cli_output.h"
#include "cli/cli_util.h"

/* Most files one command writes. */
#define MAX_FILES 4

/* One file being written. */
struct cli_file {
	const char *command;
	char *shown;     /* the path as the user gave it, for messages */
	char *path;      /* the target: 'shown', or the file its link names */
	char *tmp;       /* the temporary file; NULL once renamed or removed */
	char *backup;    /* a hard link to the old target while committing */
	int fd;          /* of 'tmp' until written and closed; else -1 */
	int written;     /* all of the text is in 'tmp' */
	int placed;      /* 'tmp' renamed over 'path' */
};

static cli_buf out_text;
static cli_file files[MAX_FILES];
static size_t nfiles;
static char *lock_path;      /* the lock file of the set, or NULL */
static const char *lock_command;
static int lock_held = -1;   /* its descriptor while the lock is held */

/* Appends to standard output (printf-like). */
void cli_printf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cli_buf_vappendf(&out_text, fmt, ap);
	va_end(ap);
}

/* Appends 'text' to standard output. */
void cli_puts(const char *text)
{
	cli_buf_append(&out_text, text);
}

/* Prints "segc: COMMAND: cannot write PATH: REASON" for 'f'. */
static void file_error(const cli_file *f, const char *reason)
{
	fprintf(stderr, "segc: %s: cannot write %s: %s\n", f->command,
		f->shown, reason);
}

/* What a file of mode 'mode' is, when it is not a regular file. */
static const char *kind_name(mode_t mode)
{
	if (S_ISDIR(mode))
		return "it is a directory";
	if (S_ISCHR(mode) || S_ISBLK(mode))
		return "it is a device, not a regular file";
	if (S_ISFIFO(mode))
		return "it is a FIFO, not a regular file";
	return "it is not a regular file";
}

/* Sets f->path to the file that 'f->shown' names: itself, or what its
 * symbolic link points to (the link stays).  Refuses a target that exists
 * and is not a regular file the user may write.  0, or -1 (printed). */
static int resolve_target(cli_file *f)
{
	struct stat st;

	if (lstat(f->shown, &st) && errno == ENOENT) {
		f->path = cli_xstrdup(f->shown);
		return 0;
	}
	if (stat(f->shown, &st)) {
		file_error(f, errno == ENOENT ? "a symbolic link to nothing"
			: strerror(errno));
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		file_error(f, kind_name(st.st_mode));
		return -1;
	}
	if (access(f->shown, W_OK)) {
		file_error(f, strerror(errno));
		return -1;
	}
	f->path = realpath(f->shown, NULL);
	if (!f->path)
		file_error(f, strerror(errno));
	return f->path ? 0 : -1;
}

/* A new name pattern for mkstemp in the directory of 'path'. */
static char *temp_pattern(const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t dir = slash ? (size_t)(slash - path) + 1 : 0;
	char *p = cli_xmalloc(dir + sizeof ".segc-XXXXXX");

	memcpy(p, path, dir);
	strcpy(p + dir, ".segc-XXXXXX");
	return p;
}

/* The mode of a new file: 0666 less the umask, as fopen would give. */
static mode_t new_file_mode(const char *path)
{
	struct stat st;
	mode_t mask = umask(0);

	umask(mask);
	if (!stat(path, &st))
		return st.st_mode & 0777;
	return 0666 & ~mask;
}

/* Moves 'fd' above the standard descriptors (when one of them was
 * closed, mkstemp may return it, and standard output would land in the
 * file); returns the descriptor to use, or -1. */
static int above_stdio(int fd)
{
	int high;

	if (fd > 2)
		return fd;
	high = fcntl(fd, F_DUPFD, 3);
	close(fd);
	return high;
}

/* Creates the temporary file of 'f'; 0, or -1 (printed). */
static int make_temp(cli_file *f)
{
	f->tmp = temp_pattern(f->path);
	f->fd = mkstemp(f->tmp);
	if (f->fd < 0) {
		file_error(f, strerror(errno));
		free(f->tmp);
		f->tmp = NULL;
		return -1;
	}
	f->fd = above_stdio(f->fd);
	if (f->fd < 0 || fchmod(f->fd, new_file_mode(f->path))) {
		file_error(f, strerror(errno));
		return -1;
	}
	return 0;
}

/* Closes and removes the temporary file of 'f' and releases it. */
static void file_drop(cli_file *f)
{
	if (f->fd >= 0)
		close(f->fd);
	if (f->tmp)
		unlink(f->tmp);
	free(f->tmp);
	free(f->backup);
	free(f->path);
	free(f->shown);
	memset(f, 0, sizeof *f);
	f->fd = -1;
}

/* Drops every file not yet committed (also at exit, so that an exit()
 * elsewhere leaves no temporary file behind). */
static void drop_all(void)
{
	while (nfiles > 0)
		file_drop(&files[--nfiles]);
}

/* Removes the temporary files not yet committed, puts back the targets
 * already replaced and removes the lock file this run holds when it is
 * empty (as drop_lock would), allocating nothing (see cli_output.h). */
void cli_output_abandon(void)
{
	struct stat st;
	size_t i;

	for (i = 0; i < nfiles; i++) {
		if (files[i].tmp)
			unlink(files[i].tmp);
		if (files[i].placed && (files[i].backup ?
		    rename(files[i].backup, files[i].path) :
		    unlink(files[i].path)) == 0)
			files[i].placed = 0;
	}
	if (lock_held >= 0 && lock_path && !fstat(lock_held, &st) &&
	    st.st_size == 0)
		unlink(lock_path);
}

/* The out-of-memory handler (see cli_output.h): says so, removes the
 * temporary files and exits 3 at once. */
void cli_out_of_memory(size_t request)
{
	char msg[160];
	int n = snprintf(msg, sizeof msg, "segc: error: out of memory: the "
		"run needs more than the limit of %lu bytes (max_memory)\n",
		segc_memory_budget());

	(void)request;
	if (!segc_memory_budget())
		n = snprintf(msg, sizeof msg, "segc: error: out of memory\n");
	if (n > 0 && write(STDERR_FILENO, msg, (size_t)n) < 0)
		n = 0;
	cli_output_abandon();
	_exit(CLI_LIMIT);
}

/* Starts a file of 'command' at 'path' (see cli_output.h). */
cli_file *cli_output_open(const char *command, const char *path)
{
	static int registered;
	cli_file *f;

	if (nfiles == MAX_FILES) {
		fprintf(stderr, "segc: %s: internal error: too many output "
			"files\n", command);
		return NULL;
	}
	if (!registered && atexit(drop_all) == 0)
		registered = 1;
	f = &files[nfiles++];
	memset(f, 0, sizeof *f);
	f->fd = -1;
	f->command = command;
	f->shown = cli_xstrdup(path);
	if (resolve_target(f) || make_temp(f)) {
		file_drop(f);
		nfiles--;
		return NULL;
	}
	return f;
}

/* Writes the 'len' bytes at 'p' to 'fd'; 0, or -1 with errno set. */
static int write_all(int fd, const char *p, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = EIO;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Writes 'text' to the temporary file of 'f' and closes it. */
int cli_output_write(cli_file *f, const char *text)
{
	int fd = f->fd;

	f->fd = -1;
	if (write_all(fd, text, strlen(text)) || fsync(fd)) {
		file_error(f, strerror(errno));
		close(fd);
		return -1;
	}
	if (close(fd)) {
		file_error(f, strerror(errno));
		return -1;
	}
	f->written = 1;
	return 0;
}

/* Links the old target of 'f' (if any) to a new backup name; 0, or -1
 * (printed). */
static int make_backup(cli_file *f)
{
	char *name = temp_pattern(f->path);
	int fd = mkstemp(name), err;

	if (fd >= 0) {
		close(fd);
		unlink(name);
	}
	if (fd >= 0 && !link(f->path, name)) {
		f->backup = name;
		return 0;
	}
	err = errno;
	free(name);
	if (fd >= 0 && err == ENOENT)
		return 0;
	fprintf(stderr, "segc: %s: cannot write %s: cannot keep its old "
		"content while replacing it: %s\n", f->command, f->shown,
		strerror(err));
	return -1;
}

/* Puts the target of 'f' back as it was before it was placed. */
static void file_restore(cli_file *f)
{
	if (!f->placed)
		return;
	f->placed = 0;
	if (f->backup ? rename(f->backup, f->path) : unlink(f->path))
		fprintf(stderr, "segc: %s: cannot restore %s: %s%s%s\n",
			f->command, f->shown, strerror(errno),
			f->backup ? "; its old content is in " : "",
			f->backup ? f->backup : "");
	free(f->backup);
	f->backup = NULL;
}

/* Removes the backups once every file is in place. */
static void drop_backups(void)
{
	size_t k;

	for (k = 0; k < nfiles; k++) {
		if (files[k].backup && unlink(files[k].backup))
			fprintf(stderr, "segc: %s: cannot remove %s: %s\n",
				files[k].command, files[k].backup,
				strerror(errno));
		free(files[k].backup);
		files[k].backup = NULL;
	}
}

/* Puts every target back as it was and removes the backups left. */
static void restore_all(void)
{
	size_t k;

	for (k = nfiles; k-- > 0;)
		file_restore(&files[k]);
	drop_backups();
}

/* Asks for the files to be placed under a lock on 'path' (see
 * cli_output.h). */
void cli_output_lock(const char *command, const char *path)
{
	free(lock_path);
	lock_path = cli_xstrdup(path);
	lock_command = command;
}

/* Opens the lock file (created empty when absent; a symbolic link or
 * anything but a regular file is refused) and waits for a write lock on
 * it; -1 with errno set on failure.  A lock taken on a file that is no
 * longer at the path (the run that held it removed it: drop_lock) is
 * given up and the lock taken again on the file now there, so that the
 * runs that hold a lock at the same time hold it on one file. */
static int lock_file(void)
{
	struct stat st, at;
	struct flock fl;
	int fd, r;

	for (;;) {
		fd = open(lock_path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC,
			0666);
		if (fd < 0)
			return -1;
		if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
			close(fd);
			errno = EINVAL;
			return -1;
		}
		fd = above_stdio(fd);
		memset(&fl, 0, sizeof fl);
		fl.l_type = F_WRLCK;
		fl.l_whence = SEEK_SET;
		while ((r = fcntl(fd, F_SETLKW, &fl)) < 0 && errno == EINTR)
			;
		if (r < 0) {
			r = errno;
			close(fd);
			errno = r;
			return -1;
		}
		if (!lstat(lock_path, &at) && at.st_dev == st.st_dev &&
		    at.st_ino == st.st_ino)
			return fd;
		close(fd);
	}
}

/* Takes the lock asked for by cli_output_lock(): the descriptor, closed
 * to release it, or -1 (printed); -2 when no lock was asked for. */
static int take_lock(void)
{
	int fd;

	if (!lock_path)
		return -2;
	fd = lock_file();
	if (fd < 0)
		fprintf(stderr, "segc: %s: cannot lock %s: %s\n", lock_command,
			lock_path, errno == EINVAL || errno == ELOOP ?
			"it is not a regular file" : strerror(errno));
	return fd;
}

/* Releases the lock taken by take_lock() ('fd', or a negative value).
 * While the lock is still held, removes the lock file when it is empty
 * (one that a run made; a file with content is someone's, and stays):
 * a run that waits for it, or opens it now, finds it gone once it holds
 * the lock and locks the file at the path instead (lock_file). */
static void drop_lock(int fd)
{
	struct stat st;

	if (fd >= 0) {
		if (!fstat(fd, &st) && st.st_size == 0)
			unlink(lock_path);
		close(fd);
	}
	free(lock_path);
	lock_path = NULL;
}

/* Renames every written file into place, keeping backups of the old
 * targets; on failure puts everything back.  0, or -1 (printed). */
static int place_all(void)
{
	size_t k;

	for (k = 0; k < nfiles; k++)
		if (!files[k].written) {
			fprintf(stderr, "segc: %s: internal error: %s was not "
				"written\n", files[k].command, files[k].shown);
			return -1;
		}
	for (k = 0; k < nfiles; k++)
		if (make_backup(&files[k]))
			goto fail;
	for (k = 0; k < nfiles; k++) {
		if (rename(files[k].tmp, files[k].path)) {
			file_error(&files[k], strerror(errno));
			goto fail;
		}
		free(files[k].tmp);
		files[k].tmp = NULL;
		files[k].placed = 1;
	}
	return 0;
fail:
	restore_all();
	return -1;
}

/* Writes the kept standard output, flushes and closes it; 0, or -1
 * (printed).  A closed standard output is an error only when something
 * had to be written to it. */
static int flush_stdout(void)
{
	int err = 0;

	errno = 0;
	if (out_text.len && fwrite(out_text.data, 1, out_text.len, stdout)
	    != out_text.len)
		err = errno ? errno : EIO;
	if (!err && fflush(stdout))
		err = errno ? errno : EIO;
	if (!err && ferror(stdout))
		err = EIO;
	if (fclose(stdout) && !err && errno != EBADF)
		err = errno ? errno : EIO;
	if (!err)
		return 0;
	fprintf(stderr, "segc: error: standard output: %s\n", strerror(err));
	return -1;
}

/* Ends the command's output (see cli_output.h). */
int cli_output_end(int rc)
{
	int lock = -2;

	if (rc != CLI_OK && rc != CLI_MISMATCH) {
		drop_all();
		drop_lock(-1);
		cli_buf_free(&out_text);
		return rc;
	}
	if (nfiles > 0)
		signal(SIGPIPE, SIG_IGN);
	if (nfiles > 0)
		lock = take_lock();
	lock_held = lock;
	if (lock == -1 || place_all())
		rc = CLI_USAGE;
	else if (flush_stdout()) {
		restore_all();
		rc = CLI_USAGE;
	} else
		drop_backups();
	lock_held = -1;
	drop_lock(lock);
	drop_all();
	cli_buf_free(&out_text);
	return rc;
}
