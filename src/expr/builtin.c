/* builtin.c - the one table of the built-in functions of the expression
 * language (see builtin.h): every fact about a built-in that the parser,
 * the validator, the algebra and the outputs need, in one row. */
#include <string.h>

#include "expr/builtin.h"

/* log(b, x) = log2(x) / log2(b): the logarithm to the base b, defined
 * by log2 (exact: log2(8) is 3, so log(8, N) is log2(N)/3 once
 * canonical).  Takes the arguments. */
static segc_expr *expand_log(size_t n, segc_expr **args)
{
	(void)n;
	return segc_expr_div2(segc_expr_call1(SEGC_BUILTIN_LOG2, args[1]),
		segc_expr_call1(SEGC_BUILTIN_LOG2, args[0]));
}

/* Shorthands for the rows below. */
#define FN SEGC_BUILTIN_FUNCTION
#define REL SEGC_BUILTIN_RELATION
#define LOGIC SEGC_BUILTIN_LOGIC
#define REC SEGC_BUILTIN_RECURRENCE
/* The id of the row of SEGC_BUILTIN_x. */
#define ID(x) .id = SEGC_BUILTIN_##x
/* The arity: at least 'lo' arguments, at most 'hi' (0: any number). */
#define ARGS(lo, hi) .min_args = (lo), .max_args = (hi)
/* The LaTeX notation: the opening and the closing. */
#define TEX(open, close) .latex = (open), .latex_close = (close)
/* The function called by the emitted predictors, in C, scalar Python,
 * numpy and Fortran. */
#define CALLS(c_, py, np, f90) .c = (c_), .python = (py), .numpy = (np), \
	.fortran = (f90)
/* How it is evaluated: the shape of its operation in the evaluation
 * plan, which every evaluator runs and the predictors lower. */
#define EVAL(e) .eval = SEGC_EVAL_##e
/* Its exact operation (builtin_exact.c). */
#define EXACT(f) .exact = segc_builtin_exact_##f

/* The table, indexed by enum segc_builtin.  A row that leaves a
 * column out has 0 or NULL there. */
