/*
 * classify.c: training or inference, told from the shape of demand: the
 * features of a series, the decision rule and the verdicts on a trace
 * (classify.h has the interface; docs/design/classify.md the reasoning;
 * bench/classify/ the measurements).  Writing the verdicts into the trace
 * is classify_apply.c; the labelled copy of the rows, classify_labeled.c.
 */
#include "classify.h"
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

/* The features of series s, given the sorted lengths in hours of its job
 * runs and scratch space for t->n_hours doubles. */
static void features(const gp_trace *t, size_t s, const double *run_h,
                     size_t n_runs, double *scratch, gp_classify_features *f)
{
    const gp_series *ser = &t->series[s];
    const double *x = ser->instance_hours;
    size_t first = t->n_hours, last = 0;
    double useful = 0, with_util = 0;

    f->span_hours = 0;
    f->instance_hours = 0;
    f->duty_cycle = f->cv = f->roughness = f->skewness = f->trough = NAN;
    f->acf_daily = f->acf_half_day = f->acf_weekly = NAN;
    f->daily_strength = f->mean_on_run_h = f->mean_util = NAN;
    f->n_runs = 0;
    f->median_run_h = NAN;

    for (size_t h = 0; h < t->n_hours; h++) {
        useful += ser->useful_gpu_hours[h];
        with_util += ser->util_gpu_hours[h];
        if (x[h] > ON_EPS) {
            if (first == t->n_hours)
                first = h;
            last = h;
        }
    }
    if (with_util > 0)
        f->mean_util = 100.0 * useful / with_util;

    f->n_runs = n_runs;
    if (n_runs > 0)
        f->median_run_h = gsl_stats_median_from_sorted_data(run_h, 1,
                                                            n_runs);
    if (first == t->n_hours)
        return; /* no demand at all */

    size_t n = last - first + 1;
    const double *y = x + first;
    f->span_hours = (double)n;
    size_t on = 0, on_runs = 0;
    double total = 0, jumps = 0;
    for (size_t h = 0; h < n; h++) {
        total += y[h];
        if (y[h] > ON_EPS) {
            on++;
            if (h == 0 || !(y[h - 1] > ON_EPS))
                on_runs++;
        }
        if (h > 0)
            jumps += fabs(y[h] - y[h - 1]);
    }
    f->instance_hours = total;
    f->duty_cycle = (double)on / (double)n;
    f->mean_on_run_h = on_runs ? (double)on / (double)on_runs : NAN;
    if (n < 2)
        return;
    double mean = total / (double)n;
    double sd = gsl_stats_sd_m(y, 1, n, mean);
    if (mean > 0) {
        f->cv = sd / mean;
        memcpy(scratch, y, n * sizeof *scratch);
        gsl_sort(scratch, 1, n);
        f->trough =
            gsl_stats_quantile_from_sorted_data(scratch, 1, n, 0.05) / mean;
    }
    if (sd > 0) {
        f->roughness = jumps / (double)(n - 1) / sd;
        f->skewness = gsl_stats_skew_m_sd(y, 1, n, mean, sd);
    }
    f->acf_daily = acf(y, n, 24);
    f->acf_half_day = acf(y, n, 12);
    f->acf_weekly = acf(y, n, 168);
    f->daily_strength =
        daily_strength(y, n, t->start_hour + (int64_t)first, scratch);
}

/* The job runs of a trace grouped by series: runs of series s have their
 * lengths in hours, sorted, at len[at[s] .. at[s + 1]). */
typedef struct run_lengths {
    size_t *at;
    double *len;
} run_lengths;

/* Fills r for t; false when out of memory. */
static bool run_lengths_of(const gp_trace *t, run_lengths *r)
{
    size_t n = t->n_series;
    r->at = gp_calloc(n + 2, sizeof *r->at);
    r->len = gp_malloc((t->n_runs ? t->n_runs : 1) * sizeof *r->len);
    if (!r->at || !r->len)
        return false;
    for (size_t i = 0; i < t->n_runs; i++)
        if (t->runs[i].series < n)
            r->at[t->runs[i].series + 2]++;
    for (size_t s = 0; s < n; s++)
        r->at[s + 2] += r->at[s + 1];
    /* at[s + 1] is now where series s starts; filling moves it to its end,
     * which is where series s + 1 starts */
    for (size_t i = 0; i < t->n_runs; i++)
        if (t->runs[i].series < n)
            r->len[r->at[t->runs[i].series + 1]++] =
                (double)(t->runs[i].end - t->runs[i].start) / 3600.0;
    for (size_t s = 0; s < n; s++)
        gsl_sort(r->len + r->at[s], 1, r->at[s + 1] - r->at[s]);
    return true;
}

