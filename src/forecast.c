/*
 * forecast.c: hourly demand forecasts per pool and workload (forecast.h):
 * every (pool, workload) series of a trace, from its whole hours, spread
 * over threads (one series is forecast_series.c's), with the notes on
 * what was left out, and the forecast turned back into a trace.  How a
 * series is forecast, and why: docs/design/forecast.md.
 */
#include "forecast_internal.h"
#include "util.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The method's name as the reports and the JSON print it. */
const char *gp_forecast_method_name(gp_forecast_method m)
{
    static const char *const names[GP_FC_N_METHODS] = {
        "naive-24h", "naive-168h",  "regression",     "holt-winters",
        "level",     "combination", "seasonal-median", "exp-smoothing",
        "drift",     "theta",       "damped-trend"};
    return (unsigned)m < GP_FC_N_METHODS ? names[m] : "?";
}

/* Defaults: choose the method by backtest, 80% interval, all cores. */
void gp_forecast_options_init(gp_forecast_options *o)
{
    memset(o, 0, sizeof *o);
    o->method = -1;
    o->interval = 0.8;
}

/* ---- every series of a trace -------------------------------------------- */

/* The work shared by the threads: series i is forecast from demand[i]. */
typedef struct forecast_job {
    gp_forecast *fc;
    double **demand; /* per series: history then actual hours */
    /* per series: where its rows start (seconds; 0 when not known) */
    const double *start_s;
    size_t n_history, n_actual;
    int64_t first_hour;
    size_t horizon;
    const double *growth; /* by series */
    const gp_forecast_options *opt;
    size_t next;
    pthread_mutex_t lock;
    gp_status status;
    gp_error err;
} forecast_job;

/* A worker: takes series one at a time until none are left or one failed. */
static void *forecast_worker(void *arg)
{
    forecast_job *job = arg;
    for (;;) {
        pthread_mutex_lock(&job->lock);
        size_t i = job->next++;
        bool stop = job->status != GP_OK;
        pthread_mutex_unlock(&job->lock);
        if (stop || i >= job->fc->n_series)
            return NULL;
        gp_progress_report(&job->opt->progress, "forecast", (double)i,
                           (double)job->fc->n_series);
        gp_forecast_series *s = &job->fc->series[i];
        gp_error e;
        gp_error_clear(&e);
        uint32_t pool = s->pool;
        gp_workload w = s->workload;
        /* the series' history starts at its first hour with demand: the
         * hours before a pool appeared say nothing about its demand, and
         * would weigh on its seasonal medians, backtest and interval
         * (there is one: the series was kept for having some) */
        size_t lead = 0;
        while (job->demand[i][lead] <= 0)
            lead++;
        /* and when the series' rows start part-way through that hour (a
         * new pool's first job at 10:30), the hour holds only part of an
         * hour's demand: kept, it would read as a dip right before the
         * demand begins, as a trace's partial first hour would; so it is
         * left out, unless it is all the demand in the history.  (A row of
         * 0 instances before the demand covers the hour: its demand is
         * what was seen, as for the trace.) */
        double s0 = job->start_s[i];
        double h0 = (double)(job->first_hour + (int64_t)lead) * 3600;
        double partial = 0;
        if (s0 > h0 + 1e-6 && s0 < h0 + 3600) {
            for (size_t h = lead + 1; h < job->n_history; h++)
                if (job->demand[i][h] > 0) {
                    partial = s0;
                    lead++;
                    break;
                }
        }
        gp_status st = gp_forecast_series_run(
            job->demand[i] + lead, job->n_history - lead,
            job->first_hour + (int64_t)lead, job->horizon, job->growth[i],
            job->opt, s, &e);
        s->pool = pool;
        s->workload = w;
        s->history_hours = job->n_history - lead;
        s->partial_start_s = partial;
        if (st == GP_OK && job->n_actual) {
            size_t na =
                job->n_actual < job->horizon ? job->n_actual : job->horizon;
            /* against the same history it was fitted on, so that the
             * hold-out's naive baselines and MASE scale, like the
             * backtest's, repeat no hour from before the pool existed */
            gp_forecast_series_score(s, job->demand[i] + lead,
                                     job->n_history - lead,
                                     job->demand[i] + job->n_history, na);
        }
        if (st != GP_OK) {
            pthread_mutex_lock(&job->lock);
            if (job->status == GP_OK) {
                job->status = st;
                job->err = e;
            }
            pthread_mutex_unlock(&job->lock);
        }
    }
}

