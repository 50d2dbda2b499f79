/*
 * report.c: the forecast a simulate or recommend workbook shows, made by
 * the command and handed to the writer, and the sums the writer shows of
 * it: the daily table and the headline.
 */
#include "report.h"
#include "forecast.h"
#include "checks.h"
#include "recommend.h"
#include "util.h"

#include <math.h>
#include <string.h>

void gp_report_forecast(const gp_run_info *info, const gp_recommendation *rec,
                        const gp_progress *progress, gp_forecast **out,
                        gp_warnings *warnings)
{
    gp_forecast_options fo;
    gp_error err;
    char why[sizeof err.source + sizeof err.field + sizeof err.message + 8];

    *out = NULL;
    if (rec && rec->forecast)
        return;
    gp_forecast_options_init(&fo);
    if (progress)
        fo.progress = *progress;
    if (rec && rec->backtest)
        fo.train_until = rec->train_until;
    gp_error_clear(&err);
    if (gp_forecast_run(info->trace, info->scenario, 13 * 168, &fo, out,
                        &err) == GP_OK)
        return;
    *out = NULL;
    gp_error_format_marked(&err, why, sizeof why);
    gp_warnings_add(warnings,
                    "the workbook's Forecast sheet is empty: the 13-week "
                    "forecast could not be made (%s)",
                    why);
}

/* The day (its midnight, epoch seconds) of a clock hour. */
static int64_t day_of(int64_t hour)
{
    int64_t s = hour * 3600;
    return s - ((s % 86400) + 86400) % 86400;
}

/* Adds the trace's demand for fc's series in its hours from the history's
 * start to the horizon's end into days[] (from `first`, a midnight). */
static void add_actual(const gp_forecast *fc, const gp_trace *t,
                       int64_t first, gp_forecast_day *days)
{
    int64_t a = fc->history_start_hour;
    int64_t z = fc->start_hour + (int64_t)fc->n_hours;
    if (t->start_hour > a)
        a = t->start_hour;
    if (t->start_hour + (int64_t)t->n_hours < z)
        z = t->start_hour + (int64_t)t->n_hours;
    for (int64_t hr = a; hr < z; hr++) {
        gp_forecast_day *d = &days[(day_of(hr) - first) / 86400];
        size_t h = (size_t)(hr - t->start_hour);
        if (isnan(d->actual))
            d->actual = 0;
        for (size_t i = 0; i < fc->n_series; i++)
            d->actual += gp_trace_pool_demand(t, fc->series[i].pool,
                                              fc->series[i].workload, h);
    }
}

gp_status gp_report_forecast_days(const gp_forecast *fc, const gp_trace *t,
                                  gp_forecast_day **days, size_t *n)
{
    int64_t a = fc->history_start_hour;
    int64_t z = fc->start_hour + (int64_t)fc->n_hours;
    if (fc->start_hour < a)
        a = fc->start_hour;
    int64_t first = day_of(a);
    *n = z > a ? (size_t)((day_of(z - 1) - first) / 86400 + 1) : 0;
    *days = gp_calloc(*n ? *n : 1, sizeof **days);
    if (!*days)
        return GP_ERR_NOMEM;
    for (size_t i = 0; i < *n; i++) {
        gp_forecast_day *d = &(*days)[i];
        d->start = first + (int64_t)i * 86400;
        d->actual = d->p10 = d->p50 = d->p90 = NAN;
    }
    for (int64_t hr = a; hr < z; hr++) {
        bool in = (hr >= fc->history_start_hour &&
                   hr < fc->history_start_hour + (int64_t)fc->history_hours) ||
                  hr >= fc->start_hour;
        (*days)[(day_of(hr) - first) / 86400].hours += in;
    }
    add_actual(fc, t, first, *days);
    for (size_t h = 0; h < fc->n_hours; h++) {
        gp_forecast_day *d =
            &(*days)[(day_of(fc->start_hour + (int64_t)h) - first) / 86400];
        if (isnan(d->p50))
            d->p10 = d->p50 = d->p90 = 0;
        for (size_t i = 0; i < fc->n_series; i++) {
            d->p10 += fc->series[i].points[h].p10;
            d->p50 += fc->series[i].points[h].p50;
            d->p90 += fc->series[i].points[h].p90;
        }
    }
    return GP_OK;
}

void gp_report_forecast_headline(const gp_run_info *info,
                                 const gp_forecast *fc,
                                 gp_forecast_headline *h)
{
    memset(h, 0, sizeof *h);
    for (size_t i = 0; i < fc->n_series; i++)
        for (size_t k = 0; k < fc->n_hours; k++) {
            h->p10 += fc->series[i].points[k].p10;
            h->p50 += fc->series[i].points[k].p50;
            h->p90 += fc->series[i].points[k].p90;
        }
    if (info->today <= 0)
        return;
    h->past = (fc->start_hour + (int64_t)fc->n_hours) * 3600 <= info->today;
    if (!h->past)
        gp_check_stale_forecast(info->trace, info->today, fc->start_hour,
                                fc->n_hours, "the forecast is", &h->stale);
}
