/*
 * forecast_series.c: one series' forecast (gp_forecast_series_run): the
 * rolling-origin backtest of every candidate, the choice of the best, the
 * forecast from the whole history with its interval, and the score of a
 * forecast against a hold-out.  See docs/design/forecast.md.
 */
#include "forecast_internal.h"
#include "util.h"

#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <string.h>

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

/* The bands of leads the anchor's weight is learned for: the first 6
 * hours, the rest of the first day, days 2-3, the rest; past the
 * backtest's window the last band's weight fades as hb / lead. */
#define N_ANCHOR_BANDS 4
static const size_t anchor_edge[N_ANCHOR_BANDS] = {6, DAY, 3 * DAY, SIZE_MAX};

/* The anchor band of lead k (0-based). */
static size_t anchor_band(size_t k)
{
    size_t b = 0;
    while (k >= anchor_edge[b])
        b++;
    return b;
}

/* The state of one series' run, passed between its steps: the history and
 * the options, the backtest's plan, residuals and MAEs, the choice (its
 * members, and its residuals' slot), the interval model and the drift.
 * The buffers are the run's own, freed when it ends; out->points is the
 * caller's on success. */
typedef struct series_run {
    const double *y;
    size_t n;
    int64_t first_hour;
    size_t horizon;
    double interval;
    const gp_forecast_options *opt;
    gp_forecast_series *out;
    size_t origins[MAX_ORIGINS], lens[MAX_ORIGINS], hb, n_orig, n_points;
    double *res, *f, *f2, *band, *need, *cal;
    double mae[N_CANDIDATES + 1], ape_sum[N_CANDIDATES + 1];
    size_t ape_n[N_CANDIDATES + 1];
    fc_choice choice; /* the forecast chosen */
    /* the weight of the last hour's demand blended into the choice, per
     * band of leads (anchor_band) */
    double anchor[N_ANCHOR_BANDS];
    size_t best;      /* its residuals' slot in res */
    interval_model im;
    double drift, slope; /* the drift, and per hour at today's level */
} series_run;

/* Empties the series: no points, every ratio and error NAN (not tried),
 * an interval scale of 1. */
static void series_reset(gp_forecast_series *out)
{
    memset(out, 0, sizeof *out);
    for (int m = 0; m < GP_FC_N_METHODS; m++)
        out->method_relative_mae[m] = NAN;
    out->backtest.relative_mae = out->backtest.relative_mae_day = NAN;
    out->backtest.mase = out->backtest.mape = out->backtest.coverage = NAN;
    out->backtest.mae = NAN;
    out->holdout = out->backtest;
    out->holdout_naive_week_mae = out->holdout_naive_day_mae = NAN;
    out->interval_scale = 1;
}

/* Plans the backtest (step 1) and allocates the run's buffers and the
 * series' points. */
static gp_status series_alloc(series_run *r)
{
    r->n_orig = backtest_plan(r->n, r->horizon, &r->hb, r->origins, r->lens);
    size_t hb = r->hb;
    size_t fl = r->horizon > hb ? r->horizon : hb;
    r->f = gp_malloc(fl * sizeof *r->f);
    r->f2 = gp_malloc(fl * sizeof *r->f2);
    if (r->n_orig) {
        r->res =
            gp_malloc((N_CANDIDATES + 1) * r->n_orig * hb * sizeof *r->res);
        r->band = gp_malloc(MAX_ORIGINS * hb * sizeof *r->band);
        r->need = gp_malloc(MAX_ORIGINS * hb * sizeof *r->need);
        r->cal = gp_malloc(MAX_ORIGINS * hb * sizeof *r->cal);
    }
    r->out->points = gp_malloc(r->horizon * sizeof *r->out->points);
    if (!r->f || !r->f2 ||
        (r->n_orig && (!r->res || !r->band || !r->need || !r->cal)) ||
        !r->out->points)
        return GP_ERR_NOMEM;
    return GP_OK;
}

