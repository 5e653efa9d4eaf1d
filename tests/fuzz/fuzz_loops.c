/* fuzz_loops.c - fuzz target whose oracle is the literal run of a loop
 * nest: the input bytes decode into a nest of one to three
 * <loop var from to> whose bounds and step costs use the counters, the
 * parameter N (0 <= N <= 6), small constants, min, max, if, floor, ceil,
 * + and * by constants.  The total segc derives (structural and
 * canonical forms) is evaluated exactly at N = 0 .. 6 and must equal the
 * sum the nest adds up when run as C runs it, in GMP rationals.  A
 * derivation refused at a limit, or a value the exact evaluator cannot
 * compute, is skipped. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gmp.h>

#include <segc/segc_model.h>

#include "fuzz.h"

/* Most expression nodes of one input; most nesting of one expression. */
#define MAX_NODES 1024
#define MAX_DEPTH 3
#define MAX_LOOPS 3
#define MAX_N 6
#define TEXT_CAP 32768

enum op { K, VAR, PARAM_N, ADD, MUL, MIN, MAX, IF, FLOOR, CEIL, HALF };
enum rel { LT, LE, GT, GE, EQ, NE };

/* An expression of the nest: a constant 'k', counter 'k', N, or an
 * operation on a .. d (IF: a 'k' b ? c : d; MUL: k*a; FLOOR, CEIL: of
 * a/k; HALF: a/2). */
struct ex {
	enum op op;
	int k;
	struct ex *a, *b, *c, *d;
};

/* The decoder: the input bytes, then zeros. */
struct dec {
	const uint8_t *p;
	size_t n;
	struct ex pool[MAX_NODES];
	size_t used;
};

/* One loop: its counter's bounds and the costs of the steps before and
 * after the inner loop (NULL: no step). */
struct loop {
	struct ex *lo, *hi, *before, *after;
};

static const char *const counter_names[MAX_LOOPS] = { "i", "j", "k" };

/* The next byte of 'd'; 0 once the input is used up. */
static unsigned next(struct dec *d)
{
	if (!d->n)
		return 0;
	d->n--;
	return *d->p++;
}

/* A new node of 'd' (the pool is large enough for any input). */
static struct ex *node(struct dec *d, enum op op, int k)
{
	struct ex *e;

	fuzz_check(d->used < MAX_NODES, "the expression pool is large enough");
	e = &d->pool[d->used++];
	memset(e, 0, sizeof *e);
	e->op = op;
	e->k = k;
	return e;
}

/* A leaf over 'nvars' counters: a constant -2 .. 6 (1 for a zero byte),
 * a counter or N. */
static struct ex *leaf(struct dec *d, int nvars)
{
	static const int consts[] = { 1, 2, 0, 3, -1, 4, -2, 5, 6 };
	unsigned b = next(d);

	switch (b % 4) {
	case 0:
		return node(d, K, consts[b / 4 % 9]);
	case 1:
	case 2:
		if (nvars)
			return node(d, VAR, (int)(b / 4 % (unsigned)nvars));
		return node(d, PARAM_N, 0);
	default:
		return node(d, PARAM_N, 0);
	}
}

/* An expression over 'nvars' counters, at most 'depth' operations deep. */
static struct ex *gen(struct dec *d, int nvars, int depth)
{
	unsigned b = next(d);
	struct ex *e;

	if (depth <= 0 || b % 10 < 3)
		return leaf(d, nvars);
	switch (b % 10) {
	case 3:
		e = node(d, ADD, 0);
		break;
	case 4:
		e = node(d, MUL, (int)(b / 10 % 5) - 1);
		break;
	case 5:
		e = node(d, b / 10 % 2 ? MIN : MAX, 0);
		break;
	case 6:
		e = node(d, IF, (int)(b / 10 % 6));
		break;
	case 7:
		e = node(d, FLOOR, 2 + (int)(b / 10 % 3));
		break;
	case 8:
		e = node(d, CEIL, 2 + (int)(b / 10 % 3));
		break;
	default:
		e = node(d, HALF, 0);
		break;
	}
	e->a = gen(d, nvars, depth - 1);
	if (e->op == ADD || e->op == MIN || e->op == MAX || e->op == IF)
		e->b = gen(d, nvars, depth - 1);
	if (e->op == IF) {
		e->c = gen(d, nvars, depth - 1);
		e->d = gen(d, nvars, depth - 1);
	}
	return e;
}

