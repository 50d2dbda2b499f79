/*
 * forecast.c: hourly demand forecasts per pool and workload, with P10/P50/
 * P90 intervals calibrated on a rolling-origin backtest (see forecast.h).
 *
 * For one series the work is:
 *   1. choose the backtest: a horizon hb (a week at most, shorter when the
 *      history is short) and up to MAX_ORIGINS origins spread over the
 *      history in whole days, the last hb before its end, each with at
 *      least a week (or half the history) before it;
 *   2. forecast hb hours from every origin with every candidate (the
 *      methods and their few variants: level windows, Holt-Winters
 *      smoothing, the seasonal median's period, number of periods and
 *      level) and with the mean of the two best different methods,
 *      keep the residuals, and pick the one with the lowest mean absolute
 *      error;
 *   3. refit it on the whole history and forecast the horizon; for a
 *      horizon of two weeks or more past eight weeks of history, add on
 *      the growth the chosen forecast missed over the history's last three
 *      stretches and over long windows from four origins a week apart,
 *      when it missed it the same way in all seven runs
 *      (long_lead_drift); put the interval around it from the residual
 *      quantiles of the backtest, scaled so that the nominal share of
 *      backtest hours would fall inside out of sample (leave one origin
 *      out), widened for leads beyond hb at the rate the residuals grew
 *      with lead (or, for a horizon of two weeks or more past a history of
 *      six weeks or more, at the rate the chosen forecast's error, drift
 *      added, grows over longer windows, when that is faster), and beyond
 *      hb also by the level's motion over the history's last weeks
 *      (weekly_level_motion, from four weeks of history).  When the
 *      history is too short for whole windows (under a week plus hb plus
 *      two days), the backtest's windows end early and hold short leads
 *      only; the interval is then the wider of theirs and one calibrated
 *      the same way on whole windows from origins with three days of
 *      history or more.  Last, apply the scenario's growth.
 * Series are independent, so gp_forecast_run spreads them over threads.
 */
#include "forecast.h"
#include "util.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_fit.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_sort_double.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define GP_PI 3.14159265358979323846
#define DAY 24
#define WEEK 168
#define MAX_ORIGINS 12
#define SHORT_TRAIN (3 * DAY) /* least history of a calibration origin */
#define REG_WINDOW (4 * WEEK) /* hours the regression is fitted on */
#define HW_WINDOW (12 * WEEK) /* hours Holt-Winters runs over */

/* The method's name as the reports and the JSON print it. */
const char *gp_forecast_method_name(gp_forecast_method m)
{
    static const char *const names[GP_FC_N_METHODS] = {
        "naive-24h", "naive-168h",  "regression",     "holt-winters",
        "level",     "combination", "seasonal-median"};
    return (unsigned)m < GP_FC_N_METHODS ? names[m] : "?";
}

/* Defaults: choose the method by backtest, 80% interval, all cores. */
void gp_forecast_options_init(gp_forecast_options *o)
{
    memset(o, 0, sizeof *o);
    o->method = -1;
    o->interval = 0.8;
}

/* ---- the candidates ------------------------------------------------------ */

/* A method with its parameters: the level's window in hours, or
 * Holt-Winters' level smoothing alpha (param); for the seasonal median
 * the period (hours), how many periods back, and the window (hours) of the
 * level it is moved to (0: not moved). */
typedef struct candidate {
    gp_forecast_method method;
    double param;
    size_t period, periods, relevel;
} candidate;

static const candidate candidates[] = {
    {GP_FC_NAIVE_DAY, 0, 0, 0, 0},
    {GP_FC_NAIVE_WEEK, 0, 0, 0, 0},
    {GP_FC_REGRESSION, 0, 0, 0, 0},
    {GP_FC_HOLT_WINTERS, 0.1, 0, 0, 0},
    {GP_FC_HOLT_WINTERS, 0.5, 0, 0, 0},
    {GP_FC_LEVEL, DAY, 0, 0, 0},
    {GP_FC_LEVEL, 3 * DAY, 0, 0, 0},
    {GP_FC_LEVEL, WEEK, 0, 0, 0},
    /* the seasonal median: period, periods back, level window */
    {GP_FC_SEASONAL, 0, DAY, 7, 0},
    {GP_FC_SEASONAL, 0, DAY, 7, DAY},
    {GP_FC_SEASONAL, 0, DAY, 14, 0},
    {GP_FC_SEASONAL, 0, DAY, 14, DAY},
    {GP_FC_SEASONAL, 0, WEEK, 2, 0},
    {GP_FC_SEASONAL, 0, WEEK, 2, DAY},
    {GP_FC_SEASONAL, 0, WEEK, 4, 0},
    {GP_FC_SEASONAL, 0, WEEK, 4, DAY},
};
#define N_CANDIDATES (sizeof candidates / sizeof candidates[0])
#define NAIVE_WEEK_CANDIDATE 1
#define NAIVE_DAY_CANDIDATE 0

/* The seasonal naive forecast with period m from history y[0, origin):
 * the last m hours repeated (the last value when there are fewer). */
static void forecast_naive(const double *y, size_t origin, size_t m, size_t h,
                           double *out)
{
    if (origin < m) {
        for (size_t k = 0; k < h; k++)
            out[k] = y[origin - 1];
        return;
    }
    for (size_t k = 0; k < h; k++)
        out[k] = y[origin - m + k % m];
}

/* The level: the median of the last `window` hours before origin, flat
 * (the median, because it is the P50 and minimizes absolute error).
 * `scratch` holds at least `window` doubles. */
static void forecast_level(const double *y, size_t origin, size_t window,
                           size_t h, double *scratch, double *out)
{
    size_t w = window < origin ? window : origin;
    memcpy(scratch, y + origin - w, w * sizeof *scratch);
    double level = gsl_stats_median(scratch, 1, w);
    for (size_t k = 0; k < h; k++)
        out[k] = level;
}

/* Sum of damping^j for j = 1..k: how many hours of trend a lead of k hours
 * adds when the trend fades geometrically. */
static double damped_steps(double damping, size_t k)
{
    return damping * (1 - pow(damping, (double)k)) / (1 - damping);
}

/* The regression's harmonics: for each hour of the week, sin and cos of
 * the daily harmonics 1..3 and of the weekly harmonics 1..3, computed once
 * (pthread_once) because the fits would otherwise spend their time in
 * sin and cos. */
static double harmonics[WEEK][12];
static pthread_once_t harmonics_once = PTHREAD_ONCE_INIT;

/* Fills the harmonics table. */
static void harmonics_init(void)
{
    for (size_t hw = 0; hw < WEEK; hw++) {
        double hd = (double)(hw % DAY);
        for (int k = 1; k <= 3; k++) {
            harmonics[hw][2 * k - 2] = sin(2 * GP_PI * k * hd / DAY);
            harmonics[hw][2 * k - 1] = cos(2 * GP_PI * k * hd / DAY);
            harmonics[hw][4 + 2 * k] = sin(2 * GP_PI * k * (double)hw / WEEK);
            harmonics[hw][5 + 2 * k] = cos(2 * GP_PI * k * (double)hw / WEEK);
        }
    }
}

/* Fills one row of the regression's design matrix for clock hour `hour`,
 * t hours from the origin: intercept, trend (per week), daily harmonics
 * 1..3 and, when `weekly`, weekly harmonics 1..3.  Returns the number of
 * columns. */
static size_t design_row(double *row, int64_t hour, double t, bool weekly)
{
    const double *hm = harmonics[((hour % WEEK) + WEEK) % WEEK];
    size_t p = weekly ? 14 : 8;
    row[0] = 1;
    row[1] = t / WEEK;
    for (size_t c = 2; c < p; c++)
        row[c] = hm[c - 2];
    return p;
}

/*
 * Seasonal regression with trend: y = a + b t + daily and weekly Fourier
 * terms, fitted by least squares on the last REG_WINDOW hours before
 * origin, through the normal equations X'X beta = X'y solved by Cholesky
 * (gsl_linalg_cholesky; a tiny ridge keeps X'X positive definite).  The
 * columns are near-orthogonal over whole days and weeks, so the normal
 * equations lose nothing here against an SVD and cost a tenth.  The trend
 * is damped when extrapolated.  Falls back to the daily naive forecast
 * when the fit fails or the window is under two days.
 */
