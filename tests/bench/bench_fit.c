/* bench_fit.c - the cost of segc fit at scale: a model with 10
 * resources, 10^5 rows of measurements made in memory (3-digit decimals
 * of the counts, times made from known costs), read as CSV and fitted
 * exactly.  Prints the time of each stage; fails when the costs do not
 * come back exactly or the whole takes 2 s or more. */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <segc/segc.h>
#include <segc/segc_model.h>
#include "analysis/fit.h"

#define NFREE 10
#define NROWS 100000

/* Seconds since an arbitrary start. */
static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Writes the model: one step using resource r_j n_j times, j < NFREE. */
static int write_model(const char *path)
{
	FILE *f = fopen(path, "w");
	int j;

	if (!f)
		return -1;
	fprintf(f, "<model name=\"bench\" version=\"1\">\n");
	for (j = 0; j < NFREE; j++)
		fprintf(f, "<param name=\"n%d\" min=\"0\"/>\n", j);
	for (j = 0; j < NFREE; j++)
		fprintf(f, "<resource name=\"r%d\"/>\n", j);
	fprintf(f, "<graph name=\"main\"><step>\n");
	for (j = 0; j < NFREE; j++)
		fprintf(f, "<use resource=\"r%d\" count=\"n%d\"/>\n", j, j);
	fprintf(f, "</step></graph></model>\n");
	return fclose(f);
}

/* The CSV text: counts n_j = k/1000 (k pseudo-random), time = sum of
 * n_j * (j + 1)/100, written exactly (5 decimals). */
static char *make_data(size_t *len)
{
	size_t cap = (size_t)NROWS * 16 * (NFREE + 1) + 256, n = 0;
	char *s = malloc(cap);
	unsigned long state = 1;
	int i, j;

	n += (size_t)sprintf(s, "n0");
	for (j = 1; j < NFREE; j++)
		n += (size_t)sprintf(s + n, ",n%d", j);
	n += (size_t)sprintf(s + n, ",time\n");
	for (i = 0; i < NROWS; i++) {
		long t = 0;

		for (j = 0; j < NFREE; j++) {
			long k;

			state = state * 6364136223846793005UL + 1442695040888963407UL;
			k = (long)((state >> 33) % 100000);
			t += k * (j + 1);
			n += (size_t)sprintf(s + n, "%s%ld.%03ld", j ? "," : "",
				k / 1000, k % 1000);
		}
		n += (size_t)sprintf(s + n, ",%ld.%05ld\n", t / 100000,
			t % 100000);
	}
	*len = n;
	return s;
}

int main(void)
{
	char dir[] = "/tmp/segc-bench-fit-XXXXXX", path[64];
	const char *names[NFREE];
	char name_buf[NFREE][8];
	segc_ctx *ctx = segc_ctx_new();
	segc_model *m;
	segc_csv *csv;
	segc_fit *f = NULL;
	segc_setting s;
	segc_fit_request r;
	double t0, t1, t2;
	size_t len;
	char *text;
	int j, exact = 1;
	mpq_t want;

	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof path, "%s/m.xml", dir);
	if (write_model(path) || !(m = segc_model_read_file(ctx, path))) {
		if (segc_ctx_n_diags(ctx))
			fprintf(stderr, "bench_fit: %s\n",
				segc_ctx_diag(ctx, 0)->message);
		return 1;
	}
	text = make_data(&len);
	t0 = now();
	csv = segc_csv_read_string(ctx, "bench.csv", text, len);
	t1 = now();
	for (j = 0; j < NFREE; j++) {
		snprintf(name_buf[j], sizeof name_buf[j], "r%d", j);
		names[j] = name_buf[j];
	}
	s.model = m;
	s.machine = NULL;
	s.bindings = NULL;
	memset(&r, 0, sizeof r);
	r.setting = &s;
	r.nfree = NFREE;
	r.free = names;
	r.data = csv;
	r.weight = SEGC_FIT_ABSOLUTE;
	if (csv)
		f = segc_fit_run(ctx, &r);
	t2 = now();
	if (!f && segc_ctx_n_diags(ctx))
		fprintf(stderr, "bench_fit: %s\n", segc_ctx_diag(ctx, 0)->message);
	mpq_init(want);
	for (j = 0; f && j < NFREE; j++) {
		mpq_set_ui(want, (unsigned long)j + 1, 100);
		mpq_canonicalize(want);
		exact &= mpq_equal(want, segc_fit_value(f, (size_t)j)) != 0;
	}
	printf("bench_fit: %d rows x %d free names: read %.3f s, fit %.3f s, "
		"total %.3f s; costs back exactly: %s\n", NROWS, NFREE, t1 - t0,
		t2 - t1, t2 - t0, f && exact ? "yes" : "NO");
	mpq_clear(want);
	segc_fit_free(f);
	segc_csv_free(csv);
	segc_model_free(m);
	segc_ctx_free(ctx);
	free(text);
	unlink(path);
	rmdir(dir);
	segc_library_cleanup();
	return f && exact && t2 - t0 < 2.0 ? 0 : 1;
}
