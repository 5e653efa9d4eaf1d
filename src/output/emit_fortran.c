/* emit_fortran.c - the predictor of a model as a Fortran 2008 module
 * (segc emit --lang fortran): the functions of the C predictor, with its
 * names, each printed from the same evaluation plan (plan.c) as the
 * statements of a 'pure elemental' function (so that arrays work as
 * they do in Fortran), and beside each a scalar 'bind(c)' entry of the
 * C predictor's name and prototype.  Every number is the double the C
 * uses; ceil, floor, log2, fmax and fmin are C's own (<math.h> through
 * bind(c) interfaces), so the values are those of the C.  The body is
 * printed by the walk that the languages share (emit_walk.c), the
 * recurrence of an overlapped loop, the C's loop, by emit_maxplus.c,
 * both from this file's table of Fortran (segc_emit_f_syntax); the
 * declarations at the top of each function are this file's. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "output/emit_private.h"
#include "expr/builtin.h"

/* The longest name Fortran 2008 allows. */
#define F_NAME_MAX 63


/* ------------------------------------------------------------- names */

/* Names an argument must not take (compared without case, as Fortran
 * does): the intrinsic procedures and modules the module uses, its own
 * helpers and result, and the statement keywords (legal names in
 * Fortran, but confusing ones). */
static const char *const f_reserved[] = {
	"abs", "sqrt", "c_double", "iso_c_binding",
	"ieee_arithmetic", "ieee_is_nan", "ieee_value", "ieee_quiet_nan",
	"ieee_is_finite", "ieee_negative_inf", "segc_acc", "segc_r",
	"segc_ceil", "segc_floor", "segc_log2", "segc_exp2", "segc_fmax",
	"segc_fmin", "segc_cbrt", "segc_pow", "segc_root", "scale", "exponent",
	"real", "logical", "integer", "function", "end", "if",
	"then", "else", "do", "while", "module", "use", "contains",
	"implicit", "none", "private", "public", "pure", "elemental",
	"result", "intent", "value", "parameter", "interface", "import",
	"bind", "program", "subroutine", "call", "return",
	/* what the walk of a task graph uses */
	"allocatable", "allocate", "deallocate", "allocated", "block",
	"exit", "cycle", "huge", "int", "max", "min", "mod", "size", "stat",
	"intrinsic", "only", "name", "true", "false", NULL
};

/* Non-zero when 'name' is reserved in the module (without case). */
static int f_is_reserved(const char *name)
{
	size_t i;

	for (i = 0; f_reserved[i]; i++)
		if (!strcasecmp(f_reserved[i], name))
			return 1;
	return 0;
}

/* 'name' as in the C predictor, then given a trailing '_' while Fortran
 * reserves it (malloc'd).  The C name starts with a letter. */
static char *f_identifier(const char *name)
{
	char *c = segc_emit_identifier(name);
	segc_strbuf b;

	segc_strbuf_init(&b);
	segc_strbuf_append(&b, c);
	free(c);
	while (f_is_reserved(segc_strbuf_str(&b)))
		segc_strbuf_appendc(&b, '_');
	return segc_strbuf_take(&b);
}

/* ------------------------------------------------ the table of Fortran */

/* Appends 'd' as a Fortran literal of kind c_double that reads back
 * exactly (the shortest of 15 to 17 significant digits). */
static void put_f_double(segc_strbuf *b, double d)
{
	char buf[64];
	int prec;

	for (prec = 15; prec < 17; prec++) {
		snprintf(buf, sizeof buf, "%.*g", prec, d);
		if (strtod(buf, NULL) == d)
			break;
	}
	snprintf(buf, sizeof buf, "%.*g", prec, d);
	segc_strbuf_append(b, buf);
	if (!strpbrk(buf, ".e"))
		segc_strbuf_append(b, ".0");
	segc_strbuf_append(b, "_c_double");
}

/* The syntax of Fortran for the printers that the languages share: the
 * walk of a plan (emit_walk.c: every value declared at the top of the
 * function, the constants as parameters; a selection always an if, each
 * side's computations done only on that side, no merge(), which
 * computes both) and the recurrence of an overlapped loop
 * (emit_maxplus.c: its locals in a BLOCK construct, arrays from 0,
 * -infinity computed once into a local, its long lines continued).  NaN
 * from ieee_value, every real constant of kind c_double, no == on reals,
 * and the helper segc_acc a pure subroutine of the module. */
