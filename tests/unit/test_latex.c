/* test_latex.c - the LaTeX printer, string in, string out, and the checks
 * of 'latex' attributes and the escaping of free text. */
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "output/output.h"

/* An expression and its LaTeX. */
static const struct { const char *in, *want; } cases[] = {
	{ "t_assign + N_element*(t_loop + t_if + P_max*t_assign)",
	  "t_{\\mathrm{assign}} + N_{\\mathrm{element}}\\,\\left(t_{\\mathrm{loop}}"
	  " + t_{\\mathrm{if}} + P_{\\mathrm{max}}\\,t_{\\mathrm{assign}}\\right)" },
	{ "2*N^3/P*t_stmt", "\\frac{2 N^{3}\\,t_{\\mathrm{stmt}}}{P}" },
	{ "N/P", "\\frac{N}{P}" },
	{ "1/P", "\\frac{1}{P}" },
	{ "N/P^2", "\\frac{N}{P^{2}}" },
	{ "a - b", "a - b" },
	{ "-a + 2", "-a + 2" },
	{ "a - 2*b", "a - 2 b" },
	{ "x/2", "\\frac{x}{2}" },
	{ "3*x/4", "\\frac{3 x}{4}" },
	{ "0.46*x", "0.46 x" },
	{ "12.5e-9*x", "1.25 \\cdot 10^{-8} x" },
	{ "2*3", "6" },
	{ "tau_mem", "\\tau_{\\mathrm{mem}}" },
	{ "mu_ld_c", "\\mu_{\\mathrm{ld},c}" },
	{ "a_b_c", "a_{b,c}" },
	{ "alpha*beta", "\\alpha \\beta" },
	{ "x__y", "\\mathit{x\\_\\_y}" },
	{ "rate", "\\mathit{rate}" },
	{ "w11", "w_{11}" },
	{ "alpha2", "\\alpha_{2}" },
	{ "rate919", "\\mathit{rate}_{919}" },
	{ "ceil(B*(i - 1)/X)",
	  "\\left\\lceil \\frac{B\\,\\left(i - 1\\right)}{X} \\right\\rceil" },
	{ "floor(N/2)", "\\left\\lfloor \\frac{N}{2} \\right\\rfloor" },
	{ "max(a, b + c)", "\\max\\left\\{a, b + c\\right\\}" },
	{ "min(a, b)", "\\min\\left\\{a, b\\right\\}" },
	{ "log2(P)", "\\log_2 P" },
	{ "N*log2(P)", "N\\,\\log_2\\left(P\\right)" },
	{ "sqrt(N + 1)", "\\sqrt{N + 1}" },
	{ "sum(i, 1, N, i^2)", "\\sum_{i=1}^{N} i^{2}" },
	{ "tree_bcast(8*N)", "\\mathrm{tree\\_bcast}\\left(8 N\\right)" },
	{ "(a + b)^2", "\\left(a + b\\right)^{2}" },
	{ "(P - 1)*x", "\\left(P - 1\\right)\\,x" },
	{ "N*N", "N^{2}" },
	{ "(a + b)/(c + d)", "\\frac{a + b}{c + d}" },
	{ "2*(a + b)", "2 \\left(a + b\\right)" },
	{ "(-2)^3", "-8" },
	{ "x^-1", "\\frac{1}{x}" },
	{ "if(N >= 2, a, b)", "\\begin{cases} a & \\text{if } N \\ge 2,\\\\ b & "
	  "\\text{otherwise} \\end{cases}" },
	{ "if(N < 2, a, if(N <= 4, b, c))", "\\begin{cases} a & \\text{if } N < 2,"
	  "\\\\ b & \\text{if } N \\le 4,\\\\ c & \\text{otherwise} \\end{cases}" },
	{ "if(N < 2, if(P > 1, a, b), c)", "\\begin{cases} \\begin{cases} a & "
	  "\\text{if } P > 1,\\\\ b & \\text{otherwise} \\end{cases} & \\text{if } "
	  "N < 2,\\\\ c & \\text{otherwise} \\end{cases}" },
	{ "if(N == 1 and P != 1 or N > P, a, b)", "\\begin{cases} a & \\text{if } "
	  "\\left(N = 1 \\wedge P \\ne 1\\right) \\vee N > P,\\\\ b & "
	  "\\text{otherwise} \\end{cases}" },
	{ "if(N == 1 and (P < 1 or N >= P), a, b)", "\\begin{cases} a & \\text{if } "
	  "N = 1 \\wedge \\left(P < 1 \\vee N \\ge P\\right),\\\\ b & "
	  "\\text{otherwise} \\end{cases}" },
	{ "if(not N == 1, a, b)", "\\begin{cases} a & \\text{if } \\neg "
	  "\\left(N = 1\\right),\\\\ b & \\text{otherwise} \\end{cases}" },
	{ "2*if(N > 1, a, b)", "2 \\left(\\begin{cases} a & \\text{if } N > 1,"
	  "\\\\ b & \\text{otherwise} \\end{cases}\\right)" },
	{ "if(N/P > 1, N/P, 1) + x", "\\begin{cases} \\frac{N}{P} & \\text{if } "
	  "\\frac{N}{P} > 1,\\\\ 1 & \\text{otherwise} \\end{cases} + x" },
	{ "sum(_s1, 1, N, _s1^2)", "\\sum_{i=1}^{N} i^{2}" },
	{ "sum(_s2, 1, N, sum(_s1, 1, _s2, _s1*i))",
	  "\\sum_{j=1}^{N} \\left(\\sum_{k=1}^{j} k i\\right)" },
	/* Limits and exponents take a solidus, not \frac. */
	{ "sum(i, 1, ceil(N/B), i)",
	  "\\sum_{i=1}^{\\left\\lceil N/B \\right\\rceil} i" },
	{ "sum(i, 1, N/(B*P), i)", "\\sum_{i=1}^{N/\\left(B P\\right)} i" },
	{ "sum(i, 1, (N + 1)/2, i)",
	  "\\sum_{i=1}^{\\left(N + 1\\right)/2} i" },
	{ "x^(1/2)", "x^{1/2}" },
	/* Two levels of \frac at most. */
	{ "a/(b + c/(d + e/f))",
	  "\\frac{a}{b + \\frac{c}{d + e/f}}" },
};

