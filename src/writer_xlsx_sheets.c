/*
 * writer_xlsx_sheets.c: the workbook's sheets about what the money did
 * over time and who spent it: Monthly cost (amortized and cash, with the
 * cost by purchasing model day by day), Forecast (P10-P90 band),
 * Utilization (commitment utilization and coverage over time), Spot (per
 * job run), Chargeback (team, project, workload) and Idle.  The workbook
 * and its helpers are in writer_xlsx.c.
 */
#include "forecast.h"
#include "idle.h"
#include "writer_xlsx.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define XL_NOT_BILLED                                                          \
    "nothing was billed hour by hour in this run: forecast, and recommend "    \
    "--forward, which plans on forecast demand"

/* Days (or hours, for windows under three days) the time-series sheets
 * are bucketed by. */
static size_t bucket_hours(const gp_ledger *l)
{
    return l->n_hours >= 72 ? 24 : 1;
}

/* A ledger's hours summed into buckets of `bh` hours aligned to UTC
 * midnight (for days); calls `row` per bucket with the sums. */
typedef struct xl_bucket {
    int64_t start_hour;
    gp_ledger_hour sum;
} xl_bucket;

/* Sums the ledger's hours into buckets; returns a new array (gp_free)
 * and its length in *n, or NULL with xl->nomem set. */
static xl_bucket *buckets_of(gp_xl *xl, const gp_ledger *l, size_t bh,
                             size_t *n)
{
    int64_t first = l->start_hour -
                    ((l->start_hour % (int64_t)bh) + (int64_t)bh) % (int64_t)bh;
    int64_t end = l->start_hour + (int64_t)l->n_hours;
    size_t count = (size_t)((end - first + (int64_t)bh - 1) / (int64_t)bh);
    xl_bucket *b = gp_xl_calloc(xl, count, sizeof *b);

    *n = 0;
    if (!b)
        return NULL;
    for (size_t i = 0; i < count; i++)
        b[i].start_hour = first + (int64_t)(i * bh);
    for (size_t h = 0; h < l->n_hours; h++) {
        size_t i = (size_t)((l->start_hour + (int64_t)h - first) / (int64_t)bh);
        const gp_ledger_hour *x = &l->hours[h];
        gp_ledger_hour *s = &b[i].sum;
        s->on_demand_cost += x->on_demand_cost;
        s->reserved_cost += x->reserved_cost;
        s->savings_plan_cost += x->savings_plan_cost;
        s->spot_cost += x->spot_cost;
        s->all_on_demand_cost += x->all_on_demand_cost;
        s->od_equiv_launched += x->od_equiv_launched;
        s->od_equiv_covered += x->od_equiv_covered;
        s->reserved_used += x->reserved_used;
        s->reserved_purchased += x->reserved_purchased;
        s->sp_used += x->sp_used;
        s->sp_committed += x->sp_committed;
    }
    *n = count;
    return b;
}

/* ---- Monthly cost ----------------------------------------------------------
 */

