/* segc.h - public interface of libsegc: software execution graphs to exact
 * timing formulas.
 *
 * Ownership, the one rule of the whole API: a function returning a pointer
 * GIVEs the caller a new reference, which the caller releases with the
 * matching _free; an argument marked SEGC_TAKE is consumed by the call (also
 * when the call fails); an argument marked SEGC_KEEP is only borrowed.
 * Expressions are immutable and shared: segc_expr_copy() takes one more
 * reference in constant time.
 *
 * The library never prints to the terminal and never exits: failures are
 * recorded in a segc_ctx (code, location, message) and the function returns
 * NULL or a non-zero status.
 *
 * This header is the core: context, expressions, domains, canonical form.
 * The rest of the interface has one header a concern, each including this
 * one: <segc/segc_model.h> (reading, validating, deriving), <segc/check.h>
 * (comparing two formulas), <segc/latex.h>, <segc/emit.h> (the C
 * predictor), <segc/eval.h> (MPFR evaluation), <segc/plot.h>,
 * <segc/dot.h>, <segc/fit.h> and <segc/analysis.h>.
 *
 * Only what the headers declare with SEGC_API is exported by the shared
 * library. */
#ifndef SEGC_H
#define SEGC_H

#include <stddef.h>
#include <stdio.h>
#include <gmp.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Ownership marks: documentation the compiler sees (see above).  An
 * output argument (a pointer the call writes through) is marked SEGC_KEEP:
 * the call borrows it, and what it stores there is GIVEn when the comment
 * says so. */
#define SEGC_GIVE
#define SEGC_TAKE
#define SEGC_KEEP

/* Marks a function of the public interface: exported from the shared
 * library, which is compiled with every other symbol hidden. */
#if defined(__GNUC__) || defined(__clang__)
#define SEGC_API __attribute__((visibility("default")))
#else
#define SEGC_API
#endif

/* ---------------------------------------------------------------- context */

/* Error classes; the command's exit codes are the same numbers. */
enum segc_status {
	SEGC_OK = 0,
	SEGC_ERR_INPUT = 2,    /* bad XML, expression or semantics */
	SEGC_ERR_LIMIT = 3,    /* an explicit internal limit was reached */
	SEGC_ERR_INTERNAL = 4  /* a broken invariant: a bug in segc */
};

/* One recorded diagnostic.  'file' may be NULL (no file concerned); 'line'
 * and 'col' are 0 where unknown. */
typedef struct segc_diag {
	enum segc_status code;
	const char *file;
	unsigned long line;
	unsigned long col;
	const char *message;
} segc_diag;

/* Limits on everything the input controls.  segc_ctx_new() sets the
 * defaults listed in doc/limits.md; the caller may change them. */
typedef struct segc_limits {
	unsigned long max_file_bytes;    /* size of an XML document */
	unsigned long max_depth;         /* nesting of XML elements and blocks */
	unsigned long max_nodes;         /* graph nodes after lowering */
	unsigned long max_terms;         /* terms of one polynomial */
	unsigned long max_literal_digits;/* digits of a number literal */
	unsigned long max_coeff_bits;    /* bits of one coefficient */
	long max_exponent;               /* |exponent| of a power */
	unsigned long max_sum_degree;    /* degree of a summed polynomial */
	unsigned long max_markov_states; /* states of a Markov chain */
	unsigned long max_errors;        /* diagnostics kept before giving up */
	unsigned long max_mva_p;         /* processors in mva_mem */
	unsigned long max_output_nodes;  /* nodes of a formula written out */
	unsigned long max_work;          /* polynomial arithmetic per context */
	unsigned long max_eval_terms;    /* terms of sums one evaluation adds */
	unsigned long max_memory;        /* bytes of memory (0: automatic) */
} segc_limits;

/* The largest max_depth and max_literal_digits that take effect; larger
 * settings count as these (doc/limits.md).  Expressions nested
 * max_depth deep are walked recursively, and the stack must hold that
 * (about 370 bytes a level); a literal's exponent (up to ten times
 * max_literal_digits) must stay a number GMP can make. */
#define SEGC_MAX_DEPTH_CEILING 20000UL
#define SEGC_MAX_LITERAL_DIGITS_CEILING 1000000UL

