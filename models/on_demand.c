/*
 * on_demand.c: the on-demand purchasing model.  Whatever usage launched on
 * demand is left after reservations and savings plans is billed at the
 * pool's on-demand rate.  It is last in the chain, so it empties
 * hour->remaining.
 */
#include "model.h"

static gp_status on_demand_prepare(const gp_model_input *in, void **state,
                                   gp_error *err)
{
    (void)in;
    (void)err;
    *state = NULL;
    return GP_OK;
}

static void on_demand_bill_hour(void *state, const gp_model_input *in,
                                gp_hour *hour)
{
    (void)state;
    for (size_t p = 0; p < in->trace->n_pools; p++) {
        double cost = hour->remaining[p] * in->od_rate[p];
        hour->od_cost[p] += cost;
        hour->row->cost[GP_MODEL_ON_DEMAND] += cost;
        hour->remaining[p] = 0;
    }
}

static gp_status on_demand_finish(void *state, const gp_model_input *in,
                                  gp_ledger *ledger)
{
    (void)state;
    (void)in;
    (void)ledger;
    return GP_OK;
}

static void on_demand_free(void *state)
{
    (void)state;
}

const gp_model gp_model_on_demand = {
    .name = "on_demand",
    .id = GP_MODEL_ON_DEMAND,
    .cost_key = "on_demand_cost",
    .label = "on-demand",
    .title = "On-demand",
    .prepare = on_demand_prepare,
    .bill_hour = on_demand_bill_hour,
    .finish = on_demand_finish,
    .free = on_demand_free,
};