const segc_emit_syntax segc_emit_f_syntax = {
	.indent = "  ", .semi = "", .decl = "",
	.decl_end = " = ieee_value(0.0_c_double, ieee_quiet_nan)\n",
	.ul = "", .real = "_c_double", .zero = "0.0_c_double",
	.and_ = " .and. ", .and_cont = " .and. &\n", .or_ = " .or. ",
	.isfinite = "ieee_is_finite(", .floor = "segc_floor(", .if_ = "if (",
	.elif = "else if (", .then = ") then\n", .then1 = ") &\n",
	.then_else = ") then\n", .else1 = "else\n", .end = "end if\n",
	.end_else = "end if\n", .not_all = "if (.not. (.true.",
	.not_all_end = ")) then\n", .comment = "! ", .comment_end = "",
	.incr = " = %s7 + 1", .brk = "exit", .minus_inf = "%s17",
	.nan = "ieee_value(0.0_c_double, ieee_quiet_nan)",
	.sub_open = "(", .sub_sep = ", ", .sub_close = ")",
	.mod_open = "mod(", .mod_sep = ", ", .mod_close = ")",
	.acc = "call segc_acc(%h, %l, ",
	.helper = "\n  ! hi + lo + c, the time stamps of an overlapped loop "
		"carried as\n  ! double-doubles: into hi the double nearest the "
		"sum, into lo what it\n  ! leaves (TwoSum, then FastTwoSum); an "
		"infinite sum stays infinite.\n  pure subroutine segc_acc(hi, "
		"lo, c)\n    real(c_double), intent(inout) :: hi, lo\n    "
		"real(c_double), intent(in) :: c\n    real(c_double) :: s, t, e"
		"\n\n    s = hi + c\n    if (.not. ieee_is_finite(s)) then\n"
		"      hi = s\n      lo = 0.0_c_double\n      return\n    end "
		"if\n    t = s - hi\n    e = ((hi - (s - t)) + (c - t)) + lo\n"
		"    hi = s + e\n    lo = e - (hi - s)\n  end subroutine "
		"segc_acc\n",
	.step = "%s2 = %s2 + 1.0_c_double", .while_ = "do while (",
	.while_end = ")\n", .loop_end = "end do\n", .typed = 1,
	.block_open = "block\n", .block_close = "end block\n",
	.t_real = "real(c_double) :: ", .t_count = "integer :: ",
	.t_bool = "logical :: ", .dims2 = "(0:%lu, 0:%lu)", .dims1 = "(0:%lu)",
	.dims_last = 1, .decl_init = 0,
	.inf_init = "ieee_value(0.0_c_double, ieee_negative_inf)", .nocase = 1,
	.decl_first = 0, .decl_top = 1,
	.const_ = "real(c_double), parameter :: ", .const_note = " ! ",
	.put_double = put_f_double,
	.call_col = offsetof(segc_builtin_info, fortran), .not_ = ".not. ",
	.ne_open = ".not. (",
	.div = NULL, .root = "segc_root(", .else_ = "else\n",
	.ternary_q = NULL, .short_junction = 1, .for_ = NULL,
	.add_assign = 0,
	.neumaier = "%iif (abs(%s) >= abs(%t)) then\n"
		"%j%c = %c + ((%s - (%s + %t)) + %t)\n%ielse\n"
		"%j%c = %c + ((%t - (%s + %t)) + %s)\n%iend if\n",
	.taskpath = segc_emit_taskpath_f, .wrap = segc_emit_f_wrapped
};

/* Non-zero when value 'i' of 'p' is the counter of a maxplusv that
 * nothing but the loop itself reads (it is then never set). */
static int unread_counter(const segc_plan *p, size_t i)
{
	size_t j;

	if (p->insn[i].op != SEGC_OP_COUNTER || p->insn[i].uses > 1)
		return 0;
	for (j = 0; j < p->n; j++)
		if (p->insn[j].uses && p->insn[j].op == SEGC_OP_MAXPLUS &&
		    p->insn[j].mp->varying && p->insn[j].counter == i)
			return 1;
	return 0;
}

