/*
 * forecast_methods.c: the forecaster's candidate methods (naive, level,
 * regression, Holt-Winters, seasonal median) and their variants, each
 * forecasting h hours from a history y[0, origin).  See forecast.h and
 * docs/design/forecast.md.
 */
#include "forecast_internal.h"
#include "util.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <pthread.h>
#include <string.h>

#define GP_PI 3.14159265358979323846

/* The candidates: every method, with its variants. */
const candidate gp_fc_candidates[] = {
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
    /* persistence (the last hour) and the smoothing methods */
    {GP_FC_LEVEL, 1, 0, 0, 0},
    {GP_FC_SES, 0, 0, 0, 0},
    {GP_FC_DRIFT, 0, 0, 0, 0},
    {GP_FC_THETA, 0, 0, 0, 0},
    {GP_FC_DAMPED, 0, 0, 0, 0},
};
_Static_assert(sizeof gp_fc_candidates / sizeof gp_fc_candidates[0] ==
                   N_CANDIDATES,
               "N_CANDIDATES counts gp_fc_candidates");

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
    for (size_t k = 0, j = 0; k < h; k++, j = NEXT_SLOT(j, m))
        out[k] = y[origin - m + j]; /* j = k % m */
}

/* The level: the median of the last `window` hours before origin, flat
 * (the median, because it is the P50 and minimizes absolute error).
 * `scratch` holds at least `window` doubles. */
