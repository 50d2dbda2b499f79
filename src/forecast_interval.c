/*
 * forecast_interval.c: the P10-P90 interval around a series' forecast,
 * from its backtest's residuals calibrated out of sample, and what a long
 * horizon adds: the drift the chosen forecast misses, how fast its error
 * grows past the backtest's window, and the level's motion from week to
 * week.  See docs/design/forecast.md.
 */
#include "forecast_internal.h"
#include "util.h"

#include <gsl/gsl_fit.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <string.h>

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
        im->lo[b] = gp_fc_quantile(band, cnt, qlo);
        im->hi[b] = gp_fc_quantile(band, cnt, qhi);
        spread[b] = cnt ? abs_sum / (double)cnt : 0;
        mean_lead[b] = cnt ? lead_sum / (double)cnt : 1;
    }
    im->growth_exp =
        growth_exponent(spread[0], mean_lead[0], spread[1], mean_lead[1], 0.5);
}

/* Puts the interval around the point forecast f at lead k (0-based). */
void gp_fc_interval_apply(const interval_model *im, size_t k, double f,
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
double gp_fc_interval_calibrate(const double *rb, size_t n_cal, size_t hb,
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
     * explode it.  No finite-sample correction: moving the quantile toward
     * 1 by (1 - q) / n_cal, as split conformal prediction does, made the
     * intervals of bench/forecast-accuracy's series cover 89% on average,
     * too wide on the series it was judged on (15 of 20 outside 70-90%,
     * 13 without) and on those held out (7 of 9, 4 without; #35) */
    double scale = n_cal > 1 ? gp_fc_quantile(need, n_need, interval) : 1;
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
void gp_fc_level_motion(const double *y, size_t n, double slope, double *move,
                        double *exponent)
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

/* The chosen forecast from history y[0, origin), len hours, into f: a
 * copy of the run kept in runs when one has that origin and length (the
 * drift's spans and long runs and the growth's runs often coincide: with
 * a year of history and 13 weeks ahead, up to 5 of their 11), else made by
 * gp_fc_chosen and kept while there is room (not kept when the copy
 * cannot be allocated).  f2: scratch of len doubles. */
gp_status gp_fc_run(fc_runs *runs, const double *y, size_t origin,
                    int64_t first_hour, size_t len, double *f, double *f2)
{
    for (size_t i = 0; i < runs->n; i++)
        if (runs->origin[i] == origin && runs->len[i] == len) {
            memcpy(f, runs->f[i], len * sizeof *f);
            return GP_OK;
        }
    gp_status st = gp_fc_chosen(runs->ch, y, origin, first_hour, len, f, f2);
    if (st != GP_OK || runs->n == MAX_RUNS)
        return st;
    double *keep = gp_malloc(len * sizeof *keep);
    if (keep) {
        memcpy(keep, f, len * sizeof *f);
        runs->origin[runs->n] = origin;
        runs->len[runs->n] = len;
        runs->f[runs->n++] = keep;
    }
    return GP_OK;
}

/* Frees the runs kept in runs. */
void gp_fc_runs_free(fc_runs *runs)
{
    for (size_t i = 0; i < runs->n; i++)
        gp_free(runs->f[i]);
    runs->n = 0;
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
gp_status gp_fc_long_lead_growth(fc_runs *runs,
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
        gp_status st = gp_fc_run(runs, y, origin, first_hour, len, f, f2);
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

#define DRIFT_SPANS 3 /* gp_fc_long_lead_drift: runs that split the history */
#define DRIFT_RUNS 4  /* and long runs a week apart */
#define DRIFT_DAYS_MAX (13 * 7)

/* One run of gp_fc_long_lead_drift: the chosen forecast from `origin` over
 * `days` whole days, and the slope of the daily means of its error (actual
 * - forecast) against the lead (gsl_fit_linear), over the mean demand of
 * the week before origin: the run's relative drift per hour, in *rel (0
 * when that week had no demand).  lead holds the days' middle hours. */
static gp_status drift_run(fc_runs *runs, const double *y,
                           size_t origin, int64_t first_hour, size_t days,
                           const double *lead, double *f, double *f2,
                           double *rel)
{
    double mean_err[DRIFT_DAYS_MAX], c0, c1, v00, v01, v11, ss;
    gp_status st = gp_fc_run(runs, y, origin, first_hour, days * DAY, f, f2);
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
gp_status gp_fc_long_lead_drift(fc_runs *runs,
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
        gp_status st = drift_run(runs, y, n - (j + 1) * days * DAY,
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
        gp_status st = drift_run(runs, y, n - days * DAY - j * WEEK,
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