void gp_xl_sheet_monthly(gp_xl *x)
{
    static const char *const hm[] = {
        "Strategy",          "Month",           "On-demand",
        "Reserved",          "Savings plans",   "Spot",
        "Total (amortized)", "Reserved (cash)", "Savings plans (cash)",
        "Total (cash)"};
    static const char *const hd[] = {"Day",           "On-demand", "Reserved",
                                     "Savings plans", "Spot",      "Total"};
    const gp_report *r = x->r;
    xl_sheet s;
    size_t row = 3, first;

    gp_xl_sheet_new(x, &s, "Monthly cost");
    gp_xl_heading(x, &s, "Cost by month and purchasing model",
                  "amortized: commitments spread over the hours they are "
                  "active; cash: upfront payments in the month they are paid, "
                  "those paid before the window left out; a month holds its "
                  "hours in the window only");
    if (r->n_ledgers == 0) {
        gp_xl_not_computed(x, &s, 3, XL_NOT_BILLED);
        gp_xl_fit(&s);
        return;
    }
    first = row;
    for (size_t k = 0; k < r->n_ledgers; k++) {
        const gp_ledger *l = r->ledgers[k];
        for (size_t i = 0; i < l->n_months; i++) {
            const gp_ledger_month *m = &l->months[i];
            char name[16];
            snprintf(name, sizeof name, "%04d-%02d", m->year, m->month);
            row++;
            gp_xl_text(&s, row, 0, l->strategy, x->f.text);
            gp_xl_text(&s, row, 1, name, x->f.text);
            gp_xl_num(&s, row, 2, m->on_demand_cost, x->f.money);
            gp_xl_num(&s, row, 3, m->reserved_cost, x->f.money);
            gp_xl_num(&s, row, 4, m->savings_plan_cost, x->f.money);
            gp_xl_num(&s, row, 5, m->spot_cost, x->f.money);
            gp_xl_num(&s, row, 6, m->total_cost, x->f.money);
            gp_xl_num(&s, row, 7, m->reserved_cash, x->f.money);
            gp_xl_num(&s, row, 8, m->savings_plan_cash, x->f.money);
            gp_xl_num(&s, row, 9, m->total_cash, x->f.money);
        }
    }
    gp_xl_table(x, &s, first, row, 0, hm, 10);

    /* the proposed ledger day by day, for the chart */
    const gp_ledger *l = r->ledgers[r->proposed];
    size_t bh = bucket_hours(l), nb;
    xl_bucket *b = buckets_of(x, l, bh, &nb);
    row += 2;
    char title[160];
    snprintf(title, sizeof title, "%s by purchasing model: %s (amortized)",
             bh == 24 ? "Daily cost" : "Hourly cost", l->strategy);
    worksheet_write_string(s.ws, (lxw_row_t)row++, 0, title, x->f.h2);
    first = row;
    for (size_t i = 0; b && i < nb; i++) {
        const gp_ledger_hour *h = &b[i].sum;
        row++;
        gp_xl_num(&s, row, 0, gp_xl_when((double)b[i].start_hour * 3600),
                  bh == 24 ? x->f.day : x->f.when);
        gp_xl_num(&s, row, 1, h->on_demand_cost, x->f.money);
        gp_xl_num(&s, row, 2, h->reserved_cost, x->f.money);
        gp_xl_num(&s, row, 3, h->savings_plan_cost, x->f.money);
        gp_xl_num(&s, row, 4, h->spot_cost, x->f.money);
        char c1[XL_CELL_SIZE], c2[XL_CELL_SIZE], f[192];
        gp_xl_cell(c1, row, 1, false);
        gp_xl_cell(c2, row, 4, false);
        snprintf(f, sizeof f, "=SUM(%s:%s)", c1, c2);
        gp_xl_formula(&s, row, 5, f,
                      h->on_demand_cost + h->reserved_cost +
                          h->savings_plan_cost + h->spot_cost,
                      x->f.money);
    }
    gp_free(b);
    if (bh == 1)
        s.width[0] = 17;
    else if (s.width[0] < 12)
        s.width[0] = 12;
    if (row > first) {
        static const char *const hd1[] = {
            "Hour", "On-demand", "Reserved", "Savings plans", "Spot", "Total"};
        gp_xl_table(x, &s, first, row, 0, bh == 24 ? hd : hd1, 6);
        lxw_chart *ch = workbook_add_chart(x->wb, LXW_CHART_COLUMN_STACKED);
        for (size_t c = 1; c <= 4; c++) {
            lxw_chart_series *se = chart_add_series(ch, NULL, NULL);
            chart_series_set_categories(se, s.name, (lxw_row_t)first + 1, 0,
                                        (lxw_row_t)row, 0);
            chart_series_set_values(se, s.name, (lxw_row_t)first + 1,
                                    (lxw_col_t)c, (lxw_row_t)row, (lxw_col_t)c);
            chart_series_set_name(se, hd[c]);
        }
        chart_title_set_name(ch, title);
        gp_xl_money_axis(ch->y_axis);
        chart_axis_set_num_format(ch->x_axis,
                                  bh == 24 ? "mm-dd" : "mm-dd hh:mm");
        chart_legend_set_position(ch, LXW_CHART_LEGEND_BOTTOM);
        chart_set_style(ch, 10);
        gp_xl_insert_chart(x, &s, first, 7, ch, 1.8);
    }
    worksheet_freeze_panes(s.ws, 4, 0);
    gp_xl_fit(&s);
}

/* ---- Forecast
 * ---------------------------------------------------------------- */

/* A series' name: "instance_type workload (provider region)". */
static void series_name(const gp_trace *t, uint32_t pool, gp_workload w,
                        char *buf, size_t size)
{
    const gp_pool *p = &t->pools[pool];
    snprintf(buf, size, "%s %s (%s %s)", p->type->name, gp_workload_name(w),
             p->catalog->provider, p->catalog->region);
}

/* The forecast per pool and workload: accuracy (with --train-until, the
 * hold-out's too, as the JSON's holdout block) and the forecast's notes
 * under it, hourly quantiles, and a band chart per series. */