/* A counter of 'nvars' plus 'c', or N plus 'c' when there is none. */
static struct ex *shifted(struct dec *d, int nvars, unsigned b, int c)
{
	struct ex *e = node(d, ADD, 0);

	e->a = nvars ? node(d, VAR, (int)(b % (unsigned)nvars)) :
		node(d, PARAM_N, 0);
	e->b = node(d, K, c);
	return e;
}

/* A lower bound over 'nvars' outer counters (at most 8 in value, so that
 * no range runs more than about 20 times). */
static struct ex *lower(struct dec *d, int nvars)
{
	unsigned b = next(d);
	struct ex *e;

	switch (b % 5) {
	case 0:
	case 1:
		return node(d, K, (int)(b / 5 % 5) - 1);
	case 2:
		return shifted(d, nvars, b / 5, (int)(b / 20 % 4) - 1);
	case 3:
		e = node(d, HALF, 0);
		e->a = node(d, K, (int)(b / 5 % 5));
		return e;
	default:
		e = node(d, b / 5 % 2 ? CEIL : FLOOR, 2);
		e->a = node(d, PARAM_N, 0);
		return e;
	}
}

/* An upper bound over 'nvars' outer counters (at most 12 in value). */
static struct ex *upper(struct dec *d, int nvars)
{
	unsigned b = next(d);
	struct ex *e;

	switch (b % 6) {
	case 0:
		return node(d, K, (int)(b / 6 % 9) - 1);
	case 1:
		e = node(d, ADD, 0);
		e->a = node(d, PARAM_N, 0);
		e->b = node(d, K, (int)(b / 6 % 5) - 1);
		return e;
	case 2:
		return shifted(d, nvars, b / 6, (int)(b / 24 % 4) - 1);
	case 3:
		e = node(d, b / 6 % 2 ? MIN : MAX, 0);
		e->a = node(d, PARAM_N, 0);
		e->b = node(d, K, (int)(b / 12 % 6));
		return e;
	case 4:
		e = node(d, b / 6 % 2 ? CEIL : FLOOR, 2 + (int)(b / 12 % 2));
		e->a = node(d, ADD, 0);
		e->a->a = node(d, PARAM_N, 0);
		e->a->b = node(d, K, (int)(b / 24 % 4));
		return e;
	default:
		e = node(d, ADD, 0);
		e->a = node(d, PARAM_N, 0);
		e->b = node(d, MUL, -1);
		e->b->a = nvars ? node(d, VAR, (int)(b / 6 % (unsigned)nvars)) :
			node(d, K, (int)(b / 6 % 3));
		return e;
	}
}

/* Appends 's' to the text 'buf' (of 'len' bytes so far). */
static void put(char *buf, size_t *len, const char *s)
{
	size_t n = strlen(s);

	fuzz_check(*len + n < TEXT_CAP, "the model text fits its buffer");
	memcpy(buf + *len, s, n + 1);
	*len += n;
}

/* Writes 'e' into 'buf' as an expression of the format, escaped for an
 * XML attribute. */