typedef struct segc_ctx segc_ctx;

SEGC_API SEGC_GIVE segc_ctx *segc_ctx_new(void);
SEGC_API void segc_ctx_free(SEGC_TAKE segc_ctx *ctx);
SEGC_API segc_limits *segc_ctx_limits(SEGC_KEEP segc_ctx *ctx);
/* Records a diagnostic (printf-style message).  'file' is copied. */
SEGC_API void segc_error(SEGC_KEEP segc_ctx *ctx, enum segc_status code,
	const char *file, unsigned long line, unsigned long col,
	const char *fmt, ...)
#ifdef __GNUC__
	__attribute__((format(printf, 6, 7)))
#endif
	;
SEGC_API size_t segc_ctx_n_diags(SEGC_KEEP const segc_ctx *ctx);
SEGC_API const segc_diag *segc_ctx_diag(SEGC_KEEP const segc_ctx *ctx,
	size_t i);
/* The source line 'line' of the document 'text' ('len' bytes) and under
 * it a caret at character column 'col', as two lines each ending in a
 * newline, malloc'd: a tab stays a tab in both, so that the caret lines
 * up; a character that is not printable is shown as '?'; a long line is
 * cut to the characters around the column.  NULL when the line is not
 * there or 'line' or 'col' is 0. */
SEGC_API SEGC_GIVE char *segc_source_excerpt(const char *text, size_t len, unsigned long line,
	unsigned long col);
/* The same from the file 'path', read up to the end of that line only;
 * NULL when it cannot be read. */
SEGC_API SEGC_GIVE char *segc_source_excerpt_file(const char *path, unsigned long line,
	unsigned long col);
/* The most severe code recorded so far (SEGC_OK when none). */
SEGC_API enum segc_status segc_ctx_status(SEGC_KEEP const segc_ctx *ctx);
/* Non-zero once max_errors diagnostics are recorded: stop early. */
SEGC_API int segc_ctx_full(SEGC_KEEP const segc_ctx *ctx);
SEGC_API void segc_ctx_clear(SEGC_KEEP segc_ctx *ctx);
/* The units of polynomial arithmetic (about one limb product each) spent
 * through 'ctx' since it was made or cleared; bounded by max_work. */
SEGC_API unsigned long long segc_ctx_work(SEGC_KEEP const segc_ctx *ctx);

/* Threads.  The library keeps no mutable state shared between threads:
 * the expression store and the count of polynomial memory are the
 * calling thread's own, a context is used by one thread at a time, and
 * the memory policy below is set once, before threads start.  So two
 * threads may read and derive models at once, each with its own context;
 * an expression, or a model, machine or bindings holding expressions,
 * must stay in the thread that made it.
 *
 * Releases the calling thread's store of expressions, the blocks of
 * large polynomials it keeps for reuse (a few megabytes at most), and
 * the caches that FLINT and MPFR keep for the thread (flint_cleanup(),
 * which frees only the calling thread's caches).  Call once at the end
 * of the thread (or of the program), after every expression it made has
 * been freed. */
SEGC_API void segc_library_cleanup(void);

/* Memory policy, the one of the whole library.  The memory of a document
 * is bounded by max_memory: by default (0) SEGC_MEMORY_FLOOR bytes plus
 * SEGC_MEMORY_PER_BYTE times the bytes of the documents read through the
 * context (doc/limits.md).  It is enforced in two ways:
 *  - the polynomials of the canonical form, the one structure whose size
 *    may grow faster than the input (an exponent per atom and term), are
 *    charged against it: past half of it the formula is refused with a
 *    SEGC_ERR_LIMIT diagnostic that names max_memory;
 *  - every allocation of the library (and, once segc_memory_guard() is
 *    called, of GMP, MPFR and libxml2) that fails goes to one failure
 *    path: the out-of-memory handler, then abort() if there is none or it
 *    returns.  The library itself never exits: by default it aborts, as
 *    GMP does, since a failure to allocate cannot be reported through a
 *    context that itself needs memory.
 * No code of the library tests an allocation for NULL or reports one as a
 * limit: the limits the input controls (max_nodes, max_markov_states,
 * max_work ...; doc/limits.md) are checked before the work grows, and
 * reported as SEGC_ERR_LIMIT diagnostics.
 * A program that wants a clean refusal instead calls segc_memory_guard()
 * once, first thing: it installs 'handler' (which should report and exit,
 * as the segc command does with status 3), routes the allocations of GMP
 * (hence MPFR) and libxml2 through the same failure path, and from then on
 * limits the address space of the process (setrlimit RLIMIT_AS) to what
 * it uses at that time, plus 16 MiB for the stack, plus the budget of the
 * last context that read a document, so that running short of memory is an allocation failure and
 * not the kernel's out-of-memory killer.  Under AddressSanitizer, which
 * reserves terabytes of shadow memory, the address space is not limited.
 * The limit never raises one the process already had. */
