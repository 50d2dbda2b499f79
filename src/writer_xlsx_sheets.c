/*
 * writer_xlsx_sheets.c: the workbook's sheets about what the money did
 * over time: Monthly cost (amortized and cash, with the cost by purchasing
 * model day by day), Utilization (commitment utilization and coverage over
 * time) and Spot (per job run).  The workbook and its helpers are in
 * writer_xlsx.c.
 */
#include "forecast.h"
#include "idle.h"
#include "model.h"
#include "writer_xlsx.h"

#include <stdio.h>
#include <string.h>

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
        for (int k = 0; k < GP_N_MODELS; k++)
            s->cost[k] += x->cost[k];
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

/* The proposed ledger's cost day by day (hour by hour for a short
 * window) by purchasing model, under the monthly table that ends at
 * `row`, with a stacked column chart beside it. */
static void monthly_by_day(gp_xl *x, xl_sheet *s, size_t row)
{
    enum { TOTAL = GP_N_MODELS + 1 }; /* columns: when, the models, total */
    const char *hd[TOTAL + 1];
    const gp_report *r = x->r;
    size_t first;

    /* the proposed ledger day by day, for the chart */
    const gp_ledger *l = r->ledgers[r->proposed];
    size_t bh = bucket_hours(l), nb;
    xl_bucket *b = buckets_of(x, l, bh, &nb);
    hd[0] = bh == 24 ? "Day" : "Hour";
    for (int k = 0; k < GP_N_MODELS; k++)
        hd[1 + k] = gp_models[k]->title;
    hd[TOTAL] = "Total";
    row += 2;
    char title[160];
    snprintf(title, sizeof title, "%s by purchasing model: %s (amortized)",
             bh == 24 ? "Daily cost" : "Hourly cost", l->strategy);
    worksheet_write_string(s->ws, (lxw_row_t)row++, 0, title, x->f.h2);
    first = row;
    for (size_t i = 0; b && i < nb; i++) {
        const gp_ledger_hour *h = &b[i].sum;
        row++;
        gp_xl_num(s, row, 0, gp_xl_when((double)b[i].start_hour * 3600),
                  bh == 24 ? x->f.day : x->f.when);
        for (int k = 0; k < GP_N_MODELS; k++)
            gp_xl_num(s, row, 1 + (size_t)k, h->cost[k], x->f.money);
        char c1[XL_CELL_SIZE], c2[XL_CELL_SIZE], f[192];
        gp_xl_cell(c1, row, 1, false);
        gp_xl_cell(c2, row, GP_N_MODELS, false);
        snprintf(f, sizeof f, "=SUM(%s:%s)", c1, c2);
        gp_xl_formula(s, row, TOTAL, f, gp_cost_total(h->cost), x->f.money);
    }
    gp_free(b);
    if (bh == 1)
        s->width[0] = 17;
    else if (s->width[0] < 12)
        s->width[0] = 12;
    if (row > first) {
        gp_xl_table(x, s, first, row, 0, hd, TOTAL + 1);
        lxw_chart *ch = workbook_add_chart(x->wb, LXW_CHART_COLUMN_STACKED);
        for (size_t c = 1; c <= GP_N_MODELS; c++) {
            lxw_chart_series *se = chart_add_series(ch, NULL, NULL);
            chart_series_set_categories(se, s->name, (lxw_row_t)first + 1, 0,
                                        (lxw_row_t)row, 0);
            chart_series_set_values(se, s->name, (lxw_row_t)first + 1,
                                    (lxw_col_t)c, (lxw_row_t)row, (lxw_col_t)c);
            chart_series_set_name(se, hd[c]);
        }
        chart_title_set_name(ch, title);
        gp_xl_money_axis(ch->y_axis);
        chart_axis_set_num_format(ch->x_axis,
                                  bh == 24 ? "mm-dd" : "mm-dd hh:mm");
        chart_legend_set_position(ch, LXW_CHART_LEGEND_BOTTOM);
        chart_set_style(ch, 10);
        gp_xl_insert_chart(x, s, first, TOTAL + 2, ch, 1.8);
    }
}