void gp_xl_sheet_forecast(gp_xl *x)
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
    static const char *const hp[] = {"Series", "Hour",    "P10",    "P50",
                                     "P90",    "P10-P50", "P50-P90"};
    const gp_forecast *fc = x->r->forecast;
    xl_sheet s;
    size_t row = 3, first;
    char name[160];

    gp_xl_sheet_new(x, &s, "Forecast");
    gp_xl_heading(x, &s, "Demand forecast",
                  "instance-hours demanded per hour, by pool and workload: the "
                  "median (P50) and an 80% band (P10 to P90)");
    if (!fc) {
        gp_xl_not_computed(x, &s, 3,
                           x->r->forecast_failed
                               ? "the 13-week forecast could not be made: the "
                                 "warnings on Summary say why"
                               : "gpuplan forecast --out writes the forecast "
                                 "workbook");
        gp_xl_fit(&s);
        return;
    }
    /* with a hold-out (--train-until), its scores beside the backtest's */
    bool holdout = false;
    for (size_t i = 0; i < fc->n_series; i++)
        holdout = holdout || fc->series[i].has_holdout;
    size_t n_cols = holdout ? 16 : 7;
    first = row;
    for (size_t i = 0; i < fc->n_series; i++) {
        const gp_forecast_series *fs = &fc->series[i];
        series_name(x->t, fs->pool, fs->workload, name, sizeof name);
        row++;
        gp_xl_text(&s, row, 0, name, x->f.text);
        gp_xl_text(&s, row, 1, gp_forecast_method_name(fs->method), x->f.text);
        gp_xl_num(&s, row, 2, fs->backtest.relative_mae, x->f.num);
        gp_xl_num(&s, row, 3, fs->backtest.mase, x->f.num);
        gp_xl_num(&s, row, 4, fs->backtest.mape, x->f.num);
        gp_xl_num(&s, row, 5, fs->backtest.coverage, x->f.pct);
        gp_xl_num(&s, row, 6, fs->history_mean, x->f.num);
        if (!holdout || !fs->has_holdout)
            continue;
        const gp_forecast_accuracy *h = &fs->holdout;
        gp_xl_num(&s, row, 7, (double)h->n_points, x->f.count);
        gp_xl_num(&s, row, 8, h->mae, x->f.num);
        gp_xl_num(&s, row, 9, fs->holdout_naive_week_mae, x->f.num);
        gp_xl_num(&s, row, 10, fs->holdout_naive_day_mae, x->f.num);
        gp_xl_num(&s, row, 11, h->relative_mae, x->f.num);
        gp_xl_num(&s, row, 12, h->relative_mae_day, x->f.num);
        gp_xl_num(&s, row, 13, h->mase, x->f.num);
        gp_xl_num(&s, row, 14, h->mape, x->f.num);
        gp_xl_num(&s, row, 15, h->coverage, x->f.pct);
    }
    if (row > first) {
        gp_xl_table(x, &s, first, row, 0, hs, n_cols);
    } else {
        worksheet_write_string(s.ws, (lxw_row_t)row + 1, 0,
                               "no series had demand to forecast", x->f.note);
        row++; /* (the notes go under it) */
    }
    size_t table_end = row; /* the notes are the rows after it */
    if (holdout) {
        char a[32], note[320];
        gp_format_time(fc->start_hour * 3600, a, sizeof a);
        snprintf(note, sizeof note,
                 "Hold-out: the forecast from %s scored against the trace's "
                 "hours after it; relative MAE = its MAE / the MAE of the "
                 "last week (or day) before %s repeated, blank when that is "
                 "exact",
                 a, a);
        worksheet_write_string(s.ws, (lxw_row_t)row + 1, 0, note, x->f.note);
        row++;
    }
    /* the forecast's own notes (growth applied, short history, ...), which
     * Summary lists with the run's warnings, beside its figures too */
    for (size_t i = 0; i < fc->notes.count; i++) {
        worksheet_write_string(s.ws, (lxw_row_t)row + 1, 0, fc->notes.items[i],
                               x->f.note);
        row++;
    }
    /* the charts start beside the series table, or, when any note is
     * under it (the hold-out's, the forecast's), a row below the last
     * one: a note runs right over the empty cells, so however long it is
     * it does not run under a chart */
    size_t chart_top = row > table_end ? row + 2 : 3;
    row += 2;
    worksheet_write_string(s.ws, (lxw_row_t)row++, 0, "Hourly forecast",
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
            worksheet_write_string(s.ws, (lxw_row_t)row, 0, name, x->f.text);
            gp_xl_num(&s, row, 1, gp_xl_when((double)p->t), x->f.when);
            gp_xl_num(&s, row, 2, p->p10, x->f.num);
            gp_xl_num(&s, row, 3, p->p50, x->f.num);
            gp_xl_num(&s, row, 4, p->p90, x->f.num);
            /* the band's layers, for the stacked-area chart (values, not
             * formulas: thousands of rows of them would slow every
             * recalculation for nothing a reader would change) */
            gp_xl_num(&s, row, 5, p->p50 - p->p10, x->f.num);
            gp_xl_num(&s, row, 6, p->p90 - p->p50, x->f.num);
        }
    }
    s.width[1] = 17;
    if (row > head)
        gp_xl_table(x, &s, head, row, 0, hp, 7);
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
            chart_series_set_categories(se, s.name, a, 1, z, 1);
            chart_series_set_values(se, s.name, a, cols[k], z, cols[k]);
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
        gp_xl_insert_chart(x, &s, chart_top + i * 18, n_cols + 1, ch, 1.8);
    }
    gp_free(start);
    worksheet_freeze_panes(s.ws, 4, 1);
    gp_xl_fit(&s);
}

/* ---- Utilization
 * ---------------------------------------------------------------- */