/* "T, part-way through the hour from H", for a time s (seconds) that is
 * not on the hour: where a trace or a series starts or ends in a partly
 * covered hour, as the notes that leave that hour out say it. */
static void part_way(double s, char *buf, size_t size)
{
    char t[32], h[32];
    gp_format_time((int64_t)floor(s + 0.5), t, sizeof t);
    gp_format_time((int64_t)floor(s / 3600) * 3600, h, sizeof h);
    snprintf(buf, size, "%s, part-way through the hour from %s", t, h);
}

/* The state of gp_forecast_run, passed between its steps: the whole hours
 * the history and the hold-out cover, the demand per (pool, workload) key
 * and per series, and the forecast being made.  The arrays are the run's
 * own, freed by trace_run_free; fc is the caller's on success. */
typedef struct trace_run {
    const gp_trace *trace;
    const gp_scenario *s;
    const gp_forecast_options *opt;
    size_t horizon;
    /* the whole hours [first_hour, end_hour), from hour `skip` of the
     * trace's arrays, n_whole of them, the first n_hist the history */
    int64_t first_hour, end_hour;
    bool cut_start, cut_end;
    size_t skip, n_whole, n_hist;
    size_t n_keys, n_series;
    double **per_key, *key_start;            /* by key: demand, earliest row */
    double **demand, *growth, *series_start; /* by series */
    gp_forecast *fc;
} trace_run;

/* The file a message about the whole trace names: its only source. */
static const char *trace_source(const gp_trace *trace)
{
    return trace->n_sources == 1 ? trace->sources[0] : "";
}

/* Finds the hours the trace covers whole; an error when there are none. */
static gp_status whole_hours(trace_run *r, gp_error *err)
{
    const gp_trace *trace = r->trace;
    /* the hours the trace covers whole: a last row that ends part-way
     * through an hour (a job ending at 12:30) leaves that hour partly
     * covered, and its demand, a fraction of a whole hour's, would be
     * forecast as a dip and repeated by the seasonal methods; so does a
     * first row that starts part-way through one (a first sample at
     * 00:30), whose hour would be a dip in the history's first day */
    r->first_hour = trace->start_hour;
    r->end_hour = trace->start_hour + (int64_t)trace->n_hours;
    r->cut_start = trace->start_s > (double)r->first_hour * 3600 + 1e-6;
    r->cut_end = trace->end_s > 0 &&
                 (int64_t)floor((trace->end_s + 1e-6) / 3600.0) < r->end_hour;
    if (r->cut_start)
        r->first_hour++;
    if (r->cut_end)
        r->end_hour--;
    if (r->end_hour > r->first_hour)
        return GP_OK;
    char a[32], e[32], h[32];
    const char *src = trace_source(trace);
    gp_format_time((int64_t)floor(trace->start_s + 0.5), a, sizeof a);
    gp_format_time((int64_t)floor(trace->end_s + 0.5), e, sizeof e);
    gp_format_time(trace->start_hour * 3600, h, sizeof h);
    if (!r->cut_start)
        gp_error_set(err, src, 0, 0, "",
                     "the trace ends at %s, before the end of its first "
                     "hour (from %s): a forecast needs at least one "
                     "whole hour of history",
                     e, h);
    else
        gp_error_set(err, src, 0, 0, "",
                     "the trace runs from %s to %s and covers no whole "
                     "clock hour (it starts part-way through the hour "
                     "from %s): a forecast needs at least one whole hour "
                     "of history",
                     a, e, h);
    return GP_ERR_INPUT;
}

/* The history: the whole hours, or those before opt->train_until, which
 * must leave 2 hours of history and 1 to score. */
