/*
 * bench_forecast.c: how fast gp_forecast_run forecasts 1,000 series x one
 * year hourly, 13 weeks ahead, and how accurate it is on them.
 *
 *   bench_forecast [--series N] [--hours H] [--horizon H] [--threads T]
 *                  [--seed S] [--repeat N]
 *
 * Target (issue #5): 1,000 series x 8,760 hours in under 10 s.
 *
 * Input, synthetic and seeded (GSL mt19937), built in memory as a trace of
 * N pools with one series each (the forecaster reads only the demand
 * arrays, so no catalog is needed):
 *   7 in 10 series are inference: a level of 5..200 instances with a
 *   daily shape (peak in the afternoon), a weekend dip, a trend of -20%..
 *   +40% a year and Gaussian noise (10% of the level);
 *   3 in 10 are training bursts: runs of 8..200 hours of 4..64 instances,
 *   separated by idle gaps of 4..300 hours.
 *
 * Printed: wall time of gp_forecast_run (best of --repeat, CLOCK_MONOTONIC)
 * with the default threads and with one thread, and the process's CPU
 * time in each (CLOCK_PROCESS_CPUTIME_ID: the steadier figure on a shared
 * machine), the peak resident memory
 * after them; and, as a sanity check,
 * the forecast scored on held-out data: the series' last --horizon hours
 * are removed, forecast, and compared (median relative MAE against the
 * last week repeated, mean P10-P90 coverage), which costs one more run.
 *
 * Then a growth table: inference alone (the shape above, with a level of
 * 50, a peak at 15:00 and, instead of the trend, compound growth of 0, 5,
 * 10 or 20% a month) with 4, 8 or 12 weeks of
 * history and --horizon ahead, 5 seeded series each, forecast one by one
 * (gp_forecast_series_run) and scored on the hours that follow: mean
 * relative MAE against the last week repeated and mean P10-P90 coverage.
 *
 * Exit status 0 when the runs succeeded (a missed target is reported, not
 * an error), 1 otherwise.
 */
#define BENCH_NAME "bench_forecast"
#include "bench_util.h"
#include "forecast.h"
#include "gpuplan.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Fills an inference series from clock hour first_hour: level x daily
 * shape peaking at hour `peak` x weekday factor x growth, plus noise of
 * 10% of the level, never below zero.  The growth is a linear trend of
 * `trend` a year times compound growth of `monthly` a month. */
static void fill_inference(gsl_rng *rng, double *y, size_t n,
                           int64_t first_hour, double level, double peak,
                           double trend, double monthly)
{
    for (size_t i = 0; i < n; i++) {
        int64_t hour = first_hour + (int64_t)i;
        double hd = (double)(hour % 24);
        int dow = (int)((hour / 24 + 3) % 7); /* 0 = Monday */
        double shape = 1 + 0.35 * cos(2 * 3.14159265358979 * (hd - peak) / 24);
        double week = dow >= 5 ? 0.75 : 1.0;
        double grow = (1 + trend * (double)i / 8760) *
                      pow(1 + monthly, (double)i / 730);
        double v =
            level * shape * week * grow + gsl_ran_gaussian(rng, 0.1 * level);
        y[i] = v > 0 ? v : 0;
    }
}

/* One of the benchmark's inference series: a level of 5..200, a trend of
 * -20%..+40% a year, a peak between noon and 18:00. */
static void make_inference(gsl_rng *rng, double *y, size_t n,
                           int64_t first_hour)
{
    double level = 5 + 195 * gsl_rng_uniform(rng);
    double trend = -0.2 + 0.6 * gsl_rng_uniform(rng); /* per year */
    double peak = 12 + 6 * gsl_rng_uniform(rng);
    fill_inference(rng, y, n, first_hour, level, peak, trend, 0);
}

/* Fills one training series: bursts of whole instances with idle gaps. */
static void make_training(gsl_rng *rng, double *y, size_t n)
{
    size_t i = (size_t)gsl_rng_uniform_int(rng, 200);
    memset(y, 0, n * sizeof *y);
    while (i < n) {
        size_t run = 8 + (size_t)gsl_rng_uniform_int(rng, 193);
        double size = (double)(4 + gsl_rng_uniform_int(rng, 61));
        for (size_t k = 0; k < run && i < n; k++, i++)
            y[i] = size;
        i += 4 + (size_t)gsl_rng_uniform_int(rng, 297);
    }
}