static const segc_builtin_info table[SEGC_BUILTIN_COUNT] = {
	[SEGC_BUILTIN_NONE] = { ID(NONE), .kind = FN, EVAL(NONE) },
	[SEGC_BUILTIN_MAX] = { ID(MAX), .name = "max", ARGS(1, 0), .kind = FN,
	  .input = 1, TEX("\\max\\left\\{", "\\right\\}"),
	  CALLS("fmax", "_segc_fmax", "fmax", "segc_fmax"),
	  EVAL(EXTREMUM), .dir = 1, EXACT(extremum) },
	[SEGC_BUILTIN_MIN] = { ID(MIN), .name = "min", ARGS(1, 0), .kind = FN,
	  .input = 1, TEX("\\min\\left\\{", "\\right\\}"),
	  CALLS("fmin", "_segc_fmin", "fmin", "segc_fmin"),
	  EVAL(EXTREMUM), .dir = -1, EXACT(extremum) },
	[SEGC_BUILTIN_CEIL] = { ID(CEIL), .name = "ceil", ARGS(1, 1),
	  .kind = FN, .input = 1, TEX("\\left\\lceil ", " \\right\\rceil"),
	  CALLS("ceil", "_segc_ceil", "ceil", "segc_ceil"),
	  EVAL(ROUND), .dir = 1, EXACT(round) },
	[SEGC_BUILTIN_FLOOR] = { ID(FLOOR), .name = "floor", ARGS(1, 1),
	  .kind = FN, .input = 1, TEX("\\left\\lfloor ", " \\right\\rfloor"),
	  CALLS("floor", "_segc_floor", "floor", "segc_floor"),
	  EVAL(ROUND), .dir = -1, EXACT(round) },
	[SEGC_BUILTIN_LOG2] = { ID(LOG2), .name = "log2", ARGS(1, 1),
	  .kind = FN, .input = 1, TEX("\\log_2\\left(", "\\right)"),
	  CALLS("log2", "_segc_log2", "log2", "segc_log2"),
	  .domain = SEGC_DOMAIN_POSITIVE, EVAL(UNARY),
	  .irr = SEGC_IRR_LOG2, EXACT(log2) },
	[SEGC_BUILTIN_SQRT] = { ID(SQRT), .name = "sqrt", ARGS(1, 1),
	  .kind = FN, .input = 1, TEX("\\sqrt{", "}"),
	  CALLS("sqrt", "_segc_sqrt", "sqrt", "sqrt"),
	  .domain = SEGC_DOMAIN_NONNEG, EVAL(UNARY),
	  .irr = SEGC_IRR_SQRT, EXACT(sqrt) },
	[SEGC_BUILTIN_SUM] = { ID(SUM), .name = "sum", ARGS(4, 4),
	  .kind = SEGC_BUILTIN_BINDER, .input = 1, TEX("\\sum", NULL),
	  EVAL(SUM) },
	[SEGC_BUILTIN_MVA_MEM] = { ID(MVA_MEM), .name = "mva_mem", ARGS(3, 3),
	  .kind = FN, .input = 1, EVAL(MVA), EXACT(mva) },
	[SEGC_BUILTIN_IF] = { ID(IF), .name = "if", ARGS(3, 3),
	  .kind = SEGC_BUILTIN_CONDITIONAL, .input = 1,
	  TEX("\\begin{cases} ", " \\end{cases}"), EVAL(SELECT) },
	[SEGC_BUILTIN_LT] = { ID(LT), .name = "<", ARGS(2, 2), .kind = REL,
	  .input = 1, TEX("<", NULL), .c = "<", EVAL(COMPARE),
	  .holds = 1 },
	[SEGC_BUILTIN_LE] = { ID(LE), .name = "<=", ARGS(2, 2), .kind = REL,
	  .input = 1, TEX("\\le", NULL), .c = "<=", EVAL(COMPARE),
	  .holds = 3 },
	[SEGC_BUILTIN_GT] = { ID(GT), .name = ">", ARGS(2, 2), .kind = REL,
	  .input = 1, TEX(">", NULL), .c = ">", EVAL(COMPARE),
	  .holds = 4 },
	[SEGC_BUILTIN_GE] = { ID(GE), .name = ">=", ARGS(2, 2), .kind = REL,
	  .input = 1, TEX("\\ge", NULL), .c = ">=", EVAL(COMPARE),
	  .holds = 6 },
	[SEGC_BUILTIN_EQ] = { ID(EQ), .name = "==", ARGS(2, 2), .kind = REL,
	  .input = 1, TEX("=", NULL), .c = "==", EVAL(COMPARE),
	  .holds = 2 },
	[SEGC_BUILTIN_NE] = { ID(NE), .name = "!=", ARGS(2, 2), .kind = REL,
	  .input = 1, TEX("\\ne", NULL), .c = "!=", EVAL(COMPARE),
	  .holds = 5 },
	[SEGC_BUILTIN_AND] = { ID(AND), .name = "and", ARGS(2, 0),
	  .kind = LOGIC, .input = 1, TEX(" \\wedge ", NULL), .c = "&&",
	  EVAL(LOGIC) },
	[SEGC_BUILTIN_OR] = { ID(OR), .name = "or", ARGS(2, 0), .kind = LOGIC,
	  .input = 1, TEX(" \\vee ", NULL), .c = "||", EVAL(LOGIC) },
	[SEGC_BUILTIN_NOT] = { ID(NOT), .name = "not", ARGS(1, 1),
	  .kind = LOGIC, .input = 1, TEX("\\neg ", NULL), .c = "!",
	  EVAL(LOGIC) },
	[SEGC_BUILTIN_MAXPLUS] = { ID(MAXPLUS), .name = "maxplus", ARGS(1, 0),
	  .kind = REC, EVAL(MAXPLUS) },
	[SEGC_BUILTIN_MAXPLUSV] = { ID(MAXPLUSV), .name = "maxplusv",
	  ARGS(2, 0), .kind = REC, EVAL(MAXPLUS) },
	[SEGC_BUILTIN_TASKPATH] = { ID(TASKPATH), .name = "taskpath",
	  ARGS(4, 0), .kind = REC, EVAL(TASKPATH) },
	[SEGC_BUILTIN_LOG] = { ID(LOG), .name = "log", ARGS(2, 2), .kind = FN,
	  .input = 1, .expand = expand_log },
	[SEGC_BUILTIN_EXP2] = { ID(EXP2), .name = "exp2", ARGS(1, 1),
	  .kind = FN, .input = 1, TEX("2^{", "}"),
	  CALLS("exp2", "_segc_exp2", "exp2", "segc_exp2"),
	  EVAL(UNARY), EXACT(exp2) }
};

