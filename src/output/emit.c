/* emit.c - the C predictor of a model: one function per component, each
 * printed from its evaluation plan (plan.c, by emit_plan.c), placed into
 * the templates of templates/ (compiled in, or the user's) by their named
 * placeholders (segc_template_fill, templates.c).  Nothing here writes
 * files: the command does. */
#include <stdlib.h>
#include <string.h>
#include "output/emit_private.h"

/* ------------------------------------------------------ the functions */

/* The state of one rendering. */
typedef struct emitter {
	segc_ctx *ctx;
	const segc_emit_input *in;
	const segc_where *where;
	segc_emit_names id;    /* C names of the functions, arguments, locals */
	segc_strbuf functions, prototypes, wrappers, wnames, fnames;
	size_t nfuncs;
	int allocates;         /* a function calls malloc (a taskpath) */
	int accumulates;       /* segc_acc is defined (a recurrence) */
	int roots;             /* segc_root is defined */
} emitter;

static const char *const component_words[4] = {
	"total time", "computation time", "communication time",
	"input and output time"
};

/* Appends the parameter list "(double N, double P, ...)", with 'flag'
 * also the flag of TwoProd of a body under --accurate (dd.c.in). */
static void put_params_flag(segc_strbuf *b, const emitter *em, int flag)
{
	size_t i;

	segc_strbuf_appendc(b, '(');
	for (i = 0; i < em->in->nargs; i++)
		segc_strbuf_appendf(b, "%sdouble %s", i ? ", " : "", em->id.arg[i]);
	if (flag)
		segc_strbuf_append(b, em->in->nargs ? ", int segc_f" :
			"int segc_f");
	segc_strbuf_appendc(b, ')');
}

/* Appends the parameter list "(double N, double P, ...)". */
static void put_params(segc_strbuf *b, const emitter *em)
{
	put_params_flag(b, em, 0);
}

/* Appends the comment before the function of component 'c'. */
static void put_function_comment(segc_strbuf *b, int c,
	const segc_expr *e, const segc_plan *p, const segc_emit_input *in)
{
	segc_strbuf_appendf(b, "\n/* The %s of the model, %lu operations%s:\n",
		component_words[c], p->flops, in->accurate ?
		" in compensated arithmetic" : "");
	segc_emit_formula_comment(b, in, c, e, " *   ");
	segc_strbuf_append(b, "\n");
	if (!in->accurate)
		segc_emit_bound_text(b, p, in, " * ");
	segc_strbuf_append(b, " */\n");
}

/* Appends the parameter list of the array form: "(size_t segc_n, const
 * double *N, ..., double *segc_out)" (segc_ names are the emitter's). */
static void put_array_params(segc_strbuf *b, const emitter *em)
{
	size_t i;

	segc_strbuf_append(b, "(size_t segc_n");
	for (i = 0; i < em->in->nargs; i++)
		segc_strbuf_appendf(b, ", const double *%s", em->id.arg[i]);
	segc_strbuf_append(b, ", double *segc_out)");
}

/* Appends the call of the body of 'cname' at the arguments (their
 * elements segc_i with 'arrays'), with --accurate the flag 'flag' of its
 * products (dd.c.in). */
static void put_body_call(segc_strbuf *b, const emitter *em,
	const char *cname, int arrays, const char *flag)
{
	size_t i;

	segc_strbuf_appendf(b, "%s_%s_k(", em->id.prefix, cname);
	for (i = 0; i < em->in->nargs; i++)
		segc_strbuf_appendf(b, "%s%s%s", i ? ", " : "", em->id.arg[i],
			arrays ? "[segc_i]" : "");
	if (em->in->accurate)
		segc_strbuf_appendf(b, "%s%s", em->in->nargs ? ", " : "", flag);
	segc_strbuf_append(b, ");\n");
}

/* Appends the loop of the array form of 'cname', its products by the
 * flag 'flag'. */