#define SEGC_MEMORY_FLOOR (1024UL * 1024 * 1024)
#define SEGC_MEMORY_PER_BYTE 64UL
typedef void (*segc_oom_handler)(size_t request);
SEGC_API void segc_memory_guard(segc_oom_handler handler);
/* The budget in bytes that segc_memory_guard() enforces now (0: none). */
SEGC_API unsigned long segc_memory_budget(void);
/* The memory budget of 'ctx' in bytes: max_memory, or the default above
 * for the documents it read so far. */
SEGC_API unsigned long segc_ctx_memory(SEGC_KEEP const segc_ctx *ctx);

/* ------------------------------------------------------------- expressions */

/* An expression: an immutable, hash-consed tree.  Two expressions built from
 * the same parts are the same pointer, so structural equality is pointer
 * equality.  Constructors normalise only lightly and deterministically
 * (documented per constructor); full simplification is segc_canonical(). */
typedef struct segc_expr segc_expr;

enum segc_expr_kind {
	SEGC_NUM,   /* exact rational */
	SEGC_SYM,   /* a name */
	SEGC_ADD,   /* n >= 2 terms */
	SEGC_MUL,   /* n >= 2 factors */
	SEGC_POW,   /* base ^ exponent (exponent an expression) */
	SEGC_CALL,  /* name(args...): built-in or uninterpreted function */
	SEGC_SUM    /* sum(var, lo, hi, body): args are lo, hi, body */
};

/* Constructors.  add: flattens nested ADDs, adds all number terms into one
 * placed first if the first term is a number (1 - p), else last, drops 0; one term left gives that term, none gives 0.
 * mul: flattens nested MULs, multiplies number factors into one placed
 * first, drops 1; a zero factor gives 0.  pow: x^1 = x, x^0 = 1, number^int
 * folded, (x^a)^b = x^(a*b) for integers a, b.  Other than that, argument
 * order is kept: the structural shape stays as built.  A nested sum or
 * product of more than 4096 operands is kept nested rather than
 * flattened, so that shared formulas cannot grow exponentially. */
SEGC_API SEGC_GIVE segc_expr *segc_expr_num(const mpq_t q);
SEGC_API SEGC_GIVE segc_expr *segc_expr_int(long v);
SEGC_API SEGC_GIVE segc_expr *segc_expr_rat(long num, unsigned long den);
SEGC_API SEGC_GIVE segc_expr *segc_expr_sym(const char *name);
SEGC_API SEGC_GIVE segc_expr *segc_expr_add(size_t n,
	SEGC_TAKE segc_expr **terms);
SEGC_API SEGC_GIVE segc_expr *segc_expr_mul(size_t n,
	SEGC_TAKE segc_expr **factors);
SEGC_API SEGC_GIVE segc_expr *segc_expr_add2(SEGC_TAKE segc_expr *a,
	SEGC_TAKE segc_expr *b);
SEGC_API SEGC_GIVE segc_expr *segc_expr_sub2(SEGC_TAKE segc_expr *a,
	SEGC_TAKE segc_expr *b);
SEGC_API SEGC_GIVE segc_expr *segc_expr_mul2(SEGC_TAKE segc_expr *a,
	SEGC_TAKE segc_expr *b);
/* a/b, built as a * b^-1. */
SEGC_API SEGC_GIVE segc_expr *segc_expr_div2(SEGC_TAKE segc_expr *a,
	SEGC_TAKE segc_expr *b);
