/* latex_doc.c - what surrounds the LaTeX of a formula: checking the
 * 'latex' attributes of a model against a safe subset, escaping free text,
 * and the standalone document of 'segc latex --standalone'.  The subset
 * and the escapes are described in doc/latex.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "output/output.h"
#include "model/model.h"

/* Commands a 'latex' attribute may use: math alphabets, accents, Greek
 * letters and a few symbols; nothing that reads or writes files, defines
 * macros or changes category codes. */
static const char *const allowed_commands[] = {
	"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta",
	"iota", "kappa", "lambda", "mu", "nu", "xi", "pi", "rho", "sigma",
	"tau", "upsilon", "phi", "chi", "psi", "omega", "Gamma", "Delta",
	"Theta", "Lambda", "Xi", "Pi", "Sigma", "Upsilon", "Phi", "Psi",
	"Omega", "varepsilon", "vartheta", "varpi", "varrho", "varsigma",
	"varphi", "mathrm", "mathit", "mathbf", "mathsf", "mathtt",
	"mathcal", "operatorname", "text", "hat", "bar", "tilde", "vec", "dot",
	"ddot", "check", "breve", "acute", "grave", "widehat", "widetilde",
	"overline", "underline", "prime", "ell", "infty", "cdot", "times",
	"ldots", "cdots", "partial", "nabla", "log", "ln", "exp", "max", "min",
	"quad", "qquad", "star", "ast", NULL
};

/* Characters a 'latex' attribute may hold besides letters and digits. */
static const char allowed_punct[] = " _^{}',.+-*/()[]|=<>!;:";

/* Non-zero when the 'n' bytes at 's' name an allowed command. */
static int command_allowed(const char *s, size_t n)
{
	size_t i;

	for (i = 0; allowed_commands[i]; i++)
		if (strlen(allowed_commands[i]) == n &&
		    !strncmp(allowed_commands[i], s, n))
			return 1;
	return 0;
}

/* Non-zero when 'c' is an ASCII letter. */
static int is_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* Non-zero when 'c' is an ASCII letter or digit. */
static int is_alnum(char c)
{
	return is_alpha(c) || (c >= '0' && c <= '9');
}

/* Records that 'latex' of 'owner' is refused because of 'why'. */
static int refuse(segc_ctx *ctx, const segc_where *w, const char *owner,
	const char *why)
{
	segc_error(ctx, SEGC_ERR_INPUT, w ? w->file : NULL, w ? w->line : 0,
		w ? w->col : 0, "attribute 'latex' of %s: %s (see doc/latex.md "
		"for what it may contain)", owner, why);
	return -1;
}

/* Checks the command at 's' (just after its backslash); returns its length
 * (0 when refused, with the error recorded). */
static size_t check_command(segc_ctx *ctx, const char *s, const char *owner,
	const segc_where *w)
{
	size_t n = 0;

	if (*s && strchr(",;:! {}|_&%$#", *s))
		return 1;
	while (is_alpha(s[n]))
		n++;
	if (n == 0 || n > 40 || !command_allowed(s, n)) {
		char msg[96];

		strcpy(msg, "command \\");
		strncat(msg, s, n && n <= 40 ? n : 1);
		strcat(msg, n ? " is not allowed" : " is not allowed here");
		if (n == 0 && !is_alnum(*s) && !strchr(allowed_punct, *s))
			strcpy(msg, "a backslash before a special character");
		refuse(ctx, w, owner, msg);
		return 0;
	}
	return n;
}

/* Checks the 'latex' attribute 'latex' of 'owner' (a phrase naming the
 * parameter or resource) against the safe subset: letters, digits, the
 * punctuation of allowed_punct, balanced braces, no "^^", sub- and
 * superscripts followed by something, and commands of allowed_commands
 * only.  0 when safe; else the error is recorded and -1 returned. */
int segc_latex_attr_check(segc_ctx *ctx, const char *latex,
	const char *owner, const segc_where *where)
{
	const char *s = latex;
	long depth = 0;

	if (strlen(latex) > 200)
		return refuse(ctx, where, owner, "longer than 200 characters");
	while (*s) {
		if (*s == '\\') {
			size_t n = check_command(ctx, s + 1, owner, where);

			if (!n)
				return -1;
			s += 1 + n;
			continue;
		}
		if (!is_alnum(*s) && !strchr(allowed_punct, *s))
			return refuse(ctx, where, owner, (unsigned char)*s >= 0x80
				? "a character outside ASCII"
				: "a character outside the safe subset (one of "
				  "% # & $ ~ \" ` @ ? or a control character)");
		if ((*s == '^' || *s == '_') &&
		    (!s[1] || s[1] == '^' || s[1] == '_' || s[1] == '}'))
			return refuse(ctx, where, owner,
				"'^' or '_' without an argument (or \"^^\")");
		if (*s == '{')
			depth++;
		if (*s == '}' && --depth < 0)
			return refuse(ctx, where, owner, "unbalanced braces");
		s++;
	}
	if (depth)
		return refuse(ctx, where, owner, "unbalanced braces");
	return 0;
}

