/* emit_private.h - what the pieces of the emitter share (emit.c: the
 * functions and the files of the C; emit_names.c: identifiers and
 * comments; emit_walk.c: a plan printed as statements, in the language
 * of a syntax table; emit_plan.c: C's table and forms; emit_python.c:
 * the Python module; emit_fortran.c: the Fortran module). */
#ifndef SEGC_EMIT_PRIVATE_H
#define SEGC_EMIT_PRIVATE_H

#include "output/output.h"

/* The names a predictor is written with, whatever its language. */
typedef struct segc_emit_names {
	char *prefix;         /* of its functions */
	char **arg;           /* of its arguments */
	char *tprefix;        /* of its temporaries */
	char *cprefix;        /* of its constants */
	char *kprefix;        /* of its loop counters */
} segc_emit_names;

/* Chooses the names of the predictor of 'in': the prefix, the arguments
 * (each made an identifier of the language by 'ident') and the prefixes
 * of the locals, which no argument name can meet.  -1, with an error at
 * 'w' naming 'lang', when two arguments end up with the same name.
 * Release with segc_emit_names_clear() either way. */
int segc_emit_names_choose(segc_emit_names *n, segc_ctx *ctx,
	const segc_where *w, const segc_emit_input *in,
	char *(*ident)(const char *), const char *lang);

/* Releases what 'n' (chosen for 'nargs' arguments) holds. */
void segc_emit_names_clear(segc_emit_names *n, size_t nargs);

/* Names of the values of one plan. */
typedef struct segc_emit_namer {
	const segc_plan *p;
	char **arg;           /* C names of the arguments */
	const char *tprefix;  /* temporaries */
	const char *cprefix;  /* constants */
	const char *kprefix;  /* loop counters */
	size_t *number;       /* per value: its number among temps/consts */
	size_t ncounters;     /* counters numbered; a loop's compensation
	                       * (plain C, Python) is numbered after them */
	int accurate;         /* double-double values */
	unsigned char *dd;    /* with 'accurate', per value: non-zero when
	                       * it is a double-double (emit_dd.c); else
	                       * NULL */
	int clamp;            /* the result is proved >= 0: a rounded value
	                       * below 0 (or -0.0) is returned as 0 */
	struct segc_emit_packs *packs; /* --accurate: chains computed side
	                       * by side (emit_pack.c); NULL when none */
} segc_emit_namer;

/* Sets up 'nm' to name the values of plan 'p' by the names 'id' (with
 * 'accurate', in double-doubles where they need them; 'clamp' when the
 * result is proved >= 0): numbers its values and marks its double-doubles
 * (emit_names.c).  Release with segc_emit_namer_clear(). */
void segc_emit_namer_init(segc_emit_namer *nm, const segc_plan *p,
	const segc_emit_names *id, int accurate, int clamp);

/* Releases what 'nm' holds: its numbers, its marks and its packs. */
void segc_emit_namer_clear(segc_emit_namer *nm);

/* Chains "v = v*x + c" of constants in one argument x, of one length,
 * computed side by side in --accurate C (emit_pack.c); or, nested, chains
 * in x whose coefficients c are each the result of a chain of constants
 * in an argument y (all of one length), computed first in lanes laid out
 * as the outer chains read them. */
typedef struct segc_emit_pack {
	size_t x;             /* the ARG instruction they multiply by */
	size_t len;           /* values of each chain, the first a CONST
	                       * (nested: an inner chain's result) */
	size_t n;             /* chains */
	size_t *val;          /* n * len: chain k's values, first to last */
	size_t *cst;          /* n * len: their constants (cst[0] = val[0]);
	                       * nested: the inner chains' results */
	size_t y;             /* nested: the ARG of the inner chains; else
	                       * (size_t)-1 */
	size_t ilen;          /* nested: values of each inner chain */
	size_t *ival;         /* nested: n * len * ilen: the inner chain of
	                       * coefficient s of chain k, first to last */
	size_t *icst;         /* nested: their constants */
} segc_emit_pack;

/* The roles of the values of a plan in the packs. */
enum { SEGC_PACK_HIDDEN = 1, SEGC_PACK_OUT = 2 };

