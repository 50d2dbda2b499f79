/*
 * test_forecast.c: the demand forecaster (forecast.c, issue #5).
 *
 * The series are built in the tests so that the right forecast is known
 * without running the program: a pattern that repeats every week exactly
 * (the last week repeated is then perfect), a constant, a constant with
 * the scenario's monthly growth (SPEC section 3b: demand x (1 + g)^months),
 * bursts whose profile can be counted by hand, independent noise whose
 * P10..P90 band should hold about 80% of new points.  Every expected value
 * says where it came from.
 */
/* cmocka needs these before it */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "forecast.h"
#include "gpuplan.h"

#define WEEK 168
#define GP_TEST_PI 3.14159265358979323846

/* A weekly pattern: 10 + (hour of week * 7) mod 23, so days differ (the
 * last day repeated is wrong) and the week repeats exactly. */
static double weekly_pattern(size_t i)
{
    return 10 + (double)((i % WEEK) * 7 % 23);
}

/* A small deterministic uniform generator on [0, 1) (Park-Miller minimal
 * standard), so the noise test does not depend on a library's stream. */
static double uniform(uint64_t *state)
{
    *state = (*state * 48271) % 2147483647;
    return (double)*state / 2147483647.0;
}

/* The MASE scale is the in-sample MAE of the seasonal naive forecast:
 * y = 1,2,3,4,5,7 with m = 2 has |3-1|, |4-2|, |5-3|, |7-4| = 2,2,2,3, so
 * 9 / 4 = 2.25 (Hyndman and Koehler 2006, eq. for q_t's denominator). */
static void test_mase_scale_is_the_seasonal_naive_in_sample_mae(void **state)
{
    const double y[] = {1, 2, 3, 4, 5, 7};
    (void)state;
    assert_close(gp_forecast_mase_scale(y, 6, 2), 2.25, 1e-12);
    assert_true(isnan(gp_forecast_mase_scale(y, 2, 2)));
}

/* A pattern that repeats every week exactly: the last week repeated has no
 * error, so the backtest picks it, the forecast is the last week again and
 * the interval has no width (all residuals are zero). */
static void test_weekly_pattern_is_forecast_by_the_last_week(void **state)
{
    size_t n = 4 * WEEK, h = 2 * WEEK;
    double *y = malloc(n * sizeof *y);
    gp_forecast_series s;
    gp_error err;
    (void)state;
    for (size_t i = 0; i < n; i++)
        y[i] = weekly_pattern(i);
    gp_error_clear(&err);
    assert_int_equal(gp_forecast_series_run(y, n, 0, h, 0, NULL, &s, &err),
                     GP_OK);
    assert_int_equal(s.method, GP_FC_NAIVE_WEEK);
    assert_close(s.backtest.mae, 0, 1e-12);
    for (size_t k = 0; k < h; k++) {
        /* by definition: y[n - 168 + k mod 168], and the pattern is
         * periodic so this is weekly_pattern(n + k) */
        assert_close(s.points[k].p50, weekly_pattern(n + k), 1e-9);
        assert_close(s.points[k].p10, s.points[k].p50, 1e-9);
        assert_close(s.points[k].p90, s.points[k].p50, 1e-9);
        assert_int_equal(s.points[k].t, (int64_t)(n + k) * 3600);
    }
    gp_forecast_series_clear(&s);
    free(y);
}

/* A constant: every method forecasts it exactly; on the tie the simplest
 * (the last day repeated, first in the list) wins; ratios to a zero naive
 * error are undefined (NAN). */
static void test_constant_is_forecast_exactly(void **state)
{
    size_t n = 3 * WEEK;
    double y[3 * WEEK];
    gp_forecast_series s;
    gp_error err;
    (void)state;
    for (size_t i = 0; i < n; i++)
        y[i] = 5;
    gp_error_clear(&err);
    assert_int_equal(gp_forecast_series_run(y, n, 0, 48, 0, NULL, &s, &err),
                     GP_OK);
    assert_int_equal(s.method, GP_FC_NAIVE_DAY);
    assert_true(isnan(s.backtest.relative_mae));
    for (size_t k = 0; k < 48; k++) {
        assert_close(s.points[k].p10, 5, 1e-9);
        assert_close(s.points[k].p50, 5, 1e-9);
        assert_close(s.points[k].p90, 5, 1e-9);
    }
    gp_forecast_series_clear(&s);
}

/* The same constant, 10 or 100,000 instance-hours an hour, with the
 * rounding of hourly sums of samples that straddle hours: 1 ulp of the
 * level (1.8e-15 at 10, 1.5e-11 at 100,000) added every 7th hour, as a
 * 7-minute sample step leaves it (its pattern repeats every 7 hours).  The
 * last week repeated (168 = 24 x 7) is then exact and the last day
 * repeated misses by 1 ulp in 2 hours of 7 (MAE 2/7 ulp: 5e-16 or 4.2e-12),
 * as does every other method by a few ulp: all of them are exact to a
 * billionth of the level, a tie, which goes to the first candidate, the
 * last day repeated, at both levels.  (Before, a tie was within 1e-12 of
 * the MAE plus 1, an absolute 1e-12 here: at 10 the last day repeated
 * won, at 100,000 the last week repeated, on rounding alone.) */
static void test_a_tie_on_rounding_goes_to_the_first_candidate(void **state)
{
    static const double levels[2] = {10, 100000};
    size_t n = 3 * WEEK;
    double y[3 * WEEK];
    gp_forecast_series s;
    gp_error err;
    (void)state;
    for (int l = 0; l < 2; l++) {
        double ulp = nextafter(levels[l], INFINITY) - levels[l];
        for (size_t i = 0; i < n; i++)
            y[i] = levels[l] + (i % 7 == 0 ? ulp : 0);
        gp_error_clear(&err);
        assert_int_equal(gp_forecast_series_run(y, n, 0, 48, 0, NULL, &s, &err),
                         GP_OK);
        assert_int_equal(s.method, GP_FC_NAIVE_DAY);
        assert_true(s.backtest.mae > 0);
        assert_true(s.backtest.mae <= 1e-9 * levels[l]);
        gp_forecast_series_clear(&s);
    }
}

/* Growth (SPEC 3b) is a monthly rate: 730 hours ahead a constant 10 with
 * growth 0.05 is 10 x 1.05 = 10.5, and 1,460 hours ahead 10 x 1.05^2 =
 * 11.025 (the k-th point is k + 1 hours ahead). */
static void test_growth_compounds_monthly(void **state)
{
    size_t n = 2 * WEEK;
    double y[2 * WEEK];
    gp_forecast_series s;
    gp_error err;
    (void)state;
    for (size_t i = 0; i < n; i++)
        y[i] = 10;
    gp_error_clear(&err);
    assert_int_equal(
        gp_forecast_series_run(y, n, 0, 1460, 0.05, NULL, &s, &err), GP_OK);
    assert_close(s.points[729].p50, 10.5, 1e-9);
    assert_close(s.points[1459].p50, 11.025, 1e-9);
    assert_close(s.points[1459].p90, 11.025, 1e-9);
    gp_forecast_series_clear(&s);
}

/* The regression's trend is extrapolated for about as long as it was
 * fitted on (four weeks), then levels off.  On y = 10 + 0.01 t over six
 * weeks the fit is exact (slope 0.01 an hour, and its value at the origin
 * n is 10 + 0.01 n), and with the per-hour damping phi = 1 - 1/672 the
 * point k + 1 hours ahead is
 *   10 + 0.01 n + 0.01 x phi (1 - phi^(k+1)) / (1 - phi):
 * a week ahead (k + 1 = 168) 10 + 10.08 + 0.01 x 148.52 = 21.565, thirteen
 * weeks ahead (2,184) 20.08 + 0.01 x 645.05 = 26.530, and never more than
 * 20.08 + 0.01 x 671 = 26.79.  The old damping (0.995, ~200 hours) had
 * 22.07 at thirteen weeks: a quarter's growth cut to a week's. */
static void test_regression_trend_levels_off_after_its_window(void **state)
{
    size_t n = 6 * WEEK, h = 13 * WEEK;
    double y[6 * WEEK];
    gp_forecast_series s;
    gp_forecast_options opt;
    gp_error err;
    (void)state;
    for (size_t i = 0; i < n; i++)
        y[i] = 10 + 0.01 * (double)i;
    gp_forecast_options_init(&opt);
    opt.method = GP_FC_REGRESSION;
    opt.threads = 1;
    gp_error_clear(&err);
    assert_int_equal(gp_forecast_series_run(y, n, 0, h, 0, &opt, &s, &err),
                     GP_OK);
    double phi = 1 - 1.0 / 672, base = 10 + 0.01 * (double)n;
    for (size_t k = 0; k < h; k++) {
        double steps = phi * (1 - pow(phi, (double)(k + 1))) / (1 - phi);
        assert_close(s.points[k].p50, base + 0.01 * steps, 1e-6);
    }
    assert_close(s.points[WEEK - 1].p50, 21.565, 5e-4);
    assert_close(s.points[h - 1].p50, 26.530, 5e-4);
    gp_forecast_series_clear(&s);
}