/* -a: a number negated; a product with a leading number gets it negated;
 * otherwise (-1)*a. */
SEGC_API SEGC_GIVE segc_expr *segc_expr_neg(SEGC_TAKE segc_expr *a);
SEGC_API SEGC_GIVE segc_expr *segc_expr_pow(SEGC_TAKE segc_expr *base,
	SEGC_TAKE segc_expr *exponent);
SEGC_API SEGC_GIVE segc_expr *segc_expr_powi(SEGC_TAKE segc_expr *base, long e);
SEGC_API SEGC_GIVE segc_expr *segc_expr_call(const char *name, size_t n,
	SEGC_TAKE segc_expr **args);
SEGC_API SEGC_GIVE segc_expr *segc_expr_sum(const char *var,
	SEGC_TAKE segc_expr *lo,
	SEGC_TAKE segc_expr *hi, SEGC_TAKE segc_expr *body);

SEGC_API SEGC_GIVE segc_expr *segc_expr_copy(SEGC_KEEP const segc_expr *e);
SEGC_API void segc_expr_free(SEGC_TAKE segc_expr *e);

/* Accessors; all borrow.  name: of a SYM, CALL or SUM (its variable).
 * nargs/arg: children of ADD, MUL, CALL; POW has (base, exponent); SUM has
 * (lo, hi, body).  value: the rational of a NUM. */
SEGC_API enum segc_expr_kind segc_expr_kind(SEGC_KEEP const segc_expr *e);
SEGC_API const char *segc_expr_name(SEGC_KEEP const segc_expr *e);
SEGC_API size_t segc_expr_nargs(SEGC_KEEP const segc_expr *e);
SEGC_API segc_expr *segc_expr_arg(SEGC_KEEP const segc_expr *e, size_t i);
SEGC_API mpq_srcptr segc_expr_value(SEGC_KEEP const segc_expr *e);
/* A hash of the structure, equal for equal expressions, stable across
 * runs (no addresses). */
SEGC_API unsigned long segc_expr_hash(SEGC_KEEP const segc_expr *e);
/* A total, deterministic structural order (no addresses): <0, 0, >0. */
SEGC_API int segc_expr_cmp(SEGC_KEEP const segc_expr *a,
	SEGC_KEEP const segc_expr *b);
SEGC_API int segc_expr_is_num(SEGC_KEEP const segc_expr *e);
SEGC_API int segc_expr_is_zero(SEGC_KEEP const segc_expr *e);
SEGC_API int segc_expr_is_one(SEGC_KEEP const segc_expr *e);
/* Non-zero when 'name' occurs free in 'e' (SUM binds its variable). */
SEGC_API int segc_expr_has_sym(SEGC_KEEP const segc_expr *e, const char *name);
/* 'e' with every free occurrence of 'name' replaced by 'value'. */
SEGC_API SEGC_GIVE segc_expr *segc_expr_subst(SEGC_TAKE segc_expr *e,
	const char *name,
	SEGC_KEEP segc_expr *value);
/* 'e' with the terms that have a factor names[k] collected, in the order
 * of 'names': names[0]*(c0) + names[1]*(c1) + ... + (rest), each
 * coefficient and the rest tidied as the structural form is; a name no
 * term has a factor of is left out (found[k] 0; 'found' may be NULL).
 * Equal to 'e' at every point: only identities are used (sums, products,
 * integer powers, sum() and if() split by linearity; other calls and
 * negative powers kept whole in the rest). */
SEGC_API SEGC_GIVE segc_expr *segc_collect(SEGC_KEEP const segc_expr *e,
	size_t n, const char *const *names, unsigned *found);
/* Number of distinct nodes of the DAG below 'e'. */
SEGC_API size_t segc_expr_size(SEGC_KEEP const segc_expr *e);
/* Number of nodes of 'e' written out as a tree (shared nodes counted at
 * each occurrence), saturating at 'cap'. */
SEGC_API size_t segc_expr_tree_size(SEGC_KEEP const segc_expr *e, size_t cap);

/* Where an expression's text stands, for error messages: the document, the
 * line of the element, and a phrase naming the element and attribute
 * ("attribute 'cost' of <step>").  If 'col' is non-zero the text starts at
 * that column of 'line'; else the position inside the value is reported in
 * the message ("at column K of the value"). */
