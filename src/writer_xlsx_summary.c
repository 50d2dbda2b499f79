/*
 * writer_xlsx_summary.c: the workbook's first sheet, Summary: the headline
 * cost and savings, the top actions (or the strategies), a what-if block
 * of live formulas over yellow input cells, the forecast's headline, and
 * every warning of the run.  docs/design/report.md says why.
 */
#include "forecast.h"
#include "recommend.h"
#include "report.h"
#include "util.h"
#include "writer_xlsx.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- Summary ---------------------------------------------------------------
 */

/* Column C, where each figure's note stands beside it, wraps at this
 * width. */
#define XL_NOTE_WIDTH 50

/* One headline row: label, value, and a note saying where it comes from. */
static void headline(gp_xl *x, xl_sheet *s, size_t row, const char *label,
                     double v, lxw_format *f, const char *note)
{
    worksheet_write_string(s->ws, (lxw_row_t)row, 0, label, x->f.label);
    gp_xl_num(s, row, 1, v, f);
    if (note)
        gp_xl_wrap(s, row, 2, gp_xl_shown(x, note), x->f.note_wrap,
                   XL_NOTE_WIDTH);
}

/* A headline row whose value is a live formula, cached with the
 * program's value. */
static void headline_formula(gp_xl *x, xl_sheet *s, size_t row,
                             const char *label, const char *formula, double v,
                             lxw_format *f, const char *note)
{
    worksheet_write_string(s->ws, (lxw_row_t)row, 0, label, x->f.label);
    gp_xl_formula(s, row, 1, formula, v, f);
    if (note)
        gp_xl_wrap(s, row, 2, note, x->f.note_wrap, XL_NOTE_WIDTH);
}

/* Where the headline put its two costs, for the what-if block's
 * formulas, and the values they hold. */
struct headline_cells {
    size_t current_row, plan_row; /* column B */
    double current, plan;
    /* the commitment charges (reserved and savings-plan fees, amortized)
     * in each, which do not change with demand; unknown (split false) for
     * a forward plan, which has no ledgers */
    bool split;
    double current_fixed, plan_fixed;
};

/* The commitment charges in a ledger's total. */
static double commitment_charges(const gp_ledger *l)
{
    return l->cost[GP_MODEL_RESERVED] + l->cost[GP_MODEL_SAVINGS_PLAN];
}

/* The two costs the headline compares, as the run names them: the
 * recommendation's policy and plan, simulate's baseline and cheapest
 * strategy, or one strategy against everything on demand. */
struct headline_costs {
    double current, plan;
    double upfront; /* the plan's upfront cash (recommend), else NAN */
    const char *current_label, *current_note;
    char plan_label[160];
};

/* Fills *k with the costs the headline compares, and hc's commitment
 * charges where ledgers hold them. */
static void headline_costs_of(const gp_report *r, bool forward,
                              struct headline_costs *k,
                              struct headline_cells *hc)
{
    k->upfront = NAN;
    if (r->rec) {
        const gp_plan_result *p = &r->rec->plans[r->rec->recommended];
        k->current = r->rec->policy_cost;
        k->plan = p->total_cost;
        k->upfront = p->upfront;
        k->current_label = "Current cost";
        k->current_note = forward ? "the scenario's policy on the forecast's "
                                    "P50, nothing new bought"
                                  : "the scenario's policy, nothing new bought";
        snprintf(k->plan_label, sizeof k->plan_label, "Cost with the %s plan",
                 p->name);
        if (r->n_ledgers >= 2) { /* gp_recommend_bill_plan's policy, plan */
            hc->split = true;
            hc->current_fixed = commitment_charges(r->ledgers[0]);
            hc->plan_fixed = commitment_charges(r->ledgers[1]);
        }
    } else if (r->n_ledgers > 1) {
        const gp_ledger *cur = r->ledgers[r->current];
        k->current = cur->total_cost;
        k->plan = r->ledgers[r->proposed]->total_cost;
        hc->split = true;
        hc->current_fixed = commitment_charges(cur);
        hc->plan_fixed = commitment_charges(r->ledgers[r->proposed]);
        k->current_label = "Current cost";
        k->current_note = "the baseline strategy";
        snprintf(k->plan_label, sizeof k->plan_label,
                 "Cost with strategy %s (cheapest)",
                 r->ledgers[r->proposed]->strategy);
    } else {
        k->current = r->ledgers[0]->all_on_demand_cost;
        k->plan = r->ledgers[0]->total_cost;
        k->current_label = "Cost if everything ran on demand";
        k->current_note = "every instance-hour at the on-demand rate";
        snprintf(k->plan_label, sizeof k->plan_label, "Cost with strategy %s",
                 r->ledgers[0]->strategy);
        hc->split = true;
        hc->plan_fixed = commitment_charges(r->ledgers[0]);
    }
}

