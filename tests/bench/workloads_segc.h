/* workloads_segc.h - the operands of the reference algebra workloads as
 * segc builds them (bench_algebra, bench_versus): polynomials over
 * x1..x8 from a sum of products, and the 10^5-term sum of ANCHORS.md
 * made with the expression constructors. */
#ifndef SEGC_WORKLOADS_SEGC_H
#define SEGC_WORKLOADS_SEGC_H

#include <stdlib.h>
#include <segc/segc.h>
#include "algebra/poly/poly.h"

/* p = the polynomial of 'text' over x1..x8 (variable i-1 is xi): terms
 * "k*x1^a*x2^b..." separated by '+'. */
static inline void workload_poly_of(segc_poly *p, const char *text)
{
	const char *s = text;
	int32_t e[8];
	mpq_t c;
	int v;

	segc_poly_init(p, 8);
	mpq_init(c);
	while (*s) {
		for (v = 0; v < 8; v++)
			e[v] = 0;
		mpq_set_ui(c, 1, 1);
		while (*s && *s != '+') {
			if (*s == 'x') {
				int k = 1;

				v = s[1] - '1';
				s += 2;
				if (*s == '^')
					k = (int)strtol(s + 1, (char **)&s, 10);
				e[v] += k;
			} else if (*s >= '0' && *s <= '9') {
				mpq_set_si(c, strtol(s, (char **)&s, 10), 1);
			} else {
				s++;
			}
		}
		segc_poly_push(p, e, c);
		if (*s == '+')
			s++;
	}
	segc_poly_normalise(NULL, p);
	mpq_clear(c);
}

/* The sum of the 10^5 terms ((i mod 97)+1)/((i mod 13)+1) *
 * x1^(i mod 50) * x2^((i div 50) mod 40) * x3^((i div 2000) mod 7). */
static inline segc_expr *workload_long_sum(void)
{
	segc_expr **terms = malloc(100000 * sizeof(*terms)), *e;
	segc_expr *x1 = segc_expr_sym("x1"), *x2 = segc_expr_sym("x2");
	segc_expr *x3 = segc_expr_sym("x3");
	long i;

	for (i = 0; i < 100000; i++) {
		segc_expr *f[4];

		f[0] = segc_expr_rat(i % 97 + 1, (unsigned long)(i % 13 + 1));
		f[1] = segc_expr_powi(segc_expr_copy(x1), i % 50);
		f[2] = segc_expr_powi(segc_expr_copy(x2), (i / 50) % 40);
		f[3] = segc_expr_powi(segc_expr_copy(x3), (i / 2000) % 7);
		terms[i] = segc_expr_mul(4, f);
	}
	e = segc_expr_add(100000, terms);
	free(terms);
	segc_expr_free(x1);
	segc_expr_free(x2);
	segc_expr_free(x3);
	return e;
}

#endif
