/*
 * budget.h: the scenario's monthly budgets (SPEC 7.5) against a strategy's
 * spend: each team's or project's cost month by month (the chargeback's
 * allocation, gp_ledger.series_month_cost), whether it went over, and the
 * first month a demand forecast priced at the strategy's rates says it
 * will.  The rules: docs/scenarios.md#budgets.
 */
#ifndef GP_BUDGET_H
#define GP_BUDGET_H

#include "engine.h"
#include "forecast.h"

/* How far the budgets' forecast looks past the trace: 13 weeks. */
#define GP_BUDGET_HORIZON_HOURS (13 * 168)

/* One budget in one month of the window. */
typedef struct gp_budget_month {
    size_t budget; /* index into the scenario's budgets */
    int year, month;
    double budget_amount; /* the monthly budget */
    double spent;         /* its series' cost in the month's window hours */
    bool over;            /* spent > budget_amount */
} gp_budget_month;

/* Where a forecast says one budget will be crossed. */
typedef struct gp_budget_crossing {
    size_t budget;
    /* the first month from the trace's last one on whose spend (what the
     * window billed of it plus the forecast of its hours after the
     * trace) is over the budget; 0, 0 when none is within the horizon */
    int year, month;
    double projected; /* that month's spend, or the highest one seen */
} gp_budget_crossing;

/* A strategy's budgets: months[] by budget, then month; crossings[] one
 * per budget (none without a forecast). */
typedef struct gp_budget_report {
    gp_budget_month *months;
    size_t n_months;
    gp_budget_crossing *crossings;
    size_t n_crossings;
} gp_budget_report;

/* The budgets of scenario s against ledger l of trace t into *out (zeroed
 * first), with the crossings from forecast fc (NULL: none).  A series'
 * forecast spend is its pool and workload's P50 forecast times its share
 * of that pool and workload's instance-hours in the window, priced at its
 * own cost in l per instance-hour, both of the hours t records. */
gp_status gp_budget_report_make(const gp_ledger *l, const gp_trace *t,
                                const gp_scenario *s, const gp_forecast *fc,
                                gp_budget_report *out, gp_error *err);
void gp_budget_report_clear(gp_budget_report *r);

/* The budgets of s against each of the n ledgers (l[i] may not be NULL)
 * into a new array *out of n reports (NULL when s has no budgets), with
 * the crossings of a forecast of GP_BUDGET_HORIZON_HOURS after the trace
 * (`threads` as gp_forecast_options has them).  A forecast that cannot be
 * made leaves the crossings out and says why in *why (cleared first);
 * only running out of memory fails. */
gp_status gp_budget_reports(gp_ledger *const *l, size_t n, const gp_trace *t,
                            const gp_scenario *s, int threads,
                            gp_budget_report **out, gp_error *why,
                            gp_error *err);
/* Frees the n reports of gp_budget_reports; NULL is a no-op. */
void gp_budget_reports_free(gp_budget_report *r, size_t n);

/* Adds to w a warning for each budget of s whose team or project has no
 * usage in t (a name spelt otherwise than the trace's labels). */
void gp_budget_warn(const gp_trace *t, const gp_scenario *s, gp_warnings *w);

/* Whether series i of t counts against budget b. */
bool gp_budget_has_series(const gp_budget *b, const gp_trace *t, size_t i);

#endif
