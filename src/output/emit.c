/* emit.c - the C predictor of a model: one function per component, each
 * printed from its evaluation plan (plan.c), placed into the templates of
 * templates/ (compiled in, or the user's) by their named placeholders.
 * Nothing here writes files: the command does. */
#include <stdlib.h>
#include <string.h>
#include "output/output.h"
#include "expr/builtin.h"

/* Words a C identifier of the emitted code must not be: keywords of C99
 * to C23 and C++; what the standard headers (and, by default, glibc's
 * POSIX extensions of them) define as object-like macros or typedefs, so
 * that a program may include any of them before the generated header;
 * the names <math.h> declares that the code calls; the macros gcc and
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
static void put_comment_text(segc_strbuf *b, const char *text,
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

/* ------------------------------------------------------------ numbers */

/* Appends 'd' as a C double literal that reads back exactly. */
static void put_double(segc_strbuf *b, double d)
{
	char buf[64];
	int prec;

	for (prec = 15; prec <= 17; prec++) {
		snprintf(buf, sizeof buf, "%.*g", prec, d);
		if (strtod(buf, NULL) == d)
			break;
	}
	if (strtod(buf, NULL) != d)
		snprintf(buf, sizeof buf, "%a", d);
	segc_strbuf_append(b, buf);
	if (!strpbrk(buf, ".enpx"))
		segc_strbuf_append(b, ".0");
}

/* --------------------------------------------------- printing a plan */

/* Names of the values of one plan. */
typedef struct namer {
	const segc_plan *p;
	char **arg;           /* C names of the arguments */
	const char *tprefix;  /* temporaries */
	const char *cprefix;  /* constants */
	const char *kprefix;  /* loop counters */
	size_t *number;       /* per value: its number among temps/consts */
	int accurate;         /* double-double values */
} namer;

/* Non-zero when value 'i' is a plain double in every mode: an argument
 * or a loop counter. */
static int is_plain(const namer *nm, size_t i)
{
	enum segc_plan_op op = nm->p->insn[i].op;

	return op == SEGC_OP_ARG || op == SEGC_OP_COUNTER;
}

/* Appends the C name of value 'i'. */
static void put_value(segc_strbuf *b, const namer *nm, size_t i)
{
	const segc_plan_insn *in = &nm->p->insn[i];

	if (in->op == SEGC_OP_ARG)
		segc_strbuf_append(b, nm->arg[in->a]);
	else
		segc_strbuf_appendf(b, "%s%lu", in->op == SEGC_OP_CONST ?
			nm->cprefix : in->op == SEGC_OP_COUNTER ? nm->kprefix :
			nm->tprefix, (unsigned long)nm->number[i]);
}

/* Appends value 'i' as a double: its high part in double-double. */
static void put_plain(segc_strbuf *b, const namer *nm, size_t i)
{
	put_value(b, nm, i);
	if (nm->accurate && !is_plain(nm, i))
		segc_strbuf_append(b, ".hi");
}

/* Appends the C expression of the comparison 'op' of values 'x' and 'y'
 * in double: == and != without comparing doubles for equality. */
static void put_compare(segc_strbuf *b, const namer *nm,
	enum segc_plan_op op, size_t x, size_t y)
{
	static const char *const infix[] = { " < ", " <= ", " > ", " >= " };

	if (op == SEGC_OP_EQ || op == SEGC_OP_NE) {
		segc_strbuf_append(b, op == SEGC_OP_EQ ? "(" : "!(");
		put_value(b, nm, x);
		segc_strbuf_append(b, " <= ");
		put_value(b, nm, y);
		segc_strbuf_append(b, " && ");
		put_value(b, nm, x);
		segc_strbuf_append(b, " >= ");
		put_value(b, nm, y);
		segc_strbuf_append(b, ")");
		return;
	}
	put_value(b, nm, x);
	segc_strbuf_append(b, infix[op - SEGC_OP_LT]);
	put_value(b, nm, y);
}

/* The C function of the instruction 'op' (SEGC_OP_CEIL .. SEGC_OP_FMIN,
 * in that order): the one of its built-in. */