/* Appends the declarations of the function of plan 'nm->p' at depth 2:
 * its constants as parameters (the exact value in a comment), then its
 * logical and real locals; every value is declared at the top, as
 * Fortran wants, whatever block computes it. */
static void put_declarations(segc_strbuf *b, const segc_emit_namer *nm)
{
	const segc_plan *p = nm->p;
	size_t i;

	for (i = 0; i < p->n; i++) {
		const segc_plan_insn *in = &p->insn[i];

		if (in->uses && in->op == SEGC_OP_CONST)
			segc_emit_walk_const(b, nm, &segc_emit_f_syntax, i, 2);
	}
	for (i = 0; i < p->n; i++) {
		const segc_plan_insn *in = &p->insn[i];

		if (!in->uses || in->op == SEGC_OP_CONST || in->op == SEGC_OP_ARG ||
		    unread_counter(p, i))
			continue;
		segc_strbuf_append(b, "    ");
		segc_emit_walk_type(b, nm, &segc_emit_f_syntax, i);
		segc_emit_put_value(b, nm, i);
		segc_strbuf_appendc(b, '\n');
	}
	for (i = 0; i < p->n; i++)
		if (p->insn[i].uses && p->insn[i].op == SEGC_OP_SUM) {
			segc_strbuf_appendf(b, "    %s",
				segc_emit_f_syntax.t_real);
			segc_emit_walk_compensation(b, nm, i);
			segc_strbuf_appendc(b, '\n');
		}
}

/* ------------------------------------------------------- the module */

/* The state of one rendering. */
typedef struct f_emitter {
	segc_ctx *ctx;
	const segc_emit_input *in;
	const segc_where *where;
	segc_emit_names id;   /* Fortran names of functions, arguments, locals */
	char *module;         /* the module's: the prefix, made unreserved */
	segc_strbuf functions, publics;
	int accumulates;      /* the helper segc_acc is printed: a function
	                       * holds an overlapped loop's recurrence */
	int roots;            /* segc_root is defined */
} f_emitter;

static const char *const component_words[4] = {
	"total time", "computation time", "communication time",
	"input and output time"
};

/* Records an error at the emitter's place. */
static void f_error(f_emitter *em, const char *fmt, const char *name)
{
	const segc_where *w = em->where;

	segc_error(em->ctx, SEGC_ERR_INPUT, w ? w->file : NULL, w ? w->line : 0,
		w ? w->col : 0, fmt, name);
}

/* The column the last line of 'b' has reached. */
static size_t column(segc_strbuf *b)
{
	const char *s = segc_strbuf_str(b), *nl = strrchr(s, '\n');

	return strlen(nl ? nl + 1 : s);
}

/* Appends the argument names "a, b, ...", continued with '&' before a
 * line would pass 100 columns (Fortran's limit is 132). */
static void put_names(f_emitter *em, segc_strbuf *b)
{
	size_t i;

	for (i = 0; i < em->in->nargs; i++) {
		if (i)
			segc_strbuf_append(b, ",");
		if (i && column(b) + strlen(em->id.arg[i]) > 100)
			segc_strbuf_append(b, " &\n      ");
		else if (i)
			segc_strbuf_appendc(b, ' ');
		segc_strbuf_append(b, em->id.arg[i]);
	}
}

/* Appends the argument list "(a, b, ...)". */
static void put_arglist(f_emitter *em, segc_strbuf *b)
{
	segc_strbuf_appendc(b, '(');
	put_names(em, b);
	segc_strbuf_appendc(b, ')');
}

/* Appends the declaration of the arguments, of the attributes 'attr'. */
static void put_arg_decl(f_emitter *em, segc_strbuf *b, const char *attr)
{
	segc_strbuf_appendf(b, "    real(c_double), %s :: ", attr);
	put_names(em, b);
	segc_strbuf_appendc(b, '\n');
}

/* Appends the elemental function of component 'c' from its plan and its
 * bind(c) entry; -1 when the plan holds what the printer cannot
 * express. */
