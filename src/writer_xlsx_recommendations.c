/*
 * writer_xlsx_recommendations.c: the Recommendations sheet, the ranked
 * purchases whose annual cost and savings are live formulas of their rate
 * and quantity cells, and the figures behind those formulas, which
 * Summary's what-if block sums too.
 */
#include "recommend.h"
#include "util.h"
#include "writer_xlsx.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- the figures behind the formulas --------------------------------------
 */

/* The rate of one unit of a commitment in $/h after the scenario discount:
 * a reservation's effective hourly, or 1 per committed dollar. */
static double unit_rate(const gp_report *r, const gp_commitment *c)
{
    double keep = 1.0 - r->info->scenario->discount;
    if (c->type == GP_COMMIT_SAVINGS_PLAN)
        return keep;
    const gp_reserved_offer *o =
        gp_reserved_offer_of(r->info->pricing, c, NULL);
    return o ? gp_reserved_effective_hourly(o) * keep : NAN;
}

/* Hours a commitment is active inside the window. */
static double active_hours(const gp_commitment *c, int64_t start_hour,
                           size_t n_hours)
{
    int64_t a = c->start / 3600, z = (c->end + 3599) / 3600;
    if (a < start_hour)
        a = start_hour;
    if (z > start_hour + (int64_t)n_hours)
        z = start_hour + (int64_t)n_hours;
    return z > a ? (double)(z - a) : 0;
}

/* Whether the recommended plan buys the action: everything but the
 * renewals, which come on top of it (README, Renewals). */
static bool in_plan(const gp_action *a)
{
    return !a->renewal;
}

/* One action's live-formula inputs: quantity, rate per unit ($/h), its
 * annual cost (quantity x rate x 8760; routing: training's spot spend per
 * year) and the on-demand spend it replaces per year (its window net
 * savings plus its window cost, scaled to a year over the hours its
 * savings are over: a renewal that starts in the window, the hours left;
 * one that starts after it is valued as if it ran the whole window). */
static void action_figures(const gp_report *r, const gp_action *a, double *qty,
                           double *rate, double *annual, double *replaced)
{
    const gp_recommendation *rec = r->rec;
    double on = 0;
    *qty = *rate = NAN;
    if (a->type != GP_ACTION_ROUTING) {
        *qty = a->c.type == GP_COMMIT_RESERVED ? a->c.count
                                               : a->c.hourly_commitment;
        *rate = unit_rate(r, &a->c);
        int64_t close = rec->start_hour + (int64_t)rec->n_hours;
        on = a->renewal && a->c.start >= close * 3600
                 ? (double)rec->n_hours
                 : active_hours(&a->c, rec->start_hour, rec->n_hours);
    }
    double per_year = 8760.0 / (double)rec->n_hours;
    if (a->type == GP_ACTION_ROUTING) {
        *annual = a->routed_cost * per_year;
        *replaced = (a->net_savings + a->routed_cost) * per_year;
        return;
    }
    *annual = isfinite(*qty) && isfinite(*rate) ? *qty * *rate * 8760 : 0;
    double window_cost = *annual > 0 ? *qty * *rate * on : 0;
    *replaced =
        (a->net_savings + window_cost) * (on > 0 ? 8760.0 / on : per_year);
}

void gp_xl_rec_rows_of(const gp_report *r, xl_rec_rows *rr)
{
    memset(rr, 0, sizeof *rr);
    rr->first = 1;
    if (!r->rec || r->rec->n_actions == 0)
        return;
    rr->first = 4;
    rr->last = 3 + r->rec->n_actions;
    for (size_t i = 0; i < r->rec->n_actions; i++) {
        const gp_action *a = &r->rec->actions[i];
        double q, k, annual, replaced;
        if (!in_plan(a))
            continue;
        action_figures(r, a, &q, &k, &annual, &replaced);
        rr->annual_cost += annual;
        rr->replaced += replaced;
        if (a->type == GP_ACTION_ROUTING)
            rr->annual_routed += annual;
        else
            rr->upfront += a->upfront;
    }
}

/* ---- Recommendations ----------------------------------------------------- */

/* One action's row of the Recommendations table, at `row`: what it buys,
 * its rate and quantity, and its annual cost and savings as live
 * formulas over them. */