static const char *c_function(enum segc_plan_op op)
{
	static const enum segc_builtin of[] = {
		SEGC_BUILTIN_CEIL, SEGC_BUILTIN_FLOOR, SEGC_BUILTIN_SQRT,
		SEGC_BUILTIN_LOG2, SEGC_BUILTIN_MAX, SEGC_BUILTIN_MIN
	};

	return segc_builtin_get(of[op - SEGC_OP_CEIL])->c;
}

/* Appends the C expression of instruction 'i'. */
static void put_insn_expr(segc_strbuf *b, const namer *nm, size_t i)
{
	static const char *const infix[] = { " + ", " - ", " * ", " / " };
	const segc_plan_insn *in = &nm->p->insn[i];

	switch (in->op) {
	case SEGC_OP_ADD: case SEGC_OP_SUB: case SEGC_OP_MUL: case SEGC_OP_DIV:
		put_value(b, nm, in->a);
		segc_strbuf_append(b, infix[in->op - SEGC_OP_ADD]);
		put_value(b, nm, in->b);
		break;
	case SEGC_OP_NEG: case SEGC_OP_NOT:
		segc_strbuf_append(b, in->op == SEGC_OP_NEG ? "-" : "!");
		put_value(b, nm, in->a);
		break;
	case SEGC_OP_FMAX: case SEGC_OP_FMIN:
		segc_strbuf_appendf(b, "%s(", c_function(in->op));
		put_value(b, nm, in->a);
		segc_strbuf_append(b, ", ");
		put_value(b, nm, in->b);
		segc_strbuf_append(b, ")");
		break;
	case SEGC_OP_LT: case SEGC_OP_LE: case SEGC_OP_GT: case SEGC_OP_GE:
	case SEGC_OP_EQ: case SEGC_OP_NE:
		put_compare(b, nm, in->op, in->a, in->b);
		break;
	default:
		segc_strbuf_appendf(b, "%s(", c_function(in->op));
		put_value(b, nm, in->a);
		segc_strbuf_append(b, ")");
		break;
	}
}

/* Appends value 'i' as a double-double operand. */
static void put_dd_value(segc_strbuf *b, const namer *nm, size_t i)
{
	if (is_plain(nm, i)) {
		segc_strbuf_append(b, "dd_d(");
		put_value(b, nm, i);
		segc_strbuf_appendc(b, ')');
	} else {
		put_value(b, nm, i);
	}
}

/* Appends the double-double expression of instruction 'i'; a plain
 * operand of + and * is passed as a double. */
static void put_dd_expr(segc_strbuf *b, const namer *nm, size_t i)
{
	static const char *const fn[] = {
		"dd_add", "dd_sub", "dd_mul", "dd_div", "dd_neg", "dd_ceil",
		"dd_floor", "dd_sqrt", "dd_log2", "dd_max", "dd_min", "dd_lt",
		"dd_le", "dd_gt", "dd_ge", "dd_eq", "dd_ne"
	};
	const segc_plan_insn *in = &nm->p->insn[i];
	size_t x = in->a, y = in->b;
	int commutes = in->op == SEGC_OP_ADD || in->op == SEGC_OP_MUL;

	if (in->op == SEGC_OP_NOT) {
		segc_strbuf_append(b, "!");
		put_value(b, nm, x);
		return;
	}
	if (commutes && is_plain(nm, x)) {
		x = in->b;
		y = in->a;
	}
	if (commutes && is_plain(nm, y)) {
		segc_strbuf_appendf(b, "%s_d(", fn[in->op - SEGC_OP_ADD]);
		put_dd_value(b, nm, x);
		segc_strbuf_append(b, ", ");
		put_value(b, nm, y);
		segc_strbuf_appendc(b, ')');
		return;
	}
	segc_strbuf_appendf(b, "%s(", fn[in->op - SEGC_OP_ADD]);
	put_dd_value(b, nm, x);
	if (segc_plan_noperands(in) == 2) {
		segc_strbuf_append(b, ", ");
		put_dd_value(b, nm, y);
	}
	segc_strbuf_appendc(b, ')');
}

/* Appends the constant 'q' as a double-double: the nearest double and
 * the double nearest to what it leaves. */
