/* emit_names.c - the names of an emitted predictor: identifiers made from
 * a model's names that are neither keywords nor names the standard headers
 * or compilers reserve, the prefixes of its locals, the names it is
 * written with in either language; and free text made safe inside a
 * comment. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "output/emit_private.h"

/* Words a C identifier of the emitted code must not be: keywords of C99
 * to C23 and C++; what the standard headers (and, by default, glibc's
 * POSIX extensions of them) define as object-like macros or typedefs, so
 * that a program may include any of them before the generated header;
 * the names <math.h> and <stdlib.h> declare that the code calls; the
 * macros gcc and
 * clang predefine outside the reserved namespace (linux, unix, i386 under
 * the GNU dialects, and those of other targets); the emitted code's own
 * helpers. */
static const char *const reserved_words[] = {
	"auto", "break", "case", "char", "const", "continue", "default", "do",
	"double", "else", "enum", "extern", "float", "for", "goto", "if",
	"inline", "int", "long", "register", "restrict", "return", "short",
	"signed", "sizeof", "static", "struct", "switch", "typedef", "union",
	"unsigned", "void", "volatile", "while", "bool", "true", "false",
	"nullptr", "alignas", "alignof", "constexpr", "static_assert",
	"thread_local", "typeof", "typeof_unqual", "asm", "fortran",
	"class", "new", "delete", "this", "template", "operator", "namespace",
	"private", "public", "protected", "virtual", "friend", "try", "catch",
	"throw", "explicit", "mutable", "using", "typename", "and", "or",
	"not", "xor", "compl", "bitand", "bitor", "and_eq", "or_eq",
	"xor_eq", "not_eq", "main", "errno", "math_errhandling", "INFINITY",
	"NAN", "HUGE_VAL", "HUGE_VALF", "HUGE_VALL", "acos", "asin", "atan",
	"atan2", "ceil", "cos", "cosh", "exp", "exp2", "fabs", "floor", "fmod",
	"frexp", "ldexp", "log", "log10", "log2", "modf", "pow", "sin",
	"sinh", "sqrt", "tan", "tanh", "fmax", "fmin", "fma", "cbrt", "hypot",
	"round", "trunc", "nan", "erf", "erfc", "tgamma", "lgamma", "expm1",
	"log1p", "logb", "ilogb", "rint", "nearbyint", "remainder",
	"copysign", "fdim", "scalbn", "isnan", "isinf", "isfinite",
	"isnormal", "signbit", "fpclassify", "float_t", "double_t",
	/* the standard headers */
	"BUFSIZ", "CHAR_BIT", "CLOCKS_PER_SEC", "DECIMAL_DIG", "EOF",
	"EXIT_FAILURE", "EXIT_SUCCESS", "FILE", "I", "L_tmpnam", "NULL",
	"NDEBUG", "ONCE_FLAG_INIT", "SEEK_CUR", "SEEK_END", "SEEK_SET",
	"TIME_UTC", "TMP_MAX", "TSS_DTOR_ITERATIONS", "WEOF", "complex",
	"imaginary", "noreturn", "offsetof", "once_flag", "stderr", "stdin",
	"stdout", "jmp_buf", "va_list", "va_arg", "va_copy", "va_end",
	"va_start", "assert", "setjmp",
	/* their POSIX and glibc extensions (the default of gcc and clang) */
	"BIG_ENDIAN", "BYTE_ORDER", "FD_SETSIZE", "LITTLE_ENDIAN", "L_ctermid",
	"MINSIGSTKSZ", "NFDBITS", "NGREG", "NSIG", "PDP_ENDIAN", "PIPE_BUF",
	"P_tmpdir", "WCONTINUED", "WEXITED", "WNOHANG", "WNOWAIT", "WSTOPPED",
	"WUNTRACED", "fd_mask", "sigjmp_buf", "u_char", "u_int", "u_long",
	"u_short", "uint", "ulong", "ushort", "alloca",
	/* predefined by compilers for some target */
	"linux", "unix", "i386", "i486", "i586", "i686", "sun", "sparc",
	"mips", "vax", "m68k", "mc68000", "mc68010", "mc68020", "hppa",
	"hp9000", "hp800", "hpux", "ns32000", "pyr", "tahoe", "u3b2", "u370",
	"sgi", "host_mips", "MIPSEB", "MIPSEL", "R3000", "R4000", "AMIGA",
	"amiga", "MSDOS", "WIN32", "WINNT", "BSD", "bsd4_2", "bsd4_3",
	"sequent", "ultrix", "PPC", "powerpc", "ppc",
	/* what <stdlib.h> declares that the code calls (task graphs) */
	"malloc", "calloc", "realloc", "free",
	/* the emitted code's helpers */
	"two_sum", "fast_two_sum", "two_prod",
	NULL
};

