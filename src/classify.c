/*
 * classify.c: the features a verdict on a series rests on: the shape of
 * its hourly demand (robust to single hours), its gpu_util and its job
 * runs (classify.h has the interface; docs/design/classify.md the
 * reasoning).  The evidence and verdicts are classify_decide.c; writing
 * them into the trace, classify_apply.c; the labelled rows,
 * classify_labeled.c.
 */
#include "classify_internal.h"
#include "util.h"

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <string.h>

/* Demand below this many instance-hours in an hour counts as none (the
 * rounding residue of fractional rows, not usage). */
#define ON_EPS 1e-9

/* Pearson autocorrelation of x[0, n) at `lag`, NAN when fewer than two
 * lags' worth of points or when either side has no variance. */
static double acf(const double *x, size_t n, size_t lag)
{
    if (n < 2 * lag || n - lag < 3)
        return NAN;
    double sa = gsl_stats_sd(x, 1, n - lag);
    double sb = gsl_stats_sd(x + lag, 1, n - lag);
    if (!(sa > 0) || !(sb > 0))
        return NAN;
    return gsl_stats_correlation(x, 1, x + lag, 1, n - lag);
}

/*
 * How much of the day-to-day shape is a daily cycle: the series minus its
 * centred 24-hour moving average (the "2x24" average of classical
 * decomposition) is split into hour-of-day means and a remainder, and the
 * result is the adjusted R^2 of the hour-of-day means, 1 - (var R /
 * (N - 24)) / (var D / (N - 1)), floored at 0.  The adjustment keeps noise
 * near 0 instead of near 23 / N.  `hour0` is the clock hour of x[0].
 * NAN with fewer than three whole days of detrended points.  `d` is
 * scratch space for n doubles.
 */
static double daily_strength(const double *x, size_t n, int64_t hour0,
                             double *d)
{
    if (n < 24 + 72)
        return NAN;
    size_t m = n - 24;
    double prefix = 0;
    /* running sum over a 25-hour window: half weights at its ends */
    for (size_t i = 0; i < 24; i++)
        prefix += x[i];
    for (size_t i = 0; i < m; i++) {
        /* window x[i .. i+24]: ends weighted 1/2 */
        double sum = prefix + x[i + 24];
        double trend = (sum - 0.5 * x[i] - 0.5 * x[i + 24]) / 24.0;
        d[i] = x[i + 12] - trend;
        prefix += x[i + 24] - x[i];
    }
    double mean_by_hour[24] = {0};
    size_t count_by_hour[24] = {0};
    for (size_t i = 0; i < m; i++) {
        size_t hod = (size_t)(((hour0 + (int64_t)i + 12) % 24 + 24) % 24);
        mean_by_hour[hod] += d[i];
        count_by_hour[hod]++;
    }
    for (size_t k = 0; k < 24; k++)
        if (count_by_hour[k])
            mean_by_hour[k] /= (double)count_by_hour[k];
    double dmean = gsl_stats_mean(d, 1, m);
    double ss_d = 0, ss_r = 0;
    for (size_t i = 0; i < m; i++) {
        size_t hod = (size_t)(((hour0 + (int64_t)i + 12) % 24 + 24) % 24);
        double r = d[i] - mean_by_hour[hod];
        ss_d += (d[i] - dmean) * (d[i] - dmean);
        ss_r += r * r;
    }
    if (!(ss_d > 0))
        return NAN;
    double adj = 1.0 - (ss_r / (double)(m - 24)) / (ss_d / (double)(m - 1));
    return adj > 0 ? adj : 0;
}

/* Clears f: every feature unknown. */
void gp_classify_features_clear(gp_classify_features *f)
{
    f->span_hours = 0;
    f->instance_hours = 0;
    f->duty_cycle = f->cv = f->roughness = f->skewness = f->trough = NAN;
    f->acf_daily = f->acf_half_day = f->acf_weekly = NAN;
    f->daily_strength = f->mean_on_run_h = f->mean_util = NAN;
    f->n_runs = 0;
    f->median_run_h = NAN;
    f->shape_weight = 0;
    f->util_hours = 0;
    f->util_median = f->util_spread = NAN;
    f->median_gang = f->replica_share = NAN;
}

/* The winsorising quantiles: a single odd hour (a replaced instance, a
 * partial first or last hour) is pulled in to its neighbours' level. */
