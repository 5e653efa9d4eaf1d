/* tap.h - a minimal Test Anything Protocol writer for the unit tests. */
#ifndef SEGC_TAP_H
#define SEGC_TAP_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int tap_count;
static int tap_failed;

/* Reports test number n as passed when 'ok' is non-zero. */
static inline int tap_ok(int ok, const char *fmt, ...)
{
	va_list ap;

	tap_count++;
	if (!ok)
		tap_failed++;
	printf("%s %d - ", ok ? "ok" : "not ok", tap_count);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	return ok;
}

/* Writes a diagnostic line (TAP comment). */
static inline void tap_diag(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

/* Prints the plan and returns the exit status of the test program. */
static inline int tap_done(void)
{
	printf("1..%d\n", tap_count);
	return tap_failed ? 1 : 0;
}

/* Compares two strings, printing both on mismatch. */
static inline int tap_is(const char *got, const char *want, const char *name)
{
	int ok = got && want ? !strcmp(got, want) : got == want;

	if (!tap_ok(ok, "%s", name)) {
		tap_diag("got:  %s", got ? got : "(null)");
		tap_diag("want: %s", want ? want : "(null)");
	}
	return ok;
}
#endif
