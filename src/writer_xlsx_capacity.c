/*
 * writer_xlsx_capacity.c: the Capacity sheet, after Recommendations when
 * recommend priced large job runs (SPEC 7.4): the capacity actions (the
 * option chosen per run, its cost, reason and risk) and every option's
 * cost per run.  Formats only; recommend_capacity.c prices.
 */
#include "recommend.h"
#include "writer_xlsx.h"

#include <math.h>
#include <stdio.h>

/* The capacity actions, one row per run, from row `row` (the header). */
static size_t choices_table(gp_xl *x, xl_sheet *s, size_t row)
{
    static const char *const h[] = {
        "Rank",          "Job",           "Instance type",
        "Start",         "Instances",     "Hours",
        "Deadline (h)",  "Option chosen", "Cost",
        "On-demand cost", "Net savings vs on demand", "Why", "Risk"};
    const gp_recommendation *rec = x->r->rec;
    const gp_trace *t = x->t;
    size_t first = row;

    for (size_t i = 0; i < rec->n_capacity; i++) {
        const gp_capacity_choice *ch = &rec->capacity[i];
        const gp_job_run *jr = &t->runs[ch->run];
        row++;
        gp_xl_num(s, row, 0, (double)(rec->n_actions + i + 1), x->f.count);
        gp_xl_text_capped(s, row, 1, t->labels[jr->job], x->f.text);
        gp_xl_text(s, row, 2, t->pools[t->series[jr->series].pool].type->name,
                   x->f.text);
        gp_xl_num(s, row, 3, gp_xl_when((double)jr->start), x->f.when);
        gp_xl_num(s, row, 4, ch->instances, x->f.num);
        gp_xl_num(s, row, 5, ch->hours, x->f.num);
        gp_xl_num(s, row, 6, isfinite(ch->deadline_h) ? ch->deadline_h : NAN,
                  x->f.num);
        gp_xl_text(s, row, 7, gp_capacity_option_name(ch->chosen), x->f.text);
        gp_xl_num(s, row, 8, ch->option[ch->chosen].cost, x->f.money);
        gp_xl_num(s, row, 9, ch->option[GP_CAP_ON_DEMAND].cost, x->f.money);
        gp_xl_num(s, row, 10, ch->net_savings, x->f.money);
        gp_xl_wrap(s, row, 11, ch->reason, x->f.wrap, 50);
        gp_xl_wrap(s, row, 12, ch->risk, x->f.wrap, 50);
    }
    gp_xl_table(x, s, first, row, 0, h, 13);
    return row;
}

/* Every option of every run, from row `row` (the header). */
static size_t options_table(gp_xl *x, xl_sheet *s, size_t row)
{
    static const char *const h[] = {
        "Job",          "Option",     "Sold",        "Cost",
        "Meets deadline", "Wait (h)", "Finish (h)",  "Days",
        "Unused (h)",   "Unused instance-hours", "Estimate", "Note"};
    const gp_recommendation *rec = x->r->rec;
    const gp_trace *t = x->t;
    size_t first = row;

    for (size_t i = 0; i < rec->n_capacity; i++) {
        const gp_capacity_choice *ch = &rec->capacity[i];
        for (int k = 0; k < GP_N_CAP_OPTIONS; k++) {
            const gp_capacity_cost *o = &ch->option[k];
            bool resv = k == GP_CAP_BLOCK || k == GP_CAP_CALENDAR;
            row++;
            gp_xl_text_capped(s, row, 0, t->labels[t->runs[ch->run].job],
                              x->f.text);
            gp_xl_text(s, row, 1,
                       gp_capacity_option_name((gp_capacity_option)k),
                       x->f.text);
            gp_xl_text(s, row, 2, o->available ? "yes" : "no", x->f.text);
            if (o->available) {
                gp_xl_num(s, row, 3, o->cost, x->f.money);
                gp_xl_text(s, row, 4, o->meets_deadline ? "yes" : "no",
                           x->f.text);
                gp_xl_num(s, row, 5, o->wait_h, x->f.num);
                gp_xl_num(s, row, 6, o->finish_h, x->f.num);
                gp_xl_num(s, row, 7, resv ? o->days : NAN, x->f.count);
                gp_xl_num(s, row, 8, resv ? o->unused_h : NAN, x->f.num);
                gp_xl_num(s, row, 9, resv ? o->unused_ih : NAN, x->f.num);
                gp_xl_text(s, row, 10, o->estimate ? "yes" : "no", x->f.text);
            }
            gp_xl_wrap(s, row, 11, o->note, x->f.wrap, 50);
        }
    }
    gp_xl_table(x, s, first, row, 0, h, 12);
    return row;
}

