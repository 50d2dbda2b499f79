/*
 * writer_json_jobs.c: the per-job-run table (#37's waits and deadlines,
 * #38's true cost of a training run) in a strategy's JSON: every job run
 * that starts in the window, on spot (the Monte Carlo's means) or on
 * demand (one attempt).  See docs/billing.md "Per job run".
 */
#include "writers.h"

/* A number, or null when it is below 0 (not given). */
static json_t *given(double v)
{
    return v >= 0 ? gp_json_number_or_null(v) : json_null();
}

/* One row of the table: job j of trace t, launched on spot or not. */
static json_t *job_json(const gp_ledger_job *j, const gp_trace *t, bool spot)
{
    const gp_job_run *r = &t->runs[j->run];
    const gp_pool *p = &t->pools[t->series[r->series].pool];
    char a[32], z[32];

    gp_format_time(r->start, a, sizeof a);
    gp_format_time(r->end, z, sizeof z);
    return json_pack(
        "{s:s, s:s, s:s, s:s, s:s, s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o, "
        "s:o, s:o, s:o, s:o, s:o, s:o}",
        "job_id", t->labels[r->job], "launch", spot ? "spot" : "on_demand",
        "instance_type", p->type->name, "region", p->catalog->region, "start",
        a, "end", z, "instances", gp_json_number_or_null(r->instances),
        "instance_hours", gp_json_number_or_null(r->instance_hours),
        "attempts", gp_json_number_or_null(j->attempts_mean), "interruptions",
        gp_json_number_or_null(j->interruptions_mean), "failed_attempt_cost",
        gp_json_number_or_null(j->failed_attempt_cost_mean),
        "cost_per_completed_run", gp_json_number_or_null(j->cost_mean),
        "wait_h", gp_json_number_or_null(j->wait_h_mean), "fallback_cost",
        gp_json_number_or_null(j->fallback_cost_mean), "fallback_share",
        gp_json_number_or_null(j->fallback_share), "deadline_h",
        given(j->deadline_h), "met_deadline", given(j->met_deadline),
        "cost_in_window", gp_json_number_or_null(j->cost_in_window),
        "recorded_interruptions", given(j->recorded_interruptions));
}

json_t *gp_json_job_runs(const gp_ledger *l, const gp_trace *t)
{
    json_t *a = json_array();

    if (!a)
        return NULL;
    for (size_t i = 0; i < l->n_jobs; i++)
        json_array_append_new(a, job_json(&l->jobs[i], t, true));
    for (size_t i = 0; i < l->n_od_jobs; i++)
        json_array_append_new(a, job_json(&l->od_jobs[i], t, false));
    return a;
}
