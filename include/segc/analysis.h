/* analysis.h - exact analysis of a model's formulas (the commands
 * optimize, solve, whatif, sensitivity and derive --asymptotic):
 * quantities built from the components, derivatives, the leading term as
 * a name grows, scaled scenarios, and a formula of one variable cut into
 * rational pieces, on which the optimum over the integers and the real
 * roots are found exactly.  The ownership rule of segc.h applies; nothing
 * here prints. */
#ifndef SEGC_ANALYSIS_PUBLIC_H
#define SEGC_ANALYSIS_PUBLIC_H

#include <stddef.h>
#include <gmp.h>
#include <segc/segc.h>
#include <segc/segc_model.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ----------------------------------------------------------- derivatives */

/* The derivative of 'e' with respect to 'name', not simplified: max, min
 * and if() give an if() of the derivatives of their branches; ceil and
 * floor give 0 (their derivative between jumps).  NULL with a diagnostic
 * where there is no exact derivative (log2 of the name, the name in an
 * exponent or in an uninterpreted call). */
SEGC_API SEGC_GIVE segc_expr *segc_expr_diff(SEGC_KEEP segc_ctx *ctx,
	SEGC_KEEP const segc_expr *e, SEGC_KEEP const char *name);
/* Non-zero when 'e' has a ceil or floor of an expression of 'name':
 * its derivative is the one between their jumps. */
SEGC_API int segc_expr_has_jump(SEGC_KEEP const segc_expr *e,
	SEGC_KEEP const char *name);

/* The leading term of the canonical formula 'e' as 'name' grows without
 * bound, the other names fixed: c * name^a * log2(name)^b with the
 * largest (a, b), c exact and canonical under 'dom' (may be NULL);
 * ceil(log2(name)) and floor(log2(name)) grow as log2(name).  NULL with a
 * diagnostic for any other function of the name. */
SEGC_API SEGC_GIVE segc_expr *segc_asymptotic(SEGC_KEEP segc_ctx *ctx,
	SEGC_KEEP const segc_domains *dom, SEGC_KEEP const segc_expr *e,
	SEGC_KEEP const char *name);

/* ------------------------------------------------------------ quantities */

/* The formula of 'text' under 's': an expression of total, comp, comm,
 * io (the components), speedup (T(P=1)/T), efficiency (speedup/P) and
 * the model's names, each name replaced by what the setting gives it;
 * not canonical.  NULL with diagnostics (located at 'where', may be NULL)
 * on failure. */
SEGC_API SEGC_GIVE segc_expr *segc_quantity(SEGC_KEEP segc_ctx *ctx,
	SEGC_KEEP const segc_setting *s, SEGC_KEEP const char *text,
	SEGC_KEEP const segc_where *where);
/* The canonical form of 'e' under the domains 's' declares, with 'var'
 * (unless NULL) confined to [lo, hi]: an error when that range leaves
 * the declared domain of 'var'. */
SEGC_API SEGC_GIVE segc_expr *segc_quantity_canonical(SEGC_KEEP segc_ctx *ctx,
	SEGC_KEEP const segc_setting *s, SEGC_TAKE segc_expr *e,
	SEGC_KEEP const char *var, mpq_srcptr lo, mpq_srcptr hi);

/* ------------------------------------------------------------- scenarios */

/* The formula of 'comp' under 's', structural, with each cost of 'names'
 * (a resource of the model, a constant or cost of the machine)
 * multiplied by 'factor' wherever it is used.  NULL with a diagnostic (a
 * name that is not a cost). */
SEGC_API SEGC_GIVE segc_expr *segc_scale_names(SEGC_KEEP segc_ctx *ctx,
	SEGC_KEEP const segc_setting *s, enum segc_component comp, size_t n,
	SEGC_KEEP const char *const *names, mpq_srcptr factor);
/* The same with every cost of component 'cls' multiplied by 'factor':
 * for the total, it must be comp + comm + io (else an error). */
SEGC_API SEGC_GIVE segc_expr *segc_scale_class(SEGC_KEEP segc_ctx *ctx,
	SEGC_KEEP const segc_setting *s, enum segc_component comp,
	enum segc_component cls, mpq_srcptr factor);
/* The speedup before/after of two canonical formulas, in canonical form;
 * where both are if() on the same condition, branch by branch (so that
 * halving every cost of a piecewise formula gives 2). */
SEGC_API SEGC_GIVE segc_expr *segc_scale_speedup(SEGC_KEEP segc_ctx *ctx,
	SEGC_KEEP const segc_setting *s, SEGC_KEEP const segc_expr *before,
	SEGC_KEEP const segc_expr *after);

/* ---------------------------------------------- one variable, piecewise */

/* A canonical formula of one variable cut into pieces on each of which it
 * is a rational function (opaque).  The kernels ceil(log2(var)) and
 * floor(log2(var)) are constant on each piece, and max, min and if() of
 * rational functions of var take one argument; any other kernel of var
 * is refused. */