/* Cost by month and purchasing model, and the plan's by day. */
void gp_xl_sheet_monthly(gp_xl *x)
{
    /* columns: strategy, month, the models, then TOTAL and the cash */
    enum { TOTAL = 2 + GP_N_MODELS };
    const char *hm[TOTAL + 4] = {"Strategy", "Month"};
    const gp_report *r = x->r;
    xl_sheet s;
    size_t row = 3, first;

    for (int k = 0; k < GP_N_MODELS; k++)
        hm[2 + k] = gp_models[k]->title;
    hm[TOTAL] = "Total (amortized)";
    hm[TOTAL + 1] = "Reserved (cash)";
    hm[TOTAL + 2] = "Savings plans (cash)";
    hm[TOTAL + 3] = "Total (cash)";

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
            for (int j = 0; j < GP_N_MODELS; j++)
                gp_xl_num(&s, row, 2 + (size_t)j, m->cost[j], x->f.money);
            gp_xl_num(&s, row, TOTAL, m->total_cost, x->f.money);
            gp_xl_num(&s, row, TOTAL + 1, m->reserved_cash, x->f.money);
            gp_xl_num(&s, row, TOTAL + 2, m->savings_plan_cash, x->f.money);
            gp_xl_num(&s, row, TOTAL + 3, m->total_cash, x->f.money);
        }
    }
    gp_xl_table(x, &s, first, row, 0, hm, TOTAL + 4);

    monthly_by_day(x, &s, row);
    worksheet_freeze_panes(s.ws, 4, 0);
    gp_xl_fit(&s);
}

/* ---- Utilization -------------------------------------------------------- */

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

/* The proposed ledger's utilization and coverage day by day (hour by
 * hour for a short window) from `row`, with a line chart; returns the
 * table's last row. */
static size_t utilization_over_time(gp_xl *x, xl_sheet *s, size_t row)
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
    const gp_report *r = x->r;
    size_t first;

    const gp_ledger *l = r->ledgers[r->proposed];
    size_t bh = bucket_hours(l), nb;
    xl_bucket *b = buckets_of(x, l, bh, &nb);
    char title[160];
    snprintf(title, sizeof title, "%s utilization and coverage: %s",
             bh == 24 ? "Daily" : "Hourly", l->strategy);
    worksheet_write_string(s->ws, (lxw_row_t)row++, 0, title, x->f.h2);
    first = row;
    for (size_t i = 0; b && i < nb; i++) {
        const gp_ledger_hour *h = &b[i].sum;
        row++;
        gp_xl_num(s, row, 0, gp_xl_when((double)b[i].start_hour * 3600),
                  bh == 24 ? x->f.day : x->f.when);
        gp_xl_num(s, row, 1, h->reserved_used, x->f.num);
        gp_xl_num(s, row, 2, h->reserved_purchased, x->f.num);
        ratio(x, s, row, 3, 1, 2, h->reserved_used, h->reserved_purchased);
        gp_xl_num(s, row, 4, h->sp_used, x->f.money);
        gp_xl_num(s, row, 5, h->sp_committed, x->f.money);
        ratio(x, s, row, 6, 4, 5, h->sp_used, h->sp_committed);
        gp_xl_num(s, row, 7, h->od_equiv_covered, x->f.money);
        gp_xl_num(s, row, 8, h->od_equiv_launched, x->f.money);
        ratio(x, s, row, 9, 7, 8, h->od_equiv_covered, h->od_equiv_launched);
    }
    gp_free(b);
    s->width[0] = bh == 24 ? 12 : 17;
    if (row > first) {
        hd[0] = bh == 24 ? "Day" : "Hour";
        gp_xl_table(x, s, first, row, 0, hd, 10);
        lxw_chart *ch = workbook_add_chart(x->wb, LXW_CHART_LINE);
        static const lxw_col_t cols[] = {3, 6, 9};
        for (int k = 0; k < 3; k++) {
            lxw_chart_series *se = chart_add_series(ch, NULL, NULL);
            chart_series_set_categories(se, s->name, (lxw_row_t)first + 1, 0,
                                        (lxw_row_t)row, 0);
            chart_series_set_values(se, s->name, (lxw_row_t)first + 1, cols[k],
                                    (lxw_row_t)row, cols[k]);
            chart_series_set_name(se, hd[cols[k]]);
        }
        chart_title_set_name(ch, title);
        chart_axis_set_num_format(ch->y_axis, "0%");
        chart_axis_set_min(ch->y_axis, 0);
        chart_axis_set_num_format(ch->x_axis,
                                  bh == 24 ? "mm-dd" : "mm-dd hh:mm");
        chart_legend_set_position(ch, LXW_CHART_LEGEND_BOTTOM);
        gp_xl_insert_chart(x, s, first, 11, ch, 1.6);
    }
    return row;
}