static void forecast_level(const double *y, size_t origin, size_t window,
                           size_t h, double *scratch, double *out)
{
    size_t w = window < origin ? window : origin;
    memcpy(scratch, y + origin - w, w * sizeof *scratch);
    double level = gp_fc_median_small(scratch, w);
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

/* damped_steps(damping, k) for the two dampings the long runs use at
 * every hour, Holt-Winters' HW_PHI and the regression's over a whole
 * REG_WINDOW (1 - 1 / REG_WINDOW), for k = 1..STEPS_TABLE (a year): the
 * same values, without a pow per hour and method.  Filled with the
 * harmonics. */
#define HW_PHI 0.98
#define HW_RATES 2 /* Holt-Winters' candidates, run together */
#define STEPS_TABLE (365 * DAY)
static double steps_hw[STEPS_TABLE + 1], steps_reg[STEPS_TABLE + 1];

/* damped_steps(damping, k), from the table when it holds it. */
static double damped_steps_of(double damping, size_t k)
{
    if (k <= STEPS_TABLE && damping == HW_PHI)
        return steps_hw[k];
    if (k <= STEPS_TABLE && damping == 1 - 1.0 / (double)REG_WINDOW)
        return steps_reg[k];
    return damped_steps(damping, k);
}

/* Fills the harmonics table and the damped steps'. */
static void harmonics_init(void)
{
    for (size_t k = 1; k <= STEPS_TABLE; k++) {
        steps_hw[k] = damped_steps(HW_PHI, k);
        steps_reg[k] = damped_steps(1 - 1.0 / (double)REG_WINDOW, k);
    }
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

/* The hour of the week (0..167) of clock hour `hour`. */
static size_t hour_of_week(int64_t hour)
{
    return (size_t)(((hour % WEEK) + WEEK) % WEEK);
}

/* Fills one row of the regression's design matrix for the hour `hw` of
 * the week, t hours from the origin: intercept, trend (per week), daily
 * harmonics 1..3 and, when `weekly`, weekly harmonics 1..3.  Returns the
 * number of columns.  The callers step hw along with the hours (NEXT_HW). */
#define NEXT_HW(hw) NEXT_SLOT(hw, WEEK)
static size_t design_row(double *row, size_t hw, double t, bool weekly)
{
    const double *hm = harmonics[hw];
    size_t p = weekly ? 14 : 8;
    row[0] = 1;
    row[1] = t / WEEK;
    for (size_t c = 2; c < p; c++)
        row[c] = hm[c - 2];
    return p;
}

/* The Gram matrix X'X of the regression's design over the w hours
 * before origin (hour t of them at clock hour first_hour + t), with the
 * tiny ridge, factored by Cholesky into xtx (p x p); false when the
 * factoring fails. */
static bool gram_factor(size_t origin, size_t w, int64_t first_hour,
                        bool weekly, double *xtx)
{
    double row[16];
    size_t p = weekly ? 14 : 8, start = origin - w;
    memset(xtx, 0, p * p * sizeof *xtx);
    size_t hw = hour_of_week(first_hour + (int64_t)start);
    for (size_t i = 0; i < w; i++, hw = NEXT_HW(hw)) {
        double t = (double)(start + i) - (double)origin;
        design_row(row, hw, t, weekly);
        for (size_t a = 0; a < p; a++)
            for (size_t b = a; b < p; b++)
                xtx[a * p + b] += row[a] * row[b];
    }
    for (size_t a = 0; a < p; a++) {
        xtx[a * p + a] *= 1 + 1e-9;
        xtx[a * p + a] += 1e-9;
        for (size_t b = 0; b < a; b++)
            xtx[a * p + b] = xtx[b * p + a];
    }
    gsl_matrix_view A = gsl_matrix_view_array(xtx, p, p);
    return gsl_linalg_cholesky_decomp1(&A.matrix) == GSL_SUCCESS;
}

/* The factored Gram matrices of whole REG_WINDOW fits with the weekly
 * terms, by the hour of the week of the origin: the design holds only the
 * hour of the week and the hours to the origin (-w..-1, exact in a
 * double), so every such fit with the same hour of the week has the same
 * X'X, bit for bit.  Made on first use (state 1, or -1 when the factoring
 * failed), under a lock: the worker threads share them. */
static struct {
    int state;
    double l[14 * 14];
} grams[WEEK];
static pthread_mutex_t grams_lock = PTHREAD_MUTEX_INITIALIZER;

/* The factored Gram matrix of the fit over the w hours before origin into
 * xtx, from grams when it is a whole window's; false when it does not
 * factor. */
static bool gram_get(size_t origin, size_t w, int64_t first_hour,
                     bool weekly, double *xtx)
{
    if (w != REG_WINDOW || !weekly)
        return gram_factor(origin, w, first_hour, weekly, xtx);
    size_t phase = hour_of_week(first_hour + (int64_t)origin);
    pthread_mutex_lock(&grams_lock);
    if (grams[phase].state == 0)
        grams[phase].state =
            gram_factor(origin, w, first_hour, weekly, grams[phase].l) ? 1
                                                                        : -1;
    memcpy(xtx, grams[phase].l, sizeof grams[phase].l);
    bool ok = grams[phase].state == 1;
    pthread_mutex_unlock(&grams_lock);
    return ok;
}

/*
 * Seasonal regression with trend: y = a + b t + daily and weekly Fourier
 * terms, fitted by least squares on the last REG_WINDOW hours before
 * origin, through the normal equations X'X beta = X'y solved by Cholesky
 * (gsl_linalg_cholesky; a tiny ridge keeps X'X positive definite; X'X of
 * a whole window comes factored from gram_get).  The columns are
 * near-orthogonal over whole days and weeks, so the normal equations lose
 * nothing here against an SVD and cost a tenth.  The trend is damped when
 * extrapolated.  Falls back to the daily naive forecast when the fit fails
 * or the window is under two days.
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
    bool weekly = w >= 3 * WEEK;
    double row[16], xtx[14 * 14], xty[14], beta[14];
    size_t p = weekly ? 14 : 8;
    memset(xty, 0, sizeof xty);
    size_t start = origin - w;
    size_t hw = hour_of_week(first_hour + (int64_t)start);
    for (size_t i = 0; i < w; i++, hw = NEXT_HW(hw)) {
        double t = (double)(start + i) - (double)origin;
        double v = y[start + i];
        design_row(row, hw, t, weekly);
        for (size_t a = 0; a < p; a++)
            xty[a] += row[a] * v;
    }
    gsl_matrix_view A = gsl_matrix_view_array(xtx, p, p);
    gsl_vector_view rhs = gsl_vector_view_array(xty, p);
    gsl_vector_view sol = gsl_vector_view_array(beta, p);
    if (!gram_get(origin, w, first_hour, weekly, xtx) ||
        gsl_linalg_cholesky_solve(&A.matrix, &rhs.vector, &sol.vector) !=
            GSL_SUCCESS) {
        forecast_naive(y, origin, DAY, h, out);
        return GP_OK;
    }
    double b1 = beta[1];
    hw = hour_of_week(first_hour + (int64_t)origin);
    for (size_t k = 0; k < h; k++, hw = NEXT_HW(hw)) {
        design_row(row, hw, 0, weekly);
        double f = 0;
        for (size_t c = 0; c < p; c++)
            f += row[c] * beta[c];
        /* the trend at the origin, then damped by 1 - 1/w an hour: it is
         * carried on for about as long as it was fitted on (w - 1 hours'
         * worth in all), then levels off */
        f += b1 * damped_steps_of(1 - 1.0 / (double)w, k + 1) / WEEK;
        out[k] = f > 0 ? f : 0;
    }
    return GP_OK;
}

/* Holt-Winters' start over the w hours before origin (whole periods of
 * m hours): the season as each slot's median deviation from its
 * period's mean over all the window's periods (robust to an outage in
 * one of them), into season[m]; returns the level, the first period's
 * mean.  pm: scratch for 2 w / m doubles. */
