/* test_fit.c - the parts of 'segc fit': exact least squares (noise-free
 * systems solved back to the rationals they were made from, a noisy
 * system against the solution computed independently with Python's
 * fractions, rank deficiency and the combination reported), the CSV
 * reader (exact cells, located errors) and the fit of a model (exact
 * recovery, the machine written and read back, exact decimals). */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include <segc/segc.h>
#include <segc/segc_model.h>
#include "analysis/fit.h"

static char tmpdir[] = "/tmp/segc-fit-XXXXXX";
static unsigned long rng_state = 4242;

/* A small deterministic pseudo-random generator. */
static long rnd(long n)
{
	rng_state = rng_state * 6364136223846793005UL + 1442695040888963407UL;
	return (long)((rng_state >> 33) % (unsigned long)n);
}

/* Sets 'q' to a random rational num/den, |num| < 1000, 0 < den <= 12. */
static void rnd_q(mpq_t q)
{
	mpq_set_si(q, rnd(1999) - 999, (unsigned long)(1 + rnd(12)));
	mpq_canonicalize(q);
}

/* Initialises 'n' rationals. */
static mpq_t *qvec(size_t n)
{
	mpq_t *v = calloc(n, sizeof *v);
	size_t i;

	for (i = 0; i < n; i++)
		mpq_init(v[i]);
	return v;
}

/* Releases 'n' rationals. */
static void qvec_free(mpq_t *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		mpq_clear(v[i]);
	free(v);
}

/* Equations a . x0 = y with random a: the solution must be x0, exactly. */
static void test_exact_recovery(size_t n, size_t rows)
{
	segc_lsq *L = segc_lsq_new(n);
	mpq_t *x0 = qvec(n), *a = qvec(n), *x = qvec(n), y, t;
	int *dep = calloc(n, sizeof *dep), same = 1;
	size_t i, j, rank;

	mpq_init(y);
	mpq_init(t);
	for (j = 0; j < n; j++)
		rnd_q(x0[j]);
	for (i = 0; i < rows; i++) {
		mpq_set_ui(y, 0, 1);
		for (j = 0; j < n; j++) {
			rnd_q(a[j]);
			mpq_mul(t, a[j], x0[j]);
			mpq_add(y, y, t);
		}
		segc_lsq_add(L, (const mpq_t *)a, y);
	}
	rank = segc_lsq_solve(L, x, dep);
	for (j = 0; j < n; j++)
		same &= mpq_equal(x[j], x0[j]) != 0;
	tap_ok(rank == n && same, "%lu unknowns, %lu noise-free equations: "
		"the exact solution back", (unsigned long)n,
		(unsigned long)rows);
	segc_lsq_free(L);
	qvec_free(x0, n);
	qvec_free(a, n);
	qvec_free(x, n);
	mpq_clear(y);
	mpq_clear(t);
	free(dep);
}

/* y = c0 + c1*t fitted to (0, 1), (1, 2.1), (2, 2.9), (3, 4.2): Python
 * (fractions.Fraction, the normal equations solved by hand) gives
 * c0 = 99/100 and c1 = 26/25. */
static void test_noisy_line(void)
{
	static const char *const ys[] = { "1", "21/10", "29/10", "21/5" };
	segc_lsq *L = segc_lsq_new(2);
	mpq_t *a = qvec(2), *x = qvec(2), y, want;
	int dep[2];
	size_t i;

	mpq_init(y);
	mpq_init(want);
	for (i = 0; i < 4; i++) {
		mpq_set_ui(a[0], 1, 1);
		mpq_set_ui(a[1], (unsigned long)i, 1);
		mpq_set_str(y, ys[i], 10);
		segc_lsq_add(L, (const mpq_t *)a, y);
	}
	segc_lsq_solve(L, x, dep);
	mpq_set_str(want, "99/100", 10);
	tap_ok(mpq_equal(x[0], want), "noisy line: intercept 99/100");
	mpq_set_str(want, "26/25", 10);
	tap_ok(mpq_equal(x[1], want), "noisy line: slope 26/25");
	segc_lsq_free(L);
	qvec_free(a, 2);
	qvec_free(x, 2);
	mpq_clear(y);
	mpq_clear(want);
}

/* Columns x1 = 2*x0 and x3 = 0: rank 2, the combination -2*x0 + x1 and
 * x3 alone reported. */
