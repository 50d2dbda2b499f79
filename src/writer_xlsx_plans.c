/*
 * writer_xlsx_plans.c: the Plans sheet (the three plans, or the
 * strategies, side by side with a chart, and what each plan buys) and the
 * Savings curve sheet (net savings against each instrument's level).
 */
#include "model.h"
#include "recommend.h"
#include "util.h"
#include "writer_xlsx.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- Plans ------------------------------------------------------------------
 */

/* The three plans side by side from `row`, the table's header row;
 * returns its last row. */
static size_t plans_of_recommendation(gp_xl *x, xl_sheet *s, size_t row)
{
    static const char *const h[] = {"Plan",
                                    "Recommended",
                                    "Total cost",
                                    "Net savings",
                                    "Low-demand net savings",
                                    "Upfront",
                                    "Annual commitment cost",
                                    "Longest term (years)",
                                    "Training on spot",
                                    "Commitments",
                                    "Risk"};
    const gp_recommendation *rec = x->r->rec;
    char f[192], c1[XL_CELL_SIZE], pc[XL_CELL_SIZE];
    size_t first;

    gp_xl_heading(
        x, s, "Plans side by side",
        "conservative: 1-year, paid monthly, sized for the "
        "low-demand week; balanced: the cheapest terms the history "
        "supports; aggressive: 3-year terms allowed");
    worksheet_write_string(s->ws, 2, 0, "Current cost (nothing new bought)",
                           x->f.label);
    gp_xl_num(s, 2, 2, rec->policy_cost, x->f.money_bold);
    gp_xl_cell(pc, 2, 2, true);
    first = row;
    for (int i = 0; i < 3; i++) {
        const gp_plan_result *p = &rec->plans[i];
        row++;
        gp_xl_text(s, row, 0, p->name, x->f.text);
        gp_xl_text(s, row, 1, (size_t)i == rec->recommended ? "yes" : "",
                   x->f.text);
        gp_xl_num(s, row, 2, p->total_cost, x->f.money);
        gp_xl_cell(c1, row, 2, false);
        snprintf(f, sizeof f, "=%s-%s", pc, c1);
        gp_xl_formula(s, row, 3, f, rec->policy_cost - p->total_cost,
                      x->f.money);
        gp_xl_num(s, row, 4, p->downside_net_savings, x->f.money);
        gp_xl_num(s, row, 5, p->upfront, x->f.money);
        gp_xl_num(s, row, 6, p->annual_cost, x->f.money);
        /* the longest term it buys; blank when it buys nothing */
        gp_xl_num(s, row, 7, p->max_term ? p->max_term : NAN, x->f.count);
        gp_xl_text(s, row, 8, p->route_training_to_spot ? "yes" : "no",
                   x->f.text);
        gp_xl_num(s, row, 9, (double)p->n_commitments, x->f.count);
        gp_xl_wrap(s, row, 10, p->risk, x->f.wrap, 48);
    }
    gp_xl_table(x, s, first, row, 0, h, 11);
    return row;
}

/* The strategies ledgers[0..n) side by side from `row`, the table's
 * header row; returns its last row. */
static size_t strategies_table(gp_xl *x, xl_sheet *s, size_t row,
                               gp_ledger *const *ledgers, size_t n)
{
    /* columns: five totals, the models, then AFTER and four more */
    enum { AFTER = 5 + GP_N_MODELS };
    const char *h[AFTER + 8] = {"Strategy", "Total cost", "All on-demand cost",
                                "Savings", "Savings %"};
    size_t first, cols = AFTER + 5;
    bool levers = false;

    for (int k = 0; k < GP_N_MODELS; k++)
        h[5 + k] = gp_models[k]->title;
    h[AFTER] = "Reserved utilization";
    h[AFTER + 1] = "Savings-plan utilization";
    h[AFTER + 2] = "Coverage";
    h[AFTER + 3] = "Useful GPU-hours";
    h[AFTER + 4] = "Cost per useful GPU-hour";
    /* the levers' columns (levers.h) when a strategy pulls one */
    for (size_t i = 0; i < n; i++)
        levers |= ledgers[i]->levers.any;
    if (levers) {
        h[AFTER + 5] = "Levers";
        h[AFTER + 6] = "Stranded commitment cost";
        h[AFTER + 7] = "Stranded instance-hours";
        cols = AFTER + 8;
    }

    first = row;
    for (size_t i = 0; i < n; i++) {
        const gp_ledger *l = ledgers[i];
        row++;
        gp_xl_ledger_head(x, s, row, l);
        for (int k = 0; k < GP_N_MODELS; k++)
            gp_xl_num(s, row, 5 + (size_t)k, l->cost[k], x->f.money);
        gp_xl_num(s, row, AFTER, l->reserved_utilization, x->f.pct);
        gp_xl_num(s, row, AFTER + 1, l->savings_plan_utilization, x->f.pct);
        gp_xl_num(s, row, AFTER + 2, l->coverage, x->f.pct);
        gp_xl_num(s, row, AFTER + 3, l->useful_gpu_hours, x->f.num);
        gp_xl_num(s, row, AFTER + 4, l->cost_per_useful_gpu_hour, x->f.money);
        if (levers && l->levers.any) {
            gp_xl_text(s, row, AFTER + 5, l->levers.what, x->f.text);
            gp_xl_num(s, row, AFTER + 6, l->levers.stranded_commitment_cost,
                      x->f.money);
            gp_xl_num(s, row, AFTER + 7, l->levers.stranded_instance_hours,
                      x->f.num);
        }
    }
    gp_xl_table(x, s, first, row, 0, h, cols);
    return row;
}