static double hw_start(const double *y, size_t origin, size_t m, size_t w,
                       double *season, double *pm)
{
    size_t periods = w / m, start = origin - w;
    double *dev = pm + periods;
    for (size_t p = 0; p < periods; p++) {
        pm[p] = 0;
        for (size_t i = 0; i < m; i++)
            pm[p] += y[start + p * m + i];
        pm[p] /= (double)m;
    }
    for (size_t i = 0; i < m; i++) {
        for (size_t p = 0; p < periods; p++)
            dev[p] = y[start + p * m + i] - pm[p];
        season[i] = gp_fc_median_small(dev, periods);
    }
    return pm[0];
}

/* Runs Holt-Winters from its start (season[m] of each of the n rates
 * alphas[c] at season + c m, the level at level[c]) over the window's
 * hours after its first period, the n runs side by side (the same
 * operations each, in the same order), and forecasts h hours with rate
 * c into out + c h. */
static void hw_runs(const double *y, size_t start, size_t m, size_t w,
                    const double *alphas, size_t n, double *season,
                    double *level, size_t h, double *out)
{
    const double beta = 0.01, gamma = 0.1, phi = HW_PHI;
    double trend[HW_RATES] = {0};
    for (size_t i = m, si = 0; i < w; i++, si = NEXT_SLOT(si, m)) {
        double x = y[start + i]; /* si = i % m */
        for (size_t c = 0; c < n; c++) {
            double alpha = alphas[c], *sn = season + c * m, prev = level[c];
            level[c] = alpha * (x - sn[si]) +
                       (1 - alpha) * (prev + phi * trend[c]);
            trend[c] = beta * (level[c] - prev) + (1 - beta) * phi * trend[c];
            sn[si] = gamma * (x - level[c]) + (1 - gamma) * sn[si];
            if (si == m - 1) {
                /* keep the season centred so it cannot drift against the
                 * level (the renormalization of Archibald and Koehler) */
                double mean = 0;
                for (size_t j = 0; j < m; j++)
                    mean += sn[j];
                mean /= (double)m;
                for (size_t j = 0; j < m; j++)
                    sn[j] -= mean;
                level[c] += mean;
            }
        }
    }
    for (size_t c = 0; c < n; c++)
        for (size_t k = 0, j = 0; k < h; k++, j = NEXT_SLOT(j, m)) {
            /* j = (w + k) % m, w being whole seasons */
            double f = level[c] + trend[c] * damped_steps_of(phi, k + 1) +
                       season[c * m + j];
            out[c * h + k] = f > 0 ? f : 0;
        }
}

/*
 * Additive Holt-Winters with a damped trend and a weekly season (daily
 * when the history holds under three weeks: #35), run over the HW_WINDOW
 * hours before origin, for each of the n (at most HW_RATES) level
 * smoothing rates alphas[c], forecast c into out + c h: they share the
 * start (hw_start) and run side by side.  The trend and season use beta
 * = 0.01, gamma = 0.1, damping 0.98.
 */
static gp_status forecast_holt_winters(const double *y, size_t origin,
                                       const double *alphas, size_t n,
                                       size_t h, double *out)
{
    size_t m = origin >= 3 * WEEK ? WEEK : DAY;
    if (origin < 3 * m) {
        for (size_t c = 0; c < n; c++)
            forecast_naive(y, origin, DAY, h, out + c * h);
        return GP_OK;
    }
    pthread_once(&harmonics_once, harmonics_init); /* the damped steps */
    size_t w = origin < HW_WINDOW ? origin : HW_WINDOW;
    w -= w % m; /* whole seasons, so the season index is i % m */
    double *season = gp_malloc(n * m * sizeof *season);
    double *pm = gp_malloc(2 * (w / m) * sizeof *pm), level[HW_RATES];
    if (!season || !pm) {
        gp_free(season);
        gp_free(pm);
        return GP_ERR_NOMEM;
    }
    level[0] = hw_start(y, origin, m, w, season, pm);
    gp_free(pm);
    for (size_t c = 1; c < n; c++) {
        memcpy(season + c * m, season, m * sizeof *season);
        level[c] = level[0];
    }
    hw_runs(y, origin - w, m, w, alphas, n, season, level, h, out);
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
        profile[j] = gp_fc_median_small(col, k);
    }
    double level = 0;
    if (relevel) {
        size_t w = relevel < origin ? relevel : origin;
        for (size_t i = 0; i < w; i++) {
            size_t t = origin - w + i;
            dev[i] = y[t] - profile[(period - (origin - t) % period) % period];
        }
        level = gp_fc_median_small(dev, w);
    }
    size_t first = h < period ? h : period;
    for (size_t i = 0; i < first; i++) {
        double f = level + profile[i];
        out[i] = f > 0 ? f : 0;
    }
    for (size_t i = period; i < h; i += period) /* the same each period */
        memcpy(out + i, out, (h - i < period ? h - i : period) * sizeof *out);
}