static int put_function(f_emitter *em, int c, const segc_expr *e,
	const segc_plan *p)
{
	const char *cname = segc_component_name((enum segc_component)c);
	segc_strbuf *b = &em->functions;
	segc_emit_namer nm;
	int *used = segc_xcalloc(p->nargs + 1, sizeof *used);
	size_t i;
	int rc;

	segc_emit_namer_init(&nm, p, &em->id, 0,
		segc_emit_nonneg(em->ctx, em->in, e));
	if (!em->accumulates && segc_plan_uses_op(p, SEGC_OP_MAXPLUS)) {
		segc_emit_maxplus_helper(b, &segc_emit_f_syntax);
		em->accumulates = 1;
	}
	if (!em->roots && segc_plan_uses_op(p, SEGC_OP_ROOT)) {
		segc_emit_root_helper(b, SEGC_EMIT_FORTRAN);
		em->roots = 1;
	}
	segc_strbuf_appendf(b, "\n  ! The %s of the model, %lu operations:\n",
		component_words[c], p->flops);
	segc_emit_formula_comment(b, em->in, c, e, "  !   ");
	segc_strbuf_append(b, "\n");
	segc_emit_bound_text(b, p, em->in, "  ! ");
	segc_strbuf_appendf(b, "  pure elemental function %s_%s",
		em->id.prefix, cname);
	put_arglist(em, b);
	segc_strbuf_append(b, " &\n      result(segc_r)\n");
	put_arg_decl(em, b, "intent(in)");
	segc_strbuf_append(b, "    real(c_double) :: segc_r\n");
	put_declarations(b, &nm);
	segc_strbuf_appendc(b, '\n');
	for (i = 0; i < p->n; i++)
		if (p->insn[i].op == SEGC_OP_ARG && p->insn[i].uses)
			used[p->insn[i].a] = 1;
	/* an argument the formula does not use, used where it costs
	 * nothing (no -Wunused-dummy-argument) */
	for (i = 0; i < p->nargs; i++)
		if (!used[i])
			segc_strbuf_appendf(b, "    if (.false.) segc_r = %s\n",
				em->id.arg[i]);
	free(used);
	rc = segc_emit_walk_block(b, &nm, &segc_emit_f_syntax, 0, 2);
	segc_strbuf_append(b, "    segc_r = ");
	if (nm.clamp) {
		/* a time proved >= 0: a rounded residue below 0 (or -0.0)
		 * is 0; NaN stays */
		segc_strbuf_append(b, "0.0_c_double\n    if (");
		segc_emit_put_value(b, &nm, p->result);
		segc_strbuf_append(b, " > 0.0_c_double .or. ieee_is_nan(");
		segc_emit_put_value(b, &nm, p->result);
		segc_strbuf_append(b, ")) segc_r = ");
		segc_emit_put_value(b, &nm, p->result);
		segc_strbuf_appendc(b, '\n');
	} else {
		segc_emit_put_value(b, &nm, p->result);
		segc_strbuf_appendc(b, '\n');
	}
	segc_strbuf_appendf(b, "  end function %s_%s\n", em->id.prefix, cname);
	segc_emit_namer_clear(&nm);
	/* the scalar entry for C */
	segc_strbuf_appendf(b, "\n  ! %s_%s for C: double %s_%s(double, ...)"
		", as the C predictor's.\n", em->id.prefix, cname,
		em->id.prefix, cname);
	segc_strbuf_appendf(b, "  pure function %s_%s_c", em->id.prefix, cname);
	put_arglist(em, b);
	segc_strbuf_appendf(b, " &\n      bind(c, name='%s_%s') result(segc_r)\n",
		em->id.prefix, cname);
	put_arg_decl(em, b, "value, intent(in)");
	segc_strbuf_append(b, "    real(c_double) :: segc_r\n\n");
	segc_strbuf_appendf(b, "    segc_r = %s_%s", em->id.prefix, cname);
	put_arglist(em, b);
	segc_strbuf_appendf(b, "\n  end function %s_%s_c\n", em->id.prefix,
		cname);
	segc_strbuf_appendf(&em->publics, "  public :: %s_%s, %s_%s_c\n",
		em->id.prefix, cname, em->id.prefix, cname);
	if (rc)
		f_error(em, "cannot emit Fortran for the %s: its plan holds an "
			"operation the Fortran printer does not know",
			component_words[c]);
	return rc;
}

/* Renders every function; 0 on success. */
static int render_functions(f_emitter *em)
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

/* The helpers of the module: C's ceil, floor, log2, exp2, fmax, fmin, cbrt
 * and pow
 * through bind(c) interfaces, so the values are the C predictor's. */