/* Every commitment of every ledger over the window, from `row`. */
static void utilization_commitments(gp_xl *x, xl_sheet *s, size_t row)
{
    static const char *const hc[] = {
        "Strategy",  "Commitment",  "Cost in the window",     "Used",
        "Purchased", "Utilization", "On-demand value covered"};
    const gp_report *r = x->r;
    size_t first;

    worksheet_write_string(s->ws, (lxw_row_t)row++, 0,
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
            gp_xl_text(s, row, 0, lk->strategy, x->f.text);
            gp_xl_text(s, row, 1, what, x->f.text);
            gp_xl_num(s, row, 2, lc->cost, x->f.money);
            gp_xl_num(s, row, 3, lc->used, x->f.num);
            gp_xl_num(s, row, 4, lc->purchased, x->f.num);
            ratio(x, s, row, 5, 3, 4, lc->used, lc->purchased);
            gp_xl_num(s, row, 6, lc->od_equiv_covered, x->f.money);
        }
    }
    if (row > first)
        gp_xl_table(x, s, first, row, 0, hc, 7);
    else
        worksheet_write_string(s->ws, (lxw_row_t)row, 0,
                               "no commitments, owned or bought", x->f.note);
}

/* Utilization and coverage of the plan over time, and each commitment
 * over the window. */
void gp_xl_sheet_utilization(gp_xl *x)
{
    const gp_report *r = x->r;
    xl_sheet s;
    size_t row = 3;

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
    row = utilization_over_time(x, &s, row);
    utilization_commitments(x, &s, row + 2);
    worksheet_freeze_panes(s.ws, 5, 1);
    gp_xl_fit(&s);
}

/* ---- Spot
 * ----------------------------------------------------------------------------
 */

/* Each strategy's spot figures from `row`; returns the table's last
 * row. */
static size_t spot_strategies(gp_xl *x, xl_sheet *s, size_t row)
{
    static const char *const hs[] = {"Strategy",
                                     "Spot cost (mean, at spot)",
                                     "Expected interruptions",
                                     "Failed-attempt cost",
                                     "P50 with fallback",
                                     "P95 with fallback",
                                     "Monte Carlo runs",
                                     "Seed"};
    const gp_report *r = x->r;
    size_t first = row;

    for (size_t k = 0; k < r->n_ledgers; k++) {
        const gp_ledger *l = r->ledgers[k];
        row++;
        gp_xl_text(s, row, 0, l->strategy, x->f.text);
        gp_xl_num(s, row, 1, l->cost[GP_MODEL_SPOT], x->f.money);
        gp_xl_num(s, row, 2, l->spot_interruptions_mean, x->f.num);
        gp_xl_num(s, row, 3, l->spot_failed_attempt_cost_mean, x->f.money);
        gp_xl_num(s, row, 4, l->spot_cost_p50, x->f.money);
        gp_xl_num(s, row, 5, l->spot_cost_p95, x->f.money);
        /* no job run replayed: no Monte Carlo ran */
        gp_xl_num(s, row, 6, l->n_jobs > 0 ? l->mc_runs : 0, x->f.count);
        gp_xl_num(s, row, 7, (double)l->mc_seed, x->f.count);
    }
    gp_xl_table(x, s, first, row, 0, hs, 8);
    return row;
}

