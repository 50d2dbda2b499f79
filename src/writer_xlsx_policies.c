/*
 * writer_xlsx_policies.c: the workbook's Policies sheet (SPEC 7.3): each
 * purchase policy replayed over the trace (its cost, effective savings
 * rate, coverage, utilization and what it leaves owed), then month by
 * month, with a chart of ESR and coverage over time.  Formats only.
 */
#include "policy.h"
#include "writer_xlsx.h"

#include <stdio.h>

/* One row per policy: its figures over the whole window. */
static size_t summary_rows(gp_xl *x, xl_sheet *s, size_t row,
                           const gp_policy_result *r, size_t n)
{
    static const char *const h[] = {
        "Policy", "Kind",     "Review",       "Total cost",
        "ESR",    "Coverage", "Utilization",  "Unused commitment",
        "Owed after the window", "Months of cost owed", "Purchases"};
    size_t first = row;
    for (size_t i = 0; i < n; i++) {
        row++;
        gp_xl_text(s, row, 0, r[i].policy->name, x->f.text);
        gp_xl_text(s, row, 1, gp_purchase_kind_name(r[i].policy->kind),
                   x->f.text);
        gp_xl_text(s, row, 2,
                   r[i].policy->review_months == 3 ? "quarterly" : "monthly",
                   x->f.text);
        gp_xl_num(s, row, 3, r[i].total_cost, x->f.money);
        gp_xl_num(s, row, 4, r[i].esr, x->f.pct);
        gp_xl_num(s, row, 5, r[i].coverage, x->f.pct);
        gp_xl_num(s, row, 6, r[i].commitment_utilization, x->f.pct);
        gp_xl_num(s, row, 7, r[i].unused_commitment_cost, x->f.money);
        gp_xl_num(s, row, 8, r[i].lock_in_cost, x->f.money);
        gp_xl_num(s, row, 9, r[i].lock_in_months, x->f.num);
        gp_xl_num(s, row, 10, (double)r[i].n_purchases, x->f.count);
    }
    gp_xl_table(x, s, first, row, 0, h, 11);
    return row + 2;
}

/* Month by month: each policy's ESR and coverage, then a line chart of
 * them.  Months are the first policy's (every replay bills the same
 * window). */
static void monthly_rows(gp_xl *x, xl_sheet *s, size_t row,
                         const gp_policy_result *r, size_t n)
{
    char head[64][80];
    const char *h[64];
    size_t cols = 1 + 2 * (n < 31 ? n : 31);
    h[0] = "Month";
    for (size_t i = 0; 1 + 2 * i < cols; i++) {
        snprintf(head[1 + 2 * i], sizeof head[0], "%.60s ESR",
                 r[i].policy->name);
        snprintf(head[2 + 2 * i], sizeof head[0], "%.60s coverage",
                 r[i].policy->name);
        h[1 + 2 * i] = head[1 + 2 * i];
        h[2 + 2 * i] = head[2 + 2 * i];
    }
    worksheet_write_string(s->ws, (lxw_row_t)row++, 0,
                           "Month by month", x->f.h2);
    size_t first = row;
    for (size_t m = 0; m < r[0].n_months; m++) {
        char ym[16];
        row++;
        snprintf(ym, sizeof ym, "%04d-%02d", r[0].months[m].year,
                 r[0].months[m].month);
        gp_xl_text(s, row, 0, ym, x->f.text);
        for (size_t i = 0; 1 + 2 * i < cols; i++) {
            double esr = m < r[i].n_months ? r[i].months[m].esr : 0;
            double cov = m < r[i].n_months ? r[i].months[m].coverage : 0;
            gp_xl_num(s, row, 1 + 2 * i, esr, x->f.pct);
            gp_xl_num(s, row, 2 + 2 * i, cov, x->f.pct);
        }
    }
    if (row == first)
        return;
    gp_xl_table(x, s, first, row, 0, h, cols);
    lxw_chart *ch = workbook_add_chart(x->wb, LXW_CHART_LINE);
    for (lxw_col_t c = 1; c < (lxw_col_t)cols; c++) {
        lxw_chart_series *se = chart_add_series(ch, NULL, NULL);
        chart_series_set_categories(se, s->name, (lxw_row_t)first + 1, 0,
                                    (lxw_row_t)row, 0);
        chart_series_set_values(se, s->name, (lxw_row_t)first + 1, c,
                                (lxw_row_t)row, c);
        chart_series_set_name(se, h[c]);
    }
    chart_title_set_name(ch, "Effective savings rate and coverage by month");
    chart_axis_set_num_format(ch->y_axis, "0%");
    chart_legend_set_position(ch, LXW_CHART_LEGEND_BOTTOM);
    gp_xl_insert_chart(x, s, first, cols + 1, ch, 1.6);
}

void gp_xl_sheet_policies(gp_xl *x)
{
    const gp_run_info *info = x->r->info;
    xl_sheet s;

    if (!info->policies || !info->n_policies)
        return;
    gp_xl_sheet_new(x, &s, "Policies");
    gp_xl_heading(x, &s, "Purchase policies, replayed",
                  "each buys at its reviews from the history before them; "
                  "ESR = savings / on-demand cost; owed after the window = "
                  "commitment still to pay when the trace ends");
    size_t row = summary_rows(x, &s, 3, info->policies, info->n_policies);
    monthly_rows(x, &s, row, info->policies, info->n_policies);
    s.width[0] = 18;
    gp_xl_fit(&s);
}