static gp_status forecast_regression(const double *y, size_t origin,
                                     int64_t first_hour, size_t h, double *out)
{
    size_t w = origin < REG_WINDOW ? origin : REG_WINDOW;
    if (w < 2 * DAY) {
        forecast_naive(y, origin, DAY, h, out);
        return GP_OK;
    }
    pthread_once(&harmonics_once, harmonics_init);
    bool weekly = w >= 2 * WEEK;
    double row[16], xtx[14 * 14], xty[14], beta[14];
    size_t p = weekly ? 14 : 8;
    memset(xtx, 0, sizeof xtx);
    memset(xty, 0, sizeof xty);
    size_t start = origin - w;
    for (size_t i = 0; i < w; i++) {
        double t = (double)(start + i) - (double)origin;
        double v = y[start + i];
        design_row(row, first_hour + (int64_t)(start + i), t, weekly);
        for (size_t a = 0; a < p; a++) {
            xty[a] += row[a] * v;
            for (size_t b = a; b < p; b++)
                xtx[a * p + b] += row[a] * row[b];
        }
    }
    for (size_t a = 0; a < p; a++) {
        xtx[a * p + a] *= 1 + 1e-9;
        xtx[a * p + a] += 1e-9;
        for (size_t b = 0; b < a; b++)
            xtx[a * p + b] = xtx[b * p + a];
    }
    gsl_matrix_view A = gsl_matrix_view_array(xtx, p, p);
    gsl_vector_view rhs = gsl_vector_view_array(xty, p);
    gsl_vector_view sol = gsl_vector_view_array(beta, p);
    if (gsl_linalg_cholesky_decomp1(&A.matrix) != GSL_SUCCESS ||
        gsl_linalg_cholesky_solve(&A.matrix, &rhs.vector, &sol.vector) !=
            GSL_SUCCESS) {
        forecast_naive(y, origin, DAY, h, out);
        return GP_OK;
    }
    double b1 = beta[1];
    for (size_t k = 0; k < h; k++) {
        design_row(row, first_hour + (int64_t)(origin + k), 0, weekly);
        double f = 0;
        for (size_t c = 0; c < p; c++)
            f += row[c] * beta[c];
        /* the trend at the origin, then damped by 1 - 1/w an hour: it is
         * carried on for about as long as it was fitted on (w - 1 hours'
         * worth in all), then levels off */
        f += b1 * damped_steps(1 - 1.0 / (double)w, k + 1) / WEEK;
        out[k] = f > 0 ? f : 0;
    }
    return GP_OK;
}

/*
 * Additive Holt-Winters with a damped trend and a weekly season (daily
 * when the history holds under two weeks), run over the last HW_WINDOW
 * hours before origin.  alpha smooths the level; the trend and season use
 * beta = 0.01, gamma = 0.1, damping 0.98.
 */
static gp_status forecast_holt_winters(const double *y, size_t origin,
                                       double alpha, size_t h, double *out)
{
    const double beta = 0.01, gamma = 0.1, phi = 0.98;
    size_t m = origin >= 2 * WEEK ? WEEK : DAY;
    if (origin < 2 * m) {
        forecast_naive(y, origin, DAY, h, out);
        return GP_OK;
    }
    size_t w = origin < HW_WINDOW ? origin : HW_WINDOW;
    w -= w % m; /* whole seasons, so the season index is i % m */
    size_t start = origin - w;
    double *season = gp_malloc(m * sizeof *season);
    if (!season)
        return GP_ERR_NOMEM;
    /* the season starts as each slot's median deviation from its
     * period's mean over all the window's periods (robust to an outage in
     * one of them), the level as the first period's mean */
    size_t periods = w / m;
    double *pm = gp_malloc(2 * periods * sizeof *pm), *dev = pm + periods;
    if (!pm) {
        gp_free(season);
        return GP_ERR_NOMEM;
    }
    for (size_t p = 0; p < periods; p++) {
        pm[p] = 0;
        for (size_t i = 0; i < m; i++)
            pm[p] += y[start + p * m + i];
        pm[p] /= (double)m;
    }
    for (size_t i = 0; i < m; i++) {
        for (size_t p = 0; p < periods; p++)
            dev[p] = y[start + p * m + i] - pm[p];
        season[i] = gsl_stats_median(dev, 1, periods);
    }
    double level = pm[0], trend = 0;
    gp_free(pm);
    for (size_t i = m; i < w; i++) {
        double x = y[start + i];
        size_t si = i % m;
        double prev = level;
        level = alpha * (x - season[si]) + (1 - alpha) * (prev + phi * trend);
        trend = beta * (level - prev) + (1 - beta) * phi * trend;
        season[si] = gamma * (x - level) + (1 - gamma) * season[si];
        if (si == m - 1) {
            /* keep the season centred so it cannot drift against the
             * level (the renormalization of Archibald and Koehler) */
            double mean = 0;
            for (size_t j = 0; j < m; j++)
                mean += season[j];
            mean /= (double)m;
            for (size_t j = 0; j < m; j++)
                season[j] -= mean;
            level += mean;
        }
    }
    for (size_t k = 0; k < h; k++) {
        double f =
            level + trend * damped_steps(phi, k + 1) + season[(w + k) % m];
        out[k] = f > 0 ? f : 0;
    }
    gp_free(season);
    return GP_OK;
}

/*
 * The seasonal median: the forecast for an hour is the median of the same
 * hour (of the day or of the week: `period`) over the last `periods`
 * periods before origin.  With relevel > 0 the profile is instead each
 * period's deviation from its own mean (the median of those deviations
 * per hour), added to the recent level: the median of the last `relevel`
 * hours with the profile taken out.  Repeating one period (naive) carries
 * all of its noise into the forecast; the median over k of them keeps the
 * shape and leaves out most of the noise, and a spike or an outage in one
 * of them.  Falls back to the fewer periods the history holds, and to the
 * daily naive forecast under one.  `scratch` holds 2 x periods + period +
 * relevel doubles.
 */
static void forecast_seasonal(const double *y, size_t origin, size_t period,
                              size_t periods, size_t relevel, size_t h,
                              double *scratch, double *out)
{
    size_t k = origin / period < periods ? origin / period : periods;
    if (k == 0) {
        forecast_naive(y, origin, origin >= DAY ? DAY : 1, h, out);
        return;
    }
    double *means = scratch, *col = means + k, *profile = col + k;
    double *dev = profile + period;
    for (size_t p = 0; p < k; p++) {
        const double *b = y + origin - (p + 1) * period;
        double sum = 0;
        for (size_t j = 0; j < period; j++)
            sum += b[j];
        means[p] = relevel ? sum / (double)period : 0;
    }
    for (size_t j = 0; j < period; j++) {
        for (size_t p = 0; p < k; p++)
            col[p] = y[origin - (p + 1) * period + j] - means[p];
        gsl_sort(col, 1, k);
        profile[j] = gsl_stats_median_from_sorted_data(col, 1, k);
    }
    double level = 0;
    if (relevel) {
        size_t w = relevel < origin ? relevel : origin;
        for (size_t i = 0; i < w; i++) {
            size_t t = origin - w + i;
            dev[i] = y[t] - profile[(period - (origin - t) % period) % period];
        }
        gsl_sort(dev, 1, w);
        level = gsl_stats_median_from_sorted_data(dev, 1, w);
    }
    for (size_t i = 0; i < h; i++) {
        double f = level + profile[i % period];
        out[i] = f > 0 ? f : 0;
    }
}

/* Forecasts h hours from history y[0, origin) with candidate c. */
static gp_status forecast_candidate(const candidate *c, const double *y,
                                    size_t origin, int64_t first_hour, size_t h,
                                    double *out)
{
    switch (c->method) {
    case GP_FC_NAIVE_DAY:
        forecast_naive(y, origin, DAY, h, out);
        return GP_OK;
    case GP_FC_NAIVE_WEEK:
        forecast_naive(y, origin, origin >= WEEK ? WEEK : DAY, h, out);
        return GP_OK;
    case GP_FC_REGRESSION:
        return forecast_regression(y, origin, first_hour, h, out);
    case GP_FC_HOLT_WINTERS:
        return forecast_holt_winters(y, origin, c->param, h, out);
    case GP_FC_COMBINATION: /* not a candidate: made from two of them */
        break;
    case GP_FC_SEASONAL: {
        size_t need = 2 * c->periods + c->period + c->relevel;
        double *scratch = gp_malloc(need * sizeof *scratch);
        if (!scratch)
            return GP_ERR_NOMEM;
        forecast_seasonal(y, origin, c->period, c->periods, c->relevel, h,
                          scratch, out);
        gp_free(scratch);
        return GP_OK;
    }
    case GP_FC_LEVEL: {
        double *scratch = gp_malloc((size_t)c->param * sizeof *scratch);
        if (!scratch)
            return GP_ERR_NOMEM;
        forecast_level(y, origin, (size_t)c->param, h, scratch, out);
        gp_free(scratch);
        return GP_OK;
    }
    }
    return GP_OK;
}