/* simulate's strategies side by side from `row`; returns its last row. */
static size_t plans_of_strategies(gp_xl *x, xl_sheet *s, size_t row)
{
    gp_xl_heading(x, s, "Strategies side by side",
                  "the scenario's baseline and every strategy it names, "
                  "billed over the same window");
    return strategies_table(x, s, row, x->r->ledgers, x->r->n_ledgers);
}

/* A recommendation's workbook: the scenario's strategies, as simulate
 * bills them, under what the plans buy (from `row`). */
static void plans_scenario_strategies(gp_xl *x, xl_sheet *s, size_t row)
{
    const gp_run_info *info = x->r->info;

    if (!info || info->n_strategies < 2)
        return;
    worksheet_write_string(s->ws, (lxw_row_t)row++, 0,
                           "The scenario's strategies side by side (as "
                           "simulate bills them: its levers, policies and "
                           "commitments; the plans above are bought for "
                           "the baseline)",
                           x->f.h2);
    strategies_table(x, s, row, info->strategies, info->n_strategies);
}

/* A column chart of the cost and savings of the table over rows
 * first..row, under it. */
static void plans_chart(gp_xl *x, xl_sheet *s, size_t first, size_t row)
{
    const gp_report *r = x->r;
    lxw_chart *ch = workbook_add_chart(x->wb, LXW_CHART_COLUMN);
    lxw_chart_series *se;
    se = chart_add_series(ch, NULL, NULL);
    chart_series_set_categories(se, s->name, (lxw_row_t)first + 1, 0,
                                (lxw_row_t)row, 0);
    chart_series_set_values(se, s->name, (lxw_row_t)first + 1, r->rec ? 2 : 1,
                            (lxw_row_t)row, r->rec ? 2 : 1);
    chart_series_set_name(se, "Total cost");
    se = chart_add_series(ch, NULL, NULL);
    chart_series_set_categories(se, s->name, (lxw_row_t)first + 1, 0,
                                (lxw_row_t)row, 0);
    chart_series_set_values(se, s->name, (lxw_row_t)first + 1, r->rec ? 3 : 3,
                            (lxw_row_t)row, r->rec ? 3 : 3);
    chart_series_set_name(se, r->rec ? "Net savings" : "Savings");
    chart_title_set_name(ch, r->rec ? "Plans: cost and net savings over "
                                      "the window"
                                    : "Strategies: cost and savings over "
                                      "the window");
    gp_xl_money_axis(ch->y_axis);
    chart_legend_set_position(ch, LXW_CHART_LEGEND_BOTTOM);
    gp_xl_insert_chart(x, s, row + 2, 0, ch, 1.6);
}

/* "What each plan buys": every commitment of the three plans, in a table
 * 22 rows under the one that ends at `row` (below the chart); returns its
 * last row. */
static size_t plans_commitments(gp_xl *x, xl_sheet *s, size_t row)
{
    static const char *const h[] = {"Plan",
                                    "Type",
                                    "Provider",
                                    "Region",
                                    "Instance type or plan",
                                    "Quantity",
                                    "Unit",
                                    "Term (years)",
                                    "Payment",
                                    "Start"};
    const gp_report *r = x->r;
    size_t crow = row + 22, first;

    worksheet_write_string(s->ws, (lxw_row_t)crow++, 0,
                           "What each plan buys", x->f.h2);
    first = crow;
    for (int i = 0; i < 3; i++) {
        const gp_plan_result *p = &r->rec->plans[i];
        for (size_t k = 0; k < p->n_commitments; k++) {
            const gp_commitment *c = &p->commitments[k];
            crow++;
            gp_xl_text(s, crow, 0, p->name, x->f.text);
            gp_xl_text(s, crow, 1,
                       c->type == GP_COMMIT_RESERVED ? "reserved"
                                                     : "savings_plan",
                       x->f.text);
            gp_xl_text(s, crow, 2, c->provider, x->f.text);
            gp_xl_text(s, crow, 3, c->region, x->f.text);
            if (c->type == GP_COMMIT_RESERVED)
                gp_xl_text(s, crow, 4, c->instance_type, x->f.text);
            else
                gp_xl_text(s, crow, 4,
                           c->kind == GP_PLAN_FAMILY ? c->family
                                                     : "compute",
                           x->f.text);
            gp_xl_num(s, crow, 5,
                      c->type == GP_COMMIT_RESERVED ? c->count
                                                    : c->hourly_commitment,
                      x->f.num);
            char unit[32];
            gp_xl_text(s, crow, 6,
                       c->type == GP_COMMIT_RESERVED
                           ? "instances"
                           : gp_xl_money_header(unit, sizeof unit, "",
                                                "/h committed"),
                       x->f.text);
            gp_xl_num(s, crow, 7, c->term_years, x->f.count);
            gp_xl_text(s, crow, 8, gp_payment_name(c->payment), x->f.text);
            gp_xl_num(s, crow, 9, gp_xl_when((double)c->start), x->f.day);
        }
    }
    if (crow > first)
        gp_xl_table(x, s, first, crow, 0, h, 10);
    else
        worksheet_write_string(s->ws, (lxw_row_t)crow, 0,
                               "no plan buys a commitment", x->f.note);
    return crow;
}

