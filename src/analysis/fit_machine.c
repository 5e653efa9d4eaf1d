/* fit_machine.c - the fitted values written as a machine document that
 * 'segc -m' reads back exactly (segc fit -o), and exact decimal text of
 * rationals. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "analysis/fit.h"
#include "model/model.h"
#include "base/util.h"

/* The number of times 'p' divides 'd', which is divided by it. */
static unsigned long remove_factor(mpz_t d, unsigned long p)
{
	unsigned long k = 0;

	while (mpz_divisible_ui_p(d, p)) {
		mpz_divexact_ui(d, d, p);
		k++;
	}
	return k;
}

/* Appends the digits 's' of |q| * 10^k as a decimal with 'k' digits
 * after the point. */
static void append_point(segc_strbuf *sb, const char *s, unsigned long k)
{
	size_t len = strlen(s);

	if (len <= k) {
		segc_strbuf_append(sb, "0.");
		for (; len < k; len++)
			segc_strbuf_appendc(sb, '0');
		segc_strbuf_append(sb, s);
		return;
	}
	segc_strbuf_appendn(sb, s, len - k);
	if (k) {
		segc_strbuf_appendc(sb, '.');
		segc_strbuf_append(sb, s + len - k);
	}
}

/* 'q' as an exact decimal when its denominator is 2^a 5^b, else
 * "num/den". */
char *segc_q_exact_text(mpq_srcptr q)
{
	segc_strbuf sb;
	unsigned long k2, k5;
	mpz_t d, n;
	char *s;

	mpz_init_set(d, mpq_denref(q));
	mpz_init(n);
	k2 = remove_factor(d, 2);
	k5 = remove_factor(d, 5);
	segc_strbuf_init(&sb);
	if (mpz_cmp_ui(d, 1)) {
		s = mpq_get_str(NULL, 10, q);
	} else {
		mpz_ui_pow_ui(n, 10, k2 > k5 ? k2 : k5);
		mpz_divexact(n, n, mpq_denref(q));
		mpz_mul(n, n, mpq_numref(q));
		if (mpz_sgn(n) < 0)
			segc_strbuf_appendc(&sb, '-');
		mpz_abs(n, n);
		s = mpz_get_str(NULL, 10, n);
		append_point(&sb, s, k2 > k5 ? k2 : k5);
		free(s);
		s = NULL;
	}
	if (s) {
		segc_strbuf_append(&sb, s);
		free(s);
	}
	mpz_clear(d);
	mpz_clear(n);
	return sb.data;
}

/* Appends 'text' with the characters XML gives a meaning escaped. */
static void append_escaped(segc_strbuf *sb, const char *text)
{
	for (; *text; text++)
		switch (*text) {
		case '<': segc_strbuf_append(sb, "&lt;"); break;
		case '>': segc_strbuf_append(sb, "&gt;"); break;
		case '&': segc_strbuf_append(sb, "&amp;"); break;
		case '"': segc_strbuf_append(sb, "&quot;"); break;
		default:
			segc_strbuf_appendc(sb, *text);
		}
}

/* The index of 'name' among the fitted names, or (size_t)-1. */
static size_t fitted_index(const segc_fit *f, const char *name)
{
	size_t j;

	for (j = 0; j < segc_fit_nfree(f); j++)
		if (!strcmp(segc_fit_name(f, j), name))
			return j;
	return (size_t)-1;
}

/* Appends <ELEMENT name="NAME" value="..."/>: the fitted value when the
 * name is fitted, else 'value'.  Marks the fitted name written. */
static void append_binding(segc_strbuf *sb, const segc_fit *f,
	const char *element, const char *name, const segc_expr *value,
	char *written)
{
	size_t j = fitted_index(f, name);
	char *text = j != (size_t)-1 ? segc_q_exact_text(segc_fit_value(f, j))
		: segc_expr_to_string(value);

	if (j != (size_t)-1)
		written[j] = 1;
	segc_strbuf_appendf(sb, "  <%s name=\"%s\" value=\"", element, name);
	append_escaped(sb, text);
	segc_strbuf_append(sb, "\"/>\n");
	free(text);
}

/* Appends the functions of machine 'm'. */
static void append_functions(segc_strbuf *sb, const segc_machine *m)
{
	size_t i, a;

	for (i = 0; m && i < m->nfunctions; i++) {
		const segc_function *fn = &m->functions[i];
		char *body = segc_expr_to_string(fn->body);

		segc_strbuf_appendf(sb, "  <function name=\"%s\" args=\"",
			fn->name);
		for (a = 0; a < fn->nargs; a++)
			segc_strbuf_appendf(sb, "%s%s", a ? "," : "", fn->args[a]);
		segc_strbuf_append(sb, "\">");
		append_escaped(sb, body);
		segc_strbuf_append(sb, "</function>\n");
		free(body);
	}
}

/* The machine document of the fit (see fit.h). */
char *segc_fit_machine_xml(const segc_fit *f, const segc_setting *s,
	const char *name, const char *description)
{
	const segc_machine *m = segc_setting_machine(s);
	char *written = segc_xcalloc(segc_fit_nfree(f) + 1, 1);
	segc_strbuf sb;
	size_t i;

	segc_strbuf_init(&sb);
	segc_strbuf_append(&sb, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<machine name=\"");
	append_escaped(&sb, name);
	segc_strbuf_append(&sb, "\" version=\"1\">\n  <description>");
	append_escaped(&sb, description);
	segc_strbuf_append(&sb, "</description>\n");
	for (i = 0; m && i < m->nconsts; i++)
		append_binding(&sb, f, "const", m->consts[i].name,
			m->consts[i].value, written);
	for (i = 0; m && i < m->ncosts; i++)
		append_binding(&sb, f, "cost", m->costs[i].name,
			m->costs[i].value, written);
	for (i = 0; i < segc_fit_nfree(f); i++)
		if (!written[i])
			append_binding(&sb, f, segc_model_resource(s->model,
				segc_fit_name(f, i)) ? "cost" : "const",
				segc_fit_name(f, i), NULL, written);
	append_functions(&sb, m);
	segc_strbuf_append(&sb, "</machine>\n");
	free(written);
	return sb.data;
}