/* The chosen forecast from history y[0, origin), h hours: candidate
 * `best`, or with best == N_CANDIDATES the combination, the mean of
 * candidates pair[0] and pair[1] (f2: scratch for h doubles). */
static gp_status forecast_chosen(size_t best, const size_t pair[2],
                                 const double *y, size_t origin,
                                 int64_t first_hour, size_t h, double *f,
                                 double *f2)
{
    if (best != N_CANDIDATES)
        return forecast_candidate(&candidates[best], y, origin, first_hour, h,
                                  f);
    gp_status st =
        forecast_candidate(&candidates[pair[0]], y, origin, first_hour, h, f);
    if (st == GP_OK)
        st = forecast_candidate(&candidates[pair[1]], y, origin, first_hour, h,
                                f2);
    for (size_t k = 0; st == GP_OK && k < h; k++)
        f[k] = (f[k] + f2[k]) / 2;
    return st;
}

/* ---- statistics ------------------------------------------------------------
 */

/* The q-quantile of x[0, n) (linear interpolation between order
 * statistics, Hyndman and Fan type 7, as R's default), found by selection
 * (gsl_stats_select), which reorders x. */
static double quantile_select(double *x, size_t n, double q)
{
    if (n == 0)
        return 0;
    double pos = q * (double)(n - 1);
    size_t i = (size_t)pos;
    double lo = gsl_stats_select(x, 1, n, i);
    if (i + 1 >= n)
        return lo;
    double hi = x[i + 1]; /* after the selection, x[i+1..] are >= lo */
    for (size_t j = i + 2; j < n; j++)
        if (x[j] < hi)
            hi = x[j];
    if (hi == lo) /* also when both are infinite: inf - inf is NAN */
        return lo;
    return lo + (pos - (double)i) * (hi - lo);
}

/* The MASE denominator: mean |y[i] - y[i - m]| over the sample. */
double gp_forecast_mase_scale(const double *y, size_t n, size_t m)
{
    if (m == 0 || n <= m)
        return NAN;
    double sum = 0;
    for (size_t i = m; i < n; i++)
        sum += fabs(y[i] - y[i - m]);
    return sum / (double)(n - m);
}

/* The MASE scale of a history: the one-week seasonal naive's in-sample
 * MAE when the history is over two weeks (337 hours or more: two weeks
 * give only one week of its errors), the one-day one's otherwise; the
 * period used goes in *season (0 for a day or less: no scale). */
static double mase_scale(const double *y, size_t n, int *season)
{
    *season = n > 2 * WEEK ? WEEK : (n > DAY ? DAY : 0);
    return *season ? gp_forecast_mase_scale(y, n, (size_t)*season) : NAN;
}

/* Mean absolute errors at or under this share of a series' mean demand are
 * rounding, not error, and count as exact: hourly sums of the same demand
 * spread from samples that straddle hours (a 7- or 11-minute step) differ
 * by a few 1e-16, and an exact forecast scored against such a baseline got
 * a ratio of noise (1.21, or 1.3e8 for the regression's 5e-8). */
#define EXACT_SHARE 1e-9

/* An error ratio a / b (relative MAE, MASE) for a series whose mean demand
 * is `scale`: NAN when b is exact (there is no error to beat, as when b is
 * 0), 0 when a is exact and b is not, a / b otherwise. */
static double ratio(double a, double b, double scale)
{
    double tol = EXACT_SHARE * scale;
    if (!(b > tol))
        return NAN;
    return a <= tol ? 0 : a / b;
}

/* The burst profile of y[0, n): fraction of hours with demand, mean demand
 * in them, mean length of a run of such hours. */
static void burst_profile(const double *y, size_t n, gp_forecast_series *s)
{
    size_t active = 0, runs = 0;
    double sum = 0;
    for (size_t i = 0; i < n; i++) {
        if (y[i] > 1e-9) {
            active++;
            sum += y[i];
            if (i == 0 || y[i - 1] <= 1e-9)
                runs++;
        }
    }
    s->burst_duty = n ? (double)active / (double)n : 0;
    s->burst_size = active ? sum / (double)active : 0;
    s->burst_hours = runs ? (double)active / (double)runs : 0;
}

/* The quantiles (1 - interval) / 2, 1/2 and 1 - (1 - interval) / 2 of
 * demand y[0, n) in q[0..2]. */
static gp_status demand_quantiles(const double *y, size_t n, double interval,
                                  double q[3])
{
    double *sorted = gp_malloc(n * sizeof *sorted);
    if (!sorted)
        return GP_ERR_NOMEM;
    memcpy(sorted, y, n * sizeof *sorted);
    q[0] = quantile_select(sorted, n, (1 - interval) / 2);
    q[1] = quantile_select(sorted, n, 0.5);
    q[2] = quantile_select(sorted, n, 1 - (1 - interval) / 2);
    gp_free(sorted);
    return GP_OK;
}

/* ---- one series -------------------------------------------------------- */

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

/* The exponent b of spread ~ lead^b between two lead bands, from their
 * mean absolute errors s0, s1 and mean leads l0 < l1: 0 when the error
 * does not grow, at most `cap` (0.5 for an error's spread, as a random
 * walk's grows as sqrt; 1 for a level's motion, as a trend's). */
static double growth_exponent(double s0, double l0, double s1, double l1,
                              double cap)
{
    if (!(s0 > 0 && s1 > s0 && l1 > l0))
        return 0;
    double b = log(s1 / s0) / log(l1 / l0);
    return b > cap ? cap : b;
}

/* Builds the interval model from residuals res[origin][lead] (n_origins x
 * hb, NAN where an origin's window was shorter), for nominal coverage
 * `interval`, leaving out origin `skip` (none when skip >= n_origins).
 * `band` is scratch for n_origins x hb doubles. */
static void interval_from_residuals(const double *res, size_t n_origins,
                                    size_t hb, size_t skip, double interval,
                                    double *band, interval_model *im)
{
    double qlo = (1 - interval) / 2, qhi = 1 - qlo;
    double spread[2] = {0, 0}, mean_lead[2] = {0, 0};
    im->hb = hb;
    for (int b = 0; b < 2; b++) {
        size_t from = b == 0 ? 0 : (hb > DAY ? DAY : 0);
        size_t to = b == 0 ? (hb < DAY ? hb : DAY) : hb;
        size_t cnt = 0;
        double abs_sum = 0, lead_sum = 0;
        for (size_t o = 0; o < n_origins; o++)
            for (size_t k = from; k < to && o != skip; k++) {
                double r = res[o * hb + k];
                if (isnan(r))
                    continue;
                band[cnt++] = r;
                abs_sum += fabs(r);
                lead_sum += (double)(k + 1);
            }
        if (cnt == 0 && b == 1) { /* no long leads: the first day's */
            im->lo[1] = im->lo[0];
            im->hi[1] = im->hi[0];
            spread[1] = spread[0];
            mean_lead[1] = mean_lead[0];
            continue;
        }
        im->lo[b] = quantile_select(band, cnt, qlo);
        im->hi[b] = quantile_select(band, cnt, qhi);
        spread[b] = cnt ? abs_sum / (double)cnt : 0;
        mean_lead[b] = cnt ? lead_sum / (double)cnt : 1;
    }
    im->growth_exp =
        growth_exponent(spread[0], mean_lead[0], spread[1], mean_lead[1], 0.5);
}

/* Puts the interval around the point forecast f at lead k (0-based). */
static void interval_apply(const interval_model *im, size_t k, double f,
                           double scale, gp_forecast_point *pt)
{
    int b = k < DAY ? 0 : 1;
    double widen = 1;
    if (k >= im->hb && im->hb > 0)
        widen = pow((double)(k + 1) / (double)im->hb, im->growth_exp);
    double lo = im->lo[b] * widen, hi = im->hi[b] * widen;
    if (k >= im->hb && im->level_move > 0) {
        /* the level's motion past what the backtest's window held, added
         * in quadrature: (level_move x weeks^level_exp)^2 at lead k less
         * the same at hb */
        double extra = im->level_move * im->level_move *
                           pow((double)(k + 1) / WEEK, 2 * im->level_exp) -
                       im->level_at_hb;
        if (extra > 0) {
            lo -= sqrt(lo * lo + extra) - fabs(lo);
            hi += sqrt(hi * hi + extra) - fabs(hi);
        }
    }
    lo += f;
    hi += f;
    pt->p50 = (f > 0 ? f : 0) * scale;
    pt->p10 = (lo > 0 ? lo : 0) * scale;
    pt->p90 = (hi > 0 ? hi : 0) * scale;
    if (pt->p10 > pt->p50)
        pt->p10 = pt->p50;
    if (pt->p90 < pt->p50)
        pt->p90 = pt->p50;
}