/* The packs of one plan. */
typedef struct segc_emit_packs {
	size_t n;
	segc_emit_pack *g;
	const char *cname;    /* the component, in the helpers' names */
	unsigned char *role;  /* per value: 0, SEGC_PACK_HIDDEN (computed in
	                       * a pack, not printed) or SEGC_PACK_OUT (a
	                       * chain's result, read from its lane) */
	size_t *group, *lane; /* per SEGC_PACK_OUT value: where it is */
} segc_emit_packs;

/* Finds the chains of 'nm->p' (--accurate only) worth computing side by
 * side into 'nm->packs' (NULL when none), their helpers named after the
 * component 'cname'.  Release with segc_emit_pack_free(). */
void segc_emit_pack_find(segc_emit_namer *nm, const char *cname);

/* Releases 'nm->packs'. */
void segc_emit_pack_free(segc_emit_namer *nm);

/* Appends the helpers that compute the packs of 'nm' (before the body). */
void segc_emit_pack_helpers(segc_strbuf *b, const segc_emit_namer *nm);

/* Appends the declarations of the body that call the helpers. */
void segc_emit_pack_decls(segc_strbuf *b, const segc_emit_namer *nm);

/* The role of value 'i' in the packs of 'nm' (0 for none). */
int segc_emit_pack_role(const segc_emit_namer *nm, size_t i);

/* Appends the lane that holds the SEGC_PACK_OUT value 'i'. */
void segc_emit_pack_put_out(segc_strbuf *b, const segc_emit_namer *nm,
	size_t i);

/* The constant 'i' of 'nm->p' as a pair: its double and the double
 * nearest to what it leaves (0 for a constant that is a double). */
void segc_emit_const_pair(const segc_emit_namer *nm, size_t i, double *hi,
	double *lo);

/* Appends 'd' as a C double literal that reads back exactly. */
void segc_emit_put_double(segc_strbuf *b, double d);

/* Marks in 'nm->dd' the values of 'nm->p' that are double-doubles in
 * --accurate C, those that may carry a rounding error (emit_dd.c); NULL
 * without --accurate.  Release with free(). */
void segc_emit_mark_dd(segc_emit_namer *nm);

/* Non-zero when value 'i' is a double-double (an operand read by its
 * high part where a double is wanted). */
int segc_emit_is_dd(const segc_emit_namer *nm, size_t i);

/* Appends the name of value 'i' of 'nm->p' (an argument's, or its kind's
 * prefix and its number), the same in every language. */
void segc_emit_put_value(segc_strbuf *b, const segc_emit_namer *nm,
	size_t i);

/* The row of the built-in whose function the instruction 'op' calls
 * (SEGC_OP_CEIL .. SEGC_OP_FMIN): its columns name that function in
 * each language. */
const struct segc_builtin_info *segc_emit_op_builtin(enum segc_plan_op op);

/* Non-zero when the formula 'e' of 'in' is proved >= 0 by the domains
 * of its arguments (its result may then be clamped at 0). */
int segc_emit_nonneg(segc_ctx *ctx, const segc_emit_input *in,
	const segc_expr *e);

/* Appends 'text' to a C comment, made safe, its lines started by
 * 'lead'. */
void segc_emit_comment_text(segc_strbuf *b, const char *text,
	const char *lead);

/* Appends the formula 'e' of component 'c' of 'in' to a comment, its
 * lines started by 'lead': with named parts and a line "where NAME =
 * VALUE" for each name it uses when 'in' has them (emit --where). */
void segc_emit_formula_comment(segc_strbuf *b, const segc_emit_input *in,
	int c, const segc_expr *e, const char *lead);

/* Appends the array form '_NAME_v' of the Python function 'fname' of
 * plan 'nm->p': numpy operations on whole arrays, or np.vectorize of the
 * scalar function for a plan with a loop (emit_python_np.c); 'put_const'
 * prints a float literal. */
void segc_emit_python_vector(segc_strbuf *b, const segc_emit_namer *nm,
	const char *fname, void (*put_const)(segc_strbuf *, double));

/* Appends the sentence on the relative error of plan 'p' of 'in' (a
 * bound, or why none is proved), as comment lines started by 'lead'. */
void segc_emit_bound_text(segc_strbuf *b, const segc_plan *p,
	const segc_emit_input *in, const char *lead);

/* Numbers the constants, temporaries and counters of 'nm->p' (fills
 * 'nm->number', malloc'd). */