/* Job run j's row of strategy l at `row` of the Per job run table. */
static void spot_job_row(gp_xl *x, xl_sheet *s, size_t row, const gp_ledger *l,
                         const gp_ledger_job *j, bool spot)
{
    const gp_trace *t = x->t;
    const gp_job_run *run = &t->runs[j->run];
    const gp_pool *p = &t->pools[t->series[run->series].pool];

    gp_xl_text(s, row, 0, l->strategy, x->f.text);
    gp_xl_text(s, row, 1, t->labels[run->job], x->f.text);
    gp_xl_text(s, row, 2, spot ? "spot" : "on demand", x->f.text);
    gp_xl_text(s, row, 3, p->type->name, x->f.text);
    gp_xl_num(s, row, 4, gp_xl_when((double)run->start), x->f.when);
    gp_xl_num(s, row, 5, gp_xl_when((double)run->end), x->f.when);
    gp_xl_num(s, row, 6, run->instances, x->f.num);
    gp_xl_num(s, row, 7, run->instance_hours, x->f.num);
    gp_xl_num(s, row, 8, j->attempts_mean, x->f.num);
    gp_xl_num(s, row, 9, j->interruptions_mean, x->f.num);
    gp_xl_num(s, row, 10, j->failed_attempt_cost_mean, x->f.money);
    gp_xl_num(s, row, 11, j->cost_mean, x->f.money);
    gp_xl_num(s, row, 12, j->cost_p50, x->f.money);
    gp_xl_num(s, row, 13, j->cost_p95, x->f.money);
    gp_xl_num(s, row, 14, j->fallback_share, x->f.pct);
    gp_xl_num(s, row, 15, j->base_cost, x->f.money);
    gp_xl_num(s, row, 16, j->cost_in_window, x->f.money);
    gp_xl_num(s, row, 17, j->wait_h_mean, x->f.num);
    gp_xl_num(s, row, 18, j->fallback_cost_mean, x->f.money);
    if (j->deadline_h >= 0) {
        gp_xl_num(s, row, 19, j->deadline_h, x->f.num);
        gp_xl_num(s, row, 20, j->met_deadline, x->f.pct);
    }
    if (j->recorded_interruptions >= 0)
        gp_xl_num(s, row, 21, j->recorded_interruptions, x->f.num);
}

/* Every job run that starts in the window, per strategy: those replayed
 * on spot, then those on demand, from `row` (its heading); returns the
 * last row written. */
static size_t spot_job_runs(gp_xl *x, xl_sheet *s, size_t row)
{
    static const char *const hj[] = {"Strategy",
                                     "Job",
                                     "Launch",
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
                                     "Cost in the window",
                                     "Waited for capacity (h)",
                                     "Fallback cost",
                                     "Deadline (h)",
                                     "Met deadline",
                                     "Recorded interruptions"};
    const gp_report *r = x->r;
    size_t first;

    worksheet_write_string(s->ws, (lxw_row_t)row++, 0, "Per job run", x->f.h2);
    first = row;
    for (size_t k = 0; k < r->n_ledgers; k++) {
        const gp_ledger *l = r->ledgers[k];
        for (size_t i = 0; i < l->n_jobs && row < XL_ROW_CAP; i++)
            spot_job_row(x, s, ++row, l, &l->jobs[i], true);
        for (size_t i = 0; i < l->n_od_jobs && row < XL_ROW_CAP; i++)
            spot_job_row(x, s, ++row, l, &l->od_jobs[i], false);
    }
    if (row > first) {
        s->width[4] = s->width[5] = 17;
        gp_xl_table(x, s, first, row, 0, hj, 22);
    } else {
        gp_xl_para(s, row,
                   "no job runs: the trace has no job_id, or the runs "
                   "started before the window",
                   x->f.note_wrap);
    }
    return row;
}

/* From `row`, a note per strategy whose spot job runs started before the
 * window: those are priced, but not replayed. */
static void spot_runs_cut(gp_xl *x, xl_sheet *s, size_t row)
{
    const gp_report *r = x->r;

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
        gp_xl_para(s, row++, line, x->f.note_wrap);
    }
}

/* Spot's cost and interruptions per strategy and per job run. */
void gp_xl_sheet_spot(gp_xl *x)
{
    const gp_report *r = x->r;
    xl_sheet s;
    size_t row = 3;

    gp_xl_sheet_new(x, &s, "Spot");
    gp_xl_heading(x, &s, "Spot: interruptions and what they cost",
                  "job runs are replayed by Monte Carlo (means over the runs); "
                  "without job_id, spot is priced by Daly's expected time.  "
                  "Spot cost is what is billed at spot (hours that fell back "
                  "are in on-demand cost); P50 and P95 are of the spot "
                  "usage's cost in the window, fallback included, as are the "
                  "expected interruptions and failed-attempt cost.  A job "
                  "run's row is the whole run, hours after the window "
                  "included; its cost in the window is the part billed in it.  "
                  "A run on spot waits, unbilled, while capacity is missing "
                  "and falls back to on demand when its deadline is at risk; "
                  "a run on demand is one attempt at the on-demand rate, "
                  "before commitments");
    if (r->n_ledgers == 0) {
        gp_xl_not_computed(x, &s, 3, XL_NOT_BILLED);
        gp_xl_fit(&s);
        return;
    }
    row = spot_strategies(x, &s, row);
    row = spot_job_runs(x, &s, row + 2);
    spot_runs_cut(x, &s, row + 2);
    worksheet_freeze_panes(s.ws, 4, 1);
    gp_xl_fit(&s);
}