/* The burst profile counted by hand: 0 0 4 4 4 0 0 6 0 0 repeated (ten
 * hours): 4 active hours in 10 (duty 0.4), mean size (12 + 6) / 4 = 4.5,
 * 2 runs so 2 hours per run; with 60% idle hours the series is bursty. */
static void test_burst_profile_counts_how_often_how_large_how_long(void **state)
{
    const double pattern[10] = {0, 0, 4, 4, 4, 0, 0, 6, 0, 0};
    double y[500];
    gp_forecast_series s;
    gp_error err;
    (void)state;
    for (size_t i = 0; i < 500; i++)
        y[i] = pattern[i % 10];
    gp_error_clear(&err);
    assert_int_equal(gp_forecast_series_run(y, 500, 0, 24, 0, NULL, &s, &err),
                     GP_OK);
    assert_close(s.burst_duty, 0.4, 1e-12);
    assert_close(s.burst_size, 4.5, 1e-12);
    assert_close(s.burst_hours, 2.0, 1e-12);
    assert_true(s.bursty);
    gp_forecast_series_clear(&s);
}

/* Scoring a hand-made forecast: history 1..168 (the last week repeated
 * forecasts 1, 2, 3, 4), actual 2, 2, 6, 4, forecast P50 2, 3, 4, 4 with
 * P10..P90 = P50 -/+ 1.  Errors 0, 1, 2, 0: MAE 0.75; the last week's errors
 * 1, 0, 3, 0: MAE 1, so relative MAE 0.75; the last day (145, 146, ...)
 * errors 143, 144, 141, 144: MAE 143; MAPE = (0 + 1/2 + 2/6 + 0) / 4 =
 * 20.83%; inside the band: hours 1, 2, 4 -> coverage 0.75; MASE scale of
 * 1..168 with m = 24 (under two weeks of history) is 24, so MASE = 0.75 /
 * 24 = 0.03125. */
static void test_holdout_score_by_hand(void **state)
{
    double history[WEEK];
    const double actual[4] = {2, 2, 6, 4}, p50[4] = {2, 3, 4, 4};
    gp_forecast_point pts[4];
    gp_forecast_series s;
    (void)state;
    for (size_t i = 0; i < WEEK; i++)
        history[i] = (double)(i + 1);
    memset(&s, 0, sizeof s);
    for (size_t k = 0; k < 4; k++) {
        pts[k].t = 0;
        pts[k].p50 = p50[k];
        pts[k].p10 = p50[k] - 1;
        pts[k].p90 = p50[k] + 1;
    }
    s.points = pts;
    gp_forecast_series_score(&s, history, WEEK, actual, 4);
    assert_true(s.has_holdout);
    assert_close(s.holdout.mae, 0.75, 1e-12);
    assert_close(s.holdout_naive_week_mae, 1.0, 1e-12);
    assert_close(s.holdout.relative_mae, 0.75, 1e-12);
    assert_close(s.holdout_naive_day_mae, 143.0, 1e-12);
    assert_close(s.holdout.mape, 100 * (0.5 + 2.0 / 6) / 4, 1e-9);
    assert_close(s.holdout.coverage, 0.75, 1e-12);
    assert_close(s.holdout.mase, 0.75 / 24, 1e-12);
}

/* Which seasonal naive scales MASE, by hand on a small series: history
 * y[i] = i / 24 (the day number, integer division), so the last day
 * repeated is off by 1 every hour (in-sample MAE 1) and the last week
 * repeated by 7 (MAE 7).  Hold-out: 4 hours of 14 against a P50 of
 * 14, 14, 14, 19.6, MAE 5.6 / 4 = 1.4.  With 336 hours (exactly two weeks)
 * the scale is the last day's, MASE 1.4 / 1 = 1.4; with 337 hours (over
 * two weeks) the last week's, MASE 1.4 / 7 = 0.2. */
static void test_mase_is_scaled_by_the_week_over_two_weeks(void **state)
{
    double history[2 * WEEK + 1];
    const double actual[4] = {14, 14, 14, 14}, p50[4] = {14, 14, 14, 19.6};
    gp_forecast_point pts[4];
    gp_forecast_series s;
    (void)state;
    for (size_t i = 0; i < 2 * WEEK + 1; i++)
        history[i] = (double)(i / 24);
    for (size_t k = 0; k < 4; k++) {
        pts[k].t = 0;
        pts[k].p10 = pts[k].p50 = pts[k].p90 = p50[k];
    }
    memset(&s, 0, sizeof s);
    s.points = pts;
    gp_forecast_series_score(&s, history, 2 * WEEK, actual, 4);
    assert_close(s.holdout.mae, 1.4, 1e-12);
    assert_int_equal(s.holdout.mase_season, 24);
    assert_close(s.holdout.mase, 1.4, 1e-12);
    memset(&s, 0, sizeof s);
    s.points = pts;
    gp_forecast_series_score(&s, history, 2 * WEEK + 1, actual, 4);
    assert_int_equal(s.holdout.mase_season, 168);
    assert_close(s.holdout.mase, 0.2, 1e-12);
}

/* Errors within a billionth of the series' mean demand are exact (README,
 * "Forecast"): they are rounding, and their ratios were noise.
 *   1. A constant 7.3 with rounding-sized wobble, 7.3 + ((7i) mod 5) x
 *      1e-15 (what hourly sums of samples that straddle hours look like):
 *      every method and both baselines are off by ~1e-15, far under
 *      1e-9 x 7.3; every ratio is null (no error to beat), where it was
 *      whatever the noise gave.
 *   2. The hand-worked hold-out of test_holdout_score_by_hand (history
 *      1..168, mean 84.5, tolerance 8.45e-8; last week repeated MAE 1)
 *      with a P50 1e-9 off the actuals: exact, so relative MAE and MASE
 *      are 0, not 1e-9.
 *   3. The same with the history a constant 7.3 and actuals 7.3 + 1e-15:
 *      the forecast 7.3 and the baselines are all exact: null. */
static void test_near_exact_errors_are_exact(void **state)
{
    size_t n = 3 * WEEK;
    double y[3 * WEEK], history[WEEK];
    const double actual[4] = {2, 2, 6, 4};
    gp_forecast_point pts[4];
    gp_forecast_series s;
    gp_error err;
    (void)state;
    for (size_t i = 0; i < n; i++)
        y[i] = 7.3 + (double)((7 * i) % 5) * 1e-15;
    gp_error_clear(&err);
    assert_int_equal(gp_forecast_series_run(y, n, 0, 48, 0, NULL, &s, &err),
                     GP_OK);
    assert_true(s.backtest.mae < 1e-9 * 7.3);
    assert_true(isnan(s.backtest.relative_mae));
    assert_true(isnan(s.backtest.relative_mae_day));
    assert_true(isnan(s.backtest.mase));
    for (int m = 0; m < GP_FC_N_METHODS; m++)
        assert_true(isnan(s.method_relative_mae[m]));
    gp_forecast_series_clear(&s);

    for (size_t i = 0; i < WEEK; i++)
        history[i] = (double)(i + 1);
    for (size_t k = 0; k < 4; k++) {
        pts[k].t = 0;
        pts[k].p50 = actual[k] + 1e-9;
        pts[k].p10 = pts[k].p50 - 1;
        pts[k].p90 = pts[k].p50 + 1;
    }
    memset(&s, 0, sizeof s);
    s.points = pts;
    gp_forecast_series_score(&s, history, WEEK, actual, 4);
    assert_close(s.holdout.mae, 1e-9, 1e-15);
    assert_close(s.holdout_naive_week_mae, 1.0, 1e-12);
    assert_true(s.holdout.relative_mae == 0);
    assert_true(s.holdout.mase == 0);

    const double flat[4] = {7.3 + 1e-15, 7.3, 7.3 + 2e-15, 7.3};
    for (size_t i = 0; i < WEEK; i++)
        history[i] = 7.3;
    for (size_t k = 0; k < 4; k++)
        pts[k].p50 = 7.3;
    memset(&s, 0, sizeof s);
    s.points = pts;
    gp_forecast_series_score(&s, history, WEEK, flat, 4);
    assert_true(s.holdout.mae > 0);
    assert_true(isnan(s.holdout.relative_mae));
    assert_true(isnan(s.holdout.relative_mae_day));
    assert_true(isnan(s.holdout.mase));
}