/* Prefixes that the standard headers (and POSIX) reserve for their
 * macros and types, or that the emitted code uses, each followed by the
 * characters that may come next ("" for any); and suffixes. */
static const struct { const char *prefix, *next; } reserved_prefixes[] = {
	{ "FP_", "" }, { "MATH_", "" }, { "FLT_", "" }, { "DBL_", "" },
	{ "LDBL_", "" }, { "FE_", "" }, { "LC_", "" }, { "ATOMIC_", "" },
	{ "atomic_", "" }, { "memory_order", "" }, { "cnd_", "" },
	{ "mtx_", "" }, { "thrd_", "" }, { "tss_", "" }, { "SA_", "" },
	{ "SI_", "" }, { "SS_", "" }, { "sa_", "" }, { "si_", "" },
	{ "sigev_", "" }, { "sival_", "" }, { "BUS_", "" }, { "CLD_", "" },
	{ "FPE_", "" }, { "ILL_", "" }, { "POLL_", "" }, { "SEGV_", "" },
	{ "TRAP_", "" }, { "CLOCK_", "" }, { "TIMER_", "" },
	{ "PTHREAD_", "" }, { "dd_", "" }, { "segc_", "" }, { "SEGC_", "" },
	{ "SIG", "ABCDEFGHIJKLMNOPQRSTUVWXYZ_" },
	{ "PRI", "abcdefghijklmnopqrstuvwxyzX" },
	{ "SCN", "abcdefghijklmnopqrstuvwxyzX" },
	{ "M_", "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789" },
	{ NULL, NULL }
};
static const char *const reserved_suffixes[] = {
	"_MAX", "_MIN", "_t", NULL
};

/* Non-zero when 'name' begins with a reserved prefix or ends with a
 * reserved suffix. */
static int has_reserved_affix(const char *name)
{
	size_t i, n = strlen(name), k;

	for (i = 0; reserved_prefixes[i].prefix; i++) {
		k = strlen(reserved_prefixes[i].prefix);
		if (!strncmp(name, reserved_prefixes[i].prefix, k) &&
		    (!*reserved_prefixes[i].next || (name[k] &&
		     strchr(reserved_prefixes[i].next, name[k]))))
			return 1;
	}
	for (i = 0; reserved_suffixes[i]; i++) {
		k = strlen(reserved_suffixes[i]);
		if (n >= k && !strcmp(name + n - k, reserved_suffixes[i]))
			return 1;
	}
	return 0;
}

/* Non-zero when 'name' is reserved for C, C++, the standard headers or
 * the compilers (see above). */
static int is_reserved(const char *name)
{
	size_t i;

	if (name[0] == '_' || (name[0] == 'E' && ((name[1] >= 'A' &&
	    name[1] <= 'Z') || (name[1] >= '0' && name[1] <= '9'))) ||
	    has_reserved_affix(name))
		return 1;
	for (i = 0; reserved_words[i]; i++)
		if (!strcmp(reserved_words[i], name))
			return 1;
	return 0;
}

/* 'name' as a safe C identifier: other characters replaced by '_', a
 * leading digit or underscore prefixed with 'm', a reserved word given a
 * trailing '_'. */
char *segc_emit_identifier(const char *name)
{
	segc_strbuf b;
	const char *s;

	segc_strbuf_init(&b);
	if (!name[0] || name[0] == '_' || (name[0] >= '0' && name[0] <= '9'))
		segc_strbuf_appendc(&b, 'm');
	for (s = name; *s; s++) {
		char c = *s;
		int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			(c >= '0' && c <= '9') || c == '_';

		segc_strbuf_appendc(&b, ok ? c : '_');
	}
	if (is_reserved(segc_strbuf_str(&b)))
		segc_strbuf_appendc(&b, '_');
	return segc_strbuf_take(&b);
}

/* The character written into a comment for the byte at 's': printable
 * ASCII as itself, a control character as a space, the first byte of a
 * non-ASCII character as '_' and its other bytes as nothing (0). */