/* A ratio cell: =IF(b>0,a/b,"") with the program's value cached. */
static void ratio(gp_xl *x, xl_sheet *s, size_t row, size_t col, size_t num_col,
                  size_t den_col, double num, double den)
{
    char a[XL_CELL_SIZE], b[XL_CELL_SIZE], f[192];
    gp_xl_cell(a, row, num_col, false);
    gp_xl_cell(b, row, den_col, false);
    snprintf(f, sizeof f, "=IF(%s>0,%s/%s,\"\")", b, a, b);
    if (den > 0)
        gp_xl_formula(s, row, col, f, num / den, x->f.pct);
    else
        worksheet_write_formula_str(s->ws, (lxw_row_t)row, (lxw_col_t)col, f,
                                    x->f.pct, "");
}

/* Utilization and coverage of the plan over time, and each commitment
 * over the window. */
void gp_xl_sheet_utilization(gp_xl *x)
{
    char used_head[40], committed_head[40];
    gp_xl_money_header(used_head, sizeof used_head, "Savings-plan ", " used");
    gp_xl_money_header(committed_head, sizeof committed_head, "Savings-plan ",
                       " committed");
    /* the first column is the bucket: "Day" or "Hour", set below */
    const char *hd[] = {"Day",
                        "Reserved used (instance-hours)",
                        "Reserved purchased",
                        "Reserved utilization",
                        used_head,
                        committed_head,
                        "Savings-plan utilization",
                        "On-demand value covered",
                        "On-demand value launched",
                        "Coverage"};
    static const char *const hc[] = {
        "Strategy",  "Commitment",  "Cost in the window",     "Used",
        "Purchased", "Utilization", "On-demand value covered"};
    const gp_report *r = x->r;
    xl_sheet s;
    size_t row = 3, first;

    gp_xl_sheet_new(x, &s, "Utilization");
    gp_xl_heading(x, &s, "Commitment utilization and coverage over time",
                  "utilization = used / purchased (instance-hours for "
                  "reservations, dollars for savings plans); coverage = "
                  "on-demand value covered / on-demand value launched");
    if (r->n_ledgers == 0) {
        gp_xl_not_computed(x, &s, 3, XL_NOT_BILLED);
        gp_xl_fit(&s);
        return;
    }
    const gp_ledger *l = r->ledgers[r->proposed];
    size_t bh = bucket_hours(l), nb;
    xl_bucket *b = buckets_of(x, l, bh, &nb);
    char title[160];
    snprintf(title, sizeof title, "%s utilization and coverage: %s",
             bh == 24 ? "Daily" : "Hourly", l->strategy);
    worksheet_write_string(s.ws, (lxw_row_t)row++, 0, title, x->f.h2);
    first = row;
    for (size_t i = 0; b && i < nb; i++) {
        const gp_ledger_hour *h = &b[i].sum;
        row++;
        gp_xl_num(&s, row, 0, gp_xl_when((double)b[i].start_hour * 3600),
                  bh == 24 ? x->f.day : x->f.when);
        gp_xl_num(&s, row, 1, h->reserved_used, x->f.num);
        gp_xl_num(&s, row, 2, h->reserved_purchased, x->f.num);
        ratio(x, &s, row, 3, 1, 2, h->reserved_used, h->reserved_purchased);
        gp_xl_num(&s, row, 4, h->sp_used, x->f.money);
        gp_xl_num(&s, row, 5, h->sp_committed, x->f.money);
        ratio(x, &s, row, 6, 4, 5, h->sp_used, h->sp_committed);
        gp_xl_num(&s, row, 7, h->od_equiv_covered, x->f.money);
        gp_xl_num(&s, row, 8, h->od_equiv_launched, x->f.money);
        ratio(x, &s, row, 9, 7, 8, h->od_equiv_covered, h->od_equiv_launched);
    }
    gp_free(b);
    s.width[0] = bh == 24 ? 12 : 17;
    if (row > first) {
        hd[0] = bh == 24 ? "Day" : "Hour";
        gp_xl_table(x, &s, first, row, 0, hd, 10);
        lxw_chart *ch = workbook_add_chart(x->wb, LXW_CHART_LINE);
        static const lxw_col_t cols[] = {3, 6, 9};
        for (int k = 0; k < 3; k++) {
            lxw_chart_series *se = chart_add_series(ch, NULL, NULL);
            chart_series_set_categories(se, s.name, (lxw_row_t)first + 1, 0,
                                        (lxw_row_t)row, 0);
            chart_series_set_values(se, s.name, (lxw_row_t)first + 1, cols[k],
                                    (lxw_row_t)row, cols[k]);
            chart_series_set_name(se, hd[cols[k]]);
        }
        chart_title_set_name(ch, title);
        chart_axis_set_num_format(ch->y_axis, "0%");
        chart_axis_set_min(ch->y_axis, 0);
        chart_axis_set_num_format(ch->x_axis,
                                  bh == 24 ? "mm-dd" : "mm-dd hh:mm");
        chart_legend_set_position(ch, LXW_CHART_LEGEND_BOTTOM);
        gp_xl_insert_chart(x, &s, first, 11, ch, 1.6);
    }

    /* every commitment of every ledger, over the window */
    row += 2;
    worksheet_write_string(s.ws, (lxw_row_t)row++, 0,
                           "Each commitment over the window", x->f.h2);
    first = row;
    for (size_t k = 0; k < r->n_ledgers; k++) {
        const gp_ledger *lk = r->ledgers[k];
        for (size_t i = 0; i < lk->n_commitments; i++) {
            const gp_ledger_commitment *lc = &lk->commitments[i];
            const gp_commitment *c = lc->c;
            char what[200];
            if (c->type == GP_COMMIT_RESERVED)
                snprintf(what, sizeof what, "%g x %s %s, %dy %s", c->count,
                         c->instance_type, c->region, c->term_years,
                         gp_payment_name(c->payment));
            else
                snprintf(what, sizeof what, "%s plan %s%s%s %s%.3f/h, %dy %s",
                         gp_plan_kind_name(c->kind), c->provider,
                         c->kind == GP_PLAN_FAMILY ? " " : "",
                         c->kind == GP_PLAN_FAMILY ? c->family : "",
                         gp_money_prefix(), c->hourly_commitment, c->term_years,
                         gp_payment_name(c->payment));
            row++;
            gp_xl_text(&s, row, 0, lk->strategy, x->f.text);
            gp_xl_text(&s, row, 1, what, x->f.text);
            gp_xl_num(&s, row, 2, lc->cost, x->f.money);
            gp_xl_num(&s, row, 3, lc->used, x->f.num);
            gp_xl_num(&s, row, 4, lc->purchased, x->f.num);
            ratio(x, &s, row, 5, 3, 4, lc->used, lc->purchased);
            gp_xl_num(&s, row, 6, lc->od_equiv_covered, x->f.money);
        }
    }
    if (row > first)
        gp_xl_table(x, &s, first, row, 0, hc, 7);
    else
        worksheet_write_string(s.ws, (lxw_row_t)row, 0,
                               "no commitments, owned or bought", x->f.note);
    worksheet_freeze_panes(s.ws, 5, 1);
    gp_xl_fit(&s);
}