/* Step 2, the backtest of every candidate from every origin: the
 * residuals (actual - forecast, NAN past a window cut short) and each
 * candidate's MAE and absolute percentage errors.  The candidates of one
 * origin are run together (gp_fc_candidates_run). */
static gp_status backtest_candidates(series_run *r)
{
    size_t n_orig = r->n_orig, hb = r->hb, all[N_CANDIDATES];
    double *fc = gp_malloc(N_CANDIDATES * hb * sizeof *fc);
    if (!fc)
        return GP_ERR_NOMEM;
    for (size_t c = 0; c < N_CANDIDATES; c++)
        all[c] = c;
    for (size_t o = 0; o < n_orig; o++) {
        size_t len = r->lens[o];
        r->n_points += len;
        gp_status st = gp_fc_candidates_run(all, N_CANDIDATES, r->y,
                                            r->origins[o], r->first_hour, len,
                                            fc);
        if (st != GP_OK) {
            gp_free(fc);
            return st;
        }
        for (size_t c = 0; c < N_CANDIDATES; c++) {
            double *res = r->res + (c * n_orig + o) * hb;
            for (size_t k = 0; k < hb; k++)
                res[k] = k < len ? r->y[r->origins[o] + k] - fc[c * len + k]
                                 : NAN;
        }
    }
    gp_free(fc);
    for (size_t c = 0; c < N_CANDIDATES; c++)
        r->mae[c] = tally_residuals(r->res + c * n_orig * hb, r->y, r->origins,
                                    r->lens, n_orig, hb, r->n_points,
                                    &r->ape_sum[c], &r->ape_n[c]);
    return GP_OK;
}

/* The MAE of residuals r (n_orig origins of hb hours, NAN past a window
 * cut short) over the origins [from, to). */
static double mae_over(const double *r, size_t hb, size_t from, size_t to)
{
    double sum = 0;
    size_t cnt = 0;
    for (size_t o = from; o < to; o++)
        for (size_t k = 0; k < hb; k++)
            if (!isnan(r[o * hb + k])) {
                sum += fabs(r[o * hb + k]);
                cnt++;
            }
    return cnt ? sum / (double)cnt : NAN;
}

/* The choice: the median of every candidate's forecast (issue #35: over
 * the 29 series of bench/forecast-accuracy, choosing by the backtest, even
 * nested, did worse than not choosing; see docs/design/forecast.md); or,
 * when `alone` (a candidate is exact) or a method is forced, the one
 * candidate (of that method) with the least MAE over every origin, a tie
 * going to the earlier. */
static void build_choice(const series_run *r, bool alone, double tie,
                         fc_choice *ch)
{
    int forced = r->opt->method >= 0 && r->opt->method < GP_FC_N_METHODS &&
                         r->opt->method != GP_FC_COMBINATION
                     ? r->opt->method
                     : -1;
    ch->n = 0;
    ch->median = !alone && forced < 0;
    if (ch->median) {
        for (size_t c = 0; c < N_CANDIDATES; c++)
            ch->members[ch->n++] = c;
        return;
    }
    size_t best = N_CANDIDATES;
    for (size_t c = 0; c < N_CANDIDATES; c++) {
        if (forced >= 0 && (int)gp_fc_candidates[c].method != forced)
            continue;
        if (best == N_CANDIDATES || r->mae[c] < r->mae[best] - tie)
            best = c;
    }
    if (best < N_CANDIDATES)
        ch->members[ch->n++] = best;
}

/* The residuals of choice ch at every origin into dst (the mean or the
 * median of its members' residuals, which are those of the mean or the
 * median of their forecasts). */
static void choice_residuals(const series_run *r, const fc_choice *ch,
                             double *dst)
{
    size_t len = r->n_orig * r->hb;
    if (ch->median && ch->n > 2) {
        gp_fc_median_columns(r->res, len, ch->members, ch->n, len, dst);
        return;
    }
    for (size_t i = 0; i < len; i++) {
        double sum = 0;
        for (size_t j = 0; j < ch->n; j++)
            sum += r->res[ch->members[j] * len + i];
        dst[i] = sum / (double)ch->n;
    }
}

