/* latex_atoms.c - the atoms of a formula in LaTeX: names (the declared
 * 'latex' spelling, else the symbol with its subscripts from underscores
 * and trailing digits, Greek letters by name) and numbers (integers,
 * decimals where they read best, fractions). */
#include <stdlib.h>
#include <string.h>
#include "output/latex_private.h"

static const char *const greek[] = {
	"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta",
	"iota", "kappa", "lambda", "mu", "nu", "xi", "pi", "rho", "sigma",
	"tau", "upsilon", "phi", "chi", "psi", "omega", "Gamma", "Delta",
	"Theta", "Lambda", "Xi", "Pi", "Sigma", "Upsilon", "Phi", "Psi",
	"Omega", "varepsilon", "vartheta", "varpi", "varrho", "varsigma",
	"varphi", NULL
};

/* Non-zero when the 'n' bytes at 's' name a Greek letter. */
static int is_greek(const char *s, size_t n)
{
	size_t i;

	for (i = 0; greek[i]; i++)
		if (strlen(greek[i]) == n && !strncmp(greek[i], s, n))
			return 1;
	return 0;
}

/* Non-zero when every one of the 'n' bytes at 's' is a digit. */
static int all_digits(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	return n > 0;
}

/* Appends the 'n' bytes at 's' with underscores escaped. */
void segc_latex_put_escaped_name(segc_strbuf *b, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (s[i] == '_')
			segc_strbuf_append(b, "\\_");
		else
			segc_strbuf_appendc(b, s[i]);
	}
}

/* Appends one part of a name ('n' bytes at 's'): a Greek letter as its
 * command, a single character or a number as itself, a word in 'font'. */
static void put_name_part(segc_strbuf *b, const char *s, size_t n,
	const char *font)
{
	if (is_greek(s, n)) {
		segc_strbuf_appendc(b, '\\');
		segc_strbuf_appendn(b, s, n);
	} else if (n == 1 || all_digits(s, n)) {
		segc_strbuf_appendn(b, s, n);
	} else {
		segc_strbuf_appendf(b, "\\%s{", font);
		segc_strbuf_appendn(b, s, n);
		segc_strbuf_appendc(b, '}');
	}
}

/* The declared LaTeX spelling of 'name' in 'names', or NULL. */
static const char *declared_latex(const segc_latex_names *names,
	const char *name);

/* See latex_private.h. */
const char *segc_latex_declared(const segc_latex_names *names,
	const char *name)
{
	return declared_latex(names, name);
}

/* The declared LaTeX spelling of 'name' in 'names', or NULL. */
static const char *declared_latex(const segc_latex_names *names,
	const char *name)
{
	size_t i;

	if (!names)
		return NULL;
	for (i = 0; i < names->n; i++)
		if (names->latex[i] && !strcmp(names->names[i], name))
			return names->latex[i];
	return NULL;
}

/* Non-zero when 'name' splits cleanly at its underscores (no empty part). */
static int splits_cleanly(const char *name)
{
	size_t n = strlen(name);

	return n > 0 && name[0] != '_' && name[n - 1] != '_' &&
		!strstr(name, "__");
}

/* The number of digits that end 'name' when letters come before them
 * (w11: 2), else 0. */
static size_t trailing_digits(const char *name)
{
	size_t n = strlen(name), k = n;

	while (k > 0 && name[k - 1] >= '0' && name[k - 1] <= '9')
		k--;
	return k > 0 && k < n ? n - k : 0;
}

/* Appends the name 'name': its declared spelling if any; else the part
 * before the first underscore as the symbol (italic), the other parts as
 * a subscript list: tau_mem -> \tau_{\mathrm{mem}}, a_b_c -> a_{b,c};
 * a name without underscore that ends in digits has them as its
 * subscript: w11 -> w_{11}. */
void segc_latex_put_symbol(segc_strbuf *b, const char *name,
	const segc_latex_names *names)
{
	const char *decl = declared_latex(names, name);
	const char *us, *p;

	if (decl) {
		segc_strbuf_appendf(b, "{%s}", decl);
		return;
	}
	if (!splits_cleanly(name)) {
		segc_strbuf_append(b, "\\mathit{");
		segc_latex_put_escaped_name(b, name, strlen(name));
		segc_strbuf_appendc(b, '}');
		return;
	}
	us = strchr(name, '_');
	if (!us && trailing_digits(name)) {
		/* w11 -> w_{11}, alpha2 -> \alpha_{2} */
		size_t n = strlen(name), k = n - trailing_digits(name);

		put_name_part(b, name, k, "mathit");
		segc_strbuf_append(b, "_{");
		segc_strbuf_appendn(b, name + k, n - k);
		segc_strbuf_appendc(b, '}');
		return;
	}
	put_name_part(b, name, us ? (size_t)(us - name) : strlen(name),
		"mathit");
	if (!us)
		return;
	segc_strbuf_append(b, "_{");
	for (p = us + 1;;) {
		const char *q = strchr(p, '_');
		size_t n = q ? (size_t)(q - p) : strlen(p);

		put_name_part(b, p, n, "mathrm");
		if (!q)
			break;
		segc_strbuf_appendc(b, ',');
		p = q + 1;
	}
	segc_strbuf_appendc(b, '}');
}

