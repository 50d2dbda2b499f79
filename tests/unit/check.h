/*
 * check.h: what the cmocka unit tests share beyond cmocka: comparing
 * doubles within a tolerance, finding files of the source tree, and
 * telling a run that lost only a warning to memory.
 *
 * Header-only: include it after cmocka.h.  Everything is static inline,
 * so a test that needs only part of it gets no warning.
 *
 * Compare doubles with assert_close, never cmocka's assert_float_equal:
 * cmocka 1.1.5 casts both values and the tolerance to float, so a check
 * of $2,731.54 to 1e-9 is really one to float's 2^-12 (0.00024), and of
 * a Unix time to 128 seconds.  ctest's lint.no_float_asserts
 * (tests/no_float_asserts.sh) fails if it comes back.
 */
#ifndef GP_TEST_CHECK_H
#define GP_TEST_CHECK_H

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan.h"

/* Fails the test unless got is within tol of want. */
static inline void check_close(double got, double want, double tol,
                               const char *file, int line)
{
    if (!(fabs(got - want) <= tol))
        fail_msg("%s:%d: got %.17g, expected %.17g within %g", file, line,
                 got, want, tol);
}
#define assert_close(got, want, tol)                                          \
    check_close((got), (want), (tol), __FILE__, __LINE__)

/* The source tree: ctest sets GP_SOURCE_DIR, else the one built from. */
static inline const char *source_dir(void)
{
    const char *s = getenv("GP_SOURCE_DIR");
    return s && s[0] ? s : GP_SOURCE_DIR;
}

/* source_dir() + "/" + rel, in one of four static buffers (so a call can
 * take two or three of them at once). */
static inline const char *src_path(const char *rel)
{
    static char buf[4][1024];
    static int next;
    char *b = buf[next++ % 4];
    snprintf(b, sizeof buf[0], "%s/%s", source_dir(), rel);
    return b;
}

/* Whether w says a warning was lost for want of memory (gp_warnings_lost):
 * the one failure a run may absorb, as long as it says so.  A test that
 * refuses one allocation (gp_alloc_fail_only) accepts a run that went on
 * only when this holds. */
static inline bool says_a_warning_was_lost(const gp_warnings *w)
{
    for (size_t i = 0; i < w->count; i++)
        if (strncmp(w->items[i], "a warning could not be kept", 27) == 0)
            return true;
    return false;
}

#endif