static gp_status history_hours(trace_run *r, gp_error *err)
{
    const gp_forecast_options *opt = r->opt;
    r->skip = r->cut_start ? 1 : 0;
    r->n_whole = (size_t)(r->end_hour - r->first_hour);
    r->n_hist = r->n_whole;
    if (!opt->train_until)
        return GP_OK;
    int64_t cut = opt->train_until / 3600 - r->first_hour;
    if (opt->train_until % 3600 == 0 && cut >= 2 && cut < (int64_t)r->n_whole) {
        r->n_hist = (size_t)cut;
        return GP_OK;
    }
    /* the least history is 2 hours, so the earliest cut is the
     * trace's first whole hour + 2 h; the latest is an hour before
     * the end of its last whole hour, leaving one to score */
    char a[32], z[32], g[32];
    gp_format_time((r->first_hour + 2) * 3600, a, sizeof a);
    gp_format_time(r->end_hour * 3600, z, sizeof z);
    gp_format_time(opt->train_until, g, sizeof g);
    if (r->n_whole < 3)
        gp_error_set_param(err, NULL, GP_PARAM_TRAIN_UNTIL,
                           "needs 2 hours of history before it and 1 "
                           "after it, but the trace covers %zu whole "
                           "hour%s (to %s); leave "
                           GP_PARAM_TEXT("train-until") " out",
                     r->n_whole, gp_plural(r->n_whole, "", "s"), z);
    else
        gp_error_set_param(err, NULL, GP_PARAM_TRAIN_UNTIL,
                     "must be a whole hour from %s (2 hours after "
                     "the %s, the least history) to "
                     "before %s (%s), got %s",
                     a,
                     r->cut_start ? "start of the trace's first whole "
                                    "hour"
                                  : "trace's start",
                     z,
                     r->cut_end ? "the end of the trace's last whole hour"
                                : "the trace's end",
                     g);
    return GP_ERR_USAGE;
}

/* The forecast's end is printed as a time: it must be in 9999. */
static gp_status check_room(const trace_run *r, gp_error *err)
{
    int64_t start = r->first_hour + (int64_t)r->n_hist;
    int64_t room = GP_TIME_LATEST / 3600 - start;
    if ((int64_t)r->horizon <= room)
        return GP_OK;
    char a[32];
    gp_format_time(start * 3600, a, sizeof a);
    if (room <= 0) {
        gp_error_set(err, trace_source(r->trace), 0, 0, "",
                     "the forecast would start at %s, the latest time "
                     "gpuplan can forecast to: there is no hour left to "
                     "forecast",
                     a);
        return GP_ERR_INPUT;
    }
    gp_error_set_param(err, NULL, GP_PARAM_HORIZON,
                 "runs the forecast from %s past " GP_TIME_LATEST_WHY
                 "; give at most %lld hour%s, got %zu hours",
                 a, (long long)room, gp_plural(room, "", "s"), r->horizon);
    return GP_ERR_USAGE;
}

/* Makes the forecast and sums demand per (pool, workload) key over teams
 * and projects, with the earliest row of each key. */
static gp_status sum_per_key(trace_run *r)
{
    const gp_trace *trace = r->trace;
    r->fc = gp_calloc(1, sizeof *r->fc);
    r->per_key = gp_calloc(r->n_keys, sizeof *r->per_key);
    r->key_start = gp_calloc(r->n_keys, sizeof *r->key_start);
    if (!r->fc || !r->per_key || !r->key_start)
        return GP_ERR_NOMEM;
    for (size_t i = 0; i < trace->n_series; i++) {
        const gp_series *ser = &trace->series[i];
        size_t key = ser->pool * GP_N_WORKLOADS + (size_t)ser->workload;
        double **per_key = r->per_key, *key_start = r->key_start;
        if (!per_key[key]) {
            per_key[key] = gp_calloc(trace->n_hours, sizeof **per_key);
            if (!per_key[key])
                return GP_ERR_NOMEM;
        }
        for (size_t h = 0; h < trace->n_hours; h++)
            per_key[key][h] += ser->instance_hours[h];
        /* the earliest row over its teams and projects */
        if (ser->start_s > 0 &&
            (key_start[key] == 0 || ser->start_s < key_start[key]))
            key_start[key] = ser->start_s;
    }
    return GP_OK;
}

/* Counts the keys with demand in the history into r->n_series; the
 * others are left out, with a note. */