/* The headline rows only a recommendation has: everything on demand, the
 * share of the best purchase captured, the backtest's and the forward
 * plan's figures.  Returns the next row. */
static size_t headline_recommendation(gp_xl *x, xl_sheet *s, size_t row,
                                      bool forward)
{
    const gp_report *r = x->r;

    headline(x, s, row++, "Cost if everything ran on demand",
             r->rec->all_on_demand_cost, x->f.money,
             "every instance-hour at the on-demand rate");
    headline(x, s, row++,
             forward ? "Share of the P50's best purchase captured"
                     : "Share of the hindsight optimum captured",
             r->rec->captured_fraction, x->f.pct,
             forward ? "plan net savings / the best purchase for the P50"
                     : "plan net savings / the best purchase in hindsight");
    if (r->rec->backtest) {
        char cut[32], note[96];
        gp_format_time(r->rec->train_until, cut, sizeof cut);
        snprintf(note, sizeof note,
                 "bought at %s, billed over the next "
                 "%zu hours",
                 cut, r->rec->test_hours);
        headline(x, s, row++, "Backtest: net savings out of sample",
                 r->rec->test_plan_net_savings, x->f.money, note);
        headline(x, s, row++, "Backtest: share of hindsight captured",
                 r->rec->test_captured_fraction, x->f.pct,
                 "out of sample, against the best buy in hindsight");
    }
    if (r->rec->forward) {
        headline(x, s, row++, "Net savings if demand is the P10",
                 r->rec->forward_downside_net_savings, x->f.money,
                 "bought for the forecast's P50");
        headline(x, s, row++, "Net savings if demand is the P90",
                 r->rec->forward_upside_net_savings, x->f.money, NULL);
    }
    return row;
}

/* The headline block; returns the next free row and fills *hc. */
static size_t summary_headline(gp_xl *x, xl_sheet *s, size_t row, size_t hours,
                               struct headline_cells *hc)
{
    const gp_report *r = x->r;
    char f1[192], a[XL_CELL_SIZE], b[XL_CELL_SIZE], c[XL_CELL_SIZE];
    struct headline_costs k;

    bool forward = r->rec && r->rec->forward;
    hc->split = false;
    hc->current_fixed = hc->plan_fixed = 0;
    worksheet_write_string(s->ws, (lxw_row_t)row++, 0,
                           forward ? "Headline, over the forecast horizon "
                                     "(P50 demand)"
                                   : "Headline, over the data window",
                           x->f.h2);
    headline_costs_of(r, forward, &k, hc);
    double current = k.current, plan = k.plan;
    size_t r0 = row;
    hc->current_row = r0;
    hc->plan_row = r0 + 1;
    hc->current = current;
    hc->plan = plan;
    gp_xl_cell(a, r0, 1, true);
    gp_xl_cell(b, r0 + 1, 1, true);
    gp_xl_cell(c, r0 + 2, 1, true);
    headline(x, s, row++, k.current_label, current, x->f.money_bold,
             k.current_note);
    headline(x, s, row++, k.plan_label, plan, x->f.money_bold,
             "billed hour by hour, commitments amortized");
    snprintf(f1, sizeof f1, "=%s-%s", a, b);
    headline_formula(x, s, row++, "Net savings", f1, current - plan,
                     x->f.money_bold, "current cost minus plan cost");
    snprintf(f1, sizeof f1, "=IF(%s>0,%s/%s,0)", a, c, a);
    headline_formula(x, s, row++, "Savings", f1,
                     current > 0 ? (current - plan) / current : 0, x->f.pct,
                     "net savings / current cost");
    if (r->rec) {
        headline(x, s, row++, "Upfront cash to buy the plan", k.upfront,
                 x->f.money, "paid at purchase, on top of the hourly fees");
    } else {
        const gp_ledger *l = r->ledgers[r->proposed];
        double cash = 0;
        for (size_t i = 0; i < l->n_months; i++)
            cash += l->months[i].total_cash;
        headline(x, s, row++, "Cash paid in the window", cash, x->f.money,
                 "upfronts paid in the window, fees as billed");
    }
    snprintf(f1, sizeof f1, "=%s*8760/%zu", c, hours);
    char scaled[160];
    snprintf(scaled, sizeof scaled,
             "scaled from %.1f days (%zu hours) of data to a year (8,760 "
             "hours): it assumes those days repeat all year",
             (double)hours / 24, hours);
    headline_formula(x, s, row++, "Net savings per year at this rate", f1,
                     (current - plan) * 8760.0 / (double)hours, x->f.money,
                     scaled);
    if (r->rec)
        row = headline_recommendation(x, s, row, forward);
    return row + 1;
}