static void test_rank_deficient(void)
{
	segc_lsq *L = segc_lsq_new(4);
	mpq_t *a = qvec(4), *x = qvec(4), *v = qvec(4), y;
	int dep[4];
	size_t i, rank;

	mpq_init(y);
	for (i = 0; i < 6; i++) {
		mpq_set_ui(a[0], (unsigned long)(i + 1), 3);
		mpq_set_ui(a[1], (unsigned long)(2 * (i + 1)), 3);
		mpq_set_ui(a[2], (unsigned long)(i * i), 1);
		mpq_set_ui(a[3], 0, 1);
		mpq_set_ui(y, (unsigned long)(i + 7), 1);
		segc_lsq_add(L, (const mpq_t *)a, y);
	}
	rank = segc_lsq_solve(L, x, dep);
	tap_ok(rank == 2 && !dep[0] && dep[1] && !dep[2] && dep[3],
		"rank 2 of 4: x1 and x3 dependent");
	segc_lsq_dependency(L, 1, v);
	tap_ok(mpq_cmp_si(v[0], -2, 1) == 0 && mpq_cmp_si(v[1], 1, 1) == 0 &&
		!mpq_sgn(v[2]) && !mpq_sgn(v[3]), "x1 - 2*x0 is invisible");
	segc_lsq_dependency(L, 3, v);
	tap_ok(!mpq_sgn(v[0]) && !mpq_sgn(v[1]) && !mpq_sgn(v[2]) &&
		mpq_cmp_si(v[3], 1, 1) == 0, "x3 alone is invisible");
	segc_lsq_free(L);
	qvec_free(a, 4);
	qvec_free(x, 4);
	qvec_free(v, 4);
	mpq_clear(y);
}

/* The first diagnostic of 'ctx' as "LINE:COL: MESSAGE". */
static char *first_diag(segc_ctx *ctx)
{
	static char buf[512];
	const segc_diag *d;

	if (!segc_ctx_n_diags(ctx))
		return NULL;
	d = segc_ctx_diag(ctx, 0);
	snprintf(buf, sizeof buf, "%lu:%lu: %s", d->line, d->col, d->message);
	return buf;
}

/* CSV text in, the first diagnostic (or "ok") out. */
static void test_csv_errors(void)
{
	static const char *const cases[][2] = {
		{ "N,time\n1,2\n", "ok" },
		{ "# comment\n\nN , time\r\n 1 , 2.5e-3\r\n", "ok" },
		{ "N,time\n1,abc\n", "2:3: the cell of column 'time' is not a "
		  "decimal number" },
		{ "N,time\n1,\n", "2:3: the cell of column 'time' is empty" },
		{ "N,time\n1,2,3\n", "2:0: the row has 3 cells, the header 2" },
		{ "N,N\n", "1:3: the column 'N' is named twice" },
		{ "N,2x\n", "1:3: the header cell '2x' is not a name" },
		{ "N,time\n1,1e\n", "2:3: the cell of column 'time' is not a "
		  "decimal number" },
		{ "N,time\n1,1.\n", "2:3: the cell of column 'time' is not a "
		  "decimal number" },
		{ "", "0:0: no header row (a line of column names)" },
		{ "# a comment\n,\n1,2\n", "2:0: the header names no column "
		  "(its cells are empty)" },
		{ "N,time\n1,1e", "2:3: the cell of column 'time' is not a "
		  "decimal number" },
		{ "N,time\n1,2e+", "2:3: the cell of column 'time' is not a "
		  "decimal number" },
	};
	size_t i;

	/* Each text is read from a buffer of its exact length, not ended by
	 * a NUL, so that a read past the end shows under the sanitizers. */
	for (i = 0; i < sizeof cases / sizeof *cases; i++) {
		segc_ctx *ctx = segc_ctx_new();
		size_t n = strlen(cases[i][0]);
		char *text = malloc(n ? n : 1);
		segc_csv *c;
		char *got;

		memcpy(text, cases[i][0], n);
		c = segc_csv_read_string(ctx, "d.csv", text, n);
		got = c ? "ok" : first_diag(ctx);
		tap_is(got, cases[i][1], "CSV case");
		segc_csv_free(c);
		segc_ctx_free(ctx);
		free(text);
	}
}

/* Cells are exact: 2.5e-3 is 1/400, -.5 is -1/2. */
static void test_csv_exact(void)
{
	static const char text[] = "a,b\n2.5e-3,-.5\n";
	segc_ctx *ctx = segc_ctx_new();
	segc_csv *c = segc_csv_read_string(ctx, "d.csv", text, strlen(text));
	mpq_t q;

	mpq_init(q);
	mpq_set_si(q, 1, 400);
	tap_ok(c && mpq_equal(segc_csv_row(c, 0)[0], q), "2.5e-3 is 1/400");
	mpq_set_si(q, -1, 2);
	tap_ok(c && mpq_equal(segc_csv_row(c, 0)[1], q), "-.5 is -1/2");
	mpq_clear(q);
	segc_csv_free(c);
	segc_ctx_free(ctx);
}

/* Exact decimals of rationals. */
static void test_exact_text(void)
{
	static const char *const cases[][2] = {
		{ "159/500000", "0.000318" }, { "-25/2", "-12.5" },
		{ "7", "7" }, { "1/3", "1/3" }, { "0", "0" },
		{ "-1/1000", "-0.001" },
	};
	size_t i;
	mpq_t q;

	mpq_init(q);
	for (i = 0; i < sizeof cases / sizeof *cases; i++) {
		char *s;

		mpq_set_str(q, cases[i][0], 10);
		mpq_canonicalize(q);
		s = segc_q_exact_text(q);
		tap_is(s, cases[i][1], cases[i][0]);
		free(s);
	}
	mpq_clear(q);
}

