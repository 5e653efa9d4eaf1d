/* bench_emit.c - nanoseconds per call of emitted predictors (segc emit:
 * Horner's rule, shared subexpressions) against a naive evaluation of the
 * expanded canonical form with pow(), all compiled by $CC -O2 (or
 * $BENCH_CFLAGS) in the same way, and the --accurate predictor beside
 * them (its time as a multiple of the emitted one's), for cg_tree on the
 * nCUBE/2 and for the dense polynomial of ANCHORS.md (degrees 0..9 in N,
 * -2..6 in P).  Also the operation counts
 * and the largest error in ulp of each against the exact value (MPFR). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "output/output.h"
#include <segc/segc_model.h>

#ifndef BENCH_CC
#define BENCH_CC "cc"
#endif
#ifndef SRCDIR
#define SRCDIR "."
#endif

#define NPOINTS 64

/* One benchmarked formula. */
typedef struct workload {
	const char *name;
	segc_expr *e;
	size_t nargs;
	const char *args[3];
	size_t terms;
} workload;

/* Appends 'e' as naive C: sums and products as written, powers by pow(). */
static void naive_c(segc_strbuf *b, const segc_expr *e)
{
	size_t i, n = segc_expr_nargs(e);
	const char *f;

	switch (segc_expr_kind(e)) {
	case SEGC_NUM:
		segc_strbuf_appendf(b, "%.17g", mpq_get_d(segc_expr_value(e)));
		return;
	case SEGC_SYM:
		segc_strbuf_append(b, segc_expr_name(e));
		return;
	case SEGC_ADD:
	case SEGC_MUL:
		segc_strbuf_appendc(b, '(');
		for (i = 0; i < n; i++) {
			if (i)
				segc_strbuf_append(b, segc_expr_kind(e) == SEGC_ADD ?
					" + " : "*");
			naive_c(b, segc_expr_arg(e, i));
		}
		segc_strbuf_appendc(b, ')');
		return;
	case SEGC_POW:
		segc_strbuf_append(b, "pow(");
		naive_c(b, segc_expr_arg(e, 0));
		segc_strbuf_append(b, ", ");
		naive_c(b, segc_expr_arg(e, 1));
		segc_strbuf_appendc(b, ')');
		return;
	case SEGC_CALL:
		f = segc_expr_name(e);
		segc_strbuf_append(b, !strcmp(f, "max") ? "fmax" :
			!strcmp(f, "min") ? "fmin" : f);
		segc_strbuf_appendc(b, '(');
		for (i = 0; i < n; i++) {
			if (i)
				segc_strbuf_append(b, ", ");
			naive_c(b, segc_expr_arg(e, i));
		}
		segc_strbuf_appendc(b, ')');
		return;
	default:
		segc_strbuf_append(b, "0");
	}
}

/* Writes 'text' to 'path'. */
static int write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f);
}

/* The parameter list "(double N, double P, ...)" of 'w'. */
static void put_params(segc_strbuf *b, const workload *w)
{
	size_t i;

	segc_strbuf_appendc(b, '(');
	for (i = 0; i < w->nargs; i++)
		segc_strbuf_appendf(b, "%sdouble %s", i ? ", " : "", w->args[i]);
	segc_strbuf_appendc(b, ')');
}

/* Writes the emitted predictor and the naive version of 'w' into 'dir';
 * returns the plan's operation count, or -1. */
static long write_sources(segc_ctx *ctx, const workload *w, const char *dir)
{
	segc_templates t;
	segc_emit_input in;
	segc_strbuf b;
	char *c_text, *h_text, path[512];
	segc_plan *p;
	long flops;

	char name[64];
	int dd;

	for (dd = 0; dd < 2; dd++) {
		memset(&in, 0, sizeof in);
		snprintf(name, sizeof name, "%s%s", w->name, dd ? "_dd" : "");
		in.model_name = name;
		in.base = name;
		in.nargs = w->nargs;
		in.args = w->args;
		in.formulas[0] = w->e;
		in.accurate = dd;
		segc_templates_builtin(&t);
		if (segc_emit_render(ctx, &t, &in, NULL, &c_text, &h_text))
			return -1;
		segc_templates_clear(&t);
		snprintf(path, sizeof path, "%s/%s.c", dir, name);
		write_file(path, c_text);
		snprintf(path, sizeof path, "%s/%s.h", dir, name);
		write_file(path, h_text);
		free(c_text);
		free(h_text);
	}
	segc_strbuf_init(&b);
	segc_strbuf_append(&b, "#include <math.h>\ndouble naive_");
	segc_strbuf_append(&b, w->name);
	put_params(&b, w);
	segc_strbuf_append(&b, ";\ndouble naive_");
	segc_strbuf_append(&b, w->name);
	put_params(&b, w);
	segc_strbuf_append(&b, "\n{\n\treturn ");
	naive_c(&b, w->e);
	segc_strbuf_append(&b, ";\n}\n");
	snprintf(path, sizeof path, "%s/naive_%s.c", dir, w->name);
	write_file(path, segc_strbuf_str(&b));
	segc_strbuf_free(&b);
	p = segc_plan_build(ctx, w->e, w->nargs, w->args, NULL);
	flops = p ? (long)p->flops : -1;
	segc_plan_free(p);
	return flops;
}