/* The strategies l[0..n) in a table from `row` under heading `title`;
 * returns the next free row. */
static size_t summary_strategies(gp_xl *x, xl_sheet *s, size_t row,
                                 gp_ledger *const *l, size_t n,
                                 const char *title)
{
    static const char *const h[] = {"Strategy",           "Total cost",
                                    "All on-demand cost", "Savings",
                                    "Savings %",          "Coverage"};
    worksheet_write_string(s->ws, (lxw_row_t)row++, 0, title, x->f.h2);
    size_t head = row;
    for (size_t i = 0; i < n; i++) {
        row++;
        gp_xl_ledger_head(x, s, row, l[i]);
        gp_xl_num(s, row, 5, l[i]->coverage, x->f.pct);
    }
    gp_xl_table(x, s, head, row, 0, h, 6);
    return row + 2;
}

/* A recommendation's workbook: the scenario's strategies as simulate
 * bills them (Plans shows them too), the cheapest named; returns the
 * next free row. */
static size_t summary_scenario_strategies(gp_xl *x, xl_sheet *s, size_t row)
{
    const gp_run_info *info = x->r->info;
    char title[256];
    size_t best = 0;

    if (!info || info->n_strategies < 2)
        return row;
    for (size_t i = 1; i < info->n_strategies; i++)
        if (info->strategies[i]->total_cost <
            info->strategies[best]->total_cost)
            best = i;
    snprintf(title, sizeof title,
             "The scenario's strategies (see Plans): the cheapest is %s",
             info->strategies[best]->strategy);
    return summary_strategies(x, s, row, info->strategies,
                              info->n_strategies, title);
}

/* Top actions (recommend) or the strategies (simulate). */
static size_t summary_actions(gp_xl *x, xl_sheet *s, size_t row)
{
    const gp_report *r = x->r;
    char what[200];

    if (r->rec) {
        static const char *const h[] = {"Action", "Net savings", "Upfront",
                                        "Break-even utilization",
                                        "Expected utilization"};
        size_t n = r->rec->n_actions < 5 ? r->rec->n_actions : 5;
        worksheet_write_string(s->ws, (lxw_row_t)row++, 0,
                               "Top actions (see Recommendations)", x->f.h2);
        if (n == 0) {
            worksheet_write_string(s->ws, (lxw_row_t)row, 0,
                                   "nothing to buy: no commitment would pay "
                                   "for itself",
                                   x->f.note);
            return summary_scenario_strategies(x, s, row + 2);
        }
        size_t head = row;
        for (size_t i = 0; i < n; i++) {
            const gp_action *ac = &r->rec->actions[i];
            char line[220];
            row++;
            gp_action_plain(ac, what, sizeof what);
            snprintf(line, sizeof line, "%d. %s", ac->rank, what);
            gp_xl_wrap(s, row, 0, line, x->f.wrap, 50);
            gp_xl_num(s, row, 1, ac->net_savings, x->f.money);
            gp_xl_num(s, row, 2,
                      ac->type == GP_ACTION_ROUTING ? 0 : ac->upfront,
                      x->f.money);
            gp_xl_num(s, row, 3,
                      ac->type == GP_ACTION_ROUTING ? NAN
                                                    : ac->breakeven_utilization,
                      x->f.pct);
            gp_xl_num(s, row, 4,
                      ac->type == GP_ACTION_ROUTING ? NAN
                                                    : ac->expected_utilization,
                      x->f.pct);
        }
        gp_xl_table(x, s, head, row, 0, h, 5);
        return summary_scenario_strategies(x, s, row + 2);
    }
    return summary_strategies(x, s, row, r->ledgers, r->n_ledgers,
                              "Strategies (see Plans)");
}

