/*
 * models.c: the model table, every purchasing model by gp_model_id, the
 * order in which the ledger holds their costs and the writers list them
 * (model.h), and the hour index of job runs the run-billing models share.
 */
#include "model.h"
#include "util.h"

const gp_model *const gp_models[GP_N_MODELS] = {
    [GP_MODEL_ON_DEMAND] = &gp_model_on_demand,
    [GP_MODEL_RESERVED] = &gp_model_reserved,
    [GP_MODEL_SAVINGS_PLAN] = &gp_model_savings_plan,
    [GP_MODEL_SPOT] = &gp_model_spot,
    [GP_MODEL_CAPACITY] = &gp_model_capacity,
};

bool gp_model_index_runs(const gp_model_input *in, const uint32_t *run,
                         size_t stride, size_t n, bool skip_empty,
                         size_t **at_out, uint32_t **active_out)
{
    const gp_trace *t = in->trace;
    size_t nh = in->spec->n_hours;
    size_t *at = gp_calloc(nh + 2, sizeof *at);
    uint32_t *active = NULL;

    *at_out = at;
    *active_out = NULL;
    if (!at)
        return false;
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < n; i++) {
            uint32_t r = *(const uint32_t *)((const char *)run + i * stride);
            const gp_job_run *jr = &t->runs[r];
            for (size_t k = 0; k < jr->n_hours; k++) {
                int64_t h = jr->hour0 + (int64_t)k - in->spec->start_hour;
                if (h < 0 || h >= (int64_t)nh ||
                    (skip_empty && jr->hour_ih[k] <= 0))
                    continue;
                if (pass == 0)
                    at[h + 2]++;
                else
                    active[at[h + 1]++] = (uint32_t)i;
            }
        }
        if (pass == 0) {
            /* counts at h + 2 become starts at h + 1, which the second
             * pass moves to h's end, that is h + 1's start */
            for (size_t h = 2; h < nh + 2; h++)
                at[h] += at[h - 1];
            active = gp_malloc((at[nh + 1] + 1) * sizeof *active);
            *active_out = active;
            if (!active)
                return false;
        }
    }
    return true;
}
