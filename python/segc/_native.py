"""The C interface of libsegc as cffi sees it (ABI mode: no compiler).

The declarations below copy the public headers include/segc/*.h, only the
functions the package calls; the test python/tests/test_native.py checks
each against the headers.  The library is found, in this order, at the
path in the environment variable SEGC_LIBRARY, in the source tree the
package sits in (src/.libs/libsegc.so or build/src/.libs/libsegc.so
beside python/), at the path
configure recorded (_config.py), and by the dynamic loader's search.
"""

import os

from cffi import FFI

ffi = FFI()

# GMP's and MPFR's structs as laid out by gmp.h and mpfr.h on the ABIs
# Debian supports (int, int, pointer; long, int, long, pointer).
ffi.cdef("""
typedef struct { int _mp_alloc; int _mp_size; void *_mp_d; } __mpz_struct;
typedef struct { __mpz_struct _mp_num; __mpz_struct _mp_den; } __mpq_struct;
typedef struct { long _mpfr_prec; int _mpfr_sign; long _mpfr_exp;
                 void *_mpfr_d; } __mpfr_struct;

void free(void *);
void __gmpq_init(__mpq_struct *);
void __gmpq_clear(__mpq_struct *);
int __gmpq_set_str(__mpq_struct *, const char *, int);
void __gmpq_canonicalize(__mpq_struct *);
char *__gmpq_get_str(char *, int, const __mpq_struct *);
char *__gmpz_get_str(char *, int, const __mpz_struct *);
void mpfr_init2(__mpfr_struct *, long);
void mpfr_clear(__mpfr_struct *);
double mpfr_get_d(const __mpfr_struct *, int);

enum segc_status { SEGC_OK = 0, SEGC_ERR_INPUT = 2, SEGC_ERR_LIMIT = 3,
                   SEGC_ERR_INTERNAL = 4 };
typedef struct segc_diag {
    enum segc_status code; const char *file; unsigned long line;
    unsigned long col; const char *message;
} segc_diag;
typedef struct segc_limits {
    unsigned long max_file_bytes; unsigned long max_depth;
    unsigned long max_nodes; unsigned long max_terms;
    unsigned long max_literal_digits; unsigned long max_coeff_bits;
    long max_exponent; unsigned long max_sum_degree;
    unsigned long max_markov_states; unsigned long max_errors;
    unsigned long max_mva_p; unsigned long max_output_nodes;
    unsigned long max_work; unsigned long max_eval_terms;
    unsigned long max_memory;
} segc_limits;
typedef struct segc_ctx segc_ctx;
segc_ctx *segc_ctx_new(void);
void segc_ctx_free(segc_ctx *ctx);
segc_limits *segc_ctx_limits(segc_ctx *ctx);
size_t segc_ctx_n_diags(const segc_ctx *ctx);
const segc_diag *segc_ctx_diag(const segc_ctx *ctx, size_t i);
enum segc_status segc_ctx_status(const segc_ctx *ctx);
void segc_ctx_clear(segc_ctx *ctx);

typedef struct segc_expr segc_expr;
enum segc_expr_kind { SEGC_NUM, SEGC_SYM, SEGC_ADD, SEGC_MUL, SEGC_POW,
                      SEGC_CALL, SEGC_SUM };
segc_expr *segc_expr_copy(const segc_expr *e);
void segc_expr_free(segc_expr *e);
segc_expr *segc_expr_sub2(segc_expr *a, segc_expr *b);
segc_expr *segc_expr_mul2(segc_expr *a, segc_expr *b);
segc_expr *segc_expr_div2(segc_expr *a, segc_expr *b);
segc_expr *segc_expr_sym(const char *name);
enum segc_expr_kind segc_expr_kind(const segc_expr *e);
const char *segc_expr_name(const segc_expr *e);
size_t segc_expr_nargs(const segc_expr *e);
segc_expr *segc_expr_arg(const segc_expr *e, size_t i);
const __mpq_struct *segc_expr_value(const segc_expr *e);
unsigned long segc_expr_hash(const segc_expr *e);
int segc_expr_cmp(const segc_expr *a, const segc_expr *b);
int segc_expr_is_zero(const segc_expr *e);
typedef struct segc_where {
    const char *file; unsigned long line; unsigned long col;
    const char *what;
} segc_where;
segc_expr *segc_expr_parse(segc_ctx *ctx, const char *text,
    const segc_where *where);
char *segc_expr_to_string(const segc_expr *e);
char *segc_expr_to_string_nodes(const segc_expr *e, const char *const *ids,
    size_t n);

typedef struct segc_domains segc_domains;
void segc_domains_free(segc_domains *d);
int segc_domains_get(const segc_domains *d, const char *name,
    const __mpq_struct **min, const __mpq_struct **max, int *integer);
segc_expr *segc_canonical(segc_ctx *ctx, const segc_domains *dom,
    segc_expr *e);

typedef struct segc_model segc_model;
size_t segc_model_task_nodes(const segc_model *m);
const char *segc_model_task_node(const segc_model *m, size_t k);
typedef struct segc_machine segc_machine;
segc_model *segc_model_read_file(segc_ctx *ctx, const char *path);
segc_machine *segc_machine_read_file(segc_ctx *ctx, const char *path);
segc_model *segc_model_read_string(segc_ctx *ctx, const char *name,
    const char *text, size_t len);
segc_machine *segc_machine_read_string(segc_ctx *ctx, const char *name,
    const char *text, size_t len);
void segc_model_free(segc_model *m);
void segc_machine_free(segc_machine *m);
const char *segc_model_name(const segc_model *m);
const char *segc_model_description(const segc_model *m);
const char *segc_model_file(const segc_model *m);

typedef struct segc_bindings segc_bindings;
segc_bindings *segc_bindings_new(void);
void segc_bindings_free(segc_bindings *b);
int segc_bindings_add(segc_ctx *ctx, segc_bindings *b,
    const char *assignment);
int segc_component_parse(const char *name);
typedef struct segc_setting {
    const segc_model *model; const segc_machine *machine;
    const segc_bindings *bindings;
} segc_setting;
segc_expr *segc_derive_structural(segc_ctx *ctx, const segc_setting *s,
    int component);
segc_expr *segc_derive_canonical(segc_ctx *ctx, const segc_setting *s,
    int component);
segc_expr *segc_derive_readable(segc_ctx *ctx, const segc_setting *s,
    int component);
int segc_derive_components(segc_ctx *ctx, const segc_setting *s,
    unsigned flags, unsigned mask, segc_expr *out[4]);
segc_domains *segc_setting_domains(segc_ctx *ctx, const segc_setting *s);
segc_expr *segc_setting_apply(segc_ctx *ctx, const segc_setting *s,
    segc_expr *e, const segc_where *where);
int segc_setting_declares(const segc_setting *s, const char *name,
    const char **near);

typedef struct segc_witness_value { __mpq_struct lo, hi; }
    segc_witness_value;
typedef struct segc_witness {
    int found;
    unsigned long tried, exact, close, skipped, bits;
    size_t n; char **names; __mpq_struct *values;
    segc_witness_value a, b;
    size_t nfunctions; char **functions;
} segc_witness;
void segc_witness_init(segc_witness *w);
void segc_witness_clear(segc_witness *w);
int segc_witness_search(segc_witness *w, const segc_domains *dom,
    const segc_expr *a, const segc_expr *b, unsigned long npoints);
char *segc_witness_value_text(const segc_witness_value *v);

typedef struct segc_latex_names {
    size_t n; const char *const *names; const char *const *latex;
} segc_latex_names;
int segc_latex_names_of_model(segc_ctx *ctx, const segc_model *m,
    segc_latex_names *out);
void segc_latex_names_clear(segc_latex_names *n);
char *segc_latex_expr(const segc_expr *e, const segc_latex_names *names);

typedef struct segc_templates {
    char *c_file; char *h_file; char *main_part; char *dd_part;
    char *py_file; char *dir; unsigned dd_version;
} segc_templates;
int segc_templates_builtin(segc_templates *t);
void segc_templates_clear(segc_templates *t);
typedef struct segc_where_list segc_where_list;
typedef struct segc_emit_input {
    const char *model_name; const char *prefix; const char *description;
    const char *base; size_t nargs; const char *const *args;
    segc_expr *formulas[4]; int with_main; int accurate;
    const segc_domains *domains;
    segc_expr *named[4]; const segc_where_list *where;
} segc_emit_input;
segc_expr *segc_emit_stable_form(segc_ctx *ctx, const segc_domains *dom,
    const segc_expr *e);
int segc_emit_render(segc_ctx *ctx, const segc_templates *t,
    const segc_emit_input *in, const segc_where *where, char **c_text,
    char **h_text);
int segc_emit_render_python(segc_ctx *ctx, const segc_templates *t,
    const segc_emit_input *in, const segc_where *where, char **py_text);

typedef struct segc_point {
    size_t n; const char *const *names; const __mpq_struct *values;
} segc_point;
int segc_eval_mpfr(segc_ctx *ctx, __mpfr_struct *out, const segc_expr *e,
    const segc_point *pt, const segc_where *where);
int segc_eval_exact(segc_ctx *ctx, __mpq_struct *out, const segc_expr *e,
    const segc_point *pt, const segc_where *where);
size_t segc_output_names(const segc_expr *e, int calls,
    const char ***out);

segc_expr *segc_expr_diff(segc_ctx *ctx, const segc_expr *e,
    const char *name);
segc_expr *segc_quantity(segc_ctx *ctx, const segc_setting *s,
    const char *text, const segc_where *where);
segc_expr *segc_quantity_canonical(segc_ctx *ctx, const segc_setting *s,
    segc_expr *e, const char *var, const __mpq_struct *lo,
    const __mpq_struct *hi);
segc_expr *segc_scale_names(segc_ctx *ctx, const segc_setting *s,
    int comp, size_t n, const char *const *names,
    const __mpq_struct *factor);
segc_expr *segc_scale_class(segc_ctx *ctx, const segc_setting *s,
    int comp, int cls, const __mpq_struct *factor);
segc_expr *segc_scale_speedup(segc_ctx *ctx, const segc_setting *s,
    const segc_expr *before, const segc_expr *after);
typedef struct segc_pieces segc_pieces;
segc_pieces *segc_pieces_new(segc_ctx *ctx, const segc_expr *f,
    const char *var, const __mpq_struct *lo, const __mpq_struct *hi,
    const char *file);
void segc_pieces_free(segc_pieces *ps);
size_t segc_pieces_nkernels(const segc_pieces *ps);
void segc_pieces_root_bound(__mpq_struct *m, const segc_pieces *ps);
typedef struct segc_optimum {
    __mpz_struct best; __mpq_struct value; size_t npieces; size_t nstat;
    char **stat; size_t ncand; __mpz_struct *cand; int scanned;
} segc_optimum;
int segc_optimize(segc_ctx *ctx, segc_optimum *out, segc_pieces *ps,
    int maximize, const char *var, const char *file);
int segc_optimize_scan(segc_ctx *ctx, segc_optimum *out,
    const segc_expr *e, const char *var, const __mpq_struct *lo,
    const __mpq_struct *hi, int maximize, const char *file);
void segc_optimum_clear(segc_optimum *o);
typedef struct segc_solution {
    size_t n; char **root; int *exact; size_t nzero; char **zero;
    size_t njump; char **jump;
} segc_solution;
int segc_solve(segc_ctx *ctx, segc_solution *out, segc_pieces *ps,
    int digits, const char *file);
void segc_solution_clear(segc_solution *s);

typedef struct segc_csv segc_csv;
segc_csv *segc_csv_read_file(segc_ctx *ctx, const char *path);
segc_csv *segc_csv_read_string(segc_ctx *ctx, const char *name,
    const char *text, size_t len);
void segc_csv_free(segc_csv *csv);
typedef struct segc_csv_options {
    size_t nmap; const char *const *map_names;
    const char *const *map_columns;
    int (*wanted)(void *arg, const char *name); void *wanted_arg;
    int aggregate;
} segc_csv_options;
segc_csv *segc_csv_read(segc_ctx *ctx, const char *name, const char *text,
    size_t len, const segc_csv_options *opts);
segc_csv *segc_csv_read_path(segc_ctx *ctx, const char *path,
    const segc_csv_options *opts);
typedef struct segc_extrap_options {
    const char *callpath; const char *metric; segc_csv_options table;
} segc_extrap_options;
segc_csv *segc_table_read_path(segc_ctx *ctx, const char *path, int format,
    const segc_extrap_options *opts);
size_t segc_csv_nrows(const segc_csv *csv);
size_t segc_csv_n_ignored(const segc_csv *csv);
const char *segc_csv_ignored(const segc_csv *csv, size_t i);
size_t segc_csv_column(const segc_csv *csv, const char *name);
size_t segc_csv_runs(const segc_csv *csv, size_t row);
void segc_csv_spread(const segc_csv *csv, size_t row, size_t col,
    __mpq_struct *lo, __mpq_struct *hi);
unsigned long segc_csv_line(const segc_csv *csv, size_t row);
typedef struct segc_fit_request {
    const segc_setting *setting; size_t nfree; const char *const *free;
    const segc_csv *data; int weight; size_t nstart;
    const char *const *start_names; const __mpq_struct *start_values;
    unsigned max_iterations;
} segc_fit_request;
typedef struct segc_fit_info {
    unsigned long precision; unsigned iterations; int stalled;
} segc_fit_info;
typedef struct segc_fit segc_fit;
typedef struct segc_fit_equation {
    size_t row; int component; const __mpq_struct *measured;
    const __mpq_struct *fitted;
} segc_fit_equation;
segc_fit *segc_fit_run(segc_ctx *ctx, const segc_fit_request *r);
void segc_fit_free(segc_fit *f);
size_t segc_fit_nfree(const segc_fit *f);
const char *segc_fit_name(const segc_fit *f, size_t j);
const __mpq_struct *segc_fit_value(const segc_fit *f, size_t j);
int segc_fit_nonlinear(const segc_fit *f, segc_fit_info *info);
size_t segc_fit_nequations(const segc_fit *f);
void segc_fit_equation_get(const segc_fit *f, size_t i,
    segc_fit_equation *eq);
int segc_fit_r2(const segc_fit *f, __mpq_struct *r2);
int segc_fit_max_relative(const segc_fit *f, __mpq_struct *rel,
    size_t *eq);
char *segc_fit_machine_xml(const segc_fit *f, const segc_setting *s,
    const char *name, const char *description);
""")