static void print_ex(char *buf, size_t *len, const struct ex *e)
{
	static const char *const rels[] = { " &lt; ", " &lt;= ", " &gt; ",
		" &gt;= ", " == ", " != " };
	char num[32];

	switch (e->op) {
	case K:
		snprintf(num, sizeof num, e->k < 0 ? "(%d)" : "%d", e->k);
		put(buf, len, num);
		return;
	case VAR:
		put(buf, len, counter_names[e->k]);
		return;
	case PARAM_N:
		put(buf, len, "N");
		return;
	case MUL:
		snprintf(num, sizeof num, e->k < 0 ? "(%d)*(" : "%d*(", e->k);
		put(buf, len, num);
		break;
	case MIN:
		put(buf, len, "min(");
		break;
	case MAX:
		put(buf, len, "max(");
		break;
	case IF:
		put(buf, len, "if(");
		print_ex(buf, len, e->a);
		put(buf, len, rels[e->k]);
		print_ex(buf, len, e->b);
		put(buf, len, ", ");
		print_ex(buf, len, e->c);
		put(buf, len, ", ");
		print_ex(buf, len, e->d);
		put(buf, len, ")");
		return;
	case FLOOR:
	case CEIL:
		put(buf, len, e->op == FLOOR ? "floor((" : "ceil((");
		print_ex(buf, len, e->a);
		snprintf(num, sizeof num, ")/%d)", e->k);
		put(buf, len, num);
		return;
	case HALF:
		put(buf, len, "(");
		print_ex(buf, len, e->a);
		put(buf, len, ")/2");
		return;
	default:
		put(buf, len, "(");
		break;
	}
	print_ex(buf, len, e->a);
	if (e->b) {
		put(buf, len, e->op == ADD ? " + " : ", ");
		print_ex(buf, len, e->b);
	}
	put(buf, len, ")");
}

/* Sets 'r' to the value of 'e' with counters 'vars' and N = 'n'. */
static void eval_ex(mpq_t r, const struct ex *e, const mpq_t *vars, long n)
{
	mpq_t a, b;
	mpz_t z;
	int cmp, holds = 0;

	switch (e->op) {
	case K:
		mpq_set_si(r, e->k, 1);
		return;
	case VAR:
		mpq_set(r, vars[e->k]);
		return;
	case PARAM_N:
		mpq_set_si(r, n, 1);
		return;
	default:
		break;
	}
	mpq_init(a);
	mpq_init(b);
	mpz_init(z);
	eval_ex(a, e->a, vars, n);
	if (e->b)
		eval_ex(b, e->b, vars, n);
	switch (e->op) {
	case ADD:
		mpq_add(r, a, b);
		break;
	case MUL:
		mpq_set_si(b, e->k, 1);
		mpq_mul(r, a, b);
		break;
	case MIN:
		mpq_set(r, mpq_cmp(a, b) <= 0 ? a : b);
		break;
	case MAX:
		mpq_set(r, mpq_cmp(a, b) >= 0 ? a : b);
		break;
	case IF:
		cmp = mpq_cmp(a, b);
		holds = e->k == LT ? cmp < 0 : e->k == LE ? cmp <= 0 :
			e->k == GT ? cmp > 0 : e->k == GE ? cmp >= 0 :
			e->k == EQ ? cmp == 0 : cmp != 0;
		eval_ex(r, holds ? e->c : e->d, vars, n);
		break;
	case FLOOR:
	case CEIL:
		mpz_mul_si(z, mpq_denref(a), e->k);
		if (e->op == FLOOR)
			mpz_fdiv_q(z, mpq_numref(a), z);
		else
			mpz_cdiv_q(z, mpq_numref(a), z);
		mpq_set_z(r, z);
		break;
	default: /* HALF */
		mpq_set_si(b, 1, 2);
		mpq_mul(r, a, b);
		break;
	}
	mpq_clear(a);
	mpq_clear(b);
	mpz_clear(z);
}

/* Adds to 'total' what loop 'depth' of 'loops' (of 'nloops') costs, run
 * literally: its counter over every integer from ceil(lo) to floor(hi). */