/* The harness: prints the values at the points (%a) for the error check,
 * then times each function over NPOINTS points: the least of 7 rounds, in
 * the thread's CPU time (other processes on a loaded machine count less
 * than in wall-clock time), the three functions in turn in each round. */
static const char harness[] =
	"#include <stdio.h>\n#include <time.h>\n"
	"double %s_total(%s);\ndouble naive_%s(%s);\ndouble %s_dd_total(%s);\n"
	"static double now(void) { struct timespec t;"
	" clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);"
	" return t.tv_sec * 1e9 + t.tv_nsec; }\n"
	"static void least(double *m, double t) { if (t < *m) *m = t; }\n"
	"int main(void) {\n"
	"  double N[%d], P[%d], T = 3, s = 0, t0, t1, t2, t3;"
	" double m[3] = { 1e300, 1e300, 1e300 }; volatile double sink;"
	" int i, r, k;\n"
	"  for (i = 0; i < %d; i++) { N[i] = (double)(1 << (i %% 20)) + i;"
	" P[i] = 1 + (i * 37) %% 1024; }\n"
	"  for (i = 0; i < %d; i++) printf(\"%%a %%a %%a %%a %%a\\n\", N[i], P[i],"
	" %s_total(N[i], P[i]%s), naive_%s(N[i], P[i]%s),"
	" %s_dd_total(N[i], P[i]%s));\n"
	"  for (k = 0; k < 7; k++) {\n"
	"  t0 = now();\n"
	"  for (r = 0; r < 4000; r++) for (i = 0; i < %d; i++)"
	" s += %s_total(N[i], P[i]%s);\n"
	"  t1 = now();\n"
	"  for (r = 0; r < 4000; r++) for (i = 0; i < %d; i++)"
	" s += naive_%s(N[i], P[i]%s);\n"
	"  t2 = now();\n"
	"  for (r = 0; r < 4000; r++) for (i = 0; i < %d; i++)"
	" s += %s_dd_total(N[i], P[i]%s);\n"
	"  t3 = now(); least(&m[0], t1 - t0); least(&m[1], t2 - t1);"
	" least(&m[2], t3 - t2);\n  }\n"
	"  sink = s; (void)sink; (void)T;\n"
	"  printf(\"ns %%.1f %%.1f %%.1f\\n\", m[0] / (4000.0 * %d),"
	" m[1] / (4000.0 * %d), m[2] / (4000.0 * %d));\n"
	"  return 0;\n}\n";

/* Distance in ulp between two doubles of the same sign. */
static double ulps(double a, double b)
{
	int64_t x, y;

	if (a == b)
		return 0;
	memcpy(&x, &a, sizeof x);
	memcpy(&y, &b, sizeof y);
	return (double)(x > y ? x - y : y - x);
}

/* The optimization flags the harness is compiled with: $BENCH_CFLAGS,
 * else -O2 (--accurate takes the processor's fused multiply-add at run
 * time where it has one; BENCH_CFLAGS="-O2 -DSEGC_NO_FMA" times Dekker's
 * splitting instead, "-O2 -march=native" the whole file compiled for the
 * machine). */
static const char *cflags(void)
{
	const char *f = getenv("BENCH_CFLAGS");

	return f && *f ? f : "-O2";
}