static void drop_empty_keys(trace_run *r)
{
    const gp_trace *trace = r->trace;
    size_t n_hist = r->n_hist;
    r->n_series = 0;
    for (size_t k = 0; k < r->n_keys; k++) {
        const double *d = r->per_key[k];
        if (!d)
            continue;
        double total = 0, after = 0;
        for (size_t h = r->skip; h < r->skip + n_hist; h++)
            total += d[h];
        if (total > 0) {
            r->n_series++;
            continue;
        }
        /* no demand to forecast from: left out, and said so (a series
         * whose rows all say 0 instances, or whose demand begins after
         * the forecast start) */
        for (size_t h = r->skip + n_hist; h < trace->n_hours; h++)
            after += d[h];
        char name[256], t[32], more[128] = "";
        gp_trace_pool_name(trace, k / GP_N_WORKLOADS, name, sizeof name);
        gp_format_time((r->first_hour + (int64_t)n_hist) * 3600, t, sizeof t);
        if (after > 0)
            snprintf(more, sizeof more,
                     "; its %.6g instance-hours come after %s", after, t);
        gp_warnings_add(&r->fc->notes,
                        "%s %s: left out of the forecast, as its demand is "
                        "0 in all %zu hour%s of the history (to %s)%s",
                        name,
                        gp_workload_name((gp_workload)(k % GP_N_WORKLOADS)),
                        n_hist, gp_plural(n_hist, "", "s"), t, more);
        gp_free(r->per_key[k]);
        r->per_key[k] = NULL;
    }
}

/* The forecast's series, one per key with demand, each with its demand
 * from the first whole hour, its earliest row and the scenario's growth
 * for its workload; and the forecast's hours. */
static gp_status make_series(trace_run *r)
{
    gp_forecast *fc = r->fc;
    size_t n_series = r->n_series;
    fc->series = gp_calloc(n_series, sizeof *fc->series);
    r->demand = gp_calloc(n_series, sizeof *r->demand);
    r->growth = gp_calloc(n_series, sizeof *r->growth);
    r->series_start = gp_calloc(n_series, sizeof *r->series_start);
    if (!fc->series || !r->demand || !r->growth || !r->series_start)
        return GP_ERR_NOMEM;
    for (size_t k = 0, j = 0; k < r->n_keys; k++) {
        if (!r->per_key[k])
            continue;
        gp_workload w = (gp_workload)(k % GP_N_WORKLOADS);
        fc->series[j].pool = (uint32_t)(k / GP_N_WORKLOADS);
        fc->series[j].workload = w;
        r->demand[j] = r->per_key[k] + r->skip; /* from the first whole hour */
        r->series_start[j] = r->key_start[k];
        r->growth[j] = r->s && w != GP_UNLABELED ? r->s->growth[w] : 0;
        j++;
    }
    fc->n_series = n_series;
    fc->start_hour = r->first_hour + (int64_t)r->n_hist;
    fc->n_hours = r->horizon;
    fc->history_start_hour = r->first_hour;
    fc->history_hours = r->n_hist;
    return GP_OK;
}

/* Notes on the history: a partly covered first or last hour left out, a
 * short history, a horizon long for it. */
static void note_history(trace_run *r)
{
    const gp_trace *trace = r->trace;
    gp_forecast *fc = r->fc;
    size_t n_hist = r->n_hist, horizon = r->horizon;
    if (r->cut_start) {
        char a[96], w[32];
        fc->partial_start_s = trace->start_s;
        part_way(trace->start_s, a, sizeof a);
        gp_format_time(r->first_hour * 3600, w, sizeof w);
        gp_warnings_add(&fc->notes,
                        "the trace starts at %s: that hour is left out "
                        "(partly covered, it would read as a dip in demand), "
                        "so the history starts at %s",
                        a, w);
    }
    if (r->cut_end) {
        char e[96], h[32];
        fc->partial_end_s = trace->end_s;
        part_way(trace->end_s, e, sizeof e);
        gp_format_time(r->end_hour * 3600, h, sizeof h);
        if (n_hist == r->n_whole)
            gp_warnings_add(&fc->notes,
                            "the trace ends at %s: that hour is left out "
                            "(partly covered, it would read as a dip in "
                            "demand), so the history ends and the forecast "
                            "starts at %s",
                            e, h);
        else
            gp_warnings_add(&fc->notes,
                            "the trace ends at %s: the hold-out is scored on "
                            "the whole hours before it",
                            e);
    }
    if (n_hist < 2 * WEEK)
        gp_warnings_add(&fc->notes,
                        "only %zu hour%s of history: weekly seasonality is "
                        "not modelled and the backtest is short",
                        n_hist, gp_plural(n_hist, "", "s"));
    if (horizon > 4 * n_hist)
        gp_warnings_add(&fc->notes,
                        "the horizon (%zu hour%s) is over four times the "
                        "history (%zu hour%s): treat the intervals with care",
                        horizon, gp_plural(horizon, "", "s"), n_hist,
                        gp_plural(n_hist, "", "s"));
}