static void put_array_loop(emitter *em, const char *cname, const char *flag)
{
	segc_strbuf_append(&em->functions, "\tfor (segc_i = 0; segc_i < segc_n; "
		"segc_i++)\n\t\tsegc_out[segc_i] = ");
	put_body_call(&em->functions, em, cname, 1, flag);
}

/* Appends the array form of the function 'cname' and its prototype: the
 * function at each of n points, a loop the compiler may vectorize (the
 * function is in the same file, so it can be inlined).  With --accurate,
 * also its copy for processors with a fused multiply-add, called when
 * the processor has one. */
static void put_array_function(emitter *em, const char *cname)
{
	size_t i;

	if (em->in->accurate) {
		segc_strbuf_appendf(&em->functions, "\n#ifdef SEGC_FMA_DISPATCH\n"
			"/* %s_%s_n for a processor with a fused multiply-add. */\n"
			"SEGC_FMA_COPY void %s_%s_nf", em->id.prefix, cname,
			em->id.prefix, cname);
		put_array_params(&em->functions, em);
		segc_strbuf_append(&em->functions, "\n{\n\tsize_t segc_i;\n\n");
		put_array_loop(em, cname, "1");
		segc_strbuf_append(&em->functions, "}\n#endif\n");
	}
	segc_strbuf_appendf(&em->functions, "\n/* %s_%s at each of the "
		"'segc_n' points given by the arrays (the i-th\n * point is "
		"element i of each), into segc_out[0 .. segc_n - 1]. */\n"
		"void %s_%s_n", em->id.prefix, cname, em->id.prefix, cname);
	put_array_params(&em->functions, em);
	segc_strbuf_append(&em->functions, "\n{\n\tsize_t segc_i;\n\n");
	if (em->in->accurate) {
		segc_strbuf_appendf(&em->functions, "#ifdef SEGC_FMA_DISPATCH\n"
			"\tif (SEGC_HAS_FMA) {\n\t\t%s_%s_nf(segc_n",
			em->id.prefix, cname);
		for (i = 0; i < em->in->nargs; i++)
			segc_strbuf_appendf(&em->functions, ", %s",
				em->id.arg[i]);
		segc_strbuf_append(&em->functions, ", segc_out);\n\t\treturn;\n"
			"\t}\n#endif\n");
	}
	put_array_loop(em, cname, "SEGC_FMA_ALWAYS");
	segc_strbuf_append(&em->functions, "}\n");
	segc_strbuf_appendf(&em->prototypes, "/* The same at 'segc_n' points "
		"given as arrays. */\nvoid %s_%s_n", em->id.prefix, cname);
	put_array_params(&em->prototypes, em);
	segc_strbuf_append(&em->prototypes, ";\n");
}

/* Appends the scalar function of 'cname' (its comment printed before):
 * the call of its body; with --accurate, first its copy for processors
 * with a fused multiply-add, and the call of that copy when the
 * processor has one. */
static void put_scalar_function(emitter *em, int c, const char *cname,
	const segc_expr *e, const segc_plan *p)
{
	if (em->in->accurate) {
		segc_strbuf_appendf(&em->functions, "\n#ifdef SEGC_FMA_DISPATCH\n"
			"/* %s_%s for a processor with a fused multiply-add. */\n"
			"SEGC_FMA_COPY double %s_%s_f", em->id.prefix, cname,
			em->id.prefix, cname);
		put_params(&em->functions, em);
		segc_strbuf_append(&em->functions, "\n{\n\treturn ");
		put_body_call(&em->functions, em, cname, 0, "1");
		segc_strbuf_append(&em->functions, "}\n#endif\n");
	}
	put_function_comment(&em->functions, c, e, p, em->in);
	segc_strbuf_appendf(&em->functions, "double %s_%s", em->id.prefix, cname);
	put_params(&em->functions, em);
	segc_strbuf_append(&em->functions, "\n{\n");
	if (em->in->accurate) {
		size_t i;

		segc_strbuf_appendf(&em->functions, "#ifdef SEGC_FMA_DISPATCH\n"
			"\tif (SEGC_HAS_FMA)\n\t\treturn %s_%s_f(", em->id.prefix,
			cname);
		for (i = 0; i < em->in->nargs; i++)
			segc_strbuf_appendf(&em->functions, "%s%s", i ? ", " : "",
				em->id.arg[i]);
		segc_strbuf_append(&em->functions, ");\n#endif\n");
	}
	segc_strbuf_append(&em->functions, "\treturn ");
	put_body_call(&em->functions, em, cname, 0, "SEGC_FMA_ALWAYS");
	segc_strbuf_append(&em->functions, "}\n");
}

