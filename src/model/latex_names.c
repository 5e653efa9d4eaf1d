/* latex_names.c - the 'latex' attributes of a model's parameters and
 * resources: each is checked against a safe subset of LaTeX (no command
 * that reads or writes files, defines macros or changes category codes;
 * doc/latex.md) before anything typesets it. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/latex_names.h"
#include "base/util.h"

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

/* The one graph of 'm' with indexed nodes, whose longest path the
 * formulas hold (taskpath, its nodes numbered in the graph's order), or
 * NULL when there is none or more than one. */
static const segc_graph *family_graph(const segc_model *m)
{
	const segc_graph *g = NULL;
	size_t i;

	for (i = 0; i < m->ngraphs; i++)
		if (m->graphs[i].arc_form && segc_graph_has_families(
		    &m->graphs[i])) {
			if (g)
				return NULL;
			g = &m->graphs[i];
		}
	return g;
}

/* See segc_model.h. */
size_t segc_model_task_nodes(const segc_model *m)
{
	const segc_graph *g = family_graph(m);

	return g ? g->nnodes : 0;
}

/* See segc_model.h. */
const char *segc_model_task_node(const segc_model *m, size_t k)
{
	const segc_graph *g = family_graph(m);

	return g && k < g->nnodes ? g->nodes[k].id : NULL;
}

/* The 'latex' spellings of the parameters, resources and lets of 'm', each
 * checked, and the ids of the nodes of its graph of indexed nodes under
 * the keys "@v1", "@v2", ... (kept in the block of 'names', so that
 * clearing frees them); -1 (errors recorded) when one is unsafe. */
int segc_latex_names_of_model(segc_ctx *ctx, const segc_model *m,
	segc_latex_names *out)
{
	const segc_graph *g = family_graph(m);
	size_t nodes = g ? g->nnodes : 0;
	size_t total = m->nparams + m->nresources + m->nlets + nodes + 1, i,
		n = 0;
	/* the pointers, then the keys "@v<k>" of the nodes, 24 bytes each */
	const char **names = segc_xcalloc(1, total * sizeof *names +
		nodes * 24);
	char *keys = (char *)(names + total);
	const char **latex = segc_xcalloc(total, sizeof *latex);
	int rc = 0;

	for (i = 0; i < nodes; i++) {
		snprintf(keys + 24 * i, 24, "@v%lu", (unsigned long)i + 1);
		names[n] = keys + 24 * i;
		latex[n++] = g->nodes[i].id;
	}

	for (i = 0; i < m->nparams; i++)
		if (add_name(ctx, names, latex, &n, m->params[i].name,
		    m->params[i].latex, "parameter", &m->params[i].loc))
			rc = -1;
	for (i = 0; i < m->nresources; i++)
		if (add_name(ctx, names, latex, &n, m->resources[i].name,
		    m->resources[i].latex, "resource", &m->resources[i].loc))
			rc = -1;
	for (i = 0; i < m->nlets; i++)
		if (add_name(ctx, names, latex, &n, m->lets[i].name,
		    m->lets[i].latex, "let", &m->lets[i].loc))
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
