/*
 * report.h: what a run's reports show that has to be computed first, by
 * the command, before a writer formats it (writers compute nothing).
 */
#ifndef GP_REPORT_H
#define GP_REPORT_H

#include "writers.h"

/* The forecast a simulate or recommend run's workbook shows on its
 * Forecast sheet: 13 weeks from the trace's end (with rec's train_until,
 * from the hours before the cut, as the plan was).  A forward plan's own
 * forecast (rec->forecast) is shown instead, and *out stays NULL.  When the
 * forecast cannot be made (a trace that ends in the last hour of 9999, one
 * that covers no whole hour) *out is NULL and a warning in `warnings` says
 * why and that the sheet is empty: the report is still written, and the
 * caller shows the warning as the run's (stderr, inputs.warnings, Summary).
 * `progress` (may be NULL) sees the forecast stage.  The caller frees
 * *out (gp_forecast_free). */
void gp_report_forecast(const gp_run_info *info,
                        const struct gp_recommendation *rec,
                        const gp_progress *progress, struct gp_forecast **out,
                        gp_warnings *warnings);

/* One UTC day of a forecast's history and horizon, its series summed. */
typedef struct gp_forecast_day {
    int64_t start;      /* epoch seconds of its midnight */
    size_t hours;       /* of its hours, those in the history or horizon */
    double actual;      /* instance-hours the trace holds in them; NAN on a
                           day past the trace */
    double p10, p50, p90; /* the hourly quantiles summed; NAN on a day
                             before the horizon */
} gp_forecast_day;

/* The days from the forecast's first hour of history to the end of its
 * horizon, with the demand the trace t holds for the forecast's series
 * (what the forecast learned from and, with a hold-out, what it is scored
 * against) and the forecast's quantiles summed: the Forecast sheet's
 * daily table and chart.  A day the history or the horizon covers in part
 * sums the hours it covers.  Sets *days (a new array, gp_free) and *n;
 * returns GP_ERR_NOMEM, *days NULL, when memory runs out. */
gp_status gp_report_forecast_days(const struct gp_forecast *fc,
                                  const gp_trace *t, gp_forecast_day **days,
                                  size_t *n);

/* What the workbook's forecast headline says. */
typedef struct gp_forecast_headline {
    double p10, p50, p90; /* instance-hours, every series and hour summed */
    /* the horizon ended before the run's today: no headline, only a line
     * saying so */
    bool past;
    /* the stale trace's warning the forecast command gives (the forecast
     * starts over 30 days before today), to stand beside the headline;
     * empty otherwise; freed with gp_warnings_clear */
    gp_warnings stale;
} gp_forecast_headline;

/* Fills *h for the forecast fc of a run (info: its trace and today). */
void gp_report_forecast_headline(const gp_run_info *info,
                                 const struct gp_forecast *fc,
                                 gp_forecast_headline *h);

#endif