/* Renders the function of component 'c' from its plan. */
static void put_function(emitter *em, int c, const segc_expr *e,
	const segc_plan *p)
{
	const char *cname = segc_component_name((enum segc_component)c);
	segc_emit_namer nm;
	size_t i;

	segc_emit_namer_init(&nm, p, &em->id, em->in->accurate,
		segc_emit_nonneg(em->ctx, em->in, e));
	segc_emit_pack_find(&nm, cname);
	if (!em->nfuncs)
		segc_strbuf_append(&em->functions, "\n/* The bodies are inline "
			"functions, which the array forms inline whatever\n"
			" * their size (where the compiler says how), so that it "
			"may compute several\n * points at once. */\n"
			"#if defined(__GNUC__)\n"
			"#define SEGC_BODY static inline __attribute__(("
			"always_inline)) double\n#else\n"
			"#define SEGC_BODY static inline double\n#endif\n");
	segc_emit_pack_helpers(&em->functions, &nm);
	if (!em->accumulates && segc_plan_uses_op(p, SEGC_OP_MAXPLUS)) {
		segc_emit_maxplus_helper(&em->functions, &segc_emit_c_syntax);
		em->accumulates = 1;
	}
	if (!em->roots && segc_plan_uses_op(p, SEGC_OP_ROOT)) {
		segc_emit_root_helper(&em->functions, SEGC_EMIT_C);
		em->roots = 1;
	}
	segc_strbuf_appendf(&em->functions, "\n/* The body of %s_%s. */\n"
		"SEGC_BODY %s_%s_k", em->id.prefix, cname, em->id.prefix, cname);
	put_params_flag(&em->functions, em, em->in->accurate);
	segc_strbuf_append(&em->functions, "\n{\n");
	segc_emit_plan_body(&em->functions, &nm);
	segc_strbuf_append(&em->functions, "}\n");
	segc_emit_namer_clear(&nm);
	put_scalar_function(em, c, cname, e, p);
	segc_strbuf_appendf(&em->prototypes, "/* The %s. */\ndouble %s_%s",
		component_words[c], em->id.prefix, cname);
	put_params(&em->prototypes, em);
	segc_strbuf_append(&em->prototypes, ";\n");
	put_array_function(em, cname);
	segc_strbuf_appendf(&em->wrappers, "\n/* %s_%s at the point 'a'. */\n"
		"static double call_%s(const double *a)\n{\n\treturn %s_%s(",
		em->id.prefix, cname, cname, em->id.prefix, cname);
	for (i = 0; i < em->in->nargs; i++)
		segc_strbuf_appendf(&em->wrappers, "%sa[%lu]", i ? ", " : "",
			(unsigned long)i);
	segc_strbuf_append(&em->wrappers, ");\n}\n");
	segc_strbuf_appendf(&em->wnames, "%scall_%s", em->nfuncs ? ", " : "",
		cname);
	segc_strbuf_appendf(&em->fnames, "%s\"%s\"", em->nfuncs ? ", " : "",
		cname);
	em->nfuncs++;
}

/* Records an error at the emitter's place. */
static void emit_error(emitter *em, enum segc_status code, const char *fmt,
	const char *name)
{
	const segc_where *w = em->where;

	segc_error(em->ctx, code, w ? w->file : NULL, w ? w->line : 0,
		w ? w->col : 0, fmt, name);
}

/* Non-zero when 'name' is one of the arguments. */
static int is_arg(const segc_emit_input *in, const char *name)
{
	size_t i;

	for (i = 0; i < in->nargs; i++)
		if (!strcmp(in->args[i], name))
			return 1;
	return 0;
}