/* Learns the anchor's weights on the origins [from, to): per band of
 * leads, the weight w of the last hour (persistence) in (1 - w) choice +
 * w persistence with the least MAE there, 0 unless it helps by more than
 * `tie` (and with a method forced); then blends the choice's residuals rc at every origin. */
static void anchor_fit(const series_run *r, double *rc, size_t from,
                       size_t to, double tie, double w[N_ANCHOR_BANDS])
{
    const double *rl = r->res + LAST_CANDIDATE * r->n_orig * r->hb;
    double err[N_ANCHOR_BANDS][6] = {{0}};
    bool forced = r->opt->method >= 0 && r->opt->method < GP_FC_N_METHODS;
    for (size_t b = 0; forced && b < N_ANCHOR_BANDS; b++)
        w[b] = 0; /* a method forced is that method alone */
    if (forced)
        return;
    for (size_t o = from; o < to; o++)
        for (size_t k = 0; k < r->hb; k++) {
            size_t i = o * r->hb + k;
            if (isnan(rc[i]))
                continue;
            for (int g = 0; g < 6; g++)
                err[anchor_band(k)][g] +=
                    fabs((1 - g / 5.0) * rc[i] + g / 5.0 * rl[i]);
        }
    for (size_t b = 0; b < N_ANCHOR_BANDS; b++) {
        int best = 0;
        for (int g = 1; g < 6; g++)
            if (err[b][g] < err[b][best] - tie * (double)r->hb)
                best = g;
        w[b] = best / 5.0;
    }
    for (size_t o = 0; o < r->n_orig; o++)
        for (size_t k = 0; k < r->hb; k++) {
            size_t i = o * r->hb + k;
            double a = w[anchor_band(k)];
            rc[i] = (1 - a) * rc[i] + a * rl[i];
        }
}

/* The choice (build_choice), its residuals in the last slot of res, and
 * the anchor's weights, learned on the newer half of the origins when
 * there are four or more (the recent windows say more of how the level
 * moves now), on all of them otherwise.  With four or more, the honest
 * figure is nested: the anchor learned on the older half, scored on the
 * newer half (its residuals in r->cal, *n_new the newer origins' count;
 * 0 without the nested backtest). */
static void backtest_choose(series_run *r, double tie, size_t *n_new)
{
    size_t len = r->n_orig * r->hb, nn = r->n_orig >= 4 ? r->n_orig / 2 : 0;
    double *slot = r->res + N_CANDIDATES * len, w[N_ANCHOR_BANDS];
    bool exact = false;
    for (size_t c = 0; c < N_CANDIDATES; c++)
        exact = exact || r->mae[c] <= tie; /* exact: nothing to hedge */
    if (exact)
        nn = 0;
    build_choice(r, exact, tie, &r->choice);
    choice_residuals(r, &r->choice, slot);
    if (nn) {
        memcpy(r->cal, slot, len * sizeof *slot);
        anchor_fit(r, r->cal, nn, r->n_orig, tie, w);
    }
    anchor_fit(r, slot, 0, nn ? nn : r->n_orig, tie, r->anchor);
    r->mae[N_CANDIDATES] = mae_over(slot, r->hb, 0, r->n_orig);
    *n_new = nn;
    r->best = N_CANDIDATES;
    gp_forecast_series *out = r->out;
    for (size_t c = 0; c <= N_CANDIDATES; c++) {
        if (c == N_CANDIDATES && r->choice.n < 2)
            continue;
        gp_forecast_method m =
            c == N_CANDIDATES ? GP_FC_COMBINATION : gp_fc_candidates[c].method;
        double ratio = gp_fc_ratio(r->mae[c], r->mae[NAIVE_WEEK_CANDIDATE],
                                   out->history_mean);
        double *ms = &out->method_relative_mae[m];
        if (isnan(*ms) || ratio < *ms)
            *ms = ratio;
    }
}