static void put_dd_const(segc_strbuf *b, mpq_srcptr q)
{
	mpq_t r;
	double hi = 0, lo = 0;

	mpq_init(r);
	if (segc_plan_round(&hi, q))
		hi = 0;
	mpq_set_d(r, hi);
	mpq_sub(r, q, r);
	if (segc_plan_round(&lo, r))
		lo = 0;
	mpq_clear(r);
	segc_strbuf_append(b, "{ ");
	put_double(b, hi);
	segc_strbuf_append(b, ", ");
	put_double(b, lo);
	segc_strbuf_append(b, " }");
}

/* Appends 'depth' tabs. */
static void put_indent(segc_strbuf *b, unsigned depth)
{
	while (depth--)
		segc_strbuf_appendc(b, '\t');
}

/* The C type of value 'i'. */
static const char *value_type(const namer *nm, size_t i)
{
	if (segc_plan_is_condition(&nm->p->insn[i]))
		return "int";
	return nm->accurate ? "segc_dd" : "double";
}

/* Appends value 'i' as an operand of its own type's operations: a plain
 * one made a double-double in double-double. */
static void put_operand(segc_strbuf *b, const namer *nm, size_t i)
{
	if (nm->accurate && !segc_plan_is_condition(&nm->p->insn[i]))
		put_dd_value(b, nm, i);
	else
		put_value(b, nm, i);
}

/* Appends a constant's declaration. */
static void put_const(segc_strbuf *b, const namer *nm, size_t i,
	unsigned depth)
{
	const segc_plan_insn *in = &nm->p->insn[i];

	put_indent(b, depth);
	segc_strbuf_appendf(b, "const %s ", value_type(nm, i));
	put_value(b, nm, i);
	segc_strbuf_append(b, " = ");
	if (nm->accurate)
		put_dd_const(b, in->q);
	else
		put_double(b, in->value);
	segc_strbuf_append(b, "; /* ");
	segc_strbuf_append_mpq(b, in->q);
	if (!nm->accurate && in->rounding)
		segc_strbuf_append(b, in->rounding > 0 ? ", rounded up" :
			", rounded down");
	segc_strbuf_append(b, " */\n");
}

static void put_block(segc_strbuf *b, const namer *nm, size_t blk,
	unsigned depth);

/* Non-zero when block 'blk' has a statement to print. */
static int block_has_code(const namer *nm, size_t blk)
{
	const segc_plan_block *k = &nm->p->blocks[blk];
	size_t i;

	for (i = k->first; i < k->end; i++)
		if (nm->p->insn[i].block == blk && nm->p->insn[i].uses &&
		    nm->p->insn[i].op != SEGC_OP_CONST && !is_plain(nm, i))
			return 1;
	return 0;
}

/* Appends "name = value;" at 'depth'. */
static void put_assign(segc_strbuf *b, const namer *nm, size_t name,
	size_t value, unsigned depth)
{
	put_indent(b, depth);
	put_value(b, nm, name);
	segc_strbuf_append(b, " = ");
	put_operand(b, nm, value);
	segc_strbuf_append(b, ";\n");
}

/* Appends the SELECT 'i': a conditional expression, or an if/else when
 * either side has code of its own. */
static void put_select(segc_strbuf *b, const namer *nm, size_t i,
	unsigned depth)
{
	const segc_plan_insn *in = &nm->p->insn[i];

	put_indent(b, depth);
	if (!block_has_code(nm, in->sub[0]) && !block_has_code(nm, in->sub[1])) {
		segc_strbuf_appendf(b, "const %s ", value_type(nm, i));
		put_value(b, nm, i);
		segc_strbuf_append(b, " = ");
		put_value(b, nm, in->a);
		segc_strbuf_append(b, " ? ");
		put_operand(b, nm, in->b);
		segc_strbuf_append(b, " : ");
		put_operand(b, nm, in->c);
		segc_strbuf_append(b, ";\n");
		return;
	}
	segc_strbuf_appendf(b, "%s ", value_type(nm, i));
	put_value(b, nm, i);
	segc_strbuf_append(b, ";\n");
	put_indent(b, depth);
	segc_strbuf_append(b, "if (");
	put_value(b, nm, in->a);
	segc_strbuf_append(b, ") {\n");
	put_block(b, nm, in->sub[0], depth + 1);
	put_assign(b, nm, i, in->b, depth + 1);
	put_indent(b, depth);
	segc_strbuf_append(b, "} else {\n");
	put_block(b, nm, in->sub[1], depth + 1);
	put_assign(b, nm, i, in->c, depth + 1);
	put_indent(b, depth);
	segc_strbuf_append(b, "}\n");
}