/* The daily shape d(h) = 10 + (7h mod 11) plus one spike of +50 a day, at
 * hour 5 x day mod 24 (5 is prime to 24, so an hour of the day is hit once
 * in 24 days, never twice within 14 days).  The median of the same hour
 * over the last 7 (or 14) days then holds at most one spike among 7 values
 * and is d(h) exactly, where repeating one day or one week carries that
 * day's or week's spike into the forecast.  Worked by hand: over any
 * backtest window of whole days the seasonal median misses only the
 * spike, 50 in 24 hours (MAE 50 / 24); the last week repeated misses it
 * twice a day (the week-old spike sits at hour 5(D-7) = 5D - 35 = 5D - 11
 * mod 24, a different hour), MAE 100 / 24, so relative MAE 0.5. */
static double spiky_daily(size_t i)
{
    size_t day = i / 24, hour = i % 24;
    return 10 + (double)(hour * 7 % 11) + (hour == day * 5 % 24 ? 50 : 0);
}

static void test_seasonal_median_ignores_a_spike_a_day(void **state)
{
    size_t n = 5 * WEEK, h = 48;
    double y[5 * WEEK];
    gp_forecast_series s;
    gp_forecast_options opt;
    gp_error err;
    (void)state;
    for (size_t i = 0; i < n; i++)
        y[i] = spiky_daily(i);
    gp_error_clear(&err);
    /* the method forced: unforced, the forecast is the median of every
     * candidate's (#35), and this test is of the seasonal median */
    gp_forecast_options_init(&opt);
    opt.method = GP_FC_SEASONAL;
    assert_int_equal(gp_forecast_series_run(y, n, 0, h, 0, &opt, &s, &err),
                     GP_OK);
    assert_int_equal(s.method, GP_FC_SEASONAL);
    assert_close(s.backtest.mae, 50.0 / 24, 1e-9);
    assert_close(s.backtest.relative_mae, 0.5, 1e-9);
    for (size_t k = 0; k < h; k++) /* d(h), without the spike */
        assert_close(s.points[k].p50, 10 + (double)((n + k) % 24 * 7 % 11),
                     1e-9);
    gp_forecast_series_clear(&s);
}

/* Six weeks of the weekly pattern with one day of outage (zero demand) in
 * week 3 of 0..5.  The last week repeated brings the outage back a week
 * later inside the backtest windows; the median of the same hour over the
 * last four weeks (three equal values and a zero) is the pattern, so the
 * seasonal median wins and forecasts the pattern exactly (the re-levelled
 * variant too: the outage week's deviations are the lowest of the four,
 * so the middle two are the other weeks'). */
static void test_seasonal_median_does_not_repeat_an_outage(void **state)
{
    size_t n = 6 * WEEK, h = WEEK;
    double y[6 * WEEK];
    gp_forecast_series s;
    gp_forecast_options opt;
    gp_error err;
    (void)state;
    for (size_t i = 0; i < n; i++)
        y[i] = i >= 3 * WEEK + 48 && i < 3 * WEEK + 72 ? 0 : weekly_pattern(i);
    gp_error_clear(&err);
    gp_forecast_options_init(&opt); /* forced, as in the test above */
    opt.method = GP_FC_SEASONAL;
    assert_int_equal(gp_forecast_series_run(y, n, 0, h, 0, &opt, &s, &err),
                     GP_OK);
    assert_int_equal(s.method, GP_FC_SEASONAL);
    /* The backtest (backtest_plan): hb = 168, origins 840, 792, ..., 312
     * (48 h apart, 12 of them).  The outage [552, 576) lies inside the
     * windows from 408, 456, 504 and 552, where every method errs by the
     * day's pattern, E; the last week repeated errs by E again from 600,
     * 648 and 696, whose previous week holds it, while the median of
     * three or four weeks does not.  Both are exact elsewhere: 4E / 7E. */
    assert_close(s.method_relative_mae[GP_FC_SEASONAL], 4.0 / 7, 1e-9);
    for (size_t k = 0; k < h; k++)
        assert_close(s.points[k].p50, weekly_pattern(n + k), 1e-9);
    gp_forecast_series_clear(&s);
}

/* Independent uniform noise on [50, 150): no method can predict it, the
 * interval from backtest residuals should hold about 80% of the next four
 * weeks (nominal P10..P90; the tolerance 65-95% allows for a finite
 * backtest), and the P50 stays near the true median 100. */
static void test_interval_on_noise_covers_about_80_percent(void **state)
{
    size_t n = 12 * WEEK, h = 4 * WEEK;
    double *y = malloc((n + h) * sizeof *y);
    uint64_t seed = 12345;
    gp_forecast_series s;
    gp_error err;
    (void)state;
    for (size_t i = 0; i < n + h; i++)
        y[i] = 50 + 100 * uniform(&seed);
    gp_error_clear(&err);
    assert_int_equal(gp_forecast_series_run(y, n, 0, h, 0, NULL, &s, &err),
                     GP_OK);
    gp_forecast_series_score(&s, y, n, y + n, h);
    assert_in_range((long)(100 * s.holdout.coverage), 65, 95);
    assert_in_range((long)s.points[0].p50, 80, 120);
    /* the last week repeated has twice the error of a level on iid noise
     * (E|X - Y| = 100/3 against E|X - 100| = 25 for U[50, 150)), so the
     * chosen method must do better than it */
    assert_true(s.holdout.relative_mae < 0.9);
    gp_forecast_series_clear(&s);
    free(y);
}

/* The mean P10-P90 coverage (percent) of 40 seeded series of inference,
 * y = 50 x daily shape x 1.1^(t / 730) x (1 + N(0, 0.1)) when it grows
 * (10% a month compounded), without the growth otherwise, forecast from
 * weeks x WEEK hours of history thirteen weeks ahead. */
static long quarter_ahead_coverage(size_t weeks, int grows)
{
    size_t n = weeks * WEEK, h = 13 * WEEK;
    double *y = malloc((n + h) * sizeof *y), inside = 0;
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    assert_non_null(y);
    assert_non_null(r);
    for (unsigned long seed = 1; seed <= 40; seed++) {
        gp_forecast_series s;
        gp_error err;
        gsl_rng_set(r, seed);
        for (size_t i = 0; i < n + h; i++) {
            double shape =
                1 + 0.35 * cos(2 * GP_TEST_PI * (double)(i % 24) / 24);
            double g = grows ? pow(1.1, (double)i / 730) : 1;
            y[i] = 50 * shape * g * (1 + gsl_ran_gaussian(r, 0.1));
        }
        gp_error_clear(&err);
        assert_int_equal(gp_forecast_series_run(y, n, 0, h, 0, NULL, &s, &err),
                         GP_OK);
        gp_forecast_series_score(&s, y, n, y + n, h);
        inside += s.holdout.coverage;
        gp_forecast_series_clear(&s);
    }
    gsl_rng_free(r);
    free(y);
    return (long)(100 * inside / 40);
}

/* Beyond the backtest's week.  Inference growing 10% a month (compound,
 * y = 50 x daily shape x 1.1^(t / 730) x (1 + N(0, 0.1))), twelve weeks
 * of history and thirteen ahead, over 40 seeded series.  The regression's
 * trend levels off after four weeks' worth and the backtest's residuals
 * barely grow within its week, so without a check over longer windows
 * the interval stays about as narrow as at a week and covered 57% of the
 * held-out hours.  The chosen forecast run over eight-week windows from
 * origins with four weeks of history shows its error growing; the
 * interval widens at that rate and must cover 60% or more (65% with that
 * alone, 71% now that the growth the forecast misses over long windows is
 * added on, test_growth_that_goes_on_is_added_to_the_forecast).  Without
 * growth the check must not widen it past the 70-90% (82% now,
 * 81% without the check). */
static void test_growth_beyond_the_backtest_widens_the_interval(void **state)
{
    (void)state;
    assert_in_range(quarter_ahead_coverage(12, 1), 60, 90);
    assert_in_range(quarter_ahead_coverage(12, 0), 70, 90);
}

/* A level that moves over weeks, from a history too short to check the
 * forecast over long windows.  Four weeks of inference (the daily shape
 * above, noise of 10%) growing 10% a month compounded, thirteen weeks
 * ahead, over 40 seeded series.  Under six weeks of history leave no room
 * for long_lead_growth and under eight none for the drift, and the
 * backtest's week shows no growth of the error with lead, so the interval
 * kept its one-week width for the whole quarter and covered 59%.  The
 * history's weekly means move the same way week after week (about twice
 * as far over two weeks as over one: a trend), so the interval now adds
 * that motion, carried on at that rate, and must cover 60% or more: 64%
 * now that the forecast is the median of every candidate (#35), which
 * follows a compound growth less closely than the one method chosen
 * before (71%); 52% without the motion.  Without growth the weekly means
 * carry only noise, which does not grow with lag, and coverage must stay
 * in the 70-90%. */