/* --------------------------------------------------------- free text */

/* The escape of the ASCII character 'c' in LaTeX text, or NULL when it
 * stands for itself. */
static const char *text_escape(unsigned char c)
{
	switch (c) {
	case '\\': return "\\textbackslash{}";
	case '{': return "\\{";
	case '}': return "\\}";
	case '$': return "\\$";
	case '&': return "\\&";
	case '%': return "\\%";
	case '#': return "\\#";
	case '_': return "\\_";
	case '^': return "\\textasciicircum{}";
	case '~': return "\\textasciitilde{}";
	case '<': return "\\textless{}";
	case '>': return "\\textgreater{}";
	case '|': return "\\textbar{}";
	case '"': return "\\textquotedbl{}";
	case '-': return "-{}";
	case '`': return "\\textasciigrave{}";
	case '\'': return "\\textquotesingle{}";
	default: return NULL;
	}
}

/* Decodes one UTF-8 character at 's' into '*cp'; returns its length, or 0
 * when the bytes are not well-formed UTF-8. */
static size_t utf8_decode(const unsigned char *s, unsigned long *cp)
{
	size_t n, i;

	if (s[0] < 0xC2 || s[0] > 0xF4)
		return 0;
	n = s[0] < 0xE0 ? 2 : s[0] < 0xF0 ? 3 : 4;
	*cp = s[0] & (0x7F >> n);
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		*cp = (*cp << 6) | (s[i] & 0x3F);
	}
	if ((n == 3 && *cp < 0x800) || (n == 4 && (*cp < 0x10000 ||
	    *cp > 0x10FFFF)) || (*cp >= 0xD800 && *cp <= 0xDFFF))
		return 0;
	return n;
}

/* The LaTeX text for the non-ASCII code point 'cp', or NULL. */
static const char *text_unicode(unsigned long cp)
{
	static const struct { unsigned long cp; const char *tex; } map[] = {
		{ 0x00A0, "~" }, { 0x00A7, "\\S{}" }, { 0x00B5, "\\textmu{}" },
		{ 0x00B0, "\\textdegree{}" }, { 0x00D7, "\\texttimes{}" },
		{ 0x00E9, "\\'e" }, { 0x00E8, "\\`e" }, { 0x00E4, "\\\"a" },
		{ 0x00F6, "\\\"o" }, { 0x00FC, "\\\"u" }, { 0x00DF, "\\ss{}" },
		{ 0x00C4, "\\\"A" }, { 0x00D6, "\\\"O" }, { 0x00DC, "\\\"U" },
		{ 0x00E1, "\\'a" }, { 0x00ED, "\\'i" }, { 0x00F3, "\\'o" },
		{ 0x00FA, "\\'u" }, { 0x00E7, "\\c{c}" }, { 0x00F1, "\\~n" },
		{ 0x2013, "--" }, { 0x2014, "---" }, { 0x2018, "`" },
		{ 0x2019, "'" }, { 0x201C, "``" }, { 0x201D, "''" },
		{ 0x2026, "\\ldots{}" }, { 0x2212, "\\textminus{}" },
		{ 0x03BC, "\\ensuremath{\\mu}" }, { 0x03C4, "\\ensuremath{\\tau}" },
		{ 0x00B7, "\\textperiodcentered{}" }, { 0x00B1, "\\textpm{}" },
		{ 0, NULL }
	};
	size_t i;

	for (i = 0; map[i].tex; i++)
		if (map[i].cp == cp)
			return map[i].tex;
	return NULL;
}

/* Appends the escape of the character at 's'; returns its length. */
static size_t put_text_char(segc_strbuf *b, const unsigned char *s)
{
	unsigned long cp;
	size_t n;
	const char *t;

	if (*s < 0x80) {
		t = text_escape(*s);
		if (t)
			segc_strbuf_append(b, t);
		else if (*s < 0x20 || *s == 0x7F)
			segc_strbuf_appendc(b, ' ');
		else
			segc_strbuf_appendc(b, (char)*s);
		return 1;
	}
	n = utf8_decode(s, &cp);
	if (!n) {
		segc_strbuf_append(b, "?");
		return 1;
	}
	t = text_unicode(cp);
	if (t)
		segc_strbuf_append(b, t);
	else
		segc_strbuf_appendf(b, "[U+%04lX]", cp);
	return n;
}