/* ---- Spot
 * ----------------------------------------------------------------------------
 */

void gp_xl_sheet_spot(gp_xl *x)
{
    static const char *const hs[] = {"Strategy",
                                     "Spot cost (mean, at spot)",
                                     "Expected interruptions",
                                     "Failed-attempt cost",
                                     "P50 with fallback",
                                     "P95 with fallback",
                                     "Monte Carlo runs",
                                     "Seed"};
    static const char *const hj[] = {"Strategy",
                                     "Job",
                                     "Instance type",
                                     "Start",
                                     "End",
                                     "Instances",
                                     "Instance-hours",
                                     "Attempts",
                                     "Interruptions",
                                     "Failed-attempt cost",
                                     "Cost per completed run",
                                     "Cost P50",
                                     "Cost P95",
                                     "Fell back",
                                     "Cost without interruptions",
                                     "Cost in the window"};
    const gp_report *r = x->r;
    const gp_trace *t = x->t;
    xl_sheet s;
    size_t row = 3, first;

    gp_xl_sheet_new(x, &s, "Spot");
    gp_xl_heading(x, &s, "Spot: interruptions and what they cost",
                  "job runs are replayed by Monte Carlo (means over the runs); "
                  "without job_id, spot is priced by Daly's expected time.  "
                  "Spot cost is what is billed at spot (hours that fell back "
                  "are in on-demand cost); P50 and P95 are of the spot "
                  "usage's cost in the window, fallback included, as are the "
                  "expected interruptions and failed-attempt cost.  A job "
                  "run's row is the whole run, hours after the window "
                  "included; its cost in the window is the part billed in it");
    if (r->n_ledgers == 0) {
        gp_xl_not_computed(x, &s, 3, XL_NOT_BILLED);
        gp_xl_fit(&s);
        return;
    }
    first = row;
    for (size_t k = 0; k < r->n_ledgers; k++) {
        const gp_ledger *l = r->ledgers[k];
        row++;
        gp_xl_text(&s, row, 0, l->strategy, x->f.text);
        gp_xl_num(&s, row, 1, l->spot_cost, x->f.money);
        gp_xl_num(&s, row, 2, l->spot_interruptions_mean, x->f.num);
        gp_xl_num(&s, row, 3, l->spot_failed_attempt_cost_mean, x->f.money);
        gp_xl_num(&s, row, 4, l->spot_cost_p50, x->f.money);
        gp_xl_num(&s, row, 5, l->spot_cost_p95, x->f.money);
        /* no job run replayed: no Monte Carlo ran */
        gp_xl_num(&s, row, 6, l->n_jobs > 0 ? l->mc_runs : 0, x->f.count);
        gp_xl_num(&s, row, 7, (double)l->mc_seed, x->f.count);
    }
    gp_xl_table(x, &s, first, row, 0, hs, 8);
    row += 2;
    worksheet_write_string(s.ws, (lxw_row_t)row++, 0, "Per job run", x->f.h2);
    first = row;
    for (size_t k = 0; k < r->n_ledgers; k++) {
        const gp_ledger *l = r->ledgers[k];
        for (size_t i = 0; i < l->n_jobs && row < XL_ROW_CAP; i++) {
            const gp_ledger_job *j = &l->jobs[i];
            const gp_job_run *run = &t->runs[j->run];
            const gp_pool *p = &t->pools[t->series[run->series].pool];
            row++;
            gp_xl_text(&s, row, 0, l->strategy, x->f.text);
            gp_xl_text(&s, row, 1, t->labels[run->job], x->f.text);
            gp_xl_text(&s, row, 2, p->type->name, x->f.text);
            gp_xl_num(&s, row, 3, gp_xl_when((double)run->start), x->f.when);
            gp_xl_num(&s, row, 4, gp_xl_when((double)run->end), x->f.when);
            gp_xl_num(&s, row, 5, run->instances, x->f.num);
            gp_xl_num(&s, row, 6, run->instance_hours, x->f.num);
            gp_xl_num(&s, row, 7, j->attempts_mean, x->f.num);
            gp_xl_num(&s, row, 8, j->interruptions_mean, x->f.num);
            gp_xl_num(&s, row, 9, j->failed_attempt_cost_mean, x->f.money);
            gp_xl_num(&s, row, 10, j->cost_mean, x->f.money);
            gp_xl_num(&s, row, 11, j->cost_p50, x->f.money);
            gp_xl_num(&s, row, 12, j->cost_p95, x->f.money);
            gp_xl_num(&s, row, 13, j->fallback_share, x->f.pct);
            gp_xl_num(&s, row, 14, j->base_cost, x->f.money);
            gp_xl_num(&s, row, 15, j->cost_in_window, x->f.money);
        }
    }
    if (row > first) {
        s.width[3] = s.width[4] = 17;
        gp_xl_table(x, &s, first, row, 0, hj, 16);
    } else {
        worksheet_write_string(s.ws, (lxw_row_t)row, 0,
                               "no job runs replayed on spot: the trace has "
                               "no job_id, no strategy launches on spot, or "
                               "the runs started before the window",
                               x->f.note);
    }
    /* runs the window cuts: priced, but not replayed */
    row += 2;
    for (size_t k = 0; k < r->n_ledgers; k++) {
        const gp_ledger *l = r->ledgers[k];
        char line[240];
        if (l->spot_runs_before_window == 0)
            continue;
        snprintf(line, sizeof line,
                 "%s: %zu job %s on spot started before the window; %s "
                 "%.1f instance-hours in it are priced by Daly's expected "
                 "time, not replayed",
                 l->strategy, l->spot_runs_before_window,
                 gp_plural(l->spot_runs_before_window, "run", "runs"),
                 gp_plural(l->spot_runs_before_window, "its", "their"),
                 l->spot_runs_before_window_ih);
        worksheet_write_string(s.ws, (lxw_row_t)row++, 0, line, x->f.note);
    }
    worksheet_freeze_panes(s.ws, 4, 1);
    gp_xl_fit(&s);
}

