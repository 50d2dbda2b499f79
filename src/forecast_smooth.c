/*
 * forecast_smooth.c: the smoothing candidates (simple exponential
 * smoothing with a fitted rate, random walk with drift, theta, exponential
 * smoothing with a damped trend chosen by AICc), each fitted on the last
 * SMOOTH_WINDOW hours with the season taken out when the data support one
 * (season_fit).  See docs/design/forecast.md, "The smoothing methods".
 */
#include "forecast_internal.h"
#include "util.h"

#include <math.h>
#include <string.h>

#define SMOOTH_WINDOW (4 * WEEK) /* hours the smoothing methods fit on */
/* the least seasonal strength, 1 - var(remainder) / var(detrended), of a
 * season that is taken out (Wang, Smith and Hyndman's measure) */
#define MIN_STRENGTH 0.3
/* a weekly season is preferred to a daily one only when it leaves at most
 * this share of the daily season's remainder variance */
#define WEEKLY_GAIN 0.8

/* The remainder variance share var(R) / var(D) of the season with period
 * m in x[0, w) (w >= 3m): D is x less its centred moving average over m
 * hours (the trend, so that a climb is not read as season), the profile
 * prof[j] the mean of D over the hours t with t % m == j, centred, and R
 * = D less the profile.  tr: scratch for w doubles. */
static double season_share(const double *x, size_t w, size_t m, double *prof,
                           double *tr)
{
    size_t half = m / 2, cnt[WEEK];
    double run = 0;
    memset(cnt, 0, sizeof cnt);
    memset(prof, 0, m * sizeof *prof);
    for (size_t i = 0; i <= m; i++)
        run += x[i];
    /* the 2 x m moving average: m + 1 hours, the two ends half-weighted */
    /* j = t % m in the loops over t (half < m) */
    for (size_t t = half, j = half; t + half < w; t++, j = NEXT_SLOT(j, m)) {
        if (t > half)
            run += x[t + half] - x[t - half - 1];
        tr[t] = (run - (x[t - half] + x[t + half]) / 2) / (double)m;
        prof[j] += x[t] - tr[t];
        cnt[j]++;
    }
    double mean = 0;
    for (size_t j = 0; j < m; j++) {
        prof[j] /= (double)(cnt[j] ? cnt[j] : 1);
        mean += prof[j] / (double)m;
    }
    for (size_t j = 0; j < m; j++)
        prof[j] -= mean;
    double sd = 0, sr = 0, md = 0, mr = 0, nn = (double)(w - 2 * half);
    for (size_t t = half, j = half; t + half < w; t++, j = NEXT_SLOT(j, m)) {
        md += (x[t] - tr[t]) / nn;
        mr += (x[t] - tr[t] - prof[j]) / nn;
    }
    for (size_t t = half, j = half; t + half < w; t++, j = NEXT_SLOT(j, m)) {
        double d = x[t] - tr[t] - md, r = x[t] - tr[t] - prof[j] - mr;
        sd += d * d;
        sr += r * r;
    }
    return sd > 0 ? sr / sd : 1;
}

/* The season of x[0, w): its period (0: none, else 24 or 168) with the
 * profile in prof (slot t % period for hour t of the window).  A weekly
 * season needs three whole weeks, a daily one three days, and either a
 * strength of MIN_STRENGTH.  tr: scratch for w doubles. */
static size_t season_fit(const double *x, size_t w, double *prof, double *tr)
{
    double day[DAY], share_d = 1;
    if (w >= 3 * DAY)
        share_d = season_share(x, w, DAY, day, tr);
    if (w >= 3 * WEEK) {
        double share_w = season_share(x, w, WEEK, prof, tr);
        if (1 - share_w >= MIN_STRENGTH && share_w <= WEEKLY_GAIN * share_d)
            return WEEK;
    }
    if (1 - share_d >= MIN_STRENGTH) {
        memcpy(prof, day, sizeof day);
        return DAY;
    }
    return 0;
}

/* Simple exponential smoothing of x[0, w) from level x[0] with each of
 * the n (at most SES_GRID) rates as[i], run side by side (independent
 * chains, which the processor overlaps): the sum of squared one-step
 * errors in sse[i], the final level in level[i]. */
#define SES_GRID 8
static void ses_runs(const double *x, size_t w, const double *as, size_t n,
                     double *sse, double *level)
{
    double l[SES_GRID], s[SES_GRID] = {0};
    for (size_t i = 0; i < n; i++)
        l[i] = x[0];
    for (size_t t = 1; t < w; t++)
        for (size_t i = 0; i < n; i++) {
            double e = x[t] - l[i];
            s[i] += e * e;
            l[i] += as[i] * e;
        }
    memcpy(sse, s, n * sizeof *sse);
    memcpy(level, l, n * sizeof *level);
}