/* Frees what run_lengths_of allocated. */
static void run_lengths_free(run_lengths *r)
{
    gp_free(r->at);
    gp_free(r->len);
}

/* Computes the features of one series, with its own scratch space. */
gp_status gp_classify_features_of(const gp_trace *t, size_t s,
                                  gp_classify_features *f)
{
    run_lengths r;
    double *scratch = gp_malloc((t->n_hours ? t->n_hours : 1) *
                                sizeof *scratch);
    bool ok = scratch && run_lengths_of(t, &r);

    if (ok)
        features(t, s, r.len + r.at[s], r.at[s + 1] - r.at[s], scratch, f);
    if (scratch)
        run_lengths_free(&r);
    gp_free(scratch);
    return ok ? GP_OK : GP_ERR_NOMEM;
}

/* The logistic function: log-odds to probability. */
static double logistic(double z)
{
    return 1.0 / (1.0 + exp(-z));
}

/* x clamped to [lo, hi]; NAN becomes `otherwise`. */
static double clamp_or(double x, double lo, double hi, double otherwise)
{
    if (!isfinite(x))
        return otherwise;
    return x < lo ? lo : (x > hi ? hi : x);
}

/*
 * The model's inputs, in the order of the coefficients below.  Features
 * that could not be computed count as 0 (on-period length as 1 hour), as
 * bench/classify/fit.py does when it fits them.  `n` is 7 for the
 * short-series model, 11 for the full one.
 */
#define N_SHORT 8
#define N_FULL 11
static void model_inputs(const gp_classify_features *f, double *x, size_t n)
{
    x[0] = 1.0;
    x[1] = log(clamp_or(f->cv, 0, INFINITY, 0) + 0.01);
    x[2] = clamp_or(f->roughness, 0, INFINITY, 0);
    x[3] = log(x[2] + 0.01);
    x[4] = clamp_or(f->skewness, -5, 5, 0);
    x[5] = clamp_or(f->trough, -INFINITY, 1, 0);
    x[6] = clamp_or(f->duty_cycle, 0, 1, 0);
    x[7] = log(clamp_or(f->mean_on_run_h, 1, 168, 1)) / log(168.0);
    if (n < N_FULL)
        return;
    x[8] = clamp_or(f->acf_half_day, -1, 1, 0);
    x[9] = isfinite(f->acf_daily) && isfinite(f->acf_half_day)
               ? f->acf_daily - f->acf_half_day
               : 0;
    x[10] = clamp_or(f->daily_strength, 0, 1, 0);
}

/*
 * Logistic models of the log-odds of training, fitted by
 * bench/classify/fit.py (L2-penalised IRLS, lambda 1, every source and both
 * labels weighted equally) on the 998 labelled series of at least 6 hours
 * made by bench/classify/make_eval.py: Helios vc6YE and vcpDC and Philly
 * windows (training), ServeGen m-large clients, all of them summed, and
 * deepseek-r1 clients (inference) and mixtures of the two.  Held out by
 * origin (fit on Helios vc6YE and even-numbered ServeGen clients, tested on
 * the rest, and the reverse) they classified 87.4% of the long series and
 * 88.8% of the short ones correctly; fitted on all of them, 92.9% and
 * 94.6%.  bench/README.md has the figures and the confusion matrix.
 *
 * What the signs say: training demand is a queue of long jobs, so it
 * rarely falls far below its mean (trough, +) and changes little from one
 * hour to the next (roughness, -); serving demand follows requests: spiky
 * above a floor (skewness, -), with a daily rhythm where it has one
 * (acf_daily - acf_half_day and the hour-of-day strength, both -).
 *
 * Inputs: 1, log(cv + 0.01), roughness, log(roughness + 0.01), skewness
 * (clamped to +-5), trough (at most 1), duty cycle, log(mean on-period
 * hours, 1..168) / log 168; then for the full model acf_half_day,
 * acf_daily - acf_half_day, daily_strength.
 */
static const double full_beta[N_FULL] = {
    2.9823, 0.6471, -5.4964, 0.1449, -0.9599, 3.8698,
    0.1750, -2.4537, 0.3207, -0.6911, -1.2863};
static const double short_beta[N_SHORT] = {
    -2.5334, -1.8499, -1.3260, -2.9302, -0.4701, -0.0173, -1.2241, -1.2532};

/* Series with fewer hours of span than this have no shape to speak of:
 * they are called inference at confidence 0.5 (see gp_classify_decide). */
#define MIN_SHAPE_HOURS 6

/* The log-odds an unlabelled series gains when its rows said
 * interruptible=true: the SPEC makes that the training default, so a user
 * who wrote it said as much.  Set by hand (odds x e^2, about 7), not
 * fitted: the evaluation traces carry no such flag. */
#define INTERRUPTIBLE_LOG_ODDS 2.0

