/*
 * writer_json_budgets.c: a strategy's budgets as simulate's JSON
 * "budgets" and "budget_forecast" (SPEC 7.5).  Formats only; budget.c
 * computes.
 */
#include "budget.h"
#include "writers.h"

/* {"team" or "project": name} of budget b, to add the rest to. */
static json_t *budget_obj(const gp_budget *b)
{
    return json_pack("{s:s}", b->by_project ? "project" : "team", b->name);
}

json_t *gp_json_budgets(const gp_budget_report *r, const gp_scenario *s)
{
    json_t *a = json_array();
    char ym[16];

    for (size_t i = 0; a && i < r->n_months; i++) {
        const gp_budget_month *m = &r->months[i];
        json_t *o = budget_obj(&s->budgets[m->budget]);
        snprintf(ym, sizeof ym, "%04d-%02d", m->year, m->month);
        json_object_set_new(o, "month", json_string(ym));
        json_object_set_new(o, "budget", json_real(m->budget_amount));
        json_object_set_new(o, "spent", json_real(m->spent));
        json_object_set_new(o, "over", json_boolean(m->over));
        json_array_append_new(a, o);
    }
    return a;
}

json_t *gp_json_budget_forecast(const gp_budget_report *r,
                                const gp_scenario *s)
{
    json_t *a = json_array();
    char ym[16];

    for (size_t i = 0; a && i < r->n_crossings; i++) {
        const gp_budget_crossing *c = &r->crossings[i];
        const gp_budget *b = &s->budgets[c->budget];
        json_t *o = budget_obj(b);
        json_object_set_new(o, "budget", json_real(b->monthly));
        snprintf(ym, sizeof ym, "%04d-%02d", c->year, c->month);
        json_object_set_new(o, "crosses_in",
                            c->year ? json_string(ym) : json_null());
        json_object_set_new(o, "projected", json_real(c->projected));
        json_array_append_new(a, o);
    }
    return a;
}