/* The rate of simple exponential smoothing with the least squared
 * one-step error, on a grid then refined around the best (the first of
 * equals kept); its final level and error in *level and *sse. */
static double ses_fit(const double *x, size_t w, double *level, double *sse)
{
    static const double grid[SES_GRID] = {0.02, 0.05, 0.1, 0.2,
                                          0.35, 0.5,  0.75, 1.0};
    double best = 1, best_sse = HUGE_VAL, best_l = 0;
    double s[SES_GRID], l[SES_GRID], near[3] = {0};
    ses_runs(x, w, grid, SES_GRID, s, l);
    for (size_t i = 0; i < SES_GRID; i++)
        if (s[i] < best_sse) {
            best_sse = s[i];
            best = grid[i];
            best_l = l[i];
        }
    /* then 20% below the best, and 20% above the best as it stands
     * after that: both rates above are run, side by side with the one
     * below, and the one that counts is looked at */
    double lo = best * (1 + 0.2 * -1), up_best = best * (1 + 0.2 * 1);
    double up_lo = lo * (1 + 0.2 * 1);
    int i_lo = -1, i_best = -1, i_up_lo = -1, n_near = 0;
    if (lo > 0 && lo <= 1) {
        i_lo = n_near;
        near[n_near++] = lo;
        if (up_lo > 0 && up_lo <= 1) {
            i_up_lo = n_near;
            near[n_near++] = up_lo;
        }
    }
    if (up_best > 0 && up_best <= 1) {
        i_best = n_near;
        near[n_near++] = up_best;
    }
    ses_runs(x, w, near, (size_t)n_near, s, l);
    int up = i_best;
    if (i_lo >= 0 && s[i_lo] < best_sse) {
        best_sse = s[i_lo];
        best = lo;
        best_l = l[i_lo];
        up = i_up_lo;
    }
    if (up >= 0 && s[up] < best_sse) {
        best_sse = s[up];
        best = near[up];
        best_l = l[up];
    }
    if (best_sse == HUGE_VAL) /* no finite error: rate 1, as its run says */
        ses_runs(x, w, &best, 1, &best_sse, &best_l);
    *sse = best_sse;
    *level = best_l;
    return best;
}

/* Holt's linear method with a damped trend on x[0, w) for every one of
 * the DAMPED_GRID fits (rate as[i], trend rate bs[i], damping ps[i]),
 * side by side: the squared one-step errors, final levels and trends. */
#define DAMPED_GRID 16
static void damped_runs(const double *x, size_t w, const double *as,
                        const double *bs, const double *ps, double *sse,
                        double *level, double *trend)
{
    double l[DAMPED_GRID], g[DAMPED_GRID], s[DAMPED_GRID], ab[DAMPED_GRID];
    double g0 = 0;
    size_t k = w < DAY + 1 ? w - 1 : DAY;
    if (k > 0)
        g0 = (x[k] - x[0]) / (double)k;
    for (size_t i = 0; i < DAMPED_GRID; i++) {
        l[i] = x[0];
        g[i] = g0;
        s[i] = 0;
        ab[i] = as[i] * bs[i];
    }
    for (size_t t = 1; t < w; t++)
        for (size_t i = 0; i < DAMPED_GRID; i++) {
            double pred = l[i] + ps[i] * g[i], e = x[t] - pred;
            s[i] += e * e;
            l[i] = pred + as[i] * e;
            g[i] = ps[i] * g[i] + ab[i] * e;
        }
    memcpy(sse, s, sizeof s);
    memcpy(level, l, sizeof l);
    memcpy(trend, g, sizeof g);
}

/* AICc of a fit with p parameters and squared error sse over w hours. */
static double aicc(double sse, size_t w, double p)
{
    double n = (double)w;
    if (n - p - 1 <= 0)
        return HUGE_VAL;
    return n * log(sse / n + 1e-300) + 2 * p + 2 * p * (p + 1) / (n - p - 1);
}

/* The damped-trend forecast of x[0, w), h hours, into f: the fit with the
 * least squared error on a grid of rates and damping, kept over simple
 * exponential smoothing only when its AICc is lower. */
