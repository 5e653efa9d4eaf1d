/* failmalloc.c - a library preloaded into segc by tests/cli/failmalloc.sh
 * that makes one allocation fail: the K-th call of malloc, calloc or
 * realloc made from segc's own code (the command or libsegc, and through
 * it GMP, MPFR and libxml2, whose allocators segc installs) returns NULL.
 * Allocations of the C library's own (stdio, the loader) never fail.
 *
 *   FAILMALLOC_AT=K        the allocation to fail (1 is the first; unset
 *                          or 0: none)
 *   FAILMALLOC_COUNT=FILE  where the number of segc's allocations is
 *                          written when the run ends normally
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void *(*real_malloc)(size_t);
static void *(*real_calloc)(size_t, size_t);
static void *(*real_realloc)(void *, size_t);
static void (*real_free)(void *);

/* What dlsym allocates while the real functions are looked up. */
static unsigned char boot[16384];
static size_t boot_used;
static int resolving;

/* The address ranges of segc's code: at most 64 loaded segments. */
static struct { uintptr_t lo, hi; } seg[64];
static int nseg, scanned, ready;
static unsigned long count, fail_at;

/* Nothing is counted before the libraries are initialised: a sanitizer's
 * runtime allocates while it sets itself up, before the functions this
 * library calls to find segc's code may be used. */
__attribute__((constructor)) static void arm(void)
{
	const char *at = getenv("FAILMALLOC_AT");

	fail_at = at ? strtoul(at, NULL, 10) : 0;
	ready = 1;
}

static void *boot_alloc(size_t n)
{
	void *p;

	n = (n + 15) & ~(size_t)15;
	if (boot_used + n > sizeof boot)
		return NULL;
	p = boot + boot_used;
	boot_used += n;
	return p;
}

static int in_boot(const void *p)
{
	return (const unsigned char *)p >= boot &&
		(const unsigned char *)p < boot + sizeof boot;
}

static void resolve(void)
{
	if (real_malloc || resolving)
		return;
	resolving = 1;
	real_malloc = (void *(*)(size_t))dlsym(RTLD_NEXT, "malloc");
	real_calloc = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "calloc");
	real_realloc = (void *(*)(void *, size_t))dlsym(RTLD_NEXT, "realloc");
	real_free = (void (*)(void *))dlsym(RTLD_NEXT, "free");
	resolving = 0;
}

/* Whether this process is segc itself (not the shell of a wrapper). */
static int is_segc(void)
{
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	const char *b;

	if (n <= 0)
		return 0;
	exe[n] = '\0';
	b = strrchr(exe, '/');
	b = b ? b + 1 : exe;
	return !strcmp(b, "segc") || !strcmp(b, "lt-segc");
}

static int add_object(struct dl_phdr_info *info, size_t size, void *data)
{
	const char *name = info->dlpi_name, *b;
	int main_segc = *(int *)data;
	int k;

	(void)size;
	b = strrchr(name, '/');
	b = b ? b + 1 : name;
	if (!(name[0] == '\0' ? main_segc : !strncmp(b, "libsegc.so", 10)))
		return 0;
	for (k = 0; k < info->dlpi_phnum && nseg < 64; k++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[k];

		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
			continue;
		seg[nseg].lo = info->dlpi_addr + ph->p_vaddr;
		seg[nseg].hi = seg[nseg].lo + ph->p_memsz;
		nseg++;
	}
	return 0;
}

/* Whether the call returning to 'ra' comes from segc's code; counts it,
 * and says whether it is the one to fail. */
static int fails(void *ra)
{
	uintptr_t a = (uintptr_t)ra;
	int k;

	if (!ready)
		return 0;
	if (!scanned) {
		int main_segc = is_segc();

		scanned = 1;
		if (!main_segc)
			return 0;
		dl_iterate_phdr(add_object, &main_segc);
	}
	for (k = 0; k < nseg; k++)
		if (a >= seg[k].lo && a < seg[k].hi) {
			count++;
			return fail_at && count == fail_at;
		}
	return 0;
}

void *malloc(size_t n)
{
	resolve();
	if (!real_malloc)
		return boot_alloc(n);
	if (fails(__builtin_return_address(0))) {
		errno = ENOMEM;
		return NULL;
	}
	return real_malloc(n);
}

void *calloc(size_t n, size_t size)
{
	resolve();
	if (!real_calloc) {
		void *p = size && n > SIZE_MAX / size ? NULL :
			boot_alloc(n * size);

		return p ? memset(p, 0, n * size) : NULL;
	}
	if (fails(__builtin_return_address(0))) {
		errno = ENOMEM;
		return NULL;
	}
	return real_calloc(n, size);
}

void *realloc(void *p, size_t n)
{
	resolve();
	if (in_boot(p) || !real_realloc) {
		void *q = real_malloc ? real_malloc(n) : boot_alloc(n);

		if (q && p) {
			size_t room = (size_t)(boot + sizeof boot -
				(unsigned char *)p);

			memcpy(q, p, n < room ? n : room);
		}
		return q;
	}
	if (fails(__builtin_return_address(0))) {
		errno = ENOMEM;
		return NULL;
	}
	return real_realloc(p, n);
}

void free(void *p)
{
	if (!p || in_boot(p))
		return;
	resolve();
	if (real_free)
		real_free(p);
}

/* Writes the count when the run ends by returning from main or exit(). */
__attribute__((destructor)) static void report(void)
{
	const char *path = getenv("FAILMALLOC_COUNT");
	char buf[32];
	int fd, n;

	if (!path || !scanned || !nseg)
		return;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return;
	n = snprintf(buf, sizeof buf, "%lu\n", count);
	if (n > 0 && write(fd, buf, (size_t)n) < 0)
		n = 0;
	close(fd);
}
