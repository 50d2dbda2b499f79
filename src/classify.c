/*
 * classify.c: training or inference, told from the shape of demand
 * (classify.h has the interface; bench/classify/ the measurements).
 *
 * A series' features are computed over its own active span, the hours from
 * its first to its last hour of demand, so a series that starts late in a
 * long trace is not mistaken for a bursty one.  All features are free of
 * scale: the same shape of demand gets the same label at 1 GPU or 1,000.
 * The decision rule is in gp_classify_decide, with the reasoning behind
 * each term and where its threshold came from.
 */
#include "classify.h"
#include "util.h"

#include <csv.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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

/* The trace whose labels series_order compares (qsort has no context);
 * thread-local, so two threads classifying at once do not mix traces. */
static _Thread_local const gp_trace *order_trace;

/* Orders series indices as the trace loader orders series
 * (gp_series_cmp); then label and series index, so that equal keys are
 * neighbours and the order is total. */
static int series_order(const void *pa, const void *pb)
{
    uint32_t ia = *(const uint32_t *)pa, ib = *(const uint32_t *)pb;
    const gp_series *x = &order_trace->series[ia];
    const gp_series *y = &order_trace->series[ib];
    int c = gp_series_cmp(order_trace, x, y);
    if (c)
        return c;
    if (x->team != y->team)
        return x->team < y->team ? -1 : 1;
    if (x->project != y->project)
        return x->project < y->project ? -1 : 1;
    return ia < ib ? -1 : (ia > ib ? 1 : 0);
}

/* Whether two series have the same key. */
static bool same_key(const gp_series *x, const gp_series *y)
{
    return x->pool == y->pool && x->workload == y->workload &&
           x->interruptible == y->interruptible && x->team == y->team &&
           x->project == y->project;
}

/* Relabels, re-sorts and merges the trace's series in place; everything
 * it needs is allocated first, so on failure the trace is unchanged. */
gp_status gp_classify_apply(gp_trace *t, gp_classification *c,
                            gp_error *err)
{
    size_t n = t->n_series;
    gp_series *sorted = NULL;
    uint32_t *where = NULL, *merged_into = NULL;

    if (c->n_series != n) {
        gp_error_set(err, NULL, 0, 0, NULL,
                     "classification of %zu series applied to a trace of "
                     "%zu",
                     c->n_series, n);
        return GP_ERR_INPUT;
    }
    if (n == 0)
        return GP_OK;
    /* everything allocated before anything changes: on failure the trace
     * is as it was */
    sorted = gp_malloc(n * sizeof *sorted);
    where = gp_malloc(n * sizeof *where);
    merged_into = gp_malloc(n * sizeof *merged_into);
    if (!sorted || !where || !merged_into) {
        gp_free(sorted);
        gp_free(where);
        gp_free(merged_into);
        gp_error_set(err, NULL, 0, 0, NULL, "out of memory");
        return GP_ERR_NOMEM;
    }
    bool unlabeled_moved = false;
    for (size_t s = 0; s < n; s++) {
        gp_series *ser = &t->series[c->series[s].series];
        gp_workload to = c->series[s].label;
        if (!c->series[s].decided || ser->workload == to)
            continue;
        double moved = 0;
        for (size_t h = 0; h < t->n_hours; h++)
            moved += ser->instance_hours[h];
        unlabeled_moved |= ser->workload == GP_UNLABELED;
        t->instance_hours[ser->workload] -= moved;
        t->instance_hours[to] += moved;
        ser->workload = to;
    }
    /* What is left unlabelled is summed again from the series that still
     * are, not left as the rows' total less what moved: the two sums add
     * the same hours in another order, and their difference (1e-17 when
     * every series moved) read as "0 instance-hours had no workload
     * label". */
    if (unlabeled_moved) {
        double left = 0;
        for (size_t s = 0; s < n; s++)
            if (t->series[s].workload == GP_UNLABELED)
                for (size_t h = 0; h < t->n_hours; h++)
                    left += t->series[s].instance_hours[h];
        t->instance_hours[GP_UNLABELED] = left;
    }

    /* sort the indices (merged_into holds them for now), then place */
    for (size_t i = 0; i < n; i++)
        merged_into[i] = (uint32_t)i;
    order_trace = t;
    qsort(merged_into, n, sizeof *merged_into, series_order);
    for (size_t j = 0; j < n; j++) {
        sorted[j] = t->series[merged_into[j]];
        where[merged_into[j]] = (uint32_t)j;
    }
    /* merge neighbours with equal keys into the first of them */
    size_t kept = 0;
    for (size_t j = 0; j < n; j++) {
        if (kept > 0 && same_key(&sorted[kept - 1], &sorted[j])) {
            gp_series *into = &sorted[kept - 1];
            for (size_t h = 0; h < t->n_hours; h++) {
                into->instance_hours[h] += sorted[j].instance_hours[h];
                into->useful_gpu_hours[h] += sorted[j].useful_gpu_hours[h];
                into->util_gpu_hours[h] += sorted[j].util_gpu_hours[h];
            }
            gp_free(sorted[j].instance_hours);
            gp_free(sorted[j].useful_gpu_hours);
            gp_free(sorted[j].util_gpu_hours);
            into->job_util |= sorted[j].job_util;
            /* the earlier start of demand (0: none, or not known) */
            if (sorted[j].start_s > 0 &&
                (into->start_s == 0 || sorted[j].start_s < into->start_s))
                into->start_s = sorted[j].start_s;
        } else {
            sorted[kept++] = sorted[j];
        }
        merged_into[j] = (uint32_t)(kept - 1);
    }
    for (size_t i = 0; i < n; i++)
        where[i] = merged_into[where[i]];
    for (size_t r = 0; r < t->n_runs; r++)
        t->runs[r].series = where[t->runs[r].series];
    for (size_t r = 0; r < t->n_low_util; r++)
        t->low_util[r].series = where[t->low_util[r].series];
    for (size_t s = 0; s < n; s++)
        c->series[s].series = where[c->series[s].series];
    gp_free(t->series);
    t->series = sorted;
    t->n_series = kept;
    gp_free(where);
    gp_free(merged_into);
    return GP_OK;
}