static void
test_a_level_that_moves_week_by_week_widens_the_interval(void **state)
{
    (void)state;
    assert_in_range(quarter_ahead_coverage(4, 1), 60, 90);
    assert_in_range(quarter_ahead_coverage(4, 0), 70, 90);
}

/* Growth that goes on.  Twelve weeks of y = 100 x 1.1^(t / 730) x (1 + 0.2
 * sin(2 pi t / 24)), 10% a month compounded with a daily shape, no noise,
 * forecast 13 weeks ahead; the truth is the same formula.  The regression
 * carries its trend on for about four weeks' worth, so before the drift its
 * forecast ended 18% low (133.98 for 164.06 at the last hour) and was 12.9
 * off on average over the quarter.  Its error from origins two to five
 * weeks in grows the same way every time, so the drift is added: it must
 * end within 5% of the truth and be under 5 off on average (158.12 and
 * 3.84 now).  Falling demand (300 - 0.1 t) drifts down just the same. */
static void test_growth_that_goes_on_is_added_to_the_forecast(void **state)
{
    size_t n = 12 * WEEK, h = 13 * WEEK;
    double y[12 * WEEK], abs_sum = 0;
    gp_forecast_series s;
    gp_error err;
    (void)state;
    for (size_t i = 0; i < n; i++) {
        double t = (double)i;
        y[i] =
            100 * pow(1.1, t / 730) * (1 + 0.2 * sin(2 * GP_TEST_PI * t / 24));
    }
    gp_error_clear(&err);
    assert_int_equal(gp_forecast_series_run(y, n, 0, h, 0, NULL, &s, &err),
                     GP_OK);
    assert_true(s.drift > 0);
    for (size_t k = 0; k < h; k++) {
        double t = (double)(n + k);
        double truth =
            100 * pow(1.1, t / 730) * (1 + 0.2 * sin(2 * GP_TEST_PI * t / 24));
        abs_sum += fabs(s.points[k].p50 - truth);
        if (k == h - 1)
            assert_close(s.points[k].p50, truth, 0.05 * truth);
    }
    assert_true(abs_sum / (double)h < 5);
    gp_forecast_series_clear(&s);

    for (size_t i = 0; i < n; i++) {
        double t = (double)i;
        y[i] = (300 - 0.1 * t) * (1 + 0.2 * sin(2 * GP_TEST_PI * t / 24));
    }
    assert_int_equal(gp_forecast_series_run(y, n, 0, h, 0, NULL, &s, &err),
                     GP_OK);
    assert_true(s.drift < 0);
    gp_forecast_series_clear(&s);
}

/* Growth that stopped.  Demand rose 0.1 an hour for eight weeks (100 to
 * 234.4) and has been flat for the last four, with the daily shape above.
 * Over long windows from origins two to five weeks in, the forecast falls
 * behind every time, but over the last third of the history it does not:
 * no drift, and the forecast stays flat.  The last day repeated fits that
 * exactly, so the last hour (hour 23 of its day) is 234.4 x (1 + 0.2
 * sin(2 pi 23 / 24)) = 222.27.  The long windows alone would have added a
 * drift of 16% a month. */
static void test_growth_that_stopped_adds_no_drift(void **state)
{
    size_t n = 12 * WEEK, h = 13 * WEEK;
    double y[12 * WEEK];
    gp_forecast_series s;
    gp_error err;
    (void)state;
    for (size_t i = 0; i < n; i++) {
        double t = (double)i, base = i < 8 * WEEK ? 100 + 0.1 * t : 234.4;
        y[i] = base * (1 + 0.2 * sin(2 * GP_TEST_PI * t / 24));
    }
    gp_error_clear(&err);
    assert_int_equal(gp_forecast_series_run(y, n, 0, h, 0, NULL, &s, &err),
                     GP_OK);
    assert_true(s.drift == 0);
    assert_close(s.points[h - 1].p50,
                 234.4 * (1 + 0.2 * sin(2 * GP_TEST_PI * 23 / 24)), 1e-6);
    gp_forecast_series_clear(&s);
}

/* Short histories, on a random walk (steps N(0, 1) per hour) plus noise
 * N(0, 2), whose error grows with the lead (its spread at lead k is
 * sqrt(k + 4 + ...) for the last value, and more for a level over the
 * last day).  Over 200 seeded walks the 80% interval must cover 70-90% of
 * the held-out hours (the band around the nominal 80%), for:
 * - ten days, four ahead: the backtest has only windows cut short by the
 *   end of the history, whose errors are those of short leads (62% before
 *   whole windows were used for short histories, 82% now);
 * - eight days, one ahead: one backtest origin with a week before it, so
 *   no out-of-sample check of the interval (49% before the calibration's
 *   origins with three days of history, 79% now);
 * - three days, one ahead: the same, and no room for three such origins
 *   (49% before origins with a day of history, 81% now);
 * - five days, four ahead: two backtest origins cut short and no room for
 *   two whole windows, so the interval is at least the spread of demand
 *   (61% before it was, 72% now). */
static void test_short_history_interval_covers_the_whole_horizon(void **state)
{
    static const size_t cases[][2] = {
        {240, 96}, {192, 24}, {72, 24}, {120, 96}};
    double y[240 + 96];
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    (void)state;
    assert_non_null(r);
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        size_t n = cases[c][0], h = cases[c][1], inside = 0, total = 0;
        for (unsigned long seed = 1; seed <= 200; seed++) {
            gp_forecast_series s;
            gp_error err;
            double level = 100;
            gsl_rng_set(r, seed);
            for (size_t i = 0; i < n + h; i++) {
                level += gsl_ran_gaussian(r, 1);
                y[i] = level + gsl_ran_gaussian(r, 2);
            }
            gp_error_clear(&err);
            assert_int_equal(
                gp_forecast_series_run(y, n, 0, h, 0, NULL, &s, &err), GP_OK);
            for (size_t k = 0; k < h; k++, total++)
                inside += y[n + k] >= s.points[k].p10 &&
                          y[n + k] <= s.points[k].p90;
            gp_forecast_series_clear(&s);
        }
        assert_in_range((long)(100.0 * (double)inside / (double)total), 70,
                        90);
    }
    gsl_rng_free(r);
}

/* Two days of history, a ramp 0..23 each day, one ahead: the backtest's
 * one origin (hour 24, a day of history) sees the last day repeated fit
 * exactly, so its residuals are all 0 and say nothing about the interval.
 * It is then as wide as the spread of demand around its median: of the
 * 48 hours (each value 0..23 twice), the 10% quantile is 2 (position 4.7
 * of 0..47), the median 11.5 and the 90% quantile 21 (position 42.3), so
 * P10 = P50 - 9.5 (not below 0) and P90 = P50 + 9.5 around the ramp.  It
 * used to be P10 = P50 = P90. */
static void test_two_days_of_history_get_the_spread_of_demand(void **state)
{
    double y[48];
    gp_forecast_series s;
    gp_error err;
    (void)state;
    for (size_t i = 0; i < 48; i++)
        y[i] = (double)(i % 24);
    gp_error_clear(&err);
    assert_int_equal(gp_forecast_series_run(y, 48, 0, 24, 0, NULL, &s, &err),
                     GP_OK);
    assert_int_equal(s.backtest.n_origins, 1);
    for (size_t k = 0; k < 24; k++) {
        double p50 = (double)k;
        assert_close(s.points[k].p50, p50, 1e-9);
        assert_close(s.points[k].p10, p50 > 9.5 ? p50 - 9.5 : 0, 1e-9);
        assert_close(s.points[k].p90, p50 + 9.5, 1e-9);
    }
    gp_forecast_series_clear(&s);
}

/* A step that one backtest origin sees and the other does not: 72 hours at
 * 10, then 24 at 20; the level forecast (forced), horizon 24.  The backtest
 * has two origins (hours 48 and 72, a day each); at both the level is 10, so
 * the residuals are 24 zeros (origin 48) and 24 tens (origin 72).  Out of
 * sample, origin 72's tens lie outside origin 48's interval [0, 0] at any
 * scale (an infinite need) and origin 48's zeros inside origin 72's [10, 10]
 * at scale 0; the 90% quantile of {0 x 24, inf x 24} (the nominal 80% plus
 * 0.2 / 2 origins) is infinite, so the scale is clamped to 3.  The residual
 * quantiles over both origins are 0 (10%, position 4.7 of 0..47) and 10
 * (90%, position 42.3): P10 = P50 = 20 (the last day's level), P90 = 20 +
 * 3 x 10 = 50.  The quantile of two infinities used to be inf - inf = NAN,
 * which made P10 0 and P90 P50. */
