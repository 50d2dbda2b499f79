/*
 * writer_xlsx_chargeback.c: the workbook's sheets about who spent the
 * money and what was wasted: Chargeback (by team, project and workload,
 * with a chart by team) and Idle (GPUs below the idle threshold).
 */
#include "idle.h"
#include "util.h"
#include "writer_xlsx.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- Chargeback --------------------------------------------------------- */

/* Cost and useful GPU-hours of one team in the proposed ledger;
 * cost_with_util is the part of the cost that came with a gpu_util (what
 * the cost per useful GPU-hour divides, gp_ledger_series_cost_with_util). */
typedef struct xl_team {
    const char *name;
    double cost, useful, util, cost_with_util;
} xl_team;

/* The formula of a cost per useful GPU-hour, =IF(useful>0,cost/useful,"")
 * with the cost cut to the share of it that came with a gpu_util when
 * that is not all of it, so that the cell equals the CSV table and the JSON
 * parameter. */
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

/* A row of every series' cost, per strategy, from `row`; returns the
 * table's last row. */
static size_t chargeback_series(gp_xl *x, xl_sheet *s, size_t row)
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
    const gp_report *r = x->r;
    const gp_trace *t = x->t;

    size_t first = row;
    for (size_t k = 0; k < r->n_ledgers; k++) {
        const gp_ledger *l = r->ledgers[k];
        for (size_t i = 0; i < l->n_series && row < XL_ROW_CAP; i++) {
            const gp_series *se = &t->series[i];
            const gp_ledger_series *ls = &l->series[i];
            const gp_pool *p = &t->pools[se->pool];
            row++;
            gp_xl_text(s, row, 0, l->strategy, x->f.text);
            gp_xl_text(s, row, 1, se->team >= 0 ? t->labels[se->team] : "",
                       x->f.text);
            gp_xl_text(s, row, 2,
                       se->project >= 0 ? t->labels[se->project] : "",
                       x->f.text);
            gp_xl_text(s, row, 3, gp_workload_name(se->workload), x->f.text);
            gp_xl_text(s, row, 4, p->catalog->provider, x->f.text);
            gp_xl_text(s, row, 5, p->catalog->region, x->f.text);
            gp_xl_text(s, row, 6, p->type->name, x->f.text);
            gp_xl_num(s, row, 7, ls->cost, x->f.money);
            gp_xl_num(s, row, 8, ls->instance_hours, x->f.num);
            gp_xl_num(s, row, 9, gp_ledger_series_useful_gpu_hours(l, i),
                      x->f.num);
            char a[XL_CELL_SIZE], b[XL_CELL_SIZE], f[192];
            gp_xl_cell(a, row, 7, false);
            gp_xl_cell(b, row, 9, false);
            per_useful_formula(f, sizeof f, a, b, ls->cost,
                               gp_ledger_series_cost_with_util(l, t, i));
            if (ls->useful_gpu_hours > 0)
                gp_xl_formula(
                    s, row, 10, f,
                    gp_ledger_series_cost_per_useful_gpu_hour(l, t, i),
                    x->f.money);
            else
                worksheet_write_formula_str(s->ws, (lxw_row_t)row, 10, f,
                                            x->f.money, "");
        }
        if (l->unallocated_cost != 0) {
            row++;
            gp_xl_text(s, row, 0, l->strategy, x->f.text);
            gp_xl_text(s, row, 1, "(unused commitments)", x->f.text);
            gp_xl_num(s, row, 7, l->unallocated_cost, x->f.money);
            gp_xl_num(s, row, 8, 0, x->f.num);
            gp_xl_num(s, row, 9, 0, x->f.num);
        }
    }
    gp_xl_table(x, s, first, row, 0, h, 11);
    return row;
}

/* The proposed ledger's cost by team, unused commitments last: a new
 * array (gp_free) of *n teams, or NULL with x->nomem set. */
static xl_team *teams_of(gp_xl *x, const gp_ledger *l, size_t *n)
{
    const gp_trace *t = x->t;
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
    *n = n_teams;
    return teams;
}

/* The proposed ledger's cost by team from `row` (its heading), with a bar
 * chart beside it. */
