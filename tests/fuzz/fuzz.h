/* fuzz.h - what the fuzz targets share: the entry point libFuzzer calls,
 * the limits they run under, and the checks that turn a broken invariant
 * into an abort() the fuzzer reports.  The same targets are linked with
 * replay.c (instead of libFuzzer) to replay saved inputs in make check. */
#ifndef SEGC_FUZZ_H
#define SEGC_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include <segc/segc.h>

/* The entry point of every target: one input, any bytes. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A context whose limits are small enough that one input never runs for
 * long; the defaults allow work that takes seconds by design. */
segc_ctx *fuzz_ctx_new(void);

/* 'data' as a NUL-terminated string (cut at the first NUL byte). */
char *fuzz_string(const uint8_t *data, size_t size);

/* Aborts, naming the broken invariant 'what', when 'cond' is zero. */
void fuzz_check(int cond, const char *what);

/* Checks what a failure left in 'ctx': at least one diagnostic, a
 * non-OK status that is not an internal error, and every message on one
 * line. */
void fuzz_check_failure(const segc_ctx *ctx);

/* Checks the diagnostics of 'ctx' (of a success or a failure): each
 * message non-empty, on one line, without control characters. */
void fuzz_check_diags(const segc_ctx *ctx);

/* Checks that printing 'e' and parsing the text back gives 'e' itself. */
void fuzz_check_roundtrip(const segc_expr *e);

#endif