static void test_interval_scale_of_an_uncoverable_origin_is_clamped(void **state)
{
    double y[96];
    gp_forecast_options opt;
    gp_forecast_series s;
    gp_error err;
    (void)state;
    for (size_t i = 0; i < 96; i++)
        y[i] = i < 72 ? 10 : 20;
    gp_forecast_options_init(&opt);
    opt.method = GP_FC_LEVEL;
    gp_error_clear(&err);
    assert_int_equal(gp_forecast_series_run(y, 96, 0, 24, 0, &opt, &s, &err),
                     GP_OK);
    assert_int_equal(s.backtest.n_origins, 2);
    assert_true(isfinite(s.interval_scale)); /* cmocka passes NAN here */
    assert_close(s.interval_scale, 3, 1e-12);
    for (size_t k = 0; k < 24; k++) {
        assert_close(s.points[k].p10, 20, 1e-9);
        assert_close(s.points[k].p50, 20, 1e-9);
        assert_close(s.points[k].p90, 50, 1e-9);
    }
    gp_forecast_series_clear(&s);
}

/* A trace built by hand: n_hours from start_hour, its pools (all with the
 * one catalog and type below, so notes can name them) and its series, each
 * unlabelled inference with zero demand to fill in; free with
 * hand_trace_free. */
static char hand_provider[] = "aws", hand_region[] = "us-east-1",
            hand_type_name[] = "g6e.xlarge";
static gp_catalog hand_catalog = {.provider = hand_provider,
                                  .region = hand_region};
static gp_instance_type hand_type = {.name = hand_type_name};

static void hand_trace(gp_trace *t, gp_pool *pools, size_t n_pools,
                       gp_series *series, size_t n_series, int64_t start_hour,
                       size_t n_hours)
{
    memset(t, 0, sizeof *t);
    memset(series, 0, n_series * sizeof *series);
    for (size_t p = 0; p < n_pools; p++) {
        pools[p].catalog = &hand_catalog;
        pools[p].type = &hand_type;
    }
    t->start_hour = start_hour;
    t->n_hours = n_hours;
    t->pools = pools;
    t->n_pools = n_pools;
    t->series = series;
    t->n_series = n_series;
    for (size_t i = 0; i < n_series; i++) {
        series[i].workload = GP_INFERENCE;
        series[i].team = series[i].project = -1;
        series[i].instance_hours = calloc(n_hours, sizeof(double));
        series[i].useful_gpu_hours = calloc(n_hours, sizeof(double));
        series[i].util_gpu_hours = calloc(n_hours, sizeof(double));
        assert_non_null(series[i].instance_hours);
        assert_non_null(series[i].useful_gpu_hours);
        assert_non_null(series[i].util_gpu_hours);
    }
}

static void hand_trace_free(gp_trace *t)
{
    for (size_t i = 0; i < t->n_series; i++) {
        free(t->series[i].instance_hours);
        free(t->series[i].useful_gpu_hours);
        free(t->series[i].util_gpu_hours);
    }
}

/* A trace built by hand: pool 0 has two inference series (two teams) that
 * are summed, and a training series with no demand before the cut (left
 * out); pool 1 has constant training demand 3.  Constant sums forecast
 * exactly: pool 0 inference 2 + 5 = 7, pool 1 training 3. */
static void test_run_sums_series_per_pool_and_workload(void **state)
{
    size_t n = 3 * WEEK;
    gp_series series[4];
    gp_pool pools[2];
    gp_trace t;
    gp_forecast *fc = NULL;
    gp_error err;
    double v[4] = {2, 5, 0, 3};
    (void)state;
    hand_trace(&t, pools, 2, series, 4, 1000, n);
    for (int i = 0; i < 4; i++) {
        series[i].pool = i < 3 ? 0 : 1;
        series[i].workload = i < 2 ? GP_INFERENCE : GP_TRAINING;
        series[i].team = i;
        for (size_t h = 0; h < n; h++)
            series[i].instance_hours[h] = v[i];
    }
    gp_error_clear(&err);
    assert_int_equal(gp_forecast_run(&t, NULL, 24, NULL, &fc, &err), GP_OK);
    assert_int_equal(fc->n_series, 2);
    assert_int_equal(fc->start_hour, 1000 + (int64_t)n);
    assert_int_equal(fc->series[0].pool, 0);
    assert_int_equal(fc->series[0].workload, GP_INFERENCE);
    assert_close(fc->series[0].points[5].p50, 7, 1e-9);
    assert_int_equal(fc->series[1].pool, 1);
    assert_int_equal(fc->series[1].workload, GP_TRAINING);
    assert_close(fc->series[1].points[23].p50, 3, 1e-9);
    /* the training series of pool 0, all zero, is left out with a note
     * (it was dropped silently); 504 hours from hour 1000 end at hour 1504
     * = 1970-03-04T16:00:00Z (62 days x 24 + 16) */
    assert_string_equal(fc->notes.items[0],
                        "aws/us-east-1/g6e.xlarge training: left out of the "
                        "forecast, as its demand is 0 in all 504 hours of "
                        "the history (to 1970-03-04T16:00:00Z)");

    /* the forecast as a trace: P50 demand of pool 1 over 24 hours is
     * 24 x 3 = 72 instance-hours */
    gp_trace *q = NULL;
    assert_int_equal(gp_forecast_trace(fc, &t, GP_FC_P50, &q, &err), GP_OK);
    assert_int_equal(q->n_hours, 24);
    assert_close(q->instance_hours[GP_TRAINING], 72, 1e-9);
    gp_forecast_trace_free(q);
    gp_forecast_free(fc);

    /* a cut outside the trace is a usage error */
    gp_forecast_options opt;
    gp_forecast_options_init(&opt);
    opt.train_until = (1000 + (int64_t)n + 5) * 3600;
    gp_error_clear(&err);
    assert_int_equal(gp_forecast_run(&t, NULL, 24, &opt, &fc, &err),
                     GP_ERR_USAGE);
    assert_null(fc);
    assert_int_equal(err.param, GP_PARAM_TRAIN_UNTIL);

    /* the least history is 2 hours: a cut 1 hour in is refused, and the
     * message names the real earliest cut, hour 1002 = 1970-02-11T18:00
     * (1002 = 41 days x 24 + 18), and the end, hour 1504 = 1970-03-04T16:00
     * (62 days x 24 + 16); a cut 2 hours in is accepted */
    opt.train_until = (1000 + 1) * 3600;
    gp_error_clear(&err);
    assert_int_equal(gp_forecast_run(&t, NULL, 24, &opt, &fc, &err),
                     GP_ERR_USAGE);
    assert_string_equal(err.message,
                        "must be a whole hour from 1970-02-11T18:00:00Z (2 "
                        "hours after the trace's start, the least history) "
                        "to before 1970-03-04T16:00:00Z (the trace's end), "
                        "got 1970-02-11T17:00:00Z");
    opt.train_until = (1000 + 2) * 3600;
    assert_int_equal(gp_forecast_run(&t, NULL, 24, &opt, &fc, &err), GP_OK);
    assert_int_equal(fc->history_hours, 2);
    gp_forecast_free(fc);

    /* with a cut inside, the hours after it are scored: constant demand,
     * so the hold-out MAE is 0 */
    opt.train_until = (1000 + (int64_t)n - 24) * 3600;
    series[2].instance_hours[n - 2] = 4; /* demand after the cut only */
    assert_int_equal(gp_forecast_run(&t, NULL, 24, &opt, &fc, &err), GP_OK);
    assert_string_equal(fc->notes.items[0],
                        "aws/us-east-1/g6e.xlarge training: left out of the "
                        "forecast, as its demand is 0 in all 480 hours of "
                        "the history (to 1970-03-03T16:00:00Z); its 4 "
                        "instance-hours come after 1970-03-03T16:00:00Z");
    assert_true(fc->series[0].has_holdout);
    assert_int_equal(fc->series[0].holdout.n_points, 24);
    assert_close(fc->series[0].holdout.mae, 0, 1e-9);
    gp_forecast_free(fc);
    hand_trace_free(&t);
}

/* Two pools in one trace of 3 weeks: pool 0 has demand from the first
 * hour, pool 1 (a pool that appeared later) only from hour 200.  Pool 1's
 * forecast must be the forecast of its own 304 hours alone, as if the
 * trace had begun when it did: the 200 hours of zeros before it are not
 * its history.  The same invariance, by definition, for P10, P50 and P90
 * of every hour; and a note names the pool and its first hour. */