/* ---- Chargeback
 * ---------------------------------------------------------------------- */

/* Cost and useful GPU-hours of one team in the proposed ledger;
 * cost_with_util is the part of the cost that came with a gpu_util (what
 * the cost per useful GPU-hour divides, gp_ledger_series_cost_with_util). */
typedef struct xl_team {
    const char *name;
    double cost, useful, util, cost_with_util;
} xl_team;

/* The formula of a cost per useful GPU-hour, =IF(useful>0,cost/useful,"")
 * with the cost cut to the share of it that came with a gpu_util when
 * that is not all of it, so that the cell equals --csv and --json. */
static void per_useful_formula(char *f, size_t size, const char *cost,
                               const char *useful, double cost_total,
                               double cost_with_util)
{
    double share = cost_total > 0 ? cost_with_util / cost_total : 1;
    /* share 0: no useful GPU-hours either, the cell is empty anyway */
    if (share > 0 && fabs(share - 1) > 1e-12)
        snprintf(f, size, "=IF(%s>0,%s*%.17g/%s,\"\")", useful, cost, share,
                 useful);
    else
        snprintf(f, size, "=IF(%s>0,%s/%s,\"\")", useful, cost, useful);
}

/* Cost by team, project and workload, and by team with a chart. */
void gp_xl_sheet_chargeback(gp_xl *x)
{
    static const char *const h[] = {"Strategy",
                                    "Team",
                                    "Project",
                                    "Workload",
                                    "Provider",
                                    "Region",
                                    "Instance type",
                                    "Cost",
                                    "Instance-hours",
                                    "Useful GPU-hours",
                                    "Cost per useful GPU-hour"};
    static const char *const ht[] = {"Team", "Cost", "Useful GPU-hours",
                                     "Cost per useful GPU-hour"};
    const gp_report *r = x->r;
    const gp_trace *t = x->t;
    xl_sheet s;
    size_t row = 3, first;

    gp_xl_sheet_new(x, &s, "Chargeback");
    gp_xl_heading(x, &s, "Chargeback by team, project and workload",
                  "on-demand and spot cost by usage; commitment cost in "
                  "proportion to the on-demand value it covered for each");
    if (r->n_ledgers == 0) {
        gp_xl_not_computed(x, &s, 3, XL_NOT_BILLED);
        gp_xl_fit(&s);
        return;
    }
    first = row;
    for (size_t k = 0; k < r->n_ledgers; k++) {
        const gp_ledger *l = r->ledgers[k];
        for (size_t i = 0; i < l->n_series && row < XL_ROW_CAP; i++) {
            const gp_series *se = &t->series[i];
            const gp_ledger_series *ls = &l->series[i];
            const gp_pool *p = &t->pools[se->pool];
            row++;
            gp_xl_text(&s, row, 0, l->strategy, x->f.text);
            gp_xl_text(&s, row, 1, se->team >= 0 ? t->labels[se->team] : "",
                       x->f.text);
            gp_xl_text(&s, row, 2,
                       se->project >= 0 ? t->labels[se->project] : "",
                       x->f.text);
            gp_xl_text(&s, row, 3, gp_workload_name(se->workload), x->f.text);
            gp_xl_text(&s, row, 4, p->catalog->provider, x->f.text);
            gp_xl_text(&s, row, 5, p->catalog->region, x->f.text);
            gp_xl_text(&s, row, 6, p->type->name, x->f.text);
            gp_xl_num(&s, row, 7, ls->cost, x->f.money);
            gp_xl_num(&s, row, 8, ls->instance_hours, x->f.num);
            gp_xl_num(&s, row, 9, gp_ledger_series_useful_gpu_hours(l, i),
                      x->f.num);
            char a[XL_CELL_SIZE], b[XL_CELL_SIZE], f[192];
            gp_xl_cell(a, row, 7, false);
            gp_xl_cell(b, row, 9, false);
            per_useful_formula(f, sizeof f, a, b, ls->cost,
                               gp_ledger_series_cost_with_util(l, t, i));
            if (ls->useful_gpu_hours > 0)
                gp_xl_formula(
                    &s, row, 10, f,
                    gp_ledger_series_cost_per_useful_gpu_hour(l, t, i),
                    x->f.money);
            else
                worksheet_write_formula_str(s.ws, (lxw_row_t)row, 10, f,
                                            x->f.money, "");
        }
        if (l->unallocated_cost != 0) {
            row++;
            gp_xl_text(&s, row, 0, l->strategy, x->f.text);
            gp_xl_text(&s, row, 1, "(unused commitments)", x->f.text);
            gp_xl_num(&s, row, 7, l->unallocated_cost, x->f.money);
            gp_xl_num(&s, row, 8, 0, x->f.num);
            gp_xl_num(&s, row, 9, 0, x->f.num);
        }
    }
    gp_xl_table(x, &s, first, row, 0, h, 11);

    /* by team, for the proposed ledger, with a bar chart */
    const gp_ledger *l = r->ledgers[r->proposed];
    xl_team *teams = gp_xl_calloc(x, l->n_series + 2, sizeof *teams);
    size_t n_teams = 0;
    for (size_t i = 0; teams && i < l->n_series; i++) {
        const char *name =
            t->series[i].team >= 0 ? t->labels[t->series[i].team] : "(no team)";
        size_t k = 0;
        while (k < n_teams && strcmp(teams[k].name, name) != 0)
            k++;
        if (k == n_teams)
            teams[n_teams++].name = name;
        teams[k].cost += l->series[i].cost;
        teams[k].useful += l->series[i].useful_gpu_hours;
        teams[k].util += l->series[i].util_gpu_hours;
        teams[k].cost_with_util += gp_ledger_series_cost_with_util(l, t, i);
    }
    if (teams && l->unallocated_cost != 0) {
        teams[n_teams].name = "(unused commitments)";
        teams[n_teams++].cost = l->unallocated_cost;
    }
    row += 2;
    char title[160];
    snprintf(title, sizeof title, "Cost by team: %s", l->strategy);
    worksheet_write_string(s.ws, (lxw_row_t)row++, 0, title, x->f.h2);
    first = row;
    for (size_t k = 0; k < n_teams; k++) {
        row++;
        gp_xl_text(&s, row, 0, teams[k].name, x->f.text);
        gp_xl_num(&s, row, 1, teams[k].cost, x->f.money);
        /* blank, not 0, for a team none of whose usage had a gpu_util */
        gp_xl_num(&s, row, 2, teams[k].util > 0 ? teams[k].useful : NAN,
                  x->f.num);
        char a[XL_CELL_SIZE], b[XL_CELL_SIZE], f[192];
        gp_xl_cell(a, row, 1, false);
        gp_xl_cell(b, row, 2, false);
        per_useful_formula(f, sizeof f, a, b, teams[k].cost,
                           teams[k].cost_with_util);
        if (teams[k].useful > 0)
            gp_xl_formula(&s, row, 3, f,
                          teams[k].cost_with_util / teams[k].useful,
                          x->f.money);
        else
            worksheet_write_formula_str(s.ws, (lxw_row_t)row, 3, f, x->f.money,
                                        "");
    }
    gp_free(teams);
    if (row > first) {
        gp_xl_table(x, &s, first, row, 0, ht, 4);
        lxw_chart *ch = workbook_add_chart(x->wb, LXW_CHART_BAR);
        lxw_chart_series *se = chart_add_series(ch, NULL, NULL);
        chart_series_set_categories(se, s.name, (lxw_row_t)first + 1, 0,
                                    (lxw_row_t)row, 0);
        chart_series_set_values(se, s.name, (lxw_row_t)first + 1, 1,
                                (lxw_row_t)row, 1);
        chart_series_set_name(se, "Cost");
        chart_title_set_name(ch, title);
        gp_xl_money_axis(ch->x_axis);
        chart_legend_set_position(ch, LXW_CHART_LEGEND_NONE);
        gp_xl_insert_chart(x, &s, first, 5, ch, 1.2);
    }
    worksheet_freeze_panes(s.ws, 4, 0);
    gp_xl_fit(&s);
}