static void rec_row(gp_xl *x, xl_sheet *s, size_t row, const gp_action *a)
{
    char f[192], c1[XL_CELL_SIZE], c2[XL_CELL_SIZE], what[200];
    double qty, rate, annual, replaced;
    action_figures(x->r, a, &qty, &rate, &annual, &replaced);
    gp_action_plain(a, what, sizeof what);
    gp_xl_num(s, row, 0, a->rank, x->f.count);
    gp_xl_wrap(s, row, 1, what, x->f.wrap, 30);
    gp_xl_text(s, row, 2, gp_action_type_name(a->type), x->f.text);
    if (a->type == GP_ACTION_ROUTING) {
        gp_xl_text(s, row, 5, "training on spot", x->f.text);
    } else {
        const gp_commitment *c = &a->c;
        gp_xl_text(s, row, 3, c->provider, x->f.text);
        gp_xl_text(s, row, 4, c->region, x->f.text);
        if (c->type == GP_COMMIT_RESERVED)
            gp_xl_text(s, row, 5, c->instance_type, x->f.text);
        else if (c->kind == GP_PLAN_FAMILY) {
            char k[64];
            snprintf(k, sizeof k, "instance_family %s", c->family);
            gp_xl_text(s, row, 5, k, x->f.text);
        } else
            gp_xl_text(s, row, 5, "compute", x->f.text);
        gp_xl_num(s, row, 6, c->term_years, x->f.count);
        gp_xl_text(s, row, 7, gp_payment_name(c->payment), x->f.text);
        gp_xl_num(s, row, 8, qty, x->f.num);
        char unit[32];
        gp_xl_text(
            s, row, 9,
            c->type == GP_COMMIT_RESERVED
                ? "instances"
                : gp_xl_money_header(unit, sizeof unit, "", "/h committed"),
            x->f.text);
        gp_xl_num(s, row, 10, rate, x->f.money);
        gp_xl_num(s, row, 11, a->upfront, x->f.money);
    }
    /* annual cost = quantity x rate x 8760; routing's is its spot
     * spend, a figure */
    gp_xl_cell(c1, row, 8, false);
    gp_xl_cell(c2, row, 10, false);
    snprintf(f, sizeof f, "=%s*%s*8760", c1, c2);
    if (a->type == GP_ACTION_ROUTING)
        gp_xl_num(s, row, 12, annual, x->f.money);
    else
        gp_xl_formula(s, row, 12, f, annual, x->f.money);
    /* the on-demand spend it replaces: its window savings plus its
     * window cost, scaled to a year */
    gp_xl_num(s, row, 13, replaced, x->f.money);
    gp_xl_cell(c1, row, 13, false);
    gp_xl_cell(c2, row, 12, false);
    snprintf(f, sizeof f, "=%s-%s", c1, c2);
    gp_xl_formula(s, row, 14, f, replaced - annual, x->f.money);
    gp_xl_num(s, row, 15, a->net_savings, x->f.money);
    gp_xl_num(s, row, 16, a->savings_pct, x->f.pct);
    if (a->type != GP_ACTION_ROUTING) {
        gp_xl_num(s, row, 17, a->breakeven_utilization, x->f.pct);
        gp_xl_num(s, row, 18, a->expected_utilization, x->f.pct);
    }
    gp_xl_num(s, row, 19, a->downside_net_savings, x->f.money);
    gp_xl_text(s, row, XL_REC_IN_PLAN_COL, in_plan(a) ? "yes" : "no",
               x->f.text);
    gp_xl_wrap(s, row, XL_REC_IN_PLAN_COL + 1, a->reason, x->f.wrap, 40);
}

/* The totals under the Recommendations table (which ends at `row`), live
 * too, over the rows the plan buys, and the note on what the columns
 * mean. */