/* Classify, then relabel in place. */
gp_status gp_classify_trace(gp_trace *t, bool relabel,
                            gp_classification **out, gp_error *err)
{
    gp_classification *c;
    gp_status st = gp_classify(t, relabel, &c, err);

    if (out)
        *out = NULL;
    if (st != GP_OK)
        return st;
    st = gp_classify_apply(t, c, err);
    if (st != GP_OK || !out)
        gp_classification_free(c);
    else
        *out = c;
    return st;
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

/* ---- the input rows again, labelled ----------------------------------- */

/* The canonical columns a row's series key is read from. */
enum {
    K_PROVIDER,
    K_REGION,
    K_TYPE,
    K_WORKLOAD,
    K_TEAM,
    K_PROJECT,
    K_INTERRUPTIBLE,
    N_KEYS
};
static const char *const key_names[N_KEYS] = {
    "provider", "region", "instance_type", "workload",
    "team",     "project", "interruptible"};

/* One field of the row being read. */
struct out_field {
    char *p;
    size_t len;
};

/* Everything the labelled copy needs while it re-reads the traces. */
struct out_ctx {
    const gp_trace *t;
    const gp_pricing *pricing;
    const gp_trace_options *opt;
    const gp_classification *c;
    gp_strmap labels; /* label text -> first index into trace->labels */
    /* the next label with the same text, UINT32_MAX after the last: labels
     * that differed only after a NUL byte read the same as C strings */
    uint32_t *same_next;
    gp_strmap series; /* binary series key -> index into trace->series */
    /* output columns: the union of the input headers, then workload and
     * workload_confidence when no input had them */
    char **columns;
    size_t n_columns, cap_columns;
    size_t col_workload, col_confidence, col_interruptible;
    /* the file being read */
    const char *source;
    bool header_pass; /* reading headers only */
    bool done_header;
    size_t body; /* offset of the first data line */
    bool in_header; /* libcsv is reading the header's lines */
    int colmap[N_KEYS];     /* input column of each key, -1 if none */
    size_t *to_out;         /* input column -> output column */
    size_t n_in;
    struct out_field *row;  /* fields of the current row */
    size_t n_row, cap_row;
    long line;
    FILE *f;
    gp_status status;
    gp_error *err;
};

/* The binary key a series is found by. */
struct key {
    uint32_t pool;
    uint32_t workload;
    uint32_t interruptible;
    int32_t team, project;
};

/* s[0, len) without the spaces and tabs around it. */
static const char *trimmed(const char *s, size_t *len)
{
    while (*len && (*s == ' ' || *s == '\t')) {
        s++;
        (*len)--;
    }
    while (*len && (s[*len - 1] == ' ' || s[*len - 1] == '\t'))
        (*len)--;
    return s;
}

/* Whether field f is `word`, ignoring case.  Fields come from libcsv,
 * which trims blanks around unquoted fields as the loader does; blanks
 * inside quotes count (found by fuzz_classify). */
static bool field_is(const struct out_field *f, const char *word)
{
    return f->len == strlen(word) && strncasecmp(f->p, word, f->len) == 0;
}

/* The output column named `name` (case-insensitive), added if new. */
static gp_status output_column(struct out_ctx *o, const char *name,
                               size_t len, size_t *col)
{
    for (size_t i = 0; i < o->n_columns; i++)
        if (strlen(o->columns[i]) == len &&
            strncasecmp(o->columns[i], name, len) == 0) {
            *col = i;
            return GP_OK;
        }
    if (gp_grow((void **)&o->columns, &o->cap_columns, o->n_columns + 1,
                sizeof *o->columns) != GP_OK)
        return GP_ERR_NOMEM;
    if (!(o->columns[o->n_columns] = gp_strndup(name, len)))
        return GP_ERR_NOMEM;
    *col = o->n_columns++;
    return GP_OK;
}

/* libcsv's field callback: keeps a copy of the field in the row. */
static void on_field(void *data, size_t len, void *ctx)
{
    struct out_ctx *o = ctx;
    if (o->status != GP_OK ||
        ((o->header_pass || o->in_header) && o->done_header))
        return;
    /* bytes as they are, NULs included (the loader keeps them in labels) */
    char *copy;
    if (gp_grow((void **)&o->row, &o->cap_row, o->n_row + 1,
                sizeof *o->row) != GP_OK ||
        !(copy = gp_malloc(len + 1))) {
        o->status = GP_ERR_NOMEM;
        return;
    }
    if (len)
        memcpy(copy, data, len);
    copy[len] = '\0';
    o->row[o->n_row].p = copy;
    o->row[o->n_row++].len = len;
}

/* Frees the fields of the current row. */
static void clear_row(struct out_ctx *o)
{
    for (size_t i = 0; i < o->n_row; i++)
        gp_free(o->row[i].p);
    o->n_row = 0;
}

/* Reads the header row: which input column is which key, and where each
 * goes in the output. */
static void read_header(struct out_ctx *o)
{
    if (o->n_row > 0 && o->row[0].len >= 3 &&
        memcmp(o->row[0].p, "\xEF\xBB\xBF", 3) == 0) {
        memmove(o->row[0].p, o->row[0].p + 3, o->row[0].len - 2);
        o->row[0].len -= 3;
    }
    for (size_t k = 0; k < N_KEYS; k++)
        o->colmap[k] = -1;
    gp_free(o->to_out);
    o->n_in = o->n_row;
    if (!(o->to_out = gp_calloc(o->n_row ? o->n_row : 1, sizeof *o->to_out))) {
        o->status = GP_ERR_NOMEM;
        return;
    }
    for (size_t i = 0; i < o->n_row; i++) {
        /* header names end at a NUL byte, as the loader reads them */
        size_t len = strlen(o->row[i].p);
        const char *name = trimmed(o->row[i].p, &len);
        for (size_t k = 0; k < N_KEYS; k++) {
            const char *want = gp_trace_read_column(o->opt, key_names[k], NULL);
            if (want && o->colmap[k] < 0 && strlen(want) == len &&
                strncasecmp(name, want, len) == 0)
                o->colmap[k] = (int)i;
        }
        if (output_column(o, name, len, &o->to_out[i]) != GP_OK) {
            o->status = GP_ERR_NOMEM;
            return;
        }
    }
}

/* The field of key k in the current row ("" when the file lacks it). */
static struct out_field key_field(const struct out_ctx *o, int k)
{
    struct out_field none = {(char *)"", 0};
    int c = o->colmap[k];
    return c >= 0 && (size_t)c < o->n_row ? o->row[c] : none;
}

/* The label index of a team or project field, -1 when empty; false when
 * the trace has no such label. */
static bool label_of(const struct out_ctx *o, struct out_field f,
                     int32_t *index)
{
    size_t len = f.len;
    const char *p = f.p;
    uint32_t v;
    if (len == 0) {
        *index = -1;
        return true;
    }
    /* the trace keeps labels as C strings: a NUL byte ends them (found by
     * fuzz_classify) */
    if (!gp_strmap_get(&o->labels, p, strnlen(p, len), &v))
        return false;
    *index = (int32_t)v;
    return true;
}

/* Finds the series of the current data row, as the trace loader keyed
 * it.  Returns false with o->err set when the row is not in the trace. */
static bool row_series(struct out_ctx *o, gp_workload w, uint32_t *series)
{
    const gp_trace *t = o->t;
    struct out_field f[N_KEYS];
    char p[16], r[32], ty[64];
    const gp_catalog *cat = NULL;
    bool ambiguous = false;
    struct key key;

    for (int k = 0; k < N_KEYS; k++)
        f[k] = key_field(o, k);
    snprintf(p, sizeof p, "%.*s", (int)f[K_PROVIDER].len, f[K_PROVIDER].p);
    snprintf(r, sizeof r, "%.*s", (int)f[K_REGION].len, f[K_REGION].p);
    snprintf(ty, sizeof ty, "%.*s", (int)f[K_TYPE].len, f[K_TYPE].p);
    if (!r[0] && o->opt->region)
        snprintf(r, sizeof r, "%s", o->opt->region);
    const gp_instance_type *it =
        gp_pricing_find(o->pricing, p, r, ty, &cat, &ambiguous);
    memset(&key, 0, sizeof key);
    key.pool = UINT32_MAX;
    for (size_t i = 0; it && i < t->n_pools; i++)
        if (t->pools[i].catalog == cat && t->pools[i].type == it)
            key.pool = (uint32_t)i;
    key.workload = (uint32_t)w;
    if (f[K_INTERRUPTIBLE].len == 0)
        key.interruptible = w == GP_TRAINING;
    else
        key.interruptible = field_is(&f[K_INTERRUPTIBLE], "true") ||
                            field_is(&f[K_INTERRUPTIBLE], "1") ||
                            field_is(&f[K_INTERRUPTIBLE], "yes");
    uint32_t v;
    int32_t team, project;
    if (key.pool != UINT32_MAX && label_of(o, f[K_TEAM], &team) &&
        label_of(o, f[K_PROJECT], &project)) {
        /* every label that reads the same, team by project (one by one
         * unless labels held NUL bytes) */
        for (int32_t a = team; ; a = (int32_t)o->same_next[a]) {
            for (int32_t b = project; ; b = (int32_t)o->same_next[b]) {
                key.team = a;
                key.project = b;
                if (gp_strmap_get(&o->series, (const char *)&key,
                                  sizeof key, &v)) {
                    *series = v;
                    return true;
                }
                if (b < 0 || o->same_next[b] == UINT32_MAX)
                    break;
            }
            if (a < 0 || o->same_next[a] == UINT32_MAX)
                break;
        }
    }
    gp_error_set(o->err, o->source, o->line, 0, NULL,
                 "row is not in the trace that was classified (was the "
                 "file changed while it was read?)");
    o->status = GP_ERR_INPUT;
    return false;
}

/* Writes one field, quoted only when it has to be. */
static void write_field(FILE *f, const char *p, size_t len)
{
    bool quote = len && (p[0] == ' ' || p[0] == '\t' || p[len - 1] == ' ' ||
                         p[len - 1] == '\t');
    for (size_t i = 0; i < len && !quote; i++)
        quote = p[i] == ',' || p[i] == '"' || p[i] == '\r' || p[i] == '\n';
    if (quote)
        csv_fwrite(f, p, len);
    else
        fwrite(p, 1, len, f);
}

/* libcsv's row callback: the header, or a data row written out. */
static void on_row(int term, void *ctx)
{
    struct out_ctx *o = ctx;
    (void)term;
    o->line++;
    if (o->status != GP_OK ||
        ((o->header_pass || o->in_header) && o->done_header)) {
        clear_row(o);
        return;
    }
    if (!o->done_header) {
        read_header(o);
        o->done_header = true;
        clear_row(o);
        return;
    }
    /* a data row.  One whose field count differs from the header's cannot
     * be a row the loader took (it rejects those), so it is not one of
     * the trace's rows to write */
    if (o->n_row != o->n_in) {
        clear_row(o);
        return;
    }
    struct out_field wf = key_field(o, K_WORKLOAD);
    gp_workload loaded = field_is(&wf, "training")    ? GP_TRAINING
                         : field_is(&wf, "inference") ? GP_INFERENCE
                                                      : GP_UNLABELED;
    const char *label = NULL;
    const char *stated = NULL; /* interruptible, when the row left it out */
    char conf[32] = "1";
    if (loaded == GP_UNLABELED || o->c->relabel) {
        uint32_t s;
        if (!row_series(o, loaded, &s)) {
            clear_row(o);
            return;
        }
        const gp_series_class *v = &o->c->series[s];
        label = gp_workload_name(v->label);
        snprintf(conf, sizeof conf, "%.3f", v->confidence);
        if (key_field(o, K_INTERRUPTIBLE).len == 0)
            stated = v->interruptible ? "true" : "false";
    }
    char confbuf[32];
    for (size_t col = 0; col < o->n_columns; col++) {
        const char *p = "";
        size_t len = 0;
        if (col)
            fputc(',', o->f);
        if (col == o->col_workload && label) {
            p = label;
            len = strlen(label);
        } else if (col == o->col_confidence) {
            snprintf(confbuf, sizeof confbuf, "%s", conf);
            p = confbuf;
            len = strlen(confbuf);
        } else if (col == o->col_interruptible && stated) {
            p = stated;
            len = strlen(stated);
        } else {
            for (size_t i = 0; i < o->n_in && i < o->n_row; i++)
                if (o->to_out[i] == col) {
                    p = o->row[i].p;
                    len = o->row[i].len;
                    break;
                }
        }
        write_field(o->f, p, len);
    }
    fputc('\n', o->f);
    clear_row(o);
}

/* Runs libcsv over text[from, to) with the row callbacks; false with
 * o->status set when libcsv fails. */
static bool run_csv(struct out_ctx *o, const char *text, size_t from,
                    size_t to, bool header_only)
{
    struct csv_parser parser;
    bool ok = true;

    if (csv_init(&parser, CSV_APPEND_NULL) != 0) {
        o->status = GP_ERR_NOMEM;
        return false;
    }
    if (header_only) {
        /* a physical line at a time until the header row ends, as the
         * loader reads it */
        size_t pos = from;
        o->in_header = true;
        while (pos < to && !o->done_header && ok) {
            const char *nl = memchr(text + pos, '\n', to - pos);
            size_t next = nl ? (size_t)(nl - text) + 1 : to;
            ok = csv_parse(&parser, text + pos, next - pos, on_field, on_row,
                           o) == next - pos;
            pos = next;
        }
        o->body = pos;
    } else {
        o->in_header = false;
        ok = csv_parse(&parser, text + from, to - from, on_field, on_row,
                       o) == to - from;
    }
    if (ok && !(header_only && o->done_header))
        ok = csv_fini(&parser, on_field, on_row, o) == 0;
    if (!ok && o->status == GP_OK && csv_error(&parser) == CSV_ENOMEM) {
        o->status = GP_ERR_NOMEM;
    } else if (!ok && o->status == GP_OK) {
        gp_error_set(o->err, o->source, o->line + 1, 0, NULL, "%s",
                     csv_strerror(csv_error(&parser)));
        o->status = GP_ERR_INPUT;
    }
    csv_free(&parser);
    clear_row(o);
    return o->status == GP_OK;
}

/*
 * Reads one text in the current pass.  The header is found as the loader
 * finds it (after a byte order mark and blank lines, physical lines until
 * its row ends) and the data starts on the next physical line: a bare
 * carriage return ends the header row early for libcsv, and what follows
 * it on that line is not data to the loader (found by fuzz_classify).
 */
static gp_status parse_text(struct out_ctx *o, const char *source,
                            const char *text, size_t len)
{
    size_t pos = 0;

    o->source = source;
    o->done_header = false;
    o->line = 0;
    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0)
        pos = 3;
    for (size_t k = pos; k < len; k++) {
        if (text[k] == '\n')
            pos = k + 1;
        else if (text[k] != ' ' && text[k] != '\t' && text[k] != '\r')
            break;
    }
    if (run_csv(o, text, pos, len, true) && !o->header_pass &&
        o->body < len)
        run_csv(o, text, o->body, len, false);
    if (o->status == GP_ERR_NOMEM)
        gp_error_set(o->err, NULL, 0, 0, NULL, "out of memory");
    return o->status;
}

