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

#endif