void segc_emit_number_values(segc_emit_namer *nm);

/* Appends the body statements of the plan 'nm->p', return included. */
void segc_emit_plan_body(segc_strbuf *b, const segc_emit_namer *nm);

/* Reports every unbound name and uninterpreted call of the formulas of
 * 'in' as what keeps them from being emitted in 'lang' ("C"); 0 when
 * there is none, else -1. */
int segc_emit_check_names(segc_ctx *ctx, const segc_emit_input *in,
	const segc_where *w, const char *lang);

/* A prefix for numbered locals ('first', repeated as needed) that no
 * name of 'arg' is followed by digits only (malloc'd). */
char *segc_emit_local_prefix(char *const *arg, size_t nargs, char first);

/* Non-zero when the file base 'base' holds letters, digits and "_-.+"
 * only (and is not empty). */
int segc_emit_base_is_safe(const char *base);

/* The syntax of an output language for the printers that the languages
 * share: the walk of a plan's blocks (emit_walk.c) and the recurrence of
 * an overlapped loop (emit_maxplus.c); the pieces their statements are
 * made of, and the hooks where a language prints something its own way.
 * Each language's file defines its own (segc_emit_c_syntax in
 * emit_plan.c, segc_emit_py_syntax in emit_python.c, segc_emit_f_syntax
 * in emit_fortran.c).  A piece of the recurrence said to be a format
 * names its locals as %s (their prefix followed by their number). */
