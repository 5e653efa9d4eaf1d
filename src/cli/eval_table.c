/* eval_table.c - the table 'segc eval' prints: cells kept row after row,
 * numbers formatted exactly (parameters as exact rationals, or correctly
 * rounded decimals under --csv) or from MPFR to --digits, printed as
 * aligned columns or CSV. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_eval.h"
#include "cli/cli_util.h"

/* Appends one cell (a copy of 'text'). */
void eval_table_put(eval_table *t, const char *text)
{
	if (t->ncells == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 64;
		t->cells = cli_xrealloc(t->cells, t->cap * sizeof *t->cells);
	}
	t->cells[t->ncells] = cli_xmalloc(strlen(text) + 1);
	strcpy(t->cells[t->ncells++], text);
}

/* Appends the value 'x' formatted to 'digits' significant digits. */
void eval_table_put_mpfr(eval_table *t, mpfr_srcptr x, long digits)
{
	char buf[1100];

	mpfr_snprintf(buf, sizeof buf, "%.*Rg", (int)digits, x);
	eval_table_put(t, buf);
}

/* Appends the exact rational 'q'. */
void eval_table_put_mpq(eval_table *t, const mpq_t q)
{
	char *s = mpq_get_str(NULL, 10, q);

	eval_table_put(t, s);
	free(s);
}

/* The number of decimals 'a' (> 0) is printed with: those of
 * 'digits' significant digits, fewer when its decimal ends sooner. */
static unsigned long decimals_of(const mpq_t a, long digits)
{
	unsigned long v2, v5, end;
	long e = 0;
	mpz_t d, f;
	mpq_t x;

	mpq_init(x);
	mpq_set(x, a);
	for (; mpq_cmp_ui(x, 10, 1) >= 0; e++) {
		mpz_mul_ui(mpq_denref(x), mpq_denref(x), 10);
		mpq_canonicalize(x);
	}
	for (; mpq_cmp_ui(x, 1, 1) < 0; e--) {
		mpz_mul_ui(mpq_numref(x), mpq_numref(x), 10);
		mpq_canonicalize(x);
	}
	mpq_clear(x);
	mpz_init_set(d, mpq_denref(a));
	mpz_init_set_ui(f, 2);
	v2 = mpz_remove(d, d, f);
	mpz_set_ui(f, 5);
	v5 = mpz_remove(d, d, f);
	end = v2 > v5 ? v2 : v5;
	e = digits - 1 - e < 0 ? 0 : digits - 1 - e;
	if (!mpz_cmp_ui(d, 1) && (unsigned long)e > end)
		e = (long)end;
	mpz_clear(d);
	mpz_clear(f);
	return (unsigned long)e;
}

/* The decimal digits of round('a' * 10^'s'), ties to even. */
static char *scaled_digits(const mpq_t a, unsigned long s)
{
	mpz_t n, r;
	char *str;
	int cmp;

	mpz_init(n);
	mpz_init(r);
	mpz_ui_pow_ui(n, 10, s);
	mpz_mul(n, n, mpq_numref(a));
	mpz_fdiv_qr(n, r, n, mpq_denref(a));
	mpz_mul_2exp(r, r, 1);
	cmp = mpz_cmp(r, mpq_denref(a));
	if (cmp > 0 || (cmp == 0 && mpz_odd_p(n)))
		mpz_add_ui(n, n, 1);
	str = mpz_get_str(NULL, 10, n);
	mpz_clear(n);
	mpz_clear(r);
	return str;
}

/* Appends 'q' as a decimal in fixed notation, correctly rounded (ties to
 * even) to 'digits' significant digits, exact when it ends sooner: the
 * parameter columns of --csv. */
void eval_table_put_decimal(eval_table *t, const mpq_t q, long digits)
{
	unsigned long s;
	size_t len, pad, i = 0, k;
	char *str, *out;
	mpq_t a;

	mpq_init(a);
	mpq_abs(a, q);
	s = mpq_sgn(q) ? decimals_of(a, digits) : 0;
	str = scaled_digits(a, s);
	len = strlen(str);
	while (s && len > 1 && str[len - 1] == '0') {
		str[--len] = '\0';
		s--;
	}
	out = cli_xmalloc(len + s + 4);

	pad = len <= s ? s + 1 - len : 0;
	if (mpq_sgn(q) < 0)
		out[i++] = '-';
	for (k = 0; k < pad + len; k++) {
		if (s && k == pad + len - s)
			out[i++] = '.';
		out[i++] = k < pad ? '0' : str[k - pad];
	}
	out[i] = '\0';
	eval_table_put(t, out);
	free(str);
	free(out);
	mpq_clear(a);
}

/* Puts the table on standard output: aligned columns, or CSV. */
void eval_table_print(const eval_table *t, int csv)
{
	size_t *w = cli_xcalloc(t->ncols, sizeof *w), i, j;

	for (i = 0; i < t->ncells; i++)
		if (strlen(t->cells[i]) > w[i % t->ncols])
			w[i % t->ncols] = strlen(t->cells[i]);
	for (i = 0; i < t->ncells; i += t->ncols) {
		for (j = 0; j < t->ncols; j++) {
			if (csv)
				cli_printf("%s%s", j ? "," : "", t->cells[i + j]);
			else
				cli_printf("%s%*s", j ? "  " : "", (int)w[j],
					t->cells[i + j]);
		}
		cli_puts("\n");
	}
	free(w);
}

/* Releases 't'. */
void eval_table_clear(eval_table *t)
{
	size_t i;

	for (i = 0; i < t->ncells; i++)
		free(t->cells[i]);
	free(t->cells);
	free(t->x);
	for (i = 0; i < 4; i++)
		free(t->y[i]);
	free(t->s[0]);
	free(t->s[1]);
	for (i = 0; i < 4; i++) {
		free(t->meas[i]);
		free(t->rel[i]);
	}
}

/* Appends a parameter's value: exact, or a decimal under --csv. */
void eval_table_put_value(eval_table *t, const eval_opts *o, const mpq_t q)
{
	if (o->csv)
		eval_table_put_decimal(t, q, o->digits);
	else
		eval_table_put_mpq(t, q);
}

/* Allocates the plotted values for 'n' points. */
void eval_table_plot_alloc(eval_table *t, size_t n)
{
	int k;

	t->x = cli_xmalloc((n + 1) * sizeof *t->x);
	for (k = 0; k < 4; k++)
		t->y[k] = cli_xmalloc((n + 1) * sizeof *t->y[k]);
	for (k = 0; k < 2; k++)
		t->s[k] = cli_xmalloc((n + 1) * sizeof *t->s[k]);
}