static void run(mpq_t total, const struct loop *loops, int nloops, int depth,
	mpq_t *vars, long n)
{
	mpq_t lo, hi, c;
	mpz_t z;

	mpq_init(lo);
	mpq_init(hi);
	mpq_init(c);
	mpz_init(z);
	eval_ex(lo, loops[depth].lo, vars, n);
	eval_ex(hi, loops[depth].hi, vars, n);
	mpz_cdiv_q(z, mpq_numref(lo), mpq_denref(lo));
	for (mpq_set_z(vars[depth], z); mpq_cmp(vars[depth], hi) <= 0;
		mpz_add_ui(mpq_numref(vars[depth]), mpq_numref(vars[depth]),
			1)) {
		if (loops[depth].before) {
			eval_ex(c, loops[depth].before, vars, n);
			mpq_add(total, total, c);
		}
		if (depth + 1 < nloops)
			run(total, loops, nloops, depth + 1, vars, n);
		if (loops[depth].after) {
			eval_ex(c, loops[depth].after, vars, n);
			mpq_add(total, total, c);
		}
	}
	mpq_clear(lo);
	mpq_clear(hi);
	mpq_clear(c);
	mpz_clear(z);
}

/* Writes one step of cost 'e' (in resource t) at 'indent'. */
static void print_step(char *buf, size_t *len, const struct ex *e,
	int indent)
{
	int s;

	for (s = 0; s < indent; s++)
		put(buf, len, "  ");
	put(buf, len, "<step cost=\"t*(");
	print_ex(buf, len, e);
	put(buf, len, ")\"/>\n");
}

/* Writes loop 'depth' of 'loops' and the loops inside it. */
static void print_loop(char *buf, size_t *len, const struct loop *loops,
	int nloops, int depth)
{
	int s;

	for (s = 0; s < depth + 2; s++)
		put(buf, len, "  ");
	put(buf, len, "<loop var=\"");
	put(buf, len, counter_names[depth]);
	put(buf, len, "\" from=\"");
	print_ex(buf, len, loops[depth].lo);
	put(buf, len, "\" to=\"");
	print_ex(buf, len, loops[depth].hi);
	put(buf, len, "\">\n");
	if (loops[depth].before)
		print_step(buf, len, loops[depth].before, depth + 3);
	if (depth + 1 < nloops)
		print_loop(buf, len, loops, nloops, depth + 1);
	if (loops[depth].after)
		print_step(buf, len, loops[depth].after, depth + 3);
	for (s = 0; s < depth + 2; s++)
		put(buf, len, "  ");
	put(buf, len, "</loop>\n");
}

/* Decodes the nest of 'd' into 'loops'; returns how many loops. */
static int decode(struct dec *d, struct loop *loops)
{
	int nloops = 1 + (int)(next(d) % MAX_LOOPS), l;
	unsigned b;

	for (l = 0; l < nloops; l++) {
		b = next(d);
		loops[l].lo = lower(d, l);
		loops[l].hi = upper(d, l);
		loops[l].before = NULL;
		loops[l].after = NULL;
		if (l + 1 == nloops || b % 3 == 0)
			loops[l].before = gen(d, l + 1, MAX_DEPTH);
		if (b % 3 == 1)
			loops[l].after = gen(d, l + 1, MAX_DEPTH);
	}
	return nloops;
}

/* Checks formula 'f' of the nest against its literal run at N = 0 .. 6;
 * 'text' is the model, printed on a mismatch. */