/* Long formulas broken at 'width' points: the lines each must have.
 * The widths by hand, from the table of doc/latex.md: every estimate is
 * taken 2% wider, so a line of W points holds W / 1.02; a_{k} is
 * 5.6 + 0.8 * 5 + 0.5 = 10.1, "+ a_{k}" 12.2 + 10.1 = 22.3. */
static const struct {
	const char *in;
	double width;
	const char *const lines[6];
} broken[] = {
	/* 100 / 1.02 = 98.04: greedily, a1 and three more terms make
	 * 10.1 + 3 * 22.3 = 77, a fourth 99.3; the next lines start a quad
	 * (10) in: 10 + 3 * 22.3 = 76.9, so 4, 3 and 2 terms.  Evened out,
	 * the three lines hold 3 terms each, the widest 76.9. */
	{ "a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8 + a9", 100,
	  { "a_{1} + a_{2} + a_{3}", "&\\quad + a_{4} + a_{5} + a_{6}",
	  "&\\quad + a_{7} + a_{8} + a_{9}", NULL } },
	/* Inside the parentheses of a product, which get a fixed size
	 * (\bigl, 4.7: contents one line high); 120 / 1.02 = 117.6: x 6.1,
	 * \, 1.7, \bigl( 4.7 and a1 make 22.6, four more terms 111.8; the
	 * second line starts inside the group, two quads in: 20 + 4 * 22.3
	 * + 4.7 = 113.9. */
	{ "x*(a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8 + a9)", 120,
	  { "x\\,\\bigl(a_{1} + a_{2} + a_{3} + a_{4} + a_{5}",
	  "&\\qquad + a_{6} + a_{7} + a_{8} + a_{9}\\bigr)", NULL } },
	/* A maximum breaks after a comma rather than inside an argument:
	 * 150 / 1.02 = 147.1; \max 20.3, \bigl\{ 6.2, an argument 10.1 +
	 * 2 * 22.3 = 54.7, ", " 4.5: greedily two arguments and their commas
	 * make 144.9 (a7 would reach 155), the third one 20 + 54.7 + 6.2 on
	 * line 2; evened out, line 1 is 85.7 and line 2 20 + 54.7 + 4.5 +
	 * 54.7 + 6.2 = 140.1, narrower than 144.9. */
	{ "max(a1 + a2 + a3, a4 + a5 + a6, a7 + a8 + a9)", 150,
	  { "\\max\\bigl\\{a_{1} + a_{2} + a_{3}, ",
	  "&\\qquad a_{4} + a_{5} + a_{6}, a_{7} + a_{8} + a_{9}\\bigr\\}",
	  NULL } },
	/* The same at 140 (137.3): neither 144.9 nor 140.1 fits. */
	{ "max(a1 + a2 + a3, a4 + a5 + a6, a7 + a8 + a9)", 140,
	  { "\\max\\bigl\\{a_{1} + a_{2} + a_{3}, ",
	  "&\\qquad a_{4} + a_{5} + a_{6}, ",
	  "&\\qquad a_{7} + a_{8} + a_{9}\\bigr\\}", NULL } },
};