/* The what-if block of a recommendation that buys something: input
 * cells (in1, in2) for an extra discount on commitment rates and a change
 * in on-demand prices, and the Recommendations rows in the plan summed
 * over them.  Returns the next free row. */
static size_t what_if_actions(gp_xl *x, xl_sheet *s, size_t row,
                              const xl_rec_rows *rr, const char *in1,
                              const char *in2)
{
    char f[640], m0[XL_CELL_SIZE], m1[XL_CELL_SIZE], n0[XL_CELL_SIZE],
        n1[XL_CELL_SIZE], cc[XL_CELL_SIZE], rc[XL_CELL_SIZE];

    worksheet_write_string(s->ws, (lxw_row_t)row, 0,
                           "Extra discount on commitment rates",
                           x->f.label);
    worksheet_write_number(s->ws, (lxw_row_t)row++, 1, 0, x->f.in_pct);
    worksheet_write_string(s->ws, (lxw_row_t)row, 0,
                           "Change in on-demand prices", x->f.label);
    worksheet_write_number(s->ws, (lxw_row_t)row++, 1, 0, x->f.in_pct);
    gp_xl_cell(m0, rr->first, 12, true);
    gp_xl_cell(m1, rr->last, 12, true);
    gp_xl_cell(n0, rr->first, 13, true);
    gp_xl_cell(n1, rr->last, 13, true);
    gp_xl_cell(cc, row, 1, true);
    gp_xl_cell(rc, row + 1, 1, true);
    /* the rows the plan buys: renewals, on top of it, are left out */
    char p0[XL_CELL_SIZE], p1[XL_CELL_SIZE];
    gp_xl_cell(p0, rr->first, XL_REC_IN_PLAN_COL, true);
    gp_xl_cell(p1, rr->last, XL_REC_IN_PLAN_COL, true);
    if (rr->annual_routed > 0) {
        /* routing's spot spend takes no commitment discount */
        char c0[XL_CELL_SIZE], c1[XL_CELL_SIZE];
        gp_xl_cell(c0, rr->first, 2, true);
        gp_xl_cell(c1, rr->last, 2, true);
        snprintf(f, sizeof f,
                 "=SUMIFS(Recommendations!%s:%s,Recommendations!%s:%s,"
                 "\"<>routing\",Recommendations!%s:%s,\"yes\")*(1-%s)"
                 "+SUMIFS(Recommendations!%s:%s,Recommendations!%s:%s,"
                 "\"routing\",Recommendations!%s:%s,\"yes\")",
                 m0, m1, c0, c1, p0, p1, in1, m0, m1, c0, c1, p0, p1);
        headline_formula(x, s, row++, "Annual cost of the actions", f,
                         rr->annual_cost, x->f.money,
                         "commitments: rate x quantity x 8,760 h; "
                         "routing: training's spot spend; the rows in "
                         "the plan on Recommendations");
    } else {
        snprintf(f, sizeof f,
                 "=SUMIF(Recommendations!%s:%s,\"yes\","
                 "Recommendations!%s:%s)*(1-%s)",
                 p0, p1, m0, m1, in1);
        headline_formula(x, s, row++, "Annual cost of the commitments", f,
                         rr->annual_cost, x->f.money,
                         "rate x quantity x 8,760 h, the rows in the "
                         "plan on Recommendations");
    }
    snprintf(f, sizeof f,
             "=SUMIF(Recommendations!%s:%s,\"yes\",Recommendations!%s:%s)"
             "*(1+%s)",
             p0, p1, n0, n1, in2);
    int64_t start;
    size_t hours;
    char scaled[160];
    gp_xl_window_of(x->r, &start, &hours);
    snprintf(scaled, sizeof scaled,
             "the window's covered usage at on-demand rates, scaled from "
             "%.1f days to a year",
             (double)hours / 24);
    headline_formula(x, s, row++, "Spend the actions replace, per year", f,
                     rr->replaced, x->f.money, scaled);
    snprintf(f, sizeof f, "=%s-%s", rc, cc);
    snprintf(scaled, sizeof scaled,
             "what the purchases save per year at these rates, if the "
             "window's %.1f days repeat all year",
             (double)hours / 24);
    headline_formula(x, s, row++, "Annual net savings of the actions", f,
                     rr->replaced - rr->annual_cost, x->f.money_bold, scaled);
    return row + 1;
}