static void check_formula(const segc_expr *f, const struct loop *loops,
	int nloops, const char *text, const char *form)
{
	static const char *const names[] = { "N", "t" };
	mpq_t values[2], got, want, vars[MAX_LOOPS];
	long n;
	int l;
	char *s;

	mpq_init(values[0]);
	mpq_init(values[1]);
	mpq_init(got);
	mpq_init(want);
	for (l = 0; l < MAX_LOOPS; l++)
		mpq_init(vars[l]);
	mpq_set_si(values[1], 1, 1);
	for (n = 0; n <= MAX_N; n++) {
		mpq_set_si(values[0], n, 1);
		if (segc_expr_eval_q(got, f, 2, names, values) != 0)
			continue;
		mpq_set_si(want, 0, 1);
		run(want, loops, nloops, 0, vars, n);
		if (mpq_equal(got, want))
			continue;
		s = segc_expr_to_string(f);
		fprintf(stderr, "fuzz: model:\n%s", text);
		gmp_fprintf(stderr, "fuzz: %s formula %s\nfuzz: at N = %ld "
			"it is %Qd, the nest runs %Qd\n", form, s ? s : "?",
			n, got, want);
		free(s);
		fuzz_check(0, "the derived total is the literal run of the "
			"nest");
	}
	mpq_clear(values[0]);
	mpq_clear(values[1]);
	mpq_clear(got);
	mpq_clear(want);
	for (l = 0; l < MAX_LOOPS; l++)
		mpq_clear(vars[l]);
}

/* Derives the total of the model 'text' in form 'canonical' or
 * structural and checks it; a refusal at a limit is skipped. */
static void derive_and_check(const char *text, const struct loop *loops,
	int nloops, int canonical)
{
	segc_ctx *ctx = fuzz_ctx_new();
	segc_model *m;
	segc_setting s;
	segc_expr *f;

	/* a twentieth of the shared budget: under the sanitizers the
	 * coverage hooks of the polynomial loops make a unit of work about
	 * 40 times dearer than in a release build, so a nest whose pieces
	 * multiply ends at max_work in about 3 s of CPU (5 000 000 took
	 * 10 s, past the smoke run's timeout on a loaded machine) */
	segc_ctx_limits(ctx)->max_work = 1000000;

	m = segc_model_read_string(ctx, "loops.xml", text, strlen(text));
	if (!m) {
		fprintf(stderr, "fuzz: model:\n%s", text);
		fuzz_check(segc_ctx_status(ctx) == SEGC_ERR_LIMIT,
			"the nest is read, or refused at a limit");
		segc_ctx_free(ctx);
		return;
	}
	memset(&s, 0, sizeof s);
	s.model = m;
	f = canonical ? segc_derive_canonical(ctx, &s, SEGC_TOTAL) :
		segc_derive_structural(ctx, &s, SEGC_TOTAL);
	if (f) {
		check_formula(f, loops, nloops, text,
			canonical ? "canonical" : "structural");
	} else if (segc_ctx_status(ctx) != SEGC_ERR_LIMIT) {
		fprintf(stderr, "fuzz: model:\n%s", text);
		if (segc_ctx_n_diags(ctx))
			fprintf(stderr, "fuzz: %s\n",
				segc_ctx_diag(ctx, 0)->message);
		fuzz_check(0, "the total of a nest is derived, or refused "
			"at a limit");
	}
	segc_expr_free(f);
	segc_model_free(m);
	segc_ctx_free(ctx);
}

/* One input: the bytes of a loop nest. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct dec d;
	struct loop loops[MAX_LOOPS];
	char text[TEXT_CAP];
	size_t len = 0;
	int nloops;

	d.p = data;
	d.n = size;
	d.used = 0;
	nloops = decode(&d, loops);
	text[0] = '\0';
	put(text, &len, "<model name=\"loops\" version=\"1\">\n"
		"  <param name=\"N\" min=\"0\" max=\"6\" integer=\"true\"/>\n"
		"  <resource name=\"t\"/>\n  <graph name=\"main\">\n");
	print_loop(text, &len, loops, nloops, 0);
	put(text, &len, "  </graph>\n</model>\n");
	if (getenv("FUZZ_LOOPS_PRINT"))
		/* the model of a saved input, to derive it with segc */
		fputs(text, stderr);
	derive_and_check(text, loops, nloops, 1);
	derive_and_check(text, loops, nloops, 0);
	return 0;
}