/* Attributes and whether they are safe. */
static const struct { const char *attr; int safe; } attrs[] = {
	{ "N_{element}", 1 }, { "t(\\mathbf{v}_{assign})", 1 },
	{ "\\tau_{\\mathrm{mem}}", 1 }, { "\\mathit{update\\_row}", 1 },
	{ "x'", 1 }, { "\\hat{x}^{2}", 1 }, { "\\input{/etc/passwd}", 0 },
	{ "\\write18{ls}", 0 }, { "^^5cinput", 0 }, { "x^", 0 }, { "{x", 0 },
	{ "x}", 0 }, { "}{", 0 }, { "a%b", 0 }, { "$x$", 0 }, { "a&b", 0 },
	{ "#1", 0 }, { "\\def\\x{}", 0 }, { "\\csname", 0 }, { "~", 0 },
	{ "\\catcode", 0 }, { "\\", 0 }, { "x\t", 0 }, { "\xc3\xa9", 0 },
};

/* Escaped free text. */
static const struct { const char *in, *want; } texts[] = {
	{ "a & b", "a \\& b" },
	{ "100% {x} $y$ #1 ^ ~ _ \\input",
	  "100\\% \\{x\\} \\$y\\$ \\#1 \\textasciicircum{} \\textasciitilde{} "
	  "\\_ \\textbackslash{}input" },
	{ "1--2", "1-{}-{}2" },
	{ "\xc2\xb5s \xe2\x80\x93 \xe6\xbc\xa2", "\\textmu{}s -- [U+6F22]" },
	{ "bad \xff byte", "bad ? byte" },
};

/* The LaTeX of the expression text 'in', or NULL. */
static char *latex_of(segc_ctx *ctx, const char *in)
{
	segc_expr *e = segc_expr_parse(ctx, in, NULL);
	char *s;

	if (!e)
		return NULL;
	s = segc_latex_expr(e, NULL);
	segc_expr_free(e);
	return s;
}

/* The number of times 'w' occurs in the 'n' bytes at 's'. */
static int count(const char *s, size_t n, const char *w)
{
	size_t k = strlen(w), i;
	int c = 0;

	for (i = 0; i + k <= n; i++)
		if (!strncmp(s + i, w, k))
			c++;
	return c;
}

/* Checks the broken formula 'k' of the table, line by line. */
static void check_broken(segc_ctx *ctx, size_t k)
{
	segc_expr *e = segc_expr_parse(ctx, broken[k].in, NULL);
	size_t nlines = 0, i = 0, want = 0;
	char *got = e ? segc_latex_expr_lines(e, NULL, broken[k].width,
		&nlines) : NULL;
	const char *p = got;

	while (broken[k].lines[want])
		want++;
	tap_ok(nlines == want, "%s: %lu lines", broken[k].in,
		(unsigned long)want);
	while (p && i < want) {
		const char *end = strstr(p, "\\\\\n");
		size_t n = end ? (size_t)(end - p) : strlen(p);

		if (!tap_ok(strlen(broken[k].lines[i]) == n &&
		    !strncmp(p, broken[k].lines[i], n), "%s: line %lu",
		    broken[k].in, (unsigned long)i + 1))
			tap_diag("got: %.*s", (int)n, p);
		tap_ok(count(p, n, "\\left") == count(p, n, "\\right"),
			"%s: line %lu balanced",
			broken[k].in, (unsigned long)i + 1);
		p = end ? end + 3 : NULL;
		i++;
	}
	if (!tap_ok(got && !p && i == want, "%s: no more lines", broken[k].in))
		tap_diag("got: %s", got ? got : "(null)");
	free(got);
	segc_expr_free(e);
}