/* Plans side by side (recommend) or strategies side by side (simulate),
 * with a column chart of cost and savings. */
void gp_xl_sheet_plans(gp_xl *x)
{
    const gp_report *r = x->r;
    xl_sheet s;
    size_t row = 3, first = row;

    gp_xl_sheet_new(x, &s, "Plans");
    if (r->rec) {
        row = plans_of_recommendation(x, &s, row);
    } else if (r->n_ledgers) {
        row = plans_of_strategies(x, &s, row);
    } else {
        gp_xl_heading(x, &s, "Plans", NULL);
        gp_xl_not_computed(x, &s, 3,
                           "nothing was billed in this run: gpuplan simulate "
                           GP_PARAM_TEXT("out") " and recommend "
                           GP_PARAM_TEXT("out") " compare plans");
        gp_xl_fit(&s);
        return;
    }
    plans_chart(x, &s, first, row);
    if (r->rec)
        plans_scenario_strategies(x, &s, plans_commitments(x, &s, row) + 3);
    worksheet_freeze_panes(s.ws, 4, 1);
    gp_xl_fit(&s);
}

/* ---- Savings curve ------------------------------------------------------ */

void gp_xl_sheet_curves(gp_xl *x)
{
    static const char *const h[] = {"Instrument", "Unit", "Level",
                                    "Net savings", "Chosen"};
    const gp_recommendation *rec = x->r->rec;
    xl_sheet s;
    size_t row = 3;

    gp_xl_sheet_new(x, &s, "Savings curve");
    gp_xl_heading(x, &s, "Savings versus commitment",
                  "net savings over the window if one instrument were bought "
                  "at another level, the others as recommended");
    if (!rec || rec->n_curves == 0) {
        gp_xl_not_computed(
            x, &s, 3,
            rec ? "the recommendation buys no commitment to vary"
                : "the curves come from gpuplan recommend "
                  GP_PARAM_TEXT("out"));
        gp_xl_fit(&s);
        return;
    }
    size_t first = row;
    size_t *start = gp_xl_calloc(x, rec->n_curves + 1, sizeof *start);
    for (size_t i = 0; i < rec->n_curves; i++) {
        const gp_curve *cv = &rec->curves[i];
        if (start)
            start[i] = row + 1;
        for (size_t j = 0; j < cv->n; j++) {
            row++;
            gp_xl_text(&s, row, 0, cv->instrument, x->f.text);
            gp_xl_text(&s, row, 1, cv->unit, x->f.text);
            gp_xl_num(&s, row, 2, cv->level[j], x->f.num);
            gp_xl_num(&s, row, 3, cv->net_savings[j], x->f.money);
            gp_xl_text(&s, row, 4,
                       fabs(cv->level[j] - cv->chosen) < 1e-9 ? "yes" : "",
                       x->f.text);
        }
    }
    if (row > first)
        gp_xl_table(x, &s, first, row, 0, h, 5);
    /* one chart per instrument, up to four, beside the table */
    for (size_t i = 0; start && i < rec->n_curves && i < 4; i++) {
        const gp_curve *cv = &rec->curves[i];
        if (cv->n == 0)
            continue;
        lxw_chart *ch = workbook_add_chart(x->wb, LXW_CHART_SCATTER_STRAIGHT);
        lxw_chart_series *se = chart_add_series(ch, NULL, NULL);
        chart_series_set_categories(se, s.name, (lxw_row_t)start[i], 2,
                                    (lxw_row_t)(start[i] + cv->n - 1), 2);
        chart_series_set_values(se, s.name, (lxw_row_t)start[i], 3,
                                (lxw_row_t)(start[i] + cv->n - 1), 3);
        chart_series_set_name(se, "Net savings");
        chart_title_set_name(ch, cv->instrument);
        chart_axis_set_name(ch->x_axis, cv->unit);
        gp_xl_money_axis(ch->y_axis);
        chart_legend_set_position(ch, LXW_CHART_LEGEND_NONE);
        gp_xl_insert_chart(x, &s, 3 + i * 18, 6, ch, 1.2);
    }
    gp_free(start);
    worksheet_freeze_panes(s.ws, 4, 0);
    gp_xl_fit(&s);
}