static void test_a_pool_that_appears_later_is_forecast_from_its_start(
    void **state)
{
    size_t n = 3 * WEEK, lead = 200, h = 48;
    gp_series series[2];
    gp_pool pools[2];
    gp_trace t;
    gp_forecast *fc = NULL;
    gp_forecast_series alone;
    gp_forecast_options opt;
    gp_error err;
    uint64_t seed = 7;
    (void)state;
    hand_trace(&t, pools, 2, series, 2, 0, n);
    for (int i = 0; i < 2; i++) {
        series[i].pool = (uint32_t)i;
        for (size_t k = i ? lead : 0; k < n; k++)
            series[i].instance_hours[k] =
                weekly_pattern(k) + 20 * uniform(&seed);
    }
    gp_forecast_options_init(&opt);
    opt.threads = 1;
    gp_error_clear(&err);
    assert_int_equal(gp_forecast_run(&t, NULL, h, &opt, &fc, &err), GP_OK);
    assert_int_equal(fc->n_series, 2);
    assert_int_equal(fc->series[0].history_hours, n);
    assert_int_equal(fc->series[1].history_hours, n - lead);
    assert_int_equal(gp_forecast_series_run(series[1].instance_hours + lead,
                                            n - lead, (int64_t)lead, h, 0,
                                            &opt, &alone, &err),
                     GP_OK);
    assert_int_equal(fc->series[1].method, alone.method);
    for (size_t k = 0; k < h; k++) {
        assert_int_equal(fc->series[1].points[k].t, alone.points[k].t);
        assert_close(fc->series[1].points[k].p10, alone.points[k].p10, 1e-12);
        assert_close(fc->series[1].points[k].p50, alone.points[k].p50, 1e-12);
        assert_close(fc->series[1].points[k].p90, alone.points[k].p90, 1e-12);
    }
    /* hour 200 = 1970-01-09T08:00:00Z; the pool as hand_trace names it */
    assert_int_equal(fc->notes.count, 1);
    assert_non_null(strstr(fc->notes.items[0],
                           "aws/us-east-1/g6e.xlarge inference: no demand "
                           "before 1970-01-09T08:00:00Z, so it is forecast "
                           "from the 304 hours since"));
    gp_forecast_series_clear(&alone);
    gp_forecast_free(fc);
    /* a trace built in memory without catalogs (bench_forecast's): the
     * pool by its index */
    pools[1].catalog = NULL;
    assert_int_equal(gp_forecast_run(&t, NULL, h, &opt, &fc, &err), GP_OK);
    assert_int_equal(fc->notes.count, 1);
    assert_non_null(strstr(fc->notes.items[0],
                           "pool 1 inference: no demand before "
                           "1970-01-09T08:00:00Z"));
    gp_forecast_free(fc);
    hand_trace_free(&t);
}

/* A pool that appears late, scored on hours held out after its history.
 * Hours 0-151 are empty, 152-175 hold 4, 176-199 hold 6 (its 48 hours of
 * history), and 200-223 (held out by train_until) hold 7.  Worked by hand
 * on those 48 hours:
 *   baselines: under a week of history, so both repeat the last day, 6:
 *              MAE |7 - 6| = 1 each;
 *   MASE scale: under two weeks, so the one-day naive's in-sample MAE,
 *              |6 - 4| over hours 24-47 = 2.
 * Counting the trace's 152 empty hours would have repeated the last week
 * (hours 32-199, zeros for the first 24) for a baseline MAE of 7, and a
 * scale of (24 x 4 + 24 x 2) / 176 = 0.818. */
static void test_a_late_pool_is_scored_against_its_own_history(void **state)
{
    size_t n = 224, cut = 200;
    gp_series series;
    gp_pool pool;
    gp_trace t;
    gp_forecast *fc = NULL;
    gp_forecast_options opt;
    gp_error err;
    (void)state;
    hand_trace(&t, &pool, 1, &series, 1, 0, n);
    for (size_t k = 152; k < n; k++)
        series.instance_hours[k] = k < 176 ? 4 : k < cut ? 6 : 7;
    gp_forecast_options_init(&opt);
    opt.threads = 1;
    opt.train_until = (int64_t)cut * 3600;
    gp_error_clear(&err);
    assert_int_equal(gp_forecast_run(&t, NULL, 24, &opt, &fc, &err), GP_OK);
    assert_int_equal(fc->n_series, 1);
    const gp_forecast_series *s = &fc->series[0];
    assert_int_equal(s->history_hours, 48);
    assert_true(s->has_holdout);
    assert_int_equal(s->holdout.n_points, 24);
    assert_close(s->holdout_naive_week_mae, 1, 1e-12);
    assert_close(s->holdout_naive_day_mae, 1, 1e-12);
    assert_true(s->holdout.mae > 0);
    assert_close(s->holdout.relative_mae, s->holdout.mae, 1e-12);
    assert_close(s->holdout.relative_mae_day, s->holdout.mae, 1e-12);
    assert_close(s->holdout.mase, s->holdout.mae / 2, 1e-12);
    gp_forecast_free(fc);
    hand_trace_free(&t);
}

/* A trace whose last row ends at 00:30, half-way through its last hour:
 * three weeks (504 hours) of 10 instances from hour 0, then half an hour
 * of 10 (5 instance-hours in hour 504, end_s = 504.5 hours).  That hour
 * is left out: the history is the 504 whole hours, the forecast starts at
 * hour 504 and is 10 in every hour (a constant; with the half hour kept,
 * the last day repeated would put 5 at every 24th hour).  With a cut a day
 * before the end, the hold-out is the 24 whole hours after it, not 25. */
static void test_a_partial_last_hour_is_left_out(void **state)
{
    size_t n = 3 * WEEK + 1;
    gp_series series;
    gp_pool pool;
    gp_trace t;
    gp_forecast *fc = NULL;
    gp_forecast_options opt;
    gp_error err;
    (void)state;
    hand_trace(&t, &pool, 1, &series, 1, 0, n);
    for (size_t k = 0; k < n; k++)
        series.instance_hours[k] = k + 1 < n ? 10 : 5;
    t.end_s = (3 * WEEK + 0.5) * 3600;
    gp_forecast_options_init(&opt);
    opt.threads = 1;
    gp_error_clear(&err);
    assert_int_equal(gp_forecast_run(&t, NULL, 48, &opt, &fc, &err), GP_OK);
    assert_int_equal(fc->history_hours, 3 * WEEK);
    assert_int_equal(fc->start_hour, 3 * WEEK);
    assert_int_equal(fc->series[0].history_hours, 3 * WEEK);
    for (size_t k = 0; k < 48; k++)
        assert_close(fc->series[0].points[k].p50, 10, 1e-9);
    assert_close(fc->partial_end_s, (3 * WEEK + 0.5) * 3600, 1e-9);
    /* hour 504 = 1970-01-22T00:00:00Z; the second note says the constant
     * leaves no error to beat (test_near_exact_errors_are_exact) */
    assert_int_equal(fc->notes.count, 2);
    assert_non_null(strstr(fc->notes.items[0],
                           "the trace ends at 1970-01-22T00:30:00Z, part-way "
                           "through the hour from 1970-01-22T00:00:00Z"));
    gp_forecast_free(fc);

    opt.train_until = (3 * WEEK - 24) * 3600;
    assert_int_equal(gp_forecast_run(&t, NULL, 48, &opt, &fc, &err), GP_OK);
    assert_int_equal(fc->series[0].holdout.n_points, 24);
    assert_close(fc->series[0].holdout.mae, 0, 1e-9);
    gp_forecast_free(fc);

    /* the last whole hour's end is no longer a cut inside the trace */
    opt.train_until = 3 * WEEK * 3600;
    assert_int_equal(gp_forecast_run(&t, NULL, 48, &opt, &fc, &err),
                     GP_ERR_USAGE);
    assert_null(fc);

    /* a trace that ends on a whole hour keeps it (end_s = n hours) */
    t.end_s = (double)n * 3600;
    opt.train_until = 0;
    assert_int_equal(gp_forecast_run(&t, NULL, 48, &opt, &fc, &err), GP_OK);
    assert_int_equal(fc->history_hours, n);
    assert_close(fc->partial_end_s, 0, 0);
    gp_forecast_free(fc);
    hand_trace_free(&t);
}

/* One hour of history, 5 ahead: the notes count in the singular where it
 * is one ("1 hour", not "1 hours"). */
static void test_notes_say_1_hour(void **state)
{
    gp_series series;
    gp_pool pool;
    gp_trace t;
    gp_forecast *fc = NULL;
    gp_error err;
    (void)state;
    hand_trace(&t, &pool, 1, &series, 1, 0, 1);
    series.instance_hours[0] = 3;
    gp_error_clear(&err);
    assert_int_equal(gp_forecast_run(&t, NULL, 5, NULL, &fc, &err), GP_OK);
    assert_int_equal(fc->notes.count, 2);
    assert_string_equal(fc->notes.items[0],
                        "only 1 hour of history: weekly seasonality is not "
                        "modelled and the backtest is short");
    assert_string_equal(fc->notes.items[1],
                        "the horizon (5 hours) is over four times the "
                        "history (1 hour): treat the intervals with care");
    gp_forecast_free(fc);
    hand_trace_free(&t);
}

