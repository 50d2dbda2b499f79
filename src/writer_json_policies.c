/*
 * writer_json_policies.c: purchase policies replayed over the trace as
 * simulate's JSON "policies" (SPEC 7.3).  Formats only; policy.c replays.
 */
#include "policy.h"
#include "writers.h"

/* One month of a replay. */
static json_t *month_obj(const gp_policy_month *m)
{
    char ym[16];
    snprintf(ym, sizeof ym, "%04d-%02d", m->year, m->month);
    return json_pack("{s:s, s:o, s:o, s:o, s:o}", "month", ym, "total_cost",
                     gp_json_number_or_null(m->total_cost), "esr",
                     gp_json_number_or_null(m->esr), "coverage",
                     gp_json_number_or_null(m->coverage), "upfront",
                     gp_json_number_or_null(m->upfront));
}

/* One policy's replay. */
static json_t *policy_obj(const gp_policy_result *r)
{
    json_t *o = json_object(), *buys = json_array(), *months = json_array();
    char when[32];

    for (size_t i = 0; i < r->n_purchases; i++) {
        json_t *c = gp_json_commitment(&r->purchases[i]);
        gp_format_time(r->purchases[i].start, when, sizeof when);
        json_object_set_new(c, "bought_at", json_string(when));
        json_array_append_new(buys, c);
    }
    for (size_t i = 0; i < r->n_months; i++)
        json_array_append_new(months, month_obj(&r->months[i]));
    json_object_set_new(o, "name", json_string(r->policy->name));
    json_object_set_new(o, "kind",
                        json_string(gp_purchase_kind_name(r->policy->kind)));
    const struct {
        const char *key;
        double v;
    } num[] = {{"total_cost", r->total_cost},
               {"all_on_demand_cost", r->all_on_demand_cost},
               {"esr", r->esr},
               {"coverage", r->coverage},
               {"commitment_utilization", r->commitment_utilization},
               {"unused_commitment_cost", r->unused_commitment_cost},
               {"lock_in_cost", r->lock_in_cost},
               {"lock_in_months", r->lock_in_months}};
    for (size_t i = 0; i < sizeof num / sizeof num[0]; i++)
        json_object_set_new(o, num[i].key, gp_json_number_or_null(num[i].v));
    json_object_set_new(o, "purchases", buys);
    json_object_set_new(o, "monthly", months);
    return o;
}

json_t *gp_json_policies(const struct gp_policy_result *r, size_t n)
{
    json_t *arr = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(arr, policy_obj(&r[i]));
    return arr;
}
