/*
 * forecast.h: hourly demand forecasts with P10/P50/P90 intervals, per pool
 * and workload (SPEC section 5, forecast; issue #5).  Each series is
 * forecast by several methods (gp_forecast_method) and their variants, the
 * forecast is their median, its interval comes from the backtest's
 * residuals, and the scenario's monthly growth is applied on top.  How,
 * and why: docs/design/forecast.md.
 *
 * All results are owned by the gp_forecast and freed by gp_forecast_free.
 */
#ifndef GP_FORECAST_H
#define GP_FORECAST_H

#include "gpuplan.h"

#define GP_HOURS_PER_MONTH 730.0 /* 8760 / 12: growth rates are monthly */

/* The forecasting methods, in the order they are tried. */
typedef enum gp_forecast_method {
    GP_FC_NAIVE_DAY = 0,    /* "naive-24h" */
    GP_FC_NAIVE_WEEK = 1,   /* "naive-168h" */
    GP_FC_REGRESSION = 2,   /* "regression" */
    GP_FC_HOLT_WINTERS = 3, /* "holt-winters" */
    GP_FC_LEVEL = 4,        /* "level" (burst model) */
    GP_FC_COMBINATION = 5,  /* "combination": the median of every
                               candidate (#35) */
    GP_FC_SEASONAL = 6,     /* "seasonal-median": the same hour's median
                               over the last k days or weeks */
    GP_FC_SES = 7,          /* "exp-smoothing": simple exponential
                               smoothing, its rate fitted */
    GP_FC_DRIFT = 8,        /* "drift": random walk with drift */
    GP_FC_THETA = 9,        /* "theta": SES plus half the linear trend */
    GP_FC_DAMPED = 10       /* "damped-trend": exponential smoothing with
                               a damped trend, kept by AICc */
} gp_forecast_method;
#define GP_FC_N_METHODS 11

/* The method's name as reports print it ("naive-168h", ...). */
const char *gp_forecast_method_name(gp_forecast_method m);

/* One forecast hour: clock hour start t (epoch seconds) and the quantiles
 * of instance-hours demanded in it. */
typedef struct gp_forecast_point {
    int64_t t;
    double p10, p50, p90;
} gp_forecast_point;

/* How well a method did on held-out data.  Ratios are NAN when undefined
 * (a naive forecast with zero error, an all-zero actual for MAPE). */
typedef struct gp_forecast_accuracy {
    double mae;              /* mean absolute error, instance-hours */
    double relative_mae;     /* mae / mae of the last week repeated */
    double relative_mae_day; /* mae / mae of the last day repeated */
    /* mae / the in-sample MAE of the seasonal naive with period
     * mase_season (hours) over the series' history: 168 (the last week
     * repeated) when the history is over two weeks (337 hours or more),
     * else 24 (the last day repeated); 0 for a history of a day or
     * less, which has no scale */
    double mase;
    int mase_season;
    double mape;      /* mean |error| / actual over hours with actual > 0, % */
    double coverage;  /* fraction of points inside [p10, p90] */
    size_t n_points;  /* hours compared */
    size_t n_origins; /* forecast origins (1 for a hold-out) */
} gp_forecast_accuracy;

/* The forecast of one pool's demand for one workload. */
typedef struct gp_forecast_series {
    uint32_t pool; /* index into the trace's pools */
    gp_workload workload;
    gp_forecast_method method; /* the one chosen */
    /* the first two methods of the combination (both = method otherwise) */
    gp_forecast_method combined[2];
    bool bursty; /* looked like bursts (many idle hours) */
    /* the rolling-origin backtest of the chosen method on the history */
    gp_forecast_accuracy backtest;
    /* every method's backtest relative MAE (NAN when not tried) */
    double method_relative_mae[GP_FC_N_METHODS];
    /* with options.train_until inside the trace: the forecast scored
     * against what really happened after it (has_holdout is then true) */
    bool has_holdout;
    gp_forecast_accuracy holdout;
    double holdout_naive_week_mae, holdout_naive_day_mae;
    /* the hours of history the series was fitted on: from its first hour
     * with demand (a pool or workload that appeared after the trace
     * began), to the forecast start */
    size_t history_hours;
    /* seconds: where the series' rows start when that is part-way
     * through its first hour with demand, after the trace's first hour (a
     * new pool's first job at 10:30), which is then left out of its
     * history as the trace's would be (gp_forecast.partial_start_s); 0
     * otherwise */
    double partial_start_s;
    double history_mean; /* mean hourly demand over the history used */
    /* the burst profile of the history: fraction of hours with demand,
     * mean demand in those hours, mean length of a run of them (hours) */
    double burst_duty, burst_size, burst_hours;
    int level_window; /* level method: hours its median is over */
    /* the factor the backtest's residual quantiles were scaled by so that
     * the nominal share of backtest hours falls inside out of sample
     * (0.75..3; 1 without a backtest of two origins or more) */
    double interval_scale;
    /* growth (negative: decline) the chosen method missed over long runs
     * of the history and that is added to its forecast: demand per hour
     * relative to the last week's mean (0 when the runs disagree, the
     * horizon is under two weeks or the history under eight weeks) */
    double drift;
    gp_forecast_point *points; /* n_hours of them, from the horizon start */
    /* seasonal-median (alone or in the combination): the period (24 or
     * 168 hours), how many periods its median is over, and the window of
     * the level it was moved to (hours; 0 = not moved); all 0 otherwise */
    int seasonal_period, seasonal_periods, seasonal_level_hours;
} gp_forecast_series;