typedef struct segc_where {
	const char *file;
	unsigned long line;
	unsigned long col;
	const char *what;
} segc_where;

/* Parses the expression language of FORMAT.md section 2.  Numbers are
 * exact.  Applies the constructors' light normalisation.  Does not check
 * names or arities.  On error records every located diagnostic in 'ctx'
 * and returns NULL.  'where' may be NULL. */
SEGC_API SEGC_GIVE segc_expr *segc_expr_parse(SEGC_KEEP segc_ctx *ctx,
	const char *text,
	const segc_where *where);

/* Prints 'e' in the expression language, on one line, fully parenthesised
 * where needed, so that segc_expr_parse() gives back the same expression.
 * The result is malloc'd; free() it. */
SEGC_API char *segc_expr_to_string(SEGC_KEEP const segc_expr *e);
/* The same, the nodes of a longest path taskpath(...) of 'n' nodes named
 * by 'ids' (the model's node ids, segc_model_task_node) instead of v1,
 * v2, ... where each is a name that reads back as one; the text parses
 * to the same expression. */
SEGC_API char *segc_expr_to_string_nodes(SEGC_KEEP const segc_expr *e,
	const char *const *ids, size_t n);
SEGC_API int segc_expr_print(FILE *out, SEGC_KEEP const segc_expr *e);

/* ---------------------------------------------------------------- domains */

/* What simplification may assume about names: a box of constant bounds and
 * integrality.  Names not in the set are unconstrained. */
typedef struct segc_domains segc_domains;

SEGC_API SEGC_GIVE segc_domains *segc_domains_new(void);
SEGC_API void segc_domains_free(SEGC_TAKE segc_domains *d);
/* Declares 'name': 'min'/'max' may be NULL (unbounded). Redeclaring
 * replaces. */
SEGC_API void segc_domains_set(SEGC_KEEP segc_domains *d, const char *name,
	mpq_srcptr min, mpq_srcptr max, int integer);
/* Looks 'name' up: returns 0 if unknown; else sets the pointers (NULL where
 * unbounded) and returns 1. */
SEGC_API int segc_domains_get(SEGC_KEEP const segc_domains *d, const char *name,
	mpq_srcptr *min, mpq_srcptr *max, int *integer);

/* -------------------------------------------------------------- canonical */

/* The canonical form of 'e' under 'dom' (which may be NULL): a rational
 * function over atoms (names, and kernels with canonical arguments),
 * expanded, like terms merged, numerator and denominator reduced by their
 * gcd, in a deterministic order; kernels simplified where the domains prove
 * it (FORMAT.md section 6); sums with polynomial bodies in closed form;
 * mva_mem unrolled.  Equal formulas give the same pointer.  Uninterpreted
 * calls stay.  Returns NULL with a diagnostic on failure (division by zero,
 * a non-integer exponent: SEGC_ERR_INPUT; a limit: SEGC_ERR_LIMIT). */
SEGC_API SEGC_GIVE segc_expr *segc_canonical(SEGC_KEEP segc_ctx *ctx,
	SEGC_KEEP const segc_domains *dom, SEGC_TAKE segc_expr *e);
/* segc_collect with each coefficient and the rest in the readable form on
 * 'dom' (segc_derive_readable): t_flop*(2*N/P) and t_flop*(N/P) from two
 * parts of the formula give 3*N/P*t_flop.  Equal to 'e' on 'dom'. */
SEGC_API SEGC_GIVE segc_expr *segc_collect_readable(SEGC_KEEP segc_ctx *ctx,
	SEGC_KEEP const segc_domains *dom, SEGC_KEEP const segc_expr *e,
	size_t n, const char *const *names, unsigned *found);
/* Named subexpressions, for the "where" lines under a formula: lhs[i],
 * a name or a call name(i, ...) of the counters of the sums around it,
 * stands for rhs[i], which may use the names defined after it. */
typedef struct segc_where_list {
	size_t n;
	segc_expr **lhs;
	segc_expr **rhs;
} segc_where_list;
/* Names offered to named subexpressions: names[i] for a part whose
 * canonical form (on the domains used) is values[i]. */