def _candidates():
    """The paths to try for libsegc, best first."""
    env = os.environ.get("SEGC_LIBRARY")
    if env:
        yield env
    here = os.path.dirname(os.path.abspath(__file__))
    top = os.path.join(here, "..", "..")
    for build in (".", "build"):
        yield os.path.join(top, build, "src", ".libs", "libsegc.so")
    try:
        from segc import _config
        yield os.path.join(_config.LIBDIR, "libsegc.so.0")
    except ImportError:
        pass
    yield "libsegc.so.0"


def _load():
    """Opens the first libsegc found; OSError naming every path tried."""
    tried = []
    for path in _candidates():
        if os.sep in path and not os.path.exists(path):
            tried.append(path)
            continue
        try:
            return ffi.dlopen(path)
        except OSError as err:
            tried.append("%s (%s)" % (path, err))
    raise OSError("libsegc not found; set SEGC_LIBRARY to the path of "
                  "libsegc.so (tried: %s)" % "; ".join(tried))


lib = _load()

# GMP's functions under names a class body does not mangle.
gmpq_init = getattr(lib, "__gmpq_init")
gmpq_clear = getattr(lib, "__gmpq_clear")
gmpq_set_str = getattr(lib, "__gmpq_set_str")
gmpq_canonicalize = getattr(lib, "__gmpq_canonicalize")
gmpq_get_str = getattr(lib, "__gmpq_get_str")
gmpz_get_str = getattr(lib, "__gmpz_get_str")
