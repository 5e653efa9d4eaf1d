/* emit_python.c - the predictor of a model as a Python 3 module (segc
 * emit --lang python): the same functions as the C predictor, each
 * printed from the same evaluation plan (plan.c) as Python statements by
 * the walk that the languages share (emit_walk.c) from this file's table
 * of Python (segc_emit_py_syntax), placed into the template
 * predictor.py.in.  Every number is the double
 * the C uses; every name a Python identifier that shadows no keyword nor
 * builtin; free text is written only into '#' comments. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "output/emit_private.h"
#include "expr/builtin.h"

/* ------------------------------------------------------------- names */

/* Names a Python identifier of the module must not be: the keywords
 * (soft ones included), the builtins and the module's imports. */
static const char *const py_reserved[] = {
	"False", "None", "True", "and", "as", "assert", "async", "await",
	"break", "class", "continue", "def", "del", "elif", "else", "except",
	"finally", "for", "from", "global", "if", "import", "in", "is",
	"lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try",
	"while", "with", "yield", "match", "case", "type",
	"Ellipsis", "NotImplemented", "abs", "aiter", "all", "anext", "any",
	"ascii", "bin", "bool", "breakpoint", "bytearray", "bytes",
	"callable", "chr", "classmethod", "compile", "complex", "copyright",
	"credits", "delattr", "dict", "dir", "divmod", "enumerate", "eval",
	"exec", "exit", "filter", "float", "format", "frozenset", "getattr",
	"globals", "hasattr", "hash", "help", "hex", "id", "input", "int",
	"isinstance", "issubclass", "iter", "len", "license", "list",
	"locals", "map", "max", "memoryview", "min", "next", "object", "oct",
	"open", "ord", "pow", "print", "property", "quit", "range", "repr",
	"reversed", "round", "set", "setattr", "slice", "sorted",
	"staticmethod", "str", "sum", "super", "tuple", "vars", "zip",
	"math", NULL
};

/* Endings of the builtin exception and warning classes. */
static const char *const py_reserved_suffixes[] = {
	"Error", "Exception", "Warning", "Exit", "Interrupt", "Iteration",
	"ExceptionGroup", NULL
};

/* Non-zero when 'name' is reserved in the module (see above). */
static int py_is_reserved(const char *name)
{
	size_t i, n = strlen(name), k;

	for (i = 0; py_reserved[i]; i++)
		if (!strcmp(py_reserved[i], name))
			return 1;
	for (i = 0; py_reserved_suffixes[i]; i++) {
		k = strlen(py_reserved_suffixes[i]);
		if (n >= k && !strcmp(name + n - k, py_reserved_suffixes[i]))
			return 1;
	}
	return 0;
}

/* 'name' as in the C predictor, then given a trailing '_' when Python
 * reserves it (malloc'd).  The C name never starts with '_', so it is
 * never private nor a dunder. */
static char *py_identifier(const char *name)
{
	char *c = segc_emit_identifier(name);
	segc_strbuf b;

	if (!py_is_reserved(c))
		return c;
	segc_strbuf_init(&b);
	segc_strbuf_append(&b, c);
	segc_strbuf_appendc(&b, '_');
	free(c);
	return segc_strbuf_take(&b);
}

/* ------------------------------------------------- the table of Python */

/* Appends 'd' as a Python float literal that reads back exactly (the
 * shortest of 15 to 17 significant digits); math.inf and math.nan for
 * what has no literal. */
static void put_py_double(segc_strbuf *b, double d)
{
	char buf[64];
	int prec;

	if (isnan(d)) {
		segc_strbuf_append(b, "math.nan");
		return;
	}
	if (isinf(d)) {
		segc_strbuf_append(b, d < 0 ? "-math.inf" : "math.inf");
		return;
	}
	for (prec = 15; prec < 17; prec++) {
		snprintf(buf, sizeof buf, "%.*g", prec, d);
		if (strtod(buf, NULL) == d)
			break;
	}
	snprintf(buf, sizeof buf, "%.*g", prec, d);
	segc_strbuf_append(b, buf);
	if (!strpbrk(buf, ".en"))
		segc_strbuf_append(b, ".0");
}

/* The syntax of Python for the printers that the languages share: the
 * walk of a plan (emit_walk.c; the helpers of the template give C's
 * results where Python's would raise) and the recurrence of an
 * overlapped loop.  A sub-block is always followed by an assignment, so
 * it is never empty in Python. */