#define WINSOR_LO 0.02
#define WINSOR_HI 0.98

/* Below this winsorised cv a series is flat and has no shape evidence;
 * the evidence comes in fully at FULL_SHAPE_CV. */
#define FLAT_CV 0.02
#define FULL_SHAPE_CV 0.05

/* The shape features of the span y[0, n) (n >= 2, total > 0): computed on
 * y winsorised at WINSOR_LO and WINSOR_HI into w; `sorted` is scratch for
 * n doubles, and daily_strength's scratch is `sorted` again. */
static void shape_features(const double *y, size_t n, int64_t hour0,
                           double *w, double *sorted, gp_classify_features *f)
{
    memcpy(sorted, y, n * sizeof *sorted);
    gsl_sort(sorted, 1, n);
    double lo = gsl_stats_quantile_from_sorted_data(sorted, 1, n, WINSOR_LO);
    double hi = gsl_stats_quantile_from_sorted_data(sorted, 1, n, WINSOR_HI);
    double q05 = gsl_stats_quantile_from_sorted_data(sorted, 1, n, 0.05);
    double jumps = 0;
    for (size_t h = 0; h < n; h++) {
        w[h] = y[h] < lo ? lo : (y[h] > hi ? hi : y[h]);
        if (h > 0)
            jumps += fabs(w[h] - w[h - 1]);
    }
    double mean = gsl_stats_mean(w, 1, n);
    double sd = gsl_stats_sd_m(w, 1, n, mean);
    if (mean > 0) {
        f->cv = sd / mean;
        f->trough = q05 / mean;
        double ramp = (f->cv - FLAT_CV) / (FULL_SHAPE_CV - FLAT_CV);
        f->shape_weight = ramp < 0 ? 0 : (ramp > 1 ? 1 : ramp);
    }
    if (sd > 0) {
        f->roughness = jumps / (double)(n - 1) / sd;
        f->skewness = gsl_stats_skew_m_sd(w, 1, n, mean, sd);
    }
    f->acf_daily = acf(w, n, 24);
    f->acf_half_day = acf(w, n, 12);
    f->acf_weekly = acf(w, n, 168);
    f->daily_strength = daily_strength(w, n, hour0, sorted);
}

/* The gpu_util features: hourly utilisation (useful over reported
 * GPU-hours) where an hour has one; its median and spread.  `u` is
 * scratch for n_hours doubles. */
static void util_features(const gp_series *ser, size_t n_hours, double *u,
                          gp_classify_features *f)
{
    double useful = 0, with_util = 0;
    size_t m = 0;

    for (size_t h = 0; h < n_hours; h++) {
        useful += ser->useful_gpu_hours[h];
        with_util += ser->util_gpu_hours[h];
        if (ser->util_gpu_hours[h] > ON_EPS)
            u[m++] = 100.0 * ser->useful_gpu_hours[h] /
                     ser->util_gpu_hours[h];
    }
    if (with_util > 0)
        f->mean_util = 100.0 * useful / with_util;
    f->util_hours = (double)m;
    if (m == 0)
        return;
    gsl_sort(u, 1, m);
    f->util_median = gsl_stats_median_from_sorted_data(u, 1, m);
    if (f->util_median > 0)
        f->util_spread = (gsl_stats_quantile_from_sorted_data(u, 1, m, 0.9) -
                          gsl_stats_quantile_from_sorted_data(u, 1, m, 0.1)) /
                         f->util_median;
}

/* The demand and utilisation features of series s, with scratch space
 * for 2 x t->n_hours doubles. */
static void features(const gp_trace *t, size_t s, double *scratch,
                     gp_classify_features *f)
{
    const gp_series *ser = &t->series[s];
    const double *x = ser->instance_hours;
    size_t first = t->n_hours, last = 0;

    util_features(ser, t->n_hours, scratch, f);
    for (size_t h = 0; h < t->n_hours; h++)
        if (x[h] > ON_EPS) {
            if (first == t->n_hours)
                first = h;
            last = h;
        }
    if (first == t->n_hours)
        return; /* no demand at all */

    size_t n = last - first + 1;
    const double *y = x + first;
    f->span_hours = (double)n;
    size_t on = 0, on_runs = 0;
    double total = 0;
    for (size_t h = 0; h < n; h++) {
        total += y[h];
        if (y[h] > ON_EPS) {
            on++;
            if (h == 0 || !(y[h - 1] > ON_EPS))
                on_runs++;
        }
    }
    f->instance_hours = total;
    f->duty_cycle = (double)on / (double)n;
    f->mean_on_run_h = on_runs ? (double)on / (double)on_runs : NAN;
    if (n >= 2 && total > 0)
        shape_features(y, n, t->start_hour + (int64_t)first, scratch,
                       scratch + t->n_hours, f);
}