typedef struct segc_emit_syntax {
	const char *indent;       /* one level of indentation */
	const char *semi;         /* ends a simple statement */
	const char *decl;         /* starts a declaration of a double (or,
	                           * where values are declared at the top
	                           * of the function, an assignment) */
	const char *decl_end;     /* ends the result's, with its first value */
	const char *ul;           /* suffix of an integer constant */
	const char *real;         /* suffix of a real constant ("2.0") */
	const char *zero;         /* 0 as a double */
	const char *and_;         /* the conjunction of two conditions */
	const char *and_cont;     /* the same, continued on the next line */
	const char *or_;          /* the disjunction of two conditions */
	const char *isfinite;     /* opens the test of a finite number */
	const char *floor;        /* opens floor() */
	const char *if_;          /* opens the condition of an if */
	const char *elif;         /* opens the condition of an else-if */
	const char *then;         /* ends a condition before a block */
	const char *then1;        /* ends a condition before one statement */
	const char *then_else;    /* ends a condition before one statement
	                           * that an else-if follows */
	const char *else1;        /* ends a block, starts an else of one
	                           * statement */
	const char *end;          /* ends a block (NULL: indentation does) */
	const char *end_else;     /* ends an if after the one statement of
	                           * its else (NULL: nothing does) */
	const char *not_all;      /* opens "not (true and ...)" */
	const char *not_all_end;  /* closes it before a block */
	const char *comment;      /* opens a comment of one line */
	const char *comment_end;  /* closes it */
	const char *incr;         /* after a counter: adds 1 to it (a
	                           * format) */
	const char *brk;          /* leaves the loop */
	const char *minus_inf;    /* -infinity (a format) */
	const char *nan;          /* NaN */
	const char *sub_open;     /* an element: sub_open, the ring slot, */
	const char *sub_sep;      /* sub_sep, the node, sub_close (one */
	const char *sub_close;    /* index: sub_open, it, sub_close) */
	const char *mod_open;     /* the remainder of a by b: mod_open, */
	const char *mod_sep;      /* a, mod_sep, b, mod_close */
	const char *mod_close;
	const char *acc;          /* opens the call of the helper that adds a
	                           * cost to a double-double (a format: %h
	                           * and %l its high and low parts); the
	                           * cost and ")" follow */
	const char *helper;       /* that helper, printed once per file */
	const char *step;         /* NULL: the loop is a for; else the loop
	                           * is a while and this format the
	                           * statement that ends each iteration */
	const char *while_;       /* opens the condition of the while */
	const char *while_end;    /* closes it */
	const char *loop_end;     /* ends the loop (NULL: indentation does) */
	int typed;                /* the locals are declared, with their
	                           * types, in a block of their own; else
	                           * they are assigned */
	const char *block_open;   /* typed: opens the block of the locals */
	const char *block_close;  /* typed: closes it */
	const char *t_real;       /* typed: declares doubles */
	const char *t_count;      /* typed: declares integer counters */
	const char *t_bool;       /* typed: declares conditions */
	const char *dims2;        /* typed: the dimensions of an array of */
	const char *dims1;        /* two, of one (printf formats of unsigned
	                           * longs) */
	int dims_last;            /* they take the last index (from 0), else
	                           * the count */
	int decl_init;            /* typed: first values in the declarations;
	                           * else statements after them (a declared
	                           * value would make a Fortran local saved) */
	const char *inf_init;     /* NULL, or the first value of the local
	                           * %s17 that minus_inf names */
	int nocase;               /* names are compared without case */

	/* The walk of a plan's blocks (emit_walk.c). */
	int decl_first;           /* typed: a block declares its values
	                           * before its first statement (C90): those
	                           * after the first if or loop are declared
	                           * at its top and assigned in place */
	int decl_top;             /* typed: every value is declared at the
	                           * top of the function, its constants
	                           * there too; the walk assigns */
	const char *t_dd;         /* typed: the type of a double-double */
	const char *const_;       /* starts a constant's definition (its
	                           * type follows where the values are
	                           * declared in place) */
	const char *const_note;   /* between a constant's literal and its
	                           * exact value, which comment_end closes */
	void (*put_double)(segc_strbuf *b, double d); /* a double literal
	                           * that reads back exactly */
	size_t call_col;          /* offsetof(segc_builtin_info, COLUMN):
	                           * the column naming the built-ins'
	                           * functions in the language */
	const char *not_;         /* the negation of a condition */
	const char *not_close;    /* NULL, or closes it */
	const char *ne_open;      /* opens the negation of a parenthesized
	                           * conjunction (a != b is not (a <= b and
	                           * a >= b)); ")" closes it */
	const char *infix_open;   /* NULL, or what encloses an infix */
	const char *infix_close;  /* operation (its close) */
	const char *call_prefix;  /* NULL, or what precedes the name of a
	                           * function called */
	const char *and_fn;       /* NULL: a and b (and_, or_); else the */
	const char *or_fn;        /* functions called instead */
	const char *div;          /* NULL: a / b; else the function that
	                           * divides (its name) */
	const char *root;         /* opens the call of the helper of odd
	                           * roots (emit_root.c): a, q and ")"
	                           * follow */
	const char *else_;        /* ends a block, starts an else block */
	const char *ternary_q;    /* NULL, or a choice between two values
	                           * with nothing to compute on either side */
	const char *ternary_colon;/* as an expression: c ternary_q x
	                           * ternary_colon y */
	int short_junction;       /* an and/or whose right side has nothing
	                           * to compute is one expression (and_,
	                           * or_), else always an if */
	const char *for_;         /* NULL: a sum's loop is a while (while_,
	                           * while_end, its counter raised at the
	                           * end of the body); else it opens C's
	                           * for (counter = first; test; counter
	                           * += 1) */
	int add_assign;           /* "x += y"; else "x = x + y" */
	const char *neumaier;     /* the step of Neumaier's compensation
	                           * of a sum (a format: %c the
	                           * compensation, %s the sum, %t the term,
	                           * %i the indentation, %j one level more) */
	const char *dd_open;      /* a double made a double-double: dd_open, */
	const char *dd_close;     /* the double, dd_close */
	/* the double-double expression of 'op' on values 'x' and 'y' (y read
	 * when 'op' has two operands); NULL where no value is one */
	void (*dd_op)(segc_strbuf *b, const segc_emit_namer *nm,
		enum segc_plan_op op, size_t x, size_t y);
	/* appends the constant 'i', a double-double, as a literal (NULL
	 * where no value is one) */
	void (*dd_const)(segc_strbuf *b, const segc_emit_namer *nm, size_t i);
	/* appends the TASKPATH 'i' at 'depth' (with 'assign', its result
	 * declared before) */
	void (*taskpath)(segc_strbuf *b, const segc_emit_namer *nm, size_t i,
		unsigned depth, int assign);
	/* NULL, or appends the statements 'text' of a recurrence continued
	 * where their lines are too long for the language */
	void (*wrap)(segc_strbuf *b, const char *text);
} segc_emit_syntax;

extern const segc_emit_syntax segc_emit_c_syntax, segc_emit_py_syntax,
	segc_emit_f_syntax;