static char comment_char(const unsigned char *s)
{
	if (*s >= 0x80)
		return *s >= 0xC0 ? '_' : 0;
	return *s < 0x20 || *s == 0x7F ? ' ' : (char)*s;
}

/* Appends 'text' to a C comment, safe: no comment delimiters, trigraphs,
 * line splices or characters outside printable ASCII; lines wrapped at
 * about 72 columns, each started by 'lead'. */
void segc_emit_comment_text(segc_strbuf *b, const char *text,
	const char *lead)
{
	const unsigned char *s;
	size_t col = 0;

	segc_strbuf_append(b, lead);
	for (s = (const unsigned char *)text; *s; s++) {
		char c = comment_char(s);

		if (!c)
			continue;
		if (c == ' ' && col > 64) {
			segc_strbuf_appendc(b, '\n');
			segc_strbuf_append(b, lead);
			col = 0;
			continue;
		}
		segc_strbuf_appendc(b, c);
		col++;
		if ((c == '*' && s[1] == '/') || (c == '/' && s[1] == '*') ||
		    (c == '?' && comment_char(s + 1) == '?') || c == '\\')
			segc_strbuf_appendc(b, ' ');
	}
}

/* Non-zero when 'e' uses the name 'name' (a name or a call of it). */
static int uses_name(const segc_expr *e, const char *name)
{
	enum segc_expr_kind k = segc_expr_kind(e);
	size_t i;

	if (k == SEGC_NUM)
		return 0;
	if ((k == SEGC_SYM || k == SEGC_CALL) &&
	    !strcmp(segc_expr_name(e), name))
		return 1;
	for (i = 0; k != SEGC_SYM && i < segc_expr_nargs(e); i++)
		if (uses_name(segc_expr_arg(e, i), name))
			return 1;
	return 0;
}

/* Appends the text of 'e' to a comment, its lines started by 'lead';
 * with 'rhs', the line "where e = rhs". */
static void comment_expr(segc_strbuf *b, const segc_expr *e,
	const segc_expr *rhs, const char *lead)
{
	char *text = segc_expr_to_string(e), *value;
	segc_strbuf line;

	if (!rhs) {
		segc_emit_comment_text(b, text ? text : "", lead);
		free(text);
		return;
	}
	value = segc_expr_to_string(rhs);
	segc_strbuf_init(&line);
	segc_strbuf_appendf(&line, "where %s = %s", text ? text : "",
		value ? value : "");
	segc_emit_comment_text(b, line.data ? line.data : "", lead);
	segc_strbuf_free(&line);
	free(text);
	free(value);
}

/* See emit_private.h.  A definition is written when the formula or a
 * definition written before it uses its name (a definition uses only
 * the names defined after it). */
void segc_emit_formula_comment(segc_strbuf *b, const segc_emit_input *in,
	int c, const segc_expr *e, const char *lead)
{
	const segc_where_list *w = in->where;
	const segc_expr *f = in->named[c] ? in->named[c] : e;
	unsigned char *need;
	size_t j, k;

	comment_expr(b, f, NULL, lead);
	if (!in->named[c] || !w || !w->n)
		return;
	need = segc_xcalloc(w->n, 1);
	for (j = 0; j < w->n; j++) {
		const char *name = segc_expr_name(w->lhs[j]);

		need[j] = uses_name(f, name);
		for (k = 0; k < j && !need[j]; k++)
			need[j] = need[k] && uses_name(w->rhs[k], name);
		if (!need[j])
			continue;
		segc_strbuf_appendc(b, '\n');
		comment_expr(b, w->lhs[j], w->rhs[j], lead);
	}
	free(need);
}

/* Non-zero when 'name' is 'prefix' followed by digits only. */
static int prefix_digits(const char *name, const char *prefix)
{
	size_t n = strlen(prefix);

	if (strncmp(name, prefix, n) || !name[n])
		return 0;
	for (name += n; *name; name++)
		if (*name < '0' || *name > '9')
			return 0;
	return 1;
}

/* A prefix for numbered locals, 'first' repeated until none of the
 * 'nargs' names 'arg' is it followed by digits. */
char *segc_emit_local_prefix(char *const *arg, size_t nargs, char first)
{
	segc_strbuf b;
	size_t i;
	int clash = 1;

	segc_strbuf_init(&b);
	segc_strbuf_appendc(&b, first);
	while (clash) {
		clash = 0;
		for (i = 0; i < nargs; i++)
			if (prefix_digits(arg[i], segc_strbuf_str(&b)))
				clash = 1;
		if (clash)
			segc_strbuf_appendc(&b, first);
	}
	return segc_strbuf_take(&b);
}