/* A long sum of products in parentheses, broken at 'width': every line
 * has as many \left as \right, and no line is longer than the width as
 * counted here by hand: each term "+ x_{k} y" is at least 12.2 + 6.1 +
 * 0.8 * 5 + 0.5 + 5.3 = 28.1 points and the line holds as many of them
 * as it has plus signs. */
static void check_long_sum(segc_ctx *ctx, double width)
{
	segc_strbuf in;
	segc_expr *e;
	size_t nlines = 0, i, lines = 0, bad = 0;
	char *got, *p;

	segc_strbuf_init(&in);
	segc_strbuf_append(&in, "z*(");
	for (i = 1; i <= 60; i++)
		segc_strbuf_appendf(&in, "%sx%lu*y", i > 1 ? " + " : "",
			(unsigned long)i);
	segc_strbuf_append(&in, ") + max(a, b)");
	e = segc_expr_parse(ctx, segc_strbuf_str(&in), NULL);
	got = e ? segc_latex_expr_lines(e, NULL, width, &nlines) : NULL;
	for (p = got; p; lines++) {
		char *end = strstr(p, "\\\\\n");
		size_t n = end ? (size_t)(end - p) : strlen(p);
		int plus = count(p, n, "+ ");

		if (count(p, n, "\\left") != count(p, n, "\\right") ||
		    plus * 28.1 > width)
			bad++;
		p = end ? end + 3 : NULL;
	}
	tap_ok(got && lines == nlines && nlines >= 60 * 28.1 / width &&
		!bad, "60 terms at %gpt: %lu lines, each balanced and narrow "
		"enough", width, (unsigned long)nlines);
	free(got);
	segc_expr_free(e);
	segc_strbuf_free(&in);
}

/* A cases whose value is too wide for a line of 'width': the value is
 * broken into an aligned environment inside the cases, on one line of
 * source; the formula itself stays one line. */
static void check_wide_cases(segc_ctx *ctx, double width)
{
	segc_strbuf in;
	segc_expr *e;
	size_t nlines = 0, i;
	char *got, *al;

	segc_strbuf_init(&in);
	segc_strbuf_append(&in, "if(N > 1, ");
	for (i = 1; i <= 30; i++)
		segc_strbuf_appendf(&in, "%sa%lu", i > 1 ? " + " : "",
			(unsigned long)i);
	segc_strbuf_append(&in, ", b)");
	e = segc_expr_parse(ctx, segc_strbuf_str(&in), NULL);
	got = e ? segc_latex_expr_lines(e, NULL, width, &nlines) : NULL;
	al = got ? strstr(got, "\\begin{cases} \\begin{aligned}[t]&a_{1} + ") :
		NULL;
	if (!tap_ok(al && nlines == 1 && !strchr(got, '\n') &&
	    count(got, strlen(got), "\\\\ &\\quad + ") >= 2 &&
	    strstr(got, "a_{30}\\end{aligned} & \\text{if } N > 1,\\\\ b & "
	    "\\text{otherwise} \\end{cases}"), "a wide cases value at %gpt "
	    "is an aligned environment", width))
		tap_diag("got: %s", got ? got : "(null)");
	free(got);
	segc_expr_free(e);
	segc_strbuf_free(&in);
}

/* Runs the tables. */
int main(void)
{
	segc_ctx *ctx = segc_ctx_new();
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *got = latex_of(ctx, cases[i].in);

		tap_is(got, cases[i].want, cases[i].in);
		free(got);
	}
	for (i = 0; i < sizeof broken / sizeof broken[0]; i++)
		check_broken(ctx, i);
	check_long_sum(ctx, 200);
	check_long_sum(ctx, 345);
	check_wide_cases(ctx, 250);
	for (i = 0; i < sizeof attrs / sizeof attrs[0]; i++) {
		int r = segc_latex_attr_check(ctx, attrs[i].attr, "parameter 'x'",
			NULL);

		tap_ok((r == 0) == attrs[i].safe, "latex attribute %s is %s",
			attrs[i].attr, attrs[i].safe ? "safe" : "refused");
	}
	for (i = 0; i < sizeof texts / sizeof texts[0]; i++) {
		char *got = segc_latex_escape_text(texts[i].in);

		tap_is(got, texts[i].want, "escape text");
		free(got);
	}
	segc_ctx_free(ctx);
	segc_library_cleanup();
	return tap_done();
}