/* The interval from the residuals rb[origin][lead] of n_cal origins
 * (NAN past the end of a window cut short), scaled so that, out of sample, the
 * nominal share of their hours falls inside; stores the model in *im and the
 * coverage of the unscaled intervals (each origin against the others') in
 * *coverage; returns the scale.  band and need hold n_cal x hb doubles. */
static double calibrate_interval(const double *rb, size_t n_cal, size_t hb,
                                 double interval, double *band, double *need,
                                 interval_model *im, double *coverage)
{
    /* coverage out of sample: each origin's hours against the interval
     * built from the other origins' residuals */
    size_t inside = 0, n_need = 0;
    for (size_t o = 0; o < n_cal; o++) {
        interval_from_residuals(rb, n_cal, hb, n_cal > 1 ? o : n_cal, interval,
                                band, im);
        for (size_t k = 0; k < hb; k++) {
            int b = k < DAY ? 0 : 1;
            double r = rb[o * hb + k];
            if (isnan(r))
                continue;
            if (r >= im->lo[b] - 1e-9 && r <= im->hi[b] + 1e-9)
                inside++;
            /* the least scale of the interval that holds r */
            double up = r > 0 ? (im->hi[b] > 0 ? r / im->hi[b] : HUGE_VAL) : 0;
            double dn = r < 0 ? (im->lo[b] < 0 ? r / im->lo[b] : HUGE_VAL) : 0;
            need[n_need++] = up > dn ? up : dn;
        }
    }
    *coverage = n_need ? (double)inside / (double)n_need : NAN;
    /* scale the interval so that the nominal share of the hours falls
     * inside; within [0.75, 3] so that a short backtest cannot collapse or
     * explode it.  The hours of one origin fall in or out together, so the
     * sample is nearer n_cal than n_need: the quantile taken is moved from
     * the nominal q towards 1 by (1 - q) / n_cal (a finite-sample
     * correction in the spirit of split conformal prediction's
     * ceil((n + 1) q) / n), which matters when there are few origins */
    double q_cal = interval + (1 - interval) / (double)n_cal;
    double scale = n_cal > 1 ? quantile_select(need, n_need, q_cal) : 1;
    scale = scale < 0.75 ? 0.75 : (scale > 3 ? 3 : scale);
    interval_from_residuals(rb, n_cal, hb, n_cal, interval, band, im);
    for (int b = 0; b < 2; b++) {
        im->lo[b] *= scale;
        im->hi[b] *= scale;
    }
    return scale;
}

/* How the level moves from week to week: the means of the history's last
 * whole weeks (up to LEVEL_WEEKS), less the drift's line (slope per hour),
 * give the mean absolute change over one week (*move) and the exponent b
 * of |m[i + lag] - m[i]| ~ lag^b between lags of one and two weeks
 * (*exponent, at most 1: a trend).  Noise goes no further over two weeks
 * than over one on average (b near 0, though three or four weekly means
 * that happen to line up give more: hence four weeks at least); a level
 * that trends or wanders goes further. */
#define LEVEL_WEEKS 12
static void weekly_level_motion(const double *y, size_t n, double slope,
                                double *move, double *exponent)
{
    size_t w = n / WEEK < LEVEL_WEEKS ? n / WEEK : LEVEL_WEEKS;
    double m[LEVEL_WEEKS], d1 = 0, d2 = 0;
    *move = *exponent = 0;
    if (w < 4)
        return;
    for (size_t i = 0; i < w; i++)
        m[i] = gsl_stats_mean(y + n - (w - i) * WEEK, 1, WEEK) -
               slope * (double)(i * WEEK);
    for (size_t i = 0; i + 1 < w; i++)
        d1 += fabs(m[i + 1] - m[i]);
    for (size_t i = 0; i + 2 < w; i++)
        d2 += fabs(m[i + 2] - m[i]);
    *move = d1 / (double)(w - 1);
    *exponent = growth_exponent(*move, 1, d2 / (double)(w - 2), 2, 1.0);
}

/*
 * How fast the chosen forecast's error grows with lead beyond the
 * backtest's window hb, for a horizon longer than it: the chosen forecast
 * is run from up to LONG_ORIGINS origins a week apart, each with four
 * weeks of history or more (the regression's window: shorter fits are
 * worse at every lead, and their trends wander), over the longest window
 * L (2 hb <= L <= horizon) that the history holds after them.  Its mean
 * absolute error at leads past hb against the one at leads DAY..hb of the
 * same runs gives the exponent (growth_exponent).  Returns it, or 0 when
 * there is no room for such a window or the error does not grow.  A trend that
 * carries on, or a level that wanders over weeks, shows here and not in the
 * backtest's week.  f, f2: scratch of L doubles.
 */
#define LONG_ORIGINS 4
static gp_status long_lead_growth(size_t best, const size_t pair[2],
                                  const double *y, size_t n, int64_t first_hour,
                                  size_t hb, size_t horizon, double drift,
                                  double *f, double *f2, double *exponent)
{
    *exponent = 0;
    if (hb <= DAY || horizon < 2 * hb || n < REG_WINDOW + 2 * hb)
        return GP_OK;
    size_t len = n - REG_WINDOW < horizon ? n - REG_WINDOW : horizon;
    double near = 0, far = 0, near_lead = 0, far_lead = 0;
    size_t n_near = 0, n_far = 0;
    for (size_t j = 0; j < LONG_ORIGINS && n - len >= REG_WINDOW + j * WEEK;
         j++) {
        size_t origin = n - len - j * WEEK;
        gp_status st =
            forecast_chosen(best, pair, y, origin, first_hour, len, f, f2);
        if (st != GP_OK)
            return st;
        double slope = drift * gsl_stats_mean(y + origin - WEEK, 1, WEEK);
        for (size_t k = DAY; k < len; k++) {
            double e = fabs(y[origin + k] - f[k] - slope * (double)(k + 1));
            if (k < hb) {
                near += e;
                near_lead += (double)(k + 1);
                n_near++;
            } else {
                far += e;
                far_lead += (double)(k + 1);
                n_far++;
            }
        }
    }
    if (n_near && n_far)
        *exponent =
            growth_exponent(near / (double)n_near, near_lead / (double)n_near,
                            far / (double)n_far, far_lead / (double)n_far, 0.5);
    return GP_OK;
}

#define DRIFT_SPANS 3 /* long_lead_drift: runs that split the history */
#define DRIFT_RUNS 4  /* and long runs a week apart */
#define DRIFT_DAYS_MAX (13 * 7)

/* One run of long_lead_drift: the chosen forecast from `origin` over
 * `days` whole days, and the slope of the daily means of its error (actual
 * - forecast) against the lead (gsl_fit_linear), over the mean demand of
 * the week before origin: the run's relative drift per hour, in *rel (0
 * when that week had no demand).  lead holds the days' middle hours. */
static gp_status drift_run(size_t best, const size_t pair[2], const double *y,
                           size_t origin, int64_t first_hour, size_t days,
                           const double *lead, double *f, double *f2,
                           double *rel)
{
    double mean_err[DRIFT_DAYS_MAX], c0, c1, v00, v01, v11, ss;
    gp_status st =
        forecast_chosen(best, pair, y, origin, first_hour, days * DAY, f, f2);
    if (st != GP_OK)
        return st;
    double level = gsl_stats_mean(y + origin - WEEK, 1, WEEK);
    for (size_t d = 0; d < days; d++) {
        for (size_t k = 0; k < DAY; k++)
            f2[k] = y[origin + d * DAY + k] - f[d * DAY + k];
        mean_err[d] = gsl_stats_mean(f2, 1, DAY);
    }
    gsl_fit_linear(lead, 1, mean_err, 1, days, &c0, &c1, &v00, &v01, &v11, &ss);
    *rel = level > 0 ? c1 / level : 0;
    return GP_OK;
}

/*
 * The drift the chosen forecast misses: growth (or decline) that carries on
 * for longer than its trend does, for a horizon of two weeks or more past
 * eight weeks of history or more.  Two sets of runs (drift_run), all of
 * which must drift one way, or the drift is 0:
 *   - whether the drift went on over the whole history: DRIFT_SPANS runs
 *     over windows that split all but the first two weeks of it, one after
 *     the other (two weeks or more each, the last ending with the
 *     history).  A level that wanders, or a trend that came and went (or
 *     stopped weeks ago), drifts one way in some and not in others;
 *   - how large it is: DRIFT_RUNS runs from origins a week apart over
 *     the longest windows (up to the horizon, or 13 weeks) that leave two
 *     weeks of history before the earliest, the latest ending with the
 *     history.  Long windows show how far the forecast falls behind over
 *     months, where its own trend has levelled off; the drift is the
 *     smallest of theirs.
 * f, f2: scratch of the horizon's length (13 weeks at most used).
 */
