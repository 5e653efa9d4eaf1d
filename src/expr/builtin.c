/* builtin.c - the one table of the built-in functions of the expression
 * language (see builtin.h): every fact about a built-in that the parser,
 * the validator, the algebra and the outputs need, in one row. */
#include <string.h>

#include "expr/builtin.h"

/* Shorthands for the rows below. */
#define FN SEGC_BUILTIN_FUNCTION
#define REL SEGC_BUILTIN_RELATION
#define LOGIC SEGC_BUILTIN_LOGIC

/* The table, in the order of enum segc_builtin. */
static const segc_builtin_info table[SEGC_BUILTIN_COUNT] = {
	{ SEGC_BUILTIN_NONE, NULL, 0, 0, FN, 0, NULL, NULL, NULL,
	  SEGC_PLAN_NONE, SEGC_EVAL_NONE },
	{ SEGC_BUILTIN_MAX, "max", 1, 0, FN, 1, "\\max\\left\\{",
	  "\\right\\}", "fmax", SEGC_PLAN_EXTREMUM, SEGC_EVAL_EXTREMUM },
	{ SEGC_BUILTIN_MIN, "min", 1, 0, FN, 1, "\\min\\left\\{",
	  "\\right\\}", "fmin", SEGC_PLAN_EXTREMUM, SEGC_EVAL_EXTREMUM },
	{ SEGC_BUILTIN_CEIL, "ceil", 1, 1, FN, 1, "\\left\\lceil ",
	  " \\right\\rceil", "ceil", SEGC_PLAN_UNARY, SEGC_EVAL_ROUND },
	{ SEGC_BUILTIN_FLOOR, "floor", 1, 1, FN, 1, "\\left\\lfloor ",
	  " \\right\\rfloor", "floor", SEGC_PLAN_UNARY, SEGC_EVAL_ROUND },
	{ SEGC_BUILTIN_LOG2, "log2", 1, 1, FN, 1, "\\log_2\\left(",
	  "\\right)", "log2", SEGC_PLAN_UNARY, SEGC_EVAL_LOG2 },
	{ SEGC_BUILTIN_SQRT, "sqrt", 1, 1, FN, 1, "\\sqrt{", "}", "sqrt",
	  SEGC_PLAN_UNARY, SEGC_EVAL_SQRT },
	{ SEGC_BUILTIN_SUM, "sum", 4, 4, SEGC_BUILTIN_BINDER, 1, "\\sum",
	  NULL, NULL, SEGC_PLAN_SUM, SEGC_EVAL_SUM },
	{ SEGC_BUILTIN_MVA_MEM, "mva_mem", 3, 3, FN, 1, NULL, NULL, NULL,
	  SEGC_PLAN_MVA, SEGC_EVAL_MVA },
	{ SEGC_BUILTIN_IF, "if", 3, 3, SEGC_BUILTIN_CONDITIONAL, 1,
	  "\\begin{cases} ", " \\end{cases}", NULL, SEGC_PLAN_SELECT,
	  SEGC_EVAL_SELECT },
	{ SEGC_BUILTIN_LT, "<", 2, 2, REL, 1, "<", NULL, "<",
	  SEGC_PLAN_CONDITION, SEGC_EVAL_COMPARE },
	{ SEGC_BUILTIN_LE, "<=", 2, 2, REL, 1, "\\le", NULL, "<=",
	  SEGC_PLAN_CONDITION, SEGC_EVAL_COMPARE },
	{ SEGC_BUILTIN_GT, ">", 2, 2, REL, 1, ">", NULL, ">",
	  SEGC_PLAN_CONDITION, SEGC_EVAL_COMPARE },
	{ SEGC_BUILTIN_GE, ">=", 2, 2, REL, 1, "\\ge", NULL, ">=",
	  SEGC_PLAN_CONDITION, SEGC_EVAL_COMPARE },
	{ SEGC_BUILTIN_EQ, "==", 2, 2, REL, 1, "=", NULL, "==",
	  SEGC_PLAN_CONDITION, SEGC_EVAL_COMPARE },
	{ SEGC_BUILTIN_NE, "!=", 2, 2, REL, 1, "\\ne", NULL, "!=",
	  SEGC_PLAN_CONDITION, SEGC_EVAL_COMPARE },
	{ SEGC_BUILTIN_AND, "and", 2, 0, LOGIC, 1, " \\wedge ", NULL, "&&",
	  SEGC_PLAN_CONDITION, SEGC_EVAL_LOGIC },
	{ SEGC_BUILTIN_OR, "or", 2, 0, LOGIC, 1, " \\vee ", NULL, "||",
	  SEGC_PLAN_CONDITION, SEGC_EVAL_LOGIC },
	{ SEGC_BUILTIN_NOT, "not", 1, 1, LOGIC, 1, "\\neg ", NULL, "!",
	  SEGC_PLAN_CONDITION, SEGC_EVAL_LOGIC },
	{ SEGC_BUILTIN_MAXPLUS, "maxplus", 1, 0, SEGC_BUILTIN_RECURRENCE, 0,
	  NULL, NULL, NULL, SEGC_PLAN_REFUSE, SEGC_EVAL_MAXPLUS },
	{ SEGC_BUILTIN_MAXPLUSV, "maxplusv", 2, 0, SEGC_BUILTIN_RECURRENCE, 0,
	  NULL, NULL, NULL, SEGC_PLAN_REFUSE, SEGC_EVAL_MAXPLUS },
	{ SEGC_BUILTIN_TASKPATH, "taskpath", 4, 0, SEGC_BUILTIN_RECURRENCE,
	  0, NULL, NULL, NULL, SEGC_PLAN_TASKPATH, SEGC_EVAL_TASKPATH }
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
