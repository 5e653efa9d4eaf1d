/* fuzz_common.c - the helpers every fuzz target shares (see fuzz.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

/* A context with limits small enough for fuzzing. */
segc_ctx *fuzz_ctx_new(void)
{
	segc_ctx *ctx = segc_ctx_new();
	segc_limits *l = segc_ctx_limits(ctx);

	l->max_file_bytes = 1UL << 20;
	l->max_nodes = 20000;
	l->max_terms = 5000;
	l->max_literal_digits = 400;
	l->max_coeff_bits = 8000;
	l->max_exponent = 200;
	l->max_sum_degree = 20;
	l->max_markov_states = 200;
	l->max_mva_p = 16;
	/* Well under a second of polynomial arithmetic, so that even under
	 * the sanitizers an input ends long before the fuzzers' timeout. */
	l->max_work = 20000000;
	return ctx;
}

/* A NUL-terminated copy of the input. */
char *fuzz_string(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	if (size)
		memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/* Aborts when an invariant does not hold. */
void fuzz_check(int cond, const char *what)
{
	if (cond)
		return;
	fprintf(stderr, "fuzz: invariant broken: %s\n", what);
	abort();
}

/* Checks every diagnostic of 'ctx'. */
void fuzz_check_diags(const segc_ctx *ctx)
{
	size_t i, n = segc_ctx_n_diags(ctx);

	for (i = 0; i < n; i++) {
		const segc_diag *d = segc_ctx_diag(ctx, i);
		const unsigned char *p;

		fuzz_check(d && d->message && d->message[0],
			"a diagnostic has a message");
		for (p = (const unsigned char *)d->message; *p; p++)
			if (*p < 0x20 || *p == 0x7f) {
				fprintf(stderr, "fuzz: message: %s\n",
					d->message);
				fuzz_check(0, "a diagnostic is one line of "
					"printable text");
			}
		fuzz_check(d->code != SEGC_ERR_INTERNAL,
			"no internal error is recorded");
	}
}

/* Checks what a failed call left in 'ctx'. */
void fuzz_check_failure(const segc_ctx *ctx)
{
	fuzz_check(segc_ctx_status(ctx) == SEGC_ERR_INPUT ||
		segc_ctx_status(ctx) == SEGC_ERR_LIMIT,
		"a failure records an input or limit error");
	fuzz_check(segc_ctx_n_diags(ctx) > 0, "a failure is explained");
	fuzz_check_diags(ctx);
}

/* Non-zero when 'a' and 'b' differ only in the names of the variables
 * their sums bind: the printer writes the internal names of canonical
 * sums (_s1) as readable ones (i), and the canonical form renames them
 * back. */
static int same_but_bound_names(segc_ctx *ctx, const segc_expr *a,
	const segc_expr *b)
{
	segc_expr *ca = segc_canonical(ctx, NULL, segc_expr_copy(
		(segc_expr *)a));
	segc_expr *cb = ca ? segc_canonical(ctx, NULL, segc_expr_copy(
		(segc_expr *)b)) : NULL;
	int same = ca && ca == cb;

	segc_expr_free(ca);
	segc_expr_free(cb);
	return same;
}

/* print -> parse gives the same expression, up to the names of bound
 * variables. */
void fuzz_check_roundtrip(const segc_expr *e)
{
	segc_ctx *ctx = segc_ctx_new();
	segc_limits *l = segc_ctx_limits(ctx);
	char *text = segc_expr_to_string(e);
	segc_expr *back;

	/* The printed form may legitimately hold longer literals than the
	 * input did (1e300 prints 301 digits). */
	l->max_literal_digits = 0;
	l->max_literal_digits--;
	fuzz_check(text != NULL, "the printer returns text");
	back = segc_expr_parse(ctx, text, NULL);
	if (!back) {
		fprintf(stderr, "fuzz: printed: %s\n", text);
		fuzz_check(segc_ctx_status(ctx) == SEGC_ERR_LIMIT,
			"printed text parses back");
	} else if (back != e && !same_but_bound_names(ctx, e, back)) {
		char *t2 = segc_expr_to_string(back);

		fprintf(stderr, "fuzz: printed: %s\nfuzz: reparsed: %s\n",
			text, t2);
		free(t2);
		fuzz_check(0, "print -> parse gives the same pointer");
	}
	segc_expr_free(back);
	free(text);
	segc_ctx_free(ctx);
}
