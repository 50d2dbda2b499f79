/*
 * writer_xlsx_forecast.c: the workbook's Forecast sheet: each series'
 * method and accuracy (the hold-out's too, with the train-until
 * parameter), the forecast's notes, the demand day by day with one chart
 * of the history and the forecast; and the hidden Forecast data sheet at
 * the end, the hourly P10/P50/P90 of every series.
 */
#include "forecast.h"
#include "report.h"
#include "util.h"
#include "writer_xlsx.h"

#include <stdio.h>
#include <string.h>

/* ---- Forecast ----------------------------------------------------------- */

/* A series' name: "instance_type workload (provider region)". */
static void series_name(const gp_trace *t, uint32_t pool, gp_workload w,
                        char *buf, size_t size)
{
    const gp_pool *p = &t->pools[pool];
    snprintf(buf, size, "%s %s (%s %s)", p->type->name, gp_workload_name(w),
             p->catalog->provider, p->catalog->region);
}

/* The Forecast sheet's series table. */
struct fc_layout {
    bool
        holdout; /* a series has a hold-out score (the train-until parameter) */
    size_t n_cols; /* the series table's columns */
};

/* The series table from `row`: each series' method and backtest, and its
 * hold-out's scores when there is one; fills lay's holdout and n_cols and
 * returns the table's last row. */
static size_t forecast_series(gp_xl *x, xl_sheet *s, size_t row,
                              struct fc_layout *lay)
{
    static const char *const hs[] = {"Series",
                                     "Method",
                                     "Backtest relative MAE",
                                     "MASE",
                                     "MAPE (%)",
                                     "Interval coverage",
                                     "History mean (instance-hours/h)",
                                     "Hold-out hours",
                                     "Hold-out MAE (instance-hours/h)",
                                     "Hold-out MAE, last week repeated",
                                     "Hold-out MAE, last day repeated",
                                     "Hold-out relative MAE (vs last week)",
                                     "Hold-out relative MAE (vs last day)",
                                     "Hold-out MASE",
                                     "Hold-out MAPE (%)",
                                     "Hold-out interval coverage"};
    const gp_forecast *fc = x->r->forecast;
    size_t first = row;
    char name[160];

    /* with a hold-out (the train-until parameter), its scores beside the
     * backtest's */
    lay->holdout = false;
    for (size_t i = 0; i < fc->n_series; i++)
        lay->holdout = lay->holdout || fc->series[i].has_holdout;
    lay->n_cols = lay->holdout ? 16 : 7;
    for (size_t i = 0; i < fc->n_series; i++) {
        const gp_forecast_series *fs = &fc->series[i];
        series_name(x->t, fs->pool, fs->workload, name, sizeof name);
        row++;
        gp_xl_text(s, row, 0, name, x->f.text);
        gp_xl_text(s, row, 1, gp_forecast_method_name(fs->method), x->f.text);
        gp_xl_num(s, row, 2, fs->backtest.relative_mae, x->f.num);
        gp_xl_num(s, row, 3, fs->backtest.mase, x->f.num);
        gp_xl_num(s, row, 4, fs->backtest.mape, x->f.num);
        gp_xl_num(s, row, 5, fs->backtest.coverage, x->f.pct);
        gp_xl_num(s, row, 6, fs->history_mean, x->f.num);
        if (!lay->holdout || !fs->has_holdout)
            continue;
        const gp_forecast_accuracy *h = &fs->holdout;
        gp_xl_num(s, row, 7, (double)h->n_points, x->f.count);
        gp_xl_num(s, row, 8, h->mae, x->f.num);
        gp_xl_num(s, row, 9, fs->holdout_naive_week_mae, x->f.num);
        gp_xl_num(s, row, 10, fs->holdout_naive_day_mae, x->f.num);
        gp_xl_num(s, row, 11, h->relative_mae, x->f.num);
        gp_xl_num(s, row, 12, h->relative_mae_day, x->f.num);
        gp_xl_num(s, row, 13, h->mase, x->f.num);
        gp_xl_num(s, row, 14, h->mape, x->f.num);
        gp_xl_num(s, row, 15, h->coverage, x->f.pct);
    }
    if (row > first) {
        gp_xl_table(x, s, first, row, 0, hs, lay->n_cols);
    } else {
        worksheet_write_string(s->ws, (lxw_row_t)row + 1, 0,
                               "no series had demand to forecast", x->f.note);
        row++; /* (the notes go under it) */
    }
    return row;
}

