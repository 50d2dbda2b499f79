/*
 * bench_util.h: what the benchmark programs share: dying with a message,
 * the clock, peak memory, and buffered output files that fail loudly.
 * Header-only (static inline, so a program need not use them all); define
 * BENCH_NAME (the program's name, for messages) before including it.
 */
#ifndef GP_BENCH_UTIL_H
#define GP_BENCH_UTIL_H

#include "gpuplan.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

#if defined(__GNUC__)
__attribute__((format(printf, 1, 2), noreturn))
#endif
static inline void
die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs(BENCH_NAME ": ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(1);
}

static inline void die_err(const char *what, const gp_error *err)
{
    char buf[2048];
    gp_error_format(err, buf, sizeof buf);
    die("%s: %s", what, buf);
}

static inline double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static inline long peak_rss_kb(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss; /* kilobytes on Linux */
}

static inline FILE *open_out(const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f)
        die("cannot write %s", path);
    setvbuf(f, NULL, _IOFBF, 1 << 20);
    return f;
}

static inline void close_out(FILE *f, const char *path)
{
    if (ferror(f) || fclose(f) != 0)
        die("error writing %s", path);
}


#endif