static gp_status long_lead_drift(size_t best, const size_t pair[2],
                                 const double *y, size_t n, int64_t first_hour,
                                 size_t hb, size_t horizon, double *f,
                                 double *f2, double *drift)
{
    double lead[DRIFT_DAYS_MAX], rel, sign = 0, least = 0;
    *drift = 0;
    if (hb <= DAY || horizon < 2 * hb || n < (2 + 2 * DRIFT_SPANS) * WEEK)
        return GP_OK;
    for (size_t d = 0; d < DRIFT_DAYS_MAX; d++)
        lead[d] = (double)(d * DAY) + DAY / 2.0;
    size_t max_days =
        horizon / DAY < DRIFT_DAYS_MAX ? horizon / DAY : DRIFT_DAYS_MAX;
    /* the spans: does it go on over the whole history? */
    size_t days = (n - 2 * WEEK) / DRIFT_SPANS / DAY;
    days = days < max_days ? days : max_days;
    for (size_t j = 0; j < DRIFT_SPANS; j++) {
        gp_status st = drift_run(best, pair, y, n - (j + 1) * days * DAY,
                                 first_hour, days, lead, f, f2, &rel);
        if (st != GP_OK)
            return st;
        if (!(rel * sign >= 0) || rel == 0)
            return GP_OK;
        sign = rel;
    }
    /* the long runs: how large is it? */
    days = (n - 2 * WEEK - (DRIFT_RUNS - 1) * WEEK) / DAY;
    days = days < max_days ? days : max_days;
    for (size_t j = 0; j < DRIFT_RUNS; j++) {
        gp_status st = drift_run(best, pair, y, n - days * DAY - j * WEEK,
                                 first_hour, days, lead, f, f2, &rel);
        if (st != GP_OK)
            return st;
        if (!(rel * sign > 0))
            return GP_OK;
        if (j == 0 || fabs(rel) < fabs(least))
            least = rel;
    }
    *drift = least;
    return GP_OK;
}

/* The MAE of one forecast's backtest residuals r (actual - forecast; n_orig
 * origins of hb hours, of which the first lens[o] are real) over their
 * n_points, and the sum and count of absolute percentage errors over the
 * hours whose actual is above zero. */
static double tally_residuals(const double *r, const double *y,
                              const size_t *origins, const size_t *lens,
                              size_t n_orig, size_t hb, size_t n_points,
                              double *ape_sum, size_t *ape_n)
{
    double abs_sum = 0;

    *ape_sum = 0;
    *ape_n = 0;
    for (size_t o = 0; o < n_orig; o++)
        for (size_t k = 0; k < lens[o]; k++) {
            double a = y[origins[o] + k], e = fabs(r[o * hb + k]);
            abs_sum += e;
            if (a > 0) {
                *ape_sum += e / a;
                (*ape_n)++;
            }
        }
    return abs_sum / (double)n_points;
}

/* The backtest's shape for a history of n hours and a horizon of h: the
 * window hb (a week at most), and the origins (latest first) with their
 * window lengths.  Each origin has at least a week of history before it
 * (half the history when that is under eight days).  With room for three
 * whole windows the origins are spread evenly (in whole days, a day at
 * least) from hb before the end back over the history, so that the choice
 * reflects more than the last days; otherwise they are the last days'
 * starts, with windows cut at the end of the history. */
static size_t backtest_plan(size_t n, size_t h, size_t *hb_out,
                            size_t origins[MAX_ORIGINS],
                            size_t lens[MAX_ORIGINS])
{
    size_t hb = h < WEEK ? h : WEEK, min_train = WEEK, count = 0;
    if (n < 2 * DAY || hb == 0)
        return 0;
    if (n < min_train + DAY)
        min_train = n / 2;
    if (n >= min_train + hb + 2 * DAY) {
        /* spread over the history: whole days apart, at least one */
        size_t step = (n - hb - min_train) / (MAX_ORIGINS - 1) / DAY * DAY;
        if (step < DAY)
            step = DAY;
        for (size_t o = n - hb; o >= min_train && count < MAX_ORIGINS;
             o -= step) {
            origins[count] = o;
            lens[count++] = hb;
        }
    } else {
        for (size_t o = n - DAY; o >= min_train && count < MAX_ORIGINS;
             o -= DAY) {
            origins[count] = o;
            lens[count++] = n - o < hb ? n - o : hb;
        }
        if (count == 0) {
            origins[count] = min_train;
            lens[count++] = n - min_train < hb ? n - min_train : hb;
        }
    }
    *hb_out = hb;
    return count;
}

/* The origins the interval is calibrated on when the backtest's own are
 * too few or too short: its windows were cut short by the end of a short
 * history (under eight days plus the window), or it has fewer than three
 * origins (a week of history before each leaves room for one or two).  A
 * short window holds only short leads, whose errors are smaller than the
 * horizon's, and one or two origins say little about how far the next
 * window can fall from the forecast; either way the interval is too
 * narrow.  The calibration's origins are a day apart with whole windows hb
 * long and at least SHORT_TRAIN hours of history (a day when that leaves
 * room for fewer than three).  Sets *thin when the backtest's origins do
 * not suffice; returns 0 when they do or there is no room for two whole
 * windows. */
static size_t calibration_plan(size_t n, size_t hb, size_t n_orig,
                               const size_t lens[MAX_ORIGINS],
                               size_t origins[MAX_ORIGINS], bool *thin)
{
    size_t count = 0;
    bool cut = false;
    for (size_t o = 0; o < n_orig; o++)
        cut = cut || lens[o] < hb;
    *thin = cut || n_orig < 3;
    if (!*thin || n < DAY + hb + DAY)
        return 0;
    size_t min_hist = n >= SHORT_TRAIN + hb + 2 * DAY ? SHORT_TRAIN : DAY;
    for (size_t o = n - hb; o >= min_hist && count < MAX_ORIGINS; o -= DAY)
        origins[count++] = o;
    return count;
}

/* Records the parameters of candidate c (the level's window, the seasonal
 * median's period, periods and level window) in the series. */
static void describe_candidate(const candidate *c, gp_forecast_series *s)
{
    if (c->method == GP_FC_LEVEL)
        s->level_window = (int)c->param;
    if (c->method == GP_FC_SEASONAL) {
        s->seasonal_period = (int)c->period;
        s->seasonal_periods = (int)c->periods;
        s->seasonal_level_hours = (int)c->relevel;
    }
}