/* Frees the hand-built trace. */
static void trace_free(gp_trace *t)
{
    for (size_t i = 0; i < t->n_series; i++) {
        free(t->series[i].instance_hours);
        free(t->series[i].useful_gpu_hours);
        free(t->series[i].util_gpu_hours);
    }
    free(t->series);
    free(t->pools);
}

/* The CPU time of the whole process so far (every thread), in seconds:
 * on a shared machine the steadier figure. */
static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Times `repeat` runs and keeps the best wall and CPU times; returns the
 * forecast of the last. */
static void timed_run(const gp_trace *t, size_t horizon, int threads,
                      int repeat, double *best, double *best_cpu,
                      gp_forecast **keep)
{
    gp_forecast_options opt;
    gp_forecast_options_init(&opt);
    opt.threads = threads;
    *best = *best_cpu = INFINITY;
    for (int r = 0; r < repeat; r++) {
        gp_forecast *fc = NULL;
        gp_error err;
        gp_error_clear(&err);
        double t0 = now_s(), c0 = cpu_s();
        if (gp_forecast_run(t, NULL, horizon, &opt, &fc, &err) != GP_OK)
            die_err("forecast", &err);
        double dt = now_s() - t0, dc = cpu_s() - c0;
        if (dt < *best)
            *best = dt;
        if (dc < *best_cpu)
            *best_cpu = dc;
        if (keep && r == repeat - 1)
            *keep = fc;
        else
            gp_forecast_free(fc);
    }
}

/* Compares doubles for qsort. */
static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The growth table (see the top of the file); a failed forecast dies. */
static void growth_table(int64_t first_hour, size_t horizon, unsigned long seed)
{
    gp_forecast_options opt;
    gp_forecast_options_init(&opt);
    opt.threads = 1;
    static const double rates[] = {0, 0.05, 0.10, 0.20};
    static const size_t weeks[] = {4, 8, 12};
    size_t most = 12 * 168 + horizon;
    double *y = malloc(most * sizeof *y);
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    if (!y || !rng)
        die("out of memory");
    printf("growth, %zu hours ahead (5 series each): relative MAE vs the "
           "last week repeated / P10-P90 coverage\n"
           "  growth a month   4 weeks of history   8 weeks   12 weeks\n",
           horizon);
    for (size_t r = 0; r < sizeof rates / sizeof rates[0]; r++) {
        printf("  %13.0f%%", 100 * rates[r]); /* under "growth a month" */
        for (size_t w = 0; w < sizeof weeks / sizeof weeks[0]; w++) {
            size_t n = weeks[w] * 168;
            double rel = 0, cover = 0;
            for (unsigned long k = 0; k < 5; k++) {
                gsl_rng_set(rng, seed + 1000 * r + 100 * w + k);
                fill_inference(rng, y, n + horizon, first_hour, 50, 15, 0,
                               rates[r]);
                gp_forecast_series s;
                gp_error err;
                gp_error_clear(&err);
                if (gp_forecast_series_run(y, n, 0, horizon, 0, &opt, &s,
                                           &err) != GP_OK)
                    die_err("forecast", &err);
                gp_forecast_series_score(&s, y, n, y + n, horizon);
                rel += s.holdout.relative_mae;
                cover += s.holdout.coverage;
                gp_forecast_series_clear(&s);
            }
            printf("%s%.3f / %2.0f%%", w == 0 ? "     " : "   ", rel / 5,
                   100 * cover / 5);
        }
        printf("\n");
    }
    gsl_rng_free(rng);
    free(y);
}