/* The scenario's growth moves every point (5% a month is +15.7% by the end
 * of 13 weeks): said, per workload forecast, with the file it came from. */
static void note_growth(trace_run *r)
{
    const gp_scenario *s = r->s;
    gp_forecast *fc = r->fc;
    char applied[256] = "";
    size_t len = 0;
    if (!s)
        return;
    for (int w = GP_TRAINING; w <= GP_INFERENCE; w++) {
        bool forecast = false;
        for (size_t j = 0; j < r->n_series; j++)
            forecast = forecast || (int)fc->series[j].workload == w;
        if (!forecast || s->growth[w] == 0 || len >= sizeof applied)
            continue;
        double end =
            pow(1 + s->growth[w], (double)r->horizon / GP_HOURS_PER_MONTH);
        len +=
            (size_t)snprintf(applied + len, sizeof applied - len,
                             "%s%s %+g%% a month, %+.1f%% by the horizon's end",
                             len ? "; " : "", gp_workload_name((gp_workload)w),
                             100 * s->growth[w], 100 * (end - 1));
    }
    if (len > 0)
        gp_warnings_add(&fc->notes,
                        "growth from the scenario %s is applied on top "
                        "of the forecast: %s",
                        s->path && *s->path ? s->path : s->name, applied);
}

/* Forecasts every series on up to opt->threads threads (all cores for 0;
 * on this one when none can be started); the first failure is the run's,
 * copied into err. */
static gp_status run_workers(trace_run *r, gp_error *err)
{
    const gp_forecast_options *opt = r->opt;
    forecast_job job;
    memset(&job, 0, sizeof job);
    job.fc = r->fc;
    job.demand = r->demand;
    job.start_s = r->series_start;
    job.n_history = r->n_hist;
    job.n_actual = r->n_whole - r->n_hist;
    job.first_hour = r->first_hour;
    job.horizon = r->horizon;
    job.growth = r->growth;
    job.opt = opt;
    job.status = GP_OK;
    gp_error_clear(&job.err);
    pthread_mutex_init(&job.lock, NULL);
    long threads = opt->threads;
    if (threads <= 0)
        threads = sysconf(_SC_NPROCESSORS_ONLN);
    if (threads < 1)
        threads = 1;
    if ((size_t)threads > r->n_series)
        threads = (long)r->n_series;
    pthread_t *tid = NULL;
    long started = 0;
    if (threads > 1) {
        tid = gp_calloc((size_t)threads, sizeof *tid);
        for (long i = 0; tid && i < threads; i++)
            if (pthread_create(&tid[i], NULL, forecast_worker, &job) == 0)
                started++;
    }
    if (started == 0)
        forecast_worker(&job);
    for (long i = 0; i < started; i++)
        pthread_join(tid[i], NULL);
    /* the stage is over: what follows starts clean */
    gp_progress_report(&opt->progress, "forecast", -1, 0);
    gp_free(tid);
    pthread_mutex_destroy(&job.lock);
    if (job.status != GP_OK && err)
        gp_error_set(err, job.err.source, job.err.line, job.err.column,
                     job.err.field, "%s", job.err.message);
    return job.status;
}

/* Notes on the series forecast from less than the history: those whose
 * demand began later, or whose rows start part-way through an hour. */
static void note_late_series(trace_run *r)
{
    gp_forecast *fc = r->fc;
    for (size_t i = 0; i < fc->n_series; i++) {
        const gp_forecast_series *fs = &fc->series[i];
        char t[32], name[256];
        if (fs->history_hours == r->n_hist)
            continue;
        gp_format_time((fc->start_hour - (int64_t)fs->history_hours) * 3600, t,
                       sizeof t);
        gp_trace_pool_name(r->trace, fs->pool, name, sizeof name);
        if (fs->partial_start_s > 0) {
            char a[96];
            part_way(fs->partial_start_s, a, sizeof a);
            gp_warnings_add(&fc->notes,
                            "%s %s: its rows start at %s: that hour is left "
                            "out (partly covered, it would read as a dip in "
                            "demand), so it is forecast from the %zu hour%s "
                            "since %s",
                            name, gp_workload_name(fs->workload), a,
                            fs->history_hours,
                            gp_plural(fs->history_hours, "", "s"), t);
            continue;
        }
        gp_warnings_add(&fc->notes,
                        "%s %s: no demand before %s, so it is forecast "
                        "from the %zu hour%s since",
                        name, gp_workload_name(fs->workload), t,
                        fs->history_hours,
                        gp_plural(fs->history_hours, "", "s"));
    }
}