/* The what-if block of simulate, or of a recommendation with nothing to
 * buy: the headline's costs scaled by the input cells (in1, a discount on
 * every price; in2, a change in demand), with the commitment charges held
 * where the ledgers split them out.  Returns the next free row. */
static size_t what_if_scaled(gp_xl *x, xl_sheet *s, size_t row,
                             const struct headline_cells *hc, const char *in1,
                             const char *in2)
{
    char f[640], cc[XL_CELL_SIZE], rc[XL_CELL_SIZE];

    /* simulate, or nothing to buy: scale the headline linearly */
    char cur[XL_CELL_SIZE], plan[XL_CELL_SIZE];
    gp_xl_cell(cur, hc->current_row, 1, true);
    gp_xl_cell(plan, hc->plan_row, 1, true);
    worksheet_write_string(s->ws, (lxw_row_t)row, 0, "Discount on every price",
                           x->f.label);
    worksheet_write_number(s->ws, (lxw_row_t)row++, 1, 0, x->f.in_pct);
    worksheet_write_string(s->ws, (lxw_row_t)row, 0, "Change in demand",
                           x->f.label);
    worksheet_write_number(s->ws, (lxw_row_t)row++, 1, 0, x->f.in_pct);
    double c0 = hc->current, p0 = hc->plan;
    if (hc->split) {
        /* commitments are not resized: their charges stay, the on-demand
         * and spot spend scales with demand */
        char cf[XL_CELL_SIZE], pf[XL_CELL_SIZE];
        gp_xl_cell(cf, row, 1, true);
        gp_xl_cell(pf, row + 1, 1, true);
        headline(x, s, row++, "Commitment charges in the current cost",
                 hc->current_fixed, x->f.money,
                 "reserved and savings-plan fees, amortized: they do not "
                 "change with demand");
        headline(x, s, row++, "Commitment charges in the plan cost",
                 hc->plan_fixed, x->f.money, NULL);
        snprintf(f, sizeof f, "=(%s+(%s-%s)*%s)*(1-%s)", cur, cur, cf, in2,
                 in1);
        headline_formula(x, s, row++, "Current cost", f, c0, x->f.money,
                         "on-demand and spot spend scale with demand; "
                         "commitments are not resized");
        snprintf(f, sizeof f, "=(%s+(%s-%s)*%s)*(1-%s)", plan, plan, pf, in2,
                 in1);
        headline_formula(x, s, row++, "Plan cost", f, p0, x->f.money, NULL);
    } else {
        snprintf(f, sizeof f, "=%s*(1-%s)*(1+%s)", cur, in1, in2);
        headline_formula(x, s, row++, "Current cost", f, c0, x->f.money,
                         "scales linearly, owned commitments too (a "
                         GP_PARAM_TEXT("forward") " plan bills no ledger to "
                         "split them out)");
        snprintf(f, sizeof f, "=%s*(1-%s)*(1+%s)", plan, in1, in2);
        headline_formula(x, s, row++, "Plan cost", f, p0, x->f.money, NULL);
    }
    gp_xl_cell(cc, row - 2, 1, true);
    gp_xl_cell(rc, row - 1, 1, true);
    snprintf(f, sizeof f, "=%s-%s", cc, rc);
    headline_formula(x, s, row++, "Net savings", f, c0 - p0, x->f.money_bold,
                     NULL);
    return row + 1;
}

