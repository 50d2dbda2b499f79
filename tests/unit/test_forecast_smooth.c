/*
 * test_forecast_smooth.c: the smoothing candidates (forecast_smooth.c) and
 * the nested backtest's honest score (forecast_series.c, issue #35), each
 * forced on a series whose right forecast is known by hand.
 */
/* cmocka needs these before it */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>

#include "check.h"
#include "forecast.h"
#include "gpuplan.h"

#define WEEK 168

/* Runs the series y[0, n) h hours ahead with method m forced. */
static void run_forced(const double *y, size_t n, size_t h, int m,
                       gp_forecast_series *s)
{
    gp_forecast_options opt;
    gp_error err;
    gp_forecast_options_init(&opt);
    opt.method = m;
    opt.threads = 1;
    gp_error_clear(&err);
    assert_int_equal(gp_forecast_series_run(y, n, 0, h, 0, &opt, s, &err),
                     GP_OK);
}

/* Random walk with drift on the line y = 10 + 0.5 t over four weeks
 * (n = 672, all of it the fitting window): no season (the line less its
 * moving average is 0, so the strength is 0), the slope from the first to
 * the last hour is 0.5, and the trend is damped by phi = 1 - 1/672 an hour
 * as the regression's, so k + 1 hours ahead the forecast is
 *   10 + 0.5 x 671 + 0.5 x phi (1 - phi^(k+1)) / (1 - phi).
 * The backtest (backtest_plan) has 12 origins a day apart; the nested
 * backtest chooses on the older six and scores on the newer six. */
static void test_drift_continues_a_line_damped(void **state)
{
    size_t n = 4 * WEEK, h = WEEK;
    double y[4 * WEEK];
    gp_forecast_series s;
    (void)state;
    for (size_t i = 0; i < n; i++)
        y[i] = 10 + 0.5 * (double)i;
    run_forced(y, n, h, GP_FC_DRIFT, &s);
    assert_int_equal(s.method, GP_FC_DRIFT);
    double phi = 1 - 1.0 / 672;
    for (size_t k = 0; k < h; k++) {
        double steps = phi * (1 - pow(phi, (double)(k + 1))) / (1 - phi);
        assert_close(s.points[k].p50, 10 + 0.5 * 671 + 0.5 * steps, 1e-9);
    }
    assert_int_equal(s.backtest.n_origins, 6);
    assert_int_equal(s.backtest.n_points, 6 * WEEK);
    gp_forecast_series_clear(&s);
}

/* Simple exponential smoothing on four weeks of a pattern that repeats
 * every week exactly (and not every day): the weekly season is taken out
 * (the 2 x 168 moving average of a 168-periodic series is its weekly mean,
 * so the profile is the pattern less its mean and the remainder is 0),
 * the rest is that constant mean, which SES forecasts exactly, and the
 * season put back gives the pattern itself. */
static void test_ses_forecasts_a_weekly_season_exactly(void **state)
{
    size_t n = 4 * WEEK, h = WEEK;
    double y[4 * WEEK];
    gp_forecast_series s;
    (void)state;
    for (size_t i = 0; i < n; i++)
        y[i] = 10 + (double)((i % WEEK) * 7 % 23);
    run_forced(y, n, h, GP_FC_SES, &s);
    assert_int_equal(s.method, GP_FC_SES);
    for (size_t k = 0; k < h; k++)
        assert_close(s.points[k].p50, 10 + (double)(k * 7 % 23), 1e-9);
    gp_forecast_series_clear(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_drift_continues_a_line_damped),
        cmocka_unit_test(test_ses_forecasts_a_weekly_season_exactly),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