static const char f_helpers[] =
	"  interface\n"
	"    pure function segc_ceil(x) bind(c, name='ceil') result(r)\n"
	"      import :: c_double\n"
	"      real(c_double), value, intent(in) :: x\n"
	"      real(c_double) :: r\n"
	"    end function segc_ceil\n"
	"    pure function segc_floor(x) bind(c, name='floor') result(r)\n"
	"      import :: c_double\n"
	"      real(c_double), value, intent(in) :: x\n"
	"      real(c_double) :: r\n"
	"    end function segc_floor\n"
	"    pure function segc_log2(x) bind(c, name='log2') result(r)\n"
	"      import :: c_double\n"
	"      real(c_double), value, intent(in) :: x\n"
	"      real(c_double) :: r\n"
	"    end function segc_log2\n"
	"    pure function segc_exp2(x) bind(c, name='exp2') result(r)\n"
	"      import :: c_double\n"
	"      real(c_double), value, intent(in) :: x\n"
	"      real(c_double) :: r\n"
	"    end function segc_exp2\n"
	"    pure function segc_fmax(x, y) bind(c, name='fmax') result(r)\n"
	"      import :: c_double\n"
	"      real(c_double), value, intent(in) :: x, y\n"
	"      real(c_double) :: r\n"
	"    end function segc_fmax\n"
	"    pure function segc_fmin(x, y) bind(c, name='fmin') result(r)\n"
	"      import :: c_double\n"
	"      real(c_double), value, intent(in) :: x, y\n"
	"      real(c_double) :: r\n"
	"    end function segc_fmin\n"
	"    pure function segc_cbrt(x) bind(c, name='cbrt') result(r)\n"
	"      import :: c_double\n"
	"      real(c_double), value, intent(in) :: x\n"
	"      real(c_double) :: r\n"
	"    end function segc_cbrt\n"
	"    pure function segc_pow(x, y) bind(c, name='pow') result(r)\n"
	"      import :: c_double\n"
	"      real(c_double), value, intent(in) :: x, y\n"
	"      real(c_double) :: r\n"
	"    end function segc_pow\n"
	"  end interface\n";

/* Fills the module; NULL on error. */
static char *render_module(f_emitter *em)
{
	char *model = segc_emit_identifier(em->in->model_name);
	segc_strbuf b;

	segc_strbuf_init(&b);
	segc_strbuf_appendf(&b, "! %s.f90 - timing predictor of the model '%s',"
		" generated by segc\n! (segc emit --lang fortran) from the "
		"model's derived formulas; regenerate it\n! rather than edit "
		"it.\n", em->in->base, model);
	if (em->in->description && *em->in->description) {
		segc_strbuf_append(&b, "!\n");
		segc_emit_comment_text(&b, em->in->description, "! ");
		segc_strbuf_appendc(&b, '\n');
	}
	segc_strbuf_appendf(&b, "!\n"
		"! Fortran 2008.  Each function is pure and elemental (given "
		"arrays, it\n! computes every element); beside each, a scalar "
		"entry NAME_c is the\n! C predictor's function of the same "
		"name for C (bind(c)).  Each\n! coefficient is the double "
		"nearest to the exact rational written beside\n! it; each "
		"function evaluates the plan of the C predictor, operation for"
		"\n! operation, and gives its values (compile without "
		"-ffast-math, and\n! with -ffp-contract=off where the machine "
		"has a fused multiply-add).\nmodule %s\n"
		"  use, intrinsic :: iso_c_binding, only: c_double\n"
		"  use, intrinsic :: ieee_arithmetic, only: ieee_is_nan, "
		"ieee_value, &\n      ieee_quiet_nan%s\n"
		"  implicit none\n  private\n%s\n%s\ncontains\n%s\nend module %s\n",
		em->module, em->accumulates ? ", ieee_is_finite, "
		"ieee_negative_inf" : "", segc_strbuf_str(&em->publics), f_helpers,
		segc_strbuf_str(&em->functions), em->module);
	free(model);
	return segc_strbuf_take(&b);
}

/* Makes the names of 'em->id' distinct in Fortran, which ignores case:
 * the module is named by the prefix (with a trailing '_' when Fortran
 * reserves it, as 'merge' or 'abs'); an argument that meets an earlier
 * one, the module or a function gets trailing '_'; the prefixes of the locals meet no argument.  -1 (an
 * error) when a name is longer than Fortran allows. */