/* The choice's backtest accuracy, over the newer origins of the nested
 * backtest (its first n_new origins) when there was one, from the
 * residuals of the scheme ranked and anchored on the older origins (in
 * r->cal), and the interval calibrated on the final choice's residuals at
 * every origin. */
static void backtest_score(series_run *r, size_t n_new)
{
    gp_forecast_series *out = r->out;
    gp_forecast_accuracy *bt = &out->backtest;
    size_t len = r->n_orig * r->hb, no = n_new ? n_new : r->n_orig, pts = 0;
    const double *rb = r->res + N_CANDIDATES * len;
    const double *honest = n_new ? r->cal : rb;
    double ape_sum;
    size_t ape_n;
    for (size_t o = 0; o < no; o++)
        pts += r->lens[o];
    double mae = tally_residuals(honest, r->y, r->origins, r->lens, no, r->hb, pts,
                                 &ape_sum, &ape_n);
    double week = mae_over(r->res + NAIVE_WEEK_CANDIDATE * len, r->hb, 0, no);
    double day = mae_over(r->res + NAIVE_DAY_CANDIDATE * len, r->hb, 0, no);
    double mean = out->history_mean;
    bt->mae = mae;
    bt->relative_mae = gp_fc_ratio(mae, week, mean);
    bt->relative_mae_day = gp_fc_ratio(mae, day, mean);
    bt->mase = gp_fc_ratio(mae, gp_fc_mase_scale(r->y, r->n, &bt->mase_season),
                           mean);
    bt->mape = ape_n ? 100 * ape_sum / (double)ape_n : NAN;
    bt->n_points = pts;
    bt->n_origins = no;
    out->interval_scale =
        gp_fc_interval_calibrate(rb, r->n_orig, r->hb, r->interval, r->band,
                                 r->need, &r->im, &bt->coverage);
}

/* A short history: the interval is the wider of the backtest's and the
 * one from the chosen forecast's residuals on whole windows (or, when
 * there is no room for two, the spread of demand). */
static gp_status widen_short_history(series_run *r)
{
    size_t corig[MAX_ORIGINS], hb = r->hb;
    bool thin;
    interval_model *im = &r->im;
    size_t whole = calibration_plan(r->n, hb, r->n_orig, r->lens, corig, &thin);
    if (whole >= 2) {
        interval_model wim;
        double wcov;
        for (size_t o = 0; o < whole; o++) {
            gp_status st = gp_fc_chosen(&r->choice, r->y, corig[o],
                                        r->first_hour, hb, r->f, r->f2);
            if (st != GP_OK)
                return st;
            for (size_t k = 0; k < hb; k++)
                r->cal[o * hb + k] = r->y[corig[o] + k] - r->f[k];
        }
        double wscale = gp_fc_interval_calibrate(r->cal, whole, hb, r->interval,
                                                 r->band, r->need, &wim, &wcov);
        for (int b = 0; b < 2; b++) {
            im->lo[b] = im->lo[b] < wim.lo[b] ? im->lo[b] : wim.lo[b];
            im->hi[b] = im->hi[b] > wim.hi[b] ? im->hi[b] : wim.hi[b];
        }
        if (wim.growth_exp > im->growth_exp)
            im->growth_exp = wim.growth_exp;
        if (wscale > r->out->interval_scale)
            r->out->interval_scale = wscale;
    } else if (thin) {
        /* no room for two whole windows (a history under two days
         * plus the window): no out-of-sample check of the interval
         * is possible, so it is at least as wide as the spread of
         * demand around its median */
        double q[3];
        gp_status st = gp_fc_demand_quantiles(r->y, r->n, r->interval, q);
        if (st != GP_OK)
            return st;
        for (int b = 0; b < 2; b++) {
            im->lo[b] = im->lo[b] < q[0] - q[1] ? im->lo[b] : q[0] - q[1];
            im->hi[b] = im->hi[b] > q[2] - q[1] ? im->hi[b] : q[2] - q[1];
        }
    }
    return GP_OK;
}

