/*
 * writer_json_capacity.c: recommend's capacity actions (SPEC 7.4), one
 * per large job run, appended to its "actions": the option chosen, its
 * cost, reason and risk, and every option's cost beside it.  Formats
 * only; recommend_capacity.c prices.
 */
#include "recommend.h"
#include "writers.h"

#include <math.h>

/* One option of a run. */
static json_t *option_obj(gp_capacity_option k, const gp_capacity_cost *o)
{
    json_t *j = json_object();
    json_object_set_new(j, "option", json_string(gp_capacity_option_name(k)));
    json_object_set_new(j, "available", json_boolean(o->available));
    json_object_set_new(j, "cost", o->available
                                       ? gp_json_number_or_null(o->cost)
                                       : json_null());
    json_object_set_new(j, "meets_deadline",
                        json_boolean(o->available && o->meets_deadline));
    json_object_set_new(j, "wait_h", gp_json_number_or_null(o->wait_h));
    json_object_set_new(j, "finish_h", o->available
                                           ? gp_json_number_or_null(o->finish_h)
                                           : json_null());
    if (k == GP_CAP_BLOCK || k == GP_CAP_CALENDAR) {
        json_object_set_new(j, "days", json_integer(o->days));
        json_object_set_new(j, "unused_h", gp_json_number_or_null(o->unused_h));
        json_object_set_new(j, "unused_instance_hours",
                            gp_json_number_or_null(o->unused_ih));
    }
    if (k == GP_CAP_BLOCK || k == GP_CAP_FLEX)
        json_object_set_new(j, k == GP_CAP_BLOCK ? "blocks" : "requests",
                            json_integer(o->units));
    json_object_set_new(j, "estimate", json_boolean(o->estimate));
    json_object_set_new(j, "note", json_string(o->note));
    return j;
}

void gp_json_capacity_actions(json_t *actions,
                              const struct gp_recommendation *r,
                              const gp_trace *t)
{
    for (size_t i = 0; i < r->n_capacity; i++) {
        const gp_capacity_choice *ch = &r->capacity[i];
        const gp_job_run *jr = &t->runs[ch->run];
        const gp_pool *pool = &t->pools[t->series[jr->series].pool];
        json_t *o = json_object(), *opts = json_array();
        char start[32];
        gp_format_time(jr->start, start, sizeof start);
        json_object_set_new(o, "rank",
                            json_integer((json_int_t)(r->n_actions + i + 1)));
        json_object_set_new(o, "type", json_string("capacity"));
        json_object_set_new(o, "job_id", json_string(t->labels[jr->job]));
        json_object_set_new(o, "option",
                            json_string(gp_capacity_option_name(ch->chosen)));
        json_object_set_new(o, "cost",
                            gp_json_number_or_null(ch->option[ch->chosen].cost));
        json_object_set_new(o, "net_savings",
                            gp_json_number_or_null(ch->net_savings));
        json_object_set_new(o, "provider", json_string(pool->catalog->provider));
        json_object_set_new(o, "region", json_string(pool->catalog->region));
        json_object_set_new(o, "instance_type", json_string(pool->type->name));
        json_object_set_new(o, "start", json_string(start));
        json_object_set_new(o, "instances", gp_json_number_or_null(ch->instances));
        json_object_set_new(o, "hours", gp_json_number_or_null(ch->hours));
        json_object_set_new(o, "instance_hours",
                            gp_json_number_or_null(ch->instance_hours));
        json_object_set_new(o, "deadline_h",
                            isfinite(ch->deadline_h)
                                ? gp_json_number_or_null(ch->deadline_h)
                                : json_null());
        json_object_set_new(o, "reason", json_string(ch->reason));
        json_object_set_new(o, "risk", json_string(ch->risk));
        for (int k = 0; k < GP_N_CAP_OPTIONS; k++)
            json_array_append_new(
                opts, option_obj((gp_capacity_option)k, &ch->option[k]));
        json_object_set_new(o, "options", opts);
        json_array_append_new(actions, o);
    }
}

json_t *gp_json_capacity_runs(const gp_ledger *l, const gp_trace *t)
{
    json_t *runs = json_array();
    for (size_t i = 0; i < l->n_capacity; i++) {
        const gp_ledger_capacity *c = &l->capacity[i];
        const gp_job_run *jr = &t->runs[c->run];
        json_t *o = json_object();
        json_object_set_new(o, "job_id", json_string(t->labels[jr->job]));
        json_object_set_new(o, "launch", json_string(gp_launch_name(c->launch)));
        json_object_set_new(o, "cost", gp_json_number_or_null(c->cost));
        if (c->launch == GP_LAUNCH_FLEX_START) {
            json_object_set_new(o, "requests", json_integer(c->units));
            json_object_set_new(o, "wait_h", gp_json_number_or_null(c->wait_h));
        } else {
            json_object_set_new(o, "days", json_integer(c->days));
            if (c->launch == GP_LAUNCH_CAPACITY_BLOCK)
                json_object_set_new(o, "blocks", json_integer(c->units));
            json_object_set_new(o, "unused_h",
                                gp_json_number_or_null(c->unused_h));
            json_object_set_new(o, "unused_instance_hours",
                                gp_json_number_or_null(c->unused_ih));
        }
        json_array_append_new(runs, o);
    }
    return json_pack("{s:o, s:I}", "runs", runs, "runs_on_demand",
                     (json_int_t)l->capacity_runs_on_demand);
}

/* The instance-hours of job run jr inside ledger l's window. */
static double run_ih_in_window(const gp_job_run *jr, const gp_ledger *l)
{
    double ih = 0;
    for (size_t k = 0; k < jr->n_hours; k++) {
        int64_t h = jr->hour0 + (int64_t)k - l->start_hour;
        if (h >= 0 && h < (int64_t)l->n_hours)
            ih += jr->hour_ih[k];
    }
    return ih;
}

void gp_capacity_left_warn(gp_run_info *info, const gp_ledger *l,
                           const gp_strategy *sg)
{
    const gp_trace *t = info->trace;
    double total[2] = {0, 0}, taken[2] = {0, 0};

    if (sg->policy[0].launch < GP_LAUNCH_CAPACITY_BLOCK &&
        sg->policy[1].launch < GP_LAUNCH_CAPACITY_BLOCK)
        return;
    for (size_t i = 0; i < t->n_series; i++)
        total[gp_policy_of(sg, &t->series[i]) - sg->policy] +=
            l->series[i].instance_hours;
    for (size_t i = 0; i < l->n_capacity; i++) {
        const gp_job_run *jr = &t->runs[l->capacity[i].run];
        taken[gp_policy_of(sg, &t->series[jr->series]) - sg->policy] +=
            run_ih_in_window(jr, l);
    }
    for (int w = 0; w < 2; w++) {
        double left = total[w] - taken[w];
        if (sg->policy[w].launch < GP_LAUNCH_CAPACITY_BLOCK || left < 0.005)
            continue;
        gp_warnings_add(&info->warnings,
                        "strategy \"%s\" launches %s on %s, but %.2f of its "
                        "%.2f instance-hours in the window are not in a job "
                        "run it takes (no job_id, a run started before the "
                        "window, or a type whose catalog does not sell it "
                        "for so long) and stay on demand",
                        sg->name, gp_workload_name((gp_workload)w),
                        gp_launch_name(sg->policy[w].launch), left, total[w]);
    }
}