/* One series: backtest, choose, forecast, calibrate (steps 1-3 above). */
gp_status gp_forecast_series_run(const double *y, size_t n, int64_t first_hour,
                                 size_t horizon_hours, double growth,
                                 const gp_forecast_options *opt,
                                 gp_forecast_series *out, gp_error *err)
{
    gp_forecast_options defaults;
    size_t origins[MAX_ORIGINS], lens[MAX_ORIGINS], hb = 0, n_orig;
    double *res = NULL, *f = NULL, *f2 = NULL, *band = NULL, *need = NULL;
    double *cal = NULL;
    double mae[N_CANDIDATES + 1];
    size_t pair[2] = {NAIVE_WEEK_CANDIDATE, NAIVE_WEEK_CANDIDATE};
    size_t best = NAIVE_WEEK_CANDIDATE;
    interval_model im;
    gp_status st = GP_OK;
    double drift = 0, slope = 0; /* the drift, and per hour at today's level */

    memset(&im, 0, sizeof im);
    if (!opt) {
        gp_forecast_options_init(&defaults);
        opt = &defaults;
    }
    memset(out, 0, sizeof *out);
    for (int m = 0; m < GP_FC_N_METHODS; m++)
        out->method_relative_mae[m] = NAN;
    out->backtest.relative_mae = out->backtest.relative_mae_day = NAN;
    out->backtest.mase = out->backtest.mape = out->backtest.coverage = NAN;
    out->backtest.mae = NAN;
    out->holdout = out->backtest;
    out->holdout_naive_week_mae = out->holdout_naive_day_mae = NAN;
    out->interval_scale = 1;
    if (n == 0 || horizon_hours == 0) {
        gp_error_set(err, "", 0, 0, "horizon",
                     "nothing to forecast: %zu hours of history, %zu ahead", n,
                     horizon_hours);
        return GP_ERR_INPUT;
    }
    double interval =
        opt->interval > 0 && opt->interval < 1 ? opt->interval : 0.8;
    double sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += y[i];
    out->history_mean = sum / (double)n;
    burst_profile(y, n, out);
    out->bursty = out->burst_duty < 0.7;

    n_orig = backtest_plan(n, horizon_hours, &hb, origins, lens);
    size_t fl = horizon_hours > hb ? horizon_hours : hb;
    f = gp_malloc(fl * sizeof *f);
    f2 = gp_malloc(fl * sizeof *f2);
    if (n_orig) {
        res = gp_malloc((N_CANDIDATES + 1) * n_orig * hb * sizeof *res);
        band = gp_malloc(MAX_ORIGINS * hb * sizeof *band);
        need = gp_malloc(MAX_ORIGINS * hb * sizeof *need);
        cal = gp_malloc(MAX_ORIGINS * hb * sizeof *cal);
    }
    out->points = gp_malloc(horizon_hours * sizeof *out->points);
    if (!f || !f2 || (n_orig && (!res || !band || !need || !cal)) ||
        !out->points) {
        st = GP_ERR_NOMEM;
        goto done;
    }

    /* 1-2: the backtest of every candidate, residual = actual - forecast */
    if (n_orig) {
        double ape_sum[N_CANDIDATES + 1];
        size_t ape_n[N_CANDIDATES + 1], n_points = 0;
        for (size_t o = 0; o < n_orig; o++)
            n_points += lens[o];
        for (size_t c = 0; c < N_CANDIDATES; c++) {
            for (size_t o = 0; o < n_orig; o++) {
                double *r = res + (c * n_orig + o) * hb;
                st = forecast_candidate(&candidates[c], y, origins[o],
                                        first_hour, lens[o], f);
                if (st != GP_OK)
                    goto done;
                for (size_t k = 0; k < hb; k++)
                    r[k] = k < lens[o] ? y[origins[o] + k] - f[k] : NAN;
            }
            mae[c] =
                tally_residuals(res + c * n_orig * hb, y, origins, lens, n_orig,
                                hb, n_points, &ape_sum[c], &ape_n[c]);
        }
        /* MAEs closer than a billionth of mean demand are a tie, which
         * goes to the earlier (simpler) candidate: rounding moves an MAE
         * by a few 1e-16 of the demand, not of the MAE (hourly sums of
         * samples that straddle hours, the methods' arithmetic), so a
         * choice by strict order, or within 1e-12 of the MAE, was a
         * choice on rounding: a constant 100,000 with an ulp every 7th
         * hour went to the last week repeated, the same constant at 10 to
         * the last day (EXACT_SHARE: such an MAE counts as exact) */
        double tie = EXACT_SHARE * out->history_mean;
        /* the combination: the mean of the two best candidates of
         * different methods, so its residual is the mean of theirs */
        for (size_t c = 1; c < N_CANDIDATES; c++)
            if (mae[c] < mae[pair[0]] - tie)
                pair[0] = c;
        pair[1] = pair[0] == 0 ? 1 : 0;
        for (size_t c = 0; c < N_CANDIDATES; c++)
            if (candidates[c].method != candidates[pair[0]].method &&
                (candidates[pair[1]].method == candidates[pair[0]].method ||
                 mae[c] < mae[pair[1]] - tie))
                pair[1] = c;
        {
            double *rc = res + N_CANDIDATES * n_orig * hb;
            const double *r1 = res + pair[0] * n_orig * hb;
            const double *r2 = res + pair[1] * n_orig * hb;
            for (size_t i = 0; i < n_orig * hb; i++)
                rc[i] = (r1[i] + r2[i]) / 2;
            mae[N_CANDIDATES] =
                tally_residuals(rc, y, origins, lens, n_orig, hb, n_points,
                                &ape_sum[N_CANDIDATES], &ape_n[N_CANDIDATES]);
        }
        /* the winner: the lowest MAE (the earlier, simpler, on a tie),
         * among the forced method's variants when a method is forced */
        bool any = false;
        for (size_t c = 0; c <= N_CANDIDATES; c++) {
            gp_forecast_method m =
                c == N_CANDIDATES ? GP_FC_COMBINATION : candidates[c].method;
            if (opt->method >= 0 && opt->method < GP_FC_N_METHODS &&
                (int)m != opt->method)
                continue;
            if (!any || mae[c] < mae[best] - tie)
                best = c;
            any = true;
        }
        for (size_t c = 0; c <= N_CANDIDATES; c++) {
            gp_forecast_method m =
                c == N_CANDIDATES ? GP_FC_COMBINATION : candidates[c].method;
            double r =
                ratio(mae[c], mae[NAIVE_WEEK_CANDIDATE], out->history_mean);
            double *slot = &out->method_relative_mae[m];
            if (isnan(*slot) || r < *slot)
                *slot = r;
        }
        gp_forecast_accuracy *bt = &out->backtest;
        const double *rb = res + best * n_orig * hb;
        bt->mae = mae[best];
        double mean = out->history_mean;
        bt->relative_mae = ratio(mae[best], mae[NAIVE_WEEK_CANDIDATE], mean);
        bt->relative_mae_day = ratio(mae[best], mae[NAIVE_DAY_CANDIDATE], mean);
        bt->mase = ratio(mae[best], mase_scale(y, n, &bt->mase_season), mean);
        bt->mape =
            ape_n[best] ? 100 * ape_sum[best] / (double)ape_n[best] : NAN;
        bt->n_points = n_points;
        bt->n_origins = n_orig;
        out->interval_scale = calibrate_interval(rb, n_orig, hb, interval, band,
                                                 need, &im, &bt->coverage);
        /* a short history: the wider of that interval and the one from
         * the chosen forecast's residuals on whole windows (or, when
         * there is no room for two, the spread of demand) */
        size_t corig[MAX_ORIGINS];
        bool thin;
        size_t whole = calibration_plan(n, hb, n_orig, lens, corig, &thin);
        if (whole >= 2) {
            interval_model wim;
            double wcov;
            for (size_t o = 0; o < whole; o++) {
                st = forecast_chosen(best, pair, y, corig[o], first_hour, hb, f,
                                     f2);
                if (st != GP_OK)
                    goto done;
                for (size_t k = 0; k < hb; k++)
                    cal[o * hb + k] = y[corig[o] + k] - f[k];
            }
            double wscale = calibrate_interval(cal, whole, hb, interval, band,
                                               need, &wim, &wcov);
            for (int b = 0; b < 2; b++) {
                im.lo[b] = im.lo[b] < wim.lo[b] ? im.lo[b] : wim.lo[b];
                im.hi[b] = im.hi[b] > wim.hi[b] ? im.hi[b] : wim.hi[b];
            }
            if (wim.growth_exp > im.growth_exp)
                im.growth_exp = wim.growth_exp;
            if (wscale > out->interval_scale)
                out->interval_scale = wscale;
        } else if (thin) {
            /* no room for two whole windows (a history under two days
             * plus the window): no out-of-sample check of the interval
             * is possible, so it is at least as wide as the spread of
             * demand around its median */
            double q[3];
            if ((st = demand_quantiles(y, n, interval, q)) != GP_OK)
                goto done;
            for (int b = 0; b < 2; b++) {
                im.lo[b] = im.lo[b] < q[0] - q[1] ? im.lo[b] : q[0] - q[1];
                im.hi[b] = im.hi[b] > q[2] - q[1] ? im.hi[b] : q[2] - q[1];
            }
        }
        /* a horizon past the backtest's window: growth that the chosen
         * forecast misses over long runs is added on, and the interval
         * widens as fast as its error (with that growth) grows over long
         * windows, if faster */
        double b;
        st = long_lead_drift(best, pair, y, n, first_hour, hb, horizon_hours, f,
                             f2, &drift);
        if (st != GP_OK)
            goto done;
        st = long_lead_growth(best, pair, y, n, first_hour, hb, horizon_hours,
                              drift, f, f2, &b);
        if (st != GP_OK)
            goto done;
        if (b > im.growth_exp)
            im.growth_exp = b;
        /* and the level's own motion from week to week in the history
         * (about the drift's line), carried on past the backtest's window:
         * long_lead_growth needs six weeks of history, this four */
        if (drift != 0)
            slope = drift * gsl_stats_mean(y + n - WEEK, 1, WEEK);
        weekly_level_motion(y, n, slope, &im.level_move, &im.level_exp);
        im.level_at_hb = im.level_move * im.level_move *
                         pow((double)hb / WEEK, 2 * im.level_exp);
    } else {
        /* too short to backtest: the level, with the interval from the
         * empirical distribution of demand around it */
        for (size_t c = 0; c < N_CANDIDATES; c++)
            if (candidates[c].method == GP_FC_LEVEL) {
                best = c;
                break;
            }
        double q[3];
        if ((st = demand_quantiles(y, n, interval, q)) != GP_OK)
            goto done;
        /* absolute quantiles for now, made offsets from the level below */
        im.lo[0] = im.lo[1] = q[0];
        im.hi[0] = im.hi[1] = q[2];
        im.growth_exp = 0;
        im.hb = horizon_hours;
    }
    /* 3: the forecast from the whole history */
    if (best == N_CANDIDATES) {
        out->method = GP_FC_COMBINATION;
        out->combined[0] = candidates[pair[0]].method;
        out->combined[1] = candidates[pair[1]].method;
        for (int i = 2; i-- > 0;)
            describe_candidate(&candidates[pair[i]], out);
    } else {
        out->method = out->combined[0] = out->combined[1] =
            candidates[best].method;
        describe_candidate(&candidates[best], out);
    }
    st = forecast_chosen(best, pair, y, n, first_hour, horizon_hours, f, f2);
    if (st != GP_OK)
        goto done;
    if (!n_orig)
        for (int b = 0; b < 2; b++) {
            im.lo[b] -= f[0];
            im.hi[b] -= f[0];
        }
    out->drift = drift;
    for (size_t k = 0; slope != 0 && k < horizon_hours; k++)
        f[k] += slope * (double)(k + 1);
    for (size_t k = 0; k < horizon_hours; k++) {
        double scale = pow(1 + growth, (double)(k + 1) / GP_HOURS_PER_MONTH);
        out->points[k].t = (first_hour + (int64_t)(n + k)) * 3600;
        interval_apply(&im, k, f[k], scale, &out->points[k]);
    }

done: /* st is GP_OK on success */
    gp_free(cal);
    gp_free(need);
    gp_free(band);
    gp_free(res);
    gp_free(f2);
    gp_free(f);
    if (st != GP_OK) {
        gp_free(out->points);
        out->points = NULL;
    }
    if (st == GP_ERR_NOMEM)
        gp_error_set(err, "", 0, 0, "", "out of memory while forecasting");
    return st;
}