const segc_emit_syntax segc_emit_py_syntax = {
	.indent = "    ", .semi = "", .decl = "", .decl_end = " = math.nan\n",
	.ul = "", .real = "", .zero = "0.0", .and_ = " and ",
	.and_cont = " and \\\n", .or_ = " or ", .isfinite = "math.isfinite(",
	.floor = "math.floor(", .if_ = "if ", .elif = "elif ", .then = ":\n",
	.then1 = ":\n", .then_else = ":\n", .else1 = "else:\n", .end = NULL,
	.end_else = NULL, .not_all = "if not (True", .not_all_end = "):\n",
	.comment = "# ", .comment_end = "", .incr = " += 1", .brk = "break",
	.minus_inf = "-math.inf", .nan = "math.nan",
	.sub_open = "[", .sub_sep = "][", .sub_close = "]",
	.mod_open = "(", .mod_sep = ") % ", .mod_close = "",
	.acc = "%h, %l = _segc_acc(%h, %l, ",
	.helper = "\n\ndef _segc_acc(hi, lo, c):\n    \"\"\"hi + lo + c, the "
		"time stamps of an overlapped loop carried as\n    "
		"double-doubles: the float nearest the sum and what it leaves"
		"\n    (TwoSum, then FastTwoSum); an infinite sum stays "
		"infinite.\"\"\"\n    s = hi + c\n    if not math.isfinite(s):"
		"\n        return s, 0.0\n    t = s - hi\n    e = ((hi - (s - "
		"t)) + (c - t)) + lo\n    h = s + e\n    return h, e - (h - "
		"s)\n",
	.step = "%s2 += 1.0", .while_ = "while ", .while_end = ":\n",
	.loop_end = NULL, .typed = 0, .nocase = 0,
	.const_ = "", .const_note = "  # ", .put_double = put_py_double,
	.call_col = offsetof(segc_builtin_info, python), .not_ = "not ",
	.ne_open = "not (",
	.div = "_segc_div", .root = "_segc_root(", .else_ = "else:\n",
	.ternary_q = NULL, .short_junction = 0, .for_ = NULL,
	.add_assign = 1,
	.neumaier = "%i%c += (%s - (%s + %t)) + %t if abs(%s) >= abs(%t) "
		"else (%t - (%s + %t)) + %s\n",
	.taskpath = segc_emit_taskpath_py, .wrap = NULL
};

/* ------------------------------------------------------- the module */

/* The state of one rendering. */
typedef struct py_emitter {
	segc_ctx *ctx;
	const segc_emit_input *in;
	const segc_where *where;
	segc_emit_names id;   /* Python names of functions, arguments, locals */
	segc_strbuf functions, names;
	size_t nfuncs;
	int accumulates;      /* _segc_acc is defined (a recurrence) */
	int roots;            /* _segc_root and _segc_root_v are defined */
} py_emitter;

static const char *const component_words[4] = {
	"total time", "computation time", "communication time",
	"input and output time"
};

/* Records an error at the emitter's place. */
static void py_error(py_emitter *em, const char *fmt, const char *name)
{
	const segc_where *w = em->where;

	segc_error(em->ctx, SEGC_ERR_INPUT, w ? w->file : NULL, w ? w->line : 0,
		w ? w->col : 0, fmt, name);
}

/* Appends the function of component 'c' from its plan; -1 when the plan
 * holds what the printer cannot express. */
static int put_function(py_emitter *em, int c, const segc_expr *e,
	const segc_plan *p)
{
	const char *cname = segc_component_name((enum segc_component)c);
	segc_strbuf *b = &em->functions;
	segc_emit_namer nm;
	char *fname;
	size_t i;
	int rc;

	segc_emit_namer_init(&nm, p, &em->id, 0,
		segc_emit_nonneg(em->ctx, em->in, e));
	if (!em->accumulates && segc_plan_uses_op(p, SEGC_OP_MAXPLUS)) {
		segc_emit_maxplus_helper(b, &segc_emit_py_syntax);
		em->accumulates = 1;
	}
	if (!em->roots && segc_plan_uses_op(p, SEGC_OP_ROOT)) {
		segc_emit_root_helper(b, SEGC_EMIT_PYTHON);
		segc_emit_root_helper(b, SEGC_EMIT_NUMPY);
		em->roots = 1;
	}
	segc_strbuf_appendf(b, "\n\n# The %s of the model, %lu operations:\n",
		component_words[c], p->flops);
	segc_emit_formula_comment(b, em->in, c, e, "#   ");
	segc_strbuf_append(b, "\n");
	segc_emit_bound_text(b, p, em->in, "# ");
	segc_strbuf_appendf(b, "\ndef %s_%s(", em->id.prefix, cname);
	for (i = 0; i < em->in->nargs; i++)
		segc_strbuf_appendf(b, "%s%s", i ? ", " : "", em->id.arg[i]);
	segc_strbuf_appendf(b, "):\n    \"\"\"The %s (at every point of "
		"arrays, given numpy arrays).\"\"\"\n    if _segc_arrays(",
		component_words[c]);
	for (i = 0; i < em->in->nargs; i++)
		segc_strbuf_appendf(b, "%s%s", i ? ", " : "", em->id.arg[i]);
	segc_strbuf_appendf(b, "):\n        return _%s_%s_v(", em->id.prefix,
		cname);
	for (i = 0; i < em->in->nargs; i++)
		segc_strbuf_appendf(b, "%s%s", i ? ", " : "", em->id.arg[i]);
	segc_strbuf_append(b, ")\n");
	for (i = 0; i < em->in->nargs; i++)
		segc_strbuf_appendf(b, "    %s = float(%s)\n", em->id.arg[i],
			em->id.arg[i]);
	rc = segc_emit_walk_block(b, &nm, &segc_emit_py_syntax, 0, 1);
	/* a time proved >= 0: a rounded residue below 0 (or -0.0) is 0 */
	segc_strbuf_append(b, "    return ");
	segc_emit_put_value(b, &nm, p->result);
	if (nm.clamp) {
		segc_strbuf_append(b, " if not ");
		segc_emit_put_value(b, &nm, p->result);
		segc_strbuf_append(b, " <= 0.0 else 0.0");
	}
	segc_strbuf_append(b, "\n");
	fname = segc_xmalloc(strlen(em->id.prefix) + strlen(cname) + 2);
	sprintf(fname, "%s_%s", em->id.prefix, cname);
	segc_emit_python_vector(b, &nm, fname, put_py_double);
	free(fname);
	segc_emit_namer_clear(&nm);
	segc_strbuf_appendf(&em->names, "%s\"%s_%s\"", em->nfuncs ? ", " : "",
		em->id.prefix, cname);
	em->nfuncs++;
	if (rc)
		py_error(em, "cannot emit Python for the %s: its plan holds an "
			"operation the Python printer does not know",
			component_words[c]);
	return rc;
}