/* Forecasts h hours from history y[0, origin) with candidate c: the
 * method's own function, with scratch for those that need it. */
gp_status gp_fc_candidate(const candidate *c, const double *y, size_t origin,
                          int64_t first_hour, size_t h, double *out)
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
        return forecast_holt_winters(y, origin, &c->param, 1, h, out);
    case GP_FC_COMBINATION: /* not a candidate: made from two of them */
        break;
    case GP_FC_SES:
    case GP_FC_DRIFT:
    case GP_FC_THETA:
    case GP_FC_DAMPED:
        return gp_fc_smooth(&c->method, 1, y, origin, h, out);
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

/* Holt-Winters with the n rates alphas (run together), rate j's forecast
 * into out + at[j] h. */
static gp_status holt_winters_into(const double *y, size_t origin,
                                   const double *alphas, const size_t *at,
                                   size_t n, size_t h, double *out)
{
    double *buf = gp_malloc(n * h * sizeof *buf);
    if (!buf)
        return GP_ERR_NOMEM;
    gp_status st = forecast_holt_winters(y, origin, alphas, n, h, buf);
    for (size_t j = 0; st == GP_OK && j < n; j++)
        memcpy(out + at[j] * h, buf + j * h, h * sizeof *buf);
    gp_free(buf);
    return st;
}

/* Forecasts h hours from history y[0, origin) with the n candidates cs,
 * candidate i into out + i h: the smoothing candidates among them in one
 * call of gp_fc_smooth (their season and SES fit found once), the
 * Holt-Winters ones in one call (their start found once), the others
 * one by one. */
gp_status gp_fc_candidates_run(const size_t *cs, size_t n, const double *y,
                               size_t origin, int64_t first_hour, size_t h,
                               double *out)
{
    gp_forecast_method sm[N_CANDIDATES];
    size_t at[N_CANDIDATES], n_sm = 0, hw_at[HW_RATES], n_hw = 0;
    double *buf = NULL, alphas[HW_RATES];
    gp_status st = GP_OK;
    for (size_t i = 0; st == GP_OK && i < n; i++) {
        const candidate *c = &gp_fc_candidates[cs[i]];
        gp_forecast_method m = c->method;
        if (m == GP_FC_SES || m == GP_FC_DRIFT || m == GP_FC_THETA ||
            m == GP_FC_DAMPED) {
            sm[n_sm] = m;
            at[n_sm++] = i;
        } else if (m == GP_FC_HOLT_WINTERS && n_hw < HW_RATES) {
            alphas[n_hw] = c->param;
            hw_at[n_hw++] = i;
        } else {
            st = gp_fc_candidate(c, y, origin, first_hour, h, out + i * h);
        }
    }
    if (st == GP_OK && n_hw > 0)
        st = holt_winters_into(y, origin, alphas, hw_at, n_hw, h, out);
    if (st == GP_OK && n_sm > 0) {
        buf = gp_malloc(n_sm * h * sizeof *buf);
        st = buf ? gp_fc_smooth(sm, n_sm, y, origin, h, buf) : GP_ERR_NOMEM;
        for (size_t j = 0; st == GP_OK && j < n_sm; j++)
            memcpy(out + at[j] * h, buf + j * h, h * sizeof *buf);
    }
    gp_free(buf);
    return st;
}

/* The chosen forecast from history y[0, origin), h hours: the mean or
 * the median of its members' forecasts (f2: scratch for h doubles). */
gp_status gp_fc_chosen(const fc_choice *ch, const double *y, size_t origin,
                       int64_t first_hour, size_t h, double *f, double *f2)
{
    const candidate *cs = gp_fc_candidates;
    if (ch->n == 1 || !ch->median) {
        gp_status st = gp_fc_candidate(&cs[ch->members[0]], y, origin,
                                       first_hour, h, f);
        for (size_t i = 1; st == GP_OK && i < ch->n; i++) {
            st = gp_fc_candidate(&cs[ch->members[i]], y, origin, first_hour,
                                 h, f2);
            for (size_t k = 0; st == GP_OK && k < h; k++)
                f[k] += f2[k];
        }
        for (size_t k = 0; st == GP_OK && k < h; k++)
            f[k] /= (double)ch->n;
        return st;
    }
    double *all = gp_malloc(ch->n * h * sizeof *all);
    size_t slot[MAX_MEMBERS];
    if (!all)
        return GP_ERR_NOMEM;
    gp_status st =
        gp_fc_candidates_run(ch->members, ch->n, y, origin, first_hour, h, all);
    for (size_t i = 0; i < ch->n; i++)
        slot[i] = i;
    if (st == GP_OK)
        gp_fc_median_columns(all, h, slot, ch->n, h, f);
    gp_free(all);
    return st;
}