/* Free text escaped for LaTeX text mode. */
char *segc_latex_escape_text(const char *text)
{
	const unsigned char *s = (const unsigned char *)text;
	segc_strbuf b;

	segc_strbuf_init(&b);
	while (*s)
		s += put_text_char(&b, s);
	return segc_strbuf_take(&b);
}

/* ------------------------------------------------------- documents */

/* The symbol on the left of each component's equation. */
static const char *const component_symbol[4] = {
	"T", "T_{\\mathrm{comp}}", "T_{\\mathrm{comm}}", "T_{\\mathrm{io}}"
};

/* Appends the equation of one component: a plain equation, or a multline
 * when the formula needs several lines. */
static void put_equation(segc_strbuf *b, int c, const segc_expr *e,
	const segc_latex_names *names)
{
	size_t nlines = 1;
	char *math = segc_latex_expr_lines(e, names, 48, &nlines);
	const char *env = nlines > 1 ? "multline" : "equation";

	segc_strbuf_appendf(b, "\\begin{%s}\n%s = %s\n\\end{%s}\n", env,
		component_symbol[c], math, env);
	free(math);
}

/* A complete document with every non-zero component of 'formulas'. */
char *segc_latex_document(const char *title, const char *description,
	segc_expr *const formulas[4], const segc_latex_names *names)
{
	static const char *const head =
		"\\documentclass{article}\n"
		"\\usepackage[T1]{fontenc}\n"
		"\\usepackage{textcomp}\n"
		"\\usepackage{amsmath}\n";
	static const char *const label[4] = {
		"Total time", "Computation", "Communication", "Input and output"
	};
	char *t = segc_latex_escape_text(title);
	char *d = description ? segc_latex_escape_text(description) : NULL;
	segc_strbuf b;
	int c;

	segc_strbuf_init(&b);
	segc_strbuf_append(&b, head);
	segc_strbuf_appendf(&b, "\\title{%s}\n\\author{}\n\\date{}\n"
		"\\begin{document}\n\\maketitle\n\n", t ? t : "");
	if (d && *d)
		segc_strbuf_appendf(&b, "%s\n\n", d);
	for (c = 0; c < 4; c++) {
		if (!formulas[c] || (c && segc_expr_is_zero(formulas[c])))
			continue;
		segc_strbuf_appendf(&b, "\\noindent %s:\n", label[c]);
		put_equation(&b, c, formulas[c], names);
		segc_strbuf_appendc(&b, '\n');
	}
	segc_strbuf_append(&b, "\\end{document}\n");
	free(t);
	free(d);
	return segc_strbuf_take(&b);
}

/* ------------------------------------------------------ model names */

/* Adds the 'latex' attribute of one name after checking it; 0 when safe. */
static int add_name(segc_ctx *ctx, const char **names, const char **latex,
	size_t *n, const char *name, const char *tex, const char *kind,
	const segc_srcloc *loc)
{
	segc_where w;
	char owner[160];

	if (!tex)
		return 0;
	w.file = loc->file;
	w.line = loc->line;
	w.col = loc->col;
	w.what = NULL;
	snprintf(owner, sizeof owner, "%s '%.100s'", kind, name);
	if (segc_latex_attr_check(ctx, tex, owner, &w))
		return -1;
	names[*n] = name;
	latex[(*n)++] = tex;
	return 0;
}

/* The 'latex' spellings of the parameters and resources of 'm', each
 * checked; -1 (errors recorded) when one is unsafe. */
int segc_latex_names_of_model(segc_ctx *ctx, const segc_model *m,
	segc_latex_names *out)
{
	size_t total = m->nparams + m->nresources + 1, i, n = 0;
	const char **names = segc_xcalloc(total, sizeof *names);
	const char **latex = segc_xcalloc(total, sizeof *latex);
	int rc = 0;

	for (i = 0; i < m->nparams; i++)
		if (add_name(ctx, names, latex, &n, m->params[i].name,
		    m->params[i].latex, "parameter", &m->params[i].loc))
			rc = -1;
	for (i = 0; i < m->nresources; i++)
		if (add_name(ctx, names, latex, &n, m->resources[i].name,
		    m->resources[i].latex, "resource", &m->resources[i].loc))
			rc = -1;
	out->n = n;
	out->names = names;
	out->latex = latex;
	if (rc)
		segc_latex_names_clear(out);
	return rc;
}

/* Releases the arrays of 'n' (not the strings: the model owns them). */
void segc_latex_names_clear(segc_latex_names *n)
{
	free((void *)n->names);
	free((void *)n->latex);
	n->names = n->latex = NULL;
	n->n = 0;
}