/* Notes on the series whose relative MAE is null: the last week repeated
 * was exact on the backtest or the hold-out. */
static void note_exact_series(trace_run *r)
{
    gp_forecast *fc = r->fc;
    for (size_t i = 0; i < fc->n_series; i++) {
        const gp_forecast_series *fs = &fc->series[i];
        bool bt = fs->backtest.n_origins && isnan(fs->backtest.relative_mae);
        bool ho = fs->has_holdout && isnan(fs->holdout.relative_mae);
        char name[256];
        if (!bt && !ho)
            continue;
        gp_trace_pool_name(r->trace, fs->pool, name, sizeof name);
        gp_warnings_add(&fc->notes,
                        "%s %s: the last week repeated is exact on the %s "
                        "(its MAE is at most a billionth of mean demand), so "
                        "relative MAE is null: there is no error to beat",
                        name, gp_workload_name(fs->workload),
                        bt && ho ? "backtest and the hold-out"
                                 : (bt ? "backtest" : "hold-out"));
    }
}

/* Frees the run's arrays (not the forecast). */
static void trace_run_free(trace_run *r)
{
    if (r->per_key)
        for (size_t k = 0; k < r->n_keys; k++)
            gp_free(r->per_key[k]);
    gp_free(r->per_key);
    gp_free(r->key_start);
    gp_free(r->demand);
    gp_free(r->series_start);
    gp_free(r->growth);
}

/* Every (pool, workload) series of the trace, summed over labels, on
 * worker threads; see forecast.h. */
gp_status gp_forecast_run(const gp_trace *trace, const gp_scenario *s,
                          size_t horizon_hours, const gp_forecast_options *opt,
                          gp_forecast **out, gp_error *err)
{
    gp_forecast_options defaults;
    trace_run r;
    gp_status st;

    *out = NULL;
    if (!opt) {
        gp_forecast_options_init(&defaults);
        opt = &defaults;
    }
    if (horizon_hours == 0 || horizon_hours > 5 * 8784) {
        gp_error_set_param(err, NULL, GP_PARAM_HORIZON,
                     "expected 1 hour to 5 years, got %zu hours",
                     horizon_hours);
        return GP_ERR_USAGE;
    }
    if (trace->n_hours == 0 || trace->n_series == 0) {
        gp_error_set(err, trace_source(trace), 0, 0, "",
                     "no demand in the trace: nothing to forecast");
        return GP_ERR_INPUT;
    }
    memset(&r, 0, sizeof r);
    r.trace = trace;
    r.s = s;
    r.opt = opt;
    r.horizon = horizon_hours;
    r.n_keys = trace->n_pools * GP_N_WORKLOADS;
    if ((st = whole_hours(&r, err)) != GP_OK ||
        (st = history_hours(&r, err)) != GP_OK ||
        (st = check_room(&r, err)) != GP_OK)
        return st;

    st = sum_per_key(&r);
    if (st == GP_OK) {
        drop_empty_keys(&r);
        if (r.n_series == 0) {
            gp_error_set(err, trace_source(trace), 0, 0, "", "%s",
                         "no demand (all instances 0) before the "
                         "forecast start: nothing to forecast");
            st = GP_ERR_INPUT;
        } else {
            st = make_series(&r);
        }
    }
    if (st == GP_ERR_NOMEM)
        gp_error_set(err, "", 0, 0, "", "out of memory while forecasting");
    if (st == GP_OK) {
        note_history(&r);
        note_growth(&r);
        st = run_workers(&r, err);
    }
    if (st == GP_OK) {
        note_late_series(&r);
        note_exact_series(&r);
    }
    trace_run_free(&r);
    if (st != GP_OK) {
        gp_forecast_free(r.fc);
        return st;
    }
    *out = r.fc;
    return GP_OK;
}

/* Frees the forecast, its series' points and its notes. */
void gp_forecast_free(gp_forecast *f)
{
    if (!f)
        return;
    for (size_t i = 0; i < f->n_series; i++)
        gp_forecast_series_clear(&f->series[i]);
    gp_free(f->series);
    gp_warnings_clear(&f->notes);
    gp_free(f);
}