/* The what-if block: yellow input cells and formulas over them. */
static size_t summary_what_if(gp_xl *x, xl_sheet *s, size_t row,
                              const xl_rec_rows *rr,
                              const struct headline_cells *hc)
{
    char in1[XL_CELL_SIZE], in2[XL_CELL_SIZE];

    worksheet_write_string(s->ws, (lxw_row_t)row++, 0,
                           "What if (change the yellow cells)", x->f.h2);
    gp_xl_cell(in1, row, 1, true);
    gp_xl_cell(in2, row + 1, 1, true);
    if (x->r->rec && rr->last >= rr->first)
        return what_if_actions(x, s, row, rr, in1, in2);
    return what_if_scaled(x, s, row, hc, in1, in2);
}

/* One warning line under "Warnings and notes". */
static void summary_warning(gp_xl *x, xl_sheet *s, size_t *row,
                            const char *text)
{
    gp_xl_para(s, (*row)++, gp_xl_shown(x, text), x->f.warn_wrap);
}

/* Warnings: unlabelled usage, idle spans, the run's warnings (estimated
 * prices, stale catalogs, rejected rows, classified workloads), the
 * recommender's and the forecaster's notes. */
static size_t summary_warnings(gp_xl *x, xl_sheet *s, size_t row)
{
    const gp_report *r = x->r;
    const gp_trace *t = x->t;
    size_t first = row + 1;

    worksheet_write_string(s->ws, (lxw_row_t)row++, 0, "Warnings and notes",
                           x->f.h2);
    /* the usage's own warnings, then the run's, as inputs.warnings */
    gp_warnings usage = {NULL, 0, 0};
    gp_usage_warnings(t, r->idle, &usage);
    for (size_t i = 0; i < usage.count; i++)
        summary_warning(x, s, &row, usage.items[i]);
    gp_warnings_clear(&usage);
    for (size_t i = 0; i < r->info->warnings.count; i++)
        summary_warning(x, s, &row, r->info->warnings.items[i]);
    if (r->rec)
        for (size_t i = 0; i < r->rec->notes.count; i++)
            summary_warning(x, s, &row, r->rec->notes.items[i]);
    /* (a forward plan's notes hold its forecast's already) */
    if (r->forecast && !(r->rec && r->rec->forecast == r->forecast))
        for (size_t i = 0; i < r->forecast->notes.count; i++)
            summary_warning(x, s, &row, r->forecast->notes.items[i]);
    if (row == first)
        worksheet_write_string(s->ws, (lxw_row_t)row++, 0, "none", x->f.note);
    return row + 1;
}

/* A row of two dates (epoch seconds) in B and C, and a note in D. */
static void date_row(gp_xl *x, xl_sheet *s, size_t row, const char *label,
                     int64_t from, int64_t to, const char *note)
{
    worksheet_write_string(s->ws, (lxw_row_t)row, 0, label, x->f.label);
    gp_xl_num(s, row, 1, gp_xl_when((double)from), x->f.when);
    gp_xl_num(s, row, 2, gp_xl_when((double)to), x->f.when);
    worksheet_write_string(s->ws, (lxw_row_t)row, 3, note, x->f.note);
}

/* The forecast's headline: the horizon and its demand, with the stale
 * trace's warning beside it; left out, a line saying why, when the
 * horizon is past (a forecast from the hours before a cut is a backtest,
 * asked for: it stays). */