static int fortran_names(f_emitter *em)
{
	static const char *const comps[] = { "total", "comp", "comm", "io" };
	size_t n = em->in->nargs, i, j, k;
	char **lower = segc_xcalloc(n + 1, sizeof *lower);
	char buf[2 * F_NAME_MAX + 16];
	int clash, rc = 0;

	if (strlen(em->id.prefix) + strlen("_total_c") > F_NAME_MAX) {
		f_error(em, "the prefix '%s' is too long for Fortran (63 "
			"characters with '_total_c'; give --prefix)",
			em->id.prefix);
		free(lower);
		return -1;
	}
	em->module = f_identifier(em->id.prefix);
	for (i = 0; i < n; i++) {
		do {
			clash = !strcasecmp(em->id.arg[i], em->module);
			for (j = 0; j < i && !clash; j++)
				clash = !strcasecmp(em->id.arg[i], em->id.arg[j]);
			for (k = 0; k < 4 && !clash; k++) {
				snprintf(buf, sizeof buf, "%s_%s", em->id.prefix,
					comps[k]);
				clash = !strcasecmp(em->id.arg[i], buf);
				strcat(buf, "_c");
				clash = clash || !strcasecmp(em->id.arg[i], buf);
			}
			if (clash) {
				size_t len = strlen(em->id.arg[i]);

				em->id.arg[i] = segc_xrealloc(em->id.arg[i],
					len + 2);
				strcpy(em->id.arg[i] + len, "_");
			}
		} while (clash);
		if (strlen(em->id.arg[i]) > F_NAME_MAX && !rc) {
			f_error(em, "the argument '%s' is too long for Fortran "
				"(63 characters)", em->id.arg[i]);
			rc = -1;
		}
		lower[i] = segc_xmalloc(strlen(em->id.arg[i]) + 1);
		for (j = 0; em->id.arg[i][j]; j++)
			lower[i][j] = (char)(em->id.arg[i][j] >= 'A' &&
				em->id.arg[i][j] <= 'Z' ? em->id.arg[i][j] -
				'A' + 'a' : em->id.arg[i][j]);
		lower[i][j] = '\0';
	}
	free(em->id.tprefix);
	free(em->id.cprefix);
	free(em->id.kprefix);
	em->id.tprefix = segc_emit_local_prefix(lower, n, 't');
	em->id.cprefix = segc_emit_local_prefix(lower, n, 'c');
	em->id.kprefix = segc_emit_local_prefix(lower, n, 'k');
	for (i = 0; i < n; i++)
		free(lower[i]);
	free(lower);
	return rc;
}

/* Refuses what the Fortran module cannot be: --main, double-double, an
 * unsafe file name; 0 when none. */
static int check_input(f_emitter *em)
{
	if (em->in->with_main)
		f_error(em, "%s: a main() is for C only (no --main with "
			"--lang fortran)", "fortran");
	else if (em->in->accurate)
		f_error(em, "%s: double-double arithmetic is for C only (no "
			"--accurate with --lang fortran)", "fortran");
	else if (!segc_emit_base_is_safe(em->in->base))
		f_error(em, "the file name '%s' may hold only letters, digits "
			"and '_', '-', '.', '+'", em->in->base);
	else
		return 0;
	return -1;
}

/* Renders the Fortran module of 'in'. */
int segc_emit_render_fortran(segc_ctx *ctx, const segc_emit_input *in,
	const segc_where *where, char **f_text)
{
	f_emitter em;

	memset(&em, 0, sizeof em);
	em.ctx = ctx;
	em.in = in;
	em.where = where;
	*f_text = NULL;
	segc_strbuf_init(&em.functions);
	segc_strbuf_init(&em.publics);
	if (!check_input(&em) &&
	    !segc_emit_check_names(ctx, in, where, "Fortran") &&
	    !segc_emit_names_choose(&em.id, ctx, where, in, f_identifier,
		"Fortran") && !fortran_names(&em) && !render_functions(&em))
		*f_text = render_module(&em);
	segc_emit_names_clear(&em.id, in->nargs);
	free(em.module);
	segc_strbuf_free(&em.functions);
	segc_strbuf_free(&em.publics);
	return *f_text ? 0 : -1;
}