static void rec_totals(gp_xl *x, xl_sheet *s, size_t row,
                       const xl_rec_rows *rr)
{
    char f[192], c1[XL_CELL_SIZE], c2[XL_CELL_SIZE];

    row += 1;
    worksheet_write_string(s->ws, (lxw_row_t)row, 1, "Total, the plan",
                           x->f.label);
    static const size_t sum_cols[] = {11, 12, 13, 14};
    char p1[XL_CELL_SIZE], p2[XL_CELL_SIZE];
    gp_xl_cell(p1, rr->first, XL_REC_IN_PLAN_COL, true);
    gp_xl_cell(p2, rr->last, XL_REC_IN_PLAN_COL, true);
    for (size_t k = 0; k < 4; k++) {
        double v = rr->upfront;
        if (sum_cols[k] == 12)
            v = rr->annual_cost;
        else if (sum_cols[k] == 13)
            v = rr->replaced;
        else if (sum_cols[k] == 14)
            v = rr->replaced - rr->annual_cost;
        gp_xl_cell(c1, rr->first, sum_cols[k], false);
        gp_xl_cell(c2, rr->last, sum_cols[k], false);
        snprintf(f, sizeof f, "=SUMIF(%s:%s,\"yes\",%s:%s)", p1, p2, c1, c2);
        gp_xl_formula(s, row, sum_cols[k], f, v, x->f.money_bold);
    }
    gp_xl_para(s, row + 2,
                           "Rate per unit: a reservation's effective hourly "
                           "rate (hourly + upfront / term hours), 1 per "
                           "dollar of a savings plan, after the scenario "
                           "discount. The routing action's annual cost is "
                           "what training costs on spot per year, "
                           "interruptions included; the spend it replaces, "
                           "training's cost without it. Renewals are "
                           "offered on top of the plan: not in it, nor in "
                           "its total or Summary's what-if; renew those that "
                           "save, let those that cost lapse.",
                           x->f.note_wrap);
}

/* The ranked purchases, with live formulas, and the plan's totals. */
void gp_xl_sheet_recommendations(gp_xl *x, const xl_rec_rows *rr)
{
    char rate_head[32];
    const char *const h[] = {"Rank",
                             "Action",
                             "Type",
                             "Provider",
                             "Region",
                             "Instance type or plan",
                             "Term (years)",
                             "Payment",
                             "Quantity",
                             "Unit",
                             gp_xl_money_header(rate_head, sizeof rate_head,
                                                "Rate per unit (", "/h)"),
                             "Upfront",
                             "Annual cost",
                             "On-demand spend replaced per year",
                             "Annual net savings",
                             "Net savings in the window",
                             "Savings %",
                             "Break-even utilization",
                             "Expected utilization",
                             "Low-demand net savings",
                             "In the plan",
                             "Why"};
    const gp_recommendation *rec = x->r->rec;
    xl_sheet s;
    size_t row = 3;

    gp_xl_sheet_new(x, &s, "Recommendations");
    gp_xl_heading(x, &s, "Recommendations",
                  "Ranked in billing order; each action's net savings are on "
                  "top of the actions above it. Change a rate or quantity and "
                  "the annual cost and savings recompute.");
    if (!rec) {
        gp_xl_not_computed(x, &s, 3,
                           "simulate bills the scenario's strategies; gpuplan "
                           "recommend " GP_PARAM_TEXT("out") " ranks what "
                           "to buy");
        gp_xl_fit(&s);
        return;
    }
    if (rec->n_actions == 0) {
        gp_xl_para(&s, 3,
                   "nothing to buy: no commitment would pay for itself over "
                   "the window",
                   x->f.note_wrap);
        gp_xl_fit(&s);
        return;
    }
    for (size_t i = 0; i < rec->n_actions; i++)
        rec_row(x, &s, ++row, &rec->actions[i]);
    gp_xl_table(x, &s, 3, row, 0, h, XL_REC_IN_PLAN_COL + 2);
    rec_totals(x, &s, row, rr);
    worksheet_freeze_panes(s.ws, 4, 2);
    gp_xl_fit(&s);
    /* type, provider, region, instance type or plan, term and payment,
     * which the Action says in words, are grouped and collapsed (the +
     * over column I shows them), so the table prints one page wide at a
     * size that can be read; the Summary's formulas read them all the
     * same */
    lxw_row_col_options o;
    memset(&o, 0, sizeof o);
    o.hidden = 1;
    o.level = 1;
    for (lxw_col_t c = 2; c <= 7; c++)
        worksheet_set_column_opt(s.ws, c, c, s.width[c] < 60 ? s.width[c] : 60,
                                 NULL, &o);
    memset(&o, 0, sizeof o);
    o.collapsed = 1;
    worksheet_set_column_opt(s.ws, 8, 8, s.width[8], NULL, &o);
}
