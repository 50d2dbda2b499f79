/*
 * on_demand_jobs.c: the per-job-run table's rows for job runs launched on
 * demand (#38's true cost of a training run): one attempt, no
 * interruption, and their instance-hours at the on-demand rate.  Runs on
 * spot get theirs from the Monte Carlo (spot.c), runs on a capacity
 * instrument are in the ledger's capacity table.  See docs/billing.md.
 */
#include "spot_internal.h"

gp_status gp_on_demand_job_rows(const gp_model_input *in, gp_ledger *l)
{
    const gp_trace *t = in->trace;
    int64_t first = in->spec->start_hour;
    int64_t end_h = first + (int64_t)in->spec->n_hours;
    size_t n = 0, c = 0;

    l->od_jobs = gp_calloc(t->n_runs + 1, sizeof *l->od_jobs);
    if (!l->od_jobs)
        return GP_ERR_NOMEM;
    for (size_t i = 0; i < t->n_runs; i++) {
        const gp_job_run *jr = &t->runs[i];
        const gp_series *ser = &t->series[jr->series];
        const gp_policy *p = gp_series_policy(in->spec->policy, ser);
        int64_t h0 = jr->start / 3600;
        /* a run the capacity model took (billed before, l->capacity in
         * run order) is its table's, not billed on demand */
        while (c < l->n_capacity && l->capacity[c].run < i)
            c++;
        if (c < l->n_capacity && l->capacity[c].run == i)
            continue;
        /* as spot.c takes its runs: those that start in the window */
        if (gp_series_route(t, in->spec->policy, ser) == GP_ROUTE_SPOT ||
            jr->instances <= 0 || jr->instance_hours <= 0 ||
            h0 < first || h0 >= end_h)
            continue;
        double rate = in->od_rate[ser->pool], ih = 0;
        double work = jr->instance_hours / jr->instances;
        for (size_t k = 0; k < jr->n_hours; k++)
            if (jr->hour0 + (int64_t)k < end_h)
                ih += jr->hour_ih[k];
        gp_ledger_job *j = &l->od_jobs[n++];
        j->run = (uint32_t)i;
        j->attempts_mean = 1;
        j->recorded_interruptions = -1;
        j->cost_mean = j->cost_p50 = j->cost_p95 = j->base_cost =
            jr->instance_hours * rate;
        j->cost_in_window = ih * rate;
        j->deadline_h = gp_policy_deadline_h(p, work);
        j->met_deadline =
            j->deadline_h >= 0 ? (work <= j->deadline_h + 1e-9) : -1;
    }
    l->n_od_jobs = n;
    return GP_OK;
}
