/* latex_measure.c - how wide a piece of LaTeX math prints, estimated in
 * points from its tokens for the 10pt Computer Modern fonts of the
 * standalone document, on the generous side so that a line estimated to
 * fit does fit (the table is in doc/latex.md).  latex_break.c uses it to
 * break lines. */
#include <string.h>
#include "output/latex_private.h"

/* The widths of commands, in points at 10pt. */
static const struct { const char *name; double w; } commands[] = {
	{ "alpha", 6.6 }, { "beta", 6.0 }, { "gamma", 5.6 }, { "delta", 4.8 },
	{ "epsilon", 4.4 }, { "zeta", 4.7 }, { "eta", 5.3 }, { "theta", 5.0 },
	{ "iota", 3.6 }, { "kappa", 5.9 }, { "lambda", 6.0 }, { "mu", 6.2 },
	{ "nu", 5.4 }, { "xi", 5.0 }, { "pi", 6.1 }, { "rho", 5.4 },
	{ "sigma", 6.0 }, { "tau", 4.7 }, { "upsilon", 5.5 }, { "phi", 6.3 },
	{ "chi", 6.4 }, { "psi", 6.9 }, { "omega", 6.6 }, { "varepsilon", 4.9 },
	{ "vartheta", 5.9 }, { "varpi", 8.7 }, { "varrho", 5.4 },
	{ "varsigma", 4.9 }, { "varphi", 6.6 }, { "Gamma", 6.3 },
	{ "Delta", 8.6 }, { "Theta", 8.0 }, { "Lambda", 7.3 }, { "Xi", 7.3 },
	{ "Pi", 7.6 }, { "Sigma", 7.3 }, { "Upsilon", 7.8 }, { "Phi", 7.3 },
	{ "Psi", 7.8 }, { "Omega", 7.6 },
	{ "cdot", 7.8 }, { "times", 12.2 }, { "ast", 9.4 }, { "star", 9.4 },
	{ "le", 13.4 }, { "ge", 13.4 }, { "ne", 13.4 }, { "leq", 13.4 },
	{ "geq", 13.4 }, { "wedge", 11.1 }, { "vee", 11.1 }, { "neg", 6.7 },
	{ "log", 14.5 }, { "ln", 10.0 }, { "exp", 17.0 }, { "max", 20.3 },
	{ "min", 19.2 }, { "ldots", 13.4 }, { "cdots", 13.4 },
	{ "infty", 10.0 }, { "partial", 5.7 }, { "nabla", 8.3 },
	{ "ell", 4.2 }, { "prime", 2.8 }, { "quad", 10.0 }, { "qquad", 20.0 },
	{ "sum", 14.4 }, { "lceil", 4.5 }, { "rceil", 4.5 },
	{ "lfloor", 4.5 }, { "rfloor", 4.5 }, { "sqrt", 8.4 },
	{ NULL, 0 }
};

/* Commands whose argument is set in an upright or text font. */
static const char *const fonts[] = {
	"mathrm", "mathit", "mathbf", "mathsf", "mathtt", "mathcal",
	"operatorname", "text", NULL
};

/* Commands that take their argument and add nothing to its width. */
static const char *const accents[] = {
	"hat", "bar", "tilde", "vec", "dot", "ddot", "check", "breve",
	"acute", "grave", "widehat", "widetilde", "overline", "underline",
	"left", "right", "end", NULL
};

/* The sizing commands of delimiters: what each adds to the delimiter it
 * sizes, in points (a parenthesis of 3.9 is 4.7, 5.9, 7.4 and 8.6 wide
 * at the four sizes, the widths latex_break.c gives a group it sizes). */
static const struct { const char *name; double w; } sizes[] = {
	{ "big", 0.8 }, { "bigl", 0.8 }, { "bigr", 0.8 },
	{ "Big", 2.0 }, { "Bigl", 2.0 }, { "Bigr", 2.0 },
	{ "bigg", 3.5 }, { "biggl", 3.5 }, { "biggr", 3.5 },
	{ "Bigg", 4.7 }, { "Biggl", 4.7 }, { "Biggr", 4.7 },
	{ NULL, 0 }
};

/* Where the measurer stands in the text. */
typedef struct meter {
	const char *s, *end;
} meter;

static double measure(meter *m, double scale, int script, int font,
	int one);

/* Non-zero when the 'n' bytes at 's' are the word 'w'. */
static int is_word(const char *s, size_t n, const char *w)
{
	return strlen(w) == n && !strncmp(s, w, n);
}

/* Non-zero when the 'n' bytes at 's' are one of 'list'. */
static int in_list(const char *s, size_t n, const char *const *list)
{
	size_t i;

	for (i = 0; list[i]; i++)
		if (is_word(s, n, list[i]))
			return 1;
	return 0;
}

/* The widths of the letters a to z and A to Z in math italic (cmmi10) and
 * upright (cmr10), in points, rounded up, with room for the italic
 * correction. */
