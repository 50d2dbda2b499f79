/*
 * budget.c: monthly budgets of teams and projects against a strategy's
 * ledger, and the month a forecast says each will be crossed (budget.h;
 * the rules in docs/scenarios.md#budgets).
 */
#include "budget.h"
#include "util.h"

#include <string.h>

bool gp_budget_has_series(const gp_budget *b, const gp_trace *t, size_t i)
{
    int32_t label = b->by_project ? t->series[i].project : t->series[i].team;
    return label >= 0 && (size_t)label < t->n_labels &&
           strcmp(t->labels[label], b->name) == 0;
}

/* The calendar month of epoch hour h as year * 12 + month - 1. */
static long month_key(int64_t h)
{
    int y;
    unsigned m, d;
    gp_civil_from_days(h >= 0 ? h / 24 : -((-h + 23) / 24), &y, &m, &d);
    return (long)y * 12 + (long)m - 1;
}

/* What budget b's series cost in the ledger's month k. */
static double spent_in(const gp_ledger *l, const gp_trace *t,
                       const gp_budget *b, size_t k)
{
    gp_sum sum = {0};
    for (size_t i = 0; i < l->n_series && i < t->n_series; i++)
        if (gp_budget_has_series(b, t, i))
            gp_sum_add(&sum, l->series_month_cost[i * l->month_slots + k]);
    return gp_sum_value(&sum);
}

/* The forecast of series i's pool and workload in fc, or NULL. */
static const gp_forecast_series *forecast_of(const gp_forecast *fc,
                                             const gp_trace *t, size_t i)
{
    for (size_t k = 0; k < fc->n_series; k++)
        if (fc->series[k].pool == t->series[i].pool &&
            fc->series[k].workload == t->series[i].workload)
            return &fc->series[k];
    return NULL;
}

/* Series i's instance-hours in l's window as the trace records them:
 * what the forecast measures (a lever's ledger counts those it served,
 * some of another type). */
static double recorded_ih(const gp_ledger *l, const gp_trace *t, size_t i)
{
    gp_sum sum = {0};
    for (size_t h = 0; h < l->n_hours; h++) {
        int64_t th = l->start_hour + (int64_t)h - t->start_hour;
        if (th >= 0 && th < (int64_t)t->n_hours)
            gp_sum_add(&sum, t->series[i].instance_hours[th]);
    }
    return gp_sum_value(&sum);
}

/* Adds series i's forecast spend to proj[] (by month from month key
 * first, n months): its pool and workload's P50 times its share of their
 * instance-hours in the window, at its own cost per instance-hour, both
 * of the hours recorded (rec[], by series). */
static void add_forecast(const gp_ledger *l, const gp_trace *t,
                         const gp_forecast *fc, size_t i, const double *rec,
                         long first, double *proj, size_t n)
{
    const gp_forecast_series *fs = forecast_of(fc, t, i);
    double pool_ih = 0;

    if (!fs || !(rec[i] > 0))
        return;
    for (size_t j = 0; j < l->n_series && j < t->n_series; j++)
        if (t->series[j].pool == t->series[i].pool &&
            t->series[j].workload == t->series[i].workload)
            pool_ih += rec[j];
    double share = rec[i] / pool_ih;
    double rate = l->series[i].cost / rec[i];
    for (size_t h = 0; h < fc->n_hours; h++) {
        long k = month_key(fs->points[h].t / 3600) - first;
        if (k >= 0 && (size_t)k < n)
            proj[k] += fs->points[h].p50 * share * rate;
    }
}

/* The crossing of budget bi: the months the forecast touches, each the
 * window's spend in it plus the forecast's, the first over the budget. */
static gp_status crossing(const gp_ledger *l, const gp_trace *t,
                          const gp_scenario *s, const gp_forecast *fc,
                          const double *rec, size_t bi,
                          gp_budget_crossing *c)
{
    const gp_budget *b = &s->budgets[bi];
    long first = month_key(fc->start_hour);
    long last = month_key(fc->start_hour + (int64_t)fc->n_hours - 1);
    size_t n = (size_t)(last - first + 1);
    double *proj = gp_calloc(n + 1, sizeof *proj);

    if (!proj)
        return GP_ERR_NOMEM;
    c->budget = bi;
    for (size_t i = 0; i < l->n_series && i < t->n_series; i++)
        if (gp_budget_has_series(b, t, i))
            add_forecast(l, t, fc, i, rec, first, proj, n);
    for (size_t k = 0; k < l->n_months; k++) {
        long key = (long)l->months[k].year * 12 + l->months[k].month - 1;
        if (key >= first && key <= last)
            proj[key - first] += spent_in(l, t, b, k);
    }
    for (size_t k = 0; k < n; k++) {
        if (proj[k] > b->monthly) {
            c->year = (int)((first + (long)k) / 12);
            c->month = (int)((first + (long)k) % 12) + 1;
            c->projected = proj[k];
            break;
        }
        if (proj[k] > c->projected)
            c->projected = proj[k];
    }
    gp_free(proj);
    return GP_OK;
}