/* Under the series table that ends at `row`: the hold-out's note and the
 * forecast's own, paragraphs across the sheet; returns the last row. */
static size_t forecast_notes(gp_xl *x, xl_sheet *s, size_t row,
                             struct fc_layout *lay)
{
    const gp_forecast *fc = x->r->forecast;

    if (lay->holdout) {
        char a[32], note[320];
        gp_format_time(fc->start_hour * 3600, a, sizeof a);
        snprintf(note, sizeof note,
                 "Hold-out: the forecast from %s scored against the trace's "
                 "hours after it; relative MAE = its MAE / the MAE of the "
                 "last week (or day) before %s repeated, blank when that is "
                 "exact",
                 a, a);
        gp_xl_para(s, row + 1, note, x->f.note_wrap);
        row++;
    }
    /* the forecast's own notes (growth applied, short history, ...), which
     * Summary lists with the run's warnings, beside its figures too */
    for (size_t i = 0; i < fc->notes.count; i++) {
        gp_xl_para(s, row + 1, fc->notes.items[i], x->f.note_wrap);
        row++;
    }
    return row;
}

/* The daily table from `row` (its heading): each day's demand in the
 * trace and the forecast's quantiles, every series summed
 * (gp_report_forecast_days), and one line chart of them beside it, so
 * that a reader sees where the history ends and the forecast starts.
 * Returns the last row. */
static size_t forecast_daily(gp_xl *x, xl_sheet *s, size_t row)
{
    static const char *const hd[] = {
        "Day", "Hours", "Demand in the trace (instance-hours)", "P10", "P50",
        "P90"};
    static const char *const names[] = {"Demand in the trace",
                                        "Forecast P10", "Forecast P50",
                                        "Forecast P90"};
    static const lxw_color_t colors[] = {0x404040, 0x9DC3E6, 0x2E75B6,
                                         0x9DC3E6};
    gp_forecast_day *days;
    size_t n;

    if (gp_report_forecast_days(x->r->forecast, x->t, &days, &n) != GP_OK) {
        x->nomem = true;
        return row;
    }
    worksheet_write_string(s->ws, (lxw_row_t)row++, 0,
                           "Day by day, every series summed", x->f.h2);
    gp_xl_para(s, row++,
               "instance-hours a day: the trace's (history, and with a "
               "hold-out the hours after the cut) and the forecast's, its "
               "hourly P10s and P90s summed (a low and a high case, not the "
               "day's own quantiles); a day the history or the horizon covers "
               "in part sums the hours it covers.  Each series' hourly "
               "P10/P50/P90 are on the sheet Forecast data, hidden so as "
               "not to print thousands of rows (unhide it from the sheet "
               "tabs' menu).",
               x->f.note_wrap);
    size_t head = row;
    for (size_t i = 0; i < n; i++) {
        const gp_forecast_day *d = &days[i];
        row++;
        gp_xl_num(s, row, 0, gp_xl_when((double)d->start), x->f.day);
        gp_xl_num(s, row, 1, (double)d->hours, x->f.count);
        gp_xl_num(s, row, 2, d->actual, x->f.num);
        gp_xl_num(s, row, 3, d->p10, x->f.num);
        gp_xl_num(s, row, 4, d->p50, x->f.num);
        gp_xl_num(s, row, 5, d->p90, x->f.num);
    }
    gp_free(days);
    if (row == head)
        return row;
    s->width[0] = s->width[0] > 12 ? s->width[0] : 12;
    gp_xl_table(x, s, head, row, 0, hd, 6);
    lxw_chart *ch = workbook_add_chart(x->wb, LXW_CHART_LINE);
    for (int k = 0; k < 4; k++) {
        lxw_chart_series *se = chart_add_series(ch, NULL, NULL);
        lxw_chart_line line;
        memset(&line, 0, sizeof line);
        chart_series_set_categories(se, s->name, (lxw_row_t)head + 1, 0,
                                    (lxw_row_t)row, 0);
        chart_series_set_values(se, s->name, (lxw_row_t)head + 1,
                                (lxw_col_t)(2 + k), (lxw_row_t)row,
                                (lxw_col_t)(2 + k));
        chart_series_set_name(se, names[k]);
        line.color = colors[k];
        line.width = k == 0 || k == 2 ? 2.25 : 1;
        line.dash_type = k == 1 || k == 3 ? LXW_CHART_LINE_DASH_DASH : 0;
        chart_series_set_line(se, &line);
    }
    chart_title_set_name(ch, "Instance-hours a day: the trace, then the "
                             "forecast");
    chart_axis_set_num_format(ch->x_axis, "mm-dd");
    chart_axis_set_interval_unit(ch->x_axis, 7);
    chart_axis_set_interval_tick(ch->x_axis, 7);
    chart_legend_set_position(ch, LXW_CHART_LEGEND_BOTTOM);
    gp_xl_insert_chart(x, s, head, 7, ch, 1.6);
    return row;
}