typedef struct gp_forecast {
    int64_t start_hour; /* first forecast clock hour (seconds / 3600) */
    size_t n_hours;     /* horizon length */
    int64_t history_start_hour;
    size_t history_hours; /* hours of history the forecasts were fitted on */
    /* seconds: where the trace ends when that is part-way through its last
     * hour, which is then left out (of the history, or of the hold-out's
     * score); 0 when the trace ends on a whole hour */
    double partial_end_s;
    /* seconds: where the trace starts when that is part-way through its
     * first hour, which is then left out of the history; 0 when the trace
     * starts on a whole hour */
    double partial_start_s;
    gp_forecast_series *series;
    size_t n_series;
    gp_warnings notes; /* short history, methods skipped, ... */
} gp_forecast;

typedef struct gp_forecast_options {
    /* seconds; 0 = forecast from the end of the trace.  Otherwise only the
     * history before this time is used, the forecast starts there and the
     * part of it the trace covers is scored (holdout). */
    int64_t train_until;
    /* force one method for every series; < 0 = choose by backtest */
    int method;
    /* the interval's nominal coverage, default 0.8 (P10..P90) */
    double interval;
    /* 0 = one thread per core, 1 = single-threaded */
    int threads;
    gp_progress progress; /* the "forecast" stage, series by series */
} gp_forecast_options;

/* Fills o with the defaults. */
void gp_forecast_options_init(gp_forecast_options *o);

/*
 * Forecasts every (pool, workload) series of the trace that has demand,
 * over horizon_hours hours from the end of the trace's last whole hour (or
 * from opt->train_until), applying s->growth when s is not NULL.  A trace
 * whose last row ends part-way through an hour (trace->end_s), or whose
 * first row starts part-way through one (trace->start_s), has that hour
 * left out, with a note: partly covered, it would read as a dip.  So has a
 * series whose rows start part-way through its first hour with demand
 * (gp_series.start_s), from its own history, unless that hour holds
 * all of the demand in it.  opt may
 * be NULL for the defaults.  On success *out is a new forecast for the caller
 * to free; on failure *out is NULL and err says why.
 */
gp_status gp_forecast_run(const gp_trace *trace, const gp_scenario *s,
                          size_t horizon_hours, const gp_forecast_options *opt,
                          gp_forecast **out, gp_error *err);

/*
 * Forecasts one hourly series y[0, n) whose first hour is clock hour
 * first_hour, horizon_hours ahead, with monthly growth rate `growth`.
 * Fills *out (its points array is new, freed with
 * gp_forecast_series_clear).  The building block of gp_forecast_run, also
 * used by the tests and the benchmark.
 */
gp_status gp_forecast_series_run(const double *y, size_t n, int64_t first_hour,
                                 size_t horizon_hours, double growth,
                                 const gp_forecast_options *opt,
                                 gp_forecast_series *out, gp_error *err);

/*
 * Scores a forecast series against what happened: actual[0, n_actual) are
 * the hours from its first point on, history[0, n_history) the hours
 * before it (for the naive baselines and the MASE scale).  Fills
 * out->holdout, out->holdout_naive_*_mae and sets out->has_holdout.
 */
void gp_forecast_series_score(gp_forecast_series *out, const double *history,
                              size_t n_history, const double *actual,
                              size_t n_actual);

/* Frees a series' points (the struct itself is the caller's). */
void gp_forecast_series_clear(gp_forecast_series *s);

/* Frees f; f may be NULL. */
void gp_forecast_free(gp_forecast *f);

/* Which forecast quantile a trace is built from. */
typedef enum gp_forecast_quantile {
    GP_FC_P10 = 0,
    GP_FC_P50 = 1,
    GP_FC_P90 = 2
} gp_forecast_quantile;

/*
 * A trace whose demand over the forecast's horizon is one quantile of the
 * forecast (one series per forecast series, unlabelled, interruptible when
 * training; useful and utilized GPU-hours in the history's proportion to
 * instance-hours), so the engine and the recommender can bill the future
 * as they bill the past.  Pools are borrowed from `history`, which must
 * outlive it; free it with gp_forecast_trace_free (not gp_trace_free).
 */
gp_status gp_forecast_trace(const gp_forecast *f, const gp_trace *history,
                            gp_forecast_quantile q, gp_trace **out,
                            gp_error *err);
void gp_forecast_trace_free(gp_trace *t);

/*
 * Accuracy helpers, exposed for the tests.
 * gp_forecast_mase_scale: the in-sample mean absolute error of the
 * seasonal naive forecast with period m over y[0, n) (the MASE
 * denominator, Hyndman and Koehler 2006); NAN when n <= m.
 */
double gp_forecast_mase_scale(const double *y, size_t n, size_t m);

#endif
