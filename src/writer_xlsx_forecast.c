/*
 * writer_xlsx_forecast.c: the workbook's Forecast sheet: each series'
 * method and accuracy (the hold-out's too, with the train-until parameter), the
 * forecast's notes, the hourly P10/P50/P90 and a band chart per series.
 */
#include "forecast.h"
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

/* Where the Forecast sheet's tables went, for the charts beside them. */
struct fc_layout {
    bool
        holdout; /* a series has a hold-out score (the train-until parameter) */
    size_t n_cols;    /* the series table's columns */
    size_t chart_top; /* the first band chart's row */
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
 * forecast's own; sets lay->chart_top and returns the last row. */
static size_t forecast_notes(gp_xl *x, xl_sheet *s, size_t row,
                             struct fc_layout *lay)
{
    const gp_forecast *fc = x->r->forecast;

    size_t table_end = row; /* the notes are the rows after it */
    if (lay->holdout) {
        char a[32], note[320];
        gp_format_time(fc->start_hour * 3600, a, sizeof a);
        snprintf(note, sizeof note,
                 "Hold-out: the forecast from %s scored against the trace's "
                 "hours after it; relative MAE = its MAE / the MAE of the "
                 "last week (or day) before %s repeated, blank when that is "
                 "exact",
                 a, a);
        worksheet_write_string(s->ws, (lxw_row_t)row + 1, 0, note, x->f.note);
        row++;
    }
    /* the forecast's own notes (growth applied, short history, ...), which
     * Summary lists with the run's warnings, beside its figures too */
    for (size_t i = 0; i < fc->notes.count; i++) {
        worksheet_write_string(s->ws, (lxw_row_t)row + 1, 0, fc->notes.items[i],
                               x->f.note);
        row++;
    }
    /* the charts start beside the series table, or, when any note is
     * under it (the hold-out's, the forecast's), a row below the last
     * one: a note runs right over the empty cells, so however long it is
     * it does not run under a chart */
    lay->chart_top = row > table_end ? row + 2 : 3;
    return row;
}

/* The hourly P10/P50/P90 of every series from `row` (its heading).
 * Returns the first data row of each series (a new array, gp_free), or
 * NULL with x->nomem set. */
static size_t *forecast_hourly(gp_xl *x, xl_sheet *s, size_t row)
{
    static const char *const hp[] = {"Series", "Hour",    "P10",    "P50",
                                     "P90",    "P10-P50", "P50-P90"};
    const gp_forecast *fc = x->r->forecast;
    char name[160];

    worksheet_write_string(s->ws, (lxw_row_t)row++, 0, "Hourly forecast",
                           x->f.h2);
    size_t head = row;
    size_t *start = gp_xl_calloc(x, fc->n_series + 1, sizeof *start);
    for (size_t i = 0; i < fc->n_series; i++) {
        const gp_forecast_series *fs = &fc->series[i];
        series_name(x->t, fs->pool, fs->workload, name, sizeof name);
        if (start)
            start[i] = row + 1;
        for (size_t h = 0; h < fc->n_hours && row < XL_ROW_CAP; h++) {
            const gp_forecast_point *p = &fs->points[h];
            row++;
            worksheet_write_string(s->ws, (lxw_row_t)row, 0, name, x->f.text);
            gp_xl_num(s, row, 1, gp_xl_when((double)p->t), x->f.when);
            gp_xl_num(s, row, 2, p->p10, x->f.num);
            gp_xl_num(s, row, 3, p->p50, x->f.num);
            gp_xl_num(s, row, 4, p->p90, x->f.num);
            /* the band's layers, for the stacked-area chart (values, not
             * formulas: thousands of rows of them would slow every
             * recalculation for nothing a reader would change) */
            gp_xl_num(s, row, 5, p->p50 - p->p10, x->f.num);
            gp_xl_num(s, row, 6, p->p90 - p->p50, x->f.num);
        }
    }
    s->width[1] = 17;
    if (row > head)
        gp_xl_table(x, s, head, row, 0, hp, 7);
    return start;
}

/* The band charts beside the tables, the series' hourly rows from
 * start[i] on. */
static void forecast_charts(gp_xl *x, xl_sheet *s, const size_t *start,
                            const struct fc_layout *lay)
{
    const gp_forecast *fc = x->r->forecast;
    char name[160];

    /* a band chart per series, up to four: P10 invisible, then the two
     * halves of the band stacked on it */
    for (size_t i = 0; start && i < fc->n_series && i < 4; i++) {
        const gp_forecast_series *fs = &fc->series[i];
        if (fc->n_hours == 0)
            break;
        lxw_row_t a = (lxw_row_t)start[i];
        lxw_row_t z = (lxw_row_t)(start[i] + fc->n_hours - 1);
        lxw_chart *ch = workbook_add_chart(x->wb, LXW_CHART_AREA_STACKED);
        static const char *const names[] = {"P10", "P10 to P50", "P50 to P90"};
        static const lxw_col_t cols[] = {2, 5, 6};
        static const lxw_color_t colors[] = {0xFFFFFF, 0x5B9BD5, 0xBDD7EE};
        for (int k = 0; k < 3; k++) {
            lxw_chart_series *se = chart_add_series(ch, NULL, NULL);
            lxw_chart_fill fill;
            lxw_chart_line line;
            memset(&fill, 0, sizeof fill);
            memset(&line, 0, sizeof line);
            chart_series_set_categories(se, s->name, a, 1, z, 1);
            chart_series_set_values(se, s->name, a, cols[k], z, cols[k]);
            chart_series_set_name(se, names[k]);
            fill.color = colors[k];
            fill.none = k == 0;
            chart_series_set_fill(se, &fill);
            line.none = 1;
            chart_series_set_line(se, &line);
        }
        series_name(x->t, fs->pool, fs->workload, name, sizeof name);
        char title[200];
        snprintf(title, sizeof title,
                 "Forecast, %s: instance-hours per "
                 "hour",
                 name);
        chart_title_set_name(ch, title);
        chart_axis_set_num_format(ch->x_axis, "mm-dd");
        chart_axis_set_interval_unit(ch->x_axis,
                                     fc->n_hours > 24 * 21 ? 168 : 24);
        chart_axis_set_interval_tick(ch->x_axis,
                                     fc->n_hours > 24 * 21 ? 168 : 24);
        chart_legend_set_position(ch, LXW_CHART_LEGEND_BOTTOM);
        chart_legend_delete_series(ch, (int16_t[]){0, -1});
        gp_xl_insert_chart(x, s, lay->chart_top + i * 18, lay->n_cols + 1, ch,
                           1.8);
    }
}

/* The forecast per pool and workload: accuracy (with the train-until parameter,
 * the hold-out's too, as the JSON's holdout block) and the forecast's notes
 * under it, hourly quantiles, and a band chart per series. */
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
    size_t *start = forecast_hourly(x, &s, row + 2);
    forecast_charts(x, &s, start, &lay);
    gp_free(start);
    worksheet_freeze_panes(s.ws, 4, 1);
    gp_xl_fit(&s);
}