/* Appends the AND or OR 'i': the right operand computed only when the
 * left one leaves the result undecided. */
static void put_junction(segc_strbuf *b, const namer *nm, size_t i,
	unsigned depth)
{
	const segc_plan_insn *in = &nm->p->insn[i];
	int is_and = in->op == SEGC_OP_AND;

	put_indent(b, depth);
	if (!block_has_code(nm, in->sub[0])) {
		segc_strbuf_append(b, "const int ");
		put_value(b, nm, i);
		segc_strbuf_append(b, " = ");
		put_value(b, nm, in->a);
		segc_strbuf_append(b, is_and ? " && " : " || ");
		put_value(b, nm, in->b);
		segc_strbuf_append(b, ";\n");
		return;
	}
	segc_strbuf_append(b, "int ");
	put_value(b, nm, i);
	segc_strbuf_append(b, " = ");
	put_value(b, nm, in->a);
	segc_strbuf_append(b, ";\n");
	put_indent(b, depth);
	segc_strbuf_append(b, is_and ? "if (" : "if (!");
	put_value(b, nm, i);
	segc_strbuf_append(b, ") {\n");
	put_block(b, nm, in->sub[0], depth + 1);
	put_assign(b, nm, i, in->b, depth + 1);
	put_indent(b, depth);
	segc_strbuf_append(b, "}\n");
}

/* Appends the SUM 'i': a loop over its counter from 'a' while <= 'b',
 * NaN when it would count beyond 2^53 (or a bound is NaN). */
static void put_sum(segc_strbuf *b, const namer *nm, size_t i,
	unsigned depth)
{
	const segc_plan_insn *in = &nm->p->insn[i];

	put_indent(b, depth);
	segc_strbuf_appendf(b, "%s ", value_type(nm, i));
	put_value(b, nm, i);
	segc_strbuf_append(b, nm->accurate ? " = dd_d(0);\n" : " = 0;\n");
	put_indent(b, depth);
	segc_strbuf_append(b, "if (");
	put_plain(b, nm, in->b);
	segc_strbuf_append(b, " - ");
	put_plain(b, nm, in->a);
	segc_strbuf_append(b, " < 9007199254740992.0) {\n");
	put_indent(b, depth + 1);
	segc_strbuf_append(b, "double ");
	put_value(b, nm, in->counter);
	segc_strbuf_append(b, ";\n\n");
	put_indent(b, depth + 1);
	segc_strbuf_append(b, "for (");
	put_value(b, nm, in->counter);
	segc_strbuf_append(b, " = ");
	put_plain(b, nm, in->a);
	segc_strbuf_append(b, "; ");
	if (nm->accurate && !is_plain(nm, in->b)) {
		segc_strbuf_append(b, "dd_le(dd_d(");
		put_value(b, nm, in->counter);
		segc_strbuf_append(b, "), ");
		put_value(b, nm, in->b);
		segc_strbuf_append(b, ")");
	} else {
		put_value(b, nm, in->counter);
		segc_strbuf_append(b, " <= ");
		put_value(b, nm, in->b);
	}
	segc_strbuf_append(b, "; ");
	put_value(b, nm, in->counter);
	segc_strbuf_append(b, " += 1) {\n");
	put_block(b, nm, in->sub[0], depth + 2);
	put_indent(b, depth + 2);
	put_value(b, nm, i);
	if (nm->accurate) {
		segc_strbuf_append(b, is_plain(nm, in->c) ? " = dd_add_d(" :
			" = dd_add(");
		put_value(b, nm, i);
		segc_strbuf_append(b, ", ");
		put_value(b, nm, in->c);
		segc_strbuf_append(b, ");\n");
	} else {
		segc_strbuf_append(b, " += ");
		put_value(b, nm, in->c);
		segc_strbuf_append(b, ";\n");
	}
	put_indent(b, depth + 1);
	segc_strbuf_append(b, "}\n");
	put_indent(b, depth);
	segc_strbuf_append(b, "} else {\n");
	put_indent(b, depth + 1);
	put_value(b, nm, i);
	segc_strbuf_append(b, nm->accurate ? " = dd_d(NAN);\n" : " = NAN;\n");
	put_indent(b, depth);
	segc_strbuf_append(b, "}\n");
}