/* ---- Idle
 * ------------------------------------------------------------------------------
 */

void gp_xl_sheet_idle(gp_xl *x)
{
    static const char *const h[] = {"GPU or job",
                                    "Instance type",
                                    "Workload",
                                    "Start",
                                    "End",
                                    "Hours",
                                    "Mean GPU utilization (%)",
                                    "GPU-hours",
                                    "Instance-hours",
                                    "Cost at on-demand"};
    const gp_idle_report *id = x->r->idle;
    const gp_trace *t = x->t;
    xl_sheet s;
    size_t row = 3;
    char what[200];

    gp_xl_sheet_new(x, &s, "Idle");
    if (!id) {
        gp_xl_heading(x, &s, "Idle GPUs", NULL);
        gp_xl_not_computed(x, &s, 3,
                           "idle spans were not computed for this report");
        gp_xl_fit(&s);
        return;
    }
    snprintf(what, sizeof what,
             "GPUs below %g%% utilization for %g hours or more, priced at "
             "the on-demand rate (after the scenario discount)",
             id->threshold_pct, id->min_hours);
    gp_xl_heading(x, &s, "Idle GPUs", what);
    worksheet_write_string(s.ws, (lxw_row_t)row, 0, "Idle spans", x->f.label);
    gp_xl_num(&s, row++, 1, (double)id->n_spans, x->f.count);
    worksheet_write_string(s.ws, (lxw_row_t)row, 0, "Idle GPU-hours",
                           x->f.label);
    gp_xl_num(&s, row++, 1, id->gpu_hours, x->f.num);
    worksheet_write_string(s.ws, (lxw_row_t)row, 0, "Share of GPU-hours",
                           x->f.label);
    gp_xl_num(&s, row++, 1,
              id->gpu_hours_with_util > 0
                  ? id->gpu_hours / id->gpu_hours_with_util
                  : NAN,
              x->f.pct);
    worksheet_write_string(s.ws, (lxw_row_t)row, 0, "Idle instance-hours",
                           x->f.label);
    gp_xl_num(&s, row++, 1, id->instance_hours, x->f.num);
    worksheet_write_string(s.ws, (lxw_row_t)row, 0, "Cost of idle time",
                           x->f.label);
    gp_xl_num(&s, row++, 1, id->cost, x->f.money_bold);
    row++;
    size_t first = row;
    for (size_t i = 0; i < id->n_spans && row < XL_ROW_CAP; i++) {
        const gp_idle_span *sp = &id->spans[i];
        const gp_series *se = &t->series[sp->series];
        gp_idle_span_label(t, sp, what, sizeof what);
        row++;
        gp_xl_text(&s, row, 0, what, x->f.text);
        gp_xl_text(&s, row, 1, t->pools[sp->pool].type->name, x->f.text);
        gp_xl_text(&s, row, 2, gp_workload_name(se->workload), x->f.text);
        gp_xl_num(&s, row, 3, gp_xl_when(sp->start), x->f.when);
        gp_xl_num(&s, row, 4, gp_xl_when(sp->end), x->f.when);
        gp_xl_num(&s, row, 5, sp->hours, x->f.num);
        gp_xl_num(&s, row, 6, sp->mean_util_pct, x->f.num);
        gp_xl_num(&s, row, 7, sp->gpu_hours, x->f.num);
        gp_xl_num(&s, row, 8, sp->instance_hours, x->f.num);
        gp_xl_num(&s, row, 9, sp->cost, x->f.money);
    }
    if (row > first) {
        s.width[3] = s.width[4] = 17;
        gp_xl_table(x, &s, first, row, 0, h, 10);
        worksheet_freeze_panes(s.ws, (lxw_row_t)first + 1, 1);
    } else {
        worksheet_write_string(s.ws, (lxw_row_t)row, 0,
                               id->gpu_hours_with_util > 0 ||
                                       t->gpu_hours_without_util == 0
                                   ? "no idle spans"
                                   : "no idle spans: the trace has no "
                                     "gpu_util to judge idleness by",
                               x->f.note);
    }
    if (s.width[0] < 22)
        s.width[0] = 22;
    gp_xl_fit(&s);
}