/* Two passes over the texts: the headers make the output's columns, then
 * every row is written with its series' verdict. */
gp_status gp_classify_write_labeled(FILE *f, const gp_trace *t,
                                    const gp_pricing *pricing,
                                    const gp_trace_options *opt,
                                    const gp_classification *c,
                                    size_t n_texts,
                                    const char *const *sources,
                                    const char *const *texts,
                                    const size_t *lens, gp_error *err)
{
    struct out_ctx o;
    gp_status st = GP_OK;
    char **copies = NULL; /* texts with CR line ends, made LF as the
                           * loader reads them (read_source) */

    memset(&o, 0, sizeof o);
    o.t = t;
    o.pricing = pricing;
    o.opt = opt;
    o.c = c;
    o.err = err;
    if (c->n_series != t->n_series) {
        gp_error_set(err, NULL, 0, 0, NULL,
                     "classification of %zu series used with a trace of %zu",
                     c->n_series, t->n_series);
        return GP_ERR_INPUT;
    }
    o.same_next = gp_malloc((t->n_labels ? t->n_labels : 1) *
                            sizeof *o.same_next);
    if (!o.same_next)
        st = GP_ERR_NOMEM;
    for (size_t i = 0; i < t->n_labels && st == GP_OK; i++) {
        uint32_t v;
        size_t len = strlen(t->labels[i]);
        o.same_next[i] = UINT32_MAX;
        if (!gp_strmap_get(&o.labels, t->labels[i], len, &v)) {
            st = gp_strmap_put(&o.labels, t->labels[i], len, (uint32_t)i);
        } else {
            while (o.same_next[v] != UINT32_MAX)
                v = o.same_next[v];
            o.same_next[v] = (uint32_t)i;
        }
    }
    for (size_t s = 0; s < t->n_series && st == GP_OK; s++) {
        struct key k;
        memset(&k, 0, sizeof k);
        k.pool = t->series[s].pool;
        k.workload = (uint32_t)t->series[s].workload;
        k.interruptible = t->series[s].interruptible;
        k.team = t->series[s].team;
        k.project = t->series[s].project;
        st = gp_strmap_put(&o.series, (const char *)&k, sizeof k,
                           (uint32_t)s);
    }
    if (st == GP_OK && n_texts &&
        !(copies = gp_calloc(n_texts, sizeof *copies)))
        st = GP_ERR_NOMEM;
    for (size_t i = 0; i < n_texts && st == GP_OK; i++)
        st = gp_text_lf_copy(texts[i], lens[i], &copies[i]);
    if (st != GP_OK)
        gp_error_set(err, NULL, 0, 0, NULL, "out of memory");
    /* first pass: the headers, for the output columns */
    o.header_pass = true;
    for (size_t i = 0; i < n_texts && st == GP_OK; i++)
        st = parse_text(&o, sources[i], copies[i] ? copies[i] : texts[i],
                        lens[i]);
    const char *workload = gp_trace_mapped_column(opt, "workload");
    const char *interruptible = gp_trace_mapped_column(opt, "interruptible");
    if (st == GP_OK)
        st = output_column(&o, workload, strlen(workload), &o.col_workload);
    if (st == GP_OK)
        st = output_column(&o, "workload_confidence",
                           strlen("workload_confidence"), &o.col_confidence);
    /* a classified row states the interruptible flag it was billed with,
     * so reading the file back cannot send a guessed "training" to spot
     * by the SPEC's default for training */
    if (st == GP_OK)
        st = output_column(&o, interruptible, strlen(interruptible),
                           &o.col_interruptible);
    if (st == GP_ERR_NOMEM)
        gp_error_set(err, NULL, 0, 0, NULL, "out of memory");
    /* second pass: the rows */
    if (st == GP_OK) {
        o.f = f;
        for (size_t i = 0; i < o.n_columns; i++) {
            if (i)
                fputc(',', f);
            write_field(f, o.columns[i], strlen(o.columns[i]));
        }
        fputc('\n', f);
        o.header_pass = false;
        for (size_t i = 0; i < n_texts && st == GP_OK; i++)
            st = parse_text(&o, sources[i], copies[i] ? copies[i] : texts[i],
                            lens[i]);
    }
    for (size_t i = 0; copies && i < n_texts; i++)
        gp_free(copies[i]);
    gp_free(copies);
    for (size_t i = 0; i < o.n_columns; i++)
        gp_free(o.columns[i]);
    gp_free(o.columns);
    gp_free(o.to_out);
    clear_row(&o);
    gp_free(o.row);
    gp_strmap_free(&o.labels);
    gp_free(o.same_next);
    gp_strmap_free(&o.series);
    return st;
}

/* Frees a classification; NULL is fine. */
void gp_classification_free(gp_classification *c)
{
    if (!c)
        return;
    gp_free(c->series);
    gp_free(c);
}