/* Hour k of a daily wave with a little deterministic noise: 10 + 4
 * sin(2 pi k / 24) + (k^2 mod 7) / 2, for tests that need more than a
 * constant for the methods to differ. */
static double wave(size_t k)
{
    return 10 + 4 * sin(2 * GP_TEST_PI * (double)k / 24) +
           (double)(k * k % 7) / 2;
}

/* A trace whose first row starts at 00:30, half-way through its first
 * hour: hour 0 holds half an hour of demand (5), hours 1..72 the wave
 * above (start_s = 0.5 hours).  That hour is left out: the forecast is the
 * one of the same 72 hours in a trace that starts on the whole hour 1
 * (start_s 0, built in memory), point for point, with a note.  Kept (the
 * same trace with start_s 0, as every trace was read before), hour 0 is a
 * dip in the history's first day and the forecast differs (its P50 by
 * more than 1 in some hour).  The earliest
 * --train-until is then the first whole hour + 2 = hour 3, and a trace
 * from 00:30 to 01:30 covers no whole hour. */
static void test_a_partial_first_hour_is_left_out(void **state)
{
    size_t n = 1 + 3 * 24;
    gp_series sa, sb;
    gp_pool pool;
    gp_trace a, b;
    gp_forecast *fa = NULL, *fb = NULL;
    gp_forecast_options opt;
    gp_error err;
    (void)state;
    hand_trace(&a, &pool, 1, &sa, 1, 0, n);
    hand_trace(&b, &pool, 1, &sb, 1, 1, n - 1);
    sa.instance_hours[0] = 5;
    for (size_t k = 1; k < n; k++)
        sa.instance_hours[k] = sb.instance_hours[k - 1] = wave(k);
    a.start_s = 0.5 * 3600;
    gp_forecast_options_init(&opt);
    opt.threads = 1;
    gp_error_clear(&err);
    assert_int_equal(gp_forecast_run(&a, NULL, 48, &opt, &fa, &err), GP_OK);
    assert_int_equal(gp_forecast_run(&b, NULL, 48, &opt, &fb, &err), GP_OK);
    assert_int_equal(fa->history_start_hour, 1);
    assert_int_equal(fa->history_hours, n - 1);
    assert_int_equal(fa->start_hour, (int64_t)n);
    assert_int_equal(fa->series[0].history_hours, n - 1);
    assert_int_equal(fa->series[0].method, fb->series[0].method);
    for (size_t k = 0; k < 48; k++) {
        assert_int_equal(fa->series[0].points[k].t, fb->series[0].points[k].t);
        assert_close(fa->series[0].points[k].p10, fb->series[0].points[k].p10,
                     0);
        assert_close(fa->series[0].points[k].p50, fb->series[0].points[k].p50,
                     0);
        assert_close(fa->series[0].points[k].p90, fb->series[0].points[k].p90,
                     0);
    }
    assert_close(fa->partial_start_s, 1800, 0);
    assert_close(fb->partial_start_s, 0, 0);
    /* the short-history note, and this one before it */
    assert_int_equal(fa->notes.count, fb->notes.count + 1);
    assert_string_equal(fa->notes.items[0],
                        "the trace starts at 1970-01-01T00:30:00Z, part-way "
                        "through the hour from 1970-01-01T00:00:00Z: that "
                        "hour is left out (partly covered, it would read as "
                        "a dip in demand), so the history starts at "
                        "1970-01-01T01:00:00Z");
    gp_forecast_free(fa);

    /* kept, the half hour changes the forecast */
    a.start_s = 0;
    assert_int_equal(gp_forecast_run(&a, NULL, 48, &opt, &fa, &err), GP_OK);
    assert_int_equal(fa->history_hours, n);
    double most = 0;
    for (size_t k = 0; k < 48; k++) {
        double d =
            fabs(fa->series[0].points[k].p50 - fb->series[0].points[k].p50);
        most = d > most ? d : most;
    }
    /* The property: keeping the half hour changes the forecast by more
     * than rounding could (0.1 is a hundredth of the wave's level of 10).
     * How much it changes is not worked out anywhere: the dip changes the
     * backtest's choice (0.21 at most today, 1.23 when one method was
     * chosen alone, before #35's combinations), so a bound nearer would
     * record that choice, not the property. */
    assert_true(most > 0.1);
    gp_forecast_free(fa);
    gp_forecast_free(fb);

    /* the least history is 2 whole hours: from hour 1, cuts from hour 3 */
    a.start_s = 0.5 * 3600;
    opt.train_until = 2 * 3600;
    gp_error_clear(&err);
    assert_int_equal(gp_forecast_run(&a, NULL, 48, &opt, &fa, &err),
                     GP_ERR_USAGE);
    assert_null(fa);
    assert_non_null(strstr(err.message, "from 1970-01-01T03:00:00Z (2 hours "
                                        "after the start of the trace's "
                                        "first whole hour"));
    opt.train_until = 3 * 3600;
    assert_int_equal(gp_forecast_run(&a, NULL, 48, &opt, &fa, &err), GP_OK);
    assert_int_equal(fa->series[0].history_hours, 2);
    assert_int_equal(fa->series[0].holdout.n_points, 48);
    gp_forecast_free(fa);
    hand_trace_free(&a);
    hand_trace_free(&b);

    /* 00:30 to 01:30: part of hour 0 and part of hour 1, no whole one */
    hand_trace(&a, &pool, 1, &sa, 1, 0, 2);
    sa.instance_hours[0] = sa.instance_hours[1] = 5;
    a.start_s = 0.5 * 3600;
    a.end_s = 1.5 * 3600;
    opt.train_until = 0;
    gp_error_clear(&err);
    assert_int_equal(gp_forecast_run(&a, NULL, 48, &opt, &fa, &err),
                     GP_ERR_INPUT);
    assert_null(fa);
    assert_string_equal(err.message,
                        "the trace runs from 1970-01-01T00:30:00Z to "
                        "1970-01-01T01:30:00Z and covers no whole clock hour "
                        "(it starts part-way through the hour from "
                        "1970-01-01T00:00:00Z): a forecast needs at least "
                        "one whole hour of history");
    hand_trace_free(&a);
}

/* Two pools in a trace of 97 hours: pool 0 has the wave above from hour
 * 0; pool 1's rows start at 24:30 (start_s 24.5 hours,
 * a new pool's first job), so hour 24 holds half an hour of it (5) and
 * hours 25..96 the wave.  Hour 24 is left out of pool 1's history as a
 * partial first hour of the trace would be: its forecast is the one of
 * its 72 whole hours alone (gp_forecast_series_run from hour 25), point
 * for point, with a note that replaces the "no demand before" one.  Kept
 * (start_s 0, not known, as every trace was read before), hour 24
 * is a dip in its first day and the forecast differs; it is kept too when the
 * pool has a row before 24:30 (of 0 instances, from 23:30).  When the partial
 * hour is all of the demand in the history (the cut 2 hours in, at hour
 * 26, leaves hour 25 alone after it; here hour 25 is emptied), it is kept.
 * A series whose rows start in the trace's own partial first hour is
 * cut once, by the trace's rule. */
