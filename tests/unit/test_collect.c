/* test_collect.c - segc_collect: a table of formulas with the names to
 * collect and the text wanted, written by hand from the rules of
 * src/algebra/collect.c (each result also checked to have the canonical
 * form of its input); a nest too deep to split part by part. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include <segc/segc.h>

/* One case: the input, the names (comma list), the text wanted and
 * whether the first name was found as a factor. */
static const struct {
	const char *in, *names, *want;
	unsigned found;
} table[] = {
	{ "t*a + b", "t", "t*a + b", 1 },
	{ "a*t + b*t + c", "t", "t*(a + b) + c", 1 },
	{ "n*(a*t + b*u + c)", "t,u", "t*n*a + u*n*b + n*c", 1 },
	{ "n*(a*t + b*u + c)", "u,t", "u*n*b + t*n*a + n*c", 1 },
	{ "t^2*N + t*M", "t", "t*(t*N + M)", 1 },
	{ "t*u*a + u", "t,u", "t*u*a + u", 1 },
	{ "sum(i, 1, N, i*t + 1)", "t", "t*sum(i, 1, N, i) + sum(i, 1, N, 1)",
	  1 },
	{ "sum(t, 1, N, t)", "t", "sum(t, 1, N, t)", 0 },
	{ "sum(i, 1, t, i)", "t", "sum(i, 1, t, i)", 0 },
	{ "if(N < 8, t*N, u) + max(t, u)", "t",
	  "t*if(N < 8, N, 0) + if(N < 8, 0, u) + max(t, u)", 1 },
	{ "if(N < 8, t*N, t)", "t", "t*if(N < 8, N, 1)", 1 },
	{ "if(t < 8, t, 0)", "t", "if(t < 8, t, 0)", 0 },
	{ "1/(t + 1) + (t + u)^2", "t", "t*(t + 2*u) + 1/(t + 1) + u^2", 1 },
	{ "t^(1/2) + t^-1", "t", "t^(1/2) + 1/t", 0 },
	{ "2*t", "t", "2*t", 1 },
	{ "3", "t", "3", 0 },
	{ "t - t", "t", "0", 0 },
	{ "a*b", "t", "a*b", 0 },
};

static segc_ctx *ctx;
static segc_domains *dom;   /* N an integer >= 1 */

/* Checks that 'a' and 'b' have the same canonical form with N = 'n'
 * (which decides the if()s and the sums of the table); nothing to check
 * where there is no canonical form (a power like t^(1/2)). */
static void same_at(segc_expr *a, segc_expr *b, long n, const char *what)
{
	segc_expr *v = segc_expr_int(n), *c1, *c2;

	c1 = segc_canonical(ctx, dom, segc_expr_subst(segc_expr_copy(a), "N",
		v));
	c2 = segc_canonical(ctx, dom, segc_expr_subst(segc_expr_copy(b), "N",
		v));
	if (c1)
		tap_ok(c1 == c2, "%s: the same canonical form at N = %ld", what,
			n);
	segc_ctx_clear(ctx);
	segc_expr_free(c1);
	segc_expr_free(c2);
	segc_expr_free(v);
}

/* Checks one case of the table. */
static void check_case(size_t k)
{
	char names_buf[64], *p, *save = NULL;
	const char *names[4];
	unsigned found[4];
	size_t n = 0;
	segc_expr *e = segc_expr_parse(ctx, table[k].in, NULL), *c;
	char *got;

	snprintf(names_buf, sizeof names_buf, "%s", table[k].names);
	for (p = strtok_r(names_buf, ",", &save); p && n < 4;
			p = strtok_r(NULL, ",", &save))
		names[n++] = p;
	if (!tap_ok(e != NULL, "parse %s", table[k].in))
		return;
	c = segc_collect(e, n, names, found);
	got = segc_expr_to_string(c);
	tap_is(got, table[k].want, table[k].in);
	tap_ok(found[0] == table[k].found, "%s: %s %s", table[k].in,
		names[0], table[k].found ? "found" : "not found");
	same_at(e, c, 3, table[k].in);
	same_at(e, c, 12, table[k].in);
	free(got);
	segc_expr_free(c);
	segc_expr_free(e);
}

/* A product nested 'depth' deep, t inside: collected when the nest is
 * shallow enough to split part by part ('found'), else kept whole, and
 * without exhausting the stack either way. */
static void check_deep(size_t depth, unsigned want)
{
	segc_expr *e = segc_expr_sym("t"), *c;
	const char *name = "t";
	unsigned found;
	size_t i;

	for (i = 0; i < depth; i++)
		e = segc_expr_mul2(segc_expr_sym(i % 2 ? "a" : "b"),
			segc_expr_add2(e, segc_expr_int(1)));
	c = segc_collect(e, 1, &name, &found);
	tap_ok(c != NULL && found == want, "a nest %zu deep: %s", depth,
		want ? "collected" : "kept whole");
	segc_expr_free(c);
	segc_expr_free(e);
}

int main(void)
{
	size_t k;

	mpq_t one;

	ctx = segc_ctx_new();
	dom = segc_domains_new();
	mpq_init(one);
	mpq_set_ui(one, 1, 1);
	segc_domains_set(dom, "N", one, NULL, 1);
	mpq_clear(one);
	for (k = 0; k < sizeof table / sizeof *table; k++)
		check_case(k);
	check_deep(400, 1);
	check_deep(100000, 0);
	segc_domains_free(dom);
	segc_ctx_free(ctx);
	segc_library_cleanup();
	return tap_done();
}