/* ---- the forecast as a trace ------------------------------------------ */

/* One quantile of the forecast as a trace (pools borrowed). */
gp_status gp_forecast_trace(const gp_forecast *f, const gp_trace *history,
                            gp_forecast_quantile q, gp_trace **out,
                            gp_error *err)
{
    gp_trace *t = gp_calloc(1, sizeof *t);
    *out = NULL;
    if (!t)
        goto nomem;
    t->start_hour = f->start_hour;
    t->n_hours = f->n_hours;
    t->pools = history->pools;
    t->n_pools = history->n_pools;
    t->series = gp_calloc(f->n_series + 1, sizeof *t->series);
    if (!t->series)
        goto nomem;
    for (size_t i = 0; i < f->n_series; i++) {
        const gp_forecast_series *fs = &f->series[i];
        gp_series *s = &t->series[i];
        t->n_series++;
        s->pool = fs->pool;
        s->workload = fs->workload;
        s->team = s->project = -1;
        s->interruptible = fs->workload == GP_TRAINING;
        s->instance_hours = gp_calloc(f->n_hours + 1, sizeof(double));
        s->useful_gpu_hours = gp_calloc(f->n_hours + 1, sizeof(double));
        s->util_gpu_hours = gp_calloc(f->n_hours + 1, sizeof(double));
        if (!s->instance_hours || !s->useful_gpu_hours || !s->util_gpu_hours)
            goto nomem;
        /* the history's useful and utilized GPU-hours per instance-hour */
        double ih = 0, useful = 0, util = 0;
        for (size_t j = 0; j < history->n_series; j++) {
            const gp_series *hs = &history->series[j];
            if (hs->pool != fs->pool || hs->workload != fs->workload)
                continue;
            for (size_t h = 0; h < history->n_hours; h++) {
                ih += hs->instance_hours[h];
                useful += hs->useful_gpu_hours[h];
                util += hs->util_gpu_hours[h];
            }
        }
        double r_useful = ih > 0 ? useful / ih : 0;
        double r_util = ih > 0 ? util / ih : 0;
        for (size_t k = 0; k < f->n_hours; k++) {
            const gp_forecast_point *p = &fs->points[k];
            double v =
                q == GP_FC_P10 ? p->p10 : (q == GP_FC_P50 ? p->p50 : p->p90);
            if (v > GP_TRACE_MAX_ROW_INSTANCES) {
                /* a growth compounded for years: nothing to plan for, and
                 * past what the optimizer's counts are made for */
                const gp_pool *pool = &history->pools[fs->pool];
                char when[32];
                gp_format_time((f->start_hour + (int64_t)k) * 3600, when,
                               sizeof when);
                gp_error_set(err, "", 0, 0, "",
                             "the forecast of %s %s %s (%s) reaches %.3g "
                             "instances in an hour (%s at %s), more than "
                             "the %.0f a trace row may hold: plan a shorter "
                             "time ahead or give a lower growth",
                             pool->catalog->provider, pool->catalog->region,
                             pool->type->name, gp_workload_name(fs->workload),
                             v,
                             q == GP_FC_P10   ? "P10"
                             : q == GP_FC_P50 ? "P50"
                                              : "P90",
                             when, GP_TRACE_MAX_ROW_INSTANCES);
                gp_forecast_trace_free(t);
                return GP_ERR_INPUT;
            }
            s->instance_hours[k] = v;
            s->useful_gpu_hours[k] = v * r_useful;
            s->util_gpu_hours[k] = v * r_util;
            t->instance_hours[fs->workload] += v;
            t->useful_gpu_hours += v * r_useful;
        }
    }
    *out = t;
    return GP_OK;
nomem:
    gp_forecast_trace_free(t);
    gp_error_set(err, "", 0, 0, "", "out of memory while forecasting");
    return GP_ERR_NOMEM;
}

/* Frees what gp_forecast_trace allocated, not the borrowed pools. */
void gp_forecast_trace_free(gp_trace *t)
{
    if (!t)
        return;
    for (size_t i = 0; t->series && i < t->n_series; i++) {
        gp_free(t->series[i].instance_hours);
        gp_free(t->series[i].useful_gpu_hours);
        gp_free(t->series[i].util_gpu_hours);
    }
    gp_free(t->series);
    gp_free(t);
}