/* A horizon past the backtest's window: growth that the chosen forecast
 * misses over long runs is added on, and the interval widens as fast as
 * its error (with that growth) grows over long windows, if faster. */
static gp_status widen_long_leads(series_run *r)
{
    interval_model *im = &r->im;
    double b;
    fc_runs runs = {.ch = &r->choice, .n = 0};
    gp_status st =
        gp_fc_long_lead_drift(&runs, r->y, r->n, r->first_hour, r->hb,
                              r->horizon, r->f, r->f2, &r->drift);
    if (st == GP_OK)
        st = gp_fc_long_lead_growth(&runs, r->y, r->n, r->first_hour, r->hb,
                                    r->horizon, r->drift, r->f, r->f2, &b);
    gp_fc_runs_free(&runs);
    if (st != GP_OK)
        return st;
    if (b > im->growth_exp)
        im->growth_exp = b;
    /* and the level's own motion from week to week in the history
     * (about the drift's line), carried on past the backtest's window:
     * gp_fc_long_lead_growth needs six weeks of history, this four */
    if (r->drift != 0)
        r->slope = r->drift * gsl_stats_mean(r->y + r->n - WEEK, 1, WEEK);
    gp_fc_level_motion(r->y, r->n, r->slope, &im->level_move, &im->level_exp);
    im->level_at_hb = im->level_move * im->level_move *
                      pow((double)r->hb / WEEK, 2 * im->level_exp);
    return GP_OK;
}

/* Steps 1-2 with a backtest: every candidate's residuals, the choice, its
 * accuracy and the interval from its residuals, widened for a short
 * history and for leads past the backtest's window. */
static gp_status series_backtest(series_run *r)
{
    gp_status st = backtest_candidates(r);
    if (st != GP_OK)
        return st;
    /* MAEs closer than a billionth of mean demand are a tie, which
     * goes to the earlier (simpler) candidate: rounding moves an MAE
     * by a few 1e-16 of the demand, not of the MAE (hourly sums of
     * samples that straddle hours, the methods' arithmetic), so a
     * choice by strict order, or within 1e-12 of the MAE, was a
     * choice on rounding: a constant 100,000 with an ulp every 7th
     * hour went to the last week repeated, the same constant at 10 to
     * the last day (EXACT_SHARE: such an MAE counts as exact) */
    double tie = EXACT_SHARE * r->out->history_mean;
    size_t n_new;
    backtest_choose(r, tie, &n_new);
    backtest_score(r, n_new);
    st = widen_short_history(r);
    if (st != GP_OK)
        return st;
    return widen_long_leads(r);
}

/* Too short to backtest: the level, with the interval from the empirical
 * distribution of demand around it (absolute quantiles for now, made
 * offsets from the level by series_points). */
static gp_status series_too_short(series_run *r)
{
    interval_model *im = &r->im;
    for (size_t c = 0; c < N_CANDIDATES; c++)
        if (gp_fc_candidates[c].method == GP_FC_LEVEL) {
            r->choice.n = 1;
            r->choice.members[0] = c;
            break;
        }
    double q[3];
    gp_status st = gp_fc_demand_quantiles(r->y, r->n, r->interval, q);
    if (st != GP_OK)
        return st;
    im->lo[0] = im->lo[1] = q[0];
    im->hi[0] = im->hi[1] = q[2];
    im->growth_exp = 0;
    im->hb = r->horizon;
    return GP_OK;
}

/* Step 3: the chosen method recorded in the series, its forecast from the
 * whole history with the drift added, the interval put around it and the
 * scenario's monthly `growth` applied. */