/* Appends the statements of block 'blk' of 'nm->p' at 'depth' in the
 * language of 'sx', in the order of their values: constants, one value
 * per operation, selections and junctions as ifs, sums as loops
 * (emit_walk.c); -1 when one cannot be expressed. */
int segc_emit_walk_block(segc_strbuf *b, const segc_emit_namer *nm,
	const segc_emit_syntax *sx, size_t blk, unsigned depth);

/* Appends the expression of the operation 'i' of 'nm->p' (not a
 * constant, an argument, a selection nor a loop) in doubles in the
 * language of 'sx' (emit_walk.c); -1 for one the walk does not know. */
int segc_emit_walk_expr(segc_strbuf *b, const segc_emit_namer *nm,
	const segc_emit_syntax *sx, size_t i);

/* Appends the definition of the constant 'i' of 'nm->p' at 'depth' in
 * the language of 'sx': its literal, its exact value in a comment
 * (emit_walk.c). */
void segc_emit_walk_const(segc_strbuf *b, const segc_emit_namer *nm,
	const segc_emit_syntax *sx, size_t i, unsigned depth);

/* Appends the type of value 'i' of 'nm->p' in the language of 'sx' (a
 * typed one): a condition's, a double-double's or a double's. */
void segc_emit_walk_type(segc_strbuf *b, const segc_emit_namer *nm,
	const segc_emit_syntax *sx, size_t i);

/* Appends the name of the compensation of the SUM 'i' of 'nm->p': a
 * counter's name, numbered after the counters (emit_walk.c). */
void segc_emit_walk_compensation(segc_strbuf *b, const segc_emit_namer *nm,
	size_t i);

/* Appends the MAXPLUS 'i' of 'nm->p' as the statements of its loop in the
 * language of 'sx' at 'depth' (with 'assign', its result declared before
 * at the top of the block), the block of the costs of each iteration
 * (maxplusv) printed by segc_emit_walk_block() (emit_maxplus.c); -1 when
 * that block cannot be expressed. */
int segc_emit_maxplus(segc_strbuf *b, const segc_emit_namer *nm, size_t i,
	unsigned depth, const segc_emit_syntax *sx, int assign);

/* Appends the helper that the recurrences of overlapped loops call to
 * add a cost to a time stamp carried as a double-double (segc_acc in C
 * and Fortran, _segc_acc in Python), in the language of 'sx'
 * (emit_maxplus.c). */
void segc_emit_maxplus_helper(segc_strbuf *b, const segc_emit_syntax *sx);

/* The languages of the helpers printed once per file. */
enum segc_emit_lang {
	SEGC_EMIT_C, SEGC_EMIT_PYTHON, SEGC_EMIT_NUMPY, SEGC_EMIT_FORTRAN
};

/* Appends the helper that computes an odd root x^(1/q) to within about
 * half an ulp (segc_root in C and Fortran, _segc_root and, over numpy
 * arrays, _segc_root_v in Python), in 'lang' (emit_root.c). */
void segc_emit_root_helper(segc_strbuf *b, enum segc_emit_lang lang);

/* Appends the TASKPATH 'i' of 'nm->p' as C statements at 'depth' (with
 * 'assign', its result declared before): loops over the instances of
 * its indexed nodes (emit_taskpath.c). */
void segc_emit_taskpath_c(segc_strbuf *b, const segc_emit_namer *nm,
	size_t i, unsigned depth, int assign);

/* The same as Python statements at 'depth', the result assigned
 * whatever 'assign' (emit_taskpath_py.c). */
void segc_emit_taskpath_py(segc_strbuf *b, const segc_emit_namer *nm,
	size_t i, unsigned depth, int assign);

/* The same as Fortran statements at 'depth', in a BLOCK construct of
 * their own, the result declared at the top of the function whatever
 * 'assign' (emit_taskpath_f.c). */
void segc_emit_taskpath_f(segc_strbuf *b, const segc_emit_namer *nm,
	size_t i, unsigned depth, int assign);

/* Appends the Fortran statements 'text' with every line longer than 100
 * columns continued with '&' at a blank (the lines hold no strings; a
 * comment line is left as it is), so that none passes Fortran's 132
 * (emit_fortran_lines.c). */
void segc_emit_f_wrapped(segc_strbuf *b, const char *text);

#endif
