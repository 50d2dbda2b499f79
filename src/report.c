/*
 * report.c: the forecast a simulate or recommend workbook shows, made by
 * the command and handed to the writer.
 */
#include "report.h"
#include "forecast.h"
#include "recommend.h"

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