/* Appends one live instruction as a declaration (or the statements of a
 * conditional or a loop). */
static void put_insn(segc_strbuf *b, const namer *nm, size_t i,
	unsigned depth)
{
	switch (nm->p->insn[i].op) {
	case SEGC_OP_CONST:
		put_const(b, nm, i, depth);
		return;
	case SEGC_OP_SELECT:
		put_select(b, nm, i, depth);
		return;
	case SEGC_OP_AND: case SEGC_OP_OR:
		put_junction(b, nm, i, depth);
		return;
	case SEGC_OP_SUM:
		put_sum(b, nm, i, depth);
		return;
	default:
		break;
	}
	put_indent(b, depth);
	segc_strbuf_appendf(b, "const %s ", value_type(nm, i));
	put_value(b, nm, i);
	segc_strbuf_append(b, " = ");
	if (nm->accurate)
		put_dd_expr(b, nm, i);
	else
		put_insn_expr(b, nm, i);
	segc_strbuf_append(b, ";\n");
}

/* Appends the statements of block 'blk', in the order of their values,
 * at 'depth'. */
static void put_block(segc_strbuf *b, const namer *nm, size_t blk,
	unsigned depth)
{
	const segc_plan_block *k = &nm->p->blocks[blk];
	size_t i;

	for (i = k->first; i < k->end; i++)
		if (nm->p->insn[i].block == blk && nm->p->insn[i].uses &&
		    !is_plain(nm, i))
			put_insn(b, nm, i, depth);
}

/* Appends the body statements of the plan: constants, then one temporary
 * per operation, then the return. */
static void put_plan_body(segc_strbuf *b, const namer *nm)
{
	const segc_plan *p = nm->p;
	size_t i;
	int *used = segc_xcalloc(p->nargs + 1, sizeof *used);

	for (i = 0; i < p->n; i++)
		if (p->insn[i].op == SEGC_OP_ARG && p->insn[i].uses)
			used[p->insn[i].a] = 1;
	for (i = 0; i < p->nargs; i++)
		if (!used[i])
			segc_strbuf_appendf(b, "\t(void)%s;\n", nm->arg[i]);
	free(used);
	if (nm->accurate)
		segc_strbuf_append(b, "\tSEGC_DD_USES;\n");
	put_block(b, nm, 0, 1);
	segc_strbuf_append(b, "\n\treturn ");
	put_plain(b, nm, p->result);
	segc_strbuf_append(b, ";\n");
}

/* Numbers the constants, the temporaries and the counters of 'nm->p'
 * separately. */
static void number_values(namer *nm)
{
	size_t i, nc = 0, nt = 0, nk = 0;

	nm->number = segc_xcalloc(nm->p->n + 1, sizeof *nm->number);
	for (i = 0; i < nm->p->n; i++) {
		if (!nm->p->insn[i].uses)
			continue;
		if (nm->p->insn[i].op == SEGC_OP_CONST)
			nm->number[i] = nc++;
		else if (nm->p->insn[i].op == SEGC_OP_COUNTER)
			nm->number[i] = nk++;
		else if (nm->p->insn[i].op != SEGC_OP_ARG)
			nm->number[i] = nt++;
	}
}

/* ------------------------------------------------------ the functions */

/* The state of one rendering. */
typedef struct emitter {
	segc_ctx *ctx;
	const segc_emit_input *in;
	const segc_where *where;
	char *prefix;          /* C prefix of the functions */
	char **arg;            /* C names of the arguments */
	char *tprefix, *cprefix, *kprefix;
	segc_strbuf functions, prototypes, wrappers, wnames, fnames;
	size_t nfuncs;
} emitter;

static const char *const component_words[4] = {
	"total time", "computation time", "communication time",
	"input and output time"
};

/* Appends the parameter list "(double N, double P, ...)". */
static void put_params(segc_strbuf *b, const emitter *em)
{
	size_t i;

	segc_strbuf_appendc(b, '(');
	for (i = 0; i < em->in->nargs; i++)
		segc_strbuf_appendf(b, "%sdouble %s", i ? ", " : "", em->arg[i]);
	segc_strbuf_appendc(b, ')');
}