static size_t summary_forecast(gp_xl *x, xl_sheet *s, size_t row)
{
    const gp_forecast *fc = x->r->forecast;
    gp_forecast_headline h;
    int64_t a = fc->start_hour * 3600;
    int64_t z = (fc->start_hour + (int64_t)fc->n_hours) * 3600;
    char buf[400], from[32], to[32], today[32];

    gp_report_forecast_headline(x->r->info, fc, &h);
    worksheet_write_string(s->ws, (lxw_row_t)row++, 0,
                           "Forecast headline (see Forecast)", x->f.h2);
    if (h.past && !x->r->info->train_until) {
        gp_format_time(a, from, sizeof from);
        gp_format_time(z, to, sizeof to);
        gp_format_time(x->r->info->today, today, sizeof today);
        from[10] = to[10] = today[10] = '\0'; /* the dates alone */
        snprintf(buf, sizeof buf,
                 "left out: the forecast runs from the trace's end, %s to "
                 "%s, which is before today (%s); the Forecast sheet shows "
                 "it, but it plans nothing ahead: give a recent trace",
                 from, to, today);
        gp_xl_para(s, row++, buf, x->f.warn_wrap);
        gp_warnings_clear(&h.stale);
        return row + 1;
    }
    for (size_t i = 0; i < h.stale.count; i++)
        gp_xl_para(s, row++, h.stale.items[i], x->f.warn_wrap);
    gp_warnings_clear(&h.stale);
    snprintf(buf, sizeof buf, "%zu hours, %zu series", fc->n_hours,
             fc->n_series);
    date_row(x, s, row++, "Horizon", a, z, buf);
    headline(x, s, row++, "Instance-hours demanded, P50", h.p50, x->f.num,
             "summed over every series and hour");
    headline(x, s, row++, "Instance-hours demanded, P10", h.p10, x->f.num,
             "a low case: hourly P10s summed");
    headline(x, s, row++, "Instance-hours demanded, P90", h.p90, x->f.num,
             "a high case: hourly P90s summed");
    return row + 1;
}

/* The first sheet: what a reader needs without reading further. */
void gp_xl_sheet_summary(gp_xl *x, const xl_rec_rows *rr)
{
    const gp_report *r = x->r;
    xl_sheet s;
    int64_t start;
    size_t hours, row;
    char line[400];

    gp_xl_sheet_new(x, &s, "Summary");
    gp_xl_window_of(r, &start, &hours);
    gp_xl_heading(x, &s,
                  r->rec ? "GPU purchasing plan"
                         : (r->n_ledgers ? "GPU purchasing strategies compared"
                                         : "GPU demand forecast"),
                  NULL);
    /* the rows in the numbers: those set aside are said apart */
    const gp_trace *t = r->info->trace;
    char rejected[48] = "";
    if (t->rows_rejected)
        snprintf(rejected, sizeof rejected, " (%llu rejected)",
                 (unsigned long long)t->rows_rejected);
    snprintf(line, sizeof line,
             "gpuplan %s %s; scenario %s; %llu trace rows%s; all amounts in "
             "%s; times in UTC",
             GP_VERSION, r->info->command,
             r->info->scenario->name ? r->info->scenario->name : "(default)",
             (unsigned long long)(t->rows_read - t->rows_rejected), rejected,
             gp_money_currency());
    gp_xl_para(&s, 1, line, x->f.subtitle_wrap);
    snprintf(line, sizeof line, "%zu hours (%.1f days), %s", hours,
             (double)hours / 24,
             r->info->used_sample ? "the bundled sample" : "the given trace");
    date_row(x, &s, 2,
             r->rec && r->rec->forward
                 ? "Planned for the forecast horizon"
                 : (r->n_ledgers || r->rec ? "Data window"
                                           : "History forecast from"),
             start * 3600, (start + (int64_t)hours) * 3600, line);
    row = 4;
    if (r->n_ledgers || r->rec) {
        struct headline_cells hc;
        row = summary_headline(x, &s, row, hours, &hc);
        row = summary_actions(x, &s, row);
        row = summary_what_if(x, &s, row, rr, &hc);
    }
    if (r->forecast)
        row = summary_forecast(x, &s, row);
    summary_warnings(x, &s, row);
    s.width[0] = s.width[0] > 44 ? s.width[0] : 44;
    if (s.width[1] < 18)
        s.width[1] = 18;
    if (s.width[2] < 18)
        s.width[2] = 18;
    gp_xl_fit(&s);
    worksheet_activate(s.ws);
}