static gp_status series_points(series_run *r, double growth)
{
    gp_forecast_series *out = r->out;
    const fc_choice *ch = &r->choice;
    interval_model *im = &r->im;
    double *f = r->f;
    out->method = ch->n > 1 ? GP_FC_COMBINATION
                            : gp_fc_candidates[ch->members[0]].method;
    out->combined[0] = gp_fc_candidates[ch->members[0]].method;
    out->combined[1] = gp_fc_candidates[ch->members[ch->n > 1]].method;
    for (size_t i = ch->n; i-- > 0;)
        describe_candidate(&gp_fc_candidates[ch->members[i]], out);
    gp_status st = gp_fc_chosen(ch, r->y, r->n, r->first_hour, r->horizon, f,
                                r->f2);
    if (st != GP_OK)
        return st;
    if (!r->n_orig)
        for (int b = 0; b < 2; b++) {
            im->lo[b] -= f[0];
            im->hi[b] -= f[0];
        }
    for (size_t k = 0; r->n_orig && k < r->horizon; k++) {
        double a = r->anchor[anchor_band(k)];
        if (k >= r->hb)
            a *= (double)r->hb / (double)(k + 1);
        f[k] = (1 - a) * f[k] + a * r->y[r->n - 1];
    }
    out->drift = r->drift;
    for (size_t k = 0; r->slope != 0 && k < r->horizon; k++)
        f[k] += r->slope * (double)(k + 1);
    for (size_t k = 0; k < r->horizon; k++) {
        double scale = pow(1 + growth, (double)(k + 1) / GP_HOURS_PER_MONTH);
        out->points[k].t = (r->first_hour + (int64_t)(r->n + k)) * 3600;
        gp_fc_interval_apply(im, k, f[k], scale, &out->points[k]);
    }
    return GP_OK;
}

/* One series: backtest, choose, forecast, calibrate (steps 1-3 in
 * docs/design/forecast.md).  The series' points are the caller's on
 * success, freed here on failure. */
gp_status gp_forecast_series_run(const double *y, size_t n, int64_t first_hour,
                                 size_t horizon_hours, double growth,
                                 const gp_forecast_options *opt,
                                 gp_forecast_series *out, gp_error *err)
{
    gp_forecast_options defaults;
    series_run r;
    gp_status st;

    if (!opt) {
        gp_forecast_options_init(&defaults);
        opt = &defaults;
    }
    series_reset(out);
    if (n == 0 || horizon_hours == 0) {
        gp_error_set(err, "", 0, 0, "horizon",
                     "nothing to forecast: %zu hours of history, %zu ahead", n,
                     horizon_hours);
        return GP_ERR_INPUT;
    }
    memset(&r, 0, sizeof r);
    r.y = y;
    r.n = n;
    r.first_hour = first_hour;
    r.horizon = horizon_hours;
    r.interval = opt->interval > 0 && opt->interval < 1 ? opt->interval : 0.8;
    r.opt = opt;
    r.out = out;
    r.best = NAIVE_WEEK_CANDIDATE;
    r.choice.n = 1;
    r.choice.members[0] = NAIVE_WEEK_CANDIDATE;
    double sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += y[i];
    out->history_mean = sum / (double)n;
    gp_fc_burst_profile(y, n, out);
    out->bursty = out->burst_duty < 0.7;

    st = series_alloc(&r);
    if (st == GP_OK)
        st = r.n_orig ? series_backtest(&r) : series_too_short(&r);
    if (st == GP_OK)
        st = series_points(&r, growth);
    gp_free(r.cal);
    gp_free(r.need);
    gp_free(r.band);
    gp_free(r.res);
    gp_free(r.f2);
    gp_free(r.f);
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
    a->relative_mae = gp_fc_ratio(a->mae, week / nn, mean);
    a->relative_mae_day = gp_fc_ratio(a->mae, day / nn, mean);
    a->mase = gp_fc_ratio(
        a->mae, gp_fc_mase_scale(history, n_history, &a->mase_season), mean);
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