/* Fills w for t: the job runs grouped by series (runs of series s at
 * [at[s], at[s + 1]) of len, gang and ih) and the scratch space; false
 * when out of memory. */
bool gp_classify_scratch_init(const gp_trace *t, gp_classify_scratch *w)
{
    size_t n = t->n_series, nr = t->n_runs ? t->n_runs : 1;

    memset(w, 0, sizeof *w);
    w->at = gp_calloc(n + 2, sizeof *w->at);
    w->len = gp_malloc(nr * sizeof *w->len);
    w->gang = gp_malloc(nr * sizeof *w->gang);
    w->ih = gp_malloc(nr * sizeof *w->ih);
    w->run = gp_malloc(nr * sizeof *w->run);
    w->buf = gp_malloc((2 * t->n_hours + nr + 1) * sizeof *w->buf);
    if (!w->at || !w->len || !w->gang || !w->ih || !w->run || !w->buf)
        return false;
    for (size_t i = 0; i < t->n_runs; i++)
        if (t->runs[i].series < n)
            w->at[t->runs[i].series + 2]++;
    for (size_t s = 0; s < n; s++)
        w->at[s + 2] += w->at[s + 1];
    /* at[s + 1] is now where series s starts; filling moves it to its end,
     * which is where series s + 1 starts */
    for (size_t i = 0; i < t->n_runs; i++) {
        const gp_job_run *jr = &t->runs[i];
        if (jr->series >= n)
            continue;
        size_t k = w->at[jr->series + 1]++;
        w->len[k] = (double)(jr->end - jr->start) / 3600.0;
        w->gang[k] = jr->instances;
        w->ih[k] = jr->instance_hours;
        w->run[k] = (uint32_t)i;
    }
    return true;
}

/* Frees what gp_classify_scratch_init allocated. */
void gp_classify_scratch_free(gp_classify_scratch *w)
{
    gp_free(w->at);
    gp_free(w->len);
    gp_free(w->gang);
    gp_free(w->ih);
    gp_free(w->run);
    gp_free(w->buf);
}

/* The median of x[0, n), sorted in place. */
static double median_of(double *x, size_t n)
{
    gsl_sort(x, 1, n);
    return gsl_stats_median_from_sorted_data(x, 1, n);
}

/* The job-structure features of series s: median run length, median
 * gang (peak instances) and the share of its runs' instance-hours in
 * runs as long as 90% of its span (replicas that live as long as the
 * series does). */
static void job_features(const gp_classify_scratch *w, size_t s, double *buf,
                         gp_classify_features *f)
{
    size_t a = w->at[s], n = w->at[s + 1] - a;
    double all = 0, long_lived = 0;

    f->n_runs = n;
    if (n == 0)
        return;
    memcpy(buf, w->len + a, n * sizeof *buf);
    f->median_run_h = median_of(buf, n);
    memcpy(buf, w->gang + a, n * sizeof *buf);
    f->median_gang = median_of(buf, n);
    for (size_t k = a; k < a + n; k++) {
        all += w->ih[k];
        if (f->span_hours > 0 && w->len[k] >= 0.9 * f->span_hours)
            long_lived += w->ih[k];
    }
    if (all > 0)
        f->replica_share = long_lived / all;
}

/* Every feature of series s. */
void gp_classify_features_at(const gp_trace *t, size_t s,
                             gp_classify_scratch *w, gp_classify_features *f)
{
    gp_classify_features_clear(f);
    features(t, s, w->buf, f);
    job_features(w, s, w->buf, f);
}

/* Computes the features of one series, with its own scratch space. */
gp_status gp_classify_features_of(const gp_trace *t, size_t s,
                                  gp_classify_features *f)
{
    gp_classify_scratch w;
    bool ok = gp_classify_scratch_init(t, &w);

    if (ok)
        gp_classify_features_at(t, s, &w, f);
    gp_classify_scratch_free(&w);
    return ok ? GP_OK : GP_ERR_NOMEM;
}