/* Non-zero when 'name' is a name the emitter gives a function of the
 * predictor with prefix 'prefix', in any language: the prefix, '_', a
 * component (total, comp, comm, io) and, optionally, '_' and lower-case
 * letters (the body M_total_k, the array form M_total_n, the copies for a
 * fused multiply-add M_total_f and M_total_nf, Fortran's bind(c) entry
 * M_total_c, and any such name a later printer may add).  A name that
 * ends in '_' after the component is never one. */
static int is_generated(const char *prefix, const char *name)
{
	static const char *const comps[] = { "total", "comp", "comm", "io" };
	size_t n = strlen(prefix), i, k;

	if (strncmp(name, prefix, n) || name[n] != '_')
		return 0;
	name += n + 1;
	for (i = 0; i < 4; i++) {
		k = strlen(comps[i]);
		if (strncmp(name, comps[i], k))
			continue;
		if (!name[k])
			return 1;
		if (name[k] != '_' || !name[k + 1])
			continue;
		for (name += k + 1; *name >= 'a' && *name <= 'z'; name++)
			;
		return !*name;
	}
	return 0;
}

/* Chooses the names of a predictor; see emit_private.h.  An argument
 * that is the name of one of its functions gets a trailing '_' (so that
 * it does not hide the function in the bodies that call it). */
int segc_emit_names_choose(segc_emit_names *n, segc_ctx *ctx,
	const segc_where *w, const segc_emit_input *in,
	char *(*ident)(const char *), const char *lang)
{
	size_t i, j;

	n->prefix = segc_emit_identifier(in->prefix ? in->prefix :
		in->model_name);
	n->arg = segc_xcalloc(in->nargs + 1, sizeof *n->arg);
	for (i = 0; i < in->nargs; i++) {
		n->arg[i] = ident(in->args[i]);
		if (is_generated(n->prefix, n->arg[i])) {
			size_t len = strlen(n->arg[i]);

			n->arg[i] = segc_xrealloc(n->arg[i], len + 2);
			strcpy(n->arg[i] + len, "_");
		}
	}
	for (i = 0; i < in->nargs; i++)
		for (j = 0; j < i; j++)
			if (!strcmp(n->arg[i], n->arg[j])) {
				segc_error(ctx, SEGC_ERR_INPUT, w ? w->file : NULL,
					w ? w->line : 0, w ? w->col : 0,
					"two arguments would both be named '%s' "
					"in %s", n->arg[i], lang);
				return -1;
			}
	n->tprefix = segc_emit_local_prefix(n->arg, in->nargs, 't');
	n->cprefix = segc_emit_local_prefix(n->arg, in->nargs, 'c');
	n->kprefix = segc_emit_local_prefix(n->arg, in->nargs, 'k');
	return 0;
}

/* See emit_private.h. */
void segc_emit_namer_init(segc_emit_namer *nm, const segc_plan *p,
	const segc_emit_names *id, int accurate, int clamp)
{
	memset(nm, 0, sizeof *nm);
	nm->p = p;
	nm->arg = id->arg;
	nm->tprefix = id->tprefix;
	nm->cprefix = id->cprefix;
	nm->kprefix = id->kprefix;
	nm->accurate = accurate;
	nm->clamp = clamp;
	nm->packs = NULL;
	segc_emit_number_values(nm);
}

/* See emit_private.h. */
void segc_emit_namer_clear(segc_emit_namer *nm)
{
	free(nm->number);
	free(nm->dd);
	segc_emit_pack_free(nm);
	nm->number = NULL;
	nm->dd = NULL;
}

/* Releases what 'n' holds; see emit_private.h. */
void segc_emit_names_clear(segc_emit_names *n, size_t nargs)
{
	size_t i;

	for (i = 0; n->arg && i < nargs; i++)
		free(n->arg[i]);
	free(n->arg);
	free(n->prefix);
	free(n->tprefix);
	free(n->cprefix);
	free(n->kprefix);
}

/* A double at most (dir < 0) or at least (dir > 0) 'q'. */
static double double_bound(mpq_srcptr q, int dir)
{
	double d = mpq_get_d(q);   /* truncated: towards 0 */
	mpq_t t;
	int c;

	if (!isfinite(d))          /* beyond the doubles: no bound */
		return dir < 0 ? -HUGE_VAL : HUGE_VAL;
	mpq_init(t);
	mpq_set_d(t, d);
	c = mpq_cmp(t, q);
	mpq_clear(t);
	if (dir < 0 && c > 0)
		d = nextafter(d, -HUGE_VAL);
	if (dir > 0 && c < 0)
		d = nextafter(d, HUGE_VAL);
	return d;
}