static void test_a_partial_first_hour_of_a_pool_is_left_out(void **state)
{
    size_t n = 25 + 3 * 24, lead = 24, h = 48;
    gp_series series[2];
    gp_pool pools[2];
    gp_trace t;
    gp_forecast *fc = NULL;
    gp_forecast_series alone;
    gp_forecast_options opt;
    gp_error err;
    (void)state;
    hand_trace(&t, pools, 2, series, 2, 0, n);
    series[1].pool = 1;
    for (size_t k = 0; k < n; k++) {
        series[0].instance_hours[k] = wave(k);
        if (k > lead)
            series[1].instance_hours[k] = wave(k);
    }
    series[1].instance_hours[lead] = 5;
    series[1].start_s = (lead + 0.5) * 3600;
    gp_forecast_options_init(&opt);
    opt.threads = 1;
    gp_error_clear(&err);
    assert_int_equal(gp_forecast_run(&t, NULL, h, &opt, &fc, &err), GP_OK);
    assert_int_equal(fc->n_series, 2);
    assert_int_equal(fc->history_hours, n);
    assert_int_equal(fc->series[0].history_hours, n);
    assert_close(fc->series[0].partial_start_s, 0, 0);
    assert_int_equal(fc->series[1].history_hours, n - lead - 1);
    assert_close(fc->series[1].partial_start_s, (lead + 0.5) * 3600, 0);
    assert_int_equal(gp_forecast_series_run(series[1].instance_hours + lead + 1,
                                            n - lead - 1, (int64_t)lead + 1, h,
                                            0, &opt, &alone, &err),
                     GP_OK);
    assert_int_equal(fc->series[1].method, alone.method);
    for (size_t k = 0; k < h; k++) {
        assert_int_equal(fc->series[1].points[k].t, alone.points[k].t);
        assert_close(fc->series[1].points[k].p10, alone.points[k].p10, 0);
        assert_close(fc->series[1].points[k].p50, alone.points[k].p50, 0);
        assert_close(fc->series[1].points[k].p90, alone.points[k].p90, 0);
    }
    /* hour 24 = 1970-01-02T00:00:00Z; the only pool note (the other is the
     * short history's) */
    assert_int_equal(fc->notes.count, 2);
    assert_string_equal(fc->notes.items[1],
                        "aws/us-east-1/g6e.xlarge inference: its rows "
                        "start at 1970-01-02T00:30:00Z, part-way through "
                        "the hour from 1970-01-02T00:00:00Z: that hour is "
                        "left out (partly covered, it would read as a dip "
                        "in demand), so it is forecast from the 72 hours "
                        "since 1970-01-02T01:00:00Z");
    gp_forecast_free(fc);

    /* kept, the half hour changes the forecast */
    series[1].start_s = 0;
    assert_int_equal(gp_forecast_run(&t, NULL, h, &opt, &fc, &err), GP_OK);
    assert_int_equal(fc->series[1].history_hours, n - lead);
    double most = 0;
    for (size_t k = 0; k < h; k++) {
        double d = fabs(fc->series[1].points[k].p50 - alone.points[k].p50) +
                   fabs(fc->series[1].points[k].p10 - alone.points[k].p10);
        most = d > most ? d : most;
    }
    /* the property, as in test_a_partial_first_hour_is_left_out: it
     * changes by more than rounding (0.1 is a hundredth of the level);
     * 1.88 today, from another method winning the backtest, which no
     * formula gives */
    assert_true(most > 0.1);
    assert_non_null(strstr(fc->notes.items[1], "no demand before "
                                               "1970-01-02T00:00:00Z"));
    gp_forecast_free(fc);
    /* nor is it left out when the pool's rows start earlier (a row of 0
     * instances from 23:30 the day before): the hour was seen whole */
    series[1].start_s = (lead - 0.5) * 3600;
    assert_int_equal(gp_forecast_run(&t, NULL, h, &opt, &fc, &err), GP_OK);
    assert_int_equal(fc->series[1].history_hours, n - lead);
    assert_close(fc->series[1].partial_start_s, 0, 0);
    gp_forecast_free(fc);
    gp_forecast_series_clear(&alone);

    /* all of the demand before the cut at hour 26: hour 24 is kept */
    series[1].start_s = (lead + 0.5) * 3600;
    series[1].instance_hours[lead + 1] = 0;
    opt.train_until = (int64_t)(lead + 2) * 3600;
    assert_int_equal(gp_forecast_run(&t, NULL, h, &opt, &fc, &err), GP_OK);
    assert_int_equal(fc->series[1].history_hours, 2);
    assert_close(fc->series[1].partial_start_s, 0, 0);
    gp_forecast_free(fc);
    opt.train_until = 0;
    series[1].instance_hours[lead + 1] = wave(lead + 1);

    /* the trace starts at 00:30 too (pool 1 from hour 0, half an hour):
     * the trace's rule leaves hour 0 out, pool 1's history starts at hour
     * 1 as pool 0's does, and only the trace's note is given */
    t.start_s = series[1].start_s = 0.5 * 3600;
    for (size_t k = 1; k < n; k++)
        series[1].instance_hours[k] = wave(k);
    series[1].instance_hours[0] = 5;
    assert_int_equal(gp_forecast_run(&t, NULL, h, &opt, &fc, &err), GP_OK);
    assert_int_equal(fc->series[1].history_hours, n - 1);
    assert_close(fc->series[1].partial_start_s, 0, 0);
    for (size_t i = 0; i < fc->notes.count; i++)
        assert_null(strstr(fc->notes.items[i], "its rows start"));
    gp_forecast_free(fc);
    hand_trace_free(&t);
}

/* Every allocation failing in turn, alone (gp_alloc_fail_only): the run
 * fails cleanly (NULL result, out-of-memory status), or goes on having
 * lost only a note and says so; ASan checks that nothing leaks. */
static void allocation_failures_leak_nothing(size_t n, size_t horizon)
{
    gp_series series;
    gp_pool pool;
    gp_trace t;
    hand_trace(&t, &pool, 1, &series, 1, 0, n);
    for (size_t h = 0; h < n; h++)
        series.instance_hours[h] = weekly_pattern(h);
    gp_forecast_options opt;
    gp_forecast_options_init(&opt);
    opt.threads = 1;
    bool succeeded = false;
    for (long k = 0; k < 100000 && !succeeded; k++) {
        gp_forecast *fc = NULL;
        gp_error err;
        gp_error_clear(&err);
        gp_alloc_fail_only(k);
        gp_status st = gp_forecast_run(&t, NULL, horizon, &opt, &fc, &err);
        long refused = gp_alloc_refused();
        gp_alloc_fail_after(-1);
        if (st == GP_OK) {
            /* a run that went on past a refused allocation lost only a
             * note, and says so */
            if (refused && !says_a_warning_was_lost(&fc->notes))
                fail_msg("allocation %ld refused, yet it went on", k);
            succeeded = !refused;
            gp_forecast_free(fc);
        } else {
            assert_int_equal(st, GP_ERR_NOMEM);
            assert_null(fc);
        }
    }
    assert_true(succeeded);
    hand_trace_free(&t);
}

/* Three weeks, two days ahead; ten days, four ahead, whose interval also
 * comes from whole windows; two days, one ahead, whose interval is at
 * least the spread of demand; and a day, too short to backtest. */
static void test_allocation_failures_leak_nothing(void **state)
{
    (void)state;
    allocation_failures_leak_nothing(3 * WEEK, 48);
    allocation_failures_leak_nothing(240, 96);
    allocation_failures_leak_nothing(48, 24);
    allocation_failures_leak_nothing(24, 24);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mase_scale_is_the_seasonal_naive_in_sample_mae),
        cmocka_unit_test(test_weekly_pattern_is_forecast_by_the_last_week),
        cmocka_unit_test(test_constant_is_forecast_exactly),
        cmocka_unit_test(test_a_tie_on_rounding_goes_to_the_first_candidate),
        cmocka_unit_test(test_growth_compounds_monthly),
        cmocka_unit_test(test_regression_trend_levels_off_after_its_window),
        cmocka_unit_test(
            test_burst_profile_counts_how_often_how_large_how_long),
        cmocka_unit_test(test_holdout_score_by_hand),
        cmocka_unit_test(test_mase_is_scaled_by_the_week_over_two_weeks),
        cmocka_unit_test(test_near_exact_errors_are_exact),
        cmocka_unit_test(test_seasonal_median_ignores_a_spike_a_day),
        cmocka_unit_test(test_seasonal_median_does_not_repeat_an_outage),
        cmocka_unit_test(test_interval_on_noise_covers_about_80_percent),
        cmocka_unit_test(test_growth_beyond_the_backtest_widens_the_interval),
        cmocka_unit_test(
            test_a_level_that_moves_week_by_week_widens_the_interval),
        cmocka_unit_test(test_growth_that_goes_on_is_added_to_the_forecast),
        cmocka_unit_test(test_growth_that_stopped_adds_no_drift),
        cmocka_unit_test(test_short_history_interval_covers_the_whole_horizon),
        cmocka_unit_test(test_two_days_of_history_get_the_spread_of_demand),
        cmocka_unit_test(
            test_interval_scale_of_an_uncoverable_origin_is_clamped),
        cmocka_unit_test(test_run_sums_series_per_pool_and_workload),
        cmocka_unit_test(
            test_a_pool_that_appears_later_is_forecast_from_its_start),
        cmocka_unit_test(test_a_late_pool_is_scored_against_its_own_history),
        cmocka_unit_test(test_a_partial_last_hour_is_left_out),
        cmocka_unit_test(test_a_partial_first_hour_is_left_out),
        cmocka_unit_test(test_a_partial_first_hour_of_a_pool_is_left_out),
        cmocka_unit_test(test_notes_say_1_hour),
        cmocka_unit_test(test_allocation_failures_leak_nothing),
    };
    gsl_set_error_handler_off();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