/* The sheet at the workbook's end with each series' hourly P10/P50/P90,
 * which the Forecast sheet sums by day: for reading and for other tools,
 * left out of print (hidden: thousands of rows). */
void gp_xl_sheet_forecast_data(gp_xl *x)
{
    static const char *const hp[] = {"Series", "Hour", "P10", "P50", "P90"};
    const gp_forecast *fc = x->r->forecast;
    char name[160];
    xl_sheet s;
    size_t row = 3;

    gp_xl_sheet_new(x, &s, "Forecast data");
    worksheet_hide(s.ws);
    gp_xl_heading(x, &s, "Hourly forecast",
                  "each series' forecast hour by hour, instance-hours "
                  "demanded; the Forecast sheet sums it by day.  Left out of "
                  "print: the sheet is hidden (unhide it from the sheet "
                  "tabs' menu to see it).");
    if (!fc) { /* the Forecast sheet says why */
        gp_xl_not_computed(x, &s, 3, "the Forecast sheet says why");
        gp_xl_fit(&s);
        return;
    }
    size_t head = row;
    for (size_t i = 0; i < fc->n_series; i++) {
        const gp_forecast_series *fs = &fc->series[i];
        series_name(x->t, fs->pool, fs->workload, name, sizeof name);
        for (size_t h = 0; h < fc->n_hours && row < XL_ROW_CAP; h++) {
            const gp_forecast_point *p = &fs->points[h];
            row++;
            worksheet_write_string(s.ws, (lxw_row_t)row, 0, name, x->f.text);
            gp_xl_num(&s, row, 1, gp_xl_when((double)p->t), x->f.when);
            gp_xl_num(&s, row, 2, p->p10, x->f.num);
            gp_xl_num(&s, row, 3, p->p50, x->f.num);
            gp_xl_num(&s, row, 4, p->p90, x->f.num);
        }
        if (row >= XL_ROW_CAP)
            break;
    }
    s.width[0] = 40;
    s.width[1] = 17;
    if (row > head)
        gp_xl_table(x, &s, head, row, 0, hp, 5);
    worksheet_freeze_panes(s.ws, 4, 1);
    gp_xl_fit(&s);
}

/* The forecast per pool and workload: accuracy (with the train-until
 * parameter, the hold-out's too, as the JSON's holdout block) and the
 * forecast's notes under it, then the demand day by day, every series
 * summed, with one chart of the history and the forecast. */
void gp_xl_sheet_forecast(gp_xl *x)
{
    const gp_forecast *fc = x->r->forecast;
    struct fc_layout lay;
    xl_sheet s;

    gp_xl_sheet_new(x, &s, "Forecast");
    gp_xl_heading(x, &s, "Demand forecast",
                  "instance-hours demanded per hour, by pool and workload: the "
                  "median (P50) and an 80% band (P10 to P90)");
    if (!fc) {
        gp_xl_not_computed(x, &s, 3,
                           x->r->forecast_failed
                               ? "the 13-week forecast could not be made: the "
                                 "warnings on Summary say why"
                               : "gpuplan forecast " GP_PARAM_TEXT("out") " writes the forecast "
                                 "workbook");
        gp_xl_fit(&s);
        return;
    }
    size_t row = forecast_series(x, &s, 3, &lay);
    row = forecast_notes(x, &s, row, &lay);
    forecast_daily(x, &s, row + 2);
    worksheet_freeze_panes(s.ws, 4, 1);
    gp_xl_fit(&s);
}