/* The built-in called 'name' (see builtin.h). */
enum segc_builtin segc_builtin_lookup(const char *name)
{
	size_t i;

	if (!name)
		return SEGC_BUILTIN_NONE;
	for (i = 1; i < SEGC_BUILTIN_COUNT; i++)
		if (!strcmp(table[i].name, name))
			return table[i].id;
	return SEGC_BUILTIN_NONE;
}

/* The row of 'id'; the row of NONE for anything out of range. */
const segc_builtin_info *segc_builtin_get(enum segc_builtin id)
{
	return (unsigned)id < SEGC_BUILTIN_COUNT ? &table[id] : &table[0];
}

/* The value of 'id' at 'v' by its row's exact operation. */
int segc_builtin_exact(enum segc_builtin id, mpq_t r, const mpq_t *v,
	size_t n)
{
	const segc_builtin_info *b = segc_builtin_get(id);

	return b->exact ? b->exact(b, r, v, n) : -1;
}

/* 2 for a square root, 0 for log2, -1 otherwise. */
int segc_builtin_root(enum segc_builtin id)
{
	switch (segc_builtin_get(id)->irr) {
	case SEGC_IRR_SQRT:
		return 2;
	case SEGC_IRR_LOG2:
		return 0;
	default:
		return -1;
	}
}

/* The truth of the relation 'id' at the comparison 'c'. */
int segc_builtin_relation_holds(enum segc_builtin id, int c)
{
	const segc_builtin_info *b = segc_builtin_get(id);

	if (b->kind != SEGC_BUILTIN_RELATION)
		return -1;
	return (int)(b->holds >> (c < 0 ? 0 : c == 0 ? 1 : 2)) & 1;
}

/* The name of 'id'. */
const char *segc_builtin_name(enum segc_builtin id)
{
	return segc_builtin_get(id)->name;
}

/* Non-zero when 'n' arguments suit 'id'. */
int segc_builtin_arity_ok(enum segc_builtin id, size_t n)
{
	const segc_builtin_info *b = segc_builtin_get(id);

	return n >= b->min_args && (!b->max_args || n <= b->max_args);
}

/* Non-zero when 'e' is a call of 'id'. */
int segc_expr_is_builtin(const segc_expr *e, enum segc_builtin id)
{
	return e && id != SEGC_BUILTIN_NONE && segc_expr_builtin(e) == id;
}

/* The meaning of the call of 'name' on 'args' (see builtin.h). */
int segc_builtin_expand(segc_expr **out, const char *name, size_t n,
	segc_expr **args)
{
	enum segc_builtin id = segc_builtin_lookup(name);
	const segc_builtin_info *b = segc_builtin_get(id);

	if (!b->expand || !segc_builtin_arity_ok(id, n))
		return 0;
	*out = b->expand(n, args);
	return 1;
}

/* The call of 'id' on 'args'. */
segc_expr *segc_expr_call_builtin(enum segc_builtin id, size_t n,
	segc_expr **args)
{
	return segc_expr_call(segc_builtin_name(id), n, args);
}

/* The call of 'id' on 'a'. */
segc_expr *segc_expr_call1(enum segc_builtin id, segc_expr *a)
{
	return segc_expr_call_builtin(id, 1, &a);
}