static void chargeback_teams(gp_xl *x, xl_sheet *s, size_t row)
{
    static const char *const ht[] = {"Team", "Cost", "Useful GPU-hours",
                                     "Cost per useful GPU-hour"};
    const gp_ledger *l = x->r->ledgers[x->r->proposed];
    size_t n_teams, first;
    xl_team *teams = teams_of(x, l, &n_teams);

    char title[160];
    snprintf(title, sizeof title, "Cost by team: %s", l->strategy);
    worksheet_write_string(s->ws, (lxw_row_t)row++, 0, title, x->f.h2);
    first = row;
    for (size_t k = 0; k < n_teams; k++) {
        row++;
        gp_xl_text(s, row, 0, teams[k].name, x->f.text);
        gp_xl_num(s, row, 1, teams[k].cost, x->f.money);
        /* blank, not 0, for a team none of whose usage had a gpu_util */
        gp_xl_num(s, row, 2, teams[k].util > 0 ? teams[k].useful : NAN,
                  x->f.num);
        char a[XL_CELL_SIZE], b[XL_CELL_SIZE], f[192];
        gp_xl_cell(a, row, 1, false);
        gp_xl_cell(b, row, 2, false);
        per_useful_formula(f, sizeof f, a, b, teams[k].cost,
                           teams[k].cost_with_util);
        if (teams[k].useful > 0)
            gp_xl_formula(s, row, 3, f,
                          teams[k].cost_with_util / teams[k].useful,
                          x->f.money);
        else
            worksheet_write_formula_str(s->ws, (lxw_row_t)row, 3, f, x->f.money,
                                        "");
    }
    gp_free(teams);
    if (row > first) {
        gp_xl_table(x, s, first, row, 0, ht, 4);
        lxw_chart *ch = workbook_add_chart(x->wb, LXW_CHART_BAR);
        lxw_chart_series *se = chart_add_series(ch, NULL, NULL);
        chart_series_set_categories(se, s->name, (lxw_row_t)first + 1, 0,
                                    (lxw_row_t)row, 0);
        chart_series_set_values(se, s->name, (lxw_row_t)first + 1, 1,
                                (lxw_row_t)row, 1);
        chart_series_set_name(se, "Cost");
        chart_title_set_name(ch, title);
        gp_xl_money_axis(ch->x_axis);
        chart_legend_set_position(ch, LXW_CHART_LEGEND_NONE);
        gp_xl_insert_chart(x, s, first, 5, ch, 1.2);
    }
}

/* Cost by team, project and workload, and by team with a chart. */
void gp_xl_sheet_chargeback(gp_xl *x)
{
    const gp_report *r = x->r;
    xl_sheet s;
    size_t row = 3;

    gp_xl_sheet_new(x, &s, "Chargeback");
    gp_xl_heading(x, &s, "Chargeback by team, project and workload",
                  "on-demand and spot cost by usage; commitment cost in "
                  "proportion to the on-demand value it covered for each");
    if (r->n_ledgers == 0) {
        gp_xl_not_computed(x, &s, 3, XL_NOT_BILLED);
        gp_xl_fit(&s);
        return;
    }
    row = chargeback_series(x, &s, row);
    chargeback_teams(x, &s, row + 2);
    worksheet_freeze_panes(s.ws, 4, 0);
    gp_xl_fit(&s);
}

/* ---- Idle ---------------------------------------------------------------- */

/* The idle report's totals from `row`, one a row; returns the next row. */
static size_t idle_totals(gp_xl *x, xl_sheet *s, size_t row)
{
    const gp_idle_report *id = x->r->idle;

    worksheet_write_string(s->ws, (lxw_row_t)row, 0, "Idle spans", x->f.label);
    gp_xl_num(s, row++, 1, (double)id->n_spans, x->f.count);
    worksheet_write_string(s->ws, (lxw_row_t)row, 0, "Idle GPU-hours",
                           x->f.label);
    gp_xl_num(s, row++, 1, id->gpu_hours, x->f.num);
    worksheet_write_string(s->ws, (lxw_row_t)row, 0, "Share of GPU-hours",
                           x->f.label);
    gp_xl_num(s, row++, 1,
              id->gpu_hours_with_util > 0
                  ? id->gpu_hours / id->gpu_hours_with_util
                  : NAN,
              x->f.pct);
    worksheet_write_string(s->ws, (lxw_row_t)row, 0, "Idle instance-hours",
                           x->f.label);
    gp_xl_num(s, row++, 1, id->instance_hours, x->f.num);
    worksheet_write_string(s->ws, (lxw_row_t)row, 0, "Cost of idle time",
                           x->f.label);
    gp_xl_num(s, row++, 1, id->cost, x->f.money_bold);
    return row;
}

/* Idle GPUs: the totals, then every idle span. */
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
    row = idle_totals(x, &s, row);
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