typedef struct segc_pieces segc_pieces;

/* Cuts 'f' (canonical, every name but 'var' bound) over [lo, hi] into
 * pieces; NULL with a diagnostic naming 'file' (may be NULL) on
 * failure. */
SEGC_API SEGC_GIVE segc_pieces *segc_pieces_new(SEGC_KEEP segc_ctx *ctx,
	SEGC_KEEP const segc_expr *f, SEGC_KEEP const char *var,
	mpq_srcptr lo, mpq_srcptr hi, SEGC_KEEP const char *file);
/* Releases the pieces. */
SEGC_API void segc_pieces_free(SEGC_TAKE segc_pieces *ps);
/* The number of kernels of the variable (ceil or floor of its log2, max,
 * min, if()) the pieces are cut at; 0 when the formula is one rational
 * function. */
SEGC_API size_t segc_pieces_nkernels(SEGC_KEEP const segc_pieces *ps);
/* Sets 'm' to 1 + max |a_i / a_n| over the coefficients a_i of the
 * numerator of the first piece (Cauchy's bound): every real root of that
 * numerator lies in (-m, m). */
SEGC_API void segc_pieces_root_bound(mpq_t m,
	SEGC_KEEP const segc_pieces *ps);

/* The integer of [lo, hi] where a formula is least (most, 'maximize'),
 * and how that is certified: every stationary point (root of the
 * numerator of the derivative) and pole isolated exactly on each piece,
 * and the integers around them and at the ends of the pieces compared
 * exactly.  Ties go to the smallest integer.  A plain data record, public
 * so that a caller reads the certificate; segc_optimum_clear() releases
 * it. */
typedef struct segc_optimum {
	mpz_t best;
	mpq_t value;
	size_t npieces;
	size_t nstat;
	char **stat;       /* the stationary points in decimal, increasing */
	size_t ncand;
	mpz_t *cand;       /* the integer candidates, increasing; after a
			      scan, the first and last integer scanned */
	int scanned;       /* every integer of the range compared */
} segc_optimum;

/* Finds the optimum of 'ps' over the integers its pieces cover into
 * 'out' (initialised here, also on failure); 0, or -1 with a diagnostic
 * (the formula undefined at an integer). */
SEGC_API int segc_optimize(SEGC_KEEP segc_ctx *ctx,
	SEGC_KEEP segc_optimum *out, SEGC_KEEP segc_pieces *ps, int maximize,
	SEGC_KEEP const char *var, SEGC_KEEP const char *file);
/* The most integers segc_optimize_scan() compares. */
#define SEGC_OPTIMIZE_MAX_SCAN 10000UL

/* The optimum of 'e', a formula of 'var' alone, over the integers of
 * [lo, hi] when it cannot be cut into rational pieces: every integer
 * evaluated exactly (segc_eval_exact(), the range sharing the budget of
 * max_eval_terms) and compared exactly; at most SEGC_OPTIMIZE_MAX_SCAN
 * of them.  'out' as for segc_optimize(), with 'scanned' set; 0, or -1
 * with a diagnostic. */
SEGC_API int segc_optimize_scan(SEGC_KEEP segc_ctx *ctx,
	SEGC_KEEP segc_optimum *out, SEGC_KEEP const segc_expr *e,
	SEGC_KEEP const char *var, mpq_srcptr lo, mpq_srcptr hi,
	int maximize, SEGC_KEEP const char *file);
/* Releases what 'o' holds. */
SEGC_API void segc_optimum_clear(SEGC_KEEP segc_optimum *o);

/* Every real root of a piecewise formula: its decimal text ('digits'
 * significant digits, or the exact fraction of a rational root, then
 * 'exact' set); the open intervals where the formula is zero
 * throughout; the points where it jumps across zero.  A plain data
 * record; segc_solution_clear() releases it. */
typedef struct segc_solution {
	size_t n;
	char **root;
	int *exact;
	size_t nzero;
	char **zero;       /* "A..B" (open interval) */
	size_t njump;
	char **jump;       /* where it changes sign by a jump of a kernel,
			      without vanishing: the point */
} segc_solution;

/* Finds the roots of 'ps' into 'out' (initialised here); 0, or -1 with a
 * diagnostic (a root at a point where a max, min or if() switches, when
 * which side holds there is not known exactly). */
SEGC_API int segc_solve(SEGC_KEEP segc_ctx *ctx,
	SEGC_KEEP segc_solution *out, SEGC_KEEP segc_pieces *ps, int digits,
	SEGC_KEEP const char *file);
/* Releases what 's' holds. */
SEGC_API void segc_solution_clear(SEGC_KEEP segc_solution *s);

#ifdef __cplusplus
}
#endif

#endif