/* Renders every function; 0 on success. */
static int render_functions(py_emitter *em)
{
	int c;

	for (c = 0; c < 4; c++) {
		const segc_expr *e = em->in->formulas[c];
		segc_plan *p;
		int rc;

		if (!e || (c && segc_expr_is_zero(e)))
			continue;
		p = segc_plan_build(em->ctx, e, em->in->nargs, em->in->args,
			em->where);
		if (!p)
			return -1;
		rc = put_function(em, c, e, p);
		segc_plan_free(p);
		if (rc)
			return -1;
	}
	return 0;
}

/* The description as '#' comment lines ("#" when there is none). */
static char *description_comment(const char *d)
{
	segc_strbuf b;

	segc_strbuf_init(&b);
	segc_strbuf_append(&b, "#");
	if (d && *d) {
		segc_strbuf_append(&b, "\n");
		segc_emit_comment_text(&b, d, "# ");
	}
	return segc_strbuf_take(&b);
}

/* Fills the template; NULL on error. */
static char *render_module(py_emitter *em, const segc_templates *t)
{
	const char *keys[] = {
		"BASE", "MODEL", "DESCRIPTION", "FUNCTIONS", "FUNC_NAMES",
		"PREFIX"
	};
	const char *values[6];
	char *desc = description_comment(em->in->description);
	char *model = segc_emit_identifier(em->in->model_name);
	char *text;

	values[0] = em->in->base;
	values[1] = model;
	values[2] = desc;
	values[3] = segc_strbuf_str(&em->functions);
	values[4] = segc_strbuf_str(&em->names);
	values[5] = em->id.prefix;
	text = segc_template_fill(em->ctx, t->py_file, "predictor.py.in", 6,
		keys, values);
	free(desc);
	free(model);
	return text;
}

/* Releases what 'em' holds. */
static void py_emitter_clear(py_emitter *em)
{
	segc_emit_names_clear(&em->id, em->in->nargs);
	segc_strbuf_free(&em->functions);
	segc_strbuf_free(&em->names);
}

/* Refuses what the Python module cannot be: no template, --main,
 * double-double, an unsafe file name; 0 when none. */
static int check_input(py_emitter *em, const segc_templates *t)
{
	if (!t->py_file)
		py_error(em, "%s: the templates have no predictor.py.in",
			"python");
	else if (em->in->with_main)
		py_error(em, "%s: a main() is for C only (no --main with "
			"--lang python)", "python");
	else if (em->in->accurate)
		py_error(em, "%s: double-double arithmetic is for C only (no "
			"--accurate with --lang python)", "python");
	else if (!segc_emit_base_is_safe(em->in->base))
		py_error(em, "the file name '%s' may hold only letters, digits "
			"and '_', '-', '.', '+'", em->in->base);
	else
		return 0;
	return -1;
}

/* Renders the Python module of 'in'. */
int segc_emit_render_python(segc_ctx *ctx, const segc_templates *t,
	const segc_emit_input *in, const segc_where *where, char **py_text)
{
	py_emitter em;

	memset(&em, 0, sizeof em);
	em.ctx = ctx;
	em.in = in;
	em.where = where;
	*py_text = NULL;
	segc_strbuf_init(&em.functions);
	segc_strbuf_init(&em.names);
	if (!check_input(&em, t) && !segc_templates_check(ctx, t, in, 1) &&
	    !segc_emit_check_names(ctx, in, where, "Python") &&
	    !segc_emit_names_choose(&em.id, ctx, where, in, py_identifier,
		"Python") && !render_functions(&em))
		*py_text = render_module(&em, t);
	py_emitter_clear(&em);
	return *py_text ? 0 : -1;
}