int main(int argc, char **argv)
{
    size_t n_series = 1000, n_hours = 8760, horizon = 13 * 168;
    int threads = 0, repeat = 1;
    unsigned long seed = 42;

    gsl_set_error_handler_off();
    for (int i = 1; i + 1 < argc; i += 2) {
        long v = strtol(argv[i + 1], NULL, 10);
        if (strcmp(argv[i], "--series") == 0 && v > 0)
            n_series = (size_t)v;
        else if (strcmp(argv[i], "--hours") == 0 && v > 0)
            n_hours = (size_t)v;
        else if (strcmp(argv[i], "--horizon") == 0 && v > 0)
            horizon = (size_t)v;
        else if (strcmp(argv[i], "--threads") == 0 && v >= 0)
            threads = (int)v;
        else if (strcmp(argv[i], "--seed") == 0 && v >= 0)
            seed = (unsigned long)v;
        else if (strcmp(argv[i], "--repeat") == 0 && v > 0)
            repeat = (int)v;
        else
            die("unknown option %s", argv[i]);
    }

    /* the trace: 2026-01-01 on, one pool and series per forecast series */
    gp_trace t;
    memset(&t, 0, sizeof t);
    t.start_hour = 1767225600 / 3600; /* 2026-01-01T00:00:00Z */
    t.n_hours = n_hours;
    t.n_pools = n_series;
    t.n_series = n_series;
    t.pools = calloc(n_series, sizeof *t.pools);
    t.series = calloc(n_series, sizeof *t.series);
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    if (!t.pools || !t.series || !rng)
        die("out of memory");
    gsl_rng_set(rng, seed);
    size_t n_training = 0;
    for (size_t i = 0; i < n_series; i++) {
        gp_series *s = &t.series[i];
        s->pool = (uint32_t)i;
        s->team = s->project = -1;
        s->instance_hours = calloc(n_hours, sizeof(double));
        s->useful_gpu_hours = calloc(n_hours, sizeof(double));
        s->util_gpu_hours = calloc(n_hours, sizeof(double));
        if (!s->instance_hours || !s->useful_gpu_hours || !s->util_gpu_hours)
            die("out of memory");
        if (gsl_rng_uniform(rng) < 0.3) {
            s->workload = GP_TRAINING;
            make_training(rng, s->instance_hours, n_hours);
            n_training++;
        } else {
            s->workload = GP_INFERENCE;
            make_inference(rng, s->instance_hours, n_hours, t.start_hour);
        }
    }
    gsl_rng_free(rng);

    printf("bench_forecast: %zu series (%zu training bursts) x %zu hours, "
           "horizon %zu hours, seed %lu\n",
           n_series, n_training, n_hours, horizon, seed);
    double t_all, t_one, c_all, c_one;
    gp_forecast *fc = NULL;
    timed_run(&t, horizon, threads, repeat, &t_all, &c_all, &fc);
    printf("gp_forecast_run, all cores:  %.3f s (best of %d)  %s 10 s "
           "target, CPU %.3f s\n",
           t_all, repeat, t_all < 10 ? "meets the" : "MISSES the", c_all);
    timed_run(&t, horizon, 1, repeat, &t_one, &c_one, NULL);
    printf("gp_forecast_run, 1 thread:   %.3f s (best of %d), %.2f ms per "
           "series, CPU %.3f s\n",
           t_one, repeat, 1000 * t_one / (double)n_series, c_one);
    printf("peak resident memory so far: %.0f MB\n",
           (double)peak_rss_kb() / 1024);
    size_t by_method[GP_FC_N_METHODS] = {0};
    for (size_t i = 0; i < fc->n_series; i++)
        by_method[fc->series[i].method]++;
    printf("methods chosen:");
    for (int m = 0; m < GP_FC_N_METHODS; m++)
        printf(" %s %zu", gp_forecast_method_name((gp_forecast_method)m),
               by_method[m]);
    printf("\n");
    gp_forecast_free(fc);

    /* hold-out: the last `horizon` hours kept back and scored */
    if (horizon < n_hours / 2) {
        gp_forecast_options opt;
        gp_forecast_options_init(&opt);
        opt.threads = threads;
        opt.train_until = (t.start_hour + (int64_t)(n_hours - horizon)) * 3600;
        gp_error err;
        gp_error_clear(&err);
        if (gp_forecast_run(&t, NULL, horizon, &opt, &fc, &err) != GP_OK)
            die_err("forecast", &err);
        double *rel = calloc(fc->n_series, sizeof *rel), cover = 0;
        size_t n_rel = 0;
        if (!rel)
            die("out of memory");
        for (size_t i = 0; i < fc->n_series; i++) {
            const gp_forecast_series *s = &fc->series[i];
            if (!isnan(s->holdout.relative_mae))
                rel[n_rel++] = s->holdout.relative_mae;
            cover += s->holdout.coverage;
        }
        qsort(rel, n_rel, sizeof *rel, cmp_double);
        printf("hold-out of the last %zu hours: median relative MAE vs the "
               "last week repeated %.3f (%zu series), mean P10-P90 coverage "
               "%.1f%%\n",
               horizon, n_rel ? rel[n_rel / 2] : NAN, n_rel,
               100 * cover / (double)fc->n_series);
        free(rel);
        gp_forecast_free(fc);
    }
    trace_free(&t);
    growth_table(t.start_hour, horizon, seed);
    return 0;
}