/* Scores a series' points against the hours that followed its history. */
void gp_forecast_series_score(gp_forecast_series *s, const double *history,
                              size_t n_history, const double *actual,
                              size_t n_actual)
{
    gp_forecast_accuracy *a = &s->holdout;
    double abs_sum = 0, ape = 0, week = 0, day = 0;
    size_t ape_n = 0, inside = 0;
    for (size_t k = 0; k < n_actual; k++) {
        const gp_forecast_point *p = &s->points[k];
        double e = actual[k] - p->p50;
        abs_sum += fabs(e);
        if (actual[k] > 0) {
            ape += fabs(e) / actual[k];
            ape_n++;
        }
        if (actual[k] >= p->p10 - 1e-9 && actual[k] <= p->p90 + 1e-9)
            inside++;
        /* the baselines: the last week and the last day repeated */
        size_t mw = n_history >= WEEK ? WEEK : (n_history >= DAY ? DAY : 0);
        size_t md = n_history >= DAY ? DAY : 0;
        double fw =
            mw ? history[n_history - mw + k % mw] : history[n_history - 1];
        double fd =
            md ? history[n_history - md + k % md] : history[n_history - 1];
        week += fabs(actual[k] - fw);
        day += fabs(actual[k] - fd);
    }
    s->has_holdout = n_actual > 0;
    if (!n_actual)
        return;
    double nn = (double)n_actual, mean = 0;
    for (size_t i = 0; i < n_history; i++)
        mean += history[i];
    mean = n_history ? mean / (double)n_history : 0;
    a->mae = abs_sum / nn;
    s->holdout_naive_week_mae = week / nn;
    s->holdout_naive_day_mae = day / nn;
    a->relative_mae = ratio(a->mae, week / nn, mean);
    a->relative_mae_day = ratio(a->mae, day / nn, mean);
    a->mase =
        ratio(a->mae, mase_scale(history, n_history, &a->mase_season), mean);
    a->mape = ape_n ? 100 * ape / (double)ape_n : NAN;
    a->coverage = (double)inside / nn;
    a->n_points = n_actual;
    a->n_origins = 1;
}