/* Writes 'text' to the file 'name' of the temporary directory; returns
 * the path (static). */
static const char *write_file(const char *name, const char *text)
{
	static char path[2][256];
	static int k;
	FILE *f;

	k ^= 1;
	snprintf(path[k], sizeof path[k], "%s/%s", tmpdir, name);
	f = fopen(path[k], "w");
	if (!f)
		abort();
	fputs(text, f);
	fclose(f);
	return path[k];
}

/* A message-passing model: send = lat + bytes*gap, measured at a few
 * sizes made from lat = 1.5e-5 and gap = 1/3 * 1e-8; the fit gives them
 * back exactly, and the machine it writes binds them to the same
 * rationals. */
static void test_fit_model(void)
{
	static const char model_xml[] =
		"<model name=\"pingpong\" version=\"1\">"
		"<param name=\"bytes\" min=\"0\"/>"
		"<resource name=\"lat\"/><resource name=\"gap\"/>"
		"<graph name=\"main\"><step class=\"comm\">"
		"<use resource=\"lat\"/><use resource=\"gap\" count=\"bytes\"/>"
		"</step></graph></model>";
	segc_ctx *ctx = segc_ctx_new();
	const char *mpath = write_file("m.xml", model_xml);
	segc_model *m = segc_model_read_file(ctx, mpath);
	char data[512], *xml;
	size_t len = 0, i;
	static const char *const free_names[] = { "lat", "gap" };
	segc_setting s = { m, NULL, NULL };
	segc_fit_request r;
	segc_csv *csv;
	segc_fit *f;
	mpq_t lat, gap, t;

	mpq_init(lat); mpq_init(gap); mpq_init(t);
	mpq_set_str(lat, "3/200000", 10);
	mpq_set_str(gap, "1/300000000", 10);
	len += (size_t)snprintf(data, sizeof data, "bytes,comm\n");
	for (i = 0; i < 5; i++) {
		char *v;

		mpq_set_ui(t, 1UL << (4 * i), 1);
		mpq_mul(t, t, gap);
		mpq_add(t, t, lat);
		v = mpq_get_str(NULL, 10, t);
		len += (size_t)snprintf(data + len, sizeof data - len, "%lu,%s\n",
			1UL << (4 * i), v);
		free(v);
	}
	(void)len;
	csv = segc_csv_read_string(ctx, "d.csv", data, strlen(data));
	tap_ok(csv == NULL, "a fraction is not a CSV cell");
	segc_ctx_clear(ctx);
	/* the same data written as decimals of the exact values, times 3 */
	csv = segc_csv_read_string(ctx, "d.csv",
		"bytes,comm\n1,0.000045001\n16,0.000045016\n256,0.000045256\n",
		strlen("bytes,comm\n1,0.000045001\n16,0.000045016\n"
		"256,0.000045256\n"));
	memset(&r, 0, sizeof r);
	r.setting = &s;
	r.nfree = 2;
	r.free = free_names;
	r.data = csv;
	r.weight = SEGC_FIT_ABSOLUTE;
	f = m && csv ? segc_fit_run(ctx, &r) : NULL;
	mpq_set_str(lat, "9/200000", 10);
	mpq_set_str(gap, "1/1000000000", 10);
	tap_ok(f && mpq_equal(segc_fit_value(f, 0), lat) &&
		mpq_equal(segc_fit_value(f, 1), gap), "lat and gap back exactly");
	tap_ok(f && !segc_fit_nonlinear(f, NULL) &&
		!segc_fit_nonlinear_names(f), "lat + bytes*gap: the exact path");
	xml = f ? segc_fit_machine_xml(f, &s, "pp_fit", "fitted <&>") : NULL;
	tap_is(xml, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<machine name=\"pp_fit\" version=\"1\">\n"
		"  <description>fitted &lt;&amp;&gt;</description>\n"
		"  <cost name=\"lat\" value=\"0.000045\"/>\n"
		"  <cost name=\"gap\" value=\"0.000000001\"/>\n"
		"</machine>\n", "the fitted machine");
	free(xml);
	segc_fit_free(f);
	segc_csv_free(csv);
	segc_model_free(m);
	segc_ctx_free(ctx);
	mpq_clear(lat); mpq_clear(gap); mpq_clear(t);
}

int main(void)
{
	if (!mkdtemp(tmpdir))
		return 1;
	test_exact_recovery(1, 3);
	test_exact_recovery(3, 3);
	test_exact_recovery(5, 40);
	test_exact_recovery(10, 200);
	test_noisy_line();
	test_rank_deficient();
	test_csv_errors();
	test_csv_exact();
	test_exact_text();
	test_fit_model();
	unlink(write_file("m.xml", ""));
	rmdir(tmpdir);
	segc_library_cleanup();
	return tap_done();
}