/* Reports every unbound name and uninterpreted call of the formulas of
 * 'in', each once, as what keeps them from being emitted in 'lang'; 0
 * when there is none. */
int segc_emit_check_names(segc_ctx *ctx, const segc_emit_input *in,
	const segc_where *w, const char *lang)
{
	const char **seen = NULL;
	size_t nseen = 0, c, i, j, n;
	int calls, bad = 0;

	for (calls = 0; calls < 2; calls++)
		for (c = 0; c < 4; c++) {
			const char **v;

			if (!in->formulas[c])
				continue;
			n = segc_output_names(in->formulas[c], calls, &v);
			for (i = 0; i < n; i++) {
				if (!calls && is_arg(in, v[i]))
					continue;
				for (j = 0; j < nseen && strcmp(seen[j], v[i]); j++)
					;
				if (j < nseen)
					continue;
				seen = segc_xrealloc(seen, (nseen + 1) * sizeof *seen);
				seen[nseen++] = v[i];
				segc_error(ctx, SEGC_ERR_INPUT, w ? w->file : NULL,
					w ? w->line : 0, w ? w->col : 0, calls ?
					"cannot emit %s while the uninterpreted call "
					"'%s' remains: give a machine that defines it" :
					"cannot emit %s while '%s' is unbound: bind it "
					"(-D, a machine) or keep it as an argument "
					"(--keep)", lang, v[i]);
				bad = 1;
			}
			free(v);
		}
	free(seen);
	return bad ? -1 : 0;
}

/* Renders every function; 0 on success. */
static int render_functions(emitter *em)
{
	int c;

	for (c = 0; c < 4; c++) {
		const segc_expr *e = em->in->formulas[c];
		segc_plan *p;

		if (!e || (c && segc_expr_is_zero(e)))
			continue;
		p = segc_plan_build(em->ctx, e, em->in->nargs, em->in->args,
			em->where);
		if (!p)
			return -1;
		em->allocates |= segc_plan_uses_op(p, SEGC_OP_TASKPATH);
		put_function(em, c, e, p);
		segc_plan_free(p);
	}
	return 0;
}

/* ---------------------------------------------------------- the files */

/* The header guard of the prefix. */
static char *guard_name(const char *prefix)
{
	segc_strbuf b;
	const char *s;

	segc_strbuf_init(&b);
	segc_strbuf_append(&b, "SEGC_PREDICTOR_");
	for (s = prefix; *s; s++)
		segc_strbuf_appendc(&b, *s >= 'a' && *s <= 'z' ?
			(char)(*s - 'a' + 'A') : *s);
	segc_strbuf_append(&b, "_H");
	return segc_strbuf_take(&b);
}

/* The description as comment lines (empty when there is none). */
static char *description_comment(const char *d)
{
	segc_strbuf b;

	segc_strbuf_init(&b);
	if (d && *d) {
		segc_strbuf_append(&b, " *\n");
		segc_emit_comment_text(&b, d, " * ");
	} else {
		segc_strbuf_append(&b, " *");
	}
	return segc_strbuf_take(&b);
}

/* The main part, or "" without --main. */
static char *render_main(emitter *em, const segc_templates *t)
{
	const char *keys[] = {
		"NARGS", "NFUNCS", "ARG_NAMES", "FUNC_NAMES", "WRAPPERS",
		"WRAPPER_NAMES"
	};
	const char *values[6];
	char nargs[32], nfuncs[32];
	segc_strbuf names;
	char *text;
	size_t i;

	if (!em->in->with_main)
		return segc_xstrdup("");
	segc_strbuf_init(&names);
	for (i = 0; i < em->in->nargs; i++)
		segc_strbuf_appendf(&names, "%s\"%s\"", i ? ", " : "", em->id.arg[i]);
	snprintf(nargs, sizeof nargs, "%lu", (unsigned long)em->in->nargs);
	snprintf(nfuncs, sizeof nfuncs, "%lu", (unsigned long)em->nfuncs);
	values[0] = nargs;
	values[1] = nfuncs;
	values[2] = segc_strbuf_str(&names);
	values[3] = segc_strbuf_str(&em->fnames);
	values[4] = segc_strbuf_str(&em->wrappers);
	values[5] = segc_strbuf_str(&em->wnames);
	text = segc_template_fill(em->ctx, t->main_part, "main.c.in", 6, keys,
		values);
	segc_strbuf_free(&names);
	return text;
}

