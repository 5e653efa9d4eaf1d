/* replay.c - runs a fuzz target without libFuzzer over saved inputs:
 * every file named, and every file of every directory named (in sorted
 * order).  Prints TAP: one test per input, which passes when the target
 * returns (a broken invariant aborts the whole run). */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static int n_tests;

/* Reads the whole file 'path'; NULL when it cannot be read. */
static unsigned char *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL, *p;
	size_t cap = 0, n = 0, got;

	if (!f)
		return NULL;
	for (;;) {
		if (n == cap) {
			cap = cap ? 2 * cap : 4096;
			p = realloc(buf, cap);
			if (!p)
				break;
			buf = p;
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (got == 0)
			break;
	}
	fclose(f);
	*len = n;
	return buf ? buf : malloc(1);
}

/* Replays one file. */
static int replay_file(const char *path)
{
	size_t len = 0;
	unsigned char *buf = read_all(path, &len);

	n_tests++;
	if (!buf) {
		printf("not ok %d - %s (cannot read)\n", n_tests, path);
		return 1;
	}
	LLVMFuzzerTestOneInput(buf, len);
	free(buf);
	printf("ok %d - %s\n", n_tests, path);
	fflush(stdout);
	return 0;
}

/* Orders directory entries by name. */
static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Replays every regular file of directory 'dir'. */
static int replay_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *ent;
	char **names = NULL, **p, *path;
	size_t n = 0, i;
	int failed = 0;

	if (!d)
		return 1;
	while ((ent = readdir(d)) != NULL) {
		if (ent->d_name[0] == '.')
			continue;
		p = realloc(names, (n + 1) * sizeof *names);
		if (!p)
			break;
		names = p;
		names[n++] = strdup(ent->d_name);
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof *names, by_name);
	for (i = 0; i < n; i++) {
		path = malloc(strlen(dir) + strlen(names[i]) + 2);
		if (path) {
			sprintf(path, "%s/%s", dir, names[i]);
			failed |= replay_file(path);
			free(path);
		}
		free(names[i]);
	}
	free(names);
	return failed;
}

/* Replays every argument: a file or a directory. */
int main(int argc, char **argv)
{
	struct stat st;
	int i, failed = 0;

	for (i = 1; i < argc; i++) {
		if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode))
			failed |= replay_dir(argv[i]);
		else
			failed |= replay_file(argv[i]);
	}
	printf("1..%d\n", n_tests);
	segc_library_cleanup();
	return failed;
}