/* The most confidence a short-series verdict reports. */
#define SHORT_MAX_CONFIDENCE 0.6

/* The label, confidence and log-odds of one set of features: the full
 * model from two days, the short one from 6 hours, nothing below. */
bool gp_classify_decide(const gp_classify_features *f, bool interruptible,
                        gp_workload *label, double *confidence,
                        double *score)
{
    double x[N_FULL], z = 0;
    bool is_short = !(f->span_hours >= GP_CLASSIFY_MIN_HOURS);

    if (f->span_hours >= MIN_SHAPE_HOURS) {
        const double *beta = is_short ? short_beta : full_beta;
        size_t n = is_short ? N_SHORT : N_FULL;
        model_inputs(f, x, n);
        for (size_t i = 0; i < n; i++)
            z += beta[i] * x[i];
    }
    /* else z = 0: no evidence either way, and the tie goes to inference,
     * the cheaper mistake (inference billed as training may be sent to
     * spot and interrupted; training billed as inference only costs
     * on-demand prices) */
    if (interruptible)
        z += INTERRUPTIBLE_LOG_ODDS;
    *score = z;
    *label = z > 0 ? GP_TRAINING : GP_INFERENCE;
    double p = logistic(fabs(z));
    if (is_short && p > SHORT_MAX_CONFIDENCE)
        p = SHORT_MAX_CONFIDENCE;
    *confidence = p;
    return is_short;
}

/* Classifies every series: features, then the decision, then the
 * totals. */
gp_status gp_classify(const gp_trace *t, bool relabel,
                      gp_classification **out, gp_error *err)
{
    gp_classification *c = gp_calloc(1, sizeof *c);
    double *scratch = gp_malloc((t->n_hours ? t->n_hours : 1) *
                                sizeof *scratch);
    run_lengths runs = {NULL, NULL};

    *out = NULL;
    if (!c || !scratch || !run_lengths_of(t, &runs) ||
        (t->n_series &&
         !(c->series = gp_calloc(t->n_series, sizeof *c->series)))) {
        gp_free(c);
        gp_free(scratch);
        run_lengths_free(&runs);
        gp_error_set(err, NULL, 0, 0, NULL, "out of memory");
        return GP_ERR_NOMEM;
    }
    c->n_series = t->n_series;
    c->relabel = relabel;
    for (size_t s = 0; s < t->n_series; s++) {
        const gp_series *ser = &t->series[s];
        gp_series_class *v = &c->series[s];
        v->series = (uint32_t)s;
        v->pool = ser->pool;
        v->team = ser->team;
        v->project = ser->project;
        v->interruptible = ser->interruptible;
        v->loaded = ser->workload;
        features(t, s, runs.len + runs.at[s], runs.at[s + 1] - runs.at[s],
                 scratch, &v->f);
        /* only an unlabelled row's flag is what the user said: a
         * training row's may be the SPEC's default, and counting it made
         * relabelling confirm the old label */
        v->short_series = gp_classify_decide(
            &v->f, ser->interruptible && ser->workload == GP_UNLABELED,
            &v->label, &v->confidence, &v->score);
        v->decided = relabel || ser->workload == GP_UNLABELED;
        if (!v->decided) {
            v->label = ser->workload;
            v->confidence = 1.0;
            v->short_series = false;
            continue;
        }
        c->n_decided[v->label]++;
        c->decided_hours[v->label] += v->f.instance_hours;
        c->n_changed += ser->workload != GP_UNLABELED &&
                        ser->workload != v->label;
        c->n_short += v->short_series;
    }
    gp_free(scratch);
    run_lengths_free(&runs);
    *out = c;
    return GP_OK;
}

/* The one-line warning for the reports, when anything was decided. */
void gp_classification_warn(const gp_classification *c, gp_warnings *w)
{
    size_t n = c->n_decided[0] + c->n_decided[1];

    if (n == 0)
        return;
    /* the hours of a short trace (a few minutes) never read "0.0" */
    char all[32], train[32], infer[32];
    gp_format_small(c->decided_hours[0] + c->decided_hours[1], "0.0", all,
                    sizeof all);
    gp_format_small(c->decided_hours[0], "0.0", train, sizeof train);
    gp_format_small(c->decided_hours[1], "0.0", infer, sizeof infer);
    gp_warnings_add(w,
                    "classified %zu series (%s instance-hours) as "
                    "training/inference: %zu training (%s), %zu inference "
                    "(%s)%s; see gpuplan classify",
                    n, all, c->n_decided[0], train, c->n_decided[1], infer,
                    c->n_short ? ", some from under two days of data" : "");
}

/* Frees a classification; NULL is fine. */
void gp_classification_free(gp_classification *c)
{
    if (!c)
        return;
    gp_free(c->series);
    gp_free(c);
}
