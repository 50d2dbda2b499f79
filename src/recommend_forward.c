/*
 * recommend_forward.c: a recommendation for the forecast ahead (the forward
 * parameter): sized on its P50 demand, the low-demand case on its P10 demand,
 * the upside billed on its P90 demand.
 */
#include "recommend_internal.h"
#include "forecast.h"
#include "util.h"

#include <stdio.h>
#include <string.h>

/*
 * the forward parameter: forecast the next forward_hours from the whole trace,
 * then recommend for the forecast's P50 demand as if it were history, with the
 * P10 demand as the low-demand case (downside) and the plan billed on the
 * P90 demand too (upside).
 */
gp_status gp_rec_forward(const gp_trace *trace, const gp_pricing *pricing,
                         const gp_scenario *s, const gp_recommend_options *opt,
                         gp_recommendation *r, gp_error *err)
{
    gp_forecast_options fo;
    gp_forecast *fc = NULL;
    gp_trace *q[3] = {NULL, NULL, NULL};
    struct ctx c, high, high_policy;
    gp_status st;

    gp_forecast_options_init(&fo);
    fo.threads = opt->threads;
    fo.progress = opt->progress;
    st = gp_forecast_run(trace, s, opt->forward_hours, &fo, &fc, err);
    if (st == GP_ERR_USAGE && err && err->param == GP_PARAM_HORIZON)
        err->param = GP_PARAM_FORWARD;
    for (int i = 0; st == GP_OK && i < 3; i++) {
        st = gp_forecast_trace(fc, trace, (gp_forecast_quantile)i, &q[i],
                               err);
        if (st == GP_ERR_INPUT && err) {
            err->field[0] = '\0';
            err->param = GP_PARAM_FORWARD;
        }
    }
    if (st != GP_OK)
        goto out;
    gp_rec_ctx_init(&c, q[GP_FC_P50], pricing, s, fc->start_hour, fc->n_hours,
                    opt);
    c.low = q[GP_FC_P10];
    st = gp_rec_window(&c, r, true, err);
    if (st != GP_OK)
        goto out;
    /* the recommended plan (routing included) on P90 demand, against the
     * scenario's policy on the same demand */
    const gp_plan_result *plan = &r->plans[r->recommended];
    gp_rec_ctx_copy(&high, &c);
    high.trace = q[GP_FC_P90];
    gp_rec_ctx_init(&high_policy, q[GP_FC_P90], pricing, s, fc->start_hour,
                    fc->n_hours, opt);
    double policy_cost, plan_cost;
    st = gp_rec_bill_cost(&high_policy, NULL, NULL, 0, &policy_cost, err);
    if (st == GP_OK)
        st = gp_rec_bill_cost(&high, NULL, plan->commitments,
                              plan->n_commitments, &plan_cost, err);
    if (st != GP_OK)
        goto out;
    r->forward = true;
    r->forward_hours = fc->n_hours;
    r->forward_upside_policy_cost = policy_cost;
    r->forward_upside_net_savings = policy_cost - plan_cost;
    r->forward_downside_net_savings = plan->downside_net_savings;
    r->forward_p50_net_savings = plan->net_savings;
    for (int i = 0; i < 3; i++)
        for (size_t k = 0; k < q[i]->n_series; k++)
            for (size_t h = 0; h < q[i]->n_hours; h++)
                r->forward_instance_hours[i] +=
                    q[i]->series[k].instance_hours[h];
    char why[240] = "";
    if (r->supported_term == 1) {
        char reason[200];
        gp_rec_unsupported_why(r, fc->n_hours, true, reason, sizeof reason);
        snprintf(why, sizeof why, "; 1-year terms only, as %s", reason);
    }
    gp_warnings_add(&r->notes,
                    "forward plan: bought against the forecast of the next "
                    "%zu hour%s (P50 demand), downside on P10 demand, upside "
                    "on P90 demand%s",
                    fc->n_hours, gp_plural(fc->n_hours, "", "s"), why);
    /* the plan is only as good as the forecast: its notes (a partial
     * hour left out, a short history, a series left out for having no
     * demand, exact baselines, ...) are the plan's too */
    for (size_t i = 0; i < fc->notes.count; i++)
        gp_warnings_add(&r->notes, "forecast: %s", fc->notes.items[i]);
    r->forecast = fc; /* the workbook's Forecast sheet shows it */
    fc = NULL;
out:
    for (int i = 0; i < 3; i++)
        gp_forecast_trace_free(q[i]);
    gp_forecast_free(fc);
    return st;
}