/* Fills the file templates; 0 on success. */
static int render_files(emitter *em, const segc_templates *t, char **c_text,
	char **h_text)
{
	const char *keys[] = {
		"BASE", "MODEL", "DESCRIPTION", "GUARD", "PROTOTYPES",
		"FUNCTIONS", "MAIN", "PREFIX", "HELPERS"
	};
	const char *values[9];
	char *guard = guard_name(em->id.prefix);
	char *desc = description_comment(em->in->description);
	char *main_part = render_main(em, t);
	char *model = segc_emit_identifier(em->in->model_name);
	segc_strbuf hb;
	char *helpers;

	segc_strbuf_init(&hb);
	segc_strbuf_append(&hb, em->allocates ? "#include <stdlib.h> /* malloc: the instances of "
		"indexed nodes */\n" : "");
	segc_strbuf_append(&hb, em->in->accurate ? t->dd_part : "");
	helpers = segc_strbuf_take(&hb);

	values[0] = em->in->base;
	values[1] = model;
	values[2] = desc;
	values[3] = guard;
	values[4] = segc_strbuf_str(&em->prototypes);
	values[5] = segc_strbuf_str(&em->functions);
	values[6] = main_part ? main_part : "";
	values[7] = em->id.prefix;
	values[8] = helpers;
	*c_text = main_part ? segc_template_fill(em->ctx, t->c_file,
		"predictor.c.in", 9, keys, values) : NULL;
	*h_text = *c_text ? segc_template_fill(em->ctx, t->h_file,
		"predictor.h.in", 9, keys, values) : NULL;
	free(guard);
	free(desc);
	free(main_part);
	free(model);
	free(helpers);
	return *c_text && *h_text ? 0 : -1;
}

/* Releases what 'em' holds. */
static void emitter_clear(emitter *em)
{
	segc_emit_names_clear(&em->id, em->in->nargs);
	segc_strbuf_free(&em->functions);
	segc_strbuf_free(&em->prototypes);
	segc_strbuf_free(&em->wrappers);
	segc_strbuf_free(&em->wnames);
	segc_strbuf_free(&em->fnames);
}

/* Non-zero when 'base' may stand in #include "...": letters, digits and
 * "_-.+" only. */
int segc_emit_base_is_safe(const char *base)
{
	const char *s;

	for (s = base; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || strchr("_-.+", *s)))
			return 0;
	return *base != '\0';
}

/* Renders the C file and the header of 'in'. */
int segc_emit_render(segc_ctx *ctx, const segc_templates *t,
	const segc_emit_input *in, const segc_where *where, char **c_text,
	char **h_text)
{
	emitter em;
	int rc = -1;

	memset(&em, 0, sizeof em);
	em.ctx = ctx;
	em.in = in;
	em.where = where;
	*c_text = *h_text = NULL;
	if (!segc_emit_base_is_safe(in->base)) {
		emit_error(&em, SEGC_ERR_INPUT, "the file name '%s' may hold only "
			"letters, digits and '_', '-', '.', '+'", in->base);
		return -1;
	}
	if (segc_templates_check(ctx, t, in, 0) ||
	    segc_emit_check_names(ctx, in, where, "C") ||
	    segc_emit_names_choose(&em.id, ctx, where, in,
		segc_emit_identifier, "C") ||
	    render_functions(&em) || render_files(&em, t, c_text, h_text)) {
		free(*c_text);
		free(*h_text);
		*c_text = *h_text = NULL;
	} else {
		rc = 0;
	}
	emitter_clear(&em);
	return rc;
}
