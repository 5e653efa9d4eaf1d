/* workloads_flint.h - the reference algebra workloads' operands and the
 * long sum done directly on FLINT's fmpq_mpoly over x1..x8
 * (bench_flint, bench_versus). */
#ifndef SEGC_WORKLOADS_FLINT_H
#define SEGC_WORKLOADS_FLINT_H

#include <stdio.h>
#include <stdlib.h>
#include <flint/fmpq_mpoly.h>

/* P = the polynomial of 'text' over x1..x8 in 'ctx' (P initialised). */
static inline void workload_fpoly_of(fmpq_mpoly_t P, const char *text,
	const fmpq_mpoly_ctx_t ctx)
{
	const char *vars[8] = { "x1", "x2", "x3", "x4", "x5", "x6", "x7",
		"x8" };

	if (fmpq_mpoly_set_str_pretty(P, text, vars, ctx)) {
		fprintf(stderr, "cannot parse %s\n", text);
		exit(1);
	}
}

/* S = the 10^5-term sum of ANCHORS.md: its terms pushed, sorted and
 * merged. */
static inline void workload_flint_sum(fmpq_mpoly_t S,
	const fmpq_mpoly_ctx_t ctx)
{
	fmpq_t c;
	ulong e[8] = { 0 };
	long i;

	fmpq_init(c);
	fmpq_mpoly_zero(S, ctx);
	for (i = 0; i < 100000; i++) {
		fmpq_set_si(c, i % 97 + 1, (ulong)(i % 13 + 1));
		e[0] = (ulong)(i % 50);
		e[1] = (ulong)((i / 50) % 40);
		e[2] = (ulong)((i / 2000) % 7);
		fmpq_mpoly_push_term_fmpq_ui(S, c, e, ctx);
	}
	fmpq_mpoly_sort_terms(S, ctx);
	fmpq_mpoly_combine_like_terms(S, ctx);
	fmpq_clear(c);
}

#endif