typedef struct segc_where_hints {
	size_t n;
	const char *const *names;
	segc_expr *const *values;
} segc_where_hints;
/* Releases the expressions and arrays of 'l' and empties it. */
SEGC_API void segc_where_list_clear(segc_where_list *l);

/* What the declared domains prove about the sign of 'e': a set of the
 * bits below, 0 when nothing is proved (also when 'e' has no canonical
 * form; nothing is recorded in 'ctx' then, whose limits apply). */
enum {
	SEGC_PROVED_NONNEG = 1, SEGC_PROVED_NONPOS = 2,
	SEGC_PROVED_POS = 4, SEGC_PROVED_NEG = 8
};
SEGC_API unsigned segc_proved_signs(SEGC_KEEP segc_ctx *ctx,
	SEGC_KEEP const segc_domains *dom, SEGC_KEEP const segc_expr *e);
/* The same for an expression that stands at 'where' in a document (may
 * be NULL): a diagnostic that names no place gets that one, and the
 * message starts with what 'where' says it is. */
SEGC_API SEGC_GIVE segc_expr *segc_canonical_at(SEGC_KEEP segc_ctx *ctx,
	SEGC_KEEP const segc_domains *dom, SEGC_TAKE segc_expr *e,
	const segc_where *where);

/* Evaluates 'e' exactly at rational values of its names: 'names'[i] has
 * value 'values'[i].  Returns 0 and sets 'result' on success; -1 when 'e'
 * is not a rational at that point (a name without a value, log2/sqrt of a
 * non-power, an uninterpreted call, division by zero); -2 when a fixed
 * bound of the work stopped it (a power of more than 2^24 bits, a sum of
 * 10^6 terms, 10^7 terms of sums in all).  floor and ceil of log2 and
 * sqrt evaluate exactly whatever the argument.  Never records errors. */
SEGC_API int segc_expr_eval_q(mpq_t result, SEGC_KEEP const segc_expr *e,
	size_t n,
	const char *const *names, const mpq_t *values);

/* The canonical form under 'dom' of 'e' (a canonical form) with every
 * if(p >= k, a, b) or if(p > k, a, b) whose branches differ by a number
 * c times p - k written b + c*max(p - k, 0), the extremum it is; NULL
 * when 'e' holds no such if (or on error, recorded in 'ctx').  For
 * comparing two formulas: equal values, one form. */
SEGC_API SEGC_GIVE segc_expr *segc_expr_if_as_extremum(
	SEGC_KEEP segc_ctx *ctx, SEGC_KEEP const segc_domains *dom,
	SEGC_KEEP const segc_expr *e);

/* Non-zero when 'a' and 'b' are proved equal on 'dom' by cases: their
 * difference split on conditions of ifs (and on which argument of a
 * two-argument min or max is smaller) that are affine in one free name,
 * each side in canonical form under the narrowed domain (that name one
 * value where the side is one point) zero, to a fixed depth.  0 when
 * not proved (or on error; 'ctx' is left clear). */
SEGC_API int segc_expr_equal_by_cases(SEGC_KEEP segc_ctx *ctx,
	SEGC_KEEP const segc_domains *dom, SEGC_KEEP const segc_expr *a,
	SEGC_KEEP const segc_expr *b);

/* 'e' (taken) with every sum, every atom of an overlapped loop or of
 * indexed nodes (maxplus, maxplusv, taskpath) and every floor or ceil
 * that has no free name replaced by its exact value; the whole formula
 * its number when it has no free name and a rational value.  With 'dom'
 * the result is in canonical form under it; with 'dom' NULL (a
 * structural form) 'e' is kept as it is unless it has no free name, and
 * then only its atoms are replaced.  'e' itself when nothing has a
 * rational value.  All of them together add up at most max_eval_terms
 * terms, iterations and instances; past that NULL, with a limit error in
 * 'ctx' at 'where' (may be NULL). */
SEGC_API SEGC_GIVE segc_expr *segc_expr_value_atoms(SEGC_KEEP segc_ctx *ctx,
	SEGC_KEEP const segc_domains *dom, SEGC_TAKE segc_expr *e,
	const segc_where *where);

#ifdef __cplusplus
}
#endif

#endif