/* The job runs the ledgers' policies launched on capacity, from row
 * `row` (the header). */
static size_t launched_table(gp_xl *x, xl_sheet *s, size_t row)
{
    static const char *const h[] = {
        "Strategy", "Job", "Launched on", "Cost", "Days",
        "Blocks or requests", "Unused (h)", "Unused instance-hours",
        "Wait (h)"};
    const gp_trace *t = x->t;
    size_t first = row;

    for (size_t k = 0; k < x->r->n_ledgers; k++) {
        const gp_ledger *l = x->r->ledgers[k];
        for (size_t i = 0; l && i < l->n_capacity; i++) {
            const gp_ledger_capacity *c = &l->capacity[i];
            bool flex = c->launch == GP_LAUNCH_FLEX_START;
            row++;
            gp_xl_text_capped(s, row, 0, l->strategy, x->f.text);
            gp_xl_text_capped(s, row, 1, t->labels[t->runs[c->run].job],
                              x->f.text);
            gp_xl_text(s, row, 2, gp_launch_name(c->launch), x->f.text);
            gp_xl_num(s, row, 3, c->cost, x->f.money);
            gp_xl_num(s, row, 4, flex ? NAN : c->days, x->f.count);
            gp_xl_num(s, row, 5, c->units, x->f.count);
            gp_xl_num(s, row, 6, flex ? NAN : c->unused_h, x->f.num);
            gp_xl_num(s, row, 7, flex ? NAN : c->unused_ih, x->f.num);
            gp_xl_num(s, row, 8, flex ? c->wait_h : NAN, x->f.num);
        }
    }
    gp_xl_table(x, s, first, row, 0, h, 9);
    return row;
}

/* Whether a ledger of the report launched job runs on capacity. */
static bool any_launched(const gp_report *r)
{
    for (size_t k = 0; k < r->n_ledgers; k++)
        if (r->ledgers[k] && r->ledgers[k]->n_capacity > 0)
            return true;
    return false;
}

void gp_xl_sheet_capacity(gp_xl *x)
{
    const gp_recommendation *rec = x->r->rec;
    bool priced = rec && rec->n_capacity > 0;
    xl_sheet s;
    char what[512];

    if (!x->t || (!priced && !any_launched(x->r)))
        return;
    if (priced)
        snprintf(what, sizeof what,
                 "The %zu largest of %zu job runs with %g or more instances "
                 "for %g hours or more, each priced on demand, on spot (the "
                 "Monte Carlo mean), on a capacity block sized to it, on "
                 "flex-start and on a calendar reservation where the "
                 "catalog sells them; the cheapest that meets the run's "
                 "deadline is chosen.",
                 rec->n_capacity, rec->capacity_large,
                 GP_CAPACITY_MIN_INSTANCES, GP_CAPACITY_MIN_HOURS);
    else
        snprintf(what, sizeof what,
                 "The job runs a policy launched on a capacity block, "
                 "flex-start or a calendar reservation: a block or a "
                 "reservation paid whole when its run starts, flex-start "
                 "as used, after its wait.");
    gp_xl_sheet_new(x, &s, "Capacity");
    gp_xl_heading(x, &s,
                  priced ? "Capacity for large job runs" : "Capacity instruments",
                  what);
    size_t row = 3;
    if (priced) {
        row = choices_table(x, &s, row) + 2;
        worksheet_write_string(s.ws, (lxw_row_t)row, 0,
                               "Every option of every run", x->f.h2);
        row = options_table(x, &s, row + 1) + 2;
    }
    if (any_launched(x->r)) {
        if (priced)
            worksheet_write_string(s.ws, (lxw_row_t)row++, 0,
                                   "Job runs the policies launched on them",
                                   x->f.h2);
        launched_table(x, &s, row);
    }
    worksheet_freeze_panes(s.ws, 4, 2);
    gp_xl_fit(&s);
}
