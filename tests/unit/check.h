/*
 * check.h: what the cmocka unit tests share beyond cmocka: comparing
 * doubles within a tolerance, and finding files of the source tree.
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
#include <stdio.h>
#include <stdlib.h>

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

#endif