/* Appends the comment before the function of component 'c'. */
static void put_function_comment(segc_strbuf *b, int c,
	const segc_expr *e, const segc_plan *p, int accurate)
{
	char *text = segc_expr_to_string(e);

	segc_strbuf_appendf(b, "\n/* The %s of the model, %lu operations%s:\n",
		component_words[c], p->flops, accurate ?
		" in double-double arithmetic" : "");
	put_comment_text(b, text ? text : "", " *   ");
	segc_strbuf_append(b, " */\n");
	free(text);
}

/* Renders the function of component 'c' from its plan. */
static void put_function(emitter *em, int c, const segc_expr *e,
	const segc_plan *p)
{
	const char *cname = segc_component_name((enum segc_component)c);
	namer nm;
	size_t i;

	nm.p = p;
	nm.arg = em->arg;
	nm.tprefix = em->tprefix;
	nm.cprefix = em->cprefix;
	nm.kprefix = em->kprefix;
	nm.accurate = em->in->accurate;
	number_values(&nm);
	put_function_comment(&em->functions, c, e, p, em->in->accurate);
	segc_strbuf_appendf(&em->functions, "double %s_%s", em->prefix, cname);
	put_params(&em->functions, em);
	segc_strbuf_append(&em->functions, "\n{\n");
	put_plan_body(&em->functions, &nm);
	segc_strbuf_append(&em->functions, "}\n");
	free(nm.number);
	segc_strbuf_appendf(&em->prototypes, "/* The %s. */\ndouble %s_%s",
		component_words[c], em->prefix, cname);
	put_params(&em->prototypes, em);
	segc_strbuf_append(&em->prototypes, ";\n");
	segc_strbuf_appendf(&em->wrappers, "\n/* %s_%s at the point 'a'. */\n"
		"static double call_%s(const double *a)\n{\n\treturn %s_%s(",
		em->prefix, cname, cname, em->prefix, cname);
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

/* Reports every unbound name and uninterpreted call of the formulas, each
 * once; 0 when there is none. */
static int check_emittable(emitter *em)
{
	const char **seen = NULL;
	size_t nseen = 0, c, i, j, n;
	int calls, bad = 0;

	for (calls = 0; calls < 2; calls++)
		for (c = 0; c < 4; c++) {
			const char **v;

			if (!em->in->formulas[c])
				continue;
			n = segc_output_names(em->in->formulas[c], calls, &v);
			for (i = 0; i < n; i++) {
				if (!calls && is_arg(em->in, v[i]))
					continue;
				for (j = 0; j < nseen && strcmp(seen[j], v[i]); j++)
					;
				if (j < nseen)
					continue;
				seen = segc_xrealloc(seen, (nseen + 1) * sizeof *seen);
				seen[nseen++] = v[i];
				emit_error(em, SEGC_ERR_INPUT, calls ?
					"cannot emit C while the uninterpreted call '%s' "
					"remains: give a machine that defines it" :
					"cannot emit C while '%s' is unbound: bind it "
					"(-D, a machine) or keep it as an argument "
					"(--keep)", v[i]);
				bad = 1;
			}
			free(v);
		}
	free(seen);
	return bad ? -1 : 0;
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

/* A prefix for numbered locals that no argument name collides with. */
static char *local_prefix(const emitter *em, char first)
{
	segc_strbuf b;
	size_t i;
	int clash = 1;

	segc_strbuf_init(&b);
	segc_strbuf_appendc(&b, first);
	while (clash) {
		clash = 0;
		for (i = 0; i < em->in->nargs; i++)
			if (prefix_digits(em->arg[i], segc_strbuf_str(&b)))
				clash = 1;
		if (clash)
			segc_strbuf_appendc(&b, first);
	}
	return segc_strbuf_take(&b);
}

/* Chooses the C names of the prefix and the arguments; -1 when two
 * arguments end up with the same name. */
static int choose_names(emitter *em)
{
	size_t i, j;

	em->prefix = segc_emit_identifier(em->in->prefix ? em->in->prefix :
		em->in->model_name);
	em->arg = segc_xcalloc(em->in->nargs + 1, sizeof *em->arg);
	for (i = 0; i < em->in->nargs; i++)
		em->arg[i] = segc_emit_identifier(em->in->args[i]);
	for (i = 0; i < em->in->nargs; i++)
		for (j = 0; j < i; j++)
			if (!strcmp(em->arg[i], em->arg[j])) {
				emit_error(em, SEGC_ERR_INPUT, "two arguments "
					"would both be named '%s' in C", em->arg[i]);
				return -1;
			}
	em->tprefix = local_prefix(em, 't');
	em->cprefix = local_prefix(em, 'c');
	em->kprefix = local_prefix(em, 'k');
	return 0;
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
		put_function(em, c, e, p);
		segc_plan_free(p);
	}
	return 0;
}

/* ------------------------------------------------------- templates */

/* Appends the value of the key at 'key' ('n' bytes) or returns -1. */
static int put_key(segc_strbuf *b, const char *key, size_t n, size_t nkeys,
	const char *const *keys, const char *const *values)
{
	size_t i;

	for (i = 0; i < nkeys; i++)
		if (strlen(keys[i]) == n && !strncmp(keys[i], key, n)) {
			segc_strbuf_append(b, values[i]);
			return 0;
		}
	return -1;
}

/* Replaces every @KEY@ of 'tmpl'. */
char *segc_template_fill(segc_ctx *ctx, const char *tmpl,
	const char *tmpl_name, size_t nkeys, const char *const *keys,
	const char *const *values)
{
	segc_strbuf b;
	const char *s = tmpl;
	unsigned long line = 1;

	segc_strbuf_init(&b);
	while (*s) {
		size_t n = 0;

		if (*s == '@')
			while ((s[1 + n] >= 'A' && s[1 + n] <= 'Z') || s[1 + n] == '_')
				n++;
		if (*s != '@' || !n || s[1 + n] != '@') {
			line += *s == '\n';
			segc_strbuf_appendc(&b, *s++);
			continue;
		}
		if (put_key(&b, s + 1, n, nkeys, keys, values)) {
			segc_error(ctx, SEGC_ERR_INPUT, tmpl_name, line, 0,
				"unknown placeholder '@%.*s@'", (int)n, s + 1);
			segc_strbuf_free(&b);
			return NULL;
		}
		s += n + 2;
	}
	return segc_strbuf_take(&b);
}

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
		put_comment_text(&b, d, " * ");
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
		segc_strbuf_appendf(&names, "%s\"%s\"", i ? ", " : "", em->arg[i]);
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
	char *guard = guard_name(em->prefix);
	char *desc = description_comment(em->in->description);
	char *main_part = render_main(em, t);
	char *model = segc_emit_identifier(em->in->model_name);

	values[0] = em->in->base;
	values[1] = model;
	values[2] = desc;
	values[3] = guard;
	values[4] = segc_strbuf_str(&em->prototypes);
	values[5] = segc_strbuf_str(&em->functions);
	values[6] = main_part ? main_part : "";
	values[7] = em->prefix;
	values[8] = em->in->accurate ? t->dd_part : "";
	*c_text = main_part ? segc_template_fill(em->ctx, t->c_file,
		"predictor.c.in", 9, keys, values) : NULL;
	*h_text = *c_text ? segc_template_fill(em->ctx, t->h_file,
		"predictor.h.in", 9, keys, values) : NULL;
	free(guard);
	free(desc);
	free(main_part);
	free(model);
	return *c_text && *h_text ? 0 : -1;
}

/* Releases what 'em' holds. */
static void emitter_clear(emitter *em)
{
	size_t i;

	for (i = 0; em->arg && i < em->in->nargs; i++)
		free(em->arg[i]);
	free(em->arg);
	free(em->prefix);
	free(em->tprefix);
	free(em->cprefix);
	free(em->kprefix);
	segc_strbuf_free(&em->functions);
	segc_strbuf_free(&em->prototypes);
	segc_strbuf_free(&em->wrappers);
	segc_strbuf_free(&em->wnames);
	segc_strbuf_free(&em->fnames);
}

/* Non-zero when 'base' may stand in #include "...": letters, digits and
 * "_-.+" only. */
static int base_is_safe(const char *base)
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
	if (!base_is_safe(in->base)) {
		emit_error(&em, SEGC_ERR_INPUT, "the file name '%s' may hold only "
			"letters, digits and '_', '-', '.', '+'", in->base);
		return -1;
	}
	if (check_emittable(&em) || choose_names(&em) ||
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