/* Compiles and runs the harness of 'w'; prints its figures. */
static int run_workload(segc_ctx *ctx, const workload *w, const char *dir)
{
	char src[8192], cmd[4096], params[128], extra[16];
	long flops = write_sources(ctx, w, dir);
	double worst[3] = { 0, 0, 0 }, ns[3] = { 0, 0, 0 };
	FILE *f;
	char line[256];

	if (flops < 0)
		return -1;
	snprintf(params, sizeof params, "double, double%s",
		w->nargs == 3 ? ", double" : "");
	snprintf(extra, sizeof extra, "%s", w->nargs == 3 ? ", T" : "");
	snprintf(src, sizeof src, harness, w->name, params, w->name, params,
		w->name, params, NPOINTS, NPOINTS, NPOINTS, NPOINTS, w->name, extra,
		w->name, extra, w->name, extra, NPOINTS, w->name, extra, NPOINTS,
		w->name, extra, NPOINTS, w->name, extra, NPOINTS, NPOINTS, NPOINTS);
	snprintf(cmd, sizeof cmd, "%s/h_%s.c", dir, w->name);
	write_file(cmd, src);
	snprintf(cmd, sizeof cmd, "%s -std=c99 -D_POSIX_C_SOURCE=200809L %s "
		"-o %s/h_%s %s/h_%s.c %s/%s.c %s/%s_dd.c %s/naive_%s.c -lm",
		BENCH_CC, cflags(), dir, w->name, dir, w->name, dir, w->name,
		dir, w->name, dir, w->name);
	if (system(cmd))
		return -1;
	snprintf(cmd, sizeof cmd, "%s/h_%s", dir, w->name);
	f = popen(cmd, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof line, f)) {
		double n, p, a, b, c, x;
		mpq_t v[3];
		mpfr_t r;
		segc_point pt;

		if (sscanf(line, "ns %lf %lf %lf", &ns[0], &ns[1], &ns[2]) == 3)
			continue;
		if (sscanf(line, "%la %la %la %la %la", &n, &p, &a, &b, &c) != 5)
			continue;
		mpq_init(v[0]); mpq_init(v[1]); mpq_init(v[2]);
		mpq_set_d(v[0], n); mpq_set_d(v[1], p); mpq_set_d(v[2], 3);
		pt.n = w->nargs; pt.names = w->args; pt.values = (const mpq_t *)v;
		mpfr_init2(r, 53);
		segc_eval_mpfr(ctx, r, w->e, &pt, NULL);
		x = mpfr_get_d(r, MPFR_RNDN);
		if (ulps(a, x) > worst[0])
			worst[0] = ulps(a, x);
		if (ulps(b, x) > worst[1])
			worst[1] = ulps(b, x);
		if (ulps(c, x) > worst[2])
			worst[2] = ulps(c, x);
		mpfr_clear(r);
		mpq_clear(v[0]); mpq_clear(v[1]); mpq_clear(v[2]);
	}
	pclose(f);
	printf("%-9s %4lu terms %4ld ops | emitted %7.1f ns %2.0f ulp | "
		"--accurate %7.1f ns %2.0f ulp (%.1fx) | naive pow() %8.1f ns "
		"%2.0f ulp | naive/emitted %.1fx\n", w->name,
		(unsigned long)w->terms, flops, ns[0], worst[0], ns[2], worst[2],
		ns[0] > 0 ? ns[2] / ns[0] : 0, ns[1], worst[1],
		ns[0] > 0 ? ns[1] / ns[0] : 0);
	return 0;
}

/* The dense polynomial: coefficients (7i + 3j + 11k + 1)/(j + 5) of
 * N^i P^j t^k, i = 0..9, j = -2..6, k = 0..kmax. */
static segc_expr *dense(segc_ctx *ctx, int kmax, size_t *terms)
{
	segc_strbuf b;
	segc_expr *e;
	int i, j, k;

	segc_strbuf_init(&b);
	*terms = 0;
	for (i = 0; i <= 9; i++)
		for (j = -2; j <= 6; j++)
			for (k = 0; k <= kmax; k++) {
				segc_strbuf_appendf(&b, "%s%d/%d*N^%d*P^%d*t^%d",
					*terms ? " + " : "", 7 * i + 3 * j + 11 * k + 1,
					j + 5, i, j, k);
				(*terms)++;
			}
	e = segc_canonical(ctx, NULL, segc_expr_parse(ctx, segc_strbuf_str(&b),
		NULL));
	segc_strbuf_free(&b);
	return e;
}

/* cg_tree on the nCUBE/2 (canonical total). */
static segc_expr *cg_tree(segc_ctx *ctx, size_t *terms)
{
	segc_model *m = segc_model_read_file(ctx, SRCDIR "/xml/cg_tree.xml");
	segc_machine *mc = segc_machine_read_file(ctx,
		SRCDIR "/xml/machines/ncube2.xml");
	segc_setting s = { m, mc, NULL };
	segc_expr *e = m && mc ? segc_derive_canonical(ctx, &s, SEGC_TOTAL)
		: NULL;

	*terms = e && segc_expr_kind(e) == SEGC_ADD ? segc_expr_nargs(e) : 1;
	segc_model_free(m);
	segc_machine_free(mc);
	return e;
}

/* Runs the three workloads. */
int main(void)
{
	segc_ctx *ctx = segc_ctx_new();
	char dir[] = "/tmp/segc-bench-XXXXXX";
	workload w[3] = {
		{ "cg_tree", NULL, 2, { "N", "P", NULL }, 0 },
		{ "dense90", NULL, 2, { "N", "P", NULL }, 0 },
		{ "dense180", NULL, 3, { "N", "P", "t" }, 0 },
	};
	char cmd[128];
	int k, rc = 0;

	if (!mkdtemp(dir))
		return 1;
	w[0].e = cg_tree(ctx, &w[0].terms);
	w[1].e = dense(ctx, 0, &w[1].terms);
	w[2].e = dense(ctx, 1, &w[2].terms);
	for (k = 0; k < 3; k++)
		if (!w[k].e || run_workload(ctx, &w[k], dir)) {
			fprintf(stderr, "bench_emit: %s failed\n", w[k].name);
			rc = 1;
		}
	for (k = 0; k < 3; k++)
		segc_expr_free(w[k].e);
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	if (system(cmd))
		rc = 1;
	segc_ctx_free(ctx);
	segc_library_cleanup();
	return rc;
}