gp_status gp_budget_report_make(const gp_ledger *l, const gp_trace *t,
                                const gp_scenario *s, const gp_forecast *fc,
                                gp_budget_report *out, gp_error *err)
{
    memset(out, 0, sizeof *out);
    if (s->n_budgets == 0)
        return GP_OK;
    out->months = gp_calloc(s->n_budgets * l->n_months + 1,
                            sizeof *out->months);
    out->crossings = gp_calloc(s->n_budgets + 1, sizeof *out->crossings);
    if (!out->months || !out->crossings)
        goto nomem;
    for (size_t bi = 0; bi < s->n_budgets; bi++)
        for (size_t k = 0; k < l->n_months; k++) {
            gp_budget_month *m = &out->months[out->n_months++];
            m->budget = bi;
            m->year = l->months[k].year;
            m->month = l->months[k].month;
            m->budget_amount = s->budgets[bi].monthly;
            m->spent = spent_in(l, t, &s->budgets[bi], k);
            m->over = m->spent > m->budget_amount;
        }
    if (fc && fc->n_hours > 0) {
        double *rec = gp_calloc(t->n_series + 1, sizeof *rec);
        if (!rec)
            goto nomem;
        for (size_t i = 0; i < t->n_series; i++)
            rec[i] = recorded_ih(l, t, i);
        for (size_t bi = 0; bi < s->n_budgets; bi++) {
            if (crossing(l, t, s, fc, rec, bi, &out->crossings[bi]) !=
                GP_OK) {
                gp_free(rec);
                goto nomem;
            }
            out->n_crossings++;
        }
        gp_free(rec);
    }
    return GP_OK;
nomem:
    gp_budget_report_clear(out);
    gp_error_set(err, NULL, 0, 0, NULL, "out of memory");
    return GP_ERR_NOMEM;
}

void gp_budget_report_clear(gp_budget_report *r)
{
    if (!r)
        return;
    gp_free(r->months);
    gp_free(r->crossings);
    memset(r, 0, sizeof *r);
}

gp_status gp_budget_reports(gp_ledger *const *l, size_t n, const gp_trace *t,
                            const gp_scenario *s, int threads,
                            gp_budget_report **out, gp_error *why,
                            gp_error *err)
{
    gp_forecast_options fo;
    gp_forecast *fc = NULL;
    gp_status st;

    *out = NULL;
    gp_error_clear(why);
    if (s->n_budgets == 0 || n == 0)
        return GP_OK;
    gp_budget_report *r = gp_calloc(n, sizeof *r);
    if (!r) {
        gp_error_set(err, NULL, 0, 0, NULL, "out of memory");
        return GP_ERR_NOMEM;
    }
    gp_forecast_options_init(&fo);
    fo.threads = threads;
    st = gp_forecast_run(t, s, GP_BUDGET_HORIZON_HOURS, &fo, &fc, why);
    if (st == GP_ERR_NOMEM)
        *err = *why;
    else
        st = GP_OK;
    for (size_t i = 0; st == GP_OK && i < n; i++)
        st = gp_budget_report_make(l[i], t, s, fc, &r[i], err);
    gp_forecast_free(fc);
    if (st != GP_OK) {
        gp_budget_reports_free(r, n);
        return st;
    }
    *out = r;
    return GP_OK;
}

void gp_budget_reports_free(gp_budget_report *r, size_t n)
{
    for (size_t i = 0; r && i < n; i++)
        gp_budget_report_clear(&r[i]);
    gp_free(r);
}

void gp_budget_warn(const gp_trace *t, const gp_scenario *s, gp_warnings *w)
{
    for (size_t b = 0; b < s->n_budgets; b++) {
        bool used = false;
        for (size_t i = 0; i < t->n_series && !used; i++)
            used = gp_budget_has_series(&s->budgets[b], t, i);
        if (!used)
            gp_warnings_add(w,
                            "budgets[%zu]: %s \"%s\" has no usage in the "
                            "trace: its spend is 0 every month (is the name "
                            "spelt as the trace's %s labels?)",
                            b, s->budgets[b].by_project ? "project" : "team",
                            s->budgets[b].name,
                            s->budgets[b].by_project ? "project" : "team");
    }
}