static void damped_forecast(const double *x, size_t w, size_t h,
                            double ses_level, double sse_s, double *f)
{
    static const double as[] = {0.1, 0.25, 0.5, 1.0};
    static const double bs[] = {0.02, 0.1}, ps[] = {0.85, 0.95};
    double ga[DAMPED_GRID], gb[DAMPED_GRID], gp[DAMPED_GRID];
    double s[DAMPED_GRID], l[DAMPED_GRID], g[DAMPED_GRID];
    double best = HUGE_VAL, bl = 0, bg = 0, bphi = 0;
    size_t n = 0;
    for (size_t i = 0; i < sizeof as / sizeof as[0]; i++)
        for (size_t j = 0; j < sizeof bs / sizeof bs[0]; j++)
            for (size_t k = 0; k < sizeof ps / sizeof ps[0]; k++) {
                ga[n] = as[i];
                gb[n] = bs[j];
                gp[n++] = ps[k];
            }
    damped_runs(x, w, ga, gb, gp, s, l, g);
    for (size_t i = 0; i < DAMPED_GRID; i++)
        if (s[i] < best) {
            best = s[i];
            bl = l[i];
            bg = g[i];
            bphi = gp[i];
        }
    bool trend = aicc(best, w, 5) < aicc(sse_s, w, 2);
    double damp = 0, pk = 1;
    for (size_t k = 0; k < h; k++) {
        pk *= bphi;
        damp += pk;
        f[k] = trend ? bl + bg * damp : ses_level;
    }
}

/* The fit of simple exponential smoothing that the smoothing methods
 * share: its rate, final level and squared one-step error. */
typedef struct ses_fitted {
    double a, level, sse;
} ses_fitted;

/* The nonseasonal forecast of x[0, w), h hours, by method m, from the
 * SES fit *ses of x. */
static void smooth_forecast(gp_forecast_method m, const double *x, size_t w,
                            size_t h, const ses_fitted *ses, double *f)
{
    if (m == GP_FC_DAMPED) {
        damped_forecast(x, w, h, ses->level, ses->sse, f);
        return;
    }
    /* a trend is carried on for about as long as it was fitted on, then
     * levels off: damped by 1 - 1/w an hour, as the regression's */
    double phi = 1 - 1.0 / (double)w, steps = 0, pk = 1;
    if (m == GP_FC_DRIFT) {
        double slope = (x[w - 1] - x[0]) / (double)(w - 1);
        for (size_t k = 0; k < h; k++) {
            pk *= phi;
            steps += pk;
            f[k] = x[w - 1] + slope * steps;
        }
        return;
    }
    double a = ses->a, level = ses->level, slope = 0;
    if (m == GP_FC_THETA) {
        /* half the least-squares slope of the window (the theta = 0
         * line's), as R's thetaf adds it to the SES forecast */
        double st = 0, sy = 0, stt = 0, sty = 0, n = (double)w;
        for (size_t t = 0; t < w; t++) {
            st += (double)t;
            sy += x[t];
            stt += (double)t * (double)t;
            sty += (double)t * x[t];
        }
        double den = n * stt - st * st;
        slope = den > 0 ? (n * sty - st * sy) / den / 2 : 0;
    }
    double lift = (1 - pow(1 - a, (double)w)) / a - 1;
    for (size_t k = 0; k < h; k++) {
        pk *= phi;
        steps += pk;
        f[k] = level + slope * (steps + lift);
    }
}

/* Forecasts h hours from history y[0, origin) with the n_m smoothing
 * methods ms (GP_FC_SES, GP_FC_DRIFT, GP_FC_THETA or GP_FC_DAMPED), method
 * i into out + i h: fitted on the last SMOOTH_WINDOW hours with their
 * season taken out, the season put back on the forecast.  The season and
 * the SES fit are found once for all of them. */
gp_status gp_fc_smooth(const gp_forecast_method *ms, size_t n_m,
                       const double *y, size_t origin, size_t h, double *out)
{
    size_t w = origin < SMOOTH_WINDOW ? origin : SMOOTH_WINDOW;
    const double *x = y + origin - w;
    if (w < 3) {
        for (size_t k = 0; k < n_m * h; k++)
            out[k] = y[origin - 1];
        return GP_OK;
    }
    double *adj = gp_malloc(2 * w * sizeof *adj), prof[WEEK];
    if (!adj)
        return GP_ERR_NOMEM;
    size_t period = season_fit(x, w, prof, adj + w);
    for (size_t t = 0, j = 0; t < w; t++, j = NEXT_SLOT(j, period))
        adj[t] = x[t] - (period ? prof[j] : 0); /* j = t % period */
    ses_fitted ses = {1, adj[w - 1], 0};
    bool need_ses = false;
    for (size_t i = 0; i < n_m; i++)
        need_ses = need_ses || ms[i] != GP_FC_DRIFT;
    if (need_ses)
        ses.a = ses_fit(adj, w, &ses.level, &ses.sse);
    for (size_t i = 0; i < n_m; i++) {
        double *o = out + i * h;
        smooth_forecast(ms[i], adj, w, h, &ses, o);
        size_t j = period ? w % period : 0; /* (w + k) % period */
        for (size_t k = 0; k < h; k++, j = NEXT_SLOT(j, period)) {
            double f = o[k] + (period ? prof[j] : 0);
            o[k] = f > 0 ? f : 0;
        }
    }
    gp_free(adj);
    return GP_OK;
}