/* Non-zero when 'name' is typeset as a single letter without subscript. */
int segc_latex_is_letter_symbol(const char *name,
	const segc_latex_names *names)
{
	if (declared_latex(names, name))
		return 0;
	return strlen(name) == 1 || is_greek(name, strlen(name));
}

/* ------------------------------------------------------------ numbers */

/* The number of fraction digits of the decimal expansion of 'q' when it
 * terminates (denominator 2^a 5^b), else -1. */
static long decimal_digits(mpq_srcptr q)
{
	mpz_t d, p;
	unsigned long a, c;
	long k = -1;

	mpz_init_set(d, mpq_denref(q));
	mpz_init_set_ui(p, 2);
	a = mpz_remove(d, d, p);
	mpz_set_ui(p, 5);
	c = mpz_remove(d, d, p);
	if (mpz_cmp_ui(d, 1) == 0)
		k = (long)(a > c ? a : c);
	mpz_clear(d);
	mpz_clear(p);
	return k;
}

/* Appends the decimal digits 's' (of the integer q*10^k) as a number with
 * 'k' fraction digits: plainly when k <= 6, else in scientific notation if
 * that is short; 1 when written, 0 when not. */
static int put_scaled(segc_strbuf *b, const char *s, size_t k)
{
	size_t len = strlen(s), z;

	if (k <= 6) {
		if (len <= k) {
			segc_strbuf_append(b, "0.");
			for (z = len; z < k; z++)
				segc_strbuf_appendc(b, '0');
			segc_strbuf_append(b, s);
		} else {
			segc_strbuf_appendn(b, s, len - k);
			segc_strbuf_appendc(b, '.');
			segc_strbuf_append(b, s + len - k);
		}
		return 1;
	}
	for (z = 0; z < len && s[len - 1 - z] == '0'; z++)
		;
	if (len - z > 6)
		return 0;
	segc_strbuf_appendc(b, s[0]);
	if (len - z > 1) {
		segc_strbuf_appendc(b, '.');
		segc_strbuf_appendn(b, s + 1, len - z - 1);
	}
	segc_strbuf_appendf(b, " \\cdot 10^{%ld}", (long)(len - 1) - (long)k);
	return 1;
}

/* If the non-negative rational 'q' (not an integer) reads best as a
 * decimal (its denominator a multiple of 10 dividing a power of ten),
 * appends it as one ("0.46", "1.25 \cdot 10^{-8}") and returns 1; else 0. */
int segc_latex_put_decimal(segc_strbuf *b, mpq_srcptr q)
{
	long k;
	mpz_t m;
	char *s;
	int done;

	if (!mpz_divisible_ui_p(mpq_denref(q), 10))
		return 0;
	k = decimal_digits(q);
	if (k < 0)
		return 0;
	mpz_init(m);
	mpz_ui_pow_ui(m, 10, (unsigned long)k);
	mpz_mul(m, m, mpq_numref(q));
	mpz_divexact(m, m, mpq_denref(q));
	s = mpz_get_str(NULL, 10, m);
	mpz_clear(m);
	done = put_scaled(b, s, (size_t)k);
	free(s);
	return done;
}

/* Appends the absolute value of 'q': an integer, a decimal, or \frac. */
void segc_latex_put_abs_number(segc_strbuf *b, mpq_srcptr q)
{
	mpq_t a;

	mpq_init(a);
	mpq_abs(a, q);
	if (mpz_cmp_ui(mpq_denref(a), 1) == 0) {
		segc_strbuf_append_mpz(b, mpq_numref(a));
	} else if (!segc_latex_put_decimal(b, a)) {
		segc_strbuf_append(b, "\\frac{");
		segc_strbuf_append_mpz(b, mpq_numref(a));
		segc_strbuf_append(b, "}{");
		segc_strbuf_append_mpz(b, mpq_denref(a));
		segc_strbuf_appendc(b, '}');
	}
	mpq_clear(a);
}
