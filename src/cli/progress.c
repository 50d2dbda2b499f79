/*
 * progress.c: one line on stderr, rewritten in place ("\r" and erase to
 * the end of the line), that says which stage a long run is in and how
 * far it has got.  A short run prints nothing: the line appears only once
 * the run has lasted a second, and then at most every quarter second.
 * Workers of the Monte Carlo and the forecast call it from their threads;
 * one that finds another printing skips its turn rather than wait.
 */
#include "progress.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static atomic_bool enabled;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static double started, last; /* seconds, CLOCK_MONOTONIC */
static double delay = 1.0;    /* seconds before the line appears */
static bool shown;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void gp_progress_enable(bool on)
{
    /* GPUPLAN_PROGRESS_AFTER: seconds before the line appears (the tests
     * set 0 to see it on a short run) */
    const char *after = getenv("GPUPLAN_PROGRESS_AFTER");
    pthread_mutex_lock(&lock);
    delay = after ? atof(after) : 1.0;
    started = last = now();
    shown = false;
    pthread_mutex_unlock(&lock);
    atomic_store(&enabled, on);
}

void gp_cli_progress(void *ctx, const char *what, double done, double total)
{
    (void)ctx;
    if (done < 0) {
        gp_progress_clear();
        return;
    }
    if (!atomic_load(&enabled) || pthread_mutex_trylock(&lock) != 0)
        return;
    double t = now();
    if (t - started >= delay && (!shown || t - last >= 0.25)) {
        if (total > 0)
            fprintf(stderr, "\rgpuplan: %s %3.0f%%\033[K", what,
                    100 * (done < total ? done : total) / total);
        else
            fprintf(stderr, "\rgpuplan: %s %.0f MB\033[K", what, done);
        fflush(stderr);
        last = t;
        shown = true;
    }
    pthread_mutex_unlock(&lock);
}

void gp_progress_clear(void)
{
    if (!atomic_load(&enabled))
        return;
    pthread_mutex_lock(&lock);
    if (shown) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
        shown = false;
    }
    pthread_mutex_unlock(&lock);
}