static const double italic[52] = {
	5.6, 4.6, 4.7, 5.5, 5.0, 5.2, 5.1, 6.1, 3.8, 4.5, 5.5, 3.3, 9.1,
	6.3, 5.2, 5.4, 4.8, 4.9, 5.0, 4.0, 6.1, 5.2, 7.5, 6.1, 5.3, 5.0,
	7.9, 8.0, 7.5, 8.6, 7.7, 6.8, 8.2, 8.7, 4.8, 5.9, 8.9, 7.2, 10.1,
	8.4, 8.0, 6.8, 8.3, 8.0, 6.5, 6.2, 7.2, 6.2, 9.8, 8.7, 6.2, 7.2
};
static const double upright[52] = {
	5.1, 5.6, 4.5, 5.6, 4.5, 3.1, 5.0, 5.6, 2.8, 3.1, 5.3, 2.8, 8.4,
	5.6, 5.0, 5.6, 5.3, 4.0, 4.0, 3.9, 5.6, 5.3, 7.3, 5.3, 5.3, 4.5,
	7.5, 7.1, 7.3, 7.7, 6.9, 6.6, 7.9, 7.5, 3.7, 5.2, 7.8, 6.3, 9.2,
	7.5, 7.8, 6.8, 7.8, 7.4, 5.6, 7.3, 7.5, 7.5, 10.3, 7.5, 7.5, 6.2
};

/* The width of the letter or digit 'c': italic in math, upright in a
 * font ('font' non-zero). */
static double letter_width(char c, int font)
{
	int i;

	if (c >= '0' && c <= '9')
		return 5.0;
	i = c >= 'a' && c <= 'z' ? c - 'a' : c - 'A' + 26;
	return font ? upright[i] : italic[i];
}

/* The width of the ASCII character 'c' that is not a letter or a digit. */
static double symbol_width(char c, int script, int font)
{
	switch (c) {
	case ' ':
		return font ? 3.4 : 0;
	case '+': case '-': case '*':
		return script ? 7.8 : 12.2;
	case '=': case '<': case '>':
		return script ? 7.8 : 13.4;
	case ',': case ';':
		return script ? 2.8 : 4.5;
	case '.': case '\'': case '!': case '|': case ':':
		return 2.8;
	case '(': case ')': case '[': case ']':
		return 3.9;
	case '/':
		return 5.0;
	case '&':
		return 0;
	default:
		return 7.8;
	}
}

/* The width of an environment whose name m->s is at (after \begin): its
 * widest row, the rows separated by \\, up to its \end. */
static double environment(meter *m, double scale, int script, int font)
{
	double row = 0, widest = 0;

	measure(m, scale, script, font, 1);
	while (m->s < m->end) {
		if (m->end - m->s >= 2 && !strncmp(m->s, "\\\\", 2)) {
			m->s += 2;
			widest = row > widest ? row : widest;
			row = 0;
		} else if (m->end - m->s >= 4 && !strncmp(m->s, "\\end", 4)) {
			m->s += 4;
			measure(m, scale, script, font, 1);
			break;
		} else {
			row += measure(m, scale, script, font, 1);
		}
	}
	return row > widest ? row : widest;
}

/* The width of the command at m->s (after the backslash). */
static double command(meter *m, double scale, int script, int font)
{
	const char *p = m->s;
	size_t n, i;

	while (m->s < m->end && ((*m->s >= 'a' && *m->s <= 'z') ||
	       (*m->s >= 'A' && *m->s <= 'Z')))
		m->s++;
	n = (size_t)(m->s - p);
	if (!n) {
		char c = m->s < m->end ? *m->s++ : ' ';

		return scale * (c == ',' ? 1.7 : c == ';' ? 2.8 : c == ':' ?
			2.2 : c == '!' || c == '\\' ? 0 : c == ' ' ? 3.4 : c ==
			'%' || c == '#' ? 8.4 : c == '&' ? 7.8 : 5.0);
	}
	if (in_list(p, n, fonts))
		return measure(m, scale, script, 1, 1);
	if (is_word(p, n, "begin"))
		return environment(m, scale, script, font);
	if (in_list(p, n, accents)) {
		if (is_word(p, n, "end"))
			measure(m, scale, script, font, 1);
		return 0;
	}
	for (i = 0; sizes[i].name; i++)
		if (is_word(p, n, sizes[i].name))
			return scale * sizes[i].w;
	if (is_word(p, n, "frac"))
		return measure(m, scale, script, font, 1) +
			measure(m, scale, script, font, 1) + 3.6 * scale;
	for (i = 0; commands[i].name; i++)
		if (is_word(p, n, commands[i].name))
			return scale * (script && commands[i].w > 11 &&
				commands[i].w < 14 ? commands[i].w - 4.4 :
				commands[i].w);
	return scale * 8.0;
}

/* Measures from m->s: one token when 'one' (a group in braces counts as
 * one), else up to the end.  A closing brace ends a group. */
static double measure(meter *m, double scale, int script, int font, int one)
{
	double w = 0;

	while (m->s < m->end) {
		char c = *m->s++;

		if (c == '}')
			return w;
		if (c == '{')
			w += measure(m, scale, script, font, 0);
		else if (c == '\\')
			w += command(m, scale, script, font);
		else if (c == '_' || c == '^')
			w += measure(m, scale * 0.8 < 0.65 ? 0.65 : scale * 0.8,
				1, font, 1) + 0.5;
		else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			 (c >= '0' && c <= '9'))
			w += scale * letter_width(c, font);
		else if (c == ' ' && one)
			continue;
		else
			w += scale * symbol_width(c, script, font);
		if (one)
			return w;
	}
	return w;
}

double segc_latex_width_n(const char *s, size_t n, double scale, int script)
{
	meter m;
	double w = 0;

	m.s = s;
	m.end = s + n;
	while (m.s < m.end)
		w += measure(&m, scale, script, 0, 0);
	return w;
}