/* Appends 'text' as comment lines started by 'lead', broken between
 * words so that no line holds more than 66 characters of it. */
static void append_lines(segc_strbuf *b, const char *text, const char *lead)
{
	const char *p = text;

	while (*p) {
		const char *q = p, *cut = NULL;

		while (*q && (q - p <= 66 || !cut)) {
			if (*q == ' ')
				cut = q;
			q++;
		}
		if (!cut || (!*q && q - p <= 66))
			cut = q;   /* the rest, or a word longer than a line */
		segc_strbuf_append(b, lead);
		segc_strbuf_appendn(b, p, (size_t)(cut - p));
		segc_strbuf_appendc(b, '\n');
		p = *cut ? cut + 1 : cut;
	}
}

/* Appends the sentence on the relative error of plan 'p' of 'in' (its
 * arguments' domains from in->domains), as comment lines started by
 * 'lead': the premise it states is what plan_bound.c assumes. */
void segc_emit_bound_text(segc_strbuf *b, const segc_plan *p,
	const segc_emit_input *in, const char *lead)
{
	unsigned char *integer = segc_xcalloc(in->nargs + 1, 1);
	double *lo = segc_xcalloc(in->nargs + 1, sizeof *lo);
	double *hi = segc_xcalloc(in->nargs + 1, sizeof *hi);
	unsigned long e = 0;
	const char *why;
	int bits = 0;
	segc_strbuf t;
	size_t k;

	for (k = 0; k < in->nargs; k++) {
		mpq_srcptr min = NULL, max = NULL;
		int isint = 0;

		lo[k] = -HUGE_VAL;
		hi[k] = HUGE_VAL;
		if (in->domains && segc_domains_get(in->domains, in->args[k],
		    &min, &max, &isint)) {
			integer[k] = isint != 0;
			if (min)
				lo[k] = double_bound(min, -1);
			if (max)
				hi[k] = double_bound(max, 1);
		}
	}
	why = segc_plan_error_bound(p, integer, lo, hi, &e, &bits);
	segc_strbuf_init(&t);
	if (why) {
		segc_strbuf_appendf(&t, "No bound on its relative error is "
			"proved: %s.", why);
	} else {
		segc_strbuf_appendf(&t, "Relative error at most %lu u (u = "
			"2^-53), to first order, for arguments in the model's "
			"domains", e);
		if (bits)
			segc_strbuf_appendf(&t, ", integer ones below 2^%d in "
				"magnitude", bits);
		if (segc_plan_uses_op(p, SEGC_OP_SUM) ||
		    segc_plan_uses_op(p, SEGC_OP_MAXPLUS))
			segc_strbuf_append(&t, ", loops of fewer than 2^26 "
				"iterations");
		segc_strbuf_append(&t, ", where nothing overflows or "
			"underflows.");
	}
	append_lines(b, segc_strbuf_str(&t), lead);
	segc_strbuf_free(&t);
	free(integer);
	free(lo);
	free(hi);
}

/* Non-zero when the formula 'e' of 'in' is proved >= 0 by the domains
 * of its arguments. */
int segc_emit_nonneg(segc_ctx *ctx, const segc_emit_input *in,
	const segc_expr *e)
{
	return in->domains && (segc_proved_signs(ctx, in->domains, e) &
		(SEGC_PROVED_NONNEG | SEGC_PROVED_POS)) != 0;
}

/* Appends the name of value 'i' of 'nm->p', whatever the language: an
 * argument's name, else the prefix of its kind (constant, counter,
 * temporary) and its number. */
void segc_emit_put_value(segc_strbuf *b, const segc_emit_namer *nm, size_t i)
{
	const segc_plan_insn *in = &nm->p->insn[i];

	if (in->op == SEGC_OP_ARG)
		segc_strbuf_append(b, nm->arg[in->a]);
	else
		segc_strbuf_appendf(b, "%s%lu", in->op == SEGC_OP_CONST ?
			nm->cprefix : in->op == SEGC_OP_COUNTER ? nm->kprefix :
			nm->tprefix, (unsigned long)nm->number[i]);
}
