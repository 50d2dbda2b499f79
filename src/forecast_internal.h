/*
 * forecast_internal.h: what the forecaster's files share (not a public
 * header).  forecast_methods.c holds the candidate methods,
 * forecast_stats.c the statistics, forecast_interval.c the interval and
 * the long-lead drift, forecast_series.c one series' backtest and choice,
 * forecast.c every series of a trace.  See docs/design/forecast.md.
 */
#ifndef GP_FORECAST_INTERNAL_H
#define GP_FORECAST_INTERNAL_H

#include "forecast.h"

#define DAY 24
#define WEEK 168
#define MAX_ORIGINS 12
#define SHORT_TRAIN (3 * DAY) /* least history of a calibration origin */
#define REG_WINDOW (4 * WEEK) /* hours the regression is fitted on */
#define HW_WINDOW (12 * WEEK) /* hours Holt-Winters runs over */
/* the slot after j in a season of m slots: the hot loops keep t % m this
 * way rather than dividing at every hour */
#define NEXT_SLOT(j, m) ((j) + 1 == (m) ? 0 : (j) + 1)

/* ---- the candidates (forecast_methods.c) -------------------------------- */

/* A method with its parameters: the level's window in hours, or
 * Holt-Winters' level smoothing alpha (param); for the seasonal median
 * the period (hours), how many periods back, and the window (hours) of the
 * level it is moved to (0: not moved). */
typedef struct candidate {
    gp_forecast_method method;
    double param;
    size_t period, periods, relevel;
} candidate;

#define N_CANDIDATES 21
#define NAIVE_WEEK_CANDIDATE 1
#define NAIVE_DAY_CANDIDATE 0
#define LAST_CANDIDATE 16 /* the last hour, flat: persistence */

/* Every candidate, in the order they are tried (N_CANDIDATES of them). */
extern const candidate gp_fc_candidates[N_CANDIDATES];

/* Forecasts h hours from history y[0, origin) with candidate c. */
gp_status gp_fc_candidate(const candidate *c, const double *y, size_t origin,
                          int64_t first_hour, size_t h, double *out);

/* The smoothing candidates (forecast_smooth.c): h hours from history
 * y[0, origin) with each of the n_m methods ms (GP_FC_SES, GP_FC_DRIFT,
 * GP_FC_THETA or GP_FC_DAMPED), method i into out + i h, sharing one
 * season and one SES fit. */
gp_status gp_fc_smooth(const gp_forecast_method *ms, size_t n_m,
                       const double *y, size_t origin, size_t h, double *out);

/* Forecasts h hours from history y[0, origin) with the n candidates cs,
 * candidate i into out + i h; the smoothing candidates among them are
 * fitted together (gp_fc_smooth). */
gp_status gp_fc_candidates_run(const size_t *cs, size_t n, const double *y,
                               size_t origin, int64_t first_hour, size_t h,
                               double *out);

/* The forecast chosen: the mean (or the median) of the forecasts of n
 * candidates; one candidate alone when n == 1. */
#define MAX_MEMBERS N_CANDIDATES
typedef struct fc_choice {
    bool median;
    size_t n;
    size_t members[MAX_MEMBERS];
} fc_choice;

/* The chosen forecast from history y[0, origin), h hours (f2: scratch
 * for h doubles). */
gp_status gp_fc_chosen(const fc_choice *ch, const double *y, size_t origin,
                       int64_t first_hour, size_t h, double *f, double *f2);

/* ---- statistics (forecast_stats.c) -------------------------------------- */

/* Mean absolute errors at or under this share of a series' mean demand are
 * rounding, not error, and count as exact: hourly sums of the same demand
 * spread from samples that straddle hours (a 7- or 11-minute step) differ
 * by a few 1e-16, and an exact forecast scored against such a baseline got
 * a ratio of noise (1.21, or 1.3e8 for the regression's 5e-8). */
#define EXACT_SHARE 1e-9

/* The q-quantile of x[0, n) (type 7), found by selection: reorders x. */
double gp_fc_quantile(double *x, size_t n, double q);

/* The median of the few values x[0, n) (insertion sort: reorders x). */
double gp_fc_median_small(double *x, size_t n);

/* The median network's comparators (pairs of wires 0..20). */
extern const unsigned char gp_fc_median_net[2 * 91];

/* out[k] = the median over i < n (n <= MAX_MEMBERS) of
 * base[idx[i] * stride + k], k < len: bit for bit gp_fc_median_small's. */
void gp_fc_median_columns(const double *base, size_t stride,
                          const size_t *idx, size_t n, size_t len,
                          double *out);

/* The MASE scale of a history y[0, n), its season (hours) in *season. */
double gp_fc_mase_scale(const double *y, size_t n, int *season);

/* An error ratio a / b for a series whose mean demand is `scale`. */
double gp_fc_ratio(double a, double b, double scale);

/* The burst profile of y[0, n) into s->burst_*. */
void gp_fc_burst_profile(const double *y, size_t n, gp_forecast_series *s);

/* The interval's quantiles and the median of demand y[0, n) in q[0..2]. */
gp_status gp_fc_demand_quantiles(const double *y, size_t n, double interval,
                                 double q[3]);

/* ---- the interval (forecast_interval.c) --------------------------------- */

/* The residual quantiles that make the interval: by lead band (the first
 * day, the rest), plus how fast the spread grows with lead. */
typedef struct interval_model {
    double lo[2], hi[2];
    double growth_exp; /* spread ~ lead^growth_exp beyond the backtest */
    size_t hb;
    /* the level's motion over weeks: |change| ~ level_move x weeks^level_exp
     * (level_at_hb: its square at lead hb) */
    double level_move, level_exp, level_at_hb;
} interval_model;

/* Puts the interval around the point forecast f at lead k (0-based). */
void gp_fc_interval_apply(const interval_model *im, size_t k, double f,
                          double scale, gp_forecast_point *pt);

/* The interval from the backtest residuals rb[origin][lead] of n_cal
 * origins, calibrated out of sample; returns the scale it was given. */
double gp_fc_interval_calibrate(const double *rb, size_t n_cal, size_t hb,
                                double interval, double *band, double *need,
                                interval_model *im, double *coverage);

/* How the level moves from week to week over the history's last weeks. */
void gp_fc_level_motion(const double *y, size_t n, double slope, double *move,
                        double *exponent);

/* The chosen forecast's long runs (gp_fc_run): a run asked for again
 * with the same origin and length is copied, not made again. */
#define MAX_RUNS 8
typedef struct fc_runs {
    const fc_choice *ch;
    size_t n, origin[MAX_RUNS], len[MAX_RUNS];
    double *f[MAX_RUNS];
} fc_runs;

/* The chosen forecast from history y[0, origin), len hours, into f (f2:
 * scratch of len doubles), kept in runs for the next ask. */
gp_status gp_fc_run(fc_runs *runs, const double *y, size_t origin,
                    int64_t first_hour, size_t len, double *f, double *f2);

/* Frees the runs kept (runs->ch is the caller's). */
void gp_fc_runs_free(fc_runs *runs);

/* How fast the chosen forecast's error grows with lead beyond hb. */
gp_status gp_fc_long_lead_growth(fc_runs *runs,
                                 const double *y, size_t n, int64_t first_hour,
                                 size_t hb, size_t horizon, double drift,
                                 double *f, double *f2, double *exponent);

/* The drift the chosen forecast misses over long runs of the history. */
gp_status gp_fc_long_lead_drift(fc_runs *runs,
                                const double *y, size_t n, int64_t first_hour,
                                size_t hb, size_t horizon, double *f,
                                double *f2, double *drift);

#endif
