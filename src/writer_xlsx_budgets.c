/*
 * writer_xlsx_budgets.c: the workbook's Budgets sheet (SPEC 7.5): every
 * team's or project's spend month by month under each strategy beside its
 * monthly budget, the months over it in red (a conditional format, so a
 * reader who edits a budget sees the flags move), and the month a
 * forecast says each budget is crossed.  Formats only; budget.c computes.
 */
#include "budget.h"
#include "writer_xlsx.h"

#include <stdio.h>

/* The most strategies the sheet puts side by side. */
#define MAX_COLS 40

/* "team research" of budget b. */
static void budget_label(const gp_budget *b, char *buf, size_t size)
{
    snprintf(buf, size, "%s %s", b->by_project ? "project" : "team", b->name);
}

/* Month by month: the budget, then each strategy's spend; a cell over the
 * row's budget is filled red by a conditional format. */
static size_t month_rows(gp_xl *x, xl_sheet *s, size_t row,
                         const gp_budget_report *r, size_t n,
                         const gp_scenario *sc)
{
    char head[MAX_COLS][80], label[300];
    const char *h[MAX_COLS + 3] = {"Team or project", "Month",
                                   "Monthly budget"};
    size_t cols = 3 + (n < MAX_COLS ? n : MAX_COLS), first = row;

    for (size_t i = 0; i + 3 < cols; i++) {
        snprintf(head[i], sizeof head[i], "%.60s spent",
                 x->r->ledgers[i]->strategy);
        h[i + 3] = head[i];
    }
    for (size_t k = 0; k < r[0].n_months; k++) {
        const gp_budget_month *m = &r[0].months[k];
        char ym[16];
        row++;
        budget_label(&sc->budgets[m->budget], label, sizeof label);
        snprintf(ym, sizeof ym, "%04d-%02d", m->year, m->month);
        gp_xl_text(s, row, 0, label, x->f.text);
        gp_xl_text(s, row, 1, ym, x->f.text);
        gp_xl_num(s, row, 2, m->budget_amount, x->f.money);
        for (size_t i = 0; i + 3 < cols; i++)
            gp_xl_num(s, row, 3 + i, r[i].months[k].spent, x->f.money);
    }
    gp_xl_table(x, s, first, row, 0, h, cols);
    if (row > first) {
        char budget_cell[XL_CELL_SIZE];
        /* relative to the range's first row: each row its own budget */
        snprintf(budget_cell, sizeof budget_cell, "$C%zu", first + 2);
        lxw_conditional_format cf = {0};
        cf.type = LXW_CONDITIONAL_TYPE_CELL;
        cf.criteria = LXW_CONDITIONAL_CRITERIA_GREATER_THAN;
        cf.value_string = budget_cell;
        cf.format = x->f.over;
        worksheet_conditional_format_range(
            s->ws, (lxw_row_t)first + 1, 3, (lxw_row_t)row,
            (lxw_col_t)(cols - 1), &cf);
    }
    return row + 2;
}

/* The forecast's verdict: per budget, the first month over it under each
 * strategy. */
static void crossing_rows(gp_xl *x, xl_sheet *s, size_t row,
                          const gp_budget_report *r, size_t n,
                          const gp_scenario *sc)
{
    char head[MAX_COLS][80], label[300], what[160];
    const char *h[MAX_COLS + 2] = {"Team or project", "Monthly budget"};
    size_t cols = 2 + (n < MAX_COLS ? n : MAX_COLS);

    worksheet_write_string(s->ws, (lxw_row_t)row++, 0,
                           "Forecast: the first month over budget", x->f.h2);
    snprintf(what, sizeof what,
             "P50 demand for %d weeks after the trace, at each strategy's "
             "cost per instance-hour, added to what the window billed",
             GP_BUDGET_HORIZON_HOURS / 168);
    gp_xl_text(s, row++, 0, what, x->f.note);
    size_t first = row;
    for (size_t i = 0; i + 2 < cols; i++) {
        snprintf(head[i], sizeof head[i], "%.60s crosses in",
                 x->r->ledgers[i]->strategy);
        h[i + 2] = head[i];
    }
    for (size_t b = 0; b < r[0].n_crossings; b++) {
        row++;
        budget_label(&sc->budgets[b], label, sizeof label);
        gp_xl_text(s, row, 0, label, x->f.text);
        gp_xl_num(s, row, 1, sc->budgets[b].monthly, x->f.money);
        for (size_t i = 0; i + 2 < cols; i++) {
            const gp_budget_crossing *c = &r[i].crossings[b];
            char ym[32];
            if (c->year)
                snprintf(ym, sizeof ym, "%04d-%02d", c->year, c->month);
            else
                snprintf(ym, sizeof ym, "not within %d weeks",
                         GP_BUDGET_HORIZON_HOURS / 168);
            gp_xl_text(s, row, 2 + i, ym, x->f.text);
        }
    }
    if (row > first)
        gp_xl_table(x, s, first, row, 0, h, cols);
    else
        gp_xl_text(s, row, 0, "no forecast could be made (see Summary)",
                   x->f.note);
}

void gp_xl_sheet_budgets(gp_xl *x)
{
    const gp_run_info *info = x->r->info;
    const gp_scenario *sc = info->scenario;
    xl_sheet s;

    if (!info->budgets || !sc || !sc->n_budgets || !x->r->n_ledgers)
        return;
    gp_xl_sheet_new(x, &s, "Budgets");
    gp_xl_heading(x, &s, "Budgets by team and project",
                  "each strategy's spend month by month (the chargeback's "
                  "allocation) against the scenario's monthly budgets; red: "
                  "over budget");
    size_t row = month_rows(x, &s, 3, info->budgets, x->r->n_ledgers, sc);
    crossing_rows(x, &s, row, info->budgets, x->r->n_ledgers, sc);
    s.width[0] = 22;
    gp_xl_fit(&s);
}