/* Frees a series' points and leaves the struct reusable. */
void gp_forecast_series_clear(gp_forecast_series *s)
{
    if (!s)
        return;
    gp_free(s->points);
    s->points = NULL;
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

/* Every (pool, workload) series of the trace, summed over labels, on
 * worker threads; see forecast.h. */
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

gp_status gp_forecast_run(const gp_trace *trace, const gp_scenario *s,
                          size_t horizon_hours, const gp_forecast_options *opt,
                          gp_forecast **out, gp_error *err)
{
    gp_forecast_options defaults;
    gp_forecast *fc = NULL;
    double **per_key = NULL, *growth = NULL, **demand = NULL;
    double *key_start = NULL, *series_start = NULL;
    size_t n_keys = trace->n_pools * GP_N_WORKLOADS, n_hist = trace->n_hours;
    gp_status st = GP_OK;

    *out = NULL;
    if (!opt) {
        gp_forecast_options_init(&defaults);
        opt = &defaults;
    }
    if (horizon_hours == 0 || horizon_hours > 5 * 8784) {
        gp_error_set(err, "", 0, 0, "--horizon",
                     "expected 1 hour to 5 years, got %zu hours",
                     horizon_hours);
        return GP_ERR_USAGE;
    }
    if (trace->n_hours == 0 || trace->n_series == 0) {
        gp_error_set(err, trace->n_sources == 1 ? trace->sources[0] : "", 0, 0,
                     "", "no demand in the trace: nothing to forecast");
        return GP_ERR_INPUT;
    }
    /* the hours the trace covers whole: a last row that ends part-way
     * through an hour (a job ending at 12:30) leaves that hour partly
     * covered, and its demand, a fraction of a whole hour's, would be
     * forecast as a dip and repeated by the seasonal methods; so does a
     * first row that starts part-way through one (a first sample at
     * 00:30), whose hour would be a dip in the history's first day */
    int64_t first_hour = trace->start_hour;
    int64_t end_hour = trace->start_hour + (int64_t)trace->n_hours;
    bool cut_start = trace->start_s > (double)first_hour * 3600 + 1e-6;
    bool cut_end = trace->end_s > 0 &&
                   (int64_t)floor((trace->end_s + 1e-6) / 3600.0) < end_hour;
    if (cut_start)
        first_hour++;
    if (cut_end)
        end_hour--;
    if (end_hour <= first_hour) {
        char a[32], e[32], h[32];
        const char *src = trace->n_sources == 1 ? trace->sources[0] : "";
        gp_format_time((int64_t)floor(trace->start_s + 0.5), a, sizeof a);
        gp_format_time((int64_t)floor(trace->end_s + 0.5), e, sizeof e);
        gp_format_time(trace->start_hour * 3600, h, sizeof h);
        if (!cut_start)
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
    /* the whole hours [first_hour, end_hour), from hour `skip` of the
     * trace's arrays */
    size_t skip = cut_start ? 1 : 0;
    size_t n_whole = (size_t)(end_hour - first_hour);
    n_hist = n_whole;
    if (opt->train_until) {
        int64_t cut = opt->train_until / 3600 - first_hour;
        if (opt->train_until % 3600 != 0 || cut < 2 ||
            cut >= (int64_t)n_whole) {
            /* the least history is 2 hours, so the earliest cut is the
             * trace's first whole hour + 2 h; the latest is an hour before
             * the end of its last whole hour, leaving one to score */
            char a[32], z[32], g[32];
            gp_format_time((first_hour + 2) * 3600, a, sizeof a);
            gp_format_time(end_hour * 3600, z, sizeof z);
            gp_format_time(opt->train_until, g, sizeof g);
            if (n_whole < 3)
                gp_error_set(err, "", 0, 0, "--train-until",
                             "needs 2 hours of history before it and 1 "
                             "after it, but the trace covers %zu whole "
                             "hour%s (to %s); leave --train-until out",
                             n_whole, gp_plural(n_whole, "", "s"), z);
            else
                gp_error_set(err, "", 0, 0, "--train-until",
                             "must be a whole hour from %s (2 hours after "
                             "the %s, the least history) to "
                             "before %s (%s), got %s",
                             a,
                             cut_start ? "start of the trace's first whole "
                                         "hour"
                                       : "trace's start",
                             z,
                             cut_end ? "the end of the trace's last whole hour"
                                     : "the trace's end",
                             g);
            return GP_ERR_USAGE;
        }
        n_hist = (size_t)cut;
    }
    /* the forecast's end is printed as a time: it must be in 9999 */
    int64_t room = GP_TIME_LATEST / 3600 - (first_hour + (int64_t)n_hist);
    if ((int64_t)horizon_hours > room) {
        char a[32];
        gp_format_time((first_hour + (int64_t)n_hist) * 3600, a, sizeof a);
        if (room <= 0) {
            gp_error_set(err, trace->n_sources == 1 ? trace->sources[0] : "", 0,
                         0, "",
                         "the forecast would start at %s, the latest time "
                         "gpuplan can forecast to: there is no hour left to "
                         "forecast",
                         a);
            return GP_ERR_INPUT;
        }
        gp_error_set(err, "", 0, 0, "--horizon",
                     "runs the forecast from %s past " GP_TIME_LATEST_WHY
                     "; give at most %lld hour%s, got %zu hours",
                     a, (long long)room, gp_plural(room, "", "s"),
                     horizon_hours);
        return GP_ERR_USAGE;
    }

    fc = gp_calloc(1, sizeof *fc);
    per_key = gp_calloc(n_keys, sizeof *per_key);
    key_start = gp_calloc(n_keys, sizeof *key_start);
    if (!fc || !per_key || !key_start)
        goto nomem;
    /* demand per (pool, workload), summed over teams and projects */
    for (size_t i = 0; i < trace->n_series; i++) {
        const gp_series *ser = &trace->series[i];
        size_t key = ser->pool * GP_N_WORKLOADS + (size_t)ser->workload;
        if (!per_key[key]) {
            per_key[key] = gp_calloc(trace->n_hours, sizeof **per_key);
            if (!per_key[key])
                goto nomem;
        }
        for (size_t h = 0; h < trace->n_hours; h++)
            per_key[key][h] += ser->instance_hours[h];
        /* the earliest row over its teams and projects */
        if (ser->start_s > 0 &&
            (key_start[key] == 0 || ser->start_s < key_start[key]))
            key_start[key] = ser->start_s;
    }
    size_t n_series = 0;
    for (size_t k = 0; k < n_keys; k++) {
        if (!per_key[k])
            continue;
        double total = 0, after = 0;
        for (size_t h = skip; h < skip + n_hist; h++)
            total += per_key[k][h];
        if (total > 0) {
            n_series++;
            continue;
        }
        /* no demand to forecast from: left out, and said so (a series
         * whose rows all say 0 instances, or whose demand begins after
         * the forecast start) */
        for (size_t h = skip + n_hist; h < trace->n_hours; h++)
            after += per_key[k][h];
        char name[256], t[32], more[128] = "";
        gp_trace_pool_name(trace, k / GP_N_WORKLOADS, name, sizeof name);
        gp_format_time((first_hour + (int64_t)n_hist) * 3600, t, sizeof t);
        if (after > 0)
            snprintf(more, sizeof more,
                     "; its %.6g instance-hours come after %s", after, t);
        gp_warnings_add(&fc->notes,
                        "%s %s: left out of the forecast, as its demand is "
                        "0 in all %zu hour%s of the history (to %s)%s",
                        name,
                        gp_workload_name((gp_workload)(k % GP_N_WORKLOADS)),
                        n_hist, gp_plural(n_hist, "", "s"), t, more);
        gp_free(per_key[k]);
        per_key[k] = NULL;
    }
    if (n_series == 0) {
        gp_error_set(err, trace->n_sources == 1 ? trace->sources[0] : "", 0, 0,
                     "", "%s",
                     "no demand (all instances 0) before the "
                     "forecast start: nothing to forecast");
        st = GP_ERR_INPUT;
        goto fail;
    }
    fc->series = gp_calloc(n_series, sizeof *fc->series);
    demand = gp_calloc(n_series, sizeof *demand);
    growth = gp_calloc(n_series, sizeof *growth);
    series_start = gp_calloc(n_series, sizeof *series_start);
    if (!fc->series || !demand || !growth || !series_start)
        goto nomem;
    for (size_t k = 0, j = 0; k < n_keys; k++) {
        if (!per_key[k])
            continue;
        gp_workload w = (gp_workload)(k % GP_N_WORKLOADS);
        fc->series[j].pool = (uint32_t)(k / GP_N_WORKLOADS);
        fc->series[j].workload = w;
        demand[j] = per_key[k] + skip; /* from the first whole hour */
        series_start[j] = key_start[k];
        growth[j] = s && w != GP_UNLABELED ? s->growth[w] : 0;
        j++;
    }
    fc->n_series = n_series;
    fc->start_hour = first_hour + (int64_t)n_hist;
    fc->n_hours = horizon_hours;
    fc->history_start_hour = first_hour;
    fc->history_hours = n_hist;
    if (cut_start) {
        char a[96], w[32];
        fc->partial_start_s = trace->start_s;
        part_way(trace->start_s, a, sizeof a);
        gp_format_time(first_hour * 3600, w, sizeof w);
        gp_warnings_add(&fc->notes,
                        "the trace starts at %s: that hour is left out "
                        "(partly covered, it would read as a dip in demand), "
                        "so the history starts at %s",
                        a, w);
    }
    if (cut_end) {
        char e[96], h[32];
        fc->partial_end_s = trace->end_s;
        part_way(trace->end_s, e, sizeof e);
        gp_format_time(end_hour * 3600, h, sizeof h);
        if (n_hist == n_whole)
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
    if (horizon_hours > 4 * n_hist)
        gp_warnings_add(&fc->notes,
                        "the horizon (%zu hour%s) is over four times the "
                        "history (%zu hour%s): treat the intervals with care",
                        horizon_hours, gp_plural(horizon_hours, "", "s"),
                        n_hist, gp_plural(n_hist, "", "s"));

    /* the scenario's growth moves every point (5% a month is +15.7% by
     * the end of 13 weeks): said, per workload forecast, with the file
     * it came from */
    if (s) {
        char applied[256] = "";
        size_t len = 0;
        for (int w = GP_TRAINING; w <= GP_INFERENCE; w++) {
            bool forecast = false;
            for (size_t j = 0; j < n_series; j++)
                forecast = forecast || (int)fc->series[j].workload == w;
            if (!forecast || s->growth[w] == 0 || len >= sizeof applied)
                continue;
            double end = pow(1 + s->growth[w],
                             (double)horizon_hours / GP_HOURS_PER_MONTH);
            len += (size_t)snprintf(
                applied + len, sizeof applied - len,
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

    forecast_job job;
    memset(&job, 0, sizeof job);
    job.fc = fc;
    job.demand = demand;
    job.start_s = series_start;
    job.n_history = n_hist;
    job.n_actual = n_whole - n_hist;
    job.first_hour = first_hour;
    job.horizon = horizon_hours;
    job.growth = growth;
    job.opt = opt;
    job.status = GP_OK;
    gp_error_clear(&job.err);
    pthread_mutex_init(&job.lock, NULL);
    long threads = opt->threads;
    if (threads <= 0)
        threads = sysconf(_SC_NPROCESSORS_ONLN);
    if (threads < 1)
        threads = 1;
    if ((size_t)threads > n_series)
        threads = (long)n_series;
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
    if (job.status != GP_OK) {
        st = job.status;
        if (err)
            gp_error_set(err, job.err.source, job.err.line, job.err.column,
                         job.err.field, "%s", job.err.message);
        goto fail;
    }
    for (size_t i = 0; i < fc->n_series; i++) {
        const gp_forecast_series *fs = &fc->series[i];
        char t[32], name[256];
        if (fs->history_hours == n_hist)
            continue;
        gp_format_time((fc->start_hour - (int64_t)fs->history_hours) * 3600, t,
                       sizeof t);
        gp_trace_pool_name(trace, fs->pool, name, sizeof name);
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
    for (size_t i = 0; i < fc->n_series; i++) {
        const gp_forecast_series *fs = &fc->series[i];
        bool bt = fs->backtest.n_origins && isnan(fs->backtest.relative_mae);
        bool ho = fs->has_holdout && isnan(fs->holdout.relative_mae);
        char name[256];
        if (!bt && !ho)
            continue;
        gp_trace_pool_name(trace, fs->pool, name, sizeof name);
        gp_warnings_add(&fc->notes,
                        "%s %s: the last week repeated is exact on the %s "
                        "(its MAE is at most a billionth of mean demand), so "
                        "relative MAE is null: there is no error to beat",
                        name, gp_workload_name(fs->workload),
                        bt && ho ? "backtest and the hold-out"
                                 : (bt ? "backtest" : "hold-out"));
    }
    for (size_t k = 0; k < n_keys; k++)
        gp_free(per_key[k]);
    gp_free(per_key);
    gp_free(key_start);
    gp_free(demand);
    gp_free(series_start);
    gp_free(growth);
    *out = fc;
    return GP_OK;

nomem:
    st = GP_ERR_NOMEM;
    gp_error_set(err, "", 0, 0, "", "out of memory while forecasting");
fail:
    if (per_key)
        for (size_t k = 0; k < n_keys; k++)
            gp_free(per_key[k]);
    gp_free(per_key);
    gp_free(key_start);
    gp_free(demand);
    gp_free(series_start);
    gp_free(growth);
    gp_forecast_free(fc);
    return st;
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
